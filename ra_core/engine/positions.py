"""Positions in one call: the starts S2-S5 of docs/rules.md and short scenarios built on them.

A scenario names only what differs from a start: the displays, the track, whose turn it is, the
epoch. Everything else gets `State.from_dict`'s defaults (the bag holds every tile not placed
elsewhere, the holder of the highest sun is to move), and every invariant is checked.

>>> s = position(4, track=["gold", "_", "nile"], displays={1: {"god": 1}}, turn_player=1)
>>> [str(a) for a in s.legal_actions()], [t.label for t in s.lot]
(['draw', 'ra', 'god 1', 'god 3'], ['gold', 'nile'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from .rules import Rules
from .state import State

__all__ = ["STARTS", "position"]

#: The starts S2-S5 (docs/rules.md §3): each seat's face-up suns, seat i holding group i of R11.
STARTS: Mapping[int, tuple[tuple[int, ...], ...]] = MappingProxyType(
    {
        2: ((9, 6, 5, 2), (8, 7, 4, 3)),
        3: ((13, 8, 5, 2), (12, 9, 6, 3), (11, 10, 7, 4)),
        4: ((13, 6, 2), (12, 7, 3), (11, 8, 4), (10, 9, 5)),
        5: ((16, 7, 2), (15, 8, 3), (14, 9, 4), (13, 10, 5), (12, 11, 6)),
    }
)


def position(
    players: int | Sequence[Sequence[int] | Mapping[str, Any]] = 4,
    *,
    displays: Mapping[int, Mapping[str, int]] | None = None,
    track: Sequence[str | None] = (),
    rules: Rules | None = None,
    strict: bool = True,
    **fields: Any,
) -> State:
    """Return the position of a scenario, checked like any saved position.

    Args:
        players: a number of players (the start S2-S5), or one entry per seat: its face-up suns,
            or a player object of the ``ra-state/1`` schema (``suns_up``, ``suns_down``,
            ``display``, ``fame``).
        displays: seat -> tile counts, e.g. ``{1: {"god": 1}}``.
        track: tile names from slot 1; ``"_"`` or None leaves a slot empty.
        rules: the rules in force (default: `Rules.default` for the number of players).
        strict: False for teaching positions no real game reaches (see `State.from_dict`).
        **fields: any other field of the schema: ``turn_player``, ``epoch``, ``ra_count``, ...

    Raises:
        InvalidStateError: the scenario is not a possible position; the field is named.
    """
    seats = STARTS.get(players, ()) if isinstance(players, int) else players
    if isinstance(players, int) and not seats:
        raise ValueError(f"players: Ra is for 2 to 5 players, got {players}")
    data_players: list[dict[str, Any]] = [dict(p) if isinstance(p, Mapping) else {"suns_up": list(p)} for p in seats]
    for seat, shown in (displays or {}).items():
        data_players[seat]["display"] = dict(shown)
    data: dict[str, Any] = {"players": data_players, "track": [None if t in (None, "_") else t for t in track]}
    if rules is not None:
        data["rules"] = rules.to_dict()
    return State.from_dict({**data, **fields}, strict=strict)
