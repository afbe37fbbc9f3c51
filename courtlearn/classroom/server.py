"""The class server: tornado, serving the classroom and nothing else.

``/``            the learner page (join form, seat buttons, the table)
``/static/...``  a fixed list of files: the page's script and style, the widget's
                 table.js and table.css (the same files the notebook draws with), and
                 the Urdu and Hindi fonts
``/ws``          a learner's WebSocket (the protocol in room.py's docstring)
``/health``      a line of JSON for monitors
``/lite/...``    with ``lite=DIR`` (``--lite DIR``): the built browser-only site, its files
                 only (lite.py), so its lessons' Python reaches the class at the same origin
``/teacher``     the teacher's page (the dashboard and the projector on a second screen);
                 its data come only over ``/teacher/ws``, once the teacher's token (kept
                 by the page from its link's #fragment, never in a URL sent) is proven
``/api/join``    ``POST`` a learner's notebook joins: ``{"code", "name"}`` (or ``{"token"}``
                 again) -> ``{"token", "learner", "name", "code"}``
``/api/results`` ``POST`` (``Authorization: token SEAT_TOKEN``) ``{"results": [...]}`` ->
                 ``{"stored": [ids], "duplicate": [ids], "refused": [{id, reason}],
                 "failed": [{id, reason}]}`` (each judged again and stored by
                 ``Room.record``; ``failed``: the server's fault, send again later;
                 status 400, with the same lists and a ``reason``, when every one
                 was refused);
                 ``GET``: the learner's own results (see courtlearn/classroom/grading.py)

It runs in the event loop that is running (a notebook kernel's: :func:`start`) or in
its own (:func:`serve`, the console script). Every message from a page is hostile
until checked: size-limited, rate-limited per socket, JSON objects only, each field
checked by the room; a bad one is refused with a sentence and the socket stays open.
Guessing the class code is slowed per address; the Origin must be the page's own host
(or one configured). The teacher's token never goes to a learner's socket.
"""
from __future__ import annotations

import asyncio
import html
import json
import logging
import pathlib
import re
import socket
import time
from urllib.parse import urlparse

import tornado.httpserver
import tornado.iostream
import tornado.web
import tornado.websocket

from courtlearn.language import text_direction, tr, using

from .room import Refusal, Room
from .store import Store

__all__ = ["ClassServer", "start", "serve", "MAX_MESSAGE", "RATE", "BURST"]

log = logging.getLogger("courtlearn.classroom")

HERE = pathlib.Path(__file__).parent
WIDGET_STATIC = HERE.parent / "widgets" / "static"
STATIC_FILES = {
    "learner.js": (HERE / "static" / "learner.js", "text/javascript; charset=utf-8"),
    "learner.css": (HERE / "static" / "learner.css", "text/css; charset=utf-8"),
    "teacher.js": (HERE / "static" / "teacher.js", "text/javascript; charset=utf-8"),
    "dashboard.js": (HERE / "static" / "dashboard.js", "text/javascript; charset=utf-8"),
    "dashboard.css": (HERE / "static" / "dashboard.css", "text/css; charset=utf-8"),
    "table.js": (WIDGET_STATIC / "table.js", "text/javascript; charset=utf-8"),
    "table.css": (WIDGET_STATIC / "table.css", "text/css; charset=utf-8"),
    "fonts/NotoNastaliqUrdu-arabic-400.woff2":
        (WIDGET_STATIC / "fonts" / "NotoNastaliqUrdu-arabic-400.woff2", "font/woff2"),
    "fonts/NotoSansDevanagari-devanagari-400.woff2":
        (WIDGET_STATIC / "fonts" / "NotoSansDevanagari-devanagari-400.woff2", "font/woff2"),
}
# the table's fonts for the page's model ("fonts" as the widget sends them), by language
FONTS = {"ur": {"Noto Nastaliq Urdu": "static/fonts/NotoNastaliqUrdu-arabic-400.woff2"},
         "hi": {"Noto Sans Devanagari": "static/fonts/NotoSansDevanagari-devanagari-400.woff2"}}
# (paths under the server's prefix: "/" alone, "/services/<name>/" as a JupyterHub service)

MAX_MESSAGE = 4096          # bytes: a page's message is far smaller; larger ones are refused
MAX_FRAME = 64 * 1024       # bytes: tornado closes a socket sending a frame larger than this
RATE = 20.0                 # messages a second a socket may send, on average ...
BURST = 40                  # ... with this many at once
MAX_WRITE_BUFFER = 1 << 20  # bytes queued for a page that stops reading: then it is closed
PING_INTERVAL = 10          # seconds: pings find phones that went away without a word
PING_TIMEOUT = 10
MAX_BODY = 256 * 1024       # bytes of a request's body (a notebook's batch of results)
MAX_JOIN = 4096             # bytes of a join request
MAX_BATCH = 100             # results in one request
API_RATE, API_BURST = 2.0, 30    # requests a second a learner's notebook may send (results)
JOIN_RATE, JOIN_BURST = 10.0, 200   # joins a second from one address (a hub: one address)


