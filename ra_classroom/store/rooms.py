"""Rooms and students: create a room (and size it), join it with a name, come back with a seat token, be present.

Each function runs inside a transaction the caller opens, and returns the events that other
pages must hear of. A student is *present* when one of his pages was connected in the last
`PRESENT_SECONDS`; every server process refreshes ``last_seen`` for its own pages.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Collection
from typing import Any

from sqlalchemy import Connection, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from .refusal import Refusal
from .schema import rooms, students
from .tokens import new_code, new_secret, normal_code, token_hash

__all__ = [
    "MAX_STUDENTS", "PRESENT_SECONDS", "clean_name", "create_room", "heartbeat", "hello", "join", "present",
    "room_exists", "set_size",
]  # fmt: skip

PRESENT_SECONDS = 15.0  #: a student whose page was connected this recently takes part in the next round
MAX_NAME = 30
MAX_STUDENTS = 1000  #: per room: a bound on what one room code can be made to hold
#: Words the boards write beside names ("bot", "Ann, a bot plays for now", "Ann (you)"): no name may hold
#: them, so that no student passes for a bot, for someone a bot stands in for, or for the reader himself.
_RESERVED = re.compile(r"(?<![^\W\d_])bots?(?![^\W\d_])|\(\s*you\s*\)|plays for now", re.IGNORECASE)


def clean_name(name: Any) -> str:
    """Return a student's name as shown: spaces collapsed; raise Refusal if it is empty, long or has control characters.

    >>> clean_name("  Ann   Lee ")
    'Ann Lee'
    >>> clean_name("<b>Bob</b>")       # any printable text: pages escape it wherever it is shown
    '<b>Bob</b>'
    >>> clean_name("Abbot Robotham")   # "bot" only as a word of its own is the board's
    'Abbot Robotham'
    """
    if not isinstance(name, str):
        raise Refusal("Type your name to join.")
    text = " ".join(name.split())
    if not text:
        raise Refusal("Type your name to join.")
    if len(text) > MAX_NAME:
        raise Refusal(f"That name is too long: at most {MAX_NAME} characters.")
    if any(unicodedata.category(c).startswith("C") for c in text):
        raise Refusal("A name cannot contain control characters.")
    if _RESERVED.search(text):
        raise Refusal("That name reads as the board's own words (a bot, or you): choose another.")
    return text


def create_room(
    conn: Connection, now: float, code: str | None = None, seed: str | None = None, size: Any = None
) -> str:
    """Create a room and return its code (a new one unless `code` is given); `seed` decides its groups and values.

    `size` is the most students who may join (default `MAX_STUDENTS`).
    """
    size = _size(size)
    if code is not None:
        code = normal_code(code)
        if not 3 <= len(code) <= 12:
            raise Refusal("A room code has 3 to 12 letters or digits.")
        if room_exists(conn, code):
            raise Refusal(f"Room {code} exists already.")
    else:
        code = new_code()
        while room_exists(conn, code):
            code = new_code()
    conn.execute(insert(rooms).values(code=code, seed=seed or secrets.token_hex(8), created_at=now, size=size))
    return code


def _size(size: Any) -> int | None:
    """Return a room's size as given (None: the largest), or raise Refusal saying what a size is."""
    if size is None:
        return None
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_STUDENTS:
        raise Refusal(f"A room's size is a number of students from 1 to {MAX_STUDENTS}.")
    return size


def set_size(conn: Connection, code: str, size: Any) -> dict[str, Any]:
    """Let at most `size` students join room `code` (those in already stay); return its size and how many are in.

    Raises:
        Refusal: no such room, or a size that is not a number of students.
    """
    if not room_exists(conn, code):
        raise Refusal(f"There is no room {code}.")
    size = _size(size)
    conn.execute(update(rooms).where(rooms.c.code == code).values(size=size))
    count = conn.execute(select(func.count()).select_from(students).where(students.c.room == code)).scalar_one()
    return {"room": code, "size": size or MAX_STUDENTS, "students": int(count)}


def room_exists(conn: Connection, code: str) -> bool:
    """Return whether a room with this code exists."""
    return conn.execute(select(rooms.c.code).where(rooms.c.code == code)).first() is not None


def join(conn: Connection, room: Any, name: Any, now: float) -> tuple[int, str, str, str]:
    """Seat a new student in `room`; return his id, his seat token, the room's code and his name as shown.

    Raises:
        Refusal: no such room, a bad name, a name already taken in the room, or a full room.
    """
    code = normal_code(room) if isinstance(room, str) else ""
    found = conn.execute(select(rooms.c.size).where(rooms.c.code == code)).first() if code else None
    if found is None:
        raise Refusal("There is no room with that code: check the code on the board.")
    shown = clean_name(name)
    count = conn.execute(select(func.count()).select_from(students).where(students.c.room == code)).scalar_one()
    if count >= (found.size or MAX_STUDENTS):
        raise Refusal(f"Room {code} is full ({count} students): ask your teacher.")
    taken = conn.execute(
        select(students.c.id).where(students.c.room == code, func.lower(students.c.name) == shown.lower())
    ).first()
    if taken is not None:
        raise Refusal(f"Someone in room {code} is called {shown} already: add an initial.")
    token = new_secret()
    try:
        with conn.begin_nested():
            sid = conn.execute(
                insert(students)
                .values(room=code, name=shown, token_hash=token_hash(token), joined_at=now, last_seen=now)
                .returning(students.c.id)
            ).scalar_one()
    except IntegrityError:  # another process seated the same name a moment ago
        raise Refusal(f"Someone in room {code} is called {shown} already: add an initial.") from None
    return int(sid), token, code, shown


def hello(conn: Connection, token: Any, now: float) -> tuple[int, str, str]:
    """Return the student (id, room, name) whose seat token this is, and mark him present.

    Raises:
        Refusal: the token is no student's (a wrong or old link).
    """
    if not isinstance(token, str) or not 10 <= len(token) <= 100:
        raise Refusal("That seat is unknown here: join again with the room code.")
    row = conn.execute(
        select(students.c.id, students.c.room, students.c.name).where(students.c.token_hash == token_hash(token))
    ).first()
    if row is None:
        raise Refusal("That seat is unknown here: join again with the room code.")
    conn.execute(update(students).where(students.c.id == row.id).values(last_seen=now))
    return int(row.id), str(row.room), str(row.name)


def heartbeat(conn: Connection, ids: Collection[int], now: float) -> None:
    """Mark the students with pages connected to this process as present now."""
    if ids:
        conn.execute(update(students).where(students.c.id.in_(sorted(ids))).values(last_seen=now))


def present(conn: Connection, room: str, now: float) -> list[int]:
    """Return the ids of the students of `room` who are present, in joining order."""
    rows = conn.execute(
        select(students.c.id)
        .where(students.c.room == room, students.c.last_seen >= now - PRESENT_SECONDS)
        .order_by(students.c.id)
    )
    return [int(r.id) for r in rows]
