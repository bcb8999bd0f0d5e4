"""Positions as JSON-ready data, with checks that name the field at fault.

Schema ``ra-state/1`` (keys marked * may be omitted when setting up a scenario):

=================  ==========================================================================
key                value
=================  ==========================================================================
``schema``*        ``"ra-state/1"``
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

Every tile of the 180 must be in exactly one place (bag, track, Ra track, a display, the
box); suns 1..N must each be owned exactly once (R48).

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

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .auction import bid_order
from .disasters import CHOOSABLE, leaves_a_choice
from .errors import InvalidStateError
from .records import CHANCE, TERMINAL, Auction, PendingDiscard, Phase, Player, Resume, Trigger
from .rules import EPOCHS, STARTING_FAME, TRACK_SIZE, Rules
from .scoring import Breakdown, EpochScore
from .tiles import DISASTER_TARGETS, FULL_BAG, NUM_KINDS, Tile
from .turns import highest_sun_holder

if TYPE_CHECKING:
    from collections.abc import Mapping

    from .state import State

SCHEMA = "ra-state/1"
_KNOWN = {
    "schema", "rules", "epoch", "phase", "turn_player", "ra_count", "center_sun", "track",
    "players", "auction", "discard", "bag", "box", "scores",
}  # fmt: skip


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


def _int(data: Mapping[str, Any], key: str, field: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(field, f"expected an integer, got {value!r}")
    return value


def _tile(name: Any, field: str) -> Tile:
    if not isinstance(name, str):
        raise _fail(field, f"expected a tile name, got {name!r}")
    try:
        return Tile.from_label(name)
    except ValueError as e:
        raise _fail(field, str(e)) from None


def _the_rest(given: tuple[int, ...], placed: Sequence[int], field: str) -> tuple[int, ...]:
    """Return the tiles not in `given` (the bag, or the box) nor `placed`; a kind over its total names `field` (R1)."""
    rest = tuple(full - g - n for full, g, n in zip(FULL_BAG, given, placed, strict=True))
    if min(rest) < 0:
        kind = Tile(min(range(NUM_KINDS), key=lambda i: rest[i]))
        raise _fail(f"{field}.{kind.label}", f"too many {kind.label} tiles: only {FULL_BAG[kind]} exist (R1)")
    return rest


def _counts(data: Any, field: str) -> tuple[int, ...]:
    if not isinstance(data, dict):
        raise _fail(field, f"expected an object of tile counts like {{'gold': 2}}, got {data!r}")
    out = [0] * NUM_KINDS
    for name, n in data.items():
        tile = _tile(name, f"{field}.{name}")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise _fail(f"{field}.{name}", f"expected a count >= 0, got {n!r}")
        out[tile] += n
    return tuple(out)


def _suns(data: Any, field: str) -> tuple[int, ...]:
    if not isinstance(data, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in data):
        raise _fail(field, f"expected a list of sun values, got {data!r}")
    return tuple(sorted(data))


def state_from_dict(data: Any, cls: type[State]) -> State:
    """Return the position described by `data`, checking that it is possible.

    Raises:
        InvalidStateError: a field is missing, malformed or impossible; its ``field``
            attribute and the message name it.
    """
    if not isinstance(data, dict):
        raise _fail("state", f"expected an object, got {type(data).__name__}")
    unknown = sorted(set(data) - _KNOWN)
    if unknown:
        raise _fail(unknown[0], f"unknown field; known fields: {', '.join(sorted(_KNOWN))}")
    if data.get("schema", SCHEMA) != SCHEMA:
        raise _fail("schema", f"expected {SCHEMA!r}, got {data.get('schema')!r}")

    raw_players = data.get("players")
    if not isinstance(raw_players, list) or not 2 <= len(raw_players) <= 5:
        raise _fail("players", f"expected a list of 2 to 5 players, got {raw_players!r}")
    try:
        rules = Rules.from_dict(data["rules"]) if "rules" in data else Rules.default(len(raw_players))
    except (ValueError, TypeError) as e:
        raise _fail("rules", str(e)) from None
    if rules.players != len(raw_players):
        raise _fail("players", f"the rules are for {rules.players} players, got {len(raw_players)}")

    players = []
    for i, p in enumerate(raw_players):
        field = f"players[{i}]"
        if not isinstance(p, dict):
            raise _fail(field, f"expected an object, got {p!r}")
        extra = sorted(set(p) - {"suns_up", "suns_down", "display", "fame"})
        if extra:
            raise _fail(f"{field}.{extra[0]}", "unknown field; known: suns_up, suns_down, display, fame")
        display = _counts(p.get("display", {}), f"{field}.display")
        if display[Tile.RA]:
            raise _fail(f"{field}.display.ra", "Ra tiles never go to a display (R24)")
        for d in DISASTER_TARGETS:
            if display[d]:
                raise _fail(f"{field}.display.{d.label}", "disaster tiles go to the box once resolved (R50)")
        fame = _int(p, "fame", f"{field}.fame", STARTING_FAME)
        if fame < 0 and rules.fame_floor:
            raise _fail(f"{field}.fame", f"fame cannot be negative with the fame floor (R69), got {fame}")
        players.append(
            Player(
                _suns(p.get("suns_up", []), f"{field}.suns_up"),
                _suns(p.get("suns_down", []), f"{field}.suns_down"),
                display,
                fame,
            )
        )
    players_t = tuple(players)

    # R48: the suns 1..N are each owned exactly once, the center sun included.
    size = len(rules.sun_groups[0])
    owner: dict[int, str] = {}
    for i, p in enumerate(players_t):
        if len(p.suns_up) + len(p.suns_down) != size:
            raise _fail(
                f"players[{i}].suns_up",
                f"every player owns exactly {size} suns (R48), got {len(p.suns_up) + len(p.suns_down)}",
            )
        for key in ("suns_up", "suns_down"):
            for sun in getattr(p, key):
                if sun in owner:
                    raise _fail(f"players[{i}].{key}", f"sun {sun} is owned twice (also {owner[sun]})")
                owner[sun] = f"players[{i}].{key}"
    all_suns = set(range(1, rules.max_sun + 1))
    bad = sorted(set(owner) - all_suns)
    if bad:
        raise _fail(f"{owner[bad[0]]}", f"sun {bad[0]} is not in play (suns are 1..{rules.max_sun})")
    free = sorted(all_suns - set(owner))
    if "center_sun" in data:
        center = _int(data, "center_sun", "center_sun")
        if center in owner:
            raise _fail("center_sun", f"sun {center} is owned twice (also {owner[center]})")
        if center not in all_suns or free != [center]:
            raise _fail("center_sun", f"the center sun must be the one sun nobody owns, {free}, got {center}")
    elif len(free) == 1:
        center = free[0]
    else:
        raise _fail("center_sun", f"cannot tell the center sun: suns not owned are {free}")

    epoch = _int(data, "epoch", "epoch", 1)
    if not 1 <= epoch <= EPOCHS:
        raise _fail("epoch", f"expected 1..{EPOCHS}, got {epoch}")
    ra_count = _int(data, "ra_count", "ra_count", 0)
    if not 0 <= ra_count < rules.ra_limit:
        raise _fail(
            "ra_count", f"expected 0..{rules.ra_limit - 1} (the {rules.ra_limit}th Ra ends the epoch), got {ra_count}"
        )

    raw_track = data.get("track", [])
    if not isinstance(raw_track, list) or len(raw_track) > TRACK_SIZE:
        raise _fail("track", f"expected a list of at most {TRACK_SIZE} tile names or nulls, got {raw_track!r}")
    track_list: list[Tile | None] = [None if t is None else _tile(t, f"track[{i}]") for i, t in enumerate(raw_track)]
    for i, t in enumerate(track_list):
        if t is Tile.RA:
            raise _fail(f"track[{i}]", "Ra tiles never go to the auction track (R24)")
    track = tuple(track_list) + (None,) * (TRACK_SIZE - len(track_list))

    # The phase, and the records that go with it.
    auction_data = data.get("auction")
    default_phase = "bid" if auction_data else "action"
    try:
        phase = Phase(data.get("phase", default_phase))
    except ValueError:
        raise _fail("phase", f"expected one of {[p.value for p in Phase]}, got {data.get('phase')!r}") from None
    turn = _int(data, "turn_player", "turn_player", highest_sun_holder(players_t))  # R16 by default
    if not 0 <= turn < len(players_t):
        raise _fail("turn_player", f"expected a seat 0..{len(players_t) - 1}, got {turn}")
    if phase not in (Phase.GAME_OVER, Phase.DISCARD) and not players_t[turn].suns_up:
        raise _fail("turn_player", f"player {turn} has no face-up sun, so it cannot be his turn (R17)")

    auction = None
    if phase is Phase.BID:
        auction = _auction(auction_data, players_t, turn, track, ra_count)
    elif auction_data is not None:
        raise _fail("auction", f"an auction is only running in phase 'bid', not {phase.value!r}")
    discard = None
    if phase is Phase.DISCARD:
        discard = _discard(data.get("discard"), players_t)
    elif data.get("discard") is not None:
        raise _fail("discard", f"discards are only chosen in phase 'discard', not {phase.value!r}")
    if phase is Phase.GODS and not players_t[turn].display[Tile.GOD]:
        raise _fail("phase", f"phase 'gods' needs a god in player {turn}'s display")
    if phase is Phase.GAME_OVER and epoch != EPOCHS:
        raise _fail("phase", f"the game is over only after epoch {EPOCHS}, but epoch is {epoch}")

    # R1: every one of the 180 tiles is in exactly one place.
    placed = [0] * NUM_KINDS
    placed[Tile.RA] += ra_count
    for t in track:
        if t is not None:
            placed[t] += 1
    for p in players_t:
        for i, n in enumerate(p.display):
            placed[i] += n
    if "bag" in data and "box" in data:
        bag, box = _counts(data["bag"], "bag"), _counts(data["box"], "box")
        for kind in Tile:
            total = bag[kind] + box[kind] + placed[kind]
            if total != FULL_BAG[kind]:
                raise _fail(
                    f"bag.{kind.label}",
                    f"{total} {kind.label} tiles in bag, box, track and displays; the game has {FULL_BAG[kind]} (R1)",
                )
    elif "bag" in data:
        bag = _counts(data["bag"], "bag")
        box = _the_rest(bag, placed, "bag")
    else:
        box = _counts(data.get("box", {}), "box")
        bag = _the_rest(box, placed, "players.display")
    if phase is Phase.REVEAL and not sum(bag):
        raise _fail("bag", "a draw needs a tile in the bag")

    scores = _scores(data.get("scores", []), len(players_t))
    to_move = {Phase.REVEAL: CHANCE, Phase.GAME_OVER: TERMINAL}.get(phase, turn)  # ACTION and GODS: the turn player
    if phase is Phase.BID:
        assert auction is not None
        to_move = auction.order[len(auction.bids)]
    elif phase is Phase.DISCARD:
        assert discard is not None
        to_move = discard.player
    return cls(
        rules=rules, epoch=epoch, phase=phase, turn_player=turn, to_move=to_move, bag=bag,
        ra_count=ra_count, track=track, center_sun=center, players=players_t, auction=auction,
        discard=discard, box=box, scores=scores,
    )  # fmt: skip


def _auction(
    data: Any, players: tuple[Player, ...], ra_player: int, track: tuple[Tile | None, ...], ra_count: int
) -> Auction:
    if not isinstance(data, dict):
        raise _fail("auction", f"phase 'bid' needs an auction object, got {data!r}")
    extra = sorted(set(data) - {"trigger", "bids"})
    if extra:
        raise _fail(f"auction.{extra[0]}", "unknown field; known: trigger, bids")
    try:
        trigger = Trigger(data.get("trigger"))
    except ValueError:
        raise _fail(
            "auction.trigger", f"expected one of {[t.value for t in Trigger]}, got {data.get('trigger')!r}"
        ) from None
    full = None not in track
    if trigger is Trigger.CALL_FORCED and not full:
        raise _fail("auction.trigger", "a forced call needs a full auction track (R35)")
    if trigger is Trigger.CALL_VOLUNTARY and full:
        raise _fail("auction.trigger", "a call on a full track is forced, not voluntary (R35)")
    if trigger is Trigger.RA_TILE and ra_count < 1:
        raise _fail("auction.trigger", "a Ra-tile auction needs a Ra tile drawn this epoch (ra_count >= 1)")
    order = bid_order(players, ra_player)
    bids = data.get("bids", [])
    if not isinstance(bids, list) or len(bids) >= len(order):
        raise _fail("auction.bids", f"expected fewer than {len(order)} entries (one per bidder so far), got {bids!r}")
    high, high_bidder = 0, -1
    for i, b in enumerate(bids):
        if b is None:
            continue
        bidder = order[i]
        if b not in players[bidder].suns_up:
            raise _fail(f"auction.bids[{i}]", f"player {bidder} has no face-up sun {b}")
        if b <= high:
            raise _fail(f"auction.bids[{i}]", f"bid {b} does not beat the high bid {high} (R39)")
        high, high_bidder = b, bidder
    return Auction(trigger, ra_player, order, tuple(bids), high, high_bidder)


def _discard(data: Any, players: tuple[Player, ...]) -> PendingDiscard:
    if not isinstance(data, dict) or set(data) != {"player", "owed", "after"}:
        raise _fail("discard", f"phase 'discard' needs {{'player', 'owed', 'after'}}, got {data!r}")
    seat = _int(data, "player", "discard.player")
    if not 0 <= seat < len(players):
        raise _fail("discard.player", f"expected a seat 0..{len(players) - 1}, got {seat}")
    if data["after"] not in ("auction", "gods"):
        raise _fail("discard.after", f"expected 'auction' or 'gods', got {data['after']!r}")
    owed = []
    if not isinstance(data["owed"], list) or not data["owed"]:
        raise _fail("discard.owed", f"expected a non-empty list of [disaster, n], got {data['owed']!r}")
    for i, item in enumerate(data["owed"]):
        field = f"discard.owed[{i}]"
        if not isinstance(item, list) or len(item) != 2:
            raise _fail(field, f"expected [disaster, n], got {item!r}")
        kind = _tile(item[0], field)
        if kind not in CHOOSABLE:
            raise _fail(field, f"only unrest and earthquake leave a choice (R53), got {kind.label}")
        n = item[1]
        display = players[seat].display
        if not isinstance(n, int) or n <= 0 or not leaves_a_choice(display, kind, n):
            available = sum(display[t] for t in DISASTER_TARGETS[kind])
            kinds = sum(1 for t in DISASTER_TARGETS[kind] if display[t])
            raise _fail(
                field, f"no real choice: player {seat} must lose {n} of {available} tiles of {kinds} kind(s) (R53)"
            )
        owed.append((kind, n))
    return PendingDiscard(seat, tuple(owed), Resume(data["after"]))


def _scores(data: Any, n: int) -> tuple[EpochScore, ...]:
    if not isinstance(data, list):
        raise _fail("scores", f"expected a list, got {data!r}")
    out = []
    for i, e in enumerate(data):
        field = f"scores[{i}]"
        try:
            breakdowns = tuple(Breakdown(**b) for b in e["players"])
            if len(breakdowns) != n:
                raise ValueError(f"expected {n} players")
            out.append(EpochScore(int(e["epoch"]), breakdowns))
        except (KeyError, TypeError, ValueError) as err:
            raise _fail(field, f"expected {{'epoch': n, 'players': [breakdown, ...]}}: {err}") from None
    return tuple(out)


__all__ = ["SCHEMA", "state_from_dict", "state_to_dict"]
