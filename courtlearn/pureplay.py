"""Play-outs in plain Python: one world at a time, no numpy.

The bots' Monte Carlo play-outs use :class:`courtlearn.fastplay.Batch` (numpy,
many worlds at once) where numpy is installed. Where it is not (the browser-only
site without the Pyodide CDN), :class:`World` plays the same rules with the same
rollout policy one world at a time. Both keep to the layout of
:mod:`courtlearn.cardbits` and to the scoring of :mod:`courtlearn.scoring`;
``tests/test_pureplay.py`` plays the same worlds through both and compares every
trick, every choice of the rollout policy and every result.

>>> from courtlearn.cardbits import SUIT_MASK_INT
>>> w = World.start(Config("court_piece"), dealer=3, hands=SUIT_MASK_INT, trump=0)
>>> w.playout(random.Random(0)).winner, w.tricks_done  # spades are trumps, seat 0 holds them all
(0, 7)
"""
from __future__ import annotations

import random
from functools import lru_cache
from types import SimpleNamespace

from .cardbits import ACE_RANK_INDEX, FULL, SUIT_MASK_INT, TEN_MASK_INT
from .scoring import decided_result

__all__ = ["GAMES", "METHODS", "KIND_NAMES", "Config", "World"]

GAMES = ("court_piece", "double_sir", "dehla_pakad")
METHODS = ("called", "shown", "hidden", "hidden_random", "first_void")
KIND_NAMES = ("tricks", "court", "goon", "bavney", "tens", "kot")
K_TRICKS, K_COURT, K_GOON, K_BAVNEY, K_TENS, K_KOT = range(6)
_KINDS = {name: k for k, name in enumerate(KIND_NAMES)}

# FOLLOW[led + 1]: the cards of the suit led (index 0: nothing led yet); also the
# trump suit's cards as FOLLOW[trump + 1] (index 0: no trump)
FOLLOW = [0] + SUIT_MASK_INT
# HIGHER[c]: the cards of c's suit that outrank c
HIGHER = [sum(1 << (4 * r + (c & 3)) for r in range((c >> 2) + 1, 13)) for c in range(52)]
NOT_TENS = FULL & ~TEN_MASK_INT
ACES = sum(1 << (4 * ACE_RANK_INDEX + s) for s in range(4))


def _low(m: int) -> int:
    """Index of the lowest set bit (the lowest-ranking card), -1 for 0."""
    return (m & -m).bit_length() - 1


def _random_card(m: int, rng) -> int:
    """A uniformly random set bit of a non-zero mask."""
    for _ in range(rng.randrange(m.bit_count())):
        m &= m - 1
    return _low(m)


class Config:
    """The options of :class:`courtlearn.Rules` that matter to the play."""

    __slots__ = (
        "aces_capture",
        "first_two_capture",
        "game",
        "goon_courts",
        "method",
        "pile",
        "stop_when_decided",
        "tens_tie",
    )

    def __init__(self, game="court_piece", method="called", stop_when_decided=True,
                 first_two_capture=True, aces_capture=True, goon_courts=3,
                 tens_tie="non_dealers"):
        if game not in GAMES:
            raise ValueError(f"game must be one of {GAMES}")
        self.game = GAMES.index(game)
        self.method = method
        self.stop_when_decided = bool(stop_when_decided)
        self.first_two_capture = bool(first_two_capture)
        self.aces_capture = bool(aces_capture)
        self.goon_courts = int(goon_courts)
        self.tens_tie = tens_tie
        self.pile = self.game != 0

    @classmethod
    def from_rules(cls, rules) -> Config:
        get = lambda name, default: getattr(rules, name, default)
        return cls(game=rules.game, method=get("trump_method", "called"),
                   stop_when_decided=get("stop_when_decided", True),
                   first_two_capture=get("first_two_capture", True),
                   aces_capture=get("aces_capture", True),
                   goon_courts=get("goon_courts", 3),
                   tens_tie=get("tens_tie", "non_dealers"))

    def key(self):
        return tuple(getattr(self, s) for s in self.__slots__)


