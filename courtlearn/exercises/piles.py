"""Questions about the centre pile (Double Sir) and the tens (Dehla Pakad)."""
from __future__ import annotations

import random

import courtlearn as cl
from courtlearn.cards import quoted
from courtlearn.language import tr, trn

from ._base import (NOBODY, Question, Unreadable, arrange, call_sensibly, events_since, play_random, read_seat, read_team, reason_text, table_text)


def _pile_line(deal) -> str:
    rules = deal.rules
    won = deal.tricks_won
    return trn("Centre pile: {n} trick; {ns} hold {a}, {ew} hold {b}.",
               "Centre pile: {n} tricks; {ns} hold {a}, {ew} hold {b}.", len(deal.centre),
               ns=rules.team_name(0), a=won[0], ew=rules.team_name(1), b=won[1])


# --------------------------------------------------------------------------
# Who collects the centre pile after this trick?


def pile_capture_question(deal, fourth, number=None, seed=None) -> Question:
    rules = deal.rules
    player = deal.to_play
    after = deal.copy()
    start = len(after.events)
    after.play(fourth)
    trick = after.tricks[-1]
    winner = trick.winner
    before_won = tuple(deal.tricks_won)
    captured = len(after.centre) == 0 or tuple(after.tricks_won) != before_won
    answer = winner if captured else NOBODY
    reason = reason_text(events_since(after, start))
    previous = deal.tricks[-1].winner if deal.tricks else None

    def judge(given):
        try:
            seat = read_seat(given, rules, allow_nobody=True)
        except Unreadable:
            try:
                team = read_team(given, rules)
            except Unreadable:
                raise Unreadable(tr("I could not read {given!r} as a player: write a seat like "
                                    "'{north}', or \"{nobody}\".", given=quoted(given),
                                    north=rules.seat_name(2), nobody=tr("nobody"))) from None
            if captured and cl.team_of(winner) == team:
                return True, reason
            return False, tr("a team takes the pile only when one of its players wins two tricks "
                             "in a row; partners do not chain. Who wins this trick?")
        if seat == answer:
            return True, reason
        if seat == NOBODY:
            return False, tr("look at who won the trick before this one: a player who wins two "
                             "tricks in a row takes the whole centre pile, and the 13th trick "
                             "takes whatever is left.")
        name = rules.seat_name(seat)
        if captured and cl.team_of(seat) == cl.team_of(winner):
            return False, tr("the pile goes to that team, but it is the player who won the trick "
                             "who picks it up.")
        if seat != winner:
            return False, tr("{seat} does not win this trick, and only the winner of a trick can "
                             "collect the pile. Who wins it?", seat=name)
        return False, tr("winning this trick is not enough: the same player must have won the "
                         "trick before it too (partners do not chain), and after a capture a new "
                         "pile starts.")

    text = (table_text(deal) + "\n" + _pile_line(deal) + "\n" +
            tr("Then {seat} plays {card} to complete trick {n}.", seat=rules.seat_name(player),
               card=fourth, n=len(deal.tricks) + 1))
    solution = rules.seat_name(winner) if captured else tr("nobody")
    q = Question("pile_capture", deal, tr("Who collects the centre pile after this trick?"),
                 solution, reason, judge, text=text, number=number, seed=seed,
                 answer_help=tr('Answer with a player, like "{north}", or "{nobody}" if the pile '
                                'stays in the centre.', north=rules.seat_name(2),
                                nobody=tr("nobody")))
    hint = tr("Who wins this trick, and who won the trick before it? Count from the last "
              "capture: a capture starts a new pile.")
    if len(deal.tricks) == 12:
        hint = tr("This is the thirteenth trick, the last one.")
    q.extra.update(previous_winner=previous, fourth=fourth, trick=trick, after=after, hint_text=hint)
    return q


def _is_seat_text(given, rules) -> bool:
    try:
        read_seat(given, rules)
        return True
    except Unreadable:
        return False


def _pile_fixed(want, moves, fourth, dealer=3):
    def build(number):
        deal = arrange(cl.Rules.double_sir(), dealer, want, seed=number)
        deal.apply(moves)
        return pile_capture_question(deal, cl.Card.parse(fourth), number=number)
    return build


