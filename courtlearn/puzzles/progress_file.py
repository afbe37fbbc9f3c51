"""Which puzzles a learner solved, and in how many tries, kept in a small JSON file.

Where: ``$COURTLEARN_PROGRESS`` when set (``~`` is the home folder); in the browser-only
site (Pyodide) the working folder, which the browser keeps in its own storage; otherwise
Jupyter's data directory (``jupyter --data-dir``), under ``courtlearn/puzzles.json``.

What is at that path is the learner's, and nothing of theirs is lost:

* a symlink is followed: its target is read and written, the link stays;
* a folder, a pipe or a device there is never opened, moved or written: courtlearn says so
  once and keeps this session's tries in memory (``progress()`` counts them);
* a plain file that is not a progress file (corrupted, or edited by hand into something
  else) is renamed to ``puzzles.json.bad`` (``.bad1``, ... : never over an earlier one), and
  a fresh file is started; when it cannot be renamed, or cannot be read at all, it is left
  as it is and the tries are kept in memory;
* where nothing can be written (a read-only home), the tries are kept in memory, said once.

So reading the progress and recording a try never raise for what is at the path.

Every write goes to a temporary file of its own name beside the file, flushed to disk, then
renamed over it, so a reader sees the old file or the new one, never half of one. A try is
recorded holding a lock on ``<name>.lock`` beside the file (``fcntl.flock``; ``msvcrt`` on
Windows; none where neither exists, as in some browsers) from reading the file to replacing
it, so two kernels recording at once keep every try of both.

A puzzle is known by a short digest of its position, so its record stays with it when the
ladder is reordered.

The same file keeps the learner's class, when their notebook joined one
(:func:`courtlearn.classroom.join`): ``"class"`` (where it is, its code, the learner's name
and seat token) and ``"pending"`` (results made while the class could not be reached, each
with its own id, sent and removed when it can be). :func:`update` changes them under the
same lock, and recording a try keeps them. A file without them reads as before; an older
courtlearn reads a file with them (it writes its tries only).
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import html
import json
import os
import stat
import sys
import tempfile
from pathlib import Path

from ..language import tr

FORMAT = "courtlearn.puzzles/1"

#: what this process could not save (the whole file: tries, class, pending results), by the
#: file it belongs to (see the module's doc)
_unsaved: dict[str, dict] = {}
#: the parts of the file besides the tries (see the module's doc)
EXTRAS = ("class", "pending")
#: the problems already told, as (file, problem): each is said once
_said: set = set()


def path() -> Path:
    env = os.environ.get("COURTLEARN_PROGRESS")
    if env:
        return Path(os.path.expanduser(env))
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


def _extras(data: dict) -> dict:
    """The file's class and pending results, when well formed (else left out: a bad part
    never makes the learner's tries unreadable)."""
    out = {}
    if isinstance(data.get("class"), dict):
        out["class"] = data["class"]
    pending = data.get("pending")
    if isinstance(pending, list):
        out["pending"] = [r for r in pending if isinstance(r, dict) and isinstance(r.get("id"), str)]
    return out


def _empty() -> dict:
    return {"puzzles": {}}


# ------------------------------------------------------------------ reading and recording
def load() -> dict:
    """{puzzle id: {"tries": n, "solved": bool}}: what the file holds, or what this session
    keeps in memory when it cannot be saved there (see the module's doc). Never raises for
    what is at the path."""
    return load_all()["puzzles"]


def load_all() -> dict:
    """The whole file as :func:`load` reads it: ``{"puzzles": {...}}`` and, when there,
    ``"class"`` and ``"pending"`` (see the module's doc). Never raises for what is at the
    path."""
    p = path()
    target = _target(p)
    if str(target) in _unsaved:
        return _copy(_unsaved[str(target)])
    if _kind(target) == "other":
        _say_not_a_file(p, target)
        return _empty()
    doc, problem = _read(target)
    if problem is not None:                      # look again holding the lock, then act
        with _locked(target):
            doc, _ = _read_or_recover(p, target)
    return doc


