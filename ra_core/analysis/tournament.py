"""Seeded tournaments between bots, with rotated seats and confidence intervals.

Two formats, both reproducible from one seed and identical whatever runs them:

* `tournament(bots, players=n)`: a multi-bot table. With k bots, game g seats bot
  ``(g + i) % k`` in seat i, so in every block of k games each bot sits in each seat once
  (exact balance when `games` is a multiple of k). With k < n a bot fills several seats of
  a game; with k > n some bots sit a game out.
* `versus(a, b, players=n)`: one copy of `a` against n-1 copies of `b` (the "A vs field"
  format); `a` sits in seat ``g % n`` in game g. Its win rate is compared with the 1/n of
  a bot no better than the field.

Statistics are per **seat-game** (one bot in one seat of one game): a bot's win rate is the
seats it won over the seats it filled, so the baseline of a bot equal to the others is 1/n.
Win rates get a Wilson score interval and mean fame a normal interval (mean +- z s/sqrt(m)),
at 95 % confidence by default. Seat-games of one game are treated as independent, which is
exact for a bot with one seat a game (`a` in `versus`, or k >= n) and approximate for a bot
with several copies in a game.

Game g is played as ``ra_core.play.play_game`` plays it, with the g-th of `game_seeds(seed, games)`. Any
`concurrent.futures.Executor` can run the games (a process pool, a thread pool, or a cluster
executor such as Dask's ``client.get_executor()``): games are sent in chunks and the results
put back in game order, so the tables do not depend on the executor. Bots sent to a process
pool must be picklable (module-level functions or instances of module-level classes).

>>> from ra_core.bots import heuristic_bot, random_bot
>>> result = versus(heuristic_bot, random_bot, players=3, games=6, seed=1, progress=False)
>>> result.stats()[0].name, result.stats()[0].wins
('heuristic', 6)
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from html import escape
from typing import NamedTuple

from ..engine.rules import Rules
from ..play import Policy, bot_name, play_to_end
from .entrants import NamedBot, load_bot
from .progress import Progress, progress_bar
from .stats import mean_interval, wilson_interval

__all__ = [
    "BotStats",
    "GameResult",
    "NamedBot",
    "TournamentResult",
    "bot_name",
    "game_seeds",
    "load_bot",
    "mean_interval",
    "play_to_end",
    "run_games",
    "tournament",
    "versus",
    "wilson_interval",
]


#: The default seconds one decision of a bot may take in a tournament.
TIME_LIMIT = 5.0


def game_seeds(seed: int | str | None, games: int) -> list[int]:
    """Return the per-game seeds derived from the master `seed` (only ``random()`` is used)."""
    rng = random.Random(seed)
    return [int(rng.random() * 2**32) for _ in range(games)]


class GameResult(NamedTuple):
    """One game of a tournament: its seed, which bot sat in each seat, the fame and the winner."""

    seed: int
    lineup: tuple[int, ...]
    fame: tuple[int, ...]
    winner: int


@dataclasses.dataclass(frozen=True)
class BotStats:
    """One bot's results over its seat-games, with confidence intervals."""

    name: str
    seat_games: int
    wins: int
    win_rate: float
    win_low: float
    win_high: float
    mean_fame: float
    fame_low: float
    fame_high: float
    baseline: float


