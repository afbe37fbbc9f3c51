"""The card table without the widget: what the notebook's CardTable and the class server share.

A :class:`Table` holds what everyone at one table shares: the Deal (or the Session whose
current deal it is), the bots in their seats and whether they answer by themselves. A
:class:`Seat` is one viewer's window on it: which seat they sit in, whether every hand is
face up, the hint on show, the review being stepped through, the Best play marks. Its
:meth:`Seat.snapshot` is what the page draws (built from ``deal.view(seat)``, see
:func:`snapshot`) and its :meth:`Seat.handle` takes what the page sends (``{"type":
"play", "card": "QS", "id": 7}``): checked, then carried out by the engine (the only
judge) or refused with a sentence (:class:`Refused`, a ValueError) that changes nothing.

No widget library is imported here: the notebook's CardTable moves these snapshots and
intents over a Jupyter comm, the class server over a WebSocket. Neither adds a rule.

>>> import courtlearn as cl
>>> table = Table(cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7),
...               bots={1: cl.bots.RuleBot(), 3: cl.bots.RuleBot()})
>>> south, north = Seat(table, 0), Seat(table, 2)       # two people, two bots
>>> south.snapshot()["seats"][2]["hand"], north.snapshot()["seats"][2]["count"]
(None, 5)
>>> try:
...     north.handle({"type": "call_trump", "suit": "S", "id": 1})
... except Refused as err:                             # refused: nothing changed
...     print(err)
It is South's turn, not North's.
>>> south.handle({"type": "call_trump", "suit": "S", "id": 2})
Outcome(moved=True, message=None, kind='info', value=None)
>>> card = south.snapshot()["seats"][0]["legal"][0]
>>> south.handle({"type": "play", "card": card}).moved  # store it, answer ok, then:
True
>>> pictures = {0: [], 2: []}                         # every seat's view of each bot move
>>> table.run_bots(lambda: [pictures[s.seat].append(s.snapshot()) for s in (south, north)])
>>> len(pictures[2]), table.deal.actor                # East played; North's turn now
(1, 2)
>>> north.handle({"type": "hint"}).kind               # only North's window changes
'hint'
"""
from __future__ import annotations

import functools
import logging
import re
from typing import NamedTuple, TypedDict

from courtlearn import language as _language
from courtlearn.bots import act, deciding_seat
from courtlearn.cards import Card, Suit, quoted
from courtlearn.coach import fast_solve, solves_quickly
from courtlearn.language import (get_language, language_code, plural_forms, rank_word,
                                 suit_word, tr, trn, using)
from courtlearn.render import positions, stage_words

__all__ = ["Table", "Seat", "Outcome", "Score", "Refused", "snapshot", "hint_payload", "names",
           "page_words", "offered_actions", "result_sentence", "bot_map", "Snapshot"]

CARD_CODE = re.compile(r"^(10|[2-9JQKA])[SHCD]$")
MESSAGE_TYPES = ("play", "call_trump", "choose_trump_card", "defer_trump", "ask_for_trump",
                 "play_on", "correct_revoke", "claim_revoke", "hint", "best_play", "review",
                 "review_close")
# the keys each message from the page may carry, besides "type" and the request "id"
MESSAGE_KEYS = {"play": {"card"}, "choose_trump_card": {"card"}, "call_trump": {"suit"},
                "review": {"index"}, "best_play": {"on"}}
# the moves a seat makes with its own cards (the others are anyone's: claims, play on, ...)
SEAT_BOUND = ("play", "call_trump", "choose_trump_card", "defer_trump", "ask_for_trump")
BEST_PLAY_TRICKS = 6        # the pure solver answers well within a second from here
MAX_BOT_MOVES = 80          # a deal has at most 52 cards and a handful of other actions

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
    connected: bool | None     # a class table: the learner's page is connected (True) or
                               # away (False); None: nobody to connect (a notebook table, a
                               # seat a bot plays with no learner)


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


class PreviousTrick(TypedDict):
    """The last completed trick, to look at any time (the page's Last trick view)."""
    cards: list[PlayedCard]
    winner: int
    number: int                # its number in the deal (1 for the first trick)


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
    best: list[str]                 # Decision.best_cards, or [] when the chosen card is best
    verdict: str                    # "best" | "fine" | "unlucky" | "mistake"
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
    last_trick: PreviousTrick | None   # the last completed trick, even once the next began
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


