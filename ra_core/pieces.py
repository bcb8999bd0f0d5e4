"""The pieces of the board picture: tiles (shape, colour and word), suns, and the legend.

Tiles are told apart three ways, so the board works without colour: a shape per category, a
colour from a colour-blind-safe palette (Okabe and Ito), and a short word on the tile. Every
function returns SVG markup as text, byte-stable for the notebooks' comparisons.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import NamedTuple

from .tiles import CIVILIZATIONS, MONUMENTS, Tile
from .words import tile_name

__all__ = [
    "TILE_STYLES",
    "VERMILLION",
    "Html",
    "Svg",
    "TileStyle",
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
    """How a tile kind is drawn: its shape, fill and text colour, and the word on it."""

    shape: str
    fill: str
    ink: str
    word: str


# Okabe-Ito colours: distinguishable with the common colour-vision deficiencies.
VERMILLION, _PURPLE, _BLUE, _SKY, _YELLOW, _GREEN, _ORANGE = (
    "#D55E00", "#CC79A7", "#0072B2", "#56B4E9", "#F0E442", "#009E73", "#E69F00",
)  # fmt: skip
_WORDS = {
    Tile.RA: "Ra", Tile.GOD: "God", Tile.PHARAOH: "Phar", Tile.NILE: "Nile", Tile.FLOOD: "Flood",
    Tile.GOLD: "Gold", Tile.ART: "Art", Tile.AGRICULTURE: "Agri", Tile.RELIGION: "Relig",
    Tile.ASTRONOMY: "Astro", Tile.WRITING: "Write", Tile.FORTRESS: "Fort", Tile.OBELISK: "Obel",
    Tile.PALACE: "Palace", Tile.PYRAMID: "Pyra", Tile.SPHINX: "Sphinx", Tile.STATUE: "Statue",
    Tile.STEP_PYRAMID: "Steps", Tile.TEMPLE: "Temple", Tile.FUNERAL: "Funrl", Tile.DROUGHT: "Drght",
    Tile.UNREST: "Unrest", Tile.EARTHQUAKE: "Quake",
}  # fmt: skip


def _style(t: Tile) -> TileStyle:
    word = _WORDS[t]
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
        return TileStyle("circle", _YELLOW, "#000", word)
    if t in CIVILIZATIONS:
        return TileStyle("pentagon", _GREEN, "#fff", word)
    if t in MONUMENTS:
        return TileStyle("pyramid", _ORANGE, "#000", word)
    return TileStyle("octagon", "#222", "#fff", word)  # the four disasters


TILE_STYLES: dict[Tile, TileStyle] = {t: _style(t) for t in Tile}


#: The tiles that stay with a player until the end (R60), as on the left of a player board.
def _shape(shape: str, x: float, y: float, size: float, fill: str) -> str:
    """Return the SVG outline of `shape` in the box (x, y, size)."""
    h = size / 2
    cx, cy = x + h, y + h
    style = f'fill="{fill}" stroke="#000" stroke-width="1.5"'

    def poly(points: Sequence[tuple[float, float]]) -> str:
        return '<polygon points="' + " ".join(f"{px:.1f},{py:.1f}" for px, py in points) + f'" {style}/>'

    if shape == "square":
        return f'<rect x="{x + 2:.1f}" y="{y + 2:.1f}" width="{size - 4:.1f}" height="{size - 4:.1f}" {style}/>'
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
        return poly([(x + q, y + 2), (x + size - q, y + 2), (x + size - 1, cy), (x + size - q, y + size - 2),
                     (x + q, y + size - 2), (x + 1, cy)])  # fmt: skip
    if shape == "pentagon":
        return poly([(cx, y + 1), (x + size - 1, y + size * 0.4), (x + size - 4, y + size - 2),
                     (x + 4, y + size - 2), (x + 1, y + size * 0.4)])  # fmt: skip
    if shape == "pyramid":
        return poly(
            [(x + size * 0.3, y + 3), (x + size * 0.7, y + 3), (x + size - 1, y + size - 2), (x + 1, y + size - 2)]
        )
    if shape == "octagon":
        q = size * 0.29
        e = size - 1
        return poly([(x + q, y + 1), (x + size - q, y + 1), (x + e, y + q), (x + e, y + size - q),
                     (x + size - q, y + e), (x + q, y + e), (x + 1, y + size - q), (x + 1, y + q)])  # fmt: skip
    # "wave" and "wave2": a rectangle whose top edge is a wave (one or two crests)
    crests = 1 if shape == "wave" else 2
    step = (size - 4) / (2 * crests)
    d = f"M{x + 2:.1f},{y + size - 2:.1f} L{x + 2:.1f},{y + 6:.1f} "
    px = x + 2
    for i in range(2 * crests):
        dy = -5 if i % 2 == 0 else 5
        d += f"q{step / 2:.1f},{dy} {step:.1f},0 "
        px += step
    d += f"L{x + size - 2:.1f},{y + size - 2:.1f} Z"
    return f'<path d="{d}" {style}/>'


def tile_svg(t: Tile, x: float, y: float, size: float = 40, count: int = 0) -> str:
    """Return one tile as an SVG group: its shape, colour and word, with an ``aria-label``.

    `count` above 1 adds a badge with the number, for a player's pile of that kind.
    """
    st = TILE_STYLES[t]
    label = tile_name(t) if count <= 1 else f"{tile_name(t)}, {count} tiles"
    font = min(size * 0.3, size * 0.86 / (0.62 * len(st.word)))  # fit the word across the tile
    ty = y + size / 2 + font * 0.35 + (3 if st.shape == "pyramid" else 0)
    parts = [
        f'<g role="img" aria-label="{escape(label)}"><title>{escape(label)}</title>',
        _shape(st.shape, x, y, size, st.fill),
        f'<text x="{x + size / 2:.1f}" y="{ty:.1f}" font-size="{font:.1f}" text-anchor="middle" '
        f'font-weight="bold" fill="{st.ink}">{escape(st.word)}</text>',
    ]
    if count > 1:
        bx, by = x + size - 2, y + 3
        parts.append(
            f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="8" fill="#fff" stroke="#000"/>'
            f'<text x="{bx:.1f}" y="{by + 4:.1f}" font-size="11" text-anchor="middle" fill="#000">{count}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def sun_svg(value: int, cx: float, cy: float, r: float, face_up: bool, label: str = "") -> str:
    """Return a sun disk: face up is yellow with a solid rim, face down grey with a dashed rim."""
    label = label or f"sun {value}, face {'up' if face_up else 'down'}"
    fill, dash = ("#F0E442", "") if face_up else ("#bbbbbb", ' stroke-dasharray="3 2"')
    return (
        f'<g role="img" aria-label="{escape(label)}"><title>{escape(label)}</title>'
        f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{fill}" stroke="#000" stroke-width="1.5"{dash}/>'
        f'<text x="{cx:.1f}" y="{cy + r * 0.38:.1f}" font-size="{r * 1.05:.1f}" text-anchor="middle" '
        f'font-weight="bold" fill="#000">{value}</text></g>'
    )


def text_element(x: float, y: float, text: str, size: int = 13, weight: str = "normal", anchor: str = "start") -> str:
    """Return an SVG ``<text>`` element, its text escaped."""
    bold = ' font-weight="bold"' if weight == "bold" else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}"{bold} text-anchor="{anchor}" '
        f'fill="#000">{escape(text)}</text>'
    )


def svg_text(x: float, y: float, text: str, size: int = 13, weight: str = "normal", anchor: str = "middle") -> str:
    """Return an SVG ``<text>`` element (escaped), for pictures built from `tile_svg`."""
    return text_element(x, y, text, size, weight, anchor)


def legend(size: int = 36) -> Svg:
    """Return a key to the tiles: every kind with its shape, colour, word and name."""
    per_row = 8
    rows = (len(Tile) + per_row - 1) // per_row
    cell = size + 56
    w, h = per_row * cell, rows * (size + 26)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        f'font-family="sans-serif" role="group" aria-label="Key to the tiles"><title>Key to the tiles</title>'
    ]
    for k, t in enumerate(Tile):
        x, y = (k % per_row) * cell + 4, (k // per_row) * (size + 26) + 2
        out.append(tile_svg(t, x + (cell - size) / 2 - 4, y, size))
        out.append(text_element(x + cell / 2 - 4, y + size + 14, tile_name(t), 11, anchor="middle"))
    out.append("</svg>")
    return Svg("".join(out))
