"""A class at shared tables (issue 25): learners take seats from their own browsers,
each seeing only their own hand; bots fill empty seats; the teacher runs the room.

``open()`` starts the class server (tornado) in the running event loop (a notebook's
kernel) and returns the :class:`~courtlearn.classroom.room.Room`; ``courtlearn class
serve`` runs the same server from the console. Importing this package imports neither
tornado nor the server: they load when first used.
"""
from __future__ import annotations

__all__ = ["open", "Room", "Store", "serve"]


def open(port: int = 8765, db="class.sqlite", language: str = "en", *, code=None,
         tables: int = 10, rules=None, host: str = "0.0.0.0", grace: float = 30.0,
         hints: bool = False, paused: bool = False, origins=(), show: bool = True):
    """Start the class server in this kernel's event loop and return the Room.

    port: the HTTP port (0 picks a free one); db: the SQLite file (a class saved there
    with the same ``code`` resumes where it stopped); language: "en", "ur" or "hi" for
    the learner pages; tables, rules: the tables of a new class; host: the address to
    listen on ("0.0.0.0": every LAN address); grace: seconds a learner may be gone
    before a bot plays their seat; paused: a new class waits for ``room.resume()`` (the
    learners take their seats first); origins: extra page origins allowed to open the
    socket (e.g. "https://class.example.org" behind a proxy). show: display the join
    address(es), QR code and class code in the notebook, the teacher page's link folded
    away (for a second screen: it holds the teacher's token, keep it to yourself), and the
    dashboard (``room.dashboard()``).
    """
    from .server import start
    room = start(port=port, db=db, language=language, code=code, tables=tables, rules=rules,
                 host=host, grace=grace, hints=hints, paused=paused, origins=origins)
    if show:
        try:
            from IPython.display import display
        except ImportError:
            print(room.server.text())
        else:
            display(room)                      # the join display and the teacher's link
            try:
                display(room.dashboard())
            except ImportError:                # no anywidget/ipywidgets: the display only
                pass
    return room


def __getattr__(name):
    if name == "Room":
        from .room import Room
        return Room
    if name == "Store":
        from .store import Store
        return Store
    if name == "serve":
        from .server import serve
        return serve
    raise AttributeError(f"module 'courtlearn.classroom' has no attribute {name!r}")
