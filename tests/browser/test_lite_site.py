"""The JupyterLite site (`make lite`), with no internet: its play notebook runs in chromium.

The site is built from the tree (tools/build_lite.py), served from a local port by
``python -m http.server``, and opened in Debian's chromium with every host name but 127.0.0.1
unresolvable, so nothing can come from the internet. The test runs the play notebook's cells in
the Pyodide kernel (the runtime, the kernel's wheels, ipywidgets and ``ra_core`` all come from
the site), compares every printed output with the same cells run here in CPython, clicks through
several moves and checks the board against the engine after each. The notebook's last cell plots
the game's fame with `ra_core.pictures.plots`: the kernel has no matplotlib loaded (Pyodide's own
distribution holds it, not npm or PyPI), so the plot is drawn by the standard library's SVG charts,
the same bytes as the chart drawn here with matplotlib switched off, and no request leaves the
machine at all. A site built with that distribution at hand (``RA_PYODIDE_PACKAGES``, see
tools/build_lite.py) also carries matplotlib and its dependencies, checked by hash, for a
student's own plots; the notebook's plot loads none of it.

The site is a student's: it opens on its landing page (``README.md``: what is where, how to hand a
sheet in, that the work lives in the browser's storage), keeps the notebooks and the sheets in
folders of their own, carries only the students' JupyterLab extensions (no nbgrader menu or
panel, no Voila preview), logs no error in the browser's console, and holds no solution, hidden
test or grading package (the search of tests/student_files.py, over every file of the site and
every wheel in it).

The build fetches the npm package ``pyodide`` (npm) and the wheels (pip, PyPI) into
``.cache/lite/`` once. Without chromium, playwright or npm the tests fail under CI (``CI`` set)
and are skipped elsewhere. On failure a screenshot is saved next to this file.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jupyterlite_pyodide_kernel import constants as kernel  # type: ignore[import-untyped]
from test_play_in_browser import CHROMIUM, FLAGS, _free_port, _play_turns, _serve, screenshot_on_failure, workdir  # type: ignore[import-not-found]  # noqa: F401

from tests.student_files import files_under, leaks, wheel_packages

ROOT = Path(__file__).resolve().parent.parent.parent
NOTEBOOK = ROOT / "notebooks" / "07_play_a_game.ipynb"
RELEASE = sorted((ROOT / "exercises" / "release").glob("*.ipynb"))
#: the JupyterLab extensions of the site: the kernel and the widgets' front ends, nothing of a teacher's
STUDENT_EXTENSIONS = {kernel.PYODIDE_KERNEL_NPM_NAME, "@jupyter-widgets/jupyterlab-manager", "anywidget"}
OFFLINE = [*FLAGS, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]  # no internet, whatever the machine has
PYODIDE = f"static/{kernel.PYODIDE}"
PRELOADED = {"micropip", "piplite", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython", "ra-core", "ipywidgets"}
LAZY = {"numpy", "matplotlib"}  # WebAssembly builds: only on the Pyodide CDN
PLOTS = "ra_core.pictures.plots"  # a cell that imports it returns a picture: compared as SVG
KERNEL_IDLE = """() => {
    const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
    return k && k.status === 'idle';
}"""
# Run one piece of code in the notebook's kernel; return its status and what it printed or raised.
EXECUTE = """async (code) => {
    const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    const future = kernel.requestExecute({code, store_history: false});
    const printed = [];
    future.onIOPub = (msg) => { if (msg.header.msg_type === 'stream') printed.push(msg.content.text); };
    const reply = await future.done;
    return {status: reply.content.status, printed: printed.join(''), error: reply.content.evalue || null};
}"""
CELLS = """() => {
    const cells = window.jupyterapp.shell.currentWidget.content.model.cells;
    const out = [];
    for (let i = 0; i < cells.length; i++) {
        const cell = cells.get(i).toJSON();
        if (cell.cell_type === 'code') out.push({count: cell.execution_count, outputs: cell.outputs});
    }
    return out;
}"""

# The kernel is idle and every code cell ran, or one failed (the cells after it do not run).
DONE = f"""() => {{
    const cells = ({CELLS})();
    const failed = cells.some(c => c.outputs.some(o => o.output_type === 'error'));
    return ({KERNEL_IDLE})() && (failed || cells.every(c => c.count !== null));
}}"""


def _unavailable(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(why)
    pytest.skip(why)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built from this tree; the page may reach the app (``window.jupyterapp``)."""
    cached = (ROOT / ".cache" / "lite" / f"pyodide-{kernel.PYODIDE_VERSION}").is_dir()
    if not cached and shutil.which("npm") is None:
        _unavailable(f"building the site needs npm once, to fetch pyodide@{kernel.PYODIDE_VERSION}")
    out = tmp_path_factory.mktemp("lite") / "site"
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "build_lite.py"), str(out)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"the build failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    config_path = out / "jupyter-lite.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    config["jupyter-config-data"]["exposeAppInBrowser"] = True  # as JupyterLab's --LabApp.expose_app_in_browser
    config_path.write_text(json.dumps(config), encoding="utf-8")
    return out