# ----------------------------------------------------------------------------- checks and helpers
def speaks(method):
    """Run a method of an object with a ``language`` (None: cl.set_language's) in that
    language, its refusals and messages included."""
    @functools.wraps(method)
    def inner(self, *args, **kwargs):
        lang = self.language
        if lang is not None and _language._block.get() == lang:
            return method(self, *args, **kwargs)     # in that language already (a class
        with using(lang):                            # server's move: four pictures)
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


def check_language(language):
    """None (follow cl.set_language) or a language code, checked."""
    if language is None:
        return None
    if not isinstance(language, str) or len(language) > 16:
        language = quoted(language)     # refused below, quoted short
    return language_code(language)


def check_next_seed(seed):
    """The seed of a table's next deal: None, a whole number or text; else a ValueError."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
        raise ValueError(tr("seed is a whole number or text, got {value!r}.",
                            value=quoted(seed)))
    return seed


def default_bot():
    """The bot of a seat that has none (Step on a bare table, cl.play's opponents)."""
    from courtlearn.bots import RuleBot
    return RuleBot()


def bot_map(bots, person: int | None = None) -> dict:
    """{seat: bot} from what ``bots`` may be, every bot checked: None (nobody plays by
    itself), a dict {seat: bot}, a list of four (None for a person), or one bot for every
    seat but ``person`` (every seat when ``person`` is None)."""
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
        out = {s: bots for s in range(4) if s != person}
    for b in out.values():
        check_bot(b)
    return out


# ----------------------------------------------------------------------------- words
# The word tables depend only on the language (and the Rules): built once per language and
# catalog (a catalog loaded afresh builds them afresh), copied into each snapshot.
_NAMES: dict = {}
_WORDS: dict = {}


def _names_table(rules) -> Names:
    lang = get_language()
    catalog = _language._catalog(lang)
    last = _NAMES_LAST[0]
    if last[0] is rules and last[1] is lang and last[2] is catalog:
        return last[3]                # the same as the last picture's (no Rules hashed)
    key = (rules, lang, catalog)
    table = _NAMES.get(key)
    if table is None:
        if len(_NAMES) > 256:
            _NAMES.clear()
        table = _NAMES[key] = _build_names(rules)
    _NAMES_LAST[0] = (rules, lang, catalog, table)
    return table


_NAMES_LAST = [(None, None, None, None)]


def _words_table() -> dict[str, str]:
    lang = get_language()
    key = (lang, _language._catalog(lang))
    table = _WORDS.get(key)
    if table is None:
        if len(_WORDS) > 16:
            _WORDS.clear()
        table = _WORDS[key] = _build_page_words()
    return table


def _copy_names(n: Names) -> Names:
    return {"game": n["game"], "seats": list(n["seats"]), "teams": list(n["teams"]),
            "suits": {k: dict(v) for k, v in n["suits"].items()}, "ranks": dict(n["ranks"])}


def names(rules) -> Names:
    """The words for seats, teams, the game, the suits and the ranks, in the language."""
    return _copy_names(_names_table(rules))


def _build_names(rules) -> Names:
    return {"game": rules.title, "seats": list(rules.seat_names()),
            "teams": [rules.team_name(0), rules.team_name(1)],
            "suits": {s.letter: {"symbol": s.symbol, "plural": suit_word(s)} for s in Suit},
            "ranks": {"A": rank_word(14), "K": rank_word(13), "Q": rank_word(12),
                      "J": rank_word(11)}}


def page_words() -> dict[str, str]:
    """The labels, buttons and tooltips the page draws, in the language; ``{name}`` parts
    are filled in by table.js. (Both languages count plurals as English does, n != 1, so
    the page picks the ``_one`` form for 1.)"""
    return dict(_words_table())


def _build_page_words() -> dict[str, str]:
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
        "verdict_unlucky": tr("Your choice: unlucky"),
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
        "seat_here": tr("here"), "seat_away": tr("away"),
        "review": tr("Review"), "review_title": tr("Step through your decisions with the coach"),
        "last_trick": tr("Last trick"),
        "last_trick_won": tr("Trick {n}: {seat} won it."),
    }


