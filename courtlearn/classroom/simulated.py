"""Simulated learners: WebSocket clients that join a class and play their seat.

They speak the learner page's protocol with a real WebSocket client library
(``websockets``, installed with courtlearn's test extra), and decide from what their
page receives: the snapshot says whose turn it is and which cards are legal. Tests,
benchmarks and the teachers' lesson use them to fill a class without phones.

>>> import asyncio
>>> async def demo(address, code):                              # doctest: +SKIP
...     learners = [SimulatedLearner(address, f"L{i}", code=code) for i in range(4)]
...     for i, lr in enumerate(learners):
...         await lr.join(table=0, seat=i)
...     await asyncio.gather(*(lr.play(deals=1) for lr in learners))
"""
from __future__ import annotations

import asyncio
import json
import random
import sys
import time

__all__ = ["SimulatedLearner", "ServerProcess", "free_port"]


class SimulatedLearner:
    """One learner's page, without the page.

    address: the server's http address ("http://127.0.0.1:8765/"); code, name: what the
    learner types; think: seconds between the turn coming and the move (a number, or a
    (low, high) range drawn with ``seed``); record: keep every message received, as
    sent (for the trust tests). ``on_state(learner, msg, t)`` and ``on_ack(learner,
    key, t)`` are hooks for measurements. ``headers``: more HTTP headers of the socket's
    opening request (``X-Forwarded-For`` for a school of phones behind a ``--proxy``).
    """

    def __init__(self, address: str, name: str, code: str | None = None,
                 token: str | None = None, think=0.0, seed: int = 0, record: bool = False,
                 origin: str | None = None, on_state=None, on_ack=None, headers=None):
        base = address.rstrip("/")
        self.headers = dict(headers or {})      # e.g. X-Forwarded-For behind a --proxy
        self.url = base.replace("http://", "ws://").replace("https://", "wss://") + "/ws"
        self.origin = origin or base
        self.name, self.code, self.token = name, code, token
        self.think = think
        self.rng = random.Random(seed)
        self.record = record
        self.received: list[str] = []
        self.on_state, self.on_ack = on_state, on_ack
        self.ws = None
        self.table = self.seat = None
        self.frame: dict | None = None          # the latest snapshot
        self.key: tuple | None = None           # (table, deal, actions) of the latest state
        self.lobby = None
        self.refusals: list[str] = []
        self.replies: dict[int, dict] = {}
        self.acked: list[tuple] = []             # (key, content) of every accepted intent
        self.welcome = None
        self.roster = None
        self._next_id = 1
        self._waiters: list = []                 # the futures wait_for sleeps on
        self._reader = None
        self.closed = False
        self.sent_at = None                      # when the last intent went out (perf_counter)
        self.quiz: dict | None = None            # the live quiz's question now (its message)
        self.quiz_acks: list[dict] = []          # every quiz_ack received
        self.quiz_reveals: list[dict] = []       # every quiz_reveal received
        self.quiz_over = False                   # a quiz_end came after the latest question
        self.puzzle: dict | None = None          # the class puzzle's panel now (its message)
        self.puzzle_frame: dict | None = None    # the puzzle table's latest snapshot
        self.puzzle_replies: dict[int, dict] = {}    # reply_to -> the puzzle table's reply
        self.puzzle_over = False                 # a puzzle_end came after the latest puzzle

    # ------------------------------------------------------------------ the socket
    async def connect(self, timeout: float = 10.0) -> None:
        import websockets
        self.ws = await asyncio.wait_for(
            websockets.connect(self.url, origin=self.origin, max_size=2 ** 22,
                               additional_headers=self.headers or None,
                               ping_interval=None), timeout)
        self.closed = False
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                self._handle(text)
        except Exception:
            pass
        finally:
            self.closed = True
            self._wake()

    def _wake(self) -> None:
        for w in self._waiters:
            if not w.done():
                w.set_result(None)

    def _handle(self, text: str) -> None:
        now = time.perf_counter()
        if self.record:
            self.received.append(text)
        msg = json.loads(text)
        kind = msg.get("type")
        if kind == "welcome":
            self.welcome = msg
            if "token" in msg:
                self.token = msg["token"]
        elif kind == "lobby":
            self.lobby = msg
        elif kind == "seated":
            self.table, self.seat = msg["table"], msg["seat"]
        elif kind == "unseated":
            self.table = self.seat = None
        elif kind == "state":
            frames = msg["state"]["frames"]
            if frames:
                self.frame = frames[-1]
            self.key = (msg["table"], msg["deal"], msg["actions"])
            if self.on_state is not None:
                self.on_state(self, msg, now)
        elif kind == "custom":
            content = msg["content"]
            self.replies[content.get("reply_to")] = content
            if not content.get("ok"):
                self.refusals.append(content.get("reason", ""))
        elif kind in ("refused", "removed"):
            self.refusals.append(msg.get("reason", ""))
        elif kind == "table":
            self.roster = msg
        elif kind == "quiz":
            self.quiz, self.quiz_over = msg, False
        elif kind == "quiz_ack":
            self.quiz_acks.append(msg)
        elif kind == "quiz_reveal":
            self.quiz_reveals.append(msg)
        elif kind == "quiz_end":
            self.quiz_over = True
        elif kind == "puzzle":
            self.puzzle, self.puzzle_over = msg, False
        elif kind == "puzzle_state":
            frames = msg["state"]["frames"]
            if frames:
                self.puzzle_frame = frames[-1]
        elif kind == "puzzle_custom":
            content = msg["content"]
            self.puzzle_replies[content.get("reply_to")] = content
        elif kind == "puzzle_end":
            self.puzzle_over = True
        self._wake()

    async def send(self, msg) -> None:
        await self.ws.send(msg if isinstance(msg, (str, bytes)) else json.dumps(msg))

    async def wait_for(self, test, timeout: float = 10.0):
        """Wait until ``test()`` is true (checked after every message)."""
        end = time.monotonic() + timeout
        while True:
            got = test()
            if got:
                return got
            if self.closed:
                raise ConnectionError(f"{self.name}: the socket closed")
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: waited {timeout} s; last refusal: "
                                   f"{self.refusals[-1:]}")
            # a bare future and a timer (asyncio.wait_for would make a task at each wait:
            # two hundred learners in one process, woken four times a move)
            loop = asyncio.get_running_loop()
            fut = loop.create_future()
            self._waiters.append(fut)
            timer = loop.call_later(left, _expire, fut)
            try:
                await fut
            finally:
                timer.cancel()
                self._waiters.remove(fut)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)

    # ------------------------------------------------------------------ joining
    async def hello(self, timeout: float = 10.0) -> None:
        """Say hello: with the token if the learner has one, else with code and name."""
        self.welcome = None
        if self.token:
            await self.send({"type": "hello", "token": self.token})
        else:
            await self.send({"type": "hello", "code": self.code, "name": self.name})
        await self.wait_for(lambda: self.welcome is not None, timeout)

    async def join(self, table: int | None = None, seat: int | None = None,
                   timeout: float = 10.0) -> None:
        """Connect, say hello, and sit at ``table``/``seat`` (if given); returns once the
        table's first picture is there."""
        if self.ws is None or self.closed:
            await self.connect(timeout)
        await self.hello(timeout)
        await self.wait_for(lambda: self.lobby is not None or self.frame is not None, timeout)
        if table is not None and (self.table, self.seat) != (table, seat):
            self.frame = None
            await self.send({"type": "take_seat", "table": table, "seat": seat})
            await self.wait_for(lambda: self.table == table and self.frame is not None, timeout)

    async def reconnect(self, timeout: float = 10.0, every: float = 0.25) -> float:
        """What the page does when its socket drops: try again every ``every`` seconds
        with its token until it is back in its seat; returns the seconds it took."""
        start = time.monotonic()
        while True:
            try:
                self.frame = None
                await self.connect(timeout=1.0)
                await self.hello(timeout=2.0)
                if self.table is not None:
                    await self.wait_for(lambda: self.frame is not None, 2.0)
                return time.monotonic() - start
            except (OSError, ConnectionError, TimeoutError, asyncio.TimeoutError, Exception):
                if self.ws is not None:
                    try:
                        await self.ws.close()
                    except Exception:
                        pass
                if time.monotonic() - start > timeout:
                    raise TimeoutError(f"{self.name}: not back after {timeout} s") from None
                await asyncio.sleep(every)

    # ------------------------------------------------------------------ the live quiz
    async def wait_question(self, index: int | None = None, timeout: float = 10.0) -> dict:
        """Wait for the quiz's question (``index``, or any) to be on this page."""
        return await self.wait_for(lambda: self.quiz if self.quiz is not None and not
                                   self.quiz_over and (index is None or
                                                       self.quiz["index"] == index) else None,
                                   timeout)

    async def answer_quiz(self, value=None, wait: bool = True,
                          timeout: float = 10.0):
        """Click one choice of the question on the page (``value``; by default one drawn
        with the learner's seed) and, with ``wait``, wait for the server's ack (returned)
        or refusal (raises ValueError with its sentence)."""
        q = await self.wait_question(timeout=timeout)
        if value is None:
            value = self.rng.choice(q["choices"])["value"]
        acks, refusals = len(self.quiz_acks), len(self.refusals)
        self.sent_at = time.perf_counter()
        await self.send({"type": "quiz_answer", "quiz": q["quiz"], "index": q["index"],
                         "answer": value})
        if not wait:
            return None
        await self.wait_for(lambda: len(self.quiz_acks) > acks or
                            len(self.refusals) > refusals, timeout)
        if len(self.quiz_acks) > acks:
            return self.quiz_acks[-1]
        raise ValueError(self.refusals[-1])

    # ------------------------------------------------------------------ the class puzzles
    async def wait_puzzle(self, key: str | None = None, timeout: float = 10.0) -> dict:
        """Wait for the class puzzle (``key`` such as "1.2", or any) to be on this page."""
        return await self.wait_for(lambda: self.puzzle if self.puzzle is not None and not
                                   self.puzzle_over and self.puzzle_frame is not None and
                                   (key is None or self.puzzle["key"] == key) else None,
                                   timeout)

    async def play_puzzle(self, card: str, timeout: float = 10.0) -> dict:
        """Click ``card`` (a code such as "QS") on the puzzle table and wait for the
        reply (``{"ok": True}`` or ``{"ok": False, "reason": ...}``), the defence's answer
        drawn by then."""
        rid = self._next_id
        self._next_id += 1
        self.puzzle_replies.pop(rid, None)        # a reply to a hand-made message's id
        await self.send({"type": "puzzle_msg",
                         "content": {"type": "play", "card": card, "id": rid}})
        return await self.wait_for(lambda: self.puzzle_replies.get(rid), timeout)

    async def solve_puzzle(self, cards, timeout: float = 30.0) -> dict:
        """Play the line ``cards`` (the learner's side's cards, in order) and return the
        panel after it (its ``status`` and ``verdict``); a refused card raises ValueError."""
        for card in cards:
            got = await self.play_puzzle(str(getattr(card, "code", card)), timeout)
            if not got.get("ok"):
                raise ValueError(got.get("reason"))
        await self.wait_for(lambda: self.puzzle is not None and
                            self.puzzle["status"] != "playing", timeout)
        return self.puzzle

    # ------------------------------------------------------------------ playing
    def my_turn(self) -> bool:
        f = self.frame
        return (f is not None and f["phase"] != "over" and f["to_play"] == f["viewer"]
                and self.choose() is not None)

    def choose(self) -> dict | None:
        """The move this learner makes now, from its snapshot alone."""
        f = self.frame
        me = f["seats"][f["viewer"]]
        actions = f.get("actions") or []
        if "call_trump" in actions:
            return {"type": "call_trump", "suit": self.rng.choice("SHCD")}
        if "choose_trump_card" in actions and me["hand"]:
            return {"type": "choose_trump_card", "card": self.rng.choice(me["hand"])}
        if me["legal"]:
            return {"type": "play", "card": self.rng.choice(me["legal"])}
        for a in ("defer_trump", "ask_for_trump"):
            if a in actions:
                return {"type": a}
        return None

    async def act(self, content: dict | None = None, timeout: float = 10.0) -> dict:
        """Send one intent (the chosen move by default) and wait for its reply."""
        content = dict(content or self.choose())
        rid = self._next_id
        self._next_id += 1
        content["id"] = rid
        self.sent_at = time.perf_counter()
        await self.send({"type": "msg", "content": content})
        reply = await self.wait_for(lambda: self.replies.pop(rid, None), timeout)
        if reply.get("ok"):
            self.acked.append((self.key, content))
            if self.on_ack is not None:
                self.on_ack(self, self.key, time.perf_counter())
        return reply

    async def play(self, deals: int = 1, timeout: float = 30.0, stop=None) -> int:
        """Play this seat until ``deals`` deals have ended at the table, counting the one
        on the table now (at each deal's end it asks for the next: the next deal starts
        when everyone at the table has, see Room.next_deal_request); returns the moves
        made. ``stop``: an asyncio.Event that ends the play early."""
        moves = 0
        first = self.key[1]
        while not (stop is not None and stop.is_set()):
            await self.wait_for(lambda: self.my_turn() or self.frame["phase"] == "over"
                                or (stop is not None and stop.is_set()), timeout)
            if stop is not None and stop.is_set():
                break
            if self.frame["phase"] == "over":
                number = self.key[1]
                if number - first + 1 >= deals:
                    break
                await self.send({"type": "next_deal"})
                await self.wait_for(lambda: self.key[1] != number, timeout)
                continue
            delay = self.think if not isinstance(self.think, tuple) else \
                self.rng.uniform(*self.think)
            if delay:
                await asyncio.sleep(delay)
            reply = await self.act(timeout=timeout)
            if reply.get("ok"):
                moves += 1
        return moves


