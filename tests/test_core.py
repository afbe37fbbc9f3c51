"""The table's core without the widget (courtlearn.widgets.core): one Table shared by four
Seats, as the class server uses it, and the notebook's CardTable running on the very same
code. The engine is the only judge; each seat's pictures show only what that seat may know."""
import doctest
import json
import re
import subprocess
import sys

import pytest

import courtlearn as cl
from courtlearn.widgets import core
from courtlearn.widgets.core import Outcome, Refused, Seat, Table

CODE = re.compile(r"^(10|[2-9JQKA])[SHCD]$")


def codes_in(obj) -> set:
    """Every string in a JSON-like object that is a card code."""
    if isinstance(obj, str):
        return {obj} if CODE.match(obj) else set()
    if isinstance(obj, dict):
        return set().union(*map(codes_in, obj.values())) if obj else set()
    if isinstance(obj, (list, tuple)):
        return set().union(*map(codes_in, obj)) if obj else set()
    return set()


def known_to(deal, seat) -> set:
    """The cards ``seat`` may know: its hand, the cards played, a public trump card."""
    v = deal.view(seat)
    known = {c.code for c in v.hand} | {c.code for _, c in v.trick.cards}
    for t in v.tricks:
        known |= {c.code for _, c in t.cards}
    if v.trump_card is not None:
        known.add(v.trump_card.code)
    return known


def four_seats(deal_or_session, bots=None, **options):
    table = Table(deal_or_session, bots=bots)
    return table, [Seat(table, s, **options) for s in range(4)]


