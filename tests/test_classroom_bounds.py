"""The class server's bounds (issue 29): what one hostile learner with the class code could
do before, each tried against a real server on 127.0.0.1 (real sockets, real clients).

Item 4: joins per address (page socket and api/join) and per class, learners per class (a
number the teacher raises), pages per learner, the teacher's console removing learners.
Item 5: header timeout, a connection cap that keeps /health and seated learners in, a log
that cannot flood. Item 6: a shared address is not locked out by typos. Item 7: a
reconnect loop does not redraw the table-mates; the lobby's bytes are bounded. Item 8: one
server per class file. Item 10: the Host check (DNS rebinding). Item 11: a bad class file
is refused with a sentence; a disk that refuses keeps the pages. Item 12: names that pass
for the page's own words (long names on a 360 px page: tests/browser/test_class_long_names.py).
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import pathlib
import socket
import sqlite3
import subprocess
import sys
import time

import pytest

from courtlearn.classroom import lobby as lobby_module
from courtlearn.classroom import room as room_module
from courtlearn.classroom import server as server_module
from courtlearn.classroom.limits import Guard, Hosts, QuietLog
from courtlearn.classroom.simulated import ServerProcess, SimulatedLearner
from courtlearn.classroom.store import ClassFileError, Store

from classroom_helpers import CODE, address, class_server, get, seated, settle

websockets = pytest.importorskip("websockets")
from websockets.exceptions import InvalidStatus  # noqa: E402
pytestmark = pytest.mark.timeout(120)


def run(coro):
    return asyncio.run(coro)


def post(url, body, headers=None):
    import urllib.error
    import urllib.request
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"{}")


async def apost(url, body, headers=None):
    return await asyncio.get_running_loop().run_in_executor(None, post, url, body, headers)


async def hello(server, name, code=CODE, origin=None):
    """A page that says hello with a code; returns (learner, welcome or refusal)."""
    lr = SimulatedLearner(address(server), name, code=code, origin=origin)
    await lr.connect()
    await lr.send({"type": "hello", "code": code, "name": name})
    await lr.wait_for(lambda: lr.welcome or lr.refusals or lr.closed, 10)
    return lr


# ----------------------------------------------------------------------------- item 1
def test_a_seed_that_gives_no_question_is_refused_with_a_sentence(tmp_path, monkeypatch,
                                                                   caplog):
    """A fresh question's search looks through a bounded number of deals, and for a few
    seeds finds no position (best_card/seed=170 and 185 of seeds 0-199, with 120 deals): its
    result is no exercise, refused with a sentence, never "the server could not judge it"
    (a fault, which the notebook sends again and again, and a traceback in the log)."""
    from courtlearn import exercises
    from courtlearn.classroom import grading

    def nothing(seed):                       # what bestplay.search raises for such a seed
        raise RuntimeError("no position where South's choice matters in 40 deals")
    monkeypatch.setitem(exercises._SEEDED, "best_card", nothing)
    monkeypatch.setenv("COURTLEARN_CLASS_WORKERS", "thread")     # the patch is seen there
    grading._question.cache_clear()
    with pytest.raises(exercises.NoQuestion, match="Seed 5 gives no best_card question.*"
                                                   "try another seed"):
        exercises.question("best_card", seed=5)

    async def main():
        async with class_server(tmp_path) as server:
            _, joined = await apost(address(server) + "api/join", {"code": CODE, "name": "Asha"})
            auth = {"Authorization": f"token {joined['token']}"}
            result = {"kind": "exercise", "item": "best_card/seed=5", "answer": "AS"}
            for rid in ("r0000001", "r0000002"):
                status, body = await apost(address(server) + "api/results",
                                           {"results": [{"id": rid, **result}]}, auth)
                assert status == 400 and not body["failed"], body
                assert body["refused"] == [{"id": rid, "reason": "There is no exercise "
                                            "'best_card/seed=5'; nothing was stored."}]
            assert server.room.results().empty
    try:
        with caplog.at_level(logging.ERROR, logger="courtlearn.classroom"):
            run(main())
    finally:
        grading._question.cache_clear()
    assert not [r for r in caplog.records if "could not be judged" in r.getMessage()]


def test_a_notebooks_own_results_are_sent_as_the_teacher_reads_them(tmp_path, monkeypatch):
    """GET api/results (cl.classroom.my_results) is made on the loop without pandas (its
    import took the loop 1-2 s at a notebook's first request): the rows are those of
    room.results() for that learner, column for column."""
    import urllib.request
    monkeypatch.setenv("COURTLEARN_CLASS_WORKERS", "thread")

    def fetch(url, token):
        req = urllib.request.Request(url, headers={"Authorization": f"token {token}"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    async def main():
        async with class_server(tmp_path) as server:
            tokens = []
            for name in ("Asha", "Bilal"):
                _, joined = await apost(address(server) + "api/join", {"code": CODE,
                                                                       "name": name})
                tokens.append(joined["token"])
            sent = [("trick_winner/1", "2C", 3.5), ("trick_winner/1", "K♥", 9.25),
                    ("legal_cards/2", ["2C"], None)]
            for i, (item, answer, seconds) in enumerate(sent):
                status, body = await apost(address(server) + "api/results", {"results": [
                    {"id": f"a-{i:07d}", "kind": "exercise", "item": item, "answer": answer,
                     "seconds": seconds, "at": 1_700_000_000.25 + i}]},
                    {"Authorization": f"token {tokens[0]}"})
                assert status == 200 and body["stored"], body
            with monkeypatch.context() as m:                    # no pandas on the loop
                m.setitem(sys.modules, "pandas", None)
                got = await asyncio.get_running_loop().run_in_executor(
                    None, fetch, address(server) + "api/results", tokens[0])
            frame = server.room.results(got["learner"])
            assert got["results"] == json.loads(frame.to_json(orient="records",
                                                              date_format="iso"))
            assert [r["tries"] for r in got["results"]] == [1, 2]
            other = await asyncio.get_running_loop().run_in_executor(
                None, fetch, address(server) + "api/results", tokens[1])
            assert other["results"] == []
    run(main())


def test_the_limits_examples_run():
    import doctest

    from courtlearn.classroom import limits
    assert doctest.testmod(limits, optionflags=doctest.ELLIPSIS).failed == 0


# ----------------------------------------------------------------------------- item 4
def test_joins_per_address_and_learners_per_class_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(server_module, "JOIN_BURST", 5)
    monkeypatch.setattr(server_module, "JOIN_RATE", 0.01)

    async def main():
        async with class_server(tmp_path) as server:
            got = [await hello(server, f"F{i}") for i in range(7)]
            assert sum(1 for g in got if g.welcome) == 5            # the address's joins
            assert "from your network" in got[-1].refusals[-1]
            status, body = await apost(address(server) + "api/join",
                                       {"code": CODE, "name": "N"})      # notebooks too
            assert status == 429 and "from your network" in body["reason"]
            # the class's cap, which the teacher raises
            server.room.set_max_learners(5)
            monkeypatch.setattr(server_module, "JOIN_BURST", 100)
            server.buckets.clear()
            late = await hello(server, "Late")
            assert late.welcome is None and "The class is full (5 learners)" in late.refusals[-1]
            server.room.set_max_learners(6)
            assert (await hello(server, "Late2")).welcome is not None
            for g in got:
                await g.close()
    run(main())


def test_joins_per_class_are_bounded_whatever_the_addresses(tmp_path, monkeypatch):
    """Many addresses (behind the named proxy, each request forwarding another one): the
    class's own join limit still holds."""
    monkeypatch.setattr(server_module, "CLASS_JOIN_BURST", 5)
    monkeypatch.setattr(server_module, "CLASS_JOIN_RATE", 0.01)

    async def main():
        async with class_server(tmp_path) as server:
            server.proxies = {"127.0.0.1"}                          # --proxy 127.0.0.1
            got = [await apost(address(server) + "api/join", {"code": CODE, "name": f"N{i}"},
                               {"X-Forwarded-For": f"10.0.0.{i}"}) for i in range(7)]
            assert [status for status, _ in got] == [200] * 5 + [429] * 2
            assert "joining the class just now" in got[-1][1]["reason"]
            assert len(server.room.learners) == 5
    run(main())


def test_a_learner_has_at_most_four_pages_open(tmp_path):
    async def main():
        async with class_server(tmp_path) as server:
            [a] = await seated(server, n=1)
            pages = []
            for _ in range(5):
                p = SimulatedLearner(address(server), "A", token=a.token)
                await p.join()
                pages.append(p)
            await a.wait_for(lambda: a.closed, 5)               # the oldest gave way
            lr = server.room.learners[a.welcome["learner"]]
            assert len(lr.conns) == 4
            for p in pages:
                await p.close()
    run(main())


def test_the_teachers_console_removes_a_flood_of_learners(tmp_path):
    async def main():
        async with class_server(tmp_path) as server:
            room = server.room
            keep = await seated(server, n=2)
            for i in range(12):
                room.register(f"Flood{i}")
            room.flush()
            link = room.teacher_link(address(server))
            from courtlearn.classroom import cli
            loop = asyncio.get_running_loop()
            rc = await loop.run_in_executor(None, cli.main, ["class", "learners", "--link", link,
                                                             "--remove-unseated"])
            assert rc == 0
            assert [lr.name for lr in room.learners.values() if not lr.removed] == ["L0", "L1"]
            rc = await loop.run_in_executor(None, cli.main, ["class", "learners", "--link",
                                                             link.split("#")[0] + "#" + "x" * 43])
            assert rc == 1                                      # a wrong token: refused
            assert all(not k.closed for k in keep)
    run(main())


# ----------------------------------------------------------------------------- item 5
def test_a_half_sent_request_is_closed_and_health_answers_past_the_cap(tmp_path, monkeypatch):
    monkeypatch.setattr(server_module, "HEADER_TIMEOUT", 1.0)

    async def main():
        async with class_server(tmp_path) as server:
            server.max_connections, server.reserve = 40, 8
            [a] = await seated(server, n=1)
            half = []
            for _ in range(60):                                 # far past the cap
                s = socket.create_connection(("127.0.0.1", server.port))
                s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")   # never ends
                half.append(s)
            await settle(server, 0.3)
            assert server.connections() <= 40
            status, _, body = await get(address(server) + "health")
            assert status == 200 and json.loads(body)["ok"]
            # the seated learner's page comes back (a reload) although the server is full
            again = SimulatedLearner(address(server), "L0", token=a.token)
            await again.join()
            assert again.frame is not None
            # a half-sent request is closed after the header timeout
            t = time.monotonic()
            lone = socket.create_connection(("127.0.0.1", server.port))
            lone.sendall(b"GET / HTTP/1.1\r\n")
            lone.settimeout(5)
            assert await asyncio.get_running_loop().run_in_executor(None, lone.recv, 10) == b""
            assert time.monotonic() - t < 4
            for s in half + [lone]:
                s.close()
    run(main())


class LimitedServer(ServerProcess):
    """`courtlearn class serve` under an open-file limit of ``files`` (soft and hard: it
    cannot raise it), its log (stderr) kept in ``self.log``."""

    def __init__(self, db, code, files: int, log, **kw):
        super().__init__(db, code, **kw)
        self.files, self.log = files, log

    def start(self):
        import resource

        def limit():
            resource.setrlimit(resource.RLIMIT_NOFILE, (self.files, self.files))
        self.proc = subprocess.Popen([*self.args, "--port", "0"], stdout=subprocess.PIPE,
                                     stderr=open(self.log, "wb"), text=True, preexec_fn=limit)
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            if line.startswith("port:"):
                self.port = int(line.split()[1])
                return self
        raise RuntimeError(f"the class server did not start: {self.lines}")


def test_a_flood_of_connections_keeps_the_reserve_and_cannot_flood_the_log(tmp_path):
    """The server as a school runs it, under the usual small open-file limit (256 here):
    700 connections that never finish their request headers (more than it has files).
    /health still answers at once, the seated learner's page comes back after a reload, the
    teacher's socket stays open and a new teacher page gets its state, and the server's log
    says at most a few lines. (Before: the server stopped accepting anything, /health too,
    and wrote a "Too many open files" traceback for every try.)"""
    log = tmp_path / "server.log"
    server = LimitedServer(tmp_path / "class.sqlite", CODE, files=256, log=log,
                           extra=("--show-teacher-link",)).start()
    token = next(ln for ln in server.lines if ln.startswith("teacher page:")).split("#")[1]
    half = []
    try:
        async def teacher_state():
            ws = await websockets.connect(f"ws://127.0.0.1:{server.port}/teacher/ws",
                                          origin=server.address.rstrip("/"), open_timeout=5)
            await ws.send(json.dumps({"type": "hello", "token": token}))
            while json.loads(await asyncio.wait_for(ws.recv(), 5))["type"] != "state":
                pass
            return ws

        async def main():
            seated_lr = SimulatedLearner(server.address, "Asha", code=CODE)
            await seated_lr.join(table=0, seat=0)
            teacher = await teacher_state()

            def flood():
                end = time.monotonic() + 5                   # bounded when nothing answers
                for _ in range(700):
                    if time.monotonic() > end:
                        break
                    try:
                        s = socket.create_connection(("127.0.0.1", server.port), timeout=0.5)
                        s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                        half.append(s)
                    except OSError:
                        pass
            t = time.monotonic()
            await asyncio.get_running_loop().run_in_executor(None, flood)
            await asyncio.sleep(0.5)
            t = time.monotonic()
            status, _, body = await get(server.address + "health")
            assert status == 200 and json.loads(body)["ok"], body
            assert time.monotonic() - t < 3
            again = SimulatedLearner(server.address, "Asha", token=seated_lr.token)
            await again.join(timeout=5)                      # a reload: back at the table
            assert again.frame is not None and again.seat == 0
            await teacher.send(json.dumps({"type": "hello", "token": token}))
            while json.loads(await asyncio.wait_for(teacher.recv(), 5))["type"] != "state":
                pass                                         # the first teacher page: open
            second = await teacher_state()                   # a new teacher page
            for ws in (teacher, second):
                await ws.close()
            for lr in (seated_lr, again):
                await lr.close()
        run(main())
        assert server.proc.poll() is None
    finally:
        for s in half:
            s.close()
        server.stop()
    with open(log, "rb") as f:                               # (it was 600 MB in 11 min)
        said = f.read(100_000).decode("utf-8", "replace")
    assert len(said) < 4000 and said.count("\n") < 40, said[-2000:]
    assert "Too many open files" not in said


def test_the_log_says_each_kind_of_failure_once_a_minute():
    now = [0.0]
    quiet = QuietLog(clock=lambda: now[0])
    logger = logging.getLogger("courtlearn.test.quiet")
    logger.addFilter(quiet)
    seen = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())
    logger.addHandler(handler)
    try:
        for _ in range(1000):
            logger.error("Too many open files")
        logger.error("another kind")
        now[0] = 61.0
        logger.error("Too many open files")
    finally:
        logger.removeHandler(handler)
    assert seen == ["Too many open files", "another kind",
                    "Too many open files (and 999 more like it in the last minute)"]


