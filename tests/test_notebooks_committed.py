"""Notebooks are committed executed and clean, so that nbval's comparison means something."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
NOTEBOOKS = sorted(p for p in (ROOT / "notebooks").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def test_there_are_notebooks() -> None:
    """The teaching notebooks exist (the README's main command opens them)."""
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_executed_and_clean(path: Path) -> None:
    """Every code cell has run in order from a fresh kernel, and no widget state is stored."""
    nb = json.loads(path.read_text())
    assert "widgets" not in nb.get("metadata", {}), "strip metadata.widgets (tools/execute_notebooks.py does)"
    code = [c for c in nb["cells"] if c["cell_type"] == "code" and "".join(c["source"]).strip()]
    counts = [c.get("execution_count") for c in code]
    assert None not in counts, f"{path.name} has unexecuted cells; run tools/execute_notebooks.py"
    assert counts == list(range(1, len(code) + 1)), f"{path.name} was not run top to bottom in one fresh kernel"
