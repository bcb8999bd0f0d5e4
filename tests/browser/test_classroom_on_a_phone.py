"""The classroom's Ra table on a phone: every choice on screen, big enough to tap, at every decision of whole games.

One student plays whole games against the classroom's bots at tables of 3, 4 and 5 seats, in
chromium emulating a 390 x 844 touch phone (and, the same test, a 1280 x 800 desktop). At each
of his decisions the test finds every piece that stands for one of his choices (``data-action``,
and the steps ``data-ui``: a god, a tile to lose) fully inside the viewport, at least 44 x 44 CSS
px, with no horizontal scroll; the status on screen with them; the page's words say "Tap" on the
touch screen. Then it taps one of them, as a student would, and the board's height stays put
while auctions start and end. A tap on a piece that is no choice says why.

Without chromium the tests fail under CI (``CI`` set) and are skipped elsewhere.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_play_in_browser import CHROMIUM, FLAGS, _need_browser  # type: ignore[import-not-found]

from ra_classroom import ControlRoom
from ra_classroom.store.tokens import new_secret
from ra_classroom.web.server import ServerProcess

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SMALLEST = 44  # CSS px, WCAG 2.5.5

#: What the page shows at a decision: each choice's box, the status's box, the page's scroll width.
_MEASURE = """() => {
    const box = (n) => { const r = n.getBoundingClientRect(); return {l: r.left, t: r.top, r: r.right, b: r.bottom}; };
    const pieces = [...document.querySelectorAll('#ra-board [data-action], #ra-board [data-ui]')]
        .filter((n) => !n.parentNode.closest('[data-action],[data-ui]'))
        .map((n) => ({what: n.getAttribute('data-action') || n.getAttribute('data-ui'), ...box(n)}));
    const svg = document.querySelector('#ra-board svg');
    return {pieces, status: box(document.getElementById('ra-status')), board: svg.getBoundingClientRect().height,
            scroll: document.scrollingElement.scrollWidth, width: window.innerWidth, height: window.innerHeight,
            ply: document.getElementById('ra-board').dataset.version,
            text: document.getElementById('ra-status').textContent};
}"""


@pytest.fixture
def room(tmp_path: Path) -> Iterator[ControlRoom]:
    _need_browser()
    secret = new_secret()
    server = ServerProcess(str(tmp_path / "class.db"), secret, log=tmp_path / "server.log").start()
    control = ControlRoom.connect(server.url, secret)
    control.server = server
    yield control
    control.stop()


@pytest.fixture
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        try:
            yield launched
        finally:
            launched.close()


def _inside(p: dict[str, float], m: dict[str, Any]) -> bool:
    return p["l"] >= -0.5 and p["t"] >= -0.5 and p["r"] <= m["width"] + 0.5 and p["b"] <= m["height"] + 0.5


def _decision(page: Any, before: str | None) -> dict[str, Any] | None:
    """Wait for the student's next decision (or the end of the game); return what the page shows then."""
    page.wait_for_function(
        """(before) => {
            const s = document.getElementById('ra-status').textContent;
            const v = document.getElementById('ra-board').dataset.version;
            return (s.startsWith('Your turn') && v !== before) || s.startsWith('Game over');
        }""",
        arg=before,
        timeout=30_000,
    )
    m: dict[str, Any] = page.evaluate(_MEASURE)
    return None if m["text"].startswith("Game over") else m


