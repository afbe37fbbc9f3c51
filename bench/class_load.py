"""Class server load (issue 25, "Load and faults"; issue 29, "Speed"): simulated learners,
real WebSocket clients (the `websockets` library) in this process, against `courtlearn
class serve` in a child process, all on 127.0.0.1.

Run:  .venv/bin/python bench/class_load.py                  # the three runs below
      .venv/bin/python bench/class_load.py --only flat      # or pace, school
      .venv/bin/python bench/class_load.py --seconds 10 --learners 200 --tables 50 --only pace
      .venv/bin/python bench/class_load.py --only school --diagnose   # where the time goes

flat    200 learners at 50 tables, each playing as soon as it may: actions per second
pace    200 learners at 50 tables at classroom pace: each learner waits 0.25-0.75 s
        (0.5 s on average) after its turn comes, so each plays one card every 2 s on
        average and each table makes two moves a second
school  1,000 learners at 250 tables at the same pace

The class is made beforehand in its file (the learners registered and seated, as after
a restart), so the joining limits of a real class (per address, per class) do not hold
the run up; the learners come back with their tokens, each from an address of its own
(X-Forwarded-For through ``--proxy 127.0.0.1``: a school's phones, not one address).

Figures: acknowledged moves a second; for each move, the time from its acknowledgement
(the reply reaching the learner who moved) to the last of the four seats receiving the
state with that move (median, p95, p99, max), and from the intent leaving the learner to
the last seat's update; the server's CPU (share of one core over the window) and memory
(resident, and its peak); how late the clients' own loop ran (a 5 ms tick: the clients
share the machine, and a late client would make the server look slow). Every learner
plays deal after deal until the window ends; the window starts once every learner is
seated.

``--diagnose`` runs the server with probes (this file, ``--probe``): how late its event
loop was (a 5 ms tick), each garbage collection's pause by generation, each commit's
time, and what held the loop longest (callbacks, with the coroutine a task runs; garbage
collections; the room's calls), each with when it ended; ``--profile`` adds cProfile's
top functions. This is a benchmark, not a test: it asserts nothing.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from courtlearn.classroom.simulated import ServerProcess, SimulatedLearner  # noqa: E402

CODE = "LOAD23"
STATE_HEAD = re.compile(r'\{"type":"state","table":(\d+),"deal":(-?\d+),"actions":(\d+),')
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def run_wait(pid: int) -> float:
    """Seconds the process's main thread has spent runnable but waiting for a CPU (the
    other processes of a shared machine: /proc/PID/schedstat's second field)."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return float("nan")


def memory_mb(pid: int) -> tuple[float, float]:
    """(resident now, peak resident) in MB."""
    got = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            got[line.split(":")[0]] = int(line.split()[1]) / 1024
    return got["VmRSS"], got["VmHWM"]


