"""The teacher's control room, as the notebook drives it: start, rehearse, hold rounds, read and save results.

It also checks what a teacher meets when something is off: a cell run again finds its own server,
a kernel that restarted finds the server it left running, a busy port and a server that is down
each come back as one sentence saying what to do, and nothing is lost at `stop`.
"""

from __future__ import annotations

import asyncio
import datetime
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from ra_classroom import Behaviour, ControlRoom, RefusedError, Uniform
from ra_classroom.teacher import launch
from ra_classroom.teacher.analysis import bid_ratios, efficiency, revenue, winners_curse, with_theory
from ra_classroom.teacher.client import ClassroomError, ServerDown, TeacherClient
from ra_classroom.teacher.control import Waiting
from ra_classroom.teacher.monitor import Monitor, monitor_html
from ra_classroom.teacher.notes import Note
from ra_classroom.teacher.plots import bids_against_values, revenue_by_format, winners_curse_plot

from .pages import Page

FAST = Behaviour(think=(0.0, 0.05))


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ControlRoom]:
    control = ControlRoom.start(seed="control-room-test", results=tmp_path_factory.mktemp("results"))
    control.rehearse(8, seed=3, behaviour=FAST)
    yield control
    control.stop()


def waited(room: ControlRoom, timeout: float | None = 30) -> str:
    async def main() -> str:
        return await room.wait(timeout)

    return asyncio.run(main())


def run_round(room: ControlRoom, kind: str, **settings: Any) -> None:
    room.open_round(kind, **settings)
    assert "closed; 8 of 8 have bid" in waited(room)  # everyone bid: the round closed itself


def test_a_rehearsal_runs_rounds_and_the_results_come_out_as_a_dataframe(room: ControlRoom, tmp_path: Path) -> None:
    assert room.rehearsal and room.link.endswith(f"/r/{room.room}")
    assert f"Room {room.room}: 8 students joined, 8 here." in room.status_text()
    run_round(room, "first", group_size=4)
    run_round(room, "second", group_size=2, practice=True)
    run_round(room, "allpay", group_size=4, law=Uniform(0, 10))
    run_round(room, "common", group_size=4, noise=10)
    df = room.results()
    assert list(df.groupby("round").size()) == [8, 8, 8, 8]
    assert set(df["kind"]) == {"first", "second", "allpay", "common"}
    assert df.loc[df["kind"] == "allpay", "value"].max() <= 10
    saved = room.save_csv(tmp_path / "class.csv")
    assert saved is not None and list(pd.read_csv(saved).columns) == list(df.columns) and len(pd.read_csv(saved)) == 32
    first = with_theory(df[df["kind"] == "first"])
    ratio = (first["bid"] / first["equilibrium"]).median()
    assert 1.05 < ratio < 1.25  # CRRA r = 0.5, n = 4: bids are 3/3.5 of the value, not 3/4: 8/7 of the line
    assert list(revenue(df)["kind"]) == ["first", "allpay"]  # the practice round is left out ...
    assert list(revenue(df, practice=True)["kind"]) == ["first", "second", "allpay"]  # ... unless asked for
    assert set(efficiency(df)["efficient"]) <= {0.0, 0.5, 1.0}
    curse = winners_curse(df)
    assert list(curse["round"]) == [4, "all"] and list(curse["winners"]) == [2, 2]
    assert list(bid_ratios(df)["round"]) == [1, 3]
    for plot in (bids_against_values, revenue_by_format, winners_curse_plot):
        figure = plot(df)
        assert not isinstance(figure, Note) and figure.axes
        missing = plot(df[df["kind"] == "ra"])  # no round of the kind the plot needs: one sentence, no traceback
        assert isinstance(missing, Note) and "skip this plot" in missing


def test_a_ra_round_seats_the_rehearsal_at_tables(room: ControlRoom) -> None:
    opened = room.open_round("ra", group_size=3)
    assert len(opened["tables"]) == 3 and "bots play 1 seat" in opened["note"]  # 8 at tables of 3: 3, 3, 2 + a bot
    status = room.status()
    assert sorted(len(t["seats"]) for t in status["tables"]) == [3, 3, 3]
    assert sum(t["seats"].count("bot") for t in status["tables"]) == 1
    room.close_round()
    tables = room.tables()
    assert set(tables["name"]) >= {"bot"} and len(tables[tables["round"] == tables["round"].max()]) == 9


def test_a_group_larger_than_the_class_is_one_smaller_group_with_a_note(room: ControlRoom) -> None:
    opened = room.open_round("first", group_size=12, seconds=60)
    assert opened["groups"] == 1 and opened["note"] == "8 students here, groups of 12: one group of 8."
    assert "closed; 8 of 8 have bid" in waited(room)


