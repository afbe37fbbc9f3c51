"""The plain-words sentences of courtlearn, in one place so every lesson reads alike.

An event is stored as data (kind, seat, card, data); its sentence is made
here only when someone reads ``event.text``, so bots and simulations that
never read the sentences do not pay for them.
"""
from __future__ import annotations

from operator import itemgetter

from .cards import Card, Suit, held
from .language import N_, suit_word, team_word, tr, trn
from .rules import Rules

__all__ = ["Event", "DEAL_EVENT_TYPES", "event_text", "list_cards", "illegal_reason",
           "court_sentence"]


def list_cards(cs) -> str:
    """``Q♠ 10♠ 3♠``"""
    return " ".join(str(c) for c in cs)


class Event(tuple):
    """One thing that happened, with a sentence a learner can read (``.text``).

    ``kind`` names what happened ("play", "trick", "capture", ...), ``seat``
    who did it (or None), ``card`` the card concerned (or None) and ``data``
    the rest. ``visible_to(seat)`` tells whether that seat may see it: a
    private event (a face-down card's identity, a revoke nobody can prove
    yet) is visible only to the seats in its ``audience``.

    An event is a frozen record (a tuple underneath, so the deal can make one
    per card cheaply). Each kind a deal records has its own type, with the
    parts of ``data`` under their own names (:data:`DEAL_EVENT_TYPES`):

    >>> import courtlearn as cl
    >>> deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    >>> called = deal.call_trump("S")
    >>> [type(e).__name__ for e in called]
    ['TrumpCalled', 'DealtRest']
    >>> called[0].suit, called[0].text
    (Suit.SPADES, 'South calls spades as trumps.')
    """

    __slots__ = ()

    def __new__(cls, kind: str, seat, card, data, audience, rules: Rules):
        return tuple.__new__(cls, (kind, seat, card, data, audience, rules))

    def __getnewargs__(self):
        return tuple(self)

    kind = property(itemgetter(0), doc="what happened, e.g. 'play', 'trick', 'capture'")
    seat = property(itemgetter(1), doc="the seat that did it, or None")
    card = property(itemgetter(2), doc="the card concerned, or None")
    data = property(itemgetter(3), doc="the rest, a tuple (named by each kind's own type)")
    audience = property(itemgetter(4), doc="the seats that may see it, or None for everyone")
    _rules = property(itemgetter(5))

    @property
    def text(self) -> str:
        return event_text(self[0], self[1], self[2], self.data, self[5])

    @property
    def public(self) -> bool:
        return self.audience is None

    def visible_to(self, seat: int) -> bool:
        """Whether ``seat`` may see this event."""
        audience = self.audience
        return audience is None or seat in audience

    def __eq__(self, other):
        if not isinstance(other, Event):
            return NotImplemented
        return tuple.__eq__(self, other)

    def __ne__(self, other):
        if not isinstance(other, Event):
            return NotImplemented
        return tuple.__ne__(self, other)

    def __hash__(self):
        return hash((self[0], self[1], self[2], self.data))

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.text!r})"

    def __str__(self) -> str:
        return self.text


# Every kind of event a deal records: its type's name and the names of the parts of ``data``.
_DEAL_KINDS = {
    "deal_first": ("DealtFirst", ()),
    "deal_all": ("DealtAll", ()),
    "set_aside_random": ("TrumpSetAsideRandom", ()),
    "deal_rest": ("DealtRest", ("sizes", "face_down")),
    "call": ("TrumpCalled", ("suit",)),
    "show": ("TrumpShown", ()),
    "set_aside": ("TrumpSetAside", ()),
    "set_aside_public": ("TrumpSetAsideFaceDown", ()),
    "defer": ("TrumpDeferred", ("deferred_card", "number")),
    "turn": ("TrumpTurned", ()),
    "play": ("Played", ("led", "trump")),
    "revoke": ("Revoked", ("led", "holding")),
    "revoke_proven": ("RevokeProven", ("led", "proof", "trick_number")),
    "trump_fixed": ("TrumpFixed", ("led",)),
    "ask": ("TrumpAsked", ("led",)),
    "reveal": ("TrumpRevealed", ("why", "asker")),
    "correct": ("RevokeCorrected", ("led", "taken_back")),
    "claim": ("RevokeClaimed", ("revoker", "led", "trick_number")),
    "trick": ("TrickWon", ("trumped", "led")),
    "centre": ("TrickToCentre", ("count",)),
    "capture": ("PileCaptured", ("count",)),
    "no_capture": ("PileNotCaptured", ("blocked", "count")),
    "sweep": ("PileSwept", ("count",)),
    "seven": ("SevenTricks", ("team", "goon")),
    "end": ("DealEnded", ("result", "dealer")),
    "play_on": ("PlayedOn", ("team",)),
}


