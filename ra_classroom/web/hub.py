"""The pages connected to this process, and how an event reaches every page it concerns.

Events name only what changed (a room's round, a group's bids, a table's moves, one student),
never a value: each page concerned gets its own view rebuilt from the database, so what one
student sees never depends on what another was sent. Pages marked while views are being
built wait for the next batch, so a page's views arrive in order and a burst of events costs
one rebuild per page.

No page misses an event. A view tells which events concern its page (its room, round, group
and table), and a page is found by those routes, indexed per student. An event committed
while a batch of views is being built may concern a page only by the route that batch gives
it (a page back after a reconnection has no table until its first view): so the events that
arrive during a build are matched again once its views have set the new routes. Any event
committed before a build began is in what the build reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Collection, Hashable, Iterable
from typing import Any, Protocol

import orjson

from .wire import UTF8_TEXT

__all__ = ["Hub", "Page"]

log = logging.getLogger("ra_classroom")
SEND_TIMEOUT = 10.0  # seconds a page may take to take a message before it is dropped
_NON_STR = orjson.OPT_NON_STR_KEYS  # a view's keys may be numbers (seats)
BACKLOG = 8  # messages waiting for one slow page before it is closed (it reconnects and gets a fresh view)


class Socket(Protocol):
    """What the hub needs of a websocket: send text, close."""

    async def send_text(self, data: str) -> None:
        """Send one text message."""

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Close the connection."""


class Page:
    """One connected page: its socket, its student once he has joined, and what its last view showed."""

    def __init__(self, ws: Socket) -> None:
        self.ws = ws
        self.student: int | None = None
        self.room: str | None = None
        self.round: int | None = None
        self.group: int | None = None
        self.table: int | None = None
        self.seat: str | None = None  # the hash of the seat token it holds
        self.address = ""  # the network address it came from
        self.device: Any = None  # the device it runs on (`ra_classroom.store.rooms.Device`), once known
        self.waiting = 0  # messages handed to `send` and not yet sent
        self.heard = time.monotonic()  # when its last message came (or it opened)
        self._lock = asyncio.Lock()  # fair: messages leave in the order they were handed over
        scope = getattr(ws, "scope", None)  # a server whose protocol takes text as UTF-8 bytes (`wire.UTF8_TEXT`):
        utf8 = isinstance(scope, dict) and UTF8_TEXT in (scope.get("extensions") or {})
        self._asgi: Callable[[dict[str, Any]], Awaitable[None]] | None = getattr(ws, "send", None) if utf8 else None

    async def send(self, message: dict[str, Any] | str) -> None:
        """Send one message (or its JSON text, encoded once for many pages); a page that cannot take it is closed.

        A message that did not arrive must not leave the page open and behind: it would show an
        old board for good (it reconnects and gets its current view).
        """
        self.waiting += 1
        try:
            async with self._lock, asyncio.timeout(SEND_TIMEOUT):  # no task of its own, as wait_for would make
                if isinstance(message, str):
                    await self.ws.send_text(message)
                elif self._asgi is not None:  # the JSON's bytes framed as they are, never decoded and encoded again
                    await self._asgi({"type": "websocket.send", "utf8": orjson.dumps(message, option=_NON_STR)})
                else:
                    await self.ws.send_text(orjson.dumps(message, option=_NON_STR).decode())
        except Exception:  # noqa: BLE001 - a page that went away must not stop the others
            log.debug("could not send to a page of student %s; closing it", self.student)
            with contextlib.suppress(Exception):
                await self.ws.close(1013, "missed a message: reconnect")
        finally:
            self.waiting -= 1

    def post(self, message: dict[str, Any] | str, tasks: set[asyncio.Task[None]]) -> None:
        """Send `message` without waiting for it; close the page instead if too many are waiting for it.

        A page on a slow network must not hold up the others: its messages queue behind its own
        lock, and past `BACKLOG` the page is closed (code 1013, try again later); its script
        reconnects and gets its current view.
        """
        if self.waiting >= BACKLOG:
            task = asyncio.ensure_future(self.ws.close(1013, "too slow: reconnect"))
        else:
            task = asyncio.ensure_future(self.send(message))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    def routed(self, view: dict[str, Any]) -> None:
        """Remember what `view` shows, to know which later events concern this page."""
        self.round, self.group, self.table = routes_of(view)


def routes_of(view: dict[str, Any]) -> tuple[int | None, int | None, int | None]:
    """Return the round, group and table a view shows (None where it shows none)."""
    r, t = view.get("round"), view.get("table")
    return (r["id"] if r else None), view.get("group"), (t["id"] if t else None)


