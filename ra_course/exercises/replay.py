"""Checks of simulations that replay the student's own random numbers.

A simulation task hands the student's function a `Recorder`: a `random.Random` that remembers
every number it gives out. When the function has returned, the check takes those numbers (after
making sure they are exactly the ones a fresh generator of the same seed gives, no more and none
drawn around the recorder), lays them out as the task's auctions or draws, computes the statistic
the task defines from them, and asks that the answer equal it to `TOLERANCE`. A formula plus
noise, however well scaled, does not equal the mean of the very auctions the function drew; an
honest simulation does on every seed.

A task's values may be drawn auction by auction (all the values of one auction, then the next)
or bidder by bidder (all of one bidder's values, then the next bidder's); `layouts` gives both.

>>> rng = Recorder(7)
>>> values = [rng.random() for _ in range(6)]
>>> rng.numbers("f", 6) == values
True
>>> [len(rows) for rows in layouts(values, auctions=3, bidders=2).values()]
[3, 3]
"""

from __future__ import annotations

import random
from _random import Random as _CRandom  # the generator itself, in C: what `random.Random` adds to it is Python
from collections.abc import Sequence
from typing import Any

from .checking import Wrong

__all__ = ["TOLERANCE", "Recorder", "agrees", "layouts"]

#: how close an answer must be to the statistic of the function's own draws
TOLERANCE = 1e-9


class Recorder(random.Random):
    """A `random.Random` seeded with `seed` that remembers every number its `random()` gives out.

    Every other way of drawing (``randint``, ``choice``, ``shuffle``, ...) is counted apart, and
    reseeding or setting its state is noticed: a simulation task asks for ``rng.random()`` only.
    """

    def __init__(self, seed: int) -> None:
        self._seed, self._other, self._reset = seed, 0, False
        self._drawn: list[float] = []
        self._ready = False
        super().__init__(seed)
        self._ready = True

    @property
    def seeded_with(self) -> int:
        """Return the seed the recorder was made with."""
        return self._seed

    def replayed(self, count: int, other: int = 0, reset: bool = False) -> None:
        """Take note of what a copy of this recorder gave out in another process: `count` numbers of `random()`.

        The teacher's judge hands a student's function in a sandbox a copy made from the same
        seed (`ra_course.exercises.wire`), and learns back only how many numbers it drew (and
        whether it drew otherwise, or reseeded it: the student's loss if so). It draws those
        numbers here, from its own generator, so that `numbers` are the seed's own whatever the
        sandbox did.
        """
        for _ in range(count):
            self.random()
        self._other += other
        self._reset = self._reset or reset

    def random(self) -> float:
        """Return the next number in [0, 1), and remember it."""
        x: float = _CRandom.random(self)
        self._drawn.append(x)
        return x

    def getrandbits(self, k: int) -> int:
        """Return `k` random bits (counted as a draw that is not ``random()``)."""
        self._other += 1
        bits: int = _CRandom.getrandbits(self, k)
        return bits

    def seed(self, *args: Any, **kwargs: Any) -> None:
        """Seed the generator (only when it is made: a check notices a reseeding)."""
        if self._ready:
            self._reset = True
        super().seed(*args, **kwargs)

    def setstate(self, state: Any) -> None:
        """Set the generator's state (a check notices it)."""
        self._reset = True
        super().setstate(state)

    def numbers(self, name: str, expected: int | None = None, why: str = "") -> list[float]:
        """Return the numbers given out, after checking that they are the seed's own; raise `Wrong` if not.

        With `expected`, the count must be that: the draws the task implies (`why` says how).
        """
        drawn = list(self._drawn)
        fresh = _CRandom(self._seed)
        honest = [fresh.random() for _ in drawn]
        if self._reset:
            raise Wrong(f"`{name}` reseeded `rng` or set its state: draw from `rng` just as it is given")
        if self._other:
            raise Wrong(
                f"`{name}` drew from `rng` with other methods than `rng.random()` (randint, choice, shuffle, "
                "uniform on integers, ...): draw every value with `rng.random()`, as the task says"
            )
        if honest != drawn or _CRandom.getstate(self) != fresh.getstate():
            raise Wrong(f"`{name}` drew numbers from `rng` past its `random()` method: call `rng.random()`")
        if expected is not None and len(drawn) != expected:
            how = why or "one `rng.random()` per value"
            raise Wrong(
                f"`{name}` drew {len(drawn):,} numbers from `rng`; the task implies {expected:,}: {how} "
                "(numbers from the module `random`, from numpy or from a generator of your own do not count)"
            )
        return drawn


def layouts(numbers: Sequence[float], *, auctions: int, bidders: int) -> dict[str, list[list[float]]]:
    """Return the values of each auction, as drawn auction by auction and as drawn bidder by bidder."""
    by_auction = [list(numbers[a * bidders : (a + 1) * bidders]) for a in range(auctions)]
    by_bidder = [[numbers[b * auctions + a] for b in range(bidders)] for a in range(auctions)]
    return {"auction by auction": by_auction, "bidder by bidder": by_bidder}


def agrees(answer: float, target: float) -> bool:
    """Return whether `answer` is within `TOLERANCE` of `target` (both plain floats)."""
    return -TOLERANCE <= answer - target <= TOLERANCE
