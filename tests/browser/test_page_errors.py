"""The error watcher every browser test relies on sees each kind of error it promises to:
a console error and a failed console.assert of the page, a console error of a web worker
(where the browser-only site's kernel runs), an uncaught exception and a missing file.

And a lesson opened again shows no error (issue 24: "reopening lesson 10 logs ipywidgets'
'widget model not found' twice"): the built lesson 10 opened as it is, and lesson 10 run in
JupyterLab, saved, and opened again with a new kernel. The second is what a learner does;
its outputs point at widget models that lived in the old kernel, which JupyterLab keeps in
the notebook only with the widget manager's ``saveState`` setting on (SAVE_WIDGETS). Without
it the reopened lesson logs that error once per table and shows "Error displaying widget"
in the table's place.
"""
import json

import pytest
from playwright.sync_api import expect

from labserver import ARTIFACTS, ROOT, Lab
from page_errors import PageErrors

LESSON_10 = ROOT / "notebooks" / "10_play_a_session.ipynb"
#: the JupyterLab setting that keeps the widgets a learner's run made in the saved notebook,
#: as the project ships it (make lab, Binder's postBuild and the JupyterLite site install it)
SAVE_WIDGETS = json.loads((ROOT / "scripts" / "jupyterlab_overrides.json").read_text())

IDLE = """async () => {
    const nb = window.jupyterapp.shell.currentWidget;
    await nb.context.ready; await nb.sessionContext.ready;
    const k = nb.sessionContext.session.kernel;
    while (k.status !== 'idle') await new Promise(r => setTimeout(r, 50));
}"""
# every cell brought into view in turn, so that JupyterLab draws every output
EVERY_CELL = """async () => {
    const nb = window.jupyterapp.shell.currentWidget.content;
    for (let i = 0; i < nb.widgets.length; i++) {
        nb.activeCellIndex = i;
        await nb.scrollToCell(nb.widgets[i]);
        await new Promise(r => setTimeout(r, 60));
    }
}"""

PAGE = """<!doctype html><title>errors</title><script>
console.log("a plain log is not an error");
console.error("page error");
console.assert(1 === 2, "failed assert");
new Worker(URL.createObjectURL(new Blob(["console.error('worker error')"])));
fetch("/missing.json");
setTimeout(() => { throw new Error("uncaught one"); }, 0);
</script>"""


def test_every_kind_of_error_is_collected(browser):
    context = browser.new_context()
    errors = PageErrors().watch(context)

    def serve(route):
        if route.request.url.endswith("/index.html"):
            route.fulfill(status=200, content_type="text/html", body=PAGE)
        else:
            route.fulfill(status=404, body="not here")

    context.route("http://errors.test/**", serve)
    page = context.new_page()
    page.goto("http://errors.test/index.html")
    deadline = 100
    while len(errors) < 6 and deadline:
        page.wait_for_timeout(100)
        deadline -= 1
    context.close()
    text = "\n".join(errors)
    assert "console.error: page error" in text
    assert "console.assert:" in text and "failed assert" in text
    assert "console.error: worker error" in text
    assert "uncaught one" in text
    assert "HTTP 404: http://errors.test/missing.json" in text
    assert "plain log" not in text
    # Chromium logs the 404 to the console too
    assert "Failed to load resource" in text
    assert len(errors) == 6, errors.report()


def _outputs(path, mime: str, having: str = "") -> int:
    """How many outputs of the notebook at ``path`` carry ``mime`` (containing ``having``)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    return sum(mime in o.get("data", {}) and having in "".join(o["data"][mime])
               for c in nb["cells"] for o in c.get("outputs", []))


def _open(page, lab, name):
    page.goto(f"{lab.base}/lab/tree/{name}?token={lab.token}&reset")
    page.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext",
                           timeout=60_000)
    page.evaluate(IDLE)


def _all_drawn(page, tables: int, selector: str = ".cl-table"):
    """Every output drawn: the lesson's tables found, no widget in error."""
    page.evaluate(EVERY_CELL)
    expect(page.locator(selector)).to_have_count(tables, timeout=30_000)
    page.wait_for_timeout(1000)          # a late restore would log its error by now
    expect(page.get_by_text("Error displaying widget")).to_have_count(0)


def test_the_built_lesson_10_opens_with_its_pictures_and_no_error(lab, page):
    assert _outputs(LESSON_10, "application/vnd.jupyter.widget-view+json") == 2
    pictures = _outputs(LESSON_10, "text/html", 'class="courtlearn-deal"')
    assert pictures >= 2                 # the two tables' pictures, and the lesson's own
    name = lab.add_notebook(LESSON_10, "lesson10_reopen.ipynb")
    _open(page, lab, name)
    # not yet trusted (the learner has not run it): JupyterLab draws the tables' stored
    # pictures, and never looks for their widget models
    _all_drawn(page, pictures, ".jp-OutputArea-output[data-mime-type='text/html'] "
                               ".courtlearn-deal")
    expect(page.locator(".cl-table")).to_have_count(0)   # any console error fails (conftest)


def test_lesson_10_run_saved_and_opened_again_with_a_new_kernel(browser, tmp_path):
    settings = tmp_path / "settings"
    for plugin, values in SAVE_WIDGETS.items():
        package, name = plugin.split(":")
        target = settings / package / f"{name}.jupyterlab-settings"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(values))
    lab = Lab(tmp_path).start()
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    errors = PageErrors().watch(context)
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        name = lab.add_notebook(LESSON_10, "lesson10_run.ipynb")
        _open(page, lab, name)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.wait_for_function("() => { const nb = window.jupyterapp.shell.currentWidget;"
                               "  return nb.content.widgets.every(c => c.model.type !== 'code'"
                               "    || (c.model.executionCount !== null"
                               "        && c.model.sharedModel.execution_state !== 'running')); }",
                               timeout=300_000)
        page.evaluate(IDLE)
        page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
        page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty")
        saved = json.loads((lab.root / name).read_text(encoding="utf-8"))
        live = [o["data"]["application/vnd.jupyter.widget-view+json"]["model_id"]
                for c in saved["cells"] for o in c.get("outputs", [])
                if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
        stored = saved["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]
        assert len(live) == 2 and all(m in stored["state"] for m in live)
        page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
        page.reload()                    # the lesson opened again: a new kernel, no widgets
        page.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext",
                               timeout=60_000)
        page.evaluate(IDLE)
        _all_drawn(page, 2)
        page.screenshot(path=str(ARTIFACTS / "lesson10_reopened.png"))
    finally:
        context.close()
        lab.stop()
    assert not errors, errors.report()
