"""The notebook widgets: the card table (an anywidget) and the ipywidgets app around it.

``CardTable``, ``PlayApp`` and ``play`` import anywidget and ipywidgets when first asked
for; :mod:`courtlearn.widgets.core` (the table's logic, shared with the class server)
imports neither, and neither does ``import courtlearn``.
"""
import importlib

__all__ = ["CardTable", "PlayApp", "play"]
_WHERE = {"CardTable": ".table", "PlayApp": ".app", "play": ".app"}


def __getattr__(name):
    if name in ("core", "table", "app"):          # the submodules, as before
        return importlib.import_module("." + name, __name__)
    if name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *_WHERE})
