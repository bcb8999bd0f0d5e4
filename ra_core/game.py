"""How one position leads to the next: the legal actions, the chance outcomes, and `apply`.

Read top to bottom, this is a turn of Ra: the turn player draws (R22), calls Ra (R35) or uses
a god (R26); a drawn Ra tile or a call opens an auction (R35-R46); a lot with disasters costs
tiles (R50-R55); when nobody has a face-up sun or the last Ra tile is drawn, the epoch is
scored (R57-R62).

Forced steps happen inside `apply`: a turn passes over players without face-up suns (R17),
disaster losses without a choice are made at once (R53), and an epoch that ends is cleaned up,
scored and followed by the next one. Only real decisions, and chance, are left for the caller.

Each step builds the next `State` with `State._replace`, which mypy checks field by field,
except the few steps in the marked hot-path section at the end.
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
    parse_action,
)
from .auction import SEATS_AFTER, bid_actions, bid_order, win
from .disasters import discard_options, resolve
from .errors import IllegalActionError
from .records import CHANCE, TERMINAL, Auction, PendingDiscard, Phase, Player, Resume, Trigger
from .rules import EPOCHS, TRACK_SIZE, Rules
from .scoring import score_epoch
from .tiles import EMPTY, NUM_KINDS, Tile

if TYPE_CHECKING:
    from .state import State

__all__ = ["REVEALS_BY_INDEX", "apply", "chance_outcomes", "highest_sun_holder", "illegal", "legal_actions", "reveal"]

EMPTY_TRACK: tuple[Tile | None, ...] = (None,) * TRACK_SIZE
REVEALS_BY_INDEX: tuple[Reveal, ...] = tuple(REVEALS[t] for t in Tile)  # Reveal of tile i, by plain int


def highest_sun_holder(players: Sequence[Player]) -> int:
    """Return the seat holding the highest sun; it starts every epoch (R16)."""
    best, holder = 0, 0
    for seat, p in enumerate(players):
        top = max(p.suns_up + p.suns_down)
        if top > best:
            best, holder = top, seat
    return holder


# -- legal actions -------------------------------------------------------------------------


def god_targets(track: tuple[Tile | None, ...], rules: Rules) -> tuple[UseGod, ...]:
    """Return `UseGod` for each slot a god may take: any tile but a god (R27), disasters only by option (R28)."""
    limit = NUM_KINDS if rules.god_can_take_disaster else _FUNERAL
    return tuple([GODS[i + 1] for i, t in enumerate(track) if t is not None and t is not _GOD and t < limit])


def turn_actions(player: Player, track: tuple[Tile | None, ...], rules: Rules) -> tuple[Action, ...]:
    """Return the turn player's choices: draw (not on a full track, R19), call Ra (R36), gods (R26)."""
    if player.display[_GOD_INDEX]:
        gods = god_targets(track, rules)
        return (DRAW, CALL_RA, *gods) if None in track else (CALL_RA, *gods)
    return _DRAW_OR_RA if None in track else _RA_ONLY


def discard_actions(player: Player, pending: PendingDiscard) -> tuple[Action, ...]:
    """Return the ways to pay the first disaster still owed (R53)."""
    kind, n = pending.owed[0]
    return tuple([discard(o) for o in discard_options(player.display, kind, n)])


def legal_actions(s: State) -> tuple[Action, ...]:
    """Return the legal actions in `s`, sorted; empty only when the game is over.

    Most steps already know the next state's legal actions and store them in `State.legal`;
    this works them out from the position (for chance nodes, loaded positions and copies).
    """
    phase = s.phase
    if phase is _BID and s.auction is not None:
        return bid_actions(s.auction, s.to_move, s.players[s.to_move])
    if phase is _ACTION:
        return turn_actions(s.players[s.turn_player], s.track, s.rules)
    if phase is _REVEAL:
        return tuple([REVEALS_BY_INDEX[t] for t, n in enumerate(s.bag) if n])
    if phase is _GODS:
        return (DONE, *god_targets(s.track, s.rules))
    if phase is _DISCARD and s.discard is not None:
        return discard_actions(s.players[s.discard.player], s.discard)
    return ()


