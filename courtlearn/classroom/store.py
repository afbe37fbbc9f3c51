"""The class's memory: one SQLite file (the standard library's ``sqlite3``, WAL).

Everything a restarted server needs to put every table back where it was lives
here: the class (its code and settings), the learners (a hash of each seat token,
never the token), the teacher's tokens (their hashes too), the tables (rules, session
seed), their seats, every deal (how it was dealt) and every action taken in it
(``deal.actions`` tokens, who took it).
Nothing here knows a rule: a restart rebuilds each deal and re-applies its saved
tokens through the engine (``Deal.apply``); seeds make the shuffles exact.

Writes gather in one open transaction; :meth:`Store.commit` ends it. The server
acknowledges an action only after the commit that holds it.

>>> s = Store(":memory:")
>>> s.create_class("ABC234", language="en", settings={"grace": 30})
>>> s.class_row("ABC234")["language"]
'en'
>>> t = s.add_table("ABC234", 0, {"game": "court_piece"}, seed=5, first_dealer=3)
>>> d = s.add_deal(t, 0, {"seed": 11, "dealer": 3})
>>> s.add_actions(d, [(0, "call:S", 0, "learner", 1.0)])
>>> s.commit()
>>> s.actions(d)
['call:S']
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import pathlib
import sqlite3
import threading
import time

__all__ = ["Store", "token_hash", "SCHEMA_VERSION", "ClassFileError"]


class ClassFileError(ValueError):
    """The class file cannot be used (another server holds it, it is not a class file, it
    cannot be written, the disk is full): the sentence says which and what to do."""


MIN_FREE = 1 << 20          # bytes a disk must have free to open a class file on it
_LOCKED: dict[str, int] = {}    # class files this process holds: real path -> lock's fd

SCHEMA_VERSION = 3         # 2: results (issue 26); 3: their titles (issue 29)

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS classes (
    code TEXT PRIMARY KEY, language TEXT NOT NULL, settings TEXT NOT NULL,
    created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS learners (
    id INTEGER PRIMARY KEY, class TEXT NOT NULL REFERENCES classes(code),
    token_hash TEXT NOT NULL UNIQUE, name TEXT NOT NULL, hub_user TEXT,
    created REAL NOT NULL, removed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY, class TEXT NOT NULL REFERENCES classes(code),
    number INTEGER NOT NULL, rules TEXT NOT NULL, seed INTEGER NOT NULL,
    first_dealer INTEGER NOT NULL, UNIQUE (class, number));
CREATE TABLE IF NOT EXISTS seats (
    table_id INTEGER NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL,
    learner INTEGER REFERENCES learners(id), PRIMARY KEY (table_id, seat));
CREATE TABLE IF NOT EXISTS deals (
    id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL, spec TEXT NOT NULL, batch INTEGER,
    started REAL NOT NULL, UNIQUE (table_id, number));
CREATE TABLE IF NOT EXISTS actions (
    deal INTEGER NOT NULL REFERENCES deals(id), idx INTEGER NOT NULL, token TEXT NOT NULL,
    seat INTEGER, by TEXT NOT NULL, time REAL NOT NULL, PRIMARY KEY (deal, idx));
CREATE TABLE IF NOT EXISTS teachers (
    class TEXT NOT NULL REFERENCES classes(code), token_hash TEXT NOT NULL UNIQUE,
    created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS results (
    class TEXT NOT NULL REFERENCES classes(code), learner INTEGER NOT NULL
    REFERENCES learners(id), id TEXT NOT NULL, kind TEXT NOT NULL, item TEXT NOT NULL,
    answer TEXT NOT NULL, right INTEGER NOT NULL, attempt INTEGER NOT NULL, seconds REAL,
    at REAL NOT NULL, received REAL NOT NULL, title TEXT, PRIMARY KEY (class, learner, id));
CREATE INDEX IF NOT EXISTS results_by_item ON results (class, learner, kind, item, attempt);
"""
# issue 25's stand-in for the results table (never written): replaced when a file has it
OLD_RESULTS = {"id", "class", "learner", "item", "value", "time"}

SYNCHRONOUS = ("OFF", "NORMAL", "FULL")
CHECKPOINT_EVERY = 1.0      # seconds between a served class's checkpoints (Store.checkpoint_apart)
log = logging.getLogger("courtlearn.classroom")


