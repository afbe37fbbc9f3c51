"""The play at the tables (a part of the room, see room.py).

A learner's intent (what the table on their page sends) is carried out for their own seat
through the table core, or refused with the sentence; every action is written to the
store (and committed before anyone is told of it), then every seat watching gets its
picture; the bots play the seats nobody plays until a person is to act. At a finished
deal the learners say they are ready for the next one, which starts when all are, or
:data:`NEXT_DEAL_WAIT` seconds after the first asked.

>>> from courtlearn.classroom.room import Room
>>> from courtlearn.classroom.store import Store
>>> room = Room.create(Store(":memory:"), code="PLAY23", tables=1, seed=5)
>>> class Page:                                 # a socket: what the room sends it
...     def __init__(self): self.sent = []
...     def send(self, text): self.sent.append(text)
>>> page = Page()
>>> asha = room.hello(page, code="PLAY23", name="Asha")
>>> room.take_seat(page, 0, 0)
>>> room.intent(page, {"type": "play", "card": "2S", "id": 1})      # refused: nothing changed
>>> page.sent[-1]
'{"type":"custom","content":{"reply_to":1,"ok":false,"reason":"South does not hold 2♠: ..."}}'
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING

from courtlearn.deal import Deal
from courtlearn.language import tr, using

from .learners import Refusal
from .tables import _build_deal, _derived_seed

if TYPE_CHECKING:
    from .learners import Learner
    from .tables import Table

__all__ = ["Play", "NEXT_DEAL_WAIT"]

NEXT_DEAL_WAIT = 10.0   # seconds: once one learner at a finished deal asks for the next, the
                        # others have this long to read the result (the pages count it down)


class Play:
    """The learners' moves, the bots' answers, the next deal (a part of
    :class:`~courtlearn.classroom.room.Room`)."""

    def _start_deal(self, table: Table, spec: dict, deal: Deal, batch=None) -> None:
        table.session.deal = deal
        table.deal_number += 1
        table.batch = batch
        table.deal_id = self.store.add_deal(table.id, table.deal_number, spec, batch)
        table.host.new_deal()
        self._not_ready(table)

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
        before = t.actions_count()          # (the engine rebuilds deal.actions at each call)
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
        t.counted(before + len(tokens))     # the count the next pictures read
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
        bot_seats = [s for s in range(4) if t.bot_seat(s)]
        if not bot_seats:                        # four learners: no bot to ask (every move)
            if t.host.core.bots:
                t.host.core.bots = None          # (as run_bots would leave it)
            return 0
        moves = [t.actions_count(), 0]

        def step(seat):
            self._record(t, moves[0], seat, "bot")
            moves[0] = t.actions_count()
            moves[1] += 1
            self._frames_after(t, watching, frames)
        with using(self.language):
            failure = t.host.run_bots(self._bot, bot_seats, step)
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