def record(puzzle, solved: bool) -> dict:
    """One more try at ``puzzle``; solved once, solved for good. Returns its record.

    Holds the lock from reading the file to replacing it, so no other kernel's try is lost;
    where the file cannot be written, the try is kept in memory (said once)."""
    def one_more(doc):
        rec = doc["puzzles"].setdefault(puzzle_id(puzzle), {"tries": 0, "solved": False})
        rec["tries"] += 1
        rec["solved"] = rec["solved"] or bool(solved)
        return dict(rec)
    return update(one_more)


def update(change):
    """``change(doc)`` applied to the whole file (see :func:`load_all`) and saved, holding
    the lock from reading to replacing it (no other kernel's change is lost); returns what
    ``change`` returned. Where the file cannot be written, the change is kept in memory
    (said once), as a try is."""
    p = path()
    target = _target(p)
    with _opened(p, target) as (doc, writable):
        out = change(doc)
        if writable:
            try:
                _write(target, doc)
            except OSError as err:
                _say_not_saved(p, target, err)
            else:
                _unsaved.pop(str(target), None)
                return out
        _unsaved[str(target)] = doc
    return out


@contextlib.contextmanager
def _opened(p: Path, target: Path):
    """(doc, writable) for a change: the file's contents to change, and whether they may be
    written to ``target``; holds the lock when there can be a file there."""
    if _kind(target) == "other":                 # a folder, a pipe: never touched
        _say_not_a_file(p, target)
        yield _memory_or(target, _empty()), False
        return
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        _say_not_saved(p, target, err)
        yield _memory_or(target, _empty()), False
        return
    with _locked(target):
        doc, writable = _read_or_recover(p, target)
        yield _memory_or(target, doc), writable


def _memory_or(target: Path, doc: dict) -> dict:
    """What is kept in memory for ``target`` when there is any (it holds what the file held
    when saving first failed), else ``doc``."""
    return _copy(_unsaved.get(str(target), doc))


def _copy(doc: dict) -> dict:
    """A copy of the whole file's contents, deep enough that changing it changes nothing
    kept elsewhere (JSON data)."""
    return json.loads(json.dumps(doc))


# ------------------------------------------------------------------ what is at the path
def _target(p: Path) -> Path:
    """The file to read and replace: a symlink's target (the link itself stays)."""
    return Path(os.path.realpath(p))


def _kind(target: Path) -> str:
    """"file" (a plain file), "missing" (nothing there yet, or nothing can be there) or
    "other" (a folder, a pipe, a device, a symlink loop: never to be opened or replaced)."""
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return "other" if os.path.islink(target) else "missing"
    return "file" if stat.S_ISREG(mode) else "other"


def _read(target: Path):
    """(the file's contents, None); or (None, "bad") for a file that is not progress JSON;
    or (None, the OSError) for one that cannot be read. Nothing there reads as no tries."""
    if _kind(target) == "other":                 # changed since it was looked at
        return None, OSError(errno.EISDIR, os.strerror(errno.EISDIR))
    try:
        with open(target, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        return _empty(), None
    except OSError as err:
        return None, err
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):         # UnicodeDecodeError is a ValueError
        return None, "bad"
    if not _valid(data):
        return None, "bad"
    return _copy({"puzzles": data["puzzles"], **_extras(data)}), None


def _read_or_recover(p: Path, target: Path):
    """(the file's contents, writable), holding the lock: a bad file is moved aside and a fresh one
    started (the learner is told each time); a file that cannot be read, or a bad one that
    cannot be moved, is left alone and not written (said once)."""
    doc, problem = _read(target)
    if problem is None:
        return doc, True
    if problem != "bad":
        _say_once(target, "read", tr(
            "Your puzzle progress file {path} could not be read ({error}); it is left as it "
            "is, and this session's tries are kept in memory only, until the kernel restarts.",
            path=p, error=problem))
        return _empty(), False
    try:
        aside = _set_aside(target)
    except OSError as err:
        _say_once(target, "aside", tr(
            "Your puzzle progress file {path} is not a progress file and could not be moved "
            "aside ({error}); it is left as it is, and this session's tries are kept in memory "
            "only, until the kernel restarts.", path=p, error=err))
        return _empty(), False
    print(tr("Your puzzle progress file {path} could not be read, so a new one is started; "
             "{kept}.", path=p, kept=tr("it is kept as {path}", path=aside)))
    with contextlib.suppress(OSError):           # if this fails, the next try says so
        _write(target, _empty())
    return _empty(), True


