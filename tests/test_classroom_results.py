"""Results from learners' notebooks (issue 26): ``cl.classroom.join`` in a notebook, every
exercise check and puzzle try sent to the class (and kept in the progress file while the
class cannot be reached), ``POST api/join`` / ``api/results`` judged again and stored by
``Room.record``, ``room.results()``, ``cl.classroom.results(path)`` after class, and the
dashboard's results grid. Every server listens on 127.0.0.1 only; every wait is bounded.
"""
from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import threading
import time
import urllib.error
import urllib.request

import pytest

import courtlearn as cl
from courtlearn.classroom import client
from courtlearn.classroom import grading as res
from courtlearn.classroom.room import Refusal, Room
from courtlearn.classroom.server import ClassServer
from courtlearn.classroom.simulated import ServerProcess, free_port
from courtlearn.classroom.store import Store
from courtlearn.puzzles import progress_file

pytestmark = pytest.mark.timeout(300)

CODE = "RESU23"
P11 = cl.puzzles.puzzle(1, 1)


# ----------------------------------------------------------------------------- helpers
class Served:
    """A class (``Room``) and its ClassServer on 127.0.0.1, in an event loop of a thread of
    their own: the test's code (and the notebook's client, which blocks) runs beside it.
    ``call(fn)`` runs ``fn`` in the server's loop and returns what it returned."""

    def __init__(self, db, code=CODE, port=0, server_class=ClassServer, **kw):
        self.db, self.code, self.port, self.server_class, self.kw = db, code, port, \
            server_class, kw
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def __enter__(self):
        self.thread.start()

        def make():
            self.store = Store(self.db)
            if self.store.class_row(self.code) is not None:
                self.room = Room.load(self.store, self.code, loop=self.loop)
            else:
                self.room = Room.create(self.store, code=self.code, tables=1, seed=1,
                                        loop=self.loop)
            self.server = self.server_class(self.room, port=self.port, host="127.0.0.1",
                                            **self.kw)
            self.port = self.server.port
        self.call(make)
        return self

    def call(self, fn, *args):
        async def run():
            return fn(*args)
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(30)

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def __exit__(self, *exc):
        def stop():
            self.server.stop()
            self.store.close()
        self.call(stop)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


def http(method, url, body=None, headers=None, raw=None):
    """(status, JSON reply) of one request (errors included)."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    head = {"Content-Type": "application/json", **(headers or {})}
    req = urllib.request.Request(url, data=data, headers=head, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            status, text = r.status, r.read()
    except urllib.error.HTTPError as err:
        status, text = err.code, err.read()
    try:
        return status, json.loads(text or b"{}")
    except ValueError:
        return status, {"raw": text[:200]}


def joined(s: Served, name: str) -> tuple[int, str]:
    """A learner joined over the API: (learner id, seat token)."""
    status, reply = http("POST", s.address + "api/join", {"code": s.code, "name": name})
    assert status == 200, reply
    return reply["learner"], reply["token"]


def result(rid, item="trick_winner/1", answer="K♥", kind="exercise", **more) -> dict:
    return {"id": rid, "kind": kind, "item": item, "answer": answer, **more}


def post(s: Served, token, results, headers=None):
    return http("POST", s.address + "api/results", {"results": results},
                {"Authorization": f"token {token}", **(headers or {})})


@pytest.fixture
def progress(tmp_path, monkeypatch):
    """The learner's progress file for this test (no class joined from elsewhere)."""
    path = tmp_path / "progress.json"
    monkeypatch.setenv("COURTLEARN_PROGRESS", str(path))
    monkeypatch.delenv("COURTLEARN_CLASS", raising=False)
    monkeypatch.delenv("COURTLEARN_STRICT", raising=False)
    for var in ("JUPYTERHUB_API_TOKEN", "JUPYTERHUB_USER"):
        monkeypatch.delenv(var, raising=False)
    client._state["env_adopted"] = None
    yield path
    client.leave()


# ----------------------------------------------------------------------------- a real kernel
def _run(kc, code: str, timeout: float = 120) -> str:
    """Run ``code`` as one cell in the kernel; its printed output (an error fails)."""
    out = []

    def hook(msg):
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream":
            out.append(content["text"])
        elif kind == "error":
            out.append("\n".join(content["traceback"]))
    reply = kc.execute_interactive(code, timeout=timeout, output_hook=hook)
    text = "".join(out)
    assert reply["content"]["status"] == "ok", text
    return text


