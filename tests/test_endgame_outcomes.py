"""The exact law of an endgame's final positions agrees with the values the solver gives."""

from __future__ import annotations

from fractions import Fraction

from ra_core import State
from ra_core.analysis.endgame import Policy, best_response, outcomes, profile_value
from ra_core.bots import heuristic_bot, random_bot
from tests.test_endgame import ENDGAME

BOTS: list[Policy] = [heuristic_bot] * 3


def test_the_law_sums_to_one_and_ends_every_line() -> None:
    law = outcomes(State.from_dict(ENDGAME, strict=False), BOTS)
    assert sum(law.values()) == 1
    assert all(end.is_terminal() and p > 0 for end, p in law.items())


def test_the_law_gives_every_seat_its_profile_value_for_both_goals() -> None:
    s = State.from_dict(ENDGAME, strict=False)
    profiles: list[list[Policy]] = [BOTS, [random_bot, heuristic_bot, random_bot]]
    for policies in profiles:
        law = outcomes(s, policies)
        for seat in range(3):
            fame = sum((p * end.fame[seat] for end, p in law.items()), Fraction(0))
            wins = sum((p for end, p in law.items() if end.winner() == seat), Fraction(0))
            assert fame == profile_value(s, seat, policies, "fame")
            assert wins == profile_value(s, seat, policies, "win")


def test_the_best_response_to_win_is_worth_its_value_under_the_law() -> None:
    s = State.from_dict(ENDGAME, strict=False)
    best = best_response(s, 0, BOTS, "win")
    law = outcomes(s, [best.policy, *BOTS[1:]])
    assert sum((p for end, p in law.items() if end.winner() == 0), Fraction(0)) == best.value
