"""The puzzle ladder on a card table: :func:`play` (``cl.puzzles.play``).

All four hands are face up. The learner plays the cards of both seats of their side by
clicking them; the other side answers at once with best defence (:func:`defend`). The
table judges every card the learner plays with the solver: as soon as one makes the
goal unreachable it says so, and which card would have kept it; Try again starts the
puzzle afresh, Show solution steps through a winning line with the puzzle's write-up,
and a solved puzzle says so and offers the next one. Each finished try (solved, or a
card that lost the goal) is one try in the learner's progress file.
"""
from __future__ import annotations

import html
import logging

import ipywidgets as W

from ..cards import quoted
from ..language import tr
from ..rules import team_of
from ..widgets.table import CardTable, Refused
from . import Puzzle, _names, all as all_puzzles, defend, record_try
from . import progress_file

__all__ = ["Defence", "PuzzleTable", "PuzzleApp", "play"]

log = logging.getLogger(__name__)


def check_puzzle(puzzle) -> Puzzle:
    """``puzzle`` if it is a Puzzle, else a TypeError saying what a puzzle table needs."""
    if not isinstance(puzzle, Puzzle):
        raise TypeError(tr("A puzzle table needs a Puzzle, such as cl.puzzles.puzzle(1, 1); "
                           "got {value!r}.", value=quoted(puzzle)))
    return puzzle


class Defence:
    """The defenders' bot: best defence, pressing the learner (see :func:`defend`)."""

    def __init__(self, team: int, target: int):
        self.team, self.target = team, target

    def __repr__(self) -> str:
        return "Defence()"

    def choose(self, deal):
        return defend(deal, self.team, self.target)


