"""Ra tables in the database: seat the students, store every move, let bots play empty or absent seats.

The moves table is the truth; `TableCache` keeps each table's game replayed in this process and
brings it up to date from the moves stored (by any process) before every use. A move is made
under a lock on its table's row (``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite transactions
are serial), checked against the board the student clicked on (its ply), and stored, with the
draws and bot moves that follow it, before it is acknowledged.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

from sqlalchemy import Connection, and_, bindparam, insert, select, update

from ..game.table import Answer, Click, Selection, TableGame
from .database import raw
from .hot import Hot
from .refusal import Refusal
from .schema import moves, read_spec, rounds, seats, students, tables

__all__ = [
    "Seating",
    "TableCache",
    "click",
    "closed_because",
    "create_tables",
    "give_back",
    "hand_to_bot",
    "return_seats",
    "savepoint",
    "seat_names",
    "seatings",
    "staged",
    "take_over_absent",
]


# The statements of every move and every board: compiled once, run on the driver's cursor (`hot`).
_MOVES_SINCE = Hot(
    select(moves.c.seat, moves.c.action)
    .where(moves.c.table_id == bindparam("table"), moves.c.ply >= bindparam("ply"))
    .order_by(moves.c.ply)
)
_GAME = Hot(select(tables.c.players, tables.c.seed).where(tables.c.id == bindparam("table")))
_SEATING = (
    select(seats.c.seat, seats.c.student_id, seats.c.bot, students.c.name, tables.c.table_no, tables.c.ply)
    .select_from(
        seats.outerjoin(students, students.c.id == seats.c.student_id).join(tables, tables.c.id == seats.c.table_id)
    )
    .where(seats.c.table_id == bindparam("table"))
    .order_by(seats.c.seat)
)
_THEIRS = seats.alias("theirs")  # the seats of the students asked for, to find their tables
_ROUND_SEATING = Hot(  # every seat of the tables of a round where one of the students asked for sits
    select(seats.c.table_id, *_SEATING.selected_columns)
    .select_from(
        seats.outerjoin(students, students.c.id == seats.c.student_id).join(tables, tables.c.id == seats.c.table_id)
    )
    .where(
        tables.c.round_id == bindparam("round"),
        seats.c.table_id.in_(
            select(_THEIRS.c.table_id).where(_THEIRS.c.student_id.in_(bindparam("ids", expanding=True)))
        ),
    )
    .order_by(seats.c.table_id, seats.c.seat),
    lists=["ids"],
)
_SEATING_HOT = Hot(_SEATING)
_BOTS = Hot(select(seats.c.seat).where(seats.c.table_id == bindparam("table"), seats.c.bot))
_SEATS = (  # a table's seats, with its round's state: who clicks, and which seats bots play
    select(
        rounds.c.status, rounds.c.paused_at, seats.c.seat, seats.c.student_id, seats.c.bot, seats.c.held, tables.c.ply
    )
    .select_from(tables.join(rounds, rounds.c.id == tables.c.round_id).join(seats, seats.c.table_id == tables.c.id))
    .where(tables.c.id == bindparam("table"))
)
_READ_SEATS = Hot(_SEATS)  # a step of a choice: nothing is stored
_LOCKED_SEATS = Hot(_SEATS.with_for_update(of=tables))  # a move: the table's row locked until the commit
_MARK = Hot(  # a table's ply and who decides now, after its moves
    update(tables)
    .where(tables.c.id == bindparam("table"))
    .values(ply=bindparam("new_ply"), to_move=bindparam("new_to_move"), turn_since=bindparam("since"))
)
_MOVE = Hot(
    insert(moves).values(
        table_id=bindparam("table"),
        ply=bindparam("at_ply"),
        seat=bindparam("by"),
        action=bindparam("act"),
        at=bindparam("when"),
    )
)
_BACK = Hot(  # a seat bots played is its student's again
    update(seats).where(seats.c.table_id == bindparam("table"), seats.c.seat == bindparam("at_seat")).values(bot=False)
)


class TableCache:
    """The games of this process's tables, replayed from the database and kept up to date from it.

    Readers (`game`) see committed moves only. A writer (`changing`) works on a copy, which takes
    the cached game's place only once its transaction has committed (`installed`), so that no
    page is ever drawn from a move that might yet be rolled back.
    """

    def __init__(self) -> None:
        self._games: dict[int, TableGame] = {}
        self._locks: dict[int, threading.Lock] = {}
        self._guard = threading.Lock()

    def _lock(self, table_id: int) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(table_id, threading.Lock())

    def _fresh(self, conn: Connection, table_id: int, ply: int | None = None) -> TableGame:
        """Return the cached game (or a new one) with every move `conn` sees made; the caller holds the lock.

        Moves are pushed on the cached game itself: only committed moves may be read through a
        connection that is not writing (`game`); a writer copies the result (`changing`). `ply`
        is the table's ply as `conn` reads it, if the caller has read it already: a cached game
        at that ply is up to date without asking the database for moves.
        """
        game = self._games.get(table_id)
        if game is not None and ply is not None and game.ply == ply:
            return game
        if game is None:
            row = _GAME.first(conn, table=table_id)
            if row is None:
                raise LookupError(f"there is no table {table_id}")
            game = TableGame(int(row.players), str(row.seed))
        for m in _MOVES_SINCE.rows(conn, table=table_id, ply=game.ply):
            game.push(int(m.seat), str(m.action))
        return game

    @contextmanager
    def game(self, conn: Connection, table_id: int, ply: int | None = None) -> Iterator[TableGame]:
        """Yield table `table_id`'s game as stored (every committed move made), for reading only.

        `ply`: the table's ply as `conn` reads it (its ``tables`` row), if the caller has it.
        """
        with self._lock(table_id):
            game = self._fresh(conn, table_id, ply)
            self._games[table_id] = game
            yield game

    @contextmanager
    def changing(self, conn: Connection, table_id: int, ply: int | None = None) -> Iterator[TableGame]:
        """Yield a copy of table `table_id`'s game to make moves on, inside `conn`'s transaction.

        The copy is staged in ``conn.info``; the caller installs it with `installed` once the
        transaction has committed, or drops it if the transaction failed. A table this
        transaction changed already goes on from its staged game: its moves are not committed,
        so they must not reach the cached game, which pages are drawn from. `ply`: the table's
        ply as `conn` reads it under the table's lock, if the caller has it (see `game`).
        """
        earlier = conn.info.get(_STAGED, {}).get(table_id)
        if earlier is not None:
            game = earlier.copy()
        else:
            with self._lock(table_id):
                game = self._fresh(conn, table_id, ply).copy()  # the cache keeps only what is committed
        yield game
        conn.info.setdefault(_STAGED, {})[table_id] = game

    def installed(self, staged: dict[int, TableGame]) -> None:
        """Put the games of a committed transaction in the cache (unless a newer one is there already)."""
        for table_id, game in staged.items():
            with self._lock(table_id):
                cached = self._games.get(table_id)
                if cached is None or cached.ply <= game.ply:
                    self._games[table_id] = game


_STAGED = "ra_classroom.staged_games"  # where a transaction's changed games wait for its commit (conn.info)


def staged(conn: Connection) -> dict[int, TableGame]:
    """Return (and clear) the games changed in `conn`'s transaction, to install once it has committed."""
    found: dict[int, TableGame] = conn.info.pop(_STAGED, {})
    return found


