"""Exact chance and expected value in Ra: what the bag can do next, as `Fraction`s.

Everything here is computed from the bag's composition (the next tile and how long until Ra
are in `ra_core.analysis.odds`, re-exported here) (`State.bag`), never by sampling.
The one assumption shared by every function: **each draw takes a uniformly random tile from
the tiles still in the bag, without replacement** (R14, R22). The order in which tiles will
come out of the bag is a random permutation of the bag that no player's choice can change;
players only decide *when* (and whether) the next tile is drawn. That is why the number of
tiles drawn before the next Ra tile, or before the epoch-ending Ra tile, has an exact
distribution whatever the players do.

Each function says what else it assumes.

* The next tile: `p_next_ra`, `p_next_disaster`, `p_next_tile`, `p_next` (any tile set or
  predicate), `next_tile_distribution`, `p_next_ends_epoch`.
* How long until Ra: `tiles_before_ra` (optionally capped at the track's `free_slots`),
  `expected_tiles_before_ra`; how many tiles of a kind come before it, `tiles_in_next_lot`;
  `ra_tiles_left` (not random), `draws_until_epoch_end`, `expected_draws_until_epoch_end`;
  `expectation` of any law.
* What the lot is worth: for the lot on the track now, `ra_core.analysis.valuation.lot_values` (no
  chance involved; its model is stated there); after one more draw, `lot_value_after_draw`
  and `expected_lot_values_after_draw`.
* Draw or call Ra: `draw_or_call`, a stated teaching model of a stopping problem.
* Simulation to compare with: `sample_draws`.

The examples use a bag of four tiles (a teaching position no real game reaches, hence
``strict=False``):

>>> from ra_core import State, Tile
>>> s = State.from_dict({"players": [{"suns_up": [13, 8, 5, 2]}, {"suns_up": [12, 9, 6, 3]},
...                                  {"suns_up": [11, 10, 7, 4]}],
...                      "ra_count": 6, "bag": {"ra": 2, "gold": 1, "nile": 1}}, strict=False)
>>> p_next_ra(s), p_next_tile(s, Tile.GOLD), p_next_disaster(s)
(Fraction(1, 2), Fraction(1, 4), Fraction(0, 1))
>>> tiles_before_ra(s)                      # non-Ra tiles drawn before the next Ra tile
{0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)}
>>> ra_tiles_left(s), draws_until_epoch_end(s)   # 3 players: the 8th Ra tile ends the epoch
(2, {2: Fraction(1, 6), 3: Fraction(1, 3), 4: Fraction(1, 2)})
"""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

from ..engine.state import Phase, State
from ..engine.tiles import Tile
from .odds import (
    TileQuery,
    draws_until_epoch_end,
    expectation,
    expected_draws_until_epoch_end,
    expected_tiles_before_ra,
    free_slots,
    next_tile_distribution,
    p_next,
    p_next_disaster,
    p_next_ends_epoch,
    p_next_ra,
    p_next_tile,
    ra_tiles_left,
    tiles_before_ra,
    tiles_in_next_lot,
)
from .valuation import lot_value

__all__ = [
    "DrawOrCall",
    "TileQuery",
    "draw_or_call",
    "draw_words",
    "draws_until_epoch_end",
    "expectation",
    "expected_draws_until_epoch_end",
    "expected_lot_values_after_draw",
    "expected_tiles_before_ra",
    "free_slots",
    "lot_value_after_draw",
    "next_tile_distribution",
    "p_next",
    "p_next_disaster",
    "p_next_ends_epoch",
    "p_next_ra",
    "p_next_tile",
    "ra_tiles_left",
    "sample_draws",
    "tiles_before_ra",
    "tiles_in_next_lot",
    "verdict",
]

_RA = Tile.RA
_TILES = tuple(Tile)


# -- what the lot is worth after one more draw -----------------------------------------------


def _check_can_draw(state: State) -> None:
    if None not in state.track:
        raise ValueError("the auction track is full: nobody may draw (R19)")
    if not sum(state.bag):
        raise ValueError("the bag is empty: no tile can be drawn")
    if state.phase is Phase.GAME_OVER:
        raise ValueError("the game is over: no tile can be drawn")


