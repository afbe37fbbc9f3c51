"""Accessibility of every page (issue 32, item 10), in Chromium with axe-core (npm, the
version pinned in the Makefile, installed in build/axe): the join page, the lobby, a
learner's table (360 px touch phone and 1280 px laptop, with a notice, the Leave question
and the last trick open), the teacher page (1280 x 800, with the new-deal question, a live
quiz and the projector), an Urdu class's phone and teacher page, and the notebook's table
in JupyterLab. No serious or critical finding anywhere; every page has a level-one heading,
a main landmark and nothing outside landmarks.

And the keyboard: a learner joins, takes a seat, calls trumps, plays a card, opens the last
trick and asks to leave with Tab, Enter, Space, arrows and Escape only; the teacher page's
new deal question and its projector (a dialog that keeps the keyboard, Escape closes it and
gives the keyboard back to the button) likewise.
"""
from __future__ import annotations

import pytest

from class_pages import (LAPTOP, PHONE, axe, join, open_teacher, people,  # noqa: F401
                         wait_until)
from labserver import HERE, kernel, open_notebook
from test_classroom import lan_address, lan_browser, servers, teacher_says  # noqa: F401

pytestmark = pytest.mark.timeout(300)

TABLE = ".cl-class-table .cl-table"


def clean(page, name: str, within: str | None = None) -> None:
    found = axe(page, within)
    assert not found, f"{name}: " + "\n".join(f"{v['id']} ({v['impact']}): {v['nodes']}" for v in found)


def focused(page) -> dict:
    return page.evaluate("""() => { const e = document.activeElement;
        return {role: e && e.dataset ? e.dataset.role || null : null, tag: e ? e.tagName : null,
                card: e && e.dataset ? e.dataset.card || null : null}; }""")


def tab_to(page, test, most: int = 60, back: bool = False) -> dict:
    """Press Tab (Shift+Tab) until ``test(focused)`` holds (the focus now, first); the
    keyboard alone reaches it."""
    now = focused(page)
    if test(now):
        return now
    for _ in range(most):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        now = focused(page)
        if test(now):
            return now
    raise AssertionError(f"the keyboard did not reach it in {most} presses of Tab")


