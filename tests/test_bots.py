"""Bots and hints: legal play in every variant, sensible rules of thumb, a Monte
Carlo bot that decides from what its seat may see, and honest hints."""
from __future__ import annotations

import random

import numpy as np
import pytest

import courtlearn as cl
from courtlearn import fastplay as fp
from courtlearn.bots import (TIE, 
    MonteCarloBot,
    RandomBot,
    RuleBot,
    _fraction_words,
    _known_from,
    _Sampler,
    hint,
)

VARIANTS = [
    ("court_piece", {}),
    ("court_piece", {"trump_method": "shown", "allow_deferred": True}),
    ("court_piece", {"trump_method": "hidden"}),
    ("court_piece", {"trump_method": "hidden_random"}),
    ("court_piece", {"trump_method": "first_void"}),
    ("court_piece", {"allow_deferred": True, "deferred_card": "numbered"}),
    ("court_piece", {"stop_when_decided": False}),
    ("double_sir", {}),
    ("double_sir", {"trump_method": "first_void"}),
    ("double_sir", {"revokes": "allowed", "first_two_capture": False}),
    ("dehla_pakad", {}),
    ("dehla_pakad", {"trump_method": "first_void"}),
    ("dehla_pakad", {"trump_method": "hidden", "tens_tie": "tricks"}),
]
IDS = [g + "-" + ",".join(f"{k}={v}" for k, v in o.items()) for g, o in VARIANTS]

SMALL = 24  # samples for the Monte Carlo bot in tests: quick, still a real search


def play_out(deal, bots, check_legal=True):
    """Plays a deal to its end with act(); every card played is checked legal first."""
    steps = 0
    while True:
        if deal.phase == "play" and check_legal:
            bot = bots[deal.to_play]
            if (deal.trump is None and deal.rules.trump_method in ("hidden", "hidden_random")
                    and deal.can_ask_for_trump() and bot.asks_for_trump(deal)):
                deal.ask_for_trump()
            card = bot.choose(deal)
            assert card in deal.legal_cards(), (bot, card, deal.legal_cards())
            deal.play(card)
        elif deal.phase == "over":
            if bots[deal.to_play].act(deal) == []:
                return deal
        else:
            bots[deal.to_play].act(deal)
        steps += 1
        assert steps < 200


# ------------------------------------------------------------ every variant
@pytest.mark.parametrize("game,options", VARIANTS, ids=IDS)
def test_rule_and_random_bots_play_every_variant_legally(game, options):
    rules = cl.Rules.of(game, **options)
    for seed in range(6):
        deal = play_out(cl.Deal(rules, dealer=seed % 4, seed=seed),
                        [RuleBot(), RandomBot(seed), RuleBot(), RandomBot(seed + 1)])
        assert deal.result is not None
        assert not any(True for _ in deal.revokes), "bots never revoke"


@pytest.mark.parametrize("game,options", VARIANTS, ids=IDS)
def test_monte_carlo_bot_plays_every_variant_legally(game, options):
    rules = cl.Rules.of(game, **options)
    mc = MonteCarloBot(samples=SMALL, seed=1)
    deal = play_out(cl.Deal(rules, dealer=2, seed=11), [mc, RuleBot(), mc, RuleBot()])
    assert deal.result is not None and deal.result.kind != "revoke"


def test_act_makes_one_decision_and_returns_its_events():
    bots = [MonteCarloBot(samples=SMALL, seed=0), RuleBot(), RandomBot(3), RuleBot()]
    deal = cl.Deal(cl.Rules.court_piece(trump_method="hidden"), dealer=3, seed=5)
    first = bots[deal.actor].act(deal)
    assert [e.kind for e in first][:1] == ["set_aside"] and deal.phase == "play"
    decisions = []
    while deal.phase == "play":
        n = len(deal.events)
        added = bots[deal.actor].act(deal)
        assert added == deal.events[n:] and added      # exactly what the deal added
        decisions.append(added[0].kind)
    # one decision each time: a card, or an ask to see the trump (then the card next time)
    assert set(decisions) <= {"play", "ask"}
    assert decisions.count("play") == sum(len(t.cards) for t in deal.tricks)
    assert bots[0].act(deal) == [] or deal.can_play_on()


class _PlainBot:
    """A user's own bot with only the two methods plain Court Piece needs."""

    def choose(self, deal):
        return deal.legal_cards()[-1]

    def call_trump(self, deal):
        return deal.hand(deal.actor)[0].suit


