"""Behind https, in Chromium (issue 29): the learner's and the teacher's pages of
`courtlearn class serve --proxy 127.0.0.1 --origin https://class.test:P` behind Debian's
nginx with a self-signed certificate, as the README sets it up (tests/https_proxy.py).

The learner's page (a phone, 360 px) opens https://class.test:P/?code=...&name=..., joins,
takes a seat and plays a card when its turn comes (the bots play the other seats); the
teacher's page opens https://class.test:P/teacher#TOKEN and gets its state: the dashboard
shows the learner at her seat. Both pages are https, both sockets wss through nginx, and
neither context shows a console error. Chromium maps class.test to 127.0.0.1 and accepts
the test's certificate (ignore_https_errors: the certificate is made by the test, no
authority signed it).
"""
from __future__ import annotations

import sqlite3
import time

import pytest

from https_proxy import NAME, https_class, needs_nginx
from labserver import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS
from page_errors import PageErrors
from test_classroom import REPLY_JS, TURN_JS

pytestmark = [pytest.mark.timeout(240), needs_nginx]

CODE = "HTTPS3"
SHOTS = ARTIFACTS.parent / "screenshots"


@pytest.fixture(scope="module")
def https_browser(browser):
    """A Chromium that resolves class.test to 127.0.0.1."""
    b = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"])
    yield b
    b.close()


class Tab:
    """A browser context of its own (its console watched) and its page, with the address
    of every WebSocket the page opened."""

    def __init__(self, browser, width, height):
        self.ctx = browser.new_context(viewport={"width": width, "height": height},
                                       ignore_https_errors=True, reduced_motion="reduce")
        self.errors = PageErrors().watch(self.ctx)
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(30_000)
        self.sockets: list[str] = []
        self.page.on("websocket", lambda ws: self.sockets.append(ws.url))


def test_the_learner_and_teacher_pages_work_over_https_and_wss(https_browser, tmp_path):
    with https_class(tmp_path, code=CODE) as c:
        teacher = Tab(https_browser, 1200, 900)
        phone = Tab(https_browser, 360, 740)
        try:
            # the teacher's page: its state over wss (the dashboard with both tables)
            t = teacher.page
            t.goto(f"{c.base}teacher#{c.teacher_token}")
            t.wait_for_selector('[data-role=dashboard] [data-role=dash-table][data-table="1"]')
            assert t.locator("[data-role=class-code]").text_content() == CODE
            assert t.locator("[data-role=connection]").get_attribute("data-connected") == "true"
            # the address it tells learners is the https one, not the class's 127.0.0.1
            assert t.locator(".cl-dash-addresses").text_content().strip() == c.base

            # the learner's page: joins from the link, sits at South of table 1, plays
            p = phone.page
            p.goto(f"{c.base}?code={CODE}&name=Asha")
            button = '[data-role=take-seat][data-table="0"][data-seat="0"]'
            p.wait_for_selector(button)
            assert p.locator("[data-role=connection]").get_attribute("data-connected") == "true"
            p.click(button)
            p.wait_for_selector('.cl-table[data-viewer="0"]:not([data-rev="-1"])')
            deadline = time.monotonic() + 60
            while (what := p.evaluate(TURN_JS, 0)) is None:
                assert time.monotonic() < deadline, "South's turn did not come in 60 s"
                time.sleep(0.05)
            if what == "trump":
                button = p.locator("[data-role=call-trump]").first
                token = "call:" + button.get_attribute("data-suit")
            else:
                button = p.locator('[data-role=hand] [data-card][data-seat="0"]'
                                   '[data-legal="true"]').first
                token = button.get_attribute("data-card")
            button.click()
            p.wait_for_function(REPLY_JS)
            assert p.locator(".cl-table").get_attribute("data-reply") == "accepted"
            SHOTS.mkdir(parents=True, exist_ok=True)
            p.screenshot(path=str(SHOTS / "class_https_learner_360.png"))

            # the teacher's page follows: Asha at South of table 1, here
            seat = ('[data-role=dash-table][data-table="0"] '
                    '[data-role=dash-seat][data-seat="0"][data-status=here]')
            t.wait_for_selector(seat)
            assert t.locator(f"{seat} [data-role=learner-name]").text_content() == "Asha"
            t.screenshot(path=str(SHOTS / "class_https_teacher.png"))

            # both pages https, both sockets wss through nginx
            for tab, path in ((teacher, "teacher/ws"), (phone, "ws")):
                assert tab.page.evaluate("() => location.protocol") == "https:"
                assert tab.sockets and set(tab.sockets) == {f"wss://{NAME}:{c.port}/{path}"}
            # the card was the learner's own, saved by the class
            con = sqlite3.connect(f"file:{tmp_path / 'class.sqlite'}?mode=ro", uri=True,
                                  timeout=5)
            try:
                rows = con.execute("SELECT a.token, a.seat, a.by FROM actions a JOIN deals d "
                                   "ON a.deal = d.id JOIN tables tb ON d.table_id = tb.id "
                                   "WHERE tb.class = ? AND tb.number = 0", (CODE,)).fetchall()
            finally:
                con.close()
            assert (token, 0, "learner") in rows, (token, rows)
        finally:
            teacher.ctx.close()          # before the server stops: no failed reconnection
            phone.ctx.close()
        errors = [f"teacher: {e}" for e in teacher.errors] + [f"learner: {e}" for e in
                                                              phone.errors]
        assert not errors, "\n".join(errors)
