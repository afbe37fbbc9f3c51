"""The card table in a real JupyterLab, driven through Debian's Chromium.

Each test opens a fresh copy of a notebook in tests/browser/, runs it, clicks,
and checks both the page and the kernel's own Deal. Waits are on DOM
attributes (data-rev, data-phase, data-to-play, data-busy), never on sleeps.
Screenshots go to build/artifacts/.
"""
import json
import re

import pytest
from playwright.sync_api import expect

from labserver import ARTIFACTS, HERE, kernel, open_notebook

pytestmark = pytest.mark.browser


def table_root(page):
    return page.locator(".cl-table").first


def wait_idle(page, rev_after=None):
    """Wait until the table drew everything Python sent (and, if given, a newer rev)."""
    root = table_root(page)
    if rev_after is not None:
        page.wait_for_function(
            "(r) => Number(document.querySelector('.cl-table').dataset.rev) > r", arg=rev_after)
    expect(root).to_have_attribute("data-busy", "false")


def rev(page) -> int:
    return int(table_root(page).get_attribute("data-rev"))


def no_console_errors(page):
    assert not page.console_errors, page.console_errors.report()


@pytest.fixture
def prearranged(lab, page, request):
    name = lab.add_notebook(HERE / "prearranged.ipynb", f"{request.node.name}.ipynb")
    open_notebook(page, lab, name)
    return page


