"""A class in Chromium (issue 25): learners' pages at one table, the teacher's dashboard in
JupyterLab, a learner page in Urdu.

The class server runs as `courtlearn class serve` (ServerProcess) on 127.0.0.1 and a free
port, or in a notebook's kernel (`cl.classroom.open` in JupyterLab). Learners open it by a
"LAN address": the host name class.lan, which a Chromium of this module's own maps to
127.0.0.1 (`--host-resolver-rules`), so each page is a plain-http, non-localhost origin
(no secure context) whose socket the server's Origin check must accept as the page's own.

What is checked, on every learner page: it joins with /?code=CODE&name=NAME, takes its
seat by its [data-role=take-seat] button, and plays its own lawful cards
([data-role=hand] [data-card][data-seat][data-legal=true]) when its turn comes; it sees
every card the others play (in [data-role=trick] or [data-role=last-trick]: a
MutationObserver records them); no card of another seat's hand ever reaches it before it
is played, neither in the DOM (every [data-card] it ever drew) nor in what its socket
received (every WebSocket frame, each state checked against the deal's actions up to
the count it carries); a reload mid-deal brings back the same seat and hand with no
click; [data-role=connection] says it is connected. Every browser context is watched
for console errors (tests/page_errors.py): none is expected, none is ignored. Every
context is closed before its server stops (a page whose server went away would log
failed reconnections). Waits are bounded and every process is torn down.
"""
from __future__ import annotations

import json
import re
import sqlite3
import time

import nbformat
import pytest

import courtlearn as cl
from courtlearn.cards import Card
from courtlearn.classroom.simulated import ServerProcess, free_port
from labserver import CHROMIUM, CHROMIUM_ARGS, kernel
from page_errors import PageErrors

pytestmark = pytest.mark.timeout(300)

LAN = "class.lan"                    # the learners' "LAN address", mapped to 127.0.0.1
SUITS = "SHDC"
CODES = [r + s for s in SUITS for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10",
                                         "J", "Q", "K", "A")]
SHOWN = {code: str(Card.parse(code)) for code in CODES}      # "QS" -> "Q♠"

# what a page has drawn, across its whole life: every [data-card] anywhere, and the cards
# in the open trick or the last trick (as "seat:card")
SEEN_JS = """
(() => {
  const seen = window.__clSeen = { all: new Set(), trick: new Set() };
  const look = () => {
    for (const e of document.querySelectorAll("[data-card]")) seen.all.add(e.dataset.card);
    for (const e of document.querySelectorAll(
        "[data-role=trick] [data-card], [data-role=last-trick] [data-card]")) {
      seen.trick.add(`${e.dataset.seat}:${e.dataset.card}`);
    }
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true,
    attributes: true, attributeFilter: ["data-card", "data-seat"] });
})();
"""

# the move this page may make now: "trump" (the call's buttons), "card", or null
TURN_JS = """(seat) => {
  const t = document.querySelector('.cl-table');
  if (!t || t.dataset.busy === 'true' || t.dataset.pending === 'true') return null;
  if (t.dataset.phase === 'over' || t.dataset.toPlay !== String(seat)) return null;
  if (document.querySelector('[data-role=paused]:not([hidden])')) return null;
  if (document.querySelector('[data-role=call-trump]')) return 'trump';
  if (document.querySelector(
      `[data-role=hand] [data-card][data-seat="${seat}"][data-legal="true"]`)) return 'card';
  return null;
}"""

REPLY_JS = """() => ['accepted', 'refused'].includes(
    document.querySelector('.cl-table')?.dataset.reply)"""


# ----------------------------------------------------------------------------- browsers
@pytest.fixture(scope="module")
def lan_browser(browser):
    """A Chromium that resolves class.lan to 127.0.0.1 (the same Playwright as the
    session's browser; nothing else changes)."""
    b = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN} 127.0.0.1"])
    yield b
    b.close()


