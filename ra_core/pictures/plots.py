"""Plots for the notebooks: fame over a game, win rates with intervals, probability laws.

This is the one module of `ra_core` (with the widgets) that needs matplotlib; ``import ra_core``
never imports it. Every function returns a matplotlib `Figure` and shows nothing itself: in a
notebook the figure is displayed when it is the value of a cell; elsewhere save it with
``fig.savefig(...)`` or `to_svg`. The figures are closed for pyplot before they are returned,
so a notebook shows each one once and pyplot does not keep them alive. Their layout is
computed once and then fixed, so that every rendering is the same; after changing a figure,
``fig.set_layout_engine("constrained")`` lays it out again.

The style (transparent, mid-grey ink for light and dark themes, Okabe-Ito with markers and
hatches, byte-stable SVG for nbval) is chosen once for all figures in `ra_core.pictures.plotstyle`.

>>> fig = plot_distribution({0: 0.5, 1: 0.25, 2: 0.25}, title="A small law", xlabel="tiles")
>>> svg = to_svg(fig)
>>> svg == to_svg(fig), "<dc:date>" in svg
(True, False)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from numbers import Real
from typing import Any

import matplotlib
from matplotlib.figure import Figure
from matplotlib.legend_handler import HandlerTuple

from ..engine.scoring import CATEGORIES
from ..engine.state import State
from ..engine.tiles import Tile
from .plotstyle import (
    FRAME,
    HATCHES,
    INK,
    LINESTYLES,
    MARKERS,
    PALETTE,
    SVG_HASHSALT,
    TEXT,
    figure,
    finish,
    legend_below,
    series_style,
    styled,
    svg_setup,
    to_svg,
)
from .words import CATEGORY_NAMES, player_name

__all__ = [
    "FRAME",
    "HATCHES",
    "INK",
    "LINESTYLES",
    "MARKERS",
    "PALETTE",
    "SVG_HASHSALT",
    "TEXT",
    "plot_distribution",
    "plot_fame",
    "plot_win_rates",
    "svg_setup",
    "to_svg",
]

# -- fame over a game -------------------------------------------------------------------------


def _states_and_names(game: Any, names: Sequence[str] | None) -> tuple[list[State], list[str]]:
    if isinstance(game, State):
        states = [game]
    elif callable(getattr(game, "states", None)):
        states = list(game.states())
        if names is None and getattr(game, "names", None):
            names = list(game.names)
    else:
        states = list(game)
    if not states:
        raise ValueError("plot_fame needs at least one state")
    n = states[-1].num_players
    if names is not None and len(names) != n:
        raise ValueError(f"{len(names)} names for {n} players")
    labels = [player_name(i, (), names or ()) for i in range(n)]  # the name the board and the log give the seat
    return states, labels


@styled
def plot_fame(
    game: Any,
    *,
    names: Sequence[str] | None = None,
    title: str | None = None,
    categories: bool = True,
) -> Figure:
    """Plot each player's fame over a game and, beside it, his points by scoring category.

    Args:
        game: a `ra_core.play.GameRecord` (its states are replayed), a sequence of states in
            game order, or one state. With several states the fame is drawn against the
            number of actions played (chance draws included), with the end of each epoch
            marked; with one state, against the epochs scored so far.
        names: a name per seat (default: the record's names, if any).
        title: the figure's title (default: "Fame over the game").
        categories: add the panel of points by category (R63-R71), summed over the epochs
            scored so far, one bar per player (from `State.scores`).
    """
    states, labels = _states_and_names(game, names)
    final = states[-1]
    n = final.num_players
    scores = final.scores
    if categories:
        fig, (ax, bars) = figure(8.8, 4.2, ncols=2, width_ratios=(1.15, 1))  # fits a 900 px output area
    else:
        fig, ax = figure(6.5, 4.2)
    if len(states) > 1:
        x = list(range(len(states)))
        ends = [i for i in range(1, len(states)) if len(states[i].scores) > len(states[i - 1].scores)]
        for p in range(n):
            st = series_style(p)
            ys = [s.players[p].fame for s in states]
            ax.step(x, ys, where="post", color=st["color"], linestyle=st["linestyle"], linewidth=1.8, label=labels[p])
            ax.plot(
                ends, [ys[i] for i in ends], st["marker"], color=st["color"], markeredgecolor=INK, markeredgewidth=0.6
            )
        for i in ends:
            ax.axvline(i, color=FRAME, linewidth=0.8, linestyle=":")
        top = ax.secondary_xaxis("top")  # each epoch's end named above the axes, clear of the lines and markers
        top.set_xticks(ends, labels=[f"epoch {k}\nscored" for k in range(1, len(ends) + 1)], fontsize=8, color=TEXT)
        top.tick_params(length=0, pad=2)
        ax.set_xlabel("actions played (chance draws included)")
        ax.set_xlim(0, (len(states) - 1) * 1.03)
    else:
        x = list(range(len(scores) + 1))
        for p in range(n):
            st = series_style(p)
            start = scores[0].players[p].fame_before if scores else final.players[p].fame
            ys = [start] + [sc.players[p].fame_after for sc in scores]
            ax.plot(x, ys, color=st["color"], linestyle=st["linestyle"], marker=st["marker"], label=labels[p])
        ax.set_xticks(x, ["start"] + [f"after epoch {sc.epoch}" for sc in scores])
        ax.set_xlabel("epoch")
    ax.set_ylabel("fame (points)")
    ax.set_title("Fame total by player")
    handles: list[Any] = ax.get_legend_handles_labels()[0]
    if categories:
        patches = _category_bars(bars, scores, labels)
        handles = [(line, patch) for line, patch in zip(handles, patches, strict=True)]  # line style and hatch
    legend_below(fig, handles, labels, handler_map={tuple: HandlerTuple(ndivide=None, pad=0.8)})
    fig.suptitle(title or "Fame over the game", color=TEXT)
    return finish(fig)


def _category_bars(ax: Any, scores: Sequence[Any], labels: Sequence[str]) -> list[Any]:
    """Draw grouped bars: points per scoring category, one bar per player, summed over `scores`.

    Returns one bar per player, for the legend.
    """
    n = len(labels)
    width = 0.8 / n
    firsts = []
    for p in range(n):
        st = series_style(p)
        totals = [sum(getattr(sc.players[p], c) for sc in scores) for c in CATEGORIES]
        xs = [c + (p - (n - 1) / 2) * width for c in range(len(CATEGORIES))]
        drawn = ax.bar(xs, totals, width, color=st["color"], hatch=st["hatch"], edgecolor=INK, linewidth=0.6)
        firsts.append(drawn[0])
    ax.axhline(0, color=FRAME, linewidth=0.8)
    ax.set_xticks(range(len(CATEGORIES)), CATEGORY_NAMES, rotation=30, ha="right")
    ax.grid(axis="x", visible=False)
    ax.set_ylabel("points")
    if scores:
        epochs = ", ".join(str(sc.epoch) for sc in scores)
        ax.set_title(f"Points by category (epochs {epochs})")
    else:
        ax.set_title("Points by scoring category")
        ax.text(0.5, 0.5, "no epoch scored yet", transform=ax.transAxes, ha="center", va="center", color=TEXT)
    return firsts


# -- win rates --------------------------------------------------------------------------------

_NAME = ("name", "bot", "player", "label")
_RATE = ("rate", "win_rate", "mean")
_LOW = ("low", "win_low", "ci_low", "lower", "lo")
_HIGH = ("high", "win_high", "ci_high", "upper", "hi")


def _field(row: Any, names: Sequence[str], what: str) -> Any:
    for name in names:
        if hasattr(row, name):
            return getattr(row, name)
    raise TypeError(f"a win-rate row needs a {what} attribute (one of {', '.join(names)}); got {row!r}")


def _win_rate_rows(results: Any) -> list[tuple[str, float, float, float]]:
    """Return (name, rate, low, high) rows from `_row_objects` of what `plot_win_rates` accepts."""
    if isinstance(results, Mapping):
        items: Iterable[Any] = [(name, *_triple(value)) for name, value in results.items()]
    else:
        items = results
    rows = []
    for row in items:
        if isinstance(row, Sequence) and not isinstance(row, str) and len(row) == 4:
            name, rate, low, high = row
        else:
            name = _field(row, _NAME, "name")
            rate, low, high = (
                _field(row, names, what) for names, what in ((_RATE, "rate"), (_LOW, "low"), (_HIGH, "high"))
            )
        rate, low, high = float(rate), float(low), float(high)
        if not low <= rate <= high:
            raise ValueError(f"{name}: the interval [{low}, {high}] must contain the rate {rate}")
        rows.append((str(name), rate, low, high))
    return rows


def _triple(value: Any) -> tuple[Any, Any, Any]:
    if isinstance(value, Sequence) and len(value) == 3:
        return value[0], value[1], value[2]
    return _field(value, _RATE, "rate"), _field(value, _LOW, "low"), _field(value, _HIGH, "high")


@styled
def plot_win_rates(
    results: Any,
    *,
    title: str | None = None,
    baseline: float | None = None,
    xlabel: str = "win rate (bars: estimate, whiskers: confidence interval)",
) -> Figure:
    """Plot win rates as horizontal bars with their confidence intervals as error bars.

    Args:
        results: ``{name: (rate, low, high)}`` with the interval's bounds (not half-widths),
            all as fractions in [0, 1]; or rows ``(name, rate, low, high)``; or objects with a
            name and ``rate``/``low``/``high`` attributes (``win_rate``/``win_low``/``win_high``
            also work); or an object whose ``stats()`` or ``rows`` gives such rows, such as a
            tournament result.
        title: the figure's title (default: "Win rates").
        baseline: draw a reference line at this rate, e.g. ``1/3`` for a bot no better than
            its two opponents; default: the rows' common ``baseline`` attribute, if any.
        xlabel: the x axis label.
    """
    results = _row_objects(results)
    rows = _win_rate_rows(results)
    if not rows:
        raise ValueError("plot_win_rates needs at least one row")
    if baseline is None:  # a tournament's rows know the baseline of a bot no better than the rest
        objects = results.values() if isinstance(results, Mapping) else results
        found = {getattr(r, "baseline", None) for r in objects}
        if len(found) == 1 and None not in found:
            baseline = float(found.pop())  # type: ignore[arg-type]
    fig, ax = figure(6.5, 0.9 + 0.5 * len(rows))
    ys = list(range(len(rows)))[::-1]  # the first row on top
    for y, (i, (_name, rate, low, high)) in zip(ys, enumerate(rows), strict=True):
        st = series_style(i)
        ax.barh(y, rate, 0.6, color=st["color"], hatch=st["hatch"], edgecolor=INK, linewidth=0.6)
        ax.errorbar(
            rate, y, xerr=[[rate - low], [high - rate]], fmt="none", color=INK, ecolor=INK, elinewidth=1.2, capsize=4
        )
        ax.annotate(  # right of the whisker, and of the baseline if it runs there: no line crosses the words
            f"{rate:.1%}  [{low:.1%}, {high:.1%}]",
            (max(high, baseline if baseline is not None else high), y),
            xytext=(6, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
            color=TEXT,
        )
    if baseline is not None:
        ax.axvline(baseline, color=FRAME, linestyle="--", linewidth=1.2, label=f"baseline {baseline:.1%}")
        legend_below(fig)
    ax.set_yticks(ys, [r[0] for r in rows])
    ax.set_xlim(0, min(1.0, max(r[3] for r in rows) + 0.25))
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax.grid(axis="y", visible=False)
    ax.set_xlabel(xlabel)
    ax.set_title(title or "Win rates")
    return finish(fig)


def _row_objects(results: Any) -> Mapping[Any, Any] | list[Any]:
    """Return `results` as ``{name: value}`` or as a list of rows (a tournament's ``stats()`` or ``rows``)."""
    if isinstance(results, Mapping):
        return results
    for method in ("stats", "rows"):
        found = getattr(results, method, None)
        if found is not None:
            return list(found() if callable(found) else found)
    return list(results)


# -- a probability law --------------------------------------------------------------------------


def _key_label(key: Any) -> str:
    return key.label if isinstance(key, Tile) else str(key)


@styled
def plot_distribution(
    law: Mapping[Any, Any],
    *,
    simulated: Mapping[Any, Any] | Iterable[Any] | None = None,
    title: str | None = None,
    xlabel: str = "value",
    ylabel: str = "probability",
    exact_label: str = "exact",
    show_mean: bool = True,
    tail: float = 1e-4,
) -> Figure:
    """Plot a probability law as bars, optionally with a simulated estimate over it.

    Args:
        law: ``{value: probability}``, e.g. from `ra_core.analysis.chance` (`Fraction`s are fine).
            Numeric values are placed on a number line (gaps show); other values (a `Tile`
            shows its label) are categories in the law's order.
        simulated: a Monte Carlo estimate to compare: the samples themselves, or
            ``{value: count}``. Drawn as diamonds with 95 % error bars (1.96 standard errors
            of a frequency). A ``{value: frequency}`` mapping whose values sum to 1 is drawn
            without error bars.
        title: the figure's title (default: "Probability distribution").
        xlabel: what the values are, e.g. "non-Ra tiles drawn before the next Ra tile".
        ylabel: the y axis label.
        exact_label: the legend entry of the bars.
        show_mean: mark the exact mean with a dashed line (numeric values only).
        tail: for numeric values, the x axis leaves out the values beyond which (on either
            side) less than this probability remains, so that a long thin tail does not
            squeeze the picture; 0 shows every value.
    """
    if not law:
        raise ValueError("plot_distribution needs a non-empty law")
    keys = list(law)
    numeric = all(isinstance(k, Real) and not isinstance(k, Tile | bool) for k in keys)
    if numeric:
        keys.sort()
        pos = {k: float(k) for k in keys}
    else:
        pos = {k: float(i) for i, k in enumerate(keys)}
    probs = [float(law[k]) for k in keys]
    fig, ax = figure(7.0, 4.0)
    xs = sorted(pos.values())
    width = 0.8 * min((b - a for a, b in zip(xs, xs[1:], strict=False)), default=1.0)
    ax.bar([pos[k] for k in keys], probs, width, color=PALETTE[0], edgecolor=INK, linewidth=0.4, label=exact_label)
    if simulated is not None:
        _overlay(ax, simulated, pos, numeric)
    if show_mean and numeric:
        mean = sum(pos[k] * p for k, p in zip(keys, probs, strict=True))
        ax.axvline(mean, color=INK, linestyle="--", linewidth=1.2, label=f"mean {mean:.2f}")
    if numeric and tail > 0:
        ax.set_xlim(*_tail_limits([pos[k] for k in keys], probs, tail, width))
    if not numeric:
        ax.set_xticks(
            list(pos.values()),
            [_key_label(k) for k in keys],
            rotation=45 if len(keys) > 6 else 0,
            ha="right" if len(keys) > 6 else "center",
        )
        ax.grid(axis="x", visible=False)
    ax.set_ylim(0, None)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title or "Probability distribution")
    legend_below(fig)
    return finish(fig)


def _tail_limits(xs: Sequence[float], probs: Sequence[float], tail: float, width: float) -> tuple[float, float]:
    """Return x limits leaving out the values beyond which less than `tail` probability remains (xs ascending)."""
    lo, hi, below, above = 0, len(xs) - 1, 0.0, 0.0
    while lo < hi and below + probs[lo] < tail:
        below += probs[lo]
        lo += 1
    while hi > lo and above + probs[hi] < tail:
        above += probs[hi]
        hi -= 1
    return xs[lo] - width, xs[hi] + width


def _overlay(ax: Any, simulated: Mapping[Any, Any] | Iterable[Any], pos: Mapping[Any, float], numeric: bool) -> None:
    """Draw a simulated estimate as diamonds, with 95 % error bars when the sample size is known."""
    if isinstance(simulated, Mapping):
        counts = {k: float(v) for k, v in simulated.items()}
    else:
        counts = {k: float(v) for k, v in Counter(simulated).items()}
    total = sum(counts.values())
    if total <= 0:
        raise ValueError("the simulated estimate is empty")
    frequencies_only = isinstance(simulated, Mapping) and math.isclose(total, 1.0)
    outside = [k for k in counts if k not in pos]
    if outside and not numeric:
        raise ValueError(f"simulated values {outside} are not in the law")
    keys = sorted(counts, key=lambda k: pos[k] if k in pos else float(k))
    xs = [pos[k] if k in pos else float(k) for k in keys]
    freqs = [counts[k] / total for k in keys]
    if frequencies_only:
        ax.plot(
            xs, freqs, "D", color=PALETTE[1], markeredgecolor=INK, markeredgewidth=0.5, markersize=5, label="simulated"
        )
        return
    errors = [1.96 * math.sqrt(f * (1 - f) / total) for f in freqs]
    ax.errorbar(
        xs,
        freqs,
        yerr=errors,
        fmt="D",
        color=PALETTE[1],
        markeredgecolor=INK,
        markeredgewidth=0.5,
        markersize=5,
        ecolor=PALETTE[1],
        elinewidth=1,
        capsize=2,
        label=f"simulated (n = {total:,.0f}, 95 % bars)",
    )
