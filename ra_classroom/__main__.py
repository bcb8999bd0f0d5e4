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

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m ra_classroom", description="The Ra classroom server.")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("serve", help="serve the students' pages and the teacher's API")
    run.add_argument("--database", default=os.environ.get("DATABASE_URL", "classroom.db"),
                     help="a SQLite file or a database URL (default: $DATABASE_URL, else classroom.db)")  # fmt: skip
    run.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to let the class's devices in")
    run.add_argument("--port", type=int, default=8000)
    run.add_argument("--room", action="store_true", help="create a room at start and print its link and QR code")
    run.add_argument("--quiet", action="store_true", help="log warnings only")
    args = parser.parse_args(argv)
    secret = os.environ.get("RA_CLASSROOM_SECRET") or ""
    if not secret:
        secret = new_secret()
        print(f"teacher's secret: {secret}   (set RA_CLASSROOM_SECRET to choose it)", flush=True)
    if args.room:
        from .web.links import announce_room

        announce_room(args.database, args.host, args.port)
    from .web.server import serve

    serve(args.database, secret, args.host, args.port, "warning" if args.quiet else "info")
    return 0


if __name__ == "__main__":
    sys.exit(main())
