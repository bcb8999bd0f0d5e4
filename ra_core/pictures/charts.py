"""Charts in SVG with the standard library: what the plots draw with where matplotlib cannot be imported.

Matplotlib for WebAssembly comes only from Pyodide's own distribution, so a JupyterLite site with
no network cannot load it; `ra_core.pictures.plots` then draws its plots with this module. A
`Chart` is one or more `Panel`s side by side, with a title above and a legend below. A panel holds
lines, markers, error bars, bars (upright or lying), reference lines and words, on axes with
round ticks (or ticks given), a grid, a title and axis labels. The style is the figures' own
(`ra_core.pictures.palette`: a transparent background, mid-grey ink, near-black words over a white
halo, Okabe-Ito colours with markers and hatches), and the SVG is the same bytes every time.

A notebook shows a chart when it is a cell's value (`Chart._repr_svg_`).

>>> from ra_core.pictures.palette import PALETTE
>>> chart = Chart(4, 3, title="Two lines")
>>> panel = chart.panels[0]
>>> panel.line([0, 1, 2], [0, 1, 4], colour=PALETTE[0], label="squares")
>>> panel.line([0, 1, 2], [0, 1, 2], colour=PALETTE[1], style="--", label="the identity")
>>> panel.xlabel, panel.ylabel = "x", "y"
>>> svg = chart.to_svg()
>>> svg.startswith("<svg") and svg == chart.to_svg() and "the identity" in svg
True
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .chartmarks import escape, hatch_pattern, marker_path, nice_ticks, num, stroke, text_width, tick_label, words
from .palette import GRID, INK

__all__ = ["Chart", "Entry", "Panel"]

PT = 72  # SVG units per inch: the size of a chart of 6.5 x 4 inches is that of the same matplotlib figure
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
TICK_SIZE = 9  # font sizes, in points
LABEL_SIZE = 10
TITLE_SIZE = 11
LEGEND_SIZE = 9
SWATCH = 22.0  # a legend entry's picture: its width
ROW_HEIGHT = LEGEND_SIZE + 7  # a legend row's height
MIN_PLOT = 40.0  # the least height of a panel's axes
_ID = "@id@"  # the chart's id prefix, until its bytes are known


@dataclass
class Entry:
    """A legend entry: its words and its swatch (a line, a marker, a hatched patch, or a line and a patch)."""

    label: str
    colour: str
    line: Any = None  # a matplotlib line style, or None for no line
    marker: str | None = None
    hatch: str | None = None  # a hatched patch ('' unhatched), or None for no patch


@dataclass
class Panel:
    """One set of axes. Add marks with its methods; set `title`, `xlabel`, `ylabel` as attributes."""

    title: str = ""
    xlabel: str = ""
    ylabel: str = ""
    percent_x: bool = False  # the x tick labels as percentages of 1
    grid: str = "both"  # "both", "x" (vertical lines only), "y", or "" for none
    entries: list[Entry] = field(default_factory=list)  # the legend's entries, in the order drawn
    _marks: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    _ticks: dict[str, tuple[list[float], list[str] | None, float]] = field(default_factory=dict)
    _limits: dict[str, tuple[float | None, float | None]] = field(default_factory=dict)

    # -- marks ----------------------------------------------------------------------------------

    def line(
        self,
        xs: Sequence[float],
        ys: Sequence[float],
        *,
        colour: str,
        style: Any = "-",
        width: float = 1.5,
        label: str | None = None,
        step: bool = False,
    ) -> None:
        """Draw a line through the points; with `step`, as steps changing at each x (matplotlib's ``where="post"``)."""
        xs, ys = _floats(xs, ys)
        self._marks.append(
            ("line", {"xs": xs, "ys": ys, "colour": colour, "style": style, "width": width, "step": step})
        )
        if label:
            self.entries.append(Entry(label, colour, line=style))

    def markers(
        self,
        xs: Sequence[float],
        ys: Sequence[float],
        *,
        colour: str,
        shape: str = "o",
        size: float = 6.0,
        label: str | None = None,
    ) -> None:
        """Draw a marker (a matplotlib marker code) at each point, outlined in ink."""
        xs, ys = _floats(xs, ys)
        marker_path(shape, 0, 0, size)  # an unknown shape fails here, not when drawn
        self._marks.append(("markers", {"xs": xs, "ys": ys, "colour": colour, "shape": shape, "size": size}))
        if label:
            self.entries.append(Entry(label, colour, marker=shape))

    def errorbars(
        self,
        xs: Sequence[float],
        lows: Sequence[float],
        highs: Sequence[float],
        *,
        colour: str = INK,
        horizontal: bool = False,
        cap: float = 3.0,
    ) -> None:
        """Draw an interval from `lows` to `highs` at each x (at each y if `horizontal`), with caps."""
        xs, lows = _floats(xs, lows)
        _, highs = _floats(xs, highs)
        if any(lo > hi for lo, hi in zip(lows, highs, strict=True)):
            raise ValueError("an error bar's low end is above its high end")
        self._marks.append(
            (
                "errorbars",
                {"at": xs, "lows": lows, "highs": highs, "colour": colour, "horizontal": horizontal, "cap": cap},
            )
        )

    def bars(
        self,
        positions: Sequence[float],
        lengths: Sequence[float],
        width: float,
        *,
        colour: str,
        hatch: str = "",
        label: str | None = None,
        horizontal: bool = False,
    ) -> None:
        """Draw bars from 0 to each length, `width` wide in data units, centred on each position."""
        positions, lengths = _floats(positions, lengths)
        if not width > 0:
            raise ValueError(f"a bar's width must be positive, not {width}")
        hatch_pattern(hatch, "check", INK)  # an unknown hatch fails here
        self._marks.append(
            (
                "bars",
                {
                    "at": positions,
                    "lengths": lengths,
                    "width": float(width),
                    "colour": colour,
                    "hatch": hatch,
                    "horizontal": horizontal,
                },
            )
        )
        if label:
            self.entries.append(Entry(label, colour, hatch=hatch))

    def vline(
        self, x: float, *, colour: str = INK, style: Any = "--", width: float = 1.2, label: str | None = None
    ) -> None:
        """Draw a vertical reference line across the panel at `x`."""
        self._marks.append(("vline", {"at": float(x), "colour": colour, "style": style, "width": width}))
        if label:
            self.entries.append(Entry(label, colour, line=style))

    def hline(
        self, y: float, *, colour: str = INK, style: Any = "-", width: float = 0.8, label: str | None = None
    ) -> None:
        """Draw a horizontal reference line across the panel at `y`."""
        self._marks.append(("hline", {"at": float(y), "colour": colour, "style": style, "width": width}))
        if label:
            self.entries.append(Entry(label, colour, line=style))

    def text(self, x: float, y: float, words: str, *, dx: float = 0.0) -> None:
        """Write `words` starting `dx` points right of the point (x, y), centred on it vertically."""
        self._marks.append(("text", {"x": float(x), "y": float(y), "words": words, "dx": dx}))

    def note(self, words: str) -> None:
        """Write `words` in the middle of the panel (e.g. that there is nothing to show yet)."""
        self._marks.append(("note", {"words": words}))

    # -- axes -----------------------------------------------------------------------------------

    def ticks(
        self, axis: str, positions: Sequence[float], labels: Sequence[str] | None = None, *, rotate: float = 0
    ) -> None:
        """Put the ticks of `axis` ("x", "y", or "top": words above the panel) at `positions`, with `labels`."""
        if axis not in ("x", "y", "top"):
            raise ValueError(f"axis is 'x', 'y' or 'top', not {axis!r}")
        if labels is not None and len(labels) != len(positions):
            raise ValueError(f"{len(labels)} tick labels for {len(positions)} ticks")
        self._ticks[axis] = ([float(p) for p in positions], None if labels is None else list(labels), rotate)

    def limits(self, axis: str, low: float | None = None, high: float | None = None) -> None:
        """Fix the range of `axis` ("x" or "y"); an end left None is found from the marks."""
        if axis not in ("x", "y"):
            raise ValueError(f"axis is 'x' or 'y', not {axis!r}")
        self._limits[axis] = (low, high)

    # -- drawing --------------------------------------------------------------------------------

    def _range(self, axis: str) -> tuple[float, float]:
        """The range of `axis`: its limits, or the marks' extent with a 5 % margin (none past a bar's base)."""
        values: list[float] = []
        sticky: set[float] = set()
        for kind, m in self._marks:
            along = kind == "bars" and (m["horizontal"] == (axis == "x"))  # the bars' lengths run along this axis
            if kind in ("line", "markers"):
                values += m["xs"] if axis == "x" else m["ys"]
            elif kind == "errorbars":
                across = m["horizontal"] == (axis == "x")
                values += m["lows"] + m["highs"] if across else m["at"]
            elif kind == "bars" and along:
                values += [*m["lengths"], 0.0]
                sticky.add(0.0)
            elif kind == "bars":
                values += [p + s * m["width"] / 2 for p in m["at"] for s in (-1, 1)]
            elif (kind, axis) in (("vline", "x"), ("hline", "y")):
                values.append(m["at"])
        fixed_low, fixed_high = self._limits.get(axis, (None, None))
        low, high = (min(values), max(values)) if values else (0.0, 1.0)
        span = (high - low) or (abs(high) or 1.0)
        if high == low:  # one value: a band around it
            sticky = set()
        if fixed_low is None:
            fixed_low = low if low in sticky else low - 0.05 * span
        if fixed_high is None:
            fixed_high = high if high in sticky else high + 0.05 * span
        if not fixed_high > fixed_low:
            raise ValueError(f"the {axis} axis runs from {fixed_low} to {fixed_high}: nothing to draw")
        return fixed_low, fixed_high

    def _tick_list(self, axis: str, low: float, high: float) -> tuple[list[float], list[str], float]:
        if axis in self._ticks:
            positions, labels, rotate = self._ticks[axis]
            if labels is None:
                labels = [tick_label(p, positions, self.percent_x and axis == "x") for p in positions]
            return positions, labels, rotate
        if axis == "top":
            return [], [], 0
        positions = nice_ticks(low, high)
        return positions, [tick_label(p, positions, self.percent_x and axis == "x") for p in positions], 0

    def _margins(self) -> tuple[float, float]:
        """The height the panel's words take above its axes and below them (title, ticks, labels)."""
        xlo, xhi = self._range("x")
        _, xl, xrot = self._tick_list("x", xlo, xhi)
        _, tl, _ = self._tick_list("top", xlo, xhi)
        top_lines = max((t.count("\n") + 1 for t in tl), default=0)
        above = (TITLE_SIZE + 10 if self.title else 4) + top_lines * (TICK_SIZE + 2)
        if xrot:
            below = max((text_width(t, TICK_SIZE) for t in xl), default=0) * math.sin(math.radians(abs(xrot))) + 10
        else:
            below = max((t.count("\n") + 1 for t in xl), default=0) * (TICK_SIZE + 2) + 8
        return above, below + (LABEL_SIZE + 8 if self.xlabel else 0)

    def render(self, box: tuple[float, float, float, float], ident: str) -> list[str]:
        """Return the SVG elements of the panel drawn in `box` (left, top, right, bottom)."""
        x0, y0, x1, y1 = box
        (xlo, xhi), (ylo, yhi) = self._range("x"), self._range("y")
        xt, xl, xrot = self._tick_list("x", xlo, xhi)
        yt, yl, _ = self._tick_list("y", ylo, yhi)
        tt, tl, _ = self._tick_list("top", xlo, xhi)
        left = x0 + (LABEL_SIZE + 8 if self.ylabel else 0) + max((text_width(t, TICK_SIZE) for t in yl), default=0) + 8
        right = x1 - 6
        halves = [] if xrot else [(t, text_width(label, TICK_SIZE) / 2) for t, label in zip(xt, xl, strict=True)]
        halves += [(t, text_width(label, TICK_SIZE - 1) / 2) for t, label in zip(tt, tl, strict=True)]
        for t, half in halves:  # the words under (and over) the last ticks end inside the picture
            f = (t - xlo) / (xhi - xlo)
            if 0 < f <= 1:
                right = min(right, left + (x1 - 2 - half - left) / f)
        above, below = self._margins()
        top, bottom = y0 + above, y1 - below
        if right - left < 20 or bottom - top < 20:
            raise ValueError("the chart is too small for its words: make it larger")

        def sx(v: float) -> float:
            return left + (v - xlo) / (xhi - xlo) * (right - left)

        def sy(v: float) -> float:
            return bottom - (v - ylo) / (yhi - ylo) * (bottom - top)

        out = [
            f'<clipPath id="{ident}"><rect x="{num(left)}" y="{num(top)}" '
            f'width="{num(right - left)}" height="{num(bottom - top)}"/></clipPath>'
        ]
        grid = f'stroke="{GRID[:7]}" stroke-opacity="0.25" stroke-width="0.8"'
        if self.grid in ("both", "x"):
            out += [f'<path d="M{num(sx(t))},{num(top)}V{num(bottom)}" {grid}/>' for t in xt if xlo <= t <= xhi]
        if self.grid in ("both", "y"):
            out += [f'<path d="M{num(left)},{num(sy(t))}H{num(right)}" {grid}/>' for t in yt if ylo <= t <= yhi]
        data = [
            _draw(kind, m, sx, sy, (left, top, right, bottom), f"{ident}-{i}")
            for i, (kind, m) in enumerate(self._marks)
        ]
        out.append(f'<g clip-path="url(#{ident})">{"".join(d for d, _ in data)}</g>')
        out += [over for _, over in data if over]
        out.append(
            f'<path d="M{num(left)},{num(top)}V{num(bottom)}H{num(right)}" '
            f'stroke="{INK}" stroke-width="0.8" fill="none"/>'
        )
        for t, label in zip(xt, xl, strict=True):
            if xlo - 1e-9 <= t <= xhi + 1e-9:
                x = sx(t)
                out.append(f'<path d="M{num(x)},{num(bottom)}v3.5" stroke="{INK}" stroke-width="0.8"/>')
                if xrot:
                    out.append(words(x, bottom + 7, label, TICK_SIZE, anchor="end", valign="top", rotate=-abs(xrot)))
                else:
                    out.append(words(x, bottom + 6, label, TICK_SIZE, valign="top"))
        for t, label in zip(yt, yl, strict=True):
            if ylo - 1e-9 <= t <= yhi + 1e-9:
                y = sy(t)
                out.append(f'<path d="M{num(left)},{num(y)}h-3.5" stroke="{INK}" stroke-width="0.8"/>')
                out.append(words(left - 6, y, label, TICK_SIZE, anchor="end"))
        for t, label in zip(tt, tl, strict=True):
            out.append(words(sx(t), top - 3, label, TICK_SIZE - 1, valign="bottom"))
        if self.title:
            out.append(words((left + right) / 2, y0 + 4, self.title, TITLE_SIZE, valign="top", bold=True))
        if self.xlabel:
            out.append(words((left + right) / 2, y1 - 4, self.xlabel, LABEL_SIZE, valign="bottom"))
        if self.ylabel:
            out.append(words(x0 + 4, (top + bottom) / 2, self.ylabel, LABEL_SIZE, valign="top", rotate=-90))
        return out


def _floats(xs: Sequence[float], ys: Sequence[float]) -> tuple[list[float], list[float]]:
    xs, ys = [float(x) for x in xs], [float(y) for y in ys]
    if len(xs) != len(ys):
        raise ValueError(f"{len(xs)} x values for {len(ys)} y values")
    if not all(math.isfinite(v) for v in xs + ys):
        raise ValueError("a chart draws finite numbers only")
    return xs, ys


def _draw(kind: str, m: dict[str, Any], sx: Any, sy: Any, box: tuple[float, ...], ident: str) -> tuple[str, str]:
    """Return the SVG of one mark: what the panel clips, and words drawn over everything."""
    left, top, right, bottom = box
    if kind == "line":
        points = list(zip(m["xs"], m["ys"], strict=True))
        if m["step"]:
            points = [
                p for (x, y), (nx, _) in zip(points, points[1:], strict=False) for p in ((x, y), (nx, y))
            ] + points[-1:]
        d = "M" + "L".join(f"{num(sx(x))},{num(sy(y))}" for x, y in points)
        return stroke(d, m["colour"], m["style"], m["width"]), ""
    if kind == "markers":
        d = "".join(marker_path(m["shape"], sx(x), sy(y), m["size"]) for x, y in zip(m["xs"], m["ys"], strict=True))
        return f'<path d="{d}" fill="{m["colour"]}" stroke="{INK}" stroke-width="0.6"/>', ""
    if kind == "errorbars":
        c, parts = m["cap"], []
        for at, lo, hi in zip(m["at"], m["lows"], m["highs"], strict=True):
            if m["horizontal"]:
                y, a, b = sy(at), sx(lo), sx(hi)
                parts.append(
                    f"M{num(a)},{num(y)}H{num(b)}M{num(a)},{num(y - c)}v{num(2 * c)}M{num(b)},{num(y - c)}v{num(2 * c)}"
                )
            else:
                x, a, b = sx(at), sy(lo), sy(hi)
                parts.append(
                    f"M{num(x)},{num(a)}V{num(b)}M{num(x - c)},{num(a)}h{num(2 * c)}M{num(x - c)},{num(b)}h{num(2 * c)}"
                )
        return f'<path d="{"".join(parts)}" stroke="{m["colour"]}" stroke-width="1.2" fill="none"/>', ""
    if kind == "bars":
        rects, half = [], m["width"] / 2
        for at, length in zip(m["at"], m["lengths"], strict=True):
            if m["horizontal"]:
                xa, xb, ya, yb = sx(min(0, length)), sx(max(0, length)), sy(at + half), sy(at - half)
            else:
                xa, xb, ya, yb = sx(at - half), sx(at + half), sy(max(0, length)), sy(min(0, length))
            rects.append(f'x="{num(xa)}" y="{num(ya)}" width="{num(xb - xa)}" height="{num(yb - ya)}"')
        svg = "".join(f'<rect {r} fill="{m["colour"]}"/>' for r in rects)
        if m["hatch"]:
            svg += hatch_pattern(m["hatch"], ident, INK) + "".join(f'<rect {r} fill="url(#{ident})"/>' for r in rects)
        svg += "".join(f'<rect {r} fill="none" stroke="{INK}" stroke-width="0.6"/>' for r in rects)
        return svg, ""
    if kind == "vline":
        return stroke(f"M{num(sx(m['at']))},{num(top)}V{num(bottom)}", m["colour"], m["style"], m["width"]), ""
    if kind == "hline":
        return stroke(f"M{num(left)},{num(sy(m['at']))}H{num(right)}", m["colour"], m["style"], m["width"]), ""
    if kind == "text":
        return "", words(sx(m["x"]) + m["dx"], sy(m["y"]), m["words"], TICK_SIZE - 1, anchor="start")
    if kind == "note":
        return "", words((left + right) / 2, (top + bottom) / 2, m["words"], LABEL_SIZE)
    raise AssertionError(kind)


class Chart:
    """A picture of one or more panels side by side, with a title above and a legend below.

    Args:
        width, height: the size in inches, as a matplotlib figure's (a chart too short for its
            words grows taller, as matplotlib's layout would squeeze the axes instead).
        title: the words above the panels.
        ncols: the number of panels.
        width_ratios: the panels' relative widths (default: equal).
    """

    def __init__(
        self,
        width: float,
        height: float,
        *,
        title: str = "",
        ncols: int = 1,
        width_ratios: Sequence[float] | None = None,
    ) -> None:
        if not (width > 0 and height > 0) or ncols < 1:
            raise ValueError("a chart needs a positive size and at least one panel")
        self.width, self.height, self.title = width, height, title
        self.panels = [Panel() for _ in range(ncols)]
        self.ratios = list(width_ratios or [1.0] * ncols)
        if len(self.ratios) != ncols:
            raise ValueError(f"{len(self.ratios)} width ratios for {ncols} panels")
        self.legend: list[Entry] | None = None  # None: the labelled marks of the first panel

    def to_svg(self) -> str:
        """Return the chart as SVG text: the same bytes every time for the same chart."""
        w, h = self.width * PT, self.height * PT
        entries = self.panels[0].entries if self.legend is None else self.legend
        columns = _legend_columns(entries, w)
        legend_height = math.ceil(len(entries) / len(columns)) * ROW_HEIGHT + 4 if entries else 0.0
        top = 6 + (TITLE_SIZE + 12 if self.title else 0)
        words_height = max(sum(panel._margins()) for panel in self.panels)
        h = max(h, top + words_height + MIN_PLOT + 4 + legend_height)  # a short chart grows to keep its words
        bottom = h - 4 - legend_height
        body: list[str] = []
        if self.title:
            body.append(words(w / 2, 6, self.title, TITLE_SIZE + 1, valign="top"))
        gap, x = 14.0, 4.0
        room = w - 8 - gap * (len(self.panels) - 1)
        for i, (panel, ratio) in enumerate(zip(self.panels, self.ratios, strict=True)):
            span = room * ratio / sum(self.ratios)
            body += panel.render((x, top, x + span, bottom), f"{_ID}-p{i}")
            x += span + gap
        body += _legend(entries, w, bottom + 4)
        inner = "".join(body)
        ident = "c" + hashlib.sha256(inner.encode()).hexdigest()[:10]  # ids unique to this picture, stable across runs
        label = escape(self.title or next((p.title for p in self.panels if p.title), "chart"))
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(w)}pt" height="{num(h)}pt" '
            f'viewBox="0 0 {num(w)} {num(h)}" font-family="{FONT}" role="img" aria-label="{label}">'
            f"<title>{label}</title>{inner.replace(_ID, ident)}</svg>\n"
        )

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def save(self, path: Any) -> None:
        """Write the chart's SVG to the file at `path`."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_svg())

    def __repr__(self) -> str:
        return f"<Chart {self.title or 'untitled'!r}: {len(self.panels)} panel(s)>"


def _legend_columns(entries: Sequence[Entry], width: float) -> list[float]:
    """The widths of the legend's columns: up to five, as many as fit in `width`."""
    sizes = [SWATCH + 6 + text_width(e.label, LEGEND_SIZE) + 14 for e in entries]
    ncols = min(len(entries), 5)
    while ncols > 1 and sum(max(sizes[c::ncols]) for c in range(ncols)) > width - 8:
        ncols -= 1
    return [max(sizes[c::ncols]) for c in range(ncols)] if entries else []


