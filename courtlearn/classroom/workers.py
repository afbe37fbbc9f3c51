"""Work off the class server's event loop (issue 29): "the event loop only moves bytes".

The class server is one asyncio loop shared by every table: a millisecond spent thinking
in it is a millisecond every learner waits. Whatever can take more than a millisecond or
two (judging a result, a class puzzle's defence, building a quiz question, the coach's
review and the Best play marks of the projector) runs here instead, in a pool of worker
processes, and the loop only awaits the answer.

:class:`Workers` is a room's door to that pool:

* the pool is made on the first job (a class that never judges anything starts no
  process), from a ``forkserver`` (or ``spawn``) context: never ``fork``, which would copy
  a notebook kernel's threads and sockets into the child. Its processes run at a lower
  priority than the server (``nice``), so the loop gets a core first. It is shut down
  with the room (:meth:`close`).
* where no process can be started (a platform without them, a main module a child cannot
  import), a thread does the work: still off the loop, if not off the interpreter;
  without a running loop at all (a script, a doctest) the work runs where it is asked.
* jobs wait in one queue per *key* (a learner) inside one queue per *group* (the
  address the learner's requests come from): the pool serves the group that has had the
  least of its time so far, and in it the learner who has, one job of a learner at a
  time. A learner who asks for more than their share waits behind their own work, never
  in front of anyone else's; one whose answers take the solver a second gets as much
  time as one whose answers take milliseconds, not more; and a stranger who joins many
  learners from one address shares that address's time among them.
* bounds: a learner may have :data:`PER_KEY` jobs waiting, an address :data:`PER_GROUP`,
  the class :data:`TOTAL`; past them :meth:`submit` raises :class:`Busy` (its sentence
  says to send again later), and nothing else changes.

The jobs themselves are the module's functions (``judge``, ``quiz_question``,
``puzzle_turn``, ``coach_review``, ``best_play``): plain data in, plain data out, so a
worker process needs nothing of the room.

>>> w = Workers(loop=None)                    # no loop: the work runs at once, here
>>> w.call(judge, "exercise", "trick_winner/1", "K♥", None, "en")
True
>>> w.close()
"""
from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import logging
import os
import sys
import threading
import time

from courtlearn.language import tr, using

__all__ = ["Workers", "Busy", "judge", "quiz_question", "puzzle_turn", "coach_review",
           "best_play", "settle_heap", "PER_KEY", "PER_GROUP", "TOTAL"]

log = logging.getLogger("courtlearn.classroom")

PER_KEY = 200           # jobs one learner may have waiting
PER_GROUP = 600         # jobs one address may have waiting
TOTAL = 5000            # jobs the class may have waiting
NICE = 10               # the workers' priority below the server's
ENV = "COURTLEARN_CLASS_WORKERS"     # "process" (default), "thread", or a number of processes


class Busy(Exception):
    """Too much waits already (for this learner, this address or the class): nothing was
    queued. ``str()`` is the sentence to send back."""


def pool_size() -> int:
    """Worker processes: one core is the loop's, the others think (at least one, at most
    four; niced as well). On two cores a second worker let the healthy table's slowest
    reply under bench/class_attacks.py's judging attack go from 97 ms to 597 ms.
    ``COURTLEARN_CLASS_WORKERS=N`` sets it."""
    env = os.environ.get(ENV, "")
    if env.isdigit() and int(env) > 0:
        return min(16, int(env))
    return max(1, min(4, (os.cpu_count() or 2) - 1))


