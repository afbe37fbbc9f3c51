"""Strategy exercises of the "playing well" lessons (15-19): which suit to call, and the
score sheet after a deal.

``call_trump``: South is the trump caller and sees five cards. The answer is a suit; it is
judged by the engine's trump chances (the hint at the call, :func:`courtlearn.hint`,
which plays the deal out many times with each suit as trumps, the unseen cards shared out
at random): every suit within :data:`MARGIN` of the best one is right. The feedback gives
the chance with the learner's suit and with the best one, and names the rule of thumb of
lesson 15 the hand illustrates.

``score_sheet``: a session of Court Piece or Double Sir, played by the computer, stops
after a deal. The learner writes the sheet after it: the courts of each side (a goon court
at its worth: one court in Court Piece, ``goon_courts`` courts in Double Sir), the goon
courts among them (marked, as the sheet shows them), the streak (which side has won how
many deals in a row) and who deals next. The answer comes from :class:`courtlearn.Session`
itself.

>>> import courtlearn as cl
>>> q = cl.exercises.question("call_trump", 2)         # A♣ Q♣ and three small diamonds
>>> q.solution
'♦'
>>> fb = q.check("clubs")                              # doctest: +ELLIPSIS
Not yet: with clubs as trumps your side wins about ... deals in 100; with diamonds, ...
>>> q = cl.exercises.question("score_sheet", 3)        # a court for East–West
>>> fb = q.check({"courts": (0, 1), "streak": None, "dealer": "South"})  # doctest: +ELLIPSIS
Correct: Courts: North–South 0, East–West 1 · streak: no streak · South deals next. ...
>>> q = cl.exercises.question("score_sheet", 5)        # a goon court in Double Sir
>>> fb = q.check({"courts": (0, 1), "goon courts": (0, 1), "streak": None,
...               "next dealer": "South"})              # doctest: +ELLIPSIS
Not yet: look again at the courts: East–West dealt and won a court, a goon court, which Double Sir scores as 3 courts.
"""
from __future__ import annotations

import random

import courtlearn as cl
from courtlearn.cards import quoted
from courtlearn.language import N_, tr, trn

from ._base import Question, Unreadable, _norm, arrange, read_seat, read_team

__all__ = ["CALL_TRUMP_FIXED", "SCORE_SHEET_FIXED", "call_trump_question", "call_trump_seeded",
           "score_sheet_question", "score_sheet_seeded", "CALL_TITLE", "CALL_RULE",
           "SHEET_TITLE", "SHEET_RULE", "MARGIN", "read_suit", "sheet_choices", "sheet_label"]

CALL_TITLE = N_("Which suit do you call?")
CALL_RULE = N_("Call your longest suit; between suits of equal length, the one with the higher "
               "cards. Length counts for more than high cards: an ace wins its trick whichever "
               "suit is trumps.")
SHEET_TITLE = N_("The score sheet")
SHEET_RULE = N_("After each deal: a court adds to the winners' courts and sets the streak to "
                "nothing. A goon court, a court won by the side that dealt, is marked as one "
                "and counts at its worth: one court in Court Piece, three in Double Sir (ten "
                "with lesson 22's house rule). Any other win adds one to the winners' streak "
                "(a streak of seven deals is a court). The next dealer comes from the side "
                "that lost: the dealer's side won, the next player deals; the trump caller's "
                "side won, the same player deals again, or the dealer's partner after a court.")

MARGIN = 0.04          # a suit this close to the best chance is right
HINT_SEED = 0
HINT_SAMPLES = 400     # the hint's default: 800 play-outs for each suit
CALLER = 0             # the learner is South, the trump caller (West deals)


# --------------------------------------------------------------------------- call_trump
def read_suit(answer) -> int:
    """A suit index 0-3 (♠ ♥ ♣ ♦) from "♥", "H", "hearts", a Suit or a Card's suit."""
    if isinstance(answer, cl.Suit):
        return int(answer)
    if isinstance(answer, str) and answer.strip():
        text = answer.strip().strip("'\"").strip()
        try:
            return int(cl.Suit.parse(text))
        except (ValueError, KeyError):
            pass
        for lang in ("en", "ur", "hi"):
            from courtlearn.language import suit_word, using
            with using(lang):
                for s in range(4):
                    if _norm(text) in (_norm(suit_word(s)), _norm(suit_word(s, one=True))):
                        return s
    raise Unreadable(tr("I could not read {answer!r} as a suit: write it like \"♥\", \"H\" or "
                        "\"hearts\".", answer=quoted(answer)))


