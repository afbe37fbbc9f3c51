"""A class table's move as machine instructions: the room alone, flat out, counted by
Valgrind's callgrind (issue 29, Speed).

Run:  .venv/bin/python bench/class_instructions.py [--moves 1000] [--against 58790fd]

``bench/class_load.py --only flat`` measures moves a second through real sockets, but on
a machine shared with other work its figure drifts by 15-30% from one run to the next,
so a change of a few per cent cannot be seen in it. This counts what does not drift:
the instructions the room executes for one move at a table of four learners (the move
judged, stored, and the four pictures built and written as JSON), with 50 tables of
four playing the first legal card as soon as they may. Sockets are stand-ins that keep
nothing; the store is SQLite in memory. What the room does around the move (tornado
reading the message, the socket writes, the commit to disk) is not counted.

Each figure is (instructions of warm-up + N moves) - (instructions of warm-up alone),
divided by N, so start-up and imports cancel. ``--against COMMIT`` counts the same for
the courtlearn package of another commit of this repository (``git archive``), run in
turn with this tree's. Needs ``valgrind`` (apt-get install valgrind); about a minute per
run under it. This is a benchmark, not a test.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from callgrind import instructions  # noqa: E402

WARM_UP = 300           # moves before the counted ones: deals under way, bytecode specialised


class _Page:
    """A socket that keeps nothing."""

    def send(self, text) -> None:
        pass


def _play(moves: int) -> None:
    """WARM_UP + ``moves`` moves at 50 tables (run under callgrind by :func:`_count`)."""
    from courtlearn.classroom.room import Room
    from courtlearn.classroom.store import Store

    room = Room.create(Store(":memory:"), code="ROOM23", tables=50, seed=1, paused=True)
    room.set_max_learners(400)
    pages = {}
    for t in range(50):
        for s in range(4):
            page = _Page()
            room.hello(page, code="ROOM23", name=f"T{t}S{s}")
            room.take_seat(page, t, s)
            pages[t, s] = page
    room.resume()
    rng = random.Random(1)
    done, rid, goal = 0, 0, WARM_UP + moves
    while done < goal:
        for table in room.tables:
            deal = table.deal
            if deal.over:
                for s in range(4):
                    room.next_deal_request(pages[table.number, s])
                continue
            seat = deal.actor
            if seat is None:
                continue
            options = [m for m in deal.moves(seat) if m.kind in ("play", "call_trump")]
            if not options:
                continue
            m = options[0]
            rid += 1
            content = ({"type": "play", "card": rng.choice(m.cards).code, "id": rid}
                       if m.kind == "play" else
                       {"type": "call_trump", "suit": m.suits[0].letter, "id": rid})
            room.intent(pages[table.number, seat], content)
            done += 1
            if done == goal:
                break


def _count(package_root: Path, moves: int) -> int:
    """Instructions of WARM_UP + ``moves`` moves, courtlearn imported from ``package_root``
    (run from the temporary folder: not this tree's folder first on the path)."""
    return instructions([sys.executable, __file__, "--play", str(moves)],
                        env=dict(os.environ, PYTHONPATH=str(package_root)),
                        cwd=tempfile.gettempdir())


def per_move(package_root: Path, moves: int) -> float:
    return (_count(package_root, moves) - _count(package_root, 0)) / moves


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--moves", type=int, default=1000, help="moves counted (default 1000)")
    p.add_argument("--against", help="another commit whose courtlearn to count in turn")
    p.add_argument("--play", type=int, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.play is not None:
        _play(args.play)
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: apt-get install valgrind", file=sys.stderr)
        return 2
    if args.moves < 1:
        p.error("--moves is at least 1")
    here = per_move(ROOT, args.moves)
    print(f"this tree: {here:,.0f} instructions a move ({args.moves} moves after "
          f"{WARM_UP} of warm-up, 50 tables of four learners)")
    if args.against:
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.against,
                                      "courtlearn"], capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            other = per_move(Path(tmp), args.moves)
        print(f"{args.against}: {other:,.0f} instructions a move; this tree "
              f"{100 * (here - other) / other:+.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
