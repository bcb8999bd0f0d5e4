"""Checks that teach: a task registry, answers checked without showing them, hints in two steps.

An exercise sheet is a `Sheet`: a title and a few `Task`s. Each task names the function the
student writes and has a *judge*, which calls that function on examples (some of them hidden)
and compares what comes back with an expected answer that is either **derived** at check time
(from a formula or from the engine's own analysis functions) or **hashed** (`answer_hash`),
so the notebook never shows it.

A notebook opens a sheet with ``check = ra_course.exercises.start("bag")`` and, after each task,
runs ``check("2", expected_tiles_before_ra)``. The `Checker` then

* prints one line and records the points when the answer is right;
* raises `CheckFailed` when it is not: **"not attempted yet"** while the function is still the
  stub (it raises `NotImplementedError`, returns None, or is None or ``...``); otherwise what
  went wrong and a hint, a stronger hint from the second failure of the same task on.

`CheckFailed` is an `AssertionError` (so nbgrader counts the check cell as failed) that shows
itself in a notebook as its message only, without a traceback: IPython calls its
``_render_traceback_``.

>>> def judge(f):
...     value = call(f, "double", 21)
...     if value != 42:
...         raise Wrong(f"double(21) returned {value!r}")
...     return "double(21) is 42."
>>> sheet = Sheet("demo", "A demonstration", (Task("1", "Doubling", 2, "double", judge,
...               ("Doubling is adding a number to itself.", "Return x + x.")),))
>>> check = Checker(sheet)
>>> def double(x):
...     raise NotImplementedError()
>>> check("1", double)
Traceback (most recent call last):
...
ra_course.exercises.checking.CheckFailed: Task 1 · Doubling: not attempted yet. Write `double` in place of ...
>>> check("1", lambda x: x + 1)
Traceback (most recent call last):
...
ra_course.exercises.checking.CheckFailed: Task 1 · Doubling: not right yet: double(21) returned 22
Hint: Doubling is adding a number to itself.
>>> check("1", lambda x: 2 * x)
✔ Task 1 · Doubling: correct. double(21) is 42.
"""

from __future__ import annotations

import dataclasses
import math
import site
import sys
import traceback
from collections.abc import Callable, Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

from ra_core.engine.timer import DecisionTimeout, time_limit_for

from .guards import student_code
from .hashing import answer_hash, canonical, matches_hash

__all__ = [
    "NOT_ATTEMPTED",
    "CheckFailed",
    "Checker",
    "NotAttempted",
    "Sheet",
    "Task",
    "Wrong",
    "all_close",
    "answer_hash",
    "call",
    "canonical",
    "close_to",
    "grade",
    "guarded",
    "is_number",
    "matches_hash",
    "on_hidden_cases",
    "too_high_or_low",
    "within",
]

NOT_ATTEMPTED = "not attempted yet"
#: a simulated mean passes within this many standard errors of the exact (or theoretical) value
Z = 5.0
_PACKAGE_DIR = str(Path(__file__).resolve().parent.parent)


class NotAttempted(Exception):
    """Raised by a judge when the student's answer is still the stub."""


class Wrong(Exception):
    """Raised by a judge when the answer is not right; the message says what was observed, never the answer."""


class CheckFailed(AssertionError):
    """A check that did not pass: an `AssertionError` that a notebook shows as its message alone."""

    def _render_traceback_(self) -> list[str]:
        """Return the lines IPython shows instead of a traceback."""
        return str(self).splitlines()


@dataclasses.dataclass(frozen=True)
class Task:
    """One graded task of a sheet.

    Attributes:
        key: what the check cell passes, e.g. ``"2"``.
        title: a few words, shown in every message.
        points: the points of the task (also in the check cell's nbgrader metadata).
        answer: the name of the function the student writes, for messages.
        judge: called with the student's answer; returns a short note on success, raises
            `Wrong` or `NotAttempted` otherwise.
        hints: the first hint (after a first failure) and the stronger one (after that).
        forbidden: the package functions the student's code may not call in this task (see
            `ra_course.exercises.guards`): those that compute what the task asks for.
        hidden: the judge of the hidden tests, called with the answer and the data that the
            hidden test cell of the source sheet holds (positions, seeds, hashed answers).
    """

    key: str
    title: str
    points: int
    answer: str
    judge: Callable[[Any], str]
    hints: tuple[str, str]
    forbidden: tuple[str, ...] = ()
    hidden: Callable[[Any, Any], str] | None = None

    @property
    def label(self) -> str:
        """Return ``"Task <key> · <title>"``."""
        return f"Task {self.key} · {self.title}"


