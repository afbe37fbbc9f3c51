"""The live quiz of a class (issue 26): ``room.quiz("trick_winner", n=5)``.

The teacher starts ``n`` seeded questions of an exercise kind that is answered by one
click (a card, a seat, a side, a word). Every learner page shows the current question
(the engine's text of the position, the trick as cards, the choices as big buttons) and
takes one answer; the answer travels over the learner's WebSocket, is judged HERE with
the exercise's own checker (``Question.feedback``) and stored by ``Room.record`` (kind
``"quiz"``, item ``kind/seed=N`` as an exercise's), so it is in ``room.results()``.
The teacher (the notebook's :class:`Quiz`, or the teacher page over its socket) sees how
many have answered, reveals, moves on. Until the reveal nothing sent to a learner page
says which choice is right: the question message is the same for every learner, and the
"answer received" reply is the same whether the answer is right or not.

Wire messages (JSON objects, beside those of room.py's docstring):

learner -> server  ``{"type": "quiz_answer", "quiz": Q, "index": i, "answer": V}``,
                   ``{"type": "quiz_get"}`` (the page asks for the question now)
server -> learner  ``{"type": "quiz", ...question...}``, ``{"type": "quiz_ack", ...}``,
                   ``{"type": "quiz_reveal", ...}`` (the right choices, the engine's
                   sentence, the learner's own answer and whether it was right),
                   ``{"type": "quiz_end"}``
teacher -> server  ``{"type": "quiz", "content": {"type": "start", "kind", "n", "seed"}
                   | {"type": "next"} | {"type": "reveal"} | {"type": "stop"}
                   | {"type": "state"}}``
server -> teacher  ``{"type": "quiz", "state": {...}}`` (see :meth:`Quiz.state`)

>>> from courtlearn.classroom.store import Store
>>> from courtlearn.classroom.room import Room
>>> room = Room.create(Store(":memory:"), code="ABC234", tables=1)
>>> q = start(room, "trick_winner", n=2, seed=7)
>>> q.number, q.n, [c["kind"] for c in q.current.choices]
(1, 2, ['card', 'card', 'card', 'card'])
>>> start(room, "legal_cards")                     # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: A quiz question is answered by one click; 'legal_cards' is not. The kinds that are: ...
"""
from __future__ import annotations

import hashlib
import json
import logging
import secrets
import time

from courtlearn.language import tr, using
from courtlearn.render import title_html

from .learners import Refusal

__all__ = ["Quiz", "QuizQuestion", "start", "desk_of", "CLICK_KINDS", "MAX_QUESTIONS"]

log = logging.getLogger("courtlearn.classroom")

MAX_QUESTIONS = 50
PUSH_DELAY = 0.05          # seconds: the teachers' count is sent at most this often
COURT_WORDS = ("court", "goon court", "bavney", "no court")


def _dumps(msg) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


# ----------------------------------------------------------------------------- choices
def _card(card, seat=None, rules=None) -> dict:
    out = {"value": card.code, "label": str(card), "kind": "card", "card": card.code,
           "red": card.suit.letter in "HD"}
    if seat is not None:
        out["seat"] = seat
        out["place"] = rules.seat_name(seat)
    return out


def _seats(q, nobody: bool) -> list[dict]:
    rules = q.deal.rules
    out = [{"value": s, "label": rules.seat_name(s), "kind": "seat", "seat": s} for s in range(4)]
    if nobody:
        out.append({"value": "nobody", "label": tr("nobody"), "kind": "seat", "seat": None})
    return out


def _trick_cards(q) -> list[dict]:
    return [_card(c, s, q.deal.rules) for s, c in q.extra["trick"].cards]


def _teams(q) -> list[dict]:
    rules = q.deal.rules
    return [{"value": t, "label": rules.team_name(t), "kind": "team"} for t in (0, 1)]


