"""Notebook 14 and the control room's analysis on any session the server can export, not only the samples.

A property test plays sessions on the real server with simulated students over the websocket
(classes of 2 to 200; any mix and count of round kinds, Holt and Laury's lotteries among them, none
of a kind included; practice, cancelled and excluded rounds; students removed or renamed
mid-session; Ra tables only), saves
each session's CSV as the control room does, and runs every code cell of notebook 14 (pointed at
the CSV by ``RA_CLASS_CSV``, as a teacher points it at hers) and every analysis cell of the
control room on it. No cell may raise, and every cell shows something: a cell with nothing to
show says so in a sentence.

One server serves the whole module (a room per session), and the cells run in one IPython shell
in this process (the notebook's own code, run as a kernel runs it: the last expression is
displayed, ``display`` works), so an example costs its rounds and not a kernel's start.
Three sessions like those a live class wrote also run top to bottom: a class of two; three
students with a practice round and first, second and all-pay rounds; Ra tables only.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ra_classroom import Behaviour, ControlRoom
from ra_classroom.teacher.client import TeacherClient
from ra_classroom.teacher.payment import draw_payments
from ra_classroom.teacher.simulate import SimulatedClass
from ra_classroom.web.server import ServerProcess

from .conftest import SECRET

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK_14 = ROOT / "notebooks" / "14_your_class_as_an_experiment.ipynb"
CONTROL_ROOM = ROOT / "notebooks" / "classroom" / "control_room.ipynb"
FAST = Behaviour(think=(0.0, 0.02))


@dataclasses.dataclass(frozen=True)
class Step:
    """One thing the teacher does: open a round of `kind` (to close, cancel or exclude), or act on a student."""

    kind: str  # first, second, allpay, common, ra, lottery; or remove, rename (a student)
    practice: bool = False
    cancel: bool = False
    exclude: bool = False
    group_size: int = 4


def play(url: str, students: int, steps: list[Step], folder: Path, seed: int) -> Path:
    """Play `steps` with `students` simulated students in a new room on the server at `url`; return the CSV saved."""
    teacher = TeacherClient(url, SECRET)
    room = ControlRoom(teacher, teacher.create_room(None, f"any-{seed}"), url, results=folder)
    sim = SimulatedClass(url, room.room, students, seed=seed, behaviour=FAST).start(timeout=120)
    try:
        present = [s.name for s in sim.students]
        for number, step in enumerate(steps):
            if step.kind in ("remove", "rename"):
                if len(present) > 1:
                    who = present.pop(number % len(present))
                    if step.kind == "remove":
                        room.remove(who)
                    else:
                        present.append(f"{who}-{number}")
                        room.rename(who, present[-1])
                continue
            if step.kind == "ra":
                room.open_round("ra", group_size=min(5, max(3, step.group_size)))
                room.wait(timeout=0.5).blocking()  # a few moves, then the teacher closes the tables
                room.close_round()
                continue
            noise = 10.0 if step.kind == "common" else 0.0
            room.open_round(
                step.kind,
                group_size=0 if step.kind == "lottery" else step.group_size,  # a lottery is answered alone
                noise=noise,
                practice=step.practice,
                close_when_done=not step.cancel,
            )
            if step.cancel:
                room.cancel_round()
                continue
            said = room.wait(timeout=30).blocking()
            if "still open" in said:
                room.close_round()
            if step.exclude:
                room.exclude_round(room.status()["round"]["number"])
        out = folder / f"{room.room}.csv"
        out.write_text(teacher.results_csv(room.room), encoding="utf-8")  # as room.save_csv writes it
        return out
    finally:
        sim.stop()


# -- running a notebook's code cells in this process, as a kernel does ----------------------------------------------


@pytest.fixture(scope="module")
def shell() -> Iterator[Any]:
    """An IPython shell in this process, with matplotlib drawing off screen.

    IPython puts its own namespace in ``sys.modules["__main__"]`` (a module with no ``__spec__``); the
    real one goes back afterwards, or a later test that starts processes by spawning them (Dask's
    workers) fails in the same session.
    """
    import matplotlib

    matplotlib.use("Agg")
    from IPython.core.interactiveshell import InteractiveShell

    main = sys.modules["__main__"]
    try:
        yield InteractiveShell.instance()
    finally:
        InteractiveShell.clear_instance()
        sys.modules["__main__"] = main


def run_cells(
    shell: Any, cells: list[str], folder: Path, start: dict[str, Any] | None = None, setup: str = ""
) -> list[str]:
    """Run `setup`, then `cells` one after another, in `folder` in a fresh namespace; return what each cell showed."""
    from IPython.utils.capture import capture_output

    shell.reset(new_session=False)
    shell.user_ns.update(start or {})
    assert shell.run_cell(setup, store_history=False).success
    shown = []
    here = Path.cwd()
    os.chdir(folder)
    try:
        for source in cells:
            with capture_output() as out:
                result = shell.run_cell(source, store_history=False)
            assert result.error_before_exec is None and result.error_in_exec is None, (
                f"{source[:300]}\nraised {result.error_before_exec or result.error_in_exec!r}\n{out.stdout[-2000:]}"
            )
            text = out.stdout + "".join(str(o.data.get("text/plain", "")) for o in out.outputs)
            assert text.strip(), f"this cell showed nothing (a cell with nothing to show says so):\n{source[:300]}"
            shown.append(text)
    finally:
        os.chdir(here)
        import matplotlib.pyplot as plt

        plt.close("all")
    return shown


def notebook_14_cells() -> list[str]:
    cells = nbformat.read(NOTEBOOK_14, as_version=4).cells  # type: ignore[no-untyped-call]
    return [c.source for c in cells if c.cell_type == "code"]


def control_room_analysis_cells() -> tuple[str, list[str]]:
    """The control room's imports, and its cells that read the results (after ``room.results()``, to the Ra tables)."""
    cells = nbformat.read(CONTROL_ROOM, as_version=4).cells  # type: ignore[no-untyped-call]
    begin = next(i for i, c in enumerate(cells) if "results = room.results()" in c.source)
    end = next(i for i, c in enumerate(cells) if c.cell_type == "markdown" and c.source.startswith("## 6."))
    code = [c.source for c in cells[begin + 1 : end] if c.cell_type == "code"]
    imports = next(c.source for c in cells if "from ra_classroom.teacher.analysis import" in c.source)
    return imports.split("room = ControlRoom.start")[0], [c for c in code if "room." not in c]


