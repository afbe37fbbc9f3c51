"""The class puzzles (issue 26): room.puzzles(level) on a real class server on 127.0.0.1.

Learners (SimulatedLearner, real WebSocket clients), seated or not, get the level's first
puzzle on their own table (all hands face up), play their side's cards, and the defence
answers; the server judges every card (a losing card ends the try, the line to the end is
a solve) and stores each try by Room.record, judged again by the notebook's checker
(kind "puzzle", item "puzzle/L.N"), so it is in room.results() and the dashboard's grid.
A learner gets only their own puzzle and their own solved puzzles; forged, malformed
and oversized messages are refused with a sentence, nothing stored, the socket open.
"""
from __future__ import annotations

import asyncio
import json

import pytest

import courtlearn as cl
from courtlearn.classroom.grading import puzzle_item
from courtlearn.classroom.room import Room
from courtlearn.classroom.simulated import SimulatedLearner
from courtlearn.classroom.store import Store
from courtlearn.solver import solve

from classroom_helpers import CODE, address, class_server, settle

websockets = pytest.importorskip("websockets")
pytestmark = pytest.mark.timeout(120)


def run(coro):
    return asyncio.run(coro)


async def joined(server, n, record=True):
    out = []
    for i in range(n):
        lr = SimulatedLearner(address(server), f"L{i}", code=CODE, record=record, seed=i)
        await lr.join()
        out.append(lr)
    return out


def losing_card(p):
    """A lawful first card of puzzle ``p`` that lets the defence stop the goal."""
    values = solve(p.deal).values
    return next(c for c, v in values.items() if v < p.target)


def frames(learner) -> list[dict]:
    return [json.loads(t) for t in learner.received]


def test_a_level_end_to_end_solve_wrong_try_again_and_results(tmp_path):
    p = cl.puzzles.puzzle(1, 1)
    line = [c.code for c in p.winning_line()]
    wrong = losing_card(p)

    async def main():
        async with class_server(tmp_path, tables=1) as server:
            room = server.room
            room.pause()
            a, b = await joined(server, 2)
            await a.send({"type": "take_seat", "table": 0, "seat": 0})   # one seated, one not
            await a.wait_for(lambda: a.table == 0 and a.frame is not None)
            for lr in (a, b):
                await lr.send({"type": "puzzle_get"})
                await lr.wait_for(lambda lr=lr: lr.puzzle_over)          # no puzzles yet
            desk = room.puzzles(1)
            assert (desk.level, desk.count) == (1, sum(q.level == 1 for q in cl.puzzles.all()))
            for lr in (a, b):
                panel = await lr.wait_puzzle("1.1")
                assert (panel["status"], panel["verdict"], panel["solved"]) == ("playing", None, [])
                assert panel["goal"] == p.goal and panel["heading"] == p.heading
                f = lr.puzzle_frame
                assert f["show_all"] and f["viewer"] == p.seat and not f["can_best_play"]
                assert all(s["hand"] for s in f["seats"])              # every hand face up
                assert f["message"] == p.goal
            # a solves: the line played card by card, the defence answering in between
            done = await a.solve_puzzle(line)
            assert done["status"] == "solved" and done["verdict"].startswith("Solved!")
            assert done["solved"] == [1]
            assert a.puzzle_frame["phase"] == "over"
            # b plays a losing card: the try ends with the verdict naming the keeping cards
            got = await b.play_puzzle(wrong.code)
            assert got["ok"]
            await b.wait_for(lambda: b.puzzle["status"] == "failed")
            assert str(wrong) in b.puzzle["verdict"] and "Try again" in b.puzzle["verdict"]
            assert b.puzzle_frame["message_kind"] == "error"
            # Try again: the position afresh, then solved
            await b.send({"type": "puzzle_again"})
            await b.wait_for(lambda: b.puzzle["status"] == "playing"
                             and b.puzzle_frame["phase"] == "play"
                             and b.puzzle_frame["trick"] == [])
            assert (await b.solve_puzzle(line))["status"] == "solved"
            await settle(server)
            frame = room.results()
            rows = {r["name"]: r for r in frame.to_dict("records")}
            assert set(frame["kind"]) == {"puzzle"} and set(frame["item"]) == {puzzle_item(p)}
            assert (rows["L0"]["tries"], rows["L0"]["first_right"], rows["L0"]["solved"]) == \
                (1, True, True)
            assert (rows["L1"]["tries"], rows["L1"]["first_right"], rows["L1"]["solved"]) == \
                (2, False, True)
            answers = room.answers()
            mine = answers[answers["name"] == "L1"].sort_values("try")
            assert list(mine["right"]) == [False, True]
            assert mine["answer"].iloc[0] == [wrong.code] and mine["answer"].iloc[1] == line
            # the same item a notebook's Puzzle.check sends: the checker agrees
            assert p.check(mine["answer"].iloc[0], quiet=True, record=False).correct is False
            # the dashboard's grid counts them
            grid = room.tally.state([(1, "L0"), (2, "L1")])
            cells = {r["name"]: r["cells"] for r in grid["learners"]}
            assert cells["L0"][f"puzzle:{puzzle_item(p)}"]["state"] == "first"
            assert cells["L1"][f"puzzle:{puzzle_item(p)}"] == {"tries": 2, "state": "solved"}
            # trust: b's page never received a's puzzle replies, and its solved list is its own
            b_replies = [m for m in frames(b) if m["type"] == "puzzle_custom"]
            assert len(b_replies) == 1 + len(line)
            # a's seat at the table was not disturbed by the puzzle
            assert a.table == 0 and room.tables[0].seats[0].learner.name == "L0"
            # Next puzzle; the level set again starts each at their first unsolved puzzle
            await a.send({"type": "puzzle_next"})
            await a.wait_puzzle("1.2")
            room.puzzles(1)
            await a.wait_puzzle("1.2")
            await b.wait_puzzle("1.2")
            # the puzzles end: every page drops them, a card is refused
            room.puzzles(None)
            for lr in (a, b):
                await lr.wait_for(lambda lr=lr: lr.puzzle_over)
            got = await a.play_puzzle("AS")
            assert not got["ok"] and "no puzzles" in got["reason"]
            for lr in (a, b):
                await lr.close()
            assert len(room.answers()) == 3
    run(main())