def page_words() -> dict[str, str]:
    """The learner page's own words, in the current language (the table brings its own)."""
    return {
        "title": tr("courtlearn: the class"),
        "code": tr("Class code"), "name": tr("Your name"), "join": tr("Join"),
        "connected": tr("Connected"), "disconnected": tr("Not connected: trying again…"),
        "choose": tr("Choose a free seat"), "table": tr("Table {n}"),
        "take": tr("Sit at {place}"), "you": tr("you"),
        "leave": tr("Leave the table"), "next_deal": tr("Next deal"),
        "paused": tr("The teacher has paused the tables."),
        "here": tr("here"), "away": tr("away"), "bot": tr("a bot plays"),
        "empty": tr("bot"), "removed": tr("The teacher removed you from the class."),
        "seat": tr("You sit at {place}, table {n}."),
    }


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; :meth:`take` spends one."""

    __slots__ = ("rate", "burst", "tokens", "at")

    def __init__(self, rate: float = RATE, burst: int = BURST, clock=time.monotonic):
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.at = clock()

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Guard:
    """Slows guessing of the class code: each address's tries are spaced out, the wait
    doubling with each wrong code (from 0.25 s to 30 s); a right one clears it. Tries
    from many sockets of one address queue behind each other."""

    def __init__(self, first: float = 0.25, most: float = 30.0):
        self.first, self.most = first, most
        self.entries: dict[str, list] = {}      # address -> [fails, next free time]

    def wait(self, address: str, now: float) -> float:
        """Seconds this try must wait (and reserve its slot)."""
        if len(self.entries) > 10000:
            self.entries = {a: e for a, e in self.entries.items() if e[1] > now}
        e = self.entries.setdefault(address, [0, now])
        start = max(now, e[1])
        e[1] = start + self.delay(e[0])
        return start - now

    def delay(self, fails: int) -> float:
        return 0.0 if fails == 0 else min(self.most, self.first * 2 ** (fails - 1))

    def result(self, address: str, ok: bool, now: float) -> None:
        e = self.entries.setdefault(address, [0, now])
        if ok:
            self.entries.pop(address, None)
        else:
            e[0] += 1
            e[1] = max(e[1], now + self.delay(e[0]))


# ----------------------------------------------------------------------------- handlers
class _Base(tornado.web.RequestHandler):
    def set_default_headers(self):
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Frame-Options", "DENY")
        self.clear_header("Server")


class PageHandler(_Base):
    """The learner page: the same HTML for everyone, the words in the class's language."""

    def initialize(self, server):
        self.server = server

    def get(self):
        host = self.request.host
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Security-Policy",
                        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                        f"connect-src 'self' ws://{host} wss://{host}; img-src 'self' data:; "
                        "font-src 'self'; object-src 'none'; base-uri 'none'; "
                        "frame-ancestors 'none'; form-action 'self'")
        self.finish(self.server.page())


class StaticHandler(_Base):
    def initialize(self, server):
        self.server = server

    def get(self, name):
        got = self.server.static(name)
        if got is None:
            raise tornado.web.HTTPError(404)
        body, ctype = got
        self.set_header("Content-Type", ctype)
        self.set_header("Cache-Control", "no-cache")
        self.finish(body)


class HealthHandler(_Base):
    def initialize(self, server):
        self.server = server

    def get(self):
        room = self.server.room
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"ok": True, "tables": len(room.tables),
                                "learners": len(room.learners),
                                "sockets": len(self.server.sockets)}))


