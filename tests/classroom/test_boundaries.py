"""The classroom sits beside the engine: `ra_core` never imports `ra_classroom`, and `ra_classroom` reaches
into `ra_core` only through its front door (``from ra_core import ...``) and one module, `game.bridge`, so
that a reorganisation of `ra_core` is one edit on this side."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imports(path: Path) -> set[str]:
    """Return the absolute module names `path` imports."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_ra_core_never_imports_the_classroom() -> None:
    for path in (ROOT / "ra_core").rglob("*.py"):
        assert not any(m.split(".")[0] == "ra_classroom" for m in imports(path)), path


def test_the_classroom_uses_ra_core_by_its_front_door_or_the_bridge() -> None:
    for path in (ROOT / "ra_classroom").rglob("*.py"):
        deep = {m for m in imports(path) if m.startswith("ra_core.")}
        if path.relative_to(ROOT).as_posix() != "ra_classroom/game/bridge.py":
            assert not deep, f"{path.name} imports {sorted(deep)}: go through ra_classroom.game.bridge"


def test_the_server_does_not_load_the_notebook_stack() -> None:
    """A server process serves pages: no matplotlib, pandas or ipywidgets in it."""
    code = (
        "import sys, ra_classroom.web.app, ra_classroom.web.server; "
        "print(sorted(m for m in ('matplotlib', 'pandas', 'ipywidgets') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"
