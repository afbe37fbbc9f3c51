"""The teacher's side of a class (issue 25): the dashboard (the notebook's widget and the
teacher page over /teacher/ws), the projector, the history and same-deal frames, the
teacher's token. A real class server on 127.0.0.1 in the test's loop; simulated learners
(real WebSocket clients) play at its tables; every wait is bounded."""
from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
import time

import pytest

import courtlearn as cl
from courtlearn.classroom.dashboard import DashboardCore, Throttle
from courtlearn.classroom.room import Room
from courtlearn.classroom.simulated import ServerProcess, SimulatedLearner
from courtlearn.classroom.store import Store, token_hash

from classroom_helpers import CODE, address, class_server, get, seated, settle

websockets = pytest.importorskip("websockets")
pytest.importorskip("anywidget")
pytestmark = pytest.mark.timeout(180)


def run(coro):
    return asyncio.run(coro)


class Teacher:
    """A teacher page's socket, without the page: every message kept."""

    def __init__(self, server):
        self.url = f"ws://127.0.0.1:{server.port}/teacher/ws"
        self.origin = f"http://127.0.0.1:{server.port}"
        self.msgs: list[dict] = []
        self.ws = None
        self._changed = asyncio.Event()
        self._reader = None
        self._next = 1

    async def connect(self, query="", headers=None):
        self.ws = await asyncio.wait_for(websockets.connect(
            self.url + query, origin=self.origin, additional_headers=headers), 10)
        self._reader = asyncio.ensure_future(self._read())
        return self

    async def _read(self):
        try:
            async for text in self.ws:
                self.msgs.append(json.loads(text))
                self._changed.set()
        except Exception:
            pass
        finally:
            self._changed.set()

    async def send(self, msg):
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def wait_for(self, test, timeout=10.0):
        end = time.monotonic() + timeout
        while True:
            got = test()
            if got:
                return got
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the teacher page waited {timeout} s; last: {self.msgs[-3:]}")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except asyncio.TimeoutError:
                pass

    def of(self, kind):
        return [m for m in self.msgs if m.get("type") == kind]

    def state(self):
        states = self.of("state")
        return states[-1]["state"] if states else None

    async def ask(self, content, kind="msg", reply="custom"):
        """Send a request with an id and wait for its answer."""
        rid = self._next
        self._next += 1
        await self.send({"type": kind, "content": {**content, "id": rid}})
        return await self.wait_for(lambda: next((m["content"] for m in self.of(reply)
                                                 if m["content"].get("reply_to") == rid), None))

    async def close(self):
        await self.ws.close()
        await asyncio.gather(self._reader, return_exceptions=True)


def ask(board, content, rid=[0]):
    """What the dashboard's page sends (Dashboard._on_msg), and the reply it gets."""
    rid[0] += 1
    sent = []
    board.send = lambda msg, buffers=None: sent.append(msg)
    board._on_msg(board, {**content, "id": rid[0]} if isinstance(content, dict) else content, [])
    del board.send
    return sent[-1] if sent else None


def fingerprint(room):
    """Everything a dashboard request could change."""
    db = room.store.db
    counts = [db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
              for t in ("learners", "tables", "deals", "actions", "seats", "teachers")]
    seats = db.execute("SELECT * FROM seats ORDER BY table_id, seat").fetchall()
    return (json.dumps(room.overview()), json.dumps(room.settings, sort_keys=True),
            [(lr.id, lr.removed, lr.table.number if lr.table else None, lr.seat)
             for lr in room.learners.values()], counts, [tuple(r) for r in seats])