CELLS_BEFORE = """
q1 = cl.exercises.question("trick_winner", 1)
q1.check("2♥"); q1.check("K♥")
p = cl.puzzles.puzzle(1, 1)
p.check(["AS"]); p.check(p.winning_line())
q2 = cl.exercises.question("legal_cards", 1)
q2.check(cl.exercises.worked("9♥ 4♥"))              # the teacher's: never sent
print("flushed", cl.classroom.flush().pending)
"""
CELLS_WHILE_STOPPED = """
q3 = cl.exercises.question("next_dealer", seed=11)
q3.check("North"); q3.check(q3.solution)
print("waiting", cl.classroom.status().pending)
"""
CELLS_AFTER_RESTART = """
import courtlearn as cl
q4 = cl.exercises.question("court_or_not", 2)
q4.check(q4.solution)
print("waiting", cl.classroom.status().pending)
"""
CELLS_BACK = """
q5 = cl.exercises.question("tens_winner", 1)
q5.check("nobody")
import time
end = time.monotonic() + 60
while cl.classroom.status().pending and time.monotonic() < end:
    time.sleep(0.2)                     # the notebook's own sender, woken by the check
print("waiting", cl.classroom.flush().pending)
"""


def test_a_notebook_kernel_in_a_class_whose_server_stops_for_a_while(tmp_path):
    """A notebook kernel joining a class, answering checks right and wrong, with the server
    stopped for a while in between (and the kernel restarted meanwhile): the teacher's
    frame holds every answer exactly once."""
    jupyter_client = pytest.importorskip("jupyter_client")
    db, progress_path = tmp_path / "class.sqlite", tmp_path / "progress.json"
    port = free_port()
    server = ServerProcess(db, CODE, port=port, tables=1).start()
    env = {**os.environ, "COURTLEARN_PROGRESS": str(progress_path)}
    for var in ("COURTLEARN_CLASS", "COURTLEARN_STRICT", "JUPYTERHUB_API_TOKEN"):
        env.pop(var, None)
    km, kc = jupyter_client.manager.start_new_kernel(kernel_name="python3", env=env,
                                                     startup_timeout=120)
    try:
        said = _run(kc, "import courtlearn as cl\n"
                        f"m = cl.classroom.join('http://127.0.0.1:{port}/?code={CODE}', 'Ali')\n"
                        "print(m); print(m.joined)")
        assert "True" in said and "You are in the class RESU23 as Ali" in said
        assert "flushed 0" in _run(kc, CELLS_BEFORE)
        server.stop()                                      # the class is gone for a while
        assert "waiting 2" in _run(kc, CELLS_WHILE_STOPPED)
        km.restart_kernel(now=True)                        # and the kernel restarts
        kc.wait_for_ready(timeout=120)
        assert "waiting 3" in _run(kc, CELLS_AFTER_RESTART)
        waiting = json.loads(progress_path.read_text())["pending"]
        assert len(waiting) == 3 and len({r["id"] for r in waiting}) == 3
        server = ServerProcess(db, CODE, port=port, tables=1).start()   # the same file
        assert "waiting 0" in _run(kc, CELLS_BACK)
        assert "pending" not in json.loads(progress_path.read_text()) or \
            not json.loads(progress_path.read_text())["pending"]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
        server.stop()
    frame = cl.classroom.answers(db)
    q3 = cl.exercises.question("next_dealer", seed=11)
    q4 = cl.exercises.question("court_or_not", 2)
    assert list(zip(frame["item"], frame["answer"].map(json.dumps), frame["right"])) == [
        ("court_or_not/2", json.dumps(q4.solution), True),
        ("next_dealer/seed=11", json.dumps("North"), q3.solution == "North"),
        ("next_dealer/seed=11", json.dumps(q3.solution), True),
        ("tens_winner/1", json.dumps("nobody"), False),
        ("trick_winner/1", json.dumps("2♥"), False),
        ("trick_winner/1", json.dumps("K♥"), True),
        ("puzzle/1.1", json.dumps(["AS"]), False),
        ("puzzle/1.1", json.dumps([c.code for c in P11.winning_line()]), True),
    ]
    assert frame["id"].is_unique and set(frame["name"]) == {"Ali"}
    assert set(frame["learner"]) == {1}                    # one learner, after the restarts
    assert frame.groupby("item")["try"].apply(list).to_dict()["trick_winner/1"] == [1, 2]
    table = cl.classroom.results(db)
    row = table.set_index("item").loc["trick_winner/1"]
    assert (row["tries"], row["first_right"], row["solved"]) == (2, False, True)


