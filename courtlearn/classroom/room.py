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

The room's parts are modules named for what they hold, each a part of :class:`Room`
(a mixin): the learners and their seat tokens (learners.py), the tables and what their
seats see (tables.py), seats taken and left (seats.py), the play (play.py), the lobby
(lobby.py), the teacher's controls (teacher.py) and the results (recording.py). This module
holds the Room itself (making, loading, saving, sending) and offers every public name of
its parts.

>>> from courtlearn.classroom.store import Store
>>> room = Room.create(Store(":memory:"), code="ABC234", tables=2)
>>> len(room.tables), room.tables[0].deal.phase
(2, <Phase.TRUMP: 'trump'>)
"""
from __future__ import annotations

import json
import logging
import secrets
import time

from courtlearn.bots import RuleBot
from courtlearn.deal import Deal
from courtlearn.language import language_code, tr, using
from courtlearn.rules import Rules
from courtlearn.session import Session

# the room's parts; every public name of theirs is offered here too, as before the split
from .learners import (CODE_ALPHABET, CODE_LENGTH, MAX_LEARNERS, MAX_SOCKETS, NAME_MAX,
                       ENDS_IN_BRACKETS, Learner, Learners, Refusal, check_code, clean_name,
                       looks_like_a_label, new_code)
from .lobby import LOBBY_BYTES, LOBBY_DELAY, Lobby
from .play import NEXT_DEAL_WAIT, Play
from .recording import Results, _quiet_task
from .seats import GRACE, PRESENCE_DELAY, Seating, _grace
from .store import Store, token_hash
from .tables import Seat, Table, TableViews, _build_deal, _derived_seed, _dumps, _TableHost
from .teacher import TeacherControls

__all__ = ["Room", "Table", "Learner", "Refusal", "new_code"]

log = logging.getLogger("courtlearn.classroom")

MAX_BOT_MOVES = 80      # a deal has at most 52 cards and a handful of other actions
STORAGE_BACKOFF = (1.0, 30.0)   # seconds between tries to save again after the disk refused
FLUSH_AFTER = 0.004     # seconds: a tick that has worked this long since its first change
                        # commits and sends at the end of the call at hand, not after every
                        # message the tick read (under a school's load, tens of milliseconds:
                        # the first move of a tick waited for all the others; issue 29, Speed)


# ----------------------------------------------------------------------------- the room
class Room(Learners, TableViews, Seating, Play, Lobby, TeacherControls, Results):
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
        self._due_since = 0.0
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
        if loop is not None:              # a served class: its heap settles once loaded,
            from .workers import settle_heap     # and its file's checkpoints leave the loop
            loop.call_soon(settle_heap, loop)
            store.checkpoint_apart()

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

    # ------------------------------------------------------------------ sending
    def _send(self, conn, msg) -> None:
        self._outbox.append((conn, msg if isinstance(msg, str) else _dumps(msg)))
        self._want_flush()

    def _want_flush(self) -> None:
        if self._flush_due or self.loop is None:
            return
        self._flush_due = True
        self._due_since = time.perf_counter()
        self.loop.call_soon(self._flush_quietly)

    def _flush_quietly(self) -> None:
        """The loop's flush: a disk that refused is handled (and said once) by flush."""
        if not self._flush_due:             # flushed already, by _done (FLUSH_AFTER)
            return
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
        elif self._flush_due and time.perf_counter() - self._due_since >= FLUSH_AFTER:
            self._flush_quietly()           # a busy tick: what waits longest goes now
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


# the names of the room's parts, offered here as before the split (tests, API.md)
_PARTS = (CODE_ALPHABET, CODE_LENGTH, MAX_LEARNERS, MAX_SOCKETS, NAME_MAX, ENDS_IN_BRACKETS,
          check_code, clean_name, looks_like_a_label, LOBBY_BYTES, LOBBY_DELAY, NEXT_DEAL_WAIT,
          _quiet_task, GRACE, PRESENCE_DELAY, _grace, Seat, _build_deal, _derived_seed, _dumps,
          _TableHost, json, secrets, Deal, tr, using)