def _expire(fut) -> None:
    if not fut.done():
        fut.set_result(None)


class ServerProcess:
    """``courtlearn class serve`` in a child process on 127.0.0.1 (tests and benches):
    started, read for its port, killed (``kill()`` is SIGKILL: nothing is flushed).

    >>> with ServerProcess(db="class.sqlite", code="TEST23") as server:   # doctest: +SKIP
    ...     server.address
    'http://127.0.0.1:40213/'
    """

    def __init__(self, db, code: str, port: int = 0, tables: int = 2, game: str = "court_piece",
                 grace: float = 30.0, extra=(), timeout: float = 30.0):
        self.args = [sys.executable, "-m", "courtlearn.classroom.cli", "class", "serve",
                     "--db", str(db), "--code", code, "--host", "127.0.0.1",
                     "--tables", str(tables), "--game", game, "--grace", str(grace), *extra]
        self.port = port
        self.timeout = timeout
        self.proc = None
        self.lines: list[str] = []

    def start(self) -> "ServerProcess":
        import subprocess
        self.proc = subprocess.Popen([*self.args, "--port", str(self.port)],
                                     stdout=subprocess.PIPE, text=True)
        end = time.monotonic() + self.timeout
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            if line.startswith("port:"):
                self.port = int(line.split()[1])
                return self
            if time.monotonic() > end:
                break
        self.kill()
        raise RuntimeError(f"the class server did not start: {self.lines}")

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def pid(self) -> int:
        return self.proc.pid

    def kill(self) -> None:
        """SIGKILL, as a crash would: no goodbye, no flush."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM: the server closes its sockets and the store."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except Exception:
                self.kill()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (for a server that must come back on it)."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
