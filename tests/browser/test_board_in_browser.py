"""The board in JupyterLab, in chromium: what you may click is marked without hover, every text reads.

Two notebooks are opened in JupyterLab, in its dark theme and then its light one:

* a notebook of tables set at the positions where the board asks most of a student (a bid with
  the bag and the Ra statue faded, a disaster's losses half chosen, a god chosen, an epoch's
  scores, the final screen), beside a board in a cell and the explorers. With the pointer
  away from the board, each piece you may click carries its frame, drawn and in a colour of
  3:1 or more against what is behind it, and no other piece does; every text on the page's
  outputs has a contrast of 3:1 or more against what is painted behind it (WCAG's ratio);
* the committed play notebooks, opened without running a cell: each saved table is a picture
  of the board, never "Error displaying widget" (notebook 05's disaster explorer included: its
  tiles are in its picture);
* the game tables pass an axe-core audit (WCAG 2.2 A and AA rules), in both themes.

Without chromium or playwright the tests are skipped (they fail under CI), as the play tests are.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest
from test_play_in_browser import (  # type: ignore[import-not-found]
    BIN,
    ROOT,
    _free_port,
    _keep_screenshot,
    _serve,
    lab_command,
    open_in_lab,
    page,  # noqa: F401
    workdir,  # noqa: F401
)

#: The cells: tables at the positions that ask most of the board, then a board and the explorers.
CELLS = [
    """from ra_core.bots import random_bot
from ra_core.engine.actions import UseGod
from ra_core.play import GameRecord, play_game
from ra_core.widgets import auction_explorer, disaster_explorer, play, scoring_calculator


def first(test):
    for seed in range(100):
        record = play_game([random_bot] * 3, seed=seed)
        found = [i for i, s in enumerate(record.states()) if test(s)]
        if found:
            return record, found[0]


def table(record, k, *clicks):
    view = play(players=3, you=[0, 1, 2], seed=record.seed, level="easy")
    view.load(GameRecord(record.rules, record.suns, record.actions[:k], record.seed).to_json())
    for kind, value in clicks:
        view.press(**{kind: value})
    return view


def last_decision(record, before):
    return max(i for i in range(before) if not record.actions[i].startswith("reveal"))""",
    "table(*first(lambda s: s.phase.name == 'BID' and s.auction.high_bidder >= 0))",
    """record, k = first(lambda s: s.phase.name == "DISCARD" and len(s.legal_actions()) >= 3)
losses = list(record.states())[k].legal_actions()
table(record, k, ("ui", f"pick {losses[0].tiles[0].label}"))""",
    "table(*first(lambda s: s.phase.name == 'ACTION' and any(isinstance(a, UseGod) for a in s.legal_actions())), "
    "('ui', 'god'))",
    """record, _ = first(lambda s: True)
epoch_end = next(i for i, s in enumerate(record.states()) if s.scores)
k = last_decision(record, epoch_end)
table(record, k, ("action", record.actions[k]))""",
    """k = last_decision(record, len(record.actions))
table(record, k, ("action", record.actions[k]))""",
    "list(record.states())[150]",
    "disaster_explorer('earthquake', {'pyramid': 2, 'temple': 1, 'sphinx': 1})",
    "auction_explorer()",
    "scoring_calculator(3)",
]

#: The page's checks (their comments say what each one measures); evaluated once, they install
#: ``raOpacity``, ``raContrast``, ``raTextColours`` and ``raMarks`` in the page.
CHECKS = (Path(__file__).with_name("board_checks.js")).read_text()


def _notebook(cells: list[str]) -> dict[str, Any]:
    kernel = {"name": "python3", "display_name": "Python 3", "language": "python"}
    code: list[dict[str, Any]] = [
        {"cell_type": "code", "metadata": {}, "source": c, "outputs": [], "execution_count": None} for c in cells
    ]
    return {"cells": code, "metadata": {"kernelspec": kernel}, "nbformat": 4, "nbformat_minor": 5}


def _settings(folder: Path, theme: str) -> None:
    """Start JupyterLab in `theme`, with every cell of a notebook drawn (no windowing: all outputs are there)."""
    themes = folder / "settings" / "@jupyterlab" / "apputils-extension" / "themes.jupyterlab-settings"
    themes.write_text(json.dumps({"theme": theme}))
    notebook = folder / "settings" / "@jupyterlab" / "notebook-extension"
    notebook.mkdir(parents=True, exist_ok=True)
    (notebook / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))


def _switch(pg: Any, light: bool) -> None:
    name = "JupyterLab Light" if light else "JupyterLab Dark"
    pg.evaluate(f"() => window.jupyterapp.commands.execute('apputils:change-theme', {{theme: '{name}'}})")
    pg.wait_for_function(f"() => document.body.dataset.jpThemeLight === '{str(light).lower()}'", timeout=30_000)


def _texts_below(pg: Any, least: float = 3.0) -> list[dict[str, Any]]:
    """Return the texts of the notebook's outputs whose contrast is below `least`."""
    pg.evaluate(CHECKS)
    found: list[dict[str, Any]] = []
    for output in pg.locator(".jp-OutputArea-output").all():
        output.scroll_into_view_if_needed()
        found += output.evaluate("(root) => window.raTextColours(root)")
    assert len(found) > 300, len(found)  # the boards' words, the explorers' and the tables' lines
    return [t for t in found if t["ratio"] < least]


