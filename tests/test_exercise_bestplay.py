"""Exercise 09 (best card with all hands shown): fixed positions keep the property they
were chosen for, answers are judged by exact best play and what it scores (issue 30), bad
answers lose nothing."""
import pytest

import courtlearn as cl
from courtlearn.exercises import bestplay

KIND = "best_card"


@pytest.mark.parametrize("n", range(1, len(bestplay.BEST_CARD_FIXED) + 1))
def test_each_fixed_position_still_has_a_choice_that_matters(n):
    """Some card changes what is scored (the deal, a court, a kot), and a card is right
    exactly when it scores as much as the best."""
    from courtlearn.stakes import stakes
    q = cl.exercises.question(KIND, n)
    assert q.deal.to_play == 0 and bestplay.good(q.deal)
    worth = stakes(q.deal, cl.solve(q.deal).values)
    top = max(w.key for w in worth.values())
    assert min(w.key for w in worth.values()) < top
    for card, w in worth.items():
        fb = q.check(card)
        assert bool(fb) == (w.key == top), (card, w, top, fb)
        assert w.words(q.deal.rules) in fb.message
    assert worth[cl.Card.parse(q.solution)].key == top


def test_issue_30_the_old_questions_2_and_4_changed_nothing_that_scores():
    """Exercise 09's old question 2 (9 tricks against 8, won either way) and 4 (a Double
    Sir 5 against 2, lost either way) rewarded tricks that score nothing: such positions
    are not asked, and every card there is right, with a sentence saying the trick changes
    nothing."""
    old = [("court_piece", 0, 999743024,
            "call:D 2C 6C AC 3C AH 2H 4H 9H 4S 2S 6S 10S AS 5S 8S 9S KH 5H 3H 6H QH 8D 7H JH "
            "KS 3D JS 3S 10H 4D 5D QD 5C 8C QC 2D QS 7S", "8♥"),
           ("double_sir", 3, 827660040,
            "call:C 4S 2S 5S 3S AS 3C 6S KS 2D 4D 8D 9D AD 3D JD 2C AH 2H 4H 6H AC 5C 4C 6C 3H "
            "7H KH 9H 5D 8C 9C 10D QH JH 8H", "10♠")]
    for game, dealer, seed, moves, fewer in old:
        deal = cl.Deal(getattr(cl.Rules, game)(stop_when_decided=False), dealer=dealer, seed=seed)
        deal.apply(moves)
        assert not bestplay.good(deal)
        q = bestplay.best_card_question(deal)
        fb = q.check(fewer)
        assert fb and "which changes nothing" in fb.message, fb.message
        assert all(q.check(card) for card in q.extra["legal"])


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
    fb = q.check("10S")
    assert not fb and "6♣" in fb.message and "11 tricks" in fb.message
    assert "with a court" not in fb.message.partition(";")[0]
    fb = q.check("AS")
    assert not fb and "does not hold" in fb.message
    fb = q.check("not a card")
    assert not fb
    assert q.deal.to_dict() == before
