"""A seat only its owner holds, and a lecture hall behind one address, on a real server (SQLite and PostgreSQL).

Each test is an attack a real class met: the teacher's Let in seating the wrong device, a rejoin
code taking a connected seat silently (and passed back and forth), wrong codes from one student
locking his classmates out, a removed student back under another name, 60 joins a minute for a
whole lecture hall behind one NAT, and two transactions seating "Ann" and "Аnn" at once. Every
page here is a device of its own (its own connection and device cookie) on this machine: one
network address, as a class behind one NAT.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import insert, inspect, text

from ra_classroom.store.database import Database
from ra_classroom.store.names import skeleton
from ra_classroom.store.refusal import Refusal
from ra_classroom.store.rooms import AWAY_GRACE, MAX_WRONG_CODES, create_room, join
from ra_classroom.store.schema import students
from ra_classroom.teacher.client import RefusedError, TeacherClient
from ra_classroom.web.server import ServerProcess

from .conftest import database_for
from .pages import Message, Page

ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
)
WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0"


@pytest.fixture
def opened() -> Iterator[list[Page]]:
    """The pages a test opens, closed after it."""
    pages: list[Page] = []
    yield pages
    for page in pages:
        with contextlib.suppress(Exception):  # closed by the test, or by the server, already
            page.close()


def device(url: str, pages: list[Page], agent: str | None = None, cookie: str | None = None) -> Page:
    """Open a page on a device of its own (a browser of `agent`, with a device `cookie` if given)."""
    headers = {k: v for k, v in (("User-Agent", agent), ("Cookie", cookie)) if v}
    page = Page(url, headers=headers or None)
    pages.append(page)
    return page


def told(page: Message | Page, *kinds: str) -> Message:
    """Return the next message of one of `kinds` (or a refusal) that `page` receives."""
    assert isinstance(page, Page)
    return page.until(lambda m: m.get("t") in (*kinds, "refused"))


def away(page: Page) -> None:
    """Close a student's page and wait until his seat counts as not connected."""
    page.close()
    time.sleep(AWAY_GRACE + 0.5)


def test_let_in_acts_on_the_device_the_teacher_chose(
    server: ServerProcess, room: str, teacher: TeacherClient, opened: list[Page]
) -> None:
    ana = device(server.url, opened)
    ana.join(room, "Ana")
    away(ana)
    hers = device(server.url, opened, ANDROID)
    hers.send(t="ask", room=room, name="Ana")
    mine = told(hers, "asking")
    time.sleep(1.0)
    other = device(server.url, opened, WINDOWS)
    other.send(t="ask", room=room, name="ana")
    theirs = told(other, "asking")
    assert mine["t"] == theirs["t"] == "asking" and mine["token"] != theirs["token"]
    lines = teacher.status(room)["requests"]
    assert [(a["name"], a["device"]) for a in lines] == [
        ("Ana", "Android phone, Chrome"),
        ("Ana", "Windows computer, Firefox"),
    ]
    assert lines[0]["asked"] > lines[1]["asked"]  # each line says when it asked
    with pytest.raises(RefusedError, match="2 devices ask for Ana's seat: choose one"):
        teacher.student(room, "reseat", "Ana")  # never "the last one asking"
    teacher.student(room, "reseat", None, request=lines[0]["request"])
    hers.send(t="hello", token=mine["token"])
    welcome = told(hers, "welcome")
    assert welcome["t"] == "welcome" and welcome["student"] == ana.student
    other.send(t="hello", token=theirs["token"])
    assert told(other, "pending", "welcome")["t"] == "pending"  # still asking: the teacher did not choose it
    teacher.student(room, "refuse", None, request=lines[1]["request"])
    other.send(t="hello", token=theirs["token"])
    assert "unknown" in told(other, "welcome")["why"]
    moves = teacher.status(room)["moves"]
    assert [(m["name"], m["how"], m["device"]) for m in moves] == [("Ana", "teacher", "Android phone, Chrome")]


