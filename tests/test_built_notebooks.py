"""What the lessons say about themselves is true (issue 24): lesson 00's overview names every
lesson, in each language; the README says truly what is translated; and every built
notebook stores the model of each widget it shows (else JupyterLab logs "widget model not
found" when it is opened again).
"""
from __future__ import annotations

import copy
import importlib.util
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
TEXT = ROOT / "notebooks" / ".text"
LANGS = ("ur", "hi")


def lessons() -> list[str]:
    return sorted(p.stem for p in TEXT.glob("[0-9][0-9]_*.md"))


def overview(source: Path) -> str:
    """The part of lesson 00 that lays out the course's paths: from its link to itself
    (the first lesson of the rules path) to the next section heading."""
    text = source.read_text(encoding="utf-8")
    start = text.find("(00_start_here.ipynb)")
    assert start > 0, f"{source}: no path through the lessons (a link to 00_start_here)"
    end = text.find("\n## ", start)
    return text[start:end if end > 0 else None]


@pytest.mark.parametrize("sub", ["", *LANGS], ids=["en", *LANGS])
def test_lesson_00_names_every_lesson(sub):
    """Lesson 00 shows the whole path: a link to every lesson (issue 30), in its order."""
    text = overview(TEXT / sub / "00_start_here.md")
    missing = [stem for stem in lessons() if f"({stem}.ipynb)" not in text]
    assert not missing, f"lesson 00 ({sub or 'en'}) does not link to {missing}"


def test_every_lesson_and_exercise_is_translated_as_the_readme_says():
    for folder in ("notebooks", "exercises"):
        english = sorted(p.name for p in (ROOT / folder / ".text").glob("*.md"))
        for lang in LANGS:
            assert sorted(p.name for p in (ROOT / folder / ".text" / lang).glob("*.md")) \
                == english, f"{folder}/.text/{lang} is not every {folder[:-1]}"
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "Lesson 00 is in" not in readme
    assert "Every lesson and exercise is in Urdu and in Hindi" in readme


# ---------------------------------------------------------------- widgets stored whole
def _builder():
    spec = importlib.util.spec_from_file_location("build_notebooks",
                                                  ROOT / "scripts" / "build_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BUILT = sorted(p for folder in ("notebooks", "exercises") for sub in ("", *LANGS)
               for p in (ROOT / folder / sub).glob("*.ipynb"))


@pytest.mark.parametrize("path", BUILT, ids=[str(p.relative_to(ROOT)) for p in BUILT])
def test_every_widget_a_notebook_shows_is_stored(path):
    nb = nbformat.read(path, as_version=4)
    assert _builder().missing_widgets(nb) == []


def test_a_widget_shown_but_not_stored_is_found():
    missing_widgets = _builder().missing_widgets
    nb = nbformat.read(ROOT / "notebooks" / "10_play_a_session.ipynb", as_version=4)
    state = nb.metadata["widgets"][_builder().WIDGET_STATE]["state"]
    views = [o["data"][_builder().WIDGET_VIEW]["model_id"] for c in nb.cells
             for o in c.get("outputs", []) if _builder().WIDGET_VIEW in o.get("data", {})]
    assert len(views) == 2 and missing_widgets(nb) == []
    shown = copy.deepcopy(nb)                        # the table's model gone
    del shown.metadata["widgets"][_builder().WIDGET_STATE]["state"][views[0]]
    assert [m for m in missing_widgets(shown) if "whose model is not stored" in m] != []
    inner = copy.deepcopy(nb)                        # a model the app's box refers to gone
    box = state[views[1]]["state"]
    child = re.search(r"IPY_MODEL_([0-9a-f]{32})", str(box["children"])).group(1)
    del inner.metadata["widgets"][_builder().WIDGET_STATE]["state"][child]
    assert any(f"refers to widget {child}" in m for m in missing_widgets(inner))


HEADING = re.compile(r"<h[1-6][\s>]", re.I)


@pytest.mark.parametrize("path", BUILT, ids=[str(p.relative_to(ROOT)) for p in BUILT])
def test_no_output_holds_a_heading(path):
    """A heading in an output (a question's <h4>) goes into JupyterLab's table of contents,
    which throws on a reopened notebook whose outputs are not drawn yet ("Cannot read
    properties of undefined (reading 'node')", an uncaught error in the browser): titles in
    outputs are bold text (render.title_html); a lesson's contents are its own headings."""
    nb = nbformat.read(path, as_version=4)
    found = [i for i, cell in enumerate(nb.cells) for out in cell.get("outputs", [])
             if HEADING.search(str(out.get("data", {}).get("text/html", "")))]
    assert found == [], f"cells {found} of {path.name} show a heading in an output"


def test_the_outputs_titles_are_no_headings():
    import courtlearn as cl
    shown = [cl.exercises.question(kind, 1)._repr_html_()
             for kind in cl.exercises.KINDS + cl.exercises.PLAY_KINDS]
    shown.append(cl.puzzles.puzzle(1, 1)._repr_html_())
    assert all("courtlearn-title" in s and not HEADING.search(s) for s in shown)
