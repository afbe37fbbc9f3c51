"""The numbers behind the strategy lessons (15-19): measured by the engine, re-runnable.

Every rule of thumb the lessons teach comes with how often it holds. This module is
where those numbers come from, so that a learner (with a smaller sample), the bench
scripts (``bench/trump_calling.py``, ``bench/course_bot.py``, with a big one), the
notebook build and the tests (with a small one and a stated tolerance) all compute them
the same way.

Trump calling (lesson 15): ``trump_deals(deals, seed)`` deals ``deals`` shuffled hands;
the trump caller sees five of their cards, and the deal is played out four times, once
with each suit as trumps, by four players of the hint's play-outs (the rules of thumb of
:class:`courtlearn.bots.RuleBot`, as :func:`courtlearn.hint` plays the deal out). Because
every suit is tried on the very same cards, two ways of calling are compared on the same
deals. ``trump_groups`` groups the results by what the caller sees: how many of the five
are in the suit called, its highest card, and the aces of the other suits.

>>> t = trump_deals(200, seed=1)
>>> t.won.shape, t.length.shape
((200, 4), (200, 4))
>>> 0.4 < t.rate(t.choose("longest")) < 0.9
True
"""
from __future__ import annotations

from dataclasses import dataclass

from .language import N_

__all__ = ["TrumpDeals", "trump_deals", "trump_groups", "trump_figures", "trump_chart",
           "chart_style", "FIGURES", "figure", "check_figure", "match", "CALLS"]

HONOURS = {14: "A", 13: "K", 12: "Q", 11: "J"}

#: the ways of calling compared in lesson 15 (see :meth:`TrumpDeals.choose`)
CALLS = ("longest", "strongest", "highest_card", "random", "shortest")


@dataclass
class TrumpDeals:
    """Per deal (rows) and suit (columns ♠ ♥ ♣ ♦): whether the caller's side won the deal
    with that suit as trumps (``won``), the suit's cards among the caller's five
    (``length``), its highest card's rank among them (``top``, 0 when none), its honours
    A K Q J among them (``honours``), and the aces of the other suits among them
    (``aces_else``)."""

    won: object          # numpy bool (N, 4)
    length: object       # int (N, 4)
    top: object          # int (N, 4)
    honours: object      # int (N, 4)
    aces_else: object    # int (N, 4)
    points: object       # int (N, 4): A=4 K=3 Q=2 J=1 of the suit among the five
    game: str = "court_piece"

    @property
    def n(self) -> int:
        return int(self.won.shape[0])

    def choose(self, how: str, seed: int = 0):
        """The suit (0-3 per deal) a way of calling picks from the five cards:
        ``longest`` (most cards; between equals, more high-card points A=4 K=3 Q=2 J=1,
        then the higher top card), ``strongest`` (RuleBot's: two per card plus those
        points), ``highest_card`` (the suit of the highest card), ``random`` (any suit
        held, at random) or ``shortest`` (the fewest cards held, at least one)."""
        import numpy as np
        held = self.length > 0
        if how == "longest":
            key = self.length * 1000 + self.points * 20 + self.top
        elif how == "strongest":
            key = (2 * self.length + self.points) * 100 + self.top
        elif how == "highest_card":
            key = self.top * 10 + self.length
        elif how == "random":
            key = np.random.default_rng(seed).random(self.won.shape)
        elif how == "shortest":
            key = -self.length * 100 + self.top
        else:
            raise ValueError(f"how is one of {', '.join(CALLS)}, got {how!r}")
        key = np.where(held, key, -10**9)
        return key.argmax(axis=1)

    def rate(self, suits) -> float:
        """How often the caller's side won with the suits ``suits`` (one per deal)."""
        import numpy as np
        return float(self.won[np.arange(self.n), suits].mean())


