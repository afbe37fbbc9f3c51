"""The plain-words sentences of courtlearn, in one place so every lesson reads alike.

An event is stored as data (kind, seat, card, data); its sentence is made
here only when someone reads ``event.text``, so bots and simulations that
never read the sentences do not pay for them.
"""
from __future__ import annotations

from operator import itemgetter

from .cards import Card, Suit, held
from .rules import Rules, TEAM_NAMES

__all__ = ["Event", "DEAL_EVENT_TYPES", "event_text", "list_cards", "illegal_reason"]


def list_cards(cs) -> str:
    """``Q♠ 10♠ 3♠``"""
    return " ".join(str(c) for c in cs)


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _team(team: int) -> str:
    return TEAM_NAMES[team]


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
    name = rules.seat_name(seat)
    follow = [c for c in held(hand_mask) if c.suit == led]
    return (f"{name} cannot play {card}: {led.plural} were led and {name} holds "
            f"{list_cards(follow)}.")


def event_text(kind: str, seat, card, data, rules: Rules) -> str:
    name = rules.seat_name(seat) if isinstance(seat, int) else ""
    f = _TEXTS.get(kind)
    if f is None:
        return session_text(kind, data, rules)
    return f(name, seat, card, data, rules)


def _t_deal_first(name, seat, card, data, rules):
    caller = rules.seat_name((seat + 1) % 4)
    return (f"{name} deals five cards to each player, starting with {caller}, "
            f"the trump caller.")


def _t_deal_all(name, seat, card, data, rules):
    caller = rules.seat_name((seat + 1) % 4)
    return (f"{name} deals all thirteen cards (five each, then four and four), starting with "
            f"{caller}. There are no trumps yet.")


def _t_deal_rest(name, seat, card, data, rules):
    sizes, face_down = data
    if len(set(sizes)) == 1:
        if face_down:
            return (f"{name} deals the rest in batches of four: everyone now holds {sizes[0]} "
                    f"cards, the trump caller's face-down trump card included.")
        return f"{name} deals the rest in batches of four: everyone now holds {sizes[0]} cards."
    return f"{name} deals the rest in batches of four."


def _t_call(name, seat, card, data, rules):
    (suit,) = data
    return f"{name} calls {suit.plural} as trumps."


def _t_show(name, seat, card, data, rules):
    return (f"{name} shows {card} from their first five cards: {card.suit.plural} are trumps. "
            f"The card stays in {name}'s hand.")


def _t_set_aside(name, seat, card, data, rules):
    return (f"{name} sets {card} aside face down: {card.suit.plural} will be trumps once it is "
            f"shown. Until then there are no trumps.")


def _t_set_aside_public(name, seat, card, data, rules):
    return (f"{name} sets one of their first five cards aside face down: its suit will be trumps "
            f"once it is shown. Until then there are no trumps.")


def _t_set_aside_random(name, seat, card, data, rules):
    return (f"A card is taken at random from {name}'s first five and set aside face down, unseen "
            f"by anyone: its suit will be trumps once it is shown. Until then there are no trumps.")


def _t_defer(name, seat, card, data, rules):
    (how, number) = data
    if how == "next":
        return f"{name} defers the trump: the first card of {name}'s next batch will be turned up."
    if how == "random":
        return f"{name} defers the trump: a random card of {name}'s next batch will be turned up."
    return f"{name} defers the trump: card number {number} of {name}'s deal will be turned up."


def _t_turn(name, seat, card, data, rules):
    return (f"The turned card is {card}: {card.suit.plural} are trumps. It stays in "
            f"{name}'s hand.")


def _t_play(name, seat, card, data, rules):
    led, trump = data
    if led is None:
        return f"{name} leads {card}."
    if card.suit == led:
        return f"{name} follows with {card}."
    if trump is not None and card.suit == trump:
        return f"{name} does not follow {led.plural} and trumps with {card}."
    return f"{name} does not follow {led.plural} and throws {card}."


def _t_revoke(name, seat, card, data, rules):
    led, holding = data
    return (f"{name} revoked: played {card} on a {led.singular} lead while holding "
            f"{list_cards(holding)}. It can be corrected until the trick is complete.")


def _t_revoke_proven(name, seat, card, data, rules):
    led, proof, number = data
    return f"{name} revoked: played {card} on a {led.singular} lead while holding {proof}."


def _t_trick(name, seat, card, data, rules):
    (by_trump, led) = data
    if by_trump:
        return f"{name} wins the trick: {card} is the highest trump."
    return f"{name} wins the trick: {card} is the highest {led.singular}."


def _t_to_team(name, seat, card, data, rules):
    (won,) = data
    return (f"The trick goes to {_team(seat & 1)}: {TEAM_NAMES[0]} {won[0]}, "
            f"{TEAM_NAMES[1]} {won[1]}.")


def _t_centre(name, seat, card, data, rules):
    (n,) = data
    there = "lies" if n == 1 else "lie"
    return f"The trick goes face down to the centre: {_count(n, 'trick')} {there} there."


def _t_capture(name, seat, card, data, rules):
    (n,) = data
    return (f"{name} wins two tricks in a row and takes the {_count(n, 'trick')} in the centre "
            f"for {_team(seat & 1)}.")


