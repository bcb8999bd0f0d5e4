"""The random bot: a uniformly random legal action, the baseline every other bot must beat."""

from __future__ import annotations

import random

from ..engine.actions import Action
from ..engine.state import State

__all__ = ["random_bot"]


def random_bot(state: State, rng: random.Random) -> Action:
    """Return a legal action chosen uniformly at random (one ``rng.random()`` per decision)."""
    legal = state.legal_actions()
    return legal[int(rng.random() * len(legal))]
