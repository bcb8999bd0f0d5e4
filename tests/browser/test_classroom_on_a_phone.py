"""The classroom's Ra table on a phone: every choice on screen, big enough to tap, at every decision of whole games.

One student plays whole games against the classroom's bots at tables of 3, 4 and 5 seats, in
chromium emulating touch phones of 360 x 740 and 390 x 844 (and, the same test, a 1280 x 800
desktop). At each of his decisions the test finds every piece that stands for one of his choices
(``data-action``, and the steps ``data-ui``: a god, a tile to lose, a tile picked put back) fully
inside the viewport, at least 44 x 44 CSS px, none nested in another, with no horizontal scroll;
the status on screen with them, and on a phone what happened since his last move (its heading and
its newest line); the page's words say "Tap" on the touch screen. Then it taps one of them, as a
student would: the board does not move while a god is in hand or tiles are picked, and its height
stays put while auctions start and end. When an epoch is scored its scores come over the page,
three columns that fit the screen with his row marked "(you)", and Continue (44 px or more)
closes them; the scores so far fit the screen too. A tap on a piece that is no choice says why;
the sealed-bid round's field and button are 44 px tall or more.

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

PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 2,
}
SMALL_PHONE: dict[str, Any] = {**PHONE, "viewport": {"width": 360, "height": 740}}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
SCREENS: dict[str, dict[str, Any]] = {"phone360": SMALL_PHONE, "phone390": PHONE, "desktop": DESKTOP}
SMALLEST = 44  # CSS px, WCAG 2.5.5

#: What the page shows at a decision: each choice's box, the status's box, the page's scroll width.
_MEASURE = """() => {
    const box = (n) => { const r = n.getBoundingClientRect(); return {l: r.left, t: r.top, r: r.right, b: r.bottom}; };
    const pieces = [...document.querySelectorAll('#ra-board [data-action], #ra-board [data-ui]')]
        .map((n) => ({what: n.getAttribute('data-action') || n.getAttribute('data-ui'),
                      nested: !!n.parentNode.closest('[data-action],[data-ui]'), ...box(n)}));
    const svg = document.querySelector('#ra-board svg');
    const recent = document.querySelectorAll('#ra-recent li');
    return {pieces, status: box(document.getElementById('ra-status')), board: svg.getBoundingClientRect().height,
            top: svg.getBoundingClientRect().top, since: box(document.getElementById('ra-since-title')),
            newest: recent.length ? box(recent[recent.length - 1]) : null,
            scroll: document.scrollingElement.scrollWidth, width: window.innerWidth, height: window.innerHeight,
            ply: document.getElementById('ra-board').dataset.version,
            text: document.getElementById('ra-status').textContent};
}"""


@pytest.fixture
def room(tmp_path: Path) -> Iterator[ControlRoom]:
    _need_browser()
    control = ControlRoom.start(database=str(tmp_path / "class.db"), results=tmp_path / "results")
    yield control
    control.stop()
    if control.server is not None:  # a test that moved to a room of its own left the first one on the server
        control.server.stop()


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


@pytest.mark.parametrize(
    ("screen", "seats"),
    [("phone360", 3), ("phone360", 4), ("phone360", 5), ("phone390", 3), ("phone390", 5), ("desktop", 4)],
)
def test_every_choice_is_on_screen_and_big_enough_to_tap(
    room: ControlRoom, browser: Any, seats: int, screen: str, request: pytest.FixtureRequest
) -> None:
    """A whole game at a table of `seats` (one student, the rest bots): at every decision, every choice fits."""
    from playwright.sync_api import expect

    touch = screen != "desktop"
    context = browser.new_context(**SCREENS[screen])
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
        decisions, heights, kinds, smallest, epochs = 0, set(), set(), (1e9, 1e9), 0
        before = None
        while (m := _decision(page, before)) is not None:
            epochs += _epoch_scores(page, touch)
            m = page.evaluate(_MEASURE)
            decisions += 1
            assert m["scroll"] <= m["width"], f"the page scrolls sideways: {m['scroll']} > {m['width']}"
            assert _inside(m["status"], m), ("the status is off screen", m["status"])
            if touch:  # what happened since your last move, on screen with your choices
                assert _inside(m["since"], m), ("'Since your last move' is off screen", m["since"])
                assert m["newest"] is None or 0 <= m["newest"]["b"] <= m["height"] + 0.5, ("the newest move", m)
            assert m["pieces"], m["text"]
            smallest = min(smallest, _check_pieces(m, decisions), key=lambda b: b[0] * b[1])
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
                after = page.evaluate(_MEASURE)
                moved = after["top"] - m["top"]
                assert abs(moved) < 0.5, f"the board moved {moved:.1f} px on the screen at {choice}"
                _check_pieces(after, decisions)  # the piece that puts a tile back is as big as the others
        print(
            f"{seats} seats, {screen}: {decisions} decisions ({', '.join(sorted(kinds))}), "
            f"smallest piece {smallest[0]:.1f} x {smallest[1]:.1f} px"
        )
        assert decisions >= 10 and {"draw", "bid"} <= kinds, (decisions, kinds)
        assert len(heights) <= 2, f"the board's height moved: {sorted(heights)}"  # your tiles may need a third row
        expect(page.locator("#ra-status")).to_contain_text("Game over")
        expect(page.locator("#ra-epoch")).to_be_visible()  # the last epoch's scores, as the game ends
        epochs += _epoch_scores(page, touch)
        assert epochs == 3, f"{epochs} epochs' scores came over the page, not 3"
        _scores_fit(page)
    except Exception:
        page.screenshot(path=str(Path(__file__).parent / f"failure-{request.node.name}.png"), full_page=True)
        raise
    finally:
        context.close()


def _check_pieces(m: dict[str, Any], decisions: int) -> tuple[float, float]:
    """Check that every piece is on screen, 44 px or more each way, and none inside another; return the smallest."""
    smallest = (1e9, 1e9)
    for p in m["pieces"]:
        w, h = p["r"] - p["l"], p["b"] - p["t"]
        assert not p["nested"], (p["what"], "a piece inside another piece", round(w, 1), round(h, 1))
        assert _inside(p, m), (p["what"], p, decisions)
        assert w >= SMALLEST and h >= SMALLEST, (p["what"], round(w, 1), round(h, 1))
        smallest = min(smallest, (w, h), key=lambda b: b[0] * b[1])
    return smallest


def _epoch_scores(page: Any, touch: bool) -> int:
    """If an epoch's scores are over the page, check that they fit with "(you)", close them; return 1, else 0."""
    from playwright.sync_api import expect

    card = page.locator("#ra-epoch")
    if not card.is_visible():
        return 0
    box = page.evaluate(
        """() => {const t = document.querySelector('#ra-epoch table').getBoundingClientRect();
                  const b = document.getElementById('ra-epoch-close').getBoundingClientRect();
                  return {table: t.right, width: window.innerWidth, w: b.width, h: b.height, bottom: b.bottom,
                          height: window.innerHeight, text: document.getElementById('ra-epoch').textContent};}"""
    )
    assert box["table"] <= box["width"] + 0.5, ("the epoch's scores run off the screen", box)
    assert "(you)" in box["text"] and "net" in box["text"] and "fame" in box["text"], box["text"]
    assert box["w"] >= SMALLEST and box["h"] >= SMALLEST and box["bottom"] <= box["height"], box
    button = page.locator("#ra-epoch-close")
    if touch:
        button.tap()
    else:
        button.click()
    expect(card).to_be_hidden()
    return 1


