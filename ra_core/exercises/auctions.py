"""Sheet 1, auctions from first principles: first- and second-price sealed-bid auctions by simulation.

The setting of every task: ``n`` bidders, each with a private value drawn uniformly from [0, 1)
with ``rng.random()``. The expected answers are derived from the order statistics of uniform
values (the mean and the spread of the highest and second-highest of ``n`` values), so a
simulation passes when it is within `Z` standard errors of the theory.
"""

from __future__ import annotations

import random
from typing import Any

from .checking import Sheet, Task, Wrong, Z, call, is_number, too_high_or_low, uses_its_rng, within

__all__ = [
    "AUCTIONS",
    "SHEET",
    "Z",
    "first_price_moments",
    "profit_moments",
    "second_price_moments",
]

#: auctions per simulated estimate in the checks
AUCTIONS = 20_000
_SEED = 2024


def second_price_moments(n: int) -> tuple[float, float]:
    """Return the mean and variance of the second-highest of `n` uniform values: the second-price revenue."""
    return (n - 1) / (n + 1), 2 * (n - 1) / ((n + 1) ** 2 * (n + 2))


def first_price_moments(n: int, shading: float) -> tuple[float, float]:
    """Return the mean and variance of ``shading`` times the highest of `n` uniform values."""
    return shading * n / (n + 1), shading**2 * n / ((n + 1) ** 2 * (n + 2))


def profit_moments(n: int, mine: float, rivals: float) -> tuple[float, float]:
    """Return the mean and variance of bidder 0's profit when he bids ``mine * v`` and n-1 rivals ``rivals * v``.

    He wins when ``mine * v`` beats every ``rivals * v_j``, which happens with probability
    ``min(1, mine * v / rivals) ** (n - 1)``; then he gains ``(1 - mine) * v``.
    """
    a = min(1.0, rivals / mine) if mine > 0 else 1.0  # above this value he wins for sure
    k = (mine / rivals) ** (n - 1) if rivals > 0 else 0.0
    # E[v^j 1{win}] = k a^(n+j) / (n+j) + (1 - a^(j+1)) / (j+1), for j = 1, 2
    m1 = k * a ** (n + 1) / (n + 1) + (1 - a**2) / 2
    m2 = k * a ** (n + 2) / (n + 2) + (1 - a**3) / 3
    mean = (1 - mine) * m1
    return mean, (1 - mine) ** 2 * m2 - mean**2


def _number(value: Any, what: str) -> float:
    if not is_number(value):
        raise Wrong(f"{what} returned {value!r}; it should return a number")
    return float(value)


# -- the tasks ---------------------------------------------------------------------------------


def _judge_second_price(f: Any) -> str:
    name = "second_price_revenue"
    seen = []
    for n in (2, 3, 5):
        r = _number(call(f, name, n, AUCTIONS, random.Random(_SEED + n)), f"{name}({n}, ...)")
        mean, var = second_price_moments(n)
        if not within(r, mean, var, AUCTIONS):
            raise Wrong(
                f"with {n} bidders and {AUCTIONS:,} auctions your mean price is {r:.4f}: "
                f"{too_high_or_low(r, mean)} for a second-price auction (more than {Z:g} standard errors off)"
            )
        seen.append(f"{n} bidders {r:.4f}")
    uses_its_rng(f, name, 3, 1000)
    return "Mean prices: " + ", ".join(seen) + "."


def _judge_first_price(f: Any) -> str:
    name = "first_price_revenue"
    for n, s in ((2, 1.0), (2, 0.5), (4, 0.75), (5, 0.3)):
        r = _number(call(f, name, n, s, AUCTIONS, random.Random(_SEED + n)), f"{name}({n}, {s}, ...)")
        mean, var = first_price_moments(n, s)
        if not within(r, mean, var, AUCTIONS):
            raise Wrong(
                f"with {n} bidders each bidding {s:g} of his value, your mean price is {r:.4f}: "
                f"{too_high_or_low(r, mean)} (more than {Z:g} standard errors off)"
            )
    uses_its_rng(f, name, 3, 0.5, 1000)
    return "Checked for 2, 4 and 5 bidders and four shading factors."


def _judge_profit(f: Any) -> str:
    name = "first_price_profit"
    for n, mine, rivals in ((2, 0.5, 0.5), (3, 0.4, 2 / 3), (3, 0.9, 2 / 3), (4, 1.0, 0.75), (4, 0.6, 0.75)):
        r = _number(call(f, name, n, mine, rivals, AUCTIONS, random.Random(_SEED + n)), f"{name}(...)")
        mean, var = profit_moments(n, mine, rivals)
        if not within(r, mean, var, AUCTIONS):
            raise Wrong(
                f"with {n} bidders, bidder 0 shading to {mine:g} and the rivals to {rivals:.3g}, your mean "
                f"profit is {r:.4f}: {too_high_or_low(r, mean)} (more than {Z:g} standard errors off)"
            )
    uses_its_rng(f, name, 3, 0.5, 2 / 3, 1000)
    return "Checked for 2-4 bidders, shading below, at and above the rivals'."


