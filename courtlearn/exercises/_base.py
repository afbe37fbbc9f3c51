"""The machinery every exercise kind shares.

A :class:`Question` holds a real engine :class:`~courtlearn.Deal` at the
moment the question is asked, the question in words, and the correct answer
*computed by the engine* (never typed in by hand).  ``check(answer)`` reads
the learner's answer in any natural form, compares, and prints friendly
feedback; it never raises for a wrong answer unless ``COURTLEARN_STRICT=1``.
"""
from __future__ import annotations

import html
import itertools
import os
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import courtlearn as cl
from courtlearn.explain import list_cards
from courtlearn.cards import quoted
from courtlearn.language import LANGUAGES, arrow, list_separator, tr, trn, using
from courtlearn.render import title_html

NOBODY = "nobody"
NOT_ANSWERED = "Not answered yet"
# "all" in a list-of-cards answer, in every language a learner may answer in
ALL_WORDS = {"all", "any", "anything", "any card", "all cards", "all of them", "every card",
             "سب", "سب پتے", "سب پتّے", "کوئی بھی", "सब", "सब पत्ते", "कोई भी"}

_NOBODY_WORDS = {"nobody", "noone", "none", "neither", "nothing", "no", "centre",
                 "center", "thecentre", "thecenter", "stays", "itstays",
                 "staysinthecentre", "staysinthecenter", "nocapture", "norevoke",
                 "noonerevoked", "nobodyrevoked", "-",
                 # Urdu and Hindi: nobody, no one, nothing, the centre
                 "کوئینہیں", "کسینےنہیں", "کچھنہیں", "بیچمیں", "کوئینہیں۔",
                 "कोईनहीं", "किसीनेनहीं", "कुछनहीं", "बीचमें"}


# --------------------------------------------------------------------------
# Feedback


@dataclass(frozen=True)
class Feedback:
    """What ``Question.check`` found.

    ``correct`` is True, False, or None when nothing was answered yet;
    ``message`` is the line that was printed.  ``bool(feedback)`` is True only
    for a correct answer.
    """

    correct: bool | None
    message: str
    expected: str = ""

    def __bool__(self) -> bool:
        return self.correct is True

    def __repr__(self) -> str:
        state = {True: "correct", False: "not yet", None: "not answered"}[self.correct]
        return f"<Feedback: {state}>"

    def _ipython_display_(self) -> None:
        # check() has already printed the message; showing it twice would be noise.
        pass


def strict() -> bool:
    return os.environ.get("COURTLEARN_STRICT", "").strip().lower() not in ("", "0", "false", "no")


class Worked:
    """A worked example's answer (made by :func:`worked`): checked like any other, but the
    teacher's, so it never goes to a class the notebook joined."""

    __slots__ = ("answer",)

    def __init__(self, answer):
        self.answer = answer.answer if isinstance(answer, Worked) else answer

    def __repr__(self) -> str:
        return f"worked({self.answer!r})"


def worked(answer) -> Worked:
    """A worked answer: ``q.check(cl.exercises.worked("K♥"))`` checks ``"K♥"`` as usual and
    prints the same, but the check is not sent to a class (``cl.classroom.join``): the
    answer is the notebook's, not the learner's (a worked example in a lesson, a teacher's
    solution). Checks under ``COURTLEARN_STRICT=1`` (testing worked solutions) are never
    sent either.

    >>> import courtlearn as cl
    >>> q = cl.exercises.question("trick_winner", 1)
    >>> fb = q.check(cl.exercises.worked("K♥"))          # doctest: +ELLIPSIS
    Correct: ...
    """
    return Worked(answer)


# --------------------------------------------------------------------------
# Reading answers


class Unreadable(Exception):
    """The answer could not be read as the kind of thing the question asks for."""


def _norm(text: str) -> str:
    return re.sub(r"[\s\-–—_/&.,'’]+|and", "", text.strip().lower())


def is_nobody(answer: Any) -> bool:
    return answer is None or (isinstance(answer, str) and _norm(answer) in _NOBODY_WORDS)


