"""The search behind :func:`courtlearn.solve` for a game that counts tricks (Court Piece).

Alpha-beta search over the engine's per-suit bitmasks, as :mod:`courtlearn.solver`
does for every game, with three things that only hold when each trick is simply
one trick for the side that wins it (and so make whole deals solvable in pure
Python):

- **Sure tricks** at every trick start: the top trumps can never lose, and the
  leader (or his partner, reached by a small card to his winner) can cash his top
  cards one after another, freely once top trumps have drawn the other side's
  (see :meth:`TrickSearch.sure`). They bound the result from both sides before any
  card is tried.
- **Partition search** (M. Ginsberg's, as Bo Haglund's DDS does it): a search
  records which cards' ranks decided it: a card that won a trick by being higher
  than another card of its suit, and the top cards the sure tricks looked at.
  Below those, which small card a hand holds cannot change the result, only how
  many cards of each suit each hand holds. The transposition table keeps each
  result for that whole class of positions: the holders of the top cards of each
  suit down to the lowest card that mattered, and the suit lengths.
- **Small cards skipped** (as DDS does): once a card has been searched, the seat's
  lower cards of its suit, below the lowest rank that mattered, give the same result
  and are not tried.
- The last trick is counted without searching it.

A move that stands for a run of equivalent cards is always played as the run's
lowest card, so that a rank it wins by is recorded as mattering with every card
above it: the class then only holds positions where the run is a run too.

Values are team 0's (North–South's) tricks still to win; a relevance mask has the
ranks of suit ``s`` at bits ``16*s + rank - 2``.

Both searches (this one and :mod:`courtlearn.solver`'s) are :class:`Bounded`: they
count the cards they try against a budget and stop with :class:`OutOfBudget` past it,
and no table of theirs grows past ``cap`` entries (a full table keeps the entries of
the positions with the most tricks left and forgets the others: it is a cache, so
results stay the same, only slower).
"""
from __future__ import annotations

import math
from collections import Counter

__all__ = ["TrickSearch", "lowest_mattered", "Bounded", "OutOfBudget", "TABLE_CAP"]

# the most entries any one table of a search holds (a few hundred bytes each)
TABLE_CAP = 200_000
# nodes between two looks at the budget, the tables' sizes and the progress report
CHECK_EVERY = 4096
# a trick start comes at most this many nodes after the last one
_TRICK = 8


class OutOfBudget(Exception):
    """A search tried more cards than its budget allows (``nodes``: how many;
    ``peak``: the most entries a table of it held)."""

    def __init__(self, nodes: int, peak: int = 0):
        super().__init__(nodes)
        self.nodes = nodes
        self.peak = peak


