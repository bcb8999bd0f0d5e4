"""The pages connected to this process, and how an event reaches every page it concerns.

Events name only what changed (a room's round, a group's bids, a table's moves, one student),
never a value: each page concerned gets its own view rebuilt from the database, so what one
student sees never depends on what another was sent. Pages marked while views are being
built wait for the next batch, so a page's views arrive in order and a burst of events costs
one rebuild per page.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Collection, Iterable
from typing import Any, Protocol

__all__ = ["Hub", "Page"]

log = logging.getLogger("ra_classroom")
SEND_TIMEOUT = 10.0  # seconds a page may take to take a message before it is dropped
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
        self.waiting = 0  # messages handed to `send` and not yet sent
        self._lock = asyncio.Lock()  # fair: messages leave in the order they were handed over

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message; a page that is gone or too slow is ignored (it reconnects and gets its view)."""
        data = json.dumps(message, separators=(",", ":"))
        self.waiting += 1
        try:
            async with self._lock:
                await asyncio.wait_for(self.ws.send_text(data), SEND_TIMEOUT)
        except Exception:  # noqa: BLE001 - a page that went away must not stop the others
            log.debug("could not send to a page of student %s", self.student)
        finally:
            self.waiting -= 1

    def post(self, message: dict[str, Any], tasks: set[asyncio.Task[None]]) -> None:
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
        r = view.get("round")
        self.round = r["id"] if r else None
        self.group = view.get("group")
        t = view.get("table")
        self.table = t["id"] if t else None


ViewBuilder = Callable[[Collection[int]], Awaitable[dict[int, dict[str, Any]]]]


class Hub:
    """Every page of this process, by student, and the loop that sends fresh views to the pages concerned."""

    def __init__(self, build: ViewBuilder) -> None:
        self.build = build
        self.pages: dict[int, set[Page]] = {}
        self._dirty: set[int] = set()
        self._wake = asyncio.Event()
        self._sending: set[asyncio.Task[None]] = set()

    def attach(self, page: Page, student: int, room: str) -> None:
        """Register `page` as showing `student` of `room`."""
        self.detach(page)
        page.student, page.room = student, room
        self.pages.setdefault(student, set()).add(page)

    def detach(self, page: Page) -> None:
        """Forget `page` (it closed, or it now shows another student)."""
        if page.student is not None:
            mine = self.pages.get(page.student, set())
            mine.discard(page)
            if not mine:
                self.pages.pop(page.student, None)

    def students(self) -> list[int]:
        """Return the students with a page connected here."""
        return list(self.pages)

    def concerned(self, event: dict[str, Any]) -> set[int]:
        """Return the students here whose page `event` changes."""
        kind = event.get("k")
        found = set()
        for sid, pages in self.pages.items():
            for p in pages:
                if (
                    (kind == "room" and p.room == event.get("room"))
                    or (kind == "group" and p.round == event.get("round") and p.group == event.get("group"))
                    or (kind == "table" and p.table == event.get("table"))
                    or (kind == "student" and sid == event.get("student"))
                    or kind == "all"
                ):
                    found.add(sid)
        return found

    def dispatch(self, events: Iterable[dict[str, Any]]) -> None:
        """Mark the pages that `events` concern, for the next batch of views."""
        for e in events:
            self._dirty |= self.concerned(e)
        if self._dirty:
            self._wake.set()

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
            try:
                views = await self.build(ids)
            except Exception:
                log.exception("could not build the views of %d pages; retrying", len(ids))
                self._dirty |= ids
                await asyncio.sleep(0.5)
                self._wake.set()
                continue
            for sid, view in views.items():
                for page in list(self.pages.get(sid, ())):
                    page.routed(view)
                    page.post(view, self._sending)
