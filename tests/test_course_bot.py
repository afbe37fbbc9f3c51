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
