"""The heuristic bot: values the auction lot with the scoring rules and bids the lowest sun that wins it.

`appraise` says what winning the lot now is worth to a player, part by part; `HeuristicBot`
plays the shared plan (`ra_core.bots.plan`) with those values. `appraise`, `bid_value` and
`explain` are public so a notebook can show *why* it bid.

>>> from ra_core import State
>>> s = State.from_dict({"players": [{"suns_up": [13, 6, 2]}, {"suns_up": [12, 7, 3]},
...                                  {"suns_up": [11, 8, 4]}, {"suns_up": [10, 9, 5]}],
...                      "track": ["gold", "gold", "pharaoh"], "turn_player": 0})
>>> print(explain(s, 0))
P0 values the lot (gold gold pharaoh) at +11.3 fame with sun 2 for the center sun 1:
  tiles             +21    the lot's worth to P0 (ra_core.analysis.valuation)
  later pharaohs   -6.5    only 35% of the +10 for the pharaoh standing in later epochs
  sun exchange     -0.3    gets 1 face down for 2, at 0.35 fame a sun point in epoch 1
  spending a sun   -2.8    ~43 tiles to come for max(9 auctions, 12 suns), 0.8 fame a tile
  decision: ra
"""

from __future__ import annotations

import dataclasses
import random
from typing import NamedTuple

from ..analysis.chance import ra_tiles_left
from ..analysis.valuation import display_worth, lot_value
from ..engine.actions import Action, Discard, UseGod
from ..engine.disasters import resolve
from ..engine.rules import EPOCHS
from ..engine.scoring import pharaoh_points_over
from ..engine.state import Phase, State
from ..engine.tiles import Tile
from .plan import PlanBot

__all__ = [
    "WEIGHTS",
    "Appraisal",
    "HeuristicBot",
    "Weights",
    "appraise",
    "bid_value",
    "explain",
    "heuristic_bot",
]


@dataclasses.dataclass(frozen=True)
class Weights:
    """The heuristic valuation's three assumptions, in fame.

    Attributes:
        later_pharaohs: the share of the pharaoh result in later epochs that is counted.
            `ra_core.analysis.valuation` counts the pharaoh standing again in every later epoch as
            if it lasted; other players catch up, so the heuristic counts only this share.
        tile_worth: what one tile still to come this epoch is worth to whoever wins it;
            with the tiles still in the bag it prices the bid a sun could make later.
        sun_point: the fame a point of sun is worth, indexed by epoch (1-3): the sum of a
            player's suns decides the final +5/-5 (R71), and in epochs 1-2 a higher sun also
            wins more of the next epoch's auctions.
    """

    later_pharaohs: float = 0.35
    tile_worth: float = 0.8
    sun_point: tuple[float, ...] = (0.0, 0.35, 0.3, 0.2)


WEIGHTS = Weights()


