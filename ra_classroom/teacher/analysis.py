"""A class's data against the theory, with the student as the unit: bids, revenue, efficiency, the winner's curse.

Every function takes the results as the control room gives them (`ControlRoom.results`, or the
CSV it saves: one row per student and closed sealed-bid round) and returns a small DataFrame
with the class's figure, its 95 % interval and the theory's figure beside it. Practice rounds
are left out unless asked for. A session without the rounds a function needs (no first-price
round, no common-value round, a class of one, Ra tables only) gives an empty table with the same
columns, never an error: `nothing_to_show` says in a sentence why it is empty.

**The student is the unit.** A student bids in many rounds, and his bids are alike (a cautious
student is cautious every round), so his bids are one cluster, never independent draws: every
interval about bids is cluster-robust with the student as the cluster (`ra_course.clustered`:
the small-sample factor G/(G-1) and Student's t with G-1 degrees of freedom, G students).
A group's outcome (its revenue, whether its highest value won, the surplus it realised) is one
observation per group and round; groups are formed afresh every round, so no group recurs, but
two groups that share a student are not independent (his style is in both). Those intervals
(`ra_course.clustered.overlap_ratio`) add the products of every pair of groups that share a
member, in any round, as for dyadic data.

With a class of 20-40 the intervals are wide; say so rather than over-read a difference.
"""

from __future__ import annotations

import json
import math
from statistics import NormalDist
from typing import TYPE_CHECKING, Any

from ra_course.clustered import Estimate, clustered_mean, clustered_share, f_sf, overlap_ratio, overlap_share

from ..auctions.laws import Law, law_from_dict
from ..auctions.theory import (
    common_value_worth,
    expected_revenue,
    first_price_revenue,
    implied_rho,
    shading,
)
from ..kinds.common import COMMON
from ..kinds.lottery import LOTTERY, read_choices
from ..kinds.registry import kind as kind_named
from ..kinds.sealed import ALLPAY, FIRST, SECOND

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "bid_ratios",
    "by_kind",
    "class_slope",
    "counted",
    "efficiency",
    "learning",
    "lottery_intervals",
    "overbidding",
    "revenue",
    "risk_measures",
    "risk_relation",
    "shading_changes",
    "student_slopes",
    "nothing_to_show",
    "students_differ",
    "winners_curse",
    "with_theory",
]

PRIVATE = (FIRST.name, SECOND.name, ALLPAY.name)  #: the private-value sealed-bid kinds whose theory this module knows
CENT = 0.005  # bids within half a cent of the value count as bidding the value


def counted(df: pd.DataFrame, practice: bool = False) -> pd.DataFrame:
    """Return the rows of rounds that count (and of practice rounds too, with `practice`)."""
    return df if practice else df[~df["practice"].astype(bool)]


def _law(row: Any) -> Law:
    return law_from_dict(json.loads(row["law_json"]))


def _interval(e: Estimate, share: bool = False) -> dict[str, float]:
    """Return the interval's ends; a share's are kept within [0, 1] (a t interval may reach past them)."""
    if share:
        return {"low": max(0.0, e.low), "high": min(1.0, e.high)}
    return {"low": e.low, "high": e.high}


def with_theory(df: pd.DataFrame) -> pd.DataFrame:
    """Return `df` with ``equilibrium``: the risk-neutral equilibrium bid for each row's value (private values)."""
    out = df.copy()

    def bid(row: Any) -> float:
        if row["kind"] not in PRIVATE:
            return float("nan")
        guess = kind_named(row["kind"]).predicted(float(row["value"]), int(row["n"]), _law(row), row)
        return float("nan") if guess is None else guess

    out["equilibrium"] = out.apply(bid, axis=1) if len(out) else []
    return out


