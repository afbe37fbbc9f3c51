"""Cards and suits: parsing, ordering, the 52-card deck and seeded shuffles.

There are exactly 52 :class:`Card` objects; every way of making a card
returns one of them, so cards compare and hash cheaply.

>>> Card.parse("10H")
Card.parse('10H')
>>> str(Card.parse("th")), Card.parse("10♥").code
('10♥', '10H')
>>> cards("AS KS 10H")
[Card.parse('AS'), Card.parse('KS'), Card.parse('10H')]
>>> Suit.parse("spades") is Suit.SPADES
True
>>> Card.parse("AS") > Card.parse("KS")       # within a suit, the higher card is greater
True
>>> sorted(cards("2D AH KS"))                   # suits in the order ♠ ♥ ♣ ♦
[Card.parse('KS'), Card.parse('AH'), Card.parse('2D')]

A hand is kept as a 52-bit integer: bit ``card.index`` is set when the card
is held. :func:`held` lists such a mask the way a player holds the cards:
suits ♠ ♥ ♣ ♦ (colours alternate), high to low within each suit.

>>> [str(c) for c in held(mask_of(cards("2S AS 10H 3D")))]
['A♠', '2♠', '10♥', '3♦']
"""
from __future__ import annotations

import _random
import enum
import operator
import random
from typing import Iterable

from .language import suit_word, tr, using

__all__ = ["Suit", "Card", "CardError", "cards", "deck", "shuffled", "held",
           "mask_of", "cards_of", "RANK_NAMES", "quoted"]

#: the most characters of a learner's input that a message quotes
QUOTE_LIMIT = 40


class Quoted:
    """A stand-in for a piece of input inside a message: its ``repr`` (``{x!r}``) and
    ``str`` (``{x}``) are cut to a short prefix, so a message never echoes a huge input.
    Made by :func:`quoted`."""

    __slots__ = ("_repr", "_str")

    def __init__(self, short_repr: str, short_str: str):
        self._repr = short_repr
        self._str = short_str

    def __repr__(self) -> str:
        return self._repr

    def __str__(self) -> str:
        return self._str

    def __format__(self, spec: str) -> str:
        return format(self._str, spec)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def quoted(value, limit: int = QUOTE_LIMIT) -> Quoted:
    """``value`` as a message may quote it: at most about ``limit`` characters of it, with
    "…" where it was cut. Every error of courtlearn that names a bad input names it
    through this, so ``Card.parse("Z" * 10**6)`` says no more than a line.

    >>> print(f"{quoted('Z' * 1000)!r} is not a card")
    'ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ…' is not a card
    >>> repr(quoted(10 ** 5000))
    'an int of 5001 digits'
    >>> str(quoted("AS")), repr(quoted(None)), repr(quoted([1] * 1000))[:12]
    ('AS', 'None', '[1, 1, 1, 1,')
    """
    if isinstance(value, Quoted):
        return value
    if isinstance(value, (str, bytes)):
        r = repr(value[:limit])
        if len(value) > limit or len(r) > limit + 3:        # escapes count too
            r = r[:min(len(r) - 1, limit + 2)] + "…" + r[-1]
        return Quoted(r, _cut(value if isinstance(value, str) else r, limit))
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * limit:
        text = f"an int of {_digits(value)} digits"
        return Quoted(text, text)
    try:
        r = repr(value)
    except Exception:                       # a broken __repr__ still gets a message
        r = f"<{type(value).__name__}>"
    r = _cut(r, limit)
    return Quoted(r, r)


def _whole(value) -> "int | None":
    """``value`` as a plain int when it is a whole number (an int, numpy's included, but
    not a bool), else None."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def _digits(n: int) -> int:
    """How many decimal digits ``n`` has, without turning it into text (Python refuses
    to for more than 4300 digits)."""
    n = abs(n)
    d = max(int(n.bit_length() * 0.30102999566398120) - 1, 1)
    while 10 ** d <= n:
        d += 1
    return d


class CardError(ValueError):
    """Text that does not name a card or a suit."""


class Suit(enum.IntEnum):
    """The four suits, in the order they are held: ♠ ♥ ♣ ♦."""

    SPADES = 0
    HEARTS = 1
    CLUBS = 2
    DIAMONDS = 3

    @property
    def symbol(self) -> str:
        return "♠♥♣♦"[self]

    @property
    def letter(self) -> str:
        return "SHCD"[self]

    @property
    def plural(self) -> str:
        """The suit's name as said at the table: "spades"."""
        return self.name.lower()

    @property
    def singular(self) -> str:
        """"spade", "heart", "club", "diamond" (as in "a heart lead")."""
        return self.name.lower()[:-1]

    @property
    def red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    def __str__(self) -> str:
        return self.symbol

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    @classmethod
    def parse(cls, text: "str | Suit") -> "Suit":
        """A suit from "S", "s", "spades", "spade", "♠" (or a Suit).

        >>> Suit.parse("♦"), Suit.parse("Hearts")
        (Suit.DIAMONDS, Suit.HEARTS)
        """
        if isinstance(text, Suit):
            return text
        if not isinstance(text, str):
            raise CardError(tr("{text!r} is not a suit: write S, H, C or D (or ♠ ♥ ♣ ♦, or "
                               "spades ...).", text=quoted(text)))
        suit = _SUIT_WORDS.get(text)         # "S", "♠", "spades" as written, at once
        if suit is None:
            key = text.strip().lower()
            suit = _SUIT_WORDS.get(key)
        if suit is None:                    # the suit's name in Urdu or Hindi
            suit = next((s for s in Suit for lang in ("ur", "hi") if _in(lang, s) == key), None)
        if suit is None:
            raise CardError(tr("{text!r} is not a suit: write S, H, C or D (or ♠ ♥ ♣ ♦, or "
                               "spades ...).", text=quoted(text)))
        return suit


