"""Nobody acts where he does not belong, and every bad input is refused with a reason and changes nothing.

On SQLite and on PostgreSQL: malformed, oversized and binary messages, floods, messages before
joining, bad names and room codes, stolen seats (a page acts only as the student whose token it
holds), and the teacher's API without its secret.
"""

from __future__ import annotations

import csv
import io
import json
import math
import time

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from ra_classroom.teacher.client import RefusedError, TeacherClient
from ra_classroom.web.limits import BURST, MAX_MESSAGE, RATE, WIRE_LIMIT
from ra_classroom.web.server import ServerProcess

from .pages import Page


def refused(page: Page, ident: int | None = None) -> str:
    msg = page.until(lambda m: m.get("t") == "refused" and (ident is None or m.get("id") == ident))
    return str(msg["why"])


def test_malformed_messages_are_refused_and_the_page_goes_on(server: ServerProcess, room: str) -> None:
    page = Page(server.url)
    cases = {
        "not json": ("{bid", "not JSON"),
        "a list": ("[1, 2]", "JSON object"),
        "no kind": ('{"room": "X"}', "Unknown kind"),
        "an unknown kind": ('{"t": "sell"}', "Unknown kind"),
        "an unknown field": ('{"t": "join", "room": "X", "name": "A", "admin": true}', "no field 'admin'"),
        "NaN": ('{"t": "bid", "round": 1, "amount": NaN}', "NaN is not a number"),
        "Infinity": ('{"t": "bid", "round": 1, "amount": Infinity}', "Infinity is not a number"),
        "a deep nest": ("[" * 1020 + "]" * 1020, "JSON"),
        "too long": (json.dumps({"t": "join", "room": "X", "name": "A" * MAX_MESSAGE}), "too long"),
        "a bad id": ('{"t": "hello", "token": "x", "id": [1]}', "id is a number"),
        "before joining": ('{"t": "bid", "round": 1, "amount": 5}', "Join a room first"),
    }
    for what, (text, says) in cases.items():
        page.send_raw(text)
        assert says in refused(page), what
    page.send_raw(b"\x00\x01binary")
    assert "not binary" in refused(page)
    assert page.join(room, "Still Here")["screen"] == "wait"  # the page still works


def test_a_frame_beyond_the_wire_limit_closes_the_connection(server: ServerProcess) -> None:
    page = Page(server.url)
    page.send_raw("x" * (WIRE_LIMIT + 10))
    with pytest.raises(ConnectionClosed) as closed:
        page.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big


def test_a_flood_is_refused_message_by_message_and_changes_nothing(
    server: ServerProcess, room: str, teacher: TeacherClient
) -> None:
    a, b = Page(server.url), Page(server.url)
    a.join(room, "Flooder")
    b.join(room, "Calm")
    rid = teacher.open_round(room, {"kind": "first", "group_size": 2})["round"]
    a.view(lambda v: v["screen"] == "bid")
    count = 3 * BURST
    started = time.monotonic()
    for k in range(count):
        a.send(t="bid", round=rid, amount=10 + k)
    answers = [a.until(lambda m: m.get("t") in ("ack", "refused")) for _ in range(count)]
    # The page's allowance: a burst, and `RATE` more each second the server took to read the flood
    # (a busy machine reads it more slowly, so more of it is let through).
    allowed = BURST + math.ceil(RATE * (time.monotonic() - started))
    acks = [m for m in answers if m["t"] == "ack"]
    too_many = [m for m in answers if m["t"] == "refused" and "Too many messages" in m["why"]]
    again = [m for m in answers if m["t"] == "refused" and "already" in m["why"]]
    assert len(acks) == 1 and len(acks) + len(too_many) + len(again) == count
    assert len(too_many) >= count - allowed - 2, (len(too_many), allowed)
    assert teacher.status(room)["round"]["bid"] == ["Flooder"]
    teacher.close_round(room)
    rows = teacher.results(room)["bids"]
    assert [r["bid"] for r in rows if r["name"] == "Flooder"] == [10]


def test_names_and_room_codes_are_checked(server: ServerProcess, room: str) -> None:
    page = Page(server.url)
    for room_code, name, says in (
        ("NOPE9", "Ann", "no room with that code"),
        (room, "", "Type your name"),
        (room, "   ", "Type your name"),
        (room, "x" * 31, "too long"),
        (room, "Ann\u0000", "control characters"),
        (room, 42, "Type your name"),
        (17, "Ann", "no room"),
    ):
        page.send(t="join", room=room_code, name=name)
        assert says in refused(page), (room_code, name)
    other = Page(server.url)
    assert other.join(room.lower(), "  <b>Ann</b>  ")["name"] == "<b>Ann</b>"  # codes in any case; names as typed
    page.send(t="join", room=room, name="<B>ANN</B>")
    assert "called <b>Ann</b> already" in refused(page)  # the name as the room has it
    assert page.join(room, "Bob")["name"] == "Bob"
    page.send(t="join", room=room, name="Carl")
    assert "in room" in refused(page)  # one page, one student