def _set_aside(target: Path) -> Path:
    """Renames a bad file to ``<name>.bad``, else ``.bad1``, ``.bad2``, ...: the first name
    free, never over an earlier one (a hard link is made and the old name removed, as a
    rename would replace what is there; plain renaming where links cannot be made)."""
    for n in range(10_000):
        aside = target.with_name(f"{target.name}.bad{n or ''}")
        try:
            os.link(target, aside, follow_symlinks=False)
        except FileExistsError:
            continue
        except (OSError, NotImplementedError, AttributeError):
            if os.path.lexists(aside):
                continue
            os.rename(target, aside)
            return aside
        try:
            os.unlink(target)
        except OSError:
            os.unlink(aside)                     # leave things as they were
            raise
        return aside
    raise OSError(errno.EEXIST, f"{target.name}.bad to .bad9999 all exist")


# ------------------------------------------------------------------ writing
def _write(target: Path, doc: dict) -> None:
    """``target`` replaced at once by ``doc`` (the tries, and the class and pending results
    when there are any): written to a temporary file of its own name beside it, flushed to
    disk, given the old file's permissions, renamed over it."""
    data = {"format": FORMAT, "puzzles": doc.get("puzzles", {}),
            **{k: doc[k] for k in EXTRAS if doc.get(k) is not None}}
    text = json.dumps(data, indent=1, sort_keys=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            try:
                os.fsync(f.fileno())
            except OSError as err:               # a file system that cannot (some browsers')
                if err.errno not in (errno.EINVAL, errno.ENOTSUP, errno.ENOSYS):
                    raise
        with contextlib.suppress(OSError):
            os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def _locked(target: Path):
    """Holds the lock ``<name>.lock`` beside ``target`` for the block (the lock file stays:
    removing it would let two kernels lock two different files). Where no lock can be had
    (no folder to put it in, no locking on this system), the block runs without one."""
    try:
        fd = os.open(f"{target}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield
        return
    try:
        unlock = _lock(fd)
        try:
            yield
        finally:
            unlock()
    finally:
        os.close(fd)


def _lock(fd: int):
    """Locks the open file ``fd`` (waiting for it); returns what unlocks it."""
    try:
        import fcntl
    except ImportError:
        fcntl = None
    if fcntl is not None and hasattr(fcntl, "flock"):    # Pyodide's fcntl has no flock
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:                          # a file system without locks
            return lambda: None
        return lambda: fcntl.flock(fd, fcntl.LOCK_UN)
    try:
        import msvcrt                            # Windows: the lock file's first byte
    except ImportError:
        return lambda: None
    try:
        msvcrt.locking(fd, msvcrt.LK_LOCK, 1)    # tries for 10 seconds
    except OSError:
        return lambda: None

    def unlock():
        os.lseek(fd, 0, os.SEEK_SET)
        with contextlib.suppress(OSError):
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    return unlock


# ------------------------------------------------------------------ telling the learner
def _say_once(target: Path, problem: str, text: str) -> None:
    if (str(target), problem) not in _said:
        _said.add((str(target), problem))
        print(text)


def _say_not_a_file(p: Path, target: Path) -> None:
    _say_once(target, "not a file", tr(
        "Your puzzle progress cannot be saved to {path}: it is a folder (or a pipe or a "
        "device), not a file, and it is left as it is. This session's tries are kept in "
        "memory only, until the kernel restarts; set COURTLEARN_PROGRESS to the name of a "
        "file to keep them.", path=p))


def _say_not_saved(p: Path, target: Path, err: OSError) -> None:
    _say_once(target, "save", tr(
        "Your puzzle progress could not be saved to {path} ({error}); this session's tries "
        "are kept in memory only, until the kernel restarts.", path=p, error=err))


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
