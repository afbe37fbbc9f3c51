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
import struct
import time
from urllib.parse import urlparse

import tornado.httpserver
import tornado.httputil
import tornado.iostream
import tornado.web
import tornado.websocket

from courtlearn.language import text_direction, tr, using

from .limits import (Guard, Hosts, TokenBucket, client_address, proxy_addresses, quiet_logs,
                     raise_file_limit)
from .room import Refusal, Room, clean_name
from .store import Store

__all__ = ["ClassServer", "start", "serve", "MAX_MESSAGE", "RATE", "BURST", "Guard", "TokenBucket"]

log = logging.getLogger("courtlearn.classroom")

HERE = pathlib.Path(__file__).parent
WIDGET_STATIC = HERE.parent / "widgets" / "static"
STATIC_FILES = {
    "learner.js": (HERE / "static" / "learner.js", "text/javascript; charset=utf-8"),
    "learner.css": (HERE / "static" / "learner.css", "text/css; charset=utf-8"),
    "teacher.js": (HERE / "static" / "teacher.js", "text/javascript; charset=utf-8"),
    "dashboard.js": (HERE / "static" / "dashboard.js", "text/javascript; charset=utf-8"),
    "dashboard.css": (HERE / "static" / "dashboard.css", "text/css; charset=utf-8"),
    "teacher.css": (HERE / "static" / "teacher.css", "text/css; charset=utf-8"),
    "dom.js": (WIDGET_STATIC / "dom.js", "text/javascript; charset=utf-8"),
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
SLOW_BYTES = 64 * 1024      # bytes on their way to a page: past this, its pictures wait (the
                            # latest of each kind replaces the one before: see _Socket.send)
PING_INTERVAL = 10          # seconds: pings find phones that went away without a word
PING_TIMEOUT = 10
MAX_BODY = 256 * 1024       # bytes of a request's body (a notebook's batch of results)
MAX_JOIN = 4096             # bytes of a join request
MAX_BATCH = 100             # results in one request
RESULTS_WAIT = 3.0          # seconds a results request waits for their judging
API_RATE, API_BURST = 2.0, 30    # requests a second a learner's notebook may send (results)
# new learners (joins, by the page or a notebook): from one address (a school's NAT: a
# class joins at once, then one a second), and in the whole class
JOIN_RATE, JOIN_BURST = 1.0, 100
CLASS_JOIN_RATE, CLASS_JOIN_BURST = 5.0, 300
# a learner's page saying hello again with its token (reloads, phones waking up)
REJOIN_RATE, REJOIN_BURST = 1.0, 20
HEADER_TIMEOUT = 10.0       # seconds a client has to send a request's headers (tornado's
                            # idle_connection_timeout: also how long an idle keep-alive lasts)
BODY_TIMEOUT = 30.0         # seconds to send a request's body
PER_ADDRESS = 400           # connections at once from one address (not counting a --proxy)
RESERVE = 0.1               # of the connection cap: kept for seated learners and the teacher
MAX_QUEUED = 16             # messages a page may send while its hello waits its turn
REPLACEABLE = ("state", "lobby", "table", "puzzle_state", "projector_state")
_PREFIXES = {f'{{"type":"{k}"': k for k in REPLACEABLE}
# write text frames onto the stream without tornado's write_message (see _Socket._write);
# False goes back to write_message (tornado's public way, a task a message)
_RAW_FRAMES = hasattr(tornado.websocket, "WebSocketProtocol13")


def _text_frame(data: bytes) -> bytes:
    """One unmasked, final WebSocket text frame (RFC 6455 5.2) of ``data``: a server's."""
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n <= 0xFFFF:
        return struct.pack("!BBH", 0x81, 126, n) + data
    return struct.pack("!BBQ", 0x81, 127, n) + data


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
        "close": tr("Close"), "ready": tr("Ready ✓"),
        "ready_count": tr("Ready for the next deal: {k} of {n}."),
        "deal_in": tr("It starts in {s} s."),
        "leave_sure": tr("Leave your seat? A bot plays it until someone sits down."),
        "leave_yes": tr("Leave"), "leave_no": tr("Stay"),
    }


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
    """``/health``: a line of JSON for monitors; it answers under any load (the connection
    cap makes room for it) and says when the class cannot save (``"storage"``)."""

    def initialize(self, server):
        self.server = server

    def get(self):
        room = self.server.room
        trouble = getattr(room, "storage_trouble", None)
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        body = {"ok": trouble is None, "tables": len(room.tables),
                "learners": len(room.learners), "sockets": len(self.server.sockets),
                "connections": self.server.connections()}
        if trouble is not None:
            body["storage"] = trouble
        self.finish(json.dumps(body, ensure_ascii=False))


def _kind_of(text: str) -> str | None:
    """The kind of a message the room sent, when a later one of its kind replaces it."""
    return _PREFIXES.get(text[:text.find(",")]) if text[:1] == "{" else None


