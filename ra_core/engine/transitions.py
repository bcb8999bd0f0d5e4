"""How one position leads to the next: one transition per kind of action, and the forced steps.

A turn of Ra: the turn player draws (R22), calls Ra (R35) or uses a god (R26); a drawn Ra tile
or a call opens an auction (R35-R46); a lot with disasters costs tiles (R50-R55); when nobody
has a face-up sun or the last Ra tile is drawn, the epoch is scored (R57-R62). `TRANSITIONS`
maps each kind of action to its transition; `State.apply` checks that an action is legal and
calls it. The rarer steps come first (a call, gods, an auction nobody wins or whose lot holds
disasters, the end of an epoch); the steps of almost every turn (a draw and its reveal, the
next turn, an auction's start, a bid or pass, the winner's lot) are in the hot-path section at
the end.

Forced steps happen inside a transition: a turn passes over players without face-up suns (R17),
disaster losses without a choice are made at once (R53), and an epoch that ends is cleaned up,
scored and followed by the next one. Only real decisions, and chance, are left for the caller.

Each transition returns a whole new `State`, its `choices` included: the rarer steps change a
few fields with `State._replace` and then work the choices out (`_decided`); the hot steps
build the state field by field and work out the choices from what they already hold.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Mapping, Sequence
from operator import add
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .actions import Action, Bid, CallRa, Discard, Done, Draw, Pass, Reveal, UseGod
from .auction import SEATS_AFTER, bid_choices, bid_order
from .disasters import resolve
from .records import (
    CHANCE,
    TERMINAL,
    Auction,
    AuctionFields,
    EpochScore,
    PendingDiscard,
    Phase,
    Player,
    PlayerFields,
    Resume,
    Trigger,
)
from .rules import EPOCHS, TRACK_SIZE, Rules
from .scoring import score_epoch
from .tiles import Tile
from .turns import choices, god_targets, highest_sun_holder, turn_actions

if TYPE_CHECKING:
    from .state import State, StateFields

__all__ = ["EMPTY_TRACK", "TRANSITIONS", "reveal", "win"]

EMPTY_TRACK: tuple[Tile | None, ...] = (None,) * TRACK_SIZE


# -- the transitions, in the order of a turn ----------------------------------------------


def _call_ra(s: State, _: CallRa) -> State:
    """The turn player calls Ra (R35, R36): a voluntary auction, or a forced one on a full track."""
    return _start_auction(s, s.bag, s.ra_count, _VOLUNTARY if None in s.track else _FORCED)


def _done(s: State, _: Done) -> State:
    """The turn player stops using gods (R29); the turn passes on."""
    return _pass_turn(s, s.turn_player)


def _all_passed(s: State, trigger: Trigger | None, ra_player: int) -> State:
    """End an auction in which everybody passed (R42); `s` is the position before the last pass."""
    if trigger is _FORCED:  # R42: all 8 tiles go to the box
        return _next_turn(s, ra_player, s.players, EMPTY_TRACK, s.bag, _add(s.box, s.track), s.center_sun, *_four(s))
    return _pass_turn(s, ra_player)  # R42: the tiles stay


def _won_with_disasters(s: State, seat: int, winner: Player, sun: int, disasters: list[Tile]) -> State:
    """Resolve the disasters in the lot `seat` won with `sun`, before the turn passes (R55).

    `s` is the position before the last bid; `winner` already holds the lot's other tiles (`win`).
    """
    after = s._replace(track=EMPTY_TRACK, center_sun=sun, auction=None)
    return _disasters(after, seat, winner, disasters, Resume.AUCTION)


def _disasters(s: State, seat: int, player: Player, disasters: list[Tile], then: Resume) -> State:
    """Apply the forced disaster losses, then ask for the chosen ones if any (R50-R55)."""
    display, boxed, owed = resolve(player.display, disasters)
    player = player._replace(display=display)
    players = _put(s.players, seat, player)
    box = _add_counts(s.box, boxed)
    if owed:
        pending = PendingDiscard(seat, owed, then)
        return _decided(s._replace(phase=_DISCARD, to_move=seat, players=players, box=box, discard=pending))
    return _resume(s, then, players, box)


def _discard(s: State, action: Discard) -> State:
    """The player loses the tiles he chose for the first disaster he owes (R53)."""
    tiles = action.tiles
    pending = s.discard
    assert pending is not None  # phase DISCARD always has one
    seat = pending.player
    display = list(s.players[seat].display)
    for t in tiles:
        display[t] -= 1
    player = s.players[seat]._replace(display=tuple(display))
    players, box = _put(s.players, seat, player), _add(s.box, tiles)
    if len(pending.owed) > 1:  # e.g. unrest and earthquake in one lot: one choice each
        return _decided(s._replace(players=players, box=box, discard=pending._replace(owed=pending.owed[1:])))
    return _resume(s._replace(discard=None), pending.after, players, box)


def _resume(s: State, then: Resume, players: tuple[Player, ...], box: tuple[int, ...]) -> State:
    """Go on with what the disaster interrupted: the end of the auction (R44) or the god turn (R29).

    The position is `s` with these players and box, every loss paid.
    """
    if then is Resume.AUCTION:
        return _next_turn(s, s.turn_player, players, s.track, s.bag, box, s.center_sun, *_four(s))  # R44 (or R58)
    return _after_god(s._replace(players=players, box=box))


def _use_god(s: State, action: UseGod) -> State:
    """Return a god to the box and take the tile on the chosen slot (R26-R30)."""
    seat, slot = s.turn_player, action.slot
    tile = s.track[slot - 1]
    assert tile is not None  # `god_targets` offers only filled slots
    display = list(s.players[seat].display)
    display[_GOD_INDEX] -= 1
    track = s.track[: slot - 1] + (None,) + s.track[slot:]
    box = _add(s.box, (_GOD,))  # R30: the used god leaves the game
    if tile >= _FUNERAL:  # R28: a disaster taken by a god is resolved at once
        player = s.players[seat]._replace(display=tuple(display))
        return _disasters(s._replace(track=track, box=box), seat, player, [tile], Resume.GODS)
    display[tile] += 1
    players = _put(s.players, seat, s.players[seat]._replace(display=tuple(display)))
    return _after_god(s._replace(track=track, box=box, players=players))


def _after_god(s: State) -> State:
    """Let the player use another god if he has one and a target is left (R26, R29), else end the turn."""
    seat = s.turn_player
    if s.players[seat].display[_GOD_INDEX] and god_targets(s.track, s.rules):
        return _decided(s._replace(phase=_GODS, to_move=seat))
    return _pass_turn(s, seat)


def _pass_turn(s: State, after: int) -> State:
    """Give the turn to the next player after `after` (see `_next_turn`), the position otherwise as in `s`."""
    return _next_turn(s, after, s.players, s.track, s.bag, s.box, s.center_sun, *_four(s))


def _end_epoch(
    s: State,
    players: tuple[Player, ...],
    track: tuple[Tile | None, ...],
    bag: tuple[int, ...],
    box: tuple[int, ...],
    ra_count: int,
    center_sun: int,
) -> State:
    """Clean up, score, discard, and start the next epoch or end the game (R57-R62).

    The position is `s` with these players, track, bag, box, Ra tiles and center sun; any
    auction or discard is over.
    """
    rules, epoch = s.rules, s.epoch
    players, score, boxed = score_epoch(players, epoch, rules)  # R49: after epochs 1 and 2, every sun face up
    # R60: the discards after scoring; R59: the tiles left on the auction track, and the Ra tiles
    counts = list(map(add, box, boxed))
    counts[_RA] += ra_count
    for t in track:
        if t is not None:
            counts[t] += 1
    box = tuple(counts)
    scores = (*s.scores, score)
    legal: tuple[Action, ...] = ()
    if epoch == EPOCHS:  # the game is over
        phase, first, to_move = _OVER, s.turn_player, TERMINAL
    else:  # R16, R61: the holder of the highest sun starts.
        epoch += 1
        phase, first = _ACTION, highest_sun_holder(players)
        to_move, legal = first, turn_actions(players[first], EMPTY_TRACK, bag, rules)
    fields: StateFields = (
        rules,
        epoch,
        phase,
        first,
        to_move,
        bag,
        0,
        EMPTY_TRACK,
        center_sun,
        players,
        None,
        None,
        box,
        scores,
        legal,
    )
    return _new(type(s), fields)  # as in the hot path below: a state built with keywords costs 4 times more


def _decided(s: State) -> State:
    """Return `s` with the `choices` of its player to move, for a state a rarer step built with `_replace`."""
    return s._replace(choices=choices(s))


def _four(s: State) -> tuple[Rules, int, int, tuple[EpochScore, ...]]:
    """Return what `_next_turn` keeps of `s`: the rules, the epoch, the Ra tiles drawn and the scores."""
    return s.rules, s.epoch, s.ra_count, s.scores


def _put(players: tuple[Player, ...], seat: int, player: Player) -> tuple[Player, ...]:
    seats = list(players)
    seats[seat] = player
    return tuple(seats)


def _add(box: tuple[int, ...], tiles: Sequence[Tile | None]) -> tuple[int, ...]:
    out = list(box)
    for t in tiles:
        if t is not None:
            out[t] += 1
    return tuple(out)


def _add_counts(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(map(add, a, b))


# == The hot path ===========================================================================
# A random game spends most of its time in the steps below: a draw and its reveal, the next
# turn, an auction's start, a bid or pass, and the winner's lot (`python benchmarks/engine_steps.py`
# times each kind). They are written for speed, each choice measured in CPython 3.11:
# * A record is built from a plain tuple of its fields in order, ``_new(type(s), fields)`` with
#   ``_new = tuple.__new__`` (for a state `type(s)` is the class `State`: `ra_core.engine.state`
#   imports this module, so this one cannot import it back). The tuple is typed first,
#   ``fields: StateFields = (...)`` (`AuctionFields`, `PlayerFields` for the others), so mypy
#   checks every field as it checks ``State(...)``. Measured in CPU instructions (callgrind)
#   per state built: 2.5k so, 3.4k through the named tuple's own ``__new__`` (a Python
#   function) with the fields in order, 4.6k with the fields as keywords, 11k as
#   ``State(rules=..., ...)``; an auction or a player costs about 1k less so than through
#   ``__new__``. The rarer steps change a state with ``_replace``.
# * A step unpacks its position from `s[:]`, a plain tuple: CPython unpacks a plain tuple
#   directly, a named tuple through an iterator.
# * Counts and slots change on a list copy that becomes a tuple again: fewer objects than slicing.
# * A step that knows the next player's choices cheaply (the next turn, a bid) works them out
#   with the rules' own functions (`turn_actions`, `bid_choices`) for the new state's `choices`,
#   without dispatching on the phase again as `ra_core.engine.turns.choices` does.


def _draw(s: State, action: Draw) -> State:
    """The turn player draws (R22): chance decides which tile comes out (see `reveal`)."""
    rules, epoch, _, turn, _, bag, ra_count, track, center, players, auction, pending, box, scores, _ = s[:]
    fields: StateFields = (
        rules,
        epoch,
        _REVEAL,
        turn,
        CHANCE,
        bag,
        ra_count,
        track,
        center,
        players,
        auction,
        pending,
        box,
        scores,
        (),
    )
    return _new(type(s), fields)


def reveal(s: State, tile: Tile) -> State:
    """Return the state after `tile` comes out of the bag (R22-R24); `tile` must be in the bag."""
    rules, epoch, _, turn, _, bag, ra_count, track, center, players, _, _, box, scores, _ = s[:]
    counts = list(bag)
    counts[tile] -= 1
    bag = tuple(counts)
    if tile is _RA:
        ra_count += 1
        if ra_count == rules.ra_limit:  # R24, R57: the epoch ends at once, no auction
            return _end_epoch(s, players, track, bag, box, ra_count, center)
        return _start_auction(s, bag, ra_count, _RA_TILE)
    slots = list(track)
    slots[slots.index(None)] = tile  # R23: the leftmost empty slot (a draw needs one, R19)
    track = tuple(slots)
    return _next_turn(s, turn, players, track, bag, box, center, rules, epoch, ra_count, scores)


def _next_turn(
    s: State,
    after: int,
    players: tuple[Player, ...],
    track: tuple[Tile | None, ...],
    bag: tuple[int, ...],
    box: tuple[int, ...],
    center: int,
    rules: Rules,
    epoch: int,
    ra_count: int,
    scores: tuple[EpochScore, ...],
) -> State:
    """Give the turn to the next player clockwise after `after` who has a face-up sun (R17, R20, R21).

    `after` himself comes last, so a lone player takes every turn (R21). With no face-up sun
    left anywhere the epoch ends (R58). The new position has these players, track, bag, box and
    center sun, no auction or discard running, and the rest (rules to scores) as in `s`.
    """
    for q in SEATS_AFTER[len(players)][after]:
        player = players[q]
        if player.suns_up:
            legal = turn_actions(player, track, bag, rules)
            fields: StateFields = (
                rules,
                epoch,
                _ACTION,
                q,
                q,
                bag,
                ra_count,
                track,
                center,
                players,
                None,
                None,
                box,
                scores,
                legal,
            )
            return _new(type(s), fields)
    # R58: only an auction can use up the last sun
    return _end_epoch(s, players, track, bag, box, ra_count, center)


def _start_auction(s: State, bag: tuple[int, ...], ra_count: int, trigger: Trigger) -> State:
    """Open an auction for the track (R35): the players left of the turn player bid first, he bids last (R38)."""
    rules, epoch, _, ra_player, _, _, _, track, center, players, _, pending, box, scores, _ = s[:]
    bidders = bid_order(players, ra_player)
    first = bidders[0]
    no_bid_yet: AuctionFields = (trigger, ra_player, bidders, (), 0, -1)
    auction = _new(Auction, no_bid_yet)
    legal = bid_choices(first, players[first].suns_up, trigger, ra_player, 0, -1)
    fields: StateFields = (
        rules,
        epoch,
        _BID,
        ra_player,
        first,
        bag,
        ra_count,
        track,
        center,
        players,
        auction,
        pending,
        box,
        scores,
        legal,
    )
    return _new(type(s), fields)


def _bid(s: State, action: Bid | Pass) -> State:
    """The bidder to move bids a sun or passes (R39, R40); then the next bidder, or the auction ends."""
    rules, epoch, phase, turn, bidder, bag, ra_count, track, center, players, auction, pending, box, scores, _ = s[:]
    trigger, ra_player, bidders, bids, high_bid, high_bidder = auction  # type: ignore[misc]
    if type(action) is Bid:
        high_bid, high_bidder = action.sun, bidder
        bids += (high_bid,)
    else:
        bids += _PASSED
    done = len(bids)
    if done == len(bidders):  # everyone had his one chance (R37)
        if high_bidder < 0:
            return _all_passed(s, trigger, turn)
        winner, disasters = win(players[high_bidder], high_bid, center, track)  # R41, R46
        if disasters:
            return _won_with_disasters(s, high_bidder, winner, high_bid, disasters)
        seats = list(players)
        seats[high_bidder] = winner
        return _next_turn(s, turn, tuple(seats), EMPTY_TRACK, bag, box, high_bid, rules, epoch, ra_count, scores)
    seat = bidders[done]
    after_bid: AuctionFields = (trigger, ra_player, bidders, bids, high_bid, high_bidder)
    auction = _new(Auction, after_bid)
    legal = bid_choices(seat, players[seat].suns_up, trigger, ra_player, high_bid, high_bidder)
    fields: StateFields = (
        rules,
        epoch,
        phase,
        turn,
        seat,
        bag,
        ra_count,
        track,
        center,
        players,
        auction,
        pending,
        box,
        scores,
        legal,
    )
    return _new(type(s), fields)


def win(player: Player, sun: int, center_sun: int, lot: Sequence[Tile | None]) -> tuple[Player, list[Tile]]:
    """Return the winner after taking the lot and swapping `sun` for the center sun, and the lot's disasters.

    The lot's tiles go to the display (R41); the winning sun goes to the center face up and the
    old center sun comes face down (R46). The disasters returned are resolved next (R55).
    """
    suns_up, suns_down, display_before, fame = player
    display = list(display_before)
    disasters = []
    for t in lot:
        if t is not None:
            if t < _FUNERAL:
                display[t] += 1
            else:
                disasters.append(t)
    up = list(suns_up)
    up.remove(sun)
    if suns_down:  # the suns stay in ascending order
        down = list(suns_down)
        insort(down, center_sun)
        suns_down = tuple(down)
    else:  # the first sun won this epoch
        suns_down = (center_sun,)
    winner: PlayerFields = (tuple(up), suns_down, tuple(display), fame)
    return _new(Player, winner), disasters


_ACTION, _REVEAL, _GODS, _BID, _DISCARD, _OVER = (  # module constants: enum attribute lookups are slow
    Phase.ACTION,
    Phase.REVEAL,
    Phase.GODS,
    Phase.BID,
    Phase.DISCARD,
    Phase.GAME_OVER,
)
_RA, _GOD, _FUNERAL = Tile.RA, Tile.GOD, Tile.FUNERAL
_GOD_INDEX = int(_GOD)  # indexing a tuple with a plain int is cheaper than with an IntEnum
_PASSED = (None,)  # a pass, as recorded in `Auction.bids`
_new = tuple.__new__  # builds a record from a plain tuple of its fields (see the hot path's header)
_VOLUNTARY, _FORCED, _RA_TILE = Trigger.CALL_VOLUNTARY, Trigger.CALL_FORCED, Trigger.RA_TILE


def _chance(s: State, action: Reveal) -> State:
    """A chance outcome: `action.tile` comes out of the bag (see `reveal`)."""
    return reveal(s, action.tile)


#: Which transition each kind of action goes to (`State.apply` checks the action is legal
#: first). Each transition is typed with its action's class.
TRANSITIONS: Mapping[type, Callable[[State, Any], State]] = MappingProxyType(
    {
        Bid: _bid,
        Pass: _bid,
        Draw: _draw,
        CallRa: _call_ra,
        UseGod: _use_god,
        Done: _done,
        Discard: _discard,
        Reveal: _chance,
    }
)
