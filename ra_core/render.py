"""Rendering a position: a plain-text board, an SVG board, and the same facts in words.

Everything here is a pure function of a `State` (standard library only) and its output is
byte-stable: no dates, no random ids, no memory addresses, so notebooks can compare it.

* `text_board`: compact and stable, for terminals, doctests and golden files.
* `svg`: a picture of the board (`Svg`, which displays itself in a notebook).
* `facts`: the text twin of the picture, one plain sentence per fact, for screen readers,
  for printing and for tests.
* `html`: the picture and its text twin together; ``State._repr_html_`` shows this.

Tiles are told apart three ways, so the board works without colour: a shape per category,
a colour from a colour-blind-safe palette (Okabe and Ito), and a short word on the tile.

>>> from ra_core import new_game
>>> for line in facts(new_game(3, suns="table"))[:3]:
...     print(line)
Epoch 1 of 3: P0 takes a turn (draw, call Ra or use a god).
Ra track: 0 of 8 Ra tiles drawn; the 8th ends the epoch.
Center sun: 1.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from html import escape
from typing import TYPE_CHECKING, NamedTuple

from .records import Phase, Trigger
from .rules import EPOCHS, TRACK_SIZE
from .state import DISPLAYS
from .textboard import text_board
from .tiles import CIVILIZATIONS, MONUMENTS, Tile

if TYPE_CHECKING:
    from .records import Player
    from .scoring import EpochScore
    from .state import State

__all__ = [
    "KEPT",
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
_VERMILLION, _PURPLE, _BLUE, _SKY, _YELLOW, _GREEN, _ORANGE = (
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
        return TileStyle("sun", _VERMILLION, "#000", word)
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
KEPT: tuple[Tile, ...] = (Tile.PHARAOH, Tile.NILE, *MONUMENTS)
#: The tiles scored and then discarded at the end of every epoch (R60), on the right.
SCORED_EACH_EPOCH: tuple[Tile, ...] = (Tile.GOD, Tile.GOLD, Tile.FLOOD, *CIVILIZATIONS)

_NAMES = {Tile.NILE: "Nile", Tile.RA: "Ra"}


def owed_words(owed: Sequence[tuple[Tile, int]]) -> str:
    """Return the discards still owed in words: ``'2 to unrest and 1 to earthquake'`` (R53)."""
    return " and ".join(f"{n} to {tile_name(kind)}" for kind, n in owed)


def tile_name(t: Tile) -> str:
    """Return the tile's name in words: ``'step pyramid'``, ``'Nile'``."""
    return _NAMES.get(t, t.label.replace("-", " "))


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


def _sun_svg(value: int, cx: float, cy: float, r: float, face_up: bool, label: str = "") -> str:
    """Return a sun disk: face up is yellow with a solid rim, face down grey with a dashed rim."""
    label = label or f"sun {value}, face {'up' if face_up else 'down'}"
    fill, dash = ("#F0E442", "") if face_up else ("#bbbbbb", ' stroke-dasharray="3 2"')
    return (
        f'<g role="img" aria-label="{escape(label)}"><title>{escape(label)}</title>'
        f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{fill}" stroke="#000" stroke-width="1.5"{dash}/>'
        f'<text x="{cx:.1f}" y="{cy + r * 0.38:.1f}" font-size="{r * 1.05:.1f}" text-anchor="middle" '
        f'font-weight="bold" fill="#000">{value}</text></g>'
    )


# -- the facts in words ----------------------------------------------------------------------


def player_name(seat: int, you: Collection[int] = (), names: Sequence[str] = ()) -> str:
    """Return ``'P1'``, ``'P1 (you)'`` or ``'P1 (greedy)'`` for the seat."""
    if seat in you:
        return f"P{seat} (you)"
    if 0 <= seat < len(names) and names[seat]:
        return f"P{seat} ({names[seat]})"
    return f"P{seat}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _tiles_words(display: tuple[int, ...], kinds: Sequence[Tile]) -> str:
    return ", ".join(f"{tile_name(t)} {display[t]}" for t in kinds if display[t]) or "none"


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(f"P{q}" for q in seats) or "nobody"


