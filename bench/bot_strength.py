"""Bot strength: one pair of bots against another on the same deals, seats swapped.

For every deal (seeded, dealer rotating) the deal is played twice: once with
bot A at seats 0 and 2, once with bot A at seats 1 and 3. Reports the share of
deals won by A's side with a 95% Wilson interval, per game (benchmark, not a test).

    .venv/bin/python bench/bot_strength.py --deals 150 --match mc-rule
    .venv/bin/python bench/bot_strength.py --deals 150 --match rule-random
    .venv/bin/python bench/bot_strength.py --deals 150 --match mc-rule --playouts python
        (the Monte Carlo bot's play-outs in plain Python, as where numpy is missing)
"""
from __future__ import annotations

import argparse
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor

import courtlearn as cl
from courtlearn.bots import MonteCarloBot, RandomBot, RuleBot


def make(name, seed, samples):
    if name == "mc":
        return MonteCarloBot(seed=seed) if samples is None else MonteCarloBot(samples=samples, seed=seed)
    if name == "rule":
        return RuleBot()
    return RandomBot(seed=seed)


def wilson(k, n, z=1.96):
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def play_pair(job):
    """Both seatings of one deal; returns (A's wins, A's courts - B's courts)."""
    game, seed, a, b, samples, playouts = job
    cl.bots.PLAYOUTS = playouts
    wins = margin = 0
    for a_team in (0, 1):
        bot_a, bot_b = make(a, seed, samples), make(b, seed + 7, samples)
        bots = [bot_a if s % 2 == a_team else bot_b for s in range(4)]
        deal = cl.Deal(cl.Rules.of(game), dealer=seed % 4, seed=seed)
        # every decision the deal awaits, the play on after a court included (act returns
        # the events it added: none once nothing is left to decide)
        while True:
            seat = cl.bots.deciding_seat(deal)
            if seat is None or not cl.bots.act(bots[seat], deal):
                break
        r = deal.result
        wins += r.winner == a_team
        margin += r.courts if r.winner == a_team else -r.courts
    return wins, margin


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=150, help="deals per game (each played twice)")
    ap.add_argument("--match", default="mc-rule", help="A-B with A, B in mc, rule, random")
    ap.add_argument("--games", default=",".join(cl.GAMES))
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--playouts", default="auto", choices=("auto", "numpy", "python"),
                    help="the Monte Carlo bot's play-outs (courtlearn.bots.PLAYOUTS)")
    args = ap.parse_args()
    a, b = args.match.split("-")
    print(f"{a} pair vs {b} pair; {args.deals} deals per game, each with seats swapped "
          f"({2 * args.deals} games played); play-outs {args.playouts}; "
          f"load average {os.getloadavg()[0]:.2f}")
    for game in args.games.split(","):
        t = time.time()
        jobs = [(game, args.first_seed + i, a, b, args.samples, args.playouts)
                for i in range(args.deals)]
        with ProcessPoolExecutor(args.jobs) as ex:
            res = list(ex.map(play_pair, jobs, chunksize=4))
        k = sum(w for w, _ in res)
        n = 2 * len(res)
        lo, hi = wilson(k, n)
        both = sum(1 for w, _ in res if w == 2)
        none = sum(1 for w, _ in res if w == 0)
        print(f"{game:12s} {a} side wins {k}/{n} = {100 * k / n:5.1f}% "
              f"(95% CI {100 * lo:4.1f}-{100 * hi:4.1f}%); both seatings {both}, neither {none}; "
              f"court margin {sum(m for _, m in res):+d}; {time.time() - t:.0f} s")


if __name__ == "__main__":
    main()