def _t_no_capture(name, seat, card, data, rules):
    (why, n) = data
    reason = {
        "first_two": "the first two tricks cannot be picked up",
        "aces": "both tricks were won with aces, which cannot pick up the pile",
        "be_ranga": "nothing can be picked up until the trick after the one that fixed trumps",
    }[why]
    there = "stays" if n == 1 else "stay"
    return (f"{name} wins two tricks in a row, but {reason}: the {_count(n, 'trick')} "
            f"{there} in the centre.")


def _t_sweep(name, seat, card, data, rules):
    (n,) = data
    return (f"{name} wins the last trick and takes the {_count(n, 'trick')} in the centre "
            f"for {_team(seat & 1)}.")


def _t_trump_fixed(name, seat, card, data, rules):
    (led,) = data
    # "does not follow" (not "cannot"): a revoke fixes the trump too, and this sentence is public
    return (f"{name} does not follow {led.plural}: {card.suit.plural}, the suit {name} played, "
            f"are trumps for the rest of the deal.")


def _t_ask(name, seat, card, data, rules):
    (led,) = data
    return f"{name} cannot follow {led.plural} and asks for the trump card to be shown."


def _t_reveal(name, seat, card, data, rules):
    (why, asker) = data
    lead = ""
    if why == "empty":
        lead = f"{name} has no other card to play. "
    text = (f"{lead}The trump card is turned: {card} is shown, {card.suit.plural} are trumps from "
            f"this trick on, and {card} goes into {name}'s hand.")
    if asker is not None:
        text += f" {rules.seat_name(asker)} must now play a trump if able."
    return text


def _t_correct(name, seat, card, data, rules):
    (led, back) = data
    others = [c for c in back if c is not card]
    if len(others) > 1:
        extra = f" {list_cards(others)} also go back, and those players play again."
    elif others:
        extra = f" {others[0]} also goes back, and that player plays again."
    else:
        extra = ""
    return (f"{name} corrects the revoke: {card} goes back to {name}'s hand and {name} must "
            f"follow {led.plural}.{extra}")


def _t_claim(name, seat, card, data, rules):
    (revoker, led, number) = data
    return (f"{name} claims {rules.seat_name(revoker)}'s revoke ({card} on a {led.singular} lead "
            f"in trick {number}): the deal ends and {_team(seat & 1)} score a court.")


def _t_seven(name, seat, card, data, rules):
    (team, goon) = data
    if goon:
        return (f"{_team(team)}, the dealer's side, win the first seven tricks: a goon court. "
                f"They play on for a bavney.")
    return f"{_team(team)} win the first seven tricks: a court. They play on for a bavney."


def _t_play_on(name, seat, card, data, rules):
    (team,) = data
    return (f"{_team(team)} play on for all thirteen tricks: taking them all is a bavney, worth "
            f"52 courts; failing costs nothing.")


def _t_end(name, seat, card, data, rules):
    (result, dealer) = data
    w = _team(result.winner)
    t = result.tricks
    kind = result.kind
    if kind == "court":
        if rules.game == "court_piece":
            return f"{w} win the first seven tricks: a court."
        return f"{w} take all thirteen tricks: a court."
    if kind == "goon":
        if rules.game == "court_piece":
            return (f"{w}, the dealer's side, win the first seven tricks: a goon court "
                    f"(one court).")
        return (f"{w}, the dealer's side, take all thirteen tricks: a goon court, worth "
                f"{_count(result.courts, 'court')}.")
    if kind == "bavney":
        return f"{w} take all thirteen tricks: a bavney, worth 52 courts!"
    if kind == "revoke":
        return f"{w} score a court for the revoke."
    if kind == "kot":
        return f"{w} take all four tens: a kot (one court)."
    if kind == "tens":
        mine = result.tens[result.winner]
        other = result.tens[1 - result.winner]
        side = "the dealer's side" if (dealer & 1) == result.winner else "the non-dealers"
        if mine == other:
            if rules.tens_tie == "tricks":
                return (f"{w} win the deal: the tens are split two each and they have more tricks "
                        f"({t[result.winner]} to {t[1 - result.winner]}).")
            return (f"{w}, {side}, win the deal: the tens are split two each, and a tie goes to "
                    f"the non-dealers.")
        return f"{w}, {side}, win the deal with {mine} tens to {other}."
    return f"{w} win the deal with {t[result.winner]} tricks to {t[1 - result.winner]}."


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
            return f"{_team(team)} score {_count(courts, 'court')} ({result_kind})."
        return f"{_team(team)} win the deal."
    if kind == "streak":
        (team, count) = data
        return f"{_team(team)} have won {_count(count, 'deal')} in a row."
    if kind == "streak_court":
        (team,) = data
        return f"{_team(team)} win their seventh deal in a row: a court. The count goes back to zero."
    if kind == "streak_reset":
        return "A court was scored: the count of deals in a row goes back to zero."
    if kind == "next_dealer":
        (seat, why) = data
        name = rules.seat_name(seat)
        return {
            "dealers_won": f"{name} deals next: the dealer's side won, so the deal passes on.",
            "same": f"{name} deals again: the trump caller's side won without a court.",
            "partner": f"{name}, the dealer's partner, deals next: the trump caller's side won "
                       f"with a court.",
        }[why]
    if kind == "over":
        (winner, courts) = data
        if winner is None:
            return f"The session is over: a draw, {courts[0]} courts each."
        return (f"The session is over: {_team(winner)} win with {courts[winner]} courts to "
                f"{courts[1 - winner]}.")
    return kind