def _pct(p: float) -> str:
    return tr("{n} deals in 100", n=round(100 * p))


def suit_chances(deal, seed: int = HINT_SEED) -> dict:
    """The chance of the caller's side winning the deal with each suit as trumps (all four),
    from the caller's five cards only: the hint's play-outs."""
    from courtlearn.bots import MonteCarloBot
    bot = MonteCarloBot(samples=HINT_SAMPLES, seed=seed)
    ch = bot._suit_chances(deal, deal.to_play, [0, 1, 2, 3])
    return {s: float(ch[s]) for s in range(4)}


def _shape(hand):
    """Per suit index: (length, points A=4 K=3 Q=2 J=1, top rank)."""
    out = {}
    for s in range(4):
        cs = [c.rank for c in hand if int(c.suit) == s]
        out[s] = (len(cs), sum({14: 4, 13: 3, 12: 2, 11: 1}.get(r, 0) for r in cs),
                  max(cs) if cs else 0)
    return out


def rule_of_thumb(hand, said: int, best: int) -> str:
    """The rule of thumb of lesson 15 a call from ``hand`` illustrates."""
    shape = _shape(hand)
    longest = max(v[0] for v in shape.values())
    if said == best or shape[said][0] == shape[best][0]:
        if sum(1 for v in shape.values() if v[0] == longest) > 1 and shape[best][0] == longest:
            return tr("Rule of thumb: between suits of equal length, call the one with the higher "
                      "cards; it matters little (56 against 55 deals in 100 when the two suits "
                      "hold two cards each).")
        return tr("Rule of thumb: call your longest suit (the caller's side wins about 60 deals in "
                  "100 that way, against 48 with the other suits held).")
    if shape[said][0] < shape[best][0]:
        return tr("Rule of thumb: length before high cards. An ace wins its trick whichever suit "
                  "is trumps; three small trumps beat two headed by the ace (69 against 62 "
                  "deals in 100).")
    return tr("Rule of thumb: call your longest suit, but not blindly: here the hint prefers a "
              "shorter suit with the higher cards.")


def call_trump_question(deal, number=None, seed=None) -> Question:
    rules = deal.rules
    seat = deal.to_play
    hand = deal.hand(seat)
    chances = suit_chances(deal)
    best = max(range(4), key=lambda s: (chances[s], -s))
    top = chances[best]
    held = sorted({int(c.suit) for c in hand})
    from courtlearn.language import suit_word

    def judge(answer):
        s = read_suit(answer)
        p = chances[s]
        mine = tr("with {suit} as trumps your side wins about {pct}", suit=suit_word(s),
                  pct=_pct(p))
        rule = rule_of_thumb(hand, s, best)
        if s == best or p >= top - MARGIN:
            if s != best:
                mine = tr("{sentence}, as good as the best, {suit} ({pct}), within the hint's "
                          "margin", sentence=mine, suit=suit_word(best), pct=_pct(top))
            return True, tr("{sentence}. {rule}", sentence=mine, rule=rule)
        if s not in held:
            mine = tr("{sentence}: you hold no {suit} at all", sentence=mine,
                      suit=suit_word(s, one=True))
        return False, tr("{sentence}; with {best}, about {pct}. {rule}", sentence=mine,
                         best=suit_word(best), pct=_pct(top), rule=rule)

    cards = " ".join(str(c) for c in hand)
    text = "\n".join([
        rules.title + " · " + tr("{seat} dealt", seat=rules.seat_name(deal.dealer)),
        tr("You are {seat}, the trump caller. Your first five cards: {cards}",
           seat=rules.seat_name(seat), cards=cards)])
    q = Question("call_trump", deal, tr("Which suit do you call as trumps?"),
                 str(cl.Suit(best).symbol), tr("The hint at the call: {text}",
                                               text=cl.hint(deal, seed=HINT_SEED).text),
                 judge, text=text, number=number, seed=seed, show_all=False,
                 answer_help=tr('Answer with a suit, like "♥" or "hearts".'))
    q.extra.update(chances=chances, best=best, held=held, seat=seat,
                   text_under_picture=True,
                   hint_text=tr("Count the cards of each suit among your five: the longest "
                                "suit first. Between two suits of the same length, look at "
                                "their high cards."))
    return q


