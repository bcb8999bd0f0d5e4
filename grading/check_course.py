"""Is this nbgrader course set up to grade safely? Say, one sentence per problem, what to change.

    python -m grading.check_course ~/ra-course      (exit status 1 when a problem is found)

A course made by ``make course`` passes; a course put together by hand, or the sheets dropped
into an existing nbgrader course (a university's JupyterHub), may miss what keeps the grading
closed to students. The command reads the course's settings as nbgrader does (the
``nbgrader_config.py`` files of Jupyter's configuration folders, then the course's own) and the
modes of its files, and checks that

* ``autograde`` grades with the judge (``grading.scoring.autograde_steps``), never in the
  student's own kernel, and with its sandbox (no ``Judge.unsafe_without_sandbox``);
* ``generate_feedback`` removes the hidden tests (nbgrader's ``ClearHiddenTests``);
* the exchange is collected and fed back by ``grading/exchange.py``, with the owner check on, and
  its folders have the modes of ``grading.exchange.MODES``;
* the course's private folders and files (sources, submissions, gradebook, settings, log) and the
  teacher's hidden cases, answer keys and source sheets are readable by no other account.
"""

from __future__ import annotations

import argparse
import stat
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["PRIVATE", "problems", "readable_by_others"]

#: what only the teacher may read in the course folder
PRIVATE = (
    "source",
    "release",
    "submitted",
    "autograded",
    "feedback",
    "downloaded",
    "gradebook.db",
    "nbgrader_config.py",
    ".nbgrader.log",
)
#: the teacher's files that hold the hidden cases, the answer keys and the solutions, from the clone
SECRET = ("grading/cases.py", "grading/answers.py", "exercises/source")
CLONE = Path(__file__).resolve().parent.parent


def readable_by_others(path: Path) -> bool:
    """Return whether another account of this machine can read `path`: every folder above it passable, it readable."""
    if not path.exists() or not path.stat().st_mode & 0o004:
        return False
    return all(parent.stat().st_mode & 0o001 for parent in path.resolve().parents)


def settings(course: Path) -> Any:
    """Return nbgrader's settings for `course`: Jupyter's configuration folders', then the course's own, merged."""
    from jupyter_core.paths import jupyter_config_path
    from traitlets.config.loader import Config, PyFileConfigLoader

    config = Config()
    with warnings.catch_warnings():  # jupyter_core's notice about moving to platformdirs: not the teacher's concern
        warnings.simplefilter("ignore", DeprecationWarning)
        folders = jupyter_config_path()  # the folders nbgrader itself reads, as this environment sets them
    for folder in [*reversed(folders), str(course)]:
        if (Path(folder) / "nbgrader_config.py").is_file():
            config.merge(PyFileConfigLoader("nbgrader_config.py", path=folder).load_config())
    return config


def _name(value: Any) -> str:
    """Return the dotted name of a class given in a setting (as a class or as its name)."""
    return value if isinstance(value, str) else f"{value.__module__}.{value.__qualname__}"


def _is(value: Any, wanted: type) -> bool:
    """Return whether a setting names `wanted` or a subclass of it."""
    if isinstance(value, type):
        return issubclass(value, wanted)
    return bool(value == f"{wanted.__module__}.{wanted.__qualname__}")


def _grading(config: Any) -> Iterator[str]:
    from .scoring import autograde_steps

    steps = [_name(step) for step in config.Autograde.get("autograde_preprocessors", [])]
    if steps != [_name(step) for step in autograde_steps()]:
        yield (
            "autograde runs the students' code in their own kernel, where one line can rebind a check and earn every "
            "point: add `from grading.scoring import autograde_steps` and "
            "`c.Autograde.autograde_preprocessors = autograde_steps()` to nbgrader_config.py (make course writes them)."
        )
    if config.Judge.get("unsafe_without_sandbox") is True:
        yield (
            "the judge runs the students' code without its sandbox, as you, with your files: remove "
            "`c.Judge.unsafe_without_sandbox = True` from the settings and install bubblewrap."
        )
    feedback = [_name(step).rsplit(".", 1)[-1] for step in config.GenerateFeedback.get("preprocessors", [])]
    if "ClearHiddenTests" not in feedback:
        yield (
            "generate_feedback copies the hidden tests into every student's feedback: set "
            "`c.GenerateFeedback.preprocessors = [GetGrades, ClearHiddenTests, CSSHTMLHeaderPreprocessor]` "
            "(from nbgrader.preprocessors and nbconvert.preprocessors)."
        )


