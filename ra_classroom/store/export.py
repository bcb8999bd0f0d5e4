"""What the teacher reads: who is here and who has bid, and the results, one row per student and round.

Rows are plain dictionaries, so the server needs no pandas; the control room turns them into
DataFrames (`ra_classroom.teacher.control`), and `csv_text` writes them for a spreadsheet. One row
per student in each closed sealed-bid round (a student who did not bid has an empty bid), and
one per seat of each Ra table.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, select

from .pages import closes_in
from .rooms import MAX_STUDENTS, PRESENT_SECONDS
from .schema import (
    assignments,
    bids,
    groups,
    outcomes,
    paid_outcomes,
    read_spec,
    requests,
    rooms,
    rounds,
    seats,
    students,
    tables,
)
from .table_moves import TableCache, seat_names

__all__ = [
    "BID_COLUMNS",
    "PAID_COLUMNS",
    "TABLE_COLUMNS",
    "bid_columns",
    "bid_rows",
    "csv_text",
    "inert",
    "paid_rows",
    "status",
    "table_rows",
]

#: The columns of the results, in order (CLASSROOM.md's export: one row per bid).
BID_COLUMNS = (
    "room",
    "round",
    "kind",
    "practice",
    "law",
    "law_json",
    "noise",
    "n",
    "group",
    "student",
    "name",
    "value",
    "common_value",
    "bid",
    "won",
    "price",
    "paid",
    "earnings",
    "seconds_to_bid",
)


def bid_columns(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Return the results' columns for `rows`: `BID_COLUMNS`, then those the rows' kinds add, in order of first use."""
    extra: list[str] = []
    for row in rows:
        extra.extend(c for c in row if c not in BID_COLUMNS and c not in extra)
    return [*BID_COLUMNS, *extra]


TABLE_COLUMNS = ("room", "round", "table", "seat", "name", "bot", "fame", "winner", "over", "moves")


def bid_rows(conn: Connection, room: str) -> list[dict[str, Any]]:
    """Return the results of every closed round played in groups, one row per student who had a value.

    Each row has the `BID_COLUMNS`, then the columns its round's kind adds (`Kind.export`).

    Rounds the teacher cancelled or excluded are left out.
    """
    found = conn.execute(
        select(
            rounds.c.number,
            rounds.c.kind,
            rounds.c.spec,
            rounds.c.opened_at,
            assignments.c.group_no,
            assignments.c.student_id,
            students.c.name,
            assignments.c.value,
            groups.c.common_value,
            groups.c.size,
            bids.c.amount,
            bids.c.placed_at,
            bids.c.data,
            outcomes.c.won,
            outcomes.c.price,
            outcomes.c.paid,
            outcomes.c.earnings,
            outcomes.c.data.label("settled"),
        )
        .select_from(
            rounds.join(assignments, assignments.c.round_id == rounds.c.id)
            .join(students, students.c.id == assignments.c.student_id)
            .join(groups, (groups.c.round_id == rounds.c.id) & (groups.c.group_no == assignments.c.group_no))
            .outerjoin(bids, (bids.c.round_id == rounds.c.id) & (bids.c.student_id == assignments.c.student_id))
            .outerjoin(
                outcomes, (outcomes.c.round_id == rounds.c.id) & (outcomes.c.student_id == assignments.c.student_id)
            )
        )
        .where(rounds.c.room == room, rounds.c.status == "closed", rounds.c.excluded.is_(False))
        .order_by(rounds.c.number, assignments.c.group_no, assignments.c.student_id)
    ).all()
    rows = []
    for r in found:
        spec = read_spec(r.spec)
        rows.append(
            {
                "room": room,
                "round": int(r.number),
                "kind": r.kind,
                "practice": spec.practice,
                "law": spec.law.describe(),
                "law_json": json.dumps(spec.law.to_dict()),
                "noise": spec.noise,
                "n": int(r.size),
                "group": int(r.group_no) + 1,
                "student": int(r.student_id),
                "name": r.name,
                "value": r.value,
                "common_value": r.common_value,
                "bid": r.amount,
                "won": bool(r.won),
                "price": r.price,
                "paid": r.paid,
                "earnings": r.earnings,
                "seconds_to_bid": None if r.placed_at is None else round(r.placed_at - r.opened_at, 2),
                **spec.of.export(spec, _loads(r.data), _loads(r.settled)),
            }
        )
    return rows