# ----------------------------------------------------------------------------- no widget here
def test_the_core_imports_no_widget_library():
    """The class server runs the table without anywidget, traitlets or ipywidgets: with
    them missing, a Table and its Seats still play."""
    code = ("import sys\n"
            "for name in ('anywidget', 'traitlets', 'ipywidgets', 'IPython'):\n"
            "    sys.modules[name] = None            # importing any of them now fails\n"
            "import courtlearn as cl\n"
            "from courtlearn.widgets.core import Table, Seat\n"
            "t = Table(cl.Deal(cl.Rules.double_sir(), dealer=3, seed=7))\n"
            "s = Seat(t, 0)\n"
            "s.handle({'type': 'call_trump', 'suit': 'S'})\n"
            "print(s.snapshot()['trump'])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "S"


def test_the_module_example_runs():
    result = doctest.testmod(core, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 5 and result.failed == 0


def test_the_widget_draws_what_a_seat_of_the_core_draws():
    pytest.importorskip("anywidget")
    from courtlearn.widgets import CardTable
    from courtlearn.widgets import table as widget
    deal = cl.Deal(cl.Rules.dehla_pakad(), dealer=2, seed=4)
    deal.call_trump("H")
    for viewer in range(4):
        frame = CardTable(deal, seat=viewer, language="ur").state["frames"][-1]
        assert frame == Seat(Table(deal), viewer, language="ur").snapshot()
    # the names others import from the widget module are the core's
    for name in ("snapshot", "Refused", "hint_payload", "names", "page_words", "Snapshot",
                 "MESSAGE_TYPES", "BEST_PLAY_TRICKS", "check_flag", "default_bot"):
        assert getattr(widget, name) is getattr(core, name), name
    assert CardTable._intent is Seat.parse


# ----------------------------------------------------------------------------- a table of four
def test_four_seats_play_a_whole_deal_each_seeing_only_its_own_cards():
    """The server's loop: the seat to act sends its intent; a move is answered and every
    seat gets its picture; then the bots answer with a picture for every seat per move."""
    session = cl.Session(cl.Rules.court_piece(), seed=3)
    table, seats = four_seats(session, bots={1: cl.bots.RuleBot(), 3: cl.bots.RuleBot()})
    pictures = {s: [] for s in range(4)}

    def everyone():
        for seat in seats:
            pictures[seat.seat].append(seat.snapshot())

    everyone()
    assert table.run_bots(everyone) is None
    deal = table.deal
    moves = 0
    while deal.phase != "over":
        who = seats[deal.actor]
        other = seats[(deal.actor + 2) % 4]           # the partner may not act for them
        frame = who.snapshot()
        if frame["phase"] == "trump":
            content = {"type": "call_trump", "suit": "H", "id": moves}
        else:
            content = {"type": "play", "card": frame["seats"][who.seat]["legal"][0], "id": moves}
        before = deal.to_dict()
        with pytest.raises(Refused, match="turn"):
            other.handle(content)
        assert deal.to_dict() == before
        assert who.handle(content) == Outcome(True)
        moves += 1
        everyone()
        assert table.run_bots(everyone) is None
        assert deal.actor in (0, 2, None)
    assert moves >= 13 // 2
    for s, frames in pictures.items():
        seen = set()
        for frame in frames:
            # a card another seat holds never reaches this seat's page before it is played
            seen |= codes_in(frame["trick"]) | codes_in(frame["last"])
            assert codes_in(frame) <= known_to(deal, s) | seen, s
        assert frames[-1]["result"].startswith("Deal over:")
        assert frames[-1]["score"].startswith(
            "Courts: North\u2013South {}, East\u2013West {}".format(*session.courts))


def test_each_seat_animates_each_completed_trick_once():
    """The last picture a seat was sent is kept per seat: a trick just won is drawn as
    fresh once in every seat's pictures, whoever completed it."""
    table, seats = four_seats(cl.Deal(cl.Rules.double_sir(), dealer=3, seed=5),
                              bots={1: cl.bots.RuleBot(), 2: cl.bots.RuleBot(),
                                    3: cl.bots.RuleBot()})
    fresh = {s: 0 for s in range(4)}

    def everyone():
        for seat in seats:
            fresh[seat.seat] += bool((seat.snapshot()["last"] or {}).get("fresh"))

    deal = table.deal
    table.run_bots(everyone)
    while deal.phase != "over":
        legal = seats[0].snapshot()["seats"][0]["legal"]
        seats[0].handle({"type": "play", "card": legal[0]} if legal else
                        {"type": "call_trump", "suit": "S"})
        everyone()
        table.run_bots(everyone)
    assert set(fresh.values()) == {len(deal.tricks)}


def test_a_window_change_is_one_seats_alone():
    pytest.importorskip("numpy")
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=8)
    table, seats = four_seats(deal)
    south, east = seats[0], seats[1]
    before = deal.to_dict()
    out = south.handle({"type": "hint", "id": 4})
    assert not out.moved and out.kind == "hint" and out.message == out.value.text
    assert south.snapshot()["hint"]["suit"] == out.value.card.letter
    assert east.snapshot()["hint"] is None and deal.to_dict() == before
    with pytest.raises(Refused, match="East's own turn"):
        east.handle({"type": "hint"})
    with pytest.raises(Refused, match="show_all"):
        east.handle({"type": "best_play", "on": True})
    teacher = Seat(table, 1, show_all=True)
    assert teacher.handle({"type": "best_play", "on": True}) == Outcome(False)
    assert teacher.best_play and teacher.snapshot()["best_play"]["on"]
    assert not east.best_play
    # a move makes the hint stale for the seat that asked
    south.handle({"type": "call_trump", "suit": "S"})
    assert south.snapshot()["hint"] is None


def test_a_review_replays_for_its_seat_only_and_uses_what_that_seat_may_know():
    pytest.importorskip("numpy")
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=8)
    table, seats = four_seats(deal, bots={1: cl.bots.RuleBot(), 2: cl.bots.RuleBot(),
                                          3: cl.bots.RuleBot()})
    south = seats[0]
    table.run_bots()
    south.handle({"type": "call_trump", "suit": "S"})
    table.run_bots()
    assert not south.exact_review()                 # running, hands hidden: chances only
    out = south.handle({"type": "review", "index": 0})
    assert not out.moved and out.value.decisions
    frame = south.snapshot()
    assert frame["replay"] and frame["review"]["index"] == 0 and frame["review"]["cost"] is None
    assert not seats[2].snapshot()["replay"]
    with pytest.raises(Refused, match="earlier moment"):
        south.handle({"type": "play", "card": deal.legal_cards()[0].code})
    assert south.handle({"type": "review_close"}) == Outcome(False)
    assert not south.snapshot()["replay"]
    assert Seat(table, 0, show_all=True).exact_review()
    quiet = Seat(table, 0, hints=False)
    with pytest.raises(Refused, match="switched off"):
        quiet.handle({"type": "review", "index": 0})


def test_a_partner_seat_is_played_only_with_its_hand_face_up():
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=2)
    table = Table(deal)
    with pytest.raises(ValueError, match="show_all"):
        Seat(table, 0, controls={2})
    both = Seat(table, 0, show_all=True, controls={2})
    both.handle({"type": "call_trump", "suit": "C"})
    deal.play(deal.legal_cards()[0])
    deal.play(deal.legal_cards()[0])                  # South, East: North to play
    card = deal.legal_cards()[0].code
    with pytest.raises(Refused, match="North's turn"):
        Seat(table, 0).handle({"type": "play", "card": card})
    assert both.handle({"type": "play", "card": card}).moved
    assert deal.trick.cards[-1][0] == 2