def test_prearranged_deal_by_clicks(prearranged):
    page = prearranged
    root = table_root(page)
    expect(root).to_have_attribute("data-phase", "trump")
    hand = root.locator("[data-role=hand] [data-card]")
    expect(hand).to_have_count(5)                                   # the first batch only
    expect(root.locator("[data-role=hand-other] [data-facedown]")).to_have_count(15)
    # face-down cards carry no identity, and the page holds no opponent's card anywhere
    assert root.locator("[data-facedown][data-card]").count() == 0
    shown = set(root.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert shown == {"AS", "KS", "QS", "JS", "2C"}
    expect(hand.first).to_have_attribute("aria-label", "A♠ ace of spades")   # as shown, then said
    page.screenshot(path=str(ARTIFACTS / "prearranged_trump.png"))

    # call trump by a click
    r = rev(page)
    root.locator("[data-role=call-trump][data-suit=S]").click()
    wait_idle(page, r)
    expect(root).to_have_attribute("data-phase", "play")
    expect(root.locator("[data-role=trump]")).to_have_attribute("data-suit", "S")
    assert kernel(page, "print(deal.trump.letter, deal.phase.value)").split() == ["S", "play"]
    expect(hand).to_have_count(13)
    # the hand is fanned (cards overlap), yet each card is what lies under its visible part
    hits = page.evaluate("""() => {
        const cards = [...document.querySelectorAll('.cl-table [data-role=hand] [data-card]')];
        return cards.map((c, i) => {
            const r = c.getBoundingClientRect();
            const next = cards[i + 1] ? cards[i + 1].getBoundingClientRect().left : r.right;
            const x = (r.left + Math.min(r.right, next)) / 2, y = r.top + r.height / 2;
            const hit = document.elementFromPoint(x, y);
            return [c.dataset.card, hit && hit.closest('[data-card]') ? hit.closest('[data-card]').dataset.card : null,
                    r.width > Math.min(r.right, next) - r.left];
        });
    }""")
    assert all(card == hit for card, hit, _ in hits), hits
    assert sum(overlapped for _, _, overlapped in hits) == 12          # really fanned

    # a legal card: it appears in the trick, and Python's deal shows it
    r = rev(page)
    root.locator("[data-role=hand] [data-card='2C']").click()
    wait_idle(page, r)
    expect(root.locator("[data-role=trick] [data-card='2C'][data-seat='0']")).to_be_visible()
    assert kernel(page, "print([(s, c.code) for s, c in deal.trick.cards])").strip() == "[(0, '2C')]"
    expect(root.locator("[data-role=message]")).to_contain_text("South leads 2\u2663")

    # the other seats from Python (a bare table plays nobody's cards by itself)
    assert kernel(page, "print(deal.to_play)").strip() == "1"
    kernel(page, "table.play('AC'); table.play('2H'); table.play('2D'); table.play('KD'); table.play('3H'); table.play('AD')")
    wait_idle(page)
    expect(root).to_have_attribute("data-to-play", "0")
    expect(root.locator("[data-role=trick] [data-card]")).to_have_count(3)
    legal = root.locator("[data-role=hand] [data-card][data-legal=true]")
    expect(legal).to_have_count(4)                                  # must follow diamonds
    assert sorted(legal.evaluate_all("els => els.map(e => e.dataset.card)")) == ["5D", "6D", "7D", "8D"]

    # an illegal card: the engine's reason appears, nothing changes
    before = kernel(page, "print(deal.to_dict())")
    r = rev(page)
    root.locator("[data-role=hand] [data-card='AS']").click()
    wait_idle(page, r)
    msg = root.locator("[data-role=message]")
    expect(msg).to_have_attribute("data-kind", "error")
    expect(msg).to_contain_text("diamond")
    expect(root.locator("[data-role=hand] [data-card='AS']")).to_be_visible()
    expect(root.locator("[data-role=trick] [data-card]")).to_have_count(3)
    assert kernel(page, "print(deal.to_dict())") == before
    page.screenshot(path=str(ARTIFACTS / "prearranged_illegal.png"))

    # keyboard: focus the hand, move with the arrows, play with Enter
    r = rev(page)
    root.locator("[data-role=hand] [data-card='7D']").focus()      # held high to low: 8D 7D 6D 5D
    page.keyboard.press("ArrowRight")
    expect(root.locator("[data-role=hand] [data-card='6D']")).to_be_focused()
    page.keyboard.press("Enter")
    wait_idle(page, r)
    expect(root.locator("[data-role=last-trick] [data-card='6D']")).to_be_visible()
    assert kernel(page, "print(deal.tricks[-1].winner, len(deal.tricks))").split() == ["3", "2"]
    expect(root.locator("[data-role=pile][data-team='1']")).to_have_attribute("data-count", "2")

    # the same table in JupyterLab's dark theme and in the large (classroom) size
    kernel(page, "table.size = 'large'")
    expect(root).to_have_attribute("data-size", "large")
    page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})")
    page.wait_for_function("() => document.body.dataset.jpThemeLight === 'false'")
    # JupyterLab covers the page with a splash while it swaps themes: wait until it is gone
    expect(page.locator("#jupyterlab-splash")).to_have_count(0, timeout=20_000)
    expect(root.locator("[data-role=message]")).to_be_visible()
    page.mouse.move(0, 0)
    root.scroll_into_view_if_needed()
    root.screenshot(path=str(ARTIFACTS / "prearranged_dark_large.png"))
    page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'})")
    page.wait_for_function("() => document.body.dataset.jpThemeLight === 'true'")   # settings outlive the test
    no_console_errors(page)


def test_forged_message_from_the_page_is_refused(prearranged):
    page = prearranged
    root = table_root(page)
    before = kernel(page, "print(deal.to_dict())")
    # a message the page's own code would never send: another seat's card, then garbage
    r = rev(page)
    kernel(page, "table._on_msg(table, {'type': 'play', 'card': 'AC'})")
    wait_idle(page, r)
    expect(root.locator("[data-role=message]")).to_have_attribute("data-kind", "error")
    expect(root.locator("[data-role=message]")).to_contain_text("The trump is not fixed yet")  # the deal's own sentence
    r = rev(page)
    kernel(page, "table._on_msg(table, {'type': 'play', 'card': '<img src=x onerror=alert(1)>'})")
    wait_idle(page, r)
    expect(root.locator("[data-role=message]")).to_contain_text("naming no card")
    assert root.locator("img").count() == 0
    assert kernel(page, "print(deal.to_dict())") == before
    # a reader who asked for less motion gets none, even with animations switched on
    page.emulate_media(reduced_motion="reduce")
    kernel(page, "table.animate = True")
    expect(root).to_have_attribute("data-animate", "false")
    page.emulate_media(reduced_motion="no-preference")
    kernel(page, "table.animate = False; table.animate = True")
    expect(root).to_have_attribute("data-animate", "true")
    no_console_errors(page)