def _start_worker(server_pid: int | None = None) -> None:
    """In each worker process: a lower priority than the server, no progress bar (the
    solver's and the coach's tqdm bars went to the server's stderr: a bar in a server log),
    an end of its own when the server is gone (killed, it cannot shut the pool down: the
    workers lived on, holding its output pipes open), and courtlearn's heavy modules loaded
    before the first job needs them."""
    try:
        os.nice(NICE)
    except (OSError, AttributeError):
        pass
    os.environ["TQDM_DISABLE"] = "1"          # read by tqdm when it is imported
    if "tqdm.std" in sys.modules:             # imported already (a preloaded main module)
        import functools

        import tqdm.std
        tqdm.std.tqdm.__init__ = functools.partialmethod(tqdm.std.tqdm.__init__, disable=True)
    if server_pid is not None:
        threading.Thread(target=_end_with, args=(server_pid,), name="courtlearn-watch",
                         daemon=True).start()
    import courtlearn.exercises  # noqa: F401
    import courtlearn.puzzles  # noqa: F401
    import courtlearn.solver  # noqa: F401


def _end_with(server_pid: int, every: float = 0.5) -> None:
    """(a thread of a worker process) Exit as soon as the server's process is gone."""
    while True:
        time.sleep(every)
        try:
            os.kill(server_pid, 0)
        except ProcessLookupError:
            os._exit(0)
        except OSError:                       # there but not ours to signal: still there
            pass


def _ping(_n=None) -> int:
    return os.getpid()


class _Job:
    __slots__ = ("fn", "args", "future", "queued", "again", "group")

    def __init__(self, fn, args, future):
        self.fn, self.args, self.future = fn, args, future
        self.queued = time.monotonic()
        self.again = False              # sent again once, after the pool broke
        self.group = None


