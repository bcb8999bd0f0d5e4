"""Group commit on SQLite: one writer thread runs the commands that wait together in one transaction.

SQLite writes one transaction at a time, and each commit waits for the disk (``synchronous=FULL``:
a few milliseconds, far more on a busy machine). Two hundred bids within three seconds, one
commit each, queue behind one another for seconds. The writer takes every command waiting when
it is free, runs each in a savepoint of one transaction, and commits them with one wait for the
disk. A command that fails rolls back its own savepoint only (its moves and its changed table
games go with it); the others commit. Nothing is acknowledged before the commit: every
command's future is settled after it (if the commit itself fails, every command of the batch
fails, and none is stored).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from sqlalchemy import Connection

from .database import Database
from .table_moves import TableCache, savepoint, staged

__all__ = ["MAX_BATCH", "Writer", "announced", "one_transaction"]

MAX_BATCH = 200  #: commands in one transaction at most

Command = Callable[[Connection], Any]
Events = list[dict[str, Any]]
T = TypeVar("T")


def announced(
    fn: Callable[[Connection], tuple[T, Events]], db: Database, origin: str
) -> Callable[[Connection], tuple[T, Events]]:
    """Return the command `fn` that also writes its events for the other processes, inside its transaction."""

    def command(conn: Connection) -> tuple[T, Events]:
        result, events = fn(conn)
        db.announce(conn, events, origin)  # shared SQLite: into the event log, in the command's savepoint
        return result, events

    return command


def one_transaction(
    db: Database, cache: TableCache, fn: Callable[[Connection], tuple[T, Events]], origin: str
) -> tuple[T, Events]:
    """Run the command `fn` alone in one transaction of its own connection (PostgreSQL: commands run side by side).

    Its events are announced inside the transaction; the table games it changed enter `cache`
    only once it has committed.
    """
    with db.engine.connect() as conn:
        try:
            with conn.begin():
                result, events = fn(conn)
                db.announce(conn, events, origin)
        except BaseException:
            staged(conn)  # rolled back: its games are dropped
            raise
        cache.installed(staged(conn))
    return result, events


class Writer:
    """The one thread that writes a SQLite classroom, committing the commands that wait together at once.

    Args:
        db: the database.
        cache: the process's table games (a batch's changed games enter it once committed).
    """

    def __init__(self, db: Database, cache: TableCache) -> None:
        self.db, self.cache = db, cache
        self._queue: queue.SimpleQueue[tuple[Command, Future[Any]] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="ra-classroom-writer", daemon=True)
        self._thread.start()
        self.batches = 0  #: transactions committed (or failed) so far
        self.commands = 0  #: commands run in them

    def submit(self, fn: Command) -> Future[Any]:
        """Queue `fn(conn)` to run in the next transaction; return a future of its result, settled after the commit."""
        done: Future[Any] = Future()
        self._queue.put((fn, done))
        return done

    def stop(self) -> None:
        """Finish the commands queued, then stop the thread."""
        self._queue.put(None)
        self._thread.join(timeout=30)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < MAX_BATCH:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    self._queue.put(None)  # stop after this batch
                    break
                batch.append(nxt)
            self._commit(batch)

    def _commit(self, batch: list[tuple[Command, Future[Any]]]) -> None:
        """Run `batch` in one transaction, each command in a savepoint; settle every future after the commit."""
        self.batches += 1
        self.commands += len(batch)
        outcomes: list[tuple[Future[Any], Any, BaseException | None]] = []
        try:
            with self.db.writing():  # other processes on the file wait their turn
                conn = self.db.kept(self.db.engine, "writer")  # this thread's, from one batch to the next
                try:
                    with conn.begin():
                        for fn, done in batch:
                            try:
                                with savepoint(conn):
                                    outcomes.append((done, fn(conn), None))
                            except Exception as e:  # noqa: BLE001 - this command's failure is its caller's
                                outcomes.append((done, None, e))
                except BaseException:
                    staged(conn)  # rolled back: its games are dropped
                    raise
                self.cache.installed(staged(conn))
        except Exception as e:  # noqa: BLE001 - the commit failed: no command of the batch is stored
            for _, done in batch:
                done.set_exception(e)
            return
        for done, value, error in outcomes:
            if error is None:
                done.set_result(value)
            else:
                done.set_exception(error)
