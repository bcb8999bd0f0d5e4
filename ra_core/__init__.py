"""ra_core: an exact, fast rules engine for Reiner Knizia's auction game Ra.

The rules of record are RULES.md (R1-R74, options D1-D10). The engine, bots, analysis and
rendering use the standard library only.
"""

from __future__ import annotations

from .actions import Action, Bid, CallRa, Discard, Done, Draw, Pass, Reveal, UseGod, parse_action
from .errors import BotError, IllegalActionError, InvalidActionError, InvalidStateError
from .game import new_game
from .rules import Rules
from .state import CHANCE, TERMINAL, Auction, PendingDiscard, Phase, Player, State, Trigger
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
    "Reveal",
    "Rules",
    "State",
    "Tile",
    "Trigger",
    "UseGod",
    "new_game",
    "parse_action",
]
