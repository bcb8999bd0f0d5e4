"""Proof that a class graded with nbgrader cannot be gamed: every kind of cheat earns 0, the solutions 20.

Optional: skipped when nbgrader is not installed (``pip install -e '.[grading]'``; `make test`
installs it). As a teacher would, this test makes the course with ``tools/make_course.py`` (what
``make course`` runs: its ``nbgrader_config.py`` puts the judge in autograde), runs ``nbgrader
generate_assignment`` for each sheet (once for the session's grading tests:
tests/nbgrader_course.py), puts the submissions in ``submitted/`` and runs ``nbgrader autograde`` on
them: one student per kind of cheat (``tests/cheats.py`` describes each kind: each student tries
several attacks of his kind, in his answer cells and in cells he adds), a blank sheet, the
solutions, and a probe of the sandbox's walls. Two courses are graded at once: sheet 4's tournaments
in one, the other sheets in the other.

Each cheat must earn 0 on every task it aims at, and the solutions all 20 points of every sheet,
also when the gradebook is read again a few seconds after nbgrader has exited (a cheat leaves a
process behind to write full marks then). Sheet 4's Task 5 grades the solution on the hidden games
of the seed of ``grading/cases.py``, kept beforehand in the course's seed record (`SeedBook.keep`):
at a seed drawn when grading, the solution would miss the mark now and then. The probe must find
the gradebook, ``grading/``, the source sheets, the course folder and the network out of reach,
and its detached process gone.
Each attack is shown to be real: run with the teacher's rights, outside the sandbox, it reaches
what it aims at. The scan of the submissions (`grading.audit`) names every cheat that reaches into
the kernel or beyond it, and nothing in the solutions.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from grading.cases import CASES
from grading.seeds import SeedBook, record_key
from ra_course.exercises import reserve

from . import cheats
from .cheats import ADDED, CHEATS, CONCERNED, LEFT_BEHIND, REACHES_IN, S1, S2, S4, S5, SOURCES
from .nbgrader_course import copy
from .test_exercises_nbgrader import _nbgrader

pytest.importorskip("nbgrader", reason="nbgrader is not installed (pip install -e '.[grading]')")

ROOT = Path(__file__).resolve().parent.parent
#: nbgrader's assignment of each sheet, as `make course` names them
ASSIGNMENT = {stem: f"sheet{int(stem[:2])}" for stem in SOURCES}
#: the two courses graded at once: the sheets of each
COURSES = {"sheets": [s for s in SOURCES if s != S4], "bots": [S4]}
#: seconds the test waits after nbgrader has exited before it reads the gradebook again
AFTERWARDS = 6.0


@dataclasses.dataclass
class Graded:
    """What the autograding left: the course of each sheet, the points right after it and a while later."""

    course: dict[str, Path]
    now: dict[tuple[str, str], dict[str, float]]
    later: dict[tuple[str, str], dict[str, float]] = dataclasses.field(default_factory=dict)
    printed: dict[str, str] = dataclasses.field(default_factory=dict)


def _submission(release: Path, answers: dict[str, str], added: list[str]) -> dict[str, Any]:
    """Return the release `release` with `answers` in its answer cells and the `added` cells after its first."""
    nb: dict[str, Any] = json.loads(release.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        gid = cell["metadata"].get("nbgrader", {}).get("grade_id")
        if gid in answers:
            cell["source"] = answers[gid]
    blank: dict[str, Any] = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None}
    nb["cells"][1:1] = [{**blank, "source": code} for code in added]
    return nb


def _scores(course: Path, student: str, notebook: str) -> dict[str, float]:
    from nbgrader.api import Gradebook  # type: ignore[import-untyped]

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        submission = gb.find_submission_notebook(notebook, ASSIGNMENT[notebook], student)
        return {g.name.split("-")[1]: g.score for g in submission.grades if g.name.endswith("-check")}


def _students(course: Path, notebook: str) -> dict[str, dict[str, Any]]:
    """Return every student's submission of `notebook`: the cheats', a blank one, the probe's, the solutions."""
    release = course / "release" / ASSIGNMENT[notebook] / f"{notebook}.ipynb"
    out: dict[str, dict[str, Any]] = {"blank": _submission(release, {}, [])}
    for student, notebooks in CHEATS.items():
        if notebook in notebooks:
            out[student] = _submission(release, notebooks[notebook], ADDED.get(student, {}).get(notebook, []))
    for student, added in ADDED.items():
        if notebook in added and student not in out:
            out[student] = _submission(release, {}, added[notebook])
    if notebook == S1:
        out["outside"] = _submission(release, CHEATS["outside"][S1], [cheats.detached_writer(course / "gradebook.db")])
        out["walls"] = _submission(release, {}, [cheats.walls(course)])
    out["solution"] = json.loads(SOURCES[notebook].read_text(encoding="utf-8"))
    return out


