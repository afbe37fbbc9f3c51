"""CourseBot: plays by exactly the rules of thumb of the strategy lessons (15-19).

Each rule is a named switch; ``CourseBot(off={"second_hand_low"})`` plays without that
one, which is how each rule's worth is measured (``bench/course_bot.py``: the bot with and
without the rule against RuleBot on the same deals). What a rule does not decide, the bot
does the plainest thing: it plays its lowest legal card (by rank; between equal ranks in
the order ♠ ♥ ♣ ♦) and, with the calling rule off, calls the first suit it holds in that
order. Nothing else: no look-ahead, no play-outs.

>>> import courtlearn as cl
>>> deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
>>> bot = cl.bots.CourseBot()
>>> while deal.phase != "over":
...     _ = bot.act(deal)
>>> deal.result.winner in (0, 1)
True
>>> [r for r in RULES][:3]
['call_longest', 'draw_trumps', 'cash_winners']
"""
from __future__ import annotations

from .bots import _Bot, _played_cards, _trick_cards, _trick_winner
from .cards import Suit
from .language import tr

__all__ = ["CourseBot", "RULES", "LESSONS"]

#: every rule: its lesson, and what it says (in the order the bot tries them)
RULES = {
    # lesson 15: calling trumps
    "call_longest": ("15", "Call your longest suit; between suits of equal length, the one with "
                           "the higher cards (A=4, K=3, Q=2, J=1)."),
    # lesson 16: card play in a trick
    "draw_trumps": ("16", "Holding the highest trump still out, lead it while the other side "
                          "may still hold trumps."),
    "cash_winners": ("16", "Count a suit: lead a card that is the highest of its suit still "
                           "out (13 cards in a suit: what is gone tells you)."),
    "second_hand_low": ("16", "Second to play, following suit: play low, unless you hold the "
                              "highest card of the suit still out."),
    "third_hand_high": ("16", "Third to play: play high (the cheapest sure winner if you hold "
                              "one, else your highest card that beats the card winning)."),
    "win_cheaply": ("16", "When you can beat the card winning the trick, beat it with your "
                          "cheapest card that does."),
    "overtrump_cheaply": ("16", "The other side has trumped and you cannot follow: overtrump "
                                "with your lowest trump that beats theirs, or throw away."),
    "trump_or_throw": ("16", "You cannot follow and the card winning is not a trump: trump "
                             "with your lowest trump."),
    # lesson 17: playing with a partner
    "partner_sure_trick": ("17", "Your partner's card is sure to win the trick: do not take it "
                                 "from them (play low, or throw away); otherwise a card "
                                 "winning the trick is one to beat, whoever played it."),
    "return_partner_suit": ("17", "Leading with no winner to cash: lead the suit your partner "
                                  "led first."),
    "discard_losers": ("17", "Throwing away: throw from a suit in which you hold no winner, and "
                             "keep the small card that guards a king (or the two that guard a "
                             "queen)."),
    # lesson 18: Double Sir, playing for the pile
    "press_on": ("18", "Double Sir and Dehla Pakad: you won the last trick and the centre holds "
                       "tricks: lead a sure winner, to win two in a row."),
    "stop_on_one": ("18", "Double Sir and Dehla Pakad: the leader won the last trick and is "
                          "winning this one: beat them if you can, whatever it costs."),
    # lesson 19: Dehla Pakad, playing for the tens
    "ten_on_partner": ("19", "Dehla Pakad: your partner's card is sure to win: give them your "
                             "ten."),
    "catch_ten": ("19", "Dehla Pakad: a ten is in the trick and the other side is winning it: "
                        "beat it if you can."),
    "guard_ten": ("19", "Dehla Pakad: never lead or throw a ten that is not sure to win; keep "
                        "a small card beside it."),
}

ALL_GAMES = ("court_piece", "double_sir", "dehla_pakad")
#: the games in which a rule is played (and taught); elsewhere it does not pay (see
#: bench/course_bot.py, which measures what it would cost there)
SCOPE = {name: ALL_GAMES for name in RULES}
# (partner_sure_trick is played in every game: in the pile games it changes nothing by
# itself, CourseBot fighting there only for tricks that score, but it keeps Court Piece's
# trick rules from taking a partner's trick when bench/course_bot.py measures them there)
SCOPE.update({
    # the trick-by-trick rules pay in Court Piece only: with a centre pile, winning a trick
    # is worth nothing unless it is the second in a row (bench/course_bot.py measures what
    # each would cost in Double Sir and Dehla Pakad)
    "cash_winners": ("court_piece",),
    "third_hand_high": ("court_piece",),
    "win_cheaply": ("court_piece",),
    "overtrump_cheaply": ("court_piece",),
    "trump_or_throw": ("court_piece",),
    "draw_trumps": ("court_piece",),
    "second_hand_low": ("court_piece",),
    "press_on": ("double_sir", "dehla_pakad"),
    "stop_on_one": ("double_sir", "dehla_pakad"),
    "ten_on_partner": ("dehla_pakad",),
    "catch_ten": ("dehla_pakad",),
    "guard_ten": ("dehla_pakad",),
})

