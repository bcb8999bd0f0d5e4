"""Playing and recording games: chance sampling, the one game loop, seeded drivers, game records.

Chance and the players are kept apart. A game's seed derives separate random streams: one
deals the sun groups, one draws the tiles (`chance_stream`), and one per seat is handed to that
seat's policy (`bot_stream`). So the tiles of a seeded game are a function of the seed alone,
whatever the players do, and no bot can read the next tile off the random numbers it is given.

A `GameRecord` holds the rules, the seats' starting suns, the seed and every action,
chance reveals included, so replaying it needs no random numbers at all (as OpenSpiel's
playthroughs store ``action:`` lines); with the seed, a record's deal and tiles are checked
against the seed when it is loaded.

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
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .engine.actions import Action, parse_action
from .engine.errors import BotError, IllegalActionError, InvalidActionError, InvalidStateError
from .engine.history import AuctionResult, auctions
from .engine.rules import Rules
from .engine.safejson import MAX_INT, check_shape, load_json
from .engine.setup import lone_surrogate, new_game
from .engine.state import CHANCE, TERMINAL, Phase, State
from .engine.timer import DecisionTimeout, TimeLimit
from .engine.turns import REVEALS_BY_INDEX

#: A player: given the position and its own random stream, it returns its action (or its text).
Policy = Callable[[State, random.Random], "Action | str"]
_MAX_ACTIONS = 5000  # a game has a few hundred actions
RECORD_SCHEMA = "ra-record/2"  # /2: the tiles follow the seed's chance stream; /1 records are not checked
_OLD_SCHEMA = "ra-record/1"
_REVEAL = Phase.REVEAL
Seed = int | str
SEED_TEXT_MAX = 100  #: the longest text a seed may be


def seed_problem(seed: object) -> str:
    """Return why `seed` cannot seed a game whose record saves and loads back, or "" if it can.

    A seed is an integer of at most 2**63 either way (a record keeps it as a JSON number, and
    `GameRecord.from_json` reads no larger one: see `ra_core.engine.safejson`) or a text of at
    most `SEED_TEXT_MAX` characters.

    >>> seed_problem(2**63), seed_problem("class of 2025")
    ('', '')
    >>> seed_problem(10**100)
    'a seed is an integer from -2**63 to 2**63 or a short text; this integer has 333 bits'
    """
    if type(seed) is int and abs(seed) > MAX_INT:
        return f"a seed is an integer from -2**63 to 2**63 or a short text; this integer has {seed.bit_length()} bits"
    if type(seed) is str and len(seed) > SEED_TEXT_MAX:
        return f"a seed text has at most {SEED_TEXT_MAX} characters, not {len(seed)}"
    if type(seed) is str and lone_surrogate(seed):
        return f"a seed text must be valid Unicode, not hold the lone surrogate {lone_surrogate(seed)}"
    if type(seed) not in (int, str):
        return f"a seed is an integer or a short text, not {type(seed).__name__}"
    return ""


def next_seed(seed: Seed) -> Seed:
    """Return the seed of the game after one played with `seed`.

    That is the next integer, or the text with "+1" after it; both stay seeds (`seed_problem`),
    wrapping round at the ends of the range.

    >>> next_seed(7), next_seed("class"), next_seed(2**63)
    (8, 'class+1', -9223372036854775808)
    """
    if isinstance(seed, int):
        return seed + 1 if seed < MAX_INT else -MAX_INT
    return f"{seed[: SEED_TEXT_MAX - 2]}+1"


def fresh_seed() -> int:
    """Return a new seed from the operating system's randomness: a game without a seed is by chance (R11)."""
    return random.SystemRandom().randrange(2**32)


def chance_stream(seed: Seed) -> random.Random:
    """Return the random stream that draws the tiles of the game with this `seed`."""
    return random.Random(f"ra-chance:{seed!r}")


def bot_stream(seed: Seed, seat: int) -> random.Random:
    """Return the random stream handed to the policy of `seat` in the game with this `seed`."""
    return random.Random(f"ra-seat-{seat}:{seed!r}")


