"""Black-box audit of sessions, bots, hints, data, exercises and widgets against
the contract: RULES.md sections 7 (streak), 8 (who deals next), 9 (a session) and
API.md "A session", "Bots, hints, data", "Exercises", "Widgets" (Python side).

Every expected value here is worked out from RULES.md / API.md, never copied
from what the package prints. Deals in a session are shuffled and there is no
public way to start a session from a prearranged deal, so the tests *steer*
each deal through the public API (call a trump, choose every card) until it
ends the way the test needs; a few session seeds whose first deal allows a
clean sweep of all thirteen tricks were found by a search and are checked
again here (the search is re-run, so a changed shuffle fails loudly).
"""
from __future__ import annotations

import json
import random
import re
import subprocess
import sys

import pytest

import courtlearn as cl

CP = cl.Rules.court_piece()
CP_REV = cl.Rules.court_piece(revokes="allowed")
DS = cl.Rules.double_sir()
DP = cl.Rules.dehla_pakad()

SEAT_WORDS = ("South", "East", "North", "West")    # RULES.md 1, anticlockwise (default)


# ----------------------------------------------------------------------------- the spec, as I read it
def expected_next_dealer(dealer: int, winner: int, court: bool) -> int:
    """RULES.md 8: the dealer always comes from the team that lost."""
    if winner == dealer % 2:          # the dealer's team won: pass to the next seat
        return (dealer + 1) % 4
    if not court:                     # trump caller's team won without a court: same dealer
        return dealer
    return (dealer + 2) % 4           # ... with a court of any kind: the dealer's partner


class Model:
    """RULES.md 7 (streak) + 8 + 9 computed from the results of the deals."""

    def __init__(self, first_dealer):
        self.dealer = first_dealer
        self.courts = [0, 0]
        self.streak = (None, 0)

    def add(self, result):
        w = result.winner
        court = result.courts > 0
        if court:
            self.courts[w] += result.courts
            self.streak = (None, 0)
        else:
            team, n = self.streak
            n = n + 1 if team == w else 1
            self.streak = (w, n)
            if n == 7:
                self.courts[w] += 1
                court = True
                self.streak = (None, 0)
        self.dealer = expected_next_dealer(self.dealer, w, court)


# ----------------------------------------------------------------------------- steering deals
def _strength(deal):
    return lambda c: (c.suit == deal.trump, c.rank)


def _playout(start, team, rng, early, greed, suit, play_on):
    d = cl.Deal.from_dict(start)
    moves = []
    if d.phase == "trump":
        d.call_trump(suit)
        moves.append(("call", suit))
    while True:
        if d.phase == "over":
            if play_on and d.can_play_on():
                d.play_on()
                moves.append(("play_on", None))
                continue
            break
        legal = d.legal_cards()
        fav = team if len(d.tricks) >= early else 1 - team
        pick = max if d.to_play % 2 == fav else min
        card = pick(legal, key=_strength(d)) if rng.random() < greed else rng.choice(legal)
        d.play(card)
        moves.append(("play", card))
    return d, moves


def steer(deal, team, want, attempts=400, seed=0, play_on=False):
    """Play `deal` (from its trump phase) to an end where want(result) holds.

    Random-ish playouts on copies (Deal.from_dict): `team` plays high, the
    other side low (the other side favoured for the first few tricks in some
    tries); the first playout that works is replayed on `deal` itself."""
    rng = random.Random(seed)
    start = deal.to_dict()
    for i in range(attempts):
        suit = "SHCD"[i % 4]
        early = 0 if i % 3 == 0 else rng.randrange(1, 5)
        greed = 1.0 if i < 12 else rng.choice([0.95, 0.85, 0.7])
        d, moves = _playout(start, team, rng, early, greed, suit, play_on)
        if want(d.result):
            for what, x in moves:
                if what == "call":
                    deal.call_trump(x)
                elif what == "play":
                    deal.play(x)
                else:
                    deal.play_on()
            assert deal.phase == "over" and deal.result == d.result
            return deal.result
    raise AssertionError("could not steer the deal to the wanted end")


def win(s, team):
    """`team` wins the session's current deal, without a court."""
    r = steer(s.deal, team, lambda r: r.winner == team and r.courts == 0)
    assert r.kind in ("tricks", "tens")
    return r


def sweep(deal, team, want, budget=20000):
    """Depth-first search (with deal.undo) for a line where `team` wins every trick;
    the other side plays its lowest card (discarding a non-trump when void)."""
    nodes = [0]

    def low(d):
        legal = d.legal_cards()
        led = d.trick.cards[0][1].suit if d.trick.cards else None
        if led is not None and any(c.suit == led for c in legal):
            pool = legal
        else:
            pool = [c for c in legal if c.suit != d.trump] or legal
        return [min(pool, key=_strength(d))]

    def rec(d):
        nodes[0] += 1
        if nodes[0] > budget:
            return False
        if d.phase == "over":
            if want(d.result):
                return True
            if d.can_play_on():
                d.play_on()
                if rec(d):
                    return True
                d.undo()
            return False
        ours = d.to_play % 2 == team
        cands = sorted(d.legal_cards(), key=_strength(d), reverse=True) if ours else low(d)
        for c in cands:
            n = len(d.tricks)
            d.play(c)
            if len(d.tricks) > n and d.tricks[-1].winner % 2 != team:
                d.undo()
                continue
            if rec(d):
                return True
            d.undo()
        return False

    for suit in "SHCD":
        deal.call_trump(suit)
        if rec(deal):
            return deal.result
        deal.undo()
    raise AssertionError("no sweep found (has the shuffle changed? re-run the seed search)")


