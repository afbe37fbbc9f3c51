"""Results of a class, behind ``room.results()`` and ``cl.classroom.results(path)``.

A learner's notebook (:mod:`courtlearn.classroom.client`) sends each exercise check and
puzzle try as a *result*, a JSON object (hostile until checked):

    {"id": "0f3a9c...", "kind": "exercise", "item": "trick_winner/1", "answer": "K♥",
     "seconds": 12.5, "at": 1764000000.0}
    {"id": "...", "kind": "puzzle", "item": "puzzle/1.2", "ref": "ab12cd34ef",
     "answer": ["9C", "8D", "10H"], "seconds": 40.0, "at": 1764000100.0}

``id``: made by the notebook, unique (a resend is stored once); ``item``: an exercise
question by kind and number (``trick_winner/1``) or seed (``trick_winner/seed=7``), a
puzzle by level and number (``puzzle/1.2``, ``ref`` the digest of its position, so a
ladder of another version is not taken for this one); ``answer``: what the learner gave
(a text, a whole number or a list of texts and numbers; never null); ``seconds``: how
long the learner had the question before this try; ``at``: when (Unix time). Whether it
is right is never taken from the notebook: :func:`judge_exercise` and
:func:`judge_puzzle` judge it again with the checkers the notebook used (in the class
server, off its event loop: :mod:`courtlearn.classroom.workers`). The try's number is
counted here too, and what the dashboard shows of it (the item's title) is stored with
it.

:func:`check_result` refuses what is not a result (a :class:`Refusal`, nothing stored).
:class:`Tally` keeps the class's results in memory for the dashboard (who is where, who is
stuck, the questions most of the class got wrong); :func:`results_frame` and
:func:`answers_frame` make the pandas frames; :func:`read` reads a class's file after class.

>>> check_result({"id": "abcdef12", "kind": "exercise", "item": "trick_winner/1",
...               "answer": "K♥"})["item"]
'trick_winner/1'
>>> judge_exercise("trick_winner/1", "K♥"), judge_exercise("trick_winner/1", "2♥")
(True, False)
"""
from __future__ import annotations

import functools
import heapq
import json
import math
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from courtlearn.language import tr
from courtlearn.publish import encode_answer, exercise_item, puzzle_item

from .learners import Refusal

__all__ = ["check_result", "check_answer", "judge_exercise", "judge_puzzle", "JUDGES",
           "Stored", "Tally", "results_frame", "answers_frame", "read", "exercise_item",
           "puzzle_item", "item_title", "encode_answer", "RESULT_COLUMNS", "ANSWER_COLUMNS"]

KINDS = ("exercise", "puzzle", "quiz")
ID = re.compile(r"[A-Za-z0-9_-]{8,64}\Z")
ITEM = re.compile(r"[A-Za-z0-9_./=-]{1,140}\Z")
MAX_TEXT = 500             # characters of an answer written as text
MAX_LIST = 60              # parts of an answer given as a list (a line is at most 52 cards)
MAX_PART = 40              # characters of each part of a list
MAX_INT = 10 ** 6
MAX_SECONDS = 30 * 24 * 3600
FIELDS = {"id", "kind", "item", "answer", "seconds", "at", "ref", "try"}
STUCK_TRIES = 3            # tries without a right answer on the item a learner is at
STUCK_KINDS = ("exercise", "puzzle")     # a quiz question is answered once: never "stuck"
GRID_ITEMS = 40            # the dashboard's grid shows the latest items at most
ROWS = 50                  # learners on one page of the dashboard's grid
HARDEST = 5                # questions in "most of the class got wrong"

RESULT_COLUMNS = ["learner", "name", "kind", "item", "tries", "first_right", "solved",
                  "seconds", "first", "last"]
ANSWER_COLUMNS = ["learner", "name", "kind", "item", "try", "answer", "right", "seconds",
                  "at", "received", "id"]


