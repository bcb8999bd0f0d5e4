"""Package calls a task forbids: tripwires while the student's function runs in a check.

**Forbidden calls.** A task whose point is to compute something the package also computes
names those package functions (`Task.forbidden`, dotted names such as
``"ra_core.analysis.chance.p_next_ra"``). While the student's function runs inside a check, each of them
is a tripwire: its code is swapped for one that records the call and raises `ForbiddenCall`, so
it trips whatever name the student imported it under, and also when the student's code reaches
it through another package function. The check then fails, even if the student's code caught
the error. Outside a check every function works as before.

>>> import ra_core.analysis.odds
>>> with student_code(("ra_core.analysis.odds.p_next_ra",)) as tripped:
...     try:
...         ra_core.analysis.odds.p_next_ra(None)
...     except ForbiddenCall as e:
...         print(e)
p_next_ra is not allowed here
>>> tripped
['ra_core.analysis.odds.p_next_ra']

A tripwire swaps the code of the function itself, so a copy made before the check from its code
object (``types.FunctionType(p_next_ra.__code__, ...)``, a pasted bot) would not trip. `copies`
finds them: nothing but the function should refer to its code, and a check whose task forbids a
function fails while a copy of it is kept anywhere in the kernel.

>>> copies(("ra_core.analysis.odds.p_next_ra",))
[]
"""

from __future__ import annotations

import functools
import gc
import importlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from types import CodeType
from typing import Any

__all__ = ["ForbiddenCall", "copies", "disable", "resolve", "student_code", "take_tripped", "tripped"]

_TRIPPED: list[str] = []


class ForbiddenCall(Exception):
    """Raised by a package function that the running check's task asks the student to write himself."""


def tripped(name: str) -> None:
    """Record that the forbidden function `name` was called, and raise `ForbiddenCall` (the tripwire's body)."""
    _TRIPPED.append(name)
    raise ForbiddenCall(f"{name.rsplit('.', 1)[-1]} is not allowed here")


@functools.cache
def resolve(dotted: str) -> Callable[..., Any]:
    """Return the Python function behind the dotted name `dotted`, e.g. ``"ra_core.analysis.odds.p_next_ra"``.

    A method is named by its class (``"ra_core.bots.HeuristicBot.__call__"``).
    """
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            found: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        function = getattr(found, "__func__", found)
        if not hasattr(function, "__code__"):
            raise TypeError(f"{dotted} is not a Python function")
        return function  # type: ignore[no-any-return]
    raise ImportError(f"no module for {dotted}")


@functools.cache
def _plain(name: str) -> CodeType:
    """Return the code of a function that calls `tripped(name)`, whatever its arguments."""
    namespace: dict[str, Any] = {}
    source = (
        f"def tripwire(*args, **kwargs):\n    from ra_course.exercises.guards import tripped\n    tripped({name!r})\n"
    )
    exec(compile(source, f"<forbidden {name}>", "exec"), namespace)  # a fixed text of ours, with the name quoted
    code: CodeType = namespace["tripwire"].__code__
    return code


@contextmanager
def student_code(forbidden: Iterable[str]) -> Iterator[list[str]]:
    """Run the block with the `forbidden` package functions as tripwires; yield the list of those called."""
    swapped: list[tuple[Any, CodeType]] = []
    del _TRIPPED[:]
    try:
        for dotted in forbidden:
            function = resolve(dotted)
            if function.__code__.co_freevars:
                raise TypeError(f"{dotted} is a closure; forbid a module-level function or method")
            swapped.append((function, function.__code__))
            function.__code__ = _plain(dotted)
        yield _TRIPPED
    finally:
        for function, code in reversed(swapped):
            function.__code__ = code


def copies(forbidden: Iterable[str]) -> list[str]:
    """Return the `forbidden` functions whose code something else than the function itself refers to: a copy."""
    found = []
    for dotted in forbidden:
        function = resolve(dotted)
        others = [r for r in gc.get_referrers(function.__code__) if r is not function and type(r).__name__ != "frame"]
        if others:
            found.append(dotted)
    return found


def disable(forbidden: Iterable[str]) -> None:
    """Make the `forbidden` package functions tripwires for good, in a process that runs a student's code only.

    The teacher's sandbox (``grading/worker.py``) does this before the first cell of a submission
    runs: then no name, copy or code object the student's cells take of them reaches their code.
    """
    for dotted in forbidden:
        function = resolve(dotted)
        if function.__code__.co_freevars:
            raise TypeError(f"{dotted} is a closure; forbid a module-level function or method")
        function.__code__ = _plain(dotted)


def take_tripped() -> list[str]:
    """Return the forbidden functions called since the last time, and forget them."""
    found = list(dict.fromkeys(_TRIPPED))
    del _TRIPPED[:]
    return found
