"""Behind https, as the README's "A class" section sets it up (issue 29): Debian's nginx on
127.0.0.1 with a self-signed certificate made here, in front of `courtlearn class serve
--proxy 127.0.0.1 --origin https://class.test:P`. Shared by tests/test_classroom_proxy.py
(wss clients) and tests/browser/test_class_https.py (the pages in Chromium).

``class.test`` is the class's https name (a name under .test: no public DNS answers for
it); a client maps it to 127.0.0.1 (Chromium: --host-resolver-rules; Python: the socket
made by hand, the name given for TLS and Host).
"""
from __future__ import annotations

import contextlib
import os
import shutil
import socket
import ssl
import subprocess
import textwrap
import time

import pytest

from courtlearn.classroom.simulated import ServerProcess, free_port

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
NAME = "class.test"
CODE = "HTTPS2"

#: mark for tests that need nginx (make test installs it with apt-get)
needs_nginx = pytest.mark.skipif(shutil.which("nginx") is None and not os.path.exists(NGINX),
                                 reason="nginx is installed by make test (apt-get)")


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


class HttpsClass:
    """A class server behind nginx: ``server`` (the ServerProcess), ``port`` (nginx's),
    ``tls`` (an SSLContext trusting the test's certificate), ``base``
    (``https://class.test:PORT/``) and ``teacher_token``."""

    def __init__(self, server, port, tls, folder):
        self.server, self.port, self.tls, self.folder = server, port, tls, folder
        self.base = f"https://{NAME}:{port}/"

    @property
    def teacher_token(self) -> str:
        return next(ln for ln in self.server.lines
                    if ln.startswith("teacher page:")).split("#", 1)[1]


@contextlib.contextmanager
def https_class(tmp_path, code: str = CODE, tables: int = 2, extra=()):
    """The class (``code``) behind nginx's https on a free port of 127.0.0.1 for the
    block; nginx and the server stopped after it."""
    folder = tmp_path / "nginx"
    folder.mkdir()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", f"/CN={NAME}", "-addext", f"subjectAltName=DNS:{NAME}",
                    "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem")],
                   check=True, capture_output=True, timeout=60)
    port = free_port()
    server = ServerProcess(tmp_path / "class.sqlite", code, tables=tables,
                           extra=("--proxy", "127.0.0.1", "--origin", f"https://{NAME}:{port}",
                                  "--show-teacher-link", *extra)).start()
    proxy = None
    try:
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
        yield HttpsClass(server, port, tls, folder)
    finally:
        if proxy is not None:
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
