"""Clock rounds in the database (`store.clocks`): ticks stored before sent, presses judged, groups settled once.

These run the store's functions in transactions on a SQLite file, without a server: the server
tests play the same rounds through the real websocket.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from ra_classroom.auctions.clock import Clock
from ra_classroom.kinds.spec import RoundSpec
from ra_classroom.store import clocks, rooms, rounds
from ra_classroom.store.database import Database
from ra_classroom.store.refusal import Refusal
from ra_classroom.store.schema import bids, clock_results, outcomes
from ra_classroom.store.schema import rounds as rounds_table
from ra_classroom.store.table_moves import TableCache


class Room:
    """A room of `n` students in one group, with a clock round open (`clock`'s settings, values uniform on [0, 100])."""

    def __init__(self, path: Path, clock: Clock, n: int = 3, seconds: float = 1.0) -> None:
        self.db = Database(str(path))
        self.clock = clock
        spec = RoundSpec.from_dict(
            {
                "kind": clock.kind,
                "group_size": n,
                "start": clock.start,
                "step": clock.step,
                "tick": seconds,
                "grace": clock.grace,
                "away": clock.away,
            }
        )
        with self.db.transaction() as conn:
            self.code = rooms.create_room(conn, 0.0, seed="clock-test")
            self.ids = [rooms.join(conn, self.code, f"S{i}", 0.0).student for i in range(n)]
            self.round = int(rounds.open_round(conn, self.code, spec, TableCache(), 0.0)["round"])

    def run(self, fn: Any, *args: Any) -> Any:
        with self.db.transaction() as conn:
            return fn(conn, *args)

    def tick(self, now: float, connected: tuple[int, ...] | None = None) -> list[dict[str, Any]]:
        with self.db.transaction() as conn:
            rooms.heartbeat(conn, self.ids if connected is None else connected, now)
            _, events = clocks.tick(conn, now, self.ids if connected is None else connected)
            return events

    def press(self, who: int, tick: int, now: float) -> dict[str, Any]:
        with self.db.transaction() as conn:
            done, _ = clocks.press(conn, self.ids[who], self.round, tick, now)
            return dict(done)

    def state(self) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
        with self.db.reading() as conn:
            return clocks.group_states(conn, self.round)


def test_an_english_clock_ticks_takes_drops_and_settles_its_group(tmp_path: Path) -> None:
    room = Room(tmp_path / "c.db", Clock("english", start=0, step=5, end=100, grace=1))
    assert room.tick(0.5) == []  # not due yet: one tick a second
    assert room.tick(1.0) == [{"k": "clock", "round": room.round, "tick": 1}]
    assert room.tick(1.5) == []
    room.tick(2.0)
    assert room.state()[1][0]["tick"] == 2 and room.state()[1][0]["price"] == 10.0
    with pytest.raises(Refusal, match="has not shown tick 3 yet"):
        room.press(0, 3, 2.1)
    assert room.press(0, 2, 2.1) == {"tick": 2, "price": 10.0, "in": 2}
    with pytest.raises(Refusal, match="already dropped out"):
        room.press(0, 2, 2.2)
    room.tick(3.0)
    assert room.press(1, 3, 3.1)["in"] == 1  # one left: decided at tick 3, final once tick 5 is stored
    state = room.state()[1][0]
    assert state["stopped"] and state["tick"] == 3 and "result" not in state
    room.tick(4.0)
    assert "result" not in room.state()[1][0]
    events = room.tick(5.0)
    assert {"k": "room", "room": room.code} in events
    result = room.state()[1][0]["result"]
    assert result["price"] == 15.0 and result["tied"] == [] and "last one in" in result["sentence"]
    with room.db.reading() as conn:
        won = {r.student_id: (r.won, r.price) for r in conn.execute(select(outcomes))}
        assert won[room.ids[2]] == (True, 15.0) and not won[room.ids[0]][0]
        assert conn.execute(select(rounds_table.c.status)).scalar_one() == "closed"
    assert room.tick(6.0) == []  # a closed round's clock stands


def test_a_late_press_within_the_grace_counts_at_its_own_tick(tmp_path: Path) -> None:
    room = Room(tmp_path / "c.db", Clock("dutch", start=100, step=10, end=0, grace=1), n=2)
    for t in range(1, 5):
        room.tick(float(t))
    assert room.press(1, 4, 4.2)["price"] == 60.0
    assert room.press(0, 3, 4.3)["price"] == 70.0  # his page showed tick 3; it arrived after the other's
    room.tick(5.0)
    result = room.state()[1][0]["result"]
    assert (result["price"], result["tick"]) == (70.0, 3)
    slow = Room(tmp_path / "d.db", Clock("dutch", start=100, step=10, end=0, grace=1), n=2)
    for t in range(1, 4):
        slow.tick(float(t))
    with pytest.raises(Refusal, match="more than the 1 allowed"):
        slow.press(0, 1, 3.1)


def test_a_tie_is_drawn_and_told(tmp_path: Path) -> None:
    """Two presses at one tick tie: at the tick being shown (grace 0), or one arriving a tick late (grace 1)."""
    for grace, late in ((0, False), (1, True)):
        room = Room(tmp_path / f"c{grace}.db", Clock("dutch", start=100, step=10, end=0, grace=grace), n=3)
        room.tick(1.0)
        room.press(0, 1, 1.1)
        if late:
            room.tick(2.0)
        room.press(1, 1, 2.1)
        assert "result" not in room.state()[1][0]
        room.tick(3.0)
        room.tick(4.0)
        result = room.state()[1][0]["result"]
        assert sorted(result["tied"]) == sorted(room.ids[:2]) and "draw" in result["sentence"] and result["price"] == 90
        with pytest.raises(Refusal, match="closed"):  # its one group settled: the round closed itself
            room.press(2, 4, 4.1)


def test_an_away_student_is_dropped_out_after_the_ticks_he_was_told(tmp_path: Path) -> None:
    """Away for `away` ticks (3 ticks of 3 s here; and at least `SEEN_SECONDS`), he is dropped out at the tick then."""
    room = Room(tmp_path / "c.db", Clock("english", start=0, step=1, end=100, away=3), n=3, seconds=3.0)
    gone = room.ids[2]
    here = tuple(room.ids[:2])
    for t in range(1, 4):
        room.tick(3.0 * t, here)
    with room.db.reading() as conn:
        assert not conn.execute(select(bids)).all()  # away 3 ticks only: not yet
    room.tick(12.0, here)
    with room.db.reading() as conn:
        (p,) = conn.execute(select(bids)).all()
        assert (p.student_id, p.amount, json.loads(p.data)) == (gone, 4.0, {"tick": 4, "away": True})
    fast = Room(tmp_path / "d.db", Clock("english", start=0, step=1, end=100, away=1), n=3, seconds=1.0)
    for t in range(1, 7):  # one tick away, but a page of his could be on another process: 7 s at least
        fast.tick(float(t), tuple(fast.ids[:2]))
    with fast.db.reading() as conn:
        assert not conn.execute(select(bids)).all()
    fast.tick(8.0, tuple(fast.ids[:2]))
    with fast.db.reading() as conn:
        assert len(conn.execute(select(bids)).all()) == 1


def test_the_teacher_closing_a_clock_settles_it_at_the_tick_reached(tmp_path: Path) -> None:
    room = Room(tmp_path / "c.db", Clock("english", start=0, step=1, end=100), n=3)
    for t in range(1, 8):
        room.tick(float(t))
    room.press(0, 7, 7.1)
    with room.db.transaction() as conn:
        rounds.close_round(conn, room.code, None, 8.0)
    with room.db.reading() as conn:
        (r,) = conn.execute(select(clock_results)).all()
        assert r.price == 7.0 and r.tick == 7 and len(r.tied) > 2 and "stopped" in r.sentence


def test_a_clock_round_takes_no_sealed_bid_and_no_deadline_closes_it(tmp_path: Path) -> None:
    room = Room(tmp_path / "c.db", Clock("dutch", start=100, step=1, end=0))
    with room.db.transaction() as conn, pytest.raises(Refusal, match="you press Buy now"):
        rounds.place_bid(conn, room.ids[0], room.round, {"t": "bid", "amount": 50}, 1.0)
    with room.db.transaction() as conn:
        assert rounds.close_due(conn, 1e9) == []  # the clock ends it, or the teacher
    with pytest.raises(ValueError, match="at or above the values' top"):
        RoundSpec.from_dict({"kind": "dutch", "start": 90})
    with pytest.raises(ValueError, match="tick must be between 0.2 and 60"):
        RoundSpec.from_dict({"kind": "english", "tick": 0.1})
    with pytest.raises(ValueError, match="more than 10,000 ticks"):
        RoundSpec.from_dict({"kind": "english", "step": 0.01, "law": {"law": "uniform", "low": 0, "high": 1000}})


def test_a_paused_clock_stands_still_and_takes_no_press(tmp_path: Path) -> None:
    from ra_classroom.store import controls

    room = Room(tmp_path / "c.db", Clock("english", start=0, step=1, end=100), n=3)
    room.tick(1.0)
    room.run(lambda conn: controls.pause(conn, room.code, 1.5))
    assert room.tick(5.0) == [] and room.state()[1][0]["tick"] == 1
    with pytest.raises(Refusal, match="paused"):
        room.press(0, 1, 5.1)
    room.run(lambda conn: controls.resume(conn, room.code, 6.0))
    assert room.tick(6.0) == [] and room.tick(6.9) == []  # a full tick (1 s) at the price it stood at
    assert room.state()[1][0]["tick"] == 1
    with room.db.reading() as conn:
        assert clocks.due(conn) == [(room.round, 7.0)]
    room.tick(7.0)
    assert room.state()[1][0]["tick"] == 2  # one tick on from where it stood
