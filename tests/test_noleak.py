"""No leaks (issue 23): what a seat receives depends only on what that seat may know.

Each example builds a pair of deals that one seat cannot tell apart: the same rules,
dealer, seed and actions, but two cards the seat has not seen swapped between two other
seats (or between another seat and the seat's own cards still to be dealt, or a
face-down card nobody has seen). Both deals replay the same actions; at every moment
where the seat's views are equal, everything the seat receives must be equal too:

- the refusal of every move the seat may try (every card, suit, number, a claim),
  the moves it is offered, and its refusal of a hint out of turn;
- its hint (both play-out paths) and its review of the running deal;
- a CardTable of the seat (no other hand face up): its state after every message the
  page can send (Review and Best play included), the replies, and its static picture.

``test_same_suit_swaps_never_show``: the two cards are of one suit, so the seat's view is
equal at every moment (asserted: an engine property). ``test_any_swap_never_shows``: any
two unseen cards, so a revoke may exist in one deal and not the other; the pair counts
for as long as the actions replay and the views stay equal.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import strategies as st
from hypothesis import given

import courtlearn as cl
from courtlearn.widgets.table import MESSAGE_TYPES, CardTable

import fuzz_support as fz


# ----------------------------------------------------------------------------- building pairs
def _unseen(deal, viewer: int) -> dict:
    """{seat: [(position in its dealing order, code)]}: cards still in play that
    ``viewer`` has never seen and that no action names (so both deals replay alike)."""
    seen = fz.visible_codes(deal, viewer)
    named = {a.split(":")[1] for a in deal.actions if a.startswith("choose:")}
    hidden = deal.hidden_trump_card
    random_hidden = deal.rules.trump_method == "hidden_random"
    held = {s: {c.code for c in deal.hand(s)} for s in range(4)}
    stock = {c.code for c in deal.stock}
    out = {}
    for s in range(4):
        cards = []
        for i, c in enumerate(deal.dealt(s)):
            code = c.code
            if code in seen or code in named:
                continue
            mine = s == viewer
            if code in held[s] and not mine:
                cards.append((i, code))
            elif code in stock:                   # not dealt yet: nobody has seen it
                cards.append((i, code))
            elif hidden is not None and c == hidden and random_hidden:
                cards.append((i, code))           # face down, unseen even by its owner
        out[s] = cards
    return out


def draw_pair(data, rules, same_suit: bool):
    """(deal A, hands of deal B, viewer, swapped codes), or None when no swap exists."""
    dealer = data.draw(st.integers(0, 3), label="dealer")
    seed = data.draw(st.integers(0, 2**31), label="seed")
    viewer = data.draw(st.integers(0, 3), label="viewer")
    a = cl.Deal(rules, dealer=dealer, seed=seed)
    n = data.draw(st.integers(0, 60), label="actions")
    for _ in range(n):
        move = fz.draw_move(data, a)
        if move is None:
            break
        fz.make(a, move)
    unseen = _unseen(a, viewer)
    pairs = [(s, i, x, t, j, y) for s in range(4) for t in range(s + 1, 4)
             if s != viewer or t != viewer
             for i, x in unseen[s] for j, y in unseen[t]
             if (not same_suit or x[-1] == y[-1])]
    if not pairs:
        return None
    # half the time, a card goes to a seat that has shown a void in its suit: with revokes
    # allowed, that seat revoked in one deal and not in the other (which the seat cannot see)
    voids = a.view(viewer).voids
    telling = [p for p in pairs if p[2][-1] in {v.letter for v in voids[p[3]]}
               or p[5][-1] in {v.letter for v in voids[p[0]]}]
    if telling and data.draw(st.booleans(), label="a revoke in one deal only"):
        pairs = telling
    s, i, x, t, j, y = data.draw(st.sampled_from(pairs), label="swap")
    hands = [[c.code for c in a.dealt(seat)] for seat in range(4)]
    hands[s][i], hands[t][j] = y, x
    return a, hands, viewer, (x, y)


def replay_pair(a, hands, viewer):
    """Both deals after each action: [(A_k, B_k)] for as long as B accepts the actions
    and the viewer's views are equal."""
    rules, dealer, seed = a.rules, a.dealer, a.seed
    da = a.replay(0)
    db = cl.Deal.prearranged(rules, [" ".join(h) for h in hands], dealer=dealer, seed=seed)
    out = []
    for token in [None] + a.actions:
        if token is not None:
            da.apply([token])
            try:
                db.apply([token])
            except ValueError:
                break
        if da.view(viewer) != db.view(viewer):
            break
        out.append((da.copy(), db.copy()))
    return out