def _fixed_call(five: str, dealer: int = 3, seed: int = 0):
    def build(number):
        rules = cl.Rules.court_piece()
        deal = arrange(rules, dealer, {(dealer + 1) % 4: (five, "")}, seed=seed)
        return call_trump_question(deal, number=number)
    return build


# Each fixed question illustrates one rule of thumb of lesson 15.
CALL_TRUMP_FIXED = [
    _fixed_call("7H 4H 2H AS KC"),        # the longest suit, small cards and all
    _fixed_call("9D 6D 3D AC QC"),        # three small before the ace and queen
    _fixed_call("8S 5S AH 7C 4D"),        # two small before a lone ace
    _fixed_call("KH JH 6C 3C AD"),        # equal lengths: the higher cards
    _fixed_call("QS 10S 8S 5S 9H"),       # four trumps
    # exercise 11's own (the lesson shows 1-5): small cards, the longest; three small before
    # a lone ace; two small before a lone ace; equal lengths, the stronger (by a little);
    # three small before two high
    _fixed_call("6S 4S 3S KH QD"),
    _fixed_call("AD 5C 4C 2C 9H"),
    _fixed_call("8D 6D AS 7H 4C"),
    _fixed_call("JS 8S 5D 3D AH"),
    _fixed_call("QH 5H 2H AD KD"),
]


def call_trump_seeded(seed: int) -> Question:
    rng = random.Random(f"call_trump/{seed}")
    rules = cl.Rules.court_piece()
    dealer = (CALLER - 1) % 4
    deal = cl.Deal(rules, dealer=dealer, seed=rng.randrange(10**9))
    return call_trump_question(deal, seed=seed)


# --------------------------------------------------------------------------- score_sheet
#: the keys of a score sheet written as a dict, and the other ways a learner may name them
#: (English always; the language's own words too, see :func:`sheet_keys`)
SHEET_KEYS = {"courts": N_("courts"), "goon_courts": N_("goon courts"),
              "streak": N_("streak"), "dealer": N_("next dealer")}
_KEY_ALIASES = {"goon": "goon_courts", "gooncourts": "goon_courts", "goons": "goon_courts",
                "dealer": "dealer", "deals": "dealer", "nextdealer": "dealer",
                "court": "courts", "streaks": "streak"}


def sheet_keys() -> dict:
    """The keys of a sheet in the language: {"courts": "courts", ...} in English,
    {"courts": "کوٹ", ...} in Urdu (a learner may write either)."""
    return {key: tr(words) for key, words in SHEET_KEYS.items()}


def _goons(results) -> tuple:
    """How many goon courts each side has won among ``results``."""
    out = [0, 0]
    for res in results:
        if res.kind == "goon":
            out[res.winner] += 1
    return tuple(out)


def sheet_label(sheet: dict, rules) -> str:
    """One line of the score sheet, as the quiz shows it (the goon courts named when a side
    has any: a goon court is counted in the courts at its worth, and marked beside them)."""
    (a, b), (team, n), dealer = sheet["courts"], sheet["streak"], sheet["dealer"]
    streak = tr("no streak") if team is None or not n else \
        trn("{side} {n} deal", "{side} {n} deals", n, side=rules.team_name(team))
    courts = tr("Courts: {ns} {a}, {ew} {b}", ns=rules.team_name(0), a=a,
                ew=rules.team_name(1), b=b)
    goons = tuple(sheet.get("goon_courts", (0, 0)))
    if any(goons):
        courts = tr("{courts} (goon courts among them: {ns} {a}, {ew} {b})", courts=courts,
                    ns=rules.team_name(0), a=goons[0], ew=rules.team_name(1), b=goons[1])
    return tr("{courts} · streak: {streak} · {dealer} deals next", courts=courts,
              streak=streak, dealer=rules.seat_name(dealer))


def _after(session) -> dict:
    courts, streak, _events, nxt = session._tally()
    return {"courts": tuple(courts), "goon_courts": _goons(session.results),
            "streak": tuple(streak), "dealer": nxt[0]}


def _before(session) -> dict:
    past = session._past
    courts, streak = [0, 0], (None, 0)
    if past:
        probe = cl.Session.__new__(cl.Session)
        probe.__dict__.update(session.__dict__)
        probe._closed = True           # only the scored deals
        courts, streak, _e, _n = probe._tally()
    return {"courts": tuple(courts), "goon_courts": _goons(res for _, res in past),
            "streak": tuple(streak), "dealer": session.deal.dealer}


