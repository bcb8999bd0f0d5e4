"""A click's checks and computations are each made once: counted by the click's trace (`benchmarks/click_trace.py`).

The trace runs one click through the notebook's table and one move through a classroom table
of three students and their three pages, counting every call (`sys.setprofile`). Each check (the
click read, its move parsed, judged) is made once per click, each computation once for what it
serves: a move made, a position drawn (its legal actions, facts and status lines, whatever the
number of seats), a seat's page (what differs per seat). Counts, not times.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def click_trace() -> ModuleType:
    spec = importlib.util.spec_from_file_location("click_trace", ROOT / "benchmarks" / "click_trace.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _over(rows: list[tuple[object, int | None, int, int]]) -> list[str]:
    """Return the rows whose computation ran more often than its unit asks (or not at all where it should run)."""
    wrong = []
    for row, _, calls, want in rows:
        at_most = row.per.endswith("at most")  # type: ignore[attr-defined]
        if calls > want or (not at_most and calls != want):
            wrong.append(f"{row.what} ({row.function}): {calls} calls, {want} per {row.per}")  # type: ignore[attr-defined]
    return wrong


@pytest.mark.parametrize(("seed", "action"), [(2, "draw"), (2, "ra"), (5, "draw")])
def test_a_notebook_click_checks_and_computes_each_thing_once(click_trace: ModuleType, seed: int, action: str) -> None:
    t = click_trace.trace_click(seed, action)
    assert t["units"]["click"] == 1 and t["units"]["board drawn"] == 1 and t["units"]["move made"] >= 1
    assert _over(t["rows"]) == []
    before = {row.function: early for row, early, _, _ in t["rows"]}
    assert before["table.judge.controls"] == 0, "the click is judged against the board as drawn, not worked out again"
    assert before["engine.state.State.legal_actions"] == 0


def test_a_classroom_move_checks_and_computes_each_thing_once_for_all_the_seats(click_trace: ModuleType) -> None:
    t = click_trace.trace_classroom_move()
    units = t["units"]
    assert units["seat's page"] == 3 and units["position drawn"] == 1 and units["move made"] >= 1
    assert _over(t["rows"]) == []
    calls = {row.function: n for row, _, n, _ in t["rows"]}
    # the judge's board is the clicker's as his page drew it: three boards' controls, one list of legal actions
    assert calls["ra_core.table.judge.controls"] == 3
    assert calls["ra_core.engine.state.State.legal_actions"] == 1
    assert calls["ra_core.pictures.portrait._other"] < 6, "another player's block is drawn once for the seats alike"
