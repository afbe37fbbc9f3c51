"""CardTable: one deal on a card table in the notebook (an anywidget).

The engine is the only state. The page receives snapshots built from
``deal.view(seat)`` (what the viewer may know) and sends back intents: a
clicked card, a called suit. Each intent arrives as a custom message
(``model.send`` in the page, :meth:`CardTable._on_msg` here), is checked, and
is either carried out by the engine or refused with a sentence in the message
area; a refused intent never changes the deal.

The table's logic lives in :mod:`courtlearn.widgets.core` (a :class:`~.core.Table` and
one :class:`~.core.Seat`), shared with the class server; this module moves its snapshots
and intents over the widget's comm, and keeps the traits, fonts and representations.

>>> import courtlearn as cl
>>> table = CardTable(cl.Deal(cl.Rules.double_sir(), dealer=3, seed=7))
>>> table                                             # doctest: +SKIP
CardTable(double_sir, seat=0, South to call trump)
"""
from __future__ import annotations

import logging
import pathlib

import anywidget
import traitlets

from courtlearn.bots import deciding_seat
from courtlearn.cards import quoted
from courtlearn.language import tr, trn, using

# the shared core, re-exported: other modules and tests import these names from here
from .core import (BEST_PLAY_TRICKS, CARD_CODE, MAX_BOT_MOVES, MESSAGE_KEYS,  # noqa: F401
                   MESSAGE_TYPES, BestPlay, HiddenTrump, LastTrick, Names, Outcome, PileState,
                   PlayedCard, Refused, ReviewStep, Seat, SeatState, Snapshot, Table, bot_map,
                   card_code, check_bot, check_controls, check_flag, check_language,
                   check_next_seed, check_players, check_seat, check_table_deal, cut,
                   default_bot, hint_payload, names, offered_actions, page_words,
                   result_sentence, snapshot)
from .core import speaks as _speaks
from .esm import module_source

__all__ = ["CardTable"]

STATIC = pathlib.Path(__file__).parent / "static"
# the fonts a language needs, shipped with the widget so that the browser-only site renders
# them offline (SIL Open Font Licence; subsets of fontsource's Noto builds, 400 weight)
FONTS = {"ur": ("Noto Nastaliq Urdu", STATIC / "fonts" / "NotoNastaliqUrdu-arabic-400.woff2"),
         "hi": ("Noto Sans Devanagari", STATIC / "fonts" / "NotoSansDevanagari-devanagari-400.woff2")}

SIZES = ("small", "normal", "large", "presenter")
MAX_SPEED = 10_000          # ms between two moves drawn in the page
PAGE_READ_ONLY = ("state", "fonts", "speed", "size", "animate")   # the page never sets these

log = logging.getLogger(__name__)