# ----------------------------------------------------------------------------- the dashboard
def test_the_dashboard_follows_a_live_table(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=2) as server:
            room = server.room
            app = room.dashboard(interval=0.1)
            board = app.board
            learners = await seated(server, names={1: "<b>Bina</b>"})
            await settle(server, 0.3)
            seats = board.state["tables"][0]["seats"]
            assert [s["name"] for s in seats] == ["L0", "<b>Bina</b>", "L2", "L3"]
            assert [s["connected"] for s in seats] == [True] * 4
            assert [s["status"] for s in seats] == ["here"] * 4
            assert board.state["tables"][1]["seats"][0] == {
                "seat": 0, "place": "South", "name": None, "learner": None, "status": "empty",
                "connected": None}
            # learners play: the dashboard shows every move, at most once per interval
            start, calls = time.monotonic(), board._hook.calls
            for _ in range(9):
                who = next(lr for lr in learners if lr.my_turn())
                assert (await who.act())["ok"]
            await settle(server, 0.3)
            t = board.state["tables"][0]
            deal = room.tables[0].deal
            assert t["actions"] == len(deal.actions) >= 9 and t["phase"] == "play"
            assert t["trick"] == [{"seat": s, "card": c.code} for s, c in deal.trick.cards]
            assert t["tricks"] == list(deal.tricks_won) and t["to_act"] == deal.actor
            elapsed = time.monotonic() - start
            assert board._hook.calls - calls <= elapsed / 0.1 + 2
            # a learner goes away: the seat says so
            await learners[1].close()
            await settle(server, 0.3)
            seat = board.state["tables"][0]["seats"][1]
            assert seat["connected"] is False and seat["status"] == "away"
            app.close()
            assert board._hook not in room.on_change
    run(main())


def test_dashboard_pause_resume_new_deal_and_the_same_deal_everywhere(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=3) as server:
            room = server.room
            board = room.dashboard(interval=0.05).board
            learners = await seated(server)
            a = learners[0]
            assert ask(board, {"type": "pause"})["ok"]
            assert room.paused
            await a.wait_for(lambda: a.roster and a.roster["paused"])
            await settle(server, 0.2)
            assert board.state["paused"] is True
            assert ask(board, {"type": "resume"})["ok"] and not room.paused
            await a.wait_for(lambda: not a.roster["paused"])
            who = next(lr for lr in learners if lr.my_turn())
            assert (await who.act())["ok"]
            assert ask(board, {"type": "new_deal"})["ok"]
            assert [t.deal_number for t in room.tables] == [1, 1, 1]
            await a.wait_for(lambda: a.key[1] == 1)
            reply = ask(board, {"type": "same_deal", "seed": 99})
            assert reply["ok"]
            hands = [[t.deal.hand(s) for s in range(4)] for t in room.tables]
            assert hands[0] == hands[1] == hands[2]
            batch = room.tables[0].batch
            assert batch is not None and {t.batch for t in room.tables} == {batch}
            await settle(server, 0.2)
            compare = board.state["compare"]
            assert compare["batch"] == batch and [r["table"] for r in compare["rows"]] == [0, 1, 2]
            assert [t["deal"] for t in board.state["tables"]] == [3, 3, 3]
            frame = room.compare()
            assert list(frame["table"]) == [1, 2, 3] and set(frame["seed"]) == {99}
            assert ask(board, {"type": "add_table"})["ok"]
            assert len(room.tables) == 4 and room.tables[3].rules == room.tables[0].rules
    run(main())


def test_dashboard_moves_a_learner_hands_a_seat_to_a_bot_and_removes_one(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=2) as server:
            room = server.room
            board = room.dashboard(interval=0.05).board
            a, b = await seated(server, n=2)
            lid = room.tables[0].seats[0].learner.id
            assert ask(board, {"type": "move", "learner": lid, "table": 1, "seat": 2})["ok"]
            await a.wait_for(lambda: (a.table, a.seat) == (1, 2) and a.frame["viewer"] == 2)
            assert room.tables[0].seats[0].learner is None
            # a taken seat is refused: moves go to free seats only
            bid = room.tables[0].seats[1].learner.id
            reply = ask(board, {"type": "move", "learner": bid, "table": 1, "seat": 2})
            assert not reply["ok"] and "taken" in reply["reason"]
            assert ask(board, {"type": "to_bot", "table": 1, "seat": 2})["ok"]
            await a.wait_for(lambda: a.table is None and a.lobby is not None)
            await settle(server, 0.2)
            assert [x["learner"] for x in board.state["lobby"]] == [lid]
            assert ask(board, {"type": "remove", "learner": bid})["ok"]
            await b.wait_for(lambda: any("removed" in r for r in b.refusals))
            assert room.learners[bid].removed and room.tables[0].seats[1].learner is None
            # the removed learner is no one the dashboard can name any more
            reply = ask(board, {"type": "move", "learner": bid, "table": 0, "seat": 0})
            assert not reply["ok"] and "no such learner" in reply["reason"]
    run(main())


