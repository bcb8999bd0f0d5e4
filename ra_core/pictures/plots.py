"""Plots for the notebooks: fame over a game, win rates with intervals, probability laws, curves.

Every function returns a picture and shows nothing itself: in a notebook the picture is
displayed when it is the value of a cell; elsewhere `to_svg` gives it as SVG text. Where
matplotlib can be imported (CPython) the picture is a matplotlib `Figure`, closed for pyplot,
its layout computed once and then fixed, so that every rendering is the same (after changing
it, ``fig.set_layout_engine("constrained")`` lays it out again). Where it cannot (Pyodide
without network: the JupyterLite site carries no matplotlib), the picture is a
`ra_core.pictures.charts.Chart`, drawn in SVG by the standard library. `MATPLOTLIB` says which.

Each plot is decided once: the function here checks its input and prepares what to draw (the
points, the labels, the limits) as a small record; `plotfigures` draws that record with
matplotlib and `plotcharts` with the standard library. ``import ra_core`` never imports this
module.

The style (transparent, mid-grey ink for light and dark themes, Okabe-Ito with markers and
hatches, byte-stable SVG for nbval) is chosen once for both in `ra_core.pictures.palette`.

>>> fig = plot_distribution({0: 0.5, 1: 0.25, 2: 0.25}, title="A small law", xlabel="tiles")
>>> svg = to_svg(fig)
>>> svg == to_svg(fig), "<dc:date>" in svg
(True, False)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from numbers import Real
from typing import TYPE_CHECKING, Any, Protocol

from ..engine.scoring import CATEGORIES
from ..engine.state import State
from ..engine.tiles import Tile
from .charts import Chart
from .palette import FRAME, HATCHES, INK, LINESTYLES, MARKERS, PALETTE, SVG_HASHSALT, TEXT
from .words import player_name

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "FRAME",
    "HATCHES",
    "INK",
    "LINESTYLES",
    "MARKERS",
    "MATPLOTLIB",
    "PALETTE",
    "SVG_HASHSALT",
    "TEXT",
    "plot_curves",
    "plot_distribution",
    "plot_fame",
    "plot_win_rates",
    "svg_setup",
    "to_svg",
]


def _importable() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:  # Pyodide with no network: the JupyterLite site carries no matplotlib
        return False
    return True


#: Whether the plots draw with matplotlib (it can be imported) or, if not, with the standard
#: library's `charts`. A test may set it to False to draw the charts where matplotlib is.
MATPLOTLIB: bool = _importable()


class _Drawing(Protocol):
    """What draws the prepared plots: `plotfigures` or `plotcharts`, one function per plot."""

    def fame(self, data: Fame) -> Figure | Chart: ...  # noqa: D102

    def win_rates(self, data: WinRates) -> Figure | Chart: ...  # noqa: D102

    def distribution(self, data: Distribution) -> Figure | Chart: ...  # noqa: D102

    def curves(self, data: Curves) -> Figure | Chart: ...  # noqa: D102


def _drawing() -> _Drawing:
    """The module that draws the prepared plots: `plotfigures` (matplotlib) or `plotcharts`."""
    if MATPLOTLIB:
        from . import plotfigures

        return plotfigures
    from . import plotcharts

    return plotcharts


def to_svg(picture: Figure | Chart) -> str:
    """Return a plot as SVG text that is the same bytes every time (fixed ids, no date)."""
    if isinstance(picture, Chart):
        return picture.to_svg()
    from .plotstyle import to_svg as figure_svg

    return figure_svg(picture)


def svg_setup() -> None:
    """Make every plot a byte-stable SVG, in a notebook too (see `plotstyle.svg_setup`); call it once, at the top.

    Without matplotlib there is nothing to set: the charts are byte-stable SVG already.
    """
    if MATPLOTLIB:
        from .plotstyle import svg_setup as setup

        setup()


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


@dataclass(frozen=True)
class Fame:
    """What `plot_fame` draws: fame per player against `x`, and the points by category."""

    title: str
    labels: list[str]
    x: list[int]
    fame: list[list[int]]  # per player, at each x
    xlabel: str
    ends: list[int] | None  # steps: where each epoch ends (None: one point per epoch, `x_labels`)
    end_labels: list[str]
    xmax: float
    x_labels: list[str]
    categories: bool  # the panel of points by category
    totals: list[list[int]]  # per player, per category
    bar_x: list[list[float]]  # per player, per category
    bar_width: float
    bars_title: str
    bars_note: str  # written over an empty panel


def plot_fame(
    game: Any,
    *,
    names: Sequence[str] | None = None,
    title: str | None = None,
    categories: bool = True,
) -> Figure | Chart:
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
    ends: list[int] | None = None
    if len(states) > 1:
        x = list(range(len(states)))
        ends = [i for i in range(1, len(states)) if len(states[i].scores) > len(states[i - 1].scores)]
        fame = [[s.players[p].fame for s in states] for p in range(n)]
    else:
        x = list(range(len(scores) + 1))
        starts = [scores[0].players[p].fame_before if scores else final.players[p].fame for p in range(n)]
        fame = [[starts[p]] + [sc.players[p].fame_after for sc in scores] for p in range(n)]
    width = 0.8 / n
    epochs = ", ".join(str(sc.epoch) for sc in scores)
    data = Fame(
        title=title or "Fame over the game",
        labels=labels,
        x=x,
        fame=fame,
        xlabel="epoch" if ends is None else "actions played (chance draws included)",
        ends=ends,
        end_labels=[f"epoch {k}\nscored" for k in range(1, len(ends or ()) + 1)],
        xmax=(len(states) - 1) * 1.03,
        x_labels=["start"] + [f"after epoch {sc.epoch}" for sc in scores],
        categories=categories,
        totals=[[sum(getattr(sc.players[p], c) for sc in scores) for c in CATEGORIES] for p in range(n)],
        bar_x=[[c + (p - (n - 1) / 2) * width for c in range(len(CATEGORIES))] for p in range(n)],
        bar_width=width,
        bars_title=f"Points by category (epochs {epochs})" if scores else "Points by scoring category",
        bars_note="" if scores else "no epoch scored yet",
    )
    return _drawing().fame(data)


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


@dataclass(frozen=True)
class WinRates:
    """What `plot_win_rates` draws: a bar and an interval per row, the first row on top."""

    title: str
    xlabel: str
    rows: list[tuple[str, float, float, float]]  # name, rate, low, high
    ys: list[int]
    words: list[str]  # beside each bar: the rate and its interval
    word_x: list[float]  # where the words start: right of the whisker, and of the baseline if it runs there
    baseline: float | None
    baseline_label: str
    xmax: float


def plot_win_rates(
    results: Any,
    *,
    title: str | None = None,
    baseline: float | None = None,
    xlabel: str = "win rate (bars: estimate, whiskers: confidence interval)",
) -> Figure | Chart:
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
    data = WinRates(
        title=title or "Win rates",
        xlabel=xlabel,
        rows=rows,
        ys=list(range(len(rows)))[::-1],
        words=[f"{rate:.1%}  [{low:.1%}, {high:.1%}]" for _, rate, low, high in rows],
        word_x=[max(high, baseline if baseline is not None else high) for *_, high in rows],
        baseline=baseline,
        baseline_label="" if baseline is None else f"baseline {baseline:.1%}",
        xmax=min(1.0, max(r[3] for r in rows) + 0.25),
    )
    return _drawing().win_rates(data)


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


# -- a probability law --------------------------------------------------------------------------


@dataclass(frozen=True)
class Simulated:
    """A simulated estimate drawn over a law: frequencies, with 95 % error bars when the sample size is known."""

    x: list[float]
    freqs: list[float]
    errors: list[float] | None
    label: str


@dataclass(frozen=True)
class Distribution:
    """What `plot_distribution` draws: a bar per value, a simulated estimate, the mean."""

    title: str
    xlabel: str
    ylabel: str
    exact_label: str
    x: list[float]
    probs: list[float]
    width: float
    simulated: Simulated | None
    mean: float | None
    mean_label: str
    xlim: tuple[float, float] | None
    tick_labels: list[str] | None  # categories (None: a number line)


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
) -> Figure | Chart:
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
    xs = sorted(pos.values())
    width = 0.8 * min((b - a for a, b in zip(xs, xs[1:], strict=False)), default=1.0)
    mean = sum(pos[k] * p for k, p in zip(keys, probs, strict=True)) if show_mean and numeric else None
    data = Distribution(
        title=title or "Probability distribution",
        xlabel=xlabel,
        ylabel=ylabel,
        exact_label=exact_label,
        x=[pos[k] for k in keys],
        probs=probs,
        width=width,
        simulated=None if simulated is None else _simulated(simulated, pos, numeric),
        mean=mean,
        mean_label="" if mean is None else f"mean {mean:.2f}",
        xlim=_tail_limits([pos[k] for k in keys], probs, tail, width) if numeric and tail > 0 else None,
        tick_labels=None if numeric else [_key_label(k) for k in keys],
    )
    return _drawing().distribution(data)


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


def _simulated(simulated: Mapping[Any, Any] | Iterable[Any], pos: Mapping[Any, float], numeric: bool) -> Simulated:
    """Return a simulated estimate's frequencies, with 95 % error bars when the sample size is known."""
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
        return Simulated(xs, freqs, None, "simulated")
    errors = [1.96 * math.sqrt(f * (1 - f) / total) for f in freqs]
    return Simulated(xs, freqs, errors, f"simulated (n = {total:,.0f}, 95 % bars)")