class _Socket(tornado.websocket.WebSocketHandler):
    """What a learner's and the teacher's sockets share. In: the Host and the Origin
    checked at the upgrade; every message size-limited, rate-limited (a flood waits in its
    own TCP buffers), a JSON object with a ``type``, then :meth:`dispatch` (the
    subclass's), a Refusal's sentence back and the socket still open. A hello is checked
    in a task of its own, so the socket is still read (pongs) while it waits its turn.
    Out: :meth:`send`; a page reading slowly gets the latest picture of each kind
    (``REPLACEABLE``), not every one; one that stops reading is closed. Every socket is
    counted by the server (its connection cap: the sockets not yet proven to be a seated
    learner or the teacher give way first)."""

    def initialize(self, server):
        self.server = server
        self.room: Room = server.room
        self.bucket = TokenBucket(server.rate, server.burst)
        self.warned = 0.0
        self.received = 0                 # messages read from this socket
        self.address = client_address(self.request, server.proxies)
        self.peer = self.request.remote_ip or "?"
        self.opened = time.monotonic()
        self.pending = 0                  # bytes written and not yet taken by the network
        self.held: dict[str, str] = {}    # kind -> the latest message of it, held back
        self.hello_task = None            # a hello being checked
        self.queued: list[dict] = []      # messages that came while it was
        self.probation = False            # opened past the general cap: prove it or go
        self.batch: list[str] | None = None   # what this tick says, written once (drain)
        self.batch_bytes = 0

    # -- upgrade
    def prepare(self):
        """The Host must be one of the server's names (DNS rebinding: a page of another
        name pointed at this address is "same-origin" to its browser, so tornado would not
        even ask check_origin)."""
        if not self.server.hosts.allowed(self.request.host):
            raise tornado.web.HTTPError(403)

    def check_origin(self, origin: str) -> bool:
        """The Host must be one of the server's (against DNS rebinding); the Origin the
        page's own host (what the learner typed or scanned), or a configured origin (a
        page served through an https proxy)."""
        return self.server.origin_ok(origin, self.request.host)

    def open(self):
        self.set_nodelay(True)            # small frames go at once (no Nagle wait for an ack)
        stream = self.ws_connection.stream if self.ws_connection is not None else None
        if stream is not None:
            stream.max_write_buffer_size = MAX_WRITE_BUFFER
        self.server.socket_opened(self)
        self.opened_hook()

    def opened_hook(self) -> None:
        pass

    def proven(self) -> bool:
        """A seated learner's or the teacher's socket: kept when the server is full."""
        return False

    # -- out
    def send(self, text: str) -> None:
        ws = self.ws_connection
        if ws is None or ws.is_closing():
            return
        kind = _kind_of(text)
        if kind is not None and (self.pending + self.batch_bytes > SLOW_BYTES or
                                 kind in self.held):
            self.held[kind] = text          # the latest picture wins
            return
        self._write(text)

    def _write(self, text: str) -> None:
        """Onto the socket's batch: what this tick says to the page goes out in one write
        (a move's picture and the reply to the mover, one segment on the network instead
        of two: on loopback each send also does the receiving side's work)."""
        if self.batch is None:
            self.batch = []
            self.server.to_drain(self)
        self.batch.append(text)
        self.batch_bytes += len(text)

    def drain(self) -> None:
        """Write the batch (the server calls this once a tick, see ClassServer.to_drain)."""
        batch, self.batch, self.batch_bytes = self.batch, None, 0
        ws = self.ws_connection
        if not batch or ws is None or ws.is_closing():
            return
        try:
            if _RAW_FRAMES and type(ws) is tornado.websocket.WebSocketProtocol13 and \
                    ws._compressor is None and not ws.mask_outgoing:
                # the text frames straight onto the stream, in one write: write_message
                # writes each alone and wraps each write in a task of its own (only to
                # turn a closed stream's error into its own), some 30 us of the loop a
                # message, five messages a move (issue 29, Speed)
                data = b"".join([_text_frame(t.encode()) for t in batch])
                stream = ws.stream
                if type(stream) is tornado.iostream.IOStream and not stream._write_buffer \
                        and not stream.closed():
                    # nothing of tornado's waits to go first: the socket takes it now
                    # (nearly always all of it) without the stream's future, its done
                    # callback and the loop turn that runs it (issue 29, Speed); the rest,
                    # or an error, goes the stream's own way (it closes on an error)
                    try:
                        sent = stream.socket.send(data)
                    except OSError:
                        sent = 0
                    if sent == len(data):
                        self._release()
                        return
                    data = data[sent:]
                done = stream.write(data)
            else:
                for t in batch:
                    done = self.write_message(t)
        except (tornado.websocket.WebSocketClosedError, tornado.iostream.StreamClosedError):
            return
        except tornado.iostream.StreamBufferFullError:
            log.info("closing a socket that stopped reading (%s)", self.address)
            self.ws_connection.stream.close()     # no goodbye: it is not reading
            return
        if done.done():                     # the kernel took it all at once (nearly always)
            self._release()
            return
        size = sum(map(len, batch))
        self.pending += size
        done.add_done_callback(lambda _f, n=size: self._written(n))

    def close(self, code=None, reason=None) -> None:
        """Closed after what this tick said (a refusal's sentence before the close)."""
        if self.batch:
            self.drain()
        super().close(code, reason)

    def _written(self, size: int) -> None:
        self.pending -= size
        self._release()

    def _release(self) -> None:
        """The pictures held back go out once the page has taken most of what was sent."""
        if self.held and self.pending <= SLOW_BYTES // 2:
            held, self.held = self.held, {}
            for kind in REPLACEABLE:
                if kind in held:
                    self.send(held[kind])

    def refuse(self, reason: str, **extra) -> None:
        self.send(json.dumps({"type": "refused", "reason": reason, **extra}, ensure_ascii=False))

    def on_close(self):
        if self.hello_task is not None and not self.hello_task.done():
            self.hello_task.cancel()
        self.server.socket_closed(self)
        self.closed_hook()

    def closed_hook(self) -> None:
        pass

    # -- in
    def on_message(self, message):
        """A message from the page. Not a coroutine (tornado would run each in a task of
        its own): only a rate-limited socket gets one, the pause it waits (see below)."""
        self.received += 1
        now = time.monotonic()
        lang = self.room.language
        if not self.bucket.take(now):
            if now - self.warned > 1.0:          # one warning a second, not one a message
                self.warned = now
                with using(lang):
                    self.refuse(tr("Too many messages: slow down."))
            # one refused message per token's time (tornado reads the next message once this
            # one is done), so a socket is read at most at twice its rate: a flood then waits
            # in its own TCP buffers and the sender is held up by TCP itself, instead of the
            # server spending CPU on every message it drops
            return self._pause(1.0 / self.server.rate)
        # (the class's language only for a refusal: a move's message reads no sentence)
        if isinstance(message, bytes):
            with using(lang):
                return self.refuse(tr("The class server reads text messages only."))
        if len(message) > MAX_MESSAGE:
            with using(lang):
                return self.refuse(tr("That message is too long; nothing changed."))
        try:
            msg = json.loads(message)
        except (ValueError, RecursionError):
            msg = None
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            with using(lang):
                return self.refuse(tr("The class server ignored a message it does not "
                                      "understand; nothing changed."))
        kind = msg["type"]
        if kind != "hello" and self.hello_task is not None and not self.hello_task.done():
            if len(self.queued) < MAX_QUEUED:        # read after the hello, in order
                self.queued.append(msg)
            else:
                with using(lang):
                    self.refuse(tr("Too many messages: slow down."))
            return
        self._handle(msg)

    def _handle(self, msg: dict) -> None:
        kind, lang = msg["type"], self.room.language
        try:
            if kind == "hello":
                self._start_hello(msg)
            else:
                self.dispatch(kind, msg)
        except Refusal as err:
            self.refuse(str(err), **err.extra)
        except Exception:                 # a fault of the server's: say so, keep the socket
            log.exception("a %s message failed", kind[:20])
            with using(lang):
                self.refuse(tr("Something went wrong on the class server."))
        self.after_message()

    def dispatch(self, kind: str, msg: dict) -> None:
        raise NotImplementedError

    def after_message(self) -> None:
        pass

    def _start_hello(self, msg) -> None:
        if self.hello_task is not None and not self.hello_task.done():
            with using(self.room.language):
                raise Refusal(tr("Wait for the class to let this page in."))
        self.hello_task = asyncio.ensure_future(self._hello_now(msg))

    async def _hello_now(self, msg) -> None:
        try:
            await self._hello(msg)
        except asyncio.CancelledError:
            return
        except Refusal as err:
            if err.extra.get("full"):              # said straight out, then closed (the
                _Socket.refuse(self, str(err), **err.extra)   # room's outbox goes after it)
                self.close(1013, "the class server is full")
            else:
                self.refuse(str(err), **err.extra)
        except Exception:
            log.exception("a hello failed")
            with using(self.room.language):
                self.refuse(tr("Something went wrong on the class server."))
        self.after_message()
        queued, self.queued = self.queued, []
        for m in queued:                     # what the page sent meanwhile
            if self.ws_connection is None:
                break
            self._handle(m)

    async def _hello(self, msg) -> None:
        raise NotImplementedError

    @staticmethod
    async def _pause(seconds: float) -> None:
        """Wait; a socket closed meanwhile (its message future cancelled) just ends it."""
        try:
            await asyncio.sleep(seconds)
        except asyncio.CancelledError:
            pass

    async def _guarded(self, guard, secret_ok) -> bool:
        """``secret_ok()`` checked at this address's turn (see limits.Guard); Refusal when
        too many tries wait from the address."""
        if not await guard.turn(self.address):
            with using(self.room.language):
                raise Refusal(tr("Too many tries from your network: wait a minute and try "
                                 "again."))
        if self.ws_connection is None or self.ws_connection.is_closing():
            guard.result(self.address, True, time.monotonic())      # not used: give it back
            raise asyncio.CancelledError
        ok = bool(secret_ok())
        guard.result(self.address, ok, time.monotonic())
        return ok


