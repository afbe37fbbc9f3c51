"""What each seat may know: deal.view(seat) and event.visible_to(seat) (issue 3 "Seat views")."""
import dataclasses
import random

import pytest

import courtlearn as cl

RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
DECK = [r + s for s in "SHCD" for r in RANKS]
FIELDS = ["seat", "phase", "dealer", "trump_caller", "to_play", "hand", "trump", "trump_card", "trick",
          "tricks", "centre", "tricks_won", "voids", "revokes", "events"]


def complete(partial, voids=None):
    hands = [p.split() for p in partial]
    used = {cl.Card.parse(c).code for h in hands for c in h}
    voids = voids or {}
    rest = [c for c in DECK if c not in used]
    rest.sort(key=lambda c: sum(c[-1] in voids.get(s, "") for s in range(4)), reverse=True)
    for code in rest:
        seats = [s for s in range(4) if len(hands[s]) < 13 and code[-1] not in voids.get(s, "")]
        hands[max(seats, key=lambda s: 13 - len(hands[s]))].append(code)
    return [" ".join(h) for h in hands]


def codes(cards):
    return [c.code for c in cards]


def test_view_is_a_frozen_comparable_dataclass():
    deal = cl.Deal(cl.Rules.double_sir(), dealer=0, seed=1)
    deal.call_trump("C")
    v = deal.view(2)
    assert dataclasses.is_dataclass(v)
    names = {f.name for f in dataclasses.fields(v)}
    assert set(FIELDS) <= names
    with pytest.raises(AttributeError):
        v.seat = 1
    assert v == deal.view(2)
    assert v != deal.view(1)
    assert v.seat == 2
    assert tuple(v.hand) == tuple(deal.hand(2))
    assert v.dealer == 0 and v.trump_caller == 1 and v.to_play == 1
    assert v.trump is cl.Suit.CLUBS
    assert tuple(v.tricks_won) == (0, 0)
    for name in ("hand", "tricks", "centre", "voids", "revokes", "events"):
        assert isinstance(getattr(v, name), tuple), name


def test_view_changes_with_play_and_shows_played_cards():
    deal = cl.Deal(cl.Rules.court_piece(), dealer=0, seed=2)
    deal.call_trump("D")
    before = deal.view(0)
    card = deal.legal_cards()[0]
    deal.play(card)
    after = deal.view(0)
    assert before != after
    assert any(c == card for _, c in after.trick.cards)


def test_trump_phase_view_shows_only_five_cards():
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=4)
    for seat in range(4):
        assert len(deal.view(seat).hand) == 5
    assert deal.view(0).phase == "trump"


def test_voids_shown_by_a_failure_to_follow():
    hands = complete(["4S", "KH", "", ""], voids={1: "S"})
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=hands, dealer=3)
    deal.call_trump("C")
    deal.play("4S")
    assert all(len(v) == 0 for v in deal.view(0).voids)
    deal.play("KH")
    for seat in range(4):
        voids = deal.view(seat).voids
        assert cl.Suit.SPADES in voids[1]
        assert len(voids[0]) == len(voids[2]) == len(voids[3]) == 0


# --- indistinguishable deals ------------------------------------------------------------

def swap_pair(hands, a, b):
    """Swap the lowest card of seat a with the lowest of seat b in the suit both hold most of."""
    ha, hb = hands[a].split(), hands[b].split()
    counts = {s: min(sum(c[-1] == s for c in ha), sum(c[-1] == s for c in hb)) for s in "SHCD"}
    suit = max("SHCD", key=lambda s: counts[s])
    if counts[suit] < 2:
        return None
    x = next(c for c in reversed(DECK) if c in ha and c[-1] == suit)
    y = next(c for c in reversed(DECK) if c in hb and c[-1] == suit)
    ha[ha.index(x)], hb[hb.index(y)] = y, x
    out = list(hands)
    out[a], out[b] = " ".join(ha), " ".join(hb)
    return out, x, y


