"""Tournament speed: a 1,000-game 4-player heuristic-bot tournament on one core and on a pool.

The same seeded tournament is run with no executor (one core) and with a
`ProcessPoolExecutor` of 2 (or --workers) processes; the tables must be identical and the
speed-up near the number of workers. Wall and CPU time are printed for the one-core run.

    python benchmarks/tournament.py [--games 1000] [--players 4] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from concurrent.futures import ProcessPoolExecutor

from ra_core.analysis.tournament import tournament
from ra_core.bots import heuristic_bot, random_bot
from ra_core.bots.montecarlo import greedy_bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games (default 1000)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    parser.add_argument("--workers", type=int, default=2, help="processes in the pool (default 2)")
    args = parser.parse_args()
    print(
        f"ra_core tournament benchmark: {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}"
    )
    kwargs = {"players": args.players, "games": args.games, "seed": 1, "progress": False}

    wall, cpu = time.perf_counter(), time.process_time()
    one = tournament([heuristic_bot], **kwargs)  # type: ignore[arg-type]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(
        f"\n{args.games} games, {args.players} heuristic bots, one core: {wall:.2f} s wall, {cpu:.2f} s cpu"
        f" ({wall / args.games * 1e3:.2f} ms a game; target < 10 s)"
    )

    with ProcessPoolExecutor(args.workers) as pool:
        pool.submit(int).result()  # start the workers outside the timing
        start = time.perf_counter()
        pooled = tournament([heuristic_bot], executor=pool, **kwargs)  # type: ignore[arg-type]
        pool_wall = time.perf_counter() - start
    print(
        f"same tournament, ProcessPoolExecutor({args.workers}): {pool_wall:.2f} s wall, "
        f"speed-up {wall / pool_wall:.2f}x (ideal {args.workers}x), identical results: {pooled == one}"
    )

    start = time.perf_counter()
    mixed = tournament([random_bot, greedy_bot, heuristic_bot], **{**kwargs, "games": 300})  # type: ignore[arg-type]
    print(f"\n300 mixed games (random / greedy / heuristic), one core: {time.perf_counter() - start:.2f} s")
    print(mixed)


if __name__ == "__main__":
    main()
