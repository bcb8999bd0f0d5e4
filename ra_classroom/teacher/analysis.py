"""A class's data against the theory: bids, revenue, efficiency and the winner's curse (pandas).

Every function takes the results as the control room gives them (`ControlRoom.results`, or the
CSV it saves: one row per student and closed sealed-bid round) and returns a small DataFrame
with the class's figure beside the theory's (`ra_classroom.auctions.theory`). Practice rounds are left
out unless asked for.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..auctions.laws import law_from_dict
from ..auctions.theory import common_value_break_even, equilibrium_bid, expected_revenue

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["bid_ratios", "counted", "efficiency", "revenue", "winners_curse", "with_theory"]


def counted(df: pd.DataFrame, practice: bool = False) -> pd.DataFrame:
    """Return the rows of rounds that count (and of practice rounds too, with `practice`)."""
    return df if practice else df[~df["practice"].astype(bool)]


def with_theory(df: pd.DataFrame) -> pd.DataFrame:
    """Return `df` with ``equilibrium``: the risk-neutral equilibrium bid for each row's value (private values)."""
    out = df.copy()

    def bid(row: Any) -> float:
        if row["kind"] not in ("first", "second", "allpay"):
            return float("nan")
        return equilibrium_bid(row["kind"], row["value"], int(row["n"]), law_from_dict(json.loads(row["law_json"])))

    out["equilibrium"] = out.apply(bid, axis=1) if len(out) else []
    return out


def revenue(df: pd.DataFrame, practice: bool = False) -> pd.DataFrame:
    """Return the mean revenue per group, by round, beside the theory (the mean second-highest value).

    Columns: round, kind, n, groups, revenue (the mean over groups of what its members paid),
    theory, and ratio (revenue / theory); in every private-value format theory predicts the
    same revenue, (n-1)/(n+1) of the top for values uniform from 0.
    """
    import pandas as pd

    rows = []
    data = counted(df, practice)
    for (rnd, kind), part in data[data["kind"] != "common"].groupby(["round", "kind"], sort=True):
        paid = part.groupby("group")["paid"].sum()
        n = int(part["n"].iloc[0])
        law = law_from_dict(json.loads(part["law_json"].iloc[0]))
        theory = expected_revenue(n, law)
        rows.append({"round": rnd, "kind": kind, "n": n, "groups": len(paid), "revenue": round(paid.mean(), 2),
                     "theory": round(theory, 2), "ratio": round(paid.mean() / theory, 3)})  # fmt: skip
    return pd.DataFrame(rows, columns=["round", "kind", "n", "groups", "revenue", "theory", "ratio"])


def efficiency(df: pd.DataFrame, practice: bool = False) -> pd.DataFrame:
    """Return, by round, the share of groups where the highest value won, and the share of the surplus realised.

    The surplus of a group is its highest value; a group's realised share is the winner's value over
    it (0 if nobody won). Theory: 1 in every private-value format (the bid rises with the value).
    """
    import pandas as pd

    rows = []
    data = counted(df, practice)
    for (rnd, kind), part in data[data["kind"] != "common"].groupby(["round", "kind"], sort=True):
        best = won = share = 0.0
        groups = part.groupby("group")
        for _, g in groups:
            top = g["value"].max()
            winner = g[g["won"].astype(bool)]
            if len(winner):
                value = float(winner["value"].iloc[0])
                best += value == top
                share += value / top if top > 0 else 1.0
            won += 1
        rows.append({"round": rnd, "kind": kind, "groups": int(won), "efficient": round(best / won, 3),
                     "surplus": round(share / won, 3)})  # fmt: skip
    return pd.DataFrame(rows, columns=["round", "kind", "groups", "efficient", "surplus"])


def winners_curse(df: pd.DataFrame, practice: bool = False) -> pd.DataFrame:
    """Return, by common-value round, what winners earned and how their bids stood to the break-even bid.

    Columns: round, n, noise, winners, mean earnings of the winners, the share who lost money,
    and how far the winners bid above the break-even bid signal - noise*(n-1)/(n+1), on average
    (positive: the winner's curse).
    """
    import pandas as pd

    rows = []
    data = counted(df, practice)
    common = data[(data["kind"] == "common") & data["won"].astype(bool)]
    for rnd, part in common.groupby("round", sort=True):
        n, noise = int(part["n"].iloc[0]), float(part["noise"].iloc[0])
        even = [common_value_break_even(x, n, noise) for x in part["value"]]
        over = (part["bid"] - even).mean()
        lost = (part["earnings"] < 0).mean()
        earned = part["earnings"].mean()
        rows.append({"round": rnd, "n": n, "noise": noise, "winners": len(part), "earnings": round(earned, 2),
                     "lost_money": round(lost, 3), "over_break_even": round(over, 2)})  # fmt: skip
    return pd.DataFrame(rows, columns=["round", "n", "noise", "winners", "earnings", "lost_money", "over_break_even"])


def bid_ratios(df: pd.DataFrame, practice: bool = False) -> pd.DataFrame:
    """Return the mean bid over value by round (bidders with a value above 0), beside the risk-neutral ratio.

    For first price with values uniform from 0 the theory's ratio is (n-1)/n whatever the value.
    """
    import pandas as pd

    data = with_theory(counted(df, practice))
    data = data[(data["kind"] != "common") & data["bid"].notna() & (data["value"] > 0)]
    rows = []
    for (rnd, kind), part in data.groupby(["round", "kind"], sort=True):
        rows.append({"round": rnd, "kind": kind, "bids": len(part),
                     "bid_over_value": round((part["bid"] / part["value"]).mean(), 3),
                     "theory": round((part["equilibrium"] / part["value"]).mean(), 3)})  # fmt: skip
    return pd.DataFrame(rows, columns=["round", "kind", "bids", "bid_over_value", "theory"])
