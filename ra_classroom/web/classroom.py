"""One server process's classroom: the database, the pages, and every command run as one transaction.

Commands run in worker threads: on PostgreSQL one transaction each, in several threads; on SQLite,
whose writes are serial anyway, in one writer thread that commits the commands waiting together
at once (`ra_classroom.store.writer`). A command's events go to this process's pages after the
commit, and to other processes through the database (`ra_classroom.store.bus`: NOTIFY on
PostgreSQL, the event log of a SQLite file several processes share). Nothing another process
needs is kept only in memory: the table games cached here are rebuilt from the database.

Every half second the process also closes rounds whose time is up, lets bots play the turns of
absent students, and marks its connected students present.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy import Connection
from sqlalchemy import select as query

from ..auctions.experiments import RoundSpec
from ..game.table import Selection, read_click
from ..store import rooms, roster, rounds, table_moves
from ..store.bus import EventLog, Listener, forget_old_events
from ..store.database import Database
from ..store.pages import build_views, table_view
from ..store.refusal import Refusal
from ..store.schema import rounds as rounds_table
from ..store.schema import tables as table_rows
from ..store.table_moves import TableCache, seat_names, staged
from ..store.writer import Writer
from .hub import Hub
from .limits import JOINS_PER_MINUTE, JoinLimit

__all__ = ["Classroom"]

log = logging.getLogger("ra_classroom")
T = TypeVar("T")
SWEEP_SECONDS = 0.5
HEAR_SECONDS = 0.02  # how often a process sharing a SQLite file reads what the others announced
HEARTBEAT_SECONDS = 3.0


class Classroom:
    """The classroom as one server process runs it.

    Args:
        database: a SQLAlchemy URL or a SQLite file name.
        joins_per_minute: students who may join from one network address at once, and each minute.
        shared: other server processes serve the same SQLite file (PostgreSQL: always possible).
    """

    def __init__(self, database: str, joins_per_minute: int = JOINS_PER_MINUTE, shared: bool = False) -> None:
        self.db = Database(database, shared)
        self.cache = TableCache()
        self.origin = secrets.token_hex(6)
        # SQLite: one writer, committing the commands that wait together at once (its writes are serial
        # anyway), and one reader, which reads the last commit while the writer waits on the disk;
        # PostgreSQL: one pool for both, a transaction per command.
        self.writer = None if self.db.is_postgres else Writer(self.db, self.cache)
        self.pool = ThreadPoolExecutor(6 if self.db.is_postgres else 1, thread_name_prefix="ra-classroom-db")
        self.readers = (
            self.pool if self.db.is_postgres else ThreadPoolExecutor(1, thread_name_prefix="ra-classroom-read")
        )
        self.hub = Hub(self.views)
        self.joins = JoinLimit(joins_per_minute)  # joins per network address
        self._tasks: list[asyncio.Task[None]] = []
        self._listener: Listener | None = None

    # -- running ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the loops: views, sweeping, and (PostgreSQL) listening to the other processes."""
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self.hub.run()), loop.create_task(self._sweep())]
        if self.db.is_postgres:
            self._listener = Listener(self.db.listen_dsn(), self.origin, loop, self.hub.dispatch)
            self._listener.start()
            await loop.run_in_executor(None, self._listener.ready.wait, 10)
        elif self.db.shared:
            others = EventLog(self.origin)
            await self.read(others.read)  # from now on
            self._tasks.append(loop.create_task(self._hear(others)))

    async def stop(self) -> None:
        """Stop the loops and close the database."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._listener is not None:
            self._listener.stop()
        if self.writer is not None:
            self.writer.stop()
        self.pool.shutdown(wait=True)
        self.readers.shutdown(wait=True)
        self.db.close()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn(*args)` in a database thread that may write."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    async def command(self, fn: Callable[[Connection], tuple[T, list[dict[str, Any]]]]) -> T:
        """Run `fn(conn)` in one transaction; send its events once committed; return its result.

        `fn` returns (result, events). A `Refusal` it raises rolls everything back and propagates.
        The table games it changed enter the cache only once the transaction has committed. On
        SQLite the writer runs it with the other commands waiting (group commit).
        """
        if self.writer is not None:

            def announced(conn: Connection) -> tuple[T, list[dict[str, Any]]]:
                result, events = fn(conn)
                self.db.announce(conn, events, self.origin)  # shared SQLite: into the event log, in its savepoint
                return result, events

            done: tuple[T, list[dict[str, Any]]] = await asyncio.wrap_future(self.writer.submit(announced))
            self.hub.dispatch(done[1])
            return done[0]

        def work() -> tuple[T, list[dict[str, Any]]]:
            with self.db.engine.connect() as conn:
                try:
                    with conn.begin():
                        result, events = fn(conn)
                        self.db.announce(conn, events, self.origin)
                except BaseException:
                    staged(conn)  # rolled back: its games are dropped
                    raise
                self.cache.installed(staged(conn))
            return result, events

        result, events = await self.run(work)
        self.hub.dispatch(events)
        return result

    async def read(self, fn: Callable[[Connection], T]) -> T:
        """Run `fn(conn)` in a transaction that reads the last commit and changes nothing; return its result."""

        def work() -> T:
            with self.db.reading() as conn:
                return fn(conn)

        return await asyncio.get_running_loop().run_in_executor(self.readers, work)

    async def views(self, ids: Collection[int]) -> dict[int, dict[str, Any]]:
        """Return the pages of these students, from the database."""
        return await self.read(lambda conn: build_views(conn, self.cache, ids, time.time()))

    async def _hear(self, others: EventLog) -> None:
        """Hand the events other processes wrote into the SQLite event log to this process's pages."""
        while True:
            await asyncio.sleep(HEAR_SECONDS)
            try:
                self.hub.dispatch(await self.read(others.read))
            except Exception:
                log.exception("could not read the event log; trying again")

    async def _sweep(self) -> None:
        last_beat = 0.0
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            now = time.time()
            try:
                beat = now - last_beat >= HEARTBEAT_SECONDS
                connected = frozenset(self.hub.pages)
                here = sorted(connected) if beat else []
                await self.command(functools.partial(self._sweep_once, now=now, here=here, connected=connected))
                if beat:
                    last_beat = now
            except Exception:
                log.exception("sweep failed; trying again")

    def _sweep_once(
        self, conn: Connection, *, now: float, here: list[int], connected: frozenset[int]
    ) -> tuple[None, list[dict[str, Any]]]:
        rooms.heartbeat(conn, here, now)
        if here and self.db.shared:  # every few seconds
            forget_old_events(conn, now)
        absent = table_moves.take_over_absent(conn, self.cache, now, connected, 2 * HEARTBEAT_SECONDS)
        return None, rounds.close_due(conn, now) + absent

    # -- the students' commands ---------------------------------------------------------------

    async def join(self, room: Any, name: Any, code: Any = None) -> rooms.Joined:
        """Seat a new student, or give one his seat back with his rejoin code (see `rooms.join`)."""

        def fn(conn: Connection) -> tuple[rooms.Joined, list[dict[str, Any]]]:
            joined = rooms.join(conn, room, name, time.time(), code)
            if not joined.moved:
                return joined, []
            why = "Your seat is now open on another device (you typed your rejoin code there)."
            return joined, [{"k": "leave", "student": joined.student, "why": why}, {"k": "room", "room": joined.room}]

        return await self.command(fn)

    async def ask(self, room: Any, name: Any) -> tuple[str, str, str]:
        """Ask the teacher for a student's seat from a new device; return the device's token, the room, the name."""

        def fn(conn: Connection) -> tuple[tuple[str, str, str], list[dict[str, Any]]]:
            asked = roster.ask(conn, room, name, time.time())
            return asked, [{"k": "room", "room": asked[1]}]

        return await self.command(fn)

    async def hello(self, token: Any) -> tuple[int, str, str, str | None]:
        """Find a seat token's student; give him back the seats bots played meanwhile, and a rejoin code if none.

        Raises:
            Pending: the token is a device's that asked for a seat, and the teacher has not let it in yet.
        """

        def fn(conn: Connection) -> tuple[tuple[int, str, str, str | None], list[dict[str, Any]]]:
            now = time.time()
            try:
                sid, room, name = rooms.hello(conn, token, now)
            except Refusal:
                roster.pending(conn, token)
                raise
            return (sid, room, name, roster.new_rejoin(conn, sid)), table_moves.return_seats(conn, self.cache, sid, now)

        return await self.command(fn)

    async def bid(self, student: int, round_id: Any, amount: Any) -> int:
        """Store a sealed bid; return how many of the student's group have bid."""
        return await self.command(lambda conn: rounds.place_bid(conn, student, round_id, amount, time.time()))

    async def move(self, student: int, table: Any, action: Any, version: Any) -> int:
        """Make a move at a Ra table; return the table's new ply.

        The move is read here, once (`read_click`: its text parsed into an action), and judged at
        the table (`table_moves.move`).
        """
        click = read_click({"action": action, "version": version}, versioned=version is not None)
        return await self.command(lambda conn: table_moves.move(conn, self.cache, student, table, click, time.time()))

    async def ui_step(self, student: int, table: int, version: Any, ui: str, sel: Selection) -> dict[str, Any]:
        """Return a student's table view after a step of a choice in progress (nothing is stored).

        The step is judged at the table (`TableGame.judge`): the board's version, whose turn it
        is, and whether the step makes sense now.

        Raises:
            Refusal: the round closed, or the judge's refusal (a board that moved on since, not
                his turn, a step that makes no sense now, saying where to click instead).
        """

        def fn(conn: Connection) -> dict[str, Any]:
            seating = seat_names(conn, table)
            seat = seating.seat_of.get(student, -1)
            status = conn.execute(
                query(rounds_table.c.status)
                .select_from(table_rows.join(rounds_table, rounds_table.c.id == table_rows.c.round_id))
                .where(table_rows.c.id == table)
            ).scalar()
            if status != "open":
                raise Refusal("The round is closed: the game has stopped.")
            with self.cache.game(conn, table) as game:
                answer = game.judge(seat, read_click({"ui": ui, "version": version}), seating.bots, selection=sel)
            if not answer:
                raise Refusal(answer.text)
            return table_view(conn, self.cache, table, student, answer.selection, live=True)

        return await self.read(fn)

    # -- the teacher's commands --------------------------------------------------------------

    async def create_room(self, code: str | None = None, seed: str | None = None, size: Any = None) -> str:
        """Create a room (of at most `size` students); return its code."""
        return await self.command(lambda conn: (rooms.create_room(conn, time.time(), code, seed, size), []))

    async def set_size(self, room: str, size: Any) -> dict[str, Any]:
        """Let at most `size` students join `room`; return its size and how many are in."""
        return await self.command(lambda conn: (rooms.set_size(conn, room, size), []))

    async def control(self, fn: Callable[[Connection, float], tuple[T, list[dict[str, Any]]]]) -> T:
        """Run one of the teacher's controls, `fn(conn, now)`, in one transaction (see `command`)."""
        return await self.command(lambda conn: fn(conn, time.time()))

    async def open_round(self, room: str, spec: RoundSpec) -> dict[str, Any]:
        """Open the next round of `room`."""

        def fn(conn: Connection) -> tuple[dict[str, Any], list[dict[str, Any]]]:
            info = rounds.open_round(conn, room, spec, self.cache, time.time())
            return info, [{"k": "room", "room": room}]

        return await self.command(fn)

    async def close_round(self, room: str, round_id: int | None = None) -> dict[str, Any]:
        """Close the open round of `room` and settle it."""

        def fn(conn: Connection) -> tuple[dict[str, Any], list[dict[str, Any]]]:
            info = rounds.close_round(conn, room, round_id, time.time())
            return {"round": info["round"]}, info["events"]

        return await self.command(fn)