# ----------------------------------------------------------------------------- items
def _exercise_parts(item: str):
    """(kind, number, seed) of an exercise item; Refusal when there is no such question."""
    from courtlearn import exercises
    kind, _, which = item.partition("/")
    if kind not in exercises.KINDS + exercises.PLAY_KINDS or not which:
        raise Refusal(tr("There is no exercise {item!r}; nothing was stored.", item=item[:60]))
    if which.startswith("seed="):
        digits = which[5:]
        if not re.fullmatch(r"[0-9]{1,100}", digits) or (len(digits) > 1 and digits[0] == "0"):
            raise Refusal(tr("There is no exercise {item!r}; nothing was stored.",
                             item=item[:60]))
        return kind, None, int(digits)
    if not re.fullmatch(r"[1-9][0-9]{0,3}", which) or int(which) > exercises.count(kind):
        raise Refusal(tr("There is no exercise {item!r}; nothing was stored.", item=item[:60]))
    return kind, int(which), None


@functools.lru_cache(maxsize=512)
def _question(kind: str, number, seed):
    """The question, or None for a seed that gives none (exercises.NoQuestion: its search
    found no position; remembered, so a resend does not search again)."""
    from courtlearn import exercises
    try:
        return exercises.question(kind, number) if seed is None else \
            exercises.question(kind, seed=seed)
    except exercises.NoQuestion:
        return None


def _puzzle(item: str):
    from courtlearn import puzzles
    m = re.fullmatch(r"puzzle/([1-9])\.([1-9][0-9]{0,3})", item)
    if m:
        level, n = int(m.group(1)), int(m.group(2))
        mine = [p for p in puzzles.all() if p.level == level]
        if level in puzzles.LEVELS and n <= len(mine):
            return mine[n - 1]
    raise Refusal(tr("There is no puzzle {item!r}; nothing was stored.", item=item[:60]))


def item_title(kind: str, item: str) -> str:
    """The item in words (the current language): the exercise's title from its kind and
    number or seed (the question is never built: a fresh question may take the solver a
    second), the puzzle's heading; the item itself when it is not known here. Stored with
    each result when it is recorded: the dashboard reads it, never computes it."""
    try:
        if kind in ("exercise", "quiz"):       # a quiz question is an exercise's: kind/seed=N
            from courtlearn.exercises._base import question_title
            ekind, number, seed = _exercise_parts(item)
            return question_title(ekind, number, seed)
        if kind == "puzzle":
            return _puzzle(item).heading
    except Exception:                              # noqa: BLE001 (a name, never a failure)
        pass
    return item


# ----------------------------------------------------------------------------- answers
def check_answer(value):
    """``value`` when it has an answer's shape (see :func:`encode_answer`), else Refusal.
    ``null`` is no answer (issue 29: it was stored as a wrong try)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        if abs(value) <= MAX_INT:
            return value
    elif isinstance(value, str):
        if len(value) <= MAX_TEXT:
            return value
    elif isinstance(value, list) and len(value) <= MAX_LIST and all(
            (isinstance(v, str) and len(v) <= MAX_PART)
            or (isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_INT)
            for v in value):
        return value
    raise Refusal(tr("That is not an answer (a text, a whole number or a list of them); "
                     "nothing was stored."))


def check_result(result) -> dict:
    """The result's fields, checked (see the module's doc); Refusal for anything else."""
    bad = tr("That is not a result the class can read; nothing was stored.")
    if not isinstance(result, dict) or set(result) - FIELDS:
        raise Refusal(bad)
    rid, kind, item = result.get("id"), result.get("kind"), result.get("item")
    if not (isinstance(rid, str) and ID.match(rid)):
        raise Refusal(tr("A result needs an id of 8 to 64 letters, digits, - or _; nothing "
                         "was stored."))
    if kind not in KINDS:
        raise Refusal(tr("A result's kind is one of {kinds}; nothing was stored.",
                         kinds=", ".join(KINDS)))
    if not (isinstance(item, str) and ITEM.match(item)):
        raise Refusal(bad)
    if "answer" not in result:
        raise Refusal(tr("That is not an answer (a text, a whole number or a list of them); "
                         "nothing was stored."))
    out = {"id": rid, "kind": kind, "item": item, "answer": check_answer(result["answer"])}
    for key in ("seconds", "at"):
        value = result.get(key)
        if value is None:
            out[key] = None
        elif isinstance(value, (int, float)) and not isinstance(value, bool) \
                and math.isfinite(value) and value >= 0:
            out[key] = float(value)
        else:
            raise Refusal(bad)
    if out["seconds"] is not None:
        out["seconds"] = min(out["seconds"], MAX_SECONDS)
    ref = result.get("ref")
    if ref is not None and not (isinstance(ref, str) and re.fullmatch(r"[0-9a-f]{6,40}", ref)):
        raise Refusal(bad)
    out["ref"] = ref
    return out


# ----------------------------------------------------------------------------- judging
def _key(answer) -> str:
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":"))


def judge_exercise(item: str, answer, result: dict | None = None) -> bool | None:
    """Whether ``answer`` is right for the exercise question ``item``, judged by the
    question's own checker (``Question.feedback``); None when it is not an answer (``...``
    never reaches here); Refusal when there is no such question."""
    kind, number, seed = _exercise_parts(item)
    if _question(kind, number, seed) is None:     # a seed without a question: no such item
        raise Refusal(tr("There is no exercise {item!r}; nothing was stored.", item=item[:60]))
    return _judged_exercise(kind, number, seed, _key(answer))


@functools.lru_cache(maxsize=4096)
def _judged_exercise(kind, number, seed, answer_json):
    q = _question(kind, number, seed)
    return q.feedback(json.loads(answer_json)).correct


def judge_puzzle(item: str, answer, result: dict | None = None) -> bool | None:
    """Whether the line ``answer`` (the learner's side's cards) reaches the goal of puzzle
    ``item`` against the defence ``Puzzle.check`` plays; None when it is no line (an
    empty or unreadable one is not a try); Refusal when there is no such puzzle, or its
    position is not this ladder's (``ref``)."""
    p = _puzzle(item)
    ref = (result or {}).get("ref")
    if ref is not None:
        from courtlearn.puzzles.progress_file import puzzle_id
        if ref != puzzle_id(p):
            raise Refusal(tr("Puzzle {key} of this class is another position (another "
                             "courtlearn version?); nothing was stored.", key=p.key))
    if not isinstance(answer, list):
        return None
    return _judged_puzzle(item, _key(answer))


