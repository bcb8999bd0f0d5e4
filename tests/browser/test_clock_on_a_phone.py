"""English and Dutch clock rounds on a phone: one student in chromium at 360 x 740, the rest simulated.

For groups of 2, 3 and 12 (one student in a real browser, the others simulated students over
the real websocket, `ra_classroom.teacher.simulate`), an English and a Dutch round each: the
page shows the price moving tick by tick and, in English, how many of the group are still in
(never a name); its one button (Drop out / Buy now) is 44 px or more each way, on screen, with
no sideways scroll; the student taps it at a price he chose, and the page says at what price he
pressed; the group's result comes with the sentence it is told, and the export holds his press:
the price and the tick his page showed.

Without chromium the tests fail under CI (``CI`` set) and are skipped elsewhere.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_classroom_on_a_phone import SCREENS, SMALLEST, browser, room  # type: ignore[import-not-found]

from ra_classroom import ControlRoom
from ra_classroom.teacher.simulate import Behaviour, SimulatedClass

__all__ = ["browser", "room"]  # the fixtures, shared with the Ra table's phone tests

#: A price the student means to press at: English, once the price reaches it; Dutch, once it falls to it.
PRESS_AT = {"english": 25.0, "dutch": 85.0}

_MEASURE = """() => {
    const b = document.getElementById('clock-button').getBoundingClientRect();
    return {w: b.width, h: b.height, l: b.left, t: b.top, r: b.right, b: b.bottom,
            scroll: document.scrollingElement.scrollWidth, width: window.innerWidth, height: window.innerHeight,
            price: document.getElementById('clock-price').textContent,
            still: document.getElementById('clock-in').textContent};
}"""


@pytest.mark.parametrize("students", [2, 3, 12])
def test_a_clock_round_on_a_phone(room: ControlRoom, browser: Any, students: int) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(**SCREENS["phone360"])
    page = context.new_page()
    page.set_default_timeout(30_000)
    code = f"CLOCK{students}"
    room.teacher.call("POST", "/api/rooms", {"code": code, "seed": f"clock-{students}"})
    room.room = code
    sim = None
    try:
        page.goto(room.link)
        page.locator("#name").fill("Ann")
        page.get_by_role("button", name="Join", exact=True).click()
        expect(page.locator("#wait")).to_be_visible()
        behaviour = Behaviour(think=(0.0, 0.05))
        sim = SimulatedClass(room.teacher.url, code, students - 1, seed=students, behaviour=behaviour).start()
        pressed = [_play(room, page, kind, students, expect) for kind in ("english", "dutch")]
        assert any(p is not None for p in pressed), "the student never got to tap the button"
    finally:
        if sim is not None:
            sim.stop()
        context.close()


def _play(room: ControlRoom, page: Any, kind: str, students: int, expect: Any) -> float | None:
    """Open a clock round of `kind` for the group; watch the phone's page; tap at `PRESS_AT`; check the result.

    Return the price at which he pressed (None: his group was decided before the price reached his).
    """
    english = kind == "english"
    opened = room.open_round(kind, group_size=students, settings={"step": 2.5, "tick": 0.3})
    expect(page.locator("#clock")).to_be_visible()
    expect(page.locator("#clock-button")).to_have_text("Drop out" if english else "Buy now")
    first = page.evaluate(_MEASURE)
    assert first["w"] >= SMALLEST and first["h"] >= SMALLEST, first
    assert first["l"] >= 0 and first["r"] <= first["width"] and first["b"] <= first["height"], first
    assert first["scroll"] <= first["width"], first
    if english:
        assert first["still"] == f"{students} of {students} in your group are still in.", first
    prices = {first["price"]}
    pressed = None
    target = PRESS_AT[kind]
    while True:  # watch the clock move until the price reaches his, or his group's result comes
        page.wait_for_function(
            """([english, target]) => {
                const price = Number(document.getElementById('clock-price').textContent);
                const reached = english ? price >= target : price <= target;
                return !document.getElementById('result').hidden || reached;
            }""",
            arg=[english, target],
        )
        m = page.evaluate(_MEASURE)
        prices.add(m["price"])
        if not page.locator("#result").is_hidden():
            break
        if english:
            still = int(m["still"].split(" of ")[0])
            assert 1 <= still <= students and "sim" not in m["still"], m
        if page.locator("#clock-button").is_enabled():
            pressed = float(m["price"])
            page.locator("#clock-button").tap()
            done = "You dropped out at" if english else "You pressed at"
            expect(page.locator("#clock-state")).to_contain_text(done)
            assert page.locator("#clock-button").is_disabled() or not page.locator("#result").is_hidden()
        break
    expect(page.locator("#result")).to_be_visible(timeout=60_000)
    told = page.locator("#result-told").text_content() or ""
    assert "bidder" in told or "no sale" in told, told
    assert len(prices) >= 2 or pressed is None, prices  # the price moved on the page
    rows = [r for r in room.results().to_dict("records") if r["round"] == opened["number"]]
    assert len(rows) == students and sum(bool(r["won"]) for r in rows) <= 1, rows  # his group settled: the round closed
    row = next(r for r in rows if r["name"] == "Ann")
    if pressed is not None:
        assert row["bid"] == pytest.approx(pressed) and row["tick"] >= 0 and row["step"] == 2.5, row
        assert row["bid"] == pytest.approx(100 - 2.5 * row["tick"] if not english else 2.5 * row["tick"])
    return pressed
