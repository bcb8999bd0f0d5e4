"""Every piece of `ra_core` the classroom uses beyond its front door, imported in this one place.

`ra_core`'s front door (``from ra_core import new_game, State, ...``) stays put when the
package's modules move; the deeper names below are the only ones that follow a move, so a
reorganisation of `ra_core` is one edit here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ra_core.bots import heuristic_bot
from ra_core.pictures.controls import Controls
from ra_core.pictures.narrate import narrate, since_last_move
from ra_core.pictures.portrait import Portraits
from ra_core.pictures.svg import svg
from ra_core.pictures.words import facts, named, player_name, scores_rows, seat_tokens, status_lines
from ra_core.play import sample_chance
from ra_core.table import Answer, Click, Selection, controls, judge, read_click

if TYPE_CHECKING:
    from types import ModuleType

__all__ = [
    "Answer",
    "Click",
    "Controls",
    "Portraits",
    "Selection",
    "controls",
    "judge",
    "read_click",
    "facts",
    "heuristic_bot",
    "named",
    "narrate",
    "player_name",
    "plot_style",
    "sample_chance",
    "scores_rows",
    "seat_tokens",
    "since_last_move",
    "status_lines",
    "svg",
]


def plot_style() -> ModuleType:
    """Return `ra_core`'s plot style module (matplotlib), imported only when a plot is drawn."""
    from ra_core.pictures import plotstyle

    return plotstyle
