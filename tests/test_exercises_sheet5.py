"""Exercise sheet 5, reserve prices and the optimal auction: its theory and its checks, in this process.

The checks of `ra_course.exercises.reserve` are run on the source sheet's solutions and on wrong
or cheating answers. Whole submissions of sheet 5, cheats among them, are autograded by nbgrader
in `tests/test_exercises_autograde.py` with the other sheets.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from ra_course.exercises import reserve
from ra_course.exercises.checking import Checker, CheckFailed

from .student_files import without_grading


@pytest.fixture(scope="module")
def solution() -> dict[str, Any]:
    """Return the source sheet's code cells run in order (its solutions), the check cells left out."""
    from grading import keys

    return keys.reference("reserve")


def _fails(key: str, answer: Any, hidden: bool = False) -> str:
    with pytest.raises(CheckFailed) as info:
        Checker(reserve.SHEET)(key, answer, hidden)
    return str(info.value)


# -- the theory behind the checks and the text ---------------------------------------------------


def _price(values: list[float], r: float) -> float:
    values = sorted(values)
    return 0.0 if values[-1] < r else max(values[-2], r)


def test_the_texts_figures_are_what_a_large_simulation_finds() -> None:
    """The gain of the reserve 1/2 is r^n/(n+1), the unsold share r^n, the second-highest below 1/2 (n+1)/2^n."""
    for n in (2, 3, 5):
        rng = random.Random(n)
        trials = 40_000
        gains, unsold, second_below = [], 0, 0
        for _ in range(trials):
            values = [rng.random() for _ in range(n)]
            gains.append(_price(values, 0.5) - _price(values, 0.0))
            unsold += max(values) < 0.5
            second_below += sorted(values)[-2] < 0.5
        mean = sum(gains) / trials
        sd = (sum((g - mean) ** 2 for g in gains) / trials) ** 0.5
        assert abs(mean - 0.5**n / (n + 1)) < 5 * sd / trials**0.5
        for count, p in ((unsold, 0.5**n), (second_below, (n + 1) / 2**n)):
            assert abs(count / trials - p) < 5 * (p * (1 - p) / trials) ** 0.5


def test_the_visible_cases_are_not_the_texts_examples() -> None:
    """The text works through uniform values, v^2 and 2v - v^2, and 5/12 at n = 2, r = 1/2: no check uses them."""
    examples = [["0", "1"], ["0", "0", "1"], ["0", "2", "-1"]]
    assert not [law for law in reserve.LAWS.values() if law in examples]
    assert (2, Fraction(1, 2), 1) not in reserve.CASES


def test_the_laws_of_the_checks_are_regular_distributions_on_the_unit_interval() -> None:
    from grading.cases import CASES

    laws = [reserve.LAWS[name] for name in reserve.LAWS] + CASES["reserve"]["2"]["laws"]
    for coefficients in laws:
        F, f = reserve.law(coefficients)
        assert F(Fraction(0)) == 0 and F(Fraction(1)) == 1
        grid = [Fraction(k, 200) for k in range(1, 200)]
        assert all(f(v) > 0 for v in grid)
        psi = [v - (1 - F(v)) / f(v) for v in grid]
        assert psi == sorted(psi) and psi[0] < 0 < psi[-1], coefficients


# -- the checks, in this process ---------------------------------------------------------------


def test_the_solutions_pass_every_check_visible_and_hidden(solution: dict[str, Any]) -> None:
    check = Checker(reserve.SHEET)
    with without_grading():
        for task in reserve.SHEET.tasks:
            check(task.key, solution[task.answer])
            check(task.key, solution[task.answer], hidden=True)


def test_the_hidden_tests_refuse_a_kernel_that_imported_the_teachers_package(solution: dict[str, Any]) -> None:
    import grading.cases  # noqa: F401 (as a student's cell might, at autograde time)

    message = _fails("3", solution["revenue_with_reserve"], hidden=True)
    assert "the teacher's package `grading" in message and "hidden tests are void" in message


