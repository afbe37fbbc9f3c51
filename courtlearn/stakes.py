"""What a card is worth where it counts: the deal won or lost, a court, a goon court, a
bavney, a kot (issue 30: best play is judged by what scores).

:func:`courtlearn.solve` counts tricks (tens in Dehla Pakad) with best play from every
seat. Most of the time a trick more or less changes nothing that is scored: a side with
eight tricks wins the deal as surely as with nine. :func:`stakes` turns each card's
count into the deal's result with best play, a :class:`Stake`, and stakes are compared
by what the scorer writes down: the courts each side scores (a bavney 52, a Double Sir
goon court ``goon_courts``), then who wins the deal.

- Double Sir: seven or more tricks win the deal, all thirteen are a court (a goon court
  for the dealer's side): both follow from the count.
- Dehla Pakad: the tens (two or three for the side that did not deal, three for the
  dealers, four a kot). With ``tens_tie="tricks"`` a 2–2 split goes to the side with more
  tricks, which the count of tens does not say: such a card's stake is a tie
  (``winner`` None), between a win and a loss.
- Court Piece: seven tricks win the deal, all thirteen are a bavney; but a court is the
  *first seven* tricks, which no total says. While one side has won every trick so far
  and fewer than seven are played, :func:`forces_court` searches whether that side can
  win each trick up to the seventh whatever the others do (an exact search of its own,
  quick because the first trick the side loses ends a line).

>>> import courtlearn as cl
>>> deal = cl.Deal(cl.Rules.double_sir(stop_when_decided=False), dealer=3, seed=5)
>>> _ = deal.call_trump("S")
>>> while len(deal.tricks) < 9:
...     _ = deal.play(deal.legal_cards()[0])
>>> values = cl.solve(deal).values
>>> got = stakes(deal, values)
>>> sorted(got) == sorted(values)
True
>>> all(isinstance(s, Stake) for s in got.values())
True
"""
from __future__ import annotations

from dataclasses import dataclass

from .language import tr
from .rules import team_of

__all__ = ["Stake", "stake_of", "stakes", "forces_court", "COURT_BUDGET"]

#: the most cards :func:`stakes` (each side's court search of it) tries before it gives up
#: on the court (then a card's stake is "unknown"): about a quarter of a second
COURT_BUDGET = 20_000


@dataclass(frozen=True)
class Stake:
    """The deal's result with best play, seen from ``team``'s side: ``winner`` (a team;
    None for a 2–2 split of the tens that the tricks decide), ``courts`` the winner
    scores in the deal (0: a plain win; a bavney 52) and ``kind`` (the engine's result
    kinds: "tricks", "tens", "court", "goon", "bavney", "kot"; "tie" for the split;
    "unknown" when the court search gave up: see ``known``).

    ``key`` orders stakes for ``team``: the courts it scores minus those it concedes,
    then the deal won (1), a tie (0) or lost (-1). Two cards with the same key score the
    same: the difference between them (a trick, a ten) changes nothing."""

    team: int
    winner: int | None
    courts: int
    kind: str

    @property
    def key(self) -> tuple:
        if self.winner is None:
            return (0, 0)
        net = self.courts if self.winner == self.team else -self.courts
        return (net, 1 if self.winner == self.team else -1)

    @property
    def known(self) -> bool:
        """False when the search for a Court Piece court gave up on this card."""
        return self.kind != "unknown"

    @property
    def won(self) -> bool | None:
        """Whether ``team`` wins the deal (None: a tie the tricks decide)."""
        return None if self.winner is None else self.winner == self.team

    def words(self, rules) -> str:
        """"North–South win the deal", "East–West win the deal with a goon court (3
        courts)", "a 2–2 split of the tens, which the tricks decide"."""
        if self.kind == "unknown":
            return tr("whether a court is at stake is not known")
        if self.winner is None:
            return tr("the tens split 2–2 and the tricks decide")
        side = rules.team_name(self.winner)
        if self.kind == "court":
            return tr("{side} win the deal with a court", side=side)
        if self.kind == "goon":
            if self.courts > 1:
                return tr("{side} win the deal with a goon court ({n} courts)", side=side,
                          n=self.courts)
            return tr("{side} win the deal with a goon court", side=side)
        if self.kind == "bavney":
            return tr("{side} win the deal with a bavney (52 courts)", side=side)
        if self.kind == "kot":
            return tr("{side} win the deal with a kot", side=side)
        return tr("{side} win the deal", side=side)

    def __repr__(self) -> str:
        who = "tie" if self.winner is None else f"team {self.winner}"
        return f"Stake({who}, {self.kind}, courts={self.courts}, for team {self.team})"


