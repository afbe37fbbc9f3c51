"""The class server as a JupyterHub service, against a real JupyterHub (issue 25).

A JupyterHub on 127.0.0.1 (free ports, its database, cookie secret and config in a temp
folder; configurable-http-proxy from npm, installed by `make test` in build/hub; a dummy
authenticator; no single-user server is ever started) runs `courtlearn class serve` as a
managed service, configured by the lines of the README's "On a JupyterHub" (every hub
user may use the service; the user "teacher" also holds `custom:courtlearn:teach`). In Chromium, two learners log
in to the hub (two browser contexts), open the service, join by their hub names with no
class code, take seats at one table and play a card each; a learner returning from a
fresh browser (no saved token) is back in their seat by their hub login alone; the
teacher's login reaches the teacher's page and a learner's does not; a socket without
a login is closed with the code that makes the page log in again. Every wait is bounded
and every process is torn down.
"""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from labserver import ARTIFACTS, ROOT, free_port
from page_errors import PageErrors

pytest.importorskip("jupyterhub")
pytestmark = pytest.mark.timeout(300)

CHP = ROOT / "build" / "hub" / "node_modules" / ".bin" / "configurable-http-proxy"
SERVICE = "courtlearn"
TEACHER = "teacher"             # the README's teacher
PASSWORD = "any"                 # the dummy authenticator takes any password

CONFIG = """\
# written by tests/browser/test_hub.py: a throw-away hub on 127.0.0.1
c = get_config()  # noqa
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.JupyterHub.db_url = "sqlite:///{tmp}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "{tmp}/jupyterhub_cookie_secret"
c.JupyterHub.pid_file = "{tmp}/jupyterhub.pid"
c.JupyterHub.default_url = "/hub/home"
c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allow_all = True
c.ConfigurableHTTPProxy.command = [{chp!r}]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api_port}"
c.ConfigurableHTTPProxy.debug = False

# the README's lines ("On a JupyterHub") follow, with this test's port and command
"""
README_ANCHOR = "### On a JupyterHub"


def readme_config(service_port: int, command: list) -> str:
    """The jupyterhub_config.py lines of the README, as they are, but for the service's
    port and command (this test's free port, temp folder and Python)."""
    text = (ROOT / "README.md").read_text()
    assert README_ANCHOR in text, f"the README has no {README_ANCHOR!r} subsection"
    block = text.split(README_ANCHOR, 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    url = re.findall(r'"url": "http://127\.0\.0\.1:\d+"', block)
    cmd = re.findall(r'"command": \[[^\]]*\]', block)
    assert len(url) == 1 and len(cmd) == 1, block
    return (block.replace(url[0], f'"url": "http://127.0.0.1:{service_port}"')
                 .replace(cmd[0], f'"command": {command!r}'))


def _get(url: str, timeout: float = 3.0):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def _listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


class Hub:
    """JupyterHub (and through it the proxy and the courtlearn service) on 127.0.0.1."""

    def __init__(self, tmp: Path):
        self.tmp = Path(tmp)
        self.port, self.hub_port, self.api_port, self.service_port = (free_port() for _ in range(4))
        self.base = f"http://127.0.0.1:{self.port}"
        self.service = f"{self.base}/services/{SERVICE}/"
        self.db = self.tmp / "class.sqlite"
        self.proc = None
        self.log = None

    def start(self, timeout: float = 120) -> "Hub":
        command = [sys.executable, "-m", "courtlearn.classroom.cli", "class", "serve",
                   "--db", str(self.db), "--tables", "2", "--code", "HUBTST", "--grace", "60"]
        (self.tmp / "jupyterhub_config.py").write_text(CONFIG.format(
            port=self.port, hub_port=self.hub_port, api_port=self.api_port,
            tmp=self.tmp, chp=str(CHP)) + readme_config(self.service_port, command))
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        for key in [k for k in env if k.startswith(("JUPYTERHUB_", "CONFIGPROXY_"))]:
            del env[key]                  # run inside a hub or not, this hub is our own
        self.log = open(self.tmp / "jupyterhub.log", "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(self.tmp / "jupyterhub_config.py")],
            cwd=self.tmp, env=env, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyterhub exited ({self.proc.returncode}):\n{self.text()}")
            try:
                if _get(self.service + "health")[0] == 200:     # the proxy routes to the service
                    return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise TimeoutError(f"the hub and its service did not come up in {timeout} s:\n"
                                   f"{self.text()}")
            time.sleep(0.25)

    def text(self) -> str:
        path = self.tmp / "jupyterhub.log"
        return path.read_text(errors="replace")[-6000:] if path.exists() else ""

    def ours(self) -> list[int]:
        """Processes this hub started that are still alive: the service (its command holds
        our temp folder) and the proxy (its command holds our API port)."""
        marks = (str(self.db).encode(), f"--api-port\0{self.api_port}\0".encode())
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                cmd = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if any(m in cmd for m in marks):
                found.append(int(entry.name))
        return found

    def stop(self) -> None:
        """SIGTERM: the hub stops its service and its proxy itself; anything of ours still
        alive after a bounded wait is killed by its id."""
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGTERM)
                try:
                    self.proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(timeout=10)
            self.proc = None
            deadline = time.monotonic() + 10
            while self.ours() and time.monotonic() < deadline:
                time.sleep(0.2)
            for pid in self.ours():
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        if self.log is not None:
            self.log.close()
            self.log = None
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            (ARTIFACTS / "jupyterhub.log").write_text(self.text())

    def learner_moves(self) -> list[tuple]:
        """(seat, action) of every move learners made, as the service saved them."""
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=5) as db:
            return db.execute("SELECT seat, token FROM actions WHERE by = 'learner' "
                              "ORDER BY deal, idx").fetchall()


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    if not CHP.exists():
        pytest.fail(f"configurable-http-proxy not found at {CHP}: run `make {CHP.relative_to(ROOT)}`")
    h = Hub(tmp_path_factory.mktemp("hub"))
    try:
        yield h.start()
    finally:
        h.stop()


