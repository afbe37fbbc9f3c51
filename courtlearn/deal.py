"""One deal as a state machine: the deal, the trump, the play, the piles, the result.

>>> import courtlearn as cl
>>> deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
>>> deal.phase, deal.trump_caller, len(deal.hand(0))
(<Phase.TRUMP: 'trump'>, 0, 5)
>>> _ = deal.call_trump("S")
>>> deal.phase, deal.trump, len(deal.hand(0))
(<Phase.PLAY: 'play'>, Suit.SPADES, 13)
>>> deal.to_play
0
>>> card = deal.legal_cards()[0]
>>> deal.play(card) == deal.events[-1:]         # every action returns the events it added
True
>>> deal.events[-1].text == f"South leads {card}."
True
>>> deal.undo(); deal.trick.cards
()

Every action is kept in order (``deal.actions``); undo, the saved forms and
the replay all come from that one list. A refused call raises (a
:class:`IllegalPlay` or another ValueError) and changes nothing.

Decisions where RULES.md is silent (also in the notes):

- A revoke is only failing to follow suit. Under a hidden trump, a player who
  asked to see it and then does not play a trump while holding one is refused
  (never recorded as a revoke).
- Under ``first_void`` with revokes allowed, a revoking card fixes the trump
  just as a true void does: at the table nobody can tell the two apart (and a
  seat's view must not). If the revoke is corrected, the trump is unfixed.
- The Be-ranga capture rule applies to Double Sir (Be-ranga Double Sar) only;
  Dehla Pakad's method one keeps its ordinary pile rule.
- When a hidden trump card is revealed, it stays revealed even if the trick
  is later taken back by a revoke correction.
- In Dehla Pakad the tricks only break a 2-2 split of the tens; such a deal's
  kind is still "tens".
"""
from __future__ import annotations

import enum
import hashlib
import operator
import random
import unicodedata
from dataclasses import dataclass
from typing import NamedTuple, Sequence

from .cards import _HELD_SUIT, Card, CardError, SUIT_MASKS, Suit, _digits, _whole, \
    cards as parse_cards, held, held_suit, mask_of, quoted, shuffled
from .explain import DEAL_EVENT_TYPES, Event, illegal_reason, list_cards
from .language import suit_word, tr, trn, using
from .moves import Move
from .rules import Rules, check_seat, team_of
from .scoring import court_piece_result, decided_result, final_result, tens_in
from . import notation

__all__ = ["Deal", "Phase", "Trick", "Cards", "DealResult", "Revoke", "SeatView", "IllegalPlay",
           "check_seed"]

_H0, _H1, _H2, _H3 = _HELD_SUIT
# the suits of a 4-bit mask (bit i: suit i), in order
_SUITS_IN = tuple(tuple(Suit(i) for i in range(4) if m >> i & 1) for m in range(16))
# the positions in a shuffled pack of the cards dealt to the i-th seat from the trump caller
_DEALT_TO = tuple(operator.itemgetter(*range(5 * i, 5 * i + 5), *range(20 + 4 * i, 24 + 4 * i),
                                      *range(36 + 4 * i, 40 + 4 * i)) for i in range(4))
_new_trick = _tnew = tuple.__new__   # Trick's and Event's own __new__ are Python code; this is
                                     # the same, in C (the deal makes an event per card)
_PLAYED, _TRICK_WON, _TO_CENTRE, _CAPTURED, _SWEPT = (
    DEAL_EVENT_TYPES[k] for k in ("play", "trick", "centre", "capture", "sweep"))


class _EventTables:
    """The commonest events of deals under one :class:`Rules`, made once and shared.

    An event is an immutable record, and a card played, a trick won or a trick put in
    the centre recurs with the same fields in many deals; sharing them spares the deal
    an allocation per card (the engine's speed, issue 12). Slots fill on first use;
    a suit led of -1 (none yet) is the last slot of its row.
    """

    __slots__ = ("rules", "plays", "tricks", "centre", "takes")

    def __init__(self, rules: Rules):
        self.rules = rules
        # plays[trump, 4 for none][seat][suit led, -1 before the lead][card.index]
        self.plays = [[[[None] * 52 for _ in range(5)] for _ in range(4)] for _ in range(5)]
        # tricks[card.index][winner][suit led, + 4 when won by a trump]
        self.tricks = [[[None] * 8 for _ in range(4)] for _ in range(52)]
        # centre[winner][tricks now in the centre]
        self.centre = [[None] * 14 for _ in range(4)]
        # takes[0 capture, 1 sweep][winner][tricks taken from the centre]
        self.takes = [[[None] * 14 for _ in range(4)] for _ in range(2)]

    def to_centre(self, seat: int, n: int) -> Event:
        """The event of ``seat``'s trick going to the centre, ``n`` tricks there now."""
        ev = self.centre[seat][n]
        if ev is None:
            ev = self.centre[seat][n] = _tnew(_TO_CENTRE, ("centre", seat, None, (n,), None,
                                                           self.rules))
        return ev

    def taken(self, sweep: int, seat: int, n: int) -> Event:
        """The event of ``seat`` taking the ``n`` tricks of the centre: a capture, or with
        ``sweep`` 1 the last trick's sweep."""
        ev = self.takes[sweep][seat][n]
        if ev is None:
            ev = self.takes[sweep][seat][n] = _tnew(
                _SWEPT if sweep else _CAPTURED,
                ("sweep" if sweep else "capture", seat, None, (n,), None, self.rules))
        return ev


_TABLES: dict[int, _EventTables] = {}


def _event_tables(rules: Rules) -> _EventTables:
    t = _TABLES.get(id(rules))
    if t is None or t.rules is not rules:
        if len(_TABLES) >= 64:          # a program making endless Rules objects stays small
            _TABLES.clear()
        t = _TABLES[id(rules)] = _EventTables(rules)
    return t
_SEATS_FROM = tuple(tuple((lead + i) & 3 for i in range(4)) for lead in range(4))
_ACE_RANK = 14


class IllegalPlay(ValueError):
    """A refused move; ``.reason`` says why in plain words."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Phase(str, enum.Enum):
    """Where a deal is: choosing the trump, playing, or over."""

    TRUMP = "trump"
    PLAY = "play"
    OVER = "over"

    def __str__(self) -> str:
        return self.value


class Cards(tuple):
    """A tuple that also equals a list of the same items (API.md writes these as lists).

    >>> Cards([1, 2]) == [1, 2] == Cards([1, 2]) == (1, 2)
    True
    """

    __slots__ = ()

    def __eq__(self, other):
        if isinstance(other, list):
            return list(self) == other
        return tuple.__eq__(self, other)

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = tuple.__hash__


class Trick(NamedTuple):
    """A trick: who led, the cards ``((seat, Card), ...)`` in order, and (once complete)
    the winner and the card that won it."""

    leader: int
    cards: tuple = ()
    winner: "int | None" = None
    winning_card: "Card | None" = None
    number: int = 0  # 0-based index among the deal's tricks

    @property
    def suit_led(self) -> "Suit | None":
        return self.cards[0][1].suit if self.cards else None

    @property
    def complete(self) -> bool:
        return len(self.cards) == 4

    def card_of(self, seat: int) -> "Card | None":
        for s, c in self.cards:
            if s == seat:
                return c
        return None

    def __repr__(self) -> str:
        played = " ".join(f"{s}:{c.code}" for s, c in self.cards)
        win = f", winner={self.winner}" if self.winner is not None else ""
        return f"Trick(leader={self.leader}, cards='{played}'{win})"


@dataclass(frozen=True)
class DealResult:
    """How a deal ended: ``winner`` team, ``courts`` scored in the deal itself, ``kind``,
    ``tricks`` (team0, team1) in the teams' piles and ``tens`` (team0, team1)."""

    winner: int
    courts: int
    kind: str
    tricks: tuple
    tens: tuple

    def __repr__(self) -> str:
        return (f"DealResult(winner={self.winner}, courts={self.courts}, kind={self.kind!r}, "
                f"tricks={self.tricks}, tens={self.tens})")


@dataclass(frozen=True)
class Revoke:
    """A failure to follow suit when able (``revokes="allowed"``).

    ``trick`` is the 0-based index of the trick; ``established`` once that trick
    is complete; ``provable`` once the revoker has later played the suit led.
    """

    seat: int
    trick: int
    card: Card
    suit_led: Suit
    established: bool
    provable: bool

    @property
    def led(self) -> Suit:
        return self.suit_led