def _exchange(config: Any) -> Iterator[str]:
    from .exchange import MODES, FeedbackRelease, VettedCollect

    factory = config.ExchangeFactory
    if not _is(factory.get("collect", ""), VettedCollect):
        yield (
            "collect follows the links a student adds to his submission and takes a folder another student named "
            "for him: add `from grading.exchange import VettedCollect` and "
            "`c.ExchangeFactory.collect = VettedCollect` to nbgrader_config.py."
        )
    if not _is(factory.get("release_feedback", ""), FeedbackRelease):
        yield (
            "release_feedback publishes any HTML file of a student's feedback folder, copies of his own links "
            "included: add `from grading.exchange import FeedbackRelease` and "
            "`c.ExchangeFactory.release_feedback = FeedbackRelease` to nbgrader_config.py."
        )
    for section in ("ExchangeCollect", "VettedCollect"):  # nbgrader's setting, by its class or ours
        if config[section].get("check_owner") is False:
            yield (
                f"collect takes a submission from whoever made its folder ({section}.check_owner is False): "
                "remove that setting."
            )
    root = Path(config.Exchange.get("root", "/usr/local/share/nbgrader/exchange"))
    course_id = config.CourseDirectory.get("course_id", "")
    if not course_id:
        yield "the course has no id: set `c.CourseDirectory.course_id` in nbgrader_config.py."
        return
    for name, mode in MODES.items():
        path = root / name.format(course=course_id)
        if not path.is_dir() or path.is_symlink():
            yield f"the exchange folder {path} is missing: make it with `mkdir {path}` and `chmod {mode:o} {path}`."
        elif stat.S_IMODE(path.lstat().st_mode) != mode:
            now = stat.S_IMODE(path.lstat().st_mode)
            yield f"the exchange folder {path} has the mode {now:o}, open to students: `chmod {mode:o} {path}`."
    if root.is_dir() and not all(parent.stat().st_mode & 0o001 for parent in root.resolve().parents):
        closed = next(p for p in root.resolve().parents if not p.stat().st_mode & 0o001)
        yield f"students cannot reach the exchange through {closed}: `chmod o+x {closed}` (passing, not listing)."


def _private(course: Path) -> Iterator[str]:
    for name in PRIVATE:
        path = course / name
        if path.exists() and stat.S_IMODE(path.lstat().st_mode) & 0o077:
            yield f"{path} is open to other accounts ({stat.S_IMODE(path.lstat().st_mode):o}): `chmod go-rwx {path}`."
    link = course / "grading"
    clone = link.resolve().parent if link.is_symlink() else CLONE
    for name in SECRET:
        path = clone / name
        if readable_by_others(path):
            yield (
                f"students can read {path} (hidden cases, answer keys or solutions): `chmod -R o-rwx {path}`, "
                "or keep the clone in a folder closed to others."
            )


def problems(course: Path) -> list[str]:
    """Return one sentence per problem of the nbgrader course folder `course` (none: it is set up safely)."""
    if not (course / "nbgrader_config.py").is_file():
        return [f"{course} holds no nbgrader_config.py: give the course folder (make course makes one)."]
    config = settings(course)
    return [*_grading(config), *_exchange(config), *_private(course)]


def main(argv: list[str] | None = None) -> int:
    """Print the problems of the course folder named on the command line; exit 1 if there is one."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("course", type=Path, nargs="?", default=Path.cwd(), help="the course folder (default: here)")
    course = parser.parse_args(argv).course.expanduser().resolve()
    found = problems(course)
    for sentence in found:
        print(f"- {sentence[0].upper()}{sentence[1:]}")
    print(f"{course}: {len(found)} problem{'s' * (len(found) != 1)} found" if found else f"{course}: no problem found")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
