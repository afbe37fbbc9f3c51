"""The puzzle progress file where COURTLEARN_PROGRESS points at something odd: a folder, a
symlink, a pipe, a place nobody can write, and two kernels recording at once (issue 23,
item 9). What the learner made is never moved or deleted; a check never raises; every try
counts."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import courtlearn as cl
from courtlearn.puzzles import progress_file

ROOT = Path(__file__).resolve().parents[1]
P = cl.puzzles.puzzle(1, 1)
KEY = progress_file.puzzle_id(P)


def _use(monkeypatch, path) -> None:
    monkeypatch.setenv("COURTLEARN_PROGRESS", str(path))


def _tree(folder: Path) -> dict:
    """Every file under ``folder`` with its bytes (folders end with /)."""
    return {str(p.relative_to(folder)) + ("/" if p.is_dir() else ""):
            (None if p.is_dir() else p.read_bytes()) for p in sorted(folder.rglob("*"))}


def _two_tries(capsys) -> str:
    """A wrong line and a right one, checked; returns what was printed."""
    assert P.check(["AS"], quiet=True).correct is False
    assert P.check(P.winning_line(), quiet=True).correct is True
    return capsys.readouterr().out


# ---------------------------------------------------------------- a folder at the path
def test_a_folder_at_the_path_is_left_untouched_and_the_tries_are_kept_in_memory(
        tmp_path, monkeypatch, capsys):
    folder = tmp_path / "progress"
    (folder / "notes").mkdir(parents=True)
    (folder / "puzzles.json").write_text("my own file")
    (folder / "notes" / "a.txt").write_text("keep me")
    before, around = _tree(tmp_path), sorted(os.listdir(tmp_path))
    _use(monkeypatch, folder)
    assert cl.puzzles.progress().solved == 0                   # answers, does not raise
    out = _two_tries(capsys) + capsys.readouterr().out
    progress = cl.puzzles.progress()
    out += capsys.readouterr().out
    assert _tree(tmp_path) == before and sorted(os.listdir(tmp_path)) == around
    assert folder.is_dir() and not (tmp_path / "progress.bad").exists()
    # said once, with the reason and the way out
    assert out.count("cannot be saved") == 1, out
    assert str(folder) in out and "folder" in out and "COURTLEARN_PROGRESS" in out
    # the session's tries still count
    assert progress.rows[0]["tries"] == 2 and progress.solved == 1


# ---------------------------------------------------------------- a symlink at the path
def test_a_symlink_is_followed_and_stays_a_symlink(tmp_path, monkeypatch, capsys):
    store = tmp_path / "store"
    store.mkdir()
    target = store / "real.json"
    target.write_text(json.dumps({"format": progress_file.FORMAT,
                                  "puzzles": {KEY: {"tries": 5, "solved": False}}}))
    target.chmod(0o644)
    home = tmp_path / "home"
    home.mkdir()
    link = home / "progress.json"
    link.symlink_to(os.path.join("..", "store", "real.json"))
    _use(monkeypatch, link)
    assert cl.puzzles.progress().rows[0]["tries"] == 5
    out = _two_tries(capsys)
    assert out == ""
    assert link.is_symlink() and os.readlink(link) == os.path.join("..", "store", "real.json")
    assert os.listdir(home) == ["progress.json"]               # nothing else beside the link
    data = json.loads(target.read_text())
    assert data["puzzles"][KEY] == {"tries": 7, "solved": True}
    assert stat.S_IMODE(target.stat().st_mode) == 0o644        # its mode is kept too
    assert cl.puzzles.progress().rows[0]["tries"] == 7


def test_a_dangling_symlink_gets_its_target_written(tmp_path, monkeypatch, capsys):
    link = tmp_path / "progress.json"
    link.symlink_to(tmp_path / "later.json")
    _use(monkeypatch, link)
    assert cl.puzzles.progress().solved == 0
    assert _two_tries(capsys) == ""
    assert link.is_symlink()
    assert json.loads((tmp_path / "later.json").read_text())["puzzles"][KEY]["tries"] == 2


# ---------------------------------------------------------------- nowhere to write
def test_an_unwritable_path_keeps_the_session_going(tmp_path, monkeypatch, capsys):
    """A path below a plain file cannot be made, not even by root."""
    (tmp_path / "plain").write_text("a file, not a folder")
    _use(monkeypatch, tmp_path / "plain" / "sub" / "progress.json")
    assert cl.puzzles.progress().solved == 0
    out = _two_tries(capsys)
    assert out.count("could not be saved") == 1, out
    assert "until the kernel restarts" in out
    progress = cl.puzzles.progress()
    assert progress.rows[0]["tries"] == 2 and progress.solved == 1
    assert (tmp_path / "plain").read_text() == "a file, not a folder"


@pytest.mark.skipif(not Path("/proc/version").is_file(), reason="Linux's /proc only")
def test_an_unreadable_progress_file_that_cannot_be_moved_aside_is_left_alone(
        monkeypatch, capsys):
    """/proc/version is a plain file that is not progress JSON and that even root can
    neither rename nor replace: progress() used to raise."""
    before = Path("/proc/version").read_bytes()
    _use(monkeypatch, "/proc/version")
    assert cl.puzzles.progress().solved == 0
    out = capsys.readouterr().out + _two_tries(capsys)
    assert "/proc/version" in out and "left as it is" in out, out
    assert Path("/proc/version").read_bytes() == before
    assert cl.puzzles.progress().rows[0]["tries"] == 2


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_pipe_at_the_path_is_neither_read_nor_replaced(tmp_path):
    """Reading a pipe would wait forever: run it in a process that is bounded."""
    pipe = tmp_path / "progress.json"
    os.mkfifo(pipe)
    code = ("import courtlearn as cl; p = cl.puzzles.puzzle(1, 1); "
            "print(cl.puzzles.progress().solved); p.check(['AS'], quiet=True); "
            "print(cl.puzzles.progress().rows[0]['tries'])")
    env = dict(os.environ, COURTLEARN_PROGRESS=str(pipe), PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    numbers = [line for line in out.stdout.splitlines() if line.isdigit()]
    assert numbers == ["0", "1"], out.stdout             # none solved; then the try counts
    assert out.stdout.count("cannot be saved") == 1, out.stdout
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode) and os.listdir(tmp_path) == ["progress.json"]


# ---------------------------------------------------------------- a file that is not ours
def test_a_bad_file_is_moved_aside_under_a_new_name_and_never_over_an_earlier_one(
        tmp_path, monkeypatch, capsys):
    path = tmp_path / "progress.json"
    for name, text in (("progress.json.bad", "first"), ("progress.json.bad1", "second")):
        (tmp_path / name).write_text(text)
    path.write_text("third")
    _use(monkeypatch, path)
    assert cl.puzzles.progress().solved == 0
    assert "progress.json.bad2" in capsys.readouterr().out
    assert [(tmp_path / f"progress.json.{n}").read_text() for n in ("bad", "bad1", "bad2")] \
        == ["first", "second", "third"]
    assert json.loads(path.read_text())["puzzles"] == {}


# ---------------------------------------------------------------- two kernels at once
WORKER = """
import os, sys, time
import courtlearn as cl
from courtlearn.puzzles import progress_file
p = cl.puzzles.puzzle(1, 1)
while not os.path.exists(sys.argv[1]):      # start together
    time.sleep(0.001)
for _ in range(300):
    progress_file.record(p, False)
"""


def test_two_kernels_recording_at_once_keep_every_try(tmp_path):
    path = tmp_path / "progress.json"
    go = tmp_path / "go"
    env = dict(os.environ, COURTLEARN_PROGRESS=str(path), PYTHONPATH=str(ROOT))
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(go)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    try:
        go.touch()
        outs = [proc.communicate(timeout=300) for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    for proc, (out, err) in zip(procs, outs):
        assert proc.returncode == 0 and err == "" and out == "", (out, err[-2000:])
    data = json.loads(path.read_text())
    assert data["puzzles"] == {KEY: {"tries": 600, "solved": False}}
    left = sorted(os.listdir(tmp_path))
    assert [n for n in left if n not in ("go", "progress.json", "progress.json.lock")] == [], left
