"""The coach's review of one seat's deal: :func:`review` (``cl.review``, issue 13).

Every decision the seat made (the trump call and each card) is weighed twice:

- ``chances``: for each option the seat had, the estimated chance that its side
  wins the deal, from what the seat could know at that moment only (its own cards,
  the cards played, the voids shown): the hint's play-outs (:func:`courtlearn.hint`),
  with the same seed for every decision. ``loss`` is the best chance minus the
  chosen one.
- ``exact``: with all four hands known, what each card gives with perfect play
  (:func:`courtlearn.solve`), where the solver answers quickly (the last six tricks,
  or every Court Piece position with a public trump when DDS is installed); else None.
  All-hands analysis tells what the seat could not see, so by default it is used only
  once the deal is over (``exact=True`` asks for it during the deal, as a table with
  every hand face up does).

A decision is a mistake when it gives away a tenth of the chance or more, or a trick
(a ten in Dehla Pakad) with best play.

>>> import courtlearn as cl
>>> deal = cl.Deal(cl.Rules.court_piece(stop_when_decided=False), dealer=3, seed=2)
>>> _ = deal.call_trump("S")
>>> while deal.phase == "play":
...     _ = deal.play(deal.legal_cards()[0])
>>> rv = review(deal, seat=0, samples=40, exact_from=3)
>>> [d.kind for d in rv.decisions][:3], len(rv.decisions)
(['trump', 'card', 'card'], 14)
>>> all(d.loss >= 0 for d in rv.decisions)
True
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from .cards import Card, Suit, _whole, quoted
from .language import list_words, suit_word, tr, trn
from .rules import team_of

__all__ = ["Decision", "Review", "review", "solves_quickly", "fast_solve"]

MISTAKE_CHANCE = 0.10       # a loss of a tenth of the chance or more is a mistake
EXACT_FROM = 6              # solve exactly with at most this many tricks left
MAX_SAMPLES = 10_000        # play-outs per decision: about 6 s each on a shared core


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat.

    ``trick`` (1-based; the trump call counts as trick 1), ``kind`` ("trump" or
    "card"), ``chosen`` and ``best`` (a Suit for a called trump, else a Card),
    ``chances`` {option: chance the side wins the deal}, ``loss`` (best chance minus
    the chosen one), ``exact`` ({card: the team's total with perfect play} or None),
    ``text`` (what happened and why), ``action`` (its index in ``deal.actions``:
    ``deal.replay(action)`` is the moment it was made).
    """

    trick: int
    kind: str
    chosen: object
    best: object
    chances: dict
    loss: float
    exact: dict | None
    text: str
    action: int
    led: bool = False
    measure: str = "tricks"

    @property
    def cost(self) -> int | None:
        """Tricks (or tens) the chosen card gave away with best play, or None."""
        if not self.exact or self.chosen not in self.exact:
            return None
        return max(self.exact.values()) - self.exact[self.chosen]

    @property
    def exact_best(self) -> list:
        """The cards keeping the most with best play ([] without ``exact``)."""
        if not self.exact:
            return []
        top = max(self.exact.values())
        return [c for c, v in self.exact.items() if v == top]

    @property
    def mistake(self) -> bool:
        return self.loss >= MISTAKE_CHANCE - 1e-9 or bool(self.cost)

    def __repr__(self) -> str:
        return (f"Decision(trick={self.trick}, {self.kind}, chosen={self.chosen}, "
                f"best={self.best}, loss={self.loss:.2f})")


@dataclass(frozen=True)
class Review:
    """The decisions of ``seat`` in ``deal``, its mistakes and a short summary."""

    seat: int
    decisions: list
    text: str
    seconds: float = field(default=0.0, compare=False)

    @property
    def mistakes(self) -> list:
        return [d for d in self.decisions if d.mistake]

    def frame(self):
        """A pandas DataFrame, one row per decision (pandas loads on first use)."""
        import pandas as pd
        rows = [{"trick": d.trick, "kind": d.kind, "chosen": str(d.chosen), "best": str(d.best),
                 "chance_chosen": d.chances.get(d.chosen), "chance_best": d.chances.get(d.best),
                 "loss": round(d.loss, 3), "cost": d.cost, "mistake": d.mistake, "text": d.text}
                for d in self.decisions]
        return pd.DataFrame(rows, columns=["trick", "kind", "chosen", "best", "chance_chosen",
                                           "chance_best", "loss", "cost", "mistake", "text"])

    def __repr__(self) -> str:
        return (f"Review(seat={self.seat}, {len(self.decisions)} decisions, "
                f"{len(self.mistakes)} mistakes)")

    def _repr_html_(self):
        import html
        verdict = {True: tr("mistake"), False: tr("fine")}
        rows = "".join(
            f"<tr><td>{d.trick}</td><td>{html.escape(str(d.chosen))}</td>"
            f"<td>{html.escape(verdict[bool(d.mistake)])}</td>"
            f"<td>{html.escape(d.text)}</td></tr>"
            for d in self.decisions)
        head = "".join(f"<th>{html.escape(h)}</th>" for h in
                       (tr("trick"), tr("card"), "", tr("what happened")))
        return f"<p>{html.escape(self.text)}</p><table><tr>{head}</tr>{rows}</table>"


