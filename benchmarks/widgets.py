"""How long from a click to the updated board, in the play widget (target: median under 50 ms).

    .venv/bin/python benchmarks/widgets.py [--games 20] [--players 3]
    .venv/bin/python benchmarks/widgets.py --browser 100     # clicks timed in JupyterLab (needs chromium)
    .venv/bin/python benchmarks/widgets.py --class 1,4,8     # a class on one machine (needs chromium)

Drives whole games by clicking a random legal button each time, and times every click until the
board, status, buttons and log are rendered again, with the bots' replies made in between but
their thinking time (the time spent inside the policies) left out. Two levels are timed:

* controller: `BoardClicks.press` (the judge of a click, which plays it on the
  `TableController`) plus the pure renderings (`BoardClicks.svg`, `status`, `choices`,
  `log_html`, `scores_html`): what any front end has to compute;
* browser: the play notebook in JupyterLab and chromium; random clicks on the board, each
  timed in the page from the click to the first frame after the board is drawn again (the
  bots' replies are in a second update); target: median under 50 ms, p90 under 100 ms.

* class: N students at once, each in their own browser page of the Voila app
  (notebooks/app/play.ipynb, its own kernel), arriving a second apart and clicking on the board
  with a short pause between clicks; prints the browser's click -> board drawn times at each N,
  the kernels' memory and the slowest page load.

* view: a click message as the board's front end sends it, handled by `TableView` (its
  `TableWidget`), which also sets the widget values (headless: no browser, so the comm
  messages go nowhere). The browser's own share is the `--browser` measure above.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ra_core.widgets import TableController
from ra_core.widgets.board import BoardClicks
from ra_core.widgets.views import TableView


def _summary(name: str, times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p90 = ms[int(0.9 * (len(ms) - 1))]
    return (
        f"{name:<11} clicks {len(ms):5d}   median {statistics.median(ms):6.2f} ms   p90 {p90:6.2f} ms"
        f"   max {ms[-1]:6.2f} ms"
    )


def bench_controller(games: int, players: int) -> list[float]:
    """Return the click-to-rendered-board time of every click in `games` whole games."""
    rng = random.Random(0)
    times = []
    for seed in range(games):
        board = BoardClicks(TableController(players, you=0, seed=seed))
        c = board.controller
        while not c.state.is_terminal():
            if board.scores_due():  # an epoch's scores cover the board: close them
                board.press(ui="dismiss")
            choices = c.choices()
            action = choices[int(rng.random() * len(choices))].action
            bots = c.bot_seconds
            t0 = time.perf_counter()
            board.press(action=action, version=c.version)
            board.svg(), board.status(), c.choices(), c.log_html(), c.scores_html()
            times.append(time.perf_counter() - t0 - (c.bot_seconds - bots))
    return times


def bench_view(games: int, players: int) -> list[float]:
    """Return the time of every click on the board in `games` whole games played through `TableView`."""
    rng = random.Random(1)
    times = []
    for seed in range(games):
        view = TableView(TableController(players, you=0, seed=seed))
        c = view.controller
        while not c.state.is_terminal():
            choices = c.choices()
            action = choices[int(rng.random() * len(choices))].action
            click = {"kind": "click", "action": action, "version": c.version}
            if view.clicks.scores_due():  # an epoch's scores cover the board: close them
                click = {"kind": "click", "ui": "dismiss", "version": c.version}
            bots = c.bot_seconds
            t0 = time.perf_counter()
            view.table._handle_custom_msg(click, [])
            times.append(time.perf_counter() - t0 - (c.bot_seconds - bots))
    return times


#: Seconds between two students opening the app (all in one chromium, which queues page loads
#: to one server beyond six at a time: real students each have their own browser).
STAGGER = 1.0


def bench_class(students: int, clicks: int = 30) -> tuple[list[float], float, float]:
    """Return every click's time (ms) with `students` playing at once in Voila, the kernels' MB each,
    and the slowest page load (s), the students opening the app `STAGGER` seconds apart."""
    import asyncio
    import sys
    import tempfile
    from pathlib import Path

    import psutil
    from playwright.async_api import async_playwright

    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root / "tests" / "browser"))
    from test_play_in_browser import _PIECES, _TIMED_CLICK, BIN, CHROMIUM, FLAGS, _free_port, _serve

    loads: list[float] = []

    async def student(context: object, url: str, seed: int, out: list[float]) -> None:
        rng = random.Random(seed)
        page = await context.new_page()  # type: ignore[attr-defined]
        await asyncio.sleep(seed * STAGGER)  # students arrive a moment apart
        t0 = time.perf_counter()
        await page.goto(url, timeout=600_000)  # Voila runs the notebook in a new kernel per page
        await page.locator(".ra-table-board [data-action]").first.wait_for(timeout=600_000)
        loads.append(time.perf_counter() - t0)
        for _ in range(clicks):
            await page.locator(".ra-table:not(.ra-busy)").wait_for()
            pieces = [p for p in await page.locator(".ra-table-board").evaluate(_PIECES) if "clear" not in p]
            if not pieces:
                break
            ms = await page.evaluate(_TIMED_CLICK, pieces[int(rng.random() * len(pieces))])
            if ms is not None:
                out.append(float(ms))
            await asyncio.sleep(0.3 + rng.random())  # a student looks at the board before the next click

    async def run(url: str) -> list[float]:
        out: list[float] = []
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
            contexts = [await browser.new_context() for _ in range(students)]
            await asyncio.gather(*(student(c, url, i, out) for i, c in enumerate(contexts)))
            await browser.close()
        return out

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        app = root / "notebooks" / "app" / "play.ipynb"
        port = _free_port()
        cmd = [str(BIN / "voila"), str(app), "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1"]
        with _serve(cmd, f"http://127.0.0.1:{port}/", work):
            times = asyncio.run(run(f"http://127.0.0.1:{port}/"))
            kernels = [  # this server's kernels: they run in the app's folder
                p
                for p in psutil.process_iter(["cmdline", "cwd"])
                if "ipykernel_launcher" in " ".join(p.info["cmdline"] or ()) and p.info["cwd"] == str(app.parent)
            ]
            megabytes = sum(p.memory_info().rss for p in kernels) / 2**20 / max(1, len(kernels))
    return times, megabytes, max(loads)


def bench_browser(clicks: int) -> list[float]:
    """Return the browser's click -> board drawn times (ms) of `clicks` random clicks in JupyterLab."""
    import shutil
    import sys
    import tempfile
    from pathlib import Path

    from playwright.sync_api import sync_playwright

    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root / "tests" / "browser"))
    from test_play_in_browser import CHROMIUM, FLAGS, NOTEBOOK, _free_port, _serve, click_latencies, lab_command

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copy(NOTEBOOK, work / NOTEBOOK.name)
        port = _free_port()
        cmd = lab_command(port, work)
        with _serve(cmd, f"http://127.0.0.1:{port}/api/status", work), sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
            page = browser.new_page(viewport={"width": 1200, "height": 1600})
            page.goto(f"http://127.0.0.1:{port}/lab/tree/{NOTEBOOK.name}")
            page.wait_for_function("() => window.jupyterapp !== undefined", timeout=60_000)
            page.wait_for_function(
                "() => { const w = window.jupyterapp.shell.currentWidget; const s = w && w.sessionContext;"
                " return s && s.session && s.session.kernel && s.session.kernel.status === 'idle'; }",
                timeout=90_000,
            )
            page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
            page.locator('.ra-table-board [data-action="draw"]').wait_for(timeout=60_000)
            times: list[float] = []
            while len(times) < clicks:  # a game ends: the next one starts
                times += click_latencies(page, clicks - len(times), seed=len(times))
                page.get_by_role("button", name="New game").click()
                page.locator(".ra-table:not(.ra-busy)").wait_for()
            browser.close()
    return times


