"""Rules as data: one frozen dataclass, a preset per game, checked options.

Every option of RULES.md is a field. The presets differ only in ``game``;
a teacher overrides any option by keyword:

>>> Rules.double_sir(goon_courts=10)
Rules.double_sir(goon_courts=10)
>>> Rules.court_piece().trump_method
'called'
>>> Rules.court_piece(tens_tie="tricks")
Traceback (most recent call last):
...
ValueError: tens_tie applies only to dehla_pakad; in court_piece it keeps its default 'non_dealers' (the only value accepted there).

Seats are numbered 0..3 in the order of play; the direction only changes
their names:

>>> [Rules.court_piece().seat_name(s) for s in range(4)]
['South', 'East', 'North', 'West']
>>> [Rules.court_piece(direction="clockwise").seat_name(s) for s in range(4)]
['South', 'West', 'North', 'East']
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields

from .cards import _whole, quoted
from .language import SEATS, TEAMS, game_word, seat_word, team_word, tr

__all__ = ["Rules", "GAMES", "OPTIONS", "team_of", "TEAM_NAMES", "check_seat"]

GAMES = ("court_piece", "double_sir", "dehla_pakad")
PILE_GAMES = ("double_sir", "dehla_pakad")

# option -> (accepted values, games it applies to (None: all))
OPTIONS: dict[str, tuple[tuple, tuple | None]] = {
    "direction": (("anticlockwise", "clockwise"), None),
    "trump_method": (("called", "shown", "hidden", "hidden_random", "first_void"), None),
    "allow_deferred": ((False, True), None),
    "deferred_card": (("next", "random", "numbered"), None),
    "revokes": (("prevented", "allowed"), None),
    "first_two_capture": ((True, False), PILE_GAMES),
    "aces_capture": ((True, False), PILE_GAMES),
    "goon_courts": ((3, 10), ("double_sir",)),
    "tens_tie": (("non_dealers", "tricks"), ("dehla_pakad",)),
    "stop_when_decided": ((True, False), None),
}

_SEATS = {"anticlockwise": SEATS, "clockwise": (SEATS[0], SEATS[3], SEATS[2], SEATS[1])}
TEAM_NAMES = TEAMS


def _refuse_unknown(options, allowed) -> None:
    """A wrong option name is a ValueError that lists the accepted names."""
    unknown = [k for k in options if k not in allowed]
    if unknown:
        names = ", ".join(repr(quoted(k)) for k in unknown[:3]) + (", …" if len(unknown) > 3 else "")
        raise ValueError(tr("{names} is not a rules option; the options are {options}.",
                            names=names, options=", ".join(allowed)))


def check_seat(seat) -> int:
    """``seat`` as a plain int 0..3 (numpy's ints too); a ValueError for anything else.

    >>> check_seat(2)
    2
    >>> check_seat(True)
    Traceback (most recent call last):
    ...
    ValueError: a seat is a number 0..3 in the order of play, got True.
    """
    n = _whole(seat)
    if n is None or not 0 <= n <= 3:
        raise ValueError(f"a seat is a number 0..3 in the order of play, got {quoted(seat)!r}.")
    return n


def team_of(seat: int) -> int:
    """Team 0 is seats 0 and 2; team 1 is seats 1 and 3."""
    return seat & 1


@dataclass(frozen=True)
class Rules:
    """The rules of one game with its house options (see RULES.md).

    Make one with a preset (:meth:`court_piece`, :meth:`double_sir`,
    :meth:`dehla_pakad`) and keyword overrides. A wrong option name or value,
    or a non-default value of an option that does not apply to the game,
    raises ValueError listing what is accepted.
    """

    game: str = "court_piece"
    direction: str = "anticlockwise"
    trump_method: str = "called"
    allow_deferred: bool = False
    deferred_card: str = "next"
    revokes: str = "prevented"
    first_two_capture: bool = True
    aces_capture: bool = True
    goon_courts: int = 3
    tens_tie: str = "non_dealers"
    stop_when_decided: bool = True

    def __post_init__(self):
        if self.game not in GAMES:
            raise ValueError(tr("game {game!r} is not known; the games are {games}.",
                                game=quoted(self.game), games=", ".join(GAMES)))
        for name, (values, games) in OPTIONS.items():
            value = getattr(self, name)
            ok = any(type(value) is type(v) and value == v for v in values)
            if not ok:
                raise ValueError(tr("{name}={value!r} is not accepted; {name} takes {values}.",
                                    name=name, value=quoted(value),
                                    values=tr(" or ").join(repr(v) for v in values)))
            if games is not None and self.game not in games and value != _DEFAULTS[name]:
                raise ValueError(tr("{name} applies only to {games}; in {game} it keeps its "
                                    "default {default!r} (the only value accepted there).",
                                    name=name, games=tr(" and ").join(games), game=self.game,
                                    default=_DEFAULTS[name]))
        if self.allow_deferred and self.trump_method in ("hidden_random", "first_void"):
            raise ValueError(tr("allow_deferred=True needs a trump caller who chooses from five "
                                "cards; with trump_method={method!r} nobody does. Use trump_method "
                                "'called', 'shown' or 'hidden'.", method=self.trump_method))

    # -- presets -----------------------------------------------------------
    @classmethod
    def _preset(cls, game: str, options: dict) -> "Rules":
        _refuse_unknown(options, OPTIONS)       # the game comes from the preset's name
        return cls(game=game, **options)

    @classmethod
    def court_piece(cls, **options) -> "Rules":
        """Court Piece (Rang): tricks go straight to the winner's team."""
        return cls._preset("court_piece", options)

    @classmethod
    def double_sir(cls, **options) -> "Rules":
        """Double Sir (Double Sar): tricks pile up in the centre."""
        return cls._preset("double_sir", options)

    @classmethod
    def dehla_pakad(cls, **options) -> "Rules":
        """Dehla Pakad: the tens decide."""
        return cls._preset("dehla_pakad", options)

    @classmethod
    def of(cls, game: "str | Rules", **options) -> "Rules":
        """Rules from a game name (or Rules, with overrides)."""
        if isinstance(game, Rules):
            return game.replace(**options) if options else game
        if game not in GAMES:
            raise ValueError(tr("game {game!r} is not known; the games are {games}.",
                                game=quoted(game), games=", ".join(GAMES)))
        return cls._preset(game, options)

    def replace(self, **options) -> "Rules":
        """A copy with some options changed (checked like the presets, by ``__init__``)."""
        return dataclasses.replace(self, **options)

    # -- derived -----------------------------------------------------------
    @property
    def has_pile(self) -> bool:
        """Double Sir and Dehla Pakad put tricks in the centre pile."""
        return self.game in PILE_GAMES

    @property
    def title(self) -> str:
        """The game's name in the current language: "Court Piece", "کورٹ پیس"."""
        return game_word(self.game)

    def seat_name(self, seat: int) -> str:
        """South, East, North, West (anticlockwise) or South, West, North, East (clockwise),
        in the current language (see :func:`courtlearn.set_language`)."""
        if seat.__class__ is not int or not 0 <= seat <= 3:
            seat = check_seat(seat)
        return seat_word(_SEATS[self.direction][seat])

    def seat_names(self) -> tuple[str, str, str, str]:
        return tuple(seat_word(name) for name in _SEATS[self.direction])

    @staticmethod
    def team_name(team: int) -> str:
        """"North–South" or "East–West", in the current language."""
        number = _whole(team)
        if number not in (0, 1):
            raise ValueError(f"a team is 0 (seats 0 and 2) or 1 (seats 1 and 3), "
                             f"got {quoted(team)!r}.")
        return team_word(number)

    def options(self) -> dict:
        """The options that differ from the defaults."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name != "game" and getattr(self, f.name) != f.default}

    def to_dict(self) -> dict:
        return {"game": self.game, **self.options()}

    @classmethod
    def from_dict(cls, d: dict) -> "Rules":
        if not isinstance(d, dict) or "game" not in d:
            raise ValueError(f"rules must be a dict with a 'game': got {quoted(d)!r}.")
        d = dict(d)
        return cls.of(d.pop("game"), **d)

    def to_text(self) -> str:
        """``double_sir goon_courts=10`` (the notation's rules line)."""
        parts = [self.game] + [f"{k}={_fmt(v)}" for k, v in self.options().items()]
        return " ".join(parts)

    @classmethod
    def from_text(cls, text: str) -> "Rules":
        """Parse :meth:`to_text`'s form."""
        if not isinstance(text, str):
            raise ValueError(f"the rules line is text like 'double_sir goon_courts=10', "
                             f"got {quoted(text)!r}.")
        words = text.split()
        if not words:
            raise ValueError("the rules line is empty; write a game name like court_piece, "
                             "then options like goon_courts=10.")
        game, opts = words[0], {}
        for w in words[1:]:
            if "=" not in w:
                raise ValueError(f"rules option {quoted(w)!r} should look like name=value, "
                                 f"e.g. goon_courts=10.")
            k, v = w.split("=", 1)
            opts[k] = _unfmt(v)
        return cls.of(game, **opts)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options().items())
        return f"Rules.{self.game}({opts})"


_DEFAULTS = {f.name: f.default for f in fields(Rules)}
_dataclass_init = Rules.__init__


def _checked_init(self, *args, **options):
    """``Rules(game=..., option=...)`` called directly (and ``replace``): a wrong option
    name is a ValueError listing the options, not the TypeError of a plain dataclass."""
    _refuse_unknown(options, ("game", *OPTIONS))
    _dataclass_init(self, *args, **options)


Rules.__init__ = _checked_init


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _unfmt(v: str):
    low = v.lower()
    if low in ("true", "false"):
        return low == "true"
    if v.isascii() and v.isdigit() and len(v) <= 9:     # a longer number is no option's value
        return int(v)
    return v
