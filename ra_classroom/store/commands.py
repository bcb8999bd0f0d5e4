"""The classroom's commands: each one transaction, returning its result and the events to send once committed.

The server (`ra_classroom.web.classroom`) only runs these, in a database thread, and hands their
events to its pages after the commit; every check and every refusal is here or below. Each
command is ``fn(conn, ..., now)``: the time is read inside the transaction, when it runs.

A click at a Ra table, a move or a step of a choice alike, has one way in: `move` and `step` both
go through `table_moves.click`, which hands the round's state (closed, paused, the seat held
by a bot) to the one judge of a click (`ra_core.table.judge`) as its ``closed``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from ..game.table import Selection, read_click
from ..kinds.spec import RoundSpec
from . import clocks, processes, rooms, roster, rounds, table_moves
from .bus import forget_old_events
from .pages import table_view
from .refusal import Refusal
from .table_moves import TableCache

__all__ = [
    "STUDENT_ACTIONS",
    "Done",
    "Ticked",
    "act",
    "answer",
    "ask",
    "away",
    "bid",
    "clock_ticks",
    "close_round",
    "create_room",
    "hello",
    "join",
    "move",
    "on_student",
    "open_round",
    "press",
    "remove_burst",
    "running_clocks",
    "set_size",
    "step",
    "sweep",
    "tick",
]

Events = list[dict[str, Any]]
Done = tuple[Any, Events]  #: what a command returns: its result, and the events to send once it has committed
#: The teacher's actions on a student.
STUDENT_ACTIONS = ("remove", "rename", "reseat", "refuse", "bot", "back", "readmit")


# -- the students' commands ----------------------------------------------------------------


def join(
    conn: Connection, room: Any, name: Any, code: Any, now: float, device: rooms.Device | None = None
) -> tuple[rooms.Joined | rooms.Asked | Refusal, Events]:
    """Seat a new student, or give one his seat back with his rejoin code (see `rooms.join`).

    A wrong rejoin code is returned as the `Refusal` to raise, not raised: its count against the
    name must be committed. A code typed for a seat whose page is connected asks that page.
    """
    device = device or rooms.NO_DEVICE
    try:
        joined = rooms.join(conn, room, name, now, code, device)
    except rooms.WrongCode as wrong:
        return wrong, []
    if isinstance(joined, rooms.Asked):
        return joined, [roster.confirm_event(joined, device.what, _student_of(conn, joined))]
    if not joined.moved:
        return joined, []
    why = f"Your seat is now open on another device ({device.what or 'a device'}): your rejoin code was typed there."
    return joined, [{"k": "leave", "student": joined.student, "why": why}, {"k": "room", "room": joined.room}]


def _student_of(conn: Connection, asked: rooms.Asked) -> int:
    """Return the student whose seat the request of `asked` is for."""
    return roster.find(conn, asked.room, asked.name)[0]


def ask(
    conn: Connection, room: Any, name: Any, now: float, device: rooms.Device | None = None
) -> tuple[rooms.Asked, Events]:
    """Ask the teacher for a student's seat from a new device; return what the device waits with."""
    asked = roster.ask(conn, room, name, now, device or rooms.NO_DEVICE)
    return asked, [{"k": "room", "room": asked.room}]


def answer(conn: Connection, student: int, request: Any, yes: Any, now: float) -> tuple[bool, Events]:
    """The seat's own page says whether the device that typed its rejoin code may take it (`roster.answer`)."""
    return roster.answer(conn, student, request, yes, now)


def hello(
    conn: Connection, cache: TableCache, token: Any, now: float
) -> tuple[tuple[int, str, str, str | None], Events]:
    """Find a seat token's student; give him back the seats bots played meanwhile, and a rejoin code if none.

    A device that typed the seat's rejoin code gets the seat here once the seat's page has been
    away long enough (`roster.pending`).

    Raises:
        Pending: the token is a device's that asked for a seat, and it has not been let in yet.
    """
    moved: Events = []
    try:
        sid, room, name = rooms.hello(conn, token, now)
    except Refusal:
        let_in = roster.pending(conn, token, now)
        if let_in is None:
            raise
        moved = let_in
        sid, room, name = rooms.hello(conn, token, now)
    back = table_moves.return_seats(conn, cache, sid, now)
    return (sid, room, name, roster.new_rejoin(conn, sid)), moved + back


def away(conn: Connection, student: int, now: float) -> tuple[None, Events]:
    """Mark that a student's last page on this process closed (`rooms.away`)."""
    rooms.away(conn, student, now)
    return None, []


def bid(conn: Connection, student: int, round_id: Any, amount: Any, now: float) -> tuple[int, Events]:
    """Store a sealed bid; return how many of the student's group have bid."""
    return rounds.place_bid(conn, student, round_id, {"t": "bid", "amount": amount}, now)


def act(conn: Connection, student: int, round_id: Any, data: Any, now: float) -> tuple[int, Events]:
    """Store an action of the round's kind's own (`data`, read by the kind); return how many of his group have acted."""
    return rounds.place_bid(conn, student, round_id, {"t": "act", "data": data}, now)


def press(conn: Connection, student: int, round_id: Any, tick: Any, now: float) -> tuple[dict[str, Any], Events]:
    """Store a press on a clock at the tick the student's page showed; return its tick, price and the count still in."""
    return clocks.press(conn, student, round_id, tick, now)


Ticked = clocks.Ticked


