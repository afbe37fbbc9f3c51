"""Nothing a learner types can break a table (issue 23).

Every public function of the engine, given a wrong type or an absurd value, refuses it
with a ValueError or a TypeError (never AttributeError, IndexError, KeyError or
OverflowError, never numpy's or Python's own words about something else), in a message
that quotes at most a short prefix of the input, and changes nothing: the deal's saved
form is the same before and after.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

import courtlearn as cl
from courtlearn import bots as cl_bots
from courtlearn.cards import quoted

HUGE_TEXT = "Z" * 1_000_000
HUGE_INT = 10 ** 5000
LONG = 400          # no message is longer (the longest template is about 250 characters)

# values of every wrong type a learner (or a notebook cell gone wrong) might pass
BAD = [None, 3.5, float("nan"), b"AS", {}, {"AS": 1}, [], ["AS", ["KS"]], (1, 2), True,
       HUGE_INT, -HUGE_INT, HUGE_TEXT, "", "  ", object(), np.array(["AS", "KS"]),
       np.float64(2.5), 1 + 2j, Ellipsis, cl.Suit.SPADES, cl.Rules.court_piece()]
BAD_IDS = ["None", "float", "nan", "bytes", "dict", "dict-AS", "list", "nested", "tuple",
           "bool", "huge-int", "huge-negative", "huge-text", "empty", "spaces", "object",
           "ndarray", "np-float", "complex", "Ellipsis", "Suit", "Rules"]


def _refused(call):
    """call() must raise ValueError or TypeError with a short message; returns it."""
    with pytest.raises((ValueError, TypeError)) as info:
        call()
    err = info.value
    assert not isinstance(err, (KeyError, IndexError, AttributeError, OverflowError)), repr(err)
    message = str(err)
    assert 0 < len(message) < LONG, message[:LONG]
    assert HUGE_TEXT[:100] not in message
    return message


def _maybe_refused(call):
    """call() may accept (the value happens to be a good one), or refuse like _refused."""
    try:
        call()
    except (ValueError, TypeError) as err:
        assert not isinstance(err, (KeyError, IndexError, AttributeError, OverflowError)), \
            repr(err)
        assert 0 < len(str(err)) < LONG, str(err)[:LONG]
        return str(err)
    return None


# ------------------------------------------------------------------ quoting
def test_quoted_keeps_a_short_prefix():
    assert repr(quoted("Z" * 1000)) == "'" + "Z" * 40 + "…'"
    assert repr(quoted("AS")) == "'AS'" and str(quoted("AS")) == "AS"
    assert repr(quoted(HUGE_INT)) == "an int of 5001 digits"
    assert len(repr(quoted(list(range(10 ** 5))))) < 50
    assert len(repr(quoted("\U00012544" * 100))) < 50       # escapes count too


def test_card_parse_of_a_megabyte_says_a_line():
    """The issue's own example: the message quoted the whole million characters."""
    message = _refused(lambda: cl.Card.parse(HUGE_TEXT))
    assert message.startswith("'ZZZZ") and "…" in message


_HANDS = [" ".join(c.code for c in cl.deck()[13 * s:13 * s + 13]) for s in range(4)]
_SAVED = cl.Deal(cl.Rules.court_piece(), seed=1).to_dict()

