"""What a check decides about a task, and every sentence it says about it, each written once.

The student's own checks (`ra_course.exercises.checking`) and the teacher's judge
(``grading/judge.py``) decide the same verdicts and say them in the same words: both take the
exceptions and the sentences from here. A judge raises `NotAttempted` for the stub, `Wrong` for
a wrong answer (its message says what was observed, never the answer) and `Untrusted` for a
kernel changed so that no check can run; `verdict` turns what it raised into a `Verdict`, whose
`message` is what the student reads.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .tasks import Task

__all__ = [
    "NOT_ATTEMPTED",
    "WITHOUT_JUDGE",
    "budget_spent",
    "failed_on_hidden",
    "CheckFailed",
    "NotAttempted",
    "NotAttemptedYet",
    "Untrusted",
    "Verdict",
    "Wrong",
    "forbidden_call",
    "kept_copy",
    "not_defined",
    "not_plain",
    "raised",
    "returns_nothing",
    "timed_out",
    "unreadable",
    "verdict",
]

NOT_ATTEMPTED = "not attempted yet"
#: what every check says when nbgrader runs the sheet in a kernel to grade it: the judge was left out
WITHOUT_JUDGE = (
    "0 points: nbgrader is grading this sheet in the student's kernel, without the teacher's judge; add "
    "`c.Autograde.autograde_preprocessors = autograde_steps()` (with `from grading.scoring import "
    "autograde_steps`) to the course's nbgrader_config.py and autograde again (exercises/TEACHING.md)"
)


class NotAttempted(Exception):
    """Raised by a judge when the student's answer is still the stub."""


class Wrong(Exception):
    """Raised by a judge when the answer is not right; the message says what was observed, never the answer."""


class Untrusted(Wrong):
    """Raised when the kernel was changed so that a check cannot trust it (see `ra_course.exercises.sound`)."""


class CheckFailed(AssertionError):
    """A check that did not pass: an `AssertionError` that a notebook shows as its message alone."""

    def _render_traceback_(self) -> list[str]:
        """Return the lines IPython shows instead of a traceback."""
        return str(self).splitlines()


# -- the sentences ------------------------------------------------------------------------------


def forbidden_call(name: str, dotted: str) -> str:
    """Say that the student's `name` called the package function `dotted`, which the task forbids."""
    return (
        f"`{name}` calls `{dotted[:80]}` of the package, which computes what this task asks you to work out "
        "yourself; the sheet says which package functions you may use"
    )


def kept_copy(dotted: str) -> str:
    """Say that the kernel keeps a copy of the forbidden package function `dotted`."""
    return (
        f"a copy of `{dotted}` of the package is kept in this kernel (made from its code), and this sheet "
        "asks you to work out what it computes yourself; restart the kernel without it"
    )


def timed_out(name: str, seconds: float) -> str:
    """Say that the student's `name` did not return within `seconds`."""
    return f"`{name}` did not return within {seconds:g} seconds: is there a loop that never ends?"


def raised(name: str, kind: str, message: str, where: str) -> str:
    """Say that the student's `name` raised `kind` with `message`, at `where` (" (line N: code)" or "")."""
    return f"`{name}` raised {kind}: {message[:200]}{where}"


def not_plain(what: str, kind: str) -> str:
    """Say that `what` returned an object of type `kind`, which is no answer."""
    return (
        f"{what} returned an object of type {kind[:60]!r}; an answer is built of int, float, Fraction, "
        "str, tuples, lists and dicts, or the engine's actions"
    )


def returns_nothing(name: str, value: Any) -> str:
    """Say that the student's `name` returns None or ``...``: not attempted yet."""
    return f"`{name}` returns {value!r}; write its body and return the answer"


def not_defined(name: str) -> str:
    """Say that the student's `name` is not defined in his notebook."""
    return f"`{name}` is not defined; define it in its cell above"


