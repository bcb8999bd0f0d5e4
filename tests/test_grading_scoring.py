"""The check's own verdict decides a graded cell's points in autograde (grading/scoring.py)."""

from __future__ import annotations

import pytest

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("nbgrader", reason="nbgrader is not installed (pip install -e '.[grading]')")

from nbformat import NotebookNode  # noqa: E402
from nbformat.v4 import new_code_cell, new_notebook, new_output  # noqa: E402
from nbgrader.utils import determine_grade  # type: ignore[import-untyped]  # noqa: E402

from grading.scoring import OneVerdictPerCheck, autograde_steps  # noqa: E402


def _cell(*outputs: NotebookNode) -> NotebookNode:
    cell: NotebookNode = new_code_cell("grade(...)", outputs=list(outputs))
    cell.metadata["nbgrader"] = {"grade": True, "solution": False, "locked": True, "grade_id": "t", "points": 4}
    return cell


def _shown(text: str) -> NotebookNode:
    shown: NotebookNode = new_output("execute_result", data={"text/plain": text}, execution_count=1)
    return shown


def _failed() -> NotebookNode:
    failed: NotebookNode = new_output("error", ename="CheckFailed", evalue="not right yet", traceback=["not right yet"])
    return failed


def _points(cell: NotebookNode) -> float:
    """Return the points nbgrader gives `cell` after the step ran as autograde runs it (on the notebook)."""
    nb = new_notebook(cells=[cell])
    scored, _ = OneVerdictPerCheck()(nb, {})
    return float(determine_grade(scored.cells[0])[0])


def test_a_number_shown_by_the_students_function_before_a_failed_check_earns_nothing() -> None:
    spoofed = _cell(_shown("4"), _failed())
    assert determine_grade(spoofed)[0] == 4.0, "nbgrader alone reads the first number"
    assert _points(spoofed) == 0.0


def test_only_the_check_calls_own_result_counts() -> None:
    assert _points(_cell(_shown("4"), _shown("0"))) == 0.0  # not attempted yet, after a spoofed 4
    assert _points(_cell()) == 4.0  # a passed check shows no number
    assert _points(_cell(new_output("stream", name="stdout", text="✔ Task 1: correct."))) == 4.0
    assert _points(_cell(new_output("stream", name="stderr", text="warning"), _shown("4"))) == 0.0


def test_the_step_runs_right_after_the_notebook_is_executed() -> None:
    names = [step.__name__ for step in autograde_steps()]
    assert names.index("OneVerdictPerCheck") == names.index("Execute") + 1
    assert names.index("OneVerdictPerCheck") < names.index("SaveAutoGrades")
