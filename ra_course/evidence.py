"""Evidence in the teaching notebooks: simulations checked against exact values, and findings stated.

A notebook that teaches a formula also simulates it, and checks that the two agree. Each check
allows the simulation to stray `Checks.z` standard errors from the exact value; a correct
simulation still fails a check now and then, with a small, known probability. `Checks` counts
the checks a notebook makes, so that the notebook can state (and assert) the chance that a run
with other seeds fails any of them (Bonferroni: at most the sum of the chances, whatever the
dependence between the checks).

    >>> checks = Checks(z=4, shift=0)
    >>> checks.within(0.51, 0.5, 0.01, "a coin's mean")
    True
    >>> len(checks), f"{checks.per_check:.4%}"
    (1, '0.0063%')

Several means simulated on the *same* random numbers (common random numbers: one set of
rivals, many bids tried against it) are one experiment, not several: `Checks.jointly` tests
them together with one Wald test (the vector of simulated means against the vector of exact
values, through their estimated covariance), which fails by chance with the same probability
as one single check, and counts as one.

The seeds of a notebook's checked simulations come from `Checks.seed`, which adds a shift read
from the environment variable ``RA_COURSE_RESEED`` (0 when it is not set): the test suite reruns
every notebook's checks under other seeds that way, and a student can too.

A *finding* is different: a claim about what happened in the notebook's seeded run (a bot won
more often, a price came out higher). It is printed, not asserted, because another seed may
not show it; the text says which seeds it describes.

The rest is the small linear algebra the notebooks' statistics need, in the standard library:
`solve`, `chi2_sf`, `clustered_least_squares` (least squares with standard errors clustered by
game) and `wald` (does an estimate fit a family of hypotheses?).
"""

from __future__ import annotations

import math
import operator
import os
import statistics
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction

__all__ = [
    "RESEED",
    "Checks",
    "binomial_outside",
    "chi2_sf",
    "clustered_least_squares",
    "finding",
    "mean_se",
    "solve",
    "wald",
]

RESEED = "RA_COURSE_RESEED"  # the environment variable that shifts every checked simulation's seed

Matrix = list[list[float]]


def mean_se(xs: Sequence[float], clusters: Sequence[Hashable] | None = None) -> tuple[float, float]:
    """Return the mean of `xs` and its standard error.

    Without `clusters`, the samples are taken as independent: the sample standard deviation over
    the square root of their number. With `clusters` (one label per sample, say the game an
    auction belongs to), samples of one cluster may depend on each other and clusters are taken
    as independent: the standard error is the square root of the sum over clusters of the
    squared sum of their deviations from the mean, over the number of samples (the cluster-robust
    estimate, without a small-sample correction).

    >>> mean_se([1.0, 2.0, 3.0, 4.0])
    (2.5, 0.645...)
    >>> mean_se([1.0, 1.0, 3.0, 3.0], clusters=["a", "a", "b", "b"])
    (2.0, 0.707...)
    """
    mean = statistics.fmean(xs)
    if clusters is None:
        return mean, statistics.stdev(xs) / math.sqrt(len(xs))
    if len(clusters) != len(xs):
        raise ValueError(f"{len(xs)} samples but {len(clusters)} cluster labels")
    sums: dict[Hashable, float] = {}
    for x, label in zip(xs, clusters, strict=True):
        sums[label] = sums.get(label, 0.0) + (x - mean)
    return mean, math.sqrt(sum(s * s for s in sums.values())) / len(xs)


def _exact(value: float | Fraction) -> str:
    """Return an exact value as printed beside a simulation: a fraction with its decimals, or the decimals."""
    if isinstance(value, Fraction | int):
        return f"{value} = {float(value):.4f}"
    return f"{value:.4f}"


def finding(holds: bool, claim: str) -> None:
    """Print a claim the text makes about this seeded run, and whether the run shows it."""
    head = "finding holds in this run: " if holds else "NOT in this run (the text describes the stored seeds): "
    print(head + claim)