class Bounded:
    """A search's limits: ``budget`` (the most nodes, i.e. cards tried; ``math.inf``: no
    limit), ``cap`` (the most entries of each table) and ``watch`` (called now and then
    with the nodes so far, for a progress bar). ``peak`` is the most entries a table of
    the search has held.

    The search counts ``self.nodes`` and calls :meth:`checkpoint` at a trick start once
    ``self.nodes`` reaches ``self.next_check``: at most ``every`` nodes apart, and the
    budget's last node. Its big tables (:meth:`tables`) grow by at most one entry per
    node, so they are looked at there too, not at each entry (that would cost a few per
    cent): one with less room than the next checkpoint's worth is trimmed to half the
    cap (:meth:`trim`). Small memos check at each new entry (:meth:`empty` before
    adding to a full one).

    >>> b = Bounded(budget=10)
    >>> b.nodes = 11
    >>> b.checkpoint()
    Traceback (most recent call last):
    ...
    courtlearn.trick_solver.OutOfBudget: 11
    """

    def __init__(self, budget=math.inf, cap: int = TABLE_CAP, watch=None):
        self.budget = budget
        self.cap = cap
        self.watch = watch
        self.nodes = 0
        self.peak = 0
        self.every = max(1, min(CHECK_EVERY, (cap - _TRICK) // 2))
        self.keep = cap // 2            # the entries a trimmed table keeps at most
        self.next_check = min(self.every, budget + 1)

    def checkpoint(self) -> None:
        """Stop past the budget (:class:`OutOfBudget`), else empty a big table too full
        to take the next ``every`` nodes' entries, and report progress."""
        if self.nodes > self.budget:
            self.settle(*self.sizes())
            raise OutOfBudget(self.nodes, self.peak)
        self.make_room(self.cap - self.every - _TRICK)
        if self.watch is not None:
            self.watch(self.nodes)
        self.next_check = min(self.nodes + self.every, self.budget + 1)

    def make_room(self, room: int) -> None:
        """Trim each big table that holds more than ``room`` entries."""
        for table, left in self.tables():
            if len(table) > room:
                self.trim(table, left)

    def tables(self) -> tuple:
        """The big tables (dicts that gain at most an entry per node), for
        :meth:`checkpoint`: (table, a function giving a key's tricks left) pairs."""
        return ()

    def trim(self, table: dict, left) -> None:
        """Keep the entries of the positions with the most tricks left (``left(key)``),
        the costliest to search again, at most half the cap of them; forget the others.

        >>> b = Bounded(cap=4)
        >>> table = {("a", 3): 0, ("b", 3): 0, ("c", 1): 0, ("d", 2): 0}
        >>> b.trim(table, lambda key: key[1])
        >>> sorted(table), b.peak
        ([('a', 3), ('b', 3)], 4)
        """
        self.peak = max(self.peak, len(table))
        floor = _keep_from(Counter(left(key) for key in table), self.keep)
        for key in [key for key in table if left(key) < floor]:
            del table[key]

    def empty(self, table: dict) -> None:
        """Empty a table (before it would pass the cap). Tables only grow between two
        emptyings, so ``peak`` counts exactly with :meth:`settle` at the end."""
        self.peak = max(self.peak, len(table))
        table.clear()

    def settle(self, *sizes: int) -> None:
        """Count the tables' sizes at the end of the search for ``peak``."""
        self.peak = max(self.peak, *sizes)

    def sizes(self) -> tuple:
        """The entries in each table of the search now."""
        return (0,)


class _Suit:
    """One suit's cards in the four hands, as the search's tables need it."""

    __slots__ = ("holders", "lengths", "tops", "live")

    def __init__(self, masks):
        live = masks[0] | masks[1] | masks[2] | masks[3]
        self.live = live
        holders = []
        tops = [0]
        top = 0
        r = live.bit_length() - 1
        while r >= 0:
            bit = 1 << r
            if live & bit:
                holders.append("0" if masks[0] & bit else "1" if masks[1] & bit
                               else "2" if masks[2] & bit else "3")
                top |= bit
                tops.append(top)
            r -= 1
        # holders of the live cards from the highest down: the suit as far as ranks go
        self.holders = "".join(holders)
        self.lengths = tuple(bin(m).count("1") for m in masks)
        # tops[k]: the bitmask of the k highest live cards
        self.tops = tops

    def depth(self, relevant: int) -> int:
        """How many of the top live cards a relevance mask of this suit fixes: every
        card from the highest down to the lowest one that mattered."""
        if not relevant:
            return 0
        low = (relevant & -relevant).bit_length() - 1
        return bin(self.live >> low).count("1")


class TrickSearch(Bounded):
    """One search tree of a trick-counting deal with a known trump, and its tables
    (``budget``, ``cap``, ``watch``: see :class:`Bounded`)."""

    def __init__(self, trump: int, budget=math.inf, cap: int = TABLE_CAP, watch=None):
        super().__init__(budget, cap, watch)
        self.trump = trump
        self.exact: dict = {}       # (leader, holders x4) -> (lo, hi, depths, best lead)
        # (leader, lengths x4) -> {depths: {the holders of the top cards that mattered,
        # as many of each suit as its depth: (lo, hi)}}
        self.classes: dict = {}
        self.stored = 0             # the entries in classes, all buckets together
        self.suits: dict = {}
        self.runs: dict = {}        # (a hand's cards of a suit, the others') -> _runs()

    def suit(self, masks) -> _Suit:
        got = self.suits.get(masks)
        if got is None:
            if len(self.suits) >= self.cap:
                self.empty(self.suits)
            got = self.suits[masks] = _Suit(masks)
        return got

    def sizes(self) -> tuple:
        """The entries in each table now."""
        return len(self.exact), self.stored, len(self.suits), len(self.runs)

    def tables(self) -> tuple:
        return ((self.exact, _exact_left),)

    def make_room(self, room: int) -> None:
        """:meth:`Bounded.make_room`, and the same for the classes, bucket by bucket."""
        super().make_room(room)
        if self.stored <= room:
            return
        self.peak = max(self.peak, self.stored)
        counts = Counter()
        for ckey, bucket in self.classes.items():
            counts[_class_left(ckey)] += sum(len(entries) for entries in bucket.values())
        floor = _keep_from(counts, self.keep)
        for ckey in [ckey for ckey in self.classes if _class_left(ckey) < floor]:
            del self.classes[ckey]
        self.stored = sum(n for left, n in counts.items() if left >= floor)

    # ------------------------------------------------------------ the search
    def trick_start(self, hands, leader, number, alpha, beta):
        """(team 0's tricks from the start of trick ``number`` (0-based) with best play,
        relevance mask), searched in the window (alpha, beta)."""
        if self.nodes >= self.next_check:
            self.checkpoint()
        if number >= 12:
            return self.last_trick(hands, leader) if number == 12 else (0, 0)
        info = [self.suit((hands[s], hands[s + 4], hands[s + 8], hands[s + 12]))
                for s in range(4)]
        lo, hi = 0, 13 - number
        used = (0, 0, 0, 0)                   # depths the bounds below rely on
        first = None
        ekey = (leader, info[0].holders, info[1].holders, info[2].holders, info[3].holders)
        hit = self.exact.get(ekey)
        if hit is not None:
            lo, hi, used, first = hit
            if lo >= beta or hi <= alpha or lo == hi:
                return (lo if lo >= beta or lo == hi else hi), _mask(info, used)
        ckey = (leader, info[0].lengths, info[1].lengths, info[2].lengths, info[3].lengths)
        bucket = self.classes.get(ckey)
        if bucket is not None:
            h0, h1, h2, h3 = ekey[1:]
            for depths, entries in bucket.items():
                got = entries.get((h0[:depths[0]], h1[:depths[1]], h2[:depths[2]],
                                   h3[:depths[3]]))
                if got is None:
                    continue
                l2, u2 = got
                if l2 <= lo and u2 >= hi:
                    continue
                if l2 >= beta:
                    return l2, _mask(info, depths)
                if u2 <= alpha:
                    return u2, _mask(info, depths)
                lo = max(lo, l2)
                hi = min(hi, u2)
                used = tuple(map(max, used, depths))
        # (an exact entry's bounds already hold the sure tricks' bounds)
        mine, theirs, depths = (0, 0, None) if hit else self.sure(hands, leader, info)
        if mine or theirs:
            if leader & 1:
                mine, theirs = theirs, mine
            if mine > lo or 13 - number - theirs < hi:
                if mine >= beta:
                    return mine, _mask(info, depths)
                if 13 - number - theirs <= alpha:
                    return 13 - number - theirs, _mask(info, depths)
                lo = max(lo, mine)
                hi = min(hi, 13 - number - theirs)
                used = tuple(map(max, used, depths))
        if lo >= beta or hi <= alpha or lo == hi:
            return (lo if lo >= beta or lo == hi else hi), _mask(info, used)
        a0, b0 = max(alpha, lo), min(beta, hi)
        if first is not None:
            # the lead that was best here last time (as the how-many-th live card of
            # its suit from the top): tried first again
            s, k = first
            first = (s, (info[s].tops[k + 1] ^ info[s].tops[k]).bit_length() - 1)
        v, rel = self.play(hands, leader, number, [], a0, b0, first)
        s, r = self.lead
        first = (s, bin(info[s].live >> (r + 1)).count("1"))
        if v <= a0:
            hi = min(hi, v)
        elif v >= b0:
            lo = max(lo, v)
        else:
            lo = hi = v
        rel |= _mask(info, used)
        depths = tuple(info[s].depth(rel >> (16 * s) & 0x1FFF) for s in range(4))
        self.exact[ekey] = (lo, hi, depths, first)
        prefixes = (info[0].holders[:depths[0]], info[1].holders[:depths[1]],
                    info[2].holders[:depths[2]], info[3].holders[:depths[3]])
        if bucket is None:
            bucket = self.classes[ckey] = {}
        entries = bucket.get(depths)
        if entries is None:
            entries = bucket[depths] = {}
        old = entries.get(prefixes)
        if old is not None:
            lo, hi = max(lo, old[0]), min(hi, old[1])
        else:
            self.stored += 1
        entries[prefixes] = (lo, hi)
        return v, rel

    def last_trick(self, hands, leader):
        """The last trick, one card in each hand: no choice is left."""
        cards = []
        for i in range(4):
            base = ((leader + i) & 3) * 4
            for s in range(4):
                if hands[base + s]:
                    cards.append(((leader + i) & 3, s, hands[base + s].bit_length() - 1))
                    break
        win_seat, ws, wr = _winner(cards, self.trump)
        rel = 0
        if sum(1 for c in cards if c[1] == ws) > 1:
            rel = 1 << (16 * ws + wr)
        return (1 if win_seat & 1 == 0 else 0), rel

    def sure(self, hands, leader, info):
        """(tricks the side on lead is sure of, tricks the other side is sure of, depths
        of the suits the count looked at) from this trick start.

        The top trump can never lose, nor the next ones below it in the same hand: the
        holder's side wins one trick for each. The side on lead also wins what the
        leader can cash (see :meth:`cash`), or what the partner can cash once the leader
        has led a small card to the partner's top card of a suit.
        """
        t = self.trump
        trumps = info[t].holders
        top_seat = -1
        run = 0
        if trumps:
            top_seat = int(trumps[0])
            while run < len(trumps) and trumps[run] == trumps[0]:
                run += 1
        partner = (leader + 2) & 3
        mine, depths, _ = self.cash(hands, leader, info)
        via, more, suits = self.cash(hands, partner, info)
        if top_seat == leader or top_seat == partner:
            lengths = info[t].lengths
            if top_seat == leader:
                mine += run
            else:
                via += run
            if run >= max(lengths[(leader + 1) & 3], lengths[(leader + 3) & 3]):
                # the top trumps draw every trump the other side has: no ruffs after that,
                # and the holder's lower trumps win too once his partner has none left
                drawn, deep, _ = self.cash(hands, top_seat, info, True)
                drawn += run
                if lengths[(top_seat + 2) & 3] <= run:
                    drawn += lengths[top_seat] - run
                if top_seat == leader and drawn > mine:
                    mine, depths = drawn, deep
                elif top_seat == partner and drawn > via:
                    via, more = drawn, deep
        if via > mine and any(suits >> s & 1 and hands[leader * 4 + s] for s in range(4)):
            # an entry: the leader leads small to the partner's top card of a suit the
            # partner can cash (one the other side must follow to), and the partner
            # cashes from there
            mine = via
            depths = [max(a, b) for a, b in zip(depths, more)]
        if trumps:
            depths[t] = run
        if top_seat >= 0 and top_seat & 1 == leader & 1:
            return max(mine, run), 0, depths
        return mine, run, depths

    def cash(self, hands, seat, info, drawn=False):
        """(the tricks ``seat`` can cash from the lead outside trumps, depths the count
        relies on, bitmask of the suits that give at least one of them).

        The count is a plan that needs only the seat's top cards it cashes and the suit
        lengths: in a position where the seat holds more top cards it still works, so
        each suit's depth is the number of cards cashed in it (and 0 for the others).

        In each suit, the seat's top cards, as many as an opponent holding a trump can
        follow to (after that he ruffs; ``drawn``: the opponents' trumps are gone by
        then), cashed one after another. The partner plays on
        them, discarding when void, so when he holds a trump he must have enough cards
        outside trumps (else he would have to ruff one and take the lead).
        """
        t = self.trump
        me = str(seat)
        o1 = (seat + 1) & 3
        o2 = (seat + 3) & 3
        partner = (seat + 2) & 3
        depths = [0, 0, 0, 0]
        side = 0
        suits = 0
        for s in range(4):
            if s == t or not hands[seat * 4 + s]:
                continue
            order = info[s].holders
            w = 0
            while w < len(order) and order[w] == me:
                w += 1
            if w and not drawn:
                if hands[o1 * 4 + t]:
                    w = min(w, info[s].lengths[o1])
                if hands[o2 * 4 + t]:
                    w = min(w, info[s].lengths[o2])
            if w:
                side += w
                suits |= 1 << s
                depths[s] = w
        if side and hands[partner * 4 + t]:
            plain = sum(info[s].lengths[partner] for s in range(4) if s != t)
            if side > plain:
                return 0, depths, 0
        return side, depths, suits

    def play(self, hands, leader, number, trick, alpha, beta, first=None):
        """(team 0's tricks from here, relevance) with ``trick`` the cards played so far;
        ``first``: a move to try before the others. On a lead, ``self.lead`` is left
        holding the best lead."""
        self.nodes += 1
        seat = (leader + len(trick)) & 3
        maximize = (seat & 1) == 0
        best = -1 if maximize else 99
        every = 0
        moves = self.moves(hands, seat, trick)
        if first is not None:
            moves.remove(first)
            moves.insert(0, first)
        top = moves[0]
        floor = [0, 0, 0, 0]
        for move in moves:
            s, r = move
            if r < floor[s]:
                continue
            v, rel = self.after(hands, leader, number, trick, seat, s, r, alpha, beta)
            every |= rel
            if maximize:
                if v > best:
                    best = v
                    top = move
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            every = rel
                            break
            elif v < best:
                best = v
                top = move
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        every = rel
                        break
            if not floor[s]:
                # no rank of this suit below the lowest one that mattered can change the
                # result: the seat's other cards below it would give the same (as DDS does)
                low = rel >> (16 * s) & 0x1FFF          # (lowest_mattered, inlined: a hot path)
                low = (low & -low).bit_length() - 1 if low else 13
                if r < low:
                    floor[s] = low
        if not trick:
            self.lead = top
        return best, every

    def after(self, hands, leader, number, trick, seat, s, r, alpha, beta):
        """(team 0's tricks, relevance) after ``seat`` plays (s, r) to ``trick``."""
        k = seat * 4 + s
        hands[k] ^= 1 << r
        trick.append((seat, s, r))
        try:
            if len(trick) < 4:
                return self.play(hands, leader, number, trick, alpha, beta)
            win_seat, ws, wr = _winner(trick, self.trump)
            gain = 1 if win_seat & 1 == 0 else 0
            v, rel = self.trick_start(hands, win_seat, number + 1, alpha - gain, beta - gain)
            if (trick[0][1] == ws) + (trick[1][1] == ws) + (trick[2][1] == ws) \
                    + (trick[3][1] == ws) > 1:
                rel |= 1 << (16 * ws + wr)      # it won by rank: its rank mattered
            return v + gain, rel
        finally:
            trick.pop()
            hands[k] ^= 1 << r

    def moves(self, hands, seat, trick):
        """The lawful moves of ``seat`` as (suit, rank), one per run of equivalent cards
        (its lowest card), likely best first."""
        base = seat * 4
        trump = self.trump
        suits = (0, 1, 2, 3)
        if trick:
            led = trick[0][1]
            if hands[base + led]:
                suits = (led,)
            win_seat, ws, wr = _winner(trick, trump)
            partner = ((seat + 2) & 3) == win_seat
        out = []
        runs = self.runs
        for s in suits:
            mine = hands[s + base]
            if not mine:
                continue
            live = hands[s] | hands[s + 4] | hands[s + 8] | hands[s + 12]
            others = live & ~mine
            if trick:
                for _, cs, cr in trick:
                    if cs == s:
                        others |= 1 << cr
            else:
                top = 1 << (live.bit_length() - 1)
                side = 0 if mine & top else 1 if hands[((seat + 2) & 3) * 4 + s] & top else 2
                # leading: cash a winner first, then low under the partner's winner, then
                # low in the other suits; trumps after the plain suits
                lead = side * 32 + (16 if s == trump else 0)
            got = runs.get((mine, others))
            if got is None:
                if len(runs) >= self.cap:
                    self.empty(runs)
                got = runs[(mine, others)] = _runs(mine, others)
            for high, low in got:
                if not trick:
                    key = lead + (12 - high if side == 0 else low)
                else:
                    beats = (s == ws and high > wr) or (s == trump and ws != trump)
                    # under a partner who wins: low first; else the cheapest winner
                    key = (16 if beats == partner else 0) + low
                out.append((key, s, low))
        out.sort()
        return [(s, r) for _, s, r in out]


def _keep_from(counts: Counter, keep: int) -> int:
    """The fewest tricks left an entry may have for at most ``keep`` entries to stay,
    given how many entries have each number of tricks left (above every entry's
    when even the entries with the most tricks left are too many: none stay).

    >>> _keep_from(Counter({3: 2, 2: 1, 1: 1}), 2), _keep_from(Counter({3: 5}), 2)
    (3, 4)
    """
    total = 0
    for left in range(13, -1, -1):
        total += counts.get(left, 0)
        if total > keep:
            return left + 1
    return 0


def _exact_left(key) -> int:
    """Tricks left in a key of ``TrickSearch.exact`` (leader, the holders of each suit)."""
    return (len(key[1]) + len(key[2]) + len(key[3]) + len(key[4])) // 4


def _class_left(key) -> int:
    """Tricks left in a key of ``TrickSearch.classes`` (leader, each suit's lengths)."""
    return (sum(key[1]) + sum(key[2]) + sum(key[3]) + sum(key[4])) // 4


def lowest_mattered(rel: int, s: int) -> int:
    """The lowest rank (bit index) of suit ``s`` in relevance mask ``rel``; 13 if none of
    the suit mattered (then no card of it can change the result).

    >>> lowest_mattered(0b1100 << 16, 1), lowest_mattered(0b1100 << 16, 0)
    (2, 13)
    """
    low = rel >> (16 * s) & 0x1FFF
    return (low & -low).bit_length() - 1 if low else 13


def _runs(mine: int, others: int) -> tuple:
    """The runs of equivalent cards in ``mine`` (no card of ``others`` between their
    cards), high to low, as (highest rank, lowest rank) bit indexes.

    >>> _runs(0b1101, 0b0010)          # ranks 0, 2 and 3; another hand holds rank 1
    ((3, 2), (0, 0))
    """
    out = []
    m = mine
    high = low = -1
    while m:
        b = m.bit_length() - 1
        if high >= 0 and not (others >> (b + 1)) & ((1 << (low - b - 1)) - 1):
            low = b
        else:
            if high >= 0:
                out.append((high, low))
            high = low = b
        m ^= 1 << b
    out.append((high, low))
    return tuple(out)


def _mask(info, depths) -> int:
    """The relevance mask of the top ``depths[s]`` live cards of each suit."""
    out = 0
    for s in range(4):
        if depths[s]:
            out |= info[s].tops[depths[s]] << (16 * s)
    return out


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
