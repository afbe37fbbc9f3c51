"""cl.play(): a card table with classroom controls around it (ipywidgets).

New deal, Undo, Step, Auto-play with a pace slider for the bot seats, Show all
hands, a rules picker and a replay slider that steps through the deal so far.
Every control calls the table's Python API, so a notebook can do the same.
"""
from __future__ import annotations

import ipywidgets as W

from courtlearn.cards import quoted
from courtlearn.language import tr

from .table import CardTable, check_flag, default_bot

__all__ = ["PlayApp", "play"]

def _games():
    """(title, name) of each game, the titles from Rules."""
    from courtlearn.rules import GAMES as NAMES, Rules
    return [(Rules.of(name).title, name) for name in NAMES]


def _rules(game, options=None):
    """The Rules for ``game`` (a name, or a Rules) with the Rules ``options`` (keywords of
    :class:`courtlearn.Rules`, checked by it)."""
    from courtlearn.rules import GAMES, Rules
    options = options or {}
    if isinstance(game, Rules):
        return Rules.of(game, **options)
    if isinstance(game, str):
        key = game.strip().lower().replace(" ", "_").replace("-", "_")
        if key in GAMES:
            return Rules.of(key, **options)
    raise ValueError(tr("game must be one of court_piece, double_sir, dehla_pakad (or a Rules); "
                        "got {game!r}", game=quoted(game)))


class PlayApp(W.VBox):
    """The table and its controls. ``app.table`` is the CardTable.

    ``options``: keywords of :class:`courtlearn.Rules` for the game (``goon_courts=10``),
    refused with Rules' own message where wrong; the rules picker keeps them for that game.
    """

    def __init__(self, game="court_piece", seed=None, seat=0, bots=None, show_all=False,
                 size="normal", animate=True, **options):
        from courtlearn.session import Session
        self.rules = _rules(game, options)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
            raise ValueError(tr("seed is a whole number or text, got {value!r}.",
                                value=quoted(seed)))
        check_flag(show_all, "show_all")
        self._chosen = {self.rules.game: self.rules}   # the rules picked for each game
        self.seed = seed
        self._sessions = 0
        self._syncing = False
        self.bots = bots if bots is not None else default_bot()
        self.session = Session(self.rules, seed=seed)
        self.table = CardTable(self.session, seat=seat, bots=self.bots, show_all=show_all, size=size,
                               animate=animate)

        lay = W.Layout(width="auto", flex="0 0 auto")   # buttons keep their words and wrap
        self.new_button = W.Button(description=tr("New deal"), icon="refresh", layout=lay)
        self.undo_button = W.Button(description=tr("Undo"), icon="undo", layout=lay)
        self.step_button = W.Button(description=tr("Step"), icon="step-forward", layout=lay,
                                    tooltip=tr("the next move (a bot's, or a suggestion for you)"))
        self.auto = W.ToggleButton(value=True, description=tr("Auto-play"), icon="play",
                                   layout=lay,
                                   tooltip=tr("bots answer by themselves after your move"))
        self.pace = W.IntSlider(value=self.table.speed, min=0, max=1500, step=50,
                                description=tr("Pace (ms)"), continuous_update=False,
                                layout=W.Layout(width="260px", max_width="100%"))
        self.show_all = W.Checkbox(value=show_all, description=tr("Show all hands"), indent=False,
                                   layout=W.Layout(width="auto", flex="0 0 auto"))
        self.picker = W.Dropdown(options=_games(), value=self.rules.game, description=tr("Rules"),
                                 layout=W.Layout(width="220px", max_width="100%"))
        self.replay = W.IntSlider(value=0, min=0, max=0, description=tr("Replay"),
                                  continuous_update=True, layout=W.Layout(width="420px", max_width="100%"))

        self.new_button.on_click(lambda _b: self._guard(self.new_deal))
        self.undo_button.on_click(lambda _b: self._guard(self.table.undo))
        self.step_button.on_click(lambda _b: self._guard(self.table.step))
        self.auto.observe(self._on_auto, "value")
        self.pace.observe(lambda ch: setattr(self.table, "speed", int(ch["new"])), "value")
        self.table.observe(self._on_speed, "speed")
        self.show_all.observe(lambda ch: setattr(self.table, "show_all", bool(ch["new"])), "value")
        self.picker.observe(self._on_rules, "value")
        self.replay.observe(self._on_replay, "value")
        self.table.observe(self._on_table, "state")
        self._on_table(None)

        wrap = W.Layout(flex_flow="row wrap")          # on a phone the rows wrap, words intact
        row1 = W.HBox([self.new_button, self.undo_button, self.step_button, self.auto, self.pace],
                      layout=wrap)
        row2 = W.HBox([self.picker, self.show_all, self.replay], layout=W.Layout(flex_flow="row wrap"))
        super().__init__([self.table, row1, row2])

    # ------------------------------------------------------------------ handlers
    def _guard(self, fn):
        try:
            fn()
        except ValueError:        # already shown in the table's message area
            pass

    def _on_auto(self, change):
        self.table.autoplay = bool(change["new"])
        if self.table.autoplay:
            self.table.resume()

    def _on_rules(self, change):
        from courtlearn.session import Session
        self.rules = self._chosen.get(change["new"]) or _rules(change["new"])
        self.session = Session(self.rules, seed=self._next_seed())
        self.table.set_deal(self.session)

    def _on_speed(self, change):
        # table.speed set from Python: the slider follows when it can show the value
        if self.pace.min <= change["new"] <= self.pace.max:
            self.pace.value = int(change["new"])

    def _on_replay(self, change):
        if self._syncing:
            return
        self.table.replay(change["new"])

    def _on_table(self, _change):
        n = len(self.table.deal.actions)
        self._syncing = True
        try:
            live = self.table._replay is None
            self.replay.max = n
            if live:
                self.replay.value = n
        finally:
            self._syncing = False

    def _next_seed(self):
        self._sessions += 1
        return None if self.seed is None else f"{self.seed}/{self._sessions}"

    # ------------------------------------------------------------------ API
    def new_deal(self):
        """The session's next deal; a fresh session when the deal on the table is unfinished."""
        from courtlearn.session import Session
        if self.table.deal.over:
            self.table.new_deal()
        else:
            self.session = Session(self.rules, seed=self._next_seed())
            self.table.set_deal(self.session)
        return self

    def __repr__(self) -> str:
        return f"PlayApp({self.table!r})"

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        data = dict(data[0] if isinstance(data, tuple) else data or {})
        data["text/plain"] = repr(self)
        html = self.table._picture()
        if html:
            data["text/html"] = html
        return data


def play(game="court_piece", seed=None, seat=0, bots=None, show_all=False, size="normal",
         animate=True, **options):
    """A card table with controls; ``bots`` None puts a RuleBot at every other seat.
    ``options`` are the house rules, as keywords of :class:`courtlearn.Rules`:
    ``play("double_sir", goon_courts=10)``."""
    return PlayApp(game, seed=seed, seat=seat, bots=bots, show_all=show_all, size=size,
                   animate=animate, **options)
