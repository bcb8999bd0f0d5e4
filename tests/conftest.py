"""Shared test set-up: hypothesis profiles, and the tiers every test lands in by what it is.

`make test` runs every test. `make test-fast` (``pytest -m "not slow"``) leaves out the kinds
below, which start more than Python in this process: a fresh kernel, a browser, a server, a
database, Node.js or nbgrader's commands. Each kind is a marker of its own as well (``pytest -m
browser`` runs the browser tests), and a test is given its kinds by where it is, so a new test
lands in its tier with no marker to remember.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("thorough", max_examples=500, deadline=None)
settings.register_profile("fuzz", max_examples=10_000, deadline=None)  # the fuzz tests at full size
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

ROOT = Path(__file__).resolve().parent.parent

#: The slow kinds of test: what each starts, and where such tests are (a folder, a file, or
#: ``*.ipynb`` for the notebooks nbval runs again). Every one of them is also ``slow``.
KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "notebook": ("a notebook run again in a fresh kernel by nbval", ("*.ipynb",)),
    "browser": ("chromium driven by Playwright, with JupyterLab, Voila or a server", ("tests/browser/",)),
    "classroom": (
        "the classroom server over websockets, on SQLite and on PostgreSQL",
        ("tests/classroom/",),
    ),
    "kernels": (
        "notebooks or sheets run in fresh kernels: other seeds, an installed wheel, a class graded",
        (
            "tests/test_notebooks_reseeded.py",
            "tests/test_wheel.py",
            "tests/test_exercises.py",
            "tests/test_exercises_autograde.py",
            "tests/test_student_files.py",
        ),
    ),
    "nbgrader": (
        "nbgrader's own commands on the exercise sheets",
        (
            "tests/test_exercises_nbgrader.py",
            "tests/test_course_recipe.py",
            "tests/test_exchange_students.py",
            "tests/test_check_course.py",
        ),
    ),
    "answers": (
        "every public callable tried on the sheets' hidden cases (a search of minutes)",
        ("tests/test_no_public_answers.py",),
    ),
    "pyodide": ("the engine in Pyodide under Node.js", ("tests/test_pyodide.py",)),
    "cluster": ("a Dask cluster of worker processes", ("tests/test_dask.py",)),
}


#: Files in a slow kind's folder whose tests start nothing but Python (no server, no browser, no
#: database server; a SQLite file at most): they stay in the fast tier.
PURE: tuple[str, ...] = tuple(
    f"tests/classroom/test_{name}.py"
    for name in (
        "analysis",
        "boundaries",
        "clock",
        "clock_analysis",
        "floors",
        "hub",
        "logic",
        "names",
        "one_way_in",
        "theory",
        "writer",
    )
)


@pytest.fixture(scope="session")
def generated_course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course as ``make course`` makes it, its sheets generated: built once (tests/nbgrader_course.py).

    Once for the whole run: with pytest-xdist's workers (``make test``) the first worker that needs
    it builds it in the folder the workers' temporary folders share, under a lock, and the others
    wait for it and use it (the tests only read it, or copy it).
    """
    pytest.importorskip("nbgrader", reason="nbgrader is not installed (pip install -e '.[grading]')")
    from .nbgrader_course import build

    if not os.environ.get("PYTEST_XDIST_WORKER"):  # no workers: this process is the whole run
        return build(tmp_path_factory.mktemp("generated") / "ra-course")
    shared = tmp_path_factory.getbasetemp().parent  # pytest-N/, beside every worker's popen-gwK/
    course = shared / "generated" / "ra-course"
    with open(shared / "generated.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "generated" / "built").exists():
            shutil.rmtree(shared / "generated", ignore_errors=True)  # a worker that failed midway
            (shared / "generated").mkdir()
            build(course)
            (shared / "generated" / "built").touch()
    return course


def pytest_configure(config: pytest.Config) -> None:
    dist = getattr(config.option, "dist", "no")  # pytest-xdist's way of handing out tests, if it is loaded
    if getattr(config.option, "numprocesses", None) and dist not in ("loadfile", "loadscope"):
        raise pytest.UsageError(
            f"--dist {dist} splits a notebook's cells (nbval) and a module's tests between workers: add --dist loadfile"
        )
    config.addinivalue_line("markers", "slow: a test of a slow kind, left out of `make test-fast`")
    for kind, (what, _) in KINDS.items():
        config.addinivalue_line("markers", f"{kind}: {what} (slow)")


def kinds_of(path: Path) -> list[str]:
    """Return the slow kinds of the tests in the file at `path`."""
    rel = path.resolve().relative_to(ROOT).as_posix()
    if rel in PURE:
        return []
    found = []
    for kind, (_, places) in KINDS.items():
        if any(rel.endswith(p[1:]) if p.startswith("*") else rel.startswith(p) for p in places):
            found.append(kind)
    return found


#: The files that take minutes of a run (measured with ``--durations``), slowest first: under pytest-xdist
#: (``make test``) they are handed out first, each to a worker of its own, so that the run does not wait
#: at its end for one of them started last. Then the other slow kinds' files, then the rest.
LONGEST: tuple[str, ...] = (
    "tests/test_course_recipe.py",
    "tests/test_exercises_autograde.py",
    "tests/test_wheel.py",  # a fresh venv and the wheel's notebooks extra installed: 3 minutes
    "tests/test_notebooks_reseeded.py",
    "tests/test_exchange_students.py",
    "tests/classroom/test_any_session.py",
    "tests/test_no_public_answers.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    first: dict[Path, int] = {}
    rank: dict[Path, int] = {}
    for item in items:
        found = kinds_of(item.path)
        for kind in found:
            item.add_marker(kind)
        if found:
            item.add_marker("slow")
        if item.path not in first:
            first[item.path] = len(first)
            rel = item.path.resolve().relative_to(ROOT).as_posix()
            rank[item.path] = LONGEST.index(rel) if rel in LONGEST else len(LONGEST) + (0 if found else 1)
    if os.environ.get("PYTEST_XDIST_WORKER"):  # every worker collects, and must order, alike
        items.sort(key=lambda item: (rank[item.path], first[item.path]))