def test_a_plain_user_bot_plays_through_the_one_driver():
    from courtlearn.bots import Bot, act
    frame = cl.simulate(cl.Rules.court_piece(), deals=5, seed=2, bots=_PlainBot(), progress=False)
    assert len(frame) == 5 and set(frame["winner"]) <= {"North–South", "East–West"}
    deal = cl.Deal(cl.Rules.court_piece(trump_method="hidden"), dealer=3, seed=5)
    with pytest.raises(TypeError, match="choose_trump_card"):   # the trump card needs its
        act(_PlainBot(), deal)                                  # method, and says so
    assert deal.actions == []                            # and nothing happened
    assert isinstance(RuleBot(), Bot) and isinstance(MonteCarloBot(), Bot)
    assert not isinstance(_PlainBot(), Bot)


def test_random_bot_is_reproducible_and_uniformish():
    def run(seed):
        deal = cl.Deal(cl.Rules.double_sir(), dealer=0, seed=4)
        bots = [RandomBot(seed)] * 4
        while deal.phase != "over":
            bots[deal.to_play].act(deal)
        return deal.actions
    assert run(1) == run(1)
    assert run(1) != run(2)
    # uniform over legal cards: each of the trump caller's first legal cards comes up
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=8)
    deal.call_trump("S")
    bot = RandomBot(0)
    picks = {bot.choose(deal) for _ in range(400)}
    assert picks == set(deal.legal_cards())


def test_reprs_are_deterministic():
    assert repr(RandomBot(3)) == "RandomBot(seed=3)"
    assert repr(RuleBot()) == "RuleBot()"
    assert repr(MonteCarloBot(samples=100, seed=2)) == "MonteCarloBot(samples=100, seed=2)"
    assert "0x" not in repr(MonteCarloBot())


# ------------------------------------------------------------- RuleBot
# Hands for the rules-of-thumb situations (trump: spades, called by seat 0)
HANDS = [
    "10H 9H 8H 7H AC KC QC JC 10C 2D 3D 4D 5D",
    "2H 5H 6H 9C 8C 7C 6C 5C 2S 3S 4S 5S 6S",
    "3H JH 4C 3C 2C 7S 8S 9S 10S JS 6D 7D 8D",
    "QH KH 4H AH QS KS AS 9D 10D JD QD KD AD",
]


def situation(*cards):
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), HANDS, dealer=3)
    deal.call_trump("S")
    for c in cards:
        deal.play(c)
    return deal


def test_rulebot_wins_cheaply_when_last():
    # 10♥ 2♥ 3♥ led round to West, who holds A♥ K♥ Q♥ 4♥: the queen is enough
    assert RuleBot().choose(situation("10H", "2H", "3H")) == cl.Card.parse("QH")


def test_rulebot_does_not_overtake_a_winning_partner():
    # 2♦ led, East trumps with 2♠, North 6♦: West, last, keeps A♦ K♦ ... and plays 9♦
    assert RuleBot().choose(situation("2D", "2S", "6D")) == cl.Card.parse("9D")


def test_rulebot_trumps_low_when_void_and_it_pays():
    # A♣ is winning for the opponents; West has no clubs: the lowest trump wins it
    assert RuleBot().choose(situation("AC", "5C", "2C")) == cl.Card.parse("QS")


def test_rulebot_leads_a_sure_winner():
    # after West wins with Q♥, West leads: A♦ (or a winning heart) rather than a low card
    deal = situation("10H", "2H", "3H", "QH")
    card = RuleBot().choose(deal)
    assert card in cl.cards("AH AD")


def _fill(*prefixes):
    """Four 13-card hands starting with the given cards; the rest of the deck fills them."""
    used = set(" ".join(prefixes).split())
    rest = [c.code for c in cl.deck() if c.code not in used]
    hands = []
    for p in prefixes:
        cs = p.split()
        take = 13 - len(cs)
        hands.append(" ".join(cs + rest[:take]))
        rest = rest[take:]
    return hands


