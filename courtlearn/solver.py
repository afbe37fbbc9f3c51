"""Exact best play with all four hands known: :func:`solve` (the coach, issue 13).

From any position of the play phase, mid-trick included, the solver finds for each
lawful card of the player to move the result that player's team ends the deal with
if all four play perfectly from there, seeing every hand ("double dummy", as bridge
players say). What is counted, after all 13 tricks (whatever ``stop_when_decided``
says):

- Court Piece: the tricks in the team's pile.
- Double Sir: the tricks in the team's own pile, the centre pile captured as the
  engine captures it (two in a row by one player, ``first_two_capture``,
  ``aces_capture``, Be-ranga's no capture before the trump is fixed, the last
  trick's sweep).
- Dehla Pakad: the tens in the team's own pile, by the same pile rules; with
  ``first_void`` the trump may not be fixed yet: the first player who cannot
  follow suit fixes it, and the rest of the pack is dealt as the engine deals it.

Pure Python over the engine's per-suit bitmasks, so it runs in the browser too:
alpha-beta search with a transposition table at trick starts, cards that are
equivalent merged into one move (two cards of a hand with no live card of another
hand between them), and a move order that tries the likely best card first. Court
Piece, which only counts tricks, has a search of its own with sure-trick bounds and
partition search (:mod:`courtlearn.trick_solver`): whole deals in seconds to minutes.

Every solve has a budget of cards to try (:data:`BUDGET` by default, a few seconds)
and tables of at most :data:`~courtlearn.trick_solver.TABLE_CAP` entries each: a
position that needs more is refused with :class:`PositionTooLarge`, whose sentence
says from which trick on the game's positions can be solved (:data:`SOLVABLE_FROM`,
measured; :func:`solvable_from` looks it up without searching).

>>> import courtlearn as cl
>>> deal = cl.Deal(cl.Rules.court_piece(stop_when_decided=False), dealer=3, seed=11)
>>> _ = deal.call_trump("S")
>>> while len(deal.tricks) < 9:                     # play to four tricks from the end
...     _ = deal.play(deal.legal_cards()[0])
>>> sol = solve(deal)
>>> sol.seat == deal.to_play, sol.measure, max(sol.values.values()) <= 13
(True, 'tricks', True)
>>> sol.best == [c for c, v in sol.values.items() if v == max(sol.values.values())]
True
"""
from __future__ import annotations

import gc
import math
import numbers
import time
from dataclasses import dataclass, field

from .cards import Card, Suit
from .language import or_words, tr, trn
from .rules import team_of
from .trick_solver import TABLE_CAP, Bounded, OutOfBudget, TrickSearch, lowest_mattered

__all__ = ["Solution", "solve", "PositionTooLarge", "solvable_from", "BUDGET"]

_ACE = 12          # rank 14 as a bit index (rank - 2)
_TEN = 8           # rank 10 as a bit index


@dataclass(frozen=True)
class Solution:
    """The exact values of the lawful cards of ``seat`` (see :func:`solve`).

    ``values``: {card: the mover's team's total at the end of the deal (tricks, or
    tens in Dehla Pakad) with perfect play by all four}; ``best``: the cards with the
    top value, high to low; ``measure``: "tricks" or "tens"; ``text``: one sentence;
    ``solver``: "python" or "dds", whichever answered; ``nodes``: the cards the pure
    solver tried; ``table_peak``: the most entries one of its tables held.
    """

    seat: int
    values: dict
    measure: str
    best: list
    text: str
    team: int = 0
    owned: int = 0          # what the team already had in its own pile
    nodes: int = field(default=0, compare=False)          # cards the search tried
    solver: str = field(default="python", compare=False)  # "python" or "dds"
    table_peak: int = field(default=0, compare=False)     # most entries a table held

    def __repr__(self) -> str:
        vals = ", ".join(f"{c.code}: {v}" for c, v in self.values.items())
        return f"Solution(seat={self.seat}, {self.measure}, {{{vals}}})"


