"""What a tick says to a page goes straight to its socket when nothing waits before it
(issue 29, Speed: tornado's stream makes a future, a callback and a loop turn for every
write); a write the kernel takes only in part, and everything after it while the rest
waits, goes through tornado's stream. Either way the page gets every message, whole and
in order: checked with a page that stops reading while hundreds of messages are written
(the kernel's buffers fill, writes split), then reads again.
"""
from __future__ import annotations

import asyncio
import json
import socket

from classroom_helpers import class_server


def test_messages_arrive_whole_and_in_order_when_the_socket_fills(tmp_path):
    import websockets

    async def main():
        async with class_server(tmp_path, tables=1) as server:
            room = server.room
            url = f"ws://127.0.0.1:{server.port}/ws"
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect(("127.0.0.1", server.port))
            sock.setblocking(False)
            page = await websockets.connect(url, origin=f"http://127.0.0.1:{server.port}",
                                            max_size=None, ping_interval=None, sock=sock)
            await page.send(json.dumps({"type": "hello", "code": "TEST23", "name": "Asha"}))
            while json.loads(await page.recv())["type"] != "welcome":
                pass
            [ws] = list(server.sockets)
            ws.ws_connection.stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF,
                                                      4096)
            page.transport.pause_reading()               # it reads nothing for a while
            queued_at_some_point = False
            for i in range(400):                         # ~1.2 kB each, in ticks of 1-3
                for _ in range(1 + i % 3):
                    room._send(ws, {"type": "custom", "content": {"n": i, "pad": "x" * 1200}})
                room.flush()
                queued_at_some_point |= bool(ws.ws_connection.stream._write_buffer)
                if i % 40 == 0:
                    await asyncio.sleep(0.01)
            assert queued_at_some_point                  # the kernel took some only in part
            assert len(server.sockets) == 1
            page.transport.resume_reading()
            got = []
            while len(got) < sum(1 + i % 3 for i in range(400)):
                m = json.loads(await asyncio.wait_for(page.recv(), 10))
                if m["type"] == "custom":
                    assert m["content"]["pad"] == "x" * 1200
                    got.append(m["content"]["n"])
            assert got == [i for i in range(400) for _ in range(1 + i % 3)]
            # and once the page reads again, writes go straight to the socket again
            assert not ws.ws_connection.stream._write_buffer
            await page.close()
    asyncio.run(main())
