"""Every puzzle's goal is one that scores (issue 30: "best play counts tricks that score
nothing"): reaching the target changes the deal's result as the game scores it (the deal
won, a court, a goon court, a bavney, a kot, the tens that win it, or a court stopped),
and one trick (or ten) less does not reach the same result. Checked with the engine's own
scoring on the goal's numbers (courtlearn.scoring), not by replaying lines:
tests/test_puzzles.py already proves with the solver that each target is reached.
"""
from __future__ import annotations

import functools

import pytest

import courtlearn as cl
from courtlearn.rules import team_of
from courtlearn.scoring import court_piece_result, final_result

PUZZLES = cl.puzzles.all()


@functools.lru_cache(maxsize=None)
def _deal(p):
    return p.deal                     # each .deal replays the notation: once per puzzle here


def result(p, n: int) -> tuple:
    """The result of the puzzle's deal for the learner's side when it ends with ``n`` (tricks,
    or tens in Dehla Pakad: what ``target`` counts) and the other side with the rest:
    (won the deal, the courts it scored, or minus those the other side scored)."""
    deal = _deal(p)
    rules, dealer, team = deal.rules, deal.dealer, p.team
    if p.game == "dehla_pakad":
        tens = (n, 4 - n) if team == 0 else (4 - n, n)
        tricks = deal.tricks_won        # read only by tens_tie="tricks": the tricks so far
        winner, courts, _ = final_result(rules, dealer, tricks, tens)
    elif p.game == "double_sir":
        tricks = (n, 13 - n) if team == 0 else (13 - n, n)
        winner, courts, _ = final_result(rules, dealer, tricks, (0, 0))
    else:
        tricks = (n, 13 - n) if team == 0 else (13 - n, n)
        # a court in Court Piece is the first seven tricks: the counts alone say it only
        # when one side takes all thirteen (or none) having won every trick so far
        swept = [t for t in (0, 1) if deal.tricks_won[1 - t] == 0 and tricks[t] == 13]
        winner, courts, _ = court_piece_result(dealer, tricks, swept[0] if swept else None, 13,
                                               stop_when_decided=False)
    return (winner == team, courts if winner == team else -courts)


@pytest.mark.parametrize("p", PUZZLES, ids=[p.key for p in PUZZLES])
def test_the_goal_scores_and_one_less_does_not(p):
    reached, short = result(p, p.target), result(p, p.target - 1)
    # reaching the target is better for the learner's side than one short of it: the deal
    # turns, or a court is made or stopped; so the target counts no trick beyond what scores
    assert reached > short, (f"puzzle {p.key} ({p.title_text!r}): target {p.target} gives "
                             f"{reached}, one less {short}: the goal changes nothing")


@pytest.mark.parametrize("p", PUZZLES, ids=[p.key for p in PUZZLES])
def test_the_goal_says_what_it_wins(p):
    """The learner reads what the target is worth, not only a count."""
    (won, courts), (short_won, short_courts) = result(p, p.target), result(p, p.target - 1)
    if courts > 0:                                    # a court made: named as such
        words = {"dehla_pakad": "a kot"}.get(p.game, "bavney" if courts == 52 else "court")
    elif won and not short_won:                       # the deal turns on it
        words = "the deal"
    else:                                             # the other side's court stopped
        assert short_courts < 0, p.key
        words = "stop"
    assert words in p.goal_text, (p.key, words, p.goal_text)


def test_every_level_keeps_its_puzzles():
    counts = {level: sum(p.level == level for p in PUZZLES) for level in cl.puzzles.LEVELS}
    assert counts == {1: 16, 2: 12, 3: 15, 4: 12, 5: 8}, counts
    for p in PUZZLES:
        assert 13 - len(_deal(p).tricks) == p.level + 2, p.key
        assert team_of(p.seat) == p.team == 0


def test_the_result_helper_reads_the_games_scoring():
    # Court Piece: seven of thirteen wins the deal; a sweep after winning every trick is a bavney
    cp = cl.puzzles.puzzle(5, 4)          # North–South have won all six tricks so far
    assert result(cp, 13) == (True, 52) and result(cp, 12) < result(cp, 13)
    assert result(cp, 7) == (True, 0) and result(cp, 6) == (False, 0)
    # Double Sir: all thirteen by the dealers is a goon court (worth goon_courts)
    ds = cl.puzzles.puzzle(2, 6)
    assert ds.deal.dealer % 2 == 0 and result(ds, 13) == (True, 3)
    # Dehla Pakad: all four tens is a kot; North–South, who did not deal, win on two tens
    dp = cl.puzzles.puzzle(2, 7)
    assert result(dp, 4) == (True, 1) and result(dp, 2) == (True, 0)
    assert result(dp, 1) == (False, 0) and result(dp, 0) == (False, -1)