def test_rulebot_calls_the_suit_it_is_strongest_in():
    # South's first five: A♠ K♠ 9♠ 2♥ 3♦
    hands = _fill("AS KS 9S 2H 3D 4C 5C 6C 7C 8C 9C 10C JC", "", "", "")
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands, dealer=3)
    assert deal.phase == "trump" and len(deal.hand(0)) == 5
    assert RuleBot().call_trump(deal) == cl.Suit.SPADES
    assert MonteCarloBot(samples=60, seed=0).call_trump(deal) == cl.Suit.SPADES
    # shown trump: a card of that suit, the lowest (it becomes public)
    deal = cl.Deal.prearranged(cl.Rules.court_piece(trump_method="shown"), hands, dealer=3)
    assert RuleBot().choose_trump_card(deal) == cl.Card.parse("9S")


# ------------------------------------------------------- no peeking
def _swap_unseen(deal, seat):
    """The same deal, except that two opponents of ``seat`` swap unplayed cards of the
    same suit (so every card played so far stays legal)."""
    d = deal.to_dict()
    a, b = (seat + 1) % 4, (seat + 3) % 4
    ha, hb = deal.hand(a), deal.hand(b)
    for ca in ha:
        for cb in hb:
            if ca.suit == cb.suit and ca != cb:
                hands = d["hands"]
                ia, ib = hands[a].index(ca.code), hands[b].index(cb.code)
                hands[a][ia], hands[b][ib] = cb.code, ca.code
                return cl.Deal.from_dict(d)
    return None


@pytest.mark.parametrize("playouts", ["numpy", "python"])
@pytest.mark.parametrize("game,options", [VARIANTS[0], VARIANTS[3], VARIANTS[7], VARIANTS[10],
                                          VARIANTS[11]], ids=[IDS[0], IDS[3], IDS[7], IDS[10], IDS[11]])
def test_monte_carlo_bot_does_not_peek(game, options, playouts, monkeypatch):
    monkeypatch.setattr(cl.bots, "PLAYOUTS", playouts)
    rules = cl.Rules.of(game, **options)
    checked = 0
    for seed in range(30):
        deal = cl.Deal(rules, dealer=seed % 4, seed=seed)
        rb = RuleBot()
        while deal.phase != "over" and (deal.phase == "trump" or sum(len(t.cards) for t in deal.tricks) + len(deal.trick.cards) < 5 + seed % 13):
            rb.act(deal)
        if deal.phase != "play" or len(deal.legal_cards()) < 2:
            continue
        seat = deal.to_play
        other = _swap_unseen(deal, seat)
        if other is None:
            continue
        assert other.view(seat) == deal.view(seat)
        assert [other.hand(s) for s in range(4)] != [deal.hand(s) for s in range(4)]
        bot1, bot2 = MonteCarloBot(samples=40, seed=9), MonteCarloBot(samples=40, seed=9)
        e1 = bot1._evaluate(deal, seat)
        e2 = bot2._evaluate(other, seat)
        assert e1[0] == e2[0]
        assert np.array_equal(e1[1], e2[1]) and np.array_equal(e1[2], e2[2])
        assert bot1.choose(deal) == bot2.choose(other)
        checked += 1
        if checked == 3:
            break
    assert checked >= 2


def test_samples_fit_what_the_seat_knows():
    """Sampled hands: right sizes, never a suit a seat has shown it lacks, exactly the
    unseen cards, and the seat's own hand untouched."""
    rules = cl.Rules.court_piece()
    found = 0
    for seed in range(60):
        deal = cl.Deal(rules, dealer=seed % 4, seed=seed)
        rb = RuleBot()
        while deal.phase != "over":
            rb.act(deal)
            if deal.phase == "play" and any(deal.view(deal.to_play).voids[s] for s in range(4)):
                break
        if deal.phase != "play":
            continue
        seat = deal.to_play
        view = deal.view(seat)
        k = _known_from(deal, seat)
        hands, _hidden, _pending = _Sampler(k).sample_batch(200, random.Random(1),
                                                          np.random.default_rng(1))
        unseen = 0
        for s in range(4):
            if s != seat:
                for c in deal.hand(s):
                    unseen |= 1 << fp.card_index(c)
        mine = fp.mask_of(deal.hand(seat))
        for row in hands:
            row = [int(x) for x in row]
            assert row[seat] == mine
            others = 0
            for s in range(4):
                assert row[s].bit_count() == view.hand_sizes[s]
                for suit in view.voids[s]:
                    assert row[s] & fp.SUIT_MASK_INT[int(suit)] == 0
                if s != seat:
                    assert others & row[s] == 0
                    others |= row[s]
            assert others == unseen
        found += 1
        if found == 4:
            break
    assert found == 4