ViewBuilder = Callable[[Collection[int]], Awaitable[dict[int, dict[str, Any]]]]
TickBuilder = Callable[[int], Awaitable[tuple[int, dict[int, dict[str, Any]]]]]  # a clock's tick, each group's message


class Hub:
    """Every page of this process, by student, and the loop that sends fresh views to the pages concerned."""

    def __init__(self, build: ViewBuilder, ticks: TickBuilder | None = None) -> None:
        self.build = build
        self.ticks = ticks
        self._ticked: dict[int, int] = {}  # each clock's last tick sent from here (`post_ticks`)
        self.pages: dict[int, set[Page]] = {}
        self._keys: dict[int, tuple[Hashable, ...]] = {}  # each student's routes, as keys of `_index`
        self._index: dict[Hashable, set[int]] = {}  # ("room", code), ("group", round, group), ("table", id)
        self._seats: dict[str, int] = {}  # the hash of each seat token with pages here, and its student
        self._dirty: set[int] = set()
        self._during: list[dict[str, Any]] | None = None  # events that arrived while a batch was built
        self._wake = asyncio.Event()
        self._sending: set[asyncio.Task[None]] = set()

    def attach(self, page: Page, student: int, room: str, seat: str | None = None) -> None:
        """Register `page` as showing `student` of `room`, by the seat token whose hash is `seat`."""
        self.detach(page)
        page.student, page.room, page.seat = student, room, seat
        if student not in self.pages:
            self._route(student, (("room", room),))
        self.pages.setdefault(student, set()).add(page)
        if seat is not None:
            self._seats[seat] = student

    def pages_of_seat(self, seat: str) -> int:
        """Return how many pages are open here on the seat token whose hash is `seat`."""
        student = self._seats.get(seat)
        return 0 if student is None else len(self.pages.get(student, ()))

    def detach(self, page: Page) -> int | None:
        """Forget `page` (it closed, or it now shows another student); return its student if it was his last here."""
        if page.student is not None:
            mine = self.pages.get(page.student, set())
            mine.discard(page)
            if not mine:
                self.pages.pop(page.student, None)
                self._route(page.student, ())
                if page.seat is not None:
                    self._seats.pop(page.seat, None)
                return page.student
        return None

    def _route(self, student: int, keys: tuple[Hashable, ...]) -> None:
        """Make `keys` the routes by which events find `student`'s pages."""
        for key in self._keys.pop(student, ()):
            found = self._index.get(key)
            if found is not None:
                found.discard(student)
                if not found:
                    del self._index[key]
        if keys:
            self._keys[student] = keys
            for key in keys:
                self._index.setdefault(key, set()).add(student)

    def students(self) -> list[int]:
        """Return the students with a page connected here."""
        return list(self.pages)

    def concerned(self, event: dict[str, Any]) -> set[int]:
        """Return the students here whose page `event` changes."""
        kind = event.get("k")
        if kind == "all":
            return set(self.pages)
        if kind == "student":
            sid = event.get("student")
            return {sid} if sid in self.pages else set()
        key: Hashable
        if kind == "room":
            key = ("room", event.get("room"))
        elif kind == "group":
            key = ("group", event.get("round"), event.get("group"))
        elif kind == "table":
            key = ("table", event.get("table"))
        else:
            return set()
        return set(self._index.get(key, ()))

    def dispatch(self, events: Iterable[dict[str, Any]]) -> None:
        """Mark the pages that `events` concern, for the next batch of views; close those a student left.

        Events that arrive while a batch of views is being built are dispatched again after it
        (`run`), since the batch may give a page the route that they concern. A leave is not: it
        acts at once, and once is enough (again, it would close the new device's page).
        """
        events = list(events)
        if self._during is not None:
            self._during += [e for e in events if e.get("k") not in ("leave", "confirm")]
        for e in events:
            if e.get("k") == "leave":
                self.leave(e.get("student"), str(e.get("why", "")), bool(e.get("removed")))
            elif e.get("k") == "confirm":
                self.ask_pages(e)
            elif e.get("k") == "clock":
                self._tick(e.get("round"), e.get("tick"))
            else:
                self._dirty |= self.concerned(e)
        if self._dirty:
            self._wake.set()

    def ask_pages(self, event: dict[str, Any], only: Page | None = None) -> None:
        """Ask the pages of a seat here (or page `only`) whether the device that typed its rejoin code may take it."""
        device = str(event.get("device", "a device"))
        why = (
            f"Your rejoin code was just typed on another device ({device}). If that was you, move your seat there;"
            " if not, keep it here: nobody takes it while this page is open."
        )
        message = {"t": "confirm", "request": event.get("request"), "device": device, "why": why}
        student = event.get("student")
        pages = self.pages.get(student, set()) if isinstance(student, int) else set()
        for page in [only] if only is not None else pages:
            page.post(message, self._sending)

    def post_ticks(self, messages: dict[int, tuple[int, dict[int, dict[str, Any]]]]) -> None:
        """Send clocks' ticks (round -> its tick, and each group's message) to the pages of their rounds here.

        A tick changes only the price and the count still in, the same for every page of a group,
        so no view is rebuilt: each group's message is encoded once for all its pages. A tick sent
        here already is not sent again; a page that shows a group's result, or a newer tick,
        ignores one (`static/student.js`).
        """
        for round_id, (tick, groups) in messages.items():
            if tick <= self._ticked.get(round_id, -1):
                continue
            self._ticked[round_id] = tick
            for group, message in groups.items():
                text = orjson.dumps(message).decode()
                for student in self._index.get(("group", round_id, group), ()):  # the routes `concerned` reads
                    for page in self.pages.get(student, ()):
                        if page.round == round_id and page.group == group:
                            page.post(text, self._sending)

    def _tick(self, round_id: Any, tick: Any) -> None:
        """Send a clock's tick that another process stored (`post_ticks` has sent this process's own).

        Its messages are read from the database, once for all the pages of the round here.
        """
        if self.ticks is None or not isinstance(round_id, int):
            return
        if isinstance(tick, int) and self._ticked.get(round_id, -1) >= tick:
            return  # stored here, and sent already
        ticks = self.ticks

        async def send() -> None:
            try:
                read = await ticks(round_id)
            except Exception:
                log.exception("could not read round %s's clock; its pages get its next tick", round_id)
                return
            self.post_ticks({round_id: read})

        task = asyncio.ensure_future(send())
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    def leave(self, student: Any, why: str, removed: bool = False) -> None:
        """Close every page of `student` here, telling it `why` (removed, or his seat open on another device).

        They are forgotten at once, so a page that takes the seat right after is not closed with them.
        """
        for page in self.pages.pop(student, set()):
            page.student = None
            if page.seat is not None:
                self._seats.pop(page.seat, None)

            async def bye(page: Page = page) -> None:
                await page.send({"t": "bye", "why": why, "removed": removed})
                await page.ws.close(4001, "left the seat")

            task = asyncio.ensure_future(bye())
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)
        if isinstance(student, int):
            self._route(student, ())

    def count(self) -> int:
        """Return how many pages are open here with a student."""
        return sum(len(pages) for pages in self.pages.values())

    def shed(self, count: int, quiet: float) -> int:
        """Close up to `count` pages silent for `quiet` seconds, for them to reconnect elsewhere; return how many.

        Code 1012 (service restart): the page reconnects at once, without a word to its student,
        and gets its current view there. A page that spoke lately is left alone: its student
        may be in the middle of a click.
        """
        since = time.monotonic() - quiet
        chosen = [page for pages in self.pages.values() for page in pages if page.heard <= since][:count]
        for page in chosen:
            self.detach(page)
            task = asyncio.ensure_future(page.ws.close(1012, "moving to another server process"))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)
        return len(chosen)

    def refresh(self, students: Iterable[int]) -> None:
        """Mark these students' pages for a fresh view."""
        self._dirty.update(s for s in students if s in self.pages)
        if self._dirty:
            self._wake.set()

    async def run(self) -> None:
        """Send fresh views, batch after batch, for as long as the server runs."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            ids, self._dirty = self._dirty, set()
            self._during = []
            try:
                views = await self.build(ids)
            except Exception:
                log.exception("could not build the views of %d pages; retrying", len(ids))
                self._during = None
                self._dirty |= ids
                await asyncio.sleep(0.5)
                self._wake.set()
                continue
            for sid, view in views.items():
                pages = self.pages.get(sid)
                if not pages:
                    continue
                round_id, group, table = routes_of(view)
                room = next(iter(pages)).room  # the room he joined: views cannot move him to another
                self._route(sid, (("room", room), ("group", round_id, group), ("table", table)))
                for page in list(pages):
                    page.routed(view)
                    page.post(view, self._sending)
            late, self._during = self._during, None
            self.dispatch(late)  # an event of this build's time may concern a page by the route it has just got
