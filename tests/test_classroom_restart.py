"""Kill -9 in the middle of many deals, start again on the same file: every table at the
action its learners last saw acknowledged, every learner back in their seat within 5 s
by their page's own reconnect loop (no click), nothing acknowledged lost. Then the
faults a server must shrug off: a socket that stops reading, one that floods, one that
sends garbage: the other tables do not notice."""
from __future__ import annotations

import asyncio
import json
import signal
import time

import pytest

from courtlearn.classroom.simulated import ServerProcess, SimulatedLearner, free_port

pytest.importorskip("websockets")
pytestmark = pytest.mark.timeout(180)

CODE = "KILL23"
TABLES = 3


async def play_until_gone(lr: SimulatedLearner, stop: asyncio.Event):
    try:
        await lr.play(deals=100, timeout=10, stop=stop)
    except (ConnectionError, TimeoutError, Exception):
        pass


def test_kill_9_mid_deals_and_restart_on_the_same_file(tmp_path):
    port = free_port()
    server = ServerProcess(tmp_path / "class.sqlite", CODE, port=port, tables=TABLES).start()

    async def main():
        learners = []
        for t in range(TABLES):
            for s in range(4):
                lr = SimulatedLearner(server.address, f"T{t}S{s}", code=CODE, seed=10 * t + s,
                                      think=(0.0, 0.02))
                await lr.join(table=t, seat=s)
                learners.append(lr)
        stop = asyncio.Event()
        tasks = [asyncio.ensure_future(play_until_gone(lr, stop)) for lr in learners]
        await asyncio.sleep(2.0)
        server.proc.send_signal(signal.SIGKILL)       # mid-deal, mid-message, no goodbye
        server.proc.wait(10)
        await asyncio.gather(*tasks)
        seen = {}                                     # table -> last (deal, actions) any learner saw
        acked = {}
        for lr in learners:
            seen[lr.table] = max(seen.get(lr.table, (0, 0)), lr.key[1:])
            for key, _ in lr.acked:
                acked[lr.table] = max(acked.get(lr.table, (0, 0)), key[1:])
        assert all(acked.get(t, (0, 0)) > (0, 5) for t in range(TABLES))   # they were playing
        before = {id(lr): list(lr.acked) for lr in learners}

        # the pages are already trying again (every 0.25 s) when the server comes back
        returning = asyncio.gather(*(lr.reconnect(timeout=15) for lr in learners))
        restarted = time.monotonic()
        await asyncio.get_running_loop().run_in_executor(None, server.start)  # same port, file
        await returning
        back = time.monotonic() - restarted
        assert back < 5.0, back
        for lr in learners:
            assert lr.welcome is not None and "token" not in lr.welcome
            assert (lr.table, lr.seat) == (int(lr.name[1]), int(lr.name[3]))
            now = lr.key[1:]
            # nothing acknowledged lost; at most the one move in flight at the kill beyond it
            assert now >= seen[lr.table] >= acked.get(lr.table, (0, 0))
            if now[0] == seen[lr.table][0]:
                assert now[1] - seen[lr.table][1] <= 1
            hand = set(lr.frame["seats"][lr.seat]["hand"])
            for key, content in before[id(lr)]:       # cards it was told it played are gone
                if content.get("type") == "play" and key[1] == lr.key[1]:
                    assert content["card"] not in hand
        # the restored tables play on: every table finishes its deal
        await asyncio.gather(*(lr.play(deals=1, timeout=10) for lr in learners))
        assert all(lr.frame["phase"] == "over" for lr in learners)
        for lr in learners:
            await lr.close()
        return back

    try:
        back = asyncio.run(main())
    finally:
        server.stop()
    print(f"\nall learners back in their seats {back:.2f} s after the restart began")


def test_a_stalled_a_flooding_and_a_garbage_socket_do_not_disturb_the_others(tmp_path):
    server = ServerProcess(tmp_path / "class.sqlite", CODE, tables=4).start()

    async def main():
        good = []
        for t in range(3):
            for s in range(4):
                lr = SimulatedLearner(server.address, f"G{t}{s}", code=CODE, seed=t * 4 + s)
                await lr.join(table=t, seat=s)
                good.append(lr)
        times = []

        async def timed(lr):
            start = time.perf_counter()
            await lr.play(deals=1, timeout=15)
            times.append(time.perf_counter() - start)

        # the faults, at the fourth table
        import websockets
        url = server.address.replace("http", "ws") + "ws"
        origin = server.address.rstrip("/")
        stalled = await websockets.connect(url, origin=origin, max_size=None,
                                           ping_interval=None, max_queue=1)
        await stalled.send(json.dumps({"type": "hello", "code": CODE, "name": "stall"}))
        await stalled.send(json.dumps({"type": "take_seat", "table": 3, "seat": 0}))
        stalled.transport.pause_reading()             # stops reading for good
        flood = SimulatedLearner(server.address, "flood", code=CODE)
        await flood.join(table=3, seat=1)
        garbage = SimulatedLearner(server.address, "garbage", code=CODE)
        await garbage.join(table=3, seat=2)
        stop = asyncio.Event()

        async def flooding():
            junk = json.dumps({"type": "msg", "content": {"type": "play", "card": "QS"}})
            while not stop.is_set():
                for _ in range(50):
                    await flood.ws.send(junk)
                await asyncio.sleep(0)

        async def garbling():
            n = 0
            while not stop.is_set():
                n += 1
                await garbage.ws.send(["{", "[]", "\x00" * 100, "{\"type\":\"msg\"}",
                                       "x" * 4000][n % 5])
                await asyncio.sleep(0.001)

        faults = [asyncio.ensure_future(flooding()), asyncio.ensure_future(garbling())]
        await asyncio.gather(*(timed(lr) for lr in good))
        stop.set()
        await asyncio.gather(*faults, return_exceptions=True)
        assert all(lr.frame["phase"] == "over" for lr in good)
        assert not flood.closed and not garbage.closed          # refused, not thrown out
        status = await asyncio.get_running_loop().run_in_executor(None, health, server.address)
        assert status["ok"]
        await stalled.close()
        return times

    try:
        times = asyncio.run(main())
    finally:
        server.stop()
    assert max(times) < 20


