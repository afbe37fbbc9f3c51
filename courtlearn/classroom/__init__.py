"""A class at shared tables (issue 25): learners take seats from their own browsers,
each seeing only their own hand; bots fill empty seats; the teacher runs the room.

``open()`` starts the class server (tornado) in the running event loop (a notebook's
kernel) and returns the :class:`~courtlearn.classroom.room.Room`; ``courtlearn class
serve`` runs the same server from the console. Importing this package imports neither
tornado nor the server: they load when first used.

Results (issue 26): a learner's notebook calls :func:`join`; from then on its exercise
checks and puzzle tries go to the class (:mod:`courtlearn.classroom.client`), where the
teacher reads them (``room.results()``, the dashboard) and, after class,
:func:`results` reads them from the class's SQLite file.
"""
from __future__ import annotations

__all__ = ["open", "Room", "Store", "serve", "join", "leave", "status", "flush",
           "my_results", "results", "answers"]


def join(address=None, name=None, *, code=None, timeout: float = 5.0):
    """Join the class at ``address`` as ``name`` from a learner's notebook: every exercise
    check and puzzle try goes to it from then on (see :mod:`courtlearn.classroom.client`).

    >>> import courtlearn as cl                                       # doctest: +SKIP
    >>> cl.classroom.join("http://192.168.1.5:8765/?code=ABC234", "Ali")  # doctest: +SKIP
    You are in the class ABC234 as Ali: your checks and puzzle tries go to it.
    """
    from .client import join as _join
    return _join(address, name, code=code, timeout=timeout)


def leave():
    """This notebook's checks stop going to its class."""
    from .client import leave as _leave
    return _leave()


def status():
    """The class this notebook joined (None: none), with the results waiting to be sent."""
    from .client import status as _status
    return _status()


def flush(timeout: float = 5.0):
    """Send this notebook's waiting results now; returns :func:`status`."""
    from .client import flush as _flush
    return _flush(timeout)


def my_results():
    """This notebook's learner's own results, as the class judged them (pandas)."""
    from .client import my_results as _mine
    return _mine()


def results(path="class.sqlite", code=None):
    """A class's results after class, read from its SQLite file (never changed): one row
    per learner and item (tries, first_right, solved, seconds, first, last), as
    ``room.results()``. ``code``: which class, when the file holds several (None: its
    only one; with several, a ValueError names them)."""
    from .grading import read
    return read(path, code)


def answers(path="class.sqlite", code=None):
    """Every try of a class's learners after class (one row each), as ``room.answers()``."""
    from .grading import read
    return read(path, code, every=True)


def open(port: int = 8765, db="class.sqlite", language: str = "en", *, code=None,
         tables: int = 10, rules=None, host: str = "0.0.0.0", grace: float = 30.0,
         hints: bool = False, paused: bool = False, origins=(), lite=None,
         host_names=(), proxies=(), max_learners: int | None = None, show: bool = True):
    """Start the class server in this kernel's event loop and return the Room.

    port: the HTTP port (0 picks a free one); db: the SQLite file (a class saved there
    with the same ``code`` resumes where it stopped); language: "en", "ur" or "hi" for
    the learner pages; tables, rules: the tables of a new class; host: the address to
    listen on ("0.0.0.0": every LAN address); grace: seconds a learner may be gone
    before a bot plays their seat; paused: a new class waits for ``room.resume()`` (the
    learners take their seats first); origins: extra page origins allowed to open the
    socket (e.g. "https://class.example.org" behind a proxy). lite: the folder of a built
    browser-only site (``make lite``: "build/lite"), served under ``lite/`` of the class's
    address, where its lessons' Python reaches the class (a folder that is not one: a
    ValueError, nothing started). host_names: names of this machine the learners type that
    the server cannot know (a name in the school's or a public DNS; pages asking by any
    other name are refused: DNS rebinding); proxies: the https proxy in front of the class
    (e.g. "127.0.0.1"), whose forwarded addresses the per-address limits then count;
    max_learners: how many learners the class takes (500 unless raised:
    ``room.set_max_learners(n)``). A class file another server uses, or one that is not a
    class file or cannot be written, is refused with a sentence (ClassFileError). show: display the join
    address(es), QR code and class code in the notebook, the teacher page's link folded
    away (for a second screen: it holds the teacher's token, keep it to yourself), and the
    dashboard (``room.dashboard()``).
    """
    import sys
    if sys.platform == "emscripten":              # Python inside a web page (JupyterLite)
        from courtlearn.language import tr
        raise RuntimeError(tr("A class server needs a computer: Python inside a web page (this "
                              "browser-only site) cannot listen for the learners' phones. Run "
                              "this notebook in JupyterLab on a computer, or on Binder."))
    from .server import start
    room = start(port=port, db=db, language=language, code=code, tables=tables, rules=rules,
                 host=host, grace=grace, hints=hints, paused=paused, origins=origins,
                 lite=lite, host_names=host_names, proxies=proxies, max_learners=max_learners)
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
