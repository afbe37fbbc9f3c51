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
