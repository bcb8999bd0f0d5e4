"""One nbgrader course built for the grading tests, and copies of it.

Making a course (``tools/make_course.py``: the folders, the settings, nbgrader's gradebook) and
generating its sheets (``nbgrader generate_assignment``: the student versions, the sheets'
cells in the gradebook) takes a minute of nbgrader's start-ups on a busy machine. The grading
tests need it several times (tests/test_exercises_nbgrader.py compares the generated sheets,
tests/test_exercises_autograde.py grades two courses at once, tests/test_exchange_students.py and
tests/test_check_course.py open one), so the session builds it once (the ``generated_course``
fixture of tests/conftest.py) and each test that changes a course works on its own `copy`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: every sheet, in one generate_assignment
SHEETS = "sheet[1-9]"


def build(course: Path) -> Path:
    """Make the course `course` as ``make course`` does and generate every sheet; return it."""
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "make_course.py"), str(course)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    # nbgrader runs `alembic` for its database and the kernels of this environment.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        [sys.executable, "-m", "nbgrader", "generate_assignment", SHEETS],
        cwd=course,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return course


def copy(course: Path, to: Path) -> Path:
    """Copy the course `course` to the new folder `to`, modes and links kept, its settings naming `to`; return `to`."""
    shutil.copytree(course, to, symlinks=True)
    config = to / "nbgrader_config.py"
    text = config.read_text(encoding="utf-8")
    for folder in (course, course / "exchange"):  # the settings name both, each as a quoted literal
        assert repr(str(folder)) in text, f"{folder} is not in {config}"
        text = text.replace(repr(str(folder)), repr(str(to / folder.relative_to(course))))
    config.write_text(text, encoding="utf-8")
    return to
