"""Playing and recording games: chance sampling, a seeded driver, and game records.

A `GameRecord` holds the rules, the seats' starting suns, the seed and every action,
chance reveals included, so replaying it needs no random numbers at all (as OpenSpiel's
playthroughs store ``action:`` lines).

>>> from ra_core.bots import random_bot
>>> record = play([random_bot] * 3, seed=7)
>>> final = record.replay()
>>> final.is_terminal(), final == GameRecord.from_json(record.to_json()).replay()
(True, True)
"""

from __future__ import annotations

import dataclasses
import json
import random
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from itertools import accumulate
from typing import Any

from .actions import Action, parse_action
from .errors import BotError, IllegalActionError, InvalidActionError, InvalidStateError
from .history import AuctionResult, auctions
from .rules import Rules
from .setup import new_game
from .state import CHANCE, TERMINAL, Phase, State
from .turns import REVEALS_BY_INDEX

Policy = Callable[[State, random.Random], Action]
RECORD_SCHEMA = "ra-record/1"
_REVEAL = Phase.REVEAL


def sample_chance(state: State, rng: random.Random) -> Action:
    """Return a random chance outcome of `state` with the exact bag odds, using only ``rng.random()``."""
    if state.phase is not _REVEAL:
        raise ValueError(f"{state!r} is not a chance node")
    cumulative = list(accumulate(state.bag))
    # The tile whose cumulative count first exceeds r: each tile is hit with probability count/total.
    return REVEALS_BY_INDEX[bisect_right(cumulative, int(rng.random() * cumulative[-1]))]


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """A whole game: rules, starting suns per seat, seed, and every action in order.

    Attributes:
        rules: the rules in force.
        suns: each seat's starting suns.
        actions: every action's text, chance reveals included.
        seed: the seed the game was played with (information only; replay does not need it).
        names: a name per seat, e.g. the bots' names.
    """

    rules: Rules
    suns: tuple[tuple[int, ...], ...]
    actions: tuple[str, ...] = ()
    seed: int | str | None = None
    names: tuple[str, ...] = ()

    def start(self) -> State:
        """Return the state before the first action."""
        return new_game(self.rules.players, rules=self.rules, suns=self.suns)

    def states(self) -> Iterator[State]:
        """Yield the start state and the state after every action."""
        state = self.start()
        yield state
        for i, text in enumerate(self.actions):
            try:
                state = state.apply(parse_action(text))
            except ValueError as e:
                raise InvalidStateError(f"actions[{i}]", f"{text!r} cannot be replayed: {e}") from None
            yield state

    def replay(self) -> State:
        """Return the state after all the actions."""
        *_, last = self.states()
        return last

    def auctions(self) -> list[AuctionResult]:
        """Return every auction of the game, in order: bids, winner, sun and lot (see `ra_core.history`)."""
        return auctions(self.start(), self.actions)

    def to_dict(self) -> dict[str, Any]:
        """Return the record as JSON-ready data (schema ``ra-record/1``)."""
        return {
            "schema": RECORD_SCHEMA,
            "rules": self.rules.to_dict(),
            "suns": [list(s) for s in self.suns],
            "seed": self.seed,
            "names": list(self.names),
            "actions": list(self.actions),
        }

    def to_json(self) -> str:
        """Return the record as a JSON string."""
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Return the record in `data`; raise `InvalidStateError` naming a malformed field."""
        if not isinstance(data, dict):
            raise InvalidStateError("record", f"expected an object, got {type(data).__name__}")
        if data.get("schema") != RECORD_SCHEMA:
            raise InvalidStateError("schema", f"expected {RECORD_SCHEMA!r}, got {data.get('schema')!r}")
        try:
            rules = Rules.from_dict(data.get("rules"))
        except (ValueError, TypeError) as e:
            raise InvalidStateError("rules", str(e)) from None
        suns = data.get("suns")
        if not isinstance(suns, list) or not all(isinstance(s, list) for s in suns):
            raise InvalidStateError("suns", f"expected a list of each seat's suns, got {suns!r}")
        actions = data.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise InvalidStateError("actions", "expected a list of action texts")
        record = cls(
            rules,
            tuple(tuple(s) for s in suns),
            tuple(actions),
            data.get("seed"),
            tuple(data.get("names") or ()),
        )
        try:
            record.start()
        except ValueError as e:
            raise InvalidStateError("suns", str(e)) from None
        return record

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Return the record in the JSON string `text`."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise InvalidStateError("record", f"not valid JSON: {e}") from None
        return cls.from_dict(data)


def bot_name(bot: Any) -> str:
    """Return a bot's display name: its ``name`` attribute, function name, or class name."""
    name = getattr(bot, "name", None)
    if isinstance(name, str):
        return name
    return getattr(bot, "__name__", type(bot).__name__)