def _prepare(course: Path, notebooks: list[str]) -> None:
    """Hand in every student's submission of `notebooks` to the generated `course`."""
    for notebook in notebooks:
        assignment = ASSIGNMENT[notebook]
        for student, nb in _students(course, notebook).items():
            folder = course / "submitted" / student / assignment
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{notebook}.ipynb").write_text(json.dumps(nb, indent=1), encoding="utf-8")


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory, generated_course: Path) -> Graded:
    """Grade every submission of every sheet (two courses at once), read the points, wait, and read them again.

    Each course is a copy of the session's course, as ``make course`` makes it, its sheets generated.
    """
    courses = {name: copy(generated_course, tmp_path_factory.mktemp(name) / "ra-course") for name in COURSES}
    # Sheet 4's Task 5 plays its hidden games at a seed drawn when grading: the solution, good but not far
    # above the mark, would miss it now and then (TEACHING.md). Its games are fixed beforehand in the course's
    # seed record (no sandbox shows it), at the seed of grading/cases.py; the cheats' seeds are drawn.
    task = record_key(f"solution/{ASSIGNMENT[S4]}", "bidder", "5")
    SeedBook(courses["bots"] / "hidden_seeds.json").keep(task, [CASES["bidder"]["5"]["seed"]])
    course_of = {notebook: courses[name] for name, notebooks in COURSES.items() for notebook in notebooks}
    result = Graded(course_of, {})
    queues = {name: [ASSIGNMENT[n] for n in notebooks] for name, notebooks in COURSES.items()}
    running: dict[str, subprocess.Popen[str]] = {}
    for name, course in courses.items():
        _prepare(course, COURSES[name])
        running[name] = _nbgrader("autograde", queues[name].pop(0), "--create", cwd=course)
    while running:  # each course grades its sheets one after another
        for name, process in list(running.items()):
            if process.poll() is None:
                continue
            out, _ = process.communicate()
            assert process.returncode == 0, out
            result.printed[name] = result.printed.get(name, "") + out
            del running[name]
            if queues[name]:
                running[name] = _nbgrader("autograde", queues[name].pop(0), "--create", cwd=courses[name])
        time.sleep(0.5)
    keys = [(s, n) for n in SOURCES for s in _students(course_of[n], n)]
    result.now = {(s, n): _scores(course_of[n], s, n) for s, n in keys}
    time.sleep(AFTERWARDS)  # what a process left behind would do now, after nbgrader exited
    result.later = {(s, n): _scores(course_of[n], s, n) for s, n in keys}
    return result


@pytest.mark.parametrize("notebook", list(SOURCES))
def test_the_solutions_earn_full_marks(graded: Graded, notebook: str) -> None:
    full = {key: 4.0 for key in "12345"}
    assert graded.now["solution", notebook] == full
    assert graded.later["solution", notebook] == full


def test_the_solutions_task_5_of_sheet_4_played_the_games_kept_beforehand(graded: Graded) -> None:
    """The record the judge read and wrote is the one the fixture wrote into: its other seeds were drawn there."""
    record = json.loads((graded.course[S4] / "hidden_seeds.json").read_text(encoding="utf-8"))
    who = f"solution/{ASSIGNMENT[S4]}"
    assert record[record_key(who, "bidder", "5")] == [CASES["bidder"]["5"]["seed"]]
    assert all(record[record_key(who, "bidder", task)][0] >= 2**32 for task in "1234")  # drawn when grading


@pytest.mark.parametrize(
    ("student", "notebook"), [(s, n) for s, notebooks in CONCERNED.items() for n in notebooks], ids=str
)
def test_a_cheat_earns_nothing_on_the_tasks_it_aims_at(graded: Graded, student: str, notebook: str) -> None:
    aimed = CONCERNED[student][notebook]
    for when in (graded.now, graded.later):  # also after nbgrader exited: nothing it left behind wrote
        scores = when[student, notebook]
        assert {key: scores[key] for key in aimed} == dict.fromkeys(aimed, 0.0), scores


def _printed(graded: Graded, student: str, notebook: str) -> str:
    path = graded.course[notebook] / "autograded" / student / ASSIGNMENT[notebook] / f"{notebook}.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "".join("".join(o.get("text", "")) for c in cells if c["cell_type"] == "code" for o in c["outputs"])