class Phone:
    """One learner's browser (a context of its own: its storage, its console), with every
    frame its sockets received and every card its page drew."""

    def __init__(self, browser, name: str, width: int = 1000, height: int = 900,
                 motion: str = "reduce"):
        self.name = name
        self.ctx = browser.new_context(viewport={"width": width, "height": height},
                                       reduced_motion=motion)
        self.errors = PageErrors().watch(self.ctx)
        self.ctx.add_init_script(SEEN_JS)
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(20_000)
        self.frames: list = []
        self.page.on("websocket", lambda ws: ws.on("framereceived",
                                                   lambda payload: self.frames.append(payload)))
        self.seat = None
        self.seen_all: set = set()
        self.seen_trick: set = set()

    def join(self, base: str, code: str, table: int, seat: int) -> None:
        self.page.goto(f"{base}?code={code}&name={self.name}")
        button = f'[data-role=take-seat][data-table="{table}"][data-seat="{seat}"]'
        self.page.wait_for_selector(button)
        assert self.connection() == ("true", "Connected")
        self.page.click(button)
        self.page.wait_for_selector(f'.cl-table[data-viewer="{seat}"]:not([data-rev="-1"])')
        self.seat = seat

    def connection(self) -> tuple[str, str]:
        marker = self.page.locator("[data-role=connection]")
        return marker.get_attribute("data-connected"), marker.text_content()

    def hand(self) -> list[str]:
        return self.page.eval_on_selector_all(
            f'[data-role=hand] [data-card][data-seat="{self.seat}"]',
            "els => els.map(e => e.dataset.card)")

    def phase(self) -> str | None:
        return self.page.evaluate("() => document.querySelector('.cl-table')?.dataset.phase")

    def act(self) -> tuple[str, str] | None:
        """If it is this seat's turn: call trumps (the first suit offered) or play the first
        lawful card, and wait for the server's answer; returns (kind, what)."""
        what = self.page.evaluate(TURN_JS, self.seat)
        if what is None:
            return None
        if what == "trump":
            button = self.page.locator("[data-role=call-trump]").first
            token = "call:" + button.get_attribute("data-suit")
        else:
            button = self.page.locator(f'[data-role=hand] [data-card][data-seat="{self.seat}"]'
                                       f'[data-legal="true"]').first
            token = button.get_attribute("data-card")
        button.click()
        self.page.wait_for_function(REPLY_JS)
        reply = self.page.locator(".cl-table").get_attribute("data-reply")
        self.page.evaluate("() => { delete document.querySelector('.cl-table').dataset.reply; }")
        assert reply == "accepted", (self.name, token, reply)
        return what, token

    def collect(self) -> None:
        """What the page drew so far (kept across reloads)."""
        got = self.page.evaluate("() => window.__clSeen ? [[...window.__clSeen.all], "
                                 "[...window.__clSeen.trick]] : [[], []]")
        self.seen_all.update(got[0])
        self.seen_trick.update(got[1])

    def close(self) -> None:
        self.ctx.close()


@pytest.fixture
def servers(tmp_path):
    """`courtlearn class serve` processes on 127.0.0.1 (free ports), stopped at the end."""
    started = []

    def start(code: str, language: str = "en", tables: int = 2) -> ServerProcess:
        server = ServerProcess(tmp_path / f"{code}.sqlite", code, tables=tables, grace=60,
                               extra=["--language", language, "--show-teacher-link"])
        started.append(server.start())
        return server
    yield start
    for server in started:
        server.stop()
        assert server.proc.returncode == 0, server.lines


@pytest.fixture
def phones(lan_browser, servers):
    """Learners' browsers; every one is closed (before any server stops) and checked for
    console errors."""
    made = []

    def make(name, **kw) -> Phone:
        made.append(Phone(lan_browser, name, **kw))
        return made[-1]
    yield make
    for phone in made:
        phone.close()
    errors = [f"{p.name}: {e}" for p in made for e in p.errors]
    assert not errors, "the learners' browsers showed errors:\n  " + "\n  ".join(errors[:10])


def lan_address(server) -> str:
    return f"http://{LAN}:{server.port}/"