def test_a_page_acts_only_for_the_student_whose_token_it_holds(
    server: ServerProcess, room: str, teacher: TeacherClient
) -> None:
    ann, bob = Page(server.url), Page(server.url)
    ann.join(room, "Ann")
    bob.join(room, "Bob")
    assert ann.token and bob.token and ann.token != bob.token
    rid = teacher.open_round(room, {"kind": "first", "group_size": 2})["round"]
    ann.view(lambda v: v["screen"] == "bid")
    for token in ("x" * 32, bob.token[:-1] + ("A" if bob.token[-1] != "A" else "B"), "", 5):
        stranger = Page(server.url)
        stranger.send(t="hello", token=token)
        assert "unknown here" in refused(stranger)
        stranger.send(t="bid", round=rid, amount=1)
        assert "Join a room first" in refused(stranger)
    again = Page(server.url)  # Ann on a second device: her token is her seat, and only hers
    assert again.hello(ann.token)["name"] == "Ann"
    assert again.answer(again.send(t="bid", round=rid, amount=33))["t"] == "ack"
    assert teacher.status(room)["round"]["bid"] == ["Ann"]
    teacher.close_round(room)
    rows = {r["name"]: r["bid"] for r in teacher.results(room)["bids"]}
    assert rows == {"Ann": 33, "Bob": None}


def test_a_dropped_student_comes_back_to_his_round_with_his_token(
    server: ServerProcess, room: str, teacher: TeacherClient
) -> None:
    ann, bob = Page(server.url), Page(server.url)
    ann.join(room, "Ann")
    bob.join(room, "Bob")
    rid = teacher.open_round(room, {"kind": "first", "group_size": 2})["round"]
    value = ann.view(lambda v: v["screen"] == "bid")["round"]["value"]
    ann.answer(ann.send(t="bid", round=rid, amount=round(value / 2, 2)))
    ann.close()
    back = Page(server.url)
    view = back.hello(str(ann.token))
    assert view["screen"] == "bid" and view["round"]["value"] == value
    assert view["round"]["your_bid"] == round(value / 2, 2)


def test_huge_numbers_and_ids_are_refused_without_a_traceback(
    server: ServerProcess, room: str, teacher: TeacherClient
) -> None:
    assert server.log is not None
    before = server.log.read_text(errors="replace").count("Traceback")
    page, other = Page(server.url), Page(server.url)
    page.join(room, "Big")
    other.join(room, "Small")
    rid = teacher.open_round(room, {"kind": "first", "group_size": 2})["round"]
    page.view(lambda v: v["screen"] == "bid")
    cases = {
        json.dumps({"t": "bid", "round": rid, "amount": 10**400}): "number of 401 digits",
        json.dumps({"t": "bid", "round": rid, "amount": 5}).replace("5}", "1e400}"): "A bid is a number",
        json.dumps({"t": "bid", "round": 10**30, "amount": 5}): "number of 31 digits",
        '{"t": "bid", "round": 99999999999, "amount": 5}': "There is no round",
        '{"t": "move", "table": 99999999999, "action": "draw", "version": 0}': "There is no table",
        '{"t": "move", "table": 1, "action": "draw", "version": -99999999999}': "There is no version",
        '{"t": "ui", "table": 99999999999, "ui": "god", "version": 0}': "There is no table",
    }
    for text, says in cases.items():
        page.send_raw(text)
        assert says in refused(page), text
    with pytest.raises(RefusedError, match="round is a round's id"):
        teacher.call("POST", f"/api/rooms/{room}/close", {"round": 10**12})
    with pytest.raises(RefusedError, match="digits"):
        teacher.call("POST", f"/api/rooms/{room}/size", {"size": 10**400})
    for number in (str(10**30), "9" * 5000, "x1"):  # the round's number in the path
        with pytest.raises(RefusedError, match=f"has no round {number[:12]}"):
            teacher.call("POST", f"/api/rooms/{room}/rounds/{number}/exclude", {})
    with pytest.raises(RefusedError, match="Nobody in room"):
        teacher.call("POST", f"/api/rooms/{room}/students/bot", {"student": 10**14})
    with pytest.raises(RefusedError, match="Extend by 1 to"):
        teacher.call("POST", f"/api/rooms/{room}/extend", {"seconds": 10**14})
    with pytest.raises(RefusedError, match="board's own words"):  # the teacher's rename keeps the reserved words
        teacher.call("POST", f"/api/rooms/{room}/students/rename", {"name": "Big", "to": "Big, a bot plays for now"})
    assert teacher.status(room)["round"]["bid"] == []  # nothing changed
    assert server.log.read_text(errors="replace").count("Traceback") == before  # and nothing went wrong