def binomial_outside(trials: int, p: float | Fraction, low: float, high: float) -> float:
    """Return the exact chance that a binomial count (`trials` draws, chance `p` each) falls outside [low, high].

    The sum of the binomial probabilities ``comb(n, k) p^k (1-p)^(n-k)`` over the counts ``k``
    below `low` or above `high`, each computed through logarithms (`math.lgamma`), so that it is
    exact to floating-point rounding even for thousands of draws. A check that a simulated count
    lies within a band fails by chance with exactly this probability; for a rare event the normal
    approximation understates it (the binomial law is skewed).

    >>> binomial_outside(2, 0.5, 1, 1)  # two fair coins: not exactly one head
    0.5
    >>> round(binomial_outside(10, 0.1, 0, 2), 10) == round(1 - sum(
    ...     math.comb(10, k) * 0.1**k * 0.9 ** (10 - k) for k in range(3)), 10)
    True
    """
    p = float(p)
    if not 0 <= p <= 1:
        raise ValueError(f"a chance lies in [0, 1], not {p}")
    if p in (0.0, 1.0):
        return 0.0 if low <= trials * p <= high else 1.0

    def pmf(k: int) -> float:
        log = math.lgamma(trials + 1) - math.lgamma(k + 1) - math.lgamma(trials - k + 1)
        return math.exp(log + k * math.log(p) + (trials - k) * math.log1p(-p))

    below = range(max(0, min(trials + 1, math.ceil(low))))
    above = range(max(0, math.floor(high) + 1), trials + 1)
    return math.fsum(pmf(k) for k in [*below, *above])


def solve(matrix: Sequence[Sequence[float]], rhs: Sequence[float]) -> list[float]:
    """Return x with ``matrix @ x = rhs``, by Gaussian elimination with partial pivoting.

    Raises:
        ValueError: the matrix is singular (to rounding): a column is a combination of the others.

    >>> solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0])
    [0.8, 1.4]
    """
    n = len(matrix)
    rows = [[float(a) for a in row] + [float(b)] for row, b in zip(matrix, rhs, strict=True)]
    scale = max((abs(a) for row in rows for a in row[:n]), default=0.0)
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(rows[r][c]))
        if abs(rows[pivot][c]) <= 1e-12 * scale:
            raise ValueError("the matrix is singular: one column is a combination of the others")
        rows[c], rows[pivot] = rows[pivot], rows[c]
        for r in range(c + 1, n):
            factor = rows[r][c] / rows[c][c]
            if factor:
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[c], strict=True)]
    x = [0.0] * n
    for c in reversed(range(n)):
        x[c] = (rows[c][n] - sum(rows[c][j] * x[j] for j in range(c + 1, n))) / rows[c][c]
    return x