# every public parser and constructor, fed a huge input
PARSERS = {
    "Card.parse": lambda x: cl.Card.parse(x),
    "Card": lambda x: cl.Card(x),
    "Card(suit, rank)": lambda x: cl.Card("S", x),
    "Card(suit=x)": lambda x: cl.Card(x, 5),
    "Suit.parse": lambda x: cl.Suit.parse(x),
    "cards": lambda x: cl.cards(x),
    "cards list": lambda x: cl.cards(["AS", x]),
    "Rules.of": lambda x: cl.Rules.of(x),
    "Rules option": lambda x: cl.Rules.court_piece(trump_method=x),
    "Rules option name": lambda x: cl.Rules.court_piece(**{str(x)[:5000]: 1}),
    "Rules()": lambda x: cl.Rules(game=x),
    "Rules.from_text": lambda x: cl.Rules.from_text(x),
    "Rules.from_text option": lambda x: cl.Rules.from_text(f"court_piece goon_courts={x}"),
    "Rules.from_dict": lambda x: cl.Rules.from_dict(x),
    "Rules.from_dict game": lambda x: cl.Rules.from_dict({"game": x}),
    "Rules.seat_name": lambda x: cl.Rules.court_piece().seat_name(x),
    "Rules.team_name": lambda x: cl.Rules.team_name(x),
    "Deal rules": lambda x: cl.Deal(x),
    "Deal dealer": lambda x: cl.Deal(cl.Rules.court_piece(), dealer=x),
    "Deal seed": lambda x: cl.Deal(cl.Rules.court_piece(), seed=x),
    "prearranged": lambda x: cl.Deal.prearranged(cl.Rules.court_piece(), hands=x),
    "prearranged hand": lambda x: cl.Deal.prearranged(cl.Rules.court_piece(),
                                                      hands=[x, x, x, x]),
    "from_notation": lambda x: cl.Deal.from_notation(x),
    "from_notation line": lambda x: cl.Deal.from_notation(f"rules: court_piece\n{x}: 1"),
    "from_notation rules": lambda x: cl.Deal.from_notation(f"rules: {x}\ndealer: 1"),
    "from_notation move": lambda x: cl.Deal.from_notation(
        cl.Deal(cl.Rules.court_piece(), seed=1).to_notation() + f"moves: {x}"),
    "prearranged rules": lambda x: cl.Deal.prearranged(x, hands=_HANDS),
    "prearranged dealer": lambda x: cl.Deal.prearranged(cl.Rules.court_piece(), hands=_HANDS,
                                                        dealer=x),
    "prearranged seed": lambda x: cl.Deal.prearranged(cl.Rules.court_piece(), hands=_HANDS,
                                                      seed=x),
    "from_dict": lambda x: cl.Deal.from_dict(x),
    "from_dict field": lambda x: [cl.Deal.from_dict({**_SAVED, key: x}) for key in _SAVED],
    "from_dict action": lambda x: cl.Deal.from_dict({**_SAVED, "actions": ["call:S", x]}),
    "Session seed": lambda x: cl.Session(cl.Rules.court_piece(), seed=x),
    "Session dealer": lambda x: cl.Session(cl.Rules.court_piece(), dealer=x),
    "Session deals": lambda x: cl.Session(cl.Rules.court_piece(), deals=x),
    "Session rules": lambda x: cl.Session(x),
    "Move": lambda x: cl.Move(x),
    "play_cards": lambda x: cl.play_cards(cl.Deal(cl.Rules.court_piece(), seed=1), x),
    "play_cards deal": lambda x: cl.play_cards(x, "AS"),
    "history": lambda x: cl.frames.history(x),
    "deal_html": lambda x: cl.render.deal_html(x),
    "deal_html seat": lambda x: cl.render.deal_html(cl.Deal(cl.Rules.court_piece(), seed=1), x),
    "card_html": lambda x: cl.render.card_html(x),
    "card_html seat": lambda x: cl.render.card_html("AS", seat=x),
    "cards_html": lambda x: cl.render.cards_html(x),
    "bots.act bot": lambda x: cl_bots.act(x, cl.Deal(cl.Rules.court_piece(), seed=1)),
    "bots.act deal": lambda x: cl_bots.act(cl_bots.RuleBot(), x),
    "RuleBot.choose": lambda x: cl_bots.RuleBot().choose(x),
    "RuleBot.call_trump": lambda x: cl_bots.RuleBot().call_trump(x),
    "MonteCarloBot.choose": lambda x: cl_bots.MonteCarloBot(samples=4).choose(x),
    "hint deal": lambda x: cl.hint(x),
    "exercises.question kind": lambda x: cl.exercises.question(x),
    "exercises.question n": lambda x: cl.exercises.question("trick_winner", x),
    "exercises.question seed": lambda x: cl.exercises.question("trick_winner", seed=x),
    "exercises.count": lambda x: cl.exercises.count(x),
    "puzzles.puzzle level": lambda x: cl.puzzles.puzzle(x),
    "puzzles.puzzle n": lambda x: cl.puzzles.puzzle(1, x),
    "hint samples": lambda x: cl.hint(cl.Deal(cl.Rules.court_piece(), seed=1), samples=x),
    "hint seed": lambda x: cl.hint(cl.Deal(cl.Rules.court_piece(), seed=1), seed=x),
    "hint seat": lambda x: cl.hint(cl.Deal(cl.Rules.court_piece(), seed=1), seat=x),
    "MonteCarloBot samples": lambda x: cl_bots.MonteCarloBot(samples=x),
    "MonteCarloBot seed": lambda x: cl_bots.MonteCarloBot(seed=x),
    "RandomBot seed": lambda x: cl_bots.RandomBot(seed=x),
    "simulate rules": lambda x: cl.simulate(x, deals=1, progress=False),
    "simulate deals": lambda x: cl.simulate(cl.Rules.court_piece(), deals=x, progress=False),
    "simulate seed": lambda x: cl.simulate(cl.Rules.court_piece(), deals=1, seed=x,
                                           progress=False),
    "simulate bots": lambda x: cl.simulate(cl.Rules.court_piece(), deals=1, bots=x,
                                           progress=False),
}


