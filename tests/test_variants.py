"""House rules of issue 3: revokes allowed, every trump method, pile options (RULES.md 3, 5, 6)."""
import json

import pytest

import courtlearn as cl

RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
DECK = [r + s for s in "SHCD" for r in RANKS]


def complete(partial, voids=None):
    """Four hands of 13 from partial hands (given cards first); the rest in deck
    order to seats with room, never giving a seat a suit listed in `voids`."""
    hands = [p.split() for p in partial]
    used = {cl.Card.parse(c).code for h in hands for c in h}
    assert len(used) == sum(map(len, hands))
    voids = voids or {}
    rest = [c for c in DECK if c not in used]
    rest.sort(key=lambda c: sum(c[-1] in voids.get(s, "") for s in range(4)), reverse=True)
    for code in rest:
        seats = [s for s in range(4) if len(hands[s]) < 13 and code[-1] not in voids.get(s, "")]
        assert seats, f"cannot place {code}"
        hands[max(seats, key=lambda s: 13 - len(hands[s]))].append(code)
    return [" ".join(h) for h in hands]


def scripted(winners, last, suits="SHCDSHCDSHCD", dealer=3):
    """Seat winners[i] wins trick i+1 (all following suit; n-th trick of a suit uses
    ranks A-J, then 10-7, then 6-3, the winner holding the top one); seat `last`
    wins the 13th with the 2 of its suit (S H C D for seats 0-3) as trump."""
    blocks = [RANKS[0:4], RANKS[4:8], RANKS[8:12]]
    used = dict.fromkeys("SHCD", 0)
    hands, plays, leader = [[] for _ in range(4)], [], (dealer + 1) % 4
    for winner, suit in zip(winners, suits):
        block = blocks[used[suit]]
        used[suit] += 1
        others = iter(block[1:])
        cards = {s: (block[0] if s == winner else next(others)) + suit for s in range(4)}
        for s in range(4):
            hands[s].append(cards[s])
        plays += [cards[(leader + k) % 4] for k in range(4)]
        leader = winner
    extras = ["2S", "2H", "2C", "2D"]
    for s in range(4):
        hands[s].append(extras[s])
    plays += [extras[(leader + k) % 4] for k in range(4)]
    return [" ".join(h) for h in hands], plays, "SHCD"[last]


def codes(cards):
    return [c.code for c in cards]


def snapshot(deal):
    return (json.dumps(deal.to_dict(), sort_keys=True), deal.to_notation(), len(deal.events),
            [tuple(codes(deal.hand(s))) for s in range(4)], deal.phase, deal.trump, deal.result,
            tuple(deal.revokes))


def refused(deal, call, *words):
    before = snapshot(deal)
    with pytest.raises(ValueError) as info:
        call()
    message = getattr(info.value, "reason", None) or str(info.value)
    for word in words:
        assert word in message, message
    assert snapshot(deal) == before
    return message


def all_cards(deal):
    seen = []
    for s in range(4):
        seen += codes(deal.hand(s))
    seen += codes(deal.stock)
    seen += [c.code for _, c in deal.trick.cards]
    for t in deal.tricks:
        seen += [c.code for _, c in t.cards]
    if deal.hidden_trump_card is not None and deal.hidden_trump_card.code not in seen:
        seen.append(deal.hidden_trump_card.code)
    return seen


# ===================================================================== revokes

REVOKE_HANDS = complete(["4S KH 5C", "QS 10S 3S AD", "2S 7H", "9S 8S"], voids={1: "S"})


def revoke_deal(**options):
    deal = cl.Deal.prearranged(cl.Rules.court_piece(revokes="allowed", **options), hands=REVOKE_HANDS, dealer=3)
    deal.call_trump("H")
    deal.play("4S")
    return deal


