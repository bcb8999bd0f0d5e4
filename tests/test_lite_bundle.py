"""The JupyterLite build's bundling of the plots' packages (tools/build_lite.py), on a made-up distribution.

Given a folder of Pyodide's distribution, the build copies matplotlib and everything it depends on
in Pyodide's lock into the site, each file checked against the lock's sha256, and the site's lock
names them by their file name (served by the site itself), while every other package keeps its
CDN address. Without the folder, every package keeps its CDN address. A file that is missing or
differs from the lock stops the build. The site's own test (tests/browser/test_lite_site.py)
builds the real site.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import build_lite  # type: ignore[import-not-found]  # noqa: E402

#: A small lock: matplotlib needs numpy and pyparsing; numpy needs nothing; pandas is not a plot's.
DEPENDS = {"matplotlib": ["numpy", "pyparsing"], "numpy": [], "pyparsing": [], "pandas": ["numpy"]}


def _distribution(folder: Path) -> dict[str, Any]:
    """Write a made-up distribution (a wheel per package, a lock) and Pyodide's core files; return the lock."""
    folder.mkdir()
    packages = {}
    for name, depends in DEPENDS.items():
        wheel = folder / f"{name}-1.0-cp314-cp314-pyodide_2026_0_wasm32.whl"
        wheel.write_bytes(f"the wheel of {name}".encode())
        packages[name] = {
            "name": name,
            "version": "1.0",
            "file_name": wheel.name,
            "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
            "depends": depends,
            "imports": [name],
        }
    lock = {"info": {}, "packages": packages}
    (folder / "pyodide-lock.json").write_text(json.dumps(lock))
    for core in build_lite.CORE_FILES:
        (folder / core).write_text(core)
    return lock


def test_the_plots_packages_and_their_dependencies_are_bundled(tmp_path: Path) -> None:
    lock = _distribution(tmp_path / "dist")
    assert build_lite.closure(lock["packages"], ("matplotlib",)) == ["matplotlib", "numpy", "pyparsing"]
    site = tmp_path / "site"
    bundled = build_lite.write_pyodide(site, tmp_path / "dist", {}, tmp_path / "dist")
    assert bundled == ["matplotlib", "numpy", "pyparsing"]
    written = json.loads((site / "pyodide-lock.json").read_text())["packages"]
    for name in bundled:
        assert written[name]["file_name"] == lock["packages"][name]["file_name"]  # served by the site
        assert (site / written[name]["file_name"]).read_bytes() == f"the wheel of {name}".encode()
    assert written["pandas"]["file_name"].startswith("https://")  # not a plot's: on the CDN, lazily


def test_without_a_distribution_every_package_stays_on_the_cdn(tmp_path: Path) -> None:
    _distribution(tmp_path / "dist")
    assert build_lite.write_pyodide(tmp_path / "site", tmp_path / "dist", {}) == []
    written = json.loads((tmp_path / "site" / "pyodide-lock.json").read_text())["packages"]
    assert all(entry["file_name"].startswith(build_lite.kernel.PYODIDE_CDN_URL) for entry in written.values())


def test_a_file_that_differs_from_the_lock_stops_the_build(tmp_path: Path) -> None:
    lock = _distribution(tmp_path / "dist")
    (tmp_path / "dist" / lock["packages"]["numpy"]["file_name"]).write_bytes(b"something else")
    with pytest.raises(SystemExit, match="sha256 differs"):
        build_lite.write_pyodide(tmp_path / "site", tmp_path / "dist", {}, tmp_path / "dist")
    (tmp_path / "dist" / lock["packages"]["numpy"]["file_name"]).unlink()
    with pytest.raises(SystemExit, match="is missing"):
        build_lite.write_pyodide(tmp_path / "site2", tmp_path / "dist", {}, tmp_path / "dist")
