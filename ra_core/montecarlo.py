"""A Monte Carlo bot: try every legal action, finish the epoch many times, keep the best.

For each candidate action the bot plays `rollouts` seeded continuations from the state the
action leads to. In a rollout every player, the bot included, is moved by a fast policy
(`greedy_bot` by default) and the bag is sampled with `ra_core.play.sample_chance`. A
rollout stops at the **end of the current epoch** (or of the game) and is scored by
`horizon_values`: the bot's value minus the best opponent's. The candidate with the highest
mean score is played (ties go to the first in `legal_actions` order).

Every candidate is tried with the **same rollout seeds** (common random numbers), so the
comparison between candidates is not drowned by the luck of the draws. The seeds come from
the `rng` the bot is called with, so a seeded game is reproducible.

>>> from ra_core import State
>>> s = State.from_dict({"players": [{"suns_up": [13, 6, 2]}, {"suns_up": [12, 7, 3]},
...                                  {"suns_up": [11, 8, 4]}, {"suns_up": [10, 9, 5]}],
...                      "track": ["gold", "gold", "gold", "pharaoh"], "turn_player": 0})
>>> bot = MonteCarloBot(rollouts=20)
>>> str(bot(s, random.Random(1)))
'ra'
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from .actions import CALL_RA, DONE, DRAW, PASS, Action, Bid, UseGod
from .chance import ra_tiles_left
from .play import Policy, sample_chance
from .rules import EPOCHS
from .scoring import monument_points, pharaoh_points_over, sun_points
from .state import CHANCE, TERMINAL, Phase, State
from .tiles import CIVILIZATIONS, Tile

__all__ = ["GreedyBot", "MonteCarloBot", "action_values", "greedy_bot", "horizon_values", "quick_lot_value", "rollout"]


#: `horizon_values`: fame a nile kept into a later epoch is worth per epoch left (it needs a flood).
NILE_LATER = 0.5
#: `horizon_values`: weight of the final sun bonus as it stands, by the epoch about to start.
SUN_WEIGHT = (0.0, 0.0, 0.3, 0.6)


def horizon_values(state: State) -> tuple[float, ...]:
    """Return each player's value where a rollout stops: the end of an epoch or of the game.

    At the end of the game this is the fame. After epoch 1 or 2 (the next epoch has begun,
    the last one scored) it is the fame plus what the kept tiles will still score: the
    pharaoh result in every epoch left (R64), the monuments at the end (R70), `NILE_LATER`
    per nile and epoch left, and the final sun bonus as the sums stand now (R71), weighted
    by `SUN_WEIGHT` because suns still change hands.
    """
    players = state.players
    fame = [float(p.fame) for p in players]
    if state.is_terminal():
        return tuple(fame)
    epoch, rules = state.epoch, state.rules
    left = EPOCHS - epoch + 1
    pharaohs = [p.display[Tile.PHARAOH] for p in players]
    suns = sun_points([sum(p.suns_up) + sum(p.suns_down) for p in players], rules.penalties_apply(EPOCHS))
    pharaoh = pharaoh_points_over(pharaohs, range(epoch, EPOCHS + 1), rules)
    weight = SUN_WEIGHT[epoch]
    return tuple(
        fame[i] + pharaoh[i] + monument_points(p.display) + NILE_LATER * left * p.display[Tile.NILE] + weight * suns[i]
        for i, p in enumerate(players)
    )


def rollout(state: State, player: int, seed: int, policy: Policy, epoch: int | None = None) -> float:
    """Play `state` on with `policy` for everyone to the end of `epoch`; return `player`'s score.

    The score is `player`'s `horizon_values` minus the best opponent's. `epoch` defaults to
    the state's own; a state already past it is scored as it is.
    """
    rng = random.Random(seed)
    stop = state.epoch if epoch is None else epoch
    while True:
        who = state.to_move
        if who == TERMINAL or state.epoch != stop:
            break
        state = state.apply(sample_chance(state, rng) if who == CHANCE else policy(state, rng))
    values = horizon_values(state)
    return values[player] - max(v for i, v in enumerate(values) if i != player)


def action_values(
    state: State, rng: random.Random, rollouts: int = 200, policy: Policy | None = None
) -> dict[Action, float]:
    """Return each legal action's mean rollout score (common random numbers: same seeds for all)."""
    policy = policy or greedy_bot
    me = state.to_move
    seeds = [int(rng.random() * 2**32) for _ in range(rollouts)]
    out = {}
    for action in state.legal_actions():
        child = state.apply(action)
        out[action] = sum(rollout(child, me, seed, policy, state.epoch) for seed in seeds) / rollouts
    return out