def revoke_and_claim(deal, claiming_team):
    """A player of the other side revokes, the trick completes (established), and the
    next player (of `claiming_team`) claims it."""
    if deal.phase == "trump":
        deal.call_trump("H")
    revoker = None
    while revoker is None:
        assert deal.phase == "play", "the deal ended before anyone could revoke"
        seat = deal.to_play
        legal = deal.legal_cards()
        off = [c for c in deal.hand(seat) if c not in legal]
        if seat % 2 != claiming_team and deal.trick.cards and off:
            deal.play(off[0])
            revoker = seat
        else:
            deal.play(min(legal, key=_strength(deal)))
    while deal.trick.cards:
        deal.play(deal.legal_cards()[0])
    assert deal.phase == "play"
    deal.claim_revoke((revoker + 1) % 4)
    r = deal.result
    # RULES.md 5: the deal ends at once and the claimer's team scores one court
    assert deal.phase == "over" and r.winner == claiming_team and r.courts == 1 and r.kind == "revoke"
    return r


def advance(s):
    old = s.deal
    s.next_deal()
    assert s.deal is not old and s.deal.phase == "trump"
    return s.deal.dealer


# ============================================================================ A session (RULES 9, API)
def test_first_dealer_given_or_random_from_seed():
    for dealer in range(4):
        assert cl.Session(CP, seed=5, dealer=dealer).deal.dealer == dealer
    firsts = [cl.Session(CP, seed=k).deal.dealer for k in range(40)]
    assert firsts == [cl.Session(CP, seed=k).deal.dealer for k in range(40)]   # seeded
    assert set(firsts) == {0, 1, 2, 3}                                           # random


def test_fresh_session_state():
    s = cl.Session(CP, seed=4, dealer=2)
    assert isinstance(s.deal, cl.Deal) and s.deal.dealer == 2 and s.deal.phase == "trump"
    assert tuple(s.courts) == (0, 0)
    assert tuple(s.streak) == (None, 0)
    assert list(s.results) == []
    assert s.over is False


def test_next_deal_refused_until_the_deal_is_finished():
    s = cl.Session(CP, seed=6, dealer=0)
    with pytest.raises(ValueError):
        s.next_deal()                      # trump phase
    s.deal.call_trump("D")
    for _ in range(5):
        s.deal.play(s.deal.legal_cards()[0])
    before = s.deal.to_dict()
    deal = s.deal
    with pytest.raises(ValueError):
        s.next_deal()                      # mid-play
    assert s.deal is deal and s.deal.to_dict() == before
    assert list(s.results) == [] and tuple(s.courts) == (0, 0)


def test_results_are_the_deal_results_in_order():
    s = cl.Session(CP, seed=7, dealer=1)
    r1 = win(s, 0)
    advance(s)
    r2 = win(s, 1)
    assert list(s.results) == [r1, r2]
    assert all(isinstance(r, cl.DealResult) for r in s.results)


def test_a_scored_deal_stays_scored():
    s = cl.Session(CP, seed=7, dealer=1)
    old = s.deal
    win(s, 0)
    s.next_deal()
    old.undo()                                # someone takes back a card of the old deal
    assert tuple(s.streak) == (0, 1) and len(s.results) == 1


# ----------------------------------------------------------------------------- section 8
@pytest.mark.parametrize("dealer", range(4))
def test_dealers_team_won_deal_passes_to_next_seat(dealer):
    s = cl.Session(CP, seed=30 + dealer, dealer=dealer)
    win(s, dealer % 2)
    assert advance(s) == (dealer + 1) % 4
    assert s.deal.trump_caller == (dealer + 2) % 4    # the old trump caller deals


@pytest.mark.parametrize("dealer", range(4))
def test_callers_team_won_without_court_same_dealer(dealer):
    s = cl.Session(CP, seed=40 + dealer, dealer=dealer)
    win(s, (dealer + 1) % 2)
    assert advance(s) == dealer


@pytest.mark.parametrize("dealer", range(4))
def test_callers_team_court_in_the_deal_partner_deals(dealer):
    s = cl.Session(CP, seed=50 + dealer, dealer=dealer)
    team = (dealer + 1) % 2
    r = steer(s.deal, team, lambda r: r.winner == team and r.kind == "court")
    assert r.courts == 1
    assert tuple(s.courts) == tuple(1 if t == team else 0 for t in (0, 1))
    assert advance(s) == (dealer + 2) % 4


@pytest.mark.parametrize("dealer", [0, 3])
def test_goon_court_counts_one_and_deal_passes_on(dealer):
    s = cl.Session(CP, seed=60 + dealer, dealer=dealer)
    team = dealer % 2
    r = steer(s.deal, team, lambda r: r.winner == team and r.courts > 0)
    assert (r.kind, r.courts) == ("goon", 1)                # RULES 7: still one court
    assert s.courts[team] == 1 and s.courts[1 - team] == 0
    assert advance(s) == (dealer + 1) % 4


@pytest.mark.parametrize("dealer", range(4))
def test_revoke_claim_by_callers_team_partner_deals(dealer):
    s = cl.Session(CP_REV, seed=70 + dealer, dealer=dealer)
    team = (dealer + 1) % 2
    revoke_and_claim(s.deal, team)
    assert s.courts[team] == 1 and s.courts[1 - team] == 0
    assert advance(s) == (dealer + 2) % 4


@pytest.mark.parametrize("dealer", range(4))
def test_revoke_claim_by_dealers_team_passes_on(dealer):
    s = cl.Session(CP_REV, seed=80 + dealer, dealer=dealer)
    team = dealer % 2
    revoke_and_claim(s.deal, team)
    assert s.courts[team] == 1
    assert advance(s) == (dealer + 1) % 4


def test_double_sir_dealers_team_goon_worth_goon_courts():
    # seed found by search: team 0 can take all thirteen tricks in the first deal
    for goon, extra in ((3, {}), (10, {"goon_courts": 10})):
        s = cl.Session(cl.Rules.double_sir(**extra), seed=2220, dealer=0)
        r = sweep(s.deal, 0, lambda r: r.kind == "goon")
        assert r.winner == 0 and r.courts == goon
        assert tuple(s.courts) == (goon, 0)
        assert tuple(s.streak) == (None, 0)
        assert advance(s) == 1                         # the dealer's team won: passes on