@contextmanager
def savepoint(conn: Connection) -> Iterator[None]:
    """Run a part of `conn`'s transaction in a savepoint: if it raises, its rows and its staged games are undone.

    The savepoint is the database's own statement, sent to the driver's connection as it is: it
    takes a tenth of a millisecond less than SQLAlchemy's (which compiles each one anew), less
    again than SQLAlchemy's execution of a text, and the writer opens one per command.
    """
    before = dict(conn.info.get(_STAGED, {}))
    driver = raw(conn)
    driver.execute("SAVEPOINT command")
    try:
        yield
    except BaseException:
        driver.execute("ROLLBACK TO SAVEPOINT command")
        driver.execute("RELEASE SAVEPOINT command")
        conn.info[_STAGED] = before
        raise
    driver.execute("RELEASE SAVEPOINT command")


def _store(conn: Connection, table_id: int, game: TableGame, made: Sequence[tuple[int, str]], now: float) -> None:
    """Insert the moves `made` (the last of `game`'s moves) and record the table's ply and who decides."""
    first = game.ply - len(made)
    rows = [{"table": table_id, "at_ply": first + k, "by": s, "act": a, "when": now} for k, (s, a) in enumerate(made)]
    _MOVE.many(conn, rows)
    to_move = -1 if game.state.is_terminal() else game.state.to_move
    _MARK.run(conn, table=table_id, new_ply=game.ply, new_to_move=to_move, since=now)


