"""A time limit for each decision of a bot, so that a bot that never returns cannot hang a game.

Where the operating system allows it (Unix, the main thread of a process: a terminal, a
notebook kernel, a tournament's worker process), an interval timer interrupts the bot when its
time is up. Elsewhere (Windows, other threads, Pyodide) the bot cannot be interrupted, and a
decision that took too long is refused once it returns.

A game asks for hundreds of decisions, so the limit is set up once for all of them
(`TimeLimit`): the alarm's handler is installed when the game starts, and each decision only
arms and disarms the timer. `time_limit_for` limits one block of code.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any, TypeVar

__all__ = ["DecisionTimeout", "TimeLimit", "can_interrupt", "time_limit_for"]

T = TypeVar("T")


class DecisionTimeout(Exception):
    """Raised inside a bot whose decision took longer than its time limit."""


def can_interrupt() -> bool:
    """Return whether a running bot can be interrupted here (Unix, main thread)."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def _expire(signum: int, frame: Any) -> None:
    raise DecisionTimeout


class TimeLimit:
    """A limit of `seconds` (None: no limit) on each of many decisions, e.g. those of one game.

    >>> with TimeLimit(5.0) as limit:
    ...     limit.run(sum, (1, 2))
    3

    Entering installs the alarm's handler (where a bot can be interrupted, `can_interrupt`);
    leaving puts the previous handler back.
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.interrupts = False  # whether a decision over the limit is interrupted (else refused once it returns)
        self._previous: Any = None

    def __enter__(self) -> TimeLimit:
        if self.seconds is not None and can_interrupt():
            self._previous = signal.signal(signal.SIGALRM, _expire)
            self.interrupts = True
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        if self.interrupts:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)
            self.interrupts = False

    def run(self, decision: Callable[..., T], *args: Any) -> T:
        """Return ``decision(*args)``; raise `DecisionTimeout` if it takes longer than the limit."""
        seconds = self.seconds
        if seconds is None:
            return decision(*args)
        if self.interrupts:
            signal.setitimer(signal.ITIMER_REAL, seconds)
            try:
                return decision(*args)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        start = time.perf_counter()
        answer = decision(*args)
        if time.perf_counter() - start > seconds:
            raise DecisionTimeout
        return answer


@contextmanager
def time_limit_for(seconds: float | None) -> Iterator[None]:
    """Run the block with a time limit of `seconds` (None: no limit); raise `DecisionTimeout` past it."""
    if seconds is None:
        yield
        return
    with TimeLimit(seconds) as limit:
        if limit.interrupts:
            signal.setitimer(signal.ITIMER_REAL, seconds)
            try:
                yield
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            return
        start = time.perf_counter()
        yield
        if time.perf_counter() - start > seconds:
            raise DecisionTimeout