@dataclasses.dataclass(frozen=True)
class TournamentResult:
    """The games of a tournament and the table they make.

    Attributes:
        names: the bots' names, by bot index.
        players: seats per game.
        seed: the master seed.
        games: every game, in game order.
        confidence: the confidence level of the intervals.
        title: a heading for the table.
    """

    names: tuple[str, ...]
    players: int
    seed: int | str | None
    games: tuple[GameResult, ...]
    confidence: float = 0.95
    title: str = ""

    def stats(self) -> list[BotStats]:
        """Return each bot's win rate and mean fame per seat-game, with intervals, by bot index."""
        wins = [0] * len(self.names)
        fames: list[list[int]] = [[] for _ in self.names]
        for g in self.games:
            for seat, bot in enumerate(g.lineup):
                fames[bot].append(g.fame[seat])
                wins[bot] += seat == g.winner
        out = []
        for i, name in enumerate(self.names):
            m = len(fames[i])
            low, high = wilson_interval(wins[i], m, self.confidence)
            mean, flow, fhigh = mean_interval(fames[i], self.confidence)
            rate = wins[i] / m if m else math.nan
            out.append(BotStats(name, m, wins[i], rate, low, high, mean, flow, fhigh, 1 / self.players))
        return out

    def __str__(self) -> str:
        level = f"{self.confidence:.0%}"
        head = self.title or f"{len(self.games)} games, {self.players} players, seed {self.seed}"
        rate, fame = f"win rate [{level} Wilson]", f"mean fame [{level}]"
        lines = [head, f"{'bot':<16}{'seats':>7}{'wins':>7}  {rate:<28}{fame}"]
        for s in self.stats():
            lines.append(
                f"{s.name:<16}{s.seat_games:>7}{s.wins:>7}  "
                f"{s.win_rate:6.1%} [{s.win_low:6.1%}, {s.win_high:6.1%}]      "
                f"{s.mean_fame:5.1f} [{s.fame_low:5.1f}, {s.fame_high:5.1f}]"
            )
        lines.append(f"(a bot no better than the others wins {1 / self.players:.1%} of its seats)")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{escape(s.name)}</td><td>{s.seat_games}</td><td>{s.wins}</td>"
            f"<td>{s.win_rate:.1%} [{s.win_low:.1%}, {s.win_high:.1%}]</td>"
            f"<td>{s.mean_fame:.1f} [{s.fame_low:.1f}, {s.fame_high:.1f}]</td></tr>"
            for s in self.stats()
        )
        level = f"{self.confidence:.0%}"
        return (
            f"<p>{escape(self.title or f'{len(self.games)} games, {self.players} players, seed {self.seed}')}"
            f" (baseline {1 / self.players:.1%})</p><table><tr><th>bot</th><th>seats</th><th>wins</th>"
            f"<th>win rate [{level} Wilson]</th><th>mean fame [{level}]</th></tr>{rows}</table>"
        )


def _play_games(
    bots: Sequence[Policy], rules: Rules, jobs: Sequence[tuple[int, tuple[int, ...]]], time_limit: float | None = None
) -> list[GameResult]:
    """Play the games `jobs` (seed, lineup) and return their results (runs in a worker)."""
    out = []
    for seed, lineup in jobs:
        final = play_to_end([bots[b] for b in lineup], seed, rules, time_limit=time_limit)
        winner = final.winner()
        assert winner is not None
        out.append(GameResult(seed, lineup, final.fame, winner))
    return out


def run_games(
    bots: Sequence[Policy],
    lineups: Sequence[tuple[int, ...]],
    *,
    seed: int | str | None = 0,
    rules: Rules | None = None,
    executor: Executor | None = None,
    chunk_size: int | None = None,
    progress: Progress | bool | None = None,
    time_limit: float | None = TIME_LIMIT,
) -> list[GameResult]:
    """Play one game per lineup (bot index per seat) with seeds from `seed`; return them in order.

    `time_limit` is the seconds one decision of a bot may take (None: no limit); a bot over it
    raises `BotError` naming it. In this process's main thread and in a process pool's workers a
    bot that never returns is interrupted at the limit (Unix; see `ra_core.engine.timer`); in a thread
    pool it is refused only when it returns.
    """
    players = len(lineups[0]) if lineups else 2
    rules = rules or Rules.default(players)
    jobs = list(zip(game_seeds(seed, len(lineups)), (tuple(x) for x in lineups), strict=True))
    size = chunk_size or max(1, min(50, math.ceil(len(jobs) / 64)))
    chunks = [jobs[i : i + size] for i in range(0, len(jobs), size)]
    report = progress_bar(progress)
    results: list[GameResult] = []
    if executor is None:
        for chunk in chunks:
            results.extend(_play_games(bots, rules, chunk, time_limit))
            report(len(results), len(jobs))
    else:
        futures = [executor.submit(_play_games, bots, rules, chunk, time_limit) for chunk in chunks]
        for future in futures:  # in order: the results never depend on finishing order
            results.extend(future.result())
            report(len(results), len(jobs))
    return results


