"""The projector: one class table large, every hand face up, for the teacher only.

A :class:`Projection` is a window on a table of the :class:`~courtlearn.classroom.room.Room`
that the table's learners never see: the table core's ``Seat`` with ``show_all`` over
the table's own Session (read, never moved), following the table as it plays, stepping
back through its deal (a replay), and the coach's review (``cl.review``) of any seat once
the deal is over. It refuses every move: the cards are played at the table, by the
learners and the bots, through the room. Nothing it makes goes to a learner's socket.

``room.projector(table)`` gives the notebook's :class:`Projector` (a CardTable at the
"presenter" size, with a seat chooser and replay buttons); the teacher page's projector
is the same Projection over the teacher's WebSocket (see ``dashboard.TeacherDesk``).

>>> from courtlearn.classroom.room import Room
>>> from courtlearn.classroom.store import Store
>>> room = Room.create(Store(":memory:"), code="ABC234", tables=1, seed=2)
>>> p = Projection(room, 0)
>>> [s["count"] == len(s["hand"]) for s in p.snapshot()["seats"]]     # all face up
[True, True, True, True]
>>> try:
...     p.control({"type": "call_trump", "suit": "S"})
... except ValueError as err:
...     print(err)
The projector only shows the table: its cards are played at the table.
"""
from __future__ import annotations

import asyncio
import functools
import logging

from courtlearn.cards import quoted
from courtlearn.language import tr, using
from courtlearn.widgets import core
from courtlearn.widgets.core import Refused

from .dashboard import INTERVAL, follow, unfollow

__all__ = ["Projection", "Projector", "ProjectorTable", "PendingReview", "check_intent"]

TABLE_INTENTS = ("review", "review_close", "best_play")   # what the drawn table may ask
log = logging.getLogger("courtlearn.classroom")


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_intent(deal, content) -> None:
    """Refused unless ``content`` is a request the projector's table takes: the review
    (once the deal is over), leaving it, Best play. Never a move."""
    kind = content.get("type") if isinstance(content, dict) else None
    if kind not in TABLE_INTENTS:
        raise Refused(tr("The projector only shows the table: its cards are played at the "
                         "table."))
    if kind == "review" and not deal.over:
        raise Refused(tr("The review opens once the deal is over."))


def adjust(snap: dict, deal) -> dict:
    """The projector's picture: no Hint button and no buttons of moves (the seat's lawful
    cards stay marked, for the class to see), the Review button once the deal is over."""
    snap["can_hint"] = False
    snap["actions"] = []
    snap["can_review"] = bool(snap["can_review"] and deal.over)
    return snap


