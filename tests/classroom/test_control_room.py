"""The teacher's control room, as the notebook drives it: start, rehearse with simulated students, read results."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from ra_classroom import Behaviour, ControlRoom, RefusedError, Uniform
from ra_classroom.teacher.analysis import bid_ratios, efficiency, revenue, winners_curse, with_theory
from ra_classroom.teacher.monitor import Monitor, monitor_html
from ra_classroom.teacher.plots import bids_against_values, revenue_by_format, winners_curse_plot

FAST = Behaviour(think=(0.0, 0.05))


@pytest.fixture(scope="module")
def room() -> Iterator[ControlRoom]:
    control = ControlRoom.start(seed="control-room-test")
    control.rehearse(8, seed=3, behaviour=FAST)
    yield control
    control.stop()


def run_round(room: ControlRoom, kind: str, **settings: object) -> None:
    room.open_round(kind, **settings)  # type: ignore[arg-type]
    assert room.wait_for_bids(timeout=30) == 8
    room.close_round()


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
    saved = pd.read_csv(room.save_csv(tmp_path / "class.csv"))
    assert len(saved) == 32 and list(saved.columns) == list(df.columns)
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
        assert plot(df).axes


def test_a_ra_round_seats_the_rehearsal_at_tables(room: ControlRoom) -> None:
    opened = room.open_round("ra", group_size=3)
    assert len(opened["tables"]) == 3  # 8 students at tables of 3: 3, 3 and 2 with a bot
    status = room.status()
    assert sorted(len(t["seats"]) for t in status["tables"]) == [3, 3, 3]
    assert sum(t["seats"].count("bot") for t in status["tables"]) == 1
    room.close_round()
    tables = room.tables()
    assert set(tables["name"]) >= {"bot"} and len(tables[tables["round"] == tables["round"].max()]) == 9


def test_refusals_reach_the_teacher_with_their_reason(room: ControlRoom) -> None:
    with pytest.raises(RefusedError, match="No round is open"):
        room.close_round()
    with pytest.raises(RefusedError, match="need 12 students; 8 are here"):
        room.open_round("first", group_size=12)
    real = ControlRoom(room.teacher, room.room, room.address)
    with pytest.raises(RuntimeError, match="rehearsals only"):
        real.rehearse(3)


def test_the_live_panel_escapes_names_and_closes_rounds() -> None:
    status = {
        "room": "AB3CD",
        "students": [{"id": 1, "name": "<script>x</script>", "present": True},
                     {"id": 2, "name": "Bo & Co", "present": False}],
        "round": {"number": 2, "kind": "first", "status": "open", "closes_in": 12.0, "bid": ["<script>x</script>"],
                  "waiting": [], "sitting_out": []},
        "tables": [],
    }  # fmt: skip
    shown = monitor_html(status)
    assert "<script>" not in shown and "&lt;script&gt;x&lt;/script&gt;" in shown and "Bo &amp; Co" in shown
    assert "closes in 12 s" in shown


def test_the_monitor_widget_refreshes_and_its_button_closes_the_round(room: ControlRoom) -> None:
    room.open_round("first", group_size=4)
    panel = room.monitor(every=0.2)
    try:
        assert isinstance(panel, Monitor) and "Waiting for" in panel.html.value
        panel.close.click()
        assert panel.message.value.startswith("Round closed")
        panel.close.click()
        assert "No round is open" in panel.message.value
    finally:
        panel.stop()


def test_a_restarted_control_room_goes_on_in_the_same_room(tmp_path: Path) -> None:
    """A real class (a database of its own): the server and the notebook restart, the room and its students stay."""
    from .pages import Page

    database = str(tmp_path / "class.db")
    first = ControlRoom.start(database=database, room="ra-7")
    try:
        assert first.room == "RA7" and not first.rehearsal
        page = Page(first.teacher.url)
        page.join("ra7", "Ann")
        token = page.token
    finally:
        first.stop()
    again = ControlRoom.start(database=database, room="RA7")
    try:
        assert again.room == "RA7" and [s["name"] for s in again.status()["students"]] == ["Ann"]
        back = Page(again.teacher.url)
        assert back.hello(str(token))["name"] == "Ann"
    finally:
        again.stop()
