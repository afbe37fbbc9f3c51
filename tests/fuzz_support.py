"""Shared pieces of the fuzz and no-leak harness (issue 23): the rules to cover, random
legal moves, bad arguments, the checks every step makes, and the soak's step count.

Used by tests/test_fuzz.py (a stateful test per game and rules option) and
tests/test_noleak.py (pairs of deals one seat cannot tell apart). The numbers of
examples come from :func:`budget`: small under the "ci" and "dev" profiles, large
under "soak" (``make fuzz``). ``python tests/fuzz_support.py steps FILE`` sums the
step counts the soak appended to FILE; ``python tests/fuzz_support.py replay LOG [N]``
replays the N-th failure of tests/test_fuzz.py printed in a pytest log, step by step.
"""
from __future__ import annotations

import contextlib
import json
import os
import pickle
import re
import sys

from hypothesis import Phase, settings, strategies as st

import courtlearn as cl
from courtlearn import bots
from courtlearn.language import using

GAMES = ("court_piece", "double_sir", "dehla_pakad")
DECK = list(cl.deck())
CODES = [c.code for c in DECK]
SUITS = list(cl.Suit)
CARD_CODE = re.compile(r"^(10|[2-9JQKA])[SHCD]$")
MAX_MESSAGE = 600           # no refusal a learner reads is longer than this (bad input is quoted short)
SOLVE_TRICKS = 5            # cl.solve is called where at most this many tricks are left (and,
                            # for Court Piece with DDS, where more than 8 are: DDS answers at once)
SAMPLES = 12                # play-outs of hints and reviews in the harness (the default is 400)


# ----------------------------------------------------------------------------- budgets
def soaking() -> bool:
    """Whether the "soak" profile is loaded (``make fuzz``)."""
    return settings.get_current_profile_name() == "soak"


def budget(ci: int, soak: int) -> int:
    return soak if soaking() else ci


def fuzz_settings(ci: int, soak: int, **options) -> settings:
    """Settings over the loaded profile: ``ci`` examples (``soak`` under "soak"), and
    with COURTLEARN_FUZZ_NO_SHRINK=1 no shrinking (a quick look for failures)."""
    if os.environ.get("COURTLEARN_FUZZ_NO_SHRINK"):
        options["phases"] = [Phase.explicit, Phase.reuse, Phase.generate, Phase.target]
    return settings(max_examples=budget(ci, soak), **options)


_STATS: dict = {}


def count(name: str, n: int = 1) -> None:
    """Count ``n`` steps (or checks) of kind ``name`` (reported by the soak)."""
    _STATS[name] = _STATS.get(name, 0) + n


def flush_stats() -> None:
    """Append the counts so far to $COURTLEARN_FUZZ_STATS (one JSON line), then reset them."""
    path = os.environ.get("COURTLEARN_FUZZ_STATS")
    if path and _STATS:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(_STATS, sort_keys=True) + "\n")
    _STATS.clear()


# ----------------------------------------------------------------------------- the rules
def _rules_for(game: str) -> list:
    """Option sets for ``game`` such that every value of every option that applies to it
    appears, most of them next to revokes="allowed" and each trump method."""
    sets = [
        {},
        {"revokes": "allowed"},
        {"trump_method": "shown", "revokes": "allowed"},
        {"trump_method": "hidden", "revokes": "allowed"},
        {"trump_method": "hidden_random", "revokes": "allowed", "direction": "clockwise"},
        {"trump_method": "first_void", "revokes": "allowed"},
        {"trump_method": "first_void", "stop_when_decided": False},
        {"trump_method": "hidden", "stop_when_decided": False},
        {"allow_deferred": True, "stop_when_decided": False},
        {"allow_deferred": True, "deferred_card": "random", "trump_method": "shown"},
        {"allow_deferred": True, "deferred_card": "numbered", "trump_method": "hidden",
         "revokes": "allowed"},
        {"direction": "clockwise", "stop_when_decided": False, "revokes": "allowed"},
    ]
    if game != "court_piece":
        sets += [
            {"first_two_capture": False, "aces_capture": False, "revokes": "allowed"},
            {"first_two_capture": False, "trump_method": "first_void"},
            {"aces_capture": False, "stop_when_decided": False},
        ]
    if game == "double_sir":
        sets += [{"goon_courts": 10}, {"goon_courts": 10, "stop_when_decided": False,
                                       "revokes": "allowed"}]
    if game == "dehla_pakad":
        sets += [{"tens_tie": "tricks"}, {"tens_tie": "tricks", "trump_method": "hidden",
                                          "revokes": "allowed"}]
    return [getattr(cl.Rules, game)(**options) for options in sets]


