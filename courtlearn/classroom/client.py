"""A learner's notebook in a class: ``cl.classroom.join(address, name)``.

From then on every exercise check (``q.check(answer)``) and every puzzle try
(``p.check(line)``, the puzzle table) goes to the class server as a *result*
(:mod:`courtlearn.classroom.grading`): the item, the answer, how long the learner had
the question. The checks only publish their results (:mod:`courtlearn.publish`, which
loads this module at the first one); this module listens. The server judges it again and stores it; the teacher sees it
(``room.results()``, the dashboard). Worked answers (``cl.exercises.worked(...)``,
``cl.puzzles.worked(...)``) and checks under ``COURTLEARN_STRICT=1`` are never sent.

Nothing waits for the network: a result is first written to the learner's progress file
(:mod:`courtlearn.puzzles.progress_file`, under its lock), then sent by a thread of its
own; when the class cannot be reached it stays there and goes with the next check, the
next :func:`join` or :func:`flush`, after a kernel restart too. Each result has its own
id, so a result sent twice is stored once. The class the notebook joined is kept in the
same file, so after a restart the checks still go to it (:func:`leave` ends that).

Joining: ``join("http://192.168.1.5:8765/?code=ABC234", "Ali")`` (the address the teacher
shows; the code in it or as ``code=``), or with no address the ``COURTLEARN_CLASS``
environment variable (e.g. ``http://192.168.1.5:8765/?code=ABC234&name=Ali``; when it is
set, checks join by themselves). On a JupyterHub whose class server is the hub's service
(an address under the hub's ``/services/``, given by ``COURTLEARN_CLASS`` in the spawner's
environment or on the hub's public address), the notebook joins by its hub identity: no
code, no name; its server's API token (``JUPYTERHUB_API_TOKEN``) goes only there.

In the browser-only site (Python in the page, no sockets) requests go as synchronous
XMLHttpRequests from the kernel's worker, and results are sent at each check (no
thread). When the class server itself serves the site (``courtlearn class serve --lite``:
under ``lite/`` of its address), the class's address is the page's own: a learner types
the class code and their name only, ``cl.classroom.join(code="ABC234", name="Ali")``.
"""
from __future__ import annotations

import json
import os
import sys
import threading
import time
import uuid
from urllib.parse import parse_qs, urlsplit

from courtlearn.language import tr

__all__ = ["join", "leave", "status", "flush", "my_results", "Membership", "ENV"]

ENV = "COURTLEARN_CLASS"
TIMEOUT = 5.0               # seconds a request to the class may take
BATCH = 100                 # results in one request (the server's MAX_BATCH)
BATCH_BYTES = 128 * 1024    # bytes of one request at most (the server takes 256 KB)
MAX_PENDING = 5000          # results kept waiting at most (said once when full)
LONGEST_WAIT = 60.0         # seconds between tries at a class that cannot be reached

_send_lock = threading.Lock()        # one sender at a time in this process
_thread_lock = threading.Lock()
_thread: threading.Thread | None = None
_wake = threading.Event()
_first_try: dict[str, float] = {}    # item -> when this process first sent a try of it
_state = {"env_adopted": None, "refused": [], "error": None, "said": set()}


class ClassUnreachable(OSError):
    """The class server did not answer (the network, a stopped server)."""


