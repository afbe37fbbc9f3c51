"""Exercises with checked answers, built on real deals.

>>> import courtlearn as cl
>>> q = cl.exercises.question("trick_winner", 1)     # a fixed question
>>> q = cl.exercises.question("trick_winner", seed=7)  # a fresh one, endless
>>> fb = q.check(q.solution)                          # doctest: +ELLIPSIS
Correct: ...

``q`` shows the table and the question, with a folded Hint and a folded Answer
under it for whoever asks (``q.hint()`` and ``q.show_answer()`` print the same);
``q.check(answer)`` prints "Correct: ..." (with the engine's reason), "Not yet:
..." (with a hint that points at the rule) or "Not answered yet" for ``...``, and
returns a :class:`Feedback`. ``ask(prompt, seat=...)`` makes a lesson's own
question of the same shape (:mod:`courtlearn.exercises.asking`). It never raises for a wrong answer, unless the
environment variable ``COURTLEARN_STRICT=1`` is set: then a wrong or missing
answer raises ``AssertionError`` (for testing worked solutions).

Every question is a real :class:`courtlearn.Deal` (``q.deal``), prearranged
or shuffled from a seed, and its answer (``q.solution``) comes from the
engine.

One more kind, ``"what_to_play"`` (listed in ``PLAY_KINDS``, not in ``KINDS``,
which holds the rule kinds), asks "What would you play here?" at a real
mid-deal position and checks the learner's card against ``cl.hint``'s
chances (:mod:`courtlearn.exercises.play`). ``"best_card"`` shows every
hand and checks the card against exact best play (:func:`courtlearn.solve`;
:mod:`courtlearn.exercises.bestplay`).
"""
from __future__ import annotations

from ..cards import _whole, quoted
from ..language import N_, Words, tr
from ._base import Feedback, Question, worked
from .asking import ask
from .bestplay import BEST_CARD_FIXED, best_card_seeded
from .bestplay import RULE as _BEST_RULE
from .bestplay import TITLE as _BEST_TITLE
from .play import RULE as _PLAY_RULE
from .play import TITLE as _PLAY_TITLE
from .play import WHAT_TO_PLAY_FIXED, what_to_play_seeded
from .piles import (PILE_CAPTURE_FIXED, TENS_WINNER_FIXED, pile_capture_seeded,
                    tens_winner_seeded)
from .scoring import (COURT_OR_NOT_FIXED, NEXT_DEALER_FIXED, court_or_not_seeded,
                      next_dealer_seeded)
from . import strategy as _strategy
from .tricks import (LEGAL_CARDS_FIXED, SPOT_THE_REVOKE_FIXED, TRICK_WINNER_FIXED,
                     legal_cards_seeded, spot_the_revoke_seeded, trick_winner_seeded)

__all__ = ["KINDS", "PLAY_KINDS", "STRATEGY_KINDS", "TITLES", "RULES", "Question", "Feedback",
           "question", "count", "NoQuestion",
           "worked", "ask"]


class NoQuestion(ValueError):
    """A seed that gives no question of its kind: the fresh questions that look for a
    position (what_to_play, best_card, the card_play drills) look through a bounded number
    of deals, and for a few seeds none fits. ``str()`` says so and to try another seed."""

KINDS = ("trick_winner", "legal_cards", "spot_the_revoke", "pile_capture", "court_or_not",
         "next_dealer", "tens_winner")
# strategy: "what_to_play" is checked against the hint's play-outs, "best_card" against
# exact best play with all hands shown (cl.solve, pure Python)
PLAY_KINDS = ("what_to_play", "best_card")
# the "playing well" lessons (15-19): which suit to call (judged by the hint at the call),
# the score sheet after a deal, and drill positions for the card-play rules of thumb
STRATEGY_KINDS = ("call_trump", "score_sheet", "card_play")

TITLES = Words({
    "trick_winner": N_("Which card wins this trick?"),
    "legal_cards": N_("Which cards may I play?"),
    "spot_the_revoke": N_("Spot the revoke"),
    "pile_capture": N_("Who collects the centre pile?"),
    "court_or_not": N_("Court or not?"),
    "next_dealer": N_("Who deals next?"),
    "tens_winner": N_("Who wins on tens?"),
    "what_to_play": _PLAY_TITLE,
    "best_card": _BEST_TITLE,
    "call_trump": _strategy.CALL_TITLE,
    "score_sheet": _strategy.SHEET_TITLE,
    "card_play": _strategy.DRILL_TITLE,
})

