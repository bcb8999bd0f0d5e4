"""No function of the package answers a task, called or pasted: a search over every callable, on the hidden cases.

A task whose answer the package computes can be bought with an import, whatever the checks
forbid, and with a pasted copy of the function, which no tripwire reaches. So for every task this
test takes the first call a check makes on a hidden case and tries every callable of `ra_core`
and `ra_course` (module-level functions, private ones too, since their text can be pasted as
well; classes, callable objects, and the methods of the inputs themselves) on those inputs, in
one call and in the obvious two-call combinations:

* the result, an item or a field of it (``draw_or_call(s).draw``, ``lot_values(s)[player]``);
* two such values as a pair, or three as a triple, when the answer is one;
* two numbers combined by ``+ - * /``, or one with 1 (``a / b - 1``, ``1 - a``);
* a function of the package applied to a value that is a position, a law or a tuple
  (``expectation(tiles_before_ra(s))``).

Each combination that gives the answer of that first call is then run as the student's function
through the task's hidden test, with the task's tripwires off (as a pasted copy runs); the test
fails if one passes. The same search finds the answers of
the tasks as they were before (the next tile's odds, the expected tiles before Ra, the value of a
lot, drawing or calling): `test_the_search_finds_what_the_engine_computes`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import io
import itertools
import pkgutil
import random
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any, NamedTuple

import pytest

import ra_core
import ra_course
from grading.cases import CASES
from grading.keys import reference
from ra_core import State
from ra_core.analysis import chance, odds
from ra_core.analysis.valuation import lot_value
from ra_core.engine.timer import DecisionTimeout, time_limit_for
from ra_course import multiunit as theory
from ra_course.exercises import bag, bidder, multiunit, ra_auction, reserve, sheet
from ra_course.exercises.checking import Checker, CheckFailed
from ra_course.exercises.hashing import canonical
from ra_course.exercises.replay import Recorder

from .student_files import without_grading

#: a time limit can interrupt the garbage collector's callbacks inside a call it stops: harmless here
pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")

#: seconds one call of a public callable may take here; a slower one is left out (the package's only
#: slower ones on these inputs, the turn-aware draw or call of `ra_core.analysis.drawcall` and the
#: plots, model or draw something else), and a tenth of it for a function applied to a value
CALL_LIMIT = 1.0


class Found(NamedTuple):
    """A value made from the inputs by the package, and how."""

    how: str
    value: Any
    make: Callable[..., Any]  # the student's function that computes it from the task's inputs


def package_callables() -> list[tuple[str, Callable[..., Any]]]:
    """Return every callable of every module of `ra_core` and `ra_course`, once each, by a dotted name.

    The public ones, and the private functions a module defines (``_failures_before``): a student
    can paste those as well as any other.
    """
    seen: dict[int, tuple[str, Callable[..., Any]]] = {}
    for package in (ra_core, ra_course):
        modules = [package]
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not info.name.endswith("__main__"):
                modules.append(importlib.import_module(info.name))
        for module in modules:
            for name in dir(module):
                obj = getattr(module, name)
                if name.startswith("__") or not callable(obj) or isinstance(obj, type(ra_core)):
                    continue
                if not name.startswith("_") or getattr(obj, "__module__", None) == module.__name__:
                    seen.setdefault(id(obj), (f"{module.__name__}.{name}", obj))
    return list(seen.values())


CALLABLES = package_callables()


def _quietly(function: Callable[..., Any], *args: Any, limit: float = CALL_LIMIT) -> Any:
    """Return ``function(*args)`` within `limit` seconds, its output swallowed; raise LookupError if it fails."""
    try:
        with time_limit_for(limit), contextlib.redirect_stdout(io.StringIO()):
            return function(*args)
    except (Exception, DecisionTimeout, SystemExit) as e:
        raise LookupError from e


def _parts(found: Found, inputs: tuple[Any, ...]) -> Iterator[Found]:
    """Yield `found` and its items and fields: what ``result[i]``, ``result.field``, ``result[player]`` read."""
    yield found
    value = found.value
    keys: list[Any] = []
    if isinstance(value, tuple | list) and len(value) <= 8:
        keys = list(range(len(value)))
    elif isinstance(value, dict):
        keys = [k for k in value if isinstance(k, int) and k < 8] + [
            i for i in inputs if isinstance(i, int) and i in value
        ]
    for key in keys:
        yield Found(f"{found.how}[{key!r}]", value[key], lambda *a, f=found.make, k=key: f(*a)[k])
    for i, item in enumerate(inputs):
        if (
            isinstance(item, int)
            and not isinstance(item, bool)
            and isinstance(value, tuple | list)
            and item < len(value)
        ):
            yield Found(f"{found.how}[input {i}]", value[item], lambda *a, f=found.make, i=i: f(*a)[a[i]])
    for field in getattr(type(value), "_fields", ()) or getattr(type(value), "__dataclass_fields__", {}):
        yield Found(f"{found.how}.{field}", getattr(value, field), lambda *a, f=found.make, n=field: getattr(f(*a), n))


def one_call_values(inputs: Callable[[], tuple[Any, ...]], callables: list[tuple[str, Any]]) -> list[Found]:
    """Return what each callable gives on the inputs (all of them, or the first alone), with items and fields.

    `inputs` makes the inputs afresh for each call (a simulation's generator must not be shared).
    """
    out: list[Found] = []
    first = inputs()
    methods = [
        (f"input.{n}", m) for n in dir(first[0]) if not n.startswith("_") and callable(m := getattr(first[0], n))
    ]
    for name, function in callables:
        for arity in {len(first), 1}:

            def make(*a: Any, g: Any = function, k: int = arity) -> Any:
                return g(*a[:k])

            with contextlib.suppress(LookupError):
                args = inputs()
                out += _parts(Found(f"{name}(first {arity} inputs)", _quietly(function, *args[:arity]), make), args)
    for name, _ in methods:
        for arity in {len(first) - 1, 0}:

            def call_method(*a: Any, n: str = name[6:], k: int = arity) -> Any:
                return getattr(a[0], n)(*a[1 : 1 + k])

            with contextlib.suppress(LookupError):
                args = inputs()
                out += _parts(Found(f"{name}(next {arity} inputs)", _quietly(call_method, *args), call_method), args)
    return out


def composed(values: list[Found], callables: list[tuple[str, Any]], inputs: tuple[Any, ...]) -> list[Found]:
    """Return each callable applied to each value that is a position, a law or a tuple: ``g(f(inputs))``."""
    out: list[Found] = []
    bases: dict[int, Found] = {}
    for v in values:
        new = all(v.value is not i for i in inputs)
        if new and (isinstance(v.value, State | dict) or (isinstance(v.value, tuple) and len(v.value) > 3)):
            bases.setdefault(id(v.value), v)
    for base, (name, function) in itertools.product(bases.values(), callables):

        def make(*a: Any, g: Any = function, b: Any = base.make) -> Any:
            return g(b(*a))

        with contextlib.suppress(LookupError):
            out += _parts(
                Found(f"{name}({base.how})", _quietly(function, base.value, limit=CALL_LIMIT / 10), make), inputs
            )
    return out


def _number(value: Any) -> bool:
    return isinstance(value, int | float | Fraction) and not isinstance(value, bool)


def combinations(values: list[Found], target: Any) -> Iterator[Found]:
    """Yield the values, pairs, triples and arithmetic of values that equal `target` (canonically)."""
    wanted = canonical(target)
    by_text: dict[str, list[Found]] = {}
    for v in values:
        with contextlib.suppress(Exception):
            by_text.setdefault(canonical(v.value), []).append(v)
    yield from by_text.get(wanted, [])
    if isinstance(target, tuple) and 2 <= len(target) <= 3:
        for parts in itertools.product(*(by_text.get(canonical(t), [])[:3] for t in target)):
            yield Found(
                "(" + ", ".join(p.how for p in parts) + ")",
                tuple(p.value for p in parts),
                lambda *a, ps=parts: tuple(p.make(*a) for p in ps),
            )
    if not _number(target):
        return  # a pair or a triple of arithmetic would be more than two calls
    numbers = list({canonical(v.value): v for v in values if _number(v.value)}.values())
    for a in numbers:
        for how, result, make in _arithmetic(a, numbers):
            with contextlib.suppress(Exception):
                if canonical(result) == wanted:
                    yield Found(how, result, make)


def _arithmetic(a: Found, numbers: list[Found]) -> Iterator[tuple[str, Any, Callable[..., Any]]]:
    x = Fraction(a.value) if not isinstance(a.value, float) else a.value
    yield f"1 - {a.how}", 1 - x, lambda *s, f=a.make: 1 - f(*s)
    yield f"{a.how} - 1", x - 1, lambda *s, f=a.make: f(*s) - 1
    if x:
        yield f"1 / {a.how}", 1 / x, lambda *s, f=a.make: 1 / f(*s)
    for b in numbers:
        y = Fraction(b.value) if not isinstance(b.value, float) else b.value
        yield f"{a.how} + {b.how}", x + y, lambda *s, f=a.make, g=b.make: f(*s) + g(*s)
        yield f"{a.how} - {b.how}", x - y, lambda *s, f=a.make, g=b.make: f(*s) - g(*s)
        yield f"{a.how} * {b.how}", x * y, lambda *s, f=a.make, g=b.make: f(*s) * g(*s)
        if y:
            yield f"{a.how} / {b.how}", x / y, lambda *s, f=a.make, g=b.make: f(*s) / g(*s)
            yield f"{a.how} / {b.how} - 1", x / y - 1, lambda *s, f=a.make, g=b.make: f(*s) / g(*s) - 1


def passes_hidden(sheet_name: str, key: str, function: Callable[..., Any]) -> bool:
    """Return whether `function` passes the hidden test of task `key` of the sheet, as a pasted copy would.

    A pasted copy of a package function is the student's own code: no tripwire reaches it, so the
    task's forbidden functions are left alone here (the sheet checked forbids nothing).
    """
    untripped = dataclasses.replace(
        sheet(sheet_name), tasks=tuple(dataclasses.replace(t, forbidden=()) for t in sheet(sheet_name).tasks)
    )
    with without_grading():
        try:
            Checker(untripped)(key, function, hidden=True)
        except CheckFailed:
            return False
    return True


# -- the tasks: each one's first call on a hidden case, and the answer to it ------------------------


class Case(NamedTuple):
    sheet: str
    key: str
    inputs: Callable[[], tuple[Any, ...]]  # made afresh for every call
    simulation: bool = False
    others: Callable[[], list[tuple[Any, ...]]] = lambda: []  # more inputs of the hidden test, to weed out chance


def _cases() -> list[Case]:
    c = CASES
    ra_states = {k: ra_auction.hidden_positions(c["ra_auction"][k]) for k in "12345"}
    bag_states = bag.practice_positions(c["bag"]["1"]["count"], c["bag"]["1"]["seed"])
    bag_sim = bag.practice_positions(c["bag"]["3"]["count"], c["bag"]["3"]["seed"])[-2:]
    laws = [reserve.law(coefficients) for coefficients in c["reserve"]["2"]["laws"]]
    points = [Fraction(p) for p in c["reserve"]["1"]["points"]]
    revenue = [(n, Fraction(r), a) for n, r, a in c["reserve"]["3"]]
    units = c["multiunit"]["1"]
    points_6 = [(float(Fraction(v)), n, k, a) for n, k, a, values in c["multiunit"]["3"] for v in values]
    vickrey = [(multiunit.profile(seed, b, u), u, r) for seed, b, u, r in c["multiunit"]["4"]]

    def bids(key: str) -> list[tuple[Any, ...]]:
        return [(s, s.to_move, sun) for s in ra_states[key] for sun in ra_auction._bids(s)]

    def simulation(key: str, make: Callable[[int], tuple[Any, ...]], seed: int) -> Case:
        sheet = {"b": "bag", "a": "auctions", "r": "reserve"}[key[0]]
        return Case(sheet, key[1:], lambda: make(seed), True, lambda: [make(seed + 1), make(seed + 2)])

    return [
        simulation("a1", lambda s: (4, 500, Recorder(s)), 7101),
        simulation("a2", lambda s: (3, 0.6, 500, Recorder(s)), 7201),
        simulation("a3", lambda s: (3, 0.6, 0.5, 500, Recorder(s)), 7301),
        simulation("a5", lambda s: (4, 500, Recorder(s)), 7501),
        Case(
            "ra_auction",
            "1",
            lambda: (ra_states["1"][0], 0),
            others=lambda: [(s, p) for s in ra_states["1"] for p in range(3)][1:],
        ),
        Case("ra_auction", "2", lambda: bids("2")[0], others=lambda: bids("2")[1:]),
        Case("ra_auction", "3", lambda: bids("3")[0], others=lambda: bids("3")[1:]),
        Case("ra_auction", "4", lambda: (ra_states["4"][0],), others=lambda: [(ra_states["4"][1],)]),
        Case("ra_auction", "5", lambda: (ra_states["5"][0],), others=lambda: [(ra_states["5"][1],)]),
        Case("bag", "1", lambda: (bag_states[0],), others=lambda: [(s,) for s in bag_states[1:]]),
        Case("bag", "2", lambda: (bag_states[0],), others=lambda: [(s,) for s in bag_states[1:]]),
        simulation("b3", lambda s: (bag_sim[0], bag.TRIALS, Recorder(s)), c["bag"]["3"]["seed"]),
        Case("bag", "4", lambda: (bag_states[0],), others=lambda: [(s,) for s in bag_states[1:]]),
        simulation("b5", lambda s: (bag_sim[0], bag.TRIALS, Recorder(s)), c["bag"]["5"]["seed"]),
        Case(
            "reserve",
            "1",
            lambda: (points[0], *laws[0]),
            others=lambda: [(v, F, f) for v in points for F, f in laws][1:],
        ),
        Case("reserve", "2", lambda: laws[0], others=lambda: laws[1:]),
        Case("reserve", "3", lambda: revenue[0], others=lambda: revenue[1:]),
        simulation("r4", lambda s: (4, 0.0, reserve.AUCTIONS, Recorder(s)), 7401),
        simulation("r5", lambda s: (5, reserve.AUCTIONS, Recorder(s)), 7501),
        Case(
            "multiunit",
            "1",
            lambda: (tuple(units[0][0]), units[0][1]),
            others=lambda: [(tuple(b), k) for b, k in units[1:]],
        ),
        Case("multiunit", "3", lambda: points_6[0], others=lambda: points_6[1:]),
        Case("multiunit", "4", lambda: vickrey[0], others=lambda: vickrey[1:]),
    ]


@pytest.fixture(scope="module")
def references() -> dict[str, dict[str, Any]]:
    return {name: reference(name) for name in ("auctions", "ra_auction", "bag", "reserve", "multiunit")}


def agrees_elsewhere(found: Found, case: Case, answer: Callable[..., Any]) -> bool:
    """Return whether `found` gives the reference's answer on the case's other inputs too (cheap, before a check)."""
    for inputs in case.others():
        try:
            mine = _quietly(found.make, *inputs)
            if canonical(mine) != canonical(answer(*inputs)):
                return False
        except Exception:
            return False
    return True


@pytest.mark.parametrize("case", _cases(), ids=lambda c: f"{c.sheet}-{c.key}")
def test_no_public_callable_answers_a_task(case: Case, references: dict[str, dict[str, Any]]) -> None:
    task = sheet(case.sheet).task(case.key)
    answer = references[case.sheet][task.answer]
    target = answer(*case.inputs())
    values = one_call_values(case.inputs, CALLABLES)
    if not case.simulation:
        values += composed(values, [(n, g) for n, g in CALLABLES if n.startswith("ra_core.analysis")], case.inputs())
    buyers: list[str] = []
    tried: set[str] = set()
    for found in combinations(values, target):
        if found.how in tried or len(tried) >= 200:
            continue
        tried.add(found.how)
        if agrees_elsewhere(found, case, answer) and passes_hidden(case.sheet, case.key, found.make):
            buyers.append(found.how)
    assert not buyers, f"{task.label} is answered by the package: {buyers}"


def test_no_public_bot_passes_the_bot_tasks() -> None:
    """Sheet 4 judges decisions by the rules and by results; no bot of the package may pass a task."""
    state = bidder.decision_positions(None, games=1)[0]
    policies = []
    for name, function in CALLABLES:
        with contextlib.suppress(LookupError):
            for make in (lambda s, g=function: g(s, random.Random(0)), lambda s, g=function: g(s)):
                if _quietly(make, state) in state.legal_actions():
                    policies.append((name, make))
                    break
    assert any("heuristic_bot" in n for n, _ in policies)  # the search sees the bots
    for name, make in policies:
        for key, answer in (("1", make), ("2", make), ("3", lambda s, rng, m=make: m(s))):
            assert not passes_hidden("bidder", key, answer), f"{name} passes sheet 4's task {key}"


# -- the search itself finds what the engine computes ---------------------------------------------


def test_the_search_finds_what_the_engine_computes() -> None:
    """The tasks as they were: the next tile's odds, the tiles before Ra, a lot's value, draw or call."""
    state = bag.practice_positions(1, 20)[0]
    values = one_call_values(lambda: (state,), CALLABLES)

    def hows(target: Any, vs: list[Found] = values) -> set[str]:
        return {f.how for f in combinations(vs, target)}

    assert any(
        "p_next_ra" in h and "p_next_disaster" in h for h in hows((odds.p_next_ra(state), odds.p_next_disaster(state)))
    )
    d = chance.draw_or_call(state)
    assert any(".call" in h and ".draw" in h for h in hows((d.call, d.draw)))
    without = [(n, g) for n, g in CALLABLES if not n.endswith("expected_tiles_before_ra")]
    arithmetic = one_call_values(lambda: (state,), without)
    assert any(
        "expected_draws_until_epoch_end" in h and "- 1" in h
        for h in hows(odds.expected_tiles_before_ra(state), arithmetic)
    )
    law = composed(values, [(n, g) for n, g in CALLABLES if n.endswith(".expectation")], (state,))
    assert any("expectation" in h for h in hows(odds.expected_tiles_before_ra(state), law))
    lot = State.from_dict(ra_auction.LOT_EXAMPLE)
    by_player = one_call_values(lambda: (lot, 1), CALLABLES)
    assert any("lot_value" in h for h in hows(lot_value(lot, 1), by_player))
    bids = multiunit.profile(*multiunit.PROFILES[0][:3])  # sheet 6's Task 4 without its reserve, as it was
    paid = tuple(theory.vickrey_payments(bids, 2))
    assert any("vickrey_payments" in h for h in hows(paid, one_call_values(lambda: (bids, 2), CALLABLES)))
    assert any(name.endswith("odds._failures_before") for name, _ in CALLABLES)  # private functions, pasted