#: The columns of the paying rounds drawn at the session's end (one row per student paid).
PAID_COLUMNS = ("room", "student", "name", "rounds", "round", "kind", "earnings")


def paid_rows(conn: Connection, room: str) -> list[dict[str, Any]]:
    """Return the round drawn to pay each student at the end of `room`'s session, with his earnings there.

    ``rounds``: how many paid rounds he played (closed, not practice, not excluded), the draw's
    choices. Empty while the session goes on (the draw is made when it ends).
    """
    counted = paid_outcomes(room, outcomes.c.student_id, rounds.c.number, rounds.c.kind, outcomes.c.earnings)
    played: dict[int, dict[int, Any]] = {}
    for o in conn.execute(counted):
        played.setdefault(int(o.student_id), {})[int(o.number)] = o
    people = conn.execute(
        select(students.c.id, students.c.name, students.c.paid_round)
        .where(students.c.room == room, students.c.paid_round.is_not(None))
        .order_by(students.c.id)
    ).all()
    rows = []
    for p in people:
        mine = played.get(int(p.id), {})
        drawn = mine.get(int(p.paid_round))
        if drawn is None:  # the round was excluded since: the draw is made again when the session ends again
            continue
        rows.append(
            {
                "room": room,
                "student": int(p.id),
                "name": p.name,
                "rounds": len(mine),
                "round": int(p.paid_round),
                "kind": drawn.kind,
                "earnings": drawn.earnings,
            }
        )
    return rows


def _loads(text: str | None) -> dict[str, Any] | None:
    """Return a stored JSON column as data (None if empty)."""
    return None if text is None else dict(json.loads(text))


def table_rows(conn: Connection, cache: TableCache, room: str, number: int | None = None) -> list[dict[str, Any]]:
    """Return one row per seat of every Ra table of `room`: who sat there, his fame, and whether he won.

    Rounds the teacher cancelled or excluded are left out, unless one round's `number` is asked for.
    """
    query = (
        select(rounds.c.number, tables.c.id, tables.c.table_no)
        .select_from(rounds.join(tables, tables.c.round_id == rounds.c.id))
        .where(rounds.c.room == room)
        .order_by(rounds.c.number, tables.c.table_no)
    )
    if number is None:
        query = query.where(rounds.c.status != "void", rounds.c.excluded.is_(False))
    else:
        query = query.where(rounds.c.number == number)
    found = conn.execute(query).all()
    rows = []
    for t in found:
        seating = seat_names(conn, int(t.id))
        with cache.game(conn, int(t.id)) as game:
            s, ply = game.state, game.ply
        winner = s.winner() if s.is_terminal() else None
        for q, name in enumerate(seating.names):
            rows.append(
                {
                    "room": room,
                    "round": int(t.number),
                    "table": int(t.table_no) + 1,
                    "seat": q,
                    "name": name,
                    "bot": q in seating.bots,
                    "fame": s.players[q].fame,
                    "winner": winner == q,
                    "over": s.is_terminal(),
                    "moves": ply,
                }
            )
    return rows


