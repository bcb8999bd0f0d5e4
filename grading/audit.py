"""A scan of students' submissions for code that reaches into the kernel, or beyond it, instead of answering.

    python -m grading.audit sheet1                    # in the course folder: every submission of sheet1
    python -m grading.audit submitted/bob/sheet1      # one student's; or notebooks by their paths

Grades do not depend on it: the teacher's judge decides them outside the student's code
(``grading/judge.py``), and what the student's code does in its sandbox reaches no grade. This
scan is for a human to read what a student tried: code that changes Python itself (audit hooks,
the import system, ``ctypes``, built-ins), IPython's hooks around a cell, tracers, threads, frames,
the teacher's files read from disk, shell commands and other processes, objects that claim to
equal anything, modules run again (``runpy``) or reloaded, a module's source read from disk, and
functions pasted from the package: a copy of a function of ``ra_core`` or ``ra_course`` (the
engine, the analysis, notebook 16's multi-unit functions, the checks), renamed, re-commented or
with its variables renamed (`pasted`). No task's answer is what a package function computes, so
a copy earns nothing; the scan names it all the same. No honest
answer to these sheets needs any of that, so it lists every use, by
notebook, cell and line: a finding is a question to ask, not a verdict.

It reads every code cell that is not the teacher's own text (a cell of the released sheet, as it
was handed out): the answer cells, the cells a student added, and any locked cell he changed;
magics (``%`` lines, whose code it reads too where they run some) and shell lines (``!``) included.
One line per finding; the exit status is 1 if there is any.
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import re
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
    "runpy": "a module run again (fresh copies of the package's functions)",
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
    "__file__": "a module's file (its source read from disk)",
    "getsource": "a function's or module's source text",
    "getsourcelines": "a function's or module's source text",
    "reload": "a module loaded again (fresh copies of its functions)",
    "run_module": "a module run again (fresh copies of its functions)",
    "run_path": "a file of the package run again (fresh copies of its functions)",
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


#: magics that only set up plots: no finding
HARMLESS_MAGICS = {"matplotlib"}
#: magics whose argument is Python code, run by the magic: the scan reads it as code too
CODE_MAGICS = {"time", "timeit", "prun", "capture"}
RELEASE = Path(__file__).resolve().parent.parent / "exercises" / "release"


def _handed_out(notebook: Path) -> set[str]:
    """Return the sources of the code cells of the sheet as handed out: the released sheet of the same name."""
    release = RELEASE / notebook.name
    if not release.exists():
        return set()
    cells = json.loads(release.read_text(encoding="utf-8"))["cells"]
    return {"".join(c["source"]).strip() for c in cells if c["cell_type"] == "code"}


def _student_cells(notebook: Path) -> Iterator[tuple[int, str]]:
    """Yield (cell number, source) of every code cell of `notebook` that is not the teacher's text."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    teachers = _handed_out(notebook)
    for i, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and source.strip() and source.strip() not in teachers:
            yield i, source


def _magics(source: str) -> tuple[str, list[tuple[int, str]]]:
    """Return `source` with its magic and shell lines made Python (or blank), and a finding for each of them."""
    lines, found = source.splitlines(), []
    for n, line in enumerate(lines, 1):
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        magic = re.match(r"(\w+\s*=\s*)?(%%?)(\w+)\s*(.*)", stripped)
        if re.match(r"(\w+\s*=\s*)?!", stripped):
            found.append((n, f"runs a shell command ({stripped[:60]}): another process, beside the notebook"))
            lines[n - 1] = ""
        elif magic:
            _, marks, name, rest = magic.groups()
            if name not in HARMLESS_MAGICS:
                found.append((n, f"uses the magic {marks}{name}: IPython runs what follows, not the answer's Python"))
            lines[n - 1] = indent + rest if name in CODE_MAGICS and marks == "%" else ""
            if marks == "%%" and name not in CODE_MAGICS:
                del lines[n:]  # the rest of the cell is the magic's text, not Python
                break
    return "\n".join(lines), found


