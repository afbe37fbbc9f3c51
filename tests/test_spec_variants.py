"""Black-box checks of the trump methods, revokes, Be-ranga piles, play on and seat views
against the contract alone (RULES.md sections 3, 5, 6, 7; API.md "Variant moves" and
``deal.view``). Every expected value below is worked out from those texts, by hand.

Seats: the dealer is 3 unless said otherwise, so seat 0 is the trump caller and leads.
"""
import dataclasses
import json

import pytest

import courtlearn as cl

RANKS = "A K Q J 10 9 8 7 6 5 4 3 2".split()
DECK = [r + s for s in "SHCD" for r in RANKS]
S, H, C, D = (cl.Suit.parse(x) for x in "SHCD")


# ----------------------------------------------------------------- helpers
def code(card):
    return cl.Card.parse(card).code


def hands_with(given, voids=None):
    """Four 13-card hands (text, in seat order). Each seat gets its ``given`` cards first,
    in that order, then filler cards in deck order; filler never gives seat s a suit
    listed in voids[s] (a string of suit letters)."""
    hands = [[code(c) for c in g.split()] for g in given]
    used = [c for h in hands for c in h]
    assert len(set(used)) == len(used), "a card is given twice"
    voids = voids or {}
    rest = [c for c in DECK if c not in used]
    # seats with the most voids choose first, taking the cards they may hold
    for seat in sorted(range(4), key=lambda s: -len(voids.get(s, ""))):
        if not voids.get(seat):
            continue
        ok = [c for c in rest if c[-1] not in voids[seat]]
        take = ok[:13 - len(hands[seat])]
        assert len(take) == 13 - len(hands[seat]), f"seat {seat} cannot be filled"
        hands[seat] += take
        rest = [c for c in rest if c not in take]
    for seat in range(4):
        need = 13 - len(hands[seat])
        hands[seat] += rest[:need]
        rest = rest[need:]
    assert not rest and all(len(h) == 13 for h in hands)
    return [" ".join(h) for h in hands]


def new(rules, given, voids=None, dealer=3, seed=1):
    return cl.Deal.prearranged(rules, hands=hands_with(given, voids), dealer=dealer, seed=seed)


def play(deal, *cards):
    for c in cards:
        deal.play(c)


def codes(cards):
    return [c.code for c in cards]


def held(deal, seat):
    return set(codes(deal.hand(seat)))


def state(deal):
    """Everything a refused call must leave as it was."""
    return (json.dumps(deal.to_dict(), sort_keys=True), len(deal.events),
            [e.text for e in deal.events], [codes(deal.hand(s)) for s in range(4)],
            codes(deal.stock), str(deal.phase), deal.trump, deal.trump_card, deal.to_play,
            deal.result, list(deal.revokes), deal.trick, list(deal.tricks), deal.tricks_won,
            [deal.view(s) for s in range(4)])


def refused(deal, call, *words, kind=ValueError):
    """``call`` raises a ``kind`` (a ValueError) naming ``words``; the deal and its events
    are untouched."""
    before = state(deal)
    with pytest.raises(kind) as info:
        call()
    message = str(info.value)
    assert message.strip(), "a refusal needs a reason"
    for w in words:
        assert w.lower() in message.lower(), message
    assert state(deal) == before
    return message


def missing_card(deal):
    """The one card in no hand, no trick and not in the stock (a face-down trump card)."""
    seen = set(codes(deal.stock))
    for s in range(4):
        seen |= held(deal, s)
    for t in list(deal.tricks) + [deal.trick]:
        seen |= {c.code for _, c in t.cards}
    out = [c for c in DECK if c not in seen]
    assert len(out) <= 1
    return out[0] if out else None


def roundtrip(deal):
    d = deal.to_dict()
    back = cl.Deal.from_dict(json.loads(json.dumps(d)))
    assert back.to_dict() == d
    assert [back.view(s) for s in range(4)] == [deal.view(s) for s in range(4)]
    for s in range(4):
        assert codes(back.hand(s)) == codes(deal.hand(s))
    assert (back.phase, back.trump, back.trump_card, back.to_play, back.result,
            list(back.revokes), back.tricks_won) == \
        (deal.phase, deal.trump, deal.trump_card, deal.to_play, deal.result,
         list(deal.revokes), deal.tricks_won)
    return back


def check_steps(deal, steps):
    """Apply ``steps`` one by one; every state round-trips through to_dict/from_dict, and
    undo walks back through exactly the same states."""
    saved = [(deal.to_dict(), [deal.view(s) for s in range(4)], len(deal.events))]
    roundtrip(deal)
    for step in steps:
        step(deal)
        roundtrip(deal)
        saved.append((deal.to_dict(), [deal.view(s) for s in range(4)], len(deal.events)))
    for d, views, n in reversed(saved[:-1]):
        deal.undo()
        assert deal.to_dict() == d
        assert [deal.view(s) for s in range(4)] == views
        assert len(deal.events) == n


def lead_low(deal):
    """Any legal card (the last one listed) for whoever is to play."""
    deal.play(deal.legal_cards()[-1])


# ======================================================= 3. called trump
def test_called_caller_sees_five_then_all_thirteen_are_dealt():
    deal = new(cl.Rules.court_piece(), ["", "", "", ""], dealer=1)
    assert deal.trump_caller == 2 and deal.to_play == 2 and str(deal.phase) == "trump"
    assert all(len(deal.hand(s)) == 5 for s in range(4)) and len(deal.stock) == 32
    assert deal.trump is None and deal.trump_card is None and deal.legal_cards() == []
    assert deal.view(2).hand == tuple(deal.hand(2)) and len(deal.view(2).hand) == 5
    deal.call_trump("D")
    assert deal.trump is D and deal.trump_card is None
    assert str(deal.phase) == "play" and deal.to_play == 2
    assert all(len(deal.hand(s)) == 13 for s in range(4)) and deal.stock == []


@pytest.mark.parametrize("move", [
    lambda d: d.choose_trump_card(d.hand(0)[0]),
    lambda d: d.defer_trump(),
    lambda d: d.ask_for_trump(),
    lambda d: d.play_on(),
    lambda d: d.correct_revoke(),
    lambda d: d.claim_revoke(1),
])
def test_variant_moves_refused_under_called_trump(move):
    deal = new(cl.Rules.court_piece(), ["", "", "", ""])
    refused(deal, lambda: move(deal))
    deal.call_trump("S")
    refused(deal, lambda: move(deal))


def test_called_trump_cannot_be_called_twice():
    deal = new(cl.Rules.court_piece(), ["", "", "", ""])
    deal.call_trump("H")
    refused(deal, lambda: deal.call_trump("S"))


# ======================================================= 3. shown trump
SHOWN = ["7H AS 2C 3D 4S", "", "", ""]


def test_shown_card_fixes_trump_face_up_and_stays_in_hand():
    deal = new(cl.Rules.court_piece(trump_method="shown"), SHOWN)
    assert str(deal.phase) == "trump" and deal.trump is None and deal.trump_card is None
    deal.choose_trump_card("7H")
    assert deal.trump is H and deal.trump_card == cl.Card.parse("7H")
    assert "7H" in held(deal, 0) and len(deal.hand(0)) == 13
    assert all(deal.view(s).trump_card == cl.Card.parse("7H") for s in range(4))
    assert all(deal.view(s).trump is H for s in range(4))
    assert str(deal.phase) == "play" and deal.to_play == 0
    deal.play("7H")                       # played like any other card
    assert deal.trick.cards == [(0, cl.Card.parse("7H"))]
    assert deal.trump_card == cl.Card.parse("7H")


def test_shown_card_must_be_among_the_first_five():
    deal = new(cl.Rules.court_piece(trump_method="shown"), SHOWN)
    sixth = deal.to_dict()["hands"][0][5]          # the caller's, but not dealt yet
    refused(deal, lambda: deal.choose_trump_card(sixth))
    other = deal.to_dict()["hands"][1][0]          # another seat's card
    refused(deal, lambda: deal.choose_trump_card(other))
    refused(deal, lambda: deal.call_trump("S"))
    refused(deal, lambda: deal.choose_trump_card("XX"))
    deal.choose_trump_card("AS")
    refused(deal, lambda: deal.choose_trump_card("2C"))


def test_shown_trump_steps_undo_and_round_trip():
    deal = new(cl.Rules.court_piece(trump_method="shown"), SHOWN)
    check_steps(deal, [lambda d: d.choose_trump_card("4S"), lead_low, lead_low, lead_low,
                       lead_low, lead_low])


# ======================================================= 3. hidden trump
# seat 1 lacks hearts and clubs; seat 0 sets 2S aside.
HIDDEN = ["2S AH AC KH KC", "9S 4S", "QH QC", "JH JC"]
HIDDEN_VOIDS = {1: "HC"}


