"""Cards and suits (API.md "Cards"; RULES.md section 1)."""
import itertools
import random

import pytest

import courtlearn as cl

RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
RANK_VALUE = {"A": 14, "K": 13, "Q": 12, "J": 11, **{str(n): n for n in range(2, 11)}}
SUIT_LETTERS = "SHCD"
SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
SUIT_ENUM = {"S": "SPADES", "H": "HEARTS", "C": "CLUBS", "D": "DIAMONDS"}
ALL_CODES = [r + s for s in SUIT_LETTERS for r in RANKS]


# --- parsing --------------------------------------------------------------

@pytest.mark.parametrize("text", ["10H", "TH", "10h", "th", "10♥", " 10H "])
def test_ten_of_hearts_in_every_form(text):
    card = cl.Card.parse(text.strip())
    assert card.code == "10H"
    assert str(card) == "10♥"
    assert card.suit is cl.Suit.HEARTS
    assert card.rank == 10


@pytest.mark.parametrize("code", ALL_CODES)
def test_every_card_parses_from_code_symbol_and_lower_case(code):
    rank, suit = code[:-1], code[-1]
    card = cl.Card.parse(code)
    assert card.code == code
    assert str(card) == rank + SYMBOL[suit]
    assert card.rank == RANK_VALUE[rank]
    assert card.suit is getattr(cl.Suit, SUIT_ENUM[suit])
    assert cl.Card.parse(rank + SYMBOL[suit]) == card
    assert cl.Card.parse(code.lower()) == card
    # str() and code both parse back to the same card
    assert cl.Card.parse(str(card)) == card


@pytest.mark.parametrize("rank,value", [("J", 11), ("Q", 12), ("K", 13), ("A", 14), ("2", 2)])
def test_face_card_rank_numbers(rank, value):
    assert cl.Card.parse(rank + "S").rank == value


@pytest.mark.parametrize(
    "texts,suit",
    [
        (["S", "s", "spades", "Spades", "SPADES", "♠"], "SPADES"),
        (["H", "hearts", "♥"], "HEARTS"),
        (["C", "clubs", "♣"], "CLUBS"),
        (["D", "diamonds", "♦"], "DIAMONDS"),
    ],
)
def test_suit_parse_forms(texts, suit):
    for text in texts:
        assert cl.Suit.parse(text) is getattr(cl.Suit, suit), text


def test_suit_parse_accepts_a_suit():
    assert cl.Suit.parse(cl.Suit.CLUBS) is cl.Suit.CLUBS


@pytest.mark.parametrize("text", ["", "1H", "11H", "ZZ", "AX", "10", "H", "A♠♠", "KK", "0S", "1OH", "AS KS"])
def test_bad_card_text_raises_card_error_naming_it(text):
    with pytest.raises(cl.CardError) as info:
        cl.Card.parse(text)
    message = str(info.value)
    assert len(message) > 10
    if text.strip():
        assert text.strip() in message, message


def test_card_error_is_a_value_error():
    assert issubclass(cl.CardError, ValueError)
    with pytest.raises(ValueError):
        cl.Card.parse("XQ")


def test_card_error_message_is_helpful():
    with pytest.raises(cl.CardError) as info:
        cl.Card.parse("1H")
    message = str(info.value)
    # the message explains what a card looks like: mentions a valid example or the ranks
    assert any(word in message for word in ("10H", "AS", "rank", "Rank", "A K Q", "2–10", "2-10")), message


@pytest.mark.parametrize("text", ["", "X", "spade s", "♥♥", "hearts!", "1"])
def test_bad_suit_text_raises_value_error(text):
    with pytest.raises(ValueError):
        cl.Suit.parse(text)


def test_cards_helper():
    hand = cl.cards("AS KS 10H")
    assert isinstance(hand, list)
    assert [c.code for c in hand] == ["AS", "KS", "10H"]
    assert cl.cards("A♠ th 2d") == [cl.Card.parse("AS"), cl.Card.parse("10H"), cl.Card.parse("2D")]
    assert cl.cards("") == []


def test_cards_helper_refuses_bad_text():
    with pytest.raises(cl.CardError) as info:
        cl.cards("AS KS 1H")
    assert "1H" in str(info.value)


# --- value semantics --------------------------------------------------------

def test_cards_are_hashable_and_equal_by_value():
    a, b = cl.Card.parse("10H"), cl.Card.parse("T♥")
    assert a == b and hash(a) == hash(b)
    assert len({cl.Card.parse(c) for c in ALL_CODES}) == 52
    assert cl.Card.parse("AS") != cl.Card.parse("AH")


