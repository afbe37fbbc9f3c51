"""Deal results and when a deal ends (RULES.md section 7)."""
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


def over_after(deal, plays):
    """Play the script until the deal ends; return the number of tricks played."""
    while deal.phase != "over":
        deal.play(plays.pop(0))
    return len(deal.tricks)


def res(deal):
    r = deal.result
    return (r.winner, r.courts, r.kind, tuple(r.tricks))


# --- Court Piece ------------------------------------------------------------------
# dealer 3 (East–West deal), so South (seat 0) calls trumps: team 0 is the trump caller's side.

TEAM0_FIRST_SEVEN = [0, 2, 0, 2, 0, 0, 2, 1, 3, 0, 1, 2]


def test_court_piece_court_first_seven_tricks():
    deal, plays = start("court_piece", TEAM0_FIRST_SEVEN, last=1)
    play_tricks(deal, plays, 6)
    assert deal.phase == "play" and deal.result is None
    play_tricks(deal, plays, 1)
    assert deal.phase == "over"
    assert res(deal) == (0, 1, "court", (7, 0))
    assert any("court" in e.text for e in deal.events)


def test_court_piece_goon_court_is_the_dealers_team():
    deal, plays = start("court_piece", [1, 3, 1, 1, 3, 1, 1, 0, 2, 0, 2, 0], last=0)
    assert over_after(deal, plays) == 7
    assert res(deal) == (1, 1, "goon", (0, 7))
    assert any("goon" in e.text.lower() for e in deal.events)


def test_court_piece_goon_court_for_dealer_zero():
    deal, plays = start("court_piece", [0, 2, 2, 2, 0, 0, 2, 1, 3, 0, 1, 2], last=1, dealer=0)
    assert over_after(deal, plays) == 7
    assert res(deal) == (0, 1, "goon", (7, 0))


def test_court_piece_seven_tricks_win_the_deal():
    deal, plays = start("court_piece", [1, 0, 0, 2, 0, 2, 2, 0, 1, 1, 3, 3], last=1)
    play_tricks(deal, plays, 7)
    assert deal.phase == "play" and deal.tricks_won == (6, 1)
    play_tricks(deal, plays, 1)
    assert deal.phase == "over"
    assert res(deal) == (0, 0, "tricks", (7, 1))


def test_court_piece_six_all_goes_to_the_thirteenth_trick():
    winners = [1, 0, 3, 2, 1, 0, 3, 2, 1, 0, 3, 2]
    deal, plays = start("court_piece", winners, last=3)
    play_tricks(deal, plays, 12)
    assert deal.phase == "play" and deal.tricks_won == (6, 6)
    play_tricks(deal, plays, 1)
    assert res(deal) == (1, 0, "tricks", (6, 7))


def test_court_piece_without_stop_plays_all_thirteen():
    deal, plays = start("court_piece", TEAM0_FIRST_SEVEN, last=1, stop_when_decided=False)
    assert over_after(deal, plays) == 13
    assert res(deal) == (0, 1, "court", (9, 4))


def test_court_piece_without_stop_tricks_win():
    deal, plays = start("court_piece", [1, 0, 0, 2, 0, 2, 2, 0, 1, 1, 3, 3], last=1, stop_when_decided=False)
    assert over_after(deal, plays) == 13
    assert res(deal) == (0, 0, "tricks", (7, 6))


@pytest.mark.parametrize("last", [0, 2])
def test_court_piece_all_thirteen_without_stop_is_a_bavney(last):
    deal, plays = start("court_piece", [0, 2] * 6, last=last, stop_when_decided=False)
    assert over_after(deal, plays) == 13
    assert res(deal) == (0, 52, "bavney", (13, 0))


def test_court_piece_dealers_bavney_without_stop():
    deal, plays = start("court_piece", [1, 3] * 6, last=3, stop_when_decided=False)
    assert over_after(deal, plays) == 13
    assert res(deal) == (1, 52, "bavney", (0, 13))


