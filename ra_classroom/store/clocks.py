"""Clock rounds in the database: the clock's tick, the students' presses, each group settled once.

The rules are `ra_classroom.auctions.clock`'s; this module stores what they need so that a
server killed at any moment loses nothing it acknowledged:

* **The tick is stored before it is sent.** `tick` advances a round's clock by one tick in a
  transaction (``UPDATE ... WHERE tick = <the one read>``: two processes cannot both advance it),
  and only after the commit is the tick sent to the pages. A server back after a crash finds the
  tick it last stored and goes on from there, one tick at a time: the clock does not jump ahead
  by the time the server was down (students could not have pressed during it).
* **A press is stored before it is acknowledged.** `press` judges it against the tick stored
  (`sent`: a tick not yet stored was never sent, so a press naming it is refused), stores it as
  the student's bid (its price, with its tick in the bid's ``data``), and settles the group at
  once if the press decided it for good.
* **A group is settled once**, when no press still acceptable could change it (`is_final`), or
  when the teacher closes the round: its outcome rows and its result (`clock_results`: the
  deciding tick, price, winner, the draw if any and the sentence the group is told) are written
  in the same transaction, and the round closes itself when its last group is settled.

**A paused clock stands still** (`due` and `tick` pass over a paused round), and a resumed one waits a
full tick before its next price step (`resumed`): the students see the price they paused on for as
long as any other, not a step the moment the round goes on.

**A student away** in an English round: one with no page connected to this process (`connected`)
and not seen by any process (his ``last_seen``, which every process marks for its pages every few
seconds) for `Clock.away` ticks, and `SEEN_SECONDS` at least, is dropped out at the tick being
stored (`auctions.clock.away_press`).
"""

from __future__ import annotations

import dataclasses
import json
from collections import defaultdict
from collections.abc import Collection
from typing import Any

from sqlalchemy import Connection, Row, insert, select, update

from ..auctions.clock import Clock, Press, Refused, away_press, deciding_tick, is_final, judge, settle_clock, still_in
from ..auctions.matching import round_stream
from .hot import Hot
from .refusal import Refusal
from .schema import assignments, bids, clock_results, clocks, outcome_rows, outcomes, rooms, rounds, students

__all__ = ["Ticked", "due", "group_states", "press", "resumed", "settle_rest", "start", "tick", "tick_messages"]

Events = list[dict[str, Any]]
#: A student is away only if no process has seen a page of his for this long at least: each process marks
#: its pages' students as seen every 3 s (`web.classroom.HEARTBEAT_SECONDS`), so one connected to another
#: process is never taken for away, whatever the clock's pace.
SEEN_SECONDS = 7.0


def start(conn: Connection, round_id: int, clock: Clock, seconds: float, now: float) -> None:
    """Store the clock of a round just opened, at tick 0 (shown from now)."""
    conn.execute(
        insert(clocks).values(
            round_id=round_id,
            kind=clock.kind,
            start=clock.start,
            step=clock.step,
            end_price=clock.end,
            grace=clock.grace,
            away=clock.away,
            seconds=seconds,
            tick=0,
            at=now,
        )
    )


def resumed(conn: Connection, round_id: int, now: float) -> None:
    """Make the clock of round `round_id` (if it has one), resumed at `now` after a pause, wait a full tick from now.

    Its last tick is due again `seconds` after `now`, as if just stored: the time the clock had run
    of its tick before the pause is not counted twice.
    """
    conn.execute(update(clocks).where(clocks.c.round_id == round_id).values(at=now))


def clock_of(row: Row[Any]) -> Clock:
    """Return the `Clock` a ``clocks`` row stores."""
    return Clock(row.kind, row.start, row.step, row.end_price, grace=int(row.grace), away=int(row.away))


def _groups(conn: Connection, round_id: int, only: int | None = None) -> dict[int, dict[int, float]]:
    """Return each group's members and their values."""
    query = select(assignments.c.group_no, assignments.c.student_id, assignments.c.value).where(
        assignments.c.round_id == round_id
    )
    if only is not None:
        query = query.where(assignments.c.group_no == only)
    found: dict[int, dict[int, float]] = defaultdict(dict)
    for a in conn.execute(query.order_by(assignments.c.group_no, assignments.c.student_id)):
        found[int(a.group_no)][int(a.student_id)] = float(a.value)
    return dict(found)


