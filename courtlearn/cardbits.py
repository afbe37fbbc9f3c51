"""Cards as bit indices, without numpy: the layout of the fast play-outs.

Card ``i`` is rank ``(i >> 2) + 2`` of suit ``i & 3`` (``♠ ♥ ♣ ♦``), so the cards of
one rank sit side by side and a suit is every fourth bit. :mod:`courtlearn.fastplay`
(numpy) and the bots' knowledge of a seat (:mod:`courtlearn.bots`) share it; this
module needs nothing but Python, so the knowledge and the sampling of unseen cards
work where numpy is missing (the browser-only site).

>>> card_index("AS"), index_card_code(50), indices_of(mask_of(["2S", "3H"]))
(48, 'AC', [0, 5])
"""
from __future__ import annotations

__all__ = ["SUIT_LETTERS", "RANK_TEXT", "FULL", "SUIT_MASK_INT", "TEN_MASK_INT",
           "ACE_RANK_INDEX", "card_index", "index_card_code", "mask_of", "indices_of"]

SUIT_LETTERS = "SHCD"
RANK_TEXT = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}

FULL = (1 << 52) - 1
SUIT_MASK_INT = [sum(1 << (4 * r + s) for r in range(13)) for s in range(4)]
TEN_MASK_INT = sum(1 << (4 * 8 + s) for s in range(4))  # rank 10 -> index 8
ACE_RANK_INDEX = 12


def card_index(card) -> int:
    """Bit index of a courtlearn ``Card`` (or of its code such as ``"10H"``)."""
    if not isinstance(card, str):
        return _FROM_ENGINE[card.index]
    code = card
    code = code.strip().upper()
    rank_text, suit = code[:-1], code[-1]
    rank = {"A": 14, "K": 13, "Q": 12, "J": 11, "T": 10}.get(rank_text)
    if rank is None:
        rank = int(rank_text)
    return 4 * (rank - 2) + SUIT_LETTERS.index(suit)


# engine Card.index (13 * suit + rank - 2) -> bit index here
_FROM_ENGINE = [4 * (e % 13) + e // 13 for e in range(52)]


def index_card_code(i: int) -> str:
    rank = (i >> 2) + 2
    return RANK_TEXT.get(rank, str(rank)) + SUIT_LETTERS[i & 3]


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << card_index(c)
    return m


def indices_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
