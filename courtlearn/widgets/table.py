"""CardTable: one deal on a card table in the notebook (an anywidget).

The engine is the only state. The page receives snapshots built from
``deal.view(seat)`` (what the viewer may know) and sends back intents: a
clicked card, a called suit. Each intent arrives as a custom message
(``model.send`` in the page, :meth:`CardTable._on_msg` here), is checked, and
is either carried out by the engine or refused with a sentence in the message
area; a refused intent never changes the deal.

>>> import courtlearn as cl
>>> table = CardTable(cl.Deal(cl.Rules.double_sir(), dealer=3, seed=7))
>>> table                                             # doctest: +SKIP
CardTable(double_sir, seat=0, South to call trump)
"""
from __future__ import annotations

import functools
import logging
import pathlib
import re
from typing import TypedDict

import anywidget
import traitlets

from courtlearn.bots import act, deciding_seat
from courtlearn.cards import Card, Suit, quoted
from courtlearn.coach import fast_solve, solves_quickly
from courtlearn.language import (get_language, language_code, plural_forms, rank_word,
                                 suit_word, text_direction, tr, trn, using)
from courtlearn.render import positions, stage_words

__all__ = ["CardTable"]

STATIC = pathlib.Path(__file__).parent / "static"
# the fonts a language needs, shipped with the widget so that the browser-only site renders
# them offline (SIL Open Font Licence; subsets of fontsource's Noto builds, 400 weight)
FONTS = {"ur": ("Noto Nastaliq Urdu", STATIC / "fonts" / "NotoNastaliqUrdu-arabic-400.woff2"),
         "hi": ("Noto Sans Devanagari", STATIC / "fonts" / "NotoSansDevanagari-devanagari-400.woff2")}

CARD_CODE = re.compile(r"^(10|[2-9JQKA])[SHCD]$")
MESSAGE_TYPES = ("play", "call_trump", "choose_trump_card", "defer_trump", "ask_for_trump",
                 "play_on", "correct_revoke", "claim_revoke", "hint", "best_play", "review",
                 "review_close")
# the keys each message from the page may carry, besides "type" and the request "id"
MESSAGE_KEYS = {"play": {"card"}, "choose_trump_card": {"card"}, "call_trump": {"suit"},
                "review": {"index"}, "best_play": {"on"}}
SIZES = ("small", "normal", "large", "presenter")
BEST_PLAY_TRICKS = 6        # the pure solver answers well within a second from here
MAX_BOT_MOVES = 80          # a deal has at most 52 cards and a handful of other actions
MAX_SPEED = 10_000          # ms between two moves drawn in the page
PAGE_READ_ONLY = ("state", "fonts", "speed", "size", "animate")   # the page never sets these

log = logging.getLogger(__name__)


class Refused(ValueError):
    """An intent from the page (or the Python API) that the table turns down."""


# ----------------------------------------------------------------------------- the state's shape
# The page reads exactly this (table.js has the matching JSDoc @typedef): keep the two in step.
class SeatState(TypedDict):
    seat: int
    name: str                  # the seat's name, from Rules
    pos: str                   # "bottom" | "left" | "top" | "right" on the screen
    team: int
    viewer: bool
    controlled: bool           # the page's person plays this seat's cards (the viewer's; with
                               # show_all also a partner's, as in the puzzles)
    hand: list[str] | None     # card codes: the viewer's, or every seat's with show_all; else None
    count: int                 # cards held (face-down cards are only counted)
    legal: list[str]           # a controlled seat's lawful cards when it is its turn
    dealer: bool
    caller: bool
    turn: bool
    player: str | None


class PlayedCard(TypedDict):
    seat: int
    card: str
    pos: str


class LastTrick(TypedDict):
    cards: list[PlayedCard]
    winner: int
    fresh: bool                # completed by the latest move (animate it)
    to: str                    # "centre" | "team"
    to_team: int
    captured: int


class PileState(TypedDict):
    team: int
    name: str
    count: int
    mine: bool


class HiddenTrump(TypedDict):
    seat: int
    card: str | None           # only for its owner, or with show_all


class Names(TypedDict):
    """Every word the page shows that names a thing of the game, from Rules and Suit."""
    game: str
    seats: list[str]
    teams: list[str]
    suits: dict[str, dict[str, str]]     # letter -> {"symbol": "♠", "plural": "spades"}
    ranks: dict[str, str]                # "A" -> "ace" (for the cards' spoken labels)


class BestPlay(TypedDict):
    """Exact best play for the player to move (cl.solve), shown with show_all."""
    on: bool
    seat: int
    values: dict[str, int] | None   # card code -> the team's total with perfect play
    best: list[str]
    measure: str                    # "tricks" | "tens"
    note: str | None                # why no values are shown


class ReviewStep(TypedDict):
    """One decision of the viewer's, on show while stepping through cl.review."""
    index: int
    count: int
    kind: str                       # "trump" | "card"
    chosen: str                     # a card code, or a suit letter for a called trump
    best: list[str]                 # the better choices (chance, then exact best play)
    verdict: str                    # "best" | "fine" | "mistake"
    cost: int | None                # tricks (tens) given away with best play
    text: str


class Snapshot(TypedDict):
    game: str
    title: str
    names: Names
    lang: str                  # "en" | "ur" | "hi": the language of every word below
    dir: str                   # "ltr" | "rtl" (Urdu): the direction text runs in
    words: dict[str, str]      # the page's own labels and buttons (page_words), {name} filled in JS
    viewer: int
    show_all: bool
    replay: bool
    phase: str                 # "trump" | "play" | "over"
    to_play: int               # the seat the deal waits for (deal.actor), -1 when over
    dealer: int
    trump_caller: int
    trump: str | None          # suit letter
    trump_note: str | None
    trump_card: str | None
    hidden_trump: HiddenTrump | None
    seats: list[SeatState]
    trick: list[PlayedCard]
    last: LastTrick | None
    piles: list[PileState]
    uses_centre: bool
    centre: int
    score: str | None
    message: str
    message_kind: str          # "info" | "error" | "note" | "hint"
    result: str | None
    actions: list[str]         # the viewer's moves other than playing a card (deal.moves)
    can_hint: bool
    hint: dict | None
    can_best_play: bool        # the "Best play" switch is offered (with show_all)
    best_play: BestPlay | None
    can_review: bool           # the Review button is offered
    review: ReviewStep | None  # the decision on show while stepping through a review
    done: int                  # bookkeeping for the next snapshot (which trick went where)
    piles_raw: list[int]


