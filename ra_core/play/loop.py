"""The one game loop and the games it plays: a policy's decision, every step of a game, seeded games.

A policy is any callable ``policy(state, rng)`` returning an action (or its text). `decide`
asks one for its move and holds it to the rules and a time limit; `steps` is the one game loop,
which everything that plays a game runs on (a game between bots, the notebook table, the
terminal, the Monte Carlo bot's rollouts, tournaments); `play_game` plays a seeded game and
returns its `GameRecord`, `play_to_end` only its final state.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..engine.actions import Action, parse_action
from ..engine.errors import BotError, IllegalActionError, InvalidActionError
from ..engine.rules import Rules
from ..engine.setup import new_game
from ..engine.state import CHANCE, TERMINAL, State
from ..engine.timer import DecisionTimeout, TimeLimit
from .record import GameRecord
from .seeds import Seed, bot_stream, chance_stream, fresh_seed, sample_chance, seed_problem

__all__ = ["Policy", "bot_name", "decide", "play_game", "play_to_end", "steps"]

#: A player: given the position and its own random stream, it returns its action (or its text).
Policy = Callable[[State, random.Random], "Action | str"]


def bot_name(bot: Any) -> str:
    """Return a bot's display name: its ``name`` attribute, function name, or class name."""
    name = getattr(bot, "name", None)
    if isinstance(name, str):
        return name
    return getattr(bot, "__name__", type(bot).__name__)


def decide(
    policy: Policy,
    state: State,
    rng: random.Random,
    *,
    seed: Any = None,
    move: int = 0,
    time_limit: float | TimeLimit | None = None,
) -> tuple[Action, State]:
    """Ask `policy` for its action in `state`; return the action and the state after it.

    A policy that raises (anything: `SystemExit` and `KeyboardInterrupt` too, so that a bot cannot
    end a tournament; a Ctrl-C during a decision then also stops the game as this bot's failure),
    returns an action that is not legal (or text
    that is no action), or takes longer than `time_limit` seconds raises `BotError` instead,
    naming the bot, its seat, the game's `seed` and the `move`. A bot that never returns is
    stopped at the limit where the operating system allows it (see `ra_core.engine.timer`); for
    many decisions, pass one entered `TimeLimit` instead of the seconds.
    """
    try:
        if time_limit is None:
            action = policy(state, rng)
        elif isinstance(time_limit, TimeLimit):
            action = time_limit.run(policy, state, rng)
        else:
            with TimeLimit(time_limit) as limit:
                action = limit.run(policy, state, rng)
        if isinstance(action, str):
            action = parse_action(action)
    except DecisionTimeout:
        raise _bot_error(policy, state, seed, move, f"took longer than {_seconds(time_limit)} s", None) from None
    except (IllegalActionError, InvalidActionError) as e:
        raise _bot_error(policy, state, seed, move, "chose an illegal action", e) from e
    except BaseException as e:  # whatever the bot raised (SystemExit, KeyboardInterrupt too) is its failure
        raise _bot_error(policy, state, seed, move, f"raised {type(e).__name__}", e) from e
    try:
        return action, state.apply(action)
    except (IllegalActionError, InvalidActionError) as e:
        raise _bot_error(policy, state, seed, move, "chose an illegal action", e) from e


def _seconds(time_limit: float | TimeLimit | None) -> float | None:
    return time_limit.seconds if isinstance(time_limit, TimeLimit) else time_limit


def _bot_error(policy: Policy, state: State, seed: Any, move: int, what: str, cause: BaseException | None) -> BotError:
    """Return the error for `policy` failing at `move`, in one line: who, what, where, and the cause."""
    name, seat = bot_name(policy), state.to_move
    where = f"in the game with seed {seed!r}, move {move}"
    if not isinstance(cause, IllegalActionError):  # its message names the phase already
        where += f" (phase {state.phase.name})"
    detail = "" if cause is None else ": " + " ".join(str(cause).split())[:300]
    return BotError(f"bot {name!r} (seat {seat}) {what} {where}{detail}", name, seat, seed, move)


def play_game(
    policies: Sequence[Policy],
    *,
    seed: Seed | None = None,
    rules: Rules | None = None,
    names: Sequence[str] | None = None,
) -> GameRecord:
    """Play a whole game, seat i moved by ``policies[i]``, and return its record.

    The seed decides the deal (see `new_game`), the tiles (`chance_stream`) and each seat's own
    random stream (`bot_stream`); the same seed gives the same game. Without a seed a fresh one
    is drawn (`fresh_seed`) and kept in the record. A policy that fails raises `BotError`; a
    seed whose record could not be loaded back (`seed_problem`) raises `ValueError` at once.
    """
    seed = fresh_seed() if seed is None else seed
    if seed_problem(seed):
        raise ValueError(f"seed: {seed_problem(seed)}")
    start = new_game(len(policies), seed=seed, rules=rules)
    actions = [str(action) for _, action, _ in steps(start, policies, seed)]
    names = tuple(names) if names else tuple(bot_name(p) for p in policies)
    return GameRecord(start.rules, tuple(p.suns_up for p in start.players), tuple(actions), seed, names)


def play_to_end(
    policies: Sequence[Policy], seed: Seed, rules: Rules | None = None, *, time_limit: float | None = None
) -> State:
    """Return the final state of ``play_game(policies, seed=seed, rules=rules)``, without writing a record.

    `time_limit`: the seconds each decision may take (see `decide`); None for no limit.
    """
    start = new_game(len(policies), seed=seed, rules=rules)
    last = deque(steps(start, policies, seed, time_limit=time_limit), maxlen=1)
    return last[0][2] if last else start


def steps(
    state: State, policies: Sequence[Policy], seed: Seed, *, time_limit: float | None = None
) -> Iterator[tuple[State, Action, State]]:
    """Yield ``(state, action, next state)`` for every step from `state` to the end: the one game loop.

    Chance draws from ``chance_stream(seed)``; seat i's policy gets ``bot_stream(seed, i)``. A
    policy that fails raises `BotError` (see `decide`).
    """
    chance = chance_stream(seed)
    streams = [bot_stream(seed, seat) for seat in range(len(policies))]
    move = 0
    with TimeLimit(time_limit) as limit:  # the alarm's handler, installed once for the game
        while True:
            who = state.to_move
            if who == TERMINAL:
                return
            if who == CHANCE:
                action = sample_chance(state, chance)
                after = state.apply(action)
            else:
                action, after = decide(policies[who], state, streams[who], seed=seed, move=move, time_limit=limit)
            yield state, action, after
            state = after
            move += 1
