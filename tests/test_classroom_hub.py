"""The class server as a JupyterHub service (courtlearn/classroom/hub.py), without a hub:
the hub's environment read, and a HubServer on 127.0.0.1 asking a stand-in for the hub's
API (``GET /hub/api/user``: the user model of a login's token) who each socket is. The
same service against a real JupyterHub, its proxy and Chromium: tests/browser/test_hub.py.
"""
from __future__ import annotations

import asyncio
import doctest
import json

import pytest

pytest.importorskip("jupyterhub")
pytest.importorskip("websockets")

import tornado.httpserver  # noqa: E402
import tornado.web  # noqa: E402
import websockets  # noqa: E402
from tornado.web import create_signed_value  # noqa: E402

from courtlearn.classroom import cli, hub  # noqa: E402
from courtlearn.classroom.room import Room  # noqa: E402
from courtlearn.classroom.store import Store  # noqa: E402

from classroom_helpers import get  # noqa: E402

pytestmark = pytest.mark.timeout(60)

CLIENT = "service-courtlearn"
SCOPE = "access:services!service=courtlearn"
USERS = {   # a login's token -> the hub's user model for it
    "tok-ali": {"kind": "user", "name": "ali", "scopes": [SCOPE]},
    "tok-ali-phone": {"kind": "user", "name": "ali", "scopes": [SCOPE]},
    "tok-bina": {"kind": "user", "name": "bina", "scopes": [SCOPE]},
    "tok-ustad": {"kind": "user", "name": "ustad", "scopes": [SCOPE, hub.TEACH_SCOPE]},
    "tok-guest": {"kind": "user", "name": "guest", "scopes": []},      # no access to the service
    "tok-service": {"kind": "service", "name": "grader", "scopes": [SCOPE]},   # not a person
    "tok-bot": {"kind": "user", "name": "bot", "scopes": [SCOPE]},    # a hub user named "bot"
}


def environment(api_port: int, service_port: int = 0) -> dict:
    return {"JUPYTERHUB_SERVICE_NAME": "courtlearn",
            "JUPYTERHUB_SERVICE_PREFIX": "/services/courtlearn/",
            "JUPYTERHUB_SERVICE_URL": f"http://127.0.0.1:{service_port}",
            "JUPYTERHUB_API_TOKEN": "service-secret",
            "JUPYTERHUB_API_URL": f"http://127.0.0.1:{api_port}/hub/api",
            "JUPYTERHUB_CLIENT_ID": CLIENT,
            "JUPYTERHUB_OAUTH_CALLBACK_URL": "/services/courtlearn/oauth_callback",
            "JUPYTERHUB_OAUTH_ACCESS_SCOPES": json.dumps([SCOPE])}


class FakeHubUser(tornado.web.RequestHandler):
    """The hub's ``/hub/api/user``: who the token in the Authorization header is."""

    def get(self):
        token = self.request.headers.get("Authorization", "").partition(" ")[2]
        if token not in USERS:
            raise tornado.web.HTTPError(403)
        self.finish(USERS[token])


class Service:
    """A HubServer (a class of two tables) and the stand-in hub, both on 127.0.0.1."""

    async def __aenter__(self):
        app = tornado.web.Application([(r"/hub/api/user", FakeHubUser)])
        self.fake = tornado.httpserver.HTTPServer(app)
        self.fake.listen(0, address="127.0.0.1")
        api_port = next(iter(self.fake._sockets.values())).getsockname()[1]
        self.env = hub.HubEnv.from_env(environment(api_port))
        self.store = Store(":memory:")
        self.room = Room.create(self.store, code="HUB234", tables=2, seed=3,
                                loop=asyncio.get_running_loop())
        self.server = hub.HubServer(self.room, hub=self.env, host="127.0.0.1", port=0)
        self.base = f"http://127.0.0.1:{self.server.port}/services/courtlearn/"
        return self

    async def __aexit__(self, *exc):
        self.server.stop()
        self.fake.stop()
        await asyncio.sleep(0.05)
        self.store.close()

    def cookie(self, token: str) -> str:
        """The login cookie the service sets at the end of the hub's OAuth."""
        value = create_signed_value(self.env.cookie_secret, CLIENT, token).decode()
        return f'{CLIENT}="{value}"'

    def connect(self, token: str | None):
        headers = {"Cookie": self.cookie(token)} if token else {}
        return websockets.connect(self.base.replace("http", "ws", 1) + "ws",
                                  origin=f"http://127.0.0.1:{self.server.port}",
                                  additional_headers=headers, open_timeout=5, close_timeout=2)


async def until(ws, kind: str, seconds: float = 5.0) -> dict:
    """The next message of ``kind`` on ``ws`` (others skipped), within ``seconds``."""
    async def wait():
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == kind:
                return msg
    return await asyncio.wait_for(wait(), seconds)