@pytest.mark.parametrize("screen", ["phone", "desktop"])
@pytest.mark.parametrize("seats", [3, 4, 5])
def test_every_choice_is_on_screen_and_big_enough_to_tap(
    room: ControlRoom, browser: Any, seats: int, screen: str, request: pytest.FixtureRequest
) -> None:
    """A whole game at a table of `seats` (one student, the rest bots): at every decision, every choice fits."""
    from playwright.sync_api import expect

    touch = screen == "phone"
    context = browser.new_context(**(PHONE if touch else DESKTOP))
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        room.teacher.call("POST", "/api/rooms", {"code": f"PHONE{seats}", "seed": f"phone-{seats}"})
        room.room = f"PHONE{seats}"
        page.goto(room.link)
        expect(page.locator("#earned")).to_be_hidden()  # no earnings before joining
        page.locator("#name").fill("Ann")
        page.get_by_role("button", name="Join", exact=True).click()
        expect(page.locator("#wait")).to_be_visible()
        room.open_round("ra", group_size=seats)
        expect(page.locator("#ra-board svg")).to_be_visible()
        rng = random.Random(seats)
        decisions, heights, kinds, smallest = 0, set(), set(), (1e9, 1e9)
        before = None
        while (m := _decision(page, before)) is not None:
            decisions += 1
            assert m["scroll"] <= m["width"], f"the page scrolls sideways: {m['scroll']} > {m['width']}"
            assert _inside(m["status"], m), ("the status is off screen", m["status"])
            assert m["pieces"], m["text"]
            for p in m["pieces"]:
                w, h = p["r"] - p["l"], p["b"] - p["t"]
                assert _inside(p, m), (p["what"], p, decisions)
                assert w >= SMALLEST and h >= SMALLEST, (p["what"], round(w, 1), round(h, 1))
                smallest = min(smallest, (w, h), key=lambda b: b[0] * b[1])
            assert ("Tap" in m["text"]) == touch and ("Click" in m["text"]) != touch, m["text"]
            heights.add(round(m["board"]))
            choice = _pick([p["what"] for p in m["pieces"]], rng)
            kinds.add(choice.split()[0])
            before = m["ply"]
            page.wait_for_timeout(150)  # a student's pace: the server takes at most 8 messages a second from a page
            _press(page, choice, touch)
            if choice in ("god", "pick") or choice.startswith(("pick ", "unpick ", "clear")):
                before = None  # a step of a choice: the same decision goes on, on the board drawn again
                page.wait_for_timeout(150)
        print(
            f"{seats} seats, {screen}: {decisions} decisions, smallest piece {smallest[0]:.1f} x {smallest[1]:.1f} px"
        )
        assert decisions >= 10 and {"draw", "bid"} <= kinds, (decisions, kinds)
        assert len(heights) <= 2, f"the board's height moved: {sorted(heights)}"  # your tiles may need a third row
        expect(page.locator("#ra-status")).to_contain_text("Game over")
    except Exception:
        page.screenshot(path=str(Path(__file__).parent / f"failure-{request.node.name}.png"), full_page=True)
        raise
    finally:
        context.close()


def _pick(offered: list[str], rng: random.Random) -> str:
    """Return a choice: a god or a disaster's step when offered, else one of the actions at random."""
    for rare in ("god ", "discard", "pick ", "god", "done"):
        found = sorted(o for o in offered if o.startswith(rare) or o == rare)
        if found:
            return found[0]
    actions = sorted(o for o in offered if not o.startswith(("unpick", "clear")))
    return actions[int(rng.random() * len(actions))]


def _press(page: Any, choice: str, touch: bool) -> None:
    kind = "data-ui" if choice == "god" or choice.startswith(("pick ", "unpick ", "clear")) else "data-action"
    piece = page.locator(f'#ra-board [{kind}="{choice}"]').first
    if touch:
        piece.tap()
    else:
        piece.click()


def test_a_tap_on_no_choice_says_why(room: ControlRoom, browser: Any) -> None:
    """On the phone, a tap beside the pieces (the center sun) says that nothing is to be done there, and where."""
    from playwright.sync_api import expect

    page = browser.new_context(**PHONE).new_page()
    room.teacher.call("POST", "/api/rooms", {"code": "TAPS", "seed": "taps"})
    room.room = "TAPS"
    page.goto(room.link)
    page.locator("#name").fill("Bo")
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.locator("#wait")).to_be_visible()
    room.open_round("ra", group_size=3)
    expect(page.locator("#ra-status")).to_contain_text("Your turn", timeout=30_000)
    page.locator('#ra-board [aria-label^="center sun"]').first.tap()
    expect(page.locator("#ra-message")).to_contain_text("Nothing to do there. Tap")