# ----------------------------------------------------------------------------- the API refuses
def test_forged_duplicate_other_learners_nonexistent_and_non_answers_are_refused(tmp_path):
    with Served(tmp_path / "class.sqlite") as s:
        ali, ali_token = joined(s, "Ali")
        bina, bina_token = joined(s, "Bina")
        status, reply = post(s, ali_token, [result("ali-0001", answer="2♥"),
                                            result("ali-0002", answer="K♥")])
        assert status == 200 and reply["stored"] == ["ali-0001", "ali-0002"]
        assert not reply["refused"] and not reply["duplicate"]
        # the same ids again: no-ops (a resend after a lost answer)
        status, reply = post(s, ali_token, [result("ali-0002", answer="K♥"),
                                            result("ali-0001", answer="2♥")])
        assert reply["stored"] == reply["duplicate"] == ["ali-0002", "ali-0001"]
        bad = {
            "forged verdict": result("ali-0003", answer="2♥", right=True),
            "another learner": result("ali-0004", learner=bina),
            "no such question": result("ali-0005", item="trick_winner/999"),
            "no such kind of question": result("ali-0006", item="card_counting/1"),
            "no such puzzle": result("ali-0007", kind="puzzle", item="puzzle/9.1",
                                     answer=["AS"]),
            "another ladder's puzzle": result("ali-0008", kind="puzzle", item="puzzle/1.1",
                                              answer=["AS"], ref="0123456789"),
            "a dict": result("ali-0009", answer={"card": "K♥"}),
            "a long text": result("ali-0010", answer="K" * 5000),
            "a nested list": result("ali-0011", answer=[["KH"]]),
            "an empty line": result("ali-0012", kind="puzzle", item="puzzle/1.1", answer=[]),
            "unreadable cards": result("ali-0013", kind="puzzle", item="puzzle/1.1",
                                       answer=["ZZ"]),
            "a quiz nobody runs": result("ali-0014", kind="quiz", item="quiz/1/1"),
            "a bad id": result("x", answer="K♥"),
            "not a result": "K♥",
        }
        status, reply = post(s, ali_token, list(bad.values()))
        assert status == 400 and not reply["stored"] and not reply["failed"]
        assert reply["reason"] == reply["refused"][0]["reason"]
        assert len(reply["refused"]) == len(bad)
        assert all("nothing was stored" in r["reason"] for r in reply["refused"]), reply
        # Bina's token stores under Bina only: nobody sends in another's name
        status, reply = post(s, bina_token, [result("ali-0001", answer="9♥")])
        assert reply["stored"] == ["ali-0001"] and not reply["duplicate"]
        frame = s.call(s.room.answers)
    assert sorted(zip(frame["name"], frame["id"], frame["right"])) == [
        ("Ali", "ali-0001", False), ("Ali", "ali-0002", True), ("Bina", "ali-0001", False)]


def test_the_api_checks_the_door_sizes_and_rates(tmp_path):
    with Served(tmp_path / "class.sqlite") as s:
        url = s.address
        assert http("POST", url + "api/join", {"code": "WRONG9", "name": "Zed"})[0] == 403
        status, reply = http("POST", url + "api/join", {"code": CODE, "name": "  "})
        assert status == 400 and "name" in reply["reason"]
        assert http("POST", url + "api/join", {"token": "x" * 43})[0] == 401
        lid, token = joined(s, "Ali")
        assert http("POST", url + "api/join", {"token": token})[1] == {
            "learner": lid, "name": "Ali", "code": CODE}              # the same learner again
        # no token, an unknown one, another site's page, not JSON: nothing stored
        assert http("POST", url + "api/results", {"results": [result("r-000001")]})[0] == 401
        assert post(s, "y" * 43, [result("r-000002")])[0] == 401
        assert post(s, token, [result("r-000003")],
                    {"Origin": "http://evil.example"})[0] == 403
        assert http("POST", url + "api/results", raw=b"results=1",
                    headers={"Authorization": f"token {token}",
                             "Content-Type": "application/x-www-form-urlencoded"})[0] == 400
        status, reply = post(s, token, [result(f"r-{i:06d}") for i in range(101)])
        assert status == 400 and "100" in reply["reason"]
        big = [result(f"b-{i:06d}", answer="K" * 490) for i in range(100)] * 6
        try:
            status = post(s, token, big)[0]
        except OSError:                                         # the connection closed
            status = "closed"
        assert status in (400, 413, "closed")                   # over 256 KB: never read
        assert s.call(lambda: s.room.answers().empty)
        # a flood: answered 429 once the learner's bucket is empty
        codes = [post(s, token, [result(f"f-{i:06d}")])[0] for i in range(45)]
        assert codes.count(429) >= 5 and codes[0] == 200
        assert http("GET", url + "health")[0] == 200             # the server goes on


def test_a_learner_reads_only_their_own_results(tmp_path, progress):
    with Served(tmp_path / "class.sqlite") as s:
        _, bina_token = joined(s, "Bina")
        post(s, bina_token, [result("bina-0001", answer="2♥")])
        client.join(s.address + f"?code={CODE}", "Ali")
        cl.exercises.question("trick_winner", 1).check("K♥")
        mine = client.my_results()
        assert list(mine.columns) == res.RESULT_COLUMNS
        assert list(mine["name"]) == ["Ali"] and mine["solved"].tolist() == [True]
        status, reply = http("GET", s.address + "api/results")
        assert status == 401 and "results" not in reply