def test_revoke_is_accepted_and_recorded():
    deal = revoke_deal()
    assert codes(deal.legal_cards()) == ["QS", "10S", "3S"]  # still only lawful cards
    deal.play("AD")
    assert len(deal.revokes) == 1
    r = deal.revokes[0]
    assert (r.seat, r.trick, r.card.code) == (1, 0, "AD")
    assert r.established is False and r.provable is False
    assert "AD" not in codes(deal.hand(1))
    assert deal.to_play == 2


def test_revokes_prevented_by_default():
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=REVOKE_HANDS, dealer=3)
    deal.call_trump("H")
    deal.play("4S")
    with pytest.raises(cl.IllegalPlay):
        deal.play("AD")
    assert list(deal.revokes) == []


def test_revoke_is_established_when_the_trick_completes_and_provable_later():
    deal = revoke_deal()
    for code in "AD 2S 9S".split():
        deal.play(code)
    r = deal.revokes[0]
    assert r.established is True and r.provable is False
    assert deal.tricks[0].winner == 3  # 9♠ is the highest spade; East's A♦ counts for nothing
    deal.play("8S")  # West leads a spade
    deal.play(deal.legal_cards()[-1])  # South follows
    assert deal.revokes[0].provable is False
    deal.play("3S")  # East plays the suit it failed to follow: the revoke is provable
    r = deal.revokes[0]
    assert r.established is True and r.provable is True


def test_correct_revoke_takes_back_the_revoke_and_later_cards():
    deal = revoke_deal()
    deal.play("AD")
    deal.play("2S")
    n = len(deal.events)
    deal.correct_revoke()
    assert len(deal.events) > n  # the correction is an event
    assert [(s, c.code) for s, c in deal.trick.cards] == [(0, "4S")]
    assert "AD" in codes(deal.hand(1)) and "2S" in codes(deal.hand(2))
    assert deal.to_play == 1
    assert list(deal.revokes) == []
    # the revoker must now play a legal card: a second revoke is refused
    with pytest.raises(cl.IllegalPlay):
        deal.play("AD")
    deal.play("QS")
    deal.play("2S")  # North plays again (the same card, to keep it)
    deal.play("9S")
    assert deal.tricks[0].winner == 1


def test_correct_revoke_corrects_the_earliest_revoke_of_the_trick_whoever_is_to_play():
    hands = complete(["4S KH", "QS 10S 3S AD", "2S 7H", "9S 8S 5D"], voids={1: "S"})
    deal = cl.Deal.prearranged(cl.Rules.court_piece(revokes="allowed"), hands=hands, dealer=3)
    deal.call_trump("H")
    deal.play("4S")
    deal.play("AD")  # East revokes
    deal.play("7H")  # North revokes too
    assert len(deal.revokes) == 2
    assert deal.to_play == 3
    deal.correct_revoke()
    assert deal.to_play == 1
    assert [(s, c.code) for s, c in deal.trick.cards] == [(0, "4S")]
    assert "7H" in codes(deal.hand(2))


def test_correct_revoke_refused_without_an_open_revoke():
    deal = revoke_deal()
    refused(deal, deal.correct_revoke)
    deal.play("QS")
    refused(deal, deal.correct_revoke)


def test_correct_revoke_refused_once_established():
    deal = revoke_deal()
    for code in "AD 2S 9S".split():
        deal.play(code)
    refused(deal, deal.correct_revoke)


@pytest.mark.parametrize("claimer", [0, 2])
def test_claim_an_established_revoke_scores_a_court(claimer):
    deal = revoke_deal()
    for code in "AD 2S 9S".split():
        deal.play(code)
    n = len(deal.events)
    deal.claim_revoke(claimer)
    assert deal.phase == "over"
    r = deal.result
    assert (r.winner, r.courts, r.kind) == (0, 1, "revoke")
    assert len(deal.events) > n
    assert any("revoke" in e.text.lower() for e in deal.events[n:])


def test_claim_before_the_revoke_is_provable_is_allowed():
    deal = revoke_deal()
    for code in "AD 2S 9S".split():
        deal.play(code)
    assert deal.revokes[0].provable is False
    deal.claim_revoke(2)
    assert deal.result.kind == "revoke"


