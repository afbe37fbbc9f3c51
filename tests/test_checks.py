"""The deal is the one judge: verify_X / can_X / moves / actor agree with the actions themselves.

For random seeded deals of every game and variant, at every step, every candidate input of
every action is tried three ways: ``verify_X`` (raises exactly what ``X`` raises, same class
and sentence, and changes nothing), ``can_X`` (True iff ``X`` is accepted) and ``X`` itself on
a copy (which returns exactly the events it appended). ``moves(seat)`` must list exactly the
accepted inputs, and ``actor`` the seat the deal waits for.
"""
from __future__ import annotations

import random

import pytest

import courtlearn as cl

SUITS = list(cl.Suit)
DECK = cl.deck()

VARIANTS = [
    cl.Rules.court_piece(),
    cl.Rules.court_piece(trump_method="shown", revokes="allowed"),
    cl.Rules.court_piece(trump_method="hidden", stop_when_decided=False),
    cl.Rules.court_piece(trump_method="hidden_random", revokes="allowed"),
    cl.Rules.court_piece(allow_deferred=True, deferred_card="numbered"),
    cl.Rules.double_sir(),
    cl.Rules.double_sir(trump_method="first_void", revokes="allowed"),
    cl.Rules.double_sir(allow_deferred=True),
    cl.Rules.dehla_pakad(),
    cl.Rules.dehla_pakad(trump_method="first_void"),
]


def _inputs(kind):
    """Every input worth trying for an action (good and bad)."""
    if kind in ("play", "choose_trump_card"):
        return [(c,) for c in DECK] + [("ZZ",)]
    if kind == "call_trump":
        return [(s,) for s in SUITS] + [("X",)]
    if kind == "defer_trump":
        return [(None,)] + [(n,) for n in range(4, 16)]
    if kind == "claim_revoke":
        return [(s,) for s in range(4)] + [(7,)]
    if kind == "correct_revoke":        # the earliest revoke, or a seat's own
        return [()] + [(s,) for s in range(4)] + [(7,)]
    return [()]


KINDS = ["play", "call_trump", "choose_trump_card", "defer_trump", "ask_for_trump",
         "correct_revoke", "claim_revoke", "play_on"]


def _outcome(fn, *args):
    try:
        return ("ok", fn(*args))
    except ValueError as err:
        return (type(err), str(err))


def _check_position(deal: cl.Deal):
    before = deal.to_dict()
    events_before = deal.events
    accepted = {k: set() for k in KINDS}
    for kind in KINDS:
        for args in _inputs(kind):
            verdict = _outcome(getattr(deal, "verify_" + kind), *args)
            assert deal.to_dict() == before and deal.events == events_before
            can = getattr(deal, "can_" + kind)(*args)
            assert deal.to_dict() == before
            trial = deal.copy()
            n = len(trial.events)
            done = _outcome(getattr(trial, kind), *args)
            if done[0] == "ok":
                assert verdict == ("ok", verdict[1]) and can, (kind, args)
                assert done[1] == trial.events[n:] and isinstance(done[1], list)
                assert all(isinstance(e, cl.Event) for e in done[1])
                accepted[kind].add(args)
            else:
                assert verdict == done, (kind, args, verdict, done)
                assert not can
    # moves: exactly what is accepted, seat by seat (play / trump moves are the actor's)
    offered = {k: set() for k in KINDS}
    for seat in range(4):
        for m in deal.moves(seat):
            if m.kind in ("play", "choose_trump_card"):
                offered[m.kind] |= {(c,) for c in m.cards}
                assert seat == deal.actor
            elif m.kind == "call_trump":
                offered[m.kind] |= {(s,) for s in m.suits}
                assert seat == deal.actor
            elif m.kind == "defer_trump":
                offered[m.kind] |= {(x,) for x in m.numbers}
            elif m.kind in ("claim_revoke", "correct_revoke"):
                offered[m.kind].add((seat,))
            else:
                offered[m.kind].add(())
    if accepted["correct_revoke"]:       # correct_revoke(): the earliest revoke, whoever asks
        offered["correct_revoke"].add(())
    for kind in KINDS:
        assert offered[kind] == accepted[kind], (kind, offered[kind], accepted[kind])
    # the actor
    phase = str(deal.phase)
    assert deal.actor == {"trump": deal.trump_caller, "play": deal.to_play, "over": None}[phase]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.to_text())
