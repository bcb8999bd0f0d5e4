"""Positions as pictures: the SVG board, tiles and suns, the board with its text twin, score tables.

Everything is a pure function of a `State` (standard library only) and byte-stable: no dates,
no random ids, no memory addresses, so notebooks can compare it. Tiles are told apart three
ways, so the board works without colour: a shape per category, a colour from a
colour-blind-safe palette (Okabe and Ito), and an icon with its short label, or the full name, on
the tile (`ra_core.pictures.icons`). The words come from `ra_core.pictures.words`; the colours of
paper and ink follow the page's theme (`ra_core.pictures.theme`). `State._repr_mimebundle_` shows
a position in a notebook with `picture` (an SVG and a PNG of it, so that an untrusted notebook
shows it too); `html` gives the board with its text twin, for pages.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Collection, Sequence
from html import escape
from typing import TYPE_CHECKING

from ..engine.actions import Bid, Done, Pass, UseGod
from ..engine.records import Phase
from ..engine.rules import EPOCHS
from ..engine.tiles import Tile

if TYPE_CHECKING:
    from ..engine.records import Player
    from ..engine.scoring import EpochScore
    from ..engine.state import State
from .clickable import LOST, bag_and_statue, button_svg, frame, loss_badge, move_words, outline, ring, target
from .controls import Controls
from .pieces import (
    KEY_ROW,
    TILE_STYLES,
    VERMILLION,
    Html,
    Svg,
    TileStyle,
    key_svg,
    legend,
    sun_svg,
    svg_text,
    text_element,
    tile_svg,
)
from .raster import picture_bundle
from .theme import PANEL, PAPER, ROOT, STRONG, STYLE, UNUSED
from .words import (
    CATEGORY_NAMES,
    KEPT,
    SCORED_EACH_EPOCH,
    facts,
    player_name,
    ra_track_words,
    seat_set,
    signed,
    status_lines,
    tile_name,
)

__all__ = [
    "TILE_STYLES",
    "Controls",
    "Html",
    "Svg",
    "TileStyle",
    "captioned",
    "html",
    "legend",
    "picture",
    "scores_html",
    "svg",
    "svg_text",
    "tile_svg",
]


# -- the SVG board ---------------------------------------------------------------------------

_W = 760  # the drawing's width in user units; `svg(width=...)` scales it
_PANEL = 112  # the height of one player's panel
_TOP = 236  # where the player panels start
_KEY_ROWS = 3  # the rows kept for the key under the panels (more only if the board holds more kinds)
_SUN_STEP = 32  # from one sun to the next in a panel: room for the frame of each one you may bid


def _ra_track(s: State) -> list[str]:
    limit = s.rules.ra_limit
    cells = max(10, limit)
    unused = cells - limit
    out = [text_element(10, 66, "Ra track", 13, "bold")]
    label = ra_track_words(s.ra_count, limit)
    out.append(f'<g role="img" aria-label="{escape(label)}"><title>{escape(label)}</title>')
    for i in range(cells):
        x = 90 + i * 36
        if i < unused:
            out.append(
                f'<rect class="{UNUSED}" x="{x}" y="44" width="32" height="32" fill="#e6e6e6" stroke="#999" '
                'stroke-dasharray="2 2"/>'
            )
            continue
        j = i - unused + 1  # the j-th Ra tile of the epoch goes here
        last = j == limit
        stroke = ' stroke="#000" stroke-width="3"' if last else ' stroke="#555"'
        cls = f"{PANEL} {STRONG}" if last else PANEL
        out.append(f'<rect class="{cls}" x="{x}" y="44" width="32" height="32" fill="#fff"{stroke}/>')
        if j <= s.ra_count:
            out.append(
                f'<circle cx="{x + 16}" cy="60" r="12" fill="{VERMILLION}" stroke="#000"/>'
                f'<text x="{x + 16}" y="64" font-size="12" font-weight="bold" text-anchor="middle" '
                'fill="#000">Ra</text>'
            )
        else:
            out.append(text_element(x + 16, 65, str(j), 12, anchor="middle"))
        if last:
            out.append(text_element(x + 16, 91, "end", 12, "bold", "middle"))
    out.append("</g>")
    return out


def _auction_track(s: State, controls: Controls | None) -> list[str]:
    gods = {a.slot for a in controls.actions if isinstance(a, UseGod)} if controls and controls.god else set()
    out = [text_element(10, 138, "Auction", 13, "bold")]
    for i, t in enumerate(s.track):
        x = 90 + i * 58
        out.append(text_element(x + 26, 108, str(i + 1), 12, anchor="middle"))
        if t is None:
            label = f"slot {i + 1} empty"
            out.append(
                f'<rect class="{PANEL}" x="{x}" y="112" width="52" height="52" fill="#fafafa" stroke="#999" '
                'stroke-dasharray="4 3" '
                f'role="img" aria-label="{label}"><title>{label}</title></rect>'
            )
        else:
            tile = (
                f'<rect class="{PANEL}" x="{x}" y="112" width="52" height="52" fill="#fff" stroke="#555"/>'
                + tile_svg(t, x + 4, 116, 44)
            )
            if i + 1 in gods:
                label = f"Use a god: take the {tile_name(t)} on slot {i + 1}"
                out.append(target(tile, label, action=f"god {i + 1}", mark=frame(x, 112, 52, 52)))
            else:
                out.append(f'<g aria-label="slot {i + 1}">{tile}</g>')
    if controls is not None:
        out += bag_and_statue(sum(s.bag), controls.actions, 586, 668, 100)
        last = controls.last[1] if controls.last else ""
        filled = [i for i, t in enumerate(s.track) if t is not None]
        slot = filled[-1] if last == "draw" and filled else int(last[4:]) - 1 if last.startswith("god ") else -1
        if slot >= 0:
            out.append(ring(90 + slot * 58 + 26, 138, 28))
    return out


def _discard_buttons(controls: Controls) -> list[str]:
    """Return the buttons that confirm or clear the tiles picked to lose."""
    out = []
    chosen = controls.chosen()
    if chosen is not None:
        label = "Confirm: lose " + ", ".join(tile_name(t) for t in chosen.tiles)
        button = button_svg(_W - 196, 196, 90, "Confirm", "#F0E442")
        out.append(target(button, label, action=str(chosen), mark=frame(_W - 196, 196, 90, 26)))
    if controls.picked:
        button = button_svg(_W - 92, 196, 80, "Clear")
        out.append(target(button, "Clear the tiles picked to lose", ui="clear", mark=frame(_W - 92, 196, 80, 26)))
    return out


def _player_panel(s: State, i: int, p: Player, y: float, name: str, controls: Controls | None) -> list[str]:
    turn = i == s.turn_player and s.phase is not Phase.GAME_OVER
    deciding = i == s.to_move
    stroke = ' stroke="#000" stroke-width="3"' if deciding else ' stroke="#777" stroke-width="1"'
    fill = "#fff8dc" if deciding else "#ffffff"
    cls = f"{PANEL} ra-deciding {STRONG}" if deciding else PANEL
    label = f"{name}: fame {p.fame}"
    if turn:
        label += ", whose turn it is"
    if deciding:
        label += ", decides now"
    out = [
        f'<g role="group" aria-label="{escape(label)}">',
        f'<rect class="{cls}" x="4" y="{y:.1f}" width="{_W - 8}" height="{_PANEL - 6}" rx="6" fill="{fill}"{stroke}/>',
        text_element(14, y + 20, name, 14, "bold"),
        text_element(150, y + 20, f"fame {p.fame}", 14, "bold"),
    ]
    badges = []
    if turn:
        badges.append("\u25b6 turn")
    if deciding:
        badges.append("\u25cf decides now")
    if badges:
        out.append(text_element(250, y + 20, "   ".join(badges), 13, "bold"))
    mine = controls if deciding else None  # only the seat deciding now has controls
    bids = {a.sun for a in mine.actions if isinstance(a, Bid)} if mine else set()
    out.append(text_element(452, y + 20, "suns", 12, anchor="end"))
    x = 474
    for sun in p.suns_up:
        disk = sun_svg(sun, x, y + 15, 12, True)
        mark = frame(x - 12, y + 3, 24, 24, round_=True)
        out.append(target(disk, f"Bid sun {sun}", action=f"bid {sun}", mark=mark) if sun in bids else disk)
        x += _SUN_STEP
    for sun in p.suns_down:
        out.append(sun_svg(sun, x, y + 15, 12, False))
        x += _SUN_STEP
    did = controls.just_did(i) if controls else ""
    if did:
        out.append(text_element(_W - 12, y + 20, move_words(did), 13, "bold", "end"))
        if did.startswith("bid ") and int(did[4:]) in p.suns_up:
            out.append(ring(474 + _SUN_STEP * p.suns_up.index(int(did[4:])), y + 15, 16))
    if mine:
        for kind, word in ((Pass, "Pass"), (Done, "Done")):
            if any(isinstance(a, kind) for a in mine.actions):
                label = "Pass (do not bid)" if kind is Pass else "Done: use no more gods"
                mark = frame(_W - 92, y + 6, 80, 26)
                out.append(target(button_svg(_W - 92, y + 6, 80, word), label, action=word.lower(), mark=mark))
    # Tiles, grouped as on the player boards: kept ones on the left, the epoch's on the right.
    gy = y + 34
    out.append(text_element(14, gy + 12, "kept", 12))
    out.append(text_element(416, gy + 12, "this epoch", 12))
    for x0, kinds in ((14, KEPT), (416, SCORED_EACH_EPOCH)):
        x = x0
        shown = [t for t in kinds if p.display[t]]
        if not shown:
            out.append(text_element(x, gy + 48, "\u2013 none", 12))
        for t in shown:
            out.append(_display_tile(t, p.display[t], x, gy + 18, mine))
            x += 40
    out.append("</g>")
    return out


def _display_tile(t: Tile, count: int, x: float, y: float, controls: Controls | None) -> str:
    """Return a pile of a player's tiles; with controls, the god to use and the tiles to lose take clicks.

    A pile you may click is framed (`frame`). Tiles chosen to lose carry a ``−1`` label on the
    tile (`loss_badge`: a click on it takes the choice back; a piece of its own, beside the pile's,
    never inside it) and the count under the tile says
    how many stay (``×1`` too); a pile chosen to lose entirely is faded.
    """
    if controls is None:
        return tile_svg(t, x, y, 34, count)
    name = tile_name(t)
    mark = frame(x, y, 34, 34)
    if t is Tile.GOD and any(isinstance(a, UseGod) for a in controls.actions):
        pile = tile_svg(t, x, y, 34, count)
        if controls.god:
            pile += outline(x, y, "#000")
            label = "Use a god (chosen: now click a tile on the auction track)"
        else:
            label = "Use a god: choose it, then a tile on the auction track"
        return target(pile, label, ui="god", pressed=controls.god, mark=mark)
    lost = controls.picked.count(t)
    if not lost:
        pile = tile_svg(t, x, y, 34, count)
    elif lost < count:
        pile = tile_svg(t, x, y, 34, count - lost, fewest=1)
    else:
        pile = f'<g opacity="{LOST}">{tile_svg(t, x, y, 34)}</g>'
    keep = f"Keep one {name} after all ({lost} chosen to lose)"
    if not controls.can_pick(t):  # a click on the pile takes one back: its "−n" is only a mark
        return target(pile + loss_badge(x, y, lost), keep, ui=f"unpick {t.label}", mark=mark) if lost else pile
    piece = target(pile, f"Lose one {name} (you have {count - lost} left)", ui=f"pick {t.label}", mark=mark)
    if lost:  # the "−n" takes one back: a piece of its own after the pile (never inside it), 26 units square
        hit = f'<rect x="{x + 13:.1f}" y="{y - 8.5:.1f}" width="26" height="26" fill="transparent"/>'
        piece += target(hit + loss_badge(x, y, lost), keep, ui=f"unpick {t.label}")
    return piece


def svg(
    s: State,
    *,
    you: int | Collection[int] | None = None,
    names: Sequence[str] = (),
    width: int | None = None,
    controls: Controls | None = None,
    told: Sequence[str] | None = None,
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
        controls: for a game table: the pieces that stand for the deciding player's legal
            actions become buttons (see `Controls` and `clickable.target`), and the bag and the
            Ra statue are drawn.
        told: the position's facts for these seats and names (`words.facts`), if the caller
            has them already; the picture's title is their first two.
    """
    me = seat_set(you)
    return _svg(s, me, names, width, (facts(s, you=me, names=names) if told is None else told)[:2], controls)