def test_double_sir_court_by_callers_team_partner_deals():
    s = cl.Session(DS, seed=111, dealer=1)               # caller is seat 2 (team 0)
    r = sweep(s.deal, 0, lambda r: r.courts > 0)
    assert (r.winner, r.kind, r.courts) == (0, "court", 1)
    assert tuple(s.courts) == (1, 0)
    assert advance(s) == 3                                 # partner of seat 1


@pytest.mark.parametrize("dealer", [0, 1])
def test_dehla_pakad_kot_is_a_court(dealer):
    team = (dealer + 1) % 2                                 # the trump caller's team
    s = cl.Session(DP, seed=90 + dealer, dealer=dealer)
    r = steer(s.deal, team, lambda r: r.winner == team and r.tens[team] == 4, attempts=800)
    assert (r.kind, r.courts) == ("kot", 1)
    assert s.courts[team] == 1
    assert advance(s) == (dealer + 2) % 4


@pytest.mark.parametrize("dealer", [0, 1])
def test_dehla_pakad_tens_win_dealer_rules(dealer):
    s = cl.Session(DP, seed=95 + dealer, dealer=dealer)
    win(s, dealer % 2)
    assert advance(s) == (dealer + 1) % 4
    caller_team = s.deal.dealer % 2 ^ 1
    d = s.deal.dealer
    win(s, caller_team)
    assert advance(s) == d


# ----------------------------------------------------------------------------- section 7: the streak
def test_streak_counts_and_restarts_at_one_for_the_other_team():
    s = cl.Session(CP, seed=100, dealer=1)
    win(s, 0)
    assert tuple(s.streak) == (0, 1)
    advance(s)
    win(s, 0)
    assert tuple(s.streak) == (0, 2)
    advance(s)
    win(s, 1)
    assert tuple(s.streak) == (1, 1)
    assert tuple(s.courts) == (0, 0)


def test_seventh_deal_of_a_streak_scores_a_court_resets_and_partner_deals():
    s = cl.Session(CP, seed=110, dealer=1)    # team 0 calls trumps: the same dealer keeps dealing
    for n in range(1, 7):
        win(s, 0)
        assert tuple(s.streak) == (0, n) and tuple(s.courts) == (0, 0)
        assert advance(s) == 1
    r = win(s, 0)
    assert r.courts == 0                       # API: a streak court is not in the deal's result
    assert tuple(s.courts) == (1, 0)
    assert tuple(s.streak) == (None, 0)
    # RULES 8: the trump caller's team won with a court (the seventh deal of a streak)
    assert advance(s) == 3
    win(s, 0)
    assert tuple(s.streak) == (0, 1) and tuple(s.courts) == (1, 0)


def test_streak_counts_deals_whoever_dealt():
    s = cl.Session(CP, seed=120, dealer=1)
    win(s, 1)                                   # the dealer's team (1) wins: dealer 2 next
    assert advance(s) == 2
    for n in range(2, 7):
        win(s, 1)
        assert tuple(s.streak) == (1, n)
        assert advance(s) == 2
    win(s, 1)
    assert tuple(s.courts) == (0, 1) and tuple(s.streak) == (None, 0)
    assert advance(s) == 0


def test_a_deal_scoring_a_court_does_not_count_towards_the_streak():
    s = cl.Session(CP_REV, seed=130, dealer=1)
    for _ in range(6):
        win(s, 0)
        advance(s)
    assert tuple(s.streak) == (0, 6)
    revoke_and_claim(s.deal, 0)              # the 7th deal in a row, but itself a court
    assert tuple(s.courts) == (1, 0)         # one court, not two
    assert tuple(s.streak) == (None, 0)
    assert advance(s) == 3


def test_a_court_by_the_other_team_resets_the_streak_to_zero():
    s = cl.Session(CP_REV, seed=140, dealer=1)
    for n in range(3):
        win(s, 0)
        advance(s)
    assert tuple(s.streak) == (0, 3)
    revoke_and_claim(s.deal, 1)              # dealer 1's team claims: a court for team 1
    assert tuple(s.courts) == (0, 1) and tuple(s.streak) == (None, 0)
    assert advance(s) == 2
    win(s, 0)                                # restarts at one, the old three are gone
    assert tuple(s.streak) == (0, 1)


def test_court_in_the_deal_resets_the_streak():
    s = cl.Session(CP, seed=150, dealer=1)
    win(s, 0)
    advance(s)
    win(s, 0)
    advance(s)
    steer(s.deal, 0, lambda r: r.winner == 0 and r.kind == "court")
    assert tuple(s.streak) == (None, 0) and tuple(s.courts) == (1, 0)


def test_session_follows_the_rules_over_many_bot_deals():
    s = cl.Session(CP, seed=160, dealer=2)
    model = Model(2)
    bot = cl.bots.RuleBot()
    for _ in range(25):
        assert s.deal.dealer == model.dealer
        d = s.deal
        while d.phase != "over":
            if d.phase == "trump":
                d.call_trump(bot.call_trump(d))
            else:
                d.play(bot.choose(d))
        model.add(d.result)
        assert tuple(s.courts) == tuple(model.courts)
        assert tuple(s.streak) == model.streak
        s.next_deal()
    assert s.deal.dealer == model.dealer


# ----------------------------------------------------------------------------- bavney and the end
def test_bavney_counts_52_courts_in_the_session():
    s = cl.Session(CP, seed=111, dealer=1, target_courts=10)
    r = sweep(s.deal, 0, lambda r: r.kind == "bavney")
    assert r.winner == 0 and r.courts == 52
    assert tuple(s.courts) == (52, 0)
    assert s.over is True and s.winner == 0


