"""Whose turn it is and what may be done: the start player, the legal actions, chance, refusals.

* `highest_sun_holder`: who starts an epoch (R16).
* `turn_actions`, `god_targets`, `discard_actions`, `choices`: the legal actions of the player
  to move (R18, R19, R26-R29, R38-R40, R53); `ra_core.engine.auction` has the bids. Every
  `State` holds its `choices`: the step that builds a state works them out with these.
* `reveals`, `chance_outcomes`: the tiles that can come out of the bag, with exact odds (R14, R22).
* `canonical` and `illegal`: how an action handed to `apply` is checked, and the error that
  names the action, the player, the phase and what is legal when it is refused.
"""

from __future__ import annotations

import reprlib
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from .actions import (
    BIDS,
    CALL_RA,
    DONE,
    DRAW,
    GODS,
    REVEALS,
    Action,
    Bid,
    CallRa,
    Discard,
    Done,
    Draw,
    Pass,
    Reveal,
    UseGod,
    discard,
)
from .auction import bid_choices
from .disasters import discard_options
from .errors import IllegalActionError
from .records import CHANCE, PendingDiscard, Phase, Player
from .rules import EPOCHS, TRACK_SIZE, Rules
from .tiles import NUM_KINDS, Tile

if TYPE_CHECKING:
    from .state import State

__all__ = [
    "REVEALS_BY_INDEX",
    "canonical",
    "chance_outcomes",
    "discard_actions",
    "god_targets",
    "highest_sun_holder",
    "illegal",
    "choices",
    "reveals",
    "turn_actions",
]

REVEALS_BY_INDEX: tuple[Reveal, ...] = tuple(REVEALS[t] for t in Tile)  # Reveal of tile i, by plain int


def highest_sun_holder(players: Sequence[Player]) -> int:
    """Return the seat holding the highest sun; it starts every epoch (R16)."""
    best, holder = 0, 0
    for seat, p in enumerate(players):
        top = max(p.suns_up + p.suns_down)
        if top > best:
            best, holder = top, seat
    return holder


def god_targets(track: tuple[Tile | None, ...], rules: Rules) -> tuple[UseGod, ...]:
    """Return `UseGod` for each slot a god may take: any tile but a god (R27), disasters only by option (R28)."""
    limit = NUM_KINDS if rules.god_can_take_disaster else _FUNERAL
    return tuple([GODS[i + 1] for i, t in enumerate(track) if t is not None and t is not _GOD and t < limit])


def turn_actions(
    player: Player, track: tuple[Tile | None, ...], bag: tuple[int, ...], rules: Rules
) -> tuple[Action, ...]:
    """Return the turn player's choices: draw (R19: a free slot and a tile to draw), call Ra (R36), gods (R26)."""
    can_draw = None in track and any(bag)  # in a real game the bag never runs dry while an epoch lasts
    if player.display[_GOD_INDEX]:
        gods = god_targets(track, rules)
        return (DRAW, CALL_RA, *gods) if can_draw else (CALL_RA, *gods)
    return _DRAW_OR_RA if can_draw else _RA_ONLY


def discard_actions(player: Player, pending: PendingDiscard) -> tuple[Action, ...]:
    """Return the ways to pay the first disaster still owed (R53)."""
    kind, n = pending.owed[0]
    return tuple([discard(o) for o in discard_options(player.display, kind, n)])


def choices(s: State) -> tuple[Action, ...]:
    """Return the legal actions of the player to move in `s`, sorted; empty at a chance node and at the end.

    This is what `State.choices` holds. The answers are shared tuples of shared action objects
    (bids are looked up by face-up suns and high bid in `ra_core.engine.auction.bid_choices`).
    """
    phase = s.phase
    if phase is _BID and s.auction is not None:
        seat = s.to_move
        trigger, ra_player, _, _, high_bid, high_bidder = s.auction
        return bid_choices(seat, s.players[seat].suns_up, trigger, ra_player, high_bid, high_bidder)
    if phase is _ACTION:
        return turn_actions(s.players[s.turn_player], s.track, s.bag, s.rules)
    if phase is _GODS:
        return (DONE, *god_targets(s.track, s.rules))
    if phase is _DISCARD and s.discard is not None:
        return discard_actions(s.players[s.discard.player], s.discard)
    return ()