@functools.lru_cache(maxsize=4096)
def _judged_puzzle(item, answer_json):
    return _puzzle(item)._check(json.loads(answer_json)).correct


#: the judges of a room (``Room.judges`` starts as a copy: the live quiz adds its own)
JUDGES = {"exercise": judge_exercise, "puzzle": judge_puzzle}


@dataclass(frozen=True)
class Stored:
    """A result the room stored (or had stored already: ``duplicate``): its id, the
    learner, kind and item, whether it is right (the room's judgement) and its try number
    for that learner and item."""

    id: str
    learner: int
    kind: str
    item: str
    right: bool
    attempt: int
    duplicate: bool = False


# ----------------------------------------------------------------------------- the tally
class _Cell:
    __slots__ = ("tries", "first_right", "solved", "seconds", "first", "last", "received")

    def __init__(self):
        self.tries = 0
        self.first_right = False
        self.solved = False
        self.seconds = None
        self.first = self.last = self.received = None


class Tally:
    """The class's results in memory, per learner and item (what the dashboard draws):
    tries, right at the first try, solved, time taken, where each learner is (the item of
    their latest result), and per item its title (as stored with the result: nothing is
    rebuilt to name it) and how many learners tried it and did not get it right at the
    first try (the "most got wrong" list, kept as results come)."""

    def __init__(self):
        self.cells: dict[tuple, _Cell] = {}      # (learner, kind, item) -> _Cell
        self.items: dict[tuple, int] = {}        # (kind, item) -> order of first result
        self.titles: dict[tuple, str] = {}       # (kind, item) -> its title, as stored
        self.per_item: dict[tuple, list] = {}    # (kind, item) -> [tried, not right at first]
        self.current: dict[int, tuple] = {}      # learner -> (kind, item) of the latest
        self.last: dict[int, float] = {}         # learner -> when the latest arrived
        self.count = 0
        self._order: list = []                   # the items in order (the dashboard's columns)
        self._hardest = None                     # (count, the "most got wrong" list)

    @classmethod
    def of(cls, rows) -> "Tally":
        """A tally of stored rows (as :meth:`Store.results` gives them)."""
        t = cls()
        for r in sorted(rows, key=lambda r: (r["received"], r["attempt"])):
            t.add(r["learner"], r["kind"], r["item"], bool(r["right"]), r["seconds"], r["at"],
                  r["received"], r.get("title"))
        return t

    def tries(self, learner: int, kind: str, item: str) -> int:
        cell = self.cells.get((learner, kind, item))
        return 0 if cell is None else cell.tries

    def title(self, kind: str, item: str) -> str:
        """The item's title as stored with its first result (the item itself without one)."""
        return self.titles.get((kind, item)) or item

    def add(self, learner, kind, item, right, seconds, at, received, title=None) -> int:
        """One more result; returns its try number."""
        ki = (kind, item)
        cell = self.cells.get((learner, kind, item))
        if cell is None:
            cell = self.cells[(learner, kind, item)] = _Cell()
        if ki not in self.items:
            self.items[ki] = len(self.items)
            self._order.append(ki)
            self.per_item[ki] = [0, 0]
        if title and ki not in self.titles:
            self.titles[ki] = title
        cell.tries += 1
        if cell.tries == 1:
            cell.first_right = bool(right)
            cell.first = at
            counts = self.per_item[ki]
            counts[0] += 1
            counts[1] += not right
        if not cell.solved:
            cell.seconds = seconds
        cell.solved = cell.solved or bool(right)
        cell.last = at
        cell.received = received
        self.current[learner] = ki
        self.last[learner] = max(received, self.last.get(learner, received))
        self.count += 1
        return cell.tries

    def stuck(self, learner, stuck_tries: int = STUCK_TRIES) -> bool:
        """Whether ``learner`` is stuck: ``stuck_tries`` or more wrong tries at the exercise
        or puzzle they are at (never for time away from their results: they may be at a
        table)."""
        cur = self.current.get(learner)
        if cur is None or cur[0] not in STUCK_KINDS:
            return False
        cell = self.cells.get((learner, *cur))
        return cell is not None and not cell.solved and cell.tries >= stuck_tries

    def state(self, learners, page: int = 0, rows: int = ROWS,
              stuck_tries: int = STUCK_TRIES) -> dict:
        """The dashboard's results part. ``learners``: (learner id, name shown) of every
        learner of the class, in the order to show them; only page ``page`` of ``rows`` of
        them is in it (a class of thousands stays a small message). Each learner: where
        they are (the item of their latest result, its tries and whether solved),
        ``stuck`` ("tries": ``stuck_tries`` or more wrong tries at the exercise or puzzle
        they are at, else None) and a cell per item (``state`` "first" right at the first
        try, "solved" later, "trying" not yet). ``items``: the latest items, each with its
        ``number`` (in the order they were first tried, as ``hardest`` numbers them too).
        ``hardest``: the items the most learners did not get right at the first try."""
        order = self._order
        first = max(0, len(order) - GRID_ITEMS)
        shown = order[first:]
        keys = {ki: f"{ki[0]}:{ki[1]}" for ki in shown}
        items = [{"key": keys[ki], "kind": ki[0], "item": ki[1], "number": first + i + 1,
                  "title": self.title(*ki)} for i, ki in enumerate(shown)]
        total = len(learners)
        pages = max(1, -(-total // rows))
        page = min(max(0, int(page)), pages - 1)
        out_rows = []
        for lid, name in learners[page * rows:(page + 1) * rows]:
            cur = self.current.get(lid)
            cell = self.cells.get((lid, *cur)) if cur else None
            cells = {}
            for ki in shown:
                c = self.cells.get((lid, *ki))
                if c is not None:
                    cells[keys[ki]] = {"tries": c.tries, "state": "first" if c.first_right
                                       else "solved" if c.solved else "trying"}
            out_rows.append({"learner": lid, "name": name,
                             "current": f"{cur[0]}:{cur[1]}" if cur else None,
                             "current_title": self.title(*cur) if cur else None,
                             "tries_now": cell.tries if cell else 0,
                             "solved_now": bool(cell and cell.solved),
                             "last": self.last.get(lid),
                             "stuck": "tries" if self.stuck(lid, stuck_tries) else None,
                             "cells": cells})
        return {"items": items, "learners": out_rows, "hardest": self.hardest(),
                "stuck_tries": stuck_tries, "count": self.count,
                "page": page, "pages": pages, "size": rows, "total": total}

    def hardest(self) -> list[dict]:
        """The items most learners did not get right at the first try: each with its
        ``number`` (as the grid's columns), how many tried it, how many did not get it right
        at the first try, and that share (most first; at most 5)."""
        if self._hardest is not None and self._hardest[0] == self.count:
            return self._hardest[1]          # nothing came since: the same list
        top = heapq.nsmallest(HARDEST, ((-wrong / n, -wrong, self.items[ki], ki)
                                        for ki, (n, wrong) in self.per_item.items() if wrong))
        out = []
        for _share, _wrong, order, ki in top:
            n, wrong = self.per_item[ki]
            out.append({"key": f"{ki[0]}:{ki[1]}", "kind": ki[0], "item": ki[1],
                        "number": order + 1, "title": self.title(*ki), "tried": n,
                        "wrong": wrong, "share": round(wrong / n, 3)})
        self._hardest = (self.count, out)
        return out


# ----------------------------------------------------------------------------- frames
def _time(value):
    import pandas as pd
    return pd.NaT if value is None else pd.Timestamp(value, unit="s", tz="UTC")


def answers_frame(rows, learners: dict):
    """Every stored try, one row each: learner (id), name, kind, item, try, answer (as
    sent), right (the server's judgement), seconds, at (when answered), received, id."""
    import pandas as pd
    out = []
    for r in rows:
        out.append({"learner": r["learner"], "name": learners.get(r["learner"], ""),
                    "kind": r["kind"], "item": r["item"], "try": r["attempt"],
                    "answer": json.loads(r["answer"]), "right": bool(r["right"]),
                    "seconds": r["seconds"], "at": _time(r["at"]),
                    "received": _time(r["received"]), "id": r["id"]})
    frame = pd.DataFrame(out, columns=ANSWER_COLUMNS)
    frame["seconds"] = frame["seconds"].astype(float)
    return frame.sort_values(["name", "learner", "kind", "item", "try"],
                             kind="stable").reset_index(drop=True)


def results_frame(rows, learners: dict):
    """One row per learner and item: tries, first_right (right at the first try), solved
    (right at some try), seconds (the time taken: the learner's seconds with the question
    at the first right try, or at the latest try when not solved), first and last (when
    the first and the latest try were made)."""
    import pandas as pd
    t = Tally()
    for r in sorted(rows, key=lambda r: (r["learner"], r["kind"], r["item"], r["attempt"])):
        t.add(r["learner"], r["kind"], r["item"], bool(r["right"]), r["seconds"], r["at"],
              r["received"])
    out = [{"learner": lid, "name": learners.get(lid, ""), "kind": kind, "item": item,
            "tries": c.tries, "first_right": c.first_right, "solved": c.solved,
            "seconds": c.seconds, "first": _time(c.first), "last": _time(c.last)}
           for (lid, kind, item), c in t.cells.items()]
    frame = pd.DataFrame(out, columns=RESULT_COLUMNS)
    frame["seconds"] = frame["seconds"].astype(float)
    for col in ("tries",):
        frame[col] = frame[col].astype(int)
    for col in ("first_right", "solved"):
        frame[col] = frame[col].astype(bool)
    return frame.sort_values(["name", "learner", "kind", "item"],
                             kind="stable").reset_index(drop=True)


# ----------------------------------------------------------------------------- after class
def read(path, code: str | None = None, every: bool = False):
    """The results of class ``code`` in the SQLite file ``path`` (read only: the file is
    never changed): :func:`results_frame`, or with ``every`` :func:`answers_frame`.
    ``code`` None picks the file's only class; with several, a ValueError names them."""
    from .store import Store
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"no class file at {str(path)[:200]!r}: give the SQLite file "
                                f"the class server wrote (--db, or open(db=...))")
    store = Store(p, readonly=True)
    try:
        codes = store.class_codes()
        if code is None:
            if len(codes) != 1:
                raise ValueError(f"{p.name} holds {len(codes)} classes"
                                 f"{': ' + ', '.join(codes) if codes else ''}; say which: "
                                 f"results({str(path)[:80]!r}, code=...)")
            code = codes[0]
        else:
            code = str(code).strip().upper()
            if code not in codes:
                raise ValueError(f"{p.name} holds no class {str(code)[:20]!r}; its classes: "
                                 f"{', '.join(codes) or 'none'}")
        names = {r["id"]: r["name"] for r in store.learners(code)}
        rows = store.results(code)
    except sqlite3.DatabaseError as err:
        raise ValueError(f"{p.name} is not a class file courtlearn can read ({err})") from None
    finally:
        store.close()
    return answers_frame(rows, names) if every else results_frame(rows, names)
