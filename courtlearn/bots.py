"""Computer players and hints.

Every bot answers the decisions of a deal through the same small interface
(``../shared/API.md``): ``choose`` (a card for ``deal.to_play``), ``call_trump``,
``choose_trump_card``, ``asks_for_trump``, ``plays_on`` and ``defers_trump``
(the :class:`Bot` protocol); ``act(bot, deal)``, the one driver, asks the deal
which moves the deciding seat may make and makes the single decision it awaits.

* :class:`RandomBot` plays a uniformly random legal card (seeded).
* :class:`RuleBot` plays sensibly by simple rules of thumb.
* :class:`MonteCarloBot` thinks: it looks only at ``deal.view(seat)``, deals
  the cards it cannot see at random in ways that fit what it knows (cards
  played, suits players have shown they lack, hand sizes, a face-down trump
  card), plays each of those deals out quickly for every card it may play
  (:mod:`courtlearn.fastplay`), and picks the card with which its side wins
  the deal most often.
* :class:`BestPlayBot` looks at every hand and plays a best card by the exact
  solver (:func:`courtlearn.solve`): the defence of the lessons' try-it tables.

``hint(deal)`` asks a Monte Carlo bot for the seat to play and explains its
choice in plain words, from its own estimates.
"""
from __future__ import annotations

import functools
import random
import zlib
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol, runtime_checkable

from .cardbits import mask_of as _mask
from .cards import Suit, _whole, deck, quoted
from .language import suit_word, tr, trn

__all__ = ["BestPlayBot", "Bot", "Hint", "MonteCarloBot", "RandomBot", "RuleBot", "act",
           "check_samples", "deciding_seat", "hint"]

HIDDEN_METHODS = ("hidden", "hidden_random")
DEFAULT_SAMPLES = 400   # median decision well under 250 ms on 2 shared cores (bench/decision_time.py)
MAX_SAMPLES = 10_000    # play-outs per decision: seconds each already (as coach.MAX_SAMPLES)

#: Which play-outs the Monte Carlo bot, the hint and the review use: "auto" (numpy's
#: batches when numpy imports, else plain Python), "numpy" or "python". Both play the
#: same rules with the same rollout policy (tests/test_pureplay.py).
PLAYOUTS = "auto"


def _use_numpy() -> bool:
    if PLAYOUTS not in ("auto", "numpy", "python"):
        raise ValueError(f"courtlearn.bots.PLAYOUTS is {PLAYOUTS!r}; "
                         f"it must be 'auto', 'numpy' or 'python'")
    if PLAYOUTS == "python":
        return False
    try:
        import numpy  # noqa: F401
    except ImportError:
        if PLAYOUTS == "numpy":
            raise ImportError("courtlearn.bots.PLAYOUTS is 'numpy' but numpy is not "
                              "installed: pip install numpy, or set it to 'auto'") from None
        return False
    return True


# ------------------------------------------------------------------ helpers
def check_samples(samples) -> int:
    """How many play-outs: ``samples`` as a whole number from 1 to 10,000 (numpy's ints
    too; None: the default, 400); a ValueError naming what is expected for anything else
    (text and bools included). The same check and words as :func:`cl.review`'s.

    >>> check_samples(None), check_samples(50)
    (400, 50)
    >>> check_samples("10")
    Traceback (most recent call last):
    ...
    ValueError: samples is a whole number from 1 to 10000 (or None for the default), got '10'.
    """
    if samples is None:
        return DEFAULT_SAMPLES
    n = _whole(samples)
    if n is None or not 1 <= n <= MAX_SAMPLES:
        raise ValueError(tr("samples is a whole number from 1 to {most} (or None for the "
                            "default), got {value!r}.", most=MAX_SAMPLES, value=quoted(samples)))
    return n


def check_bot_seed(seed):
    """A bot's or a hint's seed: None, any text, or a whole number of at most 100 digits
    (numpy's as a plain int, as :func:`courtlearn.deal.check_seed` counts them); else a
    ValueError."""
    if seed is None or isinstance(seed, str):
        return seed
    if _whole(seed) is None:
        raise ValueError(tr("seed is a whole number or text, got {value!r}.",
                            value=quoted(seed)))
    from .deal import check_seed
    return check_seed(seed)


def _si(x) -> int:
    """Suit index 0..3 (♠ ♥ ♣ ♦) of a Suit or a Card; -1 for None."""
    if x is None:
        return -1
    suit = getattr(x, "suit", x)
    return int(suit)


def _suit(i: int) -> Suit:
    """The Suit of index 0..3 (♠ ♥ ♣ ♦)."""
    return Suit(i)


def _rank(card) -> int:
    return card.rank


def _method(rules) -> str:
    return getattr(rules, "trump_method", "called")


def _trick_cards(trick):
    return list(trick.cards) if trick is not None else []


def _trick_winner(cards, trump_i):
    """(seat, card) winning a list of (seat, Card) under trump index trump_i."""
    if not cards:
        return None
    led = _si(cards[0][1])

    def key(sc):
        s = _si(sc[1])
        return (2 if s == trump_i else 1 if s == led else 0, _rank(sc[1]))
    return max(cards, key=key)


def _played_cards(deal_or_view):
    out = []
    for t in deal_or_view.tricks:
        out.extend(c for _, c in t.cards)
    out.extend(c for _, c in _trick_cards(deal_or_view.trick))
    return out


def _phase(deal) -> str:
    ph = deal.phase
    return getattr(ph, "value", ph)


def _hand_codes(cards):
    return " ".join(c.code for c in cards)



@runtime_checkable
class Bot(Protocol):
    """What a bot is: an object that answers each decision a deal can ask of a seat.

    Every method gets the Deal and answers for the seat the deal waits for
    (``deal.actor``; after a court, a seat of the winning side for ``plays_on``).
    :func:`act` is the one driver: it asks the deal which moves that seat may make
    (``deal.moves``) and calls whichever of these the decision needs. A bot of your
    own needs only ``choose`` and ``call_trump`` for plain Court Piece; the others
    have sensible defaults in :func:`act` (never defer, never ask, never play on).
    """

    def choose(self, deal) -> "Card": ...                  # a card for deal.to_play
    def call_trump(self, deal) -> "Suit": ...              # as the trump caller, from five
    def choose_trump_card(self, deal) -> "Card": ...       # shown / hidden trump
    def defers_trump(self, deal) -> bool: ...
    def asks_for_trump(self, deal) -> bool: ...
    def plays_on(self, deal) -> bool: ...
    def act(self, deal) -> list: ...                       # the decision the deal awaits


