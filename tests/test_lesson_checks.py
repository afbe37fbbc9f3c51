"""A lesson's "Check yourself" cells never answer for the learner in a class (issue 26).

Once a notebook joined a class (``cl.classroom.join``), every ``q.check(answer)`` goes to
the teacher as the learner's answer, unless the answer is a worked one
(``cl.exercises.worked(...)``, ``cl.puzzles.worked(...)``) or not given (``...``). The
lessons' answer cells hold the lesson's own answers, so a learner who runs a lesson top to
bottom must send nothing. Here the check cells of every lesson text, in every language,
run in this process in a notebook that joined a (fake) class: ``COURTLEARN_CLASS`` names
one, and the client's ``_report`` (where every result leaves for the class) records
instead of sending. Then the learner's own line, the one the cell's comment suggests,
typed in place of the worked answer: that one counts.
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
YOURS = re.compile(r"#.*?\b(answer = .+?)\s*$", re.MULTILINE)


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
    ns: dict = {"cl": cl}
    for code in makers:
        exec(compile(code, "<cell>", "exec"), ns)
    said = []
    for code in checks:
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
        verdicts = (tr("Correct: {why}", why="").strip(),
                    tr("Not answered yet: replace ... with your answer."))
    assert joined == [], f"{source.name} answers for the learner: {joined}"
    # each check still says its verdict: the lesson's answer right, or not answered yet
    assert all(s.startswith(verdicts) for s in said), said


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_each_check_cell_shows_where_the_learner_s_own_answer_goes(source, joined, capsys):
    """A check cell holds either ``answer = ...`` (the learner writes theirs in its place)
    or a worked answer whose note shows the learner's own line: typed in the worked
    answer's place, that line is a real answer and goes to the class."""
    makers, checks = _cells(source)
    typed = []
    for code in checks:
        lines = code.splitlines()
        at = [i for i, line in enumerate(lines) if line.startswith("answer = ")]
        assert len(at) == 1, f"one answer line expected in:\n{code}"
        if lines[at[0]] == "answer = ...":
            continue
        assert "worked(" in lines[at[0]], f"not a worked answer:\n{code}"
        yours = YOURS.search(lines[at[0]])
        assert yours, f"no line for the learner's own answer in:\n{code}"
        lines[at[0]] = yours.group(1)
        typed.append("\n".join(lines))
    with using(language_of(source)):
        _run(makers, typed, capsys)
    assert len(joined) == len(typed)
    assert {kind for kind, _, _ in joined} <= {"exercise", "puzzle"}
