"""The learners of a class and their seat tokens (a part of the room, see room.py).

A :class:`Learner` is a name, the hash of their seat token (the token itself is shown only
to them, once), a seat or none, and the pages they have open. :func:`clean_name` checks a
name (shown as text, never as markup, never imitating the pages' own words), :func:`new_code`
and :func:`check_code` make and check a class code, and :class:`Refusal` is the sentence a
learner's request is turned down with. :class:`Learners` is the room's side of it:
registering, a page coming back with its token (``hello``), the bounds on learners per
class and pages per learner, a removed learner let back or joining again as themselves.

>>> clean_name("  Asha   Khan "), looks_like_a_label("Asha (away)")
('Asha Khan', True)
>>> len(new_code()), check_code(" abc234 ")
(6, 'ABC234')
"""
from __future__ import annotations

import hmac
import re
import secrets
import unicodedata
from typing import TYPE_CHECKING

from courtlearn.language import tr, using

from .store import token_hash

if TYPE_CHECKING:
    from .tables import Table

__all__ = ["Refusal", "Learner", "Learners", "new_code", "check_code", "clean_name",
           "looks_like_a_label", "NAME_MAX", "MAX_LEARNERS", "MAX_SOCKETS"]

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I: read out in a classroom
CODE_LENGTH = 6
NAME_MAX = 40
MAX_LEARNERS = 500      # learners in a class (removed ones do not count); the teacher raises it
MAX_SOCKETS = 4         # pages open at once per learner: a fifth closes the oldest


class Refusal(ValueError):
    """A learner's request the room turns down (the sentence goes back to them).
    ``extra`` fields go along in the refusal (``rejoin=True``: the page's token is not
    known, it should show the join form)."""

    def __init__(self, reason: str, **extra):
        super().__init__(reason)
        self.extra = extra


