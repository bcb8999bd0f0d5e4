"""Hostile students on nbgrader's exchange: real accounts of this machine attack the course through it.

As root (CI runs as root), the test copies the course ``make course`` makes, its sheets generated
(tests/nbgrader_course.py), into a folder students can pass through, and makes four accounts: two
honest students, ``rxalice`` and ``rxcarol``, who hand in the solutions of sheet 1, and two hostile
ones. Each student types the lines ``make course`` prints (fetch, submit, later fetch_feedback) in
his own account; the teacher runs release_assignment, collect, autograde, generate_feedback and
release_feedback in the course folder, as exercises/TEACHING.md says. Between submit and collect:

* ``rxmallory`` hands in the blank sheet, then, in his own submission folder (his, and writable
  by all, as nbgrader's submit leaves it), replaces his notebook by a link to the source sheet
  (its solutions would earn 20), and adds links named ``*.html`` (the feedback's suffix) to the
  gradebook, to the hidden cases module and to the source sheet; and makes a folder named for
  Carol with a later time, holding the blank sheet (it would replace Carol's 20 by 0);
* ``rxtrudy`` hands nothing in but a link, named as her submission, to the teacher's
  ``source/sheet1`` folder.

nbgrader 0.9's own collect follows every one of those links with the teacher's rights and takes
the later folder for Carol (its owner check only warns); the course's classes
(``grading/exchange.py``) must refuse each, with a warning that names it. Then Alice and Carol
earn 20, nothing of Mallory's or Trudy's is graded, no file of the course, the exchange or a student's
home holds the gradebook, the hidden cases or a solution, and the exchange releases three
feedback files, one per notebook collected.

Skipped unless run as root with ``useradd`` (the accounts are made and removed by the test), and
when no Python of this machine that a student's account may run has nbgrader (this one, or the
system's ``python3`` given this environment's packages, as a student's own installation would be).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import site
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tools.make_course import student_commands

from .nbgrader_course import copy
from .test_course_recipe import SHEET1, _answer
from .test_exercises_nbgrader import _nbgrader

pytest.importorskip("nbgrader", reason="nbgrader is not installed (pip install -e '.[grading]')")

ROOT = Path(__file__).resolve().parent.parent
HONEST = ("rxalice", "rxcarol")
MALLORY, TRUDY = "rxmallory", "rxtrudy"
#: seconds any one command may take (autograde grades three sheets in its sandbox)
TIMEOUT = 600
#: what must reach no student: the start of an SQLite file, the cases module, a solution's marker
SECRETS = (b"SQLite format 3", b"CASES: dict[", b"### BEGIN SOLUTION")


@dataclass
class Course:
    """What the route left behind."""

    folder: Path
    homes: dict[str, Path]
    printed: dict[str, str] = field(default_factory=dict)


#: how a student's account runs Python: variables of its environment, and the interpreter
Python = tuple[dict[str, str], str]


def _student_python() -> Python | None:
    """Return how a student's account runs Python with nbgrader, or None if none of this machine's can."""
    packages = {"PYTHONPATH": os.pathsep.join(site.getsitepackages())}
    for python in (({}, sys.executable), (packages, "/usr/bin/python3")):
        probe = [*_as(TRUDY, python[0]), python[1], "-c", "import nbgrader"]
        if subprocess.run(probe, capture_output=True, timeout=120, check=False).returncode == 0:
            return python
    return None


def _as(user: str, env: dict[str, str]) -> list[str]:
    """Return the start of a command that runs as `user`, in a clean environment plus `env`."""
    variables = [f"{k}={v}" for k, v in {"HOME": f"/home/{user}", "PATH": "/usr/bin:/bin", **env}.items()]
    return ["runuser", "-u", user, "--", "env", "-i", *variables]


def _student(user: str, python: Python, line: str) -> str:
    """Run the student's `line` (``nbgrader verb ...``, as ``make course`` prints it) in his account and home."""
    words = shlex.split(line)
    assert words[0] == "nbgrader", line
    command = [*_as(user, python[0]), python[1], "-m", "nbgrader", *words[1:]]
    done = subprocess.run(command, cwd=f"/home/{user}", capture_output=True, text=True, timeout=TIMEOUT, check=False)
    assert done.returncode == 0, f"{user}: {line}\n{done.stdout}{done.stderr}"
    return done.stdout + done.stderr


