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

from sqlalchemy import Connection, bindparam, func, insert, select, update

from .hot import Hot, Taken, unless_taken
from .names import skeleton
from .refusal import Refusal
from .schema import requests, rooms, seat_moves, students
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
    "AWAY_GRACE",
    "MAX_STUDENTS",
    "MAX_WRONG_CODES",
    "NO_DEVICE",
    "PRESENT_SECONDS",
    "Asked",
    "Device",
    "Joined",
    "WrongCode",
    "away",
    "clean_name",
    "connected",
    "device_hash",
    "log_move",
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
#: Seconds after a student's last page on a process closed before his seat counts as not connected (two heartbeats of
#: the other processes, which would mark him present again if a page of his is open there).
AWAY_GRACE = 6.0
MAX_NAME = 30
MAX_CODE = 12  #: letters and digits of a room code at most
MAX_STUDENTS = 1000  #: per room: a bound on what one room code can be made to hold
#: Wrong rejoin codes typed for one name before its code opens nothing more (until the teacher lets a device in):
#: counted per name, so a student who guesses locks out only that name's code, never his classmates behind his address.
MAX_WRONG_CODES = 5
#: Words the boards write beside names ("bot", "Ann, a bot plays for now", "Ann (you)"): no name may hold
#: them, so that no student passes for a bot, for someone a bot stands in for, or for the reader himself.
_RESERVED = re.compile(r"(?<![^\W\d_])bots?(?![^\W\d_])|\(\s*you\s*\)|plays for now", re.IGNORECASE)

# A join's statements and a page's first ones: compiled once, run on the driver's cursor (`hot`).
_NAMED = (  # what a join needs of a student whose name looks like the one typed
    students.c.id,
    students.c.name,
    students.c.rejoin_hash,
    students.c.removed_at,
    students.c.last_seen,
    students.c.away_since,
    students.c.wrong_codes,
)
_SAME_NAME = Hot(  # the student with this skeleton, and those from an earlier database (their skeleton holds their id)
    select(*_NAMED, students.c.skeleton)
    .where(
        students.c.room == bindparam("room"),
        (students.c.skeleton == bindparam("look")) | students.c.skeleton.like("%#%"),
    )
    .order_by(students.c.id)
)
_SEATED = (  # the students of a room, but those the teacher removed
    select(func.count())
    .select_from(students)
    .where(students.c.room == rooms.c.code, students.c.removed_at.is_(None))
    .scalar_subquery()
)
_ROOM = Hot(select(rooms.c.size, _SEATED.label("seated")).where(rooms.c.code == bindparam("room")))
_BANNED = Hot(
    select(students.c.name).where(
        students.c.room == bindparam("room"),
        students.c.device_hash == bindparam("device"),
        students.c.removed_at.is_not(None),
    )
)
_SEAT = Hot(
    insert(students)
    .values(
        room=bindparam("room"),
        name=bindparam("shown"),
        skeleton=bindparam("look"),
        token_hash=bindparam("token"),
        joined_at=bindparam("when"),
        last_seen=bindparam("when"),
        address=bindparam("from_address"),
        device_hash=bindparam("device"),
    )
    .returning(students.c.id)
)
_REJOIN_CODE = Hot(
    update(students).where(students.c.id == bindparam("student")).values(rejoin_hash=bindparam("code_hash"))
)
_BY_TOKEN = Hot(
    select(students.c.id, students.c.room, students.c.name, students.c.removed_at).where(
        students.c.token_hash == bindparam("token")
    )
)
_HERE = Hot(
    update(students).where(students.c.id == bindparam("student")).values(last_seen=bindparam("when"), away_since=None)
)
_AWAY = Hot(update(students).where(students.c.id == bindparam("student")).values(away_since=bindparam("when")))


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


class Device(NamedTuple):
    """The device a join or an ask comes from.

    Attributes:
        token: its device token (a cookie the server set at its first visit), or None if it sent none.
        what: a short description from its browser's User-Agent ("Android phone, Chrome").
        address: the network it came from (`ra_classroom.web.limits.network_of`).
    """

    token: str | None = None
    what: str = ""
    address: str = ""


NO_DEVICE = Device()  #: a device that said nothing of itself (a test's client, a script)


class Asked(NamedTuple):
    """A device waiting for a seat: the teacher, or the seat's own page, lets it in.

    Attributes:
        token: the seat token it will hold once let in (this device's; the database keeps its hash).
        room: the room's code.
        name: the student's name.
        request: the request's id (its line in the teacher's panel).
        why: what the device is told while it waits.
    """

    token: str
    room: str
    name: str
    request: int
    why: str


class WrongCode(Refusal):
    """A wrong rejoin code: refused, yet counted against the name (the caller commits the count)."""