@dataclass(frozen=True)
class SeatView:
    """What one seat may know (``deal.view(seat)``): comparable with ``==``."""

    seat: int
    phase: Phase
    dealer: int
    trump_caller: int
    to_play: int
    hand: tuple
    trump: Suit | None
    trump_card: Card | None
    trick: Trick
    tricks: tuple
    centre: tuple
    tricks_won: tuple
    voids: tuple
    revokes: tuple
    events: tuple
    rules: Rules = None
    hand_sizes: tuple = ()
    stock_size: int = 0
    hidden_trump: bool = False       # a trump card lies face down (its owner: trump_caller)
    result: DealResult | None = None
    legal: tuple = ()               # this seat's legal cards when it is to play


def _seat_view(fields: dict) -> SeatView:
    """A SeatView of ``fields`` (a dict of every one of its fields), made without the
    frozen dataclass's ``__init__``, which sets each of its 21 fields through
    ``object.__setattr__`` (4 us of the 12 a view took; a class table asks four views a
    move, issue 29). The same object:

    >>> from courtlearn import Deal, Rules
    >>> d = Deal(Rules.court_piece(), seed=1, dealer=0)
    >>> v = d.view(2)
    >>> v == SeatView(**{f: getattr(v, f) for f in SeatView.__dataclass_fields__})
    True
    >>> _seat_view({"seat": 2})
    Traceback (most recent call last):
    ...
    TypeError: a SeatView needs every one of its fields; missing: centre, dealer, ...
    """
    if len(fields) != _SEAT_VIEW_SIZE:
        missing = [f for f in SeatView.__dataclass_fields__ if f not in fields]
        raise TypeError("a SeatView needs every one of its fields; missing: "
                        + ", ".join(sorted(missing)[:2]) + ", ...")
    view = _new_object(SeatView)
    _set_attribute(view, "__dict__", fields)
    return view


_SEAT_VIEW_SIZE = len(SeatView.__dataclass_fields__)
_new_object = object.__new__
_set_attribute = object.__setattr__

# enum members are slow to look up on Python 3.11; the hot path uses these
_TRUMP, _PLAY, _OVER = Phase.TRUMP, Phase.PLAY, Phase.OVER


# actions are kept as short text tokens (also the notation's "moves")
def _action_token(kind: str, arg=None) -> str:
    if kind == "play":
        return arg.code
    if arg is None:
        return kind
    if isinstance(arg, Card):
        return f"{kind}:{arg.code}"
    if isinstance(arg, Suit):
        return f"{kind}:{arg.letter}"
    return f"{kind}:{arg}"


_ACTION_KINDS = {
    "call": lambda seat, card, data: f"call:{data[0].letter}",
    "show": lambda seat, card, data: f"choose:{card.code}",
    "set_aside": lambda seat, card, data: f"choose:{card.code}",
    "defer": lambda seat, card, data: "defer" if data[1] is None else f"defer:{data[1]}",
    "ask": lambda seat, card, data: "ask",
    "correct": lambda seat, card, data: "correct",
    "claim": lambda seat, card, data: f"claim:{seat}",
    "play_on": lambda seat, card, data: "play_on",
}


SEED_DIGITS = 100     # the longest int seed, in digits
SEED_CHARS = 200      # the longest text seed, in characters


def check_seed(seed):
    """``seed`` as a deal keeps it (an int, numpy's ints too, or a str), refused with a
    sentence when it is not one or its saved forms could not hold it: an int of more than
    100 digits, a text of more than 200 characters, or one with a line break, a control
    character or half of a surrogate pair. Every seed accepted survives ``to_dict`` and
    ``to_notation``.

    >>> check_seed("lesson 4"), check_seed(-7)
    ('lesson 4', -7)
    >>> check_seed("two\\nlines")
    Traceback (most recent call last):
    ...
    ValueError: seed 'two\\nlines' holds a line break or a control character; a text seed is one line of ordinary characters, like "lesson 4".
    """
    if isinstance(seed, str):
        if len(seed) > SEED_CHARS:
            raise ValueError(tr("seed {seed!r} is too long: a text seed has at most {n} "
                                "characters.", seed=quoted(seed), n=SEED_CHARS))
        if not seed.isprintable() and any(unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp")
                                          for ch in seed):
            raise ValueError(tr("seed {seed!r} holds a line break or a control character; a text "
                                "seed is one line of ordinary characters, like \"lesson 4\".",
                                seed=quoted(seed)))
        return str(seed)
    number = _whole(seed)
    if number is None:
        raise ValueError(tr("seed must be a whole number or a short text (or None for a random "
                            "deal), got {seed!r}.", seed=quoted(seed)))
    if number.bit_length() > 333 and _digits(number) > SEED_DIGITS:
        raise ValueError(tr("seed {seed!r} is too long: a seed has at most {n} digits.",
                            seed=quoted(number), n=SEED_DIGITS))
    return number


