"""The hub, without a server: every event reaches the pages it concerns, even one committed while views are built.

The freeze the load test found: a page back after a reconnection has no table until its first
view is built; a move committed during that build concerned the page only through the table
the view was about to give it, so it was lost, and the page stayed one move behind for good.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from typing import Any

from ra_classroom.web.hub import Hub, Page


class Socket:
    """A page's socket that keeps what it was sent."""

    def __init__(self, fail: bool = False) -> None:
        self.sent: list[str] = []
        self.fail = fail
        self.closed: int | None = None

    async def send_text(self, data: str) -> None:
        if self.fail:
            raise ConnectionError("the page went away")
        self.sent.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = code


def table_view(sid: int, table: int, ply: int) -> dict[str, Any]:
    return {
        "t": "view",
        "student": sid,
        "room": "ROOM",
        "round": {"id": 1},
        "group": None,
        "table": {"id": table, "ply": ply},
    }


def test_a_move_committed_while_a_returning_pages_first_view_is_built_reaches_it() -> None:
    async def run() -> list[int]:
        board = {"ply": 5}
        building = asyncio.Event()
        release = asyncio.Event()
        builds: list[list[int]] = []

        async def build(ids: Collection[int]) -> dict[int, dict[str, Any]]:
            builds.append(sorted(ids))
            seen = board["ply"]  # what the build read: the board before the move below
            building.set()
            await release.wait()
            return {sid: table_view(sid, 7, seen) for sid in ids}

        hub = Hub(build)
        loop = asyncio.ensure_future(hub.run())
        page = Page(Socket())
        hub.attach(page, 42, "ROOM")  # back after a reconnection: no table known yet
        hub.refresh([42])
        await building.wait()
        board["ply"] = 6  # a table-mate's move commits while the first view is being built ...
        hub.dispatch([{"k": "table", "table": 7}])  # ... and its event arrives before the view is routed
        release.set()
        for _ in range(50):
            await asyncio.sleep(0.01)
        loop.cancel()
        assert isinstance(page.ws, Socket)
        return [int(x.split('"ply":')[1].split("}")[0]) for x in page.ws.sent]

    assert asyncio.run(run()) == [5, 6]  # the page got the board after the move too


def test_events_find_pages_by_room_group_table_and_student() -> None:
    async def run() -> None:
        async def build(ids: Collection[int]) -> dict[int, dict[str, Any]]:
            return {sid: table_view(sid, 10 + sid % 2, 0) for sid in ids}

        hub = Hub(build)
        for sid in (1, 2, 3):
            hub.attach(Page(Socket()), sid, "ROOM")
        hub.attach(Page(Socket()), 4, "OTHER")
        assert hub.concerned({"k": "room", "room": "ROOM"}) == {1, 2, 3}
        assert hub.concerned({"k": "table", "table": 11}) == set()  # no view yet: no table
        hub.refresh([1, 2, 3, 4])
        loop = asyncio.ensure_future(hub.run())
        await asyncio.sleep(0.05)
        loop.cancel()
        assert hub.concerned({"k": "table", "table": 11}) == {1, 3}
        assert hub.concerned({"k": "table", "table": 10}) == {2, 4}
        assert hub.concerned({"k": "student", "student": 4}) == {4}
        assert hub.concerned({"k": "all"}) == {1, 2, 3, 4}
        for page in list(hub.pages[3]):
            hub.detach(page)
        assert hub.concerned({"k": "table", "table": 11}) == {1}
        assert hub.concerned({"k": "room", "room": "ROOM"}) == {1, 2}

    asyncio.run(run())


def test_a_page_that_could_not_take_a_view_is_closed_to_reconnect() -> None:
    async def run() -> Socket:
        async def build(ids: Collection[int]) -> dict[int, dict[str, Any]]:
            return {sid: table_view(sid, 1, 0) for sid in ids}

        hub = Hub(build)
        gone = Socket(fail=True)
        hub.attach(Page(gone), 1, "ROOM")
        hub.refresh([1])
        loop = asyncio.ensure_future(hub.run())
        await asyncio.sleep(0.05)
        loop.cancel()
        return gone

    assert asyncio.run(run()).closed == 1013  # not left open and behind: it reconnects and gets its board