class LearnerSocket(tornado.websocket.WebSocketHandler):
    """One learner page's socket. The room decides; this reads, checks and passes on."""

    def initialize(self, server):
        self.server = server
        self.room: Room = server.room
        self.learner = None
        self.words_key = None
        self.bucket = TokenBucket(server.rate, server.burst)
        self.warned = 0.0
        self.received = 0                 # messages read from this socket
        self.address = self.request.remote_ip or "?"

    def check_origin(self, origin: str) -> bool:
        """The page's own host (what the learner typed or scanned), or a configured
        origin (a page served through an https proxy)."""
        if origin in self.server.origins:
            return True
        parsed = urlparse(origin)
        return bool(parsed.netloc) and parsed.netloc.lower() == self.request.host.lower()

    def open(self):
        self.set_nodelay(True)            # small frames go at once (no Nagle wait for an ack)
        stream = self.ws_connection.stream if self.ws_connection is not None else None
        if stream is not None:
            stream.max_write_buffer_size = MAX_WRITE_BUFFER
        self.server.sockets.add(self)

    # the room's side: text out
    def send(self, text: str) -> None:
        if self.ws_connection is None or self.ws_connection.is_closing():
            return
        try:
            self.write_message(text)
        except tornado.websocket.WebSocketClosedError:
            pass
        except tornado.iostream.StreamBufferFullError:
            log.info("closing a socket that stopped reading (%s)", self.address)
            self.ws_connection.stream.close()     # no goodbye: it is not reading

    def on_close(self):
        self.server.sockets.discard(self)
        self.room.disconnect(self)
        self.room._want_flush()

    def refuse(self, reason: str, **extra) -> None:
        self.room._send(self, {"type": "refused", "reason": reason, **extra})
        self.room._done()
        self.room._want_flush()

    async def on_message(self, message):
        self.received += 1
        now = time.monotonic()
        if not self.bucket.take(now):
            if now - self.warned > 1.0:          # one warning a second, not one a message
                self.warned = now
                with using(self.room.language):
                    self.refuse(tr("Too many messages: slow down."))
            # one refused message per token's time (tornado reads the next message once this
            # one is done), so a socket is read at most at twice its rate: a flood then waits in its own TCP buffers and the sender is
            # held up by TCP itself, instead of the server spending CPU on every message it
            # drops
            await self._pause(1.0 / self.server.rate)
            return
        with using(self.room.language):
            if isinstance(message, bytes):
                return self.refuse(tr("The class server reads text messages only."))
            if len(message) > MAX_MESSAGE:
                return self.refuse(tr("That message is too long; nothing changed."))
            try:
                msg = json.loads(message)
            except (ValueError, RecursionError):
                msg = None
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                return self.refuse(tr("The class server ignored a message it does not "
                                      "understand; nothing changed."))
        kind = msg["type"]
        try:
            if kind == "hello":
                await self._hello(msg)
            elif kind == "take_seat":
                self.room.take_seat(self, msg.get("table"), msg.get("seat"))
            elif kind == "msg":
                self.room.intent(self, msg.get("content"))
            elif kind == "leave":
                self.room.leave(self)
            elif kind == "next_deal":
                self.room.next_deal_request(self)
            elif kind in ("quiz_answer", "quiz_get"):       # the live quiz (quiz.py)
                from .quiz import desk_of
                desk_of(self.room).learner_message(self, msg)
            elif kind.startswith("puzzle_"):                 # class puzzles (class_puzzles.py)
                from .class_puzzles import desk_of as puzzle_desk
                puzzle_desk(self.room).learner_message(self, msg)
            else:
                with using(self.room.language):
                    raise Refusal(tr("The class server ignored a message it does not "
                                     "understand; nothing changed."))
        except Refusal as err:
            self.refuse(str(err), **err.extra)
        except Exception:                 # a fault of the server's: say so, keep the socket
            log.exception("a %s message failed", kind[:20])
            with using(self.room.language):
                self.refuse(tr("Something went wrong on the class server."))
        self.room._want_flush()

    @staticmethod
    async def _pause(seconds: float) -> None:
        """Wait; a socket closed meanwhile (its message future cancelled) just ends it."""
        try:
            await asyncio.sleep(seconds)
        except asyncio.CancelledError:
            pass

    async def _hello(self, msg) -> None:
        if self.learner is not None:
            with using(self.room.language):
                raise Refusal(tr("This page has already joined."))
        token, code = msg.get("token"), msg.get("code")
        if token is not None and self.room.learner_for(token) is not None:
            self.room.hello(self, token=token)
            return
        guard = self.server.guard
        wait = guard.wait(self.address, time.monotonic())
        if wait > 0:
            await self._pause(wait)
            if self.ws_connection is None:
                return
        ok = token is None and self.room.check_code(code)
        guard.result(self.address, ok, time.monotonic())
        if token is not None:
            self.room.hello(self, token=token)       # refuses: the token is not known
        else:
            self.room.hello(self, code=code, name=msg.get("name"))


