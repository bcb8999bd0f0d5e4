"""The game's transitions: a new game, the legal actions, chance outcomes, and applying an action.

Forced steps happen inside `apply`: a turn passes over players without face-up suns (R17),
disaster losses without a choice are made at once (R53), and an epoch that ends is cleaned up,
scored and followed by the next one (R57-R62). Only real decisions, and chance, are left for
the caller.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from .actions import (
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
from .rules import CENTER_SUN_START, EPOCHS, STARTING_FAME, TRACK_SIZE, Rules
from .scoring import score_epoch
from .state import _SET_DICT, CHANCE, TERMINAL, Auction, PendingDiscard, Phase, Player, State, Trigger, evolve_state
from .tiles import EMPTY, FULL_BAG, NUM_KINDS, Tile

__all__ = ["apply", "chance_outcomes", "highest_sun_holder", "legal_actions", "new_game"]

_ACTION, _REVEAL, _GODS, _BID, _DISCARD, _OVER = (
    Phase.ACTION,
    Phase.REVEAL,
    Phase.GODS,
    Phase.BID,
    Phase.DISCARD,
    Phase.GAME_OVER,
)
_RA, _GOD, _FUNERAL = Tile.RA, Tile.GOD, Tile.FUNERAL
_GOD_INDEX = int(_GOD)  # indexing a tuple with a plain int is cheaper than with an IntEnum
_EMPTY_TRACK: tuple[Tile | None, ...] = (None,) * TRACK_SIZE
_VOLUNTARY = Trigger.CALL_VOLUNTARY
_FORCED = Trigger.CALL_FORCED
_RA_TILE = Trigger.RA_TILE
_AFTER_AUCTION, _AFTER_GODS = "auction", "gods"
_tuple_new = tuple.__new__
_new = object.__new__
_DRAW_OR_RA: tuple[Action, ...] = (DRAW, CALL_RA)
_RA_ONLY: tuple[Action, ...] = (CALL_RA,)
REVEALS_BY_INDEX: tuple[Reveal, ...] = tuple(REVEALS[t] for t in Tile)
_DEFAULT_RULES = MappingProxyType({n: Rules.default(n) for n in range(2, 6)})  # immutable, so shared by all games


def new_game(
    players: int,
    *,
    seed: int | str | None = None,
    rules: Rules | None = None,
    suns: Sequence[Sequence[int]] | None = None,
) -> State:
    """Return the start of a game (R9-R16).

    Args:
        players: 2 to 5.
        seed: decides which player gets which sun group (R11). Without a seed (and
            without `suns`) player i gets group i of the rules' table.
        rules: the rules in force; the default is `Rules.default(players)`.
        suns: the suns of each seat, overriding `seed`; each must be one of the rules' groups.

    >>> s = new_game(4)
    >>> [p.suns_up for p in s.players], s.to_move
    ([(2, 6, 13), (3, 7, 12), (4, 8, 11), (5, 9, 10)], 0)
    """
    rules = rules or _DEFAULT_RULES.get(players) or Rules.default(players)  # the last one raises a clear error
    if rules.players != players:
        raise ValueError(f"rules {rules.name!r} are for {rules.players} players, not {players}")
    groups = [tuple(sorted(g)) for g in rules.sun_groups]
    if suns is not None:
        chosen = [tuple(sorted(g)) for g in suns]
        if sorted(chosen) != sorted(groups):
            raise ValueError(f"suns: each seat needs one of the sun groups {rules.sun_groups}, got {list(suns)}")
        groups = chosen
    elif seed is not None:
        rng = random.Random(seed)
        for i in range(len(groups) - 1, 0, -1):  # Fisher-Yates with random() only (stable across versions)
            j = int(rng.random() * (i + 1))
            groups[i], groups[j] = groups[j], groups[i]
    seats = tuple(Player(suns_up=g, suns_down=(), display=EMPTY, fame=STARTING_FAME) for g in groups)
    first = highest_sun_holder(seats)
    return State(
        rules=rules,
        epoch=1,
        phase=_ACTION,
        turn_player=first,
        to_move=first,
        bag=FULL_BAG,
        ra_count=0,
        track=_EMPTY_TRACK,
        center_sun=CENTER_SUN_START,
        players=seats,
        auction=None,
        discard=None,
        box=EMPTY,
        scores=(),
    )


def highest_sun_holder(players: Sequence[Player]) -> int:
    """Return the seat holding the highest sun; it starts every epoch (R16)."""
    best, holder = 0, 0
    for seat, p in enumerate(players):
        top = max(p.suns_up + p.suns_down)
        if top > best:
            best, holder = top, seat
    return holder


# -- legal actions -------------------------------------------------------------------------


def _god_targets(track: tuple[Tile | None, ...], rules: Rules) -> list[UseGod]:
    """Return `UseGod` for each slot a god may take: any tile but a god (R27), disasters only by option (R28)."""
    limit = NUM_KINDS if rules.god_can_take_disaster else _FUNERAL
    return [GODS[i + 1] for i, t in enumerate(track) if t is not None and t is not _GOD and t < limit]


def _turn_actions(player: Player, track: tuple[Tile | None, ...], rules: Rules) -> tuple[Action, ...]:
    """Return the turn player's choices: draw (not on a full track, R19), call Ra (R36), gods (R26)."""
    if player.display[_GOD_INDEX]:
        gods = _god_targets(track, rules)
        return (DRAW, CALL_RA, *gods) if None in track else (CALL_RA, *gods)
    return _DRAW_OR_RA if None in track else _RA_ONLY


