"""Exercise sheet 6, multi-unit auctions: its checks, in this process, on the source's solutions and on wrong answers.

Whole submissions of sheet 6 (the solution, a blank sheet) are autograded by nbgrader with the other
sheets in `tests/test_exercises_autograde.py`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

from ra_course import multiunit as theory
from ra_course.exercises import multiunit
from ra_course.exercises.checking import Checker, CheckFailed

from .student_files import without_grading


@pytest.fixture(scope="module")
def solution() -> dict[str, Any]:
    """Return the source sheet's code cells run in order (its solutions), the check cells left out."""
    from grading import keys

    return keys.reference("multiunit")


def _fails(key: str, answer: Any, hidden: bool = False) -> str:
    with pytest.raises(CheckFailed) as info:
        Checker(multiunit.SHEET)(key, answer, hidden)
    return str(info.value)


def test_the_solutions_pass_every_check_visible_and_hidden(solution: dict[str, Any]) -> None:
    check = Checker(multiunit.SHEET)
    with without_grading():
        for task in multiunit.SHEET.tasks:
            check(task.key, solution[task.answer])
            check(task.key, solution[task.answer], hidden=True)


def _conditional_mean(v: Fraction, n: int, k: int, a: int) -> Fraction:
    """E[Y_k | Y_k < v] for the k-th highest of n - 1 values of the law F(x) = x^a: two polynomial integrals, exact.

    The density of Y_k is proportional to F^(n-k-1) (1 - F)^(k-1) f; with F(y) = y^a, expanding
    (1 - y^a)^(k-1) leaves terms a y^(a(p+1) - 1), whose integrals (and those of y times them) are exact.
    """
    terms = [(math.comb(k - 1, j) * (-1) ** j, n - k - 1 + j) for j in range(k)]
    mass = sum((Fraction(c, p + 1) * v ** (a * (p + 1)) for c, p in terms), Fraction(0))
    first = sum((Fraction(c * a, a * (p + 1) + 1) * v ** (a * (p + 1) + 1) for c, p in terms), Fraction(0))
    return first / mass


def _externalities(bids: Sequence[Sequence[float]], units: int, reserve: float) -> list[float]:
    """Return each bidder's externality on the others and on the seller, whose units are worth `reserve` to him."""
    ranked = sorted([(b, i) for i, own in enumerate(bids) for b in own] + [(reserve, -1)] * units, reverse=True)
    out = []
    for i in range(len(bids)):
        others = sorted([b for j, own in enumerate(bids) if j != i for b in own] + [reserve] * units, reverse=True)
        out.append(math.fsum(others[:units]) - math.fsum(b for b, j in ranked[:units] if j != i))
    return out


def test_the_answer_keys_are_the_definitions() -> None:
    """The stored answers (the solution's) are E[Y_k | Y_k < v] integrated exactly and each bidder's externality.

    Notebook 16 has no reserve and uniform values only: there its functions agree with both; the
    visible bids lie far enough from a rounding boundary of their hashes that an answer within the
    tolerance is never refused.
    """
    from grading.cases import CASES
    from grading.keys import multiunit_answers

    for points, profiles in (
        (multiunit.POINTS, multiunit.PROFILES),
        (CASES["multiunit"]["3"], CASES["multiunit"]["4"]),
    ):
        answers = multiunit_answers(points, profiles)
        for (n, k, a, values), row in zip(points, answers["3"], strict=True):
            for v, bid in zip(map(Fraction, values), row, strict=True):
                exact = _conditional_mean(v, n, k, a)
                assert bid == pytest.approx(float(exact), abs=1e-12)
                if a == 1:
                    assert bid == pytest.approx(theory.pay_as_bid_bid(float(v), n, k), abs=1e-12)
                shifted = exact * 10**multiunit.DIGITS
                assert points is not multiunit.POINTS or abs(shifted - math.floor(shifted) - Fraction(1, 2)) > 2e-2
        for (seed, bidders, units, reserve), paid in zip(profiles, answers["4"], strict=True):
            bids = multiunit.profile(seed, bidders, units)
            assert paid == pytest.approx(_externalities(bids, units, reserve), abs=1e-12)
            assert paid == pytest.approx(theory.vickrey_payments((*bids, (reserve,) * units), units)[:-1], abs=1e-12)
            assert _externalities(bids, units, 0.0) == pytest.approx(theory.vickrey_payments(bids, units), abs=1e-12)


def test_wrong_answers_fail_with_a_reason_and_no_direction(solution: dict[str, Any]) -> None:
    lowest_winner = _fails("1", lambda bids, k: sorted(bids, reverse=True)[k - 1])
    assert "the lowest winning bid" in lowest_winner
    assert "which is not the uniform price" in _fails("1", lambda bids, k: max(bids))
    one_unit = _fails("3", lambda v, n, k, a: (n - 1) / n * v)
    assert "the bid of a single unit" in one_unit
    assert "not the equilibrium bid" in _fails("3", lambda v, n, k, a: solution["pay_as_bid"](v, n, k, a) + 1e-4)
    uniform = _fails("3", lambda v, n, k, a: solution["pay_as_bid"](v, n, k, 1))
    assert "the bid when values are uniform" in uniform
    first_prices = _fails("4", lambda bids, units, reserve: tuple(sum(b) for b in bids))
    assert "is not what the units cost the others and the seller" in first_prices
    assert "one payment per bidder" in _fails("4", lambda bids, units, reserve: 0.5)
    no_reserve = _fails("4", lambda bids, units, reserve: tuple(solution["vickrey_payments"](bids, units, 0.0)))
    assert "the payments without the reserve" in no_reserve
    for message in (lowest_winner, one_unit, uniform, first_prices, no_reserve):
        assert not any(word in message for word in ("too high", "too low", "higher", "lower"))