def _check_marks(pg: Any) -> None:
    """Check, with the pointer away, that each piece you may click is framed (and visibly), and no other."""
    pg.mouse.move(0, 0)
    pg.evaluate(CHECKS)
    marks = pg.evaluate("() => window.raMarks()")
    assert marks["boards"] == 5 and marks["stray"] == 0, marks
    pieces = marks["pieces"]
    kinds = {p["piece"].split()[0] for p in pieces}
    assert {"bid", "pass", "pick", "god", "dismiss"} <= kinds, kinds
    for p in pieces:
        assert p["mark"] and p["drawn"] and p["width"] >= 2.5 and p["ratio"] >= 3.0, p
    faded = pg.evaluate(
        """() => [...document.querySelectorAll('.ra-table-board .ra-fade')].map((n) => {
            const box = n.getBoundingClientRect();
            return window.raContrast(getComputedStyle(n).stroke, n, box.left + 1, box.top + box.height / 2);
        })"""
    )
    print(f"faded bag and statue: contrast {min(faded):.2f} to {max(faded):.2f}")
    assert len(faded) >= 2 and min(faded) >= 3.0, faded  # the bag and the statue when no choice: 3:1 too


def test_pieces_are_framed_without_hover_and_every_text_reads_in_both_themes(workdir: Path, page: Any) -> None:  # noqa: F811
    """Dark theme, then light: the frames of the pieces you may click, and the contrast of every text."""
    (workdir / "board.ipynb").write_text(json.dumps(_notebook(CELLS)))
    _settings(workdir, "JupyterLab Dark")
    port = _free_port()
    with _serve(lab_command(port, workdir), f"http://127.0.0.1:{port}/api/status", workdir):
        open_in_lab(page, port, "board.ipynb")
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.locator(".jp-OutputArea-output table").first.wait_for(timeout=120_000)  # the last cell: the calculator
        page.wait_for_function("() => document.querySelectorAll('.ra-table-board svg').length === 5", timeout=60_000)
        for light in (False, True):
            if light:
                _switch(page, light=True)
            _check_marks(page)
            below = _texts_below(page)
            _keep_screenshot(page, f"board-{'light' if light else 'dark'}")
            assert not below, (("light" if light else "dark"), below)