# ----------------------------------------------------------------------------- the notebook side
def test_results_wait_in_the_progress_file_until_the_class_can_be_reached(tmp_path, progress):
    port = free_port()
    address = f"http://127.0.0.1:{port}/?code={CODE}"
    m = client.join(address, "Ali", timeout=1)              # nobody listens there yet
    assert not m.joined and "has not been reached yet" in str(m)
    q = cl.exercises.question("pile_capture", 1)
    q.check("North"); q.check(q.solution)
    P11.check(P11.winning_line(), quiet=True)
    waiting = json.loads(progress.read_text())
    assert len(waiting["pending"]) == 3 and waiting["class"]["name"] == "Ali"
    assert waiting["puzzles"][progress_file.puzzle_id(P11)] == {"tries": 1, "solved": True}
    with Served(tmp_path / "class.sqlite", port=port) as s:
        m = client.flush()
        assert m.joined and m.pending == 0
        # the same waiting results again (a copy of the file from before): stored once
        doc = json.loads(progress.read_text())
        progress.write_text(json.dumps({**doc, "pending": waiting["pending"]}))
        assert client.flush().pending == 0
        frame = s.call(s.room.answers)
    assert len(frame) == 3 and frame["id"].is_unique
    assert frame["right"].tolist() == [False, True, True]   # pile_capture: North is wrong
    assert q.solution != "North"


def test_big_batches_and_refused_results_never_block_the_waiting_ones(tmp_path, progress):
    """Waiting results go in requests the server takes (at most 100 and 128 KB each, the
    server reads 256 KB); one the class refuses is dropped (and said), not sent forever."""
    port = free_port()
    address = f"http://127.0.0.1:{port}/?code={CODE}"
    client.join(address, "Ali", timeout=1)                  # nobody listens yet
    key = f"http://127.0.0.1:{port}/#{CODE}"
    waiting = [{"id": f"big-{i:06d}", "class": key, "kind": "exercise",
                "item": "trick_winner/1", "answer": ["♥" * 40] * 60} for i in range(150)]
    waiting.insert(7, {"id": "nope-000001", "class": key, "kind": "exercise",
                       "item": "trick_winner/999", "answer": "K♥"})
    from courtlearn.classroom.server import MAX_BODY
    assert sum(len(json.dumps(r, ensure_ascii=False).encode()) for r in waiting[:100]) > MAX_BODY
    doc = json.loads(progress.read_text())
    progress.write_text(json.dumps({**doc, "pending": waiting}, ensure_ascii=False))
    assert len(client._batch(waiting)) < 100                  # cut by size, not count
    with Served(tmp_path / "class.sqlite", port=port) as s:
        m = client.flush()
        assert m.joined and m.pending == 0
        assert [rid for rid, _ in m.refused] == ["nope-000001"]
        frame = s.call(s.room.answers)
    assert len(frame) == 150 and frame["id"].is_unique and not frame["right"].any()


def test_worked_answers_and_strict_checks_never_reach_the_class(tmp_path, progress,
                                                              monkeypatch):
    with Served(tmp_path / "class.sqlite") as s:
        client.join(s.address + f"?code={CODE}", "Ali")
        q = cl.exercises.question("trick_winner", 1)
        assert q.check(cl.exercises.worked("K♥")).correct is True
        assert P11.check(cl.puzzles.worked(P11.winning_line()), quiet=True).correct is True
        monkeypatch.setenv("COURTLEARN_STRICT", "1")
        assert q.check("K♥").correct is True                  # testing worked solutions
        monkeypatch.delenv("COURTLEARN_STRICT")
        assert q.check(...).correct is None                   # not answered: no try
        P11.check("", quiet=True)                               # no line: no try
        q.check("K♥")                                           # the learner's own
        assert client.flush().pending == 0
        frame = s.call(s.room.answers)
    assert frame["answer"].tolist() == ["K♥"]


def test_the_puzzle_table_sends_each_try_with_its_line(tmp_path, progress):
    pytest.importorskip("anywidget")
    with Served(tmp_path / "class.sqlite") as s:
        client.join(s.address + f"?code={CODE}", "Ali")
        app = cl.puzzles.play(1, 1, animate=False)
        table = app.table
        wrong = next(c for c in P11.deal.legal_cards() if c not in P11.answer)
        table._on_msg(table, {"type": "play", "card": wrong.code}, [])
        app.try_again()
        for card in P11.winning_line():
            table._on_msg(table, {"type": "play", "card": card.code}, [])
        assert table.status == "solved"
        assert client.flush().pending == 0
        assert progress_file.load()[progress_file.puzzle_id(P11)] == {
            "tries": 2, "solved": True}                    # counted at home too
        frame = s.call(s.room.answers)
    assert frame["answer"].tolist() == [[wrong.code], [c.code for c in P11.winning_line()]]
    assert frame["right"].tolist() == [False, True]