# The rule each kind practises, in one sentence (shown in the exercise notebooks).
RULES = Words({
    "trick_winner": N_("A trick is won by the highest trump in it; if it holds no trump, by the "
                    "highest card of the suit that was led. A high card of any other suit never "
                    "wins."),
    "legal_cards": N_("The leader may play any card; every other player must follow the suit led "
                   "if they can, and may play any card (a trump or not) only when they cannot."),
    "spot_the_revoke": N_("A revoke is playing another suit while holding a card of the suit led; "
                       "it comes to light when that player later plays a card of the suit they "
                       "failed to follow."),
    "pile_capture": N_("In Double Sir and Dehla Pakad tricks go face down to the centre; a player "
                    "who wins two tricks in a row takes the whole pile for their side (partners "
                    "do not chain), a new pile starts after a capture, and the 13th trick takes "
                    "what is left."),
    "court_or_not": N_("In Court Piece a team that wins each of the first seven tricks scores a "
                    "court (a goon court if that team dealt), and a bavney if it plays on and "
                    "takes all thirteen; winning seven tricks with losses between is just a won "
                    "deal. In Double Sir a court is all thirteen tricks in one team's pile."),
    "next_dealer": N_("The next dealer comes from the team that lost: if the dealer's team won, "
                   "the deal passes to the next player; if the trump caller's team won without a "
                   "court, the same player deals again; with a court of any kind (a goon court "
                   "is the dealer's team's, a claimed revoke or the seventh deal in a row count "
                   "too), the dealer's partner deals."),
    "tens_winner": N_("In Dehla Pakad the tens decide: the team that did not deal wins with two or "
                   "three tens, the dealing team needs three, and all four tens is a kot."),
    "what_to_play": _PLAY_RULE,
    "best_card": _BEST_RULE,
    "call_trump": _strategy.CALL_RULE,
    "score_sheet": _strategy.SHEET_RULE,
    "card_play": _strategy.DRILL_RULE,
})

_FIXED = {
    "trick_winner": TRICK_WINNER_FIXED,
    "legal_cards": LEGAL_CARDS_FIXED,
    "spot_the_revoke": SPOT_THE_REVOKE_FIXED,
    "pile_capture": PILE_CAPTURE_FIXED,
    "court_or_not": COURT_OR_NOT_FIXED,
    "next_dealer": NEXT_DEALER_FIXED,
    "tens_winner": TENS_WINNER_FIXED,
    "what_to_play": WHAT_TO_PLAY_FIXED,
    "best_card": BEST_CARD_FIXED,
    "call_trump": _strategy.CALL_TRUMP_FIXED,
    "score_sheet": _strategy.SCORE_SHEET_FIXED,
    "card_play": _strategy.CARD_PLAY_FIXED,
}

_SEEDED = {
    "trick_winner": trick_winner_seeded,
    "legal_cards": legal_cards_seeded,
    "spot_the_revoke": spot_the_revoke_seeded,
    "pile_capture": pile_capture_seeded,
    "court_or_not": court_or_not_seeded,
    "next_dealer": next_dealer_seeded,
    "tens_winner": tens_winner_seeded,
    "what_to_play": what_to_play_seeded,
    "best_card": best_card_seeded,
    "call_trump": _strategy.call_trump_seeded,
    "score_sheet": _strategy.score_sheet_seeded,
    "card_play": _strategy.card_play_seeded,
}


def count(kind: str) -> int:
    """How many fixed questions ``kind`` has (numbered from 1)."""
    return len(_FIXED[_kind(kind)])


def _kind(kind: str) -> str:
    if not isinstance(kind, str) or kind not in _FIXED:
        raise ValueError(tr("unknown exercise kind {kind!r}; the kinds are: {kinds}",
                            kind=quoted(kind), kinds=", ".join(KINDS + PLAY_KINDS + STRATEGY_KINDS)))
    return kind


def question(kind: str, n: int | None = None, seed: int | None = None) -> Question:
    """Fixed question ``n`` (1, 2, ...) of ``kind``, or a fresh one from ``seed``.

    With neither, fixed question 1.  The same ``seed`` always gives the same
    question (or, for a few seeds of the kinds that look for a position, the same
    :class:`NoQuestion`, whose sentence says to try another seed).
    """
    kind = _kind(kind)
    if n is not None and seed is not None:
        raise ValueError(tr("give a question number or a seed, not both"))
    if seed is not None:
        number = _whole(seed)
        if number is None:
            raise ValueError(tr("seed must be a whole number, not {seed!r}", seed=quoted(seed)))
        from ..deal import check_seed
        try:
            return _SEEDED[kind](check_seed(number))      # at most 100 digits, as a deal's
        except RuntimeError as err:
            if type(err) is not RuntimeError:     # RecursionError, NotImplementedError: bugs
                raise
            # the search's "no position ... in N deals": this seed has no question
            raise NoQuestion(tr("Seed {seed} gives no {kind} question (no position of the "
                                "deals it looks at fits): try another seed.", seed=number,
                                kind=kind)) from None
    n = 1 if n is None else _whole(n)
    fixed = _FIXED[kind]
    if n is None or not 1 <= n <= len(fixed):
        raise ValueError(tr("{kind} has fixed questions 1 to {n}; use seed=... for fresh ones",
                            kind=kind, n=len(fixed)))
    return fixed[n - 1](n)