def lot_value_after_draw(state: State, player: int) -> dict[int, Fraction]:
    """Return the law of the lot's value to `player` after one more draw: ``{fame: probability}``.

    A lot's value is `ra_core.analysis.valuation.lot_value` (its model is stated there; for the lot as
    it is now, `ra_core.analysis.valuation.lot_values` gives every player's value, no chance involved).
    The next tile is drawn uniformly from the bag, and:

    * a non-Ra tile joins the lot (R23): the value is that of the bigger lot;
    * a Ra tile that does not end the epoch starts an auction on the lot as it is (R24): the
      value is that of the current lot;
    * the Ra tile that ends the epoch sends the lot to the box (R57, R59): the value is 0.

    Raises:
        ValueError: the track is full, so nobody may draw (R19), or the bag is empty.
    """
    _check_can_draw(state)
    lot = list(state.lot)
    total = sum(state.bag)
    counts: dict[int, int] = {}
    for i, n in enumerate(state.bag):
        if not n:
            continue
        if i == _RA:
            value = 0 if ra_tiles_left(state) == 1 else lot_value(state, player, lot)
        else:
            value = lot_value(state, player, [*lot, _TILES[i]])
        counts[value] = counts.get(value, 0) + n
    return {v: Fraction(counts[v], total) for v in sorted(counts)}


def expected_lot_values_after_draw(state: State) -> tuple[Fraction, ...]:
    """Return, for every player in seat order, the expected value of the lot after one more draw.

    The exact mean of `lot_value_after_draw`, under its assumptions: the lot grows by a
    non-Ra tile, stays as it is when a Ra tile starts an auction, and is worth 0 when the Ra
    tile drawn ends the epoch.
    """
    return tuple(expectation(lot_value_after_draw(state, p)) for p in range(state.num_players))


# -- draw or call: a stopping problem --------------------------------------------------------


def draw_words(draw: Fraction | None) -> str:
    """Return the value of drawing in words: exact and rounded, or why drawing is not allowed (R19)."""
    return "not allowed (track full)" if draw is None else f"{draw} (~{float(draw):.2f})"


def verdict(call: Fraction, draw: Fraction | None) -> str:
    """Return ``"call"``, ``"draw"`` or ``"either"``: which of the two values is larger (no draw: call)."""
    if draw is None or call > draw:
        return "call"
    return "draw" if draw > call else "either"


@dataclasses.dataclass(frozen=True)
class DrawOrCall:
    """The mover's choice between calling Ra now and drawing once more, valued by `draw_or_call`.

    Attributes:
        player: the player to move (the turn player).
        horizon: how many draws ahead the model looks.
        call: the model's value of calling Ra now: the current lot's value to the player.
        draw: the model's value of drawing now (and then, within the horizon, choosing the
            better of calling and drawing again), or None when the track is full (R19).
        p_ra: the probability that the next tile is a Ra tile.
        p_epoch_end: the probability that the next tile is the Ra tile that ends the epoch.
    """

    player: int
    horizon: int
    call: Fraction
    draw: Fraction | None
    p_ra: Fraction
    p_epoch_end: Fraction

    @property
    def best(self) -> str:
        """Return ``"call"``, ``"draw"`` or ``"either"``: what the model prefers."""
        return verdict(self.call, self.draw)

    def __str__(self) -> str:
        return (
            f"P{self.player}: call Ra now {self.call}, draw {draw_words(self.draw)}; "
            f"P(Ra) {self.p_ra}, P(epoch ends) {self.p_epoch_end}; model says: {self.best}"
        )


