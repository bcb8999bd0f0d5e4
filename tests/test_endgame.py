"""Endgames solved exactly: the search equals a plain recursive expectimax, and the engine agrees when sampled."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from fractions import Fraction

import pytest

from ra_core import State
from ra_core.analysis.endgame import Objective, Policy, best_response, exploitability, profile_value, sample
from ra_core.bots import heuristic_bot, random_bot

ENDGAME = {
    "epoch": 3,
    "ra_count": 7,
    "center_sun": 4,
    "turn_player": 0,
    "track": ["agriculture", "nile", "nile"],
    "players": [
        {"suns_up": [13], "suns_down": [3, 9, 12], "display": {"pharaoh": 1, "flood": 2, "fortress": 1}, "fame": 17},
        {"suns_up": [2, 6], "suns_down": [1, 8], "display": {"nile": 2, "gold": 3}, "fame": 22},
        {"suns_up": [7], "suns_down": [5, 10, 11], "display": {"god": 1, "flood": 3, "art": 2}, "fame": 22},
    ],
    "bag": {"ra": 2, "nile": 1, "flood": 1, "unrest": 1},
}
BOTS: list[Policy] = [heuristic_bot] * 3


def endgame() -> State:
    return State.from_dict(ENDGAME, strict=False)


def plain(state: State, hero: int | None, seat: int, policies: Sequence[Policy], objective: Objective) -> Fraction:
    """Expectimax written the obvious way (recursive, no memo): the reference for the solver."""
    if state.is_terminal():
        return Fraction(state.fame[seat]) if objective == "fame" else Fraction(int(state.winner() == seat))
    if state.is_chance_node():
        return sum(
            (p * plain(state.apply(a), hero, seat, policies, objective) for a, p in state.chance_outcomes()),
            Fraction(0),
        )
    if state.to_move == hero:
        return max(plain(state.apply(a), hero, seat, policies, objective) for a in state.legal_actions())
    action = policies[state.to_move](state, random.Random(0))  # as the solver asks it
    return plain(state.apply(action), hero, seat, policies, objective)


@pytest.mark.parametrize("objective", ["fame", "win"])
@pytest.mark.parametrize("hero", [0, 1, 2])
def test_the_solver_equals_plain_expectimax(objective: Objective, hero: int) -> None:
    s = endgame()
    assert best_response(s, hero, BOTS, objective).value == plain(s, hero, hero, BOTS, objective)
    assert profile_value(s, hero, BOTS, objective) == plain(s, None, hero, BOTS, objective)


def test_fame_and_winning_ask_for_different_moves() -> None:
    """Behind by 5, P0 gains most fame by calling now, but wins most often by drawing."""
    s = endgame()
    fame = best_response(s, 0, BOTS, "fame")
    win = best_response(s, 0, BOTS, "win")
    assert fame.action == "ra" and win.action == "draw"
    assert fame.action_values["ra"] > fame.action_values["draw"]
    assert win.action_values["draw"] > win.action_values["ra"]


def test_exploitability_is_the_best_responses_gain() -> None:
    s = endgame()
    for objective in ("fame", "win"):
        gains = exploitability(s, BOTS, objective)
        assert all(g >= 0 for g in gains)
        for seat, gain in enumerate(gains):
            assert gain == best_response(s, seat, BOTS, objective).value - profile_value(s, seat, BOTS, objective)
    assert sum(exploitability(s, BOTS, "fame")) > 0  # the heuristic bots are not an equilibrium here


def test_a_sampled_best_response_wins_as_often_as_solved() -> None:
    """Tolerance 4.5 standard errors: a false alarm about once in 150,000 runs."""
    s = endgame()
    win = best_response(s, 0, BOTS, "win")
    rng = random.Random(13)
    wins = [float(sample(s, [win.policy, heuristic_bot, heuristic_bot], rng).winner() == 0) for _ in range(2000)]
    se = statistics.stdev(wins) / math.sqrt(len(wins))
    assert abs(statistics.fmean(wins) - float(win.value)) <= 4.5 * se


def test_a_random_opponent_is_a_policy_too() -> None:
    """Any deterministic policy works; a random one is made deterministic by the solver's fixed stream."""
    s = endgame()
    assert best_response(s, 0, [random_bot] * 3, "fame").value >= profile_value(s, 0, [random_bot] * 3, "fame")


def test_errors() -> None:
    with pytest.raises(ValueError, match="objective"):
        best_response(endgame(), 0, BOTS, "money")  # type: ignore[arg-type]
