"""One seed reproduces a whole game, in CPython and in Pyodide: checked by running both.

The engine is copied into Pyodide (the npm package `pyodide`, pinned below, run by Node with
tests/pyodide_runner.mjs; only Pyodide's core, no micropip), and the same function,
`_scenarios`, runs there and in this process: seeded bot games for 2-5 players under default
and non-default rules, a Monte Carlo bot game and decisions, and exact probabilities from
`ra_core.analysis.chance`. Its JSON results must be equal, action for action and to the last bit of
every float and `Fraction`.

Pyodide's core files are cached in ``.cache/pyodide/`` at the repository root, installed on
first use with npm. Without node or npm (or if that install fails) the tests fail under CI
(``CI`` set) and are skipped elsewhere.
"""

from __future__ import annotations

import inspect
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, NoReturn

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYODIDE_VERSION = "0.27.7"  # its Python is 3.12.7; ra_core needs 3.11+
CACHE = ROOT / ".cache" / "pyodide"
PYODIDE_DIR = CACHE / "node_modules" / "pyodide"
CORE_FILES = ("package.json", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
RUNNER = Path(__file__).with_name("pyodide_runner.mjs")
NOT_IN_PYODIDE = ("matplotlib", "ipywidgets", "micropip")  # the engine must not need them

# name, players, seed, seats (R: random_bot, H: heuristic_bot), rules options (None: the default
# rules; else `Rules.classic(players, **options)`, or `Rules.two_player(**options)` for 2 players).
# Default rules: every player count with two seeds (one a string); then non-default options.
CASES: list[tuple[str, int, int | str, str, dict[str, Any] | None]] = [
    ("2p-seed-1", 2, 1, "RH", None),
    ("2p-seed-ra", 2, "ra", "HH", None),
    ("3p-seed-7", 3, 7, "RHR", None),
    ("3p-seed-2026", 3, 2026, "HHH", None),
    ("4p-seed-3", 4, 3, "HRHR", None),
    ("4p-seed-42", 4, 42, "HHHH", None),
    ("5p-seed-11", 5, 11, "RHRHR", None),
    ("5p-seed-99", 5, 99, "HHHHH", None),
    ("3p-no-god-disaster-no-fame-floor", 3, 5, "HRH", {"god_can_take_disaster": False, "fame_floor": False}),
    ("5p-sun-sum-tie-break", 5, 8, "HHRHH", {"tie_break": "highest_sun_sum"}),
    ("2p-groups-a-ra-6-no-penalty", 2, 4, "HR", {"groups": "a", "ra_limit": 6, "no_penalty": True}),
    ("2p-no-penalty-all-epochs", 2, 9, "RH", {"no_penalty": True, "no_penalty_scope": "all_epochs"}),
]
CASES_JSON = json.dumps(CASES)


def _scenarios(cases_json: str) -> str:
    """Play the `cases_json` games, then the Monte Carlo and chance checks; return JSON results.

    This runs unchanged in CPython and, as source text, in Pyodide: it imports what it needs
    itself and returns only JSON text, so both sides are compared as the same data.
    """
    import json
    import random
    from fractions import Fraction

    from ra_core import Phase
    from ra_core.analysis.chance import (
        draw_or_call,
        draws_until_epoch_end,
        expected_lot_values_after_draw,
        free_slots,
        tiles_before_ra,
    )
    from ra_core.bots import heuristic_bot, random_bot
    from ra_core.bots.montecarlo import MonteCarloBot, action_values
    from ra_core.engine.rules import Rules
    from ra_core.play import play_game

    def law(d: dict[int, Fraction]) -> dict[int, str]:
        return {k: str(v) for k, v in d.items()}

    bots: dict[str, Any] = {"R": random_bot, "H": heuristic_bot}
    games = {}
    for name, players, seed, seats, options in json.loads(cases_json):
        rules = None
        if options is not None:
            rules = Rules.two_player(**options) if players == 2 else Rules.classic(players, **options)
        record = play_game([bots[s] for s in seats], seed=seed, rules=rules)
        final = record.replay()
        games[name] = {
            "record": record.to_json(),
            "final": final.to_dict(),
            "fame": list(final.fame),
            "winner": final.winner(),
        }

    # Decisions from one seeded 3-player game: a turn with tiles on the track, and an auction bid.
    states = list(play_game([heuristic_bot] * 3, seed=5).states())
    turn = next(s for s in states if s.phase is Phase.ACTION and sum(t is not None for t in s.track) >= 2)
    bid = next(s for s in states if s.phase is Phase.BID and len(s.legal_actions()) > 1)
    montecarlo = {
        "game": play_game([MonteCarloBot(rollouts=3), heuristic_bot], seed=6).to_json(),
        "turn_values": {str(a): v for a, v in action_values(turn, random.Random(1), rollouts=10).items()},
        "bid_values": {str(a): v for a, v in action_values(bid, random.Random(2), rollouts=10).items()},
        "bid_choice": str(MonteCarloBot(rollouts=10)(bid, random.Random(2))),
    }
    choice = draw_or_call(turn, horizon=2)
    chance = {
        "state": turn.to_dict(),
        "tiles_before_ra": law(tiles_before_ra(turn)),
        "tiles_before_ra_capped": law(tiles_before_ra(turn, cap=free_slots(turn))),
        "draws_until_epoch_end": law(draws_until_epoch_end(turn)),
        "expected_lot_values_after_draw": [str(v) for v in expected_lot_values_after_draw(turn)],
        "draw_or_call": [str(choice.call), str(choice.draw), str(choice.p_ra), choice.best],
    }
    return json.dumps({"games": games, "montecarlo": montecarlo, "chance": chance})


def _charts() -> str:
    """Draw two plots as the standard library's SVG charts (what Pyodide without matplotlib draws); return JSON.

    In Pyodide `plots.MATPLOTLIB` is False by itself (reported as ``"matplotlib"``); here it is
    switched off while the charts are drawn.
    """
    import json

    from ra_core.bots import heuristic_bot
    from ra_core.pictures import plots
    from ra_core.play import play_game

    found = plots.MATPLOTLIB
    plots.MATPLOTLIB = False
    try:
        fame = plots.plot_fame(play_game([heuristic_bot] * 3, seed=9))
        law = plots.plot_distribution({0: 0.5, 1: 0.3, 2: 0.2}, simulated={0: 48, 1: 33, 2: 19}, xlabel="tiles")
        return json.dumps({"matplotlib": found, "fame": plots.to_svg(fame), "law": plots.to_svg(law)})
    finally:
        plots.MATPLOTLIB = found


# Sent to Pyodide: `_scenarios` and `_charts`, then the facts about the interpreter and what got imported.
PYODIDE_SCRIPT = f"""
{inspect.getsource(_scenarios)}

{inspect.getsource(_charts)}

import json, pkgutil, sys, importlib
import ra_core, ra_course

results = json.loads(_scenarios({CASES_JSON!r}))
skip = ("ra_core.__main__", "ra_core.pictures.plotfigures", "ra_core.pictures.plotstyle", "ra_core.widgets")
# the CLI; the matplotlib figures and their style; ipywidgets (plots imports: it draws charts without matplotlib)
modules = [m.name for m in pkgutil.walk_packages(ra_core.__path__, "ra_core.") if not m.name.startswith(skip)]
modules += [m.name for m in pkgutil.walk_packages(ra_course.__path__, "ra_course.")]
for name in modules:
    importlib.import_module(name)
results["charts"] = json.loads(_charts())
results["environment"] = {{
    "platform": sys.platform,
    "version": list(sys.version_info[:3]),
    "ra_core": ra_core.__file__,
    "modules_imported": modules,
    "loaded": sorted(m for m in sys.modules if m.split(".")[0] in {NOT_IN_PYODIDE!r}),
}}
json.dumps(results)
"""


def _unavailable(why: str) -> NoReturn:
    """Fail loudly in CI, skip elsewhere (as the browser tests do)."""
    if os.environ.get("CI"):
        pytest.fail(why)
    pytest.skip(why)


def _installed_version() -> str | None:
    """Return the version of the cached Pyodide if all its core files are there."""
    if not all((PYODIDE_DIR / f).is_file() for f in CORE_FILES):
        return None
    try:
        version = json.loads((PYODIDE_DIR / "package.json").read_text()).get("version")
    except (OSError, ValueError):
        return None
    return str(version) if version else None


@pytest.fixture(scope="session")
def pyodide_dir() -> Path:
    """Pyodide's core files in .cache/pyodide, installed once with npm if missing."""
    if shutil.which("node") is None:
        _unavailable("the Pyodide test needs node (Node.js 18+) on PATH: apt-get install -y nodejs npm")
    if _installed_version() != PYODIDE_VERSION:
        npm = shutil.which("npm")
        if npm is None:
            _unavailable(f"the Pyodide test needs npm on PATH to install pyodide@{PYODIDE_VERSION} into {CACHE}")
        cmd = [npm, "install", "--prefix", str(CACHE), "--no-audit", "--no-fund", "--loglevel=error"]
        cmd.append(f"pyodide@{PYODIDE_VERSION}")
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            _unavailable(f"installing Pyodide timed out after 300 s: {' '.join(cmd)}")
        if done.returncode != 0 or _installed_version() != PYODIDE_VERSION:
            _unavailable(f"could not install Pyodide (exit {done.returncode}): {' '.join(cmd)}\n{done.stderr[-2000:]}")
    return PYODIDE_DIR


@pytest.fixture(scope="session")
def in_pyodide(pyodide_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The results of `_scenarios` (and the interpreter's facts) from one Node + Pyodide run."""
    script = tmp_path_factory.mktemp("pyodide") / "scenarios.py"
    script.write_text(PYODIDE_SCRIPT)
    cmd = ["node", str(RUNNER), str(pyodide_dir), str(script), str(ROOT / "ra_core"), str(ROOT / "ra_course")]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"Pyodide run timed out after {e.timeout} s: {' '.join(cmd)}")
    assert done.returncode == 0, f"Pyodide run failed (exit {done.returncode}):\n{done.stderr[-4000:]}"
    results: dict[str, Any] = json.loads(done.stdout)
    return results


@pytest.fixture(scope="session")
def in_cpython() -> dict[str, Any]:
    """The results of `_scenarios` in this CPython process."""
    results: dict[str, Any] = json.loads(_scenarios(CASES_JSON))
    return results


def test_pyodide_runs_ra_core_with_the_standard_library_only(in_pyodide: dict[str, Any]) -> None:
    """It really is Pyodide (emscripten, Python 3.11+) running the repository's ra_core copy, and
    every ra_core module but the matplotlib figures and the widgets (plots included), and every
    ra_course module, imports and plays without matplotlib or ipywidgets."""
    env = in_pyodide["environment"]
    assert env["platform"] == "emscripten"
    assert tuple(env["version"]) >= (3, 11)
    assert env["ra_core"] == "/home/pyodide/src/ra_core/__init__.py"
    assert {"ra_core.play", "ra_core.bots", "ra_core.analysis.chance", "ra_core.bots.montecarlo"} <= set(
        env["modules_imported"]
    )
    assert {"ra_course.evidence", "ra_course.exercises.checking"} <= set(env["modules_imported"])  # the course too
    assert env["loaded"] == [], f"imported in Pyodide, though ra_core must not need them: {env['loaded']}"


@pytest.mark.parametrize("name", [case[0] for case in CASES])
def test_seeded_bot_game_is_the_same_in_pyodide(
    name: str, in_cpython: dict[str, Any], in_pyodide: dict[str, Any]
) -> None:
    """A seeded game between random and heuristic bots gives, in Pyodide, the same actions (chance
    reveals included), the same record, final position, fame and winner as in CPython."""
    here, there = in_cpython["games"][name], in_pyodide["games"][name]
    assert json.loads(there["record"])["actions"] == json.loads(here["record"])["actions"]
    assert there["record"] == here["record"]
    assert there["final"] == here["final"]
    assert (there["fame"], there["winner"]) == (here["fame"], here["winner"])


def test_monte_carlo_bot_is_the_same_in_pyodide(in_cpython: dict[str, Any], in_pyodide: dict[str, Any]) -> None:
    """The Monte Carlo bot, seeded through the `random.Random` it is given, plays the same game and
    finds exactly the same mean rollout values (floats compared bit for bit) in Pyodide."""
    here, there = in_cpython["montecarlo"], in_pyodide["montecarlo"]
    assert json.loads(there["game"])["actions"] == json.loads(here["game"])["actions"]
    assert there == here


def test_exact_probabilities_are_the_same_in_pyodide(in_cpython: dict[str, Any], in_pyodide: dict[str, Any]) -> None:
    """`ra_core.analysis.chance` gives the same exact laws, expectations and draw-or-call values (Fractions
    as text) for a mid-game position in Pyodide as in CPython."""
    assert in_pyodide["chance"] == in_cpython["chance"]


def test_plots_draw_as_the_same_charts_in_pyodide(in_pyodide: dict[str, Any]) -> None:
    """Without matplotlib (Pyodide has none here) `ra_core.pictures.plots` imports and draws with the standard
    library's SVG charts: the same bytes as the charts drawn in CPython."""
    there = in_pyodide["charts"]
    assert there["matplotlib"] is False
    here = json.loads(_charts())
    assert there["fame"] == here["fame"] and there["law"] == here["law"]
    assert there["fame"].startswith("<svg") and "Fame over the game" in there["fame"]
