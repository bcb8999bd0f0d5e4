"""One round paid: at the session's end the server draws, for each student, one of his paid rounds, and records it.

The draw is each student's own (the room's code and his id), among his closed, counted rounds
(practice and excluded rounds never pay); his page shows it, the projector says it is drawn
without naming anyone, the export carries it (``payments``, ``payments.csv``), and it is the
control room's `payment.draw_payments` on the saved results. A round opened after the end lets
the session go on and undoes the draw; the next end draws again, that round included.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from ra_classroom import ControlRoom
from ra_classroom.auctions.paying import paid_round
from ra_classroom.store.export import PAID_COLUMNS
from ra_classroom.teacher.client import TeacherClient
from ra_classroom.teacher.monitor import monitor_html
from ra_classroom.teacher.payment import draw_payments
from ra_classroom.web.server import ServerProcess

from .pages import Page, seat


@pytest.fixture
def pages(server: ServerProcess) -> Iterator[list[Page]]:
    opened = [Page(server.url) for _ in range(4)]
    yield opened
    for p in opened:
        p.close()


def play(pages: list[Page], teacher: TeacherClient, room: str, spec: dict[str, object]) -> int:
    """Open a round of `spec`; every page bids (or chooses); return the round's number once it has closed."""
    opened = teacher.open_round(room, spec)
    for i, p in enumerate(pages):
        view = p.view(lambda v: v["screen"] in ("bid", "sitout") and v["round"]["id"] == opened["round"])
        if view["screen"] != "bid":
            continue
        if spec["kind"] == "lottery":
            p.answer(p.send(t="act", round=opened["round"], data={"choices": "A" * (3 + i) + "B" * (7 - i)}))
        else:
            p.answer(p.send(t="bid", round=opened["round"], amount=round(view["round"]["value"] / 2, 2)))
    for p in pages:
        p.view(lambda v: v["round"]["id"] == opened["round"] and v["screen"] in ("result", "sitout", "wait"))
    return int(opened["number"])


def test_the_end_draws_one_paid_round_per_student_shows_and_exports_it(
    pages: list[Page], room: str, teacher: TeacherClient
) -> None:
    seat(pages, room)
    play(pages, teacher, room, {"kind": "first", "group_size": 2, "practice": True})
    first = play(pages, teacher, room, {"kind": "first", "group_size": 2})
    second = play(pages, teacher, room, {"kind": "second", "group_size": 2})
    lottery = play(pages, teacher, room, {"kind": "lottery"})
    teacher.exclude(room, second)
    assert teacher.payments(room) == []  # not drawn while the session goes on
    ended = teacher.control(room, "end")
    assert ended["paid"] == 4
    rows = teacher.payments(room)
    results = pd.DataFrame(teacher.results(room)["bids"])
    expected = draw_payments(results, room).set_index("student")
    assert sorted(r["student"] for r in rows) == sorted(p.student for p in pages if p.student is not None)
    for r in rows:
        assert r["round"] in (first, lottery) and r["rounds"] == 2  # practice and excluded rounds never pay
        assert r["round"] == paid_round(room, r["student"], [first, lottery])
        assert r["round"] == expected.loc[r["student"], "round"]
        mine = results[(results["student"] == r["student"]) & (results["round"] == r["round"])]
        assert r["earnings"] == pytest.approx(float(mine["earnings"].iloc[0]))
        assert r["kind"] == mine["kind"].iloc[0]
    for p in pages:
        shown = p.view(lambda v: v["screen"] == "ended")["paid"]
        mine = next(r for r in rows if r["student"] == p.student)
        assert shown["round"] == mine["round"] and shown["earnings"] == pytest.approx(mine["earnings"])
    assert teacher.projector(room)["paid"] == 4 and teacher.status(room)["paid"] == 4
    csv = pd.read_csv(io.StringIO(teacher.call("GET", f"/api/rooms/{room}/payments.csv", raw=True)))
    assert list(csv.columns) == list(PAID_COLUMNS) and len(csv) == 4
    assert teacher.control(room, "end")["paid"] == 4 and teacher.payments(room) == rows  # ended again: the same draw
    third = play(pages, teacher, room, {"kind": "allpay", "group_size": 2})  # the session goes on: the draw is undone
    assert teacher.payments(room) == [] and teacher.status(room)["paid"] == 0
    teacher.control(room, "end")
    again = teacher.payments(room)
    for r in again:
        assert r["rounds"] == 3 and r["round"] == paid_round(room, r["student"], [first, lottery, third])


def test_a_session_without_a_paid_round_pays_nobody(pages: list[Page], room: str, teacher: TeacherClient) -> None:
    seat(pages[:2], room)
    play(pages[:2], teacher, room, {"kind": "first", "group_size": 2, "practice": True})
    assert teacher.control(room, "end")["paid"] == 0 and teacher.payments(room) == []
    assert pages[0].view(lambda v: v["screen"] == "ended")["paid"] is None


def test_the_control_room_ends_the_session_and_saves_each_paid_round(tmp_path: Path) -> None:
    control = ControlRoom.start(database=str(tmp_path / "class.db"), results=tmp_path / "results", room="PAY1")
    try:
        pages = [Page(control.teacher.url) for _ in range(2)]
        seat(pages, control.room)
        number = play(pages, control.teacher, control.room, {"kind": "first", "group_size": 2})
        paid = control.end_session()
        assert list(paid.columns) == list(PAID_COLUMNS) and list(paid["round"]) == [number, number]
        saved = sorted((tmp_path / "results").glob("PAY1-*-paid.csv"))
        assert len(saved) == 1 and pd.read_csv(saved[0])["round"].tolist() == [number, number]
        assert control.paid_rounds().equals(paid)
        assert "paying round is drawn (2 students)" in monitor_html(control.status())
    finally:
        control.stop()