def sheet_choices(q) -> list:
    """The right sheet and up to three wrong ones people write (the quiz's choices), as
    labels, in an order that says nothing."""
    rules = q.deal.rules
    out = _all_sheets(q)[:4]
    rng = random.Random(f"{q.seed}/{q.number}")
    rng.shuffle(out)
    return [sheet_label(x, rules) for x in out]


def _example(rules) -> str:
    k = sheet_keys()          # a dict as Python writes it: the keys and names in the language
    return (f'{{"{k["courts"]}": (1, 3), "{k["goon_courts"]}": (0, 1), "{k["streak"]}": '
            f'("{rules.team_name(1)}", 2), "{k["dealer"]}": "{rules.seat_name(3)}"}}')


def _pair(value, rules, what: str) -> tuple:
    """Two whole numbers, North–South's then East–West's (or a dict by side)."""
    if isinstance(value, dict):
        value = (value.get(rules.team_name(0), value.get(0)),
                 value.get(rules.team_name(1), value.get(1)))
    try:
        pair = tuple(int(x) for x in value)
    except (TypeError, ValueError):
        pair = ()
    if len(pair) != 2 or any(x < 0 for x in pair):
        raise Unreadable(tr("{what} is two whole numbers: North–South's, then East–West's, "
                            "like (1, 0).", what=what))
    return pair


def _read_sheet(answer, rules, labels) -> dict:
    if isinstance(answer, str):
        for lab, sheet in labels.items():
            if _norm(answer) == _norm(lab):
                return sheet
        raise Unreadable(tr("Write the sheet as a dict, like {example}.",
                            example=_example(rules)))
    if not isinstance(answer, dict):
        raise Unreadable(tr("Write the sheet as a dict, like {example}.",
                            example=_example(rules)))
    names = {}
    for key, words in sheet_keys().items():
        names[_norm(key)] = key
        names[_norm(words)] = key
        names[_norm(tr(SHEET_KEYS[key]))] = key
    for alias, key in _KEY_ALIASES.items():
        names.setdefault(alias, key)
    for key, words in SHEET_KEYS.items():
        names.setdefault(_norm(words), key)
    got = {}
    for key, value in answer.items():
        field = names.get(_norm(key)) if isinstance(key, str) else None
        if field is None:
            raise Unreadable(tr("{key!r} is not part of the sheet: it holds {keys}.",
                                key=quoted(key), keys=", ".join(sheet_keys().values())))
        got[field] = value
    k = sheet_keys()
    missing = [k[f] for f in ("courts", "streak", "dealer") if f not in got]
    if missing:
        raise Unreadable(tr("The sheet needs {keys}: the courts (North–South's, East–West's), "
                            "the streak (a side and how many deals, or None) and who deals "
                            "next; and the goon courts when a side has any.",
                            keys=", ".join(missing)))
    courts = _pair(got["courts"], rules, k["courts"])
    goons = _pair(got.get("goon_courts", (0, 0)), rules, k["goon_courts"])
    streak = got["streak"]
    if isinstance(streak, (tuple, list)) and len(streak) == 2 and streak[0] is None:
        streak = None
    if streak is None or streak == 0 or (isinstance(streak, str) and
                                         _norm(streak) in ("none", "nobody", "nostreak",
                                                           "no", "0", _norm(tr("no streak")))):
        streak = (None, 0)
    else:
        try:
            team, n = streak
            streak = (read_team(team, rules), int(n))
        except Unreadable:
            raise
        except (TypeError, ValueError):
            raise Unreadable(tr('streak is a side and a number of deals, like ("{ew}", '
                                '2), or None.', ew=rules.team_name(1))) from None
    return {"courts": courts, "goon_courts": goons, "streak": streak,
            "dealer": read_seat(got["dealer"], rules)}


