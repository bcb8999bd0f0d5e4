"""The board, an explorer and the game table follow JupyterLab's dark and light themes, in chromium.

JupyterLab starts with its dark theme (set in the user settings, as a student would), runs a
small notebook that shows a board (a `State`), the disaster explorer and the game table, and
the test reads the computed colours: dark paper and light words in the dark theme, then, after
switching to the light theme, light paper and dark words. Tiles keep their own colours.

Without chromium or playwright the test is skipped (it fails under CI), as the play tests are.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from test_play_in_browser import BIN, _free_port, _serve, lab_command, open_in_lab, page, workdir  # type: ignore[import-not-found]  # noqa: F401

CELLS = [
    "from ra_core.play import play as play_game\nfrom ra_core.bots import heuristic_bot\n"
    "state = list(play_game([heuristic_bot] * 3, seed=3).states())[200]\n"
    "from ra_core.pictures.svg import html\nhtml(state)",  # the board with its text twin, as a page shows it
    "from ra_core.widgets import disaster_explorer\ndisaster_explorer()",
    "from ra_core.widgets import play\nplay(players=3, you=0, seed=2)",
]

#: The computed colours, as [r, g, b] lists: the board's paper and title, a panel, a tile's fill,
#: in the notebook's board and in the game table, and a count under the disaster explorer's tiles.
_COLOURS = """() => {
    const rgb = (node, prop) => getComputedStyle(node)[prop].match(/[\\d.]+/g).slice(0, 3).map(Number);
    const boards = [...document.querySelectorAll('.jp-OutputArea-output svg.ra-svg[aria-label="Ra board"]')];
    const notebook = boards.find((b) => !b.closest('.ra-table-board'));
    const table = document.querySelector('.ra-table-board svg');
    const explorer = 'svg[aria-label="the tiles this disaster can take"]';
    const count = document.querySelector(`${explorer} text[fill="currentColor"]`);
    const parts = (svg) => ({
        paper: rgb(svg.querySelector('.ra-paper'), 'fill'),
        ink: rgb(svg.querySelector(':scope > text'), 'fill'),
        panel: rgb(svg.querySelector('.ra-panel'), 'fill'),
        tile: rgb(svg.querySelector('g[role="img"] polygon, g[role="img"] rect'), 'fill'),
    });
    return {notebook: parts(notebook), table: parts(table), count: rgb(count, 'fill')};
}"""


def _light(rgb: list[float]) -> float:
    """Return a colour's lightness in [0, 1] (the mean of its channels, enough to tell dark from light)."""
    return sum(rgb) / 765


def _check(colours: dict[str, Any], dark: bool) -> None:
    for where in ("notebook", "table"):
        c = colours[where]
        paper, ink, panel = _light(c["paper"]), _light(c["ink"]), _light(c["panel"])
        if dark:
            assert paper < 0.3 and panel < 0.4 and ink > 0.8, (where, c)
        else:
            assert paper > 0.85 and panel > 0.85 and ink < 0.2, (where, c)
        assert _light(c["tile"]) > 0.15, (where, c)  # tiles keep their colours
    assert (_light(colours["count"]) > 0.8) == dark, colours["count"]


def test_board_explorer_and_table_follow_the_dark_and_the_light_theme(workdir: Path, page: Any) -> None:  # noqa: F811
    """In JupyterLab Dark the boards' paper is dark and their words light; in JupyterLab Light, the reverse."""
    cells: list[dict[str, Any]] = [
        {"cell_type": "code", "metadata": {}, "source": c, "outputs": [], "execution_count": None} for c in CELLS
    ]
    kernel = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook = {"cells": cells, "metadata": {"kernelspec": kernel}, "nbformat": 4, "nbformat_minor": 5}
    (workdir / "theme.ipynb").write_text(json.dumps(notebook))
    themes = workdir / "settings" / "@jupyterlab" / "apputils-extension" / "themes.jupyterlab-settings"
    themes.write_text(json.dumps({"theme": "JupyterLab Dark"}))
    port = _free_port()
    cmd = lab_command(port, workdir)
    with _serve(cmd, f"http://127.0.0.1:{port}/api/status", workdir):
        open_in_lab(page, port, "theme.ipynb")
        assert page.evaluate("() => document.body.dataset.jpThemeLight") == "false"
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.get_by_role("button", name="Draw a tile", exact=True).wait_for(timeout=60_000)
        page.locator('svg[aria-label="the tiles this disaster can take"]').wait_for()
        _check(page.evaluate(_COLOURS), dark=True)
        page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'})")
        page.wait_for_function("() => document.body.dataset.jpThemeLight === 'true'", timeout=30_000)
        _check(page.evaluate(_COLOURS), dark=False)


def _lab_trust_command() -> list[str]:
    """Return the `jupyter trust` command of the Makefile's ``lab`` recipe, with the venv's own jupyter."""
    makefile = Path(__file__).resolve().parents[2] / "Makefile"
    recipe = makefile.read_text().split("\nlab:", 1)[1].split("\n\n", 1)[0]
    line = next(ln.strip() for ln in recipe.splitlines() if "jupyter trust" in ln)
    return [str(BIN / "jupyter"), *line.split("jupyter", 1)[1].split()]


def test_saved_boards_are_pictures_after_make_lab_trusts_them(
    workdir: Path,  # noqa: F811
    page: Any,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`make lab` trusts the notebooks: their saved boards then show as their SVG picture (in the board's own
    light colours, as a plot's), not bare text; the notebook is opened without running a cell.
    """
    root = Path(__file__).resolve().parents[2]
    (workdir / "notebooks").mkdir()
    shutil.copy(root / "notebooks" / "02_setup.ipynb", workdir / "notebooks" / "02_setup.ipynb")
    themes = workdir / "settings" / "@jupyterlab" / "apputils-extension" / "themes.jupyterlab-settings"
    themes.write_text(json.dumps({"theme": "JupyterLab Dark"}))
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(workdir / "data"))  # a trust database of its own
    jupyter, verb, *globs = _lab_trust_command()  # the recipe's globs, as make's shell expands them here
    files = [str(f) for g in globs for f in sorted(workdir.glob(g))]
    assert files == [str(workdir / "notebooks" / "02_setup.ipynb")]
    subprocess.run([jupyter, verb, *files], check=True, capture_output=True)
    port = _free_port()
    cmd = lab_command(port, workdir)
    with _serve(cmd, f"http://127.0.0.1:{port}/api/status", workdir):
        open_in_lab(page, port, "notebooks/02_setup.ipynb")
        board = '.jp-OutputArea-output img[src^="data:image/svg+xml"]'
        for _ in range(60):  # the notebook draws only the cells near the view: scroll down to the board
            if page.locator(board).count() >= 2:  # the bag's plot, then the board
                break
            page.evaluate("() => document.querySelector('.jp-WindowedPanel-outer').scrollBy(0, 600)")
            page.wait_for_timeout(250)
        pictures = page.locator(board)
        assert pictures.count() >= 2
        assert "Ra%20board" in (pictures.last.get_attribute("src") or "")  # the saved board, drawn
        assert pictures.last.evaluate("(img) => img.naturalWidth") >= 700
