"""The package as users get it: a wheel installed in a fresh virtual environment, outside the repository.

Builds the wheel, installs it with the `notebooks` extra into a new venv in a temporary folder,
and from there runs the command line, imports every public module, and executes notebook 01
against the installed package (the repository's `ra_core` cannot be imported by accident:
nothing runs from the repository's folder).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tools.build_wheel import build_wheel

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str | Path, cwd: Path, timeout: int = 900) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    result = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    assert result.returncode == 0, f"{args}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return the python of a fresh venv with the built wheel and its notebooks extra installed."""
    work = tmp_path_factory.mktemp("wheel")
    wheel = build_wheel(work / "dist")
    run(sys.executable, "-m", "venv", work / "venv", cwd=work)
    python = work / "venv" / "bin" / "python"
    run(python, "-m", "pip", "install", "--quiet", f"{wheel}[notebooks]", cwd=work)
    return python


def test_the_command_line_plays_a_game(installed: Path) -> None:
    out = run(installed, "-m", "ra_core", "--players", "3", "--seed", "1", cwd=installed.parent.parent)
    assert "wins" in out.splitlines()[-1] or "wins" in out


def test_every_public_module_imports_from_the_installed_package(installed: Path) -> None:
    code = (
        "import importlib, importlib.util, pkgutil, ra_core, ra_course\n"
        "names = [m.name for m in pkgutil.walk_packages(ra_core.__path__, 'ra_core.') if '__main__' not in m.name]\n"
        "names += [m.name for m in pkgutil.walk_packages(ra_course.__path__, 'ra_course.')]\n"
        "for n in names: importlib.import_module(n)\n"
        "print(ra_core.__file__); print(len(names)); print(importlib.util.find_spec('grading') is None)\n"
    )
    out = run(installed, "-c", code, cwd=installed.parent.parent)
    where, count, no_grading = out.split()
    assert str(ROOT) not in where and "site-packages" in where and int(count) >= 40
    assert no_grading == "True", "the teacher's grading package must never be installed"


def test_notebook_01_runs_against_the_installed_package(installed: Path) -> None:
    work = installed.parent.parent
    notebook = work / "01_start_here.ipynb"
    notebook.write_bytes((ROOT / "notebooks" / "01_start_here.ipynb").read_bytes())
    code = (
        "import nbformat, sys\n"
        "from nbclient import NotebookClient\n"
        "nb = nbformat.read(sys.argv[1], as_version=4)\n"
        "NotebookClient(nb, timeout=300, kernel_name='python3').execute()\n"
        "print(sum(1 for c in nb.cells if c.cell_type == 'code'))\n"
    )
    out = run(installed, "-c", code, notebook, cwd=work)
    assert int(out.split()[-1]) >= 5
