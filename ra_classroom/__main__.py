"""The classroom server from a terminal: ``python -m ra_classroom serve``.

    python -m ra_classroom serve --host 0.0.0.0 --port 8000 --database class.db --room

The teacher's secret comes from ``RA_CLASSROOM_SECRET``, or a new one is made and printed.
The database comes from ``--database``, else ``DATABASE_URL``, else ``classroom.db`` here.
``--room`` creates a room at start and prints its code, the students' link and a QR code.
"""

from __future__ import annotations

import argparse
import os
import sys

from .store.tokens import new_secret
from .web.limits import JOINS_PER_MINUTE
from .web.server import PING_SECONDS

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m ra_classroom", description="The Ra classroom server.")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("serve", help="serve the students' pages and the teacher's API")
    run.add_argument(
        "--database",
        default=os.environ.get("DATABASE_URL", "classroom.db"),
        help="a SQLite file or a database URL (default: $DATABASE_URL, else classroom.db)",
    )
    run.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to let the class's devices in")
    run.add_argument("--port", type=int, default=8000)
    run.add_argument("--room", action="store_true", help="create a room at start and print its link and QR code")
    run.add_argument("--quiet", action="store_true", help="log warnings only")
    run.add_argument(
        "--processes", type=int, default=1, help="server processes sharing the port, one per core (default 1)"
    )
    run.add_argument(
        "--ping",
        type=float,
        default=PING_SECONDS,
        help=f"seconds between pings to find pages gone (default {PING_SECONDS:g})",
    )
    run.add_argument(
        "--joins-per-minute",
        type=int,
        default=JOINS_PER_MINUTE,
        help=f"students who may join from one address at once, and each minute (default "
        f"{JOINS_PER_MINUTE}: a class behind one NAT shares an address)",
    )
    run.add_argument(
        "--trusted-proxy",
        default=os.environ.get("RA_CLASSROOM_TRUSTED_PROXY", ""),
        help="the address of the proxy in front of the server (such as 127.0.0.1 for Caddy on this machine), "
        "whose X-Forwarded-For names each student's address; no other client's is believed "
        "(default: $RA_CLASSROOM_TRUSTED_PROXY, else none)",
    )
    run.add_argument(
        "--unseated-seconds",
        type=float,
        default=None,
        help="seconds a page may stay silent before a student is seated on it, then it is closed (default 60)",
    )
    run.add_argument(
        "--kinds",
        default=os.environ.get("RA_CLASSROOM_KINDS", ""),
        help="modules (comma-separated) that register kinds of round of their own when imported "
        "(default: $RA_CLASSROOM_KINDS, else none)",
    )
    run.add_argument("--shared-port", action="store_true", help=argparse.SUPPRESS)  # one of --processes' processes
    args = parser.parse_args(argv)
    secret = os.environ.get("RA_CLASSROOM_SECRET") or ""
    if not secret:
        secret = new_secret()
        print(f"teacher's secret: {secret}   (set RA_CLASSROOM_SECRET to choose it)", flush=True)
    if args.kinds:
        from .kinds.registry import load

        try:
            load(args.kinds)
        except ValueError as e:
            parser.error(str(e))
        os.environ["RA_CLASSROOM_KINDS"] = args.kinds  # the processes of --processes load them too
    if args.room:
        from .web.links import announce_room

        announce_room(args.database, args.host, args.port)
    from .web.server import serve

    if not 1 <= args.processes <= 64:
        parser.error("--processes is from 1 to 64 (one per core)")
    if not 0.5 <= args.ping <= 300:
        parser.error("--ping is from 0.5 to 300 seconds")
    if args.unseated_seconds is not None and not 1 <= args.unseated_seconds <= 3600:
        parser.error("--unseated-seconds is from 1 to 3600")
    if not 1 <= args.joins_per_minute <= 100_000:
        parser.error("--joins-per-minute is from 1 to 100000")
    serve(
        args.database,
        secret,
        args.host,
        args.port,
        "warning" if args.quiet else "info",
        processes=args.processes,
        ping=args.ping,
        joins_per_minute=args.joins_per_minute,
        shared_port=args.shared_port,
        trusted_proxy=args.trusted_proxy,
        unseated=args.unseated_seconds,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
