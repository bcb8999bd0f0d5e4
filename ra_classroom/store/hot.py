"""The statements run for every click and every page, compiled once per database and run on the driver's cursor.

SQLAlchemy prepares every execution anew: it coerces the statement, looks up its compiled form
by a cache key built from the statement, fires its events and sets up a result object. For the
small statements a classroom runs thousands of times a minute (a move's row lock and insert, the
seats of a table, a page's round) that work costs ten times what SQLite takes to run them.

`Hot` keeps the statement written once, in SQLAlchemy Core, with the tables of `schema`; it is
compiled once for each database it meets (SQLite's ``?`` or psycopg's ``%(name)s``, PostgreSQL's
casts and ``FOR UPDATE OF``), by SQLAlchemy's own compiler, and then run on the driver's own
connection, inside the transaction of the `Connection` given: the same SQL, the same
transaction, without the per-execution machinery. A list parameter (``bindparam(...,
expanding=True)``, an ``IN``) is compiled once for each power of two it fits in.

Rows are named tuples with the statement's column names, their values converted as SQLAlchemy
would (a Boolean column's 0 or 1 from SQLite is ``False`` or ``True``), and so are the values sent
(a float column's value is sent as a float).
"""

from __future__ import annotations

import threading
from collections import namedtuple
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, cast

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement

__all__ = ["Hot", "Taken", "raw", "unless_taken"]


def raw(conn: Connection) -> Any:
    """Return the driver's own connection under `conn` (`sqlite3.Connection`, `psycopg.Connection`)."""
    return conn.connection.driver_connection


class _Form:
    """A statement as one database runs it: its SQL, where each value goes, and how its rows are read."""

    def __init__(self, stmt: ClauseElement, dialect: Dialect, lengths: Mapping[str, int]) -> None:
        compiled = cast(SQLCompiler, stmt.compile(dialect=dialect))
        sent: dict[str, Any] = dict(compiled._bind_processors)  # noqa: SLF001 - how SQLAlchemy converts a value before sending it
        params: dict[str, Any] = {}  # the caller's values as marks, the statement's own constants as they are
        for name, bind in compiled.binds.items():
            if name in lengths:
                params[name] = [_Mark(name, i, sent.get(name)) for i in range(lengths[name])]
            elif bind.required:
                params[name] = _Mark(name, None, sent.get(name))
            else:
                value = bind.effective_value
                params[name] = sent[name](value) if name in sent else value
        if lengths:
            state = compiled.construct_expanded_state(params)
            self.sql: str = state.statement
            found, order = state.parameters, state.positiontup
        else:
            self.sql, found, order = compiled.string, params, compiled.positiontup
        self.positional = bool(compiled.positional)
        self.slots: list[tuple[str, Any]] = (
            [(key, found[key]) for key in order or ()] if self.positional else list(found.items())
        )
        self.dialect = dialect
        self.columns = compiled._result_columns  # noqa: SLF001 - the names and types of the rows, as SQLAlchemy reads them
        self.row: Callable[..., Any] | None = None
        if self.columns:
            row_type: Any = namedtuple("Row", tuple(c.keyname for c in self.columns), rename=True)  # type: ignore[misc]  # noqa: PYI024
            self.row = row_type._make
        self.convert: list[tuple[int, Any]] | None = None  # known at the first rows (`read`)

    def args(self, params: Mapping[str, Any]) -> Sequence[Any] | dict[str, Any]:
        """Return the driver's parameters for `params` (each list's items in its own slots)."""
        if self.positional:
            return [m.take(params) if isinstance(m, _Mark) else m for _, m in self.slots]
        return {key: (m.take(params) if isinstance(m, _Mark) else m) for key, m in self.slots}

    def read(self, cursor: Any, found: list[tuple[Any, ...]]) -> list[Any]:
        """Return the driver's rows `found` by `cursor` as named tuples, their values converted."""
        if self.row is None:
            raise TypeError("this statement returns no rows")
        if self.convert is None:  # how to read each column depends on the type the driver says it has
            readers = []
            for i, (c, told) in enumerate(zip(self.columns or (), cursor.description, strict=True)):
                reader = c.type._cached_result_processor(self.dialect, told[1])  # noqa: SLF001
                if reader is not None:
                    readers.append((i, reader))
            self.convert = readers
        if self.convert:
            out = []
            for r in found:
                values = list(r)
                for i, read in self.convert:
                    values[i] = read(values[i])
                out.append(self.row(values))
            return out
        return [self.row(r) for r in found]


class _Mark:
    """Where one value of the caller's parameters goes: parameter `name`, item `index` of it if it is a list.

    `convert`: SQLAlchemy's conversion of the value for the driver (a float column's value made a float), if any.
    """

    __slots__ = ("convert", "index", "name")

    def __init__(self, name: str, index: int | None, convert: Callable[[Any], Any] | None) -> None:
        self.name, self.index, self.convert = name, index, convert

    def take(self, params: Mapping[str, Any]) -> Any:
        value = params[self.name]
        if self.index is not None:  # a list's slots past its end repeat its last item (`Hot`)
            value = value[self.index] if self.index < len(value) else value[-1]
        return value if self.convert is None or value is None else self.convert(value)