def hidden_deal(**options):
    return new(cl.Rules.court_piece(trump_method="hidden", **options), HIDDEN, HIDDEN_VOIDS)


def test_hidden_card_is_set_aside_face_down_and_there_are_no_trumps():
    deal = hidden_deal()
    deal.choose_trump_card("2S")
    assert deal.trump is None and deal.trump_card is None
    assert "2S" not in held(deal, 0) and len(deal.hand(0)) == 12
    assert all(len(deal.hand(s)) == 13 for s in (1, 2, 3))
    assert missing_card(deal) == "2S"
    assert deal.view(0).trump_card == cl.Card.parse("2S")          # its owner only
    assert [deal.view(s).trump_card for s in (1, 2, 3)] == [None, None, None]
    assert all(deal.view(s).trump is None for s in range(4))
    # trick 1: seat 1 discards a spade without asking: no trumps, hearts win
    play(deal, "AH", "9S", "QH", "JH")
    assert deal.tricks[0].winner == 0 and deal.trump is None


def test_no_event_a_seat_sees_names_the_face_down_card():
    deal = hidden_deal()
    deal.choose_trump_card("2S")
    play(deal, "AH", "9S", "QH", "JH")
    for seat in (1, 2, 3):
        view = deal.view(seat)
        assert view.events == tuple(e for e in deal.events if e.visible_to(seat))
        assert not any("2♠" in e.text for e in view.events)
    assert any("2♠" in e.text for e in deal.view(0).events)   # the owner knows it


def test_owner_cannot_play_the_set_aside_card_before_it_is_shown():
    deal = hidden_deal()
    deal.choose_trump_card("2S")
    refused(deal, lambda: deal.play("2S"), kind=cl.IllegalPlay)
    assert cl.Card.parse("2S") not in deal.legal_cards()


def test_ask_shows_the_card_into_its_owners_hand_and_the_asker_must_trump():
    deal = hidden_deal()
    deal.choose_trump_card("2S")
    play(deal, "AH", "9S", "QH", "JH")          # no trumps yet: seat 0 wins
    deal.play("AC")
    assert deal.to_play == 1
    n = len(deal.events)
    deal.ask_for_trump()
    assert len(deal.events) > n
    assert deal.trump is S and deal.trump_card == cl.Card.parse("2S")
    assert "2S" in held(deal, 0) and len(deal.hand(0)) == 11     # 12 - AH - AC + 2S
    assert all(deal.view(s).trump_card == cl.Card.parse("2S") for s in range(4))
    spades = [c for c in deal.hand(1) if c.suit is S]
    assert deal.legal_cards() == spades
    other = next(c for c in deal.hand(1) if c.suit is not S)
    refused(deal, lambda: deal.play(other), "trump", kind=cl.IllegalPlay)
    play(deal, "4S", "QC", "JC")
    assert deal.tricks[1].winner == 1          # the trump wins this very trick
    assert deal.tricks[0].winner == 0          # earlier tricks are not re-judged


def test_a_card_of_the_trump_suit_already_in_the_trick_counts_as_a_trump():
    # seats 1 and 2 both lack clubs; seat 1 discards 9S before anyone asks,
    # seat 2 then asks, spades become trump, and seat 2 must trump with 3S.
    deal = new(cl.Rules.court_piece(trump_method="hidden"),
               ["2S AC", "9S", "3S", "KC"], {1: "C", 2: "C"})
    deal.choose_trump_card("2S")
    play(deal, "AC", "9S")
    deal.ask_for_trump()
    assert deal.trump is S
    assert all(c.suit is S for c in deal.legal_cards()) and cl.Card.parse("3S") in deal.legal_cards()
    play(deal, "3S", "KC")
    assert deal.tricks[0].winner == 1          # 9S, a trump already in the trick, beats 3S


def test_the_asker_without_a_trump_may_play_anything():
    # seat 1 lacks hearts and spades: after asking it cannot trump
    deal = new(cl.Rules.court_piece(trump_method="hidden"), ["2S AH", "", "KH", "QH"],
               {1: "HS"})
    deal.choose_trump_card("2S")
    deal.play("AH")
    deal.ask_for_trump()
    assert deal.trump is S
    assert deal.legal_cards() == deal.hand(1)


def test_the_owner_may_ask_and_must_then_trump():
    # seat 1 wins trick 1 and leads diamonds; seat 0 (the owner) has no diamonds
    deal = new(cl.Rules.court_piece(trump_method="hidden"),
               ["2S 3H", "AH AD", "4H KD", "5H QD"], {0: "D"})
    deal.choose_trump_card("2S")
    play(deal, "3H", "AH", "4H", "5H")
    play(deal, "AD", "KD", "QD")
    assert deal.to_play == 0 and deal.trump is None
    deal.ask_for_trump()
    assert deal.trump is S and deal.trump_card == cl.Card.parse("2S")
    assert "2S" in held(deal, 0)
    assert deal.legal_cards() == [c for c in deal.hand(0) if c.suit is S]
    deal.play("2S")
    assert deal.tricks[1].winner == 0


def auto_reveal_deal(rules, last_winner):
    """Seat 0 sets 2S aside; twelve tricks are all followed (three per suit, seat 0
    holding the top card of each but the last, which ``last_winner`` holds); trick 13:
    seat 0 has only the set-aside card left, the others a 2 of another suit each."""
    per = [[], [], [], []]
    plays = []
    for block in range(3):
        for suit in "HCDS":
            order = [0, 1, 2, 3]
            if block == 2 and suit == "S":
                order[0], order[last_winner] = order[last_winner], order[0]
            cards = [RANKS[4 * block + order[s]] + suit for s in range(4)]
            for s in range(4):
                per[s].append(cards[s])
            plays.append(cards)
    hands = ["2S " + " ".join(per[0]), " ".join(per[1] + ["2H"]),
             " ".join(per[2] + ["2C"]), " ".join(per[3] + ["2D"])]
    deal = cl.Deal.prearranged(rules, hands=hands, dealer=3, seed=1)
    return deal, plays


@pytest.mark.parametrize("last_winner", [0, 1])
def test_the_face_down_card_is_shown_when_its_owner_has_no_other_card(last_winner):
    rules = cl.Rules.court_piece(trump_method="hidden", stop_when_decided=False)
    deal, plays = auto_reveal_deal(rules, last_winner)
    deal.choose_trump_card("2S")
    for cards in plays:                     # seat 0 leads each of the twelve tricks
        assert deal.trump is None
        play(deal, *cards)
    assert len(deal.tricks) == 12 and deal.tricks[11].winner == last_winner
    if last_winner == 1:                    # seat 1 leads trick 13; seat 0 plays last
        play(deal, "2H", "2C", "2D")
    assert deal.to_play == 0
    assert deal.trump is S and deal.trump_card == cl.Card.parse("2S")
    assert all(deal.view(s).trump_card == cl.Card.parse("2S") for s in range(4))
    assert deal.hand(0) == [cl.Card.parse("2S")] and deal.legal_cards() == deal.hand(0)
    deal.play("2S")
    if last_winner == 0:
        play(deal, "2H", "2C", "2D")
        # team 0 took all thirteen with stop_when_decided=False: a bavney (section 7)
        assert (deal.result.winner, deal.result.courts, deal.result.kind) == (0, 52, "bavney")
    assert deal.tricks[12].winner == 0      # 2S is a trump in trick 13
    assert str(deal.phase) == "over"
    roundtrip(deal)


def test_ask_refusals():
    deal = hidden_deal()
    refused(deal, deal.ask_for_trump)                     # trump phase
    deal.choose_trump_card("2S")
    refused(deal, deal.ask_for_trump)                     # the leader may not ask
    play(deal, "AH", "9S")
    refused(deal, deal.ask_for_trump, "hearts")           # seat 2 holds QH: can follow
    play(deal, "QH", "JH", "AC")
    deal.ask_for_trump()
    refused(deal, deal.ask_for_trump)                     # already shown
    refused(deal, lambda: deal.choose_trump_card("AC"))


@pytest.mark.parametrize("method", ["called", "shown"])
def test_ask_refused_when_there_is_no_face_down_card(method):
    deal = new(cl.Rules.court_piece(trump_method=method), HIDDEN, HIDDEN_VOIDS)
    if method == "called":
        deal.call_trump("D")
    else:
        deal.choose_trump_card("2S")
    deal.play("AH")                                       # seat 1 cannot follow
    refused(deal, deal.ask_for_trump)