def test_nobody_asks_for_a_connected_seat_and_its_code_needs_its_page(
    server: ServerProcess, room: str, teacher: TeacherClient, opened: list[Page]
) -> None:
    ana = device(server.url, opened)
    ana.join(room, "Ana")
    code = next(m for m in ana.log if m.get("t") == "welcome")["code"]
    thief = device(server.url, opened, WINDOWS)
    thief.send(t="ask", room=room, name="Ana")
    assert "open on a connected page" in told(thief, "asking")["why"]
    assert teacher.status(room)["requests"] == []
    thief.send(t="join", room=room, name="Ana", code=code)  # her code, read over her shoulder
    waiting = told(thief, "asking", "welcome")
    assert waiting["t"] == "asking"
    asked = ana.until(lambda m: m.get("t") == "confirm")
    assert asked["device"] == "Windows computer, Firefox" and "nobody takes it while this page is open" in asked["why"]
    assert [a["by_code"] for a in teacher.status(room)["requests"]] == [True]  # the teacher sees it too
    reloaded = device(server.url, opened)  # her page reloads: it is asked again
    reloaded.hello(str(ana.token))
    again = [m for m in reloaded.log if m.get("t") == "confirm"] or [reloaded.until(lambda m: m.get("t") == "confirm")]
    assert again[0]["request"] == asked["request"]
    assert reloaded.answer(reloaded.send(t="confirm", request=asked["request"], yes=False))["confirmed"] is False
    refused = ana.answer(ana.send(t="confirm", request=asked["request"], yes=True))  # answered already
    assert refused["t"] == "refused" and "No device waits for that answer" in refused["why"]
    thief.send(t="hello", token=waiting["token"])
    assert "unknown" in told(thief, "welcome")["why"]
    teacher.student(room, "rename", "Ana", to="Ana L.")  # her page is still hers, and still open
    assert ana.view(lambda v: v["name"] == "Ana L.")["student"] == ana.student
    assert teacher.status(room)["moves"] == []


def test_a_code_moves_an_away_seat_once_and_is_replaced(
    server: ServerProcess, room: str, teacher: TeacherClient, opened: list[Page]
) -> None:
    ana = device(server.url, opened)
    ana.join(room, "Ana")
    code = next(m for m in ana.log if m.get("t") == "welcome")["code"]
    away(ana)
    phone = device(server.url, opened, ANDROID)
    phone.send(t="join", room=room, name="Ana", code=code)
    welcome = told(phone, "welcome", "asking")
    assert welcome["t"] == "welcome" and welcome["student"] == ana.student
    fresh = welcome["code"]
    assert len(fresh) == 6 and fresh != code  # shown to the new page only
    laptop = device(server.url, opened, WINDOWS)
    laptop.send(t="join", room=room, name="Ana", code=code)  # the used code opens nothing more
    assert "not Ana's rejoin code" in told(laptop, "welcome", "asking")["why"]
    laptop.send(t="join", room=room, name="Ana", code=fresh)  # the new one asks the page that holds the seat
    assert told(laptop, "welcome", "asking")["t"] == "asking"
    assert phone.until(lambda m: m.get("t") == "confirm")["device"] == "Windows computer, Firefox"
    moves = teacher.status(room)["moves"]
    assert [(m["how"], m["device"]) for m in moves] == [("code", "Android phone, Chrome")]


def test_a_code_for_a_page_that_stays_away_moves_the_seat_after_the_grace(
    server: ServerProcess, room: str, teacher: TeacherClient, opened: list[Page]
) -> None:
    ana = device(server.url, opened)
    ana.join(room, "Ana")
    code = next(m for m in ana.log if m.get("t") == "welcome")["code"]
    phone = device(server.url, opened, ANDROID)
    phone.send(t="join", room=room, name="Ana", code=code)
    waiting = told(phone, "asking", "welcome")
    assert waiting["t"] == "asking"
    ana.until(lambda m: m.get("t") == "confirm")
    phone.send(t="hello", token=waiting["token"])
    assert told(phone, "pending", "welcome")["t"] == "pending"  # her page is open: it decides
    away(ana)  # her page goes without a word (a phone left on the bus)
    phone.send(t="hello", token=waiting["token"])
    welcome = told(phone, "pending", "welcome")
    assert welcome["t"] == "welcome" and welcome["student"] == ana.student and welcome["code"] != code
    assert [m["how"] for m in teacher.status(room)["moves"]] == ["unanswered"]