def by_kind(df: pd.DataFrame, practice: bool = False) -> pd.DataFrame:
    """Return the results, each kind's rows as its kind analyses them (`Kind.analyse`), in the rows' order.

    Every kind's rows get ``predicted`` (what theory says a risk-neutral student sends, or
    empty) and ``gap`` (his bid minus it), and the columns the kind itself adds.
    """
    import pandas as pd

    data = counted(df, practice)
    rows: list[dict[str, Any]] = [{str(k): v for k, v in row.items()} for row in data.to_dict("records")]
    done: dict[int, dict[str, Any]] = {}
    for name in dict.fromkeys(data["kind"]):
        mine = [i for i, row in enumerate(rows) if row["kind"] == name]
        for i, row in zip(mine, kind_named(name).analyse([rows[i] for i in mine]), strict=True):
            done[i] = row
    empty = [*data.columns, "predicted", "gap"]
    return pd.DataFrame([done[i] for i in range(len(rows))], columns=None if rows else empty)


def bid_ratios(df: pd.DataFrame, practice: bool = False) -> pd.DataFrame:
    """Return the mean bid over value by round (bidders with a value above 0), beside the risk-neutral ratio.

    A description, round by round; the intervals are in `class_slope` and `overbidding`.
    """
    import pandas as pd

    data = with_theory(counted(df, practice))
    data = data[data["kind"].isin(PRIVATE) & data["bid"].notna() & (data["value"] > 0)]
    rows = []
    for (rnd, kind), part in data.groupby(["round", "kind"], sort=True):
        rows.append(
            {
                "round": rnd,
                "kind": kind,
                "bids": len(part),
                "bid_over_value": round((part["bid"] / part["value"]).mean(), 3),
                "theory": round((part["equilibrium"] / part["value"]).mean(), 3),
            }
        )
    return pd.DataFrame(rows, columns=["round", "kind", "bids", "bid_over_value", "theory"])


# -- first price: one slope per student --------------------------------------------------------------


def _first_price_bids(df: pd.DataFrame, practice: bool, min_share: float) -> pd.DataFrame:
    """Return the first-price bids with their ratio (bid - low) / (value - low), values not too near the bottom."""
    data = counted(df, practice)
    data = data[(data["kind"] == FIRST.name) & data["bid"].notna()].copy()
    if data.empty:
        return data.assign(low=[], span=[], ratio=[], neutral=[])
    laws = [law_from_dict(json.loads(text)) for text in data["law_json"]]
    data["low"] = [law.low for law in laws]
    data["span"] = [law.top - law.low for law in laws]
    above = data["value"] - data["low"]
    data["ratio"] = (data["bid"] - data["low"]) / above.where(above > 0)
    data["neutral"] = [shading(int(n), law) for n, law in zip(data["n"], laws, strict=True)]
    kept: pd.DataFrame = data[(above > 0) & (above >= min_share * data["span"])]
    return kept


def _rho_interval(slope: Estimate | float, n: int, law: Law) -> dict[str, float]:
    """Return the CRRA rho a slope implies, and the image of its interval (rho falls as the slope rises)."""
    if isinstance(slope, float):
        return {"rho": implied_rho(slope, n, law), "rho_low": math.nan, "rho_high": math.nan}
    high = implied_rho(slope.low, n, law) if slope.low > 0 else math.inf
    low = implied_rho(slope.high, n, law)
    return {"rho": implied_rho(slope.value, n, law), "rho_low": 0.0 if math.isnan(low) else low, "rho_high": high}


