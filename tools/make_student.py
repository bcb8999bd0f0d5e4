"""Make the student versions of the exercise notebooks: solutions replaced by stubs, then run.

    python tools/make_student.py            # exercises/source/*.ipynb -> exercises/release/*.ipynb
    python tools/make_student.py --check    # exit 1 if a release notebook is not up to date
    python tools/make_student.py --no-execute exercises/source/02_ras_auction.ipynb

This does what nbgrader's ``generate_assignment`` does to the cells, without needing nbgrader:

* in a solution cell, every region from a ``### BEGIN SOLUTION`` line to its ``### END SOLUTION``
  line becomes ``# YOUR CODE HERE`` / ``raise NotImplementedError()`` at the marker's indent; a
  solution cell without markers becomes that stub (a markdown one: ``YOUR ANSWER HERE``);
* regions from ``### BEGIN HIDDEN TESTS`` to ``### END HIDDEN TESTS`` are removed from grade cells;
* as nbgrader's ``LockCells``: grade and locked cells become read-only and undeletable, solution
  cells undeletable (``editable``/``deletable`` false);
* markers outside the cells nbgrader allows them in are an error, as in nbgrader.

The release notebooks are then executed (unless ``--no-execute``) so that they are committed
with the outputs a student sees on a first run: every check reports "not attempted yet".
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
from pathlib import Path
from typing import Any

import nbformat

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "exercises" / "source"
RELEASE = ROOT / "exercises" / "release"

CODE_STUB = ["# YOUR CODE HERE", "raise NotImplementedError()"]
TEXT_STUB = ["YOUR ANSWER HERE"]
BEGIN_SOLUTION, END_SOLUTION = "BEGIN SOLUTION", "END SOLUTION"
BEGIN_HIDDEN, END_HIDDEN = "BEGIN HIDDEN TESTS", "END HIDDEN TESTS"


def _grading(cell: Any) -> dict[str, Any]:
    meta: dict[str, Any] = cell.get("metadata", {}).get("nbgrader", {})
    return meta


def _replace_regions(source: str, begin: str, end: str, stub: list[str] | None, where: str) -> tuple[str, bool]:
    """Return `source` with each begin/end region replaced by `stub` (or removed), and whether one was found."""
    out: list[str] = []
    inside = found = False
    for line in source.split("\n"):
        if begin in line:
            if inside:
                raise ValueError(f"{where}: a {begin!r} inside another one")
            inside = found = True
            if stub is not None:
                indent = re.match(r"\s*", line).group(0)  # type: ignore[union-attr]
                out.extend(indent + s for s in stub)
        elif end in line:
            if not inside:
                raise ValueError(f"{where}: {end!r} without {begin!r}")
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise ValueError(f"{where}: {begin!r} without {end!r}")
    return "\n".join(out), found


def student_version(nb: Any, name: str = "notebook") -> Any:
    """Return a copy of the notebook `nb` as students get it: no solutions, no hidden tests, no outputs."""
    out = copy.deepcopy(nb)
    for i, cell in enumerate(out.cells):
        where = f"{name}, cell {i + 1}"
        meta = _grading(cell)
        solution, grade = meta.get("solution", False), meta.get("grade", False)
        stub = CODE_STUB if cell.cell_type == "code" else TEXT_STUB
        source, replaced = _replace_regions(cell.source, BEGIN_SOLUTION, END_SOLUTION, stub, where)
        if replaced and not solution:
            raise ValueError(f"{where}: solution markers in a cell that is not a solution cell")
        if solution and not replaced:
            source = "\n".join(stub)
        source, hidden = _replace_regions(source, BEGIN_HIDDEN, END_HIDDEN, None, where)
        if hidden and not grade:
            raise ValueError(f"{where}: hidden-test markers in a cell that is not a grade cell")
        cell.source = source
        if solution:  # nbgrader's LockCells: answers stay editable, every graded cell stays put
            cell.metadata["deletable"] = False
        elif grade or meta.get("locked", False):
            cell.metadata["editable"] = False
            cell.metadata["deletable"] = False
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
            cell.metadata.pop("execution", None)
    return out


def comparable(nb: Any) -> list[tuple[str, str, dict[str, Any]]]:
    """Return what must agree between a generated and a committed release: cell types, sources, metadata."""
    cells = []
    for cell in nb.cells:
        meta = {k: v for k, v in cell.get("metadata", {}).items() if k != "execution"}
        cells.append((cell.cell_type, cell.source, meta))
    return cells


def release_path(source: Path) -> Path:
    """Return where the student version of `source` goes."""
    return RELEASE / source.name


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) the student versions; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="source notebooks (default: exercises/source)")
    parser.add_argument("--check", action="store_true", help="only check that the release notebooks are up to date")
    parser.add_argument("--no-execute", action="store_true", help="write the student versions without running them")
    args = parser.parse_args(argv)
    sources = args.notebooks or sorted(SOURCE.glob("*.ipynb"))
    stale = []
    for source in sources:
        nb = nbformat.read(source, as_version=4)
        student = student_version(nb, source.name)
        target = release_path(source)
        if args.check:
            if not target.exists() or comparable(nbformat.read(target, as_version=4)) != comparable(student):
                stale.append(target)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from execute_notebooks import run, save

        if not args.no_execute:
            run(student, target.parent)
        written = save(student, target)  # a release whose text is unchanged is not written again
        print(f"{'wrote' if written else 'unchanged:'} {target.relative_to(ROOT)}")
    for target in stale:
        print(f"{target.relative_to(ROOT)} is not up to date: run `make student`", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
