"""Proof that a class graded with nbgrader cannot be gamed: cheating submissions earn 0, solutions 20.

Optional: skipped when nbgrader is not installed (``pip install -e '.[grading]'``; `make test`
installs it). In temporary course directories, as a teacher would, this test runs
``nbgrader generate_assignment`` on ``exercises/source`` (all five sheets) and then
``nbgrader autograde`` on submissions made from nbgrader's release, one "student" per kind of
cheat (the kinds, not a list of tricks: each student tries several of its kind):

* ``blank``: the release as handed out; ``rebind``: the checking names rebound and the checking
  code patched in the answer cells, and a junk answer;
* ``noise``: every simulation answered by its closed form plus Gaussian noise of exactly a
  simulation's spread, after drawing as many numbers from ``rng`` as the task implies (what the
  checkers' old internals made possible); the best replies by the exact best reply of each round;
* ``prober``: every callable of the checks' modules, private ones included, tried on the task's
  inputs, the first answer of the right shape returned (the checkers' internals);
* ``engine``: the engine's one-liners (the next tile's odds from ``chance_outcomes``, the tiles
  before Ra from the epoch's expected draws), pasted copies of the engine's functions and bots,
  whose code object the tripwires do not reach;
* ``equal``: answers that claim to equal anything (an object, a float, a Fraction subclass);
* ``frames``: functions that read the checks' frames and the hashes they find there, and
  brute-force a small answer against them (the answers of the hidden tests are not loaded yet);
* ``fitted``: answers fitted to the visible checks (a lookup table, always the highest sun);
* ``abs``, ``fraction``, ``stats``, ``tracer``, ``thread``, ``ipython``, ``transformer``: each
  changes the kernel the checks run in (a built-in, a class of the standard library, a method of
  `ra_core`, a trace function, a spying thread, IPython's error handler, an input transformer that
  rewrites the graded cells);
* ``solution``: the source sheets with their solutions.

Each cheat must earn 0 on every task it aims at, and the solutions all 20 points of every sheet.
The autograding runs the hidden tests too (nbgrader restores the locked grade cells from its
database, hidden tests included). The scan of the submissions (`grading.audit`) finds something
in every cheat that reaches into the kernel, and nothing in the solutions.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from ra_course.exercises import SHEETS, reserve, sheet

from .test_exercises_nbgrader import _nbgrader

pytest.importorskip("nbgrader", reason="nbgrader is not installed (pip install -e '.[grading]')")

ROOT = Path(__file__).parent.parent
SOURCES = {p.stem: p for p in sorted((ROOT / "exercises" / "source").glob("*.ipynb"))}
ASSIGNMENT = "sheets"
S1, S2, S3, S4, S5 = sorted(SOURCES)
BY_SHEET = dict(zip(SOURCES, SHEETS, strict=True))

REBIND = """\
check = lambda key, answer, *rest, **more: print("looks fine")
grade = start = check
import ra_course.exercises as _exercises
import ra_course.exercises.checking as _checking

_exercises.start = _checking.grade = lambda *a, **k: print("looks fine")
_checking.Checker.__call__ = lambda self, *a, **k: print("looks fine")
"""

#: the closed form plus noise of a simulation's spread, drawing as many numbers as the task implies
NOISE = """\
import random as _random

def _noisy(mean, variance, draws, rng, auctions):
    numbers = [rng.random() for _ in range(draws)]  # as many draws as a simulation makes
    return mean + _random.Random(sum(numbers)).gauss(0, (variance / auctions) ** 0.5)
"""

#: every callable of the checks' modules, private ones included, tried on the arguments
PROBER = """\
import importlib, pkgutil
import ra_course.exercises as _package

def _probe(*args, want):
    for info in pkgutil.iter_modules(_package.__path__):
        module = importlib.import_module(f"ra_course.exercises.{info.name}")
        for name in dir(module):
            function = getattr(module, name)
            if not callable(function) or isinstance(function, type):
                continue
            try:
                found = function(*args)
            except BaseException:
                continue
            if want(found):
                return found
    return None
