"""What each student's page shows, built from the database: his round, his value, his results, his table.

A view holds the student's own value (or signal) only; the values and bids of the others in
his group appear only in the round's results, after the close. Views carry a few routing
fields (``round``, ``group``, ``table``) that tell the process which events concern the page.

Views are built in batches (every page an event concerns, at once), with a few queries per
batch rather than per page: a move at a table of four redraws four boards from one replay.
"""

from __future__ import annotations

import dataclasses
import json
from collections import defaultdict
from collections.abc import Collection
from typing import Any

from sqlalchemy import BindParameter, Connection, Row, bindparam, func, select

from ..game.table import Selection
from ..kinds.clocks import ClockKind
from ..kinds.spec import RoundSpec
from . import clocks
from .hot import Hot
from .schema import assignments, bids, groups, outcomes, read_spec, rooms, rounds, students
from .table_moves import Seating, TableCache, seat_names, seatings

__all__ = ["build_views", "closes_in", "table_view"]

_BID_GROUP = bids.join(
    assignments, (assignments.c.round_id == bids.c.round_id) & (assignments.c.student_id == bids.c.student_id)
)
# The statements of every batch of views: compiled once, run on the driver's cursor (`hot`).
_IDS: BindParameter[int] = bindparam("ids", expanding=True)
_ROUND: BindParameter[int] = bindparam("round")
_WHO = Hot(
    select(students.c.id, students.c.room, students.c.name, students.c.joined_at, rooms.c.ended_at)
    .select_from(students.join(rooms, rooms.c.code == students.c.room))
    .where(students.c.id.in_(_IDS)),
    lists=["ids"],
)
_EARNED = Hot(
    select(outcomes.c.student_id, func.sum(outcomes.c.earnings))
    .select_from(outcomes.join(rounds, rounds.c.id == outcomes.c.round_id))
    .where(outcomes.c.student_id.in_(_IDS), rounds.c.practice.is_(False), rounds.c.excluded.is_(False))
    .group_by(outcomes.c.student_id),
    lists=["ids"],
)
_LATEST = Hot(select(rounds).where(rounds.c.room == bindparam("room")).order_by(rounds.c.number.desc()).limit(1))
_DEALT = Hot(
    select(assignments.c.student_id, assignments.c.group_no, assignments.c.value, groups.c.size)
    .select_from(
        assignments.join(
            groups, (groups.c.round_id == assignments.c.round_id) & (groups.c.group_no == assignments.c.group_no)
        )
    )
    .where(assignments.c.round_id == _ROUND, assignments.c.student_id.in_(_IDS)),
    lists=["ids"],
)
_OWN_BIDS = Hot(
    select(bids.c.student_id, bids.c.amount).where(bids.c.round_id == _ROUND, bids.c.student_id.in_(_IDS)),
    lists=["ids"],
)
_COUNTS = Hot(
    select(assignments.c.group_no, func.count())
    .select_from(_BID_GROUP)
    .where(bids.c.round_id == _ROUND)
    .group_by(assignments.c.group_no)
)