def pct(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


class Meter:
    """Collects, per move (table, deal, actions after it): when the mover's ack came and
    when each seat's state with it arrived."""

    def __init__(self):
        self.on = False
        self.arrivals: dict[tuple, list[float]] = {}
        self.acks: dict[tuple, tuple[float, float]] = {}
        self.states = 0

    def state(self, learner, key, t):
        if self.on:
            self.states += 1
            self.arrivals.setdefault(key, []).append(t)

    def ack(self, learner, key, t):
        if self.on:
            self.acks[key] = (learner.sent_at, t)

    def figures(self) -> dict:
        ack_to_last, sent_to_last = [], []
        for key, (sent, ack) in self.acks.items():
            times = self.arrivals.get(key, [])
            if len(times) < 4:
                continue                    # the window closed before every seat had it
            last = max(times)
            ack_to_last.append(max(0.0, last - ack) * 1000)
            sent_to_last.append((last - sent) * 1000)
        return {"moves": len(self.acks), "ack_to_last": ack_to_last, "sent_to_last": sent_to_last}


class LazyFrame:
    """The latest picture of a state message, read no further than asked: its phase,
    whose turn and the viewer straight from the text (a learner not to play needs no
    more), the whole message parsed only when the learner moves (its frames' last)."""

    __slots__ = ("text", "head", "_full")

    def __init__(self, text: str):
        self.text, self._full = text, None
        i = text.rfind('"phase":"')          # the last frame's (its keys come in this order:
        j = text.rfind('"viewer":', 0, i)    # viewer, show_all, replay, phase, to_play)
        k = text.find('"to_play":', i)
        self.head = {"phase": text[i + 9:text.find('"', i + 9)],
                     "viewer": int(text[j + 9:text.find(",", j)]),
                     "to_play": int(text[k + 10:text.find(",", k)])}

    def full(self) -> dict:
        if self._full is None:
            self._full = json.loads(self.text)["state"]["frames"][-1]
        return self._full

    def __getitem__(self, key):
        head = self.head
        return head[key] if key in head else self.full()[key]

    def get(self, key, default=None):
        return self.full().get(key, default)


class RawSocket(asyncio.Protocol):
    """The least a WebSocket client can be (RFC 6455) for a benchmark's learners: one
    protocol object a socket, frames read in ``data_received`` and handed on at once (no
    task, no queue per message, as the ``websockets`` library keeps), pongs for the
    server's pings. Its own frames are masked with the key 0 (allowed by the framing,
    not by the RFC's "unpredictable" rule: fine for a benchmark on 127.0.0.1, where
    nothing in between could be fooled)."""

    def __init__(self, on_text, on_close):
        self.on_text, self.on_close = on_text, on_close
        self.transport = None
        self.buf = bytearray()
        self.upgraded = asyncio.get_running_loop().create_future()
        self.closed = False

    @classmethod
    async def open(cls, url: str, origin: str, headers: dict, on_text, on_close, timeout):
        import base64
        rest = url.split("://", 1)[1]
        hostport, _, path = rest.partition("/")
        host, _, port = hostport.partition(":")
        loop = asyncio.get_running_loop()
        _, proto = await asyncio.wait_for(loop.create_connection(
            lambda: cls(on_text, on_close), host, int(port)), timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        extra = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        proto.transport.write((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\n"
                               f"Upgrade: websocket\r\nConnection: Upgrade\r\n"
                               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                               f"Origin: {origin}\r\n{extra}\r\n").encode())
        await asyncio.wait_for(proto.upgraded, timeout)
        return proto

    def connection_made(self, transport):
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            import socket
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        if not self.upgraded.done():
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            if not buf.startswith(b"HTTP/1.1 101"):
                self.upgraded.set_exception(ConnectionError(bytes(buf[:80]).decode("latin-1")))
                self.transport.close()
                return
            del buf[:end + 4]
            self.upgraded.set_result(None)
        pos, n = 0, len(buf)
        while n - pos >= 2:
            op, size = buf[pos] & 0x0F, buf[pos + 1] & 0x7F
            head = 2
            if size == 126:
                if n - pos < 4:
                    break
                size, head = int.from_bytes(buf[pos + 2:pos + 4], "big"), 4
            elif size == 127:
                if n - pos < 10:
                    break
                size, head = int.from_bytes(buf[pos + 2:pos + 10], "big"), 10
            if n - pos < head + size:
                break
            payload = bytes(buf[pos + head:pos + head + size])
            pos += head + size
            if op == 0x1:
                self.on_text(payload.decode())
            elif op == 0x9:                         # ping: pong with its data
                self._frame(0xA, payload)
            elif op == 0x8:
                self.transport.close()
        del buf[:pos]

    def _frame(self, op: int, data: bytes) -> None:
        n = len(data)
        if n < 126:
            head = bytes((0x80 | op, 0x80 | n))
        elif n < 65536:
            head = bytes((0x80 | op, 0x80 | 126)) + n.to_bytes(2, "big")
        else:
            head = bytes((0x80 | op, 0x80 | 127)) + n.to_bytes(8, "big")
        self.transport.write(head + b"\0\0\0\0" + data)     # the mask key 0: data as is

    def send(self, text: str) -> None:
        if not self.closed:
            self._frame(0x1, text.encode())

    def close(self) -> None:
        if not self.closed:
            self._frame(0x8, (1000).to_bytes(2, "big"))
            self.transport.close()

    def connection_lost(self, exc) -> None:
        self.closed = True
        if not self.upgraded.done():
            self.upgraded.set_exception(ConnectionError("closed before the upgrade"))
        self.on_close()


class LeanLearner(SimulatedLearner):
    """A simulated learner on a :class:`RawSocket` that parses a state message only when
    it is to move (the clients share the benchmark's two cores with the server: through
    the ``websockets`` library, parsing every picture of its table, each learner cost
    about as much CPU as the server did for it)."""

    async def connect(self, timeout: float = 10.0) -> None:
        self.ws = await RawSocket.open(self.url, self.origin, self.headers, self._handle,
                                       self._lost, timeout)
        self.closed = False

    def _lost(self) -> None:
        self.closed = True
        self._wake()

    async def send(self, msg) -> None:
        self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def close(self) -> None:
        if self.ws is not None:
            self.ws.close()

    def _handle(self, text: str) -> None:
        if not text.startswith('{"type":"state"'):
            return super()._handle(text)
        now = time.perf_counter()
        m = STATE_HEAD.match(text)
        if '"frames":[]' not in text:
            self.frame = LazyFrame(text)
        self.key = (int(m[1]), int(m[2]), int(m[3]))
        if self.on_state is not None:
            self.on_state(self, self.key, now)
        self._wake()


def make_class(db: Path, learners: int, tables: int) -> list[str]:
    """The class in its file, every learner registered and seated (four to a table);
    returns their seat tokens."""
    from courtlearn.classroom.room import Room
    from courtlearn.classroom.store import Store
    store = Store(db)
    room = Room.create(store, code=CODE, tables=tables, seed=1, grace=600, paused=True)
    room.set_max_learners(learners + 100)
    tokens = []
    for i in range(learners):
        t, s = divmod(i, 4)
        lr, token = room.register(f"T{t}S{s}")
        room.move(lr, t, s)
        tokens.append(token)
    room.resume()
    room.flush()
    store.close()
    return tokens


def address_of(i: int) -> str:
    return f"10.{i // 65536}.{(i // 256) % 256}.{i % 256}"


async def run(name: str, learners: int, tables: int, think, seconds: float, warmup: float,
              diagnose: bool = False, profile: bool = False):
    tmp = Path(tempfile.mkdtemp(prefix="class-load-"))
    db = tmp / "class.sqlite"
    tokens = make_class(db, learners, tables)
    server = ServerProcess(db, CODE, tables=tables, grace=600,
                           extra=["--proxy", "127.0.0.1"])
    probe = tmp / "probe.json"
    if diagnose or profile:
        server.args[1:3] = [__file__, "--probe"]          # this file runs the server
        os.environ["CLASS_LOAD_PROBE"] = str(probe)
        os.environ["CLASS_LOAD_PROFILE"] = "1" if profile else ""
    server.start()
    meter = Meter()
    try:
        crowd = []
        for i in range(learners):
            t, s = divmod(i, 4)
            crowd.append(LeanLearner(server.address, f"T{t}S{s}", token=tokens[i], seed=i,
                                          think=think, on_state=meter.state, on_ack=meter.ack,
                                          headers={"X-Forwarded-For": address_of(i)}))
        start = time.perf_counter()
        for batch in range(0, learners, 50):
            group = crowd[batch:batch + 50]
            await asyncio.gather(*(lr.join(timeout=60) for lr in group))
            await asyncio.gather(*(lr.wait_for(lambda lr=lr: lr.frame is not None, 60)
                                   for lr in group))
        seated = time.perf_counter() - start
        stop = asyncio.Event()

        async def player(lr):
            try:
                await lr.play(deals=10 ** 6, timeout=60, stop=stop)
            except Exception as err:                # reported, not hidden (but the
                if not stop.is_set():               # sockets closing at the end)
                    print(f"  {lr.name}: {err!r}"[:200])

        tasks = [asyncio.ensure_future(player(lr)) for lr in crowd]
        client_lag: list[float] = []            # how late the clients' own loop runs

        async def ticker():
            while not stop.is_set():
                t = time.perf_counter()
                await asyncio.sleep(0.005)
                if meter.on:
                    client_lag.append(max(0.0, (time.perf_counter() - t - 0.005) * 1000))
        tasks.append(asyncio.ensure_future(ticker()))
        await asyncio.sleep(warmup)
        cpu0, me0, t0 = cpu_seconds(server.pid), time.process_time(), time.perf_counter()
        wait0, mywait0 = run_wait(server.pid), run_wait(os.getpid())
        load0 = os.getloadavg()[0]
        meter.on = True
        await asyncio.sleep(seconds)
        meter.on = False
        cpu1, me1, t1 = cpu_seconds(server.pid), time.process_time(), time.perf_counter()
        wait1, mywait1 = run_wait(server.pid), run_wait(os.getpid())
        rss, peak = memory_mb(server.pid)
        stop.set()
        await asyncio.sleep(0.5)
        for lr in crowd:
            await lr.close()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        server.stop()
    f = meter.figures()
    window = t1 - t0
    a, s = f["ack_to_last"], f["sent_to_last"]
    print(f"{name}: {learners} learners at {tables} tables, think {think} s, "
          f"{window:.1f} s window (seated in {seated:.1f} s); load average "
          f"{load0:.1f} -> {os.getloadavg()[0]:.1f}")
    print(f"  moves acknowledged: {f['moves']} = {f['moves'] / window:.0f} a second; "
          f"{meter.states / window:.0f} state messages a second received")
    print(f"  ack -> last seat's update: median {statistics.median(a) if a else float('nan'):.2f} "
          f"ms, p95 {pct(a, 0.95):.2f} ms, p99 {pct(a, 0.99):.2f} ms, max "
          f"{max(a) if a else float('nan'):.1f} ms ({len(a)} moves)")
    print(f"  intent sent -> last seat's update: median "
          f"{statistics.median(s) if s else float('nan'):.2f} ms, p95 {pct(s, 0.95):.2f} ms")
    per_move = (cpu1 - cpu0) / max(1, f["moves"]) * 1000
    print(f"  server CPU per move: {per_move:.2f} ms (so about {1000 / max(per_move, 1e-9):.0f} "
          f"moves a second on one core of its own)")
    print(f"  server: CPU {100 * (cpu1 - cpu0) / window:.0f}% of one core, memory {rss:.0f} MB "
          f"(peak {peak:.0f} MB); clients (this process): CPU "
          f"{100 * (me1 - me0) / window:.0f}% of one core")
    print(f"  waiting for a CPU while runnable (other processes on the machine): server "
          f"{100 * (wait1 - wait0) / window:.0f}% of the window, clients "
          f"{100 * (mywait1 - mywait0) / window:.0f}%")
    print(f"  the clients' loop (this process), a 5 ms tick: late by median "
          f"{pct(client_lag, 0.5):.2f} ms, p95 {pct(client_lag, 0.95):.2f} ms, p99 "
          f"{pct(client_lag, 0.99):.2f} ms")
    if probe.exists():
        report(json.loads(probe.read_text()))
    shutil.rmtree(tmp, ignore_errors=True)
    return f


def report(p: dict) -> None:
    lag = p["lag"]
    print(f"  the server's loop, a 5 ms tick: late by median {pct(lag, 0.5):.2f} ms, p95 "
          f"{pct(lag, 0.95):.2f} ms, p99 {pct(lag, 0.99):.2f} ms, max {max(lag or [0]):.1f} ms "
          f"({len(lag)} ticks)")
    for gen, pauses in sorted(p["gc"].items()):
        if pauses:
            print(f"  garbage collection, generation {gen}: {len(pauses)} pauses, median "
                  f"{pct(pauses, 0.5):.2f} ms, max {max(pauses):.1f} ms, "
                  f"{sum(pauses):.0f} ms in all")
    c = p["commits"]
    if c:
        print(f"  commits: {len(c)}, median {pct(c, 0.5):.2f} ms, p99 {pct(c, 0.99):.2f} ms, "
              f"max {max(c):.1f} ms")
    if p.get("slow"):
        print("  callbacks holding the loop longest (ms, what):")
        for ms, what in p["slow"][:12]:
            print(f"    {ms:7.1f}  {what}")
    for line in p.get("profile", []):
        print("   ", line)


# ----------------------------------------------------------------------------- the probe
def probe_server(argv) -> int:
    """`courtlearn class serve ...` with probes, writing what they saw to
    $CLASS_LOAD_PROBE as it stops (see the module's doc)."""
    import atexit
    import gc
    import heapq

    from courtlearn.classroom import cli
    from courtlearn.classroom.store import Store
    out = {"lag": [], "gc": {"0": [], "1": [], "2": []}, "commits": [], "slow": []}
    slow: list = []
    started = [0.0]

    t0 = [time.perf_counter()]

    def note(ms, what):                         # the 200 slowest, each with when it ended
        item = (ms, f"{what} at {time.perf_counter() - t0[0]:.1f} s")
        (heapq.heappush if len(slow) < 200 else heapq.heappushpop)(slow, item)

    def on_gc(phase, info):
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            ms = (time.perf_counter() - started[0]) * 1000
            out["gc"][str(info["generation"])].append(ms)
            if ms > 2.0:
                note(ms, f"garbage collection, generation {info['generation']}")
    gc.callbacks.append(on_gc)
    commit = Store.commit

    def timed_commit(self):
        t = time.perf_counter()
        commit(self)
        out["commits"].append((time.perf_counter() - t) * 1000)
    Store.commit = timed_commit
    handle_run = asyncio.events.Handle._run

    def timed_run(self):
        t = time.perf_counter()
        handle_run(self)
        ms = (time.perf_counter() - t) * 1000
        if ms > 2.0:
            what = getattr(self._callback, "__qualname__", None) or \
                type(self._callback).__name__
            task = getattr(self._callback, "__self__", None)
            if isinstance(task, asyncio.Task):        # which coroutine the task runs
                what += " " + getattr(task.get_coro(), "__qualname__", "?")
            note(ms, what)
    asyncio.events.Handle._run = timed_run
    from courtlearn.classroom.room import Room

    def timed(name):                            # which of the room's calls were slow
        real = getattr(Room, name)

        def call(self, *args, **kwargs):
            t = time.perf_counter()
            try:
                return real(self, *args, **kwargs)
            finally:
                ms = (time.perf_counter() - t) * 1000
                if ms > 2.0:
                    note(ms, f"Room.{name}")
        setattr(Room, name, call)
    for name in ("intent", "next_deal_request", "_ready_over", "flush", "hello"):
        timed(name)
    real_serve = cli.serve if hasattr(cli, "serve") else None

    async def ticker():
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.005)
            out["lag"].append(max(0.0, (time.perf_counter() - t - 0.005) * 1000))

    import courtlearn.classroom.server as server_mod
    serve = server_mod.serve

    async def serve_probed(*args, **kwargs):
        tick = asyncio.ensure_future(ticker())
        try:
            return await serve(*args, **kwargs)
        finally:
            tick.cancel()
    server_mod.serve = serve_probed
    if real_serve is not None:
        cli.serve = serve_probed
    prof = None
    if os.environ.get("CLASS_LOAD_PROFILE"):
        import cProfile
        prof = cProfile.Profile()
        prof.enable()

    def write():
        if prof is not None:
            import io
            import pstats
            prof.disable()
            text = io.StringIO()
            pstats.Stats(prof, stream=text).sort_stats(os.environ.get("CLASS_LOAD_SORT", "tottime")).print_stats(40)
            out["profile"] = [ln for ln in text.getvalue().splitlines() if ln.strip()][-43:]
        out["slow"] = sorted(slow, reverse=True)
        Path(os.environ["CLASS_LOAD_PROBE"]).write_text(json.dumps(out))
    atexit.register(write)
    return cli.main(argv)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", choices=("flat", "pace", "school"), action="append")
    p.add_argument("--seconds", type=float, default=20.0, help="measured window of each run")
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--learners", type=int, default=None)
    p.add_argument("--tables", type=int, default=None)
    p.add_argument("--diagnose", action="store_true", help="the server with probes")
    p.add_argument("--profile", action="store_true", help="and cProfile's top functions")
    args = p.parse_args(argv)
    runs = {"flat": (200, 50, 0.0), "pace": (200, 50, (0.25, 0.75)),
            "school": (1000, 250, (0.25, 0.75))}
    for name in args.only or list(runs):
        learners, tables, think = runs[name]
        asyncio.run(run(name, args.learners or learners, args.tables or tables, think,
                        args.seconds, args.warmup, args.diagnose, args.profile))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--probe"]:
        sys.exit(probe_server(sys.argv[2:]))
    main()
