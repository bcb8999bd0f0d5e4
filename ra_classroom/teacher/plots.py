"""The class's data as pictures: bids and the equilibria, a slope per student, revenue, the winner's curse, lotteries.

Each function takes the results DataFrame (`ControlRoom.results` or the saved CSV) and returns a
matplotlib `Figure` in the project's plot style (`ra_core`'s plotstyle: colour-blind-safe,
readable on light and dark themes, byte-stable SVG).
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING

from ..auctions.laws import Uniform, law_from_dict
from ..auctions.theory import common_value_bid, common_value_worth, equilibrium_bid
from ..game.bridge import plot_style
from ..kinds.common import COMMON
from ..kinds.lottery import ROWS, risk_neutral_choices
from ..kinds.registry import TITLES as KINDS
from ..kinds.sealed import ALLPAY, FIRST, SECOND
from .analysis import counted, learning, lottery_intervals, revenue
from .notes import Note

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = [
    "bids_against_values",
    "lottery_plot",
    "revenue_by_format",
    "rho_ticks",
    "student_slopes_plot",
    "svg_setup",
    "winners_curse_plot",
]

_PRIVATE = (FIRST.name, SECOND.name, ALLPAY.name)
_NO_PRIVATE = (
    "No first-price, second-price or all-pay round (practice aside) in these results, so nothing to plot here:"
    ' run one (room.open_round("first")), or skip this plot.'
)


def svg_setup() -> None:
    """Make this notebook's figures byte-stable SVG (the project's plot style), so that checks compare them."""
    plot_style().svg_setup()


def bids_against_values(df: pd.DataFrame, rho: float | None = 0.5, practice: bool = False) -> Figure | Note:
    """Return one panel per private-value format: each bid against its value, with the risk-neutral equilibrium.

    Args:
        df: the results.
        rho: also draw the first-price equilibrium of bidders with utility money**rho (CRRA) for this
            rho, the class's own estimate for instance (None: do not).
        practice: include practice rounds.
    """
    style = plot_style()
    data = counted(df, practice)
    data = data[data["bid"].notna()]
    kinds = [k for k in _PRIVATE if (data["kind"] == k).any()]
    if not kinds:
        return Note(_NO_PRIVATE)
    if rho is not None and not (isinstance(rho, (int, float)) and 0 < rho <= 20):
        rho = None  # no CRRA bidder bids so (a slope of 1 or more, or no first-price bid): no dashed line
    fig, axes = style.figure(3.6 * len(kinds), 3.4, ncols=len(kinds))
    axes = [axes] if len(kinds) == 1 else list(axes)
    for ax, kind in zip(axes, kinds, strict=True):
        part = data[data["kind"] == kind]
        n = int(part["n"].mode().iloc[0])
        law = law_from_dict(json.loads(part["law_json"].iloc[0]))
        ax.scatter(part["value"], part["bid"], s=14, alpha=0.7, color=style.PALETTE[0], label="a bid")
        grid = [law.low + (law.top - law.low) * i / 100 for i in range(101)]
        ax.plot(
            grid,
            [equilibrium_bid(kind, v, n, law) for v in grid],
            color=style.PALETTE[1],
            label=f"equilibrium, n = {n}",
        )
        if kind == FIRST.name and rho is not None:
            ax.plot(
                grid,
                [equilibrium_bid(kind, v, n, law, rho=rho) for v in grid],
                color=style.PALETTE[2],
                linestyle="--",
                label=f"CRRA equilibrium, ρ = {rho:.2g}",
            )
        ax.set_title(KINDS[kind].replace(" sealed bid", ""))
        ax.set_xlabel("value")
        ax.set_ylabel("bid")
    style.legend_below(fig, *_handles(axes))
    done: Figure = style.finish(fig)
    return done


def _handles(axes: list[object]) -> tuple[list[object], list[str]]:
    """Return the legend entries of every panel, each label once."""
    handles: list[object] = []
    labels: list[str] = []
    for ax in axes:
        for h, label in zip(*ax.get_legend_handles_labels(), strict=True):  # type: ignore[attr-defined]
            if label not in labels:
                handles.append(h)
                labels.append(label)
    return handles, labels


def student_slopes_plot(table: pd.DataFrame, programmed: pd.Series | None = None) -> Figure | Note:
    """Return each student's first-price slope with its 95 % interval, sorted, on a scale of slope and of rho.

    The right-hand scale reads a slope s as the CRRA rho = k (1/s - 1), k = s0 / (1 - s0) for the
    risk-neutral slope s0 ((n-1)/n for uniform values): ticks at round values of rho, drawn where
    their slopes lie (`rho_ticks`). A slope of 1 or more (bidding one's value or more) is no CRRA
    bidder's: that band is shaded and has no rho.

    Args:
        table: `analysis.student_slopes` of the class.
        programmed: for simulated students, each one's programmed rho by name, drawn as a cross.
    """
    if table.empty:
        return Note("No student has a first-price bid on a value above a tenth of the range, so no slope to plot.")
    style = plot_style()
    rows = table.sort_values("slope").reset_index(drop=True)
    n_law = rows["neutral"].iloc[0]
    k = n_law / (1 - n_law)  # (n-1) a: the risk-neutral slope k / (k + 1) gives it back
    fig, ax = style.figure(7.2, 3.6)
    x = list(range(len(rows)))
    low = (rows["slope"] - rows["slope_low"]).fillna(0)
    high = (rows["slope_high"] - rows["slope"]).fillna(0)
    ax.errorbar(
        x,
        rows["slope"],
        yerr=[low, high],
        fmt="o",
        color=style.PALETTE[0],
        capsize=2,
        markersize=4,
        label="a student (bars: 95 %)",
    )
    ax.axhline(n_law, color=style.PALETTE[1], linewidth=1.2, label=f"risk-neutral, {n_law:.3g}")
    if programmed is not None:
        truth = [k / (k + float(programmed[name])) for name in rows["name"]]
        ax.scatter(x, truth, marker="x", color=style.PALETTE[2], zorder=3, s=22, label="programmed")
    ax.set_xticks(x, rows["name"], rotation=90, fontsize=7)
    ends: list[float] = [float(v) for v in (*rows["slope_low"], *rows["slope_high"], *rows["slope"], n_law)]
    known = [v for v in ends if not math.isnan(v)]
    bottom: float = max(0.0, min(known) - 0.05)
    top: float = max(known) + 0.05
    ax.set_ylim(bottom, top)
    if top > 1:
        ax.axhspan(1, top, color=style.PALETTE[7], alpha=0.15, linewidth=0, label="bid ≥ value: no CRRA ρ")
    ax.set_ylabel("slope: bid / value")
    ax.set_title("First price: one slope per student")
    scale = ax.twinx()
    scale.set_ylim(bottom, top)
    ticks = rho_ticks(bottom, top, k)
    scale.set_yticks([t for t, _ in ticks], [label for _, label in ticks])
    scale.set_ylabel("CRRA ρ at that slope")
    style.legend_below(fig, *_handles([ax]))
    done: Figure = style.finish(fig)
    return done


def rho_ticks(low: float, high: float, k: float) -> list[tuple[float, str]]:
    """Return the ticks of the rho scale between the slopes `low` and `high`: (slope, label) for round values of rho.

    A slope s reads as rho = k (1/s - 1), so rho r sits at the slope k / (k + r); k is (n-1) for
    uniform values (3 for groups of 4: rho 1 at 0.75, 0.5 at 0.857, 0 at 1). Slopes of 1 or more
    have no rho, so no tick lies above 1.

    >>> [(round(s, 3), label) for s, label in rho_ticks(0.7, 1.2, 3)]
    [(0.75, '1'), (0.8, '0.75'), (0.857, '0.5'), (0.923, '0.25'), (0.968, '0.1'), (1.0, '0')]
    """
    values = (0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)
    ticks = [(k / (k + r), f"{r:g}") for r in values]
    return sorted((s, label) for s, label in ticks if low <= s <= min(high, 1.0))


def revenue_by_format(df: pd.DataFrame, practice: bool = False, rho: float | None = None) -> Figure | Note:
    """Return the mean revenue per group of each private-value format with its 95 % interval, beside two benchmarks.

    The benchmarks of `analysis.revenue`: risk-neutral (the mean second-highest value, the same in
    every format) and risk-averse bidders with the class's rho (first price only differs).
    """
    if not counted(df, practice)["kind"].isin(_PRIVATE).any():
        return Note(_NO_PRIVATE)
    style = plot_style()
    table = revenue(df, practice, rho=rho)
    fig, ax = style.figure(6.4, 3.2)
    x = list(range(len(table)))
    ax.bar(
        x,
        table["revenue"],
        color=style.PALETTE[0],
        label="the class (bars: 95 %)",
        yerr=[table["revenue"] - table["low"], table["high"] - table["revenue"]],
        capsize=4,
        error_kw={"ecolor": style.INK},
    )
    ax.scatter(x, table["risk_neutral"], marker="D", color=style.PALETTE[1], zorder=3, label="risk-neutral")
    averse = table["risk_averse"]
    fitted = table["rho"].dropna()
    if averse.notna().any() and len(fitted):
        ax.scatter(x, averse, marker="v", color=style.PALETTE[2], zorder=3, label=f"CRRA, ρ = {fitted.iloc[0]:.2f}")
    names = [KINDS[k].replace(" sealed bid", "") for k in table["kind"]]
    ax.set_xticks(x, [f"{name} ({r} rounds)" for name, r in zip(names, table["rounds"], strict=True)])
    ax.set_ylabel("revenue per group")
    style.legend_below(fig)
    done: Figure = style.finish(fig)
    return done


def winners_curse_plot(df: pd.DataFrame, practice: bool = False) -> Figure | Note:
    """Return the common-value rounds (first price): bids against signals with the rules, and shading by round.

    Left: every bid against its signal (winners filled), with bidding the signal, the break-even
    bid (the worth expected when one's signal is the highest: `common_value_worth`, to the ends of
    the range) and the risk-neutral equilibrium (`common_value_bid`, drawn over its valid range,
    signals from low - noise to high - noise). Right: each round's mean shading (signal - bid) with
    its 95 % interval, beside the shading a winner needs to break even.
    """
    style = plot_style()
    data = counted(df, practice)
    bids = data[(data["kind"] == COMMON.name) & data["bid"].notna()]
    if bids.empty:
        return Note(
            "No common-value round with a bid in these results, so no winner's curse to show: run one"
            ' (room.open_round("common", noise=10)), or skip this plot.'
        )
    n, noise = int(bids["n"].mode().iloc[0]), float(bids["noise"].iloc[0])
    law = law_from_dict(json.loads(bids["law_json"].iloc[0]))
    fig, (left, right) = style.figure(8.4, 3.6, ncols=2)
    won = bids["won"].astype(bool)
    left.scatter(bids.loc[~won, "value"], bids.loc[~won, "bid"], s=12, color=style.PALETTE[7], alpha=0.7, label="a bid")
    left.scatter(bids.loc[won, "value"], bids.loc[won, "bid"], s=18, color=style.PALETTE[0], label="a winning bid")
    lo, hi = law.low - noise, law.top + noise
    grid = [lo + (hi - lo) * i / 240 for i in range(241)]
    left.plot(grid, grid, color=style.INK, linewidth=1, linestyle=":", label="bid = signal")
    worth = [common_value_worth(x, n, noise, law) for x in grid]
    left.plot(grid, worth, color=style.PALETTE[1], label="break-even")
    if isinstance(law, Uniform):
        valid = [x for x in grid if x <= law.top - noise]
        left.plot(
            valid,
            [common_value_bid(x, n, noise, law.low) for x in valid],
            color=style.PALETTE[2],
            linestyle="--",
            label=f"equilibrium (to {law.top - noise:g})",
        )
    left.set_xlabel("signal")
    left.set_ylabel("bid")
    left.set_title("Bids on signals")
    table = learning(df, practice)
    per_round = table[table["round"] != "change"]
    x = list(range(len(per_round)))
    right.errorbar(
        x,
        per_round["shading"],
        yerr=[per_round["shading"] - per_round["low"], per_round["high"] - per_round["shading"]],
        fmt="o",
        color=style.PALETTE[0],
        capsize=3,
        label="mean (bars: 95 %)",
    )
    right.plot(x, per_round["break_even"], "D", color=style.PALETTE[1], label="break-even")
    right.set_xticks(x, [f"round {r}" for r in per_round["round"]])
    right.set_ylim(bottom=0)
    right.set_ylabel("signal - bid")
    right.set_title("Shading, round by round")
    left.legend(fontsize=7, loc="upper left")
    right.legend(fontsize=7, loc="upper left")
    done: Figure = style.finish(fig)
    return done


def lottery_plot(df: pd.DataFrame, measures: pd.DataFrame | None = None, practice: bool = False) -> Figure | Note:
    """Return Holt and Laury's lotteries: the class's share choosing B by row, and each student's two risk measures.

    Left: the share of the class choosing the risky lottery B in each row (consistent or not),
    beside a risk-neutral student's choices (A in rows 1-4, B from row 5). Right, given
    `measures` (`analysis.risk_measures`): each student's interval of CRRA ρ from his lotteries
    (vertical) against the ρ his first-price bids imply (horizontal, with its interval), both in
    the lotteries' convention (0 risk-neutral); the diagonal is where the two would agree.
    """
    lists = lottery_intervals(df, practice)
    if lists.empty:
        return Note(
            "No lottery round answered in these results, so no lottery choices to plot: run one"
            ' (room.open_round("lottery")), or skip this plot.'
        )
    style = plot_style()
    pairs = measures is not None and not measures.empty
    fig, axes = style.figure(8.4 if pairs else 4.4, 3.6, ncols=2 if pairs else 1)
    left = axes[0] if pairs else axes
    rows = list(range(1, ROWS + 1))
    share = [100 * sum(c[k - 1] == "B" for c in lists["choices"]) / len(lists) for k in rows]
    neutral = [100.0 if c == "B" else 0.0 for c in risk_neutral_choices()]
    left.plot(rows, share, marker="o", color=style.PALETTE[0], label=f"the class ({len(lists)} lists)")
    left.plot(rows, neutral, drawstyle="steps-mid", color=style.PALETTE[1], label="risk-neutral")
    left.set_xticks(rows)
    left.set_xlabel("row: the high prize's chance in tenths")
    left.set_ylabel("% choosing B (risky)")
    if pairs and measures is not None:
        right = axes[1]
        top = 2.0
        lo = measures["lottery_low"].clip(lower=-top, upper=top)
        hi = measures["lottery_high"].clip(lower=-top, upper=top)
        mid = (lo + hi) / 2
        right.errorbar(
            measures["bids_rho"],
            mid,
            yerr=[mid - lo, hi - mid],
            xerr=[
                (measures["bids_rho"] - measures["bids_low"].clip(lower=-top)).clip(lower=0).fillna(0),
                (measures["bids_high"] - measures["bids_rho"]).clip(lower=0).fillna(0),
            ],
            fmt="o",
            markersize=3,
            color=style.PALETTE[2],
            ecolor=style.PALETTE[2],
            alpha=0.7,
            label="a student (open ends cut at ±2)",
        )
        right.plot([-0.5, top], [-0.5, top], color=style.INK, linewidth=0.8, label="the two agree")
        right.set_xlabel("ρ from his first-price bids")
        right.set_ylabel("ρ from his lotteries")
    style.legend_below(fig, *_handles(list(axes) if pairs else [axes]))
    done: Figure = style.finish(fig)
    return done
