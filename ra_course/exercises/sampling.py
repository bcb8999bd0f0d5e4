"""Checks of simulations: the generator is the only source of randomness, and the answers spread like estimates.

`uses_its_rng` calls a simulation twice with generators seeded alike and with others;
`simulated` compares the estimates of one run per seed with the theory, their mean and their
spread from seed to seed (`ra_course.exercises.guards.spread_ratio`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from typing import Any

from .checking import Wrong, Z, call, canonical, is_number, too_high_or_low
from .guards import SPREAD_RANGE, spread_ratio

__all__ = ["simulated", "uses_its_rng"]


def uses_its_rng(function: Any, name: str, *args: Any, seeds: Iterable[int] = (7, 8)) -> None:
    """Check that ``function(*args, rng)`` draws its randomness from `rng`, and from nothing else.

    Two generators seeded alike must give the same result; the generators seeded with `seeds`
    must not all give one result (a simulation that ignores `rng`, or returns the formula,
    would). Raises `Wrong` saying which.
    """
    first, *others = list(seeds)
    a = call(function, name, *args, random.Random(first))
    if a != call(function, name, *args, random.Random(first)):
        raise Wrong(
            f"`{name}` gave two different results with two generators seeded alike: it draws random numbers "
            "from somewhere else (the module `random`, numpy, ...); draw them all from `rng`"
        )
    if all(call(function, name, *args, random.Random(seed)) == a for seed in others):
        raise Wrong(
            f"`{name}` gives the same result with differently seeded generators: it does not simulate "
            "with `rng` (a formula, or random numbers from elsewhere, gives the same answer every time)"
        )


def simulated(values: Sequence[Any], mean: float, variance: float, trials: int, what: str) -> None:
    """Check the estimates of a simulation run once per seed, each from `trials` draws of variance `variance`.

    Their average must be within `Z` standard errors of `mean`, and their spread from seed to
    seed that of a Monte Carlo estimate (`ra_course.exercises.guards.spread_ratio` in
    `SPREAD_RANGE`): a formula plus a little noise varies far too little. Raises `Wrong`.
    """
    if not all(is_number(v) for v in values):
        raise Wrong(f"{what}: the estimates {canonical(list(values)[:3], 4)}... are not all numbers")
    xs = [float(v) for v in values]
    if not all(math.isfinite(x) for x in xs):
        raise Wrong(f"{what}: an estimate is not a finite number")
    k = len(xs)
    average = math.fsum(xs) / k
    if abs(average - mean) > Z * math.sqrt(variance / (trials * k)) + 1e-12:
        raise Wrong(
            f"{what}: your estimates average {average:.4f} over {k} seeds: {too_high_or_low(average, mean)} "
            f"(more than {Z:g} standard errors off)"
        )
    ratio = spread_ratio(xs, variance, trials)
    low, high = SPREAD_RANGE
    if not low <= ratio <= high:
        how = (
            "too little, as a formula with a little noise added would"
            if ratio < low
            else "too much, as a simulation with fewer draws than `trials` would"
        )
        raise Wrong(
            f"{what}: from seed to seed your estimates vary {ratio:.2g} times as much as a mean of {trials} "
            f"random draws does: {how}. A simulation's answer moves with the seed by about its standard error"
        )
