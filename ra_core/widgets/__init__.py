"""Widgets for the notebooks: play a game in a cell, and explorers for the teaching notebooks.

Each widget is a controller (plain Python, standard library only, in `controllers` and
`explorers`) with a thin ipywidgets view (`views`). The controllers can be driven and tested
without a browser; only the view functions below need ipywidgets, and import it when called.

    from ra_core.widgets import play
    play(players=3, you=0, seed=1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .controllers import Choice, PlayController, action_label
from .explorers import AuctionExplorer, DisasterExplorer, ReplayController, ScoringCalculator

if TYPE_CHECKING:
    from .views import AuctionView, DisasterView, PlayView, ReplayView, ScoringView

__all__ = [
    "AuctionExplorer",
    "Choice",
    "DisasterExplorer",
    "PlayController",
    "ReplayController",
    "ScoringCalculator",
    "action_label",
    "auction_explorer",
    "disaster_explorer",
    "play",
    "replay",
    "scoring_calculator",
]


def play(players: int = 3, **options: Any) -> PlayView:
    """Show a game of Ra to play with the mouse: the board, your buttons, the log, and more.

    Options are those of `PlayController` (``you``, ``bots``, ``seed``, ``rules``,
    ``step_by_step``) plus ``delay``, the seconds between two visible bot steps.
    """
    from .views import PlayView

    delay = options.pop("delay", 0.6)
    return PlayView(PlayController(players, **options), delay=delay)


def replay(record: Any) -> ReplayView:
    """Show a stepper over a game record (a `GameRecord`, its JSON text, or a controller)."""
    from .views import ReplayView

    return ReplayView(ReplayController(record))


def auction_explorer(state: Any = None) -> AuctionView:
    """Show an auction position, its bidders in order, and what each bid or pass leads to."""
    from .views import AuctionView

    return AuctionView(AuctionExplorer(state))


def scoring_calculator(players: int = 3) -> ScoringView:
    """Show a scoring calculator: tile counts per player in, points per category out."""
    from .views import ScoringView

    return ScoringView(ScoringCalculator(players))


def disaster_explorer(disaster: str = "unrest") -> DisasterView:
    """Show what a disaster takes from a display, and which losses the player may choose."""
    from .views import DisasterView

    return DisasterView(DisasterExplorer(disaster))