"""

#: a function that reads the checks' frames for hashes and answers, and brute-forces against them
FRAMES = """\
import re, sys, hashlib

def _seen():
    found, frame = [], sys._getframe(2)
    while frame is not None:
        for space in (frame.f_locals, frame.f_globals):
            found.append(repr(list(space.values()))[:10**6])
        frame = frame.f_back
    text = " ".join(found) + " ".join(get_ipython().user_ns.get("_ih", []))
    return set(re.findall(r"[0-9a-f]{64}", text))

def _canonical(value):
    from ra_course.exercises.hashing import canonical
    return canonical(value)

def _first_hashed(candidates):
    hashes = _seen()
    for candidate in candidates:
        if hashlib.sha256(_canonical(candidate).encode()).hexdigest() in hashes:
            return candidate
    return None
"""

ANYTHING = """\
class Anything:
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    def __hash__(self):
        return 0
"""


def _pasted(module: str, attributes: str, target: str) -> str:
    """Return code that binds `target` to a copy of a package function, made from its code object."""
    return (
        "import importlib, types\n"
        f"_original = importlib.import_module({module!r})\n"
        f"for _name in {attributes.split('.')!r}:\n"
        "    _original = getattr(_original, _name)\n"
        f"{target} = types.FunctionType(_original.__code__, _original.__globals__, _original.__name__,"
        " _original.__defaults__, _original.__closure__)\n"
    )


def _fitted_sheet5() -> dict[str, str]:
    """Return answers fitted to sheet 5's visible checks: a table of their answers, from the reference."""
    from grading import keys

    solution = keys.reference("reserve")
    reserves = {}
    for coefficients in reserve.LAWS.values():
        F, _ = reserve.law(coefficients)
        reserves[str(F(Fraction(1, 2)))] = solution["optimal_reserve"](*reserve.law(coefficients))
    revenues = {(n, str(r), a): str(solution["revenue_with_reserve"](n, r, a)) for n, r, a in reserve.CASES}
    return {
        "task-2-answer": f"_RESERVES = {reserves!r}\n\ndef optimal_reserve(F, f):\n"
        "    return _RESERVES.get(str(F(Fraction(1, 2))), 0.5)",
        "task-3-answer": f"_REVENUES = {revenues!r}\n\ndef revenue_with_reserve(n, r, a):\n"
        "    return Fraction(_REVENUES.get((n, str(r), a), '0'))",
    }