def _named(bots: Sequence[Policy] | Mapping[str, Policy]) -> tuple[list[str], list[Policy]]:
    """Return names and policies; repeated names get ``#2``, ``#3``."""
    if isinstance(bots, Mapping):
        return list(bots), list(bots.values())
    names: list[str] = []
    for b in bots:
        name = bot_name(b)
        names.append(name if name not in names else f"{name}#{names.count(name) + 1}")
    return names, list(bots)


def tournament(
    bots: Sequence[Policy] | Mapping[str, Policy],
    *,
    players: int,
    games: int,
    seed: int | str | None = 0,
    rules: Rules | None = None,
    executor: Executor | None = None,
    chunk_size: int | None = None,
    progress: Progress | bool | None = None,
    confidence: float = 0.95,
    time_limit: float | None = TIME_LIMIT,
) -> TournamentResult:
    """Play `games` seeded games between `bots` with rotated seats; return the table.

    Args:
        bots: the policies (or ``{name: policy}``); game g seats bot ``(g + i) % k`` in seat i.
        players: seats per game (2-5).
        games: how many games; a multiple of ``len(bots)`` balances the seats exactly.
        seed: the master seed; the same seed gives the same games and table.
        rules: the rules (default `Rules.default(players)`).
        executor: a `concurrent.futures.Executor` to run the games, or None to run them here.
        chunk_size: games per task sent to the executor (default: about 64 tasks, <= 50 games each).
        progress: a callable ``(done, total)``, True for a bar (tqdm: text in a terminal, a
            widget in a notebook), False for none; None (default) shows the bar when stderr is
            a terminal (see `ra_core.analysis.progress`).
        confidence: the confidence level of the intervals.
        time_limit: the seconds one decision may take (see `run_games`); None for no limit.
    """
    names, policies = _named(bots)
    k = len(policies)
    lineups = [tuple((g + i) % k for i in range(players)) for g in range(games)]
    results = run_games(
        policies,
        lineups,
        seed=seed,
        rules=rules,
        executor=executor,
        chunk_size=chunk_size,
        progress=progress,
        time_limit=time_limit,
    )
    title = f"{games} games, {players} players, seed {seed}: " + " / ".join(names)
    return TournamentResult(tuple(names), players, seed, tuple(results), confidence, title)


def versus(
    a: Policy,
    b: Policy,
    *,
    players: int,
    games: int,
    seed: int | str | None = 0,
    rules: Rules | None = None,
    executor: Executor | None = None,
    chunk_size: int | None = None,
    progress: Progress | bool | None = None,
    confidence: float = 0.95,
    time_limit: float | None = TIME_LIMIT,
) -> TournamentResult:
    """Play one copy of `a` against ``players - 1`` copies of `b`; `a` sits in seat ``g % players``.

    The first row of the table is `a`: its win rate against the baseline 1/players says
    whether it beats the field of `b`. The arguments are those of `tournament`.
    """
    names, policies = _named([a, b])
    lineups = [tuple(0 if i == g % players else 1 for i in range(players)) for g in range(games)]
    results = run_games(
        policies,
        lineups,
        seed=seed,
        rules=rules,
        executor=executor,
        chunk_size=chunk_size,
        progress=progress,
        time_limit=time_limit,
    )
    title = f"{names[0]} vs {players - 1} x {names[1]}: {games} games, {players} players, seed {seed}"
    return TournamentResult(tuple(names), players, seed, tuple(results), confidence, title)