class Workers:
    """A room's jobs, run off its loop (see the module's doc).

    loop: the room's event loop (None: every job runs at once where it is asked);
    size: worker processes (None: :func:`pool_size`); mode: "process", "thread" or
    "inline" (None: ``$COURTLEARN_CLASS_WORKERS`` or "process"); clock: what the time each
    job took is read from (tests).
    """

    def __init__(self, loop=None, size: int | None = None, mode: str | None = None,
                 clock=time.monotonic):
        self.loop = loop
        self.clock = clock
        self.size = size or pool_size()
        env = os.environ.get(ENV, "")
        mode = mode or (env if env in ("process", "thread", "inline") else "process")
        if loop is None or sys.platform == "emscripten":
            mode = "inline"
        if mode not in ("process", "thread", "inline"):
            raise ValueError(f"mode is process, thread or inline; got {mode!r}")
        self.mode = mode
        if mode == "thread":
            self.size = 1                    # threads share one interpreter: one at a time
        self.executor = None
        self.closed = False
        self.groups: dict = collections.OrderedDict()   # group -> OrderedDict key -> deque
        self.busy: set = set()                         # keys with a job running
        self.served: dict = {}          # group, or ("key", key) -> seconds of the pool had
        self.waiting = 0
        self.per_group: collections.Counter = collections.Counter()
        self.running = 0
        self.done = 0
        self.waited_most = 0.0          # the longest a job waited for the pool (s)
        self.ran = 0.0                  # seconds of work done (as the loop saw it)
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return (f"<Workers {self.mode} x{self.size}: {self.running} running, "
                f"{self.waiting} waiting, {self.done} done>")

    # ------------------------------------------------------------------ the pool
    _starting = False

    def _pool_ready(self) -> bool:
        """Whether the pool takes jobs now. A process pool is started in a thread of its
        own (starting the forkserver and a worker, which imports courtlearn, takes the
        caller a second or more on a busy machine: the loop must not wait for it); the jobs
        wait until it is up, then go."""
        if self.executor is not None:
            return True
        if self.mode != "process":
            self.executor = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="courtlearn-work")
            return True
        if not self._starting:
            self._starting = True
            threading.Thread(target=self._start_pool, name="courtlearn-pool-start",
                             daemon=True).start()
        return False

    def _start_pool(self) -> None:
        """(in a thread) The process pool, every worker up and ready, then the jobs go."""
        try:
            pool = self._process_pool()
            list(pool.map(_ping, range(self.size)))
        except Exception as err:                       # noqa: BLE001 (a thread does it)
            log.warning("no worker processes (%s): a thread judges instead", err)
            pool = None

        def ready():
            self._starting = False
            if self.closed:
                if pool is not None:
                    pool.shutdown(wait=False, cancel_futures=True)
                return
            if pool is None:
                self.mode, self.size = "thread", 1
                self.executor = concurrent.futures.ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix="courtlearn-work")
            else:
                self.executor = pool
            self._pump()
        try:
            self.loop.call_soon_threadsafe(ready)
        except RuntimeError:                           # the loop is closed: nobody waits
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)

    def _process_pool(self):
        import multiprocessing
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods
                                          else "spawn")
        return concurrent.futures.ProcessPoolExecutor(max_workers=self.size, mp_context=ctx,
                                                      initializer=_start_worker,
                                                      initargs=(os.getpid(),))

    def _broken(self, err) -> None:
        """The process pool broke (a worker died, or none could start): the next job gets a
        new pool, or a thread when a pool cannot run here at all."""
        log.warning("the worker pool broke (%s); starting another", err)
        old, self.executor = self.executor, None
        if old is not None:
            old.shutdown(wait=False, cancel_futures=True)
        self._failures = getattr(self, "_failures", 0) + 1
        if self._failures >= 2:
            self.mode, self.size = "thread", 1

    def close(self) -> None:
        """Stop the pool (the room is closing): waiting jobs are cancelled."""
        self.closed = True
        for keys in self.groups.values():
            for q in keys.values():
                for job in q:
                    if not job.future.done():
                        job.future.cancel()
        self.groups.clear()
        self.waiting = 0
        self.per_group.clear()
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None

    # ------------------------------------------------------------------ jobs
    def call(self, fn, *args):
        """Run ``fn(*args)`` here and now (a room without a loop)."""
        return fn(*args)

    def submit(self, key, fn, *args, group=None) -> "asyncio.Future":
        """Queue ``fn(*args)`` as ``key``'s (a learner id, "teacher", ...) behind its
        earlier jobs, in ``group``'s turn (an address; None: the key's own). Returns an
        asyncio Future of the loop; :class:`Busy` when too much waits already."""
        loop = self.loop
        future = loop.create_future()
        if self.mode == "inline":
            try:
                future.set_result(fn(*args))
            except Exception as err:                  # noqa: BLE001 (to the awaiting one)
                future.set_exception(err)
            return future
        if self.closed:
            raise Busy(tr("The class is closing; send it again later."))
        group = key if group is None else group
        keys = self.groups.get(group)
        q = keys.get(key) if keys is not None else None
        if (q is not None and len(q) >= PER_KEY) or self.per_group[group] >= PER_GROUP:
            raise Busy(tr("Your earlier answers are still being worked out: this one waits "
                          "and goes again in a moment."))
        if self.waiting >= TOTAL:
            raise Busy(tr("The class server is busy: this goes again in a moment."))
        self._activate(group, key)
        if keys is None:
            keys = self.groups[group] = collections.OrderedDict()
        if q is None:
            q = keys[key] = collections.deque()
        q.append(_Job(fn, args, future))
        self.waiting += 1
        self.per_group[group] += 1
        self._pump()
        return future

    async def run(self, key, fn, *args, group=None):
        """``await`` :meth:`submit`'s future (or run here, with no loop)."""
        if self.loop is None:
            return fn(*args)
        return await self.submit(key, fn, *args, group=group)

    def _next(self):
        """The next (group, key, job): the group (address) that has had the least time of
        the pool so far, and in it the key (learner) that has; a key whose job runs waits.
        Time, not turns: a learner whose answers take the solver a second each gets as
        much of the pool as one whose answers take 4 ms, not a hundred times more."""
        best = None
        for group, keys in self.groups.items():
            gs = self.served.get(group, 0.0)
            if best is not None and gs >= best[0]:
                continue
            pick = None
            for key in keys:
                if key in self.busy:
                    continue
                ks = self.served.get(("key", key), 0.0)
                if pick is None or ks < pick[0]:
                    pick = (ks, key)
            if pick is not None:
                best = (gs, group, pick[1])
        if best is None:
            return None
        _, group, key = best
        keys = self.groups[group]
        q = keys[key]
        job = q.popleft()
        self.waiting -= 1
        self.per_group[group] -= 1
        if not q:
            del keys[key]
        if not keys:
            del self.groups[group]
            del self.per_group[group]
        return group, key, job

    def _activate(self, group, key) -> None:
        """A group or key with work again starts level with the least served of those
        waiting (time it spent idle is not saved up)."""
        floor_g = min((self.served.get(g, 0.0) for g in self.groups), default=0.0)
        if group not in self.groups:
            self.served[group] = max(self.served.get(group, 0.0), floor_g)
        keys = self.groups.get(group, {})
        if key not in keys:
            floor_k = min((self.served.get(("key", k), 0.0) for k in keys), default=0.0)
            self.served[("key", key)] = max(self.served.get(("key", key), 0.0), floor_k)
        if len(self.served) > 50_000:                  # forget the long gone
            self.served = {k: v for k, v in self.served.items()
                           if k in self.groups or (isinstance(k, tuple) and k[0] == "key"
                                                   and k[1] in self.busy)}

    def _pump(self) -> None:
        if self.closed or not self.groups or not self._pool_ready():
            return
        while self.running < self.size and not self.closed:
            got = self._next()
            if got is None:
                return
            group, key, job = got
            if job.future.done():                  # cancelled while it waited
                continue
            self.running += 1
            self.busy.add(key)
            started = self.clock()
            self.waited_most = max(self.waited_most, started - job.queued)
            job.group = group
            try:
                cf = self.executor.submit(job.fn, *job.args)
            except Exception as err:              # noqa: BLE001 (a broken or closed pool)
                self._finished(key, job, started, None, err)
                continue
            cf.add_done_callback(
                lambda cf, key=key, job=job, started=started: self._from_pool(key, job,
                                                                               started, cf))

    def _from_pool(self, key, job, started, cf) -> None:
        """(in the pool's thread) hand the answer to the loop."""
        try:
            self.loop.call_soon_threadsafe(self._settle, key, job, started, cf)
        except RuntimeError:                       # the loop is closed: nobody waits
            pass

    def _settle(self, key, job, started, cf) -> None:
        if cf.cancelled():
            self._finished(key, job, started, None, asyncio.CancelledError())
            return
        err = cf.exception()
        self._finished(key, job, started, None if err is not None else cf.result(), err)

    def _finished(self, key, job, started, value, err) -> None:
        self.running -= 1
        self.busy.discard(key)
        self.done += 1
        took = self.clock() - started
        self.ran += took
        self.served[job.group] = self.served.get(job.group, 0.0) + took
        self.served[("key", key)] = self.served.get(("key", key), 0.0) + took
        from concurrent.futures.process import BrokenProcessPool
        if isinstance(err, BrokenProcessPool) and not self.closed:
            self._broken(err)
            if not job.future.done() and not job.again:
                job.again = True                    # once more, in the new pool
                self._requeue(key, job)
                self._pump()
                return
        if not job.future.done():
            if err is not None:
                job.future.set_exception(err)
            else:
                job.future.set_result(value)
        self._pump()

    def _requeue(self, key, job) -> None:
        group = job.group
        self._activate(group, key)
        keys = self.groups.setdefault(group, collections.OrderedDict())
        keys.setdefault(key, collections.deque()).appendleft(job)
        self.waiting += 1
        self.per_group[group] += 1