def create_tables(
    conn: Connection, round_id: int, seed: str, layout: Sequence[Sequence[int | None]], cache: TableCache, now: float
) -> list[int]:
    """Create one table per seat list in `layout` (None: a bot), make the bots' first moves; return the table ids."""
    ids = []
    for no, seat_list in enumerate(layout):
        players = len(seat_list)
        table_id = conn.execute(
            insert(tables)
            .values(
                round_id=round_id, table_no=no, players=players, seed=f"{seed}:t{no}", ply=0, to_move=0, turn_since=now
            )
            .returning(tables.c.id)
        ).scalar_one()
        conn.execute(
            insert(seats),
            [{"table_id": table_id, "seat": q, "student_id": s, "bot": s is None} for q, s in enumerate(seat_list)],
        )
        with cache.changing(conn, int(table_id)) as game:
            _store(conn, int(table_id), game, game.run_automatic(_bots(conn, int(table_id))), now)
        ids.append(int(table_id))
    return ids


def _bots(conn: Connection, table_id: int) -> set[int]:
    """Return the seats that bots play now at the table."""
    return {int(r.seat) for r in _BOTS.rows(conn, table=table_id)}


class Seating(NamedTuple):
    """Who sits where at a table.

    Attributes:
        shown: the name shown for each seat ("bot", or the student's, noting a bot playing for him).
        bots: the seats that bots play now.
        seat_of: each student's seat.
        names: the student's name at each seat ("bot" for a bot's seat).
        table_no: the table's number in its round, from 0.
        ply: the table's ply: how many moves are stored.
    """

    shown: list[str]
    bots: set[int]
    seat_of: dict[int, int]
    names: list[str]
    table_no: int
    ply: int


def seat_names(conn: Connection, table_id: int) -> Seating:
    """Return who sits where at the table."""
    return _seating(_SEATING_HOT.rows(conn, table=table_id))


def seatings(conn: Connection, round_id: int, students: Collection[int]) -> dict[int, Seating]:
    """Return who sits where at each table of round `round_id` where one of `students` sits, in one query."""
    at: dict[int, list[Any]] = {}
    if not students:
        return {}
    for r in _ROUND_SEATING.rows(conn, round=round_id, ids=sorted(students)):
        at.setdefault(int(r.table_id), []).append(r)
    return {table_id: _seating(rows) for table_id, rows in at.items()}


def _seating(rows: Sequence[Any]) -> Seating:
    """Return a table's `Seating` from its seats' rows (seat order), each with its student's name, table_no and ply."""
    names = ["bot" if r.student_id is None else str(r.name) for r in rows]
    away = [bool(r.bot) and r.student_id is not None for r in rows]
    shown = [f"{n}, a bot plays for now" if gone else n for n, gone in zip(names, away, strict=True)]
    return Seating(
        shown,
        {int(r.seat) for r in rows if r.bot},
        {int(r.student_id): int(r.seat) for r in rows if r.student_id is not None},
        names,
        int(rows[0].table_no),
        int(rows[0].ply),
    )


