"""The teacher's dashboard: every table live, and the buttons that steer the class.

One :class:`DashboardCore` reads the :class:`~courtlearn.classroom.room.Room` into a
JSON state (who sits where and whether connected, the deal's stage, the trick, tricks,
courts, the same deal's results side by side) and takes what the dashboard's page asks
(``{"type": "pause", "id": 3}``, ``{"type": "move", "learner": 7, "table": 1, "seat":
2, "id": 4}``, ...): checked like a card table's intents, then carried out by a Room
method (the dashboard has no rule of its own), or refused with a sentence that changes
nothing. Two things move that state to a page, both drawing ``static/dashboard.js``:

* :class:`Dashboard` (an anywidget; ``room.dashboard()`` puts it in a
  :class:`DashboardApp` with a place for the projector) in the teacher's notebook;
* :class:`TeacherDesk`, the class server's side of the teacher page (``/teacher``,
  behind the teacher's token), over a WebSocket.

Both follow the room through its ``on_change`` hooks (called after every commit in the
kernel's event loop), at most once every ``interval`` seconds (:class:`Throttle`).

>>> from courtlearn.classroom.room import Room
>>> from courtlearn.classroom.store import Store
>>> room = Room.create(Store(":memory:"), code="ABC234", tables=2, seed=1)
>>> core = DashboardCore(room)
>>> [t["phase"] for t in core.state()["tables"]]
['trump', 'trump']
>>> core.handle({"type": "pause", "id": 1}), room.paused
(None, True)
>>> try:
...     core.handle({"type": "to_bot", "table": 9, "seat": 0, "id": 2})
... except Refusal as err:
...     print(err)
There is no such table.
"""
from __future__ import annotations

import asyncio
import functools
import json
import logging
import math
import pathlib
import time

from courtlearn.language import language_code, plural_forms, text_direction, tr, using

from .room import Refusal, Room

__all__ = ["DashboardCore", "TeacherDesk", "Throttle", "Dashboard", "DashboardApp",
           "dashboard_words", "INTERVAL"]

log = logging.getLogger("courtlearn.classroom")

STATIC = pathlib.Path(__file__).parent / "static"
INTERVAL = 0.3              # seconds: a dashboard is redrawn at most this often
MAX_TABLES = 1000           # "make tables" stops here
MAX_SEED = 2 ** 53 - 1      # a seed the page's numbers hold exactly
# what each of the dashboard page's messages may carry besides "type" and "id"
MESSAGES = {"pause": (), "resume": (), "new_deal": (), "add_table": (),
            "same_deal": ("seed",), "move": ("learner", "table", "seat"),
            "to_bot": ("table", "seat"), "remove": ("learner",), "project": ("table",),
            "hide_names": ("on",), "results_csv": (), "page": ("part", "page")}
