"""A class a teacher runs without surprises (issue 32), in Chromium: a learner's phone
(360 x 740, touch), a learner's laptop (1280 x 800), the teacher page (1280 x 800), and an
Urdu class.

1. "New deal at every table" asks first while a deal is under way; every learner page is
   told what the teacher did (a new deal, a move, the seat handed to a bot, a removal), and
   the removal's notice goes once the learner has joined again and sat down.
2. On the phone the message line (a refused tap's reason) is on the screen with the hand.
3. The page's buttons are real buttons (44 px, bordered, coloured), free seats look unlike
   taken ones, and "Leave the table" asks first.
4. The next deal starts when the table is ready (everyone pressed Next deal; the others
   see who is ready and a countdown); the last trick can be looked at any time.
5. The Urdu teacher page has its fonts from the start and no English word.
6. The projector opens over the page where the teacher looks, fits 1280 x 800 (South's
   hand on the screen), its chosen seat readable; Escape closes it.
8. Seat tags and trick counts of at least 12 px on the phone; a short hand on a laptop lies
   open; the Urdu lobby heading's first letter clear of the edge.

Class servers run as `courtlearn class serve` (free ports, 127.0.0.1; learners by the LAN
name class.lan). Screenshots go to build/screenshots/ux_*.png. Every browser context is
watched for console errors; none is expected.
"""
from __future__ import annotations

import re

import pytest

from class_pages import (LAPTOP, PHONE, box, contrast, join, open_teacher, people,  # noqa: F401
                         style, wait_until)
from test_classroom import (TURN_JS, lan_address, lan_browser, servers,  # noqa: F401 (fixtures)
                            teacher_says)

pytestmark = pytest.mark.timeout(300)

TABLE = ".cl-class-table .cl-table"
REPLY_JS = f"""() => ['accepted', 'refused'].includes(document.querySelector('{TABLE}')?.dataset.reply)"""


def reply(person) -> str:
    person.page.wait_for_function(REPLY_JS)
    got = person.page.locator(TABLE).get_attribute("data-reply")
    person.page.evaluate(f"() => {{ delete document.querySelector('{TABLE}').dataset.reply; }}")
    return got


def my_turn(person, seat: int):
    return person.page.evaluate(TURN_JS, seat)


def move(person, seat: int, *, refuse: bool = False) -> str | None:
    """At ``seat``'s turn: call trumps (the first suit), or play its first lawful card (with
    ``refuse``, tap a card it may not play instead, when it holds one). Returns the reply."""
    what = my_turn(person, seat)
    if what is None:
        return None
    if what == "trump":
        person.press("[data-role=call-trump]")
        return reply(person)
    hand = f'{TABLE} [data-role=hand] [data-card][data-seat="{seat}"]'
    if refuse and person.page.locator(f'{hand}[data-legal="false"]').count():
        person.press(f'{hand}[data-legal="false"]')
    else:
        person.press(f'{hand}[data-legal="true"]')
    return reply(person)


def a_real_button(page, selector: str, *, least: float = 44) -> None:
    """Tall enough for a thumb, with a border and a background of the page's own."""
    b = box(page, selector)
    assert b and b["height"] >= least, (selector, b)
    s = style(page, selector, "border-top-width", "border-top-style", "background-color")
    assert float(s["border-top-width"][:-2]) >= 1 and s["border-top-style"] != "none", (selector, s)
    assert s["background-color"] not in ("rgba(0, 0, 0, 0)", "transparent"), (selector, s)


def message_with_hand(page, height: int = 740) -> dict:
    """Scrolled to the top: the table's message line and the learner's hand both on the
    screen. Returns their boxes."""
    page.evaluate("() => window.scrollTo(0, 0)")
    msg, hand = box(page, f"{TABLE} [data-role=message]"), box(page, f"{TABLE} [data-role=hand]")
    assert 0 <= hand["top"] and hand["bottom"] <= height, ("the hand is off the screen", hand)
    assert 0 <= msg["top"] and msg["bottom"] <= height, ("the message line is off the screen", msg)
    return {"message": msg, "hand": hand}


