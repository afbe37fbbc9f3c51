"""The class server end to end: a tornado server on 127.0.0.1 in the test's loop, real
WebSocket clients (simulated learners) playing whole deals at shared tables."""
from __future__ import annotations

import asyncio
import pathlib

import pytest

import courtlearn as cl
from courtlearn.classroom.simulated import SimulatedLearner

from classroom_helpers import CODE, address, class_server, get, seated, settle

pytest.importorskip("websockets")
pytestmark = pytest.mark.timeout(120)

STATIC = pathlib.Path(cl.__file__).parent / "widgets" / "static"


def run(coro):
    return asyncio.run(coro)


def test_page_static_files_and_nothing_else(tmp_path):
    async def main():
        async with class_server(tmp_path) as server:
            base = address(server)
            status, headers, body = await get(base)
            assert status == 200 and b'data-role="connection"' in body
            assert "script-src 'self'" in headers["Content-Security-Policy"]
            status, _, body = await get(base + "static/table.js")
            assert status == 200 and body == (STATIC / "table.js").read_bytes()
            status, _, body = await get(base + "static/fonts/NotoNastaliqUrdu-arabic-400.woff2")
            assert status == 200 and body[:4] == b"wOF2"
            for path in ("static/../room.py", "static/room.py", "static/fonts/OFL-NotoNastaliqUrdu.txt",
                         "api/kernels", "tree", "files/class.sqlite", "static/", "teacher/x"):
                status, _, _ = await get(base + path)
                assert status in (403, 404), path
            status, _, body = await get(base + "health")
            assert status == 200 and b'"tables": 2' in body
    run(main())


def test_page_words_in_the_class_language(tmp_path):
    async def main():
        async with class_server(tmp_path, language="ur") as server:
            _, _, body = await get(address(server))
            text = body.decode()
            assert '<html lang="ur" dir="rtl">' in text
            assert '"fonts": {"Noto Nastaliq Urdu"' in text
    run(main())


def test_four_learners_play_a_whole_deal_in_turn(tmp_path):
    async def main():
        async with class_server(tmp_path) as server:
            learners = await seated(server)
            moves = await asyncio.gather(*(lr.play(deals=1) for lr in learners))
            deal = server.room.tables[0].deal
            assert deal.over
            assert sum(moves) == len(deal.actions)
            for lr in learners:                           # each saw the deal end
                assert lr.frame["phase"] == "over" and lr.frame["result"]
                assert lr.key == (0, 0, len(deal.actions))
            # each learner made exactly the moves of its own seat
            rows = server.room.store.action_rows(server.room.tables[0].deal_id)
            assert {r["by"] for r in rows} == {"learner"}
            for lr, n in zip(learners, moves):
                assert sum(1 for r in rows if r["seat"] == lr.seat) == n
            for lr in learners:
                await lr.close()
    run(main())


def test_a_reload_returns_the_same_seat_and_hand(tmp_path):
    async def main():
        async with class_server(tmp_path) as server:
            learners = await seated(server)
            a = learners[0]
            while a.key[2] < 6:                         # a few moves into the deal
                who = next(lr for lr in learners if lr.my_turn())
                await who.act()
                await settle(server, 0.02)
            hand = a.frame["seats"][a.frame["viewer"]]["hand"]
            await a.close()
            again = SimulatedLearner(address(server), "ignored", token=a.token)
            await again.join()                           # the token alone: no click
            await again.wait_for(lambda: again.frame is not None)
            assert "token" not in again.welcome          # the token travels once, at joining
            assert (again.table, again.seat) == (0, 0)
            assert again.frame["seats"][again.frame["viewer"]]["hand"] == hand
            assert again.welcome["name"] == "L0"
    run(main())


def test_a_bot_plays_for_a_learner_gone_too_long_and_hands_back(tmp_path):
    async def main():
        async with class_server(tmp_path, grace=0.3) as server:
            room = server.room
            learners = await seated(server, n=2)         # seats 2 and 3 are bots
            a, b = learners
            table = room.tables[0]
            assert [s.status() for s in table.seats] == ["here", "here", "empty", "empty"]
            await b.close()
            await a.wait_for(lambda: a.roster and a.roster["seats"][1]["status"] == "away")
            assert "(away)" in a.frame["seats"][1]["player"]
            await a.wait_for(lambda: a.roster["seats"][1]["status"] == "bot", 3)
            # with seat 1 played by a bot, learner a alone plays the deal to its end
            await a.play(deals=1)
            assert table.deal.over
            rows = room.store.action_rows(table.deal_id)
            assert any(r["seat"] == 1 and r["by"] == "bot" for r in rows)
            # back: the seat is handed back, and the bot waits for the learner
            await a.send({"type": "next_deal"})
            back = SimulatedLearner(address(server), "B", token=b.token)
            await back.join()
            await a.wait_for(lambda: a.roster["seats"][1]["status"] == "here")
            for _ in range(60):                          # play until it is seat 1's turn
                if table.deal.actor == 1:
                    break
                if a.my_turn():
                    await a.act()
                await settle(server, 0.05)
            assert table.deal.actor == 1
            n = len(table.deal.actions)
            await settle(server, 0.6)                    # longer than the grace: no bot moves
            assert len(table.deal.actions) == n
            await back.wait_for(back.my_turn)
            assert (await back.act())["ok"]
    run(main())