_TRIGGER_WORDS = {
    Trigger.RA_TILE: "a Ra tile was drawn",
    Trigger.CALL_VOLUNTARY: "Ra was called",
    Trigger.CALL_FORCED: "Ra was called on a full track",
}


def seat_set(you: int | Collection[int] | None) -> Collection[int]:
    """Return the seats `you` names (one seat, several, or None) as a collection."""
    if you is None:
        return ()
    if isinstance(you, int):
        return (you,)
    return tuple(you)


def facts(s: State, *, you: int | Collection[int] | None = None, names: Sequence[str] = ()) -> list[str]:
    """Return the board as plain sentences, one fact each: the text twin of `svg`.

    Args:
        s: the position.
        you: the seat (or seats) to mark "(you)".
        names: a name per seat, e.g. the bots' names.
    """
    me = seat_set(you)

    def who(q: int) -> str:
        return player_name(q, me, names)

    lines = []
    over = s.phase is Phase.GAME_OVER
    if over:
        w = s.winner() or 0
        lines.append(f"Game over after epoch {EPOCHS}: {who(w)} wins with {s.players[w].fame} fame.")
    else:
        if s.phase is Phase.ACTION:
            doing = f"{who(s.turn_player)} takes a turn (draw, call Ra or use a god)."
        elif s.phase is Phase.REVEAL:
            doing = f"{who(s.turn_player)} draws a tile from the bag."
        elif s.phase is Phase.GODS:
            doing = f"{who(s.turn_player)} may use another god or be done."
        elif s.phase is Phase.BID:
            doing = f"auction: {who(s.to_move)} bids or passes."
        else:
            doing = f"{who(s.to_move)} chooses tiles to lose to a disaster."
        lines.append(f"Epoch {s.epoch} of {EPOCHS}: {doing}")
        limit = s.rules.ra_limit
        lines.append(f"Ra track: {s.ra_count} of {limit} Ra tiles drawn; the {_ordinal(limit)} ends the epoch.")
    lines.append(f"Center sun: {s.center_sun}.")
    if not over:
        on_track = [f"slot {i + 1} {tile_name(t)}" for i, t in enumerate(s.track) if t is not None]
        count = len(on_track)
        lines.append(f"Auction track, {count} of {TRACK_SIZE} slots filled: {', '.join(on_track) or 'empty'}.")
        lines.append(f"Bag: {sum(s.bag)} tiles.")
        turn = f"Turn: {who(s.turn_player)}."
        if s.to_move >= 0 and s.to_move != s.turn_player:
            turn += f" Decides now: {who(s.to_move)}."
        lines.append(turn)
    a = s.auction
    if a is not None:
        done = [f"P{q} {'passed' if b is None else 'bid ' + str(b)}" for q, b in zip(a.order, a.bids, strict=False)]
        high = f"high bid {a.high_bid} by P{a.high_bidder}" if a.high_bidder >= 0 else "no bid yet"
        lines.append(
            f"Auction ({_TRIGGER_WORDS[a.trigger]}; Ra player P{a.ra_player}): {high}; "
            f"bids so far: {', '.join(done) or 'none'}; still to bid: {_seats(a.still_to_bid)}."
        )
    if s.discard is not None:
        owed = owed_words(s.discard.owed)
        lines.append(f"{who(s.discard.player)} must choose tiles to lose: {owed}.")
    for i, p in enumerate(s.players):
        lines.append(
            f"{who(i)}: fame {p.fame}; suns face up {', '.join(map(str, p.suns_up)) or 'none'}; "
            f"face down {', '.join(map(str, p.suns_down)) or 'none'}; "
            f"kept tiles: {_tiles_words(p.display, KEPT)}; "
            f"this epoch's tiles: {_tiles_words(p.display, SCORED_EACH_EPOCH)}."
        )
    return lines