def deciding_seat(deal) -> int | None:
    """The seat whose decision comes next: ``deal.actor``, or after a Court Piece court
    the seat of the winning side that decides whether to play on (the trump caller if
    they won, else the first winner in seat order); None when nothing is left to decide.

    >>> import courtlearn as cl
    >>> deciding_seat(cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7))
    0
    """
    seat = deal.actor
    if seat is not None:
        return seat
    if not deal.can_play_on():
        return None
    winners = [s for s in range(4) if any(m.kind == "play_on" for m in deal.moves(s))]
    return deal.trump_caller if deal.trump_caller in winners else winners[0]


def act(bot, deal) -> list:
    """Let ``bot`` make the single decision ``deal`` awaits (see :func:`deciding_seat`):
    defer, choose or call the trump, ask to see a face-down trump, play a card, or play on
    after a court. Returns the events the deal added ([] when there was nothing to decide,
    or the bot declined to play on). ``bot`` may be any object with the methods of
    :class:`Bot`; the ones it lacks count as "no" (never defer, ask or play on).

    >>> import courtlearn as cl
    >>> deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    >>> [e.kind for e in act(RuleBot(), deal)]
    ['call', 'deal_rest']
    """
    _check_deal(deal, bot=True)
    seat = deciding_seat(deal)
    if seat is None:
        return []
    moves = {m.kind: m for m in deal.moves(seat)}
    if "play_on" in moves and deal.actor is None:
        return deal.play_on() if _says_yes(bot, "plays_on", deal) else []
    if "defer_trump" in moves and _says_yes(bot, "defers_trump", deal):
        return deal.defer_trump(moves["defer_trump"].numbers[0])
    if "choose_trump_card" in moves:
        return deal.choose_trump_card(_method_of(bot, "choose_trump_card")(deal))
    if "call_trump" in moves:
        return deal.call_trump(_method_of(bot, "call_trump")(deal))
    if "ask_for_trump" in moves and _says_yes(bot, "asks_for_trump", deal):
        return deal.ask_for_trump()
    return deal.play(_method_of(bot, "choose")(deal))


def _method_of(bot, name: str):
    """The bot's method ``name``; a TypeError saying what a bot needs when it lacks it."""
    method = getattr(bot, name, None)
    if not callable(method):
        raise TypeError(tr("{bot!r} is not a bot for this decision: it has no {method}(deal). A "
                           "bot has choose(deal) and call_trump(deal), like cl.bots.RuleBot().",
                           bot=quoted(bot), method=name))
    return method


def _says_yes(bot, question: str, deal) -> bool:
    answer = getattr(bot, question, None)
    return bool(answer is not None and answer(deal))


# each decision of a bot, and the phase of the deal it is made in (None: any)
_DECISIONS = {"choose": "play", "call_trump": "trump", "choose_trump_card": "trump",
              "defers_trump": "trump", "asks_for_trump": "play", "plays_on": None}


def _decision(name: str, method):
    """``method`` checked first: its argument is a Deal that waits for this decision."""
    phase = _DECISIONS[name]

    @functools.wraps(method)
    def decide(self, deal):
        _check_deal(deal, bot=True)
        if phase is not None and _phase(deal) != phase:
            raise ValueError(tr("The deal does not wait for {method}(deal) now: its phase is "
                                "{phase!r}. A bot chooses a card while the deal is played, "
                                "and fixes the trump while the trump is being fixed.",
                                method=name, phase=_phase(deal)))
        return method(self, deal)
    return decide


class _Bot:
    """Shared by the bots here: ``act`` is :func:`act`, and simple defaults. Every
    decision (``choose``, ``call_trump``, ...) refuses what is not a Deal waiting for it."""

    def __init_subclass__(cls, **options):
        super().__init_subclass__(**options)
        for name in _DECISIONS:
            if name in cls.__dict__:
                setattr(cls, name, _decision(name, cls.__dict__[name]))

    def act(self, deal) -> list:
        """Make the single decision ``deal`` awaits; returns the events it added."""
        return act(self, deal)

    # defaults shared by the simple bots
    def call_trump(self, deal):
        return _suit(_strongest_suit(deal.hand(deal.to_play)))

    def choose_trump_card(self, deal):
        hand = deal.hand(deal.to_play)
        s = _strongest_suit(hand)
        return min((c for c in hand if _si(c) == s), key=_rank)

    def defers_trump(self, deal):
        return _suit_strength(deal.hand(deal.to_play))[0] < 5

    def asks_for_trump(self, deal):
        w = _trick_winner(_trick_cards(deal.trick), -1)
        return w is None or (w[0] % 2) != (deal.to_play % 2)

    def plays_on(self, deal):
        return False


HONOUR = {14: 4, 13: 3, 12: 2, 11: 1}


def _suit_strength(hand):
    """(best score, suit index) for calling trumps: length plus high cards."""
    scores = [0.0] * 4
    for c in hand:
        s = _si(c)
        scores[s] += 2 + HONOUR.get(_rank(c), 0)
    best = max(range(4), key=lambda s: (scores[s], -s))
    return scores[best], best


def _strongest_suit(hand) -> int:
    return _suit_strength(hand)[1]


for _name in _DECISIONS:
    if _name in _Bot.__dict__:
        setattr(_Bot, _name, _decision(_name, _Bot.__dict__[_name]))


# ---------------------------------------------------------------- RandomBot
class RandomBot(_Bot):
    """Plays a uniformly random legal card; reproducible from its seed."""

    def __init__(self, seed=0):
        self.seed = check_bot_seed(seed)
        self._rng = random.Random(self.seed)

    def __repr__(self):
        return f"RandomBot(seed={self.seed!r})"

    def choose(self, deal):
        return self._rng.choice(list(deal.legal_cards()))

    def call_trump(self, deal):
        return _suit(_si(self._rng.choice(list(deal.hand(deal.to_play)))))

    def choose_trump_card(self, deal):
        return self._rng.choice(list(deal.hand(deal.to_play)))

    def defers_trump(self, deal):
        return self._rng.random() < 0.25

    def asks_for_trump(self, deal):
        return self._rng.random() < 0.5

    def plays_on(self, deal):
        return self._rng.random() < 0.5