# ----------------------------------------------------------------------------- helpers
def _speaks(method):
    """Run a table method in the table's language (its refusals and messages included)."""
    @functools.wraps(method)
    def inner(self, *args, **kwargs):
        with using(self.language):
            return method(self, *args, **kwargs)
    return inner


def card_code(card) -> str:
    return card.code if hasattr(card, "code") else str(card)


def hint_payload(h) -> dict:
    """A Hint as the page sees it: the hinted card's code (a card of the viewer's hand) or,
    when a trump suit is to be called, the suit's letter; and the sentence."""
    what = h.card
    if hasattr(what, "code"):
        return {"card": what.code, "suit": None, "text": h.text}
    return {"card": None, "suit": what.letter, "text": h.text}


def cut(text: str, limit: int = 160) -> str:
    """``text`` cut to ``limit`` characters (an error's sentence inside a message)."""
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


def check_flag(value, name: str) -> bool:
    """``value`` when it is True or False, else a ValueError naming ``name``."""
    if not isinstance(value, bool):
        raise ValueError(tr("{name} is True or False, got {value!r}.", name=name,
                            value=quoted(value)))
    return value


def check_seat(value, name: str = "seat") -> int:
    """``value`` as a plain int when it is a seat number 0..3 (not a bool), else a
    ValueError naming ``name``."""
    from courtlearn.rules import check_seat as seat_number
    try:
        return seat_number(value)
    except ValueError:
        raise ValueError(tr("{name} is a seat number 0..3, got {value!r}.", name=name,
                            value=quoted(value))) from None


def check_table_deal(value):
    """``value`` when it is a Deal or a Session (what a table shows), else a TypeError."""
    from courtlearn.deal import Deal
    from courtlearn.session import Session
    if not isinstance(value, (Deal, Session)):
        raise TypeError(tr("A table shows a courtlearn Deal or Session, got {kind}.",
                           kind=type(value).__name__))
    return value


def check_bot(bot):
    """``bot`` when it can sit at a table (it has a ``choose(deal)`` method), else a
    ValueError."""
    if not callable(getattr(bot, "choose", None)):
        raise ValueError(tr("A bot is an object with a choose(deal) method, such as "
                            "cl.bots.RuleBot(); got {value!r}.", value=quoted(bot)))
    return bot


def check_players(players):
    """Four names, one per seat (None for a seat without one), as a list; None for none."""
    if players is None or (isinstance(players, (list, tuple)) and not players):
        return None
    if (not isinstance(players, (list, tuple)) or len(players) != 4
            or any(p is not None and not isinstance(p, str) for p in players)):
        raise ValueError(tr("players lists four names, one per seat (None where a seat has "
                            "none), got {value!r}.", value=quoted(players)))
    return list(players)


def check_controls(controls, seat: int, show_all: bool) -> frozenset:
    """The seats whose cards the viewer plays: ``seat`` and ``controls`` (seats 0..3)."""
    if controls is None:
        return frozenset({seat})
    if not isinstance(controls, (list, tuple, set, frozenset)):
        raise ValueError(tr("controls lists seats 0..3, got {value!r}.", value=quoted(controls)))
    try:
        out = frozenset(check_seat(c) for c in controls) | {seat}
    except ValueError:
        raise ValueError(tr("controls lists seats 0..3, got {value!r}.",
                            value=quoted(controls))) from None
    if out != {seat} and not show_all:
        raise ValueError(tr("Playing another seat's cards (controls) needs its hand face up: "
                            "show_all=True."))
    return out


def check_size(size) -> str:
    if not isinstance(size, str) or size not in SIZES:
        raise ValueError(tr("size is one of {sizes}, got {value!r}.", sizes=", ".join(SIZES),
                            value=quoted(size)))
    return size


def check_language(language):
    """None (follow cl.set_language) or a language code, checked."""
    if language is None:
        return None
    if not isinstance(language, str) or len(language) > 16:
        language = quoted(language)     # refused below, quoted short
    return language_code(language)


class _Size(traitlets.Unicode):
    """The ``size`` trait: one of SIZES (a ValueError otherwise)."""

    def validate(self, obj, value):
        return check_size(value)


class _Flag(traitlets.Bool):
    """A True/False trait that refuses anything else with a ValueError."""

    def validate(self, obj, value):
        return check_flag(value, self.name)


class _Speed(traitlets.Int):
    """Milliseconds between two moves drawn in the page: 0 to MAX_SPEED."""

    def validate(self, obj, value):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SPEED:
            raise ValueError(tr("speed is a number of milliseconds from 0 to {most}, got "
                                "{value!r}.", most=MAX_SPEED, value=quoted(value)))
        return value


def default_bot():
    """The bot of a seat that has none (Step on a bare table, cl.play's opponents)."""
    from courtlearn.bots import RuleBot
    return RuleBot()


# ----------------------------------------------------------------------------- snapshots
def names(rules) -> Names:
    """The words for seats, teams, the game, the suits and the ranks, in the language."""
    return {"game": rules.title, "seats": list(rules.seat_names()),
            "teams": [rules.team_name(0), rules.team_name(1)],
            "suits": {s.letter: {"symbol": s.symbol, "plural": suit_word(s)} for s in Suit},
            "ranks": {"A": rank_word(14), "K": rank_word(13), "Q": rank_word(12),
                      "J": rank_word(11)}}