def _svg(
    s: State,
    me: Collection[int],
    names: Sequence[str],
    width: int | None,
    lines: Sequence[str],
    controls: Controls | None = None,
) -> Svg:
    """Return `svg` of `s`, given the first two of its `facts` (`lines`), which title the picture."""
    kinds = _kinds_shown(s)
    key, rows = key_svg(kinds, 14, _TOP + _PANEL * len(s.players) + 24, _W - 28)
    height = _TOP + _PANEL * len(s.players) + 26 + KEY_ROW * max(_KEY_ROWS, rows)
    shown = width or _W
    scaled = round(height * shown / _W)
    title = " ".join(lines[:2])
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{ROOT}" width="{shown}" height="{scaled}" '
        f'viewBox="0 0 {_W} {height}" font-family="sans-serif" role="group" aria-label="Ra board">',
        f"<title>{escape(title)}</title>{STYLE}",
        f'<rect class="{PAPER}" x="0" y="0" width="{_W}" height="{height}" fill="#fdfaf3"/>',
    ]
    head = f"Epoch {s.epoch} of {EPOCHS}" if s.phase is not Phase.GAME_OVER else "Game over"
    if s.phase is not Phase.GAME_OVER:
        head += f"  \u00b7  turn: {player_name(s.turn_player, me, names)}"
        if s.to_move >= 0 and s.to_move != s.turn_player:
            head += f"  \u00b7  decides now: {player_name(s.to_move, me, names)}"
        elif s.phase is Phase.REVEAL:
            head += "  \u00b7  drawing from the bag"
    out.append(text_element(10, 24, head, 16, "bold"))
    out.append(text_element(_W - 10, 24, f"bag {sum(s.bag)}", 12, anchor="end"))
    out += _ra_track(s)
    cx, cy = 640, 66
    out.append(sun_svg(s.center_sun, cx, cy, 22, True, f"center sun {s.center_sun}"))
    out.append(text_element(cx + 30, cy + 5, "center", 12))
    out += _auction_track(s, controls)
    for k, line in enumerate(status_lines(s, controls is not None, me, names)):
        out.append(text_element(10, 188 + 18 * k, line, 13, "bold" if k == 0 else "normal"))
    if controls is not None and s.phase is Phase.DISCARD:
        out += _discard_buttons(controls)
    for i, p in enumerate(s.players):
        out += _player_panel(s, i, p, _TOP + i * _PANEL, player_name(i, me, names), controls)
    top = _TOP + _PANEL * len(s.players)
    out.append(
        text_element(
            14, top + 14, "Key to the tiles on the board:" if key else "No tiles on the board yet.", 12, "bold"
        )
    )
    out.append(key)
    out.append("</svg>")
    return Svg("".join(out))