@pytest.mark.parametrize("claimer", [1, 3])
def test_claim_by_the_revokers_side_is_refused(claimer):
    deal = revoke_deal()
    for code in "AD 2S 9S".split():
        deal.play(code)
    message = refused(deal, lambda: deal.claim_revoke(claimer))
    assert len(message) > 10


def test_claim_of_a_revoke_not_yet_established_is_refused():
    deal = revoke_deal()
    deal.play("AD")
    refused(deal, lambda: deal.claim_revoke(0))


def test_claim_with_nothing_to_claim_is_refused():
    deal = revoke_deal()
    refused(deal, lambda: deal.claim_revoke(0))
    refused(deal, lambda: deal.claim_revoke(1))


def test_claim_refused_after_the_deal_ended():
    deal = revoke_deal()
    for code in "AD 2S 9S".split():
        deal.play(code)
    deal.claim_revoke(0)
    refused(deal, lambda: deal.claim_revoke(2))


def test_revoke_round_trips():
    deal = revoke_deal()
    for code in "AD 2S".split():
        deal.play(code)
    for back in (cl.Deal.from_dict(deal.to_dict()), cl.Deal.from_notation(deal.to_notation())):
        assert back.revokes == deal.revokes
        back.correct_revoke()
        assert back.to_play == 1


def test_undo_of_a_correction_and_of_a_claim():
    deal = revoke_deal()
    deal.play("AD")
    before = deal.to_dict()
    deal.correct_revoke()
    deal.undo()
    assert deal.to_dict() == before
    for code in "2S 9S".split():
        deal.play(code)
    before = deal.to_dict()
    deal.claim_revoke(0)
    deal.undo()
    assert deal.to_dict() == before and deal.phase == "play"


# ===================================================================== shown trump

SHOWN_HANDS = complete(["7H AS KS QS JS 9D", "", "", ""])


def test_shown_trump_card_stays_in_hand_and_fixes_trump():
    deal = cl.Deal.prearranged(cl.Rules.court_piece(trump_method="shown"), hands=SHOWN_HANDS, dealer=3)
    assert deal.phase == "trump"
    deal.choose_trump_card("7H")
    assert deal.phase == "play"
    assert deal.trump is cl.Suit.HEARTS
    assert deal.trump_card == cl.Card.parse("7H")
    assert "7H" in codes(deal.hand(0)) and len(deal.hand(0)) == 13
    for seat in range(4):
        assert deal.view(seat).trump_card == cl.Card.parse("7H")
        assert deal.view(seat).trump is cl.Suit.HEARTS
    deal.play("7H")  # it may be played like any other card
    assert deal.trick.cards[0][1].code == "7H"


def test_shown_trump_card_must_be_among_the_first_five():
    deal = cl.Deal.prearranged(cl.Rules.court_piece(trump_method="shown"), hands=SHOWN_HANDS, dealer=3)
    refused(deal, lambda: deal.choose_trump_card("9D"))  # South's sixth card: not yet dealt
    other = SHOWN_HANDS[1].split()[0]
    refused(deal, lambda: deal.choose_trump_card(other))  # East's card
    refused(deal, lambda: deal.choose_trump_card("XX"))


def test_shown_trump_refuses_a_plain_call():
    deal = cl.Deal.prearranged(cl.Rules.court_piece(trump_method="shown"), hands=SHOWN_HANDS, dealer=3)
    refused(deal, lambda: deal.call_trump("H"))


def test_choose_trump_card_refused_under_called():
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=SHOWN_HANDS, dealer=3)
    refused(deal, lambda: deal.choose_trump_card("7H"))


# ===================================================================== hidden trump
# South (0) calls; the 7♥ is set aside. East and North have no spades.

HIDDEN_HANDS = complete(["7H AS KS QS JS", "KH 5D", "2H 3D", "2S"], voids={1: "S", 2: "S"})


def hidden_deal(**options):
    deal = cl.Deal.prearranged(cl.Rules.court_piece(trump_method="hidden", **options), hands=HIDDEN_HANDS, dealer=3)
    deal.choose_trump_card("7H")
    return deal


