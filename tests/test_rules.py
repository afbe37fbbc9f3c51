"""Rules: presets, keyword overrides, option checks (API.md "Rules"; RULES.md all sections)."""
import dataclasses

import pytest

import courtlearn as cl

DEFAULTS = {
    "direction": "anticlockwise",
    "trump_method": "called",
    "allow_deferred": False,
    "deferred_card": "next",
    "revokes": "prevented",
    "first_two_capture": True,
    "aces_capture": True,
    "goon_courts": 3,
    "tens_tie": "non_dealers",
    "stop_when_decided": True,
}
PRESETS = {
    "court_piece": cl.Rules.court_piece,
    "double_sir": cl.Rules.double_sir,
    "dehla_pakad": cl.Rules.dehla_pakad,
}


@pytest.mark.parametrize("game", PRESETS)
def test_presets_differ_only_in_game(game):
    rules = PRESETS[game]()
    assert rules.game == game
    for name, value in DEFAULTS.items():
        assert getattr(rules, name) == value, name


def test_every_option_is_a_dataclass_field():
    names = {f.name for f in dataclasses.fields(cl.Rules)}
    assert {"game", *DEFAULTS} <= names


def test_rules_are_frozen_and_compare_by_value():
    rules = cl.Rules.double_sir()
    with pytest.raises(AttributeError):  # dataclasses.FrozenInstanceError is an AttributeError
        rules.goon_courts = 10
    assert rules.goon_courts == 3
    assert rules == cl.Rules.double_sir()
    assert rules != cl.Rules.court_piece()
    assert hash(rules) == hash(cl.Rules.double_sir())
    assert "0x" not in repr(rules)


def test_keyword_overrides():
    rules = cl.Rules.double_sir(goon_courts=10, first_two_capture=False)
    assert (rules.game, rules.goon_courts, rules.first_two_capture) == ("double_sir", 10, False)
    assert rules.aces_capture is True
    rules = cl.Rules.dehla_pakad(tens_tie="tricks", direction="clockwise", stop_when_decided=False)
    assert (rules.tens_tie, rules.direction, rules.stop_when_decided) == ("tricks", "clockwise", False)
    rules = cl.Rules.court_piece(revokes="allowed", trump_method="hidden")
    assert (rules.revokes, rules.trump_method) == ("allowed", "hidden")


@pytest.mark.parametrize("method", ["called", "shown", "hidden", "hidden_random", "first_void"])
@pytest.mark.parametrize("game", PRESETS)
def test_every_trump_method_is_accepted_in_every_game(game, method):
    assert PRESETS[game](trump_method=method).trump_method == method


@pytest.mark.parametrize("card", ["next", "random", "numbered"])
def test_deferred_options_are_accepted(card):
    rules = cl.Rules.double_sir(allow_deferred=True, deferred_card=card)
    assert rules.allow_deferred is True and rules.deferred_card == card


def test_constructor_with_game_keyword():
    assert cl.Rules(game="double_sir") == cl.Rules.double_sir()


def test_unknown_game_is_refused_listing_the_games():
    with pytest.raises(ValueError) as info:
        cl.Rules(game="bridge")
    message = str(info.value)
    for game in PRESETS:
        assert game in message, message


def test_wrong_option_name_lists_the_accepted_names():
    with pytest.raises(ValueError) as info:
        cl.Rules.court_piece(trumps="called")
    message = str(info.value)
    assert "trumps" in message
    for name in ("trump_method", "revokes", "direction", "stop_when_decided"):
        assert name in message, message


def test_wrong_option_name_is_a_value_error_not_type_error():
    with pytest.raises(ValueError):
        cl.Rules.double_sir(goon_court=10)


@pytest.mark.parametrize(
    "option,bad,accepted",
    [
        ("trump_method", "secret", ["called", "shown", "hidden", "hidden_random", "first_void"]),
        ("direction", "sideways", ["anticlockwise", "clockwise"]),
        ("revokes", "sometimes", ["prevented", "allowed"]),
        ("deferred_card", "last", ["next", "random", "numbered"]),
    ],
)
@pytest.mark.parametrize("game", PRESETS)
def test_wrong_option_value_lists_the_accepted_values(game, option, bad, accepted):
    with pytest.raises(ValueError) as info:
        PRESETS[game](**{option: bad})
    message = str(info.value)
    assert option in message, message
    for value in accepted:
        assert value in message, message


def test_wrong_goon_courts_lists_3_and_10():
    with pytest.raises(ValueError) as info:
        cl.Rules.double_sir(goon_courts=5)
    message = str(info.value)
    assert "goon_courts" in message and "3" in message and "10" in message


def test_wrong_tens_tie_lists_values():
    with pytest.raises(ValueError) as info:
        cl.Rules.dehla_pakad(tens_tie="dealers")
    message = str(info.value)
    assert "non_dealers" in message and "tricks" in message


@pytest.mark.parametrize("option", ["stop_when_decided", "allow_deferred", "first_two_capture", "aces_capture"])
def test_boolean_options_refuse_non_booleans(option):
    with pytest.raises(ValueError):
        cl.Rules.double_sir(**{option: "yes"})


@pytest.mark.parametrize(
    "game,option,value",
    [
        ("double_sir", "tens_tie", "tricks"),
        ("court_piece", "tens_tie", "tricks"),
        ("court_piece", "goon_courts", 10),
        ("dehla_pakad", "goon_courts", 10),
        ("court_piece", "first_two_capture", False),
        ("court_piece", "aces_capture", False),
    ],
)
def test_non_default_value_of_an_option_not_applying_to_the_game_is_refused(game, option, value):
    with pytest.raises(ValueError) as info:
        PRESETS[game](**{option: value})
    message = str(info.value)
    assert option in message, message


@pytest.mark.parametrize(
    "game,option,value",
    [
        ("double_sir", "tens_tie", "non_dealers"),
        ("court_piece", "goon_courts", 3),
        ("dehla_pakad", "goon_courts", 3),
        ("court_piece", "first_two_capture", True),
        ("court_piece", "aces_capture", True),
    ],
)
def test_the_default_value_of_an_option_not_applying_is_accepted(game, option, value):
    assert getattr(PRESETS[game](**{option: value}), option) == value


@pytest.mark.parametrize("option,value", [("first_two_capture", False), ("aces_capture", False)])
@pytest.mark.parametrize("game", ["double_sir", "dehla_pakad"])
def test_pile_options_apply_to_pile_games(game, option, value):
    assert getattr(PRESETS[game](**{option: value}), option) is value


def test_seat_names_follow_direction_only():
    anti = cl.Rules.court_piece()
    clock = cl.Rules.court_piece(direction="clockwise")
    assert [anti.seat_name(s) for s in range(4)] == ["South", "East", "North", "West"]
    assert [clock.seat_name(s) for s in range(4)] == ["South", "West", "North", "East"]


def test_team_names():
    rules = cl.Rules.court_piece()
    assert rules.team_name(0) == "North–South"
    assert rules.team_name(1) == "East–West"
    assert [cl.team_of(s) for s in range(4)] == [0, 1, 0, 1]