def build_views(conn: Connection, cache: TableCache, ids: Collection[int], now: float) -> dict[int, dict[str, Any]]:
    """Return the page of each student in `ids` (students who do not exist are left out)."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    who = _WHO.rows(conn, ids=wanted)
    earned = dict(_EARNED.rows(conn, ids=wanted))
    out: dict[int, dict[str, Any]] = {}
    by_room: dict[str, list[int]] = defaultdict(list)
    ended = {str(w.room) for w in who if w.ended_at is not None}
    joined = {int(w.id): float(w.joined_at) for w in who}
    for w in who:
        sid = int(w.id)
        by_room[str(w.room)].append(sid)
        out[sid] = {
            "t": "view",
            "student": sid,
            "name": w.name,
            "room": w.room,
            "earnings": round(float(earned.get(sid) or 0.0), 2),
            "screen": "wait",
            "round": None,
            "result": None,
            "table": None,
            "group": None,
            "sitout": None,
        }
    for room, members in by_room.items():
        r = _LATEST.first(conn, room=room)
        if r is not None:
            spec = read_spec(r.spec)
            info = _round_info(r, spec, now)
            for sid in members:
                out[sid]["round"] = dict(info)
            if r.status == "void":
                pass  # cancelled: every page waits for the next round, and says why
            elif not spec.sealed:
                _tables_part(conn, cache, out, members, r)
            else:
                _sealed_part(conn, out, members, r, spec)
            for sid in members:
                if out[sid]["screen"] == "sitout":
                    out[sid]["sitout"] = "late" if joined[sid] > r.opened_at else spec.kind
        if room in ended:
            paid = _paid(conn, members)
            for sid in members:
                out[sid]["screen"] = "ended"
                out[sid]["paid"] = paid.get(sid)
    return out


def _paid(conn: Connection, members: list[int]) -> dict[int, dict[str, Any]]:
    """Return the round drawn to pay each of `members` at the session's end: its number, title and his earnings."""
    found = conn.execute(
        select(students.c.id, rounds.c.number, rounds.c.spec, outcomes.c.earnings)
        .select_from(
            students.join(rounds, (rounds.c.room == students.c.room) & (rounds.c.number == students.c.paid_round)).join(
                outcomes, (outcomes.c.round_id == rounds.c.id) & (outcomes.c.student_id == students.c.id)
            )
        )
        .where(students.c.id.in_(members))
    ).all()
    return {
        int(f.id): {"round": int(f.number), "title": read_spec(f.spec).title, "earnings": f.earnings} for f in found
    }


def closes_in(r: Row[Any], now: float) -> float | None:
    """Return the seconds round `r` has left (standing still while it is paused), or None without a deadline."""
    if r.closes_at is None or r.status != "open":
        return None
    clock = r.paused_at if r.paused_at is not None else now
    return round(max(0.0, float(r.closes_at) - float(clock)), 1)


def _round_info(r: Row[Any], spec: RoundSpec, now: float) -> dict[str, Any]:
    """Return what every page of the room shows about round `r`."""
    return {
        "id": int(r.id),
        "number": int(r.number),
        "kind": r.kind,
        "title": spec.title,
        "rules": spec.rules_text(),
        "practice": spec.practice,
        "status": r.status,
        "group_size": spec.group_size,
        "max_bid": spec.max_bid,
        "law": spec.law.to_dict(),
        "noise": spec.noise,
        "closes_in": closes_in(r, now),
        "paused": r.status == "open" and r.paused_at is not None,
    }


def _tables_part(
    conn: Connection, cache: TableCache, out: dict[int, dict[str, Any]], members: list[int], r: Any
) -> None:
    """Fill in the tables of a Ra round: each table replayed once, each seat's board drawn from it."""
    for sid in members:
        out[sid]["screen"] = "sitout"
    wanted = set(members)
    for table_id, seating in seatings(conn, int(r.id), members).items():  # one query for every table's seats
        sids = [sid for sid in seating.seat_of if sid in wanted]
        live, paused = r.status == "open", r.paused_at is not None
        parts = _table_parts(conn, cache, table_id, sids, live=live, paused=paused, seating=seating)
        for sid, part in parts.items():
            out[sid]["table"] = part
            out[sid]["screen"] = "ra"


def _table_parts(
    conn: Connection,
    cache: TableCache,
    table_id: int,
    sids: list[int],
    *,
    live: bool,
    sel: Selection | None = None,
    paused: bool = False,
    seating: Seating | None = None,
) -> dict[int, dict[str, Any]]:
    """Return the table part of the page of each student in `sids`, all seated at table `table_id` (`seating`)."""
    seating = seating or seat_names(conn, table_id)
    parts = {}
    with cache.game(conn, table_id, seating.ply) as game:
        for sid in sids:
            seat = seating.seat_of[sid]
            part = game.view(seat, seating.shown, seating.bots, live=live, sel=sel or Selection(), paused=paused)
            part.update(
                id=table_id,
                table_no=seating.table_no + 1,
                seat=seat,
                names=seating.shown,
                bot_plays=seat in seating.bots,
            )
            parts[sid] = part
    return parts


