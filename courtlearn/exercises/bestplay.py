"""Best card with all hands shown: a position near the end of a deal with every hand
face up, checked against :func:`courtlearn.solve` (exact best play, pure Python: it
needs no numpy and runs in the browser-only site).

A card is correct when, with perfect play by all four from there, it scores as much
for South's side as the best card does (issue 30): the deal won or lost, a court, a
goon court, a kot (:mod:`courtlearn.stakes`). The solver counts tricks in Court Piece
and Double Sir (the centre pile captured as the engine captures it) and tens in Dehla
Pakad; a card that gives away a trick (or a ten) the result does not need is as good as
any, and the check says so plainly.

Positions come from seeded deals played by :class:`courtlearn.bots.RuleBot` to four
or five tricks from the end, South to play with at least three lawful cards, and
only where the choice matters: some lawful card changes what is scored, and no more
than half of them are best.
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
          "its best. The best card gets your side the best score: the deal won, a court, a kot. "
          "A trick (or a ten) more or less that changes none of these changes nothing.")
VIEWER = 0
MIN_LEGAL = 3
GAMES = ("court_piece", "double_sir", "dehla_pakad")
SEARCH_DEALS = 120


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
                f"<p><b>{html.escape(self.prompt)}</b>{helptext}</p>{self._reveal_html()}</div>")


def _count(n: int, unit: str) -> str:
    if unit == "ten":
        return trn("{n} ten", "{n} tens", n)
    return trn("{n} trick", "{n} tricks", n)


def best_card_question(deal, number=None, seed=None) -> Question:
    """The question at ``deal`` for the seat to play, checked against ``cl.solve`` and
    what each card's count scores (:func:`courtlearn.stakes.stakes`)."""
    from courtlearn.stakes import stakes
    rules = deal.rules
    seat = deal.to_play
    name = rules.seat_name(seat)
    team = rules.team_name(cl.team_of(seat))
    sol = cl.solve(deal, using="python")
    values = sol.values
    worth = stakes(deal, values)
    top = max(s.key for s in worth.values())
    low = min(s.key for s in worth.values())
    best = [c for c in values if worth[c].key == top]      # high count first, as solve's
    unit = "ten" if sol.measure == "tens" else "trick"
    legal = list(deal.legal_cards())

    def scores(card) -> str:
        """"North–South win the deal (8 tricks)"."""
        return tr("{result} ({count} for {side})", result=worth[card].words(rules),
                  count=_count(values[card], unit), side=team)

    def judge(answer):
        card = read_card(answer)
        if card not in values:
            try:
                deal.copy().play(card)
            except cl.IllegalPlay as exc:
                return False, str(getattr(exc, "reason", exc))
            return False, tr("{card} is not one of the cards {seat} may play: {cards}.", card=card,
                             seat=name, cards=list_cards(legal))
        if worth[card].key == top:
            others = [c for c in best if c != card]
            msg = tr("with {card} and best play from everyone, {result}", card=card,
                     result=scores(card))
            if others:
                msg = trn("{sentence}; {cards} does as well", "{sentence}; {cards} do as well",
                          len(others), sentence=msg, cards=list_cards(others))
            more = max(values[c] for c in best)
            if values[card] < more:
                msg = tr("{sentence} ({card} gives away {count} with best play, which changes "
                         "nothing)", sentence=msg, card=card,
                         count=_count(more - values[card], unit))
            if low < top:
                bad = [c for c in values if worth[c].key == low]
                msg = tr("{sentence}. With {cards}, {result}", sentence=msg,
                         cards=list_cards(bad), result=scores(bad[0]))
            return True, tr("{sentence}.", sentence=msg)
        return False, trn("with {card}, {result} at best; {cards} does better. Look at what "
                          "each opponent still holds in the suits you could lead or follow.",
                          "with {card}, {result} at best; {cards} do better. Look at what each "
                          "opponent still holds in the suits you could lead or follow.",
                          len(best), card=card, result=scores(card), cards=list_cards(best))

    reason = tr("Play {cards}: with best play {result}.", cards=list_cards(best),
                result=scores(best[0]))
    q = BestCardQuestion(KIND, deal, tr("Which card gets your side the best result?"),
                         str(best[0]), reason, judge, text=situation(deal, [0, 1, 2, 3]),
                         number=number, seed=seed,
                         answer_help=tr('You are {seat}; every hand is shown. The result is what '
                                        'is scored: the deal won or lost, a court, a kot. Answer '
                                        'with a card from your hand, like "K♥" or "KH".',
                                        seat=name))
    q.extra.update(seat=seat, solution=sol, legal=legal, stakes=worth, best=best,
                   hint_text=tr("Every hand is shown: for each card you may play, follow the "
                                "tricks to the end, each side playing its best. What counts is "
                                "what is scored: the deal, a court, a kot."))
    return q


