"""The class's data as pictures: bids against the equilibrium, revenue by format, the winner's curse.

Each function takes the results DataFrame (`ControlRoom.results` or the saved CSV) and returns a
matplotlib `Figure` in the project's plot style (`ra_core`'s plotstyle: colour-blind-safe,
readable on light and dark themes, byte-stable SVG).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ..auctions.experiments import KINDS
from ..auctions.laws import law_from_dict
from ..auctions.theory import common_value_break_even, equilibrium_bid
from ..game.bridge import plot_style
from .analysis import counted, revenue

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = ["bids_against_values", "revenue_by_format", "svg_setup", "winners_curse_plot"]

_PRIVATE = ("first", "second", "allpay")


def svg_setup() -> None:
    """Make this notebook's figures byte-stable SVG (the project's plot style), so that checks compare them."""
    plot_style().svg_setup()


def bids_against_values(df: pd.DataFrame, risk_averse: float | None = 0.5, practice: bool = False) -> Figure:
    """Return one panel per private-value format: each bid against its value, with the risk-neutral equilibrium.

    Args:
        df: the results.
        risk_averse: also draw the first-price equilibrium of bidders with utility money**r for this r
            (None: do not).
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
        if kind == "first" and risk_averse is not None:
            ax.plot(grid, [equilibrium_bid(kind, v, n, law, r=risk_averse) for v in grid], color=style.PALETTE[2],
                    linestyle="--", label=f"risk-averse, r = {risk_averse:g}")  # fmt: skip
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


def revenue_by_format(df: pd.DataFrame, practice: bool = False) -> Figure:
    """Return the mean revenue per group of each private-value round, beside the theory's."""
    style = plot_style()
    table = revenue(df, practice)
    if table.empty:
        raise ValueError("no private-value round in these results")
    fig, ax = style.figure(6.4, 3.2)
    labels = [f"{r}: {k}" for r, k in zip(table["round"], table["kind"], strict=True)]
    x = list(range(len(table)))
    ax.bar(x, table["revenue"], color=style.PALETTE[0], label="the class: mean revenue per group")
    ax.scatter(x, table["theory"], marker="D", color=style.PALETTE[1], zorder=3,
               label="theory: the mean second-highest value")  # fmt: skip
    ax.set_xticks(x, labels, rotation=30, ha="right")
    ax.set_ylabel("revenue")
    ax.set_xlabel("round: format")
    style.legend_below(fig)
    done: Figure = style.finish(fig)
    return done


def winners_curse_plot(df: pd.DataFrame, practice: bool = False) -> Figure:
    """Return the winners of common-value rounds: what each earned against his signal, with the break-even line."""
    style = plot_style()
    data = counted(df, practice)
    won = data[(data["kind"] == "common") & data["won"].astype(bool)]
    if won.empty:
        raise ValueError("no common-value round with a winner in these results")
    fig, (left, right) = style.figure(8.0, 3.4, ncols=2)
    for i, (rnd, part) in enumerate(won.groupby("round", sort=True)):
        s = style.series_style(i)
        left.scatter(part["value"], part["earnings"], marker=s["marker"], color=s["color"], s=18, label=f"round {rnd}")
        n, noise = int(part["n"].iloc[0]), float(part["noise"].iloc[0])
        over = [b - common_value_break_even(x, n, noise) for b, x in zip(part["bid"], part["value"], strict=True)]
        right.scatter([rnd] * len(over), over, marker=s["marker"], color=s["color"], s=18)
    left.axhline(0, color=style.INK, linewidth=1)
    left.set_xlabel("the winner's signal")
    left.set_ylabel("the winner's earnings")
    left.set_title("Winners' earnings")
    right.axhline(0, color=style.INK, linewidth=1)
    right.set_xticks(sorted(won["round"].unique()))
    right.set_xlabel("round")
    right.set_ylabel("bid - break-even bid")
    right.set_title("Winners' bids above break-even")
    style.legend_below(fig)
    done: Figure = style.finish(fig)
    return done