class _Search(Bounded):
    """One search tree: the deal's fixed facts, and the transposition table
    (``budget``, ``cap``, ``watch``: see :class:`~courtlearn.trick_solver.Bounded`)."""

    def __init__(self, deal, budget=math.inf, cap: int = TABLE_CAP, watch=None):
        super().__init__(budget, cap, watch)
        r = deal.rules
        self.game = r.game
        self.pile = r.game != "court_piece"
        self.tens = r.game == "dehla_pakad"
        self.first_two = r.first_two_capture if self.pile else True
        self.aces = r.aces_capture if self.pile else True
        self.be_ranga = r.trump_method == "first_void" and r.game == "double_sir"
        self.first_void = r.trump_method == "first_void"
        self.table: dict = {}
        self.shapes: dict = {}

    def sizes(self) -> tuple:
        """The entries in each table now."""
        return len(self.table), len(self.shapes)

    def tables(self) -> tuple:
        return ((self.table, _tricks_left),)

    # ----------------------------------------------------------------- helpers
    def shape(self, hands, pending):
        """The position's cards up to what cannot change the result: in each suit only the
        order of the live cards matters (who holds the highest, the next...), besides the
        cards the count or the pile rules single out. Positions that differ only in cards
        already played share one entry of the transposition table."""
        memo = self.shapes
        out = []
        for s in range(4):
            suit = (hands[s], hands[s + 4], hands[s + 8], hands[s + 12])
            if pending is not None:
                suit += (pending[s], pending[s + 4], pending[s + 8], pending[s + 12])
            got = memo.get(suit)
            if got is None:
                if len(memo) >= self.cap:
                    self.empty(memo)
                got = memo[suit] = self._compress(suit)
            out.append(got)
        return tuple(out)

    def _compress(self, masks):
        live = 0
        for m in masks:
            live |= m
        packed = [0] * len(masks)
        marks = []
        j = 0
        r = 0
        while live >> r:
            if live >> r & 1:
                for i, m in enumerate(masks):
                    if m >> r & 1:
                        packed[i] |= 1 << j
                        break
                if self.special(r):
                    marks.append((r, j))
                j += 1
            r += 1
        return (tuple(packed), tuple(marks))

    def special(self, rank: int) -> bool:
        return (self.tens and rank == _TEN) or (not self.aces and rank == _ACE)

    def groups(self, mine: int, others: int):
        """Runs of equivalent cards in ``mine`` (one suit), high to low: lists of ranks.
        Two cards are equivalent when no live card of ``others`` lies between them (and
        neither is a card the count or the pile rules single out: a ten in Dehla Pakad,
        an ace with ``aces_capture=False``)."""
        out = []
        run = None
        prev = 0
        r = mine.bit_length() - 1
        while r >= 0:
            if mine >> r & 1:
                if (run is not None and not (others >> (r + 1)) & ((1 << (prev - r - 1)) - 1)
                        and not self.special(r) and not self.special(prev)):
                    run.append(r)
                else:
                    run = [r]
                    out.append(run)
                prev = r
            r -= 1
        return out

    def moves(self, hands, seat, trick, trump):
        """The lawful moves of ``seat`` as (suit, rank, [equivalent ranks]), likely best first."""
        base = seat * 4
        suits = (0, 1, 2, 3)
        if trick:
            led = trick[0][1]
            if hands[base + led]:
                suits = (led,)
            win_seat, ws, wr = _winner(trick, trump)
            partner = (win_seat & 1) == (seat & 1)
        out = []
        for s in suits:
            mine = hands[s + base]
            if not mine:
                continue
            others = (hands[s] | hands[s + 4] | hands[s + 8] | hands[s + 12]) & ~mine
            for _, cs, cr in trick:
                if cs == s:
                    others |= 1 << cr
            for run in self.groups(mine, others):
                r = run[-1]
                if not trick:                           # leading: high cards first, trumps last
                    key = (s == trump, -r)
                else:
                    beats = (s == ws and r > wr) or (s == trump and ws != trump)
                    if partner:
                        key = (beats, r)                # play low under a partner
                    else:
                        key = (not beats, r)            # the cheapest card that wins first
                out.append((key, s, r, run))
        out.sort()
        return [(s, r, run) for _, s, r, run in out]

    # ------------------------------------------------------------ the search
    def trick_start(self, hands, leader, number, st, trump, pending, alpha, beta):
        """Future units (tricks or tens into team 0's own pile) with best play, from the
        start of trick ``number`` (0-based). ``st``: the pile state (centre tricks,
        centre tens, last winner, run length, last trick won by an ace, trick that
        fixed the trump)."""
        if self.nodes >= self.next_check:
            self.checkpoint()
        if number == 13:
            return 0
        # the pile state as far as it can change what is still to come: the centre's tens
        # (Dehla Pakad) or tricks (Double Sir), the last winner while a run is on, the trick
        # that fixed the trump only for Be-ranga
        centre, ctens, run_seat, run_len, prev_ace, fixed = st
        key = (self.shape(hands, pending), leader, number, trump,
               ctens if self.tens else centre, run_seat if run_len else -1, run_len, prev_ace,
               fixed if self.be_ranga else None)
        hit = self.table.get(key)
        if hit is not None:
            lo, hi = hit
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        else:
            lo, hi = 0, self.most(hands, number, st, pending)
            if hi <= alpha:
                return hi
            if beta > hi:
                beta = hi
        a0, b0 = alpha, beta
        v = self.play(hands, leader, number, st, trump, pending, [], alpha, beta)
        if v <= a0:
            hi = min(hi, v)
        elif v >= b0:
            lo = max(lo, v)
        else:
            lo = hi = v
        self.table[key] = (lo, hi)
        return v

    def most(self, hands, number, st, pending):
        """An upper bound of the future units: everything still to be won."""
        if not self.tens:
            return 13 - number + (st[0] if self.pile else 0)
        n = st[1]
        for s in range(4):
            n += hands[s * 4] >> _TEN & 1
            n += hands[s * 4 + 1] >> _TEN & 1
            n += hands[s * 4 + 2] >> _TEN & 1
            n += hands[s * 4 + 3] >> _TEN & 1
        if pending is not None:
            for m in pending:
                n += m >> _TEN & 1
        return n

    def play(self, hands, leader, number, st, trump, pending, trick, alpha, beta):
        self.nodes += 1
        i = len(trick)
        seat = (leader + i) & 3
        maximize = (seat & 1) == 0
        best = -1 if maximize else 99
        for s, r, _ in self.moves(hands, seat, trick, trump):
            k = seat * 4 + s
            hands[k] ^= 1 << r
            t2 = trump
            fixed = st[5]
            if trump is None and self.first_void and trick and s != trick[0][1]:
                t2 = s
                fixed = number
            trick.append((seat, s, r))
            if i == 3:
                v = self.finish(hands, number, st, t2, fixed, pending, trick, alpha, beta)
            else:
                st2 = st if fixed == st[5] else st[:5] + (fixed,)
                v = self.play(hands, leader, number, st2, t2, pending, trick, alpha, beta)
            trick.pop()
            hands[k] ^= 1 << r
            if maximize:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        return best

    def finish(self, hands, number, st, trump, fixed, pending, trick, alpha, beta):
        """The trick is complete: who wins it, what goes where, then the next trick."""
        win_seat, _, best_rank = _winner(trick, trump)
        team = win_seat & 1
        tens_here = sum(1 for _, _, r in trick if r == _TEN) if self.tens else 0
        gain0 = 0
        if not self.pile:
            gain0 = 1 if team == 0 else 0
            st2 = st
        else:
            centre, ctens, run_seat, run_len, prev_ace, _ = st
            centre += 1
            ctens += tens_here
            if win_seat == run_seat:
                run_len += 1
            else:
                run_seat, run_len = win_seat, 1
            ace = best_rank == _ACE
            take = False
            if number == 12:
                take = True
            elif run_len >= 2:
                blocked = ((not self.first_two and number == 1)
                           or (not self.aces and ace and prev_ace)
                           or (self.be_ranga and (fixed is None or number <= fixed)))
                if not blocked:
                    take = True
            if take:
                units = ctens if self.tens else centre
                gain0 = units if team == 0 else 0
                centre, ctens = 0, 0
                if number != 12:
                    run_len = 0
            st2 = (centre, ctens, run_seat, min(run_len, 2), ace if not self.aces else False, fixed)
        pend = pending
        if pending is not None and (trump is not None or number >= 4):
            # the rest of the pack is dealt (Dehla Pakad's first_void), as the engine does
            hands = [h | p for h, p in zip(hands, pending)]
            pend = None
        return gain0 + self.trick_start(hands, win_seat, number + 1, st2, trump, pend,
                                        alpha - gain0, beta - gain0)