RULES = {game: _rules_for(game) for game in GAMES}


def rules_id(rules) -> str:
    return rules.to_text().replace(" ", ",")


def every_option_value_is_covered() -> list:
    """The (game, option, value) combinations the rules above miss ([] when none)."""
    from courtlearn.rules import OPTIONS
    missing = []
    for game in GAMES:
        for name, (values, games) in OPTIONS.items():
            if games is not None and game not in games:
                continue
            for value in values:
                if not any(getattr(r, name) == value for r in RULES[game]):
                    missing.append((game, name, value))
    return missing


# ----------------------------------------------------------------------------- moves
def legal_moves(deal) -> list:
    """Every accepted move of every seat as (weight, seat, kind, args), from deal.moves:
    lawful cards weigh most, revoking cards (revokes="allowed") and claims little."""
    out = []
    legal = set(deal.legal_cards())
    for seat in range(4):
        for m in deal.moves(seat):
            if m.kind == "play":
                for c in m.cards:
                    out.append((20 if c in legal else 4, seat, "play", (c,)))
            elif m.kind == "call_trump":
                out += [(5, seat, "call_trump", (s,)) for s in m.suits]
            elif m.kind == "choose_trump_card":
                out += [(4, seat, "choose_trump_card", (c,)) for c in m.cards]
            elif m.kind == "defer_trump":
                out += [(2, seat, "defer_trump", () if n is None else (n,)) for n in m.numbers]
            elif m.kind == "claim_revoke":
                out.append((1, seat, "claim_revoke", (seat,)))
            elif m.kind == "correct_revoke":          # the seat's own revoke
                out.append((30, seat, "correct_revoke", (seat,)))
            elif m.kind == "play_on":
                out.append((30, seat, "play_on", ()))
            else:                                   # ask_for_trump
                out.append((30, seat, m.kind, ()))
    return out


def draw_move(data, deal):
    """A random accepted move, drawn by hypothesis (weights as in :func:`legal_moves`);
    None when nobody may move."""
    moves = legal_moves(deal)
    if not moves:
        return None
    total = sum(w for w, *_ in moves)
    pick = data.draw(st.integers(0, total - 1), label="move")
    for w, seat, kind, args in moves:
        if pick < w:
            return seat, kind, args
        pick -= w
    raise AssertionError("unreachable")


def make(deal, move) -> list:
    """Make a move from :func:`draw_move` (plays are for deal.to_play)."""
    _, kind, args = move
    return getattr(deal, kind)(*args)


# ----------------------------------------------------------------------------- bad input
class Huge(str):
    """A huge text that a failing example prints in a line (it is still a str)."""

    def __repr__(self):
        return f"<{len(self)} characters {str.__repr__(self[:8])}…>"


class HugeInt(int):
    def __repr__(self):
        return f"<an int of {len(str(int(self) // 10**4000))}+4000 digits>"


HUGE = Huge("Z" * 200_000)
ODD_TEXT = ["", " ", "AS\n", "A\nS", "10", "1", "11S", "AX", "A♠️", "as", " as ", "t♥", "10♥",
            "AS AH", "ＡＳ", "A\x00S", "♠", "S", "spades", "x" * 500, HUGE, "\u202e SA", "🂡"]


def card_like():
    """Cards, good text for a card, and everything else a caller might pass."""
    return st.one_of(
        st.sampled_from(DECK), st.sampled_from(CODES), st.sampled_from(ODD_TEXT),
        st.just(HUGE), st.text(max_size=8), bad_values())


