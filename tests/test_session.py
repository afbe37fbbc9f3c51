"""Sessions: courts, streaks, who deals next, the end (RULES.md sections 7-9; API.md "A session").

Deals in a session are shuffled, so these tests steer each deal to the outcome
they need: `steer` searches the cards to play (with undo) until the wanted team
wins the wanted way, and `revoke_and_claim` makes a court by a revoke claim."""
import random

import pytest

import courtlearn as cl

CP = cl.Rules.court_piece()
CP_REVOKES = cl.Rules.court_piece(revokes="allowed")


def steer(deal, team, want=lambda r: True, attempts=400, seed=0):
    """Call trumps and play `deal` to an end where `team` wins and want(result) holds.

    Tries playouts on copies (Deal.from_dict): the team plays high, the others
    low, with some random deviations; the first playout that works is then
    played on `deal` itself."""
    rng = random.Random(seed)
    start = deal.to_dict()
    for attempt in range(attempts):
        greed = 1.0 if attempt < 4 else rng.choice([0.98, 0.9, 0.8, 0.6])
        suit = "SHCD"[attempt % 4]
        d = cl.Deal.from_dict(start)
        d.call_trump(suit)
        moves = []
        while d.phase != "over":
            cards = d.legal_cards()
            ours = d.to_play % 2 == team
            ranked = sorted(cards, key=lambda c: (c.suit == d.trump, c.rank), reverse=ours)
            card = ranked[0] if rng.random() < greed else rng.choice(cards)
            d.play(card)
            moves.append(card)
        if d.result.winner == team and want(d.result):
            deal.call_trump(suit)
            for card in moves:
                deal.play(card)
            assert deal.result == d.result
            return deal.result
    raise AssertionError(f"could not steer the deal to a win for team {team}")


def win(s, team, **kw):
    """Team `team` wins the current deal of session `s` without a court."""
    result = steer(s.deal, team, want=lambda r: r.courts == 0, **kw)
    assert result.winner == team and result.courts == 0
    return result


def revoke_and_claim(deal, claiming_team):
    """A player of the other team revokes; the next player of `claiming_team` claims it: a court."""
    deal.call_trump("S")
    revoker = None
    while revoker is None:
        assert deal.phase == "play"
        seat = deal.to_play
        hand, legal = deal.hand(seat), deal.legal_cards()
        off = [c for c in hand if c not in legal]
        if seat % 2 != claiming_team and len(deal.trick.cards) > 0 and off:
            deal.play(off[0])
            revoker = seat
        else:
            deal.play(legal[0])
    while len(deal.trick.cards) > 0:  # complete the trick: the revoke is established
        deal.play(deal.legal_cards()[0])
    claimer = (revoker + 1) % 4
    deal.claim_revoke(claimer)
    assert deal.phase == "over"
    assert deal.result.kind == "revoke" and deal.result.winner == claiming_team and deal.result.courts == 1
    return deal.result


# --- the first dealer ----------------------------------------------------------------

def test_given_first_dealer():
    for dealer in range(4):
        assert cl.Session(CP, seed=1, dealer=dealer).deal.dealer == dealer


def test_random_first_dealer_is_reproducible_from_the_seed():
    dealers = [cl.Session(CP, seed=seed).deal.dealer for seed in range(24)]
    assert dealers == [cl.Session(CP, seed=seed).deal.dealer for seed in range(24)]
    assert set(dealers) == {0, 1, 2, 3}


def test_session_deals_are_reproducible():
    a, b = cl.Session(CP, seed=9, dealer=0), cl.Session(CP, seed=9, dealer=0)
    assert a.deal.to_dict() == b.deal.to_dict()


def test_fresh_session():
    s = cl.Session(CP, seed=2, dealer=1)
    assert s.courts == (0, 0)
    assert s.streak[1] == 0
    assert s.results == []
    assert not s.over
    assert s.deal.phase == "trump"


# --- next_deal -------------------------------------------------------------------------

def test_next_deal_refused_while_the_deal_is_unfinished():
    s = cl.Session(CP, seed=3, dealer=0)
    before = s.deal.to_dict()
    with pytest.raises(ValueError) as info:
        s.next_deal()
    assert "finish" in str(info.value).lower() or "not over" in str(info.value).lower()
    s.deal.call_trump("H")
    s.deal.play(s.deal.legal_cards()[0])
    before = s.deal.to_dict()
    with pytest.raises(ValueError):
        s.next_deal()
    assert s.deal.to_dict() == before
    assert s.results == [] and s.courts == (0, 0)


