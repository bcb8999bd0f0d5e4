"""What limits the classroom on PostgreSQL across machines: how many transactions a second commit with NOTIFY.

    python benchmarks/postgres_notify.py [--seconds 5] [--writers 1 4 16] [--database URL]

Every classroom command that changes something announces it with ``pg_notify`` inside its
transaction, so that every server process, on any machine, hears of it. PostgreSQL commits the
transactions that notify one at a time (they queue for one lock on the notification queue,
held until the commit is on disk), whereas other transactions wait for the disk together (group
commit). This script measures both on the database given (default: a PostgreSQL server of its
own, started from Debian's binaries as the tests do): `writers` connections each insert one row
per transaction for `seconds`, with and without ``pg_notify``. Printed: ``commits_per_s`` for
each, and ``disk_sync_ms``, the time of one commit alone.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def commits_per_second(dsn: str, writers: int, seconds: float, notify: bool) -> float:
    """Return the transactions committed per second by `writers` connections, each inserting a row per commit."""
    import psycopg

    counts = [0] * writers
    stop = time.monotonic() + seconds
    statement = "INSERT INTO bench_rows (writer) VALUES (%s)"

    def work(k: int) -> None:
        with psycopg.connect(dsn) as conn:
            while time.monotonic() < stop:
                with conn.transaction():
                    conn.execute(statement, (k,))
                    if notify:
                        conn.execute("SELECT pg_notify('bench', 'x')")
                counts[k] += 1

    threads = [threading.Thread(target=work, args=(k,)) for k in range(writers)]
    begin = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / (time.monotonic() - begin)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--writers", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--database", help="a PostgreSQL URL (default: a server of our own)")
    args = parser.parse_args()
    import psycopg

    with ExitStack() as stack:
        dsn = args.database
        if dsn is None:
            sys.path.insert(0, str(ROOT))
            from tests.classroom.postgres import Postgres, binaries

            found = binaries()
            if found is None:
                raise SystemExit("PostgreSQL's binaries are missing (apt-get install postgresql), or give --database")
            pg = Postgres(found).start()
            stack.callback(pg.stop)
            dsn = pg.new_database()
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS bench_rows (id bigserial PRIMARY KEY, writer int)")
            conn.execute("LISTEN bench")  # a listener, as every classroom process is
            print(f"disk_sync_ms: {1000 / commits_per_second(dsn, 1, args.seconds, False):.2f}")
            for writers in args.writers:
                plain = commits_per_second(dsn, writers, args.seconds, False)
                notified = commits_per_second(dsn, writers, args.seconds, True)
                for _ in conn.notifies(timeout=0.1, stop_after=1_000_000):
                    pass
                print(f"writers: {writers}  commits_per_s: {plain:.0f} without NOTIFY, {notified:.0f} with NOTIFY")
    return 0


if __name__ == "__main__":
    sys.exit(main())