# ----------------------------------------------------------------------------- snapshots
def _seats(deal, v, viewer, show_all, live, players, controls, pos, seat_names,
           connected=None, phase=None, to_act=-1) -> list[SeatState]:
    """The four seats as ``viewer`` sees them. phase (``str(v.phase)``) and to_act
    (``deal.actor``): as the caller has them already (worked out here when not given)."""
    if phase is None:
        phase = str(v.phase)
    if to_act == -1:
        to_act = deal.actor
    mine = {viewer, *controls} if show_all else {viewer}
    legal = [c.code for c in (v.legal if v.to_play == viewer else deal.legal_cards())] \
        if live and v.to_play in mine and phase == "play" else []
    seats: list[SeatState] = []
    for s in range(4):
        hand = None
        if s == viewer:
            hand = [c.code for c in v.hand]
        elif show_all:
            hand = [c.code for c in deal.hand(s)]
        seats.append({
            "seat": s, "name": seat_names[s], "pos": pos[s], "team": s % 2,
            "viewer": s == viewer, "controlled": s in mine, "hand": hand,
            "count": len(v.hand) if s == viewer else v.hand_sizes[s],
            "legal": legal if s == v.to_play and s in mine else [],
            "dealer": s == v.dealer, "caller": s == v.trump_caller, "turn": s == to_act,
            "player": (players[s] if players else None),
            "connected": (connected[s] if connected else None),
        })
    return seats


def _last_trick(v, rules, pos, prev) -> LastTrick | None:
    """The trick just completed, still on show until the next card (and where it went)."""
    if not v.tricks or v.trick.cards:
        return None
    t = v.tricks[-1]
    team = t.winner % 2
    in_centre = rules.has_pile and any(c is t or c == t for c in v.centre)
    last = prev.get("last") if prev is not None else None
    if (last and prev["done"] == len(v.tricks) and prev["piles_raw"] == list(v.tricks_won)
            and last["winner"] == t.winner and last["to"] == ("centre" if in_centre else "team")
            and [(c["seat"], c["card"]) for c in last["cards"]]
            == [(s, c.code) for s, c in t.cards]):
        return dict(last, fresh=False)       # the same completed trick, still on show
    # (not merely as many tricks: one taken back (undo) and played again is another trick)
    captured = 1
    if prev is not None and not in_centre:
        captured = max(1, v.tricks_won[team] - prev["piles_raw"][team])
    return {"cards": [{"seat": s, "card": c.code, "pos": pos[s]} for s, c in t.cards],
            "winner": t.winner, "fresh": prev is not None and prev["done"] < len(v.tricks),
            "to": "centre" if in_centre else "team", "to_team": team, "captured": captured}


def _trump(deal, v, viewer, show_all, shared=None) -> dict:
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
        note = _shared(shared, "trump_note", _trump_note, deal, v)
    return {"trump": v.trump.letter if v.trump is not None else None, "trump_note": note,
            "trump_card": trump_card.code if trump_card is not None else None,
            "hidden_trump": hidden}


def _trump_note(deal, v) -> str:
    """Why there is no trump yet (the same for every seat)."""
    if str(v.phase) == "trump":
        return tr("not chosen yet")
    if v.hidden_trump:
        return tr("hidden: no trumps until it is shown")
    if deal.rules.trump_method == "first_void":
        return tr("none until a player cannot follow suit")
    return tr("none")


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


def _score(session, teams) -> str | None:
    if session is None:
        return None
    courts = session.courts
    team, n = session.streak
    text = tr("Courts: {ns} {ns_courts}, {ew} {ew_courts}", ns=teams[0],
              ns_courts=courts[0], ew=teams[1], ew_courts=courts[1])
    if team is not None and n:
        text += " \u00b7 " + tr("streak: {side} {n}", side=teams[team], n=n)
    return text


def _title(game: str, deal, v, replay: bool) -> str:
    text = f"{game} \u00b7 {stage_words(v)}"
    if replay:
        text += " \u00b7 " + tr("replay: move {n}", n=len(deal.actions))
    return text