def reveals(s: State) -> tuple[Reveal, ...]:
    """Return the `Reveal` of each tile still in the bag, sorted, at a chance node (R22); () elsewhere."""
    if s.phase is not _REVEAL:
        return ()
    return tuple([REVEALS_BY_INDEX[t] for t, n in enumerate(s.bag) if n])


def chance_outcomes(s: State) -> list[tuple[Action, Fraction]]:
    """Return each tile that can be drawn with its exact probability (R14, R22); [] if not a chance node."""
    if s.phase is not _REVEAL:
        return []
    total = sum(s.bag)
    return [(REVEALS_BY_INDEX[t], Fraction(n, total)) for t, n in enumerate(s.bag) if n]


# -- checking an action handed to `apply` ---------------------------------------------------


def canonical(action: object) -> Action | None:
    """Return the engine's own action equal to `action` if its values have the right types, else None."""
    match action:
        case Bid(sun) if type(sun) is int:
            return BIDS.get(sun)
        case UseGod(slot) if type(slot) is int:
            return GODS.get(slot)
        case Discard(tiles) if type(tiles) is tuple and all(type(t) is Tile for t in tiles):
            return discard(tiles)
        case Draw() | CallRa() | Done() | Pass():
            return action
    return None


def _malformed(action: object) -> str:
    """Return why `action` can never be legal, or "" if it is a well-formed action."""
    match action:
        case Bid(sun) if type(sun) is not int:
            return f"a bid's sun must be an int, got {type(sun).__name__}"
        case UseGod(slot) if type(slot) is not int:
            return f"a god's slot must be an int from 1 to {TRACK_SIZE}, got {type(slot).__name__}"
        case Discard(tiles) if type(tiles) is not tuple or not all(type(t) is Tile for t in tiles):
            return "a discard's tiles must be a tuple of Tile values"
        case Reveal(tile) if type(tile) is not Tile:
            return f"a reveal's tile must be a Tile, got {type(tile).__name__}"
        case Draw() | CallRa() | Done() | Pass() | Bid() | UseGod() | Discard() | Reveal():
            return ""
    return "not an action: expected Draw, CallRa, UseGod, Done, Bid, Pass, Discard, Reveal or their text"


def _describe(action: object) -> str:
    """Return the action's notation, or a short safe repr when it has none (a malformed action)."""
    try:
        text = str(action)
    except Exception:  # a malformed action's __str__ may fail (e.g. a discard of plain strings)
        return reprlib.repr(action)
    return text if len(text) <= 60 else reprlib.repr(action)


def illegal(s: State, action: object) -> IllegalActionError:
    """Return the error for `action` in `s`, naming the action, the player, the phase and what is legal."""
    legal = s.legal_actions()
    what = _describe(action)
    who = "chance" if s.to_move == CHANCE else f"player {s.to_move}"
    if s.phase is _OVER:
        msg = f"{what} is not legal: the game is over (epoch {EPOCHS} scored); no actions are legal"
    else:
        context = _malformed(action)
        if context:
            context = f" ({context})"
        elif s.phase is _BID and s.auction is not None:
            a = s.auction
            context = f" (high bid {a.high_bid} by player {a.high_bidder})" if a.high_bidder >= 0 else " (no bid yet)"
        elif s.phase is _DISCARD and s.discard is not None:
            kind, n = s.discard.owed[0]
            context = f" (owes {n} tiles to {kind.label})"
        elif s.phase is _REVEAL:
            context = " (a chance node: only a reveal of a tile still in the bag)"
        listed = ", ".join(map(str, legal))
        msg = f"{what} is not legal for {who} in phase {s.phase.name}{context}; legal: {listed}"
    return IllegalActionError(msg, action=action, player=s.to_move, phase=s.phase.name, legal=list(legal))


_BID, _ACTION, _REVEAL, _GODS, _DISCARD, _OVER = (
    Phase.BID,
    Phase.ACTION,
    Phase.REVEAL,
    Phase.GODS,
    Phase.DISCARD,
    Phase.GAME_OVER,
)
_GOD, _FUNERAL = Tile.GOD, Tile.FUNERAL
_GOD_INDEX = int(_GOD)  # indexing a tuple with a plain int is cheaper than with an IntEnum
_DRAW_OR_RA: tuple[Action, ...] = (DRAW, CALL_RA)
_RA_ONLY: tuple[Action, ...] = (CALL_RA,)
