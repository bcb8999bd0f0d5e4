"""How long from a click to the updated board, in the play widget (target: median under 50 ms).

    .venv/bin/python benchmarks/widgets.py [--games 20] [--players 3]

Drives whole games by clicking a random legal button each time, and times every click until the
board, status, buttons and log are rendered again, with the bots' replies made in between but
their thinking time (the time spent inside the policies) left out. Two levels are timed:

* controller: `PlayController.click` plus the pure renderings (`board_html`, `status`,
  `choices`, `log_html`, `scores_html`): what any front end has to compute;
* view: a click message as the board's front end sends it, handled by `PlayView` (its
  `TableWidget`), which also sets the widget values (headless: no browser, so the comm
  messages go nowhere). The browser's own share is measured by tests/browser (see README).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ra_core.widgets import PlayController
from ra_core.widgets.views import PlayView


def _summary(name: str, times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p90 = ms[int(0.9 * (len(ms) - 1))]
    return (
        f"{name:<11} clicks {len(ms):5d}   median {statistics.median(ms):6.2f} ms   p90 {p90:6.2f} ms"
        f"   max {ms[-1]:6.2f} ms"
    )


def bench_controller(games: int, players: int) -> list[float]:
    """Return the click-to-rendered-board time of every click in `games` whole games."""
    rng = random.Random(0)
    times = []
    for seed in range(games):
        c = PlayController(players, you=0, seed=seed)
        while not c.state.is_terminal():
            choices = c.choices()
            action = choices[int(rng.random() * len(choices))].action
            bots = c.bot_seconds
            t0 = time.perf_counter()
            c.click(action, c.version)
            c.board_html(), c.status(), c.choices(), c.log_html(), c.scores_html()
            times.append(time.perf_counter() - t0 - (c.bot_seconds - bots))
    return times


def bench_view(games: int, players: int) -> list[float]:
    """Return the time of every click on the board in `games` whole games played through `PlayView`."""
    rng = random.Random(1)
    times = []
    for seed in range(games):
        view = PlayView(PlayController(players, you=0, seed=seed))
        c = view.controller
        while not c.state.is_terminal():
            choices = c.choices()
            action = choices[int(rng.random() * len(choices))].action
            bots = c.bot_seconds
            t0 = time.perf_counter()
            view.table._handle_custom_msg({"kind": "click", "action": action, "version": c.version}, [])
            times.append(time.perf_counter() - t0 - (c.bot_seconds - bots))
    return times


def main() -> None:
    """Run both benchmarks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    print(f"click -> updated board, {args.games} whole games of {args.players} players, bots' thinking excluded")
    controller = bench_controller(args.games, args.players)
    print(_summary("controller", controller))
    view = bench_view(max(1, args.games // 2), args.players)
    print(_summary("view", view))
    worst = max(statistics.median(controller), statistics.median(view)) * 1000
    print(f"target: median under 50 ms -> {'met' if worst < 50 else 'MISSED'} ({worst:.2f} ms)")


if __name__ == "__main__":
    main()
