"""``python -m grading.check_course``: a course that ``make course`` made passes; each way of opening it is named.

A course made as ``make course`` makes it (the session's: tests/nbgrader_course.py) is copied, its
``grading`` link pointed at a stand-in clone (so that what the check says of the teacher's hidden
cases does not depend on where this clone lies), and then opened one way at a time: each must give
exactly its one sentence, which says what to change.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("nbgrader", reason="nbgrader is not installed (pip install -e '.[grading]')")

from grading.check_course import main, problems  # noqa: E402

from .nbgrader_course import copy  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def made(generated_course: Path) -> Iterator[Path]:
    """A course as ``make course`` makes it, in a folder students may pass through, with a closed stand-in clone."""
    top = Path(tempfile.mkdtemp(prefix="ra-check-"))
    os.chmod(top, 0o711)
    try:
        copy(generated_course, top / "ra-course")
        clone = top / "clone"
        for name in ("grading/cases.py", "grading/answers.py", "exercises/source/01_sheet.ipynb"):
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            (clone / name).write_text("secret\n", encoding="utf-8")
        os.chmod(clone, 0o700)
        (top / "ra-course" / "grading").unlink()
        (top / "ra-course" / "grading").symlink_to(clone / "grading")
        yield top / "ra-course"
    finally:
        shutil.rmtree(top)


@pytest.fixture
def course(made: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh copy of the made course for one test (its exchange path unchanged), and no personal settings."""
    monkeypatch.setenv("JUPYTER_CONFIG_DIR", str(tmp_path / "no-settings"))
    yield copy(made, made.parent / f"copy-{tmp_path.name}")
    shutil.rmtree(made.parent / f"copy-{tmp_path.name}")


def _edit(old: str, new: str) -> Callable[[Path], None]:
    def change(course: Path) -> None:
        config = course / "nbgrader_config.py"
        text = config.read_text(encoding="utf-8")
        assert old in text, old
        config.write_text(text.replace(old, new), encoding="utf-8")

    return change


def _chmod(name: str, mode: int) -> Callable[[Path], None]:
    return lambda course: os.chmod(course / name, mode)


OPENINGS: dict[str, tuple[Callable[[Path], None], str]] = {
    "autograde in the student's kernel": (
        _edit("c.Autograde.autograde_preprocessors = autograde_steps()", ""),
        "add `from grading.scoring import autograde_steps` and `c.Autograde.autograde_preprocessors",
    ),
    "no sandbox": (
        _edit("c.Judge.timeout = 300", "c.Judge.timeout = 300\nc.Judge.unsafe_without_sandbox = True"),
        "remove `c.Judge.unsafe_without_sandbox = True`",
    ),
    "hidden tests in the feedback": (
        _edit("[GetGrades, ClearHiddenTests, CSSHTMLHeaderPreprocessor]", "[GetGrades, CSSHTMLHeaderPreprocessor]"),
        "generate_feedback copies the hidden tests",
    ),
    "nbgrader's collect": (_edit("c.ExchangeFactory.collect = VettedCollect", ""), "`c.ExchangeFactory.collect ="),
    "nbgrader's release_feedback": (
        _edit("c.ExchangeFactory.release_feedback = FeedbackRelease", ""),
        "`c.ExchangeFactory.release_feedback = FeedbackRelease`",
    ),
    "no owner check": (
        _edit("c.Judge.timeout = 300", "c.Judge.timeout = 300\nc.ExchangeCollect.check_owner = False"),
        "(ExchangeCollect.check_owner is False): remove that setting",
    ),
    "an exchange any student may rename": (
        _chmod("exchange", 0o777),
        "has the mode 777, open to students: `chmod 1777",
    ),
    "a listable inbound": (_chmod("exchange/ra-course/inbound", 0o1777), "`chmod 1733"),
    "a readable gradebook": (_chmod("gradebook.db", 0o644), "gradebook.db is open to other accounts (644)"),
    "readable sources": (_chmod("source", 0o755), "`chmod go-rwx"),
    "readable hidden cases": (
        lambda course: os.chmod(course.joinpath("grading").resolve().parent, 0o755),
        "students can read",
    ),
}


def test_a_course_make_course_made_has_no_problem(course: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert problems(course) == []
    assert main([str(course)]) == 0
    assert capsys.readouterr().out == f"{course}: no problem found\n"


@pytest.mark.parametrize("opening", list(OPENINGS))
def test_each_opening_is_named_in_one_sentence_that_says_what_to_change(course: Path, opening: str) -> None:
    change, words = OPENINGS[opening]
    change(course)
    found = problems(course)
    assert len(found) == (3 if opening == "readable hidden cases" else 1), found
    assert words in found[0], found
    assert all(sentence.count(". ") == 0 and sentence.endswith(".") for sentence in found), found


def test_a_folder_without_nbgrader_settings_is_named(tmp_path: Path) -> None:
    assert problems(tmp_path) == [
        f"{tmp_path} holds no nbgrader_config.py: give the course folder (make course makes one)."
    ]


def test_the_teachers_own_settings_are_read_and_the_environment_is_left_as_it_was(
    course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An owner check switched off in the teacher's own Jupyter settings is found, and the check sets no variable.

    (It once set JUPYTER_PLATFORM_DIRS for the whole process: Jupyter then read another folder for the
    teacher's settings, in the check and in every nbgrader run started from that process afterwards.)
    """
    own = tmp_path / "own-settings"
    own.mkdir()
    (own / "nbgrader_config.py").write_text("c = get_config()\nc.ExchangeCollect.check_owner = False\n")
    monkeypatch.setenv("JUPYTER_CONFIG_DIR", str(own))
    monkeypatch.delenv("JUPYTER_PLATFORM_DIRS", raising=False)
    before = dict(os.environ)
    found = problems(course)
    assert dict(os.environ) == before
    assert any("check_owner is False" in sentence for sentence in found), found
