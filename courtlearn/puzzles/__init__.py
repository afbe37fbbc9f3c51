"""The puzzle ladder: end positions to play out against a defence that never slips.

Each puzzle is a real deal, saved in the deal notation, stopped with 3 to 7 tricks left
and one seat of the learner's side to play; all four hands are face up. The learner plays
both partners' cards; the other side answers with best defence (:func:`courtlearn.solve`).
The goal is said in words, and underneath is a number the solver checks: ``target``,
the least the learner's side must hold after the 13th trick (tricks in its pile; tens in
Dehla Pakad), counted as ``cl.solve`` counts them. The ladder itself is the text file
``ladder.txt`` beside this module, one entry per puzzle, written by hand from candidates
that ``scripts/find_puzzles.py`` finds; the suite proves every entry with the solver.

>>> import courtlearn as cl
>>> p = cl.puzzles.puzzle(1, 1)
>>> p.level, p.seat, len(p.deal.tricks) >= 6
(1, 0, True)
>>> fb = p.check(p.winning_line())
Correct: ...
>>> bool(fb)
True
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..cards import _whole, quoted
from ..language import or_words, tr, trn
from ..rules import team_of

__all__ = ["LEVELS", "Puzzle", "Worked", "puzzle", "all", "play", "progress", "worked", "defend",
           "goal_words", "record_try"]

LEVELS = (1, 2, 3, 4, 5)
LADDER = Path(__file__).with_name("ladder.txt")
_FIELDS = ("level", "title", "seat", "target", "goal", "solution")


# ------------------------------------------------------------------ a puzzle
@dataclass(frozen=True)
class Puzzle:
    """One puzzle of the ladder (see the module's doc). ``deal`` is a fresh copy each time."""

    level: int
    number: int              # its place within its level, from 1
    title_text: str          # the title, goal and write-up as ladder.txt has them (English);
    goal_text: str           # .title, .goal and .solution read them in the current language
    target: int
    seat: int
    solution_text: str
    notation: str
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def title(self) -> str:
        return tr(self.title_text)

    @property
    def goal(self) -> str:
        return tr(self.goal_text)

    @property
    def solution(self) -> str:
        """How the goal is reached, in words (the current language)."""
        return tr(self.solution_text)

    def __repr__(self) -> str:
        return f"Puzzle(level={self.level}, number={self.number}, title={self.title_text!r})"

    def _repr_html_(self) -> str:
        import html
        from ..render import deal_html, title_html
        deal = self.deal
        you = tr("You play both {side} hands.", side=deal.rules.team_name(self.team))
        return (f"<div class=\"courtlearn-puzzle\">{title_html(self.heading)}"
                f"{deal_html(deal, show_all=True)}<p><b>{html.escape(self.goal)}</b> "
                f"{html.escape(you)}</p></div>")

    @property
    def heading(self) -> str:
        """"Puzzle 1.2 · Draw the last trump", in the current language."""
        return tr("Puzzle {key} · {title}", key=self.key, title=self.title)

    def __str__(self) -> str:
        return f"{self.heading}: {self.goal}"

    @property
    def key(self) -> str:
        return f"{self.level}.{self.number}"

    @property
    def deal(self):
        from ..notation import from_notation
        return from_notation(self.notation)

    @property
    def game(self) -> str:
        return self.deal.rules.game

    @property
    def team(self) -> int:
        return team_of(self.seat)

    @property
    def tricks_left(self) -> int:
        return 13 - len(self.deal.tricks)

    @property
    def answer(self) -> tuple:
        """The lawful first cards that keep the goal against best defence (by the solver)."""
        if "answer" not in self._cache:
            from ..solver import solve
            values = solve(self.deal).values
            self._cache["answer"] = tuple(c for c, v in values.items() if v >= self.target)
        return self._cache["answer"]

    def winning_line(self) -> list:
        """The learner's cards of one line that reaches the goal against the defence
        :meth:`check` plays (see :func:`defend`)."""
        from ..solver import solve
        deal = self.deal
        line = []
        while deal.phase == "play":
            if team_of(deal.to_play) == self.team:
                values = solve(deal).values
                card = min((c for c, v in values.items() if v >= self.target),
                           key=lambda c: (c.rank, c.si))  # the lowest card that keeps it
                line.append(card)
            else:
                card = defend(deal, self.team, self.target)
            deal.play(card)
        return line

    def check(self, cards, quiet: bool = False, record: bool = True):
        """Play ``cards`` (the learner's side's cards, in order) against best defence.

        Returns a Feedback (printed unless ``quiet``): Correct when the line reaches the
        goal, else Not yet with the card that lost it and the card that would have kept
        it. Each check is a try in the learner's progress (unless ``record=False``, or the
        line is a worked example: see :func:`worked`). Never raises."""
        import dataclasses
        from ..exercises._base import Feedback
        try:
            fb = self._check(cards)
        except Exception as err:         # never raises: say what went wrong (not a try)
            fb = Feedback(None, tr("Not yet: {why}", why=quoted(str(err), 200)))
        if isinstance(cards, Worked):    # the teacher's line, not the learner's solve
            record = False
            if fb.correct is not None:
                fb = dataclasses.replace(fb, message=fb.message + "\n" + tr(
                    "(A worked example: it does not count among your solved puzzles.)"))
        if record and fb.correct is not None:
            try:
                record_try(self, cards, bool(fb.correct))
            except Exception as err:                 # progress is a comfort, not a must
                print(tr("(Your progress could not be recorded: {error})", error=err))
        if not quiet:
            print(fb.message)
        return fb

    def _check(self, cards):
        from ..exercises._base import Feedback, Unreadable, read_cards
        deal = self.deal
        rules = deal.rules
        if cards is Ellipsis:
            return Feedback(None, tr("Not answered yet: replace ... with your side's cards, in "
                                     "order, e.g. [\"{card}\", ...].",
                                     card=deal.legal_cards()[0]))
        try:
            empty = cards is None or (isinstance(cards, str) and not cards.strip())
            line = [] if empty else read_cards(cards)
        except Unreadable as err:
            return Feedback(None, tr("Not yet: {why}", why=err))
        if not line:
            return Feedback(None, tr("Give the cards your side plays, in order, starting with "
                                     "{seat}'s, e.g. check([\"{card}\", ...]).",
                                     seat=rules.seat_name(deal.to_play),
                                     card=deal.legal_cards()[0]))
        verdict = _run(deal, line, self.team, self.target)
        if verdict is None:
            return Feedback(True, tr("Correct: {side} end the deal with {count}, and the goal is "
                                     "reached.", side=rules.team_name(self.team),
                                     count=_count(rules, _total(deal, self.team))),
                            expected=" ".join(str(c) for c in self.answer))
        return Feedback(False, verdict, expected=" ".join(str(c) for c in self.answer))


def record_try(puzzle: Puzzle, cards, solved: bool) -> dict:
    """One try at ``puzzle`` with the line ``cards`` (the learner's side's cards): counted in
    the learner's progress file (its record is returned) and published to whoever listens
    (courtlearn/publish.py: a class the notebook joined, ``cl.classroom.join``). Every try, from :meth:`Puzzle.check` and
    from the puzzle table, is counted here. A class that cannot be reached never stops it."""
    from . import progress_file as _progress
    rec = _progress.record(puzzle, solved)
    try:                                 # published (courtlearn/publish.py) to who listens
        from .. import publish
        from ..exercises._base import read_cards
        line = [c.code for c in read_cards(cards)]
        publish.publish(publish.Checked("puzzle", publish.puzzle_item(puzzle), line,
                                        bool(solved), ref=_progress.puzzle_id(puzzle),
                                        source=puzzle))
    except Exception:                                # noqa: BLE001 (the try is counted)
        pass
    return rec


class Worked(tuple):
    """The cards of a worked example's line (made by :func:`worked`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"worked({[str(c) for c in self]!r})"


def worked(cards) -> Worked:
    """A worked example's line: :meth:`Puzzle.check` checks it like any other line, but a
    worked answer is the teacher's, so it never counts in the learner's progress.

    The teacher's copy of an exercise writes its worked answers so; the student copy
    (``make student``) replaces the whole ``answer = ...`` line, and the line the learner
    types there (a plain list) counts as theirs. ``cards``: card texts as for ``check``; a
    line that cannot be read is a ValueError saying how to write it.

    >>> import courtlearn as cl
    >>> answer = cl.puzzles.worked(["9♣", "8♦", "10♥", "9♥", "8♠", "Q♥"])
    >>> fb = cl.puzzles.puzzle(1, 1).check(answer)             # doctest: +ELLIPSIS
    Correct: ...
    (A worked example: it does not count among your solved puzzles.)
    """
    from ..exercises._base import Unreadable, read_cards
    try:
        return Worked(read_cards(cards))
    except Unreadable as err:
        raise ValueError(str(err)) from None


def _run(deal, line, team, target):
    """Plays ``line`` for ``team`` from ``deal`` (changed in place) against :func:`defend`;
    None when the goal is reached, else the sentence why not."""
    from ..solver import solve
    rules = deal.rules
    i = 0
    said = []                                     # the defence's cards, told in the verdict
    while deal.phase == "play":
        seat = deal.to_play
        name = rules.seat_name(seat)
        if team_of(seat) != team:
            card = defend(deal, team, target)
            said.append(f"{name} {card}")
            deal.play(card)
            continue
        values = solve(deal).values
        keep = [c for c, v in values.items() if v >= target]
        before = (" " + tr("(the defence played {cards})", cards=tr(", ").join(said))) \
            if said else ""
        if i >= len(line):
            return tr("Not yet: {why}", why=trn(
                "the line stops after {n} card{before} and the goal is still in reach: {seat} "
                "plays next, and {cards} keeps it.",
                "the line stops after {n} cards{before} and the goal is still in reach: {seat} "
                "plays next, and {cards} keeps it.", i, before=before, seat=name,
                cards=_names(keep)))
        card = line[i]
        if card not in values:
            return tr("Not yet: {why}", why=tr(
                "card {n} of your line, {card}, cannot be played by {seat}{before}: {refusal} "
                "{seat} may play {cards}.", n=i + 1, card=card, seat=name, before=before,
                refusal=_refusal(deal, card), cards=_names(list(values))))
        if values[card] < target:
            return tr("Not yet: {why}", why=tr(
                "{card} ({seat}, card {n} of your line{before}) lets the defence stop the goal; "
                "{cards} would have kept it.", card=card, seat=name, n=i + 1, before=before,
                cards=_names(keep)))
        deal.play(card)
        i += 1
    return None


def defend(deal, team: int, target: int):
    """The defence's card: one of its best cards by the solver (the fewest units left to
    ``team``), and among those the one that leaves the learner the fewest cards that keep
    the goal at their next turn (the hardest), then the lowest."""
    from ..solver import solve
    values = solve(deal).values
    top = max(values.values())
    best = sorted((c for c, v in values.items() if v == top), key=lambda c: (c.rank, c.si))
    if len(best) == 1:
        return best[0]

    def pressure(card):
        after = type(deal).from_dict(deal.to_dict())
        after.play(card)
        if after.phase != "play" or team_of(after.to_play) != team:
            return 99
        return sum(v >= target for v in solve(after).values.values())
    return min(best, key=pressure)


def _refusal(deal, card) -> str:
    try:
        deal.verify_play(card)
    except Exception as err:                          # the engine's own sentence
        return str(getattr(err, "reason", err)).rstrip(".") + "."
    return tr("it is not in the hand.")


def _names(cards) -> str:
    words = [str(c) for c in cards]
    if not words:
        return tr("nothing")
    return or_words(words)


def _count(rules, n: int) -> str:
    """"5 tricks", "1 ten": what the solver counts, in the language."""
    if rules.game == "dehla_pakad":
        return trn("{n} ten", "{n} tens", n)
    return trn("{n} trick", "{n} tricks", n)


def _total(deal, team: int) -> int:
    """What the solver counts for ``team``: tens in its pile (Dehla Pakad), else tricks."""
    return deal.tens_won[team] if deal.rules.game == "dehla_pakad" else deal.tricks_won[team]


def goal_words(deal, seat: int, target: int) -> str:
    """The goal as a player says it, for ``seat``'s side holding ``target`` at the end."""
    rules = deal.rules
    name = rules.seat_name(deal.to_play)
    team = team_of(seat)
    left = 13 - len(deal.tricks)
    have = _total(deal, team)
    need = target - have
    if rules.game == "court_piece":
        what = (tr("take all of the last {left} tricks", left=left) if need == left
                else tr("take {n} of the last {left} tricks", n=need, left=left))
    elif rules.game == "double_sir":
        centre = len(deal.centre)
        if centre:
            what = tr("bring {side}'s pile from {have} to {target} tricks ({left} tricks to "
                      "play, {centre} in the centre)", side=rules.team_name(team), have=have,
                      target=target, left=left, centre=centre)
        else:
            what = tr("bring {side}'s pile from {have} to {target} tricks ({left} tricks to "
                      "play)", side=rules.team_name(team), have=have, target=target, left=left)
    else:
        out = 4 - deal.tens_won[0] - deal.tens_won[1]
        what = (tr("catch all {out} tens still to be won", out=out) if need == out
                else tr("catch {n} of the {out} tens still to be won", n=need, out=out))
    if not deal.trick.cards:
        return tr("{seat} to lead: {goal}.", seat=name, goal=what)
    return tr("{seat} to play: {goal}.", seat=name, goal=what)


