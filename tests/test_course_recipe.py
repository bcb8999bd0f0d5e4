"""The nbgrader course recipe of exercises/TEACHING.md, run exactly as written.

The page marks each code block of the recipe with an HTML comment (``<!-- recipe: NAME -->``,
invisible to a reader); this test reads the blocks from the page and runs them, line for line,
in bash, as a teacher and three students would:

* ``setup`` in the clone, for a teacher whose home folder is a temporary one: ``make course``
  makes ``~/ra-course``;
* ``roster`` is written to ``students.csv`` and ``import`` reads it;
* ``release`` generates and releases sheet 1; each student of the roster, in a home folder of
  his own, runs the fetch and submit lines of ``student`` (alice hands in the solutions, bob the
  blank sheet, carol the first three tasks); ``grade`` collects, autogrades, makes and releases
  the feedback and exports the grades; each student fetches his feedback;
* ``platform`` grades sheet 2 from a learning platform's zip file of the three students' files.

The exchange names a submission after the account that submits it; one machine account plays the
three students here, each process told its user name by a ``sitecustomize`` module (nbgrader asks
``pwd.getpwuid(os.getuid())``), and the teacher's collect told not to check the folders' owners
(tests/test_exchange_students.py runs the exchange with real accounts and hostile students). The
doc's student lines name the exchange of a teacher called ``teacher`` (``/home/teacher/ra-course``):
they run with this test's course folder in its place, and must be the very lines ``make course``
printed. Then the points must be what each student handed in, every feedback file free of hidden
tests, and every autograde's checksum warnings the five the page explains. Skipped without nbgrader
or without the clone's ``.venv`` (``make test`` has both; under CI a missing one fails).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from .student_files import files_under, leaks

pytest.importorskip("nbgrader", reason="nbgrader is not installed (pip install -e '.[grading]')")

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "exercises" / "TEACHING.md"
DOC_HOME = "/home/teacher"  # the teacher's home folder in the page's student commands
BLOCK = re.compile(r"<!-- recipe: (\w+) -->\n```\w*\n(.*?)```", re.S)
SHEET1 = "01_auctions_from_first_principles.ipynb"
SHEET2 = "02_ras_auction.ipynb"
#: the tasks each student answers with the solution (the others stay as released)
ANSWERS = {"alice": ("1", "2", "3", "4", "5"), "bob": (), "carol": ("1", "2", "3")}
#: what each student's file is called in the learning platform's zip (id first, as make course expects)
#: the learning platform's zip of sheet 2, as Moodle and Canvas name its files: (name, student, tasks answered)
#: bob and carol handed in twice: the later copy (Canvas's -1, a browser's (1)) counts; dave is on no roster
PLATFORM_FILES = [
    (f"Alice Archer_1001_assignsubmission_file_{SHEET2}", "alice", ("1", "2")),  # Moodle
    (f"bakerbob_2002_30001_{SHEET2}", "bob", ("1", "2")),  # Canvas: the first upload...
    (f"bakerbob_LATE_2002_30002_{SHEET2.replace('.ipynb', '-1.ipynb')}", "bob", ()),  # ...then a blank one, late
    (f"Carol Cooper_1003_assignsubmission_file/{SHEET2}", "carol", ()),  # Moodle, a folder per student
    (f"Carol Cooper_1003_assignsubmission_file/{SHEET2.replace('.ipynb', '(1).ipynb')}", "carol", ("1", "2")),
    (f"dave_{SHEET2}", "dave", ("1", "2", "3")),
]
#: what each student of the roster earns on sheet 2
PLATFORM_POINTS = {"alice": ("1", "2"), "bob": (), "carol": ("1", "2")}
POINTS = 4.0  # per task
CHECKSUM = re.compile(r"Attribute 'checksum' for cell (\S+) has changed")
MARKS = {"### BEGIN SOLUTION", "### END SOLUTION"}
VERBS = ("fetch_assignment", "submit", "fetch_feedback")
ONE_ACCOUNT = "c = get_config()\nc.ExchangeCollect.check_owner = False\n"

# Each process of a student answers to the student's user name (the exchange asks the OS who submits).
SITECUSTOMIZE = """\
import os
import pwd

_name = os.environ["RA_TEST_STUDENT"]
_getpwuid = pwd.getpwuid


def _as_student(uid):
    entry = _getpwuid(uid)
    return pwd.struct_passwd((_name, *entry[1:])) if uid == os.getuid() else entry


