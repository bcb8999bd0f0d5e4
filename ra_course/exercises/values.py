"""Answers rebuilt from Python's own types, so that no code of the student's runs while a check compares.

An answer is an int, a float, a `Fraction`, a string, tuples and dicts of these, or one of the
engine's actions or tiles (`plain`); an object that says it equals anything is no answer.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ra_core.engine.actions import Bid, CallRa, Discard, Done, Draw, Pass, Reveal, UseGod
from ra_core.engine.tiles import Tile

from .verdicts import Wrong, not_plain

__all__ = ["is_number", "plain"]

_ACTIONS: dict[type, tuple[str, ...]] = {
    Draw: (),
    CallRa: (),
    Done: (),
    Pass: (),
    Bid: ("sun",),
    UseGod: ("slot",),
    Reveal: ("tile",),
    Discard: ("tiles",),
}


def plain(value: Any, what: str = "the answer") -> Any:
    """Return `value` rebuilt from Python's own types, so that no code of the student's runs when it is compared.

    Numbers become an `int`, a `float` or a `Fraction` (a subclass gives its plain value; a bool
    stays a bool), strings a `str`, lists and tuples a tuple, dicts a dict, an engine action a
    new action of the same kind and fields, a `Tile` the tile. Anything else raises `Wrong`:
    an object that claims to equal everything is not an answer.

    >>> plain([1, 2.5, Fraction(1, 3)]), plain({"a": (True,)})
    ((1, 2.5, Fraction(1, 3)), {'a': (True,)})
    """
    kind = type(value)
    if kind is bool or kind is int or kind is float or kind is str or kind is Fraction:
        return value if kind is not Fraction else Fraction(value.numerator, value.denominator)
    if kind is Tile:
        return Tile(int.__int__(value))
    if kind in _ACTIONS:
        return kind(*(plain(getattr(value, field), what) for field in _ACTIONS[kind]))
    mro = kind.__mro__
    if int in mro and bool not in mro and Tile not in mro:
        return int.__int__(value)
    if float in mro:
        return float.__float__(value)
    if str in mro:
        return str.__str__(value)
    if tuple in mro or list in mro:
        items = tuple.__iter__(value) if tuple in mro else list.__iter__(value)
        return tuple(plain(v, what) for v in items)
    if dict in mro:
        return {plain(k, what): plain(v, what) for k, v in dict.items(value)}
    raise Wrong(not_plain(what, kind.__name__))


def is_number(value: Any) -> bool:
    """Return whether `value` (rebuilt by `plain`) is an int, a float or a Fraction, not a bool."""
    kind = type(value)
    return kind is int or kind is float or kind is Fraction
