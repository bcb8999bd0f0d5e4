"""The play notebook in a real browser: JupyterLab and Voila, Debian's chromium, Playwright.

Each test starts its own server on a free loopback port from a temporary copy of
``notebooks/07_play_a_game.ipynb``, plays turns of the seeded game by clicking on the board
only (the pieces marked with the action they stand for), and checks that the board's text twin
and the log show what the engine (a headless game with the same seed, driven by the same
clicks) says they must. On failure a screenshot is saved next to this file.

Without chromium the tests fail under CI (``CI`` set) and are skipped elsewhere.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ra_core.widgets import TableController

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "07_play_a_game.ipynb"
APP = ROOT / "notebooks" / "app" / "play.ipynb"
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
#: The seed the Voila test plays a whole game with: with `_choose`'s clicks it draws, calls Ra,
#: bids, passes, uses a god on a slot and chooses a disaster's losses (61 decisions).
WHOLE_GAME_SEED = 8
WHOLE_GAME_KINDS = {
    "action:draw",
    "action:ra",
    "action:bid",
    "action:pass",
    "ui:god",
    "action:god",
    "ui:pick",
    "action:discard",
    "ui:dismiss",
}


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


def lab_command(port: int, root: Path) -> list[str]:
    """Return the command serving JupyterLab on `port` over `root`: no token, no news, no update checks."""
    return [
        str(BIN / "jupyter"),
        "lab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        "--LabApp.expose_app_in_browser=True",
        "--ServerApp.open_browser=False",
        f"--ServerApp.root_dir={root}",
        "--allow-root",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]


def open_in_lab(page: Any, port: int, path: str) -> None:
    """Open the notebook at `path` (under the server's root) and wait until its kernel is idle."""
    page.goto(f"http://127.0.0.1:{port}/lab/tree/{path}")
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=60_000)
    page.wait_for_function(
        """() => {
            const w = window.jupyterapp.shell.currentWidget;
            const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
            return k && k.status === 'idle';
        }""",
        timeout=90_000,
    )


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
            screenshot_on_failure(pg, request)
        finally:
            browser.close()


def screenshot_on_failure(page: Any, request: pytest.FixtureRequest) -> None:
    """Save the page's screenshot next to this file if the test that used it failed."""
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        shot = Path(__file__).parent / f"failure-{request.node.name}.png"
        page.screenshot(path=str(shot), full_page=True)
        print(f"screenshot saved: {shot}")


