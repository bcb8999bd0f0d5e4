"""The immutable game state: `State`, with `Player`, `Auction` and `PendingDiscard`.

A state never changes: `State.apply` returns a new one, so keeping the parent is "undo" and a
search can share states freely. `Player`, `Auction` and `PendingDiscard` are named tuples;
`State` is a frozen record that copies its field dictionary to make a changed copy. Both are
several times cheaper to build than frozen dataclasses, which keeps the engine fast enough for
Monte Carlo work in a notebook cell.
"""

from __future__ import annotations

import dataclasses
import enum
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from .rules import Rules
from .tiles import Tile

if TYPE_CHECKING:
    from .actions import Action
    from .scoring import EpochScore

CHANCE = -1  # `current_player()` at a chance node, as in OpenSpiel
TERMINAL = -4  # `current_player()` once the game is over, as in OpenSpiel


class Phase(enum.Enum):
    """What the game is waiting for."""

    ACTION = "action"  # the turn player: draw, call Ra, or use a god (R18)
    REVEAL = "reveal"  # chance: which tile comes out of the bag (R22)
    GODS = "gods"  # the turn player used a god and may use another, or be done (R26, R29)
    BID = "bid"  # an auction: the player to move bids a sun or passes (R38-R40)
    DISCARD = "discard"  # a disaster: the player chooses which tiles to lose (R53)
    GAME_OVER = "game_over"  # epoch 3 has been scored (R62)


class Trigger(enum.Enum):
    """Why an auction is held; it decides who may pass and what an all-pass does (R35, R40, R42)."""

    RA_TILE = "ra_tile"  # a drawn Ra tile that did not end the epoch
    CALL_VOLUNTARY = "call_voluntary"  # Ra called with fewer than 8 tiles on the track
    CALL_FORCED = "call_forced"  # Ra called with the track full


_new = object.__new__


class Player(NamedTuple):
    """One player's holdings (an immutable named tuple).

    Attributes:
        suns_up: face-up suns, ascending; only these can be bid (R39, R47).
        suns_down: face-down suns won this epoch, ascending (R41).
        display: tile counts indexed by `Tile` (R1).
        fame: the fame total (R6, R13).
    """

    suns_up: tuple[int, ...]
    suns_down: tuple[int, ...]
    display: tuple[int, ...]
    fame: int

    @property
    def suns(self) -> tuple[int, ...]:
        """Return all suns this player owns, face up or down, ascending (R71, R73)."""
        return tuple(sorted(self.suns_up + self.suns_down))


class Auction(NamedTuple):
    """A running auction (an immutable named tuple).

    Attributes:
        trigger: why it is held (R35).
        ra_player: the player whose action started it; bids last (R38).
        order: the bidders in bidding order, left of the Ra player first (R37, R38).
        bids: what each bidder in `order` did so far: a sun, or None for a pass.
        high_bid: the highest sun bid so far, 0 if none (R39).
        high_bidder: who bid it, -1 if nobody.
    """

    trigger: Trigger
    ra_player: int
    order: tuple[int, ...]
    bids: tuple[int | None, ...] = ()
    high_bid: int = 0
    high_bidder: int = -1

    @property
    def still_to_bid(self) -> tuple[int, ...]:
        """Return the players who have not had their one chance to bid yet, in order."""
        return self.order[len(self.bids) :]


class PendingDiscard(NamedTuple):
    """Tiles a player owes to disasters and chooses himself (R50, R53).

    Attributes:
        player: who loses the tiles.
        owed: ``(disaster, how many tiles)`` per disaster kind still to choose, in order.
        after: "auction" (finish the auction, R45) or "gods" (go on with the god turn, R29).
    """

    player: int
    owed: tuple[tuple[Tile, int], ...]
    after: str


