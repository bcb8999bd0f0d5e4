"""The marks the standard-library charts (`charts`) are drawn with: markers, hatches, dashes, ticks, numbers.

Each takes one of matplotlib's codes from `ra_core.pictures.palette` (a marker ``"o"``, a hatch
``"//"``, a line style ``"--"``) and gives the SVG that draws it the same way, so a chart and a
matplotlib figure of the same data look alike. Numbers are written with at most two decimals,
so that the same chart is always the same bytes.

>>> num(2.0), num(-0.004), num(1 / 3)
('2', '0', '0.33')
>>> nice_ticks(0, 0.47)
[0.0, 0.1, 0.2, 0.3, 0.4]
>>> dash("--", 1.5)
'5.55 2.4'
"""

from __future__ import annotations

import math
from typing import Any

from .palette import HALO, HALO_WIDTH, TEXT

__all__ = [
    "dash",
    "escape",
    "hatch_pattern",
    "marker_path",
    "nice_ticks",
    "num",
    "stroke",
    "text_width",
    "tick_label",
    "words",
]

#: matplotlib's dash patterns of its named line styles, in line widths (its ``lines.*_pattern``)
_NAMED_DASHES: dict[str, tuple[float, ...]] = {
    "-": (),
    "solid": (),
    "--": (3.7, 1.6),
    "-.": (6.4, 1.6, 1.0, 1.6),
    ":": (1.0, 1.65),
}
CHAR_WIDTH = 0.58  # a letter's mean width, in font sizes (DejaVu Sans and the common sans-serif fonts)


def num(value: float) -> str:
    """Write a coordinate with at most two decimals and no trailing zeros (``-0`` is ``0``)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def escape(text: str) -> str:
    """Escape text for an SVG element or attribute."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def text_width(text: str, size: float) -> float:
    """Estimate the width of `text` at font size `size` (no font is measured: a chart needs no font files)."""
    return max((len(line) for line in text.split("\n")), default=0) * CHAR_WIDTH * size


def dash(style: Any, width: float) -> str:
    """Return the ``stroke-dasharray`` of a matplotlib line style at line width `width` ('' for solid)."""
    if isinstance(style, str):
        if style not in _NAMED_DASHES:
            raise ValueError(
                f"unknown line style {style!r}: use one of {', '.join(_NAMED_DASHES)} or (0, (on, off, ...))"
            )
        pattern = _NAMED_DASHES[style]
    else:
        _offset, pattern = style
    return " ".join(num(d * width) for d in pattern)


def nice_ticks(low: float, high: float, target: int = 6) -> list[float]:
    """Return round tick positions (steps of 1, 2 or 5 times a power of ten) from `low` to `high`."""
    if not (math.isfinite(low) and math.isfinite(high)) or high < low:
        raise ValueError(f"no ticks for the range [{low}, {high}]")
    if high == low:
        return [low]
    raw = (high - low) / target
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw * (1 - 1e-9))
    first, last = math.ceil(low / step - 1e-9), math.floor(high / step + 1e-9)
    return [round(k * step, 12) for k in range(first, last + 1)]


def tick_label(value: float, ticks: list[float], percent: bool = False) -> str:
    """Write a tick's value with as many decimals as the ticks' step needs (as a percentage of 1 if `percent`)."""
    scale = 100 if percent else 1
    step = min((abs(b - a) for a, b in zip(ticks, ticks[1:], strict=False)), default=1.0) * scale
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step > 0 else 0
    text = f"{value * scale:.{decimals}f}"
    if text.startswith("-") and float(text) == 0:
        text = text[1:]
    return text.replace("-", "\u2212") + ("%" if percent else "")


def marker_path(shape: str, x: float, y: float, size: float) -> str:
    """Return the SVG path of matplotlib marker `shape` centred on (x, y), `size` across."""
    r = size / 2
    if shape == "o":
        return f"M{num(x - r)},{num(y)}a{num(r)},{num(r)} 0 1,0 {num(2 * r)},0a{num(r)},{num(r)} 0 1,0 {num(-2 * r)},0Z"
    shapes: dict[str, list[tuple[float, float]]] = {
        "s": [(-1, -1), (1, -1), (1, 1), (-1, 1)],
        "^": [(0, -1), (1, 1), (-1, 1)],
        "v": [(0, 1), (1, -1), (-1, -1)],
        "D": [(0, -1), (0.75, 0), (0, 1), (-0.75, 0)],
        "P": _plus(0.35),
        "X": [(a * 0.7071 - b * 0.7071, a * 0.7071 + b * 0.7071) for a, b in _plus(0.3, 1.2)],
        "*": _star(),
    }
    points = shapes.get(shape)
    if points is None:
        raise ValueError(f"unknown marker {shape!r}: use one of o s ^ v D P X *")
    return "M" + "L".join(f"{num(x + px * r)},{num(y + py * r)}" for px, py in points) + "Z"


