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
ra_course.exercises.checking.CheckFailed: Task 1 · Doubling: not right yet: double(21) returned 22
Hint: Doubling is adding a number to itself.
>>> check("1", lambda x: 2 * x)
✔ Task 1 · Doubling: correct. double(21) is 42.
"""

from __future__ import annotations

import abc
import dataclasses
import hashlib
import site
import sys
import traceback
from collections.abc import Callable
from fractions import Fraction
from html import escape
from types import CodeType
from typing import Any

from ra_core.engine.actions import Bid, CallRa, Discard, Done, Draw, Pass, Reveal, UseGod
from ra_core.engine.tiles import Tile
from ra_core.engine.timer import DecisionTimeout, time_limit_for

from . import sound
from .guards import copies, resolve, student_code
from .hashing import answer_hash, canonical, matches_hash

__all__ = [
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
]

NOT_ATTEMPTED = "not attempted yet"
#: the folder holding ra_course (and, in a teacher's copy of the repository, grading/)
_ROOT = __file__.replace("\\", "/").rsplit("/", 3)[0]


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

        def run() -> str:
            if answer is None or answer is Ellipsis:
                raise NotAttempted(f"`{task.answer}` is still {answer!r}; define it above")
            _RUN.start(self.sheet.forbidden)
            for problem in sound.ipython_problems():  # undone now, so that this check's failure shows
                raise Untrusted(problem)
            for dotted in copies(self.sheet.forbidden):
                raise Wrong(
                    f"a copy of `{dotted}` of the package is kept in this kernel (made from its code), and this sheet "
                    "asks you to work out what it computes yourself; restart the kernel without it"
                )
            if not hidden:
                note = task.judge(answer)
            elif task.hidden is None:
                raise ValueError(f"{task.label} has no hidden tests")
            else:
                note = task.hidden(answer, Hidden(self.sheet.name, key))
            settle()
            return note

        try:
            found = verdict(task, run)
        finally:
            _RUN.stop()
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
        return Verdict(task, "failed", str(e) if isinstance(e, Wrong) else _unreadable(e))
    return Verdict(task, "passed", note)


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


class Delegated(abc.ABC):
    """A student's function that lives in another process: the teacher's judge grades it through this.

    The judges of the tasks call the student's function through `call` (and play his bot through
    `guarded`); given a `Delegated` one, they ask it instead: it sends the inputs to the process
    that holds the student's code (a sandbox, ``grading/sandbox.py``) and returns the answer as
    plain data, or raises `NotAttempted` or `Wrong` as `call` would. Nothing of the student's runs
    in the judge's process.
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


# -- what a check trusts ------------------------------------------------------------------------


class _Run:
    """The task being checked: the package functions it forbids, and what the kernel held when it began."""

    def __init__(self) -> None:
        self.forbidden: tuple[str, ...] = ()
        self.snapshot: sound.Snapshot | None = None
        self.called = False

    def start(self, forbidden: tuple[str, ...]) -> None:
        for dotted in forbidden:  # imported now, so that the snapshot holds their modules
            resolve(dotted)
        self.forbidden, self.snapshot, self.called = forbidden, sound.Snapshot(), False

    def stop(self) -> None:
        self.forbidden, self.snapshot, self.called = (), None, False

    def after_call(self, name: str, replaced: bool = True) -> None:
        """Raise `Untrusted` if the student's `name` left a tracer, a thread or (`replaced`) a replaced object.

        Only inside a check of this kernel (`Checker`): the teacher's judge, whose process runs no
        code of the student's, calls the judges without one.
        """
        if self.snapshot is None:
            return
        self.called = True
        found = sound.quick_problems(timers=replaced) + (self.snapshot.changed() if self.snapshot and replaced else [])
        if found:
            raise Untrusted(f"after `{name}` ran, {found[0]}")


_RUN = _Run()


def settle() -> None:
    """Raise `Untrusted` unless the kernel can be trusted now (see `ra_course.exercises.sound`).

    A judge calls it after the student's function has returned for the last time and before it
    computes or loads what it compares with. (Only when the student's function was called: a stub
    costs no check.)
    """
    if not _RUN.called:
        return
    found = sound.problems() + (_RUN.snapshot.changed() if _RUN.snapshot else [])
    if found:
        raise Untrusted(found[0])


# -- helpers for judges ------------------------------------------------------------------------


def on_hidden_cases(judge: Callable[[Any, list[tuple[Any, ...]]], Any]) -> Callable[[Any, Hidden], str]:
    """Return the hidden-test judge of a task: its `judge` on the hidden cases (inputs; no answers needed)."""

    def hidden(f: Any, data: Hidden) -> str:
        return str(judge(f, [tuple(case) for case in data.cases]))

    return hidden