def test_hidden_trump_card_is_sampled_not_known():
    rules = cl.Rules.court_piece(trump_method="hidden")
    deal = cl.Deal(rules, dealer=3, seed=2)
    RuleBot().act(deal)                      # seat 0 sets a card aside
    secret = deal.hidden_trump_card
    k0, k1 = _known_from(deal, 0), _known_from(deal, 1)
    assert k0.hidden_card == fp.card_index(secret) and not k0.hidden_slot
    assert k1.hidden_card == -1 and k1.hidden_slot
    _, hidden, _ = _Sampler(k1).sample_batch(300, random.Random(0), np.random.default_rng(0))
    assert len(set(hidden.tolist())) > 10     # seat 1 only guesses


# -------------------------------------------------------------- decisions
def test_monte_carlo_is_reproducible_and_picks_its_best_card():
    deal = cl.Deal(cl.Rules.double_sir(), dealer=1, seed=21)
    rb = RuleBot()
    while sum(len(t.cards) for t in deal.tricks) + len(deal.trick.cards) < 9 or deal.phase == "trump":
        rb.act(deal)
    bot = MonteCarloBot(samples=60, seed=4)
    legal, win, *_ = bot._evaluate(deal, deal.to_play)
    card = bot.choose(deal)
    assert card == MonteCarloBot(samples=60, seed=4).choose(deal)
    # the best chance, or within the noise margin of it (then the lowest such card)
    assert win[legal.index(card)] >= max(win) - TIE
    near = [c for c, w in zip(legal, win) if w >= max(win) - TIE]
    assert card.rank == min(c.rank for c in near)
    assert all(0.0 <= w <= 1.0 for w in win)


def test_cards_the_playouts_cannot_tell_apart_give_the_lowest():
    # West leads A♠ and South holds four small spades: none can win, all do about as
    # well; the bot (and so the hint) gives away the lowest, never an 8 before a 3
    hands = ["8S 6S 5S 3S AH  AC 9C 7C 6C  4C 2C 2D 9D",
             "KS QS JS 10S 9S  KH QH JH 10H  9H 8H 7H 6H",
             "7S 4S 2S 5H 4H  3H 2H KC QC  JC 10C 8C 5C",
             "AS 3C AD KD QD  JD 10D 8D 7D  6D 5D 4D 3D"]
    # fix the hands so that West (seat 3) calls and leads: dealer North (2)
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=[hands[0], hands[1], hands[2],
                                                              hands[3]], dealer=2)
    deal.call_trump("D")
    deal.play("AS")
    card = MonteCarloBot(samples=200, seed=0).choose(deal)
    assert card == cl.Card.parse("3S")


def _match(bot_a, bot_b, game, seeds):
    """Deals won by bot_a's pair, each deal played with both seatings."""
    won = 0
    for seed in seeds:
        for a_team in (0, 1):
            deal = cl.Deal(cl.Rules.of(game), dealer=seed % 4, seed=seed)
            bots = [bot_a if s % 2 == a_team else bot_b for s in range(4)]
            while deal.phase != "over":
                bots[deal.to_play].act(deal)
            won += deal.result.winner == a_team
    return won


def test_monte_carlo_and_rule_bots_beat_random_play():
    # 12 deals, each with both seatings: 24 games; a coin would win about 12
    seeds = range(300, 312)
    assert _match(RuleBot(), RandomBot(1), "court_piece", seeds) >= 16
    assert _match(MonteCarloBot(samples=SMALL, seed=0), RandomBot(1), "court_piece", seeds) >= 17


# ------------------------------------------------------------------ hints
def test_hint_names_the_card_and_its_chances():
    deal = situation("10H", "2H", "3H")
    h = hint(deal)
    assert h.card in deal.legal_cards()
    assert set(h.chances) == set(deal.legal_cards())
    assert all(0.0 <= p <= 1.0 for p in h.chances.values())
    assert h.chances[h.card] == max(h.chances.values())
    assert h.text.startswith(f"Play {h.card}")
    assert "wins this trick" in h.text            # Q♥ K♥ A♥ all win it: it says so
    assert h.text == hint(deal).text               # the same every time it is asked
    assert cl.hint(deal).card == h.card            # also as cl.hint


