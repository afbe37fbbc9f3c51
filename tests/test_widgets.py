"""The card table without a browser: clicks arrive through the same message handler
the page uses (CardTable._on_msg), and the synced state is checked against the engine."""
import json
import re
import sys

import pytest

import courtlearn as cl

pytest.importorskip("anywidget")
from courtlearn.widgets import CardTable, PlayApp, play  # noqa: E402
from courtlearn.widgets.table import snapshot  # noqa: E402

HANDS = [
    "AS KS QS JS 2C  5D 6D 7D 8D  10S 9S 8S 7S",   # South
    "AC KC QC JC 10C  9C 8C 7C 6C  5C 4C 3C KD",   # East
    "AH KH QH JH 10H  9H 8H 7H 6H  5H 4H 3H 2H",   # North
    "AD QD JD 10D 9D  4D 3D 2D 6S  5S 4S 3S 2S",   # West
]
CODE = re.compile(r"^(10|[2-9JQKA])[SHCD]$")


def prearranged(rules=None, dealer=3):
    return cl.Deal.prearranged(rules or cl.Rules.court_piece(), hands=HANDS, dealer=dealer)


def click(table, **msg):
    """What the page sends when a card or a button is clicked."""
    table._on_msg(table, msg, [])
    return table.state["frames"][-1]


def last(table):
    return table.state["frames"][-1]


