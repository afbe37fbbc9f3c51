"""Questions about the end of a deal: was it a court, and who deals next."""
from __future__ import annotations

import random

import courtlearn as cl
from courtlearn.cards import quoted
from courtlearn.language import N_, tr

from ..explain import list_cards
from ._base import (Question, Unreadable, _norm, longest_suit, play_greedy, play_random, read_seat, table_text)

COURT_KINDS = {"court": N_("court"), "goon": N_("goon court"), "bavney": N_("bavney")}
NO_COURT = N_("no court")

_ANSWERS = {
    "court": "court", "yes": "court", "acourt": "court", "itsacourt": "court", "true": "court",
    "goon": "goon court", "gooncourt": "goon court", "agooncourt": "goon court",
    "bavney": "bavney", "52": "bavney", "52court": "bavney", "bavneycourt": "bavney",
    "nocourt": "no court", "no": "no court", "not": "no court", "notacourt": "no court",
    "none": "no court", "false": "no court", "notcourt": "no court", "tricks": "no court",
    "nocourtatall": "no court", "justtricks": "no court",
    # Urdu and Hindi (spaces and dashes are dropped before the lookup)
    "کوٹ": "court", "ہاں": "court", "گونکوٹ": "goon court", "گون": "goon court",
    "باونی": "bavney", "کوٹنہیں": "no court", "نہیں": "no court",
    "कोट": "court", "हाँ": "court", "हां": "court", "गूनकोट": "goon court", "गून": "goon court",
    "बावनी": "bavney", "कोटनहीं": "no court", "नहीं": "no court",
}


def _read_court(answer) -> str:
    if isinstance(answer, bool):
        return "court" if answer else "no court"
    if isinstance(answer, str) and _norm(answer) in _ANSWERS:
        return _ANSWERS[_norm(answer)]
    raise Unreadable(tr('I could not read {answer!r}: answer "{court}", "{goon}" or "{no}".',
                        answer=quoted(answer), court=tr("court"), goon=tr("goon court"),
                        no=tr(NO_COURT)))


def _final_reason(deal) -> str:
    """The engine's sentence on how the deal ended."""
    ends = [e.text for e in deal.events if e.kind == "end"]
    return ends[-1] if ends else deal.events[-1].text


def _result_line(deal) -> str:
    rules = deal.rules
    t = deal.result.tricks
    ns, ew = rules.team_name(0), rules.team_name(1)
    if rules.game == "dehla_pakad":
        tens = deal.result.tens
        return tr("The deal is over after {n} tricks: {ns} took {a}, {ew} took {b}; tens: {ns} "
                  "{c}, {ew} {d}.", n=len(deal.tricks), ns=ns, a=t[0], ew=ew, b=t[1],
                  c=tens[0], d=tens[1])
    return tr("The deal is over after {n} tricks: {ns} took {a}, {ew} took {b}.",
              n=len(deal.tricks), ns=ns, a=t[0], ew=ew, b=t[1])


# --------------------------------------------------------------------------
# Court or not?


def court_or_not_question(deal, number=None, seed=None) -> Question:
    rules = deal.rules
    res = deal.result
    solution = COURT_KINDS.get(res.kind, NO_COURT)
    reason = _final_reason(deal)
    dealers = rules.team_name(cl.team_of(deal.dealer))
    double_sir = rules.game == "double_sir"

    def judge(given):
        said = _read_court(given)
        if said == solution:
            return True, reason
        if solution == "goon court" and said == "court":
            return False, tr("nearly: it is a court, but a court won by the dealer's own team has "
                             "a name of its own. Who dealt?")
        if solution == "court" and said == "goon court":
            if double_sir:
                return False, tr("a goon court is a court won by the dealing team; {side} dealt. "
                                 "Which team took all thirteen tricks?", side=dealers)
            return False, tr("a goon court is a court won by the dealing team; {side} dealt. "
                             "Which team won the first seven tricks?", side=dealers)
        if solution == "bavney" and said in ("court", "goon court"):
            return False, tr("more than that: after the court the winners played on and took all "
                             "thirteen tricks.")
        if double_sir:
            if said == "bavney":
                return False, tr("a bavney is Court Piece's; in Double Sir all thirteen tricks "
                                 "are a court (a goon court for the dealing team).")
            if said == "no court":
                return False, tr("in Double Sir a court is all thirteen tricks in one team's "
                                 "pile. Count each team's pile.")
            return False, tr("in Double Sir a court needs all thirteen tricks in one team's pile; "
                             "winning the first seven tricks is not enough.")
        if said == "no court":
            return False, tr("count the first seven tricks: did one team win every one of them?")
        if said == "bavney":
            return False, tr("a bavney (52-court) needs one team to win all thirteen tricks.")
        return False, tr("a court needs one team to win each of the first seven tricks, one "
                         "after another; winning seven tricks in all is not enough.")

    text = table_text(deal) + "\n" + _result_line(deal)
    help_ = (tr('Answer "{court}", "{goon}" or "{no}".', court=tr("court"),
                goon=tr("goon court"), no=tr(NO_COURT)) if double_sir else
             tr('Answer "{court}", "{goon}", "{bavney}" or "{no}".', court=tr("court"),
                goon=tr("goon court"), bavney=tr("bavney"), no=tr(NO_COURT)))
    q = Question("court_or_not", deal, tr("Did this deal end in a court?"), tr(solution),
                 reason, judge, text=text, number=number, seed=seed, answer_help=help_)
    if double_sir:
        q.extra["hint_text"] = tr("This is Double Sir: count the tricks in each team's pile at the "
                             "end. Did one team take all thirteen? Then, who dealt?")
    else:
        q.extra["hint_text"] = tr("Look at the first seven tricks one by one: did one team win every "
                             "one of them? Then, who dealt, and were all thirteen played?")
    return q