def test_play_on_for_a_bavney():
    deal, plays = start("court_piece", [0, 2] * 6, last=2)
    assert over_after(deal, plays) == 7
    assert res(deal) == (0, 1, "court", (7, 0))
    deal.play_on()
    assert deal.phase == "play" and deal.result is None
    assert deal.to_play == 0  # the winner of the 7th trick leads on
    assert over_after(deal, plays) == 13
    assert res(deal) == (0, 52, "bavney", (13, 0))


def test_play_on_that_fails_costs_nothing():
    deal, plays = start("court_piece", [0, 2, 0, 2, 0, 2, 0, 2, 1, 0, 2, 0], last=0)
    assert over_after(deal, plays) == 7
    deal.play_on()
    play_tricks(deal, plays, 1)
    assert deal.phase == "play"
    while deal.phase != "over":
        deal.play(plays.pop(0))
    assert deal.result.winner == 0 and deal.result.courts == 1 and deal.result.kind == "court"


def test_play_on_ends_as_soon_as_the_bavney_has_failed():
    deal, plays = start("court_piece", [0, 2, 0, 2, 0, 2, 0, 2, 1, 0, 2, 0], last=0)
    assert over_after(deal, plays) == 7
    deal.play_on()
    # with stop_when_decided, the deal ends when the opponents take a trick: the result is then fixed
    assert over_after(deal, plays) == 9
    assert res(deal) == (0, 1, "court", (8, 1))


def test_goon_court_may_play_on_too():
    deal, plays = start("court_piece", [1, 3] * 6, last=1)
    assert over_after(deal, plays) == 7
    assert deal.result.kind == "goon"
    deal.play_on()
    assert over_after(deal, plays) == 13
    assert res(deal) == (1, 52, "bavney", (0, 13))


def refused_play_on(deal):
    before = deal.to_dict()
    n = len(deal.events)
    with pytest.raises(ValueError) as info:
        deal.play_on()
    assert len(str(info.value)) > 10
    assert deal.to_dict() == before and len(deal.events) == n


def test_play_on_refused_mid_deal():
    deal, plays = start("court_piece", TEAM0_FIRST_SEVEN, last=1)
    play_tricks(deal, plays, 3)
    refused_play_on(deal)


def test_play_on_refused_in_trump_phase():
    hands, plays, trump = scripted(TEAM0_FIRST_SEVEN, 1)
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=hands, dealer=3)
    refused_play_on(deal)


def test_play_on_refused_after_a_tricks_win():
    deal, plays = start("court_piece", [1, 0, 0, 2, 0, 2, 2, 0, 1, 1, 3, 3], last=1)
    over_after(deal, plays)
    refused_play_on(deal)


def test_play_on_refused_twice():
    deal, plays = start("court_piece", [0, 2] * 6, last=2)
    over_after(deal, plays)
    deal.play_on()
    refused_play_on(deal)
    over_after(deal, plays)
    refused_play_on(deal)


def test_play_on_refused_without_stop_when_decided():
    deal, plays = start("court_piece", TEAM0_FIRST_SEVEN, last=1, stop_when_decided=False)
    play_tricks(deal, plays, 7)
    refused_play_on(deal)


def test_play_on_refused_in_double_sir():
    deal, plays = start("double_sir", [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 3, 3], last=1)
    over_after(deal, plays)
    refused_play_on(deal)


# --- Double Sir ---------------------------------------------------------------------

def test_double_sir_seven_tricks_in_own_pile_win():
    deal, plays = start("double_sir", [0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 2, 3], last=1)
    play_tricks(deal, plays, 9)
    assert deal.phase == "play" and deal.tricks_won == (6, 2)
    play_tricks(deal, plays, 1)
    assert deal.phase == "over"
    assert res(deal) == (0, 0, "tricks", (8, 2))


def test_double_sir_not_decided_while_the_other_team_has_nothing():
    deal, plays = start("double_sir", [0] * 8 + [1, 1, 3, 3], last=1)
    play_tricks(deal, plays, 8)
    assert deal.tricks_won == (8, 0)
    assert deal.phase == "play"  # a court is still possible
    play_tricks(deal, plays, 1)
    assert deal.phase == "play"
    play_tricks(deal, plays, 1)
    assert deal.phase == "over"
    assert res(deal) == (0, 0, "tricks", (8, 2))


