"""Reference policies. A policy is called as ``policy(state, rng)`` and returns a legal action.

Policies never touch global randomness: all chance comes from the `random.Random` passed in,
so one seed reproduces a whole game.
"""

from __future__ import annotations

import random

from .actions import Action
from .state import State


def random_bot(state: State, rng: random.Random) -> Action:
    """Return a legal action chosen uniformly at random."""
    legal = state.legal_actions()
    return legal[int(rng.random() * len(legal))]


__all__ = ["random_bot"]