# ------------------------------------------------------------------ RuleBot
class RuleBot(_Bot):
    """Plays by rules of thumb: follows cheaply, wins cheaply when it can (never
    overtaking a partner who is already winning), trumps when void and it pays,
    discards low, leads its winners, calls the suit it is strongest in."""

    def __repr__(self):
        return "RuleBot()"

    def choose(self, deal):
        legal = list(deal.legal_cards())
        if len(legal) == 1:
            return legal[0]
        me = deal.to_play
        trump_i = _si(deal.trump)
        cards = _trick_cards(deal.trick)
        played = _played_cards(deal)
        hand = deal.hand(me)
        dehla = deal.rules.game == "dehla_pakad"
        gone = {c.code for c in played} | {c.code for c in hand}

        def master(c):
            """No unseen card of its suit outranks it."""
            s = _si(c)
            for r in range(_rank(c) + 1, 15):
                code = _code(r, s)
                if code not in gone:
                    return False
            return True

        def low(cs, avoid_tens=True):
            cs = list(cs)
            plain = [c for c in cs if _si(c) != trump_i] or cs
            if dehla and avoid_tens:
                plain = [c for c in plain if _rank(c) != 10] or plain
            return min(plain, key=lambda c: (_rank(c), _si(c)))

        if not cards:  # leading
            winners = [c for c in legal if master(c) and _si(c) != trump_i]
            if winners:
                return max(winners, key=lambda c: (_rank(c), -_si(c)))
            trumps = [c for c in legal if _si(c) == trump_i]
            if trumps and master(max(trumps, key=_rank)):
                return max(trumps, key=_rank)
            # lead low from the longest side suit
            counts = [0] * 4
            for c in legal:
                counts[_si(c)] += 1
            side = [c for c in legal if _si(c) != trump_i] or legal
            longest = max(side, key=lambda c: (counts[_si(c)], -_si(c)))
            return low([c for c in side if _si(c) == _si(longest)])

        led = _si(cards[0][1])
        wseat, wcard = _trick_winner(cards, trump_i)
        last = len(cards) == 3
        partner = wseat == (me ^ 2)
        ws = _si(wcard)

        def beats(c):
            s = _si(c)
            if s == ws:
                return _rank(c) > _rank(wcard)
            return s == trump_i and ws != trump_i

        if partner and (last or master(wcard) or (ws == trump_i and ws != led)):
            if dehla:  # give partner a ten they are sure to win
                tens = [c for c in legal if _rank(c) == 10 and not beats(c)]
                if tens:
                    return tens[0]
            return low(legal)
        winning = [c for c in legal if beats(c)]
        if winning and not partner:
            if not last and _si(winning[0]) == led:
                # second or third hand: win only with a card no one can beat
                sure = [c for c in winning if master(c)]
                if sure:
                    return min(sure, key=_rank)
                if len(cards) == 1:
                    return low(legal)
            return min(winning, key=lambda c: (_si(c) == trump_i, _rank(c)))
        return low(legal)

    def asks_for_trump(self, deal):
        w = _trick_winner(_trick_cards(deal.trick), -1)
        return w is None or w[0] != (deal.to_play ^ 2)

    def plays_on(self, deal):
        # playing on costs nothing; RuleBot tries when it holds the top trump
        hand = deal.hand(deal.to_play)
        trump_i = _si(deal.trump)
        trumps = [c for c in hand if _si(c) == trump_i]
        return bool(trumps) and len(trumps) >= 3


# --------------------------------------------------------------- BestPlayBot
class BestPlayBot(RuleBot):
    """Plays a best card **with every hand in view**: it looks at all four hands.

    This is not a fair opponent; it cheats by design. It is the defence for lessons and
    puzzles whose text says what the other side will do ("East takes it with the J♠"):
    each card it plays is one of ``cl.solve(deal).best`` (perfect play by all four,
    all cards known), and among equally good cards the lowest (by rank, then suit
    ♠ ♥ ♣ ♦), so the same position always gets the same card.

    Where the solver does not answer it plays as :class:`RuleBot`: before the trick from
    which the game's positions can be solved (:func:`courtlearn.solver.solvable_from`),
    while a hidden trump is still face down, or when a position is too large. Calling or
    choosing the trump, deferring, asking for a hidden trump and playing on after a
    court are RuleBot's. It is meant for end positions: from the last five tricks or so
    a decision takes a blink, at the first solvable trick it may take seconds.

    >>> import courtlearn as cl
    >>> deal = cl.Deal(cl.Rules.double_sir(), dealer=3, seed=1)
    >>> while len(deal.tricks) < 10:                 # RuleBots play the first ten tricks
    ...     _ = RuleBot().act(deal)
    >>> cl.solve(deal, progress=False).best          # West's best cards, all hands known
    [Card.parse('9D'), Card.parse('6D'), Card.parse('3D')]
    >>> BestPlayBot().choose(deal)                   # the lowest of them
    Card.parse('3D')
    """

    def __repr__(self):
        return "BestPlayBot()"

    def choose(self, deal):
        best = _best_cards(deal)
        if not best:
            return super().choose(deal)
        return min(best, key=lambda c: (c.rank, c.si))


def _best_cards(deal) -> list:
    """``cl.solve(deal).best``, or [] where the solver does not answer: before the trick
    its game is solved from (no search is tried), or when it refuses (a ValueError: a
    hidden trump face down, a position past its budget)."""
    from .solver import solvable_from, solve
    if len(deal.tricks) + 1 < solvable_from(deal):
        return []
    try:
        return list(solve(deal, progress=False).best)
    except ValueError:
        return []


_CODES = {(c.rank, int(c.suit)): c.code for c in deck()}


def _code(rank, suit_i):
    return _CODES[rank, suit_i]


# ------------------------------------------------------------ Monte Carlo
@dataclass
class _Known:
    """What one seat knows, reduced to bitmasks (built from deal.view(seat))."""
    seat: int
    dealer: int
    caller: int
    hand: int
    played_by: list          # per seat: cards that seat has played (mask)
    order: list              # every card played so far, in order: (seat, index)
    asks: list               # per card in `order`: the player asked for trump first
    located: list            # per seat: known cards still held (shown trump card)
    need: list               # per seat: unknown cards it holds now
    voids: list              # per seat: set of suit indices it cannot hold
    hidden_slot: bool        # a face-down trump card unknown to this seat
    hidden_card: int         # the face-down card if this seat knows it, else -1
    trump: int               # public trump suit index or -1
    pending_need: int        # Dehla first_void: cards each seat still gets (0 or 8)
    rest_at: int             # number of cards played before the rest was dealt (-1: not yet / never)
    unknown: list            # indices of every card this seat cannot place
    start_trump: int = -1    # the trump when play began (-1: none yet: a face-down trump
                             # card, or first_void), as the play-outs start from it


