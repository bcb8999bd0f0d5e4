"""Make a ready nbgrader course folder for the five exercise sheets, outside the repository.

    python tools/make_course.py ~/ra-course [--id ra-course]      (or: make course COURSE=~/ra-course)

The folder is what nbgrader calls the course directory: the teacher runs every nbgrader command
in it (exercises/TEACHING.md, "A course with nbgrader", has the whole recipe). It holds

* ``nbgrader_config.py``: the course id; the exchange, a folder inside the course folder (nbgrader's
  own default, ``/srv/nbgrader/exchange``, can only be made by root); a cell time limit of 300 s
  (sheet 4 plays tournaments); feedback without the hidden tests (nbgrader copies them into the
  feedback by design, jupyter/nbgrader#917: its own ``ClearHiddenTests`` step is added to
  ``generate_feedback``); the judge in autograde (``grading/scoring.py``: students' code runs in a
  sandbox, and the points are the judge's verdicts); whose file is whose in a learning platform's
  download, for ``zip_collect`` (``grading/platforms.py``);
* ``source/sheet1`` .. ``source/sheet5``: the source sheets (solutions and hidden tests);
* ``exchange/``: where released sheets wait for students and their submissions for the teacher
  (nbgrader's file exchange: one account per student on this machine), its folders made with
  the modes of ``grading.exchange.MODES``, and collected and fed back by ``grading/exchange.py``;
* ``gradebook.db``, an empty gradebook (nbgrader's database);
* ``grading``, a link to the clone's ``grading/`` folder, so that the teacher's commands beside
  nbgrader's run in the course folder too (``python -m grading.audit sheet1``).

On a machine shared with students, only the exchange may be open to them: the course folder is
made passable but not listable (``rwx--x--x``), the exchange writable by all (as nbgrader wants
it) but sticky (nobody removes or renames another's entry), its inbound and feedback folders not
listable, and everything else (sources, submissions, gradebook, log) readable by the teacher alone.
The tool prints the commands the students type, with the exchange's path filled in.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "exercises" / "source"
COURSE_ID = "ra-course"
#: folders of the course that only the teacher may read (nbgrader makes them on first use otherwise)
PRIVATE = ("source", "release", "submitted", "autograded", "feedback", "downloaded")
CONFIG = '''\
"""nbgrader's settings for this course, written by tools/make_course.py (edit freely)."""

import sys

from nbconvert.preprocessors import CSSHTMLHeaderPreprocessor
from nbgrader.preprocessors import ClearHiddenTests, GetGrades

sys.path.insert(0, {repository!r})  # the clone: its grading/ folder (never installed)
from grading.exchange import FeedbackRelease, VettedCollect  # noqa: E402
from grading.platforms import MarkedCsvExport, RosterCollector  # noqa: E402
from grading.scoring import autograde_steps  # noqa: E402

c = get_config()  # noqa: F821 (nbgrader defines it)

c.CourseDirectory.course_id = {course_id!r}
c.CourseDirectory.root = {root!r}

# nbgrader's file exchange, inside the course folder: its default (/srv/nbgrader/exchange) needs root.
c.Exchange.root = {exchange!r}
# Every student may write into the exchange: collect takes, of each student's own latest folder, only
# the regular files he owns (no link followed, no folder named for another student counts), and
# release_feedback publishes only the feedback of the sheet's notebooks (grading/exchange.py).
c.ExchangeFactory.collect = VettedCollect
c.ExchangeFactory.release_feedback = FeedbackRelease

# Seconds a cell may run: when nbgrader runs a sheet (validate), and in the judge's sandbox (autograde).
# Sheet 4 plays 450 games in one check and 300 more in its hidden test, 10-20 s on an idle machine.
c.Execute.timeout = 300
c.Judge.timeout = 300

# Feedback without the hidden tests: generate_feedback copies every cell of the autograded
# notebook, hidden tests included (by design, jupyter/nbgrader#917); nbgrader's own
# ClearHiddenTests step removes them, as generate_assignment does for the release.
c.GenerateFeedback.preprocessors = [GetGrades, ClearHiddenTests, CSSHTMLHeaderPreprocessor]

# The points come from the teacher's judge, never from the student's code: autograde runs each
# submission in a sandbox (bubblewrap: no course folder, no gradebook, no network, limits, nothing
# left running) and writes each check cell's outputs from the judge's verdict (grading/scoring.py).
# Without a sandbox it refuses, unless you pass --Judge.unsafe_without_sandbox=True.
c.Autograde.autograde_preprocessors = autograde_steps()

