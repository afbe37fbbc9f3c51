"""courtlearn.frames: deal.history() and cl.simulate(), the pandas views."""
from __future__ import annotations

import subprocess
import sys

import pytest

import courtlearn as cl
from courtlearn.frames import HISTORY_COLUMNS, SIMULATE_COLUMNS, history, play_out, simulate

pd = pytest.importorskip("pandas")


def worked_example():
    """The Double Sir source's three tricks: A♠ wins; Q♠ trumps the A♥; A♦ takes all three."""
    hands = ["AS AH KD KS JS 10S KH QH JH 2C 3C 4C 5C",
             "3S QS AD 9S 8S 7S 6S 4S 2S 6C 7C 8C 9C",
             "5S 4H 6D 10H 9H 8H 6H 5H 3H 10C JC QC KC",
             "2H 7H 2D AC 3D 4D 5D 7D 8D 9D 10D JD QD"]
    deal = cl.Deal.prearranged(cl.Rules.double_sir(), hands=hands, dealer=3)
    deal.call_trump("S")
    for card in "AS 3S 5S 2H AH QS 4H 7H AD 6D 2D KD".split():
        deal.play(card)
    return deal


def test_history_rows_follow_the_play():
    deal = worked_example()
    h = deal.history()
    assert list(h.columns) == HISTORY_COLUMNS
    assert len(h) == 12
    assert h.trick.tolist() == [1] * 4 + [2] * 4 + [3] * 4
    assert h.card.tolist() == ["A♠", "3♠", "5♠", "2♥", "A♥", "Q♠", "4♥", "7♥",
                               "A♦", "6♦", "2♦", "K♦"]
    assert h.player.tolist()[:4] == ["South", "East", "North", "West"]
    assert h.player.tolist()[8] == "East"          # the winner of trick 2 leads trick 3
    assert h.led.tolist() == ["♠"] * 4 + ["♥"] * 4 + ["♦"] * 4
    assert h.followed.tolist() == [True, True, True, False, True, False, True, True,
                                   True, True, True, True]
    assert h.trumped.tolist() == [False] * 5 + [True] + [False] * 6
    assert h.winner.tolist() == ["South"] * 4 + ["East"] * 8
    assert h.won.tolist().count(True) == 3


def test_history_pile_state_after_each_trick():
    h = worked_example().history()
    per_trick = h.groupby("trick").first()
    assert per_trick.pile.tolist() == ["centre 1", "centre 2", "East–West take 3"]
    assert per_trick.centre.tolist() == [1, 2, 0]
    assert per_trick.tricks_ns.tolist() == [0, 0, 0]
    assert per_trick.tricks_ew.tolist() == [0, 0, 3]


def test_history_open_trick_and_court_piece_piles():
    deal = cl.Deal(cl.Rules.court_piece(), dealer=0, seed=11)
    deal.call_trump("H")
    for _ in range(6):
        deal.play(deal.legal_cards()[0])
    h = history(deal)
    assert len(h) == 6
    done, open_ = h[h.trick == 1], h[h.trick == 2]
    assert done.pile.nunique() == 1
    assert done.pile.iloc[0] == cl.Rules.court_piece().team_name(cl.team_of(deal.tricks[0].winner))
    assert done.centre.iloc[0] == 0
    assert sum(deal.tricks_won) == 1 and (done.tricks_ns.iloc[0], done.tricks_ew.iloc[0]) == deal.tricks_won
    assert open_.winner.isna().all() and open_.pile.isna().all()
    assert history(cl.Deal(cl.Rules.court_piece(), dealer=0, seed=1)).empty


def test_history_matches_the_engine_over_whole_deals():
    for game in ("court_piece", "double_sir", "dehla_pakad"):
        for seed in range(3):
            deal = cl.Deal(getattr(cl.Rules, game)(), dealer=seed, seed=seed)
            play_out(deal, [FirstCardBot()] * 4)
            h = deal.history()
            assert len(h) == 4 * len(deal.tricks)
            last = h.iloc[-1]
            assert (last.tricks_ns, last.tricks_ew) == tuple(deal.tricks_won)
            assert last.centre == len(deal.centre)
            for t in deal.tricks:
                rows = h[h.trick == t.number + 1]
                assert rows.winner.iloc[0] == deal.rules.seat_name(t.winner)
                assert rows[rows.won].card.tolist() == [str(t.winning_card)]


def test_history_trumped_waits_for_a_first_void_trump():
    rules = cl.Rules.court_piece(trump_method="first_void")
    deal = cl.Deal(rules, dealer=0, seed=4)
    play_out(deal, [FirstCardBot()] * 4)
    h = deal.history()
    fixed_in = [e for e in deal.events if e.kind == "trump_fixed"]
    assert fixed_in, "the deal should fix a trump"
    first_trump_trick = h[h.trumped].trick.min()
    # no card counts as a trump before the trick that fixed trumps
    before = h[h.trick < first_trump_trick]
    assert not before.trumped.any()


class FirstCardBot:
    """A tiny deterministic bot, so these tests do not depend on courtlearn.bots."""

    def choose(self, deal):
        return deal.legal_cards()[0]

    def call_trump(self, deal):
        return deal.hand(deal.trump_caller)[0].suit

    def choose_trump_card(self, deal):
        return deal.hand(deal.trump_caller)[0]

    def asks_for_trump(self, deal):
        return True

    def plays_on(self, deal):
        return False

    def defers_trump(self, deal):
        return False