def draw_or_call(state: State, *, horizon: int = 1) -> DrawOrCall:
    """Return the model values of calling Ra now and of drawing once more, for the turn player.

    **A teaching model of a stopping problem, not a strategy for the whole game.** It assumes:

    * whoever ends up with the lot, it is the mover: calling Ra now wins the current lot, and
      so does an auction started by a drawn Ra tile; the other players never outbid him;
    * the sun he pays and the center sun he receives are not priced (they are worth 0 here);
      other players' turns, gods and bids are ignored;
    * a lot's value to him is `ra_core.analysis.valuation.lot_value` (its model is stated there), even
      when that value is negative;
    * drawing takes a uniformly random tile from the bag (R22): a non-Ra tile joins the lot
      (R23); a Ra tile that does not end the epoch starts an auction on the lot as it is
      (R24), which he wins; the Ra tile that ends the epoch loses the lot: value 0 (R57, R59).

    With ``horizon=1`` the value of drawing is the mean value of the lot after one draw, then
    calling. With ``horizon=k`` he may draw up to ``k`` times, each time after seeing the
    tile choosing the better of calling and drawing on (optimal stopping by backward
    induction over the bag, exact); the track still holds at most 8 tiles. The cost grows
    with the number of multisets of ``k`` tiles: on a mid-game bag ``horizon=1`` takes well under
    a millisecond, 2 a few milliseconds, 3 about a tenth of a second.

    Raises:
        ValueError: not the turn player's action (phase ACTION), or ``horizon < 1``.
    """
    if state.phase is not Phase.ACTION:
        raise ValueError(f"draw_or_call needs a turn player's choice (phase ACTION), not phase {state.phase.name}")
    if horizon < 1:
        raise ValueError(f"horizon must be at least 1, got {horizon}")
    player = state.turn_player
    base = list(state.lot)
    limit_reached = ra_tiles_left(state) == 1
    worth: dict[tuple[int, ...], int] = {}

    def value_of(added: tuple[int, ...]) -> int:
        v = worth.get(added)
        if v is None:
            v = worth[added] = lot_value(state, player, [*base, *(_TILES[i] for i in added)])
        return v

    memo: dict[tuple[tuple[int, ...], int], Fraction] = {}

    def draw_value(added: tuple[int, ...], bag: tuple[int, ...], steps: int) -> Fraction:
        """Return the value of drawing now with `steps` draws allowed (this one included)."""
        total = sum(bag)
        acc = Fraction(0)
        for i, n in enumerate(bag):
            if not n:
                continue
            if i == _RA:
                acc += n * (0 if limit_reached else value_of(added))
            else:
                acc += n * best_value(tuple(sorted((*added, i))), bag[:i] + (n - 1,) + bag[i + 1 :], steps - 1)
        return acc / total

    def best_value(added: tuple[int, ...], bag: tuple[int, ...], steps: int) -> Fraction:
        """Return the better of calling and (if allowed) drawing on."""
        call = Fraction(value_of(added))
        if steps == 0 or len(base) + len(added) >= 8 or not sum(bag):
            return call
        key = (added, steps)
        v = memo.get(key)
        if v is None:
            v = memo[key] = max(call, draw_value(added, bag, steps))
        return v

    can_draw = None in state.track and sum(state.bag) > 0
    return DrawOrCall(
        player=player,
        horizon=horizon,
        call=Fraction(value_of(())),
        draw=draw_value((), state.bag, horizon) if can_draw else None,
        p_ra=p_next_ra(state) if sum(state.bag) else Fraction(0),
        p_epoch_end=p_next_ends_epoch(state) if sum(state.bag) else Fraction(0),
    )


# -- sampling, for comparing the exact values with simulation --------------------------------


def sample_draws(state: State, rng: random.Random, *, ras: int = 1) -> list[Tile]:
    """Return the tiles drawn from `state`'s bag until the `ras`-th Ra tile (included) or the bag is empty.

    Uses only ``rng.random()`` (stable across Python versions), drawing without replacement.
    This is the experiment behind `tiles_before_ra` (``ras=1``) and `draws_until_epoch_end`
    (``ras=ra_tiles_left(state)``).
    """
    bag = list(state.bag)
    left = sum(bag)
    out: list[Tile] = []
    seen = 0
    while left and seen < ras:
        r = int(rng.random() * left)
        i = 0
        while r >= bag[i]:
            r -= bag[i]
            i += 1
        bag[i] -= 1
        left -= 1
        out.append(_TILES[i])
        seen += i == _RA
    return out
