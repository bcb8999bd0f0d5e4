"""What every position of a real game keeps true, checked in one place.

`check(state)` raises `InvalidStateError` naming the field at fault, or returns None. It is
what `State.from_dict` runs on every saved position, what the property tests run after every
step of random games, and what a bot author can run on a position built by hand.

The invariants, with the rules they come from:

* every one of the 180 tiles is in exactly one place: bag, track, Ra track, a display, the box (R1);
* displays hold no Ra tile and no unresolved disaster (R24, R50), and fame is not negative under
  the fame floor (R69);
* each sun 1..N is owned exactly once, the center sun included, and every player owns the same
  number (R48);
* the epoch is 1-3; fewer Ra tiles are drawn than end it (R15); the box holds at most the Ra
  tiles of the finished epochs, so the bag still holds the Ra tiles this epoch needs (R25, R59)
  (left out for teaching positions: `check(state, history=False)`);
* the phase fits the position: a draw needs a free auction slot (R19) and a tile in the bag; the
  turn player has a face-up sun (R17); a god turn has a god and a target (R26, R29); an auction
  is running exactly in the bid phase, with legal bids so far (R35-R40); a disaster choice is a
  real choice (R53), and one interrupting a god turn belongs to the turn player (R28);
* the scores are one per finished epoch, in order, and add up to the fame (R63-R69);
* a game that is not over always has a legal action, and the state's `choices` are the legal
  actions of the player to move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .auction import bid_order
from .disasters import CHOOSABLE, leaves_a_choice
from .errors import InvalidStateError
from .records import CHANCE, TERMINAL, Phase, Player, Resume, Trigger
from .rules import EPOCHS, TRACK_SIZE, Rules
from .tiles import DISASTER_TARGETS, FULL_BAG, NUM_KINDS, Tile
from .turns import choices, god_targets

if TYPE_CHECKING:
    from .state import State

__all__ = [
    "check",
    "check_choices",
    "check_epoch",
    "check_phase",
    "check_position",
    "check_scores",
    "check_sun_counts",
    "check_sun_owners",
    "check_suns",
    "check_tiles",
]


def check(state: State, *, history: bool = True) -> None:
    """Raise `InvalidStateError` (naming the field) unless `state` is a position a real game can have.

    With ``history=False`` the one check against the game's history is left out (the box holds at
    most the Ra tiles of the finished epochs), for teaching positions such as a bag of four tiles:
    such a position is still sound, with every tile and sun accounted for and a legal action in
    every position the game can come to.
    """
    check_position(state, history=history)
    check_choices(state)


def check_position(state: State, *, history: bool = True) -> None:
    """Raise `InvalidStateError` unless the fields of `state` but its `choices` are a real game's (see `check`).

    The legal actions follow from these fields, and are worked out only from fields that hold.
    """
    check_tiles(state)
    check_suns(state)
    check_epoch(state, history=history)
    check_phase(state)
    check_scores(state)


def check_choices(state: State) -> None:
    """Raise `InvalidStateError` unless `state`'s `choices` are its legal actions, and some exist before the end."""
    if state.phase is not Phase.GAME_OVER and not state.legal_actions():
        raise InvalidStateError("phase", f"no action is legal in phase {state.phase.value!r}, yet the game is not over")
    if state.choices != choices(state):
        raise InvalidStateError("choices", "they are not the legal actions of the player to move (turns.choices)")


def check_tiles(state: State) -> None:
    """R1, R24, R50: every tile in exactly one place; no Ra tile or disaster in a display or on the track."""
    placed = [0] * NUM_KINDS
    placed[Tile.RA] += state.ra_count
    for i, t in enumerate(state.track):
        if t is Tile.RA:
            raise InvalidStateError(f"track[{i}]", "Ra tiles never go to the auction track (R24)")
        if t is not None:
            placed[t] += 1
    for seat, p in enumerate(state.players):
        if p.display[Tile.RA]:
            raise InvalidStateError(f"players[{seat}].display.ra", "Ra tiles never go to a display (R24)")
        for d in DISASTER_TARGETS:
            if p.display[d]:
                raise InvalidStateError(
                    f"players[{seat}].display.{d.label}", "disaster tiles go to the box once resolved (R50)"
                )
        if min(p.display) < 0:
            raise InvalidStateError(f"players[{seat}].display", "a tile count cannot be negative")
        for i, n in enumerate(p.display):
            placed[i] += n
        if p.fame < 0 and state.rules.fame_floor:
            raise InvalidStateError(
                f"players[{seat}].fame", f"fame cannot be negative with the fame floor (R69), got {p.fame}"
            )
    for kind in Tile:
        total = state.bag[kind] + state.box[kind] + placed[kind]
        if total != FULL_BAG[kind] or min(state.bag[kind], state.box[kind]) < 0:
            raise InvalidStateError(
                f"bag.{kind.label}",
                f"{total} {kind.label} tiles in bag, box, track and displays; the game has {FULL_BAG[kind]} (R1)",
            )