def token_hash(token: str) -> str:
    """The only form in which a seat token is kept: its SHA-256, hex.

    >>> len(token_hash("abc"))
    64
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Store:
    """One SQLite file holding any number of classes (each under its class code).

    path: a file name (or ":memory:" for a throwaway store). synchronous: SQLite's
    PRAGMA in WAL mode: "NORMAL" (default: a commit survives the process being killed,
    the last ones may be lost only to a power cut) or "FULL" (survives a power cut too;
    every commit waits for the disk).
    """

    def __init__(self, path, synchronous: str = "NORMAL", readonly: bool = False):
        if str(synchronous).upper() not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}; "
                             f"got {str(synchronous)[:20]!r}")
        self.path = str(path)
        self.readonly = bool(readonly)
        self.commits = 0
        self.failed = None                   # the error of a write the disk refused
        self._lock = None
        self._checkpointer = None            # (thread, stop) once checkpoints run apart
        self.db = None
        if self.readonly:                    # reading a class's file after class
            uri = pathlib.Path(self.path).resolve().as_uri() + "?mode=ro"
            self.db = sqlite3.connect(uri, uri=True, isolation_level=None,
                                      check_same_thread=False)
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA busy_timeout=5000")
            return
        if self.path != ":memory:":
            _check_file(self.path)           # before SQLite maps anything (-shm: SIGBUS)
            self._lock = _lock(self.path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute(f"PRAGMA synchronous={str(synchronous).upper()}")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.execute("PRAGMA busy_timeout=5000")
            self._replace_old_results()
            self.db.executescript(SCHEMA)
            self._title_results()
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)",
                            (str(SCHEMA_VERSION),))
        except sqlite3.Error as err:
            self._unlock()
            if self.db is not None:
                self.db.close()
                self.db = None
            raise ClassFileError(_why(self.path, err)) from None

    def _unlock(self) -> None:
        if self._lock is not None:
            _unlock(self.path, self._lock)
            self._lock = None

    def _replace_old_results(self) -> None:
        """A file from before the results (issue 25's stand-in table, never written) gets
        the results table of now; one that somehow holds rows keeps them as results_v1."""
        cols = {r[1] for r in self.db.execute("PRAGMA table_info(results)")}
        if cols != OLD_RESULTS:
            return
        rows = self.db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        self.db.execute("DROP TABLE results" if rows == 0
                        else "ALTER TABLE results RENAME TO results_v1")

    # ------------------------------------------------------------------ transactions
    def _write(self, sql: str, args=()) -> sqlite3.Cursor:
        try:
            if not self.db.in_transaction:
                self.db.execute("BEGIN")
            return self.db.execute(sql, args)
        except sqlite3.OperationalError as err:     # the disk refused: the commit will too
            self.failed = err
            raise

    @property
    def pending(self) -> bool:
        """Whether writes are waiting for :meth:`commit`."""
        return self.db.in_transaction

    def commit(self) -> None:
        """Make every write so far durable (the server acknowledges after this)."""
        if self.failed is not None:
            raise self.failed
        if self.db.in_transaction:
            self.db.execute("COMMIT")
            self.commits += 1

    def rollback(self) -> None:
        self.failed = None
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")

    def checkpoint_apart(self, every: float = CHECKPOINT_EVERY) -> bool:
        """Copy the write-ahead log into the file from a thread of its own, every ``every``
        seconds, instead of in the commit that finds the log past SQLite's 1,000 pages: a
        served class commits in its event loop, and that commit held the loop 13-17 ms
        about once a second at a school's pace (issue 29, Speed). A passive checkpoint
        waits for nobody and the commits go on meanwhile (SQLite lets the thread go while
        it works); :meth:`close` stops the thread, then the last connection's close
        checkpoints what is left. Returns whether the thread runs (not for a read-only or
        in-memory store)."""
        if self.readonly or self.path == ":memory:" or self.db is None:
            return False
        if self._checkpointer is not None:
            return True
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        stop = threading.Event()
        path = self.path

        def run():
            failed = None
            try:
                db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            except sqlite3.Error as err:
                log.warning("the class file %s: no checkpoints apart (%s)", path, err)
                return
            try:
                while not stop.wait(every):
                    try:
                        db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                        failed = None
                    except sqlite3.Error as err:         # said once, until one works again
                        if failed is None:
                            log.warning("the class file %s: a checkpoint failed (%s)",
                                        path, err)
                        failed = err
            finally:
                db.close()
        thread = threading.Thread(target=run, name="courtlearn-checkpoint", daemon=True)
        self._checkpointer = (thread, stop)
        thread.start()
        return True

    def _stop_checkpoints(self) -> None:
        if self._checkpointer is None:
            return
        thread, stop = self._checkpointer
        self._checkpointer = None
        stop.set()
        thread.join(timeout=10)

    def close(self) -> None:
        """Commit what is pending and close the file (a second call does nothing)."""
        self._stop_checkpoints()
        if self.db is None:
            self._unlock()
            return
        try:
            self.commit()
        except sqlite3.Error:                # a disk that refuses: what was saved stays
            self.rollback()
        finally:
            self.db.close()
            self.db = None
            self._unlock()

    # ------------------------------------------------------------------ classes
    def create_class(self, code: str, language: str, settings: dict) -> None:
        self._write("INSERT INTO classes VALUES (?, ?, ?, ?)",
                    (code, language, json.dumps(settings), time.time()))

    def class_row(self, code: str) -> dict | None:
        row = self.db.execute("SELECT * FROM classes WHERE code = ?", (code,)).fetchone()
        if row is None:
            return None
        out = dict(row)
        out["settings"] = json.loads(out["settings"])
        return out

    def class_codes(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT code FROM classes ORDER BY created")]

    def set_settings(self, code: str, settings: dict) -> None:
        self._write("UPDATE classes SET settings = ? WHERE code = ?", (json.dumps(settings), code))

    # ------------------------------------------------------------------ the teacher
    def add_teacher_token(self, code: str, token_hash: str) -> None:
        """Keep the hash of a teacher token of class ``code`` (never the token itself)."""
        self._write("INSERT INTO teachers VALUES (?, ?, ?)", (code, token_hash, time.time()))

    def teacher_tokens(self, code: str) -> list[str]:
        """The hashes of the class's teacher tokens still valid, oldest first."""
        return [r[0] for r in self.db.execute(
            "SELECT token_hash FROM teachers WHERE class = ? ORDER BY rowid", (code,))]

    def clear_teacher_tokens(self, code: str) -> None:
        """Every teacher token of the class stops working."""
        self._write("DELETE FROM teachers WHERE class = ?", (code,))

    # ------------------------------------------------------------------ learners
    def add_learner(self, code: str, token_hash: str, name: str, hub_user=None) -> int:
        cur = self._write("INSERT INTO learners (class, token_hash, name, hub_user, created) "
                          "VALUES (?, ?, ?, ?, ?)", (code, token_hash, name, hub_user, time.time()))
        return cur.lastrowid

    def learners(self, code: str) -> list[dict]:
        return [dict(r) for r in self.db.execute(
            "SELECT id, token_hash, name, hub_user, removed FROM learners WHERE class = ? "
            "ORDER BY id", (code,))]

    def remove_learner(self, learner_id: int) -> None:
        self._write("UPDATE learners SET removed = 1 WHERE id = ?", (learner_id,))

    def readmit_learner(self, learner_id: int) -> None:
        self._write("UPDATE learners SET removed = 0 WHERE id = ?", (learner_id,))

    def renew_learner(self, learner_id: int, token_hash: str) -> None:
        """A removed learner joins again: their new token's hash, and in the class again."""
        self._write("UPDATE learners SET token_hash = ?, removed = 0 WHERE id = ?",
                    (token_hash, learner_id))

    # ------------------------------------------------------------------ tables and seats
    def add_table(self, code: str, number: int, rules: dict, seed: int, first_dealer: int) -> int:
        cur = self._write("INSERT INTO tables (class, number, rules, seed, first_dealer) "
                          "VALUES (?, ?, ?, ?, ?)",
                          (code, number, json.dumps(rules), seed, first_dealer))
        return cur.lastrowid

    def tables(self, code: str) -> list[dict]:
        out = []
        for r in self.db.execute("SELECT * FROM tables WHERE class = ? ORDER BY number", (code,)):
            d = dict(r)
            d["rules"] = json.loads(d["rules"])
            out.append(d)
        return out

    def set_seat(self, table_id: int, seat: int, learner_id: int | None) -> None:
        self._write("INSERT OR REPLACE INTO seats VALUES (?, ?, ?)", (table_id, seat, learner_id))

    def seats(self, table_id: int) -> dict[int, int | None]:
        return {r[0]: r[1] for r in self.db.execute(
            "SELECT seat, learner FROM seats WHERE table_id = ?", (table_id,))}

    # ------------------------------------------------------------------ deals and actions
    def add_deal(self, table_id: int, number: int, spec: dict, batch: int | None = None) -> int:
        cur = self._write("INSERT INTO deals (table_id, number, spec, batch, started) "
                          "VALUES (?, ?, ?, ?, ?)",
                          (table_id, number, json.dumps(spec), batch, time.time()))
        return cur.lastrowid

    def deals(self, table_id: int) -> list[dict]:
        out = []
        for r in self.db.execute("SELECT * FROM deals WHERE table_id = ? ORDER BY number",
                                 (table_id,)):
            d = dict(r)
            d["spec"] = json.loads(d["spec"])
            out.append(d)
        return out

    def add_actions(self, deal_id: int, rows) -> None:
        """rows: (index in deal.actions, token, seat, by, time); by is "learner", "bot" or
        "teacher"."""
        if not self.db.in_transaction:
            self.db.execute("BEGIN")
        self.db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)",
                            [(deal_id, *row) for row in rows])

    def actions(self, deal_id: int) -> list[str]:
        return [r[0] for r in self.db.execute(
            "SELECT token FROM actions WHERE deal = ? ORDER BY idx", (deal_id,))]

    def action_rows(self, deal_id: int) -> list[dict]:
        return [dict(r) for r in self.db.execute(
            "SELECT idx, token, seat, by, time FROM actions WHERE deal = ? ORDER BY idx",
            (deal_id,))]

    # ------------------------------------------------------------------ results (issue 26)
    def add_result(self, code: str, learner_id: int, row: dict) -> bool:
        """Keep one result (``row``: id, kind, item, answer (JSON text), right, attempt,
        seconds, at, received, title: what the dashboard shows of it); False when the
        learner's result of that id is there already (a resend: nothing changes)."""
        cur = self._write(
            "INSERT OR IGNORE INTO results (class, learner, id, kind, item, answer, right, "
            "attempt, seconds, at, received, title) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (code, learner_id, row["id"], row["kind"], row["item"], row["answer"],
             int(bool(row["right"])), row["attempt"], row["seconds"], row["at"],
             row["received"], row.get("title")))
        return cur.rowcount == 1

    def result(self, code: str, learner_id: int, result_id: str) -> dict | None:
        row = self.db.execute("SELECT * FROM results WHERE class = ? AND learner = ? AND id = ?",
                              (code, learner_id, result_id)).fetchone()
        return dict(row) if row is not None else None

    def results(self, code: str, learner_id: int | None = None) -> list[dict]:
        """The class's results (one learner's, with ``learner_id``) in the order they were
        stored. A file from before the results holds none."""
        if not self._has_results():
            return []
        sql, args = "SELECT * FROM results WHERE class = ?", [code]
        if learner_id is not None:
            sql += " AND learner = ?"
            args.append(learner_id)
        return [dict(r) for r in self.db.execute(sql + " ORDER BY received, rowid", args)]

    def _title_results(self) -> None:
        """A file from before the results' titles (schema 2) gets the column; the room
        fills it for the rows there (:meth:`untitled_results`, :meth:`set_result_titles`)."""
        cols = {r[1] for r in self.db.execute("PRAGMA table_info(results)")}
        if "attempt" in cols and "title" not in cols:
            self.db.execute("ALTER TABLE results ADD COLUMN title TEXT")

    def untitled_results(self, code: str) -> list[tuple]:
        """(rowid, kind, item) of the class's results stored without a title."""
        if not self._has_results() or self.readonly:
            return []
        return [tuple(r) for r in self.db.execute(
            "SELECT rowid, kind, item FROM results WHERE class = ? AND title IS NULL",
            (code,))]

    def set_result_titles(self, titles) -> None:
        """``titles``: (title, rowid) pairs."""
        if not self.db.in_transaction:
            self.db.execute("BEGIN")
        self.db.executemany("UPDATE results SET title = ? WHERE rowid = ?", list(titles))

    def _has_results(self) -> bool:
        cols = {r[1] for r in self.db.execute("PRAGMA table_info(results)")}
        return "attempt" in cols

    def next_batch(self) -> int:
        row = self.db.execute("SELECT MAX(batch) FROM deals").fetchone()
        return (row[0] or 0) + 1