def _tricks_left(key) -> int:
    """Tricks left in a key of ``_Search.table`` (its third item: the trick's number)."""
    return 13 - key[2]


def _winner(trick, trump):
    """(seat, suit, rank) of the card winning ``trick`` so far (RULES.md section 4)."""
    best = trick[0]
    for c in trick[1:]:
        if c[1] == best[1]:
            if c[2] > best[2]:
                best = c
        elif c[1] == trump:
            best = c
    return best


def _position(deal):
    """The search's view of ``deal`` now: hands, leader, trick, pile state, trump."""
    if deal.phase != "play":
        if deal.phase == "over":
            raise ValueError(tr("solve() needs a deal in its play phase; this one is over."))
        raise ValueError(tr("solve() needs a deal in its play phase; this one is still fixing "
                            "the trump."))
    if deal._hidden is not None:
        raise ValueError(tr("solve() cannot see a face-down trump card: the trump is hidden "
                            "until it is shown, so best play is not defined yet."))
    hands = [m for seat in range(4) for m in deal._hands[seat]]
    pending = None
    if deal._ndealt < 13:
        pending = [0] * 16
        for seat in range(4):
            for c in deal._order[seat][deal._ndealt:]:
                pending[seat * 4 + c.si] |= c.sbit
    trick = [((deal._leader + i) & 3, c.si, c.rank - 2) for i, c in enumerate(deal._trick)]
    trump = None if deal._trump is None else int(deal._trump)
    centre = len(deal._centre)
    ctens = deal._centre_tens
    prev_ace = bool(deal._tricks) and deal._tricks[-1][3].rank == 14
    fixed = deal._fixed_at[0] if deal._fixed_at is not None else None
    st = (centre, ctens, deal._run_seat, min(deal._run_len, 2), prev_ace, fixed)
    return hands, trick, trump, st, pending


