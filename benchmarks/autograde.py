"""How long nbgrader takes to grade a class: seconds per submission of each sheet, and a class of 40.

A course folder is made as a teacher makes it (tools/make_course.py, in a temporary folder: its
autograde runs each submission in the judge's sandbox); each sheet gets `--students`
submissions, the student version with every answer cell filled in from the solutions (the slowest
case: every check and hidden test runs to the end), plus as many blank ones; then `nbgrader
autograde` grades each sheet and is timed, as is `nbgrader generate_feedback`. The last column
is the time for a class of 40 handing in the sheet solved.

    python benchmarks/autograde.py [--students 3] [--sheets 1 4]

Needs the `grading` extra (nbgrader) and bubblewrap. nbgrader grades one submission after another.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLASS = 40
MARKS = {"### BEGIN SOLUTION", "### END SOLUTION"}


def solved(release: Path, source: Path) -> dict[str, object]:
    """Return the student version `release` with the solution of every answer cell from `source`."""
    answers = {
        c["metadata"]["nbgrader"]["grade_id"]: "".join(c["source"])
        for c in json.loads(source.read_text(encoding="utf-8"))["cells"]
        if c["metadata"].get("nbgrader", {}).get("solution")
    }
    nb: dict[str, object] = json.loads(release.read_text(encoding="utf-8"))
    for cell in nb["cells"]:  # type: ignore[attr-defined]
        grade_id = cell["metadata"].get("nbgrader", {}).get("grade_id", "")
        if grade_id in answers:
            cell["source"] = "\n".join(line for line in answers[grade_id].split("\n") if line.strip() not in MARKS)
    return nb


def nbgrader(course: Path, *args: str) -> float:
    """Run one nbgrader command in the course folder; return its seconds."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course, env=env, check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=3, help="solved submissions per sheet, and as many blank")
    parser.add_argument("--sheets", type=int, nargs="*", default=[1, 2, 3, 4, 5], help="the sheets to grade (1-5)")
    args = parser.parse_args()
    print(
        f"nbgrader autograde benchmark: {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores, {args.students} solved and {args.students} blank submissions per sheet"
    )
    with tempfile.TemporaryDirectory() as tmp:
        course = Path(tmp) / "ra-course"
        subprocess.run(
            [sys.executable, str(ROOT / "tools" / "make_course.py"), str(course)], check=True, capture_output=True
        )
        print(f"{'sheet':<8}{'per solved':>12}{'per blank':>11}{'feedback':>10}{'40 solved':>11}")
        for source_dir in sorted((course / "source").iterdir()):
            sheet = source_dir.name
            if int(sheet.removeprefix("sheet")) not in args.sheets:
                continue
            (source,) = source_dir.glob("*.ipynb")
            nbgrader(course, "generate_assignment", sheet)
            release = course / "release" / sheet / source.name
            times = []
            for kind in ("solved", "blank"):
                for k in range(args.students):
                    folder = course / "submitted" / f"{kind}{k}" / sheet
                    folder.mkdir(parents=True)
                    if kind == "solved":
                        (folder / source.name).write_text(json.dumps(solved(release, source)), encoding="utf-8")
                    else:
                        shutil.copy(release, folder / source.name)
                times.append(nbgrader(course, "autograde", sheet) / args.students)
                shutil.rmtree(course / "submitted")
            feedback = nbgrader(course, "generate_feedback", sheet) / (2 * args.students)
            per_solved, per_blank = times
            minutes = CLASS * per_solved / 60
            print(f"{sheet:<8}{per_solved:>11.1f}s{per_blank:>10.1f}s{feedback:>9.1f}s{minutes:>9.1f} min")


if __name__ == "__main__":
    main()
