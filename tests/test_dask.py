"""Tournaments on a Dask cluster: the same table as in this process (the `cluster` extra).

`tournament(..., executor=client.get_executor())` sends chunks of games to the cluster's
workers and puts the results back in game order, so the table cannot depend on where the
games ran. A real `distributed.LocalCluster` with worker processes proves it.
"""

from __future__ import annotations

import pytest

from ra_core.analysis.tournament import tournament
from ra_core.bots import greedy_bot, heuristic_bot, random_bot

distributed = pytest.importorskip("distributed", reason="the cluster extra: pip install -e '.[cluster]'")


def test_a_tournament_on_a_dask_cluster_equals_the_one_in_process() -> None:
    bots = {"heuristic": heuristic_bot, "greedy": greedy_bot, "random": random_bot}
    options = {"players": 3, "games": 24, "seed": 5, "progress": False, "chunk_size": 4}
    here = tournament(bots, **options)  # type: ignore[arg-type]
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        there = tournament(bots, executor=client.get_executor(), **options)  # type: ignore[arg-type]
    assert there.games == here.games and str(there) == str(here)
