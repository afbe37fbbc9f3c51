"""cl.solve against exhaustive search through the public API (positions with at most
three tricks left), for all three games and every pile option; and its refusals."""
import math
import random

import pytest

import courtlearn as cl
from courtlearn.solver import solve

RULES = {
    "court_piece": cl.Rules.court_piece(stop_when_decided=False),
    "double_sir": cl.Rules.double_sir(stop_when_decided=False),
    "double_sir_no_first_two": cl.Rules.double_sir(stop_when_decided=False, first_two_capture=False),
    "double_sir_no_aces": cl.Rules.double_sir(stop_when_decided=False, aces_capture=False),
    "be_ranga": cl.Rules.double_sir(stop_when_decided=False, trump_method="first_void"),
    "dehla_pakad": cl.Rules.dehla_pakad(stop_when_decided=False),
    "dehla_pakad_called": cl.Rules.dehla_pakad(stop_when_decided=False, trump_method="called"),
    "dehla_pakad_tens_tie": cl.Rules.dehla_pakad(stop_when_decided=False, aces_capture=False),
}


def start(rules, seed):
    deal = cl.Deal(rules, dealer=seed % 4, seed=seed)
    rng = random.Random(seed)
    while deal.phase == "trump":
        move = deal.moves(deal.actor)[0]
        if move.kind == "call_trump":
            deal.call_trump(rng.choice(move.suits))
        elif move.kind == "choose_trump_card":
            deal.choose_trump_card(rng.choice(move.cards))
        else:
            raise AssertionError(move)
    return deal, rng


def position(rules, seed, tricks_left, extra_cards=0):
    """A deal played at random to ``tricks_left`` tricks from the end, plus a few cards."""
    deal, rng = start(rules, seed)
    while len(deal.tricks) < 13 - tricks_left:
        deal.play(rng.choice(deal.legal_cards()))
    for _ in range(extra_cards):
        deal.play(rng.choice(deal.legal_cards()))
    return deal


def measure(deal, team):
    return deal.tens_won[team] if deal.rules.game == "dehla_pakad" else deal.tricks_won[team]


def exhaustive(deal, team):
    """The team's total after 13 tricks with perfect play by all four (minimax, public API)."""
    if deal.phase == "over":
        return measure(deal, team)
    mover = cl.team_of(deal.to_play)
    best = None
    for card in deal.legal_cards():
        deal.play(card)
        v = exhaustive(deal, team)
        deal.undo()
        if best is None or (v > best if mover == team else v < best):
            best = v
    return best


def exhaustive_values(deal):
    team = cl.team_of(deal.to_play)
    out = {}
    for card in deal.legal_cards():
        deal.play(card)
        out[card] = exhaustive(deal, team)
        deal.undo()
    return out


CASES = [(name, seed, left, extra) for name in RULES for seed, left, extra in
         [(1, 1, 0), (2, 1, 2), (3, 2, 0), (4, 2, 1), (5, 2, 3), (6, 3, 0), (7, 3, 2)]]


@pytest.mark.parametrize("name,seed,left,extra", CASES)
def test_solver_matches_exhaustive_search(name, seed, left, extra):
    deal = position(RULES[name], seed, left, extra)
    before = deal.to_dict()
    sol = solve(deal)
    assert deal.to_dict() == before                    # the deal is untouched
    assert sol.values == exhaustive_values(deal)
    assert sol.seat == deal.to_play
    assert sol.measure == ("tens" if name.startswith("dehla") else "tricks")
    top = max(sol.values.values())
    assert set(sol.best) == {c for c, v in sol.values.items() if v == top}
    assert sol.best[0].code in sol.text or str(sol.best[0]) in sol.text


def test_values_stay_within_what_is_left_to_win():
    for seed in range(6):
        for name in ("court_piece", "double_sir", "dehla_pakad"):
            deal = position(RULES[name], 100 + seed, 5, seed % 4)
            sol = solve(deal)
            team = cl.team_of(deal.to_play)
            owned = measure(deal, team)
            left = 13 - len(deal.tricks) + (len(deal.centre) if name != "court_piece" else 0)
            if name == "dehla_pakad":
                left = 4 - sum(deal.tens_won)
            for v in sol.values.values():
                assert owned <= v <= owned + left


def test_stop_when_decided_does_not_change_the_values():
    for seed in range(3):
        a = position(cl.Rules.court_piece(stop_when_decided=False), 200 + seed, 4)
        b = cl.Deal.from_dict({**a.to_dict(), "rules": cl.Rules.court_piece().to_dict()})
        if b.phase == "play":
            assert solve(a).values == solve(b).values


def test_refusals_say_why():
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=1)
    with pytest.raises(ValueError, match="trump"):
        solve(deal)
    hidden = cl.Deal(cl.Rules.court_piece(trump_method="hidden"), dealer=3, seed=1)
    hidden.choose_trump_card(hidden.hand(hidden.trump_caller)[0])
    with pytest.raises(ValueError, match="face-down"):
        solve(hidden)
    over = position(cl.Rules.court_piece(stop_when_decided=False), 3, 1)
    while over.phase == "play":
        over.play(over.legal_cards()[0])
    with pytest.raises(ValueError, match="over"):
        solve(over)