FORGED = [
    "pause", None, [], 5, {"type": "explode"}, {"type": None}, {"kind": "pause"},
    {"type": "pause", "extra": 1}, {"type": "pause", "id": True}, {"type": "pause", "id": "7"},
    {"type": "same_deal"}, {"type": "same_deal", "seed": -1}, {"type": "same_deal", "seed": 1.5},
    {"type": "same_deal", "seed": "7"}, {"type": "same_deal", "seed": 2 ** 60},
    {"type": "same_deal", "seed": True}, {"type": "same_deal", "seed": None},
    {"type": "to_bot", "table": 0}, {"type": "to_bot", "table": 9, "seat": 0},
    {"type": "to_bot", "table": -1, "seat": 0}, {"type": "to_bot", "table": True, "seat": 0},
    {"type": "to_bot", "table": 0, "seat": 4}, {"type": "to_bot", "table": 0, "seat": "1"},
    {"type": "to_bot", "table": 1, "seat": 0},                      # nobody sits there
    {"type": "move", "learner": 999, "table": 0, "seat": 2},
    {"type": "move", "learner": "L0", "table": 0, "seat": 2},
    {"type": "move", "learner": 1, "table": 0, "seat": 1},           # taken
    {"type": "move", "learner": 1, "table": 0},
    {"type": "remove", "learner": True}, {"type": "remove", "learner": 1.0},
    {"type": "remove", "learner": {"id": 1}}, {"type": "project", "table": 7},
    {"type": "project", "table": 0, "seat": 1}, {"type": "__proto__"},
    {"type": "pause" * 1000},
]


def test_forged_dashboard_messages_are_refused_and_change_nothing(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=2) as server:
            room = server.room
            board = room.dashboard(interval=0.05).board
            await seated(server, n=2)
            await settle(server, 0.2)
            before = fingerprint(room)
            for msg in FORGED:
                sent = []
                board.send = lambda m, buffers=None: sent.append(m)
                content = {**msg, "id": 5} if isinstance(msg, dict) and "id" not in msg else msg
                board._on_msg(board, content, [])            # never raises
                del board.send
                if isinstance(content, dict) and isinstance(content.get("id"), int) \
                        and not isinstance(content.get("id"), bool):
                    assert sent and sent[-1]["ok"] is False, msg
                    reason = sent[-1]["reason"]
                    assert reason.endswith(".") and len(reason) < 200, (msg, reason)
                else:
                    assert not sent
                assert fingerprint(room) == before, msg
            await settle(server, 0.2)
            assert fingerprint(room) == before
            # the core says why, in the class's language
            core = DashboardCore(room)
            with pytest.raises(ValueError, match="no such table"):
                core.handle({"type": "to_bot", "table": 9, "seat": 0})
    run(main())


def test_a_failing_on_change_hook_never_stops_the_class(tmp_path):
    room = Room.create(Store(tmp_path / "c.sqlite"), code="HOOK23", tables=1)
    seen = []

    def broken(_room):
        raise RuntimeError("a dashboard bug")
    room.on_change += [broken, seen.append]
    room.pause()
    assert room.paused and seen == [room]
    room.store.close()


def test_throttle_gathers_changes():
    class Loop:
        def __init__(self):
            self.later = []

        def call_later(self, delay, fn):
            self.later.append((delay, fn))

            class H:
                def cancel(self_):
                    self.later.remove((delay, fn))
            return H()
    now = [100.0]
    loop, calls = Loop(), []
    t = Throttle(lambda: calls.append(now[0]), 0.5, loop, clock=lambda: now[0])
    t(), t(), t()                          # three changes in one tick: one call, at once
    assert [d for d, _ in loop.later] == [0.0]
    loop.later.pop()[1]()
    assert calls == [100.0]
    now[0] = 100.2
    t(), t()                               # soon after: waits out the interval
    assert [round(d, 3) for d, _ in loop.later] == [0.3]
    t.close()
    assert loop.later == [] and calls == [100.0]
    with pytest.raises(ValueError):
        Throttle(print, -1)


