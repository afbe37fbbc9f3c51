"""The teacher's controls (a part of the room, see room.py).

The teacher's token (only its hash is stored; it opens the teacher page), new deals and
the same deal at every table, pause and resume, the grace and the hints, moving a learner,
handing a seat to a bot, removing a learner, hiding names, the live quiz and the class
puzzles, the notebook's dashboard and projector, and the class's history of deals. Each
learner whose seat or table the teacher changed is told so on their page.

>>> from courtlearn.classroom.room import Room
>>> from courtlearn.classroom.store import Store
>>> room = Room.create(Store(":memory:"), code="TEACH2", tables=2)
>>> room.check_teacher(room.teacher_token), room.check_teacher("x" * 43)
(True, False)
>>> room.pause(); room.paused
True
"""
from __future__ import annotations

import hmac
import secrets
from typing import TYPE_CHECKING

from courtlearn.deal import Deal
from courtlearn.language import list_words, tr, trn, using

from .seats import _grace
from .store import token_hash
from .tables import _build_deal, _dumps

if TYPE_CHECKING:
    from .tables import Table

__all__ = ["TeacherControls"]


class TeacherControls:
    """What the teacher does to the class (a part of
    :class:`~courtlearn.classroom.room.Room`)."""

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

    # ------------------------------------------------------------------ the tables
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