def test_wrong_codes_lock_one_name_never_the_classmates_behind_the_address(
    server: ServerProcess, room: str, teacher: TeacherClient, opened: list[Page]
) -> None:
    ana = device(server.url, opened)
    ana.join(room, "Ana")
    code = next(m for m in ana.log if m.get("t") == "welcome")["code"]
    guesses = [device(server.url, opened) for _ in range(5)]
    for k in range(14):  # 70 wrong codes, more than the whole allowance of joins an address had
        for g in guesses:
            g.send(t="join", room=room, name="Ana", code=f"{k:06d}")
    said = [g.until(lambda m: m.get("t") == "refused")["why"] for g in guesses for _ in range(14)]
    assert sum("not Ana's rejoin code" in w for w in said) == MAX_WRONG_CODES
    assert sum("Too many wrong rejoin codes were typed for Ana" in w for w in said) == 70 - MAX_WRONG_CODES
    classmates = [device(server.url, opened) for _ in range(24)]
    for i, page in enumerate(classmates):  # the same network address: every one of them gets in
        page.join(room, f"Classmate {i}")
    status = teacher.status(room)
    assert status["wrong_codes"] == {"Ana": MAX_WRONG_CODES}  # the teacher is told
    assert len(status["students"]) == 25
    late = device(server.url, opened)
    late.send(t="join", room=room, name="Ana", code=code)  # even the right code: the name's code is locked
    assert "Too many wrong rejoin codes" in told(late, "welcome", "asking")["why"]


def test_a_removed_students_device_cannot_come_back_under_another_name_unless_let(
    server: ServerProcess, room: str, teacher: TeacherClient, opened: list[Page]
) -> None:
    dan = device(server.url, opened)
    dan.join(room, "Dan")
    assert dan.cookie is not None and dan.cookie.startswith("ra_device=")
    teacher.student(room, "remove", "Dan")
    bye = dan.until(lambda m: m.get("t") == "bye")
    assert bye["removed"] is True and "removed you" in bye["why"]
    again = device(server.url, opened, cookie=dan.cookie)  # his device, its cookie kept
    assert again.cookie is None  # the server kept the device's own token
    again.send(t="join", room=room, name="Dan2")
    assert "removed Dan from room" in told(again, "welcome")["why"] and "this device" in again.log[-1]["why"]
    assert teacher.student(room, "readmit", "Dan")["name"] == "Dan"
    again.join(room, "Dan2")  # let by the teacher
    assert [s["name"] for s in teacher.status(room)["students"] if not s["removed"]] == ["Dan2"]
    code = next(m for m in again.log if m.get("t") == "welcome")["code"]
    away(again)
    phone = device(server.url, opened)  # Dan2 moves his seat to a phone: the phone is his seat's device now
    phone.send(t="join", room=room, name="Dan2", code=code)
    assert told(phone, "welcome", "asking")["t"] == "welcome"
    teacher.student(room, "remove", "Dan2")
    from_phone = device(server.url, opened, cookie=phone.cookie)
    from_phone.send(t="join", room=room, name="Dan3")
    assert "removed Dan2 from room" in told(from_phone, "welcome")["why"]