# --------------------------------------------------------------------------- DDS
def random_court_piece_positions(count, sizes, seed=0):
    rng = random.Random(f"dds/{seed}")
    rules = cl.Rules.court_piece(stop_when_decided=False)
    out = []
    while len(out) < count:
        deal = cl.Deal(rules, dealer=rng.randrange(4), seed=rng.randrange(1 << 30))
        deal.call_trump(rng.choice("SHCD"))
        left = sizes[len(out) % len(sizes)]
        while len(deal.tricks) < 13 - left:
            deal.play(rng.choice(deal.legal_cards()))
        for _ in range(rng.randint(0, 3)):
            deal.play(rng.choice(deal.legal_cards()))
        out.append(deal)
    return out


# positions of each size (tricks left) in the cross-check: 300 in all, every size. The
# largest take the pure search a minute or two each: 6 whole deals, 8 of 12 tricks and 10
# of 11 made this one test nearly 10 of the suite's minutes; 2, 2 and 4 of them still
# cross-check whole deals, and the smaller sizes, seconds in all, take more positions
CROSS_CHECK = {1: 33, 2: 33, 3: 33, 4: 33, 5: 33, 6: 33, 7: 33, 8: 33,
               9: 20, 10: 12, 11: 4, 12: 2, 13: 2}


def _both_solvers(state):
    """(notation, the pure solver's values == DDS's) for one position (a worker's job)."""
    from courtlearn.dds import solve_with_endplay
    deal = cl.Deal.from_dict(state)
    pure = solve(deal, using="python", budget=math.inf, progress=False)      # no limit
    return deal.to_notation(), pure.values == solve_with_endplay(deal)


@pytest.mark.slow
def test_pure_solver_and_dds_agree_on_300_positions_of_every_size():
    """From one trick left to whole deals (13 tricks, from seconds to two minutes in pure
    Python), at a trick start or up to three cards into it: every card's value
    identical (CROSS_CHECK: how many of each size). Two processes share the work (the
    suite runs nothing else meanwhile)."""
    pytest.importorskip("endplay")
    import multiprocessing
    assert sum(CROSS_CHECK.values()) >= 300
    states = []
    for size, count in CROSS_CHECK.items():
        for deal in random_court_piece_positions(count, sizes=[size], seed=size):
            assert 13 - len(deal.tricks) == size
            states.append(deal.to_dict())
    states.reverse()                            # the big ones first: the two finish together
    with multiprocessing.get_context("fork").Pool(2) as pool:
        results = pool.map(_both_solvers, states, chunksize=1)
    wrong = [notation for notation, same in results if not same]
    assert not wrong, f"{len(wrong)} positions disagree; the first:\n{wrong[0]}"


def _north_south(deal, sol) -> int:
    """North–South's tricks with best play (values count the mover's side, of 13)."""
    best = max(sol.values.values())
    return best if cl.team_of(deal.to_play) == 0 else 13 - best


def test_dds_and_the_pure_solver_agree_along_best_play_from_whole_deals():
    """From 9 to 13 tricks left (the pure solver takes seconds to minutes there): DDS's
    value holds card after card along its own best play, and where the pure solver is
    fast (7 tricks left) it finds the same value and the same values for every card."""
    pytest.importorskip("endplay")
    for deal in random_court_piece_positions(25, sizes=[13, 12, 11, 10, 9], seed=2):
        sol = solve(deal, using="dds")
        want = _north_south(deal, sol)
        moment = cl.Deal.from_dict(deal.to_dict())
        while 13 - len(moment.tricks) > 7 or moment.trick.cards:
            moment.play(sol.best[0])
            sol = solve(moment, using="dds")
            assert _north_south(moment, sol) == want, moment.to_notation()
        pure = solve(moment, using="python")
        assert pure.values == sol.values and _north_south(moment, pure) == want, moment.to_notation()


def test_whole_deals_go_through_dds_when_it_is_there():
    pytest.importorskip("endplay")
    for deal in random_court_piece_positions(5, sizes=[13, 12, 11, 10, 9], seed=1):
        sol = solve(deal)                       # "auto": DDS for these sizes
        assert sol.values == solve(deal, using="dds").values
        tricks_left = 13 - len(deal.tricks)
        assert all(0 <= v <= 13 for v in sol.values.values())
        assert max(sol.values.values()) - deal.tricks_won[cl.team_of(deal.to_play)] <= tricks_left


def _by_the_generic_search(deal):
    """cl.solve's values by the search every game uses, not the trick-counting one."""
    from courtlearn import solver
    hands, trick, trump, st, pending = solver._position(deal)
    seat = deal.to_play
    return solver._solve_generic(deal, solver._Search(deal), hands, trick, trump, st, pending,
                                 seat, cl.team_of(seat)).values


