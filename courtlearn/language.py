"""The language a learner reads: English (the default), Urdu or Hindi.

Every sentence a learner meets is written in English in the code, marked with
:func:`tr` (or :func:`trn` when it depends on a number), and looked up in a gettext
catalog of the chosen language (``courtlearn/locale/<lang>/LC_MESSAGES/courtlearn.po``,
compiled to ``.mo`` in the wheel). Sentences carry named placeholders (``{seat}``,
``{card}``), so a translation puts each name where its language wants it, and the
names (suits, seats, sides, games) are themselves words of the catalog.

>>> import courtlearn as cl
>>> cl.set_language("hi")
>>> tr("{seat} leads {card}.", seat=seat_word(0), card="K♠")
'दक्षिण ने K♠ से चाल चली।'
>>> with using("ur"):
...     suit_word(0)
'حکم'
>>> cl.set_language("en")
>>> trn("{n} trick", "{n} tricks", 2)
'2 tricks'

The language is chosen by :func:`set_language`, else by the environment variable
``COURTLEARN_LANG``, else English; :func:`using` sets it for one block (a table made
with ``language="ur"`` renders inside it), without touching the others. The variable
takes a code in any case ("ur", "HI") or a locale that names one ("ur_PK", "hi-IN",
"en_US.UTF-8"); empty, it is as if unset. Any other value is warned about once, and
English is spoken: a wrong setting never breaks a call.
"""
from __future__ import annotations

import contextlib
import contextvars
import gettext
import io
import os
import re
import warnings
from importlib import resources

__all__ = ["LANGUAGES", "set_language", "get_language", "language_code", "using", "tr", "trn",
           "N_", "Words", "text_direction", "plural_forms", "list_words", "or_words", "list_separator",
           "arrow", "suit_word", "rank_word", "card_words",
           "seat_word", "team_word", "game_word", "locale_language"]

#: the languages courtlearn speaks, each with its own name for itself
LANGUAGES = {"en": "English", "ur": "اردو", "hi": "हिंदी"}
RIGHT_TO_LEFT = frozenset({"ur"})
DOMAIN = "courtlearn"
ENV = "COURTLEARN_LANG"

_chosen: str | None = None
_from_env: tuple[str | None, str] = (None, "en")   # (COURTLEARN_LANG's value, its language)
_LOCALE = re.compile(r"([a-z]{2,3})(?:[_-][a-z0-9]+)?(?:\.[a-z0-9-]+)?(?:@[a-z0-9]+)?")
_block = contextvars.ContextVar("courtlearn_language", default=None)
_catalogs: dict[str, gettext.NullTranslations] = {}


def language_code(lang) -> str:
    """``lang`` checked: "en", "ur" or "hi" (any case); else a ValueError naming them."""
    return _check(lang, "")


def _check(lang, where: str) -> str:
    if isinstance(lang, str) and lang.strip().lower() in LANGUAGES:
        return lang.strip().lower()
    names = ", ".join(f'"{code}" ({name})' for code, name in LANGUAGES.items())
    raise ValueError(f"{lang!r} is not a language courtlearn speaks{where}: choose {names}.")


def set_language(lang: str) -> None:
    """Every sentence from now on in ``lang``: "en" (English), "ur" (Urdu) or "hi" (Hindi).

    A wrong code is a ValueError that lists the right ones, and the language stays
    as it was. A table made with its own ``language=`` keeps that one.
    """
    global _chosen
    lang = _check(lang, "")
    _catalog(lang)                      # a missing catalog refuses now, not mid-sentence
    _chosen = lang


def get_language() -> str:
    """The language sentences are written in right now (a code of :data:`LANGUAGES`)."""
    return _block.get() or _chosen or _env_language()


def locale_language(value: str) -> str | None:
    """The language a locale names: "ur", "UR", "ur_PK", "hi-IN", "en_US.UTF-8" give "ur",
    "ur", "ur", "hi", "en"; a locale of another language (or no locale) gives None.

    >>> locale_language("ur_PK.UTF-8"), locale_language("fr_FR"), locale_language("C")
    ('ur', None, None)
    """
    found = _LOCALE.fullmatch(value.strip().lower())
    return found.group(1) if found and found.group(1) in LANGUAGES else None


