"""The layers of docs/architecture.md, checked against every import of the code.

The page is the one list of layers: this test reads its tables (no second copy to keep in step),
so a page that drifts from the code fails here. What it checks:

* every module of `ra_core` is in a layer's folder, and imports only from its own layer and the
  layers its row names, except the upward imports the page lists on purpose;
* within a layer no imports close a cycle;
* the packages beside `ra_core` import only what their row names (`grading` is never imported
  by what students install);
* outside the modules the page names, only the standard library is imported.

Imports under ``if TYPE_CHECKING:`` are for type checkers only and never run, so they are not
dependencies. The 400-line ceiling is a smell to look at, never a reason to split: it is not
checked here.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests import layering
from tests.layering import ROOT, cycle, listed, modules, runtime_imports, ticked

PAGE = ROOT / "docs" / "architecture.md"
PACKAGE = ROOT / "ra_core"


# -- reading the page ---------------------------------------------------------------------------


def table(heading: str) -> list[list[str]]:
    """Return the rows of the first table after `heading` on the page, as lists of cell texts."""
    return layering.table(PAGE, heading)


class Layers:
    """The layers as the page states them: each module's layer, and what each layer may import."""

    def __init__(self) -> None:
        self.folders: dict[str, str] = {}  # path below the repository (a folder or a file) -> layer
        self.may: dict[str, set[str]] = {}
        for name, where, _, may in table("## The layers"):
            for path in ticked(where):
                self.folders[path.rstrip("/")] = name
            self.may[name] = listed(may) | {name}
        self.upward = {(m, target) for m, target, _ in (r[:3] for r in table("### Imports that point up"))}
        self.upward = {(ticked(m)[0], ticked(t)[0]) for m, t in self.upward}

    def of(self, path: Path) -> str:
        """Return the layer of a module file of `ra_core`, by its folder (or its own name)."""
        rel = path.relative_to(ROOT).as_posix()
        for where, layer in self.folders.items():
            if rel == where or rel.startswith(where + "/"):
                return layer
        raise AssertionError(f"{rel} is in no layer of {PAGE.name}: put it in a layer's folder or add a row")


# -- reading the code ---------------------------------------------------------------------------


ALL = {**modules(PACKAGE), **modules(ROOT / "ra_course"), **modules(ROOT / "grading")}


def resolve(target: str) -> str | None:
    """Return the project module a dotted import target names (a module, or a name from one)."""
    return layering.resolve(target, ALL.keys())


# -- the checks ---------------------------------------------------------------------------------


def test_the_page_names_the_layers_in_folders() -> None:
    layers = Layers()
    assert list(layers.may) == ["engine", "play", "analysis", "bots", "pictures", "table", "widgets", "front"]
    for where in layers.folders:
        assert (ROOT / where).exists(), f"{PAGE.name} names {where}, which does not exist"
    for layer, allowed in layers.may.items():
        unknown = allowed - set(layers.may)
        assert not unknown, f"{layer} may import {unknown}: not layers"


def test_every_module_is_in_a_layer() -> None:
    layers = Layers()
    for path in modules(PACKAGE).values():
        layers.of(path)


def test_ra_core_keeps_little_besides_its_front_door() -> None:
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 8, top


def test_imports_follow_the_page() -> None:
    """Each module imports only from its own layer and those its row names, or as the page lists."""
    layers = Layers()
    wrong = []
    for name, path in modules(PACKAGE).items():
        mine = layers.of(path)
        rel = path.relative_to(ROOT).as_posix()
        for target in sorted(runtime_imports(path)):
            found = resolve(target)
            if found is None or not found.startswith("ra_core"):
                assert not (target.startswith(("ra_course", "grading"))), f"{name} imports {target}"
                continue
            theirs = layers.of(ALL[found])
            upward_ok = (rel, found) in layers.upward
            if theirs not in layers.may[mine] and not upward_ok:
                wrong.append(f"{name} ({mine}) imports {found} ({theirs})")
    assert not wrong, "\n".join(wrong)


def test_the_listed_upward_imports_exist() -> None:
    """An upward import the page lists but the code no longer makes is a stale line on the page."""
    for module, target in Layers().upward:
        imports = {resolve(t) for t in runtime_imports(ROOT / module)}
        assert target in imports, f"{PAGE.name} lists {module} -> {target}, which the code does not import"


def test_no_import_cycles_within_a_layer() -> None:
    layers = Layers()
    edges: dict[str, set[str]] = {}
    for name, file in modules(PACKAGE).items():
        mine = layers.of(file)
        targets = {resolve(t) for t in runtime_imports(file)} - {None, name}
        edges[name] = {t for t in targets if t and t.startswith("ra_core") and layers.of(ALL[t]) == mine}
    found = cycle(edges)
    assert found is None, "import cycle: " + " -> ".join(found or [])


def test_the_packages_beside_import_what_the_page_says() -> None:
    rows = {ticked(name)[0]: listed(may) for name, _, may, _ in table("## The packages beside")}
    assert set(rows) == {"ra_core", "ra_course", "grading"}
    for package in ("ra_course", "grading"):
        for name, path in modules(ROOT / package).items():
            for target in runtime_imports(path):
                head = target.split(".")[0]
                if head in rows and head != package:
                    assert head in rows[package], f"{name} imports {target}: {package} may import {rows[package]}"
    for name, path in modules(PACKAGE).items():
        for target in runtime_imports(path):
            assert target.split(".")[0] not in {"ra_course", "grading"}, f"{name} imports {target}"


def test_only_the_named_modules_need_more_than_the_standard_library() -> None:
    allowed: dict[str, set[str]] = {}
    for where, need in table("These modules need more"):
        names = {n.strip().split()[0] for n in re.sub(r"\(.*?\)", "", need).split(",")}
        for path in ticked(where):
            allowed[path.rstrip("/")] = names
    ours = {"ra_core", "ra_course", "grading"}
    wrong = []
    for package in (PACKAGE, ROOT / "ra_course"):
        for name, file in modules(package).items():
            rel = file.relative_to(ROOT).as_posix()
            extra = set().union(*(v for k, v in allowed.items() if rel == k or rel.startswith(k + "/")))
            for target in runtime_imports(file):
                head = target.split(".")[0]
                if head and head not in sys.stdlib_module_names and head not in ours and head not in extra:
                    wrong.append(f"{name} imports {head}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("module", ["ra_core.engine.state", "ra_core.widgets.controllers"])
def test_the_checker_sees_runtime_imports_only(module: str) -> None:
    """The checker itself: a runtime import counts, one under TYPE_CHECKING does not; relative imports resolve."""
    found = {resolve(t) for t in runtime_imports(ALL[module])}
    if module == "ra_core.engine.state":
        assert "ra_core.engine.transitions" in found and "ra_core.pictures.svg" in found
    else:
        assert "ra_core.engine.setup" in found
    textboard = {resolve(t) for t in runtime_imports(ALL["ra_core.engine.textboard"])}
    assert "ra_core.engine.records" in textboard and "ra_core.engine.state" not in textboard