#: rules measured but not taught: added to the bot, it did not win more often against
#: RuleBot (bench/course_bot.py, 2,500 deals a game, each played twice). CourseBot plays them only when asked
#: (``CourseBot(extra=...)``), to measure them again.
UNTAUGHT = frozenset({"draw_trumps", "second_hand_low", "return_partner_suit", "catch_ten",
                      "guard_ten"})

LESSONS = {
    "15": "15 · Calling trumps",
    "16": "16 · Card play in a trick",
    "17": "17 · Playing with a partner",
    "18": "18 · Double Sir: playing for the pile",
    "19": "19 · Dehla Pakad: playing for the tens",
}

_POINTS = {14: 4, 13: 3, 12: 2, 11: 1}


def _doc() -> str:
    lines = []
    for lesson, title in LESSONS.items():
        lines.append(f"    Lesson {title}:")
        for name, (les, text) in RULES.items():
            if les == lesson and name not in UNTAUGHT:
                games = "" if SCOPE[name] == ALL_GAMES else \
                    " (" + ", ".join(g.replace("_", " ").title() for g in SCOPE[name]) + ")"
                lines.append(f"      ``{name}``{games}: {text}")
    lines.append("    Measured, not taught (they did not pay; off unless ``extra=``):")
    for name in sorted(UNTAUGHT):
        lines.append(f"      ``{name}``: {RULES[name][1]}")
    return "\n".join(lines)


def _key(c):
    """The plain order: by rank, then ♠ ♥ ♣ ♦."""
    return (c.rank, int(c.suit))


class CourseBot(_Bot):
    __doc__ = ("""Plays by exactly the rules of thumb the strategy lessons teach, nothing more.

    ``off``: names of rules to switch off (for measuring a rule's worth); ``only``: if
    given, the only rules switched on; ``extra``: rules measured but not taught, switched
    on; ``wide``: rules played in every game, beyond the games they are taught for (to
    measure what they cost there). Unknown names are refused with a ValueError that lists
    the rules. Each rule's worth, in deals in 100 against RuleBot, is printed by
    ``bench/course_bot.py`` and quoted by its lesson. The rules, in the order the bot tries
    them within each situation (leading, following suit, not able to follow), each with its
    lesson and, when not all three, its games:

""" + _doc() + """

    What no rule decides: the lowest legal card (by rank, then ♠ ♥ ♣ ♦); with
    ``call_longest`` off, the first suit held in the order ♠ ♥ ♣ ♦. It never defers,
    never asks to see a face-down trump it could not use, never plays on after a court.
    """)

    def __init__(self, off=(), only=None, wide=(), extra=()):
        off = set(_names(off, "off"))
        on = set(RULES) - UNTAUGHT if only is None else set(_names(only, "only"))
        self.on = frozenset((on | set(_names(extra, "extra"))) - off)
        self.wide = frozenset(_names(wide, "wide"))

    def rules_for(self, game: str) -> frozenset:
        """The rules this bot plays in ``game``: those switched on whose games include it
        (``wide`` ones in every game)."""
        return frozenset(r for r in self.on if game in SCOPE[r] or r in self.wide)

    def __repr__(self):
        missing = [n for n in RULES if n not in self.on and n not in UNTAUGHT]
        added = [n for n in RULES if n in self.on and n in UNTAUGHT]
        args = [f"off={sorted(missing)!r}"] if missing else []
        if added:
            args.append(f"extra={sorted(added)!r}")
        if self.wide:
            args.append(f"wide={sorted(self.wide)!r}")
        return f"CourseBot({', '.join(args)})"

    def uses(self, rule: str) -> bool:
        return rule in self.on

    # ------------------------------------------------------------ the trump
    def call_trump(self, deal):
        hand = deal.hand(deal.to_play)
        return Suit(_call(hand, "call_longest" in self.rules_for(deal.rules.game)))

    def choose_trump_card(self, deal):
        hand = deal.hand(deal.to_play)
        s = _call(hand, "call_longest" in self.rules_for(deal.rules.game))
        return min((c for c in hand if int(c.suit) == s), key=_key)

    def defers_trump(self, deal):
        return False

    def asks_for_trump(self, deal):
        w = _trick_winner(_trick_cards(deal.trick), -1)
        return w is None or w[0] != (deal.to_play ^ 2)

    def plays_on(self, deal):
        return False

    # ------------------------------------------------------------ a card
    def choose(self, deal):
        legal = list(deal.legal_cards())
        if len(legal) == 1:
            return legal[0]
        return _Position(self, deal, legal).card()


