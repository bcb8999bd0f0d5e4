"""The one list of round kinds: every other module asks it, never a kind's name.

The built-in kinds come first (a module of one's own may register more: `load`):

>>> [k.name for k in kinds()][:6]
['first', 'second', 'allpay', 'common', 'ra', 'lottery']
>>> kind("second").title
'Second-price sealed bid'
>>> kind("nosuch")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: kind must be one of first, second, allpay, common, ra, lottery..., got 'nosuch'
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from .base import Kind
from .clocks import DUTCH, ENGLISH
from .common import COMMON
from .lottery import LOTTERY
from .ra import RA
from .sealed import ALLPAY, FIRST, SECOND

__all__ = ["TITLES", "kind", "kinds", "load", "register", "titles", "unregister"]

_KINDS: dict[str, Kind] = {}


def register(new: Kind) -> Kind:
    """Add a kind to the registry (replacing one of the same name); return it.

    Raises:
        ValueError: a name that is empty or longer than 10 characters, or a play that is unknown.
    """
    if not new.name or len(new.name) > 10 or not new.name.isidentifier():
        raise ValueError(f"a kind's name is a word of 1 to 10 characters, got {new.name!r:.40}")
    if new.play not in ("groups", "tables"):
        raise ValueError(f"a kind plays in 'groups' or at 'tables', got {new.play!r:.40}")
    _KINDS[new.name] = new
    return new


def load(modules: str) -> list[str]:
    """Import each module named in `modules` (comma-separated), each registering its kinds; return the new kinds' names.

    So a kind of one's own, in a module of one's own, joins the server without a change to any
    other module: ``python -m ra_classroom serve --kinds mycourse.kinds``.

    Raises:
        ValueError: a module that cannot be imported.
    """
    before = set(_KINDS)
    for name in (m.strip() for m in modules.split(",")):
        if not name:
            continue
        try:
            importlib.import_module(name)
        except ImportError as e:
            raise ValueError(f"the kinds' module {name!r:.80} cannot be imported: {e}") from None
    return [k for k in _KINDS if k not in before]


def unregister(name: str) -> None:
    """Take a kind out of the registry (a test's own kind, once the test is done)."""
    _KINDS.pop(name, None)


def kind(name: object) -> Kind:
    """Return the kind called `name`; raise ValueError listing the kinds if there is none."""
    found = _KINDS.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f"kind must be one of {', '.join(_KINDS)}, got {name!r:.40}")
    return found


def kinds() -> list[Kind]:
    """Return every kind, in the order they were registered."""
    return list(_KINDS.values())


def titles() -> dict[str, str]:
    """Return each kind's name and title."""
    return {k.name: k.title for k in _KINDS.values()}


class _Titles(Mapping[str, str]):
    """Each kind's name and title, read from the registry at each use (kinds registered later too)."""

    def __getitem__(self, name: str) -> str:
        return _KINDS[name].title

    def __iter__(self) -> Iterator[str]:
        return iter(list(_KINDS))

    def __len__(self) -> int:
        return len(_KINDS)

    def __repr__(self) -> str:
        return repr(titles())


TITLES: Mapping[str, str] = _Titles()  #: each kind's name and its title, as the registry holds them now


for _builtin in (FIRST, SECOND, ALLPAY, COMMON, RA, LOTTERY, ENGLISH, DUTCH):
    register(_builtin)