def chance_outcomes(s: State) -> list[tuple[Action, Fraction]]:
    """Return each tile that can be drawn with its exact probability (R14, R22); [] if not a chance node."""
    if s.phase is not _REVEAL:
        return []
    total = sum(s.bag)
    return [(REVEALS_BY_INDEX[t], Fraction(n, total)) for t, n in enumerate(s.bag) if n]


# -- applying an action --------------------------------------------------------------------


def apply(s: State, action: Action | str) -> State:
    """Return the state after `action`; raise `IllegalActionError` (and change nothing) if it is not legal.

    `action` is an action or its text. An action is legal when it equals one of `legal_actions`
    with values of the right type (``Bid(4.0)`` and ``UseGod(True)`` are refused); the engine then
    goes on with its own copy of the action, so nothing the caller passed ends up in the state.
    """
    if type(action) is str:
        action = parse_action(action)
    if s.phase is _REVEAL:
        if type(action) is Reveal and type(action.tile) is Tile and s.bag[action.tile]:
            return reveal(s, action.tile)
        raise illegal(s, action)
    legal = s.legal
    if legal is None:
        legal = legal_actions(s)
    for candidate in legal:  # the engine hands out shared action objects: usually found by identity
        if candidate is action:
            return _step(s, candidate)
    own = _canonical(action)
    if own is not None and own in legal:
        return _step(s, legal[legal.index(own)])
    raise illegal(s, action)


def _canonical(action: object) -> Action | None:
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
    legal = legal_actions(s)
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


def _step(s: State, action: Action) -> State:
    """Apply a legal decision (the order puts the most frequent first)."""
    match action:
        case Bid(sun):
            return _bid(s, sun)
        case Pass():
            return _bid(s, None)
        case Draw():
            return _draw(s)
        case CallRa():
            return _start_auction(s, s.bag, s.ra_count, _VOLUNTARY if None in s.track else _FORCED)  # R35, R36
        case UseGod(slot):
            return _use_god(s, slot)
        case Done():  # R29: the turn player stops using gods
            return _pass_turn(s, s.turn_player)
        case Discard(tiles):
            return _discard(s, tiles)
    raise AssertionError(f"no transition for {action!r}")  # Reveal is applied by `reveal`


def reveal(s: State, tile: Tile) -> State:
    """Return the state after `tile` comes out of the bag (R22-R24); `tile` must be in the bag."""
    counts = list(s.bag)
    counts[tile] -= 1
    bag = tuple(counts)
    if tile is _RA:
        ra_count = s.ra_count + 1
        if ra_count == s.rules.ra_limit:  # R24, R57: the epoch ends at once, no auction
            return _end_epoch(s._replace(bag=bag, ra_count=ra_count))
        return _start_auction(s, bag, ra_count, _RA_TILE)
    slots = list(s.track)
    slots[slots.index(None)] = tile  # R23: the leftmost empty slot (a draw needs one, R19)
    return _next_turn(s, s.turn_player, s.players, tuple(slots), bag, s.box, s.center_sun)


def _resolve_auction(s: State, a: Auction) -> State:
    """Give the lot to the winner, or apply the all-pass outcome (R41, R42, R45)."""
    w = a.high_bidder
    if w < 0:
        if a.trigger is _FORCED:  # R42: all 8 tiles go to the box
            return _next_turn(s, a.ra_player, s.players, EMPTY_TRACK, s.bag, _add(s.box, s.track), s.center_sun)
        return _next_turn(s, a.ra_player, s.players, s.track, s.bag, s.box, s.center_sun)  # R42: the tiles stay
    winner, disasters = win(s.players[w], a.high_bid, s.center_sun, s.track)
    if disasters:  # R55: resolved now, before the turn passes
        after = s._replace(track=EMPTY_TRACK, center_sun=a.high_bid, auction=None, legal=None)
        return _disasters(after, w, winner, disasters, Resume.AUCTION)
    players = _put(s.players, w, winner)
    return _next_turn(s, s.turn_player, players, EMPTY_TRACK, s.bag, s.box, a.high_bid)  # R44 (or R58)


