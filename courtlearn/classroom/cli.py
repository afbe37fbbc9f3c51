"""The console script: ``courtlearn class serve --db class.sqlite --port 8765``.

Runs the class server without a notebook (a lab machine, a small cloud machine
behind https) until Ctrl-C or SIGTERM. It prints the class code and the join
address(es) on stdout, never a token.
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
    s.add_argument("--port", type=int, default=8765, help="HTTP port (0: a free one)")
    s.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
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
    return p


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    from .server import serve
    from .store import Store

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
            print(f"port: {server.port}", flush=True)

        store = Store(args.db, synchronous=args.synchronous)
        try:
            await serve(port=args.port, db=store, language=args.language, code=args.code,
                        tables=args.tables, rules=args.game, host=args.host, grace=args.grace,
                        origins=args.origin, ready=ready, stop=stop)
        finally:
            store.close()

    asyncio.run(run())
    return 0


if __name__ == "__main__":
    sys.exit(main())
