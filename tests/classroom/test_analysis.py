"""The class's data analysed with the student as the unit (`ra_classroom.teacher.analysis`).

Each function on a tiny class whose figures are computed here by hand, and the per-student
intervals on a synthetic class with known risk attitudes: they must contain each student's
programmed rho at the stated rate.
"""

from __future__ import annotations

import json
import math
import random
import statistics
from typing import Any

import pandas as pd
import pytest

from ra_classroom.auctions.laws import Uniform
from ra_classroom.auctions.theory import common_value_worth, shading
from ra_classroom.teacher.analysis import (
    class_slope,
    efficiency,
    learning,
    nothing_to_show,
    overbidding,
    revenue,
    shading_changes,
    student_slopes,
    students_differ,
    winners_curse,
)
from ra_classroom.teacher.payment import draw_payments
from ra_classroom.teacher.plots import rho_ticks, student_slopes_plot, winners_curse_plot
from ra_course.clustered import t_quantile, wilson
from ra_course.evidence import binomial_outside

LAW = json.dumps(Uniform(0, 100).to_dict())


def row(
    rnd: int, kind: str, group: int, student: int, value: float, bid: float, won: bool, **extra: Any
) -> dict[str, Any]:
    """One results row as the control room exports it (groups of 2 unless `n` says otherwise)."""
    paid = bid if won or kind == "allpay" else 0.0
    out = {
        "room": "T",
        "round": rnd,
        "kind": kind,
        "practice": False,
        "law": "uniform on [0, 100]",
        "law_json": LAW,
        "noise": 0.0,
        "n": 2,
        "group": group,
        "student": student,
        "name": f"s{student}",
        "value": value,
        "common_value": math.nan,
        "bid": bid,
        "won": won,
        "price": math.nan,
        "paid": paid,
        "earnings": value - paid if won else 0.0,
    }
    out.update(extra)
    return out


# Two first-price rounds, four students in groups of 2. Round 2's second group is inefficient: s2 (value 40)
# beats s4 (value 45).
FIRST = [
    row(1, "first", 1, 1, 50, 40, True), row(1, "first", 1, 2, 20, 16, False),
    row(1, "first", 2, 3, 80, 70, True), row(1, "first", 2, 4, 60, 45, False),
    row(2, "first", 1, 1, 30, 27, False), row(2, "first", 1, 3, 90, 72, True),
    row(2, "first", 2, 2, 40, 30, True), row(2, "first", 2, 4, 45, 28, False),
]  # fmt: skip
RATIOS = {1: [40 / 50, 27 / 30], 2: [16 / 20, 30 / 40], 3: [70 / 80, 72 / 90], 4: [45 / 60, 28 / 45]}


def test_one_slope_per_student_with_its_t_interval_and_rho() -> None:
    table = student_slopes(pd.DataFrame(FIRST)).set_index("student")
    for student, ratios in RATIOS.items():
        mean, se = statistics.fmean(ratios), statistics.stdev(ratios) / math.sqrt(2)
        got = table.loc[student]
        assert got["slope"] == pytest.approx(mean) and got["bids"] == 2
        assert got["slope_high"] - got["slope"] == pytest.approx(t_quantile(0.975, 1) * se)
        assert got["rho"] == pytest.approx(1 / mean - 1)  # two bidders: slope = 1 / (1 + rho)
        assert got["rho_low"] == 0.0  # one degree of freedom: the interval reaches past a slope of 1
    assert table.loc[4, "neutral"] == 0.5 and list(table["above_line"]) == [1.0] * 4  # s4: 28 > 45 / 2


def test_the_class_slope_is_clustered_by_student() -> None:
    ratios = [r for rs in RATIOS.values() for r in rs]
    mean = statistics.fmean(ratios)
    sums = [sum(rs) - 2 * mean for rs in RATIOS.values()]  # each student's deviations, added
    se = math.sqrt(4 / 3 * sum(s * s for s in sums) / 8**2)
    got = class_slope(pd.DataFrame(FIRST)).iloc[0]
    assert got["slope"] == pytest.approx(mean) and got["students"] == 4 and got["bids"] == 8
    assert got["slope_high"] - got["slope"] == pytest.approx(t_quantile(0.975, 3) * se)
    assert got["rho"] == pytest.approx(1 / mean - 1) and got["rho_low"] == pytest.approx(1 / got["slope_high"] - 1)