# ----------------------------------------------------------------------------- the teacher page
def test_the_teacher_page_needs_the_token_and_a_learner_never_reaches_teacher_data(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=2) as server:
            room = server.room
            learners = await seated(server, record=True)
            status, headers, body = await get(address(server) + "teacher")
            assert status == 200 and b"teacher.js" in body
            assert headers["Referrer-Policy"] == "no-referrer"
            assert "script-src 'self'" in headers["Content-Security-Policy"]
            assert room.teacher_token.encode() not in body
            # a wrong token: refused, no state, the socket stays open
            t = await Teacher(server).connect()
            await t.wait_for(lambda: t.of("login"))
            await t.send({"type": "msg", "content": {"type": "pause", "id": 1}})
            await t.send({"type": "hello", "token": "x" * 43})
            await t.wait_for(lambda: len(t.of("refused")) == 2)
            assert all(m.get("token") for m in t.of("refused"))
            assert not t.of("state") and not t.of("welcome") and not room.paused
            # the right one (after the wrong one's wait): the dashboard's state, live
            await t.send({"type": "hello", "token": room.teacher_token})
            await t.wait_for(lambda: t.state())
            assert [s["name"] for s in t.state()["tables"][0]["seats"]] == ["L0", "L1", "L2", "L3"]
            reply = await t.ask({"type": "pause"})
            assert reply["ok"] and room.paused
            await t.wait_for(lambda: t.state()["paused"])
            reply = await t.ask({"type": "to_bot", "table": 5, "seat": 0})
            assert not reply["ok"] and "no such table" in reply["reason"]
            assert (await t.ask({"type": "resume"}))["ok"] and not room.paused
            rev = t.state()["rev"]
            who = next(lr for lr in learners if lr.my_turn())
            await who.act()
            await t.wait_for(lambda: t.state()["rev"] > rev and t.state()["tables"][0]["actions"])
            # garbage on the teacher socket: refused, the socket stays
            for bad in ("{", "[]", json.dumps({"type": 5}), "x" * 5000):
                await t.send(bad)
            await t.wait_for(lambda: len(t.of("refused")) >= 6)
            assert (await t.ask({"type": "pause"}))["ok"]
            room.resume()
            # a learner's socket asks for teacher things: refused, nothing changes
            a = learners[0]
            for msg in ({"type": "msg", "content": {"type": "pause", "id": 40}},
                        {"type": "projector", "content": {"type": "show", "table": 0}},
                        {"type": "state"}, {"type": "hello", "token": room.teacher_token}):
                n = len(a.refusals)
                await a.send(msg)
                await a.wait_for(lambda: len(a.refusals) > n)
            assert not room.paused
            # a learner's seat token is no teacher token
            t2 = await Teacher(server).connect()
            await t2.wait_for(lambda: t2.of("login"))
            await t2.send({"type": "hello", "token": a.token})
            await t2.wait_for(lambda: t2.of("refused"), 15)
            assert not t2.of("state")
            await settle(server, 0.2)
            for lr in learners:
                everything = "".join(lr.received)
                assert room.teacher_token not in everything
                assert '"compare"' not in everything and '"lobby":[{' not in everything
            await t.close()
            await t2.close()
    run(main())


