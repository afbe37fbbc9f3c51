"""Questions about one trick: which card wins, which cards may be played,
and who revoked."""
from __future__ import annotations

import random

import courtlearn as cl

from ..cards import quoted
from ..explain import list_cards
from ..language import N_, suit_word, tr, trn
from ._base import (ALL_WORDS, NOBODY, Question, Unreadable, arrange, call_sensibly, events_since, play_random, read_card, read_cards, read_seat, reason_text, table_text)

CARD_HELP = N_('Answer with a card, like "K♥" or "KH".')


# --------------------------------------------------------------------------
# Which card wins this trick?


def trick_winner_question(deal, fourth, number=None, seed=None) -> Question:
    """``deal`` has three cards on the table; ``fourth`` completes the trick."""
    rules = deal.rules
    player = deal.to_play
    after = deal.copy()
    start = len(after.events)
    after.play(fourth)
    trick = after.tricks[-1]
    played = [c for _, c in trick.cards]
    winner_card = dict(trick.cards)[trick.winner]
    reason = reason_text(events_since(after, start))
    led = played[0].suit
    trump = after.trump

    def judge(answer):
        try:
            card = read_card(answer)
        except Unreadable:
            try:
                seat = read_seat(answer, rules)
            except Unreadable:
                raise Unreadable(tr("I could not read {answer!r} as a card: write it like "
                                    "'K♥' or 'KH'.", answer=quoted(answer))) from None
            card = dict(trick.cards)[seat]
        if card == winner_card:
            return True, reason
        if card not in played:
            return False, tr("{card} is not in this trick; the cards played are {cards}.",
                             card=card, cards=list_cards(played))
        if card.suit != led and card.suit != trump:
            return False, tr("{card} neither follows the suit led ({led}) nor is a trump, so it "
                             "cannot win, however high it is.", card=card, led=led)
        if trump is not None and card.suit != trump and any(c.suit == trump for c in played):
            return False, tr("a trump beats every card of the other suits. Is there a trump "
                             "({trump}) in this trick?", trump=trump)
        if trump is not None and card.suit == trump:
            return False, tr("when more than one trump is played, the highest trump wins.")
        return False, tr("with no trump in the trick, the highest card of the suit led ({led}) "
                         "wins.", led=led)

    text = table_text(deal) + "\n" + tr("Then {seat} plays {card} to complete the trick.",
                                        seat=rules.seat_name(player), card=fourth)
    q = Question("trick_winner", deal, tr("Which card wins this trick?"), str(winner_card),
                 reason, judge, text=text, number=number, seed=seed, answer_help=tr(CARD_HELP))
    if trump is None:
        hint = tr("The suit led is {led} and there are no trumps yet: only a card of the suit "
                  "led can win.", led=led)
    else:
        hint = tr("The suit led is {led} and trumps are {trump}. Is there a trump in the trick? "
                  "Then the highest trump wins; if not, the highest card of the suit led.",
                  led=led, trump=trump)
    q.extra.update(fourth=fourth, trick=trick, trump=trump, hint_text=hint)
    return q


def _trick_winner_fixed(want, moves, fourth, dealer=3):
    def build(number):
        deal = arrange(cl.Rules.court_piece(), dealer, want, seed=number)
        deal.apply(moves)
        return trick_winner_question(deal, cl.Card.parse(fourth), number=number)
    return build


TRICK_WINNER_FIXED = [
    # the highest card of the suit led; an ace of another suit does not count
    _trick_winner_fixed({0: ("QH", ""), 1: ("AC", "H"), 2: ("5H", ""), 3: ("KH", "")},
                        "call:S QH AC 5H", "KH"),
    # a trump beats a higher card of the suit led
    _trick_winner_fixed({0: ("AC", ""), 1: ("KC", ""), 2: ("3C", ""), 3: ("2H", "C")},
                        "call:H AC KC 3C", "2H"),
    # over-trumping: the highest trump wins
    _trick_winner_fixed({0: ("AS KS", ""), 1: ("3S 2D", "S"), 2: ("5S 9S", ""), 3: ("7S 6D", "S")},
                        "call:D AS 3S 5S 7S KS 2D 9S", "6D"),
    # (the exercise's own, issue 30: the lessons ask 1-3)
    # trumps led: every card is a trump, and the highest wins, whoever plays it
    _trick_winner_fixed({0: ("9S", ""), 1: ("10S", ""), 2: ("3S", ""), 3: ("JS", "")},
                        "call:S 9S 10S 3S", "JS"),
    # a second, lower trump (under-trumping) does not beat the first
    _trick_winner_fixed({0: ("KH", ""), 1: ("9S", "H"), 2: ("4H", ""), 3: ("5S", "H")},
                        "call:S KH 9S 4H", "5S"),
    # nobody else can follow and nobody trumps: the leader's two wins
    _trick_winner_fixed({0: ("AD 2D", ""), 1: ("KD AC", "D"), 2: ("QD KH", "D"),
                         3: ("JD QC", "D")},
                        "call:S AD KD QD JD 2D AC KH", "QC"),
]


