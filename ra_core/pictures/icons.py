"""Pictures on the tiles: one small icon per kind, so that every tile reads at any size.

A tile is too small for most of its names at a legible size ("Agriculture" would need a font
of 5 px on a 30 px tile), and cut names ("Agri", "Drght") are riddles. So each kind carries a
picture of what it is: a crown for the pharaoh, a wheat ear for agriculture, an ankh for
religion, the monument's own silhouette, a coffin for the funeral. The short names that fit
at 10 px or more stay words: "Ra", "God" and "Art" (see `WORD_TILES`). The full name is in
every tile's ``<title>`` and ``aria-label`` (`ra_core.pictures.pieces.tile_svg`), and in the key
(`ra_core.pictures.pieces.legend`).

Each icon is drawn in a 20 x 20 box centred on (0, 0), in the tile's ink, with holes in the
tile's fill; standard library only, byte-stable.
"""

from __future__ import annotations

from ..engine.tiles import Tile

__all__ = ["LABELS", "WORD_TILES", "icon_svg"]

#: The kinds whose full name is short enough to be written on the tile itself, large, in place of an icon.
WORD_TILES: dict[Tile, str] = {Tile.RA: "Ra", Tile.GOD: "God", Tile.ART: "Art"}

#: The short label written under the icon of every other kind, so that each kind is told apart
#: without the key (not by its colour alone: the eight monuments share theirs): the name itself
#: when it has at most 7 letters, else the head of the name, cut where it still reads as the word.
LABELS: dict[Tile, str] = {
    Tile.PHARAOH: "Pharaoh",
    Tile.NILE: "Nile",
    Tile.FLOOD: "Flood",
    Tile.GOLD: "Gold",
    Tile.AGRICULTURE: "Agri.",
    Tile.RELIGION: "Relig.",
    Tile.ASTRONOMY: "Astro.",
    Tile.WRITING: "Writing",
    Tile.FORTRESS: "Fortress",
    Tile.OBELISK: "Obelisk",
    Tile.PALACE: "Palace",
    Tile.PYRAMID: "Pyramid",
    Tile.SPHINX: "Sphinx",
    Tile.STATUE: "Statue",
    Tile.STEP_PYRAMID: "Step",
    Tile.TEMPLE: "Temple",
    Tile.FUNERAL: "Funeral",
    Tile.DROUGHT: "Drought",
    Tile.UNREST: "Unrest",
    Tile.EARTHQUAKE: "Quake",
}


def _poly(points: str) -> str:
    return f'<polygon points="{points}"/>'


def _hole(markup: str) -> str:
    """Return `markup` drawn in the tile's own fill (a window, a door, a face)."""
    return f'<g fill="{{back}}">{markup}</g>'


def _lines(d: str, width: float = 2) -> str:
    return f'<path d="{d}" fill="none" stroke="{{ink}}" stroke-width="{width}" stroke-linecap="round"/>'