# ----------------------------------------------------------------------------- item 6
def test_typos_behind_one_address_do_not_lock_out_the_learners_who_typed_the_code(
        tmp_path, monkeypatch):
    """A school's NAT: 8 wrong codes and 5 right ones at once from one address. The right
    ones join; and a hello that must wait its turn keeps its socket (its pongs are read)."""
    monkeypatch.setattr(server_module, "PING_INTERVAL", 0.3)
    monkeypatch.setattr(server_module, "PING_TIMEOUT", 0.3)

    async def main():
        async with class_server(tmp_path) as server:
            pages = [SimulatedLearner(address(server), f"P{i}", code=CODE if i % 2 else "WRONG9")
                     for i in range(13)]
            pages = pages[:8] + [p for p in pages[8:]]
            for p in pages:
                p.code = "WRONG9"
            for p in pages[8:]:
                p.code = CODE
            await asyncio.gather(*(p.connect() for p in pages))
            await asyncio.gather(*(p.send({"type": "hello", "code": p.code, "name": p.name})
                                   for p in pages))
            await asyncio.gather(*(p.wait_for(lambda p=p: p.welcome or p.refusals, 10)
                                   for p in pages))
            assert all(p.welcome for p in pages[8:])
            # now the address has no free try left: a hello waits 1.5 s, far past the
            # pings' timeout, and its socket stays open (the pong is read meanwhile)
            server.guard = Guard(free=1, every=1.5)
            w = await hello(server, "Wrong", code="WRONG8")
            t = time.monotonic()
            late = await hello(server, "Late")
            assert late.welcome is not None and not late.closed
            assert time.monotonic() - t >= 1.0
            for p in pages + [w, late]:
                await p.close()
    run(main())


