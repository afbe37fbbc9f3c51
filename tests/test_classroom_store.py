"""The class's SQLite store: what it keeps, that an action is committed before anyone
hears of it, and that a room loaded from the file is the room that was saved."""
from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

import courtlearn as cl
from courtlearn.classroom.room import Refusal, Room
from courtlearn.classroom.store import Store, token_hash

from classroom_helpers import class_server, seated

pytestmark = pytest.mark.timeout(120)


class Conn:
    """A page without a socket: collects what the room sends it."""

    def __init__(self):
        self.got = []

    def send(self, text):
        self.got.append(json.loads(text))

    def close(self):
        pass

    def frames(self):
        return [f for m in self.got if m["type"] == "state" for f in m["state"]["frames"]]


def play_some(room, conns, moves, table=0):
    """Seat-by-seat moves through the room (the first legal choice each time)."""
    t = room.tables[table]
    for _ in range(moves):
        if t.deal.over:
            for conn in conns:             # the next deal starts once all four asked
                room.next_deal_request(conn)
            continue
        seat = t.deal.actor
        me = conns[seat].frames()[-1]["seats"][seat]
        acts = conns[seat].frames()[-1]["actions"]
        if "call_trump" in acts:
            content = {"type": "call_trump", "suit": "H", "id": 1}
        elif "choose_trump_card" in acts:
            content = {"type": "choose_trump_card", "card": me["hand"][0], "id": 1}
        else:
            content = {"type": "play", "card": me["legal"][0], "id": 1}
        room.intent(conns[seat], content)
        assert conns[seat].got[-1]["content"]["ok"], conns[seat].got[-1]


def a_room(path, tables=2, rules=None):
    room = Room.create(Store(path), code="STORE1", tables=tables, rules=rules, seed=4)
    room.pause()
    conns = [Conn() for _ in range(4)]
    for i, c in enumerate(conns):
        room.hello(c, code="store1", name=f"N{i}")
        room.take_seat(c, 0, i)
    room.resume()
    return room, conns


def test_the_file_is_wal_and_keeps_token_hashes_only(tmp_path):
    path = tmp_path / "c.sqlite"
    room, conns = a_room(path)
    tokens = [next(m for m in c.got if m["type"] == "welcome")["token"] for c in conns]
    room.store.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    hashes = {r[0] for r in db.execute("SELECT token_hash FROM learners")}
    assert hashes == {token_hash(t) for t in tokens}
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert not any(t.encode() in raw for t in tokens)


def test_a_loaded_room_is_the_saved_room(tmp_path):
    path = tmp_path / "c.sqlite"
    room, conns = a_room(path, tables=3)
    play_some(room, conns, 70)                  # past the end of the first deal
    room.same_deal(seed=9, dealer=1, abandon=True)
    play_some(room, conns, 5)
    room.new_deal(table=0, abandon=True)        # an unfinished deal abandoned
    play_some(room, conns, 3)
    room.set_grace(12)
    room.pause()
    before = room.history()
    state = [(t.deal_number, t.deal.actions, [t.deal.hand(s) for s in range(4)],
              t.session.courts, t.deal.dealer) for t in room.tables]
    room.store.close()

    again = Room.load(Store(path), "STORE1")
    assert [(t.deal_number, t.deal.actions, [t.deal.hand(s) for s in range(4)],
             t.session.courts, t.deal.dealer) for t in again.tables] == state
    assert again.history().equals(before)
    assert again.paused and again.settings["grace"] == 12
    assert [[s.learner.name if s.learner else None for s in t.seats] for t in again.tables] == \
        [["N0", "N1", "N2", "N3"], [None] * 4, [None] * 4]
    # everyone is away after a restart until their page says hello again
    assert [s.status() for s in again.tables[0].seats] == ["away"] * 4
    token = next(m for m in conns[2].got if m["type"] == "welcome")["token"]
    c = Conn()
    again.hello(c, token=token)
    assert c.got[0]["type"] == "welcome" and "token" not in c.got[0]
    assert any(m["type"] == "seated" and m["seat"] == 2 for m in c.got)
    assert c.frames()[-1]["seats"][2]["hand"] == [x.code for x in again.tables[0].deal.hand(2)]