def read_card(answer: Any) -> "cl.Card":
    if isinstance(answer, cl.Card):
        return answer
    if isinstance(answer, str):
        text = answer.strip().strip("'\"").strip()
        try:
            return cl.Card.parse(text)
        except ValueError:
            pass
        try:  # "K of hearts", "king hearts", "10 ♥"
            return cl.Card.parse(_spoken_card(text))
        except (ValueError, KeyError, AttributeError):
            pass
    raise Unreadable(tr("I could not read {answer!r} as a card: write it like 'K♥' or 'KH'.",
                        answer=quoted(answer)))


_RANK_WORDS = {"ace": "A", "king": "K", "queen": "Q", "jack": "J", "ten": "10", "nine": "9",
               "eight": "8", "seven": "7", "six": "6", "five": "5", "four": "4",
               "three": "3", "two": "2"}


def _spoken_card(text: str) -> str:
    words = [w for w in re.split(r"[\s]+", text.lower()) if w and w != "of"]
    if len(words) != 2:
        raise ValueError(text)
    rank = _RANK_WORDS.get(words[0], words[0]).upper()
    suit = cl.Suit.parse(words[1])
    return rank + suit.letter





def read_cards(answer: Any) -> list:
    if isinstance(answer, cl.Card):
        return [answer]
    if isinstance(answer, str):
        parts = [p for p in re.split(r"[\s,;]+", answer.strip()) if p]
        if not parts:
            raise Unreadable(tr("The answer is empty: list the cards, like \"K♥ 3♥\"."))
        return [read_card(p) for p in parts]
    if _is_sequence(answer):           # a list, a tuple, a numpy array of card texts, ...
        cards = []
        for item in itertools.islice(answer, 60):   # a line is never longer (52 cards)
            cards.extend(read_cards(item) if isinstance(item, str) else [read_card(item)])
        return cards
    raise Unreadable(tr("I could not read {answer!r} as a list of cards: write them like "
                        "[\"K♥\", \"3♥\"] or \"KH 3H\".", answer=quoted(answer)))








def _is_sequence(answer: Any) -> bool:
    """Cards may come in any collection a learner holds them in (a list, a tuple, a set, a
    numpy array, a pandas Series, ...), not in text, bytes or a dict."""
    if isinstance(answer, (str, bytes, dict)):
        return False
    if isinstance(answer, (list, tuple, set, frozenset)):
        return True
    ndim = getattr(answer, "ndim", None)          # numpy and pandas: one dimension only
    if ndim is not None:
        return ndim == 1
    return hasattr(answer, "__iter__") and not hasattr(answer, "keys")


def read_seat(answer: Any, rules, allow_nobody: bool = False):
    """A seat number 0..3 (or NOBODY) from "North", "n", 2, ..."""
    if allow_nobody and is_nobody(answer):
        return NOBODY
    if isinstance(answer, bool):
        raise Unreadable(tr("I could not read {answer!r} as a player: write a seat like "
                            "'{north}'.", answer=quoted(answer), north=rules.seat_name(2)))
    if isinstance(answer, int) and 0 <= answer < 4:
        return answer
    if isinstance(answer, str):
        text = _norm(answer)
        if text.isdigit() and 0 <= int(text) < 4:
            return int(text)
        for lang in _languages():
            with using(lang):
                for seat in range(4):
                    name = _norm(rules.seat_name(seat))
                    if text in (name, name[0], name + "player", "seat" + name):
                        return seat
    if allow_nobody:
        raise Unreadable(tr("I could not read {answer!r} as a player: write a seat like "
                            "'{north}' or \"{nobody}\".", answer=quoted(answer),
                            north=rules.seat_name(2), nobody=tr("nobody")))
    raise Unreadable(tr("I could not read {answer!r} as a player: write a seat like '{north}'.",
                        answer=quoted(answer), north=rules.seat_name(2)))


def _languages():
    """The learner's language first, then English and the others: an answer in any of them
    is read."""
    from courtlearn.language import get_language
    first = get_language()
    return [first] + [lang for lang in LANGUAGES if lang != first]