# -- curves and estimates -----------------------------------------------------------------------


@dataclass(frozen=True)
class Series:
    """One series of `plot_curves`: a line, or points with an interval each (`lows` to `highs`) or none."""

    label: str
    x: list[float]
    y: list[float]
    line: bool
    lows: list[float] | None = None
    highs: list[float] | None = None


@dataclass(frozen=True)
class Curves:
    """What `plot_curves` draws: its series in order, reference lines, labels."""

    title: str
    xlabel: str
    ylabel: str
    series: list[Series]
    vlines: list[tuple[float, str | None]]
    hlines: list[tuple[float, str | None]]
    xticks: list[float] | None
    height: float


def plot_curves(
    curves: Mapping[str, Any] | None = None,
    points: Mapping[str, Any] | None = None,
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    vlines: Mapping[float, str | None] | None = None,
    hlines: Mapping[float, str | None] | None = None,
    xticks: Sequence[float] | None = None,
    height: float = 3.6,
) -> Figure | Chart:
    """Plot curves and estimated points against one x axis: theory as lines, simulations as points with intervals.

    Args:
        curves: ``{label: (xs, ys)}``, each drawn as a line.
        points: ``{label: (xs, ys)}`` drawn as markers; ``{label: (xs, ys, errors)}`` with an
            error bar of ``y ± error`` at each point; or ``{label: (xs, ys, lows, highs)}`` with
            the bar from ``low`` to ``high`` (an interval's bounds, which must hold y).
        title: the title above the axes.
        xlabel: what the x axis shows.
        ylabel: what the y axis shows.
        vlines: ``{x: label}``: dashed vertical reference lines (a label of None: no legend entry).
        hlines: ``{y: label}``: thin horizontal reference lines, e.g. ``{0: None}``.
        xticks: the x ticks (default: round numbers).
        height: the height in inches (the width is 6.5).

    The curves take the first colours and line styles, the points the next colours and markers.
    """
    series = [Series(label, *_pair(label, value), line=True) for label, value in (curves or {}).items()]
    series += [_points(label, value) for label, value in (points or {}).items()]
    if not series:
        raise ValueError("plot_curves needs at least one curve or one set of points")
    data = Curves(
        title=title,
        xlabel=xlabel,
        ylabel=ylabel,
        series=series,
        vlines=[(float(x), label) for x, label in (vlines or {}).items()],
        hlines=[(float(y), label) for y, label in (hlines or {}).items()],
        xticks=None if xticks is None else [float(x) for x in xticks],
        height=height,
    )
    return _drawing().curves(data)


def _pair(label: str, value: Any) -> tuple[list[float], list[float]]:
    xs, ys = [float(x) for x in value[0]], [float(y) for y in value[1]]
    if len(xs) != len(ys) or not xs:
        raise ValueError(f"{label}: {len(xs)} x values for {len(ys)} y values")
    return xs, ys


def _points(label: str, value: Any) -> Series:
    if len(value) not in (2, 3, 4):
        raise ValueError(f"{label}: points are (xs, ys), (xs, ys, errors) or (xs, ys, lows, highs)")
    xs, ys = _pair(label, value)
    if len(value) == 2:
        return Series(label, xs, ys, line=False)
    if len(value) == 3:
        errors = [float(e) for e in value[2]]
        lows, highs = [y - e for y, e in zip(ys, errors, strict=True)], [y + e for y, e in zip(ys, errors, strict=True)]
    else:
        lows, highs = [float(v) for v in value[2]], [float(v) for v in value[3]]
    if not len(lows) == len(highs) == len(ys) or not all(
        lo <= y <= hi for lo, y, hi in zip(lows, ys, highs, strict=True)
    ):
        raise ValueError(f"{label}: each point needs an interval that holds it (and no negative error)")
    return Series(label, xs, ys, line=False, lows=lows, highs=highs)
