"""Auctions: who bids in which order, which bids are legal, and what the winner gets (R35-R46).

These are pure functions of the players and the auction; `ra_core.game` calls them to move
from one state to the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from .state import Auction, Player, Trigger
from .tiles import Tile

__all__ = ["bid_order", "legal_bids", "may_pass", "start", "win"]


def bid_order(players: Sequence[Player], ra_player: int) -> tuple[int, ...]:
    """Return the bidders: everyone with a face-up sun, left of the Ra player first, Ra player last (R37, R38)."""
    n = len(players)
    return tuple([q for q in _SEATS_AFTER[n][ra_player] if players[q].suns_up])


def start(players: Sequence[Player], ra_player: int, trigger: Trigger) -> Auction:
    """Return a new auction started by `ra_player` for the reason `trigger` (R35)."""
    return _tuple_new(Auction, (trigger, ra_player, bid_order(players, ra_player), (), 0, -1))


def may_pass(auction: Auction, player: int) -> bool:
    """Return whether `player` may pass: not if he called Ra voluntarily and nobody else bid (R40)."""
    return not (auction.trigger is Trigger.CALL_VOLUNTARY and player == auction.ra_player and auction.high_bidder < 0)


def legal_bids(auction: Auction, player: Player) -> list[int]:
    """Return the face-up suns `player` may bid: those above the high bid; the first bid may be any (R39)."""
    return [s for s in player.suns_up if s > auction.high_bid]


def win(player: Player, sun: int, center_sun: int, lot: Sequence[Tile | None]) -> tuple[Player, list[Tile]]:
    """Return the winner after taking the lot and swapping `sun` for the center sun, and the lot's disasters.

    The lot's tiles go to the display (R41); the winning sun goes to the center face up and the
    old center sun comes face down (R46). The disasters returned are resolved next (R55).
    """
    display = list(player.display)
    disasters = []
    for t in lot:
        if t is None:
            continue
        if t < _FUNERAL:
            display[t] += 1
        else:
            disasters.append(t)
    suns_up = tuple([s for s in player.suns_up if s != sun])
    suns_down = tuple(sorted((*player.suns_down, center_sun)))
    return _tuple_new(Player, (suns_up, suns_down, tuple(display), player.fame)), disasters


_FUNERAL = Tile.FUNERAL
_tuple_new = tuple.__new__
#: _SEATS_AFTER[n][p]: the seats clockwise from the left of p, ending with p (R38).
_SEATS_AFTER = MappingProxyType(
    {n: tuple(tuple((p + i) % n for i in range(1, n + 1)) for p in range(n)) for n in range(2, 6)}
)
