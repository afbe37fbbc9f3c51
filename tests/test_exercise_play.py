"""The "what would you play here?" exercise (courtlearn.exercises.play): the
learner's card is compared with the hint's chances, the positions are ones
where the choice matters, and the check never changes the deal."""
from __future__ import annotations

import contextlib
import io
import sys

import pytest

pytest.importorskip("numpy")

import courtlearn as cl  # noqa: E402
from courtlearn.bots import Hint, _fraction_words, hint  # noqa: E402
from courtlearn.exercises import play  # noqa: E402

ex = cl.exercises
KIND = "what_to_play"
FIXED = range(1, ex.count(KIND) + 1)
SEEDS = (0, 1, 7)


def quiet_check(q, answer):
    with contextlib.redirect_stdout(io.StringIO()) as out:
        fb = q.check(answer)
    assert out.getvalue() == fb.message + "\n"
    return fb


def words(p):
    return _fraction_words(p, "deal")


@pytest.fixture(scope="module")
def fixed():
    return {n: ex.question(KIND, n) for n in FIXED}


@pytest.fixture(scope="module")
def seeded():
    return {s: ex.question(KIND, seed=s) for s in SEEDS}


def _illegal_reason(deal, card):
    copy = cl.Deal.from_dict(deal.to_dict())
    with pytest.raises(cl.IllegalPlay) as refusal:
        copy.play(card)
    return refusal.value.reason


# ---------------------------------------------------------------- registration


def test_kinds_stay_the_seven_rule_kinds_and_the_new_kind_is_apart():
    assert ex.KINDS == ("trick_winner", "legal_cards", "spot_the_revoke", "pile_capture",
                        "court_or_not", "next_dealer", "tens_winner")
    assert ex.PLAY_KINDS == (KIND, "best_card")
    assert ex.TITLES[KIND] == "What would you play here?"
    assert "hint" in ex.RULES[KIND]
    assert 4 <= ex.count(KIND) <= 12
    with pytest.raises(ValueError, match="what_to_play"):
        ex.question("what_to_ploy")
    with pytest.raises(ValueError):
        ex.question(KIND, ex.count(KIND) + 1)


@pytest.mark.parametrize("n", FIXED)
def test_fixed_question_has_the_same_answer_with_pure_python_playouts(fixed, n, monkeypatch):
    """Where numpy is missing (the browser-only site) the hint's play-outs run in plain
    Python: every fixed question keeps its answer."""
    monkeypatch.setattr(cl.bots, "PLAYOUTS", "python")
    q = ex.question(KIND, n)
    assert q.deal.to_dict() == fixed[n].deal.to_dict()
    assert q.solution == fixed[n].solution
    fb = quiet_check(q, q.solution)
    assert fb.correct


# ---------------------------------------------------------------- the positions


def _check_position(q):
    deal = q.deal
    assert deal.phase == cl.Phase.PLAY and deal.to_play == 0
    assert len(deal.legal_cards()) >= 3
    chances = q.extra["chances"]
    assert set(chances) == set(deal.legal_cards())
    # the question is checked against the hint itself, with its fixed seed
    h = hint(deal, seed=q.extra["hint_seed"])
    assert h.chances == chances and str(h.card) == q.solution
    return h


@pytest.mark.parametrize("n", FIXED)
def test_fixed_question_is_a_position_where_the_choice_matters(fixed, n):
    q = fixed[n]
    h = _check_position(q)
    assert max(h.chances.values()) - min(h.chances.values()) >= play.MIN_SPREAD
    assert h.chances[h.card] == max(h.chances.values())
    for seed in (1, 2):                       # the answer does not hang on the hint's seed
        assert hint(q.deal, seed=seed).card == h.card


def test_fixed_questions_cover_the_three_games(fixed):
    assert {q.deal.rules.game for q in fixed.values()} == {"court_piece", "double_sir",
                                                           "dehla_pakad"}


@pytest.mark.parametrize("seed", SEEDS)
def test_seeded_question_is_deterministic_and_filtered(seeded, seed):
    q = seeded[seed]
    h = _check_position(q)
    assert max(h.chances.values()) - min(h.chances.values()) >= play.MIN_SPREAD
    again = ex.question(KIND, seed=seed)
    assert again.deal.to_dict() == q.deal.to_dict()
    assert again.solution == q.solution and again.extra["chances"] == q.extra["chances"]
    assert again.text == q.text


def test_different_seeds_give_different_positions(seeded):
    assert len({q.deal.to_notation() for q in seeded.values()}) == len(SEEDS)


def test_fixed_question_is_the_same_each_time(fixed):
    q = ex.question(KIND, 1)
    assert q.deal.to_dict() == fixed[1].deal.to_dict()
    assert q.solution == fixed[1].solution and q.text == fixed[1].text


# ---------------------------------------------------------------- checking


