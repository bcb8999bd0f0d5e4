"""Load on the classroom server: N simulated students over real websockets against a real server here.

    python benchmarks/classroom.py --students 200 --seconds 60 [--kill] [--database URL | --postgres]
    python benchmarks/classroom.py --students 200 --burst 3 --seconds 0 --busy 1        # a burst of bids
    python benchmarks/classroom.py --students 1000 --seconds 60 --postgres --processes 2  # a lecture hall
    python benchmarks/classroom.py --students 200 --seconds 30 --reconnect               # pages reconnect
    python benchmarks/classroom.py --slowloris 20000                                     # one client's slowloris
    python benchmarks/classroom.py --joins-behind-one-address 1000 [--hostile]          # a lecture hall's NAT
    python benchmarks/classroom.py --clock --students 1000                               # an English, a Dutch clock

The server runs in child processes (`ra_classroom.web.server.ServerProcess`: SQLite in a temporary
folder unless --database or --postgres is given; --processes N serves one port from N processes);
the students run in this process, each with his own websocket, as
`ra_classroom.teacher.simulate` scripts them. The session: everyone joins, one first-price round
in groups of 4 (every student bids once, after a think time of 0.3-2 s, or within --burst seconds
of the round's opening), closed by the teacher's API once all have bid; then Ra tables of 4
(bots in empty seats) for --seconds, each student moving 0.5-1.5 s after his turn comes. With
--reconnect, 5 % of the students lose their connection every second of the Ra phase and come
back with their seat tokens. With --kill the server is killed (SIGKILL) halfway through and
started again on the same database and port. --busy K keeps K more processes spinning on a core
each, as other work on the machine would.

Printed, one per line: ``students: N``; ``p50_ms``, ``p90_ms``, ``p99_ms``: of moves, from a move
sent to every page at its table updated (the mover's ack and the new board on every table-mate's
page), or with no Ra phase (--seconds 0) of bids, from a bid sent to its ack; the same for each
kind of action (``bids:``, ``moves:``); ``lost: K``: acknowledged actions missing from the
database afterwards; ``frozen: T``: tables at which, once everyone has stopped, some student's
page shows another board than the database's, or does not show whose turn it is;
``server_cpu_s`` and ``server_cores``: the CPU the server processes used (and PostgreSQL's, if
this script started it), in seconds and in cores on average over the session;
``server_cpu_per_action_ms``: that CPU per acknowledged action (bids and moves; the joins' work
counts too), and ``server_cpu_per_move_ms``: the Ra phase's alone, per move; the load average.

With ``--clock`` the session is two clock rounds instead: everyone joins, then an English clock
and a Dutch clock (groups of --group, a tick every --tick seconds, the price moving by --step),
each running until every group is settled; simulated students drop out at their value (English)
and stop the clock at a shaded bid (Dutch), 0.05-0.3 s after the tick that showed their price;
they run in --harness processes (2 by default), so that their pages' work is not all on one core.
Printed: ``tick_to_page``: from a tick stored on the server (its ``at``, the server's clock; the
same machine's) to its message received by a page, over every page and tick; ``tick_to_every_page``:
per tick, until the last page of the room had it; ``press_to_group``: from a press sent until its
ack and every page of its group showing it (the count still in lower, the clock stopped, or the
group's result); presses acknowledged, refused and lost; the server's CPU and the load average.

With ``--slowloris N`` the script plays an attack instead of a session: one client (127.0.0.66,
this machine) opens N connections, each with an unfinished request, at a server started at a
1,024-file limit; then a student from 127.0.0.1 joins, a student seated before bids, the teacher's
API and ``/healthz`` are asked. Printed: ``student_got_in: yes|no`` (and how long the join took),
``seated_student_bid``, ``teacher_api``, ``healthz``, ``refused_at_once`` (connections the server
closed before reading them) and ``all_closed_s`` (from the last request sent until the server had
closed every connection).

With ``--joins-behind-one-address N`` the script plays a lecture hall behind one NAT instead: N
students on this machine's one address (127.0.0.1), each on a websocket of his own, all join a
room of N + 50 (at most 1,000) at once, at the server's own limits (``serve`` as a teacher starts it). Printed:
``joined: K of N``, ``every_student_got_in``, ``joins_per_second`` (K over the time from the first
join sent to the last welcome) and the joins' ``join_s`` p50/p90/max. With ``--hostile`` one
client behind the same address first takes 50 seats with a burst of joins, which the teacher's
panel shows (joins per address) and the teacher removes at once (one call of the API: the
panel's button); then, while the class joins, it sends wrong rejoin codes for a classmate's name
from 8 pages at their full rate. Printed besides: ``wrong_codes_sent``, ``burst_seats``,
``panel_shows``, ``burst_removed`` and ``a_student_still_got_in``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import defaultdict
from collections.abc import Coroutine, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, select

from ra_classroom.store.database import database_url
from ra_classroom.store.schema import bids, moves, seats, tables
from ra_classroom.store.tokens import new_secret
from ra_classroom.teacher.client import TeacherClient
from ra_classroom.teacher.simulate import Behaviour, SimStudent, SimulatedClass
from ra_classroom.web.server import ServerProcess

ROOT = Path(__file__).resolve().parents[1]
RECONNECT_SHARE = 0.05  # of the students, every second of the Ra phase with --reconnect


class Meter:
    """Everything the students sent, the answers, and the time of every view, for latency and loss."""

    def __init__(self) -> None:
        self.outbox: dict[tuple[str, tuple[Any, ...]], tuple[float, dict[str, Any]]] = {}
        self.acks: list[tuple[str, tuple[Any, ...], dict[str, Any], dict[str, Any], float, float]] = []
        self.refused: list[str] = []
        self.views: dict[str, list[tuple[float, Any, Any, int, Any, int]]] = defaultdict(list)
        self.student_ids: dict[str, int] = {}
        self.last_view = 0.0  # when the last view arrived (time.perf_counter)

    def sent(self, who: SimStudent, key: tuple[Any, ...], msg: dict[str, Any], at: float) -> None:
        self.outbox[(who.name, key)] = (at, dict(msg))

    def answered(self, who: SimStudent, key: tuple[Any, ...], reply: dict[str, Any], at: float) -> None:
        t0, msg = self.outbox.get((who.name, key), (at, {}))
        if reply.get("t") == "ack":
            self.acks.append((who.name, key, msg, reply, t0, at))
        else:
            self.refused.append(str(reply.get("why")))

    def viewed(self, who: SimStudent, view: dict[str, Any], at: float) -> None:
        self.last_view = at
        if who.student is not None:
            self.student_ids[who.name] = who.student
        r, t = view.get("round") or {}, view.get("table") or {}
        self.views[who.name].append(
            (at, r.get("id"), r.get("group_no"), int(r.get("bids_in") or 0), t.get("id"), int(t.get("ply", -1)))
        )

    def ticked(self, who: SimStudent, tick: dict[str, Any], at: float) -> None:
        """A clock's tick (not measured here: see `ClockMeter`)."""

    def latencies(self) -> tuple[dict[str, list[float]], int]:
        """Return the latencies in ms (``bid_ack``, ``bid``: to every page of the group, ``move``: to every
        page of the table) and how many affected pages never showed the action."""
        groups: dict[tuple[Any, Any], set[str]] = defaultdict(set)
        at_table: dict[Any, set[str]] = defaultdict(set)
        for name, seen in self.views.items():
            for _, rid, g, _, tid, _ in seen:
                if g is not None:
                    groups[(rid, g)].add(name)
                if tid is not None:
                    at_table[tid].add(name)
        out: dict[str, list[float]] = {"bid_ack": [], "bid": [], "move": []}
        unseen = 0
        for name, key, _, reply, t0, t_ack in self.acks:
            if key[0] == "bid":
                out["bid_ack"].append((t_ack - t0) * 1000)
                mine = next((g for _, r, g, _, _, _ in self.views[name] if r == key[1] and g is not None), None)
                members = groups[(key[1], mine)]
            else:
                members = at_table[key[1]]
            ends = [t_ack]
            for m in members:
                hit = next((v[0] for v in self.views[m] if v[0] >= t0 and reached(v, key, reply)), None)
                if hit is None:
                    unseen += 1
                else:
                    ends.append(hit)
            out[key[0]].append((max(ends) - t0) * 1000)
        return {k: sorted(v) for k, v in out.items()}, unseen