def test_whole_double_sir_deal_by_clicks_against_bots(lab, page):
    name = lab.add_notebook(HERE / "play_double_sir.ipynb", "whole_deal.ipynb")
    open_notebook(page, lab, name)
    root = table_root(page)
    viewer = root.get_attribute("data-viewer")
    # the teacher's switch: every hand face up, then face down again (no identity left behind)
    wait_idle(page)
    others = int(kernel(page, "print(sum(len(app.table.deal.hand(s)) for s in (1, 2, 3)))"))
    r = rev(page)
    page.get_by_label("Show all hands").check()
    wait_idle(page, r)
    expect(root.locator("[data-role=hand-other] [data-card]")).to_have_count(others)
    r = rev(page)
    page.get_by_label("Show all hands").uncheck()
    wait_idle(page, r)
    expect(root.locator("[data-role=hand-other] [data-facedown]")).to_have_count(others)
    assert root.locator("[data-role=hand-other] [data-card]").count() == 0
    centre_seen = 0
    clicks = 0
    shot_taken = False
    for _ in range(40):
        wait_idle(page)
        phase = root.get_attribute("data-phase")
        if phase == "over":
            break
        assert root.get_attribute("data-to-play") == viewer, "the bots stopped before the viewer's turn"
        centre_seen = max(centre_seen, int(root.locator("[data-role=centre]").get_attribute("data-count")))
        r = rev(page)
        if phase == "trump":
            root.locator("[data-role=call-trump]").first.click()
        else:
            card = root.locator("[data-role=hand] [data-legal=true]").first
            if not shot_taken and clicks == 4:             # the README picture (docs/table.png), with a hint
                root.locator("[data-role=hint]").click()
                wait_idle(page, r)
                card = root.locator("[data-role=hand] [data-hint=true]")
                expect(card).to_have_count(1)
                page.mouse.move(0, 0)
                page.locator(".jp-OutputArea-output").last.screenshot(
                    path=str(ARTIFACTS / "double_sir_mid_deal.png"))
                shot_taken = True
                r = rev(page)
            card.click()
        clicks += 1
        wait_idle(page, r)
    expect(root).to_have_attribute("data-phase", "over")
    expect(root.locator("[data-role=result]")).to_contain_text("Deal over")
    # the deal's last trick flew to its pile and is back on the felt, to be looked at (no
    # animation holds it away)
    page.wait_for_function("() => document.querySelector('.cl-table').getAnimations({subtree: true}).length === 0")
    last = root.locator("[data-role=last-trick] [data-card]")
    expect(last).to_have_count(4)
    assert min(last.evaluate_all("els => els.map(e => Number(getComputedStyle(e).opacity))")) >= 0.5
    out = kernel(page, "d = app.table.deal; print(d.phase.value, d.result.winner, sum(d.tricks_won) + len(d.centre))")
    phase, _winner, tricks = out.split()
    assert phase == "over" and int(tricks) == len(json.loads(kernel(page, "import json; print(json.dumps([t.winner for t in app.table.deal.tricks]))")))
    assert centre_seen >= 1, "the Double Sir centre pile never showed a count"
    page.screenshot(path=str(ARTIFACTS / "double_sir_over.png"))
    no_console_errors(page)