def _scores_fit(page: Any) -> None:
    """The scores so far, opened at the end of the game: every column on screen, the student's rows marked."""
    page.locator("#ra-scores summary").click()
    fit = page.evaluate(
        """() => {const s = document.querySelector('#ra-scores .scores');
                  const tables = [...s.querySelectorAll('table')];
                  return {right: Math.max(...tables.map((t) => t.getBoundingClientRect().right)),
                          width: window.innerWidth, scroll: document.scrollingElement.scrollWidth,
                          tables: tables.length, you: s.querySelectorAll('tr.you').length, text: s.textContent};}"""
    )
    assert fit["tables"] == 3 and fit["right"] <= fit["width"] + 0.5 and fit["scroll"] <= fit["width"], fit
    assert fit["you"] >= 3 and "(you)" in fit["text"], fit["text"]


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


@pytest.mark.parametrize("screen", ["phone360", "phone390"])
def test_the_sealed_bid_controls_are_big_enough_to_tap(room: ControlRoom, browser: Any, screen: str) -> None:
    """A sealed-bid round on a phone: the bid's field and its button are 44 px or more each way, on screen."""
    from playwright.sync_api import expect

    context, other = browser.new_context(**SCREENS[screen]), browser.new_context(**SCREENS[screen])
    page = context.new_page()
    try:
        room.teacher.call("POST", "/api/rooms", {"code": "BIDS", "seed": "bids"})
        room.room = "BIDS"
        for student, name in ((page, "Cy"), (other.new_page(), "Di")):  # a group of two
            student.goto(room.link)
            student.locator("#name").fill(name)
            student.get_by_role("button", name="Join", exact=True).click()
            expect(student.locator("#wait")).to_be_visible()
        room.open_round("first", group_size=2)
        expect(page.locator("#bid-form")).to_be_visible()
        boxes = page.evaluate(
            """() => ['amount', 'bid-form'].map((id) => {
                const n = id === 'amount' ? document.getElementById(id) : document.querySelector('#bid-form button');
                const r = n.getBoundingClientRect();
                return {id, w: r.width, h: r.height, r: r.right, b: r.bottom};
            })"""
        )
        width, height = SCREENS[screen]["viewport"]["width"], SCREENS[screen]["viewport"]["height"]
        for b in boxes:
            assert b["w"] >= SMALLEST and b["h"] >= SMALLEST, b
            assert b["r"] <= width and b["b"] <= height, b
        page.locator("#amount").fill("3")
        page.locator("#bid-form button").tap()
        expect(page.locator("#bid-done")).to_contain_text("Your bid: 3.00")
    finally:
        context.close()
        other.close()


