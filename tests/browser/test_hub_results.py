"""A hub user's notebook sends results to the class service of a real JupyterHub (issue 26).

The hub of tests/browser/test_hub.py (the README's "On a JupyterHub" lines, on 127.0.0.1,
no single-user server started), plus a service of this test's own that makes users and
their API tokens as a spawner would give them to a kernel: Ali's token holds the class
service's access scope (the README's ``c.Spawner.server_token_scopes``), Bina's does not.
In this process, as Ali's kernel (``JUPYTERHUB_API_TOKEN``, ``JUPYTERHUB_USER`` and the
README's ``COURTLEARN_CLASS``), ``cl.classroom.join()`` joins by the hub's word alone, a
check goes to the class; a token without the scope, or none, is turned away. No browser.
"""
from __future__ import annotations

import json
import secrets
import sqlite3
import urllib.error
import urllib.request

import pytest

import test_hub
from test_hub import CHP, SERVICE, Hub

pytest.importorskip("jupyterhub")
pytestmark = pytest.mark.timeout(300)

MAKER = secrets.token_hex(16)
EXTRA = f"""
# tests/browser/test_hub_results.py: a service that makes users and their kernels' tokens
c.JupyterHub.services.append({{"name": "tokenmaker", "api_token": {MAKER!r}}})
c.JupyterHub.load_roles.append({{"name": "tokenmaker", "services": ["tokenmaker"],
    "scopes": ["admin:users", "tokens", "access:services!service={SERVICE}"]}})
"""


def hub_api(hub: Hub, method: str, path: str, body=None) -> dict:
    req = urllib.request.Request(f"{hub.base}/hub/api/{path}", method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Authorization": f"token {MAKER}",
                                          "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read() or b"{}")


def post(url: str, body: dict, token: str | None) -> tuple[int, dict]:
    head = {"Content-Type": "application/json"}
    if token:
        head["Authorization"] = f"token {token}"
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=head,
                                 method="POST")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as err:
        return err.code, {}


@pytest.fixture
def hub(tmp_path, monkeypatch):
    if not CHP.exists():
        pytest.fail(f"configurable-http-proxy not found at {CHP}: run `make test`")
    readme = test_hub.readme_config
    monkeypatch.setattr(test_hub, "readme_config", lambda *a: readme(*a) + EXTRA)
    h = Hub(tmp_path)
    try:
        yield h.start()
    finally:
        h.stop()


def test_a_hub_users_notebook_joins_by_its_token_and_its_checks_reach_the_class(
        hub, tmp_path, monkeypatch):
    import courtlearn as cl
    from courtlearn.classroom import client
    hub_api(hub, "POST", "users", {"usernames": ["ali", "bina"]})
    scope = f"access:services!service={SERVICE}"
    ali = hub_api(hub, "POST", "users/ali/tokens", {"scopes": [scope]})["token"]
    bina = hub_api(hub, "POST", "users/bina/tokens", {"scopes": ["read:users:name!user"]})["token"]

    # Ali's kernel, on the hub: the admin's COURTLEARN_CLASS names the service
    monkeypatch.setenv("COURTLEARN_PROGRESS", str(tmp_path / "progress.json"))
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", ali)
    monkeypatch.setenv("JUPYTERHUB_USER", "ali")
    monkeypatch.setenv("COURTLEARN_CLASS", hub.service)
    monkeypatch.delenv("COURTLEARN_STRICT", raising=False)
    client._state["env_adopted"] = None
    try:
        m = client.join()
        assert m.joined and m.hub and m.name == "ali", str(m)
        cl.exercises.question("trick_winner", 1).check("2♥")
        cl.exercises.question("trick_winner", 1).check("K♥")
        assert client.flush().pending == 0
        mine = client.my_results()
        assert mine["item"].tolist() == ["trick_winner/1"] and mine["tries"].tolist() == [2]
    finally:
        client.leave()

    # a token without the service's scope, or none (a kernel elsewhere): turned away
    one = {"results": [{"id": "bina-000001", "kind": "exercise", "item": "trick_winner/1",
                        "answer": "K♥"}]}
    assert post(hub.service + "api/join", {}, bina)[0] == 403
    assert post(hub.service + "api/results", one, bina)[0] == 403
    assert post(hub.service + "api/results", one, None)[0] == 403

    with sqlite3.connect(f"file:{hub.db}?mode=ro", uri=True, timeout=5) as db:
        rows = db.execute("SELECT l.name, l.hub_user, r.answer, r.right FROM results r "
                          "JOIN learners l ON l.id = r.learner ORDER BY r.attempt").fetchall()
    assert rows == [("ali", "ali", json.dumps("2♥", ensure_ascii=False), 0),
                    ("ali", "ali", json.dumps("K♥", ensure_ascii=False), 1)]