def reached(view: tuple[float, Any, Any, int, Any, int], key: tuple[Any, ...], reply: dict[str, Any]) -> bool:
    """Return whether a page's view shows the action `key` acknowledged with `reply`."""
    if key[0] == "bid":
        return bool(view[1] == key[1] and view[3] >= reply["bids_in"])
    return bool(view[4] == key[1] and view[5] >= reply["ply"])


def lost(database: str, meter: Meter) -> int:
    """Return how many acknowledged bids, presses and moves are not in the database."""
    engine = create_engine(database_url(database))
    missing = 0
    with engine.connect() as conn:
        stored_bids = {(r.round_id, r.student_id): r.amount for r in conn.execute(select(bids))}
        stored_moves = {(r.table_id, r.ply): r.action for r in conn.execute(select(moves))}
    engine.dispose()
    for name, key, msg, reply, _, _ in meter.acks:
        if key[0] == "bid":
            if stored_bids.get((key[1], meter.student_ids[name])) != msg.get("amount"):
                missing += 1
        elif key[0] == "press":  # a press is stored as a bid: the price of the tick it named
            if stored_bids.get((key[1], meter.student_ids[name])) != reply.get("price"):
                missing += 1
        elif stored_moves.get((key[1], key[2])) != msg.get("action"):
            missing += 1
    return missing


