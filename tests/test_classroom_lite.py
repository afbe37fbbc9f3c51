"""The browser-only site served by the class server (``courtlearn class serve --lite DIR``,
``cl.classroom.open(..., lite=DIR)``): files only, under ``lite/`` of the class's address,
a path never out of DIR, no listing, each file's content type, revalidated caching; a
folder that is not a built site refused with a sentence before anything starts. A small
stand-in site here (the real one, in Chromium at a LAN host name: tests/test_lite.py).
"""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import types

import pytest

from courtlearn.classroom import client
from courtlearn.classroom.room import Room
from courtlearn.classroom.server import ClassServer
from courtlearn.classroom.store import Store

from classroom_helpers import CODE, get

pytest.importorskip("tornado")
pytestmark = pytest.mark.timeout(120)


def site(root):
    """A stand-in for a built JupyterLite site: the files a browser asks for first, and
    things that must never be served."""
    (root / "lab").mkdir(parents=True)
    (root / "static" / "pyodide").mkdir(parents=True)
    (root / "pypi").mkdir()
    (root / "files" / ".ipynb_checkpoints").mkdir(parents=True)
    (root / "jupyter-lite.json").write_text('{"jupyter-config-data": {}}')
    (root / "index.html").write_text("<!doctype html><title>site</title>")
    (root / "lab" / "index.html").write_text("<!doctype html><title>lab</title>")
    (root / "favicon.ico").write_bytes(b"\0\0\1\0")
    (root / "bootstrap.js").write_text("console.log(1)")
    (root / "static" / "pyodide" / "pyodide.asm.wasm").write_bytes(b"\0asm" + bytes(100))
    (root / "static" / "pyodide" / "pyodide.mjs").write_text("export {}")
    (root / "pypi" / "courtlearn-0.1.0-py3-none-any.whl").write_bytes(b"PK\3\4")
    (root / "pypi" / "all.json").write_text("{}")
    (root / "files" / "a.ipynb").write_text("{}")
    (root / "files" / ".ipynb_checkpoints" / "a-checkpoint.ipynb").write_text("{}")
    (root / ".nojekyll").write_text("")
    return root


def serve(tmp_path, lite):
    """A class on 127.0.0.1 serving ``lite``, for an async block."""
    store = Store(tmp_path / "class.sqlite")
    room = Room.create(store, code=CODE, tables=1, loop=asyncio.get_running_loop())
    return ClassServer(room, port=0, host="127.0.0.1", lite=lite), store


def test_the_site_is_served_under_lite_with_its_content_types(tmp_path):
    root = site(tmp_path / "site")
    (tmp_path / "secret.txt").write_text("the teacher's notes")
    (root / "files" / "out").symlink_to(tmp_path / "secret.txt")

    async def main():
        server, store = serve(tmp_path, root)
        base = f"http://127.0.0.1:{server.port}/"
        try:
            want = {"lite/": "text/html; charset=utf-8",
                    "lite/lab/": "text/html; charset=utf-8",
                    "lite/bootstrap.js": "text/javascript; charset=utf-8",
                    "lite/static/pyodide/pyodide.mjs": "text/javascript; charset=utf-8",
                    "lite/static/pyodide/pyodide.asm.wasm": "application/wasm",
                    "lite/pypi/courtlearn-0.1.0-py3-none-any.whl": "application/octet-stream",
                    "lite/pypi/all.json": "application/json; charset=utf-8",
                    "lite/jupyter-lite.json": "application/json; charset=utf-8",
                    "lite/files/a.ipynb": "application/json; charset=utf-8",
                    "favicon.ico": "image/x-icon"}
            for path, ctype in want.items():
                status, head, body = await get(base + path)
                assert (status, head["Content-Type"]) == (200, ctype), path
                assert head["Cache-Control"] == "no-cache" and head.get("Etag"), path
                assert head["X-Content-Type-Options"] == "nosniff"
            status, _, body = await get(base + "lite/static/pyodide/pyodide.asm.wasm")
            assert body == (root / "static/pyodide/pyodide.asm.wasm").read_bytes()
            # a browser keeps the files and asks again: unchanged, nothing is sent
            _, head, _ = await get(base + "lite/bootstrap.js")
            status, _, body = await get(base + "lite/bootstrap.js",
                                        {"If-None-Match": head["Etag"]})
            assert (status, body) == (304, b"")
            (root / "bootstrap.js").write_text("console.log(22)")     # the site rebuilt
            status, _, body = await get(base + "lite/bootstrap.js",
                                        {"If-None-Match": head["Etag"]})
            assert (status, body) == (200, b"console.log(22)")
            # /lite goes to /lite/; a folder gives its index.html, never a listing
            status, head, _ = await get(base + "lite")
            assert status in (200, 301, 302) and (status == 200 or head["Location"] == "/lite/")
            status, _, body = await get(base + "lite/")
            assert b"<title>site</title>" in body
            for path in ["lite/files/", "lite/files", "lite/pypi/", "lite/static/",
                         "lite/../class.sqlite", "lite/%2e%2e/class.sqlite",
                         "lite/..%2fclass.sqlite", "lite/files/..%2f..%2fsecret.txt",
                         "lite/files/out", "lite/.nojekyll",
                         "lite/files/.ipynb_checkpoints/a-checkpoint.ipynb",
                         "lite/nothing.js", "lite/%00", "secret.txt"]:
                status, _, body = await get(base + path)
                assert status == 404, (path, status)
                assert b"teacher" not in body and b"a.ipynb" not in body, path
            # the class's own pages are as they were
            status, head, body = await get(base)
            assert status == 200 and b"courtlearn-boot" in body
            assert "lessons:    http://127.0.0.1:" in server.text()
        finally:
            server.stop()
            await asyncio.sleep(0.05)
            store.close()

    asyncio.run(main())


