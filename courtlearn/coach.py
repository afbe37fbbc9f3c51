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
- ``stakes``: what each card's count is worth where it is scored (:mod:`courtlearn.stakes`):
  the deal won or lost, a court, a goon court, a bavney, a kot. Best play is judged by
  these: a card that gives away a trick the deal does not need changes nothing, and the
  review says so in plain words. (Where a Court Piece court is still open and its search
  gives up, the decision is judged by the chances alone: ``exact`` is None.)

Each decision gets one verdict (:attr:`Decision.verdict`) and one list of best cards
(:attr:`Decision.best_cards`) that its sentence, :meth:`Review.frame` and the table's review
all use:

- "mistake": worse by what the seat could know, a tenth of the chance or more below the
  best card's. Only the chances make a mistake: a card cannot be blamed for where the
  unseen cards lay. Its best cards are those within a twentieth of the top chance.
- "unlucky": not a mistake by the chances, but with all hands known it cost something that
  scores: the deal, a court, a kot. Its best cards are those that score the most with best
  play.
- "best": the chosen card is one of the best cards (with all hands known: it scores as much
  as any, even if it gave away a trick that changes nothing; else: its chance is within a
  twentieth of the top).
- "fine": none of these (chances only: not a mistake, but another card did better).

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
from dataclasses import dataclass, field, replace

from .cards import Card, Suit, _whole, quoted
from .language import list_words, or_words, suit_word, tr, trn
from .rules import team_of

__all__ = ["Decision", "Review", "review", "solves_quickly", "fast_solve"]