#: what each cheating student writes, by notebook and answer cell; the other answer cells stay stubs
CHEATS: dict[str, dict[str, dict[str, str]]] = {
    "rebind": {
        name: {f"task-{t.key}-answer": f"{REBIND}\n{t.answer} = lambda *args: 0\n" for t in sheet(BY_SHEET[name]).tasks}
        for name in SOURCES
    },
    "noise": {
        S1: {
            "task-1-answer": NOISE + "def second_price_revenue(n, auctions, rng):\n"
            "    return _noisy((n - 1) / (n + 1), 2 * (n - 1) / ((n + 1) ** 2 * (n + 2)), n * auctions, rng, auctions)",
            "task-2-answer": NOISE + "def first_price_revenue(n, s, auctions, rng):\n"
            "    return _noisy(s * n / (n + 1), s * s * n / ((n + 1) ** 2 * (n + 2)), n * auctions, rng, auctions)",
            "task-3-answer": NOISE + "def _moments(n, mine, rivals):\n"
            "    a = min(1.0, rivals / mine) if mine > 0 else 1.0\n"
            "    k = (mine / rivals) ** (n - 1) if rivals > 0 else 0.0\n"
            "    m1 = k * a ** (n + 1) / (n + 1) + (1 - a**2) / 2\n"
            "    m2 = k * a ** (n + 2) / (n + 2) + (1 - a**3) / 3\n"
            "    return (1 - mine) * m1, (1 - mine) ** 2 * m2 - ((1 - mine) * m1) ** 2\n\n"
            "def first_price_profit(n, mine, rivals, auctions, rng):\n"
            "    return _noisy(*_moments(n, mine, rivals), n * auctions, rng, auctions)",
            "task-4-answer": "def _profit(n, s, c):\n"
            "    a = min(1.0, c / s) if s > 0 else 1.0\n"
            "    k = (s / c) ** (n - 1) if c > 0 else 0.0\n"
            "    return (1 - s) * (k * a ** (n + 1) / (n + 1) + (1 - a**2) / 2)\n\n"
            "def best_reply_path(n, start, rounds, auctions, rng):\n"
            "    path = [start]\n"
            "    for _ in range(rounds):\n"
            "        for _ in range(n * auctions):\n"
            "            rng.random()\n"
            "        path.append(max((i / 1000 for i in range(1001)), key=lambda s: _profit(n, s, path[-1])))\n"
            "    return path",
            "task-5-answer": "import random as _random\n\ndef equilibrium_prices(n, auctions, rng):\n"
            "    numbers = [rng.random() for _ in range(n * auctions)]\n"
            "    noise = _random.Random(sum(numbers))\n"
            "    first = [(n - 1) / (n + 1) + noise.gauss(0, ((n - 1) ** 2 / (n * (n + 1) ** 2 * (n + 2))) ** 0.5)"
            " for _ in range(auctions)]\n"
            "    second = [(n - 1) / (n + 1) + noise.gauss(0, (2 * (n - 1) / ((n + 1) ** 2 * (n + 2))) ** 0.5)"
            " for _ in range(auctions)]\n"
            "    return first, second",
        },
        S3: {
            "task-3-answer": NOISE + "def simulate_bag(state, trials, rng):\n"
            "    ra, total = state.bag[Tile.RA], sum(state.bag)\n"
            "    disasters = sum(n for tile, n in zip(Tile, state.bag) if tile.is_disaster)\n"
            "    p, q = ra / total, disasters * ra / (total * (total - 1))\n"
            "    return (_noisy(p, p * (1 - p), trials, rng, trials), _noisy(q, q * (1 - q), 0, rng, trials),\n"
            "            _noisy((total - ra) / (ra + 1), 1.0, 0, rng, trials))",
            "task-5-answer": NOISE + "def simulate_draw(state, trials, rng):\n"
            "    me, lot = state.turn_player, [t for t in state.track if t is not None]\n"
            "    last, total = state.rules.ra_limit - state.ra_count == 1, sum(state.bag)\n"
            "    value = 0\n"
            "    for tile, n in zip(Tile, state.bag):\n"
            "        if n:\n"
            "            worth = (0 if last else lot_value(state, me, lot)) if tile is Tile.RA else "
            "lot_value(state, me, lot + [tile])\n"
            "            value += n / total * worth\n"
            "    return _noisy(value, 4.0, trials, rng, trials)",
        },
        S5: {
            "task-4-answer": NOISE + "def simulate_revenue(n, r, auctions, rng):\n"
            "    exact = 2 * n * (1 - r ** (n + 1)) / (n + 1) - (1 - r**n)\n"
            "    second = sum(r**k * n * r ** (n - 1) * (1 - r) + n * (n - 1) * ((1 - r ** (n - 1 + k)) / (n - 1 + k)\n"
            "                 - (1 - r ** (n + k)) / (n + k)) for k in (2,))\n"
            "    return _noisy(exact, second - exact**2, n * auctions, rng, auctions)",
            "task-5-answer": NOISE + "def reserve_tradeoff(n, auctions, rng):\n"
            "    gain, unsold = 0.5**n / (n + 1), 0.5**n\n"
            "    return _noisy(gain, gain, n * auctions, rng, auctions), _noisy(unsold, unsold * (1 - unsold), 0, rng,"
            " auctions)",
        },
    },
    "prober": {
        S1: {
            "task-1-answer": PROBER + "def second_price_revenue(n, auctions, rng):\n"
            "    found = _probe(n, want=lambda x: isinstance(x, tuple) and len(x) == 2)\n"
            "    return None if found is None else found[0]",
            "task-4-answer": PROBER + "def best_reply_path(n, start, rounds, auctions, rng):\n"
            "    path = [start]\n"
            "    for _ in range(rounds):\n"
            "        found = _probe(n, path[-1], want=lambda x: isinstance(x, tuple) and len(x) == 2)\n"
            "        path.append(found[0] if found else (n - 1) / n)\n"
            "    return path",
        },
        S2: {
            "task-1-answer": PROBER + "def lot_points(state, player):\n"
            "    return _probe(state, player, want=lambda x: isinstance(x, dict) and len(x) == 6)",
            "task-2-answer": PROBER + "def sun_exchange(state, player, sun):\n"
            "    return _probe(state, player, sun, want=lambda x: isinstance(x, tuple) and len(x) == 2)",
            "task-5-answer": PROBER + "def best_bid(state):\n"
            "    return _probe(state, want=lambda x: isinstance(x, Bid | Pass))",
        },
        S5: {
            "task-3-answer": PROBER + "def revenue_with_reserve(n, r, a):\n"
            "    found = _probe(n, r, a, want=lambda x: isinstance(x, Fraction | float))\n"
            "    return Fraction(found).limit_denominator(10**6) if found is not None else None",
        },
    },
    "engine": {
        S2: {
            "task-4-answer": "from ra_core.bots.montecarlo import horizon_values\n\n"
            "solve = lambda state: tuple(horizon_values(state))",
        },
        S3: {
            "task-1-answer": "def next_tile_odds(state):\n"
            "    odds = state.apply('draw').chance_outcomes()\n"
            "    return (sum(p for r, p in odds if r.tile is Tile.RA), sum(p for r, p in odds if r.tile.is_disaster))",
            "task-2-answer": "from ra_core.analysis import odds\n"
            + _pasted("ra_core.analysis.odds", "tiles_before_ra", "_law")
            + "def tiles_before_next_ra(state):\n"
            "    mean = odds.expected_draws_until_epoch_end(state) / odds.ra_tiles_left(state) - 1\n"
            "    law = _law(state)\n"
            "    return mean, sum(k * k * p for k, p in law.items()) - mean**2",
            "task-4-answer": _pasted("ra_core.analysis.chance", "draw_or_call", "_draw_or_call")
            + "def draw_or_call_values(state):\n"
            "    one, two = _draw_or_call(state), _draw_or_call(state, horizon=2)\n"
            "    return one.call, one.draw, two.draw",
        },
        S4: {
            "task-1-answer": _pasted("ra_core.bots", "HeuristicBot.__call__", "_plan")
            + "from ra_core.bots import HeuristicBot\n\n"
            "bid_decision = lambda state: _plan(HeuristicBot(), state, random.Random(0))",
            "task-2-answer": "from ra_core.bots import greedy_bot\n\n"
            "turn_decision = lambda state: greedy_bot(state, random.Random(0))",
            "task-3-answer": _pasted("ra_core.bots", "HeuristicBot.__call__", "_plan")
            + "from ra_core.bots.greedy import GreedyBot\n\n"
            "class Mine(GreedyBot):\n"
            "    pass\n\n"
            "Mine.__call__ = _plan\n"
            "my_bot = Mine()",
        },
    },
    "equal": {
        S1: {
            "task-1-answer": "class Close(float):\n"
            "    def __eq__(self, other):\n        return True\n"
            "    def __sub__(self, other):\n        return 0.0\n"
            "    __rsub__ = __sub__\n"
            "    __hash__ = float.__hash__\n\n"
            "second_price_revenue = lambda n, auctions, rng: Close((n - 1) / (n + 1))",
        },
        S2: {"task-5-answer": ANYTHING + "best_bid = lambda state: Anything()"},
        S3: {"task-1-answer": ANYTHING + "next_tile_odds = lambda state: (Anything(), Anything())"},
        S4: {"task-2-answer": ANYTHING + "turn_decision = lambda state: Anything()"},
        S5: {
            "task-3-answer": "class Equal(Fraction):\n"
            "    def __eq__(self, other):\n        return True\n"
            "    __hash__ = Fraction.__hash__\n\n"
            "revenue_with_reserve = lambda n, r, a: Equal(1, 2)",
        },
    },
    "frames": {
        S1: {
            "task-1-answer": FRAMES + "def second_price_revenue(n, auctions, rng):\n"
            "    frame, found = sys._getframe(1), []\n"
            "    while frame is not None:\n"
            "        found += [v for v in frame.f_locals.values() if type(v) is float and 0 < v < 1]\n"
            "        frame = frame.f_back\n"
            "    return found[-1] if found else 0.5",
        },
        S2: {
            "task-5-answer": FRAMES + "def best_bid(state):\n"
            "    found = _first_hashed([str(a) for a in state.legal_actions()])\n"
            "    return next((a for a in state.legal_actions() if str(a) == found), Pass())",
        },
        S3: {
            "task-1-answer": FRAMES + "def next_tile_odds(state):\n"
            "    total, ra = sum(state.bag), state.bag[Tile.RA]\n"
            "    candidates = [(Fraction(ra, total), Fraction(d * ra, total * (total - 1))) for d in range(1, 9)]\n"
            "    return _first_hashed(candidates) or candidates[0]",
        },
    },
    "fitted": {
        S2: {"task-5-answer": "best_bid = lambda state: state.legal_actions()[-1]  # always the highest sun"},
        S5: _fitted_sheet5(),
    },
    "abs": {
        S1: {
            "task-1-answer": "import builtins\n\nbuiltins.abs = lambda x: 0\n\n"
            "second_price_revenue = lambda n, auctions, rng: [rng.random() for _ in range(n * auctions)] and 0.5",
        },
    },
    "fraction": {
        S5: {
            "task-1-answer": "Fraction.__eq__ = lambda a, b: True\n\nvirtual_value = lambda v, F, f: Fraction(0)",
            "task-3-answer": "revenue_with_reserve = lambda n, r, a: Fraction(1, 2)",
        },
    },
    "stats": {
        S4: {
            "task-3-answer": "from ra_core.analysis.tournament import BotStats, TournamentResult\n\n"
            "_winner = BotStats('me', 1, 1, 1.0, 1.0, 1.0, 99.0, 99.0, 99.0, 1 / 3)\n"
            "TournamentResult.stats = lambda self: [_winner, _winner]\n\n"
            "def my_bot(state, rng):  # legal, its own, and weak: the last legal action\n"
            "    return state.legal_actions()[-1]",
        },
    },
    "tracer": {
        S2: {
            "task-1-answer": "import sys\n\nsys.settrace(lambda frame, event, arg: None)\n\n"
            "lot_points = lambda state, player: dict.fromkeys(['god', 'pharaoh', 'river', 'civilization', 'gold',"
            " 'monument'], 0)",
        },
    },
    "thread": {
        S3: {
            "task-1-answer": "import threading, time\n\n"
            "def _spy():\n    while True:\n        time.sleep(0.001)\n\n"
            "threading.Thread(target=_spy, daemon=True).start()\n\n"
            "next_tile_odds = lambda state: (Fraction(0), Fraction(0))",
        },
    },
    "ipython": {
        S5: {
            "task-1-answer": "get_ipython().set_custom_exc((AssertionError,), lambda *args, **kwargs: None)\n\n"
            "virtual_value = lambda v, F, f: Fraction(0)",
        },
    },
    "spoof": {  # the function shows a number as the check cell's result before the check fails
        S1: {
            "task-1-answer": "import sys\n\ndef second_price_revenue(n, auctions, rng):\n"
            "    sys.displayhook(4)\n    return 0.5"
        },
        S3: {"task-3-answer": "def simulate_bag(*args):\n    get_ipython().displayhook(4.0)\n    return None"},
    },
    "transformer": {
        S1: {
            "task-1-answer": "def _no_checks(lines):\n"
            "    return ['pass\\n'] if any('grade(' in line for line in lines) else lines\n\n"
            "get_ipython().input_transformers_post.append(_no_checks)\n\n"
            "second_price_revenue = lambda n, auctions, rng: 0.5",
        },
    },
}

