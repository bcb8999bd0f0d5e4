"""The teaching notebooks' Monte Carlo checks hold under other seeds, not only under the stored ones.

Every notebook that checks a simulation against exact values (the bag in 02 and 05, auction
theory and expected value in 08-13) asserts that its simulations agree with them within a stated
tolerance, and that a run with other seeds fails any of its
checks with probability at most 0.1 % (`ra_course.evidence.Checks`). nbval re-runs them with the
stored seeds only. Here each notebook runs again from a fresh kernel with every checked
simulation's seed shifted (the environment variable ``RA_COURSE_RESEED``, read by
``Checks(shift=None)`` and applied by ``Checks.seed``); every assertion must hold again. The
shifts are fixed, so the test is as deterministic as nbval: a failure is a wrong formula, a
wrong check or a rare false alarm, never a flaky run.

Findings about the bots' games are printed, not asserted, so they may differ under other seeds;
the bot games whose outcomes the notebooks assert keep their stored seeds on purpose.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

from ra_course.evidence import RESEED

ROOT = Path(__file__).resolve().parent.parent
RESEEDED = [
    "notebooks/02_setup.ipynb",
    "notebooks/05_disasters.ipynb",
    "notebooks/08_auction_theory.ipynb",
    "notebooks/09_expected_value.ipynb",
    "notebooks/10_first_price_and_reserve_prices.ipynb",
    "notebooks/11_when_revenue_ranking_breaks.ipynb",
    "notebooks/12_all_pay_and_common_values.ipynb",
    "notebooks/13_ra_as_a_dynamic_game.ipynb",
    "notebooks/15_affiliated_values_and_linkage.ipynb",
    "notebooks/16_multi_unit_auctions.ipynb",
    "notebooks/17_sequential_auctions_and_ra_price_path.ipynb",
]
SHIFTS = (1000, 2000)  # two other sets of seeds per notebook
# nbformat carries no annotations; these names give its two calls a type.
read_notebook: Callable[..., Any] = nbformat.read
write_notebook: Callable[..., str] = nbformat.writes


def _text(cell: dict[str, Any]) -> str:
    parts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            parts.append("".join(output["text"]))
        elif "data" in output and "text/plain" in output["data"]:
            parts.append("".join(output["data"]["text/plain"]))
    return "".join(parts)


def _run(path: Path, shift: int, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    monkeypatch.setenv(RESEED, str(shift))
    nb = read_notebook(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    cells: list[dict[str, Any]] = json.loads(write_notebook(nb))["cells"]
    return cells


@pytest.mark.parametrize("name", RESEEDED)
def test_the_checks_hold_under_other_seeds(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = ROOT / name
    stored = [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
    for shift in SHIFTS:
        cells = [c for c in _run(path, shift, monkeypatch) if c["cell_type"] == "code"]  # raises if a cell fails
        assert f"every seed shifted by {shift}" in _text(cells[0]), "cell 1 must print the Checks in force"
        assert "the chance that a run with other seeds fails any of them is at most" in _text(cells[-1])
        changed = [i for i, (old, new) in enumerate(zip(stored, cells, strict=True)) if _text(old) != _text(new)]
        assert len(changed) > 1, f"{name}: the shift {shift} changed no simulation (only cell 1)"