def test_queued_tries_are_checked_at_their_turn():
    async def main():
        g = Guard(free=1, every=0.6)
        assert await g.turn("a")                  # the free try, spent (wrong)
        g.result("a", False, time.monotonic())
        t = time.monotonic()
        order = []

        async def attempt(name, right):
            await g.turn("a")
            order.append((name, round(time.monotonic() - t, 1)))
            g.result("a", right, time.monotonic())
        await asyncio.gather(attempt("w1", False), attempt("r1", True), attempt("r2", True))
        # w1 waits a try (0.6 s); r1 waits the next (1.2 s); r1 was right: r2 goes at once
        # (not a try later, at 1.8 s)
        assert [n for n, _ in order] == ["w1", "r1", "r2"]
        assert order[1][1] >= 1.1 and order[2][1] - order[1][1] < 0.45, order
    run(main())


# ----------------------------------------------------------------------------- item 7
def test_a_page_reconnecting_in_a_loop_does_not_redraw_its_table_mates(tmp_path):
    async def main():
        async with class_server(tmp_path) as server:
            a, b = await seated(server, n=2, record=True)
            await settle(server, 0.5)
            before = sum(1 for t in b.received if json.loads(t)["type"] == "state")
            start = time.monotonic()
            for _ in range(60):                             # as fast as it can, 60 times
                p = SimulatedLearner(address(server), "L0", token=a.token)
                await a.close() if not a.closed else None
                try:
                    await p.join(timeout=2)
                except (ConnectionError, TimeoutError):
                    pass
                a = p
            await settle(server, 0.5)
            took = time.monotonic() - start
            pictures = sum(1 for t in b.received if json.loads(t)["type"] == "state") - before
            # at most one redraw per PRESENCE_DELAY (and the rejoins are limited too)
            assert pictures <= took / room_module.PRESENCE_DELAY + 3, (pictures, took)
    run(main())


