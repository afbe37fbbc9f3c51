#!/usr/bin/env python3
"""Build the lessons and exercises from their text sources: the one way notebooks are made.

    .venv/bin/python scripts/build_notebooks.py                  # every lesson and exercise
    .venv/bin/python scripts/build_notebooks.py 07 exercises/03  # only these (by number/name)
    .venv/bin/python scripts/build_notebooks.py --check          # sources and notebooks agree?

Each lesson or exercise is one MyST Markdown text (jupytext's format) beside its folder,
in a hidden ``.text`` folder so that learners opening the folder see only notebooks:
``notebooks/.text/07_double_sir_centre_pile.md`` makes
``notebooks/07_double_sir_centre_pile.ipynb``. People edit the text; this script runs it
top to bottom in a fresh kernel (nbclient), checks what its prose says about the outputs,
and writes the executed notebook that learners open and nbval compares.

Prose checks: the source's front matter may list, under ``courtlearn: outputs_show:``,
sentences the outputs must contain (what the text claims the engine printed), and every
cell tagged ``solution`` (an exercise's worked answer) must print "Correct". Under
``courtlearn: figures:`` it names the numbers its prose quotes from a big measurement
(:mod:`courtlearn.rules_figures` for the rules lessons, "rules.*";
:mod:`courtlearn.course_figures` for the strategy lessons): each is recomputed here on a
smaller sample and must agree with the quoted value within the figure's stated tolerance,
and the quoted value must be in the text. A cell that fails, a sentence missing from the
outputs, a wrong worked answer or a figure that no longer holds stops the build with the
reason.

Languages: the Urdu and Hindi lessons are texts of their own in ``.text/ur/`` and
``.text/hi/`` (``notebooks/.text/ur/00_start_here.md`` makes
``notebooks/ur/00_start_here.ipynb``), each calling ``cl.set_language`` in its first cells. Their prose is marked with its
language: every markdown cell sits in a ``<div lang="hi">`` block, or for Urdu, set right
to left, ``<div dir="rtl" lang="ur">`` (added here, so the texts stay plain Markdown);
code cells stay left to right.

Stable output: a cell's id is derived from its text (the same cell keeps its id through
rebuilds, so a rebuilt notebook's diff shows only what changed); no timings are stored,
and the ids of widget models are numbered in order instead of random.

Widgets: the notebook's metadata keeps the state of every widget model the run made, so a
table shown in an output draws again when the notebook is opened with no kernel behind it.
The build (and ``--check``) refuses a notebook with a widget in an output, or a widget
inside another, whose model is not stored (JupyterLab would log "widget model not found"
and show an error in its place). Outputs a learner's own run writes point at models that
live only in their kernel: JupyterLab stores those only with the widget manager's
``saveState`` setting on.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = (ROOT / "notebooks", ROOT / "exercises")
TEXT = ".text"
LANGS = ("ur", "hi")              # the translated lessons: .text/<lang>/*.md -> <folder>/<lang>/
RTL = {"ur"}
KERNEL = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def sources(names: list[str]) -> list[Path]:
    """The text sources to build: all, or those whose path contains one of ``names``."""
    found = sorted(p for folder in FOLDERS for sub in ("", *LANGS)
                   for p in (folder / TEXT / sub).glob("*.md"))
    if not names:
        return found
    picked = [p for p in found if any(n in label(p) for n in names)]
    missing = [n for n in names if not any(n in label(p) for p in found)]
    if missing:
        raise SystemExit(f"no lesson or exercise source matches {missing}; the sources are "
                         f"{', '.join(p.stem for p in found)}")
    return picked


def language_of(source: Path) -> str:
    """"ur" or "hi" for a translated lesson's text, "en" for the English ones."""
    return source.parent.name if source.parent.name in LANGS else "en"


def folder_of(source: Path) -> Path:
    """The lesson folder (notebooks/ or exercises/) a text belongs to."""
    return source.parent.parent.parent if language_of(source) != "en" else source.parent.parent


def label(source: Path) -> str:
    """"notebooks/07_double_sir_centre_pile", "exercises/ur/01_trick_winner"."""
    lang = language_of(source)
    return f"{folder_of(source).name}/{'' if lang == 'en' else lang + '/'}{source.stem}"