@pytest.mark.parametrize("huge", [HUGE_TEXT, HUGE_INT, -HUGE_INT, "AS " * 100_000,
                                  ["Z" * 1000] * 1000, b"Z" * 100_000,
                                  {"Z" * 1000: "Z" * 1000}],
                         ids=["text", "int", "negative-int", "many-cards", "list", "bytes",
                              "dict"])
@pytest.mark.parametrize("name", list(PARSERS))
def test_every_parser_refuses_a_huge_input_in_a_short_message(name, huge):
    """(A huge input may be a good one: "AS AS ..." is a list of cards.)"""
    _maybe_refused(lambda: PARSERS[name](huge))


@pytest.mark.parametrize("bad", BAD, ids=BAD_IDS)
@pytest.mark.parametrize("name", list(PARSERS))
def test_every_parser_refuses_a_wrong_type_with_a_value_or_type_error(name, bad):
    _maybe_refused(lambda: PARSERS[name](bad))


# -------------------------------------------------- a deal's actions change nothing
def _deals():
    """Deals at the moments a learner acts: choosing the trump, mid-trick with a revoke
    and a face-down trump, and over."""
    trump = cl.Deal(cl.Rules.court_piece(allow_deferred=True, deferred_card="numbered"),
                    dealer=3, seed=7)
    hidden = cl.Deal(cl.Rules.double_sir(trump_method="hidden", revokes="allowed"), dealer=3,
                     seed=5)
    hidden.choose_trump_card(hidden.hand(0)[0])
    for _ in range(6):
        legal = hidden.legal_cards()
        revoking = [c for c in hidden.moves(hidden.to_play)[0].cards if c not in legal]
        hidden.play((revoking or legal)[0])
    over = cl.Deal(cl.Rules.dehla_pakad(), dealer=1, seed=3)
    while over.phase != "over":
        cl_bots.act(cl_bots.RuleBot(), over)
    return {"trump": trump, "hidden": hidden, "over": over}


DEALS = _deals()
ACTIONS = {
    "play": lambda d, x: d.play(x),
    "verify_play": lambda d, x: d.verify_play(x),
    "call_trump": lambda d, x: d.call_trump(x),
    "verify_call_trump": lambda d, x: d.verify_call_trump(x),
    "choose_trump_card": lambda d, x: d.choose_trump_card(x),
    "defer_trump": lambda d, x: d.defer_trump(x),
    "verify_defer_trump": lambda d, x: d.verify_defer_trump(x),
    "claim_revoke": lambda d, x: d.claim_revoke(x),
    "verify_claim_revoke": lambda d, x: d.verify_claim_revoke(x),
    "hand": lambda d, x: d.hand(x),
    "hand_mask": lambda d, x: d.hand_mask(x),
    "dealt": lambda d, x: d.dealt(x),
    "view": lambda d, x: d.view(x),
    "moves": lambda d, x: d.moves(x),
    "seat_name": lambda d, x: d.seat_name(x),
    "replay": lambda d, x: d.replay(x),
    "apply": lambda d, x: d.apply(x),
    "apply list": lambda d, x: d.apply([x]),
    "hint seat": lambda d, x: cl.hint(d, seat=x, samples=4),
    "hint samples": lambda d, x: cl.hint(d, samples=x),
    "hint seed": lambda d, x: cl.hint(d, samples=4, seed=x),
}
# a can_X answers False to anything it would refuse: it never raises
CHECKS = {
    "can_play": lambda d, x: d.can_play(x),
    "can_call_trump": lambda d, x: d.can_call_trump(x),
    "can_choose_trump_card": lambda d, x: d.can_choose_trump_card(x),
    "can_defer_trump": lambda d, x: d.can_defer_trump(x),
    "can_claim_revoke": lambda d, x: d.can_claim_revoke(x),
}


def _saved(deal):
    return json.dumps(deal.to_dict(), sort_keys=True), len(deal.events), deal.to_notation()


@pytest.mark.parametrize("bad", BAD, ids=BAD_IDS)
@pytest.mark.parametrize("action", list(ACTIONS))
@pytest.mark.parametrize("moment", list(DEALS))
def test_a_wrong_argument_to_a_deal_is_refused_and_changes_nothing(moment, action, bad):
    deal = cl.Deal.from_dict(DEALS[moment].to_dict())
    before = _saved(deal)
    message = _maybe_refused(lambda: ACTIONS[action](deal, bad))
    if message is not None:
        assert _saved(deal) == before, (action, message)


@pytest.mark.parametrize("bad", BAD, ids=BAD_IDS)
@pytest.mark.parametrize("check", list(CHECKS))
def test_can_x_answers_false_to_a_wrong_argument(check, bad):
    for deal in DEALS.values():
        before = _saved(deal)
        assert CHECKS[check](deal, bad) in (True, False)
        assert _saved(deal) == before


