"""Affiliated signals solved exactly: a common value, private estimates with uniform noise, a flat prior.

The model (notebook 15; Milgrom and Weber 1982 give the general theory): one object with the
same value ``V`` to all ``n`` bidders; bidder ``i`` sees ``s_i = V + e_i``, the errors ``e_i``
independent and uniform on ``[-e, e]``. Every value of ``V`` is equally likely (a *flat* prior,
the limit of a uniform prior on a wide range, notebook 12's "away from the ends"). Given ``V``
the signals are independent, so they are **affiliated**: a high signal makes high values of the
others more likely. Given any set of signals, ``V`` is uniform between the highest minus ``e`` and
the lowest plus ``e``, so its expectation is their **midrange**; that is why every equilibrium
below is a straight line.

The symmetric equilibria (each derived in the notebook):

* English (an ascending clock, drop-outs public): stay in while the price is below
  ``E[V | own signal ties the highest rivals', the dropped-out signals]``; with ``n`` bidders
  still in, that is the own signal itself; once the lowest, ``s_(n)``, has dropped out, it is
  the midrange of the own signal and ``s_(n)``. The price is ``(s_(2) + s_(n)) / 2``.
* Second price: bid ``E[V | own signal = highest rival's] = s - e (n - 2) / n``.
* First price: bid ``s - e``.

Everything is relative to ``V`` (shifting ``V`` shifts every signal, bid and price alike), so
the expected price is ``V`` minus the winner's information rent, in units of ``e``:

>>> [str(rent(kind, 3)) for kind in FORMATS]
['1/4', '1/3', '1/2']
>>> prices([0.75, 0.25, -0.5], e=1)  # English, second price, first price for these signals
(-0.125, -0.083..., -0.25)

Standard library only, like the rest of `ra_course`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

__all__ = [
    "FORMATS",
    "entry_signal",
    "first_price_bid",
    "first_price_gain",
    "order_mean",
    "prices",
    "rent",
    "second_price_bid",
]

#: the three formats, in Milgrom and Weber's order of expected revenue (highest first)
FORMATS = ("English", "second price", "first price")


def order_mean(k: int, n: int) -> Fraction:
    """Return the mean of the k-th highest of `n` errors uniform on [-1, 1]: ``(n + 1 - 2k) / (n + 1)``.

    >>> order_mean(1, 3), order_mean(3, 3)
    (Fraction(1, 2), Fraction(-1, 2))
    """
    if not 1 <= k <= n:
        raise ValueError(f"the k-th highest of {n} needs 1 <= k <= {n}, not k = {k}")
    return Fraction(n + 1 - 2 * k, n + 1)


def second_price_bid(s: float, n: int, e: float) -> float:
    """Return the second-price equilibrium bid of signal `s`: ``s - e (n - 2) / n``.

    It is ``E[V | s is tied with the highest rival's signal]``: given that tie, the others lie
    below ``s``, so ``V`` has density proportional to ``(s + e - V)^(n - 2)`` on ``[s - e, s + e]``.

    >>> second_price_bid(5.0, 2, 1.0), second_price_bid(5.0, 4, 1.0)
    (5.0, 4.5)
    """
    return s - e * (n - 2) / n


def first_price_bid(s: float, e: float) -> float:
    """Return the first-price equilibrium bid of signal `s`: ``s - e`` (for every number of bidders).

    >>> first_price_bid(5.0, 1.0)
    4.0
    """
    return s - e


def prices(signals: Sequence[float], e: float) -> tuple[float, float, float]:
    """Return the price of one auction in each of `FORMATS`, all bidders playing the equilibrium.

    English: the second-highest bidder drops out at the midrange of his signal and the lowest
    (revealed when it dropped out); second price: the second-highest bid; first price: the highest.
    """
    ordered = sorted(signals, reverse=True)
    n = len(ordered)
    if n < 2:
        raise ValueError(f"an auction needs at least 2 bidders, not {n}")
    english = (ordered[1] + ordered[-1]) / 2
    return english, second_price_bid(ordered[1], n, e), first_price_bid(ordered[0], e)


def first_price_gain(z: float, n: int, e: float, steps: int = 400) -> float:
    """Return the expected profit of signal 0 bidding ``z - e`` against rivals who bid their signal minus `e`.

    Given signal 0, ``V`` is uniform on ``[-e, e]``; he wins when every rival's signal is below
    ``z``, with chance ``clip((z - V + e) / (2e))^(n - 1)`` given ``V``, and then gains
    ``V - (z - e)``. The integral over ``V`` is a polynomial between the kinks ``z - e`` and
    ``z + e``, integrated piece by piece with Simpson's rule (`steps` intervals a piece): exact to
    rounding for ``n <= 4``, and to about 1e-10 beyond. It is highest at ``z = 0``: bidding
    ``s - e`` is the best reply (notebook 15).

    >>> [round(first_price_gain(z, 3, 1.0), 6) for z in (-0.2, 0.0, 0.2)]
    [0.15795, 0.166667, 0.15605]
    """

    def gain(v: float) -> float:
        chance = min(1.0, max(0.0, (z - v + e) / (2 * e))) ** (n - 1)
        return (v - z + e) * chance / (2 * e)

    cuts = sorted({-e, e, *(c for c in (z - e, z + e) if -e < c < e)})
    total = 0.0
    for a, b in itertools.pairwise(cuts):
        h = (b - a) / steps
        inner = sum((4 if i % 2 else 2) * gain(a + i * h) for i in range(1, steps))
        total += h / 3 * (gain(a) + gain(b) + inner)
    return total


def rent(kind: str, n: int) -> Fraction:
    """Return ``E[V - price] / e`` in the format `kind`: the winner's expected profit, the seller's loss.

    English ``1/(n+1)``, second price ``2(n-1)/(n(n+1))``, first price ``2/(n+1)``: from the
    means of the order statistics (`order_mean`) and the bids above.

    >>> rent("English", 2) == rent("second price", 2)  # two bidders: nobody drops out before the end
    True
    """
    if n < 2:
        raise ValueError(f"an auction needs at least 2 bidders, not {n}")
    if kind == "English":
        return -(order_mean(2, n) + order_mean(n, n)) / 2
    if kind == "second price":
        return -order_mean(2, n) + Fraction(n - 2, n)
    if kind == "first price":
        return -order_mean(1, n) + 1
    raise ValueError(f"no format {kind!r}; the formats are {', '.join(FORMATS)}")


def entry_signal(r: float, n: int, e: float) -> float:
    """Return the lowest signal that bids at a reserve `r` in a second-price auction: ``r + e (n-1)/(n+1)``.

    The marginal bidder wins only when every rival's signal is below his own; given that, ``V``
    has density proportional to ``(s + e - V)^(n - 1)`` on ``[s - e, s + e]``, whose mean is
    ``s - e (n - 1) / (n + 1)``. He breaks even at ``r`` only with a signal that much above it:
    the winner's curse of notebook 12, at the reserve.

    >>> entry_signal(5.0, 3, 1.0)
    5.5
    """
    return r + e * (n - 1) / (n + 1)