def trump_deals(deals: int = 2000, seed: int = 0, game: str = "court_piece") -> TrumpDeals:
    """``deals`` shuffled deals, each played out once with each suit as trumps (see the
    module's doc). Needs numpy. 20,000 deals take about a minute."""
    import numpy as np

    from . import fastplay as fp
    from .rules import Rules
    rng = np.random.default_rng(seed)
    cfg = fp.Config.from_rules(Rules.of(game))
    n = int(deals)
    perm = np.argsort(rng.random((n, 52)), axis=1)            # a shuffle per deal
    bits = fp.BIT[perm]
    hands = np.zeros((n, 4), dtype=np.uint64)
    for s in range(4):
        hands[:, s] = np.bitwise_or.reduce(bits[:, 13 * s:13 * s + 13], axis=1)
    # seat 0 deals, seat 1 calls trumps; the caller's five: the first five of its thirteen
    five_idx = perm[:, 13:18]
    rank = (five_idx >> 2) + 2                                  # 2..14
    suit = five_idx & 3
    rows = np.arange(n)
    length = np.zeros((n, 4), dtype=np.int64)
    top = np.zeros((n, 4), dtype=np.int64)
    honours = np.zeros((n, 4), dtype=np.int64)
    points = np.zeros((n, 4), dtype=np.int64)
    aces = np.zeros((n, 4), dtype=np.int64)
    for j in range(5):
        s, r = suit[:, j], rank[:, j]
        length[rows, s] += 1
        top[rows, s] = np.maximum(top[rows, s], r)
        honours[rows, s] += r >= 11
        points[rows, s] += np.maximum(r - 10, 0)
        aces[rows, s] += r == 14
    aces_else = aces.sum(axis=1, keepdims=True) - aces
    won = np.zeros((n, 4), dtype=bool)
    for t in range(4):
        b = fp.Batch.start(cfg, 0, hands, trump=t)
        b.playout(rng)
        won[:, t] = b.winner == 1
    return TrumpDeals(won=won, length=length, top=top, honours=honours,
                      aces_else=aces_else, points=points, game=game)


def trump_groups(t: TrumpDeals) -> dict:
    """The caller's side's wins by what the caller sees, for every suit held among the
    five: ``{"length": {L: (rate, count)}, "top": {(L, top): ...}, "aces_else":
    {(L, aces): ...}}``, rates over all (deal, suit) pairs of that group."""
    import numpy as np
    out = {"length": {}, "top": {}, "aces_else": {}}
    held = t.length > 0
    for L in range(1, 6):
        m = held & (t.length == L)
        if m.any():
            out["length"][L] = (float(t.won[m].mean()), int(m.sum()))
        for label, lo, hi in (("A", 14, 14), ("K", 13, 13), ("Q or J", 11, 12),
                              ("10 or lower", 2, 10)):
            mm = m & (t.top >= lo) & (t.top <= hi)
            if mm.sum() >= 30:
                out["top"][(L, label)] = (float(t.won[mm].mean()), int(mm.sum()))
        for a in range(0, 4):
            mm = m & (t.aces_else == a)
            if mm.sum() >= 30:
                out["aces_else"][(L, a)] = (float(t.won[mm].mean()), int(mm.sum()))
    del np
    return out


# the bars of lesson 15's chart: the suit's highest card among the five (its group in
# trump_groups), the words of its legend, and its colour
CHART_TOPS = (("A", N_("highest card: the ace"), "#1d6b45"),
              ("K", N_("highest card: the king"), "#4f9a6e"),
              ("Q or J", N_("highest card: queen or jack"), "#9cc7a9"),
              ("10 or lower", N_("highest card: 10 or lower"), "#d9e8dc"))
#: the fonts a chart needs in each language beside matplotlib's own (which holds no Urdu or
#: Hindi letter): courtlearn's copies of Noto, the TrueType form of the table's web fonts
CHART_FONTS = {"ur": ("Noto Nastaliq Urdu", "NotoNastaliqUrdu-arabic-400.ttf"),
               "hi": ("Noto Sans Devanagari", "NotoSansDevanagari-devanagari-400.ttf")}