def _in(lang: str, suit: "Suit") -> str:
    with using(lang):
        return suit_word(suit)


_SUIT_WORDS = {}
for _s in Suit:
    for _w in (_s.letter, _s.symbol, _s.plural, _s.singular):
        _SUIT_WORDS[_w.lower()] = _SUIT_WORDS[_w] = _s
for _w, _s in (("♤", Suit.SPADES), ("♡", Suit.HEARTS), ("♧", Suit.CLUBS), ("♢", Suit.DIAMONDS),
               ("♠️", Suit.SPADES), ("♥️", Suit.HEARTS), ("♣️", Suit.CLUBS), ("♦️", Suit.DIAMONDS)):
    _SUIT_WORDS[_w] = _s

RANK_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
              11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_WORDS = {"ace": 14, "king": 13, "queen": 12, "jack": 11, "ten": 10}
_RANK_TEXT = {v: k for k, v in RANK_NAMES.items()}
_RANK_TEXT.update({"T": 10, "1": 14})  # "1" is never valid alone; see parse
del _RANK_TEXT["1"]
_SPOKEN = {11: "jack", 12: "queen", 13: "king", 14: "ace"}


class Card:
    """One of the 52 cards. Immutable, hashable, ordered by suit (♠ ♥ ♣ ♦) then rank.

    ``rank`` is 2..14 (J=11, Q=12, K=13, A=14); ``index`` is ``13 * suit + rank - 2``.
    """

    __slots__ = ("suit", "rank", "index", "bit", "si", "sbit", "code", "_str")

    suit: Suit
    rank: int
    index: int
    bit: int
    code: str

    def __new__(cls, suit: "Suit | str", rank: int | None = None) -> "Card":
        if rank is None:                 # Card("10H") reads like Card.parse("10H")
            return cls.parse(suit)
        suit = Suit.parse(suit)
        number = _whole(rank)
        if number not in RANK_NAMES:
            raise CardError(tr("{rank!r} is not a rank: ranks are 2..14 (J=11, Q=12, K=13, A=14).",
                               rank=quoted(rank)))
        return _DECK[13 * suit + number - 2]

    @classmethod
    def _make(cls, suit: Suit, rank: int) -> "Card":
        card = object.__new__(cls)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "index", 13 * suit + rank - 2)
        object.__setattr__(card, "bit", 1 << (13 * suit + rank - 2))
        object.__setattr__(card, "si", int(suit))           # the suit as a plain int
        object.__setattr__(card, "sbit", 1 << (rank - 2))   # the card's bit within its suit
        object.__setattr__(card, "code", RANK_NAMES[rank] + suit.letter)
        object.__setattr__(card, "_str", RANK_NAMES[rank] + suit.symbol)
        return card

    def __setattr__(self, name, value):
        raise AttributeError("cards are immutable")

    def __delattr__(self, name):
        raise AttributeError("cards are immutable")

    def __reduce__(self):
        return (Card, (self.suit, self.rank))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    @classmethod
    def parse(cls, text: "str | Card") -> "Card":
        """A card from "10H", "TH", "10h", "10♥", "Q♠", "qs" (or a Card).

        Raises :class:`CardError` (a ValueError) saying what is wrong.

        >>> Card.parse("Q♠").code
        'QS'
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardError(tr("{text!r} is not a card: write a rank and a suit, like 10H, QS or "
                               "A♦.", text=quoted(text)))
        card = _PARSED.get(text)
        if card is not None:
            return card
        raw = text.strip()
        t = raw.upper().replace(" ", "")
        for suffix in ("️",):
            t = t.replace(suffix, "")
        if len(t) < 2:
            raise CardError(tr("{text!r} is not a card: write a rank and a suit, like 10H, QS or "
                               "A♦.", text=quoted(text)))
        suit_text, rank_text = t[-1], t[:-1]
        try:
            suit = Suit.parse(suit_text)
        except CardError:
            raise CardError(tr("{text!r} is not a card: its suit {suit!r} should be S, H, C or D "
                               "(or ♠ ♥ ♣ ♦), like 10H or Q♠.", text=quoted(text),
                               suit=quoted(suit_text))) from None
        rank = _RANK_TEXT.get(rank_text)
        if rank is None:
            raise CardError(tr("{text!r} is not a card: its rank {rank!r} should be one of "
                               "A K Q J 10 9 8 7 6 5 4 3 2 (or T for 10).", text=quoted(text),
                               rank=quoted(rank_text)))
        return _DECK[13 * suit + rank - 2]

    @property
    def spoken(self) -> str:
        """Words for screen readers: "10 of hearts", "ace of spades"."""
        return f"{_SPOKEN.get(self.rank, str(self.rank))} of {self.suit.plural}"

    def __str__(self) -> str:
        return self._str

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __format__(self, spec: str) -> str:
        return format(self._str, spec)

    # Equality is identity (object's own, in C): there is exactly one object per card.
    # The hash is the card's index, so sets of cards iterate in the same order every run.
    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: "Card") -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: "Card") -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: "Card") -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: "Card") -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index


_DECK: list[Card] = [Card._make(s, r) for s in Suit for r in range(2, 15)]
_PARSED: dict[str, Card] = {}
for _c in _DECK:
    for _r in {RANK_NAMES[_c.rank], "T" if _c.rank == 10 else RANK_NAMES[_c.rank]}:
        for _st in (_c.suit.letter, _c.suit.symbol):
            for _txt in (_r + _st, (_r + _st).lower()):
                _PARSED[_txt] = _c

SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))
ALL_CARDS = (1 << 52) - 1

# _HELD_SUIT[s][m]: the cards of 13-bit suit mask m, high to low.
_HELD_SUIT = tuple(
    tuple(tuple(_DECK[13 * s + r] for r in range(12, -1, -1) if m >> r & 1) for m in range(1 << 13))
    for s in range(4))


def held(mask: int) -> list[Card]:
    """The cards of a 52-bit mask as a player holds them: ♠ ♥ ♣ ♦, high to low."""
    return list(_HELD_SUIT[0][mask & 0x1FFF] + _HELD_SUIT[1][mask >> 13 & 0x1FFF]
                + _HELD_SUIT[2][mask >> 26 & 0x1FFF] + _HELD_SUIT[3][mask >> 39 & 0x1FFF])


def held_suit(mask: int, suit: int) -> list[Card]:
    """The cards of one suit in a mask, high to low."""
    return list(_HELD_SUIT[suit][mask >> (13 * suit) & 0x1FFF])


def mask_of(cs: Iterable[Card]) -> int:
    m = 0
    for c in cs:
        m |= c.bit
    return m


def cards_of(mask: int) -> list[Card]:
    """Alias of :func:`held`."""
    return held(mask)


def cards(text: "str | Iterable[str | Card]") -> list[Card]:
    """A list of cards from text ("AS KS 10H", commas allowed) or an iterable.

    >>> [c.code for c in cards("A♠, 10h, td")]
    ['AS', '10H', '10D']
    """
    if isinstance(text, str):
        parts = text.replace(",", " ").split()
    elif isinstance(text, Card):
        parts = [text]
    else:
        try:
            parts = list(text)
        except TypeError:
            raise CardError(tr("{text!r} is not a list of cards: write text like 'AS KS 10H'.",
                               text=quoted(text))) from None
    return [Card.parse(p) for p in parts]


def deck() -> list[Card]:
    """The 52 cards, ♠ 2..A, ♥ 2..A, ♣ 2..A, ♦ 2..A."""
    return list(_DECK)


def shuffled(seed: "int | str | None") -> list[Card]:
    """The 52 cards in an order reproducible from ``seed`` (``random.Random(seed)``)."""
    # sorting by independent uniform keys gives every order the same chance, and is
    # faster in CPython than random.shuffle's 51 calls to randbelow
    # (an int seeds random.Random and its C base _random.Random alike; the base skips
    # two Python-level calls, which is 0.7% of a whole random deal: bench/engine_speed.py)
    rng = _random.Random(seed) if seed.__class__ is int else random.Random(seed)
    draw = rng.random
    return sorted(_DECK, key=lambda _card: draw())
