"""Seats taken and left (a part of the room, see room.py).

A learner takes a free seat (``take_seat``) or leaves it for the lobby; a page that closes
leaves its learner's seat waiting for them for the teacher's grace time (:data:`GRACE`),
then a bot plays it until they are back; a page coming back takes the seat back from the
bot. Who is here is redrawn at a table at most every :data:`PRESENCE_DELAY` seconds,
however often a page reconnects.

>>> from courtlearn.classroom.room import Room
>>> from courtlearn.classroom.store import Store
>>> room = Room.create(Store(":memory:"), code="SEAT23", tables=1, grace=0)
>>> asha, _ = room.register("Asha")
>>> room.move(asha, 0, 2)
>>> room.tables[0].seats[2].status()          # seated with no page open, no grace: a bot plays
'bot'
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from courtlearn.language import tr, using

from .learners import Refusal
from .tables import Seat

if TYPE_CHECKING:
    from .learners import Learner
    from .tables import Table

__all__ = ["Seating", "GRACE", "PRESENCE_DELAY"]

GRACE = 30.0            # seconds a learner may be gone before a bot plays for them
PRESENCE_DELAY = 0.25   # seconds: who is here redraws at a table at most this often


def _grace(seconds) -> float:
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or \
            not 0 <= seconds <= 24 * 3600:
        raise ValueError(f"grace is a number of seconds 0..86400; got {seconds!r}")
    return float(seconds)


class Seating:
    """Learners taking and leaving seats, and the grace before a bot plays for one who is
    gone (a part of :class:`~courtlearn.classroom.room.Room`)."""

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