def test_the_progress_file_keeps_the_class_and_waiting_results_through_puzzle_tries(progress):
    doc = {"format": progress_file.FORMAT, "puzzles": {},
           "class": {"address": "http://10.0.0.9:8765/", "code": "ABC234", "name": "Ali",
                     "hub": False, "token": None, "learner": None},
           "pending": [{"id": "a" * 32, "class": "http://10.0.0.9:8765/#ABC234",
                        "kind": "exercise", "item": "trick_winner/1", "answer": "K♥"}]}
    progress.write_text(json.dumps(doc))
    progress_file.record(P11, True)                           # a try of an older kind of call
    after = json.loads(progress.read_text())
    assert after["class"] == doc["class"] and after["pending"] == doc["pending"]
    assert after["puzzles"][progress_file.puzzle_id(P11)] == {"tries": 1, "solved": True}
    # a broken class part never makes the tries unreadable (nor the file "bad")
    progress.write_text(json.dumps({**after, "pending": "garbage", "class": 7}))
    assert cl.puzzles.progress().solved == 1
    assert not progress.with_name(progress.name + ".bad").exists()
    assert client.status() is None


def test_addresses_and_where_a_hub_token_may_go(monkeypatch):
    for var in ("JUPYTERHUB_API_TOKEN", "JUPYTERHUB_USER", "COURTLEARN_CLASS"):
        monkeypatch.delenv(var, raising=False)
    assert client.parse_address("http://h:1/services/courtlearn?code=ab2345&name=A%20B") == (
        "http://h:1/services/courtlearn/", "AB2345", "A B")
    for bad in ("", "ftp://x/", "http://", 7):
        with pytest.raises(ValueError, match="address"):
            client.parse_address(bad)
    env = {"JUPYTERHUB_API_TOKEN": "secret", "JUPYTERHUB_USER": "ali",
           "JUPYTERHUB_BASE_URL": "/", "JUPYTERHUB_PUBLIC_URL": "https://hub.school.org/",
           "COURTLEARN_CLASS": "http://127.0.0.1:8765/services/courtlearn/"}
    assert client.hub_token("http://127.0.0.1:8765/services/courtlearn/", env) == "secret"
    assert client.hub_token("https://hub.school.org/services/courtlearn/", env) == "secret"
    for elsewhere in ("http://127.0.0.1:9999/services/courtlearn/",   # another process
                      "https://evil.example/services/courtlearn/",
                      "https://hub.school.org/user/bina/"):
        assert client.hub_token(elsewhere, env) is None
    assert client.hub_token("http://127.0.0.1:8765/services/courtlearn/",
                            {**env, "JUPYTERHUB_API_TOKEN": ""}) is None
    with pytest.raises(ValueError, match="class code"):
        client._record_for("http://10.0.0.9:8765/", "Ali", None)
    with pytest.raises(ValueError, match="your name"):
        client._record_for("http://10.0.0.9:8765/?code=ABC234", None, None)


# ----------------------------------------------------------------------------- the room
def test_several_classes_in_one_file_are_kept_apart(tmp_path):
    db = tmp_path / "class.sqlite"
    store = Store(db)
    a = Room.create(store, code="CLASSA", tables=1, seed=1)
    b = Room.create(store, code="CLASSB", tables=1, seed=2)
    ali, ali_token = a.register("Ali")
    bina, _ = b.register("Bina")
    a.record(ali, result("same-id-01", answer="K♥"))
    b.record(bina, result("same-id-01", answer="2♥"))          # the same id, another class
    b.record(bina, result("same-id-02", item="legal_cards/1", answer="9♥ 4♥"))
    store.commit()
    assert b.learner_for(ali_token) is None                     # A's token means nothing in B
    with pytest.raises(Refusal):
        b.record(ali.id, result("same-id-03"))                  # nor does A's learner
    assert a.results()["name"].tolist() == ["Ali"]
    assert b.results()["item"].tolist() == ["legal_cards/1", "trick_winner/1"]
    store.close()
    with pytest.raises(ValueError, match="CLASSA, CLASSB"):
        cl.classroom.results(db)
    assert cl.classroom.results(db, code="classa")["name"].tolist() == ["Ali"]
    assert cl.classroom.answers(db, "CLASSB")["right"].tolist() == [True, False]
    with pytest.raises(ValueError, match="no class 'NOPE23'"):
        cl.classroom.results(db, code="NOPE23")
    with pytest.raises(FileNotFoundError):
        cl.classroom.results(tmp_path / "nothing.sqlite")
    assert not (tmp_path / "nothing.sqlite").exists()