class LearnerSocket(_Socket):
    """One learner page's socket. The room decides; this reads, checks and passes on."""

    def initialize(self, server):
        super().initialize(server)
        self.learner = None
        self.words_key = None

    def proven(self) -> bool:
        return self.learner is not None and self.learner.table is not None

    def closed_hook(self):
        self.room.disconnect(self)
        self.room._want_flush()

    def refuse(self, reason: str, **extra) -> None:
        self.room._send(self, {"type": "refused", "reason": reason, **extra})
        self.room._done()
        self.room._want_flush()

    def after_message(self) -> None:
        self.room._want_flush()

    def dispatch(self, kind: str, msg: dict) -> None:
        room = self.room
        if kind != "quiz_get" and kind != "puzzle_get":
            why = room.saving_refused()          # the disk refused lately: nothing changes
            if why is not None:
                content = msg.get("content")
                rid = content.get("id") if kind == "msg" and isinstance(content, dict) else None
                if isinstance(rid, int) and not isinstance(rid, bool):
                    room._reply(self, rid, False, why)      # the table waits for its reply
                    room._done()
                    return
                raise Refusal(why)
        if kind == "take_seat":
            room.take_seat(self, msg.get("table"), msg.get("seat"))
        elif kind == "msg":
            room.intent(self, msg.get("content"))
        elif kind == "leave":
            room.leave(self)
        elif kind == "next_deal":
            room.next_deal_request(self)
        elif kind in ("quiz_answer", "quiz_get"):       # the live quiz (quiz.py)
            from .quiz import desk_of
            desk_of(room).learner_message(self, msg)
        elif kind.startswith("puzzle_"):                 # class puzzles (class_puzzles.py)
            from .class_puzzles import desk_of as puzzle_desk
            puzzle_desk(room).learner_message(self, msg)
        else:
            with using(room.language):
                raise Refusal(tr("The class server ignored a message it does not "
                                 "understand; nothing changed."))

    async def _hello(self, msg) -> None:
        room = self.room
        with using(room.language):
            if self.learner is not None:
                raise Refusal(tr("This page has already joined."))
            token, code = msg.get("token"), msg.get("code")
            lr = room.learner_for(token) if token is not None else None
            if lr is not None:                         # a page coming back: no guard
                if not self.server.rejoin_ok(lr):
                    raise Refusal(tr("This page reconnected too often: it tries again in a "
                                     "moment."), full=True)
                if self.probation and lr.table is None:
                    raise self.server.full_refusal()
                room.hello(self, token=token)
                return
            ok = await self._guarded(self.server.guard,
                                     lambda: token is None and room.check_code(code))
            if token is not None:                      # not known: said so (rejoin)
                room.hello(self, token=token)
                return
            if not ok:
                raise Refusal(tr("That is not the class code."))
            clean_name(msg.get("name"))                # a bad name costs no join
            why = room.saving_refused()
            if why is not None:
                raise Refusal(why)
            if self.probation:
                raise self.server.full_refusal()
            why = self.server.join_refusal(self.address)
            if why is not None:
                raise Refusal(why)
            room.hello(self, code=code, name=msg.get("name"))


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
        """The Host one of the server's; a page's Origin its own host or a configured one
        (a notebook's request has no Origin)."""
        return self.server.origin_ok(self.request.headers.get("Origin"), self.request.host)

    @property
    def address(self) -> str:
        """The address this request's limits count for (limits.client_address)."""
        return client_address(self.request, self.server.proxies)

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
        why = self.room.saving_refused()
        if why is not None:
            self.set_header("Retry-After", "5")
            return 503, {"reason": why}
        msg = self.body_json(MAX_BODY)
        results = msg.get("results")
        if not isinstance(results, list) or not 1 <= len(results) <= MAX_BATCH \
                or set(msg) - {"results"}:
            raise Refusal(tr("Send the results as a list named results, 1 to {n} at a "
                             "time.", n=MAX_BATCH))
        # judged off the loop, in the learner's own queue (workers.py); what is not judged
        # within RESULTS_WAIT goes back as failed (sent again later: stored meanwhile)
        out = await self.room.record_many(lr, results, group=self.address, wait=RESULTS_WAIT)
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
        rows = own_results(self.room.store.results(self.room.code, lr.id), lr.name)
        return 200, {"learner": lr.id, "name": lr.name, "results": rows}


