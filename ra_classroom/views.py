"""What each student's page shows, built from the database: his round, his value, his results, his table.

A view holds the student's own value (or signal) only; the values and bids of the others in
his group appear only in the round's results, after the close. Views carry a few routing
fields (``round``, ``group``, ``table``) that tell the process which events concern the page.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from sqlalchemy import Connection, func, select

from .experiments import RoundSpec
from .ratable import Selection
from .schema import assignments, bids, groups, outcomes, rounds, seats, students, tables
from .tables import TableCache, seat_names

__all__ = ["build_views", "table_view"]


def build_views(conn: Connection, cache: TableCache, ids: Collection[int], now: float) -> dict[int, dict[str, Any]]:
    """Return the page of each student in `ids` (students who do not exist are left out)."""
    out: dict[int, dict[str, Any]] = {}
    latest: dict[str, Any] = {}
    for sid in sorted(ids):
        who = conn.execute(select(students.c.room, students.c.name).where(students.c.id == sid)).first()
        if who is None:
            continue
        room = str(who.room)
        if room not in latest:
            latest[room] = conn.execute(
                select(rounds).where(rounds.c.room == room).order_by(rounds.c.number.desc()).limit(1)
            ).first()
        earned = conn.execute(
            select(func.coalesce(func.sum(outcomes.c.earnings), 0.0))
            .select_from(outcomes.join(rounds, rounds.c.id == outcomes.c.round_id))
            .where(outcomes.c.student_id == sid, rounds.c.practice.is_(False))
        ).scalar_one()
        view: dict[str, Any] = {"t": "view", "student": sid, "name": who.name, "room": room,
                                "earnings": round(float(earned), 2), "screen": "wait", "round": None,
                                "result": None, "table": None, "group": None}  # fmt: skip
        r = latest[room]
        if r is not None:
            _round_part(conn, cache, view, sid, r, now)
        out[sid] = view
    return out


def _round_part(conn: Connection, cache: TableCache, view: dict[str, Any], sid: int, r: Any, now: float) -> None:
    """Fill in the round part of a student's view: his value and bid, his table, or his results."""
    spec = RoundSpec.from_dict(json.loads(r.spec))
    info: dict[str, Any] = {
        "id": int(r.id), "number": int(r.number), "kind": r.kind, "title": spec.title, "rules": spec.rules_text(),
        "practice": spec.practice, "status": r.status, "group_size": spec.group_size, "max_bid": spec.max_bid,
        "law": spec.law.to_dict(), "noise": spec.noise,
        "closes_in": None if r.closes_at is None or r.status != "open" else round(max(0.0, r.closes_at - now), 1),
    }  # fmt: skip
    view["round"] = info
    if spec.kind == "ra":
        seat = conn.execute(
            select(seats.c.table_id).select_from(seats.join(tables, tables.c.id == seats.c.table_id))
            .where(tables.c.round_id == r.id, seats.c.student_id == sid)
        ).first()  # fmt: skip
        if seat is None:
            view["screen"] = "sitout"
            return
        view["table"] = table_view(conn, cache, int(seat.table_id), sid, Selection(), live=r.status == "open")
        view["screen"] = "ra"
        return
    mine = conn.execute(
        select(assignments.c.group_no, assignments.c.value).where(
            assignments.c.round_id == r.id, assignments.c.student_id == sid
        )
    ).first()
    if mine is None:
        view["screen"] = "sitout"
        return
    g = int(mine.group_no)
    view["group"] = g
    own = conn.execute(select(bids.c.amount).where(bids.c.round_id == r.id, bids.c.student_id == sid)).scalar()
    count = conn.execute(
        select(func.count())
        .select_from(bids.join(assignments, (assignments.c.round_id == bids.c.round_id)
                               & (assignments.c.student_id == bids.c.student_id)))
        .where(bids.c.round_id == r.id, assignments.c.group_no == g)
    ).scalar_one()  # fmt: skip
    info.update(value=mine.value, label="Your signal" if spec.kind == "common" else "Your value", your_bid=own,
                bids_in=int(count), group_no=g + 1)  # fmt: skip
    if r.status == "open":
        view["screen"] = "bid"
        return
    view["screen"] = "result"
    view["result"] = _result(conn, int(r.id), g, sid)


def _result(conn: Connection, round_id: int, group: int, sid: int) -> dict[str, Any]:
    """Return a closed round's outcome for a student's group: every member's value, bid and result."""
    rows = conn.execute(
        select(assignments.c.student_id, assignments.c.value, bids.c.amount, outcomes.c.won, outcomes.c.price,
               outcomes.c.paid, outcomes.c.earnings)
        .select_from(
            assignments.outerjoin(bids, (bids.c.round_id == assignments.c.round_id)
                                  & (bids.c.student_id == assignments.c.student_id))
            .outerjoin(outcomes, (outcomes.c.round_id == assignments.c.round_id)
                       & (outcomes.c.student_id == assignments.c.student_id))
        )
        .where(assignments.c.round_id == round_id, assignments.c.group_no == group)
        .order_by(assignments.c.value.desc())
    ).all()  # fmt: skip
    worth = conn.execute(
        select(groups.c.common_value).where(groups.c.round_id == round_id, groups.c.group_no == group)
    ).scalar()
    me = next(x for x in rows if x.student_id == sid)
    return {
        "won": bool(me.won), "earnings": me.earnings, "paid": me.paid, "price": me.price, "common_value": worth,
        "group": [{"you": x.student_id == sid, "value": x.value, "bid": x.amount, "won": bool(x.won)} for x in rows],
    }  # fmt: skip


def table_view(
    conn: Connection, cache: TableCache, table_id: int, sid: int, sel: Selection, *, live: bool
) -> dict[str, Any]:
    """Return the part of a student's page that shows his Ra table, with his choice in progress `sel`."""
    seating = seat_names(conn, table_id)
    seat = seating.seat_of[sid]
    no = conn.execute(select(tables.c.table_no).where(tables.c.id == table_id)).scalar_one()
    with cache.game(conn, table_id) as game:
        part = game.view(seat, seating.shown, seating.bots, live=live, sel=sel)
    part.update(id=table_id, table_no=int(no) + 1, seat=seat, names=seating.shown)
    return part
