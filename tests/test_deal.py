"""One deal: dealing, trump call, following suit, trick winners, refusals' reasons, direction.

Written from RULES.md sections 1-4 and API.md "One deal"."""
import random

import pytest

import courtlearn as cl

RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
DECK = [r + s for s in "SHCD" for r in RANKS]


def complete(partial, voids=None):
    """Four hands of 13 from partial hands (given cards first, in that order).

    The other cards are handed out in deck order to seats with room, never
    giving a seat a suit listed for it in `voids`."""
    hands = [p.split() for p in partial]
    used = {cl.Card.parse(c).code for h in hands for c in h}
    assert len(used) == sum(map(len, hands)), "a card is given twice"
    voids = voids or {}
    rest = [c for c in DECK if c not in used]
    # suits with the fewest eligible seats first, so the greedy fill never gets stuck
    rest.sort(key=lambda c: sum(c[-1] in voids.get(s, "") for s in range(4)), reverse=True)
    for code in rest:
        seats = [s for s in range(4) if len(hands[s]) < 13 and code[-1] not in voids.get(s, "")]
        assert seats, f"cannot place {code}"
        seat = max(seats, key=lambda s: 13 - len(hands[s]))
        hands[seat].append(code)
    assert all(len(h) == 13 for h in hands)
    return [" ".join(h) for h in hands]


def codes(cards):
    return [c.code for c in cards]


def as_held(cards):
    """Card codes as a player holds them: suits ♠ ♥ ♣ ♦, high to low."""
    return sorted((cl.Card.parse(c).code for c in cards), key=lambda c: ("SHCD".index(c[-1]), RANKS.index(c[:-1])))


def play_all(deal, plays):
    for code in plays.split() if isinstance(plays, str) else plays:
        deal.play(code)


def all_cards(deal):
    seen = []
    for s in range(4):
        seen += codes(deal.hand(s))
    seen += codes(deal.stock)
    seen += [c.code for _, c in deal.trick.cards]
    for t in deal.tricks:
        seen += [c.code for _, c in t.cards]
    return seen


# --- the deal -----------------------------------------------------------------

@pytest.mark.parametrize("dealer", range(4))
def test_trump_caller_is_the_seat_after_the_dealer(dealer):
    deal = cl.Deal(cl.Rules.court_piece(), dealer=dealer, seed=11)
    assert deal.dealer == dealer
    assert deal.trump_caller == (dealer + 1) % 4
    deal.call_trump("H")
    assert deal.to_play == (dealer + 1) % 4
    assert deal.trick.leader == (dealer + 1) % 4
    assert len(deal.trick.cards) == 0


@pytest.mark.parametrize("game", ["court_piece", "double_sir", "dehla_pakad"])
def test_trump_phase_shows_five_cards_each_and_a_stock(game):
    deal = cl.Deal(getattr(cl.Rules, game)(), dealer=2, seed=3)
    assert deal.phase == "trump" and deal.phase == cl.Phase.TRUMP
    assert deal.trump is None
    assert [len(deal.hand(s)) for s in range(4)] == [5, 5, 5, 5]
    assert len(deal.stock) == 32
    assert len(set(all_cards(deal))) == 52
    deal.call_trump("S")
    assert deal.phase == "play" and deal.phase == cl.Phase.PLAY
    assert deal.trump is cl.Suit.SPADES
    assert [len(deal.hand(s)) for s in range(4)] == [13] * 4
    assert list(deal.stock) == []
    assert sorted(all_cards(deal)) == sorted(DECK)


def test_first_batch_of_five_is_kept_after_the_rest_is_dealt():
    deal = cl.Deal(cl.Rules.court_piece(), dealer=0, seed=5)
    first = [set(codes(deal.hand(s))) for s in range(4)]
    deal.call_trump("D")
    for s in range(4):
        assert first[s] <= set(codes(deal.hand(s)))
        assert codes(deal.hand(s)) == as_held(codes(deal.hand(s)))