def _disasters(s: State, seat: int, player: Player, disasters: list[Tile], then: Resume) -> State:
    """Apply the forced disaster losses, then ask for the chosen ones if any (R50-R55)."""
    display, boxed, owed = resolve(player.display, disasters)
    player = player._replace(display=display)
    players = _put(s.players, seat, player)
    box = _add_counts(s.box, boxed)
    if owed:
        pending = PendingDiscard(seat, owed, then)
        legal = discard_actions(player, pending)
        return s._replace(phase=_DISCARD, to_move=seat, players=players, box=box, discard=pending, legal=legal)
    return _resume(s._replace(players=players, box=box, legal=None), then)


def _discard(s: State, tiles: tuple[Tile, ...]) -> State:
    """The player loses the tiles he chose for the first disaster he owes (R53)."""
    pending = s.discard
    assert pending is not None  # phase DISCARD always has one
    seat = pending.player
    display = list(s.players[seat].display)
    for t in tiles:
        display[t] -= 1
    player = s.players[seat]._replace(display=tuple(display))
    players, box = _put(s.players, seat, player), _add(s.box, tiles)
    if len(pending.owed) > 1:  # e.g. unrest and earthquake in one lot: one choice each
        rest = pending._replace(owed=pending.owed[1:])
        return s._replace(players=players, box=box, discard=rest, legal=discard_actions(player, rest))
    return _resume(s._replace(players=players, box=box, discard=None, legal=None), pending.after)


def _resume(s: State, then: Resume) -> State:
    """Go on with what the disaster interrupted: the end of the auction (R44) or the god turn (R29)."""
    if then is Resume.AUCTION:
        return _pass_turn(s, s.turn_player)  # R44 (or R58: the epoch ends)
    return _after_god(s)


def _use_god(s: State, slot: int) -> State:
    """Return a god to the box and take the tile on the chosen slot (R26-R30)."""
    seat = s.turn_player
    tile = s.track[slot - 1]
    assert tile is not None  # `god_targets` offers only filled slots
    display = list(s.players[seat].display)
    display[_GOD_INDEX] -= 1
    track = s.track[: slot - 1] + (None,) + s.track[slot:]
    box = _add(s.box, (_GOD,))  # R30: the used god leaves the game
    if tile >= _FUNERAL:  # R28: a disaster taken by a god is resolved at once
        player = s.players[seat]._replace(display=tuple(display))
        return _disasters(s._replace(track=track, box=box, legal=None), seat, player, [tile], Resume.GODS)
    display[tile] += 1
    players = _put(s.players, seat, s.players[seat]._replace(display=tuple(display)))
    return _after_god(s._replace(track=track, box=box, players=players, legal=None))


def _after_god(s: State) -> State:
    """Let the player use another god if he has one and a target is left (R26, R29), else end the turn."""
    seat = s.turn_player
    if s.players[seat].display[_GOD_INDEX]:
        targets = god_targets(s.track, s.rules)
        if targets:
            return s._replace(phase=_GODS, to_move=seat, legal=(DONE, *targets))
    return _pass_turn(s, seat)


def _pass_turn(s: State, after: int) -> State:
    """Give the turn to the next player after `after` (see `_next_turn`), the position otherwise as in `s`."""
    return _next_turn(s, after, s.players, s.track, s.bag, s.box, s.center_sun)


def _end_epoch(s: State) -> State:
    """Clean up, score, discard, and start the next epoch or end the game (R57-R62)."""
    players, score, boxed = score_epoch(s.players, s.epoch, s.rules)
    box = list(_add(_add_counts(s.box, boxed), s.track))  # R60: the discards after scoring; R59: the track
    box[_RA] += s.ra_count  # and the Ra tiles go to the box
    s = s._replace(track=EMPTY_TRACK, ra_count=0, auction=None, discard=None, box=tuple(box), scores=(*s.scores, score))
    if s.epoch == EPOCHS:
        return s._replace(players=players, phase=_OVER, to_move=TERMINAL, legal=())
    # R49: every sun is turned face up; R16, R61: the holder of the highest sun starts.
    players = tuple([Player(p.suns, (), p.display, p.fame) for p in players])
    first = highest_sun_holder(players)
    legal = turn_actions(players[first], EMPTY_TRACK, s.rules)
    return s._replace(players=players, epoch=s.epoch + 1, phase=_ACTION, turn_player=first, to_move=first, legal=legal)


def _put(players: tuple[Player, ...], seat: int, player: Player) -> tuple[Player, ...]:
    return players[:seat] + (player,) + players[seat + 1 :]


