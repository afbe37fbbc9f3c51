"""A lesson's own question, checked like an exercise's: ``cl.exercises.ask``.

The first lessons ask things no exercise kind covers ("Who is South's partner?"). Such a
question is made in the lesson's cell, with its answer worked out there by the engine
(a seat, a team, a number); it asks first (``answer = ...`` prints "Not answered yet"),
reads the answer the natural way, and has the same folded Hint and Answer, and the same
``q.hint()`` and ``q.show_answer()``, as every exercise question. Its check stays in the
notebook: a class could not judge it again, so it never goes to one.

>>> import courtlearn as cl
>>> rules = cl.Rules.court_piece()
>>> q = cl.exercises.ask("Who is South's partner?", seat=2,
...                      why="North: partners sit opposite each other.",
...                      hint="partners sit opposite.")
>>> fb = q.check(...)
Not answered yet: replace ... with your answer.
>>> fb = q.check("North")
Correct: North: partners sit opposite each other.
>>> fb = q.check("east")
Not yet: partners sit opposite.
>>> q.show_answer()
Answer: North. North: partners sit opposite each other.
>>> q.hint()
Hint: partners sit opposite.
"""
from __future__ import annotations

import html

import courtlearn as cl

from ..cards import _whole, quoted
from ..language import suit_word, tr
from ..render import title_html
from ._base import Question, Unreadable, read_card, read_seat, read_team

__all__ = ["ask", "LessonQuestion"]


class LessonQuestion(Question):
    """A question a lesson asks of its own (:func:`ask`): no deal behind it, never sent to a
    class."""

    def check(self, answer):
        """Print Correct / Not yet / Not answered yet and return a Feedback (nothing goes to
        a class: only the notebook can judge this question)."""
        from ._base import Worked
        if isinstance(answer, Worked):
            answer = answer.answer
        fb = self.feedback(answer)
        print(fb.message)
        return fb

    @property
    def title(self) -> str:
        return self.extra.get("title") or tr("Check yourself")

    def __repr__(self) -> str:
        return "\n".join(x for x in (self.prompt, self.answer_help) if x)

    def _repr_html_(self) -> str:
        helptext = f"<br><small>{html.escape(self.answer_help)}</small>" if self.answer_help else ""
        return (f"<div class=\"courtlearn-question\">{title_html(self.title)}"
                f"<p><b>{html.escape(self.prompt)}</b>{helptext}</p>{self._reveal_html()}</div>")


def ask(prompt: str, *, seat: int | None = None, team: int | None = None,
        number: int | None = None, card=None, suit=None, why: str = "", hint: str = "",
        rules=None) -> LessonQuestion:
    """A lesson's question whose answer is a ``seat`` (0-3: South, East, North, West), a
    ``team`` (0 North–South, 1 East–West), a whole ``number``, a ``card`` or a ``suit``
    (a Card or Suit, or their text): give exactly one. ``why``
    (a sentence that stands alone) is said with "Correct" and after the answer, ``hint``
    with "Not yet" and under Hint.
    ``rules`` name the seats (Court Piece's by default)."""
    given = [x for x in (seat, team, number, card, suit) if x is not None]
    if len(given) != 1:
        raise ValueError(tr("ask() takes one answer: seat=, team=, number=, card= or suit=."))
    rules = rules or cl.Rules.court_piece()
    if seat is not None:
        if _whole(seat) not in (0, 1, 2, 3):
            raise ValueError(tr("seat is a number 0..3, got {seat!r}.", seat=quoted(seat)))
        solution = rules.seat_name(seat)
        help_ = tr('Answer with a player, like "{north}".', north=rules.seat_name(2))

        def read(answer):
            return read_seat(answer, rules)
        truth = seat
    elif team is not None:
        if _whole(team) not in (0, 1):
            raise ValueError(tr("team is 0 (North–South) or 1 (East–West), got {team!r}.",
                                team=quoted(team)))
        solution = rules.team_name(team)
        help_ = tr('Answer with a team, like "{ns}" or "{ew}".', ns=rules.team_name(0),
                   ew=rules.team_name(1))

        def read(answer):
            return read_team(answer, rules)
        truth = team
    elif card is not None:
        truth = read_card(card)
        solution = str(truth)
        help_ = tr('Answer with a card, like "K♥" or "KH".')
        read = read_card
    elif suit is not None:
        truth = cl.Suit.parse(suit) if not isinstance(suit, cl.Suit) else suit
        solution = suit_word(truth)
        help_ = tr('Answer with a suit, like "hearts" or "♥".')

        def read(answer):
            try:
                return cl.Suit.parse(answer.strip() if isinstance(answer, str) else answer)
            except (ValueError, AttributeError, TypeError):
                raise Unreadable(tr("I could not read {answer!r} as a suit: write it like "
                                    "'hearts' or '♥'.", answer=quoted(answer))) from None
    else:
        if _whole(number) is None:
            raise ValueError(tr("number is a whole number, got {value!r}.", value=quoted(number)))
        solution = str(number)
        help_ = tr("Answer with a number, like 3.")

        def read(answer):
            value = _whole(answer.strip()) if isinstance(answer, str) and answer.strip().isdigit() \
                else _whole(answer)
            if value is None:
                raise Unreadable(tr("I could not read {answer!r} as a number: write it like 3.",
                                    answer=quoted(answer)))
            return value
        truth = _whole(number)
    reason = why or solution

    def judge(answer):
        if read(answer) == truth:
            return True, reason
        return False, hint or tr("not this one; look again.")

    q = LessonQuestion("lesson", None, prompt, solution, reason, judge, answer_help=help_)
    q.extra["hint_text"] = hint
    return q
