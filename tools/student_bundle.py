"""Write the student bundle: what a teacher hands out, and nothing a student must not see.

    python tools/student_bundle.py [OUT]        (make student runs it; OUT defaults to build/student)

Writes ``OUT/ra-student/`` and the same as ``OUT/ra-student.zip``:

* ``README.md``: how to install, open and hand in (the student's first page);
* ``notebooks/``: the teaching notebooks 01-13, as committed (executed);
* ``exercises/``: the student versions of the five sheets (``exercises/release``: no solutions,
  no hidden tests);
* ``docs/rules.md``: the rules of record the notebooks cite;
* ``wheels/``: the package (``ra_core`` with the course's checks, ``ra_course``), built from this tree.

Never in it: ``exercises/source`` (the solutions) and ``grading/`` (the hidden tests' data); the
wheel holds neither (tools/build_wheel.py builds it from ``ra_core`` and ``ra_course`` alone).
The JupyterLite site (tools/build_lite.py) carries the same notebooks, sheets and rules, so a
student finds the same folders in both.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from build_wheel import build_wheel  # tools/, beside this script

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "student"
NAME = "ra-student"
#: the rules document the notebooks cite, at the same place relative to them as in the repository
RULES = Path("docs") / "rules.md"


def student_files() -> dict[Path, Path]:
    """Return the files a student gets, by their place in the bundle (and the site): place -> source."""
    files = {Path("notebooks") / p.name: p for p in sorted((ROOT / "notebooks").glob("*.ipynb"))}
    files |= {Path("exercises") / p.name: p for p in sorted((ROOT / "exercises" / "release").glob("*.ipynb"))}
    files[RULES] = ROOT / RULES
    return files


def title(notebook: Path) -> str:
    """Return the first heading of `notebook`, without its ``#`` marks."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    first = next("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return first.splitlines()[0].lstrip("#").strip()


def contents_list(files: dict[Path, Path]) -> str:
    """Return the Markdown list of the notebooks and sheets in `files`: their titles, linked to them."""
    lines = []
    for folder, heading in (("notebooks", "The notebooks, in order"), ("exercises", "The exercise sheets")):
        lines += [f"**{heading}** (`{folder}/`):", ""]
        lines += [
            f"* [{title(source)}]({place.as_posix()})" for place, source in files.items() if place.parts[0] == folder
        ]
        lines.append("")
    return "\n".join(lines)


HAND_IN = """\
## Handing in a sheet

Save the sheet (Ctrl+S), then hand in the `.ipynb` file itself where your teacher asks (the
course's learning platform, usually), **under its own name**, e.g.
`01_auctions_from_first_principles.ipynb`: the teacher's grading finds the sheet by its file name.
Each sheet checks every task as you go (✔, or what is wrong and a hint); your teacher's grading
runs the same checks and more, on cases you do not see, so make your functions work for any input.
"""

README = """\
# Ra for game theory: your folder

Notebooks that teach game theory through Reiner Knizia's auction game Ra, and the exercise
sheets your teacher grades. Everything runs on your computer, in JupyterLab.

{contents}
[`docs/rules.md`](docs/rules.md) holds the rules of Ra that the notebooks cite by number (R1, R2, ...).

## Set up once

You need Python 3.11 or newer. In a terminal, in this folder:

```sh
python3 -m venv .venv
.venv/bin/python -m pip install "wheels/{wheel}[notebooks]"
.venv/bin/jupyter trust notebooks/*.ipynb exercises/*.ipynb
```

On Windows (PowerShell), the same with `py` and `.venv\\Scripts`:

```
py -m venv .venv
.venv\\Scripts\\python -m pip install "wheels\\{wheel}[notebooks]"
```

The `trust` line lets JupyterLab show the saved pictures of the boards before you run a notebook
(on Windows, run the notebook instead).

## Every time

```sh
.venv/bin/jupyter lab
```

(Windows: `.venv\\Scripts\\jupyter lab`.) Start with `notebooks/01_start_here.ipynb`. Run a
notebook from the top (*Run → Run All Cells*); change a seed or a number and run it again.

{hand_in}"""


def write_bundle(out: Path = OUT) -> Path:
    """Write the bundle folder and its zip into `out`; return the zip's path."""
    folder = out / NAME
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    files = student_files()
    for place, source in files.items():
        (folder / place).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, folder / place)
    wheel = build_wheel(folder / "wheels")
    readme = README.format(contents=contents_list(files), wheel=wheel.name, hand_in=HAND_IN)
    (folder / "README.md").write_text(readme, encoding="utf-8")
    archive = Path(shutil.make_archive(str(out / NAME), "zip", root_dir=out, base_dir=NAME))
    size = archive.stat().st_size / 1e6
    print(f"wrote {folder.relative_to(ROOT) if ROOT in folder.parents else folder} and {archive.name} ({size:.1f} MB)")
    return archive


if __name__ == "__main__":
    write_bundle(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else OUT)
