"""The pieces of the board that take a click: their frames, marks, buttons, the bag and the Ra statue.

A piece you may click now is a focusable button (`target`) framed in blue (`frame`); a piece
that is no choice now is drawn faded (`FADED`). The marks say what happened or is chosen: a
ring around the move just made (`ring`), the "−n" of tiles chosen to lose (`loss_badge`).
Every function returns SVG markup as text, byte-stable for the notebooks' comparisons.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ..engine.actions import Action, CallRa, Draw
from .pieces import VERMILLION, text_element
from .theme import FADE, INK, MARKED, PANEL, classed

__all__ = [
    "FADED",
    "LOST",
    "MARK",
    "bag_and_statue",
    "bag_svg",
    "button_svg",
    "frame",
    "loss_badge",
    "move_words",
    "outline",
    "ring",
    "statue_svg",
    "target",
]


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
