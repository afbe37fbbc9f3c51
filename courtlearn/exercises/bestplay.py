"""Best card with all hands shown: a position near the end of a deal with every hand
face up, checked against :func:`courtlearn.solve` (exact best play, pure Python: it
needs no numpy and runs in the browser-only site).

A card is correct when, with perfect play by all four from there, it keeps as much
for South's side as the best card does: tricks in Court Piece and Double Sir (the
centre pile captured as the engine captures it), tens in Dehla Pakad.

Positions come from seeded deals played by :class:`courtlearn.bots.RuleBot` to four
or five tricks from the end, South to play with at least three lawful cards, and
only where the choice matters: some lawful card gives away at least one trick (or
ten) and no more than half of them are best.
"""
from __future__ import annotations

import html
import random

import courtlearn as cl

from ..explain import list_cards
from ..language import N_, tr, trn
from ..render import title_html
from ._base import Question, read_card, situation

KIND = "best_card"
TITLE = N_("Best card with all hands shown")
RULE = N_("With every hand face up there is no guessing: each card's result can be worked out "
          "exactly by following every way the rest of the deal can go, each side always choosing "
          "its best. The best card keeps the most tricks (or tens) for your side.")
VIEWER = 0
MIN_LEGAL = 3
GAMES = ("court_piece", "double_sir", "dehla_pakad")
SEARCH_DEALS = 40


class BestCardQuestion(Question):
    """A Question whose picture shows all four hands."""

    def _repr_html_(self) -> str:
        try:
            from courtlearn.render import deal_html
            pic = deal_html(self.deal, seat=VIEWER, show_all=True)
        except Exception:  # no picture: the text says it all
            pic = ""
        helptext = f"<br><small>{html.escape(self.answer_help)}</small>" if self.answer_help else ""
        return (f"<div class=\"courtlearn-question\">{title_html(self.title)}{pic}"
                f"<pre>{html.escape(self.text)}</pre>"
                f"<p><b>{html.escape(self.prompt)}</b>{helptext}</p></div>")


def _count(n: int, unit: str) -> str:
    if unit == "ten":
        return trn("{n} ten", "{n} tens", n)
    return trn("{n} trick", "{n} tricks", n)


def best_card_question(deal, number=None, seed=None) -> Question:
    """The question at ``deal`` for the seat to play, checked against ``cl.solve``."""
    rules = deal.rules
    seat = deal.to_play
    name = rules.seat_name(seat)
    team = rules.team_name(cl.team_of(seat))
    sol = cl.solve(deal, using="python")
    values = sol.values
    top = max(values.values())
    best = sol.best
    unit = "ten" if sol.measure == "tens" else "trick"
    legal = list(deal.legal_cards())
    weakest = min(values.values())

    def judge(answer):
        card = read_card(answer)
        if card not in values:
            try:
                deal.copy().play(card)
            except cl.IllegalPlay as exc:
                return False, str(getattr(exc, "reason", exc))
            return False, tr("{card} is not one of the cards {seat} may play: {cards}.", card=card,
                             seat=name, cards=list_cards(legal))
        v = values[card]
        if v == top:
            others = [c for c in best if c != card]
            msg = tr("with {card} and best play from everyone, {side} end the deal with {count}",
                     card=card, side=team, count=_count(v, unit))
            if others:
                msg = trn("{sentence}; {cards} does as well", "{sentence}; {cards} do as well",
                          len(others), sentence=msg, cards=list_cards(others))
            if weakest < top:
                bad = [c for c, x in values.items() if x == weakest]
                msg = tr("{sentence}. The weakest, {cards}, would leave {count}", sentence=msg,
                         cards=list_cards(bad), count=_count(weakest, unit))
            return True, tr("{sentence}.", sentence=msg)
        return False, trn("with {card} {side} end the deal with {count} at best; {cards} keeps "
                          "{top}. Look at what each opponent still holds in the suits you could "
                          "lead or follow.",
                          "with {card} {side} end the deal with {count} at best; {cards} keep "
                          "{top}. Look at what each opponent still holds in the suits you could "
                          "lead or follow.", len(best), card=card, side=team,
                          count=_count(v, unit), cards=list_cards(best), top=_count(top, unit))

    q = BestCardQuestion(KIND, deal, tr("Which card keeps the most for your side?"), str(best[0]),
                         sol.text, judge, text=situation(deal, [0, 1, 2, 3]), number=number,
                         seed=seed,
                         answer_help=tr('You are {seat}; every hand is shown. Answer with a card '
                                        'from your hand, like "K♥" or "KH".', seat=name))
    q.extra.update(seat=seat, solution=sol, legal=legal)
    return q


