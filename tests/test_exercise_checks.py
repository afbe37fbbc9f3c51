"""The teacher's worked answers never reach a class; a learner's own answers do (issue 26).

Once a notebook joined a class (``cl.classroom.join``), every ``q.check(answer)`` goes to
the teacher as the learner's answer, unless the answer is a worked one
(``cl.exercises.worked(...)``, ``cl.puzzles.worked(...)``) or not given (``...``). The
exercise notebooks in ``exercises/`` (and ``exercises/ur/``, ``exercises/hi/``) are the
teacher's copies, with the answers filled in (Binder opens them); ``make student``
(``scripts/make_student.py``) writes the learner's copies with ``answer = ...`` in their
place. Here each notebook's code cells run in this process, in order, in a notebook that
joined a (fake) class: ``COURTLEARN_CLASS`` names one, and the client's ``_report``
(where every result leaves for the class) records instead of sending.

- the teacher's copy, run top to bottom, sends nothing and still prints "Correct" for
  every worked answer;
- the student copy sends nothing while unanswered, and with the learner's answers typed
  in (the worked answers, written plainly) sends one result per answer cell.
"""
from __future__ import annotations

import ast
import importlib.util
import json
from pathlib import Path

import pytest

import courtlearn as cl
from courtlearn.classroom import client
from courtlearn.language import get_language, set_language, tr, using

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "exercises"
NOTEBOOKS = sorted(p for sub in ("", "ur", "hi") for p in (FOLDER / sub).glob("[0-9]*.ipynb"))
IDS = [str(p.relative_to(FOLDER)) for p in NOTEBOOKS]
PLACEHOLDER = "answer = ..."


def language_of(path: Path) -> str:
    return path.parent.name if path.parent.name in ("ur", "hi") else "en"


def _student():
    spec = importlib.util.spec_from_file_location("make_student",
                                                  ROOT / "scripts" / "make_student.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _source(cell) -> str:
    src = cell["source"]
    return src if isinstance(src, str) else "".join(src)


def _cells(nb: dict) -> list[tuple[str, bool]]:
    """The code cells a kernel in this process can run (not the piplite one, which awaits),
    as (source, is an answer cell)."""
    return [(_source(c), "solution" in c.get("metadata", {}).get("tags", []))
            for c in nb["cells"]
            if c["cell_type"] == "code" and "await " not in _source(c)]


def _plain_answer(cell: str) -> str:
    """The learner's own line for an answer cell: its answer written plainly (what a
    learner who found the right answer types in place of ``answer = ...``)."""
    for node in ast.parse(cell).body:
        if (isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "answer" for t in node.targets)):
            value = node.value
            if (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                    and value.func.attr == "worked"):
                value = value.args[0]
            return f"answer = {ast.get_source_segment(cell, value)}"
    raise AssertionError(f"no answer line in:\n{cell}")


@pytest.fixture
def joined(monkeypatch, tmp_path):
    """A notebook that joined a class: every result it would send, in a list (puzzle
    progress in a scratch file; the language as it was afterwards)."""
    sent = []
    monkeypatch.setenv("COURTLEARN_CLASS", "http://127.0.0.1:9/?code=FAKE")
    monkeypatch.setenv("COURTLEARN_PROGRESS", str(tmp_path / "progress.json"))
    monkeypatch.delenv("COURTLEARN_STRICT", raising=False)
    monkeypatch.setattr(client, "_report", lambda kind, item, answer, *a, **k:
                        sent.append((kind, item, answer)))
    lang = get_language()
    yield sent
    set_language(lang)


def _run(cells, capsys) -> list[str]:
    """Run the cells in one namespace; what each answer cell printed."""
    ns: dict = {}
    said = []
    for code, is_answer in cells:
        capsys.readouterr()
        exec(compile(code, "<cell>", "exec"), ns)
        if is_answer:
            said.append(capsys.readouterr().out)
    return said


def test_the_fake_class_gets_a_plain_answer(joined, capsys):
    """The fake class is a real one for the check: a plain answer reaches it."""
    q = cl.exercises.question("spot_the_revoke", 1)
    q.check("East")
    q.check(cl.exercises.worked("East"))
    q.check(...)
    assert joined == [("exercise", "spot_the_revoke/1", "East")]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_the_teacher_s_copy_sends_nothing_to_the_class(path, joined, capsys):
    cells = _cells(json.loads(path.read_text(encoding="utf-8")))
    said = _run(cells, capsys)
    with using(language_of(path)):
        correct = tr("Correct: {why}", why="").strip()
    assert len(said) >= 4
    assert all(s.startswith(correct) for s in said), said
    assert joined == [], f"{path.name} sends its worked answers as the learner's: {joined}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_the_student_copy_sends_the_learner_s_answers(path, joined, capsys):
    teacher = _cells(json.loads(path.read_text(encoding="utf-8")))
    student = _cells(_student().student_copy(json.loads(path.read_text(encoding="utf-8"))))
    assert [s for s, answer in student if answer] and \
        all(PLACEHOLDER in s.splitlines() for s, answer in student if answer)
    # unanswered, the student copy runs and sends nothing
    said = _run(student, capsys)
    with using(language_of(path)):
        # "Not answered yet: ..." (what follows says what to write: an answer, a line)
        not_yet = tr("Not answered yet: replace ... with your answer.").partition(":")[0]
    assert all(s.startswith(not_yet) for s in said), said
    assert joined == []
    # the learner's own answers typed in: each one goes to the class, once
    typed = [(s.replace(PLACEHOLDER, _plain_answer(t), 1) if answer else s, answer)
             for (s, answer), (t, _) in zip(student, teacher)]
    _run(typed, capsys)
    answers = sum(answer for _, answer in typed)
    assert len(joined) == answers, joined
    assert {kind for kind, _, _ in joined} == {"puzzle" if "puzzles" in path.name else "exercise"}
    assert len({item for _, item, _ in joined}) == answers, joined
