"""Every refused input: a clear message, and nothing changes (issue 2 "Errors"; DESIGN.md)."""
import copy
import json
import random

import pytest

import courtlearn as cl

RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
DECK = [r + s for s in "SHCD" for r in RANKS]


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


def snapshot(deal):
    return (
        json.dumps(deal.to_dict(), sort_keys=True),
        deal.to_notation(),
        len(deal.events),
        deal.phase,
        deal.to_play,
        [tuple(c.code for c in deal.hand(s)) for s in range(4)],
        tuple((s, c.code) for s, c in deal.trick.cards),
        len(deal.tricks),
        deal.result,
    )


def refused(deal, call, error=ValueError, *words):
    """call() must raise `error` with all `words` in its message and leave `deal` as it was."""
    before = snapshot(deal)
    with pytest.raises(error) as info:
        call()
    message = getattr(info.value, "reason", None) or str(info.value)
    for word in words:
        assert word in message, message
    assert snapshot(deal) == before
    return message


# the situation: South (0) leads 4♠; East holds Q♠ 10♠ 3♠ and A♦
HANDS = complete(["4S KH", "QS 10S 3S AD", "", ""], voids={1: "S"})


@pytest.fixture
def deal():
    d = cl.Deal.prearranged(cl.Rules.court_piece(), hands=HANDS, dealer=3)
    d.call_trump("H")
    d.play("4S")
    return d


def test_bad_card_text(deal):
    message = refused(deal, lambda: deal.play("ZZ"), cl.CardError, "ZZ")
    assert len(message) > 10
    refused(deal, lambda: deal.play("1S"), cl.CardError, "1S")
    refused(deal, lambda: deal.play(""), ValueError)


def test_card_not_held(deal):
    message = refused(deal, lambda: deal.play("KH"), cl.IllegalPlay, "K♥")  # South's card
    assert "East" in message


def test_not_following_suit(deal):
    refused(deal, lambda: deal.play("AD"), cl.IllegalPlay, "East", "A♦", "spade", "Q♠ 10♠ 3♠")


def test_illegal_play_is_a_value_error_with_reason(deal):
    with pytest.raises(ValueError) as info:
        deal.play("AD")
    assert isinstance(info.value, cl.IllegalPlay)
    assert isinstance(info.value.reason, str) and info.value.reason


def test_play_not_a_card_object(deal):
    refused(deal, lambda: deal.play(None), ValueError)
    refused(deal, lambda: deal.play(12), ValueError)


def test_wrong_option_is_refused_listing_accepted():
    with pytest.raises(ValueError) as info:
        cl.Rules.court_piece(revokes="never")
    assert "prevented" in str(info.value) and "allowed" in str(info.value)


def test_play_after_the_deal_ended():
    # everyone holds one suit, spades trump: South wins every trick and the deal ends after 7
    hands = [" ".join(r + s for r in RANKS) for s in "SHCD"]
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=hands, dealer=3)
    deal.call_trump("S")
    while deal.phase != "over":
        deal.play(deal.legal_cards()[0])
    assert deal.result.kind == "court"
    card = deal.hand(deal.to_play)[0] if deal.hand(deal.to_play) else cl.Card.parse("2S")
    message = refused(deal, lambda: deal.play(card), ValueError)
    assert "over" in message.lower() or "ended" in message.lower() or "finished" in message.lower()
    refused(deal, lambda: deal.call_trump("S"), ValueError)


def test_play_during_trump_phase():
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=HANDS, dealer=3)
    message = refused(deal, lambda: deal.play("4S"), ValueError)
    assert "trump" in message.lower()


def test_trump_call_in_the_play_phase(deal):
    message = refused(deal, lambda: deal.call_trump("S"), ValueError)
    assert "trump" in message.lower()


def test_trump_call_with_bad_suit():
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=HANDS, dealer=3)
    refused(deal, lambda: deal.call_trump("X"), ValueError, "X")
    refused(deal, lambda: deal.call_trump(None), ValueError)