def test_without_a_site_nothing_is_served_under_lite(tmp_path):
    async def main():
        server, store = serve(tmp_path, None)
        base = f"http://127.0.0.1:{server.port}/"
        try:
            for path in ["lite/", "lite/index.html", "favicon.ico"]:
                assert (await get(base + path))[0] == 404, path
            assert "lessons" not in server.text()
        finally:
            server.stop()
            await asyncio.sleep(0.05)
            store.close()

    asyncio.run(main())


@pytest.mark.parametrize("make", ["missing", "empty", "a file", "no index"])
def test_a_folder_that_is_not_a_built_site_is_refused_before_anything_starts(tmp_path, make):
    import courtlearn as cl
    folder = tmp_path / "site"
    if make == "empty":
        folder.mkdir()
    elif make == "a file":
        folder.write_text("x")
    elif make == "no index":
        site(folder)
        (folder / "index.html").unlink()
    db = tmp_path / "class.sqlite"

    async def main():
        with pytest.raises(ValueError, match="is not a built JupyterLite site .* `make lite`"):
            cl.classroom.open(port=0, host="127.0.0.1", db=db, lite=folder, show=False)
    asyncio.run(main())
    assert not db.exists()                       # no class was made
    proc = subprocess.run([sys.executable, "-m", "courtlearn.classroom.cli", "class", "serve",
                           "--db", str(db), "--port", "0", "--host", "127.0.0.1",
                           "--lite", str(folder)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert "is not a built JupyterLite site" in proc.stderr and "make lite" in proc.stderr
    assert not db.exists()


def test_the_console_script_serves_the_site_and_says_where(tmp_path):
    root = site(tmp_path / "site")
    proc = subprocess.Popen([sys.executable, "-m", "courtlearn.classroom.cli", "class", "serve",
                             "--db", str(tmp_path / "class.sqlite"), "--port", "0", "--host",
                             "127.0.0.1", "--code", CODE, "--lite", str(root)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines, deadline = [], time.monotonic() + 30
        while not lines or not lines[-1].startswith("port: "):
            assert time.monotonic() < deadline and proc.poll() is None, lines
            lines.append(proc.stdout.readline().strip())
        port = int(lines[-1].split()[1])
        assert f"lessons at: http://127.0.0.1:{port}/lite/" in lines
        from classroom_helpers import http_get
        status, head, body = http_get(f"http://127.0.0.1:{port}/lite/lab/")
        assert status == 200 and b"<title>lab</title>" in body
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    assert proc.returncode == 0


def test_the_class_address_is_the_pages_own_when_the_class_serves_the_site():
    page = client.page_class_address
    assert page("http://192.168.1.5:8765/lite/extensions/@jupyterlite/pyodide-kernel-extension"
                "/static/worker.js") == "http://192.168.1.5:8765/"
    assert page("http://class.lan:9000/lite/lab/index.html?path=x.ipynb") == \
        "http://class.lan:9000/"
    assert page("https://hub.example.org/services/courtlearn/lite/build/worker.js") == \
        "https://hub.example.org/services/courtlearn/"
    for elsewhere in ["https://example.github.io/courtlearn/lab/index.html",
                      "http://127.0.0.1:8000/extensions/x/worker.js", "blob:null/1234",
                      "file:///lite/index.html", ""]:
        assert page(elsewhere) is None, elsewhere
    assert page() is None                       # a computer's kernel: no page


def test_join_without_an_address_in_the_site_uses_the_pages_class(monkeypatch):
    """In the browser's kernel with no COURTLEARN_CLASS, ``join(name=..., code=...)`` goes
    to the page's class (here: its address is taken where the request would go)."""
    monkeypatch.delenv(client.ENV, raising=False)
    monkeypatch.setattr(client, "page_class_address", lambda href=None: "http://10.0.0.7:8765/")
    seen = []
    monkeypatch.setattr(client, "_adopt", lambda cls: seen.append(cls) or cls)
    monkeypatch.setattr(client, "_handshake",
                        lambda cls, timeout: (_ for _ in ()).throw(client.ClassRefused("no")))
    monkeypatch.setattr(client._pf(), "update", lambda change: None)
    with pytest.raises(ValueError, match="no"):
        client.join(name="Ali", code="abc234")
    assert seen[0]["address"] == "http://10.0.0.7:8765/" and seen[0]["code"] == "ABC234"
    monkeypatch.setattr(client, "page_class_address", lambda href=None: None)
    with pytest.raises(ValueError, match="COURTLEARN_CLASS"):
        client.join(name="Ali", code="abc234")


def test_a_progress_file_is_written_where_fcntl_has_no_flock(tmp_path, monkeypatch):
    """Pyodide's fcntl has no flock: recording a result there must not raise (it did:
    AttributeError at the first check of a notebook that joined a class)."""
    from courtlearn.puzzles import progress_file
    monkeypatch.setitem(sys.modules, "fcntl", types.ModuleType("fcntl"))
    monkeypatch.setenv("COURTLEARN_PROGRESS", str(tmp_path / "p.json"))
    fd = os.open(tmp_path / "x.lock", os.O_RDWR | os.O_CREAT)
    try:
        progress_file._lock(fd)()
    finally:
        os.close(fd)
    progress_file.update(lambda doc: doc.setdefault("class", {"address": "http://x/"}))
    assert progress_file.load_all()["class"] == {"address": "http://x/"}


@pytest.mark.parametrize("name", ["courtlearn.classroom.lite", "courtlearn.classroom.client"])
def test_docstring_examples(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_the_readme_says_how_to_serve_the_lessons_from_the_class():
    import pathlib

    from courtlearn.classroom.cli import _parser
    readme = (pathlib.Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    part = readme.split("\n## A class\n", 1)[1].split("\n## ", 1)[0]
    for needed in ("courtlearn class serve --lite build/lite", 'lite="build/lite"', "/lite/",
                   'cl.classroom.join(code="ABC234", name="Asha")', "make lite"):
        assert needed in part, needed
    args = _parser().parse_args(["class", "serve", "--lite", "build/lite"])
    assert args.lite == "build/lite"


def test_the_sites_scripts_are_gzipped_once_in_a_thread_never_in_the_loop(tmp_path):
    """Tornado gzipped every script and JSON file of the site in the loop, at every request
    (issue 29: seconds of CPU per learner opening a lesson, every table frozen meanwhile;
    the Chromium test of the site served by the class waited past its time for Pyodide
    behind it). Now the first answer is the file as it is, the loop stays free, and once
    a thread has gzipped it the gzipped copy goes to browsers that take gzip."""
    import gzip
    root = site(tmp_path / "site")
    big = os.urandom(6 << 20).hex().encode()              # 12 MB of script-like text
    (root / "static" / "big.js").write_bytes(b"var x='" + big + b"';\n")
    body_want = (root / "static" / "big.js").read_bytes()

    async def main():
        server, store = serve(tmp_path, root)
        url = f"http://127.0.0.1:{server.port}/lite/static/big.js"
        late = []

        async def ticker(stop):
            while not stop.is_set():
                t = time.perf_counter()
                await asyncio.sleep(0.005)
                late.append(time.perf_counter() - t - 0.005)
        stop = asyncio.Event()
        tick = asyncio.ensure_future(ticker(stop))
        try:
            status, head, body = await get(url, {"Accept-Encoding": "gzip"})
            first_late = max(late)
            assert status == 200 and "Content-Encoding" not in head and body == body_want
            for _ in range(600):                           # the thread gzips it meanwhile
                status, head, body = await get(url, {"Accept-Encoding": "gzip"})
                if head.get("Content-Encoding") == "gzip":
                    break
                await asyncio.sleep(0.1)
            assert head.get("Content-Encoding") == "gzip" and gzip.decompress(body) == body_want
            assert head["Etag"].endswith('-gz"') and head["Vary"] == "Accept-Encoding"
            status, _, body = await get(url, {"Accept-Encoding": "gzip",
                                              "If-None-Match": head["Etag"]})
            assert (status, body) == (304, b"")
            status, head, body = await get(url)            # no gzip asked: the file itself
            assert "Content-Encoding" not in head and body == body_want
            assert first_late < 0.5, f"the loop was held {first_late:.2f} s"
        finally:
            stop.set()
            await tick
            server.stop()
            await asyncio.sleep(0.05)
            store.close()

    asyncio.run(main())
