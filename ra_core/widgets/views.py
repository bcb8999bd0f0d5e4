"""The ipywidgets views: thin layers over the controllers.

They turn a controller's choices into buttons and show its pure renderings. All game logic and
all text live in the controllers.

Every callback goes through `_guard`, so a failure shows a message in the widget instead of a
traceback in the notebook.
"""

from __future__ import annotations

import asyncio
import base64
import re
from collections.abc import Callable, Sequence
from html import escape
from typing import Any

import ipywidgets as w

from ..pictures.narrate import since_last_move
from ..pictures.raster import picture_bundle
from ..pictures.svg import captioned, svg
from ..table import Answer, Click, read_click
from .board import BoardClicks
from .controllers import TableController
from .replay import ReplayController
from .table import TableWidget

__all__ = ["SAVED_NOTE", "TableView", "ReplayView", "View", "saved_board"]

_WRAP = w.Layout(flex_flow="row wrap")
_NUMBER = w.Layout(width="5.5em")
_NO_LABEL = {"description_width": "0px"}


def _message_html(text: str) -> str:
    if not text:
        return ""
    style = "color:var(--jp-error-color1, #a00000);font-weight:bold"  # the theme's error colour, light or dark
    return f'<div class="ra-message" role="alert" style="{style}">{escape(text)}</div>'


#: The line over the saved picture of a widget (under an HTML one): that it is a picture, and how to bring it to life.
SAVED_NOTE = "A picture of the widget as saved, not the widget: run the cell to use it."


def _saved(body: str) -> str:
    """Return `body` as the saved picture of a widget, with a line that says how to bring it to life."""
    return f'<div class="ra-saved">{body}<p class="ra-saved-note"><i>{SAVED_NOTE}</i></p></div>'


def saved_board(board: str, caption: Sequence[str]) -> str:
    """Return the saved picture of a widget that shows a board: `SAVED_NOTE` at its top, then `caption`, then the board.

    The note comes first, on a strip of its own, and the board loses the blue frames of the pieces
    to click: a picture must not look like a table waiting for a click.
    """
    still = re.sub(r'<(?:rect|circle) class="ra-mark"[^>]*/>', "", board)
    return str(captioned(still, caption, banner=SAVED_NOTE))


class View:
    """Common parts: the top-level widget, display in a notebook, and guarded callbacks."""

    widget: w.Widget
    message: w.HTML
    controller: Any

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """Show the widget; where widgets do not run, a picture of it (HTML) and its text.

        A notebook keeps every form of an output. A saved widget view shows only with its kernel
        (JupyterLab says "Error displaying widget: model not found" without one), so the
        notebooks are committed with the picture and the text only (``tools/execute_notebooks.py``
        drops the saved view): opened without running, they show the board; run, the widget.
        A view that shows a board saves it as an SVG with a PNG of it (`board_picture`), which
        shows in an untrusted notebook too; the others save HTML (`picture`).
        """
        data = self.widget._repr_mimebundle_(**kwargs) or {}
        board = self.board_picture()
        if board:  # a picture, not HTML, so that an untrusted notebook shows it too (ra_core.pictures.raster)
            data.update(picture_bundle(board, self.text()))
        else:
            data["text/html"] = self.picture()
            data["text/plain"] = self.text()
        return data

    def board_picture(self) -> str:
        """Return what the widget shows as one SVG picture (a board under a caption), or "" if it shows no board."""
        return ""

    def text(self) -> str:
        """Return what the widget shows, as plain text."""
        return str(self.controller.text())

    def picture(self) -> str:
        """Return what the widget shows, as HTML that needs no kernel (the text, unless a view draws more)."""
        return f'<pre class="ra-saved">{escape(self.text())}</pre>'

    def refresh(self) -> None:
        """Show the controller's current state."""
        raise NotImplementedError

    def _do(self, move: Callable[[], Any]) -> None:
        """Make a move on the controller, then show the result."""
        move()
        self.refresh()

    def _guard(self, fn: Callable[..., Any]) -> Callable[..., None]:
        """Wrap a callback: any failure becomes a message in the widget, never a traceback."""

        def run(*args: Any) -> None:
            try:
                fn(*args)
            except Exception as e:  # the last line of defence for the notebook  # noqa: BLE001
                self._alarm(f"Something went wrong ({type(e).__name__}: {e}); nothing changed.")

        return run

    def _alarm(self, text: str) -> None:
        """Show `text` as the widget's message."""
        self.message.value = _message_html(text)


# -- play -------------------------------------------------------------------------------------