# ----------------------------------------------------------------------------- the teacher
def teacher_says(server: ServerProcess, *requests: dict) -> None:
    """The teacher page's socket (its protocol, from Python, with the teacher's token the
    console printed): each request carried out, or the test fails with the refusal."""
    from websockets.sync.client import connect
    link = next(line for line in server.lines if line.startswith("teacher page: "))
    token = link.split("#", 1)[1]
    with connect(f"ws://127.0.0.1:{server.port}/teacher/ws",
                 origin=f"http://127.0.0.1:{server.port}", open_timeout=10,
                 close_timeout=5) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while json.loads(ws.recv(timeout=10)).get("type") != "welcome":
            pass
        for rid, content in enumerate(requests, 1):
            ws.send(json.dumps({"type": "msg", "content": {**content, "id": rid}}))
            while True:
                msg = json.loads(ws.recv(timeout=10))
                if msg.get("type") == "custom" and msg["content"].get("reply_to") == rid:
                    assert msg["content"]["ok"], (content, msg)
                    break


# ----------------------------------------------------------------------------- the truth
class Dealt:
    """One deal of a table as the server saved it: who holds which cards, every action."""

    def __init__(self, spec: dict, actions: list[tuple]):
        self.actions = actions                      # (token, seat, by), in order
        probe = cl.Deal(cl.Rules.court_piece(), dealer=spec["dealer"], seed=spec["seed"])
        probe.call_trump("S")          # every card dealt (the suit called changes no hand)
        self.hands = {s: {c.code for c in probe.hand(s)} for s in range(4)}

    def played(self, n: int | None = None) -> set[str]:
        """The cards played among the first ``n`` actions (all of them: None)."""
        return {tok for tok, _, _ in self.actions[:n] if tok in SHOWN}

    def played_by(self, seat: int) -> list[str]:
        return [tok for tok, s, _ in self.actions if s == seat and tok in SHOWN]


def saved_deals(db, code: str, table: int = 0) -> dict[int, Dealt]:
    """Every deal of ``table`` in the server's file (read-only, beside the running server)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        rows = con.execute("SELECT d.id, d.number, d.spec FROM deals d JOIN tables t "
                           "ON d.table_id = t.id WHERE t.class = ? AND t.number = ? "
                           "ORDER BY d.number", (code, table)).fetchall()
        out = {}
        for deal_id, number, spec in rows:
            acts = con.execute("SELECT token, seat, by FROM actions WHERE deal = ? "
                               "ORDER BY idx", (deal_id,)).fetchall()
            out[number] = Dealt(json.loads(spec), acts)
        return out
    finally:
        con.close()


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def leaks(phone: Phone, deals: dict[int, Dealt]) -> list[str]:
    """Cards of another seat's hand in what the phone's sockets received, before they were
    played: a state is judged by the actions it says the deal had when it was sent; any
    other message may carry no card of another seat that was never played at all."""
    found = []
    latest = deals[max(deals)]
    for text in phone.frames:
        if not isinstance(text, str):
            found.append("a binary frame")
            continue
        msg = json.loads(text)
        if msg.get("type") == "state":
            deal = deals[msg["deal"]]
            public = deal.played(msg["actions"])
        else:
            deal, public = latest, latest.played()
        secret = set(CODES) - deal.hands[phone.seat] - public
        strings = list(_strings(msg))
        exact = set(strings)
        for code in secret:
            if code in exact or any(SHOWN[code] in s for s in strings):
                found.append(f"{code} in a {msg.get('type')} message: {text[:200]}")
    return found


def test_the_leak_check_finds_a_planted_card():
    """leaks() can fail: another seat's card in a state before its play, or named in a
    sentence, is found; the same card once played, or the viewer's own, is not."""
    deal = Dealt({"seed": 25, "dealer": 3}, [("call:S", 0, "learner")])
    mine, theirs = sorted(deal.hands[0])[0], sorted(deal.hands[1])[0]
    deal.actions.append((theirs, 1, "learner"))

    class Viewer:
        seat = 0
        frames = []

    def state(actions, **snapshot):
        return json.dumps({"type": "state", "table": 0, "deal": 0, "actions": actions,
                           "state": {"frames": [snapshot]}}, ensure_ascii=False)
    Viewer.frames = [state(1, hand=[mine]), state(2, trick=[{"seat": 1, "card": theirs}]),
                     state(2, message=f"East plays {SHOWN[theirs]}.")]
    assert leaks(Viewer, {0: deal}) == []
    Viewer.frames = [state(1, trick=[{"seat": 1, "card": theirs}])]
    assert len(leaks(Viewer, {0: deal})) == 1
    Viewer.frames = [state(1, message=f"East holds {SHOWN[theirs]}.")]
    assert len(leaks(Viewer, {0: deal})) == 1
    Viewer.frames = [json.dumps({"type": "lobby", "tables": [sorted(deal.hands[2])[0]]})]
    assert len(leaks(Viewer, {0: deal})) == 1