def own_results(rows, name: str) -> list[dict]:
    """A learner's stored results as ``GET api/results`` sends them: one row per item with
    the columns of ``room.results()`` (grading.RESULT_COLUMNS; times as ISO text in UTC),
    in its order, made without pandas (its import and frames took the loop a second or
    two on a notebook's first request).

    >>> own_results([{"learner": 1, "kind": "exercise", "item": "trick_winner/1",
    ...               "right": 0, "seconds": 5.0, "at": 0.5, "received": 1.0, "attempt": 1},
    ...              {"learner": 1, "kind": "exercise", "item": "trick_winner/1",
    ...               "right": 1, "seconds": 9.0, "at": 60.0, "received": 61.0, "attempt": 2}],
    ...             "Asha")                                   # doctest: +NORMALIZE_WHITESPACE
    [{'learner': 1, 'name': 'Asha', 'kind': 'exercise', 'item': 'trick_winner/1',
      'tries': 2, 'first_right': False, 'solved': True, 'seconds': 9.0,
      'first': '1970-01-01T00:00:00.500Z', 'last': '1970-01-01T00:01:00.000Z'}]
    """
    from datetime import datetime, timezone

    from .grading import Tally

    def iso(t):
        if t is None:
            return None
        return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    tally = Tally()
    for r in sorted(rows, key=lambda r: (r["learner"], r["kind"], r["item"], r["attempt"])):
        tally.add(r["learner"], r["kind"], r["item"], bool(r["right"]), r["seconds"], r["at"],
                  r["received"])
    out = [{"learner": lid, "name": name, "kind": kind, "item": item, "tries": c.tries,
            "first_right": bool(c.first_right), "solved": bool(c.solved),
            "seconds": None if c.seconds is None else float(c.seconds),
            "first": iso(c.first), "last": iso(c.last)}
           for (lid, kind, item), c in tally.cells.items()]
    return sorted(out, key=lambda r: (r["kind"], r["item"]))