def _add(box: tuple[int, ...], tiles: Sequence[Tile | None]) -> tuple[int, ...]:
    out = list(box)
    for t in tiles:
        if t is not None:
            out[t] += 1
    return tuple(out)


def _add_counts(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple([x + y for x, y in zip(a, b, strict=True)])


# == The hot path ===========================================================================
# A random game spends most of its time in four steps: a draw, the next turn, an auction's start,
# and a bid or pass. They build the next State with `tuple.__new__` and the fields in declared
# order (`State` is a named tuple), which skips State's generated __new__: 0.35 us instead of
# 0.6 us positionally or 1 us by keyword (`_replace`: 0.9 us), at almost every step of a game.
# mypy cannot check these tuples, so tests/test_api.py checks the type of every field of every
# state in many random games.

_tuple_new = tuple.__new__


def _draw(s: State) -> State:
    """The turn player draws (R22): chance decides which tile comes out (see `reveal`)."""
    rules, epoch, _, turn, _, bag, ra_count, track, center, players, auction, pending, box, scores, _ = s
    return _tuple_new(
        type(s),
        (
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
            None,
        ),
    )


def _next_turn(
    s: State,
    after: int,
    players: tuple[Player, ...],
    track: tuple[Tile | None, ...],
    bag: tuple[int, ...],
    box: tuple[int, ...],
    center_sun: int,
) -> State:
    """Give the turn to the next player clockwise after `after` who has a face-up sun (R17, R20, R21).

    `after` himself comes last, so a lone player takes every turn (R21). With no face-up sun
    left anywhere the epoch ends (R58). The new position has these players, track, bag, box and
    center sun, and no auction or discard running.
    """
    for q in SEATS_AFTER[len(players)][after]:
        if players[q].suns_up:
            legal = turn_actions(players[q], track, s.rules)
            return _tuple_new(
                type(s),
                (
                    s.rules,
                    s.epoch,
                    _ACTION,
                    q,
                    q,
                    bag,
                    s.ra_count,
                    track,
                    center_sun,
                    players,
                    None,
                    None,
                    box,
                    s.scores,
                    legal,
                ),
            )
    # R58: only an auction can use up the last sun
    return _end_epoch(
        s._replace(players=players, track=track, bag=bag, box=box, center_sun=center_sun, auction=None, discard=None)
    )


def _start_auction(s: State, bag: tuple[int, ...], ra_count: int, trigger: Trigger) -> State:
    """Open an auction for the track (R35): the players left of the turn player bid first, he bids last (R38)."""
    ra_player = s.turn_player
    a = Auction(trigger, ra_player, bid_order(s.players, ra_player))
    first = a.order[0]
    legal = bid_actions(a, first, s.players[first])
    rules, epoch, _, turn, _, _, _, track, center, players, _, pending, box, scores, _ = s
    return _tuple_new(
        type(s),
        (rules, epoch, _BID, turn, first, bag, ra_count, track, center, players, a, pending, box, scores, legal),
    )


def _bid(s: State, sun: int | None) -> State:
    """The bidder to move bids `sun` or passes (None) (R39, R40); then the next bidder, or the auction ends."""
    trigger, ra_player, order, bids, high_bid, high_bidder = s.auction  # type: ignore[misc]
    if sun is not None:
        high_bid, high_bidder = sun, s.to_move
    a = Auction(trigger, ra_player, order, (*bids, sun), high_bid, high_bidder)
    done = len(a.bids)
    if done == len(order):
        return _resolve_auction(s, a)
    seat = order[done]
    legal = bid_actions(a, seat, s.players[seat])
    rules, epoch, phase, turn, _, bag, ra_count, track, center, players, _, pending, box, scores, _ = s
    return _tuple_new(
        type(s),
        (rules, epoch, phase, turn, seat, bag, ra_count, track, center, players, a, pending, box, scores, legal),
    )


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
_VOLUNTARY, _FORCED, _RA_TILE = Trigger.CALL_VOLUNTARY, Trigger.CALL_FORCED, Trigger.RA_TILE
_DRAW_OR_RA: tuple[Action, ...] = (DRAW, CALL_RA)
_RA_ONLY: tuple[Action, ...] = (CALL_RA,)
assert EMPTY == (0,) * NUM_KINDS
