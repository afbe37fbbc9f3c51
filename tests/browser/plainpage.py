"""A page holding only the card table (tests/browser/plain_page/), served from 127.0.0.1
by a small HTTP server in a thread: the page, the widget's own static files as they ship,
and named fixtures (snapshots from Python) as JSON.

>>> with PlainPage({"south": {"state": CardTable(deal).state}}) as site:   # doctest: +SKIP
...     page.goto(site.url("south"))
"""
from __future__ import annotations

import json
import mimetypes
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

HERE = Path(__file__).resolve().parent
PAGE = HERE / "plain_page"
STATIC = HERE.parents[1] / "courtlearn" / "widgets" / "static"
FONT_URLS = {"Noto Nastaliq Urdu": "/static/fonts/NotoNastaliqUrdu-arabic-400.woff2",
             "Noto Sans Devanagari": "/static/fonts/NotoSansDevanagari-devanagari-400.woff2"}


class PlainPage:
    """Serve the plain page with `fixtures` ({name: {"state": ..., "fonts": {...}, ...}})
    and the widget's files from `static` (the package's own by default)."""

    def __init__(self, fixtures: dict, static: Path | None = None):
        self.static = Path(static or STATIC).resolve()
        self.fixtures = {name: json.dumps(body, ensure_ascii=False).encode()
                         for name, body in fixtures.items()}
        self.server = None
        self.thread = None

    def url(self, fixture: str) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/?fixture={fixture}"

    def _file(self, path: str) -> Path | None:
        if path in ("/", "/index.html"):
            return PAGE / "index.html"
        if path == "/model.js":
            return PAGE / "model.js"
        if path.startswith("/static/"):
            f = (self.static / path[len("/static/"):]).resolve()
            if self.static in f.parents and f.is_file():
                return f
        return None

    def __enter__(self) -> "PlainPage":
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                path = unquote(urlsplit(self.path).path)
                body, kind = None, None
                if path.startswith("/fixtures/") and path.endswith(".json"):
                    body = site.fixtures.get(path[len("/fixtures/"):-len(".json")])
                    kind = "application/json"
                else:
                    f = site._file(path)
                    if f is not None:
                        body = f.read_bytes()
                        kind = "text/javascript" if f.suffix in (".js", ".mjs") else \
                            (mimetypes.guess_type(f.name)[0] or "application/octet-stream")
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                if kind.startswith("text") or kind.endswith("json"):
                    kind += "; charset=utf-8"
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):      # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)