pwd.getpwuid = _as_student
"""


def recipe() -> dict[str, str]:
    """Return the marked code blocks of the page, by name."""
    blocks = dict(BLOCK.findall(DOC.read_text(encoding="utf-8")))
    expected = {"setup", "roster", "import", "release", "student", "grade", "platform"}
    assert set(blocks) == expected, f"the page's recipe blocks are {sorted(blocks)}, not {sorted(expected)}"
    return blocks


@dataclass
class Run:
    """What running the recipe left behind."""

    teacher: Path
    course: Path
    students: dict[str, Path]
    printed: dict[str, str] = field(default_factory=dict)  # block name -> what it printed
    seconds: dict[str, float] = field(default_factory=dict)


def _venv() -> None:
    if not (ROOT / ".venv" / "bin" / "activate").is_file() or not list((ROOT / ".venv").glob(".installed-*")):
        why = "the recipe runs `make course` and `source .venv/bin/activate` in the clone: run `make setup` first"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)


def _bash(script: str, cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(
        ["bash", "-e", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, f"in {cwd}:\n{script}\nfailed ({done.returncode}):\n{out[-4000:]}"
    return out


def _answer(notebook: Path, tasks: tuple[str, ...], source: Path) -> None:
    """Write the solutions of `tasks` (from the source sheet) into the answer cells of `notebook`."""
    solutions = {
        cell["metadata"]["nbgrader"]["grade_id"]: "".join(cell["source"])
        for cell in json.loads(source.read_text(encoding="utf-8"))["cells"]
        if cell["metadata"].get("nbgrader", {}).get("solution")
    }
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        grade_id = cell["metadata"].get("nbgrader", {}).get("grade_id", "")
        if grade_id in {f"task-{t}-answer" for t in tasks}:
            lines = solutions[grade_id].split("\n")
            cell["source"] = "\n".join(line for line in lines if line.strip() not in MARKS)
    notebook.write_text(json.dumps(nb, indent=1), encoding="utf-8")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """Run the whole recipe once: the course, sheet 1 through the exchange, sheet 2 from a zip."""
    _venv()
    blocks = recipe()
    tmp = tmp_path_factory.mktemp("recipe")
    teacher = tmp / "teacher"
    teacher.mkdir()
    course = teacher / "ra-course"
    # A fresh terminal: the clone's environment is not on the PATH until the setup block activates it.
    venv = str(Path(sys.executable).parent)
    fresh = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep) if p != venv)
    env = {**os.environ, "HOME": str(teacher), "PATH": fresh}
    for name in ("JUPYTER_CONFIG_DIR", "VIRTUAL_ENV", "COURSE"):  # COURSE would move `make course`
        env.pop(name, None)
    result = Run(teacher, course, {})
    # One account plays the three students, so every submission's folder is that account's: the
    # course's collect, which takes a folder only from the account its name gives, is told so in the
    # teacher's own settings (~/.jupyter). tests/test_exchange_students.py plays them with real accounts.
    (teacher / ".jupyter").mkdir()
    (teacher / ".jupyter" / "nbgrader_config.py").write_text(ONE_ACCOUNT, encoding="utf-8")

    def teach(name: str, cwd: Path = course) -> None:
        started = time.monotonic()
        result.printed[name] = _bash(blocks[name], cwd, env)
        result.seconds[name] = time.monotonic() - started

    teach("setup", ROOT)
    env["PATH"] = f"{venv}{os.pathsep}{fresh}"  # the same terminal afterwards: activated
    (course / "students.csv").write_text(blocks["roster"], encoding="utf-8")
    teach("import")
    teach("release")

    ids = [line.split(",")[0] for line in blocks["roster"].strip().split("\n")[1:]]
    assert ids == list(ANSWERS), f"the page's roster is {ids}; this test plays {list(ANSWERS)}"
    custom = tmp / "as-student"
    custom.mkdir()
    (custom / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    student_lines = blocks["student"].replace(f"{DOC_HOME}/ra-course", str(course)).strip().split("\n")
    fetch, submit, feedback = (next(line for line in student_lines if f" {verb} " in line) for verb in VERBS)
    student_env = {}
    for student in ids:
        result.students[student] = home = tmp / student
        home.mkdir()
        student_env[student] = {**env, "HOME": str(home), "RA_TEST_STUDENT": student, "PYTHONPATH": str(custom)}

    def work(student: str) -> None:
        home = result.students[student]
        _bash(fetch, home, student_env[student])
        _answer(home / "sheet1" / SHEET1, ANSWERS[student], course / "source" / "sheet1" / SHEET1)
        _bash(submit, home, student_env[student])

    with ThreadPoolExecutor(len(ids)) as pool:  # the students work at the same time
        list(pool.map(work, ids))
    teach("grade")
    with ThreadPoolExecutor(len(ids)) as pool:
        list(pool.map(lambda s: _bash(feedback, result.students[s], student_env[s]), ids))

    downloads = teacher / "Downloads"
    downloads.mkdir()
    with zipfile.ZipFile(downloads / "sheet2-submissions.zip", "w") as archive:
        release = json.loads((ROOT / "exercises" / "release" / SHEET2).read_text(encoding="utf-8"))
        for name, _, tasks in PLATFORM_FILES:
            path = tmp / "platform" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(release, indent=1), encoding="utf-8")
            _answer(path, tasks, course / "source" / "sheet2" / SHEET2)
            archive.write(path, name)
    teach("platform")

    # Sheets 3 to 5, for the feedback's sake: alice's answers to sheets 3 and 5 (so that the hidden
    # tests run and print), a blank sheet 4 (its tournaments would take a minute).
    for n in (3, 4, 5):
        (release,) = (ROOT / "exercises" / "release").glob(f"0{n}_*.ipynb")
        folder = course / "submitted" / "alice" / f"sheet{n}"
        folder.mkdir(parents=True)
        shutil.copy(release, folder / release.name)
        if n != 4:
            _answer(folder / release.name, ANSWERS["alice"], course / "source" / f"sheet{n}" / release.name)
    started = time.monotonic()
    others = '"sheet[345]"'
    result.printed["others"] = _bash(
        f"nbgrader generate_assignment {others}\nnbgrader autograde {others}\nnbgrader generate_feedback {others}",
        course,
        env,
    )
    result.seconds["others"] = time.monotonic() - started
    print({name: round(seconds, 1) for name, seconds in result.seconds.items()})
    return result


def _scores(course: Path, assignment: str, notebook: str) -> dict[str, dict[str, float]]:
    from nbgrader.api import Gradebook  # type: ignore[import-untyped]

    scores = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for student in ANSWERS:
            submission = gb.find_submission_notebook(notebook.removesuffix(".ipynb"), assignment, student)
            scores[student] = {g.name.split("-")[1]: g.score for g in submission.grades if g.name.endswith("-check")}
    return scores


def test_make_course_prints_the_students_lines_of_the_page(run: Run) -> None:
    """The lines `make course` prints for students are the page's, with the course's own folder."""
    printed = [line.strip() for line in run.printed["setup"].splitlines() if line.startswith("    nbgrader ")]
    page = recipe()["student"].replace(f"{DOC_HOME}/ra-course", str(run.course)).strip().split("\n")
    assert printed == [line.strip() for line in page]
    assert [line.split()[1] for line in printed] == list(VERBS)


def test_the_course_folder_is_outside_the_clone_and_closed_to_students(run: Run) -> None:
    """Students may pass through the course folder to the exchange; the rest is the teacher's alone."""
    course = run.course
    assert ROOT not in course.parents
    mode = {p.name: stat.S_IMODE(p.stat().st_mode) for p in course.iterdir()}
    assert stat.S_IMODE(course.stat().st_mode) == 0o711
    assert mode["exchange"] == 0o1777  # writable by all, as nbgrader wants it, and sticky
    for name in ("source", "release", "submitted", "autograded", "feedback", "downloaded"):
        assert mode[name] == 0o700, name
    for name in ("gradebook.db", "nbgrader_config.py", ".nbgrader.log"):
        assert mode[name] == 0o600, name
    sheets = sorted((ROOT / "exercises" / "source").glob("0[1-9]_*.ipynb"))
    assert sorted(p.name for p in (course / "source").iterdir()) == [f"sheet{int(p.name[:2])}" for p in sheets]
    config = (course / "nbgrader_config.py").read_text(encoding="utf-8")
    assert "c.CourseDirectory.course_id = 'ra-course'" in config
    assert f"c.Exchange.root = {str(course / 'exchange')!r}" in config
    assert "c.Execute.timeout = 300" in config
    assert "ClearHiddenTests" in config
    assert not (ROOT / "gradebook.db").exists() and not (ROOT / "submitted").exists()