def check_size(size) -> str:
    if not isinstance(size, str) or size not in SIZES:
        raise ValueError(tr("size is one of {sizes}, got {value!r}.", sizes=", ".join(SIZES),
                            value=quoted(size)))
    return size


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

    _esm = module_source(STATIC / "table.js")      # with ./dom.js inline (esm.py)
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
        bots = bot_map(bots, seat)
        super().__init__(size=size, animate=animate, **kwargs)
        self._table = Table(deal_or_session, bots=bots)       # the deal, the bots: shared
        self._view = Seat(self._table, seat, show_all=show_all, hints=hints,   # this viewer's
                          controls=controls, players=players, language=language)
        self._rev = 0
        self.on_msg(self._on_msg)
        frames: list = []
        error = self._run_bots(frames)
        self._sync(frames, message=error, kind="error" if error else "info")

    # ------------------------------------------------------------------ the core's state
    @property
    def deal(self):
        """The Deal on the table now."""
        return self._table.deal

    @property
    def session(self):
        """The Session whose deal is on the table (None for a lone Deal)."""
        return self._table.session

    @property
    def _deal(self):
        return self._table._deal

    @_deal.setter
    def _deal(self, deal) -> None:        # a lone Deal put on the table (the puzzles' Try again)
        self._table.set(deal)

    @property
    def _replay(self):
        """None: live; n: the deal shown after its first n actions."""
        return self._view.replay

    @_replay.setter
    def _replay(self, value) -> None:
        self._view.replay = value

    @property
    def _last(self):
        return self._view.last

    @_last.setter
    def _last(self, value) -> None:
        self._view.last = value

    @property
    def controls(self) -> frozenset:
        """The seats whose cards the viewer plays."""
        return self._view.controls

    @controls.setter
    def controls(self, value) -> None:
        self._view.controls = check_controls(value, self.seat, self.show_all)

    @property
    def players(self):
        """The four players' names shown at the seats (None: none)."""
        return self._view.players

    @players.setter
    def players(self, value) -> None:
        self._view.players = check_players(value)

    # ------------------------------------------------------------------ properties
    @property
    def show_all(self) -> bool:
        return self._view.show_all

    @show_all.setter
    def show_all(self, value: bool) -> None:
        self._view.show_all = value
        self._sync([])

    @property
    def best_play(self) -> bool:
        """With ``show_all``: mark each card of the player to move with its exact value
        (cl.solve: the team's total with perfect play), the best ones highlighted, where
        the solver answers quickly (the last six tricks; Court Piece always with DDS)."""
        return self._view.best_play

    @best_play.setter
    def best_play(self, value: bool) -> None:
        self._view.best_play = value
        self._sync([])

    @property
    def hints(self) -> bool:
        """Whether the Hint button is offered (switch off for a test of the learner)."""
        return self._view.hints

    @hints.setter
    def hints(self, value: bool) -> None:
        self._view.hints = value
        self._sync([])

    @property
    def bots(self) -> dict:
        """{seat: bot}: the seats that play by themselves. Set it as the constructor's
        ``bots`` (None, one bot, a list of four, a dict)."""
        return self._table.bots

    @bots.setter
    def bots(self, value) -> None:
        self._table.bots = bot_map(value, self.seat)

    @property
    def autoplay(self) -> bool:
        """Whether bots answer by themselves after a move (True or False)."""
        return self._table.autoplay

    @autoplay.setter
    def autoplay(self, value: bool) -> None:
        self._table.autoplay = value

    @property
    def seat(self) -> int:
        """The viewer: their hand face up, their clicks play for them."""
        return self._view.seat

    @seat.setter
    def seat(self, value: int) -> None:
        self._view.seat = value
        self._sync([])

    @property
    def language(self) -> str | None:
        """This table's language ("en", "ur", "hi"), or None: cl.set_language's."""
        return self._view.language

    @language.setter
    def language(self, value) -> None:
        self._view.language = value

    # ------------------------------------------------------------------ state to the page
    def _snap(self, message=None, kind="info"):
        """The viewer's snapshot now (see :meth:`Seat.snapshot`)."""
        return self._view.snapshot(message, kind)

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

    # ------------------------------------------------------------------ bots
    def _run_bots(self, frames) -> str | None:
        """Bot seats act until a person is to act or the deal is over, each move's picture
        added to ``frames``. Returns None, or the sentence saying that a bot could not move
        (see :meth:`Table.run_bots`)."""
        return self._table.run_bots(lambda: self._record(frames))

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

    _intent = staticmethod(Seat.parse)     # the page's message as (kind, arguments), or Refused

    def _refusal(self, kind: str, args: tuple) -> str | None:
        """Why the viewer may not make this move now (None if they may)."""
        return self._view.refusal(kind, args)

    def _handle(self, content):
        """Carry out one intent of the page (:meth:`Seat.handle`) and show it: a move the
        deal took, then the bots' answers; else the viewer's changed window."""
        outcome = self._view.handle(content)
        if not outcome.moved:
            self._sync([], message=outcome.message, kind=outcome.kind)
            return
        try:
            self._after_move()
        except Exception:               # the move stands and is answered ok
            log.exception("The table could not show a move the deal took")

    def _after_move(self):
        """Show a move the viewer made, then let the bots answer and show theirs."""
        frames: list = []
        self._record(frames)
        more = self._table.bot_turn
        self._sync(frames, more=more)   # the viewer's own move goes out first: no waiting on bots
        if more:
            frames = []
            error = self._run_bots(frames)
            self._sync(frames, message=error, kind="error" if error else "info", follows=True)

    # ------------------------------------------------------------------ the Python API
    @_speaks
    def hint(self):
        """Suggest a move for the viewer's seat (computed from what that seat may know),
        highlight it on the table, show why in the message area, and return the Hint.
        Refused (a ValueError, also shown) when it is not the viewer's turn, and when no
        hint can be worked out (the reason in the message area)."""
        shown = self._view.replay
        self._view.replay = None
        try:
            outcome = self._view.give_hint()
        except Refused as err:
            self._view.replay = shown
            self._sync([], message=str(err), kind="error")
            raise
        self._sync([], message=outcome.message, kind=outcome.kind)
        return outcome.value

    @_speaks
    def _act(self, fn, *args):
        """Run an engine action (for whoever is to act), show it, let the bots answer. A
        refused action (ValueError, TypeError) is shown and raised, and changes nothing."""
        try:
            fn(*args)
        except (ValueError, TypeError) as err:
            self._sync([], message=cut(getattr(err, "reason", None) or str(err)), kind="error")
            raise
        self._view.replay = None
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
        if deciding_seat(self.deal) is not None:
            self._view.replay = None
        error = self._table.step()
        if error is not None:
            self._sync([], message=error, kind="error")
            return self
        frames: list = []
        self._record(frames)
        self._sync(frames)
        return self

    @_speaks
    def undo(self):
        """Take back the last move of a person (and the bot moves after it)."""
        self._view.replay = None
        undone = self._table.undo_person()
        if not undone:
            self._sync([], message=tr("Nothing to take back."), kind="error")
            return self
        self._view.forget()
        self._sync([], message=trn("Took back {n} move.", "Took back {n} moves.", undone),
                   kind="note")
        return self

    @_speaks
    def new_deal(self, seed=None):
        """Start the next deal: the Session's next deal, or a fresh shuffle of the same
        rules (``seed``: None for the next one, or a whole number or text)."""
        check_next_seed(seed)
        if self.session is not None:
            try:
                self._table.new_deal()
            except ValueError as err:
                self._sync([], message=str(err), kind="error")
                raise
        else:
            self._table.new_deal(seed)
        self._fresh()
        return self

    def set_deal(self, deal_or_session):
        """Put another Deal (or Session) on the table (anything else: a TypeError, and the
        table keeps its deal)."""
        self._table.set(deal_or_session)
        self._fresh()
        return self

    def _fresh(self):
        """Show a deal just put on the table, after the bots' first moves."""
        self._view.forget()
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
        self._view.replay = n
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
            outcome = self._view.start_review(index)
        except Refused as err:
            self._sync([], message=str(err), kind="error")
            raise
        self._sync([])
        return outcome.value

    def close_review(self):
        """Leave the review and show the live deal again."""
        self._view.close_review()
        self._sync([])
        return self

    def resume(self):
        """Let the bot seats act now (after Auto-play was switched back on)."""
        self._view.replay = None
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
        extra = ", show_all" if self.show_all else ""
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
            return deal_html(self.deal, seat=self.seat, show_all=self.show_all)
        except Exception:          # a picture is a courtesy; never break the display
            return None