def _words(q) -> list[dict]:
    return [{"value": w, "label": tr(w), "kind": "word"} for w in COURT_WORDS]


def _hand(q) -> list[dict]:
    return [_card(c) for c in q.extra["legal"]]


#: kind -> the clickable choices of its question (in an order that says nothing)
CHOOSERS = {
    "trick_winner": _trick_cards,
    "spot_the_revoke": lambda q: _seats(q, nobody=True),
    "pile_capture": lambda q: _seats(q, nobody=True),
    "court_or_not": _words,
    "next_dealer": lambda q: _seats(q, nobody=False),
    "tens_winner": _teams,
    "what_to_play": _hand,
    "best_card": _hand,
    # the "playing well" kinds (issue 31): a suit, a score sheet, a card
    "call_trump": lambda q: _suits(q),
    "score_sheet": lambda q: _sheets(q),
    "card_play": _hand,
}


def _suits(q) -> list[dict]:
    from courtlearn.cards import Suit
    from courtlearn.language import suit_word
    return [{"value": s.letter, "label": f"{s.symbol} {suit_word(int(s))}", "kind": "word"}
            for s in Suit]


def _sheets(q) -> list[dict]:
    from courtlearn.exercises.strategy import sheet_choices
    return [{"value": label, "label": label, "kind": "word"} for label in sheet_choices(q)]


def _click_kinds() -> tuple:
    from courtlearn import exercises
    return tuple(k for k in exercises.KINDS + exercises.PLAY_KINDS + exercises.STRATEGY_KINDS
                 if k in CHOOSERS)


CLICK_KINDS = _click_kinds()


def _same(a, b) -> bool:
    """The same answer value (a number is not a truth value, 1.0 is not 1)."""
    return type(a) is type(b) and a == b


