"""The bots' fast playout engine agrees with the public engine.

Random deals (random legal cards, random asks for a hidden trump) are played
through ``courtlearn.Deal``; the same cards are then forced through
``courtlearn.fastplay.Batch`` and every trick (winner, piles, centre, tens,
trump) and the result are compared.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

import courtlearn as cl
from courtlearn import fastplay as fp

VARIANTS = [
    ("court_piece", {}),
    ("court_piece", {"stop_when_decided": False}),
    ("court_piece", {"trump_method": "shown"}),
    ("court_piece", {"trump_method": "hidden"}),
    ("court_piece", {"trump_method": "hidden_random"}),
    ("court_piece", {"trump_method": "first_void"}),
    ("court_piece", {"allow_deferred": True}),
    ("court_piece", {"trump_method": "hidden", "allow_deferred": True}),
    ("double_sir", {"trump_method": "hidden", "allow_deferred": True, "deferred_card": "random"}),
    ("double_sir", {}),
    ("double_sir", {"stop_when_decided": False}),
    ("double_sir", {"first_two_capture": False, "aces_capture": False}),
    ("double_sir", {"goon_courts": 10}),
    ("double_sir", {"trump_method": "first_void"}),
    ("double_sir", {"trump_method": "hidden"}),
    ("dehla_pakad", {}),
    ("dehla_pakad", {"tens_tie": "tricks"}),
    ("dehla_pakad", {"stop_when_decided": False}),
    ("dehla_pakad", {"trump_method": "first_void"}),
    ("dehla_pakad", {"trump_method": "first_void", "aces_capture": False}),
    ("dehla_pakad", {"trump_method": "hidden_random"}),
]


# revokes allowed, in every game and trump method: the deals below revoke now and then
REVOKE_VARIANTS = [(game, {"trump_method": method, "revokes": "allowed"})
                   for game in ("court_piece", "double_sir", "dehla_pakad")
                   for method in ("called", "shown", "hidden", "hidden_random", "first_void")]


def _ids(variants):
    return [g + "-" + ",".join(f"{k}={v}" for k, v in o.items()) for g, o in variants]


def _random_engine_deal(rules, seed, revoke=0.3):
    """A deal played by random legal moves; returns (deal, start, moves).

    With ``revokes="allowed"`` a seat that could revoke does so with chance ``revoke``.
    start: (hands at the start of play (masks), hidden card index or -1, pending
    masks, trump index or -1); moves: [(card index, asked first)]."""
    rng = random.Random(seed)
    deal = cl.Deal(rules, dealer=rng.randrange(4), seed=seed)
    if deal.phase == "trump":
        hand = deal.hand(deal.to_play)
        if rules.allow_deferred and rng.random() < 0.5:
            deal.defer_trump()
        elif rules.trump_method in ("shown", "hidden"):
            deal.choose_trump_card(rng.choice(hand))
        else:
            deal.call_trump(rng.choice(hand).suit)
    hidden = deal.hidden_trump_card
    hidden_i = fp.card_index(hidden) if hidden is not None else -1
    if rules.trump_method == "first_void" and rules.game == "dehla_pakad":
        init = [fp.mask_of(deal.dealt(s)[:5]) for s in range(4)]
        pending = [fp.mask_of(deal.dealt(s)[5:]) for s in range(4)]
    else:
        init = [fp.mask_of(deal.hand(s)) for s in range(4)]
        pending = [0, 0, 0, 0]
    trump = int(deal.trump) if deal.trump is not None else -1
    moves = []
    while deal.phase == "play":
        asked = False
        if deal.can_ask_for_trump() and rng.random() < 0.6:
            deal.ask_for_trump()
            asked = True
        legal = deal.legal_cards()
        revoking = [c for c in deal.moves(deal.to_play)[0].cards if c not in legal]
        card = rng.choice(revoking if revoking and rng.random() < revoke else legal)
        deal.play(card)
        moves.append((fp.card_index(card), asked))
    return deal, (init, hidden_i, pending, trump), moves


@pytest.mark.parametrize("game,options", VARIANTS + REVOKE_VARIANTS,
                         ids=_ids(VARIANTS + REVOKE_VARIANTS))
def test_same_tricks_and_results_as_the_engine(game, options):
    rules = cl.Rules.of(game, **options)
    cfg = fp.Config.from_rules(rules)
    kinds = set()
    revoked = 0
    for seed in range(25):
        deal, (init, hidden, pending, trump), moves = _random_engine_deal(rules, seed)
        revoked += bool(deal.revokes)
        b = fp.Batch.start(cfg, deal.dealer, init, trump=trump, hidden=hidden, pending=pending)
        tricks = deal.tricks
        n = 0
        for card, asked in moves:
            played = b.step(cards=card, asks=[asked])
            assert played[0] == card
            n += 1
            if n % 4 == 0:
                t = tricks[n // 4 - 1]
                where = f"seed {seed}, trick {n // 4}"
                assert b.trick_winner[0] == t.winner, where
                assert b.tricks_done == n // 4, where
        # every trick compared above; now the state at the end and the result
        res = deal.result
        assert b.over[0], f"seed {seed}: fastplay thinks the deal goes on after {n // 4} tricks"
        assert tuple(int(x) for x in b.piles[0]) == deal.tricks_won, seed
        if rules.game != "court_piece":
            assert tuple(int(x) for x in b.tens[0]) == deal.tens_won, seed
            assert int(b.centre[0]) == len(deal.centre), seed
        assert int(b.winner[0]) == res.winner, seed
        assert int(b.courts[0]) == res.courts, seed
        assert fp.KIND_NAMES[b.kind[0]] == res.kind, seed
        assert (int(b.trump[0]) if b.trump[0] >= 0 else None) == (
            int(deal.trump) if deal.trump is not None else None), seed
        kinds.add(res.kind)
    assert kinds  # at least one finished deal per variant
    if rules.revokes == "allowed":
        assert revoked, "no deal revoked: the revoke positions went untested"


def test_trick_by_trick_state_matches():
    """Piles, centre and tens after every single trick (Double Sir and Dehla Pakad)."""
    for game in ("double_sir", "dehla_pakad"):
        rules = cl.Rules.of(game, stop_when_decided=False)
        cfg = fp.Config.from_rules(rules)
        for seed in range(15):
            deal, (init, hidden, pending, trump), moves = _random_engine_deal(rules, 100 + seed)
            replay = cl.Deal.from_dict(deal.to_dict()).replay(0)
            # walk the engine again action by action alongside fastplay
            b = fp.Batch.start(cfg, deal.dealer, init, trump=trump, hidden=hidden, pending=pending)
            tokens = [a for a in deal.actions]
            d = replay
            k = 0
            for token in tokens:
                d._apply(token)
                if token in ("ask",) or ":" in token:
                    continue
                b.step(cards=moves[k][0], asks=[moves[k][1]])
                k += 1
                if k % 4 == 0:
                    assert tuple(int(x) for x in b.piles[0]) == d.tricks_won, (game, seed, k)
                    assert int(b.centre[0]) == len(d.centre), (game, seed, k)
                    assert tuple(int(x) for x in b.tens[0]) == d.tens_won, (game, seed, k)
                    took = {e.kind for e in d.events[-3:]} & {"capture", "sweep"}
                    assert bool(b.trick_captured[0]) == bool(took), (game, seed, k)


def test_outcome_table_examples():
    # Double Sir, dealer's team 1: 7-5 with a trick left is decided, 7-0 is not
    decided, winner, courts, kind = fp._outcome_table(1, 3, "non_dealers", 1)
    assert decided[0, 0, 7, 5] and winner[0, 0, 7, 5] == 0 and courts[0, 0, 7, 5] == 0
    assert not decided[0, 0, 7, 0]
    assert decided[4, 0, 13, 0] and courts[4, 0, 13, 0] == 1 and fp.KIND_NAMES[kind[4, 0, 13, 0]] == "court"
    assert decided[0, 4, 0, 13] and courts[0, 4, 0, 13] == 3 and fp.KIND_NAMES[kind[0, 4, 0, 13]] == "goon"
    # Dehla Pakad, dealers team 0: the non-dealers have two tens, the dealers one: decided
    decided, winner, courts, kind = fp._outcome_table(2, 3, "non_dealers", 0)
    assert decided[1, 2, 1, 5] and winner[1, 2, 1, 5] == 1 and courts[1, 2, 1, 5] == 0
    assert not decided[0, 2, 1, 5]          # the non-dealers could still take all four (kot)
    assert not decided[2, 1, 6, 5]          # the last ten decides


def test_random_playouts_finish_and_are_legal():
    rng = np.random.default_rng(3)
    prng = random.Random(3)
    for game in fp.GAMES:
        cfg = fp.Config(game)
        hands = []
        for _ in range(64):
            deck = list(range(52))
            prng.shuffle(deck)
            hands.append([sum(1 << c for c in deck[13 * s:13 * s + 13]) for s in range(4)])
        hands = np.array(hands, dtype=np.uint64)
        for policy in ("random", "rule"):
            b = fp.Batch.start(cfg, 3, hands, trump=0)
            seen = np.zeros(64, dtype=np.uint64)
            while not b.over.all():
                legal = b.legal()
                c = b.step(rng=rng, policy=policy, eps=0.2)
                live = c < 52
                # the card was a legal card of the seat to play (it follows suit if able)
                bit = np.array([1 << int(x) if x < 52 else 0 for x in c], dtype=np.uint64)
                assert np.all((legal & bit)[live] == bit[live])
                assert np.all((seen & bit) == 0)
                seen |= bit
            assert (b.winner >= 0).all()