_DECK = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")


def strong_deal(rules, dealer: int, team: int, rng: random.Random, strength: int = 18):
    """A prearranged deal in which ``team`` holds most of the high cards.

    The trump suit is the trump caller's longest suit among their five.
    Returns (deal, trump)."""
    deck = cl.cards(" ".join(r + s for s in "SHCD" for r in _DECK))
    trump = rng.choice(list(cl.Suit))
    def score(c):
        return (12 if c.suit == trump else 0) + c.rank + rng.random() * 4
    ranked = sorted(deck, key=score, reverse=True)
    strong, rest = ranked[:strength], ranked[strength:]
    rng.shuffle(rest)
    seats_of = [s for s in range(4) if cl.team_of(s) == team]
    hands = {s: [] for s in range(4)}
    for i, c in enumerate(strong):
        hands[seats_of[i % 2]].append(c)
    for c in rest:
        open_seats = [s for s in range(4) if len(hands[s]) < 13]
        hands[min(open_seats, key=lambda s: (len(hands[s]), rng.random()))].append(c)
    for s in hands:
        rng.shuffle(hands[s])
    deal = cl.Deal.prearranged(rules, hands=[list_cards(hands[s]) for s in range(4)],
                               dealer=dealer, seed=rng.randrange(10**6))
    deal.call_trump(trump if trump in [c.suit for c in deal.hand(deal.trump_caller)]
                    else longest_suit(deal.hand(deal.trump_caller)))
    return deal


def court_deal(target: str, rng: random.Random, rules=None, tries: int = 60):
    """A finished deal with result ``target``: "court", "goon", "none" (no court), "near"
    (one team wins the first six tricks, then loses one), "bavney" (Court Piece: a court,
    then all thirteen played on), "seven" (Double Sir: one team wins each of the first
    seven tricks but not all thirteen, so no court). Court Piece unless ``rules`` say."""
    rules = rules or cl.Rules.court_piece()
    deal = None
    for _ in range(tries):
        dealer = rng.randrange(4)
        callers = cl.team_of(dealer + 1)
        if target in ("court", "near", "bavney", "seven"):
            team = callers
        elif target == "goon":
            team = 1 - callers
        else:
            team = rng.randrange(2)
        if target == "none":
            deal = cl.Deal(rules, dealer=dealer, seed=rng.randrange(10**9))
            deal.call_trump(longest_suit(deal.hand(deal.trump_caller)))
        else:
            deal = strong_deal(rules, dealer, team, rng, 24 if target == "bavney" else 18)
        while not deal.over:
            favoured = team
            if target == "near" and len(deal.tricks) == 6:
                favoured = 1 - team
            if target == "seven" and len(deal.tricks) >= 9:
                favoured = 1 - team
            if target == "none":
                play_random(deal, rng)
            else:
                play_greedy(deal, favoured)
            if (target == "bavney" and deal.over and deal.result.kind in ("court", "goon")
                    and len(deal.tricks) == 7):
                deal.play_on()
        kind = deal.result.kind
        firsts = [cl.team_of(t.winner) for t in deal.tricks[:7]]
        if target == "near":
            if kind == "tricks" and firsts[:6] == [team] * 6 and len(set(firsts)) == 2:
                return deal
        elif target == "seven":
            if kind == "tricks" and firsts == [team] * 7:
                return deal
        elif (target == "none" and kind == "tricks") or kind == target:
            return deal
    return deal


