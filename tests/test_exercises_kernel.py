"""What the checks trust, in this process: replayed simulations, answers rebuilt, a kernel that was not changed.

The autograde test (`tests/test_exercises_autograde.py`) proves the same through nbgrader with
whole submissions; here each defence is taken alone, quickly:

* an honest simulation passes the replay check on 40 different seeds, for every simulation task
  of sheets 1, 3 and 5, and a formula plus noise of exactly a simulation's spread fails on all 40;
* answers are rebuilt from Python's own types (`plain`): an object equal to anything, or a
  number whose class overrides its comparisons, is no answer, or only its plain value counts;
* the recording generator notices reseeding, other methods and numbers drawn around it;
* `ra_course.exercises.sound` finds a replaced built-in, a patched class of the standard library
  or of `ra_core`, a tracer, a thread of the notebook's own and a pending timer, and a check
  then fails; so does a copy of a package function its task forbids.
"""

from __future__ import annotations

import builtins
import gc
import random
import sys
import threading
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

import pytest

from grading.keys import reference
from ra_core import Bid, Pass, State
from ra_core.bots import HeuristicBot
from ra_course.exercises import auctions, bag, bidder, ra_auction, reserve, sound
from ra_course.exercises.checking import Checker, CheckFailed, Wrong, plain
from ra_course.exercises.replay import Recorder

SEEDS = range(40)


def _fails(sheet: Any, key: str, answer: Any) -> str:
    with pytest.raises(CheckFailed) as info:
        Checker(sheet)(key, answer)
    return str(info.value)


# -- replayed simulations: 40 seeds, no false alarm; a formula fails on every seed ------------------


@pytest.fixture(scope="module")
def solutions() -> dict[str, dict[str, Any]]:
    return {name: reference(name) for name in ("auctions", "bag", "reserve")}


def _every_seed_passes(judge: Callable[[int], Any]) -> None:
    for seed in SEEDS:
        judge(seed)  # raises Wrong on a false alarm


def test_an_honest_simulation_passes_on_40_seeds(solutions: dict[str, dict[str, Any]]) -> None:
    a, b, r = solutions["auctions"], solutions["bag"], solutions["reserve"]
    _every_seed_passes(lambda s: auctions._second_price(a["second_price_revenue"], [(2 + s % 5, s)]))
    _every_seed_passes(lambda s: auctions._first_price(a["first_price_revenue"], [(2 + s % 4, 0.3 + s / 80, s)]))
    _every_seed_passes(lambda s: auctions._profit(a["first_price_profit"], [(2 + s % 4, 0.2 + s / 50, 0.6, s)]))
    _every_seed_passes(lambda s: auctions._path(a["best_reply_path"], [(2 + s % 3, 0.3, 2, s)], auctions=100))
    _every_seed_passes(lambda s: auctions._equivalence(a["equilibrium_prices"], [(2 + s % 5, s)]))
    positions = bag.practice_positions(2, 5)
    _every_seed_passes(lambda s: bag._simulate_bag_on(b["simulate_bag"], "a position", positions[s % 2], s))
    _every_seed_passes(lambda s: _replayed_draw(b["simulate_draw"], positions[s % 2], s))
    _every_seed_passes(lambda s: reserve._simulation(r["simulate_revenue"], [(2 + s % 4, s / 40, s)]))
    _every_seed_passes(lambda s: reserve._tradeoff(r["reserve_tradeoff"], [(2 + s % 4, s)]))


def _replayed_draw(f: Any, state: State, seed: int) -> None:
    from grading.keys import draw_values

    mine, numbers = bag._draw_run(f, state, seed)
    bag._draw_verdict("a position", state, mine, numbers, dict(draw_values(state)))


def _matched_noise(mean: float, variance: float, count: int, rng: random.Random) -> float:
    """The exact mean plus Gaussian noise of a simulation's own spread, after as many draws as asked."""
    drawn = [rng.random() for _ in range(count)]
    return mean + random.Random(sum(drawn)).gauss(0, variance**0.5)


def test_a_formula_plus_matched_noise_fails_on_every_seed() -> None:
    def second_price(n: int, k: int, rng: random.Random) -> float:
        return _matched_noise((n - 1) / (n + 1), 2 * (n - 1) / ((n + 1) ** 2 * (n + 2)) / k, n * k, rng)

    def revenue(n: int, r: float, k: int, rng: random.Random) -> float:
        exact = 2 * n * (1 - r ** (n + 1)) / (n + 1) - (1 - r**n)
        return _matched_noise(exact, 0.04 / k, n * k, rng)

    for seed in SEEDS:
        with pytest.raises(Wrong, match="not the mean second-highest value"):
            auctions._second_price(second_price, [(3, seed)])
        with pytest.raises(Wrong, match="not the mean price of the 500 auctions"):
            reserve._simulation(revenue, [(3, 0.5, seed)])


# -- answers rebuilt from Python's own types ---------------------------------------------------------


