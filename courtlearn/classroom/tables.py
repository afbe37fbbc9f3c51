"""The tables of a class and what their seats see (a part of the room, see room.py).

A :class:`Table` is one table of four: its Session (and so its Deal), a :class:`Seat` for
each place (who sits there, since when they are away, whether a bot plays for them) and
the one meeting point with the table core the notebook's CardTable runs on
(``courtlearn/widgets/core.py``): :class:`_TableHost`, which builds what a seat sees and
takes what it asks. :class:`TableViews` is the room's side of it: each seat's picture to
each socket of the learner there, the roster (who sits where, who is ready for the next
deal), the notices of what the teacher did.

>>> from courtlearn.session import Session
>>> from courtlearn.rules import Rules
>>> host = _TableHost(Session(Rules.court_piece(), seed=3, dealer=0), "en", hints=False)
>>> snap = host.snapshot(1, ["Asha", "Bot", "Bot", "Bot"])
>>> snap["viewer"], snap["seats"][1]["player"], snap["seats"][0]["hand"]
(1, 'Bot', None)
"""
from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING

from courtlearn.deal import Deal
from courtlearn.language import game_word, get_language, text_direction, tr, using
from courtlearn.rules import Rules
from courtlearn.session import Session

from .learners import Refusal

if TYPE_CHECKING:
    from .learners import Learner
    from .room import Room

__all__ = ["Table", "Seat", "TableViews"]


try:                                  # a faster encoder when installed (the class extra)
    import orjson as _orjson
except ImportError:                   # the standard library's json, then
    _orjson = None


def _dumps(msg) -> str:
    """The compact JSON the room sends: the same text whichever encoder writes it (orjson
    when installed, about ten times faster on a picture; the standard library's for what
    orjson will not take: a lone surrogate, a number key, an integer past 64 bits)."""
    if _orjson is not None:
        try:
            return _orjson.dumps(msg).decode()
        except TypeError:             # orjson.JSONEncodeError is a TypeError
            pass
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
        for window in self.seats:
            window.lean = True    # its pictures without the names and words: a page gets
                                  # those once (TableViews._words_to), not four times a move
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
            self._count = (key, deal._action_count())
        return self._count[1]

    def counted(self, n: int) -> None:
        """``len(deal.actions)`` is ``n`` now (the room just read the actions: no need to
        build the list again for the count)."""
        deal = self.deal
        self._count = ((id(deal), len(deal._log)), n)

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


class TableViews:
    """What the learners at a table see: their pictures, the roster, the teacher's notices
    (a part of :class:`~courtlearn.classroom.room.Room`)."""

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
            self._words_to(conn, table)
            if text is None:          # one text for the seat, whatever its sockets
                text = _dumps({"type": "state", "table": table.number, "deal": table.deal_number,
                               "actions": table.actions_count(),
                               "state": {"rev": table.host.rev(seat),
                                         "frames": [self._lean(f) for f in frames],
                                         "follows": follows, "more": more}})
            self._send(conn, text)

    def _words_to(self, conn, table: Table) -> None:
        """The words of the table (names, labels) once per socket and rules; the frames go
        without them and the page's model puts them back."""
        key = (self.language, table.rules)
        if getattr(conn, "words_key", None) != key:
            conn.words_key = key
            from courtlearn.widgets import core
            with using(self.language):
                self._send(conn, {"type": "words", "names": core.names(table.rules),
                                  "words": core.page_words(), "lang": get_language(),
                                  "dir": text_direction()})

    def _snap(self, table: Table, seat: int, message=None, kind="info",
              connected=None) -> dict:
        # (in the class's language: the seat's window speaks it, see _TableHost);
        # connected: table.connected() when the caller has it (one per move, not per seat)
        return table.host.snapshot(seat, table.players, message=message, kind=kind,
                                   hints=self.settings["hints"],
                                   connected=connected or table.connected())

    @staticmethod
    def _lean(snap: dict) -> dict:
        """The picture without the table's names and words (a table's windows make none)."""
        if "names" not in snap and "words" not in snap:
            return snap
        return {k: v for k, v in snap.items() if k != "names" and k != "words"}

    def _frames_after(self, table: Table, watching: list[int], frames: dict) -> None:
        connected = table.connected()
        for s in watching:
            frames.setdefault(s, []).append(self._snap(table, s, connected=connected))

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