def test_double_sir_centre_tricks_count_for_nobody():
    # team 0 has 6 tricks in its pile and 2 lie in the centre: not yet seven
    deal, plays = start("double_sir", [0, 0, 0, 0, 0, 0, 1, 3, 0, 1, 1, 2], last=2)
    play_tricks(deal, plays, 9)
    assert deal.tricks_won == (6, 0) and len(deal.centre) == 3
    assert deal.phase == "play"


def test_double_sir_court_all_thirteen():
    deal, plays = start("double_sir", [0, 2] * 6, last=0)
    play_tricks(deal, plays, 12)
    assert deal.phase == "play"
    play_tricks(deal, plays, 1)
    assert res(deal) == (0, 1, "court", (13, 0))


@pytest.mark.parametrize("goon_courts", [3, 10])
def test_double_sir_goon_court(goon_courts):
    deal, plays = start("double_sir", [1, 1, 3, 3] * 3, last=3, goon_courts=goon_courts)
    assert over_after(deal, plays) == 13
    assert res(deal) == (1, goon_courts, "goon", (0, 13))


def test_double_sir_goon_court_dealer_zero():
    deal, plays = start("double_sir", [2, 2, 0, 0] * 3, last=2, dealer=0)
    assert over_after(deal, plays) == 13
    assert res(deal) == (0, 3, "goon", (13, 0))


def test_double_sir_without_stop_plays_all_thirteen():
    deal, plays = start("double_sir", [0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 2, 3], last=1, stop_when_decided=False)
    assert over_after(deal, plays) == 13
    assert res(deal) == (0, 0, "tricks", (8, 5))


# --- Dehla Pakad -----------------------------------------------------------------------
# dealer 3: East–West (team 1) deal, North–South (team 0) are the non-dealers.
# With suits "SSHHCCDD...": the tens lie in tricks 2, 4, 6 and 8.
TENS_EVEN = "SSHHCCDDSHCD"


def tens(deal):
    return tuple(deal.result.tens)


def test_dehla_pakad_kot_all_four_tens():
    deal, plays = start("dehla_pakad", [1, 1, 3, 3, 0, 0, 2, 2, 1, 3, 1, 3], last=1)
    # default suits: tens in tricks 5-8
    play_tricks(deal, plays, 7)
    assert deal.phase == "play"
    play_tricks(deal, plays, 1)
    assert deal.phase == "over"
    assert res(deal) == (0, 1, "kot", (4, 4))
    assert tens(deal) == (4, 0)


def test_dehla_pakad_dealers_kot():
    deal, plays = start("dehla_pakad", [1, 1, 3, 3, 1, 1, 3, 3, 0, 0, 2, 2], last=0, suits=TENS_EVEN)
    assert over_after(deal, plays) == 8
    assert res(deal) == (1, 1, "kot", (0, 8))
    assert tens(deal) == (0, 4)


def test_dehla_pakad_non_dealers_win_with_two_tens():
    deal, plays = start("dehla_pakad", [0, 0, 2, 2, 1, 1, 3, 3, 0, 1, 2, 3], last=0, suits=TENS_EVEN)
    play_tricks(deal, plays, 4)
    assert deal.phase == "play"  # 2-0 in tens: a kot is still possible
    play_tricks(deal, plays, 1)
    assert deal.phase == "play"
    play_tricks(deal, plays, 1)
    assert deal.phase == "over"  # 2-1: the non-dealers win whatever happens to the last ten
    assert res(deal) == (0, 0, "tens", (4, 2))
    assert tens(deal) == (2, 1)


def test_dehla_pakad_non_dealers_win_with_three_tens():
    deal, plays = start("dehla_pakad", [1, 1, 0, 0, 2, 2, 0, 0, 1, 3, 1, 3], last=0, suits=TENS_EVEN)
    # after trick 4: 1-1; after 6: 2-1 decided
    assert over_after(deal, plays) == 6
    assert res(deal) == (0, 0, "tens", (4, 2))
    assert tens(deal) == (2, 1)