def test_hint_button_highlights_a_card_and_the_card_plays(lab, page):
    name = lab.add_notebook(HERE / "play_double_sir.ipynb", "hint.ipynb")
    open_notebook(page, lab, name)
    root = table_root(page)
    viewer = root.get_attribute("data-viewer")
    msg = root.locator("[data-role=message]")
    button = root.locator("[data-role=hint]")
    wait_idle(page)
    assert root.get_attribute("data-to-play") == viewer
    if root.get_attribute("data-phase") == "trump":           # the viewer fixes the trump first
        r = rev(page)
        button.click()
        wait_idle(page, r)
        suit = root.locator("[data-role=call-trump][data-hint=true]")
        expect(suit).to_have_count(1)
        expect(msg).to_have_attribute("data-kind", "hint")
        expect(msg).to_contain_text("Call ")
        r = rev(page)
        suit.click()
        wait_idle(page, r)
    expect(root).to_have_attribute("data-phase", "play")
    expect(root).to_have_attribute("data-to-play", viewer)
    expect(root.locator("[data-role=hand] [data-hint]")).to_have_count(0)
    expect(button).to_be_enabled()
    r = rev(page)
    button.click()
    wait_idle(page, r)
    hinted = root.locator("[data-role=hand] [data-card][data-hint=true]")
    expect(hinted).to_have_count(1)
    expect(hinted).to_have_attribute("data-legal", "true")
    expect(msg).to_have_attribute("data-kind", "hint")
    expect(msg).to_have_text(re.compile(r"^Play \S+: .+\."))
    code = hinted.get_attribute("data-card")
    # the page shows the kernel's own hint for the viewer's seat
    assert kernel(page, f"print(cl.hint(app.table.deal, {viewer}).card.code)").strip() == code
    page.mouse.move(0, 0)
    page.locator(".jp-OutputArea-output").last.screenshot(path=str(ARTIFACTS / "hint.png"))
    # clicking the hinted card plays it; from that click until the bots answered, Hint is disabled
    r = rev(page)
    disabled = page.evaluate("""(code) => {
        const root = document.querySelector('.cl-table');
        root.querySelector(`[data-role=hand] [data-card="${code}"]`).click();
        const b = root.querySelector('[data-role=hint]');
        return b ? b.disabled : null;
    }""", code)
    assert disabled is True
    wait_idle(page, r)
    played = kernel(page, f"d = app.table.deal; print(any(s == {viewer} and c.code == '{code}' "
                          "for t in (*d.tricks, d.trick) for s, c in t.cards))")
    assert played.strip() == "True"
    expect(root.locator(f"[data-role=hand] [data-card='{code}']")).to_have_count(0)
    expect(root.locator("[data-role=hand] [data-hint]")).to_have_count(0)
    no_console_errors(page)


