"""What ``print(room)`` and ``print(table)`` say: a sentence in the teacher's language (lesson
14 prints them in Urdu and Hindi); their reprs stay English and deterministic."""
from __future__ import annotations

import json
import re

import pytest

import courtlearn as cl
from courtlearn.classroom.room import Room
from courtlearn.classroom.store import Store

pytestmark = pytest.mark.timeout(120)


class Conn:
    """A page without a socket."""

    def send(self, text):
        json.loads(text)

    def close(self):
        pass


@pytest.fixture
def room(tmp_path):
    room = Room.create(Store(tmp_path / "c.sqlite"), code="WORDS1", tables=2, seed=3)
    room.pause()
    for seat, name in enumerate(["Asha", "Bilal"]):
        conn = Conn()
        room.hello(conn, code="words1", name=name)
        room.take_seat(conn, 0, seat * 2)
    yield room
    cl.set_language("en")


def test_print_room_and_table_say_who_sits_where(room):
    assert str(room) == ("Class WORDS1: tables 2, learners 2, seated 2. "
                         "Every table is paused.")
    assert str(room.tables[0]) == "Table 1, Court Piece, deal 1: Asha, a bot, Bilal, a bot"
    assert repr(room) == "<Room WORDS1: 2 tables, 2 learners, 2 seated, paused>"
    assert repr(room.tables[1]) == "<Table 2 court_piece deal 1 ['bot', 'bot', 'bot', 'bot']>"
    room.resume()
    assert str(room) == "Class WORDS1: tables 2, learners 2, seated 2."


@pytest.mark.parametrize("lang", ["ur", "hi"])
def test_print_room_and_table_speak_the_language(room, lang):
    cl.set_language(lang)
    for text in (str(room), str(room.tables[0]), str(room.tables[1])):
        # names the learners typed and the class code are theirs; every other word translated
        words = re.sub(r"Asha|Bilal|WORDS1", "", text)
        assert re.findall(r"[A-Za-z]{2,}", words) == [], text
    assert "Asha" in str(room.tables[0]) and "WORDS1" in str(room)
    assert repr(room) == "<Room WORDS1: 2 tables, 2 learners, 2 seated, paused>"


def test_hidden_names_are_hidden_on_the_projector_too(room):
    """room.hide_names(): the dashboard shows "Learner 1"...; the projector (the screen the
    class sees) shows the same aliases at the table and in its seat picker."""
    from courtlearn.classroom.projector import Projection

    def players(snap):
        return [s["player"] for s in snap["seats"]]

    projection = Projection(room, 0)
    projection.follow()
    assert {"Asha", "Bilal"} <= set(players(projection.snapshot()))
    room.hide_names()
    assert projection.follow()                       # the picture changed
    shown = players(projection.snapshot())
    assert not {"Asha", "Bilal"} & set(shown), shown
    assert shown[0] == "Learner 1" and shown[2] == "Learner 2", shown
    widget = room.projector(0)
    labels = [label for label, _seat in widget._seat_options()]
    assert not any("Asha" in x or "Bilal" in x for x in labels), labels
    assert any("Learner 1" in x for x in labels), labels
    room.hide_names(False)
    assert projection.follow() and "Asha" in players(projection.snapshot())


def test_a_quiz_question_has_its_exercise_title_in_the_results():
    """The dashboard's "most got wrong" list names a quiz question by its exercise's title,
    not by its raw item (trick_winner/seed=N)."""
    from courtlearn.classroom.grading import item_title
    title = item_title("quiz", "trick_winner/seed=12")
    assert title == cl.exercises.question("trick_winner", seed=12).title
    assert "seed=" not in title
    assert item_title("quiz", "no_such_kind/seed=1") == "no_such_kind/seed=1"


def test_open_in_the_browser_only_site_says_it_needs_a_computer(tmp_path, monkeypatch):
    """In JupyterLite (Python inside a web page) a server cannot listen: cl.classroom.open
    says so in a sentence (lessons 12 and 14 reach it there) and starts nothing."""
    import sys
    monkeypatch.setattr(sys, "platform", "emscripten")
    with pytest.raises(RuntimeError, match="needs a computer"):
        cl.classroom.open(port=0, host="127.0.0.1", db=tmp_path / "c.sqlite", show=False)
    assert not (tmp_path / "c.sqlite").exists()