def _env_language() -> str:
    """The language ``COURTLEARN_LANG`` names, English when unset or empty; any other value
    (or a catalog that cannot be read) is warned about once, and English is spoken."""
    global _from_env
    value = os.environ.get(ENV)
    if value == _from_env[0]:
        return _from_env[1]
    _from_env = (value, "en")           # first: a warning made an error (-W error) is raised once
    if value is None or not value.strip():
        return "en"
    lang = locale_language(value)
    shown = repr(value[:20]) + ("…" if len(value) > 20 else "")
    if lang is None:
        names = ", ".join(f'"{code}" ({name})' for code, name in LANGUAGES.items())
        _warn(f"{shown} is not a language courtlearn speaks (the environment variable {ENV}): "
              f"English is used. Choose {names}, or a locale such as ur_PK or hi_IN.")
        return "en"
    try:
        _catalog(lang)
    except Exception as err:            # a catalog that cannot be read: still never breaks
        _warn(f"{ENV}={shown} asks for {LANGUAGES[lang]}, but its catalog cannot be read "
              f"({err}): English is used.")
        return "en"
    _from_env = (value, lang)
    return lang


def _warn(message: str) -> None:
    # English on purpose: it is said only when the language falls back to English
    warnings.warn(message, UserWarning, stacklevel=4)


@contextlib.contextmanager
def using(lang: str | None):
    """Write every sentence inside the ``with`` block in ``lang`` (None: as it is)."""
    token = _block.set(_check(lang, "") if lang is not None else get_language())
    try:
        yield
    finally:
        _block.reset(token)


def text_direction(lang: str | None = None) -> str:
    """"rtl" for Urdu, "ltr" for English and Hindi."""
    return "rtl" if (lang or get_language()) in RIGHT_TO_LEFT else "ltr"


def _catalog(lang: str) -> gettext.NullTranslations:
    cat = _catalogs.get(lang)
    if cat is None:
        cat = _catalogs[lang] = gettext.NullTranslations() if lang == "en" else _load(lang)
    return cat


def _load(lang: str) -> gettext.GNUTranslations:
    """The compiled catalog of the wheel, or (in a source checkout, where nothing compiled
    is kept) the ``.po`` source compiled in memory with Babel."""
    folder = resources.files("courtlearn") / "locale" / lang / "LC_MESSAGES"
    mo = folder / f"{DOMAIN}.mo"
    if mo.is_file():
        return gettext.GNUTranslations(io.BytesIO(mo.read_bytes()))
    po = folder / f"{DOMAIN}.po"
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError:
        raise RuntimeError(f"the {LANGUAGES[lang]} catalog is not compiled in this copy of "
                           f"courtlearn and Babel is not installed to read its source: "
                           f"`pip install babel`, or install courtlearn from its wheel") from None
    with po.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def tr(message: str, /, **names) -> str:
    """``message`` in the current language, its ``{placeholders}`` filled from ``names``."""
    text = _catalog(get_language()).gettext(message)
    return text.format(**names) if names else text


def trn(singular: str, plural: str, n: int, /, **names) -> str:
    """The singular or plural form for ``n`` (as the language counts), ``{n}`` filled in."""
    return _catalog(get_language()).ngettext(singular, plural, n).format(n=n, **names)


def plural_forms(singular: str, plural: str) -> tuple[str, str]:
    """The language's forms for one and for many, their ``{n}`` left to fill (for the
    page, which fills it in JavaScript: both languages, like English, count n != 1 as
    many)."""
    cat = _catalog(get_language())
    return cat.ngettext(singular, plural, 1), cat.ngettext(singular, plural, 2)


