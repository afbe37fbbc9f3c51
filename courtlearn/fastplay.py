"""Fast batch playouts for the bots: no events, no text, bitmask hands.

The public engine (:mod:`courtlearn.deal`) is the one source of truth for the
rules; this module re-implements only the play of a deal, for speed, and a
test (``tests/test_fastplay.py``) plays the same random deals through both and
compares every trick and every result.

A :class:`Batch` holds ``N`` independent worlds ("what if the unseen cards lie
like this?") of the same game. Every world plays one card per :meth:`Batch.step`,
so all worlds are always at the same card of the same trick; a world whose
deal is over simply stops changing. Hands are 52-bit masks in ``uint64``
arrays, one per seat, with the bit of a card at ``4 * (rank - 2) + suit``
(rank-major, so the lowest set bit is the lowest-ranking card of any suit and
the cards of one suit are every fourth bit). Suits are numbered in the order
``♠ ♥ ♣ ♦`` (0 to 3), seats in the order of play, team = seat % 2.

numpy is imported with this module; ``import courtlearn`` does not import it
(the bots load this module only when a Monte Carlo bot first thinks).
"""
from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace

import numpy as np

from .cardbits import (ACE_RANK_INDEX, FULL, RANK_TEXT, SUIT_LETTERS, SUIT_MASK_INT,  # noqa: F401
                       TEN_MASK_INT, _FROM_ENGINE, card_index, index_card_code, indices_of,
                       mask_of)
from .pureplay import (GAMES, K_BAVNEY, K_COURT, K_GOON, K_TRICKS, KIND_NAMES, METHODS,  # noqa: F401
                       Config, _KINDS)
from .pureplay import HIGHER as _HIGHER
from .scoring import decided_result

__all__ = [
    "GAMES",
    "KIND_NAMES",
    "METHODS",
    "Batch",
    "Config",
    "card_index",
    "index_card_code",
    "indices_of",
    "mask_of",
]

U64 = np.uint64

# FOLLOW[led + 1]: the cards of the suit led (index 0: nothing led yet)
FOLLOW = np.array([0] + SUIT_MASK_INT, dtype=U64)
# TRUMP_MASK[trump + 1]: the cards of the trump suit (index 0: no trump)
TRUMP_MASK = FOLLOW
# HIGHER[c]: the cards of c's suit that outrank c
HIGHER = np.array(_HIGHER, dtype=U64)
BIT = np.array([1 << c for c in range(52)] + [0], dtype=U64)  # BIT[-1] == 0 (no card)
ONE = U64(1)
ZERO = U64(0)


# -------------------------------------------------------------- bit helpers
def _high_index(m):
    """Index of the highest set bit of each mask (-1 for 0). Exact: masks < 2**53."""
    return (np.frexp(m.astype(np.float64))[1] - 1).astype(np.int16)


def _low_bit(m):
    return m & (~m + ONE)


def _low_index(m):
    return _high_index(_low_bit(m))


if hasattr(np, "bitwise_count"):
    def _popcount(m):
        return np.bitwise_count(m)
else:  # numpy < 2.0
    def _popcount(m):
        m = m - ((m >> U64(1)) & U64(0x5555555555555555))
        m = (m & U64(0x3333333333333333)) + ((m >> U64(2)) & U64(0x3333333333333333))
        m = (m + (m >> U64(4))) & U64(0x0F0F0F0F0F0F0F0F)
        return (m * U64(0x0101010101010101)) >> U64(56)


def _random_index(m, rng):
    """A uniformly random set bit of each non-zero mask (-1 for 0)."""
    count = _popcount(m).astype(np.int64)
    k = (rng.random(m.shape[0]) * count).astype(np.int64)
    top = int(k.max(initial=0))
    for i in range(top):
        m = np.where(k > i, m & (m - ONE), m)
    return _low_index(m)


