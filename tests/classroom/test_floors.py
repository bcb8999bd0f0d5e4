"""The floors of docs/classroom.md, checked against every import of `ra_classroom`.

The page's table is the one list of floors (the same readers as tests/test_layers.py, in
tests/layering.py). What it checks: every module is on a floor; each imports only from its own
floor and the floors its row names (``ra_core`` meaning the engine's package, through its front
door or `game.bridge`: tests/classroom/test_boundaries.py says which); no imports close a cycle
within a floor; and few modules stand directly in `ra_classroom/`.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.layering import ROOT, cycle, listed, modules, resolve, runtime_imports, table, ticked

PAGE = ROOT / "docs" / "classroom.md"
PACKAGE = ROOT / "ra_classroom"
MODULES = modules(PACKAGE)


class Floors:
    """The floors as the page states them: each module's floor, and what each floor may import."""

    def __init__(self) -> None:
        self.places: dict[str, str] = {}  # a folder or a file below the repository -> floor
        self.may: dict[str, set[str]] = {}
        for name, where, _, may in table(PAGE, "## The floors"):
            for path in ticked(where):
                self.places[path.rstrip("/")] = name
            self.may[name] = listed(may) | {name}

    def of(self, path: Path) -> str:
        """Return the floor of a module file of `ra_classroom`, by its folder (or its own name)."""
        rel = path.relative_to(ROOT).as_posix()
        for where, floor in self.places.items():
            if rel == where or rel.startswith(where + "/"):
                return floor
        raise AssertionError(f"{rel} is on no floor of {PAGE.name}: put it in a floor's folder or add a row")


def targets(path: Path) -> set[str]:
    """Return the `ra_classroom` modules, and ``ra_core``, that a module imports when it runs."""
    found = set()
    for target in runtime_imports(path):
        if target.split(".")[0] == "ra_core":
            found.add("ra_core")
        elif target.split(".")[0] == "ra_classroom" and (module := resolve(target, MODULES.keys())):
            found.add(module)
    return found


def test_the_page_names_floors_that_exist() -> None:
    floors = Floors()
    assert list(floors.may) == ["auctions", "game", "kinds", "store", "web", "teacher", "front"]
    for where in floors.places:
        assert (ROOT / where).exists(), f"{PAGE.name} names {where}, which does not exist"
    for floor, allowed in floors.may.items():
        unknown = allowed - set(floors.may) - {"ra_core"}
        assert not unknown, f"{floor} may import {unknown}: not floors"


def test_every_module_is_on_a_floor() -> None:
    floors = Floors()
    for path in MODULES.values():
        floors.of(path)


def test_few_modules_stand_directly_in_the_package() -> None:
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 8, top


def test_imports_follow_the_page() -> None:
    floors = Floors()
    wrong = []
    for name, path in MODULES.items():
        mine = floors.of(path)
        for target in sorted(targets(path) - {name}):
            theirs = "ra_core" if target == "ra_core" else floors.of(MODULES[target])
            if theirs not in floors.may[mine]:
                wrong.append(f"{name} ({mine}) imports {target} ({theirs})")
    assert not wrong, "\n".join(wrong)


def test_no_import_cycles_within_a_floor() -> None:
    floors = Floors()
    edges = {
        name: {t for t in targets(path) - {name, "ra_core"} if floors.of(MODULES[t]) == floors.of(path)}
        for name, path in MODULES.items()
    }
    found = cycle(edges)
    assert found is None, "import cycle: " + " -> ".join(found or [])


def test_the_checker_sees_what_a_module_imports() -> None:
    """The checker itself: relative imports across floors resolve, and ``ra_core`` is seen."""
    assert "ra_classroom.store.commands" in targets(MODULES["ra_classroom.web.classroom"])
    assert "ra_core" in targets(MODULES["ra_classroom.game.bridge"])
    assert Floors().of(MODULES["ra_classroom"]) == "front"


def test_the_classroom_tests_in_the_fast_tier_start_no_server() -> None:
    """tests/conftest.py keeps the pure-Python classroom tests out of the slow tier: they must stay pure."""
    from tests.conftest import PURE, kinds_of

    for rel in PURE:
        path = ROOT / rel
        text = path.read_text()
        assert path.exists() and not kinds_of(path), rel
        server = re.search(r"^from (\.pages|\.postgres|\S*web\.server|\S*teacher\.client) import", text, re.M)
        assert server is None, f"{rel} imports a server or its client: not a fast test"
        assert not re.search(r"def test_\w+\([^)]*\b(server|teacher|pages|postgres)\b", text, re.S), rel
