"""The class server's bounds (issue 29): every byte from a socket is hostile, so every
resource a stranger can make the server spend has a limit, and none of the limits can be
turned against the learners who share an address with the stranger (a school's NAT, the
https proxy).

- :class:`TokenBucket`: ``rate`` a second, ``burst`` at once (messages, joins, requests).
- :class:`Guard`: guessing the class code, per address, without locking out the address:
  a number of wrong tries are free, then one every few seconds; a right try costs nothing;
  tries queued while the address has none left are checked in turn, each under the delay
  in force when it is checked.
- :class:`Hosts`: the ``Host`` a request may name (DNS rebinding): the server's own names
  and addresses, IP literals, names only a local network answers for (``.local``,
  ``.lan``, ``.home.arpa``, ``.internal``, a name without a dot), and the names the
  teacher configured (``--host-name``, the hosts of ``--origin``).
- :func:`client_address`: the address limits are counted for: the peer's, or the one a
  proxy the teacher named (``--proxy``) forwarded.
- :class:`QuietLog`: at most one log line per kind of failure a minute (the count of the
  others is said with the next one), so a flood of failures cannot flood the log.

>>> b = TokenBucket(rate=1, burst=2, clock=lambda: 0.0)
>>> [b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)]
[True, True, False, True]
>>> h = Hosts(names=["class.example.org"])
>>> [h.allowed(x) for x in ("127.0.0.1:8765", "class.lan:8765", "[::1]:80",
...                          "class.example.org", "evil.example:8765", "")]
[True, True, True, True, False, False]
"""
from __future__ import annotations

import asyncio
import collections
import ipaddress
import logging
import socket
import time