def review(deal, seat: int = 0, samples: int | None = None, seed: int | str = 0,
           exact_from: int = EXACT_FROM, progress: bool = True,
           exact: bool | None = None) -> Review:
    """Review ``seat``'s decisions in ``deal`` (finished, or still being played).

    ``samples`` (1 to 10000; None: the hint's default) and ``seed`` (a whole number or
    text) set the play-outs behind the chances (as for :func:`courtlearn.hint`).
    ``exact``: weigh the cards also with all four hands known (:func:`courtlearn.solve`).
    None (the default) does so only once the deal is over: while it is still being
    played, the best play with every hand known would tell ``seat`` about cards it
    cannot see, so a running deal is judged by the chances alone. ``exact=True`` asks
    for it anyway (a teacher's view, every hand face up), ``exact=False`` never.
    ``exact_from`` (0 to 13): solve exactly when at most this many tricks are left
    (every Court Piece position with a public trump, when DDS is installed). A progress
    bar shows when the review takes longer than a second (``progress=False``: none).
    Wrong arguments are refused with a ValueError before anything is worked out.

    >>> import courtlearn as cl
    >>> running = cl.Deal(cl.Rules.double_sir(), dealer=3, seed=1)
    >>> _ = running.call_trump("S")
    >>> for _ in range(9):
    ...     _ = running.play(running.legal_cards()[0])
    >>> rv = review(running, seat=0, samples=20, progress=False)
    >>> [d.exact for d in rv.decisions]            # the deal is still on: chances only
    [None, None, None, None]
    >>> review(running, samples=-1)
    Traceback (most recent call last):
    ...
    ValueError: samples is a whole number from 1 to 10000 (or None for the default), got -1.
    """
    from .bots import hint
    from .deal import Deal
    if not isinstance(deal, Deal):
        raise ValueError(tr("review() takes a Deal, got {kind}.", kind=type(deal).__name__))
    if _whole(seat) not in (0, 1, 2, 3):
        raise ValueError(tr("seat is a number 0..3, got {seat!r}.", seat=quoted(seat)))
    seat = _whole(seat)
    samples = check_samples(samples)
    seed = check_seed(seed)
    exact_from = _whole(exact_from)
    if exact_from is None or not 0 <= exact_from <= 13:
        raise ValueError(tr("exact_from is a number of tricks from 0 to 13, got {value!r}.",
                            value=quoted(exact_from)))
    if not isinstance(progress, bool):
        raise ValueError(tr("{name} is True or False, got {value!r}.", name="progress",
                            value=quoted(progress)))
    if exact is not None and not isinstance(exact, bool):
        raise ValueError(tr("exact is True, False or None (all hands once the deal is over), "
                            "got {value!r}.", value=quoted(exact)))
    if exact is None:
        exact = deal.phase == "over"
    started = time.perf_counter()
    actions = deal.actions
    moments = _moments(deal, seat, actions)
    bar = _progress(len(moments)) if progress else None
    decisions = []
    now = deal.replay(0)
    done = 0
    solve_from = exact_from if exact else None
    for i, token in enumerate(actions):
        if done < len(moments) and moments[done] == i:
            decisions.append(_decide(now, seat, token, i, hint, samples, seed, solve_from))
            done += 1
            if bar is not None:
                bar.update(1)
        now.apply([token])
    if bar is not None:
        bar.close()
    return Review(seat=seat, decisions=decisions, text=_summary(deal, seat, decisions),
                  seconds=time.perf_counter() - started)


# ----------------------------------------------------------------------------- arguments
def check_samples(samples) -> int | None:
    """``samples`` when it is None or a whole number from 1 to 10000, else a ValueError."""
    if samples is None:
        return None
    n = _whole(samples)
    if n is None or not 1 <= n <= MAX_SAMPLES:
        raise ValueError(tr("samples is a whole number from 1 to {most} (or None for the "
                            "default), got {value!r}.", most=MAX_SAMPLES, value=quoted(samples)))
    return n


