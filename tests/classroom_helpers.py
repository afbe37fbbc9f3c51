"""Shared by the class server's tests: a server on 127.0.0.1 in the test's own event
loop, and simulated learners (real WebSocket clients) to fill it."""
from __future__ import annotations

import asyncio
import contextlib
import json
import urllib.error
import urllib.request

from courtlearn.classroom.room import Room
from courtlearn.classroom.server import ClassServer
from courtlearn.classroom.simulated import SimulatedLearner
from courtlearn.classroom.store import Store

CODE = "TEST23"


@contextlib.asynccontextmanager
async def class_server(tmp_path, tables=2, rules=None, grace=30.0, language="en", seed=1,
                       origins=(), rate=None, **room_kw):
    """A class (code TEST23) served on a free port of 127.0.0.1 for the block."""
    store = Store(tmp_path / "class.sqlite")
    room = Room.create(store, code=CODE, tables=tables, rules=rules, grace=grace,
                       language=language, seed=seed, loop=asyncio.get_running_loop(), **room_kw)
    server = ClassServer(room, port=0, host="127.0.0.1", origins=origins,
                         **({"rate": rate, "burst": int(rate * 2)} if rate else {}))
    try:
        yield server
    finally:
        server.stop()
        await asyncio.sleep(0.05)
        store.close()


def address(server) -> str:
    return f"http://127.0.0.1:{server.port}/"


async def seated(server, n=4, table=0, record=False, names=None, seed=0, **kw):
    """``n`` learners joined and seated at ``table``, seats 0..n-1 (the room paused while
    they sit, so the bots of the seats still empty do not start the deal)."""
    room = server.room
    was = room.paused
    room.pause()
    out = []
    for i in range(n):
        lr = SimulatedLearner(address(server), (names or {}).get(i, f"L{i}"), code=CODE,
                              record=record, seed=seed + i, **kw)
        await lr.join(table=table, seat=i)
        out.append(lr)
    if not was:
        room.resume()
        for lr in out:
            await lr.wait_for(lambda: not lr.roster["paused"])
    return out


async def settle(server, seconds=0.1):
    """Let the loop deliver what is queued."""
    await asyncio.sleep(seconds)


def http_get(url: str, headers=None):
    """(status, headers, body) of a GET (errors included)."""
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


async def get(url: str, headers=None):
    return await asyncio.get_running_loop().run_in_executor(None, http_get, url, headers)


def messages(learner) -> list[dict]:
    return [json.loads(t) for t in learner.received]