def test_pause_extend_resume_cancel_and_exclude_from_the_notebook(room: ControlRoom) -> None:
    for sim in room._simulated:  # the simulated students hold back: the round stays open
        for s in sim.students:
            s.quiet = True
    try:
        room.open_round("first", group_size=4, seconds=60)
        assert room.pause().endswith("is paused.")
        left = room.status()["round"]["closes_in"]
        assert room.status()["round"]["paused"] and room.status()["round"]["closes_in"] == left  # the clock stands
        with pytest.raises(RefusedError, match="paused already"):
            room.pause()
        assert room.extend(30).endswith(f"has {left + 30:.0f} s left.")
        assert room.resume().endswith("goes on.")
        assert 80 < room.status()["round"]["closes_in"] <= left + 30
        number = room.status()["round"]["number"]
        assert "cancelled" in room.cancel_round()
        assert room.status()["round"]["status"] == "void" and "cancelled" in room.status_text()
        assert number not in set(room.results()["round"])  # a cancelled round counts nowhere
    finally:
        for sim in room._simulated:
            for s in sim.students:
                s.quiet = False
    first = int(room.results()["round"].min())
    assert room.exclude_round(first) == f"Round {first} is left out of the results."
    assert first not in set(room.results()["round"])
    room.exclude_round(first, excluded=False)
    assert first in set(room.results()["round"])


def test_refusals_reach_the_teacher_as_one_sentence(room: ControlRoom) -> None:
    with pytest.raises(RefusedError, match="No round is open"):
        room.close_round()
    with pytest.raises(RefusedError, match="Nobody in room .* is called Zed"):
        room.remove("Zed")
    real = ControlRoom(room.teacher, room.room, room.address)
    with pytest.raises(ClassroomError, match="rehearsals only"):
        real.rehearse(3)
    assert "await room.wait()" in repr(room.wait())  # a wait not awaited says how to await it
    assert isinstance(room.wait(), Waiting)


def test_the_live_panel_escapes_names_and_shows_requests_and_pauses() -> None:
    status = {
        "room": "AB3CD",
        "students": [
            {"id": 1, "name": "<script>x</script>", "present": True, "asking": 12},
            {"id": 2, "name": "Bo & Co", "present": False, "bot": True},
        ],
        "rounds": [],
        "round": {
            "number": 2,
            "kind": "first",
            "status": "open",
            "paused": True,
            "closes_in": 12.0,
            "bid": ["<script>x</script>"],
            "waiting": [],
            "sitting_out": [],
        },
        "tables": [],
    }
    shown = monitor_html(status)
    assert "<script>" not in shown and "&lt;script&gt;x&lt;/script&gt;" in shown and "Bo &amp; Co" in shown
    assert "12 s left (clock stopped)" in shown and "<b>paused</b>" in shown
    assert "A device asks to be &lt;script&gt;x&lt;/script&gt; (12 s ago)" in shown
    assert "Bots play for: Bo &amp; Co" in shown


def test_the_panel_has_a_line_for_each_device_asking_and_logs_every_move_of_a_seat() -> None:
    status = {
        "room": "AB3CD",
        "students": [
            {"id": 1, "name": "Ana", "present": False, "asking": 3},
            {"id": 2, "name": "<b>Dan</b>", "present": False, "removed": True},
        ],
        "rounds": [],
        "round": None,
        "tables": [],
        "requests": [
            {"request": 7, "name": "Ana", "asked": 9, "device": "Android phone, Chrome", "address": "10.0.0.7"},
            {"request": 8, "name": "Ana", "asked": 3, "device": "Windows computer, Firefox", "address": "10.0.0.9"},
        ],
        "moves": [{"name": "Bo", "ago": 40, "how": "code", "device": "iPhone, Safari", "address": "10.0.0.5"}],
        "addresses": [{"address": "10.0.0.7", "students": 212, "last_minute": 180}],
        "wrong_codes": {"Ana": 5},
    }
    shown = monitor_html(status)
    assert "A device asks to be Ana (9 s ago): Android phone, Chrome, from 10.0.0.7" in shown
    assert "A device asks to be Ana (3 s ago): Windows computer, Firefox, from 10.0.0.9" in shown
    assert shown.count('data-control="reseat" data-request="7"') == 1  # Let in acts on that line's device
    assert shown.count('data-control="reseat" data-request="8"') == 1
    assert "Wrong rejoin codes typed for Ana: 5." in shown
    assert "10.0.0.7: 212 (180 in the last minute)" in shown and 'data-control="burst" data-address="10.0.0.7"' in shown
    assert "Bo, 40 s ago: to iPhone, Safari (10.0.0.5), rejoin code" in shown
    assert "&lt;b&gt;Dan&lt;/b&gt;" in shown and 'data-name="&lt;b&gt;Dan&lt;/b&gt;"' in shown and "<b>Dan" not in shown