def suit_like():
    return st.one_of(st.sampled_from(SUITS), st.sampled_from(["S", "H", "C", "D", "♠", "hearts",
                                                              "Clubs", " d "]),
                     st.sampled_from(ODD_TEXT), st.text(max_size=6), bad_values())


def seat_like():
    return st.one_of(st.integers(0, 3), st.integers(-5, 9), st.sampled_from(
        [True, False, None, 1.0, "1", 2**70, -2**70, [1], HugeInt(10**5000)]), bad_values())


#: seeds: numbers, text, and text no saved form can hold (line breaks, control characters)
SEEDS = st.one_of(st.integers(0, 2**32 - 1), st.integers(), st.text(max_size=12),
                  st.sampled_from(["lesson 4", "line\nbreak", "cr\r", "tab\tseed", " 12", "12",
                                   "#1", "moves: AS", "\u2028", "x" * 300, "\ud800"]))


def number_like():
    return st.one_of(st.none(), st.integers(4, 15), st.sampled_from([True, 7.0, "7", 2**100]),
                     bad_values())


def bad_values():
    return st.one_of(
        st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(), st.binary(max_size=6),
        st.sampled_from([[], ["AS"], ("AS",), {"card": "AS"}, {1, 2}, b"AS", bytearray(b"AS"),
                         object(), cl.Suit.SPADES, DECK[0], HugeInt(10**5000), float("nan"),
                         Huge("9" * 5000), [HUGE], type, len, Ellipsis, 1j])
    )


def json_like(depth: int = 2):
    """Values a forged message from a page may hold (JSON: what a comm can carry)."""
    leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                     st.text(max_size=10), st.sampled_from(CODES + ["S", "", HUGE, "10h"]))
    return st.recursive(leaf, lambda inner: st.lists(inner, max_size=3)
                        | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)


# ----------------------------------------------------------------------------- checks
def fingerprint(deal):
    """Everything observable of a deal: its saved form, every seat's view, the face-down
    card, the stock and the result (a refused step must leave all of it as it was)."""
    with using("en"):
        return (json.dumps(deal.to_dict(), sort_keys=True),
                tuple(deal.view(s) for s in range(4)),
                tuple(e.text for e in deal.events),
                deal.hidden_trump_card, tuple(deal.stock), deal.result, deal.actor,
                tuple(deal.legal_cards()))


def check_saved_forms(deal) -> None:
    """to_dict (through JSON), the notation and pickle give back this very deal."""
    d = deal.to_dict()
    text = json.dumps(d)
    back = cl.Deal.from_dict(json.loads(text))
    assert back.to_dict() == d
    want = fingerprint(deal)
    assert fingerprint(back) == want
    again = cl.Deal.from_notation(deal.to_notation())
    assert fingerprint(again) == want
    assert fingerprint(pickle.loads(pickle.dumps(deal))) == want


def message_of(err: BaseException) -> str:
    return getattr(err, "reason", None) or str(err)


def check_refusal(err: BaseException, what: str) -> None:
    """A refusal is a ValueError or TypeError with a message of reasonable length."""
    assert isinstance(err, (ValueError, TypeError)), (
        f"{what} raised {type(err).__name__}: {str(err)[:300]}")
    text = message_of(err)
    assert isinstance(text, str) and text.strip(), f"{what}: a refusal without a message"
    assert len(text) <= MAX_MESSAGE, f"{what}: a refusal of {len(text)} characters: {text[:200]}…"


def attempt(deal, what: str, fn, *args):
    """Call ``fn(*args)``: returns (True, result) or (False, error). Only ValueError and
    TypeError may escape, with a short message, and a refused call changes nothing."""
    before = fingerprint(deal)
    try:
        out = fn(*args)
    except Exception as err:        # noqa: BLE001 - the point is to see what escapes
        check_refusal(err, what)
        assert fingerprint(deal) == before, f"{what} was refused ({message_of(err)[:200]}) " \
                                            f"but changed the deal"
        return False, err
    return True, out


