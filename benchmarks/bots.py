"""Bot speed: time per decision of each bot, and the Monte Carlo bot's median decision time.

The Monte Carlo bot sits in one seat of a 4-player game against heuristic bots; every one
of its decisions with more than one legal action is timed (a single legal action is played
without rollouts and is left out of the median). Wall-clock and CPU (process) time are both
printed: on a busy machine the CPU time is the fairer figure for "one core".

    python benchmarks/bots.py [--rollouts 200] [--games 2] [--players 4]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from ra_core import State
from ra_core.analysis.tournament import play_to_end
from ra_core.bots import heuristic_bot, random_bot
from ra_core.bots.montecarlo import MonteCarloBot, greedy_bot
from ra_core.play import Policy


class Timed:
    """Wrap a policy and record the wall and CPU time of each decision with a real choice."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.trivial = 0

    def __call__(self, state: State, rng: random.Random) -> Any:
        if len(state.legal_actions()) == 1:
            self.trivial += 1
            return self.policy(state, rng)
        w, c = time.perf_counter(), time.process_time()
        action = self.policy(state, rng)
        self.cpu.append(time.process_time() - c)
        self.wall.append(time.perf_counter() - w)
        return action


def per_decision(policy: Policy, players: int, games: int) -> tuple[float, float, int]:
    """Return the mean wall and CPU microseconds per real decision, over `games` self-play games."""
    timed = [Timed(policy) for _ in range(players)]
    for seed in range(games):
        play_to_end(timed, seed)
    wall = [x for t in timed for x in t.wall]
    cpu = [x for t in timed for x in t.cpu]
    return statistics.fmean(wall) * 1e6, statistics.fmean(cpu) * 1e6, len(wall)


def monte_carlo(rollouts: int, players: int, games: int) -> Timed:
    """Play `games` games with one Monte Carlo bot against heuristic bots; return its timings."""
    bot = Timed(MonteCarloBot(rollouts=rollouts))
    for seed in range(games):
        seats: list[Callable[..., Any]] = [heuristic_bot] * players
        seats[seed % players] = bot
        play_to_end(seats, 1000 + seed)
    return bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=200, help="rollouts per candidate (default 200)")
    parser.add_argument("--games", type=int, default=2, help="Monte Carlo games to time (default 2)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    args = parser.parse_args()
    print(
        f"ra_core bot benchmark: {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, one core"
    )
    print(f"\nper real decision, {args.players}-player self-play, 20 games each")
    print(f"{'bot':<12}{'wall us':>10}{'cpu us':>10}{'decisions':>11}")
    for name, policy in (("random", random_bot), ("greedy", greedy_bot), ("heuristic", heuristic_bot)):
        wall, cpu, n = per_decision(policy, args.players, 20)
        print(f"{name:<12}{wall:>10.1f}{cpu:>10.1f}{n:>11}")

    t = monte_carlo(args.rollouts, args.players, args.games)
    wall, cpu = sorted(t.wall), sorted(t.cpu)
    print(
        f"\nMonte Carlo bot, {args.rollouts} rollouts per candidate, {args.players} players, "
        f"{args.games} games vs heuristic bots: {len(wall)} timed decisions (+{t.trivial} with one legal action)"
    )
    p90 = int(0.9 * len(wall))
    for label, w, c in (
        ("median decision", statistics.median(wall), statistics.median(cpu)),
        ("90th percentile", wall[p90], cpu[p90]),
        ("slowest", wall[-1], cpu[-1]),
    ):
        print(f"  {label:<16} {w * 1e3:7.1f} ms wall  {c * 1e3:7.1f} ms cpu")
    print("  (target: median under 1000 ms on one core)")


if __name__ == "__main__":
    main()