def check_session(shell: Any, csv: Path) -> None:
    """Run notebook 14 and the control room's analysis on the session saved in `csv`; check its payments."""
    os.environ["RA_CLASS_CSV"] = str(csv)
    try:
        shown = "\n".join(run_cells(shell, notebook_14_cells(), NOTEBOOK_14.parent))
    finally:
        del os.environ["RA_CLASS_CSV"]
    results = pd.read_csv(csv, comment="#")
    bids = results[~results["practice"].astype(bool) & results["bid"].notna()] if len(results) else results
    played = set(bids["kind"])
    assert "Nothing was programmed in these data" in shown
    if "common" not in played:  # a cell with nothing to show says so
        assert "these results have no common-value round with a bid" in shown
    if not played & {"first", "second", "allpay"}:
        assert "these results have no first-price, second-price or all-pay round" in shown
    if "lottery" not in played:
        assert "these results have no lottery round answered" in shown
    setup, cells = control_room_analysis_cells()
    run_cells(shell, cells, csv.parent, {"results": results}, setup)
    pay = draw_payments(results, "RA1", show_up=5)
    paid = results[~results["practice"].astype(bool)] if len(results) else results
    assert sorted(pay["student"]) == sorted(paid["student"].unique())
    assert (pay["payment"] >= 0).all()


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("any-session")
    server = ServerProcess(  # every simulated student comes from this machine's address: no join limit
        str(folder / "classroom.db"), SECRET, log=folder / "server.log", options=["--joins-per-minute", "100000"]
    ).start()
    yield server.url
    server.stop()


ROUND = st.builds(
    Step,
    kind=st.sampled_from(["first", "second", "allpay", "common", "ra", "lottery", "remove", "rename"]),
    practice=st.booleans(),
    cancel=st.sampled_from([False, False, False, True]),
    exclude=st.sampled_from([False, False, False, True]),
    group_size=st.integers(2, 6),
)

CLASS_OF_TWO = [Step("first"), Step("second"), Step("allpay"), Step("first", group_size=4)]
THREE_WITH_PRACTICE = [Step("first", practice=True), Step("first"), Step("second"), Step("allpay")]
RA_ONLY = [Step("ra", group_size=4)]


@pytest.mark.parametrize(
    ("students", "steps"),
    [(2, CLASS_OF_TWO), (3, THREE_WITH_PRACTICE), (4, RA_ONLY)],
    ids=["a class of two", "three, a practice round, first, second, all-pay", "Ra tables only"],
)
def test_a_real_class_like_session_runs_through_notebook_14(
    students: int, steps: list[Step], url: str, shell: Any, tmp_path: Path
) -> None:
    check_session(shell, play(url, students, steps, tmp_path, seed=students))


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(
    students=st.integers(2, 9),
    steps=st.lists(ROUND, max_size=5),
    seed=st.integers(0, 10**6),
)
@example(students=200, steps=[Step("first"), Step("common"), Step("rename"), Step("second", exclude=True)], seed=1)
@example(students=40, steps=[Step("allpay", practice=True), Step("common"), Step("common"), Step("remove")], seed=2)
@example(students=6, steps=[Step("first"), Step("first"), Step("lottery"), Step("rename")], seed=3)
def test_any_session_runs_through_notebook_14_and_the_control_room(
    students: int, steps: list[Step], seed: int, url: str, shell: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("session")
    check_session(shell, play(url, students, steps, folder, seed))
