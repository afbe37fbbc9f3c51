"""The class server's per-move work (issue 29, Speed): what a move costs the loop, checked
as behaviour, not as timings (bench/class_load.py measures those).

- no asyncio task per message, in or out (tornado's write_message and a coroutine
  on_message each made one: six a move);
- a table's pictures carry neither the table's names nor its words (a page gets them in
  one ``words`` message, once per socket), and every seat still gets its own picture only;
- the JSON the room sends is the same text whichever encoder wrote it.
"""
from __future__ import annotations

import asyncio
import json

import pytest

from classroom_helpers import class_server, messages, seated
from courtlearn.classroom import tables


def test_a_move_makes_no_task_per_message(tmp_path):
    """Every task the loop starts while four learners play is counted by what it runs:
    none is tornado's write wrapper or the server's on_message (the clients' own tasks,
    in the same loop, are left aside)."""
    async def main():
        made = []
        loop = asyncio.get_running_loop()

        def factory(loop, coro, **kw):
            made.append(getattr(coro, "__qualname__", type(coro).__name__))
            return asyncio.Task(coro, loop=loop, **kw)
        async with class_server(tmp_path, tables=1) as server:
            learners = await seated(server, n=4)
            loop.set_task_factory(factory)
            try:
                await asyncio.gather(*(lr.play(deals=1, timeout=20) for lr in learners))
            finally:
                loop.set_task_factory(None)
            for lr in learners:
                await lr.close()
        moves = sum(len(lr.acked) for lr in learners)
        assert moves >= 13
        server_side = [q for q in made if "wrapper" in q or "on_message" in q]
        assert server_side == [], server_side[:5]
    asyncio.run(main())


def test_pictures_go_without_words_and_each_seat_sees_its_own_hand(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=1) as server:
            learners = await seated(server, n=4, record=True)
            await asyncio.gather(*(lr.play(deals=1, timeout=20) for lr in learners))
            for lr in learners:
                await lr.close()
        for seat, lr in enumerate(learners):
            got = messages(lr)
            words = [m for m in got if m["type"] == "words"]
            assert len(words) == 1                      # once for the socket
            assert words[0]["names"]["seats"] == ["South", "East", "North", "West"]
            assert words[0]["words"]["last_trick"] == "Last trick"
            assert (words[0]["lang"], words[0]["dir"]) == ("en", "ltr")
            states = [m for m in got if m["type"] == "state"]
            assert len(states) > 13
            for m in states:
                for f in m["state"]["frames"]:
                    assert "names" not in f and "words" not in f
                    assert f["viewer"] == seat
                    for s in f["seats"]:
                        assert (s["hand"] is not None) == (s["seat"] == seat)
    asyncio.run(main())


