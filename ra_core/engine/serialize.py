"""Positions as JSON-ready data, with checks that name the field at fault.

Schema ``ra-state/1`` (keys marked * may be omitted when setting up a scenario):

=================  ==========================================================================
key                value
=================  ==========================================================================
``schema``*        ``"ra-state/1"``: a saved position, in which every key must be present
``rules``*         `Rules.to_dict()`; default: `Rules.default(len(players))`
``epoch``*         1, 2 or 3 (default 1)
``phase``*         ``"action"``, ``"reveal"``, ``"gods"``, ``"bid"``, ``"discard"``, ``"game_over"``
                   (default ``"action"``, or ``"bid"`` when an auction is given)
``turn_player``*   seat whose turn it is (default: the holder of the highest sun)
``ra_count``*      Ra tiles drawn this epoch (default 0)
``center_sun``*    default: the one sun of 1..N that no player owns
``track``*         up to 8 tile names or ``null`` (empty slot), slots 1..8 from the left
``players``        list of ``{"suns_up": [..], "suns_down"*: [..], "display"*: {tile: n}, "fame"*: n}``
``auction``*       ``null`` or ``{"trigger": "ra_tile"|"call_voluntary"|"call_forced",
                   "bids"*: [sun or null, ...]}`` (the Ra player is `turn_player`; the bidding
                   order follows from the suns, R38)
``discard``*       ``null`` or ``{"player": seat, "owed": [[disaster, n], ...], "after": "auction"|"gods"}``
``bag``*           ``{tile: n}``; default: what is not elsewhere (180 in all, R1)
``box``*           ``{tile: n}``; default: nothing, or what is not elsewhere when ``bag`` is given
``scores``*        finished epochs' breakdowns, as written by `state_to_dict`
=================  ==========================================================================

Types are strict (a count is an int, never a bool or a float; a flag is a bool), the data may
nest at most 12 levels with at most 200 items in a list or object and integers within
+-2**63, and the position must be one a real game can have: `ra_core.engine.invariants.check` runs on
it. Anything else raises `InvalidStateError` naming the field at fault, and nothing else.

>>> from ra_core import State
>>> s = State.from_dict({"players": [{"suns_up": [13, 6, 2]}, {"suns_up": [12, 7, 3]},
...                                  {"suns_up": [11, 8, 4]}, {"suns_up": [10, 9, 5]}],
...                      "track": ["gold"], "turn_player": 1})
>>> [str(a) for a in s.legal_actions()]
['draw', 'ra']
>>> State.from_dict(s.to_dict()) == s
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .auction import bid_order
from .errors import InvalidStateError
from .invariants import check_choices, check_position, check_sun_counts, check_sun_owners
from .records import (
    CHANCE,
    TERMINAL,
    Auction,
    Breakdown,
    EpochScore,
    PendingDiscard,
    Phase,
    Player,
    Resume,
    Trigger,
)
from .rules import EPOCHS, STARTING_FAME, TRACK_SIZE, Rules
from .safejson import check_shape, describe
from .tiles import FULL_BAG, NUM_KINDS, Tile
from .turns import choices, highest_sun_holder

if TYPE_CHECKING:
    from .state import State

__all__ = ["SCHEMA", "state_from_dict", "state_to_dict"]

SCHEMA = "ra-state/1"
#: The keys of a saved position (`state_to_dict` writes them all; a state's `choices` are not
#: saved: they follow from the rest).
_SAVED_KEYS = {
    "schema",
    "rules",
    "epoch",
    "phase",
    "turn_player",
    "ra_count",
    "center_sun",
    "track",
    "players",
    "auction",
    "discard",
    "bag",
    "box",
    "scores",
}


def _counts_to_dict(c: tuple[int, ...]) -> dict[str, int]:
    return {Tile(i).label: n for i, n in enumerate(c) if n}


def state_to_dict(s: State) -> dict[str, Any]:
    """Return `s` as JSON-ready data (schema ``ra-state/1``, all keys present)."""
    auction = None
    if s.auction is not None:
        auction = {"trigger": s.auction.trigger.value, "bids": list(s.auction.bids)}
    discard = None
    if s.discard is not None:
        d = s.discard
        discard = {"player": d.player, "owed": [[k.label, n] for k, n in d.owed], "after": d.after.value}
    return {
        "schema": SCHEMA,
        "rules": s.rules.to_dict(),
        "epoch": s.epoch,
        "phase": s.phase.value,
        "turn_player": s.turn_player,
        "ra_count": s.ra_count,
        "center_sun": s.center_sun,
        "track": [t.label if t is not None else None for t in s.track],
        "players": [
            {
                "suns_up": list(p.suns_up),
                "suns_down": list(p.suns_down),
                "display": _counts_to_dict(p.display),
                "fame": p.fame,
            }
            for p in s.players
        ],
        "auction": auction,
        "discard": discard,
        "bag": _counts_to_dict(s.bag),
        "box": _counts_to_dict(s.box),
        "scores": [{"epoch": e.epoch, "players": [b._asdict() for b in e.players]} for e in s.scores],
    }


def _fail(field: str, problem: str) -> InvalidStateError:
    return InvalidStateError(field, problem)


# -- strict readers of one value ----------------------------------------------------------


def _int(data: Mapping[str, Any], key: str, field: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if type(value) is not int:
        raise _fail(field, f"expected an integer, got {describe(value)}")
    return value


def _tile(name: Any, field: str) -> Tile:
    if not isinstance(name, str):
        raise _fail(field, f"expected a tile name, got {describe(name)}")
    try:
        return Tile.from_label(name)
    except ValueError as e:
        raise _fail(field, str(e)[:120]) from None


def _object(data: Any, field: str, known: set[str]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _fail(field, f"expected an object, got {describe(data)}")
    extra = sorted(set(data) - known)
    if extra:
        where = extra[0] if field == "state" else f"{field}.{extra[0]}"
        raise _fail(where, f"unknown field; known: {', '.join(sorted(known))}")
    return data


def _counts(data: Any, field: str) -> tuple[int, ...]:
    if not isinstance(data, dict):
        raise _fail(field, f"expected an object of tile counts like {{'gold': 2}}, got {describe(data)}")
    out = [0] * NUM_KINDS
    for name, n in data.items():
        tile = _tile(name, f"{field}.{name}")
        if type(n) is not int or n < 0:
            raise _fail(f"{field}.{name}", f"expected a count >= 0, got {describe(n)}")
        out[tile] += n
    return tuple(out)


def _suns(data: Any, field: str) -> tuple[int, ...]:
    if not isinstance(data, list) or not all(type(x) is int for x in data):
        raise _fail(field, f"expected a list of sun values (integers), got {describe(data)}")
    return tuple(sorted(data))


# -- the parts of a position ---------------------------------------------------------------


def state_from_dict(data: Any, cls: type[State], *, strict: bool = True) -> State:
    """Return the position described by `data`, checking that it is possible.

    ``strict=False`` leaves out the check against a real game's history (see
    `ra_core.engine.invariants.check`), for teaching positions such as a bag of four tiles.

    Raises:
        InvalidStateError: a field is missing, malformed or impossible; its ``field``
            attribute and the message name it.
    """
    check_shape(data)
    data = _object(data, "state", _SAVED_KEYS)
    if data.get("schema", SCHEMA) != SCHEMA:
        raise _fail("schema", f"expected {SCHEMA!r}, got {describe(data.get('schema'))}")
    if "schema" in data:  # a saved position, as `state_to_dict` writes it: every field must be there
        missing = sorted(_SAVED_KEYS - set(data))
        if missing:
            raise _fail(missing[0], "missing from a saved position (one with a 'schema'); every field is needed")
    rules, players = _rules_and_players(data)
    center = _center_sun(data, players, rules)
    epoch = _int(data, "epoch", "epoch", 1)
    ra_count = _int(data, "ra_count", "ra_count", 0)
    track = _track(data.get("track", []))
    phase = _phase(data)
    turn = _int(data, "turn_player", "turn_player", highest_sun_holder(players))  # R16 by default
    if not 0 <= turn < len(players):
        raise _fail("turn_player", f"expected a seat 0..{len(players) - 1}, got {turn}")
    auction = _auction(data.get("auction"), players, turn) if phase is Phase.BID else None
    if auction is None and data.get("auction") is not None:
        raise _fail("auction", f"an auction is only running in phase 'bid', not {phase.value!r}")
    discard = _discard(data.get("discard"), len(players)) if phase is Phase.DISCARD else None
    if discard is None and data.get("discard") is not None:
        raise _fail("discard", f"discards are only chosen in phase 'discard', not {phase.value!r}")
    bag, box = _supply(data, players, track, ra_count)
    to_move = {Phase.REVEAL: CHANCE, Phase.GAME_OVER: TERMINAL}.get(phase, turn)  # ACTION and GODS: the turn player
    if auction is not None and len(auction.bids) < len(auction.order):
        to_move = auction.order[len(auction.bids)]
    elif discard is not None:
        to_move = discard.player
    state = cls(
        rules=rules,
        epoch=epoch,
        phase=phase,
        turn_player=turn,
        to_move=to_move,
        bag=bag,
        ra_count=ra_count,
        track=track,
        center_sun=center,
        players=players,
        auction=auction,
        discard=discard,
        box=box,
        scores=_scores(data.get("scores", [])),
        choices=(),
    )
    check_position(state, history=strict)  # first: the legal actions are worked out from sound fields only
    state = state._replace(choices=choices(state))  # the legal actions follow from the fields above
    check_choices(state)
    return state


def _rules_and_players(data: dict[str, Any]) -> tuple[Rules, tuple[Player, ...]]:
    raw = data.get("players")
    if not isinstance(raw, list) or not 2 <= len(raw) <= 5:
        raise _fail("players", f"expected a list of 2 to 5 players, got {describe(raw)}")
    try:
        rules = Rules.from_dict(data["rules"]) if "rules" in data else Rules.default(len(raw))
    except (ValueError, TypeError) as e:
        raise _fail("rules", str(e)[:200]) from None
    if rules.players != len(raw):
        raise _fail("players", f"the rules are for {rules.players} players, got {len(raw)}")
    players = tuple(_player(p, f"players[{i}]") for i, p in enumerate(raw))
    check_sun_counts(players, rules)
    return rules, players


def _player(data: Any, field: str) -> Player:
    p = _object(data, field, {"suns_up", "suns_down", "display", "fame"})
    return Player(
        _suns(p.get("suns_up", []), f"{field}.suns_up"),
        _suns(p.get("suns_down", []), f"{field}.suns_down"),
        _counts(p.get("display", {}), f"{field}.display"),
        _int(p, "fame", f"{field}.fame", STARTING_FAME),
    )


def _center_sun(data: dict[str, Any], players: tuple[Player, ...], rules: Rules) -> int:
    """Return the center sun: as given, or the one sun of 1..N that nobody owns (R48)."""
    if "center_sun" in data:
        return _int(data, "center_sun", "center_sun")
    owned = {s for p in players for s in (*p.suns_up, *p.suns_down)}
    free = sorted(set(range(1, rules.max_sun + 1)) - owned)
    if len(free) != 1:
        check_sun_owners(players, rules, None)  # a sun owned twice or out of play is the real culprit
        raise _fail("center_sun", f"cannot tell the center sun: suns not owned are {free[:5]}")
    return free[0]


def _track(raw: Any) -> tuple[Tile | None, ...]:
    if not isinstance(raw, list) or len(raw) > TRACK_SIZE:
        raise _fail("track", f"expected a list of at most {TRACK_SIZE} tile names or nulls, got {describe(raw)}")
    track = [None if t is None else _tile(t, f"track[{i}]") for i, t in enumerate(raw)]
    return (*track, *(None,) * (TRACK_SIZE - len(track)))


def _phase(data: dict[str, Any]) -> Phase:
    raw = data.get("phase", "bid" if data.get("auction") else "action")
    try:
        return Phase(raw)
    except ValueError:
        raise _fail("phase", f"expected one of {[p.value for p in Phase]}, got {describe(raw)}") from None


def _auction(data: Any, players: tuple[Player, ...], ra_player: int) -> Auction:
    a = _object(data, "auction", {"trigger", "bids"})
    try:
        trigger = Trigger(a.get("trigger"))
    except ValueError:
        raise _fail(
            "auction.trigger", f"expected one of {[t.value for t in Trigger]}, got {describe(a.get('trigger'))}"
        ) from None
    bids = a.get("bids", [])
    if not isinstance(bids, list) or not all(b is None or type(b) is int for b in bids):
        raise _fail("auction.bids", f"expected a list of suns (integers) or nulls, got {describe(bids)}")
    order = bid_order(players, ra_player)
    high = max((b for b in bids if b is not None), default=0)
    bidder = order[bids.index(high)] if high and len(bids) <= len(order) else -1
    return Auction(trigger, ra_player, order, tuple(bids), high, bidder)


def _discard(data: Any, n_players: int) -> PendingDiscard:
    d = _object(data, "discard", {"player", "owed", "after"})
    seat = _int(d, "player", "discard.player")
    if d.get("after") not in ("auction", "gods"):
        raise _fail("discard.after", f"expected 'auction' or 'gods', got {describe(d.get('after'))}")
    owed = d.get("owed")
    if not isinstance(owed, list) or not owed:
        raise _fail("discard.owed", f"expected a non-empty list of [disaster, n], got {describe(owed)}")
    pairs = []
    for i, item in enumerate(owed):
        field = f"discard.owed[{i}]"
        if not isinstance(item, list) or len(item) != 2:
            raise _fail(field, f"expected [disaster, n], got {describe(item)}")
        if type(item[1]) is not int:
            raise _fail(f"{field}[1]", f"expected a whole number of tiles to lose, got {describe(item[1])}")
        pairs.append((_tile(item[0], field), item[1]))
    return PendingDiscard(seat, tuple(pairs), Resume(d["after"]))


def _supply(
    data: dict[str, Any], players: tuple[Player, ...], track: tuple[Tile | None, ...], ra_count: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Return (bag, box): as given, or the one not given as every tile not elsewhere (R1)."""
    placed = [0] * NUM_KINDS
    placed[Tile.RA] += ra_count
    for t in track:
        if t is not None:
            placed[t] += 1
    for p in players:
        for i, n in enumerate(p.display):
            placed[i] += n
    if "bag" in data and "box" in data:
        return _counts(data["bag"], "bag"), _counts(data["box"], "box")
    if "bag" in data:
        bag = _counts(data["bag"], "bag")
        return bag, _the_rest(bag, placed, "bag")
    box = _counts(data.get("box", {}), "box")
    return _the_rest(box, placed, "players.display"), box