def snapshot(deal, viewer: int, *, show_all: bool = False, session=None, prev=None,
             message: str | None = None, kind: str = "info", replay: bool = False,
             players=None, hints: bool = False, hint: dict | None = None,
             best_play: dict | None = None, review: dict | None = None,
             controls=(), connected=None, with_words: bool = True,
             shared: dict | None = None) -> Snapshot:
    """What the page may show: built from ``deal.view(viewer)``; other hands only as
    counts unless ``show_all`` (the teacher's view). JSON-compatible, in the language in
    force (:func:`courtlearn.language.using`).

    session: the Session for the score line, or anything with its ``courts`` and
    ``streak`` (``Table.score``). prev: the snapshot this viewer was sent before (which
    trick went where). hints: offer the Hint button when the viewer is to act; hint: the
    hint on show (hint_payload), computed from the viewer's own view. controls: more seats
    whose cards the viewer plays (with show_all only). connected: at a class table, four
    of True (the seat's learner is connected), False (away) or None (no learner there).
    Its ``names`` and ``words`` are copies of tables built once per language;
    ``with_words=False`` leaves both out (a class table sends them to a page once, not
    with every picture). shared: a dict kept for this state of the deal and this language
    (:meth:`Table.shared`), where the sentences every seat sees alike (the title, the
    trump's note, the score, the result, an event's text) are made once for the four
    seats; only text read from the viewer's own view goes in it."""
    rules = deal.rules
    v = deal.view(viewer)
    phase = v.phase._value_                  # str(v.phase), without Phase.__str__'s call
    live = not replay
    pos = positions(rules, viewer)
    to_act = deal.actor
    words = _names_table(rules)
    if not live:
        hint = None
    if message is None and hint is not None:
        message, kind = hint["text"], "hint"
    if not live:
        shared = None                        # a replay is another moment of the deal
    if message is None:
        message = _event_text(shared, v.events[-1]) if v.events else tr(
            "{seat} dealt.", seat=words["seats"][v.dealer])
        kind = "info"
    teams = words["teams"]
    snap = {"game": rules.game,
            "title": _shared(shared, "title", _title, words["game"], deal, v, replay)}
    if with_words:
        snap["names"] = _copy_names(words)
    lang = get_language()
    snap["lang"], snap["dir"] = lang, "rtl" if lang in _language.RIGHT_TO_LEFT else "ltr"
    if with_words:
        snap["words"] = dict(_words_table())
    snap.update({
        "viewer": viewer, "show_all": bool(show_all), "replay": bool(replay), "phase": phase,
        "to_play": to_act if to_act is not None else -1,
        "dealer": v.dealer, "trump_caller": v.trump_caller,
        **_trump(deal, v, viewer, show_all, shared),
        "seats": _seats(deal, v, viewer, show_all, live, players, controls, pos,
                        words["seats"], connected, phase, to_act),
        "trick": [{"seat": s, "card": c.code, "pos": pos[s]} for s, c in v.trick.cards],
        "last": _last_trick(v, rules, pos, prev),
        "last_trick": ({"cards": [{"seat": s, "card": c.code, "pos": pos[s]}
                                  for s, c in v.tricks[-1].cards],
                        "winner": v.tricks[-1].winner, "number": len(v.tricks)}
                       if v.tricks else None),
        "piles": [{"team": t, "name": teams[t], "count": v.tricks_won[t],
                   "mine": t == viewer % 2} for t in (0, 1)],
        "uses_centre": rules.has_pile, "centre": len(v.centre),
        "score": _shared_score(shared, session, teams), "message": message,
        "message_kind": kind,
        "result": (_shared(shared, "result", result_sentence, deal)
                   if phase == "over" and deal.result is not None else None),
        "actions": offered_actions(deal, viewer) if live else [],
        "can_hint": bool(hints and live and to_act == viewer and phase in ("trump", "play")),
        "hint": hint,
        "can_best_play": bool(show_all and live),
        "best_play": best_play if show_all and live else None,
        "can_review": bool(hints and live and deal._action_count() > 0),
        "review": review if replay else None,
        "done": len(v.tricks), "piles_raw": list(v.tricks_won),
    })
    return snap


def _shared(shared, key, make, *args):
    """``make(*args)``, made once in ``shared`` (a dict for this state of the deal and
    language, see :meth:`Table.shared`) when there is one."""
    if shared is None:
        return make(*args)
    out = shared.get(key)
    if out is None:
        out = shared[key] = make(*args)
    return out


def _event_text(shared, event) -> str:
    """The sentence of ``event`` (an event of the viewer's own view), made once for the
    seats that see that very event (kept with it: another event never reads it)."""
    if shared is None:
        return event.text
    texts = shared.setdefault("events", {})
    got = texts.get(id(event))
    if got is None or got[0] is not event:
        got = texts[id(event)] = (event, event.text)
    return got[1]


def _shared_score(shared, session, teams):
    """The score line of ``session`` (a Session or a Score), once per moment and score."""
    if shared is None:
        return _score(session, teams)
    got = shared.get("score")
    if got is None or got[0] is not session:
        got = shared["score"] = (session, _score(session, teams))
    return got[1]


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


