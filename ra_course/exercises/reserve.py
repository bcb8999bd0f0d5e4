"""Sheet 5, reserve prices and Myerson's optimal auction: virtual values, the optimal reserve, its gain and price.

The setting (notebook 10, section 3): `n` bidders whose private values in [0, 1] are independent
with a distribution function `F` and density `f`; a second-price auction with reserve `r` sells
to the highest bidder when his value is at least `r`, at the larger of the second-highest value
and `r`. The laws of the checks are polynomials on [0, 1], given by their coefficients (`law`),
so that `F` and `f` of a `Fraction` are exact `Fraction`s.

How each task is judged, with no answer of a task in this module:

* virtual values (Task 1) by their defining identity ``(psi - v) * f(v) = -(1 - F(v))``, exactly;
* the optimal reserve (Task 2) by the sign of the virtual value just below and just above it;
* the exact revenue for power laws ``F(v) = v**a`` (Task 3) by SHA-256 hashes of the reference
  answers (`HASHES` for the examples; the hidden tests of the source sheet hold their own);
* the simulations (Tasks 4 and 5, uniform values) by their mean and their spread over `SEEDS`
  seeds (`ra_course.exercises.sampling.simulated`), from the moments of the price in `_price_moments`
  and `_gain_moments`, which a formula plus a little noise does not reproduce.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from .checking import Sheet, Task, Wrong, call, canonical, is_number, matches_hash, on_hidden_cases
from .sampling import simulated, uses_its_rng

__all__ = ["AUCTIONS", "CASES", "HASHES", "LAWS", "SEEDS", "SHEET", "law"]

#: auctions per simulated estimate in the checks, and how many seeds (estimates) a check compares
AUCTIONS, SEEDS = 500, 40
#: Task 2: a reserve passes when the virtual value changes sign within this distance of it
STEP = Fraction(1, 10**8)

#: the laws of the sheet's examples: coefficients of F(v) = c0 + c1 v + c2 v^2 + ... on [0, 1]
LAWS: dict[str, list[str]] = {
    "uniform": ["0", "1"],
    "v^2": ["0", "0", "1"],
    "1-(1-v)^2": ["0", "2", "-1"],
}
#: Task 3's examples (n, r, a): n bidders, reserve r, values with F(v) = v**a
CASES: list[tuple[int, Fraction, int]] = [
    (2, Fraction(1, 2), 1),
    (3, Fraction(1, 2), 2),
    (2, Fraction(2, 3), 3),
    (4, Fraction(0), 2),
]
#: SHA-256 of the canonical exact revenue of each of `CASES` (see `ra_course.exercises.checking.canonical`)
HASHES: dict[str, list[str]] = {
    "revenue": [
        "e72356b48ff8fed2a50c0399dfe18871c6da3ea44aa4f804c74f0783d451b396",
        "4cc1a4734489d1594d184b17090654180f9bac0caa3ef5959af501592ed7df39",
        "f254df03f4212d264fe95f1bc6cb818e22fb4991e603a80372aae8e900900e21",
        "87790bed36f429403ef25a9e026780d88769a82edd50fc14300b8a8910c28a3a",
    ]
}

Function = Callable[[Any], Any]


def law(coefficients: Sequence[Any]) -> tuple[Function, Function]:
    """Return ``(F, f)`` for the polynomial distribution function with these coefficients (numbers or texts).

    >>> F, f = law(["0", "2", "-1"])
    >>> F(Fraction(1, 2)), f(Fraction(1, 2))
    (Fraction(3, 4), Fraction(1, 1))
    """
    c = [Fraction(x) for x in coefficients]

    def F(v: Any) -> Any:  # noqa: N802 (the notebook's notation)
        return sum((ck * v**k for k, ck in enumerate(c)), Fraction(0))

    def f(v: Any) -> Any:
        return sum((k * ck * v ** (k - 1) for k, ck in enumerate(c) if k), Fraction(0))

    return F, f


def _laws(names_or_coefficients: Sequence[Any]) -> list[tuple[str, list[str]]]:
    out = []
    for item in names_or_coefficients:
        coefficients = LAWS[item] if isinstance(item, str) else [str(x) for x in item]
        out.append((_describe(coefficients), coefficients))
    return out


def _describe(coefficients: Sequence[str]) -> str:
    terms = []
    for k, c in enumerate(coefficients):
        power = "" if k == 0 else ("v" if k == 1 else f"v^{k}")
        if c != "0":
            terms.append(c if not power else {"1": "", "-1": "-"}.get(c, c + "·") + power)
    return "F(v) = " + " + ".join(terms).replace("+ -", "- ")


def _exact(value: Any, what: str) -> Fraction:
    if isinstance(value, float):
        raise Wrong(f"{what} is the float {value!r}; compute with the Fractions you are given and return a Fraction")
    if not is_number(value):
        raise Wrong(f"{what} is {value!r:.60}; it should be a number (a Fraction)")
    return Fraction(value)


# -- Task 1: virtual values ------------------------------------------------------------------


def _virtual_value(psi: Any, laws: Sequence[Any] = tuple(LAWS), points: Sequence[Any] = ("1/4", "1/2", "3/4")) -> str:
    name = "virtual_value"
    for text, coefficients in _laws(laws):
        F, f = law(coefficients)
        for v in map(Fraction, points):
            got = _exact(call(psi, name, v, F, f), f"for {text} at v = {v}, {name}")
            if (got - v) * f(v) != F(v) - 1:
                high = (got - v) * f(v) > F(v) - 1
                raise Wrong(
                    f"for {text} at v = {v} your virtual value {got} is {'too high' if high else 'too low'} "
                    f"({float(got):.4f})"
                )
    return f"Exact virtual values for {len(laws)} distributions at {len(points)} values each."


# -- Task 2: the optimal reserve --------------------------------------------------------------


def _reserve(find: Any, laws: Sequence[Any] = tuple(LAWS)) -> str:
    name = "optimal_reserve"
    found = []
    for text, coefficients in _laws(laws):
        F, f = law(coefficients)
        r = call(find, name, F, f)
        if not is_number(r) or not 0 < float(r) < 1:
            raise Wrong(f"for {text} {name} returned {r!r:.60}; it should be a number between 0 and 1")
        exact = Fraction(r)

        def sign(v: Fraction, F: Function = F, f: Function = f) -> int:  # the sign of the virtual value
            excess = v * f(v) + F(v) - 1
            return int(excess > 0) - int(excess < 0)

        if sign(exact - STEP) > 0:
            raise Wrong(f"for {text} the virtual value is already positive below your reserve {float(r):.6f}: too high")
        if sign(exact + STEP) < 0:
            raise Wrong(f"for {text} the virtual value is still negative above your reserve {float(r):.6f}: too low")
        found.append(f"{float(r):.4f}")
    return f"The virtual value crosses 0 within 10^-8 of each: {', '.join(found)}."


# -- Task 3: the exact revenue ----------------------------------------------------------------


def _revenue(revenue: Any, cases: Sequence[Any] = CASES, keys: Sequence[str] | None = None) -> str:
    name = "revenue_with_reserve"
    keys = HASHES["revenue"] if keys is None else keys
    for (n, r, a), key in zip(cases, keys, strict=True):
        r = Fraction(r)
        what = f"{name}({n}, {r}, {a})"
        got = _exact(call(revenue, name, n, r, a), what)
        if not 0 <= got <= 1:
            raise Wrong(f"{what} is {float(got):.4f}, but a price is a value between 0 and 1")
        if not matches_hash(got, key):
            raise Wrong(f"{what} returned {canonical(got, 4)}, which is not the expected revenue")
    return f"Exact revenues for {len(cases)} cases."


def _hidden_revenue(revenue: Any, data: Any) -> str:
    return _revenue(revenue, [tuple(c) for c in data["cases"]], data["keys"])


# -- Tasks 4 and 5: simulation, uniform values --------------------------------------------------


def _price_moments(n: int, r: float) -> tuple[float, float]:
    """Return the mean and variance of the price of a second-price auction with reserve r, n uniform values."""
    raw = [
        r**k * n * r ** (n - 1) * (1 - r)
        + n * (n - 1) * ((1 - r ** (n - 1 + k)) / (n - 1 + k) - (1 - r ** (n + k)) / (n + k))
        for k in (1, 2)
    ]
    return raw[0], raw[1] - raw[0] ** 2


def _gain_moments(n: int, r: float) -> tuple[float, float]:
    """Return the mean and variance of the price with reserve r minus the price without, on the same auction."""
    mean = (1 - r) * r**n - (n - 1) * r ** (n + 1) / (n + 1)
    second = 2 * (1 - r) * r ** (n + 1) / (n + 1) + n * (n - 1) * r ** (n + 2) / ((n + 1) * (n + 2))
    return mean, second - mean**2


def _simulation(f: Any, cases: Sequence[Any] = ((2, 0.5, 2024), (3, 0.3, 2025), (5, 0.6, 2026))) -> str:
    name = "simulate_revenue"
    for n, r, seed in cases:
        mean, var = _price_moments(n, r)
        estimates = [call(f, name, n, r, AUCTIONS, random.Random(seed * 100 + k)) for k in range(SEEDS)]
        simulated(estimates, mean, var, AUCTIONS, f"with {n} bidders and reserve {r:g}")
    uses_its_rng(f, name, 2, 0.5, 100)
    return f"Mean revenues and their spread over {SEEDS} seeds as theory says, for {len(cases)} cases."


def _tradeoff(f: Any, cases: Sequence[Any] = ((2, 2024), (3, 2025))) -> str:
    name = "reserve_tradeoff"
    for n, seed in cases:
        pairs = [call(f, name, n, AUCTIONS, random.Random(seed * 100 + k)) for k in range(SEEDS)]
        for pair in pairs:
            if not isinstance(pair, tuple | list) or len(pair) != 2:
                raise Wrong(f"{name}({n}, ...) returned {pair!r:.80}; it should return a pair (gain, unsold)")
        gain, unsold = _gain_moments(n, 0.5), 0.5**n
        simulated([p[0] for p in pairs], gain[0], gain[1], AUCTIONS, f"with {n} bidders, the gain (first of the pair)")
        what = f"with {n} bidders, the share unsold (second of the pair)"
        simulated([p[1] for p in pairs], unsold, unsold * (1 - unsold), AUCTIONS, what)
    uses_its_rng(f, name, 2, 100)
    return "The gain of the reserve and the share of auctions that sell nothing, mean and spread as theory says."


SHEET = Sheet(
    "reserve",
    "Exercise sheet 5 · Reserve prices and the optimal auction",
    (
        Task(
            "1",
            "Virtual values",
            4,
            "virtual_value",
            _virtual_value,
            (
                "The virtual value of v is v minus the inverse hazard rate: the chance of a value above v "
                "over the density at v. Compute it with the Fractions you are given, so that it is exact.",
                "Myerson's virtual value is defined in notebook 10, section 3 (the seller's side); for "
                "uniform values it is 2v - 1. Use the distribution function and the density you are given.",
            ),
            hidden=lambda psi, data: _virtual_value(psi, data["laws"], data["points"]),
        ),
        Task(
            "2",
            "The optimal reserve",
            4,
            "optimal_reserve",
            _reserve,
            (
                "The optimal reserve is where the virtual value crosses 0. It is negative near 0 and "
                "positive at 1, and increasing in between: halve an interval that brackets the crossing.",
                "Myerson's reserve solves psi(r) = 0 (notebook 10, section 3); a root of an increasing "
                "function is found by bisection. Stop when the interval is shorter than a billionth.",
            ),
            hidden=lambda find, data: _reserve(find, data["laws"]),
        ),
        Task(
            "3",
            "The revenue, exactly",
            4,
            "revenue_with_reserve",
            _revenue,
            (
                "The expected revenue is the expected virtual value of the winner: n times the integral "
                "from r to 1 of psi(v) f(v) F(v)^(n-1). For F(v) = v^a the integrand is a polynomial.",
                "Notebook 10, section 3 does this integral for uniform values (a = 1) and gets R(r); do the "
                "same for a power law, term by term, with Fractions. With a = 1 you must get notebook 10's R(r).",
            ),
            hidden=_hidden_revenue,
        ),
        Task(
            "4",
            "The revenue, simulated",
            4,
            "simulate_revenue",
            _simulation,
            (
                "In each auction draw n values, sell to the highest if his value reaches the reserve, at "
                "the larger of the second-highest value and the reserve; count 0 when nothing is sold.",
                "The second-price auction with a reserve (notebook 10, section 3): the winner pays the "
                "larger of the second-highest bid and the reserve. Average over all auctions, sold or not.",
            ),
            hidden=on_hidden_cases(_simulation),
        ),
        Task(
            "5",
            "The gain and its price",
            4,
            "reserve_tradeoff",
            _tradeoff,
            (
                "Price each simulated auction twice, with the reserve 1/2 and without one, on the same "
                "values; the gain is the mean difference, the price of it the share of auctions unsold.",
                "The trade-off of notebook 10, section 3: the reserve raises revenue, and with probability "
                "r to the power n nobody buys. Common random numbers: one set of values for both prices.",
            ),
            hidden=on_hidden_cases(_tradeoff),
        ),
    ),
)
