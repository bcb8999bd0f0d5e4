"""Where the engine's time goes: random games' steps timed by kind, per step and per game.

The steps of complete random-legal-action games (as in `benchmarks/engine.py` and the speed
ratio) are sorted by what they do, then each kind is re-applied to its recorded positions and
timed on its own, best of several repetitions. Chance sampling (`sample_chance`) and setting up a
game (`new_game`) are timed as kinds of their own. What the table leaves out is the game loop
itself and the freeing of each step's old position, which a whole-game run also pays.

    python benchmarks/engine_steps.py [--players 4] [--games 60] [--repeat 7]
"""

from __future__ import annotations

import argparse
import random
import timeit
from collections import defaultdict
from collections.abc import Callable

from ra_core import TERMINAL, Bid, Pass, State, new_game
from ra_core.engine.actions import Action
from ra_core.play import sample_chance


def kind_of(before: State, action: Action, after: State) -> str:
    """Return the kind of step `action` makes from `before` to `after`."""
    if after.epoch != before.epoch or after.is_terminal():
        return "step that ends the epoch"
    name = type(action).__name__
    if isinstance(action, Bid | Pass) and after.auction is None:
        a = before.auction
        won = isinstance(action, Bid) or (a is not None and a.high_bidder >= 0)
        if not won:
            return "last pass, nobody bid"
        disasters = any(t is not None and t.is_disaster for t in before.track)
        return "closing bid, lot with disasters" if disasters else "closing bid"
    return {"Bid": "bid", "Pass": "pass", "Reveal": "reveal", "Draw": "draw", "CallRa": "call Ra"}.get(name, name)


def collect(players: int, games: int) -> dict[str, list[tuple[State, Action]]]:
    """Return the (position, action) pairs of `games` random games, by kind; chance nodes also as 'sample'."""
    steps: dict[str, list[tuple[State, Action]]] = defaultdict(list)
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(players, seed=seed)
        while state.to_move != TERMINAL:
            if state.to_move < 0:
                action = sample_chance(state, rng)
                steps["sample (chance)"].append((state, action))
            else:
                legal = state.legal_actions()
                action = legal[int(rng.random() * len(legal))]
            after = state.apply(action)
            steps[kind_of(state, action, after)].append((state, action))
            state = after
    return steps


def _replay(kind: str, pairs: list[tuple[State, Action]]) -> Callable[[], object]:
    """Return work that makes each recorded step of `kind` again (a chance node: samples it)."""
    if kind == "sample (chance)":
        rng = random.Random(0)
        return lambda: [sample_chance(s, rng) for s, _ in pairs]
    return lambda: [s.apply(a) for s, a in pairs]


def best_of(work: Callable[[], object], repeat: int) -> float:
    """Return the least time of `repeat` runs of `work`, in seconds."""
    return min(timeit.repeat(work, number=1, repeat=repeat))


def main() -> None:
    """Print each kind of step's time, its count per game and its share of the steps' time."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    steps = collect(args.players, args.games)
    rows = []
    for kind, pairs in steps.items():
        seconds = best_of(_replay(kind, pairs), args.repeat)
        rows.append((kind, seconds / len(pairs) * 1e6, len(pairs) / args.games))
    seconds = best_of(lambda: [new_game(args.players, seed=g) for g in range(args.games)], args.repeat)
    rows.append(("new_game", seconds / args.games * 1e6, 1.0))
    total = sum(each * count for _, each, count in rows)
    print(f"{args.players} players, {args.games} random games, best of {args.repeat}")
    print(f"{'kind of step':32} {'us each':>8} {'per game':>9} {'us/game':>8} {'share':>6}")
    for kind, each, count in sorted(rows, key=lambda r: -r[1] * r[2]):
        print(f"{kind:32} {each:8.2f} {count:9.1f} {each * count:8.1f} {each * count / total:6.1%}")
    print(f"{'all timed steps':32} {'':8} {'':9} {total:8.1f}")


if __name__ == "__main__":
    main()
