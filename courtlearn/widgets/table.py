"""CardTable: one deal on a card table in the notebook (an anywidget).

The engine is the only state. The page receives snapshots built from
``deal.view(seat)`` (what the viewer may know) and sends back intents: a
clicked card, a called suit. Each intent arrives as a custom message
(``model.send`` in the page, :meth:`CardTable._on_msg` here), is checked, and
is either carried out by the engine or refused with a sentence in the message
area; a refused intent never changes the deal.

>>> import courtlearn as cl
>>> table = CardTable(cl.Deal(cl.Rules.double_sir(), dealer=3, seed=7))
>>> table                                             # doctest: +SKIP
CardTable(double_sir, seat=0, South to call trump)
"""
from __future__ import annotations

import pathlib
import re

import anywidget
import traitlets

from courtlearn.render import suit_letter

__all__ = ["CardTable"]

STATIC = pathlib.Path(__file__).parent / "static"

GAME_TITLES = {"court_piece": "Court Piece", "double_sir": "Double Sir", "dehla_pakad": "Dehla Pakad"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}
CARD_CODE = re.compile(r"^(10|[2-9JQKA])[SHCD]$")
MESSAGE_TYPES = ("play", "call_trump", "choose_trump_card", "defer_trump", "ask_for_trump",
                 "play_on", "correct_revoke", "claim_revoke", "hint")
HIDDEN_METHODS = ("hidden", "hidden_random")
SIZES = ("small", "normal", "large", "presenter")
MAX_BOT_MOVES = 80          # a deal has at most 52 cards and a handful of other actions


class Refused(ValueError):
    """An intent from the page (or the Python API) that the table turns down."""


# ----------------------------------------------------------------------------- helpers
def _val(x):
    """The plain value of a str-valued enum (Phase), or the thing itself."""
    return getattr(x, "value", x)


def card_code(card) -> str:
    return card.code if hasattr(card, "code") else str(card)


def positions(rules, viewer: int) -> list[str]:
    """Where each seat sits on the screen: the viewer at the bottom, play passing
    to the right (anticlockwise) or to the left (clockwise)."""
    ring = ["bottom", "left", "top", "right"] if getattr(rules, "direction", "anticlockwise") == "clockwise" \
        else ["bottom", "right", "top", "left"]
    return [ring[(s - viewer) % 4] for s in range(4)]


def seat_name(rules, seat: int) -> str:
    fn = getattr(rules, "seat_name", None)
    if fn is not None:
        return fn(seat)
    names = ["South", "West", "North", "East"] if getattr(rules, "direction", "") == "clockwise" \
        else ["South", "East", "North", "West"]
    return names[seat % 4]


def team_name(rules, team: int) -> str:
    fn = getattr(rules, "team_name", None)
    if fn is not None:
        return fn(team)
    return "North\u2013South" if team == 0 else "East\u2013West"


def uses_centre(rules) -> bool:
    return getattr(rules, "game", "") in ("double_sir", "dehla_pakad")


def actor(deal):
    """The seat that must act next, or None when the deal is over."""
    phase = _val(deal.phase)
    if phase == "over":
        return None
    if phase == "trump":
        return deal.trump_caller
    return deal.to_play


def led_suit_missing(deal, seat) -> bool:
    """True when a trick is open and `seat` holds no card of the suit led."""
    cards = deal.trick.cards
    if not cards:
        return False
    led = cards[0][1].suit
    return all(c.suit != led for c in deal.hand(seat))


_HINTS_OK = False


def hints_available() -> bool:
    """Hints (cl.hint) need numpy; without it the table shows no Hint button. Only a yes is
    remembered: numpy installed (or loaded in a Pyodide kernel) later brings the button back."""
    global _HINTS_OK
    if not _HINTS_OK:
        import importlib.util
        _HINTS_OK = importlib.util.find_spec("numpy") is not None
    return _HINTS_OK