def test_student_code_cannot_reach_the_teachers_files_the_network_or_root(graded: Graded) -> None:
    printed = _printed(graded, "walls", S1)
    found = dict(re.findall(r"^(\w+) (OPEN|REFUSED)", printed, re.M))
    assert set(found) == {"gradebook", "course", "grading", "answers", "source", "write", "network", "root"}, printed
    assert set(found.values()) == {"REFUSED"}, printed
    uid = int(re.search(r"^uid (\d+)", printed, re.M).group(1))  # type: ignore[union-attr]
    assert uid != 0 and (os.geteuid() != 0 or uid == 65534), "as root, the student's code runs as nobody"
    assert not (ROOT / "ra_course" / "sandbox-was-here").exists()
    assert re.search(r"^left behind [1-9]", printed, re.M), "the detached process ran while the sandbox did"


def test_no_process_of_the_students_outlives_the_grading(graded: Graded) -> None:
    assert "walls" in {s for s, _ in graded.now}
    assert cheats.left_behind(LEFT_BEHIND) == []


def test_the_feedback_shows_the_judges_verdicts(graded: Graded) -> None:
    """The solutions' check cells say ✔ twice (visible, hidden), the summary the judge's points."""
    printed = _printed(graded, "solution", S2)
    assert printed.count("✔ Task") == 2 * 5 + 5, printed  # each check twice, then the summary's lines
    assert "20 of 20 points (the teacher's grading)" in printed
    assert "0 of 20 points (the teacher's grading)" in _printed(graded, "blank", S2)


# -- each attack is real: with the teacher's rights, outside the sandbox, it reaches what it aims at --


def test_the_process_left_behind_writes_full_marks_where_it_can_reach_the_gradebook(
    graded: Graded, tmp_path: Path
) -> None:
    gradebook = tmp_path / "gradebook.db"
    shutil.copy(graded.course[S1] / "gradebook.db", gradebook)
    cell = cheats.detached_writer(gradebook)
    script = re.search(r"open\('/tmp/after_grading.py', 'w'\).write\((.*)\)\n", cell).group(1)  # type: ignore[union-attr]
    subprocess.run([sys.executable, "-c", eval(script)], check=True, timeout=60)  # a literal of this test
    with sqlite3.connect(gradebook) as db:
        assert {row[0] for row in db.execute("select auto_score from grade")} == {4.0}


def test_the_answer_file_is_readable_through_the_package_outside_the_sandbox() -> None:
    namespace: dict[str, Any] = {}
    exec(cheats.ANSWER_FILE, namespace)  # a fixed text of this test, run with the teacher's rights
    assert len(namespace["_KNOWN"]) > 20, "the attack finds the teacher's hashed answers where it can read them"


def test_the_walls_stand_only_in_the_sandbox(graded: Graded) -> None:
    code = cheats.walls(graded.course[S1]).split("\n!")[0]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    found = dict(re.findall(r"^(\w+) (OPEN|REFUSED)", done.stdout, re.M))
    assert {found[what] for what in ("gradebook", "course", "grading", "answers", "source")} == {"OPEN"}
    (ROOT / "ra_course" / "sandbox-was-here").unlink(missing_ok=True)


# -- the scan, and the fitted answers ---------------------------------------------------------------


def test_the_scan_names_every_cheat_that_reaches_into_the_kernel(graded: Graded) -> None:
    from grading.audit import audit

    for student in REACHES_IN:
        found = audit(
            sorted(graded.course[n] / "submitted" / student / ASSIGNMENT[n] / f"{n}.ipynb" for n in CONCERNED[student])
        )
        assert found, f"the scan finds nothing in {student}'s submission"
    solutions = [graded.course[n] / "submitted" / "solution" / ASSIGNMENT[n] / f"{n}.ipynb" for n in SOURCES]
    assert audit(solutions) == []


def test_the_fitted_answers_pass_the_visible_checks_but_not_the_hidden_ones() -> None:
    """The 'fitted' student passes what he sees: only the hidden tests (autograde) take his points."""
    from ra_course.exercises.checking import Checker

    for key in ("2", "3"):
        namespace: dict[str, Any] = {"Fraction": Fraction}
        exec(CHEATS["fitted"][S5][f"task-{key}-answer"], namespace)  # a fixed text of this test
        Checker(reserve.SHEET)(key, namespace[reserve.SHEET.task(key).answer])


def test_every_sheet_has_cheats_and_both_courses_grade(graded: Graded) -> None:
    assert {n for s in CONCERNED.values() for n in s} == set(SOURCES)
    assert graded.course[S2] != graded.course[S4] and graded.course[S5] == graded.course[S1]
