"""What would you play here?  A real mid-deal position, checked against the hint.

Unlike the rule kinds, this question has no single lawful answer: any legal
card may be played.  The check asks :func:`courtlearn.bots.hint` (a Monte
Carlo bot that plays the rest of the deal out many times, from what the seat
can see) how often the learner's side wins the deal with each legal card, and
compares the learner's card with the best one.  The hint's seed is fixed per
question, so the same question always gets the same verdict.

The positions are played by :class:`courtlearn.bots.RuleBot` from a seeded
deal up to a moment when South is to play with at least three legal cards, and
only positions where the choice matters are asked: the best card wins the deal
clearly more often than the worst one, and stays the best with other hint
seeds.  The estimates run with or without numpy (see :data:`courtlearn.bots.PLAYOUTS`).
"""
from __future__ import annotations

import html
import random

import courtlearn as cl

from ..explain import list_cards
from ..language import N_, tr
from ..render import title_html
from ._base import Question, read_card, situation

KIND = "what_to_play"
VIEWER = 0                 # the learner sits South, as at the live table
HINT_SEED = 0              # the seed of the hint a question is checked against
CHECK_SEEDS = (1, 2)       # other hint seeds under which the best card must stay best
MARGIN = 0.05              # a card this close to the best chance counts as correct
MIN_SPREAD = 0.15          # the best card must beat the worst lawful one by this much
MIN_LEGAL = 3
GAMES = ("court_piece", "double_sir", "dehla_pakad")
SEARCH_DEALS = 30          # a fresh question looks at this many deals at most
SEARCH_HINTS = 60          # ... and asks at most this many hints

def _hint(deal, seed: int):
    from courtlearn.bots import hint
    return hint(deal, seed=seed)


def _words(p: float) -> str:
    """0.7 -> 'about 7 deals in 10' (the hint's own way of saying it)."""
    from courtlearn.bots import _fraction_words
    return _fraction_words(float(p), "deal")


def spread(hint) -> float:
    values = list(hint.chances.values())
    return max(values) - min(values)


def stable(deal, hint, seeds=CHECK_SEEDS) -> bool:
    """The hint's card stays the best with the other hint seeds."""
    return all(_hint(deal, s).card == hint.card for s in seeds)


# --------------------------------------------------------------------------
# The question


class PlayQuestion(Question):
    """A Question whose picture is South's own view (other hands face down)."""

    def _repr_html_(self) -> str:
        try:
            from courtlearn.render import deal_html
            pic = deal_html(self.deal, seat=self.extra["seat"], show_all=False)
        except Exception:  # no picture: the text says it all
            pic = ""
        helptext = f"<br><small>{html.escape(self.answer_help)}</small>" if self.answer_help else ""
        return (f"<div class=\"courtlearn-question\">{title_html(self.title)}{pic}"
                f"<pre>{html.escape(self.text)}</pre>"
                f"<p><b>{html.escape(self.prompt)}</b>{helptext}</p>{self._reveal_html()}</div>")