def _keep_screenshot(page: Any, name: str) -> None:
    """Save a screenshot of a passing run into $RA_BROWSER_SHOTS, if set (to look at the app)."""
    folder = os.environ.get("RA_BROWSER_SHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def _headless(seed: int = SEED) -> Any:
    """Return the notebook's game without a browser: its board clicks, with the same seed and bots."""
    from ra_core.widgets import LEVELS
    from ra_core.widgets.board import BoardClicks

    return BoardClicks(TableController(PLAYERS, you=YOU, seed=seed, bots=LEVELS["normal"]))


def _piece(page: Any, kind: str, value: str) -> Any:
    """Return the board's piece that stands for `value` (``data-action`` or ``data-ui``)."""
    return page.locator(f'.ra-table-board [data-{kind}="{value}"]').first


def _play_turns(page: Any, turns: int, step_toggle: bool, seed: int = SEED) -> Counter[str]:
    """Make `turns` decisions by clicking on the board, checking the board and the log after each.

    Each decision is a piece the board offers (`_choose`: an action, or the steps to one: a god
    tile then a slot, the tiles to lose then Confirm); the headless game makes the same clicks.
    When an epoch is scored, its scores must cover the board, a row per player, until
    Continue is clicked. Returns how often each kind of piece was clicked (``action:bid``, ``ui:dismiss``).
    """
    from playwright.sync_api import expect

    facts_list = page.locator(".ra-table .ra-facts").first.locator("li")
    board = _headless(seed)
    c = board.controller
    expect(facts_list).to_have_text(c.facts(), timeout=60_000)
    clicked: Counter[str] = Counter()
    for turn in range(turns):
        if step_toggle and turn in (1, 4):  # three turns with the bots moving one visible step at a time
            page.get_by_role("button", name="Bots: step by step" if turn == 1 else "Bots: at once").click()
        version = c.version
        if turn == 0:
            _stray_click_on_a_sun(page, board)
        if board.scores_due():
            _expect_scores(page, board)
        for _ in range(4):  # an action, or the steps to one
            if c.state.is_terminal() and not board.scores_due():
                break  # the final scores are closed: the game is over
            kind, _, value = _choose(_targets(board.svg()), turn).partition(":")
            clicked[f"{kind}:{value.split()[0]}"] += 1
            _piece(page, kind, value).click()
            assert board.press(**{kind: value}, version=version), c.message
            if c.version != version:
                break
            expect(page.locator(".ra-table-message")).to_have_text(c.message)
            _expect_pieces(page, sorted(_targets(board.svg())))
        c.run_bots()
        expect(facts_list).to_have_text(c.facts(), timeout=30_000)
        expect(page.locator(".ra-table-recent li").last).to_have_text(c.log[-1], timeout=30_000)
        expect(page.locator(".ra-table-status")).to_have_text(board.status())
        if c.state.is_terminal() and not board.scores_due():
            break
    return clicked


def _stray_click_on_a_sun(page: Any, board: Any) -> None:
    """Click another player's sun, which is no choice: the table says why, by the number its piece sends."""
    from playwright.sync_api import expect

    c = board.controller
    other = next(seat for seat in range(PLAYERS) if seat != c.state.to_move)
    sun = c.state.players[other].suns_up[0]
    page.locator(f'.ra-table-board [data-sun="{sun}"]').first.click()
    refused = board.press(label=f"sun {sun}, face up", sun=sun, version=c.version)
    assert not refused and f"sun {sun} is " in refused.text and "not yours" in refused.text, refused.text
    expect(page.locator(".ra-table-message")).to_have_text(c.message)


def _expect_scores(page: Any, board: Any) -> None:
    """Check that the browser shows the last epoch's scores over the board, one row per player."""
    from playwright.sync_api import expect

    from ra_core.pictures.words import player_name, signed
    from ra_core.widgets.overlay import ranking

    c = board.controller
    score = c.state.scores[-1]
    overlay = page.locator(".ra-table-board .ra-overlay")
    expect(overlay).to_be_visible(timeout=30_000)
    title = "Game over" if c.state.is_terminal() else f"Epoch {score.epoch} is scored"
    expect(overlay).to_have_attribute("aria-label", re.compile(title))
    names = c._bot_names()
    over = c.state.is_terminal()
    for i, b in enumerate(score.players):
        net = sum(e.players[i].net for e in c.state.scores) if over else b.net  # the final screen: the whole game
        row = overlay.locator(f'[role="group"][aria-label^="{player_name(i, c.you, names)}: "]')
        ends = re.compile(re.escape(f"net {signed(net)}, fame {b.fame_after}") + "$")
        expect(row).to_have_attribute("aria-label", ends)
        if over:  # and the ranking, with each epoch's points
            place = ("1st", "2nd", "3rd", "4th", "5th")[ranking(c.state).index(i)]
            ranked = overlay.locator(f'[role="group"][aria-label^="{place}: {player_name(i, c.you, names)}, "]')
            expect(ranked).to_have_attribute("aria-label", re.compile(f"fame {b.fame_after}$"))


def _expect_pieces(page: Any, expected: list[str], timeout: float = 15) -> None:
    """Wait until the browser's board offers the pieces `expected` (``action:...``/``ui:...``, sorted)."""
    deadline = time.monotonic() + timeout
    while True:
        shown = sorted(_targets(page.locator(".ra-table-board").first.inner_html()))
        if shown == expected:
            return
        assert time.monotonic() < deadline, f"the board offers {shown}, the engine {expected}"
        time.sleep(0.05)


def _choose(offered: list[str], turn: int) -> str:
    """Return the piece to click: a god or a disaster's choice when there is one, else by turns the
    first or the last piece in order (so draw and bid, then Ra and pass, come up)."""
    for rare in ("ui:dismiss", "action:god", "action:done", "action:discard", "ui:god", "ui:pick"):
        for k in sorted(offered):
            if k.startswith(rare):
                return k
    pieces = sorted(k for k in offered if k.startswith("action:"))
    return pieces[0] if turn % 2 == 0 else pieces[-1]


def _targets(svg: str) -> list[str]:
    """Return what the board's pieces stand for: ``action:...`` or ``ui:...``."""
    import re

    return [f"{k}:{v}" for k, v in re.findall(r'data-(action|ui)="([^"]*)"', svg)]


#: Click one piece of the board (its CSS selector) and resolve, at the first frame after the
#: board was drawn again, with the milliseconds since the click: what a student waits for.
_TIMED_CLICK = """async (selector) => {
    const board = document.querySelector('.ra-table-board');
    const piece = board.querySelector(selector);
    if (!piece) return null;
    const t0 = performance.now();
    const drawn = new Promise((resolve) => {
        const seen = new MutationObserver(() => {
            seen.disconnect();
            requestAnimationFrame(() => resolve(performance.now() - t0));
        });
        seen.observe(board, { childList: true });
    });
    piece.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    return await Promise.race([drawn, new Promise((resolve) => setTimeout(() => resolve(null), 5000))]);
}"""

#: The CSS selectors of the board's pieces (each by its data-action or data-ui).
_PIECES = """(board) => [...board.querySelectorAll('[data-action],[data-ui]')].map((n) =>
    n.hasAttribute('data-action') ? `[data-action="${n.getAttribute('data-action')}"]`
                                  : `[data-ui="${n.getAttribute('data-ui')}"]`)"""


def click_latencies(page: Any, clicks: int, seed: int = 0) -> list[float]:
    """Return the browser's click -> board drawn again time (ms) of `clicks` clicks on random pieces.

    The bots answer at once, so their moves are in the time, as a student sees it. The game
    goes on from where the page is; at its end the clicks stop.
    """
    import random

    rng = random.Random(seed)
    times: list[float] = []
    for _ in range(clicks):
        page.locator(".ra-table:not(.ra-busy)").wait_for()  # the bots' replies are on the board
        pieces = page.locator(".ra-table-board").first.evaluate(_PIECES)
        pieces = [p for p in pieces if "clear" not in p and "unpick" not in p]
        if not pieces:
            break
        ms = page.evaluate(_TIMED_CLICK, pieces[int(rng.random() * len(pieces))])
        if ms is not None:
            times.append(float(ms))
    return times


def _check_dark_theme(page: Any) -> None:
    """Switch JupyterLab to its dark theme: the board's paper turns dark and its words light."""
    page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})")
    page.wait_for_function("() => document.body.dataset.jpThemeLight === 'false'", timeout=30_000)
    paper, ink, tile = page.evaluate(
        """() => {
            const svg = document.querySelector('.ra-table-board svg');
            const style = (node) => getComputedStyle(node);
            return [style(svg.querySelector(':scope > rect')).fill, style(svg.querySelector(':scope > text')).fill,
                    style(svg.querySelector('g[role="img"] circle[fill="#F0E442"]')).fill];
        }"""
    )
    assert (paper, ink, tile) == ("rgb(33, 33, 33)", "rgb(255, 255, 255)", "rgb(240, 228, 66)")  # suns stay yellow
    _keep_screenshot(page, "jupyterlab-dark")