# ----------------------------------------------------------------------------- the heap
TIDY = 120.0            # seconds between the full garbage collections of a served class
YOUNG = 0.05            # seconds between the young collections of a served class
YOUNG_EVERY = 2         # every second one takes the middle generation too
_settled = False


def settle_heap(loop=None) -> None:
    """Once per process, when a served class is loaded: collect, then freeze what is left
    (the tables, the learners, the deals so far: the class holds them for good), so the
    garbage collector's full passes walk only what came after; and those full passes no
    longer come by themselves (every few seconds at a school's pace, each walking every
    socket's objects: 140-190 ms of the loop) but every :data:`TIDY` seconds from ``loop``.
    Frozen objects are still freed when nothing refers to them; only a reference cycle
    among them would wait.

    The young generations are collected on a clock too, every :data:`YOUNG` seconds (the
    middle one every :data:`YOUNG_EVERY`-th time), besides when CPython's counters ask: a
    counter goes down whenever any object is freed, so while the pictures of one move
    free those of the move before, the young generation grew to some 30,000 objects
    before a pass, each pass then holding the loop 20-40 ms (issue 29, Speed). On the
    clock, a pass of the young generation holds it some 0.2 ms and one of the middle some
    2.5 ms (11 ms at most in a school's run); they cost the server a few per cent of its CPU."""
    global _settled
    if _settled:
        return
    _settled = True
    import gc
    gc.collect()
    gc.freeze()
    if loop is not None:
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, 1_000_000)    # full passes only from tidy()

        def tidy():
            if loop.is_closed():
                return
            gc.collect()
            loop.call_later(TIDY, tidy)
        loop.call_later(TIDY, tidy)
        turns = [0]

        def young_pass():
            if loop.is_closed():
                return
            turns[0] += 1
            gc.collect(1 if turns[0] % YOUNG_EVERY == 0 else 0)
            loop.call_later(YOUNG, young_pass)
        loop.call_later(YOUNG, young_pass)