class TableView(View):
    """A game of Ra in a cell: the board you click on, the last moves beside it, the log, and more.

    The board is the control surface (a `TableWidget`): click the bag, the Ra statue, a god tile
    then a slot, one of your suns, Pass or Done, or the tiles to lose to a disaster. Undo, new
    game, the bots' pace, save and load are ordinary buttons under it; the whole log is below.

    A click goes: front end -> `TableWidget` (the message read once) -> `answer` ->
    `BoardClicks.answer` -> `ra_core.table.judge` (the one judge of a click) ->
    `TableController.move` -> the engine. The view asks for the bots' reply ``"later"`` and
    runs it itself on the kernel's event loop, so your move is on the board before they think.

    Attributes:
        controller: the `TableController`; everything shown is rendered from it.
        clicks: the `BoardClicks` that judge clicks on the board.
        delay: seconds between two visible bot steps when bots go step by step.
        step_by_step: whether the bots move one visible step at a time (else all at once).
    """

    def __init__(self, controller: TableController, delay: float = 0.6, step_by_step: bool = False) -> None:
        self.controller = controller
        self.clicks = BoardClicks(controller)
        self.delay = delay
        self.step_by_step = step_by_step
        self._generation = 0  # bumps whenever the game changes: a bot timer of an older one does nothing
        self.table = TableWidget(self._guard(self.answer))
        self.log = w.HTML()
        self.scores = w.HTML()
        self.undo_button = w.Button(description="Undo", tooltip="Take back your last decision", icon="undo")
        self.new_button = w.Button(description="New game", tooltip="Start a new game (next seed)")
        self.speed = w.ToggleButtons(
            options=[("Bots: at once", False), ("Bots: step by step", True)], value=step_by_step
        )
        self.pace = w.FloatSlider(
            value=delay,
            min=0.2,
            max=3.0,
            step=0.2,
            description="Seconds per bot step",
            style={"description_width": "initial"},
            continuous_update=False,
        )
        self.pace.observe(self._guard(lambda change: setattr(self, "delay", float(change["new"]))), names="value")
        self.save_button = w.Button(description="Save", tooltip="Put the game record in the box below")
        self.load_button = w.Button(description="Load", tooltip="Load the game record from the box below")
        self.upload = w.FileUpload(accept=".json", multiple=False, description="Load file")
        self.record_box = w.Textarea(
            placeholder="A saved game record (JSON) appears here; paste one to load it.",
            layout=w.Layout(width="100%", height="6em"),
        )
        self.download = w.HTML()
        self.undo_button.on_click(self._guard(lambda _: self.undo()))
        self.new_button.on_click(self._guard(lambda _: self.new_game()))
        self.save_button.on_click(self._guard(lambda _: self.save()))
        self.load_button.on_click(self._guard(lambda _: self.load(self.record_box.value)))
        self.speed.observe(self._guard(lambda change: self.set_step_by_step(change["new"])), names="value")
        self.upload.observe(self._guard(self._uploaded), names="value")
        self.table.observe(self._guard(lambda _: self.refresh()), names="layout")  # a narrow output: the phone board
        files = w.VBox([w.HBox([self.save_button, self.load_button, self.upload, self.download]), self.record_box])
        self.widget = w.VBox(
            [
                self.table,
                w.HBox([self.undo_button, self.new_button, self.speed, self.pace], layout=_WRAP),
                self.scores,
                self.log,
                files,
            ]
        )
        self.refresh()
        self._schedule()

    def _alarm(self, text: str) -> None:
        self.table.message = text

    def board_picture(self) -> str:
        """Return the game table as a picture that needs no kernel: the status line over the board as drawn now."""
        return saved_board(self.clicks.svg(), [f"As saved: {self.clicks.status()}"])

    # -- actions ------------------------------------------------------------------------------

    def click(self, action: str, version: int | None = None) -> Answer:
        """Play `action` (its text) for you, as a click on its piece of the board does; return the answer."""
        return self.press(action=action, version=version)

    def press(
        self, action: str = "", ui: str = "", version: int | None = None, label: str = "", sun: int | None = None
    ) -> Answer:
        """Press a piece of the board in a cell, by what it stands for (a move's text, or a step); return the answer.

        It is read as a click is (`ra_core.table.read_click`); a `version` of None is not checked.
        A stray click on a sun names it by its `label` and its number (`sun`).
        """
        message = {"action": action, "ui": ui, "version": version, "label": label, "sun": sun}
        return self.answer(read_click(message, versioned=version is not None))

    def answer(self, click: Click) -> Answer:
        """Judge a click (see `BoardClicks.answer`), show the result, then let the bots answer."""
        answer = self.clicks.answer(click, reply="later")
        self.refresh()
        if answer.kind == "played":
            self._schedule()
        return answer

    def undo(self) -> None:
        """Take back your last decision."""
        self.controller.undo()
        self.refresh()
        self._schedule()

    def new_game(self, seed: int | str | None = None) -> None:
        """Start a new game."""
        self.controller.new_game(seed, reply="later")
        self.download.value = ""
        self.refresh()
        self._schedule()

    def save(self) -> None:
        """Put the record in the text box and offer it as a file."""
        text = self.controller.save()
        self.record_box.value = text
        data = base64.b64encode(text.encode()).decode()
        self.download.value = (
            f'<a download="ra-game.json" href="data:application/json;base64,{data}">Download ra-game.json</a>'
        )
        self.refresh()

    def load(self, text: str | bytes) -> None:
        """Load a saved record; a bad one shows a message and changes nothing."""
        self.controller.load(text, reply="later")
        self.refresh()
        self._schedule()

    def _uploaded(self, change: dict[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        first = files[0] if isinstance(files, (list, tuple)) else next(iter(files.values()))
        self.load(bytes(first["content"]))

    def set_step_by_step(self, flag: bool) -> None:
        """Let the bots move at once, or one visible step at a time."""
        self.step_by_step = bool(flag)
        self.refresh()
        self._schedule()

    # -- the bots' replies on the kernel's event loop ---------------------------------------

    def _schedule(self) -> None:
        """Plan the bots' next move on the kernel's event loop: all of them at once, or one step.

        Any change of the game plans afresh: a timer planned before it does nothing. Without an
        event loop (plain Python, tests) the bots move now.
        """
        self._generation += 1
        c = self.controller
        if not c.bots_pending():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            c.run_bots()
            self.refresh()
            return
        wait = self.delay if self.step_by_step else 0.001  # at once: right after your move is sent
        loop.call_later(wait, self._guard(self._tick), self._generation)

    def _tick(self, generation: int) -> None:
        """Make the bots' planned move (one step, or all), unless the game changed since it was planned."""
        if generation != self._generation:
            return
        c = self.controller
        if self.step_by_step:
            c.step()
        else:
            c.run_bots()
        self.refresh()
        self._schedule()

    # -- rendering --------------------------------------------------------------------------

    def _since(self) -> str:
        """Return what happened since your last decision (`since_last_move`), as the list beside the board.

        Before your first decision of a game the list starts with the log's first line (the new
        game, its seed, who starts).
        """
        c = self.controller
        lines = since_last_move(c.states, c.played, c.you, names=c._bot_names(), tell=c.sentence)
        if not any(s.to_move in c.you for s in c.states[:-1]) and c.log:
            lines = [c.log[0], *lines]
        items = "".join(f"<li>{escape(line)}</li>" for line in lines[-6:])
        return f'<p class="ra-since">Since your last move</p><ol>{items}</ol>'

    def refresh(self) -> None:
        """Show the controller's state: the board with its controls, status, message, log and scores."""
        c = self.controller
        told = c.facts()  # the text twin beside the board and the picture's title: worked out once
        board, status = self.clicks.drawn(told, portrait=self.table.layout == "portrait")
        lines = "".join(f"<li>{escape(line)}</li>" for line in told)
        with self.table.hold_sync():
            self.table.board = board
            self.table.status = status
            self.table.message = c.message
            self.table.recent = self._since()
            self.table.facts = lines
            self.table.version = c.version
            self.table.busy = c.bots_pending()
        self.scores.value = c.scores_html()
        self.log.value = (  # closed by default: the last lines are beside the board
            f'<details class="ra-log-all"><summary>The whole log ({len(c.log)} lines)</summary>'
            f"{c.log_html(len(c.log))}</details>"
        )
        self.undo_button.disabled = False


# -- replay -----------------------------------------------------------------------------------


class ReplayView(View):
    """A stepper over a game record: first, back, forward, last, and a slider."""

    def __init__(self, controller: ReplayController) -> None:
        self.controller = controller
        self.message = w.HTML()
        self.first_button = w.Button(description="First", icon="fast-backward")
        self.back_button = w.Button(description="Back", icon="step-backward")
        self.forward_button = w.Button(description="Forward", icon="step-forward")
        self.last_button = w.Button(description="Last", icon="fast-forward")
        self.slider = w.IntSlider(value=0, min=0, max=controller.last, description="Step", continuous_update=False)
        self.decision = w.HTML()
        self.board = w.HTML()
        self.first_button.on_click(self._guard(lambda _: self._do(controller.first)))
        self.back_button.on_click(self._guard(lambda _: self._do(controller.back)))
        self.forward_button.on_click(self._guard(lambda _: self._do(controller.forward)))
        self.last_button.on_click(self._guard(lambda _: self._do(controller.end)))
        self.slider.observe(self._guard(self._slid), names="value")
        buttons = [self.first_button, self.back_button, self.forward_button, self.last_button, self.slider]
        self.widget = w.VBox([w.HBox(buttons, layout=_WRAP), self.message, self.decision, self.board])
        self.refresh()

    def board_picture(self) -> str:
        """Return the stepper as a picture that needs no kernel: the decision over the board shown now."""
        c = self.controller
        return saved_board(svg(c.state, names=c.names), [c.decision()])

    def _slid(self, change: dict[str, Any]) -> None:
        """Go to the step the slider was moved to (not when `refresh` itself moves the slider)."""
        if change["new"] != self.controller.index:
            self._do(lambda: self.controller.go(change["new"]))

    def refresh(self) -> None:
        """Show the position and the decision taken there."""
        c = self.controller
        self.slider.max = c.last
        self.slider.value = c.index  # its observer sees the index already shown and does nothing
        self.message.value = _message_html(c.message)
        self.decision.value = f'<div class="ra-decision" style="font-size:1.1em">{escape(c.decision())}</div>'
        self.board.value = c.board_html()