def test_seeded_deals_are_reproducible():
    a = cl.Deal(cl.Rules.double_sir(), dealer=1, seed=42)
    b = cl.Deal(cl.Rules.double_sir(), dealer=1, seed=42)
    a.call_trump("C")
    b.call_trump("C")
    assert [codes(a.hand(s)) for s in range(4)] == [codes(b.hand(s)) for s in range(4)]
    others = []
    for seed in range(43, 48):
        c = cl.Deal(cl.Rules.double_sir(), dealer=1, seed=seed)
        c.call_trump("C")
        others.append([codes(c.hand(s)) for s in range(4)])
    assert any(o != [codes(a.hand(s)) for s in range(4)] for o in others)


def test_prearranged_first_five_are_the_first_batch():
    hands = complete(["2C 3C 4C 5C 6C", "", "", ""])
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=hands, dealer=3)
    assert deal.trump_caller == 0
    assert codes(deal.hand(0)) == ["6C", "5C", "4C", "3C", "2C"]
    for s in range(4):
        assert codes(deal.hand(s)) == as_held(hands[s].split()[:5])


@pytest.mark.parametrize(
    "hands",
    [
        ["AS"] * 4,  # too short and repeated
        None,
    ],
)
def test_prearranged_refuses_bad_hands(hands):
    if hands is None:
        good = complete(["", "", "", ""])
        hands = good[:3]  # three hands only
    with pytest.raises(ValueError):
        cl.Deal.prearranged(cl.Rules.court_piece(), hands=hands, dealer=0)


def test_prearranged_refuses_a_card_twice_naming_it():
    good = complete(["", "", "", ""])
    first = good[0].split()
    second = good[1].split()
    second[0] = first[0]
    with pytest.raises(ValueError) as info:
        cl.Deal.prearranged(cl.Rules.court_piece(), hands=[good[0], " ".join(second), good[2], good[3]], dealer=0)
    assert str(cl.Card.parse(first[0])) in str(info.value) or first[0] in str(info.value)


def test_call_trump_accepts_suit_or_text():
    for spec in ("S", "spades", "♠", cl.Suit.SPADES):
        deal = cl.Deal(cl.Rules.court_piece(), dealer=0, seed=1)
        deal.call_trump(spec)
        assert deal.trump is cl.Suit.SPADES


# --- following suit -------------------------------------------------------------

def by_suit_hands():
    """South all spades, East all hearts, North all clubs, West all diamonds."""
    return [" ".join(r + s for r in RANKS) for s in "SHCD"]


def test_legal_cards_must_follow_suit_when_able():
    hands = complete(["AS KH 2C 3D 4S", "QS 10S 3S AD KD", "", ""], voids={})
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=hands, dealer=3)
    deal.call_trump("H")
    assert set(codes(deal.legal_cards())) == set(codes(deal.hand(0)))
    deal.play("4S")
    spades = [c for c in codes(deal.hand(1)) if c.endswith("S")]
    assert codes(deal.legal_cards()) == spades
    assert {"QS", "10S", "3S"} <= set(spades)


def test_a_void_player_may_play_any_card():
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=by_suit_hands(), dealer=3)
    deal.call_trump("C")
    deal.play("2S")
    assert codes(deal.legal_cards()) == codes(deal.hand(1))
    assert len(deal.legal_cards()) == 13


def test_illegal_play_names_suit_led_and_cards_held():
    # South leads a spade; East holds Q♠ 10♠ 3♠ and A♦ and tries A♦.
    hands = complete(["4S", "QS 10S 3S AD", "", ""], voids={1: "S"})
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=hands, dealer=3)
    deal.call_trump("H")
    deal.play("4S")
    before = deal.to_dict()
    n_events = len(deal.events)
    with pytest.raises(cl.IllegalPlay) as info:
        deal.play("AD")
    reason = info.value.reason
    assert isinstance(info.value, ValueError)
    assert "East" in reason and "A♦" in reason and "spade" in reason
    assert "Q♠ 10♠ 3♠" in reason
    assert reason in str(info.value) or str(info.value) in reason
    assert deal.to_dict() == before
    assert len(deal.events) == n_events
    assert deal.to_play == 1