def _parse(source: str) -> ast.Module | None:
    try:
        return ast.parse(_magics(source)[0])
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
    out: list[tuple[int, str]] = list(_magics(source)[1])
    imported = set(imported or ()) | imported_names(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for name in names:
                top = name.split(".")[0]
                helpers = top == "ra_course" and not name.startswith("ra_course.exercises") and name != "ra_course"
                if helpers:
                    out.append((node.lineno, f"imports {name}: the course's helpers, which a sheet may forbid"))
                elif top in MODULES:
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
                root, private = target, False
                while isinstance(root, ast.Attribute | ast.Subscript):
                    private = private or isinstance(root, ast.Attribute) and root.attr.startswith("_")
                    root = root.value
                dunder = isinstance(target, ast.Attribute) and target.attr.startswith("__")
                if target is not root and isinstance(root, ast.Name) and (root.id in imported or dunder):
                    out.append((node.lineno, f"changes {ast.unparse(target)}: a module or class it imported"))
                elif private:
                    out.append((node.lineno, f"changes {ast.unparse(target)}: the insides of an object it was given"))
    return sorted(set(out))


class _Shape(ast.NodeTransformer):
    """Rewrite a function so that only what it does is left: no docstring, names numbered as they first appear."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def _name(self, name: str) -> str:
        return self.names.setdefault(name, f"v{len(self.names)}")

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.copy_location(ast.Name(self._name(node.id), node.ctx), node)

    def visit_arg(self, node: ast.arg) -> ast.AST:
        return ast.copy_location(ast.arg(self._name(node.arg)), node)

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        return node


def shape(function: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """Return what identifies a function's code whatever its names, docstring, comments and layout: a pasted copy's."""
    twin = copy.deepcopy(function)
    if ast.get_docstring(twin) is not None:
        twin.body = twin.body[1:] or [ast.Pass()]
    twin.name, twin.decorator_list, twin.returns = "f", [], None
    for node in ast.walk(twin):
        if isinstance(node, ast.arg):
            node.annotation = None
    return ast.dump(_Shape().visit(twin), annotate_fields=False)


#: the least statements a function must have for a copy of it to be named (a one-liner is anybody's)
MIN_STATEMENTS = 3


def _statements(function: ast.AST) -> int:
    return sum(isinstance(node, ast.stmt) for node in ast.walk(function)) - 1


def package_shapes() -> dict[str, str]:
    """Return the shape of every function of the package (``ra_core``, ``ra_course``) of some length: its dotted name.

    Methods and nested functions too: a student may paste any of them.
    """
    import ra_core
    import ra_course

    shapes: dict[str, str] = {}
    for package in (ra_core, ra_course):
        root = Path(str(package.__file__)).resolve().parent
        for path in sorted(root.rglob("*.py")):
            module = ".".join(path.relative_to(root.parent).with_suffix("").parts).removesuffix(".__init__")
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _statements(node) >= MIN_STATEMENTS:
                    shapes.setdefault(shape(node), f"{module}.{node.name}")
    return shapes


def pasted(source: str, shapes: dict[str, str]) -> list[tuple[int, str]]:
    """Return (line, what) for each function of `source` that is a copy of a package function (renamed or not)."""
    tree = _parse(source)
    out = []
    for node in ast.walk(tree) if tree else ():
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _statements(node) >= MIN_STATEMENTS:
            found = shapes.get(shape(node))
            if found:
                out.append((node.lineno, f"defines {node.name}, a copy of the package's {found}"))
    return out


def audit(notebooks: list[Path]) -> list[str]:
    """Return one line per finding in the student's cells of `notebooks`."""
    out = []
    shapes = package_shapes()
    for notebook in notebooks:
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        everywhere = set().union(*(imported_names("".join(c["source"])) for c in cells if c["cell_type"] == "code"))
        for cell, source in _student_cells(notebook):
            for line, what in sorted(findings(source, everywhere) + pasted(source, shapes)):
                out.append(f"{notebook}: cell {cell}, line {line}: {what}")
    return out


def notebooks(names: list[str], course: Path) -> list[Path]:
    """Return the notebooks `names` stand for: files, folders (every notebook inside), or nbgrader assignments.

    An assignment (``sheet1``) means every student's submission of it in the course folder
    `course`: ``submitted/<student>/sheet1/*.ipynb``. A name with ``*`` that the shell passed on
    as it is (it matched nothing there) is matched here.
    """
    found: list[Path] = []
    for name in names:
        path = Path(name)
        if path.is_file():
            found.append(path)
        elif path.is_dir():
            found += sorted(p for p in path.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
        elif not any(c in name for c in "/*?"):
            found += sorted((course / "submitted").glob(f"*/{name}/*.ipynb"))
        elif not path.is_absolute():
            found += sorted(Path().glob(name))
    return found


def main(argv: list[str] | None = None) -> int:
    """Print the findings of the submissions named; return 1 if there are any, 2 if no notebook was found."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="+", help="an assignment of the course (sheet1), folders, or notebooks")
    args = parser.parse_args(argv)
    found = notebooks(args.names, Path.cwd())
    if not found:
        print(
            f"no notebooks found for {' '.join(args.names)}: in the course folder, name an assignment "
            "(python -m grading.audit sheet1), a folder or notebooks",
            file=sys.stderr,
        )
        return 2
    lines = audit(found)
    print("\n".join(lines) if lines else f"nothing found in {len(found)} notebooks")
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
