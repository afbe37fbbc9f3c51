"""Puzzles on the learner page (issue 26): ``room.puzzles(level)``.

The teacher sets the class a puzzle level; every learner's page (seated at a table or
not) then offers that level's puzzles in order, each on a table drawn by the widget's own
``table.js``: all four hands face up, the learner plays both hands of the puzzle's side by
clicking, and the defence answers at once with the solver's best play (the defence the
notebook's puzzle table and ``Puzzle.check`` play, :func:`courtlearn.puzzles.defend`).
Everything is judged HERE, on the server: a card that makes the goal unreachable ends
the try (the verdict says which card would have kept it), reaching the end with the goal
is a solve. Each try and each solve is stored by ``Room.record`` (kind ``"puzzle"``, item
``puzzle/LEVEL.N``, the answer the line of the learner's side, exactly as a notebook
sends it), which judges the line again with the notebook's checker: the one place that
judges. A page cannot claim a solve: it only sends the cards it plays.

Each learner has their own puzzle table; its pictures, replies and verdicts go only to
that learner's sockets, with the learner's own solved puzzles of the level.

Wire messages (JSON objects, beside those of room.py's docstring):

learner -> server  ``{"type": "puzzle_get"}`` (the page asks for its puzzle now),
                   ``{"type": "puzzle_msg", "content": {"type": "play", "card": "QS",
                   "id": 7}}`` (exactly the table's own intent), ``{"type": "puzzle_again"}``
                   (Try again), ``{"type": "puzzle_next"}`` (the next puzzle of the level)
server -> learner  ``{"type": "puzzle", ...}`` (the panel: heading, goal, status, verdict,
                   the learner's solved numbers), ``{"type": "puzzle_state", "state":
                   {rev, frames, follows, more}}`` (the table's state, as the widget's),
                   ``{"type": "puzzle_custom", "content": {reply_to, ok, reason}}``,
                   ``{"type": "puzzle_end"}``
teacher -> server  ``{"type": "puzzles", "content": {"type": "set", "level": L | null}
                   | {"type": "state"}}``
server -> teacher  ``{"type": "puzzles", "state": {...}}`` (see :meth:`PuzzleDesk.state`)

>>> from courtlearn.classroom.store import Store
>>> from courtlearn.classroom.room import Room
>>> room = Room.create(Store(":memory:"), code="ABC234", tables=1)
>>> desk = set_level(room, 1)
>>> desk.level, desk.count
(1, 16)
>>> set_level(room, 9)                               # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: level is one of 1, 2, 3, 4, 5, got 9.
"""
from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time

from courtlearn.language import tr, trn, using
from courtlearn.rules import team_of

from .learners import Refusal

__all__ = ["PuzzleDesk", "LearnerPuzzle", "set_level", "desk_of", "learner_words"]

log = logging.getLogger("courtlearn.classroom")

MAX_WAITING = 8         # a learner's cards waiting for the solver at most (then refused)
# the top-level keys each learner message may carry
KEYS = {"puzzle_get": {"type"}, "puzzle_again": {"type"}, "puzzle_next": {"type"},
        "puzzle_msg": {"type", "content"}}


def _dumps(msg) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


class Defence:
    """The defenders' bot: :func:`courtlearn.puzzles.defend` (best defence, pressing). On
    the class server its cards were worked out off the loop (:func:`turn`) and wait in
    ``script``: the bot only plays them."""

    def __init__(self, team: int, target: int):
        self.team, self.target = team, target
        self.script: list = []

    def choose(self, deal):
        if self.script:
            from courtlearn.cards import Card
            return Card.parse(self.script.pop(0))
        from courtlearn.puzzles import defend
        return defend(deal, self.team, self.target)