def _seed(base: int, kind: str, i: int) -> int:
    digest = hashlib.sha256(f"quiz/{base}/{kind}/{i}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1


# ----------------------------------------------------------------------------- a question
def question_data(kind: str, seed: int) -> dict:
    """A quiz question of exercise ``kind`` (seeded) as plain data, in the current
    language: built with the exercise's own question and checker (which may take the
    solver a second: on the class server this runs in a worker process,
    ``workers.quiz_question``). ``prompt``, ``text``, ``choices`` (what a learner clicks),
    ``correct`` (each choice's verdict by the checker), ``reason`` (the engine's sentence
    behind the right answer), ``trick`` (the trick as cards, for kinds whose choices are
    not it)."""
    from courtlearn import exercises
    q = exercises.question(kind, seed=seed)
    choices = CHOOSERS[kind](q)
    feedback = [q.feedback(c["value"]) for c in choices]
    return {"prompt": q.prompt, "text": q.text, "choices": choices,
            "correct": [bool(fb.correct) for fb in feedback],
            "reason": q.reason or next((fb.message for fb in feedback if fb.correct), ""),
            "trick": _trick_cards(q) if kind == "pile_capture" else None}


SEED_TRIES = 6          # seeds tried for a question before the quiz says it has none


def made_question(kind: str, seed: int) -> dict:
    """:func:`question_data` for ``seed``, or for the next of SEED_TRIES seeds derived from
    it when a seed gives no question of ``kind`` (exercises.NoQuestion: a few seeds of the
    kinds that look for a position find none); ``seed`` in the data is the one used (the
    answers are stored as ``kind/seed=N`` of it). NoQuestion when none of them gives one.

    >>> made_question("trick_winner", 5)["seed"]
    5
    """
    from courtlearn.exercises import NoQuestion
    tried = seed
    for k in range(SEED_TRIES):
        tried = seed if k == 0 else _seed(seed, kind, f"again/{k}")
        try:
            data = question_data(kind, tried)
        except NoQuestion:
            continue
        data["seed"] = tried
        return data
    raise NoQuestion(tr("Seed {seed} and the next {n} seeds tried give no {kind} question.",
                        seed=seed, n=SEED_TRIES - 1, kind=kind))


class QuizQuestion:
    """One question of a quiz: the question's data (:func:`question_data`: its prompt and
    text, its clickable choices and each choice's verdict by the exercise's own checker),
    and the answers the learners gave: ``answers[learner id] = (value, right, seconds)``."""

    def __init__(self, quiz: "Quiz", index: int, seed: int, data: dict):
        self.quiz = quiz
        self.index = index
        self.seed = data.get("seed", seed)      # another one if this seed gave none
        self.prompt, self.text = data["prompt"], data["text"]
        self.choices = data["choices"]
        self.correct = list(data["correct"])
        self._reason = data["reason"]
        self._trick = data["trick"]
        self.item = f"{quiz.kind}/seed={self.seed}"
        with using(quiz.room.language):
            self.title = tr("Quiz {n}, question {i}", n=quiz.number_in_class, i=index + 1)
        self.answers: dict[int, tuple] = {}
        self.opened = time.monotonic()
        self.revealed = False

    def choice(self, value) -> int | None:
        for i, c in enumerate(self.choices):
            if _same(c["value"], value):
                return i
        return None

    def right(self) -> list:
        return [c["value"] for c, ok in zip(self.choices, self.correct) if ok]

    def reason(self) -> str:
        """The engine's sentence behind the right answer."""
        return self._reason

    def trick(self) -> list[dict] | None:
        """The trick as cards, when the question is about one and the choices are not it."""
        return self._trick

    def public(self) -> dict:
        """What every learner page gets: the same for everyone, nothing about which
        choice is right."""
        return {"type": "quiz", "quiz": self.quiz.id, "index": self.index,
                "number": self.index + 1, "n": self.quiz.n, "kind": self.quiz.kind,
                "title": self.quiz.title, "prompt": self.prompt,
                "lines": self.text.splitlines(), "trick": self.trick(),
                "choices": [{k: v for k, v in c.items()} for c in self.choices],
                "words": self.quiz.words}


class _Failed:
    """A question that could not be made without a loop: looks like a failed future."""

    def __init__(self, err: Exception):
        self.err = err

    def done(self) -> bool:
        return True

    def result(self):
        raise self.err


# ----------------------------------------------------------------------------- a quiz
class Quiz:
    """A live quiz of the class (made by ``room.quiz(kind, n=5, seed=None)``).

    ``next()`` moves on (after the last question the quiz ends), ``reveal()`` shows the
    right answer and the spread, ``stop()`` ends it. ``answered`` counts the answers to
    the question now; ``results()`` is a pandas frame, one row per learner; every answer
    is in ``room.results()`` too (kind "quiz"). Shown in the notebook it is a summary of
    where the quiz is."""

    def __init__(self, desk: "QuizDesk", kind: str, n: int, seed: int | None):
        self.desk = desk
        self.room = desk.room
        self.kind = kind
        self.n = n
        self.seed = secrets.randbits(31) if seed is None else seed
        self.id = secrets.token_hex(4)
        self.questions: list[QuizQuestion] = []
        self.finished = False
        self.preparing: int | None = None     # the question being made, to open when ready
        self.problem: str | None = None       # why the quiz ended early (said to the teacher)
        self._made: dict = {}                 # index -> its data, or the future of it
        self.number_in_class = desk.count_quiz()   # "Quiz 2, question 3" in the results
        with using(self.room.language):
            from courtlearn.exercises import TITLES
            self.title = TITLES.get(kind, kind)
            self.words = learner_words()

    # -- where it is
    @property
    def current(self) -> QuizQuestion | None:
        return None if self.finished or not self.questions else self.questions[-1]

    @property
    def number(self) -> int:
        """The question now, counted from 1."""
        return len(self.questions)

    @property
    def answered(self) -> int:
        cur = self.current
        return 0 if cur is None else len(cur.answers)

    def _prepare(self) -> None:
        """Every question of the quiz is made at once, in the room's workers (off the loop:
        what_to_play's take the solver most of a second each), one after the other in the
        teacher's own queue; without a loop, here and now."""
        from .workers import quiz_question
        room = self.room
        for i in range(self.n):
            seed = _seed(self.seed, self.kind, i)
            if room.loop is None:
                with using(room.language):
                    try:
                        self._made[i] = made_question(self.kind, seed)
                    except Exception as err:          # noqa: BLE001 (said on opening it)
                        self._made[i] = _Failed(err)
                continue
            fut = room.workers.submit(("quiz", self.id), quiz_question, self.kind, seed,
                                      room.language, group="teacher")
            self._made[i] = fut
            fut.add_done_callback(lambda _f, i=i: self._ready(i))

    def _ready(self, index: int) -> None:
        if self.preparing == index and not self.finished:
            self._open(index)

    def _open(self, index: int) -> None:
        """Open question ``index`` on every page (once it is made; till then the teacher's
        panel says it is being prepared)."""
        made = self._made.get(index)
        if made is not None and not isinstance(made, dict):
            if not made.done():
                self.preparing = index
                self.desk.changed(now=True)
                return
            try:
                made = self._made[index] = made.result()
            except Exception as err:                  # noqa: BLE001 (the quiz says so)
                self._cannot(index, err)
                return
        self.preparing = None
        self.questions.append(QuizQuestion(self, index, _seed(self.seed, self.kind, index),
                                           made))
        self.desk.to_learners(self.current.public())
        self.desk.changed(now=True)

    def _cannot(self, index: int, err: Exception) -> None:
        """Question ``index`` could not be made: the quiz ends there, and the teacher is
        told why in a sentence (on the teacher's pages, in the quiz's state and repr)."""
        from courtlearn.exercises import NoQuestion
        with using(self.room.language):
            if isinstance(err, NoQuestion):
                self.problem = tr("Question {i} of “{title}” could not be made: none of "
                                  "the {n} seeds tried gives one. The quiz ends here; start "
                                  "another with another seed (or none).",
                                  i=index + 1, title=self.title, n=SEED_TRIES)
            else:
                log.error("quiz question %s of %s could not be made: %r", index + 1,
                          self.kind, err)
                self.problem = tr("Question {i} could not be made (the server's log says "
                                  "why). The quiz ends here; start another.", i=index + 1)
        self.preparing = None
        self.stop()
        self.desk.tell_teacher(self.problem)

    # -- the teacher
    def reveal(self) -> None:
        """The right answer, the engine's sentence and the spread: on the teacher's view,
        and to each learner their own answer judged. Answers are closed."""
        cur = self._need()
        if cur.revealed or self.preparing is not None:
            return
        cur.revealed = True
        self.desk.reveal_to_learners(cur)
        self.desk.changed(now=True)

    def next(self) -> None:
        """The next question (the current one closes, revealed or not); after the last
        one the quiz ends."""
        if self.preparing is not None:
            return                            # the next one opens as soon as it is made
        self._need()
        if self.number >= self.n:
            self.stop()
            return
        self._open(self.number)

    def stop(self) -> None:
        """End the quiz: learner pages drop the question."""
        if self.finished:
            return
        self.finished = True
        self.preparing = None
        for made in self._made.values():
            if not isinstance(made, dict) and not made.done():
                made.cancel()
        self.desk.to_learners({"type": "quiz_end", "quiz": self.id})
        self.desk.changed(now=True)

    def _need(self) -> QuizQuestion:
        if self.current is None:
            raise ValueError("the quiz is over: room.quiz(kind, n) starts another")
        return self.current

    # -- the learners
    def answer(self, lr, msg: dict) -> QuizQuestion:
        """A learner's answer ``msg`` (the wire message): checked, judged, stored by
        ``Room.record``; Refusal with the sentence (nothing stored) otherwise."""
        cur = self.current
        if set(msg) - {"type", "quiz", "index", "answer"}:
            raise Refusal(tr("That is not an answer the quiz can read; nothing was stored."),
                          quiz=True)
        if cur is None or msg.get("quiz") != self.id or not _same(msg.get("index"), cur.index) \
                or self.preparing is not None:
            raise Refusal(tr("That quiz question is not the one open now; nothing was "
                             "stored."), quiz=True)
        if cur.revealed:
            raise Refusal(tr("The answer to this question has been shown: answers are "
                             "closed; nothing was stored."), quiz=True)
        if lr.id in cur.answers:
            raise Refusal(tr("You have answered this question already; only your first "
                             "answer counts."), quiz=True)
        value = msg.get("answer")
        which = cur.choice(value)
        if which is None:
            raise Refusal(tr("That is not one of this question's answers; nothing was "
                             "stored."), quiz=True)
        seconds = round(time.monotonic() - cur.opened, 3)
        self.desk.accepting = cur
        try:
            stored = self.room.record(lr, {"id": f"quiz-{self.id}-{cur.index}-{lr.id}",
                                           "kind": "quiz", "item": cur.item, "answer": value,
                                           "seconds": seconds, "at": time.time()},
                                      title=cur.title)
        finally:
            self.desk.accepting = None
        cur.answers[lr.id] = (value, stored.right, seconds)
        self.desk.changed()
        return cur

    def judge(self, item: str, answer) -> bool:
        """The judge ``Room.record`` calls: the precomputed Feedback of the choice."""
        cur = self.desk.accepting
        if cur is None or cur.quiz is not self or cur.item != item:
            raise Refusal(tr("Quiz answers are taken on the class page while the question "
                             "is open; nothing was stored."))
        which = cur.choice(answer)
        if which is None:
            return None
        return bool(cur.correct[which])

    # -- what is shown
    def state(self, names: bool | None = None) -> dict:
        """The teacher's view: where the quiz is, the question, how many answered (of the
        learners connected), who answered; once revealed the spread of the answers, the
        right ones and the engine's sentence. ``names`` False shows "Learner 1", ...
        (None: as the class's Hide names)."""
        room = self.room
        hidden = room.names_hidden if names is None else not names
        cur = self.current
        out = {"active": cur is not None or self.preparing is not None, "quiz": self.id,
               "kind": self.kind, "title": self.title, "n": self.n, "number": self.number,
               "seed": self.seed, "finished": self.finished,
               "name": tr("Quiz {n}", n=self.number_in_class)}
        if self.problem:
            out["problem"] = self.problem
        if self.preparing is not None:          # made off the loop: a moment
            out.update({"number": self.preparing + 1, "preparing": True,
                        "prompt": tr("The question is being prepared…"), "lines": [],
                        "choices": [], "answered": 0, "of": 0, "revealed": False, "who": []})
            return out
        if cur is None:
            return out
        here = [lr for lr in room.learners.values() if lr.conns and not lr.removed]
        ids = sorted({lr.id for lr in here} | set(cur.answers))
        alias = room.aliases()                  # the numbers the dashboard shows too
        who = []
        for lid in ids:
            lr = room.learners.get(lid)
            name = (alias.get(lid, tr("Learner {n}", n="?")) if hidden or lr is None
                    else lr.name)
            got = cur.answers.get(lid)
            row = {"name": name, "answered": got is not None}
            if cur.revealed and got is not None:
                row["right"] = bool(got[1])
            who.append(row)
        out.update({"index": cur.index, "prompt": cur.prompt, "item_title": cur.title,
                    "lines": cur.text.splitlines(), "trick": cur.trick(),
                    "choices": cur.choices, "answered": len(cur.answers),
                    "of": len(ids), "revealed": cur.revealed, "who": who})
        if cur.revealed:
            counts = [0] * len(cur.choices)
            for value, _right, _s in cur.answers.values():
                counts[cur.choice(value)] += 1
            out["spread"] = [{"value": c["value"], "label": c["label"], "count": k,
                              "right": bool(ok)}
                             for c, ok, k in zip(cur.choices, cur.correct, counts)]
            out["right"] = cur.right()
            out["reason"] = cur.reason()
        return out

    def results(self):
        """A pandas DataFrame, one row per learner who answered: learner (id), name,
        answered, right (how many), then per question ``Q1``.. True (right), False
        (wrong) or None (no answer)."""
        import pandas as pd
        lids = sorted({lid for q in self.questions for lid in q.answers})
        rows = []
        for lid in lids:
            lr = self.room.learners.get(lid)
            row = {"learner": lid, "name": lr.name if lr else "",
                   "answered": sum(lid in q.answers for q in self.questions),
                   "right": sum(bool(q.answers[lid][1]) for q in self.questions
                                if lid in q.answers)}
            for q in self.questions:
                got = q.answers.get(lid)
                row[f"Q{q.index + 1}"] = None if got is None else bool(got[1])
            rows.append(row)
        cols = ["learner", "name", "answered", "right"] + [f"Q{q.index + 1}"
                                                           for q in self.questions]
        return pd.DataFrame(rows, columns=cols)

    def answers(self):
        """A pandas DataFrame of every answer: learner, name, question, item, answer,
        right, seconds."""
        import pandas as pd
        rows = []
        for q in self.questions:
            for lid, (value, right, seconds) in sorted(q.answers.items()):
                lr = self.room.learners.get(lid)
                rows.append({"learner": lid, "name": lr.name if lr else "",
                             "question": q.index + 1, "item": q.item, "answer": value,
                             "right": bool(right), "seconds": seconds})
        return pd.DataFrame(rows, columns=["learner", "name", "question", "item", "answer",
                                           "right", "seconds"])

    def __repr__(self) -> str:
        where = "over" if self.finished else f"question {self.number} of {self.n}"
        if self.problem:
            where += " (a question could not be made)"
        return f"<Quiz {self.kind} {where}, {self.answered} answered>"

    def _repr_html_(self) -> str:
        import html as _html
        with using(self.room.language):
            st = self.state()
            if not st["active"]:
                over = f"<p>{_html.escape(tr('The quiz is over.'))}</p>"
                return over + (f"<p>{_html.escape(self.problem)}</p>" if self.problem else "")
            head = tr('question {i} of {n}', i=st['number'], n=st['n'])
            if self.title != st["prompt"]:        # a kind's title is often its prompt
                head = f"{self.title}: {head}"
            parts = [title_html(head),
                     f"<p>{_html.escape(st['prompt'])}</p>",
                     f"<p>{_html.escape(tr('{k} of {m} answered', k=st['answered'], m=st['of']))}"
                     "</p>"]
            if st["revealed"]:
                items = "".join(f"<li>{'✔ ' if s['right'] else ''}{_html.escape(s['label'])}: "
                                f"{s['count']}</li>" for s in st["spread"])
                parts.append(f"<ul>{items}</ul><p>{_html.escape(st['reason'])}</p>")
        return "<div class='courtlearn-quiz'>" + "".join(parts) + "</div>"


# ----------------------------------------------------------------------------- words
def learner_words() -> dict[str, str]:
    """The learner page's quiz words, in the current language."""
    return {"quiz": tr("Quiz: question {i} of {n}"),
            "received": tr("Your answer {answer} was received. Wait for the teacher."),
            "well": tr("Right!"), "not_well": tr("Not right."), "none": tr("You did not answer."),
            "answer": tr("The answer: {answer}"), "over": tr("The quiz is over.")}


def teacher_words() -> dict[str, str]:
    """The teacher page's quiz words, in the current language."""
    return {"quiz": tr("Quiz"), "start": tr("Start a quiz"), "kind": tr("Exercise"),
            "n": tr("Questions"), "seed": tr("Seed"), "question": tr("question {i} of {n}"),
            "count": tr("{k} of {m} answered"), "reveal": tr("Show the answer"),
            "next": tr("Next question"), "stop": tr("End the quiz"),
            "answer": tr("The answer: {answer}"), "over": tr("The quiz is over.")}


# ----------------------------------------------------------------------------- the room's side
class QuizDesk:
    """A room's quiz: the one running (or last), its messages to learners and teachers."""

    def __init__(self, room):
        self.room = room
        self.quiz: Quiz | None = None
        self.accepting: QuizQuestion | None = None     # set while Room.record judges
        self._push_due = False
        room.judges["quiz"] = self.judge
        room.on_change.append(self._room_changed)     # who is here, Hide names

    def _room_changed(self, room) -> None:
        if self.quiz is not None and self.quiz.current is not None:
            self.changed()

    def judge(self, item, answer, result=None):
        if self.quiz is None:
            raise Refusal(tr("Quiz answers are taken on the class page while the question "
                             "is open; nothing was stored."))
        return self.quiz.judge(item, answer)

    def start(self, kind, n=5, seed=None) -> Quiz:
        room = self.room
        with using(room.language):
            if kind not in CLICK_KINDS:
                from courtlearn.cards import quoted
                raise ValueError(tr("A quiz question is answered by one click; {kind!r} is "
                                    "not. The kinds that are: {kinds}", kind=quoted(kind),
                                    kinds=", ".join(CLICK_KINDS)))
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_QUESTIONS:
            raise ValueError(f"n is the number of questions, 1..{MAX_QUESTIONS}; got {n!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                                 or not 0 <= seed < 2 ** 63):
            raise ValueError(f"seed is a whole number 0..2**63-1; got {str(seed)[:30]!r}")
        if self.quiz is not None and not self.quiz.finished:
            self.quiz.stop()
        self.quiz = Quiz(self, kind, n, seed)
        self.quiz._prepare()
        self.quiz._open(0)                  # the first question, on every page (once made)
        return self.quiz

    def count_quiz(self) -> int:
        """The number of the quiz starting now in the class (1, 2, ...; kept in the class's
        settings, so a restarted class goes on counting)."""
        n = int(self.room.settings.get("quizzes", 0)) + 1
        self.room._set("quizzes", n)
        return n

    # -- learners
    def _learner_conns(self):
        for lr in self.room.learners.values():
            if not lr.removed:
                for conn in lr.conns:
                    yield lr, conn

    def to_learners(self, msg: dict) -> None:
        text = _dumps(msg)
        for _lr, conn in self._learner_conns():
            self.room._send(conn, text)
        self.room._done()

    def reveal_to_learners(self, cur: QuizQuestion) -> None:
        for lr, conn in self._learner_conns():
            self.room._send(conn, self._reveal_msg(cur, lr))
        self.room._done()

    def _reveal_msg(self, cur: QuizQuestion, lr) -> dict:
        got = cur.answers.get(lr.id)
        labels = [c["label"] for c in cur.choices if any(_same(c["value"], v)
                                                         for v in cur.right())]
        with using(self.room.language):
            return {"type": "quiz_reveal", "quiz": self.quiz.id, "index": cur.index,
                    "right": cur.right(), "right_labels": labels, "reason": cur.reason(),
                    "yours": None if got is None else got[0],
                    "correct": None if got is None else bool(got[1])}

    def _ack(self, cur: QuizQuestion, lr) -> dict:
        return {"type": "quiz_ack", "quiz": self.quiz.id, "index": cur.index,
                "answer": cur.answers[lr.id][0]}

    def learner_message(self, conn, msg: dict) -> None:
        """A learner socket's ``quiz_answer`` or ``quiz_get``."""
        room = self.room
        lr = getattr(conn, "learner", None)
        with using(room.language):
            if lr is None or lr.removed:
                raise Refusal(tr("Join the class first."), quiz=True)
            if msg.get("type") == "quiz_get":
                self._current_to(conn, lr)
                room._done()
                return
            if self.quiz is None:
                raise Refusal(tr("That quiz question is not the one open now; nothing was "
                                 "stored."), quiz=True)
            cur = self.quiz.answer(lr, msg)
            ack = _dumps(self._ack(cur, lr))
        for c in lr.conns:                # every page of the learner (a phone and a laptop)
            room._send(c, ack)
        room._done()

    def _current_to(self, conn, lr) -> None:
        q = self.quiz
        cur = q.current if q is not None else None
        if cur is None:
            self.room._send(conn, {"type": "quiz_end", "quiz": q.id if q else None})
            return
        self.room._send(conn, cur.public())
        if lr.id in cur.answers:
            self.room._send(conn, self._ack(cur, lr))
        if cur.revealed:
            self.room._send(conn, self._reveal_msg(cur, lr))

    # -- teachers
    def teacher_conns(self) -> list:
        server = self.room.server
        desk = getattr(server, "_desk", None) if server is not None else None
        return list(desk.conns) if desk is not None else []

    def tell_teacher(self, sentence: str) -> None:
        """A sentence on every teacher page (the notice at the top of the page)."""
        text = _dumps({"type": "refused", "reason": sentence[:300]})
        for conn in self.teacher_conns():
            conn.send(text)

    def teacher_text(self) -> str:
        with using(self.room.language):
            state = self.quiz.state() if self.quiz is not None else {"active": False}
            state["kinds"] = [{"kind": k, "title": _title(k)} for k in CLICK_KINDS]
            state["words"] = teacher_words()
        return _dumps({"type": "quiz", "state": state})

    def changed(self, now: bool = False) -> None:
        """Tell the teacher pages (coalesced: at most every PUSH_DELAY seconds)."""
        loop = self.room.loop
        if now or loop is None:
            self.push()
        elif not self._push_due:
            self._push_due = True
            loop.call_later(PUSH_DELAY, self.push)

    def push(self) -> None:
        self._push_due = False
        conns = self.teacher_conns()
        if not conns or self.room.closed:
            return
        text = self.teacher_text()
        for conn in conns:
            conn.send(text)

    def teacher_message(self, conn, content) -> None:
        """A teacher page's quiz request (the socket proved the teacher's token)."""
        kind = content.get("type") if isinstance(content, dict) else None
        with using(self.room.language):
            try:
                if kind == "start":
                    seed = content.get("seed")
                    self.start(content.get("kind"), n=content.get("n", 5),
                               seed=None if seed in (None, "") else seed)
                elif kind in ("next", "reveal", "stop"):
                    if self.quiz is None or self.quiz.current is None:
                        raise ValueError(tr("No quiz is running."))
                    getattr(self.quiz, kind)()
                elif kind != "state":
                    raise ValueError(tr("The class server ignored a message it does not "
                                        "understand; nothing changed."))
            except ValueError as err:
                conn.send(_dumps({"type": "refused", "reason": str(err)[:300]}))
                kind = "state"
        if kind == "state" or not self.teacher_conns():   # the others had it pushed
            conn.send(self.teacher_text())


def _title(kind: str) -> str:
    from courtlearn.exercises import TITLES
    return TITLES.get(kind, kind)


def desk_of(room) -> QuizDesk:
    """The room's QuizDesk (made on first use)."""
    desk = getattr(room, "_quiz_desk", None)
    if desk is None:
        desk = room._quiz_desk = QuizDesk(room)
    return desk


def start(room, kind: str, n: int = 5, seed: int | None = None) -> Quiz:
    """Start a live quiz in ``room`` (see :meth:`Room.quiz`)."""
    return desk_of(room).start(kind, n=n, seed=seed)