# ----------------------------------------------------------------------------- what a seat gets
def _outcome(fn, *args):
    try:
        out = fn(*args)
    except Exception as err:        # noqa: BLE001
        fz.check_refusal(err, getattr(fn, "__name__", "call"))
        return ("refused", type(err).__name__, fz.message_of(err))
    return ("ok", out)


def refusals(deal, viewer: int, cards) -> list:
    """The answer to every move the viewer may try now (with its own cards and ``cards``),
    and the moves it is offered.

    A claim is the one move whose success depends on cards the claimer cannot see (RULES.md
    section 5: an opponent's established revoke, provable or not), and a wrong claim costs
    nothing; so a claim's acceptance (and ``moves`` listing it) may differ within a pair,
    but its refusal may not: :func:`claim_outcome`."""
    out = [("moves", repr([m for m in deal.moves(viewer) if m.kind != "claim_revoke"])),
           ("claim", claim_outcome(deal, viewer)),
           ("play_on", _outcome(deal.verify_play_on)),
           ("correct", _outcome(deal.verify_correct_revoke, viewer)),
           ("hint", _outcome(cl.hint, deal, viewer, 1) if deal.actor != viewer else None)]
    if deal.actor == viewer:
        cards = list(dict.fromkeys([*deal.hand(viewer), *cards]))
        out += [("play", c.code, _outcome(deal.verify_play, c)) for c in cards]
        out += [("choose", c.code, _outcome(deal.verify_choose_trump_card, c)) for c in cards]
        out += [("call", s.letter, _outcome(deal.verify_call_trump, s)) for s in fz.SUITS]
        out += [("defer", n, _outcome(deal.verify_defer_trump, n)) for n in (None, 6, 9, 13)]
        out += [("ask", _outcome(deal.verify_ask_for_trump))]
    return out


def claim_outcome(deal, viewer: int):
    """The refusal of the viewer's claim, or "may claim" (see :func:`refusals`)."""
    if deal.can_claim_revoke(viewer):
        return "may claim"
    return _outcome(deal.verify_claim_revoke, viewer)


def _their_revokes(deal, viewer: int, established: bool) -> set:
    return {(r.seat, r.trick) for r in deal.revokes
            if r.seat % 2 != viewer % 2 and r.established == established}


def claims_may_differ(da, db, viewer, after_moves: bool) -> bool:
    """Whether a claim by the viewer may fare differently in the two deals (one accepted,
    the other refused): their established revokes differ now, or, ``after_moves`` of the
    viewer's own (which may complete the trick), the ones in the open trick."""
    if _their_revokes(da, viewer, True) != _their_revokes(db, viewer, True):
        return True
    return after_moves and _their_revokes(da, viewer, False) != _their_revokes(db, viewer, False)


def without_risky_claims(messages, da, db, viewer) -> list:
    """The messages less the claims whose fate may differ (see :func:`claims_may_differ`)."""
    out, moved = [], False
    for m in messages:
        if m["type"] == "claim_revoke" and claims_may_differ(da, db, viewer, moved):
            continue
        moved = moved or m["type"] in ("play", "correct_revoke", "ask_for_trump")
        out.append(m)
    return out


def hints(deal, viewer: int, seed: int) -> list:
    if deal.actor != viewer or str(deal.phase) not in ("trump", "play"):
        return []
    out = []
    for mode in fz.PLAYOUTS:
        with fz.playouts(mode):
            h = cl.hint(deal, viewer, samples=fz.SAMPLES, seed=seed)
        out.append((mode, h.card, h.text, h.chances, getattr(h, "reason", None)))
    return out


def review(deal, viewer: int) -> tuple:
    rv = cl.review(deal, viewer, samples=fz.SAMPLES, progress=False)
    return (rv.text, [(d.trick, d.kind, d.chosen, d.best, d.chances, d.loss, d.exact, d.text,
                       d.action) for d in rv.decisions])