# --- who deals next (section 8) ------------------------------------------------------------

def next_dealer_after(s):
    old = s.deal
    s.next_deal()
    assert s.deal is not old
    assert s.deal.phase == "trump"
    return s.deal.dealer


@pytest.mark.parametrize("dealer", range(4))
def test_dealers_team_won_the_deal_passes_on(dealer):
    s = cl.Session(CP, seed=10 + dealer, dealer=dealer)
    win(s, dealer % 2)
    assert next_dealer_after(s) == (dealer + 1) % 4


@pytest.mark.parametrize("dealer", range(4))
def test_trump_callers_team_won_without_court_same_dealer(dealer):
    s = cl.Session(CP, seed=20 + dealer, dealer=dealer)
    win(s, (dealer + 1) % 2)
    assert next_dealer_after(s) == dealer


def test_session_events_say_who_deals_next_in_a_sentence():
    s = cl.Session(CP, seed=21, dealer=1)
    win(s, 0)  # team 0 holds the trump caller (seat 2): the same dealer deals again
    s.next_deal()
    texts = [e.text for e in s.events]
    assert any("East" in t and "again" in t for t in texts), texts
    win(s, 1)  # now the dealer's side wins: the deal passes on to North
    s.next_deal()
    texts = [e.text for e in s.events]
    assert any(t.startswith("North deals") for t in texts), texts


@pytest.mark.parametrize("dealer", range(4))
def test_trump_callers_team_won_with_a_revoke_court_partner_deals(dealer):
    s = cl.Session(CP_REVOKES, seed=30 + dealer, dealer=dealer)
    revoke_and_claim(s.deal, (dealer + 1) % 2)
    assert next_dealer_after(s) == (dealer + 2) % 4
    assert s.courts[(dealer + 1) % 2] == 1


@pytest.mark.parametrize("dealer", [0, 3])
def test_dealers_team_won_with_a_revoke_court_passes_on(dealer):
    s = cl.Session(CP_REVOKES, seed=40 + dealer, dealer=dealer)
    revoke_and_claim(s.deal, dealer % 2)
    assert next_dealer_after(s) == (dealer + 1) % 4
    assert s.courts[dealer % 2] == 1


def find_session_court(team_is_callers):
    """A session whose first deal can be steered to a court in the deal itself."""
    for seed in range(60):
        s = cl.Session(CP, seed=seed, dealer=0)
        team = 1 if team_is_callers else 0
        try:
            steer(s.deal, team, want=lambda r: r.kind in ("court", "goon"), attempts=40)
        except AssertionError:
            continue
        return s, team
    raise AssertionError("no steerable court found")


def test_trump_callers_team_won_a_court_in_the_deal_partner_deals():
    s, team = find_session_court(team_is_callers=True)
    assert s.deal.result.kind == "court"
    assert next_dealer_after(s) == 2
    assert s.courts == (0, 1)


def test_dealers_team_won_a_goon_court_passes_on():
    s, team = find_session_court(team_is_callers=False)
    assert s.deal.result.kind == "goon"
    assert next_dealer_after(s) == 1
    assert s.courts == (1, 0)


# --- streaks -----------------------------------------------------------------------------

def test_streak_of_seven_is_a_court_and_the_partner_deals_next():
    s = cl.Session(CP, seed=50, dealer=0)
    for n in range(1, 8):
        assert s.deal.dealer == 0  # the trump caller's side keeps winning: the same dealer deals
        win(s, 1)
        if n < 7:
            s.next_deal()
            assert s.streak == (1, n)
            assert s.courts == (0, 0)
    s.next_deal()
    assert s.courts == (0, 1)
    assert s.streak[1] == 0
    assert s.streak == (None, 0)
    assert [r.courts for r in s.results] == [0] * 7  # the streak court is not a deal's court
    assert s.deal.dealer == 2  # a court for the trump caller's side: the dealer's partner deals
    assert any("seven" in e.text.lower() or "7" in e.text for e in s.events)


def test_a_win_by_the_other_team_restarts_the_streak_at_one():
    s = cl.Session(CP, seed=60, dealer=0)
    win(s, 1)
    s.next_deal()
    win(s, 1)
    s.next_deal()
    assert s.streak == (1, 2)
    win(s, 0)
    s.next_deal()
    assert s.streak == (0, 1)
    assert s.deal.dealer == 1  # the dealer's side (team 0) won: the deal passed on


