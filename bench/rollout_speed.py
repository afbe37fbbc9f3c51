"""Rollout speed: fastplay playouts per second against OpenSpiel's spades.

Both play random legal cards from a state just after the deal (OpenSpiel: after
the bidding, cloned for every playout; fastplay: Court Piece with all thirteen
tricks played, stop_when_decided=False, a batch of worlds per call). fastplay
gets its speed from playing many worlds at once with numpy, which is how the
Monte Carlo bot uses it; the batch-size column shows that. Benchmark, not a test.

    .venv/bin/pip install open-spiel      # only for this benchmark
    .venv/bin/python bench/rollout_speed.py --seconds 3
"""
from __future__ import annotations

import argparse
import os
import random
import time

import numpy as np

from courtlearn import fastplay as fp


def openspiel_rate(seconds):
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    rng = random.Random(0)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    while any(a >= 52 for a in state.legal_actions()):      # the bidding
        state.apply_action(rng.choice(state.legal_actions()))
    post_deal = state.clone()
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = post_deal.clone()
        while not s.is_terminal():
            la = s.legal_actions()
            s.apply_action(la[rng.randrange(len(la))])
        n += 1
    return n / (time.perf_counter() - t0)


def fastplay_rate(seconds, batch, policy):
    cfg = fp.Config("court_piece", stop_when_decided=False)
    prng = random.Random(0)
    deck = list(range(52))
    prng.shuffle(deck)
    hands = [sum(1 << c for c in deck[13 * s:13 * s + 13]) for s in range(4)]
    start = fp.Batch.start(cfg, 3, np.array([hands] * batch, dtype=np.uint64), trump=0)
    rng = np.random.default_rng(0)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        b = start.copy()
        b.playout(rng, policy=policy)
        assert b.over.all() and b.tricks_done == 13
        n += batch
    return n / (time.perf_counter() - t0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    ref = openspiel_rate(args.seconds)
    if ref is None:
        print("OpenSpiel (pyspiel) is not installed: pip install open-spiel")
    else:
        print(f"OpenSpiel spades, random play-only playouts from a cloned post-deal state: "
              f"{ref:10,.0f}/s")
    for policy in ("random", "rule"):
        for batch in (1, 64, 256, 1024, 4096):
            rate = fastplay_rate(args.seconds, batch, policy)
            ratio = f"  {rate / ref:5.2f}x OpenSpiel" if ref else ""
            print(f"fastplay {policy:6s} policy, batch {batch:5d}: {rate:10,.0f} playouts/s{ratio}")
    if ref is not None:   # again, to see the drift of a shared machine
        print(f"OpenSpiel again: {openspiel_rate(args.seconds):10,.0f}/s")


if __name__ == "__main__":
    main()
