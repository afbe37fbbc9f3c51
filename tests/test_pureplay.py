"""The play-outs in plain Python (courtlearn.pureplay) against the engine and against
numpy's batches (courtlearn.fastplay): the same tricks, the same choices of the rollout
policy, the same results; and hints that agree within their noise."""
from __future__ import annotations

import math
import random

import pytest

import courtlearn as cl
from courtlearn import bots
from courtlearn import pureplay as pp

from test_fastplay import VARIANTS, _random_engine_deal

np = pytest.importorskip("numpy")
fp = pytest.importorskip("courtlearn.fastplay")

IDS = [g + "-" + ",".join(f"{k}={v}" for k, v in o.items()) for g, o in VARIANTS]


def _world_and_batch(rules, start, dealer):
    init, hidden, pending, trump = start
    w = pp.World.start(pp.Config.from_rules(rules), dealer, init, trump=trump, hidden=hidden,
                       pending=pending)
    b = fp.Batch.start(fp.Config.from_rules(rules), dealer, [init], trump=trump, hidden=hidden,
                       pending=[pending])
    return w, b


def _same_state(w, b):
    assert w.tricks_done == b.tricks_done and w.ncards == b.ncards
    assert w.hands == [int(h) for h in b.hands[0]]
    assert (w.trump, w.leader, w.over) == (int(b.trump[0]), int(b.leader[0]), bool(b.over[0]))
    assert w.piles == [int(x) for x in b.piles[0]] and w.tens == [int(x) for x in b.tens[0]]
    assert (w.centre, w.trick_winner, w.trick_captured) == (
        int(b.centre[0]), int(b.trick_winner[0]), bool(b.trick_captured[0]))


@pytest.mark.parametrize("game,options", VARIANTS, ids=IDS)
def test_forced_cards_give_the_engines_tricks_and_result(game, options):
    rules = cl.Rules.of(game, **options)
    for seed in range(12):
        deal, start, moves = _random_engine_deal(rules, seed)
        w, b = _world_and_batch(rules, start, deal.dealer)
        for card, asked in moves:
            w.step(card=card, ask=asked)
            b.step(cards=card, asks=[asked])
            _same_state(w, b)
        r = deal.result
        assert w.over and (w.winner, w.courts) == (r.winner, r.courts)
        assert pp.KIND_NAMES[w.kind] == r.kind


@pytest.mark.parametrize("game,options", VARIANTS, ids=IDS)
def test_the_rollout_policy_chooses_the_same_cards_as_numpys(game, options):
    """From the same position (a random engine deal cut after a random number of cards),
    the rule policy without randomness picks card for card what numpy's picks."""
    rules = cl.Rules.of(game, **options)
    for seed in range(12):
        deal, start, moves = _random_engine_deal(rules, 100 + seed)
        cut = random.Random(seed).randrange(len(moves))
        w, b = _world_and_batch(rules, start, deal.dealer)
        for card, asked in moves[:cut]:
            w.step(card=card, ask=asked)
            b.step(cards=card, asks=[asked])
        chosen = []
        while not w.over and w.tricks_done < 13:
            c = w.step()
            assert c == int(b.step(rng=np.random.default_rng(0))[0])
            chosen.append(c)
            _same_state(w, b)
        assert b.over[0] and (w.winner, w.courts, w.kind) == (
            int(b.winner[0]), int(b.courts[0]), int(b.kind[0]))
        assert chosen or cut == len(moves)


def _positions():
    """Mid-deal positions of every game and trump method, for a seat to play."""
    out = []
    for n, (game, options) in enumerate(VARIANTS):
        rules = cl.Rules.of(game, **options)
        deal = cl.Deal(rules, dealer=n % 4, seed=40 + n)
        rb = bots.RuleBot()
        stop = 6 + (n * 7) % 30
        while deal.phase.value != "over" and (
                deal.phase.value != "play" or len(deal.actions) < stop):
            bots.act(rb, deal)
        if deal.phase.value == "play":
            out.append(deal)
    return out


def test_the_worlds_of_a_position_are_its_replays():
    """bots._worlds replays the cards played once and copies that world for each placement:
    each copy equals a full replay of that placement."""
    checked = 0
    for deal in _positions():
        seat = deal.to_play
        k = bots._known_from(deal, seat)
        cfg = pp.Config.from_rules(deal.rules)
        trump = k.start_trump
        worlds = bots._worlds(k, cfg, trump, 5, random.Random(3))
        for (hands, hidden, pending), w in zip(bots._placements(k, 5, random.Random(3)), worlds):
            init, pend = bots._start_hands(k, hands, hidden, pending)
            full = pp.World.start(cfg, k.dealer, init, trump=trump, hidden=hidden, pending=pend)
            for m, (s, i) in enumerate(k.order):
                full.step(card=i, ask=k.asks[m])
            assert {n: getattr(w, n) for n in pp.World.__slots__} == \
                   {n: getattr(full, n) for n in pp.World.__slots__}
            checked += 1
    assert checked >= 5 * 15


@pytest.mark.parametrize("n", range(0, 19, 3))
def test_hints_agree_within_their_noise(n, monkeypatch):
    """Same position, both play-outs: each card's chance within four standard errors, and
    the card either path picks is within the noise of the other path's best."""
    deal = _positions()[n]
    seat = deal.to_play
    S = 300
    got = {}
    for mode in ("numpy", "python"):
        monkeypatch.setattr(bots, "PLAYOUTS", mode)
        got[mode] = cl.hint(deal, seat, samples=S, seed=5)
    a, b = got["numpy"].chances, got["python"].chances
    assert list(a) == list(b)
    for card in a:
        p = (a[card] + b[card]) / 2
        se = math.sqrt(max(p * (1 - p), 0.01) * 2 / S)
        assert abs(a[card] - b[card]) <= 4 * se + 1e-9, (card, a[card], b[card])
    for mine, other in ((a, b), (b, a)):
        pick = max(mine, key=mine.get)
        assert other[pick] >= max(other.values()) - 4 * math.sqrt(0.5 / S)


def test_without_numpy_the_python_playouts_are_used(monkeypatch):
    deal = _positions()[0]
    monkeypatch.setattr(bots, "PLAYOUTS", "numpy")
    want = cl.hint(deal, samples=50, seed=1).chances
    monkeypatch.setattr(bots, "PLAYOUTS", "python")
    pure = cl.hint(deal, samples=50, seed=1).chances
    monkeypatch.setattr(bots, "PLAYOUTS", "auto")
    assert cl.hint(deal, samples=50, seed=1).chances == want      # numpy is here
    import sys
    monkeypatch.setitem(sys.modules, "numpy", None)
    assert cl.hint(deal, samples=50, seed=1).chances == pure      # now it is not
    monkeypatch.setattr(bots, "PLAYOUTS", "numpy")
    with pytest.raises(ImportError, match="PLAYOUTS is 'numpy' but numpy is not installed"):
        cl.hint(deal, samples=50, seed=1)
    monkeypatch.setattr(bots, "PLAYOUTS", "fast")
    with pytest.raises(ValueError, match="it must be 'auto', 'numpy' or 'python'"):
        cl.hint(deal, samples=50, seed=1)
