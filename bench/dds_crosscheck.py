"""The pure Court Piece solver against DDS on random positions of every size (issue 13).

Run:  .venv/bin/python bench/dds_crosscheck.py [--per-size 3] [--tricks 11 12 13] [--seed 0]

For each number of tricks left, random Court Piece deals (stop_when_decided=False,
a random trump) are played at random to that point and then zero to three cards
into the trick, as ``tests/test_solver.py`` makes them. Each position is solved by
``cl.solve(deal, using="python")`` and by DDS through endplay; every card's value
must agree. Prints the time and nodes of each, and exits 1 on any disagreement.
Needs endplay (``pip install -e .[test]``).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import courtlearn as cl  # noqa: E402
from courtlearn.dds import solve_with_endplay  # noqa: E402


def positions(tricks_left: int, count: int, seed: int = 0):
    """``count`` random Court Piece positions with ``tricks_left`` tricks to play."""
    rng = random.Random(f"crosscheck/{tricks_left}/{seed}")
    rules = cl.Rules.court_piece(stop_when_decided=False)
    out = []
    for _ in range(count):
        deal = cl.Deal(rules, dealer=rng.randrange(4), seed=rng.randrange(1 << 30))
        deal.call_trump(rng.choice("SHCD"))
        while len(deal.tricks) < 13 - tricks_left:
            deal.play(rng.choice(deal.legal_cards()))
        for _ in range(rng.randint(0, 3)):
            deal.play(rng.choice(deal.legal_cards()))
        out.append(deal)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-size", type=int, default=3, help="positions per size (default 3)")
    ap.add_argument("--tricks", type=int, nargs="+", default=list(range(1, 14)))
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    bad = 0
    total = 0
    for left in args.tricks:
        ours, theirs = [], []
        for deal in positions(left, args.per_size, args.seed):
            t = time.perf_counter()
            sol = cl.solve(deal, using="python")
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