def test_play_notebook_in_jupyterlab(workdir: Path, page: Any) -> None:
    """Open the play notebook in JupyterLab, run it, and play a whole game by clicking on the board.

    The copy plays seed `WHOLE_GAME_SEED` (three turns with the bots going step by step). Then,
    in a new game, random clicks on the board's pieces each draw the board again (how fast is
    measured by ``python benchmarks/widgets.py --browser 100``, not here). Last, the dark theme.
    """
    copy = workdir / NOTEBOOK.name
    copy.write_text(copy.read_text().replace(f"seed={SEED})", f"seed={WHOLE_GAME_SEED})", 1))
    port = _free_port()
    cmd = lab_command(port, workdir)
    with _serve(cmd, f"http://127.0.0.1:{port}/api/status", workdir):
        open_in_lab(page, port, NOTEBOOK.name)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.get_by_role("button", name="Draw a tile", exact=True).wait_for(timeout=60_000)
        clicked = _play_turns(page, turns=100, step_toggle=True, seed=WHOLE_GAME_SEED)
        assert page.locator(".ra-table-status").text_content().startswith("Game over")
        assert set(clicked) >= WHOLE_GAME_KINDS and clicked["ui:dismiss"] == 3, clicked
        _keep_screenshot(page, "jupyterlab")
        page.get_by_role("button", name="New game").click()  # the next seed, for the timed clicks
        page.locator(".ra-table-recent li", has_text=f"New game, seed {WHOLE_GAME_SEED + 1}").wait_for()
        drawn = click_latencies(page, 40)  # a click whose board is not drawn again within 5 s counts none
        assert len(drawn) >= 20, f"{len(drawn)} of 40 clicks drew the board again"
        _check_dark_theme(page)