def test_every_class_page_passes_axe(servers, people):
    server = servers("AXE32", tables=2)
    teacher_says(server, {"type": "pause"})
    phone = people("Asha", **PHONE)
    page = phone.page
    page.goto(lan_address(server))
    page.wait_for_selector("[data-role=join-form]")
    clean(page, "the join page")
    page.fill("[data-role=code]", "AXE32")
    page.fill("[data-role=name]", "Asha")
    phone.press("[data-role=join]")
    laptop = people("Bilal", **LAPTOP)
    join(laptop, server, "AXE32", table=0, seat=2)
    page.wait_for_selector('[data-role=lobby] [data-role=taken-seat]')
    clean(page, "the lobby (360 px)")
    phone.press('[data-role=take-seat][data-table="0"][data-seat="0"]')
    page.wait_for_selector(f'{TABLE}[data-viewer="0"]:not([data-rev="-1"])')
    teacher = open_teacher(people, server)
    dash = teacher.page
    dash.select_option('[data-role=dash-seat][data-table="0"][data-seat="2"] [data-role=move-to]', "1:0")
    laptop.page.wait_for_selector("[data-role=notice]:not([hidden])")
    teacher_says(server, {"type": "same_deal", "seed": 25}, {"type": "resume"})
    page.wait_for_selector("[data-role=notice]:not([hidden])")     # the same deal, said
    page.wait_for_selector("[data-role=call-trump]")
    clean(page, "a learner's table with a notice (360 px)")
    page.locator("[data-role=call-trump]").first.tap()
    page.wait_for_function(f"() => document.querySelectorAll('{TABLE} [data-role=hand] [data-card]').length === 13")
    page.locator(f'{TABLE} [data-role=hand] [data-card][data-legal="true"]').first.tap()
    page.wait_for_selector(f"{TABLE} [data-role=last-trick-button]")
    page.locator(f"{TABLE} [data-role=last-trick-button]").tap()
    phone.press("[data-role=leave]")
    page.wait_for_selector(f"{TABLE} [data-role=last-trick-view]")
    clean(page, "a learner's table: the last trick and the Leave question (360 px)")
    laptop.page.wait_for_selector(f'{TABLE}[data-viewer="0"]:not([data-rev="-1"])')
    clean(laptop.page, "a learner's table (1280 px)")

    # the teacher page: the class live, the new deal's question, a quiz, the projector
    dash.wait_for_selector('[data-role=dash-table][data-table="0"]:not([data-actions="0"])')
    dash.click("[data-role=new-deal-all]")
    dash.wait_for_selector("[data-role=deal-confirm]:not([hidden])")
    clean(dash, "the teacher page with the new deal's question")
    dash.click("[data-role=deal-confirm-no]")
    dash.select_option("[data-role=quiz-kind]", "trick_winner")
    dash.click("[data-role=quiz-start]")
    dash.wait_for_selector('[data-role=quiz-teacher][data-active="true"]')
    page.wait_for_selector("[data-role=quiz] [data-role=quiz-choice]")
    clean(dash, "the teacher page with a live quiz")
    clean(page, "a learner's page with a quiz question (360 px)")
    dash.click("[data-role=quiz-stop]")
    dash.click('[data-role=project][data-table="0"]')
    dash.wait_for_selector("[data-role=projector] .cl-table:not([data-rev='-1'])")
    clean(dash, "the projector")

    # an Urdu class
    urdu = servers("AXEUR", language="ur", tables=1)
    zara = people("زارا", **PHONE)
    join(zara, urdu, "AXEUR", table=0, seat=0)
    clean(zara.page, "an Urdu learner's table (360 px)")
    uteacher = open_teacher(people, urdu, name="ustad")
    clean(uteacher.page, "an Urdu teacher page")


def test_the_notebook_table_in_jupyterlab_passes_axe(lab, page, request):
    name = lab.add_notebook(HERE / "prearranged.ipynb", f"{request.node.name}.ipynb")
    open_notebook(page, lab, name)
    page.wait_for_selector(".cl-table[data-busy=false]")
    found = axe(page, ".cl-table", page_rules=False)
    assert not found, found
    # played a little: the trump called, South's ace led, the other three by step(); then a
    # second trick begun: the Last trick view of the notebook's table shows the first
    page.locator(".cl-table [data-role=call-trump][data-suit=S]").click()
    page.wait_for_selector(".cl-table[data-phase=play][data-busy=false]")
    page.locator(".cl-table [data-role=hand] [data-card=AS]").click()
    page.wait_for_selector(".cl-table [data-role=trick][data-count='1']")
    kernel(page, "for _ in range(3): table.step()")
    page.wait_for_selector(".cl-table [data-role=last-trick-button]")
    page.locator(".cl-table [data-role=hand] [data-card=KS]").click()
    page.wait_for_selector(".cl-table [data-role=trick][data-count='1']")
    page.locator(".cl-table [data-role=last-trick-button]").click()
    view = page.locator(".cl-table [data-role=last-trick-view]")
    assert view.locator("[data-card]").count() == 4 and view.locator("[data-card=AS]").count() == 1
    assert view.text_content().startswith("Trick 1: South won it.")
    found = axe(page, ".cl-table", page_rules=False)
    assert not found, found