# The two commonest events (a card, a trick: 65 in every deal) are stored flat, their two
# parts in the places of ``data`` and ``audience`` (always public), so that the deal makes
# each with one tuple: (kind, seat, card, part0, part1, rules).
_FLAT = ("play", "trick")


def _data_part(i: int):
    return property(lambda self: self[3][i])


def _flat_data(self):
    return (self[3], self[4])


def _event_type(kind: str, name: str, parts: tuple) -> type:
    body = {"__slots__": (), "__doc__": f"A {kind!r} event: ``data`` is ({', '.join(parts)})."}
    if kind in _FLAT:
        body.update({parts[0]: property(itemgetter(3)), parts[1]: property(itemgetter(4)),
                     "data": property(_flat_data), "audience": None})
    else:
        for i, part in enumerate(parts):
            body[part] = _data_part(i)
    return type(name, (Event,), body)


#: kind -> the frozen record type a deal logs for it
DEAL_EVENT_TYPES = {kind: _event_type(kind, name, parts) for kind, (name, parts) in _DEAL_KINDS.items()}
globals().update({t.__name__: t for t in DEAL_EVENT_TYPES.values()})


def illegal_reason(rules: Rules, seat: int, card: Card, led: Suit, hand_mask: int) -> str:
    """"East cannot play A♦: spades were led and East holds Q♠ 10♠ 3♠." """
    follow = [c for c in held(hand_mask) if c.suit == led]
    # one message per number of cards held: Urdu and Hindi say "holds" as ہے / है for one card
    # and ہیں / हैं for more (the English is the same for both)
    return trn("{seat} cannot play {card}: {suit} were led and {seat} holds {cards}.",
               "{seat} cannot play {card}: {suit} were led and {seat} holds {cards}.", len(follow),
               seat=rules.seat_name(seat), card=card, suit=suit_word(led), cards=list_cards(follow))


def event_text(kind: str, seat, card, data, rules: Rules) -> str:
    name = rules.seat_name(seat) if isinstance(seat, int) else ""
    f = _TEXTS.get(kind)
    if f is None:
        return session_text(kind, data, rules)
    return f(name, seat, card, data, rules)


def _t_deal_first(name, seat, card, data, rules):
    return tr("{seat} deals five cards to each player, starting with {caller}, the trump caller.",
              seat=name, caller=rules.seat_name((seat + 1) % 4))


def _t_deal_all(name, seat, card, data, rules):
    return tr("{seat} deals all thirteen cards (five each, then four and four), starting with "
              "{caller}. There are no trumps yet.", seat=name, caller=rules.seat_name((seat + 1) % 4))


def _t_deal_rest(name, seat, card, data, rules):
    sizes, face_down = data
    if len(set(sizes)) == 1:
        if face_down:
            return tr("{seat} deals the rest in batches of four: everyone now holds {n} cards, "
                      "the trump caller's face-down trump card included.", seat=name, n=sizes[0])
        return tr("{seat} deals the rest in batches of four: everyone now holds {n} cards.",
                  seat=name, n=sizes[0])
    return tr("{seat} deals the rest in batches of four.", seat=name)


def _t_call(name, seat, card, data, rules):
    (suit,) = data
    return tr("{seat} calls {suit} as trumps.", seat=name, suit=suit_word(suit))


def _t_show(name, seat, card, data, rules):
    return tr("{seat} shows {card} from their first five cards: {suit} are trumps. "
              "The card stays in {seat}'s hand.", seat=name, card=card, suit=suit_word(card.suit))


def _t_set_aside(name, seat, card, data, rules):
    return tr("{seat} sets {card} aside face down: {suit} will be trumps once it is shown. "
              "Until then there are no trumps.", seat=name, card=card, suit=suit_word(card.suit))


def _t_set_aside_public(name, seat, card, data, rules):
    return tr("{seat} sets one of their first five cards aside face down: its suit will be trumps "
              "once it is shown. Until then there are no trumps.", seat=name)


def _t_set_aside_random(name, seat, card, data, rules):
    return tr("A card is taken at random from {seat}'s first five and set aside face down, unseen "
              "by anyone: its suit will be trumps once it is shown. Until then there are no "
              "trumps.", seat=name)


