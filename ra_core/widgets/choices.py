"""What the play widget's buttons say: one `Choice` per legal action, labelled in plain words."""

from __future__ import annotations

from typing import NamedTuple

from ..engine.actions import Action, Bid, CallRa, Discard, Done, Draw, Pass, UseGod
from ..engine.state import State
from ..pictures import words
from ..pictures.narrate import join, tiles_words

__all__ = ["Choice", "action_label"]


class Choice(NamedTuple):
    """One button: the action's text (what a click sends) and its label."""

    action: str
    label: str


def action_label(action: Action, state: State) -> str:
    """Return a button label for `action` in `state`: ``'Bid 9'``, ``'God: take gold (slot 3)'``."""
    match action:
        case Draw():
            return "Draw a tile"
        case CallRa():
            return "Call Ra"
        case Done():
            return "Done with gods"
        case Pass():
            return "Pass"
        case Bid(sun):
            return f"Bid {sun}"
        case UseGod(slot):
            tile = state.track[slot - 1]
            return f"God: take {words.tile_name(tile) if tile is not None else '?'} (slot {slot})"
        case Discard(tiles):
            return "Lose " + join(tiles_words(tiles))
    return str(action)
