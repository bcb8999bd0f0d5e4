"""Holt and Laury's lottery list as a round kind: the ρ intervals, the row drawn, and a round through the server."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from ra_classroom.auctions.settle import Entry
from ra_classroom.kinds.lottery import (
    LOTTERY,
    ROWS,
    _advantage,
    choices_for,
    crra_utility,
    indifference,
    indifference_points,
    read_choices,
    risk_neutral_choices,
)
from ra_classroom.kinds.spec import RoundSpec
from ra_classroom.teacher.analysis import (
    lottery_intervals,
    nothing_to_show,
    risk_measures,
    risk_relation,
    student_slopes,
)
from ra_classroom.teacher.client import TeacherClient
from ra_classroom.teacher.plan import open_args, session_plan
from ra_classroom.web.server import ServerProcess

from .pages import Page, seat


def test_each_indifference_point_makes_the_two_lotteries_equal() -> None:
    points = indifference_points()
    assert len(points) == ROWS - 1 and list(points) == sorted(points)
    for row, rho in enumerate(points, start=1):
        assert abs(_advantage(row, rho)) < 1e-9
        assert _advantage(row, rho - 0.01) < 0 < _advantage(row, rho + 0.01)
    with pytest.raises(ValueError, match="B pays more for sure"):
        indifference(10)


def test_a_risk_neutral_chooser_switches_at_row_5_by_expected_money() -> None:
    money = [r / 10 * 2.00 + (1 - r / 10) * 1.60 - (r / 10 * 3.85 + (1 - r / 10) * 0.10) for r in range(1, 11)]
    assert risk_neutral_choices() == "".join("A" if m > 0 else "B" for m in money) == "AAAABBBBBB"
    assert crra_utility(2.0, 0.0) == 1.0 and crra_utility(1.0, 1.0) == 0.0


@pytest.mark.parametrize("rho", [-2.5, -1.0, -0.3, 0.0, 0.3, 0.5, 0.8, 1.0, 1.2, 2.0])
def test_the_interval_read_from_a_choosers_list_holds_his_rho(rho: float) -> None:
    reading = read_choices(choices_for(rho))
    assert reading.consistent and reading.low is not None and reading.high is not None
    assert reading.low <= rho <= reading.high
    assert reading.switch == reading.safe + 1


def test_inconsistent_lists_are_reported_as_such() -> None:
    twice = read_choices("AAABABBBBB")
    assert not twice.consistent and twice.switch is None and twice.low is None and "3 switches" in twice.why
    dominated = read_choices("AAAAAAAAAA")
    assert not dominated.consistent and "row 10" in dominated.why
    assert read_choices("BBBBBBBBBB").low == -math.inf and read_choices("AAAAAAAAAB").high == math.inf
    with pytest.raises(ValueError, match="10 letters"):
        read_choices("AAB")


def test_one_row_is_drawn_and_played_for_each_student_from_the_stream() -> None:
    spec = RoundSpec("lottery")
    assert spec.group_size == 1 and spec.options == {"scale": 20.0}
    entries = [Entry(7, 0.0, 4.0), Entry(8, 0.0, None)]
    data = {7: {"choices": "AAAABBBBBB"}, 8: None}
    first = LOTTERY.settle(spec, entries, data, None, random.Random("stream"))
    again = LOTTERY.settle(spec, entries, data, None, random.Random("stream"))
    assert first == again
    mine, absent = first
    assert absent.earnings == 0 and absent.data is None
    assert mine.data is not None
    rng = random.Random("stream")
    row, roll = 1 + int(rng.random() * ROWS), rng.random()
    chose = "AAAABBBBBB"[row - 1]
    prizes = (40.0, 32.0) if chose == "A" else (77.0, 2.0)
    assert mine.data["row"] == row and mine.data["chose"] == chose and mine.data["high"] == (roll < row / 10)
    assert mine.earnings == (prizes[0] if roll < row / 10 else prizes[1]) == mine.data["prize"]


def test_a_message_that_is_not_ten_choices_is_refused() -> None:
    spec = RoundSpec("lottery")
    for bad in ({"t": "bid", "amount": 4}, {"t": "act", "data": {"choices": "AAB"}}, {"t": "act", "data": ["A"] * 10},
                {"t": "act", "data": {"choices": ["A"] * 9 + ["C"]}}):  # fmt: skip
        with pytest.raises(ValueError, match="Choose A or B in each of the 10 rows"):
            LOTTERY.act(spec, bad)
    assert LOTTERY.act(spec, {"t": "act", "data": {"choices": list("AAABBBBBBB")}}).amount == 3


@pytest.fixture
def pages(server: ServerProcess) -> Iterator[list[Page]]:
    opened = [Page(server.url) for _ in range(3)]
    yield opened
    for p in opened:
        p.close()


def test_a_lottery_round_from_open_to_export(pages: list[Page], room: str, teacher: TeacherClient) -> None:
    seat(pages, room)
    opened = teacher.open_round(room, {"kind": "lottery"})
    assert opened["groups"] == 3 and opened["sitting_out"] == []
    views = [p.view(lambda v: v["screen"] == "bid" and v["round"]["id"] == opened["round"]) for p in pages]
    rows = views[0]["round"]["rows"]
    assert [r["chance"] for r in rows] == list(range(1, 11)) and rows[0]["a"] == [40, 32] and rows[0]["b"] == [77, 2]
    assert "20 points" in views[0]["round"]["rules"]
    refused = pages[0].answer(pages[0].send(t="act", round=opened["round"], data={"choices": "AB"}))
    assert refused["t"] == "refused" and "each of the 10 rows" in refused["why"]
    lists = ["AAAABBBBBB", "AAAAAAABBB", "AABABBBBBB"]
    for p, choices in zip(pages, lists, strict=True):
        assert p.answer(p.send(t="act", round=opened["round"], data={"choices": list(choices)}))["t"] == "ack"
    results = [p.view(lambda v: v["screen"] == "result") for p in pages]
    found = {r["student"]: r for r in teacher.results(room)["bids"]}
    for p, choices, res in zip(pages, lists, results, strict=True):
        row = found[p.student]
        reading = read_choices(choices)
        assert row["choices"] == choices and row["safe"] == choices.count("A") == row["bid"]
        assert row["consistent"] == reading.consistent and row["switch_row"] == reading.switch
        if reading.consistent:
            assert reading.low is not None and reading.high is not None
            assert row["rho_low"] == pytest.approx(reading.low, abs=1e-4)
            assert row["rho_high"] == pytest.approx(reading.high, abs=1e-4)
        else:
            assert row["rho_low"] is None and row["rho_high"] is None
        d = res["result"]["details"]
        assert row["drawn_row"] == d["row"] and choices[d["row"] - 1] == d["chose"] and row["earnings"] == d["prize"]
        assert row["drawn"].startswith(f"row {d['row']}: {d['chose']}")
    header = teacher.results_csv(room).splitlines()[0].split(",")
    assert header[-9:] == list(LOTTERY.export_columns)
    chart = teacher.projector(room)["round"]["chart"]
    steps = [[min(10, max(1, k + d)), 0.0 if k <= 4 else 100.0] for k in range(1, 11) for d in (-0.5, 0.5)]
    assert chart["line"] == steps and chart["count"] == 3
    shares = [round(100 * sum(c[k - 1] == "B" for c in lists) / 3, 1) for k in range(1, 11)]
    assert chart["points"] == [[k, s] for k, s in zip(range(1, 11), shares, strict=True)]


SAMPLES = Path(__file__).resolve().parents[2] / "notebooks" / "data"


def test_the_analysis_recovers_each_simulated_students_lottery_rho() -> None:
    """Sample 2's students chose as CRRA choosers with their own rho: each interval holds his."""
    df = pd.read_csv(SAMPLES / "sample_session_mixed.csv", comment="#")
    types = {
        str(t["name"]): float(t["lottery_rho"])
        for t in pd.read_csv(SAMPLES / "sample_session_mixed_students.csv").to_dict("records")
    }
    lists = lottery_intervals(df).to_dict("records")
    assert len(lists) == 24 and all(x["consistent"] for x in lists)
    for x in lists:
        assert float(x["low"]) <= types[str(x["name"])] <= float(x["high"])
    both = risk_measures(df)
    slopes = {int(x["student"]): float(x["rho"]) for x in student_slopes(df).to_dict("records")}
    for y in both.to_dict("records"):
        assert float(y["bids_rho"]) == pytest.approx(1 - slopes[int(y["student"])])
        meets = float(y["lottery_low"]) <= float(y["bids_high"]) and float(y["bids_low"]) <= float(y["lottery_high"])
        assert bool(y["overlap"]) == meets
    rel = risk_relation(df).to_dict("records")[0]
    assert rel["students"] == 24 and rel["inconsistent"] == 0
    assert float(rel["spearman_low"]) < float(rel["spearman"]) < float(rel["spearman_high"])
    ranks = both["safe"].rank().corr(both["bids_rho"].rank())
    assert float(rel["spearman"]) == pytest.approx(ranks)


def test_sessions_without_lotteries_give_empty_tables() -> None:
    df = pd.read_csv(SAMPLES / "sample_session.csv", comment="#")
    auctions = df[df["kind"] != "lottery"].drop(columns=list(LOTTERY.export_columns))
    assert lottery_intervals(auctions).empty and risk_measures(auctions).empty and risk_relation(auctions).empty
    assert "lottery" in nothing_to_show("lottery", auctions)


def test_the_plan_can_end_with_the_lotteries_and_leaves_the_auctions_as_they_were() -> None:
    plain, with_lottery = session_plan(), session_plan(lottery=True)
    assert with_lottery[:-1] == plain and with_lottery[-1].kind == "lottery" and with_lottery[-1].group_size == 1
    assert open_args(with_lottery[-1])["settings"] == {"scale": 20.0}