def test_hint_says_when_a_card_may_be_beaten():
    # South leads into a trick where West may hold the A♥: the hint explains how often
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), HANDS, dealer=3)
    deal.call_trump("S")
    h = hint(deal, samples=120)
    assert h.text.startswith("Play ")
    # the sentence about the deal is the chance itself, in words
    p = h.chances[h.card]
    assert f"your side wins the deal {_fraction_words(p, 'time')}" in h.text
    assert _fraction_words(0.26) == "about 1 deal in 4"
    assert _fraction_words(0.7, "time") == "about 7 times in 10"


def test_hint_for_the_trump_call():
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    h = hint(deal, samples=60)
    assert h.card in {c.suit for c in deal.hand(0)}
    assert h.text.startswith("Call ")


def test_hint_refuses_a_seat_not_to_play():
    deal = situation("10H")
    with pytest.raises(ValueError):
        hint(deal, seat=0)


def test_hint_for_a_trump_card_and_deferring():
    rules = cl.Rules.court_piece(trump_method="shown", allow_deferred=True)
    deal = cl.Deal(rules, dealer=3, seed=7)
    h = hint(deal, samples=40)
    assert h.card in deal.hand(0)                   # a card to show, one of the five
    assert set(h.chances) <= set(deal.hand(0))
    assert h.text.startswith(f"Choose {h.card} as the trump card")
    assert "Deferring" in h.text


@pytest.mark.parametrize("game,options", VARIANTS, ids=IDS)
def test_hints_in_every_variant(game, options):
    rules = cl.Rules.of(game, **options)
    deal = cl.Deal(rules, dealer=1, seed=3)
    rb = RuleBot()
    given = 0
    while deal.phase != "over" and given < 3:
        if deal.phase == "play" and len(deal.tricks) % 4 == 1 and len(deal.legal_cards()) > 1:
            h = hint(deal, samples=SMALL)
            assert h.card in deal.legal_cards()
            assert set(h.chances) == set(deal.legal_cards())
            assert h.text.startswith(f"Play {h.card}") and h.text.endswith(".")
            given += 1
        rb.act(deal)
    assert given >= 1


# ------------------------------------------------ positions after a revoke (issue 23)
REVOKE_VARIANTS = [(game, {"trump_method": method, "revokes": "allowed"})
                   for game in ("court_piece", "double_sir", "dehla_pakad")
                   for method in ("called", "shown", "hidden", "hidden_random", "first_void")]
REVOKE_IDS = [g + "-" + o["trump_method"] for g, o in REVOKE_VARIANTS]


def _revoke_positions(rules, deals, every=0.3):
    """Positions in play after a revoke (some corrected), from deals of random moves in
    which a seat that may revoke does so a third of the time: yields (deal, seed)."""
    for seed in range(deals):
        rng = random.Random(seed)
        deal = cl.Deal(rules, dealer=rng.randrange(4), seed=seed)
        while deal.phase != "over":
            seat = deal.actor
            moves = {m.kind: m for m in deal.moves(seat)}
            if deal.phase == "play" and deal.revokes and rng.random() < every:
                yield deal, seed
            if "call_trump" in moves:
                deal.call_trump(rng.choice(deal.hand(seat)).suit)
            elif "choose_trump_card" in moves:
                deal.choose_trump_card(rng.choice(deal.hand(seat)))
            elif deal.can_correct_revoke() and rng.random() < 0.2:
                deal.correct_revoke()
            elif "ask_for_trump" in moves and rng.random() < 0.5:
                deal.ask_for_trump()
            else:
                legal = deal.legal_cards()
                revoking = [c for c in moves["play"].cards if c not in legal]
                deal.play(rng.choice(revoking if revoking and rng.random() < 0.3 else legal))


def _public_state(deal):
    """What every world sampled for the seat to play must agree on, as the worlds hold it."""
    # a face-down trump card asked for just now is shown in the worlds with the next card
    asked_now = bool(deal.actions) and deal.actions[-1] == "ask"
    trump = -1 if deal.trump is None or asked_now else fp.card_index(cl.Card(deal.trump, 2)) & 3
    sizes = list(deal.view(deal.to_play).hand_sizes)
    sizes[deal.trump_caller] -= asked_now
    return (deal.to_play, len(deal.tricks), len(deal.trick.cards), trump, deal.tricks_won,
            len(deal.centre), deal.tens_won if deal.rules.game != "court_piece" else None,
            tuple(sizes))


