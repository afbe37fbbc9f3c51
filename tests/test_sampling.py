"""The unseen cards dealt out in plain Python (bots._Sampler.sample_one, no numpy) keep
to what the seat knows and follow the same distribution as the numpy sampler."""
import random

import pytest

import courtlearn as cl
from courtlearn.bots import _known_from, _Sampler
from courtlearn.cardbits import SUIT_MASK_INT


def positions():
    out = []
    for game, seed in (("court_piece", 4), ("double_sir", 9), ("dehla_pakad", 2)):
        deal = cl.Deal(getattr(cl.Rules, game)(stop_when_decided=False), dealer=3, seed=seed)
        bot = cl.bots.RuleBot()
        while len(deal.tricks) < 6 or deal.to_play != 0:
            cl.bots.act(bot, deal)
        out.append(deal)
    first_void = cl.Deal(cl.Rules.dehla_pakad(trump_method="first_void"), dealer=3, seed=5)
    first_void.play(first_void.legal_cards()[0])          # the rest of the pack still to come
    while first_void.to_play != 0:
        first_void.play(first_void.legal_cards()[0])
    out.append(first_void)
    return out


@pytest.mark.parametrize("deal", positions(), ids=lambda d: d.rules.game + "-" + d.rules.trump_method)
def test_each_pure_sample_keeps_to_what_the_seat_knows(deal):
    k = _known_from(deal, 0)
    sampler = _Sampler(k)
    rng = random.Random(3)
    unseen = sum(1 << c for c in k.unknown)
    for _ in range(300):
        hands, hidden, pending = sampler.sample_one(rng)
        assert hands[0] == k.hand
        placed = 0
        for s in range(4):
            mine = hands[s] & ~k.located[s] & (unseen if s else 0)
            assert (hands[s] & ~(k.located[s] | (k.hand if s == 0 else 0))).bit_count() == k.need[s]
            for suit in k.voids[s]:
                assert not mine & SUIT_MASK_INT[suit]
            placed |= mine | pending[s]
        assert placed == unseen
        assert all(p.bit_count() == k.pending_need for p in pending)


@pytest.mark.parametrize("deal", positions(), ids=lambda d: d.rules.game + "-" + d.rules.trump_method)
def test_pure_and_numpy_samplers_agree_on_who_holds_what(deal):
    np = pytest.importorskip("numpy")
    k = _known_from(deal, 0)
    sampler = _Sampler(k)
    n = 2000
    pure = [[0] * 4 for _ in range(52)]
    rng = random.Random(11)
    for _ in range(n):
        hands, _, _ = sampler.sample_one(rng)
        for s in range(1, 4):
            for c in k.unknown:
                pure[c][s] += hands[s] >> c & 1
    hands, _, _ = sampler.sample_batch(n, random.Random(12), np.random.default_rng(12))
    for c in k.unknown:
        for s in range(1, 4):
            vec = float(((hands[:, s] >> np.uint64(c)) & np.uint64(1)).mean())
            assert abs(pure[c][s] / n - vec) < 0.06, (c, s, pure[c][s] / n, vec)