__all__ = ["TokenBucket", "Guard", "Hosts", "client_address", "QuietLog", "LOCAL_SUFFIXES",
           "raise_file_limit"]


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; :meth:`take` spends one."""

    __slots__ = ("rate", "burst", "tokens", "at")

    def __init__(self, rate: float = 20.0, burst: int = 40, clock=time.monotonic):
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.at = clock()

    def fill(self, now: float) -> float:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        return self.tokens

    def take(self, now: float) -> bool:
        if self.fill(now) >= 1:
            self.tokens -= 1
            return True
        return False


class Guard:
    """Slows guessing of a secret (the class code, the teacher's token) per address
    without locking the address out.

    Each address holds ``free`` wrong tries, and gets one more back every ``every``
    seconds (a token bucket of wrong tries). A try is checked at once while its address
    has one left; a right try gives it back. Once they are spent, the address's tries
    wait in turn (first come, first checked) and each is checked when a try comes back:
    the delay in force then, not the one when it was queued. So eight typos behind a
    school's one address cost its learners nothing, while a guesser gets ``free`` tries
    and then one every ``every`` seconds (at 2 s: 43,200 a day, against about a billion
    class codes). ``most``: tries waiting per address; more are refused at once.

    >>> g = Guard(free=2, every=10)
    >>> [g.wait("a", 0.0) for _ in range(1)], g.take("a", 0.0), g.take("a", 0.0)
    ([0.0], True, True)
    >>> g.take("a", 0.0), round(g.wait("a", 0.0), 3)
    (False, 10.0)
    >>> g.result("a", True, 0.0); g.take("a", 0.0)     # a right try gave its try back
    True
    """

    def __init__(self, free: int = 30, every: float = 2.0, most: int = 500,
                 clock=time.monotonic):
        self.free, self.every, self.most = free, every, most
        self.clock = clock
        self.buckets: dict[str, TokenBucket] = {}
        self.queues: dict[str, collections.deque] = {}
        self.timers: dict = {}

    def _bucket(self, address: str, now: float) -> TokenBucket:
        b = self.buckets.get(address)
        if b is None:
            if len(self.buckets) > 20000:           # forget addresses whose tries are all back
                self.buckets = {a: x for a, x in self.buckets.items()
                                if x.fill(now) < x.burst or a in self.queues}
            b = self.buckets[address] = TokenBucket(1.0 / self.every, self.free, lambda: now)
        return b

    def wait(self, address: str, now: float) -> float:
        """Seconds until ``address`` has a try again (0: now), not counting its queue."""
        b = self._bucket(address, now)
        return max(0.0, (1 - b.fill(now)) / b.rate)

    def take(self, address: str, now: float) -> bool:
        """Reserve a try now if the address has one (give it back with ``result(ok=True)``)."""
        return self._bucket(address, now).take(now)

    def result(self, address: str, ok: bool, now: float) -> None:
        """The try was right (its try comes back) or wrong (it stays spent)."""
        if ok:
            b = self._bucket(address, now)
            b.tokens = min(b.burst, b.fill(now) + 1)
            if self.queues.get(address):
                self._arm(address, 0.0)

    async def turn(self, address: str) -> bool:
        """Wait for this try's turn (a try reserved; False: too many tries are waiting from
        this address, refuse it now)."""
        q = self.queues.get(address)
        if not q and self.take(address, self.clock()):
            return True
        if q is None:
            q = self.queues[address] = collections.deque()
        if len(q) >= self.most:
            return False
        fut = asyncio.get_running_loop().create_future()
        q.append(fut)
        self._arm(address, self.wait(address, self.clock()))
        try:
            await fut
        except asyncio.CancelledError:
            if not fut.done() or fut.cancelled():
                try:
                    q.remove(fut)
                except ValueError:
                    pass
            elif fut.result() is True:                  # granted, then cancelled: give it back
                self.result(address, True, self.clock())
            if not q:
                self.queues.pop(address, None)
            raise
        return True

    def _arm(self, address: str, delay: float) -> None:
        old = self.timers.get(address)
        if old is not None:
            if delay > 0:
                return
            old.cancel()
        loop = asyncio.get_running_loop()
        self.timers[address] = loop.call_later(delay, self._wake, address)

    def _wake(self, address: str) -> None:
        self.timers.pop(address, None)
        q = self.queues.get(address)
        now = self.clock()
        while q:
            head = q[0]
            if head.done():
                q.popleft()
                continue
            if not self.take(address, now):
                break
            q.popleft()
            head.set_result(True)
        if q:
            self._arm(address, max(0.001, self.wait(address, now)))
        else:
            self.queues.pop(address, None)


# ----------------------------------------------------------------------------- Host
# names that only the local network's own resolver answers for: a page elsewhere cannot
# have its name point at the class (RFC 6762 .local, RFC 8375 .home.arpa, ICANN's
# .internal, and the suffixes home routers hand out); a name without a dot likewise
LOCAL_SUFFIXES = (".local", ".lan", ".home", ".home.arpa", ".internal", ".localdomain",
                  ".localhost", ".intranet", ".test")


def host_name(host: str) -> str:
    """A Host header's name, lowercased, without port or IPv6 brackets.

    >>> host_name("Class.LAN:8765"), host_name("[::1]:80"), host_name("10.0.0.5")
    ('class.lan', '::1', '10.0.0.5')
    """
    host = (host or "").strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else ""
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


class Hosts:
    """Which ``Host`` a request to the class may name (against DNS rebinding: a page of
    ``evil.example`` whose name was made to point at the class's address would otherwise
    be the page's "own" origin). Allowed: an IP address, ``localhost`` and names under
    :data:`LOCAL_SUFFIXES` or without a dot, this machine's own names, ``names`` (the
    teacher's ``--host-name``) and the host of each configured origin."""

    def __init__(self, names=(), origins=()):
        from urllib.parse import urlparse
        self.names = {host_name(n) for n in names if n}
        self.names |= {host_name(urlparse(o).netloc) for o in origins if o}
        self.names |= own_names()
        self.names.discard("")

    def allowed(self, host: str) -> bool:
        name = host_name(host)
        if not name:
            return False
        if name in self.names or name == "localhost":
            return True
        try:
            ipaddress.ip_address(name)
            return True
        except ValueError:
            pass
        if "." not in name:
            return True
        return name.endswith(LOCAL_SUFFIXES)


def own_names() -> set[str]:
    """This machine's host names (what a learner may type instead of its address)."""
    out = set()
    try:
        out.add(socket.gethostname().lower())
        out.add(socket.getfqdn().lower())
    except OSError:
        pass
    return {n.rstrip(".") for n in out if n}


# ----------------------------------------------------------------------------- addresses
def client_address(request, proxies) -> str:
    """The address a request's limits are counted for: the peer's, unless the peer is one
    of the ``proxies`` the teacher named: then the last address of its
    ``X-Forwarded-For`` (the one that proxy added: what it saw; the entries before it are
    the client's own word), else ``X-Real-IP``. One proxy in front, as the README sets it
    up."""
    peer = request.remote_ip or "?"
    if not proxies or peer not in proxies:
        return peer
    forwarded = [p.strip() for p in request.headers.get("X-Forwarded-For", "").split(",")]
    if forwarded and forwarded[-1]:
        return _address(forwarded[-1]) or peer
    real = request.headers.get("X-Real-IP", "").strip()
    return _address(real) or peer


def _address(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None


def proxy_addresses(names) -> set[str]:
    """The addresses of the proxies the teacher named (addresses or host names)."""
    out = set()
    for n in names or ():
        a = _address(n)
        if a is not None:
            out.add(a)
            continue
        try:
            out |= {i[4][0] for i in socket.getaddrinfo(n, None)}
        except OSError:
            raise ValueError(f"--proxy names the proxy in front of the class (an address such "
                             f"as 127.0.0.1, or a host name); {n[:60]!r} is neither") from None
    return out


# ----------------------------------------------------------------------------- logging
class QuietLog(logging.Filter):
    """A logging filter: at most one record per kind (logger, message, exception type)
    every ``period`` seconds; the next one says how many were left out. Put on the
    loggers that a stranger can make write (tornado's, asyncio's, the class's)."""

    def __init__(self, period: float = 60.0, clock=time.monotonic):
        super().__init__()
        self.period, self.clock = period, clock
        self.seen: dict = {}

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""
        key = (record.name, str(record.msg)[:200], exc)
        now = self.clock()
        entry = self.seen.get(key)
        if entry is not None and now - entry[0] < self.period:
            entry[1] += 1
            return False
        if len(self.seen) > 1000:
            self.seen = {k: v for k, v in self.seen.items() if now - v[0] < self.period}
        dropped = entry[1] if entry is not None else 0
        self.seen[key] = [now, 0]
        if dropped:
            record.msg = f"{record.msg} (and {dropped} more like it in the last minute)"
        return True


QUIET = QuietLog()
LOGGERS = ("tornado.application", "tornado.general", "tornado.access", "tornado.websocket",
           "asyncio", "courtlearn.classroom")


def quiet_logs() -> None:
    """Put the one :class:`QuietLog` on every logger a stranger can make write."""
    for name in LOGGERS:
        lg = logging.getLogger(name)
        if QUIET not in lg.filters:
            lg.addFilter(QUIET)


def raise_file_limit(most: int = 65536) -> int:
    """Raise this process's open-file limit to its hard limit (at most ``most``): each
    socket is a file. Returns the limit now in force."""
    try:
        import resource
    except ImportError:                      # not on this system: leave it
        return 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else most
    want = min(want, most)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else most
