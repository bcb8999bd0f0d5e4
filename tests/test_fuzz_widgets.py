"""Every widget controller answers junk with a message and changes nothing (no traceback in a notebook).

Hypothesis calls the controllers' public methods with anything a stray click, a slider or a
student at a cell could send: wrong types, inf, NaN, huge numbers, None, deep JSON. The
documented promise is checked: no exception escapes, and a refused call changes nothing.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from ra_core.bots import random_bot
from ra_core.play import play_game
from ra_core.widgets import AuctionExplorer, DisasterExplorer, ReplayController, ScoringCalculator, TableController
from ra_core.widgets.board import Answer, BoardClicks

RECORD = play_game([random_bot] * 3, seed=6)


def nested_list(depth: int) -> Any:
    """Return ``[[...[0]...]]`` nested `depth` levels deep."""
    out: Any = 0
    for _ in range(depth):
        out = [out]
    return out


junk_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.binary(max_size=8),
    st.sampled_from(["gold", "unrest", "ra", "funeral", "pharaoh", "draw", "ra", "pass", "bid 9", "{", "[]"]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.integers(min_value=200, max_value=5000).map(nested_list),
    st.integers(min_value=200, max_value=5000).map(lambda d: "[" * d + "]" * d),
)


def snapshot(c: Any) -> str:
    """Return what a controller shows, as text, leaving out its message: a refused call must not change it.

    For the game table (`BoardClicks`) that is its game's text and the board it draws.
    """
    board = c.svg() if isinstance(c, BoardClicks) else ""
    c = c.controller if isinstance(c, BoardClicks) else c
    message, c.message = c.message, ""
    try:
        return str(c.text()) + board
    finally:
        c.message = message


def message(c: Any) -> str:
    return str(c.controller.message if isinstance(c, BoardClicks) else c.message)


CALLS: dict[str, list[tuple[str, int]]] = {
    "play": [("new_game", 1), ("load", 1), ("undo", 0)],
    "table": [("press", 4)],
    "replay": [("go", 1), ("load", 1)],
    "auction": [("choose", 1)],
    "scoring": [("set_count", 4), ("set_sun_total", 2)],
    "disaster": [("set_disaster", 1), ("set_how_many", 1), ("set_count", 2)],
}


def make(kind: str) -> Any:
    makers: dict[str, Callable[[], Any]] = {
        "play": lambda: TableController(players=3, you=0, seed=3),
        "table": lambda: BoardClicks(TableController(players=3, you=0, seed=3)),
        "replay": lambda: ReplayController(RECORD),
        "auction": AuctionExplorer,
        "scoring": ScoringCalculator,
        "disaster": DisasterExplorer,
    }
    return makers[kind]()


CONTROLLERS = {kind: make(kind) for kind in CALLS}


@given(
    kind=st.sampled_from(sorted(CALLS)),
    pick=st.integers(min_value=0, max_value=10),
    args=st.lists(junk_values, min_size=4, max_size=4),
)
def test_junk_gives_a_message_and_changes_nothing(kind: str, pick: int, args: list[Any]) -> None:
    c = copy.deepcopy(CONTROLLERS[kind])
    name, arity = CALLS[kind][pick % len(CALLS[kind])]
    before = snapshot(c)
    result = getattr(c, name)(*args[:arity])  # must not raise
    if result is False or (isinstance(result, Answer) and result.kind == "refused"):
        assert message(c) and len(message(c)) < 600
        assert snapshot(c) == before, (name, args[:arity])


def test_the_reported_inputs_are_refused_with_messages() -> None:
    replay = ReplayController(RECORD)
    replay.go(5)
    for bad in ("x", None, float("inf"), float("nan"), [1], True):
        assert replay.go(bad) is False and replay.message and replay.index == 5  # type: ignore[arg-type]
    junk: list[Any] = [None, 123, {"schema": "x"}, "[" * 10_000, b"\xff"]
    for bad in junk:
        assert replay.load(bad) is False and replay.message and replay.index == 5
    calc = ScoringCalculator()
    assert calc.set_count(1, 0, "gold", float("inf")) is False and "whole number" in calc.message  # type: ignore[arg-type]
    assert calc.set_count(1.5, 0, "gold", 1) is False  # type: ignore[arg-type]
    assert calc.set_sun_total(0, float("inf")) is False  # type: ignore[arg-type]
    disaster = DisasterExplorer()
    assert disaster.set_count("gold", float("inf")) is False  # type: ignore[arg-type]
    assert "whole number" in disaster.message
    game = TableController(players=3, you=0, seed=3)
    before = snapshot(game)
    for bad_seed in ([1], b"x", 1.5, {"a": 1}):
        assert game.new_game(bad_seed) is False and game.message and snapshot(game) == before  # type: ignore[arg-type]
    saved = json.loads(game.save())
    for bad in (None, 123, saved, json.dumps({**saved, "seed": [1]}), "[" * 10_000):
        assert game.load(bad) is False and game.message and snapshot(game) == before  # type: ignore[arg-type]