def new_code(rng=None) -> str:
    """A fresh class code: six characters a teacher can read out (no 0/O, no 1/I)."""
    pick = rng.choice if rng is not None else secrets.choice
    return "".join(pick(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def clean_name(name) -> str:
    """A learner's name as it will be shown (as text, never as markup): trimmed, one line,
    1 to 40 characters, no control characters; else a Refusal saying so."""
    if not isinstance(name, str):
        raise Refusal(tr("Type your name to join."))
    name = " ".join(name.split())
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C")
    if not name:
        raise Refusal(tr("Type your name to join."))
    if len(name) > NAME_MAX:
        raise Refusal(tr("A name has at most {n} characters.", n=NAME_MAX))
    if looks_like_a_label(name):
        raise Refusal(tr("A name cannot look like the page's own words (such as Bot, away or "
                         "you) nor end in brackets: choose another."))
    return name


_LABELS: tuple | None = None
ENDS_IN_BRACKETS = re.compile(r".*[(\[{（［].*[)\]}）］]\W*")


def _fold(text: str) -> str:
    return " ".join(text.casefold().split()).strip(" .,:;!?-_*'\"")


def looks_like_a_label(name: str) -> bool:
    """Whether a name could pass for the pages' own words where a name goes: a part in
    brackets at its end (the pages add "(away)", "(a bot plays for now)" after a name),
    one of the words
    themselves ("Bot", "you", "away", in every language) or a hidden name's alias
    ("Learner 3").

    >>> [looks_like_a_label(n) for n in ("Asha", "Bot", "  a   BOT ", "Asha (away)", "Learner 12")]
    [False, True, True, True, True]
    """
    global _LABELS
    if _LABELS is None:
        words, aliases = set(), []
        for lang in ("en", "ur", "hi"):
            with using(lang):
                for w in (tr("Bot"), tr("bot"), tr("a bot"), tr("you"), tr("here"), tr("away"),
                          tr("a bot plays"), tr("a bot plays for now")):
                    words.add(_fold(w))
                alias = _fold(tr("Learner {n}", n=7))
                aliases.append(re.compile(re.escape(alias).replace("7", r"[0-9٠-٩۰-۹०-९]+")))
        _LABELS = (words, aliases)
    if ENDS_IN_BRACKETS.fullmatch(name):
        return True
    folded = _fold(name)
    return folded in _LABELS[0] or any(a.fullmatch(folded) for a in _LABELS[1])


def check_code(code) -> str:
    if not isinstance(code, str) or not re.fullmatch(r"[A-Za-z0-9]{4,16}", code.strip()):
        raise ValueError(f"a class code is 4 to 16 letters and digits; got {str(code)[:20]!r}")
    return code.strip().upper()


class Learner:
    """A learner of the class: a name, a token (only its hash is kept), a seat or none."""

    __slots__ = ("id", "name", "token_hash", "hub_user", "conns", "table", "seat", "removed")

    def __init__(self, id: int, name: str, token_hash: str, hub_user=None):
        self.id = id
        self.name = name
        self.token_hash = token_hash
        self.hub_user = hub_user
        self.conns: list = []
        self.table: Table | None = None
        self.seat: int | None = None
        self.removed = False

    @property
    def connected(self) -> bool:
        return bool(self.conns)

    def __repr__(self) -> str:
        where = f" at table {self.table.number + 1} seat {self.seat}" if self.table else ""
        return f"<Learner {self.id} {self.name!r}{where}{'' if self.conns else ', away'}>"


class Learners:
    """The room's learners: who joins, with which token, how many (a part of
    :class:`~courtlearn.classroom.room.Room`, whose ``learners``, ``_by_hash``, ``store``
    and sending it uses)."""

    def check_code(self, code) -> bool:
        """Whether ``code`` is this class's code (compared in constant time; any case)."""
        if not isinstance(code, str) or len(code) > 32:
            return False
        return hmac.compare_digest(code.strip().upper().encode(), self.code.encode())

    def register(self, name, hub_user=None) -> tuple[Learner, str]:
        """A new learner: returns the Learner and their seat token (shown only to them)."""
        with using(self.language):
            name = clean_name(name)
            if self.learner_count() >= self.max_learners:
                raise Refusal(tr("The class is full ({n} learners): ask the teacher to make "
                                 "room.", n=self.max_learners))
        token = secrets.token_urlsafe(32)
        h = token_hash(token)
        old = None if hub_user is not None else self._removed_named(name)
        if old is not None:                   # the same learner again (results identity)
            return self._come_back(old, h), token
        lid = self.store.add_learner(self.code, h, name, hub_user)
        lr = Learner(lid, name, h, hub_user)
        self.learners[lid] = lr
        self._by_hash[h] = lr
        return lr, token

    def learner_count(self) -> int:
        """Learners of the class (not the removed ones): those whose seat token works,
        counted without a walk over every learner (each join asks; a walk made a flood of
        4,000 joins quadratic, issue 29)."""
        return len(self._by_hash)

    @property
    def max_learners(self) -> int:
        """How many learners the class takes (MAX_LEARNERS unless the teacher raised it):
        a flood of joins stops there."""
        return int(self.settings.get("max_learners", MAX_LEARNERS))

    def set_max_learners(self, n: int) -> None:
        """Let the class take ``n`` learners (1..100000; kept in the class file)."""
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 100_000:
            raise ValueError(f"max_learners is a whole number 1..100000; got {str(n)[:20]!r}")
        self._set("max_learners", n)
        self._done()

    def let_back(self, learner) -> None:
        """A removed learner may join again (their page's seat token works again; on a
        JupyterHub, their next page load joins them)."""
        lr = self._learner(learner)
        if not lr.removed:
            return
        lr.removed = False
        self._by_hash[lr.token_hash] = lr
        self.store.readmit_learner(lr.id)
        self._done()

    def learner_for(self, token) -> Learner | None:
        if not isinstance(token, str) or not 20 <= len(token) <= 100:
            return None
        return self._by_hash.get(token_hash(token))

    def hello(self, conn, code=None, name=None, token=None) -> Learner:
        """A page says hello: with the class code and a name (first visit: registers and
        sends the token once) or with its token (returning: same seat, same hand).
        Refusal when neither holds."""
        with using(self.language):
            fresh_token = None
            if token is not None:
                lr = self.learner_for(token)
                if lr is None:
                    raise Refusal(tr("This page's seat is no longer known to the class: join "
                                     "again with the class code."), rejoin=True)
            else:
                if not self.check_code(code):
                    raise Refusal(tr("That is not the class code."))
                lr, fresh_token = self.register(name)
            self._attach(conn, lr)
            welcome = {"type": "welcome", "name": lr.name, "learner": lr.id, "code": self.code}
            if fresh_token is not None:
                welcome["token"] = fresh_token
            self._send(conn, welcome)
            if lr.table is None:
                self._lobby_conns.append(conn)
                self._send(conn, self._lobby_json())
            else:
                self._seated(conn, lr)
                self._arrived(lr.table, lr.seat, conn)
        self._done()
        return lr

    def _attach(self, conn, lr: Learner) -> None:
        old = getattr(conn, "learner", None)
        if old is not None and old is not lr:
            self.disconnect(conn)
        conn.learner = lr
        if conn not in lr.conns:
            while len(lr.conns) >= MAX_SOCKETS:      # the oldest page gives way
                gone = lr.conns.pop(0)
                gone.learner = None
                if gone in self._lobby_conns:
                    self._lobby_conns.remove(gone)
                try:
                    gone.close(4409, "this learner opened more pages")
                except Exception:
                    pass
            lr.conns.append(conn)

    def _removed_named(self, name: str) -> Learner | None:
        """The latest removed learner (not a hub user) of that name, if any: one who
        joins again with the same name is them again (issue 32: the rejoined learner had
        an empty results row while their answers stayed under the old one, and counted).
        No walk at all while nobody is removed (every join asks)."""
        if len(self.learners) == len(self._by_hash):
            return None
        for lid in reversed(list(self.learners)):
            lr = self.learners[lid]
            if lr.removed and lr.name == name and lr.hub_user is None:
                return lr
        return None

    def _come_back(self, lr: Learner, new_hash: str) -> Learner:
        """A removed learner joins again: a new seat token, the same learner (their
        results row, their quiz answers, their number while names are hidden)."""
        self._by_hash.pop(lr.token_hash, None)
        lr.token_hash, lr.removed = new_hash, False
        self._by_hash[new_hash] = lr
        self.store.renew_learner(lr.id, new_hash)
        return lr

    def _learner(self, learner) -> Learner:
        if isinstance(learner, Learner):
            return learner
        if isinstance(learner, int) and learner in self.learners:
            return self.learners[learner]
        found = [lr for lr in self.learners.values() if lr.name == learner and not lr.removed]
        if len(found) == 1:
            return found[0]
        raise ValueError(f"no single learner {str(learner)[:40]!r} in the class "
                         f"({len(found)} found)")
