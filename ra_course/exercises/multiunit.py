"""Sheet 6, multi-unit auctions: the uniform price and its revenue, the pay-as-bid bid, Vickrey, demand reduction.

The setting (notebook 16): ``k`` identical units; with unit demand each bidder bids once and the
``k`` highest bids win. How each task is judged, with no answer of a task in this module and no
call of `ra_course.multiunit` allowed while the student's function runs (`Task.forbidden`):

* the uniform price (Task 1) and Vickrey's payments (Task 4) from their definitions, computed
  inside the judge on the cases it chooses: the highest rejected bid; what the others' bids and the
  seller's reserve would have won without the bidder, less what they win with him (his externality);
* the pay-as-bid bid (Task 3) against ``E[Y_k | Y_k < v]`` integrated exactly (`Fraction`s) for
  values of the law F(x) = x^a, to `TOLERANCE`;
* the simulations (Tasks 2 and 5) by replaying the numbers the function drew
  (`ra_course.exercises.replay`).

Tasks 3 and 4 ask what `ra_course.multiunit` does not compute, so that a pasted copy of its
functions does not answer them: the pay-as-bid bid for values of the law F(x) = x^a (its
`pay_as_bid_bid` knows uniform values only), Vickrey's payments with a reserve price (its
`vickrey_payments` takes none).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from .checking import Sheet, Task, Wrong, call, is_number, on_hidden_cases
from .replay import Recorder, agrees, layouts

__all__ = ["AUCTIONS", "BIDS", "POINTS", "PROFILES", "SHEET", "TOLERANCE", "profile"]

#: auctions per call in the checks of Tasks 2 and 5
AUCTIONS = 500
#: Tasks 3: how close a bid must be to the exact one
TOLERANCE = 1e-6
#: Task 1's visible cases: (bids, k)
BIDS: list[tuple[tuple[float, ...], int]] = [
    ((0.31, 0.77, 0.12, 0.58, 0.94), 2),
    ((0.45, 0.2, 0.83, 0.66), 1),
    ((0.9, 0.35, 0.71), 3),
    ((0.18, 0.52, 0.47, 0.99, 0.63, 0.05), 4),
]
#: Task 3's visible cases: (n, k, a, values): n bidders, k units, values of the law F(x) = x^a
POINTS: list[tuple[int, int, int, tuple[str, ...]]] = [
    (4, 2, 1, ("3/10", "11/20", "9/10")),
    (6, 3, 2, ("1/4", "3/5", "1")),
    (5, 1, 3, ("2/5", "7/10")),
]
#: Task 4's visible cases: (seed, bidders, units) for `profile`, and the reserve price (no thousandth: no tie)
PROFILES: list[tuple[int, int, int, float]] = [(601, 3, 2, 0.3125), (602, 4, 3, 0.4375), (603, 2, 3, 0.1875)]
#: the package functions that compute what the tasks ask for
_FORBIDDEN = (
    "ra_course.multiunit.allocate",
    "ra_course.multiunit.pay_as_bid_bid",
    "ra_course.multiunit.uniform_price_revenue",
    "ra_course.multiunit.vickrey_payments",
    "ra_course.multiunit.reduced_gain",
)


def profile(seed: int, bidders: int, units: int) -> tuple[tuple[float, ...], ...]:
    """Return the bids of a Vickrey case: per bidder 1 to `units` decreasing bids, all different, in thousandths.

    >>> profile(601, 3, 2)
    ((0.198,), (0.581, 0.56), (0.752, 0.038))
    """
    rng = random.Random(seed)
    pool = rng.sample(range(1, 1000), bidders * units)
    out = []
    for b in range(bidders):
        wants = rng.randint(1, units)
        out.append(tuple(sorted((x / 1000 for x in pool[b * units : b * units + wants]), reverse=True)))
    return tuple(out)


def _number(value: Any, what: str) -> float:
    if not is_number(value):
        raise Wrong(f"{what} is {value!r:.60}; it should be a number")
    x = float(value)
    if not math.isfinite(x):
        raise Wrong(f"{what} is {x}; it should be a finite number")
    return x


# -- Task 1: the uniform price ---------------------------------------------------------------------


def _uniform_price(f: Any, cases: Sequence[Any] = BIDS) -> str:
    name = "uniform_price"
    for bids, k in cases:
        bids = tuple(float(b) for b in bids)
        what = f"{name}({list(bids)}, {k})"
        got = _number(call(f, name, bids, k), what)
        ranked = sorted(bids, reverse=True)
        rejected = ranked[k] if len(ranked) > k else 0.0
        if agrees(got, rejected):
            continue
        if len(ranked) >= k and agrees(got, ranked[k - 1]):
            raise Wrong(f"{what} returned {got:g}, the lowest winning bid: the price is set by the bids that lose")
        raise Wrong(f"{what} returned {got:g}, which is not the uniform price of these bids")
    return f"The uniform price of {len(cases)} auctions, one with as many units as bids."


# -- Task 2: the revenue, simulated ----------------------------------------------------------------


def _simulation(f: Any, cases: Sequence[Any] = ((4, 1, 6201), (5, 2, 6202), (7, 3, 6203))) -> str:
    name = "simulate_uniform_price"
    for n, k, seed in cases:
        rng = Recorder(seed)
        answer = _number(call(f, name, n, k, AUCTIONS, rng), f"`{name}`({n}, {k}, ...)")
        orders = layouts(rng.numbers(name, AUCTIONS * n), auctions=AUCTIONS, bidders=n).values()

        def mean(values: list[list[float]], units: int, k: int = k) -> float:
            return sum(units * sorted(v, reverse=True)[k] for v in values) / AUCTIONS

        if any(agrees(answer, mean(values, k)) for values in orders):
            continue
        if k > 1 and any(agrees(answer, mean(values, 1)) for values in orders):
            raise Wrong(f"with {n} bidders and {k} units your answer is the mean price of one unit, not the revenue")
        raise Wrong(
            f"with {n} bidders and {k} units `{name}` returned {answer:.6f}, which is not the mean revenue of the "
            f"{AUCTIONS} auctions it drew from `rng` (each auction's values one after another, or each bidder's): "
            "the check replays your own draws, so it must be exactly their mean"
        )
    return f"Your mean revenues are those of the auctions you drew, for {len(cases)} cases."


# -- Task 3: the pay-as-bid bid --------------------------------------------------------------------


def _conditional_mean(v: Fraction, n: int, k: int, a: int = 1) -> Fraction:
    """E[Y_k | Y_k < v] for the k-th highest of n - 1 values of the law F(x) = x^a: two polynomial integrals, exact.

    The density of Y_k is proportional to F^(n-k-1) (1 - F)^(k-1) f; with F(y) = y^a, expanding
    (1 - y^a)^(k-1) leaves terms a y^(a(p+1) - 1), whose integrals (and those of y times them) are exact.
    """
    low, high = n - k - 1, k - 1
    terms = [(math.comb(high, j) * (-1) ** j, low + j) for j in range(high + 1)]  # (1 - F)^(k-1) expanded
    mass = sum((Fraction(c, p + 1) * v ** (a * (p + 1)) for c, p in terms), Fraction(0))
    first = sum((Fraction(c * a, a * (p + 1) + 1) * v ** (a * (p + 1) + 1) for c, p in terms), Fraction(0))
    return first / mass


def _pay_as_bid(f: Any, cases: Sequence[Any] = POINTS) -> str:
    name = "pay_as_bid"
    count = 0
    for n, k, a, values in cases:
        for text in values:
            v = Fraction(text)
            what = f"{name}({float(v):g}, {n}, {k}, {a})"
            got = _number(call(f, name, float(v), n, k, a), what)
            if abs(got - float(_conditional_mean(v, n, k, a))) <= TOLERANCE:
                count += 1
                continue
            if k > 1 and abs(got - float(_conditional_mean(v, n, 1, a))) <= TOLERANCE:
                raise Wrong(
                    f"{what} returned {got:.6f}, the bid of a single unit: with {k} units a bidder wins "
                    f"when his value beats the {k}-th highest of his rivals'"
                )
            if a > 1 and abs(got - float(_conditional_mean(v, n, k))) <= TOLERANCE:
                raise Wrong(
                    f"{what} returned {got:.6f}, the bid when values are uniform: here every value is drawn "
                    f"from F(x) = x^{a}, and so is the rivals' k-th highest"
                )
            raise Wrong(f"{what} returned {got:.6f}, which is not the equilibrium bid (to within 1e-6)")
    return f"Equilibrium bids for {count} values."


# -- Task 4: Vickrey's payments ----------------------------------------------------------------------


def _top(bids: Sequence[float], units: int) -> float:
    return math.fsum(sorted(bids, reverse=True)[:units])


def _externalities(bids: Sequence[Sequence[float]], units: int, reserve: float) -> list[float]:
    """Return each bidder's externality on the others and on the seller, whose units are worth `reserve` to him."""
    seller = [reserve] * units  # a unit the seller keeps is worth the reserve to him
    ranked = sorted([(b, i) for i, own in enumerate(bids) for b in own] + [(reserve, -1)] * units, reverse=True)
    everyone = ranked[:units]
    out = []
    for i in range(len(bids)):
        others = [b for j, own in enumerate(bids) if j != i for b in own] + seller
        out.append(_top(others, units) - math.fsum(b for b, j in everyone if j != i))
    return out


