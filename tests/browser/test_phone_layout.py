"""The table on every screen. In a plain page holding only the table (as the classroom's
learner page will): a phone (360 x 740 and 320 x 640), a tablet-ish 600 px and a desktop,
in the light and the dark colour scheme, with real snapshots from Python
(tests/browser/table_states.py) drawn by table.js through a small model
(tests/browser/plain_page/model.js). In JupyterLab at 1280 px and at 400 px with its side
panels collapsed, in its light and dark themes, in English and Urdu. (Notebook 7 and marimo
at 400 px: test_frontends.py.)

What is checked is geometry the browser reports (tests/browser/geometry.py): every card of
the viewer's hand has a part nothing covers inside the window and a click there reaches it
(and sends that card), every face-up card's rank and suit are uncovered, nothing is drawn
outside the table or the window, words are not cut off. Screenshots go to build/screenshots/.
Any console error fails (tests/page_errors.py).
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

import table_states
from geometry import clickable_hand, covered_glyphs, outside_the_table, record_clicks
from labserver import HERE, ROOT, kernel, open_notebook
from page_errors import PageErrors
from plainpage import PlainPage

pytestmark = pytest.mark.browser

SHOTS = ROOT / "build" / "screenshots"
# "narrowest": the table's width in JupyterLab at 400 px (its output area is 284 px wide)
SIZES = {"phone": (360, 740), "small_phone": (320, 640), "narrowest": (300, 700),
         "tablet": (600, 900), "desktop": (1280, 900)}
# every kind of table a learner meets: own hand only, all hands face up (the puzzles' and the
# teacher's view), following suit, the hint, the "Best play" marks, a Double Sir centre pile,
# a finished deal, Urdu and Hindi
SHOWN = ["lead", "lead_all", "follow_all", "hint", "best_play", "double_sir", "double_sir_last", "over",
         "lead_all_ur", "hint_ur", "lead_all_hi"]


@pytest.fixture(scope="module")
def site():
    with PlainPage(table_states.states()) as served:
        yield served


@pytest.fixture
def screen(browser, request):
    """A page of the given size and colour scheme; fails on any browser error."""
    opened = []

    def make(size, scheme="light", reduced_motion="no-preference"):
        width, height = SIZES[size]
        ctx = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme,
                                  reduced_motion=reduced_motion)
        errors = PageErrors().watch(ctx)
        page = ctx.new_page()
        page.set_default_timeout(30_000)
        opened.append((ctx, errors))
        return page

    yield make
    for ctx, errors in opened:
        ctx.close()
        assert not errors, errors.report()


def show(page, site, fixture):
    page.goto(site.url(fixture))
    table = page.locator(".cl-table").first
    expect(table).not_to_have_attribute("data-rev", "-1")
    expect(table).to_have_attribute("data-busy", "false")
    page.evaluate("() => document.fonts.ready")
    return table


def _luma(css_colour: str) -> float:
    r, g, b = (float(x) for x in re.findall(r"[\d.]+", css_colour)[:3])
    return 0.299 * r + 0.587 * g + 0.114 * b


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_every_card_can_be_seen_and_clicked(site, screen, size, scheme):
    page = screen(size, scheme)
    for fixture in SHOWN:
        table = show(page, site, fixture)
        bg = table.evaluate("el => getComputedStyle(el).backgroundColor")
        assert (_luma(bg) < 128) == (scheme == "dark"), (fixture, bg)
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= page.viewport_size["width"], \
            f"{fixture}: the page scrolls sideways"
        problems = outside_the_table(table)
        assert not problems, f"{fixture} at {size}: {problems}"
        problems = covered_glyphs(table)
        assert not problems, f"{fixture} at {size}: {problems}"
        if size in ("phone", "narrowest", "desktop"):
            page.mouse.move(0, 0)
            page.screenshot(path=str(SHOTS / f"plain_{fixture}_{size}_{scheme}.png"), full_page=True)
        # every card of the viewer's hand: found uncovered in the window, clicked, sent
        record_clicks(table, block=False)

        def sent_it(code):
            page.wait_for_function("(code) => window.sent.length && window.sent.at(-1).card === code",
                                   arg=code)
            expect(table).to_have_attribute("data-pending", "false")

        hand = table.locator("[data-role=hand] [data-card][data-seat='0']").count()
        clicked = clickable_hand(page, table, 0, after_click=sent_it)
        assert len(clicked) == hand and hand >= 1, (fixture, clicked)


def test_a_phone_shows_thirteen_cards_in_two_rows(site, screen):
    """At 360 px the viewer's thirteen cards lie in two rows of seven and six, each card
    showing at least 28 px of its width, North's face-up hand the same way."""
    page = screen("phone")
    table = show(page, site, "lead_all")
    rows = table.evaluate("""t => [0, 2].map(seat => {
        const cards = [...t.querySelectorAll(`[data-seat="${seat}"] > [data-card]`)];
        const tops = cards.map(c => Math.round(c.offsetTop));
        const lefts = cards.map(c => c.getBoundingClientRect().left);
        return {rows: [...new Set(tops)].length, first: tops.filter(x => x === tops[0]).length,
                step: Math.min(...lefts.slice(1, 7).map((x, i) => x - lefts[i]))};
    })""")
    for seat in rows:
        assert seat["rows"] == 2 and seat["first"] == 7 and seat["step"] >= 28, rows


