"""The errors the engine raises. All are `ValueError`s, so one ``except ValueError`` catches them."""

from __future__ import annotations

from typing import Any


class InvalidActionError(ValueError):
    """Raised when a text is not the notation of any action."""


class IllegalActionError(ValueError):
    """Raised when an action is not legal in the position; the position is unchanged.

    Attributes:
        action: the action that was refused.
        player: who was to decide (-1 at a chance node).
        phase: the phase's name.
        legal: the legal actions, in order.
    """

    def __init__(self, message: str, *, action: Any, player: int, phase: str, legal: list[Any]) -> None:
        super().__init__(message)
        self.action = action
        self.player = player
        self.phase = phase
        self.legal = legal


class InvalidStateError(ValueError):
    """Raised when saved data does not describe a possible position or record.

    Attributes:
        field: the dotted name of the offending field, e.g. ``"players[1].suns_down"``.
    """

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field


class BotError(ValueError):
    """Raised when a policy fails during a game: it raised, or it chose an illegal action.

    The message names the bot, its seat, the game's seed and the move, so that the game can be
    replayed; the policy's own exception is chained as ``__cause__``.

    Attributes:
        bot: the bot's name.
        seat: the seat it played.
        seed: the game's seed.
        move: the number of actions played before the failed one (chance included).
    """

    def __init__(self, message: str, bot: str = "", seat: int = -1, seed: Any = None, move: int = -1) -> None:
        super().__init__(message)
        self.bot = bot
        self.seat = seat
        self.seed = seed
        self.move = move

    def __reduce__(self) -> tuple[Any, ...]:  # keep every attribute across processes (tournament workers)
        return (type(self), (str(self), self.bot, self.seat, self.seed, self.move))