def test_play_notebook_as_a_voila_app(workdir: Path, page: Any) -> None:
    """`voila notebooks/07_play_a_game.ipynb` serves the game without code: a whole game, by clicks on the board.

    The copy plays seed `WHOLE_GAME_SEED`, whose game brings every kind of decision.
    """
    copy = workdir / NOTEBOOK.name
    copy.write_text(copy.read_text().replace(f"seed={SEED})", f"seed={WHOLE_GAME_SEED})", 1))
    port = _free_port()
    cmd = [
        str(BIN / "voila"),
        NOTEBOOK.name,
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--show_tracebacks=True",
    ]
    with _serve(cmd, f"http://127.0.0.1:{port}/", workdir):
        page.goto(f"http://127.0.0.1:{port}/")
        page.get_by_role("button", name="Draw a tile", exact=True).wait_for(timeout=90_000)
        assert "from ra_core.widgets import play" not in page.content()  # no code shown
        clicked = _play_turns(page, turns=100, step_toggle=False, seed=WHOLE_GAME_SEED)
        assert page.locator(".ra-table-status").text_content().startswith("Game over")
        assert set(clicked) >= WHOLE_GAME_KINDS and clicked["ui:dismiss"] == 3, clicked
        _keep_screenshot(page, "voila")


def test_the_app_shows_only_the_game_and_idle_kernels_are_culled(workdir: Path, page: Any) -> None:
    """The Voila app (notebooks/app/play.ipynb) shows a title, a how-to and the table, no code;
    with the README's culling settings (here with short times) an idle student's kernel is shut down."""
    import psutil  # type: ignore[import-untyped]
    from playwright.sync_api import expect

    shutil.copy(APP, workdir / APP.name)
    port = _free_port()
    cmd = [
        str(BIN / "voila"),
        APP.name,
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--MappingKernelManager.cull_idle_timeout=4",
        "--MappingKernelManager.cull_interval=1",
        "--MappingKernelManager.cull_connected=True",
    ]

    def kernels() -> int:
        return sum(
            1
            for p in psutil.process_iter(["cmdline", "cwd"])
            if "ipykernel_launcher" in " ".join(p.info["cmdline"] or ()) and p.info["cwd"] == str(workdir)
        )

    with _serve(cmd, f"http://127.0.0.1:{port}/", workdir):
        page.goto(f"http://127.0.0.1:{port}/")
        bag = page.locator(".ra-table-board [data-action]").first  # a fresh game: the bag, or a bid if a bot began
        bag.wait_for(timeout=90_000)
        text = page.locator("body").inner_text()
        assert text.lstrip().startswith("Ra") and "Click on the board" in text
        for authoring in ("import", "play(", "Run the cell", "seed=", "ra_core"):
            assert authoring not in text, authoring
        assert page.locator(".jp-CodeCell .jp-InputArea:visible, .cm-editor:visible").count() == 0  # no code shown
        version = page.locator(".ra-table").get_attribute("data-version")
        bag.focus()  # the keyboard reaches every piece: Tab to it, Enter plays it
        page.keyboard.press("Enter")
        expect(page.locator(".ra-table")).not_to_have_attribute("data-version", version or "", timeout=30_000)
        version = page.locator(".ra-table").get_attribute("data-version")
        first = page.locator(".ra-table-board [data-action]").first
        first.focus()
        assert page.evaluate("() => document.activeElement.classList.contains('ra-target')")
        page.keyboard.press(" ")
        expect(page.locator(".ra-table")).not_to_have_attribute("data-version", version or "", timeout=30_000)
        _keep_screenshot(page, "voila-app")
        assert kernels() >= 1  # the page's kernel (Voila may hold a spare one too)
        deadline = time.monotonic() + 60
        while kernels() and time.monotonic() < deadline:  # idle for 4 s: culled, though the tab is open
            time.sleep(1)
        assert kernels() == 0, "the idle kernel was not culled"


