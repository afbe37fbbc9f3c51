"""The puzzle ladder (courtlearn.puzzles): every shipped puzzle proved by the solver, the
line checker, and the progress file (round trip, and a corrupted file)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

import courtlearn as cl
from courtlearn.puzzles import progress_file
from courtlearn.solver import solve

PUZZLES = cl.puzzles.all()
IDS = [f"{p.key}-{p.title}" for p in PUZZLES]


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    path = tmp_path / "progress.json"
    monkeypatch.setenv("COURTLEARN_PROGRESS", str(path))
    return path


# ---------------------------------------------------------------- every puzzle, proved
@pytest.mark.parametrize("p", PUZZLES, ids=IDS)
def test_the_puzzle_is_proved_by_the_solver(p):
    deal = p.deal
    assert deal.phase == "play" and deal.to_play == p.seat and not deal.rules.stop_when_decided
    assert 3 <= p.tricks_left <= 7
    assert p.level in cl.puzzles.LEVELS and p.title and p.goal and len(p.solution) > 80
    values = solve(deal).values
    # the goal can be reached against any defence, and some lawful first card misses it
    assert max(values.values()) >= p.target > min(values.values())
    assert list(p.answer) == [c for c, v in values.items() if v >= p.target]
    # the tempting card, what a sensible player does without looking deeper, misses
    assert cl.bots.RuleBot().choose(deal) not in p.answer
    # the written solution names the card that keeps the goal
    assert any(str(c) in p.solution for c in p.answer)


@pytest.mark.parametrize("p", PUZZLES, ids=IDS)
def test_the_winning_line_is_correct_and_a_wrong_first_card_is_not(p, scratch):
    line = p.winning_line()
    assert p.check(line, quiet=True).correct is True
    wrong = next(c for c, v in solve(p.deal).values.items() if v < p.target)
    fb = p.check([wrong] + line[1:], quiet=True)
    assert fb.correct is False and str(wrong) in fb.message
    assert any(str(c) in fb.message.split("would have kept it")[0].rsplit(";", 1)[-1]
               for c in p.answer)


def test_levels_and_lookup():
    assert cl.puzzles.LEVELS == (1, 2, 3, 4, 5)
    assert [p.key for p in PUZZLES] == sorted((p.key for p in PUZZLES),
                                              key=lambda k: tuple(map(int, k.split("."))))
    first = cl.puzzles.puzzle(1, 1)
    assert first == PUZZLES[0] and first.number == 1
    for bad in ((0, 1), (6, 1), (True, 1), ("1", 1), (1, 0), (1, 99), (1, "1"), (1, True)):
        with pytest.raises(ValueError, match="level|puzzles"):
            cl.puzzles.puzzle(*bad)
    # a puzzle hands out a fresh deal: playing on it changes nothing in the puzzle
    d = first.deal
    d.play(d.legal_cards()[0])
    assert first.deal.to_notation() != d.to_notation() and first.deal.to_play == first.seat


def test_check_never_raises_and_says_what_was_wrong(scratch, capsys):
    p = cl.puzzles.puzzle(1, 1)
    for answer in (None, "", [], 5, object(), ["XX"], "K of nothing", [None]):
        fb = p.check(answer)
        assert fb.correct is not True and fb.message
        assert capsys.readouterr().out.strip() == fb.message.strip()
    fb = p.check(["AS"], quiet=True)                 # a card South does not hold
    assert fb.correct is False and "cannot be played by South" in fb.message
    short = p.check(p.winning_line()[:1], quiet=True)
    assert short.correct is False and "still in reach" in short.message
    # unreadable or empty answers are not tries
    assert progress_file.load() == {progress_file.puzzle_id(p): {"tries": 2, "solved": False}}


# ---------------------------------------------------------------- progress
def test_progress_round_trip(scratch):
    p, q = cl.puzzles.puzzle(1, 1), cl.puzzles.puzzle(1, 2)
    p.check(["8S"], quiet=True)
    p.check(p.winning_line(), quiet=True)
    q.check(["KC"], quiet=True)
    table = cl.puzzles.progress()
    level1 = table.rows[0]
    assert level1 == {"level": 1, "puzzles": sum(x.level == 1 for x in PUZZLES),
                      "solved": 1, "tries": 3}
    assert "1 of" in str(table) and table.solved == 1
    # the file is plain JSON and survives a new process (a kernel restart)
    data = json.loads(scratch.read_text())
    assert data["format"] == progress_file.FORMAT
    code = "import courtlearn as cl; print(cl.puzzles.progress().rows[0])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**__import__("os").environ}, timeout=120)
    assert str(level1) in out.stdout, out.stderr
    # solved stays solved after a failed try
    p.check(["8S"], quiet=True)
    assert progress_file.load()[progress_file.puzzle_id(p)] == {"tries": 3, "solved": True}


@pytest.mark.parametrize("bad", ["{not json", json.dumps({"format": "other"}),
                                 json.dumps({"format": progress_file.FORMAT,
                                             "puzzles": {"x": {"tries": "two", "solved": 1}}}),
                                 "\udcff"])
def test_a_corrupted_progress_file_is_set_aside_and_replaced(scratch, capsys, bad):
    scratch.write_text(bad, encoding="utf-8", errors="surrogateescape")
    table = cl.puzzles.progress()                      # no crash
    assert table.solved == 0
    out = capsys.readouterr().out
    assert "could not be read" in out and str(scratch) in out
    aside = scratch.with_name(scratch.name + ".bad")
    assert aside.read_bytes() == bad.encode("utf-8", "surrogateescape")
    assert json.loads(scratch.read_text())["puzzles"] == {}
    # a second bad file does not overwrite the first one kept aside
    scratch.write_text("[]")
    cl.puzzles.progress()
    assert aside.exists() and scratch.with_name(scratch.name + ".bad1").read_text() == "[]"
    p = cl.puzzles.puzzle(1, 1)
    assert p.check(p.winning_line(), quiet=True).correct
    assert cl.puzzles.progress().solved == 1


# ---------------------------------------------------------------- on the table
def _last(table):
    return table.state["frames"][-1]


def _click(table, **msg):
    table._on_msg(table, msg, [])
    return _last(table)


def test_the_puzzle_table_judges_each_card_and_offers_the_next(scratch):
    pytest.importorskip("anywidget")
    app = cl.puzzles.play(1, 1, animate=False)
    table, p = app.table, app.puzzle
    st = _last(table)
    assert st["message"] == p.goal and st["show_all"] and not st["can_best_play"]
    south, north = st["seats"][0], st["seats"][2]
    assert south["controlled"] and north["controlled"]
    assert not st["seats"][1]["controlled"] and set(south["legal"]) == {c.code for c in p.deal.legal_cards()}
    before = table.deal.to_dict()
    for forged in ({"type": "best_play", "on": True}, {"type": "hint"}, {"type": "play", "card": "AS"},
                   {"type": "play", "card": "XX"}, {"type": "play"}):
        st = _click(table, **forged)
        assert st["message_kind"] == "error" and table.deal.to_dict() == before
    wrong = next(c for c in p.deal.legal_cards() if c not in p.answer)
    st = _click(table, type="play", card=wrong.code)
    assert table.status == "failed" and st["message_kind"] == "error"
    assert f"{p.answer[0]} would have kept it" in st["message"]
    assert cl.puzzles.progress().rows[0]["tries"] == 1
    app.try_again()
    assert table.status == "playing" and table.deal.to_dict() == before
    for card in p.winning_line():
        _click(table, type="play", card=card.code)
    assert table.status == "solved" and _last(table)["message"].startswith("Solved!")
    assert app.next_button.button_style == "success" and "1 of" in app.progress_label.value
    assert cl.puzzles.progress().rows[0] == {**cl.puzzles.progress().rows[0], "solved": 1, "tries": 2}
    # the solution, step by step, with the engine's sentences
    app.show_solution()
    assert p.solution in app.solution.value.replace("&#x27;", "'") and not app.step_button.disabled
    assert table.deal.to_dict() == before
    table.solution_step()
    assert len(table.deal.actions) == len(before["actions"]) + 1
    assert _last(table)["message"].startswith(f"{table.deal.rules.seat_name(p.seat)} ")
    st = _click(table, type="play", card=p.answer[0].code)
    assert "solution is on show" in st["message"]
    app.next_puzzle()
    assert app.puzzle == cl.puzzles.puzzle(1, 2) and app.table.status == "playing"
    # play() opens the first puzzle of a level not solved yet
    assert cl.puzzles.play(1).puzzle == cl.puzzles.puzzle(1, 2)
    with pytest.raises(ValueError, match="level"):
        cl.puzzles.play(9)


def test_the_readme_lists_the_ladder():
    from pathlib import Path
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    listed = {}
    for line in readme.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].isdigit() and cells[1].isdigit():
            listed[int(cells[0])] = cells[2].split(" · ")
    assert listed == {level: [p.title for p in PUZZLES if p.level == level]
                      for level in cl.puzzles.LEVELS}


def test_a_malformed_ladder_entry_is_refused_with_the_reason(tmp_path):
    from courtlearn.puzzles import _read
    good = cl.puzzles.LADDER.read_text(encoding="utf-8").split("=== puzzle")[1]
    head, deal = good.split("# courtlearn deal")
    cases = {"lacks solution": head.split("solution:")[0] + "# courtlearn deal" + deal,
             "cannot read the line": good.replace("title:", "title", 1),
             "levels are 1 to 5": good.replace("level: 1", "level: 9", 1),
             "no '# courtlearn deal'": good.split("# courtlearn deal")[0]}
    for why, text in cases.items():
        path = tmp_path / "ladder.txt"
        path.write_text("=== puzzle" + text, encoding="utf-8")
        with pytest.raises(ValueError, match=why):
            _read(path)
    path.write_text("=== puzzle" + good, encoding="utf-8")
    assert [p.title for p in _read(path)] == [PUZZLES[0].title]


def test_the_ladder_has_its_shape():
    """At least 45 puzzles, 12 per game, 6 per level; a level's depth is its number of
    tricks left (level + 2); the house rules appear."""
    assert len(PUZZLES) >= 45
    games = [p.game for p in PUZZLES]
    assert all(games.count(g) >= 12 for g in cl.GAMES)
    levels = [p.level for p in PUZZLES]
    assert all(levels.count(lv) >= 6 for lv in cl.puzzles.LEVELS)
    assert all(p.tricks_left == p.level + 2 for p in PUZZLES)
    rules = [p.deal.rules for p in PUZZLES]
    assert any(r.game == "double_sir" and not r.first_two_capture for r in rules)
    assert any(r.game == "double_sir" and not r.aces_capture for r in rules)
    assert any(r.game == "double_sir" and r.trump_method == "first_void" for r in rules)
    assert any(r.game == "dehla_pakad" and r.trump_method == "first_void" for r in rules)
    assert len({p.title for p in PUZZLES}) == len(PUZZLES)
    assert len({p.notation for p in PUZZLES}) == len(PUZZLES)


# ---------------------------------------------------------------- worked examples (issue 24)
def test_a_worked_line_is_checked_but_never_counted(scratch, capsys):
    p = cl.puzzles.puzzle(1, 1)
    line = [str(c) for c in p.winning_line()]
    answer = cl.puzzles.worked(line)
    assert isinstance(answer, tuple) and [str(c) for c in answer] == line
    assert repr(answer).startswith("worked([")
    fb = p.check(answer)
    out = capsys.readouterr().out
    assert fb.correct is True and out.startswith("Correct: ")
    assert "worked example" in out and "does not count" in fb.message
    wrong = next(c for c in p.deal.legal_cards() if c not in p.answer)
    assert p.check(cl.puzzles.worked([wrong]), quiet=True).correct is False
    assert progress_file.load() == {} and cl.puzzles.progress().solved == 0
    # the same line typed by the learner is their solve
    assert p.check(line, quiet=True).correct is True
    assert progress_file.load() == {progress_file.puzzle_id(p): {"tries": 1, "solved": True}}
    for bad in (..., 5, "K of nothing", ["XX"], None):
        with pytest.raises(ValueError, match="card"):
            cl.puzzles.worked(bad)


# ---------------------------------------------------------------- the table's edges (issue 24)
def test_next_step_goes_dark_once_the_whole_solution_is_shown(scratch):
    pytest.importorskip("anywidget")
    app = cl.puzzles.play(1, 1, animate=False)
    table = app.table
    assert app.step_button.disabled                    # no solution on show yet
    app.show_solution()
    steps = 4 * table.puzzle.tricks_left - len(table.puzzle.deal.trick.cards)
    for n in range(steps):
        assert not app.step_button.disabled, f"Next step dark after {n} of {steps} steps"
        app.step_button.click()
    assert table.deal.phase == "over" and table.status == "solution"
    assert app.step_button.disabled                     # the whole solution was shown
    assert "whole solution" in _last(table)["message"]
    app.step_button.click()                             # a stale click changes nothing
    assert table.deal.phase == "over" and app.step_button.disabled
    app.try_again()
    assert app.step_button.disabled and table.status == "playing"
    app.show_solution()
    assert not app.step_button.disabled
    table.try_again()                                   # from Python, not the button
    assert app.step_button.disabled


@pytest.mark.parametrize("bad", [None, 5, "1.1", cl.Deal(cl.Rules.court_piece(), seed=1)])
def test_a_puzzle_table_needs_a_puzzle(bad):
    pytest.importorskip("anywidget")
    from courtlearn.puzzles.table import PuzzleApp, PuzzleTable
    for make in (PuzzleTable, PuzzleApp):
        with pytest.raises(TypeError, match=r"Puzzle.*cl\.puzzles\.puzzle"):
            make(bad)


def test_a_failure_after_a_move_the_deal_took_is_logged_and_the_move_answered_ok(
        scratch, monkeypatch, caplog):
    pytest.importorskip("anywidget")
    app = cl.puzzles.play(1, 1, animate=False)
    table, p = app.table, app.puzzle
    sent = []
    monkeypatch.setattr(table, "send", lambda msg, *a, **k: sent.append(msg))

    def broken():
        raise RuntimeError("judging broke")
    monkeypatch.setattr(table, "_after", broken)
    before = len(table.deal.actions)
    card = p.winning_line()[0]
    with caplog.at_level("ERROR"):
        table._on_msg(table, {"type": "play", "card": card.code, "id": 7}, [])
    assert len(table.deal.actions) > before and table.deal.actions[before] == card.code
    assert sent[-1] == {"reply_to": 7, "ok": True}
    assert "judging broke" in caplog.text
    st = _last(table)
    assert st["message_kind"] == "error" and "judging broke" in st["message"]
    assert "Something went wrong" not in st["message"]
    # the Python API too: the card stands, the failure is said, nothing raises
    monkeypatch.setattr(table, "_after", broken)
    n = len(table.deal.actions)
    table.play(next(c for c, v in solve(table.deal).values.items() if v >= p.target))
    assert len(table.deal.actions) > n and "judging broke" in _last(table)["message"]
