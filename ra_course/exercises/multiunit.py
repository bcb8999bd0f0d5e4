"""Sheet 6, multi-unit auctions: the uniform price and its revenue, the pay-as-bid bid, Vickrey, demand reduction.

The setting (notebook 16): ``k`` identical units; with unit demand each bidder bids once and the
``k`` highest bids win. How each task is judged, with no call of `ra_course.multiunit` allowed
while the student's function runs (`Task.forbidden`), and no function of this module that gives a
task's answer (a student could call or paste it):

* the uniform price (Task 1) from its definition, inside the judge: the highest rejected bid;
* the pay-as-bid bid (Task 3) and Vickrey's payments (Task 4) against the source sheet's
  solution: hashed for the visible cases (`ra_course.exercises.hashes`; the bid to `DIGITS`
  decimals, each visible value chosen far from a rounding boundary), and in the teacher's
  ``grading/answers.py`` for the hidden ones (the bid to `TOLERANCE`); ``python -m grading.keys``
  writes both, and the tests check the solution against E[Y_k | Y_k < v] integrated exactly and
  against the externality of each bidder;
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

from .checking import Hidden, Sheet, Task, Wrong, call, is_number, matches_hash, on_hidden_cases
from .hashes import HASHES
from .hashing import HIDDEN
from .replay import Recorder, agrees, layouts

__all__ = ["AUCTIONS", "BIDS", "POINTS", "PROFILES", "SHEET", "TOLERANCE", "profile"]

#: auctions per call in the checks of Tasks 2 and 5
AUCTIONS = 500
#: Task 3: how close a bid must be to the exact one (hidden cases), and the decimals of the visible hashes
TOLERANCE = 1e-6
DIGITS = 4
#: Task 1's visible cases: (bids, k)
BIDS: list[tuple[tuple[float, ...], int]] = [
    ((0.31, 0.77, 0.12, 0.58, 0.94), 2),
    ((0.45, 0.2, 0.83, 0.66), 1),
    ((0.9, 0.35, 0.71), 3),
    ((0.18, 0.52, 0.47, 0.99, 0.63, 0.05), 4),
]
#: Task 3's visible cases: (n, k, a, values): n bidders, k units, values of the law F(x) = x^a
POINTS: list[tuple[int, int, int, tuple[str, ...]]] = [
    (4, 2, 1, ("7/20", "11/20", "9/10")),
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
# The answers are those of the source sheet's solution, hashed to `DIGITS` decimals for the visible
# cases (ra_course.exercises.hashes) and kept in the teacher's grading/answers.py for the hidden ones:
# no function of this package computes a bid of the law x^a, nor a Vickrey payment with a reserve.


def _bids_of(f: Any, cases: Sequence[Any]) -> list[list[tuple[str, float]]]:
    """Return what `pay_as_bid` answers on each case's values, with the call as text."""
    name, out = "pay_as_bid", []
    for n, k, a, values in cases:
        row = []
        for text in values:
            v = float(Fraction(text))
            what = f"{name}({v:g}, {n}, {k}, {a})"
            row.append((what, _number(call(f, name, v, n, k, a), what)))
        out.append(row)
    return out


def _bid_mistake(what: str, got: float, n: int, k: int, a: int, v: float) -> Wrong:
    """Return the failure of a wrong bid: the mistake it is, when it is a known one (never the right bid)."""
    from ra_course.multiunit import pay_as_bid_bid  # notebook 16's bid, for uniform values: a mistake here

    if a == 1 and k > 1 and abs(got - (n - 1) / n * v) <= TOLERANCE:
        return Wrong(
            f"{what} returned {got:.6f}, the bid of a single unit: with {k} units a bidder wins "
            f"when his value beats the {k}-th highest of his rivals'"
        )
    if a > 1 and abs(got - pay_as_bid_bid(v, n, k)) <= TOLERANCE:
        return Wrong(
            f"{what} returned {got:.6f}, the bid when values are uniform: here every value is drawn "
            f"from F(x) = x^{a}, and so is the rivals' k-th highest"
        )
    return Wrong(f"{what} returned {got:.6f}, which is not the equilibrium bid")