# ----------------------------------------------------------------------------- addresses
def parse_address(address) -> tuple[str, str | None, str | None]:
    """(the class's base address, the code in it, the name in it) of what the teacher
    shows, e.g. ``http://192.168.1.5:8765/?code=ABC234``; a ValueError saying how to write
    it otherwise.

    >>> parse_address("192.168.1.5:8765/?code=abc234&name=Ali")
    ('http://192.168.1.5:8765/', 'ABC234', 'Ali')
    """
    if not isinstance(address, str) or not address.strip() or len(address) > 2000:
        raise ValueError(tr("The class's address is what the teacher shows, like "
                            "'http://192.168.1.5:8765/'; got {value!r}.",
                            value=str(address)[:60]))
    text = address.strip()
    if "://" not in text:
        text = "http://" + text
    u = urlsplit(text)
    if u.scheme not in ("http", "https") or not u.hostname:
        raise ValueError(tr("The class's address is what the teacher shows, like "
                            "'http://192.168.1.5:8765/'; got {value!r}.", value=address[:60]))
    query = parse_qs(u.query)
    code = (query.get("code") or [None])[0]
    name = (query.get("name") or [None])[0]
    path = u.path if u.path.endswith("/") else u.path + "/"
    return f"{u.scheme}://{u.netloc}{path}", (code.strip().upper() if code else None), name


def page_class_address(href=None) -> str | None:
    """The class's address when this Python runs in the browser-only site served by the
    class server itself (``courtlearn class serve --lite``: the site under ``lite/`` of
    the class's address, same origin): the address before the site's ``lite/``. None
    elsewhere (a computer's kernel, the site served from anywhere else). ``href``: the
    page's (the kernel's worker's) address; None reads it from the browser.

    >>> page_class_address("http://192.168.1.5:8765/lite/extensions/x/worker.js")
    'http://192.168.1.5:8765/'
    >>> page_class_address("https://example.github.io/courtlearn/lab/index.html") is None
    True
    """
    if href is None:
        if sys.platform != "emscripten":
            return None
        try:
            from js import location  # type: ignore
            href = str(location.href)
        except Exception:                                # noqa: BLE001 (no page)
            return None
    u = urlsplit(str(href))
    at = u.path.rfind("/lite/")
    if u.scheme not in ("http", "https") or not u.netloc or at < 0:
        return None
    return f"{u.scheme}://{u.netloc}{u.path[:at + 1]}"


def _origin(url: str) -> str:
    u = urlsplit(url)
    return f"{u.scheme}://{u.netloc}".lower()


def hub_token(base: str, environ=None) -> str | None:
    """The kernel's JupyterHub API token when ``base`` is the hub's class service: the
    address ``COURTLEARN_CLASS`` names (the hub's admin sets it in the spawner's
    environment), or one under the hub's ``/services/`` on the hub's public address. None
    elsewhere: the token opens the learner's own Jupyter server and goes nowhere else."""
    env = os.environ if environ is None else environ
    token, user = env.get("JUPYTERHUB_API_TOKEN"), env.get("JUPYTERHUB_USER")
    if not token or not user:
        return None
    if env.get(ENV):
        try:
            if parse_address(env[ENV])[0] == base:
                return token
        except ValueError:
            pass
    services = "/" + (env.get("JUPYTERHUB_BASE_URL") or "/").strip("/") + "/"
    services = services.replace("//", "/") + "services/"
    origins = {_origin(env[k]) for k in ("JUPYTERHUB_PUBLIC_URL", "JUPYTERHUB_PUBLIC_HUB_URL")
               if env.get(k)}
    if _origin(base) in origins and urlsplit(base).path.startswith(services):
        return token
    return None


def _key(cls: dict) -> str:
    return f"{cls['address']}#{cls.get('code') or 'hub'}"


# ----------------------------------------------------------------------------- HTTP
def _request(method: str, url: str, body=None, headers=None, timeout: float = TIMEOUT):
    """(status, JSON reply) of one request; ClassUnreachable when there is no answer."""
    data = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
    head = {"Accept": "application/json", **(headers or {})}
    if data is not None:
        head["Content-Type"] = "application/json"
    if sys.platform == "emscripten":                 # the browser's kernel: its own fetch
        return _request_in_browser(method, url, data, head, timeout)
    import urllib.error
    import urllib.request
    req = urllib.request.Request(url, data=data, headers=head, method=method)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            status, raw = r.status, r.read(1 << 22)
    except urllib.error.HTTPError as err:
        status, raw = err.code, err.read(1 << 16)
    except (OSError, ValueError) as err:             # refused, unreachable, timed out
        raise ClassUnreachable(str(err)[:200]) from None
    try:
        reply = json.loads(raw.decode("utf-8")) if raw else {}
    except ValueError:
        reply = {}
    return status, reply if isinstance(reply, dict) else {}