def test_revenue_and_efficiency_count_groups_that_share_a_student_as_dependent() -> None:
    df = pd.DataFrame(FIRST)
    paid = [40.0, 70.0, 72.0, 30.0]  # the four groups: {1, 2}, {3, 4}, {1, 3}, {2, 4}
    parts = [p - 53 for p in paid]
    own = sum(p * p for p in parts)
    cross = sum(parts[i] * parts[j] for i, j in ((0, 2), (0, 3), (1, 2), (1, 3)))  # each pair across rounds shares one
    shared = (4 + 2 * 4) / 16  # the weight of sharing pairs: 4 groups with themselves, 4 pairs both ways, of 4 x 4
    variance = max(own * 4 / 3, (own + 2 * cross) / (1 - shared)) / 4**2
    got = revenue(df).iloc[0]
    assert got["revenue"] == 53 and got["groups"] == 4 and got["rounds"] == 2
    assert got["high"] - 53 == pytest.approx(t_quantile(0.975, 3) * math.sqrt(variance))
    assert got["risk_neutral"] == pytest.approx(100 / 3)  # (n-1)/(n+1) of the range's top
    rho = class_slope(df)["rho"].iloc[0]
    assert got["risk_averse"] == pytest.approx(100 / (1 + rho) * 2 / 3)  # the fitted rho's shading of E[max] = 200/3
    eff = efficiency(df).iloc[0]
    assert eff["efficient"] == 0.75 and eff["lost"] == pytest.approx(5 / 4)
    assert eff["surplus"] == pytest.approx((50 + 80 + 90 + 40) / (50 + 80 + 90 + 45))
    assert eff["low"] < 0.75 < eff["high"] <= 1


def test_overbidding_counts_bids_by_student_and_students_once() -> None:
    second = [
        row(3, "second", 1, 1, 50, 55, True), row(3, "second", 1, 2, 20, 20, False),
        row(3, "second", 2, 3, 80, 80, True), row(3, "second", 2, 4, 60, 59, False),
        row(4, "second", 1, 1, 30, 36, False), row(4, "second", 1, 3, 90, 90, True),
        row(4, "second", 2, 2, 40, 40, True), row(4, "second", 2, 4, 45, 45, False),
    ]  # fmt: skip
    table = overbidding(pd.DataFrame(FIRST + second)).set_index("measure")
    assert table.loc["bids above the value", "count"] == "2 of 8"
    assert (
        table.loc["bids at the value", "count"] == "5 of 8" and table.loc["bids below the value", "count"] == "1 of 8"
    )
    once = table.loc["students who bid above their value at least once"]
    assert once["count"] == "1 of 4" and (once["low"], once["high"]) == pytest.approx(wilson(0.25, 4))
    above = table.loc["bids above the risk-neutral line"]
    assert above["count"] == "8 of 8" and (above["low"], above["high"]) == pytest.approx(wilson(1.0, 4))  # 4 students


def common(rnd: int, group: int, student: int, signal: float, bid: float, won: bool, worth: float) -> dict[str, Any]:
    paid = bid if won else 0.0
    return row(
        rnd,
        "common",
        group,
        student,
        signal,
        bid,
        won,
        noise=10.0,
        common_value=worth,
        paid=paid,
        earnings=worth - bid if won else 0.0,
    )


CURSE = [
    common(5, 1, 1, 50, 47, True, 48), common(5, 1, 2, 45, 40, False, 48),
    common(5, 2, 3, 30, 28, True, 25), common(5, 2, 4, 20, 17, False, 25),
    common(6, 1, 1, 60, 55, True, 52), common(6, 1, 4, 52, 45, False, 52),
    common(6, 2, 2, 70, 62, True, 66), common(6, 2, 3, 61, 56, False, 66),
]  # fmt: skip


