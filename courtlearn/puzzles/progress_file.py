"""Which puzzles a learner solved, and in how many tries, kept in a small JSON file.

Where: ``$COURTLEARN_PROGRESS`` when set; in the browser-only site (Pyodide) the working
folder, which the browser keeps in its own storage; otherwise Jupyter's data directory
(``jupyter --data-dir``), under ``courtlearn/puzzles.json``. A file that cannot be read
(corrupted, or edited by hand into something else) is reported, kept aside beside it as
``puzzles.json.bad`` (``.bad1``, ... when that exists) and replaced by a fresh one: the
learner loses that record, never the session.

A puzzle is known by a short digest of its position, so its record stays with it when the
ladder is reordered.
"""
from __future__ import annotations

import hashlib
import html
import json
import os
import sys
from pathlib import Path

from ..language import tr

FORMAT = "courtlearn.puzzles/1"


def path() -> Path:
    env = os.environ.get("COURTLEARN_PROGRESS")
    if env:
        return Path(env)
    if sys.platform == "emscripten":
        return Path.cwd() / ".courtlearn-puzzles.json"
    try:
        from jupyter_core.paths import jupyter_data_dir
        base = Path(jupyter_data_dir())
    except ImportError:
        base = Path.home() / ".local" / "share" / "jupyter"
    return base / "courtlearn" / "puzzles.json"


def puzzle_id(puzzle) -> str:
    return hashlib.sha1(puzzle.notation.encode()).hexdigest()[:10]


def _valid(data) -> bool:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return False
    records = data.get("puzzles")
    if not isinstance(records, dict):
        return False
    for rec in records.values():
        if not (isinstance(rec, dict) and isinstance(rec.get("tries"), int)
                and not isinstance(rec.get("tries"), bool) and rec["tries"] >= 0
                and isinstance(rec.get("solved"), bool)):
            return False
    return True


def load() -> dict:
    """{puzzle id: {"tries": n, "solved": bool}}; a bad file is set aside (see the doc)."""
    p = path()
    if not p.exists():
        return {}
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
        ok = _valid(data)
    except (OSError, ValueError, UnicodeDecodeError):
        ok = False
    if ok:
        return dict(data["puzzles"])
    aside = p.with_name(p.name + ".bad")
    n = 0
    while aside.exists():
        n += 1
        aside = p.with_name(f"{p.name}.bad{n}")
    try:
        p.replace(aside)
        kept = tr("it is kept as {path}", path=aside)
    except OSError as err:
        kept = tr("it could not be moved aside ({error})", error=err)
    print(tr("Your puzzle progress file {path} could not be read, so a new one is started; "
             "{kept}.", path=p, kept=kept))
    _save({})
    return {}


def _save(records: dict) -> None:
    p = path()
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_text(json.dumps({"format": FORMAT, "puzzles": records}, indent=1, sort_keys=True),
                   encoding="utf-8")
    tmp.replace(p)


def record(puzzle, solved: bool) -> dict:
    """One more try at ``puzzle``; solved once, solved for good. Returns its record."""
    records = load()
    rec = records.setdefault(puzzle_id(puzzle), {"tries": 0, "solved": False})
    rec["tries"] += 1
    rec["solved"] = rec["solved"] or bool(solved)
    try:
        _save(records)
    except OSError as err:                       # a read-only home: say so, go on
        print(tr("Your puzzle progress could not be saved to {path}: {error}", path=path(),
                 error=err))
    return rec


class Progress:
    """Solved puzzles per level: ``rows`` (level, puzzles, solved, tries), printed as a
    small table; ``frame()`` gives it as a pandas DataFrame."""

    def __init__(self, puzzles, records: dict):
        self.rows = []
        for level in sorted({p.level for p in puzzles}):
            mine = [records.get(puzzle_id(p), {"tries": 0, "solved": False})
                    for p in puzzles if p.level == level]
            self.rows.append({"level": level, "puzzles": len(mine),
                              "solved": sum(r["solved"] for r in mine),
                              "tries": sum(r["tries"] for r in mine)})

    @property
    def solved(self) -> int:
        return sum(r["solved"] for r in self.rows)

    def __str__(self) -> str:
        lines = ["level  solved  tries"]
        for r in self.rows:
            lines.append(f"{r['level']:>5}  {r['solved']:>2} of {r['puzzles']:<2} {r['tries']:>4}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Progress({self.solved} of {sum(r['puzzles'] for r in self.rows)} solved)"

    def _repr_html_(self) -> str:
        rows = "".join(
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>".format(
                r["level"], html.escape(tr("{n} of {total}", n=r["solved"], total=r["puzzles"])),
                r["tries"]) for r in self.rows)
        head = "".join(f"<th>{html.escape(w)}</th>" for w in (tr("level"), tr("solved"),
                                                              tr("tries")))
        total = sum(r["puzzles"] for r in self.rows)
        said = tr("Solved so far: {n} of {total} puzzles.", n=self.solved, total=total)
        return f"<table><tr>{head}</tr>{rows}</table><p>{html.escape(said)}</p>"

    def frame(self):
        import pandas as pd
        return pd.DataFrame(self.rows, columns=["level", "puzzles", "solved", "tries"])
