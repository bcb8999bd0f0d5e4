"""Small Ra endgames solved exactly: one player's best response, with chance nodes, against stated policies.

In the last epoch, with a small bag and few suns left, the whole rest of the game is a tree
small enough to search: decision nodes, and chance nodes whose outcomes carry the bag's exact
odds (`State.chance_outcomes`). Fix how every other player plays (a deterministic policy, such
as `ra_core.bots.heuristic_bot`), and what is left for the chosen player, the *hero*, is a
one-player decision problem under chance. Backward induction solves it exactly (expectimax):
at his nodes take the best action, at the others' nodes the action their policy chooses, at
chance nodes the probability-weighted mean. Values are exact `Fraction`s.

The hero can aim at two things (`Objective`), and they differ:

* ``"fame"``: his expected final fame;
* ``"win"``: his probability of winning (R73: most fame, ties to the highest sun).

`profile_value` values a whole profile (the hero also plays a policy), so the gain of the best
response over a policy is exact, and `exploitability` sums that gain over the players: zero
exactly when no player can gain by deviating alone (a Nash equilibrium of the endgame).
`outcomes` gives the exact law of the final positions under a profile (what happens, not only
what it is worth), and `sample` plays the same endgame through the engine with a
`random.Random`, for checks.

>>> from ra_core import State
>>> from ra_core.bots import heuristic_bot
>>> s = State.from_dict({"epoch": 3, "ra_count": 7, "turn_player": 0, "track": ["gold"], "center_sun": 8,
...     "players": [{"suns_up": [5], "suns_down": [1, 9, 12], "fame": 20},
...                 {"suns_up": [6], "suns_down": [2, 10, 13], "fame": 22},
...                 {"suns_up": [7], "suns_down": [3, 4, 11], "fame": 21}],
...     "bag": {"ra": 1, "gold": 2}}, strict=False)
>>> best = best_response(s, 0, [heuristic_bot] * 3, "fame")
>>> best.action, best.action_values
('ra', {'draw': Fraction(15, 1), 'ra': Fraction(16, 1)})
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Literal

from ..engine.actions import Action
from ..engine.state import Phase, State
from ..play import sample_chance

__all__ = [
    "BestResponse",
    "Objective",
    "Policy",
    "best_response",
    "exploitability",
    "outcomes",
    "profile_value",
    "sample",
]

Objective = Literal["fame", "win"]
Policy = Callable[[State, random.Random], Action]

_LIMIT = 2_000_000  # positions: an endgame larger than this is not "small"


def _payoff(state: State, hero: int, objective: Objective) -> Fraction:
    if objective == "fame":
        return Fraction(state.fame[hero])
    if objective == "win":
        return Fraction(int(state.winner() == hero))
    raise ValueError(f"objective must be 'fame' or 'win', not {objective!r}")


@dataclasses.dataclass(frozen=True)
class BestResponse:
    """The hero's exact best response in an endgame.

    Attributes:
        hero: the seat solved for.
        objective: ``"fame"`` (expected final fame) or ``"win"`` (probability of winning).
        value: the best value the hero can reach from the position.
        action: the best action at the position, in notation, if the hero is to move; else None.
        action_values: every legal action's value at the position when the hero is to move.
        positions: how many positions were solved.
        policy: the best response as a policy: the argmax action at each position of the hero
            (positions not met in the search are solved when asked).
    """

    hero: int
    objective: Objective
    value: Fraction
    action: str | None
    action_values: dict[str, Fraction]
    positions: int
    policy: Policy


class _Search:
    """Expectimax over the engine's tree, memoised on positions."""

    def __init__(self, hero: int | None, policies: Sequence[Policy], objective: Objective, seat: int) -> None:
        self.hero, self.policies, self.objective, self.seat = hero, policies, objective, seat
        self.memo: dict[State, Fraction] = {}
        self.chosen: dict[State, Action] = {}  # each policy's choice, asked once per position

    def value(self, state: State) -> Fraction:
        stack: list[tuple[State, bool]] = [(state, False)]
        while stack:  # iterative post-order, so deep endgames do not hit the recursion limit
            s, expanded = stack.pop()
            if s in self.memo:
                continue
            children = self._children(s)
            if not expanded:
                missing = [c for _, c in children if c not in self.memo]
                if missing:
                    stack.append((s, True))
                    stack.extend((c, False) for c in missing)
                    continue
            self.memo[s] = self._combine(s, children)
            if len(self.memo) > _LIMIT:
                raise ValueError(f"the endgame has more than {_LIMIT:,} positions: too large to solve exactly")
        return self.memo[state]

    def _children(self, s: State) -> list[tuple[Fraction | Action, State]]:
        if s.phase is Phase.GAME_OVER:
            return []
        if s.is_chance_node():
            return [(p, s.apply(a)) for a, p in s.chance_outcomes()]
        if s.to_move == self.hero:
            return [(a, s.apply(a)) for a in s.legal_actions()]
        a = self.chosen.get(s)
        if a is None:  # a fresh stream per position: a randomised policy becomes a fixed function of it
            a = self.chosen[s] = self.policies[s.to_move](s, random.Random(0))
        return [(a, s.apply(a))]

    def _combine(self, s: State, children: list[tuple[Fraction | Action, State]]) -> Fraction:
        if not children:
            return _payoff(s, self.seat, self.objective)
        if s.is_chance_node():
            return sum((p * self.memo[c] for p, c in children if isinstance(p, Fraction)), Fraction(0))
        return max(self.memo[c] for _, c in children)

    def best_action(self, s: State) -> Action:
        return max(s.legal_actions(), key=lambda a: self.value(s.apply(a)))


