"""Auto-checked exercises: the checks behind the notebooks in ``exercises/``.

Each exercise notebook opens its sheet in its first code cell and checks each task after it:

>>> from ra_course.exercises import start
>>> check = start("bag")
Exercise sheet 3 · Expected value in the bag: 5 tasks, 20 points. Run the check cell after each task.
>>> check("1", None)
· Task 1 · The next two tiles: not attempted yet: ... is still None; ...

These checks are the student's feedback: they decide no grade. The teacher's judge
(``grading/judge.py``) runs the same tasks' judges outside the student's kernel, on his functions
called in a sandbox, and its verdicts alone are the points. What the checks of one notebook
session remember (failures for the hint level, results for `summary`) is kept in `SESSION`.
The package holds no reference solution and no expected answer beyond hashes of the visible
examples' answers: the hidden tests' cases and answers live in the teacher's ``grading/``
folder, which is never installed.

The sheets (`SHEETS`) are `auctions`, `ra_auction`, `bag`, `bidder`, `reserve` and `multiunit`;
`ra_course.exercises.checking` explains how a check passes, fails with a hint, or says "not attempted yet". The standard
library is all they need, like the rest of `ra_core`.
"""

from __future__ import annotations

import importlib
from typing import Any

from .checking import NOT_ATTEMPTED, Checker, CheckFailed, Sheet, Task, answer_hash
from .sound import guard_cells

__all__ = [
    "NOT_ATTEMPTED",
    "SESSION",
    "SHEETS",
    "CheckFailed",
    "Checker",
    "Sheet",
    "Task",
    "answer_hash",
    "sheet",
    "start",
    "summary",
]

#: sheet name -> module defining its `SHEET`, in the order of the exercise notebooks
SHEETS = {
    "auctions": "auctions",
    "ra_auction": "ra_auction",
    "bag": "bag",
    "bidder": "bidder",
    "reserve": "reserve",
    "multiunit": "multiunit",
}
#: what the checks of this notebook session remember, per sheet: failures per task, last results
SESSION: dict[str, dict[str, Any]] = {}
guard_cells()  # in a notebook: no cell of the student's can keep a graded cell from running as written


def sheet(name: str) -> Sheet:
    """Return the exercise sheet called `name` (one of `SHEETS`)."""
    if name not in SHEETS:
        raise KeyError(f"no exercise sheet {name!r}; the sheets are {', '.join(SHEETS)}")
    found: Sheet = importlib.import_module(f"{__name__}.{SHEETS[name]}").SHEET
    return found


def start(name: str) -> Checker:
    """Return a `Checker` for the sheet `name` and say what it holds: call it as ``check("1", answer)``."""
    s = sheet(name)
    print(f"{s.title}: {len(s.tasks)} tasks, {s.points} points. Run the check cell after each task.")
    return Checker(s, SESSION)


def summary(name: str) -> None:
    """Print the state of every task of the sheet `name` in this session, and the points so far."""
    Checker(sheet(name), SESSION).summary()