def frozen(database: str, students: list[SimStudent]) -> int:
    """Return how many tables have a student whose last view is not the stored board, or hides whose turn it is."""
    engine = create_engine(database_url(database))
    with engine.connect() as conn:
        stored = {int(r.id): (int(r.ply), int(r.to_move)) for r in conn.execute(select(tables))}
        seat_of = {int(s.student_id): int(s.seat) for s in conn.execute(select(seats)) if s.student_id is not None}
    engine.dispose()
    stuck = set()
    for s in students:
        t = (s.view or {}).get("table")
        if not t or s.student is None or t["id"] not in stored:
            continue
        ply, to_move = stored[t["id"]]
        if t["ply"] != ply or t["yours"] != (to_move >= 0 and seat_of.get(s.student) == to_move):
            stuck.add(t["id"])
    return len(stuck)


async def session(
    args: argparse.Namespace, server: ServerProcess, teacher: TeacherClient, room: str, meter: Meter, cpu: CpuMeter
) -> dict[str, Any]:
    think = (0.0, args.burst) if args.burst else (0.3, 2.0)
    sim = SimulatedClass(server.url, room, args.students, seed=1, behaviour=Behaviour(think=think), probe=meter)
    stop = asyncio.Event()
    runner = asyncio.ensure_future(sim.run(stop))
    begin = time.monotonic()
    while not all(s.joined.is_set() for s in sim.students):
        await asyncio.sleep(0.05)
    joined = time.monotonic() - begin
    loop = asyncio.get_running_loop()
    start = time.monotonic()
    first = {"kind": "first", "group_size": 4, "close_when_done": False}  # the bids' phase ends as before: at the close
    opened = await loop.run_in_executor(None, teacher.open_round, room, first)
    bid_deadline = start + max(5.0, 3 * (args.burst or 2.0))
    while sim.bids_done(opened["round"]) < args.students - len(opened["sitting_out"]):
        if time.monotonic() > bid_deadline:
            break
        await asyncio.sleep(0.1)
    await loop.run_in_executor(None, teacher.close_round, room)
    info: dict[str, Any] = {"joined_s": joined, "kills": 0, "back_s": float("nan"), "reconnects": 0}
    if args.seconds > 0:
        for s in sim.students:
            s.behaviour = Behaviour(think=(0.5, 1.5))
        await loop.run_in_executor(None, teacher.open_round, room, {"kind": "ra", "group_size": 4})
        used, acked = group_cpu(server.proc.pid) if server.proc else 0.0, len(meter.acks)
        await ra_phase(args, server, sim, info, cpu)
        if server.proc and not args.kill:  # the Ra phase alone: moves, without the joins and the bids
            info["ra_phase"] = (group_cpu(server.proc.pid) - used, len(meter.acks) - acked)
    for s in sim.students:  # no new actions; the last ones' views arrive
        s.quiet = True
    settle = time.monotonic() + 20.0
    await asyncio.sleep(2.0)
    while time.perf_counter() - meter.last_view < 1.5 and time.monotonic() < settle:
        await asyncio.sleep(0.25)
    stop.set()
    await runner
    info["students"] = sim.students
    return info


async def ra_phase(
    args: argparse.Namespace, server: ServerProcess, sim: SimulatedClass, info: dict[str, Any], cpu: CpuMeter
) -> None:
    """Let the tables play for --seconds, with the reconnections and the kill asked for."""
    loop = asyncio.get_running_loop()
    start = time.monotonic()
    end = start + args.seconds
    rng = random.Random(1)
    killed_at = start + args.seconds / 2 if args.kill else None
    while time.monotonic() < end:
        await asyncio.sleep(min(1.0, max(0.0, end - time.monotonic())))
        if args.reconnect and time.monotonic() < end - 2:
            gone = rng.sample(sim.students, max(1, round(RECONNECT_SHARE * len(sim.students))))
            for s in gone:
                s.drop()
            info["reconnects"] += len(gone)
        if killed_at is not None and time.monotonic() >= killed_at:
            killed_at = None
            before = [s.connections for s in sim.students]
            killed = time.monotonic()
            cpu.take(server)
            server.kill()
            info["kills"] += 1
            await loop.run_in_executor(None, server.start)
            while any(s.connections == c for s, c in zip(sim.students, before, strict=True)):
                await asyncio.sleep(0.05)
            info["back_s"] = time.monotonic() - killed