def hint_payload(h) -> dict:
    """A Hint as the page sees it: the hinted card's code (a card of the viewer's hand) or,
    when a trump suit is to be called, the suit's letter; and the sentence."""
    what = h.card
    if hasattr(what, "code"):
        return {"card": what.code, "suit": None, "text": h.text}
    return {"card": None, "suit": suit_letter(what), "text": h.text}


def default_bot():
    """The bot of a seat that has none (Step on a bare table, cl.play's opponents)."""
    from courtlearn.bots import RuleBot
    return RuleBot()


def bot_move(bot, deal) -> None:
    """Let `bot` take the next action of `deal` (trump phase or play)."""
    if _val(deal.phase) == "over":
        raise Refused("The deal is over: nobody is to play.")
    if hasattr(bot, "act"):          # courtlearn.bots: the bot's own driver knows every variant move
        bot.act(deal)
        return
    # any other object with the bot interface of API.md (choose, call_trump, ...)
    rules = deal.rules
    phase = _val(deal.phase)
    method = getattr(rules, "trump_method", "called")
    if phase == "trump":
        if getattr(rules, "allow_deferred", False) and hasattr(bot, "defers_trump") and bot.defers_trump(deal):
            deal.defer_trump()
        elif method == "called":
            deal.call_trump(bot.call_trump(deal))
        else:
            deal.choose_trump_card(bot.choose_trump_card(deal))
        return
    if phase == "play":
        if (method in HIDDEN_METHODS and hasattr(bot, "asks_for_trump") and deal.can_ask_for_trump()
                and bot.asks_for_trump(deal)):
            deal.ask_for_trump()
            return
        deal.play(bot.choose(deal))
        return
    raise Refused("The deal is over: nobody is to play.")