@pytest.mark.parametrize("game,options", REVOKE_VARIANTS, ids=REVOKE_IDS)
def test_sampled_worlds_replay_the_deal_after_a_revoke(game, options):
    """The play-outs replay the cards played, revokes included, in every sampled world, and
    both paths (numpy's Batch, Python's World) must land where the deal is: the same seat to
    play, trump, piles, centre, tens and hand sizes. (A revoking card fixes a first_void trump
    and an ask shows a face-down trump whatever the sampled hand holds: before issue 23 the
    worlds went astray there, and hints crashed.)"""
    from courtlearn import bots, pureplay as pp
    rules = cl.Rules.of(game, **options)
    checked = 0
    for deal, seed in _revoke_positions(rules, 8):
        want = _public_state(deal)
        seat = deal.to_play
        trump_given = -1 if options["trump_method"] in ("hidden", "hidden_random",
                                                        "first_void") else None
        k = bots._known_from(deal, seat)
        trump = k.trump if trump_given is None else trump_given
        for w in bots._worlds(k, pp.Config.from_rules(rules), trump, 3, random.Random(seed)):
            got = (w.to_play, w.tricks_done, w.ncards, w.trump, tuple(w.piles), w.centre,
                   tuple(w.tens) if rules.game != "court_piece" else None,
                   tuple(h.bit_count() for h in w.hands))
            assert got == want, (seed, deal.actions)
        b = bots._batch(bots._known_from(deal, seat), fp.Config.from_rules(rules), trump, 3,
                        random.Random(seed), np.random.default_rng(seed))
        for i in range(3):
            got = (int(b.to_play[i]), b.tricks_done, b.ncards, int(b.trump[i]),
                   tuple(int(x) for x in b.piles[i]), int(b.centre[i]),
                   tuple(int(x) for x in b.tens[i]) if rules.game != "court_piece" else None,
                   tuple(int(h).bit_count() for h in b.hands[i]))
            assert got == want, (seed, deal.actions)
        checked += 1
    assert checked >= 5


def test_a_hint_after_a_revoke_under_first_void():
    """The issue's own example: South's hint after East revoked (8♥ on a spade lead), which
    fixed hearts as trumps, raised IndexError in numpy's play-outs."""
    deal = cl.Deal(cl.Rules.double_sir(trump_method="first_void", revokes="allowed"), dealer=3,
                   seed=1)
    cl.play_cards(deal, "JS 8H 6S 5S")
    assert deal.revokes and deal.trump is cl.Suit.HEARTS
    h = cl.hint(deal, samples=SMALL)
    assert h.card in deal.legal_cards()
    assert MonteCarloBot(samples=SMALL).choose(deal) in deal.legal_cards()


@pytest.mark.parametrize("playouts", ["numpy", "python"])
def test_hints_and_monte_carlo_never_raise_after_revokes(playouts, monkeypatch):
    """A random run over revoke positions of every game and trump method: every hint and
    every Monte Carlo decision gives a lawful card, on both paths of the play-outs."""
    from courtlearn import bots
    monkeypatch.setattr(bots, "PLAYOUTS", playouts)
    mc = MonteCarloBot(samples=8, seed=2)
    given = 0
    for game, options in REVOKE_VARIANTS:
        for deal, _ in _revoke_positions(cl.Rules.of(game, **options), 4, every=0.15):
            h = cl.hint(deal, samples=8)
            assert h.card in deal.legal_cards()
            assert mc.choose(deal) in deal.legal_cards()
            given += 1
    assert given >= 300


# ------------------------------------------------------------- BestPlayBot
def _late(rules, seed, tricks=9):
    """A deal of ``rules`` played by RuleBots to ``tricks`` tricks (None if it ended)."""
    deal = cl.Deal(rules, dealer=seed % 4, seed=seed)
    while deal.phase != "over" and len(deal.tricks) < tricks:
        RuleBot().act(deal)
    return deal if deal.phase == "play" else None


def _lowest(cards):
    return min(cards, key=lambda c: (c.rank, c.si))


@pytest.mark.parametrize("game,options", [
    ("court_piece", {"stop_when_decided": False}), ("double_sir", {}), ("dehla_pakad", {}),
    ("double_sir", {"trump_method": "first_void"}), ("dehla_pakad", {"trump_method": "first_void"}),
])
def test_best_play_bot_plays_the_lowest_of_the_solvers_best_cards(game, options):
    """From the last five tricks to the end, every card it plays is lawful, one of
    cl.solve's best, and the lowest of them; a second bot plays the same."""
    from courtlearn.solver import solve
    rules = cl.Rules.of(game, **options)
    bot, positions = cl.bots.BestPlayBot(), 0
    for seed in range(8):
        deal = _late(rules, seed, tricks=8)
        while deal is not None and deal.phase == "play":
            card = bot.choose(deal)
            assert card in deal.legal_cards()
            assert card == _lowest(solve(deal, progress=False).best)
            assert cl.bots.BestPlayBot().choose(deal) == card and bot.choose(deal) == card
            deal.play(card)
            positions += 1
    assert positions > 40


