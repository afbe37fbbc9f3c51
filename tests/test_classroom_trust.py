"""Trust: what reaches each learner's socket, and what a socket may do.

Every byte each socket receives over whole deals of every game and several variants
is checked against the true deal at that moment: no card of another seat's hand (nor
of the stock, nor a face-down trump card not the viewer's own) appears before it is
played or shown. Then the socket's limits: own seat only, message size, rate, code
guessing, Origin, forged and malformed messages, names as text, the teacher's token.
"""
from __future__ import annotations

import asyncio
import json
import pathlib
import re
import time

import pytest

import courtlearn as cl
from courtlearn.cards import Card
from courtlearn.classroom.room import _build_deal
from courtlearn.classroom.server import Guard, TokenBucket
from courtlearn.classroom.simulated import SimulatedLearner

from classroom_helpers import CODE, address, class_server, seated, settle

websockets = pytest.importorskip("websockets")
pytestmark = pytest.mark.timeout(180)

CODES = {c.code for c in cl.deck()} if hasattr(cl, "deck") else None
CLASSROOM = pathlib.Path(cl.__file__).parent / "classroom" / "static"
WIDGET = pathlib.Path(cl.__file__).parent / "widgets" / "static"

VARIANTS = [
    cl.Rules.court_piece(),
    cl.Rules.court_piece(trump_method="shown"),
    cl.Rules.court_piece(trump_method="hidden"),
    cl.Rules.court_piece(allow_deferred=True, revokes="allowed"),
    cl.Rules.double_sir(),
    cl.Rules.double_sir(trump_method="hidden_random"),
    cl.Rules.dehla_pakad(),
    cl.Rules.dehla_pakad(trump_method="first_void"),
]


def run(coro):
    return asyncio.run(coro)


# ----------------------------------------------------------------------------- the leak check
def secret(deal, seat) -> set[str]:
    """Cards ``seat`` may not know now: the other hands, the stock, a face-down trump card
    that is not its own; a trump card on show is public."""
    out = {c.code for o in range(4) if o != seat for c in deal.hand(o)}
    out |= {c.code for c in deal.stock}
    hidden = deal.hidden_trump_card
    if hidden is not None and seat != deal.trump_caller:
        out.add(hidden.code)
    if deal.trump_card is not None:
        out.discard(deal.trump_card.code)
    return out


def strings(obj):
    """Every string in a JSON value, dict keys included."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from strings(v)


def leaks(msg: dict, secrets_: set[str]) -> list[str]:
    """The secret cards a message shows: as a code ("QS") in any field, or as a card's
    printed form ("Q♠") inside any text."""
    printed = {str(Card.parse(c)): c for c in secrets_}
    found = []
    for s in strings(msg):
        if s in secrets_:
            found.append(s)
        elif any(ch in s for ch in "♠♥♣♦"):
            for p, code in printed.items():
                if re.search(rf"(?<![0-9A-Z]){re.escape(p)}", s):
                    found.append(code)
    return found


class Deals:
    """The true deal at (table, deal number, actions taken), rebuilt from the store."""

    def __init__(self, room):
        self.room = room
        self.cache = {}

    def at(self, key):
        if key not in self.cache:
            t, number, n = key
            table = self.room.tables[t]
            row = self.room.store.deals(table.id)[number]
            deal = _build_deal(table.rules, row["spec"])
            deal.apply(self.room.store.actions(row["id"])[:n])
            self.cache[key] = deal
        return self.cache[key]


def check_socket(learner, deals: Deals) -> int:
    """Check every message the learner's socket received; returns how many."""
    key = None
    named = getattr(learner, "named", [])
    for i, text in enumerate(learner.received):
        msg = json.loads(text)
        own = {card for first, last, card in named if first <= i <= last}
        if msg["type"] == "state":
            key = (msg["table"], msg["deal"], msg["actions"])
        if key is None:
            assert not leaks(msg, {c.code for c in cl.deck()}), msg   # before any deal: no card
            continue
        bad = leaks(msg, secret(deals.at(key), learner.seat) - own)
        assert not bad, f"{learner.name} (seat {learner.seat}) saw {bad} at {key}: {text[:300]}"
    return len(learner.received)