def check_seed(seed):
    """``seed`` when it is text or a whole number (numpy's as a plain int), else a
    ValueError."""
    if isinstance(seed, str):
        return seed
    n = _whole(seed)
    if n is None:
        raise ValueError(tr("seed is a whole number or text, got {value!r}.",
                            value=quoted(seed)))
    return n


def solves_quickly(deal, tricks: int = EXACT_FROM) -> bool:
    """Whether :func:`courtlearn.solve` answers ``deal`` quickly: in the play phase with the
    trump not face down, at most ``tricks`` tricks left, or any Court Piece position with a
    public trump when DDS is installed (DDS cannot take one with no trump yet: a
    ``first_void`` deal before anyone is void)."""
    from . import dds
    if deal.phase != "play" or deal._hidden is not None:
        return False
    if 13 - len(deal.tricks) <= tricks:
        return True
    return deal.rules.game == "court_piece" and deal.trump is not None and dds.available()


def _moments(deal, seat, actions) -> list:
    """The action indexes at which ``seat`` made a decision worth reviewing."""
    out = []
    d = deal.replay(0)
    for i, token in enumerate(actions):
        if d.phase == "trump" and d.trump_caller == seat and (
                token.startswith("call:") or token.startswith("choose:")):
            out.append(i)
        elif d.phase == "play" and d.to_play == seat and _is_card(token):
            out.append(i)
        d.apply([token])
    return out


def _is_card(token) -> bool:
    try:
        Card.parse(token)
    except ValueError:
        return False
    return True


def _decide(now, seat, token, index, hint, samples, seed, exact_from) -> Decision:
    rules = now.rules
    measure = "tens" if rules.game == "dehla_pakad" else "tricks"
    h = hint(now, seat, samples=samples, seed=seed)
    chances = dict(h.chances)
    if now.phase == "trump":
        kind = "trump"
        chosen = Suit.parse(token[5:]) if token.startswith("call:") else Card.parse(token[7:])
        trick = 1
        led = False
        exact = None
    else:
        kind = "card"
        chosen = Card.parse(token)
        trick = len(now.tricks) + 1
        led = not now.trick.cards
        exact = _exact(now, exact_from)
    if kind == "trump" and isinstance(chosen, Card) and chosen not in chances:
        # the trump card's chance is its suit's (the hint names one card per suit)
        same = next((c for c in chances if c.suit == chosen.suit), None)
        if same is not None:
            chances[chosen] = chances[same]
    top = max(chances.values()) if chances else 0.0
    # the best option: the hint's own choice when it is among the top chances
    best = h.card if chances.get(h.card, -1) >= top - 1e-12 else max(chances, key=chances.get)
    mine = chances.get(chosen, 0.0)
    loss = max(0.0, chances.get(best, 0.0) - mine)
    text = _sentence(rules, seat, kind, trick, led, chosen, best, chances, loss, exact, h, measure)
    return Decision(trick=trick, kind=kind, chosen=chosen, best=best, chances=chances,
                    loss=loss, exact=exact, text=text, action=index, led=led, measure=measure)


def fast_solve(deal):
    """:func:`courtlearn.solve` the quickest way: through DDS wherever it can take the
    position (a Court Piece deal with its trump public, endplay installed: milliseconds
    at any size), else by the pure search (and where DDS fails). Refusals are solve's
    (ValueError)."""
    from . import dds
    from .solver import solve
    if deal.rules.game == "court_piece" and deal.trump is not None and dds.available():
        try:
            return solve(deal, using="dds")
        except ValueError:
            raise
        except Exception:               # DDS failing on a position: the pure search answers
            pass
    return solve(deal)


def _exact(now, exact_from):
    """Exact values with all hands known (None: not asked for, slow here, or refused)."""
    if exact_from is None or not solves_quickly(now, exact_from):
        return None
    try:
        return fast_solve(now).values
    except ValueError:                  # a refusal (a position too large for the budget, ...)
        return None


def _odds(p: float) -> str:
    from .bots import _fraction_words
    return _fraction_words(p, "time")


def _odds_tenths(p: float) -> int | None:
    """N when the chance reads "about N times in 10" (else None)."""
    from .bots import _fraction_words
    tenths = round(p * 10)
    if 0 < tenths < 10 and _fraction_words(p, "time") == trn(
            "about {n} time in 10", "about {n} times in 10", tenths):
        return tenths
    return None