class State:
    """A position in a game of Ra. Immutable: `apply` returns a new state.

    Attributes:
        rules: the `Rules` in force.
        epoch: 1, 2 or 3 (R62).
        phase: what the game waits for (`Phase`).
        turn_player: whose turn it is; during an auction, the Ra player.
        to_move: who decides now (`CHANCE` at a reveal, `TERMINAL` at the end).
        bag: tiles still in the bag, counts by `Tile` (R14).
        ra_count: Ra tiles drawn this epoch (R15, R24).
        track: the 8 auction slots, a `Tile` or None each (R7, R32).
        center_sun: the sun on the center space (R12, R46).
        players: one `Player` per seat, clockwise.
        auction: the running `Auction`, or None.
        discard: the `PendingDiscard` being chosen, or None.
        box: tiles out of the game, counts by `Tile` (R56, R59, R60).
        scores: one `EpochScore` per finished epoch.
    """

    __slots__ = ("__dict__",)  # fields live in the instance dict, copied to make a changed state
    _fields: ClassVar[tuple[str, ...]] = (
        "rules",
        "epoch",
        "phase",
        "turn_player",
        "to_move",
        "bag",
        "ra_count",
        "track",
        "center_sun",
        "players",
        "auction",
        "discard",
        "box",
        "scores",
    )
    rules: Rules
    epoch: int
    phase: Phase
    turn_player: int
    to_move: int
    bag: tuple[int, ...]
    ra_count: int
    track: tuple[Tile | None, ...]
    center_sun: int
    players: tuple[Player, ...]
    auction: Auction | None
    discard: PendingDiscard | None
    box: tuple[int, ...]
    scores: tuple[EpochScore, ...]
    _legal: tuple[Action, ...] | None

    def __init__(self, **fields: Any) -> None:
        if fields.keys() != set(self._fields):
            missing = [f for f in self._fields if f not in fields]
            unknown = [f for f in fields if f not in self._fields]
            raise TypeError(f"State: missing fields {missing}, unknown fields {unknown}")
        d = self.__dict__
        for name in self._fields:
            d[name] = fields[name]
        d["_legal"] = None  # the cache of legal_actions(), not a field

    def replace(self, **changes: Any) -> State:
        """Return a copy with `changes` applied; no rules are checked (use `from_dict` for that)."""
        if not changes.keys() <= set(self._fields):
            raise TypeError(f"State has no field(s) {sorted(set(changes) - set(self._fields))}")
        return evolve_state(self, changes)

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to {name!r}: State is immutable; use apply()")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete {name!r}: State is immutable")

    def __eq__(self, other: object) -> bool:
        if type(other) is not State:
            return False
        mine, theirs = self.__dict__, other.__dict__
        return all(mine[f] == theirs[f] for f in self._fields)

    def __hash__(self) -> int:
        d = self.__dict__
        return hash(tuple(d[f] for f in self._fields))

    # -- the OpenSpiel-style contract ------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """Return the legal actions, sorted (see `actions.sort_key`); empty only at the end.

        At a chance node these are the `Reveal`s of the tiles still in the bag.
        """
        legal: tuple[Action, ...] | None = self._legal
        if legal is None:
            legal = self.__dict__["_legal"] = _game.legal_actions(self)
        return legal

    def apply(self, action: Action | str) -> State:
        """Return the state after `action` (an action or its text); this state is unchanged.

        Raises:
            InvalidActionError: `action` is text that does not parse.
            IllegalActionError: `action` is not legal here; the message lists what is.
        """
        if self.phase is not _REVEAL:
            # The fast path: the engine hands out shared action objects, and an identity scan is
            # several times cheaper than `in`, which calls the dataclasses' Python-level __eq__.
            for legal in self._legal or self.legal_actions():
                if legal is action:
                    return _game.HANDLERS[type(action)](self, action)
        elif type(action) is _Reveal and self.bag[action.tile]:
            return _game.reveal(self, action.tile)
        return _game.apply(self, action)  # text, and the error for an illegal action

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """Return ``(Reveal(tile), probability)`` for each tile that can come out of the bag.

        The probabilities are exact and sum to 1. Empty unless this is a chance node.
        """
        return _game.chance_outcomes(self)

    def is_chance_node(self) -> bool:
        """Return whether the next step is chance (a tile is drawn from the bag)."""
        return self.phase is _REVEAL

    def is_terminal(self) -> bool:
        """Return whether the game is over."""
        return self.phase is _GAME_OVER

    def current_player(self) -> int:
        """Return who decides now: a seat, `CHANCE` (-1) or `TERMINAL` (-4)."""
        return self.to_move

    @property
    def num_players(self) -> int:
        """Return the number of players."""
        return len(self.players)

    @property
    def fame(self) -> tuple[int, ...]:
        """Return each player's fame total (R6)."""
        return tuple(p.fame for p in self.players)

    def winner(self) -> int | None:
        """Return the winner after epoch 3, with the rules' tie-break (R73); None before."""
        if self.phase is not Phase.GAME_OVER:
            return None
        from .scoring import winner

        return winner(self.players, self.rules)

    def returns(self) -> tuple[int, ...]:
        """Return each player's fame, the game's payoff (general-sum, as OpenSpiel's returns)."""
        return self.fame

    def to_dict(self) -> dict[str, Any]:
        """Return the position as JSON-ready data (schema in `ra_core.serialize`)."""
        from .serialize import state_to_dict

        return state_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        """Return the position described by `data`; raise `InvalidStateError` naming a bad field."""
        from .serialize import state_from_dict

        return state_from_dict(data)

    def __str__(self) -> str:
        from .render import text_board

        return text_board(self)

    def _repr_html_(self) -> str:
        """Return the board as HTML for notebooks: an SVG picture and its text twin."""
        from .render import html

        return str(html(self))

    def __repr__(self) -> str:
        return (
            f"<State epoch={self.epoch} phase={self.phase.name} turn={self.turn_player} "
            f"to_move={self.to_move} bag={sum(self.bag)}>"
        )


_REVEAL, _GAME_OVER = Phase.REVEAL, Phase.GAME_OVER  # module constants: enum lookups are slow
_SET_DICT = State.__dict__["__dict__"].__set__


def evolve_state(state: State, changes: dict[str, Any]) -> State:
    """Return a copy of `state` with `changes` (no checks; for the engine's transitions).

    `changes` may carry ``"_legal"``, the new state's legal actions when the transition
    already knows them; otherwise they are computed when first asked for.
    """
    d = state.__dict__.copy()  # a copy and a few stores: faster than a {**...} merge
    d["_legal"] = None
    d.update(changes)
    out: State = _new(State)
    _SET_DICT(out, d)
    return out


from . import game as _game  # noqa: E402  (game imports this module; bound last to avoid a cycle)
from .actions import Reveal as _Reveal  # noqa: E402
