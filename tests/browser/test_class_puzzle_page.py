"""Class puzzles in Chromium (issue 26): the teacher page sets the class puzzle level 1;
two learner pages (one at 1280 px, one at 360 px, not seated at any table) show puzzle
1.1 on their own table drawn by table.js and play it by clicks, the defence answering
from the server. The wide page solves it at the first try; the phone plays a losing card
first (the verdict says which card would have kept the goal), presses Try again and
solves it. Both tries reach the class's results (read from its SQLite file, as
``cl.classroom.results`` reads it after class). An Urdu class shows the puzzle in Urdu,
right to left, at 360 px. Screenshots go to build/screenshots/. No console error anywhere.
"""
from __future__ import annotations

import pathlib
import re

import pytest

import courtlearn as cl
from courtlearn.language import using
from courtlearn.solver import solve

from test_classroom import lan_address, lan_browser, phones, servers  # noqa: F401 (fixtures)

pytestmark = pytest.mark.timeout(300)

SHOTS = pathlib.Path(__file__).resolve().parents[2] / "build" / "screenshots"
TABLE = "[data-role=puzzle-table] .cl-table"


def teacher_page(phones, server):
    link = next(line for line in server.lines if line.startswith("teacher page: "))
    token = link.split("#", 1)[1]
    teacher = phones("teacher", width=1200, height=900)
    teacher.page.goto(f"http://127.0.0.1:{server.port}/teacher#{token}")
    teacher.page.wait_for_selector("[data-role=puzzles-teacher] [data-role=puzzles-set]")
    return teacher


def set_level(teacher, level: int) -> None:
    teacher.page.select_option("[data-role=puzzles-level]", str(level))
    teacher.page.click("[data-role=puzzles-set]")
    teacher.page.wait_for_selector(f'[data-role=puzzles-teacher][data-level="{level}"]')


def click_card(page, code: str) -> None:
    """Click ``code`` on the puzzle table once it is lawful there and the table is idle,
    and wait for the server's answer (accepted)."""
    page.wait_for_selector(f'{TABLE}:not([data-busy="true"]):not([data-pending="true"]) '
                           f'[data-role=hand] [data-card="{code}"][data-legal="true"]')
    page.click(f'{TABLE} [data-role=hand] [data-card="{code}"]')
    page.wait_for_function(f"""() => ['accepted', 'refused'].includes(
        document.querySelector('{TABLE}')?.dataset.reply)""")
    reply = page.locator(TABLE).get_attribute("data-reply")
    page.evaluate(f"() => {{ delete document.querySelector('{TABLE}').dataset.reply; }}")
    assert reply == "accepted", (code, reply)


def db_of(server) -> str:
    return server.args[server.args.index("--db") + 1]