def test_a_refusal_names_the_message_it_answers_or_says_it_could_not_be_read(server: ServerProcess) -> None:
    page = Page(server.url)
    page.send_raw('{"t": "sell", "id": 7}')
    answer = page.until(lambda m: m.get("t") == "refused")
    assert answer["id"] == 7 and "Unknown kind" in answer["why"]
    page.send_raw('{"t": "bid", "id": "b-8", "round": 1, "amount": NaN}')
    assert page.until(lambda m: m.get("t") == "refused")["id"] == "b-8"
    for unreadable in ("{bid", "[7]", '{"t": "bid", "id": [1]}', b"\x00binary"):
        page.send_raw(unreadable)
        answer = page.until(lambda m: m.get("t") == "refused")
        assert answer["id"] is None and answer["why"].startswith("A message from this page could not be read")


def test_names_the_board_uses_for_bots_and_for_you_are_reserved(server: ServerProcess, room: str) -> None:
    page = Page(server.url)
    for name in ("bot", "BOT", "Bots", "bot 2", "Ann, a bot plays for now", "alice (you)", "Ann-bot"):
        page.send(t="join", room=room, name=name)
        assert "board's own words" in refused(page), name
    assert page.join(room, "Abbot Robotham")["name"] == "Abbot Robotham"


def test_lookalike_names_and_long_or_foreign_room_codes_are_refused(server: ServerProcess, room: str) -> None:
    page = Page(server.url)
    assert page.join(room, "Ann")["name"] == "Ann"
    other = Page(server.url)
    for code, name, says in (
        (room, "b\u043et", "board's own words"),  # a Cyrillic o
        (room, "\uff42\uff4f\uff54", "board's own words"),  # full-width
        (room, "\u0410nn", "called Ann already"),  # a Cyrillic A beside Ann
        (room + "XXXXXXXXXX", "Bob", "at most 12 letters or digits"),  # once cut to the room's code
        (room[:-1] + "\u00d6", "Bob", "only the letters A to Z"),
    ):
        other.send(t="join", room=code, name=name)
        assert says in refused(other), (code, name)
    assert other.join(room, "Bob")["name"] == "Bob"


def test_only_the_classrooms_own_page_opens_a_websocket(server: ServerProcess, room: str) -> None:
    own = server.url.removeprefix("http://")
    for origin in ("http://evil.example", f"http://{own}.evil.example", "null"):
        with pytest.raises(InvalidStatus) as refused_here:
            Page(server.url, headers={"Origin": origin})
        assert refused_here.value.response.status_code == 403, origin
    page = Page(server.url, headers={"Origin": f"http://{own}"})  # the page at the address the browser asked for
    assert page.join(room, "Dora")["name"] == "Dora"


def test_exports_neutralise_cells_a_spreadsheet_would_run_as_formulas(
    server: ServerProcess, room: str, teacher: TeacherClient
) -> None:
    names = ['=HYPERLINK("http://x.io","x")', "+1+cmd", "-2+3", "@SUM(A1)"]
    pages = [Page(server.url) for _ in names]
    for p, name in zip(pages, names, strict=True):
        p.join(room, name)
    rid = teacher.open_round(room, {"kind": "first", "group_size": 4})["round"]
    for p in pages:
        p.view(lambda v: v["screen"] == "bid")
        assert p.answer(p.send(t="bid", round=rid, amount=1))["t"] == "ack"
    teacher.close_round(room)
    teacher.open_round(room, {"kind": "ra", "group_size": 4})
    for path in ("results.csv", "tables.csv"):
        text = teacher.call("GET", f"/api/rooms/{room}/{path}", raw=True)
        cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
        shown = [c for c in cells if c.lstrip("'") in names]
        assert sorted(shown) == sorted("'" + n for n in names), (path, shown)
    assert sorted(r["name"] for r in teacher.results(room)["bids"]) == sorted(names)  # the data keep the names
