"""Evidence in the teaching notebooks: simulations checked against exact values, and findings stated.

A notebook that teaches a formula also simulates it, and checks that the two agree. Each check
allows the simulation to stray `Checks.z` standard errors from the exact value; a correct
simulation still fails a check now and then, with a small, known probability. `Checks` counts
the checks a notebook makes, so that the notebook can state (and assert) the chance that a run
with other seeds fails any of them (Bonferroni: at most the sum of the chances).

    >>> checks = Checks(z=4)
    >>> checks.within(0.51, 0.5, 0.01, "a coin's mean")
    True
    >>> len(checks), f"{checks.per_check:.4%}"
    (1, '0.0063%')

A *finding* is different: a claim about what happened in the notebook's seeded run (a bot won
more often, a price came out higher). It is printed, not asserted, because another seed may
not show it; the text says which seeds it describes.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from fractions import Fraction

__all__ = ["Checks", "finding", "mean_se"]


def mean_se(xs: Sequence[float]) -> tuple[float, float]:
    """Return the mean of `xs` and its standard error (the sample standard deviation over sqrt(n))."""
    return statistics.fmean(xs), statistics.stdev(xs) / math.sqrt(len(xs))


def finding(holds: bool, claim: str) -> None:
    """Print a claim the text makes about this seeded run, and whether the run shows it."""
    head = "finding holds in this run: " if holds else "NOT in this run (the text describes the stored seeds): "
    print(head + claim)


class Checks:
    """The checks one notebook makes of simulations against exact values, counted.

    Attributes:
        z: how many standard errors a simulated mean may stray from its exact value.
        made: what each check was about, in order.
    """

    def __init__(self, z: float = 4) -> None:
        self.z = z
        self.made: list[str] = []

    def __len__(self) -> int:
        return len(self.made)

    @property
    def per_check(self) -> float:
        """Return the chance that one check of a correct simulation fails (two-sided, normal approximation)."""
        return 2 * (1 - statistics.NormalDist().cdf(self.z))

    def bound(self) -> float:
        """Return a bound on the chance that a run with other seeds fails any check (Bonferroni)."""
        return len(self.made) * self.per_check

    def count(self, what: str) -> None:
        """Count a check made another way (e.g. a confidence interval at level 1 - `per_check`)."""
        self.made.append(what)

    def within(self, mean: float, exact: float | Fraction, se: float, what: str) -> bool:
        """Return whether a simulated `mean` lies within `z` standard errors `se` of `exact`; count the check."""
        self.count(what)
        return abs(mean - float(exact)) <= self.z * se

    def agrees(self, samples: Sequence[float], exact: float | Fraction, what: str) -> bool:
        """Print the mean of `samples` beside its exact value; return whether it is within `z` standard errors."""
        mean, se = mean_se(samples)
        off = (mean - float(exact)) / se
        print(
            f"{what}: exact {exact} = {float(exact):.4f}; simulated {mean:.4f} ± {se:.4f} "
            f"({len(samples):,} samples, {off:+.1f} standard errors)"
        )
        self.count(what)
        return abs(off) <= self.z
