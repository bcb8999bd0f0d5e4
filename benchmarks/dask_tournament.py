"""Tournament speed on a Dask cluster: games per second in this process and with 1 and 2 workers.

A class tournament of many bots can run on any Dask cluster; here a `distributed.LocalCluster`
with worker processes stands in for one. The tables must equal the in-process one.

    python benchmarks/dask_tournament.py [--games 600] [--players 4]

Needs the `cluster` extra (dask's `distributed`).
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import distributed

from ra_core.analysis.tournament import tournament
from ra_core.bots import greedy_bot, heuristic_bot, random_bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600, help="games (default 600)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    args = parser.parse_args()
    print(
        f"ra_core Dask tournament benchmark: {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}, distributed {distributed.__version__}"
    )
    bots = {"heuristic": heuristic_bot, "greedy": greedy_bot, "random": random_bot}
    options = {"players": args.players, "games": args.games, "seed": 1, "progress": False}
    t = time.perf_counter()
    reference = tournament(bots, **options)  # type: ignore[arg-type]
    here = args.games / (time.perf_counter() - t)
    print(f"\n{'where':22} {'games/s':>9} {'speed-up':>9}")
    print(f"{'this process':22} {here:9.0f} {1.0:9.2f}")
    for workers in (1, 2):
        with (
            distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
            ) as cluster,
            distributed.Client(cluster) as client,
        ):
            executor = client.get_executor()
            tournament(bots, executor=executor, **{**options, "games": 30})  # warm the workers up
            t = time.perf_counter()
            result = tournament(bots, executor=executor, **options)  # type: ignore[arg-type]
            rate = args.games / (time.perf_counter() - t)
        assert result.games == reference.games, "a cluster must give the same table"
        print(f"{f'Dask, {workers} worker(s)':22} {rate:9.0f} {rate / here:9.2f}")


if __name__ == "__main__":
    main()