def _judge_best_shading(f: Any) -> str:
    name = "best_shading"
    found = []
    for n in (2, 3, 4):
        s = _number(call(f, name, n, 5000, random.Random(_SEED + n)), f"{name}({n}, ...)")
        if not 0 <= s <= 1:
            raise Wrong(f"for {n} bidders your best shading is {s:g}; a shading factor lies between 0 and 1")
        if abs(s - (n - 1) / n) > 0.1:
            raise Wrong(f"for {n} bidders your best shading factor is {s:.2f}: {too_high_or_low(s, (n - 1) / n)}")
        found.append(f"{n} bidders {s:.2f}")
    # With only 20 auctions per estimate a simulated best shading varies from seed to seed.
    uses_its_rng(f, name, 2, 20, seeds=range(7, 13))
    return "Best shading found: " + ", ".join(found) + "."


def _judge_equivalence(f: Any) -> str:
    name = "equilibrium_revenues"
    for n in (2, 3, 6):
        pair = call(f, name, n, AUCTIONS, random.Random(_SEED + n))
        if not isinstance(pair, tuple | list) or len(pair) != 2:
            raise Wrong(f"{name}({n}, ...) returned {pair!r}; it should return a pair (first-price, second-price)")
        first = _number(pair[0], f"{name}({n}, ...)[0]")
        second = _number(pair[1], f"{name}({n}, ...)[1]")
        m2, v2 = second_price_moments(n)
        m1, v1 = first_price_moments(n, (n - 1) / n)
        if not within(second, m2, v2, AUCTIONS):
            raise Wrong(f"with {n} bidders your second-price revenue {second:.4f} is {too_high_or_low(second, m2)}")
        if not within(first, m1, v1, AUCTIONS):
            raise Wrong(
                f"with {n} bidders bidding (n-1)/n of their values, your first-price revenue {first:.4f} "
                f"is {too_high_or_low(first, m1)}"
            )
    uses_its_rng(f, name, 3, 1000)
    return "Both formats raise the same revenue, within the noise of the simulation."


SHEET = Sheet(
    "auctions",
    "Exercise sheet 1 · Auctions from first principles",
    (
        Task(
            "1",
            "Second-price revenue",
            4,
            "second_price_revenue",
            _judge_second_price,
            (
                "In a second-price auction everybody bids his value; the highest bidder wins and pays "
                "the second-highest bid. Simulate many auctions and average the prices.",
                "For each auction draw n values with rng.random() and sort them; the price is the "
                "second largest, `values[-2]`. Return the mean over all auctions.",
            ),
        ),
        Task(
            "2",
            "First-price revenue with shading",
            4,
            "first_price_revenue",
            _judge_first_price,
            (
                "In a first-price auction the winner pays his own bid; here every bidder bids the same "
                "fraction `shading` of his value.",
                "The price of one auction is `shading * max(values)`. Average it over all auctions, "
                "drawing every value with rng.random().",
            ),
        ),
        Task(
            "3",
            "A bidder's profit",
            4,
            "first_price_profit",
            _judge_profit,
            (
                "Only bidder 0 matters: he gains value minus bid when his bid is the highest, and "
                "nothing otherwise. The other n-1 bidders shade with `rival_shading`.",
                "Per auction: v = rng.random(); the rivals' highest bid is rival_shading * max of n-1 "
                "values; if my_shading * v beats it, add (1 - my_shading) * v. Divide by the auctions.",
            ),
        ),
        Task(
            "4",
            "The best shading",
            4,
            "best_shading",
            _judge_best_shading,
            (
                "Try shading factors on a grid from 0 to 1 and keep the one with the highest simulated "
                "profit, while the rivals shade by the equilibrium factor (n-1)/n.",
                "Use `first_price_profit(n, s, (n - 1) / n, auctions, random.Random(seed))` with the "
                "same seed for every s (common random numbers), so the noise does not pick the winner.",
            ),
        ),
        Task(
            "5",
            "Revenue equivalence",
            4,
            "equilibrium_revenues",
            _judge_equivalence,
            (
                "Return two revenues for the same n: first-price with every bidder shading to (n-1)/n "
                "of his value, and second-price with truthful bids.",
                "Reuse your functions: `first_price_revenue(n, (n - 1) / n, auctions, rng)` and "
                "`second_price_revenue(n, auctions, rng)`, returned as a pair.",
            ),
        ),
    ),
)