PILE_CAPTURE_FIXED = [
    # the Double Sir source's own example: East wins two in a row and takes all three
    _pile_fixed({0: ("AS AH KD", ""), 1: ("3S QS AD", "H"), 2: ("5S 4H 6D", ""), 3: ("2H 7H 2D", "S")},
                "call:S AS 3S 5S 2H AH QS 4H 7H AD 6D 2D", "KD"),
    # partners do not chain: South then North takes nothing
    _pile_fixed({0: ("AH 4C", ""), 1: ("3H 6C", ""), 2: ("5H AC", ""), 3: ("6H 8C", "")},
                "call:S AH 3H 5H 6H 4C 6C AC", "8C"),
    # a new pile after a capture: South's fourth trick in a row takes tricks 3 and 4
    _pile_fixed({0: ("AC KC QC JC", ""), 1: ("2C 3C 4C 5C", "C"), 2: ("6C 7C 8C 9C", "C"),
                 3: ("10C 2H 3H 4H", "C")},
                "call:S AC 2C 6C 10C KC 3C 7C 2H QC 4C 8C 3H JC 5C 9C", "4H"),
    # (the exercise's own, issue 30: the lessons ask 2 and 3)
    # the 13th trick sweeps the centre, though its winner did not win the 12th
    lambda number: _last_trick_question(number),
    # West's third win in a row only starts a new pile
    _pile_fixed({0: ("2H 3D 4D", ""), 1: ("5H 6D 7D", ""), 2: ("8H 8D 9D", ""),
                 3: ("AH AD KD", "")},
                "call:S 2H 5H 8H AH AD 3D 6D 8D KD 4D 7D", "9D"),
]


def _last_trick_question(number):
    """A Double Sir deal played by RuleBot to its 13th trick, with tricks in the centre, some
    in each side's pile, and the 13th trick won by another player than the 12th (the first
    such seeded deal)."""
    rules = cl.Rules.double_sir(stop_when_decided=False)
    bot = cl.bots.RuleBot()
    for seed in range(200):
        deal = cl.Deal(rules, dealer=seed % 4, seed=seed)
        while deal.phase != "over" and not (len(deal.tricks) == 12 and len(deal.trick.cards) == 3):
            cl.bots.act(bot, deal)
        if deal.phase == "over" or not deal.centre or not all(deal.tricks_won):
            continue
        fourth = deal.legal_cards()[0]
        after = deal.copy()
        after.play(fourth)
        if after.tricks[-1].winner != deal.tricks[-1].winner:
            return pile_capture_question(deal, fourth, number=number)
    raise RuntimeError("no deal for the last-trick question")


def pile_capture_seeded(seed: int) -> Question:
    rng = random.Random(f"pile_capture/{seed}")
    want_capture = rng.random() < 0.5
    for _ in range(40):
        deal = cl.Deal(cl.Rules.double_sir(), dealer=rng.randrange(4), seed=rng.randrange(10**9))
        call_sensibly(deal)
        for _ in range(4 * rng.randrange(1, 12) + 3):
            if deal.over:
                break
            play_random(deal, rng)
        if deal.over or len(deal.trick.cards) != 3:
            continue
        fourth = rng.choice(deal.legal_cards())
        after = deal.copy()
        after.play(fourth)
        if (len(after.centre) == 0) == want_capture:
            break
    return pile_capture_question(deal, fourth, seed=seed)


# --------------------------------------------------------------------------
# Who wins on tens?


def _tens_line(deal) -> str:
    rules = deal.rules
    res = deal.result
    tens = res.tens
    tricks = res.tricks
    return tr("The deal is over. Tens taken: {ns} {a}, {ew} {b}. Tricks taken: {ns} {c}, {ew} "
              "{d}.", ns=rules.team_name(0), a=tens[0], ew=rules.team_name(1), b=tens[1],
              c=tricks[0], d=tricks[1])


def _final_reason(deal) -> str:
    """The engine's sentence on how the deal ended."""
    ends = [e.text for e in deal.events if e.kind == "end"]
    return ends[-1] if ends else deal.events[-1].text