def test_lobby_lists_free_seats_and_taken_ones_by_name(tmp_path):
    async def main():
        async with class_server(tmp_path) as server:
            await seated(server, n=1, names={0: "<b>Zoya</b>"})
            c = SimulatedLearner(address(server), "C", code=CODE)
            await c.join()
            seats = c.lobby["tables"][0]["seats"]
            assert seats[0]["name"] == "<b>Zoya</b>"           # as text, the page shows it so
            assert [s["name"] for s in seats[1:]] == [None, None, None]
            await c.send({"type": "take_seat", "table": 0, "seat": 0})
            await c.wait_for(lambda: c.refusals)
            assert "taken" in c.refusals[-1] and c.table is None
    run(main())


def test_teacher_pauses_resumes_and_deals_the_same_deal_everywhere(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=3) as server:
            room = server.room
            learners = await seated(server)
            room.pause()
            await learners[0].wait_for(lambda: learners[0].roster["paused"])
            who = next(lr for lr in learners if lr.frame["to_play"] == lr.seat)
            reply = await who.act()
            assert not reply["ok"] and "paused" in reply["reason"]
            assert room.tables[0].deal.actions == []
            room.resume()
            assert (await who.act())["ok"]
            with pytest.raises(ValueError, match="Table 1 is in the middle of a deal"):
                room.same_deal(seed=11, dealer=2)          # a card is down: asked first
            assert room.tables[0].deal.actions and room.tables[0].deal_number == 0
            batch = room.same_deal(seed=11, dealer=2, abandon=True)
            hands = [[t.deal.hand(s) for s in range(4)] for t in room.tables]
            assert hands[0] == hands[1] == hands[2]
            assert all(t.deal.actions == [] and t.deal.dealer == 2 for t in room.tables)
            await learners[0].wait_for(lambda: learners[0].key[1] == 1)
            history = room.history()
            assert len(history) == 6 and list(history["batch"]).count(batch) == 3
            assert len(room.compare()) == 3
            with pytest.raises(ValueError):
                room.same_deal(seed=1, notation="x")
    run(main())


def test_next_deal_only_when_the_deal_is_over(tmp_path):
    async def main():
        async with class_server(tmp_path) as server:
            learners = await seated(server)
            a = learners[0]
            await a.send({"type": "next_deal"})
            await a.wait_for(lambda: a.refusals)
            assert "not over" in a.refusals[-1]
            await asyncio.gather(*(lr.play(deals=2) for lr in learners))
            assert server.room.tables[0].deal_number == 1
            assert server.room.tables[0].session.deals_played == 2
    run(main())


def test_open_in_the_running_loop_shows_the_class_and_close_stops_it(tmp_path):
    import courtlearn.classroom as classroom

    async def main():
        db = tmp_path / "c.sqlite"
        room = classroom.open(port=0, db=db, host="127.0.0.1", code="open23", tables=1,
                              language="hi", show=False)
        assert room.code == "OPEN23" and room.server.port > 0
        base = f"http://127.0.0.1:{room.server.port}/"
        status, _, body = await get(base)
        assert status == 200 and b'lang="hi"' in body
        shown = room.server._repr_html_()
        assert "OPEN23" in shown and base in shown and "<svg" in shown     # the QR code
        assert room.teacher_token not in shown and room.teacher_token not in body.decode()
        lr = SimulatedLearner(base, "Asha", code="open23")
        await lr.join(table=0, seat=0)
        room.close()
        await lr.wait_for(lambda: lr.closed, 5)
        with pytest.raises(Exception):
            await get(base)
        # the same file opens the same class, where it was
        again = classroom.open(port=0, db=db, host="127.0.0.1", show=False)
        assert again.code == "OPEN23" and again.tables[0].seats[0].learner.name == "Asha"
        again.close()
    run(main())


def test_a_busy_port_is_refused_with_a_sentence(tmp_path):
    import courtlearn.classroom as classroom

    async def main():
        room = classroom.open(port=0, db=tmp_path / "a.sqlite", host="127.0.0.1", show=False)
        try:
            with pytest.raises(OSError, match="another class server"):
                classroom.open(port=room.server.port, db=tmp_path / "b.sqlite",
                               host="127.0.0.1", show=False)
        finally:
            room.close()
    run(main())


def test_the_teacher_moves_a_learner_hands_a_seat_to_a_bot_and_removes_one(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=2) as server:
            room = server.room
            a, b = await seated(server, n=2)
            room.move("L0", 1, 2)
            await a.wait_for(lambda: (a.table, a.seat) == (1, 2) and a.key[0] == 1)
            assert room.tables[0].seats[0].status() == "empty"
            assert a.frame["viewer"] == 2
            room.to_bot(1, 2)
            await a.wait_for(lambda: a.table is None and a.lobby is not None)
            assert room.tables[1].seats[2].learner is None
            room.remove("L1")
            await b.wait_for(lambda: any("removed" in r for r in b.refusals))
            again = SimulatedLearner(address(server), "L1", token=b.token)
            await again.connect()
            await again.send({"type": "hello", "token": b.token})
            await again.wait_for(lambda: again.refusals)
            assert again.welcome is None
            assert "join again" in again.refusals[-1]
            with pytest.raises(ValueError, match="no single learner"):
                room.move("nobody", 0, 0)
            with pytest.raises(ValueError, match="table is 0..1"):
                room.move("L0", 5, 0)
    run(main())
