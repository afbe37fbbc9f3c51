"""What the teacher does is said on the learner pages, a new deal over a deal under way is
asked for first, and the next deal starts when the table is ready (issue 32, items 1 and 4).

The room runs without a loop here (each call commits and sends at once; a fake clock ends
the wait for the others through ``check_ready``); pages are fake connections collecting
every message.
"""
from __future__ import annotations

import json

import pytest

from courtlearn.classroom.dashboard import DashboardCore
from courtlearn.classroom.room import NEXT_DEAL_WAIT, Refusal, Room
from courtlearn.classroom.store import Store

pytestmark = pytest.mark.timeout(120)


class Conn:
    """A page without a socket: collects what the room sends it."""

    def __init__(self):
        self.got = []

    def send(self, text):
        self.got.append(json.loads(text))

    def close(self):
        pass

    def last(self, kind):
        return next((m for m in reversed(self.got) if m["type"] == kind), None)

    def notices(self):
        return [m["text"] for m in self.got if m["type"] == "notice"]

    def frame(self):
        return next(f for m in reversed(self.got) if m["type"] == "state"
                    for f in m["state"]["frames"][-1:])


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def a_class(seats=(0, 1), tables=2, language="en"):
    """A paused-then-resumed class: learners at table 1's ``seats`` (the others are bots)."""
    clock = Clock()
    room = Room.create(Store(":memory:"), code="NOTE32", tables=tables, seed=3, paused=True,
                       language=language)
    room.clock = clock
    conns = {}
    for s in seats:
        c = conns[s] = Conn()
        room.hello(c, code="NOTE32", name=f"L{s}")
        room.take_seat(c, 0, s)
    room.resume()
    return room, conns, clock


def move(room, conns, t=0) -> None:
    """One move of whoever is to act at table ``t`` (a learner's page, through the room)."""
    deal = room.tables[t].deal
    seat = deal.actor
    f = conns[seat].frame()
    if "call_trump" in f["actions"]:
        content = {"type": "call_trump", "suit": "S", "id": 1}
    else:
        content = {"type": "play", "card": f["seats"][seat]["legal"][0], "id": 1}
    room.intent(conns[seat], content)


def to_the_end(room, conns, t=0) -> None:
    for _ in range(200):
        if room.tables[t].deal.over:
            return
        move(room, conns, t)
    raise AssertionError("the deal did not end")


# ----------------------------------------------------------------------------- item 1
def test_a_new_deal_over_a_deal_under_way_is_asked_for_first():
    room, conns, _ = a_class(seats=(0, 1, 2, 3))      # no bot moves before a learner's
    assert room.mid_deal() == []                     # dealt, nothing played: nothing to lose
    move(room, conns)
    assert room.mid_deal() == [0]
    before = (room.tables[0].deal_number, list(room.tables[0].deal.actions))
    with pytest.raises(ValueError) as err:
        room.new_deal()
    said = str(err.value)
    assert "Table 1 is in the middle of a deal" in said and "abandon=True" in said
    assert (room.tables[0].deal_number, list(room.tables[0].deal.actions)) == before
    with pytest.raises(ValueError, match="same_deal"):
        room.same_deal(seed=4)
    assert room.tables[0].deal_number == 0
    with pytest.raises(ValueError, match="abandon is True or False"):
        room.new_deal(abandon="yes")
    room.new_deal(table=1)                           # table 2 had not begun: no question
    assert [t.deal_number for t in room.tables] == [0, 1]
    room.new_deal(abandon=True)
    assert [t.deal_number for t in room.tables] == [1, 2]
    assert len(room.history()) == 5                  # the unfinished deal stays in the history


