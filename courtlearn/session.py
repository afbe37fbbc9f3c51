"""A session: deal after deal, courts, streaks and who deals next (RULES.md 7, 8, 9).

>>> import courtlearn as cl
>>> s = cl.Session(cl.Rules.court_piece(), seed=1, dealer=3, deals=2)
>>> s.deal.dealer, s.courts, s.streak
(3, (0, 0), (None, 0))

The session's scores are worked out from the results of its deals: the
current one counts once it is over, so undoing a card in the finished current
deal also takes back what the session had counted for it. ``next_deal()``
scores a deal for good: it keeps that deal's dealer and result, so nothing
done later to the old Deal object changes the session.
"""
from __future__ import annotations

import hashlib
import random

from .deal import Deal, DealResult, Phase, check_seed
from .cards import _whole, quoted
from .explain import Event
from .language import tr
from .rules import TEAM_NAMES, Rules, team_of

__all__ = ["Session", "next_dealer"]


def next_dealer(dealer: int, winner: int, court: bool) -> tuple[int, str]:
    """Who deals next (RULES.md section 8), and why ("dealers_won", "same" or "partner").

    The dealer always comes from the losing side, so the winners call trumps.

    >>> next_dealer(3, winner=1, court=False)   # dealer's side won: the deal passes on
    (0, 'dealers_won')
    >>> next_dealer(3, winner=0, court=False)   # trump caller's side won, no court
    (3, 'same')
    >>> next_dealer(3, winner=0, court=True)    # trump caller's side won a court
    (1, 'partner')
    """
    if winner == team_of(dealer):
        return (dealer + 1) & 3, "dealers_won"
    if not court:
        return dealer, "same"
    return (dealer + 2) & 3, "partner"


