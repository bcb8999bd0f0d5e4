"""A position in a game of Ra: the immutable `State`.

A state never changes: `State.apply` returns a new one, so keeping the parent is "undo" and a
search can share states freely. `State` is a named tuple of typed fields, built only through its
own constructor with every field (mypy checks each one wherever a state is built); the records
it holds (`Player`, `Auction`, `PendingDiscard`, `EpochScore`) are in `ra_core.engine.records`.

A state also holds its `choices`, the legal actions of the player to move, as pgx keeps the
legal-action mask in its state: they follow from the other fields (`ra_core.engine.turns.choices`
states the rules), and the step that builds a state works them out once, so asking for the legal
actions and checking a move against them cost no second pass. How one state leads to the next is
`ra_core.engine.transitions`.

The interface follows OpenSpiel: `legal_actions()`, `apply()`, `is_chance_node()` with
`chance_outcomes()` (exact `Fraction` odds), `to_move` (a seat, `CHANCE` or `TERMINAL`),
`returns()`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple, TypeAlias

from . import serialize, textboard, transitions, turns
from .actions import Action, Reveal, parse_action
from .records import (
    CHANCE,
    TERMINAL,
    Auction,
    EpochScore,
    PendingDiscard,
    Phase,
    Player,
    Resume,
    Trigger,
)
from .rules import Rules
from .scoring import winner
from .tiles import Tile

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Auction",
    "PendingDiscard",
    "Phase",
    "Player",
    "Resume",
    "State",
    "StateFields",
    "Trigger",
]


class State(NamedTuple):
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
        auction: the running `Auction` (bidders, bids, high bid), or None (R35-R40).
        discard: the `PendingDiscard` being chosen, or None (R53).
        box: tiles out of the game, counts by `Tile` (R56, R59, R60).
        scores: one `EpochScore` per finished epoch.
        choices: the legal actions of `to_move`, sorted; empty at a chance node (see
            `chance_outcomes`) and at the end. They follow from the fields above
            (`ra_core.engine.turns.choices`): `replace` and `from_dict` work them out again.
    """

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
    choices: tuple[Action, ...]

    # -- the OpenSpiel-style contract ------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """Return the legal actions, sorted (see `actions.sort_key`); empty only at the end.

        A player's are the state's `choices`; at a chance node these are the `Reveal`s of the
        tiles still in the bag.
        """
        return self.choices or turns.reveals(self)

    def apply(self, action: Action | str) -> State:
        """Return the state after `action` (an action or its text); this state is unchanged.

        An action is legal when it equals one of `legal_actions()` with values of the right type
        (``Bid(4.0)`` and ``UseGod(True)`` are refused); the engine then goes on with its own
        copy of the action, so nothing the caller passed ends up in the state.

        Raises:
            InvalidActionError: `action` is text that does not parse.
            IllegalActionError: `action` is not legal here; the message names the action, the
                player, the phase and what is legal.
        """
        for legal in self.choices:  # the engine's own action objects, which callers usually pass back
            if legal is action:
                return _TRANSITIONS[type(action)](self, action)
        if self.phase is _REVEAL and type(action) is Reveal and type(action.tile) is Tile and self.bag[action.tile]:
            return _reveal(self, action.tile)  # chance: any tile still in the bag (R22)
        return self._apply_checked(action)

    def _apply_checked(self, action: Action | str) -> State:
        """`apply` for an action that is not one of the engine's own legal action objects, or text."""
        if type(action) is str:
            return self.apply(parse_action(action))
        if self.phase is _REVEAL:  # `apply` took every reveal of a tile still in the bag
            raise turns.illegal(self, action)
        legal = self.choices
        own = turns.canonical(action)
        if own is None or own not in legal:
            raise turns.illegal(self, action)
        return _TRANSITIONS[type(own)](self, legal[legal.index(own)])

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """Return ``(Reveal(tile), probability)`` for each tile that can come out of the bag.

        The probabilities are exact and sum to 1. Empty unless this is a chance node.
        """
        return turns.chance_outcomes(self)

    def is_chance_node(self) -> bool:
        """Return whether the next step is chance (a tile is drawn from the bag)."""
        return self.phase is Phase.REVEAL

    def is_terminal(self) -> bool:
        """Return whether the game is over."""
        return self.phase is Phase.GAME_OVER

    def current_player(self) -> int:
        """Return who decides now: a seat, `CHANCE` (-1) or `TERMINAL` (-4)."""
        return self.to_move

    def returns(self) -> tuple[int, ...]:
        """Return each player's fame, the game's payoff (general-sum, as OpenSpiel's returns)."""
        return self.fame

    # -- what can be read off the position ---------------------------------------------------

    @property
    def num_players(self) -> int:
        """Return the number of players."""
        return len(self.players)

    @property
    def fame(self) -> tuple[int, ...]:
        """Return each player's fame total (R6)."""
        return tuple(p.fame for p in self.players)

    @property
    def lot(self) -> tuple[Tile, ...]:
        """Return the tiles on the auction track, left to right: what an auction now would sell (R41)."""
        return tuple(t for t in self.track if t is not None)

    def winner(self) -> int | None:
        """Return the winner after epoch 3, with the rules' tie-break (R73); None before."""
        if self.phase is not Phase.GAME_OVER:
            return None
        return winner(self.players, self.rules)

    # -- copies, saving and showing ----------------------------------------------------------

    def replace(self, **changes: Any) -> State:
        """Return a copy with `changes` applied; no rules are checked (use `from_dict` for that).

        A new ``auction=`` also makes its Ra player the turn player (R35), unless told otherwise.
        """
        unknown = sorted(set(changes) - set(self._fields))
        if unknown or "choices" in changes:
            raise TypeError(f"State has no field(s) {unknown}" if unknown else "choices follow from the other fields")
        if changes.get("auction") is not None:
            changes.setdefault("turn_player", changes["auction"].ra_player)
        changed = self._replace(**changes)
        return changed._replace(choices=turns.choices(changed))

    def to_dict(self) -> dict[str, Any]:
        """Return the position as JSON-ready data (schema in `ra_core.engine.serialize`)."""
        return serialize.state_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, strict: bool = True) -> State:
        """Return the position described by `data`; raise `InvalidStateError` naming a bad field.

        Every field's type and every invariant of a real game is checked (`ra_core.engine.invariants`).
        ``strict=False`` allows teaching positions no real game reaches, such as a bag of four
        tiles with the rest in the box; they are still sound to play.
        """
        return serialize.state_from_dict(data, cls, strict=strict)

    def __str__(self) -> str:
        return textboard.text_board(self)

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> dict[str, str]:
        """Return the board for notebooks: its SVG picture, a PNG of it and its text twin.

        A picture, not HTML, so that it shows in a notebook that is not trusted too (see
        `ra_core.pictures.raster`). The pictures are imported here, on the first display, as
        python-chess's ``_repr_svg_`` does: ``import ra_core`` loads the engine only.
        """
        from ..pictures.svg import picture  # the one import from a layer above: drawing, when asked for

        return picture(self)

    def __repr__(self) -> str:
        return (
            f"<State epoch={self.epoch} phase={self.phase.name} turn={self.turn_player} "
            f"to_move={self.to_move} bag={sum(self.bag)}>"
        )


#: `State`'s fields in order, as the type of a plain tuple. The engine's hot steps build a state
#: from such a tuple (``tuple.__new__(State, fields)``, see `ra_core.engine.transitions`) with
#: ``fields: StateFields = (...)``, so mypy checks every field there as it checks ``State(...)``;
#: `tests/test_api.py` checks that this is `State`'s fields.
StateFields: TypeAlias = tuple[
    Rules,
    int,
    Phase,
    int,
    int,
    tuple[int, ...],
    int,
    tuple[Tile | None, ...],
    int,
    tuple[Player, ...],
    Auction | None,
    PendingDiscard | None,
    tuple[int, ...],
    tuple[EpochScore, ...],
    tuple[Action, ...],
]

_REVEAL = Phase.REVEAL  # a module constant: an enum attribute lookup at every step is slow
_reveal = transitions.reveal
_TRANSITIONS = dict(transitions.TRANSITIONS)  # a plain dict: a read-only mapping proxy is slower to index
