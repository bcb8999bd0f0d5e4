"""What a check trusts: the check running now, what the kernel held when it began, and whether it is unchanged.

A check of the student's kernel (`ra_course.exercises.checking.Checker`) runs inside `checking`:
while it runs, `current` is its `Run`, which knows the package functions the task forbids and
what the kernel held when it began (`ra_course.exercises.sound.Snapshot`). The calls of the
student's functions (`ra_course.exercises.calls`) ask it after each call whether the kernel can
still be trusted. The teacher's judge runs no code of the student's in its process: it calls the
judges outside any check, and then there is nothing to look at.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

from . import sound
from .guards import resolve
from .verdicts import Untrusted

__all__ = ["Run", "after_call", "after_game", "checking", "current", "settle"]


class Run:
    """The task being checked: the package functions it forbids, and what the kernel held when it began."""

    def __init__(self) -> None:
        self.forbidden: tuple[str, ...] = ()
        self.snapshot: sound.Snapshot | None = None
        self.called = False

    def start(self, forbidden: tuple[str, ...]) -> None:
        """Begin the check of a task that forbids the package functions `forbidden`: note what the kernel holds."""
        for dotted in forbidden:  # imported now, so that the snapshot holds their modules
            resolve(dotted)
        self.forbidden, self.snapshot, self.called = forbidden, sound.Snapshot(), False

    def after_call(self, name: str, replaced: bool = True) -> None:
        """Raise `Untrusted` if the student's `name` left a tracer, a thread or (`replaced`) a replaced object."""
        if self.snapshot is None:
            return
        self.called = True
        found = sound.quick_problems(timers=replaced) + (self.snapshot.changed() if replaced else [])
        if found:
            raise Untrusted(f"after `{name}` ran, {found[0]}")


_CURRENT: contextvars.ContextVar[Run | None] = contextvars.ContextVar("ra_course_check", default=None)


@contextlib.contextmanager
def checking() -> Iterator[Run]:
    """Run a check of this kernel inside: `current` is its `Run` until it ends."""
    run = Run()
    token = _CURRENT.set(run)
    try:
        yield run
    finally:
        _CURRENT.reset(token)


def current() -> Run | None:
    """Return the check of this kernel running now, or None (outside a check: the teacher's judge)."""
    return _CURRENT.get()


def after_call(name: str, replaced: bool = True) -> None:
    """Raise `Untrusted` if, inside a check, the student's `name` left the kernel changed (see `Run.after_call`)."""
    run = _CURRENT.get()
    if run is not None:
        run.after_call(name, replaced)


def after_game(name: str) -> None:
    """Raise `Untrusted` if a game of the student's bot `name` replaced an object of Python's or of the package."""
    after_call(name)


def settle() -> None:
    """Raise `Untrusted` unless the kernel can be trusted now (see `ra_course.exercises.sound`).

    A judge calls it after the student's function has returned for the last time and before it
    computes or loads what it compares with. (Only when the student's function was called: a stub
    costs no check.)
    """
    run = _CURRENT.get()
    if run is None or not run.called:
        return
    found = sound.problems() + (run.snapshot.changed() if run.snapshot else [])
    if found:
        raise Untrusted(found[0])