# Court Piece positions with more tricks left than this go to DDS when endplay is there
DDS_FROM_TRICKS = 8

# cl.solve's default budget: the most cards a search tries before it gives up on a
# position (a count, not a time, so the same position gets the same answer on every
# machine). Where it was measured (a shared 2-core machine), at most about 3 s of CPU
# for Court Piece with a known trump (its search does more per card) and 2.5 s for the
# others, tables of at most some 35,000 entries and 30 MB (bench/solve_speed.py --limits).
BUDGET = 250_000

# the first trick (1..13) from which nine in ten positions of each game, at that trick
# and every later one, solve within BUDGET (16 random positions a trick, half of them
# mid-trick: bench/solve_speed.py --limits). "court_piece" is a known trump without DDS
# (with DDS, from trick 1); "/first_void": the first player who cannot follow fixes it
SOLVABLE_FROM = {
    "court_piece": 4,
    "court_piece/first_void": 6,
    "double_sir": 6,
    "double_sir/first_void": 6,
    "dehla_pakad": 6,
    "dehla_pakad/first_void": 6,
}


class PositionTooLarge(ValueError):
    """:func:`solve` gave up: the position needs more search than the budget allows.

    ``from_trick``: the trick (1..13) from which positions of this game are solved
    within the default budget (a later trick than now, but for the last trick);
    ``trick``: the trick now; ``nodes``: the cards tried before stopping; ``budget``:
    the budget; ``table_peak``: the most entries a table of the search held.
    """

    def __init__(self, message: str, from_trick: int, trick: int, nodes: int, budget,
                 table_peak: int = 0):
        super().__init__(message)
        self.from_trick = from_trick
        self.trick = trick
        self.nodes = nodes
        self.budget = budget
        self.table_peak = table_peak


def solvable_from(deal) -> int:
    """The trick (1..13) from which :func:`solve` answers positions of ``deal``'s game
    within its default budget, as measured (:data:`SOLVABLE_FROM`); 1 for Court Piece
    with its trump known (or still to be called) when DDS is installed. A cheap look-up
    (no search), for a caller that would rather not try too early: compare it with
    ``len(deal.tricks) + 1``.

    >>> import courtlearn as cl
    >>> solvable_from(cl.Deal(cl.Rules.dehla_pakad(), dealer=0, seed=1))
    6
    """
    from . import dds
    if (deal.rules.game == "court_piece" and dds.available()
            and (deal.trump is not None or deal.rules.trump_method != "first_void")):
        return 1
    return SOLVABLE_FROM[_kind(deal)]