def test_a_page_reconnecting_too_often_is_told_so_before_it_is_closed(tmp_path, monkeypatch):
    monkeypatch.setattr(server_module, "REJOIN_BURST", 2)
    monkeypatch.setattr(server_module, "REJOIN_RATE", 0.01)

    async def main():
        async with class_server(tmp_path) as server:
            [a] = await seated(server, n=1)
            await a.close()
            for _ in range(2):
                again = SimulatedLearner(address(server), "L0", token=a.token)
                await again.join()
                await again.close()
            late = SimulatedLearner(address(server), "L0", token=a.token)
            await late.connect()
            await late.send({"type": "hello", "token": a.token})
            await late.wait_for(lambda: late.closed, 5)
            assert late.refusals == ["This page reconnected too often: it tries again in a "
                                     "moment."]
            assert late.ws.close_code == 1013
    run(main())


def test_lobby_updates_are_bounded_in_bytes(tmp_path, monkeypatch):
    monkeypatch.setattr(lobby_module, "LOBBY_BYTES", 20_000)   # (lobby.py reads it)

    async def main():
        async with class_server(tmp_path, tables=2) as server:
            room = server.room
            watchers = []
            for i in range(20):
                w = SimulatedLearner(address(server), f"W{i}", code=CODE, record=True)
                await w.join()
                watchers.append(w)
            [t] = await seated(server, n=1)
            size = len(room._lobby_json())
            start = time.monotonic()
            while time.monotonic() - start < 2.0:           # a seat toggled 20 times a second
                await t.send({"type": "leave"})
                await t.send({"type": "take_seat", "table": 1, "seat": 0})
                await asyncio.sleep(0.05)
            await settle(server, 0.3)
            got = sum(len(x) for x in watchers[0].received if '"type":"lobby"' in x)
            # every lobby page together at most LOBBY_BYTES a second (plus the first)
            assert got * 20 <= 20_000 * 2.6 + 2 * size * 20, (got, size)
    run(main())