def student_slopes(
    df: pd.DataFrame, practice: bool = False, min_share: float = 0.1, confidence: float = 0.95
) -> pd.DataFrame:
    """Return, for first price, one row per student: the share of his value he bids, and the rho that implies.

    His **slope** is the mean of his bids' ratios (bid - low) / (value - low), low the bottom of the
    value range: the least-squares slope of his bids on his values through the origin, each bid
    weighted by 1/value**2 (the right weights when his errors are proportional to his value). Its
    interval is Student's t over his bids (exact when those errors are independent and normal). Bids
    on values in the bottom `min_share` of the range are left out: a bid of 2 on a value of 1 says
    little about a student's shading and its ratio is erratic.

    His **rho** reads the slope as the equilibrium of constant-relative-risk-aversion bidders,
    utility money**rho, slope = (n-1)/(n-1+rho) for uniform values, which assumes CRRA utility,
    values uniform (or as the round's law says) and known to all, and everyone playing that
    equilibrium. With rho differing from student to student (Cox, Smith and Walker's CRRAM) that
    straight line is the equilibrium only below a cutoff value, above which bids bend away from it;
    and money**rho is not defined for a loss, so all-pay bids get no rho. rho = 1 is risk-neutral,
    below 1 risk-averse; its interval is the slope
    interval's image (a slope interval reaching 1 or more leaves rho's lower end at 0). With
    two or three bids a student's interval is wide: the distribution over students, not any one
    student's figure, is the class's finding.

    Columns: student, name, bids, slope, slope_low, slope_high, rho, rho_low, rho_high, neutral
    (the risk-neutral slope), above_line (the share of his bids above the risk-neutral line).
    """
    import pandas as pd

    data = _first_price_bids(df, practice, min_share)
    rows = []
    for (student, name), part in data.groupby(["student", "name"], sort=True):
        n, law = int(part["n"].mode().iloc[0]), _law(part.iloc[0])
        ratios = list(part["ratio"])
        if len(ratios) >= 2:
            e = clustered_mean(ratios, confidence=confidence)
            slope = {"slope": e.value, "slope_low": e.low, "slope_high": e.high}
            rho = _rho_interval(e, n, law)
        else:
            slope = {"slope": ratios[0], "slope_low": math.nan, "slope_high": math.nan}
            rho = _rho_interval(float(ratios[0]), n, law)
        above = float((part["ratio"] > part["neutral"]).mean())
        rows.append(
            {
                "student": student,
                "name": name,
                "bids": len(ratios),
                **slope,
                **rho,
                "neutral": shading(n, law),
                "above_line": above,
            }
        )
    columns = ["student", "name", "bids", "slope", "slope_low", "slope_high", "rho", "rho_low", "rho_high"]
    return pd.DataFrame(rows, columns=[*columns, "neutral", "above_line"])


def class_slope(
    df: pd.DataFrame, practice: bool = False, min_share: float = 0.1, confidence: float = 0.95
) -> pd.DataFrame:
    """Return the class's first-price slope (the mean bid ratio of `student_slopes`), clustered by student.

    One row: bids, students, slope with its interval, the rho it implies with its interval (the
    assumptions of `student_slopes`), the risk-neutral slope, and the design effect (how much the
    student clusters widen the variance against counting every bid as independent).
    """
    import pandas as pd

    data = _first_price_bids(df, practice, min_share)
    columns = [
        "bids",
        "students",
        "slope",
        "slope_low",
        "slope_high",
        "rho",
        "rho_low",
        "rho_high",
        "neutral",
        "design_effect",
    ]
    if data.empty:
        return pd.DataFrame(columns=columns)
    e = clustered_mean(list(data["ratio"]), clusters=list(data["student"]), confidence=confidence)
    n, law = int(data["n"].mode().iloc[0]), _law(data.iloc[0])
    row = {
        "bids": e.n,
        "students": e.clusters,
        "slope": e.value,
        "slope_low": e.low,
        "slope_high": e.high,
        **_rho_interval(e, n, law),
        "neutral": shading(n, law),
        "design_effect": e.design_effect,
    }
    return pd.DataFrame([row], columns=columns)


def students_differ(df: pd.DataFrame, practice: bool = False, min_share: float = 0.1) -> pd.DataFrame:
    """Return the one-way analysis of variance of first-price bid ratios by student: do the students differ?

    If every student bid the same share of his value (one rho for the class) and each bid strayed
    from it by independent normal errors of one size, the F statistic (the spread of the students'
    mean ratios against the spread of each student's own bids) would follow Fisher's F with
    S - 1 and N - S degrees of freedom (S students, N bids). A small p-value says the students
    differ more than their bids' noise explains: one pooled rho does not describe the class.

    Columns: students, bids, F, dof1, dof2, p, spread (the standard deviation of the students'
    slopes), noise (the typical standard deviation of one student's bids). Empty unless there are
    2 students or more and more bids than students (the test needs both).
    """
    import pandas as pd

    data = _first_price_bids(df, practice, min_share)
    by = data.groupby("student")["ratio"]
    means, counts = by.mean(), by.count()
    students, bids = len(means), len(data)
    if students < 2 or bids <= students:
        return pd.DataFrame(columns=["students", "bids", "F", "dof1", "dof2", "p", "spread", "noise"])
    grand = float(data["ratio"].mean())
    between = float((counts * (means - grand) ** 2).sum()) / (students - 1)
    within = float(((data["ratio"] - data["student"].map(means)) ** 2).sum()) / (bids - students)
    f = between / within if within > 0 else math.inf
    dof1, dof2 = students - 1, bids - students
    row = {
        "students": students,
        "bids": bids,
        "F": f,
        "dof1": dof1,
        "dof2": dof2,
        "p": f_sf(f, dof1, dof2),
        "spread": float(means.std()),
        "noise": math.sqrt(within),
    }
    return pd.DataFrame([row])


