"""What theory predicts for a round: equilibrium bids, expected revenue, the winner's curse.

Risk-neutral bidders with independent private values drawn from one `Law` (symmetric Bayes-Nash
equilibria), n bidders per group:

* second price: bid your value, b(v) = v (weakly dominant, whatever your attitude to risk);
* first price: b(v) = E[Y | Y < v], Y the highest of the other n - 1 values: (n-1)/n * v for
  values uniform on [0, H]; with utility x**r (r < 1: risk-averse) (n-1)/(n-1+r) * v;
* all-pay: b(v) = G(v) * E[Y | Y < v], G(v) = F(v)**(n-1): (n-1)/n * v**n / H**(n-1) on [0, H];
* revenue: the same in all three (revenue equivalence), the mean second-highest value,
  (n-1)/(n+1) * H on [0, H].

Common value V with signals V + e, e uniform on [-noise, noise]: a winner's signal is the
highest of n, so it overstates V by noise*(n-1)/(n+1) on average (for signals at least `noise`
from the ends of V's range). Bidding more than that below your signal loses money on average
when you win: the winner's curse. The risk-neutral first-price equilibrium bids close to
signal - noise.

>>> from ra_classroom.auctions.laws import Uniform
>>> equilibrium_bid("first", 80, 4, Uniform(0, 100))
60.0
>>> round(expected_revenue(4, Uniform(0, 100)), 2)
60.0
>>> common_value_break_even(50, 4, noise=10)
44.0
"""

from __future__ import annotations

import math

from .laws import Law, Power, Uniform

__all__ = [
    "common_value_bid",
    "common_value_break_even",
    "equilibrium_bid",
    "expected_revenue",
    "shading",
]


def shading(n: int, law: Law, r: float = 1.0) -> float:
    """Return the first-price bid's share of the value above the law's bottom: (n-1)/(n-1+r) when uniform.

    Args:
        n: bidders in the group.
        law: the values' law.
        r: the bidders' utility is money ** r; 1 is risk-neutral, below 1 risk-averse.
    """
    if n < 2 or not 0 < r <= 1:
        raise ValueError(f"need n >= 2 and 0 < r <= 1, got n={n}, r={r}")
    a = law.alpha if isinstance(law, Power) else 1.0
    return (n - 1) * a / ((n - 1) * a + r)


def equilibrium_bid(kind: str, value: float, n: int, law: Law, r: float = 1.0) -> float:
    """Return the symmetric equilibrium bid of a bidder with `value` in a group of `n`.

    Args:
        kind: ``"first"``, ``"second"`` or ``"allpay"``.
        value: the bidder's private value.
        n: bidders in the group.
        law: the values' law.
        r: risk attitude (utility money ** r), first price only; 1 is risk-neutral.
    """
    if kind == "second":
        return float(value)
    if kind == "first":
        return law.low + shading(n, law, r) * (value - law.low)
    if kind == "allpay":
        if r != 1:
            raise ValueError("the all-pay bid is given for risk-neutral bidders only (r = 1)")
        return law.cdf(value) ** (n - 1) * (law.low + shading(n, law) * (value - law.low))
    raise ValueError(f"kind must be 'first', 'second' or 'allpay', got {kind!r}")


def expected_revenue(n: int, law: Law) -> float:
    """Return the seller's expected revenue per group of `n`: the mean second-highest value.

    The same for first-price, second-price and all-pay rounds with risk-neutral bidders.
    """
    if n < 2:
        raise ValueError(f"a group needs at least 2 bidders, got {n}")
    if isinstance(law, Uniform):
        return law.low + (n - 1) / (n + 1) * (law.high - law.low)
    a = law.alpha
    return law.high * n * (n - 1) * a * a / (((n - 1) * a + 1) * (n * a + 1))


def common_value_break_even(signal: float, n: int, noise: float) -> float:
    """Return the highest first-price bid that breaks even on average when `signal` is the group's highest."""
    return signal - noise * (n - 1) / (n + 1)


def common_value_bid(signal: float, n: int, noise: float, low: float) -> float:
    """Return the risk-neutral first-price equilibrium bid for a signal inside the range (Kagel and Levin).

    b(x) = x - noise + 2*noise/(n+1) * exp(-n/(2*noise) * (x - low - noise)), for signals x with
    low + noise <= x <= high - noise, `low` and high being the ends of the common value's range.
    """
    return signal - noise + 2 * noise / (n + 1) * math.exp(-n / (2 * noise) * (signal - low - noise))
