"""Clock rounds against their sealed twins: Dutch beside first price, English beside second price.

**What theory predicts.** The Dutch clock and the first-price sealed bid are strategically
equivalent: a bidder decides beforehand the price at which he stops the clock, and that price is
his sealed bid; the equilibrium is the same (risk-neutral: (n-1)/n of the value, values uniform
from 0) and so is the revenue. The English clock and the second-price sealed bid share a dominant
strategy: stay in until the price reaches your value, or bid your value; with private values the
outcome is the same (the highest value wins at the second-highest value).

**What experiments found.** Coppinger, Smith and Titus (1980) and Cox, Roberson and Smith (1982)
found Dutch prices *below* first-price prices, although the formats are equivalent in theory
(bidders wait on the falling clock; the suspense, or a wrong belief about the others, costs the
seller). Kagel, Harstad and Levin (1987) found English bidding converging quickly to dropping at
one's value, while second-price sealed bids overbid persistently (Kagel and Levin 1993 too): the
dominant strategy is seen on a clock and missed in a sealed bid.

**What is measured, with the student as the unit.** A Dutch clock shows one bid per group, the
winner's (the others never pressed); an English clock shows every bid but the winner's (he never
had to drop). So the formats are compared on what both show:

* Dutch beside first price: the winning bid over the winner's value (above the law's bottom),
  each winner one observation, clustered by student (a student may win several rounds); and the
  revenue per group (groups sharing a member dependent, as `analysis.revenue` does).
* English beside second price: the losers' bids against their values: the share at the value
  (English: a drop at the first tick at or above the value; second price: within half a cent),
  the share above, and the mean gap over the value range, clustered by student; and for each
  student who played both, his mean gap in second price minus his mean gap in English, one
  number per student (the student as the unit, students independent).

Rows of clock rounds are the export's, with ``bid`` the price at which the student pressed
(empty if he did not) and ``step`` the clock's step. `clock_sample` makes a simulated class,
labelled so, with the clocks settled by the rules of `ra_classroom.auctions.clock`.
"""

from __future__ import annotations

import json
import math
import random
from typing import TYPE_CHECKING, Any

from ra_course.clustered import Estimate, clustered_mean, clustered_share, overlap_ratio

from ..auctions.clock import Clock, Press, settle_clock
from ..auctions.laws import Law, Uniform, law_from_dict
from ..auctions.settle import Entry, settle
from ..auctions.theory import expected_revenue, shading

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["COLUMNS", "SampleBehaviour", "clock_formats", "clock_sample"]

CENT = 0.005  # a second-price bid within half a cent of the value is at the value
COLUMNS = ["comparison", "kind", "measure", "unit", "count", "value", "low", "high", "theory"]


def _rows(df: pd.DataFrame, kinds: tuple[str, ...], practice: bool) -> pd.DataFrame:
    data = df if practice else df[~df["practice"].astype(bool)]
    return data[data["kind"].isin(kinds)].copy()


def _row(comparison: str, kind: str, measure: str, unit: str, e: Estimate, theory: float) -> dict[str, Any]:
    return {
        "comparison": comparison,
        "kind": kind,
        "measure": measure,
        "unit": unit,
        "count": e.n,
        "value": e.value,
        "low": e.low,
        "high": e.high,
        "theory": theory,
    }


def _winning_bids(df: pd.DataFrame, practice: bool, confidence: float) -> list[dict[str, Any]]:
    rows = []
    data = _rows(df, ("first", "dutch"), practice)
    for kind in ("first", "dutch"):
        won = data[(data["kind"] == kind) & data["won"].astype(bool) & data["bid"].notna()]
        laws = [law_from_dict(json.loads(text)) for text in won["law_json"]]
        ratios, who, neutral = [], [], []
        for (_, row), law in zip(won.iterrows(), laws, strict=True):
            if row["value"] > law.low:
                ratios.append((row["bid"] - law.low) / (row["value"] - law.low))
                who.append(row["student"])
                neutral.append(shading(int(row["n"]), law))
        if ratios:
            e = clustered_mean(ratios, who, confidence)
            what = "the winning bid over the winner's value"
            rows.append(_row("Dutch beside first price", kind, what, "winners", e, sum(neutral) / len(neutral)))
        groups = [(part["paid"].sum(), frozenset(part["student"]), part.iloc[0]) for _, part in _by_group(data, kind)]
        if groups:
            e = overlap_ratio([float(g[0]) for g in groups], [1.0] * len(groups), [g[1] for g in groups], confidence)
            theory = [expected_revenue(int(r["n"]), law_from_dict(json.loads(r["law_json"]))) for _, _, r in groups]
            rows.append(
                _row("Dutch beside first price", kind, "revenue per group", "groups", e, sum(theory) / len(theory))
            )
    return rows