def test_the_results_frame_one_row_per_learner_and_item(tmp_path):
    db = tmp_path / "class.sqlite"
    store = Store(db)
    room = Room.create(store, code=CODE, tables=1, seed=1)
    ali, _ = room.register("Ali")
    bina, _ = room.register("Bina")
    line = [c.code for c in P11.winning_line()]
    for lr, rid, item, answer, seconds in [
            (ali, "a-000001", "trick_winner/1", "2♥", 5), (ali, "a-000002", "trick_winner/1",
                                                            "Q♥", 9),
            (ali, "a-000003", "trick_winner/1", "K♥", 14), (ali, "a-000004", "legal_cards/1",
                                                             "9♥ 4♥", 3),
            (bina, "b-000001", "trick_winner/1", "K♥", 4), (bina, "b-000002", "puzzle/1.1",
                                                             ["AS"], None),
            (bina, "b-000003", "puzzle/1.1", line, 60)]:
        kind = "puzzle" if item.startswith("puzzle/") else "exercise"
        room.record(lr, result(rid, item=item, answer=answer, kind=kind, seconds=seconds,
                               at=time.time()))
    frame = room.results()
    assert list(frame.columns) == res.RESULT_COLUMNS
    got = {(r.name, r.item): (r.tries, r.first_right, r.solved, r.seconds)
           for r in frame.itertuples()}
    assert got == {("Ali", "legal_cards/1"): (1, True, True, 3.0),
                   ("Ali", "trick_winner/1"): (3, False, True, 14.0),
                   ("Bina", "puzzle/1.1"): (2, False, True, 60.0),
                   ("Bina", "trick_winner/1"): (1, True, True, 4.0)}
    assert str(frame["first"].dtype).startswith("datetime64") and frame["tries"].dtype == int
    csv = tmp_path / "results.csv"
    frame.to_csv(csv, index=False)
    assert csv.read_text().splitlines()[0] == ",".join(res.RESULT_COLUMNS)
    store.close()
    after = cl.classroom.results(db)                           # after class: the same frame
    assert after.drop(columns=["first", "last"]).equals(frame.drop(columns=["first", "last"]))
    assert list(cl.classroom.answers(db).columns) == res.ANSWER_COLUMNS


def test_record_is_the_one_place_results_are_judged(tmp_path):
    room = Room.create(Store(":memory:"), code=CODE, tables=1, seed=1)
    ali, _ = room.register("Ali")
    seen = []

    def quiz(item, answer, r):                   # the live quiz adds its own judge so
        seen.append((item, answer))
        if item != "quiz/1/1":
            raise Refusal("There is no such quiz question; nothing was stored.")
        return None if answer is None else answer == "KH"
    room.judges["quiz"] = quiz
    stored = room.record(ali, result("quiz-0001", kind="quiz", item="quiz/1/1", answer="KH"))
    assert (stored.right, stored.attempt, stored.duplicate) == (True, 1, False)
    for bad in (result("quiz-0002", kind="quiz", item="quiz/2/1"),
                result("quiz-0003", kind="quiz", item="quiz/1/1", answer=None)):
        with pytest.raises(Refusal, match="nothing was stored"):
            room.record(ali, bad)
    room.remove(ali)
    with pytest.raises(Refusal, match="join it again"):
        room.record(ali, result("quiz-0004", kind="quiz", item="quiz/1/1"))
    assert room.answers()["id"].tolist() == ["quiz-0001"]


def test_a_file_from_before_the_results_gets_their_table(tmp_path):
    from courtlearn.classroom.store import SCHEMA
    db = tmp_path / "class.sqlite"
    old = sqlite3.connect(db)
    old.executescript(SCHEMA.split("CREATE TABLE IF NOT EXISTS results")[0] + """
        CREATE TABLE results (id INTEGER PRIMARY KEY, class TEXT NOT NULL, learner INTEGER,
            item TEXT NOT NULL, value TEXT NOT NULL, time REAL NOT NULL);
        INSERT INTO meta VALUES ('schema', '1');
        INSERT INTO classes VALUES ('OLDONE', 'en', '{}', 0);""")
    old.close()
    assert cl.classroom.results(db).empty                      # read only: as it is
    store = Store(db)
    cols = [r[1] for r in store.db.execute("PRAGMA table_info(results)")]
    assert {"attempt", "title"} <= set(cols) and store.db.execute(
        "SELECT value FROM meta WHERE key='schema'").fetchone()[0] == "3"
    store.close()