def _shell(user: str, script: str) -> None:
    """Run `script` in bash as `user` (an attack by hand)."""
    subprocess.run([*_as(user, {}), "bash", "-e", "-c", script], check=True, timeout=60, capture_output=True)


def _teacher(course: Path, *args: str) -> str:
    process = _nbgrader(*args, cwd=course)
    out, _ = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 0, out
    return out


@contextlib.contextmanager
def _users() -> Iterator[None]:
    users = (*HONEST, MALLORY, TRUDY)
    for user in users:  # left over by an interrupted run
        subprocess.run(["userdel", "-r", user], capture_output=True, check=False)
    try:
        for user in users:
            subprocess.run(["useradd", "-m", "-s", "/bin/bash", user], check=True, capture_output=True)
        yield
    finally:
        for user in users:
            subprocess.run(["userdel", "-r", user], capture_output=True, check=False)


@pytest.fixture(scope="module")
def course(generated_course: Path) -> Iterator[Course]:
    """Make the course and the accounts, and run the route with the students' attacks; remove all afterwards."""
    if os.geteuid() != 0 or not shutil.which("useradd") or not shutil.which("runuser"):
        pytest.skip("the test makes Unix accounts for its students: run it as root, as CI does")
    top = Path(tempfile.mkdtemp(prefix="ra-exchange-"))
    os.chmod(top, 0o711)  # the students pass through to the exchange, as through a teacher's home
    try:
        with _users():
            python = _student_python()
            if python is None:
                pytest.skip("no Python of this machine that a student's account may run has nbgrader")
            yield _route(copy(generated_course, top / "ra-course"), python)
    finally:
        shutil.rmtree(top)


def _route(folder: Path, python: Python) -> Course:
    """Run the route in the course `folder`, whose sheets are generated (tests/nbgrader_course.py)."""
    from nbgrader.api import Gradebook  # type: ignore[import-untyped]

    with Gradebook(f"sqlite:///{folder / 'gradebook.db'}") as gb:  # the roster
        for user in (*HONEST, MALLORY, TRUDY):
            gb.add_student(user)
    course = Course(folder, {user: Path(f"/home/{user}") for user in (*HONEST, MALLORY, TRUDY)})
    course.printed["release"] = _teacher(folder, "release_assignment", "sheet1")
    fetch, submit, feedback = student_commands(folder)  # the lines `make course` prints
    source = folder / "source" / "sheet1" / SHEET1

    def hand_in(user: str) -> str:
        _student(user, python, fetch)
        if user in HONEST:
            _answer(course.homes[user] / "sheet1" / SHEET1, ("1", "2", "3", "4", "5"), source)
        return _student(user, python, submit)

    with ThreadPoolExecutor(3) as pool:
        printed = dict(zip((*HONEST, MALLORY), pool.map(hand_in, (*HONEST, MALLORY)), strict=True))
    inbound = folder / "exchange" / "ra-course" / "inbound"
    mine = next(line.split("Destination: ")[1] for line in printed[MALLORY].splitlines() if "Destination: " in line)
    later = (datetime.now(UTC) + timedelta(hours=1)).strftime("%Y-%m-%d %H:%M:%S.%f UTC")
    _shell(
        MALLORY,
        f"""cd {shlex.quote(mine)}
        ln -sf {source} {SHEET1}
        ln -s {folder / "gradebook.db"} gradebook.html
        ln -s {ROOT / "grading" / "cases.py"} cases.html
        ln -s {source} source.html
        forged={shlex.quote(str(inbound / f"{HONEST[1]}+sheet1+{later}+x"))}
        mkdir "$forged" && cp ~/sheet1/{SHEET1} "$forged"/ && echo {shlex.quote(later)} > "$forged"/timestamp.txt
        """,
    )
    _shell(TRUDY, f"ln -s {folder / 'source' / 'sheet1'} {shlex.quote(str(inbound / f'{TRUDY}+sheet1+{later}+y'))}")
    for step in ("collect", "autograde", "generate_feedback", "release_feedback"):
        course.printed[step] = _teacher(folder, step, "sheet1")
    with ThreadPoolExecutor(3) as pool:
        list(pool.map(lambda user: _student(user, python, feedback), (*HONEST, MALLORY)))
    return course


