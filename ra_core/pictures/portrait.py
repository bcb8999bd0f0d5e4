"""The board in portrait, for a phone (and a narrow notebook output): everything you act on in one screen.

The landscape board (`ra_core.pictures.svg`) is 760 units wide; on a 390 px phone its suns
would be 12 px. This board is 400 units wide, drawn to be shown 360-420 px wide, so that a
unit is about a pixel and every piece you may click is at least 49 units (44 CSS px or more on
a 360 px screen, the board across its whole width: the touch-target size of WCAG 2.5.5). From
the top:

* the epoch and whose turn it is; the Ra track, the center sun, the bag and the Ra statue;
* the auction track (the lot), its eight slots across the width (a god takes a slot);
* the auction or the discard in words, always three lines tall, so that the board does not
  move as auctions start and end;
* the other players condensed, one block each: fame, suns, tiles (with their short labels);
* your own panel at the bottom, by your thumbs: your suns, Pass or Done, Confirm and Clear,
  and your tiles (a god to use, tiles to lose); while you pick tiles to lose, the tiles picked
  stand in the row of your suns, each a piece that puts one back (the "−1" on a tile is only
  its mark, too small to tap).

Standard library only, byte-stable, the same pieces and the same ``data-action`` / ``data-ui``
marks as the landscape board (`ra_core.pictures.clickable.target`), so a front end needs nothing
new to take its clicks.
"""

from __future__ import annotations

import functools
import re
import textwrap
from collections.abc import Callable, Collection, Hashable, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from ..engine.actions import Bid, CallRa, Done, Draw, Pass, UseGod
from ..engine.records import Phase
from ..engine.rules import EPOCHS
from ..engine.tiles import Tile
from .clickable import LOST, bag_and_statue, button_svg, frame, loss_badge, move_words, outline, ring, target
from .controls import Controls
from .pieces import VERMILLION, Svg, sun_svg, text_element, tile_svg
from .theme import PANEL, PAPER, ROOT, STRONG, STYLE, UNUSED
from .words import (
    KEPT,
    SCORED_EACH_EPOCH,
    facts,
    named,
    player_name,
    seat_set,
    seat_tokens,
    status_lines,
    tile_name,
)

if TYPE_CHECKING:
    from ..engine.records import Player
    from ..engine.state import State

__all__ = ["WIDTH", "Portraits", "portrait_svg"]