def _lock(site: Path) -> dict[str, Any]:
    packages: dict[str, Any] = json.loads((site / PYODIDE / "pyodide-lock.json").read_text(encoding="utf-8"))[
        "packages"
    ]
    return packages


def test_the_site_carries_the_runtime_and_the_wheels(site: Path) -> None:
    """Pyodide's runtime and every package loaded at start-up are files of the site, checked by hash."""
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))["jupyter-config-data"]
    settings = config["litePluginSettings"][kernel.PYODIDE_KERNEL_PLUGIN_ID]
    assert settings[kernel.PYODIDE_URL] == f"./{PYODIDE}/{kernel.PYODIDE_MJS}"
    preloaded = set(settings[kernel.LOAD_PYODIDE_OPTIONS][kernel.OPTION_PACKAGES])
    assert preloaded >= PRELOADED
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"):
        assert (site / PYODIDE / name).stat().st_size > 0
    assert f'"{kernel.PYODIDE_VERSION}"' in (site / PYODIDE / "pyodide.mjs").read_text(encoding="utf-8")

    lock = _lock(site)
    closure, todo = set(), list(preloaded)
    while todo:  # what Pyodide loads at start-up: the preloaded packages and their dependencies
        name = todo.pop()
        if name not in closure:
            closure.add(name)
            todo += lock[name]["depends"]
    assert closure >= PRELOADED | {"traitlets", "jupyterlab-widgets", "widgetsnbextension"}
    for name in closure:
        wheel = site / PYODIDE / lock[name]["file_name"]
        assert wheel.name.endswith("-none-any.whl"), name
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == lock[name]["sha256"], name
    cdn = f"{kernel.PYODIDE_CDN_URL}/"
    plots = _bundled(lock)  # matplotlib and what it needs, when the site carries them
    for name in plots:
        wheel = site / PYODIDE / lock[name]["file_name"]
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == lock[name]["sha256"], name
    assert all(lock[name]["file_name"].startswith(cdn) for name in set(lock) - closure - plots)
    assert all(not lock[name]["file_name"].startswith("http") for name in plots)
    assert set(lock) - closure >= LAZY and (not plots or plots >= LAZY)

    index = json.loads((site / "pypi" / "all.json").read_text(encoding="utf-8"))
    assert "ra-core" in index  # `%pip install ra-core` finds it in the site's own index too


def _bundled(lock: dict[str, Any]) -> set[str]:
    """Return matplotlib and what it needs if the site carries them (none if built without Pyodide's distribution)."""
    if lock["matplotlib"]["file_name"].startswith("http"):
        return set()
    found, todo = set(), ["matplotlib"]
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo += lock[name]["depends"]
    return found


def _listing(site: Path, folder: str = "") -> dict[str, str]:
    """The site's contents in `folder`, as its file browser lists them: name -> type."""
    path = site / "api" / "contents" / folder / "all.json"
    return {item["name"]: item["type"] for item in json.loads(path.read_text(encoding="utf-8"))["content"]}


def test_the_site_is_a_students(site: Path) -> None:
    """Notebooks and sheets in folders of their own, a landing page, no teacher's extension, no secret."""
    assert _listing(site) == {
        "README.md": "file",
        "notebooks": "directory",
        "exercises": "directory",
        "docs": "directory",
    }
    teachers = {"teacher"}  # notebook 14 is the teacher's (it needs the classroom extra): not in the site
    notebooks = {
        p.name
        for p in (ROOT / "notebooks").glob("*.ipynb")
        if json.loads(p.read_text(encoding="utf-8"))["metadata"].get("audience") not in teachers
    }
    assert set(_listing(site, "notebooks")) == notebooks and "14_your_class_as_an_experiment.ipynb" not in notebooks
    assert set(_listing(site, "exercises")) == {p.name for p in RELEASE}  # the student versions only
    for sheet in RELEASE:
        assert _same_cells(site / "files" / "exercises" / sheet.name, sheet), sheet.name
    landing = (site / "files" / "README.md").read_text(encoding="utf-8")
    for words in ("## Your work lives in this browser", "clearing the browser's data", "## Handing in a sheet"):
        assert words in landing
    assert all(f"(notebooks/{name})" in landing for name in notebooks)

    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))["jupyter-config-data"]
    assert {e["name"] for e in config["federated_extensions"]} == STUDENT_EXTENSIONS
    shipped = {
        p.parent.relative_to(site / "extensions").as_posix() for p in (site / "extensions").rglob("package.json")
    }
    assert {name for name in shipped if name.count("/") <= 1} == STUDENT_EXTENSIONS
    assert leaks(files_under(site)) == []
    assert {p for p in wheel_packages(files_under(site / "pypi")) if not p.endswith(".dist-info")} == {
        "ra_core",
        "ra_course",
    }


