"""Nothing a learner does can break a table (issue 23): every public method of the card
table and of cl.play refuses a wrong argument with a ValueError or TypeError and changes
nothing; no message the page can send raises out of the table's message handler; a bot,
a hint or the Best play marks that fail never fail the move that went before them."""
import json
import math

import pytest

import courtlearn as cl

pytest.importorskip("anywidget")
from courtlearn.widgets import CardTable  # noqa: E402
from courtlearn.widgets.table import Refused  # noqa: E402

HUGE = 10 ** 5000                 # too long for repr() without help
BAD = {
    "None": None, "text": "x", "empty text": "", "float": 1.5, "nan": math.nan,
    "True": True, "big int": 10 ** 30, "huge int": HUGE, "negative": -1, "empty dict": {},
    "dict": {"a": 1}, "list": [1], "object": object(), "bytes": b"AS", "long text": "A" * 100_000,
}


def bad_except(*names):
    return [pytest.param(v, id=k) for k, v in BAD.items() if k not in names]


def fresh_table(**options):
    deal = cl.Deal(cl.Rules.court_piece(revokes="allowed"), dealer=3, seed=7)
    table = CardTable(deal, seat=0, **options)
    table.call_trump("S")
    return table


def table_state(table):
    """Everything a refused call must leave as it was."""
    return (id(table.deal), table.deal.to_dict(), table.session, table.show_all, table.best_play,
            table.hints, table._replay, table.seat, table.size, table.speed, table.animate,
            table.language, dict(table.bots), table.autoplay, table.controls)


def refused_without_change(table, call, value):
    before = table_state(table)
    with pytest.raises((ValueError, TypeError)) as err:
        call(table, value)
    assert table_state(table) == before
    assert 0 < len(str(err.value)) < 400, "a refusal quotes at most a short prefix"
    return err.value


def setter(name):
    return lambda table, value: setattr(table, name, value)


METHODS = {
    "play": (lambda t, v: t.play(v), ()),
    "call_trump": (lambda t, v: t.call_trump(v), ()),
    "choose_trump_card": (lambda t, v: t.choose_trump_card(v), ()),
    "defer_trump": (lambda t, v: t.defer_trump(v), ("None",)),
    "claim_revoke": (lambda t, v: t.claim_revoke(v), ("None",)),
    "new_deal": (lambda t, v: t.new_deal(v),
                 ("None", "text", "empty text", "big int", "huge int", "negative", "long text")),
    "set_deal": (lambda t, v: t.set_deal(v), ()),
    "replay": (lambda t, v: t.replay(v), ("None",)),
    "review": (lambda t, v: t.review(v), ()),
    "show_all=": (setter("show_all"), ("True",)),
    "best_play=": (setter("best_play"), ("True",)),
    "hints=": (setter("hints"), ("True",)),
    "autoplay=": (setter("autoplay"), ("True",)),
    "animate=": (setter("animate"), ("True",)),
    "size=": (setter("size"), ()),
    "speed=": (setter("speed"), ()),
    "seat=": (setter("seat"), ()),
    "language=": (setter("language"), ("None",)),
    "bots=": (setter("bots"), ("None", "empty dict")),
}
CASES = [pytest.param(name, value, id=f"{name}-{p.id}")
         for name, (_, valid) in METHODS.items() for p in bad_except(*valid)
         for value in p.values]


@pytest.mark.parametrize("name,value", CASES)
def test_every_table_method_refuses_a_wrong_argument_and_changes_nothing(name, value):
    table = fresh_table()
    refused_without_change(table, METHODS[name][0], value)


def test_set_deal_with_no_deal_keeps_the_table_playing():
    """The issue's case: set_deal('x') raised AttributeError and left no deal."""
    table = fresh_table()
    deal = table.deal
    with pytest.raises(TypeError, match="Deal or Session, got str"):
        table.set_deal("x")
    assert table.deal is deal
    table.play(deal.legal_cards()[0])
    assert len(deal.trick.cards) == 1


