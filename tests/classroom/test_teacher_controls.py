"""The teacher's controls on a real server, on SQLite and on PostgreSQL: hold a round, mind the roster, reseat.

Pause, extend, resume, cancel and exclude act on the round at any moment and say why when they
cannot; a removed student is refused everywhere; a student gets his own seat back on a new device
with his rejoin code (his connected page agreeing), or when the teacher lets the asking device in,
and nobody else can take it; a removed student's bid in the open round no longer counts;
bots play a seat the teacher hands them, marked on every board; a class of 2 or 3 plays every kind
of round; a database from before these controls is upgraded in place.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from ra_classroom.store.database import Database
from ra_classroom.store.rooms import AWAY_GRACE
from ra_classroom.teacher.client import RefusedError, TeacherClient
from ra_classroom.web.server import ServerProcess

from .conftest import database_for
from .pages import Message, Page, result_of, seat


@pytest.fixture
def pages(server: ServerProcess) -> Iterator[list[Page]]:
    opened = [Page(server.url) for _ in range(4)]
    yield opened
    for p in opened:
        p.close()


def bid_view(page: Page, round_id: int) -> Message:
    return page.view(lambda v: v["screen"] == "bid" and v["round"]["id"] == round_id)


def test_pause_stops_bids_and_the_clock_extend_adds_time_resume_goes_on(
    pages: list[Page], room: str, teacher: TeacherClient
) -> None:
    seat(pages[:2], room)
    a = pages[0]
    rid = teacher.open_round(room, {"kind": "first", "group_size": 2, "seconds": 60})["round"]
    bid_view(a, rid)
    assert teacher.control(room, "pause")["paused"]
    paused = a.view(lambda v: v["round"]["paused"])
    time.sleep(1.2)
    assert teacher.status(room)["round"]["closes_in"] == paused["round"]["closes_in"]  # the clock stands still
    refused = a.answer(a.send(t="bid", round=rid, amount=10))
    assert refused["t"] == "refused" and "paused" in refused["why"]
    with pytest.raises(RefusedError, match="paused already"):
        teacher.control(room, "pause")
    assert teacher.control(room, "extend", {"seconds": 30})["closes_in"] == pytest.approx(
        paused["round"]["closes_in"] + 30
    )
    for wrong in (0, -5, "30", True, 1e9):
        with pytest.raises(RefusedError, match="Extend by"):
            teacher.control(room, "extend", {"seconds": wrong})
    teacher.control(room, "resume")
    with pytest.raises(RefusedError, match="is not paused"):
        teacher.control(room, "resume")
    a.view(lambda v: not v["round"]["paused"])
    assert 85 < teacher.status(room)["round"]["closes_in"] <= 90
    assert a.answer(a.send(t="bid", round=rid, amount=10))["t"] == "ack"
    teacher.control(room, "pause")
    teacher.close_round(room)  # close now works on a paused round too
    assert a.view(result_of(rid))["result"]["won"]
    for what in ("pause", "resume", "cancel"):
        with pytest.raises(RefusedError, match="No round is open"):
            teacher.control(room, what)


def test_a_round_without_a_deadline_cannot_be_extended(pages: list[Page], room: str, teacher: TeacherClient) -> None:
    seat(pages[:2], room)
    teacher.open_round(room, {"kind": "second", "group_size": 2})
    with pytest.raises(RefusedError, match="has no deadline: it runs until you close it"):
        teacher.control(room, "extend", {"seconds": 30})


def test_a_cancelled_round_counts_nowhere_and_an_excluded_one_leaves_the_results(
    pages: list[Page], room: str, teacher: TeacherClient
) -> None:
    seat(pages[:2], room)
    a, b = pages[0], pages[1]
    first = teacher.open_round(room, {"kind": "first", "group_size": 2})["round"]
    for p in (a, b):
        p.answer(p.send(t="bid", round=first, amount=bid_view(p, first)["round"]["value"] / 2 // 1))
    earned = a.view(result_of(first))["earnings"] + b.view(result_of(first))["earnings"]
    assert earned > 0
    second = teacher.open_round(room, {"kind": "first", "group_size": 2})["round"]
    bid_view(a, second)
    assert a.answer(a.send(t="bid", round=second, amount=1))["t"] == "ack"
    teacher.control(room, "cancel")
    gone = b.view(lambda v: v["round"]["status"] == "void")
    assert gone["screen"] == "wait"
    assert "too late" in b.answer(b.send(t="bid", round=second, amount=1))["why"]
    assert {r["round"] for r in teacher.results(room)["bids"]} == {1}
    with pytest.raises(RefusedError, match="cancelled"):
        teacher.exclude(room, 2)
    teacher.exclude(room, 1)
    assert teacher.results(room)["bids"] == [] and [r["excluded"] for r in teacher.status(room)["rounds"]] == [
        True,
        False,
    ]
    assert a.view(lambda v: v["earnings"] == 0)["earnings"] == 0  # an excluded round's earnings do not count
    teacher.exclude(room, 1, False)
    assert len(teacher.results(room)["bids"]) == 2
    with pytest.raises(RefusedError, match="has no round 3"):
        teacher.exclude(room, 3)
    teacher.open_round(room, {"kind": "first", "group_size": 2})
    with pytest.raises(RefusedError, match="still open"):
        teacher.exclude(room, 3)


def test_a_removed_student_is_refused_everywhere_and_only_his_bids_of_closed_rounds_stay(
    pages: list[Page], room: str, teacher: TeacherClient, server: ServerProcess
) -> None:
    seat(pages[:3], room)
    a, gone = pages[0], pages[2]
    first = teacher.open_round(room, {"kind": "first", "group_size": 3})["round"]
    for p in pages[:3]:
        p.answer(p.send(t="bid", round=first, amount=1))
    a.view(result_of(first))
    rid = teacher.open_round(room, {"kind": "second", "group_size": 3, "close_when_done": False})["round"]
    gone.answer(gone.send(t="bid", round=rid, amount=99))  # the highest bid of the open round
    a.answer(a.send(t="bid", round=rid, amount=5))
    assert teacher.student(room, "remove", "student 2")["name"] == "Student 2"
    bye = gone.until(lambda m: m.get("t") == "bye")
    assert "removed you" in bye["why"] and bye["removed"] is True
    with pytest.raises(RefusedError, match="removed already"):
        teacher.student(room, "remove", "Student 2")
    back = Page(server.url)
    back.send(t="hello", token=str(gone.token))
    assert back.until(lambda m: m.get("t") == "refused")["why"] == f"The teacher has removed you from room {room}."
    again = Page(server.url)
    again.send(t="join", room=room, name="Student 2")
    assert "removed Student 2" in again.until(lambda m: m.get("t") == "refused")["why"]
    again.send(t="ask", room=room, name="Student 2")
    assert "removed Student 2" in again.until(lambda m: m.get("t") == "refused")["why"]
    assert a.view(lambda v: v["round"]["id"] == rid and v["round"]["group_size"] == 2)["round"]["bids_in"] == 1
    teacher.close_round(room)
    rows = teacher.results(room)["bids"]
    assert {r["name"] for r in rows if r["round"] == 1} == {"Student 0", "Student 1", "Student 2"}  # what he did
    settled = {r["name"]: r for r in rows if r["round"] == 2}
    assert set(settled) == {"Student 0", "Student 1"} and settled["Student 0"]["won"]  # his 99 no longer counts
    status = teacher.status(room)
    assert [s["removed"] for s in status["students"]] == [False, False, True]
    nxt = teacher.open_round(room, {"kind": "second", "group_size": 3})
    assert nxt["students"] == 2 and "Student 2" not in teacher.status(room)["round"]["waiting"]
    assert a.view(lambda v: v["round"]["id"] == nxt["round"])["round"]["group_size"] == 2


def test_rename_keeps_the_seat_and_refuses_a_name_taken(pages: list[Page], room: str, teacher: TeacherClient) -> None:
    seat(pages[:2], room)
    assert teacher.student(room, "rename", "Student 0", to="  Ana   Lima ")["name"] == "Ana Lima"
    assert pages[0].view(lambda v: v["name"] == "Ana Lima")["student"] == pages[0].student
    with pytest.raises(RefusedError, match="called Student 1 already"):
        teacher.student(room, "rename", "Ana Lima", to="student 1")
    with pytest.raises(RefusedError, match="too long"):
        teacher.student(room, "rename", "Ana Lima", to="x" * 40)
    with pytest.raises(RefusedError, match="No such action"):
        teacher.student(room, "promote", "Ana Lima")


def test_a_student_takes_his_seat_back_on_a_new_device_with_his_rejoin_code(
    pages: list[Page], room: str, teacher: TeacherClient, server: ServerProcess
) -> None:
    seat(pages[:2], room)
    ana = pages[0]
    code = next(m for m in ana.log if m.get("t") == "welcome")["code"]
    assert len(code) == 6
    rid = teacher.open_round(room, {"kind": "first", "group_size": 2})["round"]
    ana.answer(ana.send(t="bid", round=rid, amount=bid_view(ana, rid)["round"]["value"] / 2 // 1))
    thief = Page(server.url)
    for wrong, says in ((None, "type your rejoin code"), ("ABCDEF", "not Student 0's rejoin code")):
        thief.send(t="join", room=room, name="student 0", **({} if wrong is None else {"code": wrong}))
        assert says in thief.until(lambda m: m.get("t") == "refused")["why"]
    phone = Page(server.url)  # his new device: no seat token, only his name and his code
    phone.send(t="join", room=room, name="Student 0", code=f"{code[:3].lower()} {code[3:]}")
    waiting = phone.until(lambda m: m.get("t") in ("asking", "welcome", "refused"))
    assert waiting["t"] == "asking" and "asked whether" in waiting["why"]  # his page is connected: it is asked
    asked = ana.until(lambda m: m.get("t") == "confirm")
    assert ana.answer(ana.send(t="confirm", request=asked["request"], yes=True))["confirmed"] is True
    assert "you agreed" in ana.until(lambda m: m.get("t") == "bye")["why"]
    phone.send(t="hello", token=waiting["token"])
    welcome = phone.until(lambda m: m.get("t") in ("welcome", "refused"))
    assert welcome["t"] == "welcome" and welcome["student"] == ana.student
    assert len(welcome["code"]) == 6 and welcome["code"] != code  # the code used is replaced
    view = phone.view(lambda v: v["screen"] == "bid")
    assert view["round"]["your_bid"] is not None  # his seat keeps his history
    old = Page(server.url)
    old.send(t="hello", token=str(ana.token))
    assert "unknown" in old.until(lambda m: m.get("t") == "refused")["why"]  # the old device opens nothing now
    assert phone.answer(phone.send(t="bid", round=rid, amount=1))["why"].startswith("You have bid")
    assert [m["how"] for m in teacher.status(room)["moves"]] == ["confirmed"]


def test_a_device_asks_and_the_teacher_lets_it_in_or_refuses_it(
    pages: list[Page], room: str, teacher: TeacherClient, server: ServerProcess
) -> None:
    seat(pages[:2], room)
    bo = pages[1]
    with pytest.raises(RefusedError, match="No device is asking for Student 1's seat"):
        teacher.student(room, "reseat", "Student 1")
    stranger = Page(server.url)
    stranger.send(t="ask", room=room, name="Student 1")
    assert "open on a connected page" in stranger.until(lambda m: m.get("t") == "refused")["why"]
    bo.close()  # his page is gone: after the grace, his seat may be asked for
    time.sleep(AWAY_GRACE + 0.5)
    stranger.send(t="ask", room=room, name="Student 1")
    asked = stranger.until(lambda m: m.get("t") in ("asking", "refused"))
    assert asked["t"] == "asking" and asked["name"] == "Student 1"
    assert [s["asking"] is not None for s in teacher.status(room)["students"]] == [False, True]
    teacher.student(room, "refuse", "Student 1")
    stranger.send(t="hello", token=asked["token"])
    assert "unknown" in stranger.until(lambda m: m.get("t") == "refused")["why"]
    tablet = Page(server.url)
    tablet.send(t="ask", room=room, name="student 1")
    token = tablet.until(lambda m: m.get("t") == "asking")["token"]
    tablet.send(t="hello", token=token)
    assert "Waiting for the teacher" in tablet.until(lambda m: m.get("t") == "pending")["why"]
    teacher.student(room, "reseat", "Student 1")
    tablet.send(t="hello", token=token)
    welcome = tablet.until(lambda m: m.get("t") in ("welcome", "refused"))
    assert welcome["t"] == "welcome" and welcome["student"] == bo.student and len(welcome["code"]) == 6


def test_the_teacher_hands_a_seat_to_a_bot_and_back_and_every_board_says_so(
    pages: list[Page], room: str, teacher: TeacherClient
) -> None:
    seat(pages[:3], room)
    with pytest.raises(RefusedError, match="no seat at an open Ra table"):
        teacher.student(room, "bot", "Student 0")
    teacher.open_round(room, {"kind": "ra", "group_size": 3})
    views = [p.view(lambda v: v["screen"] == "ra") for p in pages[:3]]
    k = next(i for i, v in enumerate(views) if v["table"]["yours"])
    teacher.student(room, "bot", f"Student {k}")
    shown = [p.view(lambda v: any("a bot plays for now" in n for n in v["table"]["names"])) for p in pages[:3]]
    for v in shown:  # every board marks the seat
        assert f"Student {k}, a bot plays for now" in v["table"]["names"]
    mine = shown[k]["table"]
    assert mine["bot_plays"] and not any(v["table"]["bot_plays"] for i, v in enumerate(shown) if i != k)
    assert [s["bot"] for s in teacher.status(room)["students"]] == [i == k for i in range(3)]
    refused = pages[k].answer(pages[k].send(t="move", table=mine["id"], action="draw", version=mine["ply"]))
    assert refused["t"] == "refused" and "handed your seat to a bot" in refused["why"]
    teacher.student(room, "back", f"Student {k}")
    assert not pages[k].view(lambda v: not v["table"]["bot_plays"])["table"]["bot_plays"]
    with pytest.raises(RefusedError, match="no seat that the teacher handed to a bot"):
        teacher.student(room, "back", f"Student {k}")


@pytest.mark.parametrize("size", [2, 3])
def test_a_class_of_two_or_three_plays_every_kind_of_round(
    size: int, server: ServerProcess, teacher: TeacherClient
) -> None:
    room = teacher.create_room(seed=f"small-class-{size}")
    pages = [Page(server.url) for _ in range(size)]
    for i, p in enumerate(pages):
        p.join(room, f"S{i}")
    for kind in ("first", "second", "allpay", "common"):
        opened = teacher.open_round(room, {"kind": kind, "group_size": 4, "noise": 10 if kind == "common" else 0})
        assert opened["groups"] == 1 and opened["sitting_out"] == []
        assert opened["note"] == f"{size} students here, groups of 4: one group of {size}."
        for p in pages:
            v = bid_view(p, opened["round"])
            assert v["round"]["group_size"] == size and f"Your group has {size}, not 4" in v["round"]["rules"]
            p.answer(p.send(t="bid", round=opened["round"], amount=round(v["round"]["value"] * 0.5, 2)))
        for p in pages:
            assert len(p.view(result_of(opened["round"]))["result"]["group"]) == size
    opened = teacher.open_round(room, {"kind": "ra", "group_size": 3})
    assert len(opened["tables"]) == 1 and ("bots play 1 seat" in opened.get("note", "")) == (size == 2)
    views = [p.view(lambda v: v["screen"] == "ra") for p in pages]
    mover = next(i for i, v in enumerate(views) if v["table"]["yours"])
    t = views[mover]["table"]
    assert (
        pages[mover].answer(pages[mover].send(t="move", table=t["id"], action=t["choices"][0], version=t["ply"]))["t"]
        == "ack"
    )
    teacher.close_round(room)
    assert len({r["round"] for r in teacher.results(room)["bids"]}) == 4


def test_a_latecomer_is_told_the_round_began_before_he_came(
    pages: list[Page], room: str, teacher: TeacherClient
) -> None:
    seat(pages[:2], room)
    teacher.open_round(room, {"kind": "ra", "group_size": 3})
    late = pages[2].join(room, "Late")
    assert late["screen"] == "sitout" and late["sitout"] == "late"


def test_the_projector_counts_without_names_then_shows_the_bids_against_theory(
    pages: list[Page], room: str, teacher: TeacherClient
) -> None:
    seat(pages[:3], room)
    before = teacher.projector(room)
    assert before["round"] is None and before["joined"] == 3 and before["qr"].startswith("<svg")
    assert before["link"].endswith(f"/r/{room}")
    rid = teacher.open_round(room, {"kind": "first", "group_size": 3, "seconds": 60})["round"]
    pages[0].answer(pages[0].send(t="bid", round=rid, amount=bid_view(pages[0], rid)["round"]["value"] / 2 // 1))
    shown = teacher.projector(room)
    assert shown["round"]["bids"] == 1 and shown["round"]["bidders"] == 3 and 0 < shown["round"]["closes_in"] <= 60
    assert "Student" not in json.dumps(shown)  # counts, never names
    teacher.close_round(room)
    after = teacher.projector(room)["round"]
    assert len(after["chart"]["points"]) == 1 and after["chart"]["line"][-1] == [100.0, pytest.approx(100 * 2 / 3)]
    assert after["summary"][0] == "1 of 3 bid, in 1 group." and "theory: 50.00" in after["summary"][1]


def test_a_database_from_before_the_controls_is_upgraded_in_place(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    for backend in ("sqlite", "postgresql"):
        url = database_for(backend, request, tmp_path)
        first = Database(url)
        with first.transaction() as conn:  # the tables as an earlier version made them
            for table, column in (
                ("rooms", "ended_at"),
                ("students", "rejoin_hash"),
                ("students", "removed_at"),
                ("rounds", "paused_at"),
                ("rounds", "excluded"),
                ("ra_seats", "held"),
            ):
                conn.execute(text(f"ALTER TABLE {table} DROP COLUMN {column}"))
            conn.execute(text("INSERT INTO rooms (code, seed, created_at) VALUES ('OLD', 's', 0)"))
        first.close()
        again = Database(url)
        with again.transaction() as conn:
            assert conn.execute(text("SELECT ended_at FROM rooms WHERE code = 'OLD'")).scalar() is None
            assert conn.execute(text("SELECT count(*) FROM rounds WHERE excluded")).scalar() == 0
        again.close()