def _inverse(matrix: Sequence[Sequence[float]]) -> Matrix:
    n = len(matrix)
    columns = [solve(matrix, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]


def chi2_sf(x: float, k: int) -> float:
    """Return P(X > x) for X chi-square distributed with `k` degrees of freedom (k a positive integer).

    Exact closed forms: for even k a Poisson sum, for odd k the normal tail plus a finite sum.
    With one degree of freedom it is the two-sided normal tail at sqrt(x):

    >>> abs(chi2_sf(16.0, 1) - 2 * (1 - statistics.NormalDist().cdf(4))) < 1e-15
    True
    >>> round(chi2_sf(2 * math.log(20), 2), 12), round(chi2_sf(7.814727903, 3), 6)
    (0.05, 0.05)
    """
    if k < 1:
        raise ValueError(f"degrees of freedom must be a positive integer, not {k}")
    if x <= 0:
        return 1.0
    half = x / 2
    if k % 2 == 0:
        return sum(math.exp(j * math.log(half) - half - math.lgamma(j + 1)) for j in range(k // 2))
    tail = math.erfc(math.sqrt(half))
    return tail + sum(
        math.exp((j - 0.5) * math.log(half) - half - math.lgamma(j + 0.5)) for j in range(1, (k + 1) // 2)
    )


def clustered_least_squares(
    rows: Sequence[Sequence[float]], ys: Sequence[float], clusters: Sequence[Hashable]
) -> tuple[list[float], Matrix]:
    """Return the least-squares coefficients of `ys` on `rows` and their covariance, clustered.

    The covariance is the cluster-robust sandwich ``B M B`` with ``B = (X'X)^-1`` and ``M`` the sum
    over clusters of ``s s'``, ``s`` being the cluster's sum of ``x * residual``: observations of
    one cluster (the seats of one game) may depend on each other, clusters are independent. No
    small-sample correction is applied; with hundreds of clusters it would change little.

    >>> beta, cov = clustered_least_squares([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 3.0]],
    ...                                     [1.0, 3.0, 5.0, 7.0], clusters=[0, 0, 1, 1])
    >>> [round(b, 9) for b in beta], max(abs(c) for row in cov for c in row) < 1e-20
    ([1.0, 2.0], True)
    """
    k = len(rows[0])
    xtx = [[sum(row[i] * row[j] for row in rows) for j in range(k)] for i in range(k)]
    beta = solve(xtx, [sum(row[i] * y for row, y in zip(rows, ys, strict=True)) for i in range(k)])
    scores: dict[Hashable, list[float]] = {}
    for row, y, label in zip(rows, ys, clusters, strict=True):
        residual = y - sum(a * b for a, b in zip(row, beta, strict=True))
        score = scores.setdefault(label, [0.0] * k)
        for i in range(k):
            score[i] += row[i] * residual
    meat = [[sum(s[i] * s[j] for s in scores.values()) for j in range(k)] for i in range(k)]
    bread = _inverse(xtx)
    half = [[sum(bread[i][a] * meat[a][j] for a in range(k)) for j in range(k)] for i in range(k)]
    return beta, [[sum(half[i][a] * bread[a][j] for a in range(k)) for j in range(k)] for i in range(k)]


def wald(
    estimate: Sequence[float], covariance: Sequence[Sequence[float]], basis: Sequence[Sequence[float]] = ()
) -> tuple[float, int, float]:
    """Test whether the true value of an estimate lies in the span of `basis` (at 0 if there is none).

    The statistic is the smallest distance from the estimate to that span, measured through the
    inverse of the estimate's covariance (generalised least squares): ``min over c of
    (e - A c)' V^-1 (e - A c)``. If the true value lies in the span and the estimate is
    approximately normal, it is chi-square distributed with ``len(estimate) - len(basis)``
    degrees of freedom.

    Returns:
        The statistic, its degrees of freedom and its p-value (the chance of a statistic at least
        as large when the hypothesis holds).

    >>> w, dof, p = wald([2.0, 4.1], [[1.0, 0.0], [0.0, 1.0]], basis=[[1.0, 2.0]])
    >>> round(w, 3), dof, round(p, 3)
    (0.002, 1, 0.964)
    """
    k = len(estimate)
    inverse_times = solve(covariance, list(estimate))  # V^-1 e
    statistic = sum(e * v for e, v in zip(estimate, inverse_times, strict=True))
    if basis:
        columns = [solve(covariance, list(a)) for a in basis]  # V^-1 a for each basis vector
        gram = [
            [sum(a * c for a, c in zip(basis[i], columns[j], strict=True)) for j in range(len(basis))]
            for i in range(len(basis))
        ]
        projected = [sum(a * v for a, v in zip(basis[i], inverse_times, strict=True)) for i in range(len(basis))]
        coefficients = solve(gram, projected)
        statistic -= sum(c * p for c, p in zip(coefficients, projected, strict=True))
    dof = k - len(basis)
    return statistic, dof, chi2_sf(statistic, dof)


class Checks:
    """The checks one notebook makes of simulations against exact values, counted.

    Args:
        z: how many standard errors a simulated mean may stray from its exact value; a joint check
            uses the same false-alarm probability.
        shift: added to every seed handed out by `seed`; None reads it from the environment
            variable ``RA_COURSE_RESEED`` (0 when it is not set).
        limit: the largest family-wise false-alarm bound the notebook accepts (it asserts
            ``bound() <= limit`` at the end).

    Attributes:
        z: the tolerance in standard errors.
        shift: the seed shift in force.
        limit: the accepted bound on the chance that a run with other seeds fails any check.
        made: what each check was about, in order (a joint check is one entry).
        chances: the chance that each check fails by chance, in the same order: `per_check`,
            unless the check knows its own exact chance (`frequency`, `frequencies`).
    """

    def __init__(self, z: float = 4, shift: int | None = None, limit: float = 1e-3) -> None:
        self.z = z
        self.shift = int(os.environ.get(RESEED, "0")) if shift is None else shift
        self.limit = limit
        self.made: list[str] = []
        self.chances: list[float] = []

    def __len__(self) -> int:
        return len(self.made)

    def __str__(self) -> str:
        seeds = "the stored seeds" if self.shift == 0 else f"every seed shifted by {self.shift} ({RESEED})"
        return (
            f"checks at {self.z:g} standard errors: a correct simulation fails one with probability "
            f"{self.per_check:.4%}; a run with other seeds may fail any of them with probability at most "
            f"{self.limit:.1%} (asserted at the end); seeds: {seeds}"
        )

    @property
    def per_check(self) -> float:
        """Return the chance that one check of a correct simulation fails (two-sided, normal approximation)."""
        return 2 * (1 - statistics.NormalDist().cdf(self.z))

    def seed(self, base: int) -> int:
        """Return the seed to use where the notebook says `base`: `base` plus the shift in force.

        >>> Checks(shift=0).seed(8), Checks(shift=1000).seed(8)
        (8, 1008)
        """
        return base + self.shift

    def bound(self) -> float:
        """Return a bound on the chance that a run with other seeds fails any check (Bonferroni: the sum)."""
        return math.fsum(self.chances)

    def report(self) -> str:
        """Return the count of the checks, what each was about, and the bound on a false alarm."""
        own = any(chance != self.per_check for chance in self.chances)
        unless = " unless stated" if own else ""
        checks = "check" if len(self.made) == 1 else "checks"
        lines = [f"{len(self.made)} {checks}, each failing by chance with probability {self.per_check:.4%}{unless}:"]
        for i, (what, chance) in enumerate(zip(self.made, self.chances, strict=True)):
            exact = (
                f" (failing by chance with probability at most {chance:.4%}, computed exactly)"
                if chance != self.per_check
                else ""
            )
            lines.append(f"  {i + 1:2}. {what}{exact}")
        lines.append(
            f"the chance that a run with other seeds fails any of them is at most {self.bound():.3%} "
            f"(Bonferroni; the limit is {self.limit:.1%})"
        )
        return "\n".join(lines)

    def count(self, what: str, chance: float | None = None) -> None:
        """Count a check made another way (e.g. a confidence interval at level 1 - `per_check`).

        `chance` is the probability that the check fails by chance, when it is known exactly
        (otherwise `per_check`).
        """
        self.made.append(what)
        self.chances.append(self.per_check if chance is None else chance)

    def _band(self, trials: int, p: float | Fraction) -> tuple[float, float]:
        """Return the counts within `z` standard errors of a binomial mean: (low, high)."""
        mean = trials * float(p)
        half = self.z * math.sqrt(trials * float(p) * (1 - float(p)))
        return mean - half, mean + half

    def frequency(self, hits: int, trials: int, p: float | Fraction, what: str) -> bool:
        """Check a simulated count against its exact chance: within `z` standard errors; count it.

        The check's chance of failing by chance is computed exactly from the binomial law
        (`binomial_outside`), not from the normal approximation, and counted as such.

        >>> checks = Checks(z=4, shift=0)
        >>> checks.frequency(1000, 6000, Fraction(1, 6), "a die shows six")
        a die shows six: exact 1/6 = 0.1667; simulated 0.1667 (1,000 of 6,000), within ±0.0192; a false alarm: 0.0064 %
        True
        """
        low, high = self._band(trials, p)
        chance = binomial_outside(trials, p, low, high)
        print(
            f"{what}: exact {_exact(p)}; simulated {hits / trials:.4f} ({hits:,} of {trials:,}), "
            f"within ±{(high - low) / 2 / trials:.4f}; a false alarm: {chance:.4%}".replace("%", " %")
        )
        self.count(what, chance)
        return low <= hits <= high

    def frequencies(self, counts: Mapping[Hashable, int], law: Mapping[Hashable, float | Fraction], what: str) -> bool:
        """Check the simulated counts of every outcome of `law` at once, each within `z` standard errors.

        Counted as one check, whose chance of failing by chance is at most the sum of the exact
        binomial chances of the outcomes (Bonferroni), and counted at that sum.

        >>> checks = Checks(z=4, shift=0)
        >>> third = Fraction(1, 3)
        >>> checks.frequencies({"1-2": 1990, "3-4": 2030, "5-6": 1980}, {"1-2": third, "3-4": third, "5-6": third},
        ...                    "a die, in pairs of faces")
        a die, in pairs of faces: 3 outcomes of 6,000 draws, each within 4 standard errors (the farthest: +0.8);
        a false alarm: at most 0.0180 %
        True
        """
        trials = sum(counts.get(outcome, 0) for outcome in law)
        chance, passed, worst = 0.0, True, 0.0
        for outcome, p in law.items():
            low, high = self._band(trials, p)
            hits = counts.get(outcome, 0)
            chance += binomial_outside(trials, p, low, high)
            passed &= low <= hits <= high
            sd = math.sqrt(trials * float(p) * (1 - float(p)))
            off = (hits - trials * float(p)) / sd if sd else 0.0
            worst = off if abs(off) > abs(worst) else worst
        print(
            f"{what}: {len(law)} outcomes of {trials:,} draws, each within {self.z:g} standard errors "
            f"(the farthest: {worst:+.1f}); a false alarm: at most {chance:.4%}".replace("%", " %")
        )
        self.count(what, chance)
        return passed

    def within(self, mean: float, exact: float | Fraction, se: float, what: str) -> bool:
        """Return whether a simulated `mean` lies within `z` standard errors `se` of `exact`; count the check."""
        self.count(what)
        return abs(mean - float(exact)) <= self.z * se

    def agrees(self, samples: Sequence[float], exact: float | Fraction, what: str) -> bool:
        """Print the mean of `samples` beside its exact value; return whether it is within `z` standard errors."""
        mean, se = mean_se(samples)
        off = (mean - float(exact)) / se
        print(
            f"{what}: exact {_exact(exact)}; simulated {mean:.4f} ± {se:.4f} "
            f"({len(samples):,} samples, {off:+.1f} standard errors)"
        )
        self.count(what)
        return abs(off) <= self.z

    def jointly(
        self,
        samples: Sequence[Sequence[float]],
        exact: Sequence[float | Fraction],
        what: str,
        labels: Sequence[str] | None = None,
    ) -> bool:
        """Test several means simulated on the same random numbers against their exact values, as one check.

        `samples[j][i]` is the i-th draw of quantity j; every quantity has a draw from each of the
        same trials. The Wald statistic ``m d' S^-1 d`` (``d`` the simulated means minus the exact
        values, ``S`` the sample covariance, ``m`` the number of trials) is approximately
        chi-square with as many degrees of freedom as quantities when the exact values are right;
        the check passes unless its p-value is below `per_check`, so it fails by chance as rarely
        as one single check, and counts as one. Each quantity's mean is printed with its own
        distance in standard errors, for reading.

        Raises:
            ValueError: the quantities are linearly dependent (one is a combination of the others,
                so its check adds nothing): leave it out.

        >>> import random
        >>> rng = random.Random(1)
        >>> u = [rng.random() for _ in range(4000)]
        >>> checks = Checks(shift=0)
        >>> checks.jointly([u, [x * x for x in u]], [Fraction(1, 2), Fraction(1, 3)], "moments of u",
        ...                labels=["u", "u^2"])  # doctest: +ELLIPSIS
        moments of u, jointly (4,000 trials):
          u     exact 1/2 = 0.5000; simulated 0.50... ± 0.00... (... standard errors)
          u^2   exact 1/3 = 0.3333; simulated 0.33... ± 0.00... (... standard errors)
          Wald statistic ... on 2 degrees of freedom: p = ...; the check fails only below 0.0063%
        True
        >>> len(checks)
        1
        """
        k, m = len(samples), len(samples[0])
        if any(len(column) != m for column in samples) or len(exact) != k:
            raise ValueError("every quantity needs one draw per trial, and one exact value")
        labels = list(labels) if labels is not None else [f"quantity {j + 1}" for j in range(k)]
        means = [statistics.fmean(column) for column in samples]
        centred = [[x - mean for x in column] for column, mean in zip(samples, means, strict=True)]
        covariance = [[0.0] * k for _ in range(k)]  # of the means: the sample covariance over m
        for i in range(k):
            for j in range(i, k):
                covariance[i][j] = covariance[j][i] = sum(map(operator.mul, centred[i], centred[j])) / (m - 1) / m
        gaps = [mean - float(value) for mean, value in zip(means, exact, strict=True)]
        statistic, dof, p = wald(gaps, covariance)
        width = max(len(label) for label in labels)
        print(f"{what}, jointly ({m:,} trials):")
        for j in range(k):
            se = math.sqrt(covariance[j][j])
            print(
                f"  {labels[j]:{width}}  exact {_exact(exact[j])}; simulated {means[j]:.4f} ± "
                f"{se:.4f} ({gaps[j] / se:+.1f} standard errors)"
            )
        print(
            f"  Wald statistic {statistic:.2f} on {dof} degrees of freedom: p = {p:.3g}; "
            f"the check fails only below {self.per_check:.4%}"
        )
        self.count(what)
        return p >= self.per_check