# zip_collect: whose sheet each file of a learning platform's download is. Moodle's and Canvas's
# names ("Bob Baker_31_assignsubmission_file_02_ras_auction.ipynb", "bakerbob_4711_90210_02_ras_auction-1.ipynb")
# and names that start with the id ("alice_02_ras_auction.ipynb") are matched to the roster by id or
# full name; a file that matches nobody is skipped with a warning (grading/platforms.py).
c.ZipCollectApp.collector_plugin = RosterCollector
# grades.csv with a column "note": for a student with nothing collected, that, and the sheet's files
# zip_collect could not place (downloaded/<sheet>/skipped.json): never a silent 0.
c.ExportApp.plugin_class = MarkedCsvExport
'''


def sheets() -> dict[str, Path]:
    """Return the source sheets by assignment name: ``sheet1`` for ``01_...ipynb``, and so on."""
    found = {f"sheet{int(path.name[:2])}": path for path in sorted(SOURCE.glob("0[1-9]_*.ipynb"))}
    if not found:
        raise SystemExit(f"no source sheets in {SOURCE}")
    return found


def student_commands(course: Path, course_id: str = COURSE_ID, assignment: str = "sheet1") -> list[str]:
    """Return the commands a student types to fetch `assignment`, hand it in and fetch the feedback."""
    where = f"--course {course_id} --Exchange.root={course / 'exchange'}"
    return [f"nbgrader {verb} {assignment} {where}" for verb in ("fetch_assignment", "submit", "fetch_feedback")]


def _mkdir(path: Path, mode: int) -> None:
    path.mkdir(exist_ok=True)
    os.chmod(path, mode)  # after mkdir: the umask would take bits away


def make_course(course: Path, course_id: str = COURSE_ID) -> None:
    """Make the course folder `course` (it must not exist yet, or be empty)."""
    course = course.expanduser().resolve()
    if course == ROOT or ROOT in course.parents:
        raise SystemExit(f"{course} is inside the repository: choose a folder outside it, e.g. ~/{course_id}")
    if course.exists() and any(course.iterdir()):
        raise SystemExit(f"{course} exists and is not empty: choose a new folder (or remove this one)")
    sys.path.insert(0, str(ROOT))  # the clone's grading/ folder (never installed): run from tools/
    from grading.exchange import prepare

    course.mkdir(parents=True, exist_ok=True)
    os.chmod(course, 0o711)  # students may pass through to the exchange, but not list the folder
    for name in PRIVATE:
        _mkdir(course / name, 0o700)
    prepare(course / "exchange", course_id)  # sticky where students write, unlisted where names are secret
    for assignment, path in sheets().items():
        _mkdir(course / "source" / assignment, 0o700)
        shutil.copy(path, course / "source" / assignment / path.name)

    config = course / "nbgrader_config.py"
    config.write_text(
        CONFIG.format(
            course_id=course_id,
            root=str(course),
            exchange=str(course / "exchange"),
            repository=str(ROOT),
        ),
        encoding="utf-8",
    )
    os.chmod(config, 0o600)
    _private_file(course / ".nbgrader.log")  # nbgrader appends to it; it names students and files
    # The teacher's commands beside nbgrader's run here too: python -m grading.audit sheet1
    (course / "grading").symlink_to(ROOT / "grading", target_is_directory=True)
    from nbgrader.api import Gradebook  # type: ignore[import-untyped]  # the grading extra

    # nbgrader runs the `alembic` command of its environment to make the database: this Python's.
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}"):
        pass  # creates the tables
    os.chmod(course / "gradebook.db", 0o600)  # it stores the grade cells, hidden tests included


def _private_file(path: Path) -> None:
    path.touch()
    os.chmod(path, 0o600)


def main(argv: list[str] | None = None) -> int:
    """Make the course folder named on the command line and say what to do next."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("course", type=Path, help="the new course folder, outside the repository (e.g. ~/ra-course)")
    parser.add_argument("--id", default=COURSE_ID, help=f"the course id students type (default: {COURSE_ID})")
    args = parser.parse_args(argv)
    make_course(args.course, args.id)
    course = args.course.expanduser().resolve()
    names = ", ".join(f"{name} ({path.name})" for name, path in sheets().items())
    print(f"made the nbgrader course {args.id!r} in {course}: {names}")
    print(f"next: cd {course}, then follow exercises/TEACHING.md, 'A course with nbgrader'")
    print(f"check its settings and modes any time: python -m grading.check_course {course}")
    from grading.check_course import readable_by_others

    secret = [p for p in (ROOT / "grading", ROOT / "exercises" / "source") if readable_by_others(p)]
    if secret:
        print(
            "warning: other users of this machine can read "
            + " and ".join(str(p) for p in secret)
            + " (the hidden tests, the solutions): chmod -R o-rwx them, or keep the clone in a closed folder"
        )
    print("students type, for sheet1 (the same for the other sheets):")
    for command in student_commands(course, args.id):
        print(f"    {command}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