def _plus(arm: float, reach: float = 1.0) -> list[tuple[float, float]]:
    """The twelve corners of a plus sign of half-width `arm` and half-length `reach`."""
    a, b = arm, reach
    return [(-a, -b), (a, -b), (a, -a), (b, -a), (b, a), (a, a), (a, b), (-a, b), (-a, a), (-b, a), (-b, -a), (-a, -a)]


def _star() -> list[tuple[float, float]]:
    """The ten corners of a five-pointed star, point up."""
    corners = []
    for k in range(10):
        radius = 1.0 if k % 2 == 0 else 0.42
        angle = math.pi * k / 5
        corners.append((radius * math.sin(angle), -radius * math.cos(angle)))
    return corners


def hatch_pattern(code: str, ident: str, colour: str) -> str:
    """Return an SVG ``<pattern>`` with id `ident` that draws matplotlib hatch `code` in `colour` ('' for none)."""
    strokes = {
        "//": "M0,8L8,0M-2,2L2,-2M6,10L10,6",
        "\\\\": "M0,0L8,8M-2,6L2,10M6,-2L10,2",
        "xx": "M0,8L8,0M-2,2L2,-2M6,10L10,6M0,0L8,8M-2,6L2,10M6,-2L10,2",
        "++": "M4,1V7M1,4H7",
        "--": "M0,4H8",
    }
    if code == "":
        return ""
    if code in strokes:
        inside = f'<path d="{strokes[code]}" stroke="{colour}" stroke-width="0.8" fill="none"/>'
    elif code == "..":
        inside = f'<circle cx="2" cy="2" r="0.9" fill="{colour}"/><circle cx="6" cy="6" r="0.9" fill="{colour}"/>'
    elif code == "oo":
        inside = f'<circle cx="4" cy="4" r="2.2" stroke="{colour}" stroke-width="0.8" fill="none"/>'
    else:
        raise ValueError(f"unknown hatch {code!r}")
    return f'<pattern id="{ident}" width="8" height="8" patternUnits="userSpaceOnUse">{inside}</pattern>'


def stroke(d: str, colour: str, style: Any, width: float) -> str:
    """Return an SVG path `d` stroked in `colour`, `width` wide, dashed as matplotlib line style `style`."""
    dashes = dash(style, width)
    pattern = f' stroke-dasharray="{dashes}"' if dashes else ""
    return f'<path d="{d}" stroke="{colour}" stroke-width="{num(width)}"{pattern} fill="none" stroke-linejoin="round"/>'


def words(
    x: float,
    y: float,
    text: str,
    size: float,
    *,
    anchor: str = "middle",
    valign: str = "center",
    rotate: float = 0,
    bold: bool = False,
) -> str:
    """Return words in near-black over a white halo; `valign` says whether y is their top, centre or bottom."""
    lines = text.split("\n")
    step = size * 1.2
    if valign == "top":
        first = y + 0.8 * size
    elif valign == "bottom":
        first = y - 0.25 * size - (len(lines) - 1) * step
    else:
        first = y + 0.35 * size - (len(lines) - 1) * step / 2
    weight = ' font-weight="bold"' if bold else ""
    turn = f' transform="rotate({num(rotate)} {num(x)} {num(y)})"' if rotate else ""
    spans = "".join(
        f'<tspan x="{num(x)}" y="{num(first + i * step)}">{escape(line)}</tspan>' for i, line in enumerate(lines)
    )
    return (
        f'<text font-size="{num(size)}" text-anchor="{anchor}" fill="{TEXT}" '
        f'stroke="{HALO}" stroke-width="{num(HALO_WIDTH)}" '
        f'stroke-linejoin="round" paint-order="stroke"{weight}{turn}>{spans}</text>'
    )
