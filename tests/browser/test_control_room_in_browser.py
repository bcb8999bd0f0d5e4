"""The control room's panel in JupyterLab, in a real browser: its buttons act while a cell waits for the round.

A notebook connects to a classroom server with students present (real websockets), shows the
live panel, opens a round and awaits it (``await room.wait()``). While that cell is still
running:

* the panel's *Pause*, ``+30 s``, *Resume* and *Close now* buttons are clicked, and each takes
  effect on the server at once; the waiting cell then ends by itself, saying that the round is
  closed;
* the Student list is set to Ana, then to Ben (or Cleo), and a control is clicked, twenty times
  in a row: each click acts on the student chosen last and its answer names him; a name typed
  key by key in the new-name box renames the student chosen to the whole name. (With one
  ipywidgets field per control, a field sent only its first change while a cell awaited: *Bot
  plays* acted on the student chosen before, and typing "Gustav" renamed to "G".)

On failure a screenshot is saved next to this file. Without chromium the test fails under CI
(``CI`` set) and is skipped elsewhere.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_play_in_browser import (  # type: ignore[import-not-found]
    CHROMIUM,
    FLAGS,
    _free_port,
    _need_browser,
    _serve,
    lab_command,
    open_in_lab,
)

from ra_classroom.store.tokens import new_secret
from ra_classroom.teacher.client import TeacherClient
from ra_classroom.web.server import ServerProcess
from tests.classroom.pages import Page

CELLS = [
    "from ra_classroom import ControlRoom\n"
    "room = ControlRoom.connect({url!r}, {secret!r}, {room!r})\n"
    "panel = room.monitor(every=0.3)\n"
    "panel",
    'room.open_round("first", group_size=2, seconds=60)',
    "print(await room.wait())",
]


@pytest.fixture
def classroom(tmp_path: Path) -> Iterator[tuple[TeacherClient, str]]:
    _need_browser()
    server = ServerProcess(str(tmp_path / "class.db"), new_secret(), log=tmp_path / "server.log").start()
    teacher = TeacherClient(server.url, server.secret)
    yield teacher, teacher.create_room(seed="panel")
    server.stop()


def run_cell(page: Any, index: int) -> None:
    """Start cell `index` of the open notebook, without waiting for it to finish."""
    page.evaluate(
        """i => { const nb = window.jupyterapp.shell.currentWidget;
                  nb.content.activeCellIndex = i;
                  window.jupyterapp.commands.execute('notebook:run-cell'); }""",
        index,
    )


def running(page: Any, index: int) -> bool:
    """Return whether cell `index` is executing now (its prompt shows ``[*]``)."""
    prompt = page.locator(".jp-Notebook .jp-Cell").nth(index).locator(".jp-InputPrompt").inner_text()
    return "*" in prompt


def soon(check: Callable[[], bool], timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.1)


def write_notebook(folder: Path, cells: list[str], **fill: str) -> None:
    """Write ``panel.ipynb`` in `folder`: the `cells`, with `fill` put into them."""
    code: list[dict[str, Any]] = [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": c.format(**fill)}
        for c in cells
    ]
    notebook = {
        "cells": code,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (folder / "panel.ipynb").write_text(json.dumps(notebook))


@contextlib.contextmanager
def lab_page(folder: Path, request: pytest.FixtureRequest) -> Iterator[Any]:
    """Serve JupyterLab over `folder`, open ``panel.ipynb`` in chromium, yield the page (screenshot on failure)."""
    from playwright.sync_api import sync_playwright

    port = _free_port()
    with _serve(lab_command(port, folder), f"http://127.0.0.1:{port}/lab", folder), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(30_000)
        try:
            open_in_lab(page, port, "panel.ipynb")
            yield page
        except BaseException:
            page.screenshot(path=str(Path(__file__).parent / f"failure-{request.node.name}.png"), full_page=True)
            raise
        finally:
            browser.close()


def panel_click(page: Any, label: str) -> str:
    """Click the panel's button `label`; return the panel's answer to that click (it names whom it acted on)."""
    panel = page.locator(".ra-panel")
    page.get_by_role("button", name=label, exact=True).click()
    sent = panel.get_attribute("data-sent")
    page.wait_for_function(
        "sent => document.querySelector('.ra-panel').dataset.answered === sent", arg=sent, timeout=15_000
    )
    return str(panel.locator(".ra-panel-message").inner_text())


def test_close_pause_and_extend_act_while_the_notebook_waits(
    classroom: tuple[TeacherClient, str], tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    from playwright.sync_api import expect

    teacher, room = classroom
    students = [Page(teacher.url) for _ in range(2)]
    for i, s in enumerate(students):
        s.join(room, f"S{i}")  # present, and never bidding: the round stays open until the teacher acts
    write_notebook(tmp_path, CELLS, url=teacher.url, secret=teacher.secret, room=room)
    try:
        with lab_page(tmp_path, request) as page:
            run_cell(page, 0)
            expect(page.get_by_role("button", name="Close now")).to_be_visible(timeout=60_000)
            run_cell(page, 1)
            soon(lambda: (teacher.status(room)["round"] or {}).get("status") == "open", 30)
            soon(lambda: not running(page, 1), 30)
            run_cell(page, 2)  # the waiting cell
            soon(lambda: running(page, 2))
            page.get_by_role("button", name="Pause").click()
            soon(lambda: teacher.status(room)["round"]["paused"])
            assert running(page, 2)  # the click took effect while the cell waits
            left = teacher.status(room)["round"]["closes_in"]
            page.get_by_role("button", name="+30 s").click()
            soon(lambda: teacher.status(room)["round"]["closes_in"] >= left + 29)
            page.get_by_role("button", name="Resume").click()
            soon(lambda: not teacher.status(room)["round"]["paused"])
            assert running(page, 2)
            expect(page.locator(".jp-Cell").nth(0)).to_contain_text("(open, closes in")  # the panel redraws itself
            page.get_by_role("button", name="Close now").click()
            soon(lambda: teacher.status(room)["round"]["status"] == "closed")
            expect(page.locator(".jp-Cell").nth(2)).to_contain_text("Round 1 (First-price sealed bid): closed")
            soon(lambda: not running(page, 2))  # the waiting cell ended by itself
            expect(page.locator(".jp-Cell").nth(0)).to_contain_text("Round closed (id")
    finally:
        for s in students:
            s.close()


def test_every_click_acts_on_the_student_chosen_then_also_while_a_cell_waits(
    classroom: tuple[TeacherClient, str], tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    from playwright.sync_api import expect

    teacher, room = classroom
    students = [Page(teacher.url) for _ in range(3)]
    for s, name in zip(students, ("Ana", "Ben", "Cleo"), strict=True):
        s.join(room, name)
    cells = [CELLS[0], 'room.open_round("ra", group_size=3)', CELLS[2]]
    write_notebook(tmp_path, cells, url=teacher.url, secret=teacher.secret, room=room)

    def bots() -> set[str]:
        return {p["name"] for p in teacher.status(room)["students"] if p.get("bot")}

    try:
        with lab_page(tmp_path, request) as page:
            run_cell(page, 0)
            expect(page.get_by_role("button", name="Bot plays")).to_be_visible(timeout=60_000)
            run_cell(page, 1)
            soon(lambda: (teacher.status(room)["round"] or {}).get("status") == "open", 30)
            soon(lambda: not running(page, 1), 30)
            run_cell(page, 2)  # the waiting cell
            soon(lambda: running(page, 2))
            who = page.locator('.ra-panel select[aria-label="Student"]')
            for i in range(20):
                chosen = ("Ben", "Cleo")[i % 2]
                who.select_option("Ana")
                who.select_option(chosen)
                assert panel_click(page, "Bot plays") == f"A bot plays for {chosen} until you give the seat back."
                assert bots() == {chosen}, i
                who.select_option("Ana")
                who.select_option(chosen)
                assert panel_click(page, "Refuse") == f"No device is asking for {chosen}'s seat."
                assert panel_click(page, "Give back") == f"{chosen} plays again."
                assert bots() == set(), i
            assert running(page, 2)  # all of it while the cell waits
            who.select_option("Ana")
            who.select_option("Ben")
            page.get_by_placeholder("new name").click()
            page.keyboard.type("Gustav", delay=40)  # key by key, as a teacher types
            assert panel_click(page, "Rename") == "Ben is now Gustav."
            assert who.input_value() == "Gustav"  # the renamed student stays chosen
            who.select_option("Cleo")
            assert panel_click(page, "Remove") == "Cleo is removed."
            people = {p["name"]: bool(p.get("removed")) for p in teacher.status(room)["students"]}
            assert people == {"Ana": False, "Gustav": False, "Cleo": True}
            assert running(page, 2)
            assert panel_click(page, "Close now").startswith("Round closed")
            soon(lambda: not running(page, 2))  # the wait ended; the panel still acts on what is chosen
            who.select_option("Gustav")
            who.select_option("Ana")
            assert panel_click(page, "Bot plays") == "Ana has no seat at an open Ra table: bots play Ra seats only."
    finally:
        for s in students:
            s.close()
