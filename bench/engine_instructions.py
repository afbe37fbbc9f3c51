"""Engine speed as machine instructions: the deals of bench/engine_speed.py counted by
Valgrind's callgrind, against the same OpenSpiel spades playouts.

Run:  .venv/bin/python bench/engine_instructions.py [--deals 300]

Time on a shared machine drifts by several per cent from one minute to the next (one
unchanged tree played a deal in 63.8 µs, then in 59.7 µs a minute later), so a change
of one or two per cent cannot be seen in it. The instructions a deal
executes do not drift: this counts them, exactly the same loops as engine_speed.py
(its own functions, a fixed number of deals), for judging a change to the engine.
Instructions are not time: CPython's interpreter runs fewer instructions per cycle
than OpenSpiel's C++, so the ratio here is not the one engine_speed.py reports.

Each figure is (instructions of warm-up + N deals) - (instructions of warm-up alone),
divided by N, so start-up and imports cancel; "of spades" is that figure as a share of
a spades playout's (lower is fewer). Needs `valgrind` (apt-get install
valgrind); about 15 s per run under it. This is a benchmark, not a test.
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import engine_speed  # noqa: E402
from callgrind import instructions  # noqa: E402

WARM_UP = 200       # deals before the counted ones: event tables filled, bytecode specialised


def _play(engine: str, deals: int) -> None:
    """Play WARM_UP then ``deals`` deals (run under callgrind by :func:`count`)."""
    if engine == "spades":
        game = engine_speed.load_spades()
        engine_speed.spades_playouts(game, 0, seed=1, limit=WARM_UP)
        if deals:
            engine_speed.spades_playouts(game, 0, seed=5, limit=deals)
    else:
        # one Rules object for both, so the counted deals find the events the deal shares
        # between deals (courtlearn.deal._EventTables, one per Rules) already made
        rules = engine_speed.game_rules(engine)
        engine_speed.courtlearn_deals(engine, 0, seed=1, limit=WARM_UP, rules=rules)
        if deals:
            engine_speed.courtlearn_deals(engine, 0, seed=5, limit=deals, rules=rules)


def _instructions(engine: str, deals: int) -> int:
    return instructions([sys.executable, __file__, "--play", engine, str(deals)])


def count(engine: str, deals: int) -> float:
    """Instructions per deal (or per spades playout)."""
    return (_instructions(engine, deals) - _instructions(engine, 0)) / deals


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals counted (default 300)")
    parser.add_argument("--play", nargs=2, metavar=("ENGINE", "DEALS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.play:
        _play(args.play[0], int(args.play[1]))
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: apt-get install valgrind")
        return 1
    engines = list(engine_speed.GAMES)
    if engine_speed.load_spades() is not None:
        engines.append("spades")
    else:
        print("OpenSpiel (pyspiel) is not installed: counting courtlearn only.")
    rows = {e: count(e, args.deals) for e in engines}
    print(f"{'engine':28} {'instructions/deal':>18} {'of spades':>10}")
    for e, n in rows.items():
        name = "pyspiel spades (playouts)" if e == "spades" else f"courtlearn {e}"
        share = f"{n / rows['spades']:.1%}" if "spades" in rows else "-"
        print(f"{name:28} {n:18,.0f} {share:>10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