def _sentence(rules, seat, kind, trick, led, chosen, best, chances, loss, exact, h, measure):
    if kind == "trump" and isinstance(chosen, Suit):
        what = tr("you called {suit}", suit=suit_word(chosen))
    elif kind == "trump":
        what = tr("you chose {card} as the trump card", card=chosen)
    else:
        what = tr("you led {card}", card=chosen) if led else tr("you played {card}", card=chosen)
    head = tr("Trump") if kind == "trump" else tr("Trick {n}", n=trick)
    mine = chances.get(chosen, 0.0)
    cost = None
    if exact and chosen in exact:
        cost = max(exact.values()) - exact[chosen]
    if cost:
        top = max(exact.values())
        keep = [c for c, v in exact.items() if v == top]
        if measure == "tens":
            gave = tr("a ten") if cost == 1 else tr("{n} tens", n=cost)
        else:
            gave = tr("a trick") if cost == 1 else tr("{n} tricks", n=cost)
    if loss < 0.05 and cost:
        return tr("{head}: {what}. By what you could see it was a good choice (your side wins the "
                  "deal {odds} with it), but with all hands known {card} gave away {gave}: "
                  "{keep} would have kept {top} for your side.", head=head, what=what,
                  odds=_odds(mine), card=chosen, gave=gave, keep=keep[0], top=top)
    if loss < 0.05:
        return tr("{head}: {what}, a good choice: your side wins the deal {odds} with it.",
                  head=head, what=what, odds=_odds(mine))
    b = suit_word(best) if isinstance(best, Suit) else str(best)
    b = b[:1].upper() + b[1:]
    theirs, ours = _odds(chances.get(best, 0.0)), _odds(mine)
    p_best = chances.get(best, 0.0)
    if (_odds_tenths(mine) is not None
            and (theirs == tr("more than 9 times in 10") or (_odds_tenths(p_best) or 0) > 1)):
        ours = str(_odds_tenths(mine))                      # "... in 10 instead of 4"
    text = tr("{head}: {what}. {best} wins the deal {theirs} instead of {ours}", head=head,
              what=what, best=b, theirs=theirs, ours=ours)
    text = tr("{sentence}: {reason}", sentence=text, reason=h.reason) if h.reason \
        else tr("{sentence}.", sentence=text)
    if not text.endswith((".", "۔", "।")):
        text = tr("{sentence}.", sentence=text)
    if cost:
        text += " " + tr("With all hands known {card} gave away {gave}: {keep} would have kept "
                         "{top} for your side.", card=chosen, gave=gave, keep=keep[0], top=top)
    return text


def _summary(deal, seat, decisions) -> str:
    rules = deal.rules
    name = rules.seat_name(seat)
    if not decisions:
        return tr("{seat} has made no decision in this deal yet.", seat=name)
    bad = sorted((d for d in decisions if d.mistake),
                 key=lambda d: (-(d.cost or 0), -d.loss, d.trick))
    if not bad:
        return tr("No mistakes: each of {seat}'s {n} decisions kept the side's chance within a "
                  "tenth of the best.", seat=name, n=len(decisions))
    moments = []
    for d in bad[:3]:
        where = tr("the trump call") if d.kind == "trump" else tr("trick {n}", n=d.trick)
        better = d.exact_best[0] if d.cost and d.loss < MISTAKE_CHANCE else d.best
        if d.cost:
            cost = trn("{n} ten", "{n} tens", d.cost) if d.measure == "tens" \
                else trn("{n} trick", "{n} tricks", d.cost)
            moments.append(tr("{where} ({chosen} instead of {better}, {cost} with best play)",
                              where=where, chosen=d.chosen, better=better, cost=cost))
        else:
            moments.append(tr("{where} ({chosen} instead of {better}, {n} in 100 of the chance)",
                              where=where, chosen=d.chosen, better=better,
                              n=round(d.loss * 100)))
    joined = list_words(moments)
    if len(moments) == 1:
        text = tr("One moment decided this deal for {seat}: {moments}", seat=name, moments=joined)
    elif len(moments) == 2:
        text = tr("Two moments decided this deal for {seat}: {moments}", seat=name,
                  moments=joined)
    else:
        text = tr("Three moments decided this deal for {seat}: {moments}", seat=name,
                  moments=joined)
    if len(bad) > 3:
        text += " " + trn("({n} smaller one besides)", "({n} smaller ones besides)", len(bad) - 3)
    return tr("{sentence}.", sentence=text)


def _progress(total):
    """A progress bar that appears only once a second has passed (tqdm, if installed)."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, delay=1.0, desc="review", leave=False)
