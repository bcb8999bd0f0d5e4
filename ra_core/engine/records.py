"""The small immutable records a position is made of: players, a running auction, a pending discard.

`ra_core.engine.state.State` holds these. They are named tuples: typed (mypy checks every field
at every construction), immutable, and cheap to build, which matters because the engine makes a
new one at almost every step. The enums say what the game waits for (`Phase`), why an auction
is held (`Trigger`) and what a disaster interrupted (`Resume`).
"""

from __future__ import annotations

import enum
from typing import NamedTuple, TypeAlias

from .tiles import Tile

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Auction",
    "AuctionFields",
    "Breakdown",
    "BreakdownFields",
    "EpochScore",
    "PendingDiscard",
    "Phase",
    "Player",
    "PlayerFields",
    "Resume",
    "Trigger",
]

CHANCE = -1  # `State.to_move` at a chance node, as in OpenSpiel
TERMINAL = -4  # `State.to_move` once the game is over, as in OpenSpiel


class Phase(enum.Enum):
    """What the game is waiting for."""

    ACTION = "action"  # the turn player: draw, call Ra, or use a god (R18)
    REVEAL = "reveal"  # chance: which tile comes out of the bag (R22)
    GODS = "gods"  # the turn player used a god and may use another, or be done (R26, R29)
    BID = "bid"  # an auction: the player to move bids a sun or passes (R38-R40)
    DISCARD = "discard"  # a disaster: the player chooses which tiles to lose (R53)
    GAME_OVER = "game_over"  # epoch 3 has been scored (R62)


class Trigger(enum.Enum):
    """Why an auction is held; it decides who may pass and what an all-pass does (R35, R40, R42)."""

    RA_TILE = "ra_tile"  # a drawn Ra tile that did not end the epoch
    CALL_VOLUNTARY = "call_voluntary"  # Ra called with fewer than 8 tiles on the track
    CALL_FORCED = "call_forced"  # Ra called with the track full


class Resume(enum.StrEnum):
    """What a disaster choice interrupted, so what goes on once the tiles are chosen (R29, R45).

    A string enum, so a saved game's "auction" or "gods" compares equal to its member.
    """

    AUCTION = "auction"  # the winner of an auction lost tiles: the auction ends, the turn passes (R44)
    GODS = "gods"  # a god took a disaster: the god turn goes on (R28, R29)


class Player(NamedTuple):
    """One player's holdings.

    Attributes:
        suns_up: face-up suns, ascending; only these can be bid (R39, R47).
        suns_down: face-down suns won this epoch, ascending (R41).
        display: tile counts indexed by `Tile` (R1).
        fame: the fame total (R6, R13).
    """

    suns_up: tuple[int, ...]
    suns_down: tuple[int, ...]
    display: tuple[int, ...]
    fame: int

    @property
    def suns(self) -> tuple[int, ...]:
        """Return all suns this player owns, face up or down, ascending (R71, R73)."""
        if not self.suns_down:
            return self.suns_up
        return tuple(sorted(self.suns_up + self.suns_down))


#: `Player`'s fields in order, as the type of a plain tuple: the engine's hot path builds a
#: player from one with mypy checking every field (see `ra_core.engine.state.StateFields`).
PlayerFields: TypeAlias = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]


class Auction(NamedTuple):
    """A running auction: who bids in which order, what each did, and the high bid so far.

    Attributes:
        trigger: why it is held (R35).
        ra_player: the player whose action started it; bids last (R38).
        order: the bidders in bidding order, left of the Ra player first (R37, R38).
        bids: what each bidder in `order` did so far: a sun, or None for a pass.
        high_bid: the highest sun bid so far, 0 if none (R39).
        high_bidder: who bid it, -1 if nobody.
    """

    trigger: Trigger
    ra_player: int
    order: tuple[int, ...]
    bids: tuple[int | None, ...] = ()
    high_bid: int = 0
    high_bidder: int = -1

    @property
    def still_to_bid(self) -> tuple[int, ...]:
        """Return the players who have not had their one chance to bid yet, in order."""
        return self.order[len(self.bids) :]


#: `Auction`'s fields in order, as the type of a plain tuple (see `PlayerFields`).
AuctionFields: TypeAlias = tuple[Trigger, int, tuple[int, ...], tuple[int | None, ...], int, int]


class PendingDiscard(NamedTuple):
    """Tiles a player owes to disasters and chooses himself (R50, R53).

    Attributes:
        player: who loses the tiles.
        owed: ``(disaster, how many tiles)`` per disaster kind still to choose, in order.
        after: what goes on once every choice is made (`Resume`).
    """

    player: int
    owed: tuple[tuple[Tile, int], ...]
    after: Resume


class Breakdown(NamedTuple):
    """One player's points in one epoch, by category, and the fame before and after (R63-R72).

    The first seven fields are the scoring categories, in the order of `ra_core.engine.scoring.CATEGORIES`
    (`points` returns them; `ra_core.pictures.words.CATEGORY_WORDS` names them).
    """

    god: int
    pharaoh: int
    river: int
    civilization: int
    gold: int
    monument: int
    sun: int
    fame_before: int
    fame_after: int

    @property
    def points(self) -> tuple[int, int, int, int, int, int, int]:
        """Return the seven category points, in `CATEGORIES` order."""
        return (self.god, self.pharaoh, self.river, self.civilization, self.gold, self.monument, self.sun)

    @property
    def net(self) -> int:
        """Return the sum of the categories (before the fame floor of R69)."""
        return sum(self.points)


#: `Breakdown`'s fields in order, as the type of a plain tuple (see `PlayerFields`).
BreakdownFields: TypeAlias = tuple[int, int, int, int, int, int, int, int, int]


class EpochScore(NamedTuple):
    """The scoring of one epoch: a `Breakdown` per player."""

    epoch: int
    players: tuple[Breakdown, ...]