class TeacherApi(ApiHandler):
    """``api/teacher/learners``, the teacher's console's way into a running class
    (``Authorization: token TEACHER_TOKEN``, or the hub's teaching scope): ``GET`` every
    learner (``learner``, ``name``, ``table``, ``connected``, ``removed``); ``POST``
    ``{"remove": [ids]}`` or ``{"remove": "unseated"}`` (every learner without a seat: what
    a flood of joins left), ``{"let_back": [ids]}`` (removed learners may join again),
    ``{"max_learners": n}``. ``courtlearn class learners`` sends these."""

    async def get(self):
        await self._guarded(self._get)

    async def post(self):
        await self._guarded(self._post)

    def _check(self):
        if not self.server.api_take(("teacher", self.address), 5.0, 20):
            return 429, {"reason": tr("Too many messages: slow down.")}
        if not self.server.teacher_allowed(self):
            return 403, {"reason": tr("That is not the teacher's token: open the teacher's "
                                      "link again.")}
        return None

    def _rows(self) -> dict:
        room = self.room
        return {"code": room.code, "max_learners": room.max_learners,
                "learners": [{"learner": lr.id, "name": lr.name, "connected": lr.connected,
                              "table": None if lr.table is None else lr.table.number,
                              "seat": lr.seat, "removed": lr.removed}
                             for lr in sorted(room.learners.values(), key=lambda x: x.id)]}

    async def _get(self):
        return self._check() or (200, self._rows())

    async def _post(self):
        refused = self._check()
        if refused is not None:
            return refused
        msg = self.body_json(MAX_BODY)
        room = self.room
        unknown = set(msg) - {"remove", "let_back", "max_learners"}
        if unknown or not msg:
            raise Refusal(tr("Say remove (a list of learners, or \"unseated\"), let_back (a "
                             "list of learners) or max_learners (a number)."))
        done = {"removed": [], "let_back": []}
        if "max_learners" in msg:
            try:
                room.set_max_learners(msg["max_learners"])
            except ValueError as err:
                raise Refusal(str(err)) from None
        remove = msg.get("remove")
        if remove == "unseated":
            remove = [lr.id for lr in room.learners.values()
                      if not lr.removed and lr.table is None]
        for key, ids in (("removed", remove), ("let_back", msg.get("let_back"))):
            if ids is None:
                continue
            if not isinstance(ids, list) or not all(isinstance(i, int) and not isinstance(i, bool)
                                                    and i in room.learners for i in ids):
                raise Refusal(tr("Name the learners by their numbers (learner), as GET lists "
                                 "them."))
            for i in ids:
                (room.remove if key == "removed" else room.let_back)(i)
                done[key].append(i)
        room.flush()
        return 200, {**done, "max_learners": room.max_learners}


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
        "seats": tr("Whose cards are at the bottom"),
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


class TeacherSocket(_Socket):
    """The teacher page's socket: the dashboard's state out, its requests in, and the
    page's projector (all of it in :class:`~courtlearn.classroom.dashboard.TeacherDesk`).
    Nothing about the class goes out before the page proves the teacher's token in its
    first message (``{"type": "hello", "token": T}``; guessing is slowed as for class
    codes), or the server lets the request in (``ClassServer.teacher_allowed``: the hub's
    teaching scope). Messages are checked and limited as a learner's are."""

    def initialize(self, server):
        super().initialize(server)
        self.teacher = False

    def proven(self) -> bool:
        return self.teacher

    def opened_hook(self):
        if self.server.teacher_allowed(self):
            self._admit()
        elif getattr(self, "hub_auth", None) is not None:    # a hub user who does not teach
            self.close(4403, "not the teacher")
        else:
            self.send(json.dumps({"type": "login"}))

    def _admit(self) -> None:
        self.teacher = True
        self.server.desk.join(self)

    def closed_hook(self):
        if self.teacher:
            self.server.desk.leave(self)

    def dispatch(self, kind: str, msg: dict) -> None:
        lang = self.room.language
        if not self.teacher:
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

    async def _hello(self, msg) -> None:
        if self.teacher:
            self.server.desk.join(self)              # the state again
            return
        ok = await self._guarded(self.server.teacher_guard,
                                 lambda: self.room.check_teacher(msg.get("token")))
        if ok:
            self._admit()
        else:
            with using(self.room.language):
                self.refuse(tr("That is not the teacher's token: open the teacher's link "
                               "again."), token=True)