# ----------------------------------------------------------------------------- item 8
def test_one_server_per_class_file(tmp_path):
    path = tmp_path / "class.sqlite"
    first = Store(path)
    with pytest.raises(ClassFileError, match=f"this process \\(pid {os.getpid()}\\).*{path}"):
        Store(path)
    # another process: `courtlearn class serve` on the same file says who holds it
    proc = subprocess.run([sys.executable, "-m", "courtlearn.classroom.cli", "class", "serve",
                           "--db", str(path), "--port", "0", "--host", "127.0.0.1"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert f"another class server (process {os.getpid()})" in proc.stderr
    assert str(path) in proc.stderr and "Traceback" not in proc.stderr
    first.close()
    Store(path).close()                                     # free again once closed
    Store(path, readonly=True).close() if False else None


# ----------------------------------------------------------------------------- item 10
def test_a_page_of_another_name_is_refused_dns_rebinding(tmp_path):
    async def main():
        async with class_server(tmp_path) as server:
            p = server.port
            evil = {"Host": f"evil.example:{p}", "Origin": f"http://evil.example:{p}"}
            for path in ("ws", "teacher/ws"):
                with pytest.raises(InvalidStatus) as err:
                    await websockets.connect(f"ws://evil.example:{p}/{path}", origin=evil["Origin"],
                                             sock=socket.create_connection(("127.0.0.1", p)))
                assert err.value.response.status_code == 403
            status, _ = await apost(f"http://127.0.0.1:{p}/api/join",
                                    {"code": CODE, "name": "X"}, evil)
            assert status == 403
            # a LAN name (mapped by the school's own resolver) and an address still work
            lan = {"Host": f"class.lan:{p}", "Origin": f"http://class.lan:{p}"}
            ws = await websockets.connect(f"ws://class.lan:{p}/ws", origin=lan["Origin"],
                                          sock=socket.create_connection(("127.0.0.1", p)))
            await ws.close()
            status, _ = await apost(f"http://127.0.0.1:{p}/api/join",
                                    {"code": CODE, "name": "Y"}, lan)
            assert status == 200
        # a public name the teacher configured (--host-name)
        async with class_server(tmp_path / "b") as server:
            server.hosts = Hosts(names=["class.school.example"])     # --host-name
            p = server.port
            status, _ = await apost(f"http://127.0.0.1:{p}/api/join", {"code": CODE, "name": "Z"},
                                    {"Host": f"class.school.example:{p}"})
            assert status == 200
    (tmp_path / "b").mkdir()
    run(main())


# ----------------------------------------------------------------------------- item 11
@pytest.mark.parametrize("kind", ["garbage", "truncated", "directory"])
def test_a_bad_class_file_is_refused_with_a_sentence(tmp_path, kind):
    path = tmp_path / "class.sqlite"
    if kind == "garbage":
        path.write_bytes(os.urandom(5000))
    elif kind == "truncated":
        s = Store(path)
        s.create_class("ABC234", "en", {})
        s.close()
        path.write_bytes(path.read_bytes()[:1500])
    else:
        path.mkdir()
    with pytest.raises(ClassFileError) as err:
        Store(path)
    assert str(path) in str(err.value)
    proc = subprocess.run([sys.executable, "-m", "courtlearn.classroom.cli", "class", "serve",
                           "--db", str(path), "--port", "0", "--host", "127.0.0.1"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert str(path) in proc.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="makes files another user cannot write")
@pytest.mark.parametrize("which", ["db", "-shm"])
def test_a_class_file_this_user_cannot_write_is_refused_before_sqlite_maps_it(tmp_path, which):
    """As the user nobody: a read-only class file, or a -shm file left by another user
    (SQLite maps -shm; one it cannot write fails mid-class or kills it with SIGBUS)."""
    folder = pathlib.Path(f"/tmp/courtlearn-shm-{os.getpid()}-{which}")
    folder.mkdir(mode=0o777, exist_ok=True)
    folder.chmod(0o777)
    try:
        path = folder / "class.sqlite"
        s = Store(path)
        s.create_class("ABC234", "en", {})
        s.close()
        os.chown(path, 65534, 65534)
        if which == "db":
            path.chmod(0o444)
        else:
            (folder / "class.sqlite-shm").write_bytes(b"\0" * 32768)
            (folder / "class.sqlite-shm").chmod(0o444)
        code = ("import argparse, asyncio, faulthandler, fcntl, json, os, resource, signal, "
                "sqlite3, getpass, urllib.request, encodings.idna\n"
                "import courtlearn.classroom.server, courtlearn.classroom.store\n"
                "from courtlearn.classroom.cli import main\n"
                "os.setgid(65534); os.setuid(65534)\n"
                f"raise SystemExit(main(['class', 'serve', '--db', {str(path)!r}, '--port', '0',"
                " '--host', '127.0.0.1']))")
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=60, cwd=folder)
        assert proc.returncode == 2, proc.stderr[-500:]
        assert "cannot be read and written" in proc.stderr and "Traceback" not in proc.stderr
    finally:
        subprocess.run(["rm", "-rf", str(folder)])


def test_a_disk_that_refuses_keeps_the_pages_and_tells_the_teacher(tmp_path):
    async def main():
        async with class_server(tmp_path) as server:
            room = server.room
            learners = await seated(server, n=4)
            saved = list(room.tables[0].deal.actions)
            real = room.store.commit
            failures = []

            def full():
                if room.store.db.in_transaction:            # as SQLite: only a real write
                    failures.append(1)
                    raise sqlite3.OperationalError("database or disk is full")
            room.store.commit = full
            mover = learners[room.tables[0].deal.actor]
            reply = await mover.act()                   # the commit fails: no ack
            assert not reply["ok"] and "cannot save" in reply["reason"]
            await settle(server, 0.2)
            assert not any(lr.closed for lr in learners)          # every page stays
            assert room.tables[0].deal.actions == saved
            status, _, body = await get(address(server) + "health")
            health = json.loads(body)
            assert status == 200 and not health["ok"] and "disk" in health["storage"]
            # while it backs off, changes are refused at once, without touching the disk
            n = len(failures)
            for _ in range(10):
                reply = await mover.act()
                assert not reply["ok"] and "cannot save just now" in reply["reason"]
            assert len(failures) == n
            room.store.commit = real                    # space again
            await asyncio.sleep(room._storage_retry - room.clock() + 0.05)
            mover = learners[room.tables[0].deal.actor]
            assert (await mover.act())["ok"]
            assert room.storage_trouble is None
    run(main())


def _small_disk(folder, size="16m") -> bool:
    """A tmpfs of ``size`` mounted on ``folder`` (root only; False where it cannot be)."""
    if os.geteuid() != 0:
        return False
    folder.mkdir()
    got = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                         capture_output=True)
    return got.returncode == 0


def _fill(path) -> None:
    """Write zeros to ``path`` until its disk is full."""
    with open(path, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 65536)
        except OSError:
            pass
        try:
            while True:
                f.write(b"\0" * 512)
        except OSError:
            pass


def test_a_disk_that_fills_up_mid_class_keeps_the_pages(tmp_path):
    """A real full disk (a 16 MB tmpfs filled while four learners play, the server in a
    process of its own, as `courtlearn class serve`): every page stays open, each move is
    answered with the sentence, /health says so, and once there is room again the class
    saves by itself. (Before, every page was closed and the log filled with tracebacks.)"""
    disk = tmp_path / "disk"
    if not _small_disk(disk):
        pytest.skip("mounting a tmpfs needs root")
    server = None
    try:
        folder = disk / "class"
        folder.mkdir()
        server = ServerProcess(folder / "class.sqlite", CODE, tables=2, grace=60).start()

        async def main():
            learners = []
            for i in range(4):
                lr = SimulatedLearner(server.address, f"L{i}", code=CODE)
                await lr.join(table=0, seat=i)
                learners.append(lr)

            async def move():
                await asyncio.wait_for(learners[0].wait_for(
                    lambda: any(lr.my_turn() for lr in learners) or any(lr.closed for lr in
                                                                      learners), 10), 11)
                mover = next(lr for lr in learners if lr.my_turn())
                return await mover.act()
            assert (await move())["ok"]
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, _fill, disk / "filler")
            reply = await move()
            assert not reply["ok"] and "cannot save" in reply["reason"], reply
            status, _, body = await get(server.address + "health")
            assert status == 200 and "full" in json.loads(body)["storage"]
            (disk / "filler").unlink()                  # room again
            end = time.monotonic() + 40
            while not (reply := await move())["ok"]:
                assert "cannot save" in reply["reason"] and time.monotonic() < end, reply
                await asyncio.sleep(0.3)
            status, _, body = await get(server.address + "health")
            assert json.loads(body)["ok"]
            assert not any(lr.closed for lr in learners)
            for lr in learners:
                await lr.close()
        run(main())
        assert server.proc.poll() is None                # alive (no SIGBUS, no exit)
    finally:
        if server is not None:
            server.stop()
        subprocess.run(["umount", str(disk)], capture_output=True)