class Session:
    """Deals played one after another, with courts, the seven-deal streak and the
    dealer rules.

    ``dealer=None`` draws the first dealer from ``seed``; ``deals`` or
    ``target_courts`` say when the session ends (``stop()`` ends it at once).
    """

    def __init__(self, rules: Rules | str | None = None, seed: int | str | None = None,
                 dealer: int | None = None, deals: int | None = None,
                 target_courts: int | None = None):
        if rules is None:
            rules = Rules.court_piece()
        if isinstance(rules, str):
            rules = Rules.of(rules)
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a Rules (e.g. cl.Rules.court_piece()), got "
                             f"{quoted(rules)!r}.")
        counts = []
        for name, value in (("deals", deals), ("target_courts", target_courts)):
            number = None if value is None else _whole(value)
            if value is not None and (number is None or number < 1):
                raise ValueError(f"{name} must be a whole number of at least 1 (or None), "
                                 f"got {quoted(value)!r}.")
            counts.append(number)
        deals, target_courts = counts
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 32)
        else:
            seed = check_seed(seed)     # the seeds a Deal takes
        if dealer is None:
            dealer = random.Random(f"{seed}/first-dealer").randrange(4)
        elif _whole(dealer) is None or not 0 <= _whole(dealer) <= 3:
            raise ValueError(f"dealer must be a seat 0..3 (or None for a random one), got "
                             f"{quoted(dealer)!r}.")
        else:
            dealer = _whole(dealer)
        self.rules = rules
        self.seed = seed
        self.first_dealer = dealer
        self.deals = deals
        self.target_courts = target_courts
        self._past: list[tuple[int, DealResult]] = []   # (dealer, result) of each scored deal
        self._stopped = False
        self._closed = False
        self.deal = Deal(rules, dealer=dealer, seed=self._deal_seed(0))

    def _deal_seed(self, n: int) -> int:
        digest = hashlib.sha256(f"{self.seed!r}/deal/{n}".encode()).digest()
        return int.from_bytes(digest[:6], "big")

    # -- the score, worked out from the deals ------------------------------
    def _finished(self) -> list[tuple[int, DealResult]]:
        """(dealer, result) of every finished deal: the scored ones, then the current one if over."""
        done = list(self._past)
        if self.deal.phase is Phase.OVER and not self._closed:
            done.append((self.deal.dealer, self.deal.result))
        return done

    def _tally(self):
        """Courts, streak and session events from the finished deals."""
        courts = [0, 0]
        streak_team, streak = None, 0
        events: list[tuple] = []
        dealer_next = None
        for dealer, res in self._finished():
            w = res.winner
            court = res.courts > 0
            events.append(("deal_won", (w, res.courts, res.kind)))
            if court:
                courts[w] += res.courts
                if streak:
                    events.append(("streak_reset", ()))
                streak_team, streak = None, 0
            else:
                if streak_team == w:
                    streak += 1
                else:
                    streak_team, streak = w, 1
                events.append(("streak", (w, streak)))
                if streak == 7:
                    courts[w] += 1
                    court = True
                    events.append(("streak_court", (w,)))
                    streak_team, streak = None, 0
            dealer_next = next_dealer(dealer, w, court)
            events.append(("next_dealer", dealer_next))
        return courts, (streak_team, streak), events, dealer_next

    @property
    def courts(self) -> tuple:
        """(team0, team1): courts scored so far (a bavney counts 52)."""
        return tuple(self._tally()[0])

    @property
    def streak(self) -> tuple:
        """(team or None, count): deals won in a row since the last court."""
        return self._tally()[1]

    @property
    def results(self) -> list[DealResult]:
        """The results of the finished deals, in order."""
        return [res for _, res in self._finished()]

    @property
    def deals_played(self) -> int:
        return len(self._finished())

    @property
    def events(self) -> list[Event]:
        """Session sentences: deals won, courts, streaks, the next dealer, the end."""
        _, _, evs, _ = self._tally()
        out = [Event(k, None, None, d, None, self.rules) for k, d in evs]
        if self.over:
            out.append(Event("over", None, None, (self.winner, self.courts), None, self.rules))
        return out

    @property
    def over(self) -> bool:
        if self._stopped:
            return True
        n = len(self._finished())
        if self.deals is not None and n >= self.deals:
            return True
        if self.target_courts is not None and max(self._tally()[0]) >= self.target_courts:
            return True
        return False

    @property
    def winner(self) -> int | None:
        """The team with more courts (None for a draw, none scored included)."""
        c = self.courts
        if c[0] == c[1]:
            return None
        return 0 if c[0] > c[1] else 1

    def stop(self) -> None:
        """The teacher ends the session now (a deal in progress is not counted)."""
        self._stopped = True

    def next_deal(self) -> Deal | None:
        """Score the finished deal, pick the next dealer (RULES.md 8) and start the next deal.

        Raises ValueError while the current deal is unfinished. Once the session is
        over (its deals played, its courts reached, or stopped) no deal follows: the
        first such call closes the session and returns None (``s.deal`` stays the last
        deal); any later call raises ValueError.
        """
        if self.deal.phase is not Phase.OVER:
            raise ValueError(tr("The current deal is not finished yet: play it to the end (or "
                                "claim a revoke) before starting the next deal."))
        if self.over:
            if self._closed:
                raise ValueError(tr("The session is over: no deal follows. Start a new Session "
                                    "to play on."))
            self._past.append((self.deal.dealer, self.deal.result))   # scored for good
            self._closed = True
            return None
        _, _, _, (dealer, _) = self._tally()
        self._past.append((self.deal.dealer, self.deal.result))
        self.deal = Deal(self.rules, dealer=dealer, seed=self._deal_seed(len(self._past)))
        return self.deal

    def __repr__(self) -> str:
        c = self.courts
        team, n = self.streak
        streak = f", streak {TEAM_NAMES[team]} {n}" if team is not None else ""   # English
        number = len(self._past) + (0 if self._closed else 1)
        return (f"<Session {self.rules.game} deal {number}, courts {c[0]}-{c[1]}"
                f"{streak}{', over' if self.over else ''}>")