def stake_of(deal, team: int, total: int, seven: int | None = None) -> Stake:
    """The stake of ``team`` ending ``deal`` (any moment of it) with ``total`` tricks, or
    tens in Dehla Pakad, in its own pile after the 13th trick. Court Piece: ``seven`` is the
    side that won (or will surely win) the first seven tricks, if any."""
    from .scoring import court_piece_result, final_result
    rules = deal.rules
    mine = [0, 0]
    if rules.game == "dehla_pakad":
        mine[team], mine[1 - team] = total, 4 - total
        if rules.tens_tie == "tricks" and total == 2:
            return Stake(team, None, 0, "tie")
        winner, courts, kind = final_result(rules, deal.dealer, (0, 0), tuple(mine))
        return Stake(team, winner, courts, kind)
    mine[team], mine[1 - team] = total, 13 - total
    if rules.game == "double_sir":
        winner, courts, kind = final_result(rules, deal.dealer, tuple(mine), (0, 0))
        return Stake(team, winner, courts, kind)
    winner, courts, kind = court_piece_result(deal.dealer, tuple(mine), seven, 13,
                                              stop_when_decided=False)
    return Stake(team, winner, courts, kind)


def _seven_so_far(deal):
    """Court Piece: (the side that won the first seven tricks or None, whether it is
    still open): open when one side (or nobody yet) has won every trick so far and fewer
    than seven are complete."""
    winners = [team_of(t.winner) for t in deal.tricks]
    if len(winners) >= 7:
        first = set(winners[:7])
        return (first.pop() if len(first) == 1 else None), False
    if len(set(winners)) > 1:
        return None, False
    return None, True


def stakes(deal, values: dict | None = None, budget: int = COURT_BUDGET) -> dict:
    """{card: :class:`Stake`} for each lawful card of the player to move in ``deal``,
    from the mover's team's side: ``values`` are :func:`courtlearn.solve`'s (worked out
    here when not given)."""
    if values is None:
        from .coach import fast_solve
        values = fast_solve(deal).values
    team = team_of(deal.to_play)
    if deal.rules.game != "court_piece":
        return {c: stake_of(deal, team, v) for c, v in values.items()}
    seven, still_open = _seven_so_far(deal)
    out = {}
    searches: dict = {}
    for card, v in values.items():
        side = seven
        if still_open:
            # only a side that ends with seven tricks or more can have won the first seven
            # (``v`` is what the mover's side ends with when both sides play their best)
            candidate = team if v >= 7 else 1 - team
            after = deal.copy()
            after.play(card)
            search = searches.setdefault(candidate, _Court(candidate, budget))
            forced = forces_court(after, candidate, search=search)
            if forced is None:              # past the budget: the court is not known
                out[card] = Stake(team, None, 0, "unknown")
                continue
            side = candidate if forced else None
        out[card] = stake_of(deal, team, v, side)
    return out


class _OutOfBudget(Exception):
    pass


def forces_court(deal, side: int, budget: int = COURT_BUDGET, search=None) -> bool | None:
    """Whether ``side`` can win every trick up to the seventh from this Court Piece
    position whatever the other side plays, all hands known (False when a trick before
    the seventh has gone elsewhere; None past ``budget`` cards tried). ``search``: a
    search of this side's to go on with (what it learned of other positions is kept, and
    the cards it tried count against its budget).

    >>> import courtlearn as cl
    >>> deal = cl.Deal.prearranged(cl.Rules.court_piece(), dealer=3, hands=[
    ...     "AS KS QS AH KH  JS 10S 9S 8S 7S QH JH 10H",
    ...     "3S 2S 6H 5H 4H  KC JC 9C 7C KD JD 9D 7D",
    ...     "3H 2H 6C 5C 4C  3C 2C 8D 6D 5D 4D 3D 2D",
    ...     "6S 5S 4S 9H 8H  7H AC QC 10C 8C AD QD 10D"])
    >>> _ = deal.call_trump("S")
    >>> forces_court(deal, 0), forces_court(deal, 1)
    (True, False)
    """
    from .solver import _position
    tricks = deal.tricks
    if len(tricks) >= 7:
        return all(team_of(t.winner) == side for t in tricks[:7])
    if any(team_of(t.winner) != side for t in tricks):
        return False
    if deal.phase != "play":
        return False
    hands, trick, trump, _, _ = _position(deal)
    if search is None:
        search = _Court(side, budget)
    search.first_void = deal.rules.trump_method == "first_void"
    try:
        return search.play(list(hands), deal._leader, trick, 7 - len(tricks), trump)
    except _OutOfBudget:
        return None