def _kind(deal) -> str:
    """The key of :data:`SOLVABLE_FROM` for ``deal``."""
    if deal.rules.trump_method == "first_void":
        return deal.rules.game + "/first_void"
    return deal.rules.game


def solve(deal, using: str = "auto", budget=None, progress: bool = True) -> Solution:
    """Exact best play for the player to move, all hands known (see the module's doc).

    ``using``: "python" (the pure solver), "dds" (Court Piece with its trump known,
    needs endplay) or "auto" (DDS for Court Piece positions of more than 8 tricks left
    when endplay is installed and DDS can take the position, else the pure solver; the
    pure solver too if DDS fails).

    ``budget``: the most cards the pure solver tries (``None``: :data:`BUDGET`, a few
    seconds at most; ``math.inf``: no limit, which may take minutes for whole deals).
    Its tables never hold more than :data:`~courtlearn.trick_solver.TABLE_CAP` entries
    each, whatever the budget. Past the budget it raises :class:`PositionTooLarge`, a
    ValueError that says from which trick on the game's positions can be solved.
    ``progress``: a progress bar once a solve has taken a second (tqdm, if installed).

    Raises ValueError for anything but a Deal, outside the play phase and while a
    hidden trump is face down.

    >>> import courtlearn as cl
    >>> deal = cl.Deal(cl.Rules.dehla_pakad(), dealer=0, seed=1)
    >>> _ = deal.call_trump("S")
    >>> solve(deal, budget=20_000)          # a whole deal, and a small budget
    Traceback (most recent call last):
    ...
    courtlearn.solver.PositionTooLarge: This position is too large to solve yet: best play can be worked out from trick 6 on.
    """
    _check_arguments(deal, using, budget)
    hands, trick, trump, st, pending = _position(deal)
    seat = deal._to_play
    team = team_of(seat)
    if using == "dds" or (using == "auto" and deal.rules.game == "court_piece"
                          and 13 - len(deal._tricks) > DDS_FROM_TRICKS):
        values = _by_dds(deal, using)
        if values is not None:
            return _solution(deal, seat, values, "tricks", deal._won[team], 0, solver="dds")
    limit = BUDGET if budget is None else budget
    meter = _Meter(limit) if progress else None
    search = _Search(deal, limit, TABLE_CAP, meter)
    try:
        if not search.pile and trump is not None:
            # trick counting with a known trump: the faster search of trick_solver
            return _solve_tricks(deal, search, hands, trick, trump, seat, team)
        return _solve_generic(deal, search, hands, trick, trump, st, pending, seat, team)
    except OutOfBudget as stop:
        raise _too_large(deal, stop, limit) from None
    finally:
        if meter is not None:
            meter.close()


def _check_arguments(deal, using, budget) -> None:
    """Refuse what :func:`solve` cannot take, before any work (ValueError)."""
    from .deal import Deal
    if not isinstance(deal, Deal):
        raise ValueError(tr("solve() takes a Deal, got {kind}.", kind=type(deal).__name__))
    if not isinstance(using, str) or using not in ("auto", "python", "dds"):
        raise ValueError(tr("using is 'auto', 'python' or 'dds', got {using}.",
                            using=_short(using)))
    if budget is not None and not (
            (isinstance(budget, numbers.Integral) and not isinstance(budget, bool)
             and budget > 0) or budget == math.inf):
        raise ValueError(tr("budget is a number of cards to try above 0, math.inf for no "
                            "limit, or None for the default; got {budget}.",
                            budget=_short(budget)))


