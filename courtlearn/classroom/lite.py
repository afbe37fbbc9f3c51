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
"""
from __future__ import annotations

import os
import pathlib

import tornado.web

from courtlearn.language import tr

__all__ = ["site_folder", "LiteHandler", "CONTENT_TYPES", "PREFIX"]

PREFIX = "lite/"            # under the server's own prefix
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


class LiteHandler(tornado.web.StaticFileHandler):
    """The site's files (see the module's doc). Arguments: ``path`` (the site's folder,
    from :func:`site_folder`), ``default_filename="index.html"``."""

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
        return f'"{st.st_mtime_ns:x}-{st.st_size:x}"'

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
