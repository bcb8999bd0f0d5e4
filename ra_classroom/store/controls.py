"""The teacher's hold on a running round and on the session: pause, resume, extend, cancel, exclude, end.

Every control is one transaction on the round's row, taken under its write lock, so a bid or a
move is either before it or after it. A paused round takes no bid and no move, and its clock
stands still (the time left is kept and given back at `resume`). A cancelled round ends with
nothing settled and counts nowhere (status ``void``); an excluded round was played and stays
stored, but is left out of the results and of the students' earnings, until included again.
Ending the session draws the round that pays each student (`auctions.paying`) and records it.
Each function returns a summary and the events to send.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from sqlalchemy import Connection, select, update

from ..auctions.paying import paid_round
from . import clocks
from .refusal import Refusal
from .rounds import close_round
from .schema import MAX_ID, outcomes, paid_outcomes, rooms, rounds, students

__all__ = ["cancel", "end_session", "exclude", "extend", "pause", "resume"]

MAX_EXTEND = 3600.0  #: seconds: the most one extension adds


def _open(conn: Connection, room: str) -> Any:
    """Return the room's open round, its row locked; raise Refusal if none is open."""
    row = conn.execute(
        select(rounds.c.id, rounds.c.number, rounds.c.closes_at, rounds.c.paused_at)
        .where(rounds.c.room == room, rounds.c.status == "open")
        .with_for_update()
    ).first()
    if row is None:
        raise Refusal("No round is open.")
    return row


def _room(room: str) -> list[dict[str, Any]]:
    return [{"k": "room", "room": room}]


def pause(conn: Connection, room: str, now: float) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Pause the open round: no bid, no move, the clock stopped.

    Raises:
        Refusal: no round open, or paused already.
    """
    r = _open(conn, room)
    if r.paused_at is not None:
        raise Refusal(f"Round {r.number} is paused already: resume it to go on.")
    conn.execute(update(rounds).where(rounds.c.id == r.id).values(paused_at=now))
    return {"round": int(r.id), "number": int(r.number), "paused": True}, _room(room)


def resume(conn: Connection, room: str, now: float) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Let the paused round go on, with the time it had left when it was paused; a clock waits a full tick.

    Raises:
        Refusal: no round open, or not paused.
    """
    r = _open(conn, room)
    if r.paused_at is None:
        raise Refusal(f"Round {r.number} is not paused.")
    closes = None if r.closes_at is None else r.closes_at + (now - r.paused_at)
    conn.execute(update(rounds).where(rounds.c.id == r.id).values(paused_at=None, closes_at=closes))
    clocks.resumed(conn, int(r.id), now)
    return {"round": int(r.id), "number": int(r.number), "paused": False}, _room(room)


def extend(conn: Connection, room: str, seconds: Any, now: float) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Give the open round `seconds` more (from its deadline, or from now if the time was up); return the time left.

    Raises:
        Refusal: no round open, a round without a deadline, or not a number of seconds.
    """
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not math.isfinite(seconds):
        raise Refusal("Extend by a number of seconds, like 30.")
    if not 1 <= seconds <= MAX_EXTEND:
        raise Refusal(f"Extend by 1 to {MAX_EXTEND:g} seconds, not {seconds:g}.")
    r = _open(conn, room)
    if r.closes_at is None:
        raise Refusal(f"Round {r.number} has no deadline: it runs until you close it.")
    clock = r.paused_at if r.paused_at is not None else now  # a paused round's clock stands at the pause
    closes = max(r.closes_at, clock) + float(seconds)
    conn.execute(update(rounds).where(rounds.c.id == r.id).values(closes_at=closes))
    left = round(closes - clock, 1)
    return {"round": int(r.id), "number": int(r.number), "closes_in": left}, _room(room)


def cancel(conn: Connection, room: str, now: float) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Cancel the open round: it ends at once, nothing is settled, and it counts nowhere.

    Raises:
        Refusal: no round open.
    """
    r = _open(conn, room)
    conn.execute(update(rounds).where(rounds.c.id == r.id).values(status="void", closed_at=now, paused_at=None))
    return {"round": int(r.id), "number": int(r.number), "cancelled": True}, _room(room)


def exclude(
    conn: Connection, room: str, number: Any, excluded: Any = True
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Leave round `number` out of the results and the earnings (or, with `excluded` False, count it again).

    Raises:
        Refusal: no such round, a round still open, or a cancelled one.
    """
    if isinstance(number, bool) or not isinstance(number, int):
        raise Refusal("Name the round by its number, like 3.")
    if not isinstance(excluded, bool):
        raise Refusal("excluded is true or false.")
    if not 0 < number <= MAX_ID:
        raise Refusal(f"Room {room} has no round {str(number)[:20]}.")
    r = conn.execute(
        select(rounds.c.id, rounds.c.status).where(rounds.c.room == room, rounds.c.number == number).with_for_update()
    ).first()
    if r is None:
        raise Refusal(f"Room {room} has no round {number}.")
    if r.status == "open":
        raise Refusal(f"Round {number} is still open: close it (or cancel it) first.")
    if r.status == "void":
        raise Refusal(f"Round {number} was cancelled: it counts nowhere already.")
    conn.execute(update(rounds).where(rounds.c.id == r.id).values(excluded=excluded))
    return {"round": int(r.id), "number": number, "excluded": excluded}, _room(room)


def end_session(
    conn: Connection, room: str, now: float, ended: Any = True
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """End the session: an open round is closed and settled, each student's paying round drawn, every page told.

    Each student who played a paid round (closed, not practice, not excluded) is paid by one of
    them, drawn at random (`auctions.paying.paid_round`, seeded by the room's code: ended again,
    the same rounds) and recorded; his page and the results' ``payments`` say which. The room
    stays: with `ended` False (or by opening a round) the session goes on, and the draw is undone
    until it ends again.

    Raises:
        Refusal: `ended` is not true or false.
    """
    if not isinstance(ended, bool):
        raise Refusal("ended is true or false.")
    events = _room(room)
    closed = None
    if ended and conn.execute(select(rounds.c.id).where(rounds.c.room == room, rounds.c.status == "open")).first():
        info = close_round(conn, room, None, now)
        closed, events = info["round"], info["events"]
    conn.execute(update(rooms).where(rooms.c.code == room).values(ended_at=now if ended else None))
    drawn = _draw_paid_rounds(conn, room) if ended else _undo_paid_rounds(conn, room)
    return {"room": room, "ended": ended, "closed": closed, "paid": drawn}, events


def _draw_paid_rounds(conn: Connection, room: str) -> int:
    """Draw and record the round that pays each student of `room` who played a paid round; return how many."""
    played: dict[int, list[int]] = defaultdict(list)
    for o in conn.execute(paid_outcomes(room, outcomes.c.student_id, rounds.c.number)):
        played[int(o.student_id)].append(int(o.number))
    _undo_paid_rounds(conn, room)
    for student, numbers in sorted(played.items()):
        chosen = paid_round(room, student, numbers)
        conn.execute(update(students).where(students.c.id == student).values(paid_round=chosen))
    return len(played)


def _undo_paid_rounds(conn: Connection, room: str) -> int:
    """Forget the paying rounds drawn in `room` (the session goes on); return 0."""
    conn.execute(update(students).where(students.c.room == room).values(paid_round=None))
    return 0