def test_hidden_trump_card_is_set_aside_face_down():
    deal = hidden_deal()
    assert deal.phase == "play"
    assert deal.trump is None and deal.trump_card is None
    assert deal.hidden_trump_card == cl.Card.parse("7H")
    assert "7H" not in codes(deal.hand(0)) and len(deal.hand(0)) == 12
    assert sorted(all_cards(deal)) == sorted(DECK)
    assert deal.view(0).trump_card == cl.Card.parse("7H")
    for seat in (1, 2, 3):
        assert deal.view(seat).trump_card is None
    for seat in (1, 2, 3):
        assert all("7♥" not in e.text for e in deal.view(seat).events)


def test_no_trumps_until_revealed():
    deal = hidden_deal()
    for code in "AS KH 3D 2S".split():  # East discards a heart: hearts are not trumps yet
        deal.play(code)
    assert deal.tricks[0].winner == 0
    assert deal.trump is None


def test_owner_cannot_play_the_set_aside_card_before_it_is_revealed():
    deal = hidden_deal()
    before = snapshot(deal)
    with pytest.raises(cl.IllegalPlay):
        deal.play("7H")
    assert snapshot(deal) == before


def test_ask_for_trump_reveals_it_and_the_asker_must_trump():
    deal = hidden_deal()
    deal.play("AS")
    n = len(deal.events)
    deal.ask_for_trump()  # East has no spade
    assert deal.trump is cl.Suit.HEARTS
    assert deal.trump_card == cl.Card.parse("7H")
    assert deal.hidden_trump_card is None or deal.hidden_trump_card == cl.Card.parse("7H")
    assert "7H" in codes(deal.hand(0)) and len(deal.hand(0)) == 12
    legal = codes(deal.legal_cards())
    assert legal and all(c.endswith("H") for c in legal)
    assert set(legal) == {c for c in codes(deal.hand(1)) if c.endswith("H")}
    with pytest.raises(cl.IllegalPlay):
        deal.play("5D")  # must trump
    assert any("trump" in e.text.lower() for e in deal.events[n:])
    for seat in range(4):
        assert deal.view(seat).trump_card == cl.Card.parse("7H")


def test_a_card_of_the_revealed_suit_already_in_the_trick_counts_as_trump():
    deal = hidden_deal()
    deal.play("AS")
    deal.play("KH")  # East discards K♥ while there are no trumps
    deal.ask_for_trump()  # North asks: hearts are trumps from this trick on
    deal.play("2H")  # North must trump
    deal.play("2S")
    assert deal.tricks[0].winner == 1  # East's K♥ is the highest trump


def test_ask_for_trump_refused_while_able_to_follow():
    deal = hidden_deal()
    for code in "AS KH 3D".split():
        deal.play(code)
    message = refused(deal, deal.ask_for_trump)  # West holds 2♠
    assert "West" in message or "follow" in message.lower() or "spade" in message.lower()


def test_ask_for_trump_refused_when_already_revealed():
    deal = hidden_deal()
    deal.play("AS")
    deal.ask_for_trump()
    deal.play("KH")
    refused(deal, deal.ask_for_trump)


def test_ask_for_trump_refused_for_the_leader():
    deal = hidden_deal()
    refused(deal, deal.ask_for_trump)


def test_ask_for_trump_refused_under_called_trump():
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=HIDDEN_HANDS, dealer=3)
    deal.call_trump("H")
    deal.play("AS")
    refused(deal, deal.ask_for_trump)


def test_the_owner_may_ask_too():
    hands = complete(["7H 4S KS QS JS", "KH", "3D", "AS 5D"], voids={0: "D", 1: "S", 2: "S"})
    deal = cl.Deal.prearranged(cl.Rules.court_piece(trump_method="hidden"), hands=hands, dealer=3)
    deal.choose_trump_card("7H")
    for code in "4S KH 3D AS".split():
        deal.play(code)
    assert deal.tricks[0].winner == 3
    deal.play("5D")
    assert deal.to_play == 0
    deal.ask_for_trump()  # South has no diamond
    assert deal.trump is cl.Suit.HEARTS
    legal = codes(deal.legal_cards())
    assert "7H" in legal and all(c.endswith("H") for c in legal)