class ClockMeter(Meter):
    """Every tick each page received (with the wall-clock delay since the server stored it), and the presses."""

    def __init__(self) -> None:
        super().__init__()
        self.ticks: dict[tuple[int, float], list[float]] = defaultdict(list)  # (round, when stored) -> delays, s
        self.clock_views: dict[str, list[tuple[float, Any, Any, Any, bool, str]]] = defaultdict(list)

    def ticked(self, who: SimStudent, tick: dict[str, Any], at: float) -> None:
        self.ticks[(int(tick["round"]), float(tick["at"]))].append(time.time() - float(tick["at"]))

    def viewed(self, who: SimStudent, view: dict[str, Any], at: float) -> None:
        super().viewed(who, view, at)
        r = view.get("round") or {}
        clock = r.get("clock") or {}
        self.clock_views[who.name].append(
            (at, r.get("id"), r.get("group_no"), clock.get("in"), bool(clock.get("stopped")), view["screen"])
        )

    def press_latencies(self) -> tuple[list[float], int]:
        """Return the ms from each press until its ack and every page of its group showed it; and the pages unseen."""
        groups: dict[tuple[Any, Any], set[str]] = defaultdict(set)
        for name, seen in self.clock_views.items():
            for _, rid, g, *_ in seen:
                if g is not None:
                    groups[(rid, g)].add(name)
        out, unseen = [], 0
        for name, key, _, reply, t0, t_ack in self.acks:
            if key[0] != "press":
                continue
            mine = next((g for _, r, g, *_ in self.clock_views[name] if r == key[1] and g is not None), None)
            ends = [t_ack]
            for m in groups[(key[1], mine)]:
                hit = next(
                    (
                        v[0]
                        for v in self.clock_views[m]
                        if v[0] >= t0
                        and v[1] == key[1]
                        and (v[5] == "result" or v[4] or (v[3] is not None and v[3] <= reply["in"]))
                    ),
                    None,
                )
                if hit is None:
                    unseen += 1
                else:
                    ends.append(hit)
            out.append((max(ends) - t0) * 1000)
        return sorted(out), unseen


def clock_students(url: str, room: str, names: list[str], joined: Any, stop: Any, out: Any) -> None:
    """Run simulated students `names` in a process of their own (--harness); hand back what their pages measured."""
    meter = ClockMeter()

    async def main() -> None:
        sim = SimulatedClass(
            url, room, len(names), seed=1, behaviour=Behaviour(think=(0.05, 0.3)), probe=meter, names=names
        )
        halt = asyncio.Event()
        runner = asyncio.ensure_future(sim.run(halt))
        while not all(s.joined.is_set() for s in sim.students):
            await asyncio.sleep(0.05)
        with joined.get_lock():
            joined.value += len(names)
        while not stop.is_set():
            await asyncio.sleep(0.1)
        for s in sim.students:
            s.quiet = True
        halt.set()
        await runner

    asyncio.run(main())
    out.put((dict(meter.ticks), dict(meter.clock_views), meter.acks, meter.refused, meter.student_ids))


async def clock_session(
    args: argparse.Namespace, server: ServerProcess, teacher: TeacherClient, room: str, meter: ClockMeter
) -> dict[str, Any]:
    """Join everyone, then run an English and a Dutch clock to their end (see the module's docstring).

    The students run in --harness processes of their own (so that their pages' work is spread
    over the cores as a class's phones are), each handing back its pages' measurements at the end.
    """
    import multiprocessing

    spawn = multiprocessing.get_context("spawn")
    joined, stop, out = spawn.Value("i", 0), spawn.Event(), spawn.Queue()
    names = [f"sim{i + 1:04d}" for i in range(args.students)]
    workers = [
        spawn.Process(target=clock_students, args=(server.url, room, names[k :: args.harness], joined, stop, out))
        for k in range(args.harness)
    ]
    begin = time.monotonic()
    for w in workers:
        w.start()
    while joined.value < args.students:
        await asyncio.sleep(0.05)
    info: dict[str, Any] = {"joined_s": time.monotonic() - begin, "rounds": []}
    loop = asyncio.get_running_loop()
    for kind in ("english", "dutch"):
        spec = {"kind": kind, "group_size": args.group, "step": args.step, "tick": args.tick}
        opened = await loop.run_in_executor(None, teacher.open_round, room, spec)
        started = time.monotonic()
        longest = (100 / args.step + 4) * args.tick + 10
        while time.monotonic() - started < longest:
            await asyncio.sleep(0.5)
            status = await loop.run_in_executor(None, teacher.status, room)
            if (status.get("round") or {}).get("status") != "open":
                break
        else:
            await loop.run_in_executor(None, teacher.close_round, room)
        info["rounds"].append((kind, opened["round"], time.monotonic() - started))
    await asyncio.sleep(2.0)
    stop.set()
    for _ in workers:
        ticks, views, acks, refused, ids = await loop.run_in_executor(None, out.get)
        for key, delays in ticks.items():
            meter.ticks[key].extend(delays)
        meter.clock_views.update(views)
        meter.acks.extend(acks)
        meter.refused.extend(refused)
        meter.student_ids.update(ids)
    for w in workers:
        w.join()
    return info