def page_words() -> dict[str, str]:
    """The labels, buttons and tooltips the page draws, in the language; ``{name}`` parts
    are filled in by table.js. (Both languages count plurals as English does, n != 1, so
    the page picks the ``_one`` form for 1.)"""
    return {
        "dealer": tr("Dealer"), "caller": tr("Trump caller"),
        "to_fix": tr("to fix the trump"), "to_play": tr("to play"),
        "card": tr("{rank} of {suit}"), "face_down": tr("face-down card"),
        "hinted_card": tr("{card} (the hint)"), "hint_card": tr("The hint: play this card"),
        "hint_suit": tr("The hint: call this suit"),
        "best_tricks": tr("With best play from here: {value} tricks for this side"),
        "best_tens": tr("With best play from here: {value} tens for this side"),
        "a_best_card": tr("(a best card)"),
        "verdict_best": tr("Your choice: best"), "verdict_fine": tr("Your choice: fine"),
        "verdict_mistake": tr("Your choice: mistake"),
        "cost": tr("({cost} given away with best play)"), "better": tr("A better choice"),
        "decision": tr("Decision {n} of {count}"), "previous": tr("← Previous"),
        "next": tr("Next →"), "back": tr("Back to the deal"),
        "best_play": tr("Best play"),
        "best_play_title": tr("Mark each card of the player to move with its exact value when "
                              "every hand is known"),
        "tricks_one": plural_forms("{n} trick", "{n} tricks")[0],
        "tricks": plural_forms("{n} trick", "{n} tricks")[1],
        "pile": tr("{name}: {count}"), "open_trick": tr("the open trick"),
        "centre_pile": tr("centre pile: {count}"), "centre": tr("centre: {n}"),
        "trump": tr("Trump:"), "not_yet": tr("not yet"), "call_trump": tr("Call trump:"),
        "call_suit": tr("Call {suit}"),
        "defer_trump": tr("Defer the trump"), "ask_for_trump": tr("Ask for the trump card"),
        "play_on": tr("Play on for all thirteen"), "correct_revoke": tr("Correct the revoke"),
        "claim_revoke": tr("Claim a revoke"),
        "hint": tr("Hint"), "hint_title": tr("Suggest a move (from what you can see) and say why"),
        "review": tr("Review"), "review_title": tr("Step through your decisions with the coach"),
    }


def _seats(deal, v, viewer, show_all, live, players, controls=()) -> list[SeatState]:
    rules = deal.rules
    pos = positions(rules, viewer)
    to_act = deal.actor
    mine = {viewer, *controls} if show_all else {viewer}
    legal = [c.code for c in deal.legal_cards()] if live and v.to_play in mine and \
        str(v.phase) == "play" else []
    seats: list[SeatState] = []
    for s in range(4):
        hand = None
        if s == viewer:
            hand = [c.code for c in v.hand]
        elif show_all:
            hand = [c.code for c in deal.hand(s)]
        seats.append({
            "seat": s, "name": rules.seat_name(s), "pos": pos[s], "team": s % 2,
            "viewer": s == viewer, "controlled": s in mine, "hand": hand,
            "count": len(v.hand) if s == viewer else v.hand_sizes[s],
            "legal": legal if s == v.to_play and s in mine else [],
            "dealer": s == v.dealer, "caller": s == v.trump_caller, "turn": s == to_act,
            "player": (players[s] if players else None),
        })
    return seats


def _last_trick(v, rules, pos, prev) -> LastTrick | None:
    """The trick just completed, still on show until the next card (and where it went)."""
    if not v.tricks or v.trick.cards:
        return None
    if prev is not None and prev.get("last") and prev["done"] == len(v.tricks):
        return dict(prev["last"], fresh=False)           # the same completed trick, still on show
    t = v.tricks[-1]
    team = t.winner % 2
    in_centre = rules.has_pile and any(c is t or c == t for c in v.centre)
    captured = 1
    if prev is not None and not in_centre:
        captured = max(1, v.tricks_won[team] - prev["piles_raw"][team])
    return {"cards": [{"seat": s, "card": c.code, "pos": pos[s]} for s, c in t.cards],
            "winner": t.winner, "fresh": prev is not None and prev["done"] < len(v.tricks),
            "to": "centre" if in_centre else "team", "to_team": team, "captured": captured}


def _trump(deal, v, viewer, show_all) -> dict:
    """The trump as the viewer may know it: the suit, a note while there is none, the
    card that fixed it, and a face-down trump card (its identity for its owner only)."""
    hidden = None
    if v.hidden_trump:
        seen = None
        if show_all and deal.hidden_trump_card is not None:
            seen = deal.hidden_trump_card.code
        elif viewer == v.trump_caller and v.trump_card is not None:
            seen = v.trump_card.code                # its owner knows it (trump_method "hidden")
        hidden = {"seat": v.trump_caller, "card": seen}
        trump_card = None
    else:
        trump_card = deal.trump_card
    note = None
    if v.trump is None:
        if str(v.phase) == "trump":
            note = tr("not chosen yet")
        elif v.hidden_trump:
            note = tr("hidden: no trumps until it is shown")
        elif deal.rules.trump_method == "first_void":
            note = tr("none until a player cannot follow suit")
        else:
            note = tr("none")
    return {"trump": v.trump.letter if v.trump is not None else None, "trump_note": note,
            "trump_card": trump_card.code if trump_card is not None else None,
            "hidden_trump": hidden}


def offered_actions(deal, viewer: int) -> list[str]:
    """The buttons the viewer gets: their moves from ``deal.moves`` other than a card.

    One teaching choice is the table's, not a rule: where revokes are allowed, the claim
    button is there through the play even when no claim would stand, so that spotting a
    revoke stays the learner's job (a wrong claim is refused with the engine's reason).
    """
    kinds = [m.kind for m in deal.moves(viewer) if m.kind != "play"]
    if (deal.rules.revokes == "allowed" and str(deal.phase) == "play" and deal.tricks
            and "claim_revoke" not in kinds):
        kinds.append("claim_revoke")
    return kinds


def _score(session, rules) -> str | None:
    if session is None:
        return None
    courts = session.courts
    team, n = session.streak
    text = tr("Courts: {ns} {ns_courts}, {ew} {ew_courts}", ns=rules.team_name(0),
              ns_courts=courts[0], ew=rules.team_name(1), ew_courts=courts[1])
    if team is not None and n:
        text += " \u00b7 " + tr("streak: {side} {n}", side=rules.team_name(team), n=n)
    return text


def _title(deal, v, replay: bool) -> str:
    text = f"{deal.rules.title} \u00b7 {stage_words(v)}"
    if replay:
        text += " \u00b7 " + tr("replay: move {n}", n=len(deal.actions))
    return text


