"""Behind https (issue 29): `courtlearn class serve --proxy 127.0.0.1 --origin https://...`
behind a real nginx on 127.0.0.1 with a self-signed certificate made here, as the README's
"A class" section says to set it up. Over https and wss: the learner page, a learner's
socket joining and taking a seat, the teacher's socket getting its state; the per-address
limits count the address nginx forwards, and only because the request came from the
named proxy (a forged X-Forwarded-For straight to the server counts for nothing).

(The pages in Chromium over https: tests/browser run them at class.lan over http; nginx
changes nothing in them but the scheme, which learner.js and teacher.js follow.)
"""
from __future__ import annotations

import asyncio
import json
import shutil
import socket
import ssl
import subprocess
import textwrap
import time
import urllib.request

import pytest

from courtlearn.classroom.simulated import ServerProcess, free_port

websockets = pytest.importorskip("websockets")
pytestmark = [pytest.mark.timeout(120),
              pytest.mark.skipif(shutil.which("nginx") is None and
                                 not __import__("os").path.exists("/usr/sbin/nginx"),
                                 reason="nginx is installed by make test (apt-get)")]

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
NAME = "class.test"          # the class's https name (a name under .test: refused elsewhere)
CODE = "HTTPS2"


def nginx_conf(folder, port: int, upstream: int) -> str:
    """The README's proxy, on 127.0.0.1: TLS, the WebSocket upgrade, the client's address."""
    return textwrap.dedent(f"""\
        daemon off;
        pid {folder}/nginx.pid;
        error_log {folder}/error.log;
        events {{ worker_connections 256; }}
        http {{
          access_log off;
          client_body_temp_path {folder}/body;
          proxy_temp_path {folder}/proxy;
          fastcgi_temp_path {folder}/fastcgi;
          uwsgi_temp_path {folder}/uwsgi;
          scgi_temp_path {folder}/scgi;
          map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
          server {{
            listen 127.0.0.1:{port} ssl;
            server_name {NAME};
            ssl_certificate {folder}/cert.pem;
            ssl_certificate_key {folder}/key.pem;
            location / {{
              proxy_pass http://127.0.0.1:{upstream};
              proxy_http_version 1.1;
              proxy_set_header Host $http_host;
              proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
              proxy_set_header X-Forwarded-Proto https;
              proxy_set_header Upgrade $http_upgrade;
              proxy_set_header Connection $connection_upgrade;
              proxy_read_timeout 3600s;
            }}
          }}
        }}
        """)


@pytest.fixture
def https_class(tmp_path):
    folder = tmp_path / "nginx"
    folder.mkdir()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", f"/CN={NAME}", "-addext", f"subjectAltName=DNS:{NAME}",
                    "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem")],
                   check=True, capture_output=True, timeout=60)
    port = free_port()
    server = ServerProcess(tmp_path / "class.sqlite", CODE, tables=2,
                           extra=("--proxy", "127.0.0.1", "--origin", f"https://{NAME}:{port}",
                                  "--show-teacher-link")).start()
    (folder / "nginx.conf").write_text(nginx_conf(folder, port, server.port))
    proxy = subprocess.Popen([NGINX, "-c", str(folder / "nginx.conf"), "-p", str(folder)],
                             stderr=subprocess.PIPE)
    end = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert proxy.poll() is None and time.monotonic() < end, proxy.stderr.read()
            time.sleep(0.1)
    tls = ssl.create_default_context(cafile=str(folder / "cert.pem"))
    try:
        yield server, port, tls
    finally:
        proxy.terminate()
        proxy.wait(10)
        server.stop()


def https_get(port, path, tls, headers=None):
    """A GET of https://class.test:PORT/path, class.test being 127.0.0.1 here."""
    import http.client
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=tls, timeout=10)
    conn.sock = tls.wrap_socket(socket.create_connection(("127.0.0.1", port)),
                                server_hostname=NAME)
    conn.request("GET", path, headers={"Host": f"{NAME}:{port}", **(headers or {})})
    r = conn.getresponse()
    return r.status, r.read()


def test_the_class_works_behind_https_and_counts_the_forwarded_addresses(https_class):
    server, port, tls = https_class
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
