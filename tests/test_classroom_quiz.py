"""The live quiz (issue 26): room.quiz(kind, n) on a real class server on 127.0.0.1.

Learners (SimulatedLearner, real WebSocket clients) answer right and wrong by the
quiz's own message; the teacher's socket sees the count, then on the reveal the spread,
the right answer and the engine's sentence; the answers are judged on the server with
the exercise's checker and stored by Room.record (room.results()). Before the reveal no
frame a learner socket receives says which choice is right. Hostile answers are refused
with a sentence, nothing stored, the socket stays open.
"""
from __future__ import annotations

import asyncio
import json
import time
import urllib.request

import pytest

import courtlearn as cl
from courtlearn.classroom.quiz import CLICK_KINDS, start
from courtlearn.classroom.room import Room
from courtlearn.classroom.simulated import SimulatedLearner
from courtlearn.classroom.store import Store
from courtlearn.language import using

from classroom_helpers import CODE, address, class_server, settle

websockets = pytest.importorskip("websockets")
pytestmark = pytest.mark.timeout(120)


def run(coro):
    return asyncio.run(coro)


class Teacher:
    """A teacher page's socket, without the page: every message kept."""

    def __init__(self, server):
        self.url = f"ws://127.0.0.1:{server.port}/teacher/ws"
        self.origin = f"http://127.0.0.1:{server.port}"
        self.msgs: list[dict] = []
        self._changed = asyncio.Event()

    async def connect(self, token):
        self.ws = await asyncio.wait_for(websockets.connect(self.url, origin=self.origin), 10)
        self._reader = asyncio.ensure_future(self._read())
        if token is not None:
            await self.send({"type": "hello", "token": token})
            await self.wait_for(lambda: self.of("welcome"))
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
                raise TimeoutError(f"the teacher waited {timeout} s; last: {self.msgs[-2:]}")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except asyncio.TimeoutError:
                pass

    def of(self, kind):
        return [m for m in self.msgs if m.get("type") == kind]

    def quiz(self):
        got = self.of("quiz")
        return got[-1]["state"] if got else None

    async def close(self):
        await self.ws.close()
        await asyncio.gather(self._reader, return_exceptions=True)


async def joined(server, n, record=True, names=None):
    """``n`` learners joined (in the lobby: a quiz needs no seat)."""
    out = []
    for i in range(n):
        lr = SimulatedLearner(address(server), (names or [f"L{i}" for i in range(n)])[i],
                              code=CODE, record=record, seed=i)
        await lr.join()
        out.append(lr)
    return out


def frames(learner) -> list[dict]:
    return [json.loads(t) for t in learner.received]