def test_best_play_bot_takes_a_trick_only_when_it_pays():
    """The position of lesson 07 at trick 11 after South's 10♠: East's three spades are
    worth the same with all hands known (North's 9♠ or South's K♠ takes the last trick
    anyway), so the bot keeps its J♠ and plays the 4♠, where the K♠ led instead makes the
    J♠ the master and the bot keeps it for the last trick, which sweeps the centre."""
    deal = cl.Deal.prearranged(cl.Rules.double_sir(), hands=[
        "AS KS 10S AH KD 5C 8C 3D 8D 3H 6H JH 2S", "3S QS AD AC KC 4D 9D 10D 10C QC 4S 7S JS",
        "5S 4H 6D 3C 6C QD JD 5H QH 9H 6S 8S 9S", "2H 7H 2D 4C 7C 5D 7D KH 8H 10H 2C 9C JC",
    ], dealer=3)
    deal.call_trump("S")
    deal.apply("AS 3S 5S 2H AH QS 4H 7H AD 6D 2D KD AC 3C 4C 5C KC 6C 7C 8C 4D QD 5D 3D "
               "JD 7D 8D 9D 5H KH 3H 10D 8H 6H 10C QH 9H 10H JH QC")
    ten = deal.copy()
    ten.play("10S")
    assert cl.bots.BestPlayBot().choose(ten) == cl.Card.parse("4S")
    king = deal.copy()
    king.apply("KS 4S 6S 2C 10S")
    assert cl.bots.BestPlayBot().choose(king) == cl.Card.parse("7S")     # not the J♠
    assert RuleBot().choose(king) == cl.Card.parse("JS")                 # RuleBot cashes it


def test_best_play_bot_plays_as_rulebot_where_the_solver_does_not_answer(monkeypatch):
    import courtlearn.solver as solver
    bot, rule = cl.bots.BestPlayBot(), RuleBot()
    # fixing the trump: RuleBot's call and trump card
    fresh = cl.Deal(cl.Rules.double_sir(), dealer=3, seed=4)
    assert bot.call_trump(fresh) == rule.call_trump(fresh)
    shown = cl.Deal(cl.Rules.court_piece(trump_method="hidden"), dealer=3, seed=4)
    assert bot.choose_trump_card(shown) == rule.choose_trump_card(shown)
    # a hidden trump still face down: the solver refuses, RuleBot's card
    shown.choose_trump_card(rule.choose_trump_card(shown))
    with pytest.raises(ValueError):
        solver.solve(shown, progress=False)
    assert bot.choose(shown) == rule.choose(shown)
    # early in a deal no search is even tried (it would take seconds, then give up)
    early = cl.Deal(cl.Rules.dehla_pakad(), dealer=3, seed=4)
    rule.act(early)

    def searched(deal, **_):
        raise AssertionError("the solver was asked")
    monkeypatch.setattr(solver, "solve", searched)
    assert bot.choose(early) == rule.choose(early)
    # a position past the solver's budget: RuleBot's card
    asked = []

    def refuse(deal, **_):
        asked.append(deal)
        raise solver.PositionTooLarge("too large", from_trick=12, trick=10, nodes=9, budget=9)
    monkeypatch.setattr(solver, "solve", refuse)
    late = _late(cl.Rules.double_sir(), 1, tricks=10)
    assert bot.choose(late) == rule.choose(late) and asked


def test_best_play_bot_plays_whole_deals_through_act():
    for rules in (cl.Rules.court_piece(), cl.Rules.court_piece(trump_method="hidden")):
        deal = play_out(cl.Deal(rules, dealer=1, seed=3), [cl.bots.BestPlayBot()] * 4)
        assert deal.result is not None and deal.result.kind != "revoke"
    assert repr(cl.bots.BestPlayBot()) == "BestPlayBot()"
    with pytest.raises(TypeError):
        cl.bots.BestPlayBot().choose("AS")
