"""The plots of `ra_core.pictures.plots`, drawn with the standard library (`charts`), for where matplotlib is not.

Each function draws one plot from the data `plots` prepared, the same data `plotfigures` draws
with matplotlib, in the same sizes, colours, markers, hatches and words, and returns a `Chart`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.scoring import CATEGORIES
from .charts import Chart, Entry
from .palette import FRAME, INK, PALETTE, series_style
from .words import CATEGORY_NAMES

if TYPE_CHECKING:
    from .plots import Curves, Distribution, Fame, WinRates

__all__ = ["curves", "distribution", "fame", "win_rates"]


def fame(data: Fame) -> Chart:
    """Each player's fame over a game and, beside it, his points by scoring category."""
    if data.categories:
        chart = Chart(8.8, 4.2, title=data.title, ncols=2, width_ratios=(1.15, 1))
    else:
        chart = Chart(6.5, 4.2, title=data.title)
    ax = chart.panels[0]
    for p, ys in enumerate(data.fame):
        st = series_style(p)
        ax.line(data.x, ys, colour=st["color"], style=st["linestyle"], width=1.8, step=data.ends is not None)
        marked = data.x if data.ends is None else data.ends
        ax.markers(marked, [ys[data.x.index(i)] for i in marked], colour=st["color"], shape=st["marker"])
    if data.ends is not None:
        for i in data.ends:
            ax.vline(i, colour=FRAME, style=":", width=0.8)
        ax.ticks("top", data.ends, data.end_labels)
        ax.limits("x", 0, data.xmax)
    else:
        ax.ticks("x", data.x, data.x_labels)
    ax.xlabel, ax.ylabel, ax.title = data.xlabel, "fame (points)", "Fame total by player"
    chart.legend = []
    for p, label in enumerate(data.labels):
        st = series_style(p)
        marker = st["marker"] if data.ends is None and not data.categories else None
        hatch = st["hatch"] if data.categories else None
        chart.legend.append(Entry(label, st["color"], line=st["linestyle"], marker=marker, hatch=hatch))
    if data.categories:
        bars = chart.panels[1]
        for p, totals in enumerate(data.totals):
            st = series_style(p)
            bars.bars(data.bar_x[p], totals, data.bar_width, colour=st["color"], hatch=st["hatch"])
        bars.hline(0, colour=FRAME, width=0.8)
        bars.ticks("x", range(len(CATEGORIES)), CATEGORY_NAMES, rotate=30)
        bars.grid = "y"
        bars.ylabel, bars.title = "points", data.bars_title
        if data.bars_note:
            bars.note(data.bars_note)
    return chart


def win_rates(data: WinRates) -> Chart:
    """Win rates as lying bars with their confidence intervals as error bars."""
    chart = Chart(6.5, 0.9 + 0.5 * len(data.rows))
    ax = chart.panels[0]
    for y, (i, (_name, rate, low, high)) in zip(data.ys, enumerate(data.rows), strict=True):
        st = series_style(i)
        ax.bars([y], [rate], 0.6, colour=st["color"], hatch=st["hatch"], horizontal=True)
        ax.errorbars([y], [low], [high], colour=INK, horizontal=True, cap=2)
        ax.text(data.word_x[i], y, data.words[i], dx=6)
    if data.baseline is not None:
        ax.vline(data.baseline, colour=FRAME, style="--", width=1.2, label=data.baseline_label)
    ax.ticks("y", data.ys, [r[0] for r in data.rows])
    ax.limits("x", 0, data.xmax)
    ax.limits("y", min(data.ys) - 0.6, max(data.ys) + 0.6)
    ax.percent_x = True
    ax.grid = "x"
    ax.xlabel, ax.title = data.xlabel, data.title
    return chart


def distribution(data: Distribution) -> Chart:
    """A probability law as bars, optionally with a simulated estimate over it."""
    chart = Chart(7.0, 4.0)
    ax = chart.panels[0]
    ax.bars(data.x, data.probs, data.width, colour=PALETTE[0], label=data.exact_label)
    sim = data.simulated
    if sim is not None:
        if sim.errors is not None:
            lows = [f - e for f, e in zip(sim.freqs, sim.errors, strict=True)]
            highs = [f + e for f, e in zip(sim.freqs, sim.errors, strict=True)]
            ax.errorbars(sim.x, lows, highs, colour=PALETTE[1], cap=1)
        ax.markers(sim.x, sim.freqs, colour=PALETTE[1], shape="D", size=5, label=sim.label)
    if data.mean is not None:
        ax.vline(data.mean, colour=INK, style="--", width=1.2, label=data.mean_label)
    if data.xlim is not None:
        ax.limits("x", *data.xlim)
    if data.tick_labels is not None:
        ax.ticks("x", data.x, data.tick_labels, rotate=45 if len(data.tick_labels) > 6 else 0)
        ax.grid = "y"
    ax.limits("y", 0, None)
    ax.xlabel, ax.ylabel, ax.title = data.xlabel, data.ylabel, data.title
    return chart


def curves(data: Curves) -> Chart:
    """Curves and estimated points (with their intervals) against one x axis, with reference lines."""
    chart = Chart(6.5, data.height)
    ax = chart.panels[0]
    for i, s in enumerate(data.series):
        st = series_style(i)
        if s.line:
            ax.line(s.x, s.y, colour=st["color"], style=st["linestyle"], width=1.8, label=s.label)
            continue
        if s.lows is not None and s.highs is not None:
            ax.errorbars(s.x, s.lows, s.highs, colour=st["color"], cap=3)
        ax.markers(s.x, s.y, colour=st["color"], shape=st["marker"], label=s.label)
    for x, label in data.vlines:
        ax.vline(x, colour=FRAME, style="--", width=1.2, label=label)
    for y, label in data.hlines:
        ax.hline(y, colour=FRAME, width=0.8, label=label)
    if data.xticks is not None:
        ax.ticks("x", data.xticks)
    ax.xlabel, ax.ylabel, ax.title = data.xlabel, data.ylabel, data.title
    return chart
