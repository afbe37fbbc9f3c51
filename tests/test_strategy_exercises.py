"""The strategy exercises (issue 31): call_trump (judged by the hint at the call),
score_sheet (from cl.Session) and card_play drills (judged like what_to_play)."""
from __future__ import annotations

import pytest

import courtlearn as cl
from courtlearn.exercises import strategy

ex = cl.exercises


def test_kinds_are_registered():
    assert ex.STRATEGY_KINDS == ("call_trump", "score_sheet", "card_play")
    for kind in ex.STRATEGY_KINDS:
        assert ex.count(kind) >= 5 and ex.TITLES[kind] and ex.RULES[kind]
    with pytest.raises(ValueError, match="call_trump, score_sheet, card_play"):
        ex.question("call_trumps")


@pytest.mark.parametrize("n", range(1, 6))
def test_call_trump_fixed_questions_check_their_own_solution_and_judge_wrong_suits(n):
    q = ex.question("call_trump", n)
    ch, best = q.extra["chances"], q.extra["best"]
    assert cl.Suit.parse(q.solution) == cl.Suit(best)
    fb = q.feedback(q.solution)
    assert fb.correct is True and "Rule of thumb" in fb.message
    worst = min(range(4), key=lambda s: ch[s])
    fb = q.feedback(cl.Suit(worst))
    assert fb.correct is False
    assert f"{round(100 * ch[worst])} deals in 100" in fb.message
    assert f"{round(100 * ch[best])} deals in 100" in fb.message
    # every suit within the margin is right, the others not
    for s in range(4):
        assert q.feedback(cl.Suit(s)).correct is (ch[s] >= ch[best] - strategy.MARGIN)


def test_call_trump_reads_suits_every_way_and_never_raises():
    q = ex.question("call_trump", 2)                       # ♦ is right
    for said in ("♦", "D", "diamonds", "Diamonds", cl.Suit.DIAMONDS, " d "):
        assert q.feedback(said).correct is True, said
    for junk in ("", "xx", 3, None, [1], object()):
        fb = q.feedback(junk)
        assert fb.correct is False and fb.message.startswith("Not yet")
    assert q.feedback(...).correct is None
    assert "length before high cards" in q.feedback("clubs").message


def test_call_trump_seeded_is_reproducible():
    a, b = ex.question("call_trump", seed=11), ex.question("call_trump", seed=11)
    assert a.deal.hand(0) == b.deal.hand(0) and a.extra["chances"] == b.extra["chances"]
    assert a.feedback(a.solution).correct is True


@pytest.mark.parametrize("n", range(1, 7))
def test_score_sheet_fixed_questions_check_their_solution_and_judge_wrong_sheets(n):
    q = ex.question("score_sheet", n)
    after = q.extra["after"]
    assert q.feedback(after).correct is True
    assert q.feedback(q.solution).correct is True          # the quiz's label of the sheet
    labels = strategy.sheet_choices(q)
    assert q.solution in labels and len(labels) >= 3
    for lab in labels:
        assert q.feedback(lab).correct is (lab == q.solution)
    wrong = dict(after, dealer=(after["dealer"] + 1) % 4)
    fb = q.feedback(wrong)
    assert fb.correct is False and "who deals next" in fb.message


def test_score_sheet_answers_come_from_the_session():
    q = ex.question("score_sheet", 3)                      # a court for East–West
    assert q.extra["after"] == {"courts": (0, 1), "goon_courts": (0, 0), "streak": (None, 0),
                                "dealer": 0}
    assert q.feedback({"courts": (0, 1), "streak": ("East–West", 3), "dealer": "South"}) \
        .message.startswith("Not yet: look again at the streak")


@pytest.mark.parametrize("n, game, courts", [(5, "double_sir", (0, 3)), (6, "court_piece", (1, 1))])
def test_a_goon_court_counts_at_its_worth_and_the_next_seat_deals(n, game, courts):
    # RULES.md: a goon court is the dealer's side's court, worth goon_courts (3) in Double
    # Sir and one court in Court Piece; the dealer's side won, so the next seat deals
    q = ex.question("score_sheet", n)
    deal = q.deal
    assert deal.rules.game == game and deal.result.kind == "goon"
    assert deal.result.winner == deal.dealer % 2
    after = q.extra["after"]
    assert after["courts"] == courts and after["dealer"] == (deal.dealer + 1) % 4
    assert after["goon_courts"][deal.result.winner] == 1 and after["streak"] == (None, 0)
    one = dict(after, courts=tuple(c - (deal.result.courts - 1) * (i == deal.result.winner)
                                   for i, c in enumerate(after["courts"])))
    if game == "double_sir":                  # counted as one court: the worth is named
        fb = q.feedback(one)
        assert not fb.correct and "scores as 3 courts" in fb.message
    fb = q.feedback(dict(after, goon_courts=(0, 0)))     # not marked as a goon court
    assert not fb.correct and "goon court" in fb.message
    fb = q.feedback(dict(after, dealer=deal.dealer))     # the dealer's side won: it passes on
    assert not fb.correct and "who deals next" in fb.message


def test_score_sheet_bad_answers_get_a_sentence():
    q = ex.question("score_sheet", 1)
    for junk, says in (({"courts": (0, 0)}, "needs streak, next dealer"),
                       ({"courts": "x", "streak": None, "dealer": "N"}, "courts is two"),
                       ({"courts": (0, 0), "streak": ("Purple", 2), "dealer": "N"}, "team"),
                       ("sheet", "Write the sheet"), (5, "Write the sheet")):
        fb = q.feedback(junk)
        assert fb.correct is False and says in fb.message, (junk, fb.message)


@pytest.mark.parametrize("n", range(1, 8))
def test_card_play_drills_check_their_solution_and_judge_a_weak_card(n):
    q = ex.question("card_play", n)
    assert q.extra["principle"] in strategy.PRINCIPLES and q.text.startswith("Drill: ")
    assert q.feedback(q.solution).correct is True
    ch = q.extra["chances"]
    worst = min(ch, key=lambda c: (ch[c], c))
    assert q.feedback(worst).correct is False


def test_card_play_seeded():
    q = ex.question("card_play", seed=7)
    assert q.feedback(q.solution).correct is True
