"""Widgets for the notebooks: play a game in a cell, and explorers for the teaching notebooks.

Each widget is a controller (plain Python, standard library only, in `controllers` and
`explorers`) with a thin ipywidgets view (`views`). The controllers can be driven and tested
without a browser; only the view functions below need ipywidgets, and import it when called.

    from ra_core.widgets import play
    play(players=3, you=0, seed=1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..analysis.entrants import NamedBot
from ..bots import heuristic_bot, random_bot
from ..bots.montecarlo import MonteCarloBot
from ..engine.rules import Rules
from ..play import Policy
from .controllers import Choice, TableController, action_label
from .explorers import AuctionExplorer, DisasterExplorer, ScoringCalculator
from .replay import ReplayController

if TYPE_CHECKING:
    from .explorer_views import AuctionView, DisasterView, ScoringView
    from .views import ReplayView, TableView

__all__ = [
    "LEVELS",
    "AuctionExplorer",
    "Choice",
    "DisasterExplorer",
    "ReplayController",
    "ScoringCalculator",
    "TableController",
    "action_label",
    "auction_explorer",
    "disaster_explorer",
    "play",
    "replay",
    "scoring_calculator",
]


#: The bots' levels of difficulty for `play`, each shown under its level's name:
#: easy plays at random, normal is the heuristic bot, hard the Monte Carlo bot (100 rollouts per choice).
LEVELS: dict[str, Policy] = {
    "easy": NamedBot(random_bot, "easy"),
    "normal": NamedBot(heuristic_bot, "normal"),
    "hard": NamedBot(MonteCarloBot(rollouts=100), "hard"),
}


def play(players: int = 3, level: str = "normal", **options: Any) -> TableView:
    """Show a game of Ra to play by clicking on the board, with the log beside it, and more.

    `level` is the bots' difficulty (see `LEVELS`): ``"easy"``, ``"normal"`` or ``"hard"``.
    Options are those of `TableController` (``you``, ``bots``, ``seed``, ``rules``) plus
    ``step_by_step`` (the bots move one visible step at a time, not all at once) and ``delay``,
    the seconds between two such steps. Bots given as ``bots`` replace the level's.
    ``you=[0, 2]`` seats two humans at one screen (hot seat).
    """
    from .views import TableView

    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    options.setdefault("bots", LEVELS[level])
    delay = options.pop("delay", 0.6)
    step_by_step = bool(options.pop("step_by_step", False))
    controller = TableController(players, reply="later" if step_by_step else "now", **options)
    return TableView(controller, delay=delay, step_by_step=step_by_step)


def replay(record: Any, step: int = 0) -> ReplayView:
    """Show a stepper over a game record (a `GameRecord`, its JSON text, or a controller).

    It opens at position `step`: 0 is the start, the number of actions (or -1) the end.
    """
    from .views import ReplayView

    controller = ReplayController(record)
    if step and not controller.message:  # a record that did not load keeps its message
        controller.go(step if step >= 0 else controller.last + 1 + step)
    return ReplayView(controller)


def auction_explorer(state: Any = None) -> AuctionView:
    """Show an auction position, its bidders in order, and what each bid or pass leads to."""
    from .explorer_views import AuctionView

    return AuctionView(AuctionExplorer(state))


def scoring_calculator(players: int | None = None, rules: Rules | None = None) -> ScoringView:
    """Show a scoring calculator: tile counts per player in, points per category out.

    `rules` (default: the default rules for `players`, 3 if not given) decide the player count,
    the sun groups and the scoring options, e.g. ``Rules.two_player(no_penalty=True)``.
    """
    from .explorer_views import ScoringView

    if rules is not None and players not in (None, rules.players):
        raise ValueError(f"players={players} but the rules {rules.name!r} are for {rules.players} players")
    return ScoringView(ScoringCalculator(players or 3, rules))


def disaster_explorer(disaster: str = "unrest", display: dict[str, int] | None = None) -> DisasterView:
    """Show what a disaster takes from a display, and which losses the player may choose.

    `display` gives the tile counts to start from by name, e.g. ``{"pharaoh": 2, "nile": 1}``.
    """
    from .explorer_views import DisasterView

    return DisasterView(DisasterExplorer(disaster, display))
