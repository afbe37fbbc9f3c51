"""The pure Court Piece solver against DDS on random positions of every size (issue 13).

Run:  .venv/bin/python bench/dds_crosscheck.py [--per-size N] [--tricks 11 12 13]

The positions are those of the test that checks the two solvers against each other
(``tests/test_solver.py``, ``CROSS_CHECK``): for each number of tricks left, random
Court Piece deals played at random to that point and zero to three cards into the
trick; ``--per-size`` takes the first N of them (default: as many as the test has).
Each is solved by ``cl.solve(deal, using="python")`` and by DDS through endplay;
every card's value must agree. Prints the time and nodes of each, and exits 1 on any
disagreement. Needs endplay (``pip install -e .[test]``).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import courtlearn as cl  # noqa: E402
from courtlearn.dds import solve_with_endplay  # noqa: E402
from test_solver import CROSS_CHECK, random_court_piece_positions  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-size", type=int, help="positions per size (default: the test's)")
    ap.add_argument("--tricks", type=int, nargs="+", default=list(CROSS_CHECK))
    args = ap.parse_args()
    bad = 0
    total = 0
    for left in args.tricks:
        ours, theirs = [], []
        count = args.per_size or CROSS_CHECK[left]
        for deal in random_court_piece_positions(count, sizes=[left], seed=left):
            t = time.perf_counter()
            sol = cl.solve(deal, using="python", budget=float("inf"))     # no limit
            ours.append(time.perf_counter() - t)
            t = time.perf_counter()
            want = solve_with_endplay(deal)
            theirs.append(time.perf_counter() - t)
            total += 1
            same = sol.values == want
            bad += not same
            print(f"  {left:2d} tricks, {len(deal.trick.cards)} in the trick: "
                  f"{ours[-1]:8.2f} s, {sol.nodes:9d} nodes, DDS {theirs[-1] * 1000:7.1f} ms"
                  f"{'' if same else '  DISAGREE ' + deal.to_notation()}", flush=True)
        print(f"{left:2d} tricks left: median {statistics.median(ours):.2f} s, "
              f"max {max(ours):.2f} s; DDS median {statistics.median(theirs) * 1000:.1f} ms",
              flush=True)
    print(f"{total} positions, {bad} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