def chart_style(lang: str | None = None) -> dict:
    """matplotlib settings that write ``lang`` (the language of ``cl.set_language`` when
    None): for Urdu and Hindi the bundled Noto font first (matplotlib's own for digits and
    card letters), the text's language for the shaping of its letters (matplotlib 3.11 and
    later shape Urdu and Hindi with libraqm). Use it as ``matplotlib.rc_context(style)``.

    >>> chart_style("en")
    {}
    >>> chart_style("ur")["font.family"]
    ['Noto Nastaliq Urdu', 'DejaVu Sans']
    """
    from .language import get_language
    lang = lang or get_language()
    if lang not in CHART_FONTS:
        return {}
    from pathlib import Path

    import matplotlib
    from matplotlib import font_manager
    family, file = CHART_FONTS[lang]
    path = Path(__file__).resolve().parent / "widgets" / "static" / "fonts" / file
    if family not in {f.name for f in font_manager.fontManager.ttflist}:
        font_manager.fontManager.addfont(str(path))
    style = {"font.family": [family, "DejaVu Sans"]}
    if "text.language" in matplotlib.rcParams:
        style["text.language"] = lang
    return style


def can_write(lang: str | None = None) -> bool:
    """Whether this matplotlib shapes the letters of ``lang`` (Urdu's joined letters,
    Hindi's conjuncts): it needs libraqm, built into matplotlib 3.11 and later."""
    from .language import get_language
    if (lang or get_language()) not in CHART_FONTS:
        return True
    from matplotlib import ft2font
    return bool(getattr(ft2font, "__libraqm_version__", None))


def _chart_class():
    """A matplotlib Figure that a notebook shows as a picture by itself (a Figure made
    without pyplot has no picture of its own in IPython: only its text repr)."""
    from matplotlib.figure import Figure

    class Chart(Figure):
        def _repr_png_(self) -> bytes:
            import io
            buf = io.BytesIO()
            self.savefig(buf, format="png", dpi=100)
            return buf.getvalue()

    return Chart


def trump_chart(t: TrumpDeals):
    """Lesson 15's chart from ``t`` (:func:`trump_deals`): for each length of the suit
    called among the caller's five (1 to 4), how many deals in 100 the caller's side won,
    one bar per highest card of the suit. Its words are in the language of
    ``cl.set_language`` (in English where matplotlib cannot shape Urdu or Hindi letters:
    before 3.11). Returns a matplotlib Figure, which a notebook shows as a picture.

    >>> fig = trump_chart(trump_deals(300, seed=1))
    >>> [text.get_text() for text in fig.axes[0].get_legend().get_texts()][0]
    'highest card: the ace'
    >>> fig._repr_png_()[:4]
    b'\\x89PNG'
    """
    import matplotlib

    from .language import get_language, tr, using
    lang = get_language() if can_write() else "en"
    groups = trump_groups(t)["top"]
    with using(lang), matplotlib.rc_context(chart_style(lang)):
        fig = _chart_class()(figsize=(7, 3.9))
        ax = fig.subplots()
        for i, (top, words, colour) in enumerate(CHART_TOPS):
            lengths = [L for L in range(1, 5) if (L, top) in groups]
            ax.bar([L + (i - 1.5) * 0.2 for L in lengths],
                   [100 * groups[L, top][0] for L in lengths], width=0.2, color=colour,
                   edgecolor="#333", label=tr(words))
        ax.set_xticks(range(1, 5), [tr("{n} of 5", n=L) for L in range(1, 5)])
        ax.set_xlabel(tr("cards of the suit called among the caller's first five"))
        ax.set_ylabel(tr("deals won in 100"))
        ax.set_ylim(0, 100)
        ax.axhline(50, color="#999", linewidth=0.8)
        ax.legend(fontsize=8, ncol=2, loc="upper left", frameon=False)
        fig.tight_layout()
    return fig


# ------------------------------------------------------------------ CourseBot's matches
def _bot(name: str):
    """"rule", "random", "course", "course-RULE" (the course without RULE) or "course+RULE"
    (the course with RULE played in every game, beyond the games it is taught for)."""
    from .bots import CourseBot, RandomBot, RuleBot
    if name == "rule":
        return RuleBot()
    if name == "random":
        return RandomBot(seed=0)
    if name == "course":
        return CourseBot()
    if name.startswith("course-"):
        return CourseBot(off=name[len("course-"):].split(","))
    if name.startswith("course+"):
        return CourseBot(wide=name[len("course+"):].split(","))
    if name.startswith("course*"):
        return CourseBot(extra=name[len("course*"):].split(","))
    raise ValueError(f"unknown bot {name!r}")


