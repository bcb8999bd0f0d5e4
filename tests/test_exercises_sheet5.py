"""Exercise sheet 5, reserve prices and the optimal auction: its theory, its checks, and the autograde proof.

The checks of `ra_course.exercises.reserve` are run in this process on the source sheet's solutions
and on wrong or cheating answers; then, as `tests/test_exercises_autograde.py` does for sheets
1-4 (whose helpers this test reuses), a temporary nbgrader course autogrades submissions made
from nbgrader's release of sheet 5: blank, the checking names rebound, package calls, formulas
(notebook 10's uniform answers, the closed form plus noise for the simulations), answers fitted to
the visible examples, and the solution. Each cheat earns 0 on the tasks it concerns, the solution 20.
"""

from __future__ import annotations

import json
import random
import shutil
import statistics
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from ra_course.exercises import reserve
from ra_course.exercises.checking import Checker, CheckFailed
from ra_course.exercises.hashing import answer_hash

ROOT = Path(__file__).parent.parent
SOURCE = ROOT / "exercises" / "source" / "05_reserve_prices_and_the_optimal_auction.ipynb"


@pytest.fixture(scope="module")
def solution() -> dict[str, Any]:
    """Return the source sheet's code cells run in order (its solutions), the check cells left out."""
    from grading import keys

    return keys.reference("reserve")


def _fails(key: str, answer: Any) -> str:
    with pytest.raises(CheckFailed) as info:
        Checker(reserve.SHEET)(key, answer)
    return str(info.value)


# -- the theory behind the checks ------------------------------------------------------------


def _price(values: list[float], r: float) -> float:
    values = sorted(values)
    return 0.0 if values[-1] < r else max(values[-2], r)


@pytest.mark.parametrize(("n", "r"), [(2, 0.5), (3, 0.3), (5, 0.7)])
def test_the_moments_of_the_checks_agree_with_a_large_simulation(n: int, r: float) -> None:
    rng = random.Random(n)
    prices, gains = [], []
    for _ in range(40_000):
        values = [rng.random() for _ in range(n)]
        prices.append(_price(values, r))
        gains.append(_price(values, r) - _price(values, 0.0))
    for xs, (mean, var) in ((prices, reserve._price_moments(n, r)), (gains, reserve._gain_moments(n, r))):
        assert abs(statistics.fmean(xs) - mean) < 5 * (var / len(xs)) ** 0.5
        assert abs(statistics.variance(xs) / var - 1) < 0.05


def test_the_price_moments_are_notebook_10s_revenue_and_its_reserve() -> None:
    def revenue(r: float, n: int) -> float:  # notebook 10, section 3
        return 2 * n * (1 - r ** (n + 1)) / (n + 1) - (1 - r**n)

    for n in (2, 3, 6):
        for r in (0.0, 0.25, 0.5, 0.8):
            assert reserve._price_moments(n, r)[0] == pytest.approx(revenue(r, n))
            assert reserve._gain_moments(n, r)[0] == pytest.approx(revenue(r, n) - revenue(0, n))
    assert reserve._price_moments(2, 0.5)[0] == pytest.approx(5 / 12)


def test_the_stored_hashes_are_the_reference_revenues() -> None:
    from grading import keys

    answers = keys.reserve_revenues([[n, str(r), a] for n, r, a in reserve.CASES])
    assert answers[0] == Fraction(5, 12) and all(isinstance(x, Fraction) for x in answers)
    assert [answer_hash(x) for x in answers] == reserve.HASHES["revenue"]
    assert reserve.CASES[3][1] == 0 and answers[3] == Fraction(16, 21)  # no reserve: E[second-highest] for a = 2


def test_the_laws_of_the_checks_are_regular_distributions_on_the_unit_interval() -> None:
    from grading import keys

    laws = [reserve.LAWS[name] for name in reserve.LAWS] + keys.HIDDEN["reserve"]["2"]["laws"]
    for coefficients in laws:
        F, f = reserve.law(coefficients)
        assert F(Fraction(0)) == 0 and F(Fraction(1)) == 1
        grid = [Fraction(k, 200) for k in range(1, 200)]
        assert all(f(v) > 0 for v in grid)
        psi = [v - (1 - F(v)) / f(v) for v in grid]
        assert psi == sorted(psi) and psi[0] < 0 < psi[-1], coefficients


# -- the checks, in this process ---------------------------------------------------------------