def test_the_teacher_pages_projector(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=1) as server:
            room = server.room
            learners = await seated(server, record=True)
            for _ in range(6):
                who = next(lr for lr in learners if lr.my_turn())
                await who.act()
            t = await Teacher(server).connect()
            await t.wait_for(lambda: t.of("login"))
            await t.send({"type": "hello", "token": room.teacher_token})
            await t.wait_for(lambda: t.state())
            heard = [len(lr.received) for lr in learners]
            assert (await t.ask({"type": "project", "table": 0}))["ok"]
            shown = await t.wait_for(lambda: t.of("projector_state"))
            frame = shown[-1]["state"]["frames"][-1]
            deal = room.tables[0].deal
            assert [s["hand"] for s in frame["seats"]] == \
                [[c.code for c in deal.hand(s)] for s in range(4)]
            assert shown[-1]["actions"] == len(deal.actions) and shown[-1]["replay"] is None
            # a step back; the seat chooser; a move refused
            r = await t.ask({"type": "replay", "n": 2}, "projector", "projector_custom")
            assert r["ok"] and t.of("projector_state")[-1]["replay"] == 2
            assert t.of("projector_state")[-1]["state"]["frames"][-1]["replay"] is True
            r = await t.ask({"type": "seat", "seat": 2}, "projector", "projector_custom")
            assert r["ok"] and t.of("projector_state")[-1]["state"]["frames"][-1]["viewer"] == 2
            n = len(deal.actions)
            for bad in ({"type": "play", "card": deal.legal_cards()[0].code},
                        {"type": "call_trump", "suit": "S"}, {"type": "replay", "n": 99},
                        {"type": "seat", "seat": 9}, {"type": "review", "index": 0},
                        {"type": "show", "table": 3}, {"type": "hint"}):
                r = await t.ask(bad, "projector", "projector_custom")
                assert not r["ok"] and r["reason"], bad
            assert len(deal.actions) == n
            # the table moves on: the projector follows (live again)
            assert (await t.ask({"type": "replay", "n": None}, "projector",
                                "projector_custom"))["ok"]
            who = next(lr for lr in learners if lr.my_turn())
            await who.act()
            await t.wait_for(lambda: t.of("projector_state")[-1]["actions"] == n + 1)
            await settle(server, 0.2)
            # the learners heard only of their own table's move, nothing of the projector
            for lr, before in zip(learners, heard):
                later = [json.loads(x) for x in lr.received[before:]]
                assert all(m["type"] in ("state", "words", "table", "custom") for m in later)
                assert all(not m["state"]["frames"][-1]["show_all"]
                           for m in later if m["type"] == "state")
            await t.close()
    run(main())


def test_the_teacher_token_is_kept_hashed_and_survives_a_restart(tmp_path):
    path = tmp_path / "class.sqlite"
    store = Store(path)
    room = Room.create(store, code="KEEP23", tables=1)
    token = room.teacher_token
    other = token[:-1] + ("B" if token[-1] == "A" else "A")
    assert room.check_teacher(token) and not room.check_teacher(other)
    assert not room.check_teacher(None) and not room.check_teacher("x" * 500)
    store.close()
    raw = path.read_bytes() + (tmp_path / "class.sqlite-wal").read_bytes() \
        if (tmp_path / "class.sqlite-wal").exists() else path.read_bytes()
    assert token.encode() not in raw
    assert token_hash(token) in [r[0] for r in sqlite3.connect(path).execute(
        "SELECT token_hash FROM teachers")]
    again = Room.load(Store(path), "KEEP23")
    assert again.check_teacher(token)              # the link the teacher has still opens
    second = again.teacher_token                   # this process's own, the old one kept
    assert second != token and again.check_teacher(token) and again.check_teacher(second)
    third = again.new_teacher_token()              # a link went astray: all old ones stop
    assert not again.check_teacher(token) and not again.check_teacher(second)
    assert again.check_teacher(third)
    again.store.close()


def test_the_join_display_shows_the_teacher_link_folded_away(tmp_path):
    import courtlearn.classroom as classroom

    async def main():
        room = classroom.open(port=0, db=tmp_path / "c.sqlite", host="127.0.0.1", show=False)
        try:
            shown = room._repr_html_()
            assert f"/teacher#{room.teacher_token}" in shown
            details = shown[shown.index("<details"):]
            assert room.teacher_token in details and "<summary>" in details
            assert room.teacher_token not in room.server._repr_html_()
            assert room.teacher_token not in repr(room) and room.teacher_token not in str(room)
            status, _, body = await get(f"http://127.0.0.1:{room.server.port}/")
            assert room.teacher_token.encode() not in body
        finally:
            room.close()
    run(main())