def decide(
    policy: Policy, state: State, rng: random.Random, *, seed: Any = None, move: int = 0
) -> tuple[Action, State]:
    """Ask `policy` for its action in `state`; return the action and the state after it.

    A policy that raises, or returns an action that is not legal (or text that is no action),
    raises `BotError` instead, naming the bot, its seat, the game's `seed` and the `move`.
    """
    try:
        action = policy(state, rng)
    except Exception as e:  # whatever the bot raised is reported as the bot's failure
        raise _bot_error(policy, state, seed, move, f"raised {type(e).__name__}", e) from e
    try:
        return action, state.apply(action)
    except (IllegalActionError, InvalidActionError) as e:
        raise _bot_error(policy, state, seed, move, "chose an illegal action", e) from e


def _bot_error(policy: Policy, state: State, seed: Any, move: int, what: str, cause: Exception) -> BotError:
    """Return the error for `policy` failing at `move`: who, what, where, and the cause's message."""
    name, seat = bot_name(policy), state.to_move
    where = f"in the game with seed {seed!r}, move {move}"
    if not isinstance(cause, IllegalActionError):  # its message names the phase already
        where += f" (phase {state.phase.name})"
    return BotError(f"bot {name!r} (seat {seat}) {what} {where}: {cause}", name, seat, seed, move)


def play(
    policies: Sequence[Policy],
    *,
    seed: int | str | None = None,
    rules: Rules | None = None,
    names: Sequence[str] | None = None,
) -> GameRecord:
    """Play a whole game, seat i moved by ``policies[i]``, and return its record.

    One `random.Random(seed)` drives the chance draws and is handed to every policy; the
    seed also decides the sun groups (see `new_game`). The same seed gives the same game.
    A policy that fails raises `BotError` (see `decide`).
    """
    start = new_game(len(policies), seed=seed, rules=rules)
    actions: list[str] = []
    _play_out(start, policies, seed, actions)
    names = tuple(names) if names else tuple(getattr(p, "__name__", type(p).__name__) for p in policies)
    return GameRecord(start.rules, tuple(p.suns_up for p in start.players), tuple(actions), seed, names)


def play_to_end(policies: Sequence[Policy], seed: int | str | None, rules: Rules | None = None) -> State:
    """Return the final state of ``play(policies, seed=seed, rules=rules)``, without writing a record.

    The same game as `play` (one `random.Random(seed)` for chance and policies): a tournament
    needs only the end. A policy that fails raises `BotError`.
    """
    return _play_out(new_game(len(policies), seed=seed, rules=rules), policies, seed)


def _play_out(
    state: State, policies: Sequence[Policy], seed: int | str | None, actions: list[str] | None = None
) -> State:
    """Play from `state` to the end with ``random.Random(seed)``; append each action's text to `actions`."""
    rng = random.Random(seed)
    move = 0
    while True:
        who = state.to_move
        if who == TERMINAL:
            return state
        if who == CHANCE:
            action = sample_chance(state, rng)
            state = state.apply(action)
        else:
            action, state = decide(policies[who], state, rng, seed=seed, move=move)
        if actions is not None:
            actions.append(str(action))
        move += 1


__all__ = ["GameRecord", "Policy", "bot_name", "decide", "play", "play_to_end", "sample_chance"]