@pytest.mark.parametrize("call", ["choose_trump_card", "defer_trump", "ask_for_trump", "correct_revoke", "play_on"])
def test_variant_moves_refused_under_default_rules(call):
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=HANDS, dealer=3)
    args = ("4S",) if call == "choose_trump_card" else ()
    refused(deal, lambda: getattr(deal, call)(*args), ValueError)
    deal.call_trump("H")
    deal.play("4S")
    refused(deal, lambda: getattr(deal, call)(*args), ValueError)


def test_claim_revoke_with_nothing_to_claim(deal):
    refused(deal, lambda: deal.claim_revoke(0), ValueError)


@pytest.mark.parametrize("seat", [-1, 4, "South", None, 1.5])
def test_claim_revoke_bad_seat(deal, seat):
    refused(deal, lambda: deal.claim_revoke(seat), ValueError)


@pytest.mark.parametrize("seat", [-1, 4, "x"])
def test_hand_of_a_bad_seat(deal, seat):
    with pytest.raises(ValueError):
        deal.hand(seat)


def test_bad_dealer():
    for dealer in (-1, 4, "South", None):
        with pytest.raises(ValueError):
            cl.Deal(cl.Rules.court_piece(), dealer=dealer, seed=1)


def test_undo_with_nothing_to_undo():
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=HANDS, dealer=3)
    refused(deal, deal.undo, ValueError)


# --- corrupted saved deals ---------------------------------------------------------

def corruptions(d):
    """Every way of damaging one part of a saved deal: delete a key, or replace a value."""
    bad_values = [None, -1, 99, "zz", "", [], {}, ["AS"], 1.5, True, "10X"]

    def walk(node, path):
        if isinstance(node, dict):
            for key in list(node):
                yield path + (key,), "delete"
                for v in bad_values:
                    yield path + (key,), v
                yield from walk(node[key], path + (key,))
        elif isinstance(node, list):
            for i in range(len(node)):
                for v in bad_values:
                    yield path + (i,), v
                yield from walk(node[i], path + (i,))
            if node:
                yield path, "drop_last"
                yield path, "duplicate_first"

    yield from walk(d, ())


def damaged(d, path, how):
    d = copy.deepcopy(d)
    node = d
    for key in path[:-1] if path else ():
        node = node[key]
    if how == "drop_last":
        target = node[path[-1]] if path else d
        target.pop()
    elif how == "duplicate_first":
        target = node[path[-1]] if path else d
        target.append(copy.deepcopy(target[0]))
    elif how == "delete":
        del node[path[-1]]
    else:
        node[path[-1]] = how
    return d


def saved_mid_deal(game="double_sir"):
    deal = cl.Deal(getattr(cl.Rules, game)(), dealer=1, seed=4)
    deal.call_trump("D")
    for _ in range(10):
        deal.play(deal.legal_cards()[-1])
    return deal


def test_from_dict_of_corrupted_data_raises_value_error_only():
    deal = saved_mid_deal()
    d = deal.to_dict()
    good = json.dumps(d, sort_keys=True)
    tried = 0
    for path, how in corruptions(d):
        bad = damaged(d, path, how)
        tried += 1
        try:
            other = cl.Deal.from_dict(bad)
        except ValueError as e:
            assert str(e), (path, how)
            continue
        # a harmless change (say, another seed) may still load: then it must be a sound deal
        assert isinstance(other, cl.Deal)
        json.dumps(other.to_dict())
    assert tried > 100
    assert json.dumps(deal.to_dict(), sort_keys=True) == good  # the source deal is untouched


@pytest.mark.parametrize("bad", [None, [], "deal", 42, {}, {"rules": {}}, {"hands": []}])
def test_from_dict_of_non_deals(bad):
    with pytest.raises(ValueError):
        cl.Deal.from_dict(bad)