@dataclasses.dataclass(frozen=True)
class Sheet:
    """An exercise sheet: its name for `ra_course.exercises.start`, its title and its tasks."""

    name: str
    title: str
    tasks: tuple[Task, ...]

    def task(self, key: str) -> Task:
        """Return the task with `key`; raise KeyError naming the keys there are."""
        for t in self.tasks:
            if t.key == key:
                return t
        raise KeyError(f"sheet {self.name!r} has no task {key!r}; its tasks are {[t.key for t in self.tasks]}")

    @property
    def points(self) -> int:
        """Return the points of all tasks."""
        return sum(t.points for t in self.tasks)


class Checker:
    """A sheet's checks in one notebook: call it with a task key and the student's answer.

    It remembers how often each task failed (for the hint level) and each task's last result
    (for `summary`) in `memory`: by default its own, in a notebook the session's (see `grade`).
    """

    def __init__(self, sheet: Sheet, memory: dict[str, dict[str, Any]] | None = None) -> None:
        self.sheet = sheet
        memory = {} if memory is None else memory
        self.failures: dict[str, int] = memory.setdefault(f"{sheet.name}:failures", {})
        self.results: dict[str, str] = memory.setdefault(f"{sheet.name}:results", {})  # "passed" | "failed" | ...

    def __call__(self, key: str, answer: Any, hidden: Any = None) -> None:
        """Check `answer` for task `key`: print a line if it is right, raise `CheckFailed` if not.

        With `hidden` (the data of a hidden test cell), run the task's hidden tests on it instead.
        """
        global _FORBIDDEN
        task = self.sheet.task(key)
        try:
            if answer is None or answer is Ellipsis:
                raise NotAttempted(f"`{task.answer}` is still {answer!r}; define it above")
            _FORBIDDEN = task.forbidden
            if hidden is None:
                note = task.judge(answer)
            elif task.hidden is None:
                raise ValueError(f"{task.label} has no hidden tests")
            else:
                note = task.hidden(answer, hidden)
        except NotAttempted as e:
            self.results[key] = NOT_ATTEMPTED
            why = f": {e}" if str(e) else f". Write `{task.answer}` in place of `raise NotImplementedError()`"
            raise CheckFailed(f"{task.label}: {NOT_ATTEMPTED}{why}; run that cell, then this check again.") from None
        except Exception as e:  # a wrong answer, or one the judge cannot even read (NaN, 10**400, a list)
            self.results[key] = "failed"
            n = self.failures[key] = self.failures.get(key, 0) + 1
            why = str(e) if isinstance(e, Wrong) else _unreadable(e)
            lines = [f"{task.label}: not right yet: {why}", f"Hint: {task.hints[0]}"]
            if n >= 2:
                lines.append(f"Stronger hint: {task.hints[1]}")
            raise CheckFailed("\n".join(lines)) from None
        finally:
            _FORBIDDEN = ()
        self.results[key] = "passed"
        print(f"✔ {task.label}: correct. {note}".rstrip())

    def summary(self) -> None:
        """Print each task's state and the points so far."""
        earned = 0
        lines = []
        for t in self.sheet.tasks:
            state = self.results.get(t.key, "not checked yet")
            if state == "passed":
                earned += t.points
                mark, text = "✔", "correct"
            elif state == "failed":
                mark, text = "✘", "not right yet"
            else:
                mark, text = "·", state
            lines.append(f"  {mark} {t.label} ({t.points} points): {text}")
        print(f"{self.sheet.title}: {earned} of {self.sheet.points} points")
        print("\n".join(lines))

    def __repr__(self) -> str:
        return f"<Checker for {self.sheet.title!r}: {len(self.sheet.tasks)} tasks, {self.sheet.points} points>"


def grade(sheet_name: str, key: str, answer: Any, hidden: Any = None) -> None:
    """Check task `key` of the sheet `sheet_name`, as a graded cell does; see `Checker.__call__`.

    The grade cells of the sheets load this module afresh before they call it (they remove
    ``ra_course.exercises.*`` from ``sys.modules`` and import it again), so what decides the
    points is this code, whatever the student's cells rebound or changed before.
    """
    from importlib import import_module

    package = import_module("ra_course.exercises")
    memory: dict[str, dict[str, Any]] = package.SESSION
    found: Sheet = import_module(f"ra_course.exercises.{package.SHEETS[sheet_name]}").SHEET
    Checker(found, memory)(key, answer, hidden)


# -- helpers for judges ------------------------------------------------------------------------


def on_hidden_cases(judge: Callable[[Any, list[tuple[Any, ...]]], Any]) -> Callable[[Any, Any], str]:
    """Return the hidden-test judge of a task: its `judge` on the cases the hidden test cell gives."""

    def hidden(f: Any, cases: Any) -> str:
        return str(judge(f, [tuple(case) for case in cases]))

    return hidden


#: the package functions that the task being checked forbids (set by `Checker` while it judges)
_FORBIDDEN: tuple[str, ...] = ()