def test_the_leak_check_finds_a_planted_card():
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    other = deal.hand(2)[0]
    assert leaks({"state": {"seats": [{"hand": [other.code]}]}}, secret(deal, 0)) == [other.code]
    assert leaks({"message": f"West holds {other}."}, secret(deal, 0)) == [other.code]
    assert leaks({"message": f"West holds {other}."}, secret(deal, 2)) == []


class Prober(SimulatedLearner):
    """A learner who, before each move, tries things it may not do: a card it does not
    hold, every other kind of move, someone else's trump card. Their refusals (sentences
    from the engine) must tell it nothing of the other hands either."""

    named: list  # (first, last message index, card): the answer to a probe naming the card

    async def act(self, content=None, timeout=10.0):
        if content is None and self.frame is not None:
            if not hasattr(self, "named"):
                self.named = []
            mine = set(self.frame["seats"][self.seat]["hand"] or [])
            stranger = self.rng.choice(sorted({c.code for c in cl.deck()} - mine))
            for probe in ({"type": "play", "card": stranger},
                          {"type": "choose_trump_card", "card": stranger},
                          {"type": self.rng.choice(["claim_revoke", "correct_revoke", "play_on",
                                                    "ask_for_trump", "defer_trump"])}):
                first = len(self.received)
                reply = await super().act(probe, timeout)
                if "card" in probe:
                    # the refusal may repeat the card the learner named itself, and must say
                    # the same whoever holds it: no other seat is named
                    self.named.append((first, len(self.received) - 1, probe["card"]))
                    others = [st["name"] for st in self.frame["seats"] if st["seat"] != self.seat]
                    assert not any(n in reply.get("reason", "") for n in others), reply
        return await super().act(content, timeout)


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.to_text().replace(" ", "_"))
def test_each_socket_receives_its_own_seat_only(tmp_path, rules):
    async def main():
        async with class_server(tmp_path, tables=2, rules=rules, seed=3, rate=1000) as server:
            full = await seated(server, n=4, table=0, record=True, seed=10)
            half = await seated(server, n=2, table=1, record=True, seed=20)   # two bot seats
            for lr in full[:2] + half[:1]:
                lr.__class__ = Prober
            await asyncio.gather(*(lr.play(deals=2) for lr in full),
                                 *(lr.play(deals=1) for lr in half))
            assert all(len(lr.named) > 10 for lr in full[:2] + half[:1])   # they did probe
            deals = Deals(server.room)
            seen = sum(check_socket(lr, deals) for lr in full + half)
            assert seen > 200
            assert server.room.tables[0].deal_number == 1
            # and the others' moves did reach every seat: the last frame shows the deal over
            assert all(lr.frame["phase"] == "over" for lr in full + half)
    run(main())


# ----------------------------------------------------------------------------- acting
def test_a_learner_acts_only_for_their_own_seat(tmp_path):
    async def main():
        async with class_server(tmp_path) as server:
            room = server.room
            learners = await seated(server)
            deal = room.tables[0].deal
            actor = deal.actor
            other = learners[(actor + 1) % 4]
            before = list(deal.actions)
            # the other learner tries the actor's own move: refused with whose turn it is
            reply = await other.act({"type": "call_trump", "suit": "S"})
            assert not reply["ok"] and "turn" in reply["reason"]
            # a message naming a seat changes nothing: the server uses the socket's seat
            reply = await other.act({"type": "call_trump", "suit": "S", "seat": actor})
            assert not reply["ok"]
            assert deal.actions == before
            mover = learners[actor]
            assert (await mover.act())["ok"]
            # a card from another seat's hand, at the mover's turn: refused by the engine
            deal = room.tables[0].deal
            mover = learners[deal.actor]
            foreign = deal.hand((deal.actor + 1) % 4)[0].code
            n = len(deal.actions)
            reply = await mover.act({"type": "play", "card": foreign})
            assert not reply["ok"] and len(deal.actions) == n
    run(main())