def read_team(answer: Any, rules) -> int:
    if isinstance(answer, bool):
        raise Unreadable(_team_help(answer, rules))
    if isinstance(answer, int) and answer in (0, 1):
        return answer
    if isinstance(answer, str):
        text = _norm(answer)
        for lang in _languages():
            with using(lang):
                for team in (0, 1):
                    a, b = (rules.seat_name(s) for s in (team, team + 2))
                    na, nb = _norm(a), _norm(b)
                    forms = {na + nb, nb + na, na[0] + nb[0], nb[0] + na[0],
                             _norm(rules.team_name(team)), "team" + na + nb, "team" + nb + na,
                             "team" + na[0] + nb[0], "team" + str(team)}
                    if text in forms:
                        return team
    raise Unreadable(_team_help(answer, rules))


def _team_help(answer, rules) -> str:
    return tr("I could not read {answer!r} as a team: write '{ns}' or '{ew}'.", answer=quoted(answer),
              ns=rules.team_name(0), ew=rules.team_name(1))


# --------------------------------------------------------------------------
# Building deals





def arrange(rules, dealer: int, want: dict, seed: int = 0):
    """A prearranged deal with the given cards in given hands.

    ``want`` maps a seat to ``(cards text, closed suits)``: the seat holds
    the listed cards, and of a closed suit it holds no others (so ``("9H 4H",
    "H")`` means exactly two hearts, and ``("", "H")`` none).  The remaining
    cards are shared out deterministically (from ``seed``).  Listed cards
    come first, so they are part of the seat's first batch of five.
    """
    fixed = {s: cl.cards(want.get(s, ("", ""))[0]) if want.get(s, ("", ""))[0] else []
             for s in range(4)}
    voids = {s: {cl.Suit.parse(x) for x in want.get(s, ("", ""))[1].split()} for s in range(4)}
    used = {c for cs in fixed.values() for c in cs}
    deck = [c for c in cl.cards(" ".join(r + s for s in "SHCD" for r in
                                         ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")))
            if c not in used]
    for attempt in range(200):
        rng = random.Random(seed * 1000 + attempt)
        rest = deck[:]
        rng.shuffle(rest)
        hands = {s: list(fixed[s]) for s in range(4)}
        # most constrained cards first: a card that few seats may take
        rest.sort(key=lambda c: sum(1 for s in range(4) if c.suit not in voids[s]))
        ok = True
        for card in rest:
            seats = [s for s in range(4) if card.suit not in voids[s] and len(hands[s]) < 13]
            if not seats:
                ok = False
                break
            seats.sort(key=lambda s: (len(hands[s]) - 13, rng.random()))  # emptiest first
            hands[seats[0]].append(card)
        if ok:
            return cl.Deal.prearranged(rules, hands=[list_cards(hands[s]) for s in range(4)],
                                       dealer=dealer, seed=seed)
    raise ValueError("cannot share out the cards with these voids")











def in_trump_phase(deal) -> bool:
    return deal.phase == cl.Phase.TRUMP


def longest_suit(cards):
    """The suit with most cards (ties: higher cards, then ♠ ♥ ♣ ♦ order)."""
    by = {}
    for c in cards:
        by.setdefault(c.suit, []).append(c.rank)
    return max(by, key=lambda s: (len(by[s]), sum(by[s]), -list(cl.Suit).index(s)))


def call_sensibly(deal) -> None:
    """The trump caller names the suit they hold most of in their five."""
    if in_trump_phase(deal):
        deal.call_trump(longest_suit(deal.hand(deal.trump_caller)))





def play_random(deal, rng: random.Random):
    card = rng.choice(deal.legal_cards())
    deal.play(card)
    return card


def play_greedy(deal, favoured_team: int | None):
    """A simple policy: the favoured team plays its strongest legal card
    (trumping when it cannot follow), the others their weakest."""
    legal = deal.legal_cards()
    trump = deal.trump
    def strength(c):
        return (c.suit == trump, c.suit == deal.trick.suit_led, c.rank)
    if favoured_team is not None and cl.team_of(deal.to_play) == favoured_team:
        card = max(legal, key=strength)
    else:
        card = min(legal, key=strength)
    deal.play(card)
    return card


def events_since(deal, start: int) -> list:
    return list(deal.events)[start:]


def reason_text(events, skip_plays: bool = True) -> str:
    """Join the engine's sentences, leaving out the bare "X plays Y." lines."""
    texts = []
    for e in events:
        if skip_plays and e.kind == "play" and len(events) > 1:
            continue
        texts.append(e.text)
    return " ".join(t for t in texts if t)


# --------------------------------------------------------------------------
# Showing a deal as text (deterministic) and as a picture




def trick_line(rules, trick, number=None) -> str:
    cards = list_separator().join(f"{rules.seat_name(s)} {c}" for s, c in trick.cards)
    head = tr("Trick {n}: ", n=number) if number is not None else ""
    winner = getattr(trick, "winner", None)
    # the arrow points the way the language reads (← in Urdu), toward the trick's winner
    tail = f" {arrow()} {rules.seat_name(winner)}" if winner is not None and len(trick.cards) == 4 else ""
    return f"{head}{cards}{tail}"


def header(deal) -> str:
    rules = deal.rules
    parts = [rules.title,
             tr("{seat} dealt", seat=rules.seat_name(deal.dealer)),
             tr("{seat} called trumps", seat=rules.seat_name(deal.trump_caller))]
    parts.append(tr("trumps {suit}", suit=deal.trump) if deal.trump is not None
                 else tr("no trumps yet"))
    return " · ".join(parts)


def table_text(deal, hands=(), tricks: bool = True, open_trick: bool = True) -> str:
    rules = deal.rules
    lines = [header(deal)]
    for seat in hands:
        lines.append(tr("{seat} holds: {cards}", seat=rules.seat_name(seat),
                        cards=list_cards(deal.hand(seat))))
    if tricks:
        for i, t in enumerate(deal.tricks, 1):
            lines.append(trick_line(rules, t, i))
    if open_trick and deal.trick.cards:
        lines.append(tr("On the table (trick {n}): {cards}", n=len(deal.tricks) + 1,
                        cards=trick_line(rules, deal.trick)))
    return "\n".join(lines)


def situation(deal, hands) -> str:
    """The table as text, the tricks (and centre pile, and tens) taken, and whose turn it is."""
    rules = deal.rules
    won = deal.tricks_won
    ns, ew = rules.team_name(0), rules.team_name(1)
    line = tr("Tricks taken: {ns} {a}, {ew} {b}", ns=ns, a=won[0], ew=ew, b=won[1])
    if rules.game != "court_piece":
        line += tr("; centre pile: {n}", n=trn("{n} trick", "{n} tricks", len(deal.centre)))
    if rules.game == "dehla_pakad":
        tens = deal.tens_won
        line += tr(". Tens taken: {ns} {a}, {ew} {b}", ns=ns, a=tens[0], ew=ew, b=tens[1])
    return (f"{table_text(deal, hands=hands)}\n" + tr("{line}.", line=line) + "\n"
            + tr("{seat} (you) to play.", seat=rules.seat_name(deal.to_play)))


def picture(deal, show_all: bool = True) -> str | None:
    """The static table picture from courtlearn.render, if it is there."""
    try:
        from courtlearn import render
    except ImportError:
        return None
    fn = getattr(render, "deal_html", None)
    if fn is None:
        return None
    for kwargs in ({"show_all": show_all}, {}):
        try:
            return fn(deal, **kwargs)
        except TypeError:
            continue
    return None


# --------------------------------------------------------------------------
# The question


@dataclass(repr=False, eq=False)
class Question:
    """One exercise question on a real deal.

    ``deal`` is the table at the moment of the question; ``solution`` the
    answer the engine gives (as text a learner could type); ``reason`` the
    engine's explanation.
    """

    kind: str
    deal: Any
    prompt: str
    solution: str
    reason: str
    judge: Callable[[Any], tuple]
    text: str = ""
    number: int | None = None
    seed: int | None = None
    answer_help: str = ""
    show_all: bool = True
    extra: dict = field(default_factory=dict)
    made: float = field(default_factory=time.monotonic, repr=False,
                        compare=False)                             # when it was asked

    @property
    def title(self) -> str:
        return question_title(self.kind, self.number, self.seed)

    def __repr__(self) -> str:
        lines = [self.title, self.text, "", self.prompt]
        if self.answer_help:
            lines.append(self.answer_help)
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        pic = picture(self.deal, self.show_all)
        body = pic if pic else f"<pre>{html.escape(self.text)}</pre>"
        if pic and self.extra.get("text_under_picture", True):
            body += f"<pre>{html.escape(self.text)}</pre>"
        helptext = f"<br><small>{html.escape(self.answer_help)}</small>" if self.answer_help else ""
        return (f"<div class=\"courtlearn-question\">{title_html(self.title)}{body}"
                f"<p><b>{html.escape(self.prompt)}</b>{helptext}</p>{self._reveal_html()}</div>")

    # ---------------------------------------------------------------- asking for help
    @property
    def hint_text(self) -> str:
        """Where to look, in a sentence: the question's own hint, else the rule its kind
        practises (never the answer)."""
        if self.extra.get("hint_text"):
            return self.extra["hint_text"]
        from courtlearn.exercises import RULES
        return tr(RULES[self.kind]) if self.kind in RULES else ""

    @property
    def answer_text(self) -> str:
        """The worked answer and why, in a sentence."""
        return tr("Answer: {answer}. {why}", answer=self.solution, why=self.reason).strip()

    def hint(self) -> None:
        """Print a hint (where to look, not the answer); :meth:`show_answer` gives the
        answer. The same two are under the question's picture, folded: Hint, then
        Answer."""
        print(tr("Hint: {hint}", hint=self.hint_text))

    def show_answer(self) -> None:
        """Print the worked answer and why (nothing is sent to a class)."""
        print(self.answer_text)

    def _reveal_html(self) -> str:
        """The hint, then the answer, each folded until the learner opens it."""
        hint, answer = html.escape(tr("Hint")), html.escape(tr("Answer"))
        return (f"<details><summary>{hint}</summary>"
                f"<p>{html.escape(self.hint_text)}</p></details>"
                f"<details><summary>{answer}</summary>"
                f"<p>{html.escape(self.answer_text)}</p></details>")

    def check(self, answer: Any) -> Feedback:
        """Print Correct / Not yet / Not answered yet and return a Feedback.

        When the notebook joined a class (``cl.classroom.join``), the check goes to it
        (unless the answer is a worked one, :func:`worked`, or ``COURTLEARN_STRICT`` is on)."""
        mine = not isinstance(answer, Worked)
        if not mine:
            answer = answer.answer
        fb = self.feedback(answer)
        print(fb.message)
        if mine and fb.correct is not None and not strict():
            _to_class(self, answer, fb)
        if strict() and fb.correct is not True:
            raise AssertionError(f"{self.title}: {fb.message}")
        return fb

    def feedback(self, answer: Any) -> Feedback:
        """The Feedback :meth:`check` prints, printing nothing (the class server judges the
        answers that reach it with this too)."""
        if answer is Ellipsis:
            return Feedback(None, tr("Not answered yet: replace ... with your answer."),
                            self.solution)
        try:
            ok, why = self.judge(answer)
        except Unreadable as exc:
            ok, why = False, str(exc)
        except Exception as exc:  # a learner's answer must never produce a traceback
            ok, why = False, tr("I could not read {answer!r} ({error}).", answer=quoted(answer),
                                error=type(exc).__name__)
        if ok:
            return Feedback(True, tr("Correct: {why}", why=why), self.solution)
        return Feedback(False, tr("Not yet: {why}", why=why), self.solution)


def question_title(kind: str, number: int | None = None, seed: int | None = None) -> str:
    """A question's title in the current language, from its kind and number (or seed)
    alone: the question itself need not be built (the class's dashboard names items so).

    >>> question_title("trick_winner", 2)
    'Which card wins this trick? (question 2)'
    """
    from courtlearn.exercises import TITLES
    which = tr("question {n}", n=number) if number is not None \
        else tr("fresh question, seed {seed}", seed=seed)
    return f"{TITLES.get(kind, kind)} ({which})"


def _to_class(question: Question, answer: Any, fb: Feedback) -> None:
    """The check is published (courtlearn/publish.py): whoever listens hears it (a class
    the notebook joined). Never raises: a check must not fail for a listener's sake."""
    try:
        from courtlearn import publish
        publish.publish(publish.Checked(
            "exercise", publish.exercise_item(question), publish.encode_answer(answer),
            bool(fb.correct), max(0.0, time.monotonic() - question.made), source=question))
    except Exception:                    # noqa: BLE001 (the check itself stands)
        pass