def what_to_play_question(deal, hint=None, hint_seed: int = HINT_SEED, number=None,
                          seed=None) -> Question:
    """The question at ``deal`` for the seat to play, checked against
    ``hint`` (computed with ``hint_seed`` when not given)."""
    rules = deal.rules
    seat = deal.to_play
    name = rules.seat_name(seat)
    if hint is None:
        hint = _hint(deal, hint_seed)
    chances = dict(hint.chances)
    best = hint.card
    top = chances[best]
    worst = min(chances, key=lambda c: (chances[c], c))
    legal = list(deal.legal_cards())
    why = hint.reason

    def judge(answer):
        card = read_card(answer)
        if card not in chances:
            try:
                deal.copy().play(card)
            except cl.IllegalPlay as exc:
                return False, str(getattr(exc, "reason", exc))
            return False, tr("{card} is not one of the cards {seat} may play: {cards}.", card=card,
                             seat=name, cards=list_cards(legal))
        p = chances[card]
        if card == best or p >= top - MARGIN:
            msg = tr("with {card} your side wins {odds}", card=card, odds=_words(p))
            if card != best and p >= top:
                msg = tr("{sentence}, as often as with {best}, the hint's card ({odds})",
                         sentence=msg, best=best, odds=_words(top))
            elif card != best:
                msg = tr("{sentence}, almost as often as with {best}, the hint's card ({odds})",
                         sentence=msg, best=best, odds=_words(top))
            if worst != card:
                msg = tr("{sentence}; with {worst}, the worst choice here, {odds}",
                         sentence=msg, worst=worst, odds=_words(chances[worst]))
            return True, tr("{sentence}. The hint plays {best}: {why}", sentence=msg, best=best,
                            why=why)
        a, b = _words(p), _words(top)
        if a != b:
            msg = tr("with {card} your side wins {odds}, against {best_odds} with {best}",
                     card=card, odds=a, best_odds=b, best=best)
        else:
            msg = tr("with {card} your side wins {odds}, but a little less often than with {best}",
                     card=card, odds=a, best=best)
        return False, tr("{sentence}. The hint plays {best}: {why}", sentence=msg, best=best,
                         why=why)

    q = PlayQuestion(KIND, deal, tr(TITLE), str(best), hint.text, judge,
                     text=situation(deal, [seat]), number=number, seed=seed,
                     answer_help=tr('You are {seat}. Answer with a card from your hand, like "K♥" '
                                    'or "KH".', seat=name))
    q.extra.update(seat=seat, hint=hint, hint_seed=hint_seed, chances=chances, legal=legal,
                   hint_text=tr("Look at this trick first: can your side win it, and with which "
                                "card? Then at what each card leaves you for the tricks to "
                                "come, and at who has just won a trick."))
    return q


# --------------------------------------------------------------------------
# Finding positions where the choice matters


def _turns(deal, bot, from_trick: int):
    """Play ``deal`` on with ``bot``; yield it each time South is to play with
    at least MIN_LEGAL legal cards from trick ``from_trick + 1`` on."""
    while deal.phase != cl.Phase.OVER:
        if (deal.phase == cl.Phase.PLAY and deal.to_play == VIEWER
                and len(deal.tricks) >= from_trick and len(deal.legal_cards()) >= MIN_LEGAL):
            yield deal
        bot.act(deal)


def moves_of(deal) -> str:
    """The deal's moves so far in the form :func:`apply` replays (a trump call
    as ``call:S``), for freezing a found position as a fixed question."""
    notation = deal.to_notation()
    line = next(l for l in notation.splitlines() if l.startswith("moves:"))
    return " ".join(m for m in line[len("moves:"):].split() if m != "|")


def search(rng: random.Random, game: str, deals: int = SEARCH_DEALS, hints: int = SEARCH_HINTS):
    """The first position (from deals drawn with ``rng``) where the choice
    matters and the answer is stable; failing that, the one with the widest
    spread seen.  Returns (deal, hint)."""
    rules = getattr(cl.Rules, game)()
    bot = cl.bots.RuleBot()
    asked = 0
    fallback = None
    for _ in range(deals):
        deal = cl.Deal(rules, dealer=rng.randrange(4), seed=rng.randrange(10**9))
        for pos in _turns(deal, bot, rng.randrange(2, 8)):
            h = _hint(pos, HINT_SEED)
            asked += 1
            if fallback is None or spread(h) > spread(fallback[1]):
                fallback = (pos.copy(), h)
            if spread(h) >= MIN_SPREAD and stable(pos, h):
                return pos.copy(), h
            if asked >= hints:
                return fallback
            if rng.random() < 0.5:   # do not always ask at the first good turn
                break
    if fallback is None:
        raise RuntimeError(f"no position with {MIN_LEGAL} legal cards for South in {deals} deals")
    return fallback


def what_to_play_seeded(seed: int) -> Question:
    rng = random.Random(f"{KIND}/{seed}")
    game = GAMES[rng.randrange(len(GAMES))]
    deal, h = search(rng, game)
    return what_to_play_question(deal, h, seed=seed)