def _request_in_browser(method, url, data, head, timeout):
    """A synchronous XMLHttpRequest (the in-browser kernel runs in a worker, where that is
    allowed): the page's own origin when the class server serves the site (--lite)."""
    try:
        from js import XMLHttpRequest  # type: ignore
        xhr = XMLHttpRequest.new()
        xhr.open(method, url, False)
        xhr.timeout = int(timeout * 1000)
        for k, v in head.items():
            xhr.setRequestHeader(k, v)
        xhr.send(None if data is None else data.decode("utf-8"))
        status, text = int(xhr.status), str(xhr.responseText or "")
    except Exception as err:                          # noqa: BLE001 (no answer)
        raise ClassUnreachable(str(err)[:200]) from None
    if status == 0:
        raise ClassUnreachable("no answer")
    try:
        reply = json.loads(text) if text else {}
    except ValueError:
        reply = {}
    return status, reply if isinstance(reply, dict) else {}


def _auth(cls: dict) -> dict:
    if cls.get("hub"):
        token = hub_token(cls["address"])
        return {"Authorization": f"token {token}"} if token else {}
    return {"Authorization": f"token {cls['token']}"} if cls.get("token") else {}


class ClassRefused(ValueError):
    """The class server turned the notebook down for good (a wrong code, a bad name)."""


def _handshake(cls: dict, timeout: float) -> dict:
    """``cls`` joined: the server confirms its token (or hub identity), or registers the
    learner anew with the code and name. Returns the class record, completed."""
    url = cls["address"] + "api/join"
    if cls.get("hub"):
        status, reply = _request("POST", url, {}, _auth(cls), timeout)
    else:
        status, reply = 401, {}
        if cls.get("token"):
            status, reply = _request("POST", url, {"token": cls["token"]}, None, timeout)
        if status == 401:                   # no token, or one the class does not know
            status, reply = _request("POST", url, {"code": cls.get("code"),
                                                   "name": cls.get("name")}, None, timeout)
    if status == 200 and isinstance(reply.get("learner"), int):
        out = dict(cls, learner=reply["learner"], name=reply.get("name", cls.get("name")))
        if isinstance(reply.get("token"), str):
            out["token"] = reply["token"]
        return out
    if status in (400, 401, 403):
        raise ClassRefused(str(reply.get("reason") or tr("The class refused to let this "
                                                         "notebook join.")))
    raise ClassUnreachable(f"HTTP {status}")


# ----------------------------------------------------------------------------- the file
def _pf():
    from courtlearn.puzzles import progress_file
    return progress_file


def _class_record() -> dict | None:
    """The class the notebook joined (the progress file's), or the one COURTLEARN_CLASS
    names (adopted once per process: checks join by themselves)."""
    cls = _pf().load_all().get("class")
    env = os.environ.get(ENV)
    if env and _state["env_adopted"] != env:
        _state["env_adopted"] = env
        try:
            wanted = _record_for(env, None, None)
        except ValueError:
            wanted = None
        if wanted is not None and (cls is None or _key(cls) != _key(wanted)):
            cls = _adopt(wanted)
    if isinstance(cls, dict) and isinstance(cls.get("address"), str):
        return cls
    return None


