"""Class server load (issue 25, "Load and faults"): simulated learners, real WebSocket
clients (the `websockets` library) in this process, against `courtlearn class serve`
in a child process, all on 127.0.0.1.

Run:  .venv/bin/python bench/class_load.py                  # the three runs below
      .venv/bin/python bench/class_load.py --only flat      # or pace, school
      .venv/bin/python bench/class_load.py --seconds 10 --learners 200 --tables 50 --only pace

flat    200 learners at 50 tables, each playing as soon as it may: actions per second
pace    200 learners at 50 tables at classroom pace: each learner waits 0.25-0.75 s
        (0.5 s on average) after its turn comes, so each plays one card every 2 s on
        average and each table makes two moves a second
school  1,000 learners at 250 tables at the same pace

Figures: acknowledged moves a second; for each move, the time from its acknowledgement
(the reply reaching the learner who moved) to the last of the four seats receiving the
state with that move (median, p95, p99), and from the intent leaving the learner to the
last seat's update; the server's CPU (share of one core over the window) and memory
(resident, and its peak). Every learner plays deal after deal (seat 0 asks for the next
one) until the window ends; the window starts once every learner is seated.
This is a benchmark, not a test: it asserts nothing.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from courtlearn.classroom.simulated import ServerProcess, SimulatedLearner  # noqa: E402

CODE = "LOAD23"
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


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

    def state(self, learner, msg, t):
        if self.on:
            self.states += 1
            self.arrivals.setdefault((msg["table"], msg["deal"], msg["actions"]), []).append(t)

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


async def run(name: str, learners: int, tables: int, think, seconds: float, warmup: float):
    tmp = tempfile.mkdtemp(prefix="class-load-")
    server = ServerProcess(Path(tmp) / "class.sqlite", CODE, tables=tables, grace=600).start()
    meter = Meter()
    try:
        crowd = []
        for i in range(learners):
            t, s = divmod(i, 4)
            crowd.append(SimulatedLearner(server.address, f"T{t}S{s}", code=CODE, seed=i,
                                          think=think, on_state=meter.state, on_ack=meter.ack))
        start = time.perf_counter()
        for batch in range(0, learners, 50):
            group = crowd[batch:batch + 50]
            await asyncio.gather(*(lr.join(table=divmod(batch + i, 4)[0],
                                           seat=divmod(batch + i, 4)[1], timeout=60)
                                   for i, lr in enumerate(group)))
        seated = time.perf_counter() - start
        stop = asyncio.Event()

        async def player(lr):
            try:
                await lr.play(deals=10 ** 6, timeout=60, stop=stop)
            except Exception as err:                # reported, not hidden
                print(f"  {lr.name}: {err!r}"[:200])

        tasks = [asyncio.ensure_future(player(lr)) for lr in crowd]
        await asyncio.sleep(warmup)
        cpu0, me0, t0 = cpu_seconds(server.pid), time.process_time(), time.perf_counter()
        meter.on = True
        await asyncio.sleep(seconds)
        meter.on = False
        cpu1, me1, t1 = cpu_seconds(server.pid), time.process_time(), time.perf_counter()
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
          f"{window:.1f} s window (seated in {seated:.1f} s)")
    print(f"  moves acknowledged: {f['moves']} = {f['moves'] / window:.0f} a second; "
          f"{meter.states / window:.0f} state messages a second received")
    print(f"  ack -> last seat's update: median {statistics.median(a) if a else float('nan'):.2f} ms, "
          f"p95 {pct(a, 0.95):.2f} ms, p99 {pct(a, 0.99):.2f} ms  ({len(a)} moves)")
    print(f"  intent sent -> last seat's update: median "
          f"{statistics.median(s) if s else float('nan'):.2f} ms, p95 {pct(s, 0.95):.2f} ms")
    per_move = (cpu1 - cpu0) / max(1, f["moves"]) * 1000
    print(f"  server CPU per move: {per_move:.2f} ms (so about {1000 / per_move:.0f} moves a "
          f"second on one core of its own); load average now {os.getloadavg()[0]:.1f}")
    print(f"  server: CPU {100 * (cpu1 - cpu0) / window:.0f}% of one core, memory {rss:.0f} MB "
          f"(peak {peak:.0f} MB); clients (this process): CPU "
          f"{100 * (me1 - me0) / window:.0f}% of one core")
    return f


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", choices=("flat", "pace", "school"), action="append")
    p.add_argument("--seconds", type=float, default=20.0, help="measured window of each run")
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--learners", type=int, default=None)
    p.add_argument("--tables", type=int, default=None)
    args = p.parse_args(argv)
    runs = {"flat": (200, 50, 0.0), "pace": (200, 50, (0.25, 0.75)),
            "school": (1000, 250, (0.25, 0.75))}
    for name in args.only or list(runs):
        learners, tables, think = runs[name]
        asyncio.run(run(name, args.learners or learners, args.tables or tables, think,
                        args.seconds, args.warmup))


if __name__ == "__main__":
    main()
