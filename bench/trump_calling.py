"""Calling trumps from five cards (lesson 15): how often the trump caller's side wins the
deal for each suit called, grouped by what the caller sees (length, high cards, aces in the
other suits). Every deal is played out once with each suit as trumps by the hint's
play-outs (RuleBot's rules of thumb), so the ways of calling meet on the same cards.

    nice -n 10 .venv/bin/python bench/trump_calling.py --deals 200000   # about 20 s
    .venv/bin/python bench/trump_calling.py --deals 5000                 # a learner's look
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from courtlearn.course_figures import trump_deals, trump_figures, trump_groups  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--game", default="court_piece")
    args = ap.parse_args()
    t0 = time.time()
    t = trump_deals(args.deals, seed=args.seed, game=args.game)
    print(f"{args.game}: {args.deals} deals, each played out with every suit as trumps "
          f"({time.time() - t0:.0f} s)")
    f = trump_figures(t)
    for k, v in f.items():
        print(f"  {k:16s} {v if k.startswith('n.') else round(100 * v, 1)}")
    g = trump_groups(t)
    print("by length of the suit called (every suit held): rate, count")
    for k, (r, n) in g["length"].items():
        print(f"  {k}: {100 * r:.1f} ({n})")
    print("by length and highest card")
    for k, (r, n) in g["top"].items():
        print(f"  {k}: {100 * r:.1f} ({n})")
    print("by length and aces in the other suits")
    for k, (r, n) in g["aces_else"].items():
        print(f"  {k}: {100 * r:.1f} ({n})")


if __name__ == "__main__":
    main()