def _sealed_part(conn: Connection, out: dict[int, dict[str, Any]], members: list[int], r: Any, spec: RoundSpec) -> None:
    """Fill in a sealed-bid round: each student's value, bid and group count, or his group's results."""
    mine = {int(a.student_id): a for a in _DEALT.rows(conn, round=r.id, ids=members)}
    own = dict(_OWN_BIDS.rows(conn, round=r.id, ids=members))
    counts: dict[int, int] = dict(_COUNTS.rows(conn, round=r.id))
    settings, states = clocks.group_states(conn, int(r.id)) if isinstance(spec.of, ClockKind) else ({}, {})
    over = {int(a.group_no) for a in mine.values() if r.status != "open" or "result" in states.get(int(a.group_no), {})}
    results = _results(conn, int(r.id), over) if over else {}
    for sid in members:
        view, a = out[sid], mine.get(sid)
        if a is None:
            view["screen"] = "sitout"
            continue
        g, size = int(a.group_no), int(a.size)
        view["group"] = g
        view["round"].update(spec.of.page(spec, a.value))
        view["round"].update(
            value=a.value,
            your_bid=own.get(sid),
            bids_in=int(counts.get(g, 0)),
            group_no=g + 1,
            group_size=size,
        )
        if size != spec.group_size:  # a smaller group: its rules say so
            view["round"]["rules"] = dataclasses.replace(spec, group_size=size).rules_text() + (
                f" (Your group has {size}, not {spec.group_size}: the class did not fill every group.)"
            )
        if settings:  # a clock: its price now, and the group's count still in (English), never a name
            view["round"]["clock"] = {**settings, **states[g]}
        if g not in over:
            view["screen"] = "clock" if settings else "bid"
        else:
            view["screen"] = "result"
            view["result"] = _result_for(results[g], sid)
            told = states.get(g, {}).get("result")
            if told is not None:  # a clock's group: the sentence it is told, and whether he was in its draw
                view["result"].update(sentence=told["sentence"], draw=sid in told["tied"])


def _results(conn: Connection, round_id: int, wanted: set[int]) -> dict[int, tuple[list[Any], float | None]]:
    """Return, for each group in `wanted`, its members' values, bids and outcomes, and its common value."""
    rows = conn.execute(
        select(
            assignments.c.group_no,
            assignments.c.student_id,
            assignments.c.value,
            bids.c.amount,
            outcomes.c.won,
            outcomes.c.price,
            outcomes.c.paid,
            outcomes.c.earnings,
            outcomes.c.data,
        )
        .select_from(
            assignments.outerjoin(
                bids, (bids.c.round_id == assignments.c.round_id) & (bids.c.student_id == assignments.c.student_id)
            ).outerjoin(
                outcomes,
                (outcomes.c.round_id == assignments.c.round_id) & (outcomes.c.student_id == assignments.c.student_id),
            )
        )
        .where(assignments.c.round_id == round_id, assignments.c.group_no.in_(sorted(wanted)))
        .order_by(assignments.c.value.desc())
    ).all()
    worth = dict(
        conn.execute(
            select(groups.c.group_no, groups.c.common_value).where(
                groups.c.round_id == round_id, groups.c.group_no.in_(sorted(wanted))
            )
        ).all()
    )
    found: dict[int, tuple[list[Any], float | None]] = {g: ([], worth.get(g)) for g in wanted}
    for x in rows:
        found[int(x.group_no)][0].append(x)
    return found


def _result_for(group: tuple[list[Any], float | None], sid: int) -> dict[str, Any]:
    """Return a closed round's outcome as student `sid` sees it: his own, and his group's values and bids."""
    rows, worth = group
    me = next(x for x in rows if x.student_id == sid)
    return {
        "won": bool(me.won),
        "earnings": me.earnings,
        "paid": me.paid,
        "price": me.price,
        "common_value": worth,
        "details": None if me.data is None else json.loads(me.data),
        "group": [{"you": x.student_id == sid, "value": x.value, "bid": x.amount, "won": bool(x.won)} for x in rows],
    }


def table_view(
    conn: Connection, cache: TableCache, table_id: int, sid: int, sel: Selection, *, live: bool
) -> dict[str, Any]:
    """Return the part of a student's page that shows his Ra table, with his choice in progress `sel`."""
    return _table_parts(conn, cache, table_id, [sid], live=live, sel=sel)[sid]