MISTAKE_CHANCE = 0.10       # a loss of a tenth of the chance or more is a mistake
NEAR_CHANCE = 0.05          # within a twentieth of the top chance: as good (play-out noise)
GOOD_CHANCE = 0.55          # "a good choice" only when the side wins more often than not
LOW_CHANCE = 0.05           # below this top chance no card gave the side a real chance
VERDICTS = ("best", "fine", "unlucky", "mistake")
EXACT_FROM = 6              # solve exactly with at most this many tricks left
MAX_SAMPLES = 10_000        # play-outs per decision: about 6 s each on a shared core


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat.

    ``trick`` (1-based; the trump call counts as trick 1), ``kind`` ("trump" or
    "card"), ``chosen`` (a Suit for a called trump, else a Card), ``chances`` {option:
    chance the side wins the deal, from what the seat could know}, ``loss`` (the top
    chance minus the chosen one), ``exact`` ({card: the team's total with perfect play} or
    None), ``stakes`` ({card: :class:`courtlearn.stakes.Stake`, what that total scores} or
    None), ``best_cards`` (the one list of best options: see :attr:`verdict`; ``best`` is
    its first), ``text`` (what happened and why, naming the same best cards), ``action``
    (its index in ``deal.actions``: ``deal.replay(action)`` is the moment it was made).
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
    best_cards: tuple = ()
    stakes: dict | None = None
    rules: object = field(default=None, repr=False, compare=False)

    @property
    def given(self) -> int | None:
        """Tricks (or tens) the chosen card gave away with best play, whether or not they
        change what is scored (None without ``exact``)."""
        if not self.exact or self.chosen not in self.exact:
            return None
        return max(self.exact.values()) - self.exact[self.chosen]

    @property
    def costly(self) -> bool:
        """Whether, with all hands known, the chosen card scores less than the best one (the
        deal, a court, a kot)."""
        if not self.stakes or self.chosen not in self.stakes:
            return False
        top = max(s.key for s in self.stakes.values())
        return self.stakes[self.chosen].key < top

    @property
    def cost(self) -> int | None:
        """Tricks (or tens) the chosen card gave away with best play when they cost
        something that scores; 0 when they change nothing (None without ``exact``)."""
        if self.given is None:
            return None
        return self.given if self.costly else 0

    @property
    def exact_best(self) -> list:
        """The cards that score the most with best play ([] without ``exact``)."""
        if not self.exact:
            return []
        if not self.stakes:
            top = max(self.exact.values())
            return [c for c, v in self.exact.items() if v == top]
        top = max(s.key for s in self.stakes.values())
        return [c for c in self.exact if self.stakes[c].key == top]

    @property
    def verdict(self) -> str:
        """"mistake" (worse by what the seat could know: ``loss`` of a tenth or more),
        "unlucky" (not a mistake, but with all hands known it cost the side something that
        scores: the deal, a court, a kot), "best" (the chosen card is among ``best_cards``)
        or "fine"."""
        if self.loss >= MISTAKE_CHANCE - 1e-9:
            return "mistake"
        if self.costly:
            return "unlucky"
        return "best" if self.chosen in self.best_cards else "fine"

    @property
    def mistake(self) -> bool:
        """Whether the verdict is "mistake" (by the chances only)."""
        return self.verdict == "mistake"

    @property
    def better(self) -> tuple:
        """The options better than the one chosen: ``best_cards``, or () when the chosen
        card is best (what the table outlines)."""
        return () if self.verdict == "best" else self.best_cards

    def __repr__(self) -> str:
        return (f"Decision(trick={self.trick}, {self.kind}, chosen={self.chosen}, "
                f"best={self.best}, loss={self.loss:.2f}, {self.verdict})")


@dataclass(frozen=True)
class Review:
    """The decisions of ``seat`` in ``deal``, its mistakes and a short summary."""

    seat: int
    decisions: list
    text: str
    seconds: float = field(default=0.0, compare=False)

    @property
    def mistakes(self) -> list:
        """The decisions worse by what the seat could know (verdict "mistake")."""
        return [d for d in self.decisions if d.verdict == "mistake"]

    @property
    def unlucky(self) -> list:
        """The decisions good by the chances that lost against the actual cards."""
        return [d for d in self.decisions if d.verdict == "unlucky"]

    def frame(self):
        """A pandas DataFrame, one row per decision (pandas loads on first use): ``best``
        names the decision's best cards (``Decision.best_cards``), ``chance_best`` is the
        first one's chance, ``verdict`` is best, fine, unlucky or mistake, ``given`` the
        tricks (tens) the card gave away with best play and ``cost`` those of them that
        cost something that scores."""
        import pandas as pd
        columns = ["trick", "kind", "chosen", "verdict", "best", "chance_chosen", "chance_best",
                   "loss", "given", "cost", "mistake", "text"]
        rows = [{"trick": d.trick, "kind": d.kind, "chosen": str(d.chosen), "verdict": d.verdict,
                 "best": " ".join(str(c) for c in d.best_cards),
                 "chance_chosen": d.chances.get(d.chosen), "chance_best": d.chances.get(d.best),
                 "loss": round(d.loss, 3), "given": d.given, "cost": d.cost,
                 "mistake": d.mistake, "text": d.text}
                for d in self.decisions]
        return pd.DataFrame(rows, columns=columns)

    def __repr__(self) -> str:
        return (f"Review(seat={self.seat}, {len(self.decisions)} decisions, "
                f"{len(self.mistakes)} mistakes, {len(self.unlucky)} unlucky)")

    def _repr_html_(self):
        import html
        rows = "".join(
            f"<tr><td>{d.trick}</td><td>{html.escape(str(d.chosen))}</td>"
            f"<td>{html.escape(verdict_word(d.verdict))}</td>"
            f"<td>{html.escape(d.text)}</td></tr>"
            for d in self.decisions)
        head = "".join(f"<th>{html.escape(h)}</th>" for h in
                       (tr("trick"), tr("card"), "", tr("what happened")))
        return f"<p>{html.escape(self.text)}</p><table><tr>{head}</tr>{rows}</table>"


def verdict_word(verdict: str) -> str:
    """The verdict in the current language: "best", "fine", "unlucky" or "mistake"."""
    return {"best": tr("best"), "fine": tr("fine"), "unlucky": tr("unlucky"),
            "mistake": tr("mistake")}[verdict]


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
    stakes = None
    if exact:
        from .stakes import stakes as _stakes
        stakes = _stakes(now, exact)
        if not all(s.known for s in stakes.values()):
            exact = stakes = None         # a court still open, its search gave up
    if kind == "trump" and isinstance(chosen, Card) and chosen not in chances:
        # the trump card's chance is its suit's (the hint names one card per suit)
        same = next((c for c in chances if c.suit == chosen.suit), None)
        if same is not None:
            chances[chosen] = chances[same]
    top = max(chances.values()) if chances else 0.0
    loss = max(0.0, top - chances.get(chosen, 0.0))
    best = _best_cards(chances, stakes, _is_mistake(loss), h.card) or (chosen,)
    d = Decision(trick=trick, kind=kind, chosen=chosen, best=best[0], chances=chances,
                 loss=loss, exact=exact, text="", action=index, led=led, measure=measure,
                 best_cards=best, stakes=stakes, rules=rules)
    return replace(d, text=_sentence(d, h))


def _is_mistake(loss: float) -> bool:
    """A loss of a tenth of the chance or more: the one test of a mistake."""
    return loss >= MISTAKE_CHANCE - 1e-9


def _best_cards(chances: dict, stakes: dict | None, mistake: bool, first) -> tuple:
    """The one list of best options of a decision, the highest chance first (``first``,
    the hint's card, first among equals): with all hands known and the choice not a
    mistake, the cards that score the most with best play (``stakes``); else the options
    within a twentieth of the top chance."""
    if not chances:
        return ()
    if stakes and not mistake:
        most = max(s.key for s in stakes.values())
        pool = [c for c, s in stakes.items() if s.key == most]
    else:
        top = max(chances.values())
        pool = [o for o, p in chances.items() if p >= top - NEAR_CHANCE - 1e-9]
    order = {o: i for i, o in enumerate(chances)}
    return tuple(sorted(pool, key=lambda o: (-chances.get(o, -1.0), o != first,
                                             order.get(o, len(order)))))


def fast_solve(deal):
    """:func:`courtlearn.solve` the quickest way: through DDS wherever it can take the
    position (a Court Piece deal with its trump public, endplay installed: milliseconds
    at any size), else by the pure search (and where DDS fails). Refusals are solve's
    (ValueError)."""
    from . import dds
    from .solver import solve
    if deal.rules.game == "court_piece" and deal.trump is not None and dds.available():
        try:
            return solve(deal, using="dds", progress=False)
        except ValueError:
            raise
        except Exception:               # DDS failing on a position: the pure search answers
            pass
    return solve(deal, progress=False)  # its callers (a click, the review) show their own


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


def _names(options) -> str:
    """"9♥", "9♥ or 7♥", "9♥, 7♥ or J♣" (four at most, else three and "(or any of 2 more
    as good)")."""
    shown = [suit_word(o) if isinstance(o, Suit) else str(o)
             for o in (options if len(options) <= 4 else options[:3])]
    names = or_words(shown)
    if len(options) > 4:
        names = tr("{cards} (or any of {n} more as good)", cards=names, n=len(options) - 3)
    return names


def _wins(p: float, only: bool = False) -> str:
    """"your side wins the deal about 7 times in 10 with it" (``only``: "... only ...")."""
    if p <= 0:
        return tr("your side never wins the deal with it")
    if only:
        return tr("your side wins the deal only {odds} with it", odds=_odds(p))
    return tr("your side wins the deal {odds} with it", odds=_odds(p))


def _sentence(d: Decision, h) -> str:
    """The decision in a sentence that says its verdict and names its best cards."""
    if d.kind == "trump" and isinstance(d.chosen, Suit):
        what = tr("you called {suit}", suit=suit_word(d.chosen))
    elif d.kind == "trump":
        what = tr("you chose {card} as the trump card", card=d.chosen)
    else:
        what = tr("you led {card}", card=d.chosen) if d.led \
            else tr("you played {card}", card=d.chosen)
    head = tr("Trump") if d.kind == "trump" else tr("Trick {n}", n=d.trick)
    mine = d.chances.get(d.chosen, 0.0)
    top = max(d.chances.values())
    verdict = d.verdict
    if d.kind == "card" and len(d.chances) == 1:
        return tr("{head}: {what}, the only card you could play.", head=head, what=what)
    if verdict in ("mistake", "fine"):
        return _compared(d, h, head, what, mine)
    if verdict == "unlucky":
        if d.loss >= NEAR_CHANCE:
            judgement, chances = tr("not a mistake"), _wins(mine)
        elif mine >= GOOD_CHANCE:
            judgement, chances = tr("a good choice"), _wins(mine)
        else:
            judgement, chances = tr("as good a choice as any you had"), _wins(mine, only=True)
        return tr("{head}: {what}, {judgement} by what you could see ({chances}), but unlucky: "
                  "{changed}", head=head, what=what, judgement=judgement, chances=chances,
                  changed=_changed(d))
    if top < LOW_CHANCE:
        text = tr("{head}: {what}. No choice gave your side a real chance to win the deal.",
                  head=head, what=what)
    elif d.loss >= NEAR_CHANCE:      # best with all hands known, a little below the top chance
        text = tr("{head}: {what}, not a mistake: {chances}, and with all hands known no card "
                  "would have done better.", head=head, what=what, chances=_wins(mine))
    elif mine >= GOOD_CHANCE:
        text = tr("{head}: {what}, a good choice: your side wins the deal {odds} with it.",
                  head=head, what=what, odds=_odds(mine))
    else:
        text = tr("{head}: {what}, as good a choice as any you had, though {chances}.",
                  head=head, what=what, chances=_wins(mine, only=True))
    return text + _nothing(d)


def _changed(d: Decision) -> str:
    """What the chosen card cost with all hands known, in what scores: "with all hands
    known, after 4♦ East–West win the deal; after J♣, North–South win the deal." """
    keep = [c for c in d.best_cards if c in d.exact_best] or list(d.exact_best)
    return tr("with all hands known, after {card} {then}; after {keep}, {instead}.",
              card=d.chosen, then=_stake_words(d, d.chosen), keep=_names(keep),
              instead=_stake_words(d, keep[0]))


def _stake_words(d: Decision, card) -> str:
    return d.stakes[card].words(d.rules)


def _nothing(d: Decision) -> str:
    """" With all hands known 7♥ gave away a trick, which changes nothing: North–South win
    the deal either way." ("" when it gave nothing away, or cost something.)"""
    if not d.stakes or not d.given or d.costly:
        return ""
    return " " + tr("With all hands known {card} gave away {gave}, which changes nothing: "
                    "{stake} either way.", card=d.chosen, gave=_gave(d, d.given),
                    stake=_stake_words(d, d.chosen))


def _gave(d: Decision, n: int) -> str:
    """"a trick", "2 tens": what the chosen card gave away with best play."""
    if d.measure == "tens":
        return tr("a ten") if n == 1 else tr("{n} tens", n=n)
    return tr("a trick") if n == 1 else tr("{n} tricks", n=n)


def _compared(d: Decision, h, head, what, mine) -> str:
    """A mistake's or a fine choice's sentence: the best cards' chance against the chosen
    one's, the hint's reason, and for a mistake what all hands known say."""
    names = _names(d.best_cards)
    names = names[:1].upper() + names[1:]
    p_best = d.chances.get(d.best, 0.0)
    theirs, ours = _odds(p_best), _odds(mine)
    if _odds_tenths(mine) is not None and (theirs == tr("more than 9 times in 10")
                                           or (_odds_tenths(p_best) or 0) > 1):
        ours = str(_odds_tenths(mine))                      # "... in 10 instead of 4"
    if theirs == _odds(mine) or (_odds_tenths(mine) is not None
                                 and _odds_tenths(mine) == _odds_tenths(p_best)):
        # the same in tenths ("7 times in 10 instead of 7"): say it in hundredths
        text = tr("{head}: {what}. {best} wins the deal about {theirs} times in 100 instead "
                  "of {ours}", head=head, what=what, best=names, theirs=round(p_best * 100),
                  ours=round(mine * 100))
    else:
        text = tr("{head}: {what}. {best} wins the deal {theirs} instead of {ours}", head=head,
                  what=what, best=names, theirs=theirs, ours=ours)
    text = tr("{sentence}: {reason}", sentence=text, reason=h.reason) \
        if h.reason and d.best == h.card else tr("{sentence}.", sentence=text)
    if not text.endswith((".", "۔", "।")):
        text = tr("{sentence}.", sentence=text)
    if d.verdict != "mistake" or not d.stakes:
        return text + _nothing(d)
    if not d.costly:
        return text + " " + tr("With all hands known it happened to change nothing this time: "
                               "{stake} either way.", stake=_stake_words(d, d.chosen))
    changed = _changed(d)
    return text + " " + changed[:1].upper() + changed[1:]


def _summary(deal, seat, decisions) -> str:
    rules = deal.rules
    name = rules.seat_name(seat)
    if not decisions:
        return tr("{seat} has made no decision in this deal yet.", seat=name)
    bad = sorted((d for d in decisions if d.verdict == "mistake"),
                 key=lambda d: (-d.loss, d.trick))
    if not bad:
        text = tr("No mistakes: each of {seat}'s {n} decisions kept the side's chance within a "
                  "tenth of the best.", seat=name, n=len(decisions))
    else:
        moments = []
        for d in bad[:3]:
            moments.append(tr("{where} ({chosen} instead of {better}, which wins {n} more "
                              "deals in 100)", where=_where(d), chosen=_names([d.chosen]),
                              better=_names([d.best]), n=round(d.loss * 100)))
        joined = list_words(moments)
        if len(moments) == 1:
            text = tr("One moment decided this deal for {seat}: {moments}", seat=name,
                      moments=joined)
        elif len(moments) == 2:
            text = tr("Two moments decided this deal for {seat}: {moments}", seat=name,
                      moments=joined)
        else:
            text = tr("Three moments decided this deal for {seat}: {moments}", seat=name,
                      moments=joined)
        if len(bad) > 3:
            text += " " + trn("({n} smaller one besides)", "({n} smaller ones besides)",
                              len(bad) - 3)
        text = tr("{sentence}.", sentence=text)
    unlucky = [d for d in decisions if d.verdict == "unlucky"]
    if unlucky:
        moments = []
        for d in unlucky[:3]:
            moments.append(tr("{where} ({chosen} instead of {better}: with best play, "
                              "{instead} with it)", where=_where(d), chosen=_names([d.chosen]),
                              better=_names([d.best]), instead=_stake_words(d, d.best)))
        more = ""
        if len(unlucky) > 3:
            more = " " + tr("({n} more besides)", n=len(unlucky) - 3)
        text += " " + trn("Unlucky, not a mistake: {moments}{more}, good by the chances but "
                          "beaten by the cards as they lay.",
                          "Unlucky, not mistakes: {moments}{more}, good by the chances but "
                          "beaten by the cards as they lay.", len(unlucky),
                          moments=list_words(moments), more=more)
    return text


def _where(d: Decision) -> str:
    return tr("the trump call") if d.kind == "trump" else tr("trick {n}", n=d.trick)


def _progress(total):
    """A progress bar that appears only once a second has passed (tqdm, if installed)."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, delay=1.0, desc="review", leave=False)