def main() -> None:
    """Run the benchmarks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--class", dest="students", default="", help="numbers of students at once, e.g. 1,4,8")
    parser.add_argument("--browser", type=int, default=0, help="clicks to time in JupyterLab and chromium")
    args = parser.parse_args()
    if args.browser:
        times = bench_browser(args.browser)
        print(_summary("browser", [t / 1000 for t in times]) + "   (JupyterLab, click -> board drawn)")
        ms = sorted(times)
        median, p90 = statistics.median(ms), ms[int(0.9 * (len(ms) - 1))]
        met = median < 50 and p90 < 100
        print(f"target: median under 50 ms and p90 under 100 ms -> {'met' if met else 'MISSED'}")
        return
    if args.students:
        for n in (int(x) for x in args.students.split(",")):
            times, megabytes, load = bench_class(n)
            print(
                _summary(f"class of {n}", [t / 1000 for t in times])
                + f"   kernel memory ~{megabytes:.0f} MB each   slowest page load {load:.1f} s",
                flush=True,
            )
        return
    print(f"click -> updated board, {args.games} whole games of {args.players} players, bots' thinking excluded")
    controller = bench_controller(args.games, args.players)
    print(_summary("controller", controller))
    view = bench_view(max(1, args.games // 2), args.players)
    print(_summary("view", view))
    worst = max(statistics.median(controller), statistics.median(view)) * 1000
    print(f"target: median under 50 ms -> {'met' if worst < 50 else 'MISSED'} ({worst:.2f} ms)")


if __name__ == "__main__":
    main()