def _pay_as_bid(f: Any, cases: Sequence[Any] = POINTS) -> str:
    answers = _bids_of(f, cases)
    for (n, k, a, values), row, hashed in zip(cases, answers, HASHES["multiunit"]["3"], strict=True):
        for text, (what, got), key in zip(values, row, hashed, strict=True):
            if not matches_hash(got, key, digits=DIGITS):
                raise _bid_mistake(what, got, n, k, a, float(Fraction(text)))
    return f"Equilibrium bids for {sum(map(len, answers))} values."


def _hidden_pay_as_bid(f: Any, data: Hidden) -> str:
    answers = _bids_of(f, data.cases)
    for (n, k, a, values), row, right in zip(data.cases, answers, data.answers(), strict=True):
        for text, (what, got), exact in zip(values, row, right, strict=True):
            if not abs(got - float(exact)) <= TOLERANCE:
                raise _bid_mistake(what, got, n, k, a, float(Fraction(text)))
    return f"Equilibrium bids for {sum(map(len, answers))} values."


# -- Task 4: Vickrey's payments with a reserve price -------------------------------------------------


def _payments_of(f: Any, seed: int, bidders: int, units: int, reserve: float) -> tuple[str, tuple[float, ...]]:
    name = "vickrey_payments"
    bids = profile(seed, bidders, units)
    what = f"{name}({[list(b) for b in bids]}, {units}, {reserve:g})"
    got = call(f, name, bids, units, reserve)
    if not isinstance(got, tuple) or len(got) != bidders or not all(is_number(x) for x in got):
        raise Wrong(f"{what} returned {got!r:.80}; it should return one payment per bidder, in order")
    return what, tuple(float(x) for x in got)


def _payments_mistake(what: str, got: tuple[float, ...], case: Sequence[Any], i: int | None = None) -> Wrong:
    """Return the failure of wrong payments: without the reserve, when they are that (never the right ones)."""
    from ra_course.multiunit import vickrey_payments  # notebook 16's payments, without a reserve: a mistake here

    seed, bidders, units, reserve = case
    if all(agrees(x, y) for x, y in zip(got, vickrey_payments(profile(seed, bidders, units), units), strict=True)):
        return Wrong(
            f"{what}: these are the payments without the reserve: the seller keeps a unit rather than sell it "
            f"for less than {reserve:g}, so a bid below it wins nothing and a winner pays at least the reserve"
        )
    whose = "the payments are" if i is None else f"bidder {i}'s payment {got[i]:g} is"
    return Wrong(
        f"{what}: {whose} not what the units cost the others and the seller: the value their bids and the "
        "reserve would have won without the bidder, less what they win with him"
    )


def _vickrey(f: Any, cases: Sequence[Any] = PROFILES) -> str:
    for case, hashed in zip(cases, HASHES["multiunit"]["4"], strict=True):
        what, got = _payments_of(f, *case)
        for i, (paid, key) in enumerate(zip(got, hashed, strict=True)):
            if not matches_hash(paid, key):
                raise _payments_mistake(what, got, case, i)
    return f"Vickrey's payments with a reserve price in {len(cases)} auctions."


def _hidden_vickrey(f: Any, data: Hidden) -> str:
    answers = [_payments_of(f, *case) for case in data.cases]
    for case, (what, got), key in zip(data.cases, answers, data.answers(), strict=True):
        if not matches_hash(got, key, salt=HIDDEN):
            raise _payments_mistake(what, got, case)
    return f"Vickrey's payments with a reserve price in {len(answers)} auctions."


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
            hidden=_hidden_pay_as_bid,
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
            hidden=_hidden_vickrey,
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