class _Court:
    """The search of :func:`forces_court` over the solver's bitmask hands (``hands[seat *
    4 + suit]``, bit r for rank r + 2)."""

    def __init__(self, side, budget):
        self.side = side
        self.first_void = False
        self.budget = budget
        self.nodes = 0
        self.memo: dict = {}

    def moves(self, hands, seat, trick, trump):
        """The lawful cards of ``seat`` as (suit, rank), one of each run of cards no other
        live card separates."""
        base = seat * 4
        suits = (0, 1, 2, 3)
        if trick and hands[base + trick[0][1]]:
            suits = (trick[0][1],)
        out = []
        for s in suits:
            mine = hands[base + s]
            if not mine:
                continue
            others = (hands[s] | hands[s + 4] | hands[s + 8] | hands[s + 12]) & ~mine
            for _, cs, cr in trick:
                if cs == s:
                    others |= 1 << cr
            r = mine.bit_length() - 1
            prev = None
            while r >= 0:
                if mine >> r & 1:
                    if prev is None or others >> (r + 1) & ((1 << (prev - r - 1)) - 1):
                        out.append((s, r))
                    prev = r
                r -= 1
        if trick:
            # the cards that would win the trick now first: the likeliest to work for the
            # side, and to refute it for the others
            best = trick[0]
            for c in trick[1:]:
                if (c[1] == best[1] and c[2] > best[2]) or (c[1] == trump and best[1] != trump):
                    best = c
            out.sort(key=lambda m: not ((m[0] == best[1] and m[1] > best[2])
                                        or (m[0] == trump and best[1] != trump)))
        return out

    def sure(self, hands, leader, trump) -> int:
        """Tricks the side's ``leader`` wins in a row by leading cards no other hand can
        beat: the trumps above every other trump, then (once the opponents have no trump
        left, drawn by those) each suit's cards above every other card of it."""
        if trump is None:
            if self.first_void:
                return 0
            opp_trumps = 0
        else:
            opp_trumps = max(_count(hands[((leader + 1) & 3) * 4 + trump]),
                             _count(hands[((leader + 3) & 3) * 4 + trump]))
        total = 0
        for s in range(4):
            mine = hands[leader * 4 + s]
            others = 0
            for seat in range(4):
                if seat != leader:
                    others |= hands[seat * 4 + s]
            top = _top_run(mine, others)
            if s == trump:
                if top < opp_trumps:
                    return top
                total += top
            else:
                total += top
        return total

    def play(self, hands, leader, trick, need, trump) -> bool:
        """Whether ``side`` wins this trick and the ``need - 1`` after it."""
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget
        if not trick:
            if (leader & 1) == self.side and self.sure(hands, leader, trump) >= need:
                return True
            key = (tuple(hands), leader, need, trump)
            hit = self.memo.get(key)
            if hit is not None:
                return hit
        seat = (leader + len(trick)) & 3
        ours = (seat & 1) == self.side
        result = not ours
        for s, r in self.moves(hands, seat, trick, trump):
            k = seat * 4 + s
            hands[k] ^= 1 << r
            t2 = trump
            if trump is None and self.first_void and trick and s != trick[0][1]:
                t2 = s
            trick.append((seat, s, r))
            try:
                if len(trick) == 4:
                    win = _winner(trick, t2)
                    if (win & 1) != self.side:
                        ok = False
                    elif need == 1:
                        ok = True
                    else:
                        ok = self.play(hands, win, [], need - 1, t2)
                else:
                    ok = self.play(hands, leader, trick, need, t2)
            finally:
                trick.pop()
                hands[k] ^= 1 << r
            if ok == ours:
                result = ours
                break
        if not trick:
            self.memo[(tuple(hands), leader, need, trump)] = result
        return result


def _count(mask: int) -> int:
    return bin(mask).count("1")


def _top_run(mine: int, others: int) -> int:
    """How many of ``mine`` (one suit's bits) lie above every bit of ``others``."""
    n = 0
    r = max(mine.bit_length(), others.bit_length()) - 1
    while r >= 0:
        if others >> r & 1:
            break
        if mine >> r & 1:
            n += 1
        r -= 1
    return n


def _winner(trick, trump) -> int:
    best = trick[0]
    for c in trick[1:]:
        if c[1] == best[1]:
            if c[2] > best[2]:
                best = c
        elif c[1] == trump:
            best = c
    return best[0]