# ----------------------------------------------------------------------------- notebooks
class ApiHandler(_Base):
    """The learners' notebooks' HTTP API (JSON in, JSON out). Every body is hostile until
    checked: JSON only (``Content-Type: application/json``, which a page of another site
    cannot send without asking first), size-limited, rate-limited; a page of another
    origin is refused."""

    def initialize(self, server):
        self.server = server
        self.room: Room = server.room

    def reply(self, status: int, body: dict) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps(body, ensure_ascii=False))

    def write_error(self, status_code, **kwargs):
        self.reply(status_code, {"reason": self._reason or "error"})

    def origin_ok(self) -> bool:
        origin = self.request.headers.get("Origin")
        if origin is None or origin in self.server.origins:
            return True
        parsed = urlparse(origin)
        return bool(parsed.netloc) and parsed.netloc.lower() == self.request.host.lower()

    def body_json(self, limit: int):
        """The request's JSON object; Refusal saying what is wrong."""
        ctype = self.request.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise Refusal(tr("The class server reads JSON (Content-Type: application/json)."))
        if len(self.request.body) > limit:
            raise Refusal(tr("That message is too long; nothing changed."))
        try:
            msg = json.loads(self.request.body.decode("utf-8"))
        except (ValueError, RecursionError):
            msg = None
        if not isinstance(msg, dict):
            raise Refusal(tr("The class server ignored a message it does not understand; "
                             "nothing changed."))
        return msg

    def token(self) -> str | None:
        auth = self.request.headers.get("Authorization", "")
        return auth[6:].strip() if auth[:6].lower() == "token " else None

    async def _guarded(self, work):
        """``work()`` -> (status, body), with the checks every request gets first."""
        with using(self.room.language):
            if not self.origin_ok():
                return self.reply(403, {"reason": tr("The class server does not take this "
                                                     "from another site.")})
            try:
                status, body = await work()
            except Refusal as err:
                status, body = 400, {"reason": str(err), **err.extra}
            except Exception:
                log.exception("an API request failed")
                status, body = 500, {"reason": tr("Something went wrong on the class server.")}
        self.reply(status, body)


class JoinApi(ApiHandler):
    """``POST api/join``: a learner's notebook joins (see the module's doc)."""

    async def post(self):
        await self._guarded(self._join)

    async def _join(self):
        if not self.server.api_take(("join", self.request.remote_ip), JOIN_RATE, JOIN_BURST):
            return 429, {"reason": tr("Too many messages: slow down.")}
        msg = self.body_json(MAX_JOIN)
        return await self.server.api_join(self, msg)


class ResultsApi(ApiHandler):
    """``POST api/results``: a notebook's results, each judged and stored by
    ``Room.record``, committed before the answer; ``GET``: the learner's own results."""

    async def post(self):
        await self._guarded(self._post)

    async def get(self):
        await self._guarded(self._get)

    def _learner(self):
        lr = self.server.api_learner(self)
        if lr is None:
            raise Refusal(tr("This notebook is not known to the class: join it again."),
                          rejoin=True)
        return lr

    async def _post(self):
        try:
            lr = self._learner()
        except Refusal as err:
            return 401, {"reason": str(err), **err.extra}
        if not self.server.api_take(("results", lr.id), API_RATE, API_BURST):
            self.set_header("Retry-After", "2")
            return 429, {"reason": tr("Too many messages: slow down.")}
        msg = self.body_json(MAX_BODY)
        results = msg.get("results")
        if not isinstance(results, list) or not 1 <= len(results) <= MAX_BATCH \
                or set(msg) - {"results"}:
            raise Refusal(tr("Send the results as a list named results, 1 to {n} at a "
                             "time.", n=MAX_BATCH))
        out = {"stored": [], "duplicate": [], "refused": [], "failed": []}
        for result in results:
            rid = result.get("id") if isinstance(result, dict) else None
            rid = rid if isinstance(rid, str) and len(rid) <= 64 else None
            try:
                stored = self.room.record(lr, result)
            except Refusal as err:
                out["failed" if err.extra.get("fault") else "refused"].append(
                    {"id": rid, "reason": str(err)})
            else:
                out["stored"].append(stored.id)
                if stored.duplicate:
                    out["duplicate"].append(stored.id)
        try:
            self.room.flush()                 # saved before it is acknowledged
        except Exception:
            log.exception("results could not be saved")
            return 503, {"reason": tr("The class server could not save; send again later.")}
        if out["refused"] and not out["stored"] and not out["failed"]:
            return 400, {"reason": out["refused"][0]["reason"], **out}   # nothing taken
        return 200, out

    async def _get(self):
        try:
            lr = self._learner()
        except Refusal as err:
            return 401, {"reason": str(err), **err.extra}
        if not self.server.api_take(("results", lr.id), API_RATE, API_BURST):
            return 429, {"reason": tr("Too many messages: slow down.")}
        frame = self.room.results(lr)
        rows = json.loads(frame.to_json(orient="records", date_format="iso"))
        return 200, {"learner": lr.id, "name": lr.name, "results": rows}


# ----------------------------------------------------------------------------- the teacher
def teacher_page_words() -> dict[str, str]:
    """The teacher page's own words (the dashboard and the table bring theirs)."""
    return {
        "title": tr("courtlearn: the teacher's page"),
        "connected": tr("Connected"), "disconnected": tr("Not connected: trying again…"),
        "token": tr("The teacher's link or token"), "open": tr("Open"),
        "table": tr("Table {n}"), "replay": tr("Step through the deal"), "close": tr("Close"),
        "first": tr("The deal as dealt"), "back": tr("One move back"),
        "forward": tr("One move on"), "live": tr("The table now"),
    }


