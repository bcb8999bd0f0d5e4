"""The ipywidgets views: thin layers over the controllers.

They turn a controller's choices into buttons and show its pure renderings. All game logic and
all text live in the controllers.

Every callback goes through `_guard`, so a failure shows a message in the widget instead of a
traceback in the notebook.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as w

from ..tiles import DISASTERS, FULL_BAG, Tile
from .controllers import PlayController
from .explorers import SCORED_TILES, AuctionExplorer, DisasterExplorer, ReplayController, ScoringCalculator

__all__ = ["AuctionView", "DisasterView", "PlayView", "ReplayView", "ScoringView"]

_WRAP = w.Layout(flex_flow="row wrap")
_NUMBER = w.Layout(width="5.5em")
_NO_LABEL = {"description_width": "0px"}


def _message_html(text: str) -> str:
    if not text:
        return ""
    return f'<div class="ra-message" role="alert" style="color:#a00000;font-weight:bold">{escape(text)}</div>'


class _View:
    """Common parts: the top-level widget, display in a notebook, and guarded callbacks."""

    widget: w.Widget
    message: w.HTML
    controller: Any

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """Show the widget; where widgets do not render (a text viewer, a printout), its text."""
        data = self.widget._repr_mimebundle_(**kwargs) or {}
        data["text/plain"] = self.text()
        return data

    def text(self) -> str:
        """Return what the widget shows, as plain text."""
        return str(self.controller.text())

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
                self.message.value = _message_html(f"Something went wrong ({type(e).__name__}: {e}); nothing changed.")

        return run


# -- play -------------------------------------------------------------------------------------


class PlayView(_View):
    """A game of Ra in a cell: board, your buttons, log, undo, new game, save and load.

    Attributes:
        controller: the `PlayController`; everything shown is rendered from it.
        delay: seconds between two visible bot steps when bots go step by step.
    """

    def __init__(self, controller: PlayController, delay: float = 0.6) -> None:
        self.controller = controller
        self.delay = delay
        self._generation = 0  # bumps on every refresh that may cancel a pending bot timer
        self._buttons_version = -1
        self.status = w.HTML()
        self.message = w.HTML()
        self.board = w.HTML()
        self.buttons = w.HBox(layout=_WRAP)
        self.log = w.HTML()
        self.scores = w.HTML()
        self.undo_button = w.Button(description="Undo", tooltip="Take back your last decision", icon="undo")
        self.new_button = w.Button(description="New game", tooltip="Start a new game (next seed)")
        self.speed = w.ToggleButtons(
            options=[("Bots: at once", False), ("Bots: step by step", True)],
            value=controller.step_by_step,
        )
        self.save_button = w.Button(description="Save", tooltip="Put the game record in the box below")
        self.load_button = w.Button(description="Load", tooltip="Load the game record from the box below")
        self.upload = w.FileUpload(accept=".json", multiple=False, description="Load file")
        self.record_box = w.Textarea(placeholder="A saved game record (JSON) appears here; paste one to load it.",
                                     layout=w.Layout(width="100%", height="6em"))  # fmt: skip
        self.download = w.HTML()
        self.undo_button.on_click(self._guard(lambda _: self.undo()))
        self.new_button.on_click(self._guard(lambda _: self.new_game()))
        self.save_button.on_click(self._guard(lambda _: self.save()))
        self.load_button.on_click(self._guard(lambda _: self.load(self.record_box.value)))
        self.speed.observe(self._guard(lambda change: self.set_step_by_step(change["new"])), names="value")
        self.upload.observe(self._guard(self._uploaded), names="value")
        files = w.VBox([w.HBox([self.save_button, self.load_button, self.upload, self.download]), self.record_box])
        self.widget = w.VBox(
            [
                self.status,
                self.message,
                self.buttons,
                self.board,
                self.scores,
                w.HBox([self.undo_button, self.new_button, self.speed], layout=_WRAP),
                self.log,
                files,
            ]
        )
        self.refresh()
        self._schedule()

    # -- actions ------------------------------------------------------------------------------

    def click(self, action: str, version: int | None = None) -> None:
        """Play `action` for you (what a button does), then let the bots answer."""
        self.controller.click(action, version)
        self.refresh()
        self._schedule()

    def undo(self) -> None:
        """Take back your last decision."""
        self.controller.undo()
        self.refresh()

    def new_game(self, seed: int | str | None = None) -> None:
        """Start a new game."""
        self.controller.new_game(seed)
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
        self.controller.load(text)
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
        self.controller.set_step_by_step(flag)
        self.refresh()
        self._schedule()

    # -- bots on a timer ----------------------------------------------------------------------

    def _schedule(self) -> None:
        """Start the bots' visible steps, on the kernel's event loop, if they go step by step."""
        c = self.controller
        if not (c.step_by_step and c.bots_pending()):
            return
        self._generation += 1
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:  # no event loop (plain Python): no timer, so the bots move now
            c.run_bots()
            self.refresh()
            return
        loop.call_later(self.delay, self._guard(self._tick), self._generation)

    def _tick(self, generation: int) -> None:
        """Make one bot step and plan the next (unless a newer refresh took over)."""
        if generation != self._generation:
            return
        c = self.controller
        if c.step_by_step and c.step():
            self.refresh()
            if c.bots_pending():
                asyncio.get_running_loop().call_later(self.delay, self._guard(self._tick), generation)
        elif c.bots_pending() and not c.step_by_step:
            c.run_bots()
            self.refresh()

    # -- rendering --------------------------------------------------------------------------

    def refresh(self) -> None:
        """Show the controller's state: status, message, buttons, board, scores and log."""
        c = self.controller
        self.status.value = (
            f'<div class="ra-status" style="font-size:1.2em;font-weight:bold">{escape(c.status())}</div>'
        )
        self.message.value = _message_html(c.message)
        if self._buttons_version != c.version or not c.choices():
            self._buttons_version = c.version
            self.buttons.children = [self._button(choice.action, choice.label, c.version) for choice in c.choices()]
        self.board.value = c.board_html()
        self.scores.value = c.scores_html()
        self.log.value = c.log_html()
        self.undo_button.disabled = False

    def _button(self, action: str, label: str, version: int) -> w.Button:
        style = "warning" if action == "pass" else "primary" if action in ("draw", "ra") else "info"
        b = w.Button(description=label, tooltip=action, button_style=style, layout=w.Layout(width="auto"))
        b.on_click(self._guard(lambda _: self.click(action, version)))
        return b