def codes_in(obj):
    """Every string in a JSON-like object that is a card code."""
    out = set()
    if isinstance(obj, str):
        if CODE.match(obj):
            out.add(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            out |= codes_in(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            out |= codes_in(v)
    return out


def visible_codes(deal, seat):
    """Card identities `seat` may know: its hand, every card played, a public trump card,
    its own face-down trump card."""
    v = deal.view(seat)
    known = {c.code for c in v.hand}
    known |= {c.code for _, c in v.trick.cards}
    for t in v.tricks:
        known |= {c.code for _, c in t.cards}
    if v.trump_card is not None:
        known.add(v.trump_card.code)
    return known


def check_state_matches_engine(table):
    """The last snapshot says exactly what deal.view(seat) says."""
    deal, seat = table.deal, table.seat
    v = deal.view(seat)
    st = last(table)
    assert st["phase"] == v.phase.value
    me = st["seats"][seat]
    assert me["hand"] == [c.code for c in v.hand]
    assert me["legal"] == ([c.code for c in deal.legal_cards()]
                           if v.phase.value == "play" and v.to_play == seat else [])
    assert [s["count"] for s in st["seats"]] == [len(deal.hand(s)) for s in range(4)]
    assert [(t["seat"], t["card"]) for t in st["trick"]] == [(s, c.code) for s, c in v.trick.cards]
    assert [p["count"] for p in st["piles"]] == list(v.tricks_won)
    assert st["centre"] == len(v.centre)
    assert st["dealer"] == v.dealer and st["trump_caller"] == v.trump_caller
    assert st["trump"] == (v.trump.letter if v.trump is not None else None)
    if st["message_kind"] == "info" and v.events:
        assert st["message"] == v.events[-1].text
    if not table.show_all:
        leaked = codes_in(table.state) - visible_codes(deal, seat)
        assert not leaked, f"hidden cards in the synced state: {leaked}"
        for s in st["seats"]:
            assert (s["hand"] is None) == (s["seat"] != seat)


# ----------------------------------------------------------------------------- clicks
def test_click_calls_trump_and_plays_for_the_viewer():
    deal = prearranged()
    table = CardTable(deal, seat=0)
    assert last(table)["actions"] == ["call_trump"]
    st = click(table, type="call_trump", suit="S")
    assert deal.trump == cl.Suit.SPADES and st["trump"] == "S" and st["phase"] == "play"
    assert st["seats"][0]["legal"] == [c.code for c in deal.legal_cards()]
    st = click(table, type="play", card="2C")
    assert [(s, c.code) for s, c in deal.trick.cards] == [(0, "2C")]
    assert st["trick"] == [{"seat": 0, "card": "2C", "pos": "bottom"}]
    assert st["message"] == deal.events[-1].text and st["message_kind"] == "info"
    # a bare table plays nobody's cards by itself
    assert deal.to_play == 1 and deal.actions == ["call:S", "2C"]
    check_state_matches_engine(table)


def test_illegal_click_shows_the_reason_and_changes_nothing():
    deal = prearranged()
    table = CardTable(deal, seat=0)
    table.call_trump("S").play("2C").play("AC").play("2H").play("2D")
    table.play("KD").play("3H").play("AD")            # East leads KD: South must follow diamonds
    before = deal.to_dict()
    rev = table.state["rev"]
    st = click(table, type="play", card="AS")
    assert deal.to_dict() == before
    assert table.state["rev"] == rev + 1
    assert st["message_kind"] == "error"
    assert "diamonds were led" in st["message"] and "A\u2660" in st["message"]
    assert sorted(st["seats"][0]["legal"]) == ["5D", "6D", "7D", "8D"]
    click(table, type="play", card="5D")
    assert deal.tricks[-1].cards[-1] == (0, cl.Card.parse("5D"))


FORGED = [
    ("not a dict", "garbage"),
    ("no type", {"card": "2C"}),
    ("unknown type", {"type": "win_the_deal"}),
    ("card not a string", {"type": "play", "card": 7}),
    ("markup for a card", {"type": "play", "card": "<img src=x onerror=alert(1)>"}),
    ("another seat's card", {"type": "play", "card": "AC"}),
    ("card text of another spelling", {"type": "play", "card": "10\u2660"}),
    ("trump call while playing", {"type": "call_trump", "suit": "H"}),
    ("ask with no hidden trump", {"type": "ask_for_trump"}),
    ("claim with revokes prevented", {"type": "claim_revoke"}),
    ("play on mid-deal", {"type": "play_on"}),
]


@pytest.mark.parametrize("what,msg", FORGED, ids=[f[0] for f in FORGED])
def test_forged_or_garbage_messages_are_refused(what, msg):
    deal = prearranged()
    table = CardTable(deal, seat=0)
    table.call_trump("S")
    before, rev = deal.to_dict(), table.state["rev"]
    table._on_msg(table, msg, [])
    st = last(table)
    assert deal.to_dict() == before, what
    assert table.state["rev"] == rev + 1 and st["message_kind"] == "error" and st["message"]
    assert "<img" not in json.dumps(table.state)


def test_not_your_turn_is_refused():
    deal = prearranged()
    table = CardTable(deal, seat=1)                      # East watches South call
    st = click(table, type="call_trump", suit="C")
    assert deal.trump is None and st["message_kind"] == "error"
    table.call_trump("S").play("AS")                    # from Python: South's lead
    assert deal.to_play == 1
    table2 = CardTable(deal, seat=2)                    # North clicks out of turn
    before = deal.to_dict()
    st = click(table2, type="play", card="AH")
    assert deal.to_dict() == before
    assert st["message"] == "It is East's turn, not North's."


def test_two_quick_clicks_do_not_merge_or_double_play():
    deal = prearranged()
    table = CardTable(deal, seat=0)
    table.call_trump("S")
    click(table, type="play", card="2C")
    st = click(table, type="play", card="2C")             # the same click again
    assert deal.actions == ["call:S", "2C"]
    assert st["message_kind"] == "error"


# ----------------------------------------------------------------------------- state = engine's view
@pytest.mark.parametrize("game", ["court_piece", "double_sir", "dehla_pakad"])
@pytest.mark.parametrize("seed", [1, 2])
def test_state_is_the_viewers_view_through_a_whole_deal(game, seed):
    rules = getattr(cl.Rules, game)()
    table = CardTable(cl.Deal(rules, dealer=seed % 4, seed=seed), seat=seed % 4,
                      bots=cl.bots.RuleBot())
    check_state_matches_engine(table)
    for _ in range(60):
        st = last(table)
        if st["phase"] == "over":
            break
        assert st["to_play"] == table.seat          # bots answered up to the viewer's turn
        if st["phase"] == "trump":
            click(table, type=st["actions"][0] if st["actions"] else "call_trump", suit="H")
        else:
            click(table, type="play", card=st["seats"][table.seat]["legal"][-1])
        assert last(table)["message_kind"] == "info"
        check_state_matches_engine(table)
        for frame in table.state["frames"]:           # every intermediate picture hides as much
            assert not codes_in(frame) - visible_codes(table.deal, table.seat) - {
                c["card"] for f in table.state["frames"] for c in f["trick"]}
    assert table.deal.phase.value == "over"
    assert last(table)["result"].startswith("Deal over:")


@pytest.mark.parametrize("method", ["hidden", "hidden_random", "shown"])
def test_trump_card_methods_keep_the_face_down_card_secret(method):
    rules = cl.Rules.court_piece(trump_method=method)
    deal = cl.Deal(rules, dealer=3, seed=11)
    owner = CardTable(deal, seat=0)                      # South is the trump caller
    east = CardTable(deal, seat=1)
    if method != "hidden_random":
        assert last(owner)["actions"] == ["choose_trump_card"]
        card = deal.hand(0)[0]
        st = click(owner, type="choose_trump_card", card=card.code)
        assert st["message_kind"] == "info", st["message"]
    east.refresh()
    owner.refresh()
    st_e, st_o = last(east), last(owner)
    if method == "shown":
        assert st_e["trump_card"] == deal.trump_card.code and st_e["hidden_trump"] is None
    else:
        hidden = deal.hidden_trump_card
        assert st_e["hidden_trump"] == {"seat": 0, "card": None}
        assert hidden.code not in codes_in(east.state)
        assert st_e["trump"] is None
        if method == "hidden":
            assert st_o["hidden_trump"] == {"seat": 0, "card": hidden.code}
        else:                                            # nobody knows a random hidden card
            assert hidden.code not in codes_in(owner.state)
        teacher = CardTable(deal, seat=1, show_all=True)
        assert last(teacher)["hidden_trump"]["card"] == hidden.code
    check_state_matches_engine(east)


def test_show_all_is_the_teachers_view():
    deal = prearranged()
    table = CardTable(deal, seat=0, show_all=True)
    hands = [s["hand"] for s in last(table)["seats"]]
    assert hands == [[c.code for c in deal.hand(s)] for s in range(4)]
    table.show_all = False
    assert [s["hand"] is None for s in last(table)["seats"]] == [False, True, True, True]


# ----------------------------------------------------------------------------- bots and the Python API
def test_bots_answer_until_the_viewers_turn_and_undo_takes_it_all_back():
    deal = cl.Deal(cl.Rules.double_sir(), dealer=0, seed=5)   # East calls trump: a bot
    table = CardTable(deal, seat=0, bots=cl.bots.RuleBot())
    assert deal.trump is not None and deal.to_play == 0       # bots acted at once
    n = len(deal.actions)
    card = last(table)["seats"][0]["legal"][0]
    sent = []
    table.observe(lambda ch: sent.append(ch["new"]), "state")
    click(table, type="play", card=card)
    assert deal.to_play == 0 or deal.phase.value == "over"
    assert len(deal.actions) > n + 1
    # the viewer's card is sent at once, then one picture per bot move, in order
    assert [len(s["frames"]) for s in sent] == [1, len(deal.actions) - n - 1]
    assert sent[1]["rev"] == sent[0]["rev"] + 1
    mine = sent[0]["frames"][0]
    played = mine["trick"] or mine["last"]["cards"]        # open, or just completed
    assert played[-1] == {"seat": 0, "card": card, "pos": "bottom"}
    table.undo()
    assert len(deal.actions) == n and deal.to_play == 0
    check_state_matches_engine(table)


def test_python_api_drives_a_bare_table():
    deal = prearranged()
    table = CardTable(deal)
    assert repr(table) == "CardTable(court_piece, seat=0, South to call trump)"
    table.call_trump("S")
    table.play("2C")
    assert repr(table) == "CardTable(court_piece, seat=0, trick 1, East to play)"
    table.step()                                             # the next move, by a RuleBot
    assert len(deal.trick.cards) == 2
    table.undo()
    assert len(deal.trick.cards) == 1
    with pytest.raises(cl.IllegalPlay):
        table.play("KD")                                     # East holds clubs
    assert last(table)["message_kind"] == "error"
    assert "0x" not in repr(table)
    table.new_deal()
    assert table.deal is not deal and table.deal.phase.value == "trump"
    assert table.deal.dealer == 0


def test_session_table_shows_the_score_and_moves_to_the_next_deal():
    s = cl.Session(cl.Rules.double_sir(), seed=2, dealer=3)
    table = CardTable(s, seat=0, bots=cl.bots.RuleBot())
    assert last(table)["score"].startswith("Courts: North\u2013South 0, East\u2013West 0")
    with pytest.raises(ValueError):
        table.new_deal()                                     # the deal is not finished
    while table.deal.phase.value != "over":
        table.step()
    table.new_deal()
    assert len(s.results) == 1 and table.deal is s.deal
    courts = s.courts
    assert last(table)["score"].startswith(
        f"Courts: North\u2013South {courts[0]}, East\u2013West {courts[1]}")


def test_replay_shows_an_earlier_moment_and_refuses_clicks():
    deal = prearranged()
    table = CardTable(deal)
    table.call_trump("S").play("2C").play("AC")
    table.replay(1)
    st = last(table)
    assert st["replay"] and st["trick"] == [] and st["phase"] == "play" and st["actions"] == []
    before = deal.to_dict()
    st = click(table, type="play", card="AS")
    assert st["message_kind"] == "error" and deal.to_dict() == before
    table.replay(None)
    assert len(last(table)["trick"]) == 2


def test_widget_files_reprs_and_static_fallback():
    from courtlearn.widgets.table import STATIC
    from courtlearn.widgets.esm import module_source
    js = (STATIC / "table.js").read_text()            # files in the package, read by anywidget
    dom = (STATIC / "dom.js").read_text()             # (table.js's import of it put inline)
    assert str(CardTable._esm) == module_source(STATIC / "table.js")
    assert str(CardTable._css) == (STATIC / "table.css").read_text()
    assert "export default" in js and 'from "./dom.js"' not in str(CardTable._esm)
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert sink not in js + dom, f"{sink} in table.js: text must go in with textContent"
    table = CardTable(prearranged(), seat=0)
    bundle = table._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert data["text/plain"] == repr(table)
    assert "application/vnd.jupyter.widget-view+json" in data
    assert 'data-card="AS"' in data["text/html"] and 'data-card="AC"' not in data["text/html"]
    with pytest.raises(ValueError):
        CardTable(prearranged(), size="huge")
    with pytest.raises(ValueError):
        CardTable(prearranged(), seat=4)


def test_positions_follow_the_direction_of_play():
    anti = CardTable(prearranged(cl.Rules.court_piece()), seat=2)
    assert [(s["name"], s["pos"]) for s in last(anti)["seats"]] == [
        ("South", "top"), ("East", "left"), ("North", "bottom"), ("West", "right")]
    clock = CardTable(prearranged(cl.Rules.court_piece(direction="clockwise")), seat=0)
    assert [(s["name"], s["pos"]) for s in last(clock)["seats"]] == [
        ("South", "bottom"), ("West", "left"), ("North", "top"), ("East", "right")]


# ----------------------------------------------------------------------------- cl.play()
def test_play_app_controls():
    app = play("double_sir", seed=3)
    assert isinstance(app, PlayApp) and app.table.deal.rules.game == "double_sir"
    assert repr(app).startswith("PlayApp(CardTable(double_sir, seat=0,")
    table = app.table
    assert set(table.bots) == {1, 2, 3}
    app.show_all.value = True
    assert all(s["hand"] is not None for s in last(table)["seats"])
    app.show_all.value = False
    app.auto.value = False                                   # bots wait for Step
    card = last(table)["seats"][0]["legal"][0]
    click(table, type="play", card=card)
    assert table.deal.to_play == 1
    app.step_button.click()
    assert table.deal.to_play == 2
    app.auto.value = True                                    # back on: the bots catch up
    assert table.deal.to_play == 0 or table.deal.phase.value == "over"
    assert app.replay.max == len(table.deal.actions) == app.replay.value
    app.replay.value = 1
    assert last(table)["replay"]
    app.replay.value = app.replay.max
    assert not last(table)["replay"]
    app.undo_button.click()
    assert table.deal.to_play == 0
    app.picker.value = "court_piece"
    assert table.deal.rules.game == "court_piece"
    app.new_button.click()
    assert table.deal.phase.value in ("trump", "play")
    app.pace.value = 100
    assert table.speed == 100
    table.speed = 40                                         # set from Python: the slider follows
    assert app.pace.value == 40


def test_cl_play_is_the_app():
    app = cl.play("dehla_pakad", seed=1, seat=2)
    assert app.table.seat == 2 and app.table.deal.rules.game == "dehla_pakad"


# ----------------------------------------------------------------------------- variant moves by clicks
def test_hidden_trump_chosen_and_asked_for_by_clicks():
    deal = prearranged(cl.Rules.court_piece(trump_method="hidden"))
    south, east = CardTable(deal, seat=0), CardTable(deal, seat=1)
    click(south, type="choose_trump_card", card="2C")        # clubs, face down
    assert deal.trump is None and deal.hidden_trump_card == cl.Card.parse("2C")
    south.play("AS")
    east.refresh()
    assert "ask_for_trump" in last(east)["actions"]            # East has no spade
    assert "2C" not in codes_in(east.state)
    st = click(east, type="ask_for_trump")
    assert st["message_kind"] == "info" and deal.trump == cl.Suit.CLUBS and st["trump"] == "C"
    assert st["hidden_trump"] is None and st["trump_card"] == "2C"
    assert set(st["seats"][1]["legal"]) <= {c.code for c in deal.hand(1) if c.suit == cl.Suit.CLUBS}


def test_revoke_corrected_and_claimed_by_clicks():
    rules = cl.Rules.court_piece(revokes="allowed")
    deal = prearranged(rules)
    east = CardTable(deal, seat=1)
    south = CardTable(deal, seat=0)
    south.call_trump("S").play("2C")
    st = click(east, type="play", card="KD")                  # a revoke: East holds clubs
    assert st["message_kind"] == "info" and "correct_revoke" in st["actions"]
    st = click(east, type="correct_revoke")
    assert deal.trick.cards == ((0, cl.Card.parse("2C")),) and "KD" in st["seats"][1]["hand"]
    st = click(east, type="play", card="KD")                  # a corrected revoker must follow now
    assert st["message_kind"] == "error" and len(deal.trick.cards) == 1
    click(east, type="play", card="AC")
    for card in ("2H", "2D", "KD", "3H", "6S", "5D"):         # West revokes (holds diamonds)
        east.play(card)
    assert len(deal.tricks) == 2                              # established now
    south.refresh()
    assert "claim_revoke" in last(south)["actions"]
    st = click(south, type="claim_revoke")
    assert deal.phase.value == "over" and deal.result.kind == "revoke" and deal.result.winner == 0
    assert st["result"].startswith("Deal over: North\u2013South win on a revoke claim")


def test_play_on_after_a_court_by_a_click():
    deal = prearranged()
    table = CardTable(deal, seat=0, bots={1: cl.bots.RuleBot(), 2: cl.bots.RuleBot(), 3: cl.bots.RuleBot()})
    click(table, type="call_trump", suit="S")
    for card in ("AS", "KS", "QS", "JS", "10S", "9S", "8S"):   # South wins the first seven
        click(table, type="play", card=card)
    assert deal.phase.value == "over" and deal.result.kind == "court"
    st = last(table)
    assert "play_on" in st["actions"]
    st = click(table, type="play_on")
    assert deal.phase.value == "play" and st["message_kind"] == "info"


def test_a_bot_with_only_the_documented_methods_can_sit_at_the_table():
    class Lowest:                                     # API.md's interface, no act()
        def choose(self, deal):
            return deal.legal_cards()[-1]

        def call_trump(self, deal):
            return cl.Suit.parse("H")

    deal = cl.Deal(cl.Rules.court_piece(), dealer=0, seed=4)     # East calls
    table = CardTable(deal, seat=0, bots=Lowest())
    assert deal.trump == cl.Suit.HEARTS and deal.to_play == 0
    while deal.phase.value != "over":
        click(table, type="play", card=last(table)["seats"][0]["legal"][0])
    assert last(table)["result"]


# ----------------------------------------------------------------------------- hints
def test_hint_button_shows_the_hinted_suit_then_card_and_why():
    deal = prearranged()
    table = CardTable(deal, seat=0)
    assert last(table)["can_hint"] and last(table)["hint"] is None
    before = deal.to_dict()
    st = click(table, type="hint")                              # trump phase: a suit to call
    want = cl.hint(deal, 0)
    assert deal.to_dict() == before
    assert st["hint"] == {"card": None, "suit": want.card.letter, "text": want.text}
    assert st["message"] == want.text and st["message_kind"] == "hint"
    click(table, type="call_trump", suit="S")
    assert last(table)["hint"] is None                         # a move makes the hint stale
    st = click(table, type="hint")                              # South to lead
    want = cl.hint(deal, 0)
    assert st["hint"]["card"] == want.card.code and want.card.code in st["seats"][0]["legal"]
    assert st["message"] == want.text and want.text.startswith(f"Play {want.card}")
    check_state_matches_engine(table)                           # the hint carries no hidden card
    table.show_all = False                                      # a redraw keeps the hint on show
    assert last(table)["hint"]["card"] == want.card.code and last(table)["message"] == want.text
    # the Python API does the same without a click, and returns the Hint
    h = table.hint()
    assert (h.card, h.text, h.chances) == (want.card, want.text, want.chances)
    click(table, type="play", card=want.card.code)
    assert deal.trick.cards == ((0, want.card),) and last(table)["hint"] is None


def test_hint_is_the_same_whatever_the_hidden_cards():
    swapped = [HANDS[0], HANDS[2], HANDS[1], HANDS[3]]          # East and North trade hands
    hints = []
    for hands in (HANDS, swapped):
        deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=hands, dealer=3)
        table = CardTable(deal, seat=0)
        table.call_trump("H")
        hints.append(click(table, type="hint")["hint"])
    assert hints[0] == hints[1] and hints[0]["card"]


def test_hint_out_of_turn_is_refused_and_changes_nothing():
    pytest.importorskip("numpy")
    deal = prearranged()
    table = CardTable(deal, seat=1)                              # East watches South call
    assert not last(table)["can_hint"]
    before, rev = deal.to_dict(), table.state["rev"]
    st = click(table, type="hint")                               # a forged message
    assert deal.to_dict() == before and table.state["rev"] == rev + 1
    assert st["message_kind"] == "error" and st["hint"] is None
    assert st["message"] == "A hint is for East's own turn; it is South's turn now."
    with pytest.raises(ValueError):
        table.hint()
    assert deal.to_dict() == before and last(table)["hint"] is None
    # looking back at an earlier moment, or with hints switched off: refused as well
    south = CardTable(deal, seat=0)
    south.call_trump("S")
    south.replay(0)
    st = click(south, type="hint")
    assert st["message_kind"] == "error" and st["hint"] is None and not st["can_hint"]
    south.replay(None)
    south.hints = False
    assert not last(south)["can_hint"]
    st = click(south, type="hint")
    assert st["message_kind"] == "error" and st["hint"] is None
    assert deal.actions == ["call:S"]


def test_play_app_table_offers_hints_on_the_viewers_turn():
    pytest.importorskip("numpy")
    app = play("double_sir", seed=3)
    st = last(app.table)
    assert st["can_hint"] == (st["to_play"] == 0 and st["phase"] != "over")
    st = click(app.table, type="hint")
    assert st["hint"] is not None and st["message_kind"] == "hint"


@pytest.mark.parametrize("method", ["shown", "hidden"])
def test_hint_names_a_trump_card_of_the_viewers_hand(method):
    pytest.importorskip("numpy")
    deal = prearranged(cl.Rules.court_piece(trump_method=method))
    table = CardTable(deal, seat=0)
    st = click(table, type="hint")
    want = cl.hint(deal, 0)
    assert st["hint"] == {"card": want.card.code, "suit": None, "text": want.text}
    assert want.card.code in st["seats"][0]["hand"] and "choose_trump_card" in st["actions"]
    assert deal.phase.value == "trump" and deal.trump_card is None   # nothing chosen by the hint
    check_state_matches_engine(table)


def test_hints_and_review_without_numpy(monkeypatch):
    """With numpy missing the play-outs run in plain Python: the Hint and Review
    buttons are there and answer."""
    monkeypatch.setitem(sys.modules, "numpy", None)   # `import numpy` now fails
    deal = prearranged()
    table = CardTable(deal, seat=0)
    table.call_trump("H")
    assert last(table)["can_hint"]
    st = click(table, type="hint")
    assert st["message_kind"] == "hint" and st["hint"]["card"] in st["seats"][0]["legal"]
    table.play(st["hint"]["card"])
    st = click(table, type="review", index=0)                  # the trump call, reviewed
    assert st["review"]["index"] == 0 and st["message"].startswith("Trump")


# ------------------------------------------------------------ replies, names, the one judge
def _replies(table, monkeypatch):
    sent = []
    monkeypatch.setattr(table, "send", lambda msg, buffers=None: sent.append(msg))
    return sent


def test_every_intent_with_an_id_gets_a_reply(monkeypatch):
    deal = prearranged()
    table = CardTable(deal, seat=0)
    sent = _replies(table, monkeypatch)
    table._on_msg(table, {"id": 1, "type": "call_trump", "suit": "S"}, [])
    table._on_msg(table, {"id": 2, "type": "play", "card": "AC"}, [])      # East's card
    table._on_msg(table, {"id": 3, "type": "play", "card": "AS"}, [])
    table._on_msg(table, {"id": 4, "type": "win_the_deal"}, [])
    table._on_msg(table, {"type": "play", "card": "KS"}, [])               # no id: no reply
    assert [m["reply_to"] for m in sent] == [1, 2, 3, 4]
    assert [m["ok"] for m in sent] == [True, False, True, False]
    assert sent[1]["reason"] == last(table)["message"] or "does not hold" in sent[1]["reason"]
    assert "does not hold A♣" in sent[1]["reason"]
    assert "does not understand" in sent[3]["reason"]


def test_refusals_are_the_deals_own_sentences(monkeypatch):
    deal = prearranged()
    table = CardTable(deal, seat=0)
    table.call_trump("S").play("2C")
    table2 = CardTable(deal, seat=1)                    # East must follow clubs
    sent = _replies(table2, monkeypatch)
    table2._on_msg(table2, {"id": 9, "type": "play", "card": "KD"}, [])
    with pytest.raises(cl.IllegalPlay) as err:
        deal.verify_play("KD")
    assert "clubs were led" in err.value.reason
    assert sent == [{"reply_to": 9, "ok": False, "reason": err.value.reason}]
    assert last(table2)["message"] == err.value.reason


def test_offered_moves_come_from_the_deal():
    rules = cl.Rules.court_piece(trump_method="hidden")
    deal = prearranged(rules)
    table = CardTable(deal, seat=0)
    assert last(table)["actions"] == [m.kind for m in deal.moves(0)] == ["choose_trump_card"]
    assert CardTable(deal, seat=1).state["frames"][-1]["actions"] == []
    deal.choose_trump_card("2C")
    deal.play("AS")
    east = CardTable(deal, seat=1)                      # East holds no spade: may ask
    assert "ask_for_trump" in last(east)["actions"]
    assert [m.kind for m in deal.moves(1)] == ["play", "ask_for_trump"]


def test_names_come_from_rules_and_suits():
    rules = cl.Rules.double_sir(direction="clockwise")
    snap = CardTable(cl.Deal(rules, dealer=3, seed=7), seat=0).state["frames"][-1]
    assert snap["names"]["seats"] == list(rules.seat_names())
    assert snap["names"]["teams"] == [rules.team_name(0), rules.team_name(1)]
    assert snap["names"]["game"] == rules.title
    assert snap["names"]["suits"]["H"] == {"symbol": "♥", "plural": "hearts"}
    assert [s["name"] for s in snap["seats"]] == list(rules.seat_names())


def test_snapshot_has_exactly_the_typed_keys():
    from courtlearn.widgets.table import Snapshot, SeatState
    deal = prearranged()
    snap = snapshot(deal, 0)
    assert set(snap) == set(Snapshot.__annotations__)
    assert all(set(s) == set(SeatState.__annotations__) for s in snap["seats"])


def test_best_play_switch_marks_exact_values_and_refuses_what_it_should():
    from courtlearn.widgets import CardTable
    from courtlearn.widgets.table import Refused
    deal = cl.exercises.question("best_card", 3).deal
    before = deal.to_dict()
    hidden = CardTable(deal, seat=0)                      # the learner's view: no switch
    assert not hidden.state["frames"][-1]["can_best_play"]
    with pytest.raises(Refused, match="show_all"):
        hidden._handle({"type": "best_play", "on": True})
    table = CardTable(deal, seat=0, show_all=True)
    assert table.state["frames"][-1]["can_best_play"]
    for forged in ({"type": "best_play"}, {"type": "best_play", "on": "yes"},
                   {"type": "best_play", "on": 1}):
        with pytest.raises(Refused, match="neither on nor off"):
            table._handle(forged)
    table._handle({"type": "best_play", "on": True})
    bp = table.state["frames"][-1]["best_play"]
    values = {c.code: v for c, v in cl.solve(deal).values.items()}
    assert bp["on"] and bp["seat"] == 0 and bp["values"] == values
    assert set(bp["best"]) == {c for c, v in values.items() if v == max(values.values())}
    assert deal.to_dict() == before
    early = cl.Deal(cl.Rules.double_sir(), dealer=3, seed=1)
    early.call_trump("S")
    t2 = CardTable(early, seat=0, show_all=True)
    t2.best_play = True
    bp = t2.state["frames"][-1]["best_play"]
    assert bp["values"] is None and "last 6 tricks" in bp["note"]
    with pytest.raises(ValueError):
        t2.best_play = "yes"


def test_review_on_the_table_steps_and_refuses_what_it_should():
    from courtlearn.widgets.table import Refused
    pytest.importorskip("numpy")
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=8)
    fresh = CardTable(deal, seat=0)
    with pytest.raises(Refused, match="no decision"):
        fresh._handle({"type": "review", "index": 0})
    while deal.phase != "over":
        cl.bots.act(cl.bots.RuleBot(), deal)
    table = CardTable(deal, seat=0)
    before = deal.to_dict()
    for forged in ({"type": "review", "index": "1"}, {"type": "review", "index": True}):
        with pytest.raises(Refused, match="named no decision"):
            table._handle(forged)
    with pytest.raises(Refused, match="decisions 1 to"):
        table._handle({"type": "review", "index": 99})
    table._handle({"type": "review", "index": 2})
    frame = table.state["frames"][-1]
    step = frame["review"]
    assert frame["replay"] and step["index"] == 2 and step["count"] == len(table.review().decisions)
    d = table.review(2).decisions[2]
    assert step["chosen"] == d.chosen.code and step["text"] == d.text == frame["message"]
    table._handle({"type": "review_close"})
    assert table.state["frames"][-1]["review"] is None and not table.state["frames"][-1]["replay"]
    assert deal.to_dict() == before