def score_sheet_question(session, number=None, seed=None) -> Question:
    deal = session.deal
    rules = deal.rules
    before, after = _before(session), _after(session)
    res = deal.result
    ends = [e.text for e in deal.events if e.kind == "end"]
    said = ends[-1] if ends else deal.events[-1].text

    def streak_words(st):
        team, n = st
        if team is None or not n:
            return tr("no streak")
        return trn("{side} {n} deal", "{side} {n} deals", n, side=rules.team_name(team))

    sheet_before = tr("The sheet before this deal: courts {ns} {a}, {ew} {b}; streak: "
                      "{streak}.", ns=rules.team_name(0), a=before["courts"][0],
                      ew=rules.team_name(1), b=before["courts"][1],
                      streak=streak_words(before["streak"]))
    if any(before["goon_courts"]):
        sheet_before += " " + tr("Goon courts among those courts: {ns} {a}, {ew} {b}.",
                                 ns=rules.team_name(0), a=before["goon_courts"][0],
                                 ew=rules.team_name(1), b=before["goon_courts"][1])
    text = "\n".join([
        rules.title, sheet_before,
        tr("{seat} dealt; {caller} called trumps.", seat=rules.seat_name(deal.dealer),
           caller=rules.seat_name(deal.trump_caller)),
        said])
    labels = {}
    goon = res.kind == "goon"
    worth = res.courts

    def judge(answer):
        got = _read_sheet(answer, rules, labels)
        wrong = []
        if tuple(got["courts"]) != tuple(after["courts"]):
            if goon:
                wrong.append(trn("the courts: {side} dealt and won a court, a goon court, "
                                 "which {game} scores as {n} court",
                                 "the courts: {side} dealt and won a court, a goon court, "
                                 "which {game} scores as {n} courts", worth,
                                 side=rules.team_name(res.winner), game=rules.title))
            elif res.courts:
                wrong.append(tr("the courts: this deal scored {n} for {side}",
                                n=res.courts, side=rules.team_name(res.winner)))
            elif after["courts"] != before["courts"]:
                wrong.append(tr("the courts: a streak of seven deals is a court"))
            else:
                wrong.append(tr("the courts: a deal won on tricks scores no court"))
        if tuple(got["goon_courts"]) != tuple(after["goon_courts"]):
            if goon:
                wrong.append(tr("the goon courts: the court {side} won was a goon court (they "
                                "dealt): mark it among the goon courts too",
                                side=rules.team_name(res.winner)))
            else:
                wrong.append(tr("the goon courts: only a court won by the side that dealt "
                                "is a goon court; this deal adds none"))
        if (got["streak"][0], got["streak"][1]) != (after["streak"][0], after["streak"][1]):
            wrong.append(tr("the streak: a court sets it to nothing; a win without a court adds "
                            "one for the winners, or starts it at one for them"))
        if got["dealer"] != after["dealer"]:
            wrong.append(tr("who deals next: the dealer comes from the side that lost; "
                            "{dealer} dealt this deal", dealer=rules.seat_name(deal.dealer)))
        if not wrong:
            return True, tr("{sheet}. {why}", sheet=sheet_label(after, rules), why=said)
        return False, tr("look again at {parts}.", parts="; ".join(wrong))

    q = Question("score_sheet", deal, tr("Write the score sheet after this deal: the courts "
                                         "(goon courts too), the streak, and who deals next."),
                 sheet_label(after, rules), said, judge, text=text, number=number, seed=seed,
                 answer_help=tr("Answer like {example} (the goon courts may be left out when "
                                "neither side has one; the streak None when there is none).",
                                example=_example(rules)))
    q.extra.update(before=before, after=after,
                   hint_text=tr("Read how the deal ended: a court, a goon court (a court won "
                                "by the side that dealt) or a win on tricks. That gives the "
                                "courts and the streak; then see which side lost, for who "
                                "deals next."))
    for sheet in _all_sheets(q):          # the quiz's labels read as their sheets
        labels[sheet_label(sheet, rules)] = sheet
    return q


def _all_sheets(q):
    """The right sheet, then the wrong ones people write: the goon court counted as one
    court, or not marked as a goon court; the streak not reset; the dealer passed on, or
    kept; a court forgotten (or added)."""
    rules = q.deal.rules
    seen = {}
    right = q.extra["after"]
    seen[sheet_label(right, rules)] = right
    res = q.deal.result
    before = q.extra["before"]
    w = res.winner
    cands = []
    if res.kind == "goon":
        if res.courts != 1:                          # Double Sir: counted as one court
            one = dict(right)
            cs = list(right["courts"])
            cs[w] = before["courts"][w] + 1
            one["courts"] = tuple(cs)
            cands.append(one)
        plain = dict(right)                          # not marked as a goon court
        plain["goon_courts"] = before["goon_courts"]
        cands.append(plain)
    a = dict(right)
    a["streak"] = (w, before["streak"][1] + 1 if before["streak"][0] == w else 1)
    cands.append(a)
    b = dict(right)
    b["dealer"] = (right["dealer"] + 1) % 4
    cands.append(b)
    c = dict(right)
    c["dealer"] = before["dealer"] if right["dealer"] != before["dealer"] \
        else (before["dealer"] + 2) % 4
    cands.append(c)
    d = dict(right)
    cs = list(right["courts"])
    cs[w] = cs[w] + 1 if res.courts == 0 else before["courts"][w]
    d["courts"] = tuple(cs)
    cands.append(d)
    for x in cands:
        seen.setdefault(sheet_label(x, rules), x)
    return list(seen.values())