def trick_winner_seeded(seed: int) -> Question:
    rng = random.Random(f"trick_winner/{seed}")
    want_off_suit = rng.random() < 0.6
    for _ in range(30):
        deal = cl.Deal(cl.Rules.court_piece(), dealer=rng.randrange(4), seed=rng.randrange(10**9))
        call_sensibly(deal)
        for _ in range(4 * rng.randrange(0, 6) + 3):
            play_random(deal, rng)
        fourth = rng.choice(deal.legal_cards())
        cards = [c for _, c in deal.trick.cards] + [fourth]
        if any(c.suit != cards[0].suit for c in cards) == want_off_suit:
            break
    return trick_winner_question(deal, fourth, seed=seed)


# --------------------------------------------------------------------------
# Which cards may this player play?


def legal_cards_question(deal, number=None, seed=None) -> Question:
    rules = deal.rules
    seat = deal.to_play
    name = rules.seat_name(seat)
    hand = list(deal.hand(seat))
    legal = list(deal.legal_cards())
    led = deal.trick.suit_led
    if len(legal) == len(hand):
        if led is None:
            reason = tr("{seat} leads this trick, and the leader may play any card.", seat=name)
        else:
            reason = tr("{seat} holds no {suit}, so {seat} may play any card: a trump, or a card "
                        "of another suit.", seat=name, suit=suit_word(led))
    else:
        bad = next(c for c in hand if c not in legal)
        try:
            deal.copy().play(bad)
            refusal = ""
        except cl.IllegalPlay as exc:
            refusal = " " + str(getattr(exc, "reason", exc))
        reason = tr("{seat} may play {cards}.", seat=name, cards=list_cards(legal)) + refusal

    def judge(answer):
        if isinstance(answer, str) and answer.strip().lower() in ALL_WORDS:
            cards = hand
        else:
            cards = read_cards(answer)
        chosen = set(cards)
        if chosen == set(legal):
            return True, reason
        stray = [c for c in hand_order(chosen) if c not in hand]
        if stray:
            return False, trn("{cards} is not in {seat}'s hand.", "{cards} are not in {seat}'s hand.",
                              len(stray), cards=list_cards(stray), seat=name)
        extra = [c for c in hand if c in chosen and c not in legal]
        if extra:
            return False, tr("{cards} may not be played here: a player must follow the suit led "
                             "whenever they can.", cards=list_cards(extra))
        if led is None:
            return False, tr("some cards are missing: the player who leads a trick may play any "
                             "card.")
        if any(c.suit == led for c in hand):
            return False, tr("some cards are missing: when you follow suit, any card of the suit "
                             "led will do, high or low.")
        return False, tr("some cards are missing: a player who cannot follow suit may play any "
                         "card at all, a trump or not.")

    def hand_order(cards):
        return sorted(cards, key=lambda c: (list(cl.Suit).index(c.suit), -c.rank))

    text = table_text(deal, hands=[seat])
    q = Question("legal_cards", deal, tr("Which cards may {seat} play now?", seat=name),
                 list_cards(legal), reason, judge, text=text, number=number, seed=seed,
                 answer_help=tr('Answer with the cards, like ["K♥", "3♥"] or "KH 3H", or "all".'))
    if led is None:
        q.extra["hint_text"] = tr("Nobody has played to this trick yet: {seat} leads it.", seat=name)
    else:
        q.extra["hint_text"] = tr("The suit led is {suit}, the suit of the trick's first card (not "
                             "of the highest card on the table). Does {seat} hold any {suit}?",
                             suit=suit_word(led), seat=name)
    return q


def _legal_fixed(want, moves, dealer=3):
    def build(number):
        deal = arrange(cl.Rules.court_piece(), dealer, want, seed=number)
        deal.apply(moves)
        return legal_cards_question(deal, number=number)
    return build


