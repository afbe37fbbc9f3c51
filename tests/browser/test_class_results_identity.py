"""Results identity on the teacher page at 1280 x 800 (issue 32, item 7), in Chromium.

Four notebooks send results (api/join, api/results: what cl.classroom.join's client does)
and two learner pages answer a live quiz. The teacher removes a notebook's learner, who
joins again with the same name: the results grid keeps one row for them, with their old
tries (before: an empty new row, the old answers still counted in "most got wrong"). The
"most got wrong" list and the grid's columns number each item alike; the quiz's column is
named "Quiz 1, question 1" (before: "(fresh question, seed 221179758)"). With Hide names
the grid and the quiz panel give each learner the same number. Stuck means wrong tries at
an exercise: a learner busy at a quiz or a table is not stuck. Screenshots in
build/screenshots/class_results_identity_*.png.
"""
from __future__ import annotations

import json
import pathlib
import re
import urllib.request

import pytest

from test_classroom import lan_address, lan_browser, phones, servers  # noqa: F401 (fixtures)

SHOTS = pathlib.Path(__file__).resolve().parents[2] / "build" / "screenshots"
CODE = "IDNT32"

pytestmark = pytest.mark.timeout(300)


def post(server, path: str, body: dict, token: str | None = None) -> dict:
    head = {"Content-Type": "application/json"}
    if token:
        head["Authorization"] = f"token {token}"
    req = urllib.request.Request(f"http://127.0.0.1:{server.port}/{path}",
                                 data=json.dumps(body).encode(), headers=head, method="POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


class Notebook:
    """A learner's notebook in the class: joins with the code and a name, sends results."""

    def __init__(self, server, name: str):
        self.server, self.name = server, name
        self.sent = 0
        self.join()

    def join(self) -> int:
        got = post(self.server, "api/join", {"code": CODE, "name": self.name})
        self.token, self.learner = got["token"], got["learner"]
        return self.learner

    def send(self, item: str, answer) -> None:
        self.sent += 1
        rid = f"{self.name.lower()}-{self.sent:06d}"
        for _ in range(20):                     # as the client does: again until judged
            got = post(self.server, "api/results", {"results": [
                {"id": rid, "kind": "exercise", "item": item, "answer": answer}]}, self.token)
            if rid in got.get("stored", []):
                return
        raise AssertionError(f"{rid} never stored: {got}")


def teacher_page(phones, server):
    link = next(line for line in server.lines if line.startswith("teacher page: "))
    teacher = phones("teacher", width=1280, height=800)
    teacher.page.goto(f"http://127.0.0.1:{server.port}/teacher#{link.split('#', 1)[1]}")
    teacher.page.wait_for_selector('[data-role=quiz-teacher][data-active="false"]')
    teacher.page.wait_for_selector("[data-role=dashboard]")
    return teacher


def grid(page) -> dict:
    """The results grid as the page shows it: learner id -> (name, stuck, {item: tries})."""
    return {int(r[0]): (r[1], r[2], dict(r[3])) for r in page.eval_on_selector_all(
        "[data-role=results-row]", """rows => rows.map(r => [r.dataset.learner,
          r.querySelector('[data-role=learner-name]').textContent, r.dataset.stuck,
          [...r.querySelectorAll('[data-role=results-cell]')].filter(c => c.dataset.state)
            .map(c => [c.dataset.item, Number(c.dataset.tries)])])""")}


def test_the_teacher_page_keeps_one_row_per_learner_and_numbers_alike(servers, phones):
    server = servers(CODE, tables=1)
    teacher = teacher_page(phones, server)
    page = teacher.page
    learners = [phones(n) for n in ("Asha", "Bilal")]
    for phone in learners:
        phone.page.goto(f"{lan_address(server)}?code={CODE}&name={phone.name}")
        phone.page.wait_for_selector("[data-role=lobby]")
    chen, dana, eve = (Notebook(server, n) for n in ("Chen", "Dana", "Eve"))   # in the lobby
    for answer in ("2♥", "Q♥", "A♣"):
        chen.send("trick_winner/1", answer)               # three wrong: stuck
    dana.send("trick_winner/1", "K♥")
    dana.send("legal_cards/1", "K♠")
    for answer in ("K♠", "2♣", "A♠"):
        eve.send("legal_cards/1", answer)                  # three wrong: stuck
    # the live quiz, answered on the learner pages
    page.select_option("[data-role=quiz-kind]", "trick_winner")
    page.fill("[data-role=quiz-n]", "1")
    page.fill("[data-role=quiz-seed]", "7")
    page.click("[data-role=quiz-start]")
    page.wait_for_selector('[data-role=quiz-teacher][data-active="true"][data-number="1"]')
    for phone in learners:
        phone.page.wait_for_selector('[data-role=quiz][data-index="0"][data-state="open"]')
        phone.page.locator("[data-role=quiz-choice]").first.click()
        phone.page.wait_for_selector('[data-role=quiz][data-state="answered"]')
    page.wait_for_selector('[data-role=quiz-count][data-answered="2"]')
    page.click("[data-role=quiz-reveal]")
    page.wait_for_selector('[data-role=quiz-teacher][data-revealed="true"]')
    page.wait_for_selector('[data-role=results][data-count="10"]')
    # the teacher removes Chen; Chen's notebook joins again with the same name
    old = chen.learner
    row = f'[data-role=lobby-learner][data-learner="{old}"] [data-role=remove]'
    page.click(row)
    page.click(row)                                        # the second click removes
    page.wait_for_selector(f'[data-role=results-row][data-learner="{old}"]', state="detached")
    assert chen.join() == old                              # the same learner again
    chen.send("trick_winner/1", "K♥")                      # their fourth try, right
    page.wait_for_selector('[data-role=results][data-count="11"]')
    page.wait_for_selector(f'[data-role=results-row][data-learner="{old}"]')
    rows = grid(page)
    names = sorted(name for name, _, _ in rows.values())
    assert names == ["Asha", "Bilal", "Chen", "Dana", "Eve"], rows     # one row each
    assert rows[old][2]["exercise:trick_winner/1"] == 4 and rows[old][1] == ""
    stuck = {name: s for name, s, _ in rows.values()}     # wrong tries, not a quiz or a table
    assert stuck == {"Asha": "", "Bilal": "", "Chen": "", "Dana": "", "Eve": "tries"}, stuck
    # "most got wrong" and the columns: the same number for the same item
    columns = dict(page.eval_on_selector_all(
        "[data-role=results-grid] th[data-item]", "els => els.map(e => [e.dataset.item, "
        "[e.textContent, e.title]])"))
    hard = page.eval_on_selector_all("[data-role=hard-item]", "els => els.map(e => "
                                     "[e.dataset.item, e.querySelector('[data-role=hard-number]')"
                                     ".textContent, e.dataset.wrong, e.dataset.tried])")
    assert hard and all(columns[item][0] == number for item, number, *_ in hard), (hard,
                                                                                    columns)
    assert [c[0] for c in columns.values()] == ["1", "2", "3"]
    quiz_column = next(c for key, c in columns.items() if key.startswith("quiz:"))
    assert quiz_column[1] == "Quiz 1, question 1", quiz_column
    assert not any(re.search(r"seed", c[1]) for c in columns.values()), columns
    tw = next(h for h in hard if h[0] == "exercise:trick_winner/1")
    assert tw[2:] == ["1", "2"]                    # Chen's tries counted once, with Dana's
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "class_results_identity_1280.png"), full_page=True)
    # Hide names: the grid and the quiz's panel number each learner alike
    page.click("[data-role=hide-names]")
    page.wait_for_selector('[data-role=hide-names][data-on="true"]')
    page.wait_for_function("() => [...document.querySelectorAll('[data-role=quiz-who] span')]"
                           ".every(s => /Learner/.test(s.textContent))")
    hidden = grid(page)
    asha, bilal = (next(lid for lid, (n, _, _) in rows.items() if n == who)
                   for who in ("Asha", "Bilal"))
    panel = sorted(re.sub(r"^\S+\s+", "", t) for t in page.eval_on_selector_all(
        "[data-role=quiz-who] span", "els => els.map(e => e.textContent)"))
    assert panel == sorted([hidden[asha][0], hidden[bilal][0]]), (panel, hidden)
    assert all(re.fullmatch(r"Learner \d+", n) for n, _, _ in hidden.values())
    assert not page.locator("text=Asha").count() and not page.locator("text=Chen").count()
    page.screenshot(path=str(SHOTS / "class_results_identity_hidden_1280.png"), full_page=True)
