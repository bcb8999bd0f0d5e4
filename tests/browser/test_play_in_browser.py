"""The play notebook in a real browser: JupyterLab and Voila, Debian's chromium, Playwright.

Each test starts its own server on a free loopback port from a temporary copy of
``notebooks/07_play_a_game.ipynb``, clicks through several turns of the seeded game, and checks
that the board's text twin shows what the engine (a headless `PlayController` with the same
seed) says it must. On failure a screenshot is saved next to this file.

Without chromium the tests fail under CI (``CI`` set) and are skipped elsewhere.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ra_core.render import facts
from ra_core.widgets import PlayController

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "07_play_a_game.ipynb"
CHROMIUM = Path("/usr/bin/chromium")
BIN = Path(sys.executable).parent
FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SEED, PLAYERS, YOU = 2, 3, 0  # as in the notebook's play() call


def _need_browser() -> None:
    """Fail loudly in CI, skip elsewhere, when chromium or playwright is missing."""
    missing = []
    if not CHROMIUM.exists():
        missing.append(f"{CHROMIUM} (apt-get install -y chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the playwright package (pip install playwright)")
    if missing:
        why = "browser test needs " + " and ".join(missing)
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_http(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"server did not answer {url} in {timeout}s:\n{log.read_text()[-3000:]}")


@contextlib.contextmanager
def _serve(cmd: list[str], url: str, workdir: Path) -> Iterator[None]:
    """Run a server in its own process group; stop it (and its kernels) afterwards."""
    log = workdir / "server.log"
    env = {
        **os.environ,
        "JUPYTER_RUNTIME_DIR": str(workdir / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(workdir / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(workdir / "workspaces"),
    }
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=workdir, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait_http(url, proc, log)
        yield
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """A folder with a copy of the play notebook, and JupyterLab's news and update checks off."""
    _need_browser()
    shutil.copy(NOTEBOOK, tmp_path / NOTEBOOK.name)
    settings = tmp_path / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    return tmp_path


@pytest.fixture
def page(workdir: Path, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A chromium page; on failure its screenshot is saved next to this file."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        try:
            pg = browser.new_page(viewport={"width": 1200, "height": 1600})
            pg.set_default_timeout(30_000)
            yield pg
            report = getattr(request.node, "rep_call", None)
            if report is not None and report.failed:
                shot = Path(__file__).parent / f"failure-{request.node.name}.png"
                pg.screenshot(path=str(shot), full_page=True)
                print(f"screenshot saved: {shot}")
        finally:
            browser.close()


def _keep_screenshot(page: Any, name: str) -> None:
    """Save a screenshot of a passing run into $RA_BROWSER_SHOTS, if set (to look at the app)."""
    folder = os.environ.get("RA_BROWSER_SHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def _expected_after(clicks: list[str]) -> list[str]:
    """Return the text twin the engine gives after `clicks` in the notebook's game."""
    c = PlayController(PLAYERS, you=YOU, seed=SEED)
    for action in clicks:
        assert c.click(action), c.message
    return facts(c.state, you=c.you, names=c._bot_names())


def _play_turns(page: Any, turns: int, step_toggle: bool) -> None:
    """Click `turns` buttons (the first legal one each time), checking the board after each."""
    from playwright.sync_api import expect

    facts_list = page.locator(".ra-facts").first.locator("li")  # the play widget is the first board
    expect(facts_list).to_have_text(_expected_after([]), timeout=60_000)
    c = PlayController(PLAYERS, you=YOU, seed=SEED)
    clicks: list[str] = []
    for turn in range(turns):
        if step_toggle and turn == 1:
            page.get_by_role("button", name="Bots: step by step").click()
        choice = c.choices()[0]
        page.get_by_role("button", name=choice.label, exact=True).first.click()
        assert c.click(choice.action), c.message
        clicks.append(choice.action)
        expected = _expected_after(clicks)
        assert expected == facts(c.state, you=c.you, names=c._bot_names())
        expect(facts_list).to_have_text(expected, timeout=30_000)
        last = c.log[-1]
        expect(page.locator(".ra-log").first.locator("li").last).to_have_text(last, timeout=30_000)
        if c.state.is_terminal():
            break


def test_play_notebook_in_jupyterlab(workdir: Path, page: Any) -> None:
    """Open the play notebook in JupyterLab, run it, and play several turns with the mouse."""
    port = _free_port()
    cmd = [
        str(BIN / "jupyter"), "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
        "--IdentityProvider.token=", "--ServerApp.password=", "--LabApp.expose_app_in_browser=True",
        "--ServerApp.open_browser=False", f"--ServerApp.root_dir={workdir}", "--allow-root",
        "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]  # fmt: skip
    with _serve(cmd, f"http://127.0.0.1:{port}/api/status", workdir):
        page.goto(f"http://127.0.0.1:{port}/lab/tree/{NOTEBOOK.name}")
        page.wait_for_function("() => window.jupyterapp !== undefined", timeout=60_000)
        page.wait_for_function(
            """() => {
                const w = window.jupyterapp.shell.currentWidget;
                const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
                return k && k.status === 'idle';
            }""",
            timeout=90_000,
        )
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.get_by_role("button", name="Draw a tile", exact=True).wait_for(timeout=60_000)
        _play_turns(page, turns=5, step_toggle=True)
        _keep_screenshot(page, "jupyterlab")


def test_play_notebook_as_a_voila_app(workdir: Path, page: Any) -> None:
    """`voila notebooks/07_play_a_game.ipynb` serves the game without code; it plays the same."""
    port = _free_port()
    cmd = [
        str(BIN / "voila"), NOTEBOOK.name, "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
        "--show_tracebacks=True",
    ]  # fmt: skip
    with _serve(cmd, f"http://127.0.0.1:{port}/", workdir):
        page.goto(f"http://127.0.0.1:{port}/")
        page.get_by_role("button", name="Draw a tile", exact=True).wait_for(timeout=90_000)
        assert "from ra_core.widgets import play" not in page.content()  # no code shown
        _play_turns(page, turns=3, step_toggle=False)
        _keep_screenshot(page, "voila")