def legal_actions(s: State) -> tuple[Action, ...]:
    """Return the legal actions in `s`, sorted; empty only when the game is over."""
    phase = s.phase
    if phase is _BID:
        return bid_actions(s.auction, s.to_move, s.players[s.to_move])  # type: ignore[arg-type]
    if phase is _ACTION:
        return _turn_actions(s.players[s.turn_player], s.track, s.rules)
    if phase is _REVEAL:
        return tuple([REVEALS_BY_INDEX[t] for t, n in enumerate(s.bag) if n])
    if phase is _GODS:
        return (DONE, *_god_targets(s.track, s.rules))
    if phase is _DISCARD:
        pending: PendingDiscard = s.discard  # type: ignore[assignment]
        kind, n = pending.owed[0]
        return tuple(discard(o) for o in discard_options(s.players[pending.player].display, kind, n))
    return ()


def chance_outcomes(s: State) -> list[tuple[Action, Fraction]]:
    """Return each tile that can be drawn with its exact probability (R14, R22); [] if not a chance node."""
    if s.phase is not _REVEAL:
        return []
    total = sum(s.bag)
    return [(REVEALS_BY_INDEX[t], Fraction(n, total)) for t, n in enumerate(s.bag) if n]


# -- applying an action --------------------------------------------------------------------


def apply(s: State, action: Action | str) -> State:
    """Return the state after `action`; raise `IllegalActionError` (and change nothing) if it is not legal."""
    if type(action) is str:
        action = parse_action(action)
    if s.phase is _REVEAL:
        if type(action) is Reveal and s.bag[action.tile] > 0:
            return reveal(s, action.tile)
    elif action in (s._legal or s.legal_actions()):
        return HANDLERS[type(action)](s, action)
    raise illegal(s, action)


def illegal(s: State, action: Any) -> IllegalActionError:
    """Return the error for `action` in `s`, naming the action, the player, the phase and what is legal."""
    legal = s.legal_actions()
    who = "chance" if s.to_move == CHANCE else f"player {s.to_move}"
    if s.phase is _OVER:
        msg = f"{action} is not legal: the game is over (epoch {EPOCHS} scored); no actions are legal"
    else:
        context = ""
        if s.phase is _BID and s.auction is not None:
            a = s.auction
            context = f" (high bid {a.high_bid} by player {a.high_bidder})" if a.high_bidder >= 0 else " (no bid yet)"
        elif s.phase is _DISCARD and s.discard is not None:
            kind, n = s.discard.owed[0]
            context = f" (owes {n} tiles to {kind.label})"
        elif s.phase is _REVEAL:
            context = " (a chance node: only a reveal of a tile still in the bag)"
        listed = ", ".join(map(str, legal))
        msg = f"{action} is not legal for {who} in phase {s.phase.name}{context}; legal: {listed}"
    return IllegalActionError(msg, action=action, player=s.to_move, phase=s.phase.name, legal=list(legal))


def _draw(s: State, _: Action) -> State:
    """The turn player draws (R22): chance decides which tile comes out (see `reveal`)."""
    out: State = _new(State)  # evolve_state inlined (a hot step): the new state's fields, no legal actions yet
    _SET_DICT(out, dict(s.__dict__, phase=_REVEAL, to_move=CHANCE, _legal=None))
    return out


