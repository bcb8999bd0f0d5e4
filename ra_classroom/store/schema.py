"""The classroom's tables (SQLAlchemy Core): the database is the only shared truth between processes.

Times are seconds since the epoch (floats), amounts are floats rounded to cents. The keys
enforce what must never happen twice, whichever process tries: one bid per student and round
(`bids`), one move per table and ply (`moves`), one open round per room (`one_open_round`).

A database made by an earlier version lacks the columns added since; `upgrade` adds them (each
nullable or with a default), so a class's database from before goes on being used.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.schema import CreateColumn

from ..kinds.spec import RoundSpec
from .names import skeleton

if TYPE_CHECKING:
    from sqlalchemy import ColumnElement, Select

    from ..auctions.settle import Outcome

__all__ = [
    "MAX_ID",
    "ONE_LOOKALIKE",
    "assignments",
    "bids",
    "clock_results",
    "clocks",
    "events",
    "groups",
    "metadata",
    "moves",
    "outcome_rows",
    "outcomes",
    "paid_outcomes",
    "processes",
    "read_spec",
    "requests",
    "rooms",
    "rounds",
    "seat_moves",
    "seats",
    "students",
    "tables",
    "upgrade",
]

metadata = MetaData()

MAX_ID = 2**31 - 1  #: the largest id, round number or ply an INTEGER column holds (on every database)
SKELETON_LENGTH = 200  #: characters: the skeleton of a name of 30 (NFKC may lengthen a character, "ﷺ" to 18)

rooms = Table(
    "rooms",
    metadata,
    Column("code", String(12), primary_key=True),
    Column("seed", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("ended_at", Float),  # the teacher ended the session: the pages say so (None while it runs)
    Column("size", Integer),  # the most students who may join (set by the teacher); None: rooms.MAX_STUDENTS
)

students = Table(
    "students",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room", String(12), ForeignKey("rooms.code"), nullable=False, index=True),
    Column("name", String(40), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("joined_at", Float, nullable=False),
    Column("last_seen", Float, nullable=False),
    Column("rejoin_hash", String(64)),  # the SHA-256 of his id and his short rejoin code (None: none given)
    Column("removed_at", Float),  # the teacher removed him: his seat token no longer opens anything
    Column("paid_round", Integer),  # the round drawn to pay him at the session's end (None: not drawn, or it goes on)
    Column("skeleton", String(SKELETON_LENGTH)),  # what his name looks like (`names.skeleton`): unique in the room
    Column("address", String(64)),  # the network he joined from (`web.limits.network_of`): joins per address
    Column("device_hash", String(64)),  # the SHA-256 of the device token of the device he joined on
    Column("away_since", Float),  # his last page on a process closed then (None: a page of his is connected)
    Column("wrong_codes", Integer, nullable=False, server_default=text("0")),  # wrong rejoin codes typed for his name
    UniqueConstraint("room", "name", name="one_name_per_room"),
)
#: Two processes cannot seat "Ann" and "Аnn" (a Cyrillic A) at once: one skeleton per room.
ONE_LOOKALIKE = Index("one_lookalike_per_room", students.c.room, students.c.skeleton, unique=True)

requests = Table(  # a new device asks for a student's seat; the teacher lets it in (or not)
    "rejoin_requests",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("student_id", Integer, ForeignKey("students.id"), nullable=False, index=True),
    Column("token_hash", String(64), nullable=False, unique=True),  # the seat token the device will hold
    Column("asked_at", Float, nullable=False),
    Column("device", String(80)),  # the device as its browser describes it ("Android phone, Chrome")
    Column("address", String(64)),  # the network it asked from
    Column("by_code", Boolean, nullable=False, server_default=false()),  # it typed his rejoin code: his page may agree
    Column("device_hash", String(64)),  # the SHA-256 of its device token: the seat's device once let in
)

seat_moves = Table(  # every move of a seat to another device: the teacher's panel lists them
    "seat_moves",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("student_id", Integer, ForeignKey("students.id"), nullable=False, index=True),
    Column("at", Float, nullable=False),
    Column("how", String(20), nullable=False),  # "code", "confirmed", "unanswered", "teacher"
    Column("device", String(80)),
    Column("address", String(64)),
)

rounds = Table(
    "rounds",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room", String(12), ForeignKey("rooms.code"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("kind", String(10), nullable=False),
    Column("spec", Text, nullable=False),  # RoundSpec.to_dict() as JSON
    Column("practice", Boolean, nullable=False),
    Column("status", String(8), nullable=False),  # "open", "closed", or "void" (cancelled: nothing counts)
    Column("opened_at", Float, nullable=False),
    Column("closes_at", Float),
    Column("closed_at", Float),
    Column("paused_at", Float),  # paused since then: no bid or move, and the clock stands still
    Column("excluded", Boolean, nullable=False, server_default=false()),  # left out of results and earnings
    UniqueConstraint("room", "number", name="one_number_per_round"),
)
Index(
    "one_open_round",
    rounds.c.room,
    unique=True,
    sqlite_where=rounds.c.status == "open",
    postgresql_where=rounds.c.status == "open",
)

groups = Table(
    "groups",
    metadata,
    Column("round_id", Integer, ForeignKey("rounds.id"), primary_key=True),
    Column("group_no", Integer, primary_key=True),
    Column("size", Integer, nullable=False),
    Column("common_value", Float),
)

assignments = Table(
    "assignments",
    metadata,
    Column("round_id", Integer, ForeignKey("rounds.id"), primary_key=True),
    Column("student_id", Integer, ForeignKey("students.id"), primary_key=True),
    Column("group_no", Integer, nullable=False),
    Column("value", Float, nullable=False),  # the private value, or the signal in a common-value round
)
Index("assignments_by_group", assignments.c.round_id, assignments.c.group_no)

bids = Table(
    "bids",
    metadata,
    Column("round_id", Integer, ForeignKey("rounds.id"), primary_key=True),
    Column("student_id", Integer, ForeignKey("students.id"), primary_key=True),
    Column("amount", Float, nullable=False),
    Column("placed_at", Float, nullable=False),
    Column("data", Text),  # the details of an action that is more than one number, as JSON (its kind's)
)

outcomes = Table(
    "outcomes",
    metadata,
    Column("round_id", Integer, ForeignKey("rounds.id"), primary_key=True),
    Column("student_id", Integer, ForeignKey("students.id"), primary_key=True),
    Column("won", Boolean, nullable=False),
    Column("price", Float, nullable=False),
    Column("paid", Float, nullable=False),
    Column("earnings", Float, nullable=False),
    Column("data", Text),  # what the kind's settlement adds to a student's outcome, as JSON
)

clocks = Table(  # the clock of an English or Dutch round: its settings, and the last tick stored (and sent)
    "clocks",
    metadata,
    Column("round_id", Integer, ForeignKey("rounds.id"), primary_key=True),
    Column("kind", String(10), nullable=False),  # "english" or "dutch"
    Column("start", Float, nullable=False),
    Column("step", Float, nullable=False),
    Column("end_price", Float, nullable=False),  # the top (English) or the floor (Dutch)
    Column("grace", Integer, nullable=False),  # ticks a press may be late and still count at its own tick
    Column("away", Integer, nullable=False),  # English: ticks without a page before a student is dropped out
    Column("seconds", Float, nullable=False),  # seconds per tick
    Column("tick", Integer, nullable=False),  # the last tick stored; a tick is sent only once stored
    Column("at", Float, nullable=False),  # when it was stored (or the round resumed): the next is due `seconds` later
)

clock_results = Table(  # a clock group's result, written once when no press can change it
    "clock_results",
    metadata,
    Column("round_id", Integer, ForeignKey("rounds.id"), primary_key=True),
    Column("group_no", Integer, primary_key=True),
    Column("tick", Integer),  # the deciding tick (None: no sale)
    Column("price", Float, nullable=False),
    Column("winner", Integer),  # None: no sale
    Column("tied", Text, nullable=False),  # JSON list of the students of a draw (empty: none)
    Column("sentence", Text, nullable=False),
    Column("at", Float, nullable=False),
)

tables = Table(
    "ra_tables",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("round_id", Integer, ForeignKey("rounds.id"), nullable=False, index=True),
    Column("table_no", Integer, nullable=False),
    Column("players", Integer, nullable=False),
    Column("seed", String(80), nullable=False),
    Column("ply", Integer, nullable=False),  # moves made so far
    Column("to_move", Integer, nullable=False),  # the seat that decides now; -1 when the game is over
    Column("turn_since", Float, nullable=False),
)

seats = Table(
    "ra_seats",
    metadata,
    Column("table_id", Integer, ForeignKey("ra_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("student_id", Integer, ForeignKey("students.id"), index=True),  # None: a bot's seat
    Column("bot", Boolean, nullable=False),  # a bot plays it now (an empty seat, or an absent student's)
    Column("held", Boolean, nullable=False, server_default=false()),  # the teacher gave it to a bot, until given back
)

moves = Table(
    "ra_moves",
    metadata,
    Column("table_id", Integer, ForeignKey("ra_tables.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),  # -1: chance (a tile from the bag)
    Column("action", String(60), nullable=False),
    Column("at", Float, nullable=False),
)

events = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),  # in commit order: transactions are serial
    Column("origin", String(12), nullable=False),  # the process that made the change
    Column("payload", Text, nullable=False),  # the events as JSON (ids, never values)
    Column("at", Float, nullable=False),
    sqlite_autoincrement=True,  # never an id again, even after the oldest are deleted
)  # SQLite shared by several processes only: how each hears of the others' changes (PostgreSQL: NOTIFY)


processes = Table(
    "processes",
    metadata,
    Column("origin", String(12), primary_key=True),  # a server process's id (`Classroom.origin`)
    Column("pages", Integer, nullable=False),  # the pages connected to it when it last said
    Column("seen_at", Float, nullable=False),
)  # processes sharing one port (``--processes N``): how many pages each holds, to even them out


def upgrade(conn: Connection) -> list[str]:
    """Add to an earlier version's tables the columns added since; return them as ``table.column``.

    Every column added since the first version is nullable or has a default, so adding it keeps
    every row valid. New tables are made by ``metadata.create_all``.
    """
    found = inspect(conn)
    added = []
    for table in metadata.sorted_tables:
        if not found.has_table(table.name):
            continue
        have = {c["name"] for c in found.get_columns(table.name)}
        for column in table.columns:
            if column.name not in have:
                spec = CreateColumn(column).compile(dialect=conn.dialect)
                conn.execute(text(f"ALTER TABLE {table.name} ADD COLUMN {spec}"))
                added.append(f"{table.name}.{column.name}")
    _fill_skeletons(conn)
    ONE_LOOKALIKE.create(conn, checkfirst=True)
    return added


def _fill_skeletons(conn: Connection) -> None:
    """Give every student of an earlier database the skeleton of his name, so that one skeleton per room holds.

    Two students seated before it held (by two processes at once) keep their seats: the later
    one's skeleton gets his id, so the index can be built, and the teacher can rename him.
    """
    rows = conn.execute(
        select(students.c.id, students.c.room, students.c.name)
        .where(students.c.skeleton.is_(None))
        .order_by(students.c.id)
    ).all()
    if not rows:
        return
    taken = {(r.room, r.skeleton) for r in conn.execute(select(students.c.room, students.c.skeleton))}
    for r in rows:
        shape = skeleton(str(r.name))
        if (r.room, shape) in taken:
            shape = f"{shape}#{r.id}"
        taken.add((r.room, shape))
        conn.execute(update(students).where(students.c.id == r.id).values(skeleton=shape))


@functools.lru_cache(maxsize=256)
def read_spec(stored: str) -> RoundSpec:
    """Return a round's settings as its ``spec`` column stores them (each text read once: every bid and view asks)."""
    return RoundSpec.from_dict(json.loads(stored))


def outcome_rows(round_id: int, settled: Iterable[Outcome]) -> list[dict[str, Any]]:
    """Return the rows of `outcomes` that store the outcomes `settled` of round `round_id` (a kind's data as JSON)."""
    return [
        {
            "round_id": round_id,
            "student_id": o.student,
            "won": o.won,
            "price": o.price,
            "paid": o.paid,
            "earnings": o.earnings,
            "data": None if o.data is None else json.dumps(o.data),
        }
        for o in settled
    ]


def paid_outcomes(room: str, *columns: ColumnElement[Any]) -> Select[Any]:
    """Return the query of `columns` of the outcomes of `room`'s paid rounds: closed, not practice, not excluded.

    The rounds that count for a student's pay: the round that pays him at the session's end is drawn among them.
    """
    return (
        select(*columns)
        .select_from(outcomes.join(rounds, rounds.c.id == outcomes.c.round_id))
        .where(
            rounds.c.room == room,
            rounds.c.status == "closed",
            rounds.c.practice.is_(False),
            rounds.c.excluded.is_(False),
        )
    )
