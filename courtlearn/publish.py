"""Results flow one way: a check publishes its result, whoever listens hears it.

An exercise's ``Question.check`` and every puzzle try (``Puzzle.check``, the puzzle
table) publish a :class:`Checked`: the item (``trick_winner/1``, ``puzzle/1.2``), the
answer as it travels (JSON: a card becomes its code), whether it was right, how long the
learner had the question. They know nothing of who listens: the exercises and the
puzzles import nothing from ``courtlearn.classroom``.

Listeners subscribe with :func:`subscribe`. The modules named in :data:`LISTENERS` are
imported at the first result a process publishes and subscribe themselves when imported:
today the classroom's client (a notebook that joined a class sends its checks there, and
keeps them in the progress file while the class cannot be reached). A listener that fails
never fails the check.

>>> heard = []
>>> subscribe(heard.append)
>>> publish(Checked("exercise", "trick_winner/1", "KH", True, 3.5))
>>> heard[-1].item, heard[-1].correct
('trick_winner/1', True)
>>> unsubscribe(heard.append)
"""
from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Checked", "publish", "subscribe", "unsubscribe", "exercise_item", "puzzle_item",
           "encode_answer", "LISTENERS"]

log = logging.getLogger("courtlearn")

#: modules that subscribe when imported (loaded at the first result published)
LISTENERS = ("courtlearn.classroom.client",)
MAX_TEXT = 500             # characters of an answer written as text
MAX_LIST = 60              # parts of an answer given as a list (a line is at most 52 cards)
MAX_PART = 40              # characters of each part of a list

_listeners: list = []
_loaded = False


@dataclass(frozen=True)
class Checked:
    """One check's result. ``kind``: "exercise" or "puzzle"; ``item``: which question or
    puzzle (:func:`exercise_item`, :func:`puzzle_item`); ``answer``: as it travels
    (:func:`encode_answer`); ``correct``: the checker's verdict; ``seconds``: how long the
    learner had the question (None: not known here); ``ref``: a puzzle's position digest;
    ``source``: the Question or Puzzle checked (in this process only)."""

    kind: str
    item: str
    answer: Any
    correct: bool
    seconds: float | None = None
    ref: str | None = None
    source: Any = field(default=None, repr=False, compare=False)


def subscribe(fn) -> None:
    """``fn(checked)`` is called for every result published from now on."""
    if fn not in _listeners:
        _listeners.append(fn)


def unsubscribe(fn) -> None:
    if fn in _listeners:
        _listeners.remove(fn)


def _load() -> None:
    global _loaded
    _loaded = True
    for name in LISTENERS:
        try:
            importlib.import_module(name)
        except Exception:                       # noqa: BLE001 (a listener never fails a check)
            log.debug("the listener %s could not be loaded", name, exc_info=True)


def publish(checked: Checked) -> None:
    """Tell every listener (never raises: the check itself stands)."""
    if not _loaded:
        _load()
    for fn in list(_listeners):
        try:
            fn(checked)
        except Exception:                       # noqa: BLE001
            log.debug("a listener failed", exc_info=True)


# ----------------------------------------------------------------------------- items
def exercise_item(question) -> str:
    """The item of an exercise question: ``kind/number`` or ``kind/seed=N``."""
    if question.number is not None:
        return f"{question.kind}/{question.number}"
    return f"{question.kind}/seed={question.seed}"


def puzzle_item(puzzle) -> str:
    """``puzzle/level.number``."""
    return f"puzzle/{puzzle.key}"


def encode_answer(answer):
    """An answer as it travels (JSON): a text, a whole number, a truth value or null, or a
    list of texts and numbers; a card becomes its code (``KH``), anything else its text.
    What the learner's checker read is what the server reads again.

    >>> import courtlearn as cl
    >>> encode_answer(cl.Card.parse("KH")), encode_answer(("KH", 2)), encode_answer(None)
    ('KH', ['KH', 2], None)
    """
    import numbers
    if answer is None or isinstance(answer, (bool, str)):
        return answer[:MAX_TEXT] if isinstance(answer, str) else answer
    if isinstance(answer, numbers.Integral):
        return int(answer)
    code = getattr(answer, "code", None)
    if isinstance(code, str):                      # a Card
        return code
    if isinstance(answer, (set, frozenset)):      # no order of its own: a fixed one
        return sorted((_part(a) for a in answer), key=str)[:MAX_LIST]
    from courtlearn.exercises._base import _is_sequence
    if _is_sequence(answer):
        return [_part(a) for a in list(answer)[:MAX_LIST]]
    return str(answer)[:MAX_TEXT]


def _part(value):
    import numbers
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    code = getattr(value, "code", None)
    return code if isinstance(code, str) else str(value)[:MAX_PART]
