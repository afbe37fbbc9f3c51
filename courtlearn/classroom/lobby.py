"""The lobby: the tables as the learners choosing a seat see them (a part of the room, see
room.py).

Every page without a seat gets the lobby (each seat's learner name, as text, or free) when
it comes, and again when a seat changes: at most every :data:`LOBBY_DELAY` seconds, and
less often when so many pages choose a seat that the updates would take more than
:data:`LOBBY_BYTES` a second (the latest lobby wins: nothing queues up).

>>> from courtlearn.classroom.room import Room
>>> from courtlearn.classroom.store import Store
>>> room = Room.create(Store(":memory:"), code="LOBBY2", tables=1)
>>> [s["name"] for s in room.lobby()["tables"][0]["seats"]]
[None, None, None, None]
"""
from __future__ import annotations

from courtlearn.language import using

from .tables import _dumps

__all__ = ["Lobby", "LOBBY_DELAY", "LOBBY_BYTES"]

LOBBY_DELAY = 0.25      # seconds: lobby updates to learners choosing a seat are coalesced
LOBBY_BYTES = 2_000_000     # bytes a second all lobby updates together may take (issue 29:
                            # 3,000 pages choosing seats, one learner toggling a seat 8x/s)


class Lobby:
    """The lobby's list of tables and its coalesced updates (a part of
    :class:`~courtlearn.classroom.room.Room`)."""

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