class Projection:
    """Table ``table`` of ``room`` seen with every hand face up, ``seat`` at the bottom.

    language: the words ("en", "ur", "hi"; None: the class's language).
    """

    def __repr__(self) -> str:
        return f"<Projection: table {self.number + 1} of class {self.room.code}, seat {self.seat}>"

    def __init__(self, room, table: int, seat: int = 0, language: str | None = None):
        number = room._pick(table)[0].number
        seat = core.check_seat(seat)
        t = room.tables[number]
        self.room = room
        self.number = number
        self.core = core.Table(t.session)          # no bots: this window never moves
        self.window = core.Seat(self.core, seat, show_all=True, hints=True,
                                language=language or room.language)
        self._deal = t.deal
        self._key = None
        self.rev = 0

    @property
    def table(self):
        """The room's table shown (looked up afresh: a reloaded room has new objects)."""
        return self.room.tables[self.number]

    @property
    def deal(self):
        return self.table.deal

    @property
    def seat(self) -> int:
        return self.window.seat

    @property
    def replay(self) -> int | None:
        """None: the live deal; n: the deal after its first n actions."""
        return self.window.replay

    def follow(self) -> bool:
        """Catch up with the live table (a new deal starts the window afresh, live);
        True when its picture changed since the last call."""
        t = self.table
        if t.session is not self.core.session or t.deal is not self._deal:
            self.core.set(t.session)
            self._deal = t.deal
        self.window.players = self.players()
        self.window.connected = t.connected()
        key = (id(t.deal), len(t.deal.actions), tuple(self.window.players),
               tuple(self.window.connected))
        changed = key != self._key
        self._key = key
        return changed

    def players(self) -> list[str]:
        """The names at the table as the projector shows them: while the teacher hides
        names (``room.hide_names()``), a learner is "Learner 3", as on the dashboard."""
        t = self.table
        if not self.room.names_hidden:
            return list(t.players)
        with using(self.window.language):
            alias = self.room.aliases()
            return [alias.get(st.learner.id, tr("Learner {n}", n="?")) if st.learner
                    else tr("Bot") for st in t.seats]

    # ------------------------------------------------------------------ off the loop
    async def prepare(self, content=None) -> None:
        """Work out, off the room's loop (in its workers, the teacher's queue), what the
        next picture or ``content`` (a request of the page) needs that would take the loop
        long: the coach's review (seconds for a whole deal) and the Best play marks (the
        solver: up to a second). The window then finds them made. Refused with the
        review's sentence when it cannot be made."""
        kind = content.get("type") if isinstance(content, dict) else None
        w = self.window
        if kind == "review" and self.deal.over and _whole(content.get("index")):
            await self._review()
        if (kind == "best_play" and content.get("on") is True) or \
                (w.best_play and kind != "best_play"):
            await self._best_play()

    def needs(self, content) -> bool:
        """Whether the request ``content`` needs work off the loop first (:meth:`prepare`):
        a review not made yet, Best play switched on."""
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "review":
            w = self.window
            return self.deal.over and (w.review_state is None or w.review_state[:2] != [
                self.core.state_key(), w.exact_review()])
        return kind == "best_play" and content.get("on") is True

    def pending(self) -> bool:
        """Whether the next picture needs work off the loop first (Best play is on and its
        marks for the position now are not made yet)."""
        w = self.window
        if not w.best_play:
            return False
        solved = w._solved
        return solved is None or solved[0] != self.core.state_key()

    async def _review(self) -> None:
        from .workers import coach_review
        w, deal = self.window, self.deal
        key, exact = self.core.state_key(), w.exact_review()
        if w.review_state is not None and w.review_state[:2] == [key, exact]:
            return
        room = self.room
        got = await room.workers.run("teacher", coach_review, deal.to_dict(), w.seat, exact,
                                     w.language or room.language, group="teacher")
        if isinstance(got, str):
            raise Refused(core.cut(got))
        if self.core.state_key() == key:
            w.review_state = [key, exact, got, 0]

    async def _best_play(self) -> None:
        from courtlearn.coach import solves_quickly

        from .workers import best_play
        self.follow()
        w, deal = self.window, self.deal
        if deal.phase != "play" or deal.hidden_trump_card is not None or \
                not solves_quickly(deal, core.BEST_PLAY_TRICKS):
            return
        key = self.core.state_key()
        if w._solved is not None and w._solved[0] == key:
            return
        room = self.room
        got = await room.workers.run("teacher", best_play, deal.to_dict(),
                                     w.language or room.language, group="teacher")
        if self.core.state_key() == key:
            w._solved = (key, got)

    def snapshot(self, message: str | None = None, kind: str = "info") -> dict:
        """The picture: every hand face up (the table's own snapshot with show_all)."""
        return adjust(self.window.snapshot(message, kind), self.deal)

    def message(self, message: str | None = None, kind: str = "info") -> dict:
        """The picture as the teacher page's projector receives it."""
        self.rev += 1
        t = self.table
        return {"table": self.number, "seat": self.seat, "deal": t.deal_number,
                "actions": len(t.deal.actions), "replay": self.replay,
                "state": {"rev": self.rev, "frames": [self.snapshot(message, kind)],
                          "follows": False, "more": False}}

    # ------------------------------------------------------------------ what it takes
    def set_seat(self, seat: int) -> None:
        """Put ``seat`` at the bottom (its decisions are the ones the review shows)."""
        seat = core.check_seat(seat)
        self.window.close_review()
        self.window.seat = seat

    def set_replay(self, n: int | None) -> None:
        """Show the deal after its first ``n`` actions (None, or all of them: live)."""
        total = len(self.deal.actions)
        if n is not None and not (_whole(n) and 0 <= n <= total):
            raise Refused(tr("replay takes a number of moves from 0 to {n} (or None for the "
                             "live deal), got {value!r}.", n=total, value=quoted(n)))
        self.window.close_review()
        self.window.replay = None if n == total else n

    def control(self, content) -> tuple[str | None, str]:
        """One request: ``{"type": "seat", "seat": 2}``, ``{"type": "replay", "n": 5}``
        (``null``: live), or the drawn table's review and Best play. Returns the
        (message, kind) to show; Refused (a ValueError) with the sentence otherwise."""
        with using(self.window.language):
            kind = content.get("type") if isinstance(content, dict) else None
            if kind in ("seat", "replay"):
                key = "seat" if kind == "seat" else "n"
                if set(content) - {"type", "id", key} or key not in content or \
                        ("id" in content and not _whole(content["id"])):
                    raise Refused(tr("The projector ignored a message it does not "
                                     "understand; nothing changed."))
                if kind == "seat":
                    if not (_whole(content["seat"]) and 0 <= content["seat"] <= 3):
                        raise Refused(tr("A table has seats 0 to 3."))
                    self.set_seat(content["seat"])
                else:
                    self.set_replay(content["n"])
                return None, "info"
            check_intent(self.deal, content)
            outcome = self.window.handle(content)
            return outcome.message, outcome.kind


