"""Every error a browser context shows, collected in one place for every browser test.

The listeners sit on the *context*, not on one page: a context's "console" event also
carries what web workers and service workers log (the Pyodide kernel of the browser-only
site runs in a worker, and a page's own "console" event never sees it), and "weberror"
is every uncaught exception of every page in it. Console messages of type "error" and
"assert" (a failed console.assert) count; responses with an HTTP status of 400 or more
are kept too, since a missing file is a broken site. Nothing is ignored: a test asserts
that the list is empty.

>>> errors = PageErrors()            # doctest: +SKIP
>>> errors.watch(context)            # doctest: +SKIP
>>> assert not errors, errors.report()   # doctest: +SKIP
"""
from __future__ import annotations

CONSOLE_TYPES = ("error", "assert")


class PageErrors(list):
    """A list of sentences, one per error seen in the watched browser context."""

    def watch(self, context, *, http: bool = True) -> "PageErrors":
        context.on("console", self._console)
        context.on("weberror", self._uncaught)
        if http:
            context.on("response", self._response)
        return self

    def _uncaught(self, event) -> None:
        """An uncaught exception, with the first lines of its stack (where it was thrown)."""
        stack = (getattr(event.error, "stack", None) or "").strip().splitlines()[1:4]
        where = "".join(f"\n      {line.strip()}" for line in stack)
        self.append(f"uncaught: {event.error}{where}")

    def _console(self, message) -> None:
        if message.type in CONSOLE_TYPES:
            where = message.location.get("url") or "?"
            self.append(f"console.{message.type}: {message.text} ({where})")

    def _response(self, response) -> None:
        if response.status >= 400:
            self.append(f"HTTP {response.status}: {response.url}")

    def report(self, limit: int = 10) -> str:
        shown = "\n  ".join(self[:limit])
        more = f"\n  ... and {len(self) - limit} more" if len(self) > limit else ""
        return f"the browser showed {len(self)} error(s):\n  {shown}{more}"