def _names(names, what):
    if isinstance(names, str):
        names = [names]
    names = list(names)
    bad = [n for n in names if n not in RULES]
    if bad:
        raise ValueError(tr("{what} names rules of CourseBot; {bad} is not one. The rules are: "
                            "{rules}.", what=what, bad=", ".join(map(str, bad)),
                            rules=", ".join(RULES)))
    return names


def _call(hand, longest: bool) -> int:
    suits = sorted({int(c.suit) for c in hand})
    if not longest:
        return suits[0]

    def strength(s):
        cs = [c.rank for c in hand if int(c.suit) == s]
        return (len(cs), sum(_POINTS.get(r, 0) for r in cs), max(cs), -s)
    return max(suits, key=strength)


class _Position:
    """One decision: what the seat knows, and the rules tried in order."""

    def __init__(self, bot, deal, legal):
        self.on = bot.rules_for(deal.rules.game)
        self.deal = deal
        self.legal = legal
        self.me = deal.to_play
        self.rules = deal.rules
        self.game = deal.rules.game
        self.pile = self.game != "court_piece"
        self.trump = None if deal.trump is None else int(deal.trump)
        self.cards = _trick_cards(deal.trick)
        self.hand = deal.hand(self.me)
        played = _played_cards(deal)
        self.gone = {(c.rank, int(c.suit)) for c in played} | \
            {(c.rank, int(c.suit)) for c in self.hand}

    # -- knowledge
    def master(self, c) -> bool:
        """No card of its suit that this seat cannot see outranks it."""
        s = int(c.suit)
        return all((r, s) in self.gone for r in range(c.rank + 1, 15))

    def is_trump(self, c) -> bool:
        return self.trump is not None and int(c.suit) == self.trump

    def beats(self, c, w) -> bool:
        if int(c.suit) == int(w.suit):
            return c.rank > w.rank
        return self.is_trump(c) and not self.is_trump(w)

    def ten_guarded_low(self, cs):
        """Dehla Pakad, guard_ten: the cards without the tens that are not sure winners."""
        if self.game != "dehla_pakad" or "guard_ten" not in self.on:
            return cs
        keep = [c for c in cs if not (c.rank == 10 and not self.master(c))]
        return keep or cs

    def low(self, cs):
        return min(self.ten_guarded_low(list(cs)), key=_key)

    def rule(self, name) -> bool:
        return name in self.on

    # -- the decision
    def card(self):
        if not self.cards:
            return self.lead()
        led = int(self.cards[0][1].suit)
        if any(int(c.suit) == led for c in self.legal):
            return self.follow()
        return self.void()

    def last_winner(self):
        t = self.deal.tricks
        return t[-1].winner if t else None

    def on_one(self, seat) -> bool:
        """The seat won the last trick and the centre holds tricks (a pile game)."""
        return self.pile and self.last_winner() == seat and len(self.deal.centre) > 0

    def lead(self):
        legal = self.legal
        masters = [c for c in legal if self.master(c)]
        if self.rule("press_on") and self.on_one(self.me) and masters:
            return max(masters, key=lambda c: (self.is_trump(c), c.rank))
        trumps = [c for c in legal if self.is_trump(c)]
        if self.rule("draw_trumps") and trumps and self.trump is not None:
            top = max(trumps, key=_key)
            if self.master(top) and self.trumps_out():
                return top
        side = [c for c in masters if not self.is_trump(c)]
        if self.rule("cash_winners") and side:
            return max(side, key=lambda c: (c.rank, -int(c.suit)))
        if self.rule("return_partner_suit"):
            s = self.partner_first_lead()
            if s is not None:
                mine = [c for c in legal if int(c.suit) == s]
                if mine:
                    return self.low(mine)
        return self.low(legal)

    def trumps_out(self) -> bool:
        """Trumps this seat cannot see, with an opponent not known to lack them."""
        if self.trump is None:
            return False
        unseen = any((r, self.trump) not in self.gone for r in range(2, 15))
        view = self.deal.view(self.me)
        voids = view.voids
        opp_may = any(Suit(self.trump) not in voids[s] for s in ((self.me + 1) % 4, (self.me + 3) % 4))
        return unseen and opp_may

    def partner_first_lead(self):
        partner = self.me ^ 2
        for t in self.deal.tricks:
            if t.leader == partner and t.cards:
                s = int(t.cards[0][1].suit)
                return None if s == self.trump else s
        return None

    def winning(self):
        return _trick_winner(self.cards, -1 if self.trump is None else self.trump)

    def partner_sure(self, wseat, wcard) -> bool:
        """The partner's card now winning cannot be beaten by the players still to come."""
        if wseat != (self.me ^ 2):
            return False
        if len(self.cards) == 3:
            return True
        led = int(self.cards[0][1].suit)
        if self.is_trump(wcard) and int(wcard.suit) != led:
            return self.master(wcard)
        return self.master(wcard)

    def follow(self):
        legal = self.legal
        wseat, wcard = self.winning()
        n = len(self.cards)
        beat = sorted((c for c in legal if self.beats(c, wcard)), key=_key)
        sure = self.partner_sure(wseat, wcard)
        if sure and self.rule("ten_on_partner") and self.game == "dehla_pakad":
            tens = [c for c in legal if c.rank == 10 and not self.beats(c, wcard)]
            if tens:
                return tens[0]
        if sure and self.rule("partner_sure_trick"):
            return self.low(legal)
        # from here on the card winning the trick is one to beat (an opponent's, or the
        # partner's when it is not sure to win, or whoever's without partner_sure_trick)
        theirs = wseat % 2 != self.me % 2
        if theirs and beat:
            if self.rule("stop_on_one") and self.on_one(wseat):
                return beat[0]
            if (self.rule("catch_ten") and self.game == "dehla_pakad"
                    and any(c.rank == 10 for _, c in self.cards)):
                return beat[0]
        if n == 1 and self.rule("second_hand_low"):
            masters = [c for c in beat if self.master(c)]
            return masters[0] if masters else self.low(legal)
        if n == 2 and self.rule("third_hand_high") and beat:
            masters = [c for c in beat if self.master(c)]
            return masters[0] if masters else beat[-1]
        if beat and self.rule("win_cheaply"):
            return beat[0]
        return self.low(legal)

    def void(self):
        legal = self.legal
        wseat, wcard = self.winning()
        sure = self.partner_sure(wseat, wcard)
        if sure and self.rule("ten_on_partner") and self.game == "dehla_pakad":
            tens = [c for c in legal if c.rank == 10]
            if tens:
                return tens[0]
        if sure and self.rule("partner_sure_trick"):
            return self.throw()
        trumps = sorted((c for c in legal if self.is_trump(c)), key=_key)
        if trumps:
            if self.is_trump(wcard):
                if self.rule("overtrump_cheaply"):
                    over = [c for c in trumps if c.rank > wcard.rank]
                    return over[0] if over else self.throw()
            elif self.rule("trump_or_throw"):
                return trumps[0]
            theirs = wseat % 2 != self.me % 2
            if theirs and ((self.rule("stop_on_one") and self.on_one(wseat))
                           or (self.rule("catch_ten") and self.game == "dehla_pakad"
                               and any(c.rank == 10 for _, c in self.cards))):
                over = [c for c in trumps if self.beats(c, wcard)]
                if over:
                    return over[0]
        return self.throw()

    def throw(self):
        """A card to throw away: the lowest, or with lesson 17's rules the lowest from a
        suit with no winner, keeping a guard."""
        legal = self.legal
        if not self.rule("discard_losers"):
            return self.low(legal)
        cands = [c for c in legal if not self.is_trump(c)] or legal
        losers = [c for c in cands
                  if not any(self.master(x) for x in self.hand if x.suit == c.suit)]
        cands = losers or cands
        safe = [c for c in cands if not self.guards(c)]
        cands = safe or cands
        return self.low(cands)

    def guards(self, c) -> bool:
        """Throwing ``c`` would leave a king alone (K and one more) or a queen with fewer
        than two others, while higher cards of the suit are still out."""
        suit = [x for x in self.hand if x.suit == c.suit]
        for honour, need in ((13, 1), (12, 2)):
            if any(x.rank == honour for x in suit) and c.rank < honour and \
                    len(suit) - 1 <= need and not self.master(next(x for x in suit
                                                                    if x.rank == honour)):
                return True
        return False