def _known_from(deal, seat) -> _Known:
    """What ``seat`` knows, from ``deal.view(seat)`` only (no numpy needed)."""
    from . import cardbits as fp
    view = deal.view(seat)
    rules = view.rules if view.rules is not None else deal.rules
    method = _method(rules)
    caller = view.trump_caller
    hand = fp.mask_of(view.hand)
    order, played_by = [], [0, 0, 0, 0]
    tricks = list(view.tricks) + ([view.trick] if view.trick is not None else [])
    for t in tricks:
        for s, c in t.cards:
            i = fp.card_index(c)
            order.append((s, i))
            played_by[s] |= 1 << i
    asks = [False] * (len(order) + 1)
    # when the rest of a Dehla Pakad first_void deal came, and when a face-down
    # trump card was shown: counted in cards played before it (public events)
    rest_at = -1
    plays = 0
    for ev in view.events:
        if ev.kind == "play":
            plays += 1
        elif ev.kind == "correct":
            plays -= len(ev.data[1]) if ev.data and len(ev.data) > 1 else 0
        elif ev.kind == "deal_rest" and plays:
            rest_at = plays
        elif ev.kind == "reveal" and ev.data and ev.data[0] == "asked" and plays < len(asks):
            asks[plays] = True
    trump = _si(view.trump)
    located = [0, 0, 0, 0]
    hidden_card, hidden_slot = -1, False
    tc = view.trump_card
    # a deferred trump (defer_trump) under the hidden rules: no card was set aside; the
    # turned card fixed a public trump before play and stays in its owner's hand, as with
    # "shown" (the defer event is public)
    deferred = any(ev.kind == "defer" for ev in view.events)
    if method in HIDDEN_METHODS and not deferred:
        if view.hidden_trump:
            if tc is not None and seat == caller:
                hidden_card = fp.card_index(tc)     # its owner knows it
            else:
                hidden_slot = True
        elif tc is not None:                        # shown: it went to its owner's hand
            hidden_card = fp.card_index(tc)
            if caller != seat and not (played_by[caller] >> hidden_card) & 1:
                located[caller] |= 1 << hidden_card
    elif tc is not None:                            # shown, or turned up (deferred)
        i = fp.card_index(tc)
        if caller != seat and not (played_by[caller] >> i) & 1:
            located[caller] |= 1 << i
    pending_need = view.stock_size // 4 if _phase(view) == "play" else 0
    sizes = list(view.hand_sizes)
    need = [0 if s == seat else max(sizes[s] - located[s].bit_count(), 0) for s in range(4)]
    # suits each seat has shown it lacks; after the rest of a deal came, only
    # what was shown since counts (the engine's voids cover the whole deal)
    if rest_at < 0:
        voids = [set(v) for v in view.voids]
        voids = [{_si(x) for x in v} for v in voids]
    else:
        voids = [set(), set(), set(), set()]
        pos = 0
        for t in tricks:
            cards = list(t.cards)
            led = _si(cards[0][1]) if cards else -1
            for n, (s, c) in enumerate(cards):
                if pos >= rest_at:
                    voids[s].discard(_si(c))
                    if n and _si(c) != led:
                        voids[s].add(led)
                pos += 1
    known_mask = hand | located[0] | located[1] | located[2] | located[3]
    for s in range(4):
        known_mask |= played_by[s]
    if hidden_card >= 0:
        known_mask |= 1 << hidden_card
    unknown = [i for i in range(52) if not (known_mask >> i) & 1]
    start_trump = trump if deferred or method not in HIDDEN_METHODS + ("first_void",) else -1
    return _Known(seat, view.dealer, caller, hand, played_by, order, asks, located, need,
                  voids, hidden_slot, hidden_card, trump, pending_need, rest_at, unknown,
                  start_trump)


