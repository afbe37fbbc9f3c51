"""Review speed: cl.review of one seat's whole deal (issue 13: median <= 5 s).

Run:  .venv/bin/python bench/review_speed.py [--deals 10]

Deals of each game are played by RuleBots (stop_when_decided as the game's default)
and South's decisions reviewed with the default samples. A benchmark, not a test.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import courtlearn as cl  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10, help="deals per game (default 10)")
    ap.add_argument("--playouts", default="auto", choices=("auto", "numpy", "python"),
                    help="the play-outs (courtlearn.bots.PLAYOUTS): python is what runs "
                         "where numpy is missing")
    args = ap.parse_args()
    cl.bots.PLAYOUTS = args.playouts
    every = []
    for game in ("court_piece", "double_sir", "dehla_pakad"):
        times = []
        for seed in range(args.deals):
            deal = cl.Deal(getattr(cl.Rules, game)(), dealer=seed % 4, seed=seed)
            bot = cl.bots.RuleBot()
            while deal.phase != "over":
                cl.bots.act(bot, deal)
            t = time.perf_counter()
            cl.review(deal, seat=0, progress=False)
            times.append(time.perf_counter() - t)
        every += times
        print(f"{game:12s} median {statistics.median(times):5.2f} s   max {max(times):5.2f} s")
    print(f"all          median {statistics.median(every):5.2f} s   max {max(every):5.2f} s")


if __name__ == "__main__":
    main()