def _by_group(data: pd.DataFrame, kind: str) -> list[tuple[Any, pd.DataFrame]]:
    return list(data[data["kind"] == kind].groupby(["round", "group"], sort=True))


def _gaps(df: pd.DataFrame, practice: bool) -> pd.DataFrame:
    """Return the losers' English drops and every second-price bid, with their gap over the range and class."""
    data = _rows(df, ("second", "english"), practice)
    data = data[data["bid"].notna() & ~(data["won"].astype(bool) & (data["kind"] == "english"))].copy()
    laws: list[Law] = [law_from_dict(json.loads(text)) for text in data["law_json"]]
    data["span"] = [law.top - law.low for law in laws]
    data["gap"] = (data["bid"] - data["value"]) / data["span"]
    step = data.get("step", math.nan)
    over = data["bid"] - data["value"]
    english = data["kind"] == "english"
    # English: the first tick at or above the value is the dominant drop (the clock moves in steps)
    data["at"] = (english & (over >= -CENT) & (over < step - CENT)) | (~english & (over.abs() <= CENT))
    data["above"] = ~data["at"] & (over > CENT)
    data["below"] = ~data["at"] & (over < -CENT)
    return data


def _english_and_second(df: pd.DataFrame, practice: bool, confidence: float) -> list[dict[str, Any]]:
    rows = []
    data = _gaps(df, practice)
    comparison = "English beside second price"
    for kind in ("second", "english"):
        part = data[data["kind"] == kind]
        if part.empty:
            continue
        who = list(part["student"])
        unit = "losers' drops" if kind == "english" else "bids"
        for what, column, theory in (("at the value", "at", 1.0), ("above the value", "above", 0.0)):
            e = clustered_share([float(h) for h in part[column]], who, confidence)
            rows.append(_row(comparison, kind, f"share of {unit} {what}", unit, e, theory))
        e = clustered_mean(list(part["gap"]), who, confidence)
        rows.append(_row(comparison, kind, "mean (bid - value) over the value range", unit, e, 0.0))
    both = data.groupby(["student", "kind"])["gap"].mean().unstack()
    if {"second", "english"} <= set(both.columns):
        diff = (both["second"] - both["english"]).dropna()
        if len(diff) >= 2:
            e = clustered_mean(list(diff), None, confidence)
            measure = "each student's mean gap, second price minus English"
            rows.append(_row(comparison, "both", measure, "students", e, 0.0))
    return rows


def clock_formats(df: pd.DataFrame, practice: bool = False, confidence: float = 0.95) -> pd.DataFrame:
    """Return the clock formats beside their sealed twins, each figure with its interval and theory's.

    Columns: comparison, kind, measure, unit, count, value, low, high, theory. A session without
    the rounds a comparison needs gives no row for it (an empty table with these columns if none).
    """
    import pandas as pd

    rows = _winning_bids(df, practice, confidence) + _english_and_second(df, practice, confidence)
    return pd.DataFrame(rows, columns=COLUMNS)


# -- a simulated class ---------------------------------------------------------------------------------


class SampleBehaviour:
    """How the simulated students of `clock_sample` bid (defaults in brackets).

    Each student has his own CRRA rho, uniform in [`rho_low`, `rho_high`] ([0.4, 0.8]): in first
    price he bids the CRRA equilibrium bid times 1 + `jitter` z (0.03; z standard normal). In a
    Dutch clock he means to stop at that bid times 1 - `dutch_gap` (0.06: he waits on the falling
    clock), and presses at the first tick whose price is at or below it. In an English clock he
    drops at the first tick at or above his value, one tick later with probability `late`
    (0.1). In second price he bids his value, or with probability `overbid` (0.3) his value times
    1 + u `by` (u uniform on [0, 1], `by` 0.3).
    """

    def __init__(
        self,
        rho_low: float = 0.4,
        rho_high: float = 0.8,
        jitter: float = 0.03,
        dutch_gap: float = 0.06,
        late: float = 0.1,
        overbid: float = 0.3,
        by: float = 0.3,
    ) -> None:
        self.rho_low, self.rho_high, self.jitter = rho_low, rho_high, jitter
        self.dutch_gap, self.late, self.overbid, self.by = dutch_gap, late, overbid, by

    def describe(self) -> str:
        """Return the behaviour in words, for the sample's label."""
        return (
            f"NOT A CLASS: simulated students, each with his own CRRA rho uniform on [{self.rho_low:g}, "
            f"{self.rho_high:g}]: first price, the CRRA equilibrium bid times 1 + {self.jitter:g} z; Dutch clock, "
            f"a press at the first price at or below that bid times {1 - self.dutch_gap:g}; English clock, a drop "
            f"at the first price at or above the value (one tick later with probability {self.late:g}); second "
            f"price, the value, or with probability {self.overbid:g} the value times 1 + {self.by:g} u"
        )


