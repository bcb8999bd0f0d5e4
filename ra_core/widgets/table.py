"""The game table widget: the board as the control surface, shipped as an anywidget.

anywidget runs one small ES module (``table.js``, with ``table.css``) in JupyterLab, Notebook 7,
Voila and VS Code alike, with no build step and no extension of our own to install. The module
only shows what Python sends (the board's SVG, the status, the last log lines, the text twin)
and sends back what was clicked; `TableWidget` reads that message and hands it on, and
`ra_core.widgets.board.BoardClicks` decides what the click does.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

__all__ = ["TableWidget"]

_HERE = Path(__file__).parent


class TableWidget(anywidget.AnyWidget):
    """The board, status, message and recent log lines; clicks go to `on_press`.

    Attributes:
        board: the board's SVG, its controls marked (see `ra_core.pictures.pieces.target`).
        version: the position's version; the front end sends it back with each click.
        on_press: called with a click's ``action`` or ``ui`` (what the clicked piece stands
            for, as text), the board's ``version`` it was made on, and ``label`` (what a click
            off the controls hit), in that order.
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

    def __init__(self, on_press: Callable[[str, str, int, str], object], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_press = on_press
        self.on_msg(self._received)

    def _received(self, _: Any, content: Any, buffers: Any) -> None:
        """Hand a click from the front end to `on_press`; ignore any other message.

        The message comes from outside and is read as such: texts are cut to 200 characters,
        anything else of the wrong type is dropped, and a version that is no integer becomes -1
        (no board has it, so the click is refused as one on an earlier board).
        """
        if not (isinstance(content, dict) and content.get("kind") == "click"):
            return

        def text(key: str) -> str:
            value = content.get(key)
            return value[:200] if isinstance(value, str) else ""

        version = content.get("version")
        self.on_press(text("action"), text("ui"), version if type(version) is int else -1, text("label"))