def test_the_panels_line_buttons_are_the_notebook_calls(room: ControlRoom) -> None:
    panel = room.monitor(every=60)
    try:
        assert (
            panel.click("reseat", request="999999")[0]
            == "That device no longer asks for a seat (it was let in or refused)."
        )
        assert panel.click("refuse", request="two")[0] == "the device's line must be a number, not 'two'."
        assert panel.click("burst", address="10.9.9.9")[0].startswith(
            f"Nobody in room {room.room} joined from 10.9.9.9"
        )
        assert panel.click("readmit", name="sim01")[0] == "sim01 is not removed: his device may join already."
    finally:
        panel.stop()


def test_the_panel_buttons_are_the_notebook_calls(room: ControlRoom) -> None:
    panel = room.monitor(every=0.2)
    try:
        assert isinstance(panel, Monitor) and room.room in panel.widget.status
        said, _ = panel.click("open", kind="second", size="4", seconds="45", noise="10", practice=False)
        assert said.startswith("Round ") and "is open" in said and panel.message == said
        said, _ = panel.click("close")
        assert said.startswith("Round closed") or "No round is open" in said
        assert panel.click("close")[0] == "No round is open."
        assert panel.click("remove", student="") == ("Choose a student first.", None)
        assert panel.click("rename", student="sim08", to="Sim Eight") == ("sim08 is now Sim Eight.", "Sim Eight")
        assert "Sim Eight" in panel.widget.status and "Sim Eight" in panel.widget.students
        panel.click("rename", student="Sim Eight", to="sim08")
        number = panel.widget.rounds[0][1]
        assert "left out of the results" in panel.click("exclude", round=str(number))[0]
        assert "back in the results" in panel.click("include", round=str(number))[0]
        assert panel.click("exclude", round="")[0] == "Choose a round first."
        assert panel.click("open", kind="first", size="two")[0] == "Group must be a number, not 'two'."
    finally:
        panel.stop()


def test_each_click_acts_on_what_it_carries_never_on_an_earlier_choice(room: ControlRoom) -> None:
    """The page's message carries the form; the kernel keeps nothing of an earlier click's choice."""
    panel = room.monitor(every=60)
    answers: list[dict[str, Any]] = []
    panel.widget.send = answers.append  # what goes back to the page
    try:
        for who in ("sim01", "sim02", "sim03", "sim02"):
            panel._received(panel.widget, {"control": "refuse", "click": len(answers) + 1, "student": who}, [])
            assert "No device is asking for" in answers[-1]["said"] and who in answers[-1]["said"]
            assert answers[-1]["student"] == who and answers[-1]["answer"] == len(answers)
        panel._received(panel.widget, {"control": "rename", "click": 9, "student": "sim03", "to": "Cleo"}, [])
        assert answers[-1] == {"answer": 9, "said": "sim03 is now Cleo.", "student": "Cleo"}
        panel._received(panel.widget, {"control": "rename", "click": 10, "student": "Cleo", "to": "sim03"}, [])
        assert answers[-1]["said"] == "Cleo is now sim03."
        panel._received(panel.widget, {"control": "format the disk", "student": "sim01"}, [])
        panel._received(panel.widget, ["not", "a", "click"], [])
        assert len(answers) == 6  # what is no control is ignored
    finally:
        panel.stop()


def test_stop_saves_the_results_by_room_and_date_and_tells_the_students(tmp_path: Path) -> None:
    control = ControlRoom.start(results=tmp_path / "results", port=_free())  # a rehearsal's server of its own
    page = Page(control.teacher.url)
    page.join(control.room, "Ann")
    Page(control.teacher.url).join(control.room, "Bo")
    opened = control.open_round("first", group_size=2, seconds=30)
    page.view(lambda v: v["screen"] == "bid")
    assert page.answer(page.send(t="bid", round=opened["round"], amount=3))["t"] == "ack"
    said = control.stop()
    name = f"{control.room}-{datetime.date.today().isoformat()}-rehearsal.csv"
    assert f"saved in {tmp_path / 'results' / name}" in said and "session has ended" in said
    assert (tmp_path / "results" / name).read_text().count("\n") == 3  # kept after the rehearsal's database is gone
    assert page.view(lambda v: v["screen"] == "ended")["room"] == control.room
    with pytest.raises(ServerDown, match="does not answer: start it again"):
        control.status()