def _session_at(game: str, seed: int, deals: int):
    """A session of ``game`` played by RuleBot, stopped with deal number ``deals`` (from
    1) finished."""
    s = cl.Session(cl.Rules.of(game), seed=seed)
    bot = cl.bots.RuleBot()
    for i in range(deals):
        if i:
            s.next_deal()
        while s.deal.phase != "over":
            seat = cl.bots.deciding_seat(s.deal)
            if seat is None:
                break
            if not bot.act(s.deal):
                break
    return s


def _fixed_sheet(game: str, seed: int, deals: int):
    def build(number):
        return score_sheet_question(_session_at(game, seed, deals), number=number)
    return build


def score_sheet_seeded(seed: int) -> Question:
    rng = random.Random(f"score_sheet/{seed}")
    game = rng.choice(("court_piece", "double_sir"))
    return score_sheet_question(_session_at(game, rng.randrange(10**6), rng.randrange(2, 9)),
                                seed=seed)


# Frozen sessions (found by scanning seeds): a plain win for the trump caller's side, a win
# for the dealer's side, a court, a Double Sir deal, a streak growing.
SCORE_SHEET_FIXED = [
    _fixed_sheet("court_piece", 0, 3),     # the trump caller's side wins again: streak 3
    _fixed_sheet("court_piece", 0, 4),     # the dealer's side wins: the streak changes sides
    _fixed_sheet("court_piece", 5, 10),    # a court: the streak goes, the partner deals
    _fixed_sheet("court_piece", 32, 9),    # the seventh deal in a row: a court
    _fixed_sheet("double_sir", 6, 6),      # a goon court in Double Sir: three courts
    _fixed_sheet("court_piece", 15, 7),    # a goon court in Court Piece: one court, marked
]


# --------------------------------------------------------------------------- card_play
DRILL_TITLE = N_("Card play: which card?")
DRILL_RULE = N_("The card play of lesson 16 on real positions: second hand, third hand high, "
                "overtrump cheaply, throw away from a suit that cannot win. Each answer is "
                "checked like 'What would you play here?': against the hint's chances.")
PRINCIPLES = {
    "second_hand": N_("Second hand: you play second. As a rule, playing low did not pay in "
                      "lesson 16's measurement; on this position the hint shows what does."),
    "third_hand": N_("Third hand high: third to play, play high, the cheapest sure winner if you "
                     "hold one."),
    "overtrump": N_("Overtrump cheaply: the other side has trumped and you cannot follow: "
                    "overtrump with your lowest trump that beats theirs."),
    "discard": N_("Throw away from a suit that cannot win, and keep the card that guards."),
}


def principle_at(deal):
    """The lesson-16 principle a position is a drill for (South to play), or None."""
    legal = deal.legal_cards()
    cards = list(deal.trick.cards)
    if not cards or len(legal) < 2:
        return None
    led = cards[0][1].suit
    follows = any(c.suit == led for c in legal)
    if follows:
        return {1: "second_hand", 2: "third_hand"}.get(len(cards))
    trump = deal.trump
    from courtlearn.bots import _trick_winner
    wseat, wcard = _trick_winner(cards, -1 if trump is None else int(trump))
    mine = [c for c in legal if trump is not None and c.suit == trump]
    if wseat % 2 != deal.to_play % 2 and trump is not None and wcard.suit == trump and \
            any(c.rank > wcard.rank for c in mine):
        return "overtrump"
    if not mine:
        return "discard"
    return None