def reveal(s: State, tile: Tile) -> State:
    """Return the state after `tile` comes out of the bag (R22-R24); `tile` must be in the bag."""
    counts = list(s.bag)
    counts[tile] -= 1
    bag = tuple(counts)
    if tile is _RA:
        ra_count = s.ra_count + 1
        if ra_count == s.rules.ra_limit:  # R24, R57: the epoch ends at once, no auction
            return _end_epoch(s, {"bag": bag, "ra_count": ra_count})
        return _start_auction(s, {"bag": bag, "ra_count": ra_count}, _RA_TILE)
    slots = list(s.track)
    slots[slots.index(None)] = tile  # R23: the leftmost empty slot
    return _next_turn(s, {"bag": bag, "track": tuple(slots)}, s.turn_player)


def _call_ra(s: State, _: Action) -> State:
    """The turn player calls Ra (R35, R36): a voluntary auction, or a forced one on a full track."""
    return _start_auction(s, {}, _VOLUNTARY if None in s.track else _FORCED)  # R35


def _start_auction(s: State, changes: dict[str, Any], trigger: Trigger) -> State:
    """Open an auction for the track (R35): the players left of the turn player bid first, he bids last (R38)."""
    ra_player = s.turn_player
    order = bid_order(s.players, ra_player)
    a = _tuple_new(Auction, (trigger, ra_player, order, (), 0, -1))  # no bid yet
    first = order[0]
    fields = s.__dict__.copy()  # evolve_state inlined (a hot step), with the legal actions known
    fields.update(changes)
    fields.update(phase=_BID, to_move=first, auction=a, _legal=bid_actions(a, first, s.players[first]))
    out: State = _new(State)
    _SET_DICT(out, fields)
    return out


def _bid_or_pass(s: State, action: Action) -> State:
    """The bidder to move bids a sun or passes (R39, R40); then the next bidder, or the auction ends."""
    trigger, ra_player, order, bids, high_bid, high_bidder = s.auction  # type: ignore[misc]
    if type(action) is Bid:
        high_bid = action.sun
        high_bidder = s.to_move
        bids += (high_bid,)
    else:
        bids += (None,)
    a = _tuple_new(Auction, (trigger, ra_player, order, bids, high_bid, high_bidder))
    done = len(bids)
    if done < len(order):
        seat = order[done]
        out: State = _new(State)  # evolve_state inlined: this is the engine's most frequent step
        _SET_DICT(out, dict(s.__dict__, auction=a, to_move=seat, _legal=bid_actions(a, seat, s.players[seat])))
        return out
    return _resolve_auction(s, a)


def _resolve_auction(s: State, a: Auction) -> State:
    """Give the lot to the winner, or apply the all-pass outcome (R41, R42, R45)."""
    track = s.track
    w = a.high_bidder
    if w < 0:
        if a.trigger is _FORCED:  # R42: all 8 tiles go to the box
            return _next_turn(s, {"auction": None, "track": _EMPTY_TRACK, "box": _add(s.box, track)}, a.ra_player)
        return _next_turn(s, {"auction": None}, a.ra_player)  # R42: the tiles stay
    winner, disasters = win(s.players[w], a.high_bid, s.center_sun, track)
    changes: dict[str, Any] = {"auction": None, "track": _EMPTY_TRACK, "center_sun": a.high_bid}
    if disasters:
        return _disasters(s, changes, winner, w, disasters, _AFTER_AUCTION)
    changes["players"] = _put(s.players, w, winner)
    return _next_turn(s, changes, s.turn_player)  # R44 (or R58: the epoch ends)


def _disasters(
    s: State, changes: dict[str, Any], player: Player, seat: int, disasters: list[Tile], after: str
) -> State:
    """Apply the forced disaster losses, then ask for the chosen ones if any (R50-R55)."""
    display, boxed, owed = resolve(player.display, disasters)
    changes["players"] = _put(changes.get("players", s.players), seat, player._replace(display=display))
    changes["box"] = _add_counts(changes.get("box", s.box), boxed)
    if owed:
        changes.update(phase=_DISCARD, to_move=seat, discard=PendingDiscard(seat, owed, after))
        return evolve_state(s, changes)
    return _go_on(s, changes, after)


def _discard(s: State, action: Action) -> State:
    pending: PendingDiscard = s.discard  # type: ignore[assignment]
    seat = pending.player
    player = s.players[seat]
    tiles = action.tiles  # type: ignore[union-attr]
    display = list(player.display)
    for t in tiles:
        display[t] -= 1
    changes: dict[str, Any] = {
        "players": _put(s.players, seat, player._replace(display=tuple(display))),
        "box": _add(s.box, tiles),
    }
    if len(pending.owed) > 1:  # e.g. unrest and earthquake in one lot: one choice each
        changes["discard"] = pending._replace(owed=pending.owed[1:])
        return evolve_state(s, changes)
    changes["discard"] = None
    return _go_on(s, changes, pending.after)