def turn(level: int, number: int, tokens: list, card: str, playing: bool) -> dict:
    """Everything a learner's card in class puzzle ``level``.``number`` makes the server
    think about, worked out in one go (in a worker process: ``workers.puzzle_turn``): the
    deal is the puzzle's position after ``tokens`` (the deal's actions since it); the
    values of the learner's cards there against best defence (``values``: card code ->
    units; None when the learner's side is not to play or the try is over already), the
    defence's answers after ``card`` (``defence``: card codes, until the learner's side is
    to play or the deal is over) and, when the card ends a try still ``playing`` (it lets
    the goal go, or the deal ends), the verdict of the notebook's checker on the try's
    line (``right``; else None): the same judge every puzzle result meets.

    >>> from courtlearn.puzzles import puzzle
    >>> p = puzzle(1, 1)
    >>> first = p.winning_line()[0].code
    >>> got = turn(1, 1, [], first, True)
    >>> got["values"][first] >= p.target, got["right"]
    (True, None)
    """
    from courtlearn.cards import Card
    from courtlearn.puzzles import defend, puzzle
    from courtlearn.solver import solve

    from .grading import judge_puzzle, puzzle_item
    p = puzzle(level, number)
    deal = p.deal
    before = 4 * len(deal.tricks) + len(deal.trick.cards)
    deal.apply(list(tokens))
    values = None
    if playing and deal.phase == "play" and team_of(deal.to_play) == p.team:
        values = {c.code: v for c, v in solve(deal).values.items()}
    deal.play(Card.parse(card))
    failed = values is not None and values.get(card, p.target) < p.target
    defence = []
    while deal.phase == "play" and team_of(deal.to_play) != p.team:
        answer = defend(deal, p.team, p.target)
        defence.append(answer.code)
        deal.play(answer)
    right = None
    if playing and (failed or deal.phase == "over"):
        played = [sc for t in deal.tricks for sc in t.cards] + list(deal.trick.cards)
        line = [c.code for s, c in played[before:] if team_of(s) == p.team]
        if failed:                                   # the line up to the card that lost it
            line = line[:line.index(card) + 1]
        right = bool(judge_puzzle(puzzle_item(p), line))
    return {"values": values, "defence": defence, "right": right}


# ----------------------------------------------------------------------------- one learner
class LearnerPuzzle:
    """One learner's puzzle table: the puzzle, the core Table (the defence in the other
    side's seats) and the learner's window on it (both hands of the side played by the
    learner, all hands face up, no hints). ``status``: "playing", "failed" or "solved"."""

    def __init__(self, desk: "PuzzleDesk", lr, number: int):
        from courtlearn.puzzles import puzzle
        from courtlearn.widgets import core
        self.desk, self.lr = desk, lr
        self.number = number
        self.puzzle = p = puzzle(desk.level, number)
        self.defence = defence = Defence(p.team, p.target)
        self.table = core.Table(p.deal, bots={s: defence for s in range(4)
                                              if team_of(s) != p.team})
        self.seat = core.Seat(self.table, p.seat, show_all=True, hints=False,
                              controls={p.seat, (p.seat + 2) % 4},
                              language=desk.room.language)
        self.start = len(self.table.deal.actions)
        self.status = "playing"
        self.note = (p.goal, "note")
        self.rev = 0

    # -- pictures
    def snap(self, message: str | None = None, kind: str = "info") -> dict:
        snap = self.seat.snapshot(*((message, kind) if message is not None else self.note))
        snap["can_best_play"] = False        # the marks would give the puzzle away
        return snap

    def state_msg(self, frames: list, follows=False, more=False) -> dict:
        self.rev += 1
        return {"type": "puzzle_state", "state": {"rev": self.rev, "frames": frames,
                                                  "follows": follows, "more": more}}

    def panel(self) -> dict:
        """The page's words around the table: what the puzzle is, where the learner is."""
        p = self.puzzle
        rules = p.deal.rules
        verdict = self.note[0] if self.status != "playing" else None
        return {"type": "puzzle", "level": p.level, "number": self.number,
                "count": self.desk.count, "key": p.key, "heading": p.heading, "goal": p.goal,
                "you": tr("You play both {side} hands; {other} defend as well as anyone can.",
                          side=rules.team_name(p.team), other=rules.team_name(1 - p.team)),
                "status": self.status, "verdict": verdict,
                "solved": sorted(self.desk.solved_numbers(self.lr)),
                "words": learner_words()}

    # -- the learner's side
    def line(self) -> list[str]:
        """The cards the learner's side played since the puzzle's position (the try's line,
        as a notebook sends it)."""
        deal, team = self.table.deal, self.puzzle.team
        played = [sc for t in deal.tricks for sc in t.cards] + list(deal.trick.cards)
        start = self.puzzle.deal
        before = 4 * len(start.tricks) + len(start.trick.cards)
        return [c.code for s, c in played[before:] if team_of(s) == team]

    async def play(self, content, group=None) -> tuple[list, list]:
        """The learner's intent (the table's own message): judged with the solver before
        the deal takes it, then the defence answers; the solving is done off the loop, in
        the learner's own queue of the room's workers (:func:`turn`), the table only takes
        its answers. Returns the two frame lists (the learner's move, the defence's
        answers); Refusal with the sentence otherwise."""
        from courtlearn.widgets.core import Refused, Seat

        from .workers import Busy, puzzle_turn
        try:
            kind, args = Seat.parse(content)
        except Refused as err:
            raise Refusal(str(err), puzzle=True) from None
        if kind != "play":
            raise Refusal(tr("In a class puzzle you find the line yourself: play your side's "
                             "cards."), puzzle=True)
        reason = self.seat.refusal(kind, args) if self.seat.replay is None else None
        if reason is not None:
            raise Refusal(reason, puzzle=True)
        deal, p = self.table.deal, self.puzzle
        card = args[0]
        seat_name = deal.rules.seat_name(deal.to_play) if deal.phase == "play" else ""
        tokens = list(deal.actions[self.start:])
        room = self.desk.room
        try:
            got = await room.workers.run(self.lr.id, puzzle_turn, p.level, self.number, tokens,
                                         card.code, self.status == "playing", room.language,
                                         group=group)
        except Busy as err:
            raise Refusal(str(err), puzzle=True) from None
        if self.desk.tables.get(self.lr.id) is not self or \
                list(self.table.deal.actions[self.start:]) != tokens:
            raise Refusal(tr("The puzzle changed meanwhile; nothing was played."), puzzle=True)
        try:
            outcome = self.seat.handle(content)
        except Refused as err:
            raise Refusal(str(err), puzzle=True) from None
        if not outcome.moved:                       # (only plays reach here: defensive)
            return [self.snap()], []
        values = got["values"]
        if values is not None and values.get(card.code, p.target) < p.target:
            from courtlearn.cards import Card
            from courtlearn.puzzles import _names
            keep = [Card.parse(c) for c, v in values.items() if v >= p.target]
            self.status = "failed"
            self.note = (tr("After {card} ({seat}) the goal is out of reach against best "
                            "defence: {cards} would have kept it. Press Try again.", card=card,
                            seat=seat_name, cards=_names(keep)), "error")
            self.desk.record(self, False, got["right"])
        mine = [self.snap()]
        theirs: list = []
        self.defence.script = list(got["defence"])
        failure = self.table.run_bots(lambda: theirs.append(self.snap()))
        if failure is not None:
            theirs.append(self.snap(failure, "error"))
        if self.table.deal.phase == "over" and self.status == "playing":
            rules, deal = p.deal.rules, self.table.deal
            tens = rules.game == "dehla_pakad"
            total = (deal.tens_won if tens else deal.tricks_won)[p.team]
            count = tr("{n} tens", n=total) if tens else tr("{n} tricks", n=total)
            self.status = "solved"
            self.note = (tr("Solved! {side} end the deal with {count}: the goal is reached.",
                            side=rules.team_name(p.team), count=count), "hint")
            self.desk.record(self, True, got["right"])
            (theirs or mine).append(self.snap())
        return mine, theirs


