"""The pictures of one moment share what every seat sees alike (issue 29, Speed): a core
Table keeps, per state of the deal and language, the sentences its four windows would
each have made (the title, the trump's note, the score, the result, an event's text).

Checked here: at every step of random deals each window's picture is exactly the one
made without the shared part (core.snapshot from the viewer's own view), through moves,
bots' moves, revoke claims and corrections, undo, a new deal, the same deal dealt again
and the same Deal object put back; with windows in three languages at one table; and no
window's picture ever holds a card of another seat's hand.
"""
from __future__ import annotations

import random

import pytest

import courtlearn as cl
from courtlearn.language import using
from courtlearn.widgets import core

RULES = [cl.Rules.court_piece(revokes="allowed"),
         cl.Rules.court_piece(trump_method="hidden"),
         cl.Rules.double_sir(revokes="allowed"),
         cl.Rules.dehla_pakad(trump_method="first_void")]


def _afresh(window: core.Seat, prev):
    """The window's picture made without the table's shared part."""
    with using(window.language):
        return core.snapshot(window.deal, window.seat, show_all=window.show_all,
                             session=window.table.score, prev=prev, players=window.players,
                             hints=window.hints, controls=window.controls,
                             connected=window.connected, with_words=not window.lean)


def _look(windows, order) -> int:
    """Every window's picture, in ``order``, against the one made afresh; and no card of
    another seat's hand in it."""
    deal = windows[0].deal
    for s in order:
        w = windows[s]
        w._follow()                       # (a window forgets its last picture at an undo)
        prev = w.last
        got = w.snapshot()
        assert got == _afresh(w, prev), (s, deal.actions)
        text = repr(got)
        for other in range(4):
            if other != s:
                assert got["seats"][other]["hand"] is None
                mine = {c.code for c in deal.hand(s)}
                for c in deal.hand(other):
                    if c.code not in mine:
                        assert f"'{c.code}'" not in repr(got["seats"]), (s, other, c)
        assert text
    return len(order)


def _move(windows, rng) -> bool:
    """One random move of any seat through its window (claims rarely: they end the deal)."""
    deal = windows[0].deal
    options = []
    for seat in range(4):
        for m in deal.moves(seat):
            if m.kind == "play":
                options += [(seat, {"type": "play", "card": c.code}) for c in m.cards]
            elif m.kind == "call_trump":
                options += [(seat, {"type": "call_trump", "suit": x.letter}) for x in m.suits]
            elif m.kind == "choose_trump_card":
                options += [(seat, {"type": "choose_trump_card", "card": c.code})
                            for c in m.cards]
            elif m.kind != "defer_trump":
                options.append((seat, {"type": m.kind}))
    if not options:
        return False
    rest = [o for o in options if o[1]["type"] != "claim_revoke"]
    seat, msg = rng.choice(rest if rest and rng.random() < 0.97 else options)
    windows[seat].handle(msg)
    return True


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.game}-{r.trump_method}-{r.revokes}")
def test_every_picture_equals_the_one_made_afresh(rules):
    rng = random.Random(7)
    session = cl.Session(rules, seed=11, dealer=2)
    table = core.Table(session)
    windows = [core.Seat(table, s, hints=True, language=lang, players=["A", "B", "C", "D"])
               for s, lang in enumerate(("en", "ur", "en", "hi"))]
    windows[2].lean = True
    looked = 0
    for round_ in range(3):
        for _ in range(120):
            r = rng.random()
            if r < 0.05:
                table.undo_person()
            elif r < 0.08 and not table.deal.over:     # bots answer for a while
                table.bots = {s: cl.bots.RuleBot() for s in (1, 3)}
                table.run_bots(lambda: _look(windows, rng.sample(range(4), 4)))
                table.bots = None
            elif not _move(windows, rng):
                break
            if rng.random() < 0.8:
                looked += _look(windows, rng.sample(range(4), rng.randint(1, 4)))
        looked += _look(windows, range(4))
        deal = table.deal
        if round_ == 0:                     # the same deal dealt again (a fresh Deal)
            session.deal = cl.Deal(rules, dealer=deal.dealer, seed=deal.seed)
            table.set(session)
        elif deal.over:
            table.new_deal()
        else:                               # the same Deal object put back on the table
            table.set(session)
        looked += _look(windows, range(4))
    assert looked > 200


def test_the_score_and_the_result_follow_the_session():
    """A finished deal's result and the next deal's score line, whichever window asks
    first."""
    session = cl.Session(cl.Rules.court_piece(), seed=3, dealer=0)
    table = core.Table(session, bots={s: cl.bots.RuleBot() for s in range(4)})
    windows = [core.Seat(table, s, language=("en", "ur")[s % 2]) for s in range(4)]
    for n in range(3):
        table.run_bots()
        assert table.deal.over
        for order in ((0, 1, 2, 3), (3, 2, 1, 0)):
            for s in order:
                windows[s]._follow()
                prev = windows[s].last
                assert windows[s].snapshot() == _afresh(windows[s], prev)
        assert windows[0].snapshot()["result"] and windows[1].snapshot()["result"] != \
            windows[0].snapshot()["result"]                        # Urdu, not English
        table.new_deal()
        for s in range(4):
            windows[s]._follow()
            prev = windows[s].last
            assert windows[s].snapshot() == _afresh(windows[s], prev)
            assert windows[s].snapshot()["score"] == _afresh(windows[s], None)["score"]