# ----------------------------------------------------------------------------- the jobs
# Each runs in a worker process (or thread): plain data in, plain data out, in the class's
# language. A Refusal (a sentence for the learner) travels back as its text.

def judge(kind: str, item: str, answer, ref, language: str):
    """Whether ``answer`` is right for ``item`` of ``kind`` ("exercise", "puzzle"): True or
    False, None for what is not an answer; a Refusal when there is no such item."""
    from .grading import judge_exercise, judge_puzzle
    with using(language):
        if kind == "exercise":
            return judge_exercise(item, answer)
        if kind == "puzzle":
            return judge_puzzle(item, answer, {"ref": ref})
    raise ValueError(f"no worker judges {kind!r} results")


def quiz_question(kind: str, seed: int, language: str) -> dict:
    """A quiz question of exercise ``kind`` (seeded) as data: what every learner page
    shows and what the server needs to judge its answers (see quiz.QuizQuestion)."""
    from . import quiz
    with using(language):
        return quiz.made_question(kind, seed)


def puzzle_turn(level: int, number: int, tokens: list, card: str, playing: bool,
                language: str) -> dict:
    """A learner's card in class puzzle ``level``.``number`` after the deal's ``tokens``:
    the card's value against best defence before it is played, and the defence's answers
    after it (until the learner's side is to play or the deal is over); with the verdict
    of the notebook's checker on the line when the try ends (see class_puzzles)."""
    from . import class_puzzles
    with using(language):
        return class_puzzles.turn(level, number, tokens, card, playing)


def coach_review(deal: dict, seat: int, exact: bool, language: str):
    """``cl.review`` of ``seat``'s decisions in the deal (its ``to_dict``): the Review,
    or the sentence of a ValueError."""
    from courtlearn.coach import review
    from courtlearn.deal import Deal
    with using(language):
        try:
            return review(Deal.from_dict(deal), seat, progress=False, exact=exact)
        except ValueError as err:
            return str(err)


def best_play(deal: dict, language: str):
    """The Best play solution of the position (its ``to_dict``): the Solution, or the
    sentence of the solver's refusal."""
    from courtlearn.deal import Deal
    from courtlearn.widgets.core import Seat
    with using(language):
        return Seat._solve(Deal.from_dict(deal))
