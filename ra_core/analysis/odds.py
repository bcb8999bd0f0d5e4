"""Exact odds of the bag: the next tile, and how long until Ra, as `Fraction`s.

The one assumption (R14, R22): each draw takes a uniformly random tile from the tiles still
in the bag, without replacement. `ra_core.analysis.chance` builds on these and is where they are
documented with examples; they are re-exported there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING

from ..engine.records import Phase
from ..engine.tiles import DISASTERS, Tile

if TYPE_CHECKING:
    from ..engine.state import State

__all__ = [
    "TileQuery",
    "draws_until_epoch_end",
    "expectation",
    "expected_draws_until_epoch_end",
    "expected_tiles_before_ra",
    "free_slots",
    "next_tile_distribution",
    "p_next",
    "p_next_disaster",
    "p_next_ends_epoch",
    "p_next_ra",
    "p_next_tile",
    "ra_tiles_left",
    "tiles_before_ra",
    "tiles_in_next_lot",
]

_RA = Tile.RA
_TILES = tuple(Tile)

#: Which tiles a question is about: one tile, a set of tiles, or a test on a tile.
TileQuery = Tile | Iterable[Tile] | Callable[[Tile], bool]


# -- the next tile -------------------------------------------------------------------------


def next_tile_distribution(state: State) -> dict[Tile, Fraction]:
    """Return the probability of each tile kind being the next one drawn, in tile order.

    Assumes only a uniformly random draw from the bag (R22). It is the same as
    `State.chance_outcomes` but works in any phase, so a player can ask before drawing.
    Kinds that are no longer in the bag are left out; the values sum to exactly 1.
    """
    bag = state.bag
    total = sum(bag)
    if not total:
        raise ValueError("the bag is empty: no tile can be drawn")
    return {_TILES[i]: Fraction(n, total) for i, n in enumerate(bag) if n}


def p_next(state: State, which: TileQuery) -> Fraction:
    """Return the probability that the next tile drawn is `which`.

    `which` is a `Tile`, a collection of tiles, or a predicate such as
    ``lambda t: t.is_disaster``. Assumes only a uniformly random draw from the bag (R22).
    """
    bag = state.bag
    total = sum(bag)
    if not total:
        raise ValueError("the bag is empty: no tile can be drawn")
    return Fraction(_count(bag, which), total)


def _count(bag: Sequence[int], which: TileQuery) -> int:
    """Return how many tiles of the bag are `which` (a tile, a collection of tiles, or a predicate)."""
    if isinstance(which, Tile):
        return bag[which]
    if callable(which):
        return sum(n for i, n in enumerate(bag) if n and which(_TILES[i]))
    return sum(bag[t] for t in set(which))


def p_next_ra(state: State) -> Fraction:
    """Return the probability that the next tile drawn is a Ra tile (R24)."""
    return p_next(state, _RA)


def p_next_disaster(state: State) -> Fraction:
    """Return the probability that the next tile drawn is a disaster: funeral, drought, unrest or earthquake (R4)."""
    return p_next(state, DISASTERS)


def p_next_tile(state: State, tile: Tile) -> Fraction:
    """Return the probability that the next tile drawn is a `tile`."""
    return p_next(state, tile)


def ra_tiles_left(state: State) -> int:
    """Return how many more Ra tiles must be drawn to end the epoch by the Ra track (R15, R57).

    This count is not random: ``rules.ra_limit - ra_count``. The epoch can also end earlier
    when every player has spent his suns (R58); the functions of this module ignore that way
    of ending, which depends on the players' bids, not on the bag.
    """
    return state.rules.ra_limit - state.ra_count


def p_next_ends_epoch(state: State) -> Fraction:
    """Return the probability that the next draw is the Ra tile that ends the epoch (R57)."""
    return p_next_ra(state) if ra_tiles_left(state) == 1 else Fraction(0)


# -- how long until Ra ---------------------------------------------------------------------


def _failures_before(ra: int, others: int, m: int) -> tuple[list[int], int]:
    """Return the negative hypergeometric law of the non-Ra tiles drawn before the `m`-th Ra tile.

    With `ra` Ra tiles and `others` other tiles in a random order, the `m`-th Ra tile comes
    after exactly `f` others with probability ``C(f+m-1, m-1) * C(others-f + ra-m, ra-m) / C(ra+others, ra)``.
    Returns the integer numerators for ``f = 0..others`` and the common denominator; the
    numerators follow from one another by an exact integer recurrence (O(others) steps).
    """
    top = ra - m
    a = comb(others + top, top)  # f = 0: the first m tiles are Ra tiles
    numerators = [a]
    for f in range(others):
        # C(f+m, m-1) / C(f+m-1, m-1) = (f+m) / (f+1), and
        # C(others-f-1+top, top) / C(others-f+top, top) = (others-f) / (others-f+top)
        a = a * (f + m) * (others - f) // ((f + 1) * (others - f + top))
        numerators.append(a)
    return numerators, comb(ra + others, ra)


def _law(numerators: Sequence[int], denominator: int, shift: int = 0, cap: int | None = None) -> dict[int, Fraction]:
    """Return ``{k + shift: numerators[k] / denominator}`` without zero entries, lumping ``k >= cap`` into ``cap``."""
    if cap is not None and cap < len(numerators):
        numerators = [*numerators[:cap], sum(numerators[cap:])]
    return {k + shift: Fraction(a, denominator) for k, a in enumerate(numerators) if a}


def tiles_before_ra(state: State, *, cap: int | None = None) -> dict[int, Fraction]:
    """Return the law of the number of non-Ra tiles drawn before the next Ra tile: ``{k: P(K = k)}``.

    Assumes draws without replacement from the bag (R14, R22) until a Ra tile comes out: a
    negative hypergeometric law. With ``R`` Ra tiles and ``N`` others in the bag,
    ``P(K = k) = C(N+R-k-1, R-1) / C(N+R, R)`` and the mean is ``N / (R+1)``. Who draws and
    when does not matter; calls of Ra and gods in between do not change the bag.

    The auction track holds only 8 tiles and nobody may draw on a full track (R19). With
    ``cap=free_slots(state)`` the law is of ``min(K, cap)``: how many tiles go onto the track
    before a Ra tile comes out or the track is full, if nobody calls Ra or uses a god first.

    With no Ra tile in the bag, every tile comes out before a Ra tile: ``K = N`` for sure.
    """
    if cap is not None and cap < 0:
        raise ValueError(f"cap must be at least 0, got {cap}")
    bag = state.bag
    ra = bag[_RA]
    others = sum(bag) - ra
    if not ra:
        return {min(others, cap) if cap is not None else others: Fraction(1)}
    numerators, denominator = _failures_before(ra, others, 1)
    return _law(numerators, denominator, cap=cap)


def tiles_in_next_lot(state: State, which: TileQuery, *, cap: int | None = None) -> dict[int, Fraction]:
    """Return the law of how many `which` tiles are drawn before the next Ra tile: ``{j: P(J = j)}``.

    `which` is as in `p_next`: a `Tile`, a collection of tiles (e.g. the four disasters), or a
    predicate; Ra tiles never count. The ``K`` non-Ra tiles drawn before the next Ra tile
    (`tiles_before_ra`, with the same `cap`) are a uniformly random ``K`` of the ``N`` non-Ra
    tiles in the bag, so given ``K = k`` the count of the ``W`` wanted ones among them is
    hypergeometric: ``P(J = j) = sum_k P(K = k) * C(W, j) * C(N-W, k-j) / C(N, k)``.

    With ``cap=free_slots(state)`` it is the count the next lot gains before a Ra tile comes or
    the track is full (if nobody calls Ra or uses a god first); the tiles already on the track
    are not counted.

    >>> from ra_core import State, Tile
    >>> s = State.from_dict({"players": [{"suns_up": [13, 8, 5, 2]}, {"suns_up": [12, 9, 6, 3]},
    ...                                  {"suns_up": [11, 10, 7, 4]}], "bag": {"ra": 1, "gold": 1, "nile": 1}},
    ...                     strict=False)    # a teaching position: a bag of three tiles
    >>> tiles_in_next_lot(s, Tile.GOLD)    # the gold tile comes before the Ra tile half the time
    {0: Fraction(1, 2), 1: Fraction(1, 2)}
    """
    non_ra = list(state.bag)
    non_ra[_RA] = 0
    others, wanted = sum(non_ra), _count(non_ra, which)
    law: dict[int, Fraction] = {}
    for k, p_k in tiles_before_ra(state, cap=cap).items():
        ways = comb(others, k)
        for j in range(max(0, k - (others - wanted)), min(k, wanted) + 1):
            law[j] = law.get(j, Fraction(0)) + p_k * Fraction(comb(wanted, j) * comb(others - wanted, k - j), ways)
    return dict(sorted(law.items()))


def expected_tiles_before_ra(state: State) -> Fraction:
    """Return the mean number of non-Ra tiles drawn before the next Ra tile: ``N / (R + 1)``.

    Same assumptions as `tiles_before_ra` (uncapped); ``N`` with no Ra tile in the bag.
    """
    bag = state.bag
    ra = bag[_RA]
    return Fraction(sum(bag) - ra, ra + 1)


def free_slots(state: State) -> int:
    """Return the number of empty slots on the auction track (8 minus the tiles on it, R7, R19)."""
    return sum(1 for t in state.track if t is None)


def draws_until_epoch_end(state: State) -> dict[int, Fraction]:
    """Return the law of the number of tiles drawn until the epoch-ending Ra tile, that tile included.

    The epoch ends when the Ra tile number ``rules.ra_limit`` is drawn (R15, R57), so
    ``m = ra_tiles_left(state)`` more Ra tiles must come out; the number of draws ``D`` is
    ``m`` plus the non-Ra tiles drawn before the ``m``-th Ra tile, a negative hypergeometric
    law: ``P(D = m + f) = C(f+m-1, m-1) * C(N-f + R-m, R-m) / C(N+R, R)``. The count of Ra
    tiles left itself is not random (see `ra_tiles_left`).

    Assumes the epoch ends by the Ra track, not because every sun has been spent (R58), and
    counts draws from the bag whoever makes them; tiles that go onto the track and are later
    won, discarded or boxed still count as drawn.

    Raises:
        ValueError: the bag holds fewer Ra tiles than the epoch needs (impossible in a legal
            game, R25), or the game is over.
    """
    m, ra, others = _epoch_needs(state)
    numerators, denominator = _failures_before(ra, others, m)
    return _law(numerators, denominator, shift=m)


def expected_draws_until_epoch_end(state: State) -> Fraction:
    """Return the mean of `draws_until_epoch_end`: ``m + m * N / (R + 1)``, under the same assumptions."""
    m, ra, others = _epoch_needs(state)
    return m + Fraction(m * others, ra + 1)


def _epoch_needs(state: State) -> tuple[int, int, int]:
    """Return (Ra tiles the epoch still needs, Ra tiles in the bag, other tiles in the bag); check they fit."""
    if state.phase is Phase.GAME_OVER:
        raise ValueError("the game is over: no epoch is running")
    m = ra_tiles_left(state)
    bag = state.bag
    ra = bag[_RA]
    if m < 1 or ra < m:
        raise ValueError(f"the epoch needs {m} more Ra tiles but the bag holds {ra}")
    return m, ra, sum(bag) - ra


def expectation(law: Mapping[int, Fraction]) -> Fraction:
    """Return the mean of a law ``{value: probability}``, exactly."""
    return sum((Fraction(v) * p for v, p in law.items()), Fraction(0))