# ------------------------------------------------------------------ outcomes
@lru_cache(maxsize=32)
def _outcome_table(game, goon_courts, tens_tie, dealer_team):
    """table[t0, t1, p0, p1] -> (decided, winner, courts, kind) for Double Sir and
    Dehla Pakad, with tens t and tricks p in each side's own pile: the deal's scoring
    functions (:mod:`courtlearn.scoring`) evaluated once for every count."""
    decided = np.zeros((5, 5, 14, 14), dtype=bool)
    winner = np.full((5, 5, 14, 14), -1, dtype=np.int8)
    courts = np.zeros((5, 5, 14, 14), dtype=np.int16)
    kind = np.zeros((5, 5, 14, 14), dtype=np.int8)
    rules = SimpleNamespace(game=GAMES[game], goon_courts=goon_courts, tens_tie=tens_tie)
    for t0 in range(5):
        for t1 in range(5 - t0):
            for p0 in range(14):
                for p1 in range(14 - p0):
                    res = decided_result(rules, dealer_team, (p0, p1), (t0, t1))
                    if res is not None:
                        decided[t0, t1, p0, p1] = True
                        winner[t0, t1, p0, p1], courts[t0, t1, p0, p1] = res[0], res[1]
                        kind[t0, t1, p0, p1] = _KINDS[res[2]]
    return decided, winner, courts, kind


