"""English and Dutch clock rounds end to end, on SQLite and on PostgreSQL: real server, real websockets.

The clock runs on the server: each page gets every tick (its price, and in English the count
still in, never a name); a press is acknowledged once stored, at the tick the page named, and
refused with a sentence for a tick not yet sent; each group is settled by the clock's rules and
its pages shown the result; the export carries each press's tick and the clock's step.
"""

from __future__ import annotations

from collections.abc import Iterator

import pandas as pd
import pytest

from ra_classroom.teacher.client import TeacherClient
from ra_classroom.teacher.clocks import clock_formats
from ra_classroom.web.server import ServerProcess

from .pages import Message, Page, seat

FAST = 0.25  # seconds per tick: the tests' clocks run four ticks a second


@pytest.fixture
def pages(server: ServerProcess) -> Iterator[list[Page]]:
    opened = [Page(server.url) for _ in range(3)]
    yield opened
    for p in opened:
        p.close()


def clock_view(page: Page, round_id: int) -> Message:
    return page.view(lambda v: v["screen"] == "clock" and v["round"]["id"] == round_id)


def tick_at_least(page: Page, round_id: int, tick: int) -> Message:
    return page.until(lambda m: m.get("t") == "tick" and m["round"] == round_id and m["tick"] >= tick, timeout=20)


def test_an_english_clock_from_open_to_results(pages: list[Page], room: str, teacher: TeacherClient) -> None:
    seat(pages, room)
    opened = teacher.open_round(room, {"kind": "english", "group_size": 3, "step": 2, "tick": FAST})
    views = [clock_view(p, opened["round"]) for p in pages]
    assert all(v["round"]["clock"]["price"] == 0 and v["round"]["clock"]["in"] == 3 for v in views)
    assert all("Drop out" in v["round"]["rules"] and v["round"]["button"] == "Drop out" for v in views)
    value = {p.student: v["round"]["value"] for p, v in zip(pages, views, strict=True)}
    order = sorted(pages, key=lambda p: value[p.student])
    low, mid, high = order
    first = tick_at_least(low, opened["round"], 3)
    too_early = low.answer(low.send(t="press", round=opened["round"], tick=first["tick"] + 5))
    assert too_early["t"] == "refused" and "has not shown tick" in too_early["why"]
    ack = low.answer(low.send(t="press", round=opened["round"], tick=first["tick"]))
    assert ack["t"] == "ack" and ack["tick"] == first["tick"] and ack["price"] == 2 * first["tick"] and ack["in"] == 2
    again = low.answer(low.send(t="press", round=opened["round"], tick=first["tick"]))
    assert again["t"] == "refused" and "already dropped out" in again["why"]
    seen = tick_at_least(high, opened["round"], first["tick"] + 1)
    assert seen["in"] == 2 and "name" not in seen and seen["price"] == 2 * seen["tick"]
    shown = teacher.projector(room)["round"]["clock"]
    assert shown["in"] == 2 and shown["groups"] == 1 and shown["settled"] == 0 and shown["price"] >= ack["price"]
    second = tick_at_least(mid, opened["round"], first["tick"] + 2)
    assert mid.answer(mid.send(t="press", round=opened["round"], tick=second["tick"]))["in"] == 1
    results = [p.view(lambda v: v["screen"] == "result" and v["round"]["id"] == opened["round"], 20) for p in pages]
    for p, res in zip(pages, results, strict=True):
        assert res["result"]["won"] == (p is high) and "last one in" in res["result"]["sentence"]
        assert res["result"]["price"] == 2 * second["tick"]
    rows = teacher.results(room)["bids"]
    mine = {r["student"]: r for r in rows}
    assert mine[low.student]["bid"] == ack["price"] and mine[low.student]["tick"] == first["tick"]
    assert mine[low.student]["away"] is False and mine[high.student]["away"] is None
    assert mine[high.student]["bid"] is None and mine[high.student]["won"] and mine[high.student]["step"] == 2
    assert mine[high.student]["earnings"] == pytest.approx(value[high.student] - 2 * second["tick"])
    assert "tick" in teacher.results_csv(room).splitlines()[0].split(",")
    table = clock_formats(pd.DataFrame(rows))  # the analysis reads the export as it is
    drops = table[(table["kind"] == "english") & table["measure"].str.startswith("share of losers' drops at")]
    assert len(drops) == 1 and drops.iloc[0]["count"] == 2, table


def test_a_dutch_clock_sells_to_the_first_press(pages: list[Page], room: str, teacher: TeacherClient) -> None:
    seat(pages, room)
    opened = teacher.open_round(room, {"kind": "dutch", "group_size": 3, "step": 5, "tick": FAST, "grace": 1})
    for p in pages:
        clock_view(p, opened["round"])
    buyer, other, _ = pages
    shown = tick_at_least(buyer, opened["round"], 2)
    assert shown["price"] == 100 - 5 * shown["tick"] and shown["in"] is None
    ack = buyer.answer(buyer.send(t="press", round=opened["round"], tick=shown["tick"]))
    assert ack["t"] == "ack" and ack["price"] == shown["price"]
    late = other.answer(other.send(t="press", round=opened["round"], tick=shown["tick"] + 1))
    assert late["t"] == "refused" and "decided" in late["why"] or "not shown" in late["why"]
    results = [p.view(lambda v: v["screen"] == "result" and v["round"]["id"] == opened["round"], 20) for p in pages]
    assert [r["result"]["won"] for r in results] == [True, False, False]
    assert results[0]["result"]["price"] == shown["price"] and "stopped the clock" in results[0]["result"]["sentence"]
    projector = teacher.projector(room)
    assert projector["round"]["kind"] == "dutch"


def test_a_bid_on_a_clock_is_refused_with_a_sentence(pages: list[Page], room: str, teacher: TeacherClient) -> None:
    seat(pages, room)
    opened = teacher.open_round(room, {"kind": "english", "group_size": 3, "tick": FAST})
    page = pages[0]
    clock_view(page, opened["round"])
    refused = page.answer(page.send(t="bid", round=opened["round"], amount=40))
    assert refused["t"] == "refused" and "press Drop out" in refused["why"]
    bad = page.answer(page.send(t="press", round=opened["round"], tick="3"))
    assert bad["t"] == "refused" and "whole number" in bad["why"]
    teacher.close_round(room)
    closed = page.view(lambda v: v["screen"] == "result" and v["round"]["id"] == opened["round"])
    assert "stopped" in closed["result"]["sentence"]
