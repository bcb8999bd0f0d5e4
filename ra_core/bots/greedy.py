"""The greedy bot: the heuristic bot's plan with a fast, rough valuation; the Monte Carlo bot's rollout policy.

`quick_lot_value` prices each tile of a lot with a fixed amount given what the display already
holds; `GreedyBot` plays the shared plan (`ra_core.bots.plan`) with it. It is several times
cheaper than the heuristic bot, which is what thousands of rollouts per decision need.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..analysis.chance import ra_tiles_left
from ..engine.actions import Action, UseGod
from ..engine.state import State
from ..engine.tiles import CIVILIZATIONS, Tile
from .plan import PlanBot

__all__ = ["GreedyBot", "greedy_bot", "quick_lot_value"]

_GOD, _PHARAOH, _NILE, _FLOOD, _GOLD = Tile.GOD, Tile.PHARAOH, Tile.NILE, Tile.FLOOD, Tile.GOLD
_ART, _FORTRESS, _FUNERAL, _DROUGHT, _UNREST = Tile.ART, Tile.FORTRESS, Tile.FUNERAL, Tile.DROUGHT, Tile.UNREST
assert tuple(Tile(i) for i in range(_ART, _FORTRESS)) == CIVILIZATIONS  # the slices below rely on it
#: a pharaoh's rough worth by epoch: it scores against the others in every epoch left (R64).
_PHARAOH_WORTH = (0.0, 3.0, 2.5, 2.0)
#: a new civilization kind when the player has k kinds: -5 lifted, then 5/10/15 (R66).
_NEW_CIV = (5.0, 1.5, 3.5, 5.0, 5.0)
#: one more monument of a kind held c times: variety and the 3/4/5 sets (R70).
_MORE_MONUMENT = (1.0, 1.5, 5.0, 5.0, 5.0, 0.0)


def quick_lot_value(display: Sequence[int], lot: Sequence[Tile | None], epoch: int) -> float:
    """Return a fast, rough worth of `lot` to a player with `display` (the rollout policy's model).

    Cheaper and cruder than `ra_core.analysis.valuation.lot_value`: each tile adds a fixed amount
    given what the display (with the lot's earlier tiles) already holds; then each disaster
    subtracts a rough cost of the tiles it takes (R55: the lot is in the display first).
    """
    v = 0.0
    d = list(display)
    disasters = []
    for t in lot:
        if t is None:
            continue
        if t < _ART:  # god, pharaoh, nile, flood, gold (Ra tiles never reach the track)
            if t == _GOLD:
                v += 3.0
            elif t == _PHARAOH:
                v += _PHARAOH_WORTH[epoch]
            elif t == _NILE:
                v += 1.0 if d[_FLOOD] else 0.5
            elif t == _FLOOD:
                v += 1.0 if d[_FLOOD] else 1.0 + d[_NILE]
            else:
                v += 2.0
        elif t < _FORTRESS:  # a civilization
            if not d[t]:
                v += _NEW_CIV[(d[6] > 0) + (d[7] > 0) + (d[8] > 0) + (d[9] > 0) + (d[10] > 0)]
        elif t < _FUNERAL:  # a monument
            v += _MORE_MONUMENT[d[t]]
        else:
            disasters.append(t)
            continue
        d[t] += 1
    for t in disasters:
        if t == _FUNERAL:
            v -= _PHARAOH_WORTH[epoch] * min(2, d[_PHARAOH])
        elif t == _DROUGHT:
            v -= min(2, d[_FLOOD] + d[_NILE])
        elif t == _UNREST:
            v -= 3.0 if any(d[_ART:_FORTRESS]) else 0.0
        else:
            v -= 2.5 if any(d[_FORTRESS:_FUNERAL]) else 0.0
    return v


@dataclasses.dataclass(frozen=True)
class GreedyBot(PlanBot):
    """The heuristic bot's plan (`PlanBot`) with the fast, rough `quick_lot_value`: the rollout policy.

    It bids the lowest winning sun when the lot, the sun exchange and the cost of a bid net
    more than `margin`, calls Ra at `call_per_free_slot` per empty slot (the lone player too:
    with this rough valuation the lone-player rule of `PlanBot` lost, 31.0 % [29.3, 32.6] of
    3,000 three-player games against two greedy bots without it), uses a god on the first tile
    worth `god_at`, and loses the first tiles offered to a disaster.

    Attributes:
        god_at: the quick worth a tile must have to take it with a god.
        average_lot: what the bid a sun could make later this epoch is worth.
        sun_point: the fame a point of sun is worth, by epoch (1-3), as in the heuristic bot.
        name: the name shown in tournament tables.
    """

    god_at: float = 4.0
    average_lot: float = 3.0
    sun_point: tuple[float, ...] = (0.0, 0.35, 0.3, 0.2)
    name: str = "greedy"
    lone_player_rule: bool = False

    def lot_net(self, state: State, player: int, sun: int) -> float:
        """Return the lot's quick worth plus the sun exchange minus the cost of a bid (`sun_cost`)."""
        value = quick_lot_value(state.players[player].display, state.track, state.epoch)
        return value + self.sun_point[state.epoch] * (state.center_sun - sun) - self.sun_cost(state)

    def sun_cost(self, state: State) -> float:
        """Return `average_lot`, scaled down when the auctions left are fewer than the face-up suns."""
        up = 0
        for q in state.players:
            up += len(q.suns_up)
        left = ra_tiles_left(state) - (0 if state.auction is not None else 1)  # an auction runs
        return self.average_lot * min(1.0, (max(left, 0) + 1) / up)

    def god_use(self, state: State, player: int, legal: tuple[Action, ...]) -> UseGod | None:
        """Return the first god use whose tile is worth `god_at` (disasters never)."""
        display, track = state.players[player].display, state.track
        for a in legal:
            if type(a) is UseGod:
                t = track[a.slot - 1]
                if t is not None and t < _FUNERAL and quick_lot_value(display, (t,), state.epoch) >= self.god_at:
                    return a
        return None

    def discard(self, state: State, player: int, legal: tuple[Action, ...]) -> Action:
        """Return the first discard offered."""
        return legal[0]


greedy_bot = GreedyBot()