def _vickrey(f: Any, cases: Sequence[Any] = PROFILES) -> str:
    name = "vickrey_payments"
    for seed, bidders, units, reserve in cases:
        bids = profile(seed, bidders, units)
        what = f"{name}({[list(b) for b in bids]}, {units}, {reserve:g})"
        got = call(f, name, bids, units, reserve)
        if not isinstance(got, tuple) or len(got) != bidders or not all(is_number(x) for x in got):
            raise Wrong(f"{what} returned {got!r:.80}; it should return one payment per bidder, in order")
        due = _externalities(bids, units, reserve)
        if all(agrees(float(paid), owed) for paid, owed in zip(got, due, strict=True)):
            continue
        if all(agrees(float(paid), owed) for paid, owed in zip(got, _externalities(bids, units, 0.0), strict=True)):
            raise Wrong(
                f"{what}: these are the payments without the reserve: the seller keeps a unit rather than sell it "
                f"for less than {reserve:g}, so a bid below it wins nothing and a winner pays at least the reserve"
            )
        i = next(i for i, (paid, owed) in enumerate(zip(got, due, strict=True)) if not agrees(float(paid), owed))
        raise Wrong(
            f"{what}: bidder {i}'s payment {float(got[i]):g} is not what his units cost the others and the seller: "
            "the value their bids and the reserve would have won without him, less what they win with him"
        )
    return f"Vickrey's payments with a reserve price in {len(cases)} auctions."