def card_play_question(deal, principle, number=None, seed=None, hint=None):
    from .play import what_to_play_question
    q = what_to_play_question(deal, hint, number=number, seed=seed)
    q.kind = "card_play"
    q.extra["principle"] = principle
    q.text = tr("Drill: {rule}", rule=tr(PRINCIPLES[principle])) + "\n" + q.text
    return q


def _drill(game: str, dealer: int, deal_seed: int, moves: str, principle: str):
    def build(number):
        deal = cl.Deal(cl.Rules.of(game), dealer=dealer, seed=deal_seed)
        deal.apply(moves)
        return card_play_question(deal, principle, number=number)
    return build


def find_drill(rng, principle: str, game: str = "court_piece", deals: int = 40):
    """A position (RuleBot's play of deals drawn with ``rng``) where South faces
    ``principle``, the principle's card (CourseBot's) is the hint's card, and the choice
    matters (the worst card loses at least 10 deals in 100 against the best)."""
    from courtlearn.bots import CourseBot, RuleBot, hint
    bot = RuleBot()
    course = CourseBot()
    for _ in range(deals):
        deal = cl.Deal(cl.Rules.of(game), dealer=rng.randrange(4), seed=rng.randrange(10**9))
        while deal.phase != "over":
            if (deal.phase == "play" and deal.to_play == CALLER and len(deal.tricks) >= 1
                    and principle_at(deal) == principle):
                card = course.choose(deal)
                h = hint(deal, seed=HINT_SEED)
                values = list(h.chances.values())
                if h.chances.get(card, 0) >= max(values) - 0.02 and \
                        max(values) - min(values) >= 0.10:
                    return deal.copy(), h
            bot.act(deal)
    return None


def card_play_seeded(seed: int) -> Question:
    rng = random.Random(f"card_play/{seed}")
    principle = list(PRINCIPLES)[seed % len(PRINCIPLES)]
    for _ in range(10):
        got = find_drill(rng, principle)
        if got:
            return card_play_question(got[0], principle, seed=seed, hint=got[1])
    raise RuntimeError(f"no {principle} drill found for seed {seed}")


# Frozen drills (found with find_drill): RuleBot's play of a seeded deal up to South's turn.
CARD_PLAY_FIXED = [
    _drill("court_piece", 2, 629586471, "call:S AH 3H 6H 4H KH 5H 8H 9H AS", "second_hand"),
    _drill("court_piece", 0, 914490173, "call:H AC 2C 7C 3C 2D KD 3D JD AD 8D 4C 5D 3S 2S",
           "third_hand"),
    _drill("court_piece", 1, 732323772, "call:C AC 4C 10C 6C 3S 5S", "third_hand"),
    _drill("court_piece", 2, 27583286,
           "call:C 2D 3D 5D 6D AD 4D 9D QD 5S 2S 6S KS AH 3H 5H 4H KD 7D 8D 3C AS 3S 10S 4S QS "
           "7C JS 9S 2H 7H KH 9H 6H JH QH 5C JD 10D 7S 8C 10H 9C 10C", "overtrump"),
    _drill("court_piece", 0, 31893069,
           "call:H AS 4S 2S 3S 6S KS JS 5S AC 3C 4C 2C AD 2D 3D 4D KD 9D 6D 5D QD 10D 8D 8H QS "
           "9S 7C 8S 6C 5C 8C JC KC 9C QC 10C JD 9H 7D 3H 7S 10S 5H", "overtrump"),
    _drill("court_piece", 2, 713820857,
           "call:H AS 2S 3S 4S AC 4C 3C 2C AH 3H 2H 5H KH 4H 2D 6H 5D 3D 7D 10D KC 5C 9C 6C QH "
           "7H 8H 7S JH 10H", "discard"),
    _drill("court_piece", 1, 291067314,
           "call:D AS 2S 7S 3S AD 5D 7D 2D 2H 4H KH 6H AH 4D 9H 5H AC 2C 10C 3C KC 4C 4S 5C QC "
           "3D 6D 6C KD", "discard"),
    # exercise 13's own (lesson 16 asks 2, 4 and 5)
    _drill("court_piece", 3, 700424688,
           "call:C AS 6S 2D 5S KS 8S 4H 7S 2S JS 7C 8C 2H 6H KH 5H AH 8H 3H 4C 3S QS 9C 10C 4D "
           "3D 5D 9D QH JH 4S 7H 10H 2C", "overtrump"),
    _drill("court_piece", 2, 852603213, "call:C AD 2D 3D 4D AC", "second_hand"),
]
