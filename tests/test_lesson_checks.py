"""A lesson's "Check yourself" asks first, and never answers for the learner (issues 26, 30).

Every Check yourself cell holds ``answer = ...``: run as it is, it prints "Not answered
yet"; the learner types their answer in its place; a hint, then the worked answer, wait
folded under the question for whoever asks (``q.hint()``, ``q.show_answer()``). Once a
notebook joined a class (``cl.classroom.join``), every check of an exercise question or a
puzzle goes to the teacher as the learner's answer; nothing else does. Here the check
cells of every lesson text, in every language, run in this process in a notebook that
joined a (fake) class: ``COURTLEARN_CLASS`` names one, and the client's ``_report``
(where every result leaves for the class) records instead of sending. Run as written,
they send nothing; asking for the hint and the answer sends nothing; the learner's own
answer (the engine's, typed in place of ``...``) prints Correct and is sent, once.
(A lesson's own questions, ``cl.exercises.ask``, are checked in the notebook only: the
kernels of tests/test_rerun_cells.py run those.)
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import jupytext
import pytest

import courtlearn as cl
from courtlearn.classroom import client
from courtlearn.language import tr, using

ROOT = Path(__file__).resolve().parents[1]
TEXTS = ROOT / "notebooks" / ".text"
SOURCES = sorted(p for sub in ("", "ur", "hi") for p in (TEXTS / sub).glob("[0-9]*.md"))
IDS = [str(p.relative_to(TEXTS)) for p in SOURCES]
MAKERS = {("exercises", "question"), ("puzzles", "puzzle")}
ASKS_FIRST = "answer = ..."


def language_of(source: Path) -> str:
    return source.parent.name if source.parent.name in ("ur", "hi") else "en"


def _is_check(node) -> bool:
    """A statement ``something.check(...)`` (the check of a question or a puzzle)."""
    return (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "check")


def _makes_item(node) -> bool:
    """A statement ``q = cl.exercises.question(...)`` or ``p = cl.puzzles.puzzle(...)``."""
    if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
        return False
    func = node.value.func
    return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Attribute)
            and (func.value.attr, func.attr) in MAKERS)


def _cells(source: Path) -> tuple[list[str], list[str]]:
    """The code cells that make a question or puzzle and those that check an answer (a
    check in a string, such as a learner's script a lesson hands to a child process, is
    not a check of this notebook's)."""
    nb = jupytext.read(source, fmt="md:myst")
    makers, checks = [], []
    for cell in nb.cells:
        if cell.cell_type != "code" or "await " in cell.source:
            continue
        body = ast.parse(cell.source).body
        if any(_is_check(node) for node in body):
            checks.append(cell.source)
        elif any(_makes_item(node) for node in body):
            makers.append(cell.source)
    return makers, checks


def _receiver(code: str) -> str:
    """The name whose ``.check`` a check cell calls (``q1`` in ``q1.check(answer)``)."""
    for node in ast.parse(code).body:
        if _is_check(node) and isinstance(node.value.func.value, ast.Name):
            return node.value.func.value.id
    raise AssertionError(f"no check in:\n{code}")


@pytest.fixture
def joined(monkeypatch):
    """A notebook that joined a class: every result it would send, in a list."""
    sent = []
    monkeypatch.setenv("COURTLEARN_CLASS", "http://127.0.0.1:9/?code=FAKE")
    monkeypatch.delenv("COURTLEARN_STRICT", raising=False)
    monkeypatch.setattr(client, "_report", lambda kind, item, answer, *a, **k:
                        sent.append((kind, item, answer)))
    return sent


def _run(makers, checks, capsys) -> tuple[dict, list[str]]:
    """Run the makers, then the checks of the items they made (a check of a lesson's own
    question, made by ``cl.exercises.ask`` from the lesson's state, is left to the
    kernels); what each check printed."""
    ns: dict = {"cl": cl}
    for code in makers:
        exec(compile(code, "<cell>", "exec"), ns)
    said = []
    for code in checks:
        if _receiver(code) not in ns:
            continue
        capsys.readouterr()
        exec(compile(code, "<cell>", "exec"), ns)
        said.append(capsys.readouterr().out)
    return ns, said


def test_the_fake_class_gets_a_plain_answer(joined, capsys):
    """The fake class is a real one for the check: a learner's plain answer reaches it."""
    q = cl.exercises.question("trick_winner", 1)
    q.check("K♥")
    q.check(cl.exercises.worked("K♥"))
    assert joined == [("exercise", "trick_winner/1", "K♥")]


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_running_a_lesson_s_checks_sends_nothing_to_the_class(source, joined, capsys):
    makers, checks = _cells(source)
    with using(language_of(source)):
        _, said = _run(makers, checks, capsys)
        not_yet = tr("Not answered yet: replace ... with your answer.")
    assert joined == [], f"{source.name} answers for the learner: {joined}"
    # each check asks: nothing is answered before the learner has written something
    assert all(s.startswith(not_yet) for s in said), said


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_each_check_cell_asks_first(source):
    """Issue 30: in 00 and 02-06 the answer was filled in, so "Correct" printed before the
    learner had thought. Every check cell's answer line is ``answer = ...``."""
    _, checks = _cells(source)
    for code in checks:
        lines = [line for line in code.splitlines() if line.startswith("answer = ")]
        assert lines == [ASKS_FIRST], f"{source.name}: a check cell that answers for the " \
                                      f"learner:\n{code}"


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_the_learner_s_own_answer_counts_and_help_sends_nothing(source, joined, capsys):
    """Asking for the hint and the answer sends nothing; the learner's own line (the
    engine's answer typed in place of ``...``) prints Correct and goes to the class once."""
    makers, checks = _cells(source)
    with using(language_of(source)):
        ns, _ = _run(makers, [], capsys)
        correct = tr("Correct: {why}", why="").strip()
        asked = [c for c in checks if _receiver(c) in ns]
        for code in asked:
            item = ns[_receiver(code)]
            if hasattr(item, "hint"):
                item.hint()
                item.show_answer()
        assert joined == [], f"asking for help sent {joined}"
        for code in asked:
            item = ns[_receiver(code)]
            mine = repr(item.solution) if isinstance(item.solution, str) else repr(list(item.answer))
            typed = code.replace(ASKS_FIRST, f"answer = {mine}", 1)
            capsys.readouterr()
            exec(compile(typed, "<cell>", "exec"), ns)
            assert capsys.readouterr().out.startswith(correct), typed
    assert len(joined) == len(asked)
    assert {kind for kind, _, _ in joined} <= {"exercise", "puzzle"}
