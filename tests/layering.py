"""Reading a layer table from a documentation page, and the imports of the code, for the layer tests.

`tests/test_layers.py` holds `ra_core` to docs/architecture.md and `tests/classroom/test_floors.py`
holds `ra_classroom` to docs/classroom.md, with these same readers: a page's table is the one list
of layers (no second copy in a test to keep in step), and an import counts only if it runs (not
under ``if TYPE_CHECKING:``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Set
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def table(page: Path, heading: str) -> list[list[str]]:
    """Return the rows of the first table after `heading` on `page`, as lists of cell texts."""
    text = page.read_text(encoding="utf-8")
    start = text.index(heading)
    rows = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not set("".join(cells)) <= set("-: "):
                rows.append(cells)
        elif rows:
            break
    return rows[1:]  # without the header


def ticked(cell: str) -> list[str]:
    """Return the names in backticks in a cell."""
    return re.findall(r"`([^`]+)`", cell)


def listed(cell: str) -> set[str]:
    """Return the comma-separated names of a "may import" cell ("the standard library" names none)."""
    return {n.strip() for n in cell.split(",") if n.strip() and "standard library" not in n}


def dotted(path: Path) -> str:
    """Return the dotted module name of a file, e.g. ``ra_core.engine.state``."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def runtime_imports(path: Path) -> set[str]:
    """Return the absolute module names `path` imports when it runs (not under TYPE_CHECKING).

    ``from X import name`` counts as importing ``X.name``: a name may be a submodule.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = dotted(path) if path.name == "__init__.py" else dotted(path).rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for branch in node.orelse:
                visit(branch)
            return
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                stem = ".".join([*base, node.module] if node.module else base)
            else:
                stem = node.module or ""
            found.update(f"{stem}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def modules(folder: Path) -> dict[str, Path]:
    """Return every module below `folder` by its dotted name."""
    return {dotted(p): p for p in sorted(folder.rglob("*.py"))}


def resolve(target: str, known: Set[str]) -> str | None:
    """Return the module of `known` a dotted import target names (a module, or a name from one)."""
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target or None


def cycle(edges: Mapping[str, Set[str]]) -> list[str] | None:
    """Return one import cycle among `edges` (module -> modules it imports), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def walk(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for t in sorted(edges.get(m, ())):
            if state.get(t) == 1:
                return [*path[path.index(t) :], t]
            if t not in state and (found := walk(t)):
                return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(edges):
        if m not in state and (found := walk(m)):
            return found
    return None