def _slots(n: int) -> int:
    """Return the slots a list of `n` items is given: the next power of two (the last item fills the rest).

    An ``IN`` finds the same rows with an item twice, and a statement is compiled for a few
    lengths only (1, 2, 4, ..., 1024 for a hall of a thousand), not for every length met.

    >>> [_slots(n) for n in (0, 1, 2, 3, 5, 1000)]
    [0, 1, 2, 4, 8, 1024]
    """
    return 0 if n <= 0 else 1 << (n - 1).bit_length()


class Hot:
    """A statement run often: compiled once per database (and per power of two of its list parameters' lengths).

    Args:
        stmt: the statement, with a ``bindparam`` for every value (an ``insert`` or ``update``
            names its columns' values with ``.values(column=bindparam(...))``).
        lists: the names of its list parameters (``bindparam(name, expanding=True)``): each is
            used only in an ``IN``, where an item repeated changes nothing (see `_slots`).

    >>> from sqlalchemy import bindparam, select
    >>> from ra_classroom.store.schema import moves
    >>> since = Hot(select(moves.c.seat, moves.c.action).where(moves.c.table_id == bindparam("table")))
    >>> since.lists
    ()

    ``since.rows(conn, table=7)`` then returns the rows of table 7's moves, each with ``.seat``
    and ``.action``.
    """

    def __init__(self, stmt: ClauseElement, lists: Sequence[str] = ()) -> None:
        self.stmt, self.lists = stmt, tuple(lists)
        self._forms: dict[tuple[str, tuple[int, ...]], _Form] = {}
        self._guard = threading.Lock()

    def _form(self, conn: Connection, params: Mapping[str, Any]) -> _Form:
        lengths = tuple(_slots(len(params[name])) for name in self.lists)
        key = (conn.dialect.name, lengths)
        form = self._forms.get(key)
        if form is None:
            if any(n == 0 for n in lengths):
                raise ValueError(f"a hot statement's list parameters are empty: {self.lists}")
            with self._guard:
                form = self._forms.get(key)
                if form is None:
                    form = _Form(self.stmt, conn.dialect, dict(zip(self.lists, lengths, strict=True)))
                    self._forms[key] = form
        return form

    def _run(self, conn: Connection, params: Mapping[str, Any]) -> tuple[_Form, Any]:
        form = self._form(conn, params)
        return form, raw(conn).execute(form.sql, form.args(params))

    def rows(self, conn: Connection, **params: Any) -> list[Any]:
        """Return every row the statement finds, in `conn`'s transaction."""
        form, cursor = self._run(conn, params)
        return form.read(cursor, cursor.fetchall())

    def first(self, conn: Connection, **params: Any) -> Any:
        """Return the first row the statement finds, or None."""
        form, cursor = self._run(conn, params)
        found = cursor.fetchone()
        return None if found is None else form.read(cursor, [found])[0]

    def scalar(self, conn: Connection, **params: Any) -> Any:
        """Return the first column of the first row the statement finds, or None."""
        row = self.first(conn, **params)
        return None if row is None else row[0]

    def run(self, conn: Connection, **params: Any) -> int:
        """Run a statement that returns no rows; return how many rows it changed."""
        _, cursor = self._run(conn, params)
        return int(cursor.rowcount)

    def many(self, conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """Run a statement without list parameters once for each of `rows` (an insert of several rows)."""
        if not rows:
            return
        form = self._form(conn, rows[0])
        driver = raw(conn)
        if hasattr(driver, "executemany"):  # sqlite3's connection runs it itself
            driver.executemany(form.sql, [form.args(r) for r in rows])
        else:  # psycopg's connection: through a cursor
            with driver.cursor() as cursor:
                cursor.executemany(form.sql, [form.args(r) for r in rows])


class Taken(Exception):
    """A unique key (or another constraint) refused a row: nothing of it was stored."""


@contextmanager
def unless_taken(conn: Connection) -> Iterator[None]:
    """Run the statements of the block in a savepoint of `conn`'s transaction; raise `Taken` if a key refuses one.

    Only the block is undone: the transaction goes on (PostgreSQL would otherwise refuse every
    statement after the error). The savepoint is the database's own statement, sent as it is.
    """
    driver = raw(conn)
    driver.execute("SAVEPOINT attempt")
    try:
        yield
    except conn.dialect.loaded_dbapi.IntegrityError:
        driver.execute("ROLLBACK TO SAVEPOINT attempt")
        driver.execute("RELEASE SAVEPOINT attempt")
        raise Taken from None
    except BaseException:
        driver.execute("ROLLBACK TO SAVEPOINT attempt")
        driver.execute("RELEASE SAVEPOINT attempt")
        raise
    driver.execute("RELEASE SAVEPOINT attempt")
