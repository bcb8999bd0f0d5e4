"""Nothing acknowledged is lost: the server killed (SIGKILL) and restarted mid-round, on SQLite and PostgreSQL.

Every bid and move is committed before its ack is sent, so after a crash the database has all
of them; the students come back to their seats with their tokens, and the round goes on.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from ra_classroom.teacher.client import TeacherClient
from ra_classroom.web.server import ServerProcess

from .conftest import BACKENDS, SECRET, database_for
from .pages import Page, ply_at_least


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_killed_server_loses_no_acknowledged_bid_or_move(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    server = ServerProcess(database_for(backend, request, tmp_path), SECRET, log=tmp_path / "server.log").start()
    try:
        teacher = TeacherClient(server.url, SECRET)
        room = teacher.create_room(seed=f"durability-{backend}")
        pages = [Page(server.url) for _ in range(4)]
        for i, p in enumerate(pages):
            p.join(room, f"S{i}")
        rid = teacher.open_round(room, {"kind": "first", "group_size": 2, "close_when_done": False})["round"]
        values = {}
        for p in pages[:3]:
            values[p.student] = p.view(lambda v: v["screen"] == "bid")["round"]["value"]
            assert p.answer(p.send(t="bid", round=rid, amount=round(values[p.student] * 0.6, 2)))["t"] == "ack"
        server.kill()
        server.start()
        back = [Page(server.url) for _ in pages]
        for old, new in zip(pages, back, strict=True):
            view = new.hello(str(old.token))
            mine = values.get(old.student)
            assert view["screen"] == "bid"
            assert view["round"]["your_bid"] == (None if mine is None else round(mine * 0.6, 2))
        last = back[3]
        assert last.answer(last.send(t="bid", round=rid, amount=1))["t"] == "ack"
        teacher.close_round(room)
        rows = teacher.results(room)["bids"]
        assert sorted(r["bid"] for r in rows) == sorted([1, *(round(v * 0.6, 2) for v in values.values())])

        teacher.open_round(room, {"kind": "ra", "group_size": 4})
        views = [p.view(lambda v: v["screen"] == "ra") for p in back]
        acked = views[0]["table"]["ply"]
        for _ in range(6):
            mover = next(i for i, v in enumerate(views) if v["table"]["yours"])
            t = views[mover]["table"]
            ack = back[mover].answer(
                back[mover].send(t="move", table=t["id"], action=t["choices"][-1], version=t["ply"])
            )
            assert ack["t"] == "ack"
            acked = ack["ply"]
            views = [p.view(ply_at_least(acked)) for p in back]
        server.kill()
        server.start()
        again = [Page(server.url) for _ in back]
        for old, new in zip(back, again, strict=True):
            view = new.hello(str(old.token))
            assert view["screen"] == "ra" and view["table"]["ply"] == acked  # every acknowledged move is there
        player = next(p for p in again if p.log[-1]["table"]["yours"])
        t = player.log[-1]["table"]
        assert (
            player.answer(player.send(t="move", table=t["id"], action=t["choices"][0], version=t["ply"]))["t"] == "ack"
        )
    finally:
        server.stop()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_killed_clock_loses_no_press_and_resumes_at_its_stored_tick(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """A kill -9 while an English clock runs: the acknowledged drop is there, and the clock goes on one tick at a time.

    Ticks are stored before they are sent, so the tick stored is at least the last one any page
    saw; the server was down for several ticks' time, yet the clock resumes at the next tick.
    """
    server = ServerProcess(database_for(backend, request, tmp_path), SECRET, log=tmp_path / "server.log").start()
    try:
        teacher = TeacherClient(server.url, SECRET)
        room = teacher.create_room(seed=f"clock-durability-{backend}")
        pages = [Page(server.url) for _ in range(3)]
        for i, p in enumerate(pages):
            p.join(room, f"S{i}")
        spec = {"kind": "english", "group_size": 3, "step": 1, "tick": 0.4, "away": 100}
        rid = teacher.open_round(room, spec)["round"]
        shown = pages[0].until(lambda m: m.get("t") == "tick" and m["tick"] >= 3)
        ack = pages[0].answer(pages[0].send(t="press", round=rid, tick=shown["tick"]))
        assert ack["t"] == "ack" and ack["in"] == 2
        seen = pages[1].until(lambda m: m.get("t") == "tick" and m["tick"] >= shown["tick"] + 1)["tick"]
        server.kill()
        time.sleep(3.0)  # seven ticks' time with no server
        server.start()
        back = [Page(server.url) for _ in pages]
        views = [new.hello(str(old.token)) for old, new in zip(pages, back, strict=True)]
        stored = views[1]["round"]["clock"]["tick"]
        assert seen <= stored <= seen + 2, (seen, stored)  # no tick sent was lost, none skipped ahead
        assert views[0]["round"]["your_bid"] == ack["price"] and views[1]["round"]["clock"]["in"] == 2
        nxt = back[1].until(lambda m: m.get("t") == "tick")["tick"]
        assert nxt == stored + 1, (stored, nxt)  # one tick on from where it was, not the time it was down
    finally:
        server.stop()