# ----------------------------------------------------------------------------- item 12
def test_names_that_pass_for_the_pages_words_are_refused():
    from courtlearn.classroom.room import Refusal, clean_name
    for bad in ("Bot", "bot", "A bot", "you", "Asha (away)", "Asha (a bot plays for now)",
                "Learner 3", "بوٹ" if False else "Bot.", "Asha [here]"):
        with pytest.raises(Refusal, match="page's own words"):
            clean_name(bad)
    for good in ("Asha", "Bilal Khan", "Botany", "Asha (7B) Khan", "आशा", "عائشہ"):
        assert clean_name(good) == good



def test_a_join_counts_the_class_without_a_walk_over_every_learner(tmp_path):
    """Item 4: each join asked learner_count(), a walk over every learner (and another
    for a removed learner of the same name): a flood of n joins cost n² steps. The count
    now comes from the working tokens; it stays right through removals, a learner let back,
    one coming back by name, and a reload."""
    from courtlearn.classroom.room import Room

    class Watched(dict):
        walks = 0

        def values(self):
            Watched.walks += 1
            return super().values()

        def __iter__(self):
            Watched.walks += 1
            return super().__iter__()

    path = tmp_path / "class.sqlite"
    room = Room.create(Store(path), code=CODE, tables=1)
    made = [room.register(f"Asha {chr(65 + i)}")[0] for i in range(5)]
    room.learners = Watched(room.learners)
    room.register("Zoya")
    assert room.learner_count() == 6 and Watched.walks == 0
    room.remove("Zoya")
    room.remove(made[1])
    assert room.learner_count() == 4
    room.let_back(made[1])
    back, _token = room.register("Zoya")              # the same learner again, by name
    assert back.name == "Zoya" and room.learner_count() == 6 and len(room.learners) == 6
    room.remove(made[2])
    room.flush()
    room.close()
    room.store.close()
    again = Room.load(Store(path), CODE)
    assert again.learner_count() == 5 == sum(not lr.removed for lr in again.learners.values())
    again.close()
    again.store.close()


def test_a_fatal_signal_from_the_class_file_leaves_a_line_in_the_log(tmp_path):
    """Item 11: SQLite maps the -shm file of the class file; when it shrinks under the
    server (here another process truncates it: the one way this machine reproduces the
    SIGBUS of the issue; a read-only -shm is refused before SQLite maps it, above) the
    next commit dies of SIGBUS, which no Python code can catch. It died with no line in
    its log; now the log says what killed it and where."""
    import signal
    log = tmp_path / "server.log"
    server = LimitedServer(tmp_path / "class.sqlite", CODE, files=1024, log=log).start()
    try:
        assert post(server.address + "api/join", {"code": CODE, "name": "Asha"})[0] == 200
        os.truncate(tmp_path / "class.sqlite-shm", 0)
        try:
            post(server.address + "api/join", {"code": CODE, "name": "Bilal"})
        except OSError:                            # the server died answering it
            pass
        assert server.proc.wait(30) == -signal.SIGBUS
    finally:
        server.kill()
    said = log.read_text(errors="replace")
    assert "Fatal Python error: Bus error" in said and "File " in said, said[-800:]
