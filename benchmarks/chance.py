"""Speed of the exact chance queries (`ra_core.analysis.chance`): median microseconds per query.

Two positions: a mid-game turn (epoch 2, about 120 tiles in the bag, a few on the track),
reached by a seeded game between three heuristic bots, and the first turn of a
game (the full bag of 180 tiles, the longest laws). Each query is timed in `--repeat` rounds
of `--number` calls; the median round is reported. The budget for an exact chance query is
1 millisecond; the valuation queries below the line call `ra_core.analysis.valuation.lot_value` once
per tile kind and player and have no budget.

    python benchmarks/chance.py [--number 200] [--repeat 15]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable

from ra_core import Phase, State, Tile, new_game
from ra_core.analysis import chance as C
from ra_core.bots import heuristic_bot
from ra_core.engine.tiles import DISASTERS
from ra_core.play import play_game

BUDGET_US = 1000.0


def midgame() -> State:
    """Return the first epoch-2 turn with at most 125 tiles in the bag and 3-7 tiles on the track."""
    for s in play_game([heuristic_bot] * 3, seed=1).states():
        if s.phase is Phase.ACTION and s.epoch == 2 and sum(s.bag) <= 125 and 1 <= C.free_slots(s) <= 5:
            return s
    raise SystemExit("no mid-game turn in the seeded game")


def median_us(query: Callable[[], object], number: int, repeat: int) -> float:
    """Return the median over `repeat` rounds of the time per call, in microseconds."""
    query()  # warm up
    rounds = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            query()
        rounds.append((time.perf_counter() - start) / number * 1e6)
    return statistics.median(rounds)


def queries(s: State) -> tuple[list[tuple[str, Callable[[], object]]], list[tuple[str, Callable[[], object]]]]:
    """Return the exact chance queries and the valuation queries on `s`."""
    mover = s.turn_player
    cap = C.free_slots(s)
    chance = [
        ("p_next_ra", lambda: C.p_next_ra(s)),
        ("p_next_disaster", lambda: C.p_next_disaster(s)),
        ("p_next_tile(gold)", lambda: C.p_next_tile(s, Tile.GOLD)),
        ("p_next_ends_epoch", lambda: C.p_next_ends_epoch(s)),
        ("next_tile_distribution", lambda: C.next_tile_distribution(s)),
        ("tiles_before_ra", lambda: C.tiles_before_ra(s)),
        (f"tiles_before_ra(cap={cap})", lambda: C.tiles_before_ra(s, cap=cap)),
        ("expected_tiles_before_ra", lambda: C.expected_tiles_before_ra(s)),
        (f"tiles_in_next_lot(disasters, cap={cap})", lambda: C.tiles_in_next_lot(s, DISASTERS, cap=cap)),
        ("draws_until_epoch_end", lambda: C.draws_until_epoch_end(s)),
        ("expected_draws_until_epoch_end", lambda: C.expected_draws_until_epoch_end(s)),
    ]
    valuation = [
        ("lot_value_after_draw(mover)", lambda: C.lot_value_after_draw(s, mover)),
        ("expected_lot_values_after_draw", lambda: C.expected_lot_values_after_draw(s)),
        ("draw_or_call(horizon=1)", lambda: C.draw_or_call(s)),
        ("draw_or_call(horizon=2)", lambda: C.draw_or_call(s, horizon=2)),
    ]
    return chance, valuation


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--number", type=int, default=200, help="calls per round (default 200)")
    parser.add_argument("--repeat", type=int, default=15, help="rounds; the median is reported (default 15)")
    args = parser.parse_args()
    print(
        f"ra_core.analysis.chance benchmark: {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, median of {args.repeat} rounds x {args.number} calls"
    )
    positions = [
        ("mid-game", midgame()),
        ("start", new_game(3, seed=1)),
    ]
    slowest = 0.0
    for name, s in positions:
        ra, others = s.bag[Tile.RA], sum(s.bag) - s.bag[Tile.RA]
        print(
            f"\n{name}: epoch {s.epoch}, bag {sum(s.bag)} ({ra} Ra, {others} others), "
            f"{C.ra_tiles_left(s)} Ra tiles left, {8 - C.free_slots(s)} tiles on the track"
        )
        print(f"  {'query':<40} {'median us':>10}")
        chance, valuation = queries(s)
        for label, query in chance:
            us = median_us(query, args.number, args.repeat)
            slowest = max(slowest, us)
            print(f"  {label:<40} {us:>10.1f}")
        print(f"  {'-- valuation (no budget) --':<40}")
        for label, query in valuation:
            number = max(1, args.number // 20) if "horizon=2" in label else max(1, args.number // 4)
            us = median_us(query, number, args.repeat)
            print(f"  {label:<40} {us:>10.1f}")
    verdict = "within" if slowest < BUDGET_US else "OVER"
    print(f"\nslowest exact chance query: {slowest:.1f} us ({verdict} the {BUDGET_US:.0f} us budget)")


if __name__ == "__main__":
    main()