_MATCHES: dict = {}


def _match_cached(a, b, game, deals, first_seed):
    key = (a, b, game, deals, first_seed)
    if key not in _MATCHES:
        _MATCHES[key] = match(a, b, game, deals=deals, first_seed=first_seed)
    return _MATCHES[key]


def match(a: str, b: str, game: str = "court_piece", deals: int = 200, first_seed: int = 0):
    """Pair ``a`` against pair ``b`` (names as for the bench: "course", "course-RULE",
    "rule", "random") on ``deals`` seeded deals, each played twice with the seats swapped.
    Returns a list, one entry per deal: how many of its two games ``a``'s side won (0-2).

    >>> sum(match("course", "random", deals=5)) >= 6
    True
    """
    from .bots import act, deciding_seat
    from .deal import Deal
    from .rules import Rules
    rules = Rules.of(game)
    out = []
    for seed in range(first_seed, first_seed + deals):
        won = 0
        for a_team in (0, 1):
            bot_a, bot_b = _bot(a), _bot(b)
            if b == "random":
                bot_b = type(bot_b)(seed=seed)
            bots = [bot_a if s % 2 == a_team else bot_b for s in range(4)]
            deal = Deal(rules, dealer=seed % 4, seed=seed)
            while True:
                seat = deciding_seat(deal)
                if seat is None or not act(bots[seat], deal):
                    break
            won += deal.result.winner == a_team
        out.append(won)
    return out


# ------------------------------------------------------------------ lesson 15's figures
def trump_figures(t: TrumpDeals) -> dict:
    """Lesson 15's numbers from one set of deals (see :func:`trump_deals`), as shares of
    deals the caller's side won: the ways of calling (``call.<how>``), every other suit
    held (``call.other``), and the paired comparisons of its rules of thumb (on the deals
    where the caller had that choice): ``three_small``/``two_with_ace``,
    ``two_small``/``lone_ace``, ``stronger``/``weaker`` (two suits of two cards each),
    and by the number of aces in the other suits (``aces.0`` .. ``aces.2``, calling the
    longest suit)."""
    import numpy as np
    rows = np.arange(t.n)
    out = {f"call.{how}": t.rate(t.choose(how)) for how in CALLS}
    best = t.choose("longest")
    others = np.where(t.length > 0, t.won, np.nan).astype(float)
    others[rows, best] = np.nan
    out["call.other"] = float(np.nanmean(others))

    def pair(a_mask, b_mask):
        m = a_mask.any(1) & b_mask.any(1)
        ia, ib = a_mask.argmax(1), b_mask.argmax(1)
        return float(t.won[rows, ia][m].mean()), float(t.won[rows, ib][m].mean()), int(m.sum())
    out["three_small"], out["two_with_ace"], out["n.three_vs_two"] = pair(
        (t.length == 3) & (t.top <= 10), (t.length == 2) & (t.top == 14))
    out["two_small"], out["lone_ace"], out["n.two_vs_one"] = pair(
        (t.length == 2) & (t.top <= 10), (t.length == 1) & (t.top == 14))
    two = (t.length == 2) & (t.length.max(1) == 2)[:, None]
    strength = t.points * 100 + t.top
    hi = np.where(two, strength, -1).argmax(1)
    lo = np.where(two, -strength, -10**6).argmax(1)
    m = (two.sum(1) >= 2) & (strength[rows, hi] != strength[rows, lo])
    out["stronger"] = float(t.won[rows, hi][m].mean())
    out["weaker"] = float(t.won[rows, lo][m].mean())
    out["n.equal"] = int(m.sum())
    aces = t.aces_else[rows, best]
    for a in range(3):
        out[f"aces.{a}"] = float(t.won[rows, best][aces == a].mean())
    for L in range(2, 5):
        out[f"length.{L}"] = float(t.won[rows, best][t.length[rows, best] == L].mean())
    return out