def _record_for(address, name, code) -> dict:
    """A class record (not yet joined) for ``address``; ValueError when the code or the
    name it needs is missing."""
    base, qcode, qname = parse_address(address)
    code = str(code).strip().upper() if code is not None else qcode
    name = name if name is not None else qname
    if hub_token(base) is not None:
        return {"address": base, "code": code, "name": None, "hub": True}
    if not code:
        raise ValueError(tr("Give the class code too: cl.classroom.join(\"{address}\", "
                            "\"your name\", code=\"...\") (the teacher shows it).",
                            address=base))
    if name is None:
        name = os.environ.get("JUPYTERHUB_USER")
    if not isinstance(name, str) or not " ".join(name.split()):
        raise ValueError(tr("Give your name: cl.classroom.join(\"{address}\", \"your name\").",
                            address=base))
    name = " ".join(name.split())
    if len(name) > 40:
        raise ValueError(tr("A name has at most {n} characters.", n=40))
    return {"address": base, "code": code, "name": name, "hub": False}


def _adopt(cls: dict) -> dict:
    """Make ``cls`` the file's class; the same class and name as before keep their token."""
    def change(doc):
        old = doc.get("class")
        new = dict(cls)
        if isinstance(old, dict) and _key(old) == _key(new) and (
                new.get("hub") or old.get("name") == new.get("name")):
            new["token"], new["learner"] = old.get("token"), old.get("learner")
            if new.get("hub"):
                new["name"] = old.get("name")
        doc["class"] = new
        return new
    return _pf().update(change)


def _save_class(cls: dict) -> None:
    def change(doc):
        old = doc.get("class")
        if isinstance(old, dict) and _key(old) == _key(cls):
            doc["class"] = cls
    _pf().update(change)


def _pending(cls: dict) -> list[dict]:
    key = _key(cls)
    return [r for r in _pf().load_all().get("pending", []) if r.get("class") == key]


def _queue(result: dict) -> None:
    def change(doc):
        pending = doc.setdefault("pending", [])
        if len(pending) >= MAX_PENDING:
            return False
        pending.append(result)
        return True
    if not _pf().update(change):
        _say_once("full", tr("{n} results already wait for the class; later ones are not "
                             "kept until they have gone.", n=MAX_PENDING))


def _forget(ids) -> None:
    ids = set(ids)
    if not ids:
        return

    def change(doc):
        doc["pending"] = [r for r in doc.get("pending", []) if r.get("id") not in ids]
    _pf().update(change)


def _say_once(key: str, text: str) -> None:
    if key not in _state["said"]:
        _state["said"].add(key)
        print(text)


# ----------------------------------------------------------------------------- sending
def _send_all(timeout: float = TIMEOUT) -> bool:
    """Join if need be, then send every result waiting for the class; True when none is
    left waiting (or there is no class), False when the class could not be reached."""
    with _send_lock:
        cls = _class_record()
        if cls is None:
            return True
        try:
            if cls.get("learner") is None:
                cls = _handshake(cls, timeout)
                _save_class(cls)
            rejoined = False
            while True:
                pending = _pending(cls)
                if not pending:
                    break
                body = {"results": _batch(pending)}
                status, reply = _request("POST", cls["address"] + "api/results", body,
                                         _auth(cls), timeout)
                if status == 401 and not rejoined:   # not (or no longer) known: join again
                    rejoined = True
                    cls = _handshake(dict(cls, token=None, learner=None), timeout)
                    _save_class(cls)
                    continue
                if status != 200 and not (status == 400 and "refused" in reply):
                    raise ClassUnreachable(f"HTTP {status}: {str(reply.get('reason'))[:100]}")
                refused = [r for r in reply.get("refused", []) if isinstance(r, dict)]
                done = [i for i in reply.get("stored", []) if isinstance(i, str)]
                done += [r.get("id") for r in refused]
                _forget(done)
                _state["refused"] = (_state["refused"] + [
                    (r.get("id"), str(r.get("reason"))[:200]) for r in refused])[-20:]
                if not done:                   # only failures: the server's, try later
                    raise ClassUnreachable("the class could not store the results")
        except ClassRefused as err:
            _state["error"] = str(err)
            return False
        except ClassUnreachable as err:
            _state["error"] = str(err)
            return False
        _state["error"] = None
        return True


