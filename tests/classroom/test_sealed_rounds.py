"""Sealed-bid rounds end to end, on SQLite and on PostgreSQL: real server, real websockets.

A student sees only his own value until the close; each bid is acknowledged once stored; the
close settles every group by the format's rule; a late, second or malformed bid is refused
with a reason and changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from ra_classroom.teacher.client import RefusedError, TeacherClient
from ra_classroom.web.server import ServerProcess

from .pages import Message, Page, result_of, seat


@pytest.fixture
def pages(server: ServerProcess) -> Iterator[list[Page]]:
    opened = [Page(server.url) for _ in range(6)]
    yield opened
    for p in opened:
        p.close()


def open_view(page: Page, round_id: int) -> Message:
    return page.view(lambda v: v["screen"] in ("bid", "sitout") and v["round"]["id"] == round_id)


def test_a_first_price_round_from_open_to_results(pages: list[Page], room: str, teacher: TeacherClient) -> None:
    seat(pages, room)
    opened = teacher.open_round(room, {"kind": "first", "group_size": 3})
    assert opened["groups"] == 2 and opened["sitting_out"] == []
    views = [open_view(p, opened["round"]) for p in pages]
    values = {p.student: v["round"]["value"] for p, v in zip(pages, views, strict=True)}
    assert all(0 <= x <= 100 for x in values.values())
    bids = {}
    for p, v in zip(pages, views, strict=True):
        bids[p.student] = round(v["round"]["value"] * 2 / 3, 2)
        ack = p.answer(p.send(t="bid", round=opened["round"], amount=bids[p.student]))
        assert ack["t"] == "ack" and 1 <= ack["bids_in"] <= 3
    status = teacher.status(room)["round"]
    assert status["waiting"] == [] and len(status["bid"]) == 6
    results = [p.view(lambda v: v["screen"] == "result") for p in pages]  # everyone bid: the round closed itself
    rows = teacher.results(room)["bids"]
    assert len(rows) == 6
    for group in {r["group"] for r in rows}:
        members = [r for r in rows if r["group"] == group]
        top = max(members, key=lambda r: r["bid"])
        assert [r["won"] for r in members].count(True) == 1 and top["won"]
        assert top["price"] == top["bid"] == top["paid"]
        assert top["earnings"] == pytest.approx(top["value"] - top["bid"])
        assert all(r["earnings"] == 0 and r["paid"] == 0 for r in members if not r["won"])
    for p, res in zip(pages, results, strict=True):
        mine = next(r for r in rows if r["student"] == p.student)
        assert res["result"]["won"] == mine["won"] and res["earnings"] == pytest.approx(mine["earnings"])
        assert [m["you"] for m in res["result"]["group"]].count(True) == 1
    csv = teacher.results_csv(room)
    assert csv.splitlines()[0].startswith("room,round,kind,practice,law") and len(csv.splitlines()) == 7


def test_no_page_sees_another_value_before_the_close(pages: list[Page], room: str, teacher: TeacherClient) -> None:
    """Values are drawn to the cent: another student's value in a message before the close would be a leak."""
    seat(pages, room)
    opened = teacher.open_round(room, {"kind": "common", "group_size": 3, "noise": 10, "close_when_done": False})
    views = [open_view(p, opened["round"]) for p in pages]
    for p, v in zip(pages, views, strict=True):
        p.answer(p.send(t="bid", round=opened["round"], amount=round(max(0, v["round"]["value"] - 8), 2)))
    for p in pages:  # let every group's count reach every page
        p.view(lambda v: v["round"]["bids_in"] == 3)
    before = {p.student: list(p.raw) for p in pages}
    secrets = {p.student: v["round"]["value"] for p, v in zip(pages, views, strict=True)}
    worths = [v for v in (teacher.status(room)["round"],) if v]  # the common values are not in the status either
    assert "common_value" not in json.dumps(worths)
    for sid, messages in before.items():
        text = "\n".join(messages)
        assert f"{secrets[sid]}" in text  # his own value is there ...
        for other, value in secrets.items():
            if other != sid and value != secrets[sid]:
                assert f":{value}," not in text and f":{value}}}" not in text, (sid, other, value)  # ... no other
        assert "common_value" not in text
    teacher.close_round(room)
    after = pages[0].view(lambda v: v["screen"] == "result")
    assert after["result"]["common_value"] is not None
    assert len(after["result"]["group"]) == 3  # now the group's signals and bids are shown


def test_second_price_and_all_pay_settle_by_their_rules(pages: list[Page], room: str, teacher: TeacherClient) -> None:
    seat(pages[:4], room)
    for p in pages[4:]:
        p.close()
    for kind in ("second", "allpay"):
        opened = teacher.open_round(room, {"kind": kind, "group_size": 2})
        for p in pages[:4]:
            v = open_view(p, opened["round"])
            p.answer(p.send(t="bid", round=opened["round"], amount=round(v["round"]["value"] / 2, 2)))
        for p in pages[:4]:  # everyone bid: the round closes itself
            p.view(result_of(opened["round"]))
    rows = teacher.results(room)["bids"]
    for kind in ("second", "allpay"):
        mine = [r for r in rows if r["kind"] == kind]
        for group in {r["group"] for r in mine}:
            a, b = sorted((r for r in mine if r["group"] == group), key=lambda r: -r["bid"])
            assert a["won"] and not b["won"]
            if kind == "second":
                assert a["price"] == a["paid"] == b["bid"] and b["paid"] == 0
            else:
                assert a["paid"] == a["bid"] and b["paid"] == b["bid"] and b["earnings"] == -b["bid"]