class _Sampler:
    """Deals the cards a seat cannot see into the places they may be: the other
    hands (never a suit the holder has shown it lacks), a face-down trump card,
    and cards still to be dealt. Built once per decision, then sampled often."""

    def __init__(self, k: _Known):
        self.k = k
        slots = []  # (kind, seat, capacity, banned suits)
        for s in range(4):
            if k.need[s]:
                slots.append(("hand", s, k.need[s], frozenset(k.voids[s])))
        if k.hidden_slot:
            slots.append(("hidden", k.caller, 1, frozenset()))
        if k.pending_need:
            for s in range(4):
                slots.append(("pending", s, k.pending_need, frozenset()))
        self.slots = slots
        total = sum(sl[2] for sl in slots)
        if total != len(k.unknown):
            raise RuntimeError(f"cannot place {len(k.unknown)} unseen cards in {total} places")
        allowed = [tuple(j for j, sl in enumerate(slots) if suit not in sl[3]) for suit in range(4)]
        self.free = [c for c in k.unknown if len(allowed[c & 3]) == len(slots)]
        # constrained cards, the most constrained suits first
        self.tight = sorted((c for c in k.unknown if len(allowed[c & 3]) < len(slots)),
                            key=lambda c: (len(allowed[c & 3]), c))
        self.allowed = allowed
        if any(not allowed[c & 3] for c in self.tight):
            raise RuntimeError("an unseen card has no seat that may hold it")

    def _place_tight(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """Place the constrained cards (those only some places may hold), scarcest first:
        each goes into a place that may hold it with a chance in proportion to the room
        left there. Returns (room left per place, card mask per place); a dead end
        starts over, up to 100 times."""
        for _ in range(100):
            room = [sl[2] for sl in self.slots]
            got = [0] * len(self.slots)
            tight = self.tight[:]
            rng.shuffle(tight)
            tight.sort(key=lambda c: len(self.allowed[c & 3]))
            for c in tight:
                opts = [j for j in self.allowed[c & 3] if room[j]]
                if not opts:
                    break
                j = opts[0]
                if len(opts) > 1:
                    r = rng.random() * sum(room[j] for j in opts)
                    for j in opts:
                        r -= room[j]
                        if r < 0:
                            break
                room[j] -= 1
                got[j] |= 1 << c
            else:
                return room, got
        raise RuntimeError("no placement of the unseen cards fits what this seat knows")

    def sample_one(self, rng: random.Random):
        """One placement in plain Python (no numpy): (hands now [4 masks], the face-down
        trump card's index or -1, cards still to come [4 masks]), in the bit layout of
        :mod:`courtlearn.cardbits`. The constrained cards are placed one by one, each
        into a place that may hold it with a chance in proportion to its room; the free
        cards are shuffled into the room left, place after place."""
        k, slots = self.k, self.slots
        room, got = self._place_tight(rng)
        free = self.free[:]
        rng.shuffle(free)
        pos = 0
        for j, n in enumerate(room):
            for c in free[pos:pos + n]:
                got[j] |= 1 << c
            pos += n
        hands = list(k.located)
        hands[k.seat] |= k.hand
        pending = [0, 0, 0, 0]
        hidden = k.hidden_card
        for j, sl in enumerate(slots):
            if sl[0] == "hand":
                hands[sl[1]] |= got[j]
            elif sl[0] == "pending":
                pending[sl[1]] |= got[j]
            else:
                hidden = got[j].bit_length() - 1
        return hands, hidden, pending

    def sample_batch(self, n: int, rng: random.Random, nrng):
        """n placements at once, as arrays: hands now (n, 4), the face-down trump
        card (n,) and cards still to come (n, 4), with the masks' bit layout of
        :mod:`courtlearn.fastplay`. The constrained cards are placed one by one
        (rarely many); the rest are shuffled in bulk."""
        import numpy as np

        from .fastplay import BIT
        k, slots = self.k, self.slots
        J = len(slots)
        cap = np.tile(np.array([sl[2] for sl in slots], dtype=np.int64), (n, 1))
        got = np.zeros((n, J), dtype=np.uint64)
        if self.tight:
            for i in range(n):
                cap[i], got[i] = self._place_tight(rng)
        F = len(self.free)
        if F:
            perm = nrng.permuted(np.tile(np.array(self.free, dtype=np.int64), (n, 1)), axis=1)
            bits = BIT[perm]
            edge = np.cumsum(cap, axis=1)
            slot = (np.arange(F)[None, :, None] >= edge[:, None, :]).sum(axis=2)
            for j in range(J):
                got[:, j] |= np.bitwise_or.reduce(np.where(slot == j, bits, np.uint64(0)), axis=1)
        hands = np.tile(np.array(k.located, dtype=np.uint64), (n, 1))
        hands[:, k.seat] |= np.uint64(k.hand)
        pending = np.zeros((n, 4), dtype=np.uint64)
        hidden = np.full(n, k.hidden_card, dtype=np.int64)
        for j, sl in enumerate(slots):
            if sl[0] == "hand":
                hands[:, sl[1]] |= got[:, j]
            elif sl[0] == "pending":
                pending[:, sl[1]] |= got[:, j]
            else:
                hidden = (np.frexp(got[:, j].astype(np.float64))[1] - 1).astype(np.int64)
        return hands, hidden, pending


def _start_batch(k: _Known, hands, hidden, pending):
    """Hands at the start of play (before any card was played), for a replay."""
    import numpy as np
    init = hands | np.array(k.played_by, dtype=np.uint64)[None, :]
    pend = pending.copy()
    if k.rest_at >= 0:  # Dehla first_void, the rest already dealt: split it off again
        early = [0, 0, 0, 0]
        for n, (s, i) in enumerate(k.order):
            if n < k.rest_at:
                early[s] |= 1 << i
        early = np.array(early, dtype=np.uint64)[None, :]
        pend = init & ~early
        init = init & early
    hb = np.where(hidden >= 0, np.uint64(1) << np.maximum(hidden, 0).astype(np.uint64), np.uint64(0))
    init &= ~hb[:, None]
    pend &= ~hb[:, None]
    return init, pend


def _placements(k: _Known, n: int, rng: random.Random):
    """n placements of the unseen cards, one at a time (see :meth:`_Sampler.sample_one`)."""
    try:
        sampler = _Sampler(k)
        first = sampler.sample_one(rng)
    except RuntimeError:
        # only possible when a revoke made a seat look void: forget the voids
        k.voids = [set(), set(), set(), set()]
        sampler = _Sampler(k)
        first = sampler.sample_one(rng)
    yield first
    for _ in range(n - 1):
        yield sampler.sample_one(rng)


def _start_hands(k: _Known, hands, hidden: int, pending):
    """One placement's hands at the start of play, for a replay: :func:`_start_batch`
    for a single world, in plain Python."""
    init = [h | p for h, p in zip(hands, k.played_by)]
    pend = list(pending)
    if k.rest_at >= 0:  # Dehla first_void, the rest already dealt: split it off again
        early = [0, 0, 0, 0]
        for n, (s, i) in enumerate(k.order):
            if n < k.rest_at:
                early[s] |= 1 << i
        pend = [h & ~e for h, e in zip(init, early)]
        init = [h & e for h, e in zip(init, early)]
    if hidden >= 0:
        keep = ~(1 << hidden)
        init = [h & keep for h in init]
        pend = [h & keep for h in pend]
    return init, pend


def _worlds(k: _Known, cfg, trump: int, n: int, rng: random.Random):
    """n worlds (:class:`courtlearn.pureplay.World`) at the seat's present position, one
    per placement of the unseen cards. The cards played so far are replayed once; what
    that replay decides (tricks, piles, trump) is public, so each further world is a copy
    of it with the placement's hands, cards to come and face-down trump card."""
    from .pureplay import World
    here = None
    for hands, hidden, pending in _placements(k, n, rng):
        if here is None:
            init, pend = _start_hands(k, hands, hidden, pending)
            here = World.start(cfg, k.dealer, init, trump=trump, hidden=hidden, pending=pend)
            for m, (s, i) in enumerate(k.order):
                here.step(card=i, ask=k.asks[m])
        w = here.copy()
        w.hands = list(hands)
        w.pending = list(pending)
        if w.hidden >= 0:
            # still face down in the replay (asked for just now, it is shown with the next
            # card): out of its owner's hand, as in numpy's worlds (_start_batch)
            w.hidden = hidden
            w.hands = [h & ~(1 << hidden) for h in hands]
        yield w


def _batch(k: _Known, cfg, trump: int, n: int, rng: random.Random, nrng):
    """n worlds (a :class:`courtlearn.fastplay.Batch`) at the seat's present position, one
    per placement of the unseen cards: the cards played so far (revokes included) and the
    asks for a face-down trump replayed in every world, as :func:`_worlds` does in Python."""
    import numpy as np

    from . import fastplay as fp
    try:
        hands, hidden, pending = _Sampler(k).sample_batch(n, rng, nrng)
    except RuntimeError:
        # only possible when a revoke made a seat look void: forget the voids
        k.voids = [set(), set(), set(), set()]
        hands, hidden, pending = _Sampler(k).sample_batch(n, rng, nrng)
    init, pend = _start_batch(k, hands, hidden, pending)
    b = fp.Batch.start(cfg, k.dealer, init, trump=trump, hidden=hidden.astype(np.int8),
                       pending=pend)
    for m, (s, i) in enumerate(k.order):
        b.step(cards=i, asks=np.full(n, k.asks[m]))
    return b


class _Estimates(NamedTuple):
    """What the play-outs found for each legal card (lists in the order of ``legal``)."""
    legal: list
    win: list       # how often the seat's side wins the deal
    courts: list    # the mean court margin for the side
    tw: list        # how often the side takes the current trick
    cap: list       # ... and captures the centre pile with it
    losers: list    # per card, the opponent who took the trick, once per sample it was lost
    k: _Known
    own: list       # how often the card itself takes the trick


def _bits(indices) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m


def _floats(a) -> list:
    return [float(x) for x in a]


@dataclass
class Hint:
    """A suggested move and why. ``chances`` maps each option to the estimated
    probability that the hinted seat's side wins the deal with it; ``reason`` is
    the why of ``text`` alone, without the move and the chances."""
    card: object
    text: str
    chances: dict = field(default_factory=dict)
    seat: int = 0
    reason: str = ""

    def __repr__(self):
        ch = ", ".join(f"{c}: {p:.2f}" for c, p in self.chances.items())
        return f"Hint(card={self.card}, chances={{{ch}}})"

    def _repr_html_(self):
        import html
        label = tr("Hint:")
        return (f"<div class='courtlearn-hint'><b>{html.escape(label)}</b> "
                f"{html.escape(self.text)}</div>")

    def __str__(self):
        return self.text


class MonteCarloBot(_Bot):
    """Decides from ``deal.view(seat)`` only: samples the unseen cards, plays
    each legal card out in every sample, and keeps the card with which its
    side wins the deal most often (ties: more courts, then the lower card)."""

    def __init__(self, samples=None, seed=0, eps=0.0):
        self.samples = check_samples(samples)
        self.seed = check_bot_seed(seed)
        if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not 0 <= eps <= 1:
            raise ValueError(tr("eps is the chance of a random card in the play-outs, a number "
                                "from 0 to 1; got {eps!r}.", eps=quoted(eps)))
        self.eps = float(eps)

    def __repr__(self):
        return f"MonteCarloBot(samples={self.samples}, seed={self.seed!r})"

    # -------------------------------------------------------- machinery
    def _seed(self, deal, seat, salt=""):
        """A seed fixed by the bot's seed and what the seat can see, so a decision is
        reproducible and cannot depend on hidden cards."""
        view = deal.view(seat)
        public = (salt, seat, view.dealer, view.to_play, _hand_codes(view.hand),
                  tuple(tuple((s, c.code) for s, c in t.cards) for t in view.tricks),
                  tuple((s, c.code) for s, c in _trick_cards(view.trick)),
                  str(view.trump))
        return zlib.crc32(repr((self.seed, public)).encode())

    def _evaluate(self, deal, seat, salt=""):
        """Plays every legal card out in the same samples (numpy's batches where numpy
        is installed, :mod:`courtlearn.pureplay` where it is not: see :data:`PLAYOUTS`).

        Returns an :class:`_Estimates`: per legal card, how often the seat's side wins
        the deal, its court margin, how often the side takes the trick, captures the
        centre pile with it, and the card itself takes the trick, and which opponent
        took the trick when the side lost it."""
        k = _known_from(deal, seat)
        legal = list(deal.legal_cards())
        args = (deal, k, legal, k.start_trump, self._seed(deal, seat, salt))
        if _use_numpy():
            return self._evaluate_numpy(*args)
        return self._evaluate_python(*args)

    def _evaluate_numpy(self, deal, k, legal, trump, seed):
        import numpy as np

        from . import fastplay as fp
        rng, nrng = random.Random(seed), np.random.default_rng(seed)
        cfg = fp.Config.from_rules(deal.rules)
        li = np.array([fp.card_index(c) for c in legal], dtype=np.int64)
        S = self.samples
        b = _batch(k, cfg, trump, S, rng, nrng)
        L = len(legal)
        b = b.copy(repeat=L)
        before = b.tricks_done
        b.step(cards=np.tile(li, S), asks=np.full(S * L, k.asks[len(k.order)]))
        while b.tricks_done == before and not b.over.all():
            b.step(rng=nrng, eps=self.eps)
        team = k.seat % 2
        taker = b.trick_winner.reshape(S, L)
        ours = taker % 2 == team
        cap = (b.trick_captured.reshape(S, L) & ours).mean(0)
        losers = [[int(x) for x in taker[:, j] if x % 2 != team] for j in range(L)]
        own = (taker == k.seat).mean(0)
        b.playout(nrng, eps=self.eps)
        win = (b.winner == team).reshape(S, L)
        courts = np.where(b.winner == team, b.courts, -b.courts).reshape(S, L)
        return _Estimates(legal, _floats(win.mean(0)), _floats(courts.mean(0)),
                          _floats(ours.mean(0)), _floats(cap), losers, k, _floats(own))

    def _evaluate_python(self, deal, k, legal, trump, seed):
        from . import pureplay as pp
        from .cardbits import card_index
        rng = random.Random(seed)
        cfg = pp.Config.from_rules(deal.rules)
        li = [card_index(c) for c in legal]
        S, L, team, eps = self.samples, len(legal), k.seat % 2, self.eps
        win, courts, tw, cap, own = ([0] * L for _ in range(5))
        losers = [[] for _ in range(L)]
        ask_now = k.asks[len(k.order)]
        for w in _worlds(k, cfg, trump, S, rng):
            before = w.tricks_done
            for j, c in enumerate(li):
                x = w.copy()
                x.step(card=c, ask=ask_now)
                while x.tricks_done == before and not x.over:
                    x.step(rng=rng, eps=eps)
                taker = x.trick_winner
                if taker % 2 == team:
                    tw[j] += 1
                    cap[j] += x.trick_captured
                    own[j] += taker == k.seat
                else:
                    losers[j].append(taker)
                x.playout(rng, eps=eps)
                if x.winner == team:
                    win[j] += 1
                    courts[j] += x.courts
                else:
                    courts[j] -= x.courts
        mean = lambda xs: [x / S for x in xs]
        return _Estimates(legal, mean(win), mean(courts), mean(tw), mean(cap), losers, k,
                          mean(own))

    # --------------------------------------------------------- decisions
    def choose(self, deal):
        legal = list(deal.legal_cards())
        if len(legal) == 1:
            return legal[0]
        legal, win, courts, *_ = self._evaluate(deal, deal.to_play)
        return legal[_best_index(legal, win, courts)]

    def _suit_chances(self, deal, seat, suits, defer=False):
        """Chance of winning the deal with each trump suit, from the caller's five."""
        rng = random.Random(self._seed(deal, seat, "trump"))
        five = _mask(deal.hand(seat))
        unknown = [i for i in range(52) if not (five >> i) & 1]
        S = max(self.samples * 2, 100)  # one decision per deal, and a weighty one
        hands, nxt = [], []
        others = [s for s in range(4) if s != seat]
        for _ in range(S):
            rng.shuffle(unknown)
            h = [0, 0, 0, 0]
            h[seat] = five | _bits(unknown[:8])
            nxt.append(unknown[0] & 3)  # the card a deferred trump turns up
            rest = unknown[8:]
            for j, s in enumerate(others):
                h[s] = _bits(rest[13 * j:13 * j + 13])
            hands.append(h)
        options = list(suits) + (["defer"] if defer else [])
        team = seat % 2
        if _use_numpy():
            import numpy as np

            from . import fastplay as fp
            nrng = np.random.default_rng(self._seed(deal, seat, "trump"))
            cfg = fp.Config.from_rules(deal.rules)
            cfg.method = "called" if cfg.method not in ("called", "shown") else cfg.method
            hands = np.array(hands, dtype=np.uint64)
            out = {}
            for opt in options:
                b = fp.Batch.start(cfg, deal.dealer, hands, trump=0)
                b.trump[:] = np.array(nxt) if opt == "defer" else opt
                b.playout(nrng, eps=self.eps)
                out[opt] = float((b.winner == team).mean())
            return out
        from . import pureplay as pp
        cfg = pp.Config.from_rules(deal.rules)
        cfg.method = "called" if cfg.method not in ("called", "shown") else cfg.method
        out = {}
        for opt in options:
            won = 0
            for n, h in enumerate(hands):
                trump = nxt[n] if opt == "defer" else opt
                w = pp.World.start(cfg, deal.dealer, h, trump=trump).playout(rng, eps=self.eps)
                won += w.winner == team
            out[opt] = won / S
        return out

    def call_trump(self, deal):
        seat = deal.to_play
        suits = sorted({_si(c) for c in deal.hand(seat)})
        ch = self._suit_chances(deal, seat, suits)
        return _suit(max(suits, key=lambda s: (ch[s], -s)))

    def choose_trump_card(self, deal):
        seat = deal.to_play
        hand = deal.hand(seat)
        s = _si(self.call_trump(deal))
        return min((c for c in hand if _si(c) == s), key=_rank)

    def defers_trump(self, deal):
        seat = deal.to_play
        suits = sorted({_si(c) for c in deal.hand(seat)})
        ch = self._suit_chances(deal, seat, suits, defer=True)
        return ch["defer"] > max(ch[s] for s in suits)

    def asks_for_trump(self, deal):
        cards = _trick_cards(deal.trick)
        if not cards:
            return False
        w = _trick_winner(cards, -1)
        return w[0] != (deal.to_play ^ 2)

    def plays_on(self, deal):
        # playing on for a bavney costs nothing if it fails
        return True


TIE = 0.02   # chances this close are within the play-outs' noise


def _best_index(legal, win, courts):
    """The card that wins the deal most often; among cards within TIE of it, the one
    with the best court margin (again within TIE), and among those the lowest card:
    when the play-outs cannot tell cards apart, a player keeps the higher ones."""
    top = max(float(w) for w in win)
    near = [j for j in range(len(legal)) if float(win[j]) >= top - TIE]
    best_courts = max(float(courts[j]) for j in near)
    near = [j for j in near if float(courts[j]) >= best_courts - TIE]
    return min(near, key=lambda j: (_rank(legal[j]), _si(legal[j])))


# --------------------------------------------------------------------- hint
def _fraction_words(p: float, unit: str = "deal") -> str:
    """0.26 -> 'about 1 deal in 4'; 0.7 -> 'about 7 deals in 10' (unit 'time': times)."""
    deals = unit == "deal"
    if p <= 0:
        return tr("in no deal we tried") if deals else tr("never")
    if p >= 1:
        return tr("in every deal we tried") if deals else tr("every time")
    for n in (2, 3, 4, 5, 6, 8):
        if abs(p - 1 / n) < 0.02:
            return tr("about 1 deal in {n}", n=n) if deals else tr("about 1 time in {n}", n=n)
    tenths = round(p * 10)
    if tenths == 0:
        return tr("fewer than 1 deal in 10") if deals else tr("fewer than 1 time in 10")
    if tenths == 10:
        return tr("more than 9 deals in 10") if deals else tr("more than 9 times in 10")
    if deals:
        return trn("about {n} deal in 10", "about {n} deals in 10", tenths)
    return trn("about {n} time in 10", "about {n} times in 10", tenths)


def hint(deal, seat=None, samples=None, seed=0):
    """Suggest a card for ``seat`` (default: the seat to play) and say why.

    The explanation is built from the same estimates the choice was made from:
    how often the card wins the current trick, which card beats it when it
    does not, and how often the side wins the deal with it."""
    _check_deal(deal)
    samples, seed = check_samples(samples), check_bot_seed(seed)
    seat = deal.to_play if seat is None else _check_seat(seat)
    if _phase(deal) != "play":
        if _phase(deal) == "trump" and seat == deal.to_play:
            return _trump_hint(deal, seat, samples, seed)
        raise ValueError(tr("a hint is given to the seat whose turn it is, while the deal is "
                            "being played"))
    if seat != deal.to_play:
        raise ValueError(tr("it is not {seat}'s turn", seat=deal.rules.seat_name(seat)))
    bot = MonteCarloBot(samples=samples, seed=seed)
    est = bot._evaluate(deal, seat, "hint")
    legal, win = est.legal, est.win
    j = _best_index(legal, win, est.courts)
    card = legal[j]
    chances = {c: float(win[n]) for n, c in enumerate(legal)}
    text, why = _explain(deal, seat, j, est)
    return Hint(card=card, text=text, chances=chances, seat=seat, reason=why)


def _check_deal(deal, bot: bool = False) -> None:
    from .deal import Deal
    if isinstance(deal, Deal):
        return
    if bot:
        raise TypeError(tr("a bot acts at a Deal (like cl.Deal(cl.Rules.court_piece(), seed=1)), "
                           "got {deal!r}.", deal=quoted(deal)))
    raise TypeError(tr("a hint is for a Deal (like cl.Deal(cl.Rules.court_piece(), seed=1)), "
                       "got {deal!r}.", deal=quoted(deal)))


def _check_seat(seat) -> int:
    from .rules import check_seat
    return check_seat(seat)


def _explain(deal, seat, j, est: _Estimates):
    """The hint's sentence and its reason alone, from the estimates: how often the card wins this trick
    (or, when the partner mostly takes it, the side), who beats it when it does not,
    the centre pile, and the chance for the deal."""
    legal, win, tw, cap, k, own = est.legal, est.win, est.tw, est.cap, est.k, est.own
    rules = deal.rules
    card = legal[j]
    p_trick = float(tw[j])
    # "it wins" only when the side's tricks are this card's own; else the partner takes them
    its_own = float(own[j]) >= 0.8 * p_trick
    wins = tr("it wins this trick") if its_own else tr("your side takes this trick")
    cards = _trick_cards(deal.trick)
    trump_i = _si(deal.trump)
    partner_winning = bool(cards) and _trick_winner(cards, trump_i)[0] == (seat ^ 2)
    # who takes the trick from it, and with what, when it loses
    holder = None
    lost = est.losers[j]
    if lost:
        who = max(range(4), key=lambda s: (lost.count(s), -s))
        if lost.count(who) >= 0.8 * len(lost):
            held = _likely_holder_card(card, who, k)
            if held is not None:
                holder = (rules.seat_name(who), held)
    if len(legal) == 1:
        reason = tr("it is your only legal card")
    elif p_trick >= 0.97:
        reason = tr("your side keeps this trick") if partner_winning or not its_own else wins
    elif p_trick >= 0.5:
        odds = _fraction_words(1 - p_trick) if holder else _fraction_words(p_trick, "time")
        seat_, card_ = holder or (None, None)
        if holder and its_own:
            reason = tr("it wins this trick unless {seat} holds {card}, which {odds} does",
                        seat=seat_, card=card_, odds=odds)
        elif holder:
            reason = tr("your side takes this trick unless {seat} holds {card}, which {odds} does",
                        seat=seat_, card=card_, odds=odds)
        elif its_own:
            reason = tr("it wins this trick {odds}", odds=odds)
        else:
            reason = tr("your side takes this trick {odds}", odds=odds)
    elif p_trick >= 0.05:
        odds = _fraction_words(p_trick, "time")
        seat_, card_ = holder or (None, None)
        if holder and its_own:
            reason = tr("it wins this trick only {odds} ({seat} often holds {card}), but it "
                        "plays better for the rest of the deal", odds=odds, seat=seat_,
                        card=card_)
        elif holder:
            reason = tr("your side takes this trick only {odds} ({seat} often holds {card}), but "
                        "it plays better for the rest of the deal", odds=odds, seat=seat_,
                        card=card_)
        elif its_own:
            reason = tr("it wins this trick only {odds}, but it plays better for the rest of the "
                        "deal", odds=odds)
        else:
            reason = tr("your side takes this trick only {odds}, but it plays better for the "
                        "rest of the deal", odds=odds)
    elif partner_winning:
        reason = tr("your partner is winning this trick, so keep your better cards")
    elif max(float(x) for x in tw) < 0.05:
        reason = tr("you cannot win this trick, so give away your least useful card")
    else:
        reason = tr("it keeps your stronger cards for later tricks")
    if rules.game != "court_piece" and float(cap[j]) >= 0.1:
        n = len(deal.centre) + 1
        odds = _fraction_words(float(cap[j]), "time")
        if n == 1:
            reason = tr("{reason}, and your side takes the trick {odds}", reason=reason, odds=odds)
        else:
            reason = tr("{reason}, and your side takes the centre pile ({n} tricks with this one) "
                        "{odds}", reason=reason, n=n, odds=odds)
    sent = tr("Play {card}: {reason}. With it your side wins the deal {odds}", card=card,
              reason=reason, odds=_fraction_words(float(win[j]), "time"))
    others = [n for n in range(len(legal)) if n != j]
    if others:
        nb = max(others, key=lambda n: float(win[n]))
        a, b = _fraction_words(float(win[j]), "time"), _fraction_words(float(win[nb]), "time")
        if a != b:
            sent = tr("{sentence}, against {odds} with {card}, the next best", sentence=sent,
                      odds=b, card=legal[nb])
        elif float(win[nb]) < float(win[j]):
            sent = tr("{sentence} ({card} does almost as well)", sentence=sent, card=legal[nb])
        else:
            sent = tr("{sentence} ({card} does as well)", sentence=sent, card=legal[nb])
    return tr("{sentence}.", sentence=sent), tr("{sentence}.", sentence=reason)


def _likely_holder_card(card, who, k):
    """The card that would beat ``card``: the lowest higher card of its suit the
    seat may hold (or a trump, named as 'a trump')."""
    from . import cardbits as fp
    i = fp.card_index(card)
    s = i & 3
    higher = [h for h in k.unknown if (h & 3) == s and h > i]
    if s not in k.voids[who] and higher:
        return f"{_code_text(min(higher, key=lambda h: -h))}" if len(higher) == 1 else \
            tr("a higher {suit}", suit=suit_word(s, one=True))
    if k.trump >= 0 and s != k.trump:
        return tr("a trump")
    return None


def _code_text(i):
    from . import cardbits as fp
    from .cards import Card
    return str(Card.parse(fp.index_card_code(i)))


def _trump_hint(deal, seat, samples, seed):
    """The trump phase: which suit to call (or which card to choose), and whether
    deferring would do better when the rules allow it."""
    rules = deal.rules
    bot = MonteCarloBot(samples=samples, seed=seed)
    hand = deal.hand(seat)
    suits = sorted({_si(c) for c in hand})
    deferred = bool(getattr(rules, "allow_deferred", False))
    ch = bot._suit_chances(deal, seat, suits, defer=deferred)
    best = max(suits, key=lambda s: (ch[s], -s))
    held = sum(1 for c in hand if _si(c) == best)
    odds = _fraction_words(ch[best], "time")
    if _method(rules) in ("shown", "hidden"):
        lowest = {s: min((c for c in hand if _si(c) == s), key=_rank) for s in suits}
        card = lowest[best]
        why = tr("{suit} become trumps, you hold {n} of your five cards in that suit, and with "
                 "it your side wins the deal {odds}.", suit=suit_word(best), n=held, odds=odds)
        if _method(rules) == "shown":
            text = tr("Choose {card} as the trump card (show): {why}", card=card, why=why)
        else:
            text = tr("Choose {card} as the trump card (set aside face down): {why}", card=card,
                      why=why)
        chances = {lowest[s]: ch[s] for s in suits}
    else:
        card = _suit(best)
        why = tr("you hold {n} of your five cards in it, and with it as trumps your side wins the "
                 "deal {odds}.", n=held, odds=odds)
        text = tr("Call {suit}: {why}", suit=suit_word(best), why=why)
        chances = {_suit(s): ch[s] for s in suits}
    if deferred:
        d = _fraction_words(ch["defer"], "time")
        if ch["defer"] > ch[best]:
            text += " " + tr("Deferring would do better still: your side wins {odds} that way.",
                             odds=d)
        else:
            text += " " + tr("Deferring would win only {odds}.", odds=d)
    return Hint(card=card, text=text, chances=chances, seat=seat, reason=why)


def __getattr__(name):  # cl.bots.CourseBot: the strategy lessons' bot (courtlearn/course_bot.py)
    if name == "CourseBot":
        from .course_bot import CourseBot
        return CourseBot
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