def _batch(pending: list[dict]) -> list[dict]:
    """The first waiting results to send in one request: at most :data:`BATCH`, and
    :data:`BATCH_BYTES` of JSON (always one at least: a result is far smaller)."""
    out, size = [], 0
    for r in pending[:BATCH]:
        r = {k: v for k, v in r.items() if k != "class"}
        size += len(json.dumps(r, ensure_ascii=False).encode("utf-8")) + 2
        if out and size > BATCH_BYTES:
            break
        out.append(r)
    return out


def _run() -> None:
    """The sender thread: waits to be woken (a new result), sends, and tries again later
    (2 s, doubling to a minute) while the class cannot be reached."""
    delay = None
    while True:
        _wake.wait(delay)
        _wake.clear()
        try:
            ok = _send_all()
        except Exception:                               # noqa: BLE001 (never dies)
            ok = False
        delay = None if ok else min(LONGEST_WAIT, 2.0 if delay is None else delay * 2)


def _wake_sender() -> None:
    global _thread
    if sys.platform == "emscripten":                    # no threads there: send now
        _send_all(timeout=3.0)
        return
    with _thread_lock:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_run, name="courtlearn-class", daemon=True)
            _thread.start()
    _wake.set()


def _report(kind: str, item: str, answer, seconds, ref=None) -> None:
    cls = _class_record()
    if cls is None:
        return
    result = {"id": uuid.uuid4().hex, "class": _key(cls), "kind": kind, "item": item,
              "answer": answer, "at": round(time.time(), 3)}
    if seconds is not None:
        result["seconds"] = round(max(0.0, seconds), 1)
    if ref is not None:
        result["ref"] = ref
    _queue(result)
    _wake_sender()


def _on_checked(checked) -> None:
    """The listener of every published check (courtlearn/publish.py): an exercise check or
    a puzzle try goes to the class, when the notebook joined one."""
    if checked.kind not in ("exercise", "puzzle") or not _joined_anything():
        return
    seconds = checked.seconds
    if checked.kind == "puzzle" and seconds is None:   # since this process's first try of it
        now = time.monotonic()
        seconds = now - _first_try.setdefault(checked.item, now)
    _report(checked.kind, checked.item, checked.answer, seconds, ref=checked.ref)


def _joined_anything() -> bool:
    """Cheap: whether a class may be joined at all (the file names one, or the variable)."""
    return bool(os.environ.get(ENV)) or _pf().load_all().get("class") is not None


from courtlearn import publish as _publish  # noqa: E402 (the checks reach the class so)

_publish.subscribe(_on_checked)


# ----------------------------------------------------------------------------- the learner's calls
class Membership:
    """The class this notebook joined, as the progress file keeps it: ``address``,
    ``code``, ``name``, ``learner`` (their number in the class, once the class answered),
    ``pending`` (results waiting to be sent), ``error`` (why the last sending failed)."""

    def __init__(self, cls: dict, pending: int, error: str | None, refused: list):
        self.address = cls.get("address")
        self.code = cls.get("code")
        self.name = cls.get("name")
        self.hub = bool(cls.get("hub"))
        self.learner = cls.get("learner")
        self.pending = pending
        self.error = error
        self.refused = list(refused)

    @property
    def joined(self) -> bool:
        """Whether the class has answered this notebook (it knows the learner)."""
        return self.learner is not None

    def __str__(self) -> str:
        where = self.code or self.address
        if self.joined:
            head = tr("You are in the class {code} as {name}: your checks and puzzle tries go "
                      "to it.", code=where, name=self.name)
        else:
            head = tr("The class {code} at {address} has not been reached yet; your checks "
                      "and puzzle tries wait in your progress file and go when it can.",
                      code=where, address=self.address)
        if self.pending:
            head += " " + tr("Results waiting to be sent: {n}.", n=self.pending)
        if self.error and self.pending:
            head += " " + tr("(Last try: {error})", error=self.error)
        return head

    def __repr__(self) -> str:
        return f"<Membership {self.code or self.address} learner={self.learner} " \
               f"pending={self.pending}>"

    def _repr_html_(self) -> str:
        import html
        return f"<p class='courtlearn-membership'>{html.escape(str(self))}</p>"