def _presses(conn: Connection, round_id: int, only: int | None = None) -> dict[int, list[Press]]:
    """Return each group's presses: the round's bids, each with the tick its page showed (in its ``data``)."""
    query = (
        select(assignments.c.group_no, bids.c.student_id, bids.c.data)
        .select_from(
            bids.join(
                assignments,
                (assignments.c.round_id == bids.c.round_id) & (assignments.c.student_id == bids.c.student_id),
            )
        )
        .where(bids.c.round_id == round_id)
    )
    if only is not None:
        query = query.where(assignments.c.group_no == only)
    found: dict[int, list[Press]] = defaultdict(list)
    for p in conn.execute(query):
        data = json.loads(p.data)
        found[int(p.group_no)].append(Press(int(p.student_id), int(data["tick"]), bool(data.get("away", False))))
    return found


def _store(conn: Connection, round_id: int, student_id: int, tick: int, price: float, now: float, away: bool) -> None:
    """Store a press as the student's bid in the round: its price, and its tick (and whether he was away)."""
    data = json.dumps({"tick": tick, "away": away})
    conn.execute(insert(bids).values(round_id=round_id, student_id=student_id, amount=price, placed_at=now, data=data))


def _settled(conn: Connection, round_id: int) -> set[int]:
    return {
        int(g)
        for g in conn.execute(select(clock_results.c.group_no).where(clock_results.c.round_id == round_id)).scalars()
    }


def _settle(
    conn: Connection,
    round_id: int,
    group_no: int,
    clock: Clock,
    values: dict[int, float],
    pressed: list[Press],
    now: float,
    stopped: int | None = None,
) -> None:
    """Write a group's outcome rows and its result, once."""
    r = conn.execute(
        select(rooms.c.seed, rounds.c.number)
        .select_from(rounds.join(rooms, rooms.c.code == rounds.c.room))
        .where(rounds.c.id == round_id)
    ).one()
    rng = round_stream(r.seed, int(r.number), f"ties:{group_no}")
    s = settle_clock(clock, sorted(values.items()), pressed, rng, stopped)
    conn.execute(
        insert(clock_results).values(
            round_id=round_id,
            group_no=group_no,
            tick=s.tick,
            price=s.price,
            winner=s.winner,
            tied=json.dumps(list(s.tied)),
            sentence=s.sentence,
            at=now,
        )
    )
    conn.execute(insert(outcomes), outcome_rows(round_id, s.outcomes))


def press(conn: Connection, student_id: int, round_id: Any, tick: Any, now: float) -> tuple[dict[str, Any], Events]:
    """Store a student's press at the tick his page showed; return its tick, price and the group's count still in.

    Raises:
        Refusal: not a clock round he bids in, the round closed or paused, his group's auction
            over, or a press the clock's rules refuse (`auctions.clock.judge`: a tick not yet
            sent, one too old, a second press).
    """
    if isinstance(round_id, bool) or not isinstance(round_id, int):
        raise Refusal("A press names its round.")
    if isinstance(tick, bool) or not isinstance(tick, int):
        raise Refusal("A press names the tick your page showed, a whole number.")
    row = conn.execute(
        select(rounds.c.status, rounds.c.number, rounds.c.paused_at).where(rounds.c.id == round_id).with_for_update()
    ).first()
    c = conn.execute(select(clocks).where(clocks.c.round_id == round_id)).first()
    mine = conn.execute(
        select(assignments.c.group_no).where(assignments.c.round_id == round_id, assignments.c.student_id == student_id)
    ).first()
    if row is None or c is None or mine is None:
        raise Refusal("You are not bidding on a clock in that round.")
    if row.status != "open":
        raise Refusal(f"Round {row.number} is closed: your press came too late and was not counted.")
    if row.paused_at is not None:
        raise Refusal(f"The teacher has paused round {row.number}: the clock stands still until it goes on.")
    g = int(mine.group_no)
    if g in _settled(conn, round_id):
        raise Refusal("Your group's auction is over: your press was not counted.")
    clock = clock_of(c)
    values = _groups(conn, round_id, g)[g]
    pressed = _presses(conn, round_id, g).get(g, [])
    new = Press(student_id, tick)
    try:
        judge(clock, values, pressed, new, int(c.tick))
    except Refused as why:
        raise Refusal(str(why)[0].upper() + str(why)[1:] + ".") from None
    price = clock.price(tick)
    _store(conn, round_id, student_id, tick, price, now, away=False)
    pressed = [*pressed, new]
    if is_final(clock, values, pressed, int(c.tick)):
        _settle(conn, round_id, g, clock, values, pressed, now)
        _close_if_done(conn, round_id, now)
    events: Events = [{"k": "group", "round": round_id, "group": g}]
    return {"tick": tick, "price": price, "in": still_in(clock, values, pressed, int(c.tick))}, events


