"""Draw or call Ra when the other players act between your draws: a turn-aware stopping problem, solved exactly.

`ra_core.analysis.chance.draw_or_call` values drawing as if the mover drew again and again with nobody
else acting: that is the problem of the **lone player** of R21, who takes all the turns. In
every other position, after your draw each other player takes a turn before you draw again
(R18, R20), and any of them may call Ra on the lot. This module solves that problem exactly,
by dynamic programming over the tiles that can still join the lot and whose turn it is.

The model, every assumption stated:

* The mover is the turn player of `state`; his problem ends at the first auction (what happens
  after it is not priced).
* Turns go round the table in seat order, skipping players with no face-up sun (R17, R20).
* Every other player follows a stated `CallRule`: he calls Ra when the lot is worth at least
  ``at_least + per_free_slot * (empty auction slots)`` to him (`ra_core.analysis.valuation.lot_value`)
  and the track is not empty, and always on a full track (R19); otherwise he draws. Nobody
  uses a god.
* A drawn tile is uniform from the bag (R22): a non-Ra tile joins the lot (R23); a Ra tile that
  does not end the epoch starts an auction whose Ra player is the drawer (R24); the Ra tile
  that ends the epoch sends the lot to the box (R57, R59).
* Who takes the lot in an auction, by ``auction``: ``"ra_player"``, the Ra player, who bids last
  and sees every bid (R38); or ``"highest"``, the bidder who values the lot most, ties going
  to the later bidder (the Ra player bids last). The taker takes it even at a loss, as in the
  lone-player model.
* The mover's payoff is the lot's value to him if he takes it, else 0: the suns paid and
  received, and what a rival's lot does to him, are not priced.

The mover chooses optimally at each of his turns (backward induction); the value of drawing
is exact, a `Fraction`. `sample_payoff` plays the same model through the engine (the real bag,
the real turn order), so the exact values can be checked by simulation.

>>> from ra_core import State
>>> s = State.from_dict({"players": [{"suns_up": [13, 8, 5, 2]}, {"suns_up": [12, 9, 6, 3]},
...                                  {"suns_up": [11, 10, 7, 4]}], "track": ["gold"],
...                      "ra_count": 6, "bag": {"ra": 2, "gold": 1, "nile": 1}}, strict=False)
>>> answer = turn_aware_draw_or_call(s, rule=CallRule(at_least=3))
>>> answer.call, answer.draw, answer.best   # P1 would call on two golds: drawing risks the lot
(Fraction(3, 1), Fraction(3, 2), 'call')
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Literal, NamedTuple

from ..engine.state import Phase, State
from ..engine.tiles import Tile
from ..play import sample_chance
from .chance import draw_words, verdict
from .odds import ra_tiles_left
from .valuation import lot_value

__all__ = [
    "HEURISTIC_LIKE",
    "AuctionModel",
    "CallRule",
    "TurnAwareDrawOrCall",
    "bidding_order",
    "mover_policy",
    "sample_payoff",
    "taker",
    "turn_aware_draw_or_call",
]

_RA = int(Tile.RA)
_TILES = tuple(Tile)
_TRACK = 8  # auction spaces (R7)

AuctionModel = Literal["ra_player", "highest"]


class CallRule(NamedTuple):
    """When another player calls Ra: the lot is worth at least ``at_least + per_free_slot * empty slots`` to him.

    He never calls on an empty track and always calls on a full one (R19); otherwise he draws.
    ``CallRule(per_free_slot=1.5)`` is the heuristic bot's call rule with the lot's value
    (`lot_value`) in place of the bot's own appraisal (which also prices suns).
    """

    at_least: float = 0.0
    per_free_slot: float = 0.0

    def calls(self, value: int, tiles: int) -> bool:
        """Return whether a player calls Ra on a lot of `tiles` tiles worth `value` to him."""
        if tiles >= _TRACK:
            return True
        return tiles > 0 and value >= self.at_least + self.per_free_slot * (_TRACK - tiles)


HEURISTIC_LIKE = CallRule(per_free_slot=1.5)
"""The default rule of the other players: the heuristic bot's call rule, priced with `lot_value`."""


def taker(values: tuple[int, ...], ra_player: int, order: tuple[int, ...], auction: AuctionModel) -> int:
    """Return the seat that takes the lot: the Ra player, or the highest value (ties to the later bidder)."""
    if auction == "ra_player":
        return ra_player
    best = order[0]
    for seat in order[1:]:
        if values[seat] >= values[best]:
            best = seat
    return best