def test_hidden_trump_refuses_a_call_and_a_defer():
    deal = hidden_deal()
    refused(deal, lambda: deal.call_trump("S"))
    refused(deal, deal.defer_trump)
    refused(deal, lambda: deal.choose_trump_card(deal.to_dict()["hands"][0][7]))


def test_hidden_trump_steps_undo_and_round_trip():
    deal = hidden_deal()
    check_steps(deal, [lambda d: d.choose_trump_card("2S"),
                       lambda d: d.play("AH"), lambda d: d.play("9S"),
                       lambda d: d.play("QH"), lambda d: d.play("JH"),
                       lambda d: d.play("AC"), lambda d: d.ask_for_trump(),
                       lambda d: d.play("4S")])


# ================================================= 3. hidden_random trump
@pytest.mark.parametrize("game", ["court_piece", "double_sir", "dehla_pakad"])
def test_hidden_random_goes_straight_to_play_with_one_of_the_five_unseen(game):
    rules = getattr(cl.Rules, game)(trump_method="hidden_random")
    chosen = set()
    for seed in range(12):
        deal = new(rules, ["", "", "", ""], seed=seed)
        assert str(deal.phase) == "play" and deal.to_play == 0
        assert deal.trump is None and deal.trump_card is None and deal.stock == []
        assert len(deal.hand(0)) == 12 and all(len(deal.hand(s)) == 13 for s in (1, 2, 3))
        card = missing_card(deal)
        assert card in deal.to_dict()["hands"][0][:5]
        assert all(deal.view(s).trump_card is None for s in range(4))   # owner included
        again = new(rules, ["", "", "", ""], seed=seed)
        assert missing_card(again) == card                                # seeded
        refused(deal, lambda: deal.choose_trump_card(deal.hand(0)[0]))
        refused(deal, lambda: deal.call_trump("S"))
        chosen.add(card)
    assert len(chosen) > 1                                                # random


def test_hidden_random_ask_shows_it():
    # seat 1 lacks hearts; whatever card was set aside, asking shows it to everybody
    rules = cl.Rules.court_piece(trump_method="hidden_random")
    deal = new(rules, ["AH", "", "KH", "QH"], {1: "H"}, seed=5)
    card = missing_card(deal)
    deal.play("AH")
    deal.ask_for_trump()
    assert deal.trump_card == cl.Card.parse(card) and deal.trump is cl.Card.parse(card).suit
    assert card in held(deal, 0)
    assert missing_card(deal) is None
    roundtrip(deal)


# ================================================= 3. first_void (Be-ranga)
@pytest.mark.parametrize("game", ["court_piece", "double_sir"])
def test_be_ranga_deals_all_thirteen_and_has_no_trump_phase(game):
    deal = new(getattr(cl.Rules, game)(trump_method="first_void"), ["", "", "", ""])
    assert str(deal.phase) == "play" and deal.to_play == 0 and deal.trump is None
    assert all(len(deal.hand(s)) == 13 for s in range(4)) and deal.stock == []
    refused(deal, lambda: deal.call_trump("S"))
    refused(deal, lambda: deal.choose_trump_card(deal.hand(0)[0]))
    refused(deal, deal.defer_trump)


# trick 1: seat 1 lacks diamonds and fixes spades with 2S; seat 3 (also without
# diamonds) throws AH, which is no trump.  trick 2: seat 2 lacks clubs and throws 2H:
# hearts do not become trump, AC wins.
BERANGA_CP = ["AD AC", "2S 4C", "KD 2H", "AH 5C"]
BERANGA_CP_VOIDS = {1: "D", 2: "C", 3: "D"}


def test_first_void_fixes_trump_for_that_trick_and_the_rest_of_the_deal():
    deal = new(cl.Rules.court_piece(trump_method="first_void"), BERANGA_CP, BERANGA_CP_VOIDS)
    deal.play("AD")
    assert deal.trump is None
    deal.play("2S")
    assert deal.trump is S and all(deal.view(s).trump is S for s in range(4))
    play(deal, "KD", "AH")
    assert deal.tricks[0].winner == 1 and deal.tricks_won == (0, 1)
    play(deal, "4C", "2H", "5C", "AC")
    assert deal.trump is S and deal.tricks[1].winner == 0


def test_first_void_a_later_void_may_overtrump_in_the_fixing_trick():
    deal = new(cl.Rules.court_piece(trump_method="first_void"),
               ["AD", "2S", "KD", "3S"], {1: "D", 3: "D"})
    play(deal, "AD", "2S", "KD", "3S")
    assert deal.trump is S and deal.tricks[0].winner == 3


def test_first_void_steps_undo_and_round_trip():
    deal = new(cl.Rules.court_piece(trump_method="first_void"), BERANGA_CP, BERANGA_CP_VOIDS)
    check_steps(deal, [lambda d, c=c: d.play(c) for c in "AD 2S KD AH 4C".split()])


# ====================================== 3. first_void in Dehla Pakad (method one)
def test_dehla_pakad_method_one_plays_on_five_then_deals_after_the_fixing_trick():
    deal = new(cl.Rules.dehla_pakad(trump_method="first_void"),
               ["AH AC 2D 3D 4D", "QH 2S 5D 6D 7D", "JH KC 8D 9D 10D", "10H QC JD QD KD"])
    assert str(deal.phase) == "play" and deal.to_play == 0 and deal.trump is None
    assert all(len(deal.hand(s)) == 5 for s in range(4)) and len(deal.stock) == 32
    refused(deal, lambda: deal.call_trump("S"))
    play(deal, "AH", "QH", "JH", "10H")
    assert deal.trump is None and all(len(deal.hand(s)) == 4 for s in range(4))
    assert len(deal.stock) == 32
    play(deal, "AC", "2S")                 # seat 1 has no club among its five
    assert deal.trump is S
    assert len(deal.stock) == 32 and len(deal.hand(1)) == 3    # not dealt mid-trick
    play(deal, "KC", "QC")
    assert deal.tricks[1].winner == 1
    assert deal.stock == [] and all(len(deal.hand(s)) == 11 for s in range(4))
    assert deal.trump is S
    roundtrip(deal)


def test_dehla_pakad_method_one_deals_the_rest_when_the_five_run_out():
    first = ["AH KH AC AD AS", "QH JH KC KD KS", "10H 9H QC QD QS", "8H 7H JC JD JS"]
    given = [first[0] + " 10C 9C", first[1], first[2], first[3]]
    deal = new(cl.Rules.dehla_pakad(trump_method="first_void"), given, {1: "C"})
    tricks = [f.split() for f in first]
    for i in range(5):
        play(deal, *(tricks[s][i] for s in range(4)))
        if i < 4:
            assert len(deal.stock) == 32 and all(len(deal.hand(s)) == 4 - i for s in range(4))
    assert deal.trump is None
    assert deal.stock == [] and all(len(deal.hand(s)) == 8 for s in range(4))
    assert deal.to_play == 0
    deal.play("10C")                      # seat 1 got no club: it fixes trump now
    assert deal.trump is None
    card = deal.hand(1)[0]
    deal.play(card)
    assert deal.trump is card.suit
    roundtrip(deal)


def test_dehla_pakad_method_one_steps_undo_and_round_trip():
    deal = new(cl.Rules.dehla_pakad(trump_method="first_void"),
               ["AH AC 2D 3D 4D", "QH 2S 5D 6D 7D", "JH KC 8D 9D 10D", "10H QC JD QD KD"])
    check_steps(deal, [lambda d, c=c: d.play(c) for c in "AH QH JH 10H AC 2S KC QC".split()]
                + [lead_low])


# ==================================================== 3. deferred trump
def test_defer_next_turns_up_the_first_card_of_the_callers_next_batch():
    rules = cl.Rules.court_piece(allow_deferred=True)
    deal = new(rules, ["AS KS QS JS 10S 7D 2H 3C 4C", "", "", ""])
    deal.defer_trump()
    assert deal.trump is D and deal.trump_card == cl.Card.parse("7D")
    assert "7D" in held(deal, 0) and all(len(deal.hand(s)) == 13 for s in range(4))
    assert all(deal.view(s).trump_card == cl.Card.parse("7D") for s in range(4))
    assert str(deal.phase) == "play" and deal.to_play == 0
    refused(deal, lambda: deal.call_trump("S"))
    refused(deal, deal.defer_trump)
    deal.play("7D")                        # it stays a card of the caller's hand


def test_defer_also_with_a_shown_trump_card():
    rules = cl.Rules.double_sir(trump_method="shown", allow_deferred=True)
    deal = new(rules, ["AS KS QS JS 10S 7D", "", "", ""])
    deal.defer_trump()
    assert deal.trump is D and deal.trump_card == cl.Card.parse("7D")