def test_the_winners_curse_by_round_and_over_rounds_with_the_student_as_cluster() -> None:
    table = winners_curse(pd.DataFrame(CURSE)).set_index("round")
    assert list(table.index) == [5, 6, "all"]
    assert table.loc[5, "earnings"] == pytest.approx((1 - 3) / 2)
    assert table.loc[6, "earnings"] == pytest.approx((-3 + 4) / 2)
    assert table.loc[5, "lost_money"] == 0.5 and table.loc["all", "winners"] == 4
    earned = [1.0, -3.0, -3.0, 4.0]  # the winners s1, s3, s1, s2: s1 won twice, one cluster
    mean = statistics.fmean(earned)
    sums = [1 + -3 - 2 * mean, -3 - mean, 4 - mean]
    se = math.sqrt(3 / 2 * sum(s * s for s in sums) / 16)
    assert table.loc["all", "high"] == pytest.approx(mean + t_quantile(0.975, 2) * se)
    worth = [common_value_worth(x, 2, 10, Uniform(0, 100)) for x in (50, 30)]
    assert table.loc[5, "over_break_even"] == pytest.approx(statistics.fmean([47 - worth[0], 28 - worth[1]]))


def test_learning_is_each_students_change_in_shading() -> None:
    table = learning(pd.DataFrame(CURSE)).set_index("round")
    assert table.loc[5, "shading"] == pytest.approx(statistics.fmean([3, 5, 2, 3]))
    changes = [(60 - 55) - (50 - 47), (70 - 62) - (45 - 40), (61 - 56) - (30 - 28), (52 - 45) - (20 - 17)]
    assert table.loc["change", "shading"] == pytest.approx(statistics.fmean(changes))
    assert table.loc["change", "bids"] == 4


def test_a_session_without_the_rounds_a_table_needs_gives_it_empty_and_a_sentence_says_why() -> None:
    no_first, no_common, nothing = pd.DataFrame(CURSE), pd.DataFrame(FIRST), pd.DataFrame(FIRST).iloc[0:0]
    for table in (
        student_slopes(no_first),
        class_slope(no_first),
        students_differ(no_first),
        overbidding(no_first),
        revenue(no_first),
        efficiency(no_first),
        winners_curse(no_common),
        learning(no_common),
        shading_changes(no_common),
        class_slope(nothing),
        revenue(nothing),
        winners_curse(nothing),
    ):
        assert table.empty and len(table.columns) > 3
    assert list(class_slope(no_first).columns) == list(class_slope(no_common).columns)
    one = pd.DataFrame([r for r in FIRST if r["student"] == 1])
    assert students_differ(one).empty and len(class_slope(one)) == 1  # one student: nothing to compare him with
    said = nothing_to_show("common", no_common)
    assert said.startswith("Nothing to show here") and "common-value" in said and "2 paid sealed-bid rounds" in said
    assert isinstance(winners_curse_plot(no_common), str) and isinstance(
        student_slopes_plot(student_slopes(no_first)), str
    )


def test_the_slope_line_and_the_overbidding_table_count_the_same_bids_and_students() -> None:
    low = [row(7, "first", 1, 1, 5, 4.9, False), row(7, "first", 1, 5, 3, 1, True)]  # values below a tenth: left out
    df = pd.DataFrame(FIRST + low)
    slope = class_slope(df).iloc[0]
    table = overbidding(df).set_index("measure")
    assert str(table.loc["bids above the risk-neutral line", "count"]).endswith(f"of {slope['bids']:.0f}")
    assert slope["bids"] == 8 and slope["students"] == 4
    assert str(table.loc["students whose slope is above the risk-neutral slope", "count"]).endswith(
        f"of {slope['students']:.0f}"
    )