TABLES_PAGE = 24            # tables on one page of the dashboard
LOBBY_PAGE = 60             # learners without a seat on one page
FREE_SEATS = 200            # free seats offered by the Move lists at most
PARTS = ("tables", "lobby", "results")      # what comes a page at a time


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _page(items: list, page, size: int) -> tuple[dict, list]:
    """({"page", "pages", "total", "size"}, the items of page ``page``): a page past the
    last shows the last."""
    total = len(items)
    pages = max(1, -(-total // size))
    page = min(max(0, page if _whole(page) else 0), pages - 1)
    return ({"page": page, "pages": pages, "total": total, "size": size},
            items[page * size:(page + 1) * size])


@functools.lru_cache(maxsize=8)
def _words(language: str) -> dict:
    with using(language):
        return dashboard_words()


def _cut(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


def dashboard_words() -> dict[str, str]:
    """The dashboard's labels and buttons in the current language (``{n}`` parts are
    filled in by dashboard.js)."""
    return {
        "title": tr("The class"), "code": tr("Class code"), "join": tr("Join at"),
        "pause_all": tr("Pause every table"), "resume_all": tr("Resume every table"),
        "paused": tr("The teacher has paused the tables."),
        "new_deal_all": tr("New deal at every table"),
        "same_deal": tr("Same deal at every table"), "seed": tr("Seed"),
        "add_table": tr("Add a table"), "table": tr("Table {n}"), "deal": tr("Deal {n}"),
        "same": tr("same deal {n}"), "tricks": tr("Tricks"), "tens": tr("Tens"),
        "courts": tr("Courts"), "trump": tr("Trump:"), "to_act": tr("{seat} to act"),
        "project": tr("Projector"), "move": tr("Move"), "move_to": tr("Move to…"),
        "free_seat": tr("Table {n}: {place}"), "to_bot": tr("Hand to a bot"),
        "remove": tr("Remove"), "remove_sure": tr("Remove? Click again"),
        "here": tr("here"), "away": tr("away"), "bot": tr("a bot plays"), "empty": tr("bot"),
        "lobby": tr("Learners without a seat"), "nobody": tr("Nobody is waiting for a seat."),
        "compare": tr("The same deal, table by table"), "playing": tr("still playing"),
        "done": tr("Done."),
        "results": tr("Results"), "hide_names": tr("Hide names"),
        "csv": tr("Download the results (CSV)"), "learner": tr("Learner"),
        "now_at": tr("Now at"), "no_results": tr("No results yet: learners join from their "
                                                 "notebooks with cl.classroom.join."),
        "stuck_tries": tr("stuck: {n} tries"),
        "shown": tr("{first}–{last} of {n}"), "previous": tr("Previous page"),
        "next": tr("Next page"),
        "solved": tr("solved"), "tries": list(plural_forms("{n} try", "{n} tries")),
        "hardest": tr("Most of the class got these wrong"),
        "wrong_share": tr("{wrong} of {tried} not right at the first try"),
        # asked before a new deal puts away the cards of a deal under way (dashboard.js)
        "mid_deal": list(plural_forms(
            "Table {tables} is in the middle of a deal: a new deal puts its cards away.",
            "Tables {tables} are in the middle of a deal: a new deal puts their cards away.")),
        "deal_anyway": tr("Deal anew anyway"), "cancel": tr("Cancel"),
    }


# ----------------------------------------------------------------------------- throttling
class Throttle:
    """A room's ``on_change`` hook that calls ``fn()`` after a change, at most once every
    ``interval`` seconds, in ``loop`` (None: at once). Changes in between are gathered
    into the next call. A failure of ``fn`` is logged, never raised into the room."""

    def __init__(self, fn, interval: float = INTERVAL, loop=None, clock=time.monotonic):
        if isinstance(interval, bool) or not isinstance(interval, (int, float)) or \
                not 0 <= interval <= 60:
            raise ValueError(f"interval is a number of seconds 0..60; got {interval!r}")
        self.fn, self.interval, self.loop, self.clock = fn, float(interval), loop, clock
        self.last = -math.inf
        self.handle = None
        self.closed = False
        self.calls = 0

    def __call__(self, *_room) -> None:
        if self.closed or self.handle is not None:
            return
        if self.loop is None:
            self._run()
            return
        wait = max(0.0, self.last + self.interval - self.clock())
        self.handle = self.loop.call_later(wait, self._run)

    def _run(self) -> None:
        self.handle = None
        if self.closed:
            return
        self.last = self.clock()
        self.calls += 1
        try:
            self.fn()
        except Exception:
            log.exception("a dashboard could not follow the class")

    def close(self) -> None:
        self.closed = True
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None


def follow(room: Room, fn, interval: float = INTERVAL) -> Throttle:
    """Call ``fn()`` after the room changes (at most every ``interval`` seconds);
    ``.close()`` the Throttle returned to stop."""
    hook = Throttle(fn, interval, room.loop)
    room.on_change.append(hook)
    return hook


def unfollow(room: Room, hook: Throttle) -> None:
    hook.close()
    if hook in room.on_change:
        room.on_change.remove(hook)


# ----------------------------------------------------------------------------- the core
class DashboardCore:
    """The dashboard without a page: :meth:`state` (JSON for dashboard.js) and
    :meth:`handle` (the page's requests, carried out by the Room's methods).

    language: the dashboard's words ("en", "ur", "hi"; None: the class's language).
    """

    def __init__(self, room: Room, language: str | None = None):
        if not isinstance(room, Room):
            raise TypeError("a dashboard shows a courtlearn classroom Room")
        self.room = room
        self.language = language_code(language) if language is not None else room.language
        self.pages = {"tables": 0, "lobby": 0, "results": 0}   # the page on show of each
        self._tables: dict = {}          # table number -> (its key, its card, the Table)
        self._ordered = None             # (key, the results' learners in order)
        self._addr = None                # (when, the join addresses)

    # ------------------------------------------------------------------ the state
    def state(self, pages: dict | None = None) -> dict:
        """Everything the dashboard draws, as JSON-ready data (names as plain text: the
        page puts them in with textContent). It is bounded whatever the class's size (a
        class of thousands once outgrew the teacher socket's buffer, issue 29): the
        tables, the learners without a seat and the results' learners come a page at a
        time (``pages``: {"tables": n, "lobby": n, "results": n}, counted from 0; None:
        this dashboard's own, which the page's "page" requests set), each with
        ``{"page", "pages", "total", "size"}`` beside it; ``free`` lists free seats of
        every table (the first :data:`FREE_SEATS`), ``busy_tables`` the tables in the
        middle of a deal. Nothing here builds a question or judges anything: the results
        part is read from the tally, which holds what was stored."""
        room = self.room
        pages = {**self.pages, **(pages or {})}
        with using(self.language):
            hidden = room.names_hidden
            alias = room.aliases() if hidden else None
            tpage, tables_on = _page(room.tables, pages["tables"], TABLES_PAGE)
            tables = [self._table(t, alias) for t in tables_on]
            waiting, removed = [], 0
            for lr in room.learners.values():
                if lr.removed:
                    removed += 1
                elif lr.table is None:
                    waiting.append(lr)
            lpage, lobby_on = _page(waiting, pages["lobby"], LOBBY_PAGE)
            lobby = [{"learner": lr.id, "name": alias[lr.id] if hidden else lr.name,
                      "connected": lr.connected} for lr in lobby_on]
            free, busy = [], []
            for t in room.tables:
                if t.deal.phase != "over" and len(t.deal.actions) > 0:
                    busy.append(t.number)
                if len(free) < FREE_SEATS:
                    names = None
                    for seat, st in enumerate(t.seats):
                        if st.learner is None and len(free) < FREE_SEATS:
                            names = names or t.rules.seat_names()
                            free.append([t.number, seat, names[seat]])
            out = {"code": room.code, "paused": room.paused, "lang": self.language,
                   "dir": text_direction(self.language), "words": _words(self.language),
                   "addresses": self._addresses(), "tables": tables, "table_page": tpage,
                   "lobby": lobby, "lobby_page": lpage, "free": free, "busy_tables": busy,
                   "compare": self._compare(tables), "hide_names": hidden}
            out["results"] = room.tally.state(self._order(alias, removed),
                                              page=pages["results"])
        return out

    def _order(self, alias, removed: int) -> list:
        """(learner id, name shown) of every learner of the class, in the grid's order: by
        name (by number while names are hidden). Sorted again only when the class changed
        (``removed``: how many learners are removed now)."""
        room = self.room
        key = (len(room.learners), removed, alias is not None, self.language)
        if self._ordered is None or self._ordered[0] != key:
            shown = [lr for lr in room.learners.values() if not lr.removed]
            if alias is not None:
                order = sorted(((lr.id, alias[lr.id]) for lr in shown), key=lambda x: x[0])
            else:
                order = sorted(((lr.id, lr.name) for lr in shown),
                               key=lambda x: (x[1].casefold(), x[0]))
            self._ordered = (key, order)
        return self._ordered[1]

    def _addresses(self) -> list:
        """The join addresses (looked up once a minute: it asks the system)."""
        server = self.room.server
        if server is None:
            return []
        now = time.monotonic()
        if self._addr is None or now - self._addr[0] > 60:
            self._addr = (now, server.addresses())
        return self._addr[1]

    def _table(self, t, alias: dict | None = None) -> dict:
        """One table's card (built again only when the table changed: its deal, its moves,
        who sits there and whether they are connected); ``alias``: the names hidden."""
        key = (t.deal_id, len(t.deal.actions), t.batch, alias is not None, self.language,
               tuple((st.learner.id, st.status()) if st.learner is not None else None
                     for st in t.seats))
        got = self._tables.get(t.number)
        if got is not None and got[0] == key and got[2] is t:
            return got[1]
        out = self._build_table(t, alias)
        self._tables[t.number] = (key, out, t)
        return out

    def _build_table(self, t, alias) -> dict:
        deal, rules = t.deal, t.rules
        score = t.host.core.score
        seat_names = rules.seat_names()
        actor = deal.actor
        phase = str(deal.phase)
        result = None
        if phase == "over" and deal.result is not None:
            from courtlearn.widgets.core import result_sentence
            result = result_sentence(deal)
        if phase == "play":
            stage = tr("trick {n} of 13", n=len(deal.tricks) + 1)
        elif phase == "trump":
            stage = tr("fixing the trump")
        else:
            stage = tr("deal over")
        return {
            "table": t.number, "game": rules.game, "title": rules.title,
            "deal": t.deal_number + 1, "batch": t.batch, "phase": phase, "stage": stage,
            "actions": len(deal.actions),
            "to_act": -1 if actor is None else actor,
            "to_act_name": None if actor is None else seat_names[actor],
            "trump": deal.trump.letter if deal.trump is not None else None,
            "trick": [{"seat": s, "card": c.code} for s, c in deal.trick.cards],
            "teams": [rules.team_name(0), rules.team_name(1)],
            "tricks": list(deal.tricks_won),
            "tens": list(deal.tens_won) if rules.game == "dehla_pakad" else None,
            "courts": list(score.courts) if score is not None else [0, 0],
            "result": result,
            "seats": [{"seat": s, "place": seat_names[s],
                       "name": None if st.learner is None else
                       alias.get(st.learner.id, st.learner.name) if alias else st.learner.name,
                       "learner": st.learner.id if st.learner is not None else None,
                       "status": st.status(),
                       "connected": None if st.learner is None else bool(st.learner.conns)}
                      for s, st in enumerate(t.seats)],
        }

    @staticmethod
    def _compare(tables: list[dict]) -> dict | None:
        """The latest same deal (the highest batch on the tables now), table by table."""
        batches = [t["batch"] for t in tables if t["batch"] is not None]
        if not batches:
            return None
        batch = max(batches)
        rows = [{"table": t["table"], "phase": t["phase"], "result": t["result"],
                 "tricks": t["tricks"], "tens": t["tens"], "teams": t["teams"],
                 "players": [s["name"] for s in t["seats"]]}
                for t in tables if t["batch"] == batch]
        return {"batch": batch, "rows": rows}

    # ------------------------------------------------------------------ requests
    def handle(self, content):
        """Carry out one request of the dashboard's page through the Room, or raise
        :class:`Refusal` with the sentence (nothing changed). Returns None, or
        ``("project", table)`` for the page's own projector to open."""
        with using(self.language):
            kind, args = self.parse(content)
            try:
                return self._do(kind, args)
            except Refusal:
                raise
            except (ValueError, TypeError) as err:     # a Room method's own refusal
                raise Refusal(_cut(str(err))) from None

    def parse(self, content) -> tuple[str, dict]:
        """(kind, arguments) of a page's message, every field checked; else Refusal."""
        room = self.room
        if not isinstance(content, dict) or content.get("type") not in MESSAGES:
            raise Refusal(tr("The dashboard ignored a message it does not understand; "
                             "nothing changed."))
        kind = content["type"]
        wanted = MESSAGES[kind]
        rid = content.get("id")
        if (set(content) - {"type", "id", *wanted} or any(k not in content for k in wanted)
                or ("id" in content and not _whole(rid))):
            raise Refusal(tr("The dashboard ignored a message it does not understand; "
                             "nothing changed."))
        args = {k: content[k] for k in wanted}
        if "table" in args and not (_whole(args["table"])
                                    and 0 <= args["table"] < len(room.tables)):
            raise Refusal(tr("There is no such table."))
        if "seat" in args and not (_whole(args["seat"]) and 0 <= args["seat"] <= 3):
            raise Refusal(tr("A table has seats 0 to 3."))
        if "learner" in args:
            lr = room.learners.get(args["learner"]) if _whole(args["learner"]) else None
            if lr is None or lr.removed:
                raise Refusal(tr("There is no such learner in the class."))
            args["learner"] = lr
        if "on" in args and not isinstance(args["on"], bool):
            raise Refusal(tr("The dashboard ignored a message it does not understand; "
                             "nothing changed."))
        if "part" in args and (args["part"] not in PARTS or not _whole(args["page"])
                               or not 0 <= args["page"] <= 10 ** 6):
            raise Refusal(tr("The dashboard ignored a message it does not understand; "
                             "nothing changed."))
        if "seed" in args and not (_whole(args["seed"]) and 0 <= args["seed"] <= MAX_SEED):
            raise Refusal(tr("A seed is a whole number from 0 to {n}.", n=MAX_SEED))
        return kind, args

    def _do(self, kind: str, args: dict):
        room = self.room
        if kind == "pause":
            room.pause()
        elif kind == "resume":
            room.resume()
        elif kind == "new_deal":           # the page asked first when a deal is under way
            room.new_deal(abandon=True)
        elif kind == "same_deal":
            room.same_deal(seed=args["seed"], abandon=True)
        elif kind == "add_table":
            if len(room.tables) >= MAX_TABLES:
                raise Refusal(tr("A class has at most {n} tables.", n=MAX_TABLES))
            room.add_tables(1, rules=room.tables[-1].rules if room.tables else None)
        elif kind == "move":
            lr, table, seat = args["learner"], args["table"], args["seat"]
            holder = room.tables[table].seats[seat].learner
            if holder is not None and holder is not lr:
                raise Refusal(tr("That seat is taken: choose a free one."))
            room.move(lr, table, seat)
        elif kind == "to_bot":
            if room.tables[args["table"]].seats[args["seat"]].learner is None:
                raise Refusal(tr("A bot plays that seat already."))
            room.to_bot(args["table"], args["seat"])
        elif kind == "remove":
            room.remove(args["learner"])
        elif kind == "project":
            return ("project", args["table"])
        elif kind == "page":
            self.pages[args["part"]] = args["page"]
            return ("page", args["part"], args["page"])
        elif kind == "hide_names":
            room.hide_names(args["on"])
        elif kind == "results_csv":
            return ("csv", {"csv": room.results().to_csv(index=False),
                            "filename": f"class-{room.code}-results.csv"})
        return None


def reply(rid, ok: bool, reason: str | None = None) -> dict | None:
    """The answer to a request with an id (None without one), as a card table answers."""
    if not _whole(rid):
        return None
    msg = {"reply_to": rid, "ok": ok}
    if reason is not None:
        msg["reason"] = reason
    return msg


def request_id(content):
    rid = content.get("id") if isinstance(content, dict) else None
    return rid if _whole(rid) else None


def answer(core: DashboardCore, content):
    """Run one request: (reply or None, what handle returned). Never raises: a failure of
    the dashboard's own code is logged and answered as a refusal. A request for the
    results' CSV gets it in its reply (``csv``, ``filename``)."""
    rid = request_id(content)
    try:
        out = core.handle(content)
    except Refusal as err:
        return reply(rid, False, str(err)), None
    except Exception as err:
        log.exception("the dashboard could not answer a message")
        with using(core.language):
            reason = tr("Something went wrong: {error}", error=_cut(str(err)))
        return reply(rid, False, reason), None
    msg = reply(rid, True)
    if out is not None and out[0] == "csv":
        if msg is not None:
            msg.update(out[1])
        out = None
    return msg, out


# ----------------------------------------------------------------------------- the teacher page
def _dumps(msg) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


class TeacherDesk:
    """The class server's side of the teacher pages: the dashboard's state to every
    teacher socket (the same JSON, built once per change and at most once every
    ``interval`` seconds), their requests to a :class:`DashboardCore`, and each page's
    projector (:class:`~courtlearn.classroom.projector.Projection`).

    Connections are objects with ``send(text)`` and ``close()`` (the server's teacher
    sockets, or a test's fakes). Nothing here is ever sent to a learner's socket.
    """

    def __init__(self, room: Room, interval: float = INTERVAL):
        self.room = room
        self.core = DashboardCore(room)
        self.interval = interval
        self.conns: list = []
        self.projections: dict = {}      # conn -> Projection
        self._hook: Throttle | None = None
        self.pages: dict = {}            # conn -> the pages it shows ({"tables": n, ...})
        self._last: dict = {}            # pages shown -> the state last built (no rev)
        self._sent: dict = {}            # conn -> the state last sent to it (no rev)
        self._revs: dict = {}            # pages shown -> the rev of its state
        self._waiting: dict = {}         # conn -> its projector requests not answered yet
        self.rev = 0

    # -- who is here
    def join(self, conn) -> None:
        """A teacher page proved its token: it gets the state now and every change."""
        if conn not in self.conns:
            self.conns.append(conn)
        self.pages.setdefault(conn, dict.fromkeys(PARTS, 0))
        if self._hook is None:
            self._hook = follow(self.room, self.push, self.interval)
        conn.send(_dumps({"type": "welcome", "code": self.room.code}))
        conn.send(self._state_for(conn, {}, force=True))

    def leave(self, conn) -> None:
        if conn in self.conns:
            self.conns.remove(conn)
        self.projections.pop(conn, None)
        self._waiting.pop(conn, None)
        self.pages.pop(conn, None)
        self._sent.pop(conn, None)
        if not self.conns and self._hook is not None:
            unfollow(self.room, self._hook)
            self._hook = None

    def revoke_all(self) -> None:
        """The teacher tokens changed: every teacher page is closed."""
        for conn in list(self.conns):
            self.leave(conn)
            try:
                conn.close()
            except Exception:
                pass

    # -- out
    def _state_for(self, conn, built: dict, force: bool = False) -> str | None:
        """The state message for ``conn``'s pages (None: it has it already, unless
        ``force``); ``built``: the states made in this round, by pages (pages that several
        teacher screens show are built once). Its size is bounded (DashboardCore.state)."""
        pages = self.pages.get(conn) or dict.fromkeys(PARTS, 0)
        key = tuple(sorted(pages.items()))
        got = built.get(key)
        if got is None:
            state = self.core.state(pages)
            body = _dumps(state)
            if body != self._last.get(key):
                self.rev += 1
                self._last[key] = body
                self._revs[key] = self.rev
            state["rev"] = self._revs[key]
            got = built[key] = (body, _dumps({"type": "state", "state": state}))
        body, text = got
        if not force and self._sent.get(conn) == body:
            return None
        self._sent[conn] = body
        return text

    def push(self) -> None:
        """Send what changed: the dashboard's state (when it did) to every page, and each
        page's projector picture (when its table moved)."""
        if self.room.closed or not self.conns:
            return
        built: dict = {}
        for conn in list(self.conns):
            text = self._state_for(conn, built)
            if text is not None:
                conn.send(text)
            proj = self.projections.get(conn)
            if proj is not None and proj.follow():
                self._projector_to(conn, proj)

    # -- in
    def intent(self, conn, content) -> None:
        """A request of the dashboard on a teacher page."""
        msg, out = answer(self.core, content)
        if out is not None and out[0] == "project":
            self._project(conn, out[1])
        if msg is not None:
            conn.send(_dumps({"type": "custom", "content": msg}))
        if out is not None and out[0] == "page":       # this screen's page: its state now
            self.pages.setdefault(conn, dict.fromkeys(PARTS, 0))[out[1]] = out[2]
            text = self._state_for(conn, {})
            if text is not None:
                conn.send(text)
        if self._hook is not None:
            self._hook()

    def projector(self, conn, content) -> None:
        """A request of the page's projector: its own controls (``show`` a table, which
        ``seat`` is at the bottom, ``replay`` a step of the deal, ``close``) or the
        table's (the review, Best play); anything else is refused with a sentence (the
        projector never plays a card). Answered like a table's intents. The review and the
        Best play marks are made off the loop first (Projection.prepare), one request of a
        page at a time."""
        loop = self.room.loop
        if loop is None or not loop.is_running():
            return self._projector_now(conn, content)
        waiting = self._waiting.setdefault(conn, [])
        waiting.append(content)
        if len(waiting) == 1:
            asyncio.ensure_future(self._projector_later(conn))

    async def _projector_later(self, conn) -> None:
        from courtlearn.widgets.core import Refused
        waiting = self._waiting.get(conn, [])
        while waiting:
            content = waiting[0]
            proj = self.projections.get(conn)
            prepared = None
            if proj is not None:
                try:
                    await proj.prepare(content)
                except (Refusal, Refused) as err:
                    prepared = err
                except Exception:
                    log.exception("the projector could not prepare a request")
            if conn in self.conns:
                self._projector_now(conn, content, prepared)
            waiting.pop(0)
        self._waiting.pop(conn, None)

    def _projector_now(self, conn, content, refused=None) -> None:
        from courtlearn.widgets.core import Refused
        rid = request_id(content)
        with using(self.core.language):
            try:
                if refused is not None:
                    raise refused
                said = self._projector(conn, content)
            except (Refusal, Refused) as err:
                ok, reason, said = False, str(err), (str(err), "error")
            except Exception as err:
                log.exception("the projector could not answer a message")
                ok, said = False, None
                reason = tr("Something went wrong: {error}", error=_cut(str(err)))
            else:
                ok, reason = True, None
            proj = self.projections.get(conn)
            if proj is not None and said is not None:
                self._projector_to(conn, proj, *said)
        msg = reply(rid, ok, reason)
        if msg is not None:
            conn.send(_dumps({"type": "projector_custom", "content": msg}))
        elif not ok:
            conn.send(_dumps({"type": "refused", "reason": reason}))

    def _projector(self, conn, content):
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "show":
            table = content.get("table")
            if set(content) - {"type", "id", "table"} or not _whole(table) or \
                    not 0 <= table < len(self.room.tables):
                raise Refusal(tr("There is no such table."))
            self._project(conn, table)
            return None
        proj = self.projections.get(conn)
        if proj is None:
            raise Refusal(tr("Open a table on the projector first."))
        if kind == "close" and set(content) <= {"type", "id"}:
            self.projections.pop(conn, None)
            conn.send(_dumps({"type": "projector_closed"}))
            return None
        return proj.control(content)

    def _project(self, conn, table: int) -> None:
        from .projector import Projection
        proj = Projection(self.room, table, language=self.core.language)
        self.projections[conn] = proj
        proj.follow()
        self._projector_to(conn, proj)

    def _projector_to(self, conn, proj, message=None, kind="info") -> None:
        """The projector's picture to ``conn`` (with Best play on, its marks are made off
        the loop first and the picture follows)."""
        loop = self.room.loop
        if proj.pending() and loop is not None and loop.is_running():
            asyncio.ensure_future(self._projector_to_later(conn, proj, message, kind))
            return
        conn.send(_dumps({"type": "projector_state", **proj.message(message, kind)}))

    async def _projector_to_later(self, conn, proj, message, kind) -> None:
        try:
            await proj.prepare()
        except Exception:                           # noqa: BLE001 (the marks are an extra)
            log.exception("the projector's Best play could not be made")
        if self.projections.get(conn) is proj and not self.room.closed:
            conn.send(_dumps({"type": "projector_state", **proj.message(message, kind)}))


# ----------------------------------------------------------------------------- the widgets
@functools.lru_cache(maxsize=None)
def _widgets() -> dict:
    """The widget classes, made on first use (the class server imports this module
    without loading anywidget or ipywidgets)."""
    import anywidget
    import ipywidgets
    import traitlets

    from courtlearn.widgets.esm import module_source

    class Dashboard(anywidget.AnyWidget):
        """The teacher's dashboard in the notebook: every table live, the class's buttons.
        The page's requests arrive as custom messages (like a CardTable's intents) and are
        answered ``{"reply_to": id, "ok": ..., "reason": ...}``."""

        _esm = module_source(STATIC / "dashboard.js")   # ./dom.js inline (widgets/esm.py)
        _css = STATIC / "dashboard.css"
        state = traitlets.Dict().tag(sync=True)

        def __init__(self, room: Room, language: str | None = None,
                     interval: float = INTERVAL, on_project=None, **kwargs):
            core = DashboardCore(room, language)
            super().__init__(**kwargs)
            self.core = core
            self.room = room
            self.on_project = on_project
            self._last = None
            self._rev = 0
            self.on_msg(self._on_msg)
            self.refresh()
            self._hook = follow(room, self.refresh, interval)

        def refresh(self) -> None:
            """Draw the class as it is now (when anything changed)."""
            if self.room.closed:
                return
            state = self.core.state()
            body = _dumps(state)
            if body == self._last:
                return
            self._last = body
            self._rev += 1
            state["rev"] = self._rev
            self.state = state

        def _on_msg(self, _widget, content, _buffers=None) -> None:
            msg, out = answer(self.core, content)
            if out is not None and out[0] == "project" and self.on_project is not None:
                try:
                    self.on_project(out[1])
                except Exception as err:
                    log.exception("the projector could not open")
                    with using(self.core.language):
                        msg = reply(request_id(content), False,
                                    tr("Something went wrong: {error}", error=_cut(str(err))))
            if msg is not None:
                self.send(msg)
            self._hook()

        def __repr__(self) -> str:
            return _repr(self.room, "Dashboard")

        def set_state(self, sync_data):
            """The page never changes the dashboard's state (it sends requests): an update
            of it from the page is ignored."""
            rest = {k: v for k, v in sync_data.items() if k != "state"}
            if rest:
                super().set_state(rest)

        def close(self):
            unfollow(self.room, self._hook)
            super().close()

    class DashboardApp(ipywidgets.VBox):
        """``room.dashboard()``: the :class:`Dashboard` (``.board``) and, below it, the
        projector of the table the teacher opened from it (``.projector``)."""

        def __init__(self, room: Room, language: str | None = None,
                     interval: float = INTERVAL):
            self.room = room
            self.board = Dashboard(room, language=language, interval=interval,
                                   on_project=self.project)
            self.stage = ipywidgets.VBox()
            self.projector = None
            super().__init__([self.board, self.stage])

        def __repr__(self) -> str:
            where = "" if self.projector is None else \
                f", projector at table {self.projector.projection.number + 1}"
            return _repr(self.room, "DashboardApp", where)

        def project(self, table: int):
            """Show ``table`` on the projector below the dashboard; returns the Projector."""
            from .projector import Projector
            if self.projector is not None:
                self.projector.close()
            self.projector = Projector(self.room, table, language=self.board.core.language)
            self.stage.children = (self.projector,)
            return self.projector

        def close(self):
            if self.projector is not None:
                self.projector.close()
            self.board.close()
            super().close()

    return {"Dashboard": Dashboard, "DashboardApp": DashboardApp}


def _repr(room: Room, kind: str, extra: str = "") -> str:
    """A dashboard's repr: what it shows, never a memory address (a notebook keeps it)."""
    return f"<{kind} of class {room.code}: {len(room.tables)} tables{extra}>"


def __getattr__(name):
    if name in ("Dashboard", "DashboardApp"):
        return _widgets()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