def health(address):
    import urllib.request
    with urllib.request.urlopen(address + "health", timeout=5) as r:
        return json.loads(r.read())


def test_a_socket_that_stops_reading_is_closed_once_its_queue_is_full(tmp_path, monkeypatch):
    """A page that stops reading: its pictures wait, the latest of each kind replacing the
    one before (the server's queue for it stays small, however many pictures the class
    makes: issue 29); anything else that piles up past the write limit closes it."""
    import websockets
    from courtlearn.classroom import server as server_module
    from classroom_helpers import class_server, seated
    monkeypatch.setattr(server_module, "MAX_WRITE_BUFFER", 64 * 1024)
    monkeypatch.setattr(server_module, "SLOW_BYTES", 16 * 1024)

    async def main():
        async with class_server(tmp_path, tables=2) as server:
            room = server.room
            url = f"ws://127.0.0.1:{server.port}/ws"
            import socket
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)   # a phone's small window
            sock.connect(("127.0.0.1", server.port))
            sock.setblocking(False)
            stalled = await websockets.connect(url, origin=f"http://127.0.0.1:{server.port}",
                                               max_size=None, ping_interval=None, sock=sock)
            await stalled.send(json.dumps({"type": "hello", "code": "TEST23", "name": "zz"}))
            await stalled.send(json.dumps({"type": "take_seat", "table": 0, "seat": 0}))
            while json.loads(await stalled.recv())["type"] != "state":
                pass
            stalled.transport.pause_reading()          # from now on it reads nothing
            assert len(server.sockets) == 1
            [ws] = list(server.sockets)
            ws.ws_connection.stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
            for i in range(2000):
                room.pause()                           # every pause and resume: a picture
                room.resume()                          # to every seat, the stalled one too
                if i % 50 == 0:
                    await asyncio.sleep(0.01)
            await asyncio.sleep(0.2)
            # the pictures wait, one of each kind: what is queued for it stays bounded
            assert len(server.sockets) == 1 and ws.held
            assert ws.pending < 16 * 1024 + 8 * 1024
            assert set(ws.held) <= set(server_module.REPLACEABLE)
            sent = 0
            start = time.monotonic()
            while len(server.sockets) == 1 and sent < 2000:    # other messages do pile up
                room._send(ws, {"type": "custom", "content": {"pad": "x" * 1000}})
                room.flush()
                sent += 1
                if sent % 20 == 0:
                    await asyncio.sleep(0.01)
            assert len(server.sockets) == 0, "the stalled socket was never closed"
            # by its full queue, well before the pings would have found it (10 s + 10 s)
            assert time.monotonic() - start < 8
            assert room.tables[0].seats[0].status() == "away"
            # the server plays on as if nothing happened
            others = await seated(server, n=4, table=1)
            await asyncio.gather(*(lr.play(deals=1, timeout=15) for lr in others))
            assert room.tables[1].deal.over
            stalled.transport.abort()
    asyncio.run(main())


FLOOD = """
import json, sys
from websockets.sync.client import connect
port, n = int(sys.argv[1]), int(sys.argv[2])
with connect(f"ws://127.0.0.1:{port}/ws", origin=f"http://127.0.0.1:{port}") as ws:
    ws.send(json.dumps({"type": "hello", "code": "TEST23", "name": "flood"}))
    junk = json.dumps({"type": "msg", "content": {"type": "play", "card": "QS"}})
    for _ in range(n):
        ws.send(junk)
"""


def test_a_flooding_socket_is_read_no_faster_than_its_rate(tmp_path):
    """Over its rate, a socket is read at about its rate: the flood waits in its own TCP buffers
    (its sender held up by TCP) instead of costing the server CPU for every message."""
    import subprocess
    import sys
    from courtlearn.classroom.server import BURST, RATE
    from classroom_helpers import class_server

    async def main():
        async with class_server(tmp_path) as server:
            child = subprocess.Popen([sys.executable, "-c", FLOOD, str(server.port), "100000"])
            try:
                for _ in range(200):
                    await asyncio.sleep(0.05)
                    if any(ws.learner is not None for ws in server.sockets):
                        break
                [flood] = list(server.sockets)
                start, first = time.monotonic(), flood.received
                await asyncio.sleep(3)
                read = flood.received - first
                elapsed = time.monotonic() - start
                assert child.poll() is None               # still trying to send
            finally:
                child.kill()
                child.wait()
            return read, elapsed

    read, elapsed = asyncio.run(main())
    # the messages within its rate, and one refused message per token's time
    assert read <= BURST + 2 * RATE * (elapsed + 1), f"read {read} messages in {elapsed:.1f} s"
