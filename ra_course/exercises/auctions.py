"""Sheet 1, auctions from first principles: first- and second-price sealed-bid auctions by simulation.

The setting of every task: ``n`` bidders, each with a private value drawn uniformly from [0, 1)
with ``rng.random()``, one number per bidder and auction. Every task is a simulation, and every
check replays it (`ra_course.exercises.replay`): the student's function gets a `Recorder`, and
when it has returned, the check lays the numbers it drew out as auctions (auction by auction or
bidder by bidder; in Tasks 3 and 4 our bidder's value first or last in each auction), computes
from them what the task asks, and requires the answer to be that to 1e-9, after exactly the
draws the task implies. So a formula plus noise fails on every seed and a real simulation passes
on every seed. The check of Task 4 replays each round's auctions and asks that each reply be a
best one on them, among the shadings 0, 0.02, ..., 1 (a finer grid may do better: that passes
too). The hidden tests run the same checks with the cases of the teacher's ``grading/cases.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .checking import Sheet, Task, Wrong, call, is_number, on_hidden_cases
from .replay import Recorder, agrees, layouts

__all__ = ["AUCTIONS", "GRID", "PATH_AUCTIONS", "PRICES", "SHEET"]

#: auctions per call in the checks of Tasks 1-3
AUCTIONS = 500
#: Task 4: auctions per round, and the shadings a best reply is compared with
PATH_AUCTIONS, GRID = 2000, tuple(i / 50 for i in range(51))
#: Task 5: auctions per call
PRICES = 20_000

Auctions = list[list[float]]


def _orders(numbers: Sequence[float], auctions: int, bidders: int, own_first_or_last: bool) -> dict[str, Auctions]:
    """Return the auctions the numbers make in each natural order; our bidder's value first in each auction.

    With `own_first_or_last`, our bidder (the one the task follows) may also have been drawn last.
    """
    out = layouts(numbers, auctions=auctions, bidders=bidders)
    if own_first_or_last:
        for name, values in list(out.items()):
            out[f"{name}, our bidder last"] = [[row[-1], *row[:-1]] for row in values]
    return out


def _number(value: Any, what: str) -> float:
    if not is_number(value):
        raise Wrong(f"{what} returned {value!r:.60}; it should return a number")
    x = float(value)
    if not x == x or x in (float("inf"), float("-inf")):
        raise Wrong(f"{what} returned {x}; it should return a finite number")
    return x


def _replayed(
    f: Any, name: str, args: tuple[Any, ...], seed: int, bidders: int, own: bool = False
) -> tuple[float, dict[str, Auctions]]:
    """Call ``f(*args, AUCTIONS, rng)`` with a `Recorder`; return its answer and the auctions it drew, in each order."""
    rng = Recorder(seed)
    answer = _number(call(f, name, *args, AUCTIONS, rng), f"`{name}`")
    return answer, _orders(rng.numbers(name, AUCTIONS * bidders), AUCTIONS, bidders, own)


def _verdict(
    name: str, answer: float, what: str, orders: dict[str, Auctions], statistics: dict[str, Callable[..., float]]
) -> None:
    """Raise `Wrong` unless `answer` is the first of `statistics` (the task's) of the auctions in some order.

    The others are mistakes, each named by its key when the answer is that.
    """
    (_, right), *mistakes = statistics.items()
    if any(agrees(answer, right(values)) for values in orders.values()):
        return
    for mistake, statistic in mistakes:
        if any(agrees(answer, statistic(values)) for values in orders.values()):
            raise Wrong(f"`{name}` returned {answer:.6f}, which is {mistake}")
    raise Wrong(
        f"`{name}` returned {answer:.6f}, which is not {what} of the {AUCTIONS} auctions it drew from `rng`: the "
        "check replays your own draws (the values of each auction one after another, or each bidder's values "
        "one after another), so the answer must be exactly their mean"
    )


# -- the tasks: each judge takes the student's function and the cases (the hidden tests give others). --
# What each judge computes from the drawn auctions stays inside it: no function of this module
# takes numbers and gives a task's statistic.


def _second_price(f: Any, cases: Sequence[tuple[Any, ...]] = ((2, 2024), (3, 2025), (5, 2026))) -> str:
    name = "second_price_revenue"
    for n, seed in cases:
        answer, orders = _replayed(f, name, (n,), seed, n)
        statistics: dict[str, Callable[..., float]] = {
            "the task's": lambda v: sum(sorted(a)[-2] for a in v) / len(v),
            "the mean highest value: the winner pays the second-highest bid, not his own": (
                lambda v: sum(max(a) for a in v) / len(v)
            ),
            "the mean of all the values, not of each auction's price": (
                lambda v: sum(x for a in v for x in a) / (len(v) * len(v[0]))
            ),
        }
        _verdict(name, answer, "the mean second-highest value", orders, statistics)
    return f"Your mean prices are those of the auctions you drew, for {len(cases)} values of n."


_FIRST_PRICE_CASES = ((2, 1.0, 2024), (2, 0.5, 2025), (4, 0.75, 2026), (5, 0.3, 2027))


def _first_price(f: Any, cases: Sequence[tuple[Any, ...]] = _FIRST_PRICE_CASES) -> str:
    name = "first_price_revenue"
    for n, shading, seed in cases:
        answer, orders = _replayed(f, name, (n, shading), seed, n)
        s = shading
        statistics: dict[str, Callable[..., float]] = {
            "the task's": lambda v, s=s: sum(s * max(a) for a in v) / len(v),
            "the mean highest value: the winner pays what he bids, and a bid here is not the value": (
                lambda v: sum(max(a) for a in v) / len(v)
            ),
            "the shaded second-highest value: in a first-price auction the winner pays his own bid": (
                lambda v, s=s: sum(s * sorted(a)[-2] for a in v) / len(v)
            ),
        }
        _verdict(name, answer, f"the mean winning bid (shading {s:g})", orders, statistics)
    return f"Your mean prices are those of the auctions you drew, for {len(cases)} pairs of n and shading."


_PROFIT_CASES = ((2, 0.5, 0.5, 2024), (3, 0.4, 2 / 3, 2025), (3, 0.9, 2 / 3, 2026), (4, 0.85, 0.75, 2027))


def _profit(f: Any, cases: Sequence[tuple[Any, ...]] = _PROFIT_CASES) -> str:
    name = "first_price_profit"
    for n, mine, rivals, seed in cases:
        answer, orders = _replayed(f, name, (n, mine, rivals), seed, n, own=True)

        def wins(v: Auctions, m: float = mine, r: float = rivals) -> list[float]:
            return [a[0] for a in v if m * a[0] > r * max(a[1:])]  # our bidder's value, where he wins

        what = f"our bidder's mean profit (shading {mine:g} against rivals at {rivals:.3g})"
        statistics: dict[str, Callable[..., float]] = {
            "the task's": lambda v, m=mine: sum((1 - m) * x for x in wins(v)) / len(v),
            "his mean profit over the auctions he wins only: count 0 for those he loses": (
                lambda v, m=mine: sum((1 - m) * x for x in wins(v)) / max(1, len(wins(v)))
            ),
            "his mean value when he wins, without paying his bid": lambda v: sum(wins(v)) / len(v),
        }
        _verdict(name, answer, what, orders, statistics)
    return "Your mean profits are those of the auctions you drew: shading below, at and above the rivals'."


def _path(f: Any, cases: Sequence[tuple[Any, ...]] = ((2, 0.3, 6, 2024),), auctions: int = PATH_AUCTIONS) -> str:
    name = "best_reply_path"
    for n, start, rounds, seed in cases:
        rng = Recorder(seed)
        path = call(f, name, n, start, rounds, auctions, rng)
        if not isinstance(path, tuple) or len(path) != rounds + 1 or not all(is_number(s) for s in path):
            raise Wrong(
                f"{name}({n}, {start}, {rounds}, ...) returned {path!r:.80}; it should return {rounds + 1} numbers"
            )
        if path[0] != start:
            raise Wrong(f"{name}({n}, {start}, ...) starts with {path[0]!r}; the list starts with the rivals' `start`")
        shadings = [float(s) for s in path]
        why = f"each round draws {auctions} auctions of {n} values from `rng` itself, one set for every candidate"
        numbers = rng.numbers(name, rounds * auctions * n, why)
        per_round = auctions * n
        rounds_drawn = [_orders(numbers[k * per_round : (k + 1) * per_round], auctions, n, True) for k in range(rounds)]

        def worse_reply(
            order: str, rounds_drawn: list[Any] = rounds_drawn, shadings: list[float] = shadings
        ) -> str | None:
            """Return what is wrong with the first reply that is not a best one on its round's auctions, in `order`."""
            for k, orders in enumerate(rounds_drawn):
                pairs = [(v, max(others)) for v, *others in orders[order]]
                rivals, mine = shadings[k], shadings[k + 1]
                if not 0 <= mine <= 1:
                    return f"round {k + 1}: your shading {mine:g} is not between 0 and 1"

                def profit(s: float, pairs: list[tuple[float, float]] = pairs, rivals: float = rivals) -> float:
                    return sum((1 - s) * v for v, m in pairs if s * v > rivals * m) / len(pairs)

                if profit(mine) < max(profit(s) for s in GRID) - 1e-9:
                    return (
                        f"round {k + 1}: against rivals shading to {rivals:.3f}, your reply {mine:.3f} earns less on "
                        f"the {auctions} auctions you drew that round than another shading of the grid 0, 0.02, ..., "
                        "1: draw the round's auctions once and give every candidate those same auctions"
                    )
            return None

        problems = []
        for order in rounds_drawn[0]:  # the first order in which every reply is a best one passes
            problem = worse_reply(order)
            if problem is None:
                break
            problems.append(problem)
        else:
            raise Wrong(f"with {n} bidders, {problems[0]}")
    return "Each round a best reply on the auctions it drew: " + ", ".join(f"{s:.2f}" for s in shadings)


def _prices(value: Any, what: str, auctions: int) -> list[float]:
    if not isinstance(value, tuple) or len(value) != auctions or not all(is_number(v) for v in value):
        shown = f"{len(value)} values" if isinstance(value, tuple) else repr(value)[:60]
        raise Wrong(f"{what} is {shown}; it should be the list of the {auctions:,} prices, one per auction")
    return [float(v) for v in value]


def _equivalence(f: Any, cases: Sequence[tuple[Any, ...]] = ((2, 2024), (3, 2025), (6, 2026))) -> str:
    name = "equilibrium_prices"
    for n, seed in cases:
        rng = Recorder(seed)
        pair = call(f, name, n, PRICES, rng)
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise Wrong(f"{name}({n}, ...) returned {pair!r:.80}; it should return a pair (first-price, second-price)")
        first, second = (
            _prices(p, f"with {n} bidders your {label} list", PRICES)
            for p, label in zip(pair, ("first-price", "second-price"), strict=True)
        )
        orders = _orders(rng.numbers(name, PRICES * n), PRICES, n, False).values()

        def same(first: list[float], second: list[float], values: Auctions, n: int = n) -> bool:
            return all(
                agrees(p, (n - 1) / n * max(a)) and agrees(q, sorted(a)[-2])
                for p, q, a in zip(first, second, values, strict=True)
            )

        if not any(same(first, second, values) for values in orders):
            swapped = any(same(second, first, values) for values in orders)
            if swapped:
                why = "in the wrong order: first-price first"
            else:
                why = (
                    "not the prices of the auctions you drew from `rng`, auction by auction: the first-price "
                    "winner pays (n-1)/n of his value, the second-price winner the second-highest value"
                )
            raise Wrong(f"with {n} bidders your lists are {why}")
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
                "the second-highest bid. Draw each bidder's value with `rng.random()`, find each auction's "
                "price, and average the prices.",
                "The price is an order statistic of the n values, the second-highest: notebook 08, section 1 "
                "(four ways to sell one thing), shows it. Draw one value per bidder and auction, nothing else.",
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
                "A price is an order statistic of the bids: which one is it in a first-price auction, and "
                "whose value is behind it? See notebook 08, section 2 (the first-price auction).",
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
                "Only our bidder matters: he gains value minus bid when his bid is the highest, and "
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
                "One round: draw the round's auctions once, work out our bidder's mean profit on them for every "
                "shading of the grid against rivals at the last factor of the list, and append the best one.",
                "Best-reply dynamics and the equilibrium as its fixed point: notebook 08, section 2. Compare "
                "the candidates on the same auctions (common random numbers) so that noise does not pick the winner.",
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
                "Each list holds the price of each auction, not a mean, both from the same auctions.",
            ),
            hidden=on_hidden_cases(_equivalence),
        ),
    ),
)