def test_each_try_is_judged_on_the_server_and_a_page_cannot_claim_a_solve(tmp_path):
    p = cl.puzzles.puzzle(1, 1)
    line = [c.code for c in p.winning_line()]

    async def main():
        async with class_server(tmp_path, tables=1) as server:
            room = server.room
            room.puzzles(1)
            (a,) = await joined(server, 1)
            await a.send({"type": "puzzle_get"})
            await a.wait_puzzle("1.1")
            hostile = [
                {"type": "puzzle_solved", "key": "1.1"},                      # a claim
                {"type": "puzzle_msg", "content": {"type": "play", "card": line[0], "id": 1},
                 "solved": True},                                          # an extra field
                {"type": "puzzle_msg", "content": {"type": "hint", "id": 2}},
                {"type": "puzzle_msg", "content": {"type": "best_play", "on": True, "id": 3}},
                {"type": "puzzle_msg", "content": {"type": "play", "card": "ZZ", "id": 4}},
                {"type": "puzzle_msg", "content": {"type": "play", "card": line[0], "id": 5,
                                                   "seat": 1}},
                {"type": "puzzle_msg", "content": "play " + line[0]},
                {"type": "puzzle_msg", "content": {"type": "play", "card": "2S", "id": 6}},
                {"type": "puzzle_next", "n": 5},
                {"type": "puzzle_again", "status": "solved"},
            ]
            for i, msg in enumerate(hostile):
                n = len(a.refusals) + sum(not r["ok"] for r in a.puzzle_replies.values())
                await a.send(msg)
                await a.wait_for(lambda n=n: len(a.refusals) +
                                 sum(not r["ok"] for r in a.puzzle_replies.values()) > n)
            reasons = a.refusals + [r["reason"] for r in a.puzzle_replies.values()]
            assert len(reasons) == len(hostile) and all(len(r) > 10 for r in reasons), reasons
            assert any("find the line yourself" in r for r in reasons)
            assert any("South does not hold 2♠" in r or "2♠" in r for r in reasons)
            # oversized: refused by the server, socket open
            n = len(a.refusals)
            await a.send(json.dumps({"type": "puzzle_msg", "content": {
                "type": "play", "card": line[0], "id": 9, "pad": "x" * 5000}}))
            await a.wait_for(lambda: len(a.refusals) > n)
            assert "too long" in a.refusals[-1]
            # nothing moved, nothing stored; the socket still answers
            assert a.puzzle_frame["trick"] == [] and len(room.answers()) == 0
            assert room.results().empty
            panel = await a.solve_puzzle(line)
            assert panel["status"] == "solved"
            await settle(server)
            assert list(room.results()["solved"]) == [True]
            # a second page of the same learner (a phone and a laptop) sees the same puzzle
            twin = SimulatedLearner(address(server), "L0", token=a.token, record=True)
            await twin.join()
            await twin.send({"type": "puzzle_get"})
            got = await twin.wait_puzzle("1.1")
            assert got["status"] == "solved" and got["solved"] == [1]
            await twin.close()
            await a.close()
    run(main())


