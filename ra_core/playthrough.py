"""Golden playthroughs: a seeded random game written as actions and the board after each.

The files in ``tests/golden`` are regenerated only on purpose, and diffed in review:

    python -m ra_core.playthrough --players 3 --seed 1 > tests/golden/3p-seed-1.txt
"""

from __future__ import annotations

import argparse

from .bots import random_bot
from .play import play
from .rules import Rules


def playthrough(players: int, seed: int, rules: Rules | None = None) -> str:
    """Return the text of a seeded random game: the rules, then each action and the board after it."""
    record = play([random_bot] * players, seed=seed, rules=rules or Rules.default(players))
    lines = [f"# playthrough: {players} players, seed {seed}, random_bot in every seat", str(record.rules), ""]
    states = record.states()
    lines += [str(next(states)), ""]
    for text, state in zip(record.actions, states, strict=True):
        lines += [f"action: {text}", str(state), ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    """Print a playthrough for the command-line arguments."""
    parser = argparse.ArgumentParser(prog="python -m ra_core.playthrough")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(playthrough(args.players, args.seed))


if __name__ == "__main__":
    main()
