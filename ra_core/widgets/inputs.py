"""Reading what a widget (or a student at a cell) hands a controller: numbers and tile names.

Controllers never raise into a notebook: they turn anything they cannot use into a short
message and change nothing. These readers say what was wrong in words a student understands;
a value's description is cut short, so that a huge or deeply nested value cannot flood the
message (or overflow `repr`).
"""

from __future__ import annotations

import math
import reprlib
from typing import Any

from ..engine.tiles import Tile

__all__ = ["describe_value", "tile_kind", "whole_number"]

_repr = reprlib.Repr()
_repr.maxstring = 30
_repr.maxother = 30
_repr.maxlevel = 2


def describe_value(value: Any) -> str:
    """Return a short description of `value` for a message (a short text as it is)."""
    if isinstance(value, str):
        return value if len(value) <= 40 else value[:37] + "..."
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    return _repr.repr(value)


def whole_number(value: Any, name: str, low: int, high: int) -> int:
    """Return `value` as an int in low..high; raise ValueError saying what `name` must be.

    An int (not a bool) or a float with no fraction (a slider may send 3.0) is accepted.
    """
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}, not {describe_value(value)}")
    return value


def tile_kind(value: Any) -> Tile:
    """Return the tile kind named by `value` (a `Tile` or its name, e.g. "gold"); raise ValueError otherwise."""
    if isinstance(value, Tile):
        return value
    if isinstance(value, str) and len(value) <= 30:
        return Tile.from_label(value)
    raise ValueError(f"expected a tile name such as 'gold', not {describe_value(value)}")