@pytest.mark.parametrize("bad", [True, False, 1.0, "3", "1", np.array([1]), None, b"1"],
                         ids=["True", "False", "float", "text-3", "text-1", "ndarray", "None",
                              "bytes"])
def test_seats_are_numbers_not_bools_or_text(bad):
    deal = DEALS["hidden"]
    for call in (deal.hand, deal.view, deal.moves, deal.dealt, deal.hand_mask,
                 deal.verify_claim_revoke, deal.rules.seat_name):
        _refused(lambda: call(bad))


def test_numpy_ints_are_seats_and_seeds():
    deal = cl.Deal(cl.Rules.court_piece(), dealer=np.int64(2), seed=np.int32(9))
    assert deal.dealer == 2 and deal.seed == 9 and type(deal.seed) is int
    assert deal.to_dict() == cl.Deal(cl.Rules.court_piece(), dealer=2, seed=9).to_dict()
    assert deal.hand(np.int8(3)) == deal.hand(3)
    assert type(json.loads(json.dumps(deal.to_dict()))["dealer"]) is int


# ---------------------------------------------------------- hints and bots (item 11)
@pytest.mark.parametrize("samples", [-1, 0, "10", 2.5, True, False, [],
                                     10 ** 12, HUGE_INT, np.float64(3)],
                         ids=["-1", "0", "text", "float", "True", "False", "list", "trillion",
                              "huge", "np-float"])
def test_hint_and_monte_carlo_refuse_samples_that_are_not_a_positive_count(samples):
    deal = cl.Deal(cl.Rules.court_piece(), seed=2)
    deal.call_trump("S")
    message = _refused(lambda: cl.hint(deal, samples=samples))
    assert "samples" in message
    assert "samples" in _refused(lambda: cl_bots.MonteCarloBot(samples=samples))


def test_hint_takes_numpy_counts_and_the_default():
    deal = cl.Deal(cl.Rules.court_piece(), seed=2)
    deal.call_trump("S")
    assert cl.hint(deal, samples=np.int64(6)).card in deal.legal_cards()
    assert cl_bots.MonteCarloBot(samples=None).samples == cl_bots.DEFAULT_SAMPLES


@pytest.mark.parametrize("seed", [2.5, [1], {}, b"x", HUGE_INT, True],
                         ids=["float", "list", "dict", "bytes", "huge", "bool"])
def test_hint_and_bots_refuse_a_seed_they_cannot_use(seed):
    deal = cl.Deal(cl.Rules.court_piece(), seed=2)
    deal.call_trump("S")
    assert "seed" in _refused(lambda: cl.hint(deal, samples=4, seed=seed))
    assert "seed" in _refused(lambda: cl_bots.MonteCarloBot(seed=seed))
    assert "seed" in _refused(lambda: cl_bots.RandomBot(seed=seed))


# ------------------------------------------------------ answers to checks never raise
def _printed_check(capsys, check, answer):
    fb = check(answer)
    out = capsys.readouterr().out
    assert len(out) < LONG and len(fb.message) < LONG, fb.message[:LONG]
    return fb


@pytest.mark.parametrize("answer", BAD + [["Z" * 1000] * 1000], ids=BAD_IDS + ["list-huge"])
@pytest.mark.parametrize("kind", ["trick_winner", "legal_cards", "spot_the_revoke",
                                  "pile_capture", "court_or_not", "next_dealer", "tens_winner"])
def test_an_exercise_answers_any_answer_in_a_line(kind, answer, capsys, monkeypatch):
    monkeypatch.delenv("COURTLEARN_STRICT", raising=False)
    q = cl.exercises.question(kind, 1)
    capsys.readouterr()
    fb = _printed_check(capsys, q.check, answer)
    assert fb.correct in (True, False, None)


def test_puzzle_check_reads_a_numpy_array_of_card_texts(capsys):
    """Item 11: numpy's truth-value message came back, and the try was counted."""
    from courtlearn.puzzles import progress_file
    p = cl.puzzles.puzzle(1, 1)
    line = [c.code for c in p.winning_line()]
    fb = _printed_check(capsys, lambda a: p.check(a, record=False), np.array(line))
    assert fb.correct is True
    assert p.check(tuple(line), quiet=True, record=False).correct is True
    assert p.check(iter(line), quiet=True, record=False).correct is True
    tries = progress_file.load()
    fb = p.check(np.array([[1, 2], [3, 4]]), quiet=True)
    assert fb.correct is None and progress_file.load() == tries     # not a try


@pytest.mark.parametrize("answer", BAD + [["Z" * 1000] * 1000], ids=BAD_IDS + ["list-huge"])
def test_puzzle_check_answers_any_answer_in_a_line(answer, capsys):
    p = cl.puzzles.puzzle(1, 1)
    fb = _printed_check(capsys, lambda a: p.check(a, record=False), answer)
    assert fb.correct in (False, None)
