"""The hot statements (`store/hot.py`): the same rows as SQLAlchemy's own execution, on SQLite and PostgreSQL.

A hot statement is compiled once per database and run on the driver's cursor; what it finds
must be what SQLAlchemy finds for the same statement, values converted alike (a Boolean is
``True``, not 1), lists of every length, and a unique key's refusal undone alone.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Connection, bindparam, func, insert, select, update

from ra_classroom.kinds.spec import RoundSpec
from ra_classroom.store import commands, pages, rounds, table_moves
from ra_classroom.store import rooms as rooms_of
from ra_classroom.store.database import Database
from ra_classroom.store.hot import Hot, Taken, unless_taken
from ra_classroom.store.names import skeleton
from ra_classroom.store.refusal import Refusal
from ra_classroom.store.schema import bids, rooms, seats, students
from ra_classroom.store.table_moves import TableCache

from .conftest import BACKENDS, database_for

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    found = Database(database_for(request.param, request, tmp_path))
    yield found
    found.close()


def joined(conn: Connection, room: str, name: str, now: float) -> int:
    """Seat a new student named `name` in `room`; return his id."""
    done = commands.join(conn, room, name, None, now)[0]
    assert isinstance(done, rooms_of.Joined)
    return done.student


def same(conn: Connection, hot: Hot, **params: object) -> list[tuple[object, ...]]:
    """Return the rows of `hot`, asserting they are SQLAlchemy's for the same statement and parameters."""
    mine = hot.rows(conn, **params)
    theirs = conn.execute(hot.stmt, params).all()  # type: ignore[call-overload]
    assert [tuple(r) for r in mine] == [tuple(r) for r in theirs]
    assert [[type(v) for v in r] for r in mine] == [[type(v) for v in r] for r in theirs]
    if theirs:
        assert mine[0]._fields == tuple(theirs[0]._fields)
    return [tuple(r) for r in mine]


def test_hot_statements_find_what_sqlalchemy_finds(db: Database) -> None:
    cache, now = TableCache(), time.time()
    with db.transaction() as conn:
        room, _ = commands.create_room(conn, None, "hot", None, now)
        ids = [joined(conn, room, n, now) for n in NAMES]
        rounds.open_round(conn, room, RoundSpec(kind="ra", group_size=4), cache, now)
    with db.transaction() as conn:
        for n in range(1, len(ids) + 1):  # every length of list, in padded slots and not
            assert same(conn, pages._WHO, ids=ids[:n])
        tables = same(conn, table_moves._ROUND_SEATING, round=1, ids=ids)
        assert {r[-2] for r in tables} == {0, 1}  # two tables of the round
        table = int(str(tables[0][0]))
        locked = same(conn, table_moves._LOCKED_SEATS, table=table)
        assert all(type(r[4]) is bool for r in locked)  # a Boolean column is a bool on either database
        assert same(conn, table_moves._BOTS, table=table) == same(conn, table_moves._BOTS, table=table)
        assert same(conn, pages._LATEST, room=room)[0][1] == room  # a LIMIT: a constant of the statement
        for student in {r[2] for r in tables if r[0] == table and r[2] is not None}:  # bots play the table out
            table_moves.hand_to_bot(conn, cache, int(str(student)), now)
        assert len(same(conn, table_moves._MOVES_SINCE, table=table, ply=0)) > 20
        assert same(conn, pages._EARNED, ids=ids) == []
        assert table_moves._MARK.run(conn, table=table, new_ply=0, new_to_move=0, since=now) == 1
        with pytest.raises(ValueError, match="empty"):
            pages._WHO.rows(conn, ids=[])


def test_a_key_refusing_a_row_undoes_that_row_only(db: Database) -> None:
    now = time.time()
    with db.transaction() as conn:
        room, _ = commands.create_room(conn, None, "key", None, now)
        rooms_hot = Hot(insert(rooms).values(code=bindparam("room"), seed="s", created_at=bindparam("when")))
        with unless_taken(conn):
            rooms_hot.run(conn, room="HOTKEY", when=now)
        with pytest.raises(Taken), unless_taken(conn):
            rooms_hot.run(conn, room="HOTKEY", when=now)
        with pytest.raises(Refusal), unless_taken(conn):  # another error is undone too, and goes on up
            rooms_hot.run(conn, room="HOTKEZ", when=now)
            raise Refusal("no")
        found = conn.execute(select(rooms.c.code).where(rooms.c.code.in_(["HOTKEY", "HOTKEZ", room]))).scalars()
        assert sorted(found) == sorted(["HOTKEY", room])  # the transaction went on after the refusals
    with db.transaction() as conn:
        assert conn.execute(select(rooms.c.code).where(rooms.c.code == "HOTKEY")).scalar() == "HOTKEY"


def test_a_second_bid_is_refused_and_the_first_stands(db: Database) -> None:
    cache, now = TableCache(), time.time()
    with db.transaction() as conn:
        room, _ = commands.create_room(conn, None, "bid", None, now)
        ids = [joined(conn, room, n, now) for n in NAMES[:4]]
        info = rounds.open_round(conn, room, RoundSpec(kind="first", group_size=4), cache, now)
    with db.transaction() as conn:
        assert commands.bid(conn, ids[0], info["round"], 12.5, now)[0] == 1
        with pytest.raises(Refusal, match="already"):
            commands.bid(conn, ids[0], info["round"], 30, now)
        assert commands.bid(conn, ids[1], info["round"], 7, now)[0] == 2  # the transaction goes on
    with db.reading() as conn:
        amounts = conn.execute(select(bids.c.student_id, bids.c.amount).order_by(bids.c.student_id)).all()
        assert [tuple(a) for a in amounts] == [(ids[0], 12.5), (ids[1], 7.0)]
        assert conn.execute(select(seats)).all() == []


def test_threads_that_end_give_their_kept_connection_back(tmp_path: Path) -> None:
    db = Database(str(tmp_path / "class.db"))  # SQLite's pool holds 15 connections at most
    try:
        for _ in range(40):  # one reading thread after another, each keeping its connection while it lives
            found: list[object] = []
            thread = threading.Thread(target=_read_rooms, args=(db, found))
            thread.start()
            thread.join(timeout=60)
            assert found == [0]
        with db.glancing() as conn:  # one statement, outside a transaction, and none left open after it
            assert Hot(select(func.count()).select_from(rooms)).scalar(conn) == 0
            conn.execute(select(rooms.c.code)).all()
        assert not conn.in_transaction()
    finally:
        db.close()


def _read_rooms(db: Database, found: list[object]) -> None:
    with db.reading() as conn:
        found.append(len(conn.execute(select(rooms.c.code)).all()))


def test_a_name_finds_its_student_and_one_from_an_earlier_database(db: Database) -> None:
    now = time.time()
    with db.transaction() as conn:
        room, _ = commands.create_room(conn, None, "old", None, now)
        ann = joined(conn, room, "Ann", now)
        shape = skeleton("Ann")
        old = conn.execute(  # seated twice before one skeleton per room held: the later one's holds his id
            insert(students)
            .values(room=room, name="Аnn", skeleton=f"{shape}#x", token_hash="t" * 64, joined_at=now, last_seen=now)
            .returning(students.c.id)
        ).scalar_one()
        assert rooms_of.same_name(conn, room, "ANN").id == ann  # his own skeleton first
        conn.execute(update(students).where(students.c.id == ann).values(name="Bob", skeleton=skeleton("Bob")))
        assert rooms_of.same_name(conn, room, "Ann").id == old  # then the one from an earlier database
        assert rooms_of.same_name(conn, room, "Cy") is None
