"""Engine cost in CPU instructions per decision, counted by valgrind's callgrind: repeatable on a busy machine.

Timings on a shared machine move with its load; an instruction count does not. This script runs
itself twice under ``valgrind --tool=callgrind``: both runs import the engine and play `--warm`
games first (seeds from 10,000: the engine's small caches fill, as they have in a long timed
run), then the second plays `--games` more (seeds from 0). The games are complete random games
through the public API, exactly as the speed ratio and `benchmarks/engine.py` play them
(`state.legal_actions()`, validated `state.apply()`, chance sampled with
`ra_core.play.sample_chance`). The difference, over the decisions of those games (chance steps
not counted, as in the ratio), is the figure. Needs `valgrind`.

``--yardstick FILE`` counts the immutable yardstick of the speed ratio the same way (FILE is its
``yardstick_immutable.py``; its `run` plays one random 4-player game and returns its decisions), and
prints how many times fewer instructions a decision of the engine costs: the ratio in instructions,
which a busy machine does not move.

    python benchmarks/engine_instructions.py [--games 30] [--warm 100] [--players 4] [--yardstick FILE]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
from typing import Any


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


def play_yardstick(path: str, games: int, seed: int) -> int:
    """Play `games` games of the yardstick in `path` (one `random.Random(seed)` for all) and return the decisions made.

    The file is read as the speed ratio reads it: its definitions, without its own timing code.
    """
    with open(path, encoding="utf-8") as f:
        source = f.read().split("rng=random.Random(1)")[0]
    names: dict[str, Any] = {"__name__": "yardstick"}
    exec(compile(source, path, "exec"), names)  # a benchmark's own input file, as the ratio runs it
    rng = random.Random(seed)
    return sum(names["run"](rng) for _ in range(games))


def counted(games: int, warm: int, players: int, yardstick: str = "") -> tuple[int, int]:
    """Return (instructions, decisions) of this script playing `warm` then `games` games under callgrind.

    The games are the engine's, or the yardstick's in the file `yardstick` if one is named.
    """
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__]
    command += ["--child", "--games", str(games), "--warm", str(warm), "--players", str(players)]
    command += ["--yardstick", yardstick] if yardstick else []
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
    ap.add_argument("--yardstick", default="", help="the speed ratio's yardstick_immutable.py, to count it too")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child and args.yardstick:
        play_yardstick(args.yardstick, args.warm, 10_000)
        print(play_yardstick(args.yardstick, args.games, 0))
        return
    if args.child:
        play(args.warm, args.players, 10_000)
        print(play(args.games, args.players))
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    engine = per_decision(args.games, args.warm, args.players)
    print(f"instructions per decision {engine / 1000:.2f}k")
    if args.yardstick:
        yardstick = per_decision(args.games, args.warm, 4, args.yardstick)
        print(f"yardstick's instructions per decision {yardstick / 1000:.2f}k")
        print(f"ratio in instructions {yardstick / engine:.2f} (yardstick's per decision over the engine's)")


def per_decision(games: int, warm: int, players: int, yardstick: str = "") -> float:
    """Return the instructions per decision of `games` games after `warm` others (the engine's, or the yardstick's)."""
    base, _ = counted(0, warm, players, yardstick)
    total, decisions = counted(games, warm, players, yardstick)
    who = "of the yardstick" if yardstick else f"{players}-player"
    print(f"{games} random {who} games after {warm} others, {decisions:,} decisions")
    return (total - base) / decisions


if __name__ == "__main__":
    main()
