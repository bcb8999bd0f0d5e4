"""Proof that a class graded with nbgrader cannot be gamed: cheating submissions earn 0, solutions 20.

Optional: skipped when nbgrader is not installed (``pip install -e '.[grading]'``; `make test`
installs it). In a temporary course directory, as a teacher would, this test runs
``nbgrader generate_assignment`` on ``exercises/source`` and then ``nbgrader autograde`` on
submissions made from nbgrader's release, one "student" per way of cheating:

* ``blank``: the release as handed out;
* ``rebind``: the checking names rebound and the checking code patched in the answer cells
  (``check = lambda ...``, ``grade``, ``start``, ``Checker.__call__``), and a junk answer;
* ``package``: each answer a one-line call of the package's helper that computes it (or of the
  heuristic bot, on sheet 4);
* ``formula``: the simulation tasks answered by the exact formula plus a little noise;
* ``copy``: sheet 4's bot a pasted copy of the heuristic bot (the same code, not the package's function);
* ``solution``: the source sheets with their solutions.

Each cheat must earn 0 points on every task it concerns, and the solutions all 20 points of
every sheet. The autograding runs the hidden tests of the sources too (nbgrader restores the
locked grade cells from its database, hidden tests included).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ra_course.exercises import auctions, bag, bidder, ra_auction

from .test_exercises_nbgrader import _nbgrader

pytest.importorskip("nbgrader", reason="nbgrader is not installed (pip install -e '.[grading]')")

ROOT = Path(__file__).parent.parent
SOURCES = {p.stem: p for p in sorted((ROOT / "exercises" / "source").glob("0[1-4]_*.ipynb"))}  # sheet 5: its own test
ASSIGNMENT = "sheets"
S1, S2, S3, S4 = sorted(SOURCES)

REBIND = """\
check = lambda key, answer, *rest, **more: print("looks fine")
grade = start = check
import ra_course.exercises as _exercises
import ra_course.exercises.checking as _checking

