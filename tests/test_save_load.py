"""Every game the table accepts saves and loads back exactly (issue 22, point 6).

Hypothesis plays fuzzed sessions at the game table: every seating (nobody, one seat, several,
all), every rules variant, clicks on the pieces the board offers (god and discard steps
included), scores closed, undo, new games (with seeds the table must refuse too), loading
earlier saves (and a save cut just after a draw, so that the tile is still to come), forced
chance outcomes (refused), and bots stepped one move at a time. After every step the game is
saved, and the save must load back: into a fresh table of the same seats, giving the same
positions, the same actions and the same save again.
"""

from __future__ import annotations

import functools
import random
import re
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from ra_core import Tile
from ra_core.bots import random_bot
from ra_core.engine.actions import Reveal, UseGod
from ra_core.engine.errors import IllegalActionError
from ra_core.play import GameRecord, play_game, seed_problem
from ra_core.widgets import TableController
from ra_core.widgets.board import Answer, BoardClicks

from .strategies import ALL_RULES, make_rules, seeds

TOO_BIG = (2**63 + 1, -(2**63) - 1, 10**100, "x" * 101)
NOT_SEEDS = (*TOO_BIG, "\ud800", "a\udfffb")  # beyond the record's range, or text UTF-8 cannot encode

steps = st.one_of(
    st.tuples(st.just("piece"), st.integers(0, 50)),
    st.tuples(st.just("piece"), st.integers(0, 50)),
    st.tuples(st.just("piece"), st.integers(0, 50)),
    st.tuples(st.just("undo"), st.none()),
    st.tuples(st.just("new"), st.one_of(seeds, st.text(max_size=8), st.sampled_from(NOT_SEEDS), st.none())),
    st.tuples(st.just("load"), st.integers(0, 50)),
    st.tuples(st.just("load cut"), st.integers(0, 1)),
    st.tuples(st.just("force"), st.sampled_from(list(Tile))),
    st.tuples(st.just("bot"), st.integers(1, 3)),
    st.tuples(st.just("advance"), st.integers(1, 120)),
    st.tuples(st.just("load rare"), st.integers(0, 50)),
)


@functools.cache
def rare_cuts(players: int) -> list[tuple[GameRecord, int]]:
    """Return bot games cut where a seat may use a god or chooses tiles to lose, with that seat.

    Random play seldom reaches these phases; loaded at the table, they let a session click a god
    tile, a slot and the tiles to lose.
    """
    cuts = []
    for seed in range(40):
        record = play_game([random_bot] * players, seed=seed)
        for i, s in enumerate(record.states()):
            god = s.phase.name == "ACTION" and any(isinstance(a, UseGod) for a in s.legal_actions())
            if god or s.phase.name == "DISCARD":
                cut = GameRecord(record.rules, record.suns, record.actions[:i], record.seed, record.names)
                cuts.append((cut, s.to_move))
    return cuts


def pieces(board: BoardClicks) -> list[tuple[str, str]]:
    """Return what the board offers to click: (``action`` or ``ui``, its text), in drawing order."""
    return re.findall(r'data-(action|ui)="([^"]*)"', board.svg())


def advance(board: BoardClicks, moves: int, reply: Any) -> None:
    """Make `moves` moves: a random piece of the board when one of your seats decides, else a bot's step."""
    c = board.controller
    rng = random.Random(moves)
    for _ in range(moves):
        if board.scores_due():
            board.press(ui="dismiss")
        elif c.is_your_turn():
            offered = pieces(board)
            kind, value = offered[int(rng.random() * len(offered))]
            event(f"clicked {kind} {value.split()[0]}")
            assert click(board, kind, value, reply), c.message
        elif not c.step():
            return


def click(board: BoardClicks, kind: str, value: str, reply: Any) -> Answer:
    """Click the board's piece that stands for `value` (an ``action`` or a ``ui`` step), on the board shown now."""
    version = board.controller.version
    if kind == "action":
        return board.press(action=value, version=version, reply=reply)
    return board.press(ui=value, version=version, reply=reply)


