"""Events between server processes that share one PostgreSQL database: LISTEN/NOTIFY.

Every process announces its events with ``pg_notify`` inside the transaction that made the
change (`Database.announce`), so PostgreSQL delivers them when, and only if, it commits. Each
process listens on one connection of its own, in a thread, and hands what others announced to
its hub. Its own announcements come back too and are skipped: it sent them to its pages at once.
After a lost connection the listener reconnects and refreshes every page, since events may have
been missed meanwhile. With SQLite (one process) there is nothing to listen to.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Callable
from typing import Any

from .database import CHANNEL

__all__ = ["Listener"]

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