LEGAL_CARDS_FIXED = [
    # East holds hearts: must follow
    _legal_fixed({0: ("KH", ""), 1: ("9H 4H", "H")}, "call:S KH"),
    # East has no diamonds: anything goes
    _legal_fixed({0: ("AD", ""), 1: ("", "D")}, "call:C AD"),
    # trumps led, North's only trump must go
    _legal_fixed({0: ("3S", ""), 1: ("8S", ""), 2: ("AS", "S")}, "call:S 3S 8S"),
    # (the exercise's own, issue 30: the lessons ask 1-3)
    # East trumped the heart lead; North still follows hearts, the suit led
    _legal_fixed({0: ("QH", ""), 1: ("2S", "H"), 2: ("5H 8H 3S", "H")}, "call:S QH 2S"),
    # the leader may play any card
    _legal_fixed({0: ("AC", ""), 1: ("KC", ""), 2: ("2C", ""), 3: ("5C", "")},
                 "call:H AC KC 2C 5C"),
    # trick 2: the winner of trick 1 leads, and South follows that suit, with any card of it
    _legal_fixed({0: ("4D 9C 3C", "C"), 1: ("KD", ""), 2: ("2D", ""), 3: ("AD 7C", "")},
                 "call:H 4D KD 2D AD 7C"),
]


def legal_cards_seeded(seed: int) -> Question:
    rng = random.Random(f"legal_cards/{seed}")
    want = rng.choices(["follow", "void", "lead"], weights=[5, 4, 1])[0]
    for _ in range(30):
        deal = cl.Deal(cl.Rules.court_piece(), dealer=rng.randrange(4), seed=rng.randrange(10**9))
        call_sensibly(deal)
        n = 4 * rng.randrange(0, 6) + (0 if want == "lead" else rng.randrange(1, 4))
        for _ in range(n):
            play_random(deal, rng)
        led = deal.trick.suit_led
        if led is None:
            got = "lead"
        elif any(c.suit == led for c in deal.hand(deal.to_play)):
            got = "follow"
        else:
            got = "void"
        if got == want:
            break
    return legal_cards_question(deal, seed=seed)


# --------------------------------------------------------------------------
# Spot the revoke


def _revokers(deal) -> list:
    seats = []
    for r in getattr(deal, "revokes", ()) or ():
        seat = getattr(r, "seat", r[0] if isinstance(r, tuple) else r)
        if seat not in seats:
            seats.append(seat)
    return seats


def _shown_out(deal) -> dict:
    """seat -> suits it has played another card to (as the table saw)."""
    out = {s: set() for s in range(4)}
    for t in deal.tricks:
        led = t.cards[0][1].suit
        for seat, card in t.cards[1:]:
            if card.suit != led:
                out[seat].add(led)
    return out


def spot_the_revoke_question(deal, number=None, seed=None) -> Question:
    rules = deal.rules
    revokers = _revokers(deal)
    answer = revokers[0] if revokers else NOBODY
    if revokers:
        found = [e for e in deal.events if e.kind == "revoke_proven" and e.seat == answer] or \
                [e for e in deal.events if e.kind == "revoke" and e.seat == answer]
        reason = found[0].text if found else tr("{seat} did not follow suit while able.",
                                                 seat=rules.seat_name(answer))
        if not any(e.kind == "revoke_proven" for e in found):
            reason += f" {_later_follow(deal, answer)}".rstrip()
    else:
        reason = tr("everyone followed suit whenever they could; showing out of a suit you do not "
                    "hold is no revoke.")
    shown_out = _shown_out(deal)

    def judge(given):
        seat = read_seat(given, rules, allow_nobody=True)
        if seat == answer:
            return True, reason
        if seat == NOBODY:
            return False, tr("someone played another suit while holding the suit led. Look for a "
                             "player who showed out of a suit and later played a card of it.")
        name = rules.seat_name(seat)
        if shown_out[seat]:
            return False, trn("{seat} played another suit when {suits} was led; that is a revoke "
                              "only if {seat} held a card of the suit led, which shows when {seat} "
                              "plays one later.",
                              "{seat} played another suit when {suits} were led; that is a revoke "
                              "only if {seat} held a card of the suit led, which shows when {seat} "
                              "plays one later.", len(shown_out[seat]), seat=name,
                              suits=list_cards(sorted(shown_out[seat])))
        return False, tr("{seat} followed the suit led every time.", seat=name)

    text = table_text(deal, tricks=True)
    q = Question("spot_the_revoke", deal,
                 tr("Did anyone revoke (play another suit while holding the suit led)? Who?"),
                 rules.seat_name(answer) if answer != NOBODY else tr("nobody"), reason, judge,
                 text=text, number=number, seed=seed, show_all=False,
                 answer_help=tr('Answer with a player, like "East", or "nobody".'))
    q.extra["hint_text"] = tr("Find each card that did not follow the suit led. Did that player play "
                         "a card of the suit led in a later trick?")
    return q