def test_hidden_card_is_revealed_when_its_owner_has_nothing_else():
    deal = hidden_deal(stop_when_decided=False)
    while deal.trump is None:  # nobody asks
        assert deal.phase == "play"
        deal.play(deal.legal_cards()[-1])
    # South has played its twelve other cards: the set-aside card is turned for the last trick
    assert len(deal.tricks) == 12
    assert deal.trump is cl.Suit.HEARTS and deal.trump_card == cl.Card.parse("7H")
    assert codes(deal.hand(0)) == ["7H"]
    while deal.phase != "over":
        deal.play(deal.legal_cards()[-1])
    assert (0, cl.Card.parse("7H")) in [(s, c) for s, c in deal.tricks[12].cards]


def test_hidden_trump_round_trips():
    deal = hidden_deal()
    deal.play("AS")
    for back in (cl.Deal.from_dict(deal.to_dict()), cl.Deal.from_notation(deal.to_notation())):
        assert back.hidden_trump_card == deal.hidden_trump_card
        back.ask_for_trump()
        assert back.trump is cl.Suit.HEARTS


# ===================================================================== hidden_random

def test_hidden_random_goes_straight_to_play_with_a_card_from_the_five():
    hands = complete(["", "", "", ""])
    picks = set()
    for seed in range(12):
        deal = cl.Deal.prearranged(cl.Rules.court_piece(trump_method="hidden_random"), hands=hands, dealer=3, seed=seed)
        assert deal.phase == "play"
        assert deal.trump is None and deal.trump_card is None
        card = deal.hidden_trump_card
        assert card.code in hands[0].split()[:5]
        assert card not in deal.hand(0) and len(deal.hand(0)) == 12
        for seat in range(4):  # nobody sees it, its owner included
            assert deal.view(seat).trump_card is None
        again = cl.Deal.prearranged(cl.Rules.court_piece(trump_method="hidden_random"), hands=hands, dealer=3, seed=seed)
        assert again.hidden_trump_card == card
        picks.add(card.code)
    assert len(picks) > 1


def test_hidden_random_refuses_a_trump_choice():
    hands = complete(["", "", "", ""])
    deal = cl.Deal.prearranged(cl.Rules.court_piece(trump_method="hidden_random"), hands=hands, dealer=3, seed=1)
    refused(deal, lambda: deal.choose_trump_card(hands[0].split()[0]))
    refused(deal, lambda: deal.call_trump("S"))


# ===================================================================== first_void (Be-ranga)

def test_be_ranga_no_trump_phase_first_void_fixes_trump_that_trick_included():
    hands = complete(["AS", "2S", "3H", "5S"], voids={2: "S"})
    deal = cl.Deal.prearranged(cl.Rules.court_piece(trump_method="first_void"), hands=hands, dealer=3)
    assert deal.phase == "play" and deal.trump is None
    assert [len(deal.hand(s)) for s in range(4)] == [13] * 4
    assert deal.to_play == 0
    refused(deal, lambda: deal.call_trump("S"))
    for code in "AS 2S 3H".split():
        deal.play(code)
    assert deal.trump is cl.Suit.HEARTS
    deal.play("5S")
    assert deal.tricks[0].winner == 2  # 3♥ is a trump in the trick that fixed it


def test_be_ranga_a_later_player_may_overtrump_in_the_fixing_trick():
    hands = complete(["AS", "2S", "3H", "4H"], voids={2: "S", 3: "S"})
    deal = cl.Deal.prearranged(cl.Rules.double_sir(trump_method="first_void"), hands=hands, dealer=3)
    for code in "AS 2S 3H 4H".split():
        deal.play(code)
    assert deal.trump is cl.Suit.HEARTS
    assert deal.tricks[0].winner == 3


