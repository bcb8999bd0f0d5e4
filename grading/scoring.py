"""nbgrader's autograde with the judge: the points of every check cell decided outside the student's code.

nbgrader's own autograde runs a submission in a Jupyter kernel, as the teacher, and reads each
graded cell's points from its outputs (an error: 0; a number: that many; otherwise full points).
Whatever runs in that kernel can write those outputs, open the teacher's files or start a process
that outlives the grading. `Judge` takes the place of nbgrader's ``Execute`` step: it runs the
student's cells in a sandbox and writes each check cell's outputs from the judge's verdict
(`grading.judge`), so that nbgrader's next steps (``SaveAutoGrades`` and the rest) store the
judge's points, and the feedback shows the judge's messages. No Jupyter kernel runs at all.

The course's ``nbgrader_config.py`` (made by ``tools/make_course.py``) puts it in:
``c.Autograde.autograde_preprocessors = autograde_steps()``. Where no sandbox can be made,
autograde refuses to grade and says why in one sentence (no traceback), unless the teacher passes
``--Judge.unsafe_without_sandbox=True``: the student's code then runs as the teacher.
"""

from __future__ import annotations

import functools
import os
import shutil
from pathlib import Path
from typing import Any

import nbformat
from nbconvert.preprocessors import Preprocessor
from nbformat import NotebookNode
from traitlets import Bool, Float, Integer, Unicode

from .judge import NOTEBOOK_SECONDS, Options, judge_cells
from .sandbox import Limits, problem
from .seeds import SeedBook

__all__ = ["Judge", "autograde_steps", "refusal"]


@functools.cache
def _no_sandbox() -> str | None:
    return problem()


class Judge(Preprocessor):
    """Autograde's step that runs a submission in a sandbox and writes the judge's verdicts as its outputs."""

    enabled = Bool(True).tag(config=True)  # nbconvert's preprocessors are off unless enabled
    timeout = Float(300.0, help="Seconds one cell of the student's may run.").tag(config=True)
    notebook_timeout = Float(
        NOTEBOOK_SECONDS, help="Seconds one notebook may take in all (its cells, the checks, restarts)."
    ).tag(config=True)
    memory = Integer(Limits.memory, help="Bytes of memory the student's code may use.").tag(config=True)
    cpu = Integer(Limits.cpu, help="Seconds of CPU time each process of the student's may use.").tag(config=True)
    seeds_file = Unicode(
        "hidden_seeds.json",
        help="The file, in the course folder (which no sandbox shows), that keeps the seeds drawn for the hidden "
        "tests when grading, so that grading a submission again plays the same games.",
    ).tag(config=True)
    unsafe_without_sandbox = Bool(
        False,
        help="Grade without a sandbox where none can be made: the student's code then runs as you, with your "
        "files, your network and no walls. Only for code you trust.",
    ).tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: dict[str, Any]) -> tuple[NotebookNode, dict[str, Any]]:
        """Run the submission in a sandbox and give every code cell the outputs the judge decided."""
        why = _no_sandbox()
        if why and not self.unsafe_without_sandbox:
            self.log.error("%s", refusal(why))
            _undo(resources)
            raise SystemExit(1)  # one sentence, no traceback: nbgrader logs one for any Exception of a step
        if why:
            self.log.warning("GRADING WITHOUT A SANDBOX: the students' code runs as you, with your files (%s)", why)
        info = resources.get("nbgrader", {})
        notebook = info.get("notebook") or resources.get("unique_key", "")
        options = Options(
            cell_seconds=self.timeout,
            notebook_seconds=self.notebook_timeout,
            unsafe=bool(why),
            hidden=tuple(_secrets(resources)),
            limits=Limits(memory=self.memory, cpu=self.cpu),
            seeds=SeedBook(Path.cwd() / self.seeds_file),
            submission=f"{info.get('student', '')}/{info.get('assignment', '')}",
        )
        cells = [dict(cell) for cell in nb.cells]
        for cell, outputs in zip(nb.cells, judge_cells(cells, notebook, options), strict=True):
            if cell.cell_type == "code":
                cell.outputs = [nbformat.from_dict(o) for o in outputs]  # type: ignore[no-untyped-call]
                cell.execution_count = None
        return nb, resources


def refusal(why: str) -> str:
    """Return the one sentence autograde says when it refuses to grade without a sandbox (`why`: what is missing)."""
    return (
        f"autograde refuses to run students' code without a sandbox: {why}; install it, or, only for code you trust, "
        "pass --Judge.unsafe_without_sandbox=True (the code then runs as you, with your files)."
    )


def _undo(resources: dict[str, Any]) -> None:
    """Remove the submission's folder that autograde began in ``autograded/``, so that the next run grades it.

    (nbgrader skips a submission whose folder there exists; it removes it itself only for an error it catches.)
    """
    info, where = resources.get("nbgrader", {}), resources.get("metadata", {}).get("path")
    if not where:
        return
    folder = Path(where)
    if folder.parent.parent.name == "autograded" and folder.parts[-2:] == (info.get("student"), info.get("assignment")):
        shutil.rmtree(folder, ignore_errors=True)


def _secrets(resources: dict[str, Any]) -> list[Path]:
    """Return what the sandbox must hide even inside a folder it shows: the course folder, the gradebook."""
    found = [Path.cwd()]
    db = str(resources.get("nbgrader", {}).get("db_url", ""))
    if db.startswith("sqlite:///"):
        found.append(Path(db.removeprefix("sqlite:///")))
    where = resources.get("metadata", {}).get("path")
    if where:
        found.append(Path(where))
    repository = Path(__file__).resolve().parent.parent
    found += [repository / "grading", repository / "exercises"]
    return [p for p in found if os.path.exists(p)]


def autograde_steps() -> list[type]:
    """Return nbgrader's own autograde steps with `Judge` in the place of ``Execute``."""
    from nbgrader.converters import Autograde  # type: ignore[import-untyped]
    from nbgrader.preprocessors import Execute  # type: ignore[import-untyped]

    steps: list[type] = list(Autograde.class_traits()["autograde_preprocessors"].make_dynamic_default())
    return [Judge if step is Execute else step for step in steps]