def test_exact_tasks_refuse_floats_and_uniform_answers(solution: dict[str, Any]) -> None:
    psi = solution["virtual_value"]
    assert "is the float" in _fails("1", lambda v, F, f: float(psi(v, F, f)))
    # no message says which way an answer misses (exercises/TEACHING.md)
    below = solution["optimal_reserve"]
    misses = [
        _fails("1", lambda v, F, f: 2 * v - 1),  # the uniform virtual value
        _fails("1", lambda v, F, f: psi(v, F, f) + Fraction(1, 100)),
        _fails("2", lambda F, f: 0.5),  # the uniform reserve, on F(v) = v^4
        _fails("2", lambda F, f: below(F, f) + 1e-6),
        _fails("2", lambda F, f: below(F, f) - 1e-6),
    ]
    for message in misses:
        assert "is off" in message or "does not cross 0" in message, message
        assert not any(word in message for word in ("too high", "too low", "above the", "below the", "higher", "lower"))
    revenue = solution["revenue_with_reserve"]
    assert "is the float" in _fails("3", lambda n, r, a: float(revenue(n, r, a)))
    uniform = _fails("3", lambda n, r, a: 2 * n * (1 - r ** (n + 1)) / (n + 1) - (1 - r**n))
    assert "revenue_with_reserve(2, 1/3, 2) returned" in uniform and "not the expected revenue" in uniform


def _uniform_revenue(n: int, r: float) -> float:
    return 2 * n * (1 - r ** (n + 1)) / (n + 1) - (1 - r**n)


def test_simulations_must_be_the_auctions_drawn(solution: dict[str, Any]) -> None:
    simulate, tradeoff = solution["simulate_revenue"], solution["reserve_tradeoff"]

    def formula(n: int, r: float, k: int, rng: random.Random) -> float:  # as many draws, and noise of the right size
        values = [rng.random() for _ in range(n * k)]
        return _uniform_revenue(n, r) + (sum(values) / len(values) - 0.5) / 10

    assert "not the mean price of the 500 auctions it drew" in _fails("4", formula)
    assert "drew 250 numbers" in _fails("4", lambda n, r, k, rng: simulate(n, r, k // 4, rng))
    assert "that of the auctions without a reserve" in _fails("4", lambda n, r, k, rng: simulate(n, 0.0, k, rng))
    glob = random.Random(0)
    assert "drew 0 numbers" in _fails("4", lambda n, r, k, rng: simulate(n, r, k, random.Random(glob.random())))

    def independent(n: int, k: int, rng: random.Random) -> tuple[float, float]:  # two sets of auctions
        gain = simulate(n, 0.5, k, rng) - simulate(n, 0.0, k, rng)
        return gain, tradeoff(n, k, rng)[1]

    assert "drew 4,500 numbers" in _fails("5", independent)
    assert "in the wrong order" in _fails("5", lambda n, k, rng: tuple(reversed(tradeoff(n, k, rng))))

    def priced_once(n: int, k: int, rng: random.Random) -> tuple[float, float]:  # the revenue, not the gain
        values = [[rng.random() for _ in range(n)] for _ in range(k)]
        return sum(_price(v, 0.5) for v in values) / k, sum(max(v) < 0.5 for v in values) / k

    assert "is not the mean difference of the two prices" in _fails("5", priced_once)


def test_the_checks_catch_errors_and_junk_without_a_traceback() -> None:
    for junk in (float("nan"), 10**400, "half", [0.5]):
        message = _fails("2", lambda F, f, junk=junk: junk)
        assert "not right yet" in message and "Traceback" not in message
    assert "ZeroDivisionError" in _fails("1", lambda v, F, f: 1 / 0)
    note = Checker(reserve.SHEET)("5", lambda n, k, rng: None)
    assert note is not None and "not attempted yet" in note.message