def test_every_learner_page_is_told_what_the_teacher_did():
    room, conns, _ = a_class(seats=(0, 1, 2))
    a, b, c = conns[0], conns[1], conns[2]
    room.new_deal()
    for conn in (a, b, c):
        assert conn.notices()[-1] == "The teacher started a new deal at your table."
    batch = room.same_deal(seed=7)
    assert a.notices()[-1] == f"The teacher dealt the same cards at every table (same deal {batch})."
    # moved: the page is seated elsewhere and told where
    room.move("L1", 1, 2)
    assert b.last("seated")["table"] == 1 and b.notices()[-1] == "The teacher moved you to North, table 2."
    # a seat given to another learner: its sitter hears it
    room.move("L1", 0, 2)
    assert c.last("unseated") is not None
    assert c.notices()[-1].startswith("The teacher gave your seat (North, table 1) to another learner")
    # handed to a bot: back to the lobby, told why
    room.to_bot(0, 0)
    assert a.got[-1]["type"] == "notice" and a.last("lobby") is not None
    assert a.notices()[-1] == ("The teacher handed your seat (South, table 1) to a bot: choose a "
                               "free seat, or wait for the teacher.")
    # nothing is said to a learner the teacher did not touch
    assert len(b.notices()) == 4 and len(a.notices()) == 3


def test_the_notices_speak_the_class_language():
    room, conns, _ = a_class(language="ur")
    move(room, conns)
    with pytest.raises(ValueError, match="room.new_deal"):
        room.new_deal()
    room.new_deal(abandon=True)
    said = conns[0].notices()[-1]
    assert "استاد" in said and not any("a" <= ch <= "z" for ch in said.lower())


def test_the_dashboard_page_asks_first_itself_and_then_deals():
    """The dashboard's page (dashboard.js) asks before it sends a new deal; what it sends
    is the teacher's yes."""
    room, conns, _ = a_class()
    move(room, conns)
    core = DashboardCore(room)
    state = core.state()
    busy = [t["table"] for t in state["tables"] if t["phase"] != "over" and t["actions"] > 0]
    assert busy == [0]                                # what the page counts, from its state
    assert core.state()["words"]["mid_deal"][0].startswith("Table {tables} is in the middle")
    assert core.handle({"type": "new_deal", "id": 1}) is None
    assert room.tables[0].deal_number == 1


# ----------------------------------------------------------------------------- item 4
def test_the_next_deal_waits_for_everyone_at_the_table_or_the_short_wait():
    room, conns, clock = a_class(seats=(0, 1))
    a, b = conns[0], conns[1]
    t = room.tables[0]
    with pytest.raises(Refusal, match="not over"):
        room.next_deal_request(a)
    to_the_end(room, conns)
    room.next_deal_request(a)                          # one asks: the table waits for b
    assert t.deal_number == 0 and t.ready == {0}
    roster = b.last("table")
    assert roster["ready"] == [0] and roster["deal_in"] == NEXT_DEAL_WAIT
    clock.now += 4
    room.check_ready()
    assert t.deal_number == 0
    room.next_deal_request(b)                          # everyone here is ready: at once
    assert t.deal_number == 1 and t.ready == set() and t.ready_at is None
    assert a.last("table")["ready"] == [] and a.last("table")["deal_in"] is None
    # next time b does not answer: the wait ends the reading, and the deal starts
    to_the_end(room, conns)
    room.next_deal_request(b)
    clock.now += NEXT_DEAL_WAIT - 0.5
    room.check_ready()
    assert t.deal_number == 1
    clock.now += 1
    room.check_ready()
    assert t.deal_number == 2


def test_bots_and_away_learners_never_hold_the_next_deal_up():
    room, conns, clock = a_class(seats=(0, 1))
    t = room.tables[0]
    to_the_end(room, conns)
    room.disconnect(conns[1])                          # away: nobody waits for them
    assert room.waiting_for(t) == [0]
    room.next_deal_request(conns[0])
    assert t.deal_number == 1


def test_a_pause_forgets_who_was_ready():
    room, conns, clock = a_class(seats=(0, 1))
    t = room.tables[0]
    to_the_end(room, conns)
    room.next_deal_request(conns[0])
    room.pause()
    assert t.ready == set() and t.ready_at is None
    clock.now += NEXT_DEAL_WAIT + 1
    room.check_ready()
    room.resume()
    assert t.deal_number == 0 and t.deal.over          # they ask again after the pause
    room.pause()
    with pytest.raises(Refusal, match="paused"):
        room.next_deal_request(conns[0])