def keys(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from keys(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from keys(v)


def wrong_value(cur):
    return next(c["value"] for c, ok in zip(cur.choices, cur.correct) if not ok)


def test_a_quiz_end_to_end_counts_reveal_and_results(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=1) as server:
            room = server.room
            teacher = await Teacher(server).connect(room.teacher_token)
            a, b, c, d = await joined(server, 4)
            quiz = room.quiz("trick_winner", n=2, seed=7)     # made off the loop: a moment
            await a.wait_question(0)
            cur = quiz.current
            right = cur.right()
            assert len(right) == 1 and right[0] in [ch["value"] for ch in cur.choices]
            assert cur.prompt == cl.exercises.question("trick_winner", seed=cur.seed).prompt
            for lr in (a, b, c, d):
                q = await lr.wait_question(0)
                assert q["prompt"] == cur.prompt and len(q["choices"]) == 4
                assert all(ch["kind"] == "card" for ch in q["choices"])
            # the teacher's view: the question, nobody answered yet, 4 here
            st = await teacher.wait_for(lambda: (s := teacher.quiz()) and s.get("active") and s)
            assert (st["answered"], st["of"], st["revealed"]) == (0, 4, False)
            assert "spread" not in st and "right" not in st and "reason" not in st
            ack_a = await a.answer_quiz(right[0])
            ack_b = await b.answer_quiz(right[0])
            ack_c = await c.answer_quiz(wrong_value(cur))
            # the page hears "received", the same whether right or wrong
            assert set(ack_a) == set(ack_c) == {"type", "quiz", "index", "answer"}
            assert ack_a["answer"] == right[0] and ack_c["answer"] == wrong_value(cur)
            st = await teacher.wait_for(lambda: teacher.quiz()["answered"] == 3 and teacher.quiz())
            assert st["of"] == 4 and "spread" not in st
            assert sorted(w["answered"] for w in st["who"]) == [False, True, True, True]
            assert all("right" not in w for w in st["who"])
            # trust: before the reveal no learner frame says which choice is right
            await settle(server, 0.2)
            reason = cur.reason()
            assert reason
            for lr in (a, b, c, d):
                for m in frames(lr):
                    assert not {"right", "reason", "correct", "solution", "spread",
                                "feedback"} & set(keys(m)), m
                    assert reason not in json.dumps(m, ensure_ascii=False)
                    assert m.get("type") != "quiz_reveal"
                qs = [m for m in frames(lr) if m["type"] == "quiz"]
                assert qs == [m for m in frames(a) if m["type"] == "quiz"]   # same for all
            # reveal: each learner their own verdict; the teacher the spread and the sentence
            quiz.reveal()
            for lr, want in ((a, True), (b, True), (c, False), (d, None)):
                rv = (await lr.wait_for(lambda: lr.quiz_reveals))[-1]
                assert rv["correct"] is want and rv["right"] == right and rv["reason"] == reason
                assert "who" not in rv and "spread" not in rv
            st = await teacher.wait_for(lambda: teacher.quiz()["revealed"] and teacher.quiz())
            spread = {s["value"]: s["count"] for s in st["spread"]}
            assert spread[right[0]] == 2 and spread[wrong_value(cur)] == 1
            assert sum(spread.values()) == 3
            assert [s["value"] for s in st["spread"] if s["right"]] == right
            assert st["right"] == right and st["reason"] == reason
            assert sorted(str(w.get("right")) for w in st["who"]) == ["False", "None", "True",
                                                                     "True"]
            # answers are closed after the reveal
            with pytest.raises(ValueError, match="closed"):
                await d.answer_quiz(right[0])
            # the results: in room.results() (kind quiz) and the quiz's own frame
            frame = room.results()
            quiz_rows = frame[frame["kind"] == "quiz"].set_index("name")
            assert list(quiz_rows.index) == ["L0", "L1", "L2"]
            assert list(quiz_rows["first_right"]) == [True, True, False]
            assert set(quiz_rows["item"]) == {cur.item} and cur.item.startswith("trick_winner/")
            res = quiz.results().set_index("name")
            assert list(res["Q1"]) == [True, True, False] and list(res["right"]) == [1, 1, 0]
            # the next question; an answer to the first is refused now
            quiz.next()
            for lr in (a, b, c, d):
                await lr.wait_question(1)
            await teacher.wait_for(lambda: teacher.quiz()["number"] == 2)
            assert teacher.quiz()["answered"] == 0
            n = len(c.refusals)
            await c.send({"type": "quiz_answer", "quiz": quiz.id, "index": 0, "answer": right[0]})
            await c.wait_for(lambda: len(c.refusals) > n)
            assert "not the one open now" in c.refusals[-1]
            await d.answer_quiz()
            assert quiz.answered == 1
            # after the last question the quiz ends on every page
            quiz.next()
            for lr in (a, b, c, d):
                await lr.wait_for(lambda: lr.quiz_over)
            assert quiz.finished
            await teacher.wait_for(lambda: not teacher.quiz()["active"])
            assert len(room.answers()) == 4
            await teacher.close()
            for lr in (a, b, c, d):
                await lr.close()
    run(main())


def test_hostile_quiz_answers_are_refused_and_nothing_is_stored(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=1) as server:
            room = server.room
            (a,) = await joined(server, 1)
            quiz = room.quiz("next_dealer", n=1, seed=3)
            q = await a.wait_question(0)
            assert [ch["value"] for ch in q["choices"]] == [0, 1, 2, 3]

            async def refused(msg, words, stored=0):
                n = len(a.refusals)
                await a.send(msg)
                await a.wait_for(lambda: len(a.refusals) > n)
                assert words in a.refusals[-1], a.refusals[-1]
                assert len(room.store.results(room.code)) == stored
            base = {"type": "quiz_answer", "quiz": quiz.id, "index": 0}
            await refused({**base, "answer": True}, "not one of this question's answers")
            await refused({**base, "answer": 1.0}, "not one of this question's answers")
            await refused({**base, "answer": "North"}, "not one of this question's answers")
            await refused({**base, "answer": [1]}, "not one of this question's answers")
            await refused({**base, "answer": {"x": 1}}, "not one of this question's answers")
            await refused({**base}, "not one of this question's answers")
            await refused({**base, "answer": 1, "right": True}, "quiz can read")
            await refused({**base, "index": 1, "answer": 1}, "not the one open now")
            await refused({**base, "index": "0", "answer": 1}, "not the one open now")
            await refused({**base, "quiz": "deadbeef", "answer": 1}, "not the one open now")
            await refused({**base, "quiz": ["x"], "answer": 1}, "not the one open now")
            await refused(json.dumps({**base, "answer": "x" * 5000}), "too long")
            # a socket that never said hello (no seat token)
            stranger = SimulatedLearner(address(server), "S", code=CODE)
            await stranger.connect()
            await stranger.send({**base, "answer": 1})
            await stranger.wait_for(lambda: stranger.refusals)
            assert "Join the class first" in stranger.refusals[-1]
            # a notebook posting a quiz result over HTTP: refused, not stored
            body = json.dumps({"results": [{"id": "abcdefgh12", "kind": "quiz",
                                            "item": quiz.current.item, "answer": 1}]}).encode()
            req = urllib.request.Request(address(server) + "api/results", data=body, headers={
                "Content-Type": "application/json", "Authorization": f"token {a.token}"})
            loop = asyncio.get_running_loop()
            status = await loop.run_in_executor(None, _status, req)
            assert status == 400 and not room.store.results(room.code)
            # the socket stayed open: a real answer goes, once
            ack = await a.answer_quiz(2)
            assert ack["answer"] == 2 and len(room.store.results(room.code)) == 1
            await refused({**base, "answer": 3}, "already", stored=1)
            assert quiz.current.answers[a.welcome["learner"]][0] == 2
            assert len(room.store.results(room.code)) == 1
            # after the quiz: no question is open
            quiz.stop()
            await a.wait_for(lambda: a.quiz_over)
            await refused({**base, "answer": 1}, "not the one open now", stored=1)
            assert not a.closed and not stranger.closed
            await a.close()
            await stranger.close()
    run(main())


def _status(req):
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status
    except urllib.error.HTTPError as err:
        return err.code


def test_every_click_kind_makes_questions_and_legal_cards_is_refused():
    room = Room.create(Store(":memory:"), code="ABC234", tables=1)
    from courtlearn import exercises
    assert set(CLICK_KINDS) == set(exercises.KINDS + exercises.PLAY_KINDS
                                   + exercises.STRATEGY_KINDS) - {"legal_cards"}
    for kind in CLICK_KINDS:
        quiz = room.quiz(kind, n=2, seed=11)
        cur = quiz.current
        assert cur.right(), kind                         # the engine's answer is a choice
        assert cur.prompt and cur.reason()
        values = [c["value"] for c in cur.choices]
        assert len(values) == len({json.dumps(v) for v in values}) >= 2
        again = start(Room.create(Store(":memory:"), code="ABC235", tables=1), kind, n=2, seed=11)
        assert again.current.choices == cur.choices      # seeded: the same questions
    with pytest.raises(ValueError) as err:
        room.quiz("legal_cards")
    assert "one click" in str(err.value) and all(k in str(err.value) for k in CLICK_KINDS)
    for bad in ({"n": 0}, {"n": 51}, {"n": True}, {"seed": "x"}, {"seed": -1}):
        with pytest.raises(ValueError):
            room.quiz("trick_winner", **bad)
    # a quiz started while one runs ends the first
    first = room.quiz("next_dealer", n=3)
    second = room.quiz("tens_winner", n=1)
    assert first.finished and not second.finished


def test_the_teacher_page_runs_the_quiz_and_a_learner_cannot(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=1) as server:
            room = server.room
            (a,) = await joined(server, 1)
            # a teacher socket without the token: refused, no quiz
            stranger = await Teacher(server).connect(None)
            await stranger.send({"type": "quiz", "content": {"type": "start",
                                                             "kind": "trick_winner"}})
            await stranger.wait_for(lambda: stranger.of("refused"))
            # a learner socket: refused
            n = len(a.refusals)
            await a.send({"type": "quiz", "content": {"type": "start", "kind": "trick_winner"}})
            await a.wait_for(lambda: len(a.refusals) > n)
            assert getattr(room, "_quiz_desk", None) is None
            t = await Teacher(server).connect(room.teacher_token)
            await t.send({"type": "quiz", "content": {"type": "state"}})
            st = await t.wait_for(lambda: t.quiz())
            assert not st["active"] and [k["kind"] for k in st["kinds"]] == list(CLICK_KINDS)
            assert st["words"]["reveal"]
            await t.send({"type": "quiz", "content": {"type": "start", "kind": "legal_cards"}})
            await t.wait_for(lambda: t.of("refused"))
            assert "one click" in t.of("refused")[-1]["reason"]
            await t.send({"type": "quiz", "content": {"type": "start", "kind": "pile_capture",
                                                      "n": 2, "seed": 5}})
            q = await a.wait_question(0)
            assert q["trick"] and len(q["trick"]) == 4 and q["choices"][-1]["value"] == "nobody"
            await a.answer_quiz("nobody")
            await t.wait_for(lambda: t.quiz()["answered"] == 1)
            assert [w["name"] for w in t.quiz()["who"]] == ["L0"]
            room.hide_names(True)                  # the dashboard's Hide names: the quiz too
            await t.wait_for(lambda: [w["name"] for w in t.quiz()["who"]] == ["Learner 1"])
            room.hide_names(False)
            await t.send({"type": "quiz", "content": {"type": "reveal"}})
            await a.wait_for(lambda: a.quiz_reveals)
            st = await t.wait_for(lambda: t.quiz()["revealed"] and t.quiz())
            assert sum(s["count"] for s in st["spread"]) == 1
            await t.send({"type": "quiz", "content": {"type": "next"}})
            await a.wait_question(1)
            await t.send({"type": "quiz", "content": {"type": "stop"}})
            await a.wait_for(lambda: a.quiz_over)
            n = len(t.of("refused"))
            await t.send({"type": "quiz", "content": {"type": "reveal"}})
            await t.wait_for(lambda: len(t.of("refused")) > n)
            await t.close()
            await stranger.close()
            await a.close()
    run(main())


def test_a_page_that_comes_back_gets_the_question_its_answer_and_the_reveal(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=1) as server:
            room = server.room
            quiz = room.quiz("tens_winner", n=1, seed=2)
            (a,) = await joined(server, 1)
            await a.send({"type": "quiz_get"})       # what the page does after its welcome
            q = await a.wait_question(0)
            assert [c["kind"] for c in q["choices"]] == ["team", "team"]
            await a.answer_quiz(quiz.current.right()[0])
            quiz.reveal()
            await a.wait_for(lambda: a.quiz_reveals)
            await a.close()
            back = SimulatedLearner(address(server), "L0", token=a.token, record=True)
            await back.join()
            await back.send({"type": "quiz_get"})
            await back.wait_for(lambda: back.quiz and back.quiz_acks and back.quiz_reveals)
            assert back.quiz_reveals[-1]["correct"] is True
            await back.close()
    run(main())


def test_the_quiz_speaks_the_class_language(tmp_path):
    async def main():
        async with class_server(tmp_path, tables=1, language="ur") as server:
            room = server.room
            quiz = room.quiz("next_dealer", n=1, seed=4)
            (a,) = await joined(server, 1, names=["عائشہ"])
            await a.send({"type": "quiz_get"})
            q = await a.wait_question(0)
            with using("ur"):
                want = cl.exercises.question("next_dealer", seed=quiz.current.seed)
                seat = cl.Rules.court_piece().seat_name(2)
            assert q["prompt"] == want.prompt and q["prompt"] != "Who deals next?"
            assert q["choices"][2]["label"] == seat
            assert set(q["words"]) >= {"quiz", "received", "well", "not_well", "answer"}
            await a.close()
    run(main())


def test_the_learner_page_has_the_quiz():
    import pathlib
    js = (pathlib.Path(cl.__file__).parent / "classroom" / "static" / "learner.js").read_text()
    css = (pathlib.Path(cl.__file__).parent / "classroom" / "static" / "learner.css").read_text()
    for needle in ('"quiz_answer"', '"quiz_get"', "data-role\": \"quiz-choice\"",
                   "case \"quiz_reveal\"", "textContent"):
        assert needle in js, needle
    assert "innerHTML" not in js
    assert ".cl-quiz-card" in css and "min-height: 5rem" in css and "min-height: 3.5rem" in css


def test_the_notebook_quiz_object_without_a_server():
    room = Room.create(Store(":memory:"), code="ABC234", tables=1)
    lr, _token = room.register("Asha")
    quiz = room.quiz("court_or_not", n=2, seed=5)
    assert [c["value"] for c in quiz.current.choices] == ["court", "goon court", "bavney",
                                                          "no court"]
    assert "question 1 of 2" in quiz._repr_html_() and "0 of 0 answered" in quiz._repr_html_()
    right = quiz.current.right()[0]
    quiz.answer(lr, {"type": "quiz_answer", "quiz": quiz.id, "index": 0, "answer": right})
    quiz.reveal()
    html = quiz._repr_html_()
    assert "✔" in html and quiz.current.reason().split(":")[0] in html
    quiz.next()
    quiz.next()                                   # after the last question: over
    assert quiz.finished and "over" in quiz._repr_html_()
    with pytest.raises(ValueError, match="over"):
        quiz.reveal()
    frame = quiz.results()
    assert list(frame.columns) == ["learner", "name", "answered", "right", "Q1", "Q2"]
    assert frame.iloc[0].tolist()[1:5] == ["Asha", 1, 1, True] and frame.iloc[0]["Q2"] is None
    assert quiz.answers()["answer"].tolist() == [right]
    assert room.results()["first_right"].tolist() == [True]


def test_the_notebook_quiz_says_its_prompt_once():
    """A kind whose title is its prompt ("Which card wins this trick?") shows it once."""
    room = Room.create(Store(":memory:"), code="ABC234", tables=1)
    quiz = room.quiz("trick_winner", n=1, seed=5)
    prompt = quiz.current.prompt
    assert quiz._repr_html_().count(prompt) == 1, quiz._repr_html_()


def _no_question_for(monkeypatch, bad):
    """exercises.NoQuestion for the seeds ``bad(seed)`` picks (as a few seeds of the kinds
    that look for a position give none); the question otherwise."""
    from courtlearn.classroom import quiz as quiz_module
    from courtlearn.exercises import NoQuestion
    real = quiz_module.question_data

    def question_data(kind, seed):
        if bad(seed):
            raise NoQuestion(f"Seed {seed} gives no {kind} question: try another seed.")
        return real(kind, seed)
    monkeypatch.setattr(quiz_module, "question_data", question_data)


def test_a_seed_with_no_question_gives_way_to_another_seed(monkeypatch):
    """Issue 29: a seed that gave no question (NoQuestion) stopped the quiz silently, in
    the class's workers; now the next seed derived from it is tried (answers stored under
    the seed used), off the loop as before."""
    from courtlearn.classroom import workers as work
    from courtlearn.classroom.quiz import _seed
    first = _seed(7, "trick_winner", 0)
    _no_question_for(monkeypatch, lambda seed: seed == first)

    async def main():
        loop = asyncio.get_running_loop()
        room = Room.create(Store(":memory:"), code="ABC234", tables=1, loop=loop)
        room._workers = work.Workers(loop, size=1, mode="thread")
        lr, _token = room.register("Asha")
        quiz = room.quiz("trick_winner", n=2, seed=7)
        for _ in range(400):
            if quiz.current is not None or quiz.finished:
                break
            await asyncio.sleep(0.025)
        assert not quiz.finished and quiz.problem is None
        cur = quiz.current
        assert cur.seed != first and cur.item == f"trick_winner/seed={cur.seed}"
        quiz.answer(lr, {"type": "quiz_answer", "quiz": quiz.id, "index": 0,
                         "answer": cur.right()[0]})
        stored = room.results()
        assert stored["item"].tolist() == [cur.item] and stored["first_right"].tolist() == [True]
        room.close()
    run(main())


def test_a_quiz_that_cannot_make_a_question_tells_the_teacher(monkeypatch):
    """No seed gives a question: the quiz ends and says why in a sentence (the teacher's
    state, the notebook's view), never a quiz stalled on "being prepared"."""
    _no_question_for(monkeypatch, lambda seed: True)
    room = Room.create(Store(":memory:"), code="ABC234", tables=1)
    quiz = room.quiz("trick_winner", n=2, seed=7)
    assert quiz.finished and quiz.current is None
    assert quiz.problem == ("Question 1 of “Which card wins this trick?” could not be made: "
                            "none of the 6 seeds tried gives one. The quiz ends here; start "
                            "another with another seed (or none).")
    assert quiz.state()["problem"] == quiz.problem and quiz.problem in quiz._repr_html_()
    assert "could not be made" in repr(quiz)