def same_seats(c: TableController) -> TableController:
    """Return a new table with the seats, bots and rules of `c`."""
    return TableController(c.rules.players, you=c.you, bots=c.policies, rules=c.rules, seed=0)


def assert_loads_back(c: TableController) -> str:
    """Save the game of `c` and check that it loads back exactly; return the save."""
    text = c.save()
    record = GameRecord.from_json(text)
    assert record == c.record()
    assert record.replay() == c.state
    fresh = same_seats(c)
    assert fresh.load(text, reply="later"), fresh.message
    assert (fresh.states, fresh.actions, fresh.save()) == (c.states, c.actions, text)
    return text


@given(
    rules=st.sampled_from(ALL_RULES),
    seats=st.one_of(st.none(), st.sets(st.integers(0, 4), max_size=5)),
    seed=st.one_of(seeds, st.text(max_size=8)),
    reply=st.sampled_from(["now", "later"]),
    script=st.lists(steps, max_size=25),
)
def test_every_step_of_a_table_session_saves_and_loads_back(
    rules: tuple[int, str], seats: set[int] | None, seed: int | str, reply: Any, script: list[tuple[str, Any]]
) -> None:
    players, variant = rules
    you = None if seats is None else sorted(q for q in seats if q < players)
    c = TableController(players, you=you, bots=random_bot, seed=seed, rules=make_rules(players, variant), reply=reply)
    board = BoardClicks(c)
    saves = [assert_loads_back(c)]
    for step, arg in script:
        if step == "piece":
            if board.scores_due():
                assert board.press(ui="dismiss", version=c.version)
            offered = pieces(board)
            if offered:
                kind, value = offered[arg % len(offered)]
                event(f"clicked {kind} {value.split()[0]}")
                assert click(board, kind, value, reply), c.message
        elif step == "undo":
            c.undo()
        elif step == "new":
            before = (c.seed, c.states)
            if c.new_game(arg, reply=reply):
                assert arg is None or not seed_problem(arg)
            else:  # a seed whose record could not load back is refused, and nothing changes
                assert arg is not None and seed_problem(arg)
                assert c.message.startswith("Not a seed") and (c.seed, c.states) == before
        elif step == "load":
            assert c.load(saves[arg % len(saves)], reply=reply), c.message
        elif step == "load cut":  # the game so far, stopped after its last draw: the tile is still to come
            record = c.record()
            draws = [i for i, a in enumerate(record.actions) if a == "draw"]
            if draws:
                cut = draws[-1 - arg % len(draws)] + 1
                cut_record = GameRecord(record.rules, record.suns, record.actions[:cut], record.seed, record.names)
                assert c.load(cut_record, reply="later") and c.state.is_chance_node()
        elif step == "force":  # nobody chooses a tile: not a click, not a program
            event(f"forced a tile at a chance node: {c.state.is_chance_node()}")
            before_state = c.state
            assert not board.press(action=f"reveal {arg.label}")
            with pytest.raises(IllegalActionError, match="the bag draws the tiles"):
                c.move(Reveal(arg))
            assert c.state == before_state
        elif step == "bot":
            for _ in range(arg):
                c.step()
        elif step == "advance":
            advance(board, arg, reply)
        elif step == "load rare":  # a position where somebody may use a god or chooses tiles to lose
            cuts = rare_cuts(players)
            mine = [record for record, seat in cuts if seat in c.you] or [record for record, _ in cuts]
            assert c.load(mine[arg % len(mine)], reply="later"), c.message
            event(f"loaded a rare position: {c.state.phase.name}, yours: {c.is_your_turn()}")
        saves.append(assert_loads_back(c))


@pytest.mark.parametrize("seed", NOT_SEEDS)
def test_a_seed_beyond_the_records_range_is_refused_when_the_game_starts(seed: int | str) -> None:
    """The table, the driver and the record refuse a seed that a saved game could not load back."""
    with pytest.raises(ValueError, match="seed: a seed"):
        TableController(3, you=0, seed=seed)
    with pytest.raises(ValueError, match="seed: a seed"):
        play_game([random_bot] * 3, seed=seed)
    c = TableController(3, you=0, seed=1)
    before = c.save()
    assert not c.new_game(seed) and c.message.startswith("Not a seed: a seed") and c.save() == before