def test_bavney_next_dealer_is_a_court():
    s = cl.Session(CP, seed=111, dealer=1)
    sweep(s.deal, 0, lambda r: r.kind == "bavney")
    assert advance(s) == 3


def test_bavney_by_the_dealers_team_counts_52_and_passes_on():
    s = cl.Session(CP, seed=2220, dealer=0)
    r = sweep(s.deal, 0, lambda r: r.courts > 0 and len(s.deal.tricks) == 13)
    assert (r.winner, r.courts) == (0, 52)
    assert tuple(s.courts) == (52, 0)
    assert advance(s) == 1


def test_failed_play_on_costs_nothing_in_the_session():
    s = cl.Session(CP, seed=52, dealer=0)                 # seat 1 calls: team 1
    steer(s.deal, 1, lambda r: r.winner == 1 and r.kind == "court")
    assert tuple(s.courts) == (0, 1)
    s.deal.play_on()
    assert s.deal.phase == "play"
    with pytest.raises(ValueError):
        s.next_deal()                                      # reopened: not finished
    while s.deal.phase == "play":                         # team 0 now takes a trick
        d = s.deal
        pick = max if d.to_play % 2 == 0 else min
        d.play(pick(d.legal_cards(), key=_strength(d)))
    r = s.deal.result
    assert r.winner == 1 and r.courts == 1 and r.tricks[0] > 0
    assert tuple(s.courts) == (0, 1)
    assert advance(s) == 2


def test_session_ends_after_the_agreed_number_of_deals():
    s = cl.Session(CP, seed=170, dealer=1, deals=2)
    win(s, 0)
    assert s.over is False
    advance(s)
    assert s.over is False
    win(s, 1)
    assert s.over is True
    assert len(s.results) == 2


def test_session_ends_at_target_courts_and_the_team_with_more_courts_wins():
    s = cl.Session(CP_REV, seed=180, dealer=1, target_courts=2)
    win(s, 1)
    advance(s)
    revoke_and_claim(s.deal, 0)
    assert s.over is False and tuple(s.courts) == (1, 0)
    advance(s)
    revoke_and_claim(s.deal, 0)
    assert tuple(s.courts) == (2, 0)
    assert s.over is True
    assert s.winner == 0


def test_more_courts_wins_even_with_fewer_deals_won():
    s = cl.Session(CP_REV, seed=190, dealer=0, deals=3)
    win(s, 1)
    advance(s)
    win(s, 1)
    advance(s)
    revoke_and_claim(s.deal, 0)
    assert s.over and tuple(s.courts) == (1, 0) and s.winner == 0


def test_no_courts_is_a_draw():
    s = cl.Session(CP, seed=200, dealer=0, deals=1)
    win(s, 0)
    assert s.over is True and tuple(s.courts) == (0, 0)
    assert s.winner is None


def test_equal_courts_is_a_draw():
    s = cl.Session(CP_REV, seed=210, dealer=0, deals=2)
    revoke_and_claim(s.deal, 0)
    advance(s)
    revoke_and_claim(s.deal, 1)
    assert s.over and tuple(s.courts) == (1, 1) and s.winner is None


# ----------------------------------------------------------------------------- session sentences
def test_session_events_are_sentences_about_courts_streaks_and_the_next_dealer():
    s = cl.Session(CP_REV, seed=220, dealer=1)
    win(s, 0)
    texts = [e.text for e in s.events]
    assert texts and all(isinstance(t, str) and t.strip() for t in texts)
    joined = " ".join(texts)
    assert "East" in joined                    # the same dealer (seat 1 = East) deals again
    assert "streak" in joined.lower() or "in a row" in joined.lower()
    advance(s)
    revoke_and_claim(s.deal, 0)
    texts2 = [e.text for e in s.events]
    assert len(texts2) > len(texts)
    new = " ".join(texts2[len(texts):])
    assert "court" in new.lower()
    assert "West" in new                       # the dealer's partner (seat 3) deals next


def test_session_sentences_use_clockwise_seat_names():
    s = cl.Session(cl.Rules.court_piece(direction="clockwise"), seed=230, dealer=1)
    win(s, 0)                                  # seat 1 is West when play passes clockwise
    joined = " ".join(e.text for e in s.events)
    assert "West deals again" in joined or ("West" in joined and "again" in joined)


# ============================================================================ bots
HIDDEN = ("hidden", "hidden_random")

BOT_RULES = [
    cl.Rules.court_piece(),
    cl.Rules.double_sir(trump_method="shown"),
    cl.Rules.dehla_pakad(trump_method="hidden"),
    cl.Rules.court_piece(trump_method="hidden_random"),
    cl.Rules.double_sir(trump_method="first_void"),
    cl.Rules.dehla_pakad(trump_method="first_void"),
    cl.Rules.court_piece(allow_deferred=True, deferred_card="numbered"),
    cl.Rules.double_sir(allow_deferred=True),
]


def _cannot_follow(deal):
    if not deal.trick.cards:
        return False
    led = deal.trick.cards[0][1].suit
    return not any(c.suit == led for c in deal.hand(deal.to_play))


