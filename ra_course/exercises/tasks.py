"""The task registry: a `Sheet` of `Task`s, each naming the student's function and its judges, and its hidden cases.

A task's *judge* calls the student's function on examples and compares what comes back with
what is right; its *hidden* judge does the same on the teacher's cases (`Hidden`), from the
``grading/`` folder beside the package (a copy of the repository), never installed for students.
A new sheet is a module of ``ra_course.exercises`` defining ``SHEET``, named in `SHEETS`.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from typing import Any

from .trust import settle
from .verdicts import Untrusted, Wrong

__all__ = ["Hidden", "Sheet", "Task", "on_hidden_cases"]

#: the folder holding ra_course (and, in a teacher's copy of the repository, grading/)
_ROOT = __file__.replace("\\", "/").rsplit("/", 3)[0]


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
        hidden: the judge of the hidden tests, called with the answer and a `Hidden`: the
            cases of the teacher's ``grading/cases.py``, and their answers once the calls are done.
    """

    key: str
    title: str
    points: int
    answer: str
    judge: Callable[[Any], str]
    hints: tuple[str, str]
    forbidden: tuple[str, ...] = ()
    hidden: Callable[[Any, Hidden], str] | None = None

    @property
    def label(self) -> str:
        """Return ``"Task <key> · <title>"``."""
        return f"Task {self.key} · {self.title}"


@dataclasses.dataclass(frozen=True)
class Sheet:
    """An exercise sheet: its name for `ra_course.exercises.start`, its title and its tasks.

    `lasting_tripwires`: whether the teacher's sandbox makes the package functions the sheet
    forbids tripwires for good, before the student's first cell runs (no copy of their code can be
    taken then), or only while his functions are called, as a check does: where a package tool
    the sheet allows calls one of them (sheet 4's `explain` asks the heuristic bot).
    """

    name: str
    title: str
    tasks: tuple[Task, ...]
    lasting_tripwires: bool = True

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

    @property
    def forbidden(self) -> tuple[str, ...]:
        """Return the package functions no task of the sheet may call: those of every task, once each."""
        return tuple(dict.fromkeys(dotted for t in self.tasks for dotted in t.forbidden))


class Hidden:
    """A task's hidden tests: the cases (inputs only) now, their answers after the student's calls.

    Both come from the teacher's ``grading/`` folder beside the package (a copy of the
    repository): ``grading/cases.py`` and ``grading/answers.py`` each hold one literal dict,
    sheet -> task -> data. `answers` first makes sure the kernel can still be trusted (`settle`).
    """

    def __init__(self, sheet: str, key: str, cases: Any = None, answers: Any = None) -> None:
        """Read the task's cases from ``grading/``, or (the teacher's judge, which imports them) take `cases`."""
        self.sheet, self.key, self._answers = sheet, key, answers
        self.cases: Any = _grading("cases")["CASES"][sheet][key] if cases is None else cases

    def answers(self) -> Any:
        """Return the hashed answers of the cases (call it only when the student's function is done)."""
        settle()
        if self._answers is not None:
            return self._answers
        return _grading("answers")["ANSWERS"][self.sheet][self.key]


def _grading(name: str) -> dict[str, Any]:
    """Return the names defined by the teacher's ``grading/<name>.py``: literals only, run without built-ins."""
    loaded = [m for m in sys.modules if m == "grading" or m.startswith("grading.")]
    if loaded:
        raise Untrusted(
            f"the teacher's package `{loaded[0]}` was imported in this kernel, so its hidden tests are void"
        )
    path = f"{_ROOT}/grading/{name}.py"
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        raise Wrong(
            "the hidden tests need the teacher's grading/ folder beside ra_course (a copy of the repository)"
        ) from None
    namespace: dict[str, Any] = {"__builtins__": {"__import__": _typing_only}}
    exec(compile(text, path, "exec", dont_inherit=True), namespace)  # the teacher's own file: literal dicts
    return namespace


def _typing_only(name: str, *args: Any, **kwargs: Any) -> Any:
    """Import `name` for a data file of ``grading/``: only what its annotations need."""
    if name not in ("__future__", "typing"):
        raise ImportError(f"a data file of grading/ imports only typing, not {name}")
    return __import__(name, *args, **kwargs)


def on_hidden_cases(judge: Callable[[Any, list[tuple[Any, ...]]], Any]) -> Callable[[Any, Hidden], str]:
    """Return the hidden-test judge of a task: its `judge` on the hidden cases (inputs; no answers needed)."""

    def hidden(f: Any, data: Hidden) -> str:
        return str(judge(f, [tuple(case) for case in data.cases]))

    return hidden
