"""The JupyterLite site, end to end: built by scripts/build_lite.sh, served on
127.0.0.1, opened in Debian's Chromium with every other host unresolvable.

Lesson 00 and one exercise run all their cells in the browser's Python, a card
on a table is played by a click, and Python's answer comes back to the page.
We wait on execution counts (with timeouts), never on the kernel-idle
indicator: it reads idle before the kernel even exists. Starting the browser's Python is
CPU work (Pyodide's 10 MB of WebAssembly compiled, its packages imported): some 20 s on
an idle machine, several minutes on a busy one. So the long waits wait while the browser
works (:func:`until`: its processes' CPU time still grows) and fail when it stalls, not
after a fixed time that only an idle machine keeps.

Set COURTLEARN_LITE_SITE=path to test an already-built site instead of
building one into build/lite-test.
"""
from __future__ import annotations

import functools
import http.server
import itertools
import json
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from page_errors import PageErrors

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
LESSON = "notebooks/00_start_here.ipynb"
TIMINGS = ROOT / "build" / "lite-timings.json"

pytestmark = [pytest.mark.slow, pytest.mark.browser]

FIRST_CELL = 'try:\n    import piplite\n    await piplite.install("courtlearn")\nexcept ImportError:\n    pass'


# ---------------------------------------------------------------- the site
def build_site(out: Path, extra_files: list[Path] = ()) -> Path:
    env = dict(os.environ, LITE_EXTRA_FILES=" ".join(str(p) for p in extra_files))
    proc = subprocess.run(["bash", str(ROOT / "scripts" / "build_lite.sh"), str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out


class _Quiet(http.server.SimpleHTTPRequestHandler):
    # module workers refuse scripts served with a non-JavaScript type
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript",
                      ".wasm": "application/wasm", ".json": "application/json",
                      ".whl": "application/octet-stream"}

    def log_message(self, *args):
        pass


def serve(directory: Path):
    """Serve `directory` on 127.0.0.1 (free port) from a thread; returns (url, server)."""
    handler = functools.partial(_Quiet, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", server


def probe_notebook(path: Path) -> None:
    """A tiny lesson in the lessons' shape, for a repository without lessons yet."""
    import nbformat
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(FIRST_CELL),
                nbformat.v4.new_code_cell("import courtlearn as cl")]
    nbformat.write(nb, path)


# ---------------------------------------------------------------- waiting on the browser
STALL = 60.0            # seconds with no CPU spent by the browser: it is stuck, not slow
MOST = 1200.0           # seconds any one wait may take in all


def browser_cpu() -> float:
    """CPU seconds spent so far by this process's descendants (Playwright's driver and the
    Chromium processes it started), from /proc: the browser's progress."""
    tick = os.sysconf("SC_CLK_TCK")
    parents, cpu = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    me, total = os.getpid(), 0.0
    for pid, value in cpu.items():
        p, seen = parents.get(pid), 0
        while p and p != me and seen < 64:
            p, seen = parents.get(p), seen + 1
        if p == me:
            total += value
    return total


def until(page, js: str, arg=None, what: str = "the page", stall: float = STALL,
          most: float = MOST):
    """Wait until ``js`` (a page function) is true, as long as the browser makes progress:
    fail when its processes spent no CPU for ``stall`` seconds (stuck), or after ``most``
    seconds in all. A busy machine slows the browser; it does not stop it."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    start = time.monotonic()
    last, seen = browser_cpu(), time.monotonic()
    while True:
        try:
            return page.wait_for_function(js, arg=arg, timeout=5_000)
        except PlaywrightTimeout:
            pass
        now, cpu = time.monotonic(), browser_cpu()
        if cpu > last + 0.05:
            last, seen = cpu, now
        if now - seen > stall:
            raise AssertionError(f"{what}: the browser did nothing for {stall:.0f} s "
                                 f"({now - start:.0f} s in all)")
        if now - start > most:
            raise AssertionError(f"{what}: not done after {most:.0f} s")


# ---------------------------------------------------------------- the browser
def launch(playwright):
    return playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              # hard offline: no host but the loopback address resolves
              "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"])


class Watch:
    """Everything the page asks from outside 127.0.0.1, and every error its context shows
    (console errors of the page and of the kernel's worker, uncaught exceptions, HTTP
    errors: tests/page_errors.py). Nothing is ignored."""

    def __init__(self, page):
        self.external = []
        self.errors = PageErrors().watch(page.context)
        page.context.on("request", self._request)           # the kernel's worker included

    def _request(self, req):
        u = urlparse(req.url)
        if u.scheme in ("http", "https", "ws", "wss") and u.hostname != "127.0.0.1":
            self.external.append(req.url)


PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
WIDGET = '.jp-OutputArea-output:not([data-mime-type])'   # a live widget's view (static HTML has a mime type)

# every code cell carries an execution count, or one shows a traceback (JupyterLab draws
# tracebacks as red stderr text; the site's copies hold no stored stderr or errors)
ERROR_OUTPUT = '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]:has(.ansi-red-fg)'
DONE_JS = """() => {
  const nb = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook');
  if (!nb) return false;
  if (nb.querySelector('%s')) return 'error';
  const cells = [...nb.querySelectorAll('.jp-CodeCell')];
  return cells.length > 0 && cells.every(c => /\\[\\d+\\]/.test(c.querySelector('.jp-InputPrompt').textContent));
}""" % ERROR_OUTPUT.replace("'", "\\'")


# the first code cell (the piplite install) has run: the kernel exists and courtlearn is in
FIRST_DONE_JS = """() => {
  const c = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt');
  return !!c && /\\[\\d+\\]/.test(c.textContent);
}"""


# some cell of the open notebook is queued, running or done ("[*]:" or "[3]:")
QUEUED_JS = """() => [...document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt')]
    .some(e => /\\[(\\*|\\d+)\\]/.test(e.textContent))"""


def run_all(page):
    """Run → Run All Cells. A dialog on show first (JupyterLab asking which kernel to
    start, when the page is slow) is answered with its default button."""
    dialog = page.query_selector(".jp-Dialog")
    if dialog:
        print("answered a dialog:", " ".join(dialog.inner_text().split())[:200])
        page.keyboard.press("Enter")
        page.wait_for_selector(".jp-Dialog", state="detached", timeout=10_000)
    page.click(".lm-MenuBar-itemLabel:text-is('Run')")
    page.click(".lm-Menu-itemLabel:text-is('Run All Cells')")


def open_and_run_all(page, base: str, path: str, timeout_s: float, entry: str | None = None) -> dict:
    """Open a notebook (at `entry`, else its lab URL), Run All, wait for every
    execution count; returns timings (s)."""
    t0 = time.monotonic()
    page.goto(entry or f"{base}/lab/index.html?path={path}", wait_until="domcontentloaded")
    page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell", timeout=120_000)
    t_ui = time.monotonic() - t0
    # Run All straight away: the first cell waits for the kernel to exist
    run_all(page)
    first_table = kernel_ready = None
    deadline = t0 + timeout_s
    queued, retries, clicked = False, 0, time.monotonic()
    while True:
        state = page.evaluate(DONE_JS)
        if kernel_ready is None and page.evaluate(FIRST_DONE_JS):
            kernel_ready = time.monotonic() - t0
        if first_table is None and page.query_selector(f"{PANEL} {WIDGET} :is([data-card], [data-facedown])"):
            first_table = time.monotonic() - t0
        if state:
            break
        # a Run All that landed before the notebook's commands were ready queued nothing:
        # after a long wait with no cell queued, run all again (as a learner would)
        if not queued and retries < 2 and time.monotonic() > clicked + 45:
            queued = page.evaluate(QUEUED_JS)
            if not queued:
                run_all(page)
                retries += 1
                clicked = time.monotonic()
        elif not queued:
            queued = page.evaluate(QUEUED_JS)
        if time.monotonic() > deadline:
            prompts = page.eval_on_selector_all(
                ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt",
                "els => els.map(e => e.textContent)")
            raise AssertionError(f"{path}: cells not all run after {timeout_s}s: {prompts}")
        time.sleep(0.1)
    if state == "error":
        text = "\n".join(page.eval_on_selector_all(f"{PANEL} {ERROR_OUTPUT}", "els => els.map(e => e.textContent)"))
        raise AssertionError(f"{path}: a cell raised in the browser:\n{text[-3000:]}")
    return {"ui": round(t_ui, 2), "kernel_ready": kernel_ready and round(kernel_ready, 2),
            "first_live_table": first_table and round(first_table, 2),
            "all_cells": round(time.monotonic() - t0, 2)}


def run_cell(page, code: str, timeout_ms: int | None = None) -> tuple[str, str]:
    """Add a code cell below the active one of the open notebook and run it.
    Returns (its output text, a selector for the cell). It waits while the browser works
    (:func:`until`); ``timeout_ms``, when given, bounds the wait in all.

    The cell is found again by a mark put on it while it is being edited, not by its
    place: JupyterLab draws only the cells near the view (windowing), so a count of the
    cells drawn is no index (the cell went in mid-notebook and the wait watched another:
    the class test failed about one run in three)."""
    panel = ".jp-NotebookPanel:not(.lm-mod-hidden)"
    tag = f"run-cell-{next(_RUN_CELLS)}"
    page.click(f"{panel} .jp-Cell >> nth=-1")
    page.keyboard.press("Escape")
    page.keyboard.press("b")                                # new cell below, command mode
    page.keyboard.press("Enter")                            # edit it
    page.keyboard.insert_text(code)
    # the cell being edited is the one with the focus: mark it before it runs
    page.wait_for_function(
        """([sel, tag]) => { const c = document.activeElement?.closest(sel);
             if (!c) return false; c.setAttribute('data-test-cell', tag); return true; }""",
        arg=[f"{panel} .jp-CodeCell", tag], timeout=10_000)
    page.keyboard.press("Shift+Enter")
    cell = f"{panel} .jp-CodeCell[data-test-cell='{tag}']"
    until(page, """(sel) => { const c = document.querySelector(sel);
             return c && /\\[\\d+\\]/.test(c.querySelector('.jp-InputPrompt').textContent); }""",
          arg=cell, what=f"the cell {code.splitlines()[0][:40]!r}",
          most=MOST if timeout_ms is None else timeout_ms / 1000)
    return page.inner_text(f"{cell} >> .jp-OutputArea"), cell


_RUN_CELLS = itertools.count(1)


def click_a_legal_card(page, cell: str) -> tuple[str, float]:
    """Click the first legal card in the viewer's hand on that cell's table; wait
    until Python's answer puts it in the open trick. Returns (code, seconds)."""
    card = page.query_selector(f"{cell} >> {WIDGET} [data-card][data-legal='true']")
    assert card is not None, "no legal card to click on any table"
    code = card.get_attribute("data-card")
    widget = card.evaluate_handle("e => e.closest('.jp-OutputArea-output')")
    t = time.monotonic()
    card.click()
    widget.as_element().wait_for_selector(f"[data-role=trick] [data-card='{code}']", timeout=30_000)
    return code, round(time.monotonic() - t, 3)


# ---------------------------------------------------------------- the tests
@pytest.fixture(scope="module")
def site(tmp_path_factory):
    given = os.environ.get("COURTLEARN_LITE_SITE")
    if given:
        return Path(given)
    extra = []
    if not (ROOT / LESSON).exists():                        # no lessons yet: a probe in their shape
        probe = tmp_path_factory.mktemp("probe") / "probe.ipynb"
        probe_notebook(probe)
        extra.append(probe)
    t = time.monotonic()
    out = build_site(ROOT / "build" / "lite-test", extra)
    site_build_s = time.monotonic() - t
    (out / ".build-seconds").write_text(f"{site_build_s:.1f}\n")
    return out


@pytest.fixture(scope="module")
def browser(site):
    playwright = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `make chromium`")
    base, server = serve(site)
    with playwright.sync_playwright() as p:
        browser = launch(p)
        yield base, browser
        browser.close()
    server.shutdown()


@pytest.fixture
def browser_page(browser):
    """A fresh context per test: no workspace or kernel left from the last one."""
    base, b = browser
    context = b.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    watch = Watch(page)
    yield base, page, watch
    context.close()
    # an error that comes after the test's own check, or in a test that failed early,
    # fails it too: none is ever dropped
    if watch.errors:
        pytest.fail(watch.errors.report())


def test_site_is_self_contained(site):
    cfg = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = cfg["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["disablePyPIFallback"] is True
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    lock = json.loads((site / "static/pyodide/pyodide-lock.json").read_text())["packages"]
    base = site / "static/pyodide"
    # what the kernel loads at start, and courtlearn with its widget stack, are in the site
    for name in ["micropip", "ipython", "jedi", "traitlets", "courtlearn", "anywidget", "ipywidgets", "psygnal"]:
        entry = lock[name]
        assert not entry["file_name"].startswith("http"), name
        assert (base / entry["file_name"]).is_file(), name
    assert {"anywidget", "ipywidgets"} <= set(lock["courtlearn"]["depends"])
    # compiled extras are on the Pyodide CDN, never a dangling relative path
    assert lock["pandas"]["file_name"].startswith("https://cdn.jsdelivr.net/pyodide/")
    wheels = {p.name.split("-")[0] for p in (site / "pypi").glob("*.whl")}
    assert {"courtlearn", "anywidget", "ipywidgets", "jupyterlab_widgets", "psygnal", "comm"} <= wheels
    # every lesson and exercise of the repository is in the site
    if os.environ.get("COURTLEARN_LITE_SITE"):
        return                                              # built from elsewhere
    for folder in ("notebooks", "exercises"):            # the Urdu and Hindi ones included
        for nb in (ROOT / folder).rglob("*.ipynb"):
            rel = nb.relative_to(ROOT)
            if ".ipynb_checkpoints" not in rel.parts:
                assert (site / "files" / rel).is_file(), nb
    # learners get the student copies of the exercises: no worked answer in the site
    for nb in (site / "files" / "exercises").glob("*.ipynb"):
        for cell in json.loads(nb.read_text())["cells"]:
            if "solution" in cell.get("metadata", {}).get("tags", []):
                assert "answer = ...\n" in "".join(cell["source"]) + "\n", (nb.name, cell["source"])
    # and every copy opens on the browser's kernel
    for nb in (site / "files").rglob("*.ipynb"):
        assert json.loads(nb.read_text())["metadata"]["kernelspec"]["name"] == "python", nb


def test_lesson_00_runs_offline_and_a_click_plays(site, browser_page):
    base, page, watch = browser_page
    if (site / "files" / LESSON).exists():
        # the site's own address is where a learner starts: it opens lesson 00
        timings = open_and_run_all(page, base, path := LESSON, timeout_s=180, entry=f"{base}/")
        tab = page.inner_text("#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel")
        assert tab == Path(LESSON).name, tab
    else:
        timings = open_and_run_all(page, base, path := "probe.ipynb", timeout_s=180)
    # a table of our own at the end of the lesson, where the viewer is to play
    _, cell = run_cell(page, TABLE_CELL, timeout_ms=60_000)
    page.wait_for_selector(f"{cell} >> {WIDGET} [data-card][data-legal='true']", timeout=30_000)
    code, roundtrip = click_a_legal_card(page, cell)
    timings["click_roundtrip"] = roundtrip
    # Python saw the click: the table's deal holds the card in its open trick
    out, _ = run_cell(page, "print('TRICK', *[c.code for _, c in _t.deal.trick.cards])")
    assert f"TRICK {code}" in out
    page.screenshot(path=str(ROOT / "build" / "lite-table.png"))
    TIMINGS.parent.mkdir(exist_ok=True)
    TIMINGS.write_text(json.dumps({"lesson": path, **timings}, indent=1))
    print("\nJupyterLite timings (s):", timings)
    assert not watch.external, watch.external[:5]
    assert not watch.errors, watch.errors.report()


@pytest.mark.parametrize("path", ["exercises/01", "exercises/08_what_would_you_play.ipynb",
                                  "exercises/10_puzzles.ipynb",
                                  "notebooks/13_learn_from_your_deals.ipynb",
                                  "notebooks/ur/00_start_here.ipynb",
                                  "exercises/hi/01_trick_winner.ipynb"])
def test_a_notebook_runs_offline(site, browser_page, path):
    """The first exercise, the coach's notebooks (hints, the review, best play: their
    play-outs run in plain Python, no numpy from the CDN), the puzzles, and Urdu and Hindi
    (their catalogs come compiled in the wheel, their fonts with the widget)."""
    base, page, watch = browser_page
    if path == "exercises/01":
        exercises = sorted((site / "files" / "exercises").glob("*.ipynb"))
        if not exercises:
            pytest.skip("no exercise notebooks in the repository yet")
        path = f"exercises/{exercises[0].name}"
    elif not (site / "files" / path).exists():
        pytest.skip(f"{path} is not in this site")
    timings = open_and_run_all(page, base, path, timeout_s=240)
    print(f"\n{path} timings (s):", timings)
    for lang, south in (("ur", "جنوب"), ("hi", "दक्षिण")):
        if f"/{lang}/" in path:       # the compiled catalog answered in the browser's Python
            out, _ = run_cell(page, "print(cl.get_language(), cl.Rules.court_piece().seat_name(0))")
            assert f"{lang} {south}" in out, out
    assert not watch.external, watch.external[:5]
    assert not watch.errors, watch.errors.report()


CLASS_LESSON = "14_running_a_class.ipynb"
CLASS_NOTE = {"": "This lesson runs in Jupyter on a computer", "ur/": "یہ سبق کمپیوٹر پر Jupyter",
              "hi/": "यह पाठ कंप्यूटर पर Jupyter"}


def test_the_class_lesson_is_there_to_read_with_a_note_first(site):
    """Lesson 14's class server listens for the learners' phones, which Python in a web page
    cannot do: each language's copy opens with a note saying so and where to run it
    (Binder, for that very lesson), and keeps its stored outputs to read. Only it."""
    if not (ROOT / "notebooks" / CLASS_LESSON).exists():
        pytest.skip("no class lesson in the repository")
    for sub, words in CLASS_NOTE.items():
        path = site / "files" / "notebooks" / f"{sub}{CLASS_LESSON}"
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        note = "".join(cells[0]["source"])
        assert cells[0]["cell_type"] == "markdown" and words in note, note[:200]
        assert f"urlpath=lab/tree/notebooks/{sub}{CLASS_LESSON})" in note, note
        def text(value):                  # a notebook keeps a text as a string or lines
            return value if isinstance(value, str) else "".join(value)
        stored = "".join(text(o.get("data", {}).get("text/plain", "")) + text(o.get("text", ""))
                         for c in cells for o in c.get("outputs", []))
        assert "goon  (0, 7)" in stored               # the tables' results, to read
    noted = [p for p in (site / "files").rglob("*.ipynb")
             if '"runs-on-a-computer"' in p.read_text(encoding="utf-8")]
    assert sorted(p.name for p in noted) == [CLASS_LESSON] * 3, noted


def test_the_class_lesson_shows_its_note_in_the_browser(site, browser_page):
    base, page, watch = browser_page
    if not (site / "files" / "notebooks" / "ur" / CLASS_LESSON).exists():
        pytest.skip("no class lesson in this site")
    page.goto(f"{base}/lab/index.html?path=notebooks/ur/{CLASS_LESSON}",
              wait_until="domcontentloaded")
    first = page.locator(f"{PANEL} .jp-Notebook .jp-Cell").first
    first.locator(".jp-RenderedMarkdown [dir=rtl][lang=ur]").wait_for(timeout=120_000)
    assert CLASS_NOTE["ur/"] in first.inner_text()
    assert first.locator("a[href*='mybinder.org']").count() == 1
    assert not watch.external, watch.external[:5]
    assert not watch.errors, watch.errors.report()


# a table where the viewer is the seat to play (no bots: the click is the only move)
TABLE_CELL = """\
import courtlearn as cl
_d = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
_d.call_trump(cl.bots.RuleBot().call_trump(_d))
_t = cl.widgets.CardTable(_d, seat=_d.to_play)
_t"""


# ---------------------------------------------------------------- the class serves the site
LAN = "class.lan"        # the class's "LAN address": a host name this test's Chromium maps to 127.0.0.1


class ClassInThread:
    """`cl.classroom.open(..., lite=site)`'s server, in an event loop of its own thread on
    127.0.0.1 (the teacher's kernel); :meth:`call` runs a function of the room in that loop."""

    def __init__(self, db: Path, site: Path, code: str):
        import asyncio
        self.loop = asyncio.new_event_loop()
        self.room = None
        ready = threading.Event()

        def run():
            asyncio.set_event_loop(self.loop)
            from courtlearn.classroom.server import start

            async def begin():
                self.room = start(port=0, db=db, code=code, host="127.0.0.1", tables=1, lite=site)
            try:
                self.loop.run_until_complete(begin())
            finally:
                ready.set()
            self.loop.run_forever()
        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert ready.wait(30) and self.room is not None, "the class server did not start"
        self.port = self.room.server.port

    def call(self, fn, timeout: float = 10):
        import concurrent.futures
        done = concurrent.futures.Future()

        def work():
            try:
                done.set_result(fn())
            except BaseException as err:              # noqa: BLE001 (handed to the caller)
                done.set_exception(err)
        self.loop.call_soon_threadsafe(work)
        return done.result(timeout)

    def stop(self):
        self.call(self.room.server.stop)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def test_a_check_in_the_site_the_class_serves_reaches_the_teacher(site, browser, tmp_path):
    """`courtlearn class serve --lite` (here `open(lite=...)` in a thread): the site under
    /lite/ of the class's address, opened at a LAN host name (plain http, not a secure
    context: no service worker), an exercise notebook there joins the class with the code
    and a name only (the address is the page's own) and checks one question twice; the
    teacher's room.results() holds both tries. No console error, nothing from elsewhere."""
    _, chromium = browser
    code = "LITE26"
    cls = ClassInThread(tmp_path / "class.sqlite", site, code)
    lan = chromium.browser_type.launch(
        executable_path=CHROMIUM,
        args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              f"--host-resolver-rules=MAP {LAN} 127.0.0.1, MAP * ~NOTFOUND"])
    try:
        context = lan.new_context(viewport={"width": 1280, "height": 900})
        errors = PageErrors().watch(context)
        elsewhere = []
        context.on("request", lambda r: urlparse(r.url).scheme in ("http", "https", "ws", "wss")
                   and urlparse(r.url).hostname != LAN and elsewhere.append(r.url))
        page = context.new_page()
        exercise = "exercises/01_trick_winner.ipynb"
        page.goto(f"http://{LAN}:{cls.port}/lite/lab/index.html?path={exercise}",
                  wait_until="domcontentloaded")
        until(page, f"() => !!document.querySelector('{PANEL} .jp-Notebook .jp-Cell')",
              what="the notebook")
        assert page.evaluate("isSecureContext") is False          # a LAN address over http
        run_cell(page, FIRST_CELL)               # Pyodide starts: CPU work, long when busy
        out, _ = run_cell(page, f'import courtlearn as cl\nprint(cl.classroom.join(name="Ali", '
                                f'code="{code.lower()}"))')
        assert f"You are in the class {code} as Ali" in out, out
        out, _ = run_cell(page, 'q1 = cl.exercises.question("trick_winner", 1)\n'
                                'q1.check("Q♥")\nq1.check("KH")\nprint(cl.classroom.status())')
        assert "Correct" in out and "Results waiting" not in out, out

        deadline = time.monotonic() + 15                           # sent at each check
        while True:
            frame = cls.call(cls.room.results)
            if len(frame) or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        rows = frame.to_dict("records")
        assert [(r["name"], r["kind"], r["item"], r["tries"], r["first_right"], r["solved"])
                for r in rows] == [("Ali", "exercise", "trick_winner/1", 2, False, True)], rows
        answers = cls.call(cls.room.answers)
        assert list(answers["right"]) == [False, True], answers
        context.close()
        assert not elsewhere, elsewhere[:5]
        assert not errors, errors.report()
    finally:
        lan.close()
        cls.stop()