def _kinds_shown(s: State) -> list[Tile]:
    """Return the tile kinds on the board (the auction track and the displays), in tile order."""
    kinds = {t for t in s.track if t is not None}
    for p in s.players:
        kinds.update(t for t in Tile if p.display[t])
    return sorted(kinds)


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
        f'<div class="ra-board">{_svg(s, me, names, width, lines[:2])}'
        f'<details class="ra-facts" open><summary>The board in words</summary><ul>{items}</ul></details></div>'
    )


def picture(
    s: State, *, you: int | Collection[int] | None = None, names: Sequence[str] = (), caption: Sequence[str] = ()
) -> dict[str, str]:
    """Return the board as a notebook output: its SVG (under the `caption` lines, if any), a PNG of it, its facts.

    A picture shows whether the notebook is trusted or not (`ra_core.pictures.raster`); the
    text is the board's text twin (`facts`), the caption first.
    """
    me = seat_set(you)
    lines = facts(s, you=me, names=names)
    board = captioned(_svg(s, me, names, None, lines[:2]), caption)
    return picture_bundle(board, "\n".join([*caption, *lines]))


def captioned(board: str, caption: Sequence[str], note: str = "", banner: str = "") -> Svg:
    """Return the SVG picture `board` with the `caption` lines above it and a `note` in italics under it.

    A `banner` goes first, over everything, on a yellow strip (black words, 15:1, in either theme):
    what a reader must know before reading the rest, such as that the picture is no live widget.
    The lines are wrapped to the picture's width; with none of them, the board is returned as it is.
    """
    if not caption and not note and not banner:
        return Svg(board)
    width, height = (float(v) for v in board.split('viewBox="0 0 ', 1)[1].split('"', 1)[0].split())
    shown = float(board.split('width="', 1)[1].split('"', 1)[0])
    per_line = int(width / (0.58 * 15))
    flag = textwrap.wrap(banner, int(width / (0.6 * 14))) if banner else []
    strip = 20 * len(flag) + 12 if flag else 0
    rows = [row for line in caption for row in textwrap.wrap(line, per_line) or [""]]
    top = strip + 22 * len(rows) + (8 if rows else 0)
    total = top + height + (26 if note else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{ROOT}" width="{shown:.0f}" '
        f'height="{total * shown / width:.0f}" viewBox="0 0 {width:.0f} {total:.0f}" font-family="sans-serif">',
        f"{STYLE}",
        f'<rect class="{PAPER}" x="0" y="0" width="{width:.0f}" height="{total:.0f}" fill="#fdfaf3"/>',
    ]
    if flag:
        out.append(
            f'<rect class="ra-banner" x="2" y="2" width="{width - 4:.0f}" height="{strip - 4}" rx="4" '
            'fill="#F0E442" stroke="#000" stroke-width="1.5" stroke-dasharray="6 3"/>'
        )
        out += [text_element(12, 21 + 20 * k, row, 14, "bold", cls="") for k, row in enumerate(flag)]
    out += [text_element(10, strip + 20 + 22 * k, row, 15, "bold") for k, row in enumerate(rows)]
    head, rest = board.split(">", 1)  # the board's own <svg ...> tag: placed under the caption, at its natural size
    head = re.sub(r' width="[^"]*" height="[^"]*"', f' width="{width:.0f}" height="{height:.0f}"', head, count=1)
    out.append(head.replace("<svg ", f'<svg x="0" y="{top}" ', 1) + ">" + rest)
    if note:
        out.append(f'<g font-style="italic">{text_element(10, top + height + 18, note, 13)}</g>')
    out.append("</svg>")
    return Svg("".join(out))


def scores_html(
    scores: Sequence[EpochScore], *, you: int | Collection[int] | None = None, names: Sequence[str] = ()
) -> Html:
    """Return the score breakdown per epoch and category as an HTML table."""
    if not scores:
        return Html("<p>No epoch has been scored yet.</p>")
    me = seat_set(you)
    head = "".join(f'<th scope="col">{c}</th>' for c in ("epoch", "player", *CATEGORY_NAMES, "net", "fame after"))
    body = []
    for e in scores:
        for i, b in enumerate(e.players):
            cells = "".join(f"<td>{signed(v)}</td>" for v in b.points)
            body.append(
                f'<tr><td>{e.epoch}</td><th scope="row">{escape(player_name(i, me, names))}</th>{cells}'
                f"<td><b>{signed(b.net)}</b></td><td>{b.fame_after}</td></tr>"
            )
    return Html(
        '<table class="ra-scores" cellpadding="4" style="border-collapse:collapse;text-align:right">'
        f"<caption>Points per epoch and category</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
    )
