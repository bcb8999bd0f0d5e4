"""Golden playthroughs: a seeded random game written as the board, what could be done, and what was.

As OpenSpiel's playthroughs do, each step lists the board, then either the legal actions of
the player to move or the chance outcomes with their exact odds, then the action taken.

The files in ``tests/golden`` are regenerated only on purpose, and diffed in review:

    python -m tests.playthrough --players 3 --seed 1 > tests/golden/3p-seed-1.txt
"""

from __future__ import annotations

import argparse

from ra_core.bots import random_bot
from ra_core.engine.rules import Rules
from ra_core.engine.state import State
from ra_core.play import play_game


def playthrough(players: int, seed: int, rules: Rules | None = None) -> str:
    """Return the text of a seeded random game: the rules, then each action and the board after it."""
    record = play_game([random_bot] * players, seed=seed, rules=rules or Rules.default(players))
    lines = [f"# playthrough: {players} players, seed {seed}, random_bot in every seat", str(record.rules), ""]
    states = list(record.states())
    for text, state in zip(record.actions, states, strict=False):
        lines += [str(state), _choices(state), f"action: {text}", ""]
    lines += [str(states[-1]), ""]
    return "\n".join(lines)


def _choices(state: State) -> str:
    """Return the line that lists what can happen next: the chance odds or the legal actions."""
    if state.is_chance_node():
        return "chance: " + ", ".join(f"{str(a).removeprefix('reveal ')} {p}" for a, p in state.chance_outcomes())
    return f"legal (P{state.to_move}): " + ", ".join(map(str, state.legal_actions()))


def main(argv: list[str] | None = None) -> None:
    """Print a playthrough for the command-line arguments."""
    parser = argparse.ArgumentParser(prog="python -m tests.playthrough")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(playthrough(args.players, args.seed))


if __name__ == "__main__":
    main()