def test_from_dict_card_played_that_is_not_held():
    deal = saved_mid_deal()
    d = deal.to_dict()
    # swap two cards between hands so that an already-played card is no longer where it was
    text = json.dumps(d)
    first_played = deal.tricks[0].cards[1][1].code  # East/West card of trick 1
    hands = d["hands"] if "hands" in d else None
    if hands is None:
        pytest.skip("to_dict does not store hands under 'hands'")
    owner = next(i for i, h in enumerate(hands) if first_played in h)
    other = (owner + 1) % 4
    i, j = hands[owner].index(first_played), 0
    hands[owner][i], hands[other][j] = hands[other][j], hands[owner][i]
    assert json.dumps(d) != text
    with pytest.raises(ValueError):
        cl.Deal.from_dict(d)


def test_corrupted_notation_raises_value_error_only():
    deal = saved_mid_deal("dehla_pakad")
    text = deal.to_notation()
    lines = text.splitlines()
    variants = [
        "",
        "nonsense",
        text[: len(text) // 2],
        text.replace("dealer", "dealr"),
        text.replace("S", "X"),
        text.replace("10", "11"),
        text + "\nextra: line\n",
        "\n".join(lines[:-1]),
        "\n".join(l for l in lines if not l.lower().startswith("rules")),
    ]
    # drop each line in turn, and truncate each line
    for i in range(len(lines)):
        variants.append("\n".join(lines[:i] + lines[i + 1:]))
        variants.append("\n".join(lines[:i] + [lines[i][: len(lines[i]) // 2]] + lines[i + 1:]))
    # replace every card code in the notation with a foreign token, one at a time
    words = text.split()
    for i, w in enumerate(words):
        if any(ch.isdigit() for ch in w) or w[:1] in "AKQJ":
            variants.append(" ".join(words[:i] + ["ZZ"] + words[i + 1:]))
    for bad in variants:
        try:
            other = cl.Deal.from_notation(bad)
        except ValueError as e:
            assert str(e)
            continue
        assert isinstance(other, cl.Deal)
    with pytest.raises(ValueError):
        cl.Deal.from_notation(None)


def test_notation_error_says_what_is_wrong():
    deal = saved_mid_deal("court_piece")
    text = deal.to_notation().replace("dealer", "dealr")
    with pytest.raises(ValueError) as info:
        cl.Deal.from_notation(text)
    assert "dealr" in str(info.value)


def test_hypothesis_corrupted_dicts():
    """Random junk in random places: still ValueError only."""
    from hypothesis import given, settings, strategies as st

    deal = saved_mid_deal("court_piece")
    d = deal.to_dict()
    junk = st.recursive(
        st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=4) | st.floats(allow_nan=False),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
        max_leaves=5,
    )
    paths = [p for p, how in corruptions(d) if how is None]

    @settings(max_examples=150, database=None)
    @given(st.sampled_from(paths), junk)
    def check(path, value):
        bad = damaged(d, path, value)
        try:
            cl.Deal.from_dict(bad)
        except ValueError:
            pass

    check()


# ------------------------------------- refusals tell a seat nothing it cannot see (issue 23)
VIEW_VARIANTS = [(game, {"trump_method": method, "revokes": "allowed"})
                 for game in ("court_piece", "double_sir", "dehla_pakad")
                 for method in ("called", "shown", "hidden", "hidden_random", "first_void")]
SUITS = "SHCD"


def _random_position(rules, rng):
    """A deal of random moves (revokes a third of the time they are possible, asks, some
    corrections), stopped at a random action."""
    deal = cl.Deal(rules, dealer=rng.randrange(4), seed=rng.randrange(10 ** 6))
    stop = rng.randrange(60)
    while deal.phase != "over" and len(deal.actions) < stop:
        seat = deal.actor
        moves = {m.kind: m for m in deal.moves(seat)}
        if "call_trump" in moves:
            deal.call_trump(rng.choice(deal.hand(seat)).suit)
        elif "choose_trump_card" in moves:
            deal.choose_trump_card(rng.choice(deal.hand(seat)))
        elif deal.can_correct_revoke() and rng.random() < 0.2:
            deal.correct_revoke()
        elif "ask_for_trump" in moves and rng.random() < 0.4:
            deal.ask_for_trump()
        else:
            legal = deal.legal_cards()
            revoking = [c for c in moves["play"].cards if c not in legal]
            deal.play(rng.choice(revoking if revoking and rng.random() < 0.35 else legal))
    return deal


def _twin(deal, seat, rng):
    """The same deal with the cards ``seat`` cannot see shuffled among the other seats (each
    keeps its number of cards in every batch), the same actions taken; None when those
    actions do not all stand in the twin, or the seat's view differs."""
    view = deal.view(seat)
    seen = set(view.hand)                 # not its cards still to come, nor a card face down
    seen |= {c for t in view.tricks for _, c in t.cards} | {c for _, c in view.trick.cards}
    if view.trump_card is not None:
        seen.add(view.trump_card)
    order = [list(deal.dealt(s)) for s in range(4)]
    places = [(s, i) for s in range(4) for i in range(13) if order[s][i] not in seen]
    unseen = [order[s][i] for s, i in places]
    rng.shuffle(unseen)
    for (s, i), card in zip(places, unseen):
        order[s][i] = card
    twin = cl.Deal.prearranged(deal.rules, [" ".join(c.code for c in h) for h in order],
                               dealer=deal.dealer, seed=deal.seed)
    try:
        twin.apply(deal.actions)
    except ValueError:
        return None
    return twin if twin.view(seat) == view else None


def _answers(deal, seat):
    """What every action ``seat`` may try says: the refusal's text, or None when accepted."""
    def said(call, *args):
        try:
            call(*args)
        except ValueError as err:
            return f"{type(err).__name__}: {getattr(err, 'reason', None) or err}"
        return None
    out = {"claim_revoke": said(deal.verify_claim_revoke, seat),
           "correct_revoke": said(deal.verify_correct_revoke),
           "play_on": said(deal.verify_play_on)}
    if seat == deal.actor:
        out["ask_for_trump"] = said(deal.verify_ask_for_trump)
        for card in cl.deck():
            out[f"play {card.code}"] = said(deal.verify_play, card)
            out[f"choose {card.code}"] = said(deal.verify_choose_trump_card, card)
        for suit in SUITS:
            out[f"call {suit}"] = said(deal.verify_call_trump, suit)
        for number in (None, 6, 13):
            out[f"defer {number}"] = said(deal.verify_defer_trump, number)
    return out


@pytest.mark.parametrize("game,options", VIEW_VARIANTS,
                         ids=[g + "-" + o["trump_method"] for g, o in VIEW_VARIANTS])
def test_a_refusal_reads_the_same_whatever_the_cards_the_seat_cannot_see(game, options):
    """Two deals that look the same from a seat (equal views) but differ in the cards it
    cannot see: every action the seat may try is refused in the same words in both (when
    both refuse it: a claim of a real revoke is accepted, a guess is refused)."""
    rules = cl.Rules.of(game, **options)
    rng = random.Random(game + options["trump_method"])
    pairs = 0
    for _ in range(150):
        deal = _random_position(rules, rng)
        for seat in range(4):
            twin = _twin(deal, seat, rng)
            if twin is None:
                continue
            a, b = _answers(deal, seat), _answers(twin, seat)
            for action in a:
                if a[action] is not None and b[action] is not None:
                    assert a[action] == b[action], (seat, action, deal.actions)
            pairs += 1
    assert pairs >= 150


def test_a_claim_tells_nothing_of_a_revoke_in_the_open_trick():
    """East revokes (Q♥ on a spade lead, holding spades); until the trick is complete South
    cannot claim, and the refusal must not say an opponent revoked (South cannot know)."""
    deal = cl.Deal.prearranged(cl.Rules.court_piece(revokes="allowed"), hands=HANDS, dealer=3)
    deal.call_trump("H")
    plain = refused(deal, lambda: deal.claim_revoke(0), ValueError)
    deal.play("4S")
    deal.play("AD")                                   # East holds Q♠ 10♠ 3♠
    assert deal.revokes and not deal.revokes[0].established
    assert refused(deal, lambda: deal.claim_revoke(0), ValueError) == plain
    assert refused(deal, lambda: deal.claim_revoke(2), ValueError) == plain.replace(
        "South", "North")