# ----------------------------------------------------------------------------- the server
class _Watch(tornado.httputil.HTTPMessageDelegate):
    """Wraps a request's delegate: marks its connection busy from its headers to its end
    (a connection not busy, waiting for headers or idle between requests, may be closed to
    make room)."""

    def __init__(self, inner, info):
        self.inner, self.info = inner, info

    def headers_received(self, start_line, headers):
        self.info[1] = True
        return self.inner.headers_received(start_line, headers)

    def data_received(self, chunk):
        return self.inner.data_received(chunk)

    def finish(self):
        self.info[1] = False
        self.info[0] = time.monotonic()
        return self.inner.finish()

    def on_connection_close(self):
        self.info[1] = False
        return self.inner.on_connection_close()


class _Listener(tornado.httpserver.HTTPServer):
    """tornado's HTTPServer, counting its connections for the ClassServer's cap: one
    address holds at most ``PER_ADDRESS`` (a ``--proxy`` any number); past the general
    cap the oldest connection not in a request is closed to make room (a half-sent
    request, an idle keep-alive), so ``/health``, the teacher and the seated learners
    always get in."""

    owner = None            # the ClassServer

    def handle_stream(self, stream, address):
        owner = self.owner
        peer = address[0] if isinstance(address, tuple) and address else "?"
        if owner is not None and not owner.admit(peer):
            stream.close()
            return
        super().handle_stream(stream, address)
        if owner is not None:
            owner.http_conns[stream] = [time.monotonic(), False, peer]
            owner.per_peer[peer] = owner.per_peer.get(peer, 0) + 1

    def start_request(self, server_conn, request_conn):
        delegate = super().start_request(server_conn, request_conn)
        owner = self.owner
        info = owner.http_conns.get(getattr(server_conn, "stream", None)) if owner else None
        return delegate if info is None else _Watch(delegate, info)

    def on_close(self, server_conn):
        super().on_close(server_conn)
        owner = self.owner
        if owner is not None:
            info = owner.http_conns.pop(getattr(server_conn, "stream", None), None)
            if info is not None:
                owner._release_peer(info[2])