def test_defer_random_turns_a_card_of_the_second_batch():
    rules = cl.Rules.court_piece(allow_deferred=True, deferred_card="random")
    given = ["AS KS QS JS 10S 7D 6H 5C 4S", "", "", ""]
    turned = set()
    for seed in range(12):
        deal = new(rules, given, seed=seed)
        deal.defer_trump()
        card = deal.trump_card.code
        assert card in ("7D", "6H", "5C", "4S") and deal.trump is deal.trump_card.suit
        assert card in held(deal, 0)
        again = new(rules, given, seed=seed)
        again.defer_trump()
        assert again.trump_card.code == card
        turned.add(card)
    assert len(turned) > 1


@pytest.mark.parametrize("number", range(6, 14))
def test_defer_numbered_turns_up_the_named_card_of_the_callers_deal(number):
    rules = cl.Rules.double_sir(allow_deferred=True, deferred_card="numbered")
    order = "AS KS QS JS 10S 9H 8C 7D 6H 5C 4D 3H 2C".split()
    deal = new(rules, [" ".join(order), "", "", ""])
    deal.defer_trump(number)
    want = cl.Card.parse(order[number - 1])
    assert deal.trump_card == want and deal.trump is want.suit and want in deal.hand(0)
    assert str(deal.phase) == "play"


@pytest.mark.parametrize("bad", [None, 5, 14, 0, 1, -1, True])
def test_defer_numbered_refuses_a_number_outside_6_to_13(bad):
    rules = cl.Rules.double_sir(allow_deferred=True, deferred_card="numbered")
    deal = new(rules, ["", "", "", ""])
    refused(deal, lambda: deal.defer_trump(bad))


@pytest.mark.parametrize("method", ["called", "shown", "hidden"])
def test_defer_refused_when_not_allowed(method):
    deal = new(cl.Rules.court_piece(trump_method=method), ["", "", "", ""])
    refused(deal, deal.defer_trump, "allow_deferred")


def test_defer_steps_undo_and_round_trip():
    rules = cl.Rules.court_piece(allow_deferred=True, deferred_card="numbered")
    deal = new(rules, ["", "", "", ""])
    check_steps(deal, [lambda d: d.defer_trump(11), lead_low, lead_low])
    assert str(deal.phase) == "trump" and deal.trump is None and deal.trump_card is None
    assert all(len(deal.hand(s)) == 5 for s in range(4))


# ============================================================= 5. revokes
# trump clubs.  Trick 1: seat 0 leads AS; seat 1 holds KS 5S but throws 3D.
REVOKE = ["AS 4S 2H", "KS 5S 3D", "QS 6S 4D", "JS 7S 5D"]


def revoke_deal(revokes="allowed", game="court_piece"):
    deal = new(getattr(cl.Rules, game)(revokes=revokes), REVOKE)
    deal.call_trump("C")
    return deal


def test_revokes_prevented_refuse_the_card_with_a_reason():
    deal = revoke_deal("prevented")
    deal.play("AS")
    spades = [c for c in deal.hand(1) if c.suit is S]
    message = refused(deal, lambda: deal.play("3D"), "spades", kind=cl.IllegalPlay)
    for c in spades:
        assert str(c) in message
    assert deal.revokes == []


def test_revoke_allowed_is_recorded_then_established_then_provable():
    deal = revoke_deal()
    deal.play("AS")
    assert deal.legal_cards() == [c for c in deal.hand(1) if c.suit is S]
    deal.play("3D")
    [rv] = deal.revokes
    assert rv.seat == 1 and not rv.established and not rv.provable
    assert all(v.revokes == () for v in map(deal.view, range(4)))
    play(deal, "QS", "JS")
    [rv] = deal.revokes
    assert rv.established and not rv.provable
    assert deal.tricks[0].winner == 0                     # 3D is no trump (clubs are)
    assert all(v.revokes == () for v in map(deal.view, range(4)))
    refused(deal, deal.correct_revoke)                    # too late to correct
    play(deal, "4S", "5S")                                # seat 1 plays a spade later
    [rv] = deal.revokes
    assert rv.established and rv.provable
    assert all(len(deal.view(s).revokes) == 1 for s in range(4))
    roundtrip(deal)


def test_a_revoke_is_shown_as_a_void_to_the_others():
    deal = revoke_deal()
    play(deal, "AS", "3D", "QS", "JS")
    assert all(S in deal.view(s).voids[1] for s in range(4))


def test_correct_revoke_takes_back_the_revoke_and_the_cards_after_it():
    deal = revoke_deal()
    play(deal, "AS", "3D", "QS")
    assert deal.to_play == 3
    deal.correct_revoke()
    assert deal.trick.cards == [(0, cl.Card.parse("AS"))]
    assert {"3D", "KS", "5S"} <= held(deal, 1) and "QS" in held(deal, 2)
    assert deal.to_play == 1 and deal.revokes == []
    refused(deal, lambda: deal.play("3D"), "spades", kind=cl.IllegalPlay)   # must follow
    deal.play("KS")
    deal.play("6S")                                       # seat 2 may change its card
    deal.play("JS")
    assert deal.tricks[0].winner == 0 and deal.revokes == []
    assert "QS" in held(deal, 2)


def test_correct_revoke_takes_the_earliest_revoke_of_the_trick_whoever_is_to_play():
    deal = revoke_deal()
    play(deal, "AS", "3D", "4D")                          # seats 1 and 2 both revoke
    assert len(deal.revokes) == 2 and deal.to_play == 3
    deal.correct_revoke()
    assert deal.trick.cards == [(0, cl.Card.parse("AS"))] and deal.to_play == 1
    assert deal.revokes == [] and "4D" in held(deal, 2) and "3D" in held(deal, 1)


def test_a_revoker_corrects_its_own_revoke_and_an_earlier_one_stays():
    """Every revoker of the open trick may take back its own revoke (it cannot see whether
    an earlier card was a revoke too): correct_revoke(seat), offered by moves(seat)."""
    deal = revoke_deal()
    play(deal, "AS", "3D", "4D")                          # seats 1 and 2 both revoke
    assert [m.kind for m in deal.moves(1)] == [m.kind for m in deal.moves(2)] == \
        ["correct_revoke"]
    assert deal.can_correct_revoke(2) and not deal.can_correct_revoke(3)
    deal.correct_revoke(2)
    assert deal.trick.cards == [(0, cl.Card.parse("AS")), (1, cl.Card.parse("3D"))]
    assert deal.to_play == 2 and "4D" in held(deal, 2)
    assert [r.seat for r in deal.revokes] == [1] and deal.actions[-1] == "correct:2"
    refused(deal, lambda: deal.play("4D"), "spades", kind=cl.IllegalPlay)   # must follow now
    deal.play("QS")
    deal.correct_revoke(1)                                # the earlier revoke: QS goes back too
    assert deal.actions[-2:] == ["QS", "correct"] and deal.to_play == 1
    assert deal.trick.cards == [(0, cl.Card.parse("AS"))] and deal.revokes == []
    deal.play("KS")
    refused(deal, lambda: deal.play("4D"), "spades", kind=cl.IllegalPlay)   # still bound
    deal.play("6S")
    back = roundtrip(deal)
    assert back.actions == deal.actions
    assert cl.Deal.from_notation(deal.to_notation()).actions == deal.actions


def test_correct_revoke_of_a_seat_with_no_revoke_reads_the_same_whatever_the_others_did():
    a, b = revoke_deal(), revoke_deal()
    play(a, "AS", "3D")                                   # seat 1 revokes in a only
    play(b, "AS", "KS")
    for seat in (0, 2, 3):
        assert refused(a, lambda: a.correct_revoke(seat), "no revoke") == \
            refused(b, lambda: b.correct_revoke(seat), "no revoke")
    for bad in ("1", 4, True, 1.0):
        refused(a, lambda: a.correct_revoke(bad), "seat")
    refused(a, lambda: a.apply("correct:x"), "seat number")
    refused(a, lambda: a.apply("correct:3"), "West")
    a.apply("correct:1")                                  # the earliest: written "correct"
    assert a.actions[-1] == "correct"


def test_correct_revoke_refusals():
    deal = revoke_deal()
    refused(deal, deal.correct_revoke)                    # nothing played
    deal.play("AS")
    refused(deal, deal.correct_revoke)
    deal.play("KS")                                       # lawful
    refused(deal, deal.correct_revoke)
    deal = revoke_deal("prevented")
    deal.play("AS")
    refused(deal, deal.correct_revoke)