class PuzzleTable(CardTable):
    """A CardTable for one puzzle: the learner's side controlled by the viewer, the other
    side played by :class:`Defence`, every learner card judged by the solver.
    ``status``: "playing", "failed" (a card lost the goal), "solved" or "solution"."""

    def __init__(self, puzzle: Puzzle, **options):
        self.puzzle = check_puzzle(puzzle)
        self.status = "playing"
        self.failed = None                 # (card played, the cards that would have kept it)
        self._note = (puzzle.goal, "note")
        self._line = None                  # the solution's cards, when it is being shown
        seat = puzzle.seat
        defence = Defence(puzzle.team, puzzle.target)
        options.setdefault("animate", True)
        super().__init__(puzzle.deal, seat=seat, show_all=True, hints=False,
                         controls={seat, (seat + 2) % 4},
                         bots={s: defence for s in range(4) if team_of(s) != puzzle.team},
                         **options)

    # ------------------------------------------------------------------ judging
    def _snap(self, message=None, kind="info"):
        if message is None and self._note is not None:
            message, kind = self._note
        snap = super()._snap(message, kind)
        snap["can_best_play"] = False      # the marks would give the puzzle away
        return snap

    def _judge(self, card):
        """Before the learner's card: does it keep the goal? (refusals are the engine's)"""
        from ..cards import Card
        from ..solver import solve
        deal = self.deal
        if self.status == "solution":
            raise Refused(tr("The solution is on show: press Try again to play it yourself."))
        if deal.phase != "play" or team_of(deal.to_play) != self.puzzle.team:
            return
        try:
            card = Card.parse(card)
        except ValueError:
            return                          # the engine refuses it with its own sentence
        values = solve(deal).values
        if self.status == "playing" and card in values and values[card] < self.puzzle.target:
            keep = [c for c, v in values.items() if v >= self.puzzle.target]
            name = deal.rules.seat_name(deal.to_play)
            self.status = "failed"
            self.failed = (card, keep)
            self._note = (tr("After {card} ({seat}) the goal is out of reach against best "
                             "defence: {cards} would have kept it. Press Try again.", card=card,
                             seat=name, cards=_names(keep)), "error")
            self._record_try(False, card)

    def _after(self):
        if self.deal.phase == "over" and self.status == "playing":
            self.status = "solved"
            rules = self.deal.rules
            tens = rules.game == "dehla_pakad"
            total = (self.deal.tens_won if tens else self.deal.tricks_won)[self.puzzle.team]
            count = tr("{n} tens", n=total) if tens else tr("{n} tricks", n=total)
            self._note = (tr("Solved! {side} end the deal with {count}: the goal is reached.",
                             side=rules.team_name(self.puzzle.team), count=count), "hint")
            self._record_try(True)
            self._sync([])

    def _record_try(self, solved: bool, card=None):
        try:
            record_try(self.puzzle, self._tried_line(card), solved)
        except Exception as err:            # progress is a comfort, never a crash
            self._note = (self._note[0] + " " + tr("(Progress not saved: {error})", error=err),
                          self._note[1])

    def _tried_line(self, card=None) -> list:
        """The cards the learner's side played since the puzzle's position (and ``card``,
        about to be played): the try's line, as :meth:`Puzzle.check` takes it."""
        start = self.puzzle.deal
        before = 4 * len(start.tricks) + len(start.trick.cards)
        played = [sc for t in self.deal.tricks for sc in t.cards] + list(self.deal.trick.cards)
        line = [c for s, c in played[before:] if team_of(s) == self.puzzle.team]
        return line + ([card] if card is not None else [])

    def _handle(self, content):
        kind, args = self._intent(content)
        if kind in ("best_play", "hint", "review"):
            raise Refused(tr("Not in a puzzle: find the line yourself, or press Show solution."))
        if kind == "play" and self._replay is None:
            self._judge(args[0])
        super()._handle(content)
        self._settle()

    def play(self, card):
        self._judge(card)
        super().play(card)
        self._settle()
        return self

    def _settle(self):
        """:meth:`_after` a move the deal took. The move stands whatever happens here: a
        failure (a bug) is logged and said in the message line, never taken for a refusal
        of the move."""
        try:
            self._after()
        except Exception as err:
            log.exception("The puzzle table could not judge a move the deal took")
            self._note = (tr("The card was played, but the puzzle could not be judged after "
                             "it: {error}", error=quoted(str(err), 200)), "error")
            try:
                self._sync([])
            except Exception:
                log.exception("The puzzle table could not show that")

    @property
    def steps_left(self) -> int | None:
        """Cards of the solution still to be shown by :meth:`solution_step` (None when the
        solution is not on show)."""
        if self._line is None or self.status != "solution":
            return None
        return len(self._line) - (len(self.deal.actions) - len(self.puzzle.deal.actions))

    # ------------------------------------------------------------------ controls
    def try_again(self):
        """The puzzle from its start."""
        self._deal = self.puzzle.deal
        self.status = "playing"
        self.failed = None
        self._line = None
        self._last = None
        self._replay = None
        self._note = (self.puzzle.goal, "note")
        self._sync([])
        return self

    def show_solution(self):
        """Back to the start, to step through a winning line (:meth:`solution_step`)."""
        self.try_again()
        deal = self.puzzle.deal
        line = []
        mine = iter(self.puzzle.winning_line())
        while deal.phase == "play":
            if team_of(deal.to_play) == self.puzzle.team:
                card = next(mine)
            else:
                card = defend(deal, self.puzzle.team, self.puzzle.target)
            line.append(card)
            deal.play(card)
        self._line = line
        self.status = "solution"
        self._note = (tr("The solution: press Next step to play it card by card."), "note")
        self._sync([])
        return self

    def solution_step(self):
        """The next card of the solution, with the engine's sentence for it."""
        if self._line is None:
            raise ValueError(tr("Show the solution first (show_solution())."))
        deal = self.deal
        done = len(deal.actions) - len(self.puzzle.deal.actions)
        if done >= len(self._line):
            self._note = (tr("That is the whole solution: the goal is reached."), "hint")
            self._sync([])
            return self
        events = deal.play(self._line[done])
        said = " ".join(e.text for e in events)
        if done + 1 == len(self._line):
            said += " " + tr("That is the whole solution: the goal is reached.")
        self._note = (said, "note")
        frames: list = []
        self._record(frames)
        self._sync(frames)
        return self


