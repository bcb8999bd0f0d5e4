"""Build the JupyterLite site: the notebooks and exercise sheets in a browser tab, nothing installed.

    python tools/build_lite.py            (or: make lite)

Writes a static site to build/lite that any static web server can host (GitHub Pages, a
university web space, ``python -m http.server``). The site holds the teaching notebooks, the
student versions of the exercise sheets, and a wheel of ``ra_core`` built from this tree in the
site's own package index: in a notebook, ``%pip install ra-core`` installs it from the site.

What needs the network: the Pyodide runtime and its packages (micropip, ipython, matplotlib,
numpy) come from the Pyodide CDN, as in every JupyterLite site; the site itself and ``ra_core``
come from the host.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "lite"


def main(out: Path = OUT) -> None:
    """Build the wheel and the site into `out`."""
    work = out.parent / f"{out.name}-src"
    shutil.rmtree(work, ignore_errors=True)
    (work / "pypi").mkdir(parents=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(work / "pypi"), str(ROOT)], check=True
    )
    (wheel,) = (work / "pypi").glob("ra_core-*.whl")
    config = {"jupyter-lite-schema-version": 0, "jupyter-config-data": {"appName": "Ra for game theory"}}
    (work / "jupyter-lite.json").write_text(json.dumps(config, indent=1), encoding="utf-8")
    contents = [
        *sorted((ROOT / "notebooks").glob("*.ipynb")),
        *sorted((ROOT / "exercises" / "release").glob("*.ipynb")),
    ]
    command = [sys.executable, "-m", "jupyter", "lite", "build", "--lite-dir", str(work), "--output-dir", str(out)]
    for path in contents:
        command += ["--contents", str(path)]
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run(command, check=True, cwd=work)
    print(f"built {out} with {len(contents)} notebooks and {wheel.name}; serve it with: python -m http.server -d {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else OUT)