def sample_chance(state: State, rng: random.Random) -> Action:
    """Return a random chance outcome of `state` with the exact bag odds, using only ``rng.random()``."""
    if state.phase is not _REVEAL:
        raise ValueError(f"{state!r} is not a chance node")
    bag = state.bag
    # The tile whose cumulative count first exceeds r: each tile is hit with probability count/total.
    # A walk from the first tile: the common kinds come first in `Tile`, so it stops after a few
    # steps, cheaper than building the cumulative counts for a bisection.
    r = int(rng.random() * sum(bag))
    tile = 0
    for count in bag:
        if r < count:
            break
        r -= count
        tile += 1
    return REVEALS_BY_INDEX[tile]


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """A whole game: rules, starting suns per seat, seed, and every action in order.

    Attributes:
        rules: the rules in force.
        suns: each seat's starting suns.
        actions: every action's text, chance reveals included.
        seed: the seed the game was played with; the deal and the tiles follow from it.
        names: a name per seat, e.g. the bots' names.
        schema: ``"ra-record/2"``; a record read from an older ``"ra-record/1"`` file keeps that
            schema, and its tiles are not checked against its seed.
    """

    rules: Rules
    suns: tuple[tuple[int, ...], ...]
    actions: tuple[str, ...] = ()
    seed: int | str | None = None
    names: tuple[str, ...] = ()
    schema: str = RECORD_SCHEMA

    def start(self) -> State:
        """Return the state before the first action."""
        return new_game(self.rules.players, rules=self.rules, suns=self.suns)

    def states(self) -> Iterator[State]:
        """Yield the start state and the state after every action.

        Raises:
            InvalidStateError: an action cannot be replayed, or (for a seeded record) a revealed
                tile is not the one the seed draws; the field names the step.
        """
        state = self.start()
        yield state
        chance = chance_stream(self.seed) if self.seed is not None and self.schema == RECORD_SCHEMA else None
        for i, text in enumerate(self.actions):
            try:
                action = parse_action(text)
                if chance is not None and state.phase is _REVEAL:
                    drawn = sample_chance(state, chance)
                    if action != drawn:
                        raise ValueError(f"the seed {self.seed!r} draws {drawn} here: the record was edited")
                state = state.apply(action)
            except ValueError as e:
                raise InvalidStateError(f"actions[{i}]", f"{text!r:.40} cannot be replayed: {e}") from None
            yield state

    def replay(self) -> State:
        """Return the state after all the actions."""
        *_, last = self.states()
        return last

    def auctions(self) -> list[AuctionResult]:
        """Return every auction of the game, in order: bids, winner, sun and lot (see `ra_core.engine.history`)."""
        return auctions(self.start(), self.actions)

    def to_dict(self) -> dict[str, Any]:
        """Return the record as JSON-ready data (its `schema`, ``ra-record/2`` unless read from an older file)."""
        return {
            "schema": self.schema,
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
        """Return the record in `data`, replayed and checked; raise `InvalidStateError` naming the field.

        Types are strict, the sizes bounded (see `ra_core.engine.safejson.check_shape`), every action
        must replay, and for a seeded record the deal and the tiles must follow from the seed.
        """
        check_shape(data, "record", max_items=_MAX_ACTIONS)
        if not isinstance(data, dict):
            raise InvalidStateError("record", f"expected an object, got {type(data).__name__}")
        unknown = sorted(set(data) - {"schema", "rules", "suns", "seed", "names", "actions"})
        if unknown:
            raise InvalidStateError(unknown[0], "unknown field; known: schema, rules, suns, seed, names, actions")
        schema = data.get("schema")
        if schema not in (RECORD_SCHEMA, _OLD_SCHEMA):
            raise InvalidStateError("schema", f"expected {RECORD_SCHEMA!r}, got {schema!r:.40}")
        try:
            rules = Rules.from_dict(data.get("rules"))
        except (ValueError, TypeError) as e:
            raise InvalidStateError("rules", str(e)[:200]) from None
        suns = data.get("suns")
        if not isinstance(suns, list) or not all(isinstance(g, list) and all(type(x) is int for x in g) for g in suns):
            raise InvalidStateError("suns", "expected a list of each seat's suns (lists of integers)")
        actions = data.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) and len(a) <= 60 for a in actions):
            raise InvalidStateError("actions", "expected a list of action texts")
        seed = data.get("seed")
        if seed is not None and type(seed) not in (int, str):
            raise InvalidStateError("seed", f"expected an integer, a text or null, got {type(seed).__name__}")
        if seed is not None and seed_problem(seed):
            raise InvalidStateError("seed", seed_problem(seed))
        names = data.get("names") or []
        if not isinstance(names, list) or not all(isinstance(n, str) and len(n) <= 80 for n in names):
            raise InvalidStateError("names", "expected a list of seat names (texts)")
        record = cls(rules, tuple(tuple(g) for g in suns), tuple(actions), seed, tuple(names), schema)
        try:
            start = record.start()
        except ValueError as e:
            raise InvalidStateError("suns", str(e)[:200]) from None
        if names and len(names) != rules.players:
            raise InvalidStateError("names", f"expected one name per seat ({rules.players}), got {len(names)}")
        if seed is not None and schema == RECORD_SCHEMA and start != new_game(rules.players, seed=seed, rules=rules):
            raise InvalidStateError("suns", f"the seed {seed!r:.40} deals other sun groups: the record was edited")
        for _ in record.states():  # every action replays, and the tiles follow the seed
            pass
        return record

    @classmethod
    def from_json(cls, text: str | bytes | bytearray) -> GameRecord:
        """Return the record in the JSON text `text` (see `from_dict`)."""
        return cls.from_dict(load_json(text, "record"))


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


def play(
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
    """Return the final state of ``play(policies, seed=seed, rules=rules)``, without writing a record.

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


__all__ = [
    "GameRecord",
    "Policy",
    "bot_name",
    "bot_stream",
    "chance_stream",
    "decide",
    "fresh_seed",
    "play",
    "play_to_end",
    "sample_chance",
    "next_seed",
    "seed_problem",
    "steps",
]