WIDTH = 400  #: the drawing's width in user units (shown 360-420 px wide)
_SLOT = 49  # an auction slot, and the smallest piece you may click (44 px on a 360 px screen)
_STEP = (WIDTH - 4) / 8  # from one slot to the next (49.5)
_LINES = 3  # the lines kept for the auction or discard in words
_OTHER = 56  # the height of another player's block
_MINE_TILE, _MINE_STEP = 42, 52  # your tiles: 42 units, framed 50
_MINE_ROWS = 2  # rows kept for your tiles (a third only when you hold more kinds than two rows take)
_PER_ROW = int((WIDTH - 12) // _MINE_STEP)


def _seat_below(s: State, me: Collection[int]) -> int:
    """Return the seat whose panel is at the bottom: yours (the one deciding, if several), else the deciding one."""
    if s.to_move in me:
        return s.to_move
    if me:
        return min(me)
    return max(s.to_move, 0) if s.to_move < len(s.players) else 0


def portrait_svg(
    s: State,
    *,
    you: int | Collection[int] | None = None,
    names: Sequence[str] = (),
    controls: Controls | None = None,
    told: Sequence[str] | None = None,
) -> Svg:
    """Return the board in portrait (400 units wide), your panel at the bottom; see the module docstring.

    Args:
        s: the position.
        you: the seat (or seats) whose panel is at the bottom, marked "(you)".
        names: a name per seat.
        controls: the deciding player's choices, as for `ra_core.pictures.svg.svg`: each becomes
            a framed piece to click, and the bag and the Ra statue are drawn.
        told: the position's facts for these seats and names (`words.facts`), if the caller
            has them already; the board's title is their first two.
    """
    return Portraits(s, names).board(you=you, controls=controls, told=told)


class Portraits:
    """The boards in portrait of one position, for every seat that looks at it: what they share drawn once.

    At a table each seat's page shows the same position from its own chair: its panel at the
    bottom, its name "(you)", its legal actions framed, the other player's last move marked. The
    rest (the tracks, the auction in words, each other player's block) is the same on most
    boards. Each piece is drawn from what it depends on alone and kept under it, so a board for
    the next seat draws only what differs for him: his panel, and the pieces that his name, his
    clicks or his mark change. A board is the same text `portrait_svg` gives.

    A move changes few pieces too: the mover's panel, the track, the words. A piece's key holds
    everything it is drawn from (the player's holdings, not his seat's position in the game),
    so the boards of the next position at the same table (`before`) take every piece that did
    not change from these, and draw the rest.

    >>> from ra_core import new_game
    >>> boards = Portraits(new_game(3, seed=1), names=["Ann", "Bob", "Cy"])
    >>> boards.board(you=2) == portrait_svg(new_game(3, seed=1), you=2, names=["Ann", "Bob", "Cy"])
    True

    Args:
        s: the position.
        names: a name per seat, the same for every board.
        status: the position's `status_lines` told with `seat_tokens` as the names (``table=True``),
            if the caller has them already; else they are told here, once for every board.
        before: the boards of an earlier position (the position before the last move, say), whose
            pieces these boards take rather than draw again where they are the same.
    """

    def __init__(
        self, s: State, names: Sequence[str] = (), status: Sequence[str] | None = None, before: Portraits | None = None
    ) -> None:
        self.state = s
        self.names = tuple(names)
        self._drawn: dict[Hashable, str] = {}  # each piece drawn, under everything it is drawn from
        self._before: dict[Hashable, str] = {}  # the earlier boards' pieces
        if before is not None:
            self._before = before._drawn
            before._before = {}  # theirs are not kept too: two positions' pieces at most
        # the auction or discard in words, seats named by `seat_tokens`
        self._status: tuple[str, ...] | None = None if status is None else tuple(status)

    def _piece(self, key: Hashable, draw: Callable[..., list[str]], *args: Any) -> str:
        """Return the piece kept under `key`: drawn (`draw(*args)`) the first time only, or taken from `before`."""
        found = self._drawn.get(key)
        if found is None:
            found = self._before.get(key)
            if found is None:
                found = "".join(draw(*args))
            self._drawn[key] = found
        return found

    def _words_piece(self, me: Collection[int]) -> str:
        """Return the piece of `status_lines` as seats `me` read them: told once for every seat, named for these.

        Kept under the lines as told for every seat, the readers and the names: a seat whose
        words were drawn (at this position, or the one before) has them without naming them again.
        """
        if any("\x00" in name for name in self.names):  # a name the tokens cannot stand for
            lines = tuple(status_lines(self.state, True, me, self.names))
            return self._piece(("words", lines), _words, lines)
        if self._status is None:
            self._status = tuple(status_lines(self.state, True, (), seat_tokens(len(self.state.players))))
        key = ("told", self._status, tuple(me), self.names)
        found = self._drawn.get(key)
        if found is None:
            found = self._before.get(key)
            if found is None:
                lines = tuple(named(self._status, me, self.names))
                found = self._piece(("words", lines), _words, lines)
            self._drawn[key] = found
        return found

    def board(
        self,
        you: int | Collection[int] | None = None,
        controls: Controls | None = None,
        told: Sequence[str] | None = None,
    ) -> Svg:
        """Return the board of seat (or seats) `you`, with `controls` and `told` as `portrait_svg` takes them."""
        s, names = self.state, self.names
        me = seat_set(you)
        below = _seat_below(s, me)
        others = [i for i in range(len(s.players)) if i != below]
        mine = s.players[below]
        kinds = sum(map(bool, mine.display))  # kinds of tiles held (the display is indexed by `Tile`)
        rows = max(_MINE_ROWS, -(-kinds // _PER_ROW))
        top = 222
        panel_y = top + _OTHER * len(others) + 4
        height = panel_y + 86 + rows * _MINE_STEP + 8
        title = " ".join((facts(s, you=me, names=names) if told is None else told)[:2])
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" class="{ROOT} ra-portrait" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" role="group" aria-label="Ra board">',
            f"<title>{escape(title)}</title>{STYLE}",
            f'<rect class="{PAPER}" x="0" y="0" width="{WIDTH}" height="{height}" fill="#fdfaf3"/>',
        ]
        # Each piece under everything it is drawn from: the position's parts it shows, a name as
        # this seat reads it, his clicks, his mark (the same key in another position: the same piece).
        over = s.phase is Phase.GAME_OVER
        turn = player_name(s.turn_player, me, names)
        out.append(self._piece(("head", turn, s.epoch, over), _head, s, turn))
        clicks = None if controls is None else frozenset({type(a) for a in controls.actions} & {Draw, CallRa})
        track = ("track", clicks, s.rules.ra_limit, s.ra_count, s.center_sun, sum(s.bag))
        out.append(self._piece(track, _track_row, s, controls))
        god = controls is not None and controls.god
        gods = frozenset(a.slot for a in controls.actions if isinstance(a, UseGod)) if controls and god else frozenset()
        ringed = _ringed(s, controls)
        out.append(self._piece(("lot", s.track, gods, ringed), _lot, s, gods, ringed))
        out.append(self._words_piece(me))
        for k, i in enumerate(others):
            name, did = player_name(i, me, names), controls.just_did(i) if controls else ""
            y = top + k * _OTHER
            p = s.players[i]
            key = ("other", i, y, name, did, p.fame, i == s.to_move, i == s.turn_player and not over)
            out.append(self._piece(key, _other, s, i, y, name, did))
            bid = did if did.startswith("bid ") else ""
            out.append(self._piece(("held", y, p.suns_up, p.suns_down, p.display, bid), _holdings, p, y, bid))
        name, deciding = player_name(below, me, names), below == s.to_move
        own = (controls.actions, controls.god, controls.picked) if controls is not None and deciding else None
        panel: Hashable = ("mine", below, panel_y, name, rows, mine, deciding, below == s.turn_player and not over, own)
        out.append(self._piece(panel, _mine, s, below, panel_y, name, controls, rows))
        out.append("</svg>")
        return Svg("".join(out))


def _head(s: State, turn: str) -> list[str]:
    """Return the board's first line: the epoch and whose turn it is (`turn`: his name as the viewer reads it)."""
    head = "Game over" if s.phase is Phase.GAME_OVER else f"Epoch {s.epoch} of {EPOCHS} \u00b7 turn: {turn}"
    return [text_element(8, 18, head, 14, "bold")]


def _track_row(s: State, controls: Controls | None) -> list[str]:
    """Return the Ra track (small: it takes no click), the center sun, and the bag and the Ra statue."""
    limit = s.rules.ra_limit
    cells = max(10, limit)
    label = f"Ra track: {s.ra_count} of {limit} Ra tiles drawn; the last ends the epoch"
    out = [
        text_element(8, 42, "Ra track", 12, "bold"),
        f'<g role="img" aria-label="{escape(label)}"><title>{escape(label)}</title>',
    ]
    for i in range(cells):
        x, j = 8 + i * 19, i - (cells - limit) + 1
        if j < 1:
            out.append(f'<rect class="{UNUSED}" x="{x}" y="50" width="17" height="24" fill="#e6e6e6" stroke="#999"/>')
            continue
        last = j == limit
        cls = f"{PANEL} {STRONG}" if last else PANEL
        stroke = 'stroke="#000" stroke-width="2.5"' if last else 'stroke="#555"'
        out.append(f'<rect class="{cls}" x="{x}" y="50" width="17" height="24" fill="#fff" {stroke}/>')
        if j <= s.ra_count:
            out.append(f'<circle cx="{x + 8.5}" cy="62" r="7" fill="{VERMILLION}" stroke="#000"/>')
    out.append("</g>")
    out.append(text_element(8, 92, f"{s.ra_count} of {limit}; the {limit}th ends the epoch", 11))
    out.append(sun_svg(s.center_sun, 226, 62, 18, True, f"center sun {s.center_sun}"))
    out.append(text_element(226, 96, "center", 11, anchor="middle"))
    if controls is None:
        out.append(text_element(WIDTH - 8, 42, f"bag {sum(s.bag)}", 12, anchor="end"))
        return out
    return out + bag_and_statue(sum(s.bag), controls.actions, 274, 338, 26)


def _lot(s: State, gods: Collection[int], ringed: int) -> list[str]:
    """Return the auction track: eight slots across the width; slots `gods` take a click, slot `ringed` is ringed."""
    y = 112
    out = []
    for i, t in enumerate(s.track):
        x = 2 + i * _STEP
        if t is None:
            label = f"slot {i + 1} empty"
            out.append(
                f'<rect class="{PANEL}" x="{x:.1f}" y="{y}" width="{_SLOT}" height="{_SLOT}" fill="#fafafa" '
                f'stroke="#999" stroke-dasharray="4 3" role="img" aria-label="{label}"><title>{label}</title></rect>'
            )
            out.append(text_element(x + _SLOT / 2, y + 30, str(i + 1), 12, anchor="middle"))
            continue
        tile = (
            f'<rect class="{PANEL}" x="{x:.1f}" y="{y}" width="{_SLOT}" height="{_SLOT}" fill="#fff" stroke="#555"/>'
            + tile_svg(t, x + 3, y + 3, _SLOT - 6)
        )
        if i + 1 in gods:
            label = f"Use a god: take the {tile_name(t)} on slot {i + 1}"
            out.append(target(tile, label, action=f"god {i + 1}", mark=frame(x + 4, y + 4, _SLOT - 8, _SLOT - 8)))
        else:
            out.append(f'<g aria-label="slot {i + 1}">{tile}</g>')
    if ringed >= 0:
        out.append(ring(2 + ringed * _STEP + _SLOT / 2, y + _SLOT / 2, _SLOT / 2 + 2))
    return out


def _ringed(s: State, controls: Controls | None) -> int:
    """Return the slot that the other player's last move filled (a draw, a god), to ring; else -1."""
    if controls is None or not controls.last:
        return -1
    last = controls.last[1]
    filled = [i for i, t in enumerate(s.track) if t is not None]
    return filled[-1] if last == "draw" and filled else int(last[4:]) - 1 if last.startswith("god ") else -1


def _words(lines: Sequence[str]) -> list[str]:
    """Return the auction or the discard in words (`status_lines`): `_LINES` lines, always (empty ones too)."""
    rows = [row for line in lines for row in _wrapped(line)]
    if len(rows) > _LINES:
        rows = [*rows[: _LINES - 1], rows[_LINES - 1][:57].rstrip() + "\u2026"]
    return [text_element(8, 180 + 16 * k, row, 12, "bold" if k == 0 else "normal") for k, row in enumerate(rows)]


_ROW = 60  # characters in a row of the board's words
_UNPLAIN = re.compile(r"[^\S ]|-")  # whitespace other than spaces, or a hyphen: textwrap's finer rules apply


@functools.lru_cache(maxsize=4096)
def _wrapped(line: str) -> tuple[str, ...]:
    """Return `line` in rows of `_ROW` characters at most, as `textwrap.wrap(line, _ROW)` does; each line once.

    The board's words are words and spaces: textwrap's chunks are then the words and the runs of
    spaces, and its rule is filled here the same way, faster: as many chunks as fit in a row,
    spaces dropped at the end of a row and at the start of every row but the first. Any other
    line (a tab, a hyphen, a word longer than a row) is textwrap's.
    """
    if _UNPLAIN.search(line):
        return tuple(textwrap.wrap(line, _ROW))
    rows: list[str] = []
    start, size = 0, len(line)
    while start < size:
        if rows and line[start] == " ":  # every row but the first starts after the spaces
            start = size - len(line[start:].lstrip(" "))
            if start == size:
                break
        end = start + _ROW
        if end >= size:
            end = size
        elif (line[end - 1] == " ") == (line[end] == " "):  # a chunk across the row's end: it starts the next row
            end = start + len(line[start:end].rstrip(" ")) if line[end] == " " else line.rfind(" ", start, end) + 1
            if end <= start:  # a chunk longer than a row: textwrap breaks it
                return tuple(textwrap.wrap(line, _ROW))
        row = line[start:end].rstrip(" ")
        if row:
            rows.append(row)
        start = end
    return tuple(rows)


def _badges(s: State, i: int) -> str:
    marks = []
    if i == s.turn_player and s.phase is not Phase.GAME_OVER:
        marks.append("\u25b6 turn")
    if i == s.to_move:
        marks.append("\u25cf decides")
    return "  ".join(marks)


def _other(s: State, i: int, y: float, name: str, did: str) -> list[str]:
    """Return the head of another player's block: name, fame, turn, what he just did (`did`: an action's text, or "").

    His pieces follow (`_holdings`), then the block's end.
    """
    p = s.players[i]
    deciding = i == s.to_move
    cls = f"{PANEL} ra-deciding {STRONG}" if deciding else PANEL
    stroke = 'stroke="#000" stroke-width="2.5"' if deciding else 'stroke="#777"'
    label = f"{name}: fame {p.fame}" + (", decides now" if deciding else "")
    out = [
        f'<g role="group" aria-label="{escape(label)}">',
        f'<rect class="{cls}" x="2" y="{y:.1f}" width="{WIDTH - 4}" height="{_OTHER - 4}" rx="5" '
        f'fill="{"#fff8dc" if deciding else "#ffffff"}" {stroke}/>',
        text_element(8, y + 16, f"{name}  \u00b7  fame {p.fame}", 13, "bold"),
        text_element(WIDTH - 8, y + 16, _badges(s, i), 12, "bold", "end"),
    ]
    if did:
        out[-1] = text_element(WIDTH - 8, y + 16, move_words(did).replace("just now: ", "\u2192 "), 12, "bold", "end")
    return out


def _holdings(p: Player, y: float, bid: str) -> list[str]:
    """Return another player's pieces in his block at `y`, the sun he just bid (`bid`: "bid 9", or "") ringed; the end.

    His suns and his tiles are small: they take no click. They change far less often than the
    block's head (whose turn it is, what he just did), so they are a piece of their own.
    """
    out = []
    x = 14.0
    for sun in p.suns_up:
        out.append(sun_svg(sun, x, y + 35, 10, True))
        if bid == f"bid {sun}":
            out.append(ring(x, y + 35, 13))
        x += 23
    for sun in p.suns_down:
        out.append(sun_svg(sun, x, y + 35, 10, False))
        x += 23
    shown = [t for t in (*KEPT, *SCORED_EACH_EPOCH) if p.display[t]]
    room = WIDTH - 8 - (x - 4)
    step = min(34.0, room / max(1, len(shown)))
    size = min(30.0, step - 2)
    for t in shown:
        out.append(tile_svg(t, x, y + 20, size))
        out.append(_count(p.display[t], x + size, y + 20))
        x += step
    out.append("</g>")
    return out


def _count(n: int, x: float, y: float) -> str:
    """Return a pile's count as a small dark badge on the upper right corner of its tile ("" for one tile)."""
    if n < 2:
        return ""
    return (
        f'<circle cx="{x - 2:.1f}" cy="{y + 2:.1f}" r="7" fill="#000" stroke="#fff" stroke-width="1"/>'
        f'<text x="{x - 2:.1f}" y="{y + 6:.1f}" font-size="10" font-weight="bold" text-anchor="middle" '
        f'fill="#fff">{n}</text>'
    )


def _mine(s: State, i: int, y: float, name: str, controls: Controls | None, rows: int) -> list[str]:
    """Return your panel: name, fame, turn; your suns and Pass, Done, Confirm or Clear; your tiles."""
    p = s.players[i]
    deciding = i == s.to_move
    own = controls if deciding else None
    height = 86 + rows * _MINE_STEP + 4
    cls = f"{PANEL} ra-deciding {STRONG}" if deciding else PANEL
    stroke = 'stroke="#000" stroke-width="3"' if deciding else 'stroke="#777"'
    label = f"{name}: fame {p.fame}" + (", decides now" if deciding else "")
    out = [
        f'<g role="group" aria-label="{escape(label)}">',
        f'<rect class="{cls}" x="2" y="{y:.1f}" width="{WIDTH - 4}" height="{height}" rx="6" '
        f'fill="{"#fff8dc" if deciding else "#ffffff"}" {stroke}/>',
        text_element(8, y + 18, f"{name}  \u00b7  fame {p.fame}", 14, "bold"),
        text_element(WIDTH - 8, y + 18, _badges(s, i), 13, "bold", "end"),
    ]
    if own is not None and own.picked:
        out += _put_back(own, y + 30)
        out += _buttons(own, WIDTH - 8, y + 30)
        out += _my_tiles(p, y + 86, own)
        out.append("</g>")
        return out
    bids = {a.sun for a in own.actions if isinstance(a, Bid)} if own else set()
    suns = len(p.suns_up) + len(p.suns_down)
    step = min(52.0, 212 / max(1, suns))
    r = min(22.0, step / 2 - 3)
    x = 8 + step / 2
    for sun in p.suns_up:
        disk = sun_svg(sun, x, y + 52, r, True)
        mark = frame(x - r, y + 52 - r, 2 * r, 2 * r, round_=True)
        out.append(target(disk, f"Bid sun {sun}", action=f"bid {sun}", mark=mark) if sun in bids else disk)
        x += step
    for sun in p.suns_down:
        out.append(sun_svg(sun, x, y + 52, r, False))
        x += step
    out += _buttons(own, WIDTH - 8, y + 30)
    out += _my_tiles(p, y + 86, own)
    out.append("</g>")
    return out


def _put_back(own: Controls, y: float) -> list[str]:
    """Return a piece per kind of tile picked to lose, in the row of your suns: a click puts one back.

    Each is the tile with its "−n", framed 50 units (44 px on a 360 px screen), where the "−n" on
    the pile itself would be a target too small for a thumb. The suns take no click while you lose
    tiles, so they give up their row to the choice in progress.
    """
    out = []
    for k, t in enumerate(sorted(set(own.picked))):
        x = 12 + k * _MINE_STEP  # four fit left of Confirm and Clear: 8 to 214, the buttons from 218
        lost = own.picked.count(t)
        piece = tile_svg(t, x, y + 2, _MINE_TILE) + loss_badge(x + 6, y + _MINE_TILE - 10, lost)
        label = f"Keep one {tile_name(t)} after all ({lost} chosen to lose)"
        out.append(target(piece, label, ui=f"unpick {t.label}", mark=frame(x, y + 2, _MINE_TILE, _MINE_TILE)))
    return out


def _buttons(own: Controls | None, right: float, y: float) -> list[str]:
    """Return Pass or Done, or Confirm and Clear, right-aligned at `right`, 44 units tall."""
    if own is None:
        return []
    wanted: list[tuple[str, str, str, str, str]] = []  # word, label, action, ui, fill
    for kind, word, label in ((Pass, "Pass", "Pass (do not bid)"), (Done, "Done", "Done: use no more gods")):
        if any(isinstance(a, kind) for a in own.actions):
            wanted.append((word, label, word.lower(), "", "#ffffff"))
    chosen = own.chosen()
    if chosen is not None:
        lose = "Confirm: lose " + ", ".join(tile_name(t) for t in chosen.tiles)
        wanted.append(("Confirm", lose, str(chosen), "", "#F0E442"))
    if own.picked:
        wanted.append(("Clear", "Clear the tiles picked to lose", "", "clear", "#ffffff"))
    out = []
    width = 80 if len(wanted) > 1 else 108  # two: 170 units, room for four tiles picked beside them
    x = right - width
    for word, label, action, ui, fill in reversed(wanted):
        button = _big_button(x, y, width, word, fill)
        out.append(target(button, label, action=action, ui=ui, mark=frame(x, y, width, 44)))
        x -= width + 10
    return out


def _big_button(x: float, y: float, width: float, word: str, fill: str) -> str:
    """Return a button 44 units tall (`button_svg`'s are 26), its word in 16-unit bold."""
    small = button_svg(x, y, width, word, fill)
    word_at = f'y="{y + 18:.1f}" font-size="13"'
    return small.replace('height="26"', 'height="44"', 1).replace(word_at, f'y="{y + 28:.1f}" font-size="16"', 1)


def _my_tiles(p: Player, y: float, own: Controls | None) -> list[str]:
    """Return your tiles, kept ones first, each 40 units; with controls, a god to use and tiles to lose take clicks."""
    out = []
    shown = [t for t in (*KEPT, *SCORED_EACH_EPOCH) if p.display[t]]
    if not shown:
        out.append(text_element(8, y + 24, "No tiles yet.", 12))
    for k, t in enumerate(shown):
        x = 8 + (k % _PER_ROW) * _MINE_STEP + 4
        ty = y + (k // _PER_ROW) * _MINE_STEP + 4
        out.append(_my_pile(t, p.display[t], x, ty, own))
    return out


def _my_pile(t: Tile, count: int, x: float, y: float, own: Controls | None) -> str:
    """Return one of your piles: the tile and its count; a god to use or a tile to lose is a framed piece."""
    size, name = _MINE_TILE, tile_name(t)
    mark = frame(x, y, size, size)
    if own is None:
        return tile_svg(t, x, y, size) + _count(count, x + size, y)
    if t is Tile.GOD and any(isinstance(a, UseGod) for a in own.actions):
        pile = tile_svg(t, x, y, size) + _count(count, x + size, y)
        label = (
            "Use a god (chosen: now click a tile on the auction track)"
            if own.god
            else "Use a god: choose it, then a slot"
        )
        if own.god:
            pile += outline(x, y, "#000")
        return target(pile, label, ui="god", pressed=own.god, mark=mark)
    lost = own.picked.count(t)
    left = count - lost
    pile = tile_svg(t, x, y, size) if left else f'<g opacity="{LOST}">{tile_svg(t, x, y, size)}</g>'
    pile += _count(left, x + size, y)
    keep = f"Keep one {name} after all ({lost} chosen to lose)"
    if lost:
        pile += loss_badge(x + 6, y + size - 12, lost)  # a mark: the piece that puts one back is `_put_back`
    if own.can_pick(t):
        return target(pile, f"Lose one {name} (you have {left} left)", ui=f"pick {t.label}", mark=mark)
    return target(pile, keep, ui=f"unpick {t.label}", mark=mark) if lost else pile