def clock_main(args: argparse.Namespace) -> int:
    """Run `clock_session` on a server of our own and print its figures."""
    cpu = CpuMeter()
    with ExitStack() as stack, tempfile.TemporaryDirectory(prefix="ra-classroom-bench-") as tmp:
        database = args.database or (stack.enter_context(postgres(cpu)) if args.postgres else str(Path(tmp) / "b.db"))
        stack.enter_context(busy(args.busy))
        secret = new_secret()
        options = ["--joins-per-minute", "100000"]
        server = ServerProcess(
            database, secret, log=Path(tmp) / "server.log", processes=args.processes, options=options
        ).start()
        try:
            teacher = TeacherClient(server.url, secret)
            room = teacher.create_room()
            meter = ClockMeter()
            load = os.getloadavg()
            wall = time.monotonic()
            baseline = group_cpu(server.proc.pid) if server.proc else 0.0
            info = run_async(clock_session(args, server, teacher, room, meter))
            cpu.take(server)
            cpu.seconds -= baseline
            wall = time.monotonic() - wall
        finally:
            server.stop()
        missing = lost(database, meter)
    each = sorted(1000 * d for delays in meter.ticks.values() for d in delays)
    every = sorted(1000 * max(delays) for delays in meter.ticks.values() if delays)
    pages = sorted(len(delays) for delays in meter.ticks.values())
    presses, unseen = meter.press_latencies()
    print(f"students: {args.students}")
    print(f"database: {'sqlite' if not (args.database or args.postgres) else 'postgresql'}")
    print(f"processes: {args.processes}")
    print(f"busy: {args.busy}")
    print(f"load_average: {load[0]:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")
    print(f"cpus: {os.cpu_count()}")
    print(f"joined_s: {info['joined_s']:.1f}")
    for kind, rid, took in info["rounds"]:
        print(f"round {rid}: {kind}, {took:.1f} s until every group was settled")
    print(f"clock: a tick every {args.tick:g} s, a step of {args.step:g}, groups of {args.group}")
    print(f"harness: {args.harness} processes of simulated students")
    middle = pages[len(pages) // 2] if pages else 0
    print(f"ticks: {len(meter.ticks)} (pages per tick: median {middle}, max {max(pages, default=0)})")
    for label, xs in (("tick_to_page", each), ("tick_to_every_page", every), ("press_to_group", presses)):
        print(
            f"{label}: p50_ms {pct(xs, 0.5):.1f}, p90_ms {pct(xs, 0.9):.1f}, p99_ms {pct(xs, 0.99):.1f}, "
            f"max_ms {max(xs, default=float('nan')):.1f}  ({len(xs)})"
        )
    print(f"presses: {sum(1 for a in meter.acks if a[1][0] == 'press')} acknowledged, {len(meter.refused)} refused")
    print(f"unseen: {unseen}")
    print(f"lost: {missing}")
    print(f"server_cpu_s: {cpu.seconds:.1f}" + (f"  (PostgreSQL: {cpu.postgres_used():.1f})" if cpu.postgres else ""))
    print(f"server_cores: {cpu.seconds / wall:.2f}")
    return 0


class CpuMeter:
    """The CPU seconds the server's processes used (its process group: every --processes worker), kills included."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.postgres: Path | None = None  # the data folder of a PostgreSQL this script started
        self._pg_start = 0.0

    def take(self, server: ServerProcess) -> None:
        """Add what the server's processes have used so far (before they are killed or stopped)."""
        if server.proc is not None:
            self.seconds += group_cpu(server.proc.pid)

    def postgres_begin(self) -> None:
        self._pg_start = self.postgres_now()

    def postgres_used(self) -> float:
        return self.postgres_now() - self._pg_start

    def postgres_now(self) -> float:
        if self.postgres is None:
            return 0.0
        try:
            pid = int((self.postgres / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return 0.0
        return sum(cpu_of(p) for p in all_pids() if p == pid or parent_of(p) == pid)


def all_pids() -> list[int]:
    return [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()]


def _stat(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def cpu_of(pid: int) -> float:
    """Return the CPU seconds (user and system) process `pid` has used, 0 if it is gone (Linux; else 0)."""
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") if len(fields) > 12 else 0.0


def parent_of(pid: int) -> int:
    fields = _stat(pid)
    return int(fields[1]) if len(fields) > 1 else -1


def group_cpu(pgid: int) -> float:
    """Return the CPU seconds used by the live processes of process group `pgid`."""
    return sum(cpu_of(p) for p in all_pids() if len(f := _stat(p)) > 2 and int(f[2]) == pgid)


@contextmanager
def busy(count: int) -> Iterator[None]:
    """Keep `count` processes spinning, a core each, as other work on the machine would."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for p in spinners:
            p.kill()
            p.wait()


@contextmanager
def postgres(cpu: CpuMeter) -> Iterator[str]:
    """Start a PostgreSQL server of our own (Debian's binaries, as the tests do); yield a fresh database's URL."""
    sys.path.insert(0, str(ROOT))
    from tests.classroom.postgres import Postgres, binaries

    found = binaries()
    if found is None:
        raise SystemExit("--postgres needs PostgreSQL's binaries (apt-get install postgresql)")
    pg = Postgres(found).start()
    cpu.postgres = pg.data
    try:
        yield pg.new_database()
    finally:
        pg.stop()


def run_async(coro: Coroutine[Any, Any, dict[str, Any]]) -> dict[str, Any]:
    """Run the students' loop on uvloop where it is installed (the harness's own cost is kept low)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


def pct(xs: list[float], p: float) -> float:
    """Return the `p` quantile of the sorted `xs` (nan if empty)."""
    return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else float("nan")


def slowloris(count: int) -> int:
    """Play one client's slowloris of `count` connections at a server here, and print whether a student got in."""
    from websockets.sync.client import connect

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if count > hard - 500:
        print(f"this process may open {hard} files: the slowloris is cut to {hard - 500} connections")
        count = hard - 500
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 500)), hard))
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="ra-classroom-bench-") as tmp:
        secret = new_secret()
        server = ServerProcess(
            str(Path(tmp) / "b.db"), secret, log=Path(tmp) / "server.log", open_files=(min(1024, hard), hard)
        ).start()
        held: list[socket.socket] = []
        pages = ExitStack()
        try:
            teacher = TeacherClient(server.url, secret)
            room = teacher.create_room()
            ws_url = server.url.replace("http://", "ws://") + "/ws"

            def ask(ws: Any, **msg: Any) -> dict[str, Any]:
                ws.send(json.dumps(msg))
                while True:
                    answer: dict[str, Any] = json.loads(ws.recv(timeout=20))
                    if answer.get("id") == msg["id"]:
                        return answer

            before = pages.enter_context(connect(ws_url, open_timeout=20))
            ask(before, t="join", id=1, room=room, name="Before")
            port = int(server.url.rsplit(":", 1)[1])
            begun = time.monotonic()
            for _ in range(count):
                s = socket.socket()
                s.setblocking(False)
                s.bind(("127.0.0.66", 0))
                with contextlib.suppress(BlockingIOError):
                    s.connect(("127.0.0.1", port))
                held.append(s)
            time.sleep(0.5)
            for s in held:
                with contextlib.suppress(OSError):
                    s.send(b"GET / HTTP/1.1\r\nHost: x\r\nX-a: ")
            opened_s = time.monotonic() - begun
            joined_at = time.monotonic()
            try:
                with connect(ws_url, open_timeout=20) as page:
                    got_in = ask(page, t="join", id=1, room=room, name="Newcomer").get("t") == "welcome"
            except Exception:  # noqa: BLE001 - refused, closed or timed out: the student did not get in
                got_in = False
            join_s = time.monotonic() - joined_at
            try:
                opened = teacher.open_round(room, {"kind": "first", "group_size": 2})
                api = "yes"
                bid = ask(before, t="bid", id=2, round=opened["round"], amount=10).get("t") == "ack"
            except Exception as error:  # noqa: BLE001 - what failed is the figure printed
                api, bid = f"no ({error})", False
            try:
                with urllib.request.urlopen(f"{server.url}/healthz", timeout=20) as r:
                    health = "yes" if r.read() == b"ok" else "no"
            except OSError as error:
                health = f"no ({error})"

            def closed(s: socket.socket) -> bool:
                try:
                    return s.recv(64) == b""
                except BlockingIOError:
                    return False
                except OSError:
                    return True

            refused = sum(closed(s) for s in held)
            sent = begun + opened_s
            while time.monotonic() - sent < 90 and not all(closed(s) for s in held):
                time.sleep(0.5)
            all_closed = time.monotonic() - sent if all(closed(s) for s in held) else float("nan")
        finally:
            pages.close()
            for s in held:
                s.close()
            server.stop()
    print(f"slowloris: {count} connections from one address in {opened_s:.1f} s, each an unfinished request")
    print(f"load_average: {load[0]:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")
    print(f"student_got_in: {'yes' if got_in else 'no'} (the join took {join_s:.2f} s)")
    print(f"seated_student_bid: {'yes' if bid else 'no'}")
    print(f"teacher_api: {api}")
    print(f"healthz: {health}")
    print(f"refused_at_once: {refused}")
    print(f"all_closed_s: {all_closed:.1f}  (after the last request was sent; nan: some still open after 90 s)")
    return 0 if got_in and bid and health == "yes" else 1