class PuzzleApp(W.VBox):
    """The ladder: the puzzle's title and goal, its table, Try again, Show solution (and
    Next step), Next puzzle, and the learner's progress."""

    def __init__(self, puzzle: Puzzle, size: str = "normal", animate: bool = True):
        check_puzzle(puzzle)
        self.size, self.animate = size, animate
        self.header = W.HTML()
        self.solution = W.HTML()
        lay = W.Layout(width="auto")
        self.again_button = W.Button(description=tr("Try again"), icon="refresh", layout=lay)
        self.solution_button = W.Button(description=tr("Show solution"), icon="lightbulb-o",
                                        layout=lay)
        self.step_button = W.Button(description=tr("Next step"), icon="step-forward", layout=lay,
                                    disabled=True)
        self.next_button = W.Button(description=tr("Next puzzle"), icon="forward", layout=lay)
        self.progress_label = W.HTML()
        self.again_button.on_click(lambda _b: self.try_again())
        self.solution_button.on_click(lambda _b: self.show_solution())
        self.step_button.on_click(lambda _b: self.table.solution_step())
        self.next_button.on_click(lambda _b: self.next_puzzle())
        self.table = None
        self._open(puzzle)
        super().__init__([self.header, self.table,
                          W.HBox([self.again_button, self.solution_button, self.step_button,
                                  self.next_button]),
                          self.solution, self.progress_label])

    def _open(self, puzzle: Puzzle):
        self.puzzle = puzzle
        old = self.table
        self.table = PuzzleTable(puzzle, size=self.size, animate=self.animate)
        self.table.observe(self._on_table, "state")
        if old is not None:
            old.close()
            self.children = (self.header, self.table, *self.children[2:])
        p = puzzle
        rules = self.table.deal.rules
        you = tr("You play both {side} hands; {other} defend as well as anyone can.",
                 side=rules.team_name(p.team), other=rules.team_name(1 - p.team))
        self.header.value = (f"<h3>{html.escape(p.heading)}</h3>"
                             f"<p><b>{html.escape(p.goal)}</b> {html.escape(you)}</p>")
        self.solution.value = ""
        self._on_table(None)

    def _on_table(self, _change):
        t = self.table
        solved = t.status == "solved"
        self.next_button.button_style = "success" if solved else ""
        self.step_button.disabled = not t.steps_left      # lit while the solution has more
        self.progress_label.value = f"<small>{html.escape(str(_count()))}</small>"

    def try_again(self):
        self.table.try_again()
        self.solution.value = ""
        return self

    def show_solution(self):
        self.table.show_solution()
        self.solution.value = f"<p>{html.escape(self.puzzle.solution)}</p>"
        return self

    def next_puzzle(self):
        ladder = all_puzzles()
        i = ladder.index(self.puzzle)
        self._open(ladder[(i + 1) % len(ladder)])
        return self


def _count() -> str:
    from . import progress
    table = progress()
    total = sum(r["puzzles"] for r in table.rows)
    return tr("Solved so far: {n} of {total} puzzles.", n=table.solved, total=total)


def play(level: int = 1, n: int | None = None, size: str = "normal", animate: bool = True):
    """The ladder on a table, at puzzle ``n`` of ``level`` (default: the first one of that
    level not solved yet)."""
    from . import check_level, puzzle
    level = check_level(level)
    if n is None:
        records = progress_file.load()
        mine = [p for p in all_puzzles() if p.level == level]
        todo = [p for p in mine
                if not records.get(progress_file.puzzle_id(p), {}).get("solved")]
        n = (todo or mine)[0].number
    return PuzzleApp(puzzle(level, n), size=size, animate=animate)
