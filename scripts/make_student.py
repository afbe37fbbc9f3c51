#!/usr/bin/env python3
"""Write student copies of the exercise notebooks: solutions removed, outputs cleared.

usage: make_student.py SRC_DIR OUT_DIR   (subfolders such as ur/ and hi/ keep their place)

In every code cell tagged "solution", each assignment to ``answer`` (however
many lines it spans) becomes ``answer = ...``; the rest of the cell (the
``q.check(answer)`` line) stays, so a student copy runs cleanly and prints
"Not answered yet".  Every code cell loses its outputs and execution count.
Only the standard library is used.
"""
from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

PLACEHOLDER = "answer = ..."


def blank_answers(source: str) -> str:
    """``source`` with every top-level ``answer = <solution>`` replaced."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    lines = source.splitlines(keepends=True)
    spans = []
    for node in tree.body:
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        if any(isinstance(t, ast.Name) and t.id == "answer" for t in targets):
            spans.append((node.lineno, node.end_lineno, node.col_offset))
    for start, end, col in reversed(spans):
        ending = "\n" if lines[end - 1].endswith("\n") else ""
        lines[start - 1:end] = [" " * col + PLACEHOLDER + ending]
    return "".join(lines)


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def student_copy(nb: dict) -> dict:
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        tags = cell.get("metadata", {}).get("tags", [])
        if "solution" in tags:
            cell["source"] = blank_answers(_source(cell))
        cell["outputs"] = []
        cell["execution_count"] = None
        cell.get("metadata", {}).pop("execution", None)
    return nb


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    src, out = Path(argv[1]), Path(argv[2])
    # the exercises and their Urdu and Hindi versions (ur/, hi/); no hidden folders
    notebooks = sorted(p for p in src.rglob("*.ipynb")
                       if not any(part.startswith(".") for part in p.relative_to(src).parts))
    if not notebooks:
        print(f"no notebooks in {src}", file=sys.stderr)
        return 1
    out.mkdir(parents=True, exist_ok=True)
    for path in notebooks:
        nb = json.loads(path.read_text(encoding="utf-8"))
        target = out / path.relative_to(src)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(student_copy(nb), indent=1, ensure_ascii=False) + "\n",
                          encoding="utf-8")
        print(f"{target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