def bidding_order(seats: tuple[int, ...], ra_player: int) -> tuple[int, ...]:
    """Return `seats` (those who may bid) in bidding order: left of the Ra player first, the Ra player last (R38)."""
    i = seats.index(ra_player)
    return seats[i + 1 :] + seats[: i + 1]


@dataclasses.dataclass(frozen=True)
class TurnAwareDrawOrCall:
    """The mover's choice between calling Ra now and drawing, with the others acting between his draws.

    Attributes:
        player: the mover (the turn player).
        call: the value to him of calling Ra now.
        draw: the value of drawing now and then playing on optimally, or None on a full track (R19).
        rule: the other players' `CallRule`.
        auction: who takes the lot in an auction (``"ra_player"`` or ``"highest"``).
        seats: the turn order from the mover, players with no face-up sun left out (R17).
        positions: how many positions the dynamic programme solved.
    """

    player: int
    call: Fraction
    draw: Fraction | None
    rule: CallRule
    auction: AuctionModel
    seats: tuple[int, ...]
    positions: int

    @property
    def best(self) -> str:
        """Return ``"call"``, ``"draw"`` or ``"either"``."""
        return verdict(self.call, self.draw)

    def __str__(self) -> str:
        return (
            f"P{self.player}, others acting between his draws: call Ra now {self.call}, draw {draw_words(self.draw)};"
            f" {self.positions} positions solved; model says: {self.best}"
        )


class _Solver:
    """Backward induction over (tiles added to the lot, whose turn): exact values for the mover."""

    def __init__(self, state: State, rule: CallRule, auction: AuctionModel) -> None:
        if state.phase is not Phase.ACTION:
            raise ValueError(f"the mover must be the turn player (phase ACTION), not phase {state.phase.name}")
        if auction not in ("ra_player", "highest"):
            raise ValueError(f"auction must be 'ra_player' or 'highest', not {auction!r}")
        self.state, self.rule, self.auction = state, rule, auction
        self.mover = state.turn_player
        n = state.num_players
        order = [(self.mover + i) % n for i in range(n)]
        self.seats = tuple(p for p in order if state.players[p].suns_up)
        self.base = list(state.lot)
        self.last_ra = ra_tiles_left(state) == 1  # the next Ra tile ends the epoch (R57)
        self.worth: dict[tuple[tuple[int, ...], int], int] = {}
        self.memo: dict[tuple[tuple[int, ...], int], Fraction] = {}

    def value_of(self, added: tuple[int, ...], seat: int) -> int:
        key = (added, seat)
        v = self.worth.get(key)
        if v is None:
            lot = [*self.base, *(_TILES[i] for i in added)]
            v = self.worth[key] = lot_value(self.state, seat, lot)
        return v

    def auction_value(self, added: tuple[int, ...], ra_player: int) -> Fraction:
        """Return the mover's payoff when an auction on the lot opens with `ra_player` as Ra player."""
        order = bidding_order(self.seats, ra_player)
        values = [0] * self.state.num_players
        if self.auction == "highest":
            for seat in order:
                values[seat] = self.value_of(added, seat)
        winner = taker(tuple(values), ra_player, order, self.auction)
        return Fraction(self.value_of(added, self.mover)) if winner == self.mover else Fraction(0)

    def draw_value(self, added: tuple[int, ...], bag: tuple[int, ...], k: int) -> Fraction:
        """Return the mover's value when the player at `seats[k]` draws now."""
        total = sum(bag)
        if not total:
            return Fraction(0)  # no tile can come: the model's problem ends unpriced
        drawer = self.seats[k]
        nxt = (k + 1) % len(self.seats)
        acc = Fraction(0)
        for i, n in enumerate(bag):
            if not n:
                continue
            if i == _RA:
                acc += n * (0 if self.last_ra else self.auction_value(added, drawer))
            else:
                grown = tuple(sorted((*added, i)))
                acc += n * self.value(grown, bag[:i] + (n - 1,) + bag[i + 1 :], nxt)
        return acc / total

    def value(self, added: tuple[int, ...], bag: tuple[int, ...], k: int) -> Fraction:
        """Return the mover's value of the position where `seats[k]` is to act."""
        key = (added, k)
        v = self.memo.get(key)
        if v is not None:
            return v
        seat = self.seats[k]
        tiles = len(self.base) + len(added)
        full = tiles >= _TRACK or not sum(bag)
        call = self.auction_value(added, seat)
        if seat == self.mover:
            v = call if full else max(call, self.draw_value(added, bag, k))
        elif full or self.rule.calls(self.value_of(added, seat), tiles):
            v = call
        else:
            v = self.draw_value(added, bag, k)
        self.memo[key] = v
        return v

    def bag_after(self, added: tuple[int, ...]) -> tuple[int, ...]:
        bag = list(self.state.bag)
        for i in added:
            bag[i] -= 1
        return tuple(bag)

    def choice(self, added: tuple[int, ...]) -> str:
        """Return the mover's optimal action (``"draw"`` or ``"ra"``) at his turn with `added` on the lot."""
        bag = self.bag_after(added)
        if len(self.base) + len(added) >= _TRACK or not sum(bag):
            return "ra"
        return "draw" if self.draw_value(added, bag, 0) > self.auction_value(added, self.mover) else "ra"


