"""A position in a game of Ra: the immutable `State`.

A state never changes: `State.apply` returns a new one, so keeping the parent is "undo" and a
search can share states freely. `State` is a named tuple of typed fields (mypy checks every
field wherever a state is built); the records it holds (`Player`, `PendingDiscard`, and the
`Auction` it shows a running auction as) are in `ra_core.records`, and how one state leads to
the next is in `ra_core.game`.

The interface follows OpenSpiel: `legal_actions()`, `apply()`, `is_chance_node()` with
`chance_outcomes()` (exact `Fraction` odds), `to_move` (a seat, `CHANCE` or `TERMINAL`),
`returns()`.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

from . import game, serialize, textboard, turns
from .actions import Reveal, parse_action
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
    auction_fields,
)
from .rules import Rules
from .scoring import winner
from .tiles import Tile

if TYPE_CHECKING:
    from .actions import Action

__all__ = [
    "CHANCE",
    "DISPLAYS",
    "TERMINAL",
    "Auction",
    "PendingDiscard",
    "Phase",
    "Player",
    "Resume",
    "State",
    "Trigger",
]

#: How a state shows itself in a notebook: ``DISPLAYS["html"](state)`` returns HTML. The
#: presentation layer (`ra_core.svg`) fills this in; the engine itself draws no pictures.
DISPLAYS: dict[str, Callable[[State], str]] = {}


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
        trigger: why the running auction is held (R35); None when no auction runs.
        bidders: the running auction's bidders in bidding order, the Ra player last (R37, R38).
        bids: what each of `bidders` did so far: a sun, or None for a pass.
        high_bid: the highest sun bid so far, 0 if none (R39).
        high_bidder: who bid it, -1 if nobody.
        discard: the `PendingDiscard` being chosen, or None.
        box: tiles out of the game, counts by `Tile` (R56, R59, R60).
        scores: one `EpochScore` per finished epoch.
        legal: the legal actions, when the step that made this state already knew them; None
            means "work them out when asked". Not part of the position: equality and hashing
            leave it out.
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
    trigger: Trigger | None
    bidders: tuple[int, ...]
    bids: tuple[int | None, ...]
    high_bid: int
    high_bidder: int
    discard: PendingDiscard | None
    box: tuple[int, ...]
    scores: tuple[EpochScore, ...]
    legal: tuple[Action, ...] | None = None

    # -- the OpenSpiel-style contract ------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """Return the legal actions, sorted (see `actions.sort_key`); empty only at the end.

        At a chance node these are the `Reveal`s of the tiles still in the bag.
        """
        return self.legal or turns.legal_actions(self)  # `legal` is None (or () at the end): work them out

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
        legal = self.legal
        if legal is not None:  # the engine hands out shared action objects: usually found by identity
            for candidate in legal:
                if candidate is action:
                    return _TRANSITIONS[type(candidate)](self, candidate)
        elif self.phase is _REVEAL and type(action) is Reveal:  # chance: any tile still in the bag (R22)
            tile = action.tile
            if type(tile) is Tile and self.bag[tile]:
                return _reveal(self, tile)
        return self._apply_checked(action)

    def _apply_checked(self, action: Action | str) -> State:
        """`apply` for an action that is not one of the engine's own legal action objects, or text."""
        if type(action) is str:
            return self.apply(parse_action(action))
        if self.phase is _REVEAL:  # `apply` took every reveal of a tile still in the bag
            raise turns.illegal(self, action)
        legal = self.legal_actions()
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
    def auction(self) -> Auction | None:
        """Return the running auction as one record, or None (built from `trigger` to `high_bidder`).

        The auction's fields are the state's own, so a bid builds one record, not two; the Ra
        player is the turn player (R35).
        """
        trigger = self.trigger
        if trigger is None:
            return None
        return Auction(trigger, self.turn_player, self.bidders, self.bids, self.high_bid, self.high_bidder)

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

        ``auction=`` sets the auction's fields (and the turn player to its Ra player); None ends it.
        """
        if "auction" in changes:
            a = changes.pop("auction")
            if a is not None:
                changes.setdefault("turn_player", a.ra_player)
            changes.update(auction_fields(a))
        unknown = sorted(set(changes) - set(self._fields[:-1]))
        if unknown:
            raise TypeError(f"State has no field(s) {unknown}")
        return self._replace(legal=None, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Return the position as JSON-ready data (schema in `ra_core.serialize`)."""
        return serialize.state_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, strict: bool = True) -> State:
        """Return the position described by `data`; raise `InvalidStateError` naming a bad field.

        Every field's type and every invariant of a real game is checked (`ra_core.invariants`).
        ``strict=False`` allows teaching positions no real game reaches, such as a bag of four
        tiles with the rest in the box; they are still sound to play.
        """
        return serialize.state_from_dict(data, cls, strict=strict)

    def __eq__(self, other: object) -> bool:
        return type(other) is State and self[:-1] == other[:-1]  # `legal` is derived, not compared

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self[:-1])

    def __str__(self) -> str:
        return textboard.text_board(self)

    def _repr_html_(self) -> str | None:
        """Return the board as HTML for notebooks, when a presentation module has registered one."""
        show = DISPLAYS.get("html")
        return show(self) if show is not None else None

    def __repr__(self) -> str:
        return (
            f"<State epoch={self.epoch} phase={self.phase.name} turn={self.turn_player} "
            f"to_move={self.to_move} bag={sum(self.bag)}>"
        )


_REVEAL = Phase.REVEAL  # a module constant: an enum attribute lookup at every step is slow
_reveal = game.reveal
_TRANSITIONS = dict(game.TRANSITIONS)  # a plain dict: a read-only mapping proxy is slower to index