def list_separator() -> str:
    """What goes between the items of a list: ", " in English and Hindi, the Urdu comma
    "، " in Urdu (a Latin comma reads as a stray mark in Nastaliq).

    >>> with using("ur"):
    ...     list_separator().join(["A♣", "K♣", "7♥"])
    'A♣، K♣، 7♥'
    """
    return tr(", ")


def list_words(items) -> str:
    """"a", "a and b", "a, b and c", with the language's own comma and "and"."""
    items = [str(x) for x in items]
    if len(items) < 2:
        return "".join(items)
    return tr("{items} and {last}", items=list_separator().join(items[:-1]), last=items[-1])


def or_words(items) -> str:
    """"a", "a or b", "a, b or c", with the language's own comma and "or".

    >>> or_words(["J♣", "7♥", "9♥"])
    'J♣, 7♥ or 9♥'
    >>> with using("ur"):
    ...     or_words(["J♣", "7♥", "9♥"])
    'J♣، 7♥ یا 9♥'
    """
    items = [str(x) for x in items]
    if len(items) < 2:
        return "".join(items)
    return tr("{cards} or {last}", cards=list_separator().join(items[:-1]), last=items[-1])


def arrow(lang: str | None = None) -> str:
    """An arrow that points the way the language reads: "→" in English and Hindi, "←" in
    Urdu (written right to left, "→" would point back at what came first).

    >>> arrow("en"), arrow("ur")
    ('→', '←')
    """
    return "←" if text_direction(lang) == "rtl" else "→"


class Words(dict):
    """A table of messages marked with :func:`N_`, read in the current language:
    ``Words({"a": N_("Court or not?")})["a"]`` is "کوٹ یا نہیں؟" in Urdu."""

    def __getitem__(self, key):
        return tr(super().__getitem__(key))

    def get(self, key, default=None):
        return self[key] if key in self else default

    def values(self):
        return [self[k] for k in self]

    def items(self):
        return [(k, self[k]) for k in self]


def N_(message: str) -> str:
    """Mark a message for the catalog where it is written; translate it where it is read."""
    return message


# The names: written once, here (the seats in the anticlockwise order of play from South)
_SUITS = (N_("spades"), N_("hearts"), N_("clubs"), N_("diamonds"))
_SUIT = (N_("spade"), N_("heart"), N_("club"), N_("diamond"))          # "a spade lead"
SEATS = (N_("South"), N_("East"), N_("North"), N_("West"))
TEAMS = (N_("North–South"), N_("East–West"))
_RANKS = {14: N_("ace"), 13: N_("king"), 12: N_("queen"), 11: N_("jack")}
_GAMES = {"court_piece": N_("Court Piece"), "double_sir": N_("Double Sir"),
          "dehla_pakad": N_("Dehla Pakad")}


def suit_word(suit, *, one: bool = False) -> str:
    """The suit's name as players say it: "spades", "حکم", "हुकुम" (``one``: "spade", as
    in "a spade lead"; the same word where the language has no such form)."""
    return tr((_SUIT if one else _SUITS)[int(suit)])


def rank_word(rank: int) -> str:
    """"ace", "king", "queen", "jack" in the language; other ranks as their number."""
    return tr(_RANKS[rank]) if rank in _RANKS else str(rank)


def card_words(card) -> str:
    """A card as said aloud, for screen readers: "king of spades", "بادشاہ حکم کا"."""
    return tr("{rank} of {suit}", rank=rank_word(card.rank), suit=suit_word(card.suit))


def seat_word(name) -> str:
    """A seat's name ("South", or seat 0 in the anticlockwise order) in the language."""
    if isinstance(name, int):
        name = SEATS[name]
    if name not in SEATS:
        raise ValueError(f"{name!r} is not a seat: the seats are {', '.join(SEATS)}.")
    return tr(name)


def team_word(team: int) -> str:
    """"North–South" or "East–West" in the language."""
    return tr(TEAMS[team])


def game_word(game: str) -> str:
    """"Court Piece", "Double Sir" or "Dehla Pakad" in the language."""
    return tr(_GAMES[game])
