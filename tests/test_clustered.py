"""ra_course.clustered against cases computed by hand, Student's t against its printed tables, and coverage."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from ra_course.clustered import (
    clustered_mean,
    clustered_share,
    f_sf,
    overlap_ratio,
    slope_through_origin,
    t_cdf,
    t_quantile,
    wilson,
)
from ra_course.evidence import binomial_outside


def test_t_quantiles_match_the_printed_tables() -> None:
    # Two-sided 95 % and 99 % points of Student's t (any statistics textbook's table).
    table = {1: (12.706, 63.657), 2: (4.303, 9.925), 5: (2.571, 4.032), 10: (2.228, 3.169), 23: (2.069, 2.807)}
    for dof, (five, one) in table.items():
        assert round(t_quantile(0.975, dof), 3) == five
        assert round(t_quantile(0.995, dof), 3) == one
    assert abs(t_quantile(0.975, 10_000) - statistics.NormalDist().inv_cdf(0.975)) < 1e-3
    assert t_quantile(0.025, 7) == -t_quantile(0.975, 7)


def test_t_cdf_is_a_distribution_function() -> None:
    for dof in (1, 2, 3, 4, 9, 30):
        values = [t_cdf(x / 4, dof) for x in range(-40, 41)]
        assert values == sorted(values) and abs(t_cdf(0.0, dof) - 0.5) < 1e-15
        assert all(abs(t_cdf(x, dof) + t_cdf(-x, dof) - 1) < 1e-14 for x in (0.3, 1.7, 5.0))
    with pytest.raises(ValueError, match="positive integer"):
        t_cdf(1.0, 0)


def test_a_clustered_mean_by_hand() -> None:
    # xs 1, 2, 6 in clusters a, a, b: mean 3, deviations -2, -1, 3, cluster sums -3 and 3, so the
    # variance is G/(G-1) * (9 + 9) / 3**2 = 2 * 18 / 9 = 4; the naive one 7/3 (sample variance 7 over 3).
    e = clustered_mean([1.0, 2.0, 6.0], clusters=["a", "a", "b"])
    assert (e.value, e.se, e.clusters, e.dof, e.n) == (3.0, 2.0, 2, 1, 3)
    assert e.design_effect == pytest.approx(4 / (7 / 3))
    assert (e.low, e.high) == pytest.approx((3 - 2 * 12.7062047, 3 + 2 * 12.7062047))


def test_equal_clusters_give_the_t_interval_of_the_cluster_means() -> None:
    rng = random.Random(5)
    xs = [rng.gauss(0, 1) for _ in range(24)]
    clusters = [i // 3 for i in range(24)]  # 8 clusters of 3
    means = [statistics.fmean(xs[3 * g : 3 * g + 3]) for g in range(8)]
    e = clustered_mean(xs, clusters)
    assert e.se == pytest.approx(statistics.stdev(means) / math.sqrt(8))
    assert e.high - e.value == pytest.approx(t_quantile(0.975, 7) * e.se)


def test_a_clustered_slope_by_hand() -> None:
    # x 1..4, y 1, 3, 2, 5: b = 33/30 = 1.1, residuals -0.1, 0.8, -1.3, 0.6; the clusters' sums of
    # x * residual are 1.5 and -1.5, so the variance is 2 * 4.5 / 30**2 = 0.01. The classical one is
    # (0.01 + 0.64 + 1.69 + 0.36) / 3 / 30 = 0.03.
    e = slope_through_origin([1.0, 2.0, 3.0, 4.0], [1.0, 3.0, 2.0, 5.0], clusters=["a", "a", "b", "b"])
    assert e.value == pytest.approx(1.1) and e.se == pytest.approx(0.1) and e.dof == 1
    assert e.design_effect == pytest.approx(1 / 3)
    plain = slope_through_origin([1.0, 2.0, 3.0, 4.0], [1.0, 3.0, 2.0, 5.0])
    assert plain.se**2 == pytest.approx(0.03) and plain.dof == 3 and plain.clusters == 4


def test_bad_input_is_named() -> None:
    with pytest.raises(ValueError, match="2 clusters"):
        clustered_mean([1.0, 2.0], clusters=["a", "a"])
    with pytest.raises(ValueError, match="3 observations but 2 cluster labels"):
        clustered_mean([1.0, 2.0, 3.0], clusters=["a", "b"])
    with pytest.raises(ValueError, match="every x is 0"):
        slope_through_origin([0.0, 0.0], [1.0, 2.0])


def test_clustered_intervals_cover_at_their_stated_rate() -> None:
    """Clusters with a shared shock: the clustered 95 % interval covers the true mean about 95 % of the
    time, the naive one far less. 2,000 seeded samples; the coverage is checked against the exact
    binomial band that a correct 95 % interval leaves with probability below 1e-4."""
    rng = random.Random(35)
    samples, covered, naive = 2000, 0, 0
    for _ in range(samples):
        xs, labels = [], []
        for g in range(30):  # 30 clusters of 4, half the variance shared within a cluster
            shock = rng.gauss(0, 1)
            xs += [shock + rng.gauss(0, 1) for _ in range(4)]
            labels += [g] * 4
        e = clustered_mean(xs, labels)
        covered += e.low <= 0 <= e.high
        plain = clustered_mean(xs)
        naive += plain.low <= 0 <= plain.high
    low, high = 1850, 1950  # 92.5 % to 97.5 % of 2,000
    assert binomial_outside(samples, 0.95, low, high) < 1e-4
    assert low <= covered <= high, covered
    assert naive < 1800, naive  # the naive interval, too narrow by sqrt(design effect 2.5), covers about 80 %


def test_wilson_and_the_cluster_adjusted_share() -> None:
    # Wilson by hand, p = 0.25 of n = 4: centre (p + z^2/2n) / (1 + z^2/n),
    # half-width z / (1 + z^2/n) * sqrt(p(1-p)/n + z^2/4n^2)
    z = statistics.NormalDist().inv_cdf(0.975)
    centre = (0.25 + z * z / 8) / (1 + z * z / 4)
    half = z / (1 + z * z / 4) * math.sqrt(0.25 * 0.75 / 4 + z * z / 64)
    assert wilson(0.25, 4) == pytest.approx((centre - half, centre + half))
    plain = clustered_share([1.0, 0.0, 0.0, 0.0])
    assert (plain.low, plain.high) == pytest.approx(wilson(0.25, 4))
    # 2 students of 3 bids each, all above the line: as if 2 trials, not 6
    assert clustered_share([1.0] * 6, clusters=[1, 1, 1, 2, 2, 2]).low == pytest.approx(wilson(1.0, 2)[0])


def test_the_f_law_against_closed_forms() -> None:
    for f, d2 in ((0.5, 7), (2.0, 10), (6.0, 3)):
        assert f_sf(f, 2, d2) == pytest.approx((1 + 2 * f / d2) ** (-d2 / 2))  # two degrees of freedom on top
        assert f_sf(f, 1, d2) == pytest.approx(2 * (1 - t_cdf(math.sqrt(f), d2)))  # F(1, d) is t squared
    assert f_sf(3.3258, 5, 10) == pytest.approx(0.05, abs=1e-4)  # the 5 % point of the printed tables


def test_observations_that_share_members_are_dependent_and_the_interval_covers() -> None:
    """Disjoint members: the independent t interval. Then seeded classes of 24 students, 4 rounds of groups of 4,
    each student's effect in every group he joins: the interval covers the true mean 0 about 95 % of the time
    (the naive one, about 80 %)."""
    xs = [1.0, 4.0, 2.0, 7.0]
    alone = overlap_ratio(xs, [1.0] * 4, [{1}, {2}, {3}, {4}])
    assert (alone.value, alone.se) == pytest.approx((clustered_mean(xs).value, clustered_mean(xs).se))
    rng, covered, naive, classes = random.Random(8), 0, 0, 400
    for _ in range(classes):
        effect = {s: rng.gauss(0, 1) for s in range(24)}
        ys, members = [], []
        for _ in range(4):
            order = sorted(effect, key=lambda _: rng.random())
            for g in range(6):
                group = order[4 * g : 4 * g + 4]
                ys.append(sum(effect[s] for s in group) / 2 + rng.gauss(0, 1))
                members.append(set(group))
        e = overlap_ratio(ys, [1.0] * len(ys), members)
        covered += e.low <= 0 <= e.high
        plain = clustered_mean(ys)
        naive += plain.low <= 0 <= plain.high
    assert 0.88 * classes <= covered <= 0.99 * classes, covered
    assert naive < 0.86 * classes, naive
