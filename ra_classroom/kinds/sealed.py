"""The sealed-bid kinds with private values: first price, second price, all-pay.

Each student in a group has a private value drawn from the round's law and sends one sealed
bid; the highest bid wins (ties by a coin flip from the group's own stream).

>>> import random
>>> from ..auctions.settle import Entry
>>> from .spec import RoundSpec
>>> spec = RoundSpec("second")
>>> out = SECOND.settle(spec, [Entry(1, 70, 50), Entry(2, 90, 60)], {}, None, random.Random(1))
>>> [(o.won, o.price, o.earnings) for o in out]
[(False, 50.0, 0.0), (True, 50.0, 40.0)]
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..auctions.laws import Law, law_from_dict
from ..auctions.settle import Entry, Outcome, settle
from ..auctions.theory import equilibrium_bid, expected_revenue, shading
from .base import Chart, Kind, against_theory

if TYPE_CHECKING:
    from .spec import RoundSpec

__all__ = ["ALLPAY", "FIRST", "SECOND", "PrivateValues"]


class PrivateValues(Kind):
    """A sealed-bid round with private values: who wins and what each pays follow `pays`.

    Attributes:
        pays: what students are told about who wins and who pays.
        price: ``"first"`` (the winner pays his bid) or ``"second"`` (the second-highest bid).
        all_pay: everyone pays his own bid, win or lose.
    """

    pays: str = ""
    price: str = "first"
    all_pay: bool = False

    def rules(self, spec: RoundSpec) -> str:
        """Return what students are told: the format, the values' law, who wins and pays, the bids' range."""
        head = f"{self.title}, in a group of {spec.group_size}."
        what = f" Each of you has a private value, drawn {spec.law.describe()}; you see only your own."
        return head + what + " " + self.pays + f" Ties are broken by a coin flip. Bids from 0 to {spec.max_bid:g}."

    def settle(
        self,
        spec: RoundSpec,
        entries: Sequence[Entry],
        data: Mapping[int, dict[str, Any] | None],
        common_value: float | None,
        rng: random.Random,
    ) -> list[Outcome]:
        """Return every member's outcome: the highest bid wins, the price by `price`, `all_pay` pays all."""
        return settle(entries, rng, second_price=self.price == "second", all_pay=self.all_pay)

    def predicted(self, value: float, n: int, law: Law, spec: Mapping[str, Any]) -> float | None:
        """Return the risk-neutral symmetric equilibrium bid."""
        return equilibrium_bid(self.name, value, n, law)

    def chart(self, spec: RoundSpec, rows: Sequence[Any], n: int) -> Chart | None:
        """Return every bid against its value beside the risk-neutral equilibrium bid."""
        law = spec.law
        return against_theory(
            rows,
            law,
            lambda v: equilibrium_bid(self.name, v, n, law),
            f"risk-neutral equilibrium, n = {n}",
            "bid",
            spec.max_bid,
        )

    def summary(self, spec: RoundSpec, rows: Sequence[Any], n: int) -> list[str]:
        """Return who bid, the revenue per group beside theory's, and how often the highest value won."""
        said, by_group, won = _counts(rows)
        if not won:
            return [*said, "Nobody bid: nobody won."]
        revenue = sum(sum(float(x.paid or 0) for x in g) for g in by_group.values()) / len(by_group)
        said.append(f"Revenue per group: {revenue:.2f} on average; theory: {expected_revenue(n, spec.law):.2f}.")
        top_won = sum(any(x.won and x.value == max(y.value for y in g) for x in g) for g in by_group.values())
        said.append(f"The highest value won in {top_won} of {len(by_group)} group{'s' if len(by_group) != 1 else ''}.")
        return said


def _counts(rows: Sequence[Any]) -> tuple[list[str], dict[int, list[Any]], list[Any]]:
    """Return the sentence on who bid, the rows by group, and the winners' rows."""
    by_group: dict[int, list[Any]] = defaultdict(list)
    for x in rows:
        by_group[int(x.group_no)].append(x)
    bid = sum(x.amount is not None for x in rows)
    said = [f"{bid} of {len(rows)} bid, in {len(by_group)} group{'s' if len(by_group) != 1 else ''}."]
    return said, by_group, [x for x in rows if x.won]


class FirstPrice(PrivateValues):
    """First-price sealed bid: the highest bid wins and pays itself."""

    name = "first"
    title = "First-price sealed bid"
    pays = "The highest bid wins and pays its bid: you earn your value minus your bid if you win, 0 if not."

    def simulate(
        self, page: Mapping[str, Any], behaviour: Any, rng: random.Random, wobble: float, before: int
    ) -> float | dict[str, Any]:
        """Return the equilibrium bid of a CRRA bidder with the student's own rho, times his error."""
        law, n = _law_n(page)
        return (law.low + shading(n, law, behaviour.rho) * (float(page["value"]) - law.low)) * wobble


class SecondPrice(PrivateValues):
    """Second-price sealed bid: the highest bid wins and pays the second-highest."""

    name = "second"
    title = "Second-price sealed bid"
    price = "second"
    pays = (
        "The highest bid wins and pays the second-highest bid: you earn your value minus that price if you"
        " win, 0 if not."
    )

    def simulate(
        self, page: Mapping[str, Any], behaviour: Any, rng: random.Random, wobble: float, before: int
    ) -> float | dict[str, Any]:
        """Return the value, or with probability `behaviour.overbid` a bid up to 20 % above it."""
        value = float(page["value"])
        return value * (1 + 0.2 * rng.random()) if rng.random() < behaviour.overbid else value


class AllPay(PrivateValues):
    """All-pay sealed bid: the highest bid wins, everyone pays his bid."""

    name = "allpay"
    title = "All-pay sealed bid"
    all_pay = True
    pays = "The highest bid wins your value, and everyone pays his own bid, win or lose."

    def simulate(
        self, page: Mapping[str, Any], behaviour: Any, rng: random.Random, wobble: float, before: int
    ) -> float | dict[str, Any]:
        """Return the risk-neutral equilibrium bid times the student's error."""
        law, n = _law_n(page)
        return equilibrium_bid("allpay", float(page["value"]), n, law) * wobble


def _law_n(page: Mapping[str, Any]) -> tuple[Law, int]:
    """Return the law and the group's size a student's page shows."""
    return law_from_dict(page["law"]), int(page["group_size"])


FIRST, SECOND, ALLPAY = FirstPrice(), SecondPrice(), AllPay()
