"""A learner runs cells in any order, any number of times (issue 30, "Done when").

Every lesson (notebooks/.text, in English, Urdu and Hindi) runs in a real kernel (nbclient,
one kernel per notebook), top to bottom as the build runs it, up to its last Try it or
Check yourself cell. Then each code cell of a *Try it* (or *Your turn*) section and of a
*Check yourself* section runs again, twice, and once more after a different click at
every live table in the notebook: the page's own message, ``{"type": "play", "card":
...}`` through the table's ``_on_msg``, a lawful card other than the one the lesson plays
(the last one the table offers). Each run must print exactly what the first run printed,
and never an error.

The sections are found by their English headings ("## Try it", "## Your turn", "## Check
yourself"). The Urdu and Hindi texts hold the same code cells in the same places, and
their Try it and Check yourself cells are the English ones but for the words in their
strings and comments (compared here as Python syntax trees with every string blanked):
they run the same code. To keep the suite lean, the kernels run every English lesson and
one lesson in each translation (05 in Urdu, 07 in Hindi).
"""
from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("build_notebooks", ROOT / "scripts" / "build_notebooks.py")
build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build)

TEXTS = ROOT / "notebooks" / ".text"
SECTIONS = re.compile(r"^## (Try it|Your turn|Check yourself)", re.MULTILINE)
HEADING = re.compile(r"^## ", re.MULTILINE)
IN_KERNELS = {"ur": {"05_winning_a_deal"}, "hi": {"07_double_sir_centre_pile"}}

CLICK = """
import courtlearn as _cl
_clicked = []
for _name, _value in list(globals().items()):
    if isinstance(_value, _cl.widgets.CardTable) and _value.deal.phase == "play":
        _legal = _value.deal.legal_cards()
        if _legal and _value.deal.to_play == _value.seat:
            _value._on_msg(_value, {"type": "play", "card": _legal[-1].code, "id": 9001})
            _clicked.append(_name)
print("clicked:", *_clicked)
"""


def english(source: Path) -> Path:
    return TEXTS / source.name


def rerun_cells(source: Path) -> list[int]:
    """Indexes (among all cells) of the code cells under a Try it, Your turn or Check
    yourself heading, read from the English text."""
    nb, _ = build.read_source(english(source))
    out, inside = [], False
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if HEADING.match(line):
                    inside = bool(SECTIONS.match(line))
        elif inside and "piplite" not in cell.source:
            out.append(i)
    return out


def _lessons(subs=("", "ur", "hi")):
    found = []
    for sub in subs:
        for src in sorted((TEXTS / sub).glob("[0-9]*.md")):
            if not english(src).exists():
                continue
            if SECTIONS.search(english(src).read_text(encoding="utf-8")):
                found.append(src)
    return found


TRANSLATIONS = _lessons(("ur", "hi"))
LESSONS = _lessons(("",)) + [p for p in TRANSLATIONS if p.stem in IN_KERNELS[p.parent.name]]


class _Blank(ast.NodeTransformer):
    """A cell's code with the words taken out: every string (f-strings too) empty."""

    def visit_Constant(self, node):
        return ast.Constant("") if isinstance(node.value, str) else node

    def visit_JoinedStr(self, node):
        return ast.Constant("")


def code_shape(source: str) -> str:
    return ast.dump(_Blank().visit(ast.parse(source)))


def said(cell) -> list:
    """What a cell showed: its printed text, the plain text of what it displayed, and any
    error (widget views are compared by their plain text, which names the table)."""
    out = []
    for o in cell.get("outputs", []):
        kind = o.get("output_type")
        if kind == "stream":
            out.append(("stream", o["text"]))
        elif kind == "error":
            out.append(("error", o["ename"], o["evalue"]))
        else:
            out.append(("data", o.get("data", {}).get("text/plain", "")))
    # consecutive stream chunks are one text, however the kernel cut them
    merged = []
    for item in out:
        if merged and item[0] == "stream" and merged[-1][0] == "stream":
            merged[-1] = ("stream", merged[-1][1] + item[1])
        else:
            merged.append(item)
    return merged


def errors(outputs) -> list:
    return [o for o in outputs if o[0] == "error"]


@pytest.fixture
def scratch_progress(tmp_path, monkeypatch):
    """The kernels write puzzle tries to a scratch progress file (they inherit this)."""
    monkeypatch.setenv("COURTLEARN_PROGRESS", str(tmp_path / "progress.json"))
    monkeypatch.delenv("COURTLEARN_CLASS", raising=False)


def test_the_sections_are_found():
    """The headings are there to find: every rules lesson has a Try it and a Check
    yourself, in every language."""
    for sub in ("", "ur", "hi"):
        names = {p.stem for p in LESSONS + TRANSLATIONS if p.parent.name == (sub or ".text")}
        for n in ("00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "13",
                  "20", "21", "22"):
            assert any(name.startswith(n + "_") for name in names), (sub, n)


@pytest.mark.parametrize("source", TRANSLATIONS, ids=lambda p: str(p.relative_to(TEXTS)))
def test_a_translation_reruns_the_same_cells(source):
    """The Urdu and Hindi lessons have their code cells where the English one has them,
    and their Try it and Check yourself cells run the English code (only the words in
    strings and comments differ)."""
    a, _ = build.read_source(english(source))
    b, _ = build.read_source(source)
    assert [i for i, c in enumerate(a.cells) if c.cell_type == "code"] == \
           [i for i, c in enumerate(b.cells) if c.cell_type == "code"]
    for i in rerun_cells(source):
        assert code_shape(a.cells[i].source) == code_shape(b.cells[i].source), \
            f"cell {i} is not the English code:\n{b.cells[i].source}\n--- English:\n{a.cells[i].source}"


@pytest.mark.parametrize("source", LESSONS, ids=lambda p: str(p.relative_to(TEXTS)))
def test_every_try_it_and_check_cell_can_be_run_again(source, scratch_progress):
    nb, _ = build.read_source(source)
    todo = rerun_cells(source)
    assert todo, "no Try it or Check yourself cell"
    last = max(todo)
    client = NotebookClient(nb, timeout=600, kernel_name="python3", record_timing=False,
                            allow_errors=True,
                            resources={"metadata": {"path": str(build.notebook_for(source).parent)}})
    problems = []
    with client.setup_kernel():
        first = {}
        for i, cell in enumerate(nb.cells[:last + 1]):
            if cell.cell_type != "code":
                continue
            client.execute_cell(cell, i)
            if i in todo:
                first[i] = said(cell)
                assert not errors(first[i]), f"cell {i} failed the first time:\n{cell.source}"
        for i in todo:
            cell = nb.cells[i]
            for attempt in ("again", "a third time", "after a click"):
                if attempt == "after a click":
                    probe = nbformat.v4.new_code_cell(CLICK)
                    nb.cells.append(probe)
                    client.execute_cell(probe, len(nb.cells) - 1)
                    nb.cells.pop()
                    assert not errors(said(probe)), said(probe)
                cell.outputs = []
                client.execute_cell(cell, i)
                now = said(cell)
                if now != first[i]:
                    problems.append(f"cell {i} run {attempt} said\n{now}\ninstead of\n{first[i]}"
                                    f"\n--- the cell:\n{cell.source}")
                    break
    assert not problems, "\n\n".join(problems[:3])