@pytest.mark.parametrize("claimer", [0, 2])
def test_claim_of_an_established_revoke_ends_the_deal_with_a_revoke_court(claimer):
    deal = revoke_deal()
    play(deal, "AS", "3D", "QS", "JS")                    # established, not yet provable
    n = len(deal.events)
    deal.claim_revoke(claimer)
    assert str(deal.phase) == "over" and len(deal.events) > n
    r = deal.result
    assert (r.winner, r.courts, r.kind) == (0, 1, "revoke")
    refused(deal, lambda: deal.claim_revoke(claimer))      # over now
    refused(deal, lambda: deal.play(deal.hand(0)[0]))
    roundtrip(deal)


def test_a_revoke_by_the_trump_callers_side_gives_the_court_to_the_other_side():
    # seat 2 (team 0) revokes; seat 3 (team 1) claims: team 1 scores the court
    deal = revoke_deal()
    play(deal, "AS", "KS", "4D", "JS")
    deal.claim_revoke(3)
    assert (deal.result.winner, deal.result.courts, deal.result.kind) == (1, 1, "revoke")


def test_claim_refusals():
    deal = revoke_deal()
    refused(deal, lambda: deal.claim_revoke(1), "revoke")  # nothing to claim
    play(deal, "AS", "3D")
    refused(deal, lambda: deal.claim_revoke(0))           # still open: may be corrected
    play(deal, "QS", "JS")
    refused(deal, lambda: deal.claim_revoke(1))           # the revoker himself
    refused(deal, lambda: deal.claim_revoke(3))           # the revoker's partner
    for bad in (4, -1, "0", None, 1.0):
        refused(deal, lambda: deal.claim_revoke(bad))
    deal.claim_revoke(2)


def test_claim_with_revokes_prevented_is_refused():
    deal = revoke_deal("prevented")
    play(deal, "AS", "KS", "QS", "JS")
    refused(deal, lambda: deal.claim_revoke(1))


def test_revoke_steps_undo_and_round_trip():
    deal = revoke_deal()
    check_steps(deal, [lambda d: d.play("AS"), lambda d: d.play("3D"),
                       lambda d: d.play("4D"), lambda d: d.correct_revoke(),
                       lambda d: d.play("5S"), lambda d: d.play("QS"),
                       lambda d: d.play("7S"),
                       lambda d: d.play("4S"), lambda d: d.play("KS"),
                       lambda d: d.play("6S"), lambda d: d.play("JS")])


def test_claim_undo_and_round_trip_in_double_sir():
    deal = revoke_deal(game="double_sir")
    check_steps(deal, [lambda d: d.play("AS"), lambda d: d.play("3D"),
                       lambda d: d.play("QS"), lambda d: d.play("JS"),
                       lambda d: d.claim_revoke(0)])


def play_out(deal):
    """Call spades if the trump is still to be called, then play the last legal card
    of whoever is to play until the deal is over."""
    if str(deal.phase) == "trump":
        deal.call_trump("S")
    while str(deal.phase) == "play":
        lead_low(deal)


def revoke_then_claim(deal, claimer_side):
    """In a fresh deal: trump spades; the trump caller leads a suit that an opponent of
    ``claimer_side``'s team holds with another suit; that seat revokes; the trick is
    completed lawfully; a seat of team ``claimer_side`` claims. False if impossible."""
    deal.call_trump("S")
    leader = deal.to_play
    revoker = next(s for s in range(4) if s % 2 != claimer_side and s != leader)
    suits = {c.suit for c in deal.hand(revoker)}
    lead = next((c for c in deal.hand(leader) if c.suit in suits and len(suits) > 1), None)
    if lead is None:
        return False
    deal.play(lead)
    while deal.to_play != revoker:
        lead_low(deal)
    deal.play(next(c for c in deal.hand(revoker) if c.suit is not lead.suit))
    while deal.trick.cards:
        lead_low(deal)
    assert [(r.seat, r.established) for r in deal.revokes] == [(revoker, True)]
    deal.claim_revoke(claimer_side)          # seat 0 or 1: an opponent of the revoker
    return True


@pytest.mark.parametrize("claimer_side", [0, 1])
def test_a_revoke_claim_is_a_court_for_the_session(claimer_side):
    """Section 5: the claim is a court: it resets the streak and the next dealer follows
    section 8 as a court won by the claimer's team."""
    for seed in range(60):
        s = cl.Session(cl.Rules.court_piece(revokes="allowed"), seed=seed, dealer=3)
        play_out(s.deal)
        first = s.deal.result
        if first.courts:
            continue
        assert s.streak == (first.winner, 1)
        s.next_deal()
        deal = s.deal
        if not revoke_then_claim(deal, claimer_side):
            continue
        r = deal.result
        assert (r.winner, r.courts, r.kind) == (claimer_side, 1, "revoke")
        want = [0, 0]
        want[claimer_side] = 1
        assert s.courts == tuple(want) and s.streak == (None, 0)
        dealer = deal.dealer
        if claimer_side == dealer % 2:
            expected = (dealer + 1) % 4          # the dealer's team won: deal passes on
        else:
            expected = (dealer + 2) % 4          # the trump caller's team won a court
        s.next_deal()
        assert s.deal.dealer == expected
        return
    raise AssertionError("no seed gave the situation")


# ================================================ 6. Be-ranga (Double Sir) piles
# dealer 3: seat 0 leads.  Tricks 1 and 2: seat 0 wins both, no trump yet.
# Trick 3: seat 1 (no diamonds) fixes spades with 2S and wins it.
BERANGA_DS = ["AH AC AD 5S KS", "KH KC 2S AS 6S", "QH QC KD 3S QS", "JH JC QD 4S JS"]


def beranga(**options):
    return new(cl.Rules.double_sir(trump_method="first_void", **options), BERANGA_DS,
               {1: "D"})


def test_be_ranga_nothing_is_captured_before_trump_is_fixed():
    deal = beranga()
    play(deal, "AH", "KH", "QH", "JH")
    play(deal, "AC", "KC", "QC", "JC")
    assert deal.tricks[1].winner == 0
    assert len(deal.centre) == 2 and deal.tricks_won == (0, 0)   # two in a row, no capture
    play(deal, "AD", "2S", "KD", "QD")
    assert deal.trump is S and deal.tricks[2].winner == 1
    assert len(deal.centre) == 3 and deal.tricks_won == (0, 0)


def test_be_ranga_the_winner_of_the_fixing_trick_and_the_next_takes_everything():
    deal = beranga()
    play(deal, "AH", "KH", "QH", "JH", "AC", "KC", "QC", "JC", "AD", "2S", "KD", "QD")
    play(deal, "AS", "3S", "4S", "5S")                    # seat 1 wins again
    assert deal.tricks[3].winner == 1
    assert deal.tricks_won == (0, 4) and len(deal.centre) == 0


def test_be_ranga_a_new_player_needs_two_tricks_after_the_fixing_trick():
    deal = beranga()
    play(deal, "AH", "KH", "QH", "JH", "AC", "KC", "QC", "JC", "AD", "2S", "KD", "QD")
    play(deal, "6S", "QS", "4S", "5S")                    # seat 2 wins trick 4
    assert deal.tricks[3].winner == 2
    assert len(deal.centre) == 4 and deal.tricks_won == (0, 0)
    play(deal, "3S", "JS", "KS", "AS")                    # seat 1's AS wins trick 5
    assert deal.tricks[4].winner == 1 and len(deal.centre) == 5


def test_be_ranga_two_in_a_row_after_the_fixing_trick_capture():
    deal = new(cl.Rules.double_sir(trump_method="first_void"),
               ["AH AC AD 5S 4S", "KH KC 2S 6S 3S", "QH QC KD AS KS", "JH JC QD JS QS"],
               {1: "D"})
    play(deal, "AH", "KH", "QH", "JH", "AC", "KC", "QC", "JC", "AD", "2S", "KD", "QD")
    play(deal, "6S", "AS", "JS", "5S")                    # trick 4: seat 2
    assert deal.tricks_won == (0, 0) and len(deal.centre) == 4
    play(deal, "KS", "QS", "4S", "3S")                    # trick 5: seat 2 again
    assert deal.tricks[4].winner == 2
    assert deal.tricks_won == (5, 0) and deal.centre == []


def test_be_ranga_piles_steps_undo_and_round_trip():
    deal = beranga()
    check_steps(deal, [lambda d, c=c: d.play(c) for c in
                       "AH KH QH JH AC KC QC JC AD 2S KD QD AS 3S 4S 5S".split()])


# ===================================================== 7. play on (bavney)
def seven_then(rules, given, voids=None, dealer=3):
    """Seat 0's side takes the first seven tricks: seat 0 leads its top spades, spades
    trump; the others play any legal card."""
    deal = new(rules, given, voids, dealer=dealer)
    deal.call_trump("S")
    while len(deal.tricks) < 7 and str(deal.phase) == "play":
        if deal.to_play == 0:
            deal.play(next(c for c in deal.hand(0) if c.suit is S))
        else:
            lead_low(deal)
    return deal