def page_messages(deal, viewer: int, swapped) -> list:
    """Every kind of message the page of ``viewer`` can send now, with the cards worth
    trying: the viewer's own, the two swapped ones, and the cards played."""
    codes = [c.code for c in deal.hand(viewer)] + list(swapped)
    codes += [c.code for _, c in deal.trick.cards][:1]
    out = []
    for kind in MESSAGE_TYPES:
        if kind in ("play", "choose_trump_card"):
            out += [{"type": kind, "card": code} for code in dict.fromkeys(codes)]
        elif kind == "call_trump":
            out += [{"type": kind, "suit": s} for s in "SHCD"]
        elif kind == "review":
            out += [{"type": kind, "index": i} for i in (0, 1, 30)]
        elif kind == "best_play":
            out += [{"type": kind, "on": True}, {"type": kind, "on": False}]
        else:
            out.append({"type": kind})
    return out + [{"type": "win_the_deal"}, {"type": "play"}]


def table_story(deal, viewer: int, messages: list, lang: str) -> list:
    """What the viewer's page receives, as [(replies, state, the viewer's view)]: the first
    state, then after each message (sent with a request id) the replies and the state; at
    the end the static picture and the table's repr."""
    table = CardTable(deal, seat=viewer, bots=None, hints=True, language=lang)
    sent = fz.capture_replies(table)
    story = [("", json.dumps(table.state, sort_keys=True), deal.view(viewer))]
    for rid, msg in enumerate(messages):
        table._on_msg(table, dict(msg, id=rid), [])
        story.append((json.dumps(sent, sort_keys=True), json.dumps(table.state, sort_keys=True),
                      deal.view(viewer)))
        sent.clear()
    story.append(((table._picture(), repr(table)), "", deal.view(viewer)))
    return story


def story_difference(sa, sb):
    """The first step where the two pages differ, or None. A move of the viewer's may show
    it something new (the rest of the deal, dealt to it, may hold a swapped card): from the
    step where its views differ on, only the reply to that step is compared."""
    for n, ((ra, pa, va), (rb, pb, vb)) in enumerate(zip(sa, sb)):
        if ra != rb:
            return n, ra, rb
        if va != vb:
            return None
        if pa != pb:
            return n, pa, pb
    return None


def _first_difference(xs, ys):
    for n, (x, y) in enumerate(zip(xs, ys)):
        if x != y:
            return n, x, y
    return None


# ----------------------------------------------------------------------------- the tests
def _check(data, rules, same_suit):
    pair = draw_pair(data, rules, same_suit)
    if pair is None:
        return
    a, hands, viewer, swapped = pair
    moments = replay_pair(a, hands, viewer)
    if same_suit:
        assert len(moments) == len(a.actions) + 1, (
            f"swapping {swapped} (one suit, both unseen by seat {viewer}) changed its view "
            f"after {a.actions[:len(moments)]}")
    if not moments:
        return
    where = f"seat {viewer}, {swapped[0]}<->{swapped[1]}, {rules.to_text()}"
    fz.count("no-leak pairs")
    others = data.draw(st.lists(st.sampled_from(fz.DECK), max_size=4), label="cards to try")
    tried = [cl.Card.parse(c) for c in swapped] + others
    for k, (da, db) in enumerate(moments):
        ra, rb = refusals(da, viewer, tried), refusals(db, viewer, tried)
        if claims_may_differ(da, db, viewer, False):     # a claim is a probe the rules allow
            ra, rb = [x for x in ra if x[0] != "claim"], [x for x in rb if x[0] != "claim"]
        assert ra == rb, f"{where}, after {a.actions[:k]}: refusals differ: " \
                         f"{_first_difference(ra, rb)}"
        fz.count("no-leak moments")
    # the costly parts at a few moments, the last (deepest) one always
    picks = sorted({len(moments) - 1, *data.draw(st.lists(
        st.integers(0, len(moments) - 1), max_size=fz.budget(1, 3)), label="moments")})
    seed = data.draw(st.integers(0, 1000), label="hint seed")
    lang = data.draw(st.sampled_from(["en", "en", "ur", "hi"]), label="language")
    for k in picks:
        da, db = moments[k]
        at = f"{where}, after {a.actions[:k]}"
        ha, hb = hints(da, viewer, seed), hints(db, viewer, seed)
        assert ha == hb, f"{at}: hints differ: {_first_difference(ha, hb)}"
        if str(da.phase) != "over":
            # (a finished deal's review may use every hand)
            with fz.playouts(data.draw(st.sampled_from(fz.PLAYOUTS), label="playouts")):
                va, vb = review(da, viewer), review(db, viewer)
            assert va == vb, f"{at}: reviews differ: {va[0]!r} / {vb[0]!r} " \
                             f"{_first_difference(va[1], vb[1])}"
        catalogue = page_messages(da, viewer, swapped)
        picked = data.draw(st.lists(st.integers(0, len(catalogue) - 1), min_size=1,
                                    max_size=fz.budget(12, 30)), label="messages")
        messages = [catalogue[i] for i in picked]
        if str(da.phase) == "over":
            messages = [m for m in messages if m["type"] != "review"]
        messages = without_risky_claims(messages, da, db, viewer)
        with fz.few_samples():
            sa = table_story(da.copy(), viewer, messages, lang)
            sb = table_story(db.copy(), viewer, messages, lang)
        diff = story_difference(sa, sb)
        assert diff is None, f"{at}: the page of seat {viewer} differs after " \
                             f"{messages[:diff[0]]}: {diff[1]!r:.1500} / {diff[2]!r:.1500}"
        fz.count("no-leak tables")
        fz.count("no-leak messages", len(messages))


