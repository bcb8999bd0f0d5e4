"""No table freezes: pages that reconnect in bursts while their tables play fast all end on the stored board.

A page that reconnects while a table-mate moves must not miss that move: if it did, its board
would stay one move behind, and when that move made it his turn nobody at the table would be
told. Forty-eight simulated students play Ra at twelve tables with no time to think, while a
random quarter of them lose their connection every tenth of a second and come back with their
seat tokens: on SQLite served by one process, and by two on one port (the system hands each new
connection to either); on PostgreSQL spread over two servers, changing server at every
reconnection. Then everyone stops, and every page must show exactly the board the database
holds: the same move, and "your turn" on the page of whoever decides now.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select

from ra_classroom.store.database import database_url
from ra_classroom.store.schema import seats, tables
from ra_classroom.teacher.client import TeacherClient
from ra_classroom.teacher.simulate import Behaviour, SimulatedClass
from ra_classroom.web.server import ServerProcess

from .conftest import SECRET, database_for
from .pages import Page, SilentPage, ply_at_least

STUDENTS = 48  # twelve full tables of four: no bot seats
BURSTS = 60  # reconnect bursts, one every BURST_EVERY seconds
BURST_EVERY = 0.1


@dataclass
class Servers:
    """The database and the server processes on it (one on SQLite, two sharing PostgreSQL)."""

    database: str
    processes: list[ServerProcess]


@pytest.fixture(scope="module", params=["sqlite", "sqlite, two processes on one port", "postgresql, two servers"])
def servers(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    backend = request.param.split(",")[0]
    folder = tmp_path_factory.mktemp(f"frozen-{backend}")
    database = database_for(backend, request, folder)
    if backend == "postgresql":  # two servers on two ports, as on two machines
        procs = [ServerProcess(database, SECRET, log=folder / f"server{k}.log").start() for k in range(2)]
    else:  # the system spreads each new connection over the processes
        procs = [ServerProcess(database, SECRET, log=folder / "server.log", processes=1 + ("two" in request.param))]
        procs[0].start()
    yield Servers(database, procs)
    for p in procs:
        p.stop()


def stored_tables(database: str, round_id: int) -> dict[int, tuple[int, int, dict[int, int]]]:
    """Return each table of the round as the database holds it: its ply, who decides (-1: over), each student's seat."""
    engine = create_engine(database_url(database))
    with engine.connect() as conn:
        rows = conn.execute(select(tables.c.id, tables.c.ply, tables.c.to_move).where(tables.c.round_id == round_id))
        found: dict[int, tuple[int, int, dict[int, int]]] = {int(r.id): (int(r.ply), int(r.to_move), {}) for r in rows}
        for s in conn.execute(select(seats.c.table_id, seats.c.seat, seats.c.student_id)):
            if int(s.table_id) in found and s.student_id is not None:
                found[int(s.table_id)][2][int(s.student_id)] = int(s.seat)
    engine.dispose()
    return found


async def play_with_bursts(sim: SimulatedClass, seed: str) -> None:
    """Let the class play while a random half of it reconnects, burst after burst; then stop and settle."""
    stop = asyncio.Event()
    runner = asyncio.ensure_future(sim.run(stop))
    while not all(s.view and s.view.get("screen") == "ra" for s in sim.students):
        await asyncio.sleep(0.05)
    rng = random.Random(seed)
    for _ in range(BURSTS):
        for s in rng.sample(sim.students, len(sim.students) // 4):
            s.drop()
        await asyncio.sleep(BURST_EVERY)
    for s in sim.students:
        s.quiet = True
    await asyncio.sleep(1.0)  # actions already on their way arrive; then nothing new is sent
    settled = sum(len(s.done) for s in sim.students), sum(s.connections for s in sim.students)
    for _ in range(60):  # until every page is back and the last views have arrived
        await asyncio.sleep(0.5)
        now = sum(len(s.done) for s in sim.students), sum(s.connections for s in sim.students)
        if now == settled and all(s._ws is not None and s.view for s in sim.students):
            break
        settled = now
    await asyncio.sleep(1.0)
    stop.set()
    await runner


def test_pages_reconnecting_during_fast_play_end_on_the_stored_board(
    servers: Servers, request: pytest.FixtureRequest
) -> None:
    teacher = TeacherClient(servers.processes[0].url, SECRET)
    room = teacher.create_room(seed=request.node.name[-64:])
    sim = SimulatedClass(
        [p.url for p in servers.processes], room, STUDENTS, seed=room, behaviour=Behaviour(think=(0.0, 0.03))
    )

    async def session() -> int:
        task = asyncio.ensure_future(play_with_bursts(sim, room))
        while not all(s.joined.is_set() for s in sim.students):
            await asyncio.sleep(0.05)
        opened = await asyncio.get_running_loop().run_in_executor(
            None, teacher.open_round, room, {"kind": "ra", "group_size": 4}
        )
        await task
        return int(opened["round"])

    round_id = asyncio.run(session())
    stored = stored_tables(servers.database, round_id)
    assert len(stored) == STUDENTS // 4
    assert sum(ply for ply, _, _ in stored.values()) > 40  # the tables really played during the bursts
    assert sum(s.connections for s in sim.students) > STUDENTS + BURSTS * 4  # and the pages really reconnected
    behind = []
    for s in sim.students:
        assert s.view is not None and s.student is not None
        t = s.view["table"]
        ply, to_move, seat_of = stored[t["id"]]
        deciding = to_move >= 0 and seat_of[s.student] == to_move
        if t["ply"] != ply or t["yours"] != deciding:
            behind.append(f"{s.name}: page at ply {t['ply']} (yours: {t['yours']}), stored {ply} (decides: {deciding})")
    assert not behind, behind


def test_a_student_whose_page_is_gone_without_a_word_is_played_by_a_bot(tmp_path: Path) -> None:
    server = ServerProcess(str(tmp_path / "class.db"), SECRET, log=tmp_path / "server.log", options=["--ping", "1"])
    server.start()
    try:
        teacher = TeacherClient(server.url, SECRET)
        room = teacher.create_room(seed="gone-without-a-word")
        pages = [Page(server.url) for _ in range(3)]
        for i, p in enumerate(pages):
            p.join(room, f"P{i}")
        teacher.open_round(room, {"kind": "ra", "group_size": 3, "absent_after": 1})
        views = [p.view(ply_at_least(0)) for p in pages]
        gone = next(i for i, v in enumerate(views) if v["table"]["yours"])
        seat, ply = views[gone]["table"]["seat"], views[gone]["table"]["ply"]
        silent = SilentPage(server.url, str(pages[gone].token))  # his phone: connected, then off the network
        pages[gone].close()
        watcher = pages[(gone + 1) % 3]
        moved = watcher.view(lambda v: v["table"]["ply"] > ply, timeout=30)  # not stuck on a page that is gone
        assert moved["table"]["names"][seat] == f"P{gone}, a bot plays for now"
        silent.close()
    finally:
        server.stop()