def _go_on(s: State, changes: dict[str, Any], after: str) -> State:
    """Go on with what the disaster interrupted: the end of the auction (R44) or the god turn (R29)."""
    if after == _AFTER_AUCTION:
        return _next_turn(s, changes, s.turn_player)  # R44 (or R58: the epoch ends)
    return _after_god(s, changes)


def _use_god(s: State, action: Action) -> State:
    """Return a god to the box and take the tile on the chosen slot (R26-R30)."""
    seat = s.turn_player
    slot = action.slot  # type: ignore[union-attr]
    tile: Tile = s.track[slot - 1]  # type: ignore[assignment]
    player = s.players[seat]
    display = list(player.display)
    display[_GOD_INDEX] -= 1
    changes: dict[str, Any] = {
        "track": s.track[: slot - 1] + (None,) + s.track[slot:],
        "box": _add(s.box, (_GOD,)),  # R30: the used god leaves the game
    }
    if tile >= _FUNERAL:  # R28: a disaster taken by a god is resolved at once
        return _disasters(s, changes, player._replace(display=tuple(display)), seat, [tile], _AFTER_GODS)
    display[tile] += 1
    changes["players"] = _put(s.players, seat, player._replace(display=tuple(display)))
    return _after_god(s, changes)


def _after_god(s: State, changes: dict[str, Any]) -> State:
    """Let the player use another god if he has one and a target is left (R26, R29), else end the turn."""
    seat = s.turn_player
    if changes.get("players", s.players)[seat].display[_GOD_INDEX]:
        targets = _god_targets(changes.get("track", s.track), s.rules)
        if targets:
            changes.update(phase=_GODS, to_move=seat, _legal=(DONE, *targets))
            return evolve_state(s, changes)
    return _next_turn(s, changes, seat)


def _done(s: State, _: Action) -> State:
    """The turn player stops using gods (R29); the turn passes on."""
    return _next_turn(s, {}, s.turn_player)


def _next_turn(s: State, changes: dict[str, Any], after: int) -> State:
    """Give the turn to the next player clockwise after `after` who has a face-up sun (R17, R20, R21).

    `after` himself comes last, so a lone player takes every turn (R21). With no face-up sun
    left anywhere the epoch ends (R58).
    """
    players = changes.get("players", s.players)
    for q in SEATS_AFTER[len(players)][after]:
        if players[q].suns_up:
            fields = s.__dict__.copy()  # evolve_state inlined (a hot step), with the legal actions known
            fields.update(changes)
            fields["phase"] = _ACTION
            fields["turn_player"] = fields["to_move"] = q
            fields["_legal"] = _turn_actions(players[q], fields["track"], s.rules)
            out: State = _new(State)
            _SET_DICT(out, fields)
            return out
    return _end_epoch(s, changes)  # R58: only an auction can use up the last sun


def _end_epoch(s: State, changes: dict[str, Any]) -> State:
    """Clean up, score, discard, and start the next epoch or end the game (R57-R62)."""
    s = evolve_state(s, changes)
    players, score, boxed = score_epoch(s.players, s.epoch, s.rules)
    box = list(_add(_add_counts(s.box, boxed), s.track))  # R60: the discards after scoring; R59: the track
    box[_RA] += s.ra_count  # and the Ra tiles go to the box
    common: dict[str, Any] = {
        "box": tuple(box),
        "track": _EMPTY_TRACK,
        "ra_count": 0,
        "auction": None,
        "discard": None,
        "scores": (*s.scores, score),
    }
    if s.epoch == EPOCHS:
        return evolve_state(s, {**common, "players": players, "phase": _OVER, "to_move": TERMINAL})
    # R49: every sun is turned face up; R16, R61: the holder of the highest sun starts.
    players = tuple([_tuple_new(Player, (p.suns, (), p.display, p.fame)) for p in players])
    first = highest_sun_holder(players)
    return evolve_state(
        s,
        {**common, "players": players, "epoch": s.epoch + 1, "phase": _ACTION, "turn_player": first, "to_move": first},
    )


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


HANDLERS: Mapping[type, Callable[[State, Any], State]] = MappingProxyType(
    {
        Draw: _draw,
        CallRa: _call_ra,
        Bid: _bid_or_pass,
        Pass: _bid_or_pass,
        UseGod: _use_god,
        Done: _done,
        Discard: _discard,
    }
)