def check_suns(state: State) -> None:
    """R48: the suns 1..N are each owned exactly once, the center sun included."""
    check_sun_counts(state.players, state.rules)
    check_sun_owners(state.players, state.rules, state.center_sun)


def check_sun_owners(players: Sequence[Player], rules: Rules, center_sun: int | None) -> None:
    """R48: no sun is owned twice, every sun is one of 1..N, and (with the center sun) all are owned."""
    owner: dict[int, str] = {}
    for seat, p in enumerate(players):
        for key, suns in (("suns_up", p.suns_up), ("suns_down", p.suns_down)):
            if list(suns) != sorted(suns):
                raise InvalidStateError(f"players[{seat}].{key}", "suns are kept in ascending order")
            for sun in suns:
                if sun in owner:
                    raise InvalidStateError(f"players[{seat}].{key}", f"sun {sun} is owned twice (also {owner[sun]})")
                if not 1 <= sun <= rules.max_sun:
                    raise InvalidStateError(f"players[{seat}].{key}", f"sun {sun} is not in play (1..{rules.max_sun})")
                owner[sun] = f"players[{seat}].{key}"
    if center_sun is None:
        return
    if center_sun in owner:
        raise InvalidStateError("center_sun", f"sun {center_sun} is owned twice (also {owner[center_sun]})")
    free = sorted(set(range(1, rules.max_sun + 1)) - set(owner))
    if free != [center_sun]:
        raise InvalidStateError(
            "center_sun", f"the center sun must be the one sun nobody owns, {free}, got {center_sun}"
        )


def check_sun_counts(players: Sequence[Player], rules: Rules) -> None:
    """R48: every player owns the same number of suns, face up or down."""
    size = len(rules.sun_groups[0])
    for seat, p in enumerate(players):
        if len(p.suns_up) + len(p.suns_down) != size:
            raise InvalidStateError(
                f"players[{seat}].suns_up",
                f"every player owns exactly {size} suns (R48), got {len(p.suns_up) + len(p.suns_down)}",
            )


def check_epoch(state: State, *, history: bool = True) -> None:
    """R15, R25, R59, R62: the epoch, the Ra tiles drawn this epoch, and the Ra tiles of finished epochs.

    Each finished epoch put at most its Ra limit of Ra tiles in the box (fewer if it ended when
    the suns ran out, R58), so the bag still holds the Ra tiles this epoch needs.
    """
    limit = state.rules.ra_limit
    if not 1 <= state.epoch <= EPOCHS:
        raise InvalidStateError("epoch", f"expected 1..{EPOCHS}, got {state.epoch}")
    if not 0 <= state.ra_count < limit:
        raise InvalidStateError(
            "ra_count", f"expected 0..{limit - 1} (the {limit}th Ra ends the epoch), got {state.ra_count}"
        )
    finished = EPOCHS if state.phase is Phase.GAME_OVER else state.epoch - 1
    if history and state.box[Tile.RA] > finished * limit:
        raise InvalidStateError(
            "box.ra",
            f"{state.box[Tile.RA]} Ra tiles in the box, but {finished} finished epoch(s) put at most "
            f"{finished * limit} there (R59); the bag must keep the Ra tiles this epoch needs (R25)",
        )
    if state.phase is Phase.GAME_OVER and state.epoch != EPOCHS:
        raise InvalidStateError("phase", f"the game is over only after epoch {EPOCHS}, but epoch is {state.epoch}")
    if state.phase is Phase.GAME_OVER and (state.ra_count or any(t is not None for t in state.track)):
        raise InvalidStateError("phase", "at the end of the game the Ra track and the auction track are cleared (R59)")


def check_phase(state: State) -> None:
    """The phase, whose decision it is, and the auction or discard records that go with it."""
    phase, turn = state.phase, state.turn_player
    if len(state.track) != TRACK_SIZE:
        raise InvalidStateError("track", f"the auction track has {TRACK_SIZE} slots, got {len(state.track)}")
    if not 0 <= turn < state.num_players:
        raise InvalidStateError("turn_player", f"expected a seat 0..{state.num_players - 1}, got {turn}")
    if phase not in (Phase.GAME_OVER, Phase.DISCARD) and not state.players[turn].suns_up:
        raise InvalidStateError("turn_player", f"player {turn} has no face-up sun, so it cannot be his turn (R17)")
    if (state.auction is not None) != (phase is Phase.BID):
        raise InvalidStateError("auction", f"an auction runs exactly in phase 'bid', not in {phase.value!r}")
    if (state.discard is not None) != (phase is Phase.DISCARD):
        raise InvalidStateError("discard", f"discards are chosen exactly in phase 'discard', not in {phase.value!r}")
    expected = {Phase.REVEAL: CHANCE, Phase.GAME_OVER: TERMINAL}.get(phase, turn)
    if phase is Phase.REVEAL:
        if None not in state.track:
            raise InvalidStateError("phase", "a draw needs a free slot on the auction track (R19)")
        if not sum(state.bag):
            raise InvalidStateError("bag", "a draw needs a tile in the bag")
    elif phase is Phase.GODS:
        if not state.players[turn].display[Tile.GOD] or not god_targets(state.track, state.rules):
            raise InvalidStateError("phase", f"phase 'gods' needs a god in player {turn}'s display and a target (R26)")
    elif phase is Phase.BID:
        expected = _check_auction(state)
    elif phase is Phase.DISCARD:
        expected = _check_discard(state)
    if state.to_move != expected:
        raise InvalidStateError("to_move", f"in phase {phase.value!r} player {expected} decides, not {state.to_move}")