def test_a_learner_not_in_the_class_and_the_teacher_socket(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=1) as server:
            room = server.room
            lr = SimulatedLearner(address(server), "X", code=CODE)
            await lr.connect()                             # no hello: not in the class
            await lr.send({"type": "puzzle_get"})
            await lr.wait_for(lambda: lr.refusals)
            assert "Join the class first" in lr.refusals[-1]
            await lr.close()
            # the teacher's socket sets and ends the level
            from test_classroom_quiz import Teacher
            teacher = await Teacher(server).connect(room.teacher_token)
            await teacher.send({"type": "puzzles", "content": {"type": "state"}})
            st = await teacher.wait_for(lambda: teacher.of("puzzles"))
            assert st[-1]["state"]["level"] is None
            assert [x["level"] for x in st[-1]["state"]["levels"]] == list(cl.puzzles.LEVELS)
            assert st[-1]["state"]["levels"][0]["label"].startswith("Level 1: ")
            await teacher.send({"type": "puzzles", "content": {"type": "set", "level": 2}})
            await teacher.wait_for(lambda: teacher.of("puzzles")[-1]["state"]["level"] == 2)
            assert room._puzzle_desk.level == 2
            await teacher.send({"type": "puzzles", "content": {"type": "set", "level": 9}})
            await teacher.wait_for(lambda: teacher.of("refused"))
            assert "level is one of" in teacher.of("refused")[-1]["reason"]
            assert room._puzzle_desk.level == 2
            await teacher.send({"type": "puzzles", "content": {"type": "set", "level": None}})
            await teacher.wait_for(lambda: teacher.of("puzzles")[-1]["state"]["level"] is None)
            await teacher.close()
    run(main())


def test_room_puzzles_refuses_a_level_that_is_not_one(tmp_path):
    room = Room.create(Store(":memory:"), code="ABC234", tables=1)
    for bad in (0, 6, "1", 1.5, True):
        with pytest.raises(ValueError, match="level is one of"):
            room.puzzles(bad)
    assert room.puzzles(3).level == 3 and room.puzzles(None).level is None


def test_urdu_class_speaks_urdu_on_the_puzzle(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=1, language="ur") as server:
            room = server.room
            room.puzzles(1)
            (a,) = await joined(server, 1)
            await a.send({"type": "puzzle_get"})
            panel = await a.wait_puzzle("1.1")
            assert a.puzzle_frame["lang"] == "ur" and a.puzzle_frame["dir"] == "rtl"
            from courtlearn.language import using
            with using("ur"):
                assert panel["goal"] == cl.puzzles.puzzle(1, 1).goal
                assert panel["words"]["again"] == cl.language.tr("Try again")
            await a.close()
    run(main())


def test_the_readme_says_how_to_set_the_class_puzzles():
    import pathlib
    readme = (pathlib.Path(cl.__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    part = readme.split("\n## A class\n", 1)[1].split("\n## ", 1)[0]
    for needed in ("room.puzzles(1)", "room.puzzles(None)", "Puzzles panel", "kind `puzzle`"):
        assert needed in part, needed
    assert callable(getattr(Room, "puzzles", None))
