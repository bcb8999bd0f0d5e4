"""Reading a played game: every auction it held, with its bids, winner and lot.

A game record stores actions only; the auctions are what an auction-theory class wants to
look at (who bid what, in which order, for which lot, and what the winner got). `auctions`
replays the actions once and returns one `AuctionResult` per auction, in order.

>>> from ra_core.bots import heuristic_bot
>>> from ra_core.play import play_game
>>> record = play_game([heuristic_bot] * 3, seed=4)
>>> a = record.auctions()[3]
>>> a.trigger.name, a.ra_player, a.order, a.bids, a.winner, a.sun, a.center_sun
('CALL_VOLUNTARY', 0, (1, 2, 0), (7, None, 9), 0, 9, 8)
>>> [t.label for t in a.lot]
['drought', 'fortress', 'religion', 'step-pyramid', 'fortress', 'religion', 'nile']
>>> list(record.states())[a.step] == a.opening
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from ..engine.actions import Action, Bid, parse_action
from ..engine.state import State, Trigger
from ..engine.tiles import Tile

__all__ = ["AuctionResult", "auctions"]


class AuctionResult(NamedTuple):
    """One auction of a game, from its opening to its last bid or pass (R35-R46).

    Attributes:
        step: the index of `opening` in the game's states (``record.states()``), the start being 0.
        opening: the position as the auction opened, before anyone bid.
        epoch: the epoch it was held in.
        trigger: why it was held: a drawn Ra tile, Ra called, or Ra called on a full track (R35).
        ra_player: whose action started it; he bids last (R38).
        order: the bidders in bidding order (R37, R38).
        bids: what each bidder in `order` did: a sun, or None for a pass (R39, R40).
        winner: the seat that won the lot, or None if everybody passed (R41, R42).
        sun: the winning sun, or None.
        center_sun: the sun on the center space, which the winner took face down (R46).
        lot: the tiles on the auction track, left to right (R41).
    """

    step: int
    opening: State
    epoch: int
    trigger: Trigger
    ra_player: int
    order: tuple[int, ...]
    bids: tuple[int | None, ...]
    winner: int | None
    sun: int | None
    center_sun: int
    lot: tuple[Tile, ...]


def auctions(start: State, actions: Iterable[Action | str]) -> list[AuctionResult]:
    """Return every auction held while `actions` are applied from `start`, in order.

    An auction still running after the last action is not included.
    """
    return list(_auctions(start, actions))


def _auctions(state: State, actions: Iterable[Action | str]) -> Iterator[AuctionResult]:
    opening: tuple[int, State] | None = None  # where the running auction opened
    for step, action in enumerate(actions):
        if isinstance(action, str):
            action = parse_action(action)
        running = state.auction
        if running is not None and opening is None:  # an auction runs only in phase BID
            opening = (step, state)
        after = state.apply(action)
        if running is not None and opening is not None and after.auction is None:  # its last bid or pass
            when, first = opening
            bids = running.bids + (action.sun if isinstance(action, Bid) else None,)
            sun = max((b for b in bids if b is not None), default=None)
            yield AuctionResult(
                step=when,
                opening=first,
                epoch=first.epoch,
                trigger=running.trigger,
                ra_player=running.ra_player,
                order=running.order,
                bids=bids,
                winner=None if sun is None else running.order[bids.index(sun)],
                sun=sun,
                center_sun=first.center_sun,
                lot=tuple(t for t in first.track if t is not None),
            )
            opening = None
        state = after
