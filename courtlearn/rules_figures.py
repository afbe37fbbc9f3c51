"""The numbers the rules lessons quote (05, 11): measured by the engine, re-runnable.

Lesson 05 says how a side scores courts in practice: from a single deal (the first seven
tricks, a goon court among them) or from a streak of seven deals won in a row. The figures
come from long sessions played by four :class:`courtlearn.bots.RuleBot` s, deal after deal
with the dealer passed on by the rules (lesson 06), so the streaks are real runs of deals.
The lesson quotes the big measurement (``bench/rules_figures.py``); the notebook build and
the tests recompute each figure with a smaller sample and check it lies within the stated
tolerance (:func:`check_figure`), the way :mod:`courtlearn.course_figures` does for the
strategy lessons.

>>> counts = session_courts(60, seed=1)
>>> counts["deals"], counts["single"] + counts["streak"] == counts["courts"]
(60, True)
"""
from __future__ import annotations

__all__ = ["session_courts", "FIGURES", "figure", "check_figure"]


def session_courts(deals: int, seed: int = 0, per_session: int = 400) -> dict:
    """Play ``deals`` Court Piece deals in sessions of ``per_session`` deals (RuleBot at
    every seat) and count the courts: ``single`` (scored in one deal: a court or a goon court, a
    bavney), ``streak`` (the seventh deal won in a row), ``courts`` (both), ``deals``."""
    import courtlearn as cl
    from .frames import play_out
    rules = cl.Rules.court_piece()
    bots = [cl.bots.RuleBot()] * 4
    single = streak = played = 0
    per = per_session
    n = 0
    while played < deals:
        session = cl.Session(rules, seed=f"rules-figures/{seed}/{n}")
        n += 1
        for i in range(min(per, deals - played)):
            if i:
                session.next_deal()
            play_out(session.deal, bots)
            played += 1
            res = session.deal.result
            if res.courts:
                single += 1
            elif session.streak == (None, 0):      # this deal's win was the seventh
                streak += 1
    return {"deals": played, "single": single, "streak": streak, "courts": single + streak}


#: name -> (what it is, the value the lesson quotes (a share of deals, 0-1), tolerance)
#: measured by bench/rules_figures.py --deals 8000 --seed 0 (4.1 and 1.4 in 100: 330 and 110 courts)
FIGURES: dict = {
    "rules.single_courts": ("deals that score a court of their own (court, goon court)",
                            0.041, 0.020),
    "rules.streak_courts": ("deals that end a seven-deal streak (a court)", 0.014, 0.012),
}

_CACHE: dict = {}


def figure(name: str, deals: int | None = None, seed: int = 11) -> float:
    """Recompute figure ``name`` (a share of deals, 0-1) with ``deals`` deals (800 by
    default: about ten seconds)."""
    key = (deals or 800, seed)
    if key not in _CACHE:
        _CACHE.clear()
        _CACHE[key] = session_courts(key[0], seed=seed)
    counts = _CACHE[key]
    if name == "rules.single_courts":
        return counts["single"] / counts["deals"]
    if name == "rules.streak_courts":
        return counts["streak"] / counts["deals"]
    raise ValueError(f"unknown figure {name!r}")


def check_figure(name: str, deals: int | None = None) -> str:
    """Recompute ``name`` with a small sample; a ValueError when it is farther from the
    quoted value than the figure's tolerance, else a line saying how close it came."""
    what, quoted, tol = FIGURES[name]
    got = figure(name, deals)
    line = (f"{name} ({what}): quoted {100 * quoted:.1f}, recomputed {100 * got:.1f} "
            f"(tolerance {100 * tol:.1f})")
    if abs(got - quoted) > tol:
        raise ValueError(f"a quoted number no longer holds: {line}")
    return line
