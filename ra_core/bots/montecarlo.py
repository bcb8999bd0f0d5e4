"""A Monte Carlo bot: try every legal action, finish the epoch many times, keep the best.

For each candidate action the bot plays `rollouts` seeded continuations from the state the
action leads to. In a rollout every player, the bot included, is moved by a fast policy
(`greedy_bot` by default) and the bag is sampled, by the one game loop `ra_core.play.steps`. A
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

from ..engine.actions import Action
from ..engine.rules import EPOCHS
from ..engine.scoring import monument_points, pharaoh_points_over, sun_points
from ..engine.state import State
from ..engine.tiles import Tile
from ..play import Policy, steps
from . import greedy_bot

__all__ = ["MonteCarloBot", "action_values", "greedy_bot", "horizon_values", "rollout"]


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
    stop = state.epoch if epoch is None else epoch
    end = state
    if state.epoch == stop:
        for _, _, end in steps(state, [policy] * state.num_players, seed):
            if end.epoch != stop:
                break
    values = horizon_values(end)
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
