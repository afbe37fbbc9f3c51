"""deal.view(seat) keeps what it made for the deal as it was (issue 29, Speed: a class table
asks four views a move): the parts every seat sees alike once per state, each seat's
events from where its last view stopped. Checked here against views made from scratch
(a replay of the same actions, which has made no view yet) at every step of random
deals under every trump method, with revokes allowed and claimed, corrections, play on
and undo; views asked after every action, after several, or not at all.
"""
from __future__ import annotations

import random

import pytest

import courtlearn as cl
from courtlearn.render import positions
from test_properties import random_action, variant_rules

RULES = [
    cl.Rules.court_piece(),
    cl.Rules.court_piece(trump_method="hidden", revokes="allowed"),
    cl.Rules.court_piece(trump_method="shown", revokes="allowed", allow_deferred=True),
    cl.Rules.double_sir(revokes="allowed"),
    cl.Rules.double_sir(trump_method="hidden_random"),
    cl.Rules.dehla_pakad(trump_method="first_void", revokes="allowed"),
    cl.Rules.dehla_pakad(),
]


def _step(deal: cl.Deal, rng: random.Random) -> bool:
    """One random move of any seat (claims and corrections too); False when none."""
    options = []
    for seat in range(4):
        for m in deal.moves(seat):
            if m.kind == "play":
                options += [("play", c) for c in m.cards]
            elif m.kind == "call_trump":
                options += [("call_trump", s) for s in m.suits]
            elif m.kind == "choose_trump_card":
                options += [("choose_trump_card", c) for c in m.cards]
            elif m.kind == "defer_trump":
                options += [("defer_trump", n) for n in m.numbers]
            elif m.kind in ("claim_revoke", "correct_revoke"):
                options.append((m.kind, seat))
            else:
                options.append((m.kind, None))
    if not options:
        return False
    rest = [o for o in options if o[0] != "claim_revoke"]     # a claim ends the deal:
    kind, arg = rng.choice(rest if rest and rng.random() < 0.97 else options)   # rarely
    getattr(deal, kind)(*(() if arg is None else (arg,)))
    return True


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.game}-{r.trump_method}-{r.revokes}")
def test_kept_views_equal_views_made_afresh(rules):
    rng = random.Random(29)
    checked = 0
    for n in range(6):
        deal = cl.Deal(rules, dealer=n % 4, seed=100 + n)
        for _ in range(200):
            if rng.random() < 0.06 and deal.actions:
                deal.undo()                       # a new log: nothing kept may be reused
            elif not _step(deal, rng):
                break
            if rng.random() < 0.7:                # sometimes several actions between views
                fresh = deal.replay(len(deal.actions))
                for seat in rng.sample(range(4), rng.randint(1, 4)):
                    assert deal.view(seat) == fresh.view(seat), (rules, deal.actions, seat)
                    checked += 1
        for seat in range(4):                     # the end, every seat
            assert deal.view(seat) == deal.replay(len(deal.actions)).view(seat)
    assert checked > 300


def test_a_seat_never_gets_another_seats_private_event():
    """The events kept for one seat are that seat's: a face-down trump card set aside is
    seen by its owner only, however the views of the four seats interleave."""
    rules = cl.Rules.court_piece(trump_method="hidden")
    deal = cl.Deal(rules, dealer=3, seed=7)
    owner = deal.trump_caller
    views = [deal.view(s) for s in range(4)]           # kept before the private event
    deal.choose_trump_card(deal.hand(owner)[0])
    private = [e for e in deal.events if e.audience is not None]
    assert any(set(e.audience) == {owner} for e in private)     # the card, for its owner
    for seat in (2, owner, 1, 3, 0, owner):
        seen = deal.view(seat).events
        assert all(e.visible_to(seat) for e in seen)
        assert [e for e in private if e in seen] == [e for e in private if seat in e.audience]
    assert views[owner] != deal.view(owner)