def _court_fixed(target, game="court_piece"):
    def build(number):
        rules = getattr(cl.Rules, game)()
        deal = court_deal(target, random.Random(f"court_or_not/fixed/{number}"), rules)
        return court_or_not_question(deal, number=number)
    return build


COURT_OR_NOT_FIXED = [
    _court_fixed("court"),
    _court_fixed("near"),
    _court_fixed("goon"),
    _court_fixed("none"),
    # (the exercise's own, issue 30: the lessons ask 2 and 3)
    _court_fixed("bavney"),                     # a court, played on to all thirteen
    _court_fixed("court", "double_sir"),        # Double Sir: all thirteen tricks
    _court_fixed("seven", "double_sir"),        # Double Sir: the first seven are not a court
    _court_fixed("goon", "double_sir"),         # Double Sir: the dealers take all thirteen
]


def court_or_not_seeded(seed: int) -> Question:
    rng = random.Random(f"court_or_not/{seed}")
    if rng.random() < 0.3:
        rules = cl.Rules.double_sir()
        target = rng.choice(["court", "goon", "seven", "none"])
    else:
        rules = cl.Rules.court_piece()
        target = rng.choice(["court", "court", "goon", "near", "none", "none", "bavney"])
    return court_or_not_question(court_deal(target, rng, rules), seed=seed)


# --------------------------------------------------------------------------
# Who deals next?


def _session_sentence(event, rules) -> str:
    text = event.text
    if text.startswith(f"{event.kind}:"):   # the engine's own sentence, if Event lacks it
        from courtlearn.explain import session_text
        text = session_text(event.kind, event.data, rules)
    return text


def next_dealer_question(session, number=None, seed=None) -> Question:
    """``session.deal`` is over; the engine's ``next_deal()`` decides."""
    deal = session.deal
    rules = deal.rules
    res = deal.result
    before = session.streak                    # the run of won deals, this one included
    events = session.events
    # the engine's sentences about this deal only (the last deal_won and what follows it)
    last = max(i for i, e in enumerate(events) if e.kind == "deal_won")
    said = [_session_sentence(e, rules) for e in events[last:]
            if e.kind in ("deal_won", "streak_court", "next_dealer")]
    streak_court = any(e.kind == "streak_court" for e in events[last:])
    session.next_deal()
    answer = session.deal.dealer
    reason = " ".join(said) or tr("{seat} deals next.", seat=rules.seat_name(answer))
    winners = res.winner
    callers = cl.team_of(deal.trump_caller)
    court = res.courts > 0 or streak_court

    def judge(given):
        seat = read_seat(given, rules)
        if seat == answer:
            return True, reason
        if cl.team_of(seat) == winners:
            return False, tr("the dealer always comes from the team that lost the deal, so that "
                             "the winners call trumps.")
        return False, tr("which team won, and was it a court? The dealer's team winning passes "
                         "the deal on; the trump caller's team winning keeps the same dealer, "
                         "unless they made a court.")

    side = rules.team_name(winners)
    if res.kind == "revoke":
        won = tr("{side} claimed a revoke and won the deal with a court.", side=side)
    elif streak_court:
        won = tr("{side} won the deal, no court in it; before it they had won {n} deals in a "
                 "row.", side=side, n=6)
    elif court and res.kind == "goon":
        won = tr("{side} won the deal with a goon court.", side=side)
    elif court and res.kind == "bavney":
        won = tr("{side} won the deal with a bavney.", side=side)
    elif court and res.kind == "kot":
        won = tr("{side} won the deal with a kot.", side=side)
    elif court:
        won = tr("{side} won the deal with a court.", side=side)
    else:
        won = tr("{side} won the deal, no court.", side=side)
        if before[0] == winners and before[1] > 1:
            won += " " + tr("They have now won {n} deals in a row.", n=before[1])
    text = table_text(deal, tricks=False) + "\n" + _result_line(deal) + "\n" + won
    q = Question("next_dealer", deal, tr("Who deals next?"), rules.seat_name(answer), reason,
                 judge, text=text, number=number, seed=seed,
                 answer_help=tr('Answer with a player, like "{north}".', north=rules.seat_name(2)))
    q.extra.update(session=session, winners=winners, callers=callers, court=court,
                   hint_text=tr("{dealer} dealt and {caller} called trumps. Which team won: the "
                           "dealer's or the trump caller's? And was it a court of any kind?",
                           dealer=rules.seat_name(deal.dealer),
                           caller=rules.seat_name(deal.trump_caller)))
    return q