# -- the SVG board ---------------------------------------------------------------------------

_W = 760  # the drawing's width in user units; `svg(width=...)` scales it
_PANEL = 112  # the height of one player's panel
_TOP = 236  # where the player panels start


def svg_text(x: float, y: float, text: str, size: int = 13, weight: str = "normal", anchor: str = "middle") -> str:
    """Return an SVG ``<text>`` element (escaped), for pictures built from `tile_svg`."""
    return _text(x, y, text, size, weight, anchor)


def _text(x: float, y: float, text: str, size: int = 13, weight: str = "normal", anchor: str = "start") -> str:
    bold = ' font-weight="bold"' if weight == "bold" else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}"{bold} text-anchor="{anchor}" '
        f'fill="#000">{escape(text)}</text>'
    )


def _ra_track(s: State) -> list[str]:
    limit = s.rules.ra_limit
    cells = max(10, limit)
    unused = cells - limit
    out = [_text(10, 66, "Ra track", 13, "bold")]
    label = f"Ra track: {s.ra_count} of {limit} Ra tiles drawn; the {_ordinal(limit)} ends the epoch"
    out.append(f'<g role="img" aria-label="{escape(label)}"><title>{escape(label)}</title>')
    for i in range(cells):
        x = 90 + i * 36
        if i < unused:
            out.append(
                f'<rect x="{x}" y="44" width="32" height="32" fill="#e6e6e6" stroke="#999" stroke-dasharray="2 2"/>'
            )
            continue
        j = i - unused + 1  # the j-th Ra tile of the epoch goes here
        last = j == limit
        stroke = ' stroke="#000" stroke-width="3"' if last else ' stroke="#555"'
        out.append(f'<rect x="{x}" y="44" width="32" height="32" fill="#fff"{stroke}/>')
        if j <= s.ra_count:
            out.append(
                f'<circle cx="{x + 16}" cy="60" r="12" fill="{_VERMILLION}" stroke="#000"/>'
                f'<text x="{x + 16}" y="64" font-size="11" font-weight="bold" text-anchor="middle" '
                'fill="#000">Ra</text>'
            )
        else:
            out.append(_text(x + 16, 65, str(j), 11, anchor="middle"))
        if last:
            out.append(_text(x + 16, 90, "end", 10, "bold", "middle"))
    out.append("</g>")
    return out


def _auction_track(s: State) -> list[str]:
    out = [_text(10, 138, "Auction", 13, "bold")]
    for i, t in enumerate(s.track):
        x = 90 + i * 58
        out.append(_text(x + 26, 108, str(i + 1), 10, anchor="middle"))
        if t is None:
            label = f"slot {i + 1} empty"
            out.append(
                f'<rect x="{x}" y="112" width="52" height="52" fill="#fafafa" stroke="#999" stroke-dasharray="4 3" '
                f'role="img" aria-label="{label}"><title>{label}</title></rect>'
            )
        else:
            out.append(f'<rect x="{x}" y="112" width="52" height="52" fill="#fff" stroke="#555"/>')
            out.append(f'<g aria-label="slot {i + 1}">{tile_svg(t, x + 4, 116, 44)}</g>')
    return out


def _status_lines(s: State) -> list[str]:
    """Return the lines under the tracks: the running auction or the discard being chosen."""
    lines = []
    a = s.auction
    if a is not None:
        high = f"high bid {a.high_bid} by P{a.high_bidder}" if a.high_bidder >= 0 else "no bid yet"
        done = ", ".join(
            f"P{q} {'pass' if b is None else 'bid ' + str(b)}" for q, b in zip(a.order, a.bids, strict=False)
        )
        lines.append(f"Auction: {_TRIGGER_WORDS[a.trigger]} (Ra player P{a.ra_player}); {high}")
        lines.append(f"Bids: {done or 'none yet'};  still to bid: {_seats(a.still_to_bid)}")
    if s.discard is not None:
        owed = owed_words(s.discard.owed)
        lines.append(f"P{s.discard.player} must choose tiles to lose: {owed}")
    if s.phase is Phase.GAME_OVER:
        w = s.winner() or 0
        lines.append(f"Game over: P{w} wins with {s.players[w].fame} fame")
    return lines