def test_be_ranga_capture_waits_for_the_trick_after_the_fixing_trick():
    hands = complete(["AS KS QS", "2S 3S 2H AH", "4S 5S 6S", "7S 8S 9S"], voids={1: "S"})
    deal = cl.Deal.prearranged(cl.Rules.double_sir(trump_method="first_void"), hands=hands, dealer=3)
    for code in "AS 2S 4S 7S KS 3S 5S 8S".split():
        deal.play(code)
    assert [t.winner for t in deal.tricks] == [0, 0]
    assert len(deal.centre) == 2 and deal.tricks_won == (0, 0)  # no capture before trump is fixed
    for code in "QS 2H 6S 9S".split():
        deal.play(code)
    assert deal.trump is cl.Suit.HEARTS and deal.tricks[2].winner == 1
    assert len(deal.centre) == 3 and deal.tricks_won == (0, 0)
    deal.play("AH")  # East wins the fixing trick and the next: takes everything
    while len(deal.trick.cards) > 0:
        deal.play(deal.legal_cards()[-1])
    assert deal.tricks[3].winner == 1
    assert len(deal.centre) == 0 and deal.tricks_won == (0, 4)


def test_be_ranga_after_the_next_trick_the_usual_rule():
    hands = complete(["AS KS QS", "2S 3S 2H 3H", "4S 5S 6S", "7S 8S 9S AH KH"], voids={1: "SH"})
    deal = cl.Deal.prearranged(cl.Rules.double_sir(trump_method="first_void"), hands=hands, dealer=3)
    for code in "AS 2S 4S 7S KS 3S 5S 8S QS 2H 6S 9S".split():
        deal.play(code)
    assert deal.tricks[2].winner == 1
    deal.play("3H")
    deal.play(deal.legal_cards()[-1])  # North
    deal.play("AH")  # West
    deal.play(deal.legal_cards()[-1])  # South
    assert deal.tricks[3].winner == 3  # the partner of the fixing trick's winner: no capture
    assert len(deal.centre) == 4 and deal.tricks_won == (0, 0)
    deal.play("KH")
    while len(deal.trick.cards) > 0:
        deal.play(deal.legal_cards()[-1])
    assert deal.tricks[4].winner == 3  # West twice in a row: the usual capture
    assert len(deal.centre) == 0 and deal.tricks_won == (0, 5)


def test_dehla_pakad_first_void_starts_on_five_cards():
    hands = complete(["AS KS QS JS 10S", "2H 3H 4H 5H 6H", "9S 8S 7S 6S 5S", "4S 3S 2S AH KH"])
    deal = cl.Deal.prearranged(cl.Rules.dehla_pakad(trump_method="first_void"), hands=hands, dealer=3)
    assert deal.phase == "play" and deal.trump is None
    assert [len(deal.hand(s)) for s in range(4)] == [5] * 4
    assert len(deal.stock) == 32
    deal.play("AS")
    deal.play("2H")  # East holds no spade among its five: hearts are trump
    assert deal.trump is cl.Suit.HEARTS
    assert len(deal.stock) == 32  # the rest is dealt after the trump-fixing trick
    deal.play("9S")
    deal.play("4S")
    assert deal.tricks[0].winner == 1
    assert list(deal.stock) == []
    assert [len(deal.hand(s)) for s in range(4)] == [12] * 4
    assert sorted(all_cards(deal)) == sorted(DECK)


def test_dehla_pakad_first_void_deals_the_rest_when_five_cards_run_out():
    hands = complete(["AS KS AH AC AD", "QS JS KH KC KD", "10S 9S QH QC QD", "8S 7S JH JC JD"])
    deal = cl.Deal.prearranged(cl.Rules.dehla_pakad(trump_method="first_void"), hands=hands, dealer=3)
    for n, lead in enumerate("AS KS AH AC AD".split()):
        deal.play(lead)
        for _ in range(3):
            deal.play(deal.legal_cards()[0])
        assert deal.trump is None
        if n < 4:
            assert len(deal.stock) == 32
    assert deal.phase == "play"
    assert list(deal.stock) == [] and [len(deal.hand(s)) for s in range(4)] == [8] * 4
    assert deal.trump is None  # trump still waits for the first void
    assert sorted(all_cards(deal)) == sorted(DECK)