def test_hub_users_join_by_name_and_get_their_seat_back_by_login():
    async def main():
        async with Service() as s:
            async with s.connect("tok-ali") as ws:
                # a code and a token of someone else are ignored: the login says who this is
                await ws.send(json.dumps({"type": "hello", "code": "WRONG1", "name": "Zed",
                                          "token": "x" * 43}))
                welcome = await until(ws, "welcome")
                assert welcome["name"] == "ali" and "token" not in welcome
                await until(ws, "lobby")
                await ws.send(json.dumps({"type": "take_seat", "table": 1, "seat": 2}))
                assert (await until(ws, "seated"))["seat"] == 2
            async with s.connect("tok-ali-phone") as ws:       # another device, same hub user
                await ws.send(json.dumps({"type": "hello"}))
                assert (await until(ws, "welcome"))["name"] == "ali"
                seated = await until(ws, "seated")
                assert (seated["table"], seated["seat"]) == (1, 2)
            async with s.connect("tok-bina") as ws:
                await ws.send(json.dumps({"type": "hello"}))
                assert (await until(ws, "welcome"))["name"] == "bina"
                lobby = await until(ws, "lobby")
                assert lobby["tables"][1]["seats"][2]["name"] == "ali"
            learners = sorted((lr.name, lr.hub_user) for lr in s.room.learners.values())
            assert learners == [("ali", "ali"), ("bina", "bina")]
    asyncio.run(main())


def test_a_socket_without_a_login_is_closed_to_log_in_again():
    async def main():
        async with Service() as s:
            for token in (None, "tok-expired"):
                async with s.connect(token) as ws:
                    with pytest.raises(websockets.ConnectionClosed) as closed:
                        await ws.send(json.dumps({"type": "hello", "code": "HUB234",
                                                  "name": "intruder"}))
                        await asyncio.wait_for(ws.recv(), 5)
                assert closed.value.rcvd.code == hub.LOGIN_AGAIN
            assert not s.room.learners
            # a hub user the hub does not let use the service: refused at the door
            with pytest.raises(websockets.InvalidStatus) as refused:
                async with s.connect("tok-guest"):
                    pass
            assert refused.value.response.status_code == 403
    asyncio.run(main())


def test_pages_need_the_login_and_only_the_teaching_scope_teaches():
    async def main():
        async with Service() as s:
            status, _, body = await get(s.base, {"Cookie": s.cookie("tok-bina")})
            assert status == 200 and b'"hub": true' in body
            assert b'href="/services/courtlearn/static/table.css"' in body
            status, _, _ = await get(s.base + "static/learner.js")
            assert status == 200
            for token, allowed in (("tok-ustad", True), ("tok-bina", False)):
                handler = type("H", (), {"hub_user": USERS[token]})()
                assert s.server.teacher_allowed(handler) is allowed
            handler = type("H", (), {"hub_user": None})()
            assert s.server.teacher_allowed(handler) is False
    asyncio.run(main())


def test_the_login_redirect_goes_to_the_hubs_oauth():
    import urllib.request

    class Stop(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    async def main():
        async with Service() as s:
            def fetch():
                try:
                    urllib.request.build_opener(Stop).open(s.base, timeout=5)
                except urllib.error.HTTPError as err:
                    return err.code, err.headers
            status, headers = await asyncio.get_running_loop().run_in_executor(None, fetch)
            assert status == 302
            where = headers["Location"]
            assert where.startswith("/hub/api/oauth2/authorize?") and f"client_id={CLIENT}" in where
            assert "redirect_uri=%2Fservices%2Fcourtlearn%2Foauth_callback" in where
            s.base = s.base.rstrip("/")                      # the prefix without its slash
            status, headers = await asyncio.get_running_loop().run_in_executor(None, fetch)
            assert status == 301 and headers["Location"] == "/services/courtlearn/"
    asyncio.run(main())


def test_the_hubs_environment(monkeypatch):
    monkeypatch.delenv("JUPYTERHUB_SERVICE_NAME", raising=False)
    env = environment(8081, 10101)
    got = hub.HubEnv.from_env(env)
    assert (got.prefix, got.host, got.port, got.access_scopes) == (
        "/services/courtlearn/", "127.0.0.1", 10101, {SCOPE})
    assert "service-secret" not in repr(got)                     # the token is never shown
    assert got.cookie_secret == hub.HubEnv.from_env(env).cookie_secret   # same after a restart
    assert hub.HubEnv.from_env({**env, "JUPYTERHUB_API_TOKEN": "other"}).cookie_secret \
        != got.cookie_secret
    # a user's own Jupyter server under a hub has these variables but is no service
    assert hub.HubEnv.from_env({k: v for k, v in env.items()
                                if k != "JUPYTERHUB_SERVICE_NAME"}) is None
    with pytest.raises(ValueError, match="JUPYTERHUB_API_URL"):
        hub.HubEnv.from_env({k: v for k, v in env.items() if k != "JUPYTERHUB_API_URL"})
    with pytest.raises(ValueError, match="JUPYTERHUB_SERVICE_URL"):
        hub.HubEnv.from_env({**env, "JUPYTERHUB_SERVICE_URL": "nonsense"})
    with pytest.raises(ValueError, match="JSON list"):
        hub.HubEnv.from_env({**env, "JUPYTERHUB_OAUTH_ACCESS_SCOPES": "access:services"})
    store = Store(":memory:")
    with pytest.raises(ValueError, match="HubServer runs as a JupyterHub service"):
        hub.HubServer(Room.create(store, code="NOHUB2", tables=1), hub=None)
    store.close()


def test_the_console_script_serves_the_hub_service_only_when_the_hub_started_it(monkeypatch):
    monkeypatch.delenv("JUPYTERHUB_SERVICE_NAME", raising=False)
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "a user's own server has this")
    assert cli._hub_environment() is False
    monkeypatch.setenv("JUPYTERHUB_SERVICE_NAME", "courtlearn")
    assert cli._hub_environment() is True