def test_illegal_play_reason_sentence_exactly_as_issue_example():
    hands = complete(["4S", "QS 10S 3S AD", "", ""], voids={1: "S"})
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=hands, dealer=3)
    deal.call_trump("H")
    deal.play("4S")
    with pytest.raises(cl.IllegalPlay) as info:
        deal.play("AD")
    assert info.value.reason == "East cannot play A♦: spades were led and East holds Q♠ 10♠ 3♠."


# --- trick winner ------------------------------------------------------------------

def test_highest_card_of_suit_led_wins_without_trump():
    hands = complete(["5H", "KH", "2H", "AD"], voids={3: "H"})
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=hands, dealer=3)
    deal.call_trump("C")
    play_all(deal, "5H KH 2H AD")  # West's A♦ is neither trump nor the suit led
    trick = deal.tricks[0]
    assert trick.winner == 1
    assert trick.winning_card == cl.Card.parse("KH")
    assert trick.leader == 0
    assert [(s, c.code) for s, c in trick.cards] == [(0, "5H"), (1, "KH"), (2, "2H"), (3, "AD")]
    assert deal.to_play == 1 and deal.trick.leader == 1
    assert list(deal.trick.cards) == []


def test_any_trump_beats_the_suit_led_and_highest_trump_wins():
    hands = complete(["AH", "2S", "KH", "3S"], voids={1: "H", 3: "H"})
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=hands, dealer=3)
    deal.call_trump("S")
    play_all(deal, "AH 2S KH 3S")
    assert deal.tricks[0].winner == 3
    assert deal.tricks[0].winning_card.code == "3S"
    assert deal.to_play == 3


def test_trump_led_is_won_by_highest_trump():
    hands = complete(["9S", "JS", "2S", "10S"])
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=hands, dealer=3)
    deal.call_trump("S")
    play_all(deal, "9S JS 2S 10S")
    assert deal.tricks[0].winner == 1


def test_the_fourth_card_completes_the_trick_at_once():
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=by_suit_hands(), dealer=3)
    deal.call_trump("C")
    play_all(deal, "AS 2H")
    assert len(deal.trick.cards) == 2 and len(deal.tricks) == 0
    play_all(deal, "3C")
    assert len(deal.tricks) == 0 and deal.to_play == 3
    play_all(deal, "4D")
    assert len(deal.tricks) == 1
    assert deal.tricks[0].winner == 2  # North's 3♣ is the only trump
    assert deal.tricks_won == (1, 0)
    assert deal.to_play == 2


def test_hand_shrinks_as_cards_are_played():
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=by_suit_hands(), dealer=3)
    deal.call_trump("C")
    deal.play(cl.Card.parse("KS"))
    assert "KS" not in codes(deal.hand(0)) and len(deal.hand(0)) == 12
    assert deal.to_play == 1


def test_events_are_sentences():
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=by_suit_hands(), dealer=3)
    deal.call_trump("C")
    play_all(deal, "AS 2H 3C 4D")
    texts = [e.text for e in deal.events]
    assert all(isinstance(t, str) and len(t) > 5 for t in texts)
    joined = "\n".join(texts)
    assert "A♠" in joined and "3♣" in joined
    assert "North" in joined  # North won the trick
    assert any("trick" in t.lower() and "North" in t for t in texts)


def test_every_play_is_an_event_with_seat_and_card():
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=by_suit_hands(), dealer=3)
    deal.call_trump("C")
    n = len(deal.events)
    deal.play("AS")
    new = deal.events[n:]
    assert any(e.card == cl.Card.parse("AS") and e.seat == 0 for e in new)


# --- direction --------------------------------------------------------------------

def test_direction_changes_names_not_seat_arithmetic():
    hands = complete(["5H", "KH", "2H", "AD"], voids={3: "H"})
    results = []
    for direction in ("anticlockwise", "clockwise"):
        rules = cl.Rules.court_piece(direction=direction)
        deal = cl.Deal.prearranged(rules, hands=hands, dealer=3)
        deal.call_trump("C")
        seq = []
        for code in "5H KH 2H AD".split():
            seq.append(deal.to_play)
            deal.play(code)
        results.append((seq, deal.tricks[0].winner, deal.to_play, deal.tricks_won))
    assert results[0] == results[1] == ([0, 1, 2, 3], 1, 1, (0, 1))