def _short(value) -> str:
    """A short prefix of ``value``'s repr, for a refusal."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _by_dds(deal, using):
    """DDS's values for ``deal``, or None where the pure solver should answer instead
    ("auto": DDS missing, unable to take the position, or failing on it)."""
    from . import dds
    reason = dds.refusal(deal)
    if using == "dds":
        if reason is not None:
            raise ValueError(reason)
        return dds.solve_with_endplay(deal)
    if reason is not None or not dds.available():
        return None
    try:
        return dds.solve_with_endplay(deal)
    except Exception:       # noqa: BLE001 - whatever DDS refuses, the pure search answers
        return None


def _too_large(deal, stop, budget) -> PositionTooLarge:
    """The refusal of a position the budget could not search through (``stop``: the
    search's :class:`OutOfBudget`)."""
    from . import dds
    now = len(deal._tricks) + 1
    later = min(max(SOLVABLE_FROM[_kind(deal)], now + 1), 13)
    if deal.rules.game == "court_piece" and deal._trump is None and dds.available():
        text = tr("This position is too large to solve yet: best play can be worked out "
                  "once the trump is fixed, or from trick {trick} on.", trick=later)
    else:
        text = tr("This position is too large to solve yet: best play can be worked out "
                  "from trick {trick} on.", trick=later)
    return PositionTooLarge(text, from_trick=later, trick=now, nodes=stop.nodes,
                            budget=budget, table_peak=stop.peak)


# seconds a solve runs before its progress bar shows
PROGRESS_AFTER = 1.0


class _Meter:
    """A search's progress bar (tqdm), shown only once the search has taken
    :data:`PROGRESS_AFTER` seconds: a bar of the budget used, or a count of cards tried
    without a budget. Nothing at all for a quick solve (not even tqdm's import)."""

    def __init__(self, budget):
        self.budget = budget
        self.started = time.perf_counter()
        self.bar = None

    def __call__(self, nodes: int) -> None:
        if self.bar is None:
            if time.perf_counter() - self.started < PROGRESS_AFTER:
                return
            try:
                from tqdm.auto import tqdm
            except ImportError:
                self.started = math.inf         # never again
                return
            total = None if self.budget == math.inf else self.budget
            self.bar = tqdm(total=total, initial=nodes, desc="solve", unit=" cards",
                            leave=False)
        else:
            self.bar.update(nodes - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _solve_generic(deal, search, hands, trick, trump, st, pending, seat, team) -> Solution:
    """:func:`solve` by the search of this module, which knows every game's count."""
    number = len(deal._tricks)
    leader = deal._leader
    if search.tens:
        owned = deal._tens[team]
    else:
        owned = deal._won[team]
    values = {}
    total = _future_total(search, hands, st, pending, number, trick)
    guess = None
    for s, r, run in search.moves(hands, seat, trick, trump):
        lo = guess = _mtdf(lambda a, b: _after(search, hands, leader, number, st, trump,
                                               pending, trick, seat, s, r, a, b),
                           total, guess)
        mine = lo if team == 0 else total - lo
        for rank in run:
            values[Card(Suit(s), rank + 2)] = owned + mine
    search.settle(*search.sizes())
    return _solution(deal, seat, values, "tens" if search.tens else "tricks", owned,
                     search.nodes, table_peak=search.peak)


def _solve_tricks(deal, search, hands, trick, trump, seat, team) -> Solution:
    """:func:`solve` for Court Piece with its trump known (see :mod:`.trick_solver`);
    ``search`` gives the root's moves and the limits."""
    tricks = TrickSearch(trump, search.budget, search.cap, search.watch)
    number = len(deal._tricks)
    leader = deal._leader
    owned = deal._won[team]
    total = 13 - number
    values = {}
    guess = None
    # the tables grow to millions of small tuples and the search makes no reference
    # cycles: the cyclic garbage collector would only walk them again and again
    collecting = gc.isenabled()
    gc.disable()
    # suit -> (the lowest rank of it that mattered after a card of it, that card's value):
    # a lower card of the suit has the same value (see TrickSearch.play)
    floor = {}
    try:
        for s, r, run in search.moves(hands, seat, trick, trump):
            if s in floor and r < floor[s][0]:
                lo = floor[s][1]
            else:
                mattered = [0]          # the ranks every test's result relied on

                def probe(alpha, beta):
                    v, rel = tricks.after(hands, leader, number, trick, seat, s, r, alpha, beta)
                    mattered[0] |= rel
                    return v

                lo = guess = _mtdf(probe, total, guess)
                low = lowest_mattered(mattered[0], s)
                if r < low:
                    floor.setdefault(s, (low, lo))
            mine = lo if team == 0 else total - lo
            for rank in run:
                values[Card(Suit(s), rank + 2)] = owned + mine
    finally:
        if collecting:
            gc.enable()
    tricks.settle(*tricks.sizes())
    return _solution(deal, seat, values, "tricks", owned, tricks.nodes,
                     table_peak=tricks.peak)


def _mtdf(probe, total: int, guess) -> int:
    """The exact value (0..``total``) of one root move by null-window tests (MTD(f)), the
    first at ``guess`` (the last move's value): far more cut-offs than one search with the
    whole window, and the transposition table carries what each test learns.
    ``probe(alpha, beta)`` searches the move in that window and returns a bound.

    >>> _mtdf(lambda alpha, beta: 4, 7, None)      # a move worth 4 of 7
    4
    """
    lo, hi = 0, total
    g = guess if guess is not None else (total + 1) // 2
    while lo < hi:
        beta = max(g, lo + 1)
        v = probe(beta - 1, beta)
        if v < beta:
            hi = v
        else:
            lo = v
        g = v
    return lo


def _solution(deal, seat, values, measure, owned, nodes, solver="python",
              table_peak=0) -> Solution:
    # only the cards the mover may play now: the searches (and DDS) know following suit,
    # not the one rule of the moment that narrows it further (after asking for a hidden
    # trump, the asker must play a trump if they hold one)
    legal = set(deal.legal_cards())
    values = {c: v for c, v in values.items() if c in legal}
    values = dict(sorted(values.items(), key=lambda kv: (-kv[1], kv[0].si, -kv[0].rank)))
    top = max(values.values())
    best = [c for c, v in values.items() if v == top]
    text = _sentence(deal, seat, values, best, measure, owned)
    return Solution(seat=seat, values=values, measure=measure, best=best, text=text,
                    team=team_of(seat), owned=owned, nodes=nodes, solver=solver,
                    table_peak=table_peak)


def _after(search, hands, leader, number, st, trump, pending, trick, seat, s, r, alpha, beta):
    """Team 0's future units after ``seat`` plays (s, r), searched in (alpha, beta)."""
    k = seat * 4 + s
    hands[k] ^= 1 << r
    if trump is None and search.first_void and trick and s != trick[0][1]:
        trump, st = s, st[:5] + (number,)
    trick.append((seat, s, r))
    try:
        if len(trick) == 4:
            return search.finish(hands, number, st, trump, st[5], pending, trick, alpha, beta)
        return search.play(hands, leader, number, st, trump, pending, trick, alpha, beta)
    finally:
        trick.pop()
        hands[k] ^= 1 << r


def _future_total(search, hands, st, pending, number, trick):
    """All the units still to be won from now (both teams together)."""
    if not search.tens:
        if not search.pile:
            return 13 - number
        return 13 - number + st[0]
    n = st[1]
    for m in hands:
        n += m >> _TEN & 1
    for _, _, r in trick:
        n += r == _TEN
    if pending is not None:
        for m in pending:
            n += m >> _TEN & 1
    return n


def _sentence(deal, seat, values, best, measure, owned):
    rules = deal.rules
    shown = [str(c) for c in best[:3]]
    names = or_words(shown)
    if len(best) > 3:
        names = tr("{cards} (or any of {n} more as good)", cards=names, n=len(best) - 3)
    top = values[best[0]]
    team = rules.team_name(team_of(seat))
    if measure == "tens":
        text = trn("Play {cards}: with best play {side} end the deal with {n} ten.",
                   "Play {cards}: with best play {side} end the deal with {n} tens.", top,
                   cards=names, side=team)
    else:
        text = trn("Play {cards}: with best play {side} end the deal with {n} trick.",
                   "Play {cards}: with best play {side} end the deal with {n} tricks.", top,
                   cards=names, side=team)
    worse = [(c, v) for c, v in values.items() if v < top]
    if worse:
        c, v = max(worse, key=lambda cv: cv[1])
        lost = top - v
        other = rules.team_name(1 - team_of(seat))
        if measure == "tens":
            more = tr("{card} lets {side} take one more ten.", card=c, side=other) if lost == 1 \
                else tr("{card} lets {side} take {n} more tens.", card=c, side=other, n=lost)
        else:
            more = tr("{card} lets {side} take one more trick.", card=c, side=other) \
                if lost == 1 else tr("{card} lets {side} take {n} more tricks.", card=c,
                                     side=other, n=lost)
        text += " " + more
    return text