class Anything:
    """An answer that claims to equal everything."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__


class Slippery(float):
    """A float whose comparisons and arithmetic always agree with the check."""

    def __eq__(self, other: object) -> bool:
        return True

    def __sub__(self, other: object) -> float:
        return 0.0

    __hash__ = float.__hash__


def test_an_answer_is_rebuilt_from_pythons_own_types() -> None:
    with pytest.raises(Wrong, match="object of type 'Anything'"):
        plain(Anything())
    assert type(plain(Slippery(0.25))) is float and plain(Slippery(0.25)) == 0.25
    assert type(plain([Slippery(1.0), (2, "x")])) is tuple
    bid = Bid(9)
    object.__setattr__(bid, "sun", 11)  # a frozen action changed after the fact: its fields are what count
    assert plain(bid) == Bid(11) and plain(bid) is not bid
    with pytest.raises(Wrong):
        plain(types.SimpleNamespace(sun=9))


def test_an_answer_equal_to_anything_earns_nothing() -> None:
    assert "object of type 'Anything'" in _fails(bidder.SHEET, "2", lambda s: Anything())
    assert "object of type 'Anything'" in _fails(ra_auction.SHEET, "5", lambda s: Anything())
    assert "object of type 'Anything'" in _fails(bag.SHEET, "1", lambda s: (Anything(), Anything()))
    slippery = _fails(auctions.SHEET, "1", lambda n, k, rng: Slippery((n - 1) / (n + 1)))
    assert "drew 0 numbers" in slippery  # a float's own value is checked, not what its methods say


# -- the recording generator -------------------------------------------------------------------------


def test_the_recorder_notices_every_other_way_of_drawing() -> None:
    def numbers(draw: Callable[[Recorder], Any]) -> str:
        rng = Recorder(3)
        draw(rng)
        with pytest.raises(Wrong) as info:
            rng.numbers("f", 1)
        return str(info.value)

    assert "reseeded" in numbers(lambda rng: rng.seed(4))
    assert "reseeded" in numbers(lambda rng: rng.setstate(random.Random(4).getstate()))
    assert "other methods" in numbers(lambda rng: rng.choice([1, 2]))
    assert "past its `random()` method" in numbers(lambda rng: (rng.random(), random.Random.random(rng)))
    assert "drew 2 numbers" in numbers(lambda rng: (rng.random(), rng.random()))
    rng = Recorder(3)
    values = [rng.random(), rng.uniform(0, 1)]  # uniform() draws through random(): it is recorded
    assert rng.numbers("f", 2) == values


# -- a kernel the checks can trust -------------------------------------------------------------------


@contextmanager
def patched(owner: Any, name: str, value: Any) -> Iterator[None]:
    """Set `owner.name` to `value` for the block (a class's own attribute, or a module's)."""
    original = vars(owner)[name]
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, original)


def test_an_honest_kernel_has_no_problems() -> None:
    assert sound.problems() == []


@pytest.mark.parametrize(
    ("owner", "name", "value", "found"),
    [
        (builtins, "abs", lambda x: 0, "the built-in `abs` was replaced"),
        (builtins, "isinstance", lambda *a: True, "the built-in `isinstance` was replaced"),
        (Fraction, "__eq__", lambda a, b: True, "`fractions.Fraction.__eq__` is code of the notebook's own"),
        (random.Random, "seed", lambda self, *a: None, "`random.Random.seed` is code of the notebook's own"),
        (State, "legal_actions", lambda self: (), "`ra_core.engine.state.State.legal_actions` is code of"),
        (ra_auction, "hidden_positions", ra_auction.visible_positions, "is bound to another function"),
    ],
    ids=["abs", "isinstance", "Fraction", "Random", "State", "rebound"],
)
def test_a_replaced_function_is_found(owner: Any, name: str, value: Any, found: str) -> None:
    with patched(owner, name, value):
        assert any(found in p for p in sound.problems()), sound.problems()
    assert sound.problems() == []


def test_a_check_fails_in_a_changed_kernel_and_passes_after() -> None:
    solution = reference("reserve")["virtual_value"]
    with patched(Fraction, "__eq__", lambda a, b: True):
        assert "cannot be checked in this kernel" in _fails(reserve.SHEET, "1", solution)
    Checker(reserve.SHEET)("1", solution)


def test_a_function_that_changes_the_kernel_while_it_runs_fails() -> None:
    solution = reference("reserve")["optimal_reserve"]

    def patch_and_restore(F: Any, f: Any) -> float:  # changes the engine and puts it back before returning
        original = State.__dict__["legal_actions"]
        State.legal_actions = lambda self: ()  # type: ignore[method-assign]
        State.legal_actions = original  # type: ignore[method-assign]
        return float(solution(F, f))

    Checker(reserve.SHEET)("2", patch_and_restore)  # put back at once: nothing ran with it, nothing to find

    def patch_and_keep(F: Any, f: Any) -> float:
        builtins.abs = lambda x: 0  # type: ignore[assignment,return-value]
        return float(solution(F, f))

    original_abs = builtins.abs
    try:
        assert "`builtins.abs` was replaced" in _fails(reserve.SHEET, "2", patch_and_keep)
    finally:
        builtins.abs = original_abs


def test_a_tracer_a_thread_or_a_timer_beside_a_check_is_found() -> None:
    solution = reference("reserve")["virtual_value"]

    def traced(v: Any, F: Any, f: Any) -> Any:
        sys.settrace(lambda *a: None)
        return solution(v, F, f)

    try:
        assert "a trace function is set" in _fails(reserve.SHEET, "1", traced)
    finally:
        sys.settrace(None)
    stop = threading.Event()

    def spy() -> None:
        while not stop.wait(0.001):
            pass

    thread = threading.Thread(target=spy, daemon=True)
    thread.start()
    try:
        assert "a thread runs the notebook's own code" in _fails(reserve.SHEET, "1", solution)
    finally:
        stop.set()
        thread.join()
    Checker(reserve.SHEET)("1", solution)


def test_a_kept_copy_of_a_forbidden_function_fails_its_task() -> None:
    code = HeuristicBot.__call__
    kept = [types.FunctionType(code.__code__, code.__globals__, "__call__", code.__defaults__)]
    message = _fails(bidder.SHEET, "1", lambda s: kept[0](HeuristicBot(), s, random.Random(0)))
    assert "a copy of `ra_core.bots.HeuristicBot.__call__` of the package is kept in this kernel" in message
    kept.clear()
    gc.collect()
    assert "a copy of" not in _fails(bidder.SHEET, "1", lambda s: Pass())