def test_the_solutions_pass_every_check_visible_and_hidden(solution: dict[str, Any]) -> None:
    from grading import keys

    check = Checker(reserve.SHEET)
    hidden = keys.hidden_data("reserve")
    for task in reserve.SHEET.tasks:
        check(task.key, solution[task.answer])
        check(task.key, solution[task.answer], hidden[task.key])


def test_exact_tasks_refuse_floats_and_uniform_answers(solution: dict[str, Any]) -> None:
    psi = solution["virtual_value"]
    assert "is the float" in _fails("1", lambda v, F, f: float(psi(v, F, f)))
    assert "too high" in _fails("1", lambda v, F, f: 2 * v - 1)  # the uniform virtual value
    assert "too low" in _fails("2", lambda F, f: 0.5)  # the uniform reserve, on F(v) = v^2
    assert "too high" in _fails("2", lambda F, f: solution["optimal_reserve"](F, f) + 1e-6)
    revenue = solution["revenue_with_reserve"]
    assert "is the float" in _fails("3", lambda n, r, a: float(revenue(n, r, a)))
    uniform = _fails("3", lambda n, r, a: 2 * n * (1 - r ** (n + 1)) / (n + 1) - (1 - r**n))
    assert "revenue_with_reserve(3, 1/2, 2) returned" in uniform and "not the expected revenue" in uniform


