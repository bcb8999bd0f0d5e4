"""A time limit for one decision of a bot, so that a bot that never returns cannot hang a game.

Where the operating system allows it (Unix, the main thread of a process: a terminal, a
notebook kernel, a tournament's worker process), an interval timer interrupts the bot when its
time is up. Elsewhere (Windows, other threads, Pyodide) the bot cannot be interrupted, and a
decision that took too long is refused once it returns.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["DecisionTimeout", "can_interrupt", "time_limit_for"]


class DecisionTimeout(Exception):
    """Raised inside a bot whose decision took longer than its time limit."""


def can_interrupt() -> bool:
    """Return whether a running bot can be interrupted here (Unix, main thread)."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def time_limit_for(seconds: float | None) -> Iterator[None]:
    """Run the block with a time limit of `seconds` (None: no limit); raise `DecisionTimeout` past it."""
    if seconds is None:
        yield
        return
    start = time.perf_counter()
    if not can_interrupt():
        yield
        if time.perf_counter() - start > seconds:
            raise DecisionTimeout
        return

    def expire(signum: int, frame: Any) -> None:
        raise DecisionTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
