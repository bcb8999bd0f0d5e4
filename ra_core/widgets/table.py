"""The game table widget: the board as the control surface, shipped as an anywidget.

anywidget runs one small ES module (``table.js``, with ``table.css``) in JupyterLab, Notebook 7,
Voila and VS Code alike, with no build step and no extension of our own to install. The module
only shows what Python sends (the board's SVG, the status, the last log lines, the text twin)
and sends back what was clicked; `TableWidget` reads that message once (`ra_core.table.read_click`)
and hands the click on, and the one judge of a click (`ra_core.table.judge`, asked by
`ra_core.widgets.board.BoardClicks`) decides what it does.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from ..table import Click, read_click

__all__ = ["TableWidget"]

_HERE = Path(__file__).parent


class TableWidget(anywidget.AnyWidget):
    """The board, status, message and recent log lines; clicks go to `on_press`.

    Attributes:
        board: the board's SVG, its controls marked (see `ra_core.pictures.clickable.target`).
        version: the position's version; the front end sends it back with each click.
        on_press: called with each click, as `ra_core.table.read_click` reads the message: the
            clicked piece's move (parsed) or step, the board's version it was made on, and what a
            click off the controls hit.
    """

    _esm = _HERE / "table.js"
    _css = _HERE / "table.css"
    board = traitlets.Unicode("").tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    recent = traitlets.Unicode("").tag(sync=True)
    facts = traitlets.Unicode("").tag(sync=True)
    version = traitlets.Int(0).tag(sync=True)
    busy = traitlets.Bool(False).tag(sync=True)
    #: "wide" (the landscape board) or "portrait" (the phone board, `ra_core.pictures.portrait`): the front
    #: end sets it from the width it has, and the view draws the board again.
    layout = traitlets.Unicode("wide").tag(sync=True)

    def __init__(self, on_press: Callable[[Click], object], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_press = on_press
        self.on_msg(self._received)

    def _received(self, _: Any, content: Any, buffers: Any) -> None:
        """Hand a click from the front end to `on_press`, read once (`read_click`); ignore any other message.

        The message comes from outside and is read as such: texts are cut to 200 characters,
        anything of the wrong type is dropped, and a version that is no integer becomes -1 (no
        board has it, so the click is refused as one on an earlier board).
        """
        if isinstance(content, dict) and content.get("kind") == "click":
            self.on_press(read_click(content))
