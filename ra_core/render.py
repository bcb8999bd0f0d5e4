"""Rendering a position: the names that old code and notebooks import, from where they now live.

* `ra_core.textboard.text_board`: the plain-text board (`str(state)`).
* `ra_core.words`: the facts in words, names, scores as text.
* `ra_core.svg`: the SVG board, its HTML with the text twin, score tables.
"""

from __future__ import annotations

from .svg import TILE_STYLES, Html, Svg, html, legend, scores_html, svg, svg_text, tile_svg
from .textboard import text_board
from .words import KEPT, SCORED_EACH_EPOCH, facts, owed_words, player_name, scores_text, seat_set, signed, tile_name

__all__ = [
    "KEPT",
    "TILE_STYLES",
    "SCORED_EACH_EPOCH",
    "Html",
    "Svg",
    "facts",
    "html",
    "legend",
    "owed_words",
    "player_name",
    "scores_html",
    "scores_text",
    "seat_set",
    "signed",
    "svg",
    "svg_text",
    "text_board",
    "tile_name",
    "tile_svg",
]
