"""Centre pile and captures in Double Sir and Dehla Pakad (RULES.md section 6)."""
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
    """A deal in which seat winners[i] wins trick i+1 (i < 12) and seat `last` the 13th.

    Every trick 1-12 is played in one suit, everyone following; the winner holds
    the highest of the four cards. The n-th trick in a suit uses ranks A-J, then
    10-7 (so the ten is won in the second trick of its suit), then 6-3. Each seat
    keeps the 2 of "its" suit (S, H, C, D for seats 0-3) for the 13th trick,
    which the trump (the suit of seat `last`) wins. Returns (hands, plays, trump)."""
    assert len(winners) == 12 and sorted(suits) == sorted("SHCD" * 3)
    blocks = [RANKS[0:4], RANKS[4:8], RANKS[8:12]]
    used = dict.fromkeys("SHCD", 0)
    hands = [[] for _ in range(4)]
    plays = []
    leader = (dealer + 1) % 4
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


def start(game, winners, last, suits="SHCDSHCDSHCD", dealer=3, **options):
    hands, plays, trump = scripted(winners, last, suits, dealer)
    rules = getattr(cl.Rules, game)(**options)
    deal = cl.Deal.prearranged(rules, hands=hands, dealer=dealer)
    deal.call_trump(trump)
    return deal, plays


def play_tricks(deal, plays, n):
    """Play the next n tricks of the script (plays is consumed)."""
    for _ in range(4 * n):
        deal.play(plays.pop(0))


def test_scripted_helper_gives_the_winners_it_promises():
    winners = [0, 1, 2, 3, 0, 1, 2, 3, 1, 1, 2, 2]
    deal, plays = start("double_sir", winners, last=3, stop_when_decided=False)
    play_tricks(deal, plays, 13)
    assert [t.winner for t in deal.tricks] == winners + [3]


# --- the worked example (003) -----------------------------------------------

WORKED = complete(["AS AH KD", "3S QS AD", "5S 4H 6D", "2H 7H 2D"], voids={1: "H", 3: "S"})


@pytest.mark.parametrize("game", ["double_sir", "dehla_pakad"])
def test_worked_example_of_the_double_sir_source(game):
    deal = cl.Deal.prearranged(getattr(cl.Rules, game)(), hands=WORKED, dealer=3)
    assert deal.trump_caller == 0
    deal.call_trump("S")
    for code in "AS 3S 5S 2H".split():
        deal.play(code)
    assert deal.tricks[0].winner == 0
    assert len(deal.centre) == 1 and deal.tricks_won == (0, 0)
    assert deal.to_play == 0
    for code in "AH QS 4H 7H".split():
        deal.play(code)
    assert deal.tricks[1].winner == 1  # Q♠ trumps the heart lead
    assert len(deal.centre) == 2 and deal.tricks_won == (0, 0)
    assert deal.to_play == 1
    n = len(deal.events)
    for code in "AD 6D 2D KD".split():
        deal.play(code)
    assert deal.tricks[2].winner == 1
    assert len(deal.centre) == 0
    assert deal.tricks_won == (0, 3)
    assert deal.phase == "play"
    texts = " ".join(e.text for e in deal.events[n:])
    assert "3 tricks" in texts and "East" in texts


def test_court_piece_tricks_go_straight_to_the_winner():
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=WORKED, dealer=3)
    deal.call_trump("S")
    for code in "AS 3S 5S 2H AH QS 4H 7H".split():
        deal.play(code)
    assert deal.tricks_won == (1, 1)
    assert len(deal.centre) == 0


# --- captures -------------------------------------------------------------------

