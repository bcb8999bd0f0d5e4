"""Build the ``ra_core`` wheel from a clean copy of its sources.

    python tools/build_wheel.py [DEST]        (default: dist/)

setuptools builds in the source tree's ``build/`` folder and keeps what it finds there, so a
module that was moved or deleted since the last build would ship again. Building from a copy of
exactly the files the wheel is made of avoids that. Used by ``make lite`` and tests/test_wheel.py.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: What the wheel is built from: the metadata and the package.
SOURCES = ("pyproject.toml", "README.md", "ra_core", "ra_course")


def build_wheel(dest: Path) -> Path:
    """Build the wheel into `dest` from a fresh copy of `SOURCES`; return the wheel's path."""
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "ra-core"
        copy.mkdir()
        for name in SOURCES:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                shutil.copy2(source, copy / name)
        command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(dest), str(copy)]
        subprocess.run(command, check=True, cwd=tmp)
    (wheel,) = dest.glob("ra_core-*.whl")
    return wheel


if __name__ == "__main__":
    print(build_wheel(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT / "dist"))