ALL_SPADES = [" ".join(r + "S" for r in RANKS), "", "", ""]
SEVEN_SPADES = ["AS KS QS JS 10S 9S 8S 2H 3H 4H 5H 6H 7H", "AH", "10H", "9H"]


def test_a_court_ends_the_deal_and_play_on_reopens_it_for_a_bavney():
    deal = seven_then(cl.Rules.court_piece(), ALL_SPADES)
    assert str(deal.phase) == "over" and len(deal.tricks) == 7
    r = deal.result
    assert (r.winner, r.courts, r.kind) == (0, 1, "court")
    n = len(deal.events)
    deal.play_on()
    assert len(deal.events) > n
    assert str(deal.phase) == "play" and deal.result is None and deal.to_play == 0
    refused(deal, deal.play_on)
    while str(deal.phase) == "play":
        lead_low(deal) if deal.to_play else deal.play(deal.hand(0)[0])
    r = deal.result
    assert (r.winner, r.courts, r.kind, r.tricks) == (0, 52, "bavney", (13, 0))
    refused(deal, deal.play_on)
    roundtrip(deal)


def test_a_failed_bavney_is_still_one_court_and_ends_at_the_lost_trick():
    deal = seven_then(cl.Rules.court_piece(), SEVEN_SPADES)
    assert (deal.result.courts, deal.result.kind) == (1, "court")
    deal.play_on()
    play(deal, "2H", "AH", "10H", "9H")                   # the opponents take trick 8
    assert str(deal.phase) == "over" and len(deal.tricks) == 8
    r = deal.result
    assert (r.winner, r.courts, r.kind, r.tricks) == (0, 1, "court", (7, 1))
    refused(deal, deal.play_on)


def test_a_goon_court_may_also_play_on():
    # dealer 2 (team 0): seat 3 calls and leads; seat 0, holding every spade, trumps
    deal = new(cl.Rules.court_piece(), ALL_SPADES, dealer=2)
    deal.call_trump("S")
    while str(deal.phase) == "play":
        lead_low(deal) if deal.to_play else deal.play(deal.hand(0)[0])
    r = deal.result
    assert len(deal.tricks) == 7 and (r.winner, r.courts, r.kind) == (0, 1, "goon")
    deal.play_on()
    while str(deal.phase) == "play":
        lead_low(deal) if deal.to_play else deal.play(deal.hand(0)[0])
    assert (deal.result.courts, deal.result.kind) == (52, "bavney")


def test_all_thirteen_without_stopping_is_a_bavney_without_play_on():
    deal = new(cl.Rules.court_piece(stop_when_decided=False), ALL_SPADES)
    deal.call_trump("S")
    while len(deal.tricks) < 7:
        lead_low(deal) if deal.to_play else deal.play(deal.hand(0)[0])
    assert str(deal.phase) == "play" and deal.result is None
    refused(deal, deal.play_on)
    while str(deal.phase) == "play":
        lead_low(deal) if deal.to_play else deal.play(deal.hand(0)[0])
    assert (deal.result.winner, deal.result.courts, deal.result.kind) == (0, 52, "bavney")
    refused(deal, deal.play_on)


def test_first_seven_then_a_lost_trick_without_stopping_is_one_court():
    deal = seven_then(cl.Rules.court_piece(stop_when_decided=False), SEVEN_SPADES)
    assert str(deal.phase) == "play"
    play(deal, "2H", "AH", "10H", "9H")
    while str(deal.phase) == "play":
        lead_low(deal)
    r = deal.result
    assert (r.winner, r.courts, r.kind) == (0, 1, "court")


def test_play_on_refused_at_any_other_time():
    deal = new(cl.Rules.court_piece(), ALL_SPADES)
    refused(deal, deal.play_on)                           # trump phase
    deal.call_trump("S")
    refused(deal, deal.play_on)                           # in play
    for seed in range(40):                                # a deal won on tricks
        deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=seed)
        play_out(deal)
        if deal.result.kind == "tricks":
            break
    assert deal.result.kind == "tricks"
    refused(deal, deal.play_on)


def test_play_on_refused_outside_court_piece():
    deal = new(cl.Rules.double_sir(), ALL_SPADES)
    deal.call_trump("S")
    while str(deal.phase) == "play":
        lead_low(deal) if deal.to_play else deal.play(deal.hand(0)[0])
    assert deal.result.courts >= 1
    refused(deal, deal.play_on)


def test_play_on_undo_and_round_trip():
    deal = seven_then(cl.Rules.court_piece(), SEVEN_SPADES)
    check_steps(deal, [lambda d: d.play_on(), lambda d: d.play("2H"),
                       lambda d: d.play("AH"), lambda d: d.play("10H"),
                       lambda d: d.play("9H")])
    assert (deal.result.kind, len(deal.tricks)) == ("court", 7)


# ================================================================ views
VIEW_FIELDS = ("seat", "phase", "dealer", "trump_caller", "to_play", "hand", "trump",
               "trump_card", "trick", "tricks", "centre", "tricks_won", "voids", "revokes",
               "events")


def test_view_is_a_frozen_comparable_dataclass_of_the_named_fields():
    deal = hidden_deal()
    deal.choose_trump_card("2S")
    play(deal, "AH", "9S")
    v = deal.view(2)
    assert dataclasses.is_dataclass(v)
    names = {f.name for f in dataclasses.fields(v)}
    assert set(VIEW_FIELDS) <= names
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.seat = 3
    assert v == deal.view(2) and v != deal.view(1)
    for name in ("hand", "trick", "tricks", "centre", "tricks_won", "voids", "revokes",
                 "events"):
        assert isinstance(getattr(v, name), tuple), name
    assert (v.seat, str(v.phase), v.dealer, v.trump_caller, v.to_play) == (2, "play", 3, 0, 2)
    assert v.hand == tuple(deal.hand(2)) and v.trump is None and v.trump_card is None
    assert v.trick == deal.trick and v.tricks == tuple(deal.tricks)
    assert v.centre == tuple(deal.centre) and v.tricks_won == deal.tricks_won
    assert v.events == tuple(e for e in deal.events if e.visible_to(2))
    assert H in v.voids[1] and v.voids[0] == () and v.voids[2] == ()


def swap(hands, a, b):
    """The same hands text with cards a and b exchanged."""
    out = []
    for h in hands:
        cs = [code(c) for c in h.split()]
        cs = [b if c == a else a if c == b else c for c in cs]
        out.append(" ".join(cs))
    return out


def test_deals_differing_only_in_unseen_cards_give_identical_views():
    base = hands_with(["AS AH", "KS 9D", "QS", "JS 8D"])
    other = swap(base, "9D", "8D")                        # between seats 1 and 3
    a = cl.Deal.prearranged(cl.Rules.court_piece(), hands=base, dealer=3, seed=1)
    b = cl.Deal.prearranged(cl.Rules.court_piece(), hands=other, dealer=3, seed=1)
    for deal in (a, b):
        deal.call_trump("H")
        play(deal, "AS", "KS", "QS", "JS", "AH")
    for seat in (0, 2):
        assert a.view(seat) == b.view(seat)
    assert a.view(1) != b.view(1) and a.view(3) != b.view(3)


def test_deals_differing_only_in_the_face_down_card_look_the_same_to_the_others():
    base = hands_with(["2S AH AC KH KC", "9S 4S", "QH QC 3S", "JH JC"], HIDDEN_VOIDS)
    other = swap(base, "2S", "3S")                        # seat 0 now holds 3S, seat 2 2S
    a = cl.Deal.prearranged(cl.Rules.court_piece(trump_method="hidden"), hands=base, dealer=3)
    b = cl.Deal.prearranged(cl.Rules.court_piece(trump_method="hidden"), hands=other, dealer=3)
    a.choose_trump_card("2S")
    b.choose_trump_card("3S")
    for deal in (a, b):
        play(deal, "AH", "9S", "QH", "JH", "AC")
    for seat in (1, 3):
        assert a.view(seat) == b.view(seat)
    assert a.view(0).trump_card != b.view(0).trump_card


def test_a_revoke_looks_like_a_void_to_the_other_seats():
    # deal a: seat 1 holds 5S and revokes with 3D; deal b: seat 2 holds the 5S and seat 1
    # holds seat 2's 6D instead, so seat 1 is truly void
    base = hands_with(["AS", "5S 3D", "QS 6D", "JS"], {1: "S"})
    other = swap(base, "5S", "6D")
    rules = cl.Rules.court_piece(revokes="allowed")
    a = cl.Deal.prearranged(rules, hands=base, dealer=3, seed=1)
    b = cl.Deal.prearranged(rules, hands=other, dealer=3, seed=1)
    for deal in (a, b):
        deal.call_trump("C")
        play(deal, "AS", "3D", "QS", "JS")
    assert len(a.revokes) == 1 and b.revokes == []
    for seat in (0, 3):
        assert a.view(seat) == b.view(seat)
    assert a.view(1) != b.view(1)