# ----------------------------------------------------------------------------- the tests
def test_four_phones_play_a_deal_at_one_table_each_seeing_only_their_own_hand(servers, phones):
    server = servers("TABLE4")
    base = lan_address(server)
    teacher_says(server, {"type": "pause"})           # nobody plays until all four sit
    names = ["Asha", "Bilal", "Chandni", "Danish"]
    people = [phones(name, **({"width": 360, "height": 740, "motion": "no-preference"}
                              if seat == 1 else {}))
              for seat, name in enumerate(names)]
    for seat, phone in enumerate(people):
        phone.join(base, "TABLE4", table=0, seat=seat)
        phone.page.wait_for_selector("[data-role=paused]", state="visible")
        assert phone.page.locator("[data-role=whoami]").text_content() == phone.name
        assert phone.page.evaluate("() => window.isSecureContext") is False   # a LAN page
    for phone in people:                   # each page lists all four, connected
        phone.page.wait_for_function(
            "() => document.querySelectorAll('[data-role=roster-seat][data-status=here]')"
            ".length === 4")
    teacher_says(server, {"type": "same_deal", "seed": 25}, {"type": "resume"})
    for phone in people:
        phone.page.wait_for_selector("[data-role=paused]", state="hidden")

    # each plays their own seat when its turn comes, to the end of the deal; one page is
    # reloaded mid-deal, at its own turn (the table waits for it, so it misses nothing)
    clicked: list[tuple[int, str]] = []
    reloaded = None
    deadline = time.monotonic() + 150
    while not all(p.phase() == "over" for p in people):
        assert time.monotonic() < deadline, f"the deal did not end in 150 s: {clicked}"
        moved = False
        for phone in people:
            if reloaded is None and len(clicked) >= 10 and phone.seat == 2 and \
                    phone.page.evaluate(TURN_JS, 2):
                hand = phone.hand()
                phone.collect()
                phone.page.reload()
                phone.page.wait_for_selector('.cl-table[data-viewer="2"]:not([data-rev="-1"])')
                assert phone.hand() == hand             # the same seat and hand, no click
                assert phone.page.locator("[data-role=take-seat], [data-role=join-form]") \
                    .count() == 0
                assert phone.connection() == ("true", "Connected")
                reloaded = len(clicked)
            done = phone.act()
            if done:
                clicked.append((phone.seat, done[1]))
                moved = True
        if not moved:
            time.sleep(0.05)
    assert reloaded is not None, "seat 2's turn never came after ten moves"

    deals = saved_deals(server.args[server.args.index("--db") + 1], "TABLE4")
    deal = deals[1]                                    # the teacher's same deal
    # every action of the deal was a learner's, by the seat whose page clicked it
    assert [(seat, tok) for tok, seat, _ in deal.actions] == clicked
    assert {by for _, _, by in deal.actions} == {"learner"}
    assert deal.actions[0][0].startswith("call:") and len(clicked) >= 29
    for phone in people:
        phone.collect()
        # it saw every card the other three played ...
        others = {f"{s}:{c}" for s in range(4) if s != phone.seat for c in deal.played_by(s)}
        assert others <= phone.seen_trick, (phone.name, sorted(others - phone.seen_trick))
        # ... and drew no card of theirs that was never played, nor received one early
        allowed = set().union(*(d.hands[phone.seat] | d.played() for d in deals.values()))
        assert phone.seen_all <= allowed, (phone.name, sorted(phone.seen_all - allowed))
        assert leaks(phone, deals) == [], phone.name
        assert phone.connection() == ("true", "Connected")
        assert phone.page.locator("[data-role=result]").is_visible()
    # the phone at 360 px: the page is never wider than the screen
    phone = people[1]
    assert phone.page.evaluate("() => document.scrollingElement.scrollWidth") <= 360
    # the others saw the reloaded learner back: connected at their seat
    people[0].page.wait_for_selector('[data-role=roster-seat][data-seat="2"][data-status=here]')