def drive_with_bot(deal, bot, stop_after=None):
    """Play a deal asking `bot` every decision; each answer must be a legal one."""
    rules = deal.rules
    played = 0
    for _ in range(200):
        if deal.phase == "over":
            if deal.can_play_on():
                p = bot.plays_on(deal)
                assert isinstance(p, bool)
                if p:
                    deal.play_on()
                    continue
            return
        if deal.phase == "trump":
            caller = deal.trump_caller
            if rules.allow_deferred:
                d = bot.defers_trump(deal)
                assert isinstance(d, bool)
                if d:
                    deal.defer_trump(6 if rules.deferred_card == "numbered" else None)
                    continue
            if rules.trump_method in ("shown", "hidden"):
                card = bot.choose_trump_card(deal)
                assert isinstance(card, cl.Card) and card in deal.hand(caller)
                deal.choose_trump_card(card)
            else:
                suit = bot.call_trump(deal)
                assert isinstance(suit, cl.Suit)
                deal.call_trump(suit)
            continue
        if rules.trump_method in HIDDEN and deal.trump is None and _cannot_follow(deal):
            a = bot.asks_for_trump(deal)
            assert isinstance(a, bool)
            if a:
                deal.ask_for_trump()            # must not be refused
        card = bot.choose(deal)
        assert isinstance(card, cl.Card)
        assert card in deal.legal_cards(), (card, deal.legal_cards())
        deal.play(card)
        played += 1
        if stop_after is not None and played >= stop_after:
            return
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize("rules", BOT_RULES, ids=lambda r: f"{r.game}-{r.trump_method}-{r.allow_deferred}")
@pytest.mark.parametrize("which", ["random", "rule"])
def test_bots_give_legal_answers(rules, which):
    for k in range(3):
        bot = cl.bots.RandomBot(seed=k) if which == "random" else cl.bots.RuleBot()
        deal = cl.Deal(rules, dealer=k, seed=300 + k)
        drive_with_bot(deal, bot)
        assert deal.phase == "over" and deal.result is not None


@pytest.mark.parametrize("rules", [BOT_RULES[0], BOT_RULES[2], BOT_RULES[6]],
                         ids=["called", "hidden", "deferred"])
def test_montecarlo_bot_gives_legal_answers(rules):
    bot = cl.bots.MonteCarloBot(samples=6, seed=1)
    deal = cl.Deal(rules, dealer=2, seed=310)
    drive_with_bot(deal, bot, stop_after=10)


def test_bots_play_on_only_answers_a_bool_after_a_court():
    s = cl.Session(CP, seed=62, dealer=0)
    steer(s.deal, 1, lambda r: r.kind == "court")
    assert s.deal.can_play_on()
    for bot in (cl.bots.RandomBot(seed=0), cl.bots.RuleBot(), cl.bots.MonteCarloBot(samples=4, seed=0)):
        assert isinstance(bot.plays_on(s.deal), bool)


def test_randombot_is_reproducible_from_its_seed():
    a = cl.Deal(CP, dealer=0, seed=5)
    b = cl.Deal(CP, dealer=0, seed=5)
    drive_with_bot(a, cl.bots.RandomBot(seed=3))
    drive_with_bot(b, cl.bots.RandomBot(seed=3))
    assert a.to_dict() == b.to_dict()


# ----------------------------------------------------------------------------- hint
def _midway(rules=CP, seed=11, cards=6):
    deal = cl.Deal(rules, dealer=3, seed=seed)
    deal.call_trump("S")
    for _ in range(cards):
        deal.play(deal.legal_cards()[-1])
    return deal


def test_hint_suggests_a_legal_card_with_reason_and_chances():
    deal = _midway(cards=5)                      # mid-trick: following suit
    before = deal.to_dict()
    h = cl.hint(deal)
    legal = deal.legal_cards()
    assert h.card in legal
    assert isinstance(h.text, str) and h.text.strip()
    assert isinstance(h.chances, dict) and h.chances
    assert set(h.chances) <= set(legal) and h.card in h.chances
    assert all(isinstance(c, cl.Card) and 0.0 <= p <= 1.0 for c, p in h.chances.items())
    assert deal.to_dict() == before              # a hint changes nothing
    h2 = cl.hint(deal, seat=deal.to_play)
    assert h2.card in legal


def test_hint_on_a_lead_with_many_options():
    deal = _midway(cards=8)
    assert not deal.trick.cards
    h = cl.hint(deal)
    assert h.card in deal.legal_cards()
    assert set(h.chances) == set(deal.legal_cards())


# ----------------------------------------------------------------------------- history, simulate
def test_history_one_row_per_card_played():
    deal = cl.Deal(DS, dealer=1, seed=17)
    assert len(deal.history()) == 0 or deal.history().shape[0] == 0
    deal.call_trump("C")
    n = 0
    while deal.phase == "play":
        deal.play(deal.legal_cards()[0])
        n += 1
        if n in (3, 9):
            assert len(deal.history()) == n
    assert len(deal.history()) == n == sum(len(t.cards) for t in deal.tricks) + len(deal.trick.cards)


def test_simulate_one_row_per_deal_and_deterministic():
    import pandas as pd
    a = cl.simulate(CP, deals=6, seed=4, progress=False)
    b = cl.simulate(CP, deals=6, seed=4, progress=False)
    assert isinstance(a, pd.DataFrame) and len(a) == 6
    pd.testing.assert_frame_equal(a, b)
    c = cl.simulate(DS, deals=3, seed=4, bots=cl.bots.RandomBot(seed=2), progress=False)
    d = cl.simulate(DS, deals=3, seed=4, bots=cl.bots.RandomBot(seed=2), progress=False)
    assert len(c) == 3
    pd.testing.assert_frame_equal(c, d)
    four = [cl.bots.RandomBot(seed=1), cl.bots.RuleBot(), cl.bots.RandomBot(seed=2), cl.bots.RuleBot()]
    e = cl.simulate(DP, deals=4, seed=9, bots=four, progress=False)
    assert len(e) == 4


def test_simulate_with_the_same_bot_object_twice_is_deterministic():
    import pandas as pd
    bot = cl.bots.RandomBot(seed=2)
    a = cl.simulate(CP, deals=5, seed=1, bots=bot, progress=False)
    b = cl.simulate(CP, deals=5, seed=1, bots=bot, progress=False)
    pd.testing.assert_frame_equal(a, b)


