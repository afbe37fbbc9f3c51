#!/usr/bin/env python3
"""Generate the exercise notebooks in exercises/ and execute them in place.

usage: .venv/bin/python scripts/build_exercises.py [--no-execute] [KIND ...]

One notebook per kind of ``courtlearn.exercises``: the rule in a sentence,
the fixed questions each with a worked solution, then a fresh question from a
seed.  The worked answers are the engine's (``q.solution``), so a notebook
never disagrees with the package.  Solution cells carry the tag "solution"
(``scripts/make_student.py`` blanks them).  Executed with nbconvert so the
stored outputs exist for nbval; rerun this after changing the engine, the
exercises or ``courtlearn.render``.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "exercises"
sys.path.insert(0, str(ROOT))

import courtlearn as cl  # noqa: E402

PIPLITE = """try:
    import piplite
    await piplite.install("courtlearn")
except ImportError:
    pass"""

GAME = {
    "trick_winner": "Court Piece",
    "legal_cards": "Court Piece",
    "spot_the_revoke": "Court Piece (played with revokes allowed, as when teaching)",
    "pile_capture": "Double Sir",
    "court_or_not": "Court Piece",
    "next_dealer": "Court Piece",
    "tens_winner": "Dehla Pakad (all thirteen tricks played)",
    "what_to_play": "Court Piece, Double Sir and Dehla Pakad (the game is named above each table)",
}

# kinds whose notebook is not named after the kind
FILE_NAMES = {"what_to_play": "what_would_you_play"}

NUMPY_NOTE = ("**This notebook needs numpy.** Each answer is checked with `cl.hint` (lesson 10), "
              "which plays the rest of the deal out many times, and those play-outs use numpy: "
              "it comes with courtlearn's `[lab]` extra (or `pip install numpy`). In the "
              "browser-only site the `import numpy` cell below loads it from the Pyodide CDN, "
              "so there this notebook needs an internet connection.\n\n")

FRESH_SEED = 7

ATTRIBUTION = ("*The rules are put in our own words from public descriptions of Court Piece, "
               "Double Sir and Dehla Pakad; the lessons in `notebooks/` name the sources.*")


def literal(kind: str, solution: str) -> str:
    if kind == "legal_cards":
        return "[" + ", ".join(json.dumps(c, ensure_ascii=False) for c in solution.split()) + "]"
    return json.dumps(solution, ensure_ascii=False)


def solution_cell(var: str, kind: str, q) -> "nbformat.NotebookNode":
    cell = new_code_cell(f"answer = {literal(kind, q.solution)}\n{var}.check(answer)")
    cell.metadata["tags"] = ["solution"]
    return cell


def notebook(kind: str, number: int) -> "nbformat.NotebookNode":
    ex = cl.exercises
    title = ex.TITLES[kind]
    cells = [
        new_markdown_cell(
            f"# Exercise {number:02d}: {title}\n\n"
            f"Game: {GAME[kind]}.\n\n"
            f"**The {'idea' if kind in ex.PLAY_KINDS else 'rule'}.** {ex.RULES[kind]}\n\n"
            f"{ATTRIBUTION}\n\n"
            + (NUMPY_NOTE if kind in ex.PLAY_KINDS else "") +
            "Each question shows a table and asks one thing. Put your answer in the "
            "`answer = ...` cell under it and run the cell: the check says *Correct* (with "
            "the reason), or *Not yet* with a hint about the rule. Answers can be written "
            "the natural way: a card as `\"K♥\"` or `\"KH\"`, a player as `\"North\"`, a team "
            "as `\"North–South\"` or `\"NS\"`.\n\n"
            "The teacher's copy (in `exercises/`) has the answers filled in as worked "
            "solutions; the student copy (made by `make student`) has `answer = ...` in their "
            "place."),
        new_code_cell(PIPLITE),
        new_code_cell("import courtlearn as cl"),
    ]
    if kind in ex.PLAY_KINDS:
        cells.append(new_code_cell("import numpy  # the hints' play-outs; in the browser site "
                                   "this loads it from the Pyodide CDN"))
    for n in range(1, ex.count(kind) + 1):
        q = ex.question(kind, n)
        cells += [
            new_markdown_cell(f"## Question {n}"),
            new_code_cell(f'q{n} = cl.exercises.question("{kind}", {n})\nq{n}'),
            solution_cell(f"q{n}", kind, q),
        ]
    q = ex.question(kind, seed=FRESH_SEED)
    cells += [
        new_markdown_cell(
            "## Fresh questions\n\n"
            "Every seed gives a new deal and a new question of the same kind, checked the "
            f"same way. Change `seed={FRESH_SEED}` to any whole number for another one."),
        new_code_cell(f'q = cl.exercises.question("{kind}", seed={FRESH_SEED})\nq'),
        solution_cell("q", kind, q),
    ]
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def main(argv: list[str]) -> int:
    execute = "--no-execute" not in argv
    every = list(cl.exercises.KINDS) + list(cl.exercises.PLAY_KINDS)
    kinds = [a for a in argv[1:] if not a.startswith("--")] or every
    OUT.mkdir(exist_ok=True)
    jupyter = Path(sys.executable).parent / "jupyter"
    for kind in kinds:
        number = every.index(kind) + 1
        path = OUT / f"{number:02d}_{FILE_NAMES.get(kind, kind)}.ipynb"
        nb = notebook(kind, number)
        for i, cell in enumerate(nb.cells):   # stable ids, so a rebuild diffs cleanly
            cell["id"] = f"{kind.replace('_', '-')}-{i:02d}"
        nbformat.write(nb, path)
        if execute:
            subprocess.run([str(jupyter), "nbconvert", "--to", "notebook", "--execute",
                            "--inplace", "--ExecutePreprocessor.record_timing=False",
                            "--ExecutePreprocessor.timeout=120", str(path)],
                           check=True, cwd=OUT)
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