def play_twins(game, seed, viewer, hidden_a, hidden_b):
    """Two deals differing only in a card of `hidden_a` and one of `hidden_b` (same suit,
    swapped). Plays the same cards in both (never the swapped ones while avoidable) and
    checks after every action that `viewer` sees the same thing in both. Returns whether
    the deal ended before either swapped card was played."""
    rng = random.Random(seed)
    base = cl.Deal(getattr(cl.Rules, game)(), dealer=seed % 4, seed=seed)
    base.call_trump("SHCD"[seed % 4])
    hands = [" ".join(codes(base.hand(s))) for s in range(4)]
    swapped = swap_pair(hands, hidden_a, hidden_b)
    if swapped is None:
        return False
    other, x, y = swapped
    a = cl.Deal.prearranged(base.rules, hands=hands, dealer=base.dealer)
    b = cl.Deal.prearranged(base.rules, hands=other, dealer=base.dealer)
    assert a.view(viewer) == b.view(viewer)
    a.call_trump(base.trump)
    b.call_trump(base.trump)
    assert a.view(viewer) == b.view(viewer)
    assert a.view(hidden_a) != b.view(hidden_a)  # the test can see a difference where there is one
    mapping = {x: y, y: x}
    while a.phase != "over":
        legal = codes(a.legal_cards())
        safe = [c for c in legal if c not in mapping]
        if not safe:
            return False
        card = rng.choice(safe)
        a.play(card)
        b.play(card)
        assert a.view(viewer) == b.view(viewer), f"after {card}"
    return True


@pytest.mark.parametrize("game", ["court_piece", "double_sir", "dehla_pakad"])
@pytest.mark.parametrize("viewer", [0, 2])
def test_deals_differing_only_in_unseen_cards_look_the_same(game, viewer):
    whole = 0
    for seed in range(30):
        whole += play_twins(game, seed, viewer, 1, 3)
    assert whole >= 1  # at least one whole deal went by without the swapped cards


def test_deals_differing_in_unseen_cards_of_partner_and_opponent():
    whole = sum(play_twins("court_piece", seed, 1, 0, 2) for seed in range(30))
    assert whole >= 1


def test_hidden_trump_card_only_for_its_owner():
    hands = complete(["7H 8H AS KS QS", "", "", ""], voids={1: "S", 2: "S"})
    rules = cl.Rules.court_piece(trump_method="hidden")
    a = cl.Deal.prearranged(rules, hands=hands, dealer=3)
    b = cl.Deal.prearranged(rules, hands=hands, dealer=3)
    a.choose_trump_card("7H")
    b.choose_trump_card("8H")
    assert a.view(0).trump_card == cl.Card.parse("7H")
    assert b.view(0).trump_card == cl.Card.parse("8H")
    for seat in (1, 2, 3):
        assert a.view(seat) == b.view(seat)
        assert a.view(seat).trump_card is None
    a.play("AS")
    b.play("AS")
    for seat in (1, 2, 3):
        assert a.view(seat) == b.view(seat)
    a.ask_for_trump()  # East has no spade
    b.ask_for_trump()
    assert a.view(1).trump_card == cl.Card.parse("7H") and b.view(1).trump_card == cl.Card.parse("8H")


def test_hidden_random_card_is_seen_by_nobody():
    hands = complete(["", "", "", ""])
    deal = cl.Deal.prearranged(cl.Rules.court_piece(trump_method="hidden_random"), hands=hands, dealer=3, seed=3)
    card = deal.hidden_trump_card
    assert card is not None
    for seat in range(4):
        v = deal.view(seat)
        assert v.trump_card is None
        assert card not in v.hand
        assert all(str(card) not in e.text for e in v.events)


# --- revokes in views ------------------------------------------------------------------------