# ============================================================================ exercises
def test_kinds_are_the_seven_of_the_api():
    assert set(cl.exercises.KINDS) == {"trick_winner", "legal_cards", "spot_the_revoke",
                                       "pile_capture", "court_or_not", "next_dealer",
                                       "tens_winner"}
    assert len(cl.exercises.KINDS) == 7


@pytest.mark.parametrize("kind", ["trick_winner", "legal_cards", "spot_the_revoke", "pile_capture",
                                  "court_or_not", "next_dealer", "tens_winner"])
def test_question_check_never_raises_and_prints(kind, capsys, monkeypatch):
    monkeypatch.delenv("COURTLEARN_STRICT", raising=False)
    for q in (cl.exercises.question(kind, 1), cl.exercises.question(kind, seed=7)):
        assert repr(q)                                       # shows the table and the question
        fb = q.check(...)
        out = capsys.readouterr().out
        assert "Not answered yet" in out and not fb
        for wrong in ("zzz nonsense", 12345, ["QQ"], object()):
            fb = q.check(wrong)
            out = capsys.readouterr().out
            assert "Not yet" in out and not fb
    # the same seed gives the same question, endless
    assert repr(cl.exercises.question(kind, seed=7)) == repr(cl.exercises.question(kind, seed=7))


@pytest.mark.parametrize("kind", ["trick_winner", "next_dealer"])
def test_strict_mode_raises_on_wrong_or_missing(kind, monkeypatch, capsys):
    monkeypatch.setenv("COURTLEARN_STRICT", "1")
    q = cl.exercises.question(kind, 1)
    with pytest.raises(AssertionError):
        q.check(...)
    with pytest.raises(AssertionError):
        q.check("zzz nonsense")


def _seat_of_word(word):
    return SEAT_WORDS.index(word)


def _trick_winner(cards, trump):
    """RULES.md 4: highest trump, else highest card of the suit led."""
    led = cards[0][1].suit
    trumps = [sc for sc in cards if trump is not None and sc[1].suit == trump]
    pool = trumps or [sc for sc in cards if sc[1].suit == led]
    return max(pool, key=lambda sc: sc[1].rank)


def _ask(q, answer, monkeypatch, capsys):
    monkeypatch.setenv("COURTLEARN_STRICT", "1")
    fb = q.check(answer)                      # strict: a wrong answer would raise
    out = capsys.readouterr().out
    assert "Correct" in out and fb
    monkeypatch.delenv("COURTLEARN_STRICT")


@pytest.mark.parametrize("n,seed", [(1, None), (2, None), (3, None), (None, 1), (None, 5), (None, 23)])
def test_trick_winner_answers_from_the_rules(n, seed, monkeypatch, capsys):
    q = cl.exercises.question("trick_winner", n) if seed is None else \
        cl.exercises.question("trick_winner", seed=seed)
    text = repr(q)
    m = re.search(r"Then (\w+) plays (\S+?) to complete", text)
    cards = list(q.deal.trick.cards)
    if m:
        cards.append((_seat_of_word(m.group(1)), cl.Card.parse(m.group(2))))
    assert len(cards) == 4
    _, card = _trick_winner(cards, q.deal.trump)
    _ask(q, card.code, monkeypatch, capsys)


@pytest.mark.parametrize("n,seed", [(1, None), (2, None), (3, None), (None, 2), (None, 5)])
def test_legal_cards_answers_from_the_rules(n, seed, monkeypatch, capsys):
    q = cl.exercises.question("legal_cards", n) if seed is None else \
        cl.exercises.question("legal_cards", seed=seed)
    m = re.search(r"Which cards may (\w+) play now", repr(q))
    seat = _seat_of_word(m.group(1))
    hand = q.deal.hand(seat)
    if q.deal.trick.cards:
        led = q.deal.trick.cards[0][1].suit
        follow = [c for c in hand if c.suit == led]
        legal = follow or hand
    else:
        legal = hand
    _ask(q, " ".join(c.code for c in legal), monkeypatch, capsys)


@pytest.mark.parametrize("n,seed", [(1, None), (2, None), (3, None), (4, None), (None, 3), (None, 5)])
def test_next_dealer_answers_from_the_rules(n, seed, monkeypatch, capsys):
    q = cl.exercises.question("next_dealer", n) if seed is None else \
        cl.exercises.question("next_dealer", seed=seed)
    text = repr(q)
    r = q.deal.result
    assert r is not None
    if "streak" in text.lower():
        pytest.skip("the question involves a streak told in words")
    want = expected_next_dealer(q.deal.dealer, r.winner, r.courts > 0)
    _ask(q, SEAT_WORDS[want], monkeypatch, capsys)


@pytest.mark.parametrize("n,seed", [(1, None), (2, None), (3, None), (4, None), (None, 2), (None, 5)])
def test_tens_winner_answers_from_the_rules(n, seed, monkeypatch, capsys):
    q = cl.exercises.question("tens_winner", n) if seed is None else \
        cl.exercises.question("tens_winner", seed=seed)
    deal = q.deal
    tens = deal.result.tens
    dealers = deal.dealer % 2
    non = 1 - dealers
    if 4 in tens:
        want = tens.index(4)
    elif tens[non] in (2, 3) and not (tens[non] == 2 and deal.rules.tens_tie == "tricks"):
        want = non
    elif tens[non] == 2:
        t = deal.result.tricks
        want = 0 if t[0] > t[1] else 1
    else:
        want = dealers
    _ask(q, ("North–South", "East–West")[want], monkeypatch, capsys)


@pytest.mark.parametrize("n,seed", [(1, None), (2, None), (3, None), (4, None), (None, 2), (None, 5)])
def test_court_or_not_answers_from_the_rules(n, seed, monkeypatch, capsys):
    q = cl.exercises.question("court_or_not", n) if seed is None else \
        cl.exercises.question("court_or_not", seed=seed)
    deal = q.deal
    first7 = {t.winner % 2 for t in deal.tricks[:7]}
    if len(deal.tricks) >= 7 and len(first7) == 1:
        team = first7.pop()
        want = "goon court" if team == deal.dealer % 2 else "court"
    else:
        want = "no court"
    _ask(q, want, monkeypatch, capsys)