@pytest.mark.parametrize("game", fz.GAMES)
@fz.fuzz_settings(20, 60)
@given(data=st.data())
def test_same_suit_swaps_never_show(game, data):
    rules = data.draw(st.sampled_from(fz.RULES[game]), label="rules")
    try:
        _check(data, rules, same_suit=True)
    finally:
        fz.flush_stats()


@pytest.mark.parametrize("game", fz.GAMES)
@fz.fuzz_settings(20, 60)
@given(data=st.data())
def test_any_swap_never_shows(game, data):
    rules = data.draw(st.sampled_from([r for r in fz.RULES[game] if r.revokes == "allowed"]
                                      + fz.RULES[game][:2]), label="rules")
    try:
        _check(data, rules, same_suit=False)
    finally:
        fz.flush_stats()


# ----------------------------------------------------------------------------- what it found
def test_correcting_ones_own_revoke_tells_nothing_of_an_unseen_revoke():
    """Found by the no-leak harness (issue 23): whether a seat could correct its own revoke
    depended on an earlier revoke in the same trick that the seat cannot see (Deal.moves
    offered correct_revoke only to the earliest revoker, and the table refused the later
    revoker's correction), so North learnt that East's discard was a revoke. Now every
    revoker may take back its own revoke (deal.correct_revoke(seat))."""
    rules = cl.Rules.court_piece(revokes="allowed")
    seen = []
    for hands in fz.UNSEEN_REVOKE_HANDS:     # East's A♥ on A♠ is a revoke in the first only
        deal = cl.Deal.prearranged(rules, hands, dealer=3)
        deal.apply("call:C AS AH 10H")       # North (seat 2) revokes 10♥ after East
        view, moves = deal.view(2), repr(deal.moves(2))
        table = CardTable(deal, seat=2, bots=None)
        sent = fz.capture_replies(table)
        offered = table.state["frames"][-1]["actions"]
        table._on_msg(table, {"type": "correct_revoke", "id": 1}, [])
        seen.append((view, moves, offered, sent))
    assert seen[0][0] == seen[1][0]          # North cannot tell the two deals apart
    assert seen[0][1:] == seen[1][1:]


def test_a_table_never_shows_a_trick_that_was_taken_back():
    """Found by the fuzz harness (issue 23): a CardTable kept showing a completed trick
    that was taken back (undo at another table on the same deal, or deal.undo()) and played
    again otherwise: widgets/core.py _last_trick took the previous snapshot's trick whenever
    the number of tricks matched, so the page showed cards back in other players' hands."""
    shown = fz.stale_last_trick_shown()      # South's table takes back the first trick, it is
    assert shown is None, f"East's table still shows {shown}"   # played again otherwise
