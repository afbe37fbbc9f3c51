"""The browser-only site served by the class server: ``courtlearn class serve --lite DIR``.

The built JupyterLite site (``make lite`` -> ``build/lite``) is served under ``lite/`` of
the class's own address (``http://192.168.1.5:8765/lite/``): the same origin as the
class, so a lesson's Python, running in the learner's browser, reaches the class over
plain http on the room's network (``cl.classroom.join(code=..., name=...)`` there needs
no address: :func:`courtlearn.classroom.client.page_class_address`).

Only files: a path never leaves DIR (no ``..``, no link out of it, no hidden file), a
folder gives its ``index.html`` or nothing (no listing), every file its content type
(``.wasm``, ``.whl``, ``.json``, ``.mjs``, ...). Every answer carries an ETag and
``Cache-Control: no-cache``: a browser keeps the files (Pyodide is some 10 MB) and asks
each time whether they changed, so a site rebuilt during the class is seen at once.

Nothing is compressed in the event loop (issue 29: the server's loop only moves bytes).
Tornado's ``compress_response`` gzipped every script and JSON file of the site at every
request, in the loop that serves the tables (some 20 MB of JupyterLab per page: seconds of
CPU per learner opening a lesson, every table frozen meanwhile; on a busy machine the
test that opens a lesson through the class waited past its 180 s for Pyodide, served
behind the gzipping). Now a file is sent as it is the first time, while one thread
gzips it once (``zlib`` leaves the interpreter free meanwhile); from then on the
gzipped copy goes to every browser that takes gzip.
"""
from __future__ import annotations

import concurrent.futures
import gzip
import logging
import os
import pathlib
import threading

import tornado.web

from courtlearn.language import tr

__all__ = ["site_folder", "LiteHandler", "CONTENT_TYPES", "PREFIX"]

PREFIX = "lite/"            # under the server's own prefix
log = logging.getLogger("courtlearn.classroom")
GZIP = {".html", ".js", ".mjs", ".css", ".json", ".ipynb", ".map", ".wasm", ".svg", ".txt",
        ".md", ".py", ".csv", ".webmanifest", ".ico", ".data", ".tar"}
GZIP_MAX = 64 << 20         # bytes of one file gzipped at most
GZIP_CACHE = 256 << 20      # bytes of gzipped copies kept in all
CHUNK = 64 * 1024
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
    ".json": "application/json; charset=utf-8", ".ipynb": "application/json; charset=utf-8",
    ".webmanifest": "application/manifest+json", ".map": "application/json; charset=utf-8",
    ".wasm": "application/wasm", ".whl": "application/octet-stream",
    ".zip": "application/zip", ".tar": "application/x-tar", ".gz": "application/gzip",
    ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon",
    ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
    ".woff": "font/woff", ".woff2": "font/woff2", ".ttf": "font/ttf", ".otf": "font/otf",
    ".eot": "application/vnd.ms-fontobject", ".txt": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8", ".py": "text/x-python; charset=utf-8",
    ".csv": "text/csv; charset=utf-8", ".data": "application/octet-stream",
}


def site_folder(path) -> pathlib.Path:
    """``path`` as the folder of a built JupyterLite site (absolute, links resolved); a
    ValueError with a sentence saying how to make one when it is not.

    >>> site_folder("/nowhere")
    Traceback (most recent call last):
    ...
    ValueError: The folder /nowhere is not a built JupyterLite site (no jupyter-lite.json and index.html in it): build one with `make lite` and give its folder, e.g. --lite build/lite.
    """
    try:
        folder = pathlib.Path(os.fspath(path)).expanduser().resolve()
    except (TypeError, OSError, RuntimeError):
        folder = None
    if folder is None or not ((folder / "jupyter-lite.json").is_file()
                              and (folder / "index.html").is_file()):
        raise ValueError(tr("The folder {path} is not a built JupyterLite site (no "
                            "jupyter-lite.json and index.html in it): build one with `make "
                            "lite` and give its folder, e.g. --lite build/lite.",
                            path=str(path)[:80]))
    return folder


class Gzipped:
    """The site's files gzipped once, by one thread (never in the event loop): ``get(path)``
    is the gzipped copy when it is made and the file has not changed since, else None
    (and the copy is made meanwhile)."""

    def __init__(self):
        self.copies: dict[str, tuple] = {}      # path -> ((mtime_ns, size), gzipped bytes)
        self.pending: set[str] = set()
        self.size = 0
        self.lock = threading.Lock()
        self.pool = None

    def get(self, path: str) -> bytes | None:
        try:
            st = os.stat(path)
        except OSError:
            return None
        key = (st.st_mtime_ns, st.st_size)
        with self.lock:
            got = self.copies.get(path)
            if got is not None and got[0] == key:
                return got[1]
            if path in self.pending or st.st_size > GZIP_MAX:
                return None
            self.pending.add(path)
            if self.pool is None:
                self.pool = concurrent.futures.ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix="courtlearn-gzip")
        self.pool.submit(self._make, path, key)
        return None

    def _make(self, path: str, key) -> None:
        try:
            data = pathlib.Path(path).read_bytes()
            packed = gzip.compress(data, compresslevel=6, mtime=0)
        except OSError:
            packed = None
        except Exception:                      # noqa: BLE001 (sent as it is, then)
            log.exception("could not gzip %s", path)
            packed = None
        with self.lock:
            self.pending.discard(path)
            if packed is None or len(packed) >= key[1] or self.size + len(packed) > GZIP_CACHE:
                return
            old = self.copies.pop(path, None)
            self.size -= len(old[1]) if old else 0
            self.copies[path] = (key, packed)
            self.size += len(packed)


