"""Adapt the site's copies of the lessons and exercises to JupyterLite.

usage: python scripts/lite/prepare_notebooks.py FILES_DIR

- kernelspec -> the Pyodide kernel ("python"), so the lesson opens with its
  kernel started instead of a "Select Kernel" dialog (lessons in the repository
  name "python3", the ipykernel of a normal Jupyter);
- stored widget views, tracebacks and stderr are dropped (their models live only in a running kernel:
  they would show "model not found" until the cell is run again); every other
  stored output, the static table pictures included, stays so a lesson reads
  well before its kernel is ready; execution counts are cleared, so a "[n]"
  prompt always means the cell ran in this browser.
The repository's notebooks are never modified: only the copies in FILES_DIR.
"""
import json
import sys
from pathlib import Path

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
LITE_KERNEL = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}


def prepare(path: Path) -> None:
    nb = json.loads(path.read_text(encoding="utf-8"))
    nb.setdefault("metadata", {})["kernelspec"] = LITE_KERNEL
    nb["metadata"].pop("widgets", None)
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["execution_count"] = None             # "[ ]" until it runs in the browser
            cell["outputs"] = [o for o in cell.get("outputs", [])
                               if WIDGET_VIEW not in o.get("data", {})
                               and o.get("output_type") != "error"
                               and o.get("name") != "stderr"]
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    for p in sorted(Path(sys.argv[1]).rglob("*.ipynb")):
        prepare(p)