# ----------------------------------------------------------------------------- the table
class Score(NamedTuple):
    """What a snapshot reads of a Session for its score line."""
    courts: tuple
    streak: tuple


class Table:
    """What everyone at one table shares: the deal, the bots, whether they answer.

    deal_or_session: a Deal, or a Session (the table shows its current deal).
    bots: None, {seat: bot}, a list of four (None for a person) or one bot for all four
    seats. autoplay: the bots answer by themselves in :meth:`run_bots`.

    Every change of deal (:meth:`set`, :meth:`new_deal`, :meth:`undo_person`) counts up
    ``epoch``; each :class:`Seat` forgets its window's state of the deal before (the hint,
    the review, the replay, the last picture) when it sees the new epoch.
    """

    def __init__(self, deal_or_session, bots=None, autoplay: bool = True):
        check_table_deal(deal_or_session)
        self._bots = bot_map(bots)
        self._autoplay = check_flag(autoplay, "autoplay")
        self.session = None
        self._deal = None
        self.epoch = 0
        self._next_seed = None
        self._score = None              # (session, deal, phase, result) and their Score
        self._moment = (None, {})       # (the state of the deal, {language: what the
                                        # seats' pictures share}), see shared()
        self._place(deal_or_session)

    def _place(self, deal_or_session) -> None:
        if hasattr(deal_or_session, "next_deal"):
            self.session, self._deal = deal_or_session, None
        else:
            self.session, self._deal = None, deal_or_session

    @property
    def deal(self):
        """The Deal on the table now (the Session's current deal)."""
        return self.session.deal if self.session is not None else self._deal

    @property
    def bots(self) -> dict:
        """{seat: bot}: the seats that play by themselves (set it as the constructor's
        ``bots``)."""
        return self._bots

    @bots.setter
    def bots(self, value) -> None:
        self._bots = bot_map(value)

    @property
    def autoplay(self) -> bool:
        """Whether bots answer by themselves (True or False)."""
        return self._autoplay

    @autoplay.setter
    def autoplay(self, value: bool) -> None:
        self._autoplay = check_flag(value, "autoplay")

    @property
    def bot_turn(self) -> bool:
        """A bot is to act now and will (autoplay): :meth:`run_bots` would move."""
        who = self.deal.actor
        return self._autoplay and who is not None and who in self._bots

    @property
    def score(self) -> "Score | None":
        """The session's courts and streak (None for a lone Deal), worked out once per
        stage of the deal (the Session tallies every finished deal each time it is asked;
        the score changes only when the deal ends, is taken back, or the next one starts)."""
        session = self.session
        if session is None:
            return None
        deal = session.deal
        phase, result = deal.phase, deal.result
        cached = self._score           # (no key tuple built: four pictures a move ask)
        if (cached is None or cached[0] is not session or cached[1] is not deal
                or cached[2] is not phase or cached[3] != result):
            cached = self._score = (session, deal, phase, result,
                                    Score(session.courts, session.streak))
        return cached[4]

    def shared(self) -> dict:
        """A dict for what the live pictures of this moment share whoever the viewer (the
        title, the trump's note, the score, the result, event sentences: see
        :func:`snapshot`), one per language; a fresh one after any change of the deal
        (a move, an undo, another deal: the deal's log only grows, and an undo or another
        deal brings another log) or of the table's epoch."""
        deal = self.deal
        log = deal._log
        key, per_language = self._moment
        if (key is None or key[0] is not deal or key[1] is not log or key[2] != len(log)
                or key[3] != self.epoch):
            per_language = {}
            self._moment = ((deal, log, len(log), self.epoch), per_language)
        lang = get_language()
        got = per_language.get(lang)
        if got is None or got[0] is not _language._catalog(lang):
            got = per_language[lang] = (_language._catalog(lang), {})
        return got[1]

    def state_key(self):
        """Identifies the moment of the deal (a hint or a review was made for)."""
        deal = self.deal
        return (id(deal), tuple(str(a) for a in deal.actions))

    def set(self, deal_or_session) -> "Table":
        """Put another Deal (or Session) on the table (anything else: a TypeError, and the
        table keeps its deal)."""
        check_table_deal(deal_or_session)
        self._place(deal_or_session)
        self.epoch += 1
        return self

    def new_deal(self, seed=None):
        """Start the next deal and return it: the Session's next deal (its ValueError while
        the deal is unfinished), or a fresh shuffle of the same rules with the next dealer
        (``seed``: None for the next one, or a whole number or text)."""
        check_next_seed(seed)
        if self.session is not None:
            self.session.next_deal()
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
        self.epoch += 1
        return self.deal

    def undo_person(self) -> int:
        """Take back the last move of a person and the bot moves after it; returns the
        number of moves taken back (0: nothing to take back)."""
        deal = self.deal
        undone = 0
        while True:
            try:
                deal.undo()
            except (ValueError, IndexError):
                break
            undone += 1
            who = deal.actor
            if who is None or who not in self._bots:
                break
        if undone:
            self.epoch += 1
        return undone

    def run_bots(self, on_step=None) -> str | None:
        """Bot seats act until a person is to act or the deal is over (with autoplay on),
        calling ``on_step()`` after each move. Returns None, or the sentence saying that a
        bot could not move (the moves before it stand; a bot is anyone's code, so its
        failure is logged and told, never raised)."""
        n = 0
        if not self._bots or not self._autoplay:
            return None
        while n < MAX_BOT_MOVES:
            who = self.deal.actor
            if who is None or who not in self._bots:
                break
            try:
                act(self._bots[who], self.deal)
            except Exception as err:
                log.warning("The bot of seat %s could not move", who, exc_info=True)
                return tr("A bot could not move: {error}", error=cut(str(err)))
            if on_step is not None:
                on_step()
            n += 1
        return None

    def step(self) -> str | None:
        """Make the next decision with the bot of the seat to decide (a RuleBot for a seat
        with none, so a bare table can be stepped through). Returns None when a move was
        made, else the sentence why not (the deal is over, or the bot failed)."""
        who = deciding_seat(self.deal)
        if who is None:
            return tr("The deal is over: nothing to step.")
        bot = self._bots.get(who) or default_bot()
        try:
            done = act(bot, self.deal)
        except Exception as err:          # a bot is anyone's code: told and logged
            log.warning("The bot of seat %s could not move", who, exc_info=True)
            return tr("A bot could not move: {error}", error=cut(str(err)))
        if not done:
            return tr("The deal is over: nothing to step.")
        return None

    def __repr__(self) -> str:
        deal = self.deal
        return (f"Table({deal.rules.game}, {len(deal.actions)} actions, "
                f"bots at {sorted(self._bots)})")