@pytest.mark.parametrize("game", ["double_sir", "dehla_pakad"])
def test_new_pile_after_a_capture_third_win_no_capture_fourth_does(game):
    # seat 0 wins tricks 1-4: captures at 2, not at 3, again at 4
    deal, plays = start(game, [0, 0, 0, 0, 1, 2, 3, 1, 2, 3, 1, 2], last=1, stop_when_decided=False)
    play_tricks(deal, plays, 1)
    assert (len(deal.centre), deal.tricks_won) == (1, (0, 0))
    play_tricks(deal, plays, 1)
    assert (len(deal.centre), deal.tricks_won) == (0, (2, 0))
    play_tricks(deal, plays, 1)
    assert (len(deal.centre), deal.tricks_won) == (1, (2, 0))
    play_tricks(deal, plays, 1)
    assert (len(deal.centre), deal.tricks_won) == (0, (4, 0))


@pytest.mark.parametrize("game", ["double_sir", "dehla_pakad"])
def test_partners_do_not_chain(game):
    # 0, 2, 0, 2 ... partners alternate: nothing is captured until the 13th trick
    winners = [0, 2, 0, 2, 0, 2, 1, 3, 1, 3, 1, 3]
    deal, plays = start(game, winners, last=1, stop_when_decided=False)
    for i in range(12):
        play_tricks(deal, plays, 1)
        assert len(deal.centre) == i + 1
        assert deal.tricks_won == (0, 0)
    play_tricks(deal, plays, 1)
    # the 13th trick sweeps the centre whoever wins it
    assert len(deal.centre) == 0
    assert deal.tricks_won == (0, 13)


@pytest.mark.parametrize("game", ["double_sir", "dehla_pakad"])
def test_thirteenth_trick_takes_whatever_is_left(game):
    winners = [0, 0, 1, 1, 2, 2, 3, 3, 0, 1, 2, 3]
    deal, plays = start(game, winners, last=0, stop_when_decided=False)
    play_tricks(deal, plays, 12)
    assert len(deal.centre) == 4 and deal.tricks_won == (4, 4)
    play_tricks(deal, plays, 1)
    assert len(deal.centre) == 0 and deal.tricks_won == (9, 4)
    assert deal.phase == "over"


@pytest.mark.parametrize("game", ["double_sir", "dehla_pakad"])
def test_tricks_won_counts_only_own_pile(game):
    winners = [1, 2, 2, 3, 0, 3, 3, 0, 1, 0, 2, 1]
    deal, plays = start(game, winners, last=1, stop_when_decided=False)
    expected = [
        (1, (0, 0)),  # 1: seat 1
        (2, (0, 0)),  # 2: seat 2
        (0, (3, 0)),  # 3: seat 2 again: takes 3
        (1, (3, 0)),  # 4: seat 3
        (2, (3, 0)),  # 5: seat 0
        (3, (3, 0)),  # 6: seat 3
        (0, (3, 4)),  # 7: seat 3 again: takes 4
        (1, (3, 4)),
        (2, (3, 4)),
        (3, (3, 4)),
        (4, (3, 4)),
        (5, (3, 4)),
        (0, (3, 10)),  # 13th: seat 1 sweeps the 6 in the centre
    ]
    for n, (centre, won) in enumerate(expected, 1):
        play_tricks(deal, plays, 1)
        assert (len(deal.centre), deal.tricks_won) == (centre, won), f"after trick {n}"


def test_centre_holds_the_completed_tricks_themselves():
    deal, plays = start("double_sir", [1, 2, 2, 3, 0, 3, 3, 0, 1, 0, 2, 1], last=1)
    play_tricks(deal, plays, 2)
    assert list(deal.centre) == list(deal.tricks[:2])
    assert [t.winner for t in deal.centre] == [1, 2]


def test_capture_event_sentence():
    deal, plays = start("double_sir", [0, 0, 1, 1, 2, 2, 3, 3, 0, 1, 2, 3], last=0)
    n = len(deal.events)
    play_tricks(deal, plays, 2)
    texts = [e.text for e in deal.events[n:]]
    assert any("South" in t and "2 tricks" in t and "North–South" in t for t in texts), texts
