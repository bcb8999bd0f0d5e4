"""Engine cost in CPU instructions per decision, counted by valgrind's callgrind: repeatable on a busy machine.

Timings on a shared machine move with its load; an instruction count does not. This script runs
itself twice under ``valgrind --tool=callgrind``: both runs import the engine and play `--warm`
games first (seeds from 10,000: the engine's small caches fill, as they have in a long timed
run), then the second plays `--games` more (seeds from 0). The games are complete random games
through the public API, exactly as the speed ratio and `benchmarks/engine.py` play them
(`state.legal_actions()`, validated `state.apply()`, chance sampled with
`ra_core.play.sample_chance`). The difference, over the decisions of those games (chance steps
not counted, as in the ratio), is the figure. Needs `valgrind`.

    python benchmarks/engine_instructions.py [--games 30] [--warm 100] [--players 4]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys


def play(games: int, players: int, first_seed: int = 0) -> int:
    """Play `games` random games (seeds `first_seed`, `first_seed` + 1, ...) and return the decisions made."""
    from ra_core import TERMINAL, new_game
    from ra_core.play import sample_chance

    decisions = 0
    for seed in range(first_seed, first_seed + games):
        rng = random.Random(seed)
        state = new_game(players, seed=seed)
        while True:
            who = state.to_move
            if who == TERMINAL:
                break
            if who < 0:
                action = sample_chance(state, rng)
            else:
                legal = state.legal_actions()
                action = legal[int(rng.random() * len(legal))]
                decisions += 1
            state = state.apply(action)
    return decisions


def counted(games: int, warm: int, players: int) -> tuple[int, int]:
    """Return (instructions, decisions) of this script playing `warm` then `games` games under callgrind."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__]
    command += ["--child", "--games", str(games), "--warm", str(warm), "--players", str(players)]
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # the same dictionaries' layout in every run
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count:\n{done.stderr[-2000:]}")
    return int(found.group(1)), int(done.stdout.split()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30, help="random games (default 30)")
    ap.add_argument("--warm", type=int, default=100, help="games played first in both runs (default 100)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        play(args.warm, args.players, 10_000)
        print(play(args.games, args.players))
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    base, _ = counted(0, args.warm, args.players)
    total, decisions = counted(args.games, args.warm, args.players)
    print(f"{args.games} random {args.players}-player games after {args.warm} others, {decisions:,} decisions")
    print(f"instructions per decision {(total - base) / decisions / 1000:.2f}k")


if __name__ == "__main__":
    main()
