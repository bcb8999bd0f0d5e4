"""The teacher's pages name only what exists, and tell one story.

TEACHING.md, exercises/TEACHING.md and the README are read as a teacher reads them:

* every relative link leads to a file of the repository, and its ``#anchor`` to a heading there;
* every repository path in backticks exists (outputs under ``build/`` and the course folder's
  own paths are made by the commands the pages give, and tests/test_course_recipe.py and
  tests/test_student_files.py run those);
* every ``make`` target is in the Makefile, every ``nbgrader`` command is one of nbgrader's,
  every ``python -m`` module can be imported, every script and ``.venv/bin`` program exists;
* which notebooks each sheet follows is one mapping: TEACHING.md's table, the "after notebook"
  column of exercises/TEACHING.md and what each sheet says at its top agree, and the course plan
  hands no sheet out before the notebooks it follows;
* the class command for Voila is the README's, and the app deals a fresh game per page load, as
  TEACHING.md says; the wheel a page names is the package's version.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "TEACHING.md", ROOT / "exercises" / "TEACHING.md", ROOT / "README.md"]
TOP = {p.name for p in ROOT.iterdir()} - {".git"}
NOTEBOOK = re.compile(r"\b(0[1-9]|1[0-7])\b")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(doc: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.S)
    return {_slug(m) for m in re.findall(r"^#+ (.+)$", text, flags=re.M)}


def _code(doc: Path) -> list[str]:
    """The text of every code span and code block of `doc`."""
    text = doc.read_text(encoding="utf-8")
    blocks = re.findall(r"```[^\n]*\n(.*?)```", text, flags=re.S)
    spans = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S))
    return blocks + spans


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_leads_somewhere(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        assert file.exists(), f"{doc.relative_to(ROOT)}: a link to {target}, which does not exist"
        if anchor and file.suffix == ".md":
            assert anchor in _anchors(file), f"{doc.relative_to(ROOT)}: a link to {target}: no such heading"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_named_exists(doc: Path) -> None:
    for code in _code(doc):
        for token in re.findall(r"(?<![\w/.~<-])([\w.-]+(?:/[\w.*-]+)+/?)", code):
            first = token.split("/")[0]
            if first not in TOP or first in {"build", ".cache"} or "*" in token:
                continue  # not a repository path, or an output the pages' commands make
            assert (ROOT / token).exists(), f"{doc.relative_to(ROOT)} names {token}, which does not exist"


def _makefile_targets() -> set[str]:
    return set(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(encoding="utf-8"), flags=re.M))


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_command_named_exists(doc: Path) -> None:
    targets = _makefile_targets()
    code = re.sub(r"(^|\s)#.*", "", "\n".join(_code(doc)))  # commands, not the comments beside them
    for target in re.findall(r"\bmake ([a-z][\w-]*)", code):
        assert target in targets, f"{doc.relative_to(ROOT)}: `make {target}` is not a target of the Makefile"
    for module in re.findall(r"python3? -m ([\w.]+)", code):
        if module not in {"venv", "pip", "http.server", "nbgrader", "jupyter"}:
            assert importlib.util.find_spec(module) is not None, f"{doc.relative_to(ROOT)}: no module {module}"
    for script in re.findall(r"python3? ((?:tools|benchmarks|tests)/[\w/]+\.py)", code):
        assert (ROOT / script).is_file(), f"{doc.relative_to(ROOT)}: no script {script}"
    if (ROOT / ".venv" / "bin").is_dir():
        for program in re.findall(r"\.venv/bin/([\w-]+)", code):
            assert (ROOT / ".venv" / "bin" / program).exists(), f"{doc.relative_to(ROOT)}: no .venv/bin/{program}"
    verbs = set(re.findall(r"\bnbgrader ([a-z_]+)", code))
    if verbs:
        nbgrader = pytest.importorskip("nbgrader.apps.nbgraderapp", reason="nbgrader is not installed")
        known = set(nbgrader.NbGraderApp.subcommands) | {"db"}
        assert verbs <= known, f"{doc.relative_to(ROOT)}: not nbgrader commands: {verbs - known}"


def _table(doc: Path, header: str) -> list[list[str]]:
    """The rows of the Markdown table of `doc` whose header line starts with `header`, as cells."""
    lines = doc.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _sheets_follow() -> dict[int, set[str]]:
    """Which notebooks each sheet names at its top: sheet number -> notebook numbers."""
    follows = {}
    for sheet in sorted((ROOT / "exercises" / "release").glob("*.ipynb")):
        cells = json.loads(sheet.read_text(encoding="utf-8"))["cells"]
        top = next("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        follows[int(sheet.name[:2])] = set(re.findall(r"`(\d\d)_\w+`", top))
    return follows


def test_one_mapping_of_sheets_to_notebooks() -> None:
    """TEACHING.md, exercises/TEACHING.md and the sheets themselves say the same."""
    teaching = {int(r[0][0]): set(NOTEBOOK.findall(r[1])) for r in _table(ROOT / "TEACHING.md", "| sheet | follows")}
    exercises = {
        int(r[0].lstrip("[")[0]): set(NOTEBOOK.findall(r[1]))
        for r in _table(ROOT / "exercises" / "TEACHING.md", "| sheet | after notebook")
    }
    assert teaching == exercises == _sheets_follow()


def test_the_course_plan_hands_each_sheet_out_after_its_notebooks() -> None:
    plan = _table(ROOT / "TEACHING.md", "| week | in class")
    first_week: dict[str, int] = {}
    out: dict[int, int] = {}
    for row in plan:
        week = int(row[0])
        for notebook in NOTEBOOK.findall(row[1]):
            first_week.setdefault(notebook, week)
        for sheet in re.findall(r"sheet (\d) out", row[3]):
            out[int(sheet)] = week
    # 14 is the class session of week 9; 15 and 17 are the two more weeks of a twelve-week course
    assert set(first_week) == {f"{n:02d}" for n in (*range(1, 14), 16)}, "every notebook has its week"
    follows = _sheets_follow()
    assert set(out) == set(follows), "every sheet is handed out"
    for sheet, notebooks in follows.items():
        assert all(first_week[n] <= out[sheet] for n in notebooks), (sheet, notebooks, out[sheet])


def test_the_voila_pages_agree_with_the_app() -> None:
    """TEACHING.md's class command is the README's, and the app deals a fresh game per page load."""

    def command(doc: Path) -> str:
        (block,) = [c for c in _code(doc) if "voila notebooks/app/play.ipynb --no-browser" in c]
        start = block.index(".venv/bin/voila notebooks/app/play.ipynb --no-browser")
        return " ".join(block[start:].replace("\\\n", " ").split())

    assert command(ROOT / "TEACHING.md") == command(ROOT / "README.md")
    assert "cull_idle_timeout" in command(ROOT / "TEACHING.md")
    assert ".venv/bin/voila notebooks/app/play.ipynb" in (ROOT / "Makefile").read_text(encoding="utf-8").replace(
        "$(BIN)", ".venv/bin"
    )
    app = json.loads((ROOT / "notebooks" / "app" / "play.ipynb").read_text(encoding="utf-8"))
    code = "".join("".join(c["source"]) for c in app["cells"] if c["cell_type"] == "code")
    said = re.search(r"the app calls `(play\([^`]*\))`", (ROOT / "TEACHING.md").read_text(encoding="utf-8"))
    assert said is not None and said.group(1) in code and "seed=None" in said.group(1)


def test_the_wheel_named_is_the_one_built() -> None:
    """A page that names the package's wheel names this version of it (tools/build_wheel.py builds it)."""
    import tomllib

    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    for doc in DOCS:
        for named in re.findall(r"ra_core-([\w.]+)-py3-none-any\.whl", doc.read_text(encoding="utf-8")):
            assert named == version, f"{doc.relative_to(ROOT)} names ra_core {named}, the package is {version}"


def test_no_page_is_unfinished() -> None:
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        assert not re.search(r"PLACEHOLDER|\bTODO\b|\bTBD\b|\bXXX\b", text), doc.name