def test_the_rho_scale_sits_where_its_slopes_lie_also_for_slopes_of_1_or_more() -> None:
    slopes = [0.75, 6 / 7, 1.0, 1.12, 1.3]  # rho 1, 0.5, 0, and two students bidding above their values
    table = pd.DataFrame(
        {
            "name": [f"s{i}" for i in range(5)],
            "slope": slopes,
            "slope_low": [s - 0.04 for s in slopes],
            "slope_high": [s + 0.04 for s in slopes],
            "neutral": 0.75,
        }
    )
    fig = student_slopes_plot(table)
    assert not isinstance(fig, str)
    ax, scale = fig.axes[0], fig.axes[1]
    assert ax.get_ylim() == pytest.approx(scale.get_ylim()) and ax.get_ylim()[1] >= 1.3
    ticks = dict(zip([t.get_text() for t in scale.get_yticklabels()], scale.get_yticks(), strict=True))
    assert ticks["1"] == pytest.approx(0.75) and ticks["0.5"] == pytest.approx(6 / 7) and ticks["0"] == 1
    assert ticks["0.25"] == pytest.approx(3 / 3.25) and max(ticks.values()) == 1  # no rho above a slope of 1
    for label, at in ticks.items():  # every tick reads back as its slope's rho, rho = (n-1)(1/slope - 1)
        assert 3 * (1 / at - 1) == pytest.approx(float(label), abs=1e-9)
    assert "bid ≥ value: no CRRA ρ" in [t.get_text() for t in fig.legends[0].get_texts()]
    assert rho_ticks(0.7, 0.8, 3) == [(0.75, "1"), (0.8, "0.75")]


def test_each_student_is_paid_his_own_earnings_in_one_paid_round_drawn_for_him() -> None:
    df = pd.DataFrame(FIRST + [row(0, "first", 1, 1, 99, 1, True, practice=True, earnings=98.0)])
    pay = draw_payments(df, "T", show_up=5, rate=0.5).set_index("student")
    assert list(pay.index) == [1, 2, 3, 4] and (pay["rounds"] == 2).all() and set(pay["round"]) <= {1, 2}
    for student, drawn in pay.iterrows():  # his own earnings in the drawn round; a practice round never pays
        earned = df[(df["student"] == student) & (df["round"] == drawn["round"])]["earnings"].iloc[0]
        assert drawn["earnings"] == earned and drawn["payment"] == pytest.approx(max(0, 5 + 0.5 * earned))
    assert draw_payments(df, "T").equals(draw_payments(df, "T"))  # drawn again: the same rounds
    draws = {tuple(draw_payments(df, f"room{k}")["round"]) for k in range(40)}
    assert len(draws) > 4  # the seed decides; each student's round varies with it
    assert draw_payments(df.iloc[0:0], "T").empty


def synthetic_class(rng: random.Random, students: int, rounds: int) -> tuple[pd.DataFrame, dict[int, float]]:
    """A class of CRRA bidders with known rho each, bidding their equilibrium share times 1 + 0.05 z (z normal)."""
    rhos = {s: 0.3 + 0.7 * rng.random() for s in range(1, students + 1)}
    rows = []
    for rnd in range(1, rounds + 1):
        order = sorted(rhos, key=lambda _: rng.random())
        for g in range(students // 4):
            for s in order[4 * g : 4 * g + 4]:
                value = round(100 * rng.random(), 2)
                z = statistics.NormalDist().inv_cdf(rng.random())
                bid = round(shading(4, Uniform(0, 100), rhos[s]) * value * (1 + 0.05 * z), 2)
                rows.append(row(rnd, "first", g + 1, s, value, bid, False, n=4))
    return pd.DataFrame(rows), rhos


def test_a_synthetic_class_recovers_each_students_rho_within_its_interval_at_the_stated_rate() -> None:
    """Ten classes of 40 students, 6 first-price rounds each: 400 intervals at 95 %. Under the model (normal errors
    proportional to the value) each covers its student's programmed rho with probability exactly 95 %; the count is
    checked against the binomial band that a correct 95 % leaves with probability below 1e-4. The class-level F test
    sees the students differ."""
    rng, covered, total = random.Random(35), 0, 0
    for _ in range(10):
        df, rhos = synthetic_class(rng, 40, 6)
        table = student_slopes(df).set_index("student").to_dict("index")
        for s, rho in rhos.items():
            total += 1
            covered += table[s]["rho_low"] <= rho <= table[s]["rho_high"]
        assert students_differ(df)["p"].iloc[0] < 1e-3
    low, high = 362, 398
    assert total == 400 and binomial_outside(400, 0.95, low, high) < 1e-4
    assert low <= covered <= high, covered