# -- replay -----------------------------------------------------------------------------------


class ReplayView(_View):
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


# -- auction explorer --------------------------------------------------------------------


class AuctionView(_View):
    """An auction: the lot and the bidders, and one button per legal bid or pass with its outcome."""

    def __init__(self, controller: AuctionExplorer) -> None:
        self.controller = controller
        self.message = w.HTML()
        self.summary = w.HTML()
        self.options = w.VBox()
        self.back_button = w.Button(description="Back", tooltip="Take back the last choice")
        self.reset_button = w.Button(description="Start again", tooltip="Back to the start of the auction")
        self.board = w.HTML()
        self.back_button.on_click(self._guard(lambda _: self._do(controller.back)))
        self.reset_button.on_click(self._guard(lambda _: self._do(controller.reset)))
        self.widget = w.VBox(
            [self.summary, self.message, self.options, w.HBox([self.back_button, self.reset_button]), self.board]
        )
        self.refresh()

    def choose(self, action: str) -> None:
        """Follow `action` (what an option's button does)."""
        self._do(lambda: self.controller.choose(action))

    def refresh(self) -> None:
        """Show the summary, the options and the board."""
        c = self.controller
        self.summary.value = "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in c.summary()) + "</ul>"
        self.message.value = _message_html(c.message)
        rows: list[w.Widget] = []
        for action, outcome in c.options():
            b = w.Button(description=action.capitalize(), tooltip=action, button_style="info")
            b.on_click(self._guard(lambda _, a=action: self.choose(a)))
            rows.append(w.HBox([b, w.HTML(escape(outcome))]))
        if not rows:
            rows.append(w.HTML("<p>The auction is over. Go back to try another line.</p>"))
        self.options.children = rows
        self.board.value = c.board_html()


# -- scoring calculator -----------------------------------------------------------------------


