"""What must never reach a student, and a search for it in the files a student gets.

Shared by tests/test_student_files.py (the student bundle) and tests/browser/test_lite_site.py
(the JupyterLite site). What is searched for comes from the source sheets themselves:

* the code of every solution region (``### BEGIN SOLUTION`` .. ``### END SOLUTION``): in the
  notebooks and pages a student gets, no line of it may appear that the release could not hold,
  i.e. that appears nowhere else in the source sheets or the teaching notebooks (a function's
  signature, a line the text shows, a line a notebook teaches); in the package's wheel, whose
  code may share an idiom with a solution, no solution region may appear whole;
* every line of every hidden test (``### BEGIN HIDDEN TESTS`` .. ``### END HIDDEN TESTS``), and
  every hashed answer key (64 hex digits) in them or in the teacher's ``grading/`` folder;
* the markers themselves, and the teacher's ``grading`` package (a folder or a wheel's top level).

`without_grading` runs a block as a student's kernel would: without the teacher's package.
"""

from __future__ import annotations

import contextlib
import html
import io
import json
import re
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "exercises" / "source").glob("*.ipynb"))
MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
KEY = re.compile(r"\b[0-9a-f]{64}\b")
TEXT = (".ipynb", ".md", ".py", ".json", ".txt", ".html", ".csv", ".cfg", ".toml")


def _cells(notebook: Path) -> list[str]:
    return ["".join(cell["source"]) for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]]


def regions(source: str, begin: str, end: str) -> tuple[list[list[str]], list[str]]:
    """Return the regions of `source` between lines holding `begin` and `end`, and the lines outside them."""
    inside: list[list[str]] = []
    outside: list[str] = []
    current: list[str] | None = None
    for line in source.split("\n"):
        if begin in line:
            current = []
        elif end in line and current is not None:
            inside.append(current)
            current = None
        elif current is not None:
            current.append(line)
        else:
            outside.append(line)
    return inside, outside


def _code(lines: list[str]) -> tuple[str, ...]:
    """The stripped lines of `lines` that are code: neither blank nor a comment."""
    return tuple(s for s in (line.strip() for line in lines) if s and not s.startswith("#"))


@dataclass(frozen=True)
class Secrets:
    """What the source sheets hold that no student file may."""

    solution_regions: tuple[tuple[str, ...], ...]  # each region's code lines
    solution_lines: frozenset[str]  # code lines of solutions that nothing a student may see holds
    hidden_lines: frozenset[str]  # every code line of every hidden test
    keys: frozenset[str]  # the hashed answers of the hidden tests


@cache
def secrets() -> Secrets:
    """Read the secrets out of the source sheets (and what a student may see out of the notebooks)."""
    solution: list[tuple[str, ...]] = []
    hidden: set[str] = set()
    keys: set[str] = set()
    seen: set[str] = set()  # what a student may see: the sheets outside solutions and hidden tests, the notebooks
    for sheet in SOURCES:
        for cell in _cells(sheet):
            found, outside = regions(cell, "BEGIN SOLUTION", "END SOLUTION")
            solution += [_code(region) for region in found]
            tests, outside = regions("\n".join(outside), "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
            for test in tests:
                hidden |= set(_code(test))
                keys |= set(KEY.findall("\n".join(test)))
            seen |= {line.strip() for line in outside}
    for notebook in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        seen |= {line.strip() for cell in _cells(notebook) for line in cell.split("\n")}
    for module in sorted((ROOT / "grading").rglob("*.py")):
        keys |= set(KEY.findall(module.read_text(encoding="utf-8")))
    lines = frozenset(line for region in solution for line in region) - seen
    assert solution and hidden and keys, "no solutions, hidden tests or hashed answers found: nothing to look for"
    return Secrets(tuple(r for r in solution if r), lines, frozenset(hidden), frozenset(keys))


def _files_in_zip(data: bytes, name: str) -> Iterator[tuple[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for member in archive.namelist():
            if not member.endswith("/"):
                yield from files_in(f"{name}!{member}", archive.read(member))


def files_in(name: str, data: bytes) -> Iterator[tuple[str, bytes]]:
    """Yield `name` with its bytes, and, for a zip or a wheel, every file inside it (named ``zip!member``)."""
    yield name, data
    if name.endswith((".zip", ".whl")):
        yield from _files_in_zip(data, name)


def files_under(folder: Path) -> Iterator[tuple[str, bytes]]:
    """Yield every file under `folder` (zips and wheels opened too), named by its path inside `folder`."""
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            yield from files_in(path.relative_to(folder).as_posix(), path.read_bytes())


def leaks(files: Iterator[tuple[str, bytes]], solutions: bool = True) -> list[str]:
    """Return a line for every secret found in `files` (name, bytes): empty when nothing leaks.

    With `solutions` false, solution lines are not looked for (a student's own feedback shows his
    answers, which may well be the solutions); hidden tests, keys, markers and folders still are.
    """
    found: list[str] = []
    s = secrets()
    for name, data in files:
        if "grading" in re.split(r"[/!]", name)[:-1] or "exercises/source/" in name:
            found.append(f"{name}: a file of the teacher's grading/ or exercises/source/")
        if not name.endswith(TEXT):
            continue
        text = data.decode("utf-8", errors="replace")
        if name.endswith(".ipynb"):  # the cells' text, as a reader sees it (JSON escapes undone)
            text = "\n".join(_cells_of(text))
        elif name.endswith(".html"):  # the text a browser shows: code is split into highlighting spans
            text = html.unescape(re.sub(r"<[^>]+>", "", text))
        lines = [line.strip() for line in text.split("\n")]
        present = set(lines)
        found += [f"{name}: the marker {m!r}" for m in MARKERS if m in text]
        found += [f"{name}: a hidden test: {line}" for line in sorted(s.hidden_lines & present)]
        found += [f"{name}: a hidden answer key {key[:12]}..." for key in sorted(s.keys) if key in text]
        if not solutions:
            continue
        if name.endswith(".py") and "!" in name:  # a module of a wheel: only a whole solution counts
            code = _code(lines)
            found += [
                f"{name}: a whole solution: {region[0]} ..."
                for region in s.solution_regions
                if len(region) > 1 and _contains(code, region)
            ]
        else:
            found += [f"{name}: a line of a solution: {line}" for line in sorted(s.solution_lines & present)]
    return found


def _cells_of(notebook_json: str) -> list[str]:
    try:
        cells = json.loads(notebook_json)["cells"]
    except (ValueError, KeyError, TypeError):
        return [notebook_json]
    out = []
    for cell in cells:
        out.append("".join(cell.get("source", "")))
        for output in cell.get("outputs", []):
            out.append("".join(output.get("text", "")))
            out += ["".join(v) if isinstance(v, list) else str(v) for v in output.get("data", {}).values()]
    return out


def _contains(code: tuple[str, ...], region: tuple[str, ...]) -> bool:
    n = len(region)
    return any(code[i : i + n] == region for i in range(len(code) - n + 1))


def wheel_packages(files: Iterator[tuple[str, bytes]]) -> set[str]:
    """Return the top-level names inside every wheel among `files`."""
    return {name.rsplit(".whl!", 1)[1].split("/")[0] for name, _ in files if ".whl!" in name}


@contextlib.contextmanager
def without_grading() -> Iterator[None]:
    """Run the block with the teacher's package out of `sys.modules`, as in a student's kernel."""
    saved = {n: m for n, m in sys.modules.items() if n == "grading" or n.startswith("grading.")}
    for name in saved:
        del sys.modules[name]
    try:
        yield
    finally:
        sys.modules.update(saved)
