"""What the projector shows the class: how many are here and have bid (counts, never names), then the results.

While a round is open, the projector shows its clock and how many of those with a value have
bid; once it is closed, every bid against its value beside what theory predicts (a chart's
points and line, for the page to draw), and a few sentences on the round's outcome. The whole
class sees it: no student is named, except the winner of each Ra table once its round is over.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from sqlalchemy import Connection, func, select

from ..kinds.clocks import ClockKind
from ..kinds.spec import RoundSpec
from . import clocks
from .export import table_rows
from .pages import closes_in
from .rooms import PRESENT_SECONDS
from .schema import assignments, bids, groups, outcomes, read_spec, rooms, rounds, students
from .table_moves import TableCache

__all__ = ["projector"]


def projector(conn: Connection, cache: TableCache, room: str, now: float) -> dict[str, Any]:
    """Return what the projector page of `room` shows now."""
    people = conn.execute(
        select(students.c.last_seen).where(students.c.room == room, students.c.removed_at.is_(None))
    ).all()
    ended = conn.execute(select(rooms.c.ended_at).where(rooms.c.code == room)).scalar()
    out: dict[str, Any] = {
        "room": room,
        "ended": ended is not None,
        "joined": len(people),
        "here": sum(p.last_seen >= now - PRESENT_SECONDS for p in people),
        "round": None,
        "paid": None,
    }
    if ended is not None:  # how many students the end's draw pays (no names, no rounds: each page says his own)
        out["paid"] = conn.execute(
            select(func.count())
            .select_from(students)
            .where(students.c.room == room, students.c.paid_round.is_not(None))
        ).scalar_one()
    r = conn.execute(select(rounds).where(rounds.c.room == room).order_by(rounds.c.number.desc()).limit(1)).first()
    if r is None:
        return out
    spec = read_spec(r.spec)
    info: dict[str, Any] = {
        "number": int(r.number),
        "kind": r.kind,
        "title": spec.title,
        "practice": spec.practice,
        "status": r.status,
        "paused": r.status == "open" and r.paused_at is not None,
        "closes_in": closes_in(r, now),
        "excluded": bool(r.excluded),
    }
    if spec.sealed:
        info["bidders"] = conn.execute(
            select(func.count()).select_from(assignments).where(assignments.c.round_id == r.id)
        ).scalar_one()
        info["bids"] = conn.execute(select(func.count()).select_from(bids).where(bids.c.round_id == r.id)).scalar_one()
        if r.status == "closed":
            info.update(_sealed_results(conn, int(r.id), spec))
        elif isinstance(spec.of, ClockKind):
            info["clock"] = _clock(conn, int(r.id))
    elif r.status != "void":
        info.update(_tables(conn, cache, room, int(r.number)))
    out["round"] = info
    return out


def _clock(conn: Connection, round_id: int) -> dict[str, Any]:
    """Return a clock round's clock for the projector: its price, the groups settled, the bidders still in (English)."""
    settings, states = clocks.group_states(conn, round_id)
    running = [s for s in states.values() if "result" not in s]
    return {
        "kind": settings["kind"],
        "price": settings["now"],
        "tick": settings["sent"],
        "groups": len(states),
        "settled": len(states) - len(running),
        "in": sum(int(s["in"]) for s in running) if settings["kind"] == "english" else None,
    }


def _sealed_results(conn: Connection, round_id: int, spec: RoundSpec) -> dict[str, Any]:
    """Return the chart (every bid against its value, and theory's line) and the sentences of a closed round."""
    rows = conn.execute(
        select(
            assignments.c.group_no,
            assignments.c.value,
            bids.c.amount,
            bids.c.data,
            outcomes.c.won,
            outcomes.c.paid,
            outcomes.c.earnings,
            groups.c.size,
            groups.c.common_value,
        )
        .select_from(
            assignments.join(
                groups, (groups.c.round_id == assignments.c.round_id) & (groups.c.group_no == assignments.c.group_no)
            )
            .outerjoin(
                bids, (bids.c.round_id == assignments.c.round_id) & (bids.c.student_id == assignments.c.student_id)
            )
            .outerjoin(
                outcomes,
                (outcomes.c.round_id == assignments.c.round_id) & (outcomes.c.student_id == assignments.c.student_id),
            )
        )
        .where(assignments.c.round_id == round_id)
    ).all()
    if not rows:
        return {"chart": None, "summary": ["Nobody had a value in this round."]}
    n = Counter(int(x.size) for x in rows).most_common(1)[0][0]
    drawn = spec.of.chart(spec, rows, n)
    return {"chart": None if drawn is None else drawn.to_dict(), "summary": spec.of.summary(spec, rows, n)}


def _tables(conn: Connection, cache: TableCache, room: str, number: int) -> dict[str, Any]:
    """Return a Ra round's tables: how many, how many games are over, and each table's leader or winner."""
    seated = table_rows(conn, cache, room, number)
    tables: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in seated:
        tables[int(row["table"])].append(row)
    lines = []
    for no, rows in sorted(tables.items()):
        best = max(rows, key=lambda x: (x["winner"], x["fame"]))
        if rows[0]["over"]:
            lines.append(f"Table {no}: won by {best['name']} ({best['fame']} fame) after {rows[0]['moves']} moves.")
        else:
            lines.append(f"Table {no}: {rows[0]['moves']} moves so far; the most fame: {best['fame']}.")
    over = sum(rows[0]["over"] for rows in tables.values())
    return {"tables": len(tables), "over": over, "summary": lines}