def snapshot(deal, viewer: int, *, show_all: bool = False, session=None, prev=None,
             message: str | None = None, kind: str = "info", replay: bool = False,
             players=None, hints: bool = False, hint: dict | None = None,
             best_play: dict | None = None, review: dict | None = None,
             controls=()) -> Snapshot:
    """What the page may show: built from ``deal.view(viewer)``; other hands only as
    counts unless ``show_all`` (the teacher's view). JSON-compatible.
    hints: offer the Hint button when the viewer is to act; hint: the hint on show
    (hint_payload), computed from the viewer's own view. controls: more seats whose cards
    the viewer plays (with show_all only)."""
    rules = deal.rules
    v = deal.view(viewer)
    phase = str(v.phase)
    live = not replay
    pos = positions(rules, viewer)
    to_act = deal.actor
    if not live:
        hint = None
    if message is None and hint is not None:
        message, kind = hint["text"], "hint"
    if message is None:
        message = v.events[-1].text if v.events else tr("{seat} dealt.",
                                                         seat=rules.seat_name(v.dealer))
        kind = "info"
    return {
        "game": rules.game, "title": _title(deal, v, replay), "names": names(rules),
        "lang": get_language(), "dir": text_direction(), "words": page_words(),
        "viewer": viewer, "show_all": bool(show_all), "replay": bool(replay), "phase": phase,
        "to_play": to_act if to_act is not None else -1,
        "dealer": v.dealer, "trump_caller": v.trump_caller,
        **_trump(deal, v, viewer, show_all),
        "seats": _seats(deal, v, viewer, show_all, live, players, controls),
        "trick": [{"seat": s, "card": c.code, "pos": pos[s]} for s, c in v.trick.cards],
        "last": _last_trick(v, rules, pos, prev),
        "piles": [{"team": t, "name": rules.team_name(t), "count": v.tricks_won[t],
                   "mine": t == viewer % 2} for t in (0, 1)],
        "uses_centre": rules.has_pile, "centre": len(v.centre),
        "score": _score(session, rules), "message": message, "message_kind": kind,
        "result": result_sentence(deal) if phase == "over" and deal.result is not None else None,
        "actions": offered_actions(deal, viewer) if live else [],
        "can_hint": bool(hints and live and to_act == viewer and phase in ("trump", "play")),
        "hint": hint,
        "can_best_play": bool(show_all and live),
        "best_play": best_play if show_all and live else None,
        "can_review": bool(hints and live and len(deal.actions) > 0),
        "review": review if replay else None,
        "done": len(v.tricks), "piles_raw": list(v.tricks_won),
    }


def result_sentence(deal) -> str:
    r = deal.result
    side = deal.rules.team_name(r.winner)
    text = {"tricks": tr("Deal over: {side} win on tricks", side=side),
            "court": tr("Deal over: {side} win with a court", side=side),
            "goon": tr("Deal over: {side} win with a goon court", side=side),
            "bavney": tr("Deal over: {side} win with a bavney (all 52)", side=side),
            "revoke": tr("Deal over: {side} win on a revoke claim", side=side),
            "tens": tr("Deal over: {side} win on tens", side=side),
            "kot": tr("Deal over: {side} win with a kot (all four tens)", side=side)}[r.kind]
    if r.courts:
        text += ", " + trn("{n} court", "{n} courts", r.courts)
    if r.tricks:
        text += ". " + tr("Tricks {ns}\u2013{ew}", ns=r.tricks[0], ew=r.tricks[1])
    return text + "."