# -- Task 5: demand reduction, simulated --------------------------------------------------------------


def _gains(f: Any, cases: Sequence[Any] = ((0.8, (0.0, 0.3, 0.6, 0.8), 6501), (0.5, (0.0, 0.25, 0.5), 6502))) -> str:
    name = "second_unit_gains"
    for v, second_bids, seed in cases:
        second_bids = tuple(float(b) for b in second_bids)
        rng = Recorder(seed)
        got = call(f, name, v, second_bids, AUCTIONS, rng)
        if not isinstance(got, tuple) or len(got) != len(second_bids):
            raise Wrong(f"`{name}` returned {got!r:.80}; it should return one mean gain per second bid, in order")
        gains = [_number(g, f"`{name}`'s gain") for g in got]
        smalls = rng.numbers(
            name,
            AUCTIONS,
            "one `rng.random()` per auction: the small bidder's value, the same small bidders for every second bid",
        )
        for b2, gain in zip(second_bids, gains, strict=True):
            exact = sum(2 * (v - s) if s < b2 else v - b2 for s in smalls) / AUCTIONS
            if not agrees(gain, exact):
                raise Wrong(
                    f"with value {v:g} and the second bid {b2:g} your mean gain {gain:.6f} is not that of the "
                    f"{AUCTIONS} small bidders you drew: below the second bid the large bidder wins both units, "
                    "else one, and each winner pays the highest rejected bid"
                )
    return "The large bidder's gains on the very auctions you drew."


