"""The package's layers: every import inside `ra_core` points down a layer, and no modules import in a cycle.

    engine        what a game is and how it moves (rules, records, state, transitions, saving, playing)
    analysis      what positions are worth and who plays them (exact chance, valuation, bots, tournaments)
    presentation  words and pictures of positions (text, SVG, narration, plots)
    widgets       the notebook widgets
    top           the exercise checks, the command line, and the package's front door (``ra_core``)

A module may import from its own layer or any layer below it. Imports under ``if TYPE_CHECKING:``
are for type checkers only and never run, so they are not dependencies. Within a layer the
imports must not close a cycle, so that each module can be read after the ones it uses.
A new module must be given a layer here, and every module stays under 400 lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "ra_core"

LAYERS: dict[str, tuple[str, ...]] = {
    "engine": (
        "tiles", "errors", "actions", "rules", "records", "auction", "disasters", "scoring", "turns", "game",
        "textboard", "safejson", "invariants", "serialize", "state", "setup", "timer", "positions", "play", "history",
    ),
    "analysis": (
        "odds", "chance", "valuation", "bots", "entrants", "montecarlo", "tournament", "stats", "progress",
        "drawcall", "endgame", "auctions", "playthrough",
    ),
    "presentation": ("words", "theme", "icons", "pieces", "svg", "render", "narrate", "plotstyle", "plots"),
    "widgets": ("widgets",),
    "top": ("exercises", "__main__", "__init__"),
}  # fmt: skip
RANK = {name: rank for rank, names in enumerate(LAYERS.values()) for name in names}


def module_name(path: Path) -> str:
    """Return the dotted name below `ra_core` of a module file, e.g. ``widgets.views``."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" and len(parts) > 1 else parts)


def layer_of(module: str) -> int:
    """Return the rank of a module's layer, by its first name component (a subpackage is one unit)."""
    head = module.split(".")[0] or "__init__"
    assert head in RANK, f"ra_core.{module} has no layer: add it to LAYERS in {Path(__file__).name}"
    return RANK[head]


def runtime_imports(path: Path) -> set[str]:
    """Return the `ra_core` modules that `path` imports when it runs (not under TYPE_CHECKING)."""
    tree: ast.AST = ast.parse(path.read_text(encoding="utf-8"))
    package = list(path.parent.relative_to(PACKAGE).parts)  # where relative imports start
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for branch in node.orelse:
                visit(branch)
            return
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]  # level 1: this package
                stem = ".".join([*base, node.module] if node.module else base)
                targets = [stem] if node.module else [f"{stem}.{a.name}".lstrip(".") for a in node.names]
            elif node.module and (node.module == "ra_core" or node.module.startswith("ra_core.")):
                stem = node.module.removeprefix("ra_core").lstrip(".")
                targets = [stem] if stem else [a.name for a in node.names]
            else:
                targets = []
            found.update(t for t in targets if t)
        elif isinstance(node, ast.Import):
            found.update(a.name.removeprefix("ra_core.") for a in node.names if a.name.startswith("ra_core."))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {m for m in found if m != module_name(path)}


def graph() -> dict[str, set[str]]:
    """Return each module's runtime imports inside `ra_core`, by module name."""
    return {module_name(p): runtime_imports(p) for p in sorted(PACKAGE.rglob("*.py"))}


def test_every_module_has_a_layer() -> None:
    for module in graph():
        layer_of(module)


def test_imports_only_point_down() -> None:
    """No module imports from a layer above its own."""
    upward = [
        f"ra_core.{m} ({_layer_name(m)}) imports ra_core.{t} ({_layer_name(t)})"
        for m, targets in graph().items()
        for t in sorted(targets)
        if layer_of(t) > layer_of(m)
    ]
    assert not upward, "\n".join(upward)


def test_no_import_cycles() -> None:
    """Depth-first search for a cycle among the modules (subpackages count by their modules)."""
    edges = graph()
    modules = set(edges)
    resolved = {m: {_resolve(t, modules) for t in ts} - {None, m} for m, ts in edges.items()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def walk(m: str) -> None:
        state[m] = 1
        path.append(m)
        for t in sorted(x for x in resolved[m] if x is not None):
            if state.get(t) == 1:
                cycle = [*path[path.index(t) :], t]
                raise AssertionError("import cycle: " + " -> ".join(f"ra_core.{x}" for x in cycle))
            if t not in state:
                walk(t)
        path.pop()
        state[m] = 2

    for m in sorted(modules):
        if m not in state:
            walk(m)


def test_the_checker_sees_runtime_imports_only() -> None:
    """The checker itself: a runtime import counts, one under TYPE_CHECKING does not; packages resolve."""
    imports = runtime_imports(PACKAGE / "textboard.py")
    assert "records" in imports and "state" not in imports
    assert {"actions", "setup", "state"} <= runtime_imports(PACKAGE / "__init__.py")
    assert "setup" in runtime_imports(PACKAGE / "widgets" / "controllers.py")


def _resolve(target: str, modules: set[str]) -> str | None:
    """Return the module a dotted import target names (``bots.heuristic`` or a name from a package)."""
    while target and target not in modules:
        target = target.rpartition(".")[0]
    return target or None


def _layer_name(module: str) -> str:
    return list(LAYERS)[layer_of(module)]


def test_every_module_is_small() -> None:
    """Each module does one job, readable in one sitting: at most 400 lines."""
    long = {
        module_name(p): n for p in PACKAGE.rglob("*.py") if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400
    }
    assert not long, long