def test_the_console_prints_the_teacher_link_only_when_asked(tmp_path):
    async def main():
        db = tmp_path / "class.sqlite"
        with ServerProcess(db, CODE, tables=1) as plain:
            assert not any("teacher" in line for line in plain.lines)
        with ServerProcess(db, CODE, tables=1, extra=["--show-teacher-link"]) as server:
            line = next(x for x in server.lines if x.startswith("teacher page: "))
            link = line.split(": ", 1)[1]
            assert link.startswith(f"http://127.0.0.1:{server.port}/teacher#")
            token = link.split("#", 1)[1]

            class At:
                port = server.port
            t = await Teacher(At).connect()
            await t.wait_for(lambda: t.of("login"))
            await t.send({"type": "hello", "token": token})
            await t.wait_for(lambda: t.state())
            assert t.state()["code"] == CODE
            await t.close()
        # started again on the same file: the link the teacher holds still opens the page
        with ServerProcess(db, CODE, tables=1) as again:
            class At2:
                port = again.port
            t = await Teacher(At2).connect()
            await t.wait_for(lambda: t.of("login"))
            await t.send({"type": "hello", "token": token})
            await t.wait_for(lambda: t.state())
            await t.close()
    run(main())


# ----------------------------------------------------------------------------- the projector
def test_the_projector_shows_every_hand_steps_back_and_follows_the_table(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=2) as server:
            room = server.room
            learners = await seated(server, record=True)
            for _ in range(7):
                who = next(lr for lr in learners if lr.my_turn())
                await who.act()
            heard = [len(lr.received) for lr in learners]
            p = room.projector(0)
            p._hook.interval = 0.05
            deal = room.tables[0].deal
            frame = p.table.state["frames"][-1]
            assert p.table.size == "presenter" and frame["show_all"]
            assert [s["hand"] for s in frame["seats"]] == \
                [[c.code for c in deal.hand(s)] for s in range(4)]
            assert [s["connected"] for s in frame["seats"]] == [True] * 4
            assert not frame["can_hint"] and not frame["can_review"]
            n = len(deal.actions)
            assert p.slider.max == n and p.slider.value == n
            p.back()
            frame = p.table.state["frames"][-1]
            assert frame["replay"] and p.projection.replay == n - 1 and p.slider.value == n - 1
            p.replay(0)
            frame = p.table.state["frames"][-1]
            start = deal.replay(0)                       # the deal as dealt, every hand shown
            assert [s["hand"] for s in frame["seats"]] == \
                [[c.code for c in start.hand(s)] for s in range(4)]
            assert frame["phase"] == "trump" and frame["trick"] == [] and frame["done"] == 0
            p.slider.value = 3                              # the slider steps too
            assert p.projection.replay == 3
            p.forward()
            assert p.projection.replay == 4
            p.seat = 1
            assert p.table.state["frames"][-1]["viewer"] == 1
            # every move is refused, from the page and from Python; nothing changes
            sent = []
            p.table.send = lambda m, buffers=None: sent.append(m)
            card = deal.legal_cards()[0].code
            for msg in ({"type": "play", "card": card, "id": 1}, {"type": "hint", "id": 2},
                        {"type": "review", "index": 0, "id": 3}, {"type": "undo", "id": 4}):
                p.table._on_msg(p.table, msg, [])
            assert [m["ok"] for m in sent] == [False] * 4
            for call in (lambda: p.table.play(card), p.table.step, p.table.undo,
                         p.table.new_deal, lambda: p.review(0)):
                with pytest.raises(ValueError):
                    call()
            assert len(deal.actions) == n
            # the live table moves: the projector follows it (and stays where it was put)
            p.live()
            who = next(lr for lr in learners if lr.my_turn())
            await who.act()
            await settle(server, 0.3)
            frame = p.table.state["frames"][-1]
            assert p.slider.max == n + 1 and not frame["replay"]
            assert sum(s["count"] for s in frame["seats"]) == 52 - len(deal.tricks) * 4 - \
                len(deal.trick.cards)
            # another table on the same projector
            p.show(1)
            assert p.projection.number == 1 and "Table 2" in p.title.value
            await settle(server, 0.2)
            for lr, before in zip(learners, heard):
                for m in (json.loads(x) for x in lr.received[before:]):
                    assert m["type"] != "state" or not m["state"]["frames"][-1]["show_all"]
            p.close()
            assert p._hook not in room.on_change
    run(main())


