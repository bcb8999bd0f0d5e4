"""The plan the value-based bots share: bid when the lot nets enough, call Ra when it nets enough per empty slot.

`PlanBot` decides every kind of position the same way; a bot built on it says only how it
values things: what winning the lot with a given sun nets (`lot_net`), which god use is worth
it (`god_use`) and which tiles to lose to a disaster (`discard`). The heuristic bot values with
the full scoring rules (`ra_core.analysis.valuation`), the greedy bot with a fast rough model, so they
play alike and differ in judgement and speed.
"""

from __future__ import annotations

import abc
import dataclasses
import random

from ..analysis.odds import ra_tiles_left
from ..engine.actions import CALL_RA, DONE, DRAW, PASS, REVEALS, Action, Bid, UseGod
from ..engine.rules import TRACK_SIZE
from ..engine.state import Phase, State
from ..engine.tiles import Tile

__all__ = ["PlanBot"]


@dataclasses.dataclass(frozen=True)
class PlanBot(abc.ABC):
    """A policy that follows one plan; subclasses supply the valuations.

    In a position with more than one legal action:

    * **Bid** (R39, R40): the lowest sun that wins if winning the lot with it nets more than
      `margin`, else pass; a voluntary caller who may not pass bids his lowest sun.
    * **Discard** (R53): the tiles `discard` picks.
    * **Turn** (R18, R26, R29): the god use `god_use` picks, if any; in the god phase, done
      when it picks none; call Ra on a full track (R19); otherwise draw, unless:

      - **the lone player** (R21) with the epoch's last Ra tile still in the bag, so that a
        drawn Ra ends the epoch and the lot is lost (R24, R57): nobody can bid against him,
        so the lot is worth `keep` to him (`lot_net` without `sun_cost`); with more than one
        face-up sun he calls when the lot keeps more than `margin` (the tiles that come next
        are his either way: calling banks those on the track); with his last sun he calls
        when the lot keeps more than 0 and at least as much as drawing once more and then
        calling, with the exact odds of the bag (R22: a Ra tile loses the lot);
      - anyone else, the lone player included while more Ra tiles must come: call when the
        lot, won with the lowest face-up sun, nets at least `call_per_free_slot` per empty
        slot (a fuller track needs less).

    Attributes:
        margin: the net fame a lot must be worth to bid for it.
        call_per_free_slot: the net fame per empty track slot that makes calling Ra worth it.
        lone_player_rule: whether the lone player facing the epoch's last Ra tile decides by
            `lone_calls` (else by the per-slot rule, as everyone else).
    """

    margin: float = 1.0
    call_per_free_slot: float = 1.5
    lone_player_rule: bool = True

    @abc.abstractmethod
    def lot_net(self, state: State, player: int, sun: int) -> float:
        """Return the net fame `player` expects from winning the auction lot now with `sun`."""

    @abc.abstractmethod
    def sun_cost(self, state: State) -> float:
        """Return what `lot_net` charges for spending a sun: the bids it could still make later this epoch."""

    @abc.abstractmethod
    def god_use(self, state: State, player: int, legal: tuple[Action, ...]) -> UseGod | None:
        """Return the `UseGod` among `legal` worth playing, or None to use no god."""

    @abc.abstractmethod
    def discard(self, state: State, player: int, legal: tuple[Action, ...]) -> Action:
        """Return the `Discard` among `legal` to lose to a disaster."""

    def __call__(self, state: State, rng: random.Random) -> Action:
        """Return the plan's action in `state` (`rng` is not used: the plan is deterministic)."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        phase, me = state.phase, state.to_move
        if phase is Phase.BID:
            may_pass = legal[0] == PASS  # sorted: pass (unless R40 forbids it), then the bids upward
            lowest = legal[1] if may_pass else legal[0]
            assert type(lowest) is Bid
            if not may_pass or self.lot_net(state, me, lowest.sun) > self.margin:
                return lowest
            return PASS
        if phase is Phase.DISCARD:
            return self.discard(state, me, legal)
        god = self.god_use(state, me, legal)
        if god is not None:
            return god
        if phase is Phase.GODS:
            return DONE
        if DRAW not in legal:
            return CALL_RA
        free = state.track.count(None)
        if free == TRACK_SIZE:
            return DRAW
        suns = state.players[me].suns_up
        if self.lone_player_rule and ra_tiles_left(state) == 1 and sum(1 for p in state.players if p.suns_up) == 1:
            return CALL_RA if self.lone_calls(state, me) else DRAW
        if self.lot_net(state, me, suns[0]) >= self.call_per_free_slot * free:
            return CALL_RA
        return DRAW

    def keep(self, state: State, player: int, sun: int) -> float:
        """Return what winning the lot with `sun` nets when no later bid this epoch needs the sun."""
        return self.lot_net(state, player, sun) + self.sun_cost(state)

    def lone_calls(self, state: State, player: int) -> bool:
        """Return whether the lone player (R21), whom the next Ra tile drawn stops (R24), calls Ra now.

        With several face-up suns: when the lot keeps more than `margin`. With his last sun:
        when it keeps more than 0 and no less than the mean of drawing one more tile and then
        calling (a Ra tile, the epoch's last, loses the lot: 0; R22, R57).
        """
        suns = state.players[player].suns_up
        now = self.keep(state, player, suns[0])
        if len(suns) > 1:
            return now > self.margin
        if now <= 0:
            return False
        drawn = state.apply(DRAW)  # the engine's own draw and reveals: the tile goes to the track (R23)
        total = draw = 0.0
        for i, n in enumerate(state.bag):
            if not n:
                continue
            total += n
            if i == Tile.RA:
                continue  # the epoch ends and the lot goes to the box: 0
            draw += n * self.keep(drawn.apply(REVEALS[Tile(i)]), player, suns[0])  # his turn again (R21)
        return now >= draw / total