# ----------------------------------------------------------------------------- the widget
class CardTable(anywidget.AnyWidget):
    """A card table showing and playing one Deal (or a Session's current deal).

    seat: the viewer (their hand face up, their clicks play for them).
    bots: None (nobody plays by itself), one bot for every other seat, a list of
    four (None for a human seat) or a dict {seat: bot}.
    show_all: the teacher's view, every hand face up. size: "normal" or "large"
    (classroom projector; "presenter" is the same), "small".
    language: "en", "ur" or "hi" for this table's words and sentences, refusals included
    (None: the language of :func:`courtlearn.set_language` at each moment).
    """

    _esm = STATIC / "table.js"
    _css = STATIC / "table.css"

    state = traitlets.Dict().tag(sync=True)
    animate = _Flag(True).tag(sync=True)
    size = _Size("normal").tag(sync=True)
    speed = _Speed(450).tag(sync=True)      # ms between two moves drawn in the page
    # the fonts of Urdu and Hindi ({family: woff2 bytes}), sent once the table first speaks
    # either (the lessons mix the two scripts, in the glossary for one)
    fonts = traitlets.Dict().tag(sync=True)

    def __init__(self, deal_or_session, seat: int = 0, bots=None, show_all: bool = False,
                 size: str = "normal", animate: bool = True, players=None, hints: bool = True,
                 controls=None, language: str | None = None, **kwargs):
        # every argument is checked before anything is made: a refusal leaves no table
        check_table_deal(deal_or_session)
        language = check_language(language)
        check_size(size)
        seat = check_seat(seat)
        check_flag(show_all, "show_all")
        check_flag(hints, "hints")
        check_flag(animate, "animate")
        controls = check_controls(controls, seat, show_all)
        players = check_players(players)
        bots = self._bot_map(bots, seat)
        super().__init__(size=size, animate=animate, **kwargs)
        if hasattr(deal_or_session, "next_deal"):
            self.session = deal_or_session
            self._deal = None
        else:
            self.session = None
            self._deal = deal_or_session
        self._seat = seat
        self._language = language         # None: follow cl.set_language
        self.controls = controls          # the seats whose cards the viewer plays
        self._show_all = show_all
        self.players = players
        self._bots = bots
        self._autoplay = True             # bots answer by themselves after a move
        self._replay: int | None = None    # None: live; n: the deal after its first n events
        self._rev = 0
        self._last = None                  # the last snapshot sent (for what moved where)
        self._next_seed = None
        self._hints = hints
        self._hint = None                  # (state key, Hint) of the hint on show
        self._best_play = False            # the "Best play" marks (with show_all)
        self._review = None                # [state key, exact, Review, decision on show]
        self._solved = None                # (state key, Solution or the note why none)
        self.on_msg(self._on_msg)
        frames: list = []
        error = self._run_bots(frames)
        self._sync(frames, message=error, kind="error" if error else "info")

    # ------------------------------------------------------------------ properties
    @property
    def deal(self):
        """The Deal on the table now."""
        return self.session.deal if self.session is not None else self._deal

    @property
    def show_all(self) -> bool:
        return self._show_all

    @show_all.setter
    def show_all(self, value: bool) -> None:
        check_flag(value, "show_all")
        if not value and self.controls != {self.seat}:
            raise ValueError(tr("Playing another seat's cards (controls) needs its hand face "
                                "up: show_all=True."))
        self._show_all = value
        self._sync([])

    @property
    def best_play(self) -> bool:
        """With ``show_all``: mark each card of the player to move with its exact value
        (cl.solve: the team's total with perfect play), the best ones highlighted, where
        the solver answers quickly (the last six tricks; Court Piece always with DDS)."""
        return self._best_play

    @best_play.setter
    def best_play(self, value: bool) -> None:
        self._best_play = check_flag(value, "best_play")
        self._sync([])

    def _best_payload(self):
        """The Best play marks for the player to move, or a note why there are none. A
        solver that refuses the position gives its sentence as the note; the marks are an
        extra that never fails the move or the snapshot behind them."""
        if not self._best_play:
            return {"on": False, "seat": -1, "values": None, "best": [], "measure": "",
                    "note": None}
        deal = self.deal
        out = {"on": True, "seat": deal.to_play if deal.phase == "play" else -1,
               "values": None, "best": [],
               "measure": "tens" if deal.rules.game == "dehla_pakad" else "tricks", "note": None}
        if deal.phase != "play":
            out["note"] = tr("Best play is shown while the cards are being played.")
            return out
        if deal.hidden_trump_card is not None:
            out["note"] = tr("Best play needs the trump: it is still face down.")
            return out
        left = 13 - len(deal.tricks)
        if not solves_quickly(deal, BEST_PLAY_TRICKS):
            out["note"] = tr("Best play is worked out in the last {n} tricks ({left} to go).",
                             n=BEST_PLAY_TRICKS, left=left)
            return out
        key = self._state_key()
        if self._solved is None or self._solved[0] != key:
            self._solved = (key, self._solve(deal))
        sol = self._solved[1]
        if isinstance(sol, str):
            out["note"] = sol
            return out
        out["values"] = {c.code: v for c, v in sol.values.items()}
        out["best"] = [c.code for c in sol.best]
        return out

    @staticmethod
    def _solve(deal):
        """cl.solve's Solution for the position, or the sentence of its refusal (a
        ValueError: a position too large for its budget, one DDS cannot take, ...)."""
        try:
            return fast_solve(deal)
        except ValueError as err:
            return str(err)
        except Exception as err:         # a bug in the solver: the table says so and plays on
            log.exception("Best play failed")
            return tr("Something went wrong: {error}", error=cut(str(err)))

    @property
    def hints(self) -> bool:
        """Whether the Hint button is offered (switch off for a test of the learner)."""
        return self._hints

    @hints.setter
    def hints(self, value: bool) -> None:
        self._hints = check_flag(value, "hints")
        if not self._hints:
            self._hint = None
        self._sync([])

    def _bot_map(self, bots, seat: int | None = None) -> dict:
        """{seat: bot} from what ``bots`` may be (see the class's doc), every bot checked."""
        seat = self.seat if seat is None else seat
        if bots is None:
            return {}
        if isinstance(bots, dict):
            out = {}
            for k, b in bots.items():
                try:
                    k = check_seat(k)
                except ValueError:
                    raise ValueError(tr("bots maps seats 0..3 to bots, got the seat {value!r}.",
                                        value=quoted(k))) from None
                if b is not None:
                    out[k] = b
        elif isinstance(bots, (list, tuple)):
            if len(bots) != 4:
                raise ValueError(tr("bots as a list needs four entries, one per seat (None for "
                                    "a person); got {n}.", n=len(bots)))
            out = {s: b for s, b in enumerate(bots) if b is not None}
        else:
            out = {s: bots for s in range(4) if s != seat}
        for b in out.values():
            check_bot(b)
        return out

    @property
    def bots(self) -> dict:
        """{seat: bot}: the seats that play by themselves. Set it as the constructor's
        ``bots`` (None, one bot, a list of four, a dict)."""
        return self._bots

    @bots.setter
    def bots(self, value) -> None:
        self._bots = self._bot_map(value)

    @property
    def autoplay(self) -> bool:
        """Whether bots answer by themselves after a move (True or False)."""
        return self._autoplay

    @autoplay.setter
    def autoplay(self, value: bool) -> None:
        self._autoplay = check_flag(value, "autoplay")

    @property
    def seat(self) -> int:
        """The viewer: their hand face up, their clicks play for them."""
        return self._seat

    @seat.setter
    def seat(self, value: int) -> None:
        value = check_seat(value)
        old = self._seat
        if old != value:
            self.controls = frozenset(self.controls - {old}) | {value}
            self._hint = None
            self._review = None
        self._seat = value
        self._sync([])

    @property
    def language(self) -> str | None:
        """This table's language ("en", "ur", "hi"), or None: cl.set_language's."""
        return self._language

    @language.setter
    def language(self, value) -> None:
        self._language = check_language(value)

    # ------------------------------------------------------------------ state to the page
    def _snap(self, message=None, kind="info"):
        deal, replay = self.deal, False
        if self._replay is not None:
            deal, replay = self._replayed(self._replay), True
        prev = self._last if self._last is not None and not replay else None
        shown = None
        if self._hint is not None and not replay:
            if self._hint[0] == self._state_key():
                shown = hint_payload(self._hint[1])
            else:
                self._hint = None          # the deal moved on: the hint is stale
        step = self._review_payload() if replay else None
        if step is not None and message is None:
            message, kind = step["text"], ("error" if step["verdict"] == "mistake" else "note")
        best = self._best_payload() if self._show_all and not replay else None
        snap = snapshot(deal, self.seat, show_all=self._show_all, session=self.session, prev=prev,
                        message=message, kind=kind, replay=replay, players=self.players,
                        hints=self._hints, hint=shown, controls=self.controls,
                        best_play=best, review=step)
        if not replay:
            self._last = snap
        return snap

    def _sync(self, frames, message=None, kind="info", follows=False, more=False):
        """Send the page the snapshots taken after each action (or the current one).
        `follows`: these moves answer the picture sent just before (drawn after a pause);
        `more`: bot moves are coming in the next message (the page stays busy)."""
        if not frames or message is not None:
            with using(self.language):
                frames = [*frames, self._snap(message, kind)]
        self._send_fonts(frames[-1].get("lang", "en"))
        self._rev += 1
        self.state = {"rev": self._rev, "frames": list(frames), "follows": bool(follows),
                      "more": bool(more)}

    def _send_fonts(self, lang: str) -> None:
        """Give the page the fonts of Urdu and Hindi once the table speaks one of them (the
        bytes travel once per table; the page adds each family once)."""
        if lang in FONTS and not self.fonts:
            self.fonts = {family: path.read_bytes() for family, path in FONTS.values()}

    def _record(self, frames):
        with using(self.language):
            frames.append(self._snap())

    def _state_key(self):
        """Identifies the moment of the deal a hint was given for."""
        deal = self.deal
        return (id(deal), tuple(str(a) for a in deal.actions))

    def _replayed(self, n):
        return self.deal.replay(n)

    # ------------------------------------------------------------------ bots
    def _run_bots(self, frames) -> str | None:
        """Bot seats act until a person is to act or the deal is over. Returns None, or
        the sentence saying that a bot could not move (the moves before it stand; a bot is
        anyone's code, so its failure is shown, logged, and never raised)."""
        n = 0
        if not self.bots or not self.autoplay:
            return None
        while n < MAX_BOT_MOVES:
            who = self.deal.actor
            if who is None or who not in self.bots:
                break
            try:
                act(self.bots[who], self.deal)
            except Exception as err:
                log.warning("The bot of seat %s could not move", who, exc_info=True)
                return tr("A bot could not move: {error}", error=cut(str(err)))
            self._record(frames)
            n += 1
        return None

    # ------------------------------------------------------------------ messages from the page
    def _on_msg(self, _widget, content, _buffers=None):
        """An intent from the page: carried out, or refused with a sentence. Either way the
        page gets a reply to its request id: ``{"reply_to": id, "ok": true}`` or
        ``{"reply_to": id, "ok": false, "reason": "..."}`` (and the state it shows).

        Nothing the page sends can raise out of here: a refusal is a sentence, and a
        failure of the table's own code (a bug) is logged and answered as a refusal. A
        move the deal took is answered ok whatever follows it (bots, Best play marks)."""
        rid = content.get("id") if isinstance(content, dict) else None
        with using(self.language):
            try:
                self._handle(content)
            except Refused as err:
                self._refuse(rid, str(err))
            except Exception as err:
                log.exception("The table could not answer a message from the page")
                self._refuse(rid, tr("Something went wrong: {error}", error=cut(str(err))))
            else:
                self._reply(rid, True)

    def _refuse(self, rid, reason: str) -> None:
        """Show a refusal in the message line and answer the request with it."""
        try:
            self._sync([], message=reason, kind="error")
        except Exception:
            log.exception("The table could not show a refusal")
        self._reply(rid, False, reason)

    def _reply(self, rid, ok: bool, reason: str | None = None) -> None:
        if not isinstance(rid, int) or isinstance(rid, bool):
            return                       # an intent without a request id needs no answer
        msg = {"reply_to": rid, "ok": ok}
        if reason is not None:
            msg["reason"] = reason
        self.send(msg)

    @staticmethod
    def _intent(content) -> tuple[str, tuple]:
        """The move a message from the page asks for, as (kind, arguments); a malformed or
        forged message is refused here, before the deal sees it."""
        if (not isinstance(content, dict) or not isinstance(content.get("type"), str)
                or content["type"] not in MESSAGE_TYPES):
            raise Refused(tr("The table ignored a message it does not understand; nothing "
                             "changed."))
        kind = content["type"]
        rid = content.get("id")
        if (set(content) - {"type", "id"} - MESSAGE_KEYS.get(kind, set())
                or "id" in content and (isinstance(rid, bool) or not isinstance(rid, int))):
            raise Refused(tr("The table ignored a message it does not understand; nothing "
                             "changed."))
        if kind in ("play", "choose_trump_card"):
            code = content.get("card")
            if not isinstance(code, str) or not CARD_CODE.match(code):
                raise Refused(tr("The table ignored a message naming no card; nothing changed."))
            return kind, (Card.parse(code),)
        if kind == "call_trump":
            letter = content.get("suit")
            if not isinstance(letter, str) or letter not in "SHCD" or len(letter) != 1:
                raise Refused(tr("The table ignored a message naming no suit; nothing changed."))
            return kind, (Suit.parse(letter),)
        if kind == "review":
            index = content.get("index")
            if isinstance(index, bool) or not isinstance(index, int):
                raise Refused(tr("The table ignored a Review step that named no decision."))
            return kind, (index,)
        if kind == "best_play":
            on = content.get("on")
            if not isinstance(on, bool):
                raise Refused(tr("The table ignored a Best play switch that was neither on nor "
                                 "off."))
            return kind, (on,)
        return kind, ()

    def _refusal(self, kind: str, args: tuple) -> str | None:
        """Why the viewer may not make this move now (None if they may): the deal's own
        sentence (``verify_X``), or, for a move that is someone else's to make, whose turn
        it is (the deal cannot know who clicked)."""
        deal, me = self.deal, self.seat
        rules = deal.rules
        if kind == "claim_revoke":
            args = (me,)
        seat_bound = kind in ("play", "call_trump", "choose_trump_card", "defer_trump",
                              "ask_for_trump")
        if seat_bound and deal.actor is not None and deal.actor not in self.controls:
            return tr("It is {seat}'s turn, not {viewer}'s.", seat=rules.seat_name(deal.actor),
                      viewer=rules.seat_name(me))
        if seat_bound and deal.actor is not None:
            me = deal.actor                  # a partner's card the viewer plays (controls)
        try:
            getattr(deal, "verify_" + kind)(*args)
        except ValueError as err:          # IllegalPlay, CardError and the deal's other refusals
            return getattr(err, "reason", None) or str(err)
        if kind != "claim_revoke" and kind not in {m.kind for m in deal.moves(me)}:
            return tr("{seat} cannot make that move now; nothing changed.",
                      seat=rules.seat_name(me))
        return None

    def _handle(self, content):
        kind, args = self._intent(content)
        if kind == "review":
            if not self._hints:        # the page offers Review only with the Hint button
                raise Refused(tr("Hints are switched off at this table, and the review with "
                                 "them."))
            self._start_review(*args)
            return
        if kind == "review_close":
            self.close_review()
            return
        if self._replay is not None:
            raise Refused(tr("You are looking back at an earlier moment: move the replay to the "
                             "end to play."))
        if kind == "hint":
            self._give_hint()
            return
        if kind == "best_play":
            if not self._show_all:
                raise Refused(tr("Best play is shown with all hands face up (show_all=True)."))
            self.best_play = args[0]
            return
        reason = self._refusal(kind, args)
        if reason is not None:
            raise Refused(reason)
        deal = self.deal
        try:
            getattr(deal, kind)(*(args if kind != "claim_revoke" else (self.seat,)))
        except ValueError as err:       # the deal refused after all: it changed nothing
            raise Refused(getattr(err, "reason", None) or str(err)) from None
        try:
            self._after_move()
        except Exception:               # the move stands and is answered ok
            log.exception("The table could not show a move the deal took")

    def _after_move(self):
        """Show a move the viewer made, then let the bots answer and show theirs."""
        frames: list = []
        self._record(frames)
        who = self.deal.actor
        more = self.autoplay and who is not None and who in self.bots
        self._sync(frames, more=more)   # the viewer's own move goes out first: no waiting on bots
        if more:
            frames = []
            error = self._run_bots(frames)
            self._sync(frames, message=error, kind="error" if error else "info", follows=True)

    def _give_hint(self):
        """Compute the viewer's hint from the viewer's own view, show it, return it."""
        deal, me = self.deal, self.seat
        name = deal.rules.seat_name(me)
        if not self._hints:
            raise Refused(tr("Hints are switched off at this table."))
        who = deal.actor
        if who is None:
            raise Refused(tr("The deal is over: there is nothing to hint."))
        if who != me:
            raise Refused(tr("A hint is for {seat}'s own turn; it is {other}'s turn now.",
                             seat=name, other=deal.rules.seat_name(who)))
        from courtlearn.bots import hint
        try:
            h = hint(deal, me)            # decides from deal.view(me) only
        except ValueError as err:
            raise Refused(tr("No hint here: {reason}.", reason=cut(str(err)))) from None
        except Exception as err:          # a bug behind the hint: a sentence, not a crash
            log.exception("The hint failed")
            raise Refused(tr("No hint here: {reason}.", reason=tr(
                "Something went wrong: {error}", error=cut(str(err))))) from None
        self._hint = (self._state_key(), h)
        self._sync([], message=h.text, kind="hint")
        return h

    # ------------------------------------------------------------------ the Python API
    @_speaks
    def hint(self):
        """Suggest a move for the viewer's seat (computed from what that seat may know),
        highlight it on the table, show why in the message area, and return the Hint.
        Refused (a ValueError, also shown) when it is not the viewer's turn, and when no
        hint can be worked out (the reason in the message area)."""
        shown = self._replay
        self._replay = None
        try:
            return self._give_hint()
        except Refused as err:
            self._replay = shown
            self._sync([], message=str(err), kind="error")
            raise

    @_speaks
    def _act(self, fn, *args):
        """Run an engine action (for whoever is to act), show it, let the bots answer. A
        refused action (ValueError, TypeError) is shown and raised, and changes nothing."""
        try:
            fn(*args)
        except (ValueError, TypeError) as err:
            self._sync([], message=cut(getattr(err, "reason", None) or str(err)), kind="error")
            raise
        self._replay = None
        frames: list = []
        self._record(frames)
        error = self._run_bots(frames)
        self._sync(frames, message=error, kind="error" if error else "info")
        return self

    def play(self, card):
        """Play `card` ("AS", "10H", a Card) for whoever is to play; raises the engine's
        IllegalPlay (and shows its reason) when it is not allowed."""
        return self._act(self.deal.play, card)

    def call_trump(self, suit):
        """Name the trump suit for the trump caller ("S", "spades", a Suit)."""
        return self._act(self.deal.call_trump, suit)

    def choose_trump_card(self, card):
        return self._act(self.deal.choose_trump_card, card)

    def defer_trump(self, number=None):
        return self._act(lambda: self.deal.defer_trump(number) if number is not None else self.deal.defer_trump())

    def ask_for_trump(self):
        return self._act(self.deal.ask_for_trump)

    def play_on(self):
        return self._act(self.deal.play_on)

    def correct_revoke(self):
        return self._act(self.deal.correct_revoke)

    def claim_revoke(self, seat=None):
        return self._act(self.deal.claim_revoke, self.seat if seat is None else seat)

    @_speaks
    def step(self):
        """Make the next move with the bot of the seat to act (a RuleBot for a seat with
        none, so a bare table can be stepped through). Returns the table."""
        who = deciding_seat(self.deal)
        if who is None:
            self._sync([], message=tr("The deal is over: nothing to step."), kind="error")
            return self
        bot = self.bots.get(who) or default_bot()
        self._replay = None
        frames: list = []
        try:
            done = act(bot, self.deal)
        except Exception as err:          # a bot is anyone's code: shown and logged
            log.warning("The bot of seat %s could not move", who, exc_info=True)
            self._sync([], message=tr("A bot could not move: {error}", error=cut(str(err))),
                       kind="error")
            return self
        if not done:
            self._sync([], message=tr("The deal is over: nothing to step."), kind="error")
            return self
        self._record(frames)
        self._sync(frames)
        return self

    @_speaks
    def undo(self):
        """Take back the last move of a person (and the bot moves after it)."""
        self._replay = None
        deal = self.deal
        undone = 0
        while True:
            try:
                deal.undo()
            except (ValueError, IndexError):
                break
            undone += 1
            who = deal.actor
            if who is None or who not in self.bots:
                break
        if not undone:
            self._sync([], message=tr("Nothing to take back."), kind="error")
            return self
        self._last = None
        self._hint = None
        self._sync([], message=trn("Took back {n} move.", "Took back {n} moves.", undone),
                   kind="note")
        return self

    @_speaks
    def new_deal(self, seed=None):
        """Start the next deal: the Session's next deal, or a fresh shuffle of the same
        rules (``seed``: None for the next one, or a whole number or text)."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
            raise ValueError(tr("seed is a whole number or text, got {value!r}.",
                                value=quoted(seed)))
        if self.session is not None:
            try:
                self.session.next_deal()
            except ValueError as err:
                self._sync([], message=str(err), kind="error")
                raise
        else:
            from courtlearn.deal import Deal
            old = self._deal
            if seed is None:
                if self._next_seed is None:
                    base = getattr(old, "seed", None)
                    self._next_seed = (base + 1) if isinstance(base, int) else 1
                seed = self._next_seed
                self._next_seed += 1
            self._deal = Deal(old.rules, dealer=(old.dealer + 1) % 4, seed=seed)
        self._replay = None
        self._fresh()
        return self

    def set_deal(self, deal_or_session):
        """Put another Deal (or Session) on the table (anything else: a TypeError, and the
        table keeps its deal)."""
        check_table_deal(deal_or_session)
        if hasattr(deal_or_session, "next_deal"):
            self.session, self._deal = deal_or_session, None
        else:
            self.session, self._deal = None, deal_or_session
        self._replay = None
        self._fresh()
        return self

    def _fresh(self):
        """Show a deal just put on the table, after the bots' first moves."""
        self._last = None
        self._hint = None
        self._review = None
        frames: list = []
        error = self._run_bots(frames)
        self._sync(frames, message=error, kind="error" if error else "info")

    def replay(self, n=None):
        """Show the deal after its first `n` actions, 0 to the number of actions so far
        (None, or that number: back to the live deal)."""
        if n is not None:
            total = len(self.deal.actions)
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= total:
                raise ValueError(tr("replay takes a number of moves from 0 to {n} (or None for "
                                    "the live deal), got {value!r}.", n=total, value=quoted(n)))
            if n == total:
                n = None
        self._replay = n
        self._sync([])
        return self

    # ------------------------------------------------------------------ the coach's review
    @_speaks
    def review(self, index: int = 0):
        """Step through the viewer's decisions in this deal with the coach (``cl.review``):
        the table shows the moment of decision ``index`` (0 is the first), the chosen card
        marked best, fine or mistake (with what it cost), and the coach's sentence in the
        message line. Returns the Review. ``close_review()`` goes back to the live deal.

        While the deal is still being played (and the other hands are face down), the
        decisions are judged by the chances the viewer could see: best play with all
        hands known comes once the deal is over, or at a table with ``show_all``."""
        if isinstance(index, bool) or not isinstance(index, int):
            raise ValueError(tr("review takes the number of a decision (0 is the first), got "
                                "{value!r}.", value=quoted(index)))
        try:
            return self._start_review(index)
        except Refused as err:
            self._sync([], message=str(err), kind="error")
            raise

    def close_review(self):
        """Leave the review and show the live deal again."""
        self._review = None
        self._replay = None
        self._sync([])
        return self

    def _exact_review(self) -> bool:
        """Whether the review may judge by all four hands: once the deal is over, or at a
        table that shows every hand (before that it would tell hidden cards)."""
        return self._show_all or self.deal.phase == "over"

    def _start_review(self, index: int):
        key, exact = self._state_key(), self._exact_review()
        if self._review is None or self._review[:2] != [key, exact]:
            self._review = [key, exact, self._coach_review(exact), 0]
        rv = self._review[2]
        if not rv.decisions:
            raise Refused(tr("{seat} has made no decision in this deal yet: there is nothing to "
                             "review.", seat=self.deal.rules.seat_name(self.seat)))
        if not 0 <= index < len(rv.decisions):
            raise Refused(tr("The review has decisions 1 to {n}.", n=len(rv.decisions)))
        self._review[3] = index
        self._replay = rv.decisions[index].action
        self._sync([])
        return rv

    def _coach_review(self, exact: bool):
        """cl.review of the viewer's decisions (a failure of it is a refusal, logged)."""
        from courtlearn.coach import review
        try:
            return review(self.deal, self.seat, progress=False, exact=exact)
        except ValueError as err:
            raise Refused(cut(str(err))) from None
        except Exception as err:
            log.exception("The review failed")
            raise Refused(tr("Something went wrong: {error}", error=cut(str(err)))) from None

    def _review_payload(self):
        if (self._review is None
                or self._review[:2] != [self._state_key(), self._exact_review()]):
            return None
        _, _, rv, i = self._review
        d = rv.decisions[i]
        if self._replay != d.action:
            return None
        def code(x):
            return x.letter if hasattr(x, "letter") and not hasattr(x, "rank") else x.code
        better = [] if d.chosen == d.best else [code(d.best)]
        better += [c.code for c in d.exact_best if c.code not in better and c != d.chosen]
        verdict = "mistake" if d.mistake else ("best" if not better else "fine")
        return {"index": i, "count": len(rv.decisions), "kind": d.kind, "chosen": code(d.chosen),
                "best": better, "verdict": verdict, "cost": d.cost, "text": d.text}

    def resume(self):
        """Let the bot seats act now (after Auto-play was switched back on)."""
        self._replay = None
        frames: list = []
        error = self._run_bots(frames)
        self._sync(frames, message=error, kind="error" if error else "info")
        return self

    def refresh(self):
        self._sync([])
        return self

    def set_state(self, sync_data):
        """The page never changes the table's own traits (it sends intents, see
        :meth:`_on_msg`): an update of them from the page is ignored, so a forged one can
        change nothing."""
        rest = {k: v for k, v in sync_data.items() if k not in PAGE_READ_ONLY}
        if rest:
            super().set_state(rest)

    # ------------------------------------------------------------------ representations
    def __repr__(self) -> str:
        with using("en"):                   # a repr is for programs: always in English
            return self._repr()

    def _repr(self) -> str:
        deal = self.deal
        rules = deal.rules
        phase = str(deal.phase)
        who = deal.actor
        if phase == "trump":
            where = f"{rules.seat_name(who)} to call trump"
        elif phase == "play":
            where = f"trick {len(deal.tricks) + 1}, {rules.seat_name(who)} to play"
        else:
            where = "deal over"
        extra = ", show_all" if self._show_all else ""
        return f"CardTable({getattr(rules, 'game', '?')}, seat={self.seat}{extra}, {where})"

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        if isinstance(data, tuple):
            data, meta = data
        else:
            meta = None
        data = dict(data or {})
        html = self._picture()
        if html:
            data["text/html"] = html
        data["text/plain"] = repr(self)
        return (data, meta) if meta is not None else data

    def _picture(self):
        """The static table (render.deal_html) stored beside the live widget, for places with
        no kernel: GitHub, nbviewer, an HTML or PDF export."""
        try:
            from courtlearn.render import deal_html
            return deal_html(self.deal, seat=self.seat, show_all=self._show_all)
        except Exception:          # a picture is a courtesy; never break the display
            return None