class TeacherPageHandler(_Base):
    """The teacher page: the same HTML for everyone (no data in it). As a JupyterHub
    service (a request behind the hub's login) only the hub user who teaches gets it."""

    def initialize(self, server):
        self.server = server

    def get(self):
        if getattr(self, "hub_auth", None) is not None and not self.server.teacher_allowed(self):
            raise tornado.web.HTTPError(403)
        host = self.request.host
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Security-Policy",
                        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                        f"connect-src 'self' ws://{host} wss://{host}; img-src 'self' data:; "
                        "font-src 'self'; object-src 'none'; base-uri 'none'; "
                        "frame-ancestors 'none'; form-action 'none'")
        self.finish(self.server.teacher_page())


class TeacherSocket(tornado.websocket.WebSocketHandler):
    """The teacher page's socket: the dashboard's state out, its requests in, and the
    page's projector (all of it in :class:`~courtlearn.classroom.dashboard.TeacherDesk`).
    Nothing about the class goes out before the page proves the teacher's token in its
    first message (``{"type": "hello", "token": T}``; guessing is slowed as for class
    codes), or the server lets the request in (``ClassServer.teacher_allowed``: the hub's
    teaching scope). Messages are checked and limited as a learner's are."""

    check_origin = LearnerSocket.check_origin
    send = LearnerSocket.send
    _pause = staticmethod(LearnerSocket._pause)

    def initialize(self, server):
        self.server = server
        self.room: Room = server.room
        self.teacher = False
        self.bucket = TokenBucket(server.rate, server.burst)
        self.warned = 0.0
        self.address = self.request.remote_ip or "?"

    def open(self):
        self.set_nodelay(True)
        stream = self.ws_connection.stream if self.ws_connection is not None else None
        if stream is not None:
            stream.max_write_buffer_size = MAX_WRITE_BUFFER
        self.server.sockets.add(self)
        if self.server.teacher_allowed(self):
            self._admit()
        elif getattr(self, "hub_auth", None) is not None:    # a hub user who does not teach
            self.close(4403, "not the teacher")
        else:
            self.send(json.dumps({"type": "login"}))

    def _admit(self) -> None:
        self.teacher = True
        self.server.desk.join(self)

    def on_close(self):
        self.server.sockets.discard(self)
        if self.teacher:
            self.server.desk.leave(self)

    def refuse(self, reason: str, **extra) -> None:
        self.send(json.dumps({"type": "refused", "reason": reason, **extra}, ensure_ascii=False))

    async def on_message(self, message):
        now = time.monotonic()
        lang = self.room.language
        if not self.bucket.take(now):
            if now - self.warned > 1.0:
                self.warned = now
                with using(lang):
                    self.refuse(tr("Too many messages: slow down."))
            await self._pause(1.0 / self.server.rate)
            return
        with using(lang):
            if isinstance(message, bytes):
                return self.refuse(tr("The class server reads text messages only."))
            if len(message) > MAX_MESSAGE:
                return self.refuse(tr("That message is too long; nothing changed."))
            try:
                msg = json.loads(message)
            except (ValueError, RecursionError):
                msg = None
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                return self.refuse(tr("The class server ignored a message it does not "
                                      "understand; nothing changed."))
        kind = msg["type"]
        try:
            if kind == "hello":
                await self._hello(msg)
            elif not self.teacher:
                with using(lang):
                    self.refuse(tr("Open the teacher's page with the teacher's link first."),
                                token=True)
            elif kind == "msg":
                self.server.desk.intent(self, msg.get("content"))
            elif kind == "projector":
                self.server.desk.projector(self, msg.get("content"))
            elif kind == "quiz":                              # the live quiz (quiz.py)
                from .quiz import desk_of
                desk_of(self.room).teacher_message(self, msg.get("content"))
            elif kind == "puzzles":                           # class puzzles (class_puzzles.py)
                from .class_puzzles import desk_of as puzzle_desk
                puzzle_desk(self.room).teacher_message(self, msg.get("content"))
            else:
                with using(lang):
                    self.refuse(tr("The class server ignored a message it does not "
                                   "understand; nothing changed."))
        except Exception:                 # a fault of the server's: say so, keep the socket
            log.exception("a teacher's %s message failed", kind[:20])
            with using(lang):
                self.refuse(tr("Something went wrong on the class server."))

    async def _hello(self, msg) -> None:
        if self.teacher:
            self.server.desk.join(self)              # the state again
            return
        guard = self.server.guard
        wait = guard.wait(self.address, time.monotonic())
        if wait > 0:
            await self._pause(wait)
            if self.ws_connection is None:
                return
        ok = self.room.check_teacher(msg.get("token"))
        guard.result(self.address, ok, time.monotonic())
        if ok:
            self._admit()
        else:
            with using(self.room.language):
                self.refuse(tr("That is not the teacher's token: open the teacher's link "
                               "again."), token=True)