# ----------------------------------------------------------------------------- the file
def _check_file(path: str) -> None:
    """Refuse, with a sentence, a class file SQLite would fail on or crash on: a folder,
    a file that cannot be written, its -wal or -shm that cannot be (SQLite maps -shm: a
    file it cannot grow kills the process with SIGBUS), a disk with no room."""
    p = pathlib.Path(path)
    folder = p.parent if str(p.parent) else pathlib.Path(".")
    if p.is_dir():
        raise ClassFileError(f"{path} is a folder, not a class file: give a file name "
                             f"(e.g. {p / 'class.sqlite'})")
    if not folder.is_dir():
        raise ClassFileError(f"the folder of the class file {path} does not exist: make it "
                             f"first, or give another path")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ClassFileError(f"the class file's folder {folder} cannot be written (SQLite "
                             f"keeps its -wal and -shm files beside {p.name}): choose a "
                             f"folder you can write")
    for f in (p, pathlib.Path(path + "-wal"), pathlib.Path(path + "-shm")):
        if f.exists() and (not f.is_file() or not os.access(f, os.R_OK | os.W_OK)):
            raise ClassFileError(f"{f} cannot be read and written by this process: change "
                                 f"its owner or permissions (a class file and its -wal and "
                                 f"-shm files belong to whoever runs the class)")
    try:
        st = os.statvfs(folder)
        free = st.f_bavail * st.f_frsize
    except (OSError, AttributeError):
        free = MIN_FREE
    if free < MIN_FREE:
        raise ClassFileError(f"the disk of {path} is full ({free // 1024} KiB free): free some "
                             f"space before the class starts")


