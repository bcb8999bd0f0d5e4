"""ra_core: an exact, fast rules engine for Reiner Knizia's auction game Ra.

The rules of record are RULES.md (R1-R74, options D1-D10). The engine, bots, analysis and
rendering use the standard library only.
"""

from __future__ import annotations

from . import render as _render  # noqa: F401  (draws `State._repr_html_`: the board in notebooks)
from .actions import Action, Bid, CallRa, Discard, Done, Draw, Pass, Reveal, UseGod, parse_action
from .errors import BotError, IllegalActionError, InvalidActionError, InvalidStateError
from .records import CHANCE, TERMINAL, Auction, PendingDiscard, Phase, Player, Resume, Trigger
from .rules import Rules
from .setup import new_game
from .state import State
from .tiles import Tile

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "Auction",
    "Bid",
    "BotError",
    "CallRa",
    "Discard",
    "Done",
    "Draw",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidStateError",
    "Pass",
    "PendingDiscard",
    "Phase",
    "Player",
    "Resume",
    "Reveal",
    "Rules",
    "State",
    "Tile",
    "Trigger",
    "UseGod",
    "new_game",
    "parse_action",
]