def test_points_through_the_exchange_are_what_each_student_handed_in(run: Run) -> None:
    """Sheet 1: the solutions earn 20, the blank sheet 0, three tasks done 12 (hidden tests included)."""
    scores = _scores(run.course, "sheet1", SHEET1)
    assert scores == {s: {t: POINTS if t in done else 0.0 for t in "12345"} for s, done in ANSWERS.items()}
    grades = (run.course / "grades.csv").read_text(encoding="utf-8")
    assert all(student in grades for student in ANSWERS)


def test_points_through_a_platform_zip_are_what_each_student_handed_in(run: Run) -> None:
    """Sheet 2 from Moodle's and Canvas's zip: zip_collect finds each student of the roster by his file's name.

    Of two files of one student, the later copy counts; a file of nobody on the roster is skipped
    with a warning that names it, not graded as a new student.
    """
    scores = _scores(run.course, "sheet2", SHEET2)
    assert scores == {s: {t: POINTS if t in done else 0.0 for t in "12345"} for s, done in PLATFORM_POINTS.items()}
    printed = run.printed["platform"]
    assert f"Skipped {run.course}/downloaded/sheet2/extracted/sheet2-submissions/dave_{SHEET2}" in printed, printed
    assert "bob handed in" in printed and "carol handed in" in printed
    assert sorted(p.name for p in (run.course / "submitted").iterdir()) == ["alice", "bob", "carol"]