def test_a_learner_and_the_teacher_by_keyboard_alone(servers, people):
    server = servers("KEYS32", tables=1)
    teacher_says(server, {"type": "pause"})
    learner = people("Asha", **LAPTOP)
    page = learner.page
    page.goto(lan_address(server))
    page.wait_for_selector("[data-role=join-form]")
    # join: Tab to the code, type, Tab to the name, type, Enter
    tab_to(page, lambda f: f["role"] == "code")
    page.keyboard.type("keys32")
    page.keyboard.press("Tab")
    assert focused(page)["role"] == "name"
    page.keyboard.type("Asha")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-role=lobby] [data-role=take-seat]")
    # a seat: Tab to South's button, Space
    tab_to(page, lambda f: f["role"] == "take-seat")
    assert page.evaluate("() => document.activeElement.dataset.seat") == "0"
    page.keyboard.press("Space")
    page.wait_for_selector(f'{TABLE}[data-viewer="0"]:not([data-rev="-1"])')
    teacher_says(server, {"type": "same_deal", "seed": 25}, {"type": "resume"})
    page.wait_for_selector("[data-role=call-trump]")
    # trumps: Tab to a suit's button, Enter
    tab_to(page, lambda f: f["role"] == "call-trump")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelectorAll('{TABLE} [data-role=hand] [data-card]').length === 13")
    page.wait_for_selector(f'{TABLE}[data-to-play="0"][data-busy="false"][data-pending="false"]')
    # a card: Tab into the hand, an arrow to the next lawful card, Enter plays it
    got = tab_to(page, lambda f: f["card"] is not None)
    page.keyboard.press("ArrowRight")
    played = focused(page)["card"]
    assert played and played != got["card"]
    page.keyboard.press("Enter")
    hand = f"{TABLE} [data-role=hand] [data-card]"
    page.wait_for_function(f"(c) => {{ const h = [...document.querySelectorAll('{hand}')]"
                           ".map(e => e.dataset.card); return h.length === 12 && !h.includes(c); }",
                           arg=played)
    # the last trick: Space opens it, Escape closes it and the keyboard stays on its button
    page.wait_for_selector(f"{TABLE} [data-role=last-trick-button]")
    tab_to(page, lambda f: f["role"] == "last-trick-button")
    page.keyboard.press("Space")
    page.wait_for_selector(f"{TABLE} [data-role=last-trick-view]")
    assert focused(page)["role"] == "last-trick-button"
    page.keyboard.press("Escape")
    page.wait_for_selector(f"{TABLE} [data-role=last-trick-view]", state="detached")
    assert focused(page)["role"] == "last-trick-button"
    # Leave asks; the keyboard lands on Stay; Escape keeps the seat and returns to Leave
    tab_to(page, lambda f: f["role"] == "leave")
    page.keyboard.press("Enter")
    assert focused(page)["role"] == "leave-no"
    page.keyboard.press("Escape")
    assert focused(page)["role"] == "leave" and page.locator(TABLE).count() == 1

    # the teacher: the new deal's question by keyboard, then the projector
    teacher = open_teacher(people, server)
    dash = teacher.page
    dash.wait_for_selector('[data-role=dash-table][data-table="0"]:not([data-actions="0"])')
    tab_to(dash, lambda f: f["role"] == "new-deal-all")
    dash.keyboard.press("Enter")
    dash.wait_for_selector("[data-role=deal-confirm]:not([hidden])")
    assert focused(dash)["role"] == "deal-confirm-no"
    dash.keyboard.press("Escape")
    assert focused(dash)["role"] == "new-deal-all"
    dash.wait_for_selector("[data-role=deal-confirm]", state="hidden")
    tab_to(dash, lambda f: f["role"] == "project")
    dash.keyboard.press("Enter")
    dash.wait_for_selector("[data-role=projector] .cl-table:not([data-rev='-1'])")
    inside = "() => document.querySelector('[data-role=projector]').contains(document.activeElement)"
    assert dash.evaluate(inside)
    for _ in range(25):                      # the keyboard stays in the dialog
        dash.keyboard.press("Tab")
        assert dash.evaluate(inside) or dash.evaluate("() => document.activeElement === document.body")
    tab_to(dash, lambda f: f["role"] == "projector-seat")
    dash.keyboard.press("Enter")              # a seat's hand at the bottom, by keyboard
    dash.keyboard.press("Escape")
    dash.wait_for_selector("[data-role=projector]", state="hidden")
    assert focused(dash)["role"] == "project"
