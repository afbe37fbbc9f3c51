"""Lessons and exercises are written as text: the committed notebooks are what their text
sources make, and the seeds the sources hold still show what they were chosen for."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

import courtlearn as cl

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("build_notebooks", ROOT / "scripts" / "build_notebooks.py")
build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build)

SOURCES = build.sources([])


def test_every_notebook_has_a_text_source():
    assert build.orphans() == []
    assert len(SOURCES) >= 21
    for src in SOURCES:
        assert build.notebook_for(src).exists(), src


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_notebook_cells_agree_with_the_source(source):
    assert build.disagreements(source) == []


def test_a_changed_source_is_caught(tmp_path, monkeypatch):
    """The check can fail: one word changed in a copy of a source is reported."""
    src = SOURCES[0]
    folder = tmp_path / src.parent.parent.name
    (folder / ".text").mkdir(parents=True)
    text = src.read_text(encoding="utf-8").replace("courtlearn", "courtlearn!", 1)
    (folder / ".text" / src.name).write_text(text, encoding="utf-8")
    (folder / (src.stem + ".ipynb")).write_bytes(build.notebook_for(src).read_bytes())
    monkeypatch.setattr(build, "ROOT", tmp_path)
    problems = build.disagreements(folder / ".text" / src.name)
    assert problems and "differs from its source" in problems[0]


def test_cell_ids_come_from_the_cells_text():
    nb, _ = build.read_source(SOURCES[0])
    build.stable_ids(nb)
    ids = [c.id for c in nb.cells]
    again, _ = build.read_source(SOURCES[0])
    build.stable_ids(again)
    assert ids == [c.id for c in again.cells] and len(set(ids)) == len(ids)
    committed = build.nbformat.read(build.notebook_for(SOURCES[0]), as_version=4)
    assert [c.id for c in committed.cells] == ids


def _literal(path: str, pattern: str) -> int:
    text = (ROOT / path).read_text(encoding="utf-8")
    m = re.search(pattern, text)
    assert m, f"{path} no longer has {pattern}"
    return int(m.group(1))


def _bots_play(deal):
    """The lessons' sessions (issue 30: no more "the first lawful card"): RuleBot at every
    seat, the trump call included."""
    bot = cl.bots.RuleBot()
    while deal.phase != "over":
        cl.bots.act(bot, deal)


def test_lesson_05_seed_gives_seven_deals_in_a_row():
    """Chosen for: a session (West dealing first) of seven deals won by North–South on tricks."""
    seed = _literal("notebooks/.text/05_winning_a_deal.md", r"cl\.Session\(rules, seed=(\d+), dealer=3\)")
    s = cl.Session(cl.Rules.court_piece(), seed=seed, dealer=3)
    for n in range(7):
        if n:
            s.next_deal()
        _bots_play(s.deal)
        assert (s.deal.result.winner, s.deal.result.kind) == (0, "tricks")


def test_lesson_06_seed_shows_the_three_dealer_rules_in_order():
    """Chosen for: same dealer, then the deal passes on, then the dealer's partner (a court)."""
    seed = _literal("notebooks/.text/06_who_deals_next.md", r"cl\.Session\(rules, seed=(\d+), dealer=3\)")
    s = cl.Session(cl.Rules.court_piece(), seed=seed, dealer=3)
    whys = []
    for n in range(3):
        if n:
            s.next_deal()
        _bots_play(s.deal)
        r = s.deal.result
        whys.append((cl.next_dealer(s.deal.dealer, r.winner, r.courts > 0)[1], r.kind))
    assert whys == [("same", "tricks"), ("dealers_won", "tricks"), ("partner", "court")]


def test_lesson_00_describes_the_shuffle_of_its_seed():
    text = (ROOT / "notebooks/.text/00_start_here.md").read_text(encoding="utf-8")
    seed = _literal("notebooks/.text/00_start_here.md", r"deal = cl\.Deal\(rules, dealer=3, seed=(\d+)\)")
    five = " ".join(str(c) for c in cl.Deal(cl.Rules.court_piece(), dealer=3, seed=seed).hand(0))
    assert five == "6♠ K♥ 5♥ 3♥ J♣" and "6♠" in text


def test_lesson_11_claim_the_house_rule_gives_more_courts():
    """The lesson says Double Sir with first_two_capture=False gives more courts and goons."""
    std = cl.simulate(cl.Rules.double_sir(), deals=300, seed=0, progress=False)
    var = cl.simulate(cl.Rules.double_sir(first_two_capture=False), deals=300, seed=0, progress=False)
    for kind in ("court", "goon"):
        assert (var.kind == kind).sum() > (std.kind == kind).sum(), kind


def _asked(folder: str, lang: str = "") -> set:
    """The questions (kind, number) the English texts of ``folder`` ask."""
    out = set()
    for p in SOURCES:
        if p.parent.parent.name == folder and p.parent.name == ".text":
            out |= {(k, int(n)) for k, n in re.findall(
                r'cl\.exercises\.question\("(\w+)", (\d+)\)', p.read_text(encoding="utf-8"))}
    return out


@pytest.mark.parametrize("kind", list(cl.exercises.KINDS) + list(cl.exercises.PLAY_KINDS))
def test_every_fixed_question_is_asked_and_exercises_ask_new_things(kind):
    """Each fixed question is asked by a lesson or by its exercise, never by both (issue 30:
    17 of the 24 questions of exercises 01-07 were the lessons' own); the exercise asks at
    least three of its own, then a fresh one."""
    lessons, exercises = _asked("notebooks"), _asked("exercises")
    text = "\n".join(p.read_text(encoding="utf-8") for p in SOURCES if p.parent.parent.name == "exercises")
    for n in range(1, cl.exercises.count(kind) + 1):
        assert (kind, n) in lessons | exercises, (kind, n)
    assert not {q for q in exercises if q[0] == kind} & lessons
    assert len({q for q in exercises if q[0] == kind}) >= 3
    assert f'cl.exercises.question("{kind}", seed=' in text


def test_no_lesson_asks_another_lesson_s_question():
    """Lesson 10 asked lesson 06's next-dealer questions word for word (issue 30)."""
    seen: dict = {}
    for p in SOURCES:
        if p.parent.parent.name != "notebooks" or p.parent.name != ".text":
            continue
        for q in set(re.findall(r'cl\.exercises\.question\("(\w+)", (\d+)\)',
                                p.read_text(encoding="utf-8"))):
            assert q not in seen, f"{p.stem} asks {q}, which {seen.get(q)} asks"
            seen[q] = p.stem


def test_a_rebuild_is_byte_identical_to_the_committed_notebook(tmp_path, monkeypatch):
    """Built in a fresh kernel again, a notebook comes out byte for byte as committed (no
    timings, no random ids), so a rebuilt lesson's diff shows only what changed."""
    source = next(p for p in SOURCES if p.stem.startswith("01_trick_winner"))
    committed = build.notebook_for(source).read_bytes()
    monkeypatch.setattr(build, "notebook_for", lambda src: tmp_path / (src.stem + ".ipynb"))
    out = build.build(source)
    assert out.read_bytes() == committed