def closed_because(status: str, paused_at: float | None, held: bool) -> str:
    """Return why a seat's table takes no click now (the round closed or paused, the seat held by a bot), or ""."""
    if status != "open":
        return "The round is closed: the game has stopped."
    if paused_at is not None:
        return "The teacher has paused the round: wait until it goes on."
    if held:
        return "The teacher has handed your seat to a bot for now: ask to have it back."
    return ""


def click(
    conn: Connection,
    cache: TableCache,
    student_id: int,
    table_id: Any,
    clicked: Click,
    now: float,
    selection: Selection | None = None,
) -> tuple[Answer, int, list[dict[str, Any]]]:
    """Judge a student's click at his table, the one way in for a move and a step alike; make a move judged legal.

    The click (read at the edge, its move parsed once) is judged by the table's game
    (`TableGame.judge`, that is `ra_core.table.judge`): the board's version, whose turn it is,
    whether the table takes clicks now (the round closed or paused, the seat held by a bot: told
    to the judge as ``closed``), and the move's legality or the step's sense, each once. A move
    is made on a copy of the game under the table's lock and stored with the draws and bot
    moves after it; a step changes nothing (it is judged on the committed game, in a reading
    transaction).

    Returns:
        the judge's answer, the table's ply after it, and the events to send.

    Raises:
        Refusal: not his table, or the judge's refusal (a click on an older board, not his turn,
            a table that takes no click now, a move that is not legal or a step that makes no
            sense now, saying what to click instead).
    """
    if isinstance(table_id, bool) or not isinstance(table_id, int) or not (clicked.move or clicked.ui):
        raise Refusal("A click names its table and its move or step.")
    rows = (_LOCKED_SEATS if clicked.move else _READ_SEATS).rows(conn, table=table_id)
    row = next((r for r in rows if r.student_id == student_id), None)
    if row is None:
        raise Refusal("You have no seat at that table.")
    seat, back = int(row.seat), bool(row.bot) and not row.held  # back: his seat is his again (hello normally does this)
    bots = {int(r.seat) for r in rows if r.bot} - ({seat} if back else set())
    closed = closed_because(row.status, row.paused_at, bool(row.held))
    with (cache.changing if clicked.move else cache.game)(conn, table_id, int(row.ply)) as game:
        answer = game.judge(seat, clicked, bots, selection=selection or Selection(), closed=closed)
        if not answer:
            raise Refusal(answer.text)
        if answer.action is None:  # a step of a choice: the page keeps it, nothing is stored
            return answer, game.ply, []
        if back:
            _BACK.run(conn, table=table_id, at_seat=seat)
        _store(conn, table_id, game, game.move(seat, answer.action, bots), now)
        return answer, game.ply, [{"k": "table", "table": table_id}]


def return_seats(conn: Connection, cache: TableCache, student_id: int, now: float) -> list[dict[str, Any]]:
    """Give a returning student back his seats that bots played while he was away, at open tables."""
    rows = conn.execute(
        select(seats.c.table_id, seats.c.seat)
        .select_from(seats.join(tables, tables.c.id == seats.c.table_id).join(rounds, rounds.c.id == tables.c.round_id))
        .where(seats.c.student_id == student_id, seats.c.bot, seats.c.held.is_(False), rounds.c.status == "open")
    ).all()
    for r in rows:
        conn.execute(update(seats).where(seats.c.table_id == r.table_id, seats.c.seat == r.seat).values(bot=False))
    return [{"k": "table", "table": int(r.table_id)} for r in rows]