def notice(person) -> str:
    n = person.page.locator("[data-role=notice]")
    return "" if n.get_attribute("hidden") is not None else n.locator("[data-role=notice-text]").text_content()


# ----------------------------------------------------------------------------- items 1, 2, 3, 8
def test_a_phone_at_a_table_sees_what_the_teacher_does_and_why_a_tap_was_refused(servers, people):
    server = servers("UX32", tables=2)
    teacher_says(server, {"type": "pause"})                # nobody plays until the deal is set
    teacher = open_teacher(people, server)
    phone = people("Asha", **PHONE)
    laptop = people("Bilal", **LAPTOP)
    page = phone.page

    # item 3: the join form's button is a real button; so are the free seats, unlike taken ones
    page.goto(lan_address(server))
    page.wait_for_selector("[data-role=join-form]")
    a_real_button(page, "[data-role=join]")
    page.fill("[data-role=code]", "UX32")
    page.fill("[data-role=name]", "Asha")
    phone.press("[data-role=join]")
    join(laptop, server, "UX32", table=1, seat=0)
    taken = '[data-role=lobby] [data-table="1"] [data-role=taken-seat][data-seat="0"]'
    page.wait_for_selector(taken)
    free = '[data-role=take-seat][data-table="0"][data-seat="0"]'
    a_real_button(page, free)
    look_free = style(page, free, "border-top-style", "background-color", "color")
    look_taken = style(page, taken, "border-top-style", "background-color", "color")
    assert page.locator(taken).evaluate("e => e.tagName") != "BUTTON"
    assert look_free != look_taken and look_taken["border-top-style"] == "dashed", (look_free, look_taken)
    assert box(page, taken)["height"] >= 44
    phone.shot("ux_lobby_360")
    phone.press(free)
    page.wait_for_selector(f'{TABLE}[data-viewer="0"]:not([data-rev="-1"])')
    for role in ("leave",):
        a_real_button(page, f"[data-role={role}]")
    teacher_says(server, {"type": "same_deal", "seed": 25}, {"type": "resume"})
    page.wait_for_selector("[data-role=paused]", state="hidden")

    # item 2: South calls trumps, then taps on: the first card it may not play is refused,
    # and the reason is on the screen with the hand (scrolled to the top)
    page.wait_for_selector("[data-role=call-trump]")
    a_real_button(page, "[data-role=call-trump]")          # a finger's room in the table too
    assert move(phone, 0) == "accepted"
    refused = None
    for _ in range(300):
        got = move(phone, 0, refuse=True)
        if got == "refused":
            refused = page.locator(f"{TABLE} [data-role=message]").text_content()
            break
        if got is None:
            page.wait_for_timeout(50)
    assert refused and "cannot play" in refused, refused
    assert page.locator(f"{TABLE} [data-role=message]").get_attribute("data-kind") == "error"
    message_with_hand(page)
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 360
    phone.shot("ux_phone_refused_360")
    # item 8: the seat tags and the trick counts are readable on the phone
    for sel in (f"{TABLE} .cl-marker", f"{TABLE} .cl-pile-count"):
        sizes = page.eval_on_selector_all(sel, "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
        assert sizes and min(sizes) >= 12, (sel, sizes)
    # item 4: the last trick, looked at while the next one is open
    page.wait_for_selector(f"{TABLE} [data-role=last-trick-button]")
    phone.press(f"{TABLE} [data-role=last-trick-button]")
    view = page.locator(f"{TABLE} [data-role=last-trick-view]")
    assert view.locator("[data-card]").count() == 4
    assert re.match(r"Trick \d+: (South|East|North|West) won it\.", view.text_content())
    shown = box(page, f"{TABLE} [data-role=last-trick-view]")
    assert shown["right"] <= 360 and shown["bottom"] <= 740, shown       # brought into view
    phone.shot("ux_phone_last_trick_360")
    phone.press(f"{TABLE} [data-role=last-trick-button]")
    assert page.locator(f"{TABLE} [data-role=last-trick-view]").count() == 0

    # item 3: Leave the table asks first; Stay keeps the seat
    phone.press("[data-role=leave]")
    page.wait_for_selector("[data-role=leave-confirm]", state="visible")
    a_real_button(page, "[data-role=leave-yes]")
    phone.press("[data-role=leave-no]")
    page.wait_for_selector("[data-role=leave-confirm]", state="hidden")
    assert page.locator(f'{TABLE}[data-viewer="0"]').count() == 1

    # item 1: a new deal everywhere while table 1 is mid-deal asks first; Cancel changes nothing
    dash = teacher.page
    deal = lambda: dash.locator('[data-role=dash-table][data-table="0"]').get_attribute("data-deal")
    before = deal()
    dash.click("[data-role=new-deal-all]")
    ask = dash.locator("[data-role=deal-confirm]")
    ask.wait_for(state="visible")
    assert "Table 1 is in the middle of a deal" in ask.text_content()
    teacher.shot("ux_teacher_confirm_1280")
    dash.click("[data-role=deal-confirm-no]")
    ask.wait_for(state="hidden")
    assert deal() == before
    dash.click("[data-role=new-deal-all]")
    dash.click("[data-role=deal-confirm-yes]")
    dash.wait_for_function("(n) => document.querySelector('[data-role=dash-table][data-table=\"0\"]')"
                           ".dataset.deal !== n", arg=before)
    wait_until(lambda: notice(phone) == "The teacher started a new deal at your table.",
               what="the new deal's notice")
    said = box(page, "[data-role=notice]")          # on the screen, however far it scrolled
    assert page.evaluate("() => window.scrollY") > 0 and 0 <= said["top"] and said["bottom"] <= 740, said
    phone.shot("ux_phone_new_deal_360")
    # the teacher moves her to North of table 2: her page says so, and where she sits
    dash.select_option('[data-role=dash-seat][data-table="0"][data-seat="0"] [data-role=move-to]', "1:2")
    wait_until(lambda: notice(phone) == "The teacher moved you to North, table 2.", what="the move")
    assert "North, table 2" in page.locator("[data-role=where]").text_content()
    # ... then hands her seat to a bot: she is in the lobby and knows why
    dash.click('[data-role=dash-seat][data-table="1"][data-seat="2"] [data-role=to-bot]')
    page.wait_for_selector("[data-role=lobby]")
    wait_until(lambda: notice(phone).startswith("The teacher handed your seat (North, table 2) to a bot"),
               what="the seat handed to a bot")
    phone.shot("ux_phone_to_bot_360")
    # ... then removes her: the join form says so; once she joined again and sat, it is gone
    remove = dash.locator('[data-role=lobby-learner] [data-role=remove]')
    remove.click()
    remove.click()
    page.wait_for_selector("[data-role=join-form]")
    assert notice(phone) == "The teacher removed you from the class."
    page.fill("[data-role=code]", "UX32")
    page.fill("[data-role=name]", "Asha")
    phone.press("[data-role=join]")
    page.wait_for_selector("[data-role=take-seat]")
    assert notice(phone) == "The teacher removed you from the class."   # until she sits
    phone.press('[data-role=take-seat][data-table="0"][data-seat="0"]')
    page.wait_for_selector(f'{TABLE}[data-viewer="0"]')
    wait_until(lambda: notice(phone) == "", what="the notice gone")
    # Leave, said yes to: the lobby again
    phone.press("[data-role=leave]")
    phone.press("[data-role=leave-yes]")
    page.wait_for_selector("[data-role=lobby]")


# ----------------------------------------------------------------------------- items 4, 6, 8
def test_the_next_deal_waits_for_the_table_and_the_projector_fits_the_screen(servers, people):
    server = servers("NEXT32", tables=1)
    teacher_says(server, {"type": "pause"})
    phone = people("Asha", **PHONE)
    laptop = people("Bilal", **LAPTOP)
    join(phone, server, "NEXT32", table=0, seat=0)
    join(laptop, server, "NEXT32", table=0, seat=2)
    teacher_says(server, {"type": "same_deal", "seed": 25}, {"type": "resume"})
    # item 8: while South fixes the trump, North's five cards lie open on the laptop, card
    # beside card (they were squeezed into the middle of the wide table)
    hand = f'{TABLE} [data-role=hand] [data-card]'
    laptop.page.wait_for_function(f"() => document.querySelectorAll('{hand}').length === 5")
    cards = laptop.page.eval_on_selector_all(hand, "els => els.map(e => e.getBoundingClientRect())"
                                             ".map(r => [r.left, r.width])")
    steps = [b[0] - a[0] for a, b in zip(cards, cards[1:])]
    assert min(steps) >= 0.95 * cards[0][1], (steps, cards[0][1])
    laptop.shot("ux_laptop_five_cards_1280")

    # item 6: the projector, opened from far down the page, is where the teacher looks
    teacher = open_teacher(people, server)
    dash = teacher.page
    dash.evaluate("() => window.scrollTo(0, document.scrollingElement.scrollHeight)")
    dash.click('[data-role=project][data-table="0"]')
    dash.wait_for_selector("[data-role=projector] .cl-table:not([data-rev='-1'])")
    proj = box(dash, "[data-role=projector]")
    assert proj["top"] == 0 and proj["bottom"] <= 800 and proj["height"] >= 700, proj
    assert dash.evaluate("() => document.querySelector('[data-role=projector]').contains(document.activeElement)")
    pressed = '[data-role=projector-seat][aria-pressed="true"]'
    s = style(dash, pressed, "color", "background-color")
    assert contrast(s["color"], s["background-color"]) >= 4.5, s

    # the deal, played by the two pages (bots at East and West)
    for _ in range(600):
        if phone.page.locator(TABLE).get_attribute("data-phase") == "over":
            break
        moved = [move(person, seat) for person, seat in ((phone, 0), (laptop, 2))]
        if moved == [None, None]:
            phone.page.wait_for_timeout(50)
    assert phone.page.locator(TABLE).get_attribute("data-phase") == "over"
    # South's hand on the projector's screen all through (the table fits 1280 x 800)
    dash.wait_for_selector("[data-role=projector] .cl-table[data-phase=over]")
    teacher.shot("ux_projector_1280")
    table_box = box(dash, "[data-role=projector] .cl-table")
    assert table_box["bottom"] <= 800, table_box
    dash.keyboard.press("Escape")
    dash.wait_for_selector("[data-role=projector]", state="hidden")
    assert dash.evaluate("() => document.activeElement.dataset.role") == "project"

    # item 4: the laptop is ready first; the phone sees it and a countdown; nothing deals yet
    laptop.press("[data-role=next-deal]")
    nxt = laptop.page.locator("[data-role=next-deal]")
    laptop.page.wait_for_function("() => document.querySelector('[data-role=next-deal]')"
                                  ".getAttribute('aria-pressed') === 'true'")
    assert nxt.text_content().startswith("Ready")
    ready = phone.page.locator("[data-role=ready]")
    ready.wait_for(state="visible")
    assert ready.get_attribute("data-ready") == "1" and ready.get_attribute("data-of") == "2"
    assert "Ready for the next deal: 1 of 2." in ready.text_content()
    assert 1 <= int(ready.get_attribute("data-seconds")) <= 10
    phone.page.evaluate("() => window.scrollTo(0, document.scrollingElement.scrollHeight)")
    phone.shot("ux_phone_ready_360")
    phone.page.wait_for_timeout(600)
    assert phone.page.locator(TABLE).get_attribute("data-phase") == "over"   # still reading
    # the phone is ready too: the next deal starts at once, on both pages
    phone.press("[data-role=next-deal]")
    for person in (phone, laptop):
        person.page.wait_for_selector(f"{TABLE}:not([data-phase=over])", timeout=5000)
        person.page.wait_for_selector("[data-role=ready]", state="hidden")


# ----------------------------------------------------------------------------- items 2, 5, 6, 8 in Urdu
def test_an_urdu_class_teacher_page_and_phone(servers, people):
    server = servers("URDU32", language="ur", tables=1)
    teacher_says(server, {"type": "pause"})
    teacher = open_teacher(people, server)
    dash = teacher.page
    # item 5: the bundled Nastaliq, loaded from the start (no projector opened)
    dash.wait_for_function("() => document.fonts.check('16px \"Noto Nastaliq Urdu\"') && "
                           "[...document.fonts].some((f) => f.family.replace(/\"/g, '') === "
                           "'Noto Nastaliq Urdu' && f.status === 'loaded')")
    assert style(dash, "[data-role=dashboard]", "font-family")["font-family"].startswith('"Noto Nastaliq Urdu"')

    phone = people("زارا", **PHONE)
    page = phone.page
    page.goto(f"{lan_address(server)}?code=URDU32&name={phone.name}")
    page.wait_for_selector("[data-role=lobby] [data-role=take-seat]")
    # item 8: the heading's first letter (at the right, in Urdu) clear of the screen's edge
    ink = page.evaluate("""() => { const h = document.querySelector('.cl-class-lobby-head');
        const r = document.createRange(); r.selectNodeContents(h);
        const b = r.getBoundingClientRect(); return [b.left, b.right]; }""")
    assert ink[0] >= 6 and ink[1] <= 360 - 16, ink        # (its stroke reaches past the box)
    phone.shot("ux_lobby_urdu_360")
    phone.press('[data-role=take-seat][data-table="0"][data-seat="0"]')
    page.wait_for_selector(f'{TABLE}[data-viewer="0"]:not([data-rev="-1"])')
    dash.wait_for_selector('[data-role=dash-seat][data-seat="0"][data-status=here]')
    # item 5: no English word left on the teacher page (the class code, the address and the
    # learner's own name aside)
    said = dash.evaluate("""() => { const skip = '[data-role=class-code], [data-role=join-address]';
        const root = document.body.cloneNode(true);
        for (const e of root.querySelectorAll(skip)) e.remove();
        return root.innerText; }""")
    english = [w for w in re.findall(r"[A-Za-z]{2,}", said) if w != "courtlearn"]   # (its name)
    assert english == [], english
    teacher.shot("ux_teacher_urdu_1280")
    teacher_says(server, {"type": "same_deal", "seed": 25}, {"type": "resume"})
    page.wait_for_selector("[data-role=call-trump]")
    assert move(phone, 0) == "accepted"
    # item 2 in Urdu (Nastaliq's tall lines): a refused tap's reason on the screen with the hand
    refused = None
    for _ in range(300):
        got = move(phone, 0, refuse=True)
        if got == "refused":
            refused = page.locator(f"{TABLE} [data-role=message]").text_content()
            break
        if got is None:
            page.wait_for_timeout(50)
    assert refused and re.search("[\u0600-\u06ff]", refused), refused
    message_with_hand(page)
    phone.shot("ux_phone_refused_urdu_360")
    # item 6 in Urdu: the projector fits the teacher's screen, South's hand on it
    dash.click('[data-role=project][data-table="0"]')
    dash.wait_for_selector("[data-role=projector] .cl-table:not([data-rev='-1'])")
    hand = box(dash, '[data-role=projector] [data-role=seat][data-pos=bottom]')
    assert hand["bottom"] <= 800, hand
    teacher.shot("ux_projector_urdu_1280")
    dash.click("[data-role=projector-close]")
    dash.wait_for_selector("[data-role=projector]", state="hidden")