def _seed_for(seed, what: str) -> random.Random:
    """An independent, reproducible generator for one random draw of a deal."""
    digest = hashlib.sha256(f"{seed!r}/{what}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


class Deal:
    """One deal of Court Piece, Double Sir or Dehla Pakad.

    ``Deal(rules, dealer=3, seed=7)`` shuffles reproducibly from ``seed``;
    :meth:`prearranged` takes each seat's thirteen cards. Seats are 0..3 in
    the order of play; the trump caller (the seat after the dealer) leads.
    """

    # slots, not a __dict__: the attributes are read on every card (the engine's speed)
    __slots__ = ("rules", "dealer", "trump_caller", "seed", "phase", "_order", "_hands", "_ndealt",
                 "_trump", "_trump_card", "_hidden", "_trick", "_led", "_ledi", "_leader",
                 "_tricks", "_trick_records", "_centre", "_centre_tens", "_won", "_tens",
                 "_run_seat", "_run_len", "_to_play", "_result", "_revokes", "_asked",
                 "_corrected", "_fixed_at", "_revealed_at", "_seven", "_played_on", "_log",
                 "_fast", "_fast_play", "_events", "_plays", "_cp", "_voids_memo",
                 "_view_memo", "_actions_memo")

    # ------------------------------------------------------------------ set-up
    def __init__(self, rules: Rules | None = None, dealer: int = 3, seed: int | str | None = None,
                 *, _order=None):
        if rules is None:
            rules = Rules.court_piece()
        if not isinstance(rules, Rules):
            if isinstance(rules, str):
                rules = Rules.of(rules)
            else:
                raise ValueError(tr("rules must be a Rules (e.g. cl.Rules.court_piece()), got "
                                    "{rules!r}.", rules=quoted(rules)))
        if dealer.__class__ is not int or not 0 <= dealer <= 3:
            number = _whole(dealer)
            if number is None or not 0 <= number <= 3:
                raise ValueError(tr("dealer must be a seat 0..3, got {dealer!r}.",
                                    dealer=quoted(dealer)))
            dealer = number
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 32)
        elif seed.__class__ is not int or not -1 << 32 < seed < 1 << 32:
            seed = check_seed(seed)
        self.rules = rules
        self.dealer = dealer
        self.trump_caller = (dealer + 1) & 3
        self.seed = seed
        if _order is None:
            # five to each seat from the trump caller on, then four, then four
            order = shuffled(seed)
            got = [_DEALT_TO[i](order) for i in range(4)]
            tc = self.trump_caller
            _order = tuple(got[(seat - tc) & 3] for seat in range(4))
        self._order = _order
        self._start()

    @classmethod
    def prearranged(cls, rules: Rules, hands: Sequence, dealer: int = 3,
                    seed: int | str | None = None) -> "Deal":
        """A deal with given hands, in seat order, 13 cards each.

        A seat's first five listed cards are its first batch, the next four its
        second, the last four its third.
        """
        if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__") or len(hands) != 4:
            raise ValueError(tr("hands must list four hands in seat order (0, 1, 2, 3), 13 cards "
                                "each, e.g. ['AS KS ...', '...', '...', '...']."))
        order = []
        seen = {}
        for seat, hand in enumerate(hands):
            cs = parse_cards(hand)
            if len(cs) != 13:
                raise ValueError(tr("seat {seat}'s hand has {n} cards; every hand needs 13.",
                                    seat=seat, n=len(cs)))
            for c in cs:
                if c in seen:
                    raise ValueError(tr("{card} is dealt twice: to seat {first} and to seat "
                                        "{seat}.", card=c, first=seen[c], seat=seat))
                seen[c] = seat
            order.append(tuple(cs))
        return cls(rules, dealer=dealer, seed=seed, _order=tuple(order))

    def _start(self):
        r = self.rules
        # each seat's hand as four 13-bit masks, one per suit (bit rank-2): small ints
        # are much cheaper to test and update than one 52-bit mask
        self._hands = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
        self._ndealt = 0
        self.phase = _TRUMP
        self._trump: Suit | None = None
        self._trump_card: Card | None = None
        self._hidden: Card | None = None
        self._trick: list[Card] = []     # the open trick's cards; seat = (leader + i) & 3
        self._led: Suit | None = None
        self._ledi = -1                    # the suit led as a plain int, -1 before the lead
        self._leader = self.trump_caller
        # completed tricks, kept raw as (leader, [4 cards], winner, winning card); the
        # public Trick records are built when first read (see ``tricks``)
        self._tricks: list[tuple] = []
        self._trick_records: list[Trick] = []
        self._centre: list[int] = []     # the numbers of the tricks in the centre pile
        self._centre_tens = 0             # and how many tens they hold
        self._won = [0, 0]
        self._tens = [0, 0]
        self._run_seat = -1
        self._run_len = 0
        self._to_play = self.trump_caller
        self._result: DealResult | None = None
        self._revokes: list[list] = []   # [seat, trick, card, led, established, provable, pos]
        self._asked: int | None = None
        self._corrected: tuple = ()          # who corrected a revoke: they must follow this trick
        self._fixed_at: tuple | None = None  # first_void: (trick, position) that fixed trump
        self._revealed_at: tuple | None = None  # hidden trump: (trick, position) when shown
        self._seven: int | None = None       # Court Piece: team that won the first seven
        self._played_on = False
        self._log: list[Event] = []      # every event, in order: the deal's one record
        # voids() of the log as it was (every action adds to the log; undo starts a new one)
        self._voids_memo: tuple | None = None   # (log, its length, voids, the masks after
        #                                         the completed tricks: see voids)
        # view()'s parts of the log as it was: the public ones, and each seat's events
        self._view_memo: list | None = None     # [log, its length, public parts, 4 x events,
        #                                         4 x (mask, hand)]
        self._actions_memo: tuple | None = None  # (log, length read, actions, revokers)
        # the inline path of play() covers deals with no revokes and no hidden or void trump
        self._fast = r.revokes == "prevented" and r.trump_method in ("called", "shown")
        self._fast_play = False
        self._events = _event_tables(r)
        self._plays = None
        self._cp = r.game == "court_piece"
        method = r.trump_method
        if method == "hidden_random" or (method == "first_void" and r.game != "dehla_pakad"):
            self._deal_batches(13)
            self._add("deal_all", self.dealer, None, (), None)
            if method == "hidden_random":
                five = self._order[self.trump_caller][:5]
                card = five[_seed_for(self.seed, "hidden_random").randrange(5)]
                self._hidden = card
                self._hands[self.trump_caller][card.si] &= ~card.sbit
                self._add("set_aside_random", self.trump_caller, None, (), None)
            self._set_phase(_PLAY)
        else:
            self._deal_batches(5)
            self._add("deal_first", self.dealer, None, (), None)
            if method == "first_void":      # Dehla Pakad method one: play on five cards
                self._set_phase(_PLAY)

    def _add(self, kind: str, seat, card, data, audience) -> None:
        """Record one event (the hot paths of play and tricks make theirs inline)."""
        self._log.append(_tnew(DEAL_EVENT_TYPES[kind], (kind, seat, card, data, audience,
                                                        self.rules)))

    def _set_phase(self, phase: Phase):
        # ``phase`` is a plain attribute (read on every card by players and bots); only
        # the deal itself sets it
        self.phase = phase
        self._fast_play = fast = self._fast and phase is _PLAY
        if fast:        # the trump is fixed for the rest of the deal on the inline path
            trump = self._trump
            self._plays = self._events.plays[4 if trump is None else trump]

    def _deal_batches(self, upto: int):
        frm = self._ndealt
        hands = self._hands
        for seat, order in enumerate(self._order):
            hand = hands[seat]
            for c in order[frm:upto]:
                hand[c.si] |= c.sbit
        self._ndealt = upto

    def _deal_rest(self):
        # always between tricks: each seat holds 13 cards less one per trick played (the
        # caller's face-down card counts as held)
        self._deal_batches(13)
        n = 13 - len(self._tricks)
        self._add("deal_rest", self.dealer, None, ((n, n, n, n), self._hidden is not None), None)

    # ------------------------------------------------------------- properties
    @property
    def to_play(self) -> int:
        """The seat whose turn it is (the trump caller while the trump is being fixed)."""
        return self._to_play

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or None while no trump is public."""
        return self._trump

    @property
    def trump_card(self) -> Card | None:
        """The card that fixed the trump once it is public (shown, turned or revealed), else None."""
        return self._trump_card

    @property
    def hidden_trump_card(self) -> Card | None:
        """The face-down trump card while it is hidden (a teacher's view), else None."""
        return self._hidden

    @property
    def trick(self) -> Trick:
        """The open trick (never None): its leader and the cards played so far."""
        lead = self._leader
        return Trick(lead, Cards(zip(_SEATS_FROM[lead], self._trick)), number=len(self._tricks))

    @property
    def tricks(self) -> list[Trick]:
        """The completed tricks, in order."""
        return list(self._records())

    def _records(self) -> list[Trick]:
        recs = self._trick_records
        for number in range(len(recs), len(self._tricks)):
            lead, cs, win, best = self._tricks[number]
            recs.append(_new_trick(Trick, (lead, Cards(zip(_SEATS_FROM[lead], cs)), win, best,
                                           number)))
        return recs

    @property
    def centre(self) -> list[Trick]:
        """The completed tricks lying face down in the centre pile (Double Sir, Dehla Pakad)."""
        recs = self._records()
        return [recs[i] for i in self._centre]

    @property
    def tricks_won(self) -> tuple:
        """(team0, team1): the tricks in each team's own pile."""
        return (self._won[0], self._won[1])

    @property
    def tens_won(self) -> tuple:
        """(team0, team1): the tens in each team's own pile."""
        if self._cp:
            tens = [0, 0]
            for _, cs, win, _ in self._tricks:
                tens[win & 1] += tens_in(cs)
            return (tens[0], tens[1])
        return (self._tens[0], self._tens[1])

    @property
    def result(self) -> DealResult | None:
        return self._result

    @property
    def over(self) -> bool:
        return self.phase is _OVER

    @property
    def actions(self) -> list[str]:
        """Every action taken, as short tokens ("call:S", "AS", "ask", ...)."""
        return [a.code if a.__class__ is Card else a for a in self._actions_read()]

    def _action_list(self) -> list:
        """The actions, read off the log: each action logs exactly one entry of these kinds
        (cards played stay Cards, the rest are tokens). Read on from where the last call
        stopped (the room reads them after every move; the log only grows, and an undo
        brings another); the list returned is the caller's own."""
        return list(self._actions_read())

    def _action_count(self) -> int:
        """``len(self.actions)`` without building the list (each picture asks)."""
        return len(self._actions_read())

    def _actions_read(self) -> list:
        """The memo's own list of the actions, read on to the end of the log: not to be
        changed (see :meth:`_action_list`)."""
        log = self._log
        memo = self._actions_memo
        if memo is not None and memo[0] is log:
            start = memo[1]
            if start == len(log):
                return memo[2]
            out, revokers = list(memo[2]), list(memo[3])
        else:
            start, out = 0, []
            revokers = []       # the open trick's revokers, in the order they played
        for i in range(start, len(log)):
            e = log[i]
            k = e[0]
            if k == "play":
                out.append(e[2])
            elif k in _ACTION_KINDS:
                if k == "correct":      # "correct": the earliest revoke; "correct:2": seat 2's
                    at = revokers.index(e[1])
                    out.append("correct" if at == 0 else f"correct:{e[1]}")
                    del revokers[at:]
                else:
                    out.append(_ACTION_KINDS[k](e[1], e[2], e[3]))
            elif k == "revoke":
                revokers.append(e[1])
            elif k == "trick":
                revokers.clear()
        self._actions_memo = (log, len(log), out, revokers)
        return out

    @property
    def stock(self) -> list[Card]:
        """The cards not dealt yet, as held."""
        m = 0
        for seat in range(4):
            m |= mask_of(self._order[seat][self._ndealt:])
        return held(m)

    @property
    def events(self) -> list[Event]:
        """Every event so far; each has ``.text``, a sentence a learner can read."""
        return list(self._log)

    @property
    def revokes(self) -> list[Revoke]:
        """The revokes so far (``revokes="allowed"``)."""
        return [Revoke(s, t, c, led, bool(e), bool(p)) for s, t, c, led, e, p, _ in self._revokes]

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds now, as held (♠ ♥ ♣ ♦, high to low).

        A face-down trump card set aside is not in the hand until it is shown.
        """
        return held(self._mask(_check_seat(seat)))

    def hand_mask(self, seat: int) -> int:
        """The seat's hand as a 52-bit mask (bit ``card.index``)."""
        return self._mask(_check_seat(seat))

    def _mask(self, seat: int) -> int:
        s0, s1, s2, s3 = self._hands[seat]
        return s0 | s1 << 13 | s2 << 26 | s3 << 39

    def _sizes(self) -> tuple:
        return tuple([a.bit_count() + b.bit_count() + c.bit_count() + d.bit_count()
                      for a, b, c, d in self._hands])

    def dealt(self, seat: int) -> list[Card]:
        """All thirteen cards of ``seat`` in the order they are dealt."""
        return list(self._order[_check_seat(seat)])

    def seat_name(self, seat: int) -> str:
        return self.rules.seat_name(seat)

    # ------------------------------------------------------- the one judge: who, what
    @property
    def actor(self) -> int | None:
        """The seat whose decision the deal waits for: the trump caller in the trump phase,
        ``to_play`` in play, None when the deal is over.

        After a Court Piece court the winners *may* play on (``play_on``), but the deal
        does not wait for it: ``actor`` is None then, and ``moves(seat)`` lists the play-on
        for the seats of the winning side.
        """
        phase = self.phase
        if phase is _PLAY:
            return self._to_play
        if phase is _TRUMP:
            return self.trump_caller
        return None

    def moves(self, seat: int) -> list[Move]:
        """Every move ``seat`` may make now, each with every argument it may take.

        The moves come from the same checks the actions make, so each listed argument is
        accepted (``can_X`` is True) and nothing else is. ``play`` lists every card the
        deal would accept from the seat, which with ``revokes="allowed"`` includes
        revoking cards (``legal_cards()`` lists only the lawful ones).

        >>> import courtlearn as cl
        >>> deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
        >>> _ = deal.call_trump("S")
        >>> [m.kind for m in deal.moves(0)], len(deal.moves(0)[0].cards)
        (['play'], 13)
        """
        seat = _check_seat(seat)
        r = self.rules
        out = []
        phase = self.phase
        if phase is _TRUMP and seat == self.trump_caller:
            if r.trump_method == "called":
                out.append(Move("call_trump", suits=tuple(Suit)))
            elif r.trump_method in ("shown", "hidden"):
                out.append(Move("choose_trump_card", cards=tuple(held(self._mask(seat)))))
            if r.allow_deferred:
                numbers = tuple(range(6, 14)) if r.deferred_card == "numbered" else (None,)
                out.append(Move("defer_trump", numbers=numbers))
        elif phase is _PLAY:
            # (the checks the actions make, without the sentences of their refusals: a
            # front end asks for the moves of every seat after every card)
            if seat == self._to_play:
                out.append(Move("play", cards=self._playable(seat)))
                if self._may_ask():
                    out.append(Move("ask_for_trump"))
            # every revoker of the open trick may take back its own revoke, whether or not
            # someone revoked before it (which it cannot see)
            if self._revokes and self._open_revoke(seat) is not None:
                out.append(Move("correct_revoke"))
        if self._revokes and self._claim_target(seat) is not None:
            out.append(Move("claim_revoke"))
        if (self._result is not None and team_of(seat) == self._result.winner
                and self._may_play_on()):
            out.append(Move("play_on"))
        return out

    def _playable(self, seat: int) -> tuple:
        """The cards ``seat``, to play now, may play: exactly those :meth:`_refuse_play`
        lets through (a revoking card too where revokes are allowed and the seat has not
        corrected a revoke in this trick), as held."""
        hand = self._hands[seat]
        li = self._ledi
        if (li >= 0 and hand[li] and self.rules.revokes == "allowed"
                and seat not in self._corrected):
            s0, s1, s2, s3 = hand
            return (*_H0[s0], *_H1[s1], *_H2[s2], *_H3[s3])
        return tuple(self.legal_cards())

    # ------------------------------------------------------------------ checks
    def legal_cards(self) -> list[Card]:
        """The cards ``to_play`` may lawfully play now, as held ([] outside play)."""
        if self.phase is not _PLAY:
            return []
        seat = self._to_play
        hand = self._hands[seat]
        li = self._ledi
        if li >= 0:
            m = hand[li]
            if m:
                return list(_HELD_SUIT[li][m])
            trump = self._trump
            if self._asked == seat and trump is not None and hand[trump]:
                return list(_HELD_SUIT[trump][hand[trump]])
        s0, s1, s2, s3 = hand
        return [*_H0[s0], *_H1[s1], *_H2[s2], *_H3[s3]]

    def _refuse_play(self, card: Card) -> str | None:
        """Why ``card`` may not be played now (None if it may; revokes allowed counted as may)."""
        if self.phase is not _PLAY:
            return self._not_playing_reason()
        seat = self._to_play
        name = self.rules.seat_name(seat)
        hand = self._mask(seat)
        if not hand & card.bit:
            # its owner knows a face-down card set aside by choice; a random one is unseen by
            # all, and its refusal must not name it
            if (card is self._hidden and seat == self.trump_caller
                    and self.rules.trump_method == "hidden"):
                return tr("{seat} cannot play {card}: it is the face-down trump card, which "
                          "cannot be played until it is shown.", seat=name, card=card)
            if self._trick:                 # name the suit led, as every refusal does (RULES 4)
                led = self._led
                if hand & SUIT_MASKS[led]:
                    follow = held_suit(hand, led)
                    # one message per number of cards held: Urdu and Hindi say "holds" as
                    # ہے / है for one card and ہیں / हैं for more (English says it alike)
                    return trn("{seat} does not hold {card}: {suit} were led and {seat} holds "
                               "{cards}.", "{seat} does not hold {card}: {suit} were led and "
                               "{seat} holds {cards}.", len(follow), seat=name, card=card,
                               suit=suit_word(led), cards=list_cards(follow))
                return tr("{seat} does not hold {card}: {suit} were led, {seat} holds none and "
                          "may play any of {cards}.", seat=name, card=card, suit=suit_word(led),
                          cards=list_cards(held(hand)))
            mine = held(hand)
            return trn("{seat} does not hold {card}; {seat} holds {cards}.",
                       "{seat} does not hold {card}; {seat} holds {cards}.", len(mine),
                       seat=name, card=card, cards=list_cards(mine))
        if self._trick:
            led = self._led
            if card.suit != led and hand & SUIT_MASKS[led]:
                if self.rules.revokes == "allowed" and seat not in self._corrected:
                    return None
                reason = illegal_reason(self.rules, seat, card, led, hand)
                if seat in self._corrected:
                    reason += " " + tr("Having corrected a revoke, {seat} must now follow suit.",
                                       seat=name)
                return reason
            if (card.suit != led and self._asked == seat and self._trump is not None
                    and card.suit != self._trump and hand & SUIT_MASKS[self._trump]):
                trumps = held_suit(hand, self._trump)
                return trn("{seat} cannot play {card}: {seat} asked for the trump and must now "
                           "play a trump ({suit}), holding {cards}.", "{seat} cannot play {card}: "
                           "{seat} asked for the trump and must now play a trump ({suit}), "
                           "holding {cards}.", len(trumps), seat=name, card=card,
                           suit=suit_word(self._trump), cards=list_cards(trumps))
        return None

    def _not_playing_reason(self) -> str:
        if self.phase is _OVER:
            return tr("The deal is over: no more cards can be played. Start a new deal.")
        caller = self.rules.seat_name(self.trump_caller)
        if self.rules.trump_method in ("shown", "hidden"):
            return tr("The trump is not fixed yet: {seat}, the trump caller, must first choose a "
                      "trump card from their first five (choose_trump_card).", seat=caller)
        return tr("The trump is not fixed yet: {seat}, the trump caller, must first call the "
                  "trump suit (call_trump).", seat=caller)

    def verify_play(self, card: "Card | str") -> None:
        """Raise what ``play(card)`` would raise (a CardError for bad text, an
        :class:`IllegalPlay` with its reason), changing nothing; return None if it may be played."""
        card = Card.parse(card)
        reason = self._refuse_play(card)
        if reason is not None:
            raise IllegalPlay(reason)

    def can_play(self, card) -> bool:
        """Whether ``play(card)`` would be accepted (a revoke counts when revokes are allowed)."""
        try:
            card = Card.parse(card)
        except CardError:
            return False
        return self._refuse_play(card) is None

    # ------------------------------------------------------------------ moves
    def play(self, card: "Card | str") -> list[Event]:
        """Play ``card`` for ``to_play``; returns the events it added (the card, and the trick,
        pile and end when it completes them). Raises :class:`IllegalPlay` (and changes nothing)
        if it may not be played: :meth:`verify_play` raises the same."""
        if card.__class__ is not Card:
            card = Card.parse(card)
        if self._fast_play:
            # the commonest case, checked inline: held, and following suit if able
            seat = self._to_play
            hand = self._hands[seat]
            si = card.si
            m = hand[si]
            if m & card.sbit:
                li = self._ledi
                if li < 0 or li == si or not hand[li]:
                    hand[si] = m ^ card.sbit
                    row = self._plays[seat][li]
                    ev = row[card.index]
                    if ev is None:
                        ev = row[card.index] = _tnew(_PLAYED, ("play", seat, card, self._led,
                                                       self._trump, self.rules))
                    log = self._log
                    log.append(ev)
                    trick = self._trick
                    trick.append(card)
                    if len(trick) == 4:
                        n = len(log) - 1
                        self._finish_trick()
                        return log[n:]
                    if li < 0:
                        self._led = card.suit
                        self._ledi = si
                    self._to_play = (seat + 1) & 3
                    return [ev]
        reason = self._refuse_play(card)
        if reason is not None:
            raise IllegalPlay(reason)
        log = self._log
        n = len(log)
        self._do_play(card)
        return log[n:]

    def _do_play(self, card: Card):
        seat = self._to_play
        hand = self._mask(seat)
        trick = self._trick
        led = self._led
        self._hands[seat][card.si] ^= card.sbit
        self._log.append(_tnew(_PLAYED, ("play", seat, card, led, self._trump, self.rules)))
        revoking = led is not None and card.suit != led and hand & SUIT_MASKS[led]
        if self._revokes:
            self._check_proof(seat, card)
        if revoking:
            holding = tuple(held_suit(hand, led))
            self._revokes.append([seat, len(self._tricks), card, led, False, False, len(trick)])
            self._add("revoke", seat, card, (led, holding), frozenset((seat,)))
        # first_void: the first card off the suit led fixes the trump, a revoking card too: the
        # table cannot tell a revoke from a void, and nobody's view may (a correction unfixes it)
        if (led is not None and card.suit != led and self._trump is None
                and self.rules.trump_method == "first_void" and self._fixed_at is None):
            self._trump = card.suit
            self._fixed_at = (len(self._tricks), len(trick))
            self._add("trump_fixed", seat, card, (led,), None)
        trick.append(card)
        if led is None:
            self._led = card.suit
            self._ledi = card.si
        if len(trick) == 4:
            self._finish_trick()
        else:
            self._set_turn((seat + 1) & 3)

    def _check_proof(self, seat: int, card: Card):
        for rv in self._revokes:
            if rv[0] == seat and not rv[5] and rv[3] == card.suit and rv[1] < len(self._tricks):
                rv[5] = True
                self._add("revoke_proven", seat, rv[2], (rv[3], card, rv[1] + 1), None)

    def _set_turn(self, seat: int):
        self._to_play = seat
        if (self._hidden is not None and seat == self.trump_caller
                and not any(self._hands[seat]) and self.phase is _PLAY):
            self._reveal("empty", None)

    def _reveal(self, why: str, asker):
        card = self._hidden
        owner = self.trump_caller
        self._hidden = None
        self._hands[owner][card.si] |= card.sbit
        self._trump = card.suit
        self._trump_card = card
        self._revealed_at = (len(self._tricks), len(self._trick))
        self._add("reveal", owner, card, (why, asker), None)

    def _finish_trick(self):
        trick = self._trick
        trump = self._trump
        lead = self._leader
        # RULES.md 4: the highest trump, else the highest card of the suit led (written out
        # for the three cards after the lead: a third faster than a loop, once per trick)
        a, b, c, d = trick
        led = a.suit
        best, win = a, 0
        if b.suit is led:
            if b.rank > a.rank:
                best, win = b, 1
        elif b.suit is trump:
            best, win = b, 1
        if c.suit is best.suit:
            if c.rank > best.rank:
                best, win = c, 2
        elif c.suit is trump:
            best, win = c, 2
        if d.suit is best.suit:
            if d.rank > best.rank:
                best, win = d, 3
        elif d.suit is trump:
            best, win = d, 3
        win_seat = (lead + win) & 3
        number = len(self._tricks)
        self._tricks.append((lead, trick, win_seat, best))
        self._trick = []
        self._led = None
        self._ledi = -1
        self._asked = None
        self._corrected = ()
        self._leader = win_seat
        by_trump = best.suit is trump
        events, log = self._events, self._log
        row = events.tricks[best.index][win_seat]
        i = a.si + 4 if by_trump else a.si
        ev = row[i]
        if ev is None:
            ev = row[i] = _tnew(_TRICK_WON, ("trick", win_seat, best, by_trump, led, self.rules))
        log.append(ev)
        if self._revokes:
            for rv in self._revokes:
                if rv[1] == number:
                    rv[4] = True
        if self._cp:
            # (Court Piece counts its tens only when asked: see tens_won)
            self._won[win_seat & 1] += 1
            # nothing can end a Court Piece deal before its seventh trick; played on after
            # it is decided, only the seventh (a court?) and the last trick can change it
            result = (self._court_piece_end(number + 1) if number >= 6 and (
                number == 6 or number == 12 or self.rules.stop_when_decided) else None)
        else:
            # the trick's tens go with it (scoring.tens_in, unrolled)
            self._centre_tens += (a.rank == 10) + (b.rank == 10) + (c.rank == 10) + (d.rank == 10)
            if win_seat == self._run_seat and self._run_len or number == 12:
                self._pile(number, best, win_seat)    # a second trick in a row, or the last
            else:       # the commonest step of _pile, inline: the trick goes to the centre
                self._run_seat = win_seat
                self._run_len = 1
                centre = self._centre
                centre.append(number)
                n = len(centre)
                # (the table read inline: a method call per trick is the slow part)
                log.append(events.centre[win_seat][n] or events.to_centre(win_seat, n))
            if (self._ndealt < 13 and self.rules.trump_method == "first_void"
                    and (self._trump is not None or number >= 4)):
                self._deal_rest()
            # without stop_when_decided only the thirteenth trick can end the deal
            result = (self._outcome_if_decided(number + 1)
                      if number == 12 or self.rules.stop_when_decided else None)
        if result is not None:
            self._finish(result)
            self._to_play = win_seat
        elif self._hidden is None:
            self._to_play = win_seat
        else:
            self._set_turn(win_seat)

    # --------------------------------------------------------------- the piles
    def _pile(self, number: int, best: Card, win_seat: int):
        """RULES.md section 6 for a trick that may take the centre pile: the last trick, or
        a player's second trick in a row (a trick on its own goes to the centre in
        :meth:`_finish_trick`)."""
        centre = self._centre
        centre.append(number)
        n = len(centre)
        if win_seat == self._run_seat:
            self._run_len += 1
        else:
            self._run_seat, self._run_len = win_seat, 1
        if number == 12:                       # the last trick takes what is left
            self._take_centre(win_seat & 1)
            self._log.append(self._events.taken(1, win_seat, n))
            return
        r = self.rules
        blocked = None
        if not r.first_two_capture and number == 1:
            blocked = "first_two"
        elif (not r.aces_capture and best.rank == _ACE_RANK
              and self._tricks[number - 1][3].rank == _ACE_RANK):
            blocked = "aces"
        elif (r.trump_method == "first_void" and r.game == "double_sir"
              and (self._fixed_at is None or number <= self._fixed_at[0])):
            blocked = "be_ranga"
        if blocked:
            self._add("no_capture", win_seat, None, (blocked, n), None)
            return
        self._take_centre(win_seat & 1)
        self._run_len = 0
        self._log.append(self._events.taken(0, win_seat, n))

    def _take_centre(self, team: int):
        self._tens[team] += self._centre_tens
        self._won[team] += len(self._centre)
        self._centre = []
        self._centre_tens = 0

    # ----------------------------------------------------------------- the end
    def _court_piece_end(self, n: int):
        """The result after the ``n``-th trick of a Court Piece deal, or None (scoring.py)."""
        won = self._won
        r = self.rules
        if n == 7 and (won[0] == 7 or won[1] == 7):
            self._seven = team = 0 if won[0] == 7 else 1
            if not r.stop_when_decided:
                self._add("seven", None, None, (team, team == self.dealer & 1), None)
        out = court_piece_result(self.dealer, (won[0], won[1]), self._seven, n, r.stop_when_decided)
        return None if out is None else DealResult(*out, self.tricks_won, self.tens_won)

    def _outcome_if_decided(self, n: int):
        """Double Sir and Dehla Pakad: the result once it can no longer change (RULES.md
        section 7; see :func:`courtlearn.scoring.decided_result`), else None."""
        won, tens = (self._won[0], self._won[1]), (self._tens[0], self._tens[1])
        if n == 13:
            out = final_result(self.rules, self.dealer, won, tens)
        elif self.rules.stop_when_decided:
            out = decided_result(self.rules, self.dealer, won, tens)
        else:
            return None
        return None if out is None else DealResult(*out, won, tens)

    def _finish(self, result: DealResult):
        self._result = result
        self._set_phase(_OVER)
        self._add("end", None, None, (result, self.dealer), None)

    # ------------------------------------------------------------ trump moves
    def _caller_check(self, what: str, methods: tuple):
        if self.phase is not _TRUMP:
            if self.phase is _OVER:
                raise ValueError(tr("The deal is over: {action} is no longer possible.",
                                    action=what))
            raise ValueError(tr("The trump is already fixed: {action} is only for the trump "
                                "phase.", action=what))
        if self.rules.trump_method not in methods:
            raise ValueError(self._trump_how(what))

    def _trump_how(self, what: str) -> str:
        m = self.rules.trump_method
        caller = self.rules.seat_name(self.trump_caller)
        if m == "called":
            return tr("These rules fix the trump by a call (trump_method='called'): {seat} uses "
                      "call_trump(suit), not {action}.", seat=caller, action=what)
        if m in ("shown", "hidden"):
            return tr("These rules fix the trump with a card (trump_method={method!r}): {seat} "
                      "uses choose_trump_card(card), not {action}.", method=m, seat=caller,
                      action=what)
        return tr("With trump_method={method!r} nobody chooses the trump: {action} is not "
                  "possible.", method=m, action=what)

    def verify_call_trump(self, suit: "Suit | str") -> Suit:
        """Raise what ``call_trump(suit)`` would raise, changing nothing (returns the suit)."""
        s = Suit.parse(suit)
        self._caller_check("call_trump", ("called",))
        return s

    def can_call_trump(self, suit: "Suit | str") -> bool:
        return _accepts(self.verify_call_trump, suit)

    def call_trump(self, suit: "Suit | str") -> list[Event]:
        """The trump caller names the trump suit (``trump_method="called"``); returns the
        events added."""
        n = len(self._log)
        self._do_call(self.verify_call_trump(suit))
        return self._log[n:]

    def _do_call(self, s: Suit):
        self._trump = s
        self._add("call", self.trump_caller, None, (s,), None)
        self._begin_play()

    def _begin_play(self):
        self._deal_rest()
        self._set_phase(_PLAY)
        self._set_turn(self.trump_caller)

    def verify_choose_trump_card(self, card: "Card | str") -> Card:
        """Raise what ``choose_trump_card(card)`` would raise, changing nothing (returns the card)."""
        c = Card.parse(card)
        self._caller_check("choose_trump_card", ("shown", "hidden"))
        caller = self.trump_caller
        if not self._hands[caller][c.si] & c.sbit:
            name = self.rules.seat_name(caller)
            raise ValueError(tr("{card} is not among {seat}'s first five cards; choose one of "
                                "{cards}.", card=c, seat=name,
                                cards=list_cards(held(self._mask(caller)))))
        return c

    def can_choose_trump_card(self, card: "Card | str") -> bool:
        return _accepts(self.verify_choose_trump_card, card)

    def choose_trump_card(self, card: "Card | str") -> list[Event]:
        """The trump caller picks one of their first five cards (``shown`` or ``hidden``);
        returns the events added."""
        n = len(self._log)
        self._do_choose(self.verify_choose_trump_card(card))
        return self._log[n:]

    def _do_choose(self, c: Card):
        caller = self.trump_caller
        if self.rules.trump_method == "shown":
            self._trump = c.suit
            self._trump_card = c
            self._add("show", caller, c, (), None)
        else:
            self._hidden = c
            self._hands[caller][c.si] &= ~c.sbit
            self._add("set_aside", caller, c, (), frozenset((caller,)))
            others = frozenset(s for s in range(4) if s != caller)
            self._add("set_aside_public", caller, None, (), others)
        self._begin_play()

    def defer_trump(self, number: int | None = None) -> list[Event]:
        """The trump caller declines to choose from five; a later card fixes the trump.

        ``deferred_card="next"``: the first card of the next batch; ``"random"``: a random
        card of the next batch; ``"numbered"``: card ``number`` (6..13) of the caller's deal.
        Returns the events added.
        """
        n = len(self._log)
        self.verify_defer_trump(number)
        self._do_defer(number)
        return self._log[n:]

    def can_defer_trump(self, number: int | None = None) -> bool:
        return _accepts(self.verify_defer_trump, number)

    def verify_defer_trump(self, number: int | None = None) -> None:
        """Raise what ``defer_trump(number)`` would raise, changing nothing."""
        r = self.rules
        if self.phase is not _TRUMP:
            self._caller_check("defer_trump", (r.trump_method,))
        if not r.allow_deferred:
            raise ValueError(tr("These rules do not allow deferring the trump "
                                "(allow_deferred=False); make the rules with allow_deferred=True "
                                "to use defer_trump()."))
        if r.deferred_card == "numbered":
            if isinstance(number, bool) or not isinstance(number, int) or not 6 <= number <= 13:
                raise ValueError(tr("With deferred_card='numbered' name a card number from 6 to "
                                    "13 of your deal, e.g. defer_trump(7); got {number!r}.",
                                    number=quoted(number)))
        elif number is not None:
            raise ValueError(tr("With deferred_card={how!r} the card is not chosen by number: "
                                "call defer_trump() with no number.", how=r.deferred_card))

    def _do_defer(self, number):
        r = self.rules
        caller = self.trump_caller
        order = self._order[caller]
        if r.deferred_card == "next":
            card = order[5]
        elif r.deferred_card == "random":
            card = order[5 + _seed_for(self.seed, "deferred").randrange(4)]
        else:
            card = order[number - 1]
        self._add("defer", caller, None, (r.deferred_card, number), None)
        self._trump = card.suit
        self._trump_card = card
        self._deal_rest()
        self._add("turn", caller, card, (), None)
        self._set_phase(_PLAY)
        self._set_turn(caller)

    def ask_for_trump(self) -> list[Event]:
        """A player to play who cannot follow suit asks to see the face-down trump card;
        returns the events added."""
        n = len(self._log)
        self.verify_ask_for_trump()
        self._do_ask()
        return self._log[n:]

    def verify_ask_for_trump(self) -> None:
        """Raise what ``ask_for_trump()`` would raise, changing nothing."""
        reason = self._refuse_ask()
        if reason:
            raise ValueError(reason)

    def _refuse_ask(self) -> str | None:
        r = self.rules
        if r.trump_method not in ("hidden", "hidden_random"):
            return tr("There is no face-down trump card to ask for (trump_method={method!r}); "
                      "asking is for 'hidden' and 'hidden_random'.", method=r.trump_method)
        if self.phase is not _PLAY:
            return tr("Asking for the trump is only possible during play.")
        if self._hidden is None:
            if self._trump is None:
                return tr("The trump card has already been shown: ")
            return tr("The trump card has already been shown: {suit} are trumps.",
                      suit=suit_word(self._trump))
        seat = self._to_play
        name = self.rules.seat_name(seat)
        if not self._trick:
            return tr("{seat} is leading: only a player who cannot follow the suit led may ask "
                      "for the trump.", seat=name)
        led = self._led
        if self._hands[seat][led]:
            follow = held_suit(self._mask(seat), led)
            return trn("{seat} can follow {suit} (holding {cards}), so may not ask for the trump.",
                       "{seat} can follow {suit} (holding {cards}), so may not ask for the trump.",
                       len(follow), seat=name, suit=suit_word(led), cards=list_cards(follow))
        return None

    def can_ask_for_trump(self) -> bool:
        """Whether ``ask_for_trump()`` would be accepted now."""
        return self._may_ask()

    def _may_ask(self) -> bool:
        """Whether :meth:`_refuse_ask` lets the player to play ask (no sentence built)."""
        return (self._hidden is not None and self.phase is _PLAY and len(self._trick) > 0
                and self.rules.trump_method in ("hidden", "hidden_random")
                and not self._hands[self._to_play][self._ledi])

    def _do_ask(self):
        seat = self._to_play
        led = self._led
        self._add("ask", seat, None, (led,), None)
        self._asked = seat
        self._reveal("asked", seat)

    def correct_revoke(self, seat: int | None = None) -> list[Event]:
        """Take back a revoke of the open trick, and every card played after it; returns
        the events added. With no seat, the earliest revoke of the open trick, whoever is
        to play; with a seat, that seat's own revoke (its revoker's move: what the table
        sends, since a revoker cannot see whether an earlier card was a revoke too).

        >>> import courtlearn as cl
        >>> deal = cl.Deal.prearranged(cl.Rules.court_piece(revokes="allowed"), [
        ...     "AS 2S 3S 4S 5S 2H 3H 4H 5H 6H 7H 8H 9H", "KS AH KH QH JH 2D 3D 4D 5D 6D 7D 8D 9D",
        ...     "QS 10H 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC",
        ...     "JS 10S 9S 8S 7S 6S KC AC 10D JD QD KD AD"], dealer=3)
        >>> _ = deal.apply("call:C AS AH 10H")      # East and North both revoke
        >>> _ = deal.correct_revoke(2)              # North takes back its own 10♥ only
        >>> deal.trick.cards, deal.to_play, deal.actions[-1]
        (((0, Card.parse('AS')), (1, Card.parse('AH'))), 2, 'correct:2')
        """
        n = len(self._log)
        self.verify_correct_revoke(seat)
        self._do_correct(seat)
        return self._log[n:]

    def verify_correct_revoke(self, seat: int | None = None) -> None:
        """Raise what ``correct_revoke(seat)`` would raise, changing nothing."""
        if seat is not None:
            seat = _check_seat(seat)
            if self._open_revoke(seat) is None:     # one sentence whatever the others did
                raise ValueError(tr("{seat} has no revoke in the open trick to correct: a "
                                    "revoke can only be corrected by its revoker, before its "
                                    "trick is complete.", seat=self.rules.seat_name(seat)))
        elif self._open_revoke() is None:
            raise ValueError(tr("There is no revoke in the open trick to correct: a revoke can "
                                "only be corrected before its trick is complete."))

    def can_correct_revoke(self, seat: int | None = None) -> bool:
        return _accepts(self.verify_correct_revoke, seat)

    def _open_revoke(self, seat: int | None = None):
        """The revoke of the open trick a correction takes back: the earliest, or with a
        seat that seat's own (a seat plays once a trick); None if there is none."""
        if self.phase is not _PLAY:
            return None
        number = len(self._tricks)
        open_ = [rv for rv in self._revokes if rv[1] == number and (seat is None or rv[0] == seat)]
        return min(open_, key=lambda rv: rv[6]) if open_ else None

    def _do_correct(self, seat: int | None = None):
        number = len(self._tricks)
        rv = self._open_revoke(seat)
        pos = rv[6]
        back = self._trick[pos:]
        del self._trick[pos:]
        for i, c in enumerate(back, pos):
            self._hands[(self._leader + i) & 3][c.si] |= c.sbit
        if not self._trick:
            self._led, self._ledi = None, -1
        self._revokes = [x for x in self._revokes if not (x[1] == number and x[6] >= pos)]
        if self._fixed_at is not None and self._fixed_at[0] == number and self._fixed_at[1] >= pos:
            self._trump = None
            self._fixed_at = None
        if self._revealed_at is not None and self._revealed_at[0] == number \
                and self._revealed_at[1] > pos:       # the cards from pos on are played after it
            self._revealed_at = (number, pos)
        self._add("correct", rv[0], rv[2], (rv[3], tuple(back)), None)
        self._to_play = rv[0]
        if rv[0] not in self._corrected:
            self._corrected += (rv[0],)

    def claim_revoke(self, seat: int) -> list[Event]:
        """``seat`` claims an established revoke by an opponent: the deal ends, a court to
        the claimer's team. Returns the events added."""
        n = len(self._log)
        self.verify_claim_revoke(seat)
        self._do_claim(seat)
        return self._log[n:]

    def verify_claim_revoke(self, seat: int) -> None:
        """Raise what ``claim_revoke(seat)`` would raise, changing nothing."""
        seat = _check_seat(seat)
        reason, _ = self._claimable(seat)
        if reason:
            raise ValueError(reason)

    def can_claim_revoke(self, seat: int) -> bool:
        return _accepts(self.verify_claim_revoke, seat)

    def _claim_target(self, seat: int):
        """The revoke ``seat``'s claim would take (the first established revoke of an
        opponent), or None when a claim is refused."""
        if self.phase is _OVER:
            return None
        team = team_of(seat)
        for rv in self._revokes:
            if rv[4] and team_of(rv[0]) != team:
                return rv
        return None

    def _claimable(self, seat: int):
        name = self.rules.seat_name(seat)
        if self.phase is _OVER:
            return tr("The deal is over: a revoke can only be claimed before the deal ends."), None
        rv = self._claim_target(seat)
        if rv is not None:
            return None, rv
        # one refusal whatever the opponents did in the open trick: a revoke there is the
        # revoker's secret until it is established (and a claimer cannot know of it)
        opp = self.rules.team_name(1 - team_of(seat))
        return tr("{seat} cannot claim a revoke: no player of {side} has an established revoke.",
                  seat=name, side=opp), None

    def _do_claim(self, seat: int):
        _, rv = self._claimable(seat)
        self._add("claim", seat, rv[2], (rv[0], rv[3], rv[1] + 1), None)
        self._finish(DealResult(team_of(seat), 1, "revoke", self.tricks_won, self.tens_won))

    def can_play_on(self) -> bool:
        return self._may_play_on()

    def _may_play_on(self) -> bool:
        r = self._result
        return (self.rules.game == "court_piece" and r is not None and r.kind in ("court", "goon")
                and self._seven is not None and len(self._tricks) == 7 and not self._played_on)

    def _refuse_play_on(self):
        if self._may_play_on():
            return None
        return tr("play_on() is only for a Court Piece team that has just won the first seven "
                  "tricks: it reopens the deal to try for all thirteen (a bavney).")

    def play_on(self) -> list[Event]:
        """After a Court Piece court in the first seven tricks, play on for a bavney;
        returns the events added."""
        n = len(self._log)
        self.verify_play_on()
        self._do_play_on()
        return self._log[n:]

    def verify_play_on(self) -> None:
        """Raise what ``play_on()`` would raise, changing nothing."""
        reason = self._refuse_play_on()
        if reason:
            raise ValueError(reason)

    def _do_play_on(self):
        team = self._result.winner
        self._played_on = True
        self._result = None
        self._set_phase(_PLAY)
        self._add("play_on", None, None, (team,), None)
        self._set_turn(self._leader)

    # ------------------------------------------------------- undo and replay
    def _apply(self, token: str):
        """Apply one action token (as in ``actions``), checked like the public methods."""
        if token.__class__ is Card:
            return self.play(token)
        kind, _, arg = token.partition(":")
        if kind == "call":
            self.call_trump(arg)
        elif kind == "choose":
            self.choose_trump_card(arg)
        elif kind == "defer":
            if arg and not (arg.isdecimal() and len(arg) <= 2):
                raise ValueError(f"defer takes a card number 6..13: {quoted(token)!r}")
            self.defer_trump(int(arg) if arg else None)
        elif kind == "ask" and not arg:
            self.ask_for_trump()
        elif kind == "correct":
            if arg and not (arg.isdecimal() and len(arg) == 1):
                raise ValueError(f"correct takes a seat number 0..3: {quoted(token)!r}")
            self.correct_revoke(int(arg) if arg else None)
        elif kind == "claim":
            if not (arg.isdecimal() and len(arg) == 1):
                raise ValueError(f"claim needs a seat number 0..3: {quoted(token)!r}")
            self.claim_revoke(int(arg))
        elif kind == "play_on" and not arg:
            self.play_on()
        elif not arg:
            self.play(Card.parse(kind))
        else:
            raise ValueError(f"{quoted(token)!r} is not a move: write a card (AS), call:S, choose:7S, "
                             f"defer, defer:7, ask, correct, correct:2, claim:1 or play_on.")

    def apply(self, actions) -> list[Event]:
        """Take ``actions`` in order, written as ``deal.actions`` lists them: a card
        (``"AS"``), ``"call:S"``, ``"choose:7S"``, ``"defer"`` / ``"defer:7"``, ``"ask"``,
        ``"correct"`` (the earliest revoke of the trick) / ``"correct:2"`` (seat 2's own),
        ``"claim:1"``, ``"play_on"`` (text separated by spaces, or a list).
        Returns the events added. Each action is checked like its own method; a refused
        one raises, with the actions before it taken.

        >>> import courtlearn as cl
        >>> deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
        >>> [e.kind for e in deal.apply("call:S 10S")]
        ['call', 'deal_rest', 'play']
        """
        tokens = actions.split() if isinstance(actions, str) else _tokens(actions)
        n = len(self._log)
        for token in tokens:
            self._apply(token)
        return self._log[n:]

    def _fresh(self) -> "Deal":
        d = Deal.__new__(Deal)
        d.rules, d.dealer, d.trump_caller, d.seed = self.rules, self.dealer, self.trump_caller, self.seed
        d._order = self._order
        d._start()
        return d

    def undo(self) -> None:
        """Take back the last action (a card, a call, an ask, a correction, a claim...)."""
        actions = self._action_list()
        if not actions:
            raise ValueError(tr("There is nothing to undo: no action has been taken in this deal."))
        d = self._fresh()
        for token in actions[:-1]:
            d._apply(token)
        _take_state(self, d)

    def replay(self, upto: int) -> "Deal":
        """A copy of this deal after its first ``upto`` actions (for stepping through)."""
        actions = self._action_list()
        if isinstance(upto, bool) or not isinstance(upto, int) or not 0 <= upto <= len(actions):
            raise ValueError(tr("replay(upto) takes a number of actions from 0 to {n}, got "
                                "{upto!r}.", n=len(actions), upto=quoted(upto)))
        d = self._fresh()
        for token in actions[:upto]:
            d._apply(token)
        return d

    def copy(self) -> "Deal":
        return self.replay(self._action_count())

    # -------------------------------------------------------- saved forms
    def to_dict(self) -> dict:
        """A JSON-compatible dict that :meth:`from_dict` turns back into this very deal
        (:func:`courtlearn.notation.to_dict`)."""
        return notation.to_dict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "Deal":
        """The deal saved by :meth:`to_dict`; raises ValueError (only) on anything malformed."""
        return notation.from_dict(d, cls)

    def to_notation(self) -> str:
        """The short text form of this deal, for pasting into a lesson
        (:func:`courtlearn.notation.to_notation` describes it)."""
        return notation.to_notation(self)

    @classmethod
    def from_notation(cls, text: str) -> "Deal":
        """The deal written by :meth:`to_notation` (ValueError saying what is wrong)."""
        return notation.from_notation(text, cls)

    # ------------------------------------------------------------- the view
    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now: its own hand, every card played, public trumps,
        its own face-down trump card, voids shown, provable revokes, visible events."""
        seat = _check_seat(seat)
        trump_card = self._trump_card
        if (self._hidden is not None and seat == self.trump_caller
                and self.rules.trump_method == "hidden"):
            trump_card = self._hidden
        # The parts every seat sees alike are made once per state of the deal, and each
        # seat's events are filtered only from where its last view stopped (four views a
        # move at a class table; the log only grows, and undo starts a new one).
        log = self._log
        n = len(log)
        memo = self._view_memo
        if memo is None or memo[0] is not log:
            memo = self._view_memo = [log, -1, None, None, None, None, None,
                                      None, None, None, None]
        if memo[1] != n:
            memo[1] = n
            memo[2] = (self.trick, tuple(self._records()), tuple(self.centre), self.voids(),
                       tuple([Revoke(s, t, c, led, bool(e), True)
                              for s, t, c, led, e, p, _ in self._revokes if p]), self._sizes())
        seen = memo[3 + seat]
        if seen is None:
            seen = (0, ())
        if seen[0] != n:
            # (Event.visible_to, inline: a card or a trick, the commonest, is always public)
            seen = memo[3 + seat] = (n, seen[1] + tuple(
                [e for e in log[seen[0]:] if (a := e.audience) is None or seat in a]))
        trick, tricks, centre, voids, revokes, sizes = memo[2]
        legal = Cards(self.legal_cards()) if self._to_play == seat else Cards()
        mask = self._mask(seat)
        hand = memo[7 + seat]                  # (mask, Cards): a hand changes only when
        if hand is None or hand[0] != mask:    # its own seat plays (an immutable tuple)
            hand = memo[7 + seat] = (mask, Cards(held(mask)))
        return _seat_view({
            "seat": seat, "phase": self.phase, "dealer": self.dealer,
            "trump_caller": self.trump_caller, "to_play": self._to_play, "hand": hand[1],
            "trump": self._trump, "trump_card": trump_card, "trick": trick, "tricks": tricks,
            "centre": centre, "tricks_won": (self._won[0], self._won[1]), "voids": voids,
            "revokes": revokes, "events": seen[1], "rules": self.rules, "hand_sizes": sizes,
            "stock_size": 52 - 4 * self._ndealt, "hidden_trump": self._hidden is not None,
            "result": self._result, "legal": legal})

    def voids(self) -> tuple:
        """Per seat, the suits it has shown it lacks (failing to follow, or not trumping
        after asking to see the trump), minus suits it has played since.

        When the rest of the cards are dealt during play (Dehla Pakad's first-void
        method), only the tricks after that count: the new cards may fill any void.
        When a face-down trump card is shown into its owner's hand, a void the owner
        had shown in its suit lapses: everyone now sees the owner holds that suit.
        """
        log = self._log
        memo = self._voids_memo
        if memo is not None and memo[0] is log and memo[1] == len(log):
            return memo[2]
        # who asked in which trick (asks are public), and since which trick hands are full:
        # read off the log where the rules allow either
        asked_in = {}
        first = 0
        if self.rules.trump_method in ("hidden", "hidden_random", "first_void"):
            number = 0
            for e in log:
                k = e[0]
                if k == "trick":
                    number += 1
                elif k == "ask":
                    asked_in[number] = e[1]
                elif k == "deal_rest":
                    first = number
        # per seat, the suits shown lacking as a 4-bit mask (bit i: suit i)
        shown = [0, 0, 0, 0]
        revealed = self._revealed_at       # (trick, position) the face-down trump card was shown
        caller = self.trump_caller
        trump = self._trump
        tricks = self._tricks
        n = len(tricks)
        # With no asks, no cards dealt in play and no face-down trump card shown, the
        # completed tricks' part is theirs alone, and they are only ever added to (a
        # revoke's correction takes back cards of the open trick; an undo brings another
        # log): go on from the masks after the tricks read last time (a class table asks
        # once a move; reading every trick again was some 3% of a move, issue 29).
        simple = revealed is None and not asked_in and first == 0
        if simple and memo is not None and memo[0] is log and memo[3] is not None:
            k, after, last = memo[3]
            if k <= n and (k == 0 or tricks[k - 1] is last):
                first, shown = k, list(after)
        done = None
        for number in range(first, n + 1):
            if number == n and simple:
                done = (n, tuple(shown), tricks[n - 1] if n else None)
            lead, cards = (tricks[number][0], tricks[number][1]) if number < n else \
                (self._leader, self._trick)
            if not cards:
                continue
            led = cards[0].si
            asker = asked_in.get(number, -1)
            for i, c in enumerate(cards):
                s = (lead + i) & 3
                if revealed is not None and (number, i) >= revealed:   # shown before this card
                    shown[caller] &= ~(1 << self._trump_card.si)
                    revealed = None
                si = c.si
                m = shown[s] & ~(1 << si)
                if si != led:
                    m |= 1 << led
                    if s == asker and trump is not None and si != trump:
                        m |= 1 << trump
                shown[s] = m
        if revealed is not None:                 # shown after the last card played
            shown[caller] &= ~(1 << self._trump_card.si)
        out = (_SUITS_IN[shown[0]], _SUITS_IN[shown[1]], _SUITS_IN[shown[2]],
               _SUITS_IN[shown[3]])
        self._voids_memo = (log, len(log), out, done)
        return out

    # ---------------------------------------------------------- conveniences
    def history(self):
        """A pandas DataFrame with one row per card played (pandas loads on first use)."""
        from .frames import history
        return history(self)

    def __eq__(self, other):
        if not isinstance(other, Deal):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None

    def __repr__(self) -> str:
        with using("en"):                   # a repr is for programs: always in English
            return self._repr()

    def _repr(self) -> str:
        where = {_TRUMP: f"{self.rules.seat_name(self.trump_caller)} to fix the trump",
                 _PLAY: f"trick {len(self._tricks) + 1}, "
                             f"{self.rules.seat_name(self._to_play)} to play",
                 _OVER: "over"}[self.phase]
        trump = f", trump {self._trump.symbol}" if self._trump is not None else ""
        return (f"<Deal {self.rules.game} dealer={self.rules.seat_name(self.dealer)}"
                f"{trump}, {where}, tricks {self._won[0]}-{self._won[1]}>")

    def _repr_html_(self):
        try:
            from .render import deal_html
        except ImportError:
            return None
        return deal_html(self)

    def __getstate__(self):
        return self.to_dict()

    def __setstate__(self, state):
        _take_state(self, Deal.from_dict(state))


def _tokens(actions) -> list:
    """The actions of :meth:`Deal.apply` given as a list (or any iterable) of Cards and
    text; a TypeError, before anything is taken, for anything else."""
    try:
        tokens = list(actions) if not isinstance(actions, (bytes, dict, Card)) else None
    except TypeError:
        tokens = None
    if tokens is None or not all(t.__class__ is Card or isinstance(t, str) for t in tokens):
        raise TypeError(tr("actions are text like \"call:S 10S\" or a list of such moves and "
                           "cards, got {actions!r}.", actions=quoted(actions)))
    return [t if t.__class__ is Card else str(t) for t in tokens]


def _accepts(verify, *args) -> bool:
    """Whether ``verify(*args)`` passes (every refusal is a ValueError)."""
    try:
        verify(*args)
    except ValueError:
        return False
    return True


def _take_state(deal: "Deal", other: "Deal") -> None:
    for name in Deal.__slots__:
        setattr(deal, name, getattr(other, name))


def _check_seat(seat) -> int:
    """:func:`courtlearn.rules.check_seat`, a plain int 0..3 let through at once (views and
    moves are asked for thousands of times a second)."""
    if seat.__class__ is int and 0 <= seat <= 3:
        return seat
    return check_seat(seat)
