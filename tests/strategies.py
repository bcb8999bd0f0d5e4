"""Hypothesis strategies: rules for every player count and option, and seeded games."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from ra_core import Phase, Rules, Tile, new_game
from ra_core.play import sample_chance

#: Every rules option of docs/rules.md §2, each as a named variant of the default rules.
OPTION_VARIANTS: dict[str, dict[str, object]] = {
    "default": {},
    "god_cannot_take_disaster": {"god_can_take_disaster": False},
    "no_fame_floor": {"fame_floor": False},
    "tie_break_sum": {"tie_break": "highest_sun_sum"},
}
TWO_PLAYER_VARIANTS: dict[str, dict[str, object]] = {
    "groups_a": {"groups": "a"},
    "groups_c": {"groups": "c"},
    "ra_limit_6": {"ra_limit": 6},
    "no_penalty_final": {"no_penalty": True},
    "no_penalty_all_epochs": {"no_penalty": True, "no_penalty_scope": "all_epochs"},
}


def make_rules(players: int, variant: str) -> Rules:
    """Return the rules for `players` with the named option variant."""
    if variant in TWO_PLAYER_VARIANTS:
        return Rules.two_player(**TWO_PLAYER_VARIANTS[variant])  # type: ignore[arg-type]
    options = OPTION_VARIANTS[variant]
    return Rules.two_player(**options) if players == 2 else Rules.classic(players, **options)  # type: ignore[arg-type]


ALL_RULES = [(n, v) for n in (2, 3, 4, 5) for v in OPTION_VARIANTS] + [(2, v) for v in TWO_PLAYER_VARIANTS]

seeds = st.integers(min_value=0, max_value=2**32 - 1)


# -- positions built directly, for the phases random play seldom reaches ---------------------
# Random games reach a god turn about 0.3 times and a disaster choice about 0.1 times per game.
# These strategies build such positions from a seeded game's position, moving tiles and suns so
# that every tile and sun stays accounted for (R1, R48).

RARE = ("gods_on_track", "disaster_choice", "full_track", "lone_player", "last_sun_of_epoch_3")


def _take(state: Any, tiles: list[Tile], to_track: list[Tile], seat: int) -> Any:
    """Move `tiles` from the bag to `seat`'s display and `to_track` from the bag to the track."""
    bag = list(state.bag)
    display = list(state.players[seat].display)
    for t in tiles:
        if bag[t]:
            bag[t] -= 1
            display[t] += 1
    track = [t for t in state.track if t is not None]
    for t in to_track:
        if bag[t] and len(track) < 8:
            bag[t] -= 1
            track.append(t)
    players = list(state.players)
    players[seat] = players[seat]._replace(display=tuple(display))
    return state.replace(bag=tuple(bag), players=tuple(players), track=(*track, *(None,) * (8 - len(track))))


def rare_position(kind: str, seed: int) -> Any:
    """Return a position of the `kind` named in `RARE`, grown from a seeded 3-player game."""
    rng = random.Random(seed)
    s = new_game(3, seed=seed)
    for _ in range(int(rng.random() * 40)):  # somewhere in epoch 1
        if s.epoch > 1 or s.is_terminal():
            break
        legal = s.legal_actions()
        s = s.apply(sample_chance(s, rng) if s.is_chance_node() else legal[int(rng.random() * len(legal))])
    while s.phase is not Phase.ACTION:
        legal = s.legal_actions()
        s = s.apply(sample_chance(s, rng) if s.is_chance_node() else legal[0])
    seat = s.turn_player
    if kind == "gods_on_track":
        return _take(s, [Tile.GOD, Tile.GOD], [Tile.GOLD, Tile.GOD, Tile.NILE], seat)
    if kind == "disaster_choice":
        ready = _take(s, [Tile.GOD, Tile.ART, Tile.WRITING, Tile.RELIGION], [Tile.UNREST], seat)
        slot = next(i for i, t in enumerate(ready.track) if t is Tile.UNREST) + 1
        return ready.apply(f"god {slot}")
    if kind == "full_track":
        kinds = [
            Tile.NILE,
            Tile.PHARAOH,
            Tile.FLOOD,
            Tile.GOLD,
            Tile.ART,
            Tile.TEMPLE,
            Tile.NILE,
            Tile.PHARAOH,
            Tile.GOD,
        ]
        return _take(s, [], kinds, seat)
    players = list(s.players)
    if kind == "lone_player":  # everybody else has used his suns: they lie face down (R21)
        for i, p in enumerate(players):
            if i != seat:
                players[i] = p._replace(suns_up=(), suns_down=tuple(sorted(p.suns_up + p.suns_down)))
        return s.replace(players=tuple(players))
    assert kind == "last_sun_of_epoch_3"
    for i, p in enumerate(players):
        keep = p.suns_up[:1] if i == seat else ()
        players[i] = p._replace(suns_up=keep, suns_down=tuple(sorted(set(p.suns_up + p.suns_down) - set(keep))))
    box = list(s.box)
    bag = list(s.bag)
    moved = min(bag[Tile.RA] - (s.rules.ra_limit - s.ra_count), 2 * s.rules.ra_limit)
    bag[Tile.RA] -= moved
    box[Tile.RA] += moved
    return s.replace(players=tuple(players), epoch=3, bag=tuple(bag), box=tuple(box), scores=())


rare_positions = st.tuples(st.sampled_from(RARE), seeds).map(lambda ks: rare_position(*ks))