# -- overbidding --------------------------------------------------------------------------------------


def _share(
    what: str, kind: str, hits: list[float], clusters: list[Any] | None, unit: str, confidence: float
) -> dict[str, Any]:
    e = clustered_share(hits, clusters=clusters, confidence=confidence)
    return {
        "kind": kind,
        "measure": what,
        "unit": unit,
        "count": f"{sum(hits):.0f} of {len(hits)}",
        "share": e.value,
        **_interval(e),
    }


def overbidding(
    df: pd.DataFrame, practice: bool = False, min_share: float = 0.1, confidence: float = 0.95
) -> pd.DataFrame:
    """Return the headline shares of bidding above the line, per bid (clustered by student) and per student.

    First price: bids above the risk-neutral line, and students whose slope lies above it (and
    whose whole interval does), over the same bids as `class_slope` and `student_slopes` (values in
    the bottom `min_share` of the range left out), so the counts agree with theirs. Second price:
    bids above, at and below the value, and students who
    bid above their value at least once. Columns: kind, measure, unit, count, share, low, high.
    """
    import pandas as pd

    rows = []
    data = counted(df, practice)
    first = _first_price_bids(df, practice, min_share)
    if len(first):
        above = [float(a) for a in first["ratio"] > first["neutral"]]
        rows.append(
            _share("bids above the risk-neutral line", FIRST.name, above, list(first["student"]), "bids", confidence)
        )
        per = student_slopes(df, practice, min_share, confidence)
        over = [float(s) for s in per["slope"] > per["neutral"]]
        rows.append(
            _share(
                "students whose slope is above the risk-neutral slope", FIRST.name, over, None, "students", confidence
            )
        )
        sure = [float(s) for s in per["slope_low"] > per["neutral"]]
        rows.append(_share("students whose whole interval is above it", FIRST.name, sure, None, "students", confidence))
    second = data[(data["kind"] == SECOND.name) & data["bid"].notna()]
    if len(second):
        gap, who = second["bid"] - second["value"], list(second["student"])
        for what, hits in (
            ("bids above the value", gap > CENT),
            ("bids at the value", gap.abs() <= CENT),
            ("bids below the value", gap < -CENT),
        ):
            rows.append(_share(what, SECOND.name, [float(h) for h in hits], who, "bids", confidence))
        ever = second.assign(over=gap > CENT).groupby("student")["over"].any()
        rows.append(
            _share(
                "students who bid above their value at least once",
                SECOND.name,
                [float(h) for h in ever],
                None,
                "students",
                confidence,
            )
        )
    return pd.DataFrame(rows, columns=["kind", "measure", "unit", "count", "share", "low", "high"])


# -- groups: revenue, efficiency, surplus -------------------------------------------------------------


def _groups(df: pd.DataFrame, practice: bool) -> pd.DataFrame:
    """Return one row per private-value group and round: kind, n, law, members, revenue, top and winner's value."""
    import pandas as pd

    data = counted(df, practice)
    data = data[data["kind"].isin(PRIVATE)]
    rows = []
    for (rnd, group), part in data.groupby(["round", "group"], sort=True):
        won = part[part["won"].astype(bool)]
        rows.append(
            {
                "round": rnd,
                "group": group,
                "kind": part["kind"].iloc[0],
                "n": int(part["n"].iloc[0]),
                "law": _law(part.iloc[0]),
                "members": frozenset(part["student"]),
                "revenue": float(part["paid"].sum()),
                "top": float(part["value"].max()),
                "realised": float(won["value"].iloc[0]) if len(won) else 0.0,
            }
        )
    columns = ["round", "group", "kind", "n", "law", "members", "revenue", "top", "realised"]
    return pd.DataFrame(rows, columns=columns)


