"""Chance and bots apart, bad bots named: what a class tournament needs to be fair.

A bot gets its own random stream, never the one that draws the tiles, and a position it cannot
change; a bot that hangs, exits, raises or cheats is stopped and named in one line.
"""

from __future__ import annotations

import copy
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from ra_core import Bid, InvalidStateError, State, new_game
from ra_core.analysis.tournament import tournament
from ra_core.bots import heuristic_bot, random_bot
from ra_core.engine.errors import BotError
from ra_core.play import GameRecord, chance_stream, play_game, sample_chance


def test_a_bot_cannot_predict_the_next_tile_from_its_random_stream() -> None:
    """A bot that copies its stream and samples the bag as the driver does guesses no better than chance."""
    guesses: list[tuple[str, State]] = []

    def prophet(state: State, rng: random.Random) -> Any:
        if "draw" in [str(a) for a in state.legal_actions()]:
            drawn = state.apply("draw")
            guesses.append((str(sample_chance(drawn, copy.deepcopy(rng))), drawn))
            return "draw"
        return random_bot(state, rng)

    record = play_game([prophet, random_bot, random_bot], seed=3)
    states = list(record.states())
    hits = 0
    chance_moves = [i for i, s in enumerate(states[:-1]) if s.is_chance_node()]
    revealed = {i: record.actions[i] for i in chance_moves}
    for guess, drawn in guesses:
        i = next(i for i in chance_moves if states[i] == drawn)
        hits += guess == revealed[i]
    assert len(guesses) >= 10 and hits <= len(guesses) // 3, (hits, len(guesses))  # chance alone: ~8 %


def test_the_tiles_of_a_seeded_game_do_not_depend_on_the_players() -> None:
    """Two different line-ups with one seed draw the same tiles in the same order."""
    a = [t for t in play_game([random_bot] * 3, seed=8).actions if t.startswith("reveal")]
    b = [t for t in play_game([heuristic_bot] * 3, seed=8).actions if t.startswith("reveal")]
    n = min(len(a), len(b))
    assert n > 20 and a[:n] == b[:n]


def test_a_bot_cannot_change_the_position_it_is_given() -> None:
    def vandal(state: State, rng: random.Random) -> Any:
        with pytest.raises(AttributeError):
            setattr(state, "phase", None)  # noqa: B010  (the attempt is the point)
        with pytest.raises(AttributeError):
            object.__setattr__(state, "legal", (Bid(16),))
        return random_bot(state, rng)

    record = play_game([vandal, random_bot], seed=4)
    assert record.replay().is_terminal()


def test_no_seed_means_a_fresh_seed_kept_in_the_record() -> None:
    records = [play_game([random_bot] * 3) for _ in range(3)]
    assert all(isinstance(r.seed, int) for r in records) and len({r.seed for r in records}) == 3
    again = play_game([random_bot] * 3, seed=records[0].seed)
    assert again.actions == records[0].actions
    deals = {tuple(p.suns_up for p in new_game(4).players) for _ in range(40)}
    assert len(deals) > 1  # R11: the sun groups are dealt by chance


def test_an_edited_tile_or_deal_is_refused_naming_the_step() -> None:
    data = json.loads(play_game([random_bot] * 3, seed=12).to_json())
    i = next(i for i, a in enumerate(data["actions"]) if a.startswith("reveal") and a != "reveal gold")
    edited = {**data, "actions": [*data["actions"][:i], "reveal gold", *data["actions"][i + 1 :]]}
    with pytest.raises(InvalidStateError) as info:
        GameRecord.from_dict(edited)
    assert info.value.field == f"actions[{i}]"
    swapped = {**data, "suns": [data["suns"][1], data["suns"][0], data["suns"][2]]}
    with pytest.raises(InvalidStateError, match="deals other sun groups"):
        GameRecord.from_dict(swapped)
    assert GameRecord.from_dict({**data, "schema": "ra-record/1", "actions": edited["actions"]}).schema == "ra-record/1"


@pytest.mark.parametrize(
    "junk",
    [None, 123, {"schema": "ra-record/2"}, b"\xff", "[" * 50_000, '{"seed": [1]}', json.dumps({"names": 5})],
    ids=repr,
)
def test_junk_records_raise_only_invalid_state_error(junk: Any) -> None:
    with pytest.raises(InvalidStateError):
        GameRecord.from_json(junk)


def hang(state: State, rng: random.Random) -> Any:
    while True:
        time.sleep(0.01)


def leave(state: State, rng: random.Random) -> Any:
    raise SystemExit(3)


def interrupt(state: State, rng: random.Random) -> Any:
    raise KeyboardInterrupt


def float_bidder(state: State, rng: random.Random) -> Any:
    bids = [a for a in state.legal_actions() if isinstance(a, Bid)]
    return Bid(float(bids[0].sun)) if bids else random_bot(state, rng)  # type: ignore[arg-type]


def chatty(state: State, rng: random.Random) -> Any:
    raise RuntimeError("line one\nline two\n\nline three")


@pytest.mark.parametrize(
    ("bot", "why"),
    [
        (hang, "took longer than 0.2 s"),
        (leave, "raised SystemExit"),
        (interrupt, "raised KeyboardInterrupt"),
        (float_bidder, "a bid's sun must be an int"),
        (chatty, "line one line two line three"),
    ],
)
def test_a_failing_bot_is_stopped_and_named_in_one_line(bot: Any, why: str) -> None:
    with pytest.raises(BotError) as info:
        tournament([bot, random_bot], players=2, games=2, seed=1, time_limit=0.2, progress=False)
    message = str(info.value)
    assert why in message and f"bot '{bot.__name__}'" in message and "\n" not in message


def test_a_hanging_bot_is_stopped_in_a_process_pool_worker() -> None:
    with ProcessPoolExecutor(1) as pool, pytest.raises(BotError, match="took longer than 0.2 s"):
        tournament([hang, random_bot], players=2, games=2, seed=1, time_limit=0.2, executor=pool, progress=False)


def test_tournament_html_escapes_names() -> None:
    result = tournament({"<b>x</b>": random_bot, "y&z": random_bot}, players=2, games=2, seed=1, progress=False)
    html = result._repr_html_()
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html and "y&amp;z" in html


def test_chance_stream_is_the_records_tiles() -> None:
    record = play_game([random_bot] * 2, seed="class-7")
    chance = chance_stream("class-7")
    for state, text in zip(record.states(), record.actions, strict=False):
        if state.is_chance_node():
            assert str(sample_chance(state, chance)) == text
