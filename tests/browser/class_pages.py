"""What the class pages' browser tests share (issue 32): browser contexts of any kind (a
360 x 740 touch phone, a laptop, the teacher's 1280 x 800 screen) whose console is watched,
the teacher page opened with the console's link, boxes and colours measured in the page,
and axe-core (npm, pinned in the Makefile: build/axe) run on a page or a part of it.

Import the fixtures into a test module as test_quiz_pages.py does with test_classroom's:
``from class_pages import people, ...`` (pytest finds a fixture by its name there).
"""
from __future__ import annotations

import pathlib
import time

import pytest

from page_errors import PageErrors
from test_classroom import LAN, lan_address, lan_browser, servers  # noqa: F401 (fixtures)

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHOTS = ROOT / "build" / "screenshots"
AXE = ROOT / "build" / "axe" / "node_modules" / "axe-core" / "axe.min.js"

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}


class Person:
    """One browser context (its own storage and console) with one page."""

    def __init__(self, browser, name: str, **options):
        self.name = name
        options.setdefault("reduced_motion", "reduce")
        self.ctx = browser.new_context(**options)
        self.errors = PageErrors().watch(self.ctx)
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(20_000)
        self.touch = bool(options.get("has_touch"))

    def press(self, selector: str) -> None:
        """A tap on a touch screen, a click elsewhere."""
        if self.touch:
            self.page.locator(selector).first.tap()
        else:
            self.page.locator(selector).first.click()

    def shot(self, name: str, full: bool = False) -> pathlib.Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=full)
        return path

    def close(self) -> None:
        self.ctx.close()


@pytest.fixture
def people(lan_browser, servers):
    """``people(name, **context options)`` -> a Person; every context is closed before the
    servers stop (no failed reconnection) and checked for console errors."""
    made: list[Person] = []

    def make(name: str, **options) -> Person:
        made.append(Person(lan_browser, name, **options))
        return made[-1]
    yield make
    for person in made:
        person.close()
    errors = [f"{p.name}: {e}" for p in made for e in p.errors]
    assert not errors, "the browsers showed errors:\n  " + "\n  ".join(errors[:10])


def teacher_link(server) -> str:
    line = next(line for line in server.lines if line.startswith("teacher page: "))
    return f"http://127.0.0.1:{server.port}/teacher#{line.split('#', 1)[1]}"


def open_teacher(people, server, name: str = "teacher", **options):
    """The teacher page at 1280 x 800 (or ``options``), its dashboard drawn."""
    teacher = people(name, **(options or LAPTOP))
    teacher.page.goto(teacher_link(server))
    teacher.page.wait_for_selector("[data-role=dashboard] [data-role=dash-table]")
    return teacher


def join(person, server, code: str, table: int | None = None, seat: int | None = None) -> None:
    """The learner joins from the address with code and name, and takes a seat."""
    person.page.goto(f"{lan_address(server)}?code={code}&name={person.name}")
    person.page.wait_for_selector("[data-role=lobby] [data-role=take-seat]")
    if table is not None:
        person.press(f'[data-role=take-seat][data-table="{table}"][data-seat="{seat}"]')
        person.page.wait_for_selector(f'.cl-class-table .cl-table[data-viewer="{seat}"]:not([data-rev="-1"])')


def box(page, selector: str) -> dict | None:
    """The element's box in the window (CSS px), or None."""
    return page.evaluate("""(sel) => { const e = document.querySelector(sel); if (!e) return null;
        const r = e.getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width,
                height: r.height}; }""", selector)


def style(page, selector: str, *props: str) -> dict:
    return page.evaluate("""([sel, props]) => { const s = getComputedStyle(document.querySelector(sel));
        return Object.fromEntries(props.map((p) => [p, s.getPropertyValue(p)])); }""",
                         [selector, list(props)])


def rgb(css: str) -> tuple[float, ...]:
    """An rgb()/rgba() colour as (r, g, b, alpha)."""
    inner = css[css.index("(") + 1:css.rindex(")")].replace("/", ",")
    parts = [float(p) for p in inner.replace(",", " ").split()]
    return (*parts[:3], parts[3] if len(parts) > 3 else 1.0)


def contrast(fg: str, bg: str) -> float:
    """WCAG contrast ratio of two opaque colours."""
    def lum(c):
        def ch(v):
            v /= 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        r, g, b = (ch(v) for v in rgb(c)[:3])
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    hi, lo = sorted((lum(fg), lum(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def axe(page, within: str | None = None, *, page_rules: bool = True) -> list[dict]:
    """axe-core's violations on the page (or inside ``within``, a selector): the serious and
    critical ones, and (with ``page_rules``) a page without a level-one heading, a main
    landmark or with content outside landmarks, whatever axe rates them. Each as
    {id, impact, nodes: [html | what to fix]}."""
    if not AXE.exists():
        pytest.fail(f"axe-core is not installed at {AXE}: run `make {AXE.relative_to(ROOT)}`")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))        # (not a <script>: the CSP holds)
    found = page.evaluate("""async (within) => {
        const r = await axe.run(within ? document.querySelector(within) : document,
                                {resultTypes: ["violations"]});
        return r.violations.map((v) => ({id: v.id, impact: v.impact,
            nodes: v.nodes.slice(0, 4).map((n) => `${n.html.slice(0, 160)} | ${n.failureSummary}`)}));
    }""", within)
    must = {"page-has-heading-one", "region", "landmark-one-main"} if page_rules and not within else set()
    return [v for v in found if v["impact"] in ("serious", "critical") or v["id"] in must]


def wait_until(test, timeout: float = 20.0, what: str = "the page"):
    end = time.monotonic() + timeout
    while True:
        got = test()
        if got:
            return got
        if time.monotonic() > end:
            raise AssertionError(f"waited {timeout} s for {what}")
        time.sleep(0.05)