def _check_auction(state: State) -> int:
    """R35-R40: the trigger fits the track, the bids so far are legal; return who bids next."""
    a = state.auction
    assert a is not None
    full = None not in state.track
    if a.trigger is Trigger.CALL_FORCED and not full:
        raise InvalidStateError("auction.trigger", "a forced call needs a full auction track (R35)")
    if a.trigger is Trigger.CALL_VOLUNTARY and full:
        raise InvalidStateError("auction.trigger", "a call on a full track is forced, not voluntary (R35)")
    if a.trigger is Trigger.RA_TILE and state.ra_count < 1:
        raise InvalidStateError("auction.trigger", "a Ra-tile auction needs a Ra tile drawn this epoch (ra_count >= 1)")
    if a.ra_player != state.turn_player or a.order != bid_order(state.players, a.ra_player):
        raise InvalidStateError(
            "auction", "the bidders are everyone with a face-up sun, left of the Ra player first (R38)"
        )
    if len(a.bids) >= len(a.order):
        raise InvalidStateError("auction.bids", f"expected fewer than {len(a.order)} bids (one per bidder so far)")
    high, high_bidder = 0, -1
    for i, b in enumerate(a.bids):
        if b is None:
            continue
        bidder = a.order[i]
        if b not in state.players[bidder].suns_up:
            raise InvalidStateError(f"auction.bids[{i}]", f"player {bidder} has no face-up sun {b}")
        if b <= high:
            raise InvalidStateError(f"auction.bids[{i}]", f"bid {b} does not beat the high bid {high} (R39)")
        high, high_bidder = b, bidder
    if (a.high_bid, a.high_bidder) != (high, high_bidder):
        raise InvalidStateError("auction", f"the high bid is {high} by player {high_bidder}, as the bids say")
    return a.order[len(a.bids)]


def _check_discard(state: State) -> int:
    """R28, R53: each disaster owed leaves a real choice; a god turn's disaster is the turn player's."""
    pending = state.discard
    assert pending is not None
    seat = pending.player
    if not 0 <= seat < state.num_players:
        raise InvalidStateError("discard.player", f"expected a seat 0..{state.num_players - 1}, got {seat}")
    if pending.after is Resume.GODS and seat != state.turn_player:
        raise InvalidStateError(
            "discard.player", f"a disaster taken by a god is the turn player's (player {state.turn_player}) (R28)"
        )
    if not pending.owed:
        raise InvalidStateError("discard.owed", "a pending discard owes at least one disaster")
    display = state.players[seat].display
    for i, (kind, n) in enumerate(pending.owed):
        field = f"discard.owed[{i}]"
        if kind not in CHOOSABLE:
            raise InvalidStateError(field, f"only unrest and earthquake leave a choice (R53), got {kind.label}")
        if n < 2 or n % 2 or n > 2 * FULL_BAG[kind]:  # R50, R54: two tiles per disaster of this kind
            raise InvalidStateError(
                field, f"expected 2 tiles per {kind.label} tile (2 to {2 * FULL_BAG[kind]}), got {n} (R50, R54)"
            )
        if not leaves_a_choice(display, kind, n):
            available = sum(display[t] for t in DISASTER_TARGETS[kind])
            raise InvalidStateError(field, f"no real choice: player {seat} must lose {n} of {available} tiles (R53)")
    return seat


def check_scores(state: State) -> None:
    """R63-R69: one score per finished epoch, in order, whose fame adds up to the players' fame.

    A position built by hand may leave out the history before it: the scores then cover only the
    last finished epochs (none, for a position set up in the middle of a game).
    """
    scores = state.scores
    if not scores:
        return
    finished = EPOCHS if state.phase is Phase.GAME_OVER else state.epoch - 1
    if len(scores) > finished:
        raise InvalidStateError(
            "scores", f"expected at most one score per finished epoch ({finished}), got {len(scores)}"
        )
    first = finished - len(scores) + 1
    fame = [b.fame_before for b in scores[0].players]
    for e, score in enumerate(scores):
        if score.epoch != first + e or len(score.players) != state.num_players:
            raise InvalidStateError(f"scores[{e}]", f"expected epoch {first + e} with one breakdown per player")
        for seat, b in enumerate(score.players):
            after = b.fame_before + b.net
            if state.rules.fame_floor and after < 0:
                after = 0
            if b.fame_before != fame[seat] or b.fame_after != after:
                raise InvalidStateError(
                    f"scores[{e}].players[{seat}]", "the fame before and after must follow from the points (R69)"
                )
            fame[seat] = b.fame_after
    if tuple(fame) != state.fame:
        raise InvalidStateError("scores", "the last scoring's fame must be the players' fame")
