"""The projector's page through a whole round, in a real browser (Debian's chromium) at a projector's size.

The page is opened as the control room links it (the teacher's secret after the ``#``), and the
test follows one round: the room code and QR code while students join; a large countdown and
how many have bid, never who; the clock standing still while paused and growing when extended;
then the class's bids against the theory and the round's results; then the end of the session.
Large type and white on black are measured on the page itself. On failure a screenshot is
saved next to this file.

Without chromium the test fails under CI (``CI`` set) and is skipped elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_play_in_browser import CHROMIUM, FLAGS, _need_browser  # type: ignore[import-not-found]

from ra_classroom import ControlRoom
from tests.classroom.pages import Page

NAMES = ["Ana", "Bo"]


@pytest.fixture
def room(tmp_path: Path) -> Iterator[ControlRoom]:
    _need_browser()
    control = ControlRoom.start(database=str(tmp_path / "class.db"), results=tmp_path / "results", seed="projector")
    yield control
    if control.server is not None and control.server.server.running():
        control.stop()


@pytest.fixture
def projector(request: pytest.FixtureRequest) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        try:
            page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
            page.set_default_timeout(20_000)
            yield page
            report = getattr(request.node, "rep_call", None)
            if report is not None and report.failed:
                page.screenshot(path=str(Path(__file__).parent / f"failure-{request.node.name}.png"))
        finally:
            browser.close()


def px(page: Any, selector: str, what: str) -> float:
    return float(page.locator(selector).evaluate(f"n => parseFloat(getComputedStyle(n).{what})"))


def seconds(text: str) -> int:
    minutes, secs = text.split(":")
    return int(minutes) * 60 + int(secs)


def test_the_projector_page_through_a_whole_round(room: ControlRoom, projector: Any) -> None:
    from playwright.sync_api import expect

    page = projector
    assert 'href="' + room.projector_link.replace("&", "&amp;") in room.projector()
    page.goto(room.projector_link)
    expect(page.locator("#code")).to_have_text(room.room)
    assert "#" not in page.url  # the secret is out of the address bar at once
    expect(page.locator("#qr svg")).to_be_visible()
    expect(page.locator("#link")).to_have_text(room.link)
    assert px(page, "#code", "fontSize") >= 72  # the room code, from the back of the hall
    body = page.locator("body").evaluate("n => [getComputedStyle(n).color, getComputedStyle(n).backgroundColor]")
    assert body == ["rgb(255, 255, 255)", "rgb(0, 0, 0)"]
    students = [Page(room.teacher.url) for _ in NAMES]
    for student, name in zip(students, NAMES, strict=True):
        student.join(room.room, name)
    expect(page.locator("#joined")).to_have_text("2")

    opened = room.open_round("first", group_size=2, seconds=60)
    expect(page.locator("#title")).to_have_text("Round 1: First-price sealed bid")
    expect(page.locator("#clock")).to_have_text(re.compile(r"^[01]:\d\d$"))
    assert px(page, "#clock", "fontSize") >= 150  # a large countdown
    expect(page.locator("#bids")).to_have_text("0 of 2 have bid")
    view = students[0].view(lambda v: v["screen"] == "bid")
    students[0].answer(students[0].send(t="bid", round=opened["round"], amount=round(view["round"]["value"] / 2, 2)))
    expect(page.locator("#bids")).to_have_text("1 of 2 have bid")
    text = page.locator("body").inner_text()
    assert not any(name in text for name in NAMES)  # a count, never names

    room.pause()
    expect(page.locator("#paused")).to_be_visible()
    stopped = page.locator("#clock").inner_text()
    page.wait_for_timeout(2200)
    assert page.locator("#clock").inner_text() == stopped  # the clock stands still
    room.extend(30)
    later = seconds(stopped) + 30  # the clock stands still: 30 s more is exactly 30 s more
    expect(page.locator("#clock")).to_have_text(f"{later // 60}:{later % 60:02d}")
    room.resume()
    expect(page.locator("#paused")).to_be_hidden()
    page.wait_for_timeout(2200)
    assert seconds(page.locator("#clock").inner_text()) < seconds(stopped) + 30  # it runs again

    view = students[1].view(lambda v: v["screen"] == "bid" and not v["round"]["paused"])
    students[1].answer(students[1].send(t="bid", round=opened["round"], amount=round(view["round"]["value"] * 0.7, 2)))
    expect(page.locator("#results-title")).to_have_text("Round 1: First-price sealed bid")  # everyone bid: closed
    expect(page.locator("#chart svg")).to_be_visible()
    expect(page.locator("#chart circle")).to_have_count(3)  # two bids, and the legend's dot
    expect(page.locator("#chart")).to_contain_text("risk-neutral equilibrium, n = 2")
    expect(page.locator("#summary li").first).to_have_text("2 of 2 bid, in 1 group.")
    expect(page.locator("#summary")).to_contain_text("theory: 33.33")
    assert px(page, "#summary", "fontSize") >= 28
    assert not any(name in page.locator("body").inner_text() for name in NAMES)

    room.stop()
    expect(page.locator("#ended h1")).to_have_text("The session has ended")


#: Projectors' and laptops' screens: 4:3 at 1024 x 768 and 800 x 600, 16:9, 1400 x 1000 full screen and as a
#: window (less the browser's bars).
SCREENS = [(1024, 768), (800, 600), (1280, 720), (1366, 768), (1400, 1000), (1400, 900), (1920, 1080)]

#: How far the page reaches past the screen (CSS px, down and across), and the elements that do.
OVERFLOW = """() => {
  const d = document.documentElement;
  const out = [...document.querySelectorAll('body *')].filter(n => {
    const r = n.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && (r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5);
  }).map(n => n.id || n.tagName).slice(0, 5);
  return [d.scrollHeight - innerHeight, d.scrollWidth - innerWidth, out];
}"""


def test_every_screen_of_the_projector_fits_the_screen_at_every_size(room: ControlRoom, projector: Any) -> None:
    """The join, clock, paused and results screens of a common-value practice round (the longest title and summary)."""
    from playwright.sync_api import expect

    pages = []
    for width, height in SCREENS:
        page = projector.context.browser.new_context(viewport={"width": width, "height": height}).new_page()
        page.goto(room.projector_link)
        pages.append(page)
    students = [Page(room.teacher.url) for _ in range(4)]
    for student, name in zip(students, ["Ana", "Bo", "Cy", "Di"], strict=True):
        student.join(room.room, name)

    def fits(screen: str) -> None:
        for page, size in zip(pages, SCREENS, strict=True):
            expect(page.locator("body")).to_have_attribute("data-screen", screen)
            assert page.evaluate(OVERFLOW) == [0, 0, []], (screen, size, page.evaluate(OVERFLOW))

    fits("join")
    opened = room.open_round("common", group_size=2, seconds=60, noise=10, practice=True)  # the longest title
    fits("open")
    room.pause()
    for page in pages:
        expect(page.locator("#paused")).to_be_visible()
    fits("open")
    room.resume()
    for student in students:
        view = student.view(lambda v: v["screen"] == "bid" and not v["round"]["paused"])
        student.answer(student.send(t="bid", round=opened["round"], amount=round(view["round"]["value"] * 0.7, 2)))
    for page in pages:
        expect(page.locator("#summary li")).to_have_count(2)
        expect(page.locator("#chart svg")).to_be_visible()
    fits("results")
    for page, (width, height) in zip(pages, SCREENS, strict=True):
        chart = page.locator("#chart svg").bounding_box()
        assert chart is not None and chart["height"] >= height / 4, (width, height)  # the chart stays large
        assert px(page, "#summary", "fontSize") >= min(width, height) * 0.04
    for student in students:
        student.close()