def test_voids_cover_every_seat_that_failed_to_follow():
    deal = new(cl.Rules.court_piece(trump_method="first_void"), BERANGA_CP, BERANGA_CP_VOIDS)
    play(deal, "AD", "2S", "KD", "AH")
    for s in range(4):
        v = deal.view(s).voids
        assert D in v[1] and D in v[3] and v[0] == () and v[2] == ()


def test_deals_differing_only_in_undealt_cards_look_the_same_to_everybody():
    five = ["AH AC 2D 3D 4D", "QH 2S 5D 6D 7D", "JH KC 8D 9D 10D", "10H QC JD QD KD"]
    base = hands_with(five)
    other = swap(base, base[0].split()[7], base[1].split()[8])   # two cards not dealt yet
    for rules in (cl.Rules.court_piece(), cl.Rules.double_sir(trump_method="hidden"),
                  cl.Rules.court_piece(allow_deferred=True),
                  cl.Rules.dehla_pakad(trump_method="first_void")):
        a = cl.Deal.prearranged(rules, hands=base, dealer=3, seed=1)
        b = cl.Deal.prearranged(rules, hands=other, dealer=3, seed=1)
        if rules.trump_method == "first_void":            # five cards each, in play
            for deal in (a, b):
                play(deal, "AH", "QH", "JH", "10H", "AC")
        assert [a.view(s) for s in range(4)] == [b.view(s) for s in range(4)], rules


def test_hidden_random_deals_differing_in_the_unseen_card_look_the_same_to_the_others():
    rules = cl.Rules.court_piece(trump_method="hidden_random")
    hands = hands_with(["", "", "", ""])
    deals = {}
    for seed in range(30):
        deal = cl.Deal.prearranged(rules, hands=hands, dealer=3, seed=seed)
        deals.setdefault(missing_card(deal), deal)
    assert len(deals) > 1
    a, b = list(deals.values())[:2]
    for seat in (1, 2, 3):
        assert a.view(seat) == b.view(seat)
    assert a.view(0) != b.view(0)                          # its owner holds other cards


# ----------------------------------------------- hidden trump and following suit
def test_the_owner_unable_to_follow_but_for_the_face_down_card_does_not_revoke():
    # spades are led; seat 0's only spade is the set-aside 2S: it cannot follow
    deal = new(cl.Rules.court_piece(trump_method="hidden", revokes="allowed"),
               ["2S 3H", "AH AS", "4H KS", "5H QS"], {0: "S"})
    deal.choose_trump_card("2S")
    play(deal, "3H", "AH", "4H", "5H")
    play(deal, "AS", "KS", "QS")
    assert deal.to_play == 0 and deal.legal_cards() == deal.hand(0)
    deal.play(deal.hand(0)[0])
    assert deal.revokes == []
    assert S in deal.view(1).voids[0]


def test_the_owner_asking_with_the_led_suit_face_down_must_then_follow_with_it():
    deal = new(cl.Rules.court_piece(trump_method="hidden"),
               ["2S 3H", "AH AS", "4H KS", "5H QS"], {0: "S"})
    deal.choose_trump_card("2S")
    play(deal, "3H", "AH", "4H", "5H")
    play(deal, "AS", "KS", "QS")
    deal.ask_for_trump()
    assert deal.trump is S and deal.legal_cards() == [cl.Card.parse("2S")]
    deal.play("2S")
    assert deal.tricks[1].winner == 1


def test_a_void_lapses_when_the_shown_trump_card_fills_it():
    deal = new(cl.Rules.court_piece(trump_method="hidden"),
               ["2S 3H", "AH AS AC", "4H KS", "5H QS KC"], {0: "S", 2: "C"})
    deal.choose_trump_card("2S")
    play(deal, "3H", "AH", "4H", "5H")
    play(deal, "AS", "KS", "QS")
    deal.play(deal.hand(0)[0])             # seat 0 shows it has no (other) spade
    assert S in deal.view(1).voids[0]
    deal.play("AC")
    deal.ask_for_trump()                   # seat 2 asks: 2S goes to seat 0's hand, face up
    assert "2S" in held(deal, 0)
    # every seat can see seat 0 holds a spade: it has not shown it lacks spades any more
    assert all(S not in deal.view(s).voids[0] for s in range(4))


# ------------------------------------------------- first_void and revokes
def test_first_void_a_revoking_card_fixes_the_trump_and_a_correction_unfixes_it():
    # hearts led: seat 1 holds KH but throws 3S (a revoke). Nobody at the table can tell a
    # revoke from a void, so the discard fixes spades as trumps (our decision where RULES.md is
    # silent; it keeps every seat's view free of what only seat 1 knows). Correcting the
    # revoke takes 3S back, and trump is not fixed any more until a real void
    deal = new(cl.Rules.court_piece(trump_method="first_void", revokes="allowed"),
               ["AH", "KH 3S", "2S", "QH"], {2: "H"})
    play(deal, "AH", "3S")
    assert deal.trump is S and len(deal.revokes) == 1
    assert deal.view(0).trump is S and deal.view(3).trump is S
    deal.correct_revoke()
    assert deal.trump is None and deal.trick.cards == [(0, cl.Card.parse("AH"))]
    assert "3S" in held(deal, 1) and deal.to_play == 1
    play(deal, "KH", "2S")                                # seat 2 has no hearts: spades
    assert deal.trump is S
    roundtrip(deal)


def test_first_void_a_revoke_and_a_void_look_the_same_to_the_other_seats():
    # seat 1 throws 3S on a heart lead: in one deal it holds KH (a revoke), in the other it
    # has no heart. Seat 0 cannot see seat 1's hand, so its view must be the same in both
    rules = cl.Rules.court_piece(trump_method="first_void", revokes="allowed")
    hands = hands_with(["AH", "KH 3S", "2S", "QH"], {1: "H", 2: "H"})   # KH: seat 1's only heart
    swap = next(c for c in hands[3].split()[1:] if not c.endswith("H"))
    other = list(hands)
    other[1], other[3] = hands[1].replace("KH", swap), hands[3].replace(swap, "KH")
    revoke = cl.Deal.prearranged(rules, hands=hands, dealer=3, seed=1)
    void = cl.Deal.prearranged(rules, hands=other, dealer=3, seed=1)
    assert not [c for c in void.hand(1) if c.suit is cl.Suit.HEARTS]
    for deal in (revoke, void):
        play(deal, "AH", "3S")
    assert revoke.revokes and not void.revokes
    assert revoke.view(0) == void.view(0)


def test_variant_deals_round_trip_through_the_notation():
    deal = hidden_deal(revokes="allowed")
    deal.choose_trump_card("2S")
    play(deal, "AH", "9S", "QH", "JH", "AC")
    deal.ask_for_trump()
    deal.play("4S")
    text = deal.to_notation()
    back = cl.Deal.from_notation(text)
    assert back.to_dict() == deal.to_dict()
    deal = seven_then(cl.Rules.court_piece(), SEVEN_SPADES)
    deal.play_on()
    assert cl.Deal.from_notation(deal.to_notation()).to_dict() == deal.to_dict()
    deal = new(cl.Rules.double_sir(allow_deferred=True, deferred_card="numbered"),
               ["", "", "", ""])
    deal.defer_trump(12)
    assert cl.Deal.from_notation(deal.to_notation()).to_dict() == deal.to_dict()


def test_auto_reveal_undo_and_round_trip():
    rules = cl.Rules.double_sir(trump_method="hidden", stop_when_decided=False)
    deal, plays = auto_reveal_deal(rules, 1)
    # play the first ten tricks outside the checked steps (keeps the run short)
    deal.choose_trump_card("2S")
    for cards in plays[:-2]:
        play(deal, *cards)
    check_steps(deal, [lambda d, c=c: d.play(c) for cards in plays[-2:] for c in cards]
                + [lambda d: d.play("2H"), lambda d: d.play("2C"), lambda d: d.play("2D"),
                   lambda d: d.play("2S")])


def test_allow_deferred_still_allows_the_ordinary_choice():
    deal = new(cl.Rules.court_piece(allow_deferred=True), ["", "", "", ""])
    deal.call_trump("C")
    assert deal.trump is C and deal.trump_card is None
    deal = new(cl.Rules.court_piece(trump_method="shown", allow_deferred=True), SHOWN)
    deal.choose_trump_card("AS")
    assert deal.trump_card == cl.Card.parse("AS")


