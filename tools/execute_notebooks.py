"""Execute notebooks in place so their committed outputs match a fresh run (nbval compares them).

    python tools/execute_notebooks.py notebooks/*.ipynb

Widget state is stripped from the metadata afterwards: nbval ignores it and it bloats diffs.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def execute(path: Path) -> None:
    """Run every cell of the notebook at `path` from a clean kernel and save it."""
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    nb.metadata.pop("widgets", None)
    nbformat.write(nb, path)
    print(f"executed {path}")


if __name__ == "__main__":
    for name in sys.argv[1:]:
        execute(Path(name))
