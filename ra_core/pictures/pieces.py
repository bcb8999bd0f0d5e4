"""The pieces of the board picture: tiles (shape, colour and icon or name), suns, and the legend.

Tiles are told apart three ways, so the board works without colour: a shape per category, a
colour from a colour-blind-safe palette (Okabe and Ito), and an icon or the full name on the
tile (`ra_core.pictures.icons`); the full name is always in its tooltip. Every
function returns SVG markup as text, byte-stable for the notebooks' comparisons.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from html import escape
from typing import NamedTuple

from ..engine.actions import Action, Bid, CallRa, Discard, Done, Draw, Pass, UseGod
from ..engine.tiles import CIVILIZATIONS, MONUMENTS, Tile
from .icons import LABELS, WORD_TILES, icon_svg
from .narrate import join, tiles_words
from .theme import FADE, INK, MARKED, PANEL, ROOT, STYLE, classed
from .words import tile_name

__all__ = [
    "COUNT_FONT",
    "LOST",
    "MARK",
    "TILE_STYLES",
    "VERMILLION",
    "Controls",
    "Html",
    "Svg",
    "TileStyle",
    "bag_and_statue",
    "bag_svg",
    "button_svg",
    "frame",
    "key_svg",
    "legend",
    "loss_badge",
    "move_words",
    "outline",
    "ring",
    "statue_svg",
    "sun_svg",
    "svg_text",
    "target",
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
VERMILLION, _PURPLE, _BLUE, _SKY, _YELLOW, _GREEN, _ORANGE = (
    "#D55E00", "#CC79A7", "#0072B2", "#56B4E9", "#F0E442", "#009E73", "#E69F00",
)  # fmt: skip


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
        return poly([(x + 1, y + size - 2), (x + 1, y + e + 2), (x + e, y + e + 2), (x + e, y + 2),
                     (x + size - e, y + 2), (x + size - e, y + e + 2), (x + size - 1, y + e + 2),
                     (x + size - 1, y + size - 2)])  # fmt: skip
    if shape == "ingot":  # a gold bar seen from the side: wide at the bottom
        return poly([(x + size * 0.16, y + 4), (x + size * 0.84, y + 4), (x + size - 1, y + size - 3),
                     (x + 1, y + size - 3)])  # fmt: skip
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
    if shape == "octagon":
        q = size * 0.29
        e = size - 1
        return poly([(x + q, y + 1), (x + size - q, y + 1), (x + e, y + q), (x + e, y + size - q),
                     (x + size - q, y + e), (x + q, y + e), (x + 1, y + size - q), (x + 1, y + q)])  # fmt: skip
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

    Its number is black on either disk (11:1 on the grey, 15:1 on the yellow), in every theme.
    """
    label = label or f"sun {value}, face {'up' if face_up else 'down'}"
    fill, dash = ("#F0E442", "") if face_up else ("#bbbbbb", ' stroke-dasharray="3 2"')
    return (
        f'<g role="img" aria-label="{escape(label)}"><title>{escape(label)}</title>'
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


# -- the game table's controls: pieces that stand for an action -----------------------------


class Controls(NamedTuple):
    """What the deciding player may click on the board (the game table), and what is selected.

    Attributes:
        actions: the legal actions of the seat that decides now (one of the table's humans).
        god: whether a god tile is chosen, so that the auction slots take a click (R26).
        picked: the tiles selected so far to lose to a disaster (R53), in tile order.
        last: the seat and text of the move just made by another player (a bot), which the
            board marks: a ring around the sun bid or the slot filled, and words by the name.
    """

    actions: tuple[Action, ...]
    god: bool = False
    picked: tuple[Tile, ...] = ()
    last: tuple[int, str] | None = None  # another player's last move (seat, action text), to highlight

    def just_did(self, seat: int) -> str:
        """Return the action `seat` just made, if it is the move to highlight, else ""."""
        return self.last[1] if self.last is not None and self.last[0] == seat else ""

    def discards(self) -> list[tuple[Tile, ...]]:
        """Return the legal sets of tiles to lose that contain everything picked so far."""
        picked = Counter(self.picked)
        return [a.tiles for a in self.actions if isinstance(a, Discard) and not picked - Counter(a.tiles)]

    def can_pick(self, tile: Tile) -> bool:
        """Return whether one more `tile` can join the picked tiles in a legal loss."""
        return bool(self._replace(picked=tuple(sorted((*self.picked, tile)))).discards())

    def chosen(self) -> Discard | None:
        """Return the discard that the picked tiles make, if it is a legal one."""
        return next((a for a in self.actions if isinstance(a, Discard) and a.tiles == self.picked), None)

    def prompt(self) -> str:
        """Return what the deciding player may do now, naming only the legal choices and the step in progress.

        The status line of the notebook's table says it after "Your move: ": a god chosen waits
        for its slot, tiles picked to lose wait for Confirm, and "or pass" appears only when
        passing is legal (the Ra caller must bid when everybody else has passed, R40).
        """
        kinds = {type(a) for a in self.actions}
        if self.god:
            return "take a tile from the auction track with your god (or click your god tile again to cancel)"
        if Discard in kinds:
            if not self.picked:
                return "choose which tiles to lose"
            chosen = join(tiles_words(self.picked))
            return f"lose {chosen}: click Confirm" if self.chosen() else f"lose {chosen} and more: choose the rest"
        ways = [w for kind, w in ((Draw, "draw a tile"), (CallRa, "call Ra"), (UseGod, "use a god"),
                                  (Bid, "bid one of your face-up suns"), (Pass, "pass"),
                                  (Done, "be done")) if kind in kinds]  # fmt: skip
        if UseGod in kinds and Done in kinds:
            ways = ["use another god", "be done"]
        if Bid in kinds and Pass not in kinds:
            return "bid one of your face-up suns (you called Ra and everybody passed: you must bid)"
        if len(ways) > 2:
            return ", ".join(ways[:-1]) + ", or " + ways[-1]
        return " or ".join(ways)

    def hint(self) -> str:
        """Return where to click for each of the legal actions, as one sentence ("" if none).

        The notebook's board and the classroom's page say it in the same words.
        """
        kinds = {type(a) for a in self.actions}
        ways = []
        if Draw in kinds:
            ways.append("the bag to draw a tile")
        if CallRa in kinds:
            ways.append("the Ra statue to call Ra")
        if UseGod in kinds:
            ways.append("a tile on the auction track to take it" if self.god else "your god tile, then a slot")
        if Bid in kinds:
            ways.append("one of your framed suns to bid it")
        if Pass in kinds:
            ways.append("Pass")
        if Done in kinds:
            ways.append("Done to end your turn")
        if Discard in kinds:
            ways.append("Confirm" if self.chosen() else "the tiles you choose to lose, then Confirm")
        if not ways:
            return ""
        return "Click " + (", ".join(ways[:-1]) + ", or " + ways[-1] if len(ways) > 1 else ways[0]) + "."


def ring(cx: float, cy: float, r: float) -> str:
    """Return a thick vermillion ring (a dashed circle) that marks the piece a player just moved."""
    return (
        f'<circle class="ra-just" cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="none" stroke="{VERMILLION}" '
        'stroke-width="3" stroke-dasharray="6 3"/>'
    )


def move_words(action: str) -> str:
    """Return a move in a few words for the board: ``'just now: bid 9'``, ``'just now: passed'``."""
    verb, _, rest = action.partition(" ")
    words = {"draw": "drew a tile", "ra": "called Ra", "pass": "passed", "done": "done with gods"}
    if verb in words:
        return f"just now: {words[verb]}"
    if verb == "god":
        return f"just now: used a god (slot {rest})"
    return f"just now: {'lost ' + rest.replace(' ', ', ') if verb == 'discard' else action}"


def outline(x: float, y: float, colour: str, dashed: bool = False) -> str:
    """Return a thick frame around the 34-unit tile at (x, y): a chosen god (black, inside the blue `frame`)."""
    dash = ' stroke-dasharray="5 3"' if dashed else ""
    return (
        f'<rect x="{x - 2:.1f}" y="{y - 2:.1f}" width="38" height="38" fill="none" stroke="{colour}" '
        f'stroke-width="2.5"{dash}/>'
    )


#: The colour of the frame around every piece you may click now (`frame`): blue, the theme's own
#: blue where the page has one (`ra_core.pictures.theme.MARKED`), 3:1 or more against the paper and
#: the panels in the light and the dark theme.
MARK = "#0072B2"


def frame(x: float, y: float, width: float, height: float, round_: bool = False) -> str:
    """Return the mark of a piece you may click now: a blue frame around the box (x, y, width, height).

    It is drawn 4 units outside the box, so it frames the piece without covering it; with
    `round_`, the box's inscribed circle is framed instead (a sun). Every clickable piece has
    one, always, not only under the pointer: what you may click is visible at a glance.
    """
    if round_:
        r = width / 2 + 4
        return (
            f'<circle class="{MARKED}" cx="{x + width / 2:.1f}" cy="{y + height / 2:.1f}" r="{r:.1f}" fill="none" '
            f'stroke="{MARK}" stroke-width="3"/>'
        )
    return (
        f'<rect class="{MARKED}" x="{x - 4:.1f}" y="{y - 4:.1f}" width="{width + 8:.1f}" height="{height + 8:.1f}" '
        f'rx="6" fill="none" stroke="{MARK}" stroke-width="3"/>'
    )


def loss_badge(x: float, y: float, lost: int) -> str:
    """Return the mark of tiles chosen to lose, on the upper right corner of the 34-unit tile at (x, y): ``−1``.

    A vermillion label with black words (5:1), within the tile's own width and clear of the
    tile's picture, so that it crowds neither the pile's count under the tile nor a neighbour.
    """
    return (
        f'<rect class="ra-loss" x="{x + 15:.1f}" y="{y - 3:.1f}" width="22" height="15" rx="4" fill="{VERMILLION}" '
        f'stroke="#000" stroke-width="1"/>'
        + text_element(x + 26, y + 8.5, f"\u2212{lost}", 12, "bold", "middle", cls="")
    )


def target(
    markup: str, label: str, *, action: str = "", ui: str = "", pressed: bool | None = None, mark: str = ""
) -> str:
    """Return `markup` as a clickable piece of the board: a focusable button with an ``aria-label``.

    `action` is the text of the action a click plays (`ra_core.engine.actions` notation, e.g.
    ``"bid 9"``); `ui` names a step that only prepares one (``"god"``: choose a god first,
    ``"pick art"``: select a tile to lose). A front end turns a click, or Enter or Space on the
    focused piece, into that text; the board itself never changes the game. `mark` is the
    piece's `frame`, drawn under it: every piece you may click carries one.
    """
    data = f' data-action="{escape(action)}"' if action else f' data-ui="{escape(ui)}"'
    state = "" if pressed is None else f' aria-pressed="{str(pressed).lower()}"'
    return (
        f'<g class="ra-target" role="button" tabindex="0" aria-label="{escape(label)}"{data}{state}>'
        f"<title>{escape(label)}</title>{mark}{markup}</g>"
    )


def button_svg(x: float, y: float, width: float, text: str, fill: str = "#ffffff") -> str:
    """Return a labelled button shape (a rounded box with its word, 13 px bold).

    A white button follows the theme (`ra_core.pictures.theme.PANEL`); a coloured one keeps its colour and black ink.
    """
    plain = fill == "#ffffff"
    box = (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="26" rx="6" fill="{fill}" stroke="#000" '
        'stroke-width="1.5"/>'
    )
    return classed(box, PANEL if plain else "") + text_element(
        x + width / 2, y + 18, text, 13, "bold", "middle", cls=INK if plain else ""
    )


#: How much of a pile chosen to lose entirely still shows (its "−n" mark says why): faint, yet its label keeps
#: 3:1 against the tile in the dark theme too (at 0.35 a label fell to 2.3:1 on the dark paper).
LOST = 0.55

#: How a piece that is not a choice now is drawn (the bag, the Ra statue): its outline only, dashed,
#: in the theme's second ink (`ra_core.pictures.theme.FADED`), no fill; its words in the theme's ink.
#: Both keep 3:1 or more against the paper in the light and the dark theme, where a faded colour
#: would not (the old 30% opacity fell to about 1.5:1 on the dark paper).
FADED = 'fill="none" stroke="#555555" stroke-width="1.5" stroke-dasharray="4 3"'


def _drawn(fill: str, faded: bool) -> str:
    """Return the attributes of one shape of a control: its `fill` with a black outline, or `FADED` (class `FADE`)."""
    return f'class="{FADE}" {FADED}' if faded else f'fill="{fill}" stroke="#000" stroke-width="1.5"'


def bag_svg(x: float, y: float, count: int, faded: bool = False) -> str:
    """Return the cloth bag (a sack with its tie) and how many tiles are left in it; `faded`: not a choice now."""
    return (
        f'<g><path d="M{x + 14:.1f},{y + 14:.1f} C{x - 2:.1f},{y + 30:.1f} {x + 2:.1f},{y + 56:.1f} {x + 28:.1f},'
        f'{y + 56:.1f} C{x + 54:.1f},{y + 56:.1f} {x + 58:.1f},{y + 30:.1f} {x + 42:.1f},{y + 14:.1f} Z" '
        f"{_drawn('#c8a165', faded)}/>"
        f'<path d="M{x + 14:.1f},{y + 14:.1f} L{x + 10:.1f},{y + 4:.1f} L{x + 46:.1f},{y + 4:.1f} '
        f'L{x + 42:.1f},{y + 14:.1f} Z" {_drawn("#b08850", faded)}/></g>'
        + text_element(x + 28, y + 40, str(count), 14, "bold", "middle", cls=INK if faded else "")
        + _label(x + 28, y + 72, "Draw")
    )


def _label(x: float, y: float, text: str) -> str:
    """Return the word under a control, on the board's paper (the theme recolours its ink)."""
    return text_element(x, y, text, 12, "bold", "middle")


def statue_svg(x: float, y: float, faded: bool = False) -> str:
    """Return the Ra statue (a figure with a sun disk on its head), to call Ra; `faded`: not a choice now."""
    return (
        f'<g><circle cx="{x + 28:.1f}" cy="{y + 12:.1f}" r="10" {_drawn(VERMILLION, faded)}/>'
        f'<path d="M{x + 20:.1f},{y + 24:.1f} L{x + 36:.1f},{y + 24:.1f} L{x + 42:.1f},{y + 56:.1f} '
        f'L{x + 14:.1f},{y + 56:.1f} Z" {_drawn("#e8c872", faded)}/></g>'
        + text_element(x + 28, y + 48, "Ra", 13, "bold", "middle", cls=INK if faded else "")
        + _label(x + 28, y + 72, "Call Ra")
    )


def bag_and_statue(bag: int, actions: Sequence[Action], x_bag: float, x_statue: float, y: float) -> list[str]:
    """Return the bag of `bag` tiles (click: draw) and the Ra statue (click: call Ra): framed if a choice, or faded."""
    out = []
    for kind, x, label, verb in ((Draw, x_bag, "Draw a tile", "draw"), (CallRa, x_statue, "Call Ra", "ra")):
        live = any(isinstance(a, kind) for a in actions)
        markup = bag_svg(x, y, bag, not live) if kind is Draw else statue_svg(x, y, not live)
        if live:
            out.append(target(markup, label, action=verb, mark=frame(x, y, 56, 78)))
        else:
            out.append(f'<g role="img" aria-label="{escape(label)}: not now">{markup}</g>')
    return out