@pytest.mark.parametrize("seed", [2**63, -(2**63), 0, "x" * 100, "class"])
def test_new_game_without_a_seed_always_starts_the_next_one(seed: int | str) -> None:
    """The "New game" button after the last seed of the range wraps round: the student typed no seed to refuse."""
    c = TableController(3, you=0, seed=seed)
    assert c.new_game(), c.message
    assert not seed_problem(c.seed) and c.seed != seed
    assert same_seats(c).load(c.save())


def test_the_reported_saves_load_back() -> None:
    """The faults of issue 22: a seed of 10**100, and a tile forced in a seeded game."""
    c = TableController(3, you=0, seed=90, reply="later")
    with pytest.raises(ValueError, match="has 333 bits"):
        TableController(3, you=0, seed=10**100)
    record = c.record()
    board = BoardClicks(c)
    while "draw" not in record.actions:
        c.run_bots()
        mine = [choice.action for choice in c.choices()]
        assert board.press(action="draw" if "draw" in mine else mine[0])
        record = c.record()
    cut = record.actions.index("draw") + 1
    assert c.load(GameRecord(record.rules, record.suns, record.actions[:cut], 90), reply="later")
    assert c.state.is_chance_node()
    answer = board.press(action="reveal sphinx")
    assert answer.kind == "refused" and "the game's seed decides which" in answer.text
    assert c.step() and GameRecord.from_json(c.save()).replay() == c.state


def test_a_record_whose_tiles_follow_no_seed_loads_and_saves_without_one() -> None:
    """A record without a seed (or of the old schema) goes on with fresh draws and saves as it came: unseeded."""
    record = play_game([random_bot] * 3, seed=4)
    cut = record.actions.index("draw") + 2
    for old in (
        GameRecord(record.rules, record.suns, record.actions[:cut], None, record.names),
        GameRecord(record.rules, record.suns, record.actions[:cut], 4, record.names, "ra-record/1"),
    ):
        c = TableController(3, you=0, seed=1)
        assert c.load(old.to_json()) and not c.seeded and "its tiles follow no seed" in c.log[0]
        assert c.record().seed is None and c.record().actions[:cut] == old.actions
        assert_loads_back(c)
        while c.undo():  # back to its first decision: the draws after it are the fresh stream's again
            assert_loads_back(c)


def test_undo_after_loading_draws_the_seeds_tiles_again() -> None:
    """Undo in a loaded game goes back with the chance stream where it was then: the save still loads."""
    c = TableController(3, you=0, seed=5)
    board = BoardClicks(c)
    for _ in range(12):
        if board.scores_due():
            board.press(ui="dismiss")
        board.press(action=c.choices()[0].action)
    saved = c.save()
    again = same_seats(c)
    assert again.load(saved)
    for _ in range(4):
        assert again.undo()
        BoardClicks(again).press(action=again.choices()[0].action)
        assert_loads_back(again)


def test_long_bot_names_are_cut_so_that_the_record_loads() -> None:
    """A bot named with 100 characters is shown and saved under a short name (records and boards keep names short)."""

    def bot(state: Any, rng: Any) -> Any:
        return random_bot(state, rng)

    bot.__name__ = "b" * 100
    c = TableController(3, you=0, bots=bot, seed=3)
    assert len(c.names[1]) == 16 and c.names[1].endswith("\u2026")
    assert_loads_back(c)


@pytest.mark.parametrize("seed", ["\ud800", "a\udfffb"])
def test_the_engine_refuses_a_seed_text_that_cannot_be_kept(seed: str) -> None:
    """A lone surrogate (which a JSON escape can make) cannot be encoded, so no stream can be seeded from it."""
    from ra_core import new_game

    with pytest.raises(ValueError, match="valid Unicode"):
        new_game(3, seed=seed)