def test_any_court_resets_the_streak_and_a_court_deal_does_not_count():
    s = cl.Session(CP_REVOKES, seed=70, dealer=0)
    for _ in range(3):
        win(s, 1)
        s.next_deal()
    assert s.streak == (1, 3)
    revoke_and_claim(s.deal, 1)  # team 1 again, but with a court
    s.next_deal()
    assert s.courts == (0, 1)
    assert s.streak[1] == 0
    for n in range(1, 7):
        win(s, 1)
        s.next_deal()
        assert s.streak == (1, n) and s.courts == (0, 1)
    win(s, 1)
    s.next_deal()
    assert s.courts == (0, 2)
    assert s.streak[1] == 0


def test_a_court_by_the_other_team_resets_the_streak():
    s = cl.Session(CP_REVOKES, seed=80, dealer=0)
    for _ in range(2):
        win(s, 1)
        s.next_deal()
    revoke_and_claim(s.deal, 0)
    s.next_deal()
    assert s.courts == (1, 0)
    assert s.streak[1] == 0


# --- the end of a session ------------------------------------------------------------------

def test_session_ends_after_the_agreed_number_of_deals():
    s = cl.Session(CP, seed=90, dealer=0, deals=2)
    win(s, 1)
    s.next_deal()
    assert not s.over
    win(s, 0)
    if not s.over:  # scoring may wait for next_deal
        s.next_deal()
    assert s.over
    assert len(s.results) == 2
    assert s.courts == (0, 0) and s.winner is None  # no courts at all: a draw
    before = s.deal.to_dict()
    assert s.next_deal() is None      # scoring the last deal starts nothing
    assert s.deal.to_dict() == before
    with pytest.raises(ValueError):   # and the session is closed for good
        s.next_deal()
    assert s.deal.to_dict() == before


def test_session_ends_at_the_target_number_of_courts():
    s = cl.Session(CP_REVOKES, seed=91, dealer=0, target_courts=2)
    revoke_and_claim(s.deal, 0)
    s.next_deal()
    assert not s.over and s.courts == (1, 0)
    revoke_and_claim(s.deal, 1)
    s.next_deal()
    assert not s.over and s.courts == (1, 1)
    revoke_and_claim(s.deal, 1)
    if not s.over:
        s.next_deal()
    assert s.over
    assert s.courts == (1, 2)
    assert s.winner == 1
    assert s.next_deal() is None
    with pytest.raises(ValueError):
        s.next_deal()
    assert s.courts == (1, 2)


def test_winner_has_more_courts_and_equal_courts_draw():
    s = cl.Session(CP_REVOKES, seed=92, dealer=0, deals=2)
    revoke_and_claim(s.deal, 0)
    s.next_deal()
    revoke_and_claim(s.deal, 1)
    if not s.over:
        s.next_deal()
    assert s.over and s.courts == (1, 1) and s.winner is None
    s = cl.Session(CP_REVOKES, seed=93, dealer=0, deals=1)
    revoke_and_claim(s.deal, 1)
    if not s.over:
        s.next_deal()
    assert s.over and s.winner == 1


def test_bavney_counts_52_courts():
    rules = cl.Rules.court_piece(stop_when_decided=False)
    for seed in range(40):
        s = cl.Session(rules, seed=seed, dealer=0, deals=1)
        try:
            steer(s.deal, 1, want=lambda r: r.kind == "bavney", attempts=40)
        except AssertionError:
            continue
        break
    else:
        raise AssertionError("no steerable bavney found")
    if not s.over:
        s.next_deal()
    assert s.results[-1].courts == 52
    assert s.courts == (0, 52)
    assert s.winner == 1


def test_session_events_are_sentences():
    s = cl.Session(CP, seed=94, dealer=0)
    win(s, 1)
    s.next_deal()
    assert s.events
    for e in s.events:
        assert isinstance(e.text, str) and len(e.text) > 10
        assert e.text[0].isupper() and e.text.rstrip().endswith((".", "!")), e.text
        assert "_" not in e.text and "(" not in e.text, e.text
    assert "0x" not in repr(s)


def test_session_accepts_every_game():
    for rules in (cl.Rules.double_sir(), cl.Rules.dehla_pakad()):
        s = cl.Session(rules, seed=5, dealer=2)
        win(s, 1)
        s.next_deal()
        assert s.deal.dealer == 2 and len(s.results) == 1