@pytest.mark.parametrize("rules", RULES[:4], ids=lambda r: f"{r.game}-{r.trump_method}-{r.revokes}")
def test_actions_read_on_equal_actions_read_afresh(rules):
    """deal.actions reads the log on from where it stopped last time (the class room reads
    them after every move): equal to the actions of a replay at every step, corrections
    of revokes and undo included."""
    rng = random.Random(5)
    for n in range(4):
        deal = cl.Deal(rules, dealer=n, seed=200 + n)
        for _ in range(150):
            if rng.random() < 0.06 and deal.actions:
                deal.undo()
            elif not _step(deal, rng):
                break
            if rng.random() < 0.6:
                got = deal.actions
                got.append("x")                        # the caller's own list
                assert deal.actions == got[:-1]
                afresh = cl.Deal(rules, dealer=n, seed=200 + n)
                afresh.apply(deal.actions)
                assert afresh.actions == deal.actions and afresh.to_dict() == deal.to_dict()


# ------------------------------------------------------------------ under every house rule
# (the voids read on from the masks after the tricks read last time; the actions' count)
VARIANTS = variant_rules()
MEMOS = ("_voids_memo", "_view_memo", "_actions_memo")


def forgetful(deal):
    """The same deal with nothing remembered (as read afresh from its log)."""
    for name in MEMOS:
        setattr(deal, name, None)
    return deal


def afresh(deal):
    """What the deal answers read afresh; what it remembered is put back after, so that
    its next answers read on from them."""
    kept = [getattr(deal, name) for name in MEMOS]
    try:
        return answers(forgetful(deal))
    finally:
        for name, memo in zip(MEMOS, kept):
            setattr(deal, name, memo)


def answers(deal):
    return (deal.voids(), [deal.view(s) for s in range(4)], deal.actions,
            deal._action_count())


@pytest.mark.parametrize("index", range(len(VARIANTS)))
def test_voids_views_and_actions_read_on_agree_with_a_fresh_reading(index):
    rules = VARIANTS[index]
    checked = 0
    for seed in range(6):
        rng = random.Random(1000 * index + seed)
        deal = cl.Deal(rules, dealer=seed % 4, seed=seed)
        p = {"play_on": rng.random() < 0.5}
        for step in range(120):
            if step % 23 == 22 and deal.actions:
                deal.undo()                 # another log: nothing of the old one is read
            elif random_action(deal, rng, p) is None:
                break
            got = answers(deal)              # read on from the last step's memos
            want = afresh(deal)
            assert got == want, (rules, seed, deal.actions)
            assert deal._action_count() == len(deal.actions)
            checked += 1
    assert checked > 100


def test_the_voids_after_the_completed_tricks_are_read_on_from():
    """A court piece deal with revokes allowed: a revoke shows a void, its correction
    takes the card back; the remembered masks follow."""
    rules = cl.Rules.court_piece(revokes="allowed")
    rng = random.Random(5)
    deal = cl.Deal(rules, dealer=0, seed=11)
    deal.call_trump(cl.Suit.parse("S"))
    seen = set()
    while deal.phase == "play":
        random_action(deal, rng, {"play_on": False})
        deal.voids()
        memo = deal._voids_memo
        assert memo[3] is not None and memo[3][0] == len(deal.tricks)
        seen.add(memo[3][0])
        assert deal.voids() == forgetful(deal).voids()
    assert len(seen) > 5


@pytest.mark.parametrize("direction", ["anticlockwise", "clockwise"])
def test_positions_put_the_viewer_at_the_bottom_and_play_passing_round(direction):
    rules = cl.Rules.court_piece(direction=direction)
    ring = (["bottom", "left", "top", "right"] if direction == "clockwise"
            else ["bottom", "right", "top", "left"])
    for viewer in range(-4, 9):
        assert positions(rules, viewer) == [ring[(s - viewer) % 4] for s in range(4)]
    got = positions(rules, 1)
    got[0] = "changed"                      # the caller's own list
    assert positions(rules, 1)[0] != "changed"
