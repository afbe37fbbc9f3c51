"""The class in memory: a Room of Tables of four seats, the learners, who is connected.

No rule lives here. The engine (``Deal``/``Session``) judges every move; the table core
the notebook's CardTable runs on (``courtlearn/widgets/core.py``: a ``Table`` and one
``Seat`` window per seat) builds what a seat sees and reads what it asks
(:class:`_TableHost` is the one place that meets it). The room only decides *who*
may ask (a learner for their own seat), *who* plays a seat nobody plays (a bot), and
*when* things are said: every action is written to the store and committed before
anyone is told of it.

The room talks to connections, objects with ``send(text)`` (the server's WebSockets,
or a test's fakes), in this wire protocol: JSON objects, one per message, hostile until
checked. It never sends a seat more than that seat's snapshot.

page -> server    ``{"type": "hello", "code": C, "name": N}`` (first visit: registers,
                  gets a token), ``{"type": "hello", "token": T}`` (a returning page:
                  reload, a phone waking), ``{"type": "take_seat", "table": i, "seat": s}``,
                  ``{"type": "msg", "content": {...}}`` (exactly what the widget's model
                  sends), ``{"type": "leave"}``
server -> page    ``{"type": "welcome", "name": N, "learner": id, "code": C, "token": T}``
                  (the token only to its own socket, once, on registering),
                  ``{"type": "lobby", "tables": [...]}`` (free seats, who sits where),
                  ``{"type": "seated", "table": i, "seat": s, ...}``, ``{"type":
                  "unseated"}``, ``{"type": "words", ...}`` (the table's words in the
                  class's language), ``{"type": "state", "table": i, "deal": n, "actions":
                  n, "state": {rev, frames, follows, more}}`` (the widget's state),
                  ``{"type": "custom", "content": {"reply_to": id, "ok": bool, "reason":
                  ...}}`` (the widget's reply), ``{"type": "refused", "reason": "..."}``
                  (the socket stays open)

The page's model object offers anywidget's model calls (``get``, ``set``,
``on("change:x")``, ``on("msg:custom")``, ``send``, ``save_changes``), so ``table.js`` draws
a class table unchanged. The quiz (quiz.py) and the class puzzles (class_puzzles.py) add
their own messages, listed in their docstrings.

>>> from courtlearn.classroom.store import Store
>>> room = Room.create(Store(":memory:"), code="ABC234", tables=2)
>>> len(room.tables), room.tables[0].deal.phase
(2, <Phase.TRUMP: 'trump'>)
"""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import re
import secrets
import time
import unicodedata

from courtlearn.bots import RuleBot
from courtlearn.deal import Deal
from courtlearn.language import game_word, language_code, list_words, tr, trn, using
from courtlearn.rules import Rules
from courtlearn.session import Session

from .store import Store, token_hash

__all__ = ["Room", "Table", "Learner", "Refusal", "new_code"]

log = logging.getLogger("courtlearn.classroom")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I: read out in a classroom
CODE_LENGTH = 6
NAME_MAX = 40
GRACE = 30.0            # seconds a learner may be gone before a bot plays for them
MAX_BOT_MOVES = 80      # a deal has at most 52 cards and a handful of other actions
LOBBY_DELAY = 0.25      # seconds: lobby updates to learners choosing a seat are coalesced
LOBBY_BYTES = 2_000_000     # bytes a second all lobby updates together may take (issue 29:
                            # 3,000 pages choosing seats, one learner toggling a seat 8x/s)
PRESENCE_DELAY = 0.25   # seconds: who is here redraws at a table at most this often
MAX_LEARNERS = 500      # learners in a class (removed ones do not count); the teacher raises it
MAX_SOCKETS = 4         # pages open at once per learner: a fifth closes the oldest
STORAGE_BACKOFF = (1.0, 30.0)   # seconds between tries to save again after the disk refused
NEXT_DEAL_WAIT = 10.0   # seconds: once one learner at a finished deal asks for the next, the
                        # others have this long to read the result (the pages count it down)


class Refusal(ValueError):
    """A learner's request the room turns down (the sentence goes back to them).
    ``extra`` fields go along in the refusal (``rejoin=True``: the page's token is not
    known, it should show the join form)."""

    def __init__(self, reason: str, **extra):
        super().__init__(reason)
        self.extra = extra


def new_code(rng=None) -> str:
    """A fresh class code: six characters a teacher can read out (no 0/O, no 1/I)."""
    pick = rng.choice if rng is not None else secrets.choice
    return "".join(pick(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def clean_name(name) -> str:
    """A learner's name as it will be shown (as text, never as markup): trimmed, one line,
    1 to 40 characters, no control characters; else a Refusal saying so."""
    if not isinstance(name, str):
        raise Refusal(tr("Type your name to join."))
    name = " ".join(name.split())
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C")
    if not name:
        raise Refusal(tr("Type your name to join."))
    if len(name) > NAME_MAX:
        raise Refusal(tr("A name has at most {n} characters.", n=NAME_MAX))
    if looks_like_a_label(name):
        raise Refusal(tr("A name cannot look like the page's own words (such as Bot, away or "
                         "you) nor end in brackets: choose another."))
    return name


_LABELS: tuple | None = None
ENDS_IN_BRACKETS = re.compile(r".*[(\[{（［].*[)\]}）］]\W*")


def _fold(text: str) -> str:
    return " ".join(text.casefold().split()).strip(" .,:;!?-_*'\"")


def looks_like_a_label(name: str) -> bool:
    """Whether a name could pass for the pages' own words where a name goes: a part in
    brackets at its end (the pages add "(away)", "(a bot plays for now)" after a name),
    one of the words
    themselves ("Bot", "you", "away", in every language) or a hidden name's alias
    ("Learner 3").

    >>> [looks_like_a_label(n) for n in ("Asha", "Bot", "  a   BOT ", "Asha (away)", "Learner 12")]
    [False, True, True, True, True]
    """
    global _LABELS
    if _LABELS is None:
        words, aliases = set(), []
        for lang in ("en", "ur", "hi"):
            with using(lang):
                for w in (tr("Bot"), tr("bot"), tr("a bot"), tr("you"), tr("here"), tr("away"),
                          tr("a bot plays"), tr("a bot plays for now")):
                    words.add(_fold(w))
                alias = _fold(tr("Learner {n}", n=7))
                aliases.append(re.compile(re.escape(alias).replace("7", r"[0-9٠-٩۰-۹०-९]+")))
        _LABELS = (words, aliases)
    if ENDS_IN_BRACKETS.fullmatch(name):
        return True
    folded = _fold(name)
    return folded in _LABELS[0] or any(a.fullmatch(folded) for a in _LABELS[1])


def _dumps(msg) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


# ----------------------------------------------------------------------------- the table core
class _TableHost:
    """The server's one meeting point with the table core it shares with the notebook's
    CardTable (courtlearn/widgets/core.py): a core ``Table`` (the Session, the bots) and
    one core ``Seat`` per seat, each seat's window on it (its snapshots, its intents).
    The room decides who sits where and who plays a seat; the core builds what a seat
    sees and takes what it asks, and the engine judges."""

    def __init__(self, session: Session, language: str, hints: bool):
        from courtlearn.widgets import core
        self.core = core.Table(session)
        self.seats = [core.Seat(self.core, s, hints=hints, language=language) for s in range(4)]
        self._rev = [0, 0, 0, 0]

    @property
    def session(self) -> Session:
        return self.core.session

    @property
    def deal(self) -> Deal:
        return self.core.deal

    def new_deal(self) -> None:
        """The session's deal was replaced: every window starts afresh."""
        self.core.set(self.core.session)

    def forget(self, seat: int) -> None:
        """Nobody watches the seat: its next picture starts afresh (no trick flies in from
        a picture the page never had)."""
        self.seats[seat].last = None

    def snapshot(self, seat: int, players, message=None, kind="info", hints=False,
                 connected=None) -> dict:
        """What ``seat``'s page draws now (the core's snapshot: deal.view(seat) only);
        ``connected``: each seat's learner connected (True), away (False) or none (None)."""
        window = self.seats[seat]
        window.players = list(players)
        window.connected = connected
        if window.hints != hints:
            window.hints = hints
        snap = window.snapshot(message, kind)
        if window.last is snap:
            # the window keeps its last picture only to see what moved next time (the
            # trick on show, how many tricks, the piles): those parts alone are kept, not
            # the whole picture (some 200 objects a seat, replaced at every move, which
            # the garbage collector walked again and again: 25 ms pauses, issue 29)
            window.last = {"last": snap["last"], "done": snap["done"],
                           "piles_raw": snap["piles_raw"]}
        return snap

    def rev(self, seat: int) -> int:
        self._rev[seat] += 1
        return self._rev[seat]

    def handle(self, seat: int, content):
        """The core's Outcome of what ``seat``'s page asks; Refusal with its sentence."""
        from courtlearn.widgets.core import Refused
        try:
            return self.seats[seat].handle(content)
        except Refused as err:
            raise Refusal(str(err)) from None

    def run_bots(self, bot, bot_seats, on_step) -> str | None:
        """``bot`` plays ``bot_seats`` until a person is to act or the deal is over,
        ``on_step(seat)`` after each move; returns the sentence of a bot's failure."""
        self.core.bots = {s: bot for s in bot_seats}
        who = [self.core.deal.actor]

        def step():
            on_step(who[0])
            who[0] = self.core.deal.actor
        return self.core.run_bots(step)


def _build_deal(rules: Rules, spec: dict) -> Deal:
    """A deal from its stored spec: a seed and a dealer, or a saved deal (to_dict)."""
    if "dict" in spec:
        return Deal.from_dict(spec["dict"])
    return Deal(rules, dealer=spec["dealer"], seed=spec["seed"])


def _derived_seed(*parts) -> int:
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:6], "big")


