"""The student bundle (`make student`): everything a student needs, and no solution, hidden test or grading.

The bundle is built from this tree into a temporary folder (tools/student_bundle.py, as `make
student` runs it) and opened as a teacher hands it out, the zip file, with the wheel inside it
opened too. The search (tests/student_files.py) takes what to look for from the source sheets;
a test here shows that it finds all of it in the source sheets themselves. The JupyterLite site
gets the same search in tests/browser/test_lite_site.py.
"""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from .student_files import files_in, files_under, leaks, secrets, wheel_packages

ROOT = Path(__file__).resolve().parent.parent
NAME = "ra-student"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundle's zip file, built from this tree."""
    out = tmp_path_factory.mktemp("bundle")
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "student_bundle.py"), str(out)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return out / f"{NAME}.zip"


def _members(bundle: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(bundle) as archive:
        return {
            name.removeprefix(f"{NAME}/"): archive.read(name) for name in archive.namelist() if not name.endswith("/")
        }


def test_the_bundle_holds_the_notebooks_the_release_sheets_the_rules_and_the_package(bundle: Path) -> None:
    members = _members(bundle)
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    sheets = sorted((ROOT / "exercises" / "release").glob("*.ipynb"))
    (wheel,) = [name for name in members if name.startswith("wheels/")]
    assert re.fullmatch(r"wheels/ra_core-[\w.]+-py3-none-any\.whl", wheel)
    expected = {
        "README.md",
        "docs/rules.md",
        wheel,
        *(f"notebooks/{p.name}" for p in notebooks),
        *(f"exercises/{p.name}" for p in sheets),
    }
    assert set(members) == expected
    committed = {**{f"notebooks/{p.name}": p for p in notebooks}, **{f"exercises/{p.name}": p for p in sheets}}
    for place, path in committed.items():  # the committed files themselves: the release sheets, never the sources
        assert members[place] == path.read_bytes(), place
    readme = members["README.md"].decode()
    assert f'pip install "{wheel}[notebooks]"' in readme
    assert all(f"({place})" in readme for place in expected if place.endswith(".ipynb"))  # a link to each


def test_the_bundle_holds_no_solution_hidden_test_or_grading(bundle: Path) -> None:
    assert leaks(files_in(bundle.name, bundle.read_bytes())) == []
    packages = wheel_packages(files_in(bundle.name, bundle.read_bytes()))
    assert {p for p in packages if not p.endswith(".dist-info")} == {"ra_core", "ra_course"}


def test_the_search_finds_what_it_looks_for(tmp_path: Path) -> None:
    """It finds solution lines, hidden tests and markers in each source sheet, and every key there or in grading/."""
    found = leaks(files_under(ROOT / "exercises" / "source"))
    for sheet in sorted((ROOT / "exercises" / "source").glob("*.ipynb")):
        mine = [line for line in found if line.startswith(f"{sheet.name}:")]
        for kind in ("a line of a solution", "a hidden test", "the marker"):
            assert any(kind in line for line in mine), (sheet.name, kind)
    found += leaks(files_under(ROOT / "grading"))
    keys = {line.split("a hidden answer key ")[1] for line in found if "a hidden answer key" in line}
    assert keys == {f"{key[:12]}..." for key in secrets().keys}
    wheel = tmp_path / "cheat-0.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("grading/__init__.py", "")
        region = secrets().solution_regions[-1]
        archive.writestr("cheat/answers.py", "\n".join(("def f():", *(f"    {line}" for line in region))))
    found = leaks(files_under(tmp_path))
    assert any("grading/" in line for line in found) and any("a whole solution" in line for line in found), found
    assert "grading" in wheel_packages(files_under(tmp_path))


def test_the_bundles_package_works_without_the_repository(bundle: Path, tmp_path: Path) -> None:
    """The wheel alone gives a student's kernel ra_core and the sheets' checks, and no grading package."""
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(tmp_path)
    (wheel,) = (tmp_path / NAME / "wheels").glob("*.whl")
    target = tmp_path / "site-packages"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    code = (
        "import importlib.util, ra_core, ra_course.exercises\n"
        "print(ra_core.__file__)\n"
        "print(importlib.util.find_spec('grading'))\n"
        "ra_course.exercises.sheet('auctions')\n"
    )
    env = {"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    where, grading = done.stdout.splitlines()
    assert Path(where).is_relative_to(target) and grading == "None"


def test_make_student_writes_the_bundle() -> None:
    """`make student` remakes the release sheets, then writes the bundle from them."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\nstudent:", 1)[1].split("\n\n", 1)[0]
    assert recipe.index("tools/make_student.py") < recipe.index("tools/student_bundle.py")
