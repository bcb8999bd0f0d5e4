"""After a worker of ``--processes 2`` dies, the class spreads over both processes again.

The system hands each new connection on the shared port to one process at random. When one
dies, its students' pages reconnect to the survivor at once, and the process started in its
place begins with none: the survivor would carry the whole class for the rest of the session.
Each process says how many pages it holds; one holding more than its share closes some quiet
pages (code 1012), which reconnect at once, and the system spreads them again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import select
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from ra_classroom.store.database import Database
from ra_classroom.store.processes import report, surplus
from ra_classroom.store.schema import processes
from ra_classroom.teacher.client import TeacherClient
from ra_classroom.web.server import ServerProcess

from .conftest import BACKENDS, SECRET, database_for

STUDENTS = 30


def test_a_process_sheds_only_its_surplus() -> None:
    assert surplus("a", {"a": 30, "b": 0}) == 15
    assert surplus("a", {"a": 16, "b": 14}) == 0  # within the slack: no page moved for so little
    assert surplus("b", {"a": 30, "b": 0}) == 0  # the one below its share closes nothing
    assert surplus("a", {"a": 30}) == 0  # alone: nowhere to go
    assert surplus("a", {"a": 60, "b": 0, "c": 0}) == 40


@pytest.mark.parametrize("backend", BACKENDS)
def test_processes_say_their_pages_on_every_database(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    db = Database(database_for(backend, request, tmp_path), shared=True)
    try:
        with db.transaction() as conn:
            report(conn, "dead", 12, now=100.0)
            report(conn, "a", 20, now=103.0)
        with db.transaction() as conn:
            assert report(conn, "a", 21, now=104.0) == {"dead": 12, "a": 21}  # said again: one row, updated
            assert report(conn, "b", 0, now=107.0) == {"a": 21, "b": 0}  # "dead" silent for 7 s: not counted
        with db.transaction() as conn:
            assert report(conn, "b", 3, now=200.0) == {"b": 3}
            assert conn.execute(select(processes.c.origin)).scalars().all() == ["b"]  # a minute gone: forgotten
    finally:
        db.close()


def _workers(supervisor: int) -> list[int]:
    """Return the server processes the supervisor `supervisor` runs."""
    children = Path(f"/proc/{supervisor}/task/{supervisor}/children").read_text().split()
    return [int(pid) for pid in children]


def _pages(database: Path) -> dict[str, int]:
    """Return the pages each process alive says it holds (as the processes themselves read it)."""
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)) as conn:
        rows = conn.execute("SELECT origin, pages FROM processes WHERE seen_at >= ?", (time.time() - 5,))
        return dict(rows.fetchall())


async def _student(url: str, room: str, name: str, moved: list[int], stop: asyncio.Event) -> None:
    """A student's page: join, then stay; reconnect with the seat token whenever the connection closes."""
    token = None
    while not stop.is_set():
        try:
            async with connect(url) as ws:
                first = {"t": "hello", "token": token} if token else {"t": "join", "room": room, "name": name}
                await ws.send(json.dumps({**first, "id": 1}))
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg.get("t") == "welcome":
                        token = msg.get("token", token)  # a hello's welcome does not repeat it
                    elif msg.get("t") == "refused":
                        raise AssertionError(f"{name} refused: {msg['why']}")
        except ConnectionClosed as closed:
            if closed.rcvd is not None and closed.rcvd.code == 1012:  # moved by the server
                moved.append(1)
        except (OSError, WebSocketException):
            pass
        await asyncio.sleep(0.1)


async def _class(server: ServerProcess, room: str, database: Path) -> tuple[dict[str, int], int]:
    url = server.url.replace("http://", "ws://") + "/ws"
    supervisor = server.pid
    assert supervisor is not None
    stop, moved = asyncio.Event(), list[int]()
    tasks = [asyncio.create_task(_student(url, room, f"Student {i}", moved, stop)) for i in range(STUDENTS)]
    try:
        await _until(lambda: sum(_pages(database).values()) == STUDENTS, 60)
        survivor, victim = _workers(supervisor)
        os.kill(victim, signal.SIGKILL)  # its pages reconnect to the survivor at once
        await _until(lambda: max(_pages(database).values(), default=0) == STUDENTS, 30)
        await _until(lambda: len(_workers(supervisor)) == 2 and len(_pages(database)) >= 2, 60)
        # Even again: two processes, each with at least a third of the class, and every page on one of them.
        await _until(lambda: _even(_pages(database)), 60)
        return _pages(database), len(moved)
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _even(counts: dict[str, int]) -> bool:
    return len(counts) == 2 and sum(counts.values()) == STUDENTS and min(counts.values()) >= STUDENTS // 3


async def _until(test: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s")
        await asyncio.sleep(0.2)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the supervisor's children from /proc")
def test_pages_spread_again_after_a_worker_dies(tmp_path: Path) -> None:
    database = tmp_path / "class.db"
    server = ServerProcess(str(database), SECRET, processes=2, log=tmp_path / "server.log").start()
    try:
        room = TeacherClient(server.url, SECRET).create_room(seed="rebalance")
        counts, moved = asyncio.run(_class(server, room, database))
    finally:
        server.stop()
    assert _even(counts), counts
    assert moved >= STUDENTS // 3  # pages the survivor moved, silently, to the new process