# ---------------------------------------------------------------- the ladder
def _read(path: Path = LADDER) -> list:
    """The puzzles of ``ladder.txt``: entries start with a line ``=== puzzle``; fields are
    ``name: value`` lines (a value goes on over lines indented by two spaces) up to the
    deal's notation, which runs to the next entry."""
    text = path.read_text(encoding="utf-8")
    out, numbers = [], {}
    for n, block in enumerate(text.split("=== puzzle")[1:], 1):
        head, sep, deal = block.partition("# courtlearn deal")
        if not sep:
            raise ValueError(f"{path.name}: puzzle {n} has no '# courtlearn deal' notation.")
        fields = {}
        last = None
        for line in head.splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line.startswith("  ") and last:
                fields[last] += " " + line.strip()
                continue
            name, colon, value = line.partition(":")
            if not colon or name.strip() not in _FIELDS:
                raise ValueError(f"{path.name}: puzzle {n}: cannot read the line {line!r}; "
                                 f"fields are {', '.join(_FIELDS)}.")
            last = name.strip()
            fields[last] = value.strip()
        missing = [f for f in _FIELDS if f not in fields]
        if missing:
            raise ValueError(f"{path.name}: puzzle {n} lacks {', '.join(missing)}.")
        level = int(fields["level"])
        if level not in LEVELS:
            raise ValueError(f"{path.name}: puzzle {n} has level {level}; levels are 1 to 5.")
        numbers[level] = numbers.get(level, 0) + 1
        out.append(Puzzle(level=level, number=numbers[level], title_text=fields["title"],
                          goal_text=fields["goal"], target=int(fields["target"]),
                          seat=int(fields["seat"]), solution_text=fields["solution"],
                          notation=(sep + deal).strip() + "\n"))
    return out


