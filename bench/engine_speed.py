"""Engine speed: full random deals per second through courtlearn's public API,
against OpenSpiel's spades random playouts driven from Python (issue 2, "Speed").

Run:  .venv/bin/python bench/engine_speed.py [--rounds 3] [--seconds 2]

courtlearn: for each game, with stop_when_decided=False so that all 52 cards are
played: a shuffled Deal (seeded), the trump called at random, then random legal
cards (rng.choice(deal.legal_cards())) until the deal is over. Every event is
recorded as usual (the sentences are built only when read).

OpenSpiel: pyspiel's "spades", from the initial state to the end, every chance
node and every decision sampled with random.choice(state.legal_actions()).
(Install with `.venv/bin/pip install open-spiel`; skipped with a message otherwise.)

The two are measured alternately for a few rounds (the machine is shared, so
the best round of each is reported), per deal and per card (52 cards a deal).
This is a benchmark, not a test: it asserts nothing.
"""
from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import courtlearn as cl  # noqa: E402

GAMES = ["court_piece", "double_sir", "dehla_pakad"]
SUITS = ["S", "H", "C", "D"]


def game_rules(game: str) -> cl.Rules:
    """The rules the deals are played under: all 52 cards are played."""
    return getattr(cl.Rules, game)(stop_when_decided=False)


def courtlearn_deals(game: str, seconds: float, seed: int, limit: int | None = None,
                     rules: cl.Rules | None = None) -> tuple[int, int, float]:
    """Play random deals for about `seconds` (or exactly `limit` deals); returns
    (deals, cards, elapsed)."""
    rules = game_rules(game) if rules is None else rules
    rng = random.Random(seed)
    choice = rng.choice
    deals = cards = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        deal = cl.Deal(rules, dealer=rng.randrange(4), seed=rng.randrange(1 << 30))
        deal.call_trump(choice(SUITS))
        play, legal = deal.play, deal.legal_cards
        n = 0
        while deal.phase != "over":
            play(choice(legal()))
            n += 1
        deals += 1
        cards += n
        if deals == limit or (limit is None and (deals & 15) == 0
                              and time.perf_counter() >= deadline):
            break
    return deals, cards, time.perf_counter() - start


def load_spades():
    try:
        import pyspiel  # type: ignore
    except ImportError:
        return None
    return pyspiel.load_game("spades")


def spades_playouts(game, seconds: float, seed: int,
                    limit: int | None = None) -> tuple[int, int, float]:
    """Random spades playouts for about `seconds` (or exactly `limit`); returns
    (playouts, cards, elapsed)."""
    rng = random.Random(seed)
    choice = rng.choice
    playouts = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
        playouts += 1
        if playouts == limit or (limit is None and (playouts & 15) == 0
                                 and time.perf_counter() >= deadline):
            break
    return playouts, 52 * playouts, time.perf_counter() - start


def check_courtlearn_deal_is_complete():
    """One deal of each game really plays all 52 cards and records every action."""
    for game in GAMES:
        rules = getattr(cl.Rules, game)(stop_when_decided=False)
        deal = cl.Deal(rules, dealer=0, seed=1)
        deal.call_trump("S")
        rng = random.Random(0)
        while deal.phase != "over":
            deal.play(rng.choice(deal.legal_cards()))
        assert len(deal.tricks) == 13, game
        assert sum(1 for e in deal.events if e.card is not None and e.kind == "play") == 52, game


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per measurement (default 2)")
    args = parser.parse_args(argv)

    check_courtlearn_deal_is_complete()
    spades = load_spades()
    print(f"Python {platform.python_version()} on {platform.machine()}, "
          f"{args.rounds} rounds of {args.seconds:g} s per measurement (best round kept)")
    if spades is None:
        print("OpenSpiel (pyspiel) is not installed: measuring courtlearn only. "
              "Install it with `.venv/bin/pip install open-spiel` to compare.")

    best: dict[str, float] = {}
    for r in range(args.rounds):
        line = [f"round {r + 1}:"]
        for game in GAMES:
            deals, cards, elapsed = courtlearn_deals(game, args.seconds, seed=1000 * r + 1)
            rate = deals / elapsed
            best[game] = max(best.get(game, 0.0), rate)
            line.append(f"{game} {rate:,.0f}/s")
        if spades is not None:
            n, cards, elapsed = spades_playouts(spades, args.seconds, seed=1000 * r + 2)
            rate = n / elapsed
            best["spades"] = max(best.get("spades", 0.0), rate)
            line.append(f"pyspiel spades {rate:,.0f}/s")
        print("  ".join(line), flush=True)

    print()
    print(f"{'engine':28} {'deals/s':>10} {'µs/deal':>10} {'µs/card':>9} {'vs spades':>10}")
    rows = [(f"courtlearn {g}", best[g]) for g in GAMES]
    if spades is not None:
        rows.append(("pyspiel spades (playouts)", best["spades"]))
    for name, rate in rows:
        ratio = f"{rate / best['spades']:.2f}x" if spades is not None else "-"
        print(f"{name:28} {rate:10,.0f} {1e6 / rate:10.1f} {1e6 / rate / 52:9.2f} {ratio:>10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