def notebook_for(source: Path) -> Path:
    lang = language_of(source)
    folder = folder_of(source)
    return (folder if lang == "en" else folder / lang) / (source.stem + ".ipynb")


def read_source(source: Path):
    """The notebook a text describes (no outputs), and its prose checks."""
    nb = jupytext.read(source, fmt="md:myst")
    meta = nb.metadata.pop("courtlearn", {}) or {}
    nb.metadata.pop("jupytext", None)
    nb.metadata["kernelspec"] = dict(KERNEL)
    lang = language_of(source)
    if lang != "en":                  # the language marked (fonts, screen readers), Urdu rtl
        opening = f'<div dir="rtl" lang="{lang}">' if lang in RTL else f'<div lang="{lang}">'
        for cell in nb.cells:
            if cell.cell_type == "markdown" and cell.source.strip():
                cell.source = f"{opening}\n\n{cell.source.strip()}\n\n</div>"
    return nb, list(meta.get("outputs_show", []))


def check_figures(source: Path) -> None:
    """The numbers a lesson quotes (its front matter's ``courtlearn: figures:``, names of
    :data:`courtlearn.course_figures.FIGURES` for the strategy lessons, and of
    :data:`courtlearn.rules_figures.FIGURES`, "rules.*", for the rules lessons): each is
    recomputed with a small sample and must lie within the figure's stated tolerance of
    the quoted value, and the quoted value (in 100, whole or to one decimal) must be in
    the lesson's text."""
    meta = (jupytext.read(source, fmt="md:myst").metadata.get("courtlearn") or {})
    names = meta.get("figures") or []
    if not names:
        return
    sys.path.insert(0, str(ROOT))
    from courtlearn import course_figures, rules_figures
    text = source.read_text(encoding="utf-8")
    for name in names:
        module = rules_figures if name.startswith("rules.") else course_figures
        FIGURES, check_figure = module.FIGURES, module.check_figure
        try:
            print("  ", check_figure(name), flush=True)
        except (KeyError, ValueError) as err:
            raise SystemExit(f"{source.relative_to(ROOT)}: {err}") from None
        value = 100 * abs(FIGURES[name][1])
        shown = (str(round(value)), f"{value:.1f}")
        if not any(form in text for form in shown):
            raise SystemExit(f"{source.relative_to(ROOT)}: quotes figure {name} but its "
                             f"value ({' or '.join(shown)}) is not in the text")


def correct_word(source: Path) -> str:
    """How "Correct" reads in the lesson's language (what a worked answer must print)."""
    sys.path.insert(0, str(ROOT))
    from courtlearn.language import tr, using
    with using(language_of(source)):
        return tr("Correct: {why}", why="").strip()


def cell_key(cell) -> tuple:
    """What must agree between a source and its notebook: type, text and tags of each cell."""
    return (cell.cell_type, cell.source.strip(), tuple(cell.get("metadata", {}).get("tags", [])))


def stable_ids(nb) -> None:
    seen: dict[str, int] = {}
    for cell in nb.cells:
        digest = hashlib.sha1(f"{cell.cell_type}\n{cell.source}".encode()).hexdigest()[:8]
        n = seen.get(digest, 0)
        seen[digest] = n + 1
        cell.id = digest if n == 0 else f"{digest}-{n}"


_MODEL_ID = re.compile(r"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])")


def stable_widget_ids(text: str) -> str:
    """Number the widget model ids (random uuids) in order of first appearance."""
    ids: dict[str, str] = {}

    def swap(m):
        return ids.setdefault(m.group(0), f"{len(ids) + 1:032x}")
    return _MODEL_ID.sub(swap, text)


WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
_MODEL_REF = re.compile(r"IPY_MODEL_([0-9a-f]{32})")


def missing_widgets(nb) -> list[str]:
    """Widget models the notebook needs but does not store (empty: its widgets are whole):
    the model of each widget view in an output, and each model another one refers to
    (a box's children, a widget's layout and style)."""
    stored = nb.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    out = []
    for i, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view and view.get("model_id") not in stored:
                out.append(f"cell {i} shows widget {view.get('model_id')}, whose model is not "
                           f"stored")
    for model_id, model in stored.items():
        for ref in _MODEL_REF.findall(json.dumps(model.get("state", {}))):
            if ref not in stored:
                out.append(f"widget {model_id} ({model.get('model_name')}) refers to widget "
                           f"{ref}, which is not stored")
    return out