# ----------------------------------------------------------------------------- snapshots
def snapshot(deal, viewer: int, *, show_all: bool = False, session=None, prev=None,
             message: str | None = None, kind: str = "info", replay: bool = False,
             players=None, hints: bool = False, hint: dict | None = None) -> dict:
    """What the page may show: built from ``deal.view(viewer)``; other hands only as
    counts unless ``show_all`` (the teacher's view). JSON-compatible.
    hints: offer the Hint button when the viewer is to act; hint: the hint on show
    (hint_payload), computed from the viewer's own view."""
    rules = deal.rules
    v = deal.view(viewer)
    phase = _val(v.phase)
    pos = positions(rules, viewer)
    method = getattr(rules, "trump_method", "called")
    to_act = None if phase == "over" else (v.trump_caller if phase == "trump" else v.to_play)
    live = not replay

    legal: list[str] = []
    if live and phase == "play" and v.to_play == viewer:
        legal = [card_code(c) for c in deal.legal_cards()]

    seats = []
    for s in range(4):
        count = len(v.hand) if s == viewer else v.hand_sizes[s]
        hand = None
        if s == viewer:
            hand = [card_code(c) for c in v.hand]
        elif show_all:
            hand = [card_code(c) for c in deal.hand(s)]
        seats.append({
            "seat": s, "name": seat_name(rules, s), "pos": pos[s], "team": s % 2,
            "viewer": s == viewer, "hand": hand, "count": count,
            "legal": legal if s == viewer else [],
            "dealer": s == v.dealer, "caller": s == v.trump_caller,
            "turn": s == to_act,
            "player": (players[s] if players else None),
        })

    trick = [{"seat": s, "card": card_code(c), "pos": pos[s]} for s, c in v.trick.cards]
    piles_now = list(v.tricks_won)
    centre = len(v.centre)

    last = None
    if v.tricks and not trick and prev is not None and prev.get("last") and prev["done"] == len(v.tricks):
        last = dict(prev["last"], fresh=False)           # the same completed trick, still on show
    elif v.tricks and not trick:
        t = v.tricks[-1]
        n_done = len(v.tricks)
        fresh = prev is not None and prev["done"] < n_done
        winner = t.winner
        team = winner % 2
        in_centre = uses_centre(rules) and any(c is t or c == t for c in v.centre)
        captured = 1
        if prev is not None and not in_centre:
            captured = max(1, piles_now[team] - prev["piles_raw"][team])
        last = {"cards": [{"seat": s, "card": card_code(c), "pos": pos[s]} for s, c in t.cards],
                "winner": winner, "fresh": fresh,
                "to": "centre" if in_centre else "team", "to_team": team, "captured": captured}

    trump = suit_letter(v.trump)
    trump_card = getattr(deal, "trump_card", None)
    hidden = None
    hidden_card = getattr(deal, "hidden_trump_card", None) if v.hidden_trump else None
    if v.hidden_trump:
        seen = None
        if show_all and hidden_card is not None:
            seen = card_code(hidden_card)
        elif viewer == v.trump_caller and v.trump_card is not None:
            seen = card_code(v.trump_card)          # its owner knows it (trump_method "hidden")
        hidden = {"seat": v.trump_caller, "card": seen}
        trump_card = None
    if trump is None:
        if phase == "trump":
            note = "not chosen yet"
        elif v.hidden_trump:
            note = "hidden: no trumps until it is shown"
        elif method == "first_void":
            note = "none until a player cannot follow suit"
        else:
            note = "none"
    else:
        note = None

    actions: list[str] = []
    if live and phase == "trump" and v.trump_caller == viewer:
        actions.append("call_trump" if method == "called" else "choose_trump_card")
        if getattr(rules, "allow_deferred", False):
            actions.append("defer_trump")
    if live and phase == "play" and v.to_play == viewer:
        if v.hidden_trump and led_suit_missing(deal, viewer):
            actions.append("ask_for_trump")
    if live and getattr(rules, "revokes", "prevented") == "allowed" and phase == "play":
        if any(r.seat == viewer and r.trick == len(v.tricks) for r in deal.revokes):
            actions.append("correct_revoke")
        if v.tricks:
            actions.append("claim_revoke")
    result = deal.result if phase == "over" else None
    if live and result is not None and result.winner == viewer % 2 and deal.can_play_on():
        actions.append("play_on")

    events = list(v.events)
    can_hint = bool(hints and live and to_act == viewer and phase in ("trump", "play"))
    if not live:
        hint = None
    if message is None and hint is not None:
        message, kind = hint["text"], "hint"
    if message is None:
        message = events[-1].text if events else f"{seat_name(rules, v.dealer)} dealt."
        kind = "info"

    score = None
    if session is not None:
        courts = session.courts
        streak_team, streak_n = session.streak
        score = (f"Courts: {team_name(rules, 0)} {courts[0]}, {team_name(rules, 1)} {courts[1]}"
                 + (f" \u00b7 streak: {team_name(rules, streak_team)} {streak_n}"
                    if streak_team is not None and streak_n else ""))

    game = getattr(rules, "game", "")
    done = len(v.tricks)
    if phase == "play":
        where = f"trick {done + 1} of 13"
    elif phase == "trump":
        where = "fixing the trump"
    else:
        where = "deal over"
    piles = [{"team": t, "name": team_name(rules, t), "count": piles_now[t], "mine": t == viewer % 2}
             for t in (0, 1)]
    return {
        "game": game, "title": f"{GAME_TITLES.get(game, game)} \u00b7 {where}"
                                + (f" \u00b7 replay: move {len(deal.actions)}" if replay else ""),
        "viewer": viewer, "show_all": bool(show_all), "replay": bool(replay), "phase": phase,
        "to_play": to_act if to_act is not None else -1,
        "dealer": v.dealer, "trump_caller": v.trump_caller,
        "trump": trump, "trump_note": note,
        "trump_card": card_code(trump_card) if trump_card is not None else None,
        "hidden_trump": hidden,
        "seats": seats, "trick": trick, "last": last,
        "piles": piles, "uses_centre": uses_centre(rules), "centre": centre,
        "score": score, "message": message, "message_kind": kind,
        "result": result_sentence(deal) if result is not None else None,
        "actions": actions,
        "can_hint": can_hint, "hint": hint,
        # bookkeeping for the next snapshot (which trick went where); harmless to show
        "done": done, "piles_raw": piles_now,
    }