# ----------------------------------------------------------------------------- the server
class ClassServer:
    """A Room served over HTTP and WebSockets on ``host``:``port``."""

    def __init__(self, room: Room, port: int = 8765, host: str = "0.0.0.0", origins=(),
                 rate: float = RATE, burst: int = BURST, lite=None):
        self.room = room
        self.lite = None if lite is None else _lite_folder(lite)   # the browser-only site
        self.host = host
        self.origins = {o.rstrip("/") for o in origins}
        self.rate, self.burst = rate, burst
        self.guard = Guard()
        self.sockets: set = set()
        self.buckets: dict = {}           # the API's rate limits: key -> TokenBucket
        self.stopped = False
        self.own_store = False            # the server opened the store: it closes it too
        self._static: dict[str, tuple[bytes, str]] = {}
        self._page: bytes | None = None
        self.app = tornado.web.Application(self.handlers({"server": self}), **self.app_settings())
        self.http = tornado.httpserver.HTTPServer(self.app, xheaders=False,
                                                  max_body_size=MAX_BODY)
        try:
            self.http.listen(port, address=host)
        except OSError as err:
            raise OSError(err.errno, f"the class server cannot listen on {host}:{port} "
                          f"({err.strerror}): is another class server running there? Close "
                          f"it (room.close()) or choose another port (port=0 picks a free "
                          f"one)") from None
        self.port = next(iter(self.http._sockets.values())).getsockname()[1]
        room.server = self

    # -- what it serves (a subclass, e.g. the JupyterHub service of hub.py, changes these)
    prefix = "/"            # every route lives under it ("/services/<name>/" under a hub)

    def handlers(self, args: dict) -> list:
        """The routes: (path pattern, handler class, its arguments), under the prefix."""
        p = re.escape(self.prefix)
        return [(p, PageHandler, args), (p + r"static/(.+)", StaticHandler, args),
                (p + r"ws", LearnerSocket, args), (p + r"health", HealthHandler, args),
                (p + r"teacher", TeacherPageHandler, args),
                (p + r"teacher/ws", TeacherSocket, args),
                (p + r"api/join", JoinApi, args), (p + r"api/results", ResultsApi, args),
                *self.lite_routes()]

    def lite_routes(self) -> list:
        """The browser-only site's files under ``lite/`` when there is one (lite.py)."""
        if self.lite is None:
            return []
        from .lite import routes
        return routes(self.prefix, self.lite)

    def app_settings(self) -> dict:
        """Settings of the tornado Application."""
        return {"websocket_max_message_size": MAX_FRAME, "websocket_ping_interval": PING_INTERVAL,
                "websocket_ping_timeout": PING_TIMEOUT, "compress_response": True}

    def page_boot(self) -> dict:
        """More of what the learner page reads at start (the hub service: ``hub``)."""
        return {}

    def teacher_allowed(self, handler) -> bool:
        """Whether ``handler``'s request (the teacher's page or socket) is the teacher's
        before anything is said: it carries one of the class's teacher tokens in an
        ``Authorization: token ...`` header (a script's way; the page proves its token in
        the socket's first message instead). Never from the address (``?token=``): an
        address ends up in access logs and browser histories. The JupyterHub service
        (hub.py) asks the hub instead: a hub user holding the teaching scope."""
        auth = handler.request.headers.get("Authorization", "")
        if auth[:6].lower() != "token ":
            return False
        return self.room.check_teacher(auth[6:].strip())

    # -- the notebooks' API (the JupyterHub service, hub.py, knows learners otherwise)
    def api_take(self, key, rate: float, burst: int) -> bool:
        """A request of ``key`` (an address, a learner) may go now: its token bucket."""
        now = time.monotonic()
        if len(self.buckets) > 20000:
            self.buckets = {k: b for k, b in self.buckets.items() if now - b.at < 60}
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = TokenBucket(rate, burst)
        return bucket.take(now)

    def api_learner(self, handler):
        """The learner whose seat token the request carries (``Authorization: token T``),
        or None."""
        return self.room.learner_for(handler.token())

    async def api_join(self, handler, msg) -> tuple[int, dict]:
        """A notebook joins: ``{"token": T}`` (known: the same learner again) or
        ``{"code": C, "name": N}`` (a new learner: their seat token, once). Guessing the
        code is slowed per address, as on the learner page."""
        room = self.room
        token = msg.get("token")
        if token is not None:
            lr = room.learner_for(token)
            if lr is not None:
                return 200, {"learner": lr.id, "name": lr.name, "code": room.code}
            if "code" not in msg:
                return 401, {"reason": tr("This notebook is not known to the class: join it "
                                          "again."), "rejoin": True}
        address = handler.request.remote_ip or "?"
        wait = self.guard.wait(address, time.monotonic())
        if wait > 0:
            await asyncio.sleep(wait)
        ok = room.check_code(msg.get("code"))
        self.guard.result(address, ok, time.monotonic())
        if not ok:
            return 403, {"reason": tr("That is not the class code.")}
        lr, token = room.register(msg.get("name"))
        room.flush()                          # saved before the token is given
        return 200, {"token": token, "learner": lr.id, "name": lr.name, "code": room.code}

    def static(self, name: str):
        got = self._static.get(name)
        if got is None and name in STATIC_FILES:
            path, ctype = STATIC_FILES[name]
            got = self._static[name] = (path.read_bytes(), ctype)
        return got

    def page(self) -> bytes:
        """The learner page in the class's language (built once)."""
        if self._page is None:
            lang = self.room.language
            with using(lang):
                words = page_words()
                boot = {"words": words, "lang": lang, "dir": text_direction(lang),
                        "fonts": {f: self.prefix + path for f, path in FONTS.get(lang, {}).items()},
                        "base": self.prefix, **self.page_boot()}
            data = json.dumps(boot, ensure_ascii=False).replace("<", "\\u003c")
            self._page = PAGE.format(lang=lang, dir=boot["dir"], base=html.escape(self.prefix),
                                     title=html.escape(words["title"]),
                                     boot=data).encode("utf-8")
        return self._page

    # -- the teacher's side
    _desk = None
    _teacher_page: bytes | None = None

    @property
    def desk(self):
        """The teacher pages' side of the server (a dashboard.TeacherDesk)."""
        if self._desk is None:
            from .dashboard import TeacherDesk
            self._desk = TeacherDesk(self.room)
        return self._desk

    def teacher_page(self) -> bytes:
        """The teacher page in the class's language (built once; no data, no token)."""
        if self._teacher_page is None:
            lang = self.room.language
            with using(lang):
                words = teacher_page_words()
                boot = {"words": words, "lang": lang, "dir": text_direction(lang),
                        "fonts": {f: self.prefix + path
                                  for f, path in FONTS.get(lang, {}).items()},
                        "base": self.prefix}
            data = json.dumps(boot, ensure_ascii=False).replace("<", "\\u003c")
            self._teacher_page = TEACHER_PAGE.format(
                lang=lang, dir=boot["dir"], base=html.escape(self.prefix),
                title=html.escape(words["title"]), boot=data).encode("utf-8")
        return self._teacher_page

    def teachers_revoked(self) -> None:
        """The teacher tokens changed (room.new_teacher_token): teacher pages close."""
        if self._desk is not None:
            self._desk.revoke_all()

    # -- where learners go
    def addresses(self) -> list[str]:
        """The join addresses: one per address of this machine learners can reach."""
        if self.host not in ("0.0.0.0", "", "::"):
            hosts = [self.host]
        else:
            hosts = sorted(lan_addresses()) or ["127.0.0.1"]
        return [f"http://{h}:{self.port}/" for h in hosts]

    def join_url(self, address: str | None = None) -> str:
        return f"{address or self.addresses()[0]}?code={self.room.code}"

    def text(self) -> str:
        lines = [f"class code: {self.room.code}"]
        lines += [f"join at:    {a}" for a in self.addresses()]
        if self.lite is not None:
            lines += [f"lessons:    {a}lite/" for a in self.addresses()]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        with using(self.room.language):
            parts = [f"<div class='courtlearn-class'><p><b>{html.escape(tr('Class code'))}: "
                     f"<code style='font-size:200%'>{html.escape(self.room.code)}</code></b></p>"]
            for a in self.addresses():
                parts.append(f"<p><a href='{html.escape(a)}' target='_blank'>"
                             f"{html.escape(a)}</a></p>")
            qr = qr_svg(self.join_url())
            if qr:
                parts.append(qr)
            parts.append("</div>")
        return "".join(parts)

    def __repr__(self) -> str:
        return self.text()

    def stop(self) -> None:
        """Stop listening, close every socket, save and close the room's store."""
        if self.stopped:
            return
        self.stopped = True
        self.http.stop()
        for ws in list(self.sockets):
            ws.close(1001, "server closing")
        self.room.close()
        if self.own_store:
            self.room.store.close()


