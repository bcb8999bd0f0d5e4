"""Load on the classroom server: N simulated students over real websockets against a real server here.

    python benchmarks/classroom.py --students 200 --seconds 60 [--kill] [--database URL]

The server runs in a child process (`ra_classroom.web.server.ServerProcess`, SQLite in a temporary
folder unless --database is given); the students run in this process, each with his own
websocket, as `ra_classroom.teacher.simulate` scripts them. The session: everyone joins, one
first-price round in groups of 4 (every student bids once, after a think time of 0.3-2 s),
closed by the teacher's API once all have bid; then Ra tables of 4 (bots in empty seats) until
the time is up, each student moving 0.5-1.5 s after his turn comes. With --kill the server is
killed (SIGKILL) halfway through and started again on the same database and port; the
students reconnect with their seat tokens and go on.

Printed, one per line: ``students: N``, ``p50_ms``, ``p90_ms`` (and p99, max): from an action
sent to every affected page updated (the bidder's ack and a view with the new bid count on
every page of his group; the mover's ack and a view with the new board on every page of his
table); ``lost: K``: acknowledged actions missing from the database afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, select

from ra_classroom.store.database import database_url
from ra_classroom.store.schema import bids, moves
from ra_classroom.store.tokens import new_secret
from ra_classroom.teacher.client import TeacherClient
from ra_classroom.teacher.simulate import Behaviour, SimStudent, SimulatedClass
from ra_classroom.web.server import ServerProcess


class Meter:
    """Everything the students sent, the answers, and the time of every view, for latency and loss."""

    def __init__(self) -> None:
        self.outbox: dict[tuple[str, tuple[Any, ...]], tuple[float, dict[str, Any]]] = {}
        self.acks: list[tuple[str, tuple[Any, ...], dict[str, Any], dict[str, Any], float, float]] = []
        self.refused: list[str] = []
        self.views: dict[str, list[tuple[float, Any, Any, int, Any, int]]] = defaultdict(list)
        self.student_ids: dict[str, int] = {}

    def sent(self, who: SimStudent, key: tuple[Any, ...], msg: dict[str, Any], at: float) -> None:
        self.outbox[(who.name, key)] = (at, dict(msg))

    def answered(self, who: SimStudent, key: tuple[Any, ...], reply: dict[str, Any], at: float) -> None:
        t0, msg = self.outbox.get((who.name, key), (at, {}))
        if reply.get("t") == "ack":
            self.acks.append((who.name, key, msg, reply, t0, at))
        else:
            self.refused.append(str(reply.get("why")))

    def viewed(self, who: SimStudent, view: dict[str, Any], at: float) -> None:
        if who.student is not None:
            self.student_ids[who.name] = who.student
        r, t = view.get("round") or {}, view.get("table") or {}
        self.views[who.name].append((at, r.get("id"), r.get("group_no"), int(r.get("bids_in") or 0), t.get("id"),
                                     int(t.get("ply", -1))))  # fmt: skip

    def latencies(self) -> tuple[list[float], int]:
        """Return each acknowledged action's time to every affected page, in ms, and how many pages never got there."""
        found, unseen = self.latencies_by_kind()
        return sorted(t for times in found.values() for t in times), unseen

    def latencies_by_kind(self) -> tuple[dict[str, list[float]], int]:
        """Return the latencies (ms) of bids and of moves, and how many affected pages never got there."""
        groups: dict[tuple[Any, Any], set[str]] = defaultdict(set)
        tables: dict[Any, set[str]] = defaultdict(set)
        for name, seen in self.views.items():
            for _, rid, g, _, tid, _ in seen:
                if g is not None:
                    groups[(rid, g)].add(name)
                if tid is not None:
                    tables[tid].add(name)
        out: dict[str, list[float]] = {"bid": [], "move": []}
        unseen = 0
        for name, key, _, reply, t0, t_ack in self.acks:
            if key[0] == "bid":
                mine = next((g for _, r, g, _, _, _ in self.views[name] if r == key[1] and g is not None), None)
                members = groups[(key[1], mine)]
            else:
                members = tables[key[1]]
            ends = [t_ack]
            for m in members:
                hit = next((v[0] for v in self.views[m] if v[0] >= t0 and reached(v, key, reply)), None)
                if hit is None:
                    unseen += 1
                else:
                    ends.append(hit)
            out[key[0]].append((max(ends) - t0) * 1000)
        return out, unseen


def reached(view: tuple[float, Any, Any, int, Any, int], key: tuple[Any, ...], reply: dict[str, Any]) -> bool:
    """Return whether a page's view shows the action `key` acknowledged with `reply`."""
    if key[0] == "bid":
        return bool(view[1] == key[1] and view[3] >= reply["bids_in"])
    return bool(view[4] == key[1] and view[5] >= reply["ply"])


def lost(database: str, meter: Meter) -> int:
    """Return how many acknowledged bids and moves are not in the database."""
    engine = create_engine(database_url(database))
    missing = 0
    with engine.connect() as conn:
        stored_bids = {(r.round_id, r.student_id): r.amount for r in conn.execute(select(bids))}
        stored_moves = {(r.table_id, r.ply): r.action for r in conn.execute(select(moves))}
    engine.dispose()
    for name, key, msg, _, _, _ in meter.acks:
        if key[0] == "bid":
            if stored_bids.get((key[1], meter.student_ids[name])) != msg.get("amount"):
                missing += 1
        elif stored_moves.get((key[1], key[2])) != msg.get("action"):
            missing += 1
    return missing