def revenue(
    df: pd.DataFrame, practice: bool = False, rho: float | None = None, confidence: float = 0.95
) -> pd.DataFrame:
    """Return the mean revenue per group of each private-value format, beside two benchmarks.

    The revenue of a group is what its members paid; one observation per group and round, with
    an interval that counts groups sharing a student as dependent (see the module's docstring).
    Benchmarks per group, then averaged: **risk_neutral**, the mean second-highest value,
    (n-1)/(n+1) of the top of the value range for values uniform from 0 (the range's top, 100, not
    the group's highest value: with groups of 4 that is 60), the same in every format (revenue
    equivalence); **risk_averse**, the same with bidders of utility money**rho: more in first
    price (they shade less), the same in second price, not derived here for all-pay. `rho`
    defaults to the class's own (`class_slope`).

    Columns: kind, n, rounds, groups, revenue, low, high, risk_neutral, risk_averse, rho.
    """
    import pandas as pd

    groups = _groups(df, practice)
    if rho is None and (groups["kind"] == FIRST.name).any():
        slope = class_slope(df, practice)["rho"]
        rho = float(slope.iloc[0]) if len(slope) else None
    rows = []
    for kind in [k for k in PRIVATE if (groups["kind"] == k).any()]:
        part = groups[groups["kind"] == kind]
        e = overlap_ratio(list(part["revenue"]), [1.0] * len(part), list(part["members"]), confidence)
        neutral = [expected_revenue(n, law) for n, law in zip(part["n"], part["law"], strict=True)]
        averse: list[float] = neutral
        if kind == ALLPAY.name:
            averse = [math.nan]
        elif kind == FIRST.name and rho is not None and 0 < rho <= 20:  # NaN (a slope of 1 or more) fails too
            averse = [first_price_revenue(n, law, rho) for n, law in zip(part["n"], part["law"], strict=True)]
        rows.append(
            {
                "kind": kind,
                "n": int(part["n"].mode().iloc[0]),
                "rounds": part["round"].nunique(),
                "groups": len(part),
                "revenue": e.value,
                **_interval(e),
                "risk_neutral": sum(neutral) / len(neutral),
                "risk_averse": sum(averse) / len(averse),
                "rho": rho if kind == FIRST.name else math.nan,
            }
        )
    columns = ["kind", "n", "rounds", "groups", "revenue", "low", "high", "risk_neutral", "risk_averse", "rho"]
    return pd.DataFrame(rows, columns=columns)


def efficiency(df: pd.DataFrame, practice: bool = False, confidence: float = 0.95) -> pd.DataFrame:
    """Return, by private-value format, how often the highest value won and the share of the surplus realised.

    **Surplus** is what a sale creates: the winner's value of the object (0 if nobody won). The
    price only moves it between winner and seller (revenue + the winner's earnings = his value).
    The most a group can create is its highest value. So:

    * efficient: the share of groups whose winner holds the group's highest value (theory: 1 in
      every private-value format, the bid rising with the value);
    * surplus: the share of the possible surplus realised, the sum of the winners' values over the
      sum of the groups' highest values (1 when every sale is efficient);
    * lost: the surplus lost per group, on average (the top value minus the winner's value).

    Intervals as for `revenue` (groups sharing a student are dependent). Columns: kind, groups,
    efficient, low, high, surplus, surplus_low, surplus_high, lost.
    """
    import pandas as pd

    groups = _groups(df, practice)
    rows = []
    for kind in [k for k in PRIVATE if (groups["kind"] == k).any()]:
        part = groups[groups["kind"] == kind]
        members = list(part["members"])
        hits = [float(r == t) for r, t in zip(part["realised"], part["top"], strict=True)]
        e = overlap_share(hits, members, confidence)
        surplus = {"surplus": math.nan, "low": math.nan, "high": math.nan}
        if part["top"].sum() > 0:  # every value 0: no surplus to share out
            s = overlap_ratio(list(part["realised"]), list(part["top"]), members, confidence)
            surplus = {"surplus": s.value, **_interval(s, share=True)}
        rows.append(
            {
                "kind": kind,
                "groups": len(part),
                "efficient": e.value,
                **_interval(e),
                "surplus": surplus["surplus"],
                "surplus_low": surplus["low"],
                "surplus_high": surplus["high"],
                "lost": float((part["top"] - part["realised"]).mean()),
            }
        )
    columns = ["kind", "groups", "efficient", "low", "high", "surplus", "surplus_low", "surplus_high", "lost"]
    return pd.DataFrame(rows, columns=columns)