def _player_panel(s: State, i: int, p: Player, y: float, name: str) -> list[str]:
    turn = i == s.turn_player and s.phase is not Phase.GAME_OVER
    deciding = i == s.to_move
    stroke = ' stroke="#000" stroke-width="3"' if deciding else ' stroke="#777" stroke-width="1"'
    fill = "#fff8dc" if deciding else "#ffffff"
    label = f"{name}: fame {p.fame}"
    if turn:
        label += ", whose turn it is"
    if deciding:
        label += ", decides now"
    out = [
        f'<g role="group" aria-label="{escape(label)}">',
        f'<rect x="4" y="{y:.1f}" width="{_W - 8}" height="{_PANEL - 6}" rx="6" fill="{fill}"{stroke}/>',
        _text(14, y + 20, name, 14, "bold"),
        _text(150, y + 20, f"fame {p.fame}", 14, "bold"),
    ]
    badges = []
    if turn:
        badges.append("\u25b6 turn")
    if deciding:
        badges.append("\u25cf decides now")
    if badges:
        out.append(_text(250, y + 20, "   ".join(badges), 13, "bold"))
    out.append(_text(430, y + 20, "suns", 12))
    x = 470
    for sun in p.suns_up:
        out.append(_sun_svg(sun, x, y + 15, 12, True))
        x += 28
    for sun in p.suns_down:
        out.append(_sun_svg(sun, x, y + 15, 12, False))
        x += 28
    # Tiles, grouped as on the player boards: kept ones on the left, the epoch's on the right.
    gy = y + 34
    out.append(_text(14, gy + 12, "kept", 11))
    out.append(_text(416, gy + 12, "this epoch", 11))
    for x0, kinds in ((14, KEPT), (416, SCORED_EACH_EPOCH)):
        x = x0
        shown = [t for t in kinds if p.display[t]]
        if not shown:
            out.append(_text(x, gy + 48, "\u2013 none", 12))
        for t in shown:
            out.append(tile_svg(t, x, gy + 18, 34, p.display[t]))
            x += 40
    out.append("</g>")
    return out


def svg(
    s: State,
    *,
    you: int | Collection[int] | None = None,
    names: Sequence[str] = (),
    width: int | None = None,
) -> Svg:
    """Return the board as an SVG picture (standard library only, byte-stable).

    Shows the Ra track with the epoch limit, the 8 auction slots, the center sun, the running
    auction or discard, and one panel per player: fame, whose turn it is and who decides now,
    suns face up (yellow) and face down (grey, dashed), and tiles grouped as on the player
    boards. Every tile and sun carries an ``aria-label``.

    Args:
        s: the position.
        you: the seat (or seats) to mark "(you)".
        names: a name per seat.
        width: the width in pixels to draw at (default: 760, natural size).
    """
    me = seat_set(you)
    return _svg(s, me, names, width, facts(s, you=me, names=names))


