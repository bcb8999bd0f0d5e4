"""What an auction lot is worth to a player, in fame, under the scoring rules.

The model (stated once, used by the bots and the analysis tools):

* A display is worth its score **if the epoch ended now** (R63-R67), with the other players'
  displays as they are (pharaohs are scored against them, R64);
* plus, because pharaohs are kept (R60), the same pharaoh result again in every later epoch;
* plus the monument points the display would score at the end of the game (R70), because
  monuments are kept until then.

A lot's value to a player is the worth of his display with the lot (its disasters resolved
against it, R50-R55, choosing the least harmful discards, R53) minus the worth without it.
Suns are not part of a lot's value: the sun paid and the center sun received are priced
separately by whoever bids.

>>> from ra_core import State
>>> s = State.from_dict({"players": [{"suns_up": [13, 8, 5, 2], "display": {"flood": 1}},
...                                  {"suns_up": [12, 9, 6, 3]}, {"suns_up": [11, 10, 7, 4]}],
...                      "track": ["nile", "nile", "gold"]})
>>> lot_values(s)        # P0 already has a flood, so the niles count for him (R65)
(5, 3, 3)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..engine.disasters import discard_options, resolve
from ..engine.rules import EPOCHS, Rules
from ..engine.scoring import (
    civilization_points,
    god_points,
    gold_points,
    monument_points,
    pharaoh_points_over,
    river_points,
)
from ..engine.state import State
from ..engine.tiles import Tile

__all__ = ["display_worth", "lot_value", "lot_values"]

# Module constants: looking up an enum member is slow, and bots call these functions often.
_RA, _PHARAOH, _FUNERAL = Tile.RA, int(Tile.PHARAOH), Tile.FUNERAL


def display_worth(display: Sequence[int], pharaohs: Sequence[int], seat: int, epoch: int, rules: Rules) -> int:
    """Return what `display` is worth to the player in `seat` under the module's model.

    Args:
        display: the player's tile counts.
        pharaohs: every player's pharaoh count, this player's included (at `seat`).
        seat: the player's seat.
        epoch: the current epoch (1-3).
        rules: the rules in force (for the no-penalty option, D9).
    """
    counts = list(pharaohs)
    counts[seat] = display[_PHARAOH]
    pharaohs_now_and_later = pharaoh_points_over(counts, range(epoch, EPOCHS + 1), rules)[seat]
    this_epoch = god_points(display) + river_points(display) + civilization_points(display) + gold_points(display)
    return this_epoch + pharaohs_now_and_later + monument_points(display)


def lot_value(state: State, player: int, lot: Sequence[Tile] | None = None) -> int:
    """Return the fame `player` gains by winning `lot` (default: the tiles on the auction track).

    Disasters in the lot are resolved against the player's display with the lot in it (R55);
    where the player may choose his losses (R53) the least harmful choice is assumed.
    """
    if lot is None:
        lot = [t for t in state.track if t is not None]
    p = state.players[player]
    pharaohs = [q.display[_PHARAOH] for q in state.players]
    rules, epoch = state.rules, state.epoch

    def worth(display: Sequence[int]) -> int:
        return display_worth(display, pharaohs, player, epoch, rules)

    display = list(p.display)
    disasters = []
    for t in lot:
        if t >= _FUNERAL:  # a disaster
            disasters.append(t)
        elif t is not _RA:
            display[t] += 1
    after, _, owed = resolve(display, disasters) if disasters else (display, (), ())
    best = _best_after_choices(after, owed, worth)
    return best - worth(p.display)


def _best_after_choices(
    display: Sequence[int], owed: Sequence[tuple[Tile, int]], worth: Callable[[Sequence[int]], int]
) -> int:
    """Return the highest worth reachable by choosing the owed discards one kind at a time."""
    if not owed:
        return worth(display)
    kind, n = owed[0]
    best = None
    for option in discard_options(display, kind, n):
        rest = list(display)
        for t in option:
            rest[t] -= 1
        value = _best_after_choices(tuple(rest), owed[1:], worth)
        best = value if best is None else max(best, value)
    assert best is not None
    return best


def lot_values(state: State, lot: Sequence[Tile] | None = None) -> tuple[int, ...]:
    """Return `lot_value` for every player, in seat order."""
    return tuple(lot_value(state, i, lot) for i in range(state.num_players))