def best_response(state: State, hero: int, policies: Sequence[Policy], objective: Objective) -> BestResponse:
    """Return the hero's exact best response from `state`, every other seat playing its policy.

    Args:
        state: a position whose remaining game is small (the search visits every position).
        hero: the seat that optimises.
        policies: one policy per seat (the hero's entry is ignored); each is asked once per
            position, with ``random.Random(0)``, so a randomised policy is solved as the fixed
            choice it makes with that stream.
        objective: ``"fame"`` or ``"win"``.

    Raises:
        ValueError: an unknown objective, or more than two million positions.
    """
    search = _Search(hero, policies, objective, hero)
    value = search.value(state)
    action_values: dict[str, Fraction] = {}
    best: str | None = None
    if not state.is_chance_node() and state.phase is not Phase.GAME_OVER and state.to_move == hero:
        action_values = {str(a): search.value(state.apply(a)) for a in state.legal_actions()}
        best = str(search.best_action(state))

    def policy(s: State, rng: random.Random) -> Action:
        return search.best_action(s)

    return BestResponse(hero, objective, value, best, action_values, len(search.memo), policy)


def profile_value(state: State, seat: int, policies: Sequence[Policy], objective: Objective) -> Fraction:
    """Return `seat`'s exact value from `state` when every seat (his included) plays its policy."""
    return _Search(None, policies, objective, seat).value(state)


def exploitability(state: State, policies: Sequence[Policy], objective: Objective) -> tuple[Fraction, ...]:
    """Return, per seat, what its best response gains over its own policy (the others keeping theirs).

    Every gain is at least 0; their sum (NashConv) is 0 exactly when the profile is a Nash
    equilibrium of the endgame for this objective.
    """
    gains = []
    for seat in range(state.num_players):
        best = best_response(state, seat, policies, objective).value
        gains.append(best - profile_value(state, seat, policies, objective))
    return tuple(gains)


def outcomes(state: State, policies: Sequence[Policy]) -> dict[State, Fraction]:
    """Return the exact law of the final positions when every seat plays its policy from `state`.

    Each policy is asked once per position with ``random.Random(0)``, as in `profile_value`, so
    the law's expected fame for a seat is that seat's `profile_value` for ``"fame"``. The final
    positions carry their scores (``state.scores``), so the law says *why* a profile is worth
    what it is worth. Equal final positions reached along different paths are merged.

    >>> from ra_core import State
    >>> from ra_core.bots import heuristic_bot
    >>> s = State.from_dict({"epoch": 3, "ra_count": 7, "turn_player": 0, "track": ["gold"], "center_sun": 8,
    ...     "players": [{"suns_up": [5], "suns_down": [1, 9, 12], "fame": 20},
    ...                 {"suns_up": [6], "suns_down": [2, 10, 13], "fame": 22},
    ...                 {"suns_up": [7], "suns_down": [3, 4, 11], "fame": 21}],
    ...     "bag": {"ra": 1, "gold": 2}}, strict=False)
    >>> bots = [heuristic_bot] * 3
    >>> law = outcomes(s, bots)
    >>> sum(law.values()), sum(p * end.fame[0] for end, p in law.items()) == profile_value(s, 0, bots, "fame")
    (Fraction(1, 1), True)
    """
    law: dict[State, Fraction] = {}
    chosen: dict[State, Action] = {}
    pending: dict[State, Fraction] = {state: Fraction(1)}
    while pending:
        s, p = pending.popitem()
        if s.phase is Phase.GAME_OVER:
            law[s] = law.get(s, Fraction(0)) + p
            continue
        if s.is_chance_node():
            children = [(q, s.apply(a)) for a, q in s.chance_outcomes()]
        else:
            a = chosen.get(s)
            if a is None:
                a = chosen[s] = policies[s.to_move](s, random.Random(0))
            children = [(Fraction(1), s.apply(a))]
        for q, child in children:
            pending[child] = pending.get(child, Fraction(0)) + p * q
    return law


def sample(state: State, policies: Sequence[Policy], rng: random.Random) -> State:
    """Play the endgame from `state` to the end through the engine: seats by their policies, chance by `rng`."""
    while state.phase is not Phase.GAME_OVER:
        if state.is_chance_node():
            state = state.apply(sample_chance(state, rng))
        else:
            state = state.apply(policies[state.to_move](state, rng))
    return state