async def session(args: argparse.Namespace, server: ServerProcess, teacher: TeacherClient, room: str,
                  meter: Meter) -> dict[str, Any]:  # fmt: skip
    classes = SimulatedClass(
        server.url, room, args.students, seed=1, behaviour=Behaviour(think=(0.3, 2.0)), probe=meter
    )
    stop = asyncio.Event()
    runner = asyncio.ensure_future(classes.run(stop))
    begin = time.monotonic()
    while not all(s.joined.is_set() for s in classes.students):
        await asyncio.sleep(0.05)
    joined = time.monotonic() - begin
    loop = asyncio.get_running_loop()
    start = time.monotonic()
    opened = await loop.run_in_executor(None, teacher.open_round, room, {"kind": "first", "group_size": 4})
    bid_deadline = start + max(5.0, args.seconds * 0.3)
    while classes.bids_done(opened["round"]) < args.students - len(opened["sitting_out"]):
        if time.monotonic() > bid_deadline:
            break
        await asyncio.sleep(0.1)
    await loop.run_in_executor(None, teacher.close_round, room)
    for s in classes.students:
        s.behaviour = Behaviour(think=(0.5, 1.5))
    await loop.run_in_executor(None, teacher.open_round, room, {"kind": "ra", "group_size": 4})
    kills, back = 0, float("nan")
    end = start + args.seconds
    if args.kill:
        await asyncio.sleep(max(0.0, start + args.seconds / 2 - time.monotonic()))
        before = [s.connections for s in classes.students]
        killed = time.monotonic()
        server_cpu[0] += cpu_seconds(server)
        server.kill()
        kills += 1
        await loop.run_in_executor(None, server.start)
        while any(s.connections == c for s, c in zip(classes.students, before, strict=True)):
            await asyncio.sleep(0.05)
        back = time.monotonic() - killed
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    for s in classes.students:  # no new actions; the last ones' views arrive
        s.quiet = True
    await asyncio.sleep(2.0)
    stop.set()
    await runner
    return {"joined_s": joined, "kills": kills, "back_s": back}


def cpu_seconds(server: ServerProcess) -> float:
    """Return the CPU time (user and system, seconds) the server process has used so far (Linux; else 0)."""
    try:
        assert server.proc is not None
        fields = Path(f"/proc/{server.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, AssertionError, ValueError, IndexError):
        return 0.0


server_cpu = [0.0]  # the server's CPU seconds, over every process it ran as (a kill starts a new one)


def run_async(coro: Coroutine[Any, Any, dict[str, Any]]) -> dict[str, Any]:
    """Run the students' loop on uvloop where it is installed (the harness's own cost is kept low)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--kill", action="store_true", help="kill -9 the server halfway and restart it")
    parser.add_argument("--database", help="a database URL (default: SQLite in a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ra-classroom-bench-") as tmp:
        database = args.database or str(Path(tmp) / "bench.db")
        secret = new_secret()
        server = ServerProcess(database, secret, log=Path(tmp) / "server.log").start()
        try:
            teacher = TeacherClient(server.url, secret)
            room = teacher.create_room()
            meter = Meter()
            begun = resource.getrusage(resource.RUSAGE_SELF)
            info = run_async(session(args, server, teacher, room, meter))
            ended = resource.getrusage(resource.RUSAGE_SELF)
            server_cpu[0] += cpu_seconds(server)
        finally:
            server.stop()
        harness = ended.ru_utime + ended.ru_stime - begun.ru_utime - begun.ru_stime
        times, unseen = meter.latencies()
        kinds_ms, _ = meter.latencies_by_kind()
        missing = lost(database, meter)

    def pct(p: float, xs: list[float] | None = None) -> float:
        xs = sorted(times if xs is None else xs)
        return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else float("nan")

    kinds: dict[str, int] = defaultdict(int)
    for _, key, *_ in meter.acks:
        kinds[key[0]] += 1
    print(f"students: {args.students}")
    print(f"seconds: {args.seconds:g}")
    print(f"database: {'sqlite' if not args.database else args.database.split(':')[0]}")
    print(f"joined_s: {info['joined_s']:.1f}")
    print(f"acknowledged: {len(meter.acks)} (bids {kinds['bid']}, moves {kinds['move']})")
    print(f"refused: {len(meter.refused)}")
    print(f"kills: {info['kills']}")
    if info["kills"]:
        print(f"all_back_s: {info['back_s']:.1f}  (from the kill until every student was connected again)")
    print(f"p50_ms: {pct(0.5):.1f}")
    print(f"p90_ms: {pct(0.9):.1f}")
    print(f"p99_ms: {pct(0.99):.1f}")
    print(f"max_ms: {times[-1] if times else float('nan'):.1f}")
    print(f"mean_ms: {statistics.fmean(times) if times else float('nan'):.1f}")
    for kind, xs in kinds_ms.items():
        print(
            f"{kind}s: p50_ms {pct(0.5, xs):.1f}, p90_ms {pct(0.9, xs):.1f}, max_ms {max(xs, default=float('nan')):.1f}"
        )
    print(f"server_cpu_s: {server_cpu[0]:.1f}  (the students' side, this process: {harness:.1f})")
    print(f"unseen: {unseen}")
    print(f"lost: {missing}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
