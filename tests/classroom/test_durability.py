"""Nothing acknowledged is lost: the server killed (SIGKILL) and restarted mid-round, on SQLite and PostgreSQL.

Every bid and move is committed before its ack is sent, so after a crash the database has all
of them; the students come back to their seats with their tokens, and the round goes on.
"""

from __future__ import annotations

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
        rid = teacher.open_round(room, {"kind": "first", "group_size": 2})["round"]
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