def test_best_play_marks_with_all_hands_shown(lab, page):
    """The teacher's view: the "Best play" switch marks each card of the player to move with
    its exact value (cl.solve), the best ones ringed; the values are the solver's."""
    import nbformat
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(
        "import courtlearn as cl\nfrom courtlearn.widgets import CardTable\n"
        "deal = cl.exercises.question('best_card', 3).deal   # a Double Sir end position\n"
        "table = CardTable(deal, seat=0, show_all=True, animate=False)\ntable")]
    nbformat.write(nb, lab.root / "best_play.ipynb")
    open_notebook(page, lab, "best_play.ipynb")
    root = table_root(page)
    switch = root.locator("[data-role=best-play]")
    expect(switch).not_to_be_checked()
    expect(root.locator("[data-role=dd]")).to_have_count(0)
    r = rev(page)
    switch.check()
    wait_idle(page, r)
    marks = root.locator("[data-role=hand] [data-card][data-dd]")
    solved = json.loads(kernel(page, "import json; print(json.dumps({c.code: v for c, v in "
                                     "cl.solve(deal).values.items()}))"))
    assert len(solved) >= 2                        # a choice to mark (the question's cards)
    expect(marks).to_have_count(len(solved))
    shown = dict(marks.evaluate_all("els => els.map(e => [e.dataset.card, Number(e.dataset.dd)])"))
    assert shown == solved
    best = sorted(root.locator("[data-dd-best=true]").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert best == sorted(c for c, v in solved.items() if v == max(solved.values()))
    page.mouse.move(0, 0)
    root.screenshot(path=str(ARTIFACTS / "best_play.png"))
    # a legal click still plays; the marks move on to the next player
    r = rev(page)
    root.locator(f"[data-role=hand] [data-card='{min(solved)}']").click()   # any of South's
    wait_idle(page, r)
    assert kernel(page, "print(deal.to_play)").strip() == "1"
    expect(root.locator("[data-role=hand-other][data-seat='1'] [data-dd]").first).to_be_visible()
    page.mouse.move(0, 0)
    root.screenshot(path=str(ARTIFACTS / "best_play_east.png"))
    r = rev(page)
    switch = root.locator("[data-role=best-play]")
    switch.uncheck()
    wait_idle(page, r)
    expect(root.locator("[data-role=dd]")).to_have_count(0)
    no_console_errors(page)


def test_review_steps_through_the_viewers_decisions(lab, page):
    """After a deal the Review button steps through South's decisions on the table: the
    chosen card marked best / fine / mistake, the coach's sentence in the message line."""
    import nbformat
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(
        "import courtlearn as cl\nfrom courtlearn.widgets import CardTable\n"
        "deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=20)\n"
        "while deal.phase != 'over':\n    cl.bots.act(cl.bots.RuleBot(), deal)\n"
        "table = CardTable(deal, seat=0, animate=False)\ntable")]
    nbformat.write(nb, lab.root / "review.ipynb")
    open_notebook(page, lab, "review.ipynb")
    root = table_root(page)
    expect(root).to_have_attribute("data-phase", "over")
    r = rev(page)
    root.locator("[data-role=review-start]").click()
    wait_idle(page, r)
    expect(root.locator("[data-role=review-where]")).to_have_text("Decision 1 of 13", timeout=60_000)
    expect(root).to_have_attribute("data-replay", "true")
    expect(root.locator("[data-role=message]")).to_contain_text("Trump: you called")
    # the decision the coach finds costly (8♥ at trick 7: the deal, with best play)
    index = int(kernel(page, "rv = table.review(); print([i for i, d in enumerate(rv.decisions) "
                             "if d.cost][0])"))
    kernel(page, f"table.review({index})")
    wait_idle(page)
    mark = root.locator("[data-role=hand] [data-review]")
    expect(mark).to_have_count(1)
    # good by what South could see, beaten by the cards as they lay: unlucky, not a mistake
    expect(mark).to_have_attribute("data-review", "unlucky")
    expect(root.locator("[data-role=message]")).to_have_attribute("data-kind", "note")
    expect(root.locator("[data-role=message]")).to_contain_text("with all hands known, after 8♥")
    assert root.locator("[data-review-best=true]").count() >= 1
    page.mouse.move(0, 0)
    root.screenshot(path=str(ARTIFACTS / "review_mistake.png"))
    r = rev(page)
    root.locator("[data-role=review-next]").click()
    wait_idle(page, r)
    expect(root.locator("[data-role=review-where]")).to_have_text(f"Decision {index + 2} of 13")
    r = rev(page)
    root.locator("[data-role=review-close]").click()
    wait_idle(page, r)
    expect(root.locator("[data-role=review]")).to_have_count(0)
    expect(root).to_have_attribute("data-replay", "false")
    no_console_errors(page)


def test_a_puzzle_played_wrongly_then_rightly(lab, page):
    """The puzzle ladder: all hands face up, the learner plays both North–South hands by
    clicks, East–West answer with best defence. A card that loses the goal is called out
    with the card that would have kept it; Try again, then the right line, is solved."""
    name = lab.add_notebook(HERE / "puzzle.ipynb", "puzzle.ipynb")
    open_notebook(page, lab, name)
    root = table_root(page)
    msg = root.locator("[data-role=message]")
    wait_idle(page)
    expect(msg).to_contain_text("South to lead")
    answer = kernel(page, "print(*[c.code for c in app.puzzle.answer])").split()
    legal = root.locator("[data-role=hand][data-seat='0'] [data-card][data-legal=true]")
    codes = legal.evaluate_all("els => els.map(e => e.dataset.card)")
    wrong = next(c for c in codes if c not in answer)
    r = rev(page)
    root.locator(f"[data-role=hand] [data-card='{wrong}']").click()
    wait_idle(page, r)
    expect(msg).to_have_attribute("data-kind", "error")
    expect(msg).to_contain_text("the goal is out of reach")
    expect(msg).to_contain_text(f"{kernel(page, 'print(app.table.failed[1][0])').strip()} would have kept it")
    page.locator(".jp-OutputArea-output").last.screenshot(path=str(ARTIFACTS / "puzzle_failed.png"))
    page.locator(".widget-button:has-text('Try again')").click()
    expect(msg).to_contain_text("South to lead")
    # the winning line, each card clicked in its own hand (South's or North's)
    line = kernel(page, "print(*[c.code for c in app.puzzle.winning_line()])").split()
    for code in line:
        card = root.locator(f"[data-role=hand] [data-card='{code}'][data-legal=true]")
        expect(card).to_have_count(1)
        r = rev(page)
        card.click()
        wait_idle(page, r)
    expect(msg).to_contain_text("Solved!")
    assert kernel(page, "print(app.table.status, app.table.deal.phase)").split() == ["solved", "over"]
    page.locator(".jp-OutputArea-output").last.screenshot(path=str(ARTIFACTS / "puzzle_solved.png"))
    no_console_errors(page)


