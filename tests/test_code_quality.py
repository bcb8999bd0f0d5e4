"""The code itself: ruff's lint and format rules, and mypy --strict on the package and the tests.

pyproject.toml configures all three. They run here so that `make test` (and so CI) keeps
them: a student reading `ra_core` should find the same style and fully typed code everywhere.
The notebooks are left out on purpose: their cells are laid out for reading in class.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYTHON_SOURCES = ["ra_core", "ra_course", "ra_classroom", "grading", "tests", "benchmarks", "tools"]


def run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `python -m tool args` at the repository root, skipping if the dev extra is not installed."""
    pytest.importorskip(tool, reason=f"{tool} comes with the dev extra: pip install -e '.[dev]'")
    return subprocess.run([sys.executable, "-m", tool, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_ruff_lint_is_clean() -> None:
    """ruff check: pyflakes, pycodestyle, import order, bugbear, pyupgrade, simplify and docstring rules."""
    result = run("ruff", "check", "--no-cache", *PYTHON_SOURCES)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    """ruff format --check: one layout everywhere (run `ruff format` to fix)."""
    result = run("ruff", "format", "--check", "--no-cache", *PYTHON_SOURCES)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_the_package_and_the_tests(tmp_path: Path) -> None:
    """mypy --strict (configured in pyproject.toml) on ra_core, ra_classroom and tests: all typed and checked."""
    result = run("mypy", "--cache-dir", str(tmp_path / "mypy-cache"))
    assert result.returncode == 0, result.stdout + result.stderr
