"""One way in for every click at a Ra table: a move and a step of a choice are judged by the one judge.

The round's state (closed, paused, the seat held by a bot) is told to the judge (`ra_core.table.judge`'s
``closed``), so a step is refused for the same reason, in the same words, as a move; and the web
floor holds no SQL and no command of its own. No server: the commands run on a SQLite file.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ra_classroom.game.table import Selection
from ra_classroom.kinds.spec import RoundSpec
from ra_classroom.store import commands, controls, table_moves
from ra_classroom.store.database import Database
from ra_classroom.store.refusal import Refusal
from ra_classroom.store.table_moves import TableCache

from .test_floors import MODULES, targets


class Table:
    """A room of three students at one Ra table, run by the store's commands on a SQLite file."""

    def __init__(self, path: Path) -> None:
        self.db, self.cache = Database(str(path / "class.db")), TableCache()
        room = self.do(lambda conn: commands.create_room(conn, "ONEWAY", "one-way", None, time.time()))
        self.room: str = room
        self.students = [
            self.do(lambda conn, k=k: commands.join(conn, room, f"P{k}", None, time.time())).student for k in range(3)
        ]
        spec = RoundSpec.from_dict({"kind": "ra", "group_size": 3})
        self.table: int = self.do(lambda conn: commands.open_round(conn, self.cache, room, spec, time.time()))[
            "tables"
        ][0]

    def do(self, fn: Any) -> Any:
        """Run a command in one transaction, as the server does; return its result."""
        with self.db.transaction() as conn:
            result, _ = fn(conn)
            staged = table_moves.staged(conn)
        self.cache.installed(staged)
        return result

    def deciding(self) -> tuple[int, int, list[str]]:
        """Return the student who decides now, the board's version, and his legal actions."""
        with self.db.reading() as conn, self.cache.game(conn, self.table) as game:
            seat_of = table_moves.seat_names(conn, self.table).seat_of
            student = next(s for s, seat in seat_of.items() if seat == game.state.to_move)
            return student, game.ply, [str(a) for a in game.state.legal_actions()]

    def move(self, student: int, action: str, version: int) -> int:
        ply: int = self.do(
            lambda conn: commands.move(conn, self.cache, student, self.table, action, version, time.time())
        )
        return ply

    def step(self, student: int, ui: str, version: int) -> dict[str, Any]:
        with self.db.reading() as conn:
            return commands.step(conn, self.cache, student, self.table, version, ui, Selection(), time.time())


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    yield t
    t.db.close()


def refusal(fn: Any) -> str:
    with pytest.raises(Refusal) as refused:
        fn()
    return refused.value.why


def test_a_step_is_refused_while_the_round_is_paused_as_a_move_is(table: Table) -> None:
    student, version, legal = table.deciding()
    table.do(lambda conn: controls.pause(conn, table.room, time.time()))
    said_to_move = refusal(lambda: table.move(student, legal[0], version))
    said_to_step = refusal(lambda: table.step(student, "god", version))
    assert said_to_move == said_to_step == "The teacher has paused the round: wait until it goes on."
    table.do(lambda conn: controls.resume(conn, table.room, time.time()))
    assert table.move(student, legal[0], version) > version


def test_a_step_on_a_seat_held_by_a_bot_says_so_and_not_that_it_is_not_his_turn(table: Table) -> None:
    student, version, _ = table.deciding()
    table.do(lambda conn: commands.on_student(conn, table.cache, table.room, "bot", student, None, time.time()))
    _, now, _ = table.deciding()
    said = refusal(lambda: table.step(student, "god", now))
    assert said == "The teacher has handed your seat to a bot for now: ask to have it back."


def test_a_step_and_a_move_in_a_closed_round_say_the_same(table: Table) -> None:
    student, version, legal = table.deciding()
    table.do(lambda conn: commands.close_round(conn, table.room, None, time.time()))
    assert refusal(lambda: table.step(student, "god", version)) == refusal(
        lambda: table.move(student, legal[0], version)
    )


def test_a_step_is_judged_by_the_same_checks_and_stores_nothing(table: Table) -> None:
    student, version, _ = table.deciding()
    said = refusal(lambda: table.step(student, "pick gold", version))
    assert said.startswith("Gold is not among the tiles you may lose now.")
    assert refusal(lambda: table.step(student, "god", version - 1)).startswith("That click was on an earlier board")
    assert table.deciding()[1] == version


def test_the_web_floor_holds_no_sql_and_runs_the_stores_commands() -> None:
    for name, path in MODULES.items():
        if name.startswith("ra_classroom.web."):
            text = path.read_text()
            assert ".execute(" not in text and not re.search(r"\bselect\(", text), f"{name} runs SQL of its own"
    mine = {t for t in targets(MODULES["ra_classroom.web.classroom"]) if t.startswith("ra_classroom")}
    assert "ra_classroom.store.commands" in mine and len(mine) <= 8, sorted(mine)
