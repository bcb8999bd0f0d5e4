"""A paused Ra round in a real browser: the board frames no piece while the teacher holds the round.

Three pages sit at one Ra table. The page whose turn it is shows its choices as framed pieces;
when the teacher pauses the round, the board is drawn again with none (a framed piece that does
nothing when clicked is a lie), and the status says the round is paused; when the teacher
resumes it, the same choices come back. On failure a screenshot of each page is saved next to
this file.

Without chromium the test fails under CI (``CI`` set) and is skipped elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_play_in_browser import _need_browser  # type: ignore[import-not-found]

from ra_classroom import ControlRoom

NAMES = ["Ann", "Bo", "Cy"]
#: Every piece the board offers as a choice (a move, or a step towards one), framed on the board.
CHOICES = "#ra-board [data-action], #ra-board [data-ui], #ra-board .ra-target"


@pytest.fixture
def room(tmp_path: Path) -> Iterator[ControlRoom]:
    _need_browser()
    control = ControlRoom.start(database=str(tmp_path / "class.db"), results=tmp_path / "results", seed="paused")
    yield control
    control.stop()


@pytest.fixture
def pages(devices: Callable[..., list[Any]]) -> list[Any]:
    return devices(len(NAMES), width=412, height=900)


def test_a_paused_board_frames_no_piece_and_the_choices_come_back(room: ControlRoom, pages: list[Any]) -> None:
    from playwright.sync_api import expect

    for page, name in zip(pages, NAMES, strict=True):
        page.goto(room.link)
        page.locator("#name").fill(name)
        page.get_by_role("button", name="Join", exact=True).click()
        expect(page.locator("#wait")).to_be_visible()
    room.open_round("ra", group_size=3)
    for page in pages:
        expect(page.locator("#ra-board svg")).to_be_visible()
    mover = next(p for p in pages if "Your turn" in p.locator("#ra-status").inner_text())
    offered = mover.locator("#ra-board [data-action]").evaluate_all("ns => ns.map(n => n.dataset.action)")
    assert offered  # the mover's choices are framed

    room.pause()
    for page in pages:
        expect(page.locator("#ra-status")).to_have_text("The teacher has paused the round: wait until it goes on.")
        expect(page.locator(CHOICES)).to_have_count(0)  # nothing framed that a click would not do

    room.resume()
    expect(mover.locator("#ra-status")).to_contain_text("Your turn")
    again = mover.locator("#ra-board [data-action]").evaluate_all("ns => ns.map(n => n.dataset.action)")
    assert again == offered