class User:
    """One person's browser (a context of its own: its own cookies and storage)."""

    def __init__(self, browser, name: str, width: int = 1100):
        self.name = name
        self.ctx = browser.new_context(viewport={"width": width, "height": 900})
        self.errors = PageErrors().watch(self.ctx)
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(30_000)

    def login_to(self, url: str) -> None:
        """Open ``url``: the service sends the browser to the hub's login, and back."""
        self.page.goto(url)
        self.page.wait_for_selector("#username_input")
        self.page.fill("#username_input", self.name)
        self.page.fill("#password_input", PASSWORD)
        self.page.click("#login_submit")
        self.page.wait_for_url(url + "*")

    def close(self) -> None:
        self.ctx.close()


@pytest.fixture
def people(browser):
    made = []

    def make(name, **kw):
        made.append(User(browser, name, **kw))
        return made[-1]
    yield make
    errors = [f"{u.name}: {e}" for u in made for e in u.errors]
    for u in made:
        u.close()
    assert not errors, "the browsers showed errors:\n  " + "\n  ".join(errors[:10])


TURN_JS = """() => {
  const t = document.querySelector('.cl-table');
  if (!t || t.dataset.busy === 'true' || t.dataset.pending === 'true') return null;
  if (t.dataset.toPlay !== t.dataset.viewer) return null;
  if (document.querySelector('[data-role=call-trump]')) return 'trump';
  if (document.querySelector('[data-role=hand] [data-card][data-legal="true"]')) return 'card';
  return null;
}"""


def act(page) -> str | None:
    """If it is this page's turn: call trumps or play a legal card; what it did."""
    what = page.evaluate(TURN_JS)
    if what == "trump":
        page.locator("[data-role=call-trump]").first.click()
    elif what == "card":
        page.locator('[data-role=hand] [data-card][data-legal="true"]').first.click()
    return what