def test_simulations_must_simulate_on_the_same_auctions(solution: dict[str, Any]) -> None:
    simulate, tradeoff = solution["simulate_revenue"], solution["reserve_tradeoff"]
    noise = _fails("4", lambda n, r, k, rng: reserve._price_moments(n, r)[0] + 1e-9 * rng.random())
    assert "as a formula with a little noise added would" in noise
    assert "fewer draws" in _fails("4", lambda n, r, k, rng: simulate(n, r, k // 4, rng))
    assert "too low" in _fails("4", lambda n, r, k, rng: simulate(n, 0.0, k, rng))  # the reserve left out
    glob = random.Random(0)
    assert "seeded alike" in _fails("4", lambda n, r, k, rng: simulate(n, r, k, random.Random(glob.random())))

    def independent(n: int, k: int, rng: random.Random) -> tuple[float, float]:  # two sets of auctions
        gain = simulate(n, 0.5, k, rng) - simulate(n, 0.0, k, rng)
        return gain, tradeoff(n, k, rng)[1]

    spread = _fails("5", independent)  # the gain of two independent sets of auctions varies ~3 times as much
    assert "times as much as a mean of" in spread and "too much" in spread
    assert "too high" in _fails("5", lambda n, k, rng: tuple(reversed(tradeoff(n, k, rng))))
    formula = _fails("5", lambda n, k, rng: (reserve._gain_moments(n, 0.5)[0] + 1e-9 * rng.random(), 0.5**n))
    assert "as a formula with a little noise added would" in formula


def test_the_checks_catch_errors_and_junk_without_a_traceback() -> None:
    for junk in (float("nan"), 10**400, "half", [0.5]):
        message = _fails("2", lambda F, f, junk=junk: junk)
        assert "not right yet" in message and "Traceback" not in message
    assert "ZeroDivisionError" in _fails("1", lambda v, F, f: 1 / 0)
    assert "not attempted yet" in _fails("5", lambda n, k, rng: None)


# -- the autograde proof -----------------------------------------------------------------------

#: what each cheating student writes in sheet 5, by answer cell; the other answer cells stay stubs
CHEATS: dict[str, dict[str, str]] = {
    "package": {
        "task-3-answer": "from fractions import Fraction\n\nfrom ra_course.exercises.reserve import _price_moments\n\n"
        "def revenue_with_reserve(n, r, a):\n"
        "    return Fraction(_price_moments(n, float(r))[0]).limit_denominator(10**6)",
        "task-4-answer": "from ra_course.exercises.reserve import _price_moments\n\n"
        "def simulate_revenue(n, r, auctions, rng):\n"
        "    return _price_moments(n, r)[0] + 1e-9 * rng.random()",
        "task-5-answer": "from ra_course.exercises.reserve import _gain_moments\n\n"
        "def reserve_tradeoff(n, auctions, rng):\n"
        "    return _gain_moments(n, 0.5)[0] + 1e-9 * rng.random(), 0.5**n",
    },
    "formula": {  # notebook 10's answers for uniform values, and the closed forms plus noise
        "task-1-answer": "def virtual_value(v, F, f):\n    return 2 * v - 1",
        "task-2-answer": "def optimal_reserve(F, f):\n    return 0.5",
        "task-3-answer": "def revenue_with_reserve(n, r, a):\n"
        "    return 2 * n * (1 - r ** (n + 1)) / (n + 1) - (1 - r**n)",
        "task-4-answer": "def simulate_revenue(n, r, auctions, rng):\n"
        "    exact = 2 * n * (1 - r ** (n + 1)) / (n + 1) - (1 - r**n)\n"
        "    return exact + (rng.random() - 0.5) / 10**6",
        "task-5-answer": "def reserve_tradeoff(n, auctions, rng):\n"
        "    gain = 0.5**n - 2 * n * 0.5 ** (n + 1) / (n + 1)\n"
        "    return gain + 1e-9 * rng.random(), 0.5**n + 1e-9 * rng.random()",
    },
    "fitted": {  # the visible examples' answers, looked up: the hidden tests ask other questions
        "task-2-answer": "from fractions import Fraction\n\n"
        "def optimal_reserve(F, f):\n"
        "    x = Fraction(1, 2)\n"
        "    if F(x) == x:\n"
        "        return 0.5\n"
        "    return 3 ** -0.5 if F(x) == x * x else 1 / 3",
        "task-3-answer": "from fractions import Fraction\n\n"
        "KNOWN = {(2, 1): Fraction(5, 12), (3, 2): Fraction(3111, 4480), (2, 3): Fraction(20659, 30618),\n"
        "         (4, 2): Fraction(16, 21)}\n\n"
        "def revenue_with_reserve(n, r, a):\n"
        "    return KNOWN[n, a]",
    },
}
CONCERNED = {
    "blank": "12345",
    "rebind": "12345",
    "package": "345",
    "formula": "12345",
    "fitted": "23",
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a course directory in which every submission of sheet 5 was autograded."""
    pytest.importorskip("nbgrader", reason="nbgrader is not installed (pip install -e '.[grading]')")
    from .test_exercises_autograde import ASSIGNMENT, REBIND, _submission, _wait
    from .test_exercises_nbgrader import _nbgrader

    root = tmp_path_factory.mktemp("sheet5")
    (root / "nbgrader_config.py").write_text(
        "c = get_config()\n"
        f"c.CourseDirectory.root = {str(root)!r}\n"
        f"c.CourseDirectory.db_url = 'sqlite:///{root / 'gradebook.db'}'\n"
        "c.Execute.timeout = 300\n"
    )
    (root / "source" / ASSIGNMENT).mkdir(parents=True)
    shutil.copy(SOURCE, root / "source" / ASSIGNMENT / SOURCE.name)
    _wait(_nbgrader("generate_assignment", ASSIGNMENT, "--force", cwd=root))
    release = root / "release" / ASSIGNMENT / SOURCE.name
    rebind = {f"task-{t.key}-answer": f"{REBIND}\n{t.answer} = lambda *args: 0\n" for t in reserve.SHEET.tasks[:3]}
    students: dict[str, dict[str, str]] = {"blank": {}, "rebind": rebind, **CHEATS}
    for student, answers in students.items():
        folder = root / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nb = _submission(release, answers)
        (folder / SOURCE.name).write_text(json.dumps(nb, indent=1), encoding="utf-8")
    (root / "submitted" / "solution" / ASSIGNMENT).mkdir(parents=True)
    shutil.copy(SOURCE, root / "submitted" / "solution" / ASSIGNMENT / SOURCE.name)
    _wait(_nbgrader("autograde", ASSIGNMENT, "--create", cwd=root))
    return root


def _sheet5_scores(course: Path, student: str) -> dict[str, float]:
    from .test_exercises_autograde import _scores

    return _scores(course, student, SOURCE.stem)


def test_the_solution_earns_full_marks(graded: Path) -> None:
    assert _sheet5_scores(graded, "solution") == {key: 4.0 for key in "12345"}


@pytest.mark.parametrize("student", list(CONCERNED))
def test_a_cheat_earns_nothing_on_the_tasks_it_concerns(graded: Path, student: str) -> None:
    scores = _sheet5_scores(graded, student)
    assert {key: scores[key] for key in CONCERNED[student]} == dict.fromkeys(CONCERNED[student], 0.0), scores


def test_the_fitted_answers_pass_the_visible_checks_but_not_the_hidden_ones() -> None:
    """The 'fitted' student passes what he sees: only the hidden tests (autograde) take his points."""
    for key in ("2", "3"):
        namespace: dict[str, Any] = {}
        exec(CHEATS["fitted"][f"task-{key}-answer"], namespace)  # a fixed text of this test
        Checker(reserve.SHEET)(key, namespace[reserve.SHEET.task(key).answer])
