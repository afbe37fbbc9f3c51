"""How fast is courtlearn's JupyterLite site? (a benchmark, not a test)

usage: .venv/bin/python bench/lite_speed.py [SITE]        (default build/lite; `make lite` first)
       .venv/bin/python bench/lite_speed.py --all [SITE]  every lesson and exercise, offline:
                                                          OK/FAIL and timings for each (~20 s each)

Serves SITE on 127.0.0.1, opens lesson 00 in headless Chromium with every other
host unresolvable, and reports:
  size               the site on disk (what a teacher uploads)
  ui                 page opened -> notebook shown
  kernel_ready       page opened -> first cell (piplite.install) done
  first_live_table   page opened -> first widget table drawn by Python
  all_cells          page opened -> every cell of lesson 00 run
  click_roundtrip    click on a card -> Python's answer drawn (median of 3 tables)
  solve_6_tricks     cl.solve in the browser's Python, six tricks left (median and max of
                     six positions, two of each game)
  hint               cl.hint in the browser's Python (no numpy: the pure play-outs), median
                     and max of nine positions (three of each game, early, middle and late)
Figures depend heavily on the machine's load: quote them with the load average.
"""
from __future__ import annotations

import importlib.util
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))           # test_lite imports tests/page_errors.py
spec = importlib.util.spec_from_file_location("test_lite", ROOT / "tests" / "test_lite.py")
lite = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lite)


# the one lesson that needs packages from the Pyodide CDN (pandas, matplotlib); it says so
NEEDS_CDN = ("notebooks/11_what_the_numbers_say.ipynb", "notebooks/ur/11_what_the_numbers_say.ipynb",
             "notebooks/hi/11_what_the_numbers_say.ipynb")


def run_every_notebook(site: Path) -> None:
    from playwright.sync_api import sync_playwright
    paths = [str(nb.relative_to(site / "files")) for folder in ("notebooks", "exercises")
             for nb in sorted((site / "files" / folder).rglob("*.ipynb"))]
    base, server = lite.serve(site)
    failed = 0
    with sync_playwright() as p:
        browser = lite.launch(p)
        for path in paths:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            watch = lite.Watch(page)
            try:
                figures = lite.open_and_run_all(page, base, path, timeout_s=150)
                if watch.errors or watch.external:
                    raise RuntimeError(f"{watch.errors.report()} external: {watch.external[:3]}")
                print(f"OK    {path:45} {figures}", flush=True)
            except Exception as e:                      # report and go on to the next one
                lines = str(e).strip().splitlines()
                why = lines[-1] if lines else str(e)
                if path in NEEDS_CDN and "ModuleNotFoundError" in why:
                    print(f"CDN   {path:45} needs the Pyodide CDN, and says so: {why}", flush=True)
                    continue
                failed += 1
                print(f"FAIL  {path:45} {why}", flush=True)
            context.close()
        browser.close()
    server.shutdown()
    print(f"{len(paths) - failed - len(NEEDS_CDN)} of {len(paths)} notebooks ran offline; "
          f"{len(NEEDS_CDN)} needs the Pyodide CDN; {failed} failed")


SOLVE_CELL = """\
import random, statistics, time
import courtlearn as cl
times = []
for seed in range(6):
    rng = random.Random(seed)
    game = ("court_piece", "double_sir", "dehla_pakad")[seed % 3]
    d = cl.Deal(getattr(cl.Rules, game)(stop_when_decided=False), dealer=seed % 4, seed=seed)
    d.call_trump(rng.choice("SHCD"))
    while len(d.tricks) < 7:
        d.play(rng.choice(d.legal_cards()))
    t = time.perf_counter()
    cl.solve(d, using="python")
    times.append(time.perf_counter() - t)
print("SOLVE6", round(statistics.median(times), 3), round(max(times), 3))
"""


HINT_CELL = """\
import statistics, sys, time
import courtlearn as cl
times = []
for n in range(9):
    game = ("court_piece", "double_sir", "dehla_pakad")[n % 3]
    d = cl.Deal(getattr(cl.Rules, game)(), dealer=n % 4, seed=n)
    while d.phase == "trump" or len(d.tricks) < (1, 4, 7)[n // 3]:
        cl.bots.act(cl.bots.RuleBot(), d)
    if d.phase != "play":
        continue
    t = time.perf_counter()
    cl.hint(d)
    times.append(time.perf_counter() - t)
print("HINT", round(statistics.median(times), 3), round(max(times), 3), len(times),
      "numpy" in sys.modules)
"""


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["--all"]:
        return run_every_notebook(Path(args[1] if len(args) > 1 else ROOT / "build" / "lite"))
    site = Path(args[0] if args else ROOT / "build" / "lite")
    if not (site / "files" / lite.LESSON).exists():
        sys.exit(f"{site} has no {lite.LESSON}: run `make lite` first")
    from playwright.sync_api import sync_playwright

    size = subprocess.run(["du", "-sb", str(site)], capture_output=True, text=True).stdout.split()[0]
    base, server = lite.serve(site)
    with sync_playwright() as p:
        browser = lite.launch(p)
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        watch = lite.Watch(page)
        figures = lite.open_and_run_all(page, base, lite.LESSON, timeout_s=300)
        clicks = []
        for _ in range(3):
            _, cell = lite.run_cell(page, lite.TABLE_CELL)
            page.wait_for_selector(f"{cell} >> {lite.WIDGET} [data-card][data-legal='true']", timeout=30_000)
            clicks.append(lite.click_a_legal_card(page, cell)[1])
        out, _ = lite.run_cell(page, SOLVE_CELL, timeout_ms=300_000)
        solve6 = [float(x) for x in out.split("SOLVE6", 1)[1].split()[:2]] if "SOLVE6" in out else None
        out, _ = lite.run_cell(page, HINT_CELL, timeout_ms=300_000)
        hint = out.split("HINT", 1)[1].split()[:4] if "HINT" in out else out
        browser.close()
    server.shutdown()
    figures.update(size_mb=round(int(size) / 1e6, 1), click_roundtrip=statistics.median(clicks),
                   solve_6_tricks_median_max=solve6,
                   hint_median_max_count_numpy=hint,
                   clicks=clicks, load_average=os.getloadavg()[0],
                   external_requests=len(watch.external), errors=watch.errors[:5])
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