def test_a_file_of_results_without_titles_gets_them_once_and_the_dashboard_reads_them(
        tmp_path):
    """Schema 2 (issue 26) stored no title: the dashboard named each item by building its
    question again, 600 wrong fresh best_card results took 18 s (issue 29). Opening such a
    file stores every title once; reading never builds a question."""
    from courtlearn.classroom.store import SCHEMA
    db = tmp_path / "class.sqlite"
    old = sqlite3.connect(db)
    old.executescript(SCHEMA.replace(" title TEXT,", "") + """
        INSERT INTO meta VALUES ('schema', '2');
        INSERT INTO classes VALUES ('OLDTWO', 'ur', '{}', 0);
        INSERT INTO learners (id, class, token_hash, name, created) VALUES (1, 'OLDTWO', 'h', 'Ali', 0);""")
    for i, (kind, item) in enumerate([("exercise", "best_card/seed=123456"),
                                      ("exercise", "trick_winner/1"), ("puzzle", "puzzle/1.1"),
                                      ("exercise", "no_such/1")]):
        old.execute("INSERT INTO results (class, learner, id, kind, item, answer, right, attempt,"
                    " at, received) VALUES ('OLDTWO', 1, ?, ?, ?, '\"x\"', 0, 1, ?, ?)",
                    (f"old-{i:05d}", kind, item, 1.0 + i, 1.0 + i))
    old.commit()
    old.close()
    import courtlearn.exercises as ex
    built = []
    real = ex.question
    ex.question = lambda *a, **k: built.append(a) or real(*a, **k)
    try:
        room = Room.load(Store(db), "OLDTWO")
        titles = [r["title"] for r in room.store.results("OLDTWO")]
        grid = room.tally.state([(1, "Ali")])
    finally:
        ex.question = real
    assert built == []                                   # no question was built to name one
    from courtlearn.language import using
    with using("ur"):
        from courtlearn.exercises._base import question_title
        assert titles[:2] == [question_title("best_card", seed=123456),
                              question_title("trick_winner", 1)]
        assert titles[2] == cl.puzzles.puzzle(1, 1).heading
    assert titles[3] == "no_such/1"
    assert [it["title"] for it in grid["items"]] == titles
    room.store.close()


# ----------------------------------------------------------------------------- the dashboard
def test_the_dashboard_grid_shows_who_is_where_who_is_stuck_and_the_hardest(tmp_path):
    from courtlearn.classroom.dashboard import DashboardCore, answer
    room = Room.create(Store(":memory:"), code=CODE, tables=1, seed=1)
    names = ["Zoya", "Ali", "Bina", "<b>Chen</b>"]
    people = {n: room.register(n)[0] for n in names}
    plan = {"Ali": [("trick_winner/1", "K♥")],
            "Zoya": [("trick_winner/1", "2♥"), ("trick_winner/1", "Q♥"),
                     ("trick_winner/1", "A♣")],                        # three tries, stuck
            "Bina": [("trick_winner/1", "2♥"), ("legal_cards/1", "K♠")]}   # then away
    n = 0
    for who, tries in plan.items():
        for item, ans in tries:
            n += 1
            room.record(people[who], result(f"id-{n:06d}", item=item, answer=ans))
    room.tally.last[people["Bina"].id] -= 3600      # nothing from Bina since: at a table
    core = DashboardCore(room)
    st = core.state()["results"]
    assert [it["key"] for it in st["items"]] == ["exercise:trick_winner/1",
                                                 "exercise:legal_cards/1"]
    rows = {r["name"]: r for r in st["learners"]}
    assert [r["name"] for r in st["learners"]] == ["<b>Chen</b>", "Ali", "Bina", "Zoya"]
    assert rows["Zoya"]["stuck"] == "tries" and rows["Zoya"]["tries_now"] == 3
    # stuck means wrong tries at an exercise, never time away (issue 32, item 7)
    assert rows["Bina"]["stuck"] is None and rows["Bina"]["current"] == "exercise:legal_cards/1"
    assert rows["Ali"]["stuck"] is None and rows["Ali"]["solved_now"]
    assert rows["<b>Chen</b>"]["current"] is None and rows["<b>Chen</b>"]["cells"] == {}
    assert rows["Ali"]["cells"] == {"exercise:trick_winner/1": {"tries": 1, "state": "first"}}
    assert rows["Zoya"]["cells"]["exercise:trick_winner/1"] == {"tries": 3, "state": "trying"}
    hardest = [(h["item"], h["wrong"], h["tried"]) for h in st["hardest"]]
    assert hardest == [("legal_cards/1", 1, 1), ("trick_winner/1", 2, 3)]
    assert st["hardest"][0]["title"].startswith("Which cards may I play?")
    # names hidden for the projector: no name anywhere in what the page gets
    assert answer(core, {"type": "hide_names", "on": True, "id": 1})[0]["ok"]
    hidden = json.dumps(core.state(), ensure_ascii=False)
    assert not any(name in hidden for name in names)
    assert [r["name"] for r in core.state()["results"]["learners"]] == [
        "Learner 1", "Learner 2", "Learner 3", "Learner 4"]
    assert room.names_hidden and room.results()["name"].tolist()[0] == "Ali"   # Python keeps them
    assert answer(core, {"type": "hide_names", "on": "yes", "id": 2})[0]["ok"] is False
    # the CSV, in the request's reply
    msg, _ = answer(core, {"type": "results_csv", "id": 3})
    assert msg["ok"] and msg["filename"] == f"class-{CODE}-results.csv"
    assert msg["csv"] == room.results().to_csv(index=False)