# ----------------------------------------------------------------------------- the room's side
class PuzzleDesk:
    """A room's puzzles: the level set (None: no puzzles), each learner's puzzle table,
    their messages. Made on first use by :func:`desk_of`."""

    def __init__(self, room):
        self.room = room
        self.level: int | None = None
        self.count = 0
        self.tables: dict[int, LearnerPuzzle] = {}      # learner id -> their puzzle now
        self.opened: dict[tuple, float] = {}            # (learner, key) -> first shown
        self.solved: dict[int, set] = {}                # learner id -> puzzle keys solved
        self.waiting: dict[int, int] = {}               # learner id -> cards not answered yet
        self.locks: dict[int, "asyncio.Lock"] = {}      # learner id -> one card at a time

    def __repr__(self) -> str:
        where = "no puzzles" if self.level is None else f"level {self.level} ({self.count})"
        return f"<class puzzles: {where}, {len(self.tables)} learners at one>"

    # -- the teacher
    def set(self, level) -> "PuzzleDesk":
        """Set the class puzzle ``level`` (1..5), or None to end the puzzles. Every page
        starts at the first puzzle of the level the learner has not solved yet."""
        from courtlearn import puzzles
        with using(self.room.language):
            if level is not None:
                level = puzzles.check_level(level)
        self.level = level
        self.tables.clear()
        self.count = 0 if level is None else sum(p.level == level for p in puzzles.all())
        for lr, conn in list(self._conns()):
            self._show(conn, lr)
        self.room._done()
        self.push()
        return self

    def state(self) -> dict:
        """The teacher's view: the level set, the levels there are, the page's words."""
        from courtlearn import puzzles
        counts = {}
        for p in puzzles.all():
            counts[p.level] = counts.get(p.level, 0) + 1
        with using(self.room.language):
            words = {"puzzles": tr("Puzzles"), "set": tr("Set the puzzles"),
                     "end": tr("End the puzzles"),
                     "on": tr("The class plays puzzles of level {n}.")}
            levels = [{"level": k, "count": counts[k],
                       "label": trn("Level {level}: {n} puzzle", "Level {level}: {n} puzzles",
                                    counts[k], level=k)} for k in sorted(counts)]
        return {"level": self.level, "count": self.count, "levels": levels,
                "playing": len(self.tables), "words": words}

    def push(self) -> None:
        server = self.room.server
        desk = getattr(server, "_desk", None) if server is not None else None
        if desk is None or self.room.closed:
            return
        text = _dumps({"type": "puzzles", "state": self.state()})
        for conn in list(desk.conns):
            conn.send(text)

    def teacher_message(self, conn, content) -> None:
        """A teacher page's puzzles request (the socket proved the teacher's token)."""
        kind = content.get("type") if isinstance(content, dict) else None
        with using(self.room.language):
            try:
                if kind == "set" and set(content) <= {"type", "level"}:
                    self.set(content.get("level"))
                    return
                if kind != "state":
                    raise ValueError(tr("The class server ignored a message it does not "
                                        "understand; nothing changed."))
            except ValueError as err:
                conn.send(_dumps({"type": "refused", "reason": str(err)[:300]}))
        conn.send(_dumps({"type": "puzzles", "state": self.state()}))

    # -- results
    def solved_numbers(self, lr) -> set:
        keys = self._solved(lr)
        return {int(k.split(".")[1]) for k in keys if k.startswith(f"{self.level}.")}

    def _solved(self, lr) -> set:
        got = self.solved.get(lr.id)
        if got is None:
            got = self.solved[lr.id] = {
                r["item"].split("/", 1)[1] for r in self.room.store.results(self.room.code, lr.id)
                if r["kind"] == "puzzle" and r["right"]}
        return got

    def record(self, lp: LearnerPuzzle, solved: bool, right: bool | None = None) -> None:
        """One try of ``lp``'s learner, stored by the room with ``right``, the verdict of
        the notebook's checker on its line (worked out off the loop with the try's last
        card, :func:`turn`); None: judged again here (``Room.record``)."""
        from courtlearn.puzzles.progress_file import puzzle_id

        from .grading import puzzle_item
        p = lp.puzzle
        opened = self.opened.get((lp.lr.id, p.key), time.monotonic())
        result = {"id": f"pz-{lp.lr.id}-{secrets.token_hex(8)}", "kind": "puzzle",
                  "item": puzzle_item(p), "answer": lp.line(),
                  "seconds": round(time.monotonic() - opened, 3), "at": time.time(),
                  "ref": puzzle_id(p)}
        if right is None:
            stored = self.room.record(lp.lr, result)
        else:
            stored = self.room.record_judged(lp.lr, result, right)
        if stored.right != solved:          # the table and the checker play the same defence
            log.error("puzzle %s: the table said %s, the checker %s", p.key, solved,
                      stored.right)
        if stored.right:
            self._solved(lp.lr).add(p.key)

    # -- the learners
    def _conns(self):
        for lr in self.room.learners.values():
            if not lr.removed:
                for conn in lr.conns:
                    yield lr, conn

    def _table(self, lr, number: int | None = None) -> LearnerPuzzle:
        lp = self.tables.get(lr.id)
        if lp is None or number is not None:
            if number is None:                # the first of the level not solved yet
                done = self.solved_numbers(lr)
                number = next((n for n in range(1, self.count + 1) if n not in done), 1)
            with using(self.room.language):
                lp = self.tables[lr.id] = LearnerPuzzle(self, lr, number)
            self.opened.setdefault((lr.id, lp.puzzle.key), time.monotonic())
        return lp

    def _show(self, conn, lr) -> None:
        """The panel and the table's picture afresh, to one socket."""
        if self.level is None:
            self.room._send(conn, {"type": "puzzle_end"})
            return
        lp = self._table(lr)
        with using(self.room.language):
            lp.seat.forget()
            self.room._send(conn, lp.panel())
            self.room._send(conn, lp.state_msg([lp.snap()]))

    def _to_learner(self, lr, msg) -> None:
        text = _dumps(msg)
        for conn in lr.conns:
            self.room._send(conn, text)

    def learner_message(self, conn, msg: dict) -> None:
        """A learner socket's puzzle_get, puzzle_msg, puzzle_again or puzzle_next."""
        room = self.room
        lr = getattr(conn, "learner", None)
        kind = msg.get("type")
        content = msg.get("content")
        rid = content.get("id") if isinstance(content, dict) else None
        if isinstance(rid, bool) or not isinstance(rid, int):
            rid = None
        with using(room.language):
            try:
                if kind not in KEYS or set(msg) - KEYS[kind]:
                    raise Refusal(tr("The class server ignored a message it does not "
                                     "understand; nothing changed."), puzzle=True)
                if lr is None or lr.removed:
                    raise Refusal(tr("Join the class first."))
                if kind == "puzzle_get":
                    self._show(conn, lr)
                    room._done()
                    return
                if self.level is None:
                    raise Refusal(tr("The teacher has set no puzzles now."), puzzle=True)
                if kind in ("puzzle_again", "puzzle_next"):
                    lp = self._table(lr)
                    nxt = lp.number if kind == "puzzle_again" else lp.number % self.count + 1
                    self._table(lr, nxt)
                    for c in lr.conns:
                        self._show(c, lr)
                    room._done()
                    return
                waiting = self.waiting.get(lr.id, 0)
                if waiting >= MAX_WAITING:
                    raise Refusal(tr("Your earlier cards are still being answered: wait for "
                                     "them."), puzzle=True)
                self.waiting[lr.id] = waiting + 1
                play = self._play(conn, lr, content, rid)
                if room.loop is None:
                    _now(play)
                else:
                    asyncio.ensure_future(play)
            except Refusal as err:
                if kind != "puzzle_msg" or rid is None or lr is None:
                    raise                       # the server refuses it with the sentence
                self._refused(conn, lr, rid, err)

    def _refused(self, conn, lr, rid, err) -> None:
        room = self.room
        lp = self.tables.get(lr.id) if self.level is not None else None
        if lp is not None:              # the table's message line says it, as a widget's
            room._send(conn, lp.state_msg([lp.snap(str(err), "error")]))
        room._send(conn, {"type": "puzzle_custom", "content": {
            "reply_to": rid, "ok": False, "reason": str(err)}})
        room._done()

    async def _play(self, conn, lr, content, rid) -> None:
        """One card of the learner's, after their earlier ones (one at a time per learner;
        the solving is done off the loop, see LearnerPuzzle.play)."""
        room = self.room
        lock = None
        if room.loop is not None:
            lock = self.locks.get(lr.id)
            if lock is None:
                lock = self.locks[lr.id] = asyncio.Lock()
            await lock.acquire()
        try:
            with using(room.language):
                try:
                    if self.level is None:
                        raise Refusal(tr("The teacher has set no puzzles now."), puzzle=True)
                    await self._play_now(lr, content, rid, getattr(conn, "address", None))
                except Refusal as err:
                    if rid is None:
                        room._send(conn, {"type": "refused", "reason": str(err), **err.extra})
                        room._done()
                    else:
                        self._refused(conn, lr, rid, err)
                except Exception:                # the server's fault: said, the socket stays
                    log.exception("a class puzzle's card failed")
                    room._send(conn, {"type": "refused",
                                      "reason": tr("Something went wrong on the class server.")})
                    room._done()
        finally:
            left = self.waiting.get(lr.id, 1) - 1
            if left > 0:
                self.waiting[lr.id] = left
            else:
                self.waiting.pop(lr.id, None)
            if lock is not None:
                lock.release()
                if left <= 0:
                    self.locks.pop(lr.id, None)

    async def _play_now(self, lr, content, rid, group) -> None:
        lp = self._table(lr)
        mine, theirs = await lp.play(content, group)
        self._to_learner(lr, lp.state_msg(mine, more=bool(theirs)))
        if theirs:
            self._to_learner(lr, lp.state_msg(theirs, follows=True))
        if lp.status != "playing" or lp.table.deal.phase == "over":
            self._to_learner(lr, lp.panel())
        if rid is not None:
            self._to_learner(lr, {"type": "puzzle_custom",
                                  "content": {"reply_to": rid, "ok": True}})
        self.room._done()


def _now(coro):
    """Run a coroutine that never waits (a room without a loop: its workers judge in
    place) to its end, here."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError("a room without a loop cannot wait")


def learner_words() -> dict[str, str]:
    """The learner page's puzzle words, in the current language."""
    return {"again": tr("Try again"), "next": tr("Next puzzle"),
            "level": tr("Puzzles of level {n}: {i} of {count}"),
            "solved": tr("Solved so far: {n} of {total} puzzles.")}


def desk_of(room) -> PuzzleDesk:
    """The room's PuzzleDesk (made on first use)."""
    desk = getattr(room, "_puzzle_desk", None)
    if desk is None:
        desk = room._puzzle_desk = PuzzleDesk(room)
    return desk


def set_level(room, level) -> PuzzleDesk:
    """Set ``room``'s class puzzle level (see :meth:`Room.puzzles`)."""
    return desk_of(room).set(level)