def budget_spent(seconds: float) -> str:
    """Say that the notebook's time budget in the teacher's judge was spent before this point."""
    return (
        f"the notebook used up the {seconds:g} seconds it may run in the teacher's judge (its cells, the checks' "
        "calls, and the cells run again after a restart) before this point"
    )


def failed_on_hidden(name: str) -> str:
    """Say that the student's `name` failed on a hidden case, without a word of its own (that might carry the case)."""
    return (
        f"`{name}` failed on a hidden case (an exception, or an answer of no plain type); what it said is not "
        "shown, as the hidden cases stay with the teacher: run the visible checks on other inputs of your own"
    )


def unreadable(error: Exception) -> str:
    """Return the message for an answer the judge could not read (a number too large, NaN, a wrong type)."""
    return (
        f"the answer could not be checked ({type(error).__name__}: {str(error)[:120]}); is it a number of a "
        "sensible size (not NaN, not infinite), of the type the task asks for?"
    )


# -- verdicts -----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Verdict:
    """What a check decided about a task, and what it tells the student.

    Attributes:
        task: the task checked.
        status: ``"passed"``, ``"not attempted"``, ``"failed"`` (a wrong answer) or ``"untrusted"``
            (the kernel was changed so that the check could not run).
        detail: the check's note on a passed task; otherwise what it saw (never the answer).
    """

    task: Task
    status: str
    detail: str

    @property
    def passed(self) -> bool:
        """Return whether the task is done."""
        return self.status == "passed"

    def message(self, stronger: bool = False) -> str:
        """Return the lines shown to the student: with the first hint on a failure, and (`stronger`) the second."""
        task = self.task
        if self.status == "passed":
            return f"✔ {task.label}: correct. {self.detail}".rstrip()
        if self.status == "not attempted":
            stub = f". Write `{task.answer}` in place of `raise NotImplementedError()`"
            why = f": {self.detail}" if self.detail else stub
            return f"{task.label}: {NOT_ATTEMPTED}{why}; run that cell, then this check again."
        if self.status == "untrusted":
            return (
                f"{task.label}: cannot be checked in this kernel: {self.detail}. A check runs only on Python and the "
                "package as they are: restart the kernel and run the notebook from the top."
            )
        lines = [f"{task.label}: not right yet: {self.detail}", f"Hint: {task.hints[0]}"]
        if stronger:
            lines.append(f"Stronger hint: {task.hints[1]}")
        return "\n".join(lines)


def verdict(task: Task, run: Callable[[], str]) -> Verdict:
    """Return the verdict on `task` of `run`, a judge of it applied to an answer (it returns a note or raises).

    `NotAttempted` is the stub, `Untrusted` a changed kernel, `Wrong` a wrong answer; any other
    exception is an answer the judge could not read (NaN, 10**400, a list for a number).
    """
    try:
        note = run()
    except NotAttempted as e:
        return Verdict(task, "not attempted", str(e))
    except Untrusted as e:
        return Verdict(task, "untrusted", str(e))
    except Exception as e:
        return Verdict(task, "failed", str(e) if isinstance(e, Wrong) else unreadable(e))
    return Verdict(task, "passed", note)


class NotAttemptedYet:
    """What a check returns for a task not attempted yet: a note for the student, 0 points for nbgrader.

    A notebook shows it as a plain note (not in an error's red box: nothing is wrong yet). The
    check cell's value is what nbgrader scores: its text is the number 0, which nbgrader reads as
    partial credit of 0 points, so a task left as the stub earns nothing, as a failed check does.
    """

    def __init__(self, message: str) -> None:
        self.message = message

    def __repr__(self) -> str:
        return f"· {self.message}"

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        """Return the note as HTML for the notebook, and 0 (the points) as its text for nbgrader."""
        box = (
            '<div class="ra-not-attempted" style="border-left:4px solid #7A7A7A;padding:4px 10px;'
            f'margin:2px 0">· {escape(self.message)}</div>'
        )
        return {"text/plain": "0", "text/html": box}
