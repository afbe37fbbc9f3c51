"""The live quiz in Chromium (issue 26): the teacher page starts a quiz, three learner
pages answer it by a click (one at 360 px, one in an Urdu class), the teacher page shows
the count, then on "Show the answer" the spread, the right answer and the engine's
sentence; each learner page then says whether its answer was right.

The class servers run as `courtlearn class serve` (ServerProcess, 127.0.0.1, free ports);
learners open them by the LAN host name class.lan (mapped to 127.0.0.1 in this Chromium),
the teacher by 127.0.0.1 with the console's teacher link. Every WebSocket frame a learner
page receives before the reveal is checked: none says which choice is right. No console
error anywhere; every context is closed before its server stops.
"""
from __future__ import annotations

import json
import pathlib
import re

import pytest

import courtlearn as cl
from courtlearn.cards import Card
from courtlearn.classroom.quiz import _seed
from courtlearn.language import using

SHOTS = pathlib.Path(__file__).resolve().parents[2] / "build" / "screenshots"

from test_classroom import lan_address, lan_browser, phones, servers  # noqa: F401 (fixtures)

pytestmark = pytest.mark.timeout(300)


def teacher_page(phones, server):
    """The teacher page of ``server`` in a context of its own (its console watched)."""
    link = next(line for line in server.lines if line.startswith("teacher page: "))
    token = link.split("#", 1)[1]
    teacher = phones("teacher", width=1200, height=900)
    teacher.page.goto(f"http://127.0.0.1:{server.port}/teacher#{token}")
    teacher.page.wait_for_selector('[data-role=quiz-teacher][data-active="false"]')
    return teacher


def start_quiz(teacher, kind: str, n: int, seed: int) -> None:
    page = teacher.page
    page.select_option("[data-role=quiz-kind]", kind)
    page.fill("[data-role=quiz-n]", str(n))
    page.fill("[data-role=quiz-seed]", str(seed))
    page.click("[data-role=quiz-start]")
    page.wait_for_selector('[data-role=quiz-teacher][data-active="true"][data-number="1"]')


def received(phone) -> list[dict]:
    out = []
    for payload in phone.frames:
        try:
            out.append(json.loads(payload))
        except (TypeError, ValueError):
            pass
    return out


