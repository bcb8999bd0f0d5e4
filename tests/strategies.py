"""Hypothesis strategies: rules for every player count and option, and seeded games."""

from __future__ import annotations

from hypothesis import strategies as st

from ra_core import Rules

#: Every rules option of RULES.md §2.3, each as a named variant of the default rules.
OPTION_VARIANTS: dict[str, dict[str, object]] = {
    "default": {},
    "god_cannot_take_disaster": {"god_can_take_disaster": False},
    "no_fame_floor": {"fame_floor": False},
    "tie_break_sum": {"tie_break": "highest_sun_sum"},
}
TWO_PLAYER_VARIANTS: dict[str, dict[str, object]] = {
    "groups_a": {"groups": "a"},
    "groups_c": {"groups": "c"},
    "ra_limit_6": {"ra_limit": 6},
    "no_penalty_final": {"no_penalty": True},
    "no_penalty_all_epochs": {"no_penalty": True, "no_penalty_scope": "all_epochs"},
}


def make_rules(players: int, variant: str) -> Rules:
    """Return the rules for `players` with the named option variant."""
    if variant in TWO_PLAYER_VARIANTS:
        return Rules.two_player(**TWO_PLAYER_VARIANTS[variant])  # type: ignore[arg-type]
    options = OPTION_VARIANTS[variant]
    return Rules.two_player(**options) if players == 2 else Rules.classic(players, **options)  # type: ignore[arg-type]


ALL_RULES = [(n, v) for n in (2, 3, 4, 5) for v in OPTION_VARIANTS] + [(2, v) for v in TWO_PLAYER_VARIANTS]

seeds = st.integers(min_value=0, max_value=2**32 - 1)