@lru_cache(maxsize=4096)
def outcome(game: int, goon_courts: int, tens_tie: str, dealer_team: int,
            t0: int, t1: int, p0: int, p1: int):
    """(winner, courts, kind number) of a Double Sir or Dehla Pakad deal with tens t
    and tricks p in each side's own pile, or None while it is undecided: the deal's
    own scoring (:func:`courtlearn.scoring.decided_result`)."""
    rules = SimpleNamespace(game=GAMES[game], goon_courts=goon_courts, tens_tie=tens_tie)
    res = decided_result(rules, dealer_team, (p0, p1), (t0, t1))
    return None if res is None else (res[0], res[1], _KINDS[res[2]])


class World:
    """One deal's play, card by card, in Python ints.

    The fields mirror :class:`courtlearn.fastplay.Batch` for a single world:
    ``hands``/``pending`` are four masks, ``trick`` the card each seat put on the
    open trick (-1: none yet), ``trump``/``led``/``hidden`` suit or card indices
    (-1: none); after the deal, ``winner``, ``courts`` and ``kind`` (a number of
    ``KIND_NAMES``)."""

    __slots__ = ("cfg", "dealer", "caller", "hands", "pending", "played", "trick", "ncards",
                 "tricks_done", "leader", "led", "trump", "hidden", "fixed_at", "piles",
                 "tens", "centre", "centre_tens", "run_player", "run_len", "run_ace",
                 "court_team", "over", "winner", "courts", "kind", "trick_winner",
                 "trick_captured", "masters", "best_card", "best_seat", "best_key")

    @classmethod
    def start(cls, config: Config, dealer: int, hands, trump: int = -1, hidden: int = -1,
              pending=None) -> World:
        """hands: four masks at the start of play; trump: a suit index or -1; hidden:
        the face-down trump card's index (hidden methods) or -1; pending: the cards
        still to be dealt (Dehla Pakad ``first_void``)."""
        w = cls.__new__(cls)
        w.cfg = config
        w.dealer = dealer
        w.caller = (dealer + 1) % 4
        w.hands = [int(h) for h in hands]
        w.pending = [int(h) for h in pending] if pending is not None else [0, 0, 0, 0]
        w.played = 0
        w.masters = ACES  # the highest card still out in each suit (public knowledge)
        w.best_card = w.best_seat = w.best_key = -1  # the card winning the open trick
        w.trick = [-1, -1, -1, -1]
        w.ncards = 0
        w.tricks_done = 0
        w.leader = w.caller
        w.led = -1
        w.trump = trump
        w.hidden = hidden
        w.fixed_at = -1 if config.method in ("called", "shown") else 99
        w.piles = [0, 0]
        w.tens = [0, 0]
        w.centre = w.centre_tens = 0
        w.run_player = -1
        w.run_len = 0
        w.run_ace = False
        w.court_team = -1
        w.over = False
        w.winner = w.kind = -1
        w.courts = 0
        w.trick_winner = -1
        w.trick_captured = False
        return w

    def copy(self) -> World:
        new = World.__new__(World)
        for name in World.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = self.hands[:]
        new.pending = self.pending[:]
        new.trick = self.trick[:]
        new.piles = self.piles[:]
        new.tens = self.tens[:]
        return new

    @property
    def to_play(self) -> int:
        return (self.leader + self.ncards) % 4

    def _rebest(self) -> None:
        """Finds the card winning the open trick afresh (when the trump changed)."""
        trump, led = self.trump, self.led
        self.best_key = self.best_card = self.best_seat = -1
        for seat, c in enumerate(self.trick):
            if c >= 0:
                s = c & 3
                key = 32 + (c >> 2) if s == trump else 16 + (c >> 2) if s == led else 0
                if key > self.best_key:
                    self.best_key, self.best_card, self.best_seat = key, c, seat

    # ------------------------------------------------------------ one card
    def step(self, card=None, rng=None, ask=None, eps=0.0, policy="rule") -> int:
        """The seat to play plays one card: ``card`` (an index) when given, else the
        rollout policy's ("rule", or "random" legal cards). ``ask``: whether the player
        asked for the hidden trump first (replays); else a player who cannot follow asks
        when the partner is not winning the trick (rule) or always (random). Returns the
        card, or 52 when the deal is over."""
        if self.over:
            return 52
        cfg = self.cfg
        p = (self.leader + self.ncards) % 4
        hand = self.hands[p]
        leading = self.ncards == 0
        follow = hand & FOLLOW[self.led + 1]
        void = not follow and not leading
        partner_wins = self.best_seat == p ^ 2
        if self.hidden >= 0:  # hidden methods: asked for, or its owner has nothing else
            if ask is not None:     # a replay: the ask really made, void or not here
                asked = bool(ask) and not leading
            elif policy == "random":
                asked = void
            else:
                asked = void and not partner_wins
            if asked or (p == self.caller and not hand):
                self.hands[self.caller] |= 1 << self.hidden
                self.trump = self.hidden & 3
                self.fixed_at = self.tricks_done
                self.hidden = -1
                self._rebest()
                partner_wins = self.best_seat == p ^ 2
                hand = self.hands[p]
                follow = hand & FOLLOW[self.led + 1]
                trumps = hand & FOLLOW[self.trump + 1]
                if asked and trumps and not follow:
                    follow = trumps  # an asker who holds a trump must play one
        legal = follow or hand

        if card is not None:
            c = card
        elif policy == "random":
            c = _random_card(legal, rng)
        else:
            c = self._rule_policy(legal, leading, partner_wins, rng, eps)

        # first_void: the first card off the suit led fixes the trump, as in the engine: a
        # revoking card too (a replay forces the cards really played, revokes included)
        if cfg.method == "first_void" and self.trump < 0 and not leading and c & 3 != self.led:
            self.trump = c & 3
            self.fixed_at = self.tricks_done
        bit = 1 << c
        self.hands[p] &= ~bit
        self.played |= bit
        if self.masters & bit:  # the next card of its suit is now the highest still out
            rest = SUIT_MASK_INT[c & 3] & ~self.played
            self.masters ^= bit | ((1 << (rest.bit_length() - 1)) if rest else 0)
        self.trick[p] = c
        s = c & 3
        if leading:
            self.led = s
        key = 32 + (c >> 2) if s == self.trump else 16 + (c >> 2) if s == self.led else 0
        if key > self.best_key:
            self.best_key, self.best_card, self.best_seat = key, c, p
        self.ncards += 1
        if self.ncards == 4:
            self._complete()
        return c

    def _rule_policy(self, legal, leading, partner_wins, rng, eps) -> int:
        """:meth:`courtlearn.fastplay.Batch._rule_policy` for one world."""
        tmask = FOLLOW[self.trump + 1]
        non_trump = legal & ~tmask
        masters = self.masters
        if leading:
            mine = legal & masters
            pick = (mine & ~tmask) or mine
            # no sure winner: lead the lowest side card (a trump if nothing else)
            choice = pick.bit_length() - 1 if pick else _low(non_trump or legal)
        else:
            best_card = self.best_card
            best_is_trump = (best_card & 3) == self.trump
            beat = legal & (HIGHER[best_card] | (0 if best_is_trump else tmask))
            dump_from = non_trump or legal
            # is the partner's card sure to hold? (we play last, or it is the highest
            # card of its suit still out)
            safe = partner_wins and (self.ncards == 3 or bool((1 << best_card) & masters))
            if self.cfg.game == 2:  # Dehla Pakad: tens to a sure partner, otherwise keep them
                tens = legal & TEN_MASK_INT
                if safe and tens and not tens & beat:
                    dump_from = tens
                else:
                    dump_from = (dump_from & NOT_TENS) or dump_from
            dump = _low(dump_from)
            sure = beat & masters
            win = _low(beat)  # win as cheaply as possible
            if self.ncards < 3 and legal & FOLLOW[self.led + 1]:
                # second or third hand following suit: win with a sure winner if
                # one is held; otherwise second hand plays low, third hand wins
                win = _low(sure) if sure else (dump if self.ncards == 1 else win)
            if partner_wins and not safe and sure:
                choice = _low(sure)  # secure a partner's card that may still be beaten
            elif partner_wins or not beat:
                choice = dump
            else:
                choice = win
        if eps > 0 and rng.random() < eps:
            choice = _random_card(legal, rng)
        return choice

    # ------------------------------------------------------ end of a trick
    def _complete(self) -> None:
        cfg = self.cfg
        t = self.tricks_done
        best_card, w = self.best_card, self.best_seat
        team = w & 1
        self.trick_winner = w
        self.trick_captured = False
        if not cfg.pile:
            self.piles[team] += 1
        else:
            self.centre += 1
            self.centre_tens += sum(1 for c in self.trick if (TEN_MASK_INT >> c) & 1)
            ace = (best_card >> 2) == ACE_RANK_INDEX
            same = w == self.run_player
            run_len = self.run_len + 1 if same else 1
            allowed = run_len >= 2
            if not cfg.first_two_capture and t == 1:
                allowed = False
            if cfg.method == "first_void" and cfg.game == 1:  # Be-ranga Double Sar
                allowed = allowed and self.fixed_at < t
            if not cfg.aces_capture and ace and same and self.run_ace:
                allowed = False
            if allowed or t == 12:
                self.piles[team] += self.centre
                self.tens[team] += self.centre_tens
                self.centre = self.centre_tens = 0
                self.trick_captured = True
            self.run_player = w
            self.run_len = 0 if allowed else run_len
            self.run_ace = ace
        self.tricks_done = t + 1
        self.leader = w
        self.led = -1
        self.trick = [-1, -1, -1, -1]
        self.best_card = self.best_seat = self.best_key = -1
        self.ncards = 0
        # Dehla Pakad first_void: the rest of the deal after the trump-fixing trick
        if (cfg.method == "first_void" and cfg.game == 2 and any(self.pending)
                and (self.trump >= 0 or self.tricks_done == 5)):
            self.hands = [h | q for h, q in zip(self.hands, self.pending)]
            self.pending = [0, 0, 0, 0]
        self._check_over()

    def _check_over(self) -> None:
        cfg = self.cfg
        p0, p1 = self.piles
        done = self.tricks_done
        dealer_team = self.dealer % 2
        if cfg.game == 0:  # Court Piece
            if done == 7:
                self.court_team = 0 if p0 == 7 else 1 if p1 == 7 else -1
            if (p0 >= 7 or p1 >= 7) if cfg.stop_when_decided else done == 13:
                w = 0 if p0 >= 7 else 1
                if p0 == 13 or p1 == 13:
                    self._finish(w, 52, K_BAVNEY)
                elif self.court_team >= 0:
                    self._finish(w, 1, K_GOON if self.court_team == dealer_team else K_COURT)
                else:
                    self._finish(w, 0, K_TRICKS)
            return
        if cfg.stop_when_decided or done == 13:
            res = outcome(cfg.game, cfg.goon_courts, cfg.tens_tie, dealer_team,
                          self.tens[0], self.tens[1], p0, p1)
            if res is not None:
                self._finish(*res)

    def _finish(self, winner: int, courts: int, kind: int) -> None:
        self.over = True
        self.winner, self.courts, self.kind = winner, courts, kind

    # ----------------------------------------------------------- play-outs
    def playout(self, rng, policy="rule", eps=0.0) -> World:
        """Plays the deal to its end (at most 52 cards)."""
        while not self.over and self.tricks_done < 13:
            self.step(rng=rng, policy=policy, eps=eps)
        return self
