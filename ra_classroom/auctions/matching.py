"""Who plays with whom each round, and who gets which value: groups, tables, values and signals.

Groups are formed afresh every round (random rematching), from the round's own random stream,
so a round's groups and values follow from the room's seed and the round's number alone. Only
``rng.random()`` is used (Python keeps it stable across versions; `shuffle` is not promised).

>>> import random
>>> form_groups([1, 2, 3, 4, 5, 6, 7], 3, random.Random(4))
([[5, 3, 4], [6, 7, 1]], [2])
>>> form_tables([1, 2, 3, 4, 5], 4, random.Random(1))
[[2, 1, None, 3], [4, None, 5, None]]
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from .laws import Law

__all__ = ["Assignment", "common_values", "private_values", "form_groups", "form_tables", "round_stream", "shuffled"]


def round_stream(room_seed: str, number: int, purpose: str = "deal") -> random.Random:
    """Return the random stream of round `number` of the room with `room_seed`, for one `purpose`."""
    return random.Random(f"ra-classroom:{room_seed}:{number}:{purpose}")


def shuffled(items: Sequence[int | None], rng: random.Random) -> list[int | None]:
    """Return `items` in a random order (Fisher-Yates, with ``rng.random()`` only)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def form_groups(students: Sequence[int], size: int, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """Return the groups for a sealed-bid round, and the students who sit it out.

    The students are shuffled and cut into groups of `size`; those left over form one smaller
    group if they are two or more (a class smaller than one group is one group), and a single
    one left over sits the round out, a different one each round.

    >>> form_groups([1, 2, 3], 4, random.Random(1))       # a class of 3, groups of 4: one group of 3
    ([[3, 2, 1]], [])
    >>> [len(g) for g in form_groups(range(10), 4, random.Random(1))[0]]
    [4, 4, 2]
    """
    order = [s for s in shuffled(sorted(students), rng) if s is not None]
    count = len(order) // size
    groups, rest = [order[g * size : (g + 1) * size] for g in range(count)], order[count * size :]
    if len(rest) >= 2:
        return [*groups, rest], []
    return groups, rest


def form_tables(students: Sequence[int], size: int, rng: random.Random) -> list[list[int | None]]:
    """Return the seats of each Ra table: as few tables of `size` as hold everyone, bots (None) in the rest.

    The students are spread as evenly as possible (7 students at tables of 4 sit 4 and 3), and
    each table's seats are shuffled, so that a bot may sit anywhere.
    """
    order = shuffled(sorted(students), rng)
    count = max(1, -(-len(order) // size))
    tables: list[list[int | None]] = [[] for _ in range(count)]
    for i, student in enumerate(order):
        tables[i % count].append(student)
    return [shuffled(t + [None] * (size - len(t)), rng) for t in tables]


@dataclasses.dataclass(frozen=True)
class Assignment:
    """One student's place in a sealed-bid round: his group and his value (or signal)."""

    student: int
    group: int
    value: float


def private_values(groups: Sequence[Sequence[int]], law: Law, rng: random.Random) -> list[Assignment]:
    """Return each student's private value, drawn from `law`, one per student in the order of `groups`."""
    return [Assignment(s, g, law.draw(rng)) for g, members in enumerate(groups) for s in members]


def common_values(
    groups: Sequence[Sequence[int]], law: Law, noise: float, rng: random.Random
) -> tuple[list[Assignment], dict[int, float]]:
    """Return each student's signal and each group's common worth.

    Each group's worth is drawn from `law`, and each member's signal is the worth plus a
    uniform error in [-noise, noise], rounded to cents.
    """
    out: list[Assignment] = []
    common: dict[int, float] = {}
    for g, members in enumerate(groups):
        worth = law.draw(rng)
        common[g] = worth
        for s in members:
            out.append(Assignment(s, g, round(worth + noise * (2 * rng.random() - 1), 2)))
    return out, common
