"""The ipywidgets views of the explorers: an auction, the scoring calculator, the disaster explorer.

Thin layers over `ra_core.widgets.explorers`, like the play and replay views in `views`.
"""

from __future__ import annotations

from html import escape

import ipywidgets as w

from ..engine.tiles import DISASTERS, FULL_BAG, Tile
from ..pictures.svg import svg
from .explorers import SCORED_TILES, AuctionExplorer, DisasterExplorer, ScoringCalculator
from .views import _NO_LABEL, _NUMBER, _WRAP, View, _message_html, _saved, saved_board

__all__ = ["AuctionView", "DisasterView", "ScoringView"]


# -- auction explorer --------------------------------------------------------------------


class AuctionView(View):
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

    def board_picture(self) -> str:
        """Return the explorer as a picture that needs no kernel: the summary over the board."""
        return saved_board(svg(self.controller.state), self.controller.summary())

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


class ScoringView(View):
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
        note = w.HTML(
            "<p>Each player's tiles at the end of the epoch chosen above (pharaohs, Niles and "
            "monuments are kept from epoch to epoch, so enter them again):</p>"
        )
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

    def picture(self) -> str:
        """Return what the widget shows as HTML that needs no kernel: its result."""
        return _saved(self.controller.html())


# -- disaster explorer --------------------------------------------------------------------------


class DisasterView(View):
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
            box = w.BoundedIntText(
                value=self.controller.display[t], min=0, max=25, description=t.label, layout=w.Layout(width="14em")
            )
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

    def board_picture(self) -> str:
        """Return the explorer as a picture that needs no kernel: the tiles with their counts, under what must go.

        An SVG (with its PNG), not HTML: an untrusted notebook cleans the tiles' SVG out of HTML.
        """
        return saved_board(self.controller.tiles_svg(width=560), self.controller.lines())