def finished_session(target: str, rng: random.Random, tries: int = 80, rules=None):
    """A Court Piece session whose first deal is over with the outcome
    ``target``: "dealers" (the dealer's team won), "callers" (the trump
    caller's team won, no court), "court" (the trump caller's team won a
    court, or a kot in Dehla Pakad), "goon" (the dealer's team won a goon court) or
    "revoke" (the trump caller's team claimed the other side's revoke: a court).
    "streak": see :func:`streak_session`."""
    if target == "streak":
        return streak_session(rng)
    rules = rules or cl.Rules.court_piece(revokes="allowed" if target == "revoke" else "prevented")
    session = None
    for _ in range(tries):
        session = cl.Session(rules, seed=rng.randrange(10**9), dealer=rng.randrange(4))
        deal = session.deal
        deal.call_trump(longest_suit(deal.hand(deal.trump_caller)))
        callers = cl.team_of(deal.trump_caller)
        favoured = 1 - callers if target in ("dealers", "goon") else callers
        greedy = target in ("court", "goon") or rng.random() < 0.5
        if target == "revoke":
            _play_a_revoke(deal, 1 - callers, rng)
        while not deal.over:
            if greedy:
                play_greedy(deal, favoured)
            else:
                play_random(deal, rng)
        res = deal.result
        got = ("goon" if res.kind == "goon" else "revoke" if res.kind == "revoke"
               else "dealers" if res.winner != callers
               else "court" if res.courts > 0 else "callers")
        if got == target:
            return session
    return session


def _play_a_revoke(deal, side: int, rng: random.Random) -> None:
    """Play ``deal`` on at random until a player of ``side`` can revoke, revoke, finish the
    trick, and let the other side claim it (the deal ends)."""
    while not deal.over:
        seat, led = deal.to_play, deal.trick.suit_led
        hand = deal.hand(seat)
        if (cl.team_of(seat) == side and led is not None and len(deal.tricks) >= 2
                and any(c.suit == led for c in hand) and any(c.suit != led for c in hand)):
            deal.play(rng.choice([c for c in hand if c.suit != led]))
            while deal.trick.cards and not deal.over:
                play_random(deal, rng)
            if not deal.over:
                deal.claim_revoke(deal.trump_caller)
            return
        play_random(deal, rng)


def streak_session(rng: random.Random, tries: int = 200):
    """A Court Piece session in which one team has won six deals in a row (no court) and
    its seventh deal is over, won again: the streak's court."""
    rules = cl.Rules.court_piece()
    session = None
    for _ in range(tries):
        session = cl.Session(rules, seed=rng.randrange(10**9), dealer=rng.randrange(4))
        team = cl.team_of(session.deal.trump_caller)
        ok = True
        for n in range(7):
            if n:
                session.next_deal()
            deal = session.deal
            deal.call_trump(longest_suit(deal.hand(deal.trump_caller)))
            while not deal.over:
                play_greedy(deal, team)
            if deal.result.winner != team or deal.result.courts:
                ok = False
                break
        if ok:
            return session
    return session


def _next_fixed(target, rules=None):
    def build(number):
        session = finished_session(target, random.Random(f"next_dealer/fixed/{number}"),
                                   rules=rules)
        return next_dealer_question(session, number=number)
    return build


NEXT_DEALER_FIXED = [
    _next_fixed("callers"),
    _next_fixed("dealers"),
    _next_fixed("court"),
    _next_fixed("court", cl.Rules.dehla_pakad()),     # the same rule when a kot is scored
    # (the exercise's own, issue 30: the lessons ask 1-3 and 7)
    _next_fixed("goon"),              # a court by the dealer's team: the deal passes on
    _next_fixed("revoke"),            # a claimed revoke is a court for the claimers
    _next_fixed("streak"),            # the seventh deal in a row: a court for the streak
]


def next_dealer_seeded(seed: int) -> Question:
    rng = random.Random(f"next_dealer/{seed}")
    target = rng.choice(["callers", "callers", "dealers", "dealers", "court", "goon", "revoke",
                         "streak"])
    return next_dealer_question(finished_session(target, rng), seed=seed)