def _svg(s: State, me: Collection[int], names: Sequence[str], width: int | None, lines: Sequence[str]) -> Svg:
    """Return `svg` of `s`, given its `facts` (`lines`), which title the picture."""
    height = _TOP + _PANEL * len(s.players) + 4
    shown = width or _W
    scaled = round(height * shown / _W)
    title = " ".join(lines[:2])
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{shown}" height="{scaled}" viewBox="0 0 {_W} {height}" '
        f'font-family="sans-serif" role="group" aria-label="Ra board">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{_W}" height="{height}" fill="#fdfaf3"/>',
    ]
    head = f"Epoch {s.epoch} of {EPOCHS}" if s.phase is not Phase.GAME_OVER else "Game over"
    if s.phase is not Phase.GAME_OVER:
        head += f"  \u00b7  turn: {player_name(s.turn_player, me, names)}"
        if s.to_move >= 0 and s.to_move != s.turn_player:
            head += f"  \u00b7  decides now: {player_name(s.to_move, me, names)}"
        elif s.phase is Phase.REVEAL:
            head += "  \u00b7  drawing from the bag"
    out.append(_text(10, 24, head, 16, "bold"))
    out.append(_text(_W - 10, 24, f"bag {sum(s.bag)}", 12, anchor="end"))
    out += _ra_track(s)
    cx, cy = 640, 66
    out.append(_sun_svg(s.center_sun, cx, cy, 22, True, f"center sun {s.center_sun}"))
    out.append(_text(cx + 30, cy + 5, "center", 12))
    out += _auction_track(s)
    for k, line in enumerate(_status_lines(s)):
        out.append(_text(10, 188 + 18 * k, line, 13, "bold" if k == 0 else "normal"))
    for i, p in enumerate(s.players):
        out += _player_panel(s, i, p, _TOP + i * _PANEL, player_name(i, me, names))
    out.append("</svg>")
    return Svg("".join(out))


def html(
    s: State,
    *,
    you: int | Collection[int] | None = None,
    names: Sequence[str] = (),
    width: int | None = None,
) -> Html:
    """Return the board as HTML: the SVG picture, then its text twin as a list of facts.

    The text twin carries the same facts as the picture, for screen readers and for output
    where the picture does not show (a printout, a text-only viewer).
    """
    me = seat_set(you)
    lines = facts(s, you=me, names=names)
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    return Html(
        f'<div class="ra-board">{_svg(s, me, names, width, lines)}'
        f'<details class="ra-facts" open><summary>The board in words</summary><ul>{items}</ul></details></div>'
    )


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
        out.append(_text(x + cell / 2 - 4, y + size + 14, tile_name(t), 11, anchor="middle"))
    out.append("</svg>")
    return Svg("".join(out))


# -- scores ------------------------------------------------------------------------------------

_CATEGORY_NAMES = ("gods", "pharaohs", "Nile and floods", "civilizations", "gold", "monuments", "suns")


def signed(v: int) -> str:
    """Return a points change as text: +5, -2, or 0."""
    return f"{v:+d}" if v else "0"


def scores_text(scores: Sequence[EpochScore]) -> str:
    """Return the score breakdown per epoch and category as a plain-text table."""
    if not scores:
        return "No epoch has been scored yet."
    head = ["epoch", "player", "god", "phar", "river", "civ", "gold", "monu", "sun", "net", "fame"]
    rows = [head]
    for e in scores:
        for i, b in enumerate(e.players):
            rows.append([str(e.epoch), f"P{i}", *(signed(v) for v in (*b[:7], b.net)), str(b.fame_after)])
    widths = [max(len(r[c]) for r in rows) for c in range(len(head))]
    return "\n".join("  ".join(cell.rjust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows)


def scores_html(scores: Sequence[EpochScore], *, you: int | Collection[int] | None = None) -> Html:
    """Return the score breakdown per epoch and category as an HTML table."""
    if not scores:
        return Html("<p>No epoch has been scored yet.</p>")
    me = seat_set(you)
    head = "".join(f'<th scope="col">{c}</th>' for c in ("epoch", "player", *_CATEGORY_NAMES, "net", "fame after"))
    body = []
    for e in scores:
        for i, b in enumerate(e.players):
            cells = "".join(f"<td>{signed(v)}</td>" for v in b[:7])
            body.append(
                f'<tr><td>{e.epoch}</td><th scope="row">{escape(player_name(i, me))}</th>{cells}'
                f"<td><b>{signed(b.net)}</b></td><td>{b.fame_after}</td></tr>"
            )
    return Html(
        '<table class="ra-scores" cellpadding="4" style="border-collapse:collapse;text-align:right">'
        f"<caption>Points per epoch and category</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def _board_html(s: State) -> str:
    return str(html(s))


DISPLAYS["html"] = _board_html  # `State._repr_html_`: notebooks show the board as this picture