def outputs_text(nb) -> str:
    text = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                text.append(out["text"])
            elif out.get("output_type") == "error":
                raise SystemExit(f"a cell failed: {out['ename']}: {out['evalue']}\n"
                                 f"in cell:\n{cell.source}")
            else:
                text.append(out.get("data", {}).get("text/plain", ""))
    return "".join(text)


def build(source: Path) -> Path:
    nb, checks = read_source(source)
    check_figures(source)
    target = notebook_for(source)
    target.parent.mkdir(exist_ok=True)
    NotebookClient(nb, timeout=600, kernel_name="python3", record_timing=False,
                   resources={"metadata": {"path": str(target.parent)}}).execute()
    try:
        text = outputs_text(nb)
    except SystemExit as err:
        raise SystemExit(f"{source.relative_to(ROOT)}: {err}") from None
    for cell in nb.cells:              # an exercise's worked answers must be right
        if "solution" in cell.get("metadata", {}).get("tags", []):
            said = "".join(o.get("text", "") for o in cell.get("outputs", []))
            if not said.startswith(correct_word(source)):
                raise SystemExit(f"{source.relative_to(ROOT)}: a worked answer is not right:\n"
                                 f"{cell.source}\n-> {said.strip()}")
    missing = [want for want in checks if want not in text]
    if missing:
        raise SystemExit(f"{source.relative_to(ROOT)}: the outputs no longer show what the "
                         f"text says they do: {missing}")
    missing = missing_widgets(nb)
    if missing:
        raise SystemExit(f"{source.relative_to(ROOT)}: its widgets would not draw when the "
                         f"notebook is opened again: {'; '.join(missing[:5])}")
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    stable_ids(nb)
    nbformat.validate(nb)
    target.write_text(stable_widget_ids(nbformat.writes(nb)) + "\n", encoding="utf-8")
    return target


def disagreements(source: Path) -> list[str]:
    """Why the committed notebook is not what its source makes (empty: they agree)."""
    target = notebook_for(source)
    if not target.exists():
        return [f"{target.relative_to(ROOT)} is missing: run make notebooks"]
    want, _ = read_source(source)
    have = nbformat.read(target, as_version=4)
    missing = missing_widgets(have)
    if missing:
        return [f"{target.relative_to(ROOT)}: {m}: run make notebooks" for m in missing[:5]]
    a = [cell_key(c) for c in want.cells]
    b = [cell_key(c) for c in have.cells]
    if a == b:
        return []
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return [f"{target.relative_to(ROOT)} cell {i} differs from its source "
                    f"{source.relative_to(ROOT)}: edit the source, then make notebooks"]
    return [f"{target.relative_to(ROOT)} has {len(b)} cells, its source {len(a)}: "
            f"run make notebooks"]


def orphans() -> list[str]:
    """Notebooks with no text source (everything learners open is built from text)."""
    out = []
    for folder in FOLDERS:
        for sub in ("", *LANGS):
            for nb in sorted((folder / sub).glob("*.ipynb")):
                text = folder / TEXT / sub / (nb.stem + ".md")
                if not text.exists():
                    out.append(f"{nb.relative_to(ROOT)} has no source {text.relative_to(ROOT)}")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*", help="lesson numbers or names, e.g. 07 exercises/03")
    ap.add_argument("--check", action="store_true",
                    help="do not build: report notebooks that disagree with their sources")
    args = ap.parse_args(argv)
    todo = sources(args.names)
    if args.check:
        problems = orphans() + [p for s in todo for p in disagreements(s)]
        print("\n".join(problems) or f"{len(todo)} notebooks agree with their sources")
        return 1 if problems else 0
    # the puzzles' worked answers record a try: into a scratch file, not the builder's own
    # progress (the kernels inherit this environment)
    import os
    import tempfile
    os.environ["COURTLEARN_PROGRESS"] = os.path.join(tempfile.mkdtemp(), "puzzles.json")
    for source in todo:
        print("built", build(source).relative_to(ROOT), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
