"""Sequential auctions: k identical units sold one after another, unit demand, values uniform on [0, 1].

Notebook 17 (Weber 1983; Milgrom and Weber 1982, published 2000). ``n`` risk-neutral bidders, each
wanting one unit, values independent and uniform on [0, 1]; the ``k`` units are sold one at a
time in second-price auctions, and each price is announced. In the symmetric equilibrium a
bidder still in at round ``l`` with value ``x`` bids what he expects to pay in the last round if
he waits and is then the marginal winner: ``E[Y_k | Y_l = x]``, ``Y_j`` the ``j``-th highest of
the ``n - 1`` rivals' values. For uniform values the ``n - 1 - l`` values below ``x`` are uniform
on ``[0, x]``, so (`bid`)

    b_l(x) = (n - k) / (n - l) * x,

truthful in the last round. The round-``l`` price is the bid of the second-highest value left,
``v_(l+1)`` (the ``l+1``-th highest of all), with mean ``(n - l)/(n + 1)``, so every round's
price has the same mean, ``(n - k)/(n + 1)`` (`expected_price`), and more: given the price of a
round, the next one's expectation is that price. **Prices form a martingale**; they neither
rise nor fall on average from the first auction to the last.

>>> [bid(0.9, 5, 3, l) for l in (1, 2, 3)]
[0.45, 0.6, 0.9]
>>> [round(p, 12) for p in prices([0.95, 0.8, 0.6, 0.3, 0.1], k=3)]  # b_1(0.8), b_2(0.6), b_3(0.3)
[0.4, 0.4, 0.3]

Standard library only, like the rest of `ra_course`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

__all__ = ["bid", "expected_price", "prices"]


def _check(n: int, k: int) -> None:
    if not 1 <= k < n:
        raise ValueError(f"k units for n bidders need 1 <= k < n, not k = {k}, n = {n}")


def bid(x: float, n: int, k: int, round_no: int) -> float:
    """Return the equilibrium bid in round `round_no` (1 to `k`) of value `x`: ``(n - k)/(n - round_no) x``."""
    _check(n, k)
    if not 1 <= round_no <= k:
        raise ValueError(f"round {round_no} of {k}: rounds are 1 to {k}")
    return (n - k) / (n - round_no) * x


def expected_price(n: int, k: int) -> Fraction:
    """Return the mean price of every round: ``(n - k)/(n + 1)``, the mean ``k+1``-th highest value.

    >>> expected_price(5, 3)
    Fraction(1, 3)
    """
    _check(n, k)
    return Fraction(n - k, n + 1)


def prices(values: Sequence[float], k: int) -> list[float]:
    """Return the `k` prices of one sequence of second-price auctions, everyone bidding `bid`.

    Round ``l`` is won by the highest value left and priced at the bid of the next one, the
    ``l+1``-th highest value overall.
    """
    ordered = sorted(values, reverse=True)
    n = len(ordered)
    _check(n, k)
    return [bid(ordered[round_no], n, k, round_no) for round_no in range(1, k + 1)]