GZIPPED = Gzipped()


class LiteHandler(tornado.web.StaticFileHandler):
    """The site's files (see the module's doc). Arguments: ``path`` (the site's folder,
    from :func:`site_folder`), ``default_filename="index.html"``."""

    _gz: bytes | None = None

    def prepare(self):
        """No gzipping in the loop: the application's gzip transform is left out here
        (a gzipped copy made by :data:`GZIPPED` goes instead, once there is one)."""
        self._transforms = [t for t in self._transforms
                            if not isinstance(t, tornado.web.GZipContentEncoding)]

    async def get(self, path: str, include_body: bool = True) -> None:
        self.path = self.parse_url_path(path)
        absolute = self.get_absolute_path(self.root, self.path)
        self.absolute_path = self.validate_absolute_path(self.root, absolute)
        if self.absolute_path is None:
            return
        if os.path.splitext(self.absolute_path)[1].lower() in GZIP:
            self.set_header("Vary", "Accept-Encoding")
            if "gzip" in self.request.headers.get("Accept-Encoding", "") and \
                    not self.request.headers.get("Range"):
                self._gz = GZIPPED.get(self.absolute_path)
        if self._gz is None:
            return await super().get(path, include_body)
        self.modified = self.get_modified_time()
        self.set_headers()
        if self.should_return_304():
            self.set_status(304)
            return
        self.set_header("Content-Encoding", "gzip")
        self.set_header("Content-Length", len(self._gz))
        self.clear_header("Accept-Ranges")
        if include_body:
            for at in range(0, len(self._gz), CHUNK):
                self.write(self._gz[at:at + CHUNK])
                await self.flush()

    def set_default_headers(self):
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Frame-Options", "SAMEORIGIN")     # JupyterLab frames its own pages
        self.clear_header("Server")

    def parse_url_path(self, url_path: str) -> str:
        """The path asked for, or 404 when a part of it is hidden or climbs (``.nojekyll``,
        a checkpoint, ``..``) or is not a plain name (a NUL, a backslash)."""
        parts = url_path.split("/")
        if any(p.startswith(".") or "\\" in p or "\0" in p for p in parts):
            raise tornado.web.HTTPError(404)
        return super().parse_url_path(url_path)

    def validate_absolute_path(self, root: str, absolute_path: str):
        """A file of the site, or 404: no link leading out of the folder, no folder
        without its index.html."""
        real, real_root = os.path.realpath(absolute_path), os.path.realpath(root)
        if real != real_root and not real.startswith(real_root + os.sep):
            raise tornado.web.HTTPError(404)
        if os.path.isdir(real) and not os.path.isfile(os.path.join(real, "index.html")):
            raise tornado.web.HTTPError(404)                  # no listing, ever
        return super().validate_absolute_path(root, absolute_path)

    def get_content_type(self) -> str:
        suffix = os.path.splitext(self.absolute_path or "")[1].lower()
        return CONTENT_TYPES.get(suffix) or super().get_content_type()

    def compute_etag(self) -> str | None:
        """The file's modification time and size (tornado's own hashes the whole file at
        every request: Pyodide's 10 MB for each learner's page)."""
        if self.absolute_path is None:
            return None
        st = os.stat(self.absolute_path)
        return f'"{st.st_mtime_ns:x}-{st.st_size:x}{"-gz" if self._gz is not None else ""}"'

    def set_extra_headers(self, path):
        self.set_header("Cache-Control", "no-cache")          # kept, asked again (ETag)

    def write_error(self, status_code, **kwargs):
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code}\n")


def routes(prefix: str, folder: pathlib.Path) -> list:
    """The server's routes for the site under ``prefix`` + ``lite/`` (``lite`` alone
    goes to ``lite/``), and the site's icon as ``prefix`` + ``favicon.ico`` (which a
    browser asks of the origin for the site's pages)."""
    import re
    base = re.escape(prefix + PREFIX)
    files = {"path": str(folder), "default_filename": "index.html"}
    return [(re.escape(prefix + PREFIX.rstrip("/")), tornado.web.RedirectHandler,
             {"url": prefix + PREFIX}),
            (base + r"(.*)", LiteHandler, files),
            (re.escape(prefix) + r"(favicon\.ico)", LiteHandler, files)]