def test_forged_and_malformed_messages_are_refused_and_the_socket_stays_open(tmp_path):
    async def main():
        async with class_server(tmp_path) as server:
            room = server.room
            learners = await seated(server)
            a = learners[room.tables[0].deal.actor]
            before = list(room.tables[0].deal.actions)
            bad = ["not json", "[]", "5", '"hello"', '{"type": 5}', '{"type": "nope"}',
                   '{"type": "msg"}', '{"type": "msg", "content": "play QS"}',
                   '{"type": "msg", "content": {"type": "play", "card": "ZZ"}}',
                   '{"type": "msg", "content": {"type": "play", "card": ["QS"]}}',
                   '{"type": "msg", "content": {"type": "call_trump", "suit": "SH"}}',
                   '{"type": "msg", "content": {"type": "__class__"}}',
                   '{"type": "take_seat", "table": "0", "seat": 1}',
                   '{"type": "take_seat", "table": 99, "seat": 1}',
                   '{"type": "take_seat", "table": 0, "seat": true}',
                   '{"type": "hello", "code": "TEST23", "name": "again"}',
                   "[" * 3000 + "]" * 3000, "{\"type\": \"x\", \"a\": " + "9" * 3000 + "}",
                   b"\x00\x01binary"]
            for i, text in enumerate(bad):
                n = len(a.refusals)
                await a.send(text)
                await a.wait_for(lambda: len(a.refusals) > n)
            assert len(a.refusals) >= len(bad)
            assert room.tables[0].deal.actions == before
            assert not a.closed
            assert (await a.act())["ok"]                 # still open, still playing
    run(main())


def test_message_size_is_limited(tmp_path):
    async def main():
        async with class_server(tmp_path) as server:
            [a] = await seated(server, n=1)
            await a.send(json.dumps({"type": "msg", "content": {"type": "hint", "x": "y" * 5000}}))
            await a.wait_for(lambda: a.refusals)
            assert "too long" in a.refusals[-1] and not a.closed
            await a.send("x" * 100_000)                  # past the frame limit: closed
            await a.wait_for(lambda: a.closed, 5)
    run(main())


def test_each_socket_is_rate_limited_without_being_closed(tmp_path):
    async def main():
        async with class_server(tmp_path) as server:
            room = server.room
            learners = await seated(server)
            a = learners[(room.tables[0].deal.actor + 1) % 4]   # not their turn: cheap refusals
            start = time.monotonic()
            for i in range(300):
                await a.send(json.dumps({"type": "msg", "content": {"type": "call_trump",
                                                                    "suit": "S", "id": 1000 + i}}))
            await settle(server, 0.5)
            took = time.monotonic() - start                  # longer on a busy machine
            slow = [r for r in a.refusals if "slow down" in r]
            answered = sum(1 for r in a.replies if isinstance(r, int) and r >= 1000)
            # one warning a second, not one a message; what is answered is the burst and the
            # rate's worth of the time it took, the others were dropped unanswered
            assert 1 <= len(slow) <= took + 2, (len(slow), took)
            assert answered <= server.burst + server.rate * took + 5, (answered, took)
            assert answered < 300
            await asyncio.sleep(1.0)
            mover = learners[room.tables[0].deal.actor]
            assert (await mover.act())["ok"] and not a.closed
    run(main())


