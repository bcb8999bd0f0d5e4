"""The common-value kind: one worth for the whole group, a private signal each, first price.

>>> import random
>>> from ..auctions.settle import Entry
>>> from .spec import RoundSpec
>>> spec = RoundSpec("common", noise=10)
>>> out = COMMON.settle(spec, [Entry(1, 55, 50), Entry(2, 62, 58)], {}, 52.0, random.Random(1))
>>> [(o.won, o.paid, o.earnings) for o in out]
[(False, 0.0, 0.0), (True, 58.0, -6.0)]
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..auctions.laws import Law
from ..auctions.matching import Assignment, common_values
from ..auctions.settle import Entry, Outcome, settle
from ..auctions.theory import common_value_break_even
from .base import Chart, Kind, against_theory
from .sealed import _counts

if TYPE_CHECKING:
    from .spec import RoundSpec

__all__ = ["COMMON", "CommonValue"]


class CommonValue(Kind):
    """First-price sealed bid on an item worth the same to all, each bidder seeing a noisy signal of it."""

    name = "common"
    title = "Common value, first-price sealed bid"
    value_word = "signal"
    noisy = True

    def check(self, spec: RoundSpec) -> None:
        """Require a noise above 0 and at most half the values' range."""
        if not 0 < spec.noise <= (spec.law.top - spec.law.low) / 2:
            raise ValueError(f"noise must be above 0 and at most half the value range, got {spec.noise:g}")

    def rules(self, spec: RoundSpec) -> str:
        """Return what students are told: the common worth, the signals, first price."""
        return (
            f"{self.title}, in a group of {spec.group_size}."
            f" The item is worth the same to everyone in your group: a value drawn {spec.law.describe()}."
            f" Each of you sees a private signal, the worth plus a random error between -{spec.noise:g}"
            f" and +{spec.noise:g}."
            " The highest bid wins the item and pays its bid: the winner earns the item's worth minus his bid."
            f" Ties are broken by a coin flip. Bids from 0 to {spec.max_bid:g}."
        )

    def deal(
        self, groups: Sequence[Sequence[int]], spec: RoundSpec, rng: random.Random
    ) -> tuple[list[Assignment], dict[int, float]]:
        """Return each member's signal and each group's worth."""
        return common_values(groups, spec.law, spec.noise, rng)

    def settle(
        self,
        spec: RoundSpec,
        entries: Sequence[Entry],
        data: Mapping[int, dict[str, Any] | None],
        common_value: float | None,
        rng: random.Random,
    ) -> list[Outcome]:
        """Return every member's outcome: the highest bid pays itself and earns the common worth."""
        return settle(entries, rng, common_value=common_value)

    def predicted(self, value: float, n: int, law: Law, spec: Mapping[str, Any]) -> float | None:
        """Return the break-even bid: the signal minus what winning says about the error."""
        return common_value_break_even(value, n, float(spec["noise"]))

    def chart(self, spec: RoundSpec, rows: Sequence[Any], n: int) -> Chart | None:
        """Return every bid against its signal beside the break-even bid."""
        label = f"break-even bid, n = {n}: signal − {spec.noise * (n - 1) / (n + 1):.3g}"
        return against_theory(
            rows, spec.law, lambda v: common_value_break_even(v, n, spec.noise), label, "bid", spec.max_bid, x="signal"
        )

    def summary(self, spec: RoundSpec, rows: Sequence[Any], n: int) -> list[str]:
        """Return who bid, what the winners earned, and the winner's curse when they lost."""
        said, _, won = _counts(rows)
        if not won:
            return [*said, "Nobody bid: nobody won."]
        mean = sum(float(x.earnings) for x in won) / len(won)
        losers = sum(float(x.earnings) < 0 for x in won)
        said.append(f"The winners earned {mean:.2f} on average; {losers} of {len(won)} lost money.")
        if losers:
            said.append("Winning with the most optimistic signal is the winner's curse.")
        return said

    def simulate(
        self, page: Mapping[str, Any], behaviour: Any, rng: random.Random, wobble: float, before: int
    ) -> float | dict[str, Any]:
        """Return the signal minus noise × s × u (s his shading, growing with the rounds he played)."""
        shade = float(behaviour.shade) + float(behaviour.learn) * before
        return float(page["value"]) - float(page["noise"]) * shade * rng.random()


COMMON = CommonValue()