def _t_defer(name, seat, card, data, rules):
    (how, number) = data
    if how == "next":
        return tr("{seat} defers the trump: the first card of {seat}'s next batch will be turned "
                  "up.", seat=name)
    if how == "random":
        return tr("{seat} defers the trump: a random card of {seat}'s next batch will be turned "
                  "up.", seat=name)
    return tr("{seat} defers the trump: card number {number} of {seat}'s deal will be turned up.",
              seat=name, number=number)


def _t_turn(name, seat, card, data, rules):
    return tr("The turned card is {card}: {suit} are trumps. It stays in {seat}'s hand.",
              seat=name, card=card, suit=suit_word(card.suit))


def _t_play(name, seat, card, data, rules):
    led, trump = data
    if led is None:
        return tr("{seat} leads {card}.", seat=name, card=card)
    if card.suit == led:
        return tr("{seat} follows with {card}.", seat=name, card=card)
    if trump is not None and card.suit == trump:
        return tr("{seat} does not follow {suit} and trumps with {card}.",
                  seat=name, suit=suit_word(led), card=card)
    return tr("{seat} does not follow {suit} and throws {card}.",
              seat=name, suit=suit_word(led), card=card)


def _t_revoke(name, seat, card, data, rules):
    led, holding = data
    return trn("{seat} revoked: played {card} on a {suit} lead while holding {cards}. It can be "
               "corrected until the trick is complete.", "{seat} revoked: played {card} on a "
               "{suit} lead while holding {cards}. It can be corrected until the trick is "
               "complete.", len(holding), seat=name, card=card, suit=suit_word(led, one=True),
               cards=list_cards(holding))


def _t_revoke_proven(name, seat, card, data, rules):
    led, proof, number = data
    return tr("{seat} revoked: played {card} on a {suit} lead while holding {proof}.",
              seat=name, card=card, suit=suit_word(led, one=True), proof=proof)


def _t_trick(name, seat, card, data, rules):
    (by_trump, led) = data
    if by_trump:
        return tr("{seat} wins the trick: {card} is the highest trump.", seat=name, card=card)
    return tr("{seat} wins the trick: {card} is the highest {suit}.",
              seat=name, card=card, suit=suit_word(led, one=True))


def _t_to_team(name, seat, card, data, rules):
    (won,) = data
    return tr("The trick goes to {side}: {ns} {ns_tricks}, {ew} {ew_tricks}.",
              side=team_word(seat & 1), ns=team_word(0), ns_tricks=won[0],
              ew=team_word(1), ew_tricks=won[1])


def _t_centre(name, seat, card, data, rules):
    (n,) = data
    return trn("The trick goes face down to the centre: {n} trick lies there.",
               "The trick goes face down to the centre: {n} tricks lie there.", n)


def _t_capture(name, seat, card, data, rules):
    (n,) = data
    return trn("{seat} wins two tricks in a row and takes the {n} trick in the centre for {side}.",
               "{seat} wins two tricks in a row and takes the {n} tricks in the centre for "
               "{side}.", n, seat=name, side=team_word(seat & 1))


def _t_no_capture(name, seat, card, data, rules):
    (why, n) = data
    if why == "first_two":
        return trn("{seat} wins two tricks in a row, but the first two tricks cannot be picked "
                   "up: the {n} trick stays in the centre.",
                   "{seat} wins two tricks in a row, but the first two tricks cannot be picked "
                   "up: the {n} tricks stay in the centre.", n, seat=name)
    if why == "aces":
        return trn("{seat} wins two tricks in a row, but both tricks were won with aces, which "
                   "cannot pick up the pile: the {n} trick stays in the centre.",
                   "{seat} wins two tricks in a row, but both tricks were won with aces, which "
                   "cannot pick up the pile: the {n} tricks stay in the centre.", n, seat=name)
    return trn("{seat} wins two tricks in a row, but nothing can be picked up until the trick "
               "after the one that fixed trumps: the {n} trick stays in the centre.",
               "{seat} wins two tricks in a row, but nothing can be picked up until the trick "
               "after the one that fixed trumps: the {n} tricks stay in the centre.", n, seat=name)


def _t_sweep(name, seat, card, data, rules):
    (n,) = data
    return trn("{seat} wins the last trick and takes the {n} trick in the centre for {side}.",
               "{seat} wins the last trick and takes the {n} tricks in the centre for {side}.",
               n, seat=name, side=team_word(seat & 1))


