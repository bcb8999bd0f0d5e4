"""The control room notebook as a rehearsal with a class of 2 and of 3: top to bottom, no traceback.

nbval runs the committed notebook with its twelve simulated students and compares every output;
here the same notebook runs with two and with three, where every group is short and a Ra table
has bots, and every cell must run without an error (the outputs differ, so they are not compared).
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pandas as pd
import pytest
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "classroom" / "control_room.ipynb"


@pytest.mark.parametrize("students", [2, 3])
def test_the_control_room_runs_as_a_rehearsal_with_a_small_class(students: int, tmp_path: Path) -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    cell = next(c for c in nb.cells if "room.rehearse(12," in c.source)
    cell.source = cell.source.replace("room.rehearse(12,", f"room.rehearse({students},")
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    shown = []
    for c in nb.cells:
        for output in c.get("outputs", []):
            assert output["output_type"] != "error", (c.source, output.get("evalue"))
            text = output.get("text") or json.dumps(output.get("data", {}))
            assert "Traceback" not in text, (c.source, text[:2000])
            shown.append(text)
    everything = "\n".join(shown)
    assert f"{students} joined." in everything
    assert f"one group of {students}" in everything  # the note on the short groups
    assert f"{students} students here" in everything and "bots play" in everything
    assert "The results are saved in results/" in everything and (tmp_path / "results").is_dir()
    [payments] = (tmp_path / "results").glob("*-payments.csv")  # each student paid for one round drawn for him
    paid = pd.read_csv(payments)
    assert sorted(paid["name"]) == [f"sim{k + 1:02d}" for k in range(students)] and (paid["payment"] >= 0).all()
    assert "Nothing to show" not in everything  # every round kind of the plan was played