def tens_winner_question(deal, number=None, seed=None) -> Question:
    rules = deal.rules
    res = deal.result
    winner = res.winner
    dealers = cl.team_of(deal.dealer)
    tens = tuple(res.tens)
    reason = _final_reason(deal)
    if res.kind == "kot":
        reason += (" " + tr("(all four tens: a kot)")) if tr("kot") not in reason.lower() else ""

    def judge(given):
        try:
            team = read_team(given, rules)
        except Unreadable:
            if isinstance(given, str) and given.strip().lower() in ("kot", "a kot", "court"):
                raise Unreadable(tr("say which team wins (and so scores the kot): '{ns}' or "
                                    "'{ew}'.", ns=rules.team_name(0),
                                    ew=rules.team_name(1))) from None
            if _is_seat_text(given, rules) or isinstance(given, int):
                raise Unreadable(tr("answer with a team, like '{ns}' or '{ew}': partners win "
                                    "together.", ns=rules.team_name(0),
                                    ew=rules.team_name(1))) from None
            raise
        if team == winner:
            return True, reason
        if tens[team] == 4 or tens[1 - team] == 4:
            return False, tr("a team that takes all four tens scores a kot.")
        if tens[0] == tens[1]:
            if getattr(rules, "tens_tie", "non_dealers") == "tricks":
                return False, tr("with this house rule (tens_tie = \"tricks\") a 2–2 split of "
                                 "the tens goes to the team with more tricks.")
            return False, tr("a 2–2 split of the tens goes to the team that did not deal. "
                             "{seat} dealt.", seat=rules.seat_name(deal.dealer))
        return False, tr("the team that did not deal wins with two or three tens; the dealer's "
                         "team needs three. {seat} dealt, so the dealing team is {side}.",
                         seat=rules.seat_name(deal.dealer), side=rules.team_name(dealers))

    text = table_text(deal, tricks=False) + "\n" + _tens_line(deal)
    if getattr(rules, "tens_tie", "non_dealers") == "tricks":
        text += "\n" + tr("House rule: a 2–2 split of the tens goes to the team with more "
                          "tricks.")
    q = Question("tens_winner", deal, tr("Which team wins this deal?"),
                 rules.team_name(winner), reason, judge, text=text, number=number, seed=seed,
                 answer_help=tr('Answer with a team, like "{ns}" or "{ew}".',
                                ns=rules.team_name(0), ew=rules.team_name(1)))
    q.extra["hint_text"] = tr("{seat} dealt, so {dealers} need three tens and {others} two; all "
                         "four tens are a kot.", seat=rules.seat_name(deal.dealer),
                         dealers=rules.team_name(dealers), others=rules.team_name(1 - dealers))
    return q


def _play_out(deal, rng):
    call_sensibly(deal)
    while not deal.over:
        play_random(deal, rng)
    return deal


def _tens_search(rules, pattern, rng, tries=60):
    """A deal played out at random whose tens split (dealers, others) matches."""
    deal = None
    for _ in range(tries):
        deal = _play_out(cl.Deal(rules, dealer=rng.randrange(4), seed=rng.randrange(10**9)), rng)
        d = cl.team_of(deal.dealer)
        split = (deal.result.tens[d], deal.result.tens[1 - d])
        if pattern is None or split == pattern:
            if rules.tens_tie == "tricks" and split == (2, 2) and \
                    deal.result.tricks[0] == deal.result.tricks[1]:
                continue
            return deal
    return deal


def _tens_fixed(pattern, **options):
    def build(number):
        rules = cl.Rules.dehla_pakad(stop_when_decided=False, **options)
        deal = _tens_search(rules, pattern, random.Random(f"tens_winner/fixed/{number}"))
        return tens_winner_question(deal, number=number)
    return build


TENS_WINNER_FIXED = [
    _tens_fixed((1, 3)),                        # the non-dealers take three
    _tens_fixed((2, 2)),                        # a 2–2 split: the non-dealers win
    _tens_fixed((3, 1)),                        # the dealers need three
    _tens_fixed((2, 2), tens_tie="tricks"),     # house rule: more tricks wins a 2–2 split
    # (the exercise's own, issue 30: the lessons ask 2-4)
    _tens_fixed((0, 4)),                        # the non-dealers take all four: a kot
    _tens_fixed((4, 0)),                        # the dealers take all four: a kot too
]


def tens_winner_seeded(seed: int) -> Question:
    rng = random.Random(f"tens_winner/{seed}")
    options = {"tens_tie": "tricks"} if rng.random() < 0.2 else {}
    pattern = rng.choice([(2, 2), (2, 2), (1, 3), (3, 1), (0, 4), (4, 0), (2, 2)])
    rules = cl.Rules.dehla_pakad(stop_when_decided=False, **options)
    return tens_winner_question(_tens_search(rules, pattern, rng), seed=seed)