def _same_cells(copy: Path, sheet: Path) -> bool:
    """The site's copy of a sheet has the sheet's cells: the same sources and outputs (the build marks code trusted)."""
    mine, theirs = (json.loads(p.read_text(encoding="utf-8"))["cells"] for p in (copy, sheet))
    strip = [{k: v for k, v in c.items() if k != "metadata"} for c in theirs]
    return [{k: v for k, v in c.items() if k != "metadata"} for c in mine] == strip


@pytest.fixture
def offline_page(workdir: Path, request: pytest.FixtureRequest) -> Iterator[tuple[Any, list[str]]]:  # noqa: F811
    """A chromium page with no internet, and the list of every address it asked for."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=OFFLINE)
        try:
            context = browser.new_context(viewport={"width": 1200, "height": 1600})
            asked: list[str] = []
            context.on("request", lambda r: asked.append(r.url))  # the kernel's worker included
            page = context.new_page()
            page.set_default_timeout(30_000)
            yield page, asked
            screenshot_on_failure(page, request)
        finally:
            browser.close()


def _in_cpython(sources: list[str]) -> tuple[list[str | None], list[str]]:
    """Run the cells here, in one namespace; return what each printed (None: it plots) and the plots' SVG."""
    namespace: dict[str, Any] = {}
    printed: list[str | None] = []
    charts: list[str] = []
    for source in sources:
        if PLOTS in source:
            printed.append(None)
            charts.append(_chart_here(source, namespace))
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(source, "<cell>", "exec"), namespace)
        printed.append(out.getvalue())
    return printed, charts


def _chart_here(source: str, namespace: dict[str, Any]) -> str:
    """Run a plotting cell here as the site's kernel does, without matplotlib; return its picture's SVG."""
    from ra_core.pictures import plots

    tree = ast.parse(source)
    last = tree.body.pop()
    assert isinstance(last, ast.Expr), "a plotting cell ends with the plot"
    drawn_with = plots.MATPLOTLIB
    plots.MATPLOTLIB = False  # the standard library's charts, as in Pyodide without matplotlib
    try:
        exec(compile(tree, "<cell>", "exec"), namespace)
        picture = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
    finally:
        plots.MATPLOTLIB = drawn_with
    return plots.to_svg(picture)


def test_the_play_notebook_runs_in_the_site_offline(
    site: Path,
    workdir: Path,  # noqa: F811
    offline_page: tuple[Any, list[str]],
) -> None:
    """Start the Pyodide kernel from the site alone, run the play notebook, and play four moves."""
    page, asked = offline_page
    port = _free_port()
    origin = f"http://127.0.0.1:{port}/"
    server = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site)]
    with _serve(server, origin, workdir):
        started = time.monotonic()
        page.goto(f"{origin}lab/index.html?path=notebooks/{NOTEBOOK.name}")
        page.get_by_role("heading", name="7. Play a game of Ra").wait_for(timeout=90_000)
        page.wait_for_function(KERNEL_IDLE, timeout=180_000)  # Pyodide and the preloaded wheels, from the site
        print(f"kernel ready in {time.monotonic() - started:.1f} s")
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
        page.wait_for_function(f"() => ({CELLS})().every(c => c.count === null)", timeout=30_000)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.wait_for_function(DONE, timeout=180_000, polling=500)  # every cell ran, or one failed
        print(f"notebook run in {time.monotonic() - started:.1f} s")

        cells = page.evaluate(CELLS)
        sources = ["".join(c["source"]) for c in json.loads(NOTEBOOK.read_text())["cells"] if c["cell_type"] == "code"]
        assert len(cells) == len(sources)
        printed, here = _in_cpython(sources)
        charts = []
        for source, cell, expected in zip(sources, cells, printed, strict=True):
            errors = [o for o in cell["outputs"] if o["output_type"] == "error"]
            assert errors == [], (source, errors)
            if expected is None:  # the plot: an SVG chart, drawn by the standard library in the browser's Python
                data = [o["data"] for o in cell["outputs"] if "image/svg+xml" in o.get("data", {})]
                assert len(data) == 1 and data[0]["text/plain"].startswith("<Chart 'Fame over the game'"), source
                charts.append(data[0]["image/svg+xml"])
                continue
            streams = "".join(o["text"] for o in cell["outputs"] if o["output_type"] == "stream")
            assert streams == expected, source
        assert len(charts) == len(here) == 1
        assert charts[0] == here[0]  # the same bytes as the chart drawn here
        shown = page.locator('.jp-OutputArea-output img[src^="data:image/svg+xml"][src*="Fame%20total%20by%20player"]')
        shown.first.wait_for(state="attached", timeout=30_000)  # JupyterLab shows it as a picture
        assert shown.first.evaluate("(img) => img.decode().then(() => img.naturalWidth)") >= 600
        print(f"the fame chart drawn in the browser: {len(charts[0].encode()):,} bytes of SVG")

        facts = page.evaluate(
            EXECUTE,
            "import sys, pyodide, ra_core\n"
            "print(pyodide.__version__, ra_core.__file__.split('/site-packages/')[0])\n"
            f"print(sorted(m for m in {sorted(LAZY)!r} if m in sys.modules))",
        )
        assert facts["status"] == "ok", facts
        version, where = facts["printed"].splitlines()[0].split()
        assert version == kernel.PYODIDE_VERSION and where.startswith("/lib/python3.")
        assert facts["printed"].splitlines()[1] == "[]"  # no WebAssembly package: the plot needed none

        local = (origin, f"blob:{origin}")  # blob: the widget front end's module, made in the page
        assert [url for url in asked if not url.startswith(local)] == []  # nothing left the machine, plot included

        before_moves = len(asked)
        page.get_by_role("button", name="Draw a tile", exact=True).wait_for(timeout=30_000)
        _play_turns(page, turns=4, step_toggle=False)
        assert [url for url in asked[before_moves:] if not url.startswith(local)] == []  # the game: all from the site