def call(function: Any, name: str, *args: Any) -> Any:
    """Return ``function(*args)``; turn the stub and any error into `NotAttempted` or `Wrong`.

    `name` is the function's name for messages. A function that raises `NotImplementedError`,
    or returns None or ``...``, is not attempted yet. Any other exception becomes `Wrong`,
    naming the exception and the line of the student's code where it was raised. The call may
    take `CALL_SECONDS`; the package functions that the task being checked forbids trip while it
    runs (see `ra_course.exercises.guards`).
    """
    if not callable(function):
        raise Wrong(f"pass the function `{name}` itself to the check (without calling it), not {function!r:.60}")
    try:
        with time_limit_for(CALL_SECONDS), student_code(_FORBIDDEN) as tripped:
            try:
                result = function(*args)
            finally:
                if tripped:
                    raise _Forbidden(tripped[0])
    except _Forbidden as e:
        raise Wrong(
            f"`{name}` calls `{e}` of the package, which computes what this task asks you to work out "
            "yourself; the sheet says which package functions you may use"
        ) from None
    except NotImplementedError:
        raise NotAttempted() from None
    except DecisionTimeout:
        raise Wrong(
            f"`{name}` did not return within {CALL_SECONDS:g} seconds: is there a loop that never ends?"
        ) from None
    except (Exception, SystemExit) as e:  # the student's code failed: say where, without a traceback
        raise Wrong(f"`{name}` raised {type(e).__name__}: {str(e)[:200]}{_where(e)}") from None
    if result is None or result is Ellipsis:
        raise NotAttempted(f"`{name}` returns {result!r}; write its body and return the answer")
    return result


def guarded(function: Callable[..., Any], name: str) -> Callable[..., Any]:
    """Return `function` run with the forbidden package functions as tripwires (for a game loop that times it).

    A forbidden call raises `Wrong` (a game loop reports it as the bot's failure).
    """

    def run(*args: Any) -> Any:
        with student_code(_FORBIDDEN) as tripped:
            try:
                return function(*args)
            finally:
                if tripped:
                    raise Wrong(f"`{name}` calls `{tripped[0]}` of the package, which this task does not allow")

    run.__name__ = name
    return run


#: The seconds one call of a student's function may take in a check (the slowest reference: ~2 s).
CALL_SECONDS = 30.0


class _Forbidden(BaseException):
    """A forbidden package function was called (a BaseException, so that `call` sees it first)."""


def _unreadable(error: Exception) -> str:
    """Return the message for an answer the judge could not read (a number too large, NaN, a wrong type)."""
    return (
        f"the answer could not be checked ({type(error).__name__}: {str(error)[:120]}); is it a number of a "
        "sensible size (not NaN, not infinite), of the type the task asks for?"
    )


def _where(error: BaseException) -> str:
    """Return " (line N: <code>)" for the student's own line where `error` was raised.

    That is the innermost frame in a notebook cell; failing that, the innermost one outside this
    package and outside Python's and the installed libraries' folders.
    """
    frames = traceback.extract_tb(error.__traceback__)
    cells = [f for f in frames if "ipykernel_" in f.filename or f.filename.startswith("<")]
    libraries = (_PACKAGE_DIR, sys.prefix, sys.base_prefix, *getattr(site, "getsitepackages", list)())
    own = cells or [f for f in frames if not f.filename.startswith(libraries)]
    if not own:
        return ""
    f = own[-1]
    code = f" `{f.line.strip()}`" if f.line else ""
    return f" (line {f.lineno}{code})"


def close_to(value: Any, target: float | Fraction, tolerance: float) -> bool:
    """Return whether `value` is a real number within `tolerance` of `target`."""
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        return False
    return abs(float(value) - target) <= tolerance


def all_close(values: Iterable[Any], targets: Iterable[float | Fraction], tolerance: float = 1e-9) -> bool:
    """Return whether each value is within `tolerance` of its target (same lengths)."""
    v, t = list(values), list(targets)
    return len(v) == len(t) and all(close_to(a, b, tolerance) for a, b in zip(v, t, strict=True))


def is_number(value: Any) -> bool:
    """Return whether `value` is an int, float or Fraction (not a bool)."""
    return isinstance(value, int | float | Fraction) and not isinstance(value, bool)


def within(value: Any, mean: float, variance: float, trials: int) -> bool:
    """Return whether `value` is a number within `Z` standard errors of `mean` (a mean of `trials` draws)."""
    return is_number(value) and abs(float(value) - mean) <= Z * math.sqrt(variance / trials) + 1e-12


def too_high_or_low(value: float, target: float) -> str:
    """Return "too high" or "too low": which way `value` misses `target`."""
    return "too high" if value > target else "too low"
