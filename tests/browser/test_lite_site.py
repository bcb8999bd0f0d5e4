"""The JupyterLite site (`make lite`): served from a local port, it opens the play notebook in chromium.

What this proves offline: the site builds from the tree, any static server can host it, and
JupyterLab runs in the browser with the notebooks, the Pyodide kernel and the site's own
``ra_core`` wheel. Running the cells needs the Pyodide runtime, which every JupyterLite site loads
from the Pyodide CDN; this machine's closed network has no CDN, so the kernel is not started here.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

from test_play_in_browser import _free_port, _serve, page, workdir  # type: ignore[import-not-found]  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_lite_site_opens_the_play_notebook(workdir: Path, page: Any) -> None:  # noqa: F811
    site = workdir / "lite"
    subprocess.run([sys.executable, str(ROOT / "tools" / "build_lite.py"), str(site)], check=True, timeout=300)
    port = _free_port()
    server = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site)]
    with _serve(server, f"http://127.0.0.1:{port}/", workdir):
        index = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/pypi/all.json", timeout=10))
        assert "ra-core" in index or "ra_core" in index  # the wheel in the site's own package index
        contents = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/contents/all.json", timeout=10))
        names = {item["name"] for item in contents["content"]}
        assert {"07_play_a_game.ipynb", "01_start_here.ipynb", "04_write_a_bidder.ipynb"} <= names
        page.goto(f"http://127.0.0.1:{port}/lab/index.html?path=07_play_a_game.ipynb")
        page.get_by_role("heading", name="7. Play a game of Ra").wait_for(timeout=90_000)
        page.get_by_text("Python (Pyodide)").first.wait_for(timeout=30_000)  # the notebook's kernel, in the browser
        assert page.get_by_text("from ra_core.widgets import play").count() >= 1
