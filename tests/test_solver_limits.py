"""cl.solve within bounds (issue 23, items 7, 8 and 11): DDS only for the positions it
can take, a budget of cards tried with a refusal that says from which trick on, tables
that never pass their cap, a progress bar only for slow solves, and arguments refused
with a sentence."""
import math
import random

import pytest

import courtlearn as cl
from courtlearn import dds, solver
from courtlearn.solver import BUDGET, SOLVABLE_FROM, PositionTooLarge, solvable_from, solve
from courtlearn.trick_solver import CHECK_EVERY

# how far past its budget a search may go: it looks at the budget at every trick start
# (a few cards apart), and at least every CHECK_EVERY cards
SLACK = 16


def first_void_court_piece():
    return cl.Deal(cl.Rules.court_piece(trump_method="first_void"), dealer=0, seed=1)


def played_to(rules, seed, trick, extra=0):
    """A deal played at random to the start of ``trick`` (1..13), plus ``extra`` cards."""
    rng = random.Random(seed)
    deal = cl.Deal(rules, dealer=seed % 4, seed=seed)
    if deal.phase == "trump":
        deal.call_trump(rng.choice("SHCD"))
    while len(deal.tricks) < trick - 1:
        deal.play(rng.choice(deal.legal_cards()))
    for _ in range(extra):
        deal.play(rng.choice(deal.legal_cards()))
    return deal


# ------------------------------------------------------- item 7: DDS only where it can
def test_first_void_court_piece_from_the_start_is_refused_by_the_budget_not_by_dds():
    """The issue's deal: "auto" sent it to DDS, which refused a trump not yet fixed.
    Now the pure search takes it, and its budget refuses it with a sentence."""
    deal = first_void_court_piece()
    before = deal.to_dict()
    with pytest.raises(PositionTooLarge) as got:
        solve(deal, using="auto", budget=30_000)
    refusal = got.value
    assert isinstance(refusal, ValueError)
    assert "DDS" not in str(refusal) and "too large to solve yet" in str(refusal)
    assert refusal.trick == 1 and refusal.from_trick == SOLVABLE_FROM["court_piece/first_void"]
    assert f"from trick {refusal.from_trick} on" in str(refusal)
    assert refusal.nodes <= 30_000 + SLACK
    assert deal.to_dict() == before


def test_dds_refuses_a_trump_not_yet_fixed_with_a_sentence():
    deal = first_void_court_piece()
    assert not dds.can_take(deal)
    with pytest.raises(ValueError, match="first player who cannot follow suit"):
        solve(deal, using="dds")


def test_auto_falls_back_to_the_pure_search_when_dds_fails(monkeypatch):
    """Where DDS raises anyway, "auto" answers with the pure search's values."""
    deal = played_to(cl.Rules.court_piece(stop_when_decided=False), 3, 9, extra=1)
    want = solve(deal, using="python").values
    calls = []

    def broken(d):
        calls.append(d)
        raise RuntimeError("DDS error")

    monkeypatch.setattr(dds, "available", lambda: True)
    monkeypatch.setattr(dds, "solve_with_endplay", broken)
    monkeypatch.setattr(solver, "DDS_FROM_TRICKS", 2)
    sol = solve(deal, using="auto")
    assert calls and sol.solver == "python" and sol.values == want


def test_auto_uses_dds_once_the_first_void_has_fixed_the_trump():
    pytest.importorskip("endplay")
    for seed in range(50):                  # a deal whose first void comes early
        rng = random.Random(seed)
        deal = first_void_court_piece()
        while deal.trump is None:
            deal.play(rng.choice(deal.legal_cards()))
        if 13 - len(deal.tricks) > solver.DDS_FROM_TRICKS:
            break
    assert 13 - len(deal.tricks) > solver.DDS_FROM_TRICKS and dds.can_take(deal)
    sol = solve(deal)
    assert sol.solver == "dds" and sol.values == dds.solve_with_endplay(deal)
    assert solvable_from(deal) == 1


def test_dds_takes_a_revoke_in_the_open_trick_and_agrees():
    """revokes="allowed": a revoking card in the open trick is a card like another."""
    rules = cl.Rules.court_piece(revokes="allowed", stop_when_decided=False)
    found = 0
    for seed in range(60):
        deal = played_to(rules, seed, 8, extra=1)
        led = deal.trick.suit_led
        hand = deal.hand(deal.to_play)
        off = [c for c in hand if c.suit != led]
        if not off or not any(c.suit == led for c in hand):
            continue
        deal.play(off[0])                             # a revoke, still correctable
        assert deal.revokes and not deal.revokes[-1].established
        assert dds.can_take(deal)
        if dds.available():
            assert dds.solve_with_endplay(deal) == solve(deal, using="python").values
        found += 1
        if found == 5:
            break
    assert found == 5


# ------------------------------------------------------------- item 8: the budget
@pytest.mark.parametrize("game", ["double_sir", "dehla_pakad"])
def test_a_whole_pile_game_deal_is_refused_within_the_default_budget(game):
    """A whole Double Sir or Dehla Pakad deal ran past two minutes and 670 MB: now the
    default budget stops it (a count of cards, the same on every machine)."""
    deal = played_to(getattr(cl.Rules, game)(), 1, 1)
    with pytest.raises(PositionTooLarge) as got:
        solve(deal, using="python")
    refusal = got.value
    assert BUDGET < refusal.nodes <= BUDGET + SLACK and refusal.budget == BUDGET
    assert refusal.from_trick == SOLVABLE_FROM[game] > 1 == refusal.trick
    assert str(refusal) == ("This position is too large to solve yet: best play can be "
                            f"worked out from trick {refusal.from_trick} on.")
    assert refusal.table_peak <= solver.TABLE_CAP


