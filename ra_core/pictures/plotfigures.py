"""The plots of `ra_core.pictures.plots`, drawn with matplotlib.

Each function draws one plot from the data `plots` prepared (what to draw is decided there, once,
for both ways of drawing: this module and the standard-library `plotcharts`), and returns a
matplotlib `Figure`, closed for pyplot and laid out once (`plotstyle.finish`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import matplotlib
from matplotlib.figure import Figure
from matplotlib.legend_handler import HandlerTuple

from ..engine.scoring import CATEGORIES
from .palette import FRAME, INK, PALETTE, TEXT, series_style
from .plotstyle import figure, finish, legend_below, styled
from .words import CATEGORY_NAMES

if TYPE_CHECKING:
    from .plots import Curves, Distribution, Fame, WinRates

__all__ = ["curves", "distribution", "fame", "win_rates"]


@styled
def fame(data: Fame) -> Figure:
    """Each player's fame over a game and, beside it, his points by scoring category."""
    if data.categories:
        fig, (ax, bars) = figure(8.8, 4.2, ncols=2, width_ratios=(1.15, 1))  # fits a 900 px output area
    else:
        fig, ax = figure(6.5, 4.2)
    if data.ends is not None:
        for p, ys in enumerate(data.fame):
            st = series_style(p)
            ax.step(
                data.x,
                ys,
                where="post",
                color=st["color"],
                linestyle=st["linestyle"],
                linewidth=1.8,
                label=data.labels[p],
            )
            ax.plot(
                data.ends,
                [ys[i] for i in data.ends],
                st["marker"],
                color=st["color"],
                markeredgecolor=INK,
                markeredgewidth=0.6,
            )
        for i in data.ends:
            ax.axvline(i, color=FRAME, linewidth=0.8, linestyle=":")
        top = ax.secondary_xaxis("top")  # each epoch's end named above the axes, clear of the lines and markers
        top.set_xticks(data.ends, labels=data.end_labels, fontsize=8, color=TEXT)
        top.tick_params(length=0, pad=2)
        ax.set_xlabel(data.xlabel)
        ax.set_xlim(0, data.xmax)
    else:
        for p, ys in enumerate(data.fame):
            st = series_style(p)
            ax.plot(data.x, ys, color=st["color"], linestyle=st["linestyle"], marker=st["marker"], label=data.labels[p])
        ax.set_xticks(data.x, data.x_labels)
        ax.set_xlabel(data.xlabel)
    ax.set_ylabel("fame (points)")
    ax.set_title("Fame total by player")
    handles: list[Any] = ax.get_legend_handles_labels()[0]
    if data.categories:
        patches = _category_bars(bars, data)
        handles = [(line, patch) for line, patch in zip(handles, patches, strict=True)]  # line style and hatch
    legend_below(fig, handles, data.labels, handler_map={tuple: HandlerTuple(ndivide=None, pad=0.8)})
    fig.suptitle(data.title, color=TEXT)
    return finish(fig)


def _category_bars(ax: Any, data: Fame) -> list[Any]:
    """Draw grouped bars: points per scoring category, one bar per player; return one bar per player, for the legend."""
    firsts = []
    for p, totals in enumerate(data.totals):
        st = series_style(p)
        drawn = ax.bar(
            data.bar_x[p], totals, data.bar_width, color=st["color"], hatch=st["hatch"], edgecolor=INK, linewidth=0.6
        )
        firsts.append(drawn[0])
    ax.axhline(0, color=FRAME, linewidth=0.8)
    ax.set_xticks(range(len(CATEGORIES)), CATEGORY_NAMES, rotation=30, ha="right")
    ax.grid(axis="x", visible=False)
    ax.set_ylabel("points")
    ax.set_title(data.bars_title)
    if data.bars_note:
        ax.text(0.5, 0.5, data.bars_note, transform=ax.transAxes, ha="center", va="center", color=TEXT)
    return firsts


