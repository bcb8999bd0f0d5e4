"""The outcome of one group's sealed-bid auction: who wins, what everyone pays and earns.

A student who did not bid before the close has no bid: he cannot win and pays nothing. Ties
for the highest bid are broken by a coin flip from the group's own random stream.

>>> import random
>>> first = settle([Entry(1, 70, 50), Entry(2, 90, 60), Entry(3, 40, None)], random.Random(1))
>>> [(o.student, o.won, o.paid, o.earnings) for o in first]
[(1, False, 0.0, 0.0), (2, True, 60.0, 30.0), (3, False, 0.0, 0.0)]
>>> second = settle([Entry(1, 70, 50), Entry(2, 90, 60)], random.Random(1), second_price=True)
>>> [(o.won, o.price, o.earnings) for o in second]
[(False, 50.0, 0.0), (True, 50.0, 40.0)]
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

__all__ = ["Entry", "Outcome", "settle"]


@dataclasses.dataclass(frozen=True)
class Entry:
    """A group member at the close: his value (or signal) and his bid, None if he did not bid."""

    student: int
    value: float
    bid: float | None


@dataclasses.dataclass(frozen=True)
class Outcome:
    """A group member's result.

    Attributes:
        student: who.
        won: whether he won the item.
        price: the price the winner paid (the group's price; 0 if nobody bid).
        paid: what this student paid (his bid in an all-pay round, the price if he won, else 0).
        earnings: what he earned: the value (or the common worth) if he won, minus what he paid.
        data: what else a round's kind records of his outcome (JSON-ready), or None.
    """

    student: int
    won: bool
    price: float
    paid: float
    earnings: float
    data: dict[str, Any] | None = None


def settle(
    entries: Sequence[Entry],
    rng: random.Random,
    *,
    second_price: bool = False,
    all_pay: bool = False,
    common_value: float | None = None,
) -> list[Outcome]:
    """Return every member's outcome, in the order of `entries`: the highest bid wins.

    Args:
        entries: the group's members, values and bids.
        rng: the group's random stream, for ties.
        second_price: the winner pays the second-highest bid (else his own).
        all_pay: everyone pays his own bid, win or lose.
        common_value: the item's worth to everyone, in a common-value round (None: each his value).
    """
    bids = [(e.bid, i) for i, e in enumerate(entries) if e.bid is not None]
    if not bids:
        return [Outcome(e.student, False, 0.0, 0.0, 0.0) for e in entries]
    top = max(b for b, _ in bids)
    tied = [i for b, i in bids if b == top]
    winner = tied[int(rng.random() * len(tied))] if len(tied) > 1 else tied[0]
    if second_price:
        others = sorted((b for b, i in bids if i != winner), reverse=True)
        price = others[0] if others else 0.0
    else:
        price = top
    out = []
    for i, e in enumerate(entries):
        won = i == winner
        paid = (e.bid or 0.0) if all_pay else price if won else 0.0
        worth = (common_value if common_value is not None else e.value) if won else 0.0
        out.append(
            Outcome(e.student, won, round(float(price), 2), round(float(paid), 2), round(float(worth - paid), 2))
        )
    return out
