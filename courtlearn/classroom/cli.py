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
    s.add_argument("--host-name", action="append", default=[], metavar="NAME",
                   help="a name of this machine that learners type and the server cannot "
                        "know (one in your school's or a public DNS, e.g. "
                        "class.school.example); pages asking by any other name are refused "
                        "(DNS rebinding). Addresses, this machine's own name and names "
                        "ending .local, .lan, .home.arpa or .internal need none")
    s.add_argument("--proxy", action="append", default=[], metavar="ADDRESS",
                   help="the reverse proxy in front of the class (e.g. 127.0.0.1 for an "
                        "nginx on this machine): the per-address limits then count the "
                        "address it forwards (X-Forwarded-For), and only from it")
    s.add_argument("--max-learners", type=int, default=None, metavar="N",
                   help="how many learners the class takes (default 500; kept in the class "
                        "file): joins past it are refused")
    s.add_argument("--max-connections", type=int, default=None, metavar="N",
                   help="connections at once (default: from the open-file limit); a tenth "
                        "is kept for seated learners and the teacher")

    lr = csub.add_parser("learners", help="list, remove or let back the learners of a "
                         "running class (the teacher's link says where and proves it)")
    lr.add_argument("--link", default=None,
                    help="the teacher page's link (http://.../teacher#TOKEN); default: the "
                         "COURTLEARN_TEACHER_LINK variable, else it is asked for")
    lr.add_argument("--remove", type=int, nargs="+", default=None, metavar="LEARNER",
                    help="remove these learners (their numbers, as listed)")
    lr.add_argument("--remove-unseated", action="store_true",
                    help="remove every learner without a seat (what a flood of joins left)")
    lr.add_argument("--let-back", type=int, nargs="+", default=None, metavar="LEARNER",
                    help="removed learners who may join again")
    lr.add_argument("--max-learners", type=int, default=None, metavar="N",
                    help="how many learners the class takes from now on")
    return p


def learners(args) -> int:
    """``courtlearn class learners``: the teacher's console into a running class (its
    ``api/teacher/learners``)."""
    import json
    import os
    import urllib.error
    import urllib.request
    link = args.link or os.environ.get("COURTLEARN_TEACHER_LINK")
    if not link:
        import getpass
        link = getpass.getpass("the teacher page's link: ")
    base, _, token = link.partition("#")
    if not token or "/teacher" not in base:
        print("courtlearn: the teacher's link looks like http://192.168.1.5:8765/teacher#TOKEN "
              "(as cl.classroom.open shows it, or serve --show-teacher-link prints it)",
              file=sys.stderr)
        return 2
    url = base[:base.rindex("/teacher")] + "/api/teacher/learners"
    body = {}
    if args.remove_unseated:
        body["remove"] = "unseated"
    elif args.remove:
        body["remove"] = args.remove
    if args.let_back:
        body["let_back"] = args.let_back
    if args.max_learners is not None:
        body["max_learners"] = args.max_learners
    req = urllib.request.Request(url, data=json.dumps(body).encode() if body else None,
                                 headers={"Authorization": f"token {token}",
                                          "Content-Type": "application/json"},
                                 method="POST" if body else "GET")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            got = json.loads(r.read())
    except urllib.error.HTTPError as err:
        try:
            reason = json.loads(err.read()).get("reason")
        except ValueError:
            reason = err.reason
        print(f"courtlearn: the class refused: {reason}", file=sys.stderr)
        return 1
    except (urllib.error.URLError, OSError) as err:
        print(f"courtlearn: the class at {url} cannot be reached ({err})", file=sys.stderr)
        return 1
    if body:
        print(f"removed: {len(got.get('removed', []))}; let back: {len(got.get('let_back', []))}; "
              f"the class takes {got['max_learners']} learners")
        return 0
    rows = got["learners"]
    print(f"class {got['code']}: {sum(not r['removed'] for r in rows)} learners "
          f"(it takes {got['max_learners']})")
    for r in rows:
        where = "-" if r["table"] is None else f"table {r['table'] + 1} seat {r['seat']}"
        state = "removed" if r["removed"] else ("here" if r["connected"] else "away")
        print(f"{r['learner']:>6}  {r['name'][:40]:<40}  {where:<16}  {state}")
    return 0


def main(argv=None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.action == "learners":
        return learners(args)
    import faulthandler
    faulthandler.enable()                  # a fatal signal (SIGBUS, SIGSEGV) says where
    from .server import serve
    if args.lite is not None:
        from .lite import site_folder
        try:
            args.lite = site_folder(args.lite)
        except ValueError as err:
            parser.error(str(err))                  # exit status 2, nothing started
    from .limits import proxy_addresses
    from .store import ClassFileError, Store
    try:
        proxy_addresses(args.proxy)
    except ValueError as err:
        parser.error(str(err))

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
                        lite=args.lite, host_names=args.host_name, proxies=args.proxy,
                        max_learners=args.max_learners, max_connections=args.max_connections)
        finally:
            store.close()

    try:
        asyncio.run(run())
    except (ClassFileError, ValueError) as err:
        print(f"courtlearn: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"courtlearn: {err.strerror or err}", file=sys.stderr)
        return 2
    return 0


def _hub_environment() -> bool:
    """Whether JupyterHub started this process as a service (JUPYTERHUB_SERVICE_NAME is
    set; a user's own Jupyter server under a hub has the hub's other variables too)."""
    import os
    return bool(os.environ.get("JUPYTERHUB_SERVICE_NAME"))


if __name__ == "__main__":
    sys.exit(main())
