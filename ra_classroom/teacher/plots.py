"""The class's data as pictures: bids and the equilibria, a slope per student, revenue by format, the winner's curse.

Each function takes the results DataFrame (`ControlRoom.results` or the saved CSV) and returns a
matplotlib `Figure` in the project's plot style (`ra_core`'s plotstyle: colour-blind-safe,
readable on light and dark themes, byte-stable SVG).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..auctions.experiments import KINDS
from ..auctions.laws import Uniform, law_from_dict
from ..auctions.theory import common_value_bid, common_value_worth, equilibrium_bid, shading
from ..game.bridge import plot_style
from .analysis import counted, learning, revenue

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = ["bids_against_values", "revenue_by_format", "student_slopes_plot", "svg_setup", "winners_curse_plot"]

_PRIVATE = ("first", "second", "allpay")


def svg_setup() -> None:
    """Make this notebook's figures byte-stable SVG (the project's plot style), so that checks compare them."""
    plot_style().svg_setup()


def bids_against_values(df: pd.DataFrame, rho: float | None = 0.5, practice: bool = False) -> Figure:
    """Return one panel per private-value format: each bid against its value, with the risk-neutral equilibrium.

    Args:
        df: the results.
        rho: also draw the first-price equilibrium of bidders with utility money**rho (CRRA) for this
            rho, the class's own estimate for instance (None: do not).
        practice: include practice rounds.
    """
    style = plot_style()
    data = counted(df, practice)
    kinds = [k for k in _PRIVATE if (data["kind"] == k).any()]
    if not kinds:
        raise ValueError("no private-value round in these results")
    fig, axes = style.figure(3.6 * len(kinds), 3.4, ncols=len(kinds))
    axes = [axes] if len(kinds) == 1 else list(axes)
    for ax, kind in zip(axes, kinds, strict=True):
        part = data[(data["kind"] == kind) & data["bid"].notna()]
        n = int(part["n"].mode().iloc[0])
        law = law_from_dict(json.loads(part["law_json"].iloc[0]))
        ax.scatter(part["value"], part["bid"], s=14, alpha=0.7, color=style.PALETTE[0], label="a bid")
        grid = [law.low + (law.top - law.low) * i / 100 for i in range(101)]
        ax.plot(grid, [equilibrium_bid(kind, v, n, law) for v in grid], color=style.PALETTE[1],
                label=f"equilibrium, n = {n}")  # fmt: skip
        if kind == "first" and rho is not None:
            ax.plot(grid, [equilibrium_bid(kind, v, n, law, rho=rho) for v in grid], color=style.PALETTE[2],
                    linestyle="--", label=f"CRRA equilibrium, ρ = {rho:.2g}")  # fmt: skip
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


def student_slopes_plot(table: pd.DataFrame, programmed: pd.Series | None = None) -> Figure:
    """Return each student's first-price slope with its 95 % interval, sorted, on a scale of slope and of rho.

    Args:
        table: `analysis.student_slopes` of the class.
        programmed: for simulated students, each one's programmed rho by name, drawn as a cross.
    """
    style = plot_style()
    rows = table.sort_values("slope").reset_index(drop=True)
    n_law = rows["neutral"].iloc[0]
    n = round(n_law / (1 - n_law)) + 1  # the risk-neutral slope (n-1)/n gives n back
    law = Uniform(0, 1)
    fig, ax = style.figure(7.2, 3.6)
    x = list(range(len(rows)))
    low = (rows["slope"] - rows["slope_low"]).fillna(0)
    high = (rows["slope_high"] - rows["slope"]).fillna(0)
    ax.errorbar(x, rows["slope"], yerr=[low, high], fmt="o", color=style.PALETTE[0], capsize=2, markersize=4,
                label="a student (bars: 95 %)")  # fmt: skip
    ax.axhline(n_law, color=style.PALETTE[1], linewidth=1.2, label=f"risk-neutral, {n_law:.3g}")
    if programmed is not None:
        truth = [shading(n, law, float(programmed[name])) for name in rows["name"]]
        ax.scatter(x, truth, marker="x", color=style.PALETTE[2], zorder=3, s=22, label="programmed")
    ax.set_xticks(x, rows["name"], rotation=90, fontsize=7)
    ax.set_ylim(max(0.0, min(rows["slope_low"].min(), n_law) - 0.05), min(1.3, rows["slope_high"].max() + 0.05))
    ax.set_ylabel("slope: bid / value")
    ax.set_title("First price: one slope per student")
    scale = ax.secondary_yaxis("right", functions=(lambda s: _rho_of(s, n), lambda r: _slope_of(r, n)))
    scale.set_ylabel("CRRA ρ (the same scale)")
    style.legend_below(fig)
    done: Figure = style.finish(fig)
    return done


def _rho_of(slope: Any, n: int) -> Any:
    """Return the CRRA rho of a slope, (n-1)(1/slope - 1), for matplotlib's second axis (slopes of 1 or more: 0)."""
    s = slope.clip(1e-6, 1.0) if hasattr(slope, "clip") else min(max(slope, 1e-6), 1.0)
    return (n - 1) * (1 / s - 1)


