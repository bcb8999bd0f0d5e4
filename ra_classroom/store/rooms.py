"""Rooms and students: create and size a room, join it with a name, come back with a seat token or rejoin code.

Each function runs inside a transaction the caller opens, and returns the events that other
pages must hear of. A student is *present* when one of his pages was connected in the last
`PRESENT_SECONDS`; every server process refreshes ``last_seen`` for its own pages.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Collection
from typing import Any, NamedTuple

from sqlalchemy import Connection, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from .names import skeleton
from .refusal import Refusal
from .schema import rooms, students
from .tokens import (
    ROOM_ALPHABET,
    new_code,
    new_rejoin_code,
    new_secret,
    normal_code,
    rejoin_hash,
    same_secret,
    token_hash,
)

__all__ = [
    "MAX_STUDENTS",
    "PRESENT_SECONDS",
    "Joined",
    "clean_name",
    "create_room",
    "heartbeat",
    "hello",
    "join",
    "present",
    "room_code",
    "room_exists",
    "same_name",
    "set_size",
]

PRESENT_SECONDS = 15.0  #: a student whose page was connected this recently takes part in the next round
MAX_NAME = 30
MAX_CODE = 12  #: letters and digits of a room code at most
MAX_STUDENTS = 1000  #: per room: a bound on what one room code can be made to hold
#: Words the boards write beside names ("bot", "Ann, a bot plays for now", "Ann (you)"): no name may hold
#: them, so that no student passes for a bot, for someone a bot stands in for, or for the reader himself.
_RESERVED = re.compile(r"(?<![^\W\d_])bots?(?![^\W\d_])|\(\s*you\s*\)|plays for now", re.IGNORECASE)


class Joined(NamedTuple):
    """A student seated by `join`.

    Attributes:
        student: his id.
        token: his seat token (this device's; the database keeps only its hash).
        room: the room's code.
        name: his name as shown.
        rejoin: his rejoin code, to show on his page (his seat on another device).
        moved: whether he took his seat back from another device (whose pages are to be closed).
    """

    student: int
    token: str
    room: str
    name: str
    rejoin: str
    moved: bool


def clean_name(name: Any) -> str:
    """Return a student's name as shown: spaces collapsed; raise Refusal if it is empty, long or has control characters.

    >>> clean_name("  Ann   Lee ")
    'Ann Lee'
    >>> clean_name("<b>Bob</b>")       # any printable text: pages escape it wherever it is shown
    '<b>Bob</b>'
    >>> clean_name("Abbot Robotham")   # "bot" only as a word of its own is the board's
    'Abbot Robotham'
    >>> clean_name("ｂｏｔ")             # full-width, or "bоt" with a Cyrillic o: the board's word all the same
    Traceback (most recent call last):
    ...
    ra_classroom.store.refusal.Refusal: That name reads as the board's own words (a bot, or you): choose another.
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
    if _RESERVED.search(skeleton(text)):
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
        code = room_code(code)
        if len(code) < 3:
            raise Refusal(f"A room code has 3 to {MAX_CODE} letters or digits.")
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


def room_code(text: Any) -> str:
    """Return a room code as typed in its stored form; refuse, in a sentence, one too long or not of `ROOM_ALPHABET`.

    A code is never cut: ``ABCDEFGHJKMNPQ`` is no room, not room ``ABCDEFGHJKMN``.

    >>> room_code(" k7r-wp ")
    'K7RWP'
    >>> room_code("ABCDEFGHJKMNPQ")
    Traceback (most recent call last):
    ...
    ra_classroom.store.refusal.Refusal: A room code has at most 12 letters or digits: check the code on the board.
    """
    if not isinstance(text, str):
        raise Refusal("There is no room with that code: check the code on the board.")
    code = normal_code(text)
    if not code:
        raise Refusal("Type the room code on the board.")
    if len(code) > MAX_CODE:
        raise Refusal(f"A room code has at most {MAX_CODE} letters or digits: check the code on the board.")
    if any(c not in ROOM_ALPHABET for c in code):
        raise Refusal("A room code has only the letters A to Z and the digits 0 to 9: check the code on the board.")
    return code


def same_name(conn: Connection, room: str, name: str) -> Any:
    """Return the row (id, name, rejoin_hash, removed_at) of the student of `room` whose name looks like `name`.

    Names are the same when their skeletons are (`ra_classroom.store.names`): "Аnn" with a
    Cyrillic A is Ann's name, and so is "ＡＮＮ". A room holds at most `MAX_STUDENTS` names.
    """
    wanted = skeleton(name)
    rows = conn.execute(
        select(students.c.id, students.c.name, students.c.rejoin_hash, students.c.removed_at)
        .where(students.c.room == room)
        .order_by(students.c.id)
    )
    return next((row for row in rows if skeleton(row.name) == wanted), None)


def room_exists(conn: Connection, code: str) -> bool:
    """Return whether a room with this code exists."""
    return conn.execute(select(rooms.c.code).where(rooms.c.code == code)).first() is not None


def join(conn: Connection, room: Any, name: Any, now: float, code: Any = None) -> Joined:
    """Seat a new student in `room`, or give a student his seat back on a new device; return who he is.

    A name taken in the room is his own seat only with his rejoin code (`code`, shown on his
    page when he joined): then this device gets a new seat token, and the old one opens nothing
    (`Joined.moved`). Without the code, or with a wrong one, the name is refused: the student
    asks the teacher instead (`ra_classroom.store.roster.ask`).

    Raises:
        Refusal: no such room, a bad name, a name taken (without its code), a removed student,
            or a full room.
    """
    code_text = room_code(room)
    found = conn.execute(select(rooms.c.size).where(rooms.c.code == code_text)).first()
    if found is None:
        raise Refusal("There is no room with that code: check the code on the board.")
    shown = clean_name(name)
    taken = same_name(conn, code_text, shown)
    if taken is not None:
        return _rejoin(conn, taken, code_text, code, now)
    count = conn.execute(select(func.count()).select_from(students).where(students.c.room == code_text)).scalar_one()
    if count >= (found.size or MAX_STUDENTS):
        raise Refusal(f"Room {code_text} is full ({count} students): ask your teacher.")
    token, rejoin = new_secret(), new_rejoin_code()
    try:
        with conn.begin_nested():
            sid = conn.execute(
                insert(students)
                .values(room=code_text, name=shown, token_hash=token_hash(token), joined_at=now, last_seen=now)
                .returning(students.c.id)
            ).scalar_one()
    except IntegrityError:  # another process seated the same name a moment ago
        raise Refusal(f"Someone in room {code_text} is called {shown} already: add an initial.") from None
    conn.execute(update(students).where(students.c.id == sid).values(rejoin_hash=rejoin_hash(int(sid), rejoin)))
    return Joined(int(sid), token, code_text, shown, rejoin, False)


def _rejoin(conn: Connection, taken: Any, room: str, code: Any, now: float) -> Joined:
    """Give student `taken` his seat on this device if `code` is his rejoin code; refuse otherwise."""
    if taken.removed_at is not None:
        raise Refusal(f"The teacher has removed {taken.name} from room {room}.")
    if code is None or code == "":
        raise Refusal(
            f"Someone in room {room} is called {taken.name} already. If that is you, type your rejoin code"
            " (it was on your page when you joined), or ask the teacher to let you back in; if not, add an initial."
        )
    typed = normal_code(code) if isinstance(code, str) else ""
    if taken.rejoin_hash is None or not same_secret(rejoin_hash(int(taken.id), typed), str(taken.rejoin_hash)):
        raise Refusal(f"That is not {taken.name}'s rejoin code. Check it, or ask the teacher to let you back in.")
    token = new_secret()
    conn.execute(update(students).where(students.c.id == taken.id).values(token_hash=token_hash(token), last_seen=now))
    return Joined(int(taken.id), token, room, str(taken.name), typed, True)


def hello(conn: Connection, token: Any, now: float) -> tuple[int, str, str]:
    """Return the student (id, room, name) whose seat token this is, and mark him present.

    Raises:
        Refusal: the token is no student's (a wrong or old link), or the teacher removed him.
    """
    if not isinstance(token, str) or not 10 <= len(token) <= 100:
        raise Refusal("That seat is unknown here: join again with the room code.")
    row = conn.execute(
        select(students.c.id, students.c.room, students.c.name, students.c.removed_at).where(
            students.c.token_hash == token_hash(token)
        )
    ).first()
    if row is None:
        raise Refusal("That seat is unknown here: join again with the room code.")
    if row.removed_at is not None:
        raise Refusal(f"The teacher has removed you from room {row.room}.")
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
        .where(students.c.room == room, students.c.last_seen >= now - PRESENT_SECONDS, students.c.removed_at.is_(None))
        .order_by(students.c.id)
    )
    return [int(r.id) for r in rows]