class ClassServer:
    """A Room served over HTTP and WebSockets on ``host``:``port``."""

    def __init__(self, room: Room, port: int = 8765, host: str = "0.0.0.0", origins=(),
                 rate: float = RATE, burst: int = BURST, lite=None, host_names=(), proxies=(),
                 max_connections: int | None = None, guard: Guard | None = None):
        self.room = room
        self.lite = None if lite is None else _lite_folder(lite)   # the browser-only site
        self.host = host
        self.origins = {o.rstrip("/") for o in origins}
        self.hosts = Hosts(names=[*host_names, *([host] if host not in ("0.0.0.0", "", "::")
                                                 else [])], origins=self.origins)
        self.proxies = proxy_addresses(proxies)
        self.rate, self.burst = rate, burst
        self.guard = guard if guard is not None else Guard()
        self.teacher_guard = Guard(free=10, every=2.0)
        self.sockets: set = set()
        self.http_conns: dict = {}        # stream -> [since, busy, peer] (the _Listener's)
        self.per_peer: dict[str, int] = {}
        files = raise_file_limit()
        # each connection is a file; keep some for the class file, logs and the site's files
        self.max_connections = max_connections or max(64, files - 100)
        self.reserve = max(8, int(self.max_connections * RESERVE))
        self.buckets: dict = {}           # the API's and the joins' limits: key -> TokenBucket
        self.stopped = False
        self.own_store = False            # the server opened the store: it closes it too
        self._draining: list = []         # sockets with a batch to write this tick
        self._static: dict[str, tuple[bytes, str]] = {}
        self._page: bytes | None = None
        quiet_logs()
        warm()
        self.app = tornado.web.Application(self.handlers({"server": self}), **self.app_settings())
        self.http = _Listener(self.app, xheaders=False, max_body_size=MAX_BODY,
                              idle_connection_timeout=HEADER_TIMEOUT, body_timeout=BODY_TIMEOUT)
        self.http.owner = self
        try:
            self.http.listen(port, address=host)
        except OSError as err:
            raise OSError(err.errno, f"the class server cannot listen on {host}:{port} "
                          f"({err.strerror}): is another class server running there? Close "
                          f"it (room.close()) or choose another port (port=0 picks a free "
                          f"one)") from None
        self.port = next(iter(self.http._sockets.values())).getsockname()[1]
        room.server = self
        room.on_change.insert(0, self._flushed)   # the batches go right after the room's flush

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
                (p + r"api/teacher/learners", TeacherApi, args),
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

    def storage_changed(self, trouble: str | None) -> None:
        """The class file stopped saving (``trouble``: the sentence) or saves again: every
        teacher page says so (learners hear it when they ask for a change)."""
        with using(self.room.language):
            text = json.dumps({"type": "refused", "reason": trouble or
                               tr("The class saves to its file again.")}, ensure_ascii=False)
        for ws in list(self.sockets):
            if isinstance(ws, TeacherSocket) and ws.teacher:
                ws.send(text)

    # -- bounds (limits.py): connections, origins, joins
    def connections(self) -> int:
        """Connections open now: HTTP ones and sockets."""
        return len(self.http_conns) + len(self.sockets)

    @property
    def general_cap(self) -> int:
        """Connections past which only seated learners, the teacher and ``/health`` may
        stay (the others give way, oldest first)."""
        return self.max_connections - self.reserve

    def admit(self, peer: str) -> bool:
        """Whether a new connection from ``peer`` may be served (room made for it)."""
        if peer not in self.proxies and self.per_peer.get(peer, 0) >= PER_ADDRESS:
            return False
        while self.connections() >= self.general_cap and self._evict():
            pass
        return self.connections() < self.max_connections

    def _evict(self) -> bool:
        """Close the oldest connection that is not a request under way nor a proven socket
        (a seated learner's, the teacher's); False when there is none."""
        best, since = None, None
        for stream, (t, busy, _peer) in self.http_conns.items():
            if not busy and (since is None or t < since):
                best, since = stream, t
        for ws in self.sockets:
            if not ws.proven() and (since is None or ws.opened < since):
                best, since = ws, ws.opened
        if best is None:
            return False
        if isinstance(best, _Socket):
            self.sockets.discard(best)
            best.close(1013, "the class server is full")
        else:
            info = self.http_conns.pop(best, None)
            if info is not None:
                self._release_peer(info[2])
            best.close()
        return True

    def _release_peer(self, peer: str) -> None:
        n = self.per_peer.get(peer, 0) - 1
        if n > 0:
            self.per_peer[peer] = n
        else:
            self.per_peer.pop(peer, None)

    def socket_opened(self, ws) -> None:
        self.sockets.add(ws)
        self.per_peer[ws.peer] = self.per_peer.get(ws.peer, 0) + 1
        if len(self.sockets) + len(self.http_conns) > self.general_cap:
            ws.probation = True               # in the reserve: a seated learner or the teacher

    def socket_closed(self, ws) -> None:
        if ws in self.sockets:
            self.sockets.discard(ws)
        self._release_peer(ws.peer)

    def full_refusal(self) -> Refusal:
        with using(self.room.language):
            return Refusal(tr("The class server is full just now: try again in a minute."),
                           full=True)

    def origin_ok(self, origin: str | None, host: str) -> bool:
        """A request of a page (its Origin; None: not from a page) to this Host: the Host
        one of the server's names, the Origin the page's own host or a configured one."""
        if not self.hosts.allowed(host):
            return False
        if origin is None or origin in self.origins:
            return True
        parsed = urlparse(origin)
        return bool(parsed.netloc) and parsed.netloc.lower() == host.lower()

    def join_refusal(self, address: str) -> str | None:
        """Why a new learner may not join from ``address`` now (its address's or the class's
        joins are spent: see JOIN_RATE), or None (and the join is counted)."""
        now = time.monotonic()
        ok_address = self._bucket(("join", address), JOIN_RATE, JOIN_BURST).fill(now) >= 1
        ok_class = self._bucket(("join", None), CLASS_JOIN_RATE,
                                CLASS_JOIN_BURST).fill(now) >= 1
        with using(self.room.language):
            if not ok_address:
                return tr("Too many learners joined from your network just now: wait a "
                          "minute and try again.")
            if not ok_class:
                return tr("Too many learners are joining the class just now: wait a minute "
                          "and try again.")
        self._bucket(("join", address), JOIN_RATE, JOIN_BURST).take(now)
        self._bucket(("join", None), CLASS_JOIN_RATE, CLASS_JOIN_BURST).take(now)
        return None

    def rejoin_ok(self, lr) -> bool:
        """A page of learner ``lr`` says hello again with its token: at most REJOIN_RATE a
        second (a reload, a phone waking up), so a page reconnecting in a loop cannot make
        their table-mates redraw hundreds of times a second."""
        return self.api_take(("rejoin", lr.id), REJOIN_RATE, REJOIN_BURST)

    def _bucket(self, key, rate: float, burst: int) -> TokenBucket:
        now = time.monotonic()
        if len(self.buckets) > 20000:
            self.buckets = {k: b for k, b in self.buckets.items() if now - b.at < 600}
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = TokenBucket(rate, burst)
        return bucket

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
        address = handler.address
        if not await self.guard.turn(address):
            return 429, {"reason": tr("Too many tries from your network: wait a minute and try "
                                      "again.")}
        ok = room.check_code(msg.get("code"))
        self.guard.result(address, ok, time.monotonic())
        if not ok:
            return 403, {"reason": tr("That is not the class code.")}
        clean_name(msg.get("name"))                # a bad name costs no join
        why = self.join_refusal(address)
        if why is not None:
            return 429, {"reason": why}
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
        """The join addresses: one per address of this machine learners can reach; behind
        a reverse proxy (``--proxy`` and ``--origin`` both given, as the README sets up
        https) the pages' origins instead: the class's own address is then only the
        proxy's way in (127.0.0.1 on a cloud machine), no address for a learner or the
        teacher's link."""
        if self.proxies and self.origins:
            return [f"{o}{self.prefix}" for o in sorted(self.origins)]
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

    def to_drain(self, ws) -> None:
        """``ws`` has a batch: written at the end of this tick, with every other socket's."""
        if not self._draining:
            try:
                asyncio.get_running_loop().call_soon(self._drain)
            except RuntimeError:          # not in the loop (a server stopping): write now
                self._draining.append(ws)
                self._drain()
                return
        self._draining.append(ws)

    def _drain(self) -> None:
        todo, self._draining = self._draining, []
        for ws in todo:
            ws.drain()

    def _flushed(self, room) -> None:
        """The room has committed and said what a tick produced: written now, not a loop
        turn later (then every message that came meanwhile would be handled first: under
        a school's load, tens of milliseconds)."""
        self._drain()

    def stop(self) -> None:
        """Stop listening, close every socket, save and close the room's store."""
        if self.stopped:
            return
        self.stopped = True
        if self._flushed in self.room.on_change:
            self.room.on_change.remove(self._flushed)
        self.http.stop()
        for ws in list(self.sockets):
            ws.close(1001, "server closing")
        for stream in list(self.http_conns):
            stream.close()
        self.room.close()
        if self.own_store:
            self.room.store.close()