def test_a_learner_page_in_urdu(servers, phones):
    server = servers("URDU25", language="ur", tables=1)
    phone = phones("زارا", width=360, height=740)
    page = phone.page
    page.goto(lan_address(server))                     # no code in the address: the form
    assert page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]") \
        == ["ur", "rtl"]
    page.wait_for_selector("[data-role=join-form]")
    form = page.locator("[data-role=join-form]").text_content()
    assert "جماعت کا کوڈ" in form and "آپ کا نام" in form
    assert page.locator("[data-role=join]").text_content() == "شامل ہوئیے"
    page.fill("[data-role=code]", "urdu25")            # any case
    page.fill("[data-role=name]", phone.name)
    page.click("[data-role=join]")
    page.wait_for_selector('[data-role=take-seat][data-table="0"][data-seat="0"]')
    assert "کوئی خالی نشست چنیے" in page.locator("[data-role=lobby]").text_content()
    assert page.locator('[data-role=take-seat][data-seat="0"]').text_content() == \
        "جنوب کی نشست پر بیٹھیے"
    assert phone.connection() == ("true", "رابطہ قائم ہے")
    page.click('[data-role=take-seat][data-table="0"][data-seat="0"]')
    phone.seat = 0
    page.wait_for_selector('.cl-table[data-viewer="0"]:not([data-rev="-1"])')
    assert "میز 1" in page.locator("[data-role=where]").text_content()
    assert page.locator('[data-role=seat][data-seat="0"] [data-role=seat-name]').text_content() \
        == "جنوب"
    assert "موجود" in page.locator('[data-role=roster-seat][data-seat="0"]').text_content()
    # the bots play the other seats; this learner's turn comes and their move is taken
    deadline = time.monotonic() + 30
    while (done := phone.act()) is None:
        assert time.monotonic() < deadline, "the learner's turn did not come in 30 s"
        time.sleep(0.05)
    message = page.locator("[data-role=message]").text_content()
    assert re.search("[\u0600-\u06ff]", message), message          # said in Urdu
    page.wait_for_function("() => document.fonts.check('16px \"Noto Nastaliq Urdu\"')")
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 360
    deals = saved_deals(server.args[server.args.index("--db") + 1], "URDU25")
    assert (done[1], 0, "learner") in deals[0].actions
    assert leaks(phone, deals) == []


# ----------------------------------------------------------------------------- JupyterLab
DASH = '[data-role=dash-table][data-table="0"]'
DASH_AGREES_JS = """([sel, n, cards]) => {
  const t = document.querySelector(sel);
  return !!t && t.dataset.actions === n && [...t.querySelectorAll(
      '[data-role=table-trick] [data-card]')].map(e => e.dataset.card).join(' ') === cards;
}"""


def dashboard_follows(page) -> tuple[int, list[str]]:
    """The dashboard shows table 1 as the kernel's room has it: the number of actions and
    the cards of the open trick. Returns them."""
    said = kernel(page, "_t = room.tables[0].deal\n"
                        "print(len(_t.actions), *[c.code for _, c in _t.trick.cards])").split()
    page.wait_for_function(DASH_AGREES_JS, arg=[DASH, said[0], " ".join(said[1:])])
    return int(said[0]), said[1:]


