"""Saved positions: strict types, every invariant of a real game, and only `InvalidStateError` out.

The cases are the ones an adversarial user found (wrong types that used to be kept, positions no
game can reach that then broke), plus a fuzz of mutated saved positions.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ra_core import InvalidStateError, State
from ra_core.bots import random_bot
from ra_core.engine.invariants import check
from ra_core.engine.safejson import load_json
from ra_core.play import play_game

from .positions import S4


def saved(players: int = 4, seed: int = 3, steps: int = 40) -> dict[str, Any]:
    """Return `to_dict()` of a position `steps` actions into a seeded random game."""
    states = list(play_game([random_bot] * players, seed=seed).states())
    return states[min(steps, len(states) - 1)].to_dict()


def refused(data: Any, strict: bool = True) -> InvalidStateError:
    with pytest.raises(InvalidStateError) as info:
        State.from_dict(data, strict=strict)
    return info.value


def with_rules(**changes: Any) -> dict[str, Any]:
    data = saved()
    data["rules"] = {**data["rules"], **changes}
    return data


@pytest.mark.parametrize(
    "changes",
    [
        {"god_can_take_disaster": "false"},
        {"fame_floor": None},
        {"fame_floor": "no"},
        {"fame_floor": 2},
        {"name": [1]},
        {"ra_limit": 7.0},
        {"ra_limit": True},
        {"sun_groups": [[13.0, 6, 2], [12, 7, 3], [11, 8, 4], [10, 9, 5]]},
        {"tie_break": 1},
    ],
    ids=repr,
)
def test_rules_of_the_wrong_type_are_refused(changes: dict[str, Any]) -> None:
    assert refused(with_rules(**changes)).field == "rules"


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (("auction",), {"trigger": "call_voluntary", "bids": [True]}, "auction.bids"),
        (("players", 0, "suns_up"), [13.0, 6, 2], "players[0].suns_up"),
        (("players", 1, "fame"), 10.0, "players[1].fame"),
        (("players", 1, "fame"), True, "players[1].fame"),
        (("epoch",), 1.0, "epoch"),
        (("center_sun",), "1", "center_sun"),
        (("players", 2, "display"), {"gold": 1.0}, "players[2].display.gold"),
        (("track",), [None, "gold", 3], "track[2]"),
        (("epoch",), 10**40, "epoch"),
    ],
)
def test_values_of_the_wrong_type_are_refused(path: tuple[Any, ...], value: Any, field: str) -> None:
    data: Any = {"players": copy.deepcopy(S4), "phase": "bid" if path[0] == "auction" else "action"}
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    assert refused(data).field == field


def test_a_saved_position_with_a_field_deleted_names_that_field() -> None:
    data = saved()
    for key in list(data):
        if key == "schema":
            continue
        short = {k: v for k, v in data.items() if k != key}
        assert refused(short).field == key


def test_positions_no_game_can_reach_are_refused() -> None:
    # A draw on a full track (R19).
    full = {
        "players": S4,
        "phase": "reveal",
        "track": ["gold", "nile", "art", "flood", "god", "sphinx", "nile", "gold"],
    }
    assert refused(full).field == "phase"
    # All Ra tiles in the box in epoch 1 (R25, R59); a teaching position may allow it explicitly.
    no_ra = {"players": S4, "box": {"ra": 30}}
    assert refused(no_ra).field == "box.ra"
    s = State.from_dict(no_ra, strict=False)
    assert "draw" in [str(a) for a in s.legal_actions()]
    # A disaster choice during a god turn that belongs to another player (R28).
    choice = {
        "players": [{**S4[0], "display": {"art": 1, "writing": 1, "religion": 1}}, *S4[1:]],
        "phase": "discard",
        "turn_player": 1,
        "discard": {"player": 0, "owed": [["unrest", 2]], "after": "gods"},
    }
    assert refused(choice).field == "discard.player"
    # A pending discard owes two tiles per disaster of its kind (R50, R54): 0, 1 or 3 tiles is no choice of a game.
    mine = {**choice, "turn_player": 0}
    assert State.from_dict(mine).discard is not None
    for owed in (0, 1, 3, -2, 10):
        wrong = {**mine, "discard": {"player": 0, "owed": [["unrest", owed]], "after": "gods"}}
        assert refused(wrong).field == "discard.owed[0]", owed
    for count in (2.0, True, "2", None):  # a count of tiles is a whole number, named as the field at fault
        wrong = {**mine, "discard": {"player": 0, "owed": [["unrest", count]], "after": "gods"}}
        assert refused(wrong).field == "discard.owed[0][1]", count
    # Scores that do not fit the epoch, or do not add up to the fame.
    data = saved(steps=150)
    assert data["epoch"] >= 2 and data["scores"]
    data["scores"] = data["scores"] * 3
    assert refused(data).field == "scores"
    # An empty bag offers no draw, and no position is left without a legal action.
    empty = State.from_dict({"players": S4, "bag": {"ra": 1}}, strict=False)
    after = empty.apply("draw").apply("reveal ra")
    assert after.phase.name == "BID"


def test_json_junk_is_refused_cleanly() -> None:
    for junk in (None, 123, {"a": 1}, b"\xff\xfe", "[" * 100_000, "1" * 5000, "{", ""):
        with pytest.raises(InvalidStateError):
            State.from_dict(load_json(junk))


def test_a_five_thousand_digit_number_is_refused_cleanly() -> None:
    assert refused({"players": S4, "epoch": 10**4999}).field == "epoch"


def test_deep_nesting_is_refused_without_recursion() -> None:
    deep: Any = 0
    for _ in range(10_000):
        deep = [deep]
    err = refused({"players": S4, "track": deep})
    assert "nested deeper" in str(err) and len(str(err)) < 300
    wide = {"players": S4, "track": list(range(100_000))}
    assert "more than" in str(refused(wide))


def test_round_trips_of_real_games_pass_every_invariant() -> None:
    rng = random.Random(5)
    for players in (2, 3, 4, 5):
        record = play_game([random_bot] * players, seed=players)
        for s in list(record.states())[:: 1 + int(rng.random() * 7)]:
            check(s)
            assert State.from_dict(json.loads(json.dumps(s.to_dict()))) == s


def _mutate(data: Any, rng: random.Random) -> Any:
    """Return `data` with one value somewhere replaced by junk, or one key deleted."""
    data = copy.deepcopy(data)
    containers: list[Any] = []
    stack = [data]
    while stack:
        c = stack.pop()
        containers.append(c)
        stack.extend(v for v in (c.values() if isinstance(c, dict) else c) if isinstance(v, (dict, list)))
    target = containers[int(rng.random() * len(containers))]
    keys = list(target) if isinstance(target, dict) else list(range(len(target)))
    if not keys:
        return data
    key = keys[int(rng.random() * len(keys))]
    junk = [None, True, False, -1, 0, 1, 2, 7, 99, 10**12, 1.5, float("nan"), "", "gold", "ra", [], {}, [1], {"x": 1}]
    if isinstance(target, dict) and rng.random() < 0.2:
        del target[key]
    else:
        target[key] = junk[int(rng.random() * len(junk))]
    return data


BASES = [saved(p, seed=p + 10, steps=s) for p in (2, 3, 5) for s in (0, 17, 61)]


@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
@example(seed=13648)  # a bid of 10**12 in a running auction: once an IndexError, before the bids were checked
def test_mutated_saved_positions_raise_only_invalid_state_error(seed: int) -> None:
    rng = random.Random(seed)
    base = BASES[seed % len(BASES)]
    data = _mutate(base, rng)
    try:
        s = State.from_dict(data)
    except InvalidStateError as err:
        assert err.field and len(str(err)) < 400
    else:
        check(s)  # accepted: then it is a real position, and it plays
        legal = s.legal_actions()
        if legal:
            s.apply(legal[0])
    assert json.dumps(base)  # the base is untouched


def test_a_saved_auction_with_a_bid_of_no_sun_is_refused_before_its_choices_are_worked_out() -> None:
    """A bid beyond every sun names the bid, as InvalidStateError; the legal actions come from sound fields only."""
    data = {"players": S4, "phase": "bid", "auction": {"trigger": "call_voluntary", "bids": [10**12]}}
    with pytest.raises(InvalidStateError, match=r"auction.bids\[0\]: player \d has no face-up sun 1000000000000"):
        State.from_dict(data)


def test_an_empty_bag_offers_no_draw() -> None:
    """With nothing left to draw, the turn player can only call Ra (and the game still goes on)."""
    s = State.from_dict({"players": S4, "bag": {}}, strict=False)
    assert [str(a) for a in s.legal_actions()] == ["ra"]
    assert s.apply("ra").legal_actions()


RECORDS = [json.loads(play_game([random_bot] * p, seed=p).to_json()) for p in (2, 4)]


@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_mutated_records_raise_only_invalid_state_error(seed: int) -> None:
    """An edited record (a value replaced, a key deleted) is refused cleanly or is still a real game."""
    from ra_core.play import GameRecord

    rng = random.Random(seed)
    data = _mutate(RECORDS[seed % len(RECORDS)], rng)
    try:
        record = GameRecord.from_dict(data)
    except InvalidStateError as err:
        assert err.field and len(str(err)) < 400
    else:
        final = record.replay()
        assert final.is_terminal() or record.actions != tuple(RECORDS[seed % len(RECORDS)]["actions"])
