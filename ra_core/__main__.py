"""Play a seeded bot game in the terminal and print it move by move.

python -m ra_core --players 3 --seed 1
"""

from __future__ import annotations

import argparse
import sys

from .bots import random_bot
from .play import play
from .rules import Rules


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m ra_core", description=__doc__.splitlines()[1])
    parser.add_argument("--players", type=int, default=3, choices=range(2, 6), help="2 to 5 (default 3)")
    parser.add_argument("--seed", default=1, help="the seed (default 1)")
    parser.add_argument("--quiet", action="store_true", help="print only the actions and the result")
    args = parser.parse_args(argv)
    seed: int | str = int(args.seed) if str(args.seed).lstrip("-").isdigit() else args.seed
    rules = Rules.default(args.players)
    record = play([random_bot] * args.players, seed=seed, rules=rules)
    print(rules)
    print()
    states = record.states()
    state = next(states)
    if not args.quiet:
        print(state, end="\n\n")
    for step, (text, after) in enumerate(zip(record.actions, states, strict=True), 1):
        who = "chance" if state.to_move < 0 else f"P{state.to_move}"
        print(f"{step:4d}. {who}: {text}")
        if not args.quiet and (
            after.epoch != state.epoch or after.is_terminal() or state.auction is not None and after.auction is None
        ):
            print(after, end="\n\n")
        if after.scores != state.scores:
            score = after.scores[-1]
            for i, b in enumerate(score.players):
                print(f"      epoch {score.epoch} P{i}: {b.net:+d} -> fame {b.fame_after}")
        state = after
    print(f"\nwinner: P{state.winner()}  fame {list(state.fame)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