# ----------------------------------------------------------------------------- on a JupyterHub
def test_a_hub_users_notebook_joins_by_the_hubs_token(tmp_path, progress, monkeypatch):
    pytest.importorskip("jupyterhub")
    import tornado.web

    from courtlearn.classroom import hub
    scope = "access:services!service=courtlearn"
    users = {"kernel-ali": {"kind": "user", "name": "ali", "scopes": [scope]},
             "kernel-bina": {"kind": "user", "name": "bina", "scopes": [scope]},
             "kernel-guest": {"kind": "user", "name": "guest", "scopes": []}}

    class FakeHubUser(tornado.web.RequestHandler):
        def get(self):
            token = self.request.headers.get("Authorization", "").partition(" ")[2]
            if token not in users:
                raise tornado.web.HTTPError(403)
            self.finish(users[token])

    fake_port = free_port()
    env = {"JUPYTERHUB_SERVICE_NAME": "courtlearn",
           "JUPYTERHUB_SERVICE_PREFIX": "/services/courtlearn/",
           "JUPYTERHUB_SERVICE_URL": "http://127.0.0.1:0",
           "JUPYTERHUB_API_TOKEN": "service-secret",
           "JUPYTERHUB_API_URL": f"http://127.0.0.1:{fake_port}/hub/api",
           "JUPYTERHUB_CLIENT_ID": "service-courtlearn",
           "JUPYTERHUB_OAUTH_ACCESS_SCOPES": json.dumps([scope])}
    with Served(tmp_path / "class.sqlite", server_class=hub.HubServer,
                hub=hub.HubEnv.from_env(env)) as s:
        def fake():
            app = tornado.web.Application([(r"/hub/api/user", FakeHubUser)])
            s.fake = app.listen(fake_port, address="127.0.0.1")
        s.call(fake)
        service = s.address + "services/courtlearn/"
        # the kernel of ali's server under the hub: the admin's COURTLEARN_CLASS
        monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "kernel-ali")
        monkeypatch.setenv("JUPYTERHUB_USER", "ali")
        monkeypatch.setenv("COURTLEARN_CLASS", service)
        m = client.join()
        assert m.joined and m.name == "ali" and m.hub
        q = cl.exercises.question("trick_winner", 1)
        q.check("K♥")
        assert client.flush().pending == 0
        # bina's token is bina's, whatever the body says: before she joins, her results
        # are refused (her notebook joins first); her join names her by the hub, not the body
        bina = {"Authorization": "token kernel-bina"}
        status, reply = http("POST", service + "api/results",
                             {"results": [result("bina-00001", answer="2♥")]}, bina)
        assert status == 401 and reply["rejoin"] is True
        status, reply = http("POST", service + "api/join", {"code": CODE, "name": "ali"}, bina)
        assert status == 200 and reply["name"] == "bina" and "token" not in reply
        status, reply = http("POST", service + "api/results",
                             {"results": [result("bina-00001", answer="2♥")]}, bina)
        assert status == 200 and reply["stored"] == ["bina-00001"]
        # a guest without the service's scope, or no token at all (a cookie is not enough)
        assert http("POST", service + "api/results", {"results": [result("g-0000001")]},
                    {"Authorization": "token kernel-guest"})[0] == 403
        assert http("POST", service + "api/results", {"results": [result("n-0000001")]})[0] \
            == 403
        assert http("POST", service + "api/join", {"code": CODE, "name": "Zed"},
                    {"Authorization": "token kernel-nobody"})[0] == 403
        frame = s.call(s.room.answers)
        learners = s.call(lambda: sorted((lr.name, lr.hub_user)
                                         for lr in s.room.learners.values()))
        s.call(s.fake.stop)
    assert sorted(frame["name"]) == ["ali", "bina"] and "bina-00001" in set(frame["id"])
    assert learners == [("ali", "ali"), ("bina", "bina")]


def test_the_examples_in_the_results_docstrings_run():
    import doctest

    from courtlearn.exercises import _base
    for module in (res, client):
        failed, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert tried > 0 and failed == 0, module.__name__
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(_base.worked, "worked", globs={}):
        runner.run(test)
    assert runner.summarize(verbose=False) == (0, 3)


def test_the_readme_says_how_to_collect_results():
    import pathlib
    import re
    readme = (pathlib.Path(cl.__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    part = readme.split("\n## A class\n", 1)[1].split("\n## ", 1)[0]
    for needed in ('cl.classroom.join("http://192.168.1.5:8765/?code=ABC234", "Asha")',
                   "COURTLEARN_CLASS", "room.results()", "room.answers()",
                   'cl.classroom.results("class.sqlite")', "cl.classroom.my_results()",
                   'cl.exercises.worked("K♥")', "Hide names", "CSV",
                   "access:services!service=courtlearn", "c.Spawner.server_token_scopes"):
        assert needed in part, needed
    for name in set(re.findall(r"\broom\.(\w+)\(", part)):
        assert callable(getattr(Room, name, None)), name
    for name in set(re.findall(r"\bcl\.classroom\.(\w+)\(", part)):
        assert callable(getattr(cl.classroom, name, None)), name
    assert client.parse_address("http://192.168.1.5:8765/?code=ABC234")[1] == "ABC234"
