"""nbgrader's autograde with the judge (grading/scoring.py): the check cells' points are the judge's verdicts.

The judge's step takes the place of nbgrader's ``Execute``: no kernel runs the submission, its
cells run in a sandbox, and each check cell's outputs are written from the judge's verdict, so
that nbgrader's own scoring (`determine_grade`) reads the judge's points and nothing the student's
code showed. Without a sandbox the step refuses, unless the teacher asks plainly.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

import pytest

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("nbgrader", reason="nbgrader is not installed (pip install -e '.[grading]')")

from nbgrader.utils import determine_grade  # type: ignore[import-untyped]  # noqa: E402

from grading import sandbox, scoring  # noqa: E402
from grading.scoring import Judge, autograde_steps  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHEET5 = "05_reserve_prices_and_the_optimal_auction"


def _submission(answers: dict[str, str]) -> Any:
    """Return sheet 5 as nbgrader's autograde has it: the release, `answers` in its cells, hidden tests back in."""
    source = json.loads((ROOT / "exercises" / "source" / f"{SHEET5}.ipynb").read_text(encoding="utf-8"))
    release = json.loads((ROOT / "exercises" / "release" / f"{SHEET5}.ipynb").read_text(encoding="utf-8"))
    for cell, locked in zip(release["cells"], source["cells"], strict=True):
        meta = cell["metadata"].get("nbgrader", {})
        if meta.get("grade"):
            cell["source"] = locked["source"]  # nbgrader's OverwriteCells: the teacher's cell, hidden test and all
        if meta.get("grade_id") in answers:
            cell["source"] = answers[meta["grade_id"]]
    return nbformat.from_dict(release)


def _solution(key: str) -> str:
    source = json.loads((ROOT / "exercises" / "source" / f"{SHEET5}.ipynb").read_text(encoding="utf-8"))
    (cell,) = [c for c in source["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == f"task-{key}-answer"]
    return "\n".join(line for line in "".join(cell["source"]).split("\n") if "### " not in line)


def _points(nb: Any) -> dict[str, float]:
    grades = {}
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("grade"):
            grades[meta["grade_id"].split("-")[1]] = float(determine_grade(cell)[0])
    return grades


def test_the_judge_takes_the_place_of_the_kernel() -> None:
    names = [step.__name__ for step in autograde_steps()]
    assert "Execute" not in names
    assert names.index("Judge") < names.index("SaveAutoGrades")


def test_without_a_sandbox_autograde_refuses_in_one_sentence_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """bubblewrap is missing: autograde stops at once with one sentence (an Exception of a step would make nbgrader
    log a traceback per submission), and removes the folder it began, so that the next run grades the submission."""
    monkeypatch.setattr(scoring, "_no_sandbox", lambda: "bubblewrap (`bwrap`) is not installed")
    began = tmp_path / "autograded" / "alice" / "sheet5"
    began.mkdir(parents=True)
    resources = {"nbgrader": {"notebook": SHEET5, "student": "alice", "assignment": "sheet5"}}
    step = Judge()
    step.log.propagate = True
    with caplog.at_level(logging.ERROR), pytest.raises(SystemExit):
        step.preprocess(_submission({}), {**resources, "metadata": {"path": str(began)}})
    (line,) = [r.getMessage() for r in caplog.records]
    assert "refuses to run students' code without a sandbox" in line and "\n" not in line
    assert "bwrap" in line and "--Judge.unsafe_without_sandbox=True" in line
    assert not began.exists() and began.parent.exists()


def test_the_teacher_may_grade_without_a_sandbox_when_he_says_so(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(scoring, "_no_sandbox", lambda: "bubblewrap (`bwrap`) is not installed")
    step = Judge(unsafe_without_sandbox=True)
    step.log.propagate = True
    with caplog.at_level(logging.WARNING):
        nb, _ = step.preprocess(_submission({"task-1-answer": _solution("1")}), {"nbgrader": {"notebook": SHEET5}})
    assert _points(nb) == {"1": 4.0, "2": 0.0, "3": 0.0, "4": 0.0, "5": 0.0}
    assert "WITHOUT A SANDBOX" in caplog.text


def test_nbgrader_reads_the_judges_points_and_nothing_the_students_code_shows() -> None:
    why = sandbox.problem()
    if why:
        pytest.fail(why) if os.environ.get("CI") else pytest.skip(why)
    answers = {
        "task-1-answer": _solution("1"),
        "task-2-answer": "import sys\n\ndef optimal_reserve(F, f):\n    sys.displayhook(4)\n    return 0.5",
        "task-3-answer": _solution("3"),
        "task-4-answer": "print(4)\nsimulate_revenue = lambda n, r, auctions, rng: 4",
    }
    nb, _ = Judge().preprocess(_submission(answers), {"nbgrader": {"notebook": SHEET5}})
    assert _points(nb) == {"1": 4.0, "2": 0.0, "3": 4.0, "4": 0.0, "5": 0.0}
    summary = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    assert "8 of 20 points (the teacher's grading)" in summary
