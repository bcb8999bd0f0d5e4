"""Sheet 1, auctions from first principles: first- and second-price sealed-bid auctions by simulation.

The setting of every task: ``n`` bidders, each with a private value drawn uniformly from [0, 1)
with ``rng.random()``. The checks derive what a simulation should give from the order statistics
of uniform values (the mean and the variance of the highest and second-highest of ``n``
values). A simulation task is run once per seed for `SEEDS` seeds: the estimates must average
within `Z` standard errors of the theory **and** vary from seed to seed as much as a Monte
Carlo estimate of that size does (`ra_course.exercises.checking.simulated`), which a formula plus
a little noise does not. Task 4 follows best replies from rivals who shade too much to the
equilibrium; Task 5 returns the prices themselves, so the two auctions are told apart by their
spread. The hidden tests of the source sheet run the same checks with other `n` and seeds.
"""

from __future__ import annotations

import random
from typing import Any

from .checking import Sheet, Task, Wrong, Z, call, is_number, on_hidden_cases, too_high_or_low
from .sampling import simulated, uses_its_rng

__all__ = ["AUCTIONS", "PATH_AUCTIONS", "ROUNDS", "SEEDS", "SHEET", "Z"]

#: auctions per simulated estimate in the checks, and how many seeds (estimates) a check compares
AUCTIONS, SEEDS = 500, 40
#: Task 4: rounds of best replies and auctions per simulated profit; a reply passes when it earns at
#: most `LOSS` less than the exact best reply, and the last round within `SETTLED` of the equilibrium
ROUNDS, PATH_AUCTIONS, LOSS, SETTLED = 6, 2000, 0.06, 0.05
#: Task 5: auctions per call, and how far (relative) a list's variance may be from the theory's
PRICES, VARIANCE_TOLERANCE = 20_000, 0.06
_SEED = 2024


def _second_price_moments(n: int) -> tuple[float, float]:
    """Return the mean and variance of the second-highest of `n` uniform values: the second-price revenue."""
    return (n - 1) / (n + 1), 2 * (n - 1) / ((n + 1) ** 2 * (n + 2))


def _first_price_moments(n: int, shading: float) -> tuple[float, float]:
    """Return the mean and variance of ``shading`` times the highest of `n` uniform values."""
    return shading * n / (n + 1), shading**2 * n / ((n + 1) ** 2 * (n + 2))


def _profit_moments(n: int, mine: float, rivals: float) -> tuple[float, float]:
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


def _best_reply(n: int, rivals: float) -> tuple[float, float]:
    """Return the exact best shading against `rivals` (to 1/1000) and its mean profit."""
    return max(((s / 1000, _profit_moments(n, s / 1000, rivals)[0]) for s in range(1001)), key=lambda p: p[1])


def _number(value: Any, what: str) -> float:
    if not is_number(value):
        raise Wrong(f"{what} returned {value!r}; it should return a number")
    return float(value)


def _estimates(f: Any, name: str, args: tuple[Any, ...], seed: int) -> list[Any]:
    """Return ``f(*args, AUCTIONS, rng)`` for `SEEDS` generators seeded from `seed` on."""
    return [call(f, name, *args, AUCTIONS, random.Random(seed * 100 + k)) for k in range(SEEDS)]


# -- the tasks: each judge takes the student's function and the cases (the hidden tests give others) --


def _second_price(f: Any, cases: Any = ((2, 2024), (3, 2025), (5, 2026))) -> str:
    name = "second_price_revenue"
    for n, seed in cases:
        mean, var = _second_price_moments(n)
        simulated(_estimates(f, name, (n,), seed), mean, var, AUCTIONS, f"with {n} bidders")
    uses_its_rng(f, name, 3, 100)
    return f"Mean prices and their spread over {SEEDS} seeds as theory says, for {len(cases)} values of n."


def _first_price(f: Any, cases: Any = ((2, 1.0, 2024), (2, 0.5, 2025), (4, 0.75, 2026), (5, 0.3, 2027))) -> str:
    name = "first_price_revenue"
    for n, shading, seed in cases:
        mean, var = _first_price_moments(n, shading)
        simulated(
            _estimates(f, name, (n, shading), seed), mean, var, AUCTIONS, f"with {n} bidders shading to {shading:g}"
        )
    uses_its_rng(f, name, 3, 0.5, 100)
    return f"Mean prices and their spread as theory says, for {len(cases)} pairs of n and shading."


_PROFIT_CASES = ((2, 0.5, 0.5, 2024), (3, 0.4, 2 / 3, 2025), (3, 0.9, 2 / 3, 2026), (4, 0.85, 0.75, 2027))


def _profit(f: Any, cases: Any = _PROFIT_CASES) -> str:
    name = "first_price_profit"
    for n, mine, rivals, seed in cases:
        mean, var = _profit_moments(n, mine, rivals)
        what = f"with {n} bidders, bidder 0 shading to {mine:g} and the rivals to {rivals:.3g}"
        simulated(_estimates(f, name, (n, mine, rivals), seed), mean, var, AUCTIONS, what)
    uses_its_rng(f, name, 3, 0.5, 2 / 3, 100)
    return "Mean profits and their spread as theory says: shading below, at and above the rivals'."