def new_request(conn: Connection, sid: int, device: Device, now: float, by_code: bool = False) -> tuple[str, int]:
    """Record that `device` asks for student `sid`'s seat; return the token it holds if let in, and the ask's id.

    `by_code`: it typed the seat's rejoin code (so the seat's own page may agree to the move).
    """
    token = new_secret()
    ident = conn.execute(
        insert(requests)
        .values(
            student_id=sid,
            token_hash=token_hash(token),
            asked_at=now,
            device=device.what[:80] or None,
            address=device.address[:64] or None,
            by_code=by_code,
            device_hash=device_hash(device),
        )
        .returning(requests.c.id)
    ).scalar_one()
    return token, int(ident)


def connected(row: Any, now: float) -> bool:
    """Return whether a page of student `row` (his ``last_seen`` and ``away_since``) is connected now.

    A page is connected while its process marks him present, until `AWAY_GRACE` seconds after
    his last page on a process closed (`away`): time enough for another process with a page of
    his to mark him present again (`heartbeat` clears ``away_since``).
    """
    if row.away_since is not None and now - float(row.away_since) >= AWAY_GRACE:
        return False
    return float(row.last_seen) >= now - PRESENT_SECONDS


def away(conn: Connection, student: int, now: float) -> None:
    """Mark that the last page of `student` on this process closed: his seat may be asked for after `AWAY_GRACE`."""
    _AWAY.run(conn, student=student, when=now)


def device_hash(device: Device) -> str | None:
    """Return what the database keeps of a device's token (None: it sent none)."""
    return token_hash(device.token) if device.token else None


def log_move(conn: Connection, student: int, how: str, what: str, address: str, now: float) -> None:
    """Write one move of a seat to another device, for the teacher's panel."""
    conn.execute(insert(seat_moves).values(student_id=student, at=now, how=how, device=what[:80], address=address[:64]))


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
    """Return the row (id, name, rejoin_hash, removed_at, last_seen, wrong_codes) of the student of `room` named `name`.

    Names are the same when their skeletons are (`ra_classroom.store.names`): "Аnn" with a
    Cyrillic A is Ann's name, and so is "ＡＮＮ". A room holds at most `MAX_STUDENTS` names.
    """
    wanted = skeleton(name)
    rows = _SAME_NAME.rows(conn, room=room, look=wanted)  # one statement: his, or those from an earlier database
    same = next((r for r in rows if r.skeleton == wanted), None)
    return same or next((r for r in rows if "#" in r.skeleton and skeleton(r.name) == wanted), None)


def room_exists(conn: Connection, code: str) -> bool:
    """Return whether a room with this code exists."""
    return conn.execute(select(rooms.c.code).where(rooms.c.code == code)).first() is not None


def join(conn: Connection, room: Any, name: Any, now: float, code: Any = None, device: Device = NO_DEVICE) -> Any:
    """Seat a new student in `room`, or give a student his seat back on a new device; return who he is.

    A name taken in the room is his own seat only with his rejoin code (`code`, shown on his
    page when he joined). If none of his pages is connected, this device gets the seat at once:
    a new seat token, a new rejoin code shown here only (the one typed opens nothing more), and
    the old token opens nothing (`Joined.moved`). If one is, the seat is not taken: the device
    waits (`Asked`) until his page agrees, or the teacher lets it in, or his page is no longer
    connected (`connected`; `ra_classroom.store.roster.pending`). A wrong code is counted against
    the name (`WrongCode`); after `MAX_WRONG_CODES`, the name's code opens nothing until the
    teacher lets a device in. Without a code, the student asks the teacher instead
    (`ra_classroom.store.roster.ask`). A device whose student the teacher removed cannot join
    under another name until the teacher readmits it.

    Returns:
        `Joined`, or `Asked` (a connected seat's code: its page is asked first).

    Raises:
        Refusal: no such room, a bad name, a name taken (without its code), a code for a name
            nobody has, a removed student or device, or a full room (removed students do not count).
        WrongCode: a wrong rejoin code (the count is to be committed).
    """
    code_text = room_code(room)
    found = _ROOM.first(conn, room=code_text)  # its size, and how many are in
    if found is None:
        raise Refusal("There is no room with that code: check the code on the board.")
    shown = clean_name(name)
    taken = same_name(conn, code_text, shown)
    if taken is not None:
        return _rejoin(conn, taken, code_text, code, now, device)
    if code is not None and code != "":  # a rejoin code is for a seat: a typo in the name seats nobody new
        raise Refusal(
            f"Nobody in room {code_text} is called {shown}: check your name as you joined,"
            " or leave the rejoin code empty to join as someone new."
        )
    _device_allowed(conn, code_text, device)
    count = int(found.seated)
    if count >= (found.size or MAX_STUDENTS):
        raise Refusal(f"Room {code_text} is full ({count} students): ask your teacher.")
    token, rejoin = new_secret(), new_rejoin_code()
    try:
        with unless_taken(conn):
            sid = _SEAT.scalar(
                conn,
                room=code_text,
                shown=shown,
                look=skeleton(shown),
                token=token_hash(token),
                when=now,
                from_address=device.address[:64] or None,
                device=device_hash(device),
            )
    except Taken:  # another process seated the same name, or one that looks the same, a moment ago
        raise Refusal(f"Someone in room {code_text} is called {shown} already: add an initial.") from None
    _REJOIN_CODE.run(conn, student=sid, code_hash=rejoin_hash(int(sid), rejoin))
    return Joined(int(sid), token, code_text, shown, rejoin, False)


