"""Tournament speed: a 1,000-game 4-player heuristic-bot tournament on one core and on a pool.

The same seeded tournament is run with no executor (one core) and with a
`ProcessPoolExecutor` of 2 (or --workers) processes; the tables must be identical. Wall and
CPU time are printed for the one-core run.

The pool's speed-up is compared with the speed-up this machine gives right now: the same
games split into equal shares, each share played by a plain process of its own, all at once
(no pool, no chunks), against one process playing them all. On a machine other work keeps
busy, that is below the number of workers; the pool's share of it is what the pool's
chunking and messaging cost. Both are measured side by side, best of --repeat runs each.

    python benchmarks/tournament.py [--games 1000] [--players 4] [--workers 2] [--repeat 2]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import time
from concurrent.futures import ProcessPoolExecutor

from ra_core.analysis.tournament import TIME_LIMIT, game_seeds, tournament
from ra_core.bots import heuristic_bot, random_bot
from ra_core.bots.montecarlo import greedy_bot
from ra_core.play import play_to_end


def play_share(seeds: list[int], players: int) -> None:
    """Play the games with these seeds, heuristic bots in every seat (the work of one process)."""
    for seed in seeds:
        play_to_end([heuristic_bot] * players, seed, time_limit=TIME_LIMIT)  # as a tournament plays them


def machine_speed_up(games: int, players: int, workers: int) -> float:
    """Return how much faster `workers` plain processes play `games` games at once than one process alone."""
    seeds = game_seeds(2, games)
    start = time.perf_counter()
    play_share(seeds, players)
    alone = time.perf_counter() - start
    shares = [seeds[i::workers] for i in range(workers)]
    processes = [multiprocessing.Process(target=play_share, args=(share, players)) for share in shares]
    start = time.perf_counter()
    for p in processes:
        p.start()
    for p in processes:
        p.join()
    return alone / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games (default 1000)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    parser.add_argument("--workers", type=int, default=2, help="processes in the pool (default 2)")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each measure; the best is kept (default 2)")
    args = parser.parse_args()
    print(
        f"ra_core tournament benchmark: {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}"
    )
    kwargs = {"players": args.players, "games": args.games, "seed": 1, "progress": False}

    best_wall = best_cpu = best_pool = float("inf")
    best_machine = 0.0
    identical = True
    with ProcessPoolExecutor(args.workers) as pool:
        pool.submit(int).result()  # start the workers outside the timing
        for _ in range(args.repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            one = tournament([heuristic_bot], **kwargs)  # type: ignore[arg-type]
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            best_wall, best_cpu = min(best_wall, wall), min(best_cpu, cpu)
            start = time.perf_counter()
            pooled = tournament([heuristic_bot], executor=pool, **kwargs)  # type: ignore[arg-type]
            best_pool = min(best_pool, time.perf_counter() - start)
            identical = identical and pooled == one
            best_machine = max(best_machine, machine_speed_up(args.games // 2, args.players, args.workers))
    speed_up = best_wall / best_pool
    print(
        f"\n{args.games} games, {args.players} heuristic bots, one core: {best_wall:.2f} s wall, {best_cpu:.2f} s cpu"
        f" ({best_wall / args.games * 1e3:.2f} ms a game; target < 10 s)"
    )
    print(
        f"same tournament, ProcessPoolExecutor({args.workers}): {best_pool:.2f} s wall, speed-up {speed_up:.2f}x,"
        f" identical results: {identical}"
    )
    print(
        f"this machine now: {args.workers} plain processes play {best_machine:.2f}x as fast as one"
        f" ({args.games // 2} games in equal shares); the pool reaches {speed_up / best_machine:.2f} of that"
    )

    start = time.perf_counter()
    mixed = tournament([random_bot, greedy_bot, heuristic_bot], **{**kwargs, "games": 300})  # type: ignore[arg-type]
    print(f"\n300 mixed games (random / greedy / heuristic), one core: {time.perf_counter() - start:.2f} s")
    print(mixed)


if __name__ == "__main__":
    main()