_LADDER: list = []


def all() -> list:  # noqa: A001 (the API's name)
    """Every puzzle, level by level."""
    if not _LADDER:
        _LADDER.extend(sorted(_read(), key=lambda p: (p.level, p.number)))
    return list(_LADDER)


def play(level: int = 1, n: int | None = None, size: str = "normal", animate: bool = True):
    """The ladder on a card table (needs ipywidgets and anywidget), at puzzle ``n`` of
    ``level``, by default the first of that level not solved yet: see
    :mod:`courtlearn.puzzles.table`."""
    from .table import play as _play
    return _play(level, n, size=size, animate=animate)


def progress():
    """Solved puzzles and tries per level, from the learner's progress file."""
    from . import progress_file as _progress
    return _progress.Progress(all(), _progress.load())


def puzzle(level: int, n: int = 1) -> Puzzle:
    """Puzzle ``n`` (from 1) of ``level`` (1 to 5)."""
    level = check_level(level)
    mine = [p for p in all() if p.level == level]
    number = _whole(n)
    if number is None or not 1 <= number <= len(mine):
        raise ValueError(tr("level {level} has puzzles 1 to {n}, got {got!r}.", level=level,
                            n=len(mine), got=quoted(n)))
    return mine[number - 1]


def check_level(level) -> int:
    """``level`` as a plain int of :data:`LEVELS`, else a ValueError saying which there are."""
    number = _whole(level)
    if number not in LEVELS:
        raise ValueError(tr("level is one of {levels}, got {level!r}.",
                            levels=", ".join(map(str, LEVELS)), level=quoted(level)))
    return number