def call(function: Any, name: str, *args: Any) -> Any:
    """Return ``function(*args)`` rebuilt from Python's own types (`plain`); turn the stub and errors into messages.

    `name` is the function's name for messages. A function that raises `NotImplementedError`,
    or returns None or ``...``, is not attempted yet. Any other exception becomes `Wrong`,
    naming the exception and the line of the student's code where it was raised. The call may
    take `CALL_SECONDS`; the package functions that the task being checked forbids trip while it
    runs (see `ra_course.exercises.guards`). After the call, the kernel must be as it was (no
    tracer, thread or replaced function left behind: `Untrusted` otherwise).
    """
    if isinstance(function, Delegated):
        return plain(function.answer(name, args), f"`{name}`")
    if not callable(function):
        raise Wrong(f"pass the function `{name}` itself to the check (without calling it), not {function!r:.60}")
    try:
        with time_limit_for(CALL_SECONDS), student_code(_RUN.forbidden) as tripped:
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
    finally:
        _RUN.after_call(name)
    if result is None or result is Ellipsis:
        raise NotAttempted(f"`{name}` returns {result!r}; write its body and return the answer")
    return plain(result, f"`{name}`")


def guarded(function: Any, name: str) -> Player:
    """Return the student's bot `function` as a `Player` of one game, the forbidden package functions tripwires.

    A forbidden call raises `Wrong` (a game loop reports it as the bot's failure); the action is
    rebuilt from Python's own types (`plain`), and the kernel checked for tracers and threads after
    each call (the game loop compares the package's objects after each game: `after_game`). A
    `Delegated` bot plays from its own process.
    """
    if isinstance(function, Delegated):
        return function.policy(name)

    def run(*args: Any) -> Any:
        try:
            with student_code(_RUN.forbidden) as tripped:
                try:
                    result = function(*args)
                finally:
                    if tripped:
                        raise Wrong(f"`{name}` calls `{tripped[0]}` of the package, which this task does not allow")
        finally:
            _RUN.after_call(name, replaced=False)
        return plain(result, f"`{name}`")

    run.__name__ = name
    return Player(run)


def after_game(name: str) -> None:
    """Raise `Untrusted` if a game of the student's bot `name` replaced an object of Python's or of the package."""
    _RUN.after_call(name)


#: The seconds one call of a student's function may take in a check (the slowest reference: ~2 s).
CALL_SECONDS = 30.0


class _Forbidden(BaseException):
    """A forbidden package function was called (a BaseException, so that `call` sees it first)."""


# -- answers rebuilt from Python's own types -----------------------------------------------------

_ACTIONS: dict[type, tuple[str, ...]] = {
    Draw: (),
    CallRa: (),
    Done: (),
    Pass: (),
    Bid: ("sun",),
    UseGod: ("slot",),
    Reveal: ("tile",),
    Discard: ("tiles",),
}


def plain(value: Any, what: str = "the answer") -> Any:
    """Return `value` rebuilt from Python's own types, so that no code of the student's runs when it is compared.

    Numbers become an `int`, a `float` or a `Fraction` (a subclass gives its plain value; a bool
    stays a bool), strings a `str`, lists and tuples a tuple, dicts a dict, an engine action a
    new action of the same kind and fields, a `Tile` the tile. Anything else raises `Wrong`:
    an object that claims to equal everything is not an answer.

    >>> plain([1, 2.5, Fraction(1, 3)]), plain({"a": (True,)})
    ((1, 2.5, Fraction(1, 3)), {'a': (True,)})
    """
    kind = type(value)
    if kind is bool or kind is int or kind is float or kind is str or kind is Fraction:
        return value if kind is not Fraction else Fraction(value.numerator, value.denominator)
    if kind is Tile:
        return Tile(int.__int__(value))
    if kind in _ACTIONS:
        return kind(*(plain(getattr(value, field), what) for field in _ACTIONS[kind]))
    mro = kind.__mro__
    if int in mro and bool not in mro and Tile not in mro:
        return int.__int__(value)
    if float in mro:
        return float.__float__(value)
    if str in mro:
        return str.__str__(value)
    if tuple in mro or list in mro:
        items = tuple.__iter__(value) if tuple in mro else list.__iter__(value)
        return tuple(plain(v, what) for v in items)
    if dict in mro:
        return {plain(k, what): plain(v, what) for k, v in dict.items(value)}
    raise Wrong(
        f"{what} returned an object of type {kind.__name__!r}; an answer is built of int, float, Fraction, "
        "str, tuples, lists and dicts, or the engine's actions"
    )


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
    libraries = (f"{_ROOT}/ra_course", sys.prefix, sys.base_prefix, *getattr(site, "getsitepackages", list)())
    own = cells or [f for f in frames if not f.filename.replace("\\", "/").startswith(libraries)]
    if not own:
        return ""
    f = own[-1]
    code = f" `{f.line.strip()}`" if f.line else ""
    return f" (line {f.lineno}{code})"


def is_number(value: Any) -> bool:
    """Return whether `value` (rebuilt by `plain`) is an int, a float or a Fraction, not a bool."""
    kind = type(value)
    return kind is int or kind is float or kind is Fraction
