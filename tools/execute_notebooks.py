"""Execute notebooks in place so their committed outputs match a fresh run (nbval compares them).

    python tools/execute_notebooks.py notebooks/*.ipynb

Widget state and the cells' run times are stripped from the metadata afterwards: nbval ignores them,
and they would change a committed file whose outputs did not. An output that holds a widget view
and a picture of it (an SVG with its PNG, or HTML) keeps the picture only: a saved view shows only
with its kernel ("Error displaying widget: model not found" without one), and nbval does not
compare views; run, the cell shows the widget again.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def execute(path: Path) -> None:
    """Run every cell of the notebook at `path` from a clean kernel and save it."""
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)  # run times: a fresh run would change the file and nothing else
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW in data and {"text/html", "image/svg+xml"} & set(data):
                del data[WIDGET_VIEW]
    nbformat.write(nb, path)
    print(f"executed {path}")


if __name__ == "__main__":
    for name in sys.argv[1:]:
        execute(Path(name))
