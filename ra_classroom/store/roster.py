"""The teacher's roster: rename or remove a student, and let a student back into his seat from a new device.

A student on a new device (or after clearing his browser) gets his seat back with his rejoin
code (`rooms.join`), or by asking the teacher: the device asks for the seat of a name
(`ask`), holding a seat token of its own that opens nothing yet; the teacher lets it in
(`reseat`), and from then on that token is the seat's and the old device's opens nothing; or
refuses (`refuse`). A removed student's token opens nothing, and his name cannot be joined
again. Each function runs inside a transaction the caller opens and returns the events to send;
``{"k": "leave", ...}`` closes the pages a student has open (`ra_classroom.web.hub`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from .refusal import Refusal
from .rooms import clean_name, room_code, room_exists, same_name
from .schema import MAX_ID, requests, students
from .table_moves import TableCache, hand_to_bot
from .tokens import new_rejoin_code, new_secret, rejoin_hash, token_hash

__all__ = ["Pending", "ask", "find", "new_rejoin", "pending", "refuse", "remove", "rename", "reseat"]


class Pending(Refusal):
    """A device that asked for a seat comes back before the teacher has let it in."""


def find(conn: Connection, room: str, who: Any) -> tuple[int, str]:
    """Return the id and name of the student of `room` called `who` (any case or lookalike letters), or of id `who`.

    Raises:
        Refusal: nobody of that name or id in the room.
    """
    query = select(students.c.id, students.c.name).where(students.c.room == room)
    if isinstance(who, int) and not isinstance(who, bool):
        row = conn.execute(query.where(students.c.id == who)).first() if 0 < who <= MAX_ID else None
    elif isinstance(who, str) and who.strip():
        row = same_name(conn, room, " ".join(who.split()))
    else:
        raise Refusal("Name the student: his name as it shows in the room, or his id.")
    if row is None:
        raise Refusal(f"Nobody in room {room} is called {who}.")
    return int(row.id), str(row.name)


def rename(conn: Connection, room: str, who: Any, to: Any) -> tuple[str, list[dict[str, Any]]]:
    """Rename a student; return his new name. His seat, history and pages stay his.

    Raises:
        Refusal: no such student, a bad name, or a name someone else has.
    """
    sid, old = find(conn, room, who)
    new = clean_name(to)
    other = same_name(conn, room, new)
    if other is not None and int(other.id) != sid:
        raise Refusal(f"Someone in room {room} is called {other.name} already.")
    conn.execute(update(students).where(students.c.id == sid).values(name=new))
    return new, [{"k": "room", "room": room}]


def remove(conn: Connection, cache: TableCache, room: str, who: Any, now: float) -> tuple[str, list[dict[str, Any]]]:
    """Remove a student from the room: his pages close, his seat token opens nothing, bots play his Ra seats.

    What he did stays in the results (his bids are the class's data); he is in no later round.

    Raises:
        Refusal: no such student, or removed already.
    """
    sid, name = find(conn, room, who)
    removed = conn.execute(select(students.c.removed_at).where(students.c.id == sid)).scalar()
    if removed is not None:
        raise Refusal(f"{name} was removed already.")
    conn.execute(update(students).where(students.c.id == sid).values(removed_at=now))
    conn.execute(delete(requests).where(requests.c.student_id == sid))
    events = hand_to_bot(conn, cache, sid, now)
    why = f"The teacher has removed you from room {room}."
    return name, [*events, {"k": "leave", "student": sid, "why": why}, {"k": "room", "room": room}]


def ask(conn: Connection, room: Any, name: Any, now: float) -> tuple[str, str, str]:
    """Ask the teacher for the seat of student `name` in `room`; return this device's seat token, the room, the name.

    The token opens the seat once the teacher lets the device in (`reseat`); a newer request
    for the same seat replaces this one.

    Raises:
        Refusal: no such room or student, or a removed student.
    """
    code = room_code(room)
    if not room_exists(conn, code):
        raise Refusal("There is no room with that code: check the code on the board.")
    sid, shown = find(conn, code, clean_name(name))
    if conn.execute(select(students.c.removed_at).where(students.c.id == sid)).scalar() is not None:
        raise Refusal(f"The teacher has removed {shown} from room {code}.")
    token = new_secret()
    conn.execute(delete(requests).where(requests.c.student_id == sid))
    conn.execute(insert(requests).values(student_id=sid, token_hash=token_hash(token), asked_at=now))
    return token, code, shown


def pending(conn: Connection, token: Any) -> None:
    """Raise `Pending` if `token` is a device's that asked for a seat and waits for the teacher."""
    if not isinstance(token, str) or not 10 <= len(token) <= 100:
        return
    row = conn.execute(
        select(students.c.name, students.c.room)
        .select_from(requests.join(students, students.c.id == requests.c.student_id))
        .where(requests.c.token_hash == token_hash(token))
    ).first()
    if row is not None:
        raise Pending(f"Waiting for the teacher to let you back in as {row.name}: tell your teacher it is you.")


def reseat(conn: Connection, room: str, who: Any) -> tuple[str, list[dict[str, Any]]]:
    """Let the device that asked for `who`'s seat in: it holds the seat from now on, the old device nothing.

    His rejoin code is replaced too (the new device is shown the new one at its next hello).

    Raises:
        Refusal: no such student, or no device asking for his seat.
    """
    sid, name = find(conn, room, who)
    asked = conn.execute(
        select(requests.c.id, requests.c.token_hash).where(requests.c.student_id == sid).order_by(requests.c.id.desc())
    ).first()
    if asked is None:
        raise Refusal(f"No device is asking for {name}'s seat: ask {name} to open the page and type the name.")
    conn.execute(delete(requests).where(requests.c.student_id == sid))
    conn.execute(update(students).where(students.c.id == sid).values(token_hash=asked.token_hash, rejoin_hash=None))
    why = "Your seat is now open on another device: your teacher let it in."
    return name, [{"k": "leave", "student": sid, "why": why}, {"k": "room", "room": room}]


def refuse(conn: Connection, room: str, who: Any) -> tuple[str, list[dict[str, Any]]]:
    """Refuse the device asking for `who`'s seat (it is told its seat is unknown).

    Raises:
        Refusal: no such student, or no device asking for his seat.
    """
    sid, name = find(conn, room, who)
    gone = conn.execute(delete(requests).where(requests.c.student_id == sid)).rowcount
    if not gone:
        raise Refusal(f"No device is asking for {name}'s seat.")
    return name, [{"k": "room", "room": room}]


def new_rejoin(conn: Connection, student: int) -> str | None:
    """Give student `student` a rejoin code if he has none (let in by the teacher, or from an older database)."""
    if conn.execute(select(students.c.rejoin_hash).where(students.c.id == student)).scalar() is not None:
        return None
    code = new_rejoin_code()
    conn.execute(update(students).where(students.c.id == student).values(rejoin_hash=rejoin_hash(student, code)))
    return code
