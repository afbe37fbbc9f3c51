"""The widgets' ES modules as anywidget loads them: one string each.

table.js (the card table) and classroom/static/dashboard.js (the teacher's dashboard) import
what every courtlearn page draws with from ``./dom.js`` (``static/dom.js``). A page of the
class server loads them as files, so the import works as written. anywidget loads a widget's
module from a string (a blob URL in JupyterLab, Notebook 7, JupyterLite, VS Code, marimo),
which can import no file beside it: :func:`module_source` puts dom.js inline instead, as a
function whose exports the import's names are bound to. Nothing else changes.

>>> src = module_source(STATIC / "table.js")
>>> 'from "./dom.js"' in src, "export default" in src, src.count("function makeModel")
(False, True, 1)
"""
from __future__ import annotations

import functools
import pathlib
import re

__all__ = ["module_source", "STATIC", "DOM"]

STATIC = pathlib.Path(__file__).parent / "static"
DOM = STATIC / "dom.js"

_IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"\./dom\.js";[ \t]*$', re.M)
_EXPORT = re.compile(r"^export\s+(function|const|let|class)\s+(\w+)", re.M)


@functools.lru_cache(maxsize=4)
def _inline_dom(dom_mtime: float) -> tuple[str, tuple[str, ...]]:
    """dom.js (as it is at ``dom_mtime``) as a function body, and the names it exports."""
    text = DOM.read_text(encoding="utf-8")
    names = tuple(m.group(2) for m in _EXPORT.finditer(text))
    body = _EXPORT.sub(lambda m: f"{m.group(1)} {m.group(2)}", text)
    return body, names


def _binding(spec: str, names: tuple[str, ...], path) -> str:
    """``{ h, fill as f }`` as the destructuring ``{ h, fill: f }``; an unknown name is an
    error here, not a blank page later."""
    parts = []
    for item in (s.strip() for s in spec.split(",")):
        if not item:
            continue
        name, _, alias = (p.strip() for p in item.partition(" as "))
        if name not in names:
            raise ValueError(f"{path} imports {name!r} from ./dom.js, which exports only "
                             f"{', '.join(names)}")
        parts.append(f"{name}: {alias}" if alias else name)
    return "{ " + ", ".join(parts) + " }"


@functools.lru_cache(maxsize=16)
def _source(path: str, mtime: float, dom_mtime: float) -> str:
    text = pathlib.Path(path).read_text(encoding="utf-8")
    found = _IMPORT.findall(text)
    if not found:
        return text
    if len(found) > 1:
        raise ValueError(f"{path} imports from ./dom.js more than once: import every name "
                         f"in one line")
    body, names = _inline_dom(dom_mtime)
    bound = _binding(found[0], names, path)
    inline = (f"const {bound} = (() => {{\n// ---- ./dom.js, inline (courtlearn/widgets/esm.py)\n"
              f"{body}\nreturn {{ {', '.join(names)} }};\n}})();")
    return _IMPORT.sub(lambda m: inline, text, count=1)


def module_source(path) -> str:
    """The module at ``path`` as one string: its ``import {...} from "./dom.js";`` line
    replaced by dom.js itself (see the module's doc); a module that imports nothing from
    dom.js as it is."""
    path = pathlib.Path(path)
    return _source(str(path), path.stat().st_mtime, DOM.stat().st_mtime)