def test_a_file_zip_collect_could_not_place_is_recorded_and_grades_csv_has_notes(run: Run) -> None:
    """dave's file is recorded for the notes of grades.csv, which ``nbgrader export`` writes with a column note."""
    skipped = json.loads((run.course / "downloaded" / "sheet2" / "skipped.json").read_text(encoding="utf-8"))
    assert list(skipped) == [f"sheet2-submissions/dave_{SHEET2}"]
    grades = (run.course / "grades.csv").read_text(encoding="utf-8").split("\n")
    assert grades[0].endswith(",note") and all(row.endswith(",") for row in grades[1:] if row), grades


def test_the_scan_runs_in_the_course_folder_on_nbgraders_folders(run: Run) -> None:
    """``python -m grading.audit sheet1``, as the page says, reads submitted/<student>/sheet1/ and finds nothing."""
    assert "nothing found in 3 notebooks" in run.printed["grade"], run.printed["grade"][-2000:]


def test_every_student_fetched_feedback(run: Run) -> None:
    for student, home in run.students.items():
        fetched = list((home / "sheet1" / "feedback").rglob("*.html"))
        assert [p.name for p in fetched] == [SHEET1.replace(".ipynb", ".html")], student
        assert (run.course / "feedback" / student / "sheet2" / SHEET2.replace(".ipynb", ".html")).is_file()


def test_no_feedback_holds_a_hidden_test(run: Run) -> None:
    """The feedback of the sheets graded here, in the course, the exchange and students' folders, holds no hidden test.

    The autograded notebooks they are made from do hold the hidden tests (nbgrader puts them back
    to run them): the search finds them there, so it would find them in the feedback too.
    """
    assert leaks(files_under(run.course / "autograded"), solutions=False)
    made = sorted(p.relative_to(run.course / "feedback").as_posix() for p in (run.course / "feedback").rglob("*.html"))
    graded = sorted((ROOT / "exercises" / "release").glob("0[1-5]_*.ipynb"))  # the sheets this recipe grades
    wanted = [f"alice/sheet{int(p.name[:2])}/{p.stem}.html" for p in graded]
    assert [m for m in made if m.startswith("alice/")] == wanted
    for folder in (run.course / "feedback", run.course / "exchange", *run.students.values()):
        assert leaks(files_under(folder), solutions=False) == [], folder


def test_each_autograde_prints_the_five_checksum_warnings_the_page_explains(run: Run) -> None:
    """One warning per check cell of each submission (jupyter/nbgrader#1961), and none for another cell."""
    for block, submissions in (("grade", 3), ("platform", 3), ("others", 3)):
        cells = CHECKSUM.findall(run.printed[block])
        assert sorted(cells) == sorted(f"task-{t}-check" for t in "12345" for _ in range(submissions)), block
    assert "five warnings" in DOC.read_text(encoding="utf-8")


def test_the_roster_names_the_students(run: Run) -> None:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{run.course / 'gradebook.db'}") as gb:
        names = {s.id: s.first_name for s in gb.students}
    assert names == {"alice": "Alice", "bob": "Bob", "carol": "Carol"}


def test_the_hidden_tests_would_be_found_in_html(run: Run, tmp_path: Path) -> None:
    """An autograded sheet exported to HTML without the course's ClearHiddenTests step leaks: the search sees it."""
    notebook = run.course / "autograded" / "bob" / "sheet1" / SHEET1
    shutil.copy(notebook, tmp_path / SHEET1)
    subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", str(tmp_path / SHEET1)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert any("a hidden test" in line for line in leaks(files_under(tmp_path), solutions=False))
