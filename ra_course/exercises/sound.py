"""What a check trusts in the kernel it runs in, and how it finds out whether it still can.

A check runs the student's function in the student's own kernel, so code in that kernel can try
to change what the check relies on instead of answering the task: a built-in
(``builtins.abs = lambda x: 0`` makes every tolerance pass), a class of the standard library
(``Fraction.__eq__ = ...``), a function of `ra_core` (``TournamentResult.stats = ...``), a trace
function that jumps over the check's lines, a thread or a timer signal that runs while the check
compares. `problems` looks for each of these:

* no trace or profile function is set, no other thread runs code of the notebook's own, no
  timer signal is pending;
* the built-ins are Python's own (a built-in function of the ``builtins`` module under its own
  name, a built-in type that is not a class made in Python);
* every function of `ra_core`, `ra_course` and the standard library modules the checks use
  (`fractions`, `random`, `hashlib`), at module level and in their classes, is the code of its
  file on disk, under its own name: a function made in a notebook cell, or one whose code
  differs from the file's, is named.

`Snapshot` remembers every object those modules and classes hold, so that a check can tell
cheaply (identity only) whether the student's function changed one while it ran.

A check that finds a problem fails and names it; an honest notebook never has one. Code that
changes Python itself (its import system, audit hooks, the interpreter's memory) is beyond what
a check can see from inside the kernel: the teacher's scan of the submissions
(``python -m grading.audit``) looks for that.

>>> problems()
[]
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Iterator
from types import CodeType, FunctionType, ModuleType
from typing import Any

__all__ = ["Snapshot", "guard_cells", "ipython_problems", "problems", "quick_problems"]

#: the builtins dict this module's code looks names up in


def _here() -> None:
    """Nothing: a function of this module, whose globals name the dict its code looks built-ins up in."""


_BUILTINS: dict[str, Any] = (
    _here.__globals__["__builtins__"]
    if type(_here.__globals__["__builtins__"]) is dict
    else vars(_here.__globals__["__builtins__"])  # a module's globals name the module itself when run as __main__
)
_BUILTIN_FUNCTION: Any = [].append.__class__
_TYPE: Any = (0).__class__.__class__
_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made by a class statement, not one of Python's own
#: the built-ins the checks (and the code they call) use
_BUILTIN_NAMES = [
    "abs",
    "all",
    "any",
    "bool",
    "callable",
    "compile",
    "dict",
    "enumerate",
    "exec",
    "frozenset",
    "getattr",
    "hasattr",
    "hash",
    "id",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "list",
    "map",
    "max",
    "min",
    "next",
    "object",
    "open",
    "print",
    "property",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "setattr",
    "slice",
    "sorted",
    "staticmethod",
    "classmethod",
    "str",
    "sum",
    "super",
    "tuple",
    "type",
    "zip",
    "float",
    "divmod",
    "pow",
    "BaseException",
    "Exception",
    "AssertionError",
    "ArithmeticError",
    "ImportError",
    "KeyError",
    "LookupError",
    "NotImplementedError",
    "OverflowError",
    "RuntimeError",
    "StopIteration",
    "SystemExit",
    "TypeError",
    "ValueError",
    "ZeroDivisionError",
]
#: the standard library modules whose Python code the checks run (their functions are verified as ours)
_STDLIB = ("fractions", "random", "hashlib")
#: our packages: every module of theirs that is loaded is verified against its file
_PACKAGES = ("ra_core", "ra_course")
#: the folder holding ra_core and ra_course (this file is ra_course/exercises/sound.py)
_ROOT = __file__.replace("\\", "/").rsplit("/", 3)[0]
#: the methods that dataclasses and named tuples write (their code is made at import, not read from a file)
_GENERATED = frozenset(
    [
        "__init__",
        "__repr__",
        "__eq__",
        "__hash__",
        "__setattr__",
        "__delattr__",
        "__lt__",
        "__le__",
        "__gt__",
        "__ge__",
        "__getstate__",
        "__setstate__",
        "__new__",
        "__replace__",
        "_make",
        "_replace",
        "_asdict",
        "__getnewargs__",
    ]
)

#: functions that Python binds under another name by itself (random.Random.__init_subclass__)
_RENAMED = {("_randbelow", "_randbelow_with_getrandbits"), ("_randbelow", "_randbelow_without_getrandbits")}


def _stdlib_dir() -> str:
    found: str = getattr(sys, "_stdlib_dir", None) or sys.base_prefix
    return found.replace("\\", "/")


def _library_dirs() -> tuple[str, ...]:
    """Return the folders whose code is a library's, not the notebook's: Python's, the installed packages', ours."""
    dirs = {sys.prefix, sys.base_prefix, sys.exec_prefix, _stdlib_dir()}
    dirs |= {p for p in sys.path if "site-packages" in p or "dist-packages" in p}
    dirs = {d.replace("\\", "/").rstrip("/") + "/" for d in dirs if d}
    return (*dirs, *(f"{_ROOT}/{name}/" for name in (*_PACKAGES, "grading")))


def _is_library(filename: str, dirs: tuple[str, ...] | None = None) -> bool:
    """Return whether `filename` is a library's code (Python's, an installed package's, ours), not a notebook's."""
    return filename.replace("\\", "/").startswith(dirs or _library_dirs()) or filename.startswith("<frozen ")


# -- hooks: tracers, threads, timers ----------------------------------------------------------


def quick_problems(timers: bool = True) -> list[str]:
    """Return what runs beside the check: a trace or profile function, a thread of the notebook's code, a timer.

    With ``timers=False`` a pending timer signal is allowed (inside a game loop's own time limit).
    """
    found = []
    if sys.gettrace() is not None or getattr(threading, "_trace_hook", None) is not None:
        found.append("a trace function is set (sys.settrace, or a debugger)")
    if sys.getprofile() is not None or getattr(threading, "_profile_hook", None) is not None:
        found.append("a profile function is set (sys.setprofile)")
    me, dirs = threading.get_ident(), _library_dirs()
    for ident, top in sys._current_frames().items():
        frame: Any = top
        while frame is not None and ident != me:
            if not _is_library(frame.f_code.co_filename, dirs):
                found.append(f"a thread runs the notebook's own code ({frame.f_code.co_name})")
                break
            frame = frame.f_back
    found += ipython_problems()
    signals: Any = __import__("signal")
    for which in ("ITIMER_REAL", "ITIMER_VIRTUAL", "ITIMER_PROF") if timers else ():
        try:
            pending = signals.getitimer(getattr(signals, which))[0] > 0
        except (AttributeError, OSError):  # no interval timers here (Windows, Pyodide)
            continue
        if pending:
            found.append(f"a timer signal is pending ({which})")
    return found


# -- IPython: a failed check must show as an error -----------------------------------------------

#: the shell's methods on the path from a cell's code to its error output
_SHELL_METHODS = (
    "run_cell", "run_cell_async", "run_code", "run_ast_nodes", "transform_cell", "showtraceback", "_showtraceback",
    "showsyntaxerror", "get_exception_only", "_get_exc_info",
)  # fmt: skip


def _code_of(obj: Any) -> CodeType | None:
    """Return the code of a function, a method or a callable object's ``__call__`` (None for a built-in)."""
    function = getattr(obj, "__func__", obj)
    if not hasattr(function, "__code__"):
        function = vars(type(function)).get("__call__") or getattr(type(function), "__call__", None)  # noqa: B004
    code = getattr(function, "__code__", None)
    return code if code.__class__ is CodeType else None


def ipython_problems() -> list[str]:
    """Return (and undo where it can) changes to how IPython runs a cell and shows its error.

    A custom exception handler (``set_custom_exc``), a replaced ``showtraceback`` or an input or
    AST transformer of the notebook's own could turn a failed check into a silent cell, which
    nbgrader would score as passed. Handlers, instance overrides and transformers of the
    notebook's own are removed, so that the check's own failure shows.
    """
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return []
    found, dirs = [], _library_dirs()
    if getattr(shell, "custom_exceptions", ()):
        shell.set_custom_exc((), None)
        shell.custom_exceptions = ()
        found.append("a custom exception handler was set (set_custom_exc)")
    for name in _SHELL_METHODS:
        if name in vars(shell):
            delattr(shell, name)
            found.append(f"IPython's `{name}` was replaced")
        code = _code_of(getattr(type(shell), name, None))
        if code is not None and not _is_library(code.co_filename, dirs):
            found.append(f"IPython's `{name}` was replaced")
    for name in ("input_transformers_cleanup", "input_transformers_post", "ast_transformers"):
        hooks = getattr(shell, name, [])
        for hook in list(hooks):
            code = _code_of(hook) or _code_of(getattr(hook, "visit", None))
            if code is not None and not _is_library(code.co_filename, dirs):
                hooks.remove(hook)
                found.append(f"IPython's `{name}` held a transformer of the notebook's own")
    for event, callbacks in getattr(getattr(shell, "events", None), "callbacks", {}).items():
        for callback in list(callbacks):
            code = _code_of(callback)
            if code is not None and not _is_library(code.co_filename, dirs):
                callbacks.remove(callback)
                found.append(f"an IPython `{event}` callback of the notebook's own was registered")
    return found


def _after_each_cell(*args: Any) -> None:
    """Undo, after each cell, what would keep the next cell from running as written (an IPython callback)."""
    ipython_problems()


def guard_cells() -> None:
    """Register `_after_each_cell` in this IPython kernel, once (nothing outside IPython).

    An input transformer of the notebook's own could rewrite a graded cell before it runs, so
    that no check runs at all; IPython transforms a cell before anything else of it runs, so the
    callback removes such transformers after each cell instead, before the next one. The package
    registers it when a sheet opens (``import ra_course.exercises``), before any cell of the
    student's. (Code that unregisters it is beyond the kernel's reach; the teacher's scan of the
    submissions, ``python -m grading.audit``, names it.)
    """
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return
    callbacks = shell.events.callbacks.get("post_run_cell", [])
    if not any(getattr(c, "__name__", "") == "_after_each_cell" for c in callbacks):
        shell.events.register("post_run_cell", _after_each_cell)


# -- built-ins -----------------------------------------------------------------------------------


def _builtins_problems() -> list[str]:
    found = []
    for name in _BUILTIN_NAMES:
        obj: Any = _BUILTINS.get(name)
        if obj.__class__ is _BUILTIN_FUNCTION:
            owner = getattr(obj, "__self__", None)
            home = getattr(owner, "__dict__", None) is _BUILTINS or (name == "open" and owner is sys.modules.get("_io"))
            genuine = obj.__name__ == name and home
        else:  # a type of Python's own (no isinstance here: it may be the replaced one)
            genuine = obj.__class__ is _TYPE and not obj.__flags__ & _HEAP_TYPE and obj.__name__ == name
        if not genuine:
            found.append(f"the built-in `{name}` was replaced")
    return found


# -- code: every function as on disk -------------------------------------------------------------


def _source_file(module: str) -> str | None:
    """Return the file a module of ours or of the standard library is read from (never the module's own say)."""
    top = module.split(".")[0]
    if top in _PACKAGES:
        base = f"{_ROOT}/{module.replace('.', '/')}"
    elif module in _STDLIB:
        base = f"{_stdlib_dir()}/{module}"
    else:
        return None
    for path in (f"{base}.py", f"{base}/__init__.py"):
        try:
            with open(path, encoding="utf-8") as f:
                f.read(0)
        except OSError:
            continue
        return path
    return None


def _codes(code: CodeType) -> Iterator[CodeType]:
    yield code
    for const in code.co_consts:
        if const.__class__ is CodeType:
            yield from _codes(const)


def _same(a: CodeType, b: CodeType) -> bool:
    if a.co_code != b.co_code or a.co_names != b.co_names or len(a.co_consts) != len(b.co_consts):
        return False
    for x, y in zip(a.co_consts, b.co_consts, strict=True):
        if x.__class__ is CodeType:
            if y.__class__ is not CodeType or not _same(x, y):
                return False
        elif x.__class__ is not y.__class__ or x != y:
            return False
    return True


class _Disk:
    """The code objects compiled from the files on disk, by file and (qualified name, first line)."""

    def __init__(self) -> None:
        self.files: dict[str, dict[tuple[str, int], CodeType] | None] = {}
        self.sources: dict[str, str] = {}

    def codes(self, path: str) -> dict[tuple[str, int], CodeType] | None:
        if path not in self.files:
            try:
                with open(path, encoding="utf-8") as f:
                    source = f.read()
                compiled = compile(source, path, "exec", dont_inherit=True)
            except (OSError, SyntaxError):
                self.files[path] = None
            else:
                self.sources[path] = source
                self.files[path] = {(c.co_qualname, c.co_firstlineno): c for c in _codes(compiled)}
        return self.files[path]


def _functions(obj: Any, where: str, depth: int = 0) -> Iterator[tuple[str, str, Any]]:
    """Yield (where, name, function) for the Python functions a module or class holds, unwrapped."""
    for name, value in list(vars(obj).items()):
        for inner in (value, getattr(value, "__func__", None), getattr(value, "__wrapped__", None)):
            if inner.__class__ is FunctionType:
                yield where, name, inner
        if value.__class__ is property:
            for accessor in (value.fget, value.fset, value.fdel):
                if accessor.__class__ is FunctionType:
                    yield where, name, accessor
        own_class = _TYPE in value.__class__.__mro__ and value.__module__ == getattr(obj, "__module__", obj.__name__)
        if own_class and depth < 3 and (not isinstance(obj, ModuleType) or value.__qualname__ == name):
            yield from _functions(value, f"{where}.{name}", depth + 1)


def renamed(name: str, code: CodeType) -> bool:
    """Return whether a function with `code`, bound as `name`, is bound under another name than its own."""
    own = code.co_name in (name, "<lambda>") or "<locals>" in code.co_qualname  # a factory's closures: any name
    return not own and (name, code.co_name) not in _RENAMED


def _aliased(source: str, name: str, original: str) -> bool:
    """Return whether `source` binds `name` to the function `original` (an import alias or an assignment)."""
    binding = rf"\b{original} as {name}\b|\b{name}\s*=(?:\s*\w+\s*=)*\s*(?:\w+\.)*{original}\b"
    return re.search(binding, source) is not None


def _code_problems(modules: list[tuple[str, ModuleType]]) -> list[str]:
    disk, dirs = _Disk(), _library_dirs()
    verified = {path for path in (_source_file(name) for name, _ in modules) if path}
    found = []
    for module_name, module in modules:
        home = _source_file(module_name)
        home_codes = disk.codes(home) if home else None
        if home is None or home_codes is None:
            continue
        for where, name, function in _functions(module, module_name):
            code = function.__code__
            filename = code.co_filename.replace("\\", "/")
            label = f"`{where}.{name}`"
            if filename == "<string>" and name in _GENERATED and function.__qualname__.endswith(f".{name}"):
                continue  # written by dataclasses or namedtuple when the class was made
            if not _is_library(filename, dirs):
                found.append(f"{label} is code of the notebook's own, not the package's")
                continue
            if filename not in verified:
                continue  # a library file we do not verify (functools, contextlib, enum, ...)
            codes = disk.codes(filename)
            original = codes.get((code.co_qualname, code.co_firstlineno)) if codes else None
            if original is None or not _same(code, original):
                found.append(f"{label} differs from the code in {filename.rsplit('/', 1)[-1]}")
            elif renamed(name, code) and not _aliased(disk.sources.get(home, ""), name, code.co_name):
                found.append(f"{label} is bound to another function, `{code.co_qualname}`")
    return found


def _verified_modules() -> list[tuple[str, ModuleType]]:
    out = []
    for name, module in list(sys.modules.items()):
        if isinstance(module, ModuleType) and (name.split(".")[0] in _PACKAGES or name in _STDLIB):
            out.append((name, module))
    return out


def problems() -> list[str]:
    """Return what keeps a check from trusting this kernel (empty when nothing does); see the module's text."""
    found = _builtins_problems()
    if found:  # the rest of the look needs the built-ins themselves
        return found
    return quick_problems() + _code_problems(_verified_modules())


class Snapshot:
    """The functions and classes held by the verified modules, their classes and the built-ins.

    `changed` compares their names and identities only (the snapshot keeps the objects, so an
    identity is never reused): well under a millisecond, cheap enough after every call of a
    student's function. Data (a module's cache, a constant) is not compared, only whether a name
    was added or removed; a submodule imported since (a package gains its name) is no change.
    """

    def __init__(self) -> None:
        spaces: list[tuple[str, Any]] = [("builtins", _BUILTINS)]
        for name, module in _verified_modules():
            spaces.append((name, vars(module)))
            for value in list(vars(module).values()):
                if _TYPE in value.__class__.__mro__ and value.__module__ == name:
                    spaces.append((f"{name}.{value.__qualname__}", value.__dict__))
        self.held = []
        for label, space in spaces:
            names = [k for k, v in space.items() if callable(v) or hasattr(v, "__get__")]
            values = [space[k] for k in names]
            self.held.append((label, space, list(space), names, values, list(map(id, values))))

    def changed(self) -> list[str]:
        """Return what was rebound, added or removed since the snapshot (by name)."""
        found = []
        for label, space, keys, names, values, ids in self.held:
            if list(space) == keys and list(map(id, map(space.get, names))) == ids:
                continue
            changed = set(keys) ^ set(space)
            found += [
                f"`{label}.{k}` was added or removed" for k in changed if not isinstance(space.get(k), ModuleType)
            ]
            found += [
                f"`{label}.{k}` was replaced" for k, v in zip(names, values, strict=True) if space.get(k) is not v
            ]
        return found


_MISSING = object()
