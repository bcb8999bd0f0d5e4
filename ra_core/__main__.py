"""Play a seeded bot game in the terminal and print it move by move.

python -m ra_core --players 3 --seed 1
"""

from __future__ import annotations

import argparse
import sys

from .bots import heuristic_bot, random_bot
from .narrate import narrate
from .play import play
from .rules import Rules


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m ra_core", description=__doc__.splitlines()[1])
    parser.add_argument("--players", type=int, default=3, choices=range(2, 6), help="2 to 5 (default 3)")
    parser.add_argument("--seed", default=1, help="the seed (default 1)")
    parser.add_argument("--quiet", action="store_true", help="print only the actions and the result")
    parser.add_argument("--bot", choices=("heuristic", "random"), default="heuristic", help="default: heuristic")
    args = parser.parse_args(argv)
    seed: int | str = int(args.seed) if str(args.seed).lstrip("-").isdigit() else args.seed
    rules = Rules.default(args.players)
    bot = heuristic_bot if args.bot == "heuristic" else random_bot
    record = play([bot] * args.players, seed=seed, rules=rules, names=[f"P{i}" for i in range(args.players)])
    print(rules)
    print()
    states = record.states()
    state = next(states)
    if not args.quiet:
        print(state, end="\n\n")
    for step, (text, after) in enumerate(zip(record.actions, states, strict=True), 1):
        who = "chance" if state.to_move < 0 else f"P{state.to_move}"
        print(f"{step:4d}. {who + ':':8} {text:24} {narrate(state, text, after)}")
        if not args.quiet and (
            after.epoch != state.epoch or after.is_terminal() or state.auction is not None and after.auction is None
        ):
            print(after, end="\n\n")
        state = after
    print(f"\nwinner: P{state.winner()}  fame {list(state.fame)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
