"""The saved forms of a deal: a JSON-compatible dict and a short text for lessons.

Both keep only what makes a deal: the rules, the dealer, the seed, each seat's 13
cards in dealing order and the actions taken. Reading one back replays the actions
through the engine, so a saved deal can never hold a state the rules forbid.
:class:`courtlearn.Deal` offers these as ``to_dict`` / ``from_dict`` /
``to_notation`` / ``from_notation``.

>>> import courtlearn as cl
>>> deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
>>> _ = deal.apply("call:S 10S")
>>> print(to_notation(deal).splitlines()[-1])
moves: call:S 10S
>>> from_notation(to_notation(deal)) == deal == from_dict(to_dict(deal))
True
>>> from_notation("rules: court piece\\ndealer: 9")
Traceback (most recent call last):
...
ValueError: the notation lacks its 'hand 0' line.
"""
from __future__ import annotations

import json

from .cards import Card, quoted
from .language import tr
from .rules import Rules

__all__ = ["to_dict", "from_dict", "to_notation", "from_notation", "moves_text"]

FORMAT = "courtlearn.deal/1"
_KEYS = ("rules", "dealer", "seed", "hand 0", "hand 1", "hand 2", "hand 3", "moves")


def _deal_class(cls):
    if cls is None:
        from .deal import Deal
        return Deal
    return cls


def to_dict(deal) -> dict:
    """A JSON-compatible dict that :func:`from_dict` turns back into this very deal."""
    return {
        "format": FORMAT,
        "rules": deal.rules.to_dict(),
        "dealer": deal.dealer,
        "seed": deal.seed,
        "hands": [[c.code for c in deal._order[s]] for s in range(4)],
        "actions": deal.actions,
    }


def from_dict(d: dict, cls=None):
    """The deal saved by :func:`to_dict`; raises ValueError (only) on anything malformed."""
    try:
        if not isinstance(d, dict):
            raise ValueError(f"a saved deal is a dict, got {type(d).__name__}.")
        fmt = d.get("format")
        if fmt not in (FORMAT, None):
            raise ValueError(f"unknown saved-deal format {quoted(fmt)!r}.")
        missing = [k for k in ("rules", "dealer", "seed", "hands", "actions") if k not in d]
        if missing:
            raise ValueError(f"the saved deal lacks {', '.join(missing)}.")
        rules = Rules.from_dict(d["rules"])
        hands = d["hands"]
        if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
            raise ValueError("hands must be four lists of 13 card codes.")
        for h in hands:
            for c in h:
                if not isinstance(c, str):
                    raise ValueError(f"card codes must be text, got {quoted(c)!r}.")
        seed = d["seed"]
        if seed is None or isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise ValueError(f"seed must be an int or a str, got {quoted(seed)!r}.")
        deal = _deal_class(cls).prearranged(rules, hands, dealer=d["dealer"], seed=seed)
        actions = d["actions"]
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise ValueError("actions must be a list of move tokens (text).")
        for token in actions:
            deal._apply(token)
        return deal
    except ValueError as e:
        raise ValueError(f"Not a valid saved deal: {quoted(str(e), 300)}") from None
    except Exception as e:  # anything else malformed is still a ValueError for the caller
        raise ValueError(f"Not a valid saved deal: {type(e).__name__}: "
                         f"{quoted(str(e), 200)}") from None


def to_notation(deal) -> str:
    """The short text form of a deal, for pasting into a lesson.

    Lines ``key: value``: ``rules`` (game and changed options), ``dealer``,
    ``seed``, ``hand 0`` .. ``hand 3`` (each seat's 13 cards in dealing
    order: five, four, four) and ``moves`` (a trump call ``call:S``, a trump
    card ``choose:7S``, ``defer`` or ``defer:7``, cards played like ``AS``,
    ``ask``, ``correct``, ``claim:1``, ``play_on``; ``|`` between tricks is
    only for the eye). Lines starting with ``#`` are comments.
    """
    # a text seed is written in double quotes (JSON), so "12" or " x" reads back as text
    seed = json.dumps(deal.seed, ensure_ascii=False) if isinstance(deal.seed, str) else deal.seed
    lines = ["# courtlearn deal", f"rules: {deal.rules.to_text()}",
             f"dealer: {deal.dealer}", f"seed: {seed}"]
    for s in range(4):
        o = deal._order[s]
        lines.append(f"hand {s}: " + " ".join(c.code for c in o[:5]) + " | "
                     + " ".join(c.code for c in o[5:9]) + " | "
                     + " ".join(c.code for c in o[9:]))
    lines.append("moves: " + moves_text(deal))
    return "\n".join(lines) + "\n"


def moves_text(deal) -> str:
    """The deal's actions as tokens, with ``|`` after each action that completed a trick
    (except the last one of the deal)."""
    d = deal._fresh()
    out = []
    for token in deal._action_list():
        before = len(d.tricks)
        d._apply(token)
        out.append(token.code if token.__class__ is Card else token)
        if len(d.tricks) > before and not d.over:
            out.append("|")
    return " ".join(out)


def _read_seed(seed_text: str | None):
    if not seed_text:
        return None
    if seed_text.startswith('"'):           # a quoted text seed, as to_notation writes it
        try:
            seed = json.loads(seed_text)
        except ValueError:
            seed = None
        if not isinstance(seed, str):
            raise ValueError(tr('seed {seed} is not readable: write a whole number, or text in '
                                'double quotes like "lesson 4".', seed=quoted(seed_text)))
        return seed
    digits = seed_text[1:] if seed_text[:1] == "-" else seed_text
    if digits.isdecimal():
        if len(digits) > 400:               # refused by the deal, before Python's own limit
            return seed_text
        return int(seed_text)
    return seed_text                        # hand-written: bare text is a text seed


def from_notation(text: str, cls=None):
    """The deal written by :func:`to_notation` (ValueError saying what is wrong)."""
    if not isinstance(text, str):
        raise ValueError(tr("notation is text, got {kind}.", kind=type(text).__name__))
    fields: dict[str, str] = {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        key = " ".join(key.lower().split())
        if not sep or key not in _KEYS:
            raise ValueError(tr("line {n} ({line!r}) is not understood: lines are 'rules: ...', "
                                "'dealer: N', 'seed: N', 'hand 0: ...' to 'hand 3: ...' and "
                                "'moves: ...'.", n=n, line=quoted(raw.strip())))
        if key in fields:
            raise ValueError(tr("line {n}: {key!r} is given twice.", n=n, key=quoted(key)))
        fields[key] = value.strip()
    for key in ("rules", "dealer", "hand 0", "hand 1", "hand 2", "hand 3"):
        if key not in fields:
            raise ValueError(tr("the notation lacks its {key!r} line.", key=key))
    rules = Rules.from_text(fields["rules"])
    if not (fields["dealer"].isdecimal() and len(fields["dealer"]) <= 3):
        raise ValueError(tr("dealer must be a seat number 0..3, got {dealer!r}.",
                            dealer=quoted(fields["dealer"])))
    seed = _read_seed(fields.get("seed"))
    hands = [fields[f"hand {s}"].replace("|", " ") for s in range(4)]
    deal = _deal_class(cls).prearranged(rules, hands, dealer=int(fields["dealer"]), seed=seed)
    for token in fields.get("moves", "").replace("|", " ").split():
        try:
            deal._apply(token)
        except ValueError as e:
            raise ValueError(tr("move {move!r} cannot be made: {reason}", move=quoted(token),
                                reason=quoted(str(e), 300))) from None
    return deal