def test_two_learner_pages_solve_a_class_puzzle_by_clicks(servers, phones):
    SHOTS.mkdir(parents=True, exist_ok=True)
    server = servers("PUZ26", tables=1)
    teacher = teacher_page(phones, server)
    wide = phones("Asha", width=1280, height=900)
    narrow = phones("Bilal", width=360, height=740, motion="no-preference")
    for phone in (wide, narrow):
        phone.page.goto(f"{lan_address(server)}?code=PUZ26&name={phone.name}")
        phone.page.wait_for_selector("[data-role=lobby]")
    set_level(teacher, 1)
    p = cl.puzzles.puzzle(1, 1)
    line = [c.code for c in p.winning_line()]
    wrong = next(c for c, v in solve(p.deal).values.items() if v < p.target)
    for phone in (wide, narrow):
        page = phone.page
        page.wait_for_selector('[data-role=puzzle][data-key="1.1"][data-status="playing"]')
        page.wait_for_selector(f'{TABLE}[data-viewer="{p.seat}"]')
        assert page.locator("[data-role=puzzle-heading]").text_content() == p.heading
        assert p.goal in page.locator("[data-role=puzzle-goal]").text_content()
        # all four hands face up: every card of the position is drawn
        drawn = set(page.eval_on_selector_all(f"{TABLE} [data-card]",
                                              "els => els.map(e => e.dataset.card)"))
        assert {c.code for s in range(4) for c in p.deal.hand(s)} <= drawn
        assert "null" not in page.locator("[data-role=puzzle]").text_content()
    narrow.page.screenshot(path=str(SHOTS / "class_puzzle_360.png"), full_page=True)
    # the wide page solves it at the first try
    for code in line:
        click_card(wide.page, code)
    wide.page.wait_for_selector('[data-role=puzzle][data-status="solved"]')
    verdict = wide.page.locator("[data-role=puzzle-verdict]").text_content()
    assert verdict.startswith("Solved!")
    assert verdict in wide.page.locator(f"{TABLE} [data-role=message]").text_content()
    assert wide.page.locator("[data-role=puzzle-progress]").get_attribute("data-solved") == "1"
    wide.page.screenshot(path=str(SHOTS / "class_puzzle_1280_solved.png"), full_page=True)
    # the phone: a losing card, the verdict, Try again, then the line
    click_card(narrow.page, wrong.code)
    narrow.page.wait_for_selector('[data-role=puzzle][data-status="failed"]')
    # a failed try waits for Try again: no seat says "to play" (issue 32), once the defence
    # has answered the losing card
    narrow.page.wait_for_selector(f'{TABLE}:not([data-busy="true"]):not([data-pending="true"])')
    assert narrow.page.evaluate(f"""() => [...document.querySelectorAll('{TABLE} [data-role=turn]')]
        .filter((e) => e.getClientRects().length).length""") == 0
    said = narrow.page.locator("[data-role=puzzle-verdict]").text_content()
    assert str(wrong) in said and "Try again" in said
    assert said in narrow.page.locator(f"{TABLE} [data-role=message]").text_content()
    narrow.page.screenshot(path=str(SHOTS / "class_puzzle_360_failed.png"), full_page=True)
    assert narrow.page.evaluate("() => document.scrollingElement.scrollWidth") <= 360
    for role in ("puzzle-again", "puzzle-next"):
        box = narrow.page.locator(f"[data-role={role}]").bounding_box()
        assert box["height"] >= 40 and box["x"] + box["width"] <= 360, (role, box)
    narrow.page.click("[data-role=puzzle-again]")
    narrow.page.wait_for_selector('[data-role=puzzle][data-status="playing"]')
    for code in line:
        click_card(narrow.page, code)
    narrow.page.wait_for_selector('[data-role=puzzle][data-status="solved"]')
    narrow.page.wait_for_function(f"""() => (document.querySelector('{TABLE} [data-role=message]')
        ?.textContent || '').startsWith('Solved!')""")
    narrow.page.screenshot(path=str(SHOTS / "class_puzzle_360_solved.png"), full_page=True)
    assert narrow.page.evaluate("() => document.scrollingElement.scrollWidth") <= 360
    teacher.page.screenshot(path=str(SHOTS / "class_puzzle_teacher_1280.png"))
    # every try reached the class's results, judged on the server
    frame = cl.classroom.results(db_of(server), "PUZ26")
    rows = {r["name"]: r for r in frame.to_dict("records")}
    assert set(frame["item"]) == {"puzzle/1.1"}
    assert (rows["Asha"]["tries"], rows["Asha"]["first_right"], rows["Asha"]["solved"]) == \
        (1, True, True)
    assert (rows["Bilal"]["tries"], rows["Bilal"]["first_right"], rows["Bilal"]["solved"]) == \
        (2, False, True)
    # Next puzzle, then the teacher ends the puzzles: the pages drop them
    wide.page.click("[data-role=puzzle-next]")
    wide.page.wait_for_selector('[data-role=puzzle][data-key="1.2"]')
    teacher.page.click("[data-role=puzzles-end]")
    for phone in (wide, narrow):
        phone.page.wait_for_selector("[data-role=puzzle]", state="detached")
        phone.page.wait_for_selector("[data-role=lobby]")


def test_an_urdu_class_puzzle_at_360_px(servers, phones):
    SHOTS.mkdir(parents=True, exist_ok=True)
    server = servers("PUZUR", language="ur", tables=1)
    teacher = teacher_page(phones, server)
    zara = phones("زارا", width=360, height=740)
    zara.page.goto(f"{lan_address(server)}?code=PUZUR&name={zara.name}")
    zara.page.wait_for_selector("[data-role=lobby]")
    set_level(teacher, 1)
    with using("ur"):
        p = cl.puzzles.puzzle(1, 1)
        heading, goal = p.heading, p.goal
    page = zara.page
    page.wait_for_selector('[data-role=puzzle][data-key="1.1"]')
    page.wait_for_selector(f'{TABLE}[data-viewer="{p.seat}"]')
    assert page.locator("[data-role=puzzle-heading]").text_content() == heading
    assert re.search("[\u0600-\u06ff]", goal) and goal in \
        page.locator("[data-role=puzzle-goal]").text_content()
    assert page.evaluate("() => document.documentElement.dir") == "rtl"
    for code in [c.code for c in p.winning_line()]:
        click_card(page, code)
    page.wait_for_selector('[data-role=puzzle][data-status="solved"]')
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 360
    # every word of the puzzle panel in Urdu (no English left on the page's own lines)
    said = page.locator("[data-role=puzzle]").inner_text()
    assert re.findall(r"[A-Za-z]{2,}", said) == [], said
    page.screenshot(path=str(SHOTS / "class_puzzle_360_urdu.png"), full_page=True)