# ----------------------------------------------------------------------------- one viewer
class Outcome(NamedTuple):
    """What :meth:`Seat.handle` did. ``moved``: the deal took a move (store it, answer ok,
    send every seat its picture, then let the bots answer); else only this viewer's window
    changed: show them ``seat.snapshot(message, kind)``. ``value``: the Hint or the Review
    for the Python API."""
    moved: bool
    message: str | None = None
    kind: str = "info"
    value: object = None


class Seat:
    """One viewer's window on a :class:`Table`.

    seat: the viewer (their hand face up; their intents act for that seat only).
    show_all: every hand face up (the teacher's view). hints: the Hint and Review buttons.
    controls: more seats whose cards the viewer plays (with show_all only). players: four
    names (None where a seat has none). language: "en", "ur", "hi" for this window's words
    and refusals, or None for cl.set_language's.

    What only this viewer sees lives here: the last picture sent (so the next one can say
    which trick went where), the hint on show, the review being stepped through, the
    replay position, and the Best play marks (with their solved cache). Hints, reviews and
    marks use only what this seat may know: all hands only with ``show_all``, or for a
    review once the deal is over.
    """

    def __init__(self, table: Table, seat: int = 0, show_all: bool = False, hints: bool = True,
                 controls=None, players=None, language: str | None = None):
        if not isinstance(table, Table):
            raise TypeError(tr("A seat is at a courtlearn Table, got {kind}.",
                               kind=type(table).__name__))
        self.language = language
        seat = check_seat(seat)
        self.table = table
        self._seat = seat
        self._show_all = check_flag(show_all, "show_all")
        self._hints = check_flag(hints, "hints")
        self.controls = check_controls(controls, seat, show_all)   # seats the viewer plays
        self.players = check_players(players)
        self.connected = None             # a class table's [True/False/None] * 4 (who is here)
        self.lean = False                 # pictures without names and words (a class table)
        self.replay: int | None = None    # None: live; n: the deal after its first n actions
        self.last = None                  # the last live snapshot made (for what moved where)
        self.hint = None                  # (state key, Hint) of the hint on show
        self.review_state = None          # [state key, exact, Review, decision on show]
        self._best_play = False           # the "Best play" marks (with show_all)
        self._solved = None               # (state key, Solution or the note why none)
        self._epoch = table.epoch

    # ------------------------------------------------------------------ settings
    @property
    def deal(self):
        return self.table.deal

    @property
    def seat(self) -> int:
        """The viewer: their hand face up, their intents act for them."""
        return self._seat

    @seat.setter
    def seat(self, value: int) -> None:
        value = check_seat(value)
        old = self._seat
        if old != value:
            self.controls = frozenset(self.controls - {old}) | {value}
            self.hint = None
            self.review_state = None
        self._seat = value

    @property
    def show_all(self) -> bool:
        return self._show_all

    @show_all.setter
    def show_all(self, value: bool) -> None:
        check_flag(value, "show_all")
        if not value and self.controls != {self._seat}:
            raise ValueError(tr("Playing another seat's cards (controls) needs its hand face "
                                "up: show_all=True."))
        self._show_all = value

    @property
    def hints(self) -> bool:
        """Whether the Hint (and Review) buttons are offered."""
        return self._hints

    @hints.setter
    def hints(self, value: bool) -> None:
        self._hints = check_flag(value, "hints")
        if not self._hints:
            self.hint = None

    @property
    def best_play(self) -> bool:
        """With ``show_all``: mark each card of the player to move with its exact value."""
        return self._best_play

    @best_play.setter
    def best_play(self, value: bool) -> None:
        self._best_play = check_flag(value, "best_play")

    @property
    def language(self) -> str | None:
        """This window's language ("en", "ur", "hi"), or None: cl.set_language's."""
        return self._language

    @language.setter
    def language(self, value) -> None:
        self._language = check_language(value)

    def _follow(self) -> None:
        """Forget the window's state of an earlier deal (the table's epoch moved on)."""
        if self._epoch != self.table.epoch:
            self.forget()

    def forget(self) -> None:
        """Drop the hint, the review, the replay and the last picture (a new deal, an undo)."""
        self._epoch = self.table.epoch
        self.replay = None
        self.last = None
        self.hint = None
        self.review_state = None
        self._solved = None

    # ------------------------------------------------------------------ the picture
    @speaks
    def snapshot(self, message: str | None = None, kind: str = "info") -> Snapshot:
        """What this viewer's page draws now (see :func:`snapshot`), in the seat's language;
        a live one is kept as the ``prev`` of the next."""
        self._follow()
        deal, replay = self.deal, False
        if self.replay is not None and self.replay > deal._action_count():
            self.replay = None             # taken back (elsewhere) below the moment on show
        if self.replay is not None:
            deal, replay = self.deal.replay(self.replay), True
        prev = self.last if self.last is not None and not replay else None
        shown = None
        if self.hint is not None and not replay:
            if self.hint[0] == self.table.state_key():
                shown = hint_payload(self.hint[1])
            else:
                self.hint = None           # the deal moved on: the hint is stale
        step = self._review_payload() if replay else None
        if step is not None and message is None:
            message, kind = step["text"], ("error" if step["verdict"] == "mistake" else "note")
        best = self._best_payload() if self._show_all and not replay else None
        snap = snapshot(deal, self._seat, show_all=self._show_all, session=self.table.score,
                        prev=prev, message=message, kind=kind, replay=replay,
                        players=self.players, hints=self._hints, hint=shown,
                        controls=self.controls, best_play=best, review=step,
                        connected=self.connected, with_words=not self.lean,
                        shared=None if replay else self.table.shared())
        if not replay:
            self.last = snap
        return snap

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
        key = self.table.state_key()
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

    # ------------------------------------------------------------------ intents
    @staticmethod
    def parse(content) -> tuple[str, tuple]:
        """The move a message from the page asks for, as (kind, arguments); a malformed or
        forged message is refused here (:class:`Refused`), before the deal sees it."""
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

    def refusal(self, kind: str, args: tuple) -> str | None:
        """Why the viewer may not make this move now (None if they may): the deal's own
        sentence (``verify_X``), or, for a move that is someone else's to make, whose turn
        it is (the deal cannot know who asked)."""
        deal, me = self.deal, self._seat
        rules = deal.rules
        if kind in ("claim_revoke", "correct_revoke"):
            args = (me,)                     # the viewer's own claim, its own revoke
        seat_bound = kind in SEAT_BOUND
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

    @speaks
    def handle(self, content) -> Outcome:
        """Carry out what the page asks (``{"type": "play", "card": "QS", "id": 7}``, ...)
        for this viewer, or raise :class:`Refused` with the sentence saying why not (the
        deal and the window unchanged). The bots do not answer here: after a move
        (``Outcome.moved``) the caller stores it, answers ok and calls ``table.run_bots``."""
        self._follow()
        kind, args = self.parse(content)
        if kind == "review":
            if not self._hints:        # the page offers Review only with the Hint button
                raise Refused(tr("Hints are switched off at this table, and the review with "
                                 "them."))
            return self.start_review(*args)
        if kind == "review_close":
            return self.close_review()
        if self.replay is not None:
            raise Refused(tr("You are looking back at an earlier moment: move the replay to the "
                             "end to play."))
        if kind == "hint":
            return self.give_hint()
        if kind == "best_play":
            if not self._show_all:
                raise Refused(tr("Best play is shown with all hands face up (show_all=True)."))
            self.best_play = args[0]
            return Outcome(False)
        reason = self.refusal(kind, args)
        if reason is not None:
            raise Refused(reason)
        try:
            getattr(self.deal, kind)(*(args if kind not in ("claim_revoke", "correct_revoke")
                                       else (self._seat,)))
        except ValueError as err:       # the deal refused after all: it changed nothing
            raise Refused(getattr(err, "reason", None) or str(err)) from None
        return Outcome(True)

    @speaks
    def give_hint(self) -> Outcome:
        """Work out the viewer's hint from the viewer's own view and put it on show
        (``Outcome.value`` is the Hint); Refused when it is not their turn or no hint can
        be worked out."""
        self._follow()
        deal, me = self.deal, self._seat
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
        self.hint = (self.table.state_key(), h)
        return Outcome(False, h.text, "hint", h)

    # ------------------------------------------------------------------ the coach's review
    def exact_review(self) -> bool:
        """Whether the review may judge by all four hands: once the deal is over, or in a
        window that shows every hand (before that it would tell hidden cards)."""
        return self._show_all or self.deal.phase == "over"

    @speaks
    def start_review(self, index: int) -> Outcome:
        """Show the moment of the viewer's decision ``index`` (0 is the first) with the
        coach's verdict (``Outcome.value`` is the Review); Refused when there is no such
        decision."""
        self._follow()
        key, exact = self.table.state_key(), self.exact_review()
        if self.review_state is None or self.review_state[:2] != [key, exact]:
            self.review_state = [key, exact, self._coach_review(exact), 0]
        rv = self.review_state[2]
        if not rv.decisions:
            raise Refused(tr("{seat} has made no decision in this deal yet: there is nothing to "
                             "review.", seat=self.deal.rules.seat_name(self._seat)))
        if not 0 <= index < len(rv.decisions):
            raise Refused(tr("The review has decisions 1 to {n}.", n=len(rv.decisions)))
        self.review_state[3] = index
        self.replay = rv.decisions[index].action
        return Outcome(False, value=rv)

    def close_review(self) -> Outcome:
        """Leave the review: the live deal again."""
        self.review_state = None
        self.replay = None
        return Outcome(False)

    def _coach_review(self, exact: bool):
        """cl.review of the viewer's decisions (a failure of it is a refusal, logged)."""
        from courtlearn.coach import review
        try:
            return review(self.deal, self._seat, progress=False, exact=exact)
        except ValueError as err:
            raise Refused(cut(str(err))) from None
        except Exception as err:
            log.exception("The review failed")
            raise Refused(tr("Something went wrong: {error}", error=cut(str(err)))) from None

    def _review_payload(self):
        if (self.review_state is None
                or self.review_state[:2] != [self.table.state_key(), self.exact_review()]):
            return None
        _, _, rv, i = self.review_state
        d = rv.decisions[i]
        if self.replay != d.action:
            return None

        def code(x):
            return x.letter if hasattr(x, "letter") and not hasattr(x, "rank") else x.code
        # the coach's one verdict and one list of best cards (those its sentence names),
        # outlined when the chosen card is not among them
        return {"index": i, "count": len(rv.decisions), "kind": d.kind, "chosen": code(d.chosen),
                "best": [code(c) for c in d.better], "verdict": d.verdict, "cost": d.cost,
                "text": d.text}

    def __repr__(self) -> str:
        extra = ", show_all" if self._show_all else ""
        return f"Seat({self._seat}{extra}, {self.table!r})"