def test_the_review_of_a_running_deal_tells_no_hidden_card():
    """Issue 23: two deals alike except for cards South cannot see (swapped between East and
    West) gave South different best cards in the table's review while the deal ran. Every
    review step is now the same on both; a table with all hands shown still has them."""
    pytest.importorskip("numpy")
    deal, twin = running_twins()

    def steps(d, **options):
        table = CardTable(d, seat=0, **options)
        return [click(table, type="review", index=i)["review"]
                for i in range(len(table.review().decisions))]

    mine = steps(deal)
    assert steps(twin) == mine
    assert all(step["cost"] is None for step in mine)
    assert any(step["cost"] is not None for step in steps(deal, show_all=True))


def running_twins():
    """A Court Piece deal after eight tricks, South to play, and a twin alike but for two
    unplayed cards of a suit swapped between East and West, whose all-hands analysis of
    South's decisions differs (what South must not be told while the deal runs)."""
    rules = cl.Rules.court_piece(stop_when_decided=False)
    bot = cl.bots.RuleBot()
    for seed in range(20):
        deal = cl.Deal(rules, dealer=3, seed=seed)
        while len(deal.tricks) < 8 or deal.to_play != 0 or deal.phase != "play":
            cl.bots.act(bot, deal)
        exact = [d.exact for d in cl.review(deal, samples=4, progress=False, exact=True).decisions]
        played = {c for t in deal.tricks for _, c in t.cards}
        for a in deal.dealt(1):
            for b in deal.dealt(3):
                if a.suit != b.suit or a in played or b in played:
                    continue
                swap = {a: b, b: a}
                hands = [" ".join(swap.get(c, c).code for c in deal.dealt(s)) for s in range(4)]
                twin = cl.Deal.prearranged(rules, hands, dealer=3, seed=deal.seed)
                twin.apply(deal.actions)
                theirs = cl.review(twin, samples=4, progress=False, exact=True).decisions
                if [d.exact for d in theirs] != exact:
                    return deal, twin
    raise AssertionError("no such pair of deals")


def test_a_table_looking_back_at_a_moment_taken_back_elsewhere_shows_the_live_deal():
    """Two tables on one deal: one steps back to move 5, the other takes three moves back.
    Redrawing the first raised ValueError ("upto must be 0..3, got 5"); it now shows the
    live deal."""
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    south, east = CardTable(deal, seat=0), CardTable(deal, seat=1)
    south.call_trump("S")
    for _ in range(5):
        south.step()
    south.replay(5)
    assert last(south)["replay"]
    for _ in range(3):
        east.undo()
    assert len(deal.actions) == 3
    south.refresh()
    frame = last(south)
    assert not frame["replay"] and south._replay is None
    check_state_matches_engine(south)
