"""How long from a click on the control room's panel to its answer on screen (target: under 300 ms at load <= 2).

    .venv/bin/python benchmarks/control_room_clicks.py [--clicks 30]      # needs chromium and playwright

A classroom server with three students present (real websockets), and JupyterLab in chromium
with the control room's notebook: the panel, an open Ra round. Each click on a panel button is
timed in the page, from the click to the frame after the panel shows Python's answer (the
message line, which names whom the control acted on), in two states of the kernel: free, and
busy with a cell that awaits ``room.wait()``. Beside it, the same controls called in Python
(`Monitor.click`: the control's call to the server and the panel's refresh), which is the
kernel's share; the rest is the browser, JupyterLab's server and the comm messages. Last, how
long the projector's page takes to show a pause or a resume (it polls the server).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "browser")]

from test_control_room_in_browser import CELLS, run_cell, running, soon, write_notebook  # noqa: E402
from test_play_in_browser import CHROMIUM, FLAGS, _free_port, _serve, lab_command, open_in_lab  # noqa: E402

from ra_classroom.store.tokens import new_secret  # noqa: E402
from ra_classroom.teacher.client import TeacherClient  # noqa: E402
from ra_classroom.teacher.control import ControlRoom  # noqa: E402
from ra_classroom.web.server import ServerProcess  # noqa: E402
from tests.classroom.pages import Page  # noqa: E402

#: Timed in the page: click the button, wait until the panel shows the answer to that click, then
#: one frame more (the answer painted); returns milliseconds.
TIMED_CLICK = """async label => {
  const panel = document.querySelector('.ra-panel');
  const button = [...panel.querySelectorAll('button')].find(b => b.textContent === label);
  const begin = performance.now();
  button.click();
  const sent = panel.dataset.sent;
  await new Promise(done => {
    const check = () => panel.dataset.answered === sent ? done() : setTimeout(check, 1);
    check();
  });
  await new Promise(done => requestAnimationFrame(() => done()));
  return performance.now() - begin;
}"""

#: The controls timed, in turn: each one call to the server that names whom it acted on.
CONTROLS = ("Bot plays", "Give back", "Refuse", "Pause", "Resume")


def _summary(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p90 = ms[int(0.9 * (len(ms) - 1))]
    median = statistics.median(ms)
    return f"{name:<34} clicks {len(ms):3d}   median {median:7.1f} ms   p90 {p90:7.1f} ms   max {ms[-1]:7.1f} ms"


def in_python(teacher: TeacherClient, room: str, clicks: int) -> list[float]:
    """Return the time of each control called as the panel calls it, in this process (the kernel's share)."""
    panel = ControlRoom(teacher, room, teacher.url).monitor(every=3600)
    times = []
    try:
        for i in range(clicks):
            control = ("bot", "back", "refuse", "pause", "resume")[i % 5]
            begin = time.perf_counter()
            panel.click(control, student="Ben")
            times.append((time.perf_counter() - begin) * 1000)
    finally:
        panel.stop()
    return times


def in_browser(page: Any, clicks: int) -> list[float]:
    who = page.locator('.ra-panel select[aria-label="Student"]')
    who.select_option("Ben")
    times = []
    for i in range(clicks):
        times.append(float(page.evaluate(TIMED_CLICK, CONTROLS[i % len(CONTROLS)])))
    return times


def on_the_projector(browser: Any, teacher: TeacherClient, clicks: int) -> list[float]:
    """Return how long the projector's page takes to show each pause or resume (a room of its own)."""
    room = teacher.create_room(seed="bench-projector")
    students = [Page(teacher.url) for _ in range(2)]
    times = []
    try:
        for s, name in zip(students, ("Ana", "Ben"), strict=True):
            s.join(room, name)
        teacher.open_round(room, {"kind": "first", "group_size": 2, "seconds": 3600})
        page = browser.new_page()
        page.goto(f"{teacher.url}/projector/{room}#{teacher.secret}")
        page.wait_for_selector("#clock")
        for i in range(clicks):
            time.sleep(0.1 * (i % 7))  # at every phase of the page's polling
            begin = time.perf_counter()
            teacher.control(room, "pause" if i % 2 == 0 else "resume")
            page.locator("#paused").wait_for(state="visible" if i % 2 == 0 else "hidden")
            times.append((time.perf_counter() - begin) * 1000)
    finally:
        for s in students:
            s.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clicks", type=int, default=30, help="clicks timed in each state (default 30)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"load average: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    with tempfile.TemporaryDirectory(prefix="ra-panel-bench-") as tmp:
        folder = Path(tmp)
        server = ServerProcess(str(folder / "class.db"), new_secret(), log=folder / "server.log").start()
        teacher = TeacherClient(server.url, server.secret)
        room = teacher.create_room(seed="bench")
        students = [Page(teacher.url) for _ in range(3)]
        try:
            for s, name in zip(students, ("Ana", "Ben", "Cleo"), strict=True):
                s.join(room, name)
            cells = [CELLS[0], 'room.open_round("ra", group_size=3)', CELLS[2]]
            write_notebook(folder, cells, url=teacher.url, secret=teacher.secret, room=room)
            env_path = os.environ.get("PYTHONPATH", "")
            os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env_path) if p)
            port = _free_port()
            with _serve(lab_command(port, folder), f"http://127.0.0.1:{port}/lab", folder), sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.set_default_timeout(60_000)
                open_in_lab(page, port, "panel.ipynb")
                run_cell(page, 0)
                page.get_by_role("button", name="Bot plays").wait_for(timeout=60_000)
                run_cell(page, 1)
                soon(lambda: (teacher.status(room)["round"] or {}).get("status") == "open", 30)
                soon(lambda: not running(page, 1), 30)
                in_browser(page, 5)  # warm up
                idle = in_browser(page, args.clicks)
                run_cell(page, 2)  # the waiting cell
                soon(lambda: running(page, 2))
                waiting = in_browser(page, args.clicks)
                assert running(page, 2)
                projector = on_the_projector(browser, teacher, args.clicks)
                browser.close()
            python = in_python(teacher, room, args.clicks)
        finally:
            for s in students:
                s.close()
            server.stop()
    print(_summary("browser, kernel free", idle))
    print(_summary("browser, cell awaits room.wait()", waiting))
    print(_summary("Python alone (Monitor.click)", python))
    print(_summary("projector shows a pause or resume", projector))
    print(f"load average: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")


if __name__ == "__main__":
    main()
