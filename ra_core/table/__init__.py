"""The game table: what a click on a seat's board does, for the notebook's table and the classroom's alike.

`judge` is the one judge of a click (the board's version, whose turn it is, the steps of a choice,
the move's legality, each checked once); `read_click` reads a front end's message once, at the
edge; `Selection` is the one shape of a choice in progress. Standard library only: the classroom
server uses it without ipywidgets.
"""

from __future__ import annotations

from .judge import Answer, Click, Selection, controls, judge, read_click

__all__ = ["Answer", "Click", "Selection", "controls", "judge", "read_click"]