@pytest.mark.parametrize("n,seed", [(1, None), (2, None), (3, None), (None, 4), (None, 5)])
def test_spot_the_revoke_answers_from_the_rules(n, seed, monkeypatch, capsys):
    q = cl.exercises.question("spot_the_revoke", n) if seed is None else \
        cl.exercises.question("spot_the_revoke", seed=seed)
    deal = q.deal
    tricks = list(deal.tricks) + ([deal.trick] if deal.trick.cards else [])
    revokers = []
    for i, t in enumerate(tricks):
        led = t.cards[0][1].suit
        for seat, card in t.cards[1:]:
            if card.suit == led:
                continue
            later = [c for u in tricks[i + 1:] for s2, c in u.cards if s2 == seat]
            held = list(deal.hand(seat)) + later
            if any(c.suit == led for c in held):
                revokers.append(seat)
    want = SEAT_WORDS[revokers[0]] if revokers else "nobody"
    _ask(q, want, monkeypatch, capsys)


@pytest.mark.parametrize("n,seed", [(1, None), (2, None), (3, None), (None, 1), (None, 5), (None, 8)])
def test_pile_capture_answers_from_the_rules(n, seed, monkeypatch, capsys):
    q = cl.exercises.question("pile_capture", n) if seed is None else \
        cl.exercises.question("pile_capture", seed=seed)
    deal = q.deal
    r = deal.rules
    assert r.first_two_capture and r.aces_capture and r.trump_method != "first_void"
    m = re.search(r"Then (\w+) plays (\S+?) to complete", repr(q))
    cards = list(deal.trick.cards) + [(_seat_of_word(m.group(1)), cl.Card.parse(m.group(2)))]
    w, _ = _trick_winner(cards, deal.trump)
    done = list(deal.tricks)
    if len(done) == 12:
        want = SEAT_WORDS[w]                           # the 13th trick takes what is left
    elif done and done[-1].winner == w and deal.centre and deal.centre[-1] == done[-1]:
        want = SEAT_WORDS[w]                           # two in a row, the first still in the centre
    else:
        want = "nobody"
    _ask(q, want, monkeypatch, capsys)


# ============================================================================ widgets (Python side)
CODE = re.compile(r"^(10|[2-9JQKA])[SHCD]$")
PRETTY = re.compile(r"(10|[2-9JQKA])([♠♥♣♦])")
SUIT_OF = {"♠": "S", "♥": "H", "♣": "C", "♦": "D"}


def _codes_in_state(state):
    found = set()

    def walk(x, key=""):
        if isinstance(key, str) and key.startswith("_"):
            return                                            # _esm / _css sources
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, k)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v, key)
        elif isinstance(x, str):
            if CODE.match(x):
                found.add(x)
            for rank, suit in PRETTY.findall(x):
                found.add(rank + SUIT_OF[suit])
    walk(state)
    return found


def _facedown(deal, viewer):
    hidden = set()
    shown = deal.trump_card
    for s in range(4):
        if s != viewer:
            hidden |= {c.code for c in deal.hand(s) if c != shown}
    secret = deal.hidden_trump_card
    if secret is not None and (viewer != deal.trump_caller or deal.rules.trump_method == "hidden_random"):
        hidden.add(secret.code)
    return hidden


LEAK_RULES = [
    cl.Rules.court_piece(),
    cl.Rules.double_sir(trump_method="shown"),
    cl.Rules.dehla_pakad(trump_method="hidden"),
    cl.Rules.court_piece(trump_method="hidden_random"),
    cl.Rules.dehla_pakad(trump_method="first_void"),
]


@pytest.mark.parametrize("dealer", [2, 3])        # dealer 3: the viewer is the trump caller
@pytest.mark.parametrize("rules", LEAK_RULES, ids=lambda r: f"{r.game}-{r.trump_method}")
def test_table_state_never_carries_a_facedown_card(rules, dealer):
    table = cl.widgets.CardTable(cl.Deal(rules, dealer=dealer, seed=321), seat=0,
                                 bots=cl.bots.RandomBot(seed=5))
    bot = cl.bots.RandomBot(seed=6)
    for _ in range(60):
        state = json.loads(json.dumps(table.get_state(), default=str))
        leaked = _codes_in_state(state) & _facedown(table.deal, 0)
        assert not leaked, leaked
        deal = table.deal
        if deal.phase == "over":
            break
        # the viewer's move, through the table's Python API
        if deal.phase == "trump":
            if rules.trump_method in ("shown", "hidden"):
                table.choose_trump_card(bot.choose_trump_card(deal))
            else:
                table.call_trump(bot.call_trump(deal))
        else:
            table.play(bot.choose(deal).code)
    assert table.deal.phase == "over"


def test_table_show_all_does_show_the_cards():
    deal = cl.Deal(CP, dealer=2, seed=321)
    deal.call_trump("S")
    table = cl.widgets.CardTable(deal, seat=0, show_all=True)
    state = json.loads(json.dumps(table.get_state(), default=str))
    assert _facedown(deal, 0) <= _codes_in_state(state)


def test_table_plays_that_very_deal_for_deal_to_play_and_bots_none_plays_nothing():
    deal = cl.Deal(CP, dealer=0, seed=12)           # seat 1 calls trumps and leads
    table = cl.widgets.CardTable(deal, seat=0)
    assert table.deal is deal
    assert deal.phase == "trump"                     # nobody acted by itself
    deal.call_trump("H")
    table.play(deal.legal_cards()[0].code)           # East (seat 1), not the viewer
    assert len(deal.trick.cards) == 1 and deal.trick.cards[0][0] == 1
    assert deal.to_play == 2                         # bots None: North did not play by itself
    table.play(deal.legal_cards()[0].code)
    table.play(deal.legal_cards()[0].code)
    assert len(deal.trick.cards) == 3 and deal.to_play == 0