@pytest.mark.parametrize("fixture, lang", [("hint", "en"), ("hint_ur", "ur"), ("hint_hi", "hi")])
def test_the_hint_tag_speaks_the_tables_language(site, screen, fixture, lang):
    page = screen("desktop")
    table = show(page, site, fixture)
    card = table.locator("[data-role=hand] [data-hint=true]")
    expect(card).to_have_count(1)
    word = table_states.states()[fixture]["state"]["frames"][-1]["words"]["hint"]
    tag = card.evaluate("el => getComputedStyle(el, '::after').content")
    assert tag == f'"{word}"', (tag, word)
    if lang != "en":
        assert not re.search(r"[A-Za-z]", tag), tag


def _flight(page, table):
    """Follow the swept trick's cards frame by frame until every animation is over: the
    largest distance any card went outside the table's box, and how far the page grew."""
    return table.evaluate("""async (t) => {
        const before = document.scrollingElement.scrollHeight;
        const box = t.getBoundingClientRect();
        let worst = 0;
        const look = () => {
            for (const c of t.querySelectorAll("[data-role=last-trick] [data-card]")) {
                const r = c.getBoundingClientRect();
                worst = Math.max(worst, box.left - r.left, r.right - box.right, box.top - r.top, r.bottom - box.bottom);
            }
        };
        const deadline = performance.now() + 5000;
        do {
            look();
            await new Promise(r => requestAnimationFrame(r));
        } while (document.getAnimations().length && performance.now() < deadline);
        look();
        return {worst, grew: document.scrollingElement.scrollHeight - before,
                running: document.getAnimations().length};
    }""")


@pytest.mark.parametrize("fixture", ["sweep_en", "sweep_ur", "sweep_late_css"])
def test_the_swept_trick_flies_inside_the_table_and_comes_back(site, screen, fixture):
    """The completed trick flies to its pile without leaving the table (a card shrinking on
    its way may brush the table's edge, where the table clips it), the page does not grow,
    and when the flight is over no animation holds a card anywhere: the trick is back on the
    felt, dimmed, to be looked at until the next card. In English, in Urdu, and with the
    stylesheet arriving after the table was drawn (a flight measured on the unstyled table
    would have gone a page's length away)."""
    page = screen("phone")
    page.goto(site.url(fixture))
    table = page.locator(".cl-table").first
    expect(table).not_to_have_attribute("data-rev", "-1")
    result = _flight(page, table)
    assert result["running"] == 0, f"animations still hold cards: {result}"
    assert result["worst"] <= 30 and result["grew"] <= 0, result
    last = table.locator("[data-role=last-trick] [data-card]")
    expect(last).to_have_count(4)
    assert min(last.evaluate_all("els => els.map(e => Number(getComputedStyle(e).opacity))")) >= 0.5
    assert not outside_the_table(table)
    assert not covered_glyphs(table)
    page.screenshot(path=str(SHOTS / f"plain_{fixture}_after.png"), full_page=True)


def test_the_last_trick_can_be_looked_at_after_the_deal(site, screen):
    """After the deal's last trick flew to its pile, the trick is back on the felt, dimmed,
    its winner ringed, every card's rank and suit readable."""
    page = screen("phone")
    page.goto(site.url("last_sweep"))
    table = page.locator(".cl-table").first
    expect(table).to_have_attribute("data-phase", "over")
    result = _flight(page, table)
    assert result["running"] == 0 and result["worst"] <= 1, result
    expect(table).to_have_attribute("data-busy", "false")
    last = table.locator("[data-role=last-trick] [data-card]")
    expect(last).to_have_count(4)
    shown = last.evaluate_all("els => els.map(e => Number(getComputedStyle(e).opacity))")
    assert min(shown) >= 0.5, shown
    assert not covered_glyphs(table)
    expect(table.locator("[data-role=last-trick] .cl-winning")).to_have_count(1)
    page.screenshot(path=str(SHOTS / "plain_last_trick_after_the_deal.png"), full_page=True)


def test_no_motion_still_shows_the_last_trick(site, screen):
    page = screen("phone", reduced_motion="reduce")
    table = show(page, site, "last_sweep")
    expect(table).to_have_attribute("data-animate", "false")
    expect(table.locator("[data-role=last-trick] [data-card]")).to_have_count(4)
    assert not covered_glyphs(table)


