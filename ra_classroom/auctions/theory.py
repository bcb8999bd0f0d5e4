"""What theory predicts for a round: equilibrium bids, expected revenue, the winner's curse.

Risk-neutral bidders with independent private values drawn from one `Law` (symmetric Bayes-Nash
equilibria), n bidders per group:

* second price: bid your value, b(v) = v (weakly dominant, whatever your attitude to risk);
* first price: b(v) = E[Y | Y < v], Y the highest of the other n - 1 values: (n-1)/n * v for
  values uniform on [0, H]; with utility x**rho (rho < 1: risk-averse) (n-1)/(n-1+rho) * v;
* all-pay: b(v) = G(v) * E[Y | Y < v], G(v) = F(v)**(n-1): (n-1)/n * v**n / H**(n-1) on [0, H];
* revenue: the same in all three (revenue equivalence), the mean second-highest value,
  (n-1)/(n+1) * H on [0, H].

Common value V (uniform on [L, H]) with signals V + e, e uniform on [-noise, noise], first-price
rounds: a winner's signal is the highest of n, so it overstates V by noise*(n-1)/(n+1) on average
for signals at least `noise` from the ends of V's range; near the ends less (the range itself
tells something about V). `common_value_worth` is that conditional worth for every signal: the
break-even bid, above which a winner loses money on average when everyone bids by the same
increasing rule (the winner's curse). The risk-neutral first-price equilibrium
(`common_value_bid`, Kagel and Levin) bids below it, close to signal - noise inside the range.

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
    "common_value_worth",
    "equilibrium_bid",
    "expected_revenue",
    "first_price_revenue",
    "implied_rho",
    "shading",
]


def shading(n: int, law: Law, rho: float = 1.0) -> float:
    """Return the first-price bid's share of the value above the law's bottom: (n-1)/(n-1+rho) when uniform.

    Args:
        n: bidders in the group.
        law: the values' law.
        rho: the bidders' utility is money ** rho (constant relative risk aversion, the exponent
            notebook 11 calls rho); 1 is risk-neutral, below 1 risk-averse, above 1 risk-loving.
    """
    if n < 2 or not 0 < rho <= 20:
        raise ValueError(f"need n >= 2 and 0 < rho <= 20, got n={n}, rho={rho}")
    a = law.alpha if isinstance(law, Power) else 1.0
    return (n - 1) * a / ((n - 1) * a + rho)


def implied_rho(slope: float, n: int, law: Law) -> float:
    """Return the CRRA exponent rho at which the first-price equilibrium bids the share `slope` (`shading` inverted).

    From slope = (n-1)a / ((n-1)a + rho) (a = 1 for uniform values): rho = (n-1) a (1/slope - 1). The
    reading assumes what the formula assumes: utility money**rho (constant relative risk aversion),
    values drawn from `law`, known to all, and everyone bidding the symmetric equilibrium. rho = 1
    is risk-neutral, rho < 1 risk-averse, rho > 1 risk-loving. A slope of 1 or more (bidding one's
    whole value or more) fits no such bidder: NaN; a slope of 0 or less gives infinity.

    >>> round(implied_rho(6 / 7, 4, Uniform(0, 100)), 12), round(implied_rho(0.75, 4, Uniform(0, 100)), 12)
    (0.5, 1.0)
    """
    if n < 2:
        raise ValueError(f"need n >= 2, got n={n}")
    if slope >= 1:
        return math.nan
    if slope <= 0:
        return math.inf
    a = law.alpha if isinstance(law, Power) else 1.0
    return (n - 1) * a * (1 / slope - 1)


def equilibrium_bid(kind: str, value: float, n: int, law: Law, rho: float = 1.0) -> float:
    """Return the symmetric equilibrium bid of a bidder with `value` in a group of `n`.

    Args:
        kind: ``"first"``, ``"second"`` or ``"allpay"``.
        value: the bidder's private value.
        n: bidders in the group.
        law: the values' law.
        rho: risk attitude (utility money ** rho), first price only; 1 is risk-neutral.
    """
    if kind == "second":
        return float(value)
    if kind == "first":
        return law.low + shading(n, law, rho) * (value - law.low)
    if kind == "allpay":
        if rho != 1:
            raise ValueError("the all-pay bid is given for risk-neutral bidders only (rho = 1)")
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


def first_price_revenue(n: int, law: Law, rho: float = 1.0) -> float:
    """Return the seller's expected first-price revenue per group when every bidder has utility money**rho.

    The winner bids ``low + shading(n, law, rho) * (v - low)`` with v the group's highest value, so
    the revenue is that at the mean highest value: (n/(n+1)) of the range above ``low`` for uniform
    values, ``n a / (n a + 1)`` of `high` for `Power`. With rho = 1 it is `expected_revenue`; with
    rho < 1 more (risk-averse bidders shade less), while second price stays at `expected_revenue`.

    >>> round(first_price_revenue(4, Uniform(0, 100)), 2), round(first_price_revenue(4, Uniform(0, 100), rho=0.5), 2)
    (60.0, 68.57)
    """
    if n < 2:
        raise ValueError(f"a group needs at least 2 bidders, got {n}")
    if isinstance(law, Uniform):
        top = law.low + n / (n + 1) * (law.high - law.low)
    else:
        top = law.high * n * law.alpha / (n * law.alpha + 1)
    return law.low + shading(n, law, rho) * (top - law.low)


def common_value_break_even(signal: float, n: int, noise: float) -> float:
    """Return signal - noise*(n-1)/(n+1): the break-even bid for signals at least `noise` from the range's ends.

    Inside that range it is `common_value_worth`; nearer the ends use `common_value_worth`.
    """
    return signal - noise * (n - 1) / (n + 1)


def common_value_worth(signal: float, n: int, noise: float, law: Law) -> float:
    """Return the common value's expected worth when `signal` is the highest of the group's n signals.

    This is the break-even bid: a winner who bid more loses money on average when the group's
    bids rise with their signals (so the highest signal wins). Given that the highest of n signals
    is x, the worth V has a density proportional to f(V) (x - V + noise)**(n-1) on
    [x - noise, x + noise] within the law's range. For uniform values it has a closed form,
    x - noise*(n-1)/(n+1) for L + noise <= x <= H - noise and more near the ends; for `Power` a
    sum over 400 slices of the range.

    >>> law = Uniform(0, 100)
    >>> common_value_worth(50, 4, 10, law), common_value_worth(5, 4, 10, law)  # 5 - 6 inside; near 0, 5 - 2
    (44.0, 3.0)
    """
    if n < 2 or noise <= 0:
        raise ValueError(f"need n >= 2 and noise > 0, got n={n}, noise={noise}")
    lo, hi = max(law.low, signal - noise), min(law.top, signal + noise)
    if lo > hi + 1e-9 * max(1.0, abs(hi)):
        raise ValueError(f"no worth in the law's range gives the signal {signal:g} with noise {noise:g}")
    if lo >= hi:  # a signal at an end of its range, low - noise or top + noise: one worth gives it
        return lo
    if isinstance(law, Uniform):  # u = x + noise - V runs from u_lo to u_hi; E[u] = n/(n+1) (u^(n+1)) / (u^n)
        u_lo, u_hi = signal + noise - hi, signal + noise - lo
        mean_u = n / (n + 1) * (u_hi ** (n + 1) - u_lo ** (n + 1)) / (u_hi**n - u_lo**n)
        return signal + noise - mean_u
    slices = 400
    edges = [lo + (hi - lo) * k / slices for k in range(slices + 1)]
    weights = [
        (law.cdf(b) - law.cdf(a)) * (signal + noise - (a + b) / 2) ** (n - 1)
        for a, b in zip(edges, edges[1:], strict=False)
    ]
    mids = [(a + b) / 2 for a, b in zip(edges, edges[1:], strict=False)]
    return math.fsum(w * m for w, m in zip(weights, mids, strict=True)) / math.fsum(weights)


def common_value_bid(signal: float, n: int, noise: float, low: float) -> float:
    """Return the risk-neutral symmetric first-price equilibrium bid in a common-value round (Kagel and Levin).

    For the worth uniform on [low, high] and signals worth +/- noise:

    * signals low - noise <= x <= low + noise: b(x) = low + (x - low + noise) / (n + 1);
    * signals low + noise <= x <= high - noise:
      b(x) = x - noise + 2*noise/(n+1) * exp(-n/(2*noise) * (x - low - noise)).

    The two meet at low + noise. Above high - noise the formula does not hold (it is not given
    here: draw it only up to high - noise).

    Raises:
        ValueError: the signal lies below low - noise, where no signal can be.
    """
    if signal < low - noise:
        raise ValueError(f"a signal lies at least at low - noise = {low - noise:g}, got {signal:g}")
    if signal <= low + noise:
        return low + (signal - low + noise) / (n + 1)
    return signal - noise + 2 * noise / (n + 1) * math.exp(-n / (2 * noise) * (signal - low - noise))