def test_clockwise_names_seat_one_west():
    hands = complete(["4S", "QS 10S 3S AD", "", ""], voids={1: "S"})
    deal = cl.Deal.prearranged(cl.Rules.court_piece(direction="clockwise"), hands=hands, dealer=3)
    deal.call_trump("H")
    deal.play("4S")
    with pytest.raises(cl.IllegalPlay) as info:
        deal.play("AD")
    assert "West" in info.value.reason and "East" not in info.value.reason


def test_seat_names():
    assert list(cl.SEAT_NAMES) == ["South", "East", "North", "West"]


def test_repr_is_deterministic():
    a = cl.Deal(cl.Rules.court_piece(), dealer=0, seed=9)
    b = cl.Deal(cl.Rules.court_piece(), dealer=0, seed=9)
    assert repr(a) == repr(b) and "0x" not in repr(a)


def test_dealing_and_trump_call_are_events():
    deal = cl.Deal(cl.Rules.double_sir(), dealer=3, seed=1)
    assert len(deal.events) >= 1  # the first batch of five
    first = deal.events[0].text
    assert "West" in first and "South" in first  # West deals, starting with South, the trump caller
    n = len(deal.events)
    deal.call_trump("S")
    texts = [e.text for e in deal.events[n:]]
    assert any("South" in t and "spades" in t for t in texts), texts
    assert any("13" in t or "rest" in t for t in texts), texts  # the rest is dealt


def test_end_of_the_deal_is_an_event():
    hands = by_suit_hands()
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=hands, dealer=3)
    deal.call_trump("S")
    while deal.phase != "over":
        deal.play(deal.legal_cards()[0])
    assert "court" in deal.events[-1].text.lower() or any("court" in e.text.lower() for e in deal.events[-3:])
    assert "North–South" in " ".join(e.text for e in deal.events[-3:])


@pytest.mark.parametrize("rules", [
    cl.Rules.court_piece(), cl.Rules.court_piece(trump_method="shown"),
    cl.Rules.court_piece(trump_method="hidden"), cl.Rules.double_sir(trump_method="hidden"),
    cl.Rules.court_piece(allow_deferred=True), cl.Rules.dehla_pakad()], ids=repr)
def test_the_rest_of_the_deal_says_how_many_cards_each_seat_now_holds(rules):
    # the engine counts them from the tricks played; here they are counted from the hands
    rng = random.Random(3)
    for seed in range(12):
        deal = cl.Deal(rules, dealer=seed % 4, seed=seed)
        if deal.phase == "trump":
            caller = deal.trump_caller
            if rules.allow_deferred:
                deal.defer_trump()
            elif rules.trump_method == "called":
                deal.call_trump(rng.choice("SHCD"))
            else:
                deal.choose_trump_card(rng.choice(deal.hand(caller)))
        while not any(e.kind == "deal_rest" for e in deal.events):
            deal.play(rng.choice(deal.legal_cards()))
        event = next(e for e in deal.events if e.kind == "deal_rest")
        face_down = deal.hidden_trump_card is not None
        held = tuple(len(deal.hand(s)) + (face_down and s == deal.trump_caller) for s in range(4))
        assert event.data == (held, face_down)
        assert f"everyone now holds {held[0]} cards" in event.text


def test_replay_refuses_a_wrong_count_in_the_learners_language(monkeypatch):
    """Deal.replay's refusal is a sentence for the catalog (tr), saying what it takes."""
    import courtlearn.deal as deal_module
    said = []
    monkeypatch.setattr(deal_module, "tr",
                        lambda msg, **kw: said.append(msg) or msg.format(**kw))
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=1)
    deal.call_trump("S")
    for bad in (2, -1, True, "1"):
        with pytest.raises(ValueError, match="from 0 to 1"):
            deal.replay(bad)
    assert len(said) == 4 and all("{n}" in m for m in said)