def _membership() -> Membership | None:
    cls = _class_record()
    if cls is None:
        return None
    return Membership(cls, len(_pending(cls)), _state["error"], _state["refused"])


def join(address: str | None = None, name: str | None = None, *, code: str | None = None,
         timeout: float = TIMEOUT) -> Membership:
    """Join the class at ``address`` (what the teacher shows; None: the ``COURTLEARN_CLASS``
    variable, or in the browser-only site the class server serves, the page's own class:
    ``join(name="Ali", code="ABC234")``) as ``name``, with ``code`` (or the ``?code=`` in
    the address). From then on
    every check and puzzle try of this notebook goes to the class (see the module's doc).
    Joining the same class under the same name again (a restarted kernel) is the same
    learner. When the class cannot be reached now, it is joined as soon as it can be; the
    results wait. A wrong code or name is a ValueError with the class's sentence.

    Returns the :class:`Membership` (shown as a sentence)."""
    if address is None:
        address = os.environ.get(ENV) or page_class_address()
        if not address:
            raise ValueError(tr("Give the class's address: cl.classroom.join(\"http://…:8765/\","
                                " \"your name\") (the teacher shows it), or set "
                                "COURTLEARN_CLASS."))
    cls = _adopt(_record_for(address, name, code))
    with _send_lock:
        try:
            cls = _handshake(cls, timeout)
            _save_class(cls)
        except ClassRefused as err:
            def drop(doc):
                if isinstance(doc.get("class"), dict) and _key(doc["class"]) == _key(cls):
                    doc.pop("class")
            _pf().update(drop)
            raise ValueError(str(err)) from None
        except ClassUnreachable as err:
            _state["error"] = str(err)
    _send_all(timeout)
    return _membership()


def leave() -> None:
    """This notebook's checks stop going to the class. Results that could not be sent yet
    stay in the progress file, and go if the notebook joins that class again."""
    def change(doc):
        doc.pop("class", None)
    _pf().update(change)
    _state["env_adopted"] = os.environ.get(ENV)     # the variable does not join it again


def status() -> Membership | None:
    """The class this notebook joined (None: none), with the results still waiting."""
    return _membership()


def flush(timeout: float = TIMEOUT) -> Membership | None:
    """Send every waiting result now (waiting for the answer); returns :func:`status`."""
    _send_all(timeout)
    return _membership()


def my_results():
    """Your own results in the class, as the class judged them (a pandas DataFrame, one row
    per item: tries, first_right, solved, seconds, first, last). Results still waiting to
    be sent are not in it (:func:`status` counts them)."""
    import pandas as pd

    from .grading import RESULT_COLUMNS
    _send_all()
    cls = _class_record()
    if cls is None or cls.get("learner") is None:
        raise ValueError(tr("Join a class first: cl.classroom.join(\"http://…:8765/\", "
                            "\"your name\")."))
    try:
        status_code, reply = _request("GET", cls["address"] + "api/results", None,
                                      _auth(cls))
    except ClassUnreachable as err:
        raise ConnectionError(tr("The class cannot be reached now ({error}).",
                                 error=err)) from None
    if status_code != 200:
        raise ConnectionError(str(reply.get("reason") or f"HTTP {status_code}"))
    frame = pd.DataFrame(reply.get("results", []), columns=RESULT_COLUMNS)
    for col in ("first", "last"):
        frame[col] = pd.to_datetime(frame[col], utc=True)
    return frame
