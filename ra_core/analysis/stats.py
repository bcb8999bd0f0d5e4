"""Confidence intervals for tournament tables: Wilson intervals for win rates, normal ones for means."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

__all__ = ["mean_interval", "wilson_interval"]


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Return the Wilson score interval for a proportion of `successes` in `trials`.

    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials == 0:
        return (0.0, 1.0)
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / trials
    denominator = 1 + z * z / trials
    center = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, center - half), min(1.0, center + half))


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """Return the mean of `values` and its normal confidence interval: (mean, low, high).

    >>> mean_interval([10, 12, 14, 16])
    (13.0, 10.46..., 15.53...)
    """
    m = len(values)
    if m == 0:
        return (math.nan, math.nan, math.nan)
    mean = statistics.fmean(values)
    if m == 1:
        return (mean, -math.inf, math.inf)
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2)
    half = z * statistics.stdev(values) / math.sqrt(m)
    return (mean, mean - half, mean + half)
