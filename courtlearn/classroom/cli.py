"""The console script: ``courtlearn class serve --db class.sqlite --port 8765``.

Runs the class server without a notebook (a lab machine, a small cloud machine
behind https) until Ctrl-C or SIGTERM. It prints the class code and the join
address(es) on stdout; the teacher page's link (it holds the teacher's token) only with
--show-teacher-link, and never into a log. Started by JupyterHub as a service, it reads the
hub's environment (JUPYTERHUB_SERVICE_PREFIX, ...) and serves under the service's prefix
behind the hub's login (courtlearn.classroom.hub); --no-hub ignores that environment.
"""
from __future__ import annotations

import argparse
import asyncio
import signal
import sys

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="courtlearn", description="courtlearn from the console.")
    sub = p.add_subparsers(dest="command", required=True)
    cls = sub.add_parser("class", help="a class at shared tables")
    csub = cls.add_subparsers(dest="action", required=True)
    s = csub.add_parser("serve", help="run the class server until Ctrl-C")
    s.add_argument("--db", default="class.sqlite", help="the SQLite file (default class.sqlite); "
                   "a class saved there resumes where it stopped")
    s.add_argument("--port", type=int, default=None,
                   help="HTTP port (default 8765, or the hub service's; 0: a free one)")
    s.add_argument("--host", default=None,
                   help="address to listen on (default: all, or the hub service's)")
    s.add_argument("--code", default=None, help="fix the class code (scripts, tests)")
    s.add_argument("--language", default="en", choices=("en", "ur", "hi"))
    s.add_argument("--tables", type=int, default=10, help="tables of a new class")
    s.add_argument("--game", default="court_piece",
                   choices=("court_piece", "double_sir", "dehla_pakad"))
    s.add_argument("--grace", type=float, default=30.0,
                   help="seconds a learner may be gone before a bot plays their seat")
    s.add_argument("--origin", action="append", default=[],
                   help="another page origin allowed to open sockets (behind a proxy)")
    s.add_argument("--synchronous", default="NORMAL", choices=("NORMAL", "FULL"),
                   help="SQLite's synchronous setting (FULL survives power cuts; slower)")
    s.add_argument("--show-teacher-link", action="store_true",
                   help="print the teacher page's address with its token on stdout (it "
                        "opens the dashboard; it is never logged)")
    s.add_argument("--lite", default=None, metavar="DIR",
                   help="serve this built browser-only site (make lite: build/lite) under "
                        "/lite/ of the class's address, where its lessons' Python reaches "
                        "the class")
    s.add_argument("--no-hub", action="store_true",
                   help="ignore a JupyterHub's environment: serve the plain class server")
    return p


def main(argv=None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    from .server import serve
    if args.lite is not None:
        from .lite import site_folder
        try:
            args.lite = site_folder(args.lite)
        except ValueError as err:
            parser.error(str(err))                  # exit status 2, nothing started
    from .store import Store

    server_class = None
    if not args.no_hub and _hub_environment():
        from functools import partial

        from .hub import HubEnv, HubServer
        hub = HubEnv.from_env()
        server_class = partial(HubServer, hub=hub)
        args.host = hub.host if args.host is None else args.host
        args.port = hub.port if args.port is None else args.port
    args.host = "0.0.0.0" if args.host is None else args.host
    args.port = 8765 if args.port is None else args.port

    async def run():
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, stop.set)
            except (NotImplementedError, RuntimeError):
                pass

        def ready(server):
            print(f"class code: {server.room.code}", flush=True)
            for a in server.addresses():
                print(f"join at: {a}", flush=True)
            if args.lite is not None:
                for a in server.addresses():
                    print(f"lessons at: {a}lite/", flush=True)
            if args.show_teacher_link:
                # stdout only, when asked: the link holds the teacher's token
                print(f"teacher page: {server.room.teacher_link()}", flush=True)
            print(f"port: {server.port}", flush=True)

        store = Store(args.db, synchronous=args.synchronous)
        try:
            await serve(port=args.port, db=store, language=args.language, code=args.code,
                        tables=args.tables, rules=args.game, host=args.host, grace=args.grace,
                        origins=args.origin, ready=ready, stop=stop, server_class=server_class,
                        lite=args.lite)
        finally:
            store.close()

    asyncio.run(run())
    return 0


def _hub_environment() -> bool:
    """Whether JupyterHub started this process as a service (JUPYTERHUB_SERVICE_NAME is
    set; a user's own Jupyter server under a hub has the hub's other variables too)."""
    import os
    return bool(os.environ.get("JUPYTERHUB_SERVICE_NAME"))


if __name__ == "__main__":
    sys.exit(main())
