"""CourseBot (issue 31): the strategy lessons' rules of thumb as a bot, each rule a switch;
the numbers the lessons quote (courtlearn.course_figures) recomputed on small samples."""
from __future__ import annotations

import pytest

import courtlearn as cl
from courtlearn.course_bot import LESSONS, RULES, SCOPE, UNTAUGHT, CourseBot
from courtlearn.course_figures import FIGURES, check_figure, match, trump_deals, trump_figures


def test_public_name_and_docstring_lists_every_taught_rule_with_its_lesson():
    assert cl.bots.CourseBot is CourseBot
    doc = CourseBot.__doc__
    for name, (lesson, text) in RULES.items():
        assert f"``{name}``" in doc and text in doc, name
        assert lesson in LESSONS
    # the untaught rules are named as such, and off by default
    bot = CourseBot()
    assert UNTAUGHT and not (bot.on & UNTAUGHT)
    assert set(RULES) - UNTAUGHT == set(bot.on)
    assert repr(bot) == "CourseBot()"
    assert repr(CourseBot(off="trump_or_throw")) == "CourseBot(off=['trump_or_throw'])"


def test_unknown_rule_is_refused_with_the_list():
    for bad in ("draw trumps", ["nope"], [3]):
        with pytest.raises(ValueError, match="The rules are: call_longest"):
            CourseBot(off=bad)
    with pytest.raises(ValueError, match="not one"):
        CourseBot(extra=["x"])


def _decisions(bot, game, seeds):
    """Every card the bot chooses when it plays all four seats of these deals, and the
    calls, as a list (two bots agree on a rule only if these agree)."""
    out = []
    for seed in seeds:
        deal = cl.Deal(cl.Rules.of(game), dealer=seed % 4, seed=seed)
        while deal.phase != "over":
            if cl.bots.deciding_seat(deal) is None or not bot.act(deal):
                break
            out.append(deal.events[-1].text)
    return out


@pytest.mark.parametrize("rule", list(RULES))
def test_every_rule_is_a_switch_that_changes_play_in_its_games(rule):
    game = SCOPE[rule][0]
    seeds = range(12)
    base = CourseBot()
    other = CourseBot(extra=[rule]) if rule in UNTAUGHT else CourseBot(off=[rule])
    assert _decisions(base, game, seeds) != _decisions(other, game, seeds), rule


def test_a_rule_outside_its_games_changes_nothing():
    # the Dehla Pakad rules do nothing in Court Piece
    seeds = range(6)
    assert _decisions(CourseBot(), "court_piece", seeds) == \
        _decisions(CourseBot(off=["ten_on_partner", "guard_ten", "press_on"]), "court_piece", seeds)


def test_the_course_beats_random_play_in_every_game_and_holds_its_own_against_rulebot():
    for game in cl.GAMES:
        vs_random = match("course", "random", game, deals=25, first_seed=500)
        assert sum(vs_random) / 50 >= 0.65, game
        vs_rule = match("course", "rule", game, deals=25, first_seed=500)
        assert sum(vs_rule) / 50 >= 0.3, game


def test_trump_measurement_is_reproducible_and_longest_beats_the_other_suits():
    a, b = trump_deals(3000, seed=4), trump_deals(3000, seed=4)
    assert (a.won == b.won).all()
    f = trump_figures(a)
    assert f["call.longest"] > f["call.random"] > f["call.other"]
    assert f["length.3"] > f["length.2"]


@pytest.mark.parametrize("name", ["trump.call.longest", "trump.call.other", "trump.stronger"])
def test_quoted_trump_numbers_hold_on_a_smaller_sample(name):
    assert "recomputed" in check_figure(name)


def test_quoted_worth_numbers_hold_on_a_smaller_sample():
    worth = [n for n in FIGURES if n.startswith("worth.")]
    assert worth
    assert "recomputed" in check_figure(worth[0], deals=200)


def test_a_figure_that_no_longer_holds_is_reported(monkeypatch):
    monkeypatch.setitem(FIGURES, "trump.call.longest", ("calling the longest suit", 0.30, 0.02))
    with pytest.raises(ValueError, match="no longer holds"):
        check_figure("trump.call.longest")


def test_the_exercise_feedback_quotes_the_measured_numbers():
    from courtlearn.exercises import strategy
    import inspect
    import re
    src = re.sub(r'"\s*\n\s*"', "", inspect.getsource(strategy))   # the literals joined
    pairs = {"60 deals in 100": "trump.call.longest", "against 48": "trump.call.other",
             "69 against 62": ("trump.three_small", "trump.two_with_ace"),
             "56 against 55": ("trump.stronger", "trump.weaker")}
    for words, names in pairs.items():
        assert words in src, words
        for name in (names if isinstance(names, tuple) else (names,)):
            assert str(round(100 * FIGURES[name][1])) in words, (words, name)


def test_the_lessons_quote_figures_that_exist_and_leave_no_blank():
    import pathlib
    import re
    root = pathlib.Path(__file__).resolve().parents[1] / "notebooks" / ".text"
    texts = [p for lang in ("", "ur", "hi") for p in sorted((root / lang).glob("1[5-9]_*.md"))]
    assert len(texts) == 15
    for path in texts:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\{[WC]:|\{D\}", text), path.name
        names = re.findall(r"^  - ((?:trump|worth|course)\.[\w.]+)$", text, re.M)
        assert names, path.name
        assert all(n in FIGURES for n in names), path.name


def test_every_bench_figure_has_its_interval_and_lies_in_it():
    """The bot's figures the lessons quote come with the bench's 95% interval (by deal) and
    the sample it came from; the quoted value is inside it."""
    from courtlearn.course_figures import INTERVALS
    bench = [n for n in FIGURES if n.startswith("worth.") or n.startswith("course.")]
    missing = [n for n in bench if n not in INTERVALS and n != "course.court_piece.random"]
    assert not missing, missing
    for name, (low, high, deals) in INTERVALS.items():
        assert low <= FIGURES[name][1] <= high and deals >= 2000, name


def test_every_quoted_figure_holds_on_a_small_sample():
    """Every number lessons 15-19 quote, recomputed as the build does but smaller: the trump
    figures on 20,000 fresh deals, the bot's worths on the bench's first 120 deals (each
    within its stated tolerance or three standard errors of that sample)."""
    for name in FIGURES:
        assert "recomputed" in check_figure(name, deals=None if name.startswith("trump.") else 120)


@pytest.mark.parametrize("name", ["courtlearn.course_bot", "courtlearn.course_figures",
                                  "courtlearn.exercises.strategy"])
def test_docstring_examples(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted and result.failed == 0