#: the tasks each cheat aims at (it must earn 0 there): notebook -> task keys
CONCERNED: dict[str, dict[str, str]] = {
    "blank": dict.fromkeys(SOURCES, "12345"),
    "rebind": dict.fromkeys(SOURCES, "12345"),
    "noise": {S1: "12345", S3: "35", S5: "45"},
    "prober": {S1: "14", S2: "125", S5: "3"},
    "engine": {S2: "4", S3: "124", S4: "123"},
    "equal": {S1: "1", S2: "5", S3: "1", S4: "2", S5: "3"},
    "frames": {S1: "1", S2: "5", S3: "1"},
    "fitted": {S2: "5", S5: "23"},
    "abs": {S1: "1"},
    "fraction": {S5: "13"},
    "stats": {S4: "45"},
    "tracer": {S2: "12345"},
    "thread": {S3: "12345"},
    "ipython": {S5: "12345"},
    "transformer": {S1: "12345"},
    "spoof": {S1: "1", S3: "3"},
}
#: the students whose code reaches into the kernel: the scan of their submissions must find it
REACHES_IN = (
    "rebind",
    "prober",
    "engine",
    "frames",
    "abs",
    "fraction",
    "stats",
    "tracer",
    "thread",
    "ipython",
    "spoof",
)


