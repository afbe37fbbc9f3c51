"""pandas views of deals: ``history(deal)`` and ``simulate(rules, ...)``.

pandas (and tqdm) are imported only when these functions are called, so
``import courtlearn`` and every lesson but the one on numbers run without
them.  ``deal.history()`` and ``cl.simulate(...)`` are the same functions.
"""
from __future__ import annotations

import copy
import random

from .cards import _whole, quoted
from .language import tr, using

__all__ = ["history", "simulate", "HISTORY_COLUMNS", "SIMULATE_COLUMNS"]

HISTORY_COLUMNS = [
    "trick", "position", "seat", "player", "team", "card", "suit", "rank", "led", "followed",
    "trumped", "revoke", "winner", "won", "pile", "centre", "tricks_ns", "tricks_ew",
]

MAX_DEALS = 1_000_000   # about a day of RuleBot deals: more is a slip of the keyboard

SIMULATE_COLUMNS = [
    "deal", "seed", "dealer", "trump_caller", "trump", "tricks_ns", "tricks_ew", "winner",
    "caller_won", "courts", "kind", "tens_ns", "tens_ew", "tricks_played",
]


def _cl():
    import courtlearn
    return courtlearn


_TRUMP_EVENTS = ("call", "show", "turn", "reveal", "trump_fixed")


def _trumps_by_trick(deal) -> list:
    """The trump suit in force at the end of each trick (completed ones, then
    the open one), read from the deal's events: a hidden trump counts from the
    trick it is revealed in, a first-void trump from the trick that fixed it."""
    trumps, current = [], None
    for e in deal.events:
        if e.kind in _TRUMP_EVENTS:
            if e.card is not None:
                current = e.card.suit
            elif e.data:
                current = e.data[0]
        elif e.kind == "trick":
            trumps.append(current)
    trumps.append(current)
    return trumps


def _pile_states(deal) -> dict:
    """k -> (cards in the centre, tricks_won) just after trick k was completed.

    Rebuilt from a copy of the deal, taking its actions back one by one, so
    the numbers are the engine's own."""
    cl = _cl()
    states = {}
    copy = cl.Deal.from_dict(deal.to_dict())
    for _ in range(4 * 13 * 4 + 20):
        k = len(copy.tricks)
        if not copy.trick.cards:
            states[k] = (len(copy.centre), tuple(copy.tricks_won))
        if k == 0 and not copy.trick.cards:
            break
        copy.undo()
    return states


def _pile_text(rules, trick_winner, before, after, piles: bool) -> str:
    cl = _cl()
    if not piles:
        return rules.team_name(cl.team_of(trick_winner))
    centre, won = after
    gained = [won[t] - before[1][t] for t in (0, 1)]
    for t in (0, 1):
        if gained[t] > 0:
            return f"{rules.team_name(t)} take {gained[t]}"
    return f"centre {centre}"


def history(deal):
    """One row per card played so far, in order. The names in it (players, teams) are
    the English ones whatever :func:`courtlearn.set_language` says: a frame is data for
    code (``frame[frame.player == "North"]``), the same in every language.

    Columns: ``trick`` (1..13), ``position`` in the trick (1 = led),
    ``seat`` (0..3), ``player`` (its name), ``team``, ``card``, ``suit``,
    ``rank``, ``led`` (the suit led), ``followed`` (the card is of the suit
    led), ``trumped`` (a trump played to another suit's lead), ``revoke``
    (the card was a revoke the engine recorded, ``revokes="allowed"``), ``winner``
    (who won the trick, None while it is open), ``won`` (this card's player
    won it), ``pile`` (where the trick went: a team's pile, ``"centre N"``, or
    ``"<team> take N"`` when a capture took N tricks), ``centre`` (tricks in
    the centre after the trick) and ``tricks_ns`` / ``tricks_ew`` (tricks in
    each team's own pile after the trick).
    """
    from .deal import Deal
    if not isinstance(deal, Deal):
        raise TypeError(tr("history() is for a Deal (like cl.Deal(cl.Rules.court_piece(), "
                           "seed=1)), got {deal!r}.", deal=quoted(deal)))
    with using("en"):
        return _history(deal)


def _history(deal):
    import pandas as pd

    cl = _cl()
    rules = deal.rules
    piles = rules.game != "court_piece"
    states = _pile_states(deal)
    trumps = _trumps_by_trick(deal)
    revokes = {(r.trick, r.seat, r.card) for r in getattr(deal, "revokes", ())}
    tricks = list(deal.tricks)
    open_cards = list(deal.trick.cards)
    rows = []
    for i, trick in enumerate(tricks + ([deal.trick] if open_cards else [])):
        complete = i < len(tricks)
        led = trick.cards[0][1].suit
        trump = trumps[i] if i < len(trumps) else deal.trump
        if complete:
            after = states.get(i + 1, (None, (None, None)))
            before = states.get(i, (0, (0, 0)))
            pile = _pile_text(rules, trick.winner, before, after, piles) if after[0] is not None else None
        else:
            after, pile = (None, (None, None)), None
        for pos, (seat, card) in enumerate(trick.cards, 1):
            rows.append({
                "trick": i + 1,
                "position": pos,
                "seat": seat,
                "player": rules.seat_name(seat),
                "team": rules.team_name(cl.team_of(seat)),
                "card": str(card),
                "suit": str(card.suit),
                "rank": card.rank,
                "led": str(led),
                "followed": card.suit == led,
                "trumped": trump is not None and card.suit == trump and led != trump,
                "revoke": (i, seat, card) in revokes,
                "winner": rules.seat_name(trick.winner) if complete else None,
                "won": (seat == trick.winner) if complete else None,
                "pile": pile,
                "centre": after[0],
                "tricks_ns": after[1][0],
                "tricks_ew": after[1][1],
            })
    frame = pd.DataFrame(rows, columns=HISTORY_COLUMNS)
    for col in ("centre", "tricks_ns", "tricks_ew"):
        frame[col] = frame[col].astype("Int64")
    for col in ("won",):
        frame[col] = frame[col].astype("boolean")
    return frame


