"""A scan of students' submissions for code that reaches into the kernel instead of answering.

    python -m grading.audit submitted/*/sheets/*.ipynb     # one line per finding; exit 1 if any

The checks guard what they can from inside the kernel (``ra_course.exercises.sound``): replaced
built-ins and package functions, tracers, threads, timers, objects that claim to equal anything,
answers read from the checks' frames (there are none to read while the student's function runs).
What lies beyond them is code that changes Python itself: audit hooks, the import system,
``ctypes``, IPython's hooks around a cell, the teacher's files read from disk. No honest answer to
these sheets needs any of that, so this scan lists every use, by notebook, cell and line, for a
human to read: a finding is a question to ask, not a verdict.

It reads the answer cells only (nbgrader's ``solution`` cells: the cells a student writes); the
locked cells are the teacher's own and nbgrader restores them anyway.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections.abc import Iterator
from pathlib import Path

#: modules whose import in an answer is a finding: they reach into the interpreter or the checks
MODULES = {
    "builtins": "the built-ins",
    "ctypes": "the interpreter's memory",
    "gc": "every object of the kernel",
    "inspect": "frames and code of the running checks",
    "threading": "threads that run beside a check",
    "_thread": "threads that run beside a check",
    "signal": "signals that interrupt a check",
    "importlib": "the import system",
    "marshal": "code objects",
    "types": "functions made from other functions' code",
    "IPython": "the kernel's hooks around a cell",
    "ipykernel": "the kernel",
    "grading": "the teacher's answers",
    "ra_course": "the checks themselves",
    "os": "files and the environment",
    "pathlib": "files",
    "subprocess": "other processes",
}
#: attributes whose use is a finding wherever they appear
ATTRIBUTES = {
    "_getframe": "the checks' frames",
    "_current_frames": "other threads' frames",
    "settrace": "a tracer that runs inside the checks",
    "setprofile": "a profiler that runs inside the checks",
    "addaudithook": "an audit hook that runs inside the checks",
    "meta_path": "the import system",
    "path_hooks": "the import system",
    "path_importer_cache": "the import system",
    "modules": "the loaded modules (sys.modules)",
    "f_back": "the caller's frame",
    "f_locals": "a frame's variables",
    "f_globals": "a frame's globals",
    "tb_frame": "a traceback's frames",
    "gi_frame": "a generator's frame",
    "__code__": "a function's code",
    "__globals__": "a function's globals",
    "__builtins__": "the built-ins",
    "__closure__": "a function's closure",
    "__subclasses__": "every class of the kernel",
    "__class__": "an object's class",
    "input_transformers_post": "IPython's rewriting of the next cells",
    "input_transformers_cleanup": "IPython's rewriting of the next cells",
    "set_custom_exc": "IPython's handling of a failed check",
    "showtraceback": "IPython's handling of a failed check",
    "events": "IPython's hooks around a cell",
    "displayhook": "a result shown as the check cell's own (nbgrader reads a cell's first number as its points)",
}
#: names whose call is a finding
CALLS = {
    "exec": "code run from a string",
    "eval": "code run from a string",
    "compile": "code made from a string",
    "__import__": "an import by name",
    "get_ipython": "the kernel's shell",
    "globals": "the notebook's namespace",
    "vars": "an object's namespace",
    "setattr": "an attribute set by name",
    "getattr": "an attribute read by name",
    "open": "a file",
}
#: methods that make an answer compare equal to anything, or change how it compares
DUNDERS = {"__eq__", "__ne__", "__hash__", "__float__", "__int__", "__index__", "__bool__", "__instancecheck__"}


def _answer_cells(notebook: Path) -> Iterator[tuple[int, str]]:
    """Yield (cell number, source) of the answer cells of `notebook`."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    for i, cell in enumerate(cells):
        if cell["cell_type"] == "code" and cell["metadata"].get("nbgrader", {}).get("solution"):
            yield i, "".join(cell["source"])


def _parse(source: str) -> ast.Module | None:
    lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
    try:
        return ast.parse("\n".join(lines))
    except SyntaxError:
        return None


def imported_names(source: str) -> set[str]:
    """Return the names the imports of `source` bind (a module, a class, a function of a library)."""
    tree = _parse(source)
    names: set[str] = set()
    for node in ast.walk(tree) if tree else ():
        if isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def findings(source: str, imported: set[str] | None = None) -> list[tuple[int, str]]:
    """Return (line, what) for each construct of `source` that reaches into the kernel (see the module's text).

    `imported`: names imported elsewhere in the notebook (its setup cell): changing them is a finding too.
    """
    tree = _parse(source)
    if tree is None:
        return [(0, "code that does not parse")]
    out: list[tuple[int, str]] = []
    imported = set(imported or ()) | imported_names(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for name in names:
                top = name.split(".")[0]
                if top in MODULES:
                    out.append((node.lineno, f"imports {name}: {MODULES[top]}"))
        elif isinstance(node, ast.Attribute) and node.attr in ATTRIBUTES:
            out.append((node.lineno, f"uses .{node.attr}: {ATTRIBUTES[node.attr]}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CALLS:
            out.append((node.lineno, f"calls {node.func.id}(): {CALLS[node.func.id]}"))
        elif isinstance(node, ast.FunctionDef) and node.name in DUNDERS:
            out.append((node.lineno, f"defines {node.name}: an answer that decides how it is compared"))
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.Delete):
            targets = node.targets if isinstance(node, ast.Assign | ast.Delete) else [node.target]
            for target in targets:
                root = target
                while isinstance(root, ast.Attribute | ast.Subscript):
                    root = root.value
                dunder = isinstance(target, ast.Attribute) and target.attr.startswith("__")
                if target is not root and isinstance(root, ast.Name) and (root.id in imported or dunder):
                    out.append((node.lineno, f"changes {ast.unparse(target)}: a module or class it imported"))
    return sorted(set(out))


def audit(notebooks: list[Path]) -> list[str]:
    """Return one line per finding in the answer cells of `notebooks`."""
    out = []
    for notebook in notebooks:
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        everywhere = set().union(*(imported_names("".join(c["source"])) for c in cells if c["cell_type"] == "code"))
        for cell, source in _answer_cells(notebook):
            for line, what in findings(source, everywhere):
                out.append(f"{notebook}: cell {cell}, line {line}: {what}")
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the findings of the submissions given; return 1 if there are any."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    found = audit(parser.parse_args(argv).notebooks)
    print("\n".join(found) if found else "nothing found")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
