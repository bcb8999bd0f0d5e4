"""The notebook's game table: the board as the control surface, each click judged by `ra_core.table.judge`.

Standard library only. The SVG board (`ra_core.pictures.svg.svg` with `Controls`) marks every piece that
stands for one of your legal actions with that action's text (``data-action="bid 9"``), and the
pieces that only prepare one with a step (``data-ui="god"``, ``data-ui="pick art"``). A front end
sends back what was clicked; `BoardClicks.press` reads it once (`ra_core.table.read_click`) and
hands it to the one judge of a click, `ra_core.table.judge`, which the classroom's tables ask too:
the board's version, whose turn it is and whether the move is legal are each checked there and
nowhere else. The answer says what happened (`Answer`): a move played (handed to
`TableController.move` as the engine's own action), a step of a choice taken, or nothing, and
why. What the table keeps between clicks is kept here: the choice in progress (a `Selection`)
and the scores shown over the board until closed.

A click that is not a choice now changes nothing and says why:

>>> from ra_core.widgets import TableController
>>> board = BoardClicks(TableController(players=3, you=2, seed=1))
>>> board.press(ui="god")
Answer(kind='refused', text='You have no god to use now. Click the bag to draw a tile, or the Ra statue to call Ra.')
>>> board.controller.message == board.press(ui="god").text
True
>>> board.press(action="ra")
Answer(kind='played', text='ra')
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.tiles import Tile
from ..pictures.controls import Controls
from ..pictures.portrait import WIDTH as PORTRAIT_WIDTH
from ..pictures.portrait import portrait_svg
from ..pictures.svg import svg
from ..table import Answer, Click, Selection, controls, judge, read_click
from .controllers import Reply, TableController
from .overlay import scores_overlay

__all__ = ["Answer", "BoardClicks"]


class BoardClicks:
    """The notebook table's clicks: each is judged by `ra_core.table.judge`, then played or refused here.

    It keeps what a click may start and not finish: a choice in progress (a god chosen, tiles
    picked to lose), and the scores shown over the board until closed. The game itself
    (positions, bots, undo, records) is the `TableController`'s, which plays the moves judged.

    Attributes:
        controller: the game; its `message` says why a click did nothing.
        selection: the choice in progress (see `ra_core.table.Selection`).
        scored: the epochs whose scores were shown and closed.
    """

    def __init__(self, controller: TableController) -> None:
        self.controller = controller
        self.selection = Selection()
        self._version = controller.version  # a choice in progress belongs to one position
        self._opened = controller.opened  # and scores shown to one game
        self.scored = len(controller.state.scores)
        self._board: tuple[tuple[object, ...], Controls, bool] | None = None  # the board as judged, by what it shows

    @property
    def god(self) -> bool:
        """Return whether your god tile is chosen (the next click on a slot takes that tile)."""
        return self.controls().god

    @property
    def picked(self) -> tuple[Tile, ...]:
        """Return the tiles chosen so far to lose to a disaster."""
        return self.controls().picked

    def scores_due(self) -> bool:
        """Return whether an epoch was scored since the scores were last closed (they cover the board)."""
        return self._judged()[1]

    def status(self) -> str:
        """Return the status line: the controller's, or what to do with the scores shown."""
        return self._status(*self._judged())

    def _status(self, board: Controls, scores_due: bool) -> str:
        c = self.controller
        if not scores_due:
            if board.actions and (board.god or board.picked):  # a choice in progress: say its next step
                return c.status().split(": ", 1)[0] + f": {board.prompt()}."
            return c.status()
        if c.state.is_terminal():
            return f"{c.status()} Click Close to see the final board."
        return f"Epoch {c.state.scores[-1].epoch} is scored: read the scores, then click Continue."

    def controls(self) -> Controls:
        """Return what you may click now: your legal actions (none while others move) and the choice so far."""
        return self._judged()[0]

    def _judged(self) -> tuple[Controls, bool]:
        """Return the board as it stands: what you may click (`ra_core.table.controls`) and whether scores cover it.

        Both are worked out once for each board: a click's judgement leaves them here (`answer`),
        and drawing the board again reads them.
        """
        c = self.controller
        if self._version != c.version:  # the game moved on (a bot, undo, a new game): start afresh
            self.selection, self._version = Selection(), c.version
        scores = len(c.state.scores)
        if self._opened != c.opened:  # a new or loaded game: its earlier epochs need no showing
            self._opened, self.scored = c.opened, scores
        self.scored = min(self.scored, scores)  # after an undo
        shown = self._shown()
        if self._board is None or self._board[0] != shown:
            self._board = (shown, *self._work_out(scores > self.scored))
        return self._board[1], self._board[2]

    def _work_out(self, scores_due: bool) -> tuple[Controls, bool]:
        """Return what you may click on the board as it stands (`ra_core.table.controls`: whose turn it is)."""
        c = self.controller
        board = controls(
            c.state, c.you, self.selection, closed=self._closed(), scores_shown=scores_due, last=self.last_move()
        )
        return board, scores_due

    def _shown(self) -> tuple[object, ...]:
        """Return what the board as drawn depends on: the position's version, the scores closed, the choice, a pause."""
        c = self.controller
        return (c.version, self.scored, self.selection, c.halted)

    def _keep(self, board: Controls, scores_due: bool) -> None:
        """Keep the board as judged, for drawing it (until the game or the choice changes)."""
        self._board = (self._shown(), board, scores_due)

    def _closed(self) -> str:
        """Return why the table takes no move now (a paused game: the controller says why), or ""."""
        c = self.controller
        return (c.message or "The game is paused.") if c.halted else ""

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
        return self._svg(*self._judged(), width, portrait, self.controller.facts())

    def drawn(self, told: Sequence[str], *, portrait: bool = False) -> tuple[str, str]:
        """Return the board (as `svg` draws it) and the status line, the board as judged worked out once for both.

        `told`: the position's facts (`controller.facts()`), which title the picture.
        """
        board, due = self._judged()
        return self._svg(board, due, None, portrait, told), self._status(board, due)

    def _svg(self, board: Controls, due: bool, width: int | None, portrait: bool, told: Sequence[str]) -> str:
        c = self.controller
        you, names = c.you, c._bot_names()
        if portrait:
            drawn = str(portrait_svg(c.state, you=you, names=names, controls=board, told=told))
        else:
            drawn = str(svg(c.state, you=you, names=names, width=width, controls=board, told=told))
        if due:
            overlay = scores_overlay(c.state, names, c.you)
            if portrait:  # the card is drawn for 760 units: shrink it to the phone board's width
                veil = f'<rect class="ra-veil" x="0" y="0" width="{PORTRAIT_WIDTH}" height="100%" fill="#fff" '
                veil += 'opacity="0.75"/>'
                overlay = f'{veil}<g transform="scale({PORTRAIT_WIDTH / 760:.4f})">{overlay}</g>'
            drawn = drawn.removesuffix("</svg>") + overlay + "</svg>"
        return drawn

    def press(
        self,
        action: object = "",
        ui: object = "",
        version: object = None,
        label: object = "",
        sun: object = None,
        *,
        reply: Reply = "now",
    ) -> Answer:
        """Judge a click on the board (or a move typed in a cell), play it or refuse it, and say which.

        The click is read once (`ra_core.table.read_click`), then judged once
        (`ra_core.table.judge`): the board's `version`, the scores shown over the board, whose
        turn it is, the move's legality.

        Args:
            action: the clicked piece's action text (its ``data-action``), or a move's text.
            ui: the clicked piece's step (its ``data-ui``): ``god``, ``pick TILE``, ``unpick TILE``,
                ``clear``, or ``dismiss`` (close the scores shown over the board).
            version: the controller's `version` when the board was drawn; None (a cell) is not checked.
            label: what was clicked, in words, if it was no control (a stray click).
            sun: the number of the sun a stray click hit (its piece's ``data-sun``), if it hit one.
            reply: how the bots answer a move played (see `ra_core.widgets.controllers.Reply`).

        The answer's text is also left in the controller's `message` when the click is refused.
        """
        message = {"action": action, "ui": ui, "version": version, "label": label, "sun": sun}
        return self.answer(read_click(message, versioned=version is not None), reply=reply)

    def answer(self, click: Click, *, reply: Reply = "now") -> Answer:
        """Judge a click read at the edge (`ra_core.table.read_click`), play it or refuse it, and say which."""
        c = self.controller
        board, due = self._judged()  # the board as drawn: whose turn it is, worked out once for it
        verdict = judge(
            c.state,
            click,
            version=c.version,
            seats=c.you,
            names=c._bot_names(),
            selection=self.selection,
            closed=self._closed(),
            scores_shown=due,
            board=board,
        )
        if not verdict:
            c.message = verdict.text
            self._keep(verdict.board, due)
            return verdict
        c.message = ""
        if verdict.action is not None:
            c.move(verdict.action, reply)  # a new board: its controls are worked out when it is drawn
            return verdict
        if click.ui == "dismiss":  # the board under the scores: your choices, worked out when it is drawn
            self.scored = len(c.state.scores)
            return verdict
        self.selection = verdict.selection
        self._keep(verdict.board, due)
        return verdict