def test_a_seat_given_as_a_bool_or_float_is_no_seat():
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    for seat in (True, 1.0):
        with pytest.raises(ValueError, match="seat"):
            CardTable(deal, seat=seat)
    with pytest.raises(ValueError, match="controls"):
        CardTable(deal, seat=0, show_all=True, controls=[2.0])


CONSTRUCTOR = {
    "seat": (),
    "bots": ("None", "empty dict"),
    "show_all": ("True",),
    "hints": ("True",),
    "animate": ("True",),
    "size": (),
    "players": ("None",),
    "controls": ("None",),
    "language": ("None",),
}


@pytest.mark.parametrize("name,value", [
    pytest.param(name, value, id=f"{name}-{p.id}")
    for name, valid in CONSTRUCTOR.items() for p in bad_except(*valid) for value in p.values])
def test_the_table_refuses_a_wrong_argument_before_anything_moves(name, value):
    deal = cl.Deal(cl.Rules.court_piece(), dealer=0, seed=4)      # East calls: a bot would act
    before = deal.to_dict()
    options = {"bots": cl.bots.RuleBot(), name: value}
    with pytest.raises((ValueError, TypeError)) as err:
        CardTable(deal, seat=0, **options)
    assert deal.to_dict() == before
    assert len(str(err.value)) < 400


# ----------------------------------------------------------------------------- cl.play
def test_cl_play_takes_the_rules_options_of_its_game():
    app = cl.play("double_sir", goon_courts=10, seed=3)
    assert app.table.deal.rules == cl.Rules.double_sir(goon_courts=10)
    app.picker.value = "court_piece"
    assert app.table.deal.rules == cl.Rules.court_piece()
    app.picker.value = "double_sir"                    # back: the options are still there
    assert app.table.deal.rules == cl.Rules.double_sir(goon_courts=10)
    rules = cl.Rules.court_piece(trump_method="first_void")
    assert cl.play(rules, revokes="allowed").table.deal.rules == rules.replace(revokes="allowed")


@pytest.mark.parametrize("options", [{"goon_court": 10}, {"goon_courts": 11}, {"goon_courts": "10"},
                                     {"first_two_capture": 1}])
def test_cl_play_refuses_wrong_rules_options_with_the_rules_own_message(options):
    with pytest.raises(ValueError) as err:
        cl.Rules.double_sir(**options)
    with pytest.raises(ValueError) as ours:
        cl.play("double_sir", **options)
    assert str(ours.value) == str(err.value)
    with pytest.raises(ValueError, match="applies only to double_sir"):
        cl.play("court_piece", goon_courts=10)


PLAY_ARGUMENTS = {
    "game": (), "seed": ("None", "text", "empty text", "big int", "huge int", "negative",
                         "long text"),
    "seat": (), "bots": ("None", "empty dict"), "show_all": ("True",), "size": (),
    "animate": ("True",),
}


@pytest.mark.parametrize("name,value", [
    pytest.param(name, value, id=f"{name}-{p.id}")
    for name, valid in PLAY_ARGUMENTS.items() for p in bad_except(*valid) for value in p.values])
def test_cl_play_refuses_a_wrong_argument(name, value):
    with pytest.raises((ValueError, TypeError)) as err:
        cl.play("court_piece", **{name: value})
    assert len(str(err.value)) < 400


# ----------------------------------------------------------------------------- forged messages
def replies_of(table, monkeypatch):
    sent = []
    monkeypatch.setattr(table, "send", lambda msg, buffers=None: sent.append(msg))
    return sent


