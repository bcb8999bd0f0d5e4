"""Real nbgrader accepts the exercise sheets: it makes the same student versions and grades them.

Optional: skipped when nbgrader is not installed (``pip install -e '.[grading]'``; `make test`
installs it). In the course ``make course`` makes, as a teacher would:

* ``nbgrader generate_assignment`` turns ``exercises/source`` into a release whose cells are
  exactly those of our ``exercises/release`` (same stubs, same locks);
* ``nbgrader validate`` on the sources: every check passes, hidden tests included;
* ``nbgrader validate --invert`` on nbgrader's release: no check passes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("nbgrader", reason="nbgrader is not installed (pip install -e '.[grading]')")

ROOT = Path(__file__).parent.parent
SOURCES = sorted((ROOT / "exercises" / "source").glob("*.ipynb"))


def _nbgrader(*args: str, cwd: Path) -> subprocess.Popen[str]:
    # nbgrader runs `alembic` for its database and the kernels of this environment.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.Popen(
        [sys.executable, "-m", "nbgrader", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _sources(nb_path: Path) -> list[tuple[str, str, object, object]]:
    nb = json.loads(nb_path.read_text())
    return [
        (c["cell_type"], "".join(c["source"]), c["metadata"].get("editable"), c["metadata"].get("deletable"))
        for c in nb["cells"]
    ]


def test_nbgrader_generates_validates_and_inverts(tmp_path: Path, generated_course: Path) -> None:
    """The course ``make course`` made, its sheets generated once for the session (tests/nbgrader_course.py)."""
    (tmp_path / "nbgrader_config.py").write_text(
        "c = get_config()\n"
        f"c.CourseDirectory.root = {str(tmp_path)!r}\n"
        f"c.CourseDirectory.db_url = 'sqlite:///{tmp_path / 'gradebook.db'}'\n"
        "c.Execute.timeout = 300\n"  # sheet 4's tournaments, hidden tests included, on a busy machine
    )
    source = [generated_course / "source" / f"sheet{int(p.name[:2])}" / p.name for p in SOURCES]
    made = [generated_course / "release" / f"sheet{int(p.name[:2])}" / p.name for p in SOURCES]
    assert all(path.is_file() for path in made), sorted(generated_course.glob("release/*/*"))
    for path in made:  # nbgrader's student version is ours, cell for cell
        assert _sources(path) == _sources(ROOT / "exercises" / "release" / path.name), path.name

    # The two validations run at once (each starts a kernel per notebook).
    passing = _nbgrader("validate", *(str(p) for p in source), cwd=tmp_path)
    failing = _nbgrader("validate", "--invert", *(str(p) for p in made), cwd=tmp_path)
    passing_out, _ = passing.communicate(timeout=300)
    failing_out, _ = failing.communicate(timeout=300)
    assert passing_out.count("Success! Your notebook passes all the tests.") == len(SOURCES), passing_out
    assert "VALIDATION FAILED" not in passing_out
    assert failing_out.count("Success! The notebook does not pass any tests.") == len(SOURCES), failing_out
    assert "NOTEBOOK PASSED" not in failing_out
