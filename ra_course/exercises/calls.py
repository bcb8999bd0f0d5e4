"""How a judge calls the student's function and plays his bot: time-limited, tripwires set, answers plain.

`call` and `guarded` are all a task's judge uses to reach the student's code. In the student's
kernel they call it there, inside the check running now (`ra_course.exercises.trust`); given a
`Delegated` function (the teacher's judge) they ask the process that holds it.
"""

from __future__ import annotations

import site
import sys
import traceback
from typing import Any

from ra_core.engine.timer import DecisionTimeout, time_limit_for

from . import trust
from .guards import student_code
from .remote import Delegated, Player
from .values import plain
from .verdicts import NotAttempted, Wrong, forbidden_call, raised, returns_nothing, timed_out

__all__ = ["CALL_SECONDS", "call", "guarded", "where"]

#: The seconds one call of a student's function may take in a check (the slowest reference: ~2 s).
CALL_SECONDS = 30.0
#: the folder holding ra_course
_ROOT = __file__.replace("\\", "/").rsplit("/", 3)[0]


class _Forbidden(BaseException):
    """A forbidden package function was called (a BaseException, so that `call` sees it first)."""


def _forbidden() -> tuple[str, ...]:
    run = trust.current()
    return run.forbidden if run is not None else ()


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
        with time_limit_for(CALL_SECONDS), student_code(_forbidden()) as tripped:
            try:
                result = function(*args)
            finally:
                if tripped:
                    raise _Forbidden(tripped[0])
    except _Forbidden as e:
        raise Wrong(forbidden_call(name, str(e))) from None
    except NotImplementedError:
        raise NotAttempted() from None
    except DecisionTimeout:
        raise Wrong(timed_out(name, CALL_SECONDS)) from None
    except (Exception, SystemExit) as e:  # the student's code failed: say where, without a traceback
        raise Wrong(raised(name, type(e).__name__, str(e), where(e))) from None
    finally:
        trust.after_call(name)
    if result is None or result is Ellipsis:
        raise NotAttempted(returns_nothing(name, result))
    return plain(result, f"`{name}`")


def guarded(function: Any, name: str) -> Player:
    """Return the student's bot `function` as a `Player` of one game, the forbidden package functions tripwires.

    A forbidden call raises `Wrong` (a game loop reports it as the bot's failure); the action is
    rebuilt from Python's own types (`plain`), and the kernel checked for tracers and threads after
    each call (the game loop compares the package's objects after each game: `trust.after_game`). A
    `Delegated` bot plays from its own process.
    """
    if isinstance(function, Delegated):
        return function.policy(name)

    def run(*args: Any) -> Any:
        try:
            with student_code(_forbidden()) as tripped:
                try:
                    result = function(*args)
                finally:
                    if tripped:
                        raise Wrong(forbidden_call(name, tripped[0]))
        finally:
            trust.after_call(name, replaced=False)
        return plain(result, f"`{name}`")

    run.__name__ = name
    return Player(run)


def where(error: BaseException) -> str:
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