class Appraisal(NamedTuple):
    """What winning the auction lot now is worth to one player, part by part (in fame).

    Attributes:
        player: the seat valued for.
        epoch: the epoch (it decides the `Weights.sun_point` rate).
        sun: the sun it would bid (by default the lowest that beats the high bid), or None
            when it cannot bid.
        center_sun: the sun it would receive face down (R46).
        lot: the tiles on the auction track.
        tiles: the lot's worth, disasters included (`ra_core.analysis.valuation.lot_value`).
        later_pharaohs: the part of `tiles` that is the pharaoh result of later epochs.
        pharaoh_discount: what is taken off `tiles` for that: ``(1 - weight) * later_pharaohs``.
        exchange: the sun received minus the sun given, at `sun_point` fame a point.
        spend: the bid a sun could make later this epoch: `tile_worth` times the tiles
            still to come, shared among the auctions left, or the face-up suns if more.
        tiles_to_come: the expected tiles still to be drawn this epoch, from the bag.
        auctions_left: the Ra tiles still to come this epoch (each but the last brings an
            auction; one more stands for the auctions players call).
        suns_up: all players' face-up suns.
        weights: the `Weights` used.
    """

    player: int
    epoch: int
    sun: int | None
    center_sun: int
    lot: tuple[Tile, ...]
    tiles: int
    later_pharaohs: int
    pharaoh_discount: float
    exchange: float
    spend: float
    tiles_to_come: float
    auctions_left: int
    suns_up: int
    weights: Weights

    @property
    def total(self) -> float:
        """Return the net worth of winning (-inf if the player cannot bid)."""
        if self.sun is None:
            return float("-inf")
        return self.tiles - self.pharaoh_discount + self.exchange - self.spend

    def __str__(self) -> str:
        lot = " ".join(t.label for t in self.lot) or "nothing but the center sun"
        who, w = f"P{self.player}", self.weights
        if self.sun is None:
            return f"{who} cannot bid for the lot ({lot}): no face-up sun beats the high bid"
        lines = [
            f"{who} values the lot ({lot}) at {self.total:+.1f} fame with sun {self.sun}"
            f" for the center sun {self.center_sun}:",
            f"  tiles           {self.tiles:+5d}    the lot's worth to {who} (ra_core.analysis.valuation)",
        ]
        if self.later_pharaohs:
            lines.append(
                f"  later pharaohs  {-self.pharaoh_discount:+5.1f}    only {w.later_pharaohs:.0%} of the"
                f" {self.later_pharaohs:+d} for the pharaoh standing in later epochs"
            )
        lines += [
            f"  sun exchange    {self.exchange:+5.1f}    gets {self.center_sun} face down for"
            f" {self.sun}, at {w.sun_point[self.epoch]} fame a sun point in epoch {self.epoch}",
            f"  spending a sun  {-self.spend:+5.1f}    ~{self.tiles_to_come:.0f} tiles to come for"
            f" max({self.auctions_left} auctions, {self.suns_up} suns), {w.tile_worth} fame a tile",
        ]
        return "\n".join(lines)


def appraise(state: State, player: int, sun: int | None = None, weights: Weights = WEIGHTS) -> Appraisal:
    """Return what winning the tiles on the auction track now is worth to `player`.

    Args:
        state: any position; the lot is the auction track and the prize the center sun.
        player: the seat valued for.
        sun: the sun paid; by default the lowest face-up sun that beats the high bid
            (all of them if no auction runs), which is the one the heuristic bot bids.
        weights: the valuation's assumptions (`Weights`).
    """
    p = state.players[player]
    if sun is None:
        high = state.auction.high_bid if state.auction is not None else 0
        for x in p.suns_up:
            if x > high:
                sun = x
                break
    lot = tuple([t for t in state.track if t is not None])
    tiles = lot_value(state, player, lot)
    later = _later_pharaohs(state, player, lot)
    spend, to_come, ra_left, up = _spend(state, weights)
    exchange = 0.0 if sun is None else weights.sun_point[state.epoch] * (state.center_sun - sun)
    discount = (1 - weights.later_pharaohs) * later
    return Appraisal(
        player,
        state.epoch,
        sun,
        state.center_sun,
        lot,
        tiles,
        later,
        discount,
        exchange,
        spend,
        to_come,
        ra_left,
        up,
        weights,
    )


def _spend(state: State, weights: Weights) -> tuple[float, float, int, int]:
    """Return `Appraisal.spend` with the three counts it comes from: tiles to come, Ra tiles left, suns up."""
    bag = state.bag
    ra_left = ra_tiles_left(state)  # the last of them ends the epoch (R57)
    to_come = ra_left * (sum(bag) - bag[Tile.RA]) / (bag[Tile.RA] + 1)  # non-Ra draws before it
    up = 0
    for q in state.players:
        up += len(q.suns_up)
    return weights.tile_worth * to_come / max(ra_left, up, 1), to_come, ra_left, up