# --------------------------------------------------------------------------
# Finding positions where the choice matters


def good(deal) -> bool:
    """South to play, at least three lawful cards, a choice that matters."""
    if deal.phase != "play" or deal.to_play != VIEWER or len(deal.legal_cards()) < MIN_LEGAL:
        return False
    values = cl.solve(deal, using="python").values
    top = max(values.values())
    best = [c for c, v in values.items() if v == top]
    return min(values.values()) < top and 2 * len(best) <= len(values)


def search(rng: random.Random, game: str, deals: int = SEARCH_DEALS):
    """The first good position from deals drawn with ``rng`` (4 or 5 tricks left)."""
    rules = getattr(cl.Rules, game)(stop_when_decided=False)
    bot = cl.bots.RuleBot()
    for _ in range(deals):
        deal = cl.Deal(rules, dealer=rng.randrange(4), seed=rng.randrange(10**9))
        left = rng.choice((4, 5))
        while deal.phase != "over" and 13 - len(deal.tricks) > left - 1:
            if 13 - len(deal.tricks) <= left and good(deal):
                return deal
            cl.bots.act(bot, deal)
    raise RuntimeError(f"no position where South's choice matters in {deals} deals")


def best_card_seeded(seed: int) -> Question:
    rng = random.Random(f"{KIND}/{seed}")
    game = GAMES[rng.randrange(len(GAMES))]
    return best_card_question(search(rng, game), seed=seed)


def _fixed(game: str, dealer: int, deal_seed: int, moves: str):
    def build(number):
        deal = cl.Deal(getattr(cl.Rules, game)(stop_when_decided=False), dealer=dealer,
                       seed=deal_seed)
        deal.apply(moves)
        return best_card_question(deal, number=number)
    return build


# Frozen positions (found with ``search``; tests/test_exercise_bestplay.py checks each
# still has a choice that matters)
BEST_CARD_FIXED = [
    # Court Piece, five tricks left, South leads: two cards keep 7 tricks, three give one away
    _fixed("court_piece", 1, 845383603,
           "call:H AD 4D 8D 3D KD 6D 9D 5D AH 4H 6H 2H 3C 6C KC JC AC QC 4C 8C QD 7H 2D JD AS "
           "5S 6S 2S 3S 9S JS KS"),
    # Court Piece, four tricks left, South plays third: only the A♦ keeps 9
    _fixed("court_piece", 0, 999743024,
           "call:D 2C 6C AC 3C AH 2H 4H 9H 4S 2S 6S 10S AS 5S 8S 9S KH 5H 3H 6H QH 8D 7H JH KS "
           "3D JS 3S 10H 4D 5D QD 5C 8C QC 2D QS 7S"),
    # Double Sir, five tricks left, South leads: the pile is at stake (11, 7 or 4 tricks)
    _fixed("double_sir", 2, 123586827,
           "call:S AH 2H 3H 4H AD 3D 2D 4D AS 8S 7S 2S 9H KH 6H 5C 5H 8H 5S 10H AC 3C 2C 4C KC "
           "QC 7C 8C JC 3S 10S 9C"),
    # Double Sir, five tricks left, South plays last to the trick
    _fixed("double_sir", 3, 827660040,
           "call:C 4S 2S 5S 3S AS 3C 6S KS 2D 4D 8D 9D AD 3D JD 2C AH 2H 4H 6H AC 5C 4C 6C 3H 7H "
           "KH 9H 5D 8C 9C 10D QH JH 8H"),
    # Dehla Pakad, five tricks left, South leads: three tens or one
    _fixed("dehla_pakad", 1, 410757278,
           "call:S AS 3S 5S 4S 2H 6H KH 8H AH QH 4H 7S 6C 2C 3C 8C 2D 3D 9D JD AC 5C 10C 9C AD "
           "7D 4D KD KC QC 7C KS"),
    # Dehla Pakad, five tricks left, South leads
    _fixed("dehla_pakad", 3, 466695707,
           "call:H 4C 2C 5C 4H AD 3D 4D 2D AH 3H 2H 10H KH 6H 9H 2S 5S 3S 8S QS AC 5H 6C 3C 6S "
           "7H 9S 4S KD 6D JD 5D"),
]

__all__ = ["KIND", "TITLE", "RULE", "BEST_CARD_FIXED", "best_card_question", "best_card_seeded",
           "search", "good"]
