"""Execute notebooks in place so their committed outputs match a fresh run (nbval compares them).

    python tools/execute_notebooks.py notebooks/*.ipynb

A notebook whose outputs come out as committed is left as it is: no run times are recorded (and
the cells' old ones are dropped), consecutive prints are one output as nbval compares them, and
a file is written only when its text changes.

Widget state is stripped from the metadata afterwards: nbval ignores it and it bloats diffs. An
output that holds a widget view and a picture of it (an SVG with its PNG, or HTML) keeps the
picture only: a saved view shows only with its kernel ("Error displaying widget: model not found"
without one), and nbval does not compare views; run, the cell shows the widget again.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def run(nb: Any, folder: Path) -> None:
    """Run every cell of the notebook `nb` from a clean kernel in `folder`, in place."""
    NotebookClient(
        nb,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(folder)}},
        record_timing=False,
        coalesce_streams=True,
    ).execute()
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)  # run times: a fresh run would change the file and nothing else
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW in data and {"text/html", "image/svg+xml"} & set(data):
                del data[WIDGET_VIEW]


def save(nb: Any, path: Path) -> bool:
    """Write `nb` to `path` unless the file already holds exactly that text; return whether it was written."""
    text = nbformat.writes(nb)
    text += "" if text.endswith("\n") else "\n"  # as nbformat.write ends a file
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True


def execute(path: Path) -> None:
    """Run every cell of the notebook at `path` from a clean kernel and save it (if anything changed)."""
    nb = nbformat.read(path, as_version=4)
    run(nb, path.parent)
    print(f"executed {path}{'' if save(nb, path) else ' (unchanged)'}")


if __name__ == "__main__":
    for name in sys.argv[1:]:
        execute(Path(name))