def _slope_of(rho: Any, n: int) -> Any:
    """Return the slope of a CRRA rho, (n-1)/(n-1+rho): `_rho_of` inverted."""
    r = rho.clip(0.0, None) if hasattr(rho, "clip") else max(rho, 0.0)
    return (n - 1) / (n - 1 + r)


def revenue_by_format(df: pd.DataFrame, practice: bool = False, rho: float | None = None) -> Figure:
    """Return the mean revenue per group of each private-value format with its 95 % interval, beside two benchmarks.

    The benchmarks of `analysis.revenue`: risk-neutral (the mean second-highest value, the same in
    every format) and risk-averse bidders with the class's rho (first price only differs).
    """
    style = plot_style()
    table = revenue(df, practice, rho=rho)
    if table.empty:
        raise ValueError("no private-value round in these results")
    fig, ax = style.figure(6.4, 3.2)
    x = list(range(len(table)))
    ax.bar(x, table["revenue"], color=style.PALETTE[0], label="the class (bars: 95 %)",
           yerr=[table["revenue"] - table["low"], table["high"] - table["revenue"]], capsize=4,
           error_kw={"ecolor": style.INK})  # fmt: skip
    ax.scatter(x, table["risk_neutral"], marker="D", color=style.PALETTE[1], zorder=3,
               label="risk-neutral")  # fmt: skip
    averse = table["risk_averse"]
    fitted = table["rho"].dropna()
    if averse.notna().any() and len(fitted):
        ax.scatter(x, averse, marker="v", color=style.PALETTE[2], zorder=3,
                   label=f"CRRA, ρ = {fitted.iloc[0]:.2f}")  # fmt: skip
    ax.set_xticks(x, [f"{KINDS[k].replace(' sealed bid', '')} ({r} rounds)" for k, r in
                      zip(table["kind"], table["rounds"], strict=True)])  # fmt: skip
    ax.set_ylabel("revenue per group")
    style.legend_below(fig)
    done: Figure = style.finish(fig)
    return done


def winners_curse_plot(df: pd.DataFrame, practice: bool = False) -> Figure:
    """Return the common-value rounds (first price): bids against signals with the rules, and shading by round.

    Left: every bid against its signal (winners filled), with bidding the signal, the break-even
    bid (the worth expected when one's signal is the highest: `common_value_worth`, to the ends of
    the range) and the risk-neutral equilibrium (`common_value_bid`, drawn over its valid range,
    signals from low - noise to high - noise). Right: each round's mean shading (signal - bid) with
    its 95 % interval, beside the shading a winner needs to break even.
    """
    style = plot_style()
    data = counted(df, practice)
    bids = data[(data["kind"] == "common") & data["bid"].notna()]
    if bids.empty:
        raise ValueError("no common-value round with a bid in these results")
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
        left.plot(valid, [common_value_bid(x, n, noise, law.low) for x in valid], color=style.PALETTE[2],
                  linestyle="--", label=f"equilibrium (to {law.top - noise:g})")  # fmt: skip
    left.set_xlabel("signal")
    left.set_ylabel("bid")
    left.set_title("Bids on signals")
    table = learning(df, practice)
    per_round = table[table["round"] != "change"]
    x = list(range(len(per_round)))
    right.errorbar(x, per_round["shading"], yerr=[per_round["shading"] - per_round["low"],
                   per_round["high"] - per_round["shading"]], fmt="o", color=style.PALETTE[0], capsize=3,
                   label="mean (bars: 95 %)")  # fmt: skip
    right.plot(x, per_round["break_even"], "D", color=style.PALETTE[1], label="break-even")
    right.set_xticks(x, [f"round {r}" for r in per_round["round"]])
    right.set_ylim(bottom=0)
    right.set_ylabel("signal - bid")
    right.set_title("Shading, round by round")
    left.legend(fontsize=7, loc="upper left")
    right.legend(fontsize=7, loc="upper left")
    done: Figure = style.finish(fig)
    return done