def _lite_folder(path):
    """The browser-only site's folder, checked before anything starts (lite.py)."""
    from .lite import site_folder
    return site_folder(path)


def lan_addresses() -> set[str]:
    """This machine's IPv4 addresses other than loopback: those its host name resolves
    to, and the one a datagram to the outside would leave from (a UDP socket's connect
    picks the route and sends nothing)."""
    found = set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(info[4][0])
    except OSError:
        pass
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))          # TEST-NET-1: never reached, nothing is sent
            found.add(s.getsockname()[0])
    except OSError:
        pass                                     # no route at all: a laptop on its own
    return {a for a in found if not a.startswith(("127.", "0."))}


def qr_svg(url: str) -> str | None:
    """The join address as a QR code (an inline SVG), when segno is installed."""
    try:
        import segno
    except ImportError:
        return None
    # dark modules on a light ground with its quiet zone, whatever the page's theme (black
    # on transparent could not be read in JupyterLab's dark theme)
    return segno.make(url, error="m").svg_inline(scale=5, dark="#000000", light="#ffffff")


PAGE = """<!doctype html>
<html lang="{lang}" dir="{dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{base}static/table.css">
<link rel="stylesheet" href="{base}static/learner.css">
<script type="application/json" id="courtlearn-boot">{boot}</script>
<script type="module" src="{base}static/learner.js"></script>
</head>
<body>
<header class="cl-class-bar">
<span data-role="connection" data-connected="false"></span>
<span data-role="whoami"></span>
</header>
<main id="courtlearn-class"></main>
</body>
</html>
"""


