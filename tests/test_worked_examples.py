"""Worked examples never count as the learner's solves (issue 24).

The puzzles exercise (``exercises/.text/10_puzzles.md`` and its Urdu and Hindi texts) is
run top to bottom here, its code cells in this process, against a scratch progress file:
the teacher's copy, whose worked answers are filled in, leaves the learner's progress as it
was; the student copy (``scripts/make_student.py``) with the learner's own lines typed in
the same cells counts every one of them.
"""
from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import jupytext
import pytest

import courtlearn as cl
from courtlearn.language import get_language, set_language, tr, using
from courtlearn.puzzles import progress_file

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [ROOT / "exercises" / ".text" / sub / "10_puzzles.md" for sub in ("", "ur", "hi")]
IDS = ["en", "ur", "hi"]


def language_of(source: Path) -> str:
    return source.parent.name if source.parent.name in ("ur", "hi") else "en"


def _student():
    spec = importlib.util.spec_from_file_location("make_student",
                                                  ROOT / "scripts" / "make_student.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    monkeypatch.setenv("COURTLEARN_PROGRESS", str(tmp_path / "progress.json"))
    lang = get_language()
    yield tmp_path / "progress.json"
    set_language(lang)


def _cells(source: Path) -> list:
    """The code cells of a text source, as (source, is a worked answer)."""
    nb = jupytext.read(source, fmt="md:myst")
    return [(c.source, "solution" in c.metadata.get("tags", []))
            for c in nb.cells if c.cell_type == "code"]


def _run(cells, capsys) -> list[str]:
    """Runs the cells top to bottom in one namespace (the browser-only install cell, which
    awaits, is skipped); returns what each worked-answer cell printed."""
    ns: dict = {}
    said = []
    for source, solution in cells:
        if "await " in source:
            continue
        capsys.readouterr()
        exec(compile(source, "<cell>", "exec"), ns)
        if solution:
            said.append(capsys.readouterr().out)
    return said


def _own_line(worked_cell: str) -> str:
    """The learner's own answer, typed as a plain list: the cards of the worked line."""
    tree = ast.parse(worked_cell)
    value = next(node.value for node in tree.body if isinstance(node, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == "answer" for t in node.targets))
    cards = [str(c) for c in eval(compile(ast.Expression(value), "<answer>", "eval"),
                                  {"cl": cl})]
    return f"answer = {cards!r}"


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_the_teachers_copy_run_top_to_bottom_counts_no_solve(source, scratch, capsys):
    cells = _cells(source)
    worked = [src for src, solution in cells if solution]
    assert len(worked) == 5
    said = _run(cells, capsys)
    # every worked answer is right, and says so in the text's language
    with using(language_of(source)):
        correct = tr("Correct: {why}", why="").strip()
    assert len(said) == 5 and all(s.startswith(correct) for s in said)
    # and none of them counts: the learner solved nothing, tried nothing
    assert progress_file.load() == {}
    assert cl.puzzles.progress().solved == 0


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_the_learners_own_answers_in_the_student_copy_count(source, scratch, capsys):
    blank = _student().blank_answers
    cells = _cells(source)
    student = [(blank(src) if solution else src, solution) for src, solution in cells]
    # unanswered, the student copy runs and records nothing
    said = _run(student, capsys)
    assert len(said) == 5 and progress_file.load() == {}
    # the learner types each line into the answer cell: each is a solve of its own
    typed = [(blank(src).replace("answer = ...", _own_line(src)) if solution else src, solution)
             for src, solution in cells]
    assert all("answer = ..." not in src for src, _ in typed)
    _run(typed, capsys)
    records = progress_file.load()
    assert len(records) == 5 and all(r == {"tries": 1, "solved": True} for r in records.values())
    assert cl.puzzles.progress().solved == 5
