"""The card table outside JupyterLab: in Jupyter Notebook 7 and in marimo
(``mo.ui.anywidget(CardTable(...))``), each opened in Debian's Chromium, with a legal
card and an illegal one clicked. Like every browser test, any console error fails.

Screenshots (build/artifacts/): the table in Notebook 7's light and dark themes, and
in marimo with the system asking for light and for dark (``prefers-color-scheme``); at
400 px wide (build/screenshots/), where every card of the viewer's hand is also found
uncovered and clicked (tests/browser/geometry.py).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from geometry import clickable_hand, covered_glyphs, outside_the_table, record_clicks
from labserver import ARTIFACTS, HERE, ROOT, Lab, free_port, kernel, open_notebook
from page_errors import PageErrors

pytestmark = pytest.mark.browser
SHOTS = ROOT / "build" / "screenshots"


@pytest.fixture(scope="module")
def notebook7(tmp_path_factory):
    server = Lab(tmp_path_factory.mktemp("nb7"), app="notebook").start()
    yield server
    server.stop()


def _message(root):
    return root.locator("[data-role=message]")


def test_table_in_notebook7(notebook7, page):
    name = notebook7.add_notebook(HERE / "prearranged.ipynb", "nb7_table.ipynb")
    open_notebook(page, notebook7, name)
    root = page.locator(".cl-table").first
    expect(root).to_have_attribute("data-phase", "trump")
    page.screenshot(path=str(ARTIFACTS / "nb7_light.png"))

    # a legal click: South calls spades and leads the 2♣
    root.locator("[data-role=call-trump][data-suit=S]").click()
    expect(root).to_have_attribute("data-phase", "play")
    root.locator("[data-role=hand] [data-card='2C']").click()
    expect(root.locator("[data-role=trick] [data-card='2C'][data-seat='0']")).to_be_visible()
    assert kernel(page, "print([(s, c.code) for s, c in deal.trick.cards])").strip() == "[(0, '2C')]"

    # the others from Python, then an illegal click: South must follow diamonds
    kernel(page, "table.play('AC'); table.play('2H'); table.play('2D'); "
                 "table.play('KD'); table.play('3H'); table.play('AD')")
    expect(root).to_have_attribute("data-to-play", "0")
    before = kernel(page, "print(deal.to_dict())")
    root.locator("[data-role=hand] [data-card='AS']").click()
    expect(_message(root)).to_have_attribute("data-kind", "error")
    expect(_message(root)).to_contain_text("diamond")
    assert kernel(page, "print(deal.to_dict())") == before
    expect(root.locator("[data-role=trick] [data-card]")).to_have_count(3)

    # Notebook 7 in its dark theme: the table follows it
    page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', "
                  "{theme: 'JupyterLab Dark'})")
    page.wait_for_function("() => document.body.dataset.jpThemeLight === 'false'")
    expect(_message(root)).to_be_visible()
    page.mouse.move(0, 0)
    page.wait_for_timeout(300)           # the theme's own transition
    bg = root.evaluate("el => getComputedStyle(el).backgroundColor")
    assert _dark(bg), bg
    page.screenshot(path=str(ARTIFACTS / "nb7_dark.png"))

    # the same table on a phone's width, dark and light: every card of South's hand found
    # uncovered inside the window and clicked (the click noted, not played), every face-up
    # card's rank and suit readable, nothing outside the table
    page.set_viewport_size({"width": 400, "height": 800})
    page.wait_for_timeout(300)
    for theme in ("JupyterLab Dark", "JupyterLab Light"):
        if theme == "JupyterLab Light":
            page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', "
                          "{theme: 'JupyterLab Light'})")
            page.wait_for_function("() => document.body.dataset.jpThemeLight === 'true'")
            page.wait_for_timeout(300)
        _narrow_checks(page, root, f"Notebook 7 at 400px, {theme}")
        page.mouse.move(0, 0)
        root.evaluate("el => el.scrollIntoView({block: 'start'})")
        page.screenshot(path=str(SHOTS / f"nb7_400_{'dark' if 'Dark' in theme else 'light'}.png"))


def _narrow_checks(page, root, where):
    problems = outside_the_table(root) + covered_glyphs(root)
    assert not problems, f"{where}: {problems}"
    record_clicks(root, block=True)
    n = root.locator("[data-role=hand] [data-card][data-seat='0']").count()
    assert len(clickable_hand(page, root, 0)) == n >= 11, where
    record_clicks(root, block=False)


def _dark(css_colour: str) -> bool:
    """Whether an ``rgb(...)`` / ``rgba(...)`` colour is dark (luma below one half)."""
    r, g, b = (float(x) for x in re.findall(r"[\d.]+", css_colour)[:3])
    return 0.299 * r + 0.587 * g + 0.114 * b < 128


# --------------------------------------------------------------------------- marimo
@pytest.fixture(scope="module")
def marimo_app(tmp_path_factory):
    port = free_port()
    log = open(tmp_path_factory.mktemp("marimo") / "marimo.log", "w")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               MARIMO_SKIP_UPDATE_CHECK="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "marimo", "-q", "run", str(HERE / "marimo_table.py"), "--headless",
         "--host", "127.0.0.1", "--port", str(port), "--no-token"],
        env=env, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        if proc.poll() is not None:
            log.close()
            pytest.fail(f"marimo exited: {Path(log.name).read_text()}")
        try:
            with urllib.request.urlopen(f"{base}/health", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail("marimo did not come up in 90 s")
        time.sleep(0.3)
    yield base
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_table_in_marimo(marimo_app, browser, scheme):
    ctx = browser.new_context(viewport={"width": 1100, "height": 900}, color_scheme=scheme)
    errors = PageErrors().watch(ctx)
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(marimo_app)
        root = page.locator(".cl-table").first          # (locators reach into shadow roots)
        expect(root).to_have_attribute("data-phase", "play")
        expect(root).to_have_attribute("data-to-play", "0")
        expect(root.locator("[data-role=trick] [data-card]")).to_have_count(3)
        bg = root.evaluate("el => getComputedStyle(el).backgroundColor")
        assert _dark(bg) == (scheme == "dark"), bg

        # an illegal click: the engine's refusal, and nothing moves
        root.locator("[data-role=hand] [data-card='AS']").click()
        expect(_message(root)).to_have_attribute("data-kind", "error")
        expect(_message(root)).to_contain_text("diamond")
        expect(root.locator("[data-role=trick] [data-card]")).to_have_count(3)
        expect(root.locator("[data-role=hand] [data-card='AS']")).to_be_visible()
        root.screenshot(path=str(ARTIFACTS / f"marimo_{scheme}_refused.png"))

        # a legal click: the 8♦ completes the trick, which West's A♦ wins
        root.locator("[data-role=hand] [data-card='8D']").click()
        expect(root.locator("[data-role=last-trick] [data-card='8D']")).to_be_visible()
        expect(root.locator("[data-role=hand] [data-card='8D']")).to_have_count(0)
        expect(root.locator("[data-role=pile][data-team='1']")).to_have_attribute("data-count", "2")
        page.mouse.move(0, 0)
        root.screenshot(path=str(ARTIFACTS / f"marimo_{scheme}.png"))

        # on a phone's width: every card of South's hand reachable, every face up card readable
        page.set_viewport_size({"width": 400, "height": 800})
        page.wait_for_timeout(300)
        _narrow_checks(page, root, f"marimo at 400px, {scheme}")
        page.mouse.move(0, 0)
        root.evaluate("el => el.scrollIntoView({block: 'start'})")
        page.screenshot(path=str(SHOTS / f"marimo_400_{scheme}.png"))
    finally:
        ctx.close()
    assert not errors, errors.report()