def test_three_learner_pages_in_a_live_quiz_with_the_teacher_page(servers, phones):
    server = servers("QUIZ26", tables=1)
    teacher = teacher_page(phones, server)
    wide = phones("Asha")
    narrow = phones("Bilal", width=360, height=740, motion="no-preference")
    for phone in (wide, narrow):
        phone.page.goto(f"{lan_address(server)}?code=QUIZ26&name={phone.name}")
        phone.page.wait_for_selector("[data-role=lobby]")
    start_quiz(teacher, "trick_winner", 2, 7)
    question = cl.exercises.question("trick_winner", seed=_seed(7, "trick_winner", 0))
    right = Card.parse(question.solution).code
    for phone in (wide, narrow):
        phone.page.wait_for_selector('[data-role=quiz][data-index="0"][data-state="open"]')
        assert phone.page.locator("[data-role=quiz-prompt]").text_content() == question.prompt
        assert phone.page.locator("[data-role=quiz-choice]").count() == 4
        assert "null" not in phone.page.locator("[data-role=quiz]").text_content()
    # big enough for a thumb at 360 px, and nothing wider than the phone
    for box in narrow.page.eval_on_selector_all(
            "[data-role=quiz-choice]", "els => els.map(e => e.getBoundingClientRect())"
            ".map(r => [r.width, r.height, r.right])"):
        assert box[0] >= 48 and box[1] >= 64 and box[2] <= 360, box
    assert narrow.page.evaluate("() => document.scrollingElement.scrollWidth") <= 360
    wrong = next(v for v in narrow.page.eval_on_selector_all(
        "[data-role=quiz-choice]", "els => els.map(e => e.dataset.value)") if v != right)
    wide.page.click(f'[data-role=quiz-choice][data-value="{right}"]')
    narrow.page.click(f'[data-role=quiz-choice][data-value="{wrong}"]')
    for phone, card in ((wide, right), (narrow, wrong)):
        phone.page.wait_for_selector('[data-role=quiz][data-state="answered"] '
                                     '[data-role=quiz-status][data-kind="received"]')
        assert str(Card.parse(card)) in phone.page.locator("[data-role=quiz-status]").text_content()
        assert phone.page.locator('[data-role=quiz-choice][aria-pressed="true"]') \
            .get_attribute("data-value") == card
    teacher.page.wait_for_selector('[data-role=quiz-count][data-answered="2"][data-of="2"]')
    teacher_text = teacher.page.locator("[data-role=quiz-teacher]").inner_text()
    assert teacher_text.count(question.prompt) == 1, teacher_text      # the prompt once
    SHOTS.mkdir(parents=True, exist_ok=True)
    narrow.page.screenshot(path=str(SHOTS / "class_quiz_360_answered.png"), full_page=True)
    assert not teacher.page.locator("[data-role=quiz-spread]").count()
    # nothing a learner page received so far says which choice is right
    for phone in (wide, narrow):
        for msg in received(phone):
            assert msg.get("type") != "quiz_reveal"
            assert not {"right", "reason", "correct"} & set(msg), msg
            assert question.reason not in json.dumps(msg, ensure_ascii=False)
    teacher.page.click("[data-role=quiz-reveal]")
    teacher.page.wait_for_selector('[data-role=quiz-teacher][data-revealed="true"]')
    bars = teacher.page.eval_on_selector_all(
        "[data-role=quiz-bar]", "els => els.map(e => [e.dataset.value, e.dataset.count, "
        "e.dataset.right])")
    assert [b for b in bars if b[2] == "true"] == [[right, "1", "true"]]
    assert [b[1] for b in bars if b[0] == wrong] == ["1"]
    assert teacher.page.locator("[data-role=quiz-reason]").text_content() == question.reason
    wide.page.wait_for_selector('[data-role=quiz-status][data-kind="right"]')
    narrow.page.wait_for_selector('[data-role=quiz-status][data-kind="wrong"]')
    narrow.page.screenshot(path=str(SHOTS / "class_quiz_360_revealed.png"), full_page=True)
    teacher.page.screenshot(path=str(SHOTS / "class_quiz_teacher_revealed.png"), full_page=True)
    assert narrow.page.locator("[data-role=quiz-reason]").text_content() == question.reason
    assert narrow.page.locator('[data-role=quiz-choice][data-right="true"]') \
        .get_attribute("data-value") == right
    # the next question, then the end: the pages drop the quiz
    teacher.page.click("[data-role=quiz-next]")
    wide.page.wait_for_selector('[data-role=quiz][data-index="1"][data-state="open"]')
    teacher.page.click("[data-role=quiz-stop]")
    wide.page.wait_for_selector("[data-role=quiz]", state="detached")
    teacher.page.wait_for_selector('[data-role=quiz-teacher][data-active="false"]')

    # an Urdu class: the question, the choices and the page's words in Urdu
    urdu = servers("QUIZUR", language="ur", tables=1)
    uteacher = teacher_page(phones, urdu)
    zara = phones("زارا", width=360, height=740)
    zara.page.goto(f"{lan_address(urdu)}?code=QUIZUR&name={zara.name}")
    zara.page.wait_for_selector("[data-role=lobby]")
    start_quiz(uteacher, "next_dealer", 1, 3)
    with using("ur"):
        uq = cl.exercises.question("next_dealer", seed=_seed(3, "next_dealer", 0))
        north = cl.Rules.court_piece().seat_name(2)
    zara.page.wait_for_selector('[data-role=quiz][data-state="open"]')
    assert zara.page.locator("[data-role=quiz-prompt]").text_content() == uq.prompt
    assert re.search("[\u0600-\u06ff]", uq.prompt)
    assert zara.page.locator('[data-role=quiz-choice][data-value="2"]').text_content() == north
    zara.page.click('[data-role=quiz-choice][data-value="2"]')
    zara.page.wait_for_selector('[data-role=quiz-status][data-kind="received"]')
    uteacher.page.wait_for_selector('[data-role=quiz-count][data-answered="1"]')
    uteacher.page.click("[data-role=quiz-reveal]")
    zara.page.wait_for_selector('[data-role=quiz][data-state="revealed"]')
    zara.page.screenshot(path=str(SHOTS / "class_quiz_360_urdu.png"), full_page=True)
    assert zara.page.locator("[data-role=quiz-reason]").text_content() == uq.reason
    assert zara.page.evaluate("() => document.scrollingElement.scrollWidth") <= 360
    said = zara.page.locator("[data-role=quiz]").inner_text()     # every word in Urdu
    assert re.findall(r"[A-Za-z]{2,}", said) == [], said
