"""The clock rounds' analysis (`ra_classroom.teacher.clocks`) recovers what its simulated students were told to do.

The sample's students are programmed (`SampleBehaviour`): each bids a CRRA equilibrium bid in
first price and means to stop the Dutch clock at that bid times 1 - dutch_gap; drops at his
value in an English clock (a tick late with probability `late`); overbids in second price with
probability `overbid`, by u times `by`. The figures those rules imply are worked out here from
the parameters alone, and each must lie in the analysis's 95 % interval.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

from ra_classroom.teacher.clocks import COLUMNS, SampleBehaviour, clock_formats, clock_sample


@pytest.fixture(scope="module")
def big() -> pd.DataFrame:
    return clock_sample(students=80, rounds=4, seed=3)


def figure(table: pd.DataFrame, kind: str, measure: str) -> pd.Series:
    rows = table[(table["kind"] == kind) & table["measure"].str.contains(measure, regex=False)]
    assert len(rows) == 1, (kind, measure, table)
    return rows.iloc[0]


def test_the_analysis_recovers_the_programmed_behaviour(big: pd.DataFrame) -> None:
    b = SampleBehaviour()
    table = clock_formats(big)
    assert list(table.columns) == COLUMNS
    assert big.attrs["label"].startswith("NOT A CLASS: simulated students")
    # second price: a share `overbid` of bids above the value, by u * by * value: a mean gap of overbid * by/2 * 0.5
    above = figure(table, "second", "share of bids above")
    assert above["low"] <= b.overbid <= above["high"]
    gap = figure(table, "second", "mean (bid - value)")
    assert gap["low"] <= b.overbid * b.by / 2 * 0.5 <= gap["high"]
    # English: a drop at the first tick at or above the value, except a share `late` a tick later
    at = figure(table, "english", "at the value")
    assert at["low"] <= 1 - b.late <= at["high"]
    diff = figure(table, "both", "second price minus English")
    assert diff["low"] > 0, "the programmed second-price overbidding is not seen beside English"
    # Dutch: the winners stop at (1 - dutch_gap) of their first-price bid (less up to a step): below first price
    first, dutch = figure(table, "first", "winning bid"), figure(table, "dutch", "winning bid")
    assert dutch["high"] < first["low"]
    assert dutch["value"] / first["value"] == pytest.approx(1 - b.dutch_gap, abs=0.03)
    # the winners' first-price ratio lies between the CRRA shadings of the programmed range of rho
    low, high = (3 / (3 + r) for r in (b.rho_high, b.rho_low))
    assert low <= first["value"] <= high
    assert first["theory"] == pytest.approx(0.75) and figure(table, "dutch", "revenue")["theory"] == pytest.approx(60)


def test_a_class_that_follows_theory_shows_no_gap() -> None:
    """Without overbidding, late drops or Dutch waiting, the formats agree, and the analysis says so."""
    b = SampleBehaviour(rho_low=0.99, rho_high=1.0, jitter=0.0, dutch_gap=0.0, late=0.0, overbid=0.0)
    table = clock_formats(clock_sample(students=40, rounds=3, seed=5, behaviour=b))
    assert figure(table, "english", "at the value")["value"] == 1.0
    assert figure(table, "second", "at the value")["value"] == 1.0
    first, dutch = figure(table, "first", "winning bid"), figure(table, "dutch", "winning bid")
    assert first["value"] == pytest.approx(0.75, abs=0.01)
    assert dutch["value"] == pytest.approx(first["value"], abs=0.02)  # the Dutch press loses at most a step


def test_the_student_is_the_unit(big: pd.DataFrame) -> None:
    """Winners are clustered by student, the paired difference has one row per student who played both."""
    table = clock_formats(big)
    dropped = set(big[(big["kind"] == "english") & ~big["won"] & big["bid"].notna()]["student"])
    bid = set(big[(big["kind"] == "second") & big["bid"].notna()]["student"])
    assert figure(table, "both", "second price minus English")["count"] == len(dropped & bid) < len(dropped | bid)
    dutch = figure(table, "dutch", "winning bid")
    assert dutch["count"] == big[(big["kind"] == "dutch") & big["won"]].shape[0]


def test_sessions_without_clock_rounds_give_an_empty_table() -> None:
    df = clock_sample(students=8, rounds=1)
    only_first = df[df["kind"] == "first"]
    table = clock_formats(only_first)
    assert set(table["kind"]) == {"first"} and "English beside second price" not in set(table["comparison"])
    empty = clock_formats(df.iloc[0:0])
    assert empty.empty and list(empty.columns) == COLUMNS
    practice = clock_formats(df.assign(practice=True))
    assert practice.empty and not math.isnan(len(clock_formats(df.assign(practice=True), practice=True)))