# -- common value: the winner's curse and learning ----------------------------------------------------


def _common(df: pd.DataFrame, practice: bool) -> pd.DataFrame:
    data = counted(df, practice)
    data = data[(data["kind"] == COMMON.name) & data["bid"].notna()].copy()
    data["won"] = data["won"].astype(bool)
    data["worth_if_highest"] = [
        common_value_worth(x, int(n), float(noise), _law(row))
        for x, n, noise, (_, row) in zip(data["value"], data["n"], data["noise"], data.iterrows(), strict=True)
    ]
    return data


def winners_curse(df: pd.DataFrame, practice: bool = False, confidence: float = 0.95) -> pd.DataFrame:
    """Return what the winners of common-value rounds earned, round by round and over all rounds.

    Common-value rounds are first-price: the winner pays his bid and gets the common worth. A
    winner's signal is the highest of his group's, so it overstates the worth; the **break-even
    bid** is the worth expected given that one's signal is the highest (`common_value_worth`:
    signal - noise (n-1)/(n+1) for signals at least noise from the ends of the range, more near
    them). Above it, a winner loses money on average when everyone bids by the same rising rule.

    One row per round (its winners are different students: t over them), then a row ``all`` over
    every round with the student as the cluster (a student may win twice). Columns: round, n,
    noise, winners, earnings (the winners' mean), low, high, lost_money (the share of winners who
    lost money), over_break_even (how far above the break-even bid the winners bid, on average).
    """
    import pandas as pd

    won = _common(df, practice)
    won = won[won["won"]]
    rows = []
    parts: list[tuple[Any, pd.DataFrame, list[Any] | None]] = [(r, p, None) for r, p in won.groupby("round", sort=True)]
    if len(won):
        parts.append(("all", won, list(won["student"])))
    for rnd, part, clusters in parts:
        earned = list(part["earnings"])
        e = clustered_mean(earned, clusters=clusters, confidence=confidence) if len(earned) > 1 else None
        rows.append(
            {
                "round": rnd,
                "n": int(part["n"].mode().iloc[0]),
                "noise": float(part["noise"].iloc[0]),
                "winners": len(part),
                "earnings": sum(earned) / len(earned),
                "low": e.low if e else math.nan,
                "high": e.high if e else math.nan,
                "lost_money": float((part["earnings"] < 0).mean()),
                "over_break_even": float((part["bid"] - part["worth_if_highest"]).mean()),
            }
        )
    columns = ["round", "n", "noise", "winners", "earnings", "low", "high", "lost_money", "over_break_even"]
    return pd.DataFrame(rows, columns=columns)


def learning(df: pd.DataFrame, practice: bool = False, confidence: float = 0.95) -> pd.DataFrame:
    """Return how far below their signals everyone bid, by common-value round, and each student's change.

    The winners of a round are few (one per group), so their earnings say little about learning.
    Every student bids every round, so the **shading** (signal - bid) of all bidders shows it: one
    row per common-value round (t over its bidders, one bid each), then a row ``change``: each
    student's shading in his last common-value round minus his first, averaged over the students
    who bid in both (t over those students: each student is his own control). Columns: round, bids,
    shading, low, high, break_even (the mean shading a bidder needs to break even when he wins).
    """
    import pandas as pd

    data = _common(df, practice)
    data["shading"] = data["value"] - data["bid"]
    data["needed"] = data["value"] - data["worth_if_highest"]
    rows = []
    for rnd, part in data.groupby("round", sort=True):
        e = clustered_mean(list(part["shading"]), confidence=confidence)
        rows.append(
            {
                "round": rnd,
                "bids": len(part),
                "shading": e.value,
                **_interval(e),
                "break_even": float(part["needed"].mean()),
            }
        )
    change = shading_changes(df, practice)["change"]
    if len(change) >= 2:
        e = clustered_mean(list(change), confidence=confidence)
        rows.append(
            {"round": "change", "bids": len(change), "shading": e.value, **_interval(e), "break_even": math.nan}
        )
    return pd.DataFrame(rows, columns=["round", "bids", "shading", "low", "high", "break_even"])