def test_variant_moves_refused_once_the_deal_is_over():
    deal = revoke_deal()
    play(deal, "AS", "3D", "QS", "JS")
    deal.claim_revoke(2)
    for move in (deal.correct_revoke, deal.ask_for_trump, deal.play_on, deal.defer_trump,
                 lambda: deal.claim_revoke(0), lambda: deal.call_trump("S"),
                 lambda: deal.choose_trump_card("4S")):
        refused(deal, move)


def test_claim_refused_in_the_trump_phase():
    deal = new(cl.Rules.court_piece(revokes="allowed"), REVOKE)
    for seat in range(4):
        refused(deal, lambda: deal.claim_revoke(seat))
    refused(deal, deal.correct_revoke)


# ============================================ random deals checked against the rules
def rule_winner(cards, trump):
    """RULES.md 4: the highest trump in the trick, else the highest card of the suit led."""
    led = cards[0][1].suit
    trumps = [(c.rank, s) for s, c in cards if trump is not None and c.suit is trump]
    if trumps:
        return max(trumps)[1]
    return max((c.rank, s) for s, c in cards if c.suit is led)[1]


PILE_RULES = [getattr(cl.Rules, game)(trump_method=method, **extra)
              for game in ("court_piece", "double_sir", "dehla_pakad")
              for method in ("called", "hidden", "hidden_random", "first_void")
              for extra in ({}, {"first_two_capture": False}, {"aces_capture": False})
              if game != "court_piece" or not extra]


@pytest.mark.parametrize("rules", PILE_RULES, ids=lambda r: f"{r.game}-{r.trump_method}-"
                         f"{r.first_two_capture}-{r.aces_capture}")
def test_random_deals_trick_winners_and_piles_follow_the_rules(rules):
    """Random lawful play (with random asks and play on): every trick's winner, the trump of
    the trick (a shown card counts from its trick on, a first void from its own trick),
    the piles of section 6 (Be-ranga in Double Sir) and Dehla Pakad's late deal."""
    import random
    for seed in range(6):
        rng = random.Random(seed)
        deal = cl.Deal(rules, dealer=seed % 4, seed=seed)
        if str(deal.phase) == "trump":
            if rules.trump_method == "called":
                deal.call_trump("SHCD"[seed % 4])
            else:
                deal.choose_trump_card(rng.choice(deal.hand(deal.trump_caller)))
        centre, run_seat, run_len, won, fixed = [], None, 0, [0, 0], None
        while True:
            if str(deal.phase) == "over":
                if deal.result.kind in ("court", "goon") and rules.game == "court_piece" \
                        and len(deal.tricks) == 7:
                    deal.play_on()
                    continue
                break
            if rules.trump_method.startswith("hidden") and deal.trick.cards and rng.random() < .3:
                try:
                    deal.ask_for_trump()
                except ValueError:
                    pass
            before, n = deal.trump, len(deal.tricks)
            deal.play(rng.choice(deal.legal_cards()))
            if rules.trump_method == "first_void" and before is None and deal.trump is not None:
                fixed = n
            if len(deal.tricks) == n:
                continue
            i, t = n, deal.tricks[n]
            trump = deal.trump if rules.trump_method == "first_void" else before
            assert t.winner == rule_winner(t.cards, trump), deal.to_notation()
            if rules.game == "dehla_pakad" and rules.trump_method == "first_void" \
                    and str(deal.phase) != "over":
                dealt = 13 if (fixed is not None or i >= 4) else 5
                assert [len(deal.hand(s)) for s in range(4)] == [dealt - i - 1] * 4
            if rules.game == "court_piece":
                won[t.winner % 2] += 1
            else:
                centre.append(i)
                run_seat, run_len = t.winner, (run_len + 1 if t.winner == run_seat else 1)
                aces = t.winning_card.rank == 14 and i and deal.tricks[i - 1].winning_card.rank == 14
                blocked = ((not rules.first_two_capture and i == 1)
                           or (not rules.aces_capture and aces)
                           or (rules.trump_method == "first_void" and rules.game == "double_sir"
                               and (fixed is None or i <= fixed)))
                if i == 12 or (run_len >= 2 and not blocked):
                    won[t.winner % 2] += len(centre)
                    centre = []
                    run_len = 0
            assert deal.tricks_won == tuple(won) and len(deal.centre) == len(centre), \
                deal.to_notation()


VIEW_RULES = [getattr(cl.Rules, game)(trump_method=method, revokes=revokes)
              for game in ("court_piece", "double_sir", "dehla_pakad")
              for method in ("called", "shown", "hidden_random", "first_void")
              for revokes in ("prevented", "allowed")]


@pytest.mark.parametrize("rules", VIEW_RULES, ids=lambda r: f"{r.game}-{r.trump_method}-"
                         f"{r.revokes}")
def test_random_deals_views_ignore_cards_a_seat_cannot_see(rules):
    """Swap two unplayed cards of one suit between two other seats, replay the same moves:
    the third seat's view is the same."""
    import random
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        a = cl.Deal(rules, dealer=seed % 4, seed=seed)
        if str(a.phase) == "trump":
            if rules.trump_method == "called":
                a.call_trump(rng.choice("SHCD"))
            else:
                a.choose_trump_card(rng.choice(a.hand(a.trump_caller)))
        for _ in range(rng.randrange(40)):
            if str(a.phase) != "play":
                break
            pool = a.hand(a.to_play) if rules.revokes == "allowed" and rng.random() < .2 \
                else a.legal_cards()
            a.play(rng.choice(pool))
        d = a.to_dict()
        seen = {c.code for t in list(a.tricks) + [a.trick] for _, c in t.cards}
        if a.trump_card is not None:
            seen.add(a.trump_card.code)
        viewer = rng.randrange(4)
        s1, s2 = rng.sample([s for s in range(4) if s != viewer], 2)
        hands = d["hands"]
        pairs = [(i, j) for i, x in enumerate(hands[s1]) for j, y in enumerate(hands[s2])
                 if x[-1] == y[-1] and x not in seen and y not in seen]
        if not pairs:
            continue
        i, j = rng.choice(pairs)
        other = [list(h) for h in hands]
        other[s1][i], other[s2][j] = hands[s2][j], hands[s1][i]
        b = cl.Deal.from_dict(dict(d, hands=other))
        assert a.view(viewer) == b.view(viewer), (a.to_notation(), other)
        checked += 1
    assert checked


@pytest.mark.parametrize("game", ["court_piece", "double_sir", "dehla_pakad"])
def test_random_deals_revokes_are_established_provable_and_claimable_by_the_rules(game):
    """With revokes allowed and random revoking cards: established once its trick is
    complete; provable once the revoker played the suit in a later trick; a claim is
    accepted exactly when an opponent of the claimer has an established revoke; a
    correction is possible exactly when the open trick holds a revoke."""
    import random
    rules = getattr(cl.Rules, game)(revokes="allowed")
    for seed in range(4):
        rng = random.Random(seed)
        deal = cl.Deal(rules, dealer=seed, seed=seed)
        deal.call_trump("SHCD"[seed])
        corrected = None
        while str(deal.phase) == "play":
            n = len(deal.tricks)
            played = [(i, s, c.suit) for i, t in enumerate(list(deal.tricks) + [deal.trick])
                      for s, c in t.cards]
            for rv in deal.revokes:
                assert rv.established == (rv.trick < n)
                if "correct" not in deal.to_dict()["actions"]:
                    assert rv.provable == any(i > rv.trick and s == rv.seat and su is rv.suit_led
                                              for i, s, su in played)
            if len(deal.tricks) % 3 == 0:
                for seat in range(4):
                    can = any(rv.established and rv.seat % 2 != seat % 2 for rv in deal.revokes)
                    copy = cl.Deal.from_dict(deal.to_dict())
                    if can:
                        copy.claim_revoke(seat)
                        assert (copy.result.winner, copy.result.kind) == (seat % 2, "revoke")
                    else:
                        refused(copy, lambda: copy.claim_revoke(seat))
            open_rv = any(rv.trick == n for rv in deal.revokes)
            if open_rv and rng.random() < .3:
                deal.correct_revoke()
                corrected = deal.to_play
                continue
            if not open_rv:
                refused(deal, deal.correct_revoke)
            card = rng.choice(deal.hand(deal.to_play) if rng.random() < .2 else deal.legal_cards())
            if card in deal.legal_cards():
                deal.play(card)
            else:                        # a revoke: accepted, unless this seat just corrected
                try:
                    deal.play(card)
                except cl.IllegalPlay:
                    assert deal.to_play == corrected      # must follow after correcting
                    deal.play(deal.legal_cards()[0])
