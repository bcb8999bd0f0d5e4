"""Auctions: who bids in which order and which bids are legal (R35-R40).

These are pure functions of the players and the auction; `ra_core.engine.transitions` calls them to move
from one state to the next, and gives the lot to the winner (`ra_core.engine.transitions.win`, R41-R46).
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import BIDS, PASS, Bid, Pass
from .records import Player, Trigger

__all__ = ["bid_choices", "bid_order"]


def bid_order(players: Sequence[Player], ra_player: int) -> tuple[int, ...]:
    """Return the bidders: everyone with a face-up sun, left of the Ra player first, Ra player last (R37, R38)."""
    seats = SEATS_AFTER[len(players)][ra_player]
    for player in players:  # plain loops: cheaper than comprehensions here
        if not player.suns_up:
            break
    else:
        return seats  # the usual case: everybody still has a face-up sun
    order: tuple[int, ...] = ()
    for q in seats:
        if players[q].suns_up:
            order += (q,)
    return order


def bid_choices(
    seat: int, suns_up: tuple[int, ...], trigger: Trigger, ra_player: int, high_bid: int, high_bidder: int
) -> tuple[Pass | Bid, ...]:
    """Return the choices of `seat`, holding `suns_up`, in an auction: pass, and each face-up sun above the high bid.

    R39: a bid must beat the high bid; the first bid may be any sun (it is not compared with the
    center sun).
    """
    must = seat == ra_player and high_bidder < 0 and trigger is _VOLUNTARY  # R40: the caller when all passed
    try:
        row = _CHOICES[suns_up]
    except KeyError:  # the first auction of these face-up suns
        row = _CHOICES[suns_up] = [None] * (2 * _SUNS)
    i = high_bid + _SUNS if must else high_bid
    choices = row[i]
    if choices is None:
        bids = tuple([_BID_FOR_SUN[sun] for sun in suns_up if sun > high_bid])
        choices = row[i] = bids if must else (PASS, *bids)
    return choices


#: The choices by face-up suns, then by high bid (+ `_SUNS` when he must bid): the same few
#: hundred come up in every game, so each is worked out once (two look-ups are several times
#: cheaper than the loop, and this runs at every bid).
_CHOICES: dict[tuple[int, ...], list[tuple[Pass | Bid, ...] | None]] = {}
_SUNS = 17  # suns are numbered 1-16; a high bid of 0 means no bid yet


_VOLUNTARY = Trigger.CALL_VOLUNTARY
_BID_FOR_SUN: tuple[Bid, ...] = tuple(BIDS[max(sun, 1)] for sun in range(_SUNS))  # index = sun
#: SEATS_AFTER[n][p]: the n seats clockwise from the left of p, ending with p (R20, R38).
SEATS_AFTER: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple((p + i) % n for i in range(1, n + 1)) for p in range(n)) for n in range(6)
)