def _path(f: Any, cases: Any = ((3, 0.5, ROUNDS, 2024),)) -> str:
    name = "best_reply_path"
    for n, start, rounds, seed in cases:
        path = call(f, name, n, start, rounds, PATH_AUCTIONS, random.Random(seed))
        if not isinstance(path, list | tuple) or len(path) != rounds + 1 or not all(is_number(s) for s in path):
            raise Wrong(
                f"{name}({n}, {start}, {rounds}, ...) returned {path!r:.80}; it should return {rounds + 1} numbers"
            )
        if path[0] != start:
            raise Wrong(f"{name}({n}, {start}, ...) starts with {path[0]!r}; the list starts with the rivals' `start`")
        for k in range(rounds):
            rivals, mine = float(path[k]), float(path[k + 1])
            if not 0 <= mine <= 1:
                raise Wrong(f"round {k + 1}: your shading {mine:g} is not between 0 and 1")
            _, top = _best_reply(n, rivals)
            loss = 1 - _profit_moments(n, mine, rivals)[0] / top
            if loss > LOSS:
                raise Wrong(
                    f"with {n} bidders, round {k + 1}: against rivals shading to {rivals:.3f} your reply "
                    f"{mine:.3f} earns {loss:.0%} less than the best reply (more than the noise of the simulation)"
                )
        if abs(path[-1] - (n - 1) / n) > SETTLED:
            raise Wrong(
                f"with {n} bidders, after {rounds} rounds from {start:g} your best replies reach {path[-1]:.3f}: "
                f"{too_high_or_low(float(path[-1]), (n - 1) / n)}, not where theory says they settle"
            )
    uses_its_rng(f, name, 2, 0.5, 1, 20, seeds=range(7, 13))
    return "Each round a best reply, and the rounds settle where theory says: " + ", ".join(
        f"{float(s):.2f}" for s in path
    )


def _prices(value: Any, what: str) -> list[float]:
    if not isinstance(value, list | tuple) or len(value) != PRICES or not all(is_number(v) for v in value):
        shown = f"{len(value)} values" if isinstance(value, list | tuple) else repr(value)[:60]
        raise Wrong(f"{what} is {shown}; it should be the list of the {PRICES:,} prices, one per auction")
    return [float(v) for v in value]


def _equivalence(f: Any, cases: Any = ((2, 2024), (3, 2025), (6, 2026))) -> str:
    name = "equilibrium_prices"
    for n, seed in cases:
        pair = call(f, name, n, PRICES, random.Random(seed))
        if not isinstance(pair, tuple | list) or len(pair) != 2:
            raise Wrong(f"{name}({n}, ...) returned {pair!r:.80}; it should return a pair (first-price, second-price)")
        formats = (("first-price", _first_price_moments(n, (n - 1) / n)), ("second-price", _second_price_moments(n)))
        for (label, (mean, var)), prices in zip(formats, pair, strict=True):
            xs = _prices(prices, f"with {n} bidders your {label} list")
            m = sum(xs) / len(xs)
            v = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
            if abs(m - mean) > Z * (var / len(xs)) ** 0.5:
                raise Wrong(f"with {n} bidders your {label} prices average {m:.4f}: {too_high_or_low(m, mean)}")
            if abs(v / var - 1) > VARIANCE_TOLERANCE:
                raise Wrong(
                    f"with {n} bidders your {label} prices have the right mean but vary {too_high_or_low(v, var)}: "
                    f"their variance is {v:.5f}"
                )
    uses_its_rng(f, name, 3, PRICES)
    return "Same mean, different spread: the second-price auction is the riskier one for the seller."


SHEET = Sheet(
    "auctions",
    "Exercise sheet 1 · Auctions from first principles",
    (
        Task(
            "1",
            "Second-price revenue",
            4,
            "second_price_revenue",
            _second_price,
            (
                "In a second-price auction everybody bids his value; the highest bidder wins and pays "
                "the second-highest bid. Simulate many auctions and average the prices.",
                "The price is an order statistic of the n values, the second-highest: notebook 08, section 1 "
                "(four ways to sell one thing), shows it and its mean (n-1)/(n+1).",
            ),
            hidden=on_hidden_cases(_second_price),
        ),
        Task(
            "2",
            "First-price revenue with shading",
            4,
            "first_price_revenue",
            _first_price,
            (
                "In a first-price auction the winner pays his own bid; here every bidder bids the same "
                "fraction `shading` of his value.",
                "The price is the winning bid: the shading times the highest of the n values, the largest "
                "order statistic (notebook 08, section 2, the first-price auction).",
            ),
            hidden=on_hidden_cases(_first_price),
        ),
        Task(
            "3",
            "A bidder's profit",
            4,
            "first_price_profit",
            _profit,
            (
                "Only bidder 0 matters: he gains value minus bid when his bid is the highest, and "
                "nothing otherwise. The other n-1 bidders shade with `rival_shading`.",
                "This is the trade-off of notebook 08, section 2: a lower bid wins less often but gains "
                "more per win. Count 0 for the auctions he loses, so that the mean is over all of them.",
            ),
            hidden=on_hidden_cases(_profit),
        ),
        Task(
            "4",
            "Best replies",
            4,
            "best_reply_path",
            _path,
            (
                "One round: against rivals at the last factor of the list, find the shading with the "
                "highest simulated profit (Task 3) on a grid, and append it. Then the rivals adopt it.",
                "Best-reply dynamics and the equilibrium as its fixed point: notebook 08, section 2. Compare "
                "candidates on the same auctions (common random numbers) so that noise does not pick the winner.",
            ),
            hidden=on_hidden_cases(_path),
        ),
        Task(
            "5",
            "Revenue equivalence",
            4,
            "equilibrium_prices",
            _equivalence,
            (
                "Return two lists of prices for the same n, in this order: first-price with every bidder "
                "shading to (n-1)/n of his value, then second-price with truthful bids.",
                "Revenue equivalence is about the mean only; the spread differs (notebook 08, section 3). "
                "Each list holds the price of each auction, not a mean.",
            ),
            hidden=on_hidden_cases(_equivalence),
        ),
    ),
)