# --------------------------------------------------------------------------
# simulate


def _bots_for(bots) -> list:
    """Four bots by seat, copied: a seeded bot keeps its own random generator, so
    simulate() plays copies and the same arguments always give the same frame
    (a bot given twice in the list stays one bot in the copy)."""
    if bots is None:
        from courtlearn.bots import RuleBot
        bots = RuleBot()
    if isinstance(bots, (list, tuple)):
        if len(bots) != 4:
            raise ValueError(f"bots: give one bot for all seats or a list of four, not {len(bots)}")
        bots = list(bots)
    else:
        bots = [bots] * 4
    for bot in bots:
        if not callable(getattr(bot, "choose", None)):
            raise TypeError(tr("bots: give a bot (with choose(deal) and call_trump(deal), like "
                               "cl.bots.RuleBot()) or a list of four; got {bot!r}.",
                               bot=quoted(bot)))
    try:
        return copy.deepcopy(bots)
    except Exception:       # a bot of the user's that cannot be copied plays as it is
        return bots


def play_out(deal, bots) -> None:
    """Let ``bots`` (a list of four, by seat) finish ``deal``, one decision at a time
    through :func:`courtlearn.bots.act` (a court is played on if its winners' bot says so).

    Any object with the bot methods of API.md will do: ``choose`` and ``call_trump``
    (and ``choose_trump_card``, ``asks_for_trump``, ``defers_trump``, ``plays_on`` for
    the variants that use them)."""
    from .bots import act, deciding_seat
    for _ in range(400):
        seat = deciding_seat(deal)
        if seat is None or not act(bots[seat], deal):
            return
    raise RuntimeError("the deal did not finish: a bot keeps making moves that change nothing")


def simulate(rules, deals: int = 1000, seed: int = 0, bots=None, progress: bool = True):
    """Play ``deals`` independent deals with bots; one row per deal (the names in it in
    English, as in :func:`history`, whatever the language).

    Each deal gets a random dealer and a shuffle drawn from ``seed``, so the
    same arguments give the same frame.  ``bots``: one bot for all seats or a
    list of four (by seat); None means :class:`courtlearn.bots.RuleBot`.
    ``progress`` shows a tqdm bar (use ``progress=False`` where output must
    not change, as under nbval).

    Columns: ``deal``, ``seed`` (of its shuffle), ``dealer``,
    ``trump_caller``, ``trump``, ``tricks_ns``, ``tricks_ew``, ``winner``
    (a team name), ``caller_won`` (the trump caller's team won), ``courts``,
    ``kind`` (tricks, court, goon, bavney, tens, kot, ...), ``tens_ns``,
    ``tens_ew`` and ``tricks_played``.
    """
    with using("en"):
        return _simulate(rules, deals, seed, bots, progress)


def _simulate(rules, deals, seed, bots, progress):
    import pandas as pd

    cl = _cl()
    if isinstance(rules, str):
        rules = cl.Rules.of(rules)
    if not isinstance(rules, cl.Rules):
        raise TypeError(tr("rules must be a Rules (e.g. cl.Rules.court_piece()) or a game's "
                           "name, got {rules!r}.", rules=quoted(rules)))
    n = _whole(deals)
    if n is None or not 0 <= n <= MAX_DEALS:
        raise ValueError(tr("deals is a whole number of deals from 0 to {most}, got "
                            "{deals!r}.", most=MAX_DEALS, deals=quoted(deals)))
    deals = n
    from .bots import check_bot_seed
    seed = check_bot_seed(seed)
    players = _bots_for(bots)
    rng = random.Random(seed)
    steps = range(deals)
    if progress:
        from tqdm.auto import tqdm
        steps = tqdm(steps, desc="deals", unit="deal")
    rows = []
    for i in steps:
        dealer = rng.randrange(4)
        deal_seed = rng.randrange(2**32)
        deal = cl.Deal(rules, dealer=dealer, seed=deal_seed)
        play_out(deal, players)
        res = deal.result
        rows.append({
            "deal": i,
            "seed": deal_seed,
            "dealer": rules.seat_name(dealer),
            "trump_caller": rules.seat_name(deal.trump_caller),
            "trump": str(deal.trump) if deal.trump is not None else None,
            "tricks_ns": res.tricks[0],
            "tricks_ew": res.tricks[1],
            "winner": rules.team_name(res.winner) if res.winner is not None else None,
            "caller_won": res.winner == cl.team_of(deal.trump_caller),
            "courts": res.courts,
            "kind": res.kind,
            "tens_ns": res.tens[0],
            "tens_ew": res.tens[1],
            "tricks_played": len(deal.tricks),
        })
    return pd.DataFrame(rows, columns=SIMULATE_COLUMNS)