def _close_if_done(conn: Connection, round_id: int, now: float) -> bool:
    """Close the round if every group is settled; return whether it did."""
    groups = set(_groups(conn, round_id))
    if groups - _settled(conn, round_id):
        return False
    done = conn.execute(
        update(rounds).where(rounds.c.id == round_id, rounds.c.status == "open").values(status="closed", closed_at=now)
    )
    return bool(done.rowcount == 1)


_RUNNING = Hot(  # read by every process every quarter of a second: compiled once, run on the driver's cursor
    select(clocks.c.round_id, clocks.c.at, clocks.c.seconds)
    .select_from(clocks.join(rounds, rounds.c.id == clocks.c.round_id))
    .where(rounds.c.status == "open", rounds.c.paused_at.is_(None))
)


def due(conn: Connection) -> list[tuple[int, float]]:
    """Return each running clock (its round open and not paused) and when its next tick is due."""
    rows = _RUNNING.rows(conn)
    return [(int(r.round_id), float(r.at) + float(r.seconds)) for r in rows]


@dataclasses.dataclass(frozen=True)
class Ticked:
    """What `tick` did: each running clock's next due time, and each clock ticked's messages, by group.

    The messages are those `tick_messages` would read once the tick is committed: the process
    that stored the tick sends them at once; the others read them when they hear of the tick.
    """

    due: list[tuple[int, float]]
    messages: dict[int, tuple[int, dict[int, dict[str, Any]]]]  # round -> (its tick, group -> its pages' message)


def tick(conn: Connection, now: float, connected: Collection[int] = ()) -> tuple[Ticked, Events]:
    """Advance every clock whose tick is due by one tick; return what it did (`Ticked`) and the events.

    With each tick: students away in an English round are dropped out (see the module's
    docstring; `connected`: the students with a page on this process), the groups no press can
    change any more are settled, and a round whose groups are all settled closes. The event of
    a tick names its round and the tick (``{"k": "clock", "round": 7, "tick": 12}``).
    """
    events: Events = []
    messages: dict[int, tuple[int, dict[int, dict[str, Any]]]] = {}
    rows = conn.execute(
        select(clocks, rounds.c.room)
        .select_from(clocks.join(rounds, rounds.c.id == clocks.c.round_id))
        .where(rounds.c.status == "open", rounds.c.paused_at.is_(None), clocks.c.at + clocks.c.seconds <= now)
    ).all()
    for c in rows:
        round_id, sent = int(c.round_id), int(c.tick) + 1
        moved = conn.execute(
            update(clocks).where(clocks.c.round_id == round_id, clocks.c.tick == c.tick).values(tick=sent, at=now)
        )
        if moved.rowcount != 1:  # another process stored this tick
            continue
        clock = clock_of(c)
        events.append({"k": "clock", "round": round_id, "tick": sent})
        settled = _settled(conn, round_id)
        groups = {g: v for g, v in _groups(conn, round_id).items() if g not in settled}
        pressed = _presses(conn, round_id)
        if clock.kind == "english" and sent <= clock.last:
            for g, new in _away(conn, round_id, clock, groups, pressed, sent, now, float(c.seconds), connected).items():
                pressed[g] = pressed.get(g, []) + new
                events.append({"k": "group", "round": round_id, "group": g})
        messages[round_id] = (sent, {})
        for g, values in groups.items():
            if is_final(clock, values, pressed.get(g, []), sent):
                _settle(conn, round_id, g, clock, values, pressed.get(g, []), now)
                events.append({"k": "group", "round": round_id, "group": g})
            else:
                state = _state(clock, values, pressed.get(g, []), sent)
                messages[round_id][1][g] = {"t": "tick", "round": round_id, **state, "at": now}
        if _close_if_done(conn, round_id, now):
            events.append({"k": "room", "room": str(c.room)})
    return Ticked(due(conn), messages), events


