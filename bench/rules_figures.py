#!/usr/bin/env python3
"""The numbers lesson 05 quotes (courtlearn/rules_figures.py), measured on many deals:

    .venv/bin/python bench/rules_figures.py --deals 8000 --seed 0

Court Piece played by four RuleBots in sessions of deals (the dealer passed on by the
rules), counting the courts scored in a single deal and those that end a seven-deal
streak. The lesson's front matter names the figures; the build recomputes them on 800
deals within the tolerance in rules_figures.FIGURES.
"""
import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from courtlearn.rules_figures import FIGURES, session_courts  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=8000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    started = time.perf_counter()
    c = session_courts(args.deals, seed=args.seed)
    n = c["deals"]
    print(f"{n} deals in {time.perf_counter() - started:.0f} s")
    print(f"courts from a single deal: {c['single']} ({100 * c['single'] / n:.1f} in 100 deals;"
          f" 1 deal in {n / max(1, c['single']):.0f}); quoted {100 * FIGURES['rules.single_courts'][1]:.1f}")
    print(f"courts from a streak of seven: {c['streak']} ({100 * c['streak'] / n:.1f} in 100 "
          f"deals; 1 deal in {n / max(1, c['streak']):.0f}); quoted {100 * FIGURES['rules.streak_courts'][1]:.1f}")


if __name__ == "__main__":
    main()