def test_dehla_pakad_dealers_win_with_three_tens():
    deal, plays = start("dehla_pakad", [1, 1, 3, 3, 1, 1, 0, 0, 2, 0, 2, 0], last=0, suits=TENS_EVEN)
    play_tricks(deal, plays, 6)
    assert deal.phase == "play" and deal.tricks_won == (0, 6)  # 0-3: a dealers' kot still possible
    play_tricks(deal, plays, 2)
    assert deal.phase == "over"
    assert res(deal) == (1, 0, "tens", (2, 6))
    assert tens(deal) == (1, 3)


def test_dehla_pakad_two_all_goes_to_the_non_dealers_by_default():
    deal, plays = start("dehla_pakad", [1, 1, 3, 3, 0, 0, 2, 2, 1, 1, 3, 3], last=1, suits=TENS_EVEN)
    play_tricks(deal, plays, 6)
    assert deal.phase == "play"  # 1-2: the last ten decides
    play_tricks(deal, plays, 2)
    assert deal.phase == "over"
    assert res(deal) == (0, 0, "tens", (4, 4))
    assert tens(deal) == (2, 2)


def test_dehla_pakad_two_all_by_tricks():
    deal, plays = start("dehla_pakad", [1, 1, 3, 3, 0, 0, 2, 2, 1, 1, 3, 3], last=1, suits=TENS_EVEN,
                        tens_tie="tricks")
    play_tricks(deal, plays, 8)
    assert deal.phase == "play" and tens_now(deal) == (2, 2)  # tricks 4-4: undecided
    play_tricks(deal, plays, 3)
    assert deal.phase == "play" and deal.tricks_won == (4, 6)
    play_tricks(deal, plays, 1)
    assert deal.phase == "over"
    r = deal.result
    assert (r.winner, r.courts, tuple(r.tricks), tuple(r.tens)) == (1, 0, (4, 8), (2, 2))


def test_dehla_pakad_two_all_by_tricks_to_the_non_dealers():
    deal, plays = start("dehla_pakad", [1, 1, 3, 3, 0, 0, 2, 2, 0, 0, 2, 2], last=1, suits=TENS_EVEN,
                        tens_tie="tricks")
    assert over_after(deal, plays) == 12
    assert deal.result.winner == 0 and deal.result.courts == 0
    assert tuple(deal.result.tricks) == (8, 4)


def test_dehla_pakad_two_one_is_not_decided_with_tens_tie_tricks():
    deal, plays = start("dehla_pakad", [0, 0, 2, 2, 1, 1, 3, 3, 0, 1, 2, 3], last=0, suits=TENS_EVEN,
                        tens_tie="tricks")
    play_tricks(deal, plays, 6)
    assert tens_now(deal) == (2, 1)
    assert deal.phase == "play"  # a 2-2 split would go to East–West on tricks (they could get 7+)


def test_dehla_pakad_without_stop_plays_all_thirteen():
    deal, plays = start("dehla_pakad", [0, 0, 2, 2, 1, 1, 3, 3, 0, 1, 2, 3], last=0, suits=TENS_EVEN,
                        stop_when_decided=False)
    assert over_after(deal, plays) == 13
    assert deal.result.winner == 0 and deal.result.kind == "tens" and deal.result.courts == 0
    assert tens(deal) == (2, 2)


def tens_now(deal):
    """Tens in each team's own pile (centre excluded), by replaying the default capture rule
    (RULES.md section 6) over the winners of the completed tricks."""
    piles, centre, run = [0, 0], [], (None, 0)
    for n, trick in enumerate(deal.tricks):
        centre.append(sum(c.rank == 10 for _, c in trick.cards))
        run = (trick.winner, run[1] + 1) if run[0] == trick.winner else (trick.winner, 1)
        if run[1] >= 2 or n == 12:
            piles[trick.winner % 2] += sum(centre)
            centre, run = [], (trick.winner, 0)
    return tuple(piles)