_WAITED_FOR = Hot(  # every student whose turn it is at a running table; every sweep reads it
    select(tables.c.id, tables.c.to_move, seats.c.student_id, students.c.last_seen, rounds.c.spec)
    .select_from(
        tables.join(rounds, rounds.c.id == tables.c.round_id)
        .join(seats, and_(seats.c.table_id == tables.c.id, seats.c.seat == tables.c.to_move))
        .join(students, students.c.id == seats.c.student_id)
    )
    .where(
        rounds.c.status == "open",
        rounds.c.paused_at.is_(None),
        tables.c.to_move >= 0,
        seats.c.bot.is_(False),
    )
)


def take_over_absent(
    conn: Connection, cache: TableCache, now: float, here: Collection[int] = (), beat: float = 0.0
) -> list[dict[str, Any]]:
    """Let bots play the seats of students who are away (disconnected longer than the round allows) on their turn.

    A student is away when his ``last_seen`` is older than the round's ``absent_after`` and than
    `beat` (the seconds between two refreshes of ``last_seen``), and no page of his is among `here`
    (connected to the calling process). A page that is gone without a word is closed by the
    server's pings, so it does not keep its student here for good.
    """
    candidates = _WAITED_FOR.rows(conn)
    events = []
    waits: dict[str, float] = {}  # each round's absent_after, read once (every table of a round has a candidate)
    for c in candidates:
        if c.spec not in waits:
            waits[c.spec] = max(beat, read_spec(c.spec).absent_after)
        if c.last_seen >= now - waits[c.spec] or c.student_id in here:
            continue
        locked = conn.execute(select(tables.c.to_move).where(tables.c.id == c.id).with_for_update()).scalar_one()
        if locked != c.to_move:
            continue
        conn.execute(update(seats).where(seats.c.table_id == c.id, seats.c.seat == c.to_move).values(bot=True))
        with cache.changing(conn, int(c.id)) as game:
            _store(conn, int(c.id), game, game.run_automatic(_bots(conn, int(c.id))), now)
        events.append({"k": "table", "table": int(c.id)})
    return events


def _open_seats(conn: Connection, student_id: int) -> Sequence[Any]:
    """Return the student's seats (table, seat, bot, held) at tables of open rounds."""
    return conn.execute(
        select(seats.c.table_id, seats.c.seat, seats.c.bot, seats.c.held)
        .select_from(seats.join(tables, tables.c.id == seats.c.table_id).join(rounds, rounds.c.id == tables.c.round_id))
        .where(seats.c.student_id == student_id, rounds.c.status == "open")
    ).all()


def hand_to_bot(conn: Connection, cache: TableCache, student_id: int, now: float) -> list[dict[str, Any]]:
    """Let bots play the student's seats at open tables until the teacher gives them back (`give_back`).

    A bot whose turn it is plays at once (unless the round is paused).
    """
    events = []
    for r in _open_seats(conn, student_id):
        conn.execute(
            update(seats).where(seats.c.table_id == r.table_id, seats.c.seat == r.seat).values(bot=True, held=True)
        )
        paused = conn.execute(
            select(rounds.c.paused_at)
            .select_from(tables.join(rounds, rounds.c.id == tables.c.round_id))
            .where(tables.c.id == r.table_id)
            .with_for_update(of=tables)
        ).scalar()
        if paused is None:
            with cache.changing(conn, int(r.table_id)) as game:
                _store(conn, int(r.table_id), game, game.run_automatic(_bots(conn, int(r.table_id))), now)
        events.append({"k": "table", "table": int(r.table_id)})
    return events


def give_back(conn: Connection, student_id: int) -> list[dict[str, Any]]:
    """Give the student back his seats that the teacher handed to bots (he plays them from his next turn)."""
    events = []
    for r in _open_seats(conn, student_id):
        if r.held:
            mine = (seats.c.table_id == r.table_id) & (seats.c.seat == r.seat)
            conn.execute(update(seats).where(mine).values(bot=False, held=False))
            events.append({"k": "table", "table": int(r.table_id)})
    return events