class ScoringView(_View):
    """A grid of tile counts per player for one epoch at a time, and the points table with the rules."""

    def __init__(self, controller: ScoringCalculator) -> None:
        self.controller = controller
        self.message = w.HTML()
        self.epoch = w.ToggleButtons(options=[("Epoch 1", 1), ("Epoch 2", 2), ("Epoch 3", 3)], value=1)
        self.inputs: dict[tuple[int, Tile], w.BoundedIntText] = {}
        cells: list[w.Widget] = [w.HTML("<b>tile</b>")]
        cells += [w.HTML(f"<b>P{i}</b>") for i in range(controller.players)]
        for t in SCORED_TILES:
            cells.append(w.HTML(t.label))
            for i in range(controller.players):
                box = w.BoundedIntText(value=0, min=0, max=25, layout=_NUMBER, style=_NO_LABEL)
                box.observe(self._guard(lambda change, i=i, t=t: self.set_count(i, t, change["new"])), names="value")
                self.inputs[(i, t)] = box
                cells.append(box)
        self.suns: list[w.BoundedIntText] = []
        cells.append(w.HTML("sun total (epoch 3)"))
        for i in range(controller.players):
            box = w.BoundedIntText(value=controller.sun_totals[i], min=0, max=200, layout=_NUMBER, style=_NO_LABEL)
            box.observe(self._guard(lambda change, i=i: self.set_sun_total(i, change["new"])), names="value")
            self.suns.append(box)
            cells.append(box)
        columns = "11em " + " ".join(["6em"] * controller.players)
        self.grid = w.GridBox(cells, layout=w.Layout(grid_template_columns=columns, width="auto"))
        self.result = w.HTML()
        self.epoch.observe(self._guard(lambda _: self._show_epoch()), names="value")
        note = w.HTML("<p>Each player's tiles at the end of the epoch chosen above (pharaohs, Niles and "
                      "monuments are kept from epoch to epoch, so enter them again):</p>")  # fmt: skip
        self.widget = w.VBox([self.epoch, self.message, note, self.grid, self.result])
        self.refresh()

    def _show_epoch(self) -> None:
        e = self.epoch.value
        self._loading = True
        for (i, t), box in self.inputs.items():
            box.value = self.controller.counts[e - 1][i][t]
        self._loading = False
        self.refresh()

    def set_count(self, player: int, tile: Tile, n: int) -> None:
        """Set a count for the epoch shown (what typing in a box does)."""
        if getattr(self, "_loading", False):
            return
        self.controller.set_count(self.epoch.value, player, tile, n)
        self.refresh()

    def set_sun_total(self, player: int, total: int) -> None:
        """Set a player's sun total (what typing in a sun box does)."""
        self._do(lambda: self.controller.set_sun_total(player, total))

    def refresh(self) -> None:
        """Show the points table and the rules."""
        self.message.value = _message_html(self.controller.message)
        self.result.value = self.controller.html()


# -- disaster explorer --------------------------------------------------------------------------


class DisasterView(_View):
    """Pick a disaster and a display; see what must go and which losses the player may choose."""

    def __init__(self, controller: DisasterExplorer) -> None:
        self.controller = controller
        self.message = w.HTML()
        self.disaster = w.Dropdown(
            options=[(t.label, t.label) for t in DISASTERS],
            value=controller.disaster.label,
            description="Disaster",
        )
        self.how_many = w.IntSlider(
            value=controller.how_many, min=1, max=FULL_BAG[controller.disaster], description="How many"
        )
        self.counts = w.VBox()
        self.result = w.HTML()
        self.disaster.observe(self._guard(lambda change: self.set_disaster(change["new"])), names="value")
        self.how_many.observe(self._guard(lambda change: self.set_how_many(change["new"])), names="value")
        self.widget = w.VBox([w.HBox([self.disaster, self.how_many]), self.message, self.counts, self.result])
        self._build_counts()
        self.refresh()

    def _build_counts(self) -> None:
        boxes = []
        for t in self.controller.targets():
            box = w.BoundedIntText(value=self.controller.display[t], min=0, max=25, description=t.label,
                                   layout=w.Layout(width="14em"))  # fmt: skip
            box.observe(self._guard(lambda change, t=t: self.set_count(t, change["new"])), names="value")
            boxes.append(box)
        self.counts.children = [w.HBox(boxes, layout=_WRAP)]

    def set_disaster(self, name: str) -> None:
        """Choose the disaster (what the dropdown does)."""
        self.controller.set_disaster(name)
        self.how_many.max = FULL_BAG[self.controller.disaster]
        self.how_many.value = self.controller.how_many
        self._build_counts()
        self.refresh()

    def set_how_many(self, n: int) -> None:
        """Set how many of the disaster are taken at once."""
        self._do(lambda: self.controller.set_how_many(n))

    def set_count(self, tile: Tile, n: int) -> None:
        """Set a count in the display (what a count box does)."""
        self._do(lambda: self.controller.set_count(tile, n))

    def refresh(self) -> None:
        """Show what must go and the choices."""
        self.message.value = _message_html(self.controller.message)
        self.result.value = self.controller.html()