def test_guessing_the_class_code_is_slowed(tmp_path):
    """An address's first wrong tries are free (a class's typos), then one try every
    ``every`` seconds; a right try from the address waits its turn, then joins."""
    async def main():
        async with class_server(tmp_path) as server:
            server.guard = Guard(free=2, every=0.5)
            start = time.monotonic()
            for guess in ("AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD"):
                g = SimulatedLearner(address(server), "G", code=guess)
                await g.connect()
                await g.send({"type": "hello", "code": guess, "name": "G"})
                await g.wait_for(lambda: g.refusals, 10)
                assert "not the class code" in g.refusals[-1]
                await g.close()
            assert time.monotonic() - start >= 2 * 0.5 - 0.05     # two free, two waited
            # the right code from the same address now waits its turn too, then joins
            t = time.monotonic()
            ok = SimulatedLearner(address(server), "OK", code=CODE)
            await ok.join()
            assert time.monotonic() - t >= 0.4 and ok.welcome["name"] == "OK"
    run(main())


def test_the_guard_and_the_bucket():
    g = Guard(free=2, every=10)
    assert g.take("a", 0.0) and g.take("a", 0.0)            # two wrong tries free
    assert not g.take("a", 0.0)
    assert g.wait("a", 0.0) == pytest.approx(10.0)
    assert g.wait("b", 0.0) == 0.0                          # another address is not slowed
    assert g.wait("a", 5.0) == pytest.approx(5.0)           # the delay in force now
    g.result("a", True, 5.0)                                # a right try costs nothing
    assert g.take("a", 5.0)
    b = TokenBucket(rate=10, burst=3, clock=lambda: 0.0)
    assert [b.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert b.take(0.1) and not b.take(0.1)


def test_the_origin_is_checked(tmp_path):
    async def main():
        async with class_server(tmp_path, origins=("https://class.example.org",)) as server:
            url = f"ws://127.0.0.1:{server.port}/ws"
            for origin in ("http://evil.example", f"http://127.0.0.1:{server.port}.evil.example",
                           "null"):
                with pytest.raises(websockets.exceptions.InvalidStatus) as err:
                    await websockets.connect(url, origin=origin)
                assert err.value.response.status_code == 403
            for origin in (f"http://127.0.0.1:{server.port}", "https://class.example.org"):
                ws = await websockets.connect(url, origin=origin)
                await ws.close()
    run(main())


def test_the_teacher_token_and_other_tokens_never_reach_a_learner(tmp_path):
    async def main():
        async with class_server(tmp_path) as server:
            room = server.room
            learners = await seated(server, record=True)
            await asyncio.gather(*(lr.play(deals=1) for lr in learners))
            room.pause()
            room.resume()
            await settle(server)
            for lr in learners:
                everything = "".join(lr.received)
                assert room.teacher_token not in everything
                for other in learners:
                    if other is not lr:
                        assert other.token not in everything
                # its own token: exactly once, in its welcome
                assert everything.count(lr.token) == 1
                # no token hash either
                assert not any(x.token_hash in everything for x in room.learners.values())
    run(main())


def test_names_travel_as_text_and_the_pages_write_text_only(tmp_path):
    name = '<img src=x onerror="alert(1)">&amp;'
    async def main():
        async with class_server(tmp_path) as server:
            learners = await seated(server, names={1: name}, record=True)
            msgs = [json.loads(t) for t in learners[0].received]
            roster = [m for m in msgs if m["type"] == "table"][-1]
            assert roster["seats"][1]["name"] == name            # unchanged, as text
            state = [m for m in msgs if m["type"] == "state"][-1]
            assert state["state"]["frames"][-1]["seats"][1]["player"] == name
    run(main())
    # the pages put every text in with textContent: no HTML parsing of anything received
    for path in (CLASSROOM / "learner.js", WIDGET / "table.js"):
        src = path.read_text()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                     "new Function"):
            assert sink not in src, f"{path.name} uses {sink}"


def test_names_are_checked(tmp_path):
    async def main():
        async with class_server(tmp_path) as server:
            for bad in ("", "   ", "x" * 41, 5, None, "\x00\x07"):
                g = SimulatedLearner(address(server), bad, code=CODE)
                await g.connect()
                await g.send({"type": "hello", "code": CODE, "name": bad})
                await g.wait_for(lambda: g.refusals)
                assert g.welcome is None
                await g.close()
    run(main())
