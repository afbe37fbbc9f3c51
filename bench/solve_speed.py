"""Solver speed: cl.solve on random positions of all three games (issue 13).

Run:  .venv/bin/python bench/solve_speed.py [--positions 30] [--tricks 6 8]

For each number of tricks left, random deals of Court Piece, Double Sir and Dehla
Pakad (each with stop_when_decided=False) are played at random to that point, half
at a trick start and half one to three cards into the trick; cl.solve times each.
Where endplay (Bo Haglund's DDS, `pip install endplay`) is installed, the Court Piece
positions are also solved by it, for the time beside ours. A benchmark, not a test.
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

GAMES = ["court_piece", "double_sir", "dehla_pakad"]


def positions(tricks_left: int, count: int, seed: int = 0):
    """(game, deal) pairs: ``count`` per game, half mid-trick."""
    rng = random.Random(f"solve_speed/{tricks_left}/{seed}")
    out = []
    for game in GAMES:
        rules = getattr(cl.Rules, game)(stop_when_decided=False)
        for i in range(count):
            deal = cl.Deal(rules, dealer=rng.randrange(4), seed=rng.randrange(1 << 30))
            if deal.phase == "trump":
                deal.call_trump(rng.choice("SHCD"))
            while len(deal.tricks) < 13 - tricks_left:
                deal.play(rng.choice(deal.legal_cards()))
            for _ in range(0 if i % 2 == 0 else rng.randint(1, 3)):
                deal.play(rng.choice(deal.legal_cards()))
            out.append((game, deal))
    return out


def endplay_time(deal):
    """Seconds for DDS (through endplay) on this Court Piece position, or None."""
    try:
        from courtlearn.dds import solve_with_endplay
    except ImportError:
        return None
    t = time.perf_counter()
    try:
        solve_with_endplay(deal)
    except ImportError:
        return None
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=30, help="positions per game (default 30)")
    ap.add_argument("--tricks", type=int, nargs="+", default=[6, 8])
    args = ap.parse_args()
    print(f"Python {sys.version.split()[0]}, {args.positions} positions per game, half mid-trick")
    for left in args.tricks:
        times = {g: [] for g in GAMES}
        dds = []
        for game, deal in positions(left, args.positions):
            t = time.perf_counter()
            cl.solve(deal)
            times[game].append(time.perf_counter() - t)
            if game == "court_piece":
                e = endplay_time(deal)
                if e is not None:
                    dds.append(e)
        every = [x for g in GAMES for x in times[g]]
        print(f"\n{left} tricks left: median {statistics.median(every) * 1000:.1f} ms, "
              f"max {max(every) * 1000:.1f} ms")
        for g in GAMES:
            print(f"  {g:12s} median {statistics.median(times[g]) * 1000:8.1f} ms   "
                  f"max {max(times[g]) * 1000:8.1f} ms")
        if dds:
            print(f"  endplay (DDS) on the Court Piece positions: median "
                  f"{statistics.median(dds) * 1000:.1f} ms, max {max(dds) * 1000:.1f} ms")
        else:
            print("  endplay (DDS): not installed (pip install endplay), no comparison")


if __name__ == "__main__":
    main()