def _fixed(game: str, dealer: int, deal_seed: int, moves: str):
    def build(number):
        deal = cl.Deal(getattr(cl.Rules, game)(), dealer=dealer, seed=deal_seed)
        deal.apply(moves)
        return what_to_play_question(deal, number=number)
    return build


# Frozen positions (found with ``search``): the moves replay a seeded deal as
# RuleBot played it, up to South's turn.
WHAT_TO_PLAY_FIXED = [
    # Court Piece: win the trick with the lowest club that does it (8♣), keeping
    # Q♣ J♣ above West's last clubs
    _fixed("court_piece", 0, 4,
           "call:H AH 2H 3H 4H 4S AS 2S 8S AD 5D 8D 4D 2D 8H QD 6D AC 2C 7C 4C KC 3C 6S 6C "
           "KH 9H 7H 5H QH 10H JH 6H 5C"),
    # Court Piece: North's trump is winning the trick; throw the 10♦, keep A♦ K♦
    _fixed("court_piece", 1, 89,
           "call:H AS 5S 3S 4S AH 3H 4C 7H 2S KS 7S JS 2C 9C AC 7C KH 2H 6H 4D QH 4H 8H 5D "
           "6C JC QC 6D KC 8D 8C 5H QS 6S 10S 9H 10C 10H 3C 9D JH 5C"),
    # Double Sir: South won the last trick; win this one too and take the pile
    _fixed("double_sir", 3, 11,
           "call:H 2C AC 6C 7C AS 3S 10S 2S 5S 4S KS 3H 3C 5C JC QC KC 4C 8C JH AD 3D 2D 6D "
           "AH 5H 4H 2H KH 6H 10H 9H 4D 5D KD 6S"),
    # Double Sir: lead the Q♠ for a second trick in a row (the pile) most of the time
    _fixed("double_sir", 0, 16,
           "call:D AS 5S 3S 7S 2S KS 8S 9S AC 2C 4C 5C AD 9D 3D 5D KD 10D JD 6D 3H 6H AH 8H"),
    # Dehla Pakad: partner's trump is winning: give it your 10♣
    _fixed("dehla_pakad", 3, 31,
           "call:H 2S 3S AS 5S AH 4H 5H 2H KH 10H 6H 3H QH 6D JH 8H 9H 8S"),
    # Dehla Pakad: no clubs: trump with the 10♦ and bank the ten
    _fixed("dehla_pakad", 2, 18,
           "call:D AS 2S 10S 3S 2C 5C 6C 7C AH 10H 7H 2H AC QC 8C 4C KS 8S 5S JS 3C KC"),
    # (exercise 08's own, issue 30: the strategy lessons 17-19 ask 2-6; found with search)
    _fixed("court_piece", 1, 644452237, "call:S AS 2S 7S 8S 2D JD 4D 3D AH 3H 2H 4H AD"),
    _fixed("court_piece", 2, 770593374,
           "call:S 8H 2H 4H QH AH 9H 3H 6H AD 5D 4D 2D KH 10H JH 7S KD 3D 7D 9D 3C 6C 9C"),
    _fixed("double_sir", 1, 767736975,
           "call:C AS 3S 8S 2S KS 6S JS 5S 5D 2D 4D 7D AD 9D 6D 8D QS 4S 7S"),
    _fixed("dehla_pakad", 0, 312201030,
           "call:S AC 2C 3C 5C 5H AH 6H 7H 7D AD 3D 2D AS 3S 10S 2S KS 6S 4S QS 4D JS QD 10D"),
    _fixed("dehla_pakad", 1, 890496676, "call:S 4D 3D 7D KD 2C 5C 3S 3C AH 6H 10H 3H KH"),
]


TITLE = N_("What would you play here?")
RULE = N_("Any lawful card may be played, but they are not equally good: the hint plays the rest "
          "of the deal out many times from what you can see, with the unseen cards shared out in "
          "different ways, and counts how often your side wins the deal with each card.")
__all__ = ["KIND", "TITLE", "RULE", "WHAT_TO_PLAY_FIXED", "what_to_play_question",
           "what_to_play_seeded", "search"]