def test_table_on_a_session_shows_its_current_deal():
    s = cl.Session(CP, seed=5, dealer=0)
    table = cl.widgets.CardTable(s, seat=2)
    assert table.deal is s.deal
    win(s, 0)
    s.next_deal()
    assert table.deal is s.deal


def test_play_returns_table_and_controls():
    import ipywidgets
    app = cl.play("double_sir", seed=3, seat=0, bots=None)
    assert isinstance(app, ipywidgets.Widget)
    table = app.table
    assert isinstance(table, cl.widgets.CardTable)
    deal = table.deal
    assert deal.rules.game == "double_sir"
    # bots None = RuleBot at the other seats: they have acted until the viewer is to act
    acting = deal.trump_caller if deal.phase == "trump" else deal.to_play
    assert deal.phase == "over" or acting == 0
    state = json.loads(json.dumps(table.get_state(), default=str))
    assert not (_codes_in_state(state) & _facedown(deal, 0))


def test_session_table_with_bots_everywhere_leaks_nothing():
    s = cl.Session(cl.Rules.dehla_pakad(trump_method="hidden_random"), seed=8, dealer=3)
    table = cl.widgets.CardTable(s, seat=0, bots=[None, cl.bots.RuleBot(), cl.bots.RuleBot(),
                                                  cl.bots.RuleBot()])
    bot = cl.bots.RuleBot()
    for _ in range(3):
        for _ in range(60):
            state = json.loads(json.dumps(table.get_state(), default=str))
            assert not (_codes_in_state(state) & _facedown(table.deal, 0))
            if table.deal.phase == "over":
                break
            table.play(bot.choose(table.deal).code)
        assert table.deal.phase == "over"
        s.next_deal()
        table.refresh()


# ============================================================================ imports, names
def test_import_courtlearn_loads_no_heavy_dependency():
    code = ("import sys, courtlearn as cl\n"
            "bad = [m for m in ('pandas', 'ipywidgets', 'anywidget', 'numpy', 'tqdm') if m in sys.modules]\n"
            "d = cl.Deal(cl.Rules.court_piece(), dealer=0, seed=1); d.call_trump('S')\n"
            "d.play(d.legal_cards()[0]); s = cl.Session(cl.Rules.double_sir(), seed=1)\n"
            "bad += [m for m in ('pandas', 'ipywidgets', 'anywidget') if m in sys.modules]\n"
            "print(','.join(bad))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""


@pytest.mark.parametrize("attr,heavy", [("widgets", "anywidget"), ("exercises", None),
                                        ("bots", None)])
def test_heavy_dependencies_load_on_first_use(attr, heavy):
    code = ("import sys, courtlearn as cl\n"
            "assert 'pandas' not in sys.modules and 'ipywidgets' not in sys.modules\n"
            f"m = cl.{attr}\n"
            "print('anywidget' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    if heavy:
        assert out.stdout.strip() == "True"


def test_every_api_name_exists():
    for name in ("Card", "CardError", "cards", "Suit", "Rules", "Deal", "DealResult", "IllegalPlay",
                 "Session", "bots", "hint", "simulate", "exercises", "widgets", "play"):
        assert hasattr(cl, name), name
    assert issubclass(cl.CardError, ValueError) and issubclass(cl.IllegalPlay, ValueError)
    for name in ("parse",):
        assert callable(getattr(cl.Card, name)) and callable(getattr(cl.Suit, name))
    for name in ("court_piece", "double_sir", "dehla_pakad"):
        assert callable(getattr(cl.Rules, name))
    for name in ("prearranged", "from_dict", "from_notation"):
        assert callable(getattr(cl.Deal, name))
    deal = cl.Deal(CP, dealer=3, seed=7)
    for name in ("dealer", "trump_caller", "phase", "stock", "trump", "to_play", "trick", "tricks",
                 "centre", "tricks_won", "result", "events", "trump_card", "revokes"):
        getattr(deal, name)
    for name in ("hand", "call_trump", "legal_cards", "play", "undo", "to_dict", "to_notation",
                 "choose_trump_card", "defer_trump", "ask_for_trump", "play_on", "correct_revoke",
                 "claim_revoke", "view", "history"):
        assert callable(getattr(deal, name)), name
    v = deal.view(0)
    for name in ("seat", "phase", "dealer", "trump_caller", "to_play", "hand", "trump", "trump_card",
                 "trick", "tricks", "centre", "tricks_won", "voids", "revokes", "events"):
        getattr(v, name)
    s = cl.Session(CP, seed=1, dealer=None, deals=None, target_courts=None)
    for name in ("deal", "courts", "streak", "results", "events", "over", "winner"):
        getattr(s, name)
    assert callable(s.next_deal)
    for name in ("RandomBot", "RuleBot", "MonteCarloBot"):
        assert hasattr(cl.bots, name)
    for bot in (cl.bots.RandomBot(seed=0), cl.bots.RuleBot(), cl.bots.MonteCarloBot(samples=4, seed=0)):
        for m in ("choose", "call_trump", "choose_trump_card", "asks_for_trump", "plays_on",
                  "defers_trump"):
            assert callable(getattr(bot, m)), (bot, m)
    assert callable(cl.exercises.question) and cl.exercises.KINDS
    assert hasattr(cl.widgets, "CardTable")
    r_fields = ("winner", "courts", "kind", "tricks", "tens")
    d = cl.Deal(CP, dealer=0, seed=2)
    d.call_trump("S")
    while d.phase == "play":
        d.play(d.legal_cards()[0])
    for f in r_fields:
        getattr(d.result, f)