def test_late_second_and_malformed_bids_are_refused_and_change_nothing(
    pages: list[Page], room: str, teacher: TeacherClient
) -> None:
    seat(pages[:2], room)
    opened = teacher.open_round(room, {"kind": "first", "group_size": 2})
    rid = opened["round"]
    a, b = pages[0], pages[1]
    open_view(a, rid)
    open_view(b, rid)
    bad = {
        "a negative bid": (-1, "from 0 to 100"),
        "a bid above the top": (100.5, "from 0 to 100"),
        "a third decimal": (12.345, "cents"),
        "text": ("12", "number"),
        "true": (True, "number"),
        "a list": ([1], "number"),
    }
    for what, (amount, says) in bad.items():
        ans = a.answer(a.send(t="bid", round=rid, amount=amount))
        assert ans["t"] == "refused" and says in ans["why"], (what, ans)
    assert a.answer(a.send(t="bid", round=rid + 1000, amount=10))["why"].startswith("You have no value")
    assert a.answer(a.send(t="bid", round=str(rid), amount=10))["t"] == "refused"
    assert a.answer(a.send(t="bid", round=rid, amount=40))["t"] == "ack"
    second = a.answer(a.send(t="bid", round=rid, amount=60))
    assert second["t"] == "refused" and "already" in second["why"]
    teacher.close_round(room)
    late = b.answer(b.send(t="bid", round=rid, amount=30))
    assert late["t"] == "refused" and "too late" in late["why"]
    rows = teacher.results(room)["bids"]
    assert [r["bid"] for r in rows if r["student"] == a.student] == [40]
    assert [r["bid"] for r in rows if r["student"] == b.student] == [None]
    assert all(r["won"] == (r["student"] == a.student) for r in rows)


def test_a_round_closes_itself_when_its_time_is_up(pages: list[Page], room: str, teacher: TeacherClient) -> None:
    seat(pages[:2], room)
    opened = teacher.open_round(room, {"kind": "first", "group_size": 2, "seconds": 5})
    v = open_view(pages[0], opened["round"])
    assert 0 < v["round"]["closes_in"] <= 5
    pages[0].answer(pages[0].send(t="bid", round=opened["round"], amount=1))
    done = pages[1].view(lambda v: v["screen"] == "result", timeout=15)  # closed by its clock: nobody closed it
    assert done["result"]["won"] is False  # he did not bid: no bid, no win
    with pytest.raises(RefusedError, match="No round is open"):
        teacher.close_round(room)


def test_practice_rounds_do_not_count_and_late_arrivals_wait(
    pages: list[Page], room: str, teacher: TeacherClient
) -> None:
    seat(pages[:2], room)
    opened = teacher.open_round(room, {"kind": "first", "group_size": 2, "practice": True, "close_when_done": False})
    for p in pages[:2]:
        v = open_view(p, opened["round"])
        p.answer(p.send(t="bid", round=opened["round"], amount=v["round"]["value"]))  # the winner earns 0 ...
    late = pages[2].join(room, "Late")
    assert late["screen"] == "sitout"  # joined after the round opened: he waits for the next
    teacher.close_round(room)
    for p in pages[:2]:
        assert p.view(lambda v: v["screen"] == "result")["earnings"] == 0  # ... and practice never counts
    again = teacher.open_round(room, {"kind": "first", "group_size": 3})
    assert again["groups"] == 1 and again["sitting_out"] == []


def test_the_teacher_api_needs_the_secret_and_names_what_is_wrong(server: ServerProcess, room: str) -> None:
    for secret, status in (("", 401), ("wrong-secret-of-the-right-length", 403)):
        client = TeacherClient(server.url, secret)
        with pytest.raises(RefusedError) as info:
            client.status(room)
        assert info.value.status == status
    teacher = TeacherClient(server.url, "the-teachers-secret-for-tests")
    with pytest.raises(RefusedError, match="no room") as missing:
        teacher.status("NOSUCH")
    assert missing.value.status == 404
    for spec, says in (
        ({"kind": "vickrey"}, "kind must be one of"),
        ({"kind": "first", "group_size": 1}, "group_size"),
        ({"kind": "ra", "group_size": 6}, "between 3 and 5"),
        ({"kind": "common", "noise": 0}, "noise"),
        ({"kind": "first", "law": {"law": "uniform", "low": 50, "high": 10}}, "low < high"),
        ({"kind": "first", "colour": "red"}, "unknown settings"),
        ({"kind": "first", "group_size": 2}, "No student is here yet"),
    ):
        with pytest.raises(RefusedError, match=says):
            teacher.open_round(room, spec)
    with pytest.raises(RefusedError, match="too large"):
        teacher.open_round(room, {"kind": "first", "law": {"law": "uniform", "pad": "x" * 20_000}})
    with pytest.raises(RefusedError, match="not JSON"):
        _post_raw(teacher, room, b"{kind")
    assert teacher.status(room)["round"] is None  # nothing was opened


def _post_raw(teacher: TeacherClient, room: str, body: bytes) -> None:
    """Post `body` as it is to the round-opening call (for a body that is not JSON)."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(
        f"{teacher.url}/api/rooms/{room}/rounds",
        data=body,
        method="POST",
        headers={"Authorization": "Bearer the-teachers-secret-for-tests"},
    )
    try:
        urllib.request.urlopen(request, timeout=10)
    except urllib.error.HTTPError as e:
        raise RefusedError(e.code, json.loads(e.read())["error"]) from None
