"""Real table states for the plain-page tests, made by CardTable itself: a Court Piece deal
whose every hand holds thirteen cards when South is to lead, the same with every hand face
up, South to follow a diamond lead (lawful and unlawful cards), the hint on show, the
"Best play" marks, a Double Sir centre pile, a finished deal, and Urdu and Hindi tables."""
from __future__ import annotations

import functools
import json

import courtlearn as cl
from courtlearn.widgets import CardTable

from plainpage import FONT_URLS

HANDS = [
    "AS KS QS JS 2C  5D 6D 7D 8D  10S 9S 8S 7S",   # South (the viewer)
    "AC KC QC JC 10C  9C 8C 7C 6C  5C 4C 3C KD",   # East
    "AH KH QH JH 10H  9H 8H 7H 6H  5H 4H 3H 2H",   # North
    "AD QD JD 10D 9D  4D 3D 2D 6S  5S 4S 3S 2S",   # West
]


def _deal(moves: str = "call:S"):
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=HANDS, dealer=3)
    if moves:
        deal.apply(moves)
    return deal


def _state(table) -> dict:
    return json.loads(json.dumps(table.state))


@functools.cache
def states() -> dict:
    """{name: {"state": ..., "fonts": {...}}} for the plain page (made once; do not change)."""
    out = {}

    def add(name, table, lang="en"):
        body = {"state": _state(table)}
        if lang != "en":
            body["fonts"] = FONT_URLS
        out[name] = body

    add("lead", CardTable(_deal(), seat=0, animate=False))
    add("lead_all", CardTable(_deal(), seat=0, show_all=True, animate=False))
    follow = "call:S 2C AC 2H 2D KD 3H AD"
    add("follow", CardTable(_deal(follow), seat=0, animate=False))
    add("follow_all", CardTable(_deal(follow), seat=0, show_all=True, animate=False))
    t = CardTable(_deal(), seat=0, animate=False)
    t.hint()
    add("hint", t)
    t = CardTable(_deal(), seat=0, show_all=True, animate=False)
    t.best_play = True
    add("best_play", t)
    ds = cl.Deal(cl.Rules.double_sir(), dealer=3, seed=3)
    while ds.phase != "over" and not (ds.centre and ds.to_play == 0 and ds.trick.cards):
        cl.bots.act(cl.bots.RuleBot(), ds)
    add("double_sir", CardTable(ds, seat=0, animate=False))
    ds = cl.Deal(cl.Rules.double_sir(), dealer=3, seed=3)  # the last trick beside the centre
    while ds.phase != "over" and not (len(ds.centre) >= 2 and ds.tricks and not ds.trick.cards):
        cl.bots.act(cl.bots.RuleBot(), ds)
    add("double_sir_last", CardTable(ds, seat=0, animate=False))
    over = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=8)
    while over.phase != "over":
        cl.bots.act(cl.bots.RuleBot(), over)
    add("over", CardTable(over, seat=0, animate=False))
    for lang in ("ur", "hi"):
        add(f"lead_all_{lang}", CardTable(_deal(), seat=0, show_all=True, animate=False,
                                          language=lang), lang)
        t = CardTable(_deal(), seat=0, animate=False, language=lang)
        t.hint()
        add(f"hint_{lang}", t, lang)
    # animated: the trick just completed flies to its pile (English and Urdu), the deal's
    # very last trick, and the same sweep drawn before the stylesheet arrived
    for lang in ("en", "ur"):
        t = CardTable(_deal("call:S 2C AC 2H"), seat=0, language=lang)
        t.play("2D")
        add(f"sweep_{lang}", t, lang)
        out[f"sweep_{lang}"]["animate"] = True
    t = CardTable(_deal("call:S 2C AC 2H"), seat=0)
    t.play("2D")
    out["sweep_late_css"] = {"state": _state(t), "animate": True, "css": "late"}
    t = CardTable(_last_trick_to_come(), seat=0)
    t.step()
    assert t.deal.phase == "over" and t.state["frames"][-1]["last"]["fresh"]
    out["last_sweep"] = {"state": _state(t), "animate": True}
    return out


def _last_trick_to_come():
    """A Court Piece deal played by bots up to its very last card."""
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=8)
    while deal.phase != "over":
        cl.bots.act(cl.bots.RuleBot(), deal)
    return deal.replay(len(deal.actions) - 1)
