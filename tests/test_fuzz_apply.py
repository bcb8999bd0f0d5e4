"""Fuzzing `State.apply` with junk: only the documented errors come out, and nothing changes.

The states come from seeded random games under every rules variant, with the rare phases
(a god turn, a disaster choice, a full track, the last Ra tile) collected on purpose, since
random play reaches them only a few times per game. The actions are anything a careless or
adversarial caller could pass: malformed action objects, text in any script, numbers, None,
containers nested deep.
"""

from __future__ import annotations

import functools
import random
from collections import defaultdict
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from ra_core import (
    Bid,
    CallRa,
    Discard,
    Done,
    Draw,
    IllegalActionError,
    InvalidActionError,
    Pass,
    Phase,
    Reveal,
    State,
    Tile,
    UseGod,
    new_game,
    parse_action,
)
from ra_core.engine.turns import canonical
from ra_core.play import sample_chance

from .strategies import ALL_RULES, make_rules


@functools.cache
def states_by_phase() -> dict[Phase, list[State]]:
    """Return states of seeded random games by phase, with full tracks and final turns added."""
    found: dict[Phase, list[State]] = defaultdict(list)
    rng = random.Random(2024)
    for game in range(240):
        players, variant = ALL_RULES[game % len(ALL_RULES)]
        s = new_game(players, seed=game, rules=make_rules(players, variant))
        step = 0
        while not s.is_terminal():
            if step % 7 == 0 or s.phase in (Phase.GODS, Phase.DISCARD) or None not in s.track:
                found[s.phase].append(s)
            if step % 11 == 0 and s.phase is Phase.ACTION:
                for rare in god_turns(s):
                    found[rare.phase].append(rare)
            legal = s.legal_actions()
            s = s.apply(sample_chance(s, rng) if s.is_chance_node() else legal[int(rng.random() * len(legal))])
            step += 1
        found[s.phase].append(s)
    return found


def god_turns(s: State) -> list[State]:
    """Return a god turn that goes on (GODS) and one stopped by a disaster choice (DISCARD) from `s`.

    The turn player is given two gods and three civilizations, and the track a gold and an
    unrest: using a god on the gold leaves one god to use (R29); on the unrest, two
    civilizations must be chosen (R28, R53).
    """
    seat = s.turn_player
    display = list(s.players[seat].display)
    for tile in (Tile.GOD, Tile.GOD, Tile.ART, Tile.WRITING, Tile.RELIGION):
        display[tile] += 1
    players = list(s.players)
    players[seat] = players[seat]._replace(display=tuple(display))
    track = (Tile.GOLD, Tile.UNREST, *s.track[2:])
    ready = s.replace(players=tuple(players), track=track)
    out = [ready.apply("god 1")]
    if s.rules.god_can_take_disaster:
        out.append(ready.apply("god 2"))
    return out


PHASES = [Phase.ACTION, Phase.REVEAL, Phase.GODS, Phase.BID, Phase.DISCARD, Phase.GAME_OVER]


def test_the_pool_reaches_every_phase() -> None:
    pool = states_by_phase()
    assert all(len(pool[p]) >= 5 for p in PHASES), {p: len(pool[p]) for p in PHASES}


values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.binary(max_size=4),
    st.sampled_from(list(Tile)),
    st.tuples(st.sampled_from(list(Tile)), st.sampled_from(list(Tile))),
)
nested = st.recursive(values, lambda inner: st.lists(inner, max_size=3) | st.tuples(inner), max_leaves=20)
deep = st.integers(min_value=50, max_value=3000).map(functools.partial(functools.reduce, lambda acc, _: [acc], [0]))
notation = st.tuples(
    st.sampled_from(["bid", "god", "discard", "reveal", "draw", "ra", "pass", "done", "BID", ""]),
    st.text(max_size=10),
).map(" ".join)
junk_actions = st.one_of(
    st.builds(Bid, values),
    st.builds(UseGod, values),
    st.builds(Discard, nested),
    st.builds(Reveal, values),
    st.sampled_from([Draw(), CallRa(), Pass(), Done()]),
    st.integers(min_value=1, max_value=16).map(Bid),
    st.integers(min_value=1, max_value=8).map(UseGod),
    notation,
    st.text(max_size=30),
    nested,
    deep,
)


def _deep(depth: int) -> Any:
    out: Any = 0
    for _ in range(depth):
        out = [out]
    return out


@given(phase=st.sampled_from(PHASES), pick=st.integers(min_value=0), action=junk_actions)
def test_junk_actions_raise_only_documented_errors_and_change_nothing(phase: Phase, pick: int, action: Any) -> None:
    pool = states_by_phase()[phase]
    s = pool[pick % len(pool)]
    before, fingerprint = s.to_dict(), hash(s)
    try:
        after = s.apply(action)
    except (IllegalActionError, InvalidActionError) as err:
        assert str(err)  # a message, never empty
        if isinstance(err, IllegalActionError):
            assert err.phase == s.phase.name and err.player == s.to_move
            assert err.legal == list(s.legal_actions())
    else:  # accepted: then it was legal, in notation or as a well-typed action
        taken = parse_action(action) if isinstance(action, str) else action
        if s.is_chance_node():
            assert type(taken) is Reveal and type(taken.tile) is Tile and s.bag[taken.tile] > 0
        else:
            assert canonical(taken) in s.legal_actions()
        assert isinstance(after, State) and after != s
    assert s.to_dict() == before and hash(s) == fingerprint


def test_deeply_nested_junk_is_refused_without_recursion_errors() -> None:
    s = new_game(3, seed=1)
    for action in (_deep(5000), Discard(_deep(5000)), Bid(_deep(5000))):
        try:
            s.apply(action)
        except IllegalActionError as err:
            assert len(str(err)) < 2000
        else:
            raise AssertionError("junk was accepted")