def test_checks_agree_with_actions(rules):
    rng = random.Random(rules.to_text())
    for deal_no in range(2):
        deal = cl.Deal(rules, dealer=rng.randrange(4), seed=rng.randrange(10**6))
        steps = 0
        while steps < 70:
            _check_position(deal)
            moves = [(m, seat) for seat in range(4) for m in deal.moves(seat)]
            if not moves:
                break
            m, seat = rng.choice(moves)
            if m.kind in ("play", "choose_trump_card"):
                arg = (rng.choice(m.cards),)
            elif m.kind == "call_trump":
                arg = (rng.choice(m.suits),)
            elif m.kind == "defer_trump":
                arg = (rng.choice(m.numbers),)
            elif m.kind in ("claim_revoke", "correct_revoke"):
                arg = (seat,)
            else:
                arg = ()
            n = len(deal.events)
            added = getattr(deal, m.kind)(*arg)
            assert added == deal.events[n:] and added
            steps += 1


def test_move_records_are_frozen_and_plain():
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    (m,) = deal.moves(0)
    assert m.kind == "call_trump" and m.suits == tuple(cl.Suit)
    with pytest.raises(Exception):
        m.kind = "play"
    assert repr(m) == "Move('call_trump', suits='S H C D')"
    assert deal.moves(1) == [] and deal.actor == 0
    with pytest.raises(ValueError, match="is not a kind of move"):
        cl.Move("jump")


def test_verify_play_names_the_rule_and_changes_nothing():
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    deal.call_trump("S")
    lead = deal.legal_cards()[0]
    deal.play(lead)
    east = deal.hand(1)
    off = [c for c in east if c.suit != lead.suit]
    follow = [c for c in east if c.suit == lead.suit]
    assert follow and off
    before = deal.to_dict()
    with pytest.raises(cl.IllegalPlay) as verified:
        deal.verify_play(off[0])
    with pytest.raises(cl.IllegalPlay) as played:
        deal.play(off[0])
    assert str(verified.value) == str(played.value) and "were led" in str(played.value)
    assert deal.to_dict() == before
    assert not deal.can_play(off[0]) and deal.can_play(follow[0])
    with pytest.raises(cl.CardError):
        deal.verify_play("1Z")


def test_play_on_is_offered_to_the_winners_only():
    rules = cl.Rules.court_piece()
    for seed in range(400):
        deal = cl.Deal(rules, dealer=3, seed=seed)
        deal.call_trump(deal.hand(0)[0].suit)
        while deal.phase == "play":
            deal.play(deal.legal_cards()[0])
        if deal.can_play_on():
            break
    else:
        pytest.skip("no court in 400 seeded deals")
    winners = [s for s in range(4) if cl.team_of(s) == deal.result.winner]
    for seat in range(4):
        kinds = [m.kind for m in deal.moves(seat)]
        assert ("play_on" in kinds) == (seat in winners)
    assert deal.actor is None
    added = deal.play_on()
    assert [e.kind for e in added] == ["play_on"] and deal.actor == deal.to_play


def test_events_are_typed_records_that_pickle():
    import copy
    import pickle
    deal = cl.Deal(cl.Rules.double_sir(), dealer=3, seed=7)
    deal.call_trump("H")
    while len(deal.tricks) < 2:
        deal.play(deal.legal_cards()[0])
    evs = deal.events
    kinds = {type(e).__name__: e.kind for e in evs}
    assert kinds["Played"] == "play" and kinds["TrickWon"] == "trick"
    played = next(e for e in evs if e.kind == "play")
    assert played.data == (played.led, played.trump) and played.audience is None
    assert pickle.loads(pickle.dumps(evs)) == evs
    assert copy.deepcopy(evs) == evs
    assert [e.text for e in pickle.loads(pickle.dumps(evs))] == [e.text for e in evs]