def _later_follow(deal, seat) -> str:
    """The first later card that proves the revoke, in words."""
    rules = deal.rules
    for i, t in enumerate(deal.tricks):
        led = t.cards[0][1].suit
        for s, c in t.cards[1:]:
            if s == seat and c.suit != led:
                for j, later in enumerate(deal.tricks[i + 1:], i + 2):
                    for s2, c2 in later.cards:
                        if s2 == seat and c2.suit == led:
                            return tr("{seat} later played {card} in trick {n}.",
                                      seat=rules.seat_name(seat), card=c2, n=j)
    return ""


def _revoke_fixed(want, moves, dealer=3):
    def build(number):
        rules = cl.Rules.court_piece(revokes="allowed")
        deal = arrange(rules, dealer, want, seed=number)
        deal.apply(moves)
        return spot_the_revoke_question(deal, number=number)
    return build


SPOT_THE_REVOKE_FIXED = [
    # East discards on a heart lead, then follows hearts in the next trick
    _revoke_fixed({0: ("KH AH", ""), 1: ("2C 5H", "H"), 2: ("6H 7H", ""), 3: ("9H 10H", "")},
                  "call:S KH 2C 6H 9H AH 5H 7H 10H"),
    # East really has no hearts: no revoke
    _revoke_fixed({0: ("KH AH", ""), 1: ("2C 3D", "H"), 2: ("6H 7H", ""), 3: ("9H 10H", "")},
                  "call:S KH 2C 6H 9H AH 3D 7H 10H"),
    # North fails to follow trumps, and shows a trump later
    _revoke_fixed({0: ("AS KS", ""), 1: ("4S 6S", ""), 2: ("3D 7S", "S"), 3: ("5S 8S", "")},
                  "call:S AS 4S 3D 5S KS 6S 7S 8S"),
    # (the exercise's own, issue 30: the lessons ask 1 and 2)
    # two players show out of clubs: West really has none, North plays a club later
    _revoke_fixed({0: ("AC KC QC", ""), 1: ("2C 3C 4C", ""), 2: ("5H 9C", "C"),
                   3: ("6H 7H 8H", "C")},
                  "call:S AC 2C 5H 6H KC 3C 9C 7H QC 4C"),
    # East follows diamonds twice, then throws a heart: East has run out, no revoke
    _revoke_fixed({0: ("AD KD QD", ""), 1: ("2D 3D 4H", "D"), 2: ("5D 6D 7D", ""),
                   3: ("8D 9D 10D", "")},
                  "call:S AD 2D 5D 8D KD 3D 6D 9D QD 4H 7D 10D"),
]


def spot_the_revoke_seeded(seed: int) -> Question:
    rng = random.Random(f"spot_the_revoke/{seed}")
    rules = cl.Rules.court_piece(revokes="allowed")
    want_revoke = rng.random() < 0.65
    for _ in range(40):
        deal = cl.Deal(rules, dealer=rng.randrange(4), seed=rng.randrange(10**9))
        call_sensibly(deal)
        revoke_at = rng.randrange(0, 3)
        stop_after = rng.randrange(3, 6)
        revoker = None
        done = False
        while not deal.over:
            led = deal.trick.suit_led
            seat = deal.to_play
            hand = deal.hand(seat)
            if (want_revoke and revoker is None and len(deal.tricks) >= revoke_at and led is not None
                    and any(c.suit == led for c in hand) and any(c.suit != led for c in hand)):
                deal.play(rng.choice([c for c in hand if c.suit != led]))
                revoker = seat
                continue
            play_random(deal, rng)
            if deal.trick.cards:
                continue
            if want_revoke:
                if any(r.provable for r in deal.revokes):
                    done = True
                    break
            elif len(deal.tricks) >= stop_after and any(_shown_out(deal).values()):
                done = True
                break
        if done and not deal.over and (_revokers(deal) != []) == want_revoke:
            break
    return spot_the_revoke_question(deal, seed=seed)

