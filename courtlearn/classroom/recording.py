"""Results: every check, puzzle try and quiz answer that reaches the class (a part of the
room, see room.py; the judging itself is courtlearn/classroom/grading.py's).

:meth:`Results.record` judges one result here and now; the class server, whose loop must
not think, calls :meth:`Results.record_async`, which judges it in the room's workers
(workers.py). What the dashboard shows of a result (its item's title, right or wrong,
when) is stored with it, so reading never recomputes. (The module is not named results.py:
``cl.classroom.results`` is the function that reads a class file's results.)

>>> from courtlearn.classroom.room import Room
>>> from courtlearn.classroom.store import Store
>>> room = Room.create(Store(":memory:"), code="RESU23", tables=1)
>>> asha, _ = room.register("Asha")
>>> room.record(asha, {"id": "asha-0001", "kind": "exercise", "item": "trick_winner/1",
...                    "answer": "K♥"}).right
True
"""
from __future__ import annotations

import asyncio
import json
import logging
import time

from courtlearn.language import tr, using

from .learners import Learner, Refusal

__all__ = ["Results"]

log = logging.getLogger("courtlearn.classroom")


class Results:
    """The class's results: judged, stored, read back (a part of
    :class:`~courtlearn.classroom.room.Room`)."""

    def record(self, learner, result: dict, title: str | None = None):
        """Judge one result of ``learner`` (a Learner or their id) and store it: the one
        place every result reaches the class (the notebooks' ``POST api/results``, the
        learner pages' quiz and puzzles). ``result``: a dict as
        :mod:`courtlearn.classroom.grading` describes (``id``, ``kind``, ``item``,
        ``answer``; ``seconds``, ``at``, ``ref`` when known). The answer is judged by
        ``self.judges[kind](item, answer, result)`` (exercises and puzzles by the
        checkers the notebook used; the quiz adds its own judge), which returns True or
        False, None for what is not an answer, or raises Refusal when there is no such
        item. Returns a :class:`~courtlearn.classroom.grading.Stored` (``.right``,
        ``.attempt``, ``.duplicate``: the same id again changes nothing); raises
        :class:`Refusal` with the sentence when refused: nothing is stored. What the
        dashboard shows of it (``title``: the item's, by default its title from
        grading.item_title) is stored with it. The write is committed with the room's
        next flush (at once without a loop).

        This judges here and now, in the caller's thread: the class server (its loop
        must not think) calls :meth:`record_async`, which judges in the room's workers."""
        with using(self.language):
            lr, r, old = self._result_in(learner, result)
            if old is not None:
                return old
            right = self._judged(r, self.judges.get(r["kind"]), r["kind"])
        return self._keep(lr, r, right, title)

    def record_judged(self, learner, result: dict, right: bool, title: str | None = None):
        """Store a result judged already, off the loop, by the judge :meth:`record` would
        call (a class puzzle's try: its line was judged with the card that ended it,
        class_puzzles.turn): checked and stored as record does, never judged again."""
        with using(self.language):
            lr, r, old = self._result_in(learner, result)
            if old is not None:
                return old
        return self._keep(lr, r, bool(right), title)

    async def record_async(self, learner, result: dict, title: str | None = None,
                           group=None):
        """:meth:`record`, the judging done off the event loop: in the room's
        :attr:`workers` (a process pool), in ``learner``'s own queue (``group``: the
        address the request came from). Raises :class:`Refusal` as record does (with
        ``fault=True`` for the server's own failures, and ``busy=True`` when too much of
        the learner's work waits already: send it again later)."""
        from .grading import JUDGES
        from .workers import Busy, judge
        with using(self.language):
            lr, r, old = self._result_in(learner, result)
            if old is not None:
                return old
            kind = r["kind"]
            fn = self.judges.get(kind)
            if fn is None or fn is not JUDGES.get(kind):   # the quiz's: a look-up, here
                right = self._judged(r, fn, kind)
                return self._keep(lr, r, right, title)
            key = (lr.id, r["id"])
            pending = self._judging.get(key)
            if pending is None:                            # (a resend waits for the first)
                try:
                    pending = self.workers.submit(lr.id, judge, kind, r["item"], r["answer"],
                                                  r["ref"], self.language, group=group)
                except Busy as err:
                    raise Refusal(str(err), fault=True, busy=True) from None
                self._judging[key] = pending
                pending.add_done_callback(lambda _f, key=key: self._judging.pop(key, None))
        try:
            right = await asyncio.shield(pending)
        except Refusal:
            raise
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a %s result could not be judged", kind)
            with using(self.language):
                raise Refusal(tr("The class server could not judge that answer; nothing was "
                                 "stored."), fault=True) from None
        with using(self.language):
            lr, r, old = self._result_in(lr, result)        # stored meanwhile (a resend)?
            if old is not None:
                return old
            if right is None:
                raise Refusal(tr("That is not an answer to {item}; nothing was stored.",
                                 item=r["item"]))
        return self._keep(lr, r, right, title)

    async def record_many(self, learner, results: list, group=None, wait: float = 3.0) -> dict:
        """A notebook's batch of results (``POST api/results``): each judged off the loop
        (:meth:`record_async`) and stored as it is judged. Returns ``{"stored": [ids],
        "duplicate": [ids], "refused": [{id, reason}], "failed": [{id, reason}]}``;
        what is not judged within ``wait`` seconds is "failed" (the notebook sends it again
        later; its judging goes on, and the resend finds it stored)."""
        def rid_of(result):
            rid = result.get("id") if isinstance(result, dict) else None
            return rid if isinstance(rid, str) and len(rid) <= 64 else None
        tasks = [asyncio.ensure_future(self.record_async(learner, r, group=group))
                 for r in results]
        if tasks:
            await asyncio.wait(tasks, timeout=wait)
        out = {"stored": [], "duplicate": [], "refused": [], "failed": []}
        with using(self.language):
            later = tr("Still being judged: it goes again in a moment.")
        for result, task in zip(results, tasks):
            rid = rid_of(result)
            if not task.done():
                task.add_done_callback(_quiet_task)
                out["failed"].append({"id": rid, "reason": later})
                continue
            err = task.exception()
            if isinstance(err, Refusal):
                out["failed" if err.extra.get("fault") else "refused"].append(
                    {"id": rid, "reason": str(err)})
            elif err is not None:
                log.error("a result could not be recorded: %r", err)
                out["failed"].append({"id": rid, "reason": later})
            else:
                stored = task.result()
                out["stored"].append(stored.id)
                if stored.duplicate:
                    out["duplicate"].append(stored.id)
        return out

    def _result_in(self, learner, result):
        """(learner, the checked result, the Stored of the same id stored already or None);
        Refusal for what cannot be a result of a learner of this class."""
        from .grading import Stored, check_result
        lr = self._result_learner(learner)
        r = check_result(result)
        old = self.store.result(self.code, lr.id, r["id"])
        if old is not None:
            return lr, r, Stored(old["id"], lr.id, old["kind"], old["item"], bool(old["right"]),
                                 old["attempt"], duplicate=True)
        return lr, r, None

    def _judged(self, r: dict, judge, kind: str) -> bool:
        """The verdict of ``judge`` (here and now); Refusal for no judge, no such item, or
        no answer."""
        if judge is None:
            raise Refusal(tr("This class takes no {kind} results; nothing was stored.",
                             kind=kind))
        try:
            right = judge(r["item"], r["answer"], r)
        except Refusal:
            raise
        except Exception:
            log.exception("a %s result could not be judged", kind)
            raise Refusal(tr("The class server could not judge that answer; nothing was "
                             "stored."), fault=True) from None
        if right is None:
            raise Refusal(tr("That is not an answer to {item}; nothing was stored.",
                             item=r["item"]))
        return right

    def _keep(self, lr: Learner, r: dict, right, title: str | None = None):
        """Store a judged result with what the dashboard shows of it (its title, right or
        wrong, when), count it in the tally; returns the Stored."""
        from .grading import MAX_SECONDS, Stored, item_title
        now = time.time()
        at = r["at"]
        if at is None or not now - MAX_SECONDS <= at <= now + 60:
            at = now                          # a clock far off: when it arrived
        if title is None:
            with using(self.language):
                title = item_title(r["kind"], r["item"])
        attempt = self.tally.tries(lr.id, r["kind"], r["item"]) + 1
        self.store.add_result(self.code, lr.id, {
            "id": r["id"], "kind": r["kind"], "item": r["item"],
            "answer": json.dumps(r["answer"], ensure_ascii=False), "right": bool(right),
            "attempt": attempt, "seconds": r["seconds"], "at": at, "received": now,
            "title": title})
        self.tally.add(lr.id, r["kind"], r["item"], bool(right), r["seconds"], at, now, title)
        self._done()
        return Stored(r["id"], lr.id, r["kind"], r["item"], bool(right), attempt)

    @property
    def workers(self):
        """The room's :class:`~courtlearn.classroom.workers.Workers`: what takes more than
        a millisecond or two runs there, off the loop (a pool started on first use and
        stopped by :meth:`close`)."""
        if self._workers is None:
            from .workers import Workers
            self._workers = Workers(self.loop)
        return self._workers

    _workers = None

    def _title_results(self) -> None:
        """Results stored before their titles were (a file of schema 2) get them now, in
        the class's language: the dashboard only reads what is stored."""
        rows = self.store.untitled_results(self.code)
        if not rows:
            return
        from .grading import item_title
        with using(self.language):
            self.store.set_result_titles((item_title(kind, item), rowid)
                                         for rowid, kind, item in rows)
        self.store.commit()

    def _result_learner(self, learner) -> Learner:
        lr = learner if isinstance(learner, Learner) else (
            self.learners.get(learner) if isinstance(learner, int)
            and not isinstance(learner, bool) else None)
        if lr is None or lr.removed or self.learners.get(lr.id) is not lr:
            raise Refusal(tr("You are not in this class (any more): join it again."),
                          rejoin=True)
        return lr

    def _learner_names(self) -> dict[int, str]:
        return {r["id"]: r["name"] for r in self.store.learners(self.code)}

    def results(self, learner=None):
        """A pandas DataFrame, one row per learner and item (an exercise question, a puzzle,
        a quiz question): learner (id), name, kind, item, tries, first_right (right at the
        first try), solved, seconds (time taken: the learner's seconds with the question at
        the first right try, else at the latest), first and last (when tried). Only
        ``learner``'s rows with one (a Learner or id). ``.to_csv("results.csv")`` keeps it.
        After class: ``cl.classroom.results("class.sqlite")``."""
        from .grading import results_frame
        lid = None if learner is None else self._learner(learner).id
        return results_frame(self.store.results(self.code, lid), self._learner_names())

    def answers(self, learner=None):
        """A pandas DataFrame of every try, one row each: learner, name, kind, item, try,
        answer (as the learner gave it), right (as judged here), seconds, at, received, id."""
        from .grading import answers_frame
        lid = None if learner is None else self._learner(learner).id
        return answers_frame(self.store.results(self.code, lid), self._learner_names())


def _quiet_task(task) -> None:
    """A result's judging that finished after its request was answered: its exception
    (a refusal the resend will meet again) is read, never logged as lost."""
    if not task.cancelled():
        task.exception()