def test_the_app_on_a_phone_shows_the_portrait_board(workdir: Path, request: pytest.FixtureRequest) -> None:
    """The Voila app on a 390 x 844 touch phone: the table draws the phone's board, with no sideways scroll,
    every choice 44 x 44 px or more, and words that say "Tap"; a tap plays."""
    from playwright.sync_api import expect, sync_playwright

    shutil.copy(APP, workdir / APP.name)
    port = _free_port()
    cmd = [str(BIN / "voila"), APP.name, "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1"]
    with _serve(cmd, f"http://127.0.0.1:{port}/", workdir), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        try:
            phone = browser.new_context(
                viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, device_scale_factor=2
            )
            page = phone.new_page()
            page.set_default_timeout(30_000)
            page.goto(f"http://127.0.0.1:{port}/")
            board = page.locator(".ra-table-board svg.ra-portrait")
            board.wait_for(timeout=90_000)
            page.locator(".ra-table:not(.ra-busy) .ra-table-board [data-action]").first.wait_for()
            sizes = page.evaluate(
                """() => [...document.querySelectorAll('.ra-table-board [data-action], .ra-table-board [data-ui]')]
                    .map((n) => { const r = n.getBoundingClientRect(); return [r.width, r.height, r.right]; })"""
            )
            assert sizes and all(w >= 44 and h >= 44 and right <= 390 for w, h, right in sizes), sizes
            assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390
            expect(page.locator(".ra-table-status")).to_contain_text("Your move")
            version = page.locator(".ra-table").get_attribute("data-version")
            page.locator(".ra-table-board [data-action]").first.tap()
            expect(page.locator(".ra-table")).not_to_have_attribute("data-version", version or "", timeout=30_000)
            page.locator(".ra-table-board svg").first.tap(position={"x": 200, "y": 100})  # the center sun: no choice
            expect(page.locator(".ra-table-message")).to_contain_text("tap", ignore_case=True)
            _keep_screenshot(page, "voila-phone")
        except Exception:
            page.screenshot(path=str(Path(__file__).parent / f"failure-{request.node.name}.png"), full_page=True)
            raise
        finally:
            browser.close()
