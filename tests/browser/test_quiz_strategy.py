"""The live quiz serves the "playing well" kinds (issue 31) in Chromium: a learner page at
360 px answers a call_trump question (a suit) and a score_sheet question (a whole sheet
line) by one click each; the teacher page reveals; the page says right or wrong. The
choices are big enough for a thumb and nothing is wider than the phone; no console error.
"""
from __future__ import annotations

import pathlib

import pytest

import courtlearn as cl
from courtlearn.classroom.quiz import _seed

from test_classroom import lan_address, lan_browser, phones, servers  # noqa: F401 (fixtures)
from test_quiz_pages import start_quiz, teacher_page

SHOTS = pathlib.Path(__file__).resolve().parents[2] / "build" / "screenshots"

pytestmark = pytest.mark.timeout(300)


def _answer(teacher, phone, kind, seed, right: bool):
    question = cl.exercises.question(kind, seed=_seed(seed, kind, 0))
    phone.page.wait_for_selector(f'[data-role=quiz][data-index="0"][data-state="open"]')
    assert phone.page.locator("[data-role=quiz-prompt]").text_content() == question.prompt
    values = phone.page.eval_on_selector_all("[data-role=quiz-choice]",
                                             "els => els.map(e => e.dataset.value)")
    judged = {v: question.feedback(v).correct for v in values}
    assert any(judged.values()) and not all(judged.values()), judged
    for box in phone.page.eval_on_selector_all(
            "[data-role=quiz-choice]", "els => els.map(e => e.getBoundingClientRect())"
            ".map(r => [r.width, r.height, r.right])"):
        assert box[0] >= 48 and box[1] >= 48 and box[2] <= 360, box
    assert phone.page.evaluate("() => document.scrollingElement.scrollWidth") <= 360
    value = next(v for v, ok in judged.items() if ok is right)
    phone.page.locator("[data-role=quiz-choice]").nth(values.index(value)).click()
    phone.page.wait_for_selector('[data-role=quiz][data-state="answered"]')
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(SHOTS / f"class_quiz_{kind}_360.png"), full_page=True)
    teacher.page.wait_for_selector('[data-role=quiz-count][data-answered="1"]')
    teacher.page.click("[data-role=quiz-reveal]")
    phone.page.wait_for_selector('[data-role=quiz-status][data-kind="%s"]'
                                 % ("right" if right else "wrong"))
    teacher.page.click("[data-role=quiz-stop]")
    phone.page.wait_for_selector("[data-role=quiz]", state="detached")


def test_call_trump_and_score_sheet_by_one_click_at_360px(servers, phones):
    server = servers("QUIZ31", tables=1)
    teacher = teacher_page(phones, server)
    phone = phones("Chand", width=360, height=740)
    phone.page.goto(f"{lan_address(server)}?code=QUIZ31&name={phone.name}")
    phone.page.wait_for_selector("[data-role=lobby]")
    start_quiz(teacher, "call_trump", 1, 5)
    _answer(teacher, phone, "call_trump", 5, right=True)
    teacher.page.wait_for_selector('[data-role=quiz-teacher][data-active="false"]')
    start_quiz(teacher, "score_sheet", 1, 6)
    _answer(teacher, phone, "score_sheet", 6, right=False)