_WAVE = "q2,-3 4,0 t4,0 t4,0 t4,0"
_ICONS: dict[Tile, str] = {
    # a crown
    Tile.PHARAOH: _poly("-8,7 -9,-6 -4,-1 0,-8 4,-1 9,-6 8,7"),
    # a river: two waves; the flood: a drop over a wave
    Tile.NILE: _lines(f"M-8,-3 {_WAVE} M-8,4 {_WAVE}"),
    Tile.FLOOD: '<path d="M0,-9 C3,-5 5,-2 5,0 A5,5 0 0 1 -5,0 C-5,-2 -3,-5 0,-9 Z"/>' + _lines(f"M-8,8 {_WAVE}"),
    # a gold bar
    Tile.GOLD: _poly("-8,5 8,5 5,-3 -5,-3") + _lines("M-3,-0.5 L3,-0.5", 1.2).replace("{ink}", "{back}"),
    # a wheat ear
    Tile.AGRICULTURE: _lines("M0,9 L0,-9")
    + "".join(
        f'<ellipse cx="{side * 2.6}" cy="{y}" rx="1.7" ry="3.2" transform="rotate({side * 35} {side * 2.6} {y})"/>'
        for y in (-5, -0.5, 4)
        for side in (-1, 1)
    ),
    # an ankh
    Tile.RELIGION: '<ellipse cx="0" cy="-5" rx="3.2" ry="4" fill="none" stroke="{ink}" stroke-width="2.4"/>'
    + _lines("M0,-1 L0,9 M-6.5,1.5 L6.5,1.5", 2.4),
    # a star
    Tile.ASTRONOMY: _poly("0,-9.5 2.3,-3.2 9,-3 3.7,1.2 5.6,8 0,4.1 -5.6,8 -3.7,1.2 -9,-3 -2.3,-3.2"),
    # a written page
    Tile.WRITING: '<rect x="-6.5" y="-9" width="13" height="18" rx="1"/>'
    + _lines("M-4,-5 L4,-5 M-4,-1 L4,-1 M-4,3 L2,3", 1.6).replace("{ink}", "{back}"),
    # monuments: their silhouettes
    Tile.FORTRESS: _poly("-9,8 -9,-6 -6,-6 -6,-3 -2,-3 -2,-6 2,-6 2,-3 6,-3 6,-6 9,-6 9,8")
    + _hole('<path d="M-2.5,8 L-2.5,3 A2.5,2.5 0 0 1 2.5,3 L2.5,8 Z"/>'),
    Tile.OBELISK: _poly("0,-10 2.5,-6 3.5,7 -3.5,7 -2.5,-6") + '<rect x="-6" y="7" width="12" height="2"/>',
    Tile.PALACE: '<rect x="-9" y="-3" width="18" height="11"/><rect x="-10" y="-5" width="20" height="2"/>'
    + _lines("M0,-5 L0,-10", 1.2)
    + _poly("0,-10 5,-8.5 0,-7")
    + _hole(
        '<rect x="-7" y="0" width="3" height="3"/><rect x="4" y="0" width="3" height="3"/>'
        '<rect x="-1.5" y="2" width="3" height="6"/>'
    ),
    Tile.PYRAMID: _poly("0,-9 10,8 -10,8") + _lines("M0,-9 L3,8", 1).replace("{ink}", "{back}"),
    Tile.SPHINX: '<path d="M-10,8 L-10,3 Q-10,1 -7,1 L3,1 L3,-5 Q3,-9 6,-9 Q9,-9 9,-5 L9,1 L10.5,5 L10.5,8 Z"/>'
    + _hole('<circle cx="6" cy="-5" r="1.2"/>'),
    Tile.STATUE: '<circle cx="0" cy="-7" r="2.6"/>'
    + _poly("-3.5,-3.5 3.5,-3.5 2.5,5 -2.5,5")
    + '<rect x="-6" y="5.5" width="12" height="3.5"/>',
    Tile.STEP_PYRAMID: _poly(
        "-10,8 -10,4 -7,4 -7,0 -4,0 -4,-4 -1.5,-4 -1.5,-8 1.5,-8 1.5,-4 4,-4 4,0 7,0 7,4 10,4 10,8"
    ),
    Tile.TEMPLE: _poly("-10,-4 0,-10 10,-4")
    + '<rect x="-9" y="-3.5" width="18" height="2"/><rect x="-10" y="6.5" width="20" height="2.5"/>'
    + "".join(f'<rect x="{x}" y="-1" width="2.4" height="7.5"/>' for x in (-7.7, -3.2, 0.8, 5.3)),
    # disasters
    Tile.FUNERAL: '<path d="M-3,-9.5 L3,-9.5 L6.5,-4 L3.5,9.5 L-3.5,9.5 L-6.5,-4 Z" fill="none" stroke="{ink}" '
    'stroke-width="2"/>' + _lines("M0,-6 L0,4 M-3,-2 L3,-2", 1.6),
    Tile.DROUGHT: '<circle cx="0" cy="-2" r="4"/>'
    + _lines(
        "M0,-9.5 L0,-7.5 M7.5,-2 L5.5,-2 M-7.5,-2 L-5.5,-2 M5.3,-7.3 L4,-6 M-5.3,-7.3 L-4,-6 "
        "M-9,7 L-2,7 L0,9 L2,7 L9,7",
        1.6,
    ),
    Tile.UNREST: _lines("M-7,-8 L6,6 M7,-8 L-6,6", 2) + _lines("M2.5,7.5 L7.5,3.5 M-2.5,7.5 L-7.5,3.5", 2),
    Tile.EARTHQUAKE: _lines("M-1,-9.5 L2.5,-4 L-2,0 L2.5,4.5 L-0.5,9.5", 2.2)
    + _lines("M-9.5,0 L-4.5,0 M4.5,-2 L9.5,-2", 2),
}


def icon_svg(t: Tile, cx: float, cy: float, scale: float, ink: str, back: str) -> str:
    """Return the icon of `t` centred on (cx, cy), `scale` times its 20-unit box, in `ink` on `back`.

    Kinds in `WORD_TILES` have no icon (their name is written instead): the result is "".
    """
    if t not in _ICONS:
        return ""
    body = _ICONS[t].replace("{ink}", ink).replace("{back}", back)
    return f'<g transform="translate({cx:.1f} {cy:.1f}) scale({scale:.3f})" fill="{ink}">{body}</g>'
