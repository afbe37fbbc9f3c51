"""How a deal is won: pure functions of the counts (RULES.md sections 5 and 7).

The deal (:class:`courtlearn.Deal`), the fast play-outs of the bots
(:mod:`courtlearn.fastplay`) and the exercises all score through these, so there is
one reading of the rules. They take plain values (the rules, of which only ``game``,
``goon_courts`` and ``tens_tie`` are read; who dealt; the tricks
and tens in each side's own pile) and return ``(winner, courts, kind)``.

>>> from courtlearn.rules import Rules
>>> final_result(Rules.double_sir(), dealer=3, tricks=(13, 0), tens=(4, 0))
(0, 1, 'court')
>>> final_result(Rules.dehla_pakad(), dealer=3, tricks=(5, 8), tens=(2, 2))
(0, 0, 'tens')
>>> decided_result(Rules.dehla_pakad(), dealer=3, tricks=(3, 1), tens=(3, 0)) is None
True
>>> decided_result(Rules.double_sir(), dealer=3, tricks=(7, 2), tens=(0, 0))
(0, 0, 'tricks')
"""
from __future__ import annotations

from .rules import Rules

__all__ = ["final_result", "decided_result", "court_piece_result", "tens_in"]


def tens_in(cards) -> int:
    """How many tens are among ``cards``.

    >>> from courtlearn.cards import cards
    >>> tens_in(cards("10S 9S 10H 2C"))
    2
    """
    n = 0
    for c in cards:
        if c.rank == 10:
            n += 1
    return n


def final_result(rules: Rules, dealer: int, tricks: tuple, tens: tuple) -> tuple:
    """(winner, courts, kind) of a Double Sir or Dehla Pakad deal whose 13 tricks are all
    in the sides' own piles, with these counts (team 0, team 1)."""
    t0, t1 = tricks
    dealers = dealer & 1
    if rules.game == "double_sir":
        team = 0 if t0 >= 7 else 1
        if tricks[1 - team] == 0:
            if team == dealers:
                return (team, rules.goon_courts, "goon")
            return (team, 1, "court")
        return (team, 0, "tricks")
    if rules.game != "dehla_pakad":
        raise ValueError(f"final_result scores Double Sir and Dehla Pakad; for {rules.game} use "
                         f"court_piece_result.")
    a0, a1 = tens
    if a0 == 4 or a1 == 4:
        return (0 if a0 == 4 else 1, 1, "kot")
    non = 1 - dealers
    if tens[non] == 2:
        if rules.tens_tie == "tricks":
            return (0 if t0 > t1 else 1, 0, "tens")
        return (non, 0, "tens")
    return (non if tens[non] == 3 else dealers, 0, "tens")


def decided_result(rules: Rules, dealer: int, tricks: tuple, tens: tuple) -> tuple | None:
    """(winner, courts, kind) once a Double Sir or Dehla Pakad deal can no longer change
    (RULES.md section 7), from the tricks and tens already in the sides' own piles; None
    while the rest could still change it.

    Any trick not yet in a side's pile (the centre ones included) could still go to
    either side, and a ten not yet taken goes with at least one trick. With all 13 tricks
    owned this is :func:`final_result`.
    """
    t0, t1 = tricks
    a0, a1 = tens
    rest = 13 - t0 - t1
    if rest == 0:
        return final_result(rules, dealer, tricks, tens)
    if rules.game == "double_sir":
        # decided once a side has seven and the other has a trick (so no court)
        if (t0 >= 7 and t1) or (t1 >= 7 and t0):
            return (0 if t0 >= 7 else 1, 0, "tricks")
        return None
    tens_rest = 4 - a0 - a1
    seen = None
    for x in range(rest + 1):
        for y in range(tens_rest + 1):
            if (y and not x) or (tens_rest - y and rest == x):
                continue
            w, c, _ = final_result(rules, dealer, (t0 + x, t1 + rest - x), (a0 + y, a1 + tens_rest - y))
            if seen is None:
                seen = (w, c)
            elif seen != (w, c):
                return None
    if seen is None:
        return None
    w, c = seen
    return (w, c, "kot" if c else "tens")


def court_piece_result(dealer: int, tricks: tuple, seven: int | None, played: int,
                       stop_when_decided: bool = True) -> tuple | None:
    """(winner, courts, kind) of a Court Piece deal after ``played`` tricks, or None while
    it goes on (RULES.md section 5).

    ``seven``: the side that won the first seven tricks (a court, or a goon court when
    it is the dealer's side), or None. After a court the deal stops at once with
    ``stop_when_decided``; played on, it is a bavney (52 courts) if that side takes all
    thirteen, and stays a court as soon as the other side wins a trick.

    >>> court_piece_result(dealer=3, tricks=(7, 0), seven=0, played=7)
    (0, 1, 'court')
    >>> court_piece_result(dealer=3, tricks=(13, 0), seven=0, played=13)
    (0, 52, 'bavney')
    >>> court_piece_result(dealer=3, tricks=(7, 4), seven=None, played=11)
    (0, 0, 'tricks')
    """
    t0, t1 = tricks
    if seven is not None:
        court = (seven, 1, "goon" if seven == (dealer & 1) else "court")
        if played == 13 and tricks[seven] == 13:
            return (seven, 52, "bavney")
        if played == 7:
            return court if stop_when_decided else None
        if played == 13 or (tricks[1 - seven] > 0 and stop_when_decided):
            return court
        return None
    if played == 13 or (stop_when_decided and max(t0, t1) >= 7):
        # the first to seven: with 13 tricks, whoever has seven or more got there first
        return (0 if t0 >= 7 else 1, 0, "tricks")
    return None