def test_the_teachers_dashboard_in_jupyterlab_follows_the_table_and_pauses_it(
        lab, page, lan_browser, tmp_path):
    port = free_port()
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.cells = [
        nbformat.v4.new_code_cell(
            "import courtlearn as cl\n"
            f"room = cl.classroom.open(port={port}, host='127.0.0.1', "
            f"db={str(tmp_path / 'class.sqlite')!r}, code='LABDSH', tables=2, paused=True, "
            "show=False)"),
        nbformat.v4.new_code_cell("room.dashboard()"),
    ]
    nbformat.write(nb, lab.root / "class_dashboard.ipynb")
    page.goto(f"{lab.base}/lab/tree/class_dashboard.ipynb?token={lab.token}&reset")
    page.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext",
                           timeout=60_000)
    page.evaluate("""async () => {
        const nb = window.jupyterapp.shell.currentWidget;
        await nb.context.ready; await nb.sessionContext.ready;
        const k = nb.sessionContext.session.kernel;
        while (k.status !== 'idle') await new Promise(r => setTimeout(r, 50));
    }""")
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_selector('[data-role=dashboard][data-paused="true"] ' + DASH, timeout=60_000)
    assert page.locator("[data-role=class-code]").text_content() == "LABDSH"

    learner = Phone(lan_browser, "Zara", width=360, height=740)
    try:
        # Zara joins from her phone at East of table 1; the dashboard shows her there
        learner.join(f"http://{LAN}:{port}/", "LABDSH", table=0, seat=1)
        page.wait_for_selector(f'{DASH} [data-role=dash-seat][data-seat="1"][data-status=here]')
        assert page.locator(f'{DASH} [data-role=dash-seat][data-seat="1"] '
                            f'[data-role=learner-name]').text_content() == "Zara"
        learner.page.wait_for_selector("[data-role=paused]", state="visible")

        # the teacher deals the same cards everywhere (West deals: South, a bot, calls and
        # leads) and lets the tables run: the dashboard shows South's card on the table
        page.fill("[data-role=seed]", "7")
        page.click("[data-role=same-deal]")
        page.wait_for_selector(f'{DASH}[data-batch="1"][data-deal="2"]')
        page.click("[data-role=resume-all]")
        page.wait_for_selector('[data-role=dashboard][data-paused="false"]')
        learner.page.wait_for_selector("[data-role=paused]", state="hidden")
        n, trick = dashboard_follows(page)
        assert n == 2 and len(trick) == 1                # the call, South's lead

        # Zara plays; the dashboard follows the table to her next turn
        deadline = time.monotonic() + 30
        while (done := learner.act()) is None:
            assert time.monotonic() < deadline, "Zara's turn did not come"
            time.sleep(0.05)
        learner.page.wait_for_function(TURN_JS, arg=1)    # the bots played on to her turn
        moved, _ = dashboard_follows(page)
        assert moved > n

        # the dashboard's Pause: the learner's page says so and her card is refused
        page.click("[data-role=pause-all]")
        page.wait_for_selector('[data-role=dashboard][data-paused="true"]')
        learner.page.wait_for_selector("[data-role=paused]", state="visible")
        card = learner.page.locator('[data-role=hand] [data-card][data-seat="1"]'
                                    '[data-legal="true"]').first
        card.click()
        learner.page.wait_for_function(REPLY_JS)
        assert learner.page.locator(".cl-table").get_attribute("data-reply") == "refused"
        assert learner.page.locator("[data-role=message]").text_content() == \
            "The teacher has paused the tables."
        assert dashboard_follows(page)[0] == moved       # nothing moved

        # resumed from the dashboard, her next card is taken
        learner.page.evaluate("() => { delete document.querySelector('.cl-table').dataset.reply; }")
        page.click("[data-role=resume-all]")
        learner.page.wait_for_selector("[data-role=paused]", state="hidden")
        deadline = time.monotonic() + 30
        while learner.act() is None:
            assert time.monotonic() < deadline, "Zara's turn did not come after the resume"
            time.sleep(0.05)
        assert dashboard_follows(page)[0] > moved
        learner.collect()
        assert leaks(learner, saved_deals(tmp_path / "class.sqlite", "LABDSH")) == []
    finally:
        learner.close()                  # before the server stops: no failed reconnection
        kernel(page, "room.close()")
    assert not learner.errors, learner.errors.report()