#: axe-core, the accessibility engine: fetched once with npm (``npm pack``) into the cache, at this version.
AXE_VERSION = "4.14.1"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def axe_source() -> str:
    """Return axe-core's script (``axe.min.js``), fetched once into ``.cache/axe``; skip (fail in CI) without npm."""
    folder: Path = ROOT / ".cache" / "axe" / AXE_VERSION
    script = folder / "package" / "axe.min.js"
    if not script.is_file():
        npm = shutil.which("npm")
        if npm is None:
            why = "the axe audit needs npm once, to fetch axe-core"
            if os.environ.get("CI"):
                pytest.fail(why)
            pytest.skip(why)
        folder.mkdir(parents=True, exist_ok=True)
        packed: str = subprocess.run(
            [str(npm), "pack", f"axe-core@{AXE_VERSION}", "--pack-destination", str(folder), "--loglevel=error"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()[-1]
        with tarfile.open(folder / packed) as tar:
            tar.extract("package/axe.min.js", folder, filter="data")
    return script.read_text(encoding="utf-8")


def _axe(pg: Any, source: str) -> list[dict[str, Any]]:
    """Return axe's WCAG 2.2 A/AA violations in the game tables of the page (rule, impact, nodes)."""
    if not pg.evaluate("() => typeof window.axe === 'object'"):
        pg.evaluate(source)
    found: list[dict[str, Any]] = pg.evaluate(
        """async (tags) => {
            const result = await window.axe.run({include: [['.ra-table']]}, {runOnly: {type: 'tag', values: tags}});
            return result.violations.map((v) => ({rule: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ': ' + n.failureSummary)}));
        }""",
        AXE_TAGS,
    )
    return found


def test_the_game_table_passes_an_axe_audit_in_both_themes(workdir: Path, page: Any) -> None:  # noqa: F811
    """The five tables of `CELLS` (a bid, a disaster's losses half chosen, a god chosen, an epoch's scores, the
    end), in JupyterLab Dark then Light: axe-core finds no violation of WCAG 2.2's A and AA rules in them."""
    source = axe_source()
    (workdir / "board.ipynb").write_text(json.dumps(_notebook(CELLS[:6])))
    _settings(workdir, "JupyterLab Dark")
    port = _free_port()
    with _serve(lab_command(port, workdir), f"http://127.0.0.1:{port}/api/status", workdir):
        open_in_lab(page, port, "board.ipynb")
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.wait_for_function("() => document.querySelectorAll('.ra-table-board svg').length === 5", timeout=120_000)
        for light in (False, True):
            if light:
                _switch(page, light=True)
            tables = page.evaluate("() => document.querySelectorAll('.ra-table').length")
            violations = _axe(page, source)
            print(
                f"axe-core {AXE_VERSION}, {'light' if light else 'dark'}: {tables} tables, {len(violations)} violations"
            )
            assert tables == 5 and not violations, json.dumps(violations, indent=1)


#: The pictures each committed notebook saves: boards (a position, a table, a stepper, an explorer) and plots.
SAVED_PICTURES = {"01_start_here.ipynb": 1, "03_auctions.ipynb": 2, "05_disasters.ipynb": 2, "07_play_a_game.ipynb": 3}


@pytest.mark.parametrize(
    ("name", "trusted"),
    [(name, False) for name in sorted(SAVED_PICTURES)] + [("07_play_a_game.ipynb", True)],
    ids=lambda v: {False: "untrusted", True: "trusted"}.get(v, str(v)[:2]) if isinstance(v, bool) else str(v)[:2],
)
def test_a_saved_notebook_shows_its_boards_and_plots_as_pictures_trusted_or_not(
    workdir: Path,  # noqa: F811
    page: Any,  # noqa: F811
    name: str,
    trusted: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The committed notebook, not run, in a plain JupyterLab: every saved board and plot is drawn as an image.

    Untrusted (a student's plain ``jupyter lab``), JupyterLab draws no SVG and cleans HTML: the
    PNG beside each SVG is drawn. Trusted (``make lab``), the SVG. Never a jumble of words, never
    "Error displaying widget".
    """
    shutil.copy(ROOT / "notebooks" / name, workdir / name)
    _settings(workdir, "JupyterLab Dark")
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(workdir / "data"))  # a trust database of its own
    if trusted:
        subprocess.run([str(BIN / "jupyter"), "trust", str(workdir / name)], check=True, capture_output=True)
    port = _free_port()
    with _serve(lab_command(port, workdir), f"http://127.0.0.1:{port}/api/status", workdir):
        open_in_lab(page, port, name)
        kind = "svg+xml" if trusted else "png"
        images = page.locator(f'.jp-OutputArea-output img[src^="data:image/{kind}"]')
        drawn = (
            "([sel, n]) => [...document.querySelectorAll(sel)].filter((i) => i.complete && i.naturalWidth).length >= n"
        )
        page.wait_for_function(
            drawn,
            arg=[f'.jp-OutputArea-output img[src^="data:image/{kind}"]', SAVED_PICTURES[name]],
            timeout=30_000,
        )
        assert images.count() == SAVED_PICTURES[name]
        widths = images.evaluate_all("(imgs) => imgs.map((i) => i.naturalWidth)")
        assert all(w >= 400 for w in widths), widths  # boards and plots, not icons
        text = page.locator(".jp-Notebook").inner_text()
        assert "Error displaying widget" not in text and "Cannot display an untrusted SVG" not in text
        assert "Ra trackAuction" not in text.replace("\n", "")  # no board's words spilled as text
        _keep_screenshot(page, f"saved-{'trusted' if trusted else 'untrusted'}-{name}")