NESTED = {"type": "play", "card": {"card": {"card": ["2C"] * 3}}}
FORGED = {
    "text": "garbage", "None": None, "number": 7, "list": [{"type": "play", "card": "2C"}],
    "type None": {"type": None}, "type list": {"type": ["play"]}, "type dict": {"type": {}},
    "type long": {"type": "play" * 25_000}, "no card": {"type": "play"},
    "card None": {"type": "play", "card": None}, "card list": {"type": "play", "card": ["2C"]},
    "card long": {"type": "play", "card": "2C" * 50_000}, "card lower": {"type": "play", "card": "2c"},
    "card nested": NESTED, "card not held": {"type": "play", "card": "AH"},
    "card of a partner": {"type": "play", "card": "KH"},
    "extra seat": {"type": "play", "card": "2C", "seat": 1},
    "extra on hint": {"type": "hint", "card": "2C"},
    "extra on close": {"type": "review_close", "junk": [1, {"x": None}]},
    "id text": {"type": "play", "card": "2C", "id": "1"},
    "id bool": {"type": "play", "card": "2C", "id": True},
    "id float": {"type": "play", "card": "2C", "id": 1.5},
    "call trump now": {"type": "call_trump", "suit": "H"},
    "suit long": {"type": "call_trump", "suit": "S" * 10_000},
    "trump card": {"type": "choose_trump_card", "card": "2C"},
    "defer": {"type": "defer_trump"}, "ask": {"type": "ask_for_trump"},
    "play on": {"type": "play_on"}, "correct": {"type": "correct_revoke"},
    "claim nothing": {"type": "claim_revoke"},
    "review -1": {"type": "review", "index": -1}, "review big": {"type": "review", "index": 10 ** 30},
    "review huge negative": {"type": "review", "index": -HUGE},
    "review bool": {"type": "review", "index": True}, "review None": {"type": "review", "index": None},
    "review text": {"type": "review", "index": "1"}, "review float": {"type": "review", "index": 0.0},
    "review missing": {"type": "review"}, "review list": {"type": "review", "index": [0]},
    "best play text": {"type": "best_play", "on": "yes"}, "best play 1": {"type": "best_play", "on": 1},
    "best play missing": {"type": "best_play"},
    "best play without show_all": {"type": "best_play", "on": True},
}


@pytest.mark.parametrize("what", FORGED)
def test_a_forged_message_is_refused_and_never_raises(what, monkeypatch):
    table = fresh_table()                             # South to lead
    sent = replies_of(table, monkeypatch)
    before, rev = table_state(table), table.state["rev"]
    msg = FORGED[what]
    if isinstance(msg, dict) and "id" not in msg:
        msg = {**msg, "id": 41}
    table._on_msg(table, msg, [])                     # never raises
    assert table_state(table) == before, what
    frame = table.state["frames"][-1]
    assert table.state["rev"] == rev + 1 and frame["message_kind"] == "error"
    assert len(frame["message"]) < 400
    if isinstance(msg, dict) and isinstance(msg.get("id"), int) and msg["id"] is not True:
        assert sent == [{"reply_to": 41, "ok": False, "reason": frame["message"]}]
    else:
        assert sent == []                             # no request id to answer
    assert "2C2C" not in json.dumps(table.state)


def test_other_seats_and_switched_off_features_are_refused_by_message(monkeypatch):
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    east = CardTable(deal, seat=1, hints=False)        # East watches South call trumps
    sent = replies_of(east, monkeypatch)
    before = deal.to_dict()
    for i, msg in enumerate([{"type": "call_trump", "suit": "S"}, {"type": "hint"},
                             {"type": "review", "index": 0}, {"type": "play", "card": "2C"}]):
        east._on_msg(east, {**msg, "id": i}, [])
    assert deal.to_dict() == before
    assert [m["ok"] for m in sent] == [False] * 4
    assert "South's turn" in sent[0]["reason"] and "switched off" in sent[1]["reason"]
    assert "switched off" in sent[2]["reason"]


def test_a_forged_trait_update_from_the_page_changes_nothing():
    table = fresh_table()
    before, state = table_state(table), table.state
    table.set_state({"speed": "x", "size": "huge", "animate": "yes", "state": {"rev": -1},
                     "fonts": {"x": b"0"}})
    assert table_state(table) == before and table.state == state and table.fonts == {}


# ----------------------------------------------------------------------------- failures behind a move
class Broken:
    """A bot whose every card fails (as any learner's bot may)."""

    def choose(self, deal):
        raise RuntimeError("this bot is broken")

    def call_trump(self, deal):
        return cl.Suit.SPADES


