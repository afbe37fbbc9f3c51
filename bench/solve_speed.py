"""Solver speed: cl.solve on random positions of all three games (issue 13).

Run:  .venv/bin/python bench/solve_speed.py [--positions 30] [--tricks 6 8]

For each number of tricks left, random deals of Court Piece, Double Sir and Dehla
Pakad (each with stop_when_decided=False) are played at random to that point, half
at a trick start and half one to three cards into the trick; cl.solve times each.
Where endplay (Bo Haglund's DDS, `pip install endplay`) is installed, the Court Piece
positions are also solved by it, for the time beside ours. A benchmark, not a test.

The solver's limits (issue 23):

      .venv/bin/python bench/solve_speed.py --limits [--positions 16] [--budget N]

For every game and trump method (called, first_void) and every trick from the last
back to the first, the pure solver (using="python") with the default budget
(courtlearn.solver.BUDGET, or --budget) on random positions, each trick's batch in a
fresh process: how many are solved, the cards tried, the CPU time (the machine is
shared: wall time drifts with the load, CPU time much less) and the batch's peak
memory (maxrss); and the first trick from which nine in ten positions of it and
every later trick are solved: the figures behind solver.SOLVABLE_FROM. Tricks are
tried back to the first until two in a row solve fewer than one position in four.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import resource
import statistics
import subprocess
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


# (label, game, trump_method) of the limits table
VARIANTS = [("court_piece", "court_piece", "called"),
            ("court_piece/first_void", "court_piece", "first_void"),
            ("double_sir", "double_sir", "called"),
            ("double_sir/first_void", "double_sir", "first_void"),
            ("dehla_pakad", "dehla_pakad", "called"),
            ("dehla_pakad/first_void", "dehla_pakad", "first_void")]
SOLVED_SHARE = 0.9          # of the positions of a trick, for "solvable from"


def limit_positions(game, method, trick, count, seed=0):
    """``count`` deals of one variant at ``trick`` (1..13), played at random, half one
    to three cards into the trick."""
    rng = random.Random(f"solve_limits/{game}/{method}/{trick}/{seed}")
    rules = getattr(cl.Rules, game)(trump_method=method, stop_when_decided=False)
    out = []
    while len(out) < count:
        deal = cl.Deal(rules, dealer=rng.randrange(4), seed=rng.randrange(1 << 30))
        if deal.phase == "trump":
            deal.call_trump(rng.choice("SHCD"))
        while len(deal.tricks) < trick - 1:
            deal.play(rng.choice(deal.legal_cards()))
        for _ in range(0 if len(out) % 2 == 0 else rng.randint(1, 3)):
            deal.play(rng.choice(deal.legal_cards()))
        out.append(deal)
    return out


def one_batch(label, trick, count, budget):
    """Solve one variant's positions at one trick (in this process): a JSON line."""
    from courtlearn import dds
    from courtlearn.solver import PositionTooLarge, solve
    _, game, method = next(v for v in VARIANTS if v[0] == label)
    dds.available()             # endplay's own imports (100 MB and more) before the baseline
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rows = []
    for deal in limit_positions(game, method, trick, count):
        cpu = time.process_time()
        wall = time.perf_counter()
        try:
            sol = solve(deal, using="python", budget=budget, progress=False)
            solved, nodes, peak = True, sol.nodes, sol.table_peak
        except PositionTooLarge as stop:
            solved, nodes, peak = False, stop.nodes, None
        rows.append({"solved": solved, "nodes": nodes, "peak": peak,
                     "cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall})
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024       # kB on Linux
    print(json.dumps({"label": label, "trick": trick, "rows": rows, "maxrss_mb": rss,
                      "base_mb": base}))


def limits(count, budget):
    """The limits table (see the module's doc)."""
    from courtlearn.solver import BUDGET
    budget = BUDGET if budget is None else budget
    print(f"Python {sys.version.split()[0]}, budget {budget:,} cards, {count} positions "
          f"per trick (half mid-trick), using='python'")
    print("(peak MB: the batch's maxrss above the process's own once courtlearn and endplay "
          "are imported; table entries: the most one table held)")
    found = {}
    for label, _, _ in VARIANTS:
        print(f"\n{label}")
        print("  trick  solved  cards tried (max solved)  CPU s (max, solved/refused)  "
              "wall s (max)  peak MB  table entries")
        shares = {}
        poor = 0
        for trick in range(13, 0, -1):
            out = subprocess.run([sys.executable, __file__, "--one", label, str(trick),
                                  str(count), str(budget)], capture_output=True, text=True,
                                 check=True)
            got = json.loads(out.stdout.splitlines()[-1])
            rows = got["rows"]
            ok = [r for r in rows if r["solved"]]
            no = [r for r in rows if not r["solved"]]
            shares[trick] = len(ok) / len(rows)
            print(f"  {trick:5d}  {len(ok):3d}/{len(rows):<3d} "
                  f"{max((r['nodes'] for r in ok), default=0):14,d}            "
                  f"{max((r['cpu'] for r in ok), default=0):6.2f} / "
                  f"{max((r['cpu'] for r in no), default=0):5.2f}              "
                  f"{max(r['wall'] for r in rows):6.2f}       "
                  f"{got['maxrss_mb'] - got['base_mb']:6.0f}   "
                  f"{max((r['peak'] for r in ok), default=0):,d}",
                  flush=True)
            poor = poor + 1 if shares[trick] < 0.25 else 0
            if poor == 2:
                break
        start = 14
        for trick in sorted(shares, reverse=True):
            if shares[trick] < SOLVED_SHARE:
                break
            start = trick
        found[label] = start
        print(f"  solvable from trick {start}")
    print("\nSOLVABLE_FROM = " + json.dumps(found, indent=4))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=None,
                    help="positions per game (default 30; --limits: per trick, default 16)")
    ap.add_argument("--tricks", type=int, nargs="+", default=[6, 8])
    ap.add_argument("--limits", action="store_true", help="the solver's limits table")
    ap.add_argument("--budget", type=int, default=None, help="--limits: cards per solve")
    ap.add_argument("--one", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        label, trick, count, budget = args.one
        one_batch(label, int(trick), int(count), math.inf if budget == "inf" else int(budget))
        return
    if args.limits:
        limits(args.positions or 16, args.budget)
        return
    args.positions = args.positions or 30
    print(f"Python {sys.version.split()[0]}, {args.positions} positions per game, half mid-trick")
    for left in args.tricks:
        times = {g: [] for g in GAMES}
        dds = []
        for game, deal in positions(left, args.positions):
            t = time.perf_counter()
            cl.solve(deal, budget=math.inf, progress=False)     # the time, however long
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