#: the numbers the lessons quote: name -> (what it is, quoted value, tolerance for a
#: recomputation with a smaller sample; for the bot's matches the check allows three
#: standard errors of that sample when they are larger, see :func:`check_figure`). The quoted values come from the bench scripts'
#: big samples (bench/trump_calling.py: 200,000 deals; bench/course_bot.py: 2,000 deals
#: a game, each played twice); the build and the tests recompute them with small ones.
FIGURES: dict = {
    # lesson 15 (bench/trump_calling.py --deals 200000 --seed 0; rechecked on 20,000 deals)
    "trump.call.longest": ("calling the longest suit", 0.598, 0.025),
    "trump.call.other": ("calling another suit held", 0.479, 0.025),
    "trump.call.random": ("calling a suit held at random", 0.527, 0.025),
    "trump.call.strongest": ("calling RuleBot's way (two per card plus points)", 0.584, 0.025),
    "trump.three_small": ("three small trumps, with two headed by the ace beside", 0.687, 0.10),
    "trump.two_with_ace": ("two trumps headed by the ace, three small beside", 0.619, 0.10),
    "trump.two_small": ("two small trumps, with a lone ace beside", 0.608, 0.04),
    "trump.lone_ace": ("a lone ace as trumps, two small beside", 0.503, 0.04),
    "trump.stronger": ("the stronger of two suits of two", 0.562, 0.03),
    "trump.weaker": ("the weaker of two suits of two", 0.549, 0.03),
    "trump.aces.0": ("the longest suit called, no ace in the other suits", 0.583, 0.03),
    "trump.aces.1": ("the longest suit called, one ace in the other suits", 0.680, 0.03),
    "trump.aces.2": ("the longest suit called, two aces in the other suits", 0.765, 0.08),
    "trump.length.2": ("the longest suit holds two of the five", 0.553, 0.03),
    "trump.length.3": ("the longest suit holds three of the five", 0.660, 0.03),
    "trump.length.4": ("the longest suit holds four of the five", 0.773, 0.04),
    # lessons 15-19: worth = deals in 100, as a share, from bench/course_bot.py (seeds from
    # 0, each deal played twice, seats swapped): Court Piece and Double Sir --deals 2000
    # (build/bench/course_bot_final.txt), but Double Sir's stop_on_one and the course
    # against RuleBot --deals 20000 --games double_sir --rules stop_on_one --blocks 10, and
    # Dehla Pakad --deals 4000 --games dehla_pakad --blocks 4 (measured again after
    # guard_ten left the course); Court Piece's draw_trumps over 14,000 deals (seeds
    # 0-13999 in three runs pooled: see bench/course_bot.py's docstring); rechecked on the
    # first 300 deals. INTERVALS holds each
    # one's 95% interval.
    "worth.court_piece.call_longest": ("CourseBot with call_longest minus without it, in court_piece", 0.029, 0.05),
    "worth.court_piece.trump_or_throw": ("CourseBot with trump_or_throw minus without it, in court_piece", 0.180, 0.05),
    "worth.court_piece.win_cheaply": ("CourseBot with win_cheaply minus without it, in court_piece", 0.051, 0.05),
    "worth.court_piece.overtrump_cheaply": ("CourseBot with overtrump_cheaply minus without it, in court_piece", 0.056, 0.05),
    "worth.court_piece.cash_winners": ("CourseBot with cash_winners minus without it, in court_piece", 0.061, 0.05),
    "worth.court_piece.third_hand_high": ("CourseBot with third_hand_high minus without it, in court_piece", 0.026, 0.05),
    "worth.court_piece.draw_trumps": ("adding draw_trumps to CourseBot in court_piece", 0.013, 0.05),
    "worth.court_piece.second_hand_low": ("adding second_hand_low to CourseBot in court_piece", 0.001, 0.05),
    "worth.court_piece.partner_sure_trick": ("CourseBot with partner_sure_trick minus without it, in court_piece", 0.059, 0.05),
    "worth.double_sir.partner_sure_trick": ("CourseBot with partner_sure_trick minus without it, in double_sir", 0.000, 0.05),
    "worth.dehla_pakad.partner_sure_trick": ("CourseBot with partner_sure_trick minus without it, in dehla_pakad", 0.000, 0.05),
    "worth.court_piece.discard_losers": ("CourseBot with discard_losers minus without it, in court_piece", 0.024, 0.05),
    "worth.double_sir.discard_losers": ("CourseBot with discard_losers minus without it, in double_sir", 0.031, 0.05),
    "worth.dehla_pakad.discard_losers": ("CourseBot with discard_losers minus without it, in dehla_pakad", 0.028, 0.05),
    "worth.court_piece.return_partner_suit": ("adding return_partner_suit to CourseBot in court_piece", -0.000, 0.05),
    "worth.double_sir.cash_winners": ("playing cash_winners in double_sir, beyond its games", -0.042, 0.05),
    "worth.double_sir.trump_or_throw": ("playing trump_or_throw in double_sir, beyond its games", -0.022, 0.05),
    "worth.double_sir.overtrump_cheaply": ("playing overtrump_cheaply in double_sir, beyond its games", -0.014, 0.05),
    "worth.double_sir.win_cheaply": ("playing win_cheaply in double_sir, beyond its games", 0.005, 0.05),
    "worth.double_sir.press_on": ("CourseBot with press_on minus without it, in double_sir", 0.083, 0.05),
    "worth.double_sir.stop_on_one": ("CourseBot with stop_on_one minus without it, in double_sir", 0.196, 0.05),
    "course.double_sir.rule": ("CourseBot's side against rule in double_sir", 0.660, 0.06),
    "worth.dehla_pakad.ten_on_partner": ("CourseBot with ten_on_partner minus without it, in dehla_pakad", 0.043, 0.05),
    "worth.dehla_pakad.press_on": ("CourseBot with press_on minus without it, in dehla_pakad", 0.052, 0.05),
    "worth.dehla_pakad.stop_on_one": ("CourseBot with stop_on_one minus without it, in dehla_pakad", 0.128, 0.05),
    "worth.dehla_pakad.guard_ten": ("adding guard_ten to CourseBot in dehla_pakad", 0.002, 0.05),
    "worth.dehla_pakad.catch_ten": ("adding catch_ten to CourseBot in dehla_pakad", 0.003, 0.05),
    "worth.dehla_pakad.cash_winners": ("playing cash_winners in dehla_pakad, beyond its games", -0.040, 0.05),
    "course.dehla_pakad.rule": ("CourseBot's side against rule in dehla_pakad", 0.610, 0.06),
    "course.court_piece.random": ("CourseBot's side against random in court_piece", 0.846, 0.06),
}