def test_a_failing_bot_never_fails_the_move_before_it(monkeypatch):
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    table = CardTable(deal, seat=0, bots=Broken())
    table.call_trump("S")                             # from Python: the bot's failure is shown
    assert "A bot could not move" not in table.state["frames"][-1]["message"]
    sent = replies_of(table, monkeypatch)
    card = deal.legal_cards()[0]
    table._on_msg(table, {"id": 5, "type": "play", "card": card.code}, [])
    assert sent == [{"reply_to": 5, "ok": True}]
    assert deal.trick.cards == [(0, card)] and deal.to_play == 1
    frame = table.state["frames"][-1]
    assert frame["message_kind"] == "error" and "this bot is broken" in frame["message"]
    table.step()                                      # the broken bot again: shown, not raised
    assert "this bot is broken" in table.state["frames"][-1]["message"]
    assert len(deal.trick.cards) == 1


def test_a_failing_hint_is_a_refusal_on_the_table(monkeypatch):
    import courtlearn.bots

    def broken_hint(deal, seat=None, samples=None, seed=0):
        raise IndexError("list index out of range")

    monkeypatch.setattr(courtlearn.bots, "hint", broken_hint)
    table = fresh_table()
    sent = replies_of(table, monkeypatch)
    before = table_state(table)
    table._on_msg(table, {"id": 3, "type": "hint"}, [])
    assert table_state(table) == before
    assert sent[0]["ok"] is False and sent[0]["reason"].startswith("No hint here")
    with pytest.raises(Refused, match="No hint here"):
        table.hint()
    assert table_state(table) == before


def first_void_table():
    rules = cl.Rules.court_piece(trump_method="first_void", stop_when_decided=False)
    deal = cl.Deal(rules, dealer=3, seed=1)
    table = CardTable(deal, seat=0, show_all=True, bots=cl.bots.RuleBot())
    table.best_play = True
    return table


def click_through(table, sent):
    """The viewer's clicks until the deal is over, every one answered ok. Returns the Best
    play marks on show before each click, with the tricks left."""
    deal = table.deal
    marks = []
    while deal.phase == "play":
        frame = table.state["frames"][-1]
        assert deal.to_play == 0
        marks.append((13 - len(deal.tricks), frame["best_play"]))
        table._on_msg(table, {"id": len(marks), "type": "play",
                              "card": frame["seats"][0]["legal"][-1]}, [])
        assert sent[-1] == {"reply_to": len(marks), "ok": True}, sent[-1]
    return marks


def test_best_play_in_a_first_void_deal_never_fails_a_move(monkeypatch):
    """The issue's case: DDS cannot take a first_void deal before its trump is fixed; the
    marks fell over and took every later move with them. Every solve the marks ask for
    must be a quick one (the last six tricks, or DDS with the trump public)."""
    import courtlearn.solver
    from courtlearn import dds
    real = courtlearn.solver.solve
    asked = []

    def watched(deal, *args, **kwargs):
        asked.append(13 - len(deal.tricks) <= 6 or deal.trump is not None and dds.available())
        return real(deal, *args, **kwargs)

    monkeypatch.setattr(courtlearn.solver, "solve", watched)
    table = first_void_table()
    sent = replies_of(table, monkeypatch)
    marks = click_through(table, sent)
    assert table.deal.phase == "over"
    assert asked and all(asked)
    left, first = marks[0]
    assert left == 13 and first["values"] is None and "last 6 tricks" in first["note"]
    for left, bp in marks:
        if left <= 6:
            assert bp["values"] and bp["note"] is None


@pytest.mark.parametrize("failure", [ValueError("This position is too large to solve yet."),
                                     RuntimeError("solver bug")])
def test_a_solver_that_refuses_or_fails_is_a_note_not_a_failed_move(failure, monkeypatch):
    import courtlearn.solver

    def refusing(deal, *args, **kwargs):
        raise failure

    monkeypatch.setattr(courtlearn.solver, "solve", refusing)
    table = first_void_table()
    sent = replies_of(table, monkeypatch)
    marks = click_through(table, sent)
    assert table.deal.phase == "over" and len(table.deal.tricks) == 13
    late = [bp for left, bp in marks if left <= 6]
    assert late and all(bp["values"] is None and str(failure) in bp["note"] for bp in late)
