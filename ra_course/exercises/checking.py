"""Checks that teach: a task registry, answers checked without showing them, hints in two steps.

An exercise sheet is a `Sheet`: a title and a few `Task`s. Each task names the function the
student writes and has a *judge*, which calls that function on examples and compares what comes
back with what is right. Nothing in this package knows a right answer beforehand: a judge either
**replays** a simulation (`ra_course.exercises.replay`: the statistic of the very numbers the
function drew), checks a **property** that defines the answer (a virtual value by its identity,
a bot's action by the rules), or compares with a **hash** (`answer_hash`) of the answer to a
visible example. The hidden tests of a graded cell (``grade(..., hidden=True)``) take their cases
and their hashed answers from the teacher's ``grading/`` folder, never installed for students,
and load the answers only after the student's function has returned.

The parts live in modules of their own: the task registry (`ra_course.exercises.tasks`), the
verdicts and every sentence they say (`ra_course.exercises.verdicts`, shared with the teacher's
judge), the calls of the student's code (`ra_course.exercises.calls`), the remote-call protocol
(`ra_course.exercises.remote`), answers rebuilt from plain types (`ra_course.exercises.values`)
and what a running check trusts (`ra_course.exercises.trust`); this module is the `Checker`, and
names them all for the sheets.

Every answer is first rebuilt from Python's own types (`plain`): an int, a float, a `Fraction`, a
string, tuples and dicts of these, or one of the engine's actions. So an object that says it
equals anything earns nothing, and no code of the student's runs while a check compares. And a
check makes sure it can trust the kernel (`ra_course.exercises.sound`): nothing of Python's or of
the package's was replaced, no tracer or thread of the notebook's runs beside it.

A notebook opens a sheet with ``check = ra_course.exercises.start("bag")`` and, after each task,
runs ``check("2", tiles_before_next_ra)``: feedback for the student, in his own kernel, which
decides no grade. Grades come from the teacher's judge (``grading/judge.py``), which runs the
same judges in a process of its own, on the student's functions called in a sandbox: there the
student's function is a `Delegated` one, which `call` asks for its answers as plain data. The
`Checker` then

* prints one line and records the points when the answer is right;
* returns a `NotAttemptedYet` note while the function is still the stub (it raises
  `NotImplementedError`, returns None, or is None or ``...``): a notebook shows it as a plain
  note, not as an error, and nbgrader reads it as 0 points (it shows nbgrader the number 0);
* raises `CheckFailed` when the answer is not right: what went wrong and a hint, a stronger hint
  from the second failure of the same task on.

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
· Task 1 · Doubling: not attempted yet. Write `double` in place of `raise NotImplementedError()`; ...
>>> check("1", lambda x: x + 1)
Traceback (most recent call last):
...
ra_course.exercises.verdicts.CheckFailed: Task 1 · Doubling: not right yet: double(21) returned 22
Hint: Doubling is adding a number to itself.
>>> check("1", lambda x: 2 * x)
✔ Task 1 · Doubling: correct. double(21) is 42.
"""

from __future__ import annotations

import hashlib
import os
from types import CodeType
from typing import Any

from . import sound, trust
from .calls import CALL_SECONDS, call, guarded, where
from .guards import copies
from .hashing import answer_hash, canonical, matches_hash
from .remote import Delegated, Player
from .tasks import Hidden, Sheet, Task, on_hidden_cases
from .trust import after_game, settle
from .values import is_number, plain
from .verdicts import (
    NOT_ATTEMPTED,
    WITHOUT_JUDGE,
    CheckFailed,
    NotAttempted,
    NotAttemptedYet,
    Untrusted,
    Verdict,
    Wrong,
    kept_copy,
    verdict,
)

__all__ = [
    "CALL_SECONDS",
    "NOT_ATTEMPTED",
    "NotAttemptedYet",
    "CheckFailed",
    "Checker",
    "Delegated",
    "after_game",
    "Hidden",
    "NotAttempted",
    "Player",
    "Sheet",
    "Task",
    "Untrusted",
    "Verdict",
    "Wrong",
    "answer_hash",
    "call",
    "canonical",
    "guarded",
    "is_number",
    "matches_hash",
    "on_hidden_cases",
    "plain",
    "settle",
    "verdict",
    "where",
]


class Checker:
    """A sheet's checks in one notebook: call it with a task key and the student's answer.

    It remembers how often each task failed (for the hint level) and each task's last result
    (for `summary`) in `memory`: by default its own, in a notebook the session's (see `grade`).
    """

    def __init__(self, sheet: Sheet, memory: dict[str, dict[str, Any]] | None = None) -> None:
        self.sheet = sheet
        memory = {} if memory is None else memory
        #: per task, the failed attempts: what was checked and what went wrong, one entry per different one
        self.failures: dict[str, list[str]] = memory.setdefault(f"{sheet.name}:failures", {})
        self.results: dict[str, str] = memory.setdefault(f"{sheet.name}:results", {})  # "passed" | "failed" | ...

    def __call__(self, key: str, answer: Any, hidden: bool = False) -> NotAttemptedYet | None:
        """Check `answer` for task `key`: print a line if it is right, raise `CheckFailed` if not.

        A task not attempted yet returns a `NotAttemptedYet` note (0 points). With
        ``hidden=True``, run the task's hidden tests (the teacher's cases) instead.
        """
        task = self.sheet.task(key)

        if os.environ.get("NBGRADER_EXECUTION") == "autograde":  # nbgrader's own autograde: no judge
            raise CheckFailed(f"{task.label}: {WITHOUT_JUDGE}")

        def run() -> str:
            if answer is None or answer is Ellipsis:
                raise NotAttempted(f"`{task.answer}` is still {answer!r}; define it above")
            current.start(self.sheet.forbidden)
            for problem in sound.ipython_problems():  # undone now, so that this check's failure shows
                raise Untrusted(problem)
            for dotted in copies(self.sheet.forbidden):
                raise Wrong(kept_copy(dotted))
            if not hidden:
                note = task.judge(answer)
            elif task.hidden is None:
                raise ValueError(f"{task.label} has no hidden tests")
            else:
                note = task.hidden(answer, Hidden(self.sheet.name, key))
            settle()
            return note

        with trust.checking() as current:
            found = verdict(task, run)
        self.results[key] = {"passed": "passed", "not attempted": NOT_ATTEMPTED}.get(found.status, "failed")
        if found.status == "passed":
            print(found.message())
            return None
        if found.status == "not attempted":
            return NotAttemptedYet(found.message())
        tried = self.failures.setdefault(key, [])
        attempt = f"{_fingerprint(answer)}|{found.detail}"
        if attempt not in tried:  # the same function failing the same way again is no new attempt
            tried.append(attempt)
        raise CheckFailed(found.message(stronger=found.status == "failed" and len(tried) >= 2))

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


def _fingerprint(answer: Any) -> str:
    """Return what identifies the code of `answer`: its cell run again (a new file name, line) gives the same."""
    code = getattr(answer, "__code__", None)
    if isinstance(code, CodeType):
        return hashlib.sha256(repr(_code_key(code)).encode()).hexdigest()
    return type(answer).__qualname__


def _code_key(code: CodeType) -> tuple[Any, ...]:
    """Return what a function's code does: its instructions, constants and names, not where it was written."""
    consts = tuple(_code_key(c) if isinstance(c, CodeType) else repr(c) for c in code.co_consts)
    return (code.co_code, consts, code.co_names)