def test_the_review_of_any_seat_on_the_projector_once_the_deal_is_over(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=1) as server:
            room = server.room
            learners = await seated(server)
            app = room.dashboard(interval=0.05)
            reply = ask(app.board, {"type": "project", "table": 0})
            assert reply["ok"] and app.projector is not None
            p = app.projector
            assert app.stage.children == (p,)
            with pytest.raises(ValueError, match="once the deal is over"):
                p.review(2)
            await asyncio.gather(*(lr.play(deals=1) for lr in learners))
            await settle(server, 0.3)
            assert room.tables[0].deal.over
            frame = p.table.state["frames"][-1]
            assert frame["phase"] == "over" and frame["can_review"]
            # made in the class's workers, not in the loop every learner waits on (issue
            # 29: p.review() took the kernel's loop seconds for a whole deal)
            done = room.workers.done
            pending = p.review(seat=2)
            assert not pending.done() and "being made" in repr(pending)
            review = await pending
            assert room.workers.done == done + 1 and pending.result() is review
            assert pending.text == review.text == (await p.review()).text
            frame = p.table.state["frames"][-1]
            assert review.decisions and frame["review"]["index"] == 0 and frame["viewer"] == 2
            assert frame["replay"] and frame["seats"][0]["hand"] is not None
            # the table's own Next step (what table.js sends)
            sent = []
            p.table.send = lambda m, buffers=None: sent.append(m)
            p.table._on_msg(p.table, {"type": "review", "index": 1, "id": 9}, [])
            assert sent[-1]["ok"] and p.table.state["frames"][-1]["review"]["index"] == 1
            p.table._on_msg(p.table, {"type": "review_close", "id": 10}, [])
            assert sent[-1]["ok"] and not p.table.state["frames"][-1]["replay"]
            # a new deal at the table: the projector goes with it, live
            room.new_deal()
            await settle(server, 0.3)
            frame = p.table.state["frames"][-1]
            assert frame["phase"] != "over" and p.slider.max == len(room.tables[0].deal.actions)
            app.close()
    run(main())


# ----------------------------------------------------------------------------- frames
def test_history_has_every_deal_at_every_table_and_compare_the_same_deal(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=2) as server:
            room = server.room
            first = await seated(server, table=0)
            second = await seated(server, table=1, names={i: f"M{i}" for i in range(4)})
            batch = room.same_deal(seed=5)
            await settle(server, 0.2)
            await asyncio.gather(*(lr.play(deals=1) for lr in first + second))
            room.new_deal(table=0)
            h = room.history()
            assert list(h["table"]) == [1, 1, 1, 2, 2]
            assert list(h["deal"]) == [1, 2, 3, 1, 2]
            same = h[h["batch"] == batch]
            assert list(same["table"]) == [1, 2] and set(same["seed"]) == {5}
            assert set(same["phase"]) == {"over"} and same["winner"].notna().all()
            for _, row in same.iterrows():
                t = room.tables[row["table"] - 1]
                assert row["actions"] > 20 and max(row["tricks"]) >= 7     # a deal played out
                assert row["players"] == tuple(s.learner.name for s in t.seats)
            cmp = room.compare()
            assert list(cmp["table"]) == [1, 2] and list(cmp["batch"]) == [batch, batch]
            assert list(cmp["tricks"]) == list(same["tricks"])
            assert cmp.iloc[1]["players"] == ("M0", "M1", "M2", "M3")
    run(main())


# ----------------------------------------------------------------------------- odds and ends
def test_class_tables_show_who_is_connected_and_notebook_tables_do_not(tmp_path):
    table = cl.widgets.CardTable(cl.Deal(cl.Rules.court_piece(), dealer=3, seed=1))
    assert [s["connected"] for s in table.state["frames"][-1]["seats"]] == [None] * 4

    async def main():
        async with class_server(tmp_path, grace=30) as server:
            a, b = await seated(server, n=2)
            assert [s["connected"] for s in a.frame["seats"]] == [True, True, None, None]
            await b.close()
            await a.wait_for(lambda: a.frame["seats"][1]["connected"] is False)
    run(main())


def test_the_marker_is_drawn_from_the_connected_field():
    src = (cl.widgets.__path__[0] + "/static/table.js")
    js = open(src).read()
    assert 'typeof s.connected === "boolean"' in js and '"data-role": "connected"' in js
    words = cl.widgets.core.page_words()
    assert words["seat_here"] and words["seat_away"]