# ----------------------------------------------------------------------------- the widgets
class PendingReview:
    """A projector's review being made off the class's loop (``p.review()`` while the
    class is served from the kernel's loop): ``await`` it for the Review (``review =
    await p.review(seat=0)`` in a cell); ``done()`` says whether it is made (the
    projector's table shows it then), and once made it reads as the Review does
    (``.text``, ``.decisions``)."""

    def __init__(self, task, projection):
        self.task = task
        self._where = f"table {projection.number + 1}, seat {projection.seat}"

    def __await__(self):
        return self.task.__await__()

    def done(self) -> bool:
        return self.task.done()

    def result(self):
        """The Review once made (asyncio.InvalidStateError before)."""
        return self.task.result()

    def __getattr__(self, name):
        if name.startswith("_") or name == "task":
            raise AttributeError(name)
        if not self.task.done():
            raise AttributeError(f"the review of {self._where} is being made off the class's "
                                 f"loop: `review = await p.review(...)` waits for it")
        return getattr(self.task.result(), name)

    def __repr__(self) -> str:
        state = "made" if self.task.done() else "being made"
        return f"<PendingReview of {self._where}: {state}; await it for the Review>"


@functools.lru_cache(maxsize=None)
def _widgets() -> dict:
    import ipywidgets

    from courtlearn.widgets.table import CardTable

    class ProjectorTable(CardTable):
        """A CardTable drawing a :class:`Projection`: every hand face up, large; the
        review (once the deal is over) and Best play work, every move is refused."""

        def __init__(self, projection: Projection, size: str = "presenter", **kwargs):
            t = projection.table
            self._projection = projection      # before CardTable's first picture
            super().__init__(t.session, seat=projection.seat, show_all=True, hints=True,
                             size=size, language=projection.window.language, **kwargs)
            self._table, self._view = projection.core, projection.window
            self._sync([])

        def _snap(self, message=None, kind="info"):
            return self._projection.snapshot(message, kind)

        def __repr__(self) -> str:
            p = self._projection
            return (f"<ProjectorTable: table {p.number + 1} of class {p.room.code}, "
                    f"seat {p.seat} at the bottom>")

        def _handle(self, content):
            check_intent(self.deal, content)
            super()._handle(content)

        def _on_msg(self, widget, content, buffers=None):
            """The review and Best play are worked out off the room's loop first (the class
            server may run in this kernel's loop): the answer follows when they are made."""
            room = self._projection.room
            if not self._projection.needs(content) or room.loop is None or \
                    not room.loop.is_running():
                return super()._on_msg(widget, content, buffers)
            asyncio.ensure_future(self._later(widget, content, buffers))

        async def _later(self, widget, content, buffers):
            try:
                await self._projection.prepare(content)
            except Refused as err:
                rid = content.get("id") if isinstance(content, dict) else None
                self._refuse(rid, str(err))
                return
            except Exception:                       # said by the handling below
                log.exception("the projector could not prepare a request")
            super()._on_msg(widget, content, buffers)

        def _no(self, *_args, **_kwargs):
            with using(self.language):
                reason = tr("The projector only shows the table: its cards are played at "
                            "the table.")
            self._sync([], message=reason, kind="error")
            raise Refused(reason)

        _act = step = undo = new_deal = set_deal = resume = hint = _no

        def review(self, index: int = 0):
            """The coach's review of the seat at the bottom (see CardTable.review), once
            the deal is over."""
            if not self.deal.over:
                with using(self.language):
                    reason = tr("The review opens once the deal is over.")
                self._sync([], message=reason, kind="error")
                raise Refused(reason)
            return super().review(index)

    class Projector(ipywidgets.VBox):
        """``room.projector(table)``: the table large with every hand face up, a seat
        chooser (whose hand is at the bottom, whose decisions the review shows), and
        buttons and a slider stepping back through the deal. It follows the live table
        (at most every ``interval`` seconds) and never sends anything to a learner."""

        def __init__(self, room, table: int, seat: int = 0, language: str | None = None,
                     interval: float = INTERVAL, size: str = "presenter"):
            self.room = room
            self.projection = Projection(room, table, seat, language)
            self.projection.follow()
            self.table = ProjectorTable(self.projection, size=size)
            self.title = ipywidgets.Label()
            self.seats = ipywidgets.ToggleButtons(options=self._seat_options(), value=seat)
            self.seats.observe(self._on_seat, "value")
            b = {"layout": ipywidgets.Layout(width="auto")}
            with using(self.projection.window.language):
                tips = [tr("The deal as dealt"), tr("One move back"), tr("One move on"),
                        tr("The table now")]
            self.first_button = ipywidgets.Button(description="|\u25c0", tooltip=tips[0], **b)
            self.back_button = ipywidgets.Button(description="\u25c0", tooltip=tips[1], **b)
            self.forward_button = ipywidgets.Button(description="\u25b6", tooltip=tips[2], **b)
            self.live_button = ipywidgets.Button(description="\u25b6|", tooltip=tips[3], **b)
            self.first_button.on_click(lambda _b: self.replay(0))
            self.back_button.on_click(lambda _b: self.back())
            self.forward_button.on_click(lambda _b: self.forward())
            self.live_button.on_click(lambda _b: self.live())
            self.slider = ipywidgets.IntSlider(min=0, max=0, value=0, readout=True,
                                               continuous_update=False)
            self.slider.observe(self._on_slider, "value")
            self._quiet = False
            bar = ipywidgets.HBox([self.first_button, self.back_button, self.slider,
                                   self.forward_button, self.live_button])
            super().__init__([self.title, self.seats, bar, self.table])
            self.add_class("cl-projector")
            self._controls()
            self._hook = follow(room, self.refresh, interval)

        def __repr__(self) -> str:
            p = self.projection
            where = "live" if p.replay is None else f"after move {p.replay}"
            return (f"<Projector: table {p.number + 1} of class {self.room.code}, seat "
                    f"{p.seat} at the bottom, {where}>")

        # -- following the table
        def refresh(self) -> None:
            """Catch up with the live table (the room calls this after its changes); with
            Best play on, its marks are made off the loop first."""
            if self.room.closed:
                return
            if self.projection.follow():
                loop = self.room.loop
                if self.projection.pending() and loop is not None and loop.is_running():
                    asyncio.ensure_future(self._refresh_later())
                    return
                self.table._sync([])
            self._controls()

        async def _refresh_later(self) -> None:
            try:
                await self.projection.prepare()
            except Exception:                       # noqa: BLE001 (the marks are an extra)
                log.exception("the projector's Best play could not be made")
            if not self.room.closed:
                self.table._sync([])
                self._controls()

        def _seat_options(self):
            t = self.projection.table
            with using(self.projection.window.language):
                names = t.rules.seat_names()
                shown = self.projection.players()
            return [(f"{names[s]}: {shown[s]}" if st.learner else names[s], s)
                    for s, st in enumerate(t.seats)]

        def _controls(self) -> None:
            p = self.projection
            t = p.table
            total = len(t.deal.actions)
            self._quiet = True
            try:
                options = self._seat_options()
                if list(self.seats.options) != options:
                    self.seats.options = options
                    self.seats.value = p.seat
                self.slider.max = total
                self.slider.value = total if p.replay is None else p.replay
            finally:
                self._quiet = False
            with using(p.window.language):
                self.title.value = (f"{tr('Table {n}', n=t.number + 1)} \u00b7 "
                                    f"{tr('Deal {n}', n=t.deal_number + 1)} \u00b7 "
                                    f"{t.rules.title}")

        def _on_seat(self, change) -> None:
            if not self._quiet and change["new"] is not None:
                self.seat = change["new"]

        def _on_slider(self, change) -> None:
            if not self._quiet:
                self.replay(change["new"])

        # -- the Python API
        @property
        def seat(self) -> int:
            """The seat at the bottom (its decisions are the ones the review shows)."""
            return self.projection.seat

        @seat.setter
        def seat(self, value: int) -> None:
            self.projection.set_seat(value)
            self.table._sync([])
            self._controls()

        def show(self, table: int) -> "Projector":
            """Project another table of the class."""
            seat = self.projection.seat
            self.projection = Projection(self.room, table, seat,
                                         self.projection.window.language)
            self.projection.follow()
            self.table._projection = self.projection
            self.table._table, self.table._view = self.projection.core, self.projection.window
            self.table._sync([])
            self._controls()
            return self

        def replay(self, n: int | None) -> "Projector":
            """Show the deal after its first ``n`` actions (None: live)."""
            self.projection.set_replay(n)
            self.table._sync([])
            self._controls()
            return self

        def back(self, n: int = 1) -> "Projector":
            """``n`` actions back from the moment on show."""
            at = self.projection.replay
            at = len(self.projection.deal.actions) if at is None else at
            return self.replay(max(0, at - n))

        def forward(self, n: int = 1) -> "Projector":
            at = self.projection.replay
            if at is None:
                return self
            return self.replay(min(len(self.projection.deal.actions), at + n))

        def live(self) -> "Projector":
            return self.replay(None)

        def review(self, seat: int | None = None, index: int = 0):
            """The coach's review (``cl.review``) of ``seat``'s decisions (the seat at
            the bottom by default), once the deal is over; returns the Review. The table
            steps through it with its own Previous/Next buttons.

            While the class is served from this kernel's loop, the review (seconds of
            solver for a whole deal) is made in the class's workers, not in the loop
            every learner waits on: this returns at once a :class:`PendingReview`, the
            table shows the review as soon as it is made, and ``await p.review()`` gives
            the Review."""
            if seat is not None:
                self.seat = seat
            loop = self.room.loop
            served = loop is not None and loop.is_running()
            if served and _whole(index) and \
                    self.projection.needs({"type": "review", "index": index}):
                return PendingReview(asyncio.ensure_future(self._review_later(index)),
                                     self.projection)
            out = self.table.review(index)
            self._controls()
            if served:                    # made already: awaited all the same
                made = loop.create_future()
                made.set_result(out)
                return PendingReview(made, self.projection)
            return out

        async def _review_later(self, index: int):
            await self.projection.prepare({"type": "review", "index": index})
            out = self.table.review(index)        # made: the window finds it ready
            self._controls()
            return out

        def close(self):
            unfollow(self.room, self._hook)
            self.table.close()
            super().close()

    return {"ProjectorTable": ProjectorTable, "Projector": Projector}


def __getattr__(name):
    if name in ("Projector", "ProjectorTable"):
        return _widgets()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
