"""The board as the control surface of a game: the one place that decides what a click does.

Standard library only. The SVG board (`ra_core.pictures.svg.svg` with `Controls`) marks every piece that
stands for one of your legal actions with that action's text (``data-action="bid 9"``), and the
pieces that only prepare one with a step (``data-ui="god"``, ``data-ui="pick art"``). A front end
sends back what was clicked; `BoardClicks.press` judges it, once: the board's version, whose
turn it is and whether the move is legal are each checked there and nowhere else, and the
answer says what happened (`Answer`): a move played (handed to `PlayController.play`), a step
of a choice taken, or nothing, and why. A god is used in two clicks (your god tile, then a
slot), a disaster's losses in several (each tile to lose, then Confirm), so that a stray click
never costs a tile.

A click that is not a choice now changes nothing and says why:

>>> from ra_core.widgets import PlayController
>>> board = BoardClicks(PlayController(players=3, you=2, seed=1))
>>> board.press(ui="god")
Answer(kind='refused', text='You have no god to use now. Click the bag to draw a tile, or the Ra statue to call Ra.')
>>> board.controller.message == board.press(ui="god").text
True
>>> board.press(action="ra")
Answer(kind='played', text='ra')
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from ..engine.actions import Action, UseGod, parse_action
from ..engine.tiles import Tile
from ..pictures.pieces import Controls
from ..pictures.portrait import WIDTH as PORTRAIT_WIDTH
from ..pictures.portrait import portrait_svg
from ..pictures.svg import svg
from ..pictures.words import tile_name
from .controllers import PlayController, Reply
from .inputs import describe_value
from .overlay import scores_overlay

__all__ = ["Answer", "BoardClicks"]


class Answer(NamedTuple):
    """What a click did: ``played`` a move, took a ``step`` of a choice, or was ``refused``.

    Attributes:
        kind: ``"played"``, ``"step"`` or ``"refused"``.
        text: the move played (its notation, ``"bid 9"``), the step taken (``"pick art"``),
            or why nothing changed and where to click instead.

    An answer is true unless the click was refused.
    """

    kind: Literal["played", "step", "refused"]
    text: str

    def __bool__(self) -> bool:
        return self.kind != "refused"


class BoardClicks:
    """The one owner of a click on the game table: it judges the click, plays or refuses it, and says which.

    It keeps what a click may start and not finish: a god chosen, tiles picked to lose, scores
    shown over the board until closed. The game itself (positions, bots, undo, records) is the
    `PlayController`'s, which plays the moves judged here.

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
        self._opened = controller.opened  # and scores shown to one game
        self.scored = len(controller.state.scores)  # the epochs whose scores were shown and closed

    def scores_due(self) -> bool:
        """Return whether an epoch was scored since the scores were last closed (they cover the board)."""
        c = self.controller
        scores = c.state.scores
        if self._opened != c.opened:  # a new or loaded game: its earlier epochs need no showing
            self._opened, self.scored = c.opened, len(scores)
        self.scored = min(self.scored, len(scores))  # after an undo
        return len(scores) > self.scored

    def status(self) -> str:
        """Return the status line: the controller's, or what to do with the scores shown."""
        c = self.controller
        if not self.scores_due():
            controls = self.controls()
            if controls.actions and (controls.god or controls.picked):  # a choice in progress: say its next step
                return c.status().split(": ", 1)[0] + f": {controls.prompt()}."
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

    def svg(self, width: int | None = None, *, portrait: bool = False) -> str:
        """Return the board with its controls (the SVG picture only; the text twin is `controller.text`).

        With `portrait`, the phone's board (`ra_core.pictures.portrait`), its scores drawn to its width.
        """
        c = self.controller
        if portrait:
            board = str(portrait_svg(c.state, you=c.you, names=c._bot_names(), controls=self.controls()))
        else:
            board = str(svg(c.state, you=c.you, names=c._bot_names(), width=width, controls=self.controls()))
        if self.scores_due():
            overlay = scores_overlay(c.state, c._bot_names(), c.you)
            if portrait:  # the card is drawn for 760 units: shrink it to the phone board's width
                veil = f'<rect class="ra-veil" x="0" y="0" width="{PORTRAIT_WIDTH}" height="100%" fill="#fff" '
                veil += 'opacity="0.75"/>'
                overlay = f'{veil}<g transform="scale({PORTRAIT_WIDTH / 760:.4f})">{overlay}</g>'
            board = board.removesuffix("</svg>") + overlay + "</svg>"
        return board

    def press(
        self, action: str = "", ui: str = "", version: int | None = None, label: str = "", *, reply: Reply = "now"
    ) -> Answer:
        """Judge a click on the board (or a move typed in a cell), play it or refuse it, and say which.

        The checks, each made here once: the board's `version` (a click on an earlier board is
        refused), the scores shown over the board, whose turn it is (the `controls`: your legal
        actions, none unless one of your seats decides now), and the move's legality (it must be
        one of those actions; the engine's `State.apply` then finds it by identity).

        Args:
            action: the clicked piece's action text (its ``data-action``), or a move's text.
            ui: the clicked piece's step (its ``data-ui``): ``god``, ``pick TILE``, ``unpick TILE``,
                ``clear``, or ``dismiss`` (close the scores shown over the board).
            version: the controller's `version` when the board was drawn; None (a cell) is not checked.
            label: what was clicked, in words, if it was no control (a stray click).
            reply: how the bots answer a move played (see `ra_core.widgets.controllers.Reply`).

        The answer's text is also left in the controller's `message` when the click is refused.
        """
        c = self.controller
        if not all(type(x) is str for x in (action, ui, label)) or not (version is None or type(version) is int):
            return self._refuse("That is no click on the board (a piece's text, the board's version): no change.")
        if version is not None and version != c.version:
            return self._refuse("That click was on an earlier board; nothing changed. Look again and choose.")
        if self.scores_due():
            if ui == "dismiss":
                self.scored, c.message = len(c.state.scores), ""
                return Answer("step", ui)
            return self._refuse("First close the scores over the board: click " + (
                "Close." if c.state.is_terminal() else "Continue."))  # fmt: skip
        controls = self.controls()
        if not controls.actions:
            return self._refuse(self._not_yours())
        c.message = ""
        if action:
            chosen = _legal(action, controls.actions)
            if chosen is None:
                legal = ", ".join(map(str, controls.actions))
                if action.startswith("reveal"):  # a saved game's tiles must follow its seed: no tile is forced
                    return self._refuse(f"The bag draws the tiles (the game's seed decides which), not a click. "
                                        f"Your choices: {legal}.")  # fmt: skip
                return self._refuse(f"Not legal now: {describe_value(action)}. Your choices: {legal}.")
            self.god, self.picked = False, ()
            c.play(chosen, reply)
            self._version = c.version
            return Answer("played", str(chosen))
        step, _, arg = ui.partition(" ")
        tile = _tile(arg)
        if step == "god" and any(isinstance(a, UseGod) for a in controls.actions):
            self.god = not self.god
        elif step == "clear" and self.picked:
            self.picked = ()
        elif step == "pick" and tile is not None and controls.can_pick(tile):
            self.picked = tuple(sorted((*self.picked, tile)))
        elif step == "unpick" and tile is not None and tile in self.picked:
            rest = list(self.picked)
            rest.remove(tile)
            self.picked = tuple(rest)
        else:
            return self._refuse(self._refusal(controls, step, tile, label))
        return Answer("step", ui)

    def _refuse(self, why: str) -> Answer:
        """Return the refusal `why`, and show it as the controller's message."""
        self.controller.message = why
        return Answer("refused", why)

    def _not_yours(self) -> str:
        """Return why you have no choice now: the game is over, paused, or another seat decides."""
        c = self.controller
        s = c.state
        if s.is_terminal():
            return "The game is over: start a new game, undo, or load one."
        if c.halted:
            return c.message or "The game is paused: undo, load or start a new game."
        if s.to_move >= 0:
            return f"Not your turn: {c.player_name(s.to_move)} is to move."
        return "Not your turn: a tile is being drawn from the bag (the game's seed decides which)."

    @staticmethod
    def _refusal(controls: Controls, step: str, tile: Tile | None, label: str) -> str:
        """Return why a click did nothing, and where to click instead."""
        where = controls.hint()
        if step == "god":
            return f"You have no god to use now. {where}"
        if step == "pick" and tile is not None:
            return f"{tile_name(tile).capitalize()} is not among the tiles you may lose now. {where}"
        if step or not label:
            return f"Nothing to do there now. {where}"
        return f"{describe_value(label)}: nothing to do there now. {where}"


def _legal(text: str, legal: tuple[Action, ...]) -> Action | None:
    """Return the legal action whose notation is `text` (the engine's own object), or None."""
    try:
        wanted = parse_action(text)
    except ValueError:
        return None
    return next((a for a in legal if a == wanted), None)


def _tile(text: str) -> Tile | None:
    try:
        return Tile.from_label(text) if text else None
    except ValueError:
        return None