def test_docstring_examples():
    assert doctest.testmod(hub, optionflags=doctest.ELLIPSIS).failed == 0


class Conn:
    """A page without a socket: collects what the room sends it."""

    def __init__(self):
        self.got = []

    def send(self, text):
        self.got.append(json.loads(text))

    def close(self):
        pass


def test_a_restarted_server_knows_hub_users_by_their_names(tmp_path):
    store = Store(tmp_path / "class.sqlite")
    room = Room.create(store, code="HUBRE2", tables=2, seed=5, paused=True)
    page = Conn()
    lr = hub.hub_hello(room, page, "a-long-hub-name-" + "x" * 40)
    assert lr.name == ("a-long-hub-name-" + "x" * 40)[:40]      # shown at most 40 characters
    assert not any("token" in m for m in page.got)
    room.take_seat(page, 1, 3)
    room.close()
    store.close()

    store = Store(tmp_path / "class.sqlite")
    room = Room.load(store, "HUBRE2")
    phone = Conn()
    again = hub.hub_hello(room, phone, "a-long-hub-name-" + "x" * 40)
    assert again.id == lr.id
    assert [m for m in phone.got if m["type"] == "seated"][0]["seat"] == 3
    other = hub.hub_hello(room, Conn(), "a-long-hub-name-" + "x" * 40 + "-2")
    assert other.id != lr.id                  # a different hub user, though the names shown agree
    store.close()


def test_a_removed_hub_user_does_not_come_back_until_let_back():
    """Issue 29: the teacher removed a hub user; their next page load (and their notebook)
    does not make them a new learner, until the teacher lets them back."""
    async def main():
        async with Service() as s:
            async with s.connect("tok-ali") as ws:
                await ws.send(json.dumps({"type": "hello"}))
                ali = (await until(ws, "welcome"))["learner"]
            s.room.remove(ali)
            async with s.connect("tok-ali-phone") as ws:          # the next page load
                await ws.send(json.dumps({"type": "hello"}))
                refused = await until(ws, "refused")
                assert "removed you" in refused["reason"]
            assert [lr.id for lr in s.room.learners.values() if not lr.removed] == []
            s.room.let_back(ali)
            async with s.connect("tok-ali") as ws:
                await ws.send(json.dumps({"type": "hello"}))
                assert (await until(ws, "welcome"))["learner"] == ali    # the same learner
            assert len(s.room.learners) == 1
    asyncio.run(main())


def test_a_service_gets_no_seat_and_a_user_named_bot_is_not_taken_for_one():
    async def main():
        async with Service() as s:
            async with s.connect("tok-service") as ws:
                await ws.send(json.dumps({"type": "hello"}))
                refused = await until(ws, "refused")
                assert "not its services" in refused["reason"]
            assert not s.room.learners
            async with s.connect("tok-bot") as ws:
                await ws.send(json.dumps({"type": "hello"}))
                assert (await until(ws, "welcome"))["name"] == "@bot"
    asyncio.run(main())


def test_a_hub_page_reconnecting_in_a_loop_is_slowed(monkeypatch):
    """Issue 29 (as the plain server's pages): a hub user's page saying hello again and
    again is refused past its reconnections (and told to try again in a moment), so it
    cannot make its table-mates redraw as fast as it reconnects; another hub user is not
    slowed by it."""
    from courtlearn.classroom import server as server_module
    monkeypatch.setattr(server_module, "REJOIN_BURST", 3)
    monkeypatch.setattr(server_module, "REJOIN_RATE", 0.01)

    async def main():
        async with Service() as s:
            said = []
            for _ in range(6):
                async with s.connect("tok-ali") as ws:
                    await ws.send(json.dumps({"type": "hello"}))
                    while (msg := json.loads(await asyncio.wait_for(ws.recv(), 5)))["type"] \
                            not in ("welcome", "refused"):
                        pass
                    said.append(msg["type"] if msg["type"] == "welcome" else msg["reason"])
            # the first hello registers ali; three hellos again are free, then refused
            assert said[:4] == ["welcome"] * 4, said
            assert said[4:] == ["This page reconnected too often: it tries again in a "
                                "moment."] * 2, said
            async with s.connect("tok-bina") as ws:
                await ws.send(json.dumps({"type": "hello"}))
                assert (await until(ws, "welcome"))["name"] == "bina"
    asyncio.run(main())