def shading_changes(df: pd.DataFrame, practice: bool = False) -> pd.DataFrame:
    """Return each student's shading (signal - bid) in the first and the last common-value round, and the change.

    Students who did not bid in both are left out. Columns: student, name, first, last, change.
    """
    import pandas as pd

    data = _common(df, practice)
    data["shading"] = data["value"] - data["bid"]
    rounds = sorted(data["round"].unique())
    columns = ["student", "name", "first", "last", "change"]
    if len(rounds) < 2:
        return pd.DataFrame(columns=columns)
    wide = data.pivot_table(index=["student", "name"], columns="round", values="shading")
    out = pd.DataFrame({"first": wide[rounds[0]], "last": wide[rounds[-1]]}).dropna().reset_index()
    out["change"] = out["last"] - out["first"]
    return out[columns]


# -- risk attitude: Holt and Laury's lotteries beside the first-price bids -----------------------------


def lottery_intervals(df: pd.DataFrame, practice: bool = False) -> pd.DataFrame:
    """Return one row per student and lottery round: his ten choices and the interval of CRRA ρ they give.

    ρ here is the lotteries' convention, utility x^(1-ρ)/(1-ρ): 0 is risk-neutral, above 0
    risk-averse (`ra_classroom.kinds.lottery`). The interval is read again from his choices,
    exactly: -inf and inf for the open ends (a student who chose B throughout, or switched in
    row 10), NaN for inconsistent choices (more than one switch, or A in row 10), which
    ``consistent`` and ``why`` report.

    Columns: round, student, name, choices, safe, switch_row, consistent, why, low, high.
    """
    import pandas as pd

    columns = ["round", "student", "name", "choices", "safe", "switch_row", "consistent", "why", "low", "high"]
    data = counted(df, practice)
    if "choices" not in data.columns:
        return pd.DataFrame(columns=columns)
    data = data[(data["kind"] == LOTTERY.name) & data["choices"].notna()]
    rows = []
    for x in data.to_dict("records"):
        reading = read_choices(str(x["choices"]))
        rows.append(
            {
                "round": int(x["round"]),
                "student": int(x["student"]),
                "name": x["name"],
                "choices": x["choices"],
                "safe": reading.safe,
                "switch_row": reading.switch,
                "consistent": reading.consistent,
                "why": reading.why,
                "low": math.nan if reading.low is None else reading.low,
                "high": math.nan if reading.high is None else reading.high,
            }
        )
    return pd.DataFrame(rows, columns=columns)


def risk_measures(df: pd.DataFrame, practice: bool = False) -> pd.DataFrame:
    """Return, per student, his ρ interval from the lotteries beside the one his first-price bids imply.

    Both in the lotteries' convention (CRRA ρ, 0 risk-neutral): the bids' rho of `student_slopes`
    (utility money**rho, 1 risk-neutral) is the coefficient 1 - rho, so its interval is
    [1 - rho_high, 1 - rho_low]. Students with consistent lottery choices (his last lottery round)
    and first-price bids only. ``overlap``: the two intervals share a point.

    Columns: student, name, safe, lottery_low, lottery_high, bids_rho, bids_low, bids_high, overlap.
    """
    import pandas as pd

    columns = ["student", "name", "safe", "lottery_low", "lottery_high", "bids_rho", "bids_low", "bids_high", "overlap"]
    lists = lottery_intervals(df, practice)
    lists = lists[lists["consistent"].astype(bool)].drop_duplicates("student", keep="last")
    slopes = student_slopes(df, practice)
    if lists.empty or slopes.empty:
        return pd.DataFrame(columns=columns)
    both = lists.merge(slopes, on="student", suffixes=("", "_bids"))
    out = pd.DataFrame(
        {
            "student": both["student"],
            "name": both["name"],
            "safe": both["safe"],
            "lottery_low": both["low"],
            "lottery_high": both["high"],
            "bids_rho": 1 - both["rho"],
            "bids_low": 1 - both["rho_high"],
            "bids_high": 1 - both["rho_low"],
        }
    )
    out["overlap"] = (out["lottery_low"] <= out["bids_high"]) & (out["bids_low"] <= out["lottery_high"])
    return out[columns].reset_index(drop=True)