def _the_rest(given: tuple[int, ...], placed: list[int], field: str) -> tuple[int, ...]:
    """Return the tiles not in `given` nor `placed`; a kind over its total names `field` (R1)."""
    rest = tuple(full - g - n for full, g, n in zip(FULL_BAG, given, placed, strict=True))
    if min(rest) < 0:
        kind = Tile(min(range(NUM_KINDS), key=lambda i: rest[i]))
        raise _fail(f"{field}.{kind.label}", f"too many {kind.label} tiles: only {FULL_BAG[kind]} exist (R1)")
    return rest


_BREAKDOWN_FIELDS = set(Breakdown._fields)


def _scores(data: Any) -> tuple[EpochScore, ...]:
    if not isinstance(data, list) or len(data) > EPOCHS:
        raise _fail("scores", f"expected a list of at most {EPOCHS} epoch scores, got {describe(data)}")
    out = []
    for i, e in enumerate(data):
        field = f"scores[{i}]"
        e = _object(e, field, {"epoch", "players"})
        if not isinstance(e.get("players"), list):
            raise _fail(f"{field}.players", f"expected a list of breakdowns, got {describe(e.get('players'))}")
        breakdowns = []
        for j, b in enumerate(e["players"]):
            b = _object(b, f"{field}.players[{j}]", _BREAKDOWN_FIELDS)
            values = [_int(b, name, f"{field}.players[{j}].{name}") for name in Breakdown._fields]
            breakdowns.append(Breakdown(*values))
        out.append(EpochScore(_int(e, "epoch", f"{field}.epoch"), tuple(breakdowns)))
    return tuple(out)
