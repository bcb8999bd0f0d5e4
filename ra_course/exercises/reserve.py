"""Sheet 5, reserve prices and Myerson's optimal auction: virtual values, the optimal reserve, its gain and price.

The setting (notebook 10, section 3): `n` bidders whose private values in [0, 1] are independent
with a distribution function `F` and density `f`; a second-price auction with reserve `r` sells
to the highest bidder when his value is at least `r`, at the larger of the second-highest value
and `r`. The laws of the checks are polynomials on [0, 1], given by their coefficients (`law`),
so that `F` and `f` of a `Fraction` are exact `Fraction`s. None of them is a law the sheet's text
works through (uniform, v², 2v − v²).

How each task is judged, with no answer of a task in this module:

* virtual values (Task 1) by their defining identity ``(psi - v) * f(v) = -(1 - F(v))``, exactly;
* the optimal reserve (Task 2) by the sign of the virtual value just below and just above it;
* the exact revenue for power laws ``F(v) = v**a`` (Task 3) by SHA-256 hashes of the reference
  answers (`ra_course.exercises.hashes` for the visible cases; the hidden ones in ``grading/``);
* the simulations (Tasks 4 and 5, uniform values) by replaying the numbers the function drew
  (`ra_course.exercises.replay`): the answer must be the mean price of its own auctions, and the
  gain and the unsold share of its own auctions, priced twice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from .checking import Sheet, Task, Wrong, call, canonical, is_number, matches_hash, on_hidden_cases
from .hashes import HASHES
from .hashing import HIDDEN
from .replay import Recorder, agrees, layouts

__all__ = ["AUCTIONS", "CASES", "LAWS", "POINTS", "SHEET", "law"]

#: auctions per call in the checks of Tasks 4 and 5
AUCTIONS = 500
#: Task 2: a reserve passes when the virtual value changes sign within this distance of it
STEP = Fraction(1, 10**8)
#: Task 5: the reserve (the optimal one for uniform values)
RESERVE = Fraction(1, 2)

#: the laws of the visible checks: coefficients of F(v) = c0 + c1 v + c2 v^2 + ... on [0, 1]
LAWS: dict[str, list[str]] = {
    "v^4": ["0", "0", "0", "0", "1"],
    "(v+3v^2)/4": ["0", "1/4", "3/4"],
    "1-(1-v)^4": ["0", "4", "-6", "4", "-1"],
}
#: Task 1's values of the visible checks
POINTS = ("1/3", "1/2", "4/5")
#: Task 3's visible cases (n, r, a): n bidders, reserve r, values with F(v) = v**a
CASES: list[tuple[int, Fraction, int]] = [
    (3, Fraction(2, 5), 1),
    (2, Fraction(1, 3), 2),
    (4, Fraction(3, 4), 3),
    (5, Fraction(0), 2),
]

Function = Callable[[Any], Any]


class Law:
    """A polynomial on [0, 1] given by its coefficients: a distribution function F, or (`density`) its density f.

    Called with a `Fraction` it returns a `Fraction`, so that a virtual value is exact. Its
    `coefficients` are plain data: the teacher's judge sends them to the sandbox that runs a
    student's function, which is handed a `Law` made from them.
    """

    def __init__(self, coefficients: Sequence[Any], density: bool = False) -> None:
        self.coefficients, self.density = tuple(str(x) for x in coefficients), density
        c = [Fraction(x) for x in coefficients]
        self._terms = [(k - 1, k * ck) for k, ck in enumerate(c) if k] if density else list(enumerate(c))

    def __call__(self, v: Any) -> Any:
        """Return the polynomial's value at `v`."""
        return sum((ck * v**k for k, ck in self._terms), Fraction(0))

    def __repr__(self) -> str:
        return f"Law({list(self.coefficients)!r}{', density=True' if self.density else ''})"


def law(coefficients: Sequence[Any]) -> tuple[Law, Law]:
    """Return ``(F, f)`` for the polynomial distribution function with these coefficients (numbers or texts).

    >>> F, f = law(["0", "2", "-1"])
    >>> F(Fraction(1, 2)), f(Fraction(1, 2))
    (Fraction(3, 4), Fraction(1, 1))
    """
    return Law(coefficients), Law(coefficients, density=True)


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