def cards_accounted(deal) -> None:
    seen = [c for s in range(4) for c in deal.hand(s)] + list(deal.stock)
    seen += [c for _, c in deal.trick.cards] + [c for t in deal.tricks for _, c in t.cards]
    if deal.hidden_trump_card is not None:
        seen.append(deal.hidden_trump_card)
    assert len(seen) == 52 and len(set(seen)) == 52


def _cards_in(x, out: set) -> None:
    if isinstance(x, cl.Card):
        out.add(x.code)
    elif isinstance(x, (tuple, list, frozenset, set)):
        for y in x:
            _cards_in(y, out)


def visible_codes(deal, seat: int) -> set:
    """The codes of every card ``seat`` may know: its hand, every card played, a public or
    its own face-down trump card, and every card named by an event it may see."""
    v = deal.view(seat)
    seen: set = set()
    _cards_in(tuple(v.hand), seen)
    for t in (*v.tricks, v.trick):
        _cards_in(tuple(c for _, c in t.cards), seen)
    _cards_in(v.trump_card, seen)
    for e in v.events:
        _cards_in(e.card, seen)
        _cards_in(e.data, seen)
    return seen


def codes_in(obj, out: set | None = None) -> set:
    """Every card code (a whole string, or a dict key) in a JSON-like value."""
    out = set() if out is None else out
    if isinstance(obj, str):
        if CARD_CODE.match(obj):
            out.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            codes_in(k, out)
            codes_in(v, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            codes_in(v, out)
    return out


def has_decision(deal) -> bool:
    """A seat must decide something now (a trump to fix, a card to play)."""
    return deal.actor is not None and str(deal.phase) in ("trump", "play")


def solvable(deal) -> bool:
    """Where cl.solve must answer: the play phase, no face-down trump card."""
    return str(deal.phase) == "play" and deal.hidden_trump_card is None


def cheap_to_solve(deal, tricks: int = SOLVE_TRICKS) -> bool:
    """Where the harness calls cl.solve, which must answer there: at most ``tricks``
    tricks left, or a Court Piece position with its trump public that DDS takes."""
    from courtlearn import dds
    left = 13 - len(deal.tricks)
    return left <= tricks or (deal.rules.game == "court_piece" and left > 8
                              and deal.trump is not None and dds.available())


def hint_is_an_answer(deal, h, seat) -> None:
    """A hint names a move the seat may make now, with its chances."""
    assert h.card is not None and isinstance(h.text, str) and h.text
    if str(deal.phase) == "play":
        assert h.card in deal.legal_cards(), (h.card, deal.legal_cards())
        assert set(h.chances) == set(deal.legal_cards())
    elif isinstance(h.card, cl.Suit):
        assert deal.can_call_trump(h.card)
    else:
        assert deal.can_choose_trump_card(h.card)
    assert all(0.0 <= p <= 1.0 for p in h.chances.values())


def solution_is_an_answer(deal, sol) -> None:
    """A Solution values exactly the cards the player to move may play, the best ones top."""
    legal = set(deal.legal_cards())
    assert sol.seat == deal.to_play
    valued = set(sol.values)
    assert valued == legal, (sorted(c.code for c in sol.values), sorted(c.code for c in legal))
    top = max(sol.values.values())
    assert set(sol.best) == {c for c, v in sol.values.items() if v == top}
    assert isinstance(sol.text, str) and sol.text


# ----------------------------------------------------------------------------- play-outs
PLAYOUTS = ("numpy", "python")


@contextlib.contextmanager
def playouts(mode: str):
    """Bots, hints and reviews inside use numpy's or plain Python's play-outs."""
    old = bots.PLAYOUTS
    bots.PLAYOUTS = mode
    try:
        yield
    finally:
        bots.PLAYOUTS = old


@contextlib.contextmanager
def few_samples(n: int = SAMPLES):
    """The table's hints and reviews (which use the default) play out only ``n`` deals."""
    old = bots.DEFAULT_SAMPLES
    bots.DEFAULT_SAMPLES = n
    try:
        yield
    finally:
        bots.DEFAULT_SAMPLES = old


def capture_replies(table) -> list:
    """The replies the table sends the page (``table.send``), collected in a list."""
    sent: list = []
    table.send = lambda msg, buffers=None: sent.append(msg)
    return sent


def sum_steps(paths) -> dict:
    """The soak's counts (JSON lines appended by :func:`flush_stats`), summed."""
    total: dict = {}
    for path in paths:
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            for line in f:
                for k, v in json.loads(line).items():
                    total[k] = total.get(k, 0) + v
    return total


class _Replayed:
    """Stands for hypothesis's ``data`` when a printed failure is replayed: each draw
    returns the next value the failure printed."""

    def __init__(self, values):
        self.values = list(values)

    def draw(self, strategy, label=None):
        if not self.values:
            raise RuntimeError("the printed failure has no more draws for this step")
        return self.values.pop(0)


_PRINTED = [   # values of bad_values() whose repr is not Python: how to make them again
    (re.compile(r"<(\d+) characters '(.)[^>]*>"), lambda m: Huge(m.group(2) * int(m.group(1)))),
    (re.compile(r"<an int of \d+\+4000 digits>"), lambda m: HugeInt(10**5000)),
    (re.compile(r"<object object at 0x[0-9a-f]+>"), lambda m: object()),
    (re.compile(r"<class 'type'>"), lambda m: type),
    (re.compile(r"<built-in function len>"), lambda m: len),
]


def _printed_value(lines: list):
    """A value as hypothesis printed it (Python's repr, cut into lines), made again."""
    text = re.sub(r"\s*# or any other generated value", "", "\n".join(lines)).strip()
    text = re.sub(r"\b(0x[0-9a-f_]+|\d[\d_]*)\b", lambda m: m.group(0).replace("_", ""), text)
    names = {"Rules": cl.Rules, "Card": cl.Card, "Suit": cl.Suit, "inf": float("inf"),
             "nan": float("nan"), "bytearray": bytearray, "Ellipsis": Ellipsis}
    for pattern, make in _PRINTED:
        def named(m, make=make):
            name = f"_printed{len(names)}"
            names[name] = make(m)
            return name
        text = pattern.sub(named, text)
    return eval(text, names)        # noqa: S307 - a log this harness wrote


def printed_failures(log: str) -> list:
    """[(rules, [(step, [drawn values])])] for every state-machine failure of
    tests/test_fuzz.py printed in a pytest log (-q, --tb=short or longer)."""
    out, rules, steps, values, cur = [], None, None, [], None
    prefix = re.compile(r"^\s*(?:\|\s*)*(?:E\s+)?")
    for raw in log.splitlines():
        header = re.search(r"test_(?:court_piece|double_sir|dehla_pakad)\[([^\]]+)\]", raw)
        line = prefix.sub("", raw)
        if header and steps is None:
            rules = cl.Rules.from_text(header.group(1).replace(",", " "))
        if line.startswith("Failing test case: <state machine>"):
            steps, values, cur = [], [], None
            continue
        if steps is None:
            continue
        draw = re.match(r"Draw \d+(?: \([^)]*\))?: (.*)$", line)
        step = re.match(r"state\.(\w+)\(", line)
        if (draw or step or "reproduce_failure" in line) and cur is not None:
            values.append(_printed_value(cur))
            cur = None
        if draw:
            cur = [draw.group(1)]
        elif step:
            steps.append((step.group(1), values))
            values = []
        elif "reproduce_failure" in line:
            out.append((rules, steps))
            steps = None
        elif cur is not None:
            cur.append(line)
    return out


def replay(log_path: str, which: int = 0) -> None:
    """Replay the ``which``-th state-machine failure printed in a pytest log (a round of
    ``make fuzz``: build/fuzz/round-N.log), step by step, printing the deal's actions; the
    failure is raised again at its step."""
    import test_fuzz
    with open(log_path, encoding="utf-8") as f:
        rules, steps = printed_failures(f.read())[which]
    print(f"rules: {rules.to_text()}")
    machine = test_fuzz.machine_for(rules)()
    with few_samples():
        for name, values in steps:
            if name == "teardown":
                continue
            method = getattr(machine, name)
            if name in ("moves_are_accepted", "saved_forms_round_trip"):
                method()
                continue
            print(f"{name}: {values!r:.200}")
            method(data=_Replayed(values))
            if machine.deal is not None:
                print("   moves:", " ".join(machine.deal.actions))
    print("replayed without a failure")


def main(argv) -> int:
    """``python tests/fuzz_support.py steps FILE...``: the soak's counts summed;
    ``python tests/fuzz_support.py replay LOG [N]``: replay a printed failure."""
    if len(argv) > 2 and argv[1] == "replay":
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        replay(argv[2], int(argv[3]) if len(argv) > 3 else 0)
        return 0
    total = sum_steps(argv[2:] if argv[1:2] == ["steps"] else argv[1:])
    for k in sorted(total):
        print(f"{k:>28}: {total[k]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))


# ----------------------------------------------------------------------------- known bugs
# Bugs this harness found, each with its reproduction below: once fixed, the reproduction
# stays as the bug's regression test (tests/test_fuzz.py, tests/test_noleak.py).
def deferred_hidden_hint_error(mode: str = "python") -> str | None:
    """Under trump_method='hidden' with a deferred trump, the error the hint at a decision
    raises, or None when it answers (it raised while bots._known_from took the turned card
    for a shown face-down card)."""
    deal = cl.Deal(cl.Rules.court_piece(trump_method="hidden", allow_deferred=True),
                   dealer=3, seed=26)
    deal.apply("defer JS 6S KS AS 10S 9S JH QS 3H")
    with playouts(mode):
        try:
            cl.hint(deal, samples=20)
        except Exception as err:        # noqa: BLE001
            return f"{type(err).__name__}: {err}"
    return None


def stale_last_trick_shown() -> list | None:
    """A table keeps showing a completed trick that was taken back (another table's undo
    on the same deal) and played again with other cards: the cards it shows, or None."""
    from courtlearn.widgets.table import CardTable
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=1)
    deal.call_trump("S")
    for _ in range(4):
        deal.play(deal.legal_cards()[0])
    east = CardTable(deal, seat=1, bots=None)
    south = CardTable(deal, seat=0, bots=None)
    for _ in range(4):
        south.undo()
    for _ in range(4):
        deal.play(deal.legal_cards()[-1])
    east.refresh()
    last = east.state["frames"][-1]["last"]
    shown = [c["card"] for c in last["cards"]] if last else []
    return shown if shown != [c.code for _, c in deal.tricks[-1].cards] else None


UNSEEN_REVOKE_HANDS = (
    ["AS 2S 3S 4S 5S 2H 3H 4H 5H 6H 7H 8H 9H",      # South leads A♠
     "KS AH KH QH JH 2D 3D 4D 5D 6D 7D 8D 9D",      # East holds K♠: its A♥ is a revoke
     "QS 10H 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC",    # North revokes 10♥
     "JS 10S 9S 8S 7S 6S KC AC 10D JD QD KD AD"],
    ["AS 2S 3S 4S 5S 2H 3H 4H 5H 6H 7H 8H 9H",      # the same but K♠ and A♦ swapped
     "AD AH KH QH JH 2D 3D 4D 5D 6D 7D 8D 9D",      # between East and West: East's A♥ is
     "QS 10H 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC",    # a discard
     "JS 10S 9S 8S 7S 6S KC AC 10D JD QD KS KD"])


def solve_after_an_ask(using: str = "python") -> list:
    """The cards cl.solve values for a player who has just asked to see the face-down trump
    and so must play a trump, but may not play ([] when none)."""
    deal = cl.Deal(cl.Rules.court_piece(trump_method="hidden", stop_when_decided=False),
                   dealer=3, seed=0)
    deal.apply("choose:3D KS AS QS 10S JS 9S 8S 6S 5S 7S 4S AH QH KH 7H 4H 3S AC 2S JH 10H "
               "JC 10C 9H 6H 9C 8C 8H 5H 2H 6C 7C 3H ask")
    return sorted(c.code for c in set(cl.solve(deal, using=using).values)
                  - set(deal.legal_cards()))