def turn_aware_draw_or_call(
    state: State, *, rule: CallRule = HEURISTIC_LIKE, auction: AuctionModel = "ra_player"
) -> TurnAwareDrawOrCall:
    """Return the exact values of calling Ra now and of drawing now for the turn player, under the module's model.

    Raises:
        ValueError: not a turn player's choice (phase ACTION), or an unknown `auction` model.
    """
    solver = _Solver(state, rule, auction)
    can_draw = None in state.track and sum(state.bag) > 0
    draw = solver.draw_value((), state.bag, 0) if can_draw else None
    return TurnAwareDrawOrCall(
        player=solver.mover,
        call=solver.auction_value((), solver.mover),
        draw=draw,
        rule=rule,
        auction=auction,
        seats=solver.seats,
        positions=len(solver.memo),
    )


def mover_policy(
    state: State, *, rule: CallRule = HEURISTIC_LIKE, auction: AuctionModel = "ra_player"
) -> Callable[[State], str]:
    """Return the mover's optimal policy in the model: from a later position of his, ``"draw"`` or ``"ra"``."""
    solver = _Solver(state, rule, auction)
    base = len(solver.base)

    def decide(position: State) -> str:
        return solver.choice(tuple(sorted(int(t) for t in position.lot[base:])))

    return decide


def sample_payoff(
    state: State,
    first: str,
    rng: random.Random,
    *,
    rule: CallRule = HEURISTIC_LIKE,
    auction: AuctionModel = "ra_player",
    policy: Callable[[State], str] | None = None,
) -> int:
    """Play the model once through the engine and return the mover's payoff.

    The mover's first action is `first` (``"draw"`` or ``"ra"``); afterwards he follows `policy`
    (by default the optimal `mover_policy`), the other players follow `rule`, and every tile
    comes from the engine's chance node with `rng`. The run stops at the first auction (the
    payoff is the lot's value to the mover if he takes it, else 0) or when the epoch ends
    (payoff 0). Build `policy` once with `mover_policy` when sampling many runs.
    """
    mover = state.turn_player
    decide = policy or mover_policy(state, rule=rule, auction=auction)
    seats = tuple(p for p in range(state.num_players) if state.players[p].suns_up)
    epoch = state.epoch
    position = state.apply(first)
    while True:
        if position.phase is Phase.GAME_OVER or position.epoch != epoch:
            return 0  # the last Ra tile: the lot went to the box (R57, R59)
        if position.phase is Phase.BID:
            assert position.auction is not None
            ra_player = position.auction.ra_player
            values = tuple(lot_value(position, p) for p in range(position.num_players))
            winner = taker(values, ra_player, bidding_order(seats, ra_player), auction)
            return values[mover] if winner == mover else 0
        if position.phase is Phase.REVEAL:
            position = position.apply(sample_chance(position, rng))
            continue
        if position.phase is not Phase.ACTION:
            raise ValueError(f"the model does not cover phase {position.phase.name}")
        player = position.turn_player
        tiles = len(position.lot)
        if player == mover:
            action = decide(position)
        else:
            action = "ra" if rule.calls(lot_value(position, player), tiles) else "draw"
        position = position.apply(action)
