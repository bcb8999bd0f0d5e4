"""The board as the control surface of a game: what a click on a piece of the board does.

Standard library only. The SVG board (`ra_core.pictures.svg.svg` with `Controls`) marks every piece that
stands for one of your legal actions with that action's text (``data-action="bid 9"``), and the
pieces that only prepare one with a step (``data-ui="god"``, ``data-ui="pick art"``). A front end
sends back what was clicked; `BoardClicks.press` plays the action on the `PlayController`, or
takes the step. A god is used in two clicks (your god tile, then a slot), a disaster's losses
in several (each tile to lose, then Confirm), so that a stray click never costs a tile.

A click that is not a choice now changes nothing and says why in `message`:

>>> from ra_core.widgets import PlayController
>>> board = BoardClicks(PlayController(players=3, you=2, seed=1))
>>> board.press(ui="god")
False
>>> board.controller.message
'You have no god to use now. Click the bag to draw a tile, or the Ra statue to call Ra.'
>>> 'data-action="draw"' in board.svg()
True
"""

from __future__ import annotations

from ..engine.actions import Bid, CallRa, Discard, Done, Draw, Pass, UseGod
from ..engine.tiles import Tile
from ..pictures.pieces import Controls
from ..pictures.svg import svg
from ..pictures.words import tile_name
from .controllers import PlayController
from .inputs import describe_value
from .overlay import scores_overlay

__all__ = ["BoardClicks", "hint"]


def hint(controls: Controls) -> str:
    """Return where to click for each of the legal actions, as one sentence."""
    kinds = {type(a) for a in controls.actions}
    ways = []
    if Draw in kinds:
        ways.append("the bag to draw a tile")
    if CallRa in kinds:
        ways.append("the Ra statue to call Ra")
    if UseGod in kinds:
        ways.append("a tile on the auction track to take it" if controls.god else "your god tile, then a slot")
    if Bid in kinds:
        ways.append("one of your framed suns to bid it")
    if Pass in kinds:
        ways.append("Pass")
    if Done in kinds:
        ways.append("Done to end your turn")
    if Discard in kinds:
        ways.append("Confirm" if controls.chosen() else "the tiles you choose to lose, then Confirm")
    if not ways:
        return ""
    return "Click " + (", ".join(ways[:-1]) + ", or " + ways[-1] if len(ways) > 1 else ways[0]) + "."


class BoardClicks:
    """Turns clicks on the board into actions on a `PlayController`, and keeps a choice in progress.

    Attributes:
        controller: the game; its `message` says why a click did nothing.
        god: whether your god tile is chosen (the next click on a slot takes that tile).
        picked: the tiles chosen so far to lose to a disaster.
    """

    def __init__(self, controller: PlayController) -> None:
        self.controller = controller
        self.god = False
        self.picked: tuple[Tile, ...] = ()
        self._version = controller.version  # a choice in progress belongs to one position
        self.scored = len(controller.state.scores)  # the epochs whose scores were shown and closed

    def scores_due(self) -> bool:
        """Return whether an epoch was scored since the scores were last closed (they cover the board)."""
        scores = self.controller.state.scores
        self.scored = min(self.scored, len(scores))  # after an undo or a new game
        return len(scores) > self.scored

    def status(self) -> str:
        """Return the status line: the controller's, or what to do with the scores shown."""
        c = self.controller
        if not self.scores_due():
            return c.status()
        if c.state.is_terminal():
            return f"{c.status()} Click Close to see the final board."
        return f"Epoch {c.state.scores[-1].epoch} is scored: read the scores, then click Continue."

    def controls(self) -> Controls:
        """Return what you may click now: your legal actions (none while others move) and the choice so far."""
        c = self.controller
        if self._version != c.version:  # the game moved on (a bot, undo, a new game): start afresh
            self.god, self.picked, self._version = False, (), c.version
        mine = c.is_your_turn() and not c.halted and not self.scores_due()
        actions = tuple(c.state.legal_actions()) if mine else ()
        return Controls(actions, self.god, self.picked, self.last_move())

    def last_move(self) -> tuple[int, str] | None:
        """Return the seat and text of the last move, if a bot (not one of your seats) made it."""
        c = self.controller
        for k in range(len(c.actions) - 1, -1, -1):
            if not c.actions[k].startswith("reveal"):
                seat = c.states[k].to_move
                return (seat, c.actions[k]) if seat >= 0 and seat not in c.you else None
        return None

    def svg(self, width: int | None = None) -> str:
        """Return the board with its controls (the SVG picture only; the text twin is `controller.text`)."""
        c = self.controller
        board = str(svg(c.state, you=c.you, names=c._bot_names(), width=width, controls=self.controls()))
        if self.scores_due():
            board = board.removesuffix("</svg>") + scores_overlay(c.state, c._bot_names(), c.you) + "</svg>"
        return board

    def press(self, action: str = "", ui: str = "", version: int | None = None, label: str = "") -> bool:
        """Handle a click on the board; return whether the game or the choice in progress changed.

        Args:
            action: the clicked piece's action text (its ``data-action``), played as it is.
            ui: the clicked piece's step (its ``data-ui``): ``god``, ``pick TILE``, ``unpick TILE``,
                ``clear``, or ``dismiss`` (close the scores shown over the board).
            version: the controller's `version` when the board was drawn; a click on an older
                board is refused (a double click, a board still showing a bot's move).
            label: what was clicked, in words, if it was no control (a stray click).
        """
        c = self.controller
        controls = self.controls()
        if version is not None and version != c.version:
            c.message = "That click was on an earlier board; nothing changed. Look again and choose."
            return False
        if self.scores_due():
            if ui == "dismiss":
                self.scored, c.message = len(c.state.scores), ""
                return True
            c.message = "First close the scores over the board: click " + (
                "Close." if c.state.is_terminal() else "Continue."
            )
            return False
        if action:
            played = c.click(action, version)
            if played:
                self.god, self.picked, self._version = False, (), c.version
            return played
        c.message = ""
        if not controls.actions:
            c.message = c.status() if not c.state.is_terminal() else "The game is over: start a new game."
            return False
        step, _, arg = ui.partition(" ")
        if step == "god" and any(isinstance(a, UseGod) for a in controls.actions):
            self.god = not self.god
            return True
        if step == "clear" and self.picked:
            self.picked = ()
            return True
        tile = _tile(arg)
        if step == "pick" and tile is not None and controls.can_pick(tile):
            self.picked = tuple(sorted((*self.picked, tile)))
            return True
        if step == "unpick" and tile is not None and tile in self.picked:
            rest = list(self.picked)
            rest.remove(tile)
            self.picked = tuple(rest)
            return True
        c.message = self._refusal(controls, step, tile, label)
        return False

    @staticmethod
    def _refusal(controls: Controls, step: str, tile: Tile | None, label: str) -> str:
        """Return why a click did nothing, and where to click instead."""
        where = hint(controls)
        if step == "god":
            return f"You have no god to use now. {where}"
        if step == "pick" and tile is not None:
            return f"{tile_name(tile).capitalize()} is not among the tiles you may lose now. {where}"
        if step or not label:
            return f"Nothing to do there now. {where}"
        return f"{describe_value(label)}: nothing to do there now. {where}"


def _tile(text: str) -> Tile | None:
    try:
        return Tile.from_label(text) if text else None
    except ValueError:
        return None
