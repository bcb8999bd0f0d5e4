"""Holt and Laury's lottery round on a phone: ten rows to tap, one message sent, the row drawn shown.

A student joins on a touch phone of 360 x 740 or 390 x 844 (chromium emulating it); the teacher
opens a lottery round. Every row's A and B are on the page, 44 x 44 CSS px or more, with no
horizontal scroll; sending with a row unanswered says which row; he taps his ten choices (A in
rows 1-5, B after) and sends them; his page says they are in; the round closes once he has sent
them, and his page shows the row drawn for him and what it paid, as the export records it.

Without chromium the tests fail under CI (``CI`` set) and are skipped elsewhere.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_classroom_on_a_phone import SCREENS, SMALLEST, browser, room  # type: ignore[import-not-found]

from ra_classroom import ControlRoom

__all__ = ["browser", "room"]  # the fixtures, shared with the Ra table's phone tests

_BOXES = """() => {
    const labels = [...document.querySelectorAll('#lottery-rows label')].map((n) => {
        const r = n.getBoundingClientRect();
        return {w: r.width, h: r.height, l: r.left, r: r.right};
    });
    const send = document.querySelector('#lottery-form button').getBoundingClientRect();
    return {labels, send: {w: send.width, h: send.height}, scroll: document.scrollingElement.scrollWidth,
            width: window.innerWidth};
}"""


@pytest.mark.parametrize("screen", ["phone360", "phone390"])
def test_a_lottery_round_is_played_on_a_phone(room: ControlRoom, browser: Any, screen: str) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(**SCREENS[screen])
    page = context.new_page()
    try:
        room.teacher.call("POST", "/api/rooms", {"code": "HL" + screen[-3:], "seed": "lottery"})
        room.room = "HL" + screen[-3:]
        page.goto(room.link)
        page.locator("#name").fill("Eve")
        page.get_by_role("button", name="Join", exact=True).click()
        expect(page.locator("#wait")).to_be_visible()
        room.open_round("lottery")
        expect(page.locator("#lottery-form")).to_be_visible()
        expect(page.locator("#bid-form")).to_be_hidden()
        expect(page.locator("#lottery-rows tbody tr")).to_have_count(10)
        expect(page.locator("#lottery-a")).to_have_text("A: 40 or 32")
        m = page.evaluate(_BOXES)
        assert len(m["labels"]) == 20 and m["scroll"] <= m["width"], m
        for box in m["labels"]:
            assert box["w"] >= SMALLEST and box["h"] >= SMALLEST and box["l"] >= 0 and box["r"] <= m["width"], box
        assert m["send"]["w"] >= SMALLEST and m["send"]["h"] >= SMALLEST
        for k in range(1, 10):
            page.get_by_label(f"Row {k}: {'A' if k <= 5 else 'B'},", exact=False).tap()
        page.locator("#lottery-form button").tap()
        expect(page.locator("#notice")).to_contain_text("row 10 has no choice yet")
        page.get_by_label("Row 10: B,", exact=False).tap()
        page.locator("#lottery-form button").tap()
        expect(page.locator("#result-lottery")).to_contain_text("was drawn for you", timeout=15_000)
        row = room.teacher.results(room.room)["bids"][0]
        assert row["choices"] == "AAAAABBBBB" and row["switch_row"] == 6 and row["consistent"]
        said = page.locator("#result-lottery").text_content() or ""
        assert said.startswith(f"Row {row['drawn_row']} was drawn for you.")
        assert f"You chose {'A' if row['drawn_row'] <= 5 else 'B'} there" in said
        assert f"you earned {row['earnings']:.2f}" in said
    finally:
        context.close()
