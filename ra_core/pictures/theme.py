"""The board's colours in light and dark themes: JupyterLab's CSS variables, light colours as fallback.

Every SVG picture of the board draws its paper, panels, lines and words with plain light colours
(``fill="#fdfaf3"``, ``fill="#000"``), so it reads anywhere, as a file or in an ``<img>``. Its
pieces also carry classes (`PAPER`, `PANEL`, `INK`, ...), and the picture carries `STYLE`, a
``<style>`` element that gives those classes JupyterLab's theme colours: where the page defines
them (JupyterLab, Notebook 7, Voila), the board follows the theme, light or dark; elsewhere the
fallback in each ``var()`` is the light colour of the attribute. CSS beats SVG presentation
attributes, so nothing else is needed. The tiles, suns, bag and statue keep their own
colour-blind-safe colours (Okabe and Ito) and their own ink in every theme.

The rules are scoped by the picture's class `ROOT`, so several boards on one page share them
and nothing else on the page is touched.
"""

from __future__ import annotations

__all__ = ["FADE", "INK", "LINE", "MARKED", "PANEL", "PAPER", "ROOT", "STRONG", "STYLE", "UNUSED", "classed"]

ROOT = "ra-svg"  #: the class of every themed picture's ``<svg>`` element
PAPER = "ra-paper"  #: the background of the picture (and of the scores card)
PANEL = "ra-panel"  #: panels, slots and plain buttons drawn on the paper
UNUSED = "ra-unused"  #: places on a track that the rules leave out
INK = "ra-ink"  #: words and numbers drawn on the paper or a panel
LINE = "ra-line"  #: thin frames
STRONG = "ra-strong"  #: thick frames in the ink's colour (who decides now, the last Ra)
MARKED = "ra-mark"  #: the blue frame of every piece you may click now (the theme's blue)
FADE = "ra-fade"  #: the dashed outline of a control that is no choice now (the bag, the statue)

_FG = "var(--jp-ui-font-color0, #000000)"
STYLE = (
    "<style>"
    f".{ROOT} .{PAPER}, .{ROOT} .ra-card {{ fill: var(--jp-layout-color1, #fdfaf3); }}"
    f".{ROOT} .{PANEL} {{ fill: var(--jp-layout-color2, #ffffff); stroke: var(--jp-border-color1, #777777); }}"
    f".{ROOT} .ra-deciding {{ fill: var(--jp-layout-color2, #fff8dc); "
    "fill: color-mix(in srgb, var(--jp-warn-color0, #f57c00) 20%, var(--jp-layout-color1, #ffffff)); }"
    f".{ROOT} .{UNUSED} {{ fill: var(--jp-layout-color3, #e6e6e6); stroke: var(--jp-border-color1, #999999); }}"
    f".{ROOT} .{LINE} {{ stroke: var(--jp-border-color1, #777777); }}"
    f".{ROOT} .{STRONG} {{ stroke: {_FG}; }}"
    f".{ROOT} .{INK} {{ fill: {_FG}; }}"
    f".{ROOT} .{MARKED} {{ stroke: var(--jp-brand-color1, #0072B2); }}"
    f".{ROOT} .{FADE} {{ stroke: var(--jp-ui-font-color1, #555555); }}"
    f".{ROOT} .ra-veil {{ fill: var(--jp-layout-color0, #ffffff); }}"
    "</style>"
)


def classed(markup: str, cls: str) -> str:
    """Return `markup` with ``class="cls"`` added to its first element (a ``<rect``, a ``<text``)."""
    tag, _, rest = markup.partition(" ")
    return f'{tag} class="{cls}" {rest}' if cls else markup
