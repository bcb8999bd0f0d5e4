"""Events between server processes that share one database: LISTEN/NOTIFY on PostgreSQL, a log on SQLite.

Every process announces its events with ``pg_notify`` inside the transaction that made the
change (`Database.announce`), so PostgreSQL delivers them when, and only if, it commits. Each
process listens on one connection of its own, in a thread, and hands what others announced to
its hub. Its own announcements come back too and are skipped: it sent them to its pages at once.
After a lost connection the listener reconnects and refreshes every page, since events may have
been missed meanwhile.

SQLite has no NOTIFY: processes that share a file write their events into the ``events`` table
inside the transaction that made the change (`Database.announce`), and each reads what the
others wrote since it last looked (`EventLog`), every few hundredths of a second. Transactions
are serial, so the ids come in commit order; the oldest rows are deleted after a minute, and a
process that finds a gap (it was stalled longer) refreshes every page. With one process on
SQLite there is nothing to hear.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, select

from .database import CHANNEL
from .hot import Hot
from .schema import events

__all__ = ["KEEP_SECONDS", "EventLog", "Listener", "forget_old_events"]

log = logging.getLogger("ra_classroom")


class Listener:
    """A thread that listens on PostgreSQL for other processes' events.

    Args:
        dsn: the database's libpq connection string.
        origin: this process's id, to skip its own events.
        loop: the server's event loop, where `deliver` runs.
        deliver: called with each list of events announced by another process, and with
            ``[{"k": "all"}]`` after a reconnection.
    """

    def __init__(
        self, dsn: str, origin: str, loop: asyncio.AbstractEventLoop, deliver: Callable[[list[dict[str, Any]]], None]
    ) -> None:
        self.dsn, self.origin, self.loop, self.deliver = dsn, origin, loop, deliver
        self._stop = threading.Event()
        self.ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ra-classroom-listen", daemon=True)

    def start(self) -> None:
        """Start listening."""
        self._thread.start()

    def stop(self) -> None:
        """Stop listening (within a second)."""
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    if not first:  # events may have been missed while away
                        self.loop.call_soon_threadsafe(self.deliver, [{"k": "all"}])
                    first = False
                    self.ready.set()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            self._handle(note.payload)
            except Exception:
                if self._stop.is_set():
                    return
                log.exception("lost the PostgreSQL listener connection; reconnecting")
                self._stop.wait(1.0)

    def _handle(self, payload: str) -> None:
        try:
            data = json.loads(payload)
        except ValueError:
            return
        if isinstance(data, dict) and data.get("o") != self.origin and isinstance(data.get("e"), list):
            self.loop.call_soon_threadsafe(self.deliver, data["e"])


KEEP_SECONDS = 60.0  #: how long the SQLite event log keeps an event
# Read every few hundredths of a second by each process: compiled once, run on the driver's cursor (`hot`).
_SINCE = Hot(
    select(events.c.id, events.c.origin, events.c.payload).where(events.c.id > bindparam("last")).order_by(events.c.id)
)
_LAST = Hot(select(func.coalesce(func.max(events.c.id), 0)))


class EventLog:
    """What the other processes sharing a SQLite file announced, read from its ``events`` table.

    Args:
        origin: this process's id, to skip its own events.
    """

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.last: int | None = None  # the id of the last event read

    def read(self, conn: Connection) -> list[dict[str, Any]]:
        """Return the events the other processes committed since the last call (``[{"k": "all"}]`` after a gap).

        One statement each time: it may run outside a transaction (`Database.glancing`).
        """
        if self.last is None:  # from now on
            self.last = int(_LAST.scalar(conn))
            return []
        rows = _SINCE.rows(conn, last=self.last)
        if not rows:
            return []
        gap = int(rows[0].id) != self.last + 1
        self.last = int(rows[-1].id)
        if gap:  # older ones were deleted before this process read them
            return [{"k": "all"}]
        found: list[dict[str, Any]] = []
        for r in rows:
            if r.origin != self.origin:
                found += json.loads(r.payload)
        return found


def forget_old_events(conn: Connection, now: float) -> None:
    """Delete the events of the SQLite log older than `KEEP_SECONDS`."""
    conn.execute(delete(events).where(events.c.at < now - KEEP_SECONDS))