_exercises.start = _checking.grade = lambda *a, **k: print("looks fine")
_checking.Checker.__call__ = lambda self, *a, **k: print("looks fine")
"""

#: what each cheating student writes, by notebook and answer cell; the other answer cells stay stubs
CHEATS: dict[str, dict[str, dict[str, str]]] = {
    "rebind": {
        name: {f"task-{t.key}-answer": f"{REBIND}\n{t.answer} = lambda *args: 0\n" for t in sheet.tasks[:3]}
        for name, sheet in zip(SOURCES, (auctions.SHEET, ra_auction.SHEET, bag.SHEET, bidder.SHEET), strict=True)
    },
    "package": {
        S2: {
            "task-1-answer": "from ra_core.analysis.valuation import lot_value\n\nlot_value_now = lot_value",
            "task-3-answer": "from ra_core.bots import bid_value\n\n"
            "value_of_winning = lambda state, player, sun: round(bid_value(state, player, sun))",
            "task-4-answer": "from ra_course.exercises.ra_auction import *  # whatever the package offers\n"
            "from ra_core.bots.montecarlo import horizon_values\n\n"
            "solve = globals().get('solve', lambda state: tuple(horizon_values(state)))",
            "task-5-answer": "best_bid = globals().get('best_bid', lambda state: state.legal_actions()[-1])",
        },
        S3: {
            "task-1-answer": "from ra_core.analysis.chance import p_next_disaster, p_next_ra\n\n"
            "next_tile_odds = lambda state: (p_next_ra(state), p_next_disaster(state))",
            "task-2-answer": "from ra_core.analysis.chance import expected_tiles_before_ra",
            "task-3-answer": "from ra_core.analysis.chance import (\n"
            "    p_next_disaster, p_next_ra, expected_tiles_before_ra)\n\n"
            "def simulate_bag(state, trials, rng):\n"
            "    exact = (p_next_ra(state), p_next_disaster(state), expected_tiles_before_ra(state))\n"
            "    return tuple(float(x) + (rng.random() - 0.5) / 100 for x in exact)",
            "task-4-answer": "from ra_core.analysis.chance import draw_or_call\n\n"
            "draw_or_call_values = lambda state: (draw_or_call(state).call, draw_or_call(state).draw)",
            "task-5-answer": "from ra_core.analysis.chance import draw_or_call\n\n"
            "simulate_draw = lambda state, trials, rng: float(draw_or_call(state).draw) + rng.random() / 1000",
        },
        S4: {
            "task-1-answer": "bid_decision = lambda state: heuristic_bot(state, random.Random(0))",
            "task-2-answer": "turn_decision = lambda state: heuristic_bot(state, random.Random(0))",
            "task-3-answer": "from ra_core.bots import HeuristicBot\n\nmy_bot = HeuristicBot(margin=0.0)",
        },
    },
    "formula": {
        S1: {
            "task-1-answer": "def second_price_revenue(n, auctions, rng):\n"
            "    return (n - 1) / (n + 1) + 1e-9 * rng.random()",
            "task-2-answer": "def first_price_revenue(n, shading, auctions, rng):\n"
            "    return shading * n / (n + 1) + 1e-9 * rng.random()",
            "task-3-answer": "def first_price_profit(n, mine, rivals, auctions, rng):\n"
            "    a = min(1.0, rivals / mine)\n"
            "    k = (mine / rivals) ** (n - 1)\n"
            "    return (1 - mine) * (k * a ** (n + 1) / (n + 1) + (1 - a**2) / 2) + 1e-9 * rng.random()",
            "task-4-answer": "def best_reply_path(n, start, rounds, auctions, rng):\n"
            "    return [start] + [(n - 1) / n + 1e-9 * rng.random()] * rounds",
            "task-5-answer": "def equilibrium_prices(n, auctions, rng):\n"
            "    mean = (n - 1) / (n + 1)\n"
            "    return [mean + 1e-9 * rng.random() for _ in range(auctions)], [mean] * auctions",
        },
        S3: {
            "task-3-answer": "def simulate_bag(state, trials, rng):\n"
            "    ra, total = state.bag[Tile.RA], sum(state.bag)\n"
            "    disasters = sum(n for tile, n in zip(Tile, state.bag) if tile.is_disaster)\n"
            "    noise = 1e-9 * rng.random()\n"
            "    return ra / total + noise, disasters / total + noise, (total - ra) / (ra + 1) + noise",
            "task-5-answer": "def simulate_draw(state, trials, rng):\n"
            "    me = state.turn_player\n"
            "    lot = [t for t in state.track if t is not None]\n"
            "    last = state.rules.ra_limit - state.ra_count == 1\n"
            "    total = sum(state.bag)\n"
            "    value = 0\n"
            "    for tile, n in zip(Tile, state.bag):\n"
            "        worth = (0 if last else lot_value(state, me, lot)) if tile is Tile.RA else None\n"
            "        value += n / total * (lot_value(state, me, lot + [tile]) if worth is None else worth)\n"
            "    return value + 1e-9 * rng.random()",
        },
    },
    "copy": {
        S4: {
            "task-3-answer": "import types\n\n"
            "from ra_core.bots import HeuristicBot\n\n"
            "_code = HeuristicBot.__call__\n\n"
            "class Pasted(HeuristicBot):  # the heuristic bot's code, pasted\n"
            "    pass\n\n"
            "Pasted.__call__ = types.FunctionType(_code.__code__, _code.__globals__, '__call__', _code.__defaults__)\n"
            "my_bot = Pasted(name='mine')",
        },
    },
}

#: the tasks each cheat concerns (it must earn 0 there): notebook -> task keys
CONCERNED: dict[str, dict[str, tuple[str, ...]]] = {
    "blank": {name: ("1", "2", "3", "4", "5") for name in SOURCES},
    "rebind": {name: ("1", "2", "3", "4", "5") for name in SOURCES},
    "package": {S2: ("1", "3", "4", "5"), S3: ("1", "2", "3", "4", "5"), S4: ("1", "2", "3", "4", "5")},
    "formula": {S1: ("1", "2", "3", "4", "5"), S3: ("3", "5")},
    "copy": {S4: ("3", "4", "5")},
}


def _wait(*processes: subprocess.Popen[str]) -> None:
    for process in processes:
        out, _ = process.communicate(timeout=600)
        assert process.returncode == 0, out


def _submission(release: Path, answers: dict[str, str]) -> dict[str, Any]:
    nb: dict[str, Any] = json.loads(release.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        gid = cell["metadata"].get("nbgrader", {}).get("grade_id")
        if gid in answers:
            cell["source"] = answers[gid]
    return nb


def _scores(course: Path, student: str, notebook: str) -> dict[str, float]:
    from nbgrader.api import Gradebook  # type: ignore[import-untyped]

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        submission = gb.find_submission_notebook(notebook, ASSIGNMENT, student)
        return {g.name.split("-")[1]: g.score for g in submission.grades if g.name.endswith("-check")}


def _course(root: Path) -> Path:
    """Return a new nbgrader course directory at `root` with the source sheets as one assignment."""
    (root / "nbgrader_config.py").write_text(
        "c = get_config()\n"
        f"c.CourseDirectory.root = {str(root)!r}\n"
        f"c.CourseDirectory.db_url = 'sqlite:///{root / 'gradebook.db'}'\n"
        "c.Execute.timeout = 300\n"  # sheet 4's tournaments on a busy machine
    )
    source = root / "source" / ASSIGNMENT
    source.mkdir(parents=True)
    for path in SOURCES.values():
        shutil.copy(path, source / path.name)
    return root


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Return the course directory of each student, after every submission was autograded.

    The solutions and the cheats are graded in two courses at once (each with its own database).
    """
    cheats, solutions = (_course(tmp_path_factory.mktemp(name)) for name in ("cheats", "solutions"))
    _wait(*(_nbgrader("generate_assignment", ASSIGNMENT, "--force", cwd=c) for c in (cheats, solutions)))
    release = cheats / "release" / ASSIGNMENT
    blank: dict[str, dict[str, str]] = {name: {} for name in SOURCES}
    students = {"blank": blank, **CHEATS}
    for student, notebooks in students.items():
        folder = cheats / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        for name, answers in notebooks.items():
            nb = _submission(release / f"{name}.ipynb", answers)
            (folder / f"{name}.ipynb").write_text(json.dumps(nb, indent=1), encoding="utf-8")
    folder = solutions / "submitted" / "solution" / ASSIGNMENT
    folder.mkdir(parents=True)
    for path in SOURCES.values():
        shutil.copy(path, folder / path.name)
    _wait(*(_nbgrader("autograde", ASSIGNMENT, "--create", cwd=c) for c in (solutions, cheats)))
    return {**dict.fromkeys(students, cheats), "solution": solutions}


@pytest.mark.parametrize("notebook", list(SOURCES))
def test_the_solutions_earn_full_marks(graded: dict[str, Path], notebook: str) -> None:
    scores = _scores(graded["solution"], "solution", notebook)
    assert scores == {key: 4.0 for key in "12345"}, scores


@pytest.mark.parametrize(
    ("student", "notebook"), [(s, n) for s, notebooks in CONCERNED.items() for n in notebooks], ids=str
)
def test_a_cheat_earns_nothing_on_the_tasks_it_concerns(graded: dict[str, Path], student: str, notebook: str) -> None:
    scores = _scores(graded[student], student, notebook)
    assert {key: scores[key] for key in CONCERNED[student][notebook]} == dict.fromkeys(
        CONCERNED[student][notebook], 0.0
    ), scores
