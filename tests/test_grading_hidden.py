"""The teacher's judge gives nothing back of what it sent a submission's code, and holds it to a time budget.

Attacks, each earning nothing: a student's function keeps the hidden inputs it is called with (in a
global, in a file of the scratch folder) and a cell after the check prints them, or it raises an
exception whose text (or whose type's name) is the hidden input, so that the feedback would show
the teacher's cases; a notebook whose cells each stay under the cell's time takes the judge's
time without end by many such cells (and restarts replay them).
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from grading import cases, sandbox
from grading.judge import Options, Session, judge_task
from ra_course.exercises.checking import Sheet, Task, call, on_hidden_cases

SECRET = "teacher-endgame-7713"


def _echo(f: Any, cases: list[tuple[Any, ...]]) -> str:
    for (case,) in cases:
        if call(f, "echo", case) != len(case):
            raise AssertionError("wrong length")
    return "fine."


TASK = Task("1", "Echo", 1, "echo", lambda f: _echo(f, [("visible",)]), ("a", "b"), hidden=on_hidden_cases(_echo))
SHEET = Sheet("demo", "Demo", (TASK,))

KEEPER = f"""\
_kept = []

def echo(text):
    _kept.append(text)
    with open("/tmp/kept.txt", "a") as f:
        f.write(text + "\\n")
    if text == {SECRET!r}:
        raise type(text, (Exception,), {{}})(text)
    return len(text)
"""
LATER = """\
import os
print(_kept, open("/tmp/kept.txt").read() if os.path.exists("/tmp/kept.txt") else "")
raise ValueError(repr(_kept))
"""


def _session(**options: Any) -> Session:
    why = sandbox.problem()
    if why:
        pytest.fail(why) if os.environ.get("CI") else pytest.skip(why)
    return Session((), Options(**options))


def test_hidden_inputs_kept_by_the_students_code_never_reach_a_later_cell_or_the_verdict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(cases.CASES, "demo", {"1": [[SECRET]]})
    session = _session()
    try:
        session.run_cell(KEEPER)
        result = judge_task(TASK, "demo", session, 60)
        assert result.visible.passed and result.hidden is not None and not result.hidden.passed
        said = result.hidden.message()
        assert SECRET not in said and "hidden case" in said, said
        later = session.run_cell(LATER)
        assert SECRET not in repr(later), later  # the process that saw it is gone, with its scratch folder
        assert "visible" not in later["stdout"]  # the cells ran again in a new process: no check has called it there
    finally:
        session.close()


def test_a_notebook_is_held_to_its_time_budget_restarts_included() -> None:
    session = _session(notebook_seconds=3.0, cell_seconds=2.5)
    try:
        first = session.run_cell("import time\ntime.sleep(1.5)")
        assert first["error"] is None
        second = session.run_cell("time.sleep(1.5)")
        third = session.run_cell("print('never')")
    finally:
        session.close()
    assert second["error"] is not None or third["error"] is not None
    assert "used up the 3 seconds" in third["error"]["evalue"]