#: the 95% interval (low, high, deals) of each bench figure of the strategy lessons, by
#: deal (each deal's two games, seats swapped, give one number: deals are the independent
#: unit, and a worth is the paired difference of the two bots on the same deals). Double
#: Sir's stop_on_one: the wider of that and the one from the scatter of ten 2,000-deal
#: blocks (batch means), which scattered more than the per-deal interval predicts.
INTERVALS: dict = {
    "worth.court_piece.call_longest": (0.018, 0.039, 2000),
    "worth.court_piece.trump_or_throw": (0.167, 0.193, 2000),
    "worth.court_piece.win_cheaply": (0.043, 0.060, 2000),
    "worth.court_piece.overtrump_cheaply": (0.048, 0.064, 2000),
    "worth.court_piece.cash_winners": (0.049, 0.073, 2000),
    "worth.court_piece.third_hand_high": (0.019, 0.034, 2000),
    "worth.court_piece.draw_trumps": (0.010, 0.017, 14000),
    "worth.court_piece.second_hand_low": (-0.007, 0.008, 2000),
    "worth.court_piece.partner_sure_trick": (0.051, 0.068, 2000),
    "worth.court_piece.discard_losers": (0.018, 0.030, 2000),
    "worth.court_piece.return_partner_suit": (-0.005, 0.004, 2000),
    "worth.double_sir.partner_sure_trick": (0.0, 0.0, 2000),
    "worth.double_sir.discard_losers": (0.021, 0.040, 2000),
    "worth.double_sir.cash_winners": (-0.053, -0.030, 2000),
    "worth.double_sir.trump_or_throw": (-0.030, -0.014, 2000),
    "worth.double_sir.overtrump_cheaply": (-0.020, -0.008, 2000),
    "worth.double_sir.win_cheaply": (-0.006, 0.016, 2000),
    "worth.double_sir.press_on": (0.069, 0.098, 2000),
    "worth.double_sir.stop_on_one": (0.188, 0.204, 20000),
    "course.double_sir.rule": (0.657, 0.664, 20000),
    "worth.dehla_pakad.partner_sure_trick": (0.0, 0.0, 4000),
    "worth.dehla_pakad.discard_losers": (0.022, 0.034, 4000),
    "worth.dehla_pakad.ten_on_partner": (0.037, 0.049, 4000),
    "worth.dehla_pakad.press_on": (0.042, 0.062, 4000),
    "worth.dehla_pakad.stop_on_one": (0.118, 0.139, 4000),
    "worth.dehla_pakad.guard_ten": (-0.003, 0.007, 4000),
    "worth.dehla_pakad.catch_ten": (-0.001, 0.008, 4000),
    "worth.dehla_pakad.cash_winners": (-0.049, -0.032, 4000),
    "course.dehla_pakad.rule": (0.602, 0.619, 4000),
}


