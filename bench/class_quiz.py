"""Live quiz load (issue 26, "Load"): N simulated learners answer a quiz question within
the same second; how long until the teacher's count is complete.

Run:  .venv/bin/python bench/class_quiz.py                      # 200 learners, 5 questions
      .venv/bin/python bench/class_quiz.py --learners 500 --questions 3 --kind next_dealer

`courtlearn class serve` runs in a child process on 127.0.0.1; the learners (real
WebSocket clients, SimulatedLearner) and the teacher page's socket run in this process.
Every learner joins (no seat: a quiz needs none). For each question the teacher's socket
starts it (or asks for the next), every learner waits for it on its page, then all of
them send their answer at once (one asyncio.gather: within a few milliseconds of each
other). Figures per question: from the first answer sent to the teacher's socket
receiving the count "N of N answered"; to the last learner's "received" ack; the
answers a second the server took. Then the reveal: from the teacher's request to the
last learner page holding its verdict. This is a benchmark, not a test: it asserts nothing.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from courtlearn.classroom.simulated import ServerProcess, SimulatedLearner  # noqa: E402

CODE = "QUIZ26"


class TeacherSocket:
    """The teacher page's socket: each quiz state received, with when it came."""

    def __init__(self, port: int, token: str):
        self.url = f"ws://127.0.0.1:{port}/teacher/ws"
        self.origin = f"http://127.0.0.1:{port}"
        self.token = token
        self.states: list[tuple[float, dict]] = []
        self.changed = asyncio.Event()

    async def connect(self):
        import websockets
        self.ws = await websockets.connect(self.url, origin=self.origin, max_size=2 ** 24)
        self.reader = asyncio.ensure_future(self.read())
        await self.ws.send(json.dumps({"type": "hello", "token": self.token}))

    async def read(self):
        try:
            async for text in self.ws:
                msg = json.loads(text)
                if msg.get("type") == "quiz":
                    self.states.append((time.perf_counter(), msg["state"]))
                    self.changed.set()
        except Exception:
            pass

    async def quiz(self, content):
        await self.ws.send(json.dumps({"type": "quiz", "content": content}))

    async def until(self, test, timeout=60.0) -> float:
        end = time.monotonic() + timeout
        while True:
            for at, st in self.states:
                if test(st):
                    return at
            if time.monotonic() > end:
                raise TimeoutError(f"the teacher's view did not get there; last: "
                                   f"{self.states[-1][1] if self.states else None}")
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), 1.0)
            except asyncio.TimeoutError:
                pass

    async def close(self):
        await self.ws.close()
        await asyncio.gather(self.reader, return_exceptions=True)


async def run(args) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp) / "quiz.sqlite", CODE, tables=1,
                               extra=["--show-teacher-link", "--proxy", "127.0.0.1",
                                      "--max-learners", str(args.learners + 10)]).start()
        try:
            link = next(line for line in server.lines if line.startswith("teacher page: "))
            teacher = TeacherSocket(server.port, link.split("#", 1)[1])
            await teacher.connect()
            # each phone from an address of its own (through --proxy: the per-address
            # joining limits are a school's, not one machine's)
            learners = [SimulatedLearner(server.address, f"L{i}", code=CODE, seed=i,
                                         headers={"X-Forwarded-For": f"10.1.{i // 256}.{i % 256}"})
                        for i in range(args.learners)]
            t0 = time.perf_counter()
            for i in range(0, len(learners), 50):           # join in waves of 50
                await asyncio.gather(*(lr.join() for lr in learners[i:i + 50]))
            print(f"{len(learners)} learners joined in {time.perf_counter() - t0:.2f} s")
            n = args.questions
            counts, acks, rates, reveals = [], [], [], []
            for index in range(n):
                if index == 0:
                    await teacher.quiz({"type": "start", "kind": args.kind, "n": n,
                                        "seed": args.seed})
                else:
                    await teacher.quiz({"type": "next"})
                await asyncio.gather(*(lr.wait_question(index, timeout=60) for lr in learners))
                start = time.perf_counter()
                await asyncio.gather(*(lr.answer_quiz(wait=False) for lr in learners))
                sent = time.perf_counter() - start
                done = await teacher.until(lambda st, i=index: st.get("index") == i
                                           and st.get("answered") == len(learners))
                await asyncio.gather(*(lr.wait_for(lambda lr=lr, i=index: any(
                    a["index"] == i for a in lr.quiz_acks), 60) for lr in learners))
                last_ack = time.perf_counter()
                counts.append(done - start)
                acks.append(last_ack - start)
                rates.append(len(learners) / (done - start))
                r0 = time.perf_counter()
                await teacher.quiz({"type": "reveal"})
                await asyncio.gather(*(lr.wait_for(lambda lr=lr, i=index: any(
                    r["index"] == i for r in lr.quiz_reveals), 60) for lr in learners))
                reveals.append(time.perf_counter() - r0)
                print(f"question {index + 1}: answers sent within {sent * 1000:.0f} ms; "
                      f"teacher's count complete after {counts[-1] * 1000:.0f} ms; last ack "
                      f"{acks[-1] * 1000:.0f} ms; reveal on every page {reveals[-1] * 1000:.0f} ms")
            print(f"\n{len(learners)} learners, {n} questions of {args.kind}: the teacher's count "
                  f"complete after median {statistics.median(counts) * 1000:.0f} ms "
                  f"(max {max(counts) * 1000:.0f} ms); last learner's ack median "
                  f"{statistics.median(acks) * 1000:.0f} ms; {statistics.median(rates):.0f} "
                  f"answers/s; reveal reaching every page median "
                  f"{statistics.median(reveals) * 1000:.0f} ms")
            await teacher.quiz({"type": "stop"})
            await teacher.close()
            await asyncio.gather(*(lr.close() for lr in learners))
        finally:
            server.stop()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--learners", type=int, default=200)
    p.add_argument("--questions", type=int, default=5)
    p.add_argument("--kind", default="trick_winner")
    p.add_argument("--seed", type=int, default=1)
    asyncio.run(run(p.parse_args()))


if __name__ == "__main__":
    main()
