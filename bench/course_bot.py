"""CourseBot's results, and each rule's worth (issue 31): the numbers lessons 15-19 quote.

For every game, on the same seeded deals (each played twice, seats swapped):
  * the whole course (CourseBot) against RuleBot and against RandomBot;
  * for each rule, CourseBot without that rule against RuleBot. A rule's worth is the
    course's share of deals won minus the share without the rule, on the very same deals
    (a paired difference: its 95% interval is printed beside it).
Run at low priority; a learner can re-run it with a smaller sample:

    nice -n 10 .venv/bin/python bench/course_bot.py --deals 3000          # about 15 min, 2 jobs
    .venv/bin/python bench/course_bot.py --deals 200 --games court_piece  # a quick look
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from courtlearn.course_bot import RULES  # noqa: E402
from courtlearn.course_figures import match  # noqa: E402

from courtlearn.course_bot import SCOPE, UNTAUGHT  # noqa: E402

NEVER = {  # rules that cannot change anything in a game: not measured there
    "court_piece": {"press_on", "stop_on_one", "ten_on_partner", "catch_ten", "guard_ten"},
    "double_sir": {"ten_on_partner", "catch_ten", "guard_ten"},
    "dehla_pakad": set(),
}


def _job(args):
    a, b, game, first, n = args
    return match(a, b, game, deals=n, first_seed=first)


def run(a, b, game, deals, first_seed, jobs):
    chunk = max(1, deals // (jobs * 4))
    parts = [(a, b, game, s, min(chunk, first_seed + deals - s))
             for s in range(first_seed, first_seed + deals, chunk)]
    with ProcessPoolExecutor(jobs) as ex:
        out = []
        for r in ex.map(_job, parts):
            out.extend(r)
    return out


def share(xs):
    return sum(xs) / (2 * len(xs))


def paired(xs, ys):
    """Mean difference of the shares (per deal, of two games) and its 95% half-width."""
    d = [(x - y) / 2 for x, y in zip(xs, ys)]
    n = len(d)
    m = sum(d) / n
    var = sum((v - m) ** 2 for v in d) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=3000, help="deals per game (each played twice)")
    ap.add_argument("--games", default="court_piece,double_sir,dehla_pakad")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rules", default="", help="only these rules (comma separated)")
    args = ap.parse_args()
    print(f"CourseBot: {args.deals} deals per game, each played twice (seats swapped); "
          f"load average {os.getloadavg()[0]:.2f}", flush=True)
    wanted = [r for r in args.rules.split(",") if r] or list(RULES)
    for game in args.games.split(","):
        t = time.time()
        full = run("course", "rule", game, args.deals, args.first_seed, args.jobs)
        rnd = run("course", "random", game, args.deals, args.first_seed, args.jobs)
        print(f"{game}: the course against RuleBot wins {100 * share(full):.1f}% of "
              f"{2 * args.deals} games; against RandomBot {100 * share(rnd):.1f}%", flush=True)
        for rule in wanted:
            if rule in NEVER[game] or (rule in UNTAUGHT and game not in SCOPE[rule]):
                continue
            if rule in UNTAUGHT:   # not taught: what would it add?
                other = run(f"course*{rule}", "rule", game, args.deals, args.first_seed,
                            args.jobs)
                m, h = paired(other, full)
                what = "added     "
            elif game in SCOPE[rule]:
                other = run(f"course-{rule}", "rule", game, args.deals, args.first_seed,
                            args.jobs)
                m, h = paired(full, other)
                what = "without it"
            else:       # taught for other games only: what would it cost here?
                other = run(f"course+{rule}", "rule", game, args.deals, args.first_seed,
                            args.jobs)
                m, h = paired(other, full)
                what = "played here"
            print(f"  {rule:20s} {what} {100 * share(other):5.1f}%  worth "
                  f"{100 * m:+5.1f} deals in 100 (95% interval {100 * (m - h):+.1f} to "
                  f"{100 * (m + h):+.1f})", flush=True)
        print(f"  ({time.time() - t:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