def test_to_bot_refuses_a_seat_that_is_not_0_to_3():
    room = Room.create(Store(":memory:"), code="ABC234", tables=1)
    lr, _ = room.register("Asha")
    room.move(lr.id, 0, 3)
    for bad in (7, -1, True, "3", None):
        with pytest.raises(ValueError, match="seat is 0..3"):
            room.to_bot(0, bad)
    assert room.tables[0].seats[3].learner is lr


def test_import_courtlearn_loads_no_tornado_and_cl_classroom_is_lazy():
    code = ("import sys, courtlearn as cl\n"
            "assert 'tornado' not in sys.modules\n"
            "m = cl.classroom\n"
            "assert m.__name__ == 'courtlearn.classroom' and callable(m.open)\n"
            "assert 'tornado' not in sys.modules and 'anywidget' not in sys.modules\n"
            "import courtlearn.classroom.dashboard, courtlearn.classroom.projector\n"
            "assert 'anywidget' not in sys.modules and 'ipywidgets' not in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_the_pages_write_text_only():
    import pathlib
    here = pathlib.Path(cl.__file__).parent / "classroom" / "static"
    for name in ("dashboard.js", "teacher.js"):
        src = (here / name).read_text()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                     "new Function"):
            assert sink not in src, f"{name} uses {sink}"


@pytest.mark.parametrize("name", ["dashboard", "projector"])
def test_docstring_examples(name):
    import doctest
    import importlib
    module = importlib.import_module(f"courtlearn.classroom.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_the_readme_says_how_to_run_a_class():
    import pathlib
    import re
    readme = (pathlib.Path(cl.__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    part = readme.split("\n## A class\n", 1)[1].split("\n## ", 1)[0]
    for needed in ("room = cl.classroom.open(port=8765)",
                   "courtlearn class serve --db class.sqlite --port 8765",
                   "pip install 'courtlearn[class]'", "--show-teacher-link",
                   "hotspots take few devices", "room.dashboard()",
                   # how many learners one server carries: figures, and how to measure them
                   "How many learners one server carries", "p95", "bench/class_load.py",
                   "bench/class_attacks.py"):
        assert needed in part, needed
    # every method of the room it names exists
    for name in set(re.findall(r"\broom\.(\w+)\(", part)):
        assert callable(getattr(Room, name, None)), name
    from courtlearn.classroom.projector import Projector      # (loaded on first use)
    for name in set(re.findall(r"\bp\.(\w+)\(", part)):
        assert callable(getattr(Projector, name, None)), name


def test_a_teachers_call_with_nobody_connected_is_saved_and_told_at_once(tmp_path):
    # (before: with an event loop, a call that sent nothing to a page, such as pausing an
    # empty class, stayed in an open transaction and no dashboard heard of it until some
    # learner's message made the room flush)
    async def main():
        async with class_server(tmp_path, tables=1) as server:
            room = server.room
            heard = []
            room.on_change.append(heard.append)
            room.pause()
            await settle(server, 0.1)
            assert not room.store.pending and heard
            row = sqlite3.connect(room.store.path).execute(
                "SELECT settings FROM classes").fetchone()
            assert json.loads(row[0])["paused"] is True
    run(main())


def test_the_teacher_token_is_never_taken_from_an_address(tmp_path):
    """An address lands in access logs and browser histories: a teacher socket opened with
    ?token= is asked to log in like any other; a script's Authorization header is taken."""
    async def main():
        async with class_server(tmp_path, tables=1) as server:
            token = server.room.teacher_token
            t = await Teacher(server).connect(query=f"?token={token}")
            await t.wait_for(lambda: t.of("login"))
            await settle(server, 0.2)
            assert not t.state()
            script = await Teacher(server).connect(headers={"Authorization": f"token {token}"})
            await script.wait_for(lambda: script.state())
            wrong = await Teacher(server).connect(headers={"Authorization": "token " + "x" * 43})
            await wrong.wait_for(lambda: wrong.of("login"))
            for sock in (t, script, wrong):
                await sock.close()
    run(main())


def test_the_join_qr_code_has_a_light_ground_for_dark_themes():
    from courtlearn.classroom.server import qr_svg
    svg = qr_svg("http://192.168.1.5:8765/?code=ABCDEF")
    assert svg is not None and "#fff" in svg.lower()