# ----------------------------------------------------------------------------- deals change
def test_a_new_deal_or_an_undo_clears_every_seats_window():
    pytest.importorskip("numpy")
    table, seats = four_seats(cl.Deal(cl.Rules.court_piece(), dealer=3, seed=8))
    south = seats[0]
    south.handle({"type": "hint"})
    south.handle({"type": "call_trump", "suit": "S"})
    assert south.snapshot()["hint"] is None and south.last is not None
    south.handle({"type": "review", "index": 0})
    assert south.replay is not None and south.last is not None
    assert table.undo_person() == 1
    assert south.snapshot()["replay"] is False and south.replay is None
    old = table.deal
    assert table.new_deal(9) is table.deal is not old
    assert table.deal.dealer == (old.dealer + 1) % 4 and table.deal.seed == 9
    for seat in seats:
        frame = seat.snapshot()
        assert frame["last"] is None and frame["hint"] is None and not frame["replay"]
    assert table.undo_person() == 0                 # nothing to take back
    with pytest.raises(TypeError, match="Deal or Session"):
        table.set("x")
    with pytest.raises(ValueError, match="seed"):
        table.new_deal(1.5)


def test_run_bots_tells_a_failing_bot_and_never_raises():
    class Broken:
        def choose(self, deal):
            raise RuntimeError("this bot is broken")

    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    table = Table(deal, bots={1: Broken()})
    south = Seat(table, 0)
    south.handle({"type": "call_trump", "suit": "S"})
    south.handle({"type": "play", "card": deal.legal_cards()[0].code})
    steps = []
    error = table.run_bots(lambda: steps.append(1))
    assert error.startswith("A bot could not move") and "this bot is broken" in error
    assert steps == [] and len(deal.trick.cards) == 1
    table.autoplay = False
    assert table.run_bots() is None and not table.bot_turn
    table.autoplay = True
    assert table.bot_turn
    assert "broken" in table.step()
    table.bots = None
    assert table.step() is None and len(deal.trick.cards) == 2      # a RuleBot steps in


def test_the_score_follows_the_session_through_play_on_undo_and_the_next_deal():
    """The score is worked out once per stage of the deal: it must still change whenever
    the session's courts or streak do (a deal won, played on after a court, taken back,
    the next deal)."""
    session = cl.Session(cl.Rules.court_piece(), seed=8)     # a court in its third deal
    table = Table(session)
    checked = set()
    played_on = 0

    def check():
        score = table.score
        assert (score.courts, score.streak) == (session.courts, session.streak)
        checked.add((score.courts, score.streak))

    bot = cl.bots.RuleBot()
    for _ in range(4):
        deal = session.deal
        while not deal.over:
            cl.bots.act(bot, deal)
            check()
        if deal.can_play_on():
            deal.play_on()                        # the court is not counted while played on
            played_on += 1
            check()
            while not deal.over:
                cl.bots.act(bot, deal)
            check()
        deal.undo()
        check()
        cl.bots.act(bot, deal)
        check()
        session.next_deal()
        check()
    assert len(checked) > 3 and played_on


def test_the_score_of_a_deal_finished_otherwise_after_an_undo_is_worked_out_again():
    """Taken back and finished another way with no picture in between: the same deal, over
    both times, but another result (a goon court instead of a win on tricks)."""
    session = cl.Session(cl.Rules.court_piece(), seed=2)
    table, deal = Table(session), session.deal
    while not deal.over:
        cl.bots.act(cl.bots.RuleBot(), deal)
    assert table.score.courts == session.courts == (0, 0)
    for _ in range(15):
        deal.undo()
    bot = cl.bots.RandomBot(seed=1)
    while not deal.over:
        cl.bots.act(bot, deal)
    assert deal.result.kind == "goon"
    assert table.score.courts == session.courts != (0, 0)