def clock_sample(
    students: int = 24,
    rounds: int = 3,
    n: int = 4,
    seed: int = 14,
    behaviour: SampleBehaviour | None = None,
    law: Uniform | None = None,
    step: float = 1.0,
) -> pd.DataFrame:
    """Return a simulated class's rows: `rounds` rounds of each of first price, Dutch, second price, English.

    Groups of `n` are drawn afresh each round; clocks start at the law's ends and move by `step`;
    they are settled by `settle_clock`, the sealed rounds by `settle`, each group with its own
    random stream. ``df.attrs["label"]`` holds `SampleBehaviour.describe`.
    """
    import pandas as pd

    b = behaviour or SampleBehaviour()
    law = law or Uniform(0, 100)
    rng = random.Random(seed)
    rhos = {s: rng.uniform(b.rho_low, b.rho_high) for s in range(1, students + 1)}
    law_json = json.dumps(law.to_dict())
    rows: list[dict[str, Any]] = []
    order = ["first", "dutch", "second", "english"] * rounds
    for rnd, kind in enumerate(order, start=1):
        seats = list(rhos)
        rng.shuffle(seats)
        for g, start in enumerate(range(0, students - students % n, n), start=1):
            members = seats[start : start + n]
            values = {s: round(law.draw(rng), 2) for s in members}
            bids, outcomes = _play(kind, members, values, rhos, b, law, step, rng)
            for o in outcomes:
                rows.append(
                    {
                        "round": rnd,
                        "kind": kind,
                        "practice": False,
                        "law_json": law_json,
                        "n": n,
                        "group": g,
                        "student": o.student,
                        "name": f"S{o.student:02d}",
                        "value": values[o.student],
                        "bid": bids.get(o.student, math.nan),
                        "won": o.won,
                        "price": o.price,
                        "paid": o.paid,
                        "earnings": o.earnings,
                        "step": step if kind in ("english", "dutch") else math.nan,
                    }
                )
    df = pd.DataFrame(rows)
    df.attrs["label"] = b.describe()
    return df


def _play(
    kind: str,
    members: list[int],
    values: dict[int, float],
    rhos: dict[int, float],
    b: SampleBehaviour,
    law: Law,
    step: float,
    rng: random.Random,
) -> tuple[dict[int, float], list[Any]]:
    """Return one group's bids (or press prices) and outcomes."""
    group_rng = random.Random(rng.random())
    n = len(members)

    def sealed_first(s: int) -> float:
        bid = law.low + shading(n, law, rhos[s]) * (values[s] - law.low)
        return min(law.top, max(law.low, bid * (1 + b.jitter * rng.gauss(0, 1))))

    if kind in ("first", "second"):
        if kind == "first":
            bids = {s: round(sealed_first(s), 2) for s in members}
        else:
            bids = {
                s: round(values[s] * (1 + b.by * rng.random()) if rng.random() < b.overbid else values[s], 2)
                for s in members
            }
        return bids, settle([Entry(s, values[s], bids[s]) for s in members], group_rng, second_price=kind == "second")
    if kind == "dutch":
        clock = Clock("dutch", start=law.top, step=step, end=law.low)
        ticks = {
            s: min(clock.last, math.ceil((law.top - sealed_first(s) * (1 - b.dutch_gap)) / step - 1e-9))
            for s in members
        }
    else:
        clock = Clock("english", start=law.low, step=step, end=law.top)
        ticks = {}
        for s in members:
            tick = math.ceil((values[s] - law.low) / step - 1e-9) + (1 if rng.random() < b.late else 0)
            if tick <= clock.last:
                ticks[s] = tick
    result = settle_clock(clock, [(s, values[s]) for s in members], [Press(s, t) for s, t in ticks.items()], group_rng)
    decided = result.tick if result.tick is not None else clock.last
    # a press after the deciding tick never happened: the clock had stopped for the group
    bids = {s: clock.price(t) for s, t in ticks.items() if t <= decided}
    return bids, list(result.outcomes)