def _away(
    conn: Connection,
    round_id: int,
    clock: Clock,
    groups: dict[int, dict[int, float]],
    pressed: dict[int, list[Press]],
    sent: int,
    now: float,
    seconds: float,
    connected: Collection[int],
) -> dict[int, list[Press]]:
    """Store a drop for each student still in who has been away for `clock.away` ticks; return them by group."""
    waiting = [s for g, values in groups.items() for s in values if s not in {p.student for p in pressed.get(g, [])}]
    if not waiting:
        return {}
    gone = {
        int(r.id)
        for r in conn.execute(
            select(students.c.id).where(
                students.c.id.in_(waiting), students.c.last_seen < now - max(clock.away * seconds, SEEN_SECONDS)
            )
        )
        if int(r.id) not in connected
    }
    found: dict[int, list[Press]] = defaultdict(list)
    for g, values in groups.items():
        for s in sorted(gone & set(values)):
            drop = away_press(s, sent)
            try:
                judge(clock, values, pressed.get(g, []) + found[g], drop, sent)
            except Refused:
                continue  # his group was decided before: the drop changes nothing
            _store(conn, round_id, s, sent, clock.price(sent), now, away=True)
            found[g].append(drop)
    return dict(found)


def settle_rest(conn: Connection, round_id: int, now: float) -> bool:
    """Settle every group of a clock round not settled yet, at the tick its clock reached (the teacher closed it).

    Return False if the round has no clock (nothing done).
    """
    c = conn.execute(select(clocks).where(clocks.c.round_id == round_id)).first()
    if c is None:
        return False
    clock, settled, pressed = clock_of(c), _settled(conn, round_id), _presses(conn, round_id)
    for g, values in _groups(conn, round_id).items():
        if g not in settled:
            stopped = None if int(c.tick) > clock.last else int(c.tick)
            _settle(conn, round_id, g, clock, values, pressed.get(g, []), now, stopped)
    return True


def group_states(conn: Connection, round_id: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Return a clock round's settings as pages show them, and each group's clock as its pages show it now.

    A group's clock shows the tick stored, held at the tick that decided the group (its price
    stops there while presses under way may still arrive) and at the clock's last tick; with
    the count still in (English, no names), whether the group is decided, and its result once settled.
    """
    c = conn.execute(select(clocks).where(clocks.c.round_id == round_id)).first()
    if c is None:
        return {}, {}
    clock = clock_of(c)
    settings = {
        "kind": clock.kind,
        "start": clock.start,
        "step": clock.step,
        "end": clock.end,
        "seconds": float(c.seconds),
        "grace": clock.grace,
        "away": clock.away,
        "last": clock.last,
        "sent": int(c.tick),  # the round's clock: the last tick stored and sent, and its price
        "now": clock.price(min(int(c.tick), clock.last)),
        "at": float(c.at),  # when the last tick was stored (the server's clock): a page may measure its delay by it
    }
    results = {
        int(r.group_no): r for r in conn.execute(select(clock_results).where(clock_results.c.round_id == round_id))
    }
    pressed = _presses(conn, round_id)
    states: dict[int, dict[str, Any]] = {}
    sent = int(c.tick)
    for g, values in _groups(conn, round_id).items():
        state = _state(clock, values, pressed.get(g, []), sent)
        state["stopped"] = state["stopped"] or g in results
        if g in results:
            r = results[g]
            state["result"] = {"tick": r.tick, "price": r.price, "tied": json.loads(r.tied), "sentence": r.sentence}
        states[g] = state
    return settings, states


def _state(clock: Clock, values: Collection[int], pressed: list[Press], sent: int) -> dict[str, Any]:
    """Return a group's clock as its pages show it, the last tick stored being `sent` (see `group_states`)."""
    decided = deciding_tick(clock, values, pressed)
    shown = min(sent, clock.last, sent if decided is None else decided)
    return {
        "tick": shown,
        "price": clock.price(shown),
        "stopped": decided is not None,
        "in": still_in(clock, values, pressed, shown) if clock.kind == "english" else None,
    }


def tick_messages(conn: Connection, round_id: int) -> tuple[int, dict[int, dict[str, Any]]]:
    """Return the last tick stored, and the message each group's pages get for it (groups settled get none)."""
    settings, states = group_states(conn, round_id)
    if not settings:
        return -1, {}
    return settings["sent"], {
        g: {
            "t": "tick",
            "round": round_id,
            "tick": s["tick"],
            "price": s["price"],
            "in": s["in"],
            "stopped": s["stopped"],
            "at": settings["at"],
        }
        for g, s in states.items()
        if "result" not in s
    }
