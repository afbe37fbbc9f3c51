"""courtlearn: learn Court Piece (Rang), Double Sir and Dehla Pakad in Jupyter.

>>> import courtlearn as cl
>>> deal = cl.Deal(cl.Rules.double_sir(), dealer=3, seed=7)
>>> deal.call_trump("H")[0].text
'South calls hearts as trumps.'
>>> while deal.phase == "play":
...     events = deal.play(deal.legal_cards()[-1])
>>> deal.result.kind in ("tricks", "court", "goon")
True

``import courtlearn`` loads no third-party package: ``cl.widgets``,
``cl.exercises``, ``cl.play``, ``cl.classroom`` (its server: tornado) and the pandas
views load theirs on first use.
"""
from __future__ import annotations

import importlib

from .cards import Card, CardError, Suit, cards, deck, shuffled
from .deal import Deal, DealResult, IllegalPlay, Phase, Revoke, SeatView, Trick
from .explain import Event
from .language import LANGUAGES, SEATS, get_language, set_language
from .moves import Move
from .steps import play_cards
from .rules import GAMES, TEAM_NAMES, Rules, team_of
from .session import Session, next_dealer
from .solver import PositionTooLarge, Solution, solvable_from, solve

__version__ = "0.1.0"

# the default direction's names, in English: the names a program uses (what a learner
# reads follows set_language)
SEAT_NAMES = SEATS

__all__ = ["Card", "CardError", "Suit", "cards", "deck", "shuffled", "Deal", "DealResult",
           "IllegalPlay", "Phase", "Revoke", "SeatView", "Trick", "Event", "Move", "Rules", "GAMES",
           "TEAM_NAMES", "SEAT_NAMES", "team_of", "Session", "next_dealer", "bots", "hint",
           "simulate", "play", "play_cards", "widgets", "exercises", "solve", "Solution", "PositionTooLarge",
           "solvable_from", "review",
           "puzzles", "classroom", "set_language", "get_language", "LANGUAGES"]


def hint(deal, seat=None, samples=None, seed=0):
    """A suggested card for ``seat`` (default: the seat to play), with the reason and the
    estimated chances of each legal card (see :mod:`courtlearn.bots`). ``samples``
    (default 400; 1 to 10000) and ``seed`` (a whole number or text) set the play-outs:
    the same seed gives the same hint. Wrong ones are refused with a ValueError."""
    from .bots import hint as _hint
    from .coach import check_samples, check_seed
    return _hint(deal, seat, samples=check_samples(samples), seed=check_seed(seed))


def review(deal, seat=0, samples=None, seed=0, **options):
    """A review of ``seat``'s decisions in ``deal``: each choice against the best, by
    the chances the seat could see and, near the end, by exact best play once the deal
    is over (``exact=True``: during the deal too; see :func:`courtlearn.coach.review`
    for ``exact``, ``exact_from`` and ``progress``)."""
    from .coach import review as _review
    return _review(deal, seat, samples=samples, seed=seed, **options)


def simulate(rules, deals=1000, seed=0, bots=None, progress=True):
    """Play ``deals`` deals with bots; a pandas DataFrame with one row per deal."""
    from .frames import simulate as _simulate
    return _simulate(rules, deals=deals, seed=seed, bots=bots, progress=progress)


def play(game="court_piece", seed=None, seat=0, bots=None, **options):
    """A card table with controls, bots at the other seats (needs ipywidgets and anywidget).

    ``options``: ``show_all``, ``size``, ``animate``, and the house rules as keywords of
    :class:`Rules` (``cl.play("double_sir", goon_courts=10)``), refused as Rules refuses
    them."""
    from .widgets import play as _play
    return _play(game, seed=seed, seat=seat, bots=bots, **options)


def __getattr__(name):
    if name in ("bots", "widgets", "exercises", "frames", "render", "puzzles", "classroom"):
        module = importlib.import_module(f".{name}", __name__)
        if name == "widgets":
            # cl.widgets is the card tables: their libraries load here, on first use (the
            # table's logic, courtlearn.widgets.core, imported alone loads neither)
            importlib.import_module(".widgets.table", __name__)
        globals()[name] = module
        return module
    raise AttributeError(f"module 'courtlearn' has no attribute {name!r}")
