"""Scoring at the end of each epoch (R63-R72) and the winner (R73), as pure functions.

The rulebook's worked examples are the doctests:

>>> monument_points(counts({Tile.PYRAMID: 4, Tile.TEMPLE: 3, Tile.FORTRESS: 2, Tile.SPHINX: 1}))
19
>>> sun_points([17, 25, 21, 17])
[-5, 5, 0, -5]
>>> pharaoh_points([4, 3, 3, 4])
[5, -2, -2, 5]
>>> civilization_points(counts({Tile.ASTRONOMY: 3, Tile.AGRICULTURE: 2, Tile.WRITING: 2}))
5
>>> river_points(counts({Tile.FLOOD: 1, Tile.NILE: 3}))
4
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import add
from typing import TYPE_CHECKING

from .records import Breakdown, BreakdownFields, EpochScore, Player, PlayerFields
from .rules import EPOCHS, Rules
from .tiles import CIVILIZATIONS, DISCARDED_AFTER_EPOCH, EMPTY, MONUMENTS, Tile, counts

if TYPE_CHECKING:
    from .state import State

__all__ = [
    "Breakdown",
    "EpochScore",
    "civilization_points",
    "counts",
    "god_points",
    "gold_points",
    "monument_points",
    "pharaoh_points",
    "pharaoh_points_over",
    "river_points",
    "score_epoch",
    "score_now",
    "sun_points",
    "winner",
]

# Tile indices as plain ints: looking up an enum member costs more than the scoring itself.
_GOD, _PHARAOH, _NILE, _FLOOD, _GOLD = (int(t) for t in (Tile.GOD, Tile.PHARAOH, Tile.NILE, Tile.FLOOD, Tile.GOLD))

CATEGORIES = ("god", "pharaoh", "river", "civilization", "gold", "monument", "sun")


def god_points(display: Sequence[int]) -> int:
    """Return 2 per god tile (R63)."""
    return 2 * display[_GOD]


def gold_points(display: Sequence[int]) -> int:
    """Return 3 per gold tile (R67)."""
    return 3 * display[_GOLD]


def river_points(display: Sequence[int]) -> int:
    """Return 1 per Nile and per flood, but only with at least one flood (R65)."""
    floods = display[_FLOOD]
    return floods + display[_NILE] if floods else 0


def civilization_points(display: Sequence[int]) -> int:
    """Return -5 with no civilization, 0 for 1-2 kinds, 5/10/15 for 3/4/5 kinds (R66)."""
    return _CIVILIZATION_POINTS[display[_CIVS].count(0)]


def monument_points(display: Sequence[int]) -> int:
    """Return the epoch-3 monument points: variety (1-6, 10, 15) plus 5/10/15 per set of 3/4/5 (R70)."""
    monuments = display[_MONUMENTS]
    points = _VARIETY_POINTS[monuments.count(0)]
    for copies in monuments:
        if copies >= 3:
            points += _SET_POINTS[copies]
    return points


# The civilization and monument kinds are contiguous in `Tile`, so a slice picks them out.
_CIVS = slice(CIVILIZATIONS[0], CIVILIZATIONS[-1] + 1)
_MONUMENTS = slice(MONUMENTS[0], MONUMENTS[-1] + 1)
assert tuple(Tile(i) for i in range(23)[_CIVS]) == CIVILIZATIONS
assert tuple(Tile(i) for i in range(23)[_MONUMENTS]) == MONUMENTS
# Points looked up by how many kinds are missing: counting the zeros of a slice is one call.
_CIVILIZATION_POINTS = (15, 10, 5, 0, 0, -5)  # R66: 5, 4, 3, 2, 1, 0 kinds of civilization
_VARIETY_POINTS = (15, 10, 6, 5, 4, 3, 2, 1, 0)  # R70: 8, 7, 6, ..., 0 kinds of monument
_SET_POINTS = (0, 0, 0, 5, 10, 15)  # R70: by copies of one monument kind


def _most_and_fewest(values: Sequence[int], bonus: int, penalty: int) -> list[int]:
    hi, lo = max(values), min(values)
    if hi == lo:  # all equal: nobody scores (R64, R71)
        return [0] * len(values)
    return [bonus if v == hi else penalty if v == lo else 0 for v in values]


def pharaoh_points(pharaohs: Sequence[int], penalties: bool = True) -> list[int]:
    """Return +5 to all tied for most pharaohs, -2 to all tied for fewest, 0 if all equal (R64)."""
    return _most_and_fewest(pharaohs, 5, -2 if penalties else 0)


def pharaoh_points_over(pharaohs: Sequence[int], epochs: Iterable[int], rules: Rules) -> list[int]:
    """Return each player's pharaoh points (R64) summed over `epochs`, as the pharaoh counts stand.

    Each epoch's penalty follows the rules' no-penalty option (D9): the points are worked out
    once for the epochs with the penalty and once for those without.
    """
    with_penalty = [rules.penalties_apply(epoch) for epoch in epochs]
    total = [0] * len(pharaohs)
    for penalties in (True, False):
        times = with_penalty.count(penalties)
        if times:
            for i, x in enumerate(pharaoh_points(pharaohs, penalties)):
                total[i] += times * x
    return total


def sun_points(sums: Sequence[int], penalties: bool = True) -> list[int]:
    """Return +5 to all tied for the highest sun total, -5 to all tied for the lowest (R71)."""
    return _most_and_fewest(sums, 5, -5 if penalties else 0)


def score_epoch(
    players: Sequence[Player], epoch: int, rules: Rules
) -> tuple[tuple[Player, ...], EpochScore, tuple[int, ...]]:
    """Score `epoch`, discard the temporary tiles and ready the players for the next epoch (R49, R60, R63-R72).

    Returns:
        the players as the next epoch finds them (fame added with the floor of R69; gods,
        gold, civilizations and floods discarded; after epochs 1 and 2 every sun face up,
        R49), the `EpochScore`, and the count tuple of tiles those discards sent to the box.
    """
    final = epoch == EPOCHS
    penalties = rules.penalties_apply(epoch)
    pharaoh = pharaoh_points([p.display[_PHARAOH] for p in players], penalties)
    # R68, R71: monuments and suns count only after epoch 3
    sun = sun_points([sum(p.suns_up) + sum(p.suns_down) for p in players], penalties) if final else [0] * len(players)
    floor = rules.fame_floor
    after: list[Player] = []
    breakdowns: list[Breakdown] = []
    gods = floods = gold_tiles = 0  # R60: what the discards send to the box, summed over the players
    civs = _NO_CIVILIZATIONS
    for (suns_up, suns_down, d, fame_before), pharaohs, suns in zip(players, pharaoh, sun, strict=True):
        flood, civ_counts = d[_FLOOD], d[_CIVS]
        god, river, civ, gold = god_points(d), river_points(d), civilization_points(d), gold_points(d)
        monument = monument_points(d) if final else 0  # R70
        fame = fame_before + god + pharaohs + river + civ + gold + monument + suns
        if floor and fame < 0:  # R69, D4
            fame = 0
        breakdown: BreakdownFields = (god, pharaohs, river, civ, gold, monument, suns, fame_before, fame)
        breakdowns.append(_new(Breakdown, breakdown))
        if suns_down and not final:  # R49: the suns won this epoch are turned face up for the next
            suns_up, suns_down = tuple(sorted(suns_up + suns_down)), ()
        # R60: gods, gold, civilizations and floods leave the game; pharaohs, Niles and monuments stay
        gods += d[_GOD]
        floods += flood
        gold_tiles += d[_GOLD]
        if civ_counts != _NO_CIVILIZATIONS:
            civs = tuple(map(add, civs, civ_counts))
        kept = list(d)
        kept[_GOD] = kept[_FLOOD] = kept[_GOLD] = kept[6] = kept[7] = kept[8] = kept[9] = kept[10] = 0
        player: PlayerFields = (suns_up, suns_down, tuple(kept), fame)
        after.append(_new(Player, player))
    boxed = (0, gods, 0, 0, floods, gold_tiles, *civs) + _NO_MONUMENTS_DISASTERS
    score: tuple[int, tuple[Breakdown, ...]] = (epoch, tuple(breakdowns))
    return tuple(after), _new(EpochScore, score), boxed


# The display's layout that `score_epoch` relies on: ra, god, pharaoh, Nile, flood, gold, the
# civilizations (6-10), then the monuments and the disasters. Plain stores into a list copy are
# the cheapest way to zero the discarded kinds (fewer new objects than slicing, no call per kind).
assert (_GOD, _PHARAOH, _NILE, _FLOOD, _GOLD, _CIVS.start, _CIVS.stop) == (1, 2, 3, 4, 5, 6, 11)
assert {_GOD, _FLOOD, _GOLD, *range(_CIVS.start, _CIVS.stop)} == set(DISCARDED_AFTER_EPOCH)
_NO_CIVILIZATIONS = (0,) * len(CIVILIZATIONS)
_NO_MONUMENTS_DISASTERS = (0,) * (len(EMPTY) - _CIVS.stop)
# Builds a record from a plain tuple of its fields, typed so that mypy checks each: half the
# instructions of calling the record's class (see the hot-path section of `transitions`).
_new = tuple.__new__


def score_now(state: State) -> EpochScore:
    """Return the scoring `state` would get if its epoch ended now (R63-R72).

    What each display is worth at this moment, by category: the tiles on the auction track do not
    count (R59), and in epoch 3 monuments and suns count too (R68, R71). Fame is not changed.
    """
    return score_epoch(state.players, state.epoch, state.rules)[1]


def winner(players: Sequence[Player], rules: Rules) -> int:
    """Return the seat with the most fame; ties go to the highest single sun owned (R73, D1)."""

    def key(i: int) -> tuple[int, int, int]:
        suns = players[i].suns_up + players[i].suns_down
        tie = max(suns) if rules.tie_break == "highest_sun" else sum(suns)
        return (players[i].fame, tie, max(suns))  # equal sums: the highest sun decides

    return max(range(len(players)), key=key)