def test_an_action_is_committed_before_it_is_acknowledged(tmp_path):
    async def main():
        async with class_server(tmp_path) as server:
            learners = await seated(server)
            reader = sqlite3.connect(tmp_path / "class.sqlite")   # another connection
            for _ in range(12):
                who = next(lr for lr in learners if lr.my_turn())
                sent = dict(who.choose())
                reply = await who.act(sent)
                assert reply["ok"]
                rows = reader.execute("SELECT token FROM actions ORDER BY deal, idx").fetchall()
                token = sent.get("card") or f"call:{sent.get('suit')}"
                assert rows and rows[-1][0] == token     # on disk when the ack arrived
                await asyncio.sleep(0.01)
            reader.close()
    asyncio.run(main())


def test_unknown_tokens_removed_learners_and_a_second_class_in_one_file(tmp_path):
    path = tmp_path / "c.sqlite"
    room, conns = a_room(path)
    with pytest.raises(Refusal) as err:
        room.hello(Conn(), token="x" * 43)
    assert err.value.extra == {"rejoin": True}
    token = next(m for m in conns[1].got if m["type"] == "welcome")["token"]
    room.remove("N1")
    assert conns[1].got[-1]["type"] == "removed"
    assert room.tables[0].seats[1].learner is None
    with pytest.raises(Refusal):
        room.hello(Conn(), token=token)
    other = Room.create(room.store, code="OTHER2", tables=1, rules="dehla_pakad")
    with pytest.raises(ValueError, match="already holds"):
        Room.create(room.store, code="OTHER2")
    room.store.close()
    store = Store(path)
    assert store.class_codes() == ["STORE1", "OTHER2"]
    assert Room.load(store, "OTHER2").tables[0].rules == cl.Rules.dehla_pakad()
    with pytest.raises(Refusal):
        Room.load(store, "STORE1").hello(Conn(), token=token)
    with pytest.raises(ValueError, match="holds no class"):
        Room.load(store, "NOPE99")
    assert other.code == "OTHER2"


def test_a_refused_commit_loses_nothing_that_was_acknowledged(tmp_path):
    path = tmp_path / "c.sqlite"
    room, conns = a_room(path)
    play_some(room, conns, 3)
    saved = list(room.tables[0].deal.actions)
    real_commit = room.store.commit

    def broken():
        raise sqlite3.OperationalError("disk I/O error")
    room.store.commit = broken
    seat = room.tables[0].deal.actor
    card = conns[seat].frames()[-1]["seats"][seat]["legal"][0]
    n = len(conns[seat].got)
    with pytest.raises(sqlite3.OperationalError):
        room.intent(conns[seat], {"type": "play", "card": card, "id": 5})
    assert len(conns[seat].got) == n                       # no ack, no state: nothing said
    room.store.commit = real_commit
    assert room.tables[0].deal.actions == saved            # back to what the file holds
    for s, st in enumerate(room.tables[0].seats):
        assert st.learner.table is room.tables[0] and st.learner.seat == s
        assert st.status() == "here"                       # the pages stay (issue 29) ...
    room.flush()
    assert room.storage_trouble is not None and str(path) in room.storage_trouble
    assert room.saving_refused() is not None               # ... changes wait a moment ...
    frame = conns[seat].frames()[-1]                       # ... shown the table as saved
    assert frame["seats"][seat]["hand"] == [x.code for x in room.tables[0].deal.hand(seat)]
    c = Conn()
    room.hello(c, token=next(m for m in conns[seat].got if m["type"] == "welcome")["token"])
    assert c.frames()[-1]["seats"][seat]["hand"] == \
        [x.code for x in room.tables[0].deal.hand(seat)]
    assert Room.load(room.store, "STORE1").tables[0].deal.actions == saved
    room.set_grace(20)                                     # a change saved: all is well
    assert room.storage_trouble is None


