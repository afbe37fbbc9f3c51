"""Class server faults (issue 25, "Load and faults"): `courtlearn class serve` in a child
process on 127.0.0.1, simulated learners (real WebSocket clients) in this process.

Run:  .venv/bin/python bench/class_faults.py                 # both parts
      .venv/bin/python bench/class_faults.py --only kill     # or noise

kill    200 learners at 50 tables play at classroom pace (each learner one card every
        2 s on average); after --before seconds the server is killed with SIGKILL and
        started again on the same file and port while the learners' reconnect loops
        (every 0.25 s, as the page's) try to get back. Figures: seconds from the kill
        and from the restart until every learner is back in its seat with its hand;
        acknowledged moves lost (must be 0); tables whose restored action is behind
        what their learners saw (must be 0) or ahead of it by more than the one move in
        flight (must be 0).
noise   48 learners at 12 tables at classroom pace; the time from a move's intent to
        the last seat's update is measured for --seconds without faults, then for
        --seconds while three more sockets misbehave at a 13th table: one stops reading
        and keeps sending moves, one floods (as fast as it can write), one sends
        garbage (bad JSON, binary frames, oversize messages). The two are compared.
This is a benchmark, not a test: it asserts nothing.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from courtlearn.classroom.simulated import ServerProcess, SimulatedLearner, free_port  # noqa: E402
from class_load import Meter, cpu_seconds, memory_mb, pct  # noqa: E402

CODE = "FAULT2"
PACE = (0.25, 0.75)


async def crowd(address, learners, think, meter=None, first_table=0):
    out = []
    for i in range(learners):
        t, s = divmod(i, 4)
        out.append(SimulatedLearner(address, f"T{t + first_table}S{s}", code=CODE, seed=i,
                                    think=think, on_state=meter.state if meter else None,
                                    on_ack=meter.ack if meter else None))
    for b in range(0, learners, 50):
        await asyncio.gather(*(lr.join(table=first_table + divmod(b + i, 4)[0],
                                       seat=divmod(b + i, 4)[1], timeout=60)
                               for i, lr in enumerate(out[b:b + 50])))
    return out


async def keep_playing(lr, stop):
    while not stop.is_set():
        try:
            await lr.play(deals=10 ** 6, timeout=30, stop=stop)
        except Exception:
            if stop.is_set():
                return
            await asyncio.sleep(0.05)
            while not stop.is_set() and lr.closed:
                await asyncio.sleep(0.05)


async def kill_part(learners: int, before: float):
    tmp = tempfile.mkdtemp(prefix="class-faults-")
    port = free_port()
    server = ServerProcess(Path(tmp) / "class.sqlite", CODE, port=port,
                           tables=learners // 4, grace=600).start()
    try:
        people = await crowd(server.address, learners, PACE)
        stop = asyncio.Event()
        tasks = [asyncio.ensure_future(keep_playing(lr, stop)) for lr in people]
        await asyncio.sleep(before)
        server.proc.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        server.proc.wait(10)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        seen, acked = {}, {}
        for lr in people:
            seen[lr.table] = max(seen.get(lr.table, (0, 0)), lr.key[1:])
            for key, _ in lr.acked:
                acked[lr.table] = max(acked.get(lr.table, (0, 0)), key[1:])
        moves_acked = sum(len(lr.acked) for lr in people)
        played = {id(lr): list(lr.acked) for lr in people}
        back = asyncio.gather(*(lr.reconnect(timeout=30) for lr in people))
        started = time.monotonic()
        await asyncio.get_running_loop().run_in_executor(None, server.start)
        up = time.monotonic()
        await back
        done = time.monotonic()
        lost = behind = ahead = 0
        for lr in people:
            now = lr.key[1:]
            if now < seen[lr.table]:
                behind += 1
            elif now[0] == seen[lr.table][0] and now[1] - seen[lr.table][1] > 1:
                ahead += 1
            hand = set(lr.frame["seats"][lr.seat]["hand"])
            lost += sum(1 for key, c in played[id(lr)]
                        if c.get("type") == "play" and key[1] == now[0] and c["card"] in hand)
        print(f"kill: {learners} learners at {learners // 4} tables at classroom pace, "
              f"SIGKILL after {before:.0f} s ({moves_acked} moves acknowledged by then)")
        print(f"  server up again {up - started:.2f} s after the restart began; every learner "
              f"back in its seat {done - started:.2f} s after it ({done - killed:.2f} s after "
              f"the kill)")
        print(f"  acknowledged moves lost: {lost}; learners whose table came back behind what "
              f"they saw: {behind}; more than one move ahead: {ahead}")
        for lr in people:
            await lr.close()
    finally:
        server.stop()


async def noise_part(learners: int, seconds: float):
    tmp = tempfile.mkdtemp(prefix="class-faults-")
    tables = learners // 4
    server = ServerProcess(Path(tmp) / "class.sqlite", CODE, tables=tables + 1,
                           grace=600).start()
    try:
        quiet, noisy = Meter(), Meter()
        current = {"m": quiet}
        meter = type("M", (), {"state": lambda self, *a: current["m"].state(*a),
                               "ack": lambda self, *a: current["m"].ack(*a)})()
        people = await crowd(server.address, learners, PACE, meter)
        stop = asyncio.Event()
        tasks = [asyncio.ensure_future(keep_playing(lr, stop)) for lr in people]
        await asyncio.sleep(2)
        cpu0 = cpu_seconds(server.pid)
        quiet.on = True
        await asyncio.sleep(seconds)
        quiet.on = False
        cpu_quiet = (cpu_seconds(server.pid) - cpu0) / seconds

        # the faults run in a process of their own: a flood written from this process would
        # starve the measuring learners' own loop, not the server
        import subprocess
        child = subprocess.Popen([sys.executable, __file__, "--fault-client", server.address,
                                  str(tables)], stdout=subprocess.PIPE, text=True)
        await asyncio.sleep(1)
        cpu0 = cpu_seconds(server.pid)
        current["m"] = noisy
        noisy.on = True
        await asyncio.sleep(seconds)
        noisy.on = False
        cpu_noisy = (cpu_seconds(server.pid) - cpu0) / seconds
        rss, peak = memory_mb(server.pid)
        child.send_signal(signal.SIGINT)
        counts = json.loads(child.communicate(timeout=30)[0].strip().splitlines()[-1])
        stop.set()
        for lr in people:
            await lr.close()
        await asyncio.gather(*tasks, return_exceptions=True)
        print(f"noise: {learners} learners at {tables} tables at classroom pace, {seconds:.0f} s "
              f"each way")
        for name, m, cpu in (("without faults", quiet, cpu_quiet), ("with faults", noisy, cpu_noisy)):
            f = m.figures()
            s = f["sent_to_last"]
            print(f"  {name}: {f['moves'] / seconds:.0f} moves a second; intent -> last seat's "
                  f"update median {statistics.median(s) if s else float('nan'):.2f} ms, "
                  f"p95 {pct(s, 0.95):.2f} ms, p99 {pct(s, 0.99):.2f} ms; server CPU "
                  f"{100 * cpu:.0f}% of one core")
        print(f"  the faults sent: {counts['stalled']} moves without reading, "
              f"{counts['flood']} flood messages, {counts['garbage']} garbage messages; "
              f"server memory {rss:.0f} MB (peak {peak:.0f} MB)")
    finally:
        server.stop()


async def fault_client(address: str, tables: int):
    """The three misbehaving sockets (in a child process, until SIGINT); prints counts."""
    import websockets
    faults_stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGINT, faults_stop.set)
    url = address.replace("http", "ws") + "ws"
    origin = address.rstrip("/")
    counts = {"stalled": 0, "flood": 0, "garbage": 0}

    async def stalled():
        ws = await websockets.connect(url, origin=origin, ping_interval=None)
        await ws.send(json.dumps({"type": "hello", "code": CODE, "name": "stalled"}))
        await ws.send(json.dumps({"type": "take_seat", "table": tables, "seat": 0}))
        await asyncio.sleep(0.2)
        ws.transport.pause_reading()
        cards = [r + s for s in "SHCD" for r in "23456789JQKA"] + ["10" + s for s in "SHCD"]
        while not faults_stop.is_set():
            for c in cards:
                try:
                    await ws.send(json.dumps({"type": "msg", "content": {"type": "play",
                                                                         "card": c}}))
                except Exception:
                    return
                counts["stalled"] += 1
                await asyncio.sleep(0.05)
        ws.transport.abort()

    async def flood():
        ws = await websockets.connect(url, origin=origin, ping_interval=None)
        await ws.send(json.dumps({"type": "hello", "code": CODE, "name": "flood"}))
        await ws.send(json.dumps({"type": "take_seat", "table": tables, "seat": 1}))
        junk = json.dumps({"type": "msg", "content": {"type": "play", "card": "QS"}})
        reader = asyncio.ensure_future(drain(ws))
        while not faults_stop.is_set():
            for _ in range(100):
                await ws.send(junk)
            counts["flood"] += 100
            await asyncio.sleep(0)
        reader.cancel()
        await ws.close()

    async def garbage():
        ws = await websockets.connect(url, origin=origin, ping_interval=None)
        await ws.send(json.dumps({"type": "hello", "code": CODE, "name": "garbage"}))
        reader = asyncio.ensure_future(drain(ws))
        bad = ["{", "[]", "\x00" * 100, '{"type":"msg"}', "x" * 4000, b"\xff\xfe" * 50,
               '{"type":"take_seat","table":-1,"seat":9}', "[" * 2000]
        n = 0
        while not faults_stop.is_set():
            n += 1
            await ws.send(bad[n % len(bad)])
            counts["garbage"] += 1
            await asyncio.sleep(0.01)
        reader.cancel()
        await ws.close()

    faults = [asyncio.ensure_future(f()) for f in (stalled, flood, garbage)]
    await asyncio.gather(*faults, return_exceptions=True)
    print(json.dumps(counts), flush=True)


async def drain(ws):
    try:
        async for _ in ws:
            pass
    except Exception:
        pass


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--fault-client"]:
        asyncio.run(fault_client(argv[1], int(argv[2])))
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", choices=("kill", "noise"), action="append")
    p.add_argument("--learners", type=int, default=None)
    p.add_argument("--before", type=float, default=10.0, help="seconds of play before the kill")
    p.add_argument("--seconds", type=float, default=15.0, help="each noise window")
    args = p.parse_args(argv)
    for part in args.only or ("kill", "noise"):
        if part == "kill":
            asyncio.run(kill_part(args.learners or 200, args.before))
        else:
            asyncio.run(noise_part(args.learners or 48, args.seconds))


if __name__ == "__main__":
    main()
