"""cl.solve against exhaustive search through the public API (positions with at most
three tricks left), for all three games and every pile option; and its refusals."""
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


def test_pure_solver_and_dds_agree_on_300_court_piece_positions():
    pytest.importorskip("endplay")
    from courtlearn.dds import solve_with_endplay
    for deal in random_court_piece_positions(300, sizes=[1, 2, 3, 4, 5, 6, 7]):
        assert solve(deal, using="python").values == solve_with_endplay(deal), deal.to_notation()


def test_whole_deals_go_through_dds_when_it_is_there():
    pytest.importorskip("endplay")
    for deal in random_court_piece_positions(5, sizes=[13, 12, 11, 10, 9], seed=1):
        sol = solve(deal)                       # "auto": DDS for these sizes
        assert sol.values == solve(deal, using="dds").values
        tricks_left = 13 - len(deal.tricks)
        assert all(0 <= v <= 13 for v in sol.values.values())
        assert max(sol.values.values()) - deal.tricks_won[cl.team_of(deal.to_play)] <= tricks_left


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