def test_the_trick_counting_search_agrees_with_the_generic_one():
    """Court Piece goes through trick_solver's search (sure tricks, partition search);
    the search behind the other two games, which has neither, must find the same values
    (with no endplay needed)."""
    for deal in random_court_piece_positions(120, sizes=[1, 2, 3, 4, 5, 6], seed=7):
        assert solve(deal, using="python").values == _by_the_generic_search(deal), \
            deal.to_notation()


def test_sure_tricks_never_exceed_what_best_play_gives():
    """The bounds trick_solver cuts with, checked against the true result at trick starts:
    the side on lead is sure of no more than it gets, the other side likewise."""
    from courtlearn.solver import _position
    from courtlearn.trick_solver import TrickSearch
    checked = 0
    for deal in random_court_piece_positions(150, sizes=[2, 3, 4, 5, 6], seed=8):
        if deal.trick.cards:
            continue
        hands, _, trump, _, _ = _position(deal)
        search = TrickSearch(trump)
        number = len(deal.tricks)
        info = [search.suit((hands[s], hands[s + 4], hands[s + 8], hands[s + 12]))
                for s in range(4)]
        mine, theirs, _ = search.sure(hands, deal.to_play, info)
        best = max(_by_the_generic_search(deal).values())      # not the search under test
        got = best - deal.tricks_won[cl.team_of(deal.to_play)]    # the side on lead's
        assert mine <= got and theirs <= 13 - number - got, deal.to_notation()
        checked += 1
    assert checked >= 30


def test_dds_refuses_the_pile_games():
    deal = position(RULES["double_sir"], 1, 3)
    with pytest.raises(ValueError, match="Court Piece"):
        solve(deal, using="dds")


@pytest.mark.parametrize("seed,extra", [(132, 0), (203, 1), (354, 2)])
def test_be_ranga_with_the_trump_still_to_be_fixed(seed, extra):
    """Three tricks from the end with no trump yet: the first card off the suit led fixes
    it, and nothing is captured until the trick after the one that fixed it."""
    deal = position(RULES["be_ranga"], seed, 3)
    assert deal.trump is None
    for _ in range(extra):
        deal.play(random.Random(seed).choice(deal.legal_cards()))
    assert solve(deal).values == exhaustive_values(deal)


# ------------------------------------------- Dehla Pakad first_void before the rest is dealt
FIRST_VOID_DP = cl.Rules.dehla_pakad(trump_method="first_void", stop_when_decided=False)


def _even_start(seed):
    """Every seat's first five cards: two spades, a heart, a club and a diamond, so nobody
    can be void before the rest of the deal comes (the trump is fixed only after it)."""
    rng = random.Random(seed)
    suits = {s: [r + s for r in "23456789TJQKA"] for s in "SHCD"}
    for cards in suits.values():
        rng.shuffle(cards)
    first = [[suits["S"].pop(), suits["S"].pop(), suits["H"].pop(), suits["C"].pop(),
              suits["D"].pop()] for _ in range(4)]
    rest = [c for cards in suits.values() for c in cards]
    rng.shuffle(rest)
    hands = [" ".join(first[s] + rest[8 * s:8 * s + 8]).replace("T", "10") for s in range(4)]
    return cl.Deal.prearranged(FIRST_VOID_DP, hands, dealer=seed % 4)


def _tens_through_the_engine(deal, team):
    """The tens ``team`` takes with best play, the engine playing every card (and dealing
    the rest, and fixing the trump) until the rest of the deal has come; cl.solve after."""
    if deal.view(0).stock_size == 0:
        best = max(solve(deal).values.values())
        return best if cl.team_of(deal.to_play) == team else 4 - best
    results = []
    for card in deal.legal_cards():
        after = cl.Deal.from_dict(deal.to_dict())
        after.play(card)
        results.append(_tens_through_the_engine(after, team))
    return max(results) if cl.team_of(deal.to_play) == team else min(results)


def test_dehla_pakad_first_void_before_the_rest_is_dealt_matches_the_engine():
    """Positions in the first five tricks, the rest of the deal still to come and the trump
    not fixed: each card's value equals a search that lets the engine itself deal the rest
    and fix the trump (the solver's own model of both is what is checked)."""
    positions = []
    for seed in range(4):                       # the trump is fixed after the rest comes
        rng = random.Random(seed)
        deal = _even_start(seed)
        while len(deal.tricks) < 3 or len(deal.trick.cards) < seed % 3:
            deal.play(rng.choice(deal.legal_cards()))
        positions.append(deal)
    for seed in range(40):                      # random hands: a void may fix it first
        rng = random.Random(seed)
        deal = cl.Deal(FIRST_VOID_DP, dealer=seed % 4, seed=seed)
        while len(deal.tricks) < 3:
            deal.play(rng.choice(deal.legal_cards()))
        if deal.trump is None and deal.view(0).stock_size:
            positions.append(deal)
            break
    assert len(positions) == 5
    for deal in positions:
        assert deal.view(0).stock_size and deal.trump is None
        values = solve(deal).values
        team = cl.team_of(deal.to_play)
        for card in deal.legal_cards():
            after = cl.Deal.from_dict(deal.to_dict())
            after.play(card)
            assert _tens_through_the_engine(after, team) == values[card], (deal.to_notation(), card)