def test_hub_users_join_by_name_sit_and_play_and_only_the_teacher_teaches(hub, people):
    ali, bina = people("ali"), people("bina", width=360)
    for user, seat in ((ali, 0), (bina, 1)):
        user.login_to(hub.service)
        page = user.page
        page.wait_for_selector("[data-role=take-seat]")
        assert page.locator("[data-role=code]").count() == 0     # no class code asked
        assert page.locator("[data-role=whoami]").text_content() == user.name
        assert page.locator("[data-role=connection]").get_attribute("data-connected") == "true"
        page.click(f'[data-role=take-seat][data-table="0"][data-seat="{seat}"]')
        page.wait_for_selector(f'.cl-table[data-viewer="{seat}"]')

    # the bots play seats 2 and 3; each learner plays their own seat when its turn comes
    played = {0: 0, 1: 0}
    deadline = time.monotonic() + 90
    while min(played.values()) < 1:
        assert time.monotonic() < deadline, f"no card from each learner in 90 s: {played}"
        moved = False
        for seat, user in ((0, ali), (1, bina)):
            what = act(user.page)
            if what:
                user.page.wait_for_function(
                    "() => ['accepted', 'refused'].includes(document.querySelector('.cl-table')"
                    ".dataset.reply)")
                assert user.page.locator(".cl-table").get_attribute("data-reply") == "accepted"
                user.page.evaluate("() => { delete document.querySelector('.cl-table').dataset.reply; }")
                played[seat] += what == "card"
                moved = True
        if not moved:
            time.sleep(0.1)
    moves = hub.learner_moves()
    for seat in (0, 1):                      # a card's action is the card ("AS"), a call is not
        assert any(s == seat and re.fullmatch(r"(10|[2-9TJQKA])[SHDC]", tok)
                   for s, tok in moves), (seat, moves)

    # each table page names both learners (by their hub names) as here
    for user in (ali, bina):
        user.page.wait_for_function(
            "() => [...document.querySelectorAll('[data-role=roster-seat][data-status=here]')]"
            ".length === 2")
        roster = user.page.locator("[data-role=roster]").text_content()
        assert "ali" in roster and "bina" in roster

    # ali again from a fresh browser (no saved token, a new hub login): the same seat
    again = people("ali")
    again.login_to(hub.service)
    again.page.wait_for_selector('.cl-table[data-viewer="0"]')
    assert again.page.locator("[data-role=take-seat]").count() == 0
    assert again.page.evaluate("() => Object.keys(localStorage).length") == 0

    # the teacher's page: the hub user with the teaching scope reaches it, a learner not
    teacher = people(TEACHER)
    teacher.login_to(hub.service)
    teacher.page.wait_for_selector("[data-role=take-seat]")
    status = teacher.ctx.request.get(hub.service + "teacher", max_redirects=0).status
    assert status == 200
    assert ali.ctx.request.get(hub.service + "teacher", max_redirects=0).status == 403
    # ... and is let in by the hub login alone (no teacher's token), sees the class and
    # steers it: a pause reaches the learners' pages
    teacher.page.goto(hub.service + "teacher")
    teacher.page.wait_for_selector("[data-role=dashboard] [data-role=dash-table]")
    assert teacher.page.locator("[data-role=teacher-login]").count() == 0
    teacher.page.wait_for_function(
        "() => [...document.querySelectorAll('[data-role=dash-table][data-table=\"0\"] "
        "[data-role=dash-seat]')].map(e => e.textContent).join(' ').includes('bina')")
    teacher.page.click("[data-role=pause-all]")
    bina.page.wait_for_selector("[data-role=paused]:not([hidden])")
    teacher.page.click("[data-role=resume-all]")
    bina.page.wait_for_selector("[data-role=paused][hidden]", state="attached")


def test_the_service_needs_the_hub_login(hub):
    # a page without a login goes to the hub's OAuth (and its login); static files and the
    # health line are public
    req = urllib.request.Request(hub.service)

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None
    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(req, timeout=5)
        raise AssertionError("the learner page answered without a login")
    except urllib.error.HTTPError as err:
        assert err.code == 302
        assert err.headers["Location"].startswith("/hub/api/oauth2/authorize?")
        assert "client_id=service-courtlearn" in err.headers["Location"]
    assert _get(hub.service + "static/table.js")[0] == 200
    status, body = _get(hub.service + "health")
    assert status == 200 and json.loads(body)["ok"]
    # a socket without a login (or whose login lapsed) opens only to be closed with the
    # code that makes the page reload, to log in again
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect
    with pytest.raises(ConnectionClosed) as closed:
        with connect(f"ws://127.0.0.1:{hub.port}/services/{SERVICE}/ws", origin=hub.base,
                     open_timeout=10, close_timeout=5) as ws:
            ws.send(json.dumps({"type": "hello", "code": "HUBTST", "name": "intruder"}))
            ws.recv(timeout=10)
    assert closed.value.rcvd.code == 4401
    # routes outside the prefix are the hub's, never the service's
    assert _get(f"http://127.0.0.1:{hub.service_port}/ws")[0] == 404
    assert _listening(hub.service_port)