def _why(path: str, err) -> str:
    text = str(err)
    if "not a database" in text or "malformed" in text:
        return (f"{path} is not a class file (SQLite says: {text}): give the file a class "
                f"was saved in, or a new name for a new class")
    if "readonly" in text or "read-only" in text:
        return f"{path} cannot be written (SQLite says: {text}): check its permissions"
    if "full" in text:
        return f"the disk of {path} is full (SQLite says: {text}): free some space"
    return f"{path} cannot be opened as a class file (SQLite says: {text})"


def _lock(path: str):
    """One server per class file: an exclusive lock (fcntl.flock) on ``<file>.lock``, which
    holds the pid of its holder; ClassFileError naming the file and the holder when
    another process (or this one) holds it."""
    try:
        import fcntl
    except ImportError:                       # no flock here (Windows): no lock
        return None
    real = os.path.realpath(path)
    if real in _LOCKED:
        raise ClassFileError(f"this process (pid {os.getpid()}) serves the class file {path} "
                             f"already: close that class first (room.close())")
    lockname = real + ".lock"
    try:
        fd = os.open(lockname, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as err:
        raise ClassFileError(f"the lock file {lockname} cannot be made ({err.strerror}): "
                             f"choose a folder you can write") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        try:
            holder = os.pread(fd, 200, 0).decode("utf-8", "replace").split()
        except OSError:
            holder = []
        os.close(fd)
        who = f"process {holder[0]}" if holder and holder[0].isdigit() else "another process"
        raise ClassFileError(f"another class server ({who}) is using the class file {path}: "
                             f"stop it first, or give this class another file") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    _LOCKED[real] = fd
    return fd


def _unlock(path: str, fd) -> None:
    real = os.path.realpath(path)
    if _LOCKED.get(real) == fd:
        del _LOCKED[real]
    try:
        os.close(fd)                          # closing the file releases the lock
    except OSError:
        pass
