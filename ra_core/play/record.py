"""Game records: a whole game as its rules, starting suns, seed and actions; saved, loaded, replayed.

A `GameRecord` holds the rules, the seats' starting suns, the seed and every action,
chance reveals included, so replaying it needs no random numbers at all (as OpenSpiel's
playthroughs store ``action:`` lines); with the seed, a record's deal and tiles are checked
against the seed when it is loaded.

>>> from ra_core.bots import random_bot
>>> from ra_core.play import play_game
>>> record = play_game([random_bot] * 3, seed=7)
>>> final = record.replay()
>>> final.is_terminal(), final == GameRecord.from_json(record.to_json()).replay()
(True, True)
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

from ..engine.actions import parse_action
from ..engine.errors import InvalidStateError
from ..engine.rules import Rules
from ..engine.safejson import check_shape, load_json
from ..engine.setup import new_game
from ..engine.state import Phase, State
from .history import AuctionResult, auctions
from .seeds import chance_stream, sample_chance, seed_problem

__all__ = ["RECORD_SCHEMA", "GameRecord"]

_MAX_ACTIONS = 5000  # a game has a few hundred actions
RECORD_SCHEMA = "ra-record/2"  # /2: the tiles follow the seed's chance stream; /1 records are not checked
_OLD_SCHEMA = "ra-record/1"
_REVEAL = Phase.REVEAL


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
        """Return every auction of the game, in order: bids, winner, sun and lot (see `ra_core.play.history`)."""
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