# ----------------------------------------------------------------------------- people and tables
class Learner:
    """A learner of the class: a name, a token (only its hash is kept), a seat or none."""

    __slots__ = ("id", "name", "token_hash", "hub_user", "conns", "table", "seat", "removed")

    def __init__(self, id: int, name: str, token_hash: str, hub_user=None):
        self.id = id
        self.name = name
        self.token_hash = token_hash
        self.hub_user = hub_user
        self.conns: list = []
        self.table: Table | None = None
        self.seat: int | None = None
        self.removed = False

    @property
    def connected(self) -> bool:
        return bool(self.conns)

    def __repr__(self) -> str:
        where = f" at table {self.table.number + 1} seat {self.seat}" if self.table else ""
        return f"<Learner {self.id} {self.name!r}{where}{'' if self.conns else ', away'}>"


class Seat:
    __slots__ = ("learner", "away_since", "bot_plays", "timer")

    def __init__(self):
        self.learner: Learner | None = None
        self.away_since: float | None = None
        self.bot_plays = False           # the learner is gone longer than allowed
        self.timer = None

    def status(self) -> str:
        """"here", "away" (gone, within the teacher's grace), "bot" (gone longer: a bot
        plays for them) or "empty" (a bot plays)."""
        if self.learner is None:
            return "empty"
        if self.learner.conns:
            return "here"
        return "bot" if self.bot_plays else "away"


class Table:
    """One table of four: its Session (and so its Deal), who sits where."""

    def __init__(self, room: "Room", id: int, number: int, session: Session):
        self.room = room
        self.id = id
        self.number = number              # 0-based; learners read number + 1
        self.host = _TableHost(session, room.language, room.settings["hints"])
        self.seats = [Seat() for _ in range(4)]
        self.deal_id: int | None = None
        self.deal_number = -1
        self.batch: int | None = None
        self.players: list[str] = []
        self.ready: set[int] = set()      # seats whose learner asked for the next deal
        self.ready_at: float | None = None    # (room.clock) when it starts without the rest
        self.ready_timer = None

    @property
    def session(self) -> Session:
        return self.host.session

    @property
    def deal(self) -> Deal:
        return self.host.session.deal

    @property
    def rules(self) -> Rules:
        return self.host.session.rules

    def actions_count(self) -> int:
        """``len(deal.actions)``, worked out once per move (the engine rebuilds the list
        from its log at each call; the room asked four times a move, once per seat)."""
        deal = self.deal
        key = (id(deal), len(deal._log))
        if self._count[0] != key:
            self._count = (key, len(deal.actions))
        return self._count[1]

    _count = (None, 0)

    def bot_seat(self, seat: int) -> bool:
        return self.seats[seat].status() in ("bot", "empty")

    def connected(self) -> list:
        """Each seat's learner: connected (True), away (False), or no learner (None)."""
        return [None if st.learner is None else bool(st.learner.conns) for st in self.seats]

    def anyone_here(self) -> bool:
        return any(s.learner is not None and s.learner.conns for s in self.seats)

    def info(self) -> dict:
        """Who sits where (names as text), the deal's stage: for the teacher and tests."""
        deal = self.deal
        return {"table": self.number, "game": self.rules.game, "deal": self.deal_number,
                "phase": str(deal.phase), "actions": len(deal.actions),
                "to_play": deal.actor, "tricks": len(deal.tricks),
                "courts": list(self.session.courts),
                "seats": [{"seat": s, "name": st.learner.name if st.learner else None,
                           "learner": st.learner.id if st.learner else None,
                           "status": st.status()} for s, st in enumerate(self.seats)]}

    def __repr__(self) -> str:
        names = [s.learner.name if s.learner else "bot" for s in self.seats]
        return f"<Table {self.number + 1} {self.rules.game} deal {self.deal_number + 1} {names}>"

    def __str__(self) -> str:
        """The table in the language, for a teacher's ``print(table)``; ``repr`` stays English.

        ``Table 1, Court Piece, deal 1: Asha, Bilal, Chandni, Danish``; an empty seat or one
        handed to a bot reads "a bot".
        """
        names = [s.learner.name if s.learner else tr("a bot") for s in self.seats]
        return tr("Table {n}, {game}, deal {deal}: {names}", n=self.number + 1,
                  game=game_word(self.rules.game), deal=self.deal_number + 1,
                  names=tr(", ").join(names))


