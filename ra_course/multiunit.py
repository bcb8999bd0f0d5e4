"""Multi-unit auctions: k identical units, values uniform on [0, 1]; unit demand, and one bidder who wants two.

Notebook 16 and sheet 6. With **unit demand** (``n`` bidders, each wanting one unit, values
independent and uniform on [0, 1]):

* the **uniform-price** auction sells the ``k`` units to the ``k`` highest bids at the highest
  rejected bid (the ``k+1``-th); bidding one's value is weakly dominant (the argument of the
  second-price auction), and the revenue is ``k E[v_(k+1)] = k (n - k) / (n + 1)``;
* the **pay-as-bid** (discriminatory) auction charges every winner his bid; its symmetric
  equilibrium bids ``E[Y_k | Y_k < v]``, ``Y_k`` the ``k``-th highest of the ``n - 1`` rivals'
  values (`pay_as_bid_bid`), and raises the same revenue on average (revenue equivalence).

With **demand for two units** (`two_unit_example`): a large bidder with value ``v`` for each of
two units and one small bidder with value ``s`` for one. The uniform price pays the large bidder
to bid 0 for his second unit (**demand reduction**): he then wins one unit for free instead of
paying ``s`` for each of two. **Vickrey's** auction charges each winner the bids his units
displace (`vickrey_payments`), so bidding one's values is dominant again and the units go to the
highest values.

>>> uniform_price_revenue(5, 2)
Fraction(1, 1)
>>> vickrey_payments([[0.9, 0.9], [0.4]], units=2)  # the large bidder takes both and displaces 0.4 once
[0.4, 0.0]

Standard library only, like the rest of `ra_course`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

__all__ = [
    "allocate",
    "binomial_tail",
    "pay_as_bid_bid",
    "reduced_gain",
    "two_unit_example",
    "uniform_price_revenue",
    "vickrey_payments",
]


def uniform_price_revenue(n: int, k: int) -> Fraction:
    """Return the expected revenue of `k` units sold at the ``k+1``-th of `n` truthful bids: ``k (n-k)/(n+1)``.

    >>> uniform_price_revenue(3, 1)  # one unit: the second-price auction, notebook 8's 1/2
    Fraction(1, 2)
    """
    if not 1 <= k < n:
        raise ValueError(f"k units for n bidders need 1 <= k < n, not k = {k}, n = {n}")
    return Fraction(k * (n - k), n + 1)


def binomial_tail(trials: int, p: float, at_least: int) -> float:
    """Return P(at least `at_least` successes in `trials` independent tries, each with chance `p`).

    >>> binomial_tail(2, 0.5, 1)
    0.75
    """
    return math.fsum(math.comb(trials, j) * p**j * (1 - p) ** (trials - j) for j in range(at_least, trials + 1))


def pay_as_bid_bid(v: float, n: int, k: int) -> float:
    """Return the pay-as-bid equilibrium bid of value `v`: ``E[Y_k | Y_k < v]``, for `n` bidders and `k` units.

    ``Y_k``, the ``k``-th highest of ``n - 1`` uniform values, is below ``v`` when at least
    ``n - k`` of them are; its density is ``g(y) = (n-1) C(n-2, k-1) y^(n-k-1) (1-y)^(k-1)``, and
    ``y g(y) = (n-k)/n`` times the density of the ``k``-th highest of ``n`` values. So

        b(v) = (n - k)/n * P(at least n-k+1 of n below v) / P(at least n-k of n-1 below v).

    One unit (k = 1) gives notebook 8's ``(n-1)/n v``:

    >>> round(pay_as_bid_bid(0.6, 3, 1), 12)
    0.4
    >>> round(pay_as_bid_bid(1.0, 5, 2), 12)  # the top value bids the mean of Y_2: (n-k)/n
    0.6
    """
    if not 1 <= k < n:
        raise ValueError(f"k units for n bidders need 1 <= k < n, not k = {k}, n = {n}")
    if v <= 0:
        return 0.0
    below = binomial_tail(n - 1, v, n - k)
    return (n - k) / n * binomial_tail(n, v, n - k + 1) / below


def allocate(bids: Sequence[Sequence[float]], units: int) -> list[int]:
    """Return how many units each bidder wins: the `units` highest of all bids (each bidder's list of bids).

    Ties go to the earlier bidder; a bid of 0 or less wins nothing.

    >>> allocate([[0.9, 0.1], [0.5]], units=2)
    [1, 1]
    """
    ranked = sorted(((b, i) for i, own in enumerate(bids) for b in own if b > 0), key=lambda bid: (-bid[0], bid[1]))
    won = [0] * len(bids)
    for _, i in ranked[:units]:
        won[i] += 1
    return won


def vickrey_payments(bids: Sequence[Sequence[float]], units: int) -> list[float]:
    """Return what each bidder pays in Vickrey's auction: the bids of the others that his units displace.

    A bidder who wins ``m`` units pays the ``m`` highest of the others' bids that would have won
    without him: those ranked ``units - m + 1`` to ``units`` among the others' bids (0 where there
    are not that many). Equivalently, the others' loss of value from his presence.

    >>> vickrey_payments([[0.9, 0.2], [0.5], [0.3]], units=2)  # each wins one, and displaces 0.3
    [0.3, 0.3, 0.0]
    """
    won = allocate(bids, units)
    payments = []
    for i, m in enumerate(won):
        others = sorted((b for j, own in enumerate(bids) if j != i for b in own if b > 0), reverse=True)
        others += [0.0] * units
        payments.append(math.fsum(others[units - m : units]))
    return payments


def reduced_gain(v: float, b2: float) -> float:
    """Return the large bidder's expected gain in the uniform-price example when he bids ``(v, b2)``, b2 <= v.

    Against one small bidder with value ``s`` uniform on [0, 1], bidding it: below ``b2`` the large
    bidder wins both units at ``s`` each; above, one unit at ``b2``. So
    ``2 v b2 - b2^2 + (1 - b2)(v - b2)``, whose slope in ``b2`` is ``v - 1 < 0``: bid 0.

    >>> reduced_gain(0.8, 0.8), reduced_gain(0.8, 0.0)  # truthful v^2 against v
    (0.64..., 0.8)
    """
    if not 0 <= b2 <= v <= 1:
        raise ValueError(f"the example needs 0 <= b2 <= v <= 1, not b2 = {b2}, v = {v}")
    return 2 * v * b2 - b2 * b2 + (1 - b2) * (v - b2)


def two_unit_example() -> dict[str, dict[str, Fraction]]:
    """Return the exact revenue and expected welfare loss of the two-unit example, in each format.

    The large bidder's ``v`` and the small bidder's ``s`` independent and uniform on [0, 1]; the
    efficient allocation gives both units to the large bidder when ``v > s`` (welfare ``2v``),
    else one each (``v + s``). Formats: the uniform price with truthful bids (not an equilibrium),
    the uniform price in equilibrium (the large bidder bids 0 for the second unit: one unit each,
    price 0), and Vickrey's auction (truthful: the large bidder pays ``s`` for two units when
    ``v > s``; otherwise each wins one, the small bidder paying ``v``, the large 0).

    >>> {k: str(x["revenue"]) for k, x in two_unit_example().items()}
    {'uniform, truthful': '1/2', 'uniform, equilibrium': '0', 'Vickrey': '1/3'}
    """
    sixth = Fraction(1, 6)  # E[s; s < v] = E[v; v < s] = E[(v - s)^+] = 1/6
    return {
        "uniform, truthful": {"revenue": 2 * sixth + sixth, "welfare loss": Fraction(0)},
        "uniform, equilibrium": {"revenue": Fraction(0), "welfare loss": sixth},
        "Vickrey": {"revenue": sixth + sixth, "welfare loss": Fraction(0)},
    }
