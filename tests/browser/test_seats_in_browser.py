"""Students' seats in a real browser (Debian's chromium): back on a fresh device, removed, a small class, the end.

Each student is a browser context of his own (his own storage: his own device). A student gets
his seat back from a fresh context with no stored token, by his rejoin code (his open page
agreeing) or by the teacher letting the asking device in once his page is gone; leaving a seat
leaves nothing of it on a shared device; a removed student is refused, on his device under any
name until the teacher lets it; a class of 2 and a class of 3 go
through every kind of round; and when the session ends every page says so, and keeps saying so
once the server is gone. On failure a screenshot of each page is saved next to this file.

Without chromium the tests fail under CI (``CI`` set) and are skipped elsewhere.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_play_in_browser import _need_browser  # type: ignore[import-not-found]

from ra_classroom import ControlRoom
from ra_classroom.store.rooms import AWAY_GRACE

Devices = Callable[..., list[Any]]  #: the `devices` fixture of conftest.py
#: What each device's browser says it is (the teacher's panel describes it: "Android phone, Chrome").
PHONE = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
)


@pytest.fixture
def room(tmp_path: Path) -> Iterator[ControlRoom]:
    _need_browser()
    control = ControlRoom.start(database=str(tmp_path / "class.db"), results=tmp_path / "results", seed="seats")
    yield control
    if control.server is not None and control.server.server.running():
        control.stop()


@pytest.fixture
def devices(devices: Devices) -> Devices:
    """Pages each in a browser context of its own (conftest.py's `devices`), phone-sized, saying they are a phone."""
    return functools.partial(devices, width=390, height=844, user_agent=PHONE)


def join(page: Any, room: ControlRoom, name: str, code: str = "") -> None:
    page.goto(room.link)
    page.locator("#name").fill(name)
    if code:
        page.locator("#rejoin").fill(code)
    page.get_by_role("button", name="Join", exact=True).click()


def joined(page: Any, room: ControlRoom, name: str) -> None:
    from playwright.sync_api import expect

    join(page, room, name)
    expect(page.locator("#who")).to_have_text(f"{name} · room {room.room}")


def rejoin_code(page: Any) -> str:
    from playwright.sync_api import expect

    expect(page.locator("#code-line")).to_be_visible()
    return str(page.locator("#code").inner_text()).replace(" ", "")


def bid(page: Any, share: float = 0.5) -> float:
    from playwright.sync_api import expect

    expect(page.locator("#bid-form")).to_be_visible()
    amount = round(float(page.locator("#value").inner_text()) * share, 2)
    page.locator("#amount").fill(f"{amount:.2f}")
    page.get_by_role("button", name="Bid").click()
    return amount


def test_a_student_gets_his_seat_back_from_a_fresh_browser_with_no_stored_token(
    room: ControlRoom, devices: Devices
) -> None:
    from playwright.sync_api import expect

    ana, bo, phone, tablet = devices(4)
    joined(ana, room, "Ana")
    joined(bo, room, "Bo")
    code = rejoin_code(ana)
    assert len(code) == 6
    room.open_round("first", group_size=2, seconds=120, close_when_done=False)
    mine = bid(ana)
    expect(ana.locator("#bid-done")).to_contain_text(f"Your bid: {mine:.2f}")
    assert phone.context.storage_state()["origins"] == []  # a fresh device: nothing stored
    join(phone, room, "Ana")  # without the code: refused, with a way to ask the teacher
    expect(phone.locator("#notice")).to_contain_text("called Ana already")
    expect(phone.locator("#ask")).to_be_visible()
    phone.locator("#rejoin").fill(code.lower())
    phone.get_by_role("button", name="Join", exact=True).click()
    expect(ana.locator("#confirm")).to_be_visible()  # her page is open: it is asked, and nothing moves meanwhile
    expect(ana.locator("#confirm-text")).to_contain_text("typed on another device")
    ana.get_by_role("button", name="Yes, it was me: move my seat there").click()
    expect(phone.locator("#who")).to_have_text(f"Ana · room {room.room}", timeout=15_000)
    expect(phone.locator("#bid-done")).to_contain_text(f"Your bid: {mine:.2f}")  # the seat keeps his history
    assert rejoin_code(phone) != code  # the code used is replaced, on the new device only
    expect(ana.locator("#gone-title")).to_have_text("You have left this seat")
    expect(ana.locator("#gone-text")).to_contain_text("another device")
    expect(ana.locator("#code-line")).to_be_hidden()  # nothing of the seat stays on the old device
    ana.reload()  # the old device opens nothing any more
    expect(ana.locator("#join")).to_be_visible()
    # Bo lost his device and his code: his page is gone; he asks from a tablet, and the teacher lets it in
    join(tablet, room, "bo")
    expect(tablet.locator("#ask")).to_be_visible()
    tablet.locator("#ask").click()
    expect(tablet.locator("#notice")).to_contain_text("open on a connected page")  # not while his page is open
    bo.close()
    tablet.wait_for_timeout(1000 * (AWAY_GRACE + 0.5))
    tablet.locator("#ask").click()
    expect(tablet.locator("#gone-title")).to_have_text("Waiting for your teacher")
    assert [a["device"] for a in room.status()["requests"]] == ["Android phone, Chrome"]  # its own line
    room.reseat("Bo")
    expect(tablet.locator("#who")).to_have_text(f"Bo · room {room.room}", timeout=15_000)
    expect(tablet.locator("#bid-form")).to_be_visible()
    assert len(rejoin_code(tablet)) == 6  # a new code for the new device
    bid(tablet)
    expect(tablet.locator("#bid-done")).to_contain_text("Your bid:")
    assert [m["how"] for m in room.status()["moves"]] == ["teacher", "confirmed"]


def test_leaving_a_seat_leaves_nothing_of_it_on_a_shared_device(room: ControlRoom, devices: Devices) -> None:
    from playwright.sync_api import expect

    shared, bo = devices(2)
    joined(shared, room, "Ana")
    joined(bo, room, "Bo")
    code = rejoin_code(shared)
    room.open_round("first", group_size=2, seconds=120)
    bid(shared)
    bid(bo)
    expect(shared.locator("#earned")).to_be_visible()  # her results and earnings are on the page ...
    shared.get_by_role("button", name="Not you? Leave this seat").click()
    expect(shared.locator("#join")).to_be_visible()
    expect(shared.locator("#who")).to_have_text("")  # ... and, once she left, nothing of them
    for gone in ("#code-line", "#earned", "#leave"):
        expect(shared.locator(gone)).to_be_hidden()
    stored = shared.evaluate("JSON.stringify(Object.assign({}, localStorage))")
    assert code not in stored and room.room not in stored.replace(f'"ra-classroom-room":"{room.room}"', "")
    assert shared.locator("#room").input_value() == room.room  # the room's link stays, nothing of Ana
    assert shared.locator("#name").input_value() == "" and shared.locator("#rejoin").input_value() == ""
    join(shared, room, "Ana")  # the next person cannot become her
    expect(shared.locator("#notice")).to_contain_text("called Ana already")


def test_a_removed_student_is_refused_and_a_renamed_one_keeps_her_seat(room: ControlRoom, devices: Devices) -> None:
    from playwright.sync_api import expect

    ana, bo = devices(2)
    joined(ana, room, "Ana")
    joined(bo, room, "Bo")
    room.remove("Bo")
    expect(bo.locator("#gone-title")).to_have_text("The teacher has removed you")
    expect(bo.locator("#gone-text")).to_have_text(f"The teacher has removed you from room {room.room}.")
    expect(bo.locator("#code-line")).to_be_hidden()  # no rejoin code is offered any more
    bo.reload()  # his seat is gone from this device
    expect(bo.locator("#join")).to_be_visible()
    join(bo, room, "Bo")
    expect(bo.locator("#notice")).to_have_text(f"The teacher has removed Bo from room {room.room}.")
    join(bo, room, "Bob")  # his device, under another name: not unless the teacher lets it
    expect(bo.locator("#notice")).to_contain_text("who joined on this device")
    room.readmit("Bo")
    joined(bo, room, "Bob")
    assert [s["name"] for s in room.status()["students"] if s["present"]] == ["Ana", "Bob"]
    room.rename("Ana", "Ana B.")  # renamed, she keeps her seat, and her page says so
    expect(ana.locator("#who")).to_have_text(f"Ana B. · room {room.room}")


@pytest.mark.parametrize("size", [2, 3])
def test_a_small_class_goes_through_every_kind_of_round(size: int, room: ControlRoom, devices: Devices) -> None:
    from playwright.sync_api import expect

    pages = devices(size)
    names = [f"Student {i}" for i in range(size)]
    for page, name in zip(pages, names, strict=True):
        joined(page, room, name)
    for kind in ("first", "second", "allpay", "common"):
        opened = room.open_round(kind, group_size=4, seconds=120, noise=10 if kind == "common" else 0)
        assert opened["note"] == f"{size} students here, groups of 4: one group of {size}."
        for page in pages:
            expect(page.locator("#bid-rules")).to_contain_text(f"Your group has {size}, not 4")
            bid(page, 0.6)
        for page in pages:  # everyone bid: the round closes itself and each sees his group
            expect(page.locator("#result-title")).to_contain_text(f"Round {opened['number']}")
            expect(page.locator("#result-group tbody tr")).to_have_count(size)
    opened = room.open_round("ra", group_size=3)
    for page in pages:
        expect(page.locator("#ra-board svg")).to_be_visible()
    mover = next(p for p in pages if "Your turn" in p.locator("#ra-status").inner_text())
    version = int(mover.locator("#ra-board").get_attribute("data-version"))
    mover.locator("#ra-board [data-action]").last.click()
    for page in pages:
        expect(page.locator("#ra-board")).not_to_have_attribute("data-version", str(version))
    if size == 2:
        assert "bot" in room.status()["tables"][0]["seats"]
    room.close_round()
    assert len(set(room.results()["round"])) == 4


def test_every_page_says_when_the_session_has_ended(room: ControlRoom, devices: Devices) -> None:
    from playwright.sync_api import expect

    ana, bo = devices(2)
    joined(ana, room, "Ana")
    joined(bo, room, "Bo")
    said = room.stop()
    assert "session has ended" in said
    for page in (ana, bo):
        expect(page.locator("#wait-title")).to_have_text("The session has ended")
        expect(page.locator("#wait-text")).to_contain_text("Thank you for taking part")
    ana.wait_for_timeout(3000)  # the server is gone: the page keeps its closing screen ...
    for page in (ana, bo):
        expect(page.locator("#wait-title")).to_have_text("The session has ended")
        expect(page.locator("#notice")).to_have_text("")  # ... and does not say "reconnecting"