_TRUMP_CACHE: dict = {}


def _stats(xs, ys=None) -> tuple:
    """(share, standard error) of a match's per-deal results (0-2 of two games), or of the
    paired difference ``xs - ys`` on the same deals."""
    import math
    d = [x / 2 for x in xs] if ys is None else [(x - y) / 2 for x, y in zip(xs, ys)]
    n = len(d)
    m = sum(d) / n
    var = sum((v - m) ** 2 for v in d) / max(n - 1, 1)
    return m, math.sqrt(var / n)


def figure_with_error(name: str, deals: int | None = None, seed: int = 0) -> tuple:
    """Figure ``name`` recomputed with ``deals`` deals: (value, standard error); the error
    is 0 for the trump figures (their tolerance is stated for the 20,000-deal sample).
    The trump figures use their own shuffles (``seed`` 11 when 0: the bench's is 0); the
    bot's matches are the first ``deals`` deals of the bench's own (seeds from ``seed``)."""
    if name.startswith("trump.") and seed == 0:
        seed = 11
    if name.startswith("trump."):
        key = (deals or 20000, seed)
        if key not in _TRUMP_CACHE:
            _TRUMP_CACHE.clear()
            _TRUMP_CACHE[key] = trump_figures(trump_deals(key[0], seed=seed))
        return _TRUMP_CACHE[key][name[len("trump."):]], 0.0
    n, first = deals or 300, seed
    if name.startswith("course."):           # course.<game>.<against>  (rule, random)
        _, game, other = name.split(".")
        return _stats(_match_cached("course", other, game, n, first))
    if name.startswith("worth."):            # worth.<game>.<rule>: with minus without
        _, game, rule = name.split(".")
        from .course_bot import SCOPE, UNTAUGHT
        full = _match_cached("course", "rule", game, n, first)
        if rule in UNTAUGHT:
            return _stats(_match_cached(f"course*{rule}", "rule", game, n, first), full)
        if game in SCOPE[rule]:
            return _stats(full, _match_cached(f"course-{rule}", "rule", game, n, first))
        return _stats(_match_cached(f"course+{rule}", "rule", game, n, first), full)
    raise ValueError(f"unknown figure {name!r}")


def figure(name: str, deals: int | None = None, seed: int = 0) -> float:
    """Recompute figure ``name`` (a share of deals, 0-1) with ``deals`` deals."""
    return figure_with_error(name, deals, seed)[0]


def check_figure(name: str, deals: int | None = None) -> str:
    """Recompute ``name`` with a small sample; a ValueError when it is farther from the
    quoted value than its tolerance: the figure's stated one or, for the bot's matches,
    three standard errors of the small sample, whichever is larger. Else a line saying
    how close it came."""
    what, quoted, tol = FIGURES[name]
    got, se = figure_with_error(name, deals)
    allowed = max(tol, 3 * se)
    line = (f"{name} ({what}): quoted {100 * quoted:.1f}, recomputed {100 * got:.1f} "
            f"(tolerance {100 * allowed:.1f})")
    if abs(got - quoted) > allowed:
        raise ValueError(f"a quoted number no longer holds: {line}")
    return line