def _discard_board(picked: tuple[str, ...]) -> str:
    """Return the phone's board of a seat that loses four monuments to two earthquakes, with `picked` chosen."""
    from ra_core import State, Tile
    from ra_core.pictures.portrait import portrait_svg
    from ra_core.table import Selection, controls

    suns: list[dict[str, Any]] = [{"suns_up": list(up)} for up in ((13, 8, 5, 2), (12, 9, 6, 3), (11, 10, 7, 4))]
    kinds = ("pharaoh", "nile", "fortress", "obelisk", "palace", "pyramid", "temple", "god", "gold", "art", "writing")
    suns[0]["display"] = dict.fromkeys(kinds, 2)
    owed = {"player": 0, "owed": [["earthquake", 4]], "after": "auction"}
    s = State.from_dict({"players": suns, "phase": "discard", "turn_player": 0, "discard": owed}, strict=False)
    chosen = Selection(picked=tuple(sorted(Tile.from_label(t) for t in picked)))
    return str(portrait_svg(s, you=0, controls=controls(s, {0}, chosen)))


@pytest.mark.parametrize("screen", ["phone360", "phone390"])
def test_the_pieces_of_a_disasters_losses_are_big_enough_to_tap(browser: Any, screen: str) -> None:
    """Tiles to lose, and the pieces that put a picked tile back, on the student's page: 44 px or more, none nested.

    The board of a seat that has picked tiles of three, then four kinds to lose (two earthquakes), on the page's own
    stylesheet at the phone's width: each tile to lose, each tile picked (in the row of the suns),
    Confirm and Clear are pieces of 44 x 44 px or more, side by side, none inside another.
    """
    _need_browser()
    css = (Path(__file__).resolve().parents[2] / "ra_classroom" / "web" / "static" / "student.css").read_text()
    context = browser.new_context(**SCREENS[screen])
    page = context.new_page()
    try:
        for picked in (("fortress", "obelisk", "palace"), ("fortress", "obelisk", "palace", "pyramid")):
            svg = _discard_board(picked)
            page.set_content(
                f'<!doctype html><meta name="viewport" content="width=device-width"><style>{css}</style>'
                f'<main><section id="ra"><div id="ra-play"><div id="ra-board">{svg}</div><div id="ra-side">'
                '<p id="ra-status">Your turn.</p><section id="ra-since"><h3 id="ra-since-title">Since your last move'
                '</h3><ol id="ra-recent"></ol></section></div></div></section></main>'
            )
            m = page.evaluate(_MEASURE)
            offered = {p["what"] for p in m["pieces"]}
            assert {f"unpick {t}" for t in picked} <= offered, offered  # each tile picked: put back by a piece
            assert any(p.startswith("pick ") for p in offered) == (len(picked) < 4), offered
            smallest = _check_pieces(m, 0)
            least = f"{smallest[0]:.1f} x {smallest[1]:.1f} px"
            print(f"{screen}, {len(picked)} picked: {len(m['pieces'])} pieces, smallest {least}")
            boxes = sorted((p["l"], p["t"], p["r"], p["b"]) for p in m["pieces"])
            for k, a in enumerate(boxes):  # side by side: no piece covers another
                for b in boxes[k + 1 :]:
                    apart = a[2] <= b[0] + 0.5 or b[2] <= a[0] + 0.5 or a[3] <= b[1] + 0.5 or b[3] <= a[1] + 0.5
                    assert apart, (a, b)
    finally:
        context.close()