def _t_trump_fixed(name, seat, card, data, rules):
    (led,) = data
    # "does not follow" (not "cannot"): a revoke fixes the trump too, and this sentence is public
    return tr("{seat} does not follow {led}: {suit}, the suit {seat} played, are trumps for the "
              "rest of the deal.", seat=name, led=suit_word(led), suit=suit_word(card.suit))


def _t_ask(name, seat, card, data, rules):
    (led,) = data
    return tr("{seat} cannot follow {suit} and asks for the trump card to be shown.",
              seat=name, suit=suit_word(led))


def _t_reveal(name, seat, card, data, rules):
    (why, asker) = data
    text = tr("The trump card is turned: {card} is shown, {suit} are trumps from this trick on, "
              "and {card} goes into {seat}'s hand.", card=card, suit=suit_word(card.suit),
              seat=name)
    if why == "empty":
        text = tr("{seat} has no other card to play.", seat=name) + " " + text
    if asker is not None:
        text += " " + tr("{seat} must now play a trump if able.", seat=rules.seat_name(asker))
    return text


def _t_correct(name, seat, card, data, rules):
    (led, back) = data
    text = tr("{seat} corrects the revoke: {card} goes back to {seat}'s hand and {seat} must "
              "follow {suit}.", seat=name, card=card, suit=suit_word(led))
    others = [c for c in back if c is not card]
    if len(others) > 1:
        text += " " + tr("{cards} also go back, and those players play again.",
                         cards=list_cards(others))
    elif others:
        text += " " + tr("{card} also goes back, and that player plays again.", card=others[0])
    return text


def _t_claim(name, seat, card, data, rules):
    (revoker, led, number) = data
    return tr("{seat} claims {revoker}'s revoke ({card} on a {suit} lead in trick {number}): the "
              "deal ends and {side} score a court.", seat=name, revoker=rules.seat_name(revoker),
              card=card, suit=suit_word(led, one=True), number=number, side=team_word(seat & 1))


def _t_seven(name, seat, card, data, rules):
    (team, goon) = data
    if goon:
        return tr("{side}, the dealer's side, win the first seven tricks: a goon court. "
                  "They play on for a bavney.", side=team_word(team))
    return tr("{side} win the first seven tricks: a court. They play on for a bavney.",
              side=team_word(team))


def _t_play_on(name, seat, card, data, rules):
    (team,) = data
    return tr("{side} play on for all thirteen tricks: taking them all is a bavney, worth "
              "52 courts; failing costs nothing.", side=team_word(team))


def _t_end(name, seat, card, data, rules):
    (result, dealer) = data
    w = team_word(result.winner)
    t = result.tricks
    kind = result.kind
    if kind == "court":
        if rules.game == "court_piece":
            return tr("{side} win the first seven tricks: a court.", side=w)
        return tr("{side} take all thirteen tricks: a court.", side=w)
    if kind == "goon":
        if rules.game == "court_piece":
            return tr("{side}, the dealer's side, win the first seven tricks: a goon court "
                      "(one court).", side=w)
        return trn("{side}, the dealer's side, take all thirteen tricks: a goon court, worth "
                   "{n} court.", "{side}, the dealer's side, take all thirteen tricks: a goon "
                   "court, worth {n} courts.", result.courts, side=w)
    if kind == "bavney":
        return tr("{side} take all thirteen tricks: a bavney, worth 52 courts!", side=w)
    if kind == "revoke":
        return tr("{side} score a court for the revoke.", side=w)
    if kind == "kot":
        return tr("{side} take all four tens: a kot (one court).", side=w)
    if kind == "tens":
        mine = result.tens[result.winner]
        other = result.tens[1 - result.winner]
        if mine == other:
            if rules.tens_tie == "tricks":
                return tr("{side} win the deal: the tens are split two each and they have more "
                          "tricks ({mine} to {other}).", side=w, mine=t[result.winner],
                          other=t[1 - result.winner])
            if (dealer & 1) == result.winner:
                return tr("{side}, the dealer's side, win the deal: the tens are split two each, "
                          "and a tie goes to the non-dealers.", side=w)
            return tr("{side}, the non-dealers, win the deal: the tens are split two each, and a "
                      "tie goes to the non-dealers.", side=w)
        if (dealer & 1) == result.winner:
            return tr("{side}, the dealer's side, win the deal with {mine} tens to {other}.",
                      side=w, mine=mine, other=other)
        return tr("{side}, the non-dealers, win the deal with {mine} tens to {other}.",
                  side=w, mine=mine, other=other)
    return tr("{side} win the deal with {mine} tricks to {other}.", side=w,
              mine=t[result.winner], other=t[1 - result.winner])


