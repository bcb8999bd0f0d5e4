"""SQLite's writer and event log: group commit, and the events of processes that share a file.

The commands that wait together commit in one transaction, each in its own savepoint: a refused
command undoes only itself; moves at one table in one batch build on each other; and the table
games they make reach the cache, from which pages are drawn, only once committed. Processes
that share a file read each other's events from its log, in commit order.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, select

from ra_classroom.game.table import TableGame, read_click
from ra_classroom.kinds.spec import RoundSpec
from ra_classroom.store import rooms, rounds, table_moves
from ra_classroom.store.bus import KEEP_SECONDS, EventLog, forget_old_events
from ra_classroom.store.database import Database
from ra_classroom.store.refusal import Refusal
from ra_classroom.store.schema import moves
from ra_classroom.store.schema import rooms as room_rows
from ra_classroom.store.table_moves import TableCache
from ra_classroom.store.writer import Writer


@pytest.fixture
def writer(tmp_path: Path) -> Any:
    db = Database(str(tmp_path / "class.db"))
    w = Writer(db, TableCache())
    yield w
    w.stop()
    db.close()


def slow(conn: Connection) -> str:
    """A command that holds the writer a moment, so that the next ones queue up behind it."""
    time.sleep(0.3)
    return rooms.create_room(conn, 0.0, "SLOW")


def test_commands_waiting_together_commit_at_once_and_a_refusal_undoes_only_itself(writer: Writer) -> None:
    first = writer.submit(slow)
    time.sleep(0.05)  # the writer is busy with it: the rest wait together
    codes = ["AAA", "BBB", "AAA", "CCC"]

    def create(code: str) -> Callable[[Connection], str]:
        return lambda conn: rooms.create_room(conn, 0.0, code)

    waiting = [writer.submit(create(c)) for c in codes]
    assert first.result(10) == "SLOW"
    assert [f.result(10) for k, f in enumerate(waiting) if k != 2] == ["AAA", "BBB", "CCC"]
    with pytest.raises(Refusal, match="exists already"):
        waiting[2].result(10)
    assert (writer.batches, writer.commands) == (2, 5)  # one transaction for the four that waited
    stored = writer.submit(lambda conn: sorted(conn.execute(select(room_rows.c.code)).scalars())).result(10)
    assert stored == ["AAA", "BBB", "CCC", "SLOW"]


def test_moves_at_one_table_in_one_batch_build_on_each_other_and_reach_the_cache_once_committed(
    writer: Writer,
) -> None:
    cache = writer.cache

    def setup(conn: Connection) -> tuple[int, dict[int, int]]:
        code = rooms.create_room(conn, 0.0, "RA3", seed="writer")
        for k in range(3):
            rooms.join(conn, code, f"P{k}", time.time())
        opened = rounds.open_round(conn, code, RoundSpec.from_dict({"kind": "ra", "group_size": 3}), cache, time.time())
        table = opened["tables"][0]
        seat_of = table_moves.seat_names(conn, table).seat_of
        return table, {seat: sid for sid, seat in seat_of.items()}

    def stored_game(conn: Connection) -> TableGame:
        with cache.game(conn, table) as found:
            return found.copy()

    table, student_at = writer.submit(setup).result(10)
    game = writer.submit(stored_game).result(10)
    start = game.ply
    opening = game.state.legal_actions()[0]
    first = game.state.to_move, str(opening)
    game.move(first[0], opening, bots=set())
    second = game.state.to_move, str(game.state.legal_actions()[0])
    cached: list[int] = []

    def move(seat: int, action: str, version: int) -> Any:
        click = read_click({"action": action, "version": version})
        return lambda conn: table_moves.click(conn, cache, student_at[seat], table, click, time.time())[1]

    def peek(conn: Connection) -> None:  # inside the batch, after the first move: the cache holds the committed game
        cached.append(cache._games[table].ply)

    hold = writer.submit(slow)
    time.sleep(0.05)
    batch: list[Future[Any]] = [
        writer.submit(move(*first, start)),
        writer.submit(lambda conn: peek(conn)),
        writer.submit(move(*first, start)),  # the same click again: on an earlier board now, refused
        writer.submit(move(*second, game.ply)),  # the next seat's move, on the board after the first
        writer.submit(lambda conn: peek(conn)),
    ]
    hold.result(10)
    assert batch[0].result(10) == game.ply
    with pytest.raises(Refusal, match="earlier board"):
        batch[2].result(10)
    after = batch[3].result(10)
    assert cached == [start, start]  # an uncommitted move never reached the cache
    stored = writer.submit(lambda conn: conn.execute(select(moves.c.ply).where(moves.c.table_id == table)).all())
    assert len(stored.result(10)) == after
    now = writer.submit(stored_game).result(10)
    assert now.ply == after and now.moves[start] == (first[0], first[1])


def test_processes_sharing_a_file_read_each_others_events_in_order_and_a_gap_refreshes_all(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.db")
    a, b = Database(path, shared=True), Database(path, shared=True)
    heard_by_b, heard_by_a = EventLog("b"), EventLog("a")
    with b.reading() as conn:
        assert heard_by_b.read(conn) == []  # from now on
    with a.reading() as conn:
        assert heard_by_a.read(conn) == []
    with a.writing(), a.transaction() as conn:
        a.announce(conn, [{"k": "table", "table": 1}], "a")
        a.announce(conn, [{"k": "room", "room": "X"}, {"k": "table", "table": 2}], "a")
    with b.writing(), b.transaction() as conn:
        b.announce(conn, [{"k": "table", "table": 3}], "b")
    with b.reading() as conn:
        assert heard_by_b.read(conn) == [
            {"k": "table", "table": 1},
            {"k": "room", "room": "X"},
            {"k": "table", "table": 2},
        ]
        assert heard_by_b.read(conn) == []  # each once
    with a.reading() as conn:
        assert heard_by_a.read(conn) == [{"k": "table", "table": 3}]  # not its own
    with a.writing(), a.transaction() as conn:
        a.announce(conn, [{"k": "table", "table": 4}], "a")
        forget_old_events(conn, time.time() + KEEP_SECONDS + 1)  # b was away longer than the log keeps them
        a.announce(conn, [{"k": "table", "table": 5}], "a")
    with b.reading() as conn:
        assert heard_by_b.read(conn) == [{"k": "all"}]  # so every page of b is drawn again
    a.close()
    b.close()
