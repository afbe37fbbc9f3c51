"""Fixtures for the browser tests: one JupyterLab server and one Debian Chromium per run,
a fresh browser context per test, and every error that context shows (console errors
and failed asserts of its pages and workers, uncaught exceptions, HTTP errors: see
tests/page_errors.py); any error fails the test, nothing is ignored.

Every test in this folder is marked `browser` (deselect with -m "not browser").
"""
import os
import shutil

import pytest

from labserver import ARTIFACTS, CHROMIUM, Lab, launch_chromium
from page_errors import PageErrors


def pytest_collection_modifyitems(config, items):
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `make chromium` (apt-get install chromium)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    server = Lab(tmp_path_factory.mktemp("lab")).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = launch_chromium(p)
        yield b
        b.close()


@pytest.fixture
def page(browser, request):
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    errors = PageErrors().watch(ctx)
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    pg.console_errors = errors
    yield pg
    if getattr(request.node, "rep_call_failed", False):
        pg.screenshot(path=str(ARTIFACTS / f"failed_{request.node.name}.png"))
    ctx.close()
    # any console error fails the test that saw it, whatever else happened in it: there is
    # no list of errors to ignore and no case where they only get printed
    if errors:
        pytest.fail(errors.report())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.when == "call":
        item.rep_call_failed = rep.failed
