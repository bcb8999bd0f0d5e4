"""The package as the sandbox shows it for a sheet: the modules of its forbidden functions rewritten as tripwires.

In the sandbox the worker makes the functions a sheet forbids tripwires by swapping their code
(`ra_course.exercises.guards.disable`), but that holds only for the function objects it swapped:
running the module again (``runpy.run_module``, ``importlib.reload``), loading its cached bytecode
or reading its source and running that would make fresh, working copies. So the sandbox does not
show those modules as they are: each file that defines a forbidden function is shown rewritten,
the body of every forbidden function replaced by a tripwire (`ra_course.exercises.guards.tripped`),
everything else as it was, and the module's cached bytecode is shown empty (Python compiles the
rewritten source instead). Every route in the sandbox (import, run, reload, read) reaches the
tripwire only. A copy pasted into the notebook from elsewhere is the student's own code: the scan
names it (``python -m grading.audit``), and exercises/TEACHING.md says, task by task, what else
keeps it from earning points.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
from collections.abc import Iterable
from pathlib import Path

from ra_course.exercises.guards import resolve

__all__ = ["overlays", "tripwired_source"]


def _where(dotted: str) -> tuple[Path, list[str]]:
    """Return the source file that defines the function `dotted`, and its qualified name there (parts)."""
    function = inspect.unwrap(resolve(dotted))
    path = inspect.getsourcefile(function)
    if path is None:
        raise ValueError(f"{dotted} has no source file")
    return Path(path).resolve(), function.__qualname__.split(".")


def _tripwire(dotted: str, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    call = f"from ra_course.exercises.guards import tripped\ntripped({dotted!r})\nraise AssertionError({dotted!r})"
    node.body = ast.parse(call).body


def tripwired_source(path: Path, functions: dict[tuple[str, ...], str]) -> str:
    """Return the source of `path` with the body of each function named (qualified name -> dotted) a tripwire."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: set[tuple[str, ...]] = set()

    def visit(body: list[ast.stmt], prefix: tuple[str, ...]) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body, (*prefix, node.name))
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and (*prefix, node.name) in functions:
                _tripwire(functions[(*prefix, node.name)], node)
                found.add((*prefix, node.name))

    visit(tree.body, ())
    missing = set(functions) - found
    if missing:
        raise ValueError(f"{path} defines no {', '.join('.'.join(m) for m in sorted(missing))} at its top level")
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def overlays(forbidden: Iterable[str], folder: Path) -> dict[str, Path]:
    """Write the rewritten modules of the `forbidden` functions into `folder`; return what to show where.

    The keys are paths in the sandbox (the modules' own, and their cached bytecode), the values the
    files to show there: a rewritten source, or an empty file in place of the bytecode.
    """
    by_file: dict[Path, dict[tuple[str, ...], str]] = {}
    for dotted in forbidden:
        path, qualname = _where(dotted)
        by_file.setdefault(path, {})[tuple(qualname)] = dotted
    shown: dict[str, Path] = {}
    empty = folder / "empty"
    empty.write_bytes(b"")
    for number, (path, functions) in enumerate(sorted(by_file.items())):
        rewritten = folder / f"module{number}.py"
        rewritten.write_text(tripwired_source(path, functions), encoding="utf-8")
        shown[str(path)] = rewritten
        for level in ("", 1, 2):
            cached = Path(importlib.util.cache_from_source(str(path), optimization=level))
            if cached.exists():
                shown[str(cached)] = empty
    return shown
