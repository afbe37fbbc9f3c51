"""What a seat may do now: the moves a deal offers, as small frozen records.

``deal.moves(seat)`` lists them, so a front end or a bot never works out a
rule by itself. Each :class:`Move` has a ``kind`` (the name of the Deal
method that makes it) and what that method may take: ``cards``, ``suits``
or ``numbers``.

>>> import courtlearn as cl
>>> deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
>>> deal.moves(0)
[Move('call_trump', suits='S H C D')]
>>> deal.moves(1)
[]
"""
from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Suit, quoted

__all__ = ["Move", "MOVE_KINDS"]

#: every kind of move, named as the Deal method that makes it
MOVE_KINDS = ("play", "call_trump", "choose_trump_card", "defer_trump", "ask_for_trump",
              "correct_revoke", "claim_revoke", "play_on")


@dataclass(frozen=True)
class Move:
    """One kind of move a seat may make now, with every argument it may take.

    ``play`` and ``choose_trump_card`` list ``cards`` (as held), ``call_trump``
    lists ``suits``, ``defer_trump`` lists ``numbers`` (``(None,)`` when it takes
    no number); the others take nothing (``claim_revoke`` is made with the
    seat's own number).
    """

    kind: str
    cards: tuple[Card, ...] = ()
    suits: tuple[Suit, ...] = ()
    numbers: tuple = ()

    def __post_init__(self):
        if not isinstance(self.kind, str) or self.kind not in MOVE_KINDS:
            raise ValueError(f"{quoted(self.kind)!r} is not a kind of move; the kinds are "
                             f"{', '.join(MOVE_KINDS)}.")

    def __repr__(self) -> str:
        parts = [repr(self.kind)]
        if self.cards:
            parts.append(f"cards={' '.join(c.code for c in self.cards)!r}")
        if self.suits:
            parts.append(f"suits={' '.join(s.letter for s in self.suits)!r}")
        if self.numbers:
            parts.append(f"numbers={self.numbers!r}")
        return f"Move({', '.join(parts)})"