def _dark(page, on: bool):
    theme = "JupyterLab Dark" if on else "JupyterLab Light"
    page.evaluate(f"() => window.jupyterapp.commands.execute('apputils:change-theme', {{theme: '{theme}'}})")
    page.wait_for_function(f"() => document.body.dataset.jpThemeLight === '{'false' if on else 'true'}'")
    expect(page.locator("#jupyterlab-splash")).to_have_count(0, timeout=20_000)


def test_the_table_in_urdu_and_hindi(prearranged):
    """Urdu runs right to left in Nastaliq, Hindi in Devanagari, both fonts from the widget
    itself (no network); the seats keep their places; a refusal comes in the language."""
    page = prearranged
    root = table_root(page)
    expect(root).to_have_attribute("data-phase", "trump")
    r = rev(page)
    kernel(page, "deal.call_trump('S'); deal.play('2C'); deal.play('AC'); deal.play('3H'); table.refresh()")
    wait_idle(page, r)

    def centres():
        out = {}
        for p in ("bottom", "right", "top", "left"):
            b = root.locator(f"[data-role=seat][data-pos={p}]").bounding_box()
            out[p] = (b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
        return out

    english = centres()
    for lang, family, word, label in (("ur", "Noto Nastaliq Urdu", "حکم", "A♠ حکم کا یکّا"),
                                      ("hi", "Noto Sans Devanagari", "हुकुम", "A♠ हुकुम का इक्का")):
        r = rev(page)
        kernel(page, f"table.language = '{lang}'; table.refresh()")
        wait_idle(page, r)
        expect(root).to_have_attribute("lang", lang)
        expect(root).to_have_attribute("data-dir", "rtl" if lang == "ur" else "ltr")
        expect(root.locator("[data-role=trump]")).to_contain_text(word)
        expect(root.locator("[data-role=hand] [data-card='AS']")).to_have_attribute("aria-label", label)
        page.wait_for_function("(f) => document.fonts.check(`20px \"${f}\"`) && "
                               "[...document.fonts].some((x) => x.family.replace(/\"/g, '') === f "
                               "&& x.status === 'loaded')", arg=family)
        msg = root.locator("[data-role=message]")
        style = msg.evaluate("el => [getComputedStyle(el).direction, getComputedStyle(el).fontFamily]")
        assert style[0] == ("rtl" if lang == "ur" else "ltr") and style[1].startswith(f'"{family}"'), style
        felt = root.locator(".cl-felt").evaluate("el => getComputedStyle(el).direction")
        assert felt == "ltr"
        # the seats sit where they sat in English: the viewer at the bottom, East on the right
        for p, (x, y) in centres().items():
            assert abs(x - english[p][0]) < 30 and abs(y - english[p][1]) < 60, (lang, p, x, y, english)
        # a card that may not be played: the refusal in the language, nothing moves
        r = rev(page)
        root.locator("[data-role=hand] [data-card='AS']").click()
        wait_idle(page, r)
        expect(msg).to_have_attribute("data-kind", "error")
        text = msg.inner_text()
        assert not re.search(r"[A-Za-z]{2,}", text), text
        assert kernel(page, "print(len(deal.trick.cards))").strip() == "3"
        page.mouse.move(0, 0)
        root.scroll_into_view_if_needed()
        root.screenshot(path=str(ARTIFACTS / f"table_{lang}_light.png"))
        _dark(page, True)
        root.scroll_into_view_if_needed()
        root.screenshot(path=str(ARTIFACTS / f"table_{lang}_dark.png"))
        _dark(page, False)
    no_console_errors(page)