def test_a_whole_court_piece_deal_without_dds_is_refused_by_its_budget():
    deal = played_to(cl.Rules.court_piece(stop_when_decided=False), 2, 1)
    with pytest.raises(PositionTooLarge) as got:
        solve(deal, using="python", budget=20_000)
    assert 20_000 < got.value.nodes <= 20_000 + SLACK
    assert got.value.from_trick == SOLVABLE_FROM["court_piece"]


def test_from_trick_is_always_later_than_now():
    """Past the trick the measurements give, a position that still needs more than its
    budget is told the next trick (never one already gone)."""
    deal = played_to(cl.Rules.dehla_pakad(stop_when_decided=False), 4, 11)
    with pytest.raises(PositionTooLarge) as got:
        solve(deal, budget=1)
    assert got.value.trick == 11 and got.value.from_trick == 12


def test_a_budget_that_suffices_changes_no_value():
    for game in ("court_piece", "double_sir", "dehla_pakad"):
        deal = played_to(getattr(cl.Rules, game)(stop_when_decided=False), 7, 8, extra=2)
        free = solve(deal, using="python", budget=math.inf)
        assert solve(deal, using="python", budget=free.nodes).values == free.values
        with pytest.raises(PositionTooLarge):
            solve(deal, using="python", budget=max(1, free.nodes // 2 - SLACK))


@pytest.mark.parametrize("game,seed", [("court_piece", 11), ("double_sir", 11),
                                       ("dehla_pakad", 11), ("court_piece/first_void", 2)])
def test_tables_never_pass_their_cap_and_the_values_stay(game, seed, monkeypatch):
    """With a cap of a third of what a table held without it, the tables are emptied
    again and again: the same values, and no table ever held more than the cap."""
    name, _, method = game.partition("/")
    rules = getattr(cl.Rules, name)(stop_when_decided=False, trump_method=method or "called")
    deal = played_to(rules, seed, 7)
    if method:
        assert deal.trump is None               # the generic search, trump still open
    free = solve(deal, using="python", budget=math.inf)
    cap = free.table_peak // 3
    assert cap >= 30
    monkeypatch.setattr(solver, "TABLE_CAP", cap)
    capped = solve(deal, using="python", budget=math.inf)
    assert capped.values == free.values
    assert 0 < capped.table_peak <= cap
    assert capped.nodes > free.nodes            # it searched again what it forgot


def test_solvable_from_gives_the_measured_trick():
    for game in ("double_sir", "dehla_pakad"):
        for method in ("called", "first_void"):
            rules = getattr(cl.Rules, game)(trump_method=method)
            key = game + ("/first_void" if method == "first_void" else "")
            assert solvable_from(cl.Deal(rules, dealer=1, seed=3)) == SOLVABLE_FROM[key] > 1
    assert 1 < SOLVABLE_FROM["court_piece"] <= 13


# -------------------------------------------------------------------- progress
def test_no_progress_bar_for_a_quick_solve(capsys):
    solve(played_to(cl.Rules.dehla_pakad(stop_when_decided=False), 2, 10))
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""


def test_a_progress_bar_once_the_solve_takes_long(capsys, monkeypatch):
    pytest.importorskip("tqdm")
    monkeypatch.setattr(solver, "PROGRESS_AFTER", 0.0)     # "long" from the start
    deal = played_to(cl.Rules.dehla_pakad(stop_when_decided=False), 1, 1)
    with pytest.raises(PositionTooLarge):
        solve(deal, budget=3 * CHECK_EVERY)
    assert "solve" in capsys.readouterr().err
    with pytest.raises(PositionTooLarge):
        solve(deal, budget=3 * CHECK_EVERY, progress=False)
    assert capsys.readouterr().err == ""


# ------------------------------------------------------- item 11: bad arguments
@pytest.mark.parametrize("bad", [None, "deal", 3, cl.Rules.court_piece()])
def test_anything_but_a_deal_is_refused_with_a_sentence(bad):
    with pytest.raises(ValueError, match="solve\\(\\) takes a Deal, got"):
        solve(bad)


@pytest.mark.parametrize("using", [None, 3, ["dds"], "DDS", "x" * 10_000])
def test_a_wrong_using_is_refused_with_a_short_sentence(using):
    deal = played_to(cl.Rules.court_piece(stop_when_decided=False), 1, 12)
    with pytest.raises(ValueError, match="using is 'auto', 'python' or 'dds'") as got:
        solve(deal, using=using)
    assert len(str(got.value)) < 120


@pytest.mark.parametrize("budget", [0, -5, True, 1.5, "10", math.nan, -math.inf])
def test_a_wrong_budget_is_refused(budget):
    deal = played_to(cl.Rules.court_piece(stop_when_decided=False), 1, 12)
    with pytest.raises(ValueError, match="budget is a number of cards"):
        solve(deal, budget=budget)


def test_the_trump_and_over_phases_are_refused():
    deal = cl.Deal(cl.Rules.double_sir(), dealer=3, seed=1)
    with pytest.raises(ValueError, match="still fixing the trump"):
        solve(deal)
    over = played_to(cl.Rules.double_sir(stop_when_decided=False), 1, 13)
    while over.phase == "play":
        over.play(over.legal_cards()[0])
    with pytest.raises(ValueError, match="over"):
        solve(over)
