"""How nbgrader reads a check cell's points: from the check's own verdict, never from an output the student's code made.

nbgrader scores a graded code cell from its outputs, in order: the first error (or text on
stderr) gives 0 points; the first ``execute_result`` that reads as a number gives that many
points (partial credit); otherwise the cell earns full points. A check cell calls the student's
function, and that function can print a result of its own before the check fails (for example
``sys.displayhook(4)``): nbgrader would read the 4 first and give full points to a wrong answer.

`OneVerdictPerCheck` runs in autograde after the notebook is executed and before the grades are
saved. In each graded code cell it keeps what the check itself decided:

* if the cell failed (an error, or text on stderr), that failure comes first, so the cell earns 0;
* otherwise only the cell's last ``execute_result`` stays: the value of the check call, the cell's
  last line (the check's "not attempted yet" note reads as 0 points; a passed check has none).

The course's ``nbgrader_config.py`` (made by ``tools/make_course.py``) puts it among the steps
of autograde, right after the notebook is executed: ``c.Autograde.autograde_preprocessors =
autograde_steps()``.
"""

from __future__ import annotations

from typing import Any

from nbconvert.preprocessors import Preprocessor
from nbformat import NotebookNode
from traitlets import Bool

__all__ = ["OneVerdictPerCheck", "autograde_steps", "verdict_outputs"]


def _failed(output: NotebookNode) -> bool:
    return bool(output.output_type == "error" or (output.output_type == "stream" and output.get("name") == "stderr"))


def verdict_outputs(outputs: list[NotebookNode]) -> list[NotebookNode]:
    """Return a graded cell's outputs as the check decided them (see the module docstring)."""
    failures = [o for o in outputs if _failed(o)]
    if failures:
        return [failures[0], *(o for o in outputs if o is not failures[0])]
    results = [o for o in outputs if o.output_type == "execute_result"]
    return [o for o in outputs if o.output_type != "execute_result" or o is results[-1]]


class OneVerdictPerCheck(Preprocessor):
    """Make each graded code cell's outputs say what the check decided, before nbgrader reads its points."""

    enabled = Bool(True).tag(config=True)  # nbconvert's preprocessors are off unless enabled

    def preprocess_cell(
        self, cell: NotebookNode, resources: dict[str, Any], index: int
    ) -> tuple[NotebookNode, dict[str, Any]]:
        """Keep a graded code cell's failure first, or only its last result (see `verdict_outputs`)."""
        if cell.cell_type == "code" and cell.get("metadata", {}).get("nbgrader", {}).get("grade"):
            cell.outputs = verdict_outputs(list(cell.get("outputs", [])))
        return cell, resources


def autograde_steps() -> list[type]:
    """Return nbgrader's own autograde steps with `OneVerdictPerCheck` right after the notebook is executed."""
    from nbgrader.converters import Autograde  # type: ignore[import-untyped]
    from nbgrader.preprocessors import Execute  # type: ignore[import-untyped]

    steps: list[type] = list(Autograde.class_traits()["autograde_preprocessors"].make_dynamic_default())
    return [step for s in steps for step in ((s, OneVerdictPerCheck) if s is Execute else (s,))]