def test_a_lecture_hall_behind_one_address_joins_and_a_burst_is_removed_at_once(
    server: ServerProcess, room: str, teacher: TeacherClient, opened: list[Page]
) -> None:
    teacher.set_size(room, 130)
    hall = [device(server.url, opened) for _ in range(120)]  # twice the 60 an address could join at once
    for i, page in enumerate(hall):
        page.join(room, f"Student {i:03d}")
    for page in hall:
        page.close()
    time.sleep(1.5)
    began = time.time()
    burst = [device(server.url, opened) for _ in range(10)]  # one client takes the seats left
    for i, page in enumerate(burst):
        page.join(room, f"Junk {i}")
    late = device(server.url, opened)
    late.send(t="join", room=room, name="Latecomer")
    assert "is full (130 students)" in told(late, "welcome")["why"]
    joins = teacher.status(room)["addresses"]
    assert [(j["address"], j["students"], j["last_minute"]) for j in joins] == [("this machine", 130, 130)]
    address = joins[0]["address"]
    removed = teacher.remove_burst(room, address, seconds=time.time() - began + 0.2)["removed"]
    assert removed == [f"Junk {i}" for i in range(10)]  # the burst, and none of the class before it
    assert all(p.until(lambda m: m.get("t") == "bye")["removed"] for p in burst)
    late.join(room, "Latecomer")  # the seats are free again: the room's size is the bound
    with pytest.raises(RefusedError, match="Nobody in room .* joined from 10.9.9.9"):
        teacher.remove_burst(room, "10.9.9.9")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_two_transactions_cannot_seat_lookalike_names_at_once(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    db = Database(database_for(backend, request, tmp_path))
    with db.transaction() as conn:
        room = create_room(conn, 0.0)
    said: list[str] = []

    def second() -> None:  # another process seats "Аnn" (a Cyrillic A) while "Ann" is not committed yet
        try:
            with db.transaction() as conn:
                said.append(join(conn, room, "\u0410nn", 1.0).name)
        except Refusal as refusal:
            said.append(refusal.why)

    first = db.engine.connect()
    with first.begin():
        join(first, room, "Ann", 0.0)
        racer = threading.Thread(target=second)
        racer.start()
        time.sleep(1.0)
    first.close()
    racer.join(30)
    assert len(said) == 1 and "already" in said[0], said
    with db.transaction() as conn, pytest.raises(Exception, match="(?i)unique"):
        conn.execute(
            insert(students).values(
                room=room, name="ＡＮＮ", skeleton=skeleton("ＡＮＮ"), token_hash="x" * 64, joined_at=0, last_seen=0
            )
        )
    db.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_database_from_before_the_skeletons_gets_them_and_their_unique_index(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = database_for(backend, request, tmp_path)
    first = Database(url)
    with first.transaction() as conn:  # as an earlier version made it, with two lookalikes seated by a race
        conn.execute(text("DROP INDEX one_lookalike_per_room"))
        for column in ("skeleton", "address", "device_hash", "away_since", "wrong_codes"):
            conn.execute(text(f"ALTER TABLE students DROP COLUMN {column}"))
        conn.execute(text("INSERT INTO rooms (code, seed, created_at) VALUES ('OLD', 's', 0)"))
        for name in ("Ann", "\u0410nn", "Bo"):
            conn.execute(
                text(
                    "INSERT INTO students (room, name, token_hash, joined_at, last_seen)"
                    " VALUES ('OLD', :name, :token, 0, 0)"
                ),
                {"name": name, "token": name.encode().hex().ljust(64, "0")},
            )
    first.close()
    again = Database(url)
    with again.transaction() as conn:
        shapes: dict[str, str] = dict(conn.execute(text("SELECT name, skeleton FROM students ORDER BY id")).all())
        assert shapes["Ann"] == "ann" and shapes["Bo"] == "bo" and shapes["\u0410nn"].startswith("ann#")
        assert "one_lookalike_per_room" in {i["name"] for i in inspect(conn).get_indexes("students")}
        with pytest.raises(Refusal, match="called Ann already"):
            join(conn, "OLD", "ANN", 1.0)
        assert join(conn, "OLD", "Cleo", 1.0).name == "Cleo"
    again.close()
