"""Behind https (issue 29): `courtlearn class serve --proxy 127.0.0.1 --origin https://...`
behind a real nginx on 127.0.0.1 with a self-signed certificate made here, as the README's
"A class" section says to set it up. Over https and wss: the learner page, a learner's
socket joining and taking a seat, the teacher's socket getting its state; the per-address
limits count the address nginx forwards, and only because the request came from the
named proxy (a forged X-Forwarded-For straight to the server counts for nothing).

(The pages themselves in Chromium over https and wss: tests/browser/test_class_https.py;
the nginx fixture is tests/https_proxy.py.)
"""
from __future__ import annotations

import asyncio
import json
import socket
import time

import pytest

from https_proxy import CODE, NAME, https_class as _https_class, https_get, needs_nginx

websockets = pytest.importorskip("websockets")
pytestmark = [pytest.mark.timeout(120), needs_nginx]


@pytest.fixture
def https_class(tmp_path):
    with _https_class(tmp_path) as c:
        yield c.server, c.port, c.tls


def test_the_class_works_behind_https_and_counts_the_forwarded_addresses(https_class):
    server, port, tls = https_class
    # what the console says: the https address for the learners and the teacher's link,
    # not the class's own 127.0.0.1 (the proxy's way in)
    assert f"join at: https://{NAME}:{port}/" in server.lines
    assert [ln.split("#")[0] for ln in server.lines if ln.startswith("teacher page:")] == \
        [f"teacher page: https://{NAME}:{port}/teacher"]
    status, body = https_get(port, "/", tls)
    assert status == 200 and b'data-role="connection"' in body

    async def main():
        def wss(path, forged=None):
            sock = socket.create_connection(("127.0.0.1", port))
            return websockets.connect(f"wss://{NAME}:{port}/{path}", ssl=tls, sock=sock,
                                      server_hostname=NAME, origin=f"https://{NAME}:{port}",
                                      additional_headers=forged or {})
        async with wss("ws") as ws:
            await ws.send(json.dumps({"type": "hello", "code": CODE, "name": "Asha"}))
            kinds = set()
            while "lobby" not in kinds:
                kinds.add(json.loads(await ws.recv())["type"])
            await ws.send(json.dumps({"type": "take_seat", "table": 0, "seat": 0}))
            while "state" not in kinds:
                kinds.add(json.loads(await ws.recv())["type"])
        teacher = next(ln for ln in server.lines if ln.startswith("teacher page:")).split("#")[1]
        async with wss("teacher/ws") as ws:
            assert json.loads(await ws.recv())["type"] == "login"
            await ws.send(json.dumps({"type": "hello", "token": teacher}))
            seen = set()
            while "state" not in seen:
                seen.add(json.loads(await ws.recv())["type"])
        # a page of another origin through the same proxy: refused
        sock = socket.create_connection(("127.0.0.1", port))
        with pytest.raises(websockets.exceptions.InvalidStatus):
            await websockets.connect(f"wss://{NAME}:{port}/ws", ssl=tls, sock=sock,
                                     server_hostname=NAME, origin="https://evil.example")
    asyncio.run(main())

    # per-address limits: the address nginx forwards (the client's own: 127.0.0.1 here),
    # a forged X-Forwarded-For from the client is not what counts (nginx appends the real
    # one, the server reads the last); straight to the server, a forged one counts nothing
    def wrong(host_port, forged, via_tls):
        import http.client
        body = json.dumps({"code": "WRONG1", "name": "G"})
        if via_tls:
            conn = http.client.HTTPSConnection("127.0.0.1", host_port, context=tls, timeout=10)
            conn.sock = tls.wrap_socket(socket.create_connection(("127.0.0.1", host_port)),
                                        server_hostname=NAME)
            host = f"{NAME}:{host_port}"
        else:
            conn = http.client.HTTPConnection("127.0.0.1", host_port, timeout=10)
            host = f"127.0.0.1:{host_port}"
        conn.request("POST", "/api/join", body=body,
                      headers={"Host": host, "Content-Type": "application/json",
                               "X-Forwarded-For": forged})
        return conn.getresponse().status
    t = time.monotonic()
    statuses = [wrong(port, f"10.9.9.{i}", True) for i in range(33)]
    assert statuses.count(403) == 33
    # 30 free wrong tries per address: the 31st waited (2 s each) although every request
    # forged another address: the real one (appended by nginx) was counted
    assert time.monotonic() - t >= 2 * 2 - 0.5