def status(conn: Connection, cache: TableCache, room: str, now: float) -> dict[str, Any]:
    """Return the room now: its students, every round, the latest round with who has bid, and its tables.

    A student is present, away or removed, and may have a device asking for his seat (``asking``:
    how many seconds ago) or his Ra seats handed to a bot by the teacher (``bot``).
    """
    people = conn.execute(
        select(students.c.id, students.c.name, students.c.last_seen, students.c.removed_at, students.c.paid_round)
        .where(students.c.room == room)
        .order_by(students.c.id)
    ).all()
    asking = {
        int(a.student_id): float(a.asked_at)
        for a in conn.execute(
            select(requests.c.student_id, requests.c.asked_at)
            .select_from(requests.join(students, students.c.id == requests.c.student_id))
            .where(students.c.room == room)
        )
    }
    held = {
        int(h.student_id)
        for h in conn.execute(
            select(seats.c.student_id)
            .select_from(
                seats.join(tables, tables.c.id == seats.c.table_id).join(rounds, rounds.c.id == tables.c.round_id)
            )
            .where(rounds.c.room == room, rounds.c.status == "open", seats.c.held)
        )
    }
    names = {int(p.id): str(p.name) for p in people}
    ended = conn.execute(select(rooms.c.ended_at).where(rooms.c.code == room)).scalar()
    size = conn.execute(select(rooms.c.size).where(rooms.c.code == room)).scalar()
    played = conn.execute(
        select(rounds.c.number, rounds.c.kind, rounds.c.status, rounds.c.practice, rounds.c.excluded)
        .where(rounds.c.room == room)
        .order_by(rounds.c.number)
    ).all()
    out: dict[str, Any] = {
        "room": room,
        "ended": ended is not None,
        "paid": sum(p.paid_round is not None for p in people),  # students whose paying round the end drew
        "size": size or MAX_STUDENTS,
        "students": [
            {
                "id": int(p.id),
                "name": p.name,
                "present": p.removed_at is None and p.last_seen >= now - PRESENT_SECONDS,
                "removed": p.removed_at is not None,
                "asking": round(now - asking[int(p.id)]) if int(p.id) in asking else None,
                "bot": int(p.id) in held,
            }
            for p in people
        ],
        "rounds": [
            {
                "number": int(r.number),
                "kind": r.kind,
                "status": r.status,
                "practice": bool(r.practice),
                "excluded": bool(r.excluded),
            }
            for r in played
        ],
        "round": None,
        "tables": [],
    }
    r = conn.execute(select(rounds).where(rounds.c.room == room).order_by(rounds.c.number.desc()).limit(1)).first()
    if r is None:
        return out
    spec = read_spec(r.spec)
    info: dict[str, Any] = {
        "id": int(r.id),
        "number": int(r.number),
        "kind": r.kind,
        "title": spec.title,
        "status": r.status,
        "practice": spec.practice,
        "group_size": spec.group_size,
        "closes_in": closes_in(r, now),
        "paused": r.status == "open" and r.paused_at is not None,
        "excluded": bool(r.excluded),
    }
    if spec.sealed:
        given = [
            int(a.student_id)
            for a in conn.execute(select(assignments.c.student_id).where(assignments.c.round_id == r.id))
        ]
        done = {int(b.student_id) for b in conn.execute(select(bids.c.student_id).where(bids.c.round_id == r.id))}
        info["bid"] = sorted(names[s] for s in given if s in done)
        info["waiting"] = sorted(names[s] for s in given if s not in done)
        info["sitting_out"] = sorted(
            n for s, n in names.items() if s not in set(given) and not any(p.id == s and p.removed_at for p in people)
        )
    out["round"] = info
    if not spec.sealed:
        for row in table_rows(conn, cache, room, int(r.number)):
            if row["seat"] == 0:
                out["tables"].append(
                    {"table": row["table"], "seats": [], "fame": [], "over": row["over"], "moves": row["moves"]}
                )
            out["tables"][-1]["seats"].append(row["name"])
            out["tables"][-1]["fame"].append(row["fame"])
    return out


def csv_text(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> str:
    """Return `rows` as CSV text with a header line (empty cells for missing values; text made `inert`)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(columns), extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if row.get(k) is None else inert(row[k]) for k in columns})
    return buffer.getvalue()


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet read a cell as a formula (OWASP)


def inert(value: Any) -> Any:
    """Return `value` as a spreadsheet must show it: text that would start a formula gets a leading quote.

    A student's name such as ``=HYPERLINK(...)`` would otherwise run as a formula in the
    teacher's spreadsheet (CSV injection); numbers stay numbers.

    >>> inert("=1+2"), inert("@SUM(A1)"), inert("-3"), inert("Ann"), inert(-2.5)
    ("'=1+2", "'@SUM(A1)", "'-3", 'Ann', -2.5)
    """
    return "'" + value if isinstance(value, str) and value.startswith(_FORMULA_START) else value
