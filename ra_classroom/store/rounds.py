"""Rounds: open one (groups or tables, values dealt), take students' actions, close it and settle every group.

What a round of each kind deals, what a student's message stores and how a group settles are
the kind's (`ra_classroom.kinds`): this module stores and reads, in transactions.

Each function runs inside a transaction the caller opens. A bid is checked and stored under a
shared lock on its round's row, and closing takes that row's write lock first, so a bid is
either stored before the close (and settled with the others) or refused as late; whichever
process closes a round, it is settled once (``UPDATE ... WHERE status = 'open'``).
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..auctions.matching import form_tables, round_stream
from ..auctions.settle import Entry
from ..kinds.clocks import ClockKind
from ..kinds.spec import RoundSpec
from . import clocks
from .hot import Hot, Taken, unless_taken
from .refusal import Refusal
from .rooms import present, room_exists
from .schema import assignments, bids, groups, outcome_rows, outcomes, read_spec, rooms, rounds, students, tables
from .schema import clocks as clock_table
from .table_moves import TableCache, create_tables

__all__ = ["close_due", "close_round", "open_round", "place_bid"]

# A bid's statements: compiled once, run on the driver's cursor (`hot`).
_ROUND_SHARED = Hot(  # the round's row, under a shared lock: a close waits for the bid, or the bid sees it closed
    select(rounds.c.status, rounds.c.spec, rounds.c.closes_at, rounds.c.number, rounds.c.paused_at)
    .where(rounds.c.id == bindparam("round"))
    .with_for_update(read=True)
)
_GROUP_OF = Hot(
    select(assignments.c.group_no).where(
        assignments.c.round_id == bindparam("round"), assignments.c.student_id == bindparam("student")
    )
)
_BID = Hot(
    insert(bids).values(
        round_id=bindparam("round"),
        student_id=bindparam("student"),
        amount=bindparam("bid"),
        placed_at=bindparam("when"),
        data=bindparam("details"),
    )
)
_GROUP_BIDS = Hot(
    select(func.count())
    .select_from(
        bids.join(
            assignments, (assignments.c.round_id == bids.c.round_id) & (assignments.c.student_id == bids.c.student_id)
        )
    )
    .where(bids.c.round_id == bindparam("round"), assignments.c.group_no == bindparam("group"))
)


def open_round(conn: Connection, room: str, spec: RoundSpec, cache: TableCache, now: float) -> dict[str, Any]:
    """Open the next round of `room` for the students present; return its id, its groups or tables, who sits out.

    Raises:
        Refusal: no such room, a round is still open, or too few students for one group.
    """
    if not room_exists(conn, room):
        raise Refusal(f"There is no room {room}.")
    current = conn.execute(select(rounds.c.number).where(rounds.c.room == room, rounds.c.status == "open")).first()
    if current is not None:
        raise Refusal(f"Round {current.number} is still open: close it first.")
    here = present(conn, room, now)
    if not here:
        raise Refusal("No student is here yet: wait until they have joined (the panel counts them).")
    least = spec.of.least(spec)
    if len(here) < least:
        raise Refusal(f"A round of this kind needs at least {least} students; {len(here)} is here.")
    number = 1 + (conn.execute(select(func.max(rounds.c.number)).where(rounds.c.room == room)).scalar() or 0)
    seed = conn.execute(select(rooms.c.seed).where(rooms.c.code == room)).scalar_one()
    closes_at = now + spec.seconds if spec.seconds is not None else None
    try:
        with conn.begin_nested():
            round_id = conn.execute(
                insert(rounds)
                .values(
                    room=room,
                    number=number,
                    kind=spec.kind,
                    spec=json.dumps(spec.to_dict()),
                    status="open",
                    practice=spec.practice,
                    opened_at=now,
                    closes_at=closes_at,
                )
                .returning(rounds.c.id)
            ).scalar_one()
    except IntegrityError:  # another process opened a round at the same moment
        raise Refusal("Another round was opened at the same moment: close it first.") from None
    rng = round_stream(seed, number)
    info: dict[str, Any] = {"round": int(round_id), "number": number, "kind": spec.kind, "students": len(here)}
    if not spec.sealed:
        layout = form_tables(here, spec.group_size, rng)
        info["tables"] = create_tables(conn, int(round_id), f"{seed}:{number}", layout, cache, now)
        info["sitting_out"] = []
        bots = sum(seat is None for t in layout for seat in t)
        if bots:
            tables_of = f"{len(layout)} table{'s' if len(layout) > 1 else ''} of {spec.group_size}"
            info["note"] = f"{len(here)} students at {tables_of}: bots play {bots} seat{'s' if bots > 1 else ''}."
    else:
        members, out = spec.of.group(here, spec.group_size, rng)
        dealt, common = spec.of.deal(members, spec, rng)
        conn.execute(
            insert(groups),
            [
                {"round_id": round_id, "group_no": g, "size": len(m), "common_value": common.get(g)}
                for g, m in enumerate(members)
            ],
        )
        conn.execute(
            insert(assignments),
            [{"round_id": round_id, "student_id": a.student, "group_no": a.group, "value": a.value} for a in dealt],
        )
        if isinstance(spec.of, ClockKind):  # its clock starts now, at tick 0
            clocks.start(conn, int(round_id), spec.of.clock(spec), float(spec.options["tick"]), now)
        info["groups"] = len(members)
        info["sitting_out"] = out
        note = _groups_note(len(here), spec.group_size, [len(m) for m in members], len(out))
        if note:
            info["note"] = note
    conn.execute(update(rooms).where(rooms.c.code == room).values(ended_at=None))  # a new round: the session goes on
    conn.execute(update(students).where(students.c.room == room).values(paid_round=None))  # drawn again at its end
    return info


def _groups_note(here: int, size: int, sizes: list[int], out: int) -> str:
    """Return a sentence on groups that are not all of the size asked for (empty if they are)."""
    short = [n for n in sizes if n < size]
    if not short and not out:
        return ""
    said = f"{here} students here, groups of {size}"
    if short:
        said += f": one group of {short[0]}"
    if out:
        said += f"{',' if short else ':'} one student sits this round out (a different one each round)"
    return said + "."


def place_bid(
    conn: Connection, student_id: int, round_id: Any, message: dict[str, Any], now: float
) -> tuple[int, list[dict[str, Any]]]:
    """Store a student's action (a sealed bid, or his kind's own); return how many of his group have acted, and events.

    `message` is the page's message (``bid`` with its ``amount``, or ``act`` with its ``data``):
    the round's kind reads it (`ra_classroom.kinds.base.Kind.act`) into what is stored.

    Raises:
        Refusal: not a round he is bidding in, the round closed or its time is up, a second
            bid, or a message that is no action of the round's kind.
    """
    if isinstance(round_id, bool) or not isinstance(round_id, int):
        raise Refusal("A bid names its round.")
    row = _ROUND_SHARED.first(conn, round=round_id)
    mine = _GROUP_OF.first(conn, round=round_id, student=student_id)
    if row is None or mine is None:
        raise Refusal("You have no value in that round, so no bid to make there.")
    if row.status != "open" or (row.paused_at is None and row.closes_at is not None and now > row.closes_at):
        raise Refusal(f"Round {row.number} is closed: your bid came too late and was not counted.")
    if row.paused_at is not None:
        raise Refusal(f"The teacher has paused round {row.number}: bid when it goes on.")
    spec = read_spec(row.spec)
    try:
        action = spec.of.act(spec, message)
    except ValueError as e:
        raise Refusal(str(e)) from None
    data = None if action.data is None else json.dumps(action.data)
    try:
        with unless_taken(conn):
            _BID.run(conn, round=round_id, student=student_id, bid=action.amount, when=now, details=data)
    except Taken:
        raise Refusal(f"You have bid in round {row.number} already: one bid per round, and it stands.") from None
    count = _GROUP_BIDS.scalar(conn, round=round_id, group=mine.group_no)
    return int(count), [{"k": "group", "round": round_id, "group": int(mine.group_no)}]


def close_round(conn: Connection, room: str, round_id: int | None, now: float) -> dict[str, Any]:
    """Close the open round of `room` (or round `round_id`) and settle every group; return a summary.

    Raises:
        Refusal: no round is open (or that one is closed already).
    """
    query = select(rounds.c.id).where(rounds.c.room == room, rounds.c.status == "open")
    if round_id is not None:
        query = query.where(rounds.c.id == round_id)
    row = conn.execute(query).first()
    if row is None:
        raise Refusal("No round is open." if round_id is None else f"Round {round_id} is not open.")
    if not _close(conn, int(row.id), now):
        raise Refusal("That round was closed a moment ago.")
    return {"round": int(row.id), "events": [{"k": "room", "room": room}]}


def _close(conn: Connection, round_id: int, now: float) -> bool:
    """Close round `round_id` if it is open and settle it; return whether this call closed it."""
    done = conn.execute(
        update(rounds).where(rounds.c.id == round_id, rounds.c.status == "open").values(status="closed", closed_at=now)
    )
    if done.rowcount != 1:
        return False
    r = conn.execute(select(rounds.c.spec, rounds.c.room, rounds.c.number).where(rounds.c.id == round_id)).one()
    spec = read_spec(r.spec)
    if not spec.sealed or clocks.settle_rest(conn, round_id, now):  # a clock settles its groups by its own rules
        return True
    seed = conn.execute(select(rooms.c.seed).where(rooms.c.code == r.room)).scalar_one()
    common = {
        int(g.group_no): g.common_value for g in conn.execute(select(groups).where(groups.c.round_id == round_id))
    }
    rows = conn.execute(
        select(assignments.c.student_id, assignments.c.group_no, assignments.c.value, bids.c.amount, bids.c.data)
        .select_from(
            assignments.outerjoin(
                bids, (bids.c.round_id == assignments.c.round_id) & (bids.c.student_id == assignments.c.student_id)
            )
        )
        .where(assignments.c.round_id == round_id)
        .order_by(assignments.c.group_no, assignments.c.student_id)
    ).all()
    settled = []
    for g in sorted(common):
        mine = [x for x in rows if x.group_no == g]
        entries = [Entry(int(x.student_id), x.value, x.amount) for x in mine]
        details = {int(x.student_id): None if x.data is None else json.loads(x.data) for x in mine}
        rng = round_stream(seed, r.number, f"ties:{g}")
        settled += outcome_rows(round_id, spec.of.settle(spec, entries, details, common[g], rng))
    if settled:
        conn.execute(insert(outcomes), settled)
    return True


_GIVEN = select(func.count()).select_from(assignments).where(assignments.c.round_id == rounds.c.id)
_PLACED = select(func.count()).select_from(bids).where(bids.c.round_id == rounds.c.id)
_PLAYING = select(func.count()).select_from(tables).where(tables.c.round_id == rounds.c.id, tables.c.to_move >= 0)
_CLOCKED = select(func.count()).select_from(clock_table).where(clock_table.c.round_id == rounds.c.id)
_OPEN_ROUNDS = Hot(  # every open round that runs, with what tells whether it is done; every sweep reads it
    select(
        rounds.c.id,
        rounds.c.room,
        rounds.c.kind,
        rounds.c.spec,
        rounds.c.closes_at,
        _GIVEN.scalar_subquery().label("given"),
        _PLACED.scalar_subquery().label("placed"),
        _PLAYING.scalar_subquery().label("playing"),
    ).where(  # a clock round closes itself once its groups are settled (`clocks.tick`)
        rounds.c.status == "open", rounds.c.paused_at.is_(None), _CLOCKED.scalar_subquery() == 0
    )
)


def close_due(conn: Connection, now: float) -> list[dict[str, Any]]:
    """Close every round whose time is up, or that is done (see `RoundSpec.close_when_done`); return the events.

    A paused round waits: its clock stands still and nothing closes it but the teacher.
    """
    due = _OPEN_ROUNDS.rows(conn)
    events = []
    for r in due:
        late = r.closes_at is not None and r.closes_at < now
        spec = read_spec(r.spec)
        done = (r.placed >= r.given > 0) if spec.sealed else r.playing == 0
        wanted = late or (done and spec.close_when_done)
        if wanted and _close(conn, int(r.id), now):
            events.append({"k": "room", "room": str(r.room)})
    return events