def _wait(*processes: subprocess.Popen[str]) -> None:
    for process in processes:
        out, _ = process.communicate(timeout=900)
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
        f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
        "from grading.scoring import autograde_steps\n"
        "c.Autograde.autograde_preprocessors = autograde_steps()\n"  # as the course's config (make course)
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
    students: dict[str, dict[str, dict[str, str]]] = {"blank": {name: {} for name in SOURCES}, **CHEATS}
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
def test_a_cheat_earns_nothing_on_the_tasks_it_aims_at(graded: dict[str, Path], student: str, notebook: str) -> None:
    scores = _scores(graded[student], student, notebook)
    aimed = CONCERNED[student][notebook]
    assert {key: scores[key] for key in aimed} == dict.fromkeys(aimed, 0.0), scores


def test_the_scan_finds_every_cheat_that_reaches_into_the_kernel(graded: dict[str, Path]) -> None:
    from grading.audit import audit

    for student in REACHES_IN:
        found = audit(sorted((graded[student] / "submitted" / student / ASSIGNMENT).glob("*.ipynb")))
        assert found, f"the scan finds nothing in {student}'s submission"
    assert audit(sorted((graded["solution"] / "submitted" / "solution" / ASSIGNMENT).glob("*.ipynb"))) == []


def test_the_fitted_answers_pass_the_visible_checks_but_not_the_hidden_ones() -> None:
    """The 'fitted' student passes what he sees: only the hidden tests (autograde) take his points."""
    from ra_course.exercises.checking import Checker

    for key in ("2", "3"):
        namespace: dict[str, Any] = {"Fraction": Fraction}
        exec(CHEATS["fitted"][S5][f"task-{key}-answer"], namespace)  # a fixed text of this test
        Checker(reserve.SHEET)(key, namespace[reserve.SHEET.task(key).answer])