def _scores(folder: Path) -> dict[str, float | None]:
    from nbgrader.api import Gradebook, MissingEntry

    scores: dict[str, float | None] = {}
    with Gradebook(f"sqlite:///{folder / 'gradebook.db'}") as gb:
        for user in (*HONEST, MALLORY, TRUDY):
            try:
                scores[user] = gb.find_submission("sheet1", user).score
            except MissingEntry:
                scores[user] = None
    return scores


def test_honest_students_earn_their_points_and_the_attacks_nothing(course: Course) -> None:
    """Alice and Carol 20 (Carol's own folder, not the later one made for her); nothing of Mallory's or Trudy's graded.

    Mallory's notebook is a link, left out: his submission holds no notebook to grade; Trudy's is
    a link to a folder, refused: nothing of hers is collected.
    """
    assert _scores(course.folder) == {"rxalice": 20.0, "rxcarol": 20.0, MALLORY: None, TRUDY: None}


def test_each_attack_is_refused_with_a_warning_that_names_it(course: Course) -> None:
    printed = course.printed["collect"]
    refused = [line for line in printed.splitlines() if "Refused inbound/" in line or "Left out " in line]
    assert any(f"{HONEST[1]}+sheet1+" in line and f"belongs to {MALLORY}" in line for line in refused), printed
    assert any(f"{TRUDY}+sheet1+" in line and "not a folder" in line for line in refused), printed
    for name in (SHEET1, "gradebook.html", "cases.html", "source.html"):
        assert any(line.endswith(f"/{name}: a link") for line in refused), (name, printed)
    assert len(refused) == 6, printed


def test_nothing_secret_reaches_the_students_or_the_graded_folders(course: Course) -> None:
    """No file the route made (submitted, autograded, feedback, the exchange, the homes) holds a secret."""
    places = [course.folder / name for name in ("submitted", "autograded", "feedback", "exchange")]
    found = []
    for place in [*places, *course.homes.values()]:
        for path in place.rglob("*"):
            if path.is_file() and not path.is_symlink():
                data = path.read_bytes()
                found += [f"{path}: {secret!r}" for secret in SECRETS if secret in data]
    assert found == []
    collected = sorted(
        p.relative_to(course.folder / "submitted").as_posix() for p in course.folder.glob("submitted/**/*")
    )
    assert f"{MALLORY}/sheet1/gradebook.html" not in collected and not any(TRUDY in c for c in collected)


def test_feedback_is_released_only_for_the_notebooks_collected(course: Course) -> None:
    released = sorted((course.folder / "exchange" / "ra-course" / "feedback").iterdir())
    assert len(released) == 2 and all(p.suffix == ".html" for p in released), released
    for user in HONEST:
        fetched = [p.name for p in (course.homes[user] / "sheet1" / "feedback").rglob("*.html")]
        assert fetched == [SHEET1.replace(".ipynb", ".html")], user


def test_the_exchange_is_sticky_where_students_write_and_unlisted_where_names_are_secret(course: Course) -> None:
    exchange = course.folder / "exchange"
    modes = {p: oct(p.stat().st_mode & 0o7777) for p in (exchange, exchange / "ra-course" / "inbound")}
    assert modes == {exchange: "0o1777", exchange / "ra-course" / "inbound": "0o1733"}
    assert (exchange / "ra-course" / "feedback").stat().st_mode & 0o777 == 0o711


def test_the_submitted_files_are_copies_and_carols_notebook_is_her_own(course: Course) -> None:
    for path in (course.folder / "submitted").rglob("*"):
        assert not path.is_symlink(), path
    handed_in = (course.homes[HONEST[1]] / "sheet1" / SHEET1).read_bytes()
    assert (course.folder / "submitted" / HONEST[1] / "sheet1" / SHEET1).read_bytes() == handed_in, "Carol's own"
