"""Exercise 09 (best card with all hands shown): fixed positions keep the property they
were chosen for, answers are judged by exact best play, bad answers lose nothing."""
import pytest

import courtlearn as cl
from courtlearn.exercises import bestplay

KIND = "best_card"


@pytest.mark.parametrize("n", range(1, len(bestplay.BEST_CARD_FIXED) + 1))
def test_each_fixed_position_still_has_a_choice_that_matters(n):
    q = cl.exercises.question(KIND, n)
    assert q.deal.to_play == 0 and bestplay.good(q.deal)
    values = cl.solve(q.deal).values
    top = max(values.values())
    for card, v in values.items():
        fb = q.check(card)
        assert bool(fb) == (v == top), (card, v, top, fb)
    assert cl.Card.parse(q.solution) in values and values[cl.Card.parse(q.solution)] == top


def test_all_three_games_are_asked():
    games = {cl.exercises.question(KIND, n).deal.rules.game
             for n in range(1, cl.exercises.count(KIND) + 1)}
    assert games == {"court_piece", "double_sir", "dehla_pakad"}


def test_fresh_questions_are_reproducible_and_good():
    for seed in (1, 2):
        a, b = cl.exercises.question(KIND, seed=seed), cl.exercises.question(KIND, seed=seed)
        assert a.deal == b.deal and a.solution == b.solution
        assert bestplay.good(a.deal)


def test_wrong_and_unreadable_answers_say_why_and_change_nothing():
    q = cl.exercises.question(KIND, 3)
    before = q.deal.to_dict()
    fb = q.check("JS")
    assert not fb and "J♥" in fb.message and "4 tricks" in fb.message
    fb = q.check("AS")
    assert not fb and "does not hold" in fb.message
    fb = q.check("not a card")
    assert not fb
    assert q.deal.to_dict() == before
