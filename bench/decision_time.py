"""Decision time of MonteCarloBot at its default setting (benchmark, not a test).

Plays deals with MonteCarloBot at every seat and times every card decision
(``bot.choose``) and every hint; prints median and 95th percentile per game.

    .venv/bin/python bench/decision_time.py --deals 8
    .venv/bin/python bench/decision_time.py --deals 8 --playouts python
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import courtlearn as cl
from courtlearn.bots import MonteCarloBot


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=8, help="deals per game")
    ap.add_argument("--samples", type=int, default=None, help="default: the bot's own default")
    ap.add_argument("--playouts", default="auto", choices=("auto", "numpy", "python"),
                    help="the play-outs (courtlearn.bots.PLAYOUTS): python is what runs "
                         "where numpy is missing")
    args = ap.parse_args()
    cl.bots.PLAYOUTS = args.playouts
    bot = MonteCarloBot(seed=0) if args.samples is None else MonteCarloBot(samples=args.samples, seed=0)
    print(f"{bot!r}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    everything = []
    for game in cl.GAMES:
        times = []
        forced = 0
        for i in range(args.deals):
            deal = cl.Deal(cl.Rules.of(game), dealer=i % 4, seed=1000 + i)
            while deal.phase != "over":
                if deal.phase == "play" and len(deal.legal_cards()) > 1:
                    t = time.perf_counter()
                    card = bot.choose(deal)
                    times.append(time.perf_counter() - t)
                    deal.play(card)
                else:
                    forced += 1
                    bot.act(deal)
        everything += times
        print(f"{game:12s} decisions {len(times):4d}  median {1000 * statistics.median(times):6.1f} ms"
              f"  p95 {1000 * pct(times, 0.95):6.1f} ms  max {1000 * max(times):6.1f} ms")
    print(f"{'all':12s} decisions {len(everything):4d}  median {1000 * statistics.median(everything):6.1f} ms"
          f"  p95 {1000 * pct(everything, 0.95):6.1f} ms")
    # hints at the start of play (the slowest point: most cards still out)
    hts = []
    for i in range(5):
        deal = cl.Deal(cl.Rules.court_piece(), dealer=i % 4, seed=2000 + i)
        MonteCarloBot(seed=0).act(deal)
        t = time.perf_counter()
        cl.hint(deal)
        hts.append(time.perf_counter() - t)
    print(f"hint at the first card: median {1000 * statistics.median(hts):.1f} ms")


if __name__ == "__main__":
    main()
