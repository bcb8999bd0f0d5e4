"""The pieces of the board picture: tiles (shape, colour and icon or name), suns, and the legend.

Tiles are told apart three ways, so the board works without colour: a shape per category, a
colour from a colour-blind-safe palette (Okabe and Ito), and an icon or the full name on the
tile (`ra_core.pictures.icons`); the full name is always in its tooltip. Every
function returns SVG markup as text, byte-stable for the notebooks' comparisons.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from html import escape
from typing import NamedTuple

from ..engine.tiles import CIVILIZATIONS, MONUMENTS, Tile
from .icons import LABELS, WORD_TILES, icon_svg
from .theme import INK, ROOT, STYLE
from .words import tile_name

__all__ = [
    "COUNT_FONT",
    "TILE_STYLES",
    "VERMILLION",
    "Html",
    "Svg",
    "TileStyle",
    "key_svg",
    "legend",
    "sun_svg",
    "svg_text",
    "text_element",
    "tile_svg",
]


# -- displayable strings -------------------------------------------------------------------


class Svg(str):
    """An SVG document that a notebook shows as a picture (python-chess's ``SvgWrapper``)."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


class Html(str):
    """An HTML fragment that a notebook shows rendered."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        return str(self)


# -- tiles: shape, colour and word ---------------------------------------------------------


class TileStyle(NamedTuple):
    """How a tile kind is drawn: its shape, fill and ink colour, and the word on it ("" for an icon)."""

    shape: str
    fill: str
    ink: str
    word: str


# Okabe-Ito colours: distinguishable with the common colour-vision deficiencies. Each ink is the
# one of black and white with the higher contrast on its fill.
VERMILLION = "#D55E00"
_PURPLE = "#CC79A7"
_BLUE = "#0072B2"
_SKY = "#56B4E9"
_YELLOW = "#F0E442"
_GREEN = "#009E73"
_ORANGE = "#E69F00"


def _style(t: Tile) -> TileStyle:
    word = WORD_TILES.get(t, "")
    if t is Tile.RA:
        return TileStyle("sun", VERMILLION, "#000", word)
    if t is Tile.GOD:
        return TileStyle("hexagon", _PURPLE, "#000", word)
    if t is Tile.PHARAOH:
        return TileStyle("square", _BLUE, "#fff", word)
    if t is Tile.NILE:
        return TileStyle("wave", _SKY, "#000", word)
    if t is Tile.FLOOD:
        return TileStyle("wave2", _SKY, "#000", word)
    if t is Tile.GOLD:
        return TileStyle("ingot", _YELLOW, "#000", word)
    if t in CIVILIZATIONS:
        return TileStyle("pentagon", _GREEN, "#000", word)
    if t in MONUMENTS:
        return TileStyle("monument", _ORANGE, "#000", word)
    return TileStyle("octagon", "#222", "#fff", word)  # the four disasters


TILE_STYLES: dict[Tile, TileStyle] = {t: _style(t) for t in Tile}

#: Where the picture sits in each shape (its centre, a fraction of the tile down from the tile's
#: top) and how much of the tile it fills, above the label: lower and smaller under a pointed or
#: wavy top.
_PLACE = {"pentagon": (0.4, 0.46), "wave": (0.42, 0.42), "wave2": (0.42, 0.42), "monument": (0.36, 0.5)}
#: Where a label may run in each shape, as a fraction of the tile's width (the bottom of the shape).
_ROOM = {"octagon": 0.66, "pentagon": 0.72}
LABELLED = 30  #: the smallest tile (in the picture's units) that carries its label; smaller ones are in a key
COUNT_FONT = 13  #: the size of a pile's count under its tile, in the picture's units


def _shape(shape: str, x: float, y: float, size: float, fill: str) -> str:
    """Return the SVG outline of `shape` in the box (x, y, size)."""
    h = size / 2
    cx, cy = x + h, y + h
    style = f'fill="{fill}" stroke="#000" stroke-width="1.5"'

    def poly(points: Sequence[tuple[float, float]]) -> str:
        return '<polygon points="' + " ".join(f"{px:.1f},{py:.1f}" for px, py in points) + f'" {style}/>'

    if shape == "square":
        return f'<rect x="{x + 2:.1f}" y="{y + 2:.1f}" width="{size - 4:.1f}" height="{size - 4:.1f}" {style}/>'
    if shape == "monument":  # a block with stepped shoulders: a building's outline
        e = size * 0.2
        return poly(
            [
                (x + 1, y + size - 2),
                (x + 1, y + e + 2),
                (x + e, y + e + 2),
                (x + e, y + 2),
                (x + size - e, y + 2),
                (x + size - e, y + e + 2),
                (x + size - 1, y + e + 2),
                (x + size - 1, y + size - 2),
            ]
        )
    if shape == "ingot":  # a gold bar seen from the side: wide at the bottom
        return poly(
            [(x + size * 0.16, y + 4), (x + size * 0.84, y + 4), (x + size - 1, y + size - 3), (x + 1, y + size - 3)]
        )
    if shape in ("circle", "sun"):
        rays = ""
        if shape == "sun":
            rays = (
                f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{h - 1:.1f}" fill="none" stroke="#000" '
                'stroke-dasharray="2 3"/>'
            )
        return rays + f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{h - 4:.1f}" {style}/>'
    if shape == "hexagon":
        q = size / 4
        return poly(
            [
                (x + q, y + 2),
                (x + size - q, y + 2),
                (x + size - 1, cy),
                (x + size - q, y + size - 2),
                (x + q, y + size - 2),
                (x + 1, cy),
            ]
        )
    if shape == "pentagon":
        return poly(
            [
                (cx, y + 1),
                (x + size - 1, y + size * 0.4),
                (x + size - 4, y + size - 2),
                (x + 4, y + size - 2),
                (x + 1, y + size * 0.4),
            ]
        )
    if shape == "octagon":
        q = size * 0.29
        e = size - 1
        return poly(
            [
                (x + q, y + 1),
                (x + size - q, y + 1),
                (x + e, y + q),
                (x + e, y + size - q),
                (x + size - q, y + e),
                (x + q, y + e),
                (x + 1, y + size - q),
                (x + 1, y + q),
            ]
        )
    # "wave" and "wave2": a rectangle whose top edge is a wave (one or two crests)
    crests = 1 if shape == "wave" else 2
    step = (size - 4) / (2 * crests)
    d = f"M{x + 2:.1f},{y + size - 2:.1f} L{x + 2:.1f},{y + 6:.1f} "
    for i in range(2 * crests):
        dy = -5 if i % 2 == 0 else 5
        d += f"q{step / 2:.1f},{dy} {step:.1f},0 "
    d += f"L{x + size - 2:.1f},{y + size - 2:.1f} Z"
    return f'<path d="{d}" {style}/>'


@lru_cache(maxsize=8192)  # a board draws the same tiles at the same places again and again: drawn once each
def tile_svg(t: Tile, x: float, y: float, size: float = 40, count: int = 0, fewest: int = 2) -> str:
    """Return one tile as an SVG group: its shape, colour and icon (or short name), with its full name.

    The full name is the group's ``<title>`` (a tooltip) and ``aria-label``. A `count` of at
    least `fewest` (2: a pile) adds the number of tiles (``×3``) under the tile, centred inside
    the tile's own width, so that it never covers a neighbour.
    """
    st = TILE_STYLES[t]
    label = tile_name(t) if count <= 1 else f"{tile_name(t)}, {count} tiles"
    h = size / 2
    parts = [
        f'<g role="img" aria-label="{escape(label)}"><title>{escape(label)}</title>',
        _shape(st.shape, x, y, size, st.fill),
    ]
    if st.word:
        font = size * 0.36  # "God" fits the hexagon; 12 units on the board's 34-unit tiles
        parts.append(
            f'<text x="{x + h:.1f}" y="{y + h + font * 0.36:.1f}" font-size="{font:.1f}" text-anchor="middle" '
            f'font-weight="bold" fill="{st.ink}">{escape(st.word)}</text>'
        )
    elif size >= LABELLED:  # the icon above, the kind's short label under it
        down, part = _PLACE.get(st.shape, (0.36, 0.5))
        parts.append(icon_svg(t, x + h, y + down * size, part * size / 20, st.ink, st.fill))
        parts.append(_tile_label(LABELS[t], x + h, y + size * 0.88, size, st.ink, size * _ROOM.get(st.shape, 0.84)))
    else:
        parts.append(icon_svg(t, x + h, y + h, 0.62 * size / 20, st.ink, st.fill))
    if count >= max(1, fewest):
        parts.append(
            f'<text class="ra-count {INK}" x="{x + h:.1f}" y="{y + size + COUNT_FONT:.1f}" font-size="{COUNT_FONT}" '
            f'text-anchor="middle" font-weight="bold" fill="#000">\u00d7{count}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


#: The width of a bold letter of the board's sans-serif font, as a fraction of its size (on average over a word).
LETTER = 0.62


def _tile_label(word: str, cx: float, y: float, size: float, ink: str, room: float) -> str:
    """Return a tile's short label centred at (cx, y): a third of the tile tall, narrowed to fit `room` if need be."""
    font = size * 0.34
    fit = f' textLength="{room:.1f}" lengthAdjust="spacingAndGlyphs"' if LETTER * font * len(word) > room else ""
    return (
        f'<text x="{cx:.1f}" y="{y:.1f}" font-size="{font:.1f}" text-anchor="middle" font-weight="bold" '
        f'fill="{ink}"{fit}>{escape(word)}</text>'
    )


@lru_cache(maxsize=4096)
def sun_svg(value: int, cx: float, cy: float, r: float, face_up: bool, label: str = "") -> str:
    """Return a sun disk: face up is yellow with a solid rim, face down grey with a dashed rim.

    Its number is black on either disk (11:1 on the grey, 15:1 on the yellow), in every theme. The
    disk carries its number as ``data-sun`` too: a stray click on it names the sun by number, so
    that the refusal says why it is no choice (`ra_core.table.judge`) whatever its label's words.
    """
    label = label or f"sun {value}, face {'up' if face_up else 'down'}"
    fill, dash = ("#F0E442", "") if face_up else ("#bbbbbb", ' stroke-dasharray="3 2"')
    return (
        f'<g role="img" aria-label="{escape(label)}" data-sun="{value}"><title>{escape(label)}</title>'
        f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{fill}" stroke="#000" stroke-width="1.5"{dash}/>'
        f'<text x="{cx:.1f}" y="{cy + r * 0.38:.1f}" font-size="{r * 1.05:.1f}" text-anchor="middle" '
        f'font-weight="bold" fill="#000">{value}</text></g>'
    )


@lru_cache(maxsize=8192)
def text_element(
    x: float,
    y: float,
    text: str,
    size: int = 13,
    weight: str = "normal",
    anchor: str = "start",
    ink: str = "#000",
    cls: str = INK,
) -> str:
    """Return an SVG ``<text>`` element, its text escaped; ``ink="currentColor"`` takes the page's text colour.

    Words on the paper carry the class `ra_core.pictures.theme.INK` (the theme's text colour); words on a
    piece of fixed colour (the bag, a yellow button) pass ``cls=""`` and keep `ink`.
    """
    bold = ' font-weight="bold"' if weight == "bold" else ""
    kind = f' class="{cls}"' if cls else ""
    return (
        f'<text{kind} x="{x:.1f}" y="{y:.1f}" font-size="{size}"{bold} text-anchor="{anchor}" '
        f'fill="{ink}">{escape(text)}</text>'
    )


def svg_text(
    x: float, y: float, text: str, size: int = 13, weight: str = "normal", anchor: str = "middle", ink: str = "#000"
) -> str:
    """Return an SVG ``<text>`` element (escaped), for pictures built from `tile_svg`.

    Words on no background of their own (beside tiles, in a notebook) should use
    ``ink="currentColor"``, so that they follow the notebook's theme, dark or light.
    """
    return text_element(x, y, text, size, weight, anchor, ink)


def legend(size: int = 36) -> Svg:
    """Return a key to the tiles: every kind with its shape, colour, word and name."""
    per_row = 8
    rows = (len(Tile) + per_row - 1) // per_row
    cell = size + 56
    w, h = per_row * cell, rows * (size + 26)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{ROOT}" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        f'font-family="sans-serif" role="group" aria-label="Key to the tiles"><title>Key to the tiles</title>{STYLE}'
    ]
    for k, t in enumerate(Tile):
        x, y = (k % per_row) * cell + 4, (k // per_row) * (size + 26) + 2
        out.append(tile_svg(t, x + (cell - size) / 2 - 4, y, size))
        out.append(text_element(x + cell / 2 - 4, y + size + 14, tile_name(t), 12, anchor="middle"))
    out.append("</svg>")
    return Svg("".join(out))


#: The key's entries: a mini tile and its name, `KEY_COLUMNS` to a row of the board.
KEY_COLUMNS, KEY_ROW = 7, 26


def key_svg(kinds: Sequence[Tile], x: float, y: float, width: float) -> tuple[str, int]:
    """Return a key to the tile kinds `kinds` that carry an icon, and the rows it takes.

    Each entry is the kind's tile (22 units) and its name, `KEY_COLUMNS` to a row; the kinds
    whose name is written on the tile itself (`WORD_TILES`: Ra, God, Art) need no entry.
    """
    shown = [t for t in kinds if t not in WORD_TILES]
    step = width / KEY_COLUMNS
    out = []
    for k, t in enumerate(shown):
        ex, ey = x + (k % KEY_COLUMNS) * step, y + (k // KEY_COLUMNS) * KEY_ROW
        out.append(tile_svg(t, ex, ey, 22))
        out.append(text_element(ex + 26, ey + 15, tile_name(t), 12))
    return "".join(out), (len(shown) + KEY_COLUMNS - 1) // KEY_COLUMNS