def _legend(entries: Sequence[Entry], width: float, top: float) -> list[str]:
    """Lay the entries out in rows, centred under the panels, from `top` down."""
    columns = _legend_columns(entries, width)
    start = (width - sum(columns)) / 2
    out = []
    for i, entry in enumerate(entries):
        row, col = divmod(i, len(columns))
        x, y = start + sum(columns[:col]), top + (row + 0.5) * ROW_HEIGHT
        out.append(
            f'<g transform="translate({num(x)} {num(y)})">{_swatch(entry, f"{_ID}-l{i}")}'
            + words(SWATCH + 6, 0, entry.label, LEGEND_SIZE, anchor="start")
            + "</g>"
        )
    return out


def _swatch(entry: Entry, ident: str) -> str:
    """The picture of a legend entry, `SWATCH` wide, centred on y = 0: a patch, a line, a marker, or line and patch."""
    parts = []
    both = entry.line is not None and entry.hatch is not None
    if entry.hatch is not None:
        box = f'x="{num(SWATCH / 2 - 6 if both else 0)}" y="-5" width="{num(12 if both else SWATCH)}" height="10"'
        parts.append(f'<rect {box} fill="{entry.colour}"/>')
        if entry.hatch:
            parts.append(hatch_pattern(entry.hatch, ident, INK) + f'<rect {box} fill="url(#{ident})"/>')
        parts.append(f'<rect {box} fill="none" stroke="{INK}" stroke-width="0.6"/>')
    if entry.line is not None:
        d = f"M0,0H{num(SWATCH / 2 - 8)}M{num(SWATCH / 2 + 8)},0H{num(SWATCH)}" if both else f"M0,0H{num(SWATCH)}"
        parts.append(stroke(d, entry.colour, entry.line, 1.5))
    if entry.marker is not None:
        path = marker_path(entry.marker, SWATCH / 2, 0, 6)
        parts.append(f'<path d="{path}" fill="{entry.colour}" stroke="{INK}" stroke-width="0.6"/>')
    return "".join(parts)
