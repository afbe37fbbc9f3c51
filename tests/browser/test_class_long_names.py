"""Long names on a phone (issue 29, item 12): learners named with 40 characters and no
space (the longest name the class takes) in the lobby and at the table of a 360 px page.
Before, such names widened the 360 px lobby to 665 px: the page scrolled sideways and its
buttons went off the screen. Now nothing on the page is wider than the screen, and every
name is shown whole (wrapped, not cut).

Three learners join over their own sockets (websockets' client) and sit at table 1; the
phone joins with a long name of its own, looks at the lobby, then sits at table 2. Each
view is screenshot under build/screenshots/ (class_long_names_{lobby,table}_360.png).
"""
from __future__ import annotations

import contextlib
import json

import pytest

from courtlearn.classroom.simulated import ServerProcess
from labserver import ARTIFACTS
from test_classroom import LAN, Phone, lan_browser  # noqa: F401 (the fixture)

pytestmark = pytest.mark.timeout(180)

CODE = "LONG29"
SHOTS = ARTIFACTS.parent / "screenshots"
NAMES = ["Muhammadabdullahrahmansiddiquikhanzada01",          # 40 characters, no space
         "Wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",           # the widest letter
         "Abdurrahmanmuhammadsiddiquikhanzadabahad"]
PHONE = "Zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"

WIDEST_JS = """() => {
  const w = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll('body *')].filter(e => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && (r.right > w + 0.5 || r.left < -0.5);
  }).map(e => `${e.tagName}.${e.className}[${e.dataset.role || ''}] ` +
               `${Math.round(e.getBoundingClientRect().right)}`);
  return [document.scrollingElement.scrollWidth, w, wide.slice(0, 5)];
}"""


# labels that must stay on one line beside a long name ("Connect|ed", "Sou|th:" before)
ONE_LINE_JS = """(sel) => [...document.querySelectorAll(sel)].map(e => {
  const line = parseFloat(getComputedStyle(e).lineHeight) || 1.3 * parseFloat(
      getComputedStyle(e).fontSize);
  return [e.textContent, e.getClientRects().length, e.getBoundingClientRect().height / line];
})"""


def no_overflow(page, labels: str) -> None:
    scroll, width, wide = page.evaluate(WIDEST_JS)
    assert width == 360 and scroll <= 360 and not wide, (scroll, wide)
    shown = page.evaluate(ONE_LINE_JS, labels)
    assert shown and all(rects == 1 and lines < 1.5 for _, rects, lines in shown), shown


def test_forty_character_names_fit_a_360_px_lobby_and_table(lan_browser, tmp_path):
    from websockets.sync.client import connect
    server = ServerProcess(tmp_path / "class.sqlite", CODE, tables=2, grace=60).start()
    sockets, phone = contextlib.ExitStack(), None
    try:
        for seat, name in enumerate(NAMES):
            ws = sockets.enter_context(connect(f"ws://127.0.0.1:{server.port}/ws",
                                               origin=f"http://127.0.0.1:{server.port}",
                                               open_timeout=10))
            ws.send(json.dumps({"type": "hello", "code": CODE, "name": name}))
            ws.send(json.dumps({"type": "take_seat", "table": 0, "seat": seat}))
            while json.loads(ws.recv(timeout=10))["type"] != "seated":
                pass
        phone = Phone(lan_browser, PHONE, width=360, height=740)
        page = phone.page
        page.goto(f"http://{LAN}:{server.port}/?code={CODE}&name={PHONE}")
        page.wait_for_selector('[data-role=take-seat][data-table="1"][data-seat="0"]')
        lobby = page.locator("[data-role=lobby]").inner_text()
        for name in NAMES:                       # every name whole, none cut short
            assert name in lobby.replace("\n", ""), name
        assert page.locator("[data-role=whoami]").text_content() == PHONE
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "class_long_names_lobby_360.png"), full_page=True)
        no_overflow(page, "[data-role=connection], [data-role=taken-seat] > :first-child")

        # at a table (its seat labels and the list of who is here carry the names)
        page.click('[data-role=take-seat][data-table="1"][data-seat="0"]')
        phone.seat = 0
        page.wait_for_selector('.cl-table[data-viewer="0"]:not([data-rev="-1"])')
        page.screenshot(path=str(SHOTS / "class_long_names_table_360.png"), full_page=True)
        no_overflow(page, "[data-role=connection]")
    finally:
        if phone is not None:
            phone.close()
        sockets.close()
        server.stop()
    assert phone is None or not phone.errors, phone.errors.report()