def _later_pharaohs(state: State, player: int, lot: tuple[Tile, ...]) -> int:
    """Return the change the lot makes to `player`'s pharaoh result in the epochs after this one."""
    if Tile.PHARAOH not in lot and Tile.FUNERAL not in lot or state.epoch == EPOCHS:
        return 0
    before = [q.display[Tile.PHARAOH] for q in state.players]
    display = list(state.players[player].display)
    display[Tile.PHARAOH] += lot.count(Tile.PHARAOH)
    after = list(before)
    after[player] = resolve(display, [t for t in lot if t is Tile.FUNERAL])[0][Tile.PHARAOH]  # R50
    later = range(state.epoch + 1, EPOCHS + 1)
    return (
        pharaoh_points_over(after, later, state.rules)[player] - pharaoh_points_over(before, later, state.rules)[player]
    )


def bid_value(state: State, player: int, sun: int | None = None, weights: Weights = WEIGHTS) -> float:
    """Return the net fame `player` expects from winning the lot now with `sun` (see `appraise`)."""
    return appraise(state, player, sun, weights).total


def explain(state: State, player: int, bot: HeuristicBot | None = None) -> str:
    """Return, in words, how the heuristic bot values the lot for `player` and what it would do."""
    bot = bot or heuristic_bot
    text = str(appraise(state, player, weights=bot.weights))
    if state.to_move == player and state.phase in (Phase.ACTION, Phase.GODS, Phase.BID):
        text += f"\n  decision: {bot(state, random.Random(0))}"
    return text


@dataclasses.dataclass(frozen=True)
class HeuristicBot(PlanBot):
    """Play the shared plan (`PlanBot`) with the lot valued by `appraise`.

    * **Bid**: the lowest sun above the high bid if the lot's net worth (`bid_value`) is
      above `margin`, else pass (a voluntary caller who must bid bids his lowest sun, R40).
    * **Turn**: use a god on the best tile if it gains more than `god_margin` over the god's
      own 2 points (R26, R63); call Ra if the lot is worth at least `call_per_free_slot` per
      empty auction slot (so a fuller track needs less), or if the track is full (R19);
      otherwise draw. The lone player facing the epoch's last Ra tile decides as `PlanBot` says.
    * **Discard**: the tiles whose loss leaves the display worth most (R53).
    """

    god_margin: float = 1.0
    weights: Weights = WEIGHTS
    name: str = "heuristic"

    def value(self, state: State, player: int) -> float:
        """Return `bid_value` with this bot's weights and the lowest winning sun."""
        return appraise(state, player, None, self.weights).total

    def lot_net(self, state: State, player: int, sun: int) -> float:
        """Return `bid_value` with this bot's weights."""
        return appraise(state, player, sun, self.weights).total

    def sun_cost(self, state: State) -> float:
        """Return `Appraisal.spend`: the bid a sun could make later this epoch."""
        return _spend(state, self.weights)[0]

    def god_use(self, state: State, player: int, legal: tuple[Action, ...]) -> UseGod | None:
        """Return the god use that gains most over the god's 2 points, if above `god_margin`."""
        best, gain = None, self.god_margin
        for a in legal:
            if type(a) is UseGod:
                g = lot_value(state, player, [state.track[a.slot - 1]]) - 2  # type: ignore[list-item]
                if g > gain:
                    best, gain = a, g
        return best

    def discard(self, state: State, player: int, legal: tuple[Action, ...]) -> Action:
        """Return the discard that keeps the display worth most."""
        pharaohs = [q.display[Tile.PHARAOH] for q in state.players]
        display = state.players[player].display

        def worth(a: Action) -> int:
            d = list(display)
            for t in a.tiles if type(a) is Discard else ():
                d[t] -= 1
            return display_worth(d, pharaohs, player, state.epoch, state.rules)

        return max(legal, key=worth)


heuristic_bot = HeuristicBot()
