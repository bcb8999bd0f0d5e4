"""Two server processes share one PostgreSQL: students split between them see each other's moves.

Nothing one process needs is held only in another's memory: every change is in the database,
and each process hears of the others' changes through PostgreSQL's LISTEN/NOTIFY. So students
may be spread over processes (behind a load balancer), and when one process dies its students
reconnect to another and carry on.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ra_classroom.teacher.client import TeacherClient
from ra_classroom.web.server import ServerProcess

from .conftest import SECRET
from .pages import Page, bids_in, ply_at_least
from .postgres import Postgres


@pytest.fixture
def pair(postgres: Postgres, tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    url = postgres.new_database()
    a = ServerProcess(url, SECRET, log=tmp_path / "a.log").start()
    b = ServerProcess(url, SECRET, log=tmp_path / "b.log").start()
    yield a, b
    a.stop()
    b.stop()


def test_students_on_two_processes_bid_and_play_together(pair: tuple[ServerProcess, ServerProcess]) -> None:
    a, b = pair
    on_a, on_b = TeacherClient(a.url, SECRET), TeacherClient(b.url, SECRET)
    room = on_a.create_room(seed="two-processes")
    pages = [Page(a.url), Page(a.url), Page(b.url)]  # two students on process A, one on B
    for i, p in enumerate(pages):
        p.join(room, f"S{i}")
    assert len(on_b.status(room)["students"]) == 3  # B reads what A stored

    held = {"kind": "first", "group_size": 3, "close_when_done": False}  # it closes when the teacher says
    rid = on_b.open_round(room, held)["round"]  # opened on B ...
    views = [p.view(lambda v: v["screen"] == "bid") for p in pages]  # ... reaches the pages on A
    for k, (p, v) in enumerate(zip(pages, views, strict=True)):
        assert p.answer(p.send(t="bid", round=rid, amount=round(v["round"]["value"] / 2, 2)))["t"] == "ack"
        for q in pages:  # every page, on either process, sees the group's count rise
            q.view(bids_in(k + 1))
    on_a.close_round(room)
    assert all(p.view(lambda v: v["screen"] == "result")["result"] for p in pages)
    assert len(on_b.results(room)["bids"]) == 3

    on_a.open_round(room, {"kind": "ra", "group_size": 3})
    views = [p.view(lambda v: v["screen"] == "ra") for p in pages]
    seen_moves = {0: 0, 1: 0, 2: 0}
    for _ in range(15):
        mover = next(i for i, v in enumerate(views) if v["table"]["yours"])
        t = views[mover]["table"]
        action = next((c for c in t["choices"] if c.startswith(("bid", "pass", "discard"))), t["choices"][0])
        ack = pages[mover].answer(pages[mover].send(t="move", table=t["id"], action=action, version=t["ply"]))
        assert ack["t"] == "ack"
        seen_moves[mover] += 1
        views = [p.view(ply_at_least(ack["ply"])) for p in pages]
        assert len({v["table"]["ply"] for v in views}) == 1  # A's pages and B's page show the same board
    assert seen_moves[2] > 0 and seen_moves[0] + seen_moves[1] > 0  # moves made on both processes


def test_when_one_process_dies_its_students_carry_on_at_the_other(pair: tuple[ServerProcess, ServerProcess]) -> None:
    a, b = pair
    teacher = TeacherClient(b.url, SECRET)
    room = teacher.create_room(seed="one-dies")
    pages = [Page(a.url), Page(a.url), Page(b.url)]
    for i, p in enumerate(pages):
        p.join(room, f"S{i}")
    teacher.open_round(room, {"kind": "ra", "group_size": 3})
    views = [p.view(lambda v: v["screen"] == "ra") for p in pages]
    for _ in range(4):
        mover = next(i for i, v in enumerate(views) if v["table"]["yours"])
        t = views[mover]["table"]
        ply = pages[mover].answer(pages[mover].send(t="move", table=t["id"], action=t["choices"][0], version=t["ply"]))[
            "ply"
        ]
        views = [p.view(ply_at_least(ply)) for p in pages]
    a.kill()
    moved = [Page(b.url), Page(b.url)]  # A's students reload: their pages reach B now
    for old, new in zip(pages[:2], moved, strict=True):
        assert new.hello(str(old.token))["table"]["ply"] == views[0]["table"]["ply"]
    pages = [*moved, pages[2]]
    views = [p.log[-1] if p in moved else views[2] for p in pages]
    mover = next(i for i, v in enumerate(views) if v["table"]["yours"])
    t = views[mover]["table"]
    assert (
        pages[mover].answer(pages[mover].send(t="move", table=t["id"], action=t["choices"][0], version=t["ply"]))["t"]
        == "ack"
    )


def test_a_clock_ticks_once_for_pages_on_both_processes(pair: tuple[ServerProcess, ServerProcess]) -> None:
    """Both processes run clocks; a tick is stored once (by either) and reaches the pages on both, in order."""
    a, b = pair
    on_a = TeacherClient(a.url, SECRET)
    room = on_a.create_room(seed="two-processes-clock")
    pages = [Page(a.url), Page(b.url), Page(b.url)]
    for i, p in enumerate(pages):
        p.join(room, f"S{i}")
    rid = on_a.open_round(room, {"kind": "english", "group_size": 3, "step": 1, "tick": 0.25})["round"]
    seen: list[list[int]] = [[], [], []]
    for k, p in enumerate(pages):
        while len(seen[k]) < 8:
            seen[k].append(p.until(lambda m: m.get("t") == "tick" and m["round"] == rid)["tick"])
    for ticks in seen:  # one tick at a time, none twice: the two processes never both stored one
        assert ticks == sorted(ticks) and len(set(ticks)) == len(ticks) and ticks[-1] - ticks[0] == len(ticks) - 1, seen
    shown = pages[1].until(lambda m: m.get("t") == "tick")
    ack = pages[1].answer(pages[1].send(t="press", round=rid, tick=shown["tick"]))  # pressed on B
    assert ack["t"] == "ack" and ack["in"] == 2
    assert pages[0].until(lambda m: m.get("t") == "tick" and m["tick"] > shown["tick"])["in"] == 2  # seen on A