# ----------------------------------------------------------------------------- JupyterLab
def _theme(page, dark: bool):
    theme = "JupyterLab Dark" if dark else "JupyterLab Light"
    page.evaluate("(t) => window.jupyterapp.commands.execute('apputils:change-theme', {theme: t})", theme)
    page.wait_for_function(f"() => document.body.dataset.jpThemeLight === '{'false' if dark else 'true'}'")
    # JupyterLab covers the page with a splash while it swaps themes: wait until it is gone
    expect(page.locator("#jupyterlab-splash")).to_have_count(0, timeout=20_000)
    page.wait_for_timeout(300)           # the theme's own transition


def _narrow_lab(page, width: int, height: int = 800):
    """The window at `width` with JupyterLab's side panels collapsed, as on a phone."""
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => { window.jupyterapp.shell.collapseLeft(); window.jupyterapp.shell.collapseRight(); }")
    page.wait_for_function("() => !document.querySelector('#jp-left-stack:not(.lm-mod-hidden)')")
    page.wait_for_timeout(300)


def _everything_reachable(page, table, where: str):
    problems = outside_the_table(table)
    assert not problems, f"{where}: {problems}"
    problems = covered_glyphs(table)
    assert not problems, f"{where}: {problems}"
    record_clicks(table, block=True)          # found and clicked, but nothing is played
    n = table.locator("[data-role=hand] [data-card][data-seat='0']").count()
    assert len(clickable_hand(page, table, 0)) == n == 13, where


@pytest.mark.parametrize("width", [1280, 400])
def test_jupyterlab_every_card_seen_and_clicked(lab, page, width):
    """The table in JupyterLab at 1280 px and at 400 px (side panels collapsed), light and
    dark, every hand face up: each of South's thirteen cards is found uncovered inside the
    window and clicked; every face-up card's rank and suit is uncovered; at 400 px the same
    in Urdu; then a real click plays a card."""
    from test_table import rev, wait_idle
    name = lab.add_notebook(HERE / "prearranged.ipynb", f"phone_{width}.ipynb")
    open_notebook(page, lab, name)
    table = page.locator(".cl-table").first
    r = rev(page)
    kernel(page, "deal.call_trump('S'); table.show_all = True")
    wait_idle(page, r)
    _narrow_lab(page, width)
    languages = ["en", "ur"] if width == 400 else ["en"]
    try:
        for lang in languages:
            if lang != "en":
                r = rev(page)
                kernel(page, f"table.language = '{lang}'; table.refresh()")
                wait_idle(page, r)
                expect(table).to_have_attribute("lang", lang)
                page.evaluate("() => document.fonts.ready")
            for dark in (False, True):
                _theme(page, dark)
                scheme = "dark" if dark else "light"
                _everything_reachable(page, table, f"{width}px {lang} {scheme}")
                page.mouse.move(0, 0)
                table.evaluate("el => el.scrollIntoView({block: 'start'})")
                suffix = "" if lang == "en" else f"_{lang}"
                page.screenshot(path=str(SHOTS / f"lab_{width}{suffix}_{scheme}.png"))
                page.set_viewport_size({"width": width, "height": 1600})    # the whole table
                table.evaluate("el => el.scrollIntoView({block: 'start'})")
                table.screenshot(path=str(SHOTS / f"lab_{width}{suffix}_{scheme}_table.png"))
                page.set_viewport_size({"width": width, "height": 800})
    finally:
        _theme(page, False)                   # the settings outlive the test
    # a real click on the visible part of a card plays it
    record_clicks(table, block=False)
    r = rev(page)
    card = table.locator("[data-role=hand] [data-card='7S']")
    card.scroll_into_view_if_needed()
    box = card.bounding_box()
    page.mouse.click(box["x"] + 6, box["y"] + 12)
    wait_idle(page, r)
    assert kernel(page, "print([c.code for s, c in deal.trick.cards])").strip() == "['7S']"


def test_play_controls_wrap_with_their_words_at_400(lab, page):
    """cl.play() at 400 px: every control of the rows under the table lies inside the window
    and shows all of its words (the rows wrap instead of squeezing buttons to icons)."""
    import nbformat
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(
        "import courtlearn as cl\napp = cl.play('double_sir', seed=3, animate=False)\napp")]
    nbformat.write(nb, lab.root / "play_400.ipynb")
    open_notebook(page, lab, "play_400.ipynb")
    _narrow_lab(page, 400)
    output = page.locator(".jp-OutputArea-output").last
    output.evaluate("el => el.scrollIntoView({block: 'end'})")
    page.screenshot(path=str(SHOTS / "lab_400_play_controls.png"))
    controls = output.evaluate("""el => [...el.querySelectorAll(
        '.widget-button, .widget-toggle-button, .widget-checkbox, .widget-slider, .widget-dropdown')]
        .map(c => { const r = c.getBoundingClientRect();
                    return [c.textContent.replace(/\\u200b/g, '').trim().slice(0, 20), r.left, r.right,
                            c.scrollWidth, c.clientWidth]; })""")
    assert len(controls) == 8, controls
    width = page.viewport_size["width"]
    bad = [c for c in controls if c[1] < 0 or c[2] > width or c[3] > c[4] + 1]
    assert not bad, f"cut off or outside the window: {bad}"
