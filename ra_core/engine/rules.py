"""The rules in force for one game: sun groups, Ra-track length and the options D1-D9.

A `Rules` object is immutable, printable and saved with every game record, so a game
played under the 2-player "exciting" variant replays under exactly those rules.

>>> print(Rules.classic(4))
Rules 'classic' for 4 players
  sun groups: 13-6-2, 12-7-3, 11-8-4, 10-9-5 (center sun 1)
  Ra tiles ending an epoch: 9
  god can take a disaster: yes
  fame floor at 0: yes
  tie-break: highest_sun
  2-player no-penalty: off
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from .tiles import FULL_BAG, Tile

CENTER_SUN_START = 1  # R12
STARTING_FAME = 10  # R13
EPOCHS = 3  # R62
TRACK_SIZE = 8  # R7

#: R11: the starting sun groups for 3-5 players.
CLASSIC_SUN_GROUPS: Mapping[int, tuple[tuple[int, ...], ...]] = MappingProxyType(
    {
        3: ((13, 8, 5, 2), (12, 9, 6, 3), (11, 10, 7, 4)),
        4: ((13, 6, 2), (12, 7, 3), (11, 8, 4), (10, 9, 5)),
        5: ((16, 7, 2), (15, 8, 3), (14, 9, 4), (13, 10, 5), (12, 11, 6)),
    }
)
#: R15: the Ra tile that ends an epoch, for 3-5 players.
CLASSIC_RA_LIMIT = MappingProxyType({3: 8, 4: 9, 5: 10})
#: D5: the three 2-player sun-group options; "b" (Razzia!, checked by the designer) is the default.
TWO_PLAYER_SUN_GROUPS: Mapping[str, tuple[tuple[int, ...], ...]] = MappingProxyType(
    {
        "a": ((9, 6, 4, 2), (8, 7, 5, 3)),
        "b": ((9, 6, 5, 2), (8, 7, 4, 3)),
        "c": ((9, 6, 4, 3), (8, 7, 5, 2)),
    }
)
TIE_BREAKS = ("highest_sun", "highest_sun_sum")  # D1
NO_PENALTY_SCOPES = ("final", "all_epochs")  # D9


@dataclasses.dataclass(frozen=True)
class Rules:
    """The rules of one game.

    Attributes:
        name: the preset this came from ("classic", "two-player") or a name of your own.
        sun_groups: the starting groups of suns, one per player (R11, D5); with the
            center sun 1 they must be exactly the suns 1..N.
        ra_limit: the Ra tile whose drawing ends an epoch (R15, D6).
        god_can_take_disaster: whether a god may take a disaster tile, which is then
            resolved at once (R28, D2).
        fame_floor: whether a fame total that would fall below 0 becomes 0 (R69, D4).
        tie_break: "highest_sun" (the tied player owning the highest single sun wins)
            or "highest_sun_sum" (the [ZH] reading) (R73, D1).
        no_penalty: the 2-player option that drops the -2 pharaoh and -5 sun
            penalties (D9).
        no_penalty_scope: "final" (epoch 3 only) or "all_epochs" (D9).
    """

    name: str
    sun_groups: tuple[tuple[int, ...], ...]
    ra_limit: int
    god_can_take_disaster: bool = True
    fame_floor: bool = True
    tie_break: str = "highest_sun"
    no_penalty: bool = False
    no_penalty_scope: str = "final"

    def __post_init__(self) -> None:
        self._check_types()
        groups = tuple(tuple(sorted(g, reverse=True)) for g in self.sun_groups)
        object.__setattr__(self, "sun_groups", groups)
        n = len(groups)
        if not 2 <= n <= 5:
            raise ValueError(f"sun_groups: Ra is for 2 to 5 players, got {n} groups")
        if len({len(g) for g in groups}) != 1:
            raise ValueError(f"sun_groups: every player needs the same number of suns, got {groups}")
        suns = sorted([CENTER_SUN_START, *(s for g in groups for s in g)])
        if suns != list(range(1, len(suns) + 1)):
            raise ValueError(
                f"sun_groups: with the center sun {CENTER_SUN_START} the suns must be 1..N, each once; got {groups}"
            )
        most = FULL_BAG[Tile.RA] // EPOCHS  # every epoch must be able to end on its Ra tiles (R25)
        if not 1 <= self.ra_limit <= most:
            raise ValueError(
                f"ra_limit: must be between 1 and {most} ({FULL_BAG[Tile.RA]} Ra tiles, {EPOCHS} epochs), "
                f"got {self.ra_limit}"
            )
        if self.tie_break not in TIE_BREAKS:
            raise ValueError(f"tie_break: must be one of {TIE_BREAKS}, got {self.tie_break!r}")
        if self.no_penalty and n != 2:
            raise ValueError(
                f"no_penalty: the no-penalty option is part of the 2-player variant (D9), not for {n} players"
            )
        if self.no_penalty_scope not in NO_PENALTY_SCOPES:
            raise ValueError(f"no_penalty_scope: must be one of {NO_PENALTY_SCOPES}, got {self.no_penalty_scope!r}")

    def _check_types(self) -> None:
        """Raise TypeError for a field of the wrong type (a bool is not a number, a number not a bool)."""
        if type(self.name) is not str or not 0 < len(self.name) <= 40:
            raise TypeError(f"name: expected a text of 1-40 characters, got {self.name!r:.60}")
        groups = self.sun_groups
        if not isinstance(groups, (tuple, list)) or not all(
            isinstance(g, (tuple, list)) and all(type(s) is int for s in g) for g in groups
        ):
            raise TypeError(f"sun_groups: expected groups of integer suns, got {groups!r:.80}")
        if type(self.ra_limit) is not int:
            raise TypeError(f"ra_limit: expected an integer, got {self.ra_limit!r:.40}")
        for flag in ("god_can_take_disaster", "fame_floor", "no_penalty"):
            if type(getattr(self, flag)) is not bool:
                raise TypeError(f"{flag}: expected true or false, got {getattr(self, flag)!r:.40}")
        for text in ("tie_break", "no_penalty_scope"):
            if type(getattr(self, text)) is not str:
                raise TypeError(f"{text}: expected a text, got {getattr(self, text)!r:.40}")

    @property
    def players(self) -> int:
        """Return the number of players these rules are for."""
        return len(self.sun_groups)

    @property
    def max_sun(self) -> int:
        """Return the highest sun in play (9, 13 or 16; R10)."""
        return max(s for g in self.sun_groups for s in g)

    @classmethod
    def classic(cls, players: int, **options: Any) -> Rules:
        """Return the original rules for 3-5 players (R10, R11, R15), with `options` changed."""
        if players not in CLASSIC_SUN_GROUPS:
            raise ValueError(f"the classic rules are for 3-5 players, got {players}; use Rules.two_player()")
        return cls("classic", CLASSIC_SUN_GROUPS[players], CLASSIC_RA_LIMIT[players], **options)

    @classmethod
    def two_player(cls, groups: str = "b", ra_limit: int = 7, **options: Any) -> Rules:
        """Return the community 2-player variant: suns 1-9, sun groups option a/b/c, Ra limit 7 or 6."""
        if groups not in TWO_PLAYER_SUN_GROUPS:
            raise ValueError(f"groups: the 2-player sun groups are 'a', 'b' or 'c', got {groups!r}")
        if ra_limit not in (6, 7):
            raise ValueError(f"ra_limit: the 2-player variant ends an epoch on the 7th or 6th Ra, got {ra_limit}")
        return cls("two-player", TWO_PLAYER_SUN_GROUPS[groups], ra_limit, **options)

    @classmethod
    def default(cls, players: int) -> Rules:
        """Return the engine default for `players`: classic for 3-5, the 2-player variant for 2."""
        return cls.two_player() if players == 2 else cls.classic(players)

    def penalties_apply(self, epoch: int) -> bool:
        """Return whether the -2 pharaoh and -5 sun penalties apply in `epoch` (D9)."""
        if not self.no_penalty:
            return True
        return self.no_penalty_scope == "final" and epoch < EPOCHS

    def to_dict(self) -> dict[str, Any]:
        """Return the rules as JSON-ready data."""
        data = dataclasses.asdict(self)
        data["sun_groups"] = [list(g) for g in self.sun_groups]
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Return the rules described by `data` (as written by `to_dict`)."""
        if not isinstance(data, dict):
            raise ValueError(f"rules: expected an object, got {type(data).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"rules: unknown field(s) {unknown}; known: {sorted(known)}")
        missing = sorted({"name", "sun_groups", "ra_limit"} - set(data))
        if missing:
            raise ValueError(f"rules: missing field(s) {missing}")
        groups = data["sun_groups"]
        if not isinstance(groups, list) or not all(isinstance(g, list) for g in groups):
            raise ValueError("rules.sun_groups: expected a list of lists of sun values")
        return cls(**{**data, "sun_groups": tuple(tuple(g) for g in groups)})

    def __str__(self) -> str:
        groups = ", ".join("-".join(map(str, g)) for g in self.sun_groups)
        penalty = f"on ({self.no_penalty_scope})" if self.no_penalty else "off"
        return "\n".join(
            [
                f"Rules {self.name!r} for {self.players} players",
                f"  sun groups: {groups} (center sun {CENTER_SUN_START})",
                f"  Ra tiles ending an epoch: {self.ra_limit}",
                f"  god can take a disaster: {'yes' if self.god_can_take_disaster else 'no'}",
                f"  fame floor at 0: {'yes' if self.fame_floor else 'no'}",
                f"  tie-break: {self.tie_break}",
                f"  2-player no-penalty: {penalty}",
            ]
        )
