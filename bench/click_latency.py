"""Click-to-render latency of the card table, measured in the page (a benchmark, not a test).

Starts a throw-away JupyterLab on 127.0.0.1, opens a notebook in Debian's
Chromium (Playwright), and times, inside the page, a click on a card until the
table has re-rendered with Python's answer (the table's data-rev changes).
Median of 20 clicks with a pause between them, for:

  baseline  a bare anywidget: click -> model.send -> on_msg -> traitlet -> render
  bare      the full table, no bots: the viewer's card (the other seats are
            played from Python between clicks, outside the timing)
  bots      cl.play("double_sir"): the click, then three RuleBot answers, first
            picture drawn (and, separately, the last picture of the round)

    .venv/bin/python bench/click_latency.py [--clicks 20] [--pause 200]

Writes build/artifacts/click_latency.json.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import nbformat  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from labserver import ARTIFACTS, Lab, kernel, launch_chromium  # noqa: E402

BASELINE = '''
import anywidget, traitlets
class Counter(anywidget.AnyWidget):
    _esm = """
    export default { render({ model, el }) {
      const b = document.createElement("button");
      b.className = "bl-button";
      const draw = () => { b.textContent = String(model.get("n")); b.dataset.rev = String(model.get("n")); };
      b.addEventListener("click", () => model.send({type: "click"}));
      model.on("change:n", draw); draw(); el.append(b);
    } }"""
    n = traitlets.Int(0).tag(sync=True)
    def __init__(self):
        super().__init__()
        self.on_msg(lambda w, c, b: setattr(self, "n", self.n + 1))
counter = Counter()
counter
'''

BARE = '''
import courtlearn as cl
from courtlearn.widgets import CardTable
table = CardTable(cl.Deal(cl.Rules.double_sir(), dealer=3, seed=1), seat=0, animate=False)
table
'''

BOTS = '''
import courtlearn as cl
app = cl.play("double_sir", seed=1)
app
'''

# click the viewer's first legal card; resolve when data-rev moved (and when busy is over)
CLICK_JS = """
async ({sel, revSel}) => {
  const root = document.querySelector(revSel);
  const target = document.querySelector(sel);
  if (!target) return null;
  const rev0 = root.dataset.rev;
  const until = (cond) => new Promise(res => {
    if (cond()) return res(performance.now());
    const mo = new MutationObserver(() => { if (cond()) { mo.disconnect(); res(performance.now()); } });
    mo.observe(root, {attributes: true, childList: true, subtree: true});
  });
  const drawn = until(() => root.dataset.rev !== rev0);
  const t0 = performance.now();
  target.click();
  const t1 = await drawn;
  const t2 = root.dataset.busy === undefined ? t1 : await until(() => root.dataset.busy === "false");
  return [t1 - t0, t2 - t0];
}
"""


def notebook(path: Path, source: str):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)


def open_and_run(page, lab, name, ready_selector):
    page.goto(f"{lab.base}/lab/tree/{name}?token={lab.token}&reset")
    page.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext")
    page.evaluate("""async () => {
        const nb = window.jupyterapp.shell.currentWidget;
        await nb.context.ready; await nb.sessionContext.ready;
        const k = nb.sessionContext.session.kernel;
        while (k.status !== 'idle') await new Promise(r => setTimeout(r, 50));
    }""")
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_selector(ready_selector, timeout=60_000)


def stats(xs):
    return {"median": round(statistics.median(xs), 1), "min": round(min(xs), 1),
            "max": round(max(xs), 1), "n": len(xs)}


def measure_baseline(page, lab, clicks, pause):
    notebook(lab.root / "baseline.ipynb", BASELINE)
    open_and_run(page, lab, "baseline.ipynb", ".bl-button")
    out = []
    for _ in range(clicks + 1):
        page.wait_for_timeout(pause)
        t = page.evaluate(CLICK_JS, {"sel": ".bl-button", "revSel": ".bl-button"})
        out.append(t[0])
    return out[1:]                          # the first click warms up the comm


def prepare_viewer_turn(page):
    """Python plays the other seats (and starts a new deal) until South may click."""
    kernel(page, """
