"""The classroom in a real browser: Debian's chromium, Playwright, a real classroom server.

Three pages sit at one Ra table and play turns by clicking on the board (the pieces marked with
the action they stand for); after each click every page shows the board the engine says (the
same game replayed headless from the same seed and clicks). Then three pages bid in a sealed-bid
round while the teacher's side closes it and reads the results. On failure a screenshot of each
page is saved next to this file.

Without chromium the tests fail under CI (``CI`` set) and are skipped elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_play_in_browser import _need_browser  # type: ignore[import-not-found]

from ra_classroom import ControlRoom
from ra_classroom.game.table import TableGame
from ra_core import parse_action

NAMES = ["Ann", "<b>Eve</b>", "Bo & Co"]  # a name with markup must show as text, never as markup


@pytest.fixture
def room(tmp_path: Path) -> Iterator[ControlRoom]:
    _need_browser()
    control = ControlRoom.start(database=str(tmp_path / "class.db"), results=tmp_path / "results")
    yield control
    control.stop()
    if control.server is not None:  # a test that moved to a room of its own left the first one on the server
        control.server.stop()


@pytest.fixture
def pages(devices: Callable[..., list[Any]]) -> list[Any]:
    """Three pages, each in its own browser context (its own storage: three students' devices)."""
    return devices(len(NAMES), width=900, height=1400)


def join(pages: list[Any], room: ControlRoom) -> None:
    from playwright.sync_api import expect

    for page, name in zip(pages, NAMES, strict=True):
        page.goto(room.link)
        expect(page.locator("#room")).to_have_value(room.room)  # the short link fills the code in
        page.locator("#name").fill(name)
        page.get_by_role("button", name="Join", exact=True).click()
        expect(page.locator("#who")).to_have_text(f"{name} · room {room.room}")
        expect(page.locator("#wait")).to_be_visible()
        assert page.locator("#who b").count() == 0  # "<b>Eve</b>" is text, not bold


def test_three_pages_play_at_one_ra_table_by_clicking(room: ControlRoom, pages: list[Any]) -> None:
    from playwright.sync_api import expect

    room.teacher.call("POST", "/api/rooms", {"code": "BROWSE", "seed": "browser"})
    room.room = "BROWSE"
    join(pages, room)
    room.open_round("ra", group_size=3)
    names = room.status()["tables"][0]["seats"]
    game = TableGame(3, "browser:1:t0")  # the room's seed, round 1, table 0: the server's own game
    for page in pages:
        expect(page.locator("#ra-board svg")).to_be_visible()
    seats = {}
    for page in pages:  # each page is one seat: its text twin is that seat's view of the game
        shown = page.locator("#ra-facts li").all_text_contents()
        seats[page] = next(q for q in range(3) if game.view(q, names, set(), live=True, sel=_none())["facts"] == shown)
    assert sorted(seats.values()) == [0, 1, 2]
    for turn in range(10):
        mover = next(p for p in pages if seats[p] == game.state.to_move)
        expect(mover.locator("#ra-status")).to_contain_text("Your turn")
        for other in pages:
            if other is not mover:
                expect(other.locator("#ra-status")).to_contain_text("Waiting for")
                assert other.locator("#ra-board [data-action]").count() == 0
        offered = sorted(mover.locator("#ra-board [data-action]").evaluate_all("ns => ns.map(n => n.dataset.action)"))
        legal = [str(a) for a in game.state.legal_actions()]
        assert offered == sorted(a for a in legal if not a.startswith("god "))  # a god's slots: after the god tile
        action = next((a for a in ("draw", "pass") if a in offered), offered[-1]) if turn % 3 else offered[-1]
        mover.locator(f'#ra-board [data-action="{action}"]').first.click()
        game.move(seats[mover], parse_action(action), set())
        for page in pages:
            expect(page.locator("#ra-board")).to_have_attribute("data-version", str(game.ply))
            shown = page.locator("#ra-facts li").all_text_contents()
            assert shown == game.view(seats[page], names, set(), live=True, sel=_none())["facts"]
    assert pages[0].locator("#ra-recent li").count() >= 3
    eve = next(p for p in pages if seats[p] == names.index("<b>Eve</b>"))
    other = next(p for p in pages if p is not eve)
    assert "<b>Eve</b>" in other.locator("#ra-board svg").inner_html().replace("&lt;", "<").replace("&gt;", ">")
    assert other.locator("#ra-board svg b").count() == 0  # the name is escaped inside the board too


def _none() -> Any:
    from ra_classroom.game.table import Selection

    return Selection()


def test_students_bid_in_the_browser_and_the_teacher_closes_and_reads_the_results(
    room: ControlRoom, pages: list[Any]
) -> None:
    from playwright.sync_api import expect

    join(pages, room)
    opened = room.open_round("first", group_size=3, close_when_done=False)  # closed by the teacher, below
    typed = {}
    for page, name in zip(pages, NAMES, strict=True):
        expect(page.locator("#bid")).to_be_visible()
        expect(page.locator("#bid-title")).to_have_text("Round 1: First-price sealed bid")
        value = float(page.locator("#value").inner_text())
        typed[name] = round(value * 0.7, 2)
        page.locator("#amount").fill(f"{typed[name]:.2f}")
        page.get_by_role("button", name="Bid").click()
        expect(page.locator("#notice")).to_have_text("Your bid is in.")
        expect(page.locator("#bid-done")).to_contain_text(f"Your bid: {typed[name]:.2f}")
    for page in pages:
        expect(page.locator("#bid-count")).to_have_text("3 of 3 in your group have bid.")
    pages[1].reload()  # a reload comes back to the same seat, with the bid standing
    expect(pages[1].locator("#bid-done")).to_contain_text(f"Your bid: {typed[NAMES[1]]:.2f}")
    pages[0].locator("#bid-form").evaluate("f => f.hidden = false")  # a second bid, forced through the page ...
    pages[0].locator("#amount").fill("1")
    pages[0].get_by_role("button", name="Bid").click()
    expect(pages[0].locator("#notice")).to_contain_text("already")  # ... is refused with its reason
    room.close_round()
    for page in pages:
        expect(page.locator("#result-title")).to_have_text("Round 1: First-price sealed bid, results")
        expect(page.locator("#result-group tbody tr")).to_have_count(3)
    results = room.results()
    assert dict(zip(results["name"], results["bid"], strict=True)) == typed
    winner = results.loc[results["won"], "name"].iloc[0]
    page = pages[NAMES.index(winner)]
    expect(page.locator("#result-text")).to_contain_text("You won.")
    assert opened["groups"] == 1 and opened["sitting_out"] == []
