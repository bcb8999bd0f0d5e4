"""The command line: play Ra in the terminal (watch a seeded bot game, or take a seat), or run a tournament.

python -m ra_core --players 3 --seed 1          # watch three heuristic bots
python -m ra_core --players 3 --seed 1 --you 0  # play seat 0 against two bots
python -m ra_core tournament heuristic alice.py:my_bot --players 3 --games 300  # a seeded tournament
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .analysis.entrants import load_bot
from .analysis.tournament import TIME_LIMIT, tournament, versus
from .bots import greedy_bot, heuristic_bot, random_bot
from .bots.montecarlo import MonteCarloBot
from .engine.actions import Action, parse_action
from .engine.errors import BotError, IllegalActionError, InvalidActionError
from .engine.rules import Rules
from .engine.setup import new_game
from .engine.state import State
from .pictures.narrate import narrate
from .play import Policy, play_game, steps

HELP = "Type the number of a choice or its notation (e.g. 2, draw, bid 9); 'board' shows the board, 'quit' stops."


def main(argv: list[str] | None = None, ask: Callable[[str], str] = input) -> int:
    """Run the command line; return the exit status. `ask` reads a line for your moves (default `input`).

    ``python -m ra_core tournament ...`` runs `tournament_main` with the rest of the line.
    """
    args_in = sys.argv[1:] if argv is None else list(argv)
    if args_in[:1] == ["tournament"]:
        return tournament_main(args_in[1:])
    parser = argparse.ArgumentParser(prog="python -m ra_core", description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3, choices=range(2, 6), help="2 to 5 (default 3)")
    parser.add_argument("--seed", default=1, help="the seed (default 1)")
    parser.add_argument("--quiet", action="store_true", help="print only the actions and the result")
    parser.add_argument("--bot", choices=("heuristic", "random"), default="heuristic", help="default: heuristic")
    parser.add_argument("--you", type=int, metavar="SEAT", help="play this seat yourself (0 starts the list)")
    args = parser.parse_args(args_in)
    if args.you is not None and not 0 <= args.you < args.players:
        parser.error(f"--you: the seats are 0 to {args.players - 1}")
    seed: int | str = int(args.seed) if str(args.seed).lstrip("-").isdigit() else args.seed
    rules = Rules.default(args.players)
    bot = heuristic_bot if args.bot == "heuristic" else random_bot
    print(rules, end="\n\n")
    if args.you is None:
        record = play_game([bot] * args.players, seed=seed, rules=rules, names=[f"P{i}" for i in range(args.players)])
        states = record.states()
        state = next(states)
        if not args.quiet:
            print(state, end="\n\n")
        for step, (text, after) in enumerate(zip(record.actions, states, strict=True), 1):
            _show(step, state, text, after, boards=not args.quiet)
            state = after
    else:
        final = _play_a_seat(args.you, bot, args.players, seed, rules, ask)
        if final is None:
            print("\nGame stopped.")
            return 0
        state = final
    print(f"\nwinner: P{state.winner()}  fame {list(state.fame)}")
    return 0


def _show(step: int, state: State, text: str, after: State, *, boards: bool) -> None:
    """Print one step in notation and plain words, and the board after each auction and epoch."""
    who = "chance" if state.to_move < 0 else f"P{state.to_move}"
    print(f"{step:4d}. {who + ':':8} {text:24} {narrate(state, text, after)}")
    if boards and (after.epoch != state.epoch or after.is_terminal() or state.auction and after.auction is None):
        print(after, end="\n\n")


def _play_a_seat(
    you: int, bot: Policy, players: int, seed: int | str, rules: Rules, ask: Callable[[str], str]
) -> State | None:
    """Play a game with `you` deciding for one seat; return the final state, or None if you quit.

    The game runs on the one game loop, `ra_core.play.steps`, with you as the policy of your
    seat: the tiles and the bots' choices are those `play` makes with this seed.
    """

    def you_choose(state: State, _: random.Random) -> Action:
        chosen = _your_choice(state, you, ask)
        if chosen is None:
            raise _Quit
        return chosen[0]

    state = new_game(players, seed=seed, rules=rules)
    print(f"You are P{you}. {HELP}\n")
    print(state, end="\n\n")
    policies = [you_choose if seat == you else bot for seat in range(players)]
    try:
        for step, (before, action, after) in enumerate(steps(state, policies, seed), 1):
            _show(step, before, str(action), after, boards=True)
            state = after
    except BotError as e:
        if isinstance(e.__cause__, _Quit):
            return None
        raise
    return state


class _Quit(Exception):
    """You typed 'quit', or the input ended."""


def _your_choice(state: State, you: int, ask: Callable[[str], str]) -> tuple[Action, State] | None:
    """Ask until a legal action is given; return it and the state after it, or None for 'quit' or the end of input."""
    legal = state.legal_actions()
    print("Your choices: " + "  ".join(f"{i}) {a}" for i, a in enumerate(legal, 1)))
    while True:
        try:
            line = ask(f"P{you}> ").strip()
        except EOFError:
            return None
        if line in ("quit", "exit", "q"):
            return None
        if line == "board":
            print(state)
            continue
        if line in ("help", "?", ""):
            print(HELP)
            continue
        if line.isdigit():
            if 1 <= int(line) <= len(legal):
                return legal[int(line) - 1], state.apply(legal[int(line) - 1])
            print(f"There are {len(legal)} choices: type 1 to {len(legal)}.")
            continue
        try:
            action = parse_action(line)
            return action, state.apply(action)  # the engine says why, if it is not legal
        except (InvalidActionError, IllegalActionError) as e:
            print(e)


def tournament_main(argv: Sequence[str] | None = None) -> int:
    """Run a tournament from the command line and print its table; return the exit status.

    ``python -m ra_core tournament montecarlo heuristic --versus --players 4 --games 200 --workers 2``

    A class tournament of students' bots, each a ``policy(state, rng)`` in a file of its own:
    ``python -m ra_core tournament alice.py:my_bot bob.py:my_bot heuristic --players 3 --games 300``
    """
    parser = argparse.ArgumentParser(
        prog="python -m ra_core tournament", description="Run a seeded tournament between bots and print its table."
    )
    parser.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help="random, greedy, heuristic, montecarlo, or a policy of your own: FILE.py:NAME or MODULE:NAME",
    )
    parser.add_argument("--versus", action="store_true", help="one copy of the first bot against the second")
    parser.add_argument("--players", type=int, default=4, help="2 to 5 (default 4)")
    parser.add_argument("--games", type=int, default=100, help="games (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="the master seed (default 0)")
    parser.add_argument("--rollouts", type=int, default=200, help="Monte Carlo rollouts per candidate (default 200)")
    parser.add_argument("--workers", type=int, default=0, help="processes in a pool (default 0: this process)")
    parser.add_argument(
        "--time-limit", type=float, default=TIME_LIMIT, help=f"seconds per decision (default {TIME_LIMIT})"
    )
    args = parser.parse_args(argv)
    pool: dict[str, Policy] = {
        "random": random_bot,
        "greedy": greedy_bot,
        "heuristic": heuristic_bot,
        "montecarlo": MonteCarloBot(rollouts=args.rollouts),
    }
    try:
        bots = [pool[name] if name in pool else load_bot(name) for name in args.bots]
    except ValueError as e:
        parser.error(str(e))
    if args.versus and len(bots) != 2:
        parser.error("--versus takes exactly two bots")
    executor = ProcessPoolExecutor(args.workers) if args.workers else None
    options: dict[str, Any] = {
        "players": args.players,
        "games": args.games,
        "seed": args.seed,
        "executor": executor,
        "time_limit": args.time_limit,
    }
    try:
        result = versus(*bots, **options) if args.versus else tournament(bots, **options)
    except BotError as e:  # a bot failed: say which, where, and how; no traceback
        print(f"python -m ra_core tournament: error: {e}", file=sys.stderr)
        return 1
    finally:
        if executor is not None:
            executor.shutdown()
    print(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
