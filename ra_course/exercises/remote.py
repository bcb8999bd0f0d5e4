"""The remote-call protocol: a student's function that lives in another process, and a bot that plays one game.

The judges of the tasks call the student's function through `ra_course.exercises.calls.call`
and play his bot through `guarded`; the teacher's judge (``grading/judge.py``) gives them a
`Delegated` function instead of the student's, which asks the sandbox that holds his code. The
judges need not know which they were given.
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import Any

__all__ = ["Delegated", "Player"]


class Player:
    """A bot the checks play one game with: called as a policy, and told every action of the game (`saw`)."""

    def __init__(self, decide: Callable[..., Any]) -> None:
        self.decide = decide
        self.__name__ = getattr(decide, "__name__", "bot")

    def __call__(self, state: Any, rng: Any) -> Any:
        """Return the bot's action in `state`."""
        return self.decide(state, rng)

    def saw(self, action: Any) -> None:
        """Take note of an action of the game (a bot in the same process sees the states: nothing to do)."""


class Delegated(abc.ABC):
    """A student's function that lives in another process: the teacher's judge grades it through this.

    Given a `Delegated` function, `call` and `guarded` ask it instead of calling it: it sends the
    inputs to the process that holds the student's code (a sandbox, ``grading/sandbox.py``) and
    returns the answer as plain data, or raises `NotAttempted` or `Wrong` as `call` would.
    Nothing of the student's runs in the judge's process.
    """

    @abc.abstractmethod
    def answer(self, name: str, args: tuple[Any, ...]) -> Any:
        """Return the student's ``name(*args)``, rebuilt from plain data; raise `NotAttempted` or `Wrong`."""

    @abc.abstractmethod
    def policy(self, name: str) -> Player:
        """Return the student's bot `name` as a player of one game (see `guarded`)."""

    @abc.abstractmethod
    def play(self, name: str, games: list[tuple[int, list[Any]]], time_limit: float) -> list[Any]:
        """Play each game (its seed, its players: None for the student's bot `name`) to its end; return its last state.

        The games are the engine's (`ra_core.play.steps`), and may be played at once. A failure of
        the student's bot raises `Wrong`; one of another bot, the engine's `BotError`.
        """