@pytest.mark.parametrize("n", FIXED)
def test_the_hints_card_is_correct_with_the_chances_in_words(fixed, n):
    q = fixed[n]
    chances = q.extra["chances"]
    best = cl.Card.parse(q.solution)
    worst = min(chances, key=lambda c: (chances[c], c))
    for answer in (q.solution, best, best.code, best.code.lower()):
        fb = quiet_check(q, answer)
        assert fb.correct is True and bool(fb)
        assert fb.message.startswith(f"Correct: with {best} your side wins {words(chances[best])}")
        assert f"with {worst}, the worst choice here, {words(chances[worst])}" in fb.message
        assert f"The hint plays {best}: " in fb.message


@pytest.mark.parametrize("n", FIXED)
def test_every_lawful_card_is_judged_by_its_chance(fixed, n):
    q = fixed[n]
    chances = q.extra["chances"]
    best = cl.Card.parse(q.solution)
    top = chances[best]
    weaker = 0
    for card, p in chances.items():
        fb = quiet_check(q, card)
        assert fb.correct is (p >= top - play.MARGIN), (card, p, top)
        if not fb.correct:
            weaker += 1
            assert fb.message.startswith(f"Not yet: with {card} your side wins {words(p)}")
            assert f"with {best}" in fb.message and words(top) in fb.message
            assert f"The hint plays {best}: " in fb.message
    assert weaker >= 1


def _fake_question(chances, text="Play {}: it wins this trick. With it your side wins the "
                                 "deal about 8 times in 10."):
    q = ex.question(KIND, 1)
    legal = q.deal.legal_cards()
    assert len(legal) >= 3
    ch = dict(zip(legal, chances))
    best = legal[0]
    fake = Hint(card=best, text=text.format(best), chances=ch, seat=0, reason="it wins this trick.")
    return play.what_to_play_question(q.deal, fake), legal


def test_a_card_within_the_margin_of_the_best_is_correct_too():
    q, legal = _fake_question([0.80, 0.78, 0.50])
    fb = quiet_check(q, legal[1])
    assert fb.correct is True
    assert fb.message == (f"Correct: with {legal[1]} your side wins about 8 deals in 10, almost "
                          f"as often as with {legal[0]}, the hint's card (about 8 deals in 10); "
                          f"with {legal[2]}, the worst choice here, about 1 deal in 2. "
                          f"The hint plays {legal[0]}: it wins this trick.")
    fb = quiet_check(q, legal[2])
    assert fb.message == (f"Not yet: with {legal[2]} your side wins about 1 deal in 2, against "
                          f"about 8 deals in 10 with {legal[0]}. The hint plays {legal[0]}: it "
                          "wins this trick.")


def test_a_weaker_card_with_the_same_words_is_still_not_yet():
    q, legal = _fake_question([0.84, 0.76, 0.40])
    fb = quiet_check(q, legal[1])
    assert fb.correct is False
    assert fb.message.startswith(f"Not yet: with {legal[1]} your side wins about 8 deals in 10, "
                                 f"but a little less often than with {legal[0]}.")


@pytest.mark.parametrize("n", FIXED)
def test_an_unlawful_or_missing_card_gets_the_engines_reason(fixed, n):
    q = fixed[n]
    deal = q.deal
    held = [c for c in deal.hand(0) if c not in deal.legal_cards()]
    not_held = next(c for c in cl.cards("AS AH AC AD KS KH KC KD") if c not in deal.hand(0))
    for card in held[:1] + [not_held]:
        fb = quiet_check(q, str(card))
        assert fb.correct is False
        assert fb.message == f"Not yet: {_illegal_reason(deal, card)}"


def test_not_answered_unreadable_and_strict_mode(fixed, monkeypatch):
    q = fixed[2]
    fb = quiet_check(q, ...)
    assert fb.correct is None and fb.message.startswith("Not answered yet")
    fb = quiet_check(q, "the big one")
    assert fb.correct is False and fb.message.startswith("Not yet: I could not read")
    chances = q.extra["chances"]
    worst = min(chances, key=chances.get)
    monkeypatch.setenv("COURTLEARN_STRICT", "1")
    for wrong in (..., worst, "ZZ"):
        with pytest.raises(AssertionError):
            quiet_check(q, wrong)
    assert quiet_check(q, q.solution).correct is True


def test_checking_changes_nothing_about_the_deal(fixed):
    q = fixed[5]
    before = q.deal.to_dict()
    events = len(q.deal.events)
    chances = dict(q.extra["chances"])
    for answer in [*q.deal.hand(0), "AS", "2C", ..., "nonsense"]:
        quiet_check(q, answer)
    assert q.deal.to_dict() == before and len(q.deal.events) == events
    assert q.extra["chances"] == chances


# ---------------------------------------------------------------- showing


def test_the_question_shows_south_view_and_asks():
    from courtlearn.render import deal_html
    q = ex.question(KIND, 3)
    text = repr(q)
    assert "What would you play here? (question 3)" in text
    assert "South holds: " + " ".join(str(c) for c in q.deal.hand(0)) in text
    assert "East holds" not in text and "South (you) to play." in text
    assert "centre pile" in text                                # Double Sir
    page = q._repr_html_()
    assert deal_html(q.deal, seat=0, show_all=False) in page    # the others face down
    assert deal_html(q.deal) not in page
    assert "What would you play here?" in page
    assert "Tens taken" in repr(ex.question(KIND, 5))          # Dehla Pakad