def result_sentence(deal) -> str:
    r = deal.result
    rules = deal.rules
    kind = getattr(r, "kind", "tricks")
    words = {"tricks": "on tricks", "court": "with a court", "goon": "with a goon court",
             "bavney": "with a bavney (all 52)", "revoke": "on a revoke claim", "tens": "on tens",
             "kot": "with a kot (all four tens)"}.get(kind, kind)
    text = f"Deal over: {team_name(rules, r.winner)} win {words}"
    courts = getattr(r, "courts", 0)
    if courts:
        text += f", {courts} court{'s' if courts != 1 else ''}"
    tricks = getattr(r, "tricks", None)
    if tricks:
        text += f". Tricks {tricks[0]}\u2013{tricks[1]}"
    return text + "."


# ----------------------------------------------------------------------------- the widget
class CardTable(anywidget.AnyWidget):
    """A card table showing and playing one Deal (or a Session's current deal).

    seat: the viewer (their hand face up, their clicks play for them).
    bots: None (nobody plays by itself), one bot for every other seat, a list of
    four (None for a human seat) or a dict {seat: bot}.
    show_all: the teacher's view, every hand face up. size: "normal" or "large"
    (classroom projector; "presenter" is the same), "small".
    """

    _esm = STATIC / "table.js"
    _css = STATIC / "table.css"

    state = traitlets.Dict().tag(sync=True)
    animate = traitlets.Bool(True).tag(sync=True)
    size = traitlets.Unicode("normal").tag(sync=True)
    speed = traitlets.Int(450).tag(sync=True)      # ms between two moves drawn in the page

    def __init__(self, deal_or_session, seat: int = 0, bots=None, show_all: bool = False,
                 size: str = "normal", animate: bool = True, players=None, hints: bool = True,
                 **kwargs):
        if size not in SIZES:
            raise ValueError(f"size must be one of {', '.join(SIZES)}; got {size!r}")
        if seat not in (0, 1, 2, 3):
            raise ValueError(f"seat must be 0, 1, 2 or 3; got {seat!r}")
        super().__init__(size=size, animate=animate, **kwargs)
        if hasattr(deal_or_session, "next_deal"):
            self.session = deal_or_session
            self._deal = None
        elif hasattr(deal_or_session, "view"):
            self.session = None
            self._deal = deal_or_session
        else:
            raise TypeError("CardTable needs a courtlearn Deal or Session")
        self.seat = seat
        self._show_all = bool(show_all)
        self.players = list(players) if players else None
        self.bots = self._bot_map(bots)
        self.autoplay = True              # bots answer by themselves after a move
        self._replay: int | None = None    # None: live; n: the deal after its first n events
        self._rev = 0
        self._last = None                  # the last snapshot sent (for what moved where)
        self._next_seed = None
        self._hints = bool(hints)
        self._hint = None                  # (state key, Hint) of the hint on show
        self.on_msg(self._on_msg)
        frames = []
        self._run_bots(frames)
        self._sync(frames)

    # ------------------------------------------------------------------ properties
    @property
    def deal(self):
        """The Deal on the table now."""
        return self.session.deal if self.session is not None else self._deal

    @property
    def show_all(self) -> bool:
        return self._show_all

    @show_all.setter
    def show_all(self, value: bool) -> None:
        self._show_all = bool(value)
        self._sync([])

    @property
    def hints(self) -> bool:
        """Whether the Hint button is offered (switch off for a test of the learner)."""
        return self._hints

    @hints.setter
    def hints(self, value: bool) -> None:
        self._hints = bool(value)
        if not self._hints:
            self._hint = None
        self._sync([])

    def _bot_map(self, bots) -> dict:
        if bots is None:
            return {}
        if isinstance(bots, dict):
            out = {int(k): b for k, b in bots.items() if b is not None}
        elif isinstance(bots, (list, tuple)):
            if len(bots) != 4:
                raise ValueError("bots as a list needs four entries, one per seat (None for a person)")
            out = {s: b for s, b in enumerate(bots) if b is not None}
        else:
            out = {s: bots for s in range(4) if s != self.seat}
        for s in out:
            if s not in (0, 1, 2, 3):
                raise ValueError(f"bot seat must be 0..3; got {s!r}")
        return out

    # ------------------------------------------------------------------ state to the page
    def _snap(self, message=None, kind="info"):
        deal, replay = self.deal, False
        if self._replay is not None:
            deal, replay = self._replayed(self._replay), True
        prev = self._last if self._last is not None and not replay else None
        shown = None
        if self._hint is not None and not replay:
            if self._hint[0] == self._state_key():
                shown = hint_payload(self._hint[1])
            else:
                self._hint = None          # the deal moved on: the hint is stale
        snap = snapshot(deal, self.seat, show_all=self._show_all, session=self.session, prev=prev,
                        message=message, kind=kind, replay=replay, players=self.players,
                        hints=self._hints and hints_available(), hint=shown)
        if not replay:
            self._last = snap
        return snap

    def _sync(self, frames, message=None, kind="info", follows=False, more=False):
        """Send the page the snapshots taken after each action (or the current one).
        `follows`: these moves answer the picture sent just before (drawn after a pause);
        `more`: bot moves are coming in the next message (the page stays busy)."""
        if not frames or message is not None:
            frames = [*frames, self._snap(message, kind)]
        self._rev += 1
        self.state = {"rev": self._rev, "frames": list(frames), "follows": bool(follows),
                      "more": bool(more)}

    def _record(self, frames):
        frames.append(self._snap())

    def _state_key(self):
        """Identifies the moment of the deal a hint was given for."""
        deal = self.deal
        return (id(deal), tuple(str(a) for a in deal.actions))

    def _replayed(self, n):
        return self.deal.replay(n)

    # ------------------------------------------------------------------ bots
    def _run_bots(self, frames) -> int:
        """Bot seats act until a person is to act or the deal is over."""
        n = 0
        if not self.bots or not self.autoplay:
            return n
        while n < MAX_BOT_MOVES:
            who = actor(self.deal)
            if who is None or who not in self.bots:
                break
            bot_move(self.bots[who], self.deal)
            self._record(frames)
            n += 1
        return n

    # ------------------------------------------------------------------ messages from the page
    def _on_msg(self, _widget, content, _buffers=None):
        try:
            self._handle(content)
        except Refused as err:
            self._sync([], message=str(err), kind="error")

    def _handle(self, content):
        if not isinstance(content, dict) or content.get("type") not in MESSAGE_TYPES:
            raise Refused("The table ignored a message it does not understand; nothing changed.")
        kind = content["type"]
        if self._replay is not None:
            raise Refused("You are looking back at an earlier moment: move the replay to the end to play.")
        if kind == "hint":
            self._give_hint()
            return
        deal, me = self.deal, self.seat
        phase = _val(deal.phase)
        name = seat_name(deal.rules, me)

        def need_card():
            code = content.get("card")
            if not isinstance(code, str) or not CARD_CODE.match(code):
                raise Refused("The table ignored a message naming no card; nothing changed.")
            from courtlearn.cards import Card
            card = Card.parse(code)
            if card not in deal.hand(me):
                raise Refused(f"{name} does not hold {card}; nothing changed.")
            return card

        frames: list = []
        try:
            if kind == "play":
                card = need_card()
                if phase != "play":
                    raise Refused("No card can be played now: " +
                                  ("the trump is not fixed yet." if phase == "trump" else "the deal is over."))
                if deal.to_play != me:
                    raise Refused(f"It is {seat_name(deal.rules, deal.to_play)}'s turn, not {name}'s.")
                deal.play(card)
            elif kind in ("call_trump", "choose_trump_card", "defer_trump"):
                if phase != "trump" or deal.trump_caller != me:
                    raise Refused(f"{name} cannot fix the trump now.")
                if kind == "call_trump":
                    suit = content.get("suit")
                    if suit not in SUIT_WORDS:
                        raise Refused("The table ignored a message naming no suit; nothing changed.")
                    deal.call_trump(suit)
                elif kind == "choose_trump_card":
                    deal.choose_trump_card(need_card())
                else:
                    deal.defer_trump()
            elif kind == "ask_for_trump":
                if phase != "play" or deal.to_play != me:
                    raise Refused(f"{name} can ask for the trump only when it is their turn.")
                deal.ask_for_trump()
            elif kind == "play_on":
                deal.play_on()
            elif kind == "correct_revoke":
                deal.correct_revoke()
            elif kind == "claim_revoke":
                deal.claim_revoke(me)
        except Refused:
            raise
        except ValueError as err:          # IllegalPlay, CardError and the engine's other refusals
            raise Refused(getattr(err, "reason", None) or str(err)) from None
        self._record(frames)
        who = actor(deal)
        more = self.autoplay and who is not None and who in self.bots
        self._sync(frames, more=more)   # the viewer's own move goes out first: no waiting on bots
        if more:
            frames = []
            try:
                self._run_bots(frames)
            except Exception as err:    # a broken bot must not leave the page waiting
                self._sync(frames, message=f"A bot could not move: {err}", kind="error", follows=True)
                raise
            self._sync(frames, follows=True)

    def _give_hint(self):
        """Compute the viewer's hint from the viewer's own view, show it, return it."""
        deal, me = self.deal, self.seat
        name = seat_name(deal.rules, me)
        if not self._hints:
            raise Refused("Hints are switched off at this table.")
        if not hints_available():
            raise Refused("Hints need numpy: pip install numpy (or courtlearn[lab]).")
        who = actor(deal)
        if who is None:
            raise Refused("The deal is over: there is nothing to hint.")
        if who != me:
            raise Refused(f"A hint is for {name}'s own turn; it is {seat_name(deal.rules, who)}'s turn now.")
        from courtlearn.bots import hint
        try:
            h = hint(deal, me)            # decides from deal.view(me) only
        except ValueError as err:
            raise Refused(f"No hint here: {err}.") from None
        self._hint = (self._state_key(), h)
        self._sync([], message=h.text, kind="hint")
        return h

    # ------------------------------------------------------------------ the Python API
    def hint(self):
        """Suggest a move for the viewer's seat (computed from what that seat may know),
        highlight it on the table, show why in the message area, and return the Hint.
        Refused (a ValueError, also shown) when it is not the viewer's turn."""
        self._replay = None
        try:
            return self._give_hint()
        except Refused as err:
            self._sync([], message=str(err), kind="error")
            raise

    def _act(self, fn, *args):
        """Run an engine action (for whoever is to act), show it, let the bots answer."""
        if self._replay is not None:
            self._replay = None
        try:
            fn(*args)
        except ValueError as err:
            self._sync([], message=getattr(err, "reason", None) or str(err), kind="error")
            raise
        frames: list = []
        self._record(frames)
        self._run_bots(frames)
        self._sync(frames)
        return self

    def play(self, card):
        """Play `card` ("AS", "10H", a Card) for whoever is to play; raises the engine's
        IllegalPlay (and shows its reason) when it is not allowed."""
        return self._act(self.deal.play, card)

    def call_trump(self, suit):
        """Name the trump suit for the trump caller ("S", "spades", a Suit)."""
        return self._act(self.deal.call_trump, suit)

    def choose_trump_card(self, card):
        return self._act(self.deal.choose_trump_card, card)

    def defer_trump(self, number=None):
        return self._act(lambda: self.deal.defer_trump(number) if number is not None else self.deal.defer_trump())

    def ask_for_trump(self):
        return self._act(self.deal.ask_for_trump)

    def play_on(self):
        return self._act(self.deal.play_on)

    def correct_revoke(self):
        return self._act(self.deal.correct_revoke)

    def claim_revoke(self, seat=None):
        return self._act(self.deal.claim_revoke, self.seat if seat is None else seat)

    def step(self):
        """Make the next move with the bot of the seat to act (a RuleBot for a seat with
        none, so a bare table can be stepped through). Returns the table."""
        who = actor(self.deal)
        if who is None:
            self._sync([], message="The deal is over: nothing to step.", kind="error")
            return self
        bot = self.bots.get(who) or default_bot()
        self._replay = None
        frames: list = []
        bot_move(bot, self.deal)
        self._record(frames)
        self._sync(frames)
        return self

    def undo(self):
        """Take back the last move of a person (and the bot moves after it)."""
        self._replay = None
        deal = self.deal
        undone = 0
        while True:
            try:
                deal.undo()
            except (ValueError, IndexError):
                break
            undone += 1
            who = actor(deal)
            if who is None or who not in self.bots:
                break
        if not undone:
            self._sync([], message="Nothing to take back.", kind="error")
            return self
        self._last = None
        self._hint = None
        self._sync([], message=f"Took back {undone} move{'s' if undone != 1 else ''}.", kind="note")
        return self

    def new_deal(self, seed=None):
        """Start the next deal: the Session's next deal, or a fresh shuffle of the same rules."""
        self._replay = None
        if self.session is not None:
            try:
                self.session.next_deal()
            except ValueError as err:
                self._sync([], message=str(err), kind="error")
                raise
        else:
            from courtlearn.deal import Deal
            old = self._deal
            if seed is None:
                if self._next_seed is None:
                    base = getattr(old, "seed", None)
                    self._next_seed = (base + 1) if isinstance(base, int) else 1
                seed = self._next_seed
                self._next_seed += 1
            self._deal = Deal(old.rules, dealer=(old.dealer + 1) % 4, seed=seed)
        self._last = None
        self._hint = None
        frames: list = []
        self._run_bots(frames)
        self._sync(frames)
        return self

    def set_deal(self, deal_or_session):
        """Put another Deal (or Session) on the table."""
        if hasattr(deal_or_session, "next_deal"):
            self.session, self._deal = deal_or_session, None
        else:
            self.session, self._deal = None, deal_or_session
        self._replay = None
        self._last = None
        self._hint = None
        frames: list = []
        self._run_bots(frames)
        self._sync(frames)
        return self

    def replay(self, n=None):
        """Show the deal after its first `n` actions (None: back to the live deal)."""
        if n is not None:
            n = max(0, min(int(n), len(self.deal.actions)))
            if n == len(self.deal.actions):
                n = None
        self._replay = n
        self._sync([])
        return self

    def resume(self):
        """Let the bot seats act now (after Auto-play was switched back on)."""
        self._replay = None
        frames: list = []
        self._run_bots(frames)
        self._sync(frames)
        return self

    def refresh(self):
        self._sync([])
        return self

    # ------------------------------------------------------------------ representations
    def __repr__(self) -> str:
        deal = self.deal
        rules = deal.rules
        phase = _val(deal.phase)
        who = actor(deal)
        if phase == "trump":
            where = f"{seat_name(rules, who)} to call trump"
        elif phase == "play":
            where = f"trick {len(deal.tricks) + 1}, {seat_name(rules, who)} to play"
        else:
            where = "deal over"
        extra = ", show_all" if self._show_all else ""
        return f"CardTable({getattr(rules, 'game', '?')}, seat={self.seat}{extra}, {where})"

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        if isinstance(data, tuple):
            data, meta = data
        else:
            meta = None
        data = dict(data or {})
        html = self._picture()
        if html:
            data["text/html"] = html
        data["text/plain"] = repr(self)
        return (data, meta) if meta is not None else data

    def _picture(self):
        """The static table (render.deal_html) stored beside the live widget, for places with
        no kernel: GitHub, nbviewer, an HTML or PDF export."""
        try:
            from courtlearn.render import deal_html
            return deal_html(self.deal, seat=self.seat, show_all=self._show_all)
        except Exception:          # a picture is a courtesy; never break the display
            return None