# ----------------------------------------------------------------------------- the word tables
def test_word_tables_are_built_once_per_language_and_handed_out_as_copies(monkeypatch):
    built = []
    real = core._build_page_words
    monkeypatch.setattr(core, "_build_page_words", lambda: built.append(1) or real())
    monkeypatch.setattr(core, "_WORDS", {})
    deal = cl.Deal(cl.Rules.double_sir(), dealer=3, seed=7)
    table, seats = four_seats(deal, language="hi")
    for _ in range(50):
        for seat in seats:
            seat.snapshot()
    assert len(built) == 1
    frame = seats[0].snapshot()
    frame["words"]["hint"] = "changed"
    frame["names"]["suits"]["S"]["plural"] = "changed"
    again = seats[0].snapshot()
    assert again["words"]["hint"] != "changed"
    assert again["names"]["suits"]["S"]["plural"] != "changed"
    with cl.language.using("hi"):
        assert again["words"] == core._build_page_words() == core.page_words()
        assert again["names"] == core._build_names(deal.rules) == core.names(deal.rules)
    assert {seats[0].snapshot()["words"]["hint"], Seat(table, 0, language="ur")
            .snapshot()["words"]["hint"], Seat(table, 0, language="en").snapshot()["words"]
            ["hint"]} == {"Hint", "اشارہ", Seat(table, 0, language="hi").snapshot()["words"]
                          ["hint"]}


def test_rules_are_hashable_and_equal_rules_share_their_names():
    a, b = cl.Rules.double_sir(direction="clockwise"), cl.Rules.double_sir(direction="clockwise")
    assert a is not b and a == b and hash(a) == hash(b)
    with cl.language.using("en"):
        assert core._names_table(a) is core._names_table(b)
        assert core._names_table(cl.Rules.double_sir()) is not core._names_table(a)


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("content", [
    None, "play", [], {"type": "win"}, {"type": "play"}, {"type": "play", "card": "2c"},
    {"type": "play", "card": "2C", "seat": 1}, {"type": "play", "card": "2C", "id": "1"},
    {"type": "call_trump", "suit": "SS"}, {"type": "review"}, {"type": "best_play", "on": 1},
    {"type": "hint", "card": "2C"}, {"type": "play", "card": "2C" * 5000}])
def test_a_forged_message_is_refused_by_parse_and_changes_nothing(content):
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    table, seats = four_seats(deal)
    before = deal.to_dict()
    with pytest.raises(Refused) as err:
        seats[0].handle(content)
    assert len(str(err.value)) < 200 and deal.to_dict() == before
    assert json.dumps(seats[0].snapshot())


@pytest.mark.parametrize("make", [
    lambda deal: Table("deal"),
    lambda deal: Table(deal, bots=[1, 2]),
    lambda deal: Table(deal, bots={5: cl.bots.RuleBot()}),
    lambda deal: Table(deal, autoplay=1),
    lambda deal: Seat(deal, 0),
    lambda deal: Seat(Table(deal), 4),
    lambda deal: Seat(Table(deal), 0, show_all="yes"),
    lambda deal: Seat(Table(deal), 0, hints=None),
    lambda deal: Seat(Table(deal), 0, players=["a"]),
    lambda deal: Seat(Table(deal), 0, language="fr"),
])
def test_tables_and_seats_refuse_wrong_arguments(make):
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    with pytest.raises((ValueError, TypeError)) as err:
        make(deal)
    assert 0 < len(str(err.value)) < 400


def test_a_seat_looking_back_past_the_end_of_a_deal_taken_back_shows_it_live():
    deal = cl.Deal(cl.Rules.double_sir(), dealer=3, seed=7)
    table = Table(deal)
    seat = Seat(table, 0)
    deal.apply("call:S")
    while len(deal.actions) < 6:
        table.step()
    seat.replay = 5
    assert seat.snapshot()["replay"]
    for _ in range(3):
        deal.undo()                      # taken back outside the table (another window)
    frame = seat.snapshot()
    assert not frame["replay"] and seat.replay is None and frame["phase"] == "play"


def test_a_trick_taken_back_and_played_again_is_shown_as_played_now():
    """The trick on show is the one completed now, not the one the viewer was sent before
    with as many tricks done (taken back with deal.undo() and played otherwise: issue 23)."""
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=1)
    deal.call_trump("S")
    for _ in range(4):
        deal.play(deal.legal_cards()[0])
    prev = core.snapshot(deal, 1)
    before = [c["card"] for c in prev["last"]["cards"]]
    for _ in range(4):
        deal.undo()
    for _ in range(4):
        deal.play(deal.legal_cards()[-1])
    now = core.snapshot(deal, 1, prev=prev)
    shown = [c["card"] for c in now["last"]["cards"]]
    assert shown == [c.code for _, c in deal.tricks[-1].cards] != before
    assert now["last"]["winner"] == deal.tricks[-1].winner
    again = core.snapshot(deal, 1, prev=now)["last"]     # still on show: the same picture
    assert again == dict(now["last"], fresh=False)