def joins_behind_one_address(count: int, hostile: bool, processes: int, database: str | None) -> int:
    """Seat `count` students from one address at once (and a hostile client); print how fast, and whether all got in."""
    import websockets

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 2 * count + 600)), hard))
    spare = 50  # the seats of the hostile client's burst: the room holds the class and these
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="ra-classroom-bench-") as tmp:
        secret = new_secret()
        server = ServerProcess(
            database or str(Path(tmp) / "b.db"), secret, log=Path(tmp) / "server.log", processes=processes
        )
        server.start()
        try:
            teacher = TeacherClient(server.url, secret)
            room = teacher.create_room(size=min(1000, count + spare))
            url = server.url.replace("http://", "ws://") + "/ws"

            async def ask(ws: Any, msg: dict[str, Any]) -> dict[str, Any]:
                await ws.send(json.dumps(msg))
                while True:
                    answer: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 120))
                    if answer.get("t") in ("welcome", "refused", "asking"):
                        return answer

            async def play() -> dict[str, Any]:
                out: dict[str, Any] = {"times": [], "wrong": 0, "burst": 0, "refused": []}
                async with contextlib.AsyncExitStack() as stack:
                    if hostile:  # first a burst of joins; the teacher sees it in the panel and removes it at once
                        burst_began = time.time()
                        pages = [await stack.enter_async_context(websockets.connect(url)) for _ in range(spare)]
                        said = await asyncio.gather(
                            *(ask(p, {"t": "join", "room": room, "name": f"Junk {i}"}) for i, p in enumerate(pages))
                        )
                        out["burst"] = sum(a["t"] == "welcome" for a in said)
                        burst_ended = time.time()
                        await asyncio.sleep(1.0)
                        joins = (await asyncio.to_thread(teacher.status, room))["addresses"]
                        out["shown"] = "; ".join(
                            f"{j['address']}: {j['students']} ({j['last_minute']} in the last minute)" for j in joins
                        )
                        now = time.time()
                        window = (joins[0]["address"], now - burst_began + 0.2, now - burst_ended - 0.2)
                        out["removed"] = len((await asyncio.to_thread(teacher.remove_burst, room, *window))["removed"])
                    done = asyncio.Event()

                    async def guess(page: Any) -> None:  # wrong codes for a classmate's name, at the page's rate
                        k = 0
                        while not done.is_set():
                            k += 1
                            await page.send(
                                json.dumps({"t": "join", "room": room, "name": "Student 0000", "code": f"{k:06d}"})
                            )
                            out["wrong"] += 1
                            await asyncio.sleep(1 / 8)

                    async def drain(page: Any) -> None:
                        with contextlib.suppress(Exception):
                            while True:
                                await page.recv()

                    async def student(i: int) -> None:
                        async with websockets.connect(url, open_timeout=120) as ws:
                            sent = time.monotonic()
                            answer = await ask(ws, {"t": "join", "room": room, "name": f"Student {i:04d}"})
                            if answer["t"] == "welcome":
                                out["times"].append((sent, time.monotonic()))
                            else:
                                out["refused"].append(answer.get("why", ""))
                            await held.wait()  # a class stays connected while the others join

                    held = asyncio.Event()
                    began = time.monotonic()
                    tasks = [asyncio.create_task(student(0))]  # the classmate whose name is guessed at, in first
                    while not out["times"] and not out["refused"] and time.monotonic() - began < 60:
                        await asyncio.sleep(0.01)
                    guessers = []
                    if hostile:
                        for _ in range(8):
                            page = await stack.enter_async_context(websockets.connect(url))
                            guessers += [asyncio.create_task(guess(page)), asyncio.create_task(drain(page))]

                    tasks += [asyncio.create_task(student(i)) for i in range(1, count)]
                    while len(out["times"]) + len(out["refused"]) < count and time.monotonic() - began < 180:
                        await asyncio.sleep(0.05)
                    out["began"] = began
                    done.set()
                    held.set()
                    await asyncio.gather(*tasks, return_exceptions=True)
                    for task in guessers:
                        task.cancel()
                    await asyncio.gather(*guessers, return_exceptions=True)
                return out

            out = asyncio.run(play())
        finally:
            server.stop()
    times = out["times"]
    span = max(t for _, t in times) - out["began"] if times else float("nan")
    waits = sorted(t - s for s, t in times)
    print(f"students: {count}, all from one address (127.0.0.1), at the server's own limits; processes: {processes}")
    print(f"database: {'sqlite' if database is None else 'postgresql'}")
    print(f"load_average: {load[0]:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")
    print(
        f"joined: {len(times)} of {count} in {span:.1f} s"
        + (f"; refused: {out['refused'][:1]}" if out["refused"] else "")
    )
    print(f"every_student_got_in: {'yes' if len(times) == count else 'no'}")
    print(f"joins_per_second: {len(times) / span:.0f}")
    print(f"join_s: p50 {pct(waits, 0.5):.2f}, p90 {pct(waits, 0.9):.2f}, max {max(waits, default=float('nan')):.2f}")
    if hostile:
        print(f"wrong_codes_sent: {out['wrong']} (from 8 pages behind the same address, for Student 0000's name)")
        print(f"burst_seats: {out['burst']} (one client's joins before the class came)")
        print(f"panel_shows: {out['shown']}")
        print(f"burst_removed: {out['removed']} (one call of the teacher's API, the panel's button)")
        print(f"a_student_still_got_in: {'yes' if times else 'no'}")
    return 0 if len(times) == count else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60, help="seconds of Ra play (0: none)")
    parser.add_argument("--burst", type=float, default=0, help="every student bids within this many seconds")
    parser.add_argument("--reconnect", action="store_true", help="5%% of the pages reconnect every second of play")
    parser.add_argument("--processes", type=int, default=1, help="server processes on one port and database")
    parser.add_argument("--busy", type=int, default=0, help="processes kept spinning, a core each")
    parser.add_argument("--kill", action="store_true", help="kill -9 the server halfway and restart it")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--database", help="a database URL (default: SQLite in a temporary folder)")
    where.add_argument("--postgres", action="store_true", help="start a PostgreSQL server of our own and use it")
    parser.add_argument(
        "--slowloris", type=int, default=0, metavar="N", help="instead of a session: one client's N unfinished requests"
    )
    parser.add_argument(
        "--joins-behind-one-address", type=int, default=0, metavar="N", help="instead of a session: N joins at once"
    )
    parser.add_argument("--hostile", action="store_true", help="with --joins-behind-one-address: a hostile client too")
    parser.add_argument("--clock", action="store_true", help="instead of the session: an English and a Dutch clock")
    parser.add_argument("--tick", type=float, default=1.0, help="--clock: seconds per tick")
    parser.add_argument("--step", type=float, default=2.5, help="--clock: the price's step at each tick")
    parser.add_argument("--group", type=int, default=4, help="--clock: bidders per group")
    parser.add_argument("--harness", type=int, default=2, help="--clock: processes the students run in")
    args = parser.parse_args()
    if args.slowloris:
        return slowloris(args.slowloris)
    if args.joins_behind_one_address:
        with ExitStack() as stack:
            database = args.database or (stack.enter_context(postgres(CpuMeter())) if args.postgres else None)
            return joins_behind_one_address(args.joins_behind_one_address, args.hostile, args.processes, database)
    if args.clock:
        return clock_main(args)
    cpu = CpuMeter()
    with ExitStack() as stack, tempfile.TemporaryDirectory(prefix="ra-classroom-bench-") as tmp:
        database = args.database or (stack.enter_context(postgres(cpu)) if args.postgres else str(Path(tmp) / "b.db"))
        stack.enter_context(busy(args.busy))
        secret = new_secret()
        options = ["--joins-per-minute", "100000"]  # every student comes from 127.0.0.1
        server = ServerProcess(
            database, secret, log=Path(tmp) / "server.log", processes=args.processes, options=options
        ).start()
        try:
            teacher = TeacherClient(server.url, secret)
            room = teacher.create_room()
            meter = Meter()
            begun, wall, load = resource.getrusage(resource.RUSAGE_SELF), time.monotonic(), os.getloadavg()
            cpu.postgres_begin()
            baseline = group_cpu(server.proc.pid) if server.proc else 0.0
            info = run_async(session(args, server, teacher, room, meter, cpu))
            cpu.take(server)
            cpu.seconds -= baseline
            pg_seconds = cpu.postgres_used()
            wall = time.monotonic() - wall
            ended = resource.getrusage(resource.RUSAGE_SELF)
        finally:
            server.stop()
        stuck = frozen(database, info["students"])
        missing = lost(database, meter)
    harness = ended.ru_utime + ended.ru_stime - begun.ru_utime - begun.ru_stime
    found, unseen = meter.latencies()
    headline = found["move"] if args.seconds > 0 else found["bid_ack"]
    kinds: dict[str, int] = defaultdict(int)
    for _, key, *_ in meter.acks:
        kinds[key[0]] += 1
    print(f"students: {args.students}")
    print(f"seconds: {args.seconds:g}")
    print(f"database: {'sqlite' if not (args.database or args.postgres) else 'postgresql'}")
    print(f"processes: {args.processes}")
    print(f"busy: {args.busy}")
    print(f"load_average: {load[0]:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")
    print(f"joined_s: {info['joined_s']:.1f}")
    print(f"acknowledged: {len(meter.acks)} (bids {kinds['bid']}, moves {kinds['move']})")
    print(f"refused: {len(meter.refused)}")
    print(f"kills: {info['kills']}")
    if info["kills"]:
        print(f"all_back_s: {info['back_s']:.1f}  (from the kill until every student was connected again)")
    print(f"reconnects: {info['reconnects']}")
    print(f"measured: {'a move to every page at its table' if args.seconds > 0 else 'a bid to its ack'}")
    print(f"p50_ms: {pct(headline, 0.5):.1f}")
    print(f"p90_ms: {pct(headline, 0.9):.1f}")
    print(f"p99_ms: {pct(headline, 0.99):.1f}")
    print(f"max_ms: {max(headline, default=float('nan')):.1f}")
    for kind, label in (
        ("bid_ack", "bids, to the ack"),
        ("bid", "bids, to the group's pages"),
        ("move", "moves, to the table's pages"),
    ):
        xs = found[kind]
        print(
            f"{label}: p50_ms {pct(xs, 0.5):.1f}, p90_ms {pct(xs, 0.9):.1f}, p99_ms {pct(xs, 0.99):.1f}, "
            f"max_ms {max(xs, default=float('nan')):.1f}"
        )
    print(f"server_cpu_s: {cpu.seconds:.1f}" + (f"  (PostgreSQL: {pg_seconds:.1f})" if cpu.postgres else ""))
    print(
        f"server_cores: {(cpu.seconds + pg_seconds) / wall:.2f}  (the students' side, this process: "
        f"{harness / wall:.2f})"
    )
    actions = len(meter.acks)
    per_action = 1000 * (cpu.seconds + pg_seconds) / actions if actions else float("nan")
    print(
        f"server_cpu_per_action_ms: {per_action:.2f}  ({actions} acknowledged actions, the joins' work included; "
        "the goal: 3 ms or less)"
    )
    if "ra_phase" in info:
        used, moved = info["ra_phase"]
        print(
            f"server_cpu_per_move_ms: {1000 * used / max(1, moved):.2f}  (the Ra phase alone: {moved} moves, "
            f"{used:.1f} s of the server's CPU)"
        )
    print(f"unseen: {unseen}")
    print(f"lost: {missing}")
    print(f"frozen: {stuck}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
