"""The database: one SQLite file by default (WAL), or PostgreSQL given a URL, through SQLAlchemy.

`database_url` turns what a teacher types (a file name, ``sqlite:///class.db``, or a
``DATABASE_URL``-style ``postgres://user:pw@host/db``) into a SQLAlchemy URL. `Database` opens
the engine with the settings each backend needs:

* SQLite: write-ahead log, ``synchronous=FULL`` (a committed bid survives a crash of the process
  and of the machine), foreign keys on, and every writing transaction ``BEGIN IMMEDIATE``, so that
  transactions never deadlock on upgrading a read lock; reads (`Database.reading`) go through a
  second engine and see the last commit without waiting for a writer.
* Either: a database made by an older version gets the columns added since (all may be empty).
* PostgreSQL (psycopg 3): the same tables; `announce` sends events with ``pg_notify`` inside the
  transaction, so other server processes hear of a change exactly when it is committed.
* SQLite shared by several processes on one machine (``shared``): each writing transaction first
  takes a lock file (`writing`), so that writers queue in the kernel instead of sleeping in
  SQLite's busy handler, and `announce` writes events into the ``events`` table inside the
  transaction, which the other processes read (`ra_classroom.store.bus.EventLog`).

>>> database_url("class.db")
'sqlite:///class.db'
>>> database_url("postgres://teacher@db.example/ra")
'postgresql+psycopg://teacher@db.example/ra'
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, create_engine, event, insert, text
from sqlalchemy.engine import make_url

from .hot import Hot, raw
from .schema import events, metadata, upgrade

__all__ = ["CHANNEL", "Database", "database_url", "is_postgres", "raw"]

CHANNEL = "ra_classroom"  #: the PostgreSQL notification channel of every classroom process
NOTIFY_BYTES = 7000  #: the most one NOTIFY payload carries here (PostgreSQL refuses 8,000 bytes and more)


def database_url(given: str) -> str:
    """Return the SQLAlchemy URL for `given`: a URL, or a file name for SQLite."""
    if given.startswith(("postgres://", "postgresql://")):
        return "postgresql+psycopg://" + given.split("://", 1)[1]
    if "://" in given:
        return given
    return f"sqlite:///{given}"


def is_postgres(given: str) -> bool:
    """Return whether `given` (a URL or a file name) is a PostgreSQL database."""
    return make_url(database_url(given)).get_backend_name() == "postgresql"


class Database:
    """The engine, its tables, and the announcement of events to other processes.

    Args:
        url: a SQLAlchemy URL or a file name (see `database_url`).
        shared: a SQLite file that several server processes of this machine serve together.
    """

    def __init__(self, url: str, shared: bool = False) -> None:
        self.url = database_url(url)
        self.is_postgres = is_postgres(self.url)
        self.shared = shared and not self.is_postgres
        self._lock_file: int | None = None
        self._kept: dict[tuple[int, str], Connection] = {}  # SQLite: by thread and role, the connections kept open
        self._guard = threading.Lock()
        if self.is_postgres:
            self.engine = create_engine(self.url, pool_size=8, max_overflow=4, pool_pre_ping=True)
            self.read_engine = self.engine
        else:
            self.engine = create_engine(self.url, connect_args={"timeout": 30})
            event.listen(self.engine, "connect", _sqlite_connect)
            event.listen(self.engine, "begin", _sqlite_begin)
            self.read_engine = create_engine(self.url, connect_args={"timeout": 30})
            event.listen(self.read_engine, "connect", _sqlite_connect)
            event.listen(self.read_engine, "begin", _sqlite_read)
        with self.writing(), self.engine.begin() as conn:
            if self.is_postgres:  # processes starting together take turns at creating and upgrading
                conn.execute(text("SELECT pg_advisory_xact_lock(7240151)"))
            metadata.create_all(conn)
            upgrade(conn)

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Hold the writers' lock of a shared SQLite file (nothing otherwise) for one writing transaction."""
        if not self.shared:
            yield
            return
        import fcntl

        if self._lock_file is None:
            path = make_url(self.url).database or ""
            self._lock_file = os.open(f"{path}.write-lock", os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self._lock_file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(self._lock_file, fcntl.LOCK_UN)

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """Yield a connection in a transaction, committed at the end (rolled back on an error)."""
        with self.engine.begin() as conn:
            yield conn

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """Yield a connection in a transaction for reading: it sees the last commit and blocks no writer.

        On SQLite each reading thread keeps its connection open (`kept`): a read a few hundredths
        of a second apart (another process's events, a batch of pages) is a BEGIN and a COMMIT on
        it, not a connection taken from the pool and reset on its way back.
        """
        if self.is_postgres:
            with self.read_engine.begin() as conn:
                yield conn
            return
        conn = self.kept(self.read_engine, "reader")
        with conn.begin():
            yield conn

    @contextmanager
    def glancing(self) -> Iterator[Connection]:
        """Yield a connection for one statement of reading, which sees the last commit on its own.

        On SQLite it is the reading thread's kept connection outside a transaction: a hot
        statement (`ra_classroom.store.hot`) run on it is a transaction by itself, without a
        BEGIN and a COMMIT around it (another process's events, read fifty times a second).
        A statement run through SQLAlchemy would begin a transaction: it is ended after the block.
        """
        if self.is_postgres:
            with self.reading() as conn:
                yield conn
            return
        conn = self.kept(self.read_engine, "reader")
        try:
            yield conn
        finally:
            if conn.in_transaction():
                conn.rollback()

    def kept(self, engine: Engine, role: str) -> Connection:
        """Return this thread's connection of `engine` for `role`, kept open from one transaction to the next.

        A connection found closed or invalidated (the database lost it) is replaced; those of
        threads that have ended go back to the pool then. `close` closes them all.
        """
        key = (threading.get_ident(), role)
        conn = self._kept.get(key)
        if conn is None or conn.closed or conn.invalidated:
            conn = engine.connect()
            with self._guard:
                alive = {t.ident for t in threading.enumerate()}
                for gone in [k for k in self._kept if k[0] not in alive]:
                    self._kept.pop(gone).close()
                self._kept[key] = conn
        return conn

    def announce(self, conn: Connection, events: Sequence[dict[str, Any]], origin: str) -> None:
        """Send `events` to the other server processes when `conn`'s transaction commits (PostgreSQL, shared SQLite)."""
        if not events:
            return
        if self.is_postgres:  # a NOTIFY carries under 8,000 bytes: many events (a burst removed) go in several
            part: list[dict[str, Any]] = []
            for event in [*events, None]:
                if event is not None and len(json.dumps([*part, event], separators=(",", ":"))) < NOTIFY_BYTES:
                    part.append(event)
                    continue
                if part:
                    payload = json.dumps({"o": origin, "e": part}, separators=(",", ":"))
                    _NOTIFY.run(conn, channel=CHANNEL, payload=payload)
                part = [event] if event is not None else []
        elif self.shared:
            payload = json.dumps(list(events), separators=(",", ":"))
            _LOG.run(conn, origin=origin, payload=payload, when=time.time())

    def listen_dsn(self) -> str:
        """Return the libpq connection string of the database, for a LISTEN connection (PostgreSQL)."""
        url = make_url(self.url).set(drivername="postgresql")
        return url.render_as_string(hide_password=False)

    def close(self) -> None:
        """Close every connection kept and pooled (and the lock file)."""
        with self._guard:
            kept, self._kept = self._kept, {}
        for conn in kept.values():
            conn.close()
        self.engine.dispose()
        self.read_engine.dispose()
        if self._lock_file is not None:
            os.close(self._lock_file)
            self._lock_file = None


# Run inside every command that changes what a page shows: compiled once, run on the driver's cursor (`hot`).
_LOG = Hot(insert(events).values(origin=bindparam("origin"), payload=bindparam("payload"), at=bindparam("when")))
_NOTIFY = Hot(text("SELECT pg_notify(:channel, :payload)"))


def _sqlite_connect(dbapi_conn: Any, _record: Any) -> None:
    """Set SQLite up for a classroom: WAL, durable commits, foreign keys, transactions we begin ourselves."""
    dbapi_conn.isolation_level = None  # pysqlite's own BEGIN is replaced by `_sqlite_begin`
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _sqlite_begin(conn: Connection) -> None:
    """Begin every SQLite transaction IMMEDIATE: it takes the write lock at once, so none waits in a cycle.

    Sent to the driver's connection itself, as SQLAlchemy's own BEGIN would be: a statement that
    returns nothing needs none of its execution's work, and every transaction begins so.
    """
    raw(conn).execute("BEGIN IMMEDIATE")


def _sqlite_read(conn: Connection) -> None:
    """Begin a SQLite read: a snapshot of the last commit (write-ahead log), taken at its first read."""
    raw(conn).execute("BEGIN")
