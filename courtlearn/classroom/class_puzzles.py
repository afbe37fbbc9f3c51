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

import json
import logging
import secrets
import time

from courtlearn.language import tr, trn, using
from courtlearn.rules import team_of

from .room import Refusal

__all__ = ["PuzzleDesk", "LearnerPuzzle", "set_level", "desk_of", "learner_words"]

log = logging.getLogger("courtlearn.classroom")

# the top-level keys each learner message may carry
KEYS = {"puzzle_get": {"type"}, "puzzle_again": {"type"}, "puzzle_next": {"type"},
        "puzzle_msg": {"type", "content"}}


def _dumps(msg) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


class Defence:
    """The defenders' bot: :func:`courtlearn.puzzles.defend` (best defence, pressing)."""

    def __init__(self, team: int, target: int):
        self.team, self.target = team, target

    def choose(self, deal):
        from courtlearn.puzzles import defend
        return defend(deal, self.team, self.target)


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
        defence = Defence(p.team, p.target)
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

    def play(self, content) -> tuple[list, list]:
        """The learner's intent (the table's own message): judged with the solver before
        the deal takes it, then the defence answers. Returns the two frame lists (the
        learner's move, the defence's answers); Refusal with the sentence otherwise."""
        from courtlearn.puzzles import _names
        from courtlearn.solver import solve
        from courtlearn.widgets.core import Refused, Seat
        try:
            kind, args = Seat.parse(content)
        except Refused as err:
            raise Refusal(str(err), puzzle=True) from None
        if kind != "play":
            raise Refusal(tr("In a class puzzle you find the line yourself: play your side's "
                             "cards."), puzzle=True)
        deal, p = self.table.deal, self.puzzle
        values = None
        if (self.status == "playing" and deal.phase == "play"
                and team_of(deal.to_play) == p.team):
            values = solve(deal).values
            seat_name = deal.rules.seat_name(deal.to_play)
        try:
            outcome = self.seat.handle(content)
        except Refused as err:
            raise Refusal(str(err), puzzle=True) from None
        if not outcome.moved:                       # (only plays reach here: defensive)
            return [self.snap()], []
        card = args[0]
        if values is not None and card in values and values[card] < p.target:
            keep = [c for c, v in values.items() if v >= p.target]
            self.status = "failed"
            self.note = (tr("After {card} ({seat}) the goal is out of reach against best "
                            "defence: {cards} would have kept it. Press Try again.", card=card,
                            seat=seat_name, cards=_names(keep)), "error")
            self.desk.record(self, False)
        mine = [self.snap()]
        theirs: list = []
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
            self.desk.record(self, True)
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

    def record(self, lp: LearnerPuzzle, solved: bool) -> None:
        """One try of ``lp``'s learner, stored (and judged again) by ``Room.record``."""
        from courtlearn.puzzles.progress_file import puzzle_id

        from .grading import puzzle_item
        p = lp.puzzle
        opened = self.opened.get((lp.lr.id, p.key), time.monotonic())
        stored = self.room.record(lp.lr, {
            "id": f"pz-{lp.lr.id}-{secrets.token_hex(8)}", "kind": "puzzle",
            "item": puzzle_item(p), "answer": lp.line(),
            "seconds": round(time.monotonic() - opened, 3), "at": time.time(),
            "ref": puzzle_id(p)})
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
                self._play(lr, content, rid)
            except Refusal as err:
                if kind != "puzzle_msg" or rid is None or lr is None:
                    raise                       # the server refuses it with the sentence
                lp = self.tables.get(lr.id) if self.level is not None else None
                if lp is not None:              # the table's message line says it, as a widget's
                    room._send(conn, lp.state_msg([lp.snap(str(err), "error")]))
                room._send(conn, {"type": "puzzle_custom", "content": {
                    "reply_to": rid, "ok": False, "reason": str(err)}})
                room._done()

    def _play(self, lr, content, rid) -> None:
        lp = self._table(lr)
        mine, theirs = lp.play(content)
        self._to_learner(lr, lp.state_msg(mine, more=bool(theirs)))
        if theirs:
            self._to_learner(lr, lp.state_msg(theirs, follows=True))
        if lp.status != "playing" or lp.table.deal.phase == "over":
            self._to_learner(lr, lp.panel())
        if rid is not None:
            self._to_learner(lr, {"type": "puzzle_custom",
                                  "content": {"reply_to": rid, "ok": True}})
        self.room._done()


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
