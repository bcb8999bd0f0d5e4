"""Setting up a game (R9-R16): the rules, the sun groups dealt to the seats, the first player.

>>> s = new_game(4, suns="table")     # the rulebook's table order; a seed or nothing deals by chance
>>> [p.suns_up for p in s.players], s.to_move
([(2, 6, 13), (3, 7, 12), (4, 8, 11), (5, 9, 10)], 0)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import MappingProxyType
from typing import Literal

from .records import Phase, Player
from .rules import CENTER_SUN_START, STARTING_FAME, Rules
from .state import State
from .tiles import EMPTY, FULL_BAG
from .transitions import EMPTY_TRACK
from .turns import highest_sun_holder, turn_actions

__all__ = ["deal", "lone_surrogate", "new_game"]

_DEFAULT_RULES = MappingProxyType({n: Rules.default(n) for n in range(2, 6)})  # immutable, so shared by all games


def deal(rules: Rules, rng: random.Random) -> list[tuple[int, ...]]:
    """Return the sun groups in seat order, shuffled by `rng` (R11).

    A Fisher-Yates shuffle that uses only ``rng.random()``, whose numbers are the same in every
    Python version and in Pyodide (``random.shuffle`` is not promised to be).
    """
    groups = [tuple(sorted(g)) for g in rules.sun_groups]
    for i in range(len(groups) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        groups[i], groups[j] = groups[j], groups[i]
    return groups


def new_game(
    players: int,
    *,
    seed: int | str | None = None,
    rules: Rules | None = None,
    suns: Sequence[Sequence[int]] | Literal["table"] | None = None,
) -> State:
    """Return the start of a game (R9-R16).

    Args:
        players: 2 to 5.
        seed: decides which player gets which sun group (R11); without a seed (and without
            `suns`) the groups are dealt by chance, from the operating system's randomness.
        rules: the rules in force; the default is `Rules.default(players)`.
        suns: the suns of each seat, overriding `seed`; each must be one of the rules' groups.
            ``"table"``: seat i gets group i of the rules' table, as in the rulebook's examples.
    """
    rules = rules or _DEFAULT_RULES.get(players) or Rules.default(players)  # the last one raises a clear error
    if rules.players != players:
        raise ValueError(f"rules {rules.name!r} are for {rules.players} players, not {players}")
    if isinstance(suns, str):
        if suns != "table":
            raise ValueError(f"suns: expected each seat's suns or 'table', got {suns!r:.40}")
        groups = [tuple(sorted(g)) for g in rules.sun_groups]
    elif suns is not None:
        chosen = [tuple(sorted(g)) for g in suns]
        if sorted(chosen) != sorted(tuple(sorted(g)) for g in rules.sun_groups):
            raise ValueError(f"suns: each seat needs one of the sun groups {rules.sun_groups}, got {list(suns)}")
        groups = chosen
    else:
        if seed is not None and type(seed) not in (int, str):
            raise TypeError(f"seed: expected an integer or a text, got {type(seed).__name__}")
        if type(seed) is str and lone_surrogate(seed):
            bad = lone_surrogate(seed)
            raise ValueError(f"seed: a seed text must be valid Unicode, not hold the lone surrogate {bad}")
        groups = deal(rules, random.Random(seed if seed is not None else random.SystemRandom().random()))
    seats = tuple([Player(g, (), EMPTY, STARTING_FAME) for g in groups])  # suns up, none down, no tiles (R10, R13)
    first = highest_sun_holder(seats)
    return State(
        rules=rules,
        epoch=1,
        phase=Phase.ACTION,
        turn_player=first,
        to_move=first,
        bag=FULL_BAG,
        ra_count=0,
        track=EMPTY_TRACK,
        center_sun=CENTER_SUN_START,
        players=seats,
        auction=None,
        discard=None,
        box=EMPTY,
        scores=(),
        choices=turn_actions(seats[first], EMPTY_TRACK, FULL_BAG, rules),
    )


def lone_surrogate(text: str) -> str:
    """Return the first character of `text` that UTF-8 cannot encode, as Python writes it, or "".

    That is a lone surrogate, which a JSON escape can make: such a text cannot seed a stream.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        return ascii(text[e.start])
    return ""
