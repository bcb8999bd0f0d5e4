"""ra_core: an exact, fast rules engine for Reiner Knizia's auction game Ra.

    >>> from ra_core import new_game
    >>> s = new_game(3, seed=1)
    >>> s.legal_actions()
    (Draw(), CallRa())

This front door holds the nouns of day one: `new_game`, `State`, `Phase`, `Tile`, `Rules`,
the actions and their notation (`parse_action`), and the errors. ``import ra_core`` loads the
engine only; the board picture is drawn on first display, and the rest is one folder away:

* `ra_core.engine`: what a game is and how it moves (the rules R1-R74 and options D1-D10 of
  docs/rules.md, each one jump from its code; see the table in `ra_core.engine`);
* `ra_core.play`: whole games (chance, the game loop, seeded games between policies, records);
* `ra_core.analysis`: what positions are worth (exact chance, valuation, draw-or-call,
  endgames, tournaments and statistics);
* `ra_core.bots`: who plays (random, heuristic, greedy, Monte Carlo);
* `ra_core.pictures`: positions in words and pictures (SVG board, narration, plots);
* `ra_core.table`: the one judge of a click on a seat's board (the notebook's and the classroom's);
* `ra_core.widgets`: the notebook widgets and the game table.

docs/architecture.md draws the layers and says what may import what.
"""

from __future__ import annotations

from .engine.actions import Action, Bid, CallRa, Discard, Done, Draw, Pass, Reveal, UseGod, parse_action
from .engine.errors import IllegalActionError, InvalidActionError, InvalidStateError
from .engine.records import CHANCE, TERMINAL, Phase
from .engine.rules import Rules
from .engine.setup import new_game
from .engine.state import State
from .engine.tiles import Tile

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "Bid",
    "CallRa",
    "Discard",
    "Done",
    "Draw",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidStateError",
    "Pass",
    "Phase",
    "Reveal",
    "Rules",
    "State",
    "Tile",
    "UseGod",
    "new_game",
    "parse_action",
]