TEACHER_PAGE = """<!doctype html>
<html lang="{lang}" dir="{dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{base}static/table.css">
<link rel="stylesheet" href="{base}static/dashboard.css">
<script type="application/json" id="courtlearn-teacher-boot">{boot}</script>
<script type="module" src="{base}static/teacher.js"></script>
</head>
<body class="cl-teacher-page">
<header class="cl-teacher-bar">
<span data-role="connection" data-connected="false"></span>
</header>
<main id="courtlearn-teacher" class="cl-teacher-main"></main>
<section id="courtlearn-projector" class="cl-projector-box" data-role="projector" hidden></section>
</body>
</html>
"""


# ----------------------------------------------------------------------------- starting
def _room(db, code, language, tables, rules, grace, hints, loop, paused=False) -> Room:
    store = db if isinstance(db, Store) else Store(db)
    if code is not None and store.class_row(code.strip().upper()) is not None:
        room = Room.load(store, code.strip().upper(), loop=loop)
    elif code is None and len(store.class_codes()) == 1:
        room = Room.load(store, store.class_codes()[0], loop=loop)
    else:
        room = Room.create(store, code=code, language=language, tables=tables, rules=rules,
                           grace=grace, hints=hints, paused=paused, loop=loop)
    return room


def start(port: int = 8765, db="class.sqlite", language: str = "en", code=None,
          tables: int = 10, rules=None, host: str = "0.0.0.0", grace: float = 30.0,
          hints: bool = False, paused: bool = False, origins=(), lite=None) -> Room:
    """Start the class server in the running event loop (a notebook kernel's) and
    return the Room (``room.server`` is the :class:`ClassServer`). A store holding this
    class (its ``code``, or its only class) resumes it. ``lite``: a built JupyterLite
    site's folder, served under ``lite/`` (lite.py)."""
    lite = None if lite is None else _lite_folder(lite)      # a bad folder: nothing starts
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = asyncio.get_event_loop()
    room = _room(db, code, language, tables, rules, grace, hints, loop, paused)
    try:
        server = ClassServer(room, port=port, host=host, origins=origins, lite=lite)
    except OSError:
        if not isinstance(db, Store):
            room.store.close()
        raise
    server.own_store = not isinstance(db, Store)
    return room


async def serve(port: int = 8765, db="class.sqlite", language: str = "en", code=None,
                tables: int = 10, rules=None, host: str = "0.0.0.0", grace: float = 30.0,
                hints: bool = False, origins=(), ready=None, stop: asyncio.Event | None = None,
                server_class=None, lite=None):
    """Run the class server until ``stop`` is set (or forever): the console script's
    loop. ``ready(server)`` is called once it listens. ``server_class``: another kind of
    :class:`ClassServer` (called like it), e.g. the JupyterHub service's. ``lite``: a
    built JupyterLite site's folder, served under ``lite/``."""
    lite = None if lite is None else _lite_folder(lite)      # a bad folder: nothing starts
    loop = asyncio.get_running_loop()
    room = _room(db, code, language, tables, rules, grace, hints, loop)
    server = (server_class or ClassServer)(room, port=port, host=host, origins=origins,
                                           **({} if lite is None else {"lite": lite}))
    server.own_store = not isinstance(db, Store)
    if ready is not None:
        ready(server)
    stop = stop or asyncio.Event()
    try:
        await stop.wait()
    finally:
        server.stop()
    return room