# ----------------------------------------------------------------------------- the room
class Room:
    """A class: its code, tables, learners and settings, kept in a :class:`Store`.

    Build one with :meth:`create` (a new class) or :meth:`load` (a class saved in the
    store, e.g. after a restart). ``loop`` is the asyncio loop the server runs in: the
    room uses it to send what a tick produced after one commit, and for the bots'
    grace timers. Without a loop (tests, scripts) every call commits and sends at once.
    """

    def __init__(self, store: Store, code: str, language: str, settings: dict, loop=None,
                 clock=time.monotonic):
        self.store = store
        self.code = code
        self.language = language_code(language)
        self.settings = {"grace": GRACE, "hints": False, "learners_deal": True, "paused": False,
                         **settings}
        self.loop = loop
        self.clock = clock
        self.tables: list[Table] = []
        self.learners: dict[int, Learner] = {}
        self._by_hash: dict[str, Learner] = {}
        self._outbox: list[tuple] = []
        self._flush_due = False
        self._lobby_due = False
        self._lobby_conns: list = []       # connections with no seat (they see the lobby)
        self._lobby_text: str | None = None
        self._teacher_token: str | None = None          # this process's, issued when asked
        self._teacher_hashes: list[str] = store.teacher_tokens(code)
        self._bot = RuleBot()
        self.closed = False
        self.server = None                # the ClassServer serving the room, once started
        self.on_change = []               # callables(room) after every flush (the dashboard;
                                          # they throttle themselves, see dashboard.Throttle)
        from .grading import JUDGES, Tally
        self.judges = dict(JUDGES)        # kind -> judge(item, answer, result) (see record)
        self._judging: dict = {}          # (learner, result id) -> its judging under way
        self._title_results()
        self.tally = Tally.of(store.results(code))    # the results, for the dashboard
        if loop is not None:              # a served class: its heap settles once loaded
            from .workers import settle_heap
            loop.call_soon(settle_heap, loop)

    # ------------------------------------------------------------------ making and loading
    @classmethod
    def create(cls, store: Store, code: str | None = None, language: str = "en",
               tables: int = 10, rules: Rules | str | None = None, seed: int | None = None,
               grace: float = GRACE, hints: bool = False, paused: bool = False,
               loop=None) -> "Room":
        """A new class in ``store`` with ``tables`` tables of ``rules`` (a Rules or a game
        name; Court Piece by default). ``code`` fixes the class code (tests, scripts).
        ``paused``: the tables wait for :meth:`resume` (learners take their seats first;
        otherwise the bots of the empty seats start as soon as one learner sits down)."""
        code = new_code() if code is None else check_code(code)
        if store.class_row(code) is not None:
            raise ValueError(f"the store already holds a class with code {code}: "
                             f"Room.load(store, {code!r}) reopens it")
        language = language_code(language)
        settings = {"grace": _grace(grace), "hints": bool(hints), "paused": bool(paused)}
        store.create_class(code, language, settings)
        room = cls(store, code, language, settings, loop=loop)
        room.add_tables(tables, rules=rules, seed=seed)
        room._issue_teacher_token()
        store.commit()
        return room

    @classmethod
    def load(cls, store: Store, code: str, loop=None) -> "Room":
        """The class ``code`` as the store holds it: every table at its last committed
        action (each deal rebuilt and its actions re-applied through the engine)."""
        row = store.class_row(code)
        if row is None:
            raise ValueError(f"the store {store.path} holds no class {code!r}; its classes: "
                             f"{', '.join(store.class_codes()) or 'none'}")
        room = cls(store, code, row["language"], row["settings"], loop=loop)
        for r in store.learners(code):
            lr = Learner(r["id"], r["name"], r["token_hash"], r["hub_user"])
            lr.removed = bool(r["removed"])
            room.learners[lr.id] = lr
            if not lr.removed:
                room._by_hash[lr.token_hash] = lr
        for t in store.tables(code):
            room.tables.append(room._load_table(t))
        room._wait_for_everyone()
        return room

    def _wait_for_everyone(self) -> None:
        """After a (re)start every seated learner is away: their grace starts now."""
        for t in self.tables:
            for s, st in enumerate(t.seats):
                if st.learner is not None and not st.learner.conns:
                    self._start_grace(t, s)

    def _load_table(self, row: dict) -> Table:
        rules = Rules.from_dict(row["rules"])
        session = Session(rules, seed=row["seed"], dealer=row["first_dealer"])
        table = Table(self, row["id"], row["number"], session)
        for i, d in enumerate(self.store.deals(row["id"])):
            deal = _build_deal(rules, d["spec"])
            if i > 0 and session.deal.over:
                session.next_deal()                  # scores the finished deal
            session.deal = deal
            tokens = self.store.actions(d["id"])
            try:
                deal.apply(tokens)
            except ValueError as err:
                raise ValueError(f"table {row['number'] + 1}, deal {d['number'] + 1}: a saved "
                                 f"action was refused on replay ({err})") from None
            table.deal_id, table.deal_number, table.batch = d["id"], d["number"], d["batch"]
        for seat, lid in self.store.seats(row["id"]).items():
            lr = self.learners.get(lid) if lid is not None else None
            if lr is not None and not lr.removed:
                table.seats[seat].learner = lr
                lr.table, lr.seat = table, seat
        for st in table.seats:
            if st.learner is not None:
                st.away_since = self.clock()
        self._players(table)
        return table

    def add_tables(self, n: int, rules: Rules | str | None = None, seed: int | None = None):
        """Add ``n`` tables of ``rules`` (Court Piece by default); returns them."""
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 1000:
            raise ValueError(f"tables is a whole number 0..1000; got {n!r}")
        if rules is None:
            rules = Rules.court_piece()
        elif isinstance(rules, str):
            rules = Rules.of(rules)
        elif not isinstance(rules, Rules):
            raise TypeError("rules is a Rules (cl.Rules.double_sir()) or a game name")
        base = secrets.randbits(31) if seed is None else seed
        made = []
        for _ in range(n):
            number = len(self.tables)
            tseed = _derived_seed(base, self.code, number)
            dealer = tseed % 4
            tid = self.store.add_table(self.code, number, rules.to_dict(), tseed, dealer)
            session = Session(rules, seed=tseed, dealer=dealer)
            table = Table(self, tid, number, session)
            self._start_deal(table, {"seed": session.deal.seed, "dealer": session.deal.dealer},
                             session.deal)
            self.tables.append(table)
            self._players(table)
            made.append(table)
        self._lobby_changed()
        self._done()
        return made

    def _start_deal(self, table: Table, spec: dict, deal: Deal, batch=None) -> None:
        table.session.deal = deal
        table.deal_number += 1
        table.batch = batch
        table.deal_id = self.store.add_deal(table.id, table.deal_number, spec, batch)
        table.host.new_deal()
        self._not_ready(table)

    # ------------------------------------------------------------------ sending
    def _send(self, conn, msg) -> None:
        self._outbox.append((conn, msg if isinstance(msg, str) else _dumps(msg)))
        self._want_flush()

    def _want_flush(self) -> None:
        if self._flush_due or self.loop is None:
            return
        self._flush_due = True
        self.loop.call_soon(self._flush_quietly)

    def _flush_quietly(self) -> None:
        """The loop's flush: a disk that refused is handled (and said once) by flush."""
        try:
            self.flush()
        except Exception:
            if self.storage_trouble is None:
                raise

    def _done(self) -> None:
        """End of a call from outside: without a loop, commit and send now; with one, at the
        end of this tick (a teacher's call that sends nothing still commits, and the
        dashboards hear of it)."""
        if self.loop is None:
            self.flush()
        else:
            self._want_flush()

    def flush(self) -> None:
        """Commit what this tick wrote, then send what it said (in that order: nothing is
        acknowledged before it is saved)."""
        self._flush_due = False
        if self.closed:                     # after close(): the store may be closed too
            self._outbox = []
            return
        wrote = self.store.pending
        try:
            self.store.commit()
        except Exception as err:            # the disk refused: forget what was not saved
            lost, self._outbox = self._outbox, []
            self._after_failed_commit()
            self._storage_failed(err)
            self._unsaved_replies(lost)
            raise
        if self.storage_trouble is not None and wrote:
            self._storage_back()
        out, self._outbox = self._outbox, []
        for conn, text in out:
            try:
                conn.send(text)
            except Exception:               # a socket that just closed: its close handler runs
                pass
        for fn in list(self.on_change):
            try:
                fn(self)
            except Exception:              # a dashboard's fault never stops the class
                log.exception("an on_change hook failed")

    # -- a disk that refuses (issue 29): back off, tell the teacher, keep the pages
    storage_trouble: str | None = None      # the sentence while the class cannot save
    _storage_wait = 0.0
    _storage_retry = 0.0

    def saving_refused(self) -> str | None:
        """The sentence for a change asked while the class cannot save (the disk refused
        lately: nothing is tried until the back-off is over), else None."""
        if self.storage_trouble is None or self.clock() >= self._storage_retry:
            return None
        with using(self.language):
            return tr("The class server cannot save just now; nothing changed. The teacher "
                      "has been told: try again in a moment.")

    def _storage_failed(self, err) -> None:
        first = self.storage_trouble is None
        low, high = STORAGE_BACKOFF
        self._storage_wait = low if first else min(high, self._storage_wait * 2)
        self._storage_retry = self.clock() + self._storage_wait
        with using(self.language):
            self.storage_trouble = tr("The class cannot save to its file {path} ({why}): "
                                      "nothing new is kept until it can. Free some disk "
                                      "space; the class goes on by itself once it saves.",
                                      path=self.store.path, why=str(err)[:80])
        log.error("the class file %s could not be saved (%s): changes are refused for %.0f s",
                  self.store.path, str(err)[:80], self._storage_wait)
        if self.server is not None and hasattr(self.server, "storage_changed"):
            self.server.storage_changed(self.storage_trouble)

    def _unsaved_replies(self, lost) -> None:
        """The pages whose request was not saved hear so (their reply turned into a
        refusal with the sentence), with the next flush."""
        for conn, text in lost:
            if not text.startswith('{"type":"custom"') or '"reply_to"' not in text:
                continue
            msg = json.loads(text)
            msg["content"].update(ok=False, reason=self.storage_trouble)
            self._send(conn, msg)

    def _storage_back(self) -> None:
        self.storage_trouble = None
        log.warning("the class file %s saves again", self.store.path)
        if self.server is not None and hasattr(self.server, "storage_changed"):
            self.server.storage_changed(None)
        for t in self.tables:
            self._bots(t)

    def _after_failed_commit(self) -> None:
        """Every table back to what the store holds (learners, seats, settings and deals as
        last committed); every page stays, shown the class as it was saved (one whose
        learner was not saved is asked to join again)."""
        self.store.rollback()
        pairs = [(c, lr.id) for lr in self.learners.values() for c in lr.conns]
        pairs += [(c, getattr(getattr(c, "learner", None), "id", None))
                  for c in self._lobby_conns if all(c is not p for p, _ in pairs)]
        conns = []
        saved = {r["id"] for r in self.store.learners(self.code)}
        for lid in [lid for lid in self.learners if lid not in saved]:
            self._by_hash.pop(self.learners.pop(lid).token_hash, None)
        for lr in self.learners.values():
            lr.table = lr.seat = None
            lr.conns = []
        for t in self.tables:
            for st in t.seats:
                if st.timer is not None:
                    st.timer.cancel()
        self._lobby_conns = []
        self._lobby_text = None
        from .grading import Tally
        self.tally = Tally.of(self.store.results(self.code))
        self.settings.update(self.store.class_row(self.code)["settings"])
        self._teacher_hashes = self.store.teacher_tokens(self.code)
        if self._teacher_token is not None and \
                token_hash(self._teacher_token) not in self._teacher_hashes:
            self._teacher_token = None
        self.tables = [self._load_table(row) for row in self.store.tables(self.code)]
        self._wait_for_everyone()
        with using(self.language):
            for c, lid in pairs:
                c.learner = None
                lr = self.learners.get(lid)
                if lr is None or lr.removed:
                    self._send(c, {"type": "refused", "rejoin": True,
                                   "reason": tr("The class server could not save your joining: "
                                                "join again in a moment.")})
                    continue
                self._attach(c, lr)
                if lr.table is None:
                    self._lobby_conns.append(c)
                    self._send(c, {"type": "unseated"})
                    self._send(c, self._lobby_json())
                else:
                    self._seated(c, lr)
                    st = lr.table.seats[lr.seat]
                    if st.timer is not None:
                        st.timer.cancel()
                        st.timer = None
                    st.away_since = None
                    lr.table.host.forget(lr.seat)
        for t in self.tables:
            if t.anyone_here():
                self._refresh(t)

    # ------------------------------------------------------------------ what learners see
    def _players(self, table: Table) -> list[str]:
        with using(self.language):
            out = []
            for st in table.seats:
                status = st.status()
                if status == "empty":
                    out.append(tr("Bot"))
                elif status == "here":
                    out.append(st.learner.name)
                elif status == "away":
                    out.append(tr("{name} (away)", name=st.learner.name))
                else:
                    out.append(tr("{name} (a bot plays for now)", name=st.learner.name))
        table.players = out
        return out

    def _state_to(self, table: Table, seat: int, frames: list[dict], more=False, follows=False):
        """Send ``seat``'s frames to every socket of the learner there."""
        lr = table.seats[seat].learner
        if lr is None or not lr.conns:
            return
        text = None
        for conn in lr.conns:
            self._words_to(conn, table, frames[0])
            if text is None:
                text = _dumps({"type": "state", "table": table.number, "deal": table.deal_number,
                               "actions": table.actions_count(),
                               "state": {"rev": table.host.rev(seat),
                                         "frames": [self._lean(f) for f in frames],
                                         "follows": follows, "more": more}})
            self._send(conn, text)

    def _words_to(self, conn, table: Table, frame: dict) -> None:
        """The words of the table (names, labels) once per socket and rules; the frames go
        without them and the page's model puts them back."""
        key = (self.language, table.rules)
        if getattr(conn, "words_key", None) != key and "names" in frame:
            conn.words_key = key
            self._send(conn, {"type": "words", "names": frame["names"], "words": frame["words"],
                              "lang": frame["lang"], "dir": frame["dir"]})

    def _snap(self, table: Table, seat: int, message=None, kind="info") -> dict:
        with using(self.language):
            return table.host.snapshot(seat, table.players, message=message, kind=kind,
                                       hints=self.settings["hints"],
                                       connected=table.connected())

    @staticmethod
    def _lean(snap: dict) -> dict:
        return {k: v for k, v in snap.items() if k != "names" and k != "words"}

    def _frames_after(self, table: Table, watching: list[int], frames: dict) -> None:
        for s in watching:
            frames.setdefault(s, []).append(self._snap(table, s))

    def _watching(self, table: Table) -> list[int]:
        out = []
        for s, st in enumerate(table.seats):
            if st.learner is not None and st.learner.conns:
                out.append(s)
            else:
                table.host.forget(s)          # its next picture starts afresh
        return out

    def _refresh(self, table: Table, message_to: dict | None = None) -> None:
        """A fresh picture (and the roster) to everyone at the table."""
        self._players(table)
        roster = self._roster(table)
        for s in self._watching(table):
            msg = (message_to or {}).get(s)
            snap = self._snap(table, s, *(msg or ()))
            self._state_to(table, s, [snap])
            for conn in table.seats[s].learner.conns:
                self._send(conn, roster)

    def _roster(self, table: Table) -> str:
        """Who sits where, and who asked for the next deal: ``ready`` (seats) and
        ``deal_in`` (seconds until it starts without the others; None: nobody asked)."""
        left = None if table.ready_at is None else round(max(0.0, table.ready_at - self.clock()), 1)
        return _dumps({"type": "table", "table": table.number, "paused": self.settings["paused"],
                       "seats": [{"seat": s, "name": st.learner.name if st.learner else None,
                                  "status": st.status()} for s, st in enumerate(table.seats)],
                       "ready": sorted(table.ready), "deal_in": left})

    def _roster_to(self, table: Table) -> None:
        """The roster alone to everyone at the table (who is ready changed)."""
        roster = self._roster(table)
        for s in self._watching(table):
            for conn in table.seats[s].learner.conns:
                self._send(conn, roster)

    # ------------------------------------------------------------------ notices
    def _tell(self, lr: Learner | None, text: str) -> None:
        """Say on every page of ``lr`` what the teacher did to their seat or table
        (``{"type": "notice", "text": ...}``; the page shows it above the table)."""
        if lr is None:
            return
        msg = _dumps({"type": "notice", "text": text})
        for conn in lr.conns:
            self._send(conn, msg)

    # ------------------------------------------------------------------ the lobby
    def lobby(self) -> dict:
        """The public list of tables: each seat's learner name (text) or free."""
        with using(self.language):
            places = {}
            out = []
            for t in self.tables:
                if t.rules not in places:
                    places[t.rules] = (t.rules.title, t.rules.seat_names())
                title, names = places[t.rules]
                out.append({"table": t.number, "game": t.rules.game, "title": title,
                            "seats": [{"seat": s, "name": st.learner.name if st.learner else None,
                                       "place": names[s]} for s, st in enumerate(t.seats)]})
            return {"type": "lobby", "tables": out}

    def _lobby_json(self) -> str:
        """The lobby as sent (built again only after a seat changed)."""
        if self._lobby_text is None:
            self._lobby_text = _dumps(self.lobby())
        return self._lobby_text

    def _lobby_changed(self) -> None:
        self._lobby_text = None
        if not self._lobby_conns:
            return
        if self.loop is None:
            self._send_lobby()
        elif not self._lobby_due:
            self._lobby_due = True
            wait = max(LOBBY_DELAY, self._lobby_next - self.clock())
            self.loop.call_later(wait, self._send_lobby)

    _lobby_next = 0.0           # (clock) when the lobby's bytes allow the next update

    def _send_lobby(self) -> None:
        """The lobby as it is now to every page choosing a seat: at most every LOBBY_DELAY
        seconds, and less often when there are so many pages that the updates would take
        more than LOBBY_BYTES a second (the latest lobby wins: nothing queues up)."""
        self._lobby_due = False
        if not self._lobby_conns:
            return
        text = self._lobby_json()
        self._lobby_next = self.clock() + len(text) * len(self._lobby_conns) / LOBBY_BYTES
        for conn in self._lobby_conns:
            self._send(conn, text)
        self._done()

    # ------------------------------------------------------------------ the teacher's token
    def _issue_teacher_token(self) -> str:
        token = secrets.token_urlsafe(32)
        digest = token_hash(token)
        self.store.add_teacher_token(self.code, digest)
        self._teacher_hashes.append(digest)
        self._teacher_token = token
        return token

    @property
    def teacher_token(self) -> str:
        """The teacher's token: it opens the teacher page (``/teacher``) and its socket.
        Only its hash is stored, so a restarted server still takes it; a class loaded from
        the store issues this process a new one when first asked (the earlier ones keep
        working until :meth:`new_teacher_token`). Never sent to a learner's page."""
        if self._teacher_token is None:
            self._issue_teacher_token()
            self._done()
        return self._teacher_token

    def check_teacher(self, token) -> bool:
        """Whether ``token`` is one of the class's teacher tokens (hashes compared in
        constant time)."""
        if not isinstance(token, str) or not 20 <= len(token) <= 100:
            return False
        digest = token_hash(token).encode()
        found = False
        for known in self._teacher_hashes:
            found |= hmac.compare_digest(digest, known.encode())
        return found

    def new_teacher_token(self) -> str:
        """Every teacher token so far stops working (a link that went astray) and teacher
        pages open with one are closed; returns the new token."""
        self.store.clear_teacher_tokens(self.code)
        self._teacher_hashes = []
        token = self._issue_teacher_token()
        if self.server is not None:
            self.server.teachers_revoked()
        self._done()
        return token

    def teacher_link(self, address: str | None = None) -> str | None:
        """The teacher page's address (``address``, or the server's first join address)
        with the token after ``#``: a fragment never goes to a server, nor in a Referer.
        None without a server and an address."""
        if address is None:
            if self.server is None:
                return None
            address = self.server.addresses()[0]
        return f"{address.rstrip('/')}/teacher#{self.teacher_token}"

    # ------------------------------------------------------------------ learners arrive
    def check_code(self, code) -> bool:
        """Whether ``code`` is this class's code (compared in constant time; any case)."""
        if not isinstance(code, str) or len(code) > 32:
            return False
        return hmac.compare_digest(code.strip().upper().encode(), self.code.encode())

    def register(self, name, hub_user=None) -> tuple[Learner, str]:
        """A new learner: returns the Learner and their seat token (shown only to them)."""
        with using(self.language):
            name = clean_name(name)
            if self.learner_count() >= self.max_learners:
                raise Refusal(tr("The class is full ({n} learners): ask the teacher to make "
                                 "room.", n=self.max_learners))
        token = secrets.token_urlsafe(32)
        h = token_hash(token)
        old = None if hub_user is not None else self._removed_named(name)
        if old is not None:                   # the same learner again (results identity)
            return self._come_back(old, h), token
        lid = self.store.add_learner(self.code, h, name, hub_user)
        lr = Learner(lid, name, h, hub_user)
        self.learners[lid] = lr
        self._by_hash[h] = lr
        return lr, token

    def learner_count(self) -> int:
        """Learners of the class (not the removed ones)."""
        return sum(1 for lr in self.learners.values() if not lr.removed)

    @property
    def max_learners(self) -> int:
        """How many learners the class takes (MAX_LEARNERS unless the teacher raised it):
        a flood of joins stops there."""
        return int(self.settings.get("max_learners", MAX_LEARNERS))

    def set_max_learners(self, n: int) -> None:
        """Let the class take ``n`` learners (1..100000; kept in the class file)."""
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 100_000:
            raise ValueError(f"max_learners is a whole number 1..100000; got {str(n)[:20]!r}")
        self._set("max_learners", n)
        self._done()

    def let_back(self, learner) -> None:
        """A removed learner may join again (their page's seat token works again; on a
        JupyterHub, their next page load joins them)."""
        lr = self._learner(learner)
        if not lr.removed:
            return
        lr.removed = False
        self._by_hash[lr.token_hash] = lr
        self.store.readmit_learner(lr.id)
        self._done()

    def learner_for(self, token) -> Learner | None:
        if not isinstance(token, str) or not 20 <= len(token) <= 100:
            return None
        return self._by_hash.get(token_hash(token))

    def hello(self, conn, code=None, name=None, token=None) -> Learner:
        """A page says hello: with the class code and a name (first visit: registers and
        sends the token once) or with its token (returning: same seat, same hand).
        Refusal when neither holds."""
        with using(self.language):
            fresh_token = None
            if token is not None:
                lr = self.learner_for(token)
                if lr is None:
                    raise Refusal(tr("This page's seat is no longer known to the class: join "
                                     "again with the class code."), rejoin=True)
            else:
                if not self.check_code(code):
                    raise Refusal(tr("That is not the class code."))
                lr, fresh_token = self.register(name)
            self._attach(conn, lr)
            welcome = {"type": "welcome", "name": lr.name, "learner": lr.id, "code": self.code}
            if fresh_token is not None:
                welcome["token"] = fresh_token
            self._send(conn, welcome)
            if lr.table is None:
                self._lobby_conns.append(conn)
                self._send(conn, self._lobby_json())
            else:
                self._seated(conn, lr)
                self._arrived(lr.table, lr.seat, conn)
        self._done()
        return lr

    def _attach(self, conn, lr: Learner) -> None:
        old = getattr(conn, "learner", None)
        if old is not None and old is not lr:
            self.disconnect(conn)
        conn.learner = lr
        if conn not in lr.conns:
            while len(lr.conns) >= MAX_SOCKETS:      # the oldest page gives way
                gone = lr.conns.pop(0)
                gone.learner = None
                if gone in self._lobby_conns:
                    self._lobby_conns.remove(gone)
                try:
                    gone.close(4409, "this learner opened more pages")
                except Exception:
                    pass
            lr.conns.append(conn)

    def _seated(self, conn, lr: Learner) -> None:
        t = lr.table
        self._send(conn, {"type": "seated", "table": t.number, "seat": lr.seat,
                          "place": t.rules.seat_name(lr.seat)})

    def _arrived(self, table: Table, seat: int, conn=None) -> None:
        """A learner's socket is (back) at the seat: the bot hands it back. ``conn``: the
        page that said hello; it gets its picture now, the table-mates (whose pages show
        who is here) theirs once within PRESENCE_DELAY, and none at all when the learner
        was here already on another page."""
        st = table.seats[seat]
        back = st.away_since is not None or st.bot_plays or st.timer is not None
        if st.timer is not None:
            st.timer.cancel()
            st.timer = None
        st.away_since = None
        st.bot_plays = False
        table.host.forget(seat)
        if conn is None:
            self._refresh(table)
        else:
            self._players(table)
            self._state_to(table, seat, [self._snap(table, seat)])
            self._send(conn, self._roster(table))
            if back:
                self._presence(table)
        self._bots(table)

    def _presence(self, table: Table) -> None:
        """Who is here changed at ``table``: its pages redraw once within PRESENCE_DELAY,
        however often it changes meanwhile (a page reconnecting in a loop)."""
        if self.loop is None:
            self._refresh(table)
            return
        if getattr(table, "presence_due", False):
            return
        table.presence_due = True
        self.loop.call_later(PRESENCE_DELAY, self._presence_now, table)

    def _presence_now(self, table: Table) -> None:
        table.presence_due = False
        if self.closed or table not in self.tables:
            return
        self._refresh(table)
        self._done()

    def take_seat(self, conn, table, seat) -> None:
        lr = getattr(conn, "learner", None)
        with using(self.language):
            if lr is None:
                raise Refusal(tr("Join the class first."))
            if isinstance(table, bool) or not isinstance(table, int) or \
                    not 0 <= table < len(self.tables):
                raise Refusal(tr("There is no such table."))
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
                raise Refusal(tr("A table has seats 0 to 3."))
            t = self.tables[table]
            holder = t.seats[seat].learner
            if holder is lr:
                self._seated(conn, lr)
                self._done()
                return
            if holder is not None:
                raise Refusal(tr("That seat is taken: choose a free one."))
            self._seat(lr, t, seat)
        self._done()

    def _seat(self, lr: Learner, t: Table, seat: int) -> None:
        if lr.table is not None:
            self._unseat(lr)
        t.seats[seat].learner = lr
        lr.table, lr.seat = t, seat
        self.store.set_seat(t.id, seat, lr.id)
        self._lobby_conns = [c for c in self._lobby_conns if c not in lr.conns]
        for conn in lr.conns:
            self._seated(conn, lr)
        if lr.conns:
            self._arrived(t, seat)
        else:
            t.seats[seat].away_since = self.clock()
            self._start_grace(t, seat)
            self._refresh(t)
        self._lobby_changed()

    def _unseat(self, lr: Learner) -> None:
        t, seat = lr.table, lr.seat
        st = t.seats[seat]
        if st.timer is not None:
            st.timer.cancel()
        t.seats[seat] = Seat()
        t.host.forget(seat)
        lr.table = lr.seat = None
        self.store.set_seat(t.id, seat, None)
        for conn in lr.conns:
            self._send(conn, {"type": "unseated"})
            if conn not in self._lobby_conns:
                self._lobby_conns.append(conn)
        self._refresh(t)
        self._bots(t)
        self._lobby_changed()
        if lr.conns:
            text = self._lobby_json()
            for conn in lr.conns:
                self._send(conn, text)

    def leave(self, conn) -> None:
        lr = getattr(conn, "learner", None)
        if lr is not None and lr.table is not None:
            self._unseat(lr)
        self._done()

    def disconnect(self, conn) -> None:
        """A socket closed. When it was the learner's last, their seat waits for them for
        the teacher's grace time, then a bot plays it until they are back."""
        if conn in self._lobby_conns:
            self._lobby_conns.remove(conn)
        lr = getattr(conn, "learner", None)
        conn.learner = None
        if lr is None or conn not in lr.conns:
            return
        lr.conns.remove(conn)
        if lr.conns or lr.table is None:
            return
        t, seat = lr.table, lr.seat
        t.seats[seat].away_since = self.clock()
        self._start_grace(t, seat)
        t.host.forget(seat)
        self._presence(t)
        self._done()

    def _start_grace(self, t: Table, seat: int) -> None:
        st = t.seats[seat]
        grace = self.settings["grace"]
        if grace <= 0:
            st.bot_plays = True
            return
        if self.loop is not None:
            st.timer = self.loop.call_later(grace, self._grace_over, t, seat)

    def _grace_over(self, t: Table, seat: int) -> None:
        st = t.seats[seat]
        st.timer = None
        if st.learner is None or st.learner.conns:
            return
        st.bot_plays = True
        self._refresh(t)
        self._bots(t)
        self._done()

    def check_away(self) -> None:
        """Hand every seat whose learner is gone longer than the grace to its bot (what the
        timers do; for a room run without a loop)."""
        now = self.clock()
        for t in self.tables:
            for s, st in enumerate(t.seats):
                if (st.learner is not None and not st.learner.conns and not st.bot_plays
                        and st.away_since is not None
                        and now - st.away_since >= self.settings["grace"]):
                    self._grace_over(t, s)

    # ------------------------------------------------------------------ learners act
    def intent(self, conn, content) -> None:
        """A message from the table on a learner's page (the widget's own intents): carried
        out for the learner's own seat, or refused with the sentence; either way the page
        gets a reply to its request id."""
        lr = getattr(conn, "learner", None)
        rid = content.get("id") if isinstance(content, dict) else None
        if isinstance(rid, bool) or not isinstance(rid, int):
            rid = None
        with using(self.language):
            try:
                if lr is None or lr.table is None:
                    raise Refusal(tr("Take a seat first."))
                self._intent(lr, content)
            except Refusal as err:
                if lr is not None and lr.table is not None:
                    snap = self._snap(lr.table, lr.seat, message=str(err), kind="error")
                    self._state_to(lr.table, lr.seat, [snap])
                self._reply(conn, rid, False, str(err))
            else:
                self._reply(conn, rid, True)
        self._done()

    def _reply(self, conn, rid, ok: bool, reason=None) -> None:
        if rid is None:
            if not ok:
                self._send(conn, {"type": "refused", "reason": reason})
            return
        msg = {"reply_to": rid, "ok": ok}
        if reason is not None:
            msg["reason"] = reason
        self._send(conn, {"type": "custom", "content": msg})

    def _intent(self, lr: Learner, content) -> None:
        t, seat = lr.table, lr.seat
        kind = content.get("type") if isinstance(content, dict) else None
        if kind in ("review", "best_play"):
            raise Refusal(tr("The class tables have no review or best play during the class."))
        if kind == "review_close":
            return
        if self.settings["paused"]:
            raise Refusal(tr("The teacher has paused the tables."))
        watching = self._watching(t)
        before = len(t.deal.actions)
        outcome = t.host.handle(seat, content)
        if not outcome.moved:                # a hint: this seat's window only
            self._state_to(t, seat, [self._snap(t, seat, outcome.message, outcome.kind)])
            return
        self._record(t, before, seat, "learner")
        frames: dict = {}
        self._frames_after(t, watching, frames)
        self._bots(t, frames, watching)
        for s, fs in frames.items():
            self._state_to(t, s, fs)

    def _record(self, t: Table, before: int, seat, by: str) -> None:
        tokens = t.deal.actions[before:]
        now = time.time()
        self.store.add_actions(t.deal_id, [(before + i, tok, seat, by, now)
                                           for i, tok in enumerate(tokens)])

    def _bots(self, t: Table, frames: dict | None = None, watching=None) -> int:
        """Bots play the seats nobody plays while someone is at the table, until a person
        is to act or the deal is over."""
        if self.settings["paused"] or not t.anyone_here() or self.storage_trouble is not None:
            return 0
        send = frames is None
        if send:
            frames = {}
            watching = self._watching(t)
        moves = [len(t.deal.actions), 0]

        def step(seat):
            self._record(t, moves[0], seat, "bot")
            moves[0] = len(t.deal.actions)
            moves[1] += 1
            self._frames_after(t, watching, frames)
        with using(self.language):
            failure = t.host.run_bots(self._bot, [s for s in range(4) if t.bot_seat(s)], step)
        if failure is not None:                  # logged by the core; the table says so
            for s in watching:
                frames.setdefault(s, []).append(self._snap(t, s, failure, "error"))
        if send:
            for s, fs in frames.items():
                self._state_to(t, s, fs)
        return moves[1]

    def next_deal_request(self, conn) -> None:
        """A learner at a finished deal is ready for the next one. It starts when every
        learner connected at the table is ready (a seat a bot plays, or whose learner is
        away, waits for nobody), or NEXT_DEAL_WAIT seconds after the first asked: the
        others read the result meanwhile, their pages counting down (``ready`` and
        ``deal_in`` in the roster). Without a loop, :meth:`check_ready` ends the wait."""
        lr = getattr(conn, "learner", None)
        with using(self.language):
            if lr is None or lr.table is None:
                raise Refusal(tr("Take a seat first."))
            if self.settings["paused"]:
                raise Refusal(tr("The teacher has paused the tables."))
            if not self.settings["learners_deal"]:
                raise Refusal(tr("The teacher starts the next deal."))
            t = lr.table
            if not t.deal.over:
                raise Refusal(tr("The deal is not over yet."))
            t.ready.add(lr.seat)
            if not self.waiting_for(t):
                self._next_deal(t)
            else:
                if t.ready_at is None:
                    wait = float(self.settings.get("next_deal_wait", NEXT_DEAL_WAIT))
                    t.ready_at = self.clock() + wait
                    if self.loop is not None:
                        t.ready_timer = self.loop.call_later(wait, self._ready_over, t,
                                                             t.deal_number)
                self._roster_to(t)
        self._done()

    def waiting_for(self, t: Table) -> list[int]:
        """The seats whose learner is connected and has not asked for the next deal."""
        return [s for s, st in enumerate(t.seats)
                if st.status() == "here" and s not in t.ready]

    def _not_ready(self, t: Table) -> None:
        """Nobody waits for the next deal at ``t`` any more (it started, or the tables
        paused)."""
        if t.ready_timer is not None:
            t.ready_timer.cancel()
        t.ready, t.ready_at, t.ready_timer = set(), None, None

    def _ready_over(self, t: Table, number: int) -> None:
        """The wait for the others ended: the next deal starts (if it still should)."""
        t.ready_timer = None
        if t.deal_number != number or not t.deal.over or not t.ready or self.settings["paused"]:
            return
        with using(self.language):
            self._next_deal(t)
        self._done()

    def check_ready(self) -> None:
        """Start the next deal at every table whose wait for the others is over (what the
        timers do; for a room run without a loop)."""
        now = self.clock()
        for t in self.tables:
            if t.ready_at is not None and now >= t.ready_at:
                self._ready_over(t, t.deal_number)

    # ------------------------------------------------------------------ the teacher
    def _next_deal(self, t: Table, spec: dict | None = None, batch=None) -> None:
        session = t.session
        if spec is None:
            if t.deal.over:
                deal = session.next_deal()
            else:                            # abandoned: same dealer, a fresh shuffle
                deal = Deal(t.rules, dealer=t.deal.dealer,
                            seed=_derived_seed(session.seed, "abandoned", t.deal_number + 1))
            spec = {"seed": deal.seed, "dealer": deal.dealer}
        else:
            if t.deal.over:
                session.next_deal()
            deal = _build_deal(t.rules, spec)
            if deal.rules != t.rules:
                raise ValueError(f"that deal is played by other rules ({deal.rules.game}) than "
                                 f"table {t.number + 1}'s ({t.rules.game})")
        self._start_deal(t, spec, deal, batch)
        self._refresh(t)
        self._bots(t)

    def new_deal(self, table: int | None = None, abandon: bool = False) -> None:
        """A new deal at every table (or at ``table``): the session's next deal where the
        deal is over, a fresh shuffle (same dealer) where it was not finished. A deal in
        the middle of being played is put away only with ``abandon=True`` (else a
        ValueError names the tables and changes nothing); it stays in :meth:`history`.
        Every learner at those tables is told the teacher dealt anew."""
        tables = self._pick(table)
        self._check_abandon(tables, abandon, "room.new_deal(abandon=True)")
        with using(self.language):
            for t in tables:
                self._next_deal(t)
                self._tell_table(t, tr("The teacher started a new deal at your table."))
        self._done()

    def mid_deal(self, table: int | None = None) -> list[int]:
        """The tables (0-based) whose deal is in the middle of being played: some action
        taken, not over. A new deal there puts the cards played so far away."""
        return [t.number for t in self._pick(table) if t.deal.actions and not t.deal.over]

    def _check_abandon(self, tables: list[Table], abandon, how: str) -> None:
        if not isinstance(abandon, bool):
            raise ValueError(f"abandon is True or False; got {str(abandon)[:20]!r}")
        busy = [t.number + 1 for t in tables if t.deal.actions and not t.deal.over]
        if busy and not abandon:
            with using(self.language):
                raise ValueError(trn(
                    "Table {tables} is in the middle of a deal: a new deal would put its "
                    "cards away. {how} deals anew anyway (the unfinished deal stays in "
                    "room.history()).",
                    "Tables {tables} are in the middle of a deal: a new deal would put their "
                    "cards away. {how} deals anew anyway (the unfinished deals stay in "
                    "room.history()).", len(busy), tables=list_words(busy), how=how))

    def _tell_table(self, t: Table, text: str) -> None:
        for st in t.seats:
            self._tell(st.learner, text)

    def same_deal(self, seed: int | None = None, notation: str | None = None, deal=None,
                  dealer: int = 3, table: int | None = None, abandon: bool = False) -> int:
        """The same cards at every table: a ``seed`` (with ``dealer``), a deal
        ``notation`` or a ``deal`` (a lesson's position). Returns the batch number that
        :meth:`compare` shows side by side. A deal in the middle of being played is put
        away only with ``abandon=True`` (as :meth:`new_deal`)."""
        given = sum(x is not None for x in (seed, notation, deal))
        if given != 1:
            raise ValueError("same_deal takes one of seed=, notation= or deal=")
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise ValueError(f"seed is a whole number; got {seed!r}")
            if isinstance(dealer, bool) or dealer not in (0, 1, 2, 3):
                raise ValueError(f"dealer is a seat 0..3; got {dealer!r}")
            spec = {"seed": seed, "dealer": dealer}
        else:
            if notation is not None:
                deal = Deal.from_notation(notation)
            if not hasattr(deal, "to_dict"):
                raise TypeError("deal is a courtlearn Deal")
            spec = {"dict": deal.to_dict()}
        tables = self._pick(table)
        for t in tables:                      # check every table before changing any
            probe = _build_deal(t.rules, spec)
            if probe.rules != t.rules:
                raise ValueError(f"that deal is played by other rules ({probe.rules.game}) "
                                 f"than table {t.number + 1}'s ({t.rules.game})")
        self._check_abandon(tables, abandon, "room.same_deal(..., abandon=True)")
        batch = self.store.next_batch()
        with using(self.language):
            for t in tables:
                self._next_deal(t, spec, batch)
                self._tell_table(t, tr("The teacher dealt the same cards at every table "
                                       "(same deal {n}).", n=batch))
        self._done()
        return batch

    def _pick(self, table) -> list[Table]:
        if table is None:
            return list(self.tables)
        if isinstance(table, bool) or not isinstance(table, int) or \
                not 0 <= table < len(self.tables):
            raise ValueError(f"table is 0..{len(self.tables) - 1}; got {table!r}")
        return [self.tables[table]]

    def pause(self) -> None:
        """Every table stops: moves are refused and bots wait until :meth:`resume` (and
        the learners who asked for the next deal ask again after it)."""
        self._set("paused", True)
        for t in self.tables:
            self._not_ready(t)
            self._refresh(t)
        self._done()

    def resume(self) -> None:
        self._set("paused", False)
        for t in self.tables:
            self._refresh(t)
            self._bots(t)
        self._done()

    @property
    def paused(self) -> bool:
        return bool(self.settings["paused"])

    def set_grace(self, seconds: float) -> None:
        """How long a learner may be gone before a bot plays for them."""
        self._set("grace", _grace(seconds))
        self._done()

    def set_hints(self, on: bool) -> None:
        self._set("hints", bool(on))
        for t in self.tables:
            self._refresh(t)
        self._done()

    def _set(self, key, value) -> None:
        self.settings[key] = value
        self.store.set_settings(self.code, self.settings)

    def move(self, learner, table: int, seat: int) -> None:
        """Put a learner (a Learner, id or name) at a table's seat (its sitter, if any,
        goes back to the lobby)."""
        lr = self._learner(learner)
        t = self._pick(table)[0]
        if isinstance(seat, bool) or seat not in (0, 1, 2, 3):
            raise ValueError(f"seat is 0..3; got {seat!r}")
        holder = t.seats[seat].learner
        if holder is lr:
            return
        with using(self.language):
            place = t.rules.seat_name(seat)
            if holder is not None:
                self._unseat(holder)
                self._tell(holder, tr("The teacher gave your seat ({place}, table {n}) to "
                                      "another learner: choose a free seat, or wait for the "
                                      "teacher.", place=place, n=t.number + 1))
            self._seat(lr, t, seat)
            self._tell(lr, tr("The teacher moved you to {place}, table {n}.", place=place,
                              n=t.number + 1))
        self._done()

    def to_bot(self, table: int, seat: int) -> None:
        """Hand a seat to a bot: its learner goes back to the lobby."""
        t = self._pick(table)[0]
        if isinstance(seat, bool) or seat not in (0, 1, 2, 3):
            raise ValueError(f"seat is 0..3; got {str(seat)[:20]!r}")
        lr = t.seats[seat].learner
        if lr is not None:
            self._unseat(lr)
            with using(self.language):
                self._tell(lr, tr("The teacher handed your seat ({place}, table {n}) to a "
                                  "bot: choose a free seat, or wait for the teacher.",
                                  place=t.rules.seat_name(seat), n=t.number + 1))
        self._done()

    def remove(self, learner) -> None:
        """Remove a learner from the class: their seat goes to a bot and their token stops
        working (their page returns to the join form)."""
        lr = self._learner(learner)
        if lr.table is not None:
            self._unseat(lr)
        lr.removed = True
        self._by_hash.pop(lr.token_hash, None)
        self.store.remove_learner(lr.id)
        with using(self.language):
            text = _dumps({"type": "removed", "reason": tr("The teacher removed you from the "
                                                           "class.")})
        for conn in list(lr.conns):
            self._send(conn, text)
            self._lobby_conns = [c for c in self._lobby_conns if c is not conn]
            conn.learner = None
        lr.conns.clear()
        self._done()

    def _learner(self, learner) -> Learner:
        if isinstance(learner, Learner):
            return learner
        if isinstance(learner, int) and learner in self.learners:
            return self.learners[learner]
        found = [lr for lr in self.learners.values() if lr.name == learner and not lr.removed]
        if len(found) == 1:
            return found[0]
        raise ValueError(f"no single learner {str(learner)[:40]!r} in the class "
                         f"({len(found)} found)")

    # ------------------------------------------------------------------ looking at the class
    def overview(self) -> list[dict]:
        """Every table: who sits where and whether connected, the deal's stage, courts."""
        return [t.info() for t in self.tables]

    def history(self):
        """A pandas DataFrame, one row per deal at every table: table, deal, batch (same
        deal number), game, dealer, seed, actions, phase, winner, kind, courts, tricks,
        tens, and the names at the seats now."""
        import pandas as pd
        rows = []
        for t in self.tables:
            saved = self.store.deals(t.id)
            for d in saved:
                deal = t.deal if d["id"] == t.deal_id else self._rebuilt(t, d)
                r = deal.result
                rows.append({"table": t.number + 1, "deal": d["number"] + 1, "batch": d["batch"],
                             "game": t.rules.game, "dealer": deal.dealer,
                             "seed": d["spec"].get("seed"), "actions": len(deal.actions),
                             "phase": str(deal.phase),
                             "winner": r.winner if r else None, "kind": r.kind if r else None,
                             "courts": r.courts if r else None,
                             "tricks": tuple(r.tricks) if r else tuple(deal.tricks_won),
                             "tens": tuple(r.tens) if r else None,
                             "players": tuple(st.learner.name if st.learner else None
                                              for st in t.seats)})
        return pd.DataFrame(rows)

    def compare(self, batch: int | None = None):
        """The tables' results of one same deal (the latest by default), side by side."""
        frame = self.history()
        if frame.empty or frame["batch"].isna().all():
            return frame.iloc[0:0]
        if batch is None:
            batch = frame["batch"].max()
        return frame[frame["batch"] == batch].reset_index(drop=True)

    def _rebuilt(self, t: Table, d: dict) -> Deal:
        deal = _build_deal(t.rules, d["spec"])
        deal.apply(self.store.actions(d["id"]))
        return deal

    # ------------------------------------------------------------------ results (issue 26)
    def record(self, learner, result: dict, title: str | None = None):
        """Judge one result of ``learner`` (a Learner or their id) and store it: the one
        place every result reaches the class (the notebooks' ``POST api/results``, the
        learner pages' quiz and puzzles). ``result``: a dict as
        :mod:`courtlearn.classroom.grading` describes (``id``, ``kind``, ``item``,
        ``answer``; ``seconds``, ``at``, ``ref`` when known). The answer is judged by
        ``self.judges[kind](item, answer, result)`` (exercises and puzzles by the
        checkers the notebook used; the quiz adds its own judge), which returns True or
        False, None for what is not an answer, or raises Refusal when there is no such
        item. Returns a :class:`~courtlearn.classroom.grading.Stored` (``.right``,
        ``.attempt``, ``.duplicate``: the same id again changes nothing); raises
        :class:`Refusal` with the sentence when refused: nothing is stored. What the
        dashboard shows of it (``title``: the item's, by default its title from
        grading.item_title) is stored with it. The write is committed with the room's
        next flush (at once without a loop).

        This judges here and now, in the caller's thread: the class server (its loop
        must not think) calls :meth:`record_async`, which judges in the room's workers."""
        with using(self.language):
            lr, r, old = self._result_in(learner, result)
            if old is not None:
                return old
            right = self._judged(r, self.judges.get(r["kind"]), r["kind"])
        return self._keep(lr, r, right, title)

    def record_judged(self, learner, result: dict, right: bool, title: str | None = None):
        """Store a result judged already, off the loop, by the judge :meth:`record` would
        call (a class puzzle's try: its line was judged with the card that ended it,
        class_puzzles.turn): checked and stored as record does, never judged again."""
        with using(self.language):
            lr, r, old = self._result_in(learner, result)
            if old is not None:
                return old
        return self._keep(lr, r, bool(right), title)

    async def record_async(self, learner, result: dict, title: str | None = None,
                           group=None):
        """:meth:`record`, the judging done off the event loop: in the room's
        :attr:`workers` (a process pool), in ``learner``'s own queue (``group``: the
        address the request came from). Raises :class:`Refusal` as record does (with
        ``fault=True`` for the server's own failures, and ``busy=True`` when too much of
        the learner's work waits already: send it again later)."""
        from .grading import JUDGES
        from .workers import Busy, judge
        with using(self.language):
            lr, r, old = self._result_in(learner, result)
            if old is not None:
                return old
            kind = r["kind"]
            fn = self.judges.get(kind)
            if fn is None or fn is not JUDGES.get(kind):   # the quiz's: a look-up, here
                right = self._judged(r, fn, kind)
                return self._keep(lr, r, right, title)
            key = (lr.id, r["id"])
            pending = self._judging.get(key)
            if pending is None:                            # (a resend waits for the first)
                try:
                    pending = self.workers.submit(lr.id, judge, kind, r["item"], r["answer"],
                                                  r["ref"], self.language, group=group)
                except Busy as err:
                    raise Refusal(str(err), fault=True, busy=True) from None
                self._judging[key] = pending
                pending.add_done_callback(lambda _f, key=key: self._judging.pop(key, None))
        try:
            right = await asyncio.shield(pending)
        except Refusal:
            raise
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a %s result could not be judged", kind)
            with using(self.language):
                raise Refusal(tr("The class server could not judge that answer; nothing was "
                                 "stored."), fault=True) from None
        with using(self.language):
            lr, r, old = self._result_in(lr, result)        # stored meanwhile (a resend)?
            if old is not None:
                return old
            if right is None:
                raise Refusal(tr("That is not an answer to {item}; nothing was stored.",
                                 item=r["item"]))
        return self._keep(lr, r, right, title)

    async def record_many(self, learner, results: list, group=None, wait: float = 3.0) -> dict:
        """A notebook's batch of results (``POST api/results``): each judged off the loop
        (:meth:`record_async`) and stored as it is judged. Returns ``{"stored": [ids],
        "duplicate": [ids], "refused": [{id, reason}], "failed": [{id, reason}]}``;
        what is not judged within ``wait`` seconds is "failed" (the notebook sends it again
        later; its judging goes on, and the resend finds it stored)."""
        def rid_of(result):
            rid = result.get("id") if isinstance(result, dict) else None
            return rid if isinstance(rid, str) and len(rid) <= 64 else None
        tasks = [asyncio.ensure_future(self.record_async(learner, r, group=group))
                 for r in results]
        if tasks:
            await asyncio.wait(tasks, timeout=wait)
        out = {"stored": [], "duplicate": [], "refused": [], "failed": []}
        with using(self.language):
            later = tr("Still being judged: it goes again in a moment.")
        for result, task in zip(results, tasks):
            rid = rid_of(result)
            if not task.done():
                task.add_done_callback(_quiet_task)
                out["failed"].append({"id": rid, "reason": later})
                continue
            err = task.exception()
            if isinstance(err, Refusal):
                out["failed" if err.extra.get("fault") else "refused"].append(
                    {"id": rid, "reason": str(err)})
            elif err is not None:
                log.error("a result could not be recorded: %r", err)
                out["failed"].append({"id": rid, "reason": later})
            else:
                stored = task.result()
                out["stored"].append(stored.id)
                if stored.duplicate:
                    out["duplicate"].append(stored.id)
        return out

    def _result_in(self, learner, result):
        """(learner, the checked result, the Stored of the same id stored already or None);
        Refusal for what cannot be a result of a learner of this class."""
        from .grading import Stored, check_result
        lr = self._result_learner(learner)
        r = check_result(result)
        old = self.store.result(self.code, lr.id, r["id"])
        if old is not None:
            return lr, r, Stored(old["id"], lr.id, old["kind"], old["item"], bool(old["right"]),
                                 old["attempt"], duplicate=True)
        return lr, r, None

    def _judged(self, r: dict, judge, kind: str) -> bool:
        """The verdict of ``judge`` (here and now); Refusal for no judge, no such item, or
        no answer."""
        if judge is None:
            raise Refusal(tr("This class takes no {kind} results; nothing was stored.",
                             kind=kind))
        try:
            right = judge(r["item"], r["answer"], r)
        except Refusal:
            raise
        except Exception:
            log.exception("a %s result could not be judged", kind)
            raise Refusal(tr("The class server could not judge that answer; nothing was "
                             "stored."), fault=True) from None
        if right is None:
            raise Refusal(tr("That is not an answer to {item}; nothing was stored.",
                             item=r["item"]))
        return right

    def _keep(self, lr: Learner, r: dict, right, title: str | None = None):
        """Store a judged result with what the dashboard shows of it (its title, right or
        wrong, when), count it in the tally; returns the Stored."""
        from .grading import MAX_SECONDS, Stored, item_title
        now = time.time()
        at = r["at"]
        if at is None or not now - MAX_SECONDS <= at <= now + 60:
            at = now                          # a clock far off: when it arrived
        if title is None:
            with using(self.language):
                title = item_title(r["kind"], r["item"])
        attempt = self.tally.tries(lr.id, r["kind"], r["item"]) + 1
        self.store.add_result(self.code, lr.id, {
            "id": r["id"], "kind": r["kind"], "item": r["item"],
            "answer": json.dumps(r["answer"], ensure_ascii=False), "right": bool(right),
            "attempt": attempt, "seconds": r["seconds"], "at": at, "received": now,
            "title": title})
        self.tally.add(lr.id, r["kind"], r["item"], bool(right), r["seconds"], at, now, title)
        self._done()
        return Stored(r["id"], lr.id, r["kind"], r["item"], bool(right), attempt)

    @property
    def workers(self):
        """The room's :class:`~courtlearn.classroom.workers.Workers`: what takes more than
        a millisecond or two runs there, off the loop (a pool started on first use and
        stopped by :meth:`close`)."""
        if self._workers is None:
            from .workers import Workers
            self._workers = Workers(self.loop)
        return self._workers

    _workers = None

    def _removed_named(self, name: str) -> Learner | None:
        """The latest removed learner (not a hub user) of that name, if any: one who
        joins again with the same name is them again (issue 32: the rejoined learner had
        an empty results row while their answers stayed under the old one, and counted)."""
        for lid in reversed(list(self.learners)):
            lr = self.learners[lid]
            if lr.removed and lr.name == name and lr.hub_user is None:
                return lr
        return None

    def _come_back(self, lr: Learner, new_hash: str) -> Learner:
        """A removed learner joins again: a new seat token, the same learner (their
        results row, their quiz answers, their number while names are hidden)."""
        self._by_hash.pop(lr.token_hash, None)
        lr.token_hash, lr.removed = new_hash, False
        self._by_hash[new_hash] = lr
        self.store.renew_learner(lr.id, new_hash)
        return lr

    def _title_results(self) -> None:
        """Results stored before their titles were (a file of schema 2) get them now, in
        the class's language: the dashboard only reads what is stored."""
        rows = self.store.untitled_results(self.code)
        if not rows:
            return
        from .grading import item_title
        with using(self.language):
            self.store.set_result_titles((item_title(kind, item), rowid)
                                         for rowid, kind, item in rows)
        self.store.commit()

    def _result_learner(self, learner) -> Learner:
        lr = learner if isinstance(learner, Learner) else (
            self.learners.get(learner) if isinstance(learner, int)
            and not isinstance(learner, bool) else None)
        if lr is None or lr.removed or self.learners.get(lr.id) is not lr:
            raise Refusal(tr("You are not in this class (any more): join it again."),
                          rejoin=True)
        return lr

    def _learner_names(self) -> dict[int, str]:
        return {r["id"]: r["name"] for r in self.store.learners(self.code)}

    def results(self, learner=None):
        """A pandas DataFrame, one row per learner and item (an exercise question, a puzzle,
        a quiz question): learner (id), name, kind, item, tries, first_right (right at the
        first try), solved, seconds (time taken: the learner's seconds with the question at
        the first right try, else at the latest), first and last (when tried). Only
        ``learner``'s rows with one (a Learner or id). ``.to_csv("results.csv")`` keeps it.
        After class: ``cl.classroom.results("class.sqlite")``."""
        from .grading import results_frame
        lid = None if learner is None else self._learner(learner).id
        return results_frame(self.store.results(self.code, lid), self._learner_names())

    def answers(self, learner=None):
        """A pandas DataFrame of every try, one row each: learner, name, kind, item, try,
        answer (as the learner gave it), right (as judged here), seconds, at, received, id."""
        from .grading import answers_frame
        lid = None if learner is None else self._learner(learner).id
        return answers_frame(self.store.results(self.code, lid), self._learner_names())

    def quiz(self, kind: str, n: int = 5, seed: int | None = None):
        """A live quiz on the learner pages: ``n`` seeded questions of exercise ``kind``
        (one answered by a click: a card, a seat, a side), the first shown at once; the
        returned :class:`~courtlearn.classroom.quiz.Quiz` moves on (``next()``), reveals
        (``reveal()``), ends (``stop()``) and gives ``results()``; each answer is judged
        on the server and stored as every result is (``room.results()``, kind "quiz").
        A quiz running already ends. See courtlearn/classroom/quiz.py."""
        from .quiz import start
        return start(self, kind, n=n, seed=seed)

    def puzzles(self, level):
        """Set the class a puzzle ``level`` (1..5; None ends the puzzles): every learner
        page offers that level's puzzles in order on its own table (all hands face up, the
        defence the solver's), judged on the server; each try and solve is stored as every
        result is (``room.results()``, kind "puzzle"). Returns the room's PuzzleDesk; see
        courtlearn/classroom/class_puzzles.py."""
        from .class_puzzles import set_level
        return set_level(self, level)

    def hide_names(self, hidden: bool = True) -> None:
        """Names on the dashboard (every view of it: the projector shows one) become
        "Learner 1", "Learner 2", ... while ``hidden``; the teacher's Python calls and the
        results frames keep the names."""
        self._set("hide_names", bool(hidden))
        self._done()

    @property
    def names_hidden(self) -> bool:
        return bool(self.settings.get("hide_names", False))

    def aliases(self) -> dict:
        """Each learner's id -> "Learner 1", "Learner 2", ... (in the order they joined): the
        names every view of the class shows while :meth:`hide_names` is on (the dashboard,
        the projector, the quiz's panel). A learner keeps their number: removing one does
        not renumber the others (a removed learner who comes back has theirs again)."""
        from courtlearn.language import get_language
        key = (len(self.learners), get_language())
        if self._aliases is None or self._aliases[0] != key:
            ids = sorted(self.learners)
            self._aliases = (key, {lid: tr("Learner {n}", n=i) for i, lid in enumerate(ids, 1)})
        return self._aliases[1]

    _aliases = None

    # ------------------------------------------------------------------ the teacher's views
    def dashboard(self, language: str | None = None, interval: float = 0.3):
        """The teacher's live view in the notebook (a widget): every table (who sits where
        and whether connected, the trick, tricks and courts), buttons to pause and resume
        every table, deal anew or the same deal everywhere, add a table, and per seat to
        move a learner, hand the seat to a bot or remove the learner; a table's Projector
        button opens :meth:`projector` below it. It follows the class at most every
        ``interval`` seconds. Every button calls a method of this Room."""
        from .dashboard import DashboardApp
        return DashboardApp(self, language=language, interval=interval)

    def projector(self, table: int, seat: int = 0, language: str | None = None):
        """Table ``table`` large with every hand face up (for the teacher's screen, never
        sent to a learner): it follows the table, steps back through its deal, and shows
        the coach's review of any seat once the deal is over (``.review(seat)``)."""
        from .projector import Projector
        return Projector(self, table, seat=seat, language=language)

    def _repr_html_(self) -> str | None:
        """The join display (class code, addresses, QR code) and, folded away, the
        teacher page's link: this is shown in the teacher's own notebook only."""
        if self.server is None or self.closed:
            return None
        import html as _html
        with using(self.language):
            summary = tr("The teacher's page (a second screen): keep this link to yourself")
        link = self.teacher_link()
        return (self.server._repr_html_() +
                f"<details class='courtlearn-teacher-link'><summary>{_html.escape(summary)}"
                f"</summary><p><a href='{_html.escape(link)}' target='_blank' "
                f"rel='noreferrer noopener'>{_html.escape(link)}</a></p></details>")

    def close(self) -> None:
        """Save everything, stop the server (if one serves the room): every page is told
        goodbye and keeps trying to reconnect, as after a restart."""
        if self.closed:
            return
        for t in self.tables:
            for st in t.seats:
                if st.timer is not None:
                    st.timer.cancel()
        self.flush()
        self.closed = True
        if self._workers is not None:
            self._workers.close()
        if self.server is not None:
            self.server.stop()

    def __repr__(self) -> str:
        seated = sum(1 for lr in self.learners.values() if lr.table is not None)
        return (f"<Room {self.code}: {len(self.tables)} tables, {len(self.learners)} learners, "
                f"{seated} seated{', paused' if self.paused else ''}>")

    def __str__(self) -> str:
        """The class in the language, for a teacher's ``print(room)``; ``repr`` stays English."""
        seated = sum(1 for lr in self.learners.values() if lr.table is not None)
        said = tr("Class {code}: tables {tables}, learners {learners}, seated {seated}.",
                  code=self.code, tables=len(self.tables), learners=len(self.learners),
                  seated=seated)
        return said + (" " + tr("Every table is paused.") if self.paused else "")


def _quiet_task(task) -> None:
    """A result's judging that finished after its request was answered: its exception
    (a refusal the resend will meet again) is read, never logged as lost."""
    if not task.cancelled():
        task.exception()


def check_code(code) -> str:
    if not isinstance(code, str) or not re.fullmatch(r"[A-Za-z0-9]{4,16}", code.strip()):
        raise ValueError(f"a class code is 4 to 16 letters and digits; got {str(code)[:20]!r}")
    return code.strip().upper()


def _grace(seconds) -> float:
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or \
            not 0 <= seconds <= 24 * 3600:
        raise ValueError(f"grace is a number of seconds 0..86400; got {seconds!r}")
    return float(seconds)