def _virtual_value(psi: Any, laws: Sequence[Any] = tuple(LAWS), points: Sequence[Any] = POINTS) -> str:
    name = "virtual_value"
    for text, coefficients in _laws(laws):
        F, f = law(coefficients)
        for v in map(Fraction, points):
            got = _exact(call(psi, name, v, F, f), f"for {text} at v = {v}, {name}")
            if (got - v) * f(v) != F(v) - 1:
                raise Wrong(
                    f"for {text} at v = {v} your virtual value {got} ({float(got):.4f}) is off: it does not "
                    "satisfy the definition (psi(v) - v) f(v) = F(v) - 1"
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

        if sign(exact - STEP) > 0 or sign(exact + STEP) < 0:
            raise Wrong(
                f"for {text} the virtual value does not cross 0 within 10^-8 of your reserve {float(r):.6f}: the "
                "optimal reserve is where it changes sign"
            )
        found.append(f"{float(r):.4f}")
    return f"The virtual value crosses 0 within 10^-8 of each: {', '.join(found)}."


# -- Task 3: the exact revenue ----------------------------------------------------------------


def _revenue(revenue: Any, cases: Sequence[Any] = CASES, keys: Sequence[str] | None = None) -> str:
    name = "revenue_with_reserve"
    keys = HASHES["reserve"]["3"] if keys is None else keys
    for (n, r, a), key in zip(cases, keys, strict=True):
        r = Fraction(r)
        what = f"{name}({n}, {r}, {a})"
        got = _exact(call(revenue, name, n, r, a), what)
        if not 0 <= got <= 1:
            raise Wrong(f"{what} is {float(got):.4f}, but a price is a value between 0 and 1")
        if not matches_hash(got, key):
            raise Wrong(f"{what} returned {canonical(got, 4)}, which is not the expected revenue")
    return f"Exact revenues for {len(cases)} cases."


def _hidden_revenue(revenue: Any, hidden: Any) -> str:
    cases = [tuple(c) for c in hidden.cases]
    name = "revenue_with_reserve"
    answers = [_exact(call(revenue, name, n, Fraction(r), a), f"{name}({n}, {r}, {a})") for n, r, a in cases]
    for (n, r, a), got, key in zip(cases, answers, hidden.answers(), strict=True):
        if not matches_hash(got, key, salt=HIDDEN):
            raise Wrong(f"{name}({n}, {r}, {a}) returned {canonical(got, 4)}, which is not the expected revenue")
    return f"Exact revenues for {len(cases)} hidden cases."


# -- Tasks 4 and 5: simulation, uniform values, replayed ----------------------------------------


def _number(value: Any, what: str) -> float:
    if not is_number(value):
        raise Wrong(f"{what} returned {value!r:.60}; it should return a number")
    x = float(value)
    if not -1e300 < x < 1e300:
        raise Wrong(f"{what} returned {x}; it should return a finite number")
    return x


# What a judge computes from the drawn auctions stays inside it: no function of this module takes
# values and gives a price.


def _simulation(f: Any, cases: Sequence[Any] = ((2, 0.4, 2024), (3, 0.3, 2025), (5, 0.6, 2026))) -> str:
    name = "simulate_revenue"

    def _price(values: Sequence[float], r: float) -> float:
        top = sorted(values)
        return 0.0 if top[-1] < r else max(top[-2], r)

    for n, r, seed in cases:
        rng = Recorder(seed)
        answer = _number(call(f, name, n, r, AUCTIONS, rng), f"`{name}`")
        orders = layouts(rng.numbers(name, AUCTIONS * n), auctions=AUCTIONS, bidders=n).values()
        if any(agrees(answer, sum(_price(v, r) for v in values) / AUCTIONS) for values in orders):
            continue
        if any(agrees(answer, sum(_price(v, 0.0) for v in values) / AUCTIONS) for values in orders):
            raise Wrong(f"with {n} bidders and reserve {r:g} your mean price is that of the auctions without a reserve")
        raise Wrong(
            f"with {n} bidders and reserve {r:g} `{name}` returned {answer:.6f}, which is not the mean price of the "
            f"{AUCTIONS} auctions it drew from `rng` (each auction's values one after another, or each bidder's): "
            "the check replays your own draws, so it must be exactly their mean, counting 0 when nothing sells"
        )
    return f"Your mean revenues are those of the auctions you drew, for {len(cases)} cases."


def _tradeoff(f: Any, cases: Sequence[Any] = ((3, 2024), (4, 2025))) -> str:
    name = "reserve_tradeoff"
    r = float(RESERVE)

    def _price(values: Sequence[float], r: float) -> float:
        top = sorted(values)
        return 0.0 if top[-1] < r else max(top[-2], r)

    for n, seed in cases:
        rng = Recorder(seed)
        pair = call(f, name, n, AUCTIONS, rng)
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise Wrong(f"{name}({n}, ...) returned {pair!r:.80}; it should return a pair (gain, unsold)")
        gain, unsold = (_number(x, f"`{name}`") for x in pair)
        orders = layouts(rng.numbers(name, AUCTIONS * n), auctions=AUCTIONS, bidders=n).values()
        gains = [sum(_price(v, r) - _price(v, 0.0) for v in values) / AUCTIONS for values in orders]
        shares = [sum(max(v) < r for v in values) / AUCTIONS for values in orders]
        if any(agrees(gain, g) and agrees(unsold, u) for g, u in zip(gains, shares, strict=True)):
            continue
        if any(agrees(unsold, g) and agrees(gain, u) for g, u in zip(gains, shares, strict=True)):
            raise Wrong(f"with {n} bidders your pair is in the wrong order: the gain first, then the share unsold")
        if not any(agrees(unsold, u) for u in shares):
            raise Wrong(
                f"with {n} bidders your share unsold {unsold:.4f} is not that of the {AUCTIONS} auctions you drew "
                "from `rng`: the auctions in which no value reaches the reserve"
            )
        raise Wrong(
            f"with {n} bidders your gain {gain:.6f} is not the mean difference of the two prices of the "
            f"{AUCTIONS} auctions you drew from `rng`: price each auction twice, with the reserve and "
            "without one, on the same values"
        )
    return "The gain of the reserve and the share of auctions that sell nothing, on the very auctions you drew."


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
            hidden=lambda psi, hidden: _virtual_value(psi, hidden.cases["laws"], hidden.cases["points"]),
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
            hidden=lambda find, hidden: _reserve(find, hidden.cases["laws"]),
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