def test_same_deal_refuses_other_rules_and_changes_nothing(tmp_path):
    room, conns = a_room(tmp_path / "c.sqlite")
    number = [t.deal_number for t in room.tables]
    deal = cl.Deal(cl.Rules.double_sir(), dealer=0, seed=1)
    with pytest.raises(ValueError, match="other rules"):
        room.same_deal(deal=deal)
    assert [t.deal_number for t in room.tables] == number
    batch = room.same_deal(notation=cl.Deal(cl.Rules.court_piece(), dealer=0, seed=5)
                           .to_notation())
    assert len(room.compare(batch)) == 2


def test_after_a_restart_the_bots_take_the_seats_of_learners_who_do_not_return(tmp_path):
    from courtlearn.classroom.server import ClassServer
    from courtlearn.classroom.simulated import SimulatedLearner
    path = tmp_path / "c.sqlite"
    room, conns = a_room(path, tables=1)
    room.set_grace(0.3)
    token = next(m for m in conns[0].got if m["type"] == "welcome")["token"]
    room.store.close()

    async def main():
        store = Store(path)
        again = Room.load(store, "STORE1", loop=asyncio.get_running_loop())
        server = ClassServer(again, port=0, host="127.0.0.1")
        try:
            lr = SimulatedLearner(f"http://127.0.0.1:{server.port}/", "N0", token=token)
            await lr.join()
            table = again.tables[0]
            await lr.wait_for(lambda: lr.roster and [s["status"] for s in lr.roster["seats"]]
                              == ["here", "bot", "bot", "bot"], 5)
            await lr.play(deals=1, timeout=10)          # the bots play the three others
            assert table.deal.over
            rows = store.action_rows(table.deal_id)
            assert {r["seat"] for r in rows if r["by"] == "bot"} == {1, 2, 3}
        finally:
            server.stop()
            store.close()
    asyncio.run(main())


@pytest.mark.parametrize("name", ["store", "room", "learners", "tables", "seats", "play",
                                  "lobby", "teacher", "recording", "server", "simulated",
                                  "cli"])
def test_docstring_examples(name):
    import doctest
    import importlib
    module = importlib.import_module(f"courtlearn.classroom.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_a_broken_bot_does_not_undo_or_hide_the_learners_move(tmp_path, caplog):
    room = Room.create(Store(tmp_path / "c.sqlite"), code="BOTS12", tables=1, seed=4)
    room.pause()
    c = Conn()
    room.hello(c, code="BOTS12", name="Solo")
    seat = room.tables[0].deal.actor
    room.take_seat(c, 0, seat)                      # the three other seats are bots

    class Broken(cl.bots.RuleBot):
        def choose(self, deal):
            raise RuntimeError("bot out of order")

        def call_trump(self, deal):
            raise RuntimeError("bot out of order")
    room._bot = Broken()
    room.resume()
    deal = room.tables[0].deal
    for rid in range(3, 6):                           # the learner's moves until a bot's turn
        frame = c.frames()[-1]
        acts = frame["actions"]
        content = ({"type": "call_trump", "suit": "S", "id": rid} if "call_trump" in acts else
                   {"type": "play", "card": frame["seats"][seat]["legal"][0], "id": rid})
        n = len(deal.actions)
        room.intent(c, content)
        assert c.got[-1] == {"type": "custom", "content": {"reply_to": rid, "ok": True}}
        assert len(deal.actions) == n + 1
        last = [m for m in c.got if m["type"] == "state"][-1]
        assert last["actions"] == n + 1               # the picture after the move was sent
        if deal.actor != seat:
            break
    assert deal.actor != seat                         # a bot's turn: it failed, nothing broke
    assert "could not move" in caplog.text