def test_a_second_room_stops_alone_and_the_server_stops_when_the_teacher_says_so(tmp_path: Path) -> None:
    database, port = str(tmp_path / "class.db"), _free()
    first = ControlRoom.start(database=database, port=port, room="ONE", results=tmp_path)
    second = ControlRoom.start(database=database, port=port, room="TWO", results=tmp_path)
    try:
        assert first.server is not None and second.server is not None
        assert second.server.server is first.server.server  # one server, two rooms
        ann, cy, bo = (Page(first.teacher.url) for _ in range(3))
        ann.join("ONE", "Ann")
        cy.join("ONE", "Cy")
        bo.join("TWO", "Bo")
        said = second.stop()
        assert "The server goes on for room ONE: their stop, or room.shutdown(), stops it." in said
        assert "The server is stopped" not in said
        assert bo.view(lambda v: v["screen"] == "ended")["room"] == "TWO"
        # the first room's class goes on: its pages are still connected and get the next round
        assert [(s["name"], s["present"]) for s in first.status()["students"]] == [("Ann", True), ("Cy", True)]
        assert not first.status()["ended"]
        first.open_round("first", group_size=2, seconds=30)
        ann.view(lambda v: v["screen"] == "bid")
        assert ControlRoom.start(database=database, port=port, room="TWO", results=tmp_path) is not second
        said = first.shutdown()  # the teacher says so: every room this kernel runs ends, then the server
        assert said.startswith("Room TWO: ") and "Room ONE: " in said and said.endswith("The server is stopped.")
        with pytest.raises(ServerDown):
            first.status()
    finally:
        if first.server is not None:
            first.server.stop()


def test_a_cell_run_again_finds_its_server_and_a_restarted_kernel_finds_the_one_it_left(tmp_path: Path) -> None:
    database, port = str(tmp_path / "class.db"), _free()
    first = ControlRoom.start(database=database, port=port, room="ra-7", results=tmp_path)
    try:
        assert first.room == "RA7" and not first.rehearsal
        assert ControlRoom.start(database=database, port=port, room="ra-7", results=tmp_path) is first
        page = Page(first.teacher.url)
        page.join("ra7", "Ann")
        first.teacher.control("RA7", "end")  # yesterday's session ended ...
        launch._RUNNING.clear()  # ... and the kernel restarted, leaving its server running
        from ra_classroom.teacher import control as control_module

        control_module._STARTED.clear()
        again = ControlRoom.start(database=database, port=port, room="RA7", results=tmp_path)
        assert again.teacher.url == first.teacher.url and again.teacher.secret == first.teacher.secret
        assert [s["name"] for s in again.status()["students"]] == ["Ann"]
        assert not again.status()["ended"]  # the class goes on in the same room
    finally:
        first.stop()
    assert not (tmp_path / "class.db.server.json").exists()
    back = ControlRoom.start(database=database, port=port, room="RA7", results=tmp_path)  # a new server, same room
    try:
        assert Page(back.teacher.url).hello(str(page.token))["name"] == "Ann"
    finally:
        back.stop()


def test_a_class_on_two_processes_with_a_room_of_its_size(tmp_path: Path) -> None:
    """`start(processes=2, size=...)`: both server processes answer, the room takes its size and no more."""
    database, port = str(tmp_path / "class.db"), _free()
    control = ControlRoom.start(database=database, port=port, room="BIG", results=tmp_path, processes=2, size=3)
    try:
        assert control.server is not None and control.server.server.processes == 2
        pages = [Page(control.teacher.url) for _ in range(4)]
        for page, name in zip(pages[:3], ("Ann", "Bo", "Cy"), strict=True):
            page.join("big", name)
        pages[3].send(t="join", room="big", name="Di")
        assert "is full (3 students): ask your teacher" in pages[3].until(lambda m: m.get("t") == "refused")["why"]
        assert str(control.set_size(4)) == "Room BIG takes at most 4 students (3 are in)."
        assert pages[3].join("big", "Di")["name"] == "Di"
        assert ControlRoom.start(database=database, port=port, room="BIG", results=tmp_path, processes=2) is control
        assert control.status()["size"] == 4 and len(control.status()["students"]) == 4
    finally:
        control.stop()
    assert not (tmp_path / "class.db.server.json").exists()


def test_a_port_taken_by_another_program_is_one_sentence(tmp_path: Path) -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        with pytest.raises(ClassroomError, match=f"Port {port} is taken by another program.*CLASS_PORT={port + 1}"):
            ControlRoom.start(database=str(tmp_path / "class.db"), port=port)


def test_a_server_that_is_down_is_one_sentence() -> None:
    client = TeacherClient(f"http://127.0.0.1:{_free()}", "a-secret-that-is-long-enough")
    with pytest.raises(ServerDown, match="does not answer"):
        client.status("ABC")
    assert Note("Round 2 is paused.").__repr__() == "Round 2 is paused."


def _free() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