def risk_relation(df: pd.DataFrame, practice: bool = False, confidence: float = 0.95) -> pd.DataFrame:
    """Return how the two risk measures of `risk_measures` relate, over the students who have both.

    ``spearman``: the rank correlation of his safe choices (how many times he chose A) and the ρ
    his bids imply, with an interval from Fisher's z, standard error sqrt(1.06 / (n - 3))
    (Fieller, Hartley and Pearson 1957), for 5 students or more. ``overlap``: the share whose two
    intervals share a point (students as independent, a Wilson interval). ``inconsistent``: the
    students whose lottery choices give no ρ at all, and ``answered``: all who chose.

    Columns: students, answered, inconsistent, spearman, spearman_low, spearman_high, overlap,
    overlap_low, overlap_high.
    """
    import pandas as pd

    columns = [
        "students",
        "answered",
        "inconsistent",
        "spearman",
        "spearman_low",
        "spearman_high",
        "overlap",
        "overlap_low",
        "overlap_high",
    ]
    lists = lottery_intervals(df, practice).drop_duplicates("student", keep="last")
    both = risk_measures(df, practice)
    if both.empty:
        return pd.DataFrame(columns=columns)
    k = len(both)
    ranks_a, ranks_b = both["safe"].rank(), both["bids_rho"].rank()
    r = float(ranks_a.corr(ranks_b)) if k >= 3 and ranks_a.std() > 0 and ranks_b.std() > 0 else math.nan
    low = high = math.nan
    if k >= 5 and not math.isnan(r) and abs(r) < 1:
        z, half = math.atanh(r), NormalDist().inv_cdf(0.5 + confidence / 2) * math.sqrt(1.06 / (k - 3))
        low, high = math.tanh(z - half), math.tanh(z + half)
    hits = [float(x) for x in both["overlap"]]
    share = clustered_share(hits, confidence=confidence) if k >= 2 else None
    value, low_s, high_s = (share.value, share.low, share.high) if share else (hits[0], math.nan, math.nan)
    row = {
        "students": k,
        "answered": len(lists),
        "inconsistent": int((~lists["consistent"].astype(bool)).sum()),
        "spearman": r,
        "spearman_low": low,
        "spearman_high": high,
        "overlap": value,
        "overlap_low": low_s,
        "overlap_high": high_s,
    }
    return pd.DataFrame([row], columns=columns)


# -- an empty table, said in a sentence ---------------------------------------------------------------

_NEEDS = {
    "first": "no first-price bid on a value above a tenth of the range (practice aside): "
    'run one (room.open_round("first"))',
    "second": 'no second-price round (practice aside): run one (room.open_round("second"))',
    "private": "no first-price, second-price or all-pay round (practice aside)",
    "common": 'no common-value round with a bid (practice aside): run one (room.open_round("common", noise=10))',
    "common2": "fewer than two common-value rounds with a bid: a change needs a first and a last",
    "students": "fewer than two students with first-price bids, or no student with more than one: "
    "the students cannot be compared",
    "lottery": 'no lottery round answered (practice aside): run one (room.open_round("lottery"))',
    "risk": "no student with both consistent lottery choices and first-price bids on values above a tenth of"
    " the range (practice aside)",
}


def nothing_to_show(what: str, df: pd.DataFrame) -> str:
    """Return the sentence that says why `what`'s table (a key of `_NEEDS`) is empty for the results `df`."""
    rounds = counted(df)["round"].nunique() if len(df) else 0
    return f"Nothing to show here: these results have {_NEEDS[what]} ({rounds} paid sealed-bid rounds in all)."