@pytest.mark.parametrize("value", [
    {"type": "state", "text": "North–South · 5♠ é \u2028 \x01 \t \"q\" \\ \u0627\u0631\u062f\u0648"},
    {"deal_in": 9.5, "ten": 10.0, "big": 1e16, "neg": -0.0, "n": None, "ok": True},
    {"nested": [{"a": [1, 2, [3]]}, [], {}], "emoji": "\U0001f600"},
    {"lone": "\ud800 a lone surrogate (a hostile name)"},
    {"huge": 2 ** 70},
    {1: "a key that is a number"},
])
def test_the_encoder_writes_what_json_writes(value):
    assert tables._dumps(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_a_busy_tick_commits_and_sends_what_it_has_without_waiting_for_its_end(monkeypatch):
    """The room commits once a tick, after every message the tick read; once a tick has
    worked FLUSH_AFTER, the call at hand commits and sends at its end (under a school's load
    the first move of a tick waited for all the others). What goes out is saved first."""
    from courtlearn.classroom import room as room_mod
    from courtlearn.classroom.room import Room
    from courtlearn.classroom.store import Store

    async def main(after):
        monkeypatch.setattr(room_mod, "FLUSH_AFTER", after)
        room = Room.create(Store(":memory:"), code="FLUSH2", tables=1, seed=3, paused=True,
                           loop=asyncio.get_running_loop())
        unsaved = []

        class Page:
            def __init__(self):
                self.sent = []

            def send(self, text):
                unsaved.append(room.store.pending)
                self.sent.append(text)
        pages = [Page() for _ in range(4)]
        for seat, page in enumerate(pages):
            room.hello(page, code="FLUSH2", name=f"L{seat}")
            room.take_seat(page, 0, seat)
        room.resume()
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        deal = room.tables[0].deal
        replies = []
        for rid in range(1, 6):                  # five moves in one tick (no await)
            seat = deal.actor
            move = deal.moves(seat)[0]
            content = ({"type": "play", "card": move.cards[0].code} if move.kind == "play"
                       else {"type": "call_trump", "suit": move.suits[0].letter})
            before = len(pages[seat].sent)
            room.intent(pages[seat], {**content, "id": rid})
            replies.append([t for t in pages[seat].sent[before:] if '"reply_to"' in t])
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert unsaved and not any(unsaved)      # nothing went out before it was saved
        return replies

    at_once = asyncio.run(main(0.0))
    assert all(len(r) == 1 and '"ok":true' in r[0] for r in at_once), at_once
    at_end = asyncio.run(main(60.0))
    assert all(r == [] for r in at_end), at_end   # a quick tick: all at its end, as before


def test_a_served_class_checkpoints_its_file_in_a_thread_not_in_its_commits(tmp_path):
    """SQLite copies its write-ahead log into the file in the commit that finds the log
    past 1,000 pages (13-17 ms of the loop once a second at a school's pace): a served
    class turns that off and a thread of its own does it; closing stops the thread and
    leaves the whole class in the file."""
    import os
    import threading
    import time as clock
    from courtlearn.classroom.store import Store
    path = tmp_path / "class.sqlite"
    store = Store(path)
    assert store.checkpoint_apart(every=0.05)
    assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    store.db.execute("CREATE TABLE filler (x BLOB)")
    for _ in range(3):                          # some 1,500 pages, three commits
        store._write("INSERT INTO filler VALUES (?)", (os.urandom(2_000_000),))
        store.commit()
    deadline = clock.monotonic() + 10
    while os.path.getsize(path) < 6_000_000 and clock.monotonic() < deadline:
        clock.sleep(0.02)
    assert os.path.getsize(path) >= 6_000_000       # copied in by the thread
    assert any(t.name == "courtlearn-checkpoint" for t in threading.enumerate())
    store.close()
    assert not any(t.name == "courtlearn-checkpoint" for t in threading.enumerate())
    assert not os.path.exists(f"{path}-wal") or os.path.getsize(f"{path}-wal") == 0
    again = Store(path, readonly=True)
    assert again.db.execute("SELECT COUNT(*) FROM filler").fetchone()[0] == 3
    again.close()
    assert not Store(":memory:").checkpoint_apart()


def test_a_served_class_collects_its_young_objects_on_a_clock():
    """CPython's young collections come when its counters say so, and a counter goes down
    whenever anything is freed: while each move frees the pictures of the move before,
    the young generation grew to tens of thousands of objects between passes (20-40 ms
    each). A served class (settle_heap with its loop) collects them every YOUNG seconds,
    the middle generation every YOUNG_EVERY-th time, allocating or not."""
    import subprocess
    import sys
    script = """
import asyncio, gc, json
from courtlearn.classroom import workers
seen = {0: 0, 1: 0, 2: 0}
gc.callbacks.append(lambda phase, info: phase == "start" and seen.__setitem__(
    info["generation"], seen[info["generation"]] + 1))
async def main():
    workers.settle_heap(asyncio.get_running_loop())
    for g in seen:
        seen[g] = 0
    await asyncio.sleep(1.0)
asyncio.run(main())
print(json.dumps([seen[0], seen[1], seen[2], workers.YOUNG, workers.YOUNG_EVERY]))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    young, middle, full, every, middle_every = json.loads(out.stdout.strip().splitlines()[-1])
    passes = 1.0 / every                       # as many as the clock gives on a busy machine
    assert young >= passes / 4, (young, middle)
    assert middle >= passes / middle_every / 4, (young, middle)
    assert full == 0