@dataclasses.dataclass(frozen=True)
class MonteCarloBot:
    """Play the legal action with the best mean score over `rollouts` seeded rollouts each.

    Attributes:
        rollouts: rollouts per candidate action (the cost is about linear in it).
        policy: the fast policy that moves every player in the rollouts.
        name: the name shown in tournament tables.
    """

    rollouts: int = 200
    policy: Policy | None = None
    name: str = "montecarlo"

    def __call__(self, state: State, rng: random.Random) -> Action:
        """Return the best action; a single legal action is returned without rollouts."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        values = action_values(state, rng, self.rollouts, self.policy)
        return max(legal, key=values.__getitem__)  # max keeps the first of equal values


# -- the fast rollout policy ---------------------------------------------------------------

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

    Cheaper and cruder than `ra_core.valuation.lot_value`: each tile adds a fixed amount
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
class GreedyBot:
    """A fast policy with the heuristic bot's plan and `quick_lot_value`: the rollout policy.

    It decides as `ra_core.bots.HeuristicBot` does (bid the lowest winning sun when the lot,
    the sun exchange and the cost of a bid net more than `margin`; call Ra at
    `call_per_free_slot` per empty slot; use a god on a tile worth `god_at`), but values lots
    with the cruder, several times cheaper `quick_lot_value`, and discards the first option.
    """

    margin: float = 1.0
    call_per_free_slot: float = 1.5
    god_at: float = 4.0
    average_lot: float = 3.0
    sun_point: tuple[float, ...] = (0.0, 0.35, 0.3, 0.2)
    name: str = "greedy"

    def __call__(self, state: State, rng: random.Random) -> Action:
        """Return the greedy action (`rng` is not used)."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        phase = state.phase
        p = state.players[state.to_move]
        if phase is Phase.BID:
            if PASS not in legal:
                return legal[0]
            bid: Bid = legal[1]  # type: ignore[assignment]  # the lowest winning sun
            value = self._net(state, p.display, bid.sun)
            return bid if value > self.margin else PASS
        if phase is Phase.DISCARD:
            return legal[0]
        track = state.track
        if p.display[_GOD]:
            for a in legal:
                if type(a) is UseGod:
                    t = track[a.slot - 1]
                    if t is not None and t < _FUNERAL and quick_lot_value(p.display, (t,), state.epoch) >= self.god_at:
                        return a
        if phase is Phase.GODS:
            return DONE
        if DRAW not in legal:
            return CALL_RA
        free = track.count(None)
        if free < 8 and self._net(state, p.display, p.suns_up[0]) >= self.call_per_free_slot * free:
            return CALL_RA
        return DRAW

    def _net(self, state: State, display: Sequence[int], sun: int) -> float:
        """Return the lot's quick worth plus the sun exchange minus the cost of a bid."""
        up = 0
        for q in state.players:
            up += len(q.suns_up)
        left = ra_tiles_left(state) - (0 if state.auction is not None else 1)
        spend = self.average_lot * min(1.0, (max(left, 0) + 1) / up)
        value = quick_lot_value(display, state.track, state.epoch)
        return value + self.sun_point[state.epoch] * (state.center_sun - sun) - spend


greedy_bot = GreedyBot()