SHEET = Sheet(
    "multiunit",
    "Exercise sheet 6 · Multi-unit auctions",
    (
        Task(
            "1",
            "The uniform price",
            4,
            "uniform_price",
            _uniform_price,
            (
                "In the uniform-price auction the k highest bids win and all pay one price: the highest "
                "bid that does not win. With no losing bid the price is 0.",
                "Sort the bids from the highest; the winners are the first k, and the price is the next one "
                "(notebook 16, section 1): for one unit it is the second-price auction's price.",
            ),
            forbidden=_FORBIDDEN,
            hidden=on_hidden_cases(_uniform_price),
        ),
        Task(
            "2",
            "The revenue, simulated",
            4,
            "simulate_uniform_price",
            _simulation,
            (
                "Each auction: n values from rng.random(), everyone bids his value, the k highest win and "
                "each pays the highest losing bid. The revenue is what all winners pay together.",
                "The revenue of one auction is k times the (k+1)-th highest value; average it over all the "
                "auctions. Its expectation, k (n-k)/(n+1), is in notebook 16, section 1, to compare with.",
            ),
            forbidden=_FORBIDDEN,
            hidden=on_hidden_cases(_simulation),
        ),
        Task(
            "3",
            "The pay-as-bid bid",
            4,
            "pay_as_bid",
            _pay_as_bid,
            (
                "A winner pays his bid, so he bids what he expects to pay in the uniform-price auction given "
                "that he wins: the mean of Y_k, the k-th highest rival value, given that it is below v.",
                "Y_k is the k-th highest of n - 1 values of the law F: its density is proportional to "
                "F(y)^(n-k-1) (1-F(y))^(k-1) f(y) (notebook 16, section 1, for uniform values). With "
                "F(y) = y^a, expand (1 - y^a)^(k-1) and divide the integral of y times the density from 0 to v "
                "by the integral of the density.",
            ),
            forbidden=_FORBIDDEN,
            hidden=on_hidden_cases(_pay_as_bid),
        ),
        Task(
            "4",
            "Vickrey's payments",
            4,
            "vickrey_payments",
            _vickrey,
            (
                "A bidder who wins m units pays, for each, the bid his unit keeps out: another bidder's, or the "
                "seller's reserve when the unit would have stayed unsold without him. A bid below the reserve "
                "wins nothing.",
                "Vickrey's payment is the bidder's externality: the value the others would win without him, less "
                "the value they win with him (notebook 16, section 2), where the seller counts among the others, "
                "a unit he keeps worth the reserve to him.",
            ),
            forbidden=_FORBIDDEN,
            hidden=on_hidden_cases(_vickrey),
        ),
        Task(
            "5",
            "Demand reduction",
            4,
            "second_unit_gains",
            _gains,
            (
                "Draw the small bidder's value once per auction and price every second bid on the same "
                "small bidders. Below the second bid the large bidder wins both units, else one.",
                "With bids (v, b2) against a small bid s: if s < b2 he wins two at the price s; otherwise "
                "one, at the price b2 (his own losing bid sets it): notebook 16, section 2.",
            ),
            forbidden=_FORBIDDEN,
            hidden=on_hidden_cases(_gains),
        ),
    ),
)
