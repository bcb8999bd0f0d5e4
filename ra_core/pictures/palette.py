"""The colours, markers, line styles and hatches of every plot, and the contrast they were chosen for.

Standard library only: the matplotlib figures (`plotstyle`, `plots`) and the standard-library SVG
charts (`charts`, what the plots draw with where matplotlib cannot be imported, such as the
JupyterLite site with no network) take the same choices from here.

Every plot reads on JupyterLab's light and dark themes alike. A plot is shown as an image, into
which the page's CSS cannot reach, so it has a transparent background: the notebook's own
background (white or near-black) shows through. Axes and outlines are a neutral mid-grey, `INK`,
of contrast 4.3 : 1 on white and 4.4 : 1 on JupyterLab Dark's #111111 (3 : 1 is asked of
graphics; see `contrast`). No one grey reaches the 4.5 : 1 asked of words on both (the best gives
4.35 : 1), so every word is near-black, `TEXT`, over a white halo, `HALO`: on the light theme the
halo melts into the page and the words read at 17 : 1; on the dark theme each word stands on its
own white outline, still 17 : 1 against it. The series take the Okabe-Ito palette, safe for the
common colour-vision deficiencies, with the same mid-grey in place of its black, and every series
also differs by marker, line style or hatch.

>>> round(contrast(TEXT, HALO), 1), contrast(INK, "#FFFFFF") >= 3, contrast(INK, DARK) >= 3
(17.4, True, True)
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "DARK",
    "FRAME",
    "GRID",
    "HALO",
    "HATCHES",
    "INK",
    "LINESTYLES",
    "MARKERS",
    "PALETTE",
    "SVG_HASHSALT",
    "TEXT",
    "contrast",
    "series_style",
]

#: Okabe & Ito's colour-blind-safe palette, ordered for contrast on white (yellow and black last).
PALETTE: tuple[str, ...] = (
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#F0E442",  # yellow
    "#7A7A7A",  # neutral grey (Okabe-Ito's black would vanish on a dark theme)
)
#: matplotlib's marker codes: circle, square, triangle up, diamond, triangle down, plus, cross, star
MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v", "P", "X", "*")
#: matplotlib's line styles: solid, dashed, dash-dot, dotted, then dash patterns (offset, (on, off, ...))
LINESTYLES: tuple[Any, ...] = ("-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)), (0, (1, 3)), (0, (8, 2)))
#: matplotlib's hatch codes: none, diagonal, dots, crosses, back-diagonal, rings, plus signs, horizontal
HATCHES: tuple[str, ...] = ("", "//", "..", "xx", "\\\\", "oo", "++", "--")

INK = "#7A7A7A"  # lines and outlines: a mid-grey that reads on white and on near-black
FRAME = INK
TEXT = "#1A1A1A"  # words: near-black, each over a white `HALO` (17 : 1 against it)
HALO = "#FFFFFF"
HALO_WIDTH = 3.0  # points: the halo's stroke, half of it outside the letters
GRID = "#7A7A7A40"  # the same grey, faint (alpha 0.25)
DARK = "#111111"  # JupyterLab Dark's background, against which `INK` is checked
SVG_HASHSALT = "ra"  # any fixed string makes matplotlib's SVG ids reproducible


def series_style(i: int) -> dict[str, Any]:
    """Return the colour, marker, line style and hatch of series `i`."""
    n = len(PALETTE)
    return {
        "color": PALETTE[i % n],
        "marker": MARKERS[i % n],
        "linestyle": LINESTYLES[i % n],
        "hatch": HATCHES[i % n],
    }


def _luminance(colour: str) -> float:
    """The relative luminance of an ``#RRGGBB`` colour (WCAG 2)."""
    if len(colour) != 7 or colour[0] != "#":
        raise ValueError(f"a colour is #RRGGBB, not {colour!r}")
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """Return the WCAG contrast ratio of two ``#RRGGBB`` colours: 1 (the same) to 21 (black on white)."""
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