def warm() -> None:
    """Import now, before anyone is served, the modules the loop would otherwise import at
    their first use (the teacher's desk, the quiz, the class puzzles, the judging and its
    workers: about 0.2 s, which the first teacher page or quiz made every table wait)."""
    from . import class_puzzles, dashboard, grading, projector, quiz, workers  # noqa: F401


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
<link rel="stylesheet" href="{base}static/teacher.css">
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
          hints: bool = False, paused: bool = False, origins=(), lite=None, host_names=(),
          proxies=(), max_learners: int | None = None) -> Room:
    """Start the class server in the running event loop (a notebook kernel's) and
    return the Room (``room.server`` is the :class:`ClassServer`). A store holding this
    class (its ``code``, or its only class) resumes it. ``lite``: a built JupyterLite
    site's folder, served under ``lite/`` (lite.py). ``host_names``: names of this
    machine learners type that the server cannot know (a school's own DNS name);
    ``proxies``: the https proxy in front of it (its address: per-address limits then
    count the address it forwards); ``max_learners``: the class's cap, when raised."""
    lite = None if lite is None else _lite_folder(lite)      # a bad folder: nothing starts
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = asyncio.get_event_loop()
    room = _room(db, code, language, tables, rules, grace, hints, loop, paused)
    try:
        if max_learners is not None:
            room.set_max_learners(max_learners)
        server = ClassServer(room, port=port, host=host, origins=origins, lite=lite,
                             host_names=host_names, proxies=proxies)
    except (OSError, ValueError):
        if not isinstance(db, Store):
            room.store.close()
        raise
    server.own_store = not isinstance(db, Store)
    return room


async def serve(port: int = 8765, db="class.sqlite", language: str = "en", code=None,
                tables: int = 10, rules=None, host: str = "0.0.0.0", grace: float = 30.0,
                hints: bool = False, origins=(), ready=None, stop: asyncio.Event | None = None,
                server_class=None, lite=None, host_names=(), proxies=(),
                max_learners: int | None = None, max_connections: int | None = None):
    """Run the class server until ``stop`` is set (or forever): the console script's
    loop. ``ready(server)`` is called once it listens. ``server_class``: another kind of
    :class:`ClassServer` (called like it), e.g. the JupyterHub service's. ``lite``: a
    built JupyterLite site's folder, served under ``lite/``. ``host_names``, ``proxies``,
    ``max_learners``: as :func:`start`."""
    lite = None if lite is None else _lite_folder(lite)      # a bad folder: nothing starts
    loop = asyncio.get_running_loop()
    room = _room(db, code, language, tables, rules, grace, hints, loop)
    if max_learners is not None:
        room.set_max_learners(max_learners)
    server = (server_class or ClassServer)(room, port=port, host=host, origins=origins,
                                           host_names=host_names, proxies=proxies,
                                           max_connections=max_connections,
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
