"""One server process's classroom: the database, the pages, and the commands run, each as one transaction.

The commands themselves, every check and every refusal, are `ra_classroom.store.commands`; this
module runs them and hands their events to the pages.

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
import math
import secrets
import time
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Connection

from ..store import commands
from ..store.bus import EventLog, Listener
from ..store.database import Database
from ..store.pages import build_views
from ..store.table_moves import TableCache
from ..store.writer import Writer, announced, one_transaction
from .hub import Hub
from .limits import JOINS_PER_MINUTE, JoinLimit

if TYPE_CHECKING:
    from ..game.table import Selection
    from ..kinds.spec import RoundSpec
    from ..store.rooms import Asked, Device, Joined

__all__ = ["Classroom"]

log = logging.getLogger("ra_classroom")
T = TypeVar("T")
SWEEP_SECONDS = 0.5
HEAR_SECONDS = 0.02  # how often a process sharing a SQLite file reads what the others announced
HEARTBEAT_SECONDS = 3.0
BALANCE_SECONDS = 2.0  # how often processes sharing one port compare how many pages each holds
QUIET_SECONDS = 3.0  # a page silent this long may be moved to another process (`Hub.shed`)
CLOCK_POLL = 0.25  # how often the running clocks are read (a clock opened or resumed elsewhere is found)


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
        self.hub = Hub(self.views, self.ticks)
        self._due: dict[int, float] = {}  # each running clock's next tick (`_clocks`)
        self._clock_wake = asyncio.Event()
        self.joins = JoinLimit(joins_per_minute)  # joins per network address
        self._tasks: list[asyncio.Task[None]] = []
        self._listener: Listener | None = None

    # -- running ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the loops: views, sweeping, and (PostgreSQL) listening to the other processes."""
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self.hub.run()),
            loop.create_task(self._sweep()),
            loop.create_task(self._clocks()),
        ]
        if self.db.is_postgres:
            self._listener = Listener(self.db.listen_dsn(), self.origin, loop, self.hub.dispatch)
            self._listener.start()
            await loop.run_in_executor(None, self._listener.ready.wait, 10)
        elif self.db.shared:
            others = EventLog(self.origin)
            await self.glance(others.read)  # from now on
            self._tasks.append(loop.create_task(self._hear(others)))
        if self.db.shared:
            self._tasks.append(loop.create_task(self._balance()))

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

    async def command(
        self, fn: Callable[[Connection], tuple[T, list[dict[str, Any]]]], sent: Callable[[T], None] | None = None
    ) -> T:
        """Run `fn(conn)` in one transaction; send its events once committed; return its result.

        `fn` returns (result, events). A `Refusal` it raises rolls everything back and propagates.
        The table games it changed enter the cache only once the transaction has committed. On
        SQLite the writer runs it with the other commands waiting (group commit).
        """
        if self.writer is not None:
            done: tuple[T, list[dict[str, Any]]] = await asyncio.wrap_future(
                self.writer.submit(announced(fn, self.db, self.origin))
            )
            result, events = done
        else:
            result, events = await self.run(one_transaction, self.db, self.cache, fn, self.origin)
        if sent is not None:  # what the command itself hands to the pages, before its events are dispatched
            sent(result)
        self.hub.dispatch(events)
        return result

    async def read(self, fn: Callable[[Connection], T]) -> T:
        """Run `fn(conn)` in a transaction that reads the last commit and changes nothing; return its result."""

        def work() -> T:
            with self.db.reading() as conn:
                return fn(conn)

        return await asyncio.get_running_loop().run_in_executor(self.readers, work)

    async def glance(self, fn: Callable[[Connection], T]) -> T:
        """Run `fn(conn)`, one statement of reading that sees the last commit by itself (`Database.glancing`)."""

        def work() -> T:
            with self.db.glancing() as conn:
                return fn(conn)

        return await asyncio.get_running_loop().run_in_executor(self.readers, work)

    async def views(self, ids: Collection[int]) -> dict[int, dict[str, Any]]:
        """Return the pages of these students, from the database."""
        return await self.read(lambda conn: build_views(conn, self.cache, ids, time.time()))

    async def ticks(self, round_id: int) -> tuple[int, dict[int, dict[str, Any]]]:
        """Return round `round_id`'s clock's last tick and each group's message for it, from the database."""
        return await self.read(lambda conn: commands.clock_ticks(conn, round_id))

    async def _clocks(self) -> None:
        """Advance the running clocks, each at its own pace: a tick is stored (`commands.tick`), then sent.

        The next tick of each clock is known from the last one stored; a clock opened, resumed or
        ticked by another process is found by reading the running clocks every `CLOCK_POLL` seconds.
        """
        polled = 0.0
        while True:
            now = time.time()
            nxt = min(self._due.values(), default=math.inf)
            if nxt > now:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._clock_wake.wait(), min(CLOCK_POLL, nxt - now))
                self._clock_wake.clear()
                now = time.time()
                if now - polled >= CLOCK_POLL or not self._due:
                    with contextlib.suppress(Exception):
                        self._due = dict(await self.read(commands.running_clocks))
                        polled = now
                if min(self._due.values(), default=math.inf) > time.time():
                    continue
            try:
                connected = frozenset(self.hub.pages)
                ticked = await self.command(
                    functools.partial(self._tick_once, connected=connected),
                    sent=lambda done: self.hub.post_ticks(done.messages),
                )
                self._due = dict(ticked.due)
            except Exception:
                log.exception("a clock's tick failed; trying again")
                await asyncio.sleep(CLOCK_POLL)

    def _tick_once(
        self, conn: Connection, *, connected: frozenset[int]
    ) -> tuple[commands.Ticked, list[dict[str, Any]]]:
        return commands.tick(conn, time.time(), connected)

    async def _hear(self, others: EventLog) -> None:
        """Hand the events other processes wrote into the SQLite event log to this process's pages."""
        while True:
            await asyncio.sleep(HEAR_SECONDS)
            try:
                self.hub.dispatch(await self.glance(others.read))
            except Exception:
                log.exception("could not read the event log; trying again")

    async def _balance(self) -> None:
        """Even out the pages over the processes sharing the port (`ra_classroom.store.processes`).

        Every process says how many pages it holds every `BALANCE_SECONDS`. After closing pages,
        one waits two turns before judging again: for them to have reconnected, and for every
        process to have said so.
        """
        wait = 0
        while True:
            await asyncio.sleep(BALANCE_SECONDS)
            try:
                mine, now = self.hub.count(), time.time()
                over = await self.command(
                    functools.partial(commands.report_pages, origin=self.origin, pages=mine, now=now)
                )
                wait = max(wait - 1, 0)
                if not wait and self.hub.shed(over, QUIET_SECONDS):
                    wait = 2
            except Exception:
                log.exception("could not compare the processes' pages; trying again")

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
        beat = 2 * HEARTBEAT_SECONDS
        return commands.sweep(conn, self.cache, now, here=here, connected=connected, beat=beat, shared=self.db.shared)

    # -- the students' commands (`ra_classroom.store.commands`) ---------------------------------

    async def join(self, room: Any, name: Any, code: Any = None, device: Device | None = None) -> Joined | Asked:
        """Seat a new student, or give one his seat back with his rejoin code (`commands.join`)."""
        joined = await self.command(lambda conn: commands.join(conn, room, name, code, time.time(), device))
        if isinstance(joined, Exception):  # a wrong rejoin code (a Refusal): counted against the name, and refused
            raise joined
        return joined

    async def ask(self, room: Any, name: Any, device: Device | None = None) -> Asked:
        """Ask the teacher for a student's seat from a new device; return what the device waits with."""
        return await self.command(lambda conn: commands.ask(conn, room, name, time.time(), device))

    async def answer(self, student: int, request: Any, yes: Any) -> bool:
        """The seat's own page says whether a device that typed its rejoin code may take it."""
        return await self.command(lambda conn: commands.answer(conn, student, request, yes, time.time()))

    async def away(self, student: int) -> None:
        """Mark that `student`'s last page in this process closed (`rooms.away`); a failure is only logged."""
        try:
            await self.command(lambda conn: commands.away(conn, student, time.time()))
        except Exception:
            log.exception("could not mark student %s away", student)

    async def hello(self, token: Any) -> tuple[int, str, str, str | None]:
        """Find a seat token's student (raises `Pending` for a device not let in yet); see `commands.hello`."""
        return await self.command(lambda conn: commands.hello(conn, self.cache, token, time.time()))

    async def bid(self, student: int, round_id: Any, amount: Any) -> int:
        """Store a sealed bid; return how many of the student's group have bid."""
        return await self.command(lambda conn: commands.bid(conn, student, round_id, amount, time.time()))

    async def act(self, student: int, round_id: Any, data: Any) -> int:
        """Store an action of the round's kind's own; return how many of the student's group have acted."""
        return await self.command(lambda conn: commands.act(conn, student, round_id, data, time.time()))

    async def press(self, student: int, round_id: Any, tick: Any) -> dict[str, Any]:
        """Store a press on a clock at the tick his page showed; return its tick, price and the count still in."""
        done: dict[str, Any] = await self.command(
            lambda conn: commands.press(conn, student, round_id, tick, time.time())
        )
        return done

    async def move(self, student: int, table: Any, action: Any, version: Any) -> int:
        """Make a move at a Ra table (judged by `table_moves.click`, the one way in); return the table's new ply."""
        return await self.command(
            lambda conn: commands.move(conn, self.cache, student, table, action, version, time.time())
        )

    async def ui_step(self, student: int, table: int, version: Any, ui: str, sel: Selection) -> dict[str, Any]:
        """Return a student's table after a step of a choice (judged by `table_moves.click`; nothing is stored)."""
        return await self.read(
            lambda conn: commands.step(conn, self.cache, student, table, version, ui, sel, time.time())
        )

    # -- the teacher's commands --------------------------------------------------------------

    async def create_room(self, code: str | None = None, seed: str | None = None, size: Any = None) -> str:
        """Create a room (of at most `size` students); return its code."""
        return await self.command(lambda conn: commands.create_room(conn, code, seed, size, time.time()))

    async def set_size(self, room: str, size: Any) -> dict[str, Any]:
        """Let at most `size` students join `room`; return its size and how many are in."""
        return await self.command(lambda conn: commands.set_size(conn, room, size))

    async def control(self, fn: Callable[[Connection, float], tuple[T, list[dict[str, Any]]]]) -> T:
        """Run one of the teacher's controls, `fn(conn, now)`, in one transaction (see `command`)."""
        return await self.command(lambda conn: fn(conn, time.time()))

    async def open_round(self, room: str, spec: RoundSpec) -> dict[str, Any]:
        """Open the next round of `room`."""
        info: dict[str, Any] = await self.command(
            lambda conn: commands.open_round(conn, self.cache, room, spec, time.time())
        )
        self._clock_wake.set()  # a clock round's first tick is due a tick from now
        return info

    async def close_round(self, room: str, round_id: int | None = None) -> dict[str, Any]:
        """Close the open round of `room` and settle it."""
        info: dict[str, Any] = await self.command(lambda conn: commands.close_round(conn, room, round_id, time.time()))
        return info

    async def on_student(self, room: str, action: str, who: Any, to: Any, request: Any = None) -> dict[str, Any]:
        """Do one of the teacher's actions on a student (`commands.on_student`)."""
        return await self.command(
            lambda conn: commands.on_student(conn, self.cache, room, action, who, to, time.time(), request)
        )