def test_simulations_must_be_the_auctions_drawn(solution: dict[str, Any]) -> None:
    simulate, gains = solution["simulate_uniform_price"], solution["second_unit_gains"]

    def formula(n: int, k: int, auctions: int, rng: random.Random) -> float:  # as many draws, the expectation
        for _ in range(n * auctions):
            rng.random()
        return k * (n - k) / (n + 1)

    assert "which is not the mean revenue of the 500 auctions it drew" in _fails("2", formula)
    assert "the mean price of one unit" in _fails("2", lambda n, k, a, rng: simulate(n, k, a, rng) / k)

    def fresh_per_bid(v: float, bids: tuple[float, ...], auctions: int, rng: random.Random) -> list[float]:
        return [gains(v, (b,), auctions, rng)[0] for b in bids]  # new small bidders for every bid

    assert "drew 2,000 numbers" in _fails("5", fresh_per_bid)
    assert "one mean gain per second bid" in _fails("5", lambda v, bids, a, rng: gains(v, bids, a, rng)[:1])


def test_the_package_functions_that_answer_a_task_are_forbidden() -> None:
    message = _fails("4", lambda bids, units, reserve: tuple(theory.vickrey_payments(bids, units)))
    assert "calls `ra_course.multiunit.vickrey_payments` of the pa" in message
    assert "calls `ra_course.multiunit.pay_as_bid_bid`" in _fails(
        "3", lambda v, n, k, a: theory.pay_as_bid_bid(v, n, k)
    )


def _retyped(function: Any, **helpers: Any) -> Any:
    """Return `function` typed out again from its source, as a student pastes it (with `helpers` pasted too)."""
    import inspect
    import textwrap

    namespace: dict[str, Any] = {**function.__globals__, **helpers}
    source = textwrap.dedent(inspect.getsource(function))
    exec(compile(source, "<a student's cell>", "exec"), namespace)  # the package's own text
    return namespace[function.__name__]


def test_a_pasted_copy_of_notebook_16s_functions_answers_no_task() -> None:
    """Tasks 3 and 4 ask what `ra_course.multiunit` does not compute: another law, a reserve price."""
    bid = _retyped(theory.pay_as_bid_bid, binomial_tail=_retyped(theory.binomial_tail))
    payments = _retyped(theory.vickrey_payments, allocate=_retyped(theory.allocate))
    with without_grading():
        for hidden in (False, True):  # the hidden cases too: each fails there as it does in the visible ones
            assert "the bid when values are uniform" in _fails("3", lambda v, n, k, a: bid(v, n, k), hidden)
            assert "without the reserve" in _fails("4", lambda b, u, r: tuple(payments(b, u)), hidden)


def test_the_visible_and_hidden_cases_differ() -> None:
    from grading.cases import CASES

    hidden = CASES["multiunit"]
    assert not {tuple(c[0]) for c in hidden["1"]} & {b for b, _ in multiunit.BIDS}
    assert not {tuple(c) for c in hidden["4"]} & set(multiunit.PROFILES)
    assert all(
        len(set(b for own in multiunit.profile(*c[:3]) for b in own) - {c[3]})
        == sum(map(len, multiunit.profile(*c[:3])))
        for c in [*hidden["4"], *multiunit.PROFILES]
    )  # every bid different, and none equal to the reserve


def _submission(blank: bool) -> Any:
    """Return sheet 6 as nbgrader's autograde has it: the release, the solutions in its cells (unless blank)."""
    import json
    from pathlib import Path

    import nbformat

    root = Path(__file__).resolve().parent.parent
    name = "06_multi_unit_auctions.ipynb"
    source = json.loads((root / "exercises" / "source" / name).read_text(encoding="utf-8"))
    release = json.loads((root / "exercises" / "release" / name).read_text(encoding="utf-8"))
    for cell, locked in zip(release["cells"], source["cells"], strict=True):
        meta = cell["metadata"].get("nbgrader", {})
        if meta.get("grade"):
            cell["source"] = locked["source"]  # nbgrader's OverwriteCells: the teacher's cell, hidden test and all
        elif meta.get("solution") and not blank:
            lines = "".join(locked["source"]).split("\n")
            cell["source"] = "\n".join(line for line in lines if "### " not in line)
    return nbformat.from_dict(release)  # type: ignore[no-untyped-call]


@pytest.mark.parametrize(("blank", "points"), [(False, 4.0), (True, 0.0)])
def test_the_judge_gives_the_solution_20_points_and_a_blank_sheet_0(blank: bool, points: float) -> None:
    pytest.importorskip("nbgrader", reason="nbgrader is not installed (pip install -e '.[grading]')")
    import os

    from nbgrader.utils import determine_grade  # type: ignore[import-untyped]

    from grading import sandbox
    from grading.scoring import Judge

    why = sandbox.problem()
    if why:
        pytest.fail(why) if os.environ.get("CI") else pytest.skip(why)
    nb, _ = Judge().preprocess(  # type: ignore[no-untyped-call]
        _submission(blank), {"nbgrader": {"notebook": "06_multi_unit_auctions"}}
    )
    grades = [float(determine_grade(c)[0]) for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]
    assert grades == [points] * 5
    summary = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    assert f"{int(points * 5)} of 20 points (the teacher's grading)" in summary