def test_saved_boards_in_the_site_are_pictures(
    site: Path,
    workdir: Path,  # noqa: F811
    offline_page: tuple[Any, list[str]],
) -> None:
    """A notebook opened in the site shows its saved boards as SVG pictures, before any cell runs.

    The site's copies of the notebooks are marked trusted by the build (`build_lite.trusted_copy`),
    so JupyterLab draws each saved board from its SVG (untrusted, it would draw the PNG beside it).
    """
    page, _ = offline_page
    port = _free_port()
    origin = f"http://127.0.0.1:{port}/"
    server = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site)]
    with _serve(server, origin, workdir):
        page.goto(f"{origin}lab/index.html?path=notebooks/02_setup.ipynb")
        page.get_by_role("heading", name="2. Setup: what is in the box").wait_for(timeout=90_000)
        board = page.locator('.jp-OutputArea-output img[src^="data:image/svg+xml"][src*="Ra%20board"]')
        for _ in range(60):  # the notebook draws only the cells near the view: scroll down to the board
            if board.count():
                break
            page.evaluate("() => document.querySelector('.jp-WindowedPanel-outer').scrollBy(0, 600)")
            page.wait_for_timeout(250)
        board.first.wait_for(state="attached", timeout=30_000)
        assert board.first.evaluate("(img) => img.decode().then(() => img.naturalWidth)") >= 700


def test_the_site_opens_on_its_landing_page_without_teacher_tools(
    site: Path,
    workdir: Path,  # noqa: F811
    offline_page: tuple[Any, list[str]],
) -> None:
    """The site's address opens the landing page; a sheet opens with no nbgrader tool; the console stays clean."""
    page, _ = offline_page
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    port = _free_port()
    origin = f"http://127.0.0.1:{port}/"
    server = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site)]
    with _serve(server, origin, workdir):
        page.goto(origin)
        main = page.locator(".jp-RenderedMarkdown")
        main.get_by_role("heading", name="Ra for game theory").wait_for(timeout=90_000)
        main.get_by_role("heading", name="Your work lives in this browser").wait_for()
        assert page.locator("#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current").inner_text().strip() == "README.md"
        menus = page.locator(".lm-MenuBar-content > li").all_inner_texts()
        assert "File" in menus and "Nbgrader" not in menus, menus
        assert page.get_by_text("Create Assignment").count() == 0

        main.get_by_role("link", name="Exercise sheet 1 · Auctions from first principles").click()
        page.get_by_role("heading", name="Exercise sheet 1 · Auctions from first principles").wait_for(timeout=60_000)
        toolbar = page.locator(".jp-NotebookPanel-toolbar").first
        toolbar.wait_for()
        assert "Validate" not in toolbar.inner_text()
        page.wait_for_function(KERNEL_IDLE, timeout=180_000)  # the kernel started: no error on the way
    assert errors == []