d = table.deal
for _ in range(60):
    if d.phase.value == "over":
        table.new_deal(); d = table.deal
    elif d.phase.value == "trump" and d.trump_caller == 0:
        table.call_trump(max("SHCD", key=lambda s: sum(c.suit.letter == s for c in d.hand(0))))
    elif d.phase.value == "play" and d.to_play == 0:
        break
    else:
        table.step()
""")
    page.wait_for_function("() => document.querySelector('.cl-table').dataset.toPlay === '0' && "
                           "document.querySelector('.cl-table').dataset.phase === 'play' && "
                           "document.querySelector('.cl-table').dataset.busy === 'false'")


def measure_bare(page, lab, clicks, pause):
    notebook(lab.root / "bare.ipynb", BARE)
    open_and_run(page, lab, "bare.ipynb", ".cl-table[data-rev]:not([data-rev='-1'])")
    out = []
    for _ in range(clicks + 1):
        prepare_viewer_turn(page)
        page.wait_for_timeout(pause)
        t = page.evaluate(CLICK_JS, {"sel": ".cl-table [data-role=hand] [data-legal=true]", "revSel": ".cl-table"})
        out.append(t[0])
    return out[1:]


def measure_bots(page, lab, clicks, pause):
    notebook(lab.root / "bots.ipynb", BOTS)
    open_and_run(page, lab, "bots.ipynb", ".cl-table[data-rev]:not([data-rev='-1'])")
    first, settled = [], []
    while len(first) < clicks + 1:
        page.wait_for_function("() => document.querySelector('.cl-table').dataset.busy === 'false'")
        phase = page.locator(".cl-table").get_attribute("data-phase")
        if phase == "over":
            kernel(page, "app.new_deal()")
            page.wait_for_function("() => document.querySelector('.cl-table').dataset.phase !== 'over'")
            continue
        if phase == "trump":
            rev = page.locator(".cl-table").get_attribute("data-rev")
            page.locator("[data-role=call-trump]").first.click()
            page.wait_for_function("(r) => document.querySelector('.cl-table').dataset.rev !== r", arg=rev)
            continue
        page.wait_for_timeout(pause)
        t = page.evaluate(CLICK_JS, {"sel": ".cl-table [data-role=hand] [data-legal=true]", "revSel": ".cl-table"})
        first.append(t[0])
        settled.append(t[1])
    return first[1:], settled[1:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clicks", type=int, default=20)
    ap.add_argument("--pause", type=int, default=200, help="ms between clicks")
    args = ap.parse_args()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    lab = Lab(Path(tempfile.mkdtemp(prefix="cl-bench-"))).start()
    res = {"clicks": args.clicks, "pause_ms": args.pause}
    t0 = time.perf_counter()
    try:
        with sync_playwright() as p:
            browser = launch_chromium(p)
            for name, fn in (("baseline", measure_baseline), ("bare", measure_bare), ("bots", measure_bots)):
                ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
                page = ctx.new_page()
                page.set_default_timeout(60_000)
                got = fn(page, lab, args.clicks, args.pause)
                if name == "bots":
                    res["bots_first_picture_ms"] = stats(got[0])
                    res["bots_round_drawn_ms"] = stats(got[1])
                    page.locator(".cl-table").screenshot(path=str(ARTIFACTS / "bench_bots.png"))
                else:
                    res[f"{name}_ms"] = stats(got)
                ctx.close()
            browser.close()
    finally:
        lab.stop()
    res["wall_s"] = round(time.perf_counter() - t0, 1)
    (ARTIFACTS / "click_latency.json").write_text(json.dumps(res, indent=1))
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