# --------------------------------------------------------------------------
# Finding positions where the choice matters


def good(deal) -> bool:
    """South to play, at least three lawful cards, a choice that changes what is scored
    (the deal, a court, a kot), and no more than half of the cards best."""
    from courtlearn.stakes import stakes
    if deal.phase != "play" or deal.to_play != VIEWER or len(deal.legal_cards()) < MIN_LEGAL:
        return False
    worth = stakes(deal, cl.solve(deal, using="python").values)
    keys = [s.key for s in worth.values()]
    if not all(s.known and s.winner is not None for s in worth.values()):
        return False
    top = max(keys)
    return min(keys) < top and 2 * keys.count(top) <= len(keys)


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
# still has a choice that changes what is scored). Issue 30 replaced questions 2, 3, 4 and
# 6, whose choices changed only tricks that scored nothing (9 or 8 tricks, won either way;
# 5 or 2, lost either way)
BEST_CARD_FIXED = [
    # Court Piece, five tricks left, South leads: 8♠ or 10♣ win the deal, 7 tricks to 6
    _fixed("court_piece", 1, 845383603,
           "call:H AD 4D 8D 3D KD 6D 9D 5D AH 4H 6H 2H 3C 6C KC JC AC QC 4C 8C QD 7H 2D JD AS "
           "5S 6S 2S 3S 9S JS KS"),
    # Court Piece, five tricks left, South plays last to the trick: a heart wins the deal,
    # a club loses it
    _fixed("court_piece", 3, 329140128,
           "call:C AS 3S 2S 7S AD 2D 5D 3D KS 10S 6S 8S 4S QS JS 4H KD 7D 4D 5C 9S 4C 2H 5H QD "
           "8D 6D 6C 5S 9C 9H 6H JD 2C 10D"),
    # Double Sir, four tricks left, South leads: only the 6♣ takes all thirteen, a court
    _fixed("double_sir", 1, 331267956,
           "call:H AH 8H 4H 2H KH JH 5H 3H QH 2D 10H 7H 9H 3C 3S 2C 6H 5S 5C 3D 2S 7S AS 4S AC "
           "4C 7C 10C KC 8C 9C JC QC 6S 4D 8D"),
    # Double Sir, four tricks left, South leads: the deal is lost, but only the 9♠ stops a
    # court against North–South
    _fixed("double_sir", 2, 315363885,
           "call:S AS 7S KS 3S QS 8S 2D 10S 2C AC 4C 9C 4D AD 3D JD KC QC 3C 6C 4H AH 6H 2H KD "
           "2S 8D 6D JC 7C 5C JS 3H 9H QH 7H"),
    # Dehla Pakad, five tricks left, South leads: three tens or one
    _fixed("dehla_pakad", 1, 410757278,
           "call:S AS 3S 5S 4S 2H 6H KH 8H AH QH 4H 7S 6C 2C 3C 8C 2D 3D 9D JD AC 5C 10C 9C AD "
           "7D 4D KD KC QC 7C KS"),
    # Dehla Pakad, four tricks left, South plays third: a kot, the deal, or the deal lost
    _fixed("dehla_pakad", 2, 164789433,
           "call:D 3S 6S 9S 10S AS 4S 7S 2S 3C 10C AC 2C AH 2H 4H 9H AD 6D 8D 3D 3H 5H 6H JH KH "
           "QH 8H 7H 5S 8S KS QD 4C 4D 7C 5C QS"),
]

__all__ = ["KIND", "TITLE", "RULE", "BEST_CARD_FIXED", "best_card_question", "best_card_seeded",
           "search", "good"]