def _device_allowed(conn: Connection, room: str, device: Device) -> None:
    """Refuse a device whose student the teacher removed from `room` (until he readmits it)."""
    if not device.token:
        return
    banned = _BANNED.first(conn, room=room, device=token_hash(device.token))
    if banned is not None:
        raise Refusal(
            f"The teacher has removed {banned.name} from room {room}, who joined on this device:"
            " ask your teacher to let this device join again."
        )


def _rejoin(conn: Connection, taken: Any, room: str, code: Any, now: float, device: Device) -> Joined | Asked:
    """Give student `taken` his seat on this device if `code` is his rejoin code (see `join`); refuse otherwise."""
    if taken.removed_at is not None:
        raise Refusal(f"The teacher has removed {taken.name} from room {room}.")
    if code is None or code == "":
        raise Refusal(
            f"Someone in room {room} is called {taken.name} already. If that is you, type your rejoin code"
            " (it was on your page when you joined), or ask the teacher to let you back in; if not, add an initial."
        )
    sid = int(taken.id)
    wrong = conn.execute(  # his row locked (PostgreSQL): two wrong codes at once are counted one after the other
        select(students.c.wrong_codes).where(students.c.id == sid).with_for_update()
    ).scalar_one()
    if wrong >= MAX_WRONG_CODES:
        raise Refusal(
            f"Too many wrong rejoin codes were typed for {taken.name}: that code opens nothing now."
            " Ask the teacher to let you back in."
        )
    typed = normal_code(code) if isinstance(code, str) else ""
    if taken.rejoin_hash is None or not same_secret(rejoin_hash(sid, typed), str(taken.rejoin_hash)):
        conn.execute(update(students).where(students.c.id == sid).values(wrong_codes=students.c.wrong_codes + 1))
        left = MAX_WRONG_CODES - wrong - 1
        raise WrongCode(
            f"That is not {taken.name}'s rejoin code ({left} more tries for this name)."
            " Check it, or ask the teacher to let you back in."
        )
    if connected(taken, now):
        token, ident = new_request(conn, sid, device, now, by_code=True)
        why = (
            f"{taken.name}'s seat is open on another page right now: that page is asked whether to move the seat here."
            f" Wait here; if that page is closed instead, the seat comes here {AWAY_GRACE:.0f} s later."
        )
        return Asked(token, room, str(taken.name), int(ident), why)
    token = new_secret()
    fresh = new_rejoin_code()
    conn.execute(
        update(students)
        .where(students.c.id == sid)
        .values(
            token_hash=token_hash(token),
            device_hash=device_hash(device),
            last_seen=now,
            away_since=None,
            rejoin_hash=rejoin_hash(sid, fresh),
            wrong_codes=0,
        )
    )
    log_move(conn, sid, "code", device.what, device.address, now)
    return Joined(sid, token, room, str(taken.name), fresh, True)


def hello(conn: Connection, token: Any, now: float) -> tuple[int, str, str]:
    """Return the student (id, room, name) whose seat token this is, and mark him present.

    Raises:
        Refusal: the token is no student's (a wrong or old link), or the teacher removed him.
    """
    if not isinstance(token, str) or not 10 <= len(token) <= 100:
        raise Refusal("That seat is unknown here: join again with the room code.")
    row = _BY_TOKEN.first(conn, token=token_hash(token))
    if row is None:
        raise Refusal("That seat is unknown here: join again with the room code.")
    if row.removed_at is not None:
        raise Refusal(f"The teacher has removed you from room {row.room}.")
    _HERE.run(conn, student=row.id, when=now)
    return int(row.id), str(row.room), str(row.name)


def heartbeat(conn: Connection, ids: Collection[int], now: float) -> None:
    """Mark the students with pages connected to this process as present now."""
    if ids:
        conn.execute(update(students).where(students.c.id.in_(sorted(ids))).values(last_seen=now, away_since=None))


def present(conn: Connection, room: str, now: float) -> list[int]:
    """Return the ids of the students of `room` who are present, in joining order."""
    rows = conn.execute(
        select(students.c.id)
        .where(students.c.room == room, students.c.last_seen >= now - PRESENT_SECONDS, students.c.removed_at.is_(None))
        .order_by(students.c.id)
    )
    return [int(r.id) for r in rows]