@styled
def win_rates(data: WinRates) -> Figure:
    """Win rates as horizontal bars with their confidence intervals as error bars."""
    fig, ax = figure(6.5, 0.9 + 0.5 * len(data.rows))
    for y, (i, (_name, rate, low, high)) in zip(data.ys, enumerate(data.rows), strict=True):
        st = series_style(i)
        ax.barh(y, rate, 0.6, color=st["color"], hatch=st["hatch"], edgecolor=INK, linewidth=0.6)
        ax.errorbar(
            rate, y, xerr=[[rate - low], [high - rate]], fmt="none", color=INK, ecolor=INK, elinewidth=1.2, capsize=4
        )
        ax.annotate(  # right of the whisker, and of the baseline if it runs there: no line crosses the words
            data.words[i],
            (data.word_x[i], y),
            xytext=(6, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
            color=TEXT,
        )
    if data.baseline is not None:
        ax.axvline(data.baseline, color=FRAME, linestyle="--", linewidth=1.2, label=data.baseline_label)
        legend_below(fig)
    ax.set_yticks(data.ys, [r[0] for r in data.rows])
    ax.set_xlim(0, data.xmax)
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax.grid(axis="y", visible=False)
    ax.set_xlabel(data.xlabel)
    ax.set_title(data.title)
    return finish(fig)


@styled
def distribution(data: Distribution) -> Figure:
    """A probability law as bars, optionally with a simulated estimate over it."""
    fig, ax = figure(7.0, 4.0)
    ax.bar(data.x, data.probs, data.width, color=PALETTE[0], edgecolor=INK, linewidth=0.4, label=data.exact_label)
    sim = data.simulated
    if sim is not None and sim.errors is None:
        ax.plot(
            sim.x,
            sim.freqs,
            "D",
            color=PALETTE[1],
            markeredgecolor=INK,
            markeredgewidth=0.5,
            markersize=5,
            label=sim.label,
        )
    elif sim is not None:
        ax.errorbar(
            sim.x,
            sim.freqs,
            yerr=sim.errors,
            fmt="D",
            color=PALETTE[1],
            markeredgecolor=INK,
            markeredgewidth=0.5,
            markersize=5,
            ecolor=PALETTE[1],
            elinewidth=1,
            capsize=2,
            label=sim.label,
        )
    if data.mean is not None:
        ax.axvline(data.mean, color=INK, linestyle="--", linewidth=1.2, label=data.mean_label)
    if data.xlim is not None:
        ax.set_xlim(*data.xlim)
    if data.tick_labels is not None:
        many = len(data.tick_labels) > 6
        ax.set_xticks(data.x, data.tick_labels, rotation=45 if many else 0, ha="right" if many else "center")
        ax.grid(axis="x", visible=False)
    ax.set_ylim(0, None)
    ax.set_xlabel(data.xlabel)
    ax.set_ylabel(data.ylabel)
    ax.set_title(data.title)
    legend_below(fig)
    return finish(fig)


@styled
def curves(data: Curves) -> Figure:
    """Curves and estimated points (with their intervals) against one x axis, with reference lines."""
    fig, ax = figure(6.5, data.height)
    handles: list[Any] = []  # the legend's entries in the order drawn (matplotlib would put error bars last)
    for i, s in enumerate(data.series):
        st = series_style(i)
        if s.lows is None and s.line:
            handles += ax.plot(s.x, s.y, color=st["color"], linestyle=st["linestyle"], linewidth=1.8, label=s.label)
        elif s.lows is None:
            handles += ax.plot(
                s.x, s.y, st["marker"], color=st["color"], markeredgecolor=INK, markeredgewidth=0.6, label=s.label
            )
        else:
            below = [y - lo for y, lo in zip(s.y, s.lows, strict=True)]
            above = [hi - y for y, hi in zip(s.y, s.highs or (), strict=True)]
            bars = ax.errorbar(
                s.x,
                s.y,
                yerr=[below, above],
                fmt=st["marker"],
                color=st["color"],
                markeredgecolor=INK,
                markeredgewidth=0.6,
                capsize=3,
                label=s.label,
            )
            handles.append(bars)
    for x, label in data.vlines:
        line = ax.axvline(x, color=FRAME, linestyle="--", linewidth=1.2, label=label)
        handles += [line] if label else []
    for y, label in data.hlines:
        line = ax.axhline(y, color=FRAME, linewidth=0.8, label=label)
        handles += [line] if label else []
    if data.xticks is not None:
        ax.set_xticks(data.xticks)
    ax.set_xlabel(data.xlabel)
    ax.set_ylabel(data.ylabel)
    ax.set_title(data.title)
    legend_below(fig, handles, [h.get_label() for h in handles])
    return finish(fig)
