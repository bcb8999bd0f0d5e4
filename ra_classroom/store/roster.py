"""The teacher's roster: rename or remove a student, and let a student back into his seat from a new device.

A seat is only its owner's. A student on a new device (or after clearing his browser) gets his
seat back with his rejoin code (`rooms.join`): at once if none of his pages is connected, else
once his page agrees (`answer`), or the teacher lets the device in, or his page has stayed away
for `rooms.PRESENT_SECONDS` (`pending`). Without the code, the device asks for the seat of a name
(`ask`), unless a page of that seat is connected: each device asking is its own request, a line
in the teacher's panel (when it asked, what device, from which network), holding a seat token
of its own that opens nothing yet; the teacher lets that one device in (`reseat`), and from then
on its token is the seat's and the old device's opens nothing; or refuses it (`refuse`). Every
move of a seat is logged (`rooms.log_move`; the panel lists them: `panel`), and the code used
is replaced by a new one, shown to the new device only. A removed student's token opens nothing,
his name cannot be joined again, his device cannot join under another name until the teacher
readmits it (`readmit`), and his bid in the open round no longer counts. Each function runs
inside a transaction the caller opens and returns the events to send; ``{"k": "leave", ...}``
closes the pages a student has open (`ra_classroom.web.hub`), ``{"k": "confirm", ...}`` asks them
whether to move the seat.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, case, delete, func, select, update

from .names import skeleton
from .refusal import Refusal
from .rooms import (
    NO_DEVICE,
    Asked,
    Device,
    clean_name,
    connected,
    log_move,
    new_request,
    room_code,
    room_exists,
    same_name,
)
from .schema import MAX_ID, assignments, bids, groups, requests, rounds, seat_moves, students
from .table_moves import TableCache, hand_to_bot
from .tokens import new_rejoin_code, rejoin_hash, token_hash

__all__ = [
    "MAX_ASKING",
    "Pending",
    "answer",
    "ask",
    "confirm_event",
    "find",
    "new_rejoin",
    "panel",
    "pending",
    "readmit",
    "refuse",
    "remove",
    "remove_burst",
    "rename",
    "reseat",
    "waiting_for",
]

MAX_ASKING = 5  #: devices that may ask for one seat at once: each is a line in the teacher's panel
MOVES_SHOWN = 30  #: the latest moves of seats the panel lists


class Pending(Refusal):
    """A device that asked for a seat comes back before the teacher (or the seat's page) has let it in."""


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
    conn.execute(update(students).where(students.c.id == sid).values(name=new, skeleton=skeleton(new)))
    return new, [{"k": "room", "room": room}]


def remove(conn: Connection, cache: TableCache, room: str, who: Any, now: float) -> tuple[str, list[dict[str, Any]]]:
    """Remove a student from the room: his pages close, his seat token opens nothing, bots play his Ra seats.

    What he did in closed rounds stays in the results (his bids are the class's data); in the
    open sealed-bid round his bid and his place no longer count (the round settles without him);
    he is in no later round; his device cannot join under another name (`readmit`).

    Raises:
        Refusal: no such student, or removed already.
    """
    sid, name = find(conn, room, who)
    removed = conn.execute(select(students.c.removed_at).where(students.c.id == sid)).scalar()
    if removed is not None:
        raise Refusal(f"{name} was removed already.")
    return name, _remove(conn, cache, room, sid, now)


def _remove(conn: Connection, cache: TableCache, room: str, sid: int, now: float) -> list[dict[str, Any]]:
    """Remove student `sid` (see `remove`); return the events."""
    conn.execute(update(students).where(students.c.id == sid).values(removed_at=now))
    conn.execute(delete(requests).where(requests.c.student_id == sid))
    open_round = select(rounds.c.id).where(rounds.c.room == room, rounds.c.status == "open").scalar_subquery()
    place = conn.execute(
        select(assignments.c.round_id, assignments.c.group_no).where(
            assignments.c.round_id == open_round, assignments.c.student_id == sid
        )
    ).first()
    if place is not None:  # the open sealed-bid round settles without him
        conn.execute(delete(bids).where(bids.c.round_id == place.round_id, bids.c.student_id == sid))
        conn.execute(
            delete(assignments).where(assignments.c.round_id == place.round_id, assignments.c.student_id == sid)
        )
        conn.execute(
            update(groups)
            .where(groups.c.round_id == place.round_id, groups.c.group_no == place.group_no)
            .values(size=groups.c.size - 1)
        )
    events = hand_to_bot(conn, cache, sid, now)
    why = f"The teacher has removed you from room {room}."
    return [*events, {"k": "leave", "student": sid, "why": why, "removed": True}, {"k": "room", "room": room}]


def remove_burst(
    conn: Connection, cache: TableCache, room: str, address: Any, seconds: Any, now: float, until: Any = 0
) -> tuple[list[str], list[dict[str, Any]]]:
    """Remove every student of `room` who joined from network `address` from `seconds` ago until `until` seconds ago.

    A burst of joins from one address (a script behind the class's NAT) is undone at once, and
    the seats it took are free again: removed students do not count against the room's size.
    Return the names removed.

    Raises:
        Refusal: nobody joined from that address then, or times that are not numbers of seconds.
    """
    if not isinstance(address, str) or not address or len(address) > 64:
        raise Refusal("Name the address, as the panel shows it.")
    for given in (seconds, until):
        if isinstance(given, bool) or not isinstance(given, (int, float)) or not 0 <= given <= 86_400:
            raise Refusal("Say how many seconds back the burst began (and ended): numbers from 0 to 86400.")
    if until >= seconds:
        raise Refusal("A burst ends after it began: give until fewer seconds back than seconds.")
    rows = conn.execute(
        select(students.c.id, students.c.name)
        .where(
            students.c.room == room,
            students.c.address == address,
            students.c.joined_at >= now - seconds,
            students.c.joined_at <= now - until,
            students.c.removed_at.is_(None),
        )
        .order_by(students.c.id)
    ).all()
    if not rows:
        raise Refusal(f"Nobody in room {room} joined from {address} in the last {seconds:g} s.")
    events: list[dict[str, Any]] = []
    for r in rows:
        events += _remove(conn, cache, room, int(r.id), now)
    return [str(r.name) for r in rows], events


def readmit(conn: Connection, room: str, who: Any) -> tuple[str, list[dict[str, Any]]]:
    """Let the device of a removed student join the room again, under another name (he stays removed).

    Raises:
        Refusal: no such student, or one not removed.
    """
    sid, name = find(conn, room, who)
    if conn.execute(select(students.c.removed_at).where(students.c.id == sid)).scalar() is None:
        raise Refusal(f"{name} is not removed: his device may join already.")
    conn.execute(update(students).where(students.c.id == sid).values(device_hash=None))
    return name, [{"k": "room", "room": room}]


def ask(conn: Connection, room: Any, name: Any, now: float, device: Device = NO_DEVICE) -> Asked:
    """Ask the teacher for the seat of student `name` in `room` from this device; return what it waits with.

    The token opens the seat once the teacher lets this very device in (`reseat`, by the
    request's id); each device asking is a request of its own.

    Raises:
        Refusal: no such room or student, a removed student, a seat whose page is connected, or
            `MAX_ASKING` devices asking for it already.
    """
    code = room_code(room)
    if not room_exists(conn, code):
        raise Refusal("There is no room with that code: check the code on the board.")
    sid, shown = find(conn, code, clean_name(name))
    row = conn.execute(
        select(students.c.removed_at, students.c.last_seen, students.c.away_since).where(students.c.id == sid)
    ).one()
    if row.removed_at is not None:
        raise Refusal(f"The teacher has removed {shown} from room {code}.")
    if connected(row, now):
        raise Refusal(
            f"{shown}'s seat is open on a connected page: nobody can ask for it meanwhile."
            f" If you are {shown}, use your rejoin code, or leave that page first; if not, add an initial to your name."
        )
    asking = conn.execute(select(func.count()).select_from(requests).where(requests.c.student_id == sid)).scalar_one()
    if asking >= MAX_ASKING:
        raise Refusal(f"{asking} devices ask for {shown}'s seat already: tell your teacher it is you.")
    token, ident = new_request(conn, sid, device, now)
    why = f"Asked: your teacher sees that this device asks to be {shown}. Wait here; tell your teacher it is you."
    return Asked(token, code, shown, int(ident), why)


def confirm_event(asked: Asked, what: str, student: int) -> dict[str, Any]:
    """Return the event that asks the pages of `student` whether the device of `asked` may take the seat."""
    return {"k": "confirm", "student": student, "request": asked.request, "device": what or "a device"}


def pending(conn: Connection, token: Any, now: float) -> list[dict[str, Any]] | None:
    """Let in a device that typed the right rejoin code once the seat's page has been away long enough.

    Returns:
        The events of the move if the device holds the seat now, None if `token` asks nothing.

    Raises:
        Pending: `token` is a device's that waits for the teacher (or the seat's page).
    """
    if not isinstance(token, str) or not 10 <= len(token) <= 100:
        return None
    row = conn.execute(
        select(
            requests.c.id,
            requests.c.by_code,
            students.c.name,
            students.c.room,
            students.c.last_seen,
            students.c.away_since,
        )
        .select_from(requests.join(students, students.c.id == requests.c.student_id))
        .where(requests.c.token_hash == token_hash(token))
    ).first()
    if row is None:
        return None
    if row.by_code and not connected(row, now):
        return _let_in(conn, int(row.id), "unanswered", now)[1]
    if row.by_code:
        raise Pending(f"Waiting for {row.name}'s page to agree to move the seat here (or for the teacher).")
    raise Pending(f"Waiting for the teacher to let you back in as {row.name}: tell your teacher it is you.")


def _request(conn: Connection, room: str, who: Any, request: Any, hint: bool = False) -> tuple[int, int, str]:
    """Return the request chosen (its id), its student and his name: by its id, or the one device asking for `who`.

    Raises:
        Refusal: no such request, or no device (or several) asking for `who`'s seat.
    """
    if request is not None:
        if isinstance(request, bool) or not isinstance(request, int) or not 0 < request <= MAX_ID:
            raise Refusal("Choose a device asking for a seat: its line in the panel.")
        row = conn.execute(
            select(requests.c.id, students.c.id.label("sid"), students.c.name)
            .select_from(requests.join(students, students.c.id == requests.c.student_id))
            .where(requests.c.id == request, students.c.room == room)
        ).first()
        if row is None:
            raise Refusal("That device no longer asks for a seat (it was let in or refused).")
        return int(row.id), int(row.sid), str(row.name)
    sid, name = find(conn, room, who)
    asked = conn.execute(select(requests.c.id).where(requests.c.student_id == sid)).scalars().all()
    if not asked:
        more = f": ask {name} to open the page and type the name" if hint else ""
        raise Refusal(f"No device is asking for {name}'s seat{more}.")
    if len(asked) > 1:
        raise Refusal(f"{len(asked)} devices ask for {name}'s seat: choose one of them by its line in the panel.")
    return int(asked[0]), sid, name


def _let_in(conn: Connection, request: int, how: str, now: float) -> tuple[int, list[dict[str, Any]]]:
    """Give the seat to the device of `request`: its token opens the seat, the old one nothing; log the move."""
    row = conn.execute(select(requests).where(requests.c.id == request)).one()
    sid = int(row.student_id)
    room = conn.execute(select(students.c.room).where(students.c.id == sid)).scalar_one()
    conn.execute(delete(requests).where(requests.c.id == request))
    moved = {"token_hash": row.token_hash, "rejoin_hash": None, "wrong_codes": 0}  # a new code at its hello
    if row.device_hash is not None:  # the seat's device is the new one (a removal keeps it out)
        moved["device_hash"] = row.device_hash
    conn.execute(update(students).where(students.c.id == sid).values(**moved))
    log_move(conn, sid, how, row.device or "", row.address or "", now)
    said = {
        "teacher": "your teacher let it in",
        "confirmed": "you agreed on this page",
        "unanswered": "its rejoin code was typed there while this page was away",
    }[how]
    why = f"Your seat is now open on another device ({row.device or 'a device'}): {said}."
    return sid, [{"k": "leave", "student": sid, "why": why}, {"k": "room", "room": room}]


def reseat(conn: Connection, room: str, who: Any, now: float, request: Any = None) -> tuple[str, list[dict[str, Any]]]:
    """Let one device asking for a seat in (`request`, or the only one asking for `who`'s); the old holds nothing.

    His rejoin code is replaced too (the new device is shown the new one at its next hello).

    Raises:
        Refusal: no such student or request, or no device (or several) asking for his seat.
    """
    ident, _, name = _request(conn, room, who, request, hint=True)
    return name, _let_in(conn, ident, "teacher", now)[1]


def refuse(conn: Connection, room: str, who: Any, request: Any = None) -> tuple[str, list[dict[str, Any]]]:
    """Refuse one device asking for a seat (`request`, or the only one asking for `who`'s): it is told so.

    Raises:
        Refusal: no such student or request, or no device (or several) asking for his seat.
    """
    ident, _, name = _request(conn, room, who, request)
    conn.execute(delete(requests).where(requests.c.id == ident))
    return name, [{"k": "room", "room": room}]


def answer(conn: Connection, student: int, request: Any, yes: Any, now: float) -> tuple[bool, list[dict[str, Any]]]:
    """The seat's own page answers whether the device that typed its rejoin code may take it; return `yes`.

    Raises:
        Refusal: no such request for this student's seat (answered already, or let in).
    """
    if isinstance(request, bool) or not isinstance(request, int) or not isinstance(yes, bool):
        raise Refusal("An answer names the request and says yes or no.")
    row = conn.execute(
        select(requests.c.id).where(requests.c.id == request, requests.c.student_id == student, requests.c.by_code)
    ).first()
    if row is None:
        raise Refusal("No device waits for that answer now.")
    if yes:
        return True, _let_in(conn, request, "confirmed", now)[1]
    conn.execute(delete(requests).where(requests.c.id == request))
    room = conn.execute(select(students.c.room).where(students.c.id == student)).scalar_one()
    return False, [{"k": "room", "room": room}]


def waiting_for(conn: Connection, student: int) -> list[dict[str, Any]]:
    """Return the devices that typed `student`'s rejoin code and wait for his page to agree (a page back asks again)."""
    rows = conn.execute(
        select(requests.c.id, requests.c.device)
        .where(requests.c.student_id == student, requests.c.by_code)
        .order_by(requests.c.id)
    )
    return [{"k": "confirm", "student": student, "request": int(r.id), "device": r.device or "a device"} for r in rows]


def new_rejoin(conn: Connection, student: int) -> str | None:
    """Give student `student` a rejoin code if he has none (let in by the teacher, or from an older database)."""
    if conn.execute(select(students.c.rejoin_hash).where(students.c.id == student)).scalar() is not None:
        return None
    code = new_rejoin_code()
    conn.execute(update(students).where(students.c.id == student).values(rejoin_hash=rejoin_hash(student, code)))
    return code


def panel(conn: Connection, room: str, now: float) -> dict[str, Any]:
    """Return what the teacher's panel shows of seats: the devices asking, the latest moves, joins per address.

    ``requests``: one line per device asking (its id, the student, seconds since it asked, the
    device, its address, whether it typed the rejoin code); ``moves``: the latest moves of a seat
    (who, seconds ago, how, the device, its address); ``addresses``: per network, the students
    who joined from it and how many in the last minute; ``wrong_codes``: per name, wrong codes typed.
    """
    asking = conn.execute(
        select(requests, students.c.name)
        .select_from(requests.join(students, students.c.id == requests.c.student_id))
        .where(students.c.room == room)
        .order_by(requests.c.id)
    ).all()
    moved = conn.execute(
        select(seat_moves, students.c.name)
        .select_from(seat_moves.join(students, students.c.id == seat_moves.c.student_id))
        .where(students.c.room == room)
        .order_by(seat_moves.c.id.desc())
        .limit(MOVES_SHOWN)
    ).all()
    recent = func.sum(case((students.c.joined_at >= now - 60, 1), else_=0))
    joins = conn.execute(
        select(students.c.address, func.count().label("n"), recent.label("recent"))
        .where(students.c.room == room, students.c.removed_at.is_(None), students.c.address.is_not(None))
        .group_by(students.c.address)
        .order_by(func.count().desc())
    ).all()
    wrong = conn.execute(
        select(students.c.name, students.c.wrong_codes).where(students.c.room == room, students.c.wrong_codes > 0)
    ).all()
    return {
        "requests": [
            {
                "request": int(a.id),
                "student": int(a.student_id),
                "name": str(a.name),
                "asked": round(now - float(a.asked_at)),
                "device": a.device or "a device",
                "address": a.address or "",
                "by_code": bool(a.by_code),
            }
            for a in asking
        ],
        "moves": [
            {
                "name": str(m.name),
                "ago": round(now - float(m.at)),
                "at": float(m.at),
                "how": str(m.how),
                "device": m.device or "a device",
                "address": m.address or "",
            }
            for m in moved
        ],
        "addresses": [
            {"address": str(j.address), "students": int(j.n), "last_minute": int(j.recent or 0)} for j in joins
        ],
        "wrong_codes": {str(w.name): int(w.wrong_codes) for w in wrong},
    }