_TEXTS = {
    "deal_first": _t_deal_first,
    "deal_all": _t_deal_all,
    "deal_rest": _t_deal_rest,
    "call": _t_call,
    "show": _t_show,
    "set_aside": _t_set_aside,
    "set_aside_public": _t_set_aside_public,
    "set_aside_random": _t_set_aside_random,
    "defer": _t_defer,
    "turn": _t_turn,
    "play": _t_play,
    "revoke": _t_revoke,
    "revoke_proven": _t_revoke_proven,
    "trick": _t_trick,
    "to_team": _t_to_team,
    "centre": _t_centre,
    "capture": _t_capture,
    "no_capture": _t_no_capture,
    "sweep": _t_sweep,
    "trump_fixed": _t_trump_fixed,
    "ask": _t_ask,
    "reveal": _t_reveal,
    "correct": _t_correct,
    "claim": _t_claim,
    "seven": _t_seven,
    "play_on": _t_play_on,
    "end": _t_end,
}


# -- session sentences ----------------------------------------------------

def session_text(kind: str, data: tuple, rules: Rules) -> str:
    if kind == "deal_won":
        (team, courts, result_kind) = data
        if courts:
            return court_sentence(team_word(team), courts, result_kind)
        return tr("{side} win the deal.", side=team_word(team))
    if kind == "streak":
        (team, count) = data
        return trn("{side} have won {n} deal in a row.", "{side} have won {n} deals in a row.",
                   count, side=team_word(team))
    if kind == "streak_court":
        (team,) = data
        return tr("{side} win their seventh deal in a row: a court. The count goes back to zero.",
                  side=team_word(team))
    if kind == "streak_reset":
        return tr("A court was scored: the count of deals in a row goes back to zero.")
    if kind == "next_dealer":
        (seat, why) = data
        name = rules.seat_name(seat)
        if why == "dealers_won":
            return tr("{seat} deals next: the dealer's side won, so the deal passes on.", seat=name)
        if why == "same":
            return tr("{seat} deals again: the trump caller's side won without a court.", seat=name)
        return tr("{seat}, the dealer's partner, deals next: the trump caller's side won with a "
                  "court.", seat=name)
    if kind == "over":
        (winner, courts) = data
        if winner is None:
            return tr("The session is over: a draw, {n} courts each.", n=courts[0])
        return tr("The session is over: {side} win with {mine} courts to {other}.",
                  side=team_word(winner), mine=courts[winner], other=courts[1 - winner])
    return kind


def court_sentence(side: str, courts: int, kind: str) -> str:
    """The courts a deal scored, in words (never the result's code), for the session's
    account of the deal.

    >>> court_sentence("North–South", 1, "goon")
    'North–South win the deal with a goon court, worth one court.'
    >>> court_sentence("East–West", 3, "goon")
    'East–West win the deal with a goon court, worth 3 courts.'
    >>> court_sentence("East–West", 1, "revoke")
    'East–West score a court for the revoke they claimed.'
    """
    if kind == "court":
        return tr("{side} win the deal with a court.", side=side)
    if kind == "goon":
        return trn("{side} win the deal with a goon court, worth one court.",
                   "{side} win the deal with a goon court, worth {n} courts.", courts, side=side)
    if kind == "bavney":
        return tr("{side} take all thirteen tricks: a bavney, worth 52 courts.", side=side)
    if kind == "kot":
        return tr("{side} take all four tens: a kot, worth one court.", side=side)
    if kind == "revoke":
        return tr("{side} score a court for the revoke they claimed.", side=side)
    return trn("{side} score {n} court.", "{side} score {n} courts.", courts, side=side)


_RESULT_KINDS = {"court": N_("court"), "goon": N_("goon"), "bavney": N_("bavney"),
                 "revoke": N_("revoke"), "kot": N_("kot"), "tens": N_("tens"),
                 "tricks": N_("tricks")}


def result_word(kind: str) -> str:
    """The game's one word for a kind of result ("court", "goon", "bavney", ...) in the
    language: a label (a table's column, a glossary), never a sentence's ending in brackets
    (a learner reads :func:`court_sentence`)."""
    return tr(_RESULT_KINDS[kind]) if kind in _RESULT_KINDS else kind