def running_clocks(conn: Connection) -> list[tuple[int, float]]:
    """Return each running clock's round and when its next tick is due (a reading transaction)."""
    return clocks.due(conn)


def clock_ticks(conn: Connection, round_id: int) -> tuple[int, dict[int, dict[str, Any]]]:
    """Return a clock's last tick stored and each group's message for it (a reading transaction)."""
    return clocks.tick_messages(conn, round_id)


def tick(conn: Connection, now: float, connected: frozenset[int]) -> tuple[Ticked, Events]:
    """Advance every clock whose tick is due; return the next due times and the ticks' messages (`clocks.tick`)."""
    return clocks.tick(conn, now, connected)


def move(
    conn: Connection, cache: TableCache, student: int, table: Any, action: Any, version: Any, now: float
) -> tuple[int, Events]:
    """Make a move at a Ra table (its text read once, here); return the table's new ply."""
    clicked = read_click({"action": action, "version": version}, versioned=version is not None)
    _, ply, events = table_moves.click(conn, cache, student, table, clicked, now)
    return ply, events


def step(
    conn: Connection, cache: TableCache, student: int, table: Any, version: Any, ui: str, sel: Selection, now: float
) -> dict[str, Any]:
    """Return a student's table after a step of a choice in progress (nothing is stored), in a reading transaction."""
    answer, _, _ = table_moves.click(conn, cache, student, table, read_click({"ui": ui, "version": version}), now, sel)
    return table_view(conn, cache, table, student, answer.selection, live=True)


def sweep(
    conn: Connection,
    cache: TableCache,
    now: float,
    *,
    here: list[int],
    connected: frozenset[int],
    beat: float,
    shared: bool,
) -> tuple[None, Events]:
    """Mark the students `here` present, close the rounds whose time is up, let bots play the turns of absent students.

    `connected` are the students with a page on this process; `beat` the seconds between two
    marks of presence; `shared`: other processes share this SQLite file (its old events go).
    """
    rooms.heartbeat(conn, here, now)
    if here and shared:  # every few seconds
        forget_old_events(conn, now)
    absent = table_moves.take_over_absent(conn, cache, now, connected, beat)
    return None, rounds.close_due(conn, now) + absent


def report_pages(conn: Connection, origin: str, pages: int, now: float) -> tuple[int, Events]:
    """Record the pages process `origin` holds; return how many it should close to even them out (`processes`)."""
    return processes.surplus(origin, processes.report(conn, origin, pages, now)), []


# -- the teacher's commands ----------------------------------------------------------------


def create_room(conn: Connection, code: str | None, seed: str | None, size: Any, now: float) -> tuple[str, Events]:
    """Create a room (of at most `size` students); return its code."""
    return rooms.create_room(conn, now, code, seed, size), []


def set_size(conn: Connection, room: str, size: Any) -> tuple[dict[str, Any], Events]:
    """Let at most `size` students join `room`; return its size and how many are in."""
    return rooms.set_size(conn, room, size), []


def open_round(conn: Connection, cache: TableCache, room: str, spec: RoundSpec, now: float) -> Done:
    """Open the next round of `room`."""
    return rounds.open_round(conn, room, spec, cache, now), [{"k": "room", "room": room}]


def close_round(conn: Connection, room: str, round_id: int | None, now: float) -> Done:
    """Close the open round of `room` and settle it."""
    info = rounds.close_round(conn, room, round_id, now)
    return {"round": info["round"]}, info["events"]


def on_student(
    conn: Connection,
    cache: TableCache,
    room: str,
    action: str,
    who: Any,
    to: Any,
    now: float,
    request: Any = None,
) -> tuple[dict[str, Any], Events]:
    """Do one of the teacher's `STUDENT_ACTIONS` to the student `who` (his name or id) of `room`.

    ``remove``, ``rename`` (to `to`), ``reseat`` (let in the device of `request`, or the one
    device asking for his seat), ``refuse`` (it), ``bot`` (bots play his seats until ``back``),
    ``readmit`` (a removed student's device may join again, under another name).
    """
    if action not in STUDENT_ACTIONS:
        raise Refusal(f"No such action on a student: {action[:20]!r}; known: {', '.join(STUDENT_ACTIONS)}.")
    if action == "remove":
        name, events = roster.remove(conn, cache, room, who, now)
    elif action == "rename":
        name, events = roster.rename(conn, room, who, to)
    elif action == "reseat":
        name, events = roster.reseat(conn, room, who, now, request)
    elif action == "refuse":
        name, events = roster.refuse(conn, room, who, request)
    elif action == "readmit":
        name, events = roster.readmit(conn, room, who)
    else:
        sid, name = roster.find(conn, room, who)
        bot = action == "bot"
        events = table_moves.hand_to_bot(conn, cache, sid, now) if bot else table_moves.give_back(conn, sid)
        if not events and bot:
            raise Refusal(f"{name} has no seat at an open Ra table: bots play Ra seats only.")
        if not events:
            raise Refusal(f"{name} has no seat that the teacher handed to a bot.")
    return {"name": name, "done": action}, events


def remove_burst(
    conn: Connection, cache: TableCache, room: str, address: Any, seconds: Any, now: float, until: Any = 0
) -> tuple[dict[str, Any], Events]:
    """Remove the students of `room` who joined from `address` between `seconds` and `until` seconds ago."""
    names, events = roster.remove_burst(conn, cache, room, address, seconds, now, until)
    return {"removed": names, "address": address}, events