def test_simulate_one_row_per_deal_and_reproducible():
    rules = cl.Rules.court_piece()
    a = simulate(rules, deals=30, seed=5, bots=FirstCardBot(), progress=False)
    b = cl.simulate(rules, deals=30, seed=5, bots=[FirstCardBot()] * 4, progress=False)
    assert list(a.columns) == SIMULATE_COLUMNS and len(a) == 30
    pd.testing.assert_frame_equal(a, b)
    c = simulate(rules, deals=30, seed=6, bots=FirstCardBot(), progress=False)
    assert not a.seed.equals(c.seed)
    assert a.kind.isin(["tricks", "court", "goon", "bavney"]).all()
    assert ((a.tricks_ns >= 7) | (a.tricks_ew >= 7)).all()
    winners_tricks = a.apply(lambda r: r.tricks_ns if r.winner == "North–South" else r.tricks_ew, axis=1)
    assert (winners_tricks >= 7).all()
    assert (a.courts == (a.kind != "tricks").astype(int)).all()
    # each row replays: the same dealer and shuffle give the same result
    for _, row in a.head(5).iterrows():
        deal = cl.Deal(rules, dealer=cl.SEAT_NAMES.index(row.dealer), seed=int(row.seed))
        play_out(deal, [FirstCardBot()] * 4)
        assert (deal.result.tricks[0], deal.result.tricks[1]) == (row.tricks_ns, row.tricks_ew)
        assert rules.seat_name(deal.trump_caller) == row.trump_caller


def test_simulate_tens_and_caller_columns():
    df = simulate(cl.Rules.dehla_pakad(stop_when_decided=False), deals=20, seed=0,
                  bots=FirstCardBot(), progress=False)
    assert ((df.tens_ns + df.tens_ew) == 4).all()
    assert (df.tricks_played == 13).all()
    assert df.kind.isin(["tens", "kot"]).all()
    callers_team = df.trump_caller.map({"South": "North–South", "North": "North–South",
                                        "East": "East–West", "West": "East–West"})
    assert (df.caller_won == (callers_team == df.winner)).all()


def test_simulate_with_the_default_rule_bot():
    bots = pytest.importorskip("courtlearn.bots")
    df = simulate(cl.Rules.double_sir(), deals=10, seed=1, progress=False)
    again = simulate(cl.Rules.double_sir(), deals=10, seed=1, bots=bots.RuleBot(), progress=False)
    pd.testing.assert_frame_equal(df, again)
    assert len(df) == 10


def test_simulate_progress_bar_only_when_asked(capsys):
    simulate(cl.Rules.court_piece(), deals=3, seed=0, bots=FirstCardBot(), progress=False)
    assert capsys.readouterr().err == ""
    simulate(cl.Rules.court_piece(), deals=3, seed=0, bots=FirstCardBot(), progress=True)
    assert "3/3" in capsys.readouterr().err


def test_simulate_refuses_bad_arguments():
    with pytest.raises(ValueError):
        simulate(cl.Rules.court_piece(), deals=-1, progress=False, bots=FirstCardBot())
    with pytest.raises(ValueError, match="list of four"):
        simulate(cl.Rules.court_piece(), deals=1, bots=[FirstCardBot()] * 3, progress=False)
    assert simulate(cl.Rules.court_piece(), deals=0, bots=FirstCardBot(), progress=False).empty


def test_pandas_is_loaded_only_when_used():
    code = ("import sys, courtlearn as cl\n"
            "q = cl.exercises.question('court_or_not', 1); q.check(q.solution)\n"
            "assert 'pandas' not in sys.modules and 'tqdm' not in sys.modules, 'loaded too early'\n"
            "import courtlearn.frames\n"
            "assert 'pandas' not in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


@pytest.mark.parametrize("options", [
    {"trump_method": "hidden"}, {"trump_method": "shown"}, {"trump_method": "hidden_random"},
    {"trump_method": "first_void"}, {"allow_deferred": True},
    {"allow_deferred": True, "deferred_card": "numbered"},
])
def test_simulate_plays_every_trump_variant_to_the_end(options):
    rules = cl.Rules.court_piece(**options)
    df = simulate(rules, deals=8, seed=3, bots=FirstCardBot(), progress=False)
    assert len(df) == 8 and df.winner.notna().all()
    assert ((df.tricks_ns >= 7) | (df.tricks_ew >= 7)).all()
    assert df.trump.notna().all()          # every deal got a trump in the end


class PlaysOnBot(FirstCardBot):
    def plays_on(self, deal):
        return True


def test_simulate_plays_on_after_a_court_when_the_bot_wants_to():
    rules = cl.Rules.court_piece()
    plain = simulate(rules, deals=60, seed=8, bots=FirstCardBot(), progress=False)
    on = simulate(rules, deals=60, seed=8, bots=PlaysOnBot(), progress=False)
    courts = plain.kind.isin(["court", "goon"])
    assert courts.any()
    assert (plain[courts].tricks_played == 7).all()
    assert (on[courts].tricks_played > 7).all()
    assert (on[~courts].tricks_played == plain[~courts].tricks_played).all()


def test_history_marks_the_recorded_revoke():
    rules = cl.Rules.court_piece(revokes="allowed")
    hands = ["KH AH AS KS QS JS 10S 9S 8S 7S 6S 5S 4S",
             "2C 5H 3S 2S AC KC QC JC 10C 9C 8C 7C 6C",
             "6H 7H 3H 4H 2H 5C 4C 3C AD 2D 3D 4D 5D",
             "9H 10H JH QH 8H 6D 7D 8D 9D 10D JD QD KD"]
    deal = cl.Deal.prearranged(rules, hands=hands, dealer=3)
    deal.call_trump("S")
    for card in "KH 2C 6H 9H AH 5H 7H 10H".split():   # East throws 2♣ holding 5♥
        deal.play(card)
    h = deal.history()
    assert h.revoke.tolist() == [False, True] + [False] * 6
    assert h[h.revoke].player.tolist() == ["East"]