def test_revokes_appear_in_views_only_once_provable():
    hands = complete(["4S KH 5C", "QS 10S 3S AD", "2S 7H", "9S 8S"], voids={1: "S"})
    deal = cl.Deal.prearranged(cl.Rules.court_piece(revokes="allowed"), hands=hands, dealer=3)
    deal.call_trump("H")
    for code in "4S AD 2S 9S".split():
        deal.play(code)
    assert deal.revokes[0].established
    for seat in range(4):
        v = deal.view(seat)
        assert v.revokes == ()
        if seat != 1:
            assert not any("revok" in e.text.lower() for e in v.events), seat
    deal.play("8S")
    deal.play(deal.legal_cards()[-1])
    deal.play("3S")  # East now plays a spade: the revoke is provable
    for seat in range(4):
        v = deal.view(seat)
        assert len(v.revokes) == 1 and v.revokes[0].seat == 1
        assert any("revok" in e.text.lower() for e in v.events)


# --- events -------------------------------------------------------------------------------

def test_event_visible_to_and_view_events():
    deal = cl.Deal(cl.Rules.court_piece(), dealer=0, seed=8)
    deal.call_trump("S")
    deal.play(deal.legal_cards()[0])
    for seat in range(4):
        expected = tuple(e for e in deal.events if e.visible_to(seat))
        assert tuple(deal.view(seat).events) == expected
    plays = [e for e in deal.events if e.card is not None and e.kind == "play"]
    assert plays and all(e.visible_to(s) for e in plays for s in range(4))


@pytest.mark.parametrize("game,method", [("court_piece", "called"), ("double_sir", "hidden"),
                                         ("dehla_pakad", "shown"), ("court_piece", "hidden_random")])
def test_no_event_a_seat_sees_names_a_card_still_held_by_another(game, method):
    """Through whole random deals: a seat's visible events never mention another seat's
    unplayed card (nor a face-down trump card it may not see)."""
    rng = random.Random(11)
    for seed in range(6):
        deal = cl.Deal(getattr(cl.Rules, game)(trump_method=method, stop_when_decided=False), dealer=seed % 4,
                       seed=seed)
        while deal.phase != "over":
            if deal.phase == "trump":
                if method == "called":
                    deal.call_trump(rng.choice("SHCD"))
                else:
                    deal.choose_trump_card(rng.choice(deal.hand(deal.trump_caller)))
            else:
                deal.play(rng.choice(deal.legal_cards()))
            for seat in range(4):
                secret = {str(c) for s in range(4) if s != seat for c in deal.hand(s)}
                face_down = deal.hidden_trump_card
                if face_down is not None and deal.view(seat).trump_card is None:
                    secret.add(str(face_down))
                if deal.trump_card is not None:  # a card shown face up is public
                    secret.discard(str(deal.trump_card))
                for e in deal.view(seat).events:
                    for card in secret:
                        assert not mentions(e.text, card), (seat, e.text, card)


def mentions(text, card):
    """Whether `text` names `card` (so that "0♥" inside "10♥" does not count)."""
    i = text.find(card)
    while i >= 0:
        if i == 0 or not text[i - 1].isalnum():
            return True
        i = text.find(card, i + 1)
    return False


def test_voids_shown_on_five_cards_lapse_when_the_rest_is_dealt():
    """Dehla Pakad, first_void: a void shown while holding five cards says nothing about
    the thirteen-card hand that follows the rest of the deal."""
    rules = cl.Rules.dehla_pakad(trump_method="first_void")
    deal = cl.Deal.prearranged(rules, hands=[
        "AS KS QS JS 10S 2H 3H 4H 5H 6H 7H 8H 9H",
        "AH 2C 3C 4C 5C 9S 8S 7S 6S 5S 4S 3S 2S",
        "KH QH JH 10H 6C AC KC QC JC 10C 9C 8C 7C",
        "2D 3D 4D 5D 6D AD KD QD JD 10D 9D 8D 7D",
    ], dealer=3)
    deal.play("AS")
    deal.play("2C")            # East shows no spades among five cards: clubs are trumps
    assert deal.view(0).voids[1] == (cl.Suit.SPADES,)
    deal.play("KH")
    deal.play("2D")
    assert deal.trump is cl.Suit.CLUBS and len(deal.hand(1)) == 12   # the rest is dealt
    assert deal.view(0).voids[1] == ()        # East now holds spades again