# ===================================================================== deferred trump

DEFER_HANDS = complete(["AS KS QS JS 10S 9D 8C 7H 6C 5H 4D 3C 2H", "", "", ""])


def test_defer_next_turns_the_first_card_of_the_next_batch():
    deal = cl.Deal.prearranged(cl.Rules.court_piece(allow_deferred=True), hands=DEFER_HANDS, dealer=3)
    deal.defer_trump()
    assert deal.phase == "play"
    assert deal.trump is cl.Suit.DIAMONDS
    assert deal.trump_card == cl.Card.parse("9D")
    assert "9D" in codes(deal.hand(0)) and len(deal.hand(0)) == 13


def test_defer_random_turns_a_card_of_the_second_batch():
    cards = set()
    for seed in range(12):
        deal = cl.Deal.prearranged(cl.Rules.court_piece(allow_deferred=True, deferred_card="random"),
                                   hands=DEFER_HANDS, dealer=3, seed=seed)
        deal.defer_trump()
        card = deal.trump_card
        assert card.code in ["9D", "8C", "7H", "6C"]
        assert deal.trump is card.suit
        again = cl.Deal.prearranged(cl.Rules.court_piece(allow_deferred=True, deferred_card="random"),
                                    hands=DEFER_HANDS, dealer=3, seed=seed)
        again.defer_trump()
        assert again.trump_card == card
        cards.add(card.code)
    assert len(cards) > 1


@pytest.mark.parametrize("number,card", [(6, "9D"), (8, "7H"), (10, "5H"), (13, "2H")])
def test_defer_numbered_turns_the_named_card(number, card):
    rules = cl.Rules.double_sir(allow_deferred=True, deferred_card="numbered")
    deal = cl.Deal.prearranged(rules, hands=DEFER_HANDS, dealer=3)
    deal.defer_trump(number)
    assert deal.trump_card == cl.Card.parse(card)
    assert deal.trump is cl.Card.parse(card).suit
    assert card in codes(deal.hand(0))


@pytest.mark.parametrize("number", [None, 5, 14, 0, "x"])
def test_defer_numbered_refuses_a_bad_number(number):
    rules = cl.Rules.double_sir(allow_deferred=True, deferred_card="numbered")
    deal = cl.Deal.prearranged(rules, hands=DEFER_HANDS, dealer=3)
    refused(deal, lambda: deal.defer_trump(number))


def test_defer_refused_when_the_rules_do_not_allow_it():
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=DEFER_HANDS, dealer=3)
    refused(deal, deal.defer_trump)


def test_defer_refused_after_trump_is_fixed():
    deal = cl.Deal.prearranged(cl.Rules.court_piece(allow_deferred=True), hands=DEFER_HANDS, dealer=3)
    deal.call_trump("S")
    refused(deal, deal.defer_trump)


def test_deferred_deal_round_trips():
    rules = cl.Rules.double_sir(allow_deferred=True, deferred_card="numbered")
    deal = cl.Deal.prearranged(rules, hands=DEFER_HANDS, dealer=3)
    deal.defer_trump(8)
    deal.play("AS")
    for back in (cl.Deal.from_dict(deal.to_dict()), cl.Deal.from_notation(deal.to_notation())):
        assert back.trump_card == deal.trump_card and back.to_dict() == deal.to_dict()


# ===================================================================== pile options

def start(game, winners, last, suits="SHCDSHCDSHCD", dealer=3, **options):
    hands, plays, trump = scripted(winners, last, suits, dealer)
    deal = cl.Deal.prearranged(getattr(cl.Rules, game)(stop_when_decided=False, **options), hands=hands, dealer=dealer)
    deal.call_trump(trump)
    return deal, plays