def test_cards_are_immutable():
    card = cl.Card.parse("AS")
    with pytest.raises((AttributeError, TypeError)):
        card.rank = 2
    with pytest.raises((AttributeError, TypeError)):
        card.suit = cl.Suit.HEARTS
    assert card.code == "AS"


def test_repr_is_deterministic():
    card = cl.Card.parse("QD")
    assert repr(card) == repr(cl.Card.parse("qd"))
    assert "0x" not in repr(card)
    assert "Q" in repr(card)


# --- ordering ---------------------------------------------------------------

def test_within_a_suit_the_higher_card_compares_greater():
    for s in SUIT_LETTERS:
        cards = [cl.Card.parse(r + s) for r in RANKS]  # A high ... 2
        for hi, lo in zip(cards, cards[1:]):
            assert hi > lo and lo < hi and hi != lo and hi >= lo and lo <= hi
    assert cl.Card.parse("AS") > cl.Card.parse("KS")
    assert cl.Card.parse("10C") > cl.Card.parse("9C")


def test_total_order_is_by_suit_spades_hearts_clubs_diamonds_then_rank():
    deck = [cl.Card.parse(c) for c in ALL_CODES]
    shuffled = deck[:]
    random.Random(5).shuffle(shuffled)
    ordered = sorted(shuffled)
    # suits form contiguous blocks in the order ♠ ♥ ♣ ♦, ranks ascending within
    assert [c.suit for c in ordered[::13]] == [cl.Suit.SPADES, cl.Suit.HEARTS, cl.Suit.CLUBS, cl.Suit.DIAMONDS]
    for block in range(4):
        suit_cards = ordered[13 * block: 13 * block + 13]
        assert len({c.suit for c in suit_cards}) == 1
        assert [c.rank for c in suit_cards] == list(range(2, 15))


def test_order_is_total_and_consistent():
    deck = [cl.Card.parse(c) for c in ALL_CODES]
    for a, b in itertools.combinations(deck[::3], 2):
        assert (a < b) + (b < a) == 1
        assert (a < b) == (b > a)
        assert not (a < a)


# --- a hand as held ---------------------------------------------------------

HELD_ORDER = ["AS", "KS", "2S", "QH", "10H", "3H", "JC", "4C", "2C", "AD", "9D", "5D", "2D"]


def test_hand_is_listed_as_held():
    """deal.hand() lists ♠ ♥ ♣ ♦, high to low within each suit, whatever the deal order."""
    south = ["2D", "QH", "4C", "AS", "9D", "2S", "JC", "10H", "5D", "KS", "3H", "AD", "2C"]
    rest = [c for c in ALL_CODES if c not in south]
    hands = [" ".join(south)] + [" ".join(rest[13 * i: 13 * i + 13]) for i in range(3)]
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=hands, dealer=3)
    deal.call_trump("C")
    assert [c.code for c in deal.hand(0)] == HELD_ORDER
    assert [c.code for c in deal.legal_cards()] == HELD_ORDER  # South leads: every card


def test_trump_phase_hand_shows_first_batch_as_held():
    south = ["2D", "QH", "4C", "AS", "9D", "2S", "JC", "10H", "5D", "KS", "3H", "AD", "2C"]
    rest = [c for c in ALL_CODES if c not in south]
    hands = [" ".join(south)] + [" ".join(rest[13 * i: 13 * i + 13]) for i in range(3)]
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=hands, dealer=3)
    assert [c.code for c in deal.hand(0)] == ["AS", "QH", "4C", "9D", "2D"]
    stock = [c.code for c in deal.stock]
    assert len(stock) == 32
    # the stock is listed as held too: suits ♠ ♥ ♣ ♦, high to low
    as_held = sorted(stock, key=lambda code: (SUIT_LETTERS.index(code[-1]), -RANK_VALUE[code[:-1]]))
    assert stock == as_held


@pytest.mark.parametrize("seed", [0, 1, 7, 12345, -5, 2**31 - 1, 2**40 + 3, 2**200, "lesson", "", "०"])
def test_shuffled_is_the_order_random_Random_gives_for_every_kind_of_seed(seed):
    # seeds are literal in lessons and tests: int seeds take a faster path (the C base of
    # random.Random), which must give exactly the order of random.Random(seed)
    from courtlearn.cards import shuffled
    draw = random.Random(seed).random
    expected = sorted(cl.deck(), key=lambda _card: draw())
    assert shuffled(seed) == expected
    assert sorted(shuffled(seed)) == cl.deck()
