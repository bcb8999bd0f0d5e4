"""Engine speed: complete random-legal-action games per second, through the public API.

Every decision goes through `state.legal_actions()` and `state.apply()` (validated);
chance nodes are sampled with `ra_core.play.sample_chance`. One core, best of several
repetitions (the least disturbed by the rest of the machine).

    python benchmarks/engine.py [--games 300] [--repeat 5]
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time

from ra_core import TERMINAL, new_game
from ra_core.play import sample_chance


def random_game(players: int, seed: int) -> int:
    """Play one game with uniformly random legal actions; return the number of actions applied."""
    rng = random.Random(seed)
    state = new_game(players, seed=seed)
    steps = 0
    while True:
        who = state.to_move
        if who == TERMINAL:
            return steps
        if who < 0:  # chance
            action = sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            action = legal[int(rng.random() * len(legal))]
        state = state.apply(action)
        steps += 1


def measure(players: int, games: int, repeat: int) -> tuple[float, float, float]:
    """Return (games per second, actions per second, actions per game), best of `repeat`."""
    best = float("inf")
    steps = 0
    for _ in range(repeat):
        start = time.perf_counter()
        steps = sum(random_game(players, seed) for seed in range(games))
        best = min(best, time.perf_counter() - start)
    return games / best, steps / best, steps / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per repetition (default 300)")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions; the best is reported (default 5)")
    args = parser.parse_args()
    print(
        f"ra_core engine benchmark: {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, one core, {args.games} games x best of {args.repeat}"
    )
    print(f"{'players':>7}  {'games/s':>9}  {'actions/s':>10}  {'actions/game':>12}")
    for players in (2, 3, 4, 5):
        gps, aps, apg = measure(players, args.games, args.repeat)
        print(f"{players:>7}  {gps:>9,.0f}  {aps:>10,.0f}  {apg:>12.1f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
