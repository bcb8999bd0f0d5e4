"""Tiles of Ra: the 23 kinds, their scoring categories and the 180-tile bag (R1-R4).

A bag, a display or the box is stored as a tuple of 23 counts indexed by `Tile`,
so that drawing a tile is one index operation and the whole supply is hashable.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType


class Tile(enum.IntEnum):
    """A kind of tile. The value is the index into count tuples."""

    RA = 0
    GOD = 1
    PHARAOH = 2
    NILE = 3
    FLOOD = 4
    GOLD = 5
    ART = 6
    AGRICULTURE = 7
    RELIGION = 8
    ASTRONOMY = 9
    WRITING = 10
    FORTRESS = 11
    OBELISK = 12
    PALACE = 13
    PYRAMID = 14
    SPHINX = 15
    STATUE = 16
    STEP_PYRAMID = 17
    TEMPLE = 18
    FUNERAL = 19
    DROUGHT = 20
    UNREST = 21
    EARTHQUAKE = 22

    @property
    def label(self) -> str:
        """Return the tile's name in the text notation: ``Tile.STEP_PYRAMID.label == 'step-pyramid'``."""
        return _LABELS[self]

    @property
    def is_disaster(self) -> bool:
        """Return whether this is one of the four disaster kinds (R4)."""
        return self >= Tile.FUNERAL

    @classmethod
    def from_label(cls, text: str) -> Tile:
        """Return the tile named `text` (``'step-pyramid'``, ``'STEP_PYRAMID'`` and ``'step pyramid'`` all work)."""
        key = text.strip().upper().replace("-", "_").replace(" ", "_")
        try:
            return cls[key]
        except KeyError:
            names = ", ".join(t.label for t in cls)
            raise ValueError(f"unknown tile {text!r}; tiles are: {names}") from None


NUM_KINDS = len(Tile)
_LABELS = {t: t.name.lower().replace("_", "-") for t in Tile}

#: R1: the composition of the 180-tile supply.
BAG_COUNTS: Mapping[Tile, int] = MappingProxyType(
    {
        Tile.RA: 30,
        Tile.GOD: 8,
        Tile.PHARAOH: 25,
        Tile.NILE: 25,
        Tile.FLOOD: 12,
        Tile.GOLD: 5,
        **{t: 5 for t in Tile if Tile.ART <= t <= Tile.WRITING},  # R3: 5 types x 5
        **{t: 5 for t in Tile if Tile.FORTRESS <= t <= Tile.TEMPLE},  # R2: 8 types x 5
        Tile.FUNERAL: 2,
        Tile.DROUGHT: 2,
        Tile.UNREST: 4,
        Tile.EARTHQUAKE: 2,
    }
)
FULL_BAG: tuple[int, ...] = tuple(BAG_COUNTS[t] for t in Tile)
TOTAL_TILES = sum(FULL_BAG)  # 180
EMPTY: tuple[int, ...] = (0,) * NUM_KINDS

CIVILIZATIONS: tuple[Tile, ...] = tuple(t for t in Tile if Tile.ART <= t <= Tile.WRITING)
MONUMENTS: tuple[Tile, ...] = tuple(t for t in Tile if Tile.FORTRESS <= t <= Tile.TEMPLE)
DISASTERS: tuple[Tile, ...] = (Tile.FUNERAL, Tile.DROUGHT, Tile.UNREST, Tile.EARTHQUAKE)

#: R4/R51: the tiles each disaster destroys. Drought takes floods before niles (R52).
DISASTER_TARGETS: Mapping[Tile, tuple[Tile, ...]] = MappingProxyType(
    {
        Tile.FUNERAL: (Tile.PHARAOH,),
        Tile.DROUGHT: (Tile.FLOOD, Tile.NILE),
        Tile.UNREST: CIVILIZATIONS,
        Tile.EARTHQUAKE: MONUMENTS,
    }
)

#: R60: kinds discarded after every epoch's scoring (pharaohs, niles and monuments stay).
DISCARDED_AFTER_EPOCH: frozenset[Tile] = frozenset((Tile.GOD, Tile.GOLD, Tile.FLOOD, *CIVILIZATIONS))


def counts(tiles: dict[Tile, int] | None = None) -> tuple[int, ...]:
    """Return a count tuple from a ``{Tile: n}`` mapping (missing kinds are 0)."""
    out = [0] * NUM_KINDS
    for tile, n in (tiles or {}).items():
        out[Tile(tile)] += n
    return tuple(out)


def as_dict(count_tuple: tuple[int, ...]) -> dict[Tile, int]:
    """Return the non-zero entries of a count tuple as ``{Tile: n}``, in tile order."""
    return {Tile(i): n for i, n in enumerate(count_tuple) if n}


def describe(count_tuple: tuple[int, ...]) -> str:
    """Return a count tuple as text, e.g. ``'pharaoh 2, gold 1'`` (``'-'`` when empty)."""
    parts = [f"{Tile(i).label} {n}" for i, n in enumerate(count_tuple) if n]
    return ", ".join(parts) or "-"