def after_each_trick(deal, plays):
    out = []
    while plays:
        for _ in range(4):
            deal.play(plays.pop(0))
        out.append((len(deal.centre), tuple(deal.tricks_won)))
    return out


@pytest.mark.parametrize("game", ["double_sir", "dehla_pakad"])
def test_first_two_capture_false(game):
    deal, plays = start(game, [0, 0, 0, 1, 2, 3, 1, 2, 3, 1, 2, 3], last=1, first_two_capture=False)
    states = after_each_trick(deal, plays)
    assert states[:3] == [(1, (0, 0)), (2, (0, 0)), (0, (3, 0))]


@pytest.mark.parametrize("game", ["double_sir", "dehla_pakad"])
def test_first_two_capture_false_tricks_two_and_three(game):
    deal, plays = start(game, [1, 0, 0, 1, 2, 3, 1, 2, 3, 1, 2, 3], last=1, first_two_capture=False)
    assert after_each_trick(deal, plays)[:3] == [(1, (0, 0)), (2, (0, 0)), (0, (3, 0))]


@pytest.mark.parametrize("game", ["double_sir", "dehla_pakad"])
def test_first_two_capture_false_only_the_first_two(game):
    deal, plays = start(game, [0, 0, 1, 3, 3, 2, 1, 2, 3, 1, 2, 3], last=1, first_two_capture=False)
    states = after_each_trick(deal, plays)
    assert states[:5] == [(1, (0, 0)), (2, (0, 0)), (3, (0, 0)), (4, (0, 0)), (0, (0, 5))]


def test_first_two_capture_default_captures_at_two():
    deal, plays = start("double_sir", [0, 0, 0, 1, 2, 3, 1, 2, 3, 1, 2, 3], last=1)
    assert after_each_trick(deal, plays)[:3] == [(1, (0, 0)), (0, (2, 0)), (1, (2, 0))]


@pytest.mark.parametrize("game", ["double_sir", "dehla_pakad"])
def test_aces_capture_false_two_aces_do_not_capture_the_next_win_does(game):
    # South wins tricks 1 and 2 with A♠ and A♥, trick 3 with 10♠
    deal, plays = start(game, [0, 0, 0, 1, 2, 3, 1, 2, 3, 1, 2, 3], last=1, suits="SHSHCCDDSHCD",
                        aces_capture=False)
    assert [t for t in after_each_trick(deal, plays)[:3]] == [(1, (0, 0)), (2, (0, 0)), (0, (3, 0))]
    assert [t.winning_card.code for t in deal.tricks[:3]] == ["AS", "AH", "10S"]


def test_aces_capture_false_the_run_of_aces_goes_on():
    deal, plays = start("double_sir", [0, 0, 0, 0, 1, 2, 3, 1, 2, 3, 1, 2], last=1, suits="SHCSHCDDDSHC",
                        aces_capture=False)
    states = after_each_trick(deal, plays)
    assert [t.winning_card.code for t in deal.tricks[:4]] == ["AS", "AH", "AC", "10S"]
    assert states[:4] == [(1, (0, 0)), (2, (0, 0)), (3, (0, 0)), (0, (4, 0))]


def test_aces_capture_false_an_ace_and_another_card_capture():
    deal, plays = start("double_sir", [0, 0, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1], last=1, suits="SSHHCCDDSHCD",
                        aces_capture=False)
    states = after_each_trick(deal, plays)
    assert [t.winning_card.code for t in deal.tricks[:2]] == ["AS", "10S"]
    assert states[:2] == [(1, (0, 0)), (0, (2, 0))]


def test_aces_capture_default_two_aces_capture():
    deal, plays = start("double_sir", [0, 0, 0, 1, 2, 3, 1, 2, 3, 1, 2, 3], last=1, suits="SHSHCCDDSHCD")
    assert after_each_trick(deal, plays)[:2] == [(1, (0, 0)), (0, (2, 0))]