# -------------------------------------------------------------------- batch
class Batch:
    """N worlds of one deal, played together card by card.

    Build one with :meth:`start` from every seat's thirteen (or, before the
    full deal of Dehla Pakad ``first_void``, five) cards, then replay the cards
    already played with :meth:`step` (``cards=...``) and play out the rest with
    :meth:`playout`.
    """

    def __init__(self, config: Config, dealer: int, n: int):
        self.cfg = config
        self.dealer = dealer
        self.n = n
        self.caller = (dealer + 1) % 4
        z8 = lambda fill=0: np.full(n, fill, dtype=np.int8)
        self.hands = np.zeros((n, 4), dtype=U64)
        self.pending = np.zeros((n, 4), dtype=U64)  # Dehla first_void: the rest of the deal
        self.played = np.zeros(n, dtype=U64)
        self.trick = np.full((n, 4), -1, dtype=np.int8)  # card played by each seat, -1: none
        self.ncards = 0                                  # cards in the open trick (all worlds)
        self.tricks_done = 0
        self.leader = z8(self.caller)
        self.led = z8(-1)
        self.trump = z8(-1)
        self.hidden = z8(-1)           # a face-down trump card (hidden methods), -1: none
        self.fixed_at = np.full(n, 99, dtype=np.int8)  # trick in which trump became known
        self.piles = np.zeros((n, 2), dtype=np.int8)
        self.tens = np.zeros((n, 2), dtype=np.int8)
        self.centre = z8()
        self.centre_tens = z8()
        self.run_player = z8(-1)
        self.run_len = z8()
        self.run_ace = np.zeros(n, dtype=bool)
        self.court_team = z8(-1)
        self.over = np.zeros(n, dtype=bool)
        self.winner = z8(-1)
        self.courts = np.zeros(n, dtype=np.int16)
        self.kind = z8(-1)
        self.trick_winner = z8(-1)     # winner of the last completed trick
        self.trick_captured = np.zeros(n, dtype=bool)
        self._ar = np.arange(n)

    # ---------------------------------------------------------------- setup
    @classmethod
    def start(cls, config: Config, dealer: int, hands, trump=-1, hidden=-1, pending=None):
        """hands: int masks, shape (N, 4) (or one list of four for N=1).
        trump: suit index (called/shown/deferred), or -1. hidden: the set-aside
        card's index per world (hidden methods), or -1."""
        hands = np.asarray(hands, dtype=U64)
        if hands.ndim == 1:
            hands = hands[None, :]
        b = cls(config, dealer, hands.shape[0])
        b.hands[:] = hands
        b.trump[:] = trump
        if b.cfg.method in ("called", "shown"):
            b.fixed_at[:] = -1
        b.hidden[:] = hidden
        if pending is not None:
            p = np.asarray(pending, dtype=U64)
            b.pending[:] = p if p.ndim == 2 else p[None, :]
        return b

    def copy(self, repeat: int = 1) -> Batch:
        """A copy; with repeat=k every world is repeated k times (world i of the
        copy is world i // k of this batch)."""
        new = Batch.__new__(Batch)
        for name, value in self.__dict__.items():
            if isinstance(value, np.ndarray) and name != "_ar":
                value = np.repeat(value, repeat, axis=0) if repeat != 1 else value.copy()
            setattr(new, name, value)
        new.n = self.n * repeat
        new._ar = np.arange(new.n)
        return new

    # ------------------------------------------------------------ accessors
    @property
    def to_play(self):
        return (self.leader + self.ncards) % 4

    def legal(self, p=None):
        """Legal cards (mask) of the seat to play, before any ask for trump."""
        if p is None:
            p = self.to_play
        hand = self.hands[self._ar, p]
        follow = hand & FOLLOW[self.led + 1]
        return np.where(follow != 0, follow, hand)

    def _best(self):
        """(card, seat) now winning the open trick (needs ncards >= 1)."""
        t = self.trick.astype(np.int16)
        rank = t >> 2
        suit = t & 3
        key = np.where(suit == self.trump[:, None], 32 + rank,
                       np.where(suit == self.led[:, None], 16 + rank, 0))
        key = np.where(t < 0, -1, key)
        seat = np.argmax(key, axis=1)
        return t[self._ar, seat], seat

    # ------------------------------------------------------------- one card
    def step(self, cards=None, rng=None, asks=None, eps=0.0, policy="rule"):
        """Every world still running plays one card for its seat to play.

        cards: forced card indices (array or int); else the rollout policy picks
        ("rule": cheap sensible play, with probability eps a random legal card;
        "random": uniform over legal cards). asks: forced "asks for the hidden
        trump" flags for replays; else a player who cannot follow asks when
        their partner is not winning the trick (rule) or always (random)."""
        ar = self._ar
        live = ~self.over
        p = self.to_play
        hand = self.hands[ar, p]
        leading = self.ncards == 0
        follow = hand & FOLLOW[self.led + 1]
        void = (follow == 0) & (not leading)
        if self.ncards:
            best_card, best_seat = self._best()
            partner_wins = best_seat == (p ^ 2)
        else:
            best_card = np.full(self.n, -1, dtype=np.int16)
            partner_wins = np.zeros(self.n, dtype=bool)

        # the hidden trump card: asked for, or its owner has nothing else to play
        if self.cfg.method in ("hidden", "hidden_random"):
            hid = self.hidden >= 0
            if hid.any():
                if asks is not None:    # a replay: the asks really made, void or not here
                    ask = np.asarray(asks, dtype=bool) & hid & (not leading)
                elif policy == "random":
                    ask = void & hid
                else:
                    ask = void & hid & ~partner_wins
                forced = hid & (p == self.caller) & (hand == 0)
                reveal = (ask | forced) & live
                if reveal.any():
                    idx = np.nonzero(reveal)[0]
                    hcard = self.hidden[idx].astype(np.int64)
                    self.hands[idx, self.caller] |= BIT[hcard]
                    self.trump[idx] = hcard & 3
                    self.fixed_at[idx] = self.tricks_done
                    self.hidden[idx] = -1
                    hand = self.hands[ar, p]
                    follow = hand & FOLLOW[self.led + 1]
                    trumps = hand & TRUMP_MASK[self.trump + 1]
                    must_trump = ask & (trumps != 0)
                    # an asker who holds a trump must play one
                    follow = np.where(must_trump & (follow == 0), trumps, follow)
        legal = np.where(follow != 0, follow, hand)

        if cards is not None:
            c = np.broadcast_to(np.asarray(cards, dtype=np.int64), (self.n,)).copy()
        elif policy == "random":
            c = _random_index(legal, rng).astype(np.int64)
        else:
            c = self._rule_policy(p, legal, leading, best_card, partner_wins, rng, eps)
        c = np.where(live, c, 52)  # a finished world plays nothing (BIT[52] == 0)

        if self.cfg.method == "first_void":
            # the first card off the suit led fixes the trump, as in the engine: a revoking
            # card too (a replay forces the cards really played, revokes included)
            fix = live & (self.trump < 0) & ((c & 3) != self.led) & (not leading)
            if fix.any():
                self.trump[fix] = c[fix] & 3
                self.fixed_at[fix] = self.tricks_done

        bits = BIT[c]
        self.hands[ar, p] &= ~bits
        self.played |= bits
        self.trick[ar, p] = np.where(live, c, self.trick[ar, p])
        if leading:
            self.led = np.where(live, c & 3, self.led).astype(np.int8)
        self.ncards += 1
        if self.ncards == 4:
            self._complete(live)
        return c

    def _rule_policy(self, p, legal, leading, best_card, partner_wins, rng, eps):
        tmask = TRUMP_MASK[self.trump + 1]
        non_trump = legal & ~tmask
        # masters: the highest card still out in each suit (public knowledge)
        remaining = U64(FULL) & ~self.played
        masters = np.zeros(self.n, dtype=U64)
        for s in range(4):
            top = _high_index(remaining & FOLLOW[s + 1])
            masters |= BIT[np.where(top < 0, 52, top)]
        if leading:
            mine = legal & masters
            mine_side = mine & ~tmask
            pick = np.where(mine_side != 0, mine_side, mine)
            # no sure winner: lead the lowest side card (a trump if nothing else)
            choice = np.where(pick != 0, _high_index(pick),
                              _low_index(np.where(non_trump != 0, non_trump, legal)))
        else:
            bc = np.where(best_card < 0, 0, best_card).astype(np.int64)
            best_is_trump = (bc & 3) == self.trump
            beat = legal & (HIGHER[bc] | np.where(best_is_trump, ZERO, tmask))
            dump_from = np.where(non_trump != 0, non_trump, legal)
            # is the partner's card sure to hold? (we play last, or it is the highest
            # card of its suit still out)
            best_master = (BIT[bc] & masters) != 0
            safe = partner_wins & ((self.ncards == 3) | best_master)
            if self.cfg.game == 2:  # Dehla Pakad: tens to a sure partner, otherwise keep them
                tens = legal & U64(TEN_MASK_INT)
                give = safe & (tens != 0) & ((tens & beat) == 0)
                plain = dump_from & ~U64(TEN_MASK_INT)
                dump_from = np.where(give, tens, np.where(plain != 0, plain, dump_from))
            dump = _low_index(dump_from)
            win = _low_index(beat)  # win as cheaply as possible
            if self.ncards < 3:
                # second or third hand following suit: win with a sure winner if
                # one is held; otherwise second hand plays low, third hand wins
                following = (legal & FOLLOW[self.led + 1]) != 0
                sure = beat & masters
                alt = np.where(sure != 0, _low_index(sure), dump if self.ncards == 1 else win)
                win = np.where(following, alt, win)
            # a partner's card that may still be beaten: secure it with a sure winner
            sure = beat & masters
            shaky = partner_wins & ~safe & (sure != 0)
            choice = np.where(shaky, _low_index(sure),
                              np.where(partner_wins | (beat == 0), dump, win))
        if eps > 0:
            rnd = rng.random(self.n) < eps
            if rnd.any():
                choice = np.where(rnd, _random_index(legal, rng), choice)
        return choice.astype(np.int64)

    # ------------------------------------------------------- end of a trick
    def _complete(self, live):
        cfg = self.cfg
        t = self.tricks_done
        best_card, w = self._best()
        w = w.astype(np.int8)
        team = w & 1
        lw = live
        self.trick_winner = np.where(lw, w, self.trick_winner).astype(np.int8)
        ten_count = _popcount(
            BIT[np.where(self.trick < 0, 52, self.trick).astype(np.int64)]
             & U64(TEN_MASK_INT)).sum(axis=1).astype(np.int8)
        self.trick_captured = np.zeros(self.n, dtype=bool)
        if not cfg.pile:
            self.piles[lw, team[lw]] += 1
        else:
            self.centre += lw
            self.centre_tens += np.where(lw, ten_count, 0).astype(np.int8)
            ace = (best_card >> 2) == ACE_RANK_INDEX
            same = w == self.run_player
            run_len = np.where(same, self.run_len + 1, 1).astype(np.int8)
            allowed = lw & (run_len >= 2)
            if not cfg.first_two_capture and t == 1:
                allowed &= False
            if cfg.method == "first_void" and cfg.game == 1:  # Be-ranga Double Sar
                allowed &= self.fixed_at < t
            if not cfg.aces_capture:
                allowed &= ~(ace & same & self.run_ace)
            last = t == 12
            take = allowed | (lw & last)
            idx = np.nonzero(take)[0]
            if idx.size:
                tm = team[idx]
                self.piles[idx, tm] += self.centre[idx]
                self.tens[idx, tm] += self.centre_tens[idx]
                self.centre[idx] = 0
                self.centre_tens[idx] = 0
            self.trick_captured = take
            self.run_player = np.where(lw, w, self.run_player).astype(np.int8)
            self.run_len = np.where(lw, np.where(allowed, 0, run_len), self.run_len).astype(np.int8)
            self.run_ace = np.where(lw, ace, self.run_ace)
        self.tricks_done = t + 1
        self.leader = np.where(lw, w, self.leader).astype(np.int8)
        self.led = np.where(lw, -1, self.led).astype(np.int8)
        self.trick = np.where(lw[:, None], -1, self.trick).astype(np.int8)
        self.ncards = 0
        # Dehla Pakad first_void: the rest of the deal after the trump-fixing trick
        if cfg.method == "first_void" and cfg.game == 2 and self.pending.any():
            deal_rest = lw & ((self.trump >= 0) | (self.tricks_done == 5)) & (self.pending.sum(axis=1) != 0)
            if deal_rest.any():
                self.hands[deal_rest] |= self.pending[deal_rest]
                self.pending[deal_rest] = 0
        self._check_over(lw)

    def _check_over(self, lw):
        cfg = self.cfg
        p0 = self.piles[:, 0]
        p1 = self.piles[:, 1]
        done = self.tricks_done
        dealer_team = self.dealer % 2
        if cfg.game == 0:  # Court Piece
            if done == 7:
                ct = np.where(p0 == 7, 0, np.where(p1 == 7, 1, -1)).astype(np.int8)
                self.court_team = np.where(lw, ct, self.court_team).astype(np.int8)
            reach = (p0 >= 7) | (p1 >= 7)
            w = np.where(p0 >= 7, 0, 1).astype(np.int8)
            if cfg.stop_when_decided:
                end = lw & reach
            else:
                end = lw & (done == 13)
            if end.any():
                court = self.court_team >= 0
                bav = (p0 == 13) | (p1 == 13)
                goon = self.court_team == dealer_team
                kind = np.where(bav, K_BAVNEY, np.where(court, np.where(goon, K_GOON, K_COURT), K_TRICKS))
                courts = np.where(bav, 52, np.where(court, 1, 0))
                self._finish(end, w, courts, kind)
            return
        decided, winner, courts, kind = _outcome_table(cfg.game, cfg.goon_courts, cfg.tens_tie,
                                                       dealer_team)
        t0 = self.tens[:, 0]
        t1 = self.tens[:, 1]
        if cfg.stop_when_decided:
            end = lw & decided[t0, t1, p0, p1]
        else:
            end = lw & (done == 13)
        if end.any():
            self._finish(end, winner[t0, t1, p0, p1], courts[t0, t1, p0, p1], kind[t0, t1, p0, p1])

    def _finish(self, end, winner, courts, kind):
        self.over |= end
        self.winner = np.where(end, winner, self.winner).astype(np.int8)
        self.courts = np.where(end, courts, self.courts).astype(np.int16)
        self.kind = np.where(end, kind, self.kind).astype(np.int8)

    # ------------------------------------------------------------- playouts
    def playout(self, rng, policy="rule", eps=0.0):
        """Plays every world to its end (at most 52 cards)."""
        while not self.over.all() and self.tricks_done < 13:
            self.step(rng=rng, policy=policy, eps=eps)
        return self
