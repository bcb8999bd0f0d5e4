"""The classroom's pure parts: groups and tables, outcomes, a round's settings, messages, a Ra table's game."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from ra_classroom.auctions.matching import form_groups, form_tables, round_stream
from ra_classroom.auctions.settle import Entry
from ra_classroom.game.table import Selection, TableGame, read_click
from ra_classroom.kinds.registry import kind
from ra_classroom.kinds.spec import RoundSpec
from ra_classroom.store.refusal import Refusal
from ra_classroom.web.limits import RateLimit
from ra_classroom.web.protocol import parse
from ra_core import Discard, UseGod
from ra_core.table import Answer


def test_groups_are_formed_afresh_each_round_and_leftovers_form_a_smaller_group() -> None:
    students = list(range(1, 15))
    seen = set()
    for number in range(1, 6):
        groups, out = form_groups(students, 4, round_stream("seed", number))
        assert [len(g) for g in groups] == [4, 4, 4, 2] and out == []  # 14 = 3 groups of 4 and one of 2
        assert sorted(s for g in groups for s in g) == students
        seen.add(tuple(tuple(sorted(g)) for g in groups))
    assert len(seen) == 5  # rematched every round
    assert form_groups(students, 4, round_stream("seed", 3)) == form_groups(students, 4, round_stream("seed", 3))
    outs = set()
    for number in range(1, 6):  # 13 = 3 groups of 4, and one left over, a different one each round
        groups, out = form_groups(students[:13], 4, round_stream("seed", number))
        assert [len(g) for g in groups] == [4, 4, 4] and len(out) == 1
        outs.add(out[0])
    assert len(outs) > 1
    for count in (2, 3):  # a class smaller than a group is one group
        groups, out = form_groups(students[:count], 4, round_stream("seed", 1))
        assert len(groups) == 1 and sorted(groups[0]) == students[:count] and out == []


def test_tables_hold_everyone_spread_evenly_with_bots_in_the_rest() -> None:
    for count, size in ((1, 3), (5, 4), (7, 4), (9, 3), (13, 5)):
        tables = form_tables(list(range(count)), size, random.Random(count))
        assert all(len(t) == size for t in tables) and len(tables) == -(-count // size)
        humans = [sum(s is not None for s in t) for t in tables]
        assert sum(humans) == count and max(humans) - min(humans) <= 1


def test_values_and_signals_follow_the_law() -> None:
    groups = [[1, 2, 3], [4, 5, 6]]
    private, common = kind("first").deal(groups, RoundSpec("first", 3), random.Random(1))
    assert common == {} and len({a.value for a in private}) == 6 and [a.group for a in private] == [0, 0, 0, 1, 1, 1]
    signals, worth = kind("common").deal(groups, RoundSpec("common", 3, noise=5), random.Random(1))
    assert set(worth) == {0, 1}
    assert all(abs(a.value - worth[a.group]) <= 5 + 1e-9 for a in signals)


def settle(name: str, entries: list[Entry], worth: float | None, rng: random.Random) -> list[Any]:
    """Settle one group as the kind called `name` does (the registry's kind, on default settings)."""
    spec = RoundSpec(name, noise=5 if name == "common" else 0.0)
    return kind(name).settle(spec, entries, {}, worth, rng)


def test_ties_are_a_coin_flip_and_missing_bids_never_win() -> None:
    wins: Counter[int] = Counter()
    for seed in range(400):
        out = settle("first", [Entry(1, 50, 30), Entry(2, 60, 30), Entry(3, 90, None)], None, random.Random(seed))
        wins[next(o.student for o in out if o.won)] += 1
    assert set(wins) == {1, 2} and 150 < wins[1] < 250
    alone = settle("second", [Entry(1, 50, 20), Entry(2, 60, None)], None, random.Random(0))
    assert alone[0].won and alone[0].price == 0 and alone[0].earnings == 50
    nobody = settle("allpay", [Entry(1, 50, None), Entry(2, 60, None)], None, random.Random(0))
    assert not any(o.won or o.paid for o in nobody)
    curse = settle("common", [Entry(1, 58, 55), Entry(2, 41, 40)], 47.5, random.Random(0))
    assert curse[0].won and curse[0].earnings == -7.5


def test_round_settings_are_checked_and_described() -> None:
    spec = RoundSpec.from_dict({"kind": "common", "group_size": 5, "noise": 8, "seconds": 60, "practice": True})
    assert spec.max_bid == 108 and RoundSpec.from_dict(spec.to_dict()) == spec
    assert "signal" in spec.rules_text() and "practice" in spec.rules_text()
    for bad, says in (
        ([], "must be an object"),
        ({"kind": 3}, "kind must be"),
        ({"kind": "first", "group_size": 2.5}, "whole number"),
        ({"kind": "first", "group_size": True}, "whole number"),
        ({"kind": "first", "seconds": 2}, "between 5 and 3600"),
        ({"kind": "first", "practice": "yes"}, "true or false"),
        ({"kind": "first", "noise": 3}, "common-value rounds only"),
        ({"kind": "ra", "seconds": 60}, "no deadline"),
        ({"kind": "common", "noise": 80}, "half the value range"),
    ):
        with pytest.raises(ValueError, match=says):
            RoundSpec.from_dict(bad)


def test_messages_are_read_strictly_and_the_rate_is_limited() -> None:
    assert parse('{"t": "move", "table": 1, "action": "draw", "version": 3, "id": "a"}')["action"] == "draw"
    for text, says in ((b"{}", "not binary"), ('{"t": "bid", "x": 1}', "no field 'x'"), ("3", "JSON object")):
        with pytest.raises(Refusal, match=says):
            parse(text)
    bucket = RateLimit(rate=10, burst=5)
    assert sum(bucket.allow(now=0.0) for _ in range(20)) == 5
    assert sum(bucket.allow(now=1.0) for _ in range(20)) == 5  # refilled to the burst, no more


def play_until(game: TableGame, want: type, seat: int = 0) -> None:
    """Let seat `seat` draw and bid high (bots play the others) until `want` is among his choices."""
    others = set(range(len(game.state.players))) - {seat}
    game.run_automatic(others)
    while not game.state.is_terminal():
        legal = game.state.legal_actions()
        if any(isinstance(a, want) for a in legal):
            return
        bids = [a for a in legal if str(a).startswith("bid")]
        game.move(seat, bids[-1] if bids else legal[0], others)
    raise AssertionError(f"no {want.__name__} before the end of the game")


def step(game: TableGame, sel: Selection, ui: str) -> Answer:
    """Return the judge's answer to seat 0's step `ui` on the board as it is (bots play seats 1 and 2)."""
    return game.judge(0, read_click({"ui": ui, "version": game.ply}), {1, 2}, selection=sel)


def test_a_god_is_used_in_two_steps_and_a_stray_step_says_why() -> None:
    game = TableGame(3, "gods-0")
    play_until(game, UseGod)  # with this seed seat 0 wins a god and then may use it
    chosen = step(game, Selection(), "god")
    assert chosen.kind == "step" and chosen.selection.god
    view = game.view(0, ["A", "B", "C"], {1, 2}, live=True, sel=chosen.selection)
    assert 'aria-pressed="true"' in view["svg"] and any(c.startswith("god ") for c in view["choices"])
    assert not step(game, chosen.selection, "god").selection.god
    stray = step(game, Selection(), "pick flood")
    assert not stray and stray.selection == Selection() and stray.text.startswith("Flood is not among the tiles")


def test_disaster_losses_are_picked_tile_by_tile() -> None:
    for seed in range(40):
        game = TableGame(3, f"disaster-{seed}")
        try:
            play_until(game, Discard)
        except AssertionError:
            continue
        options = [a for a in game.state.legal_actions() if isinstance(a, Discard)]
        if len(options) < 2:
            continue
        target = options[0]
        sel = Selection()
        for tile in target.tiles:
            answer = step(game, sel, f"pick {tile.label}")
            assert answer, answer.text
            sel = answer.selection
        assert sel.picked == target.tiles
        view = game.view(0, ["A", "B", "C"], {1, 2}, live=True, sel=sel)
        assert f'data-action="{target}"' in view["svg"]  # Confirm plays exactly the tiles picked
        unpicked = step(game, sel, f"unpick {target.tiles[0].label}").selection
        assert len(unpicked.picked) == len(target.tiles) - 1
        return
    pytest.fail("no disaster with a choice in 40 seeded games")


def test_a_table_replays_from_its_moves_and_refuses_out_of_turn() -> None:
    game = TableGame(4, "replay")
    game.run_automatic({1, 2, 3})
    for _ in range(10):
        game.move(0, game.state.legal_actions()[-1], {1, 2, 3})
    copy = TableGame(4, "replay")
    for seat, text in game.moves:
        copy.push(seat, text)
    assert copy.state == game.state
    refused = game.judge(1, read_click({"action": "draw", "version": game.ply}), {2, 3})
    assert not refused and refused.text == "Not your turn: P0 is to move."
    with pytest.raises(ValueError, match="is by seat"):
        copy.push(3 if copy.state.to_move != 3 else 2, "draw")


def test_a_slow_page_holds_up_nobody_and_is_closed_past_its_backlog() -> None:
    import asyncio
    from collections.abc import Collection

    from ra_classroom.web.hub import BACKLOG, Hub, Page

    class Socket:
        def __init__(self, stuck: bool) -> None:
            self.stuck, self.got = stuck, 0
            self.closed: int | None = None

        async def send_text(self, data: str) -> None:
            if self.stuck:
                await asyncio.sleep(3600)  # a phone on a network that takes nothing
            self.got += 1

        async def close(self, code: int = 1000, reason: str | None = None) -> None:
            self.closed = code

    async def run() -> tuple[Socket, Socket]:
        async def build(ids: Collection[int]) -> dict[int, dict[str, Any]]:
            return {sid: {"t": "view", "round": None, "table": None} for sid in ids}

        hub = Hub(build)
        slow, quick = Socket(stuck=True), Socket(stuck=False)
        hub.attach(Page(slow), 1, "ROOM")
        hub.attach(Page(quick), 2, "ROOM")
        loop = asyncio.ensure_future(hub.run())
        for _ in range(BACKLOG + 3):
            hub.dispatch([{"k": "room", "room": "ROOM"}])
            await asyncio.sleep(0.01)
        loop.cancel()
        return slow, quick

    slow, quick = asyncio.run(run())
    assert quick.got == BACKLOG + 3  # every view reached the quick page
    assert slow.got == 0 and slow.closed == 1013  # the stuck page was told to reconnect


def test_each_seat_reads_the_words_worked_out_once_as_if_told_to_it_alone() -> None:
    """The facts and each move's sentence are told once for all seats, then named for each ("P1 (you)")."""
    from ra_core.pictures.narrate import since_last_move
    from ra_core.pictures.portrait import portrait_svg
    from ra_core.pictures.words import facts

    names = ["Ann", "bot", "P2", "Bo (P1)"]  # a bot, a name that is the seat's own, one that looks like another
    for seed in ("a", "b", "c"):
        game, rng = TableGame(4, seed), random.Random(seed)
        while not game.state.is_terminal() and game.ply < 160:
            game.run_automatic(bots={1})
            if game.state.is_terminal():
                break
            seat = game.state.to_move
            for me in range(4):
                view = game.view(me, names, {1}, live=True, sel=Selection())
                assert view["facts"] == facts(game.state, you=me, names=names)
                told = since_last_move(game.states, [t for _, t in game.moves], me, names=names)
                assert view["recent"] == told
                alone = portrait_svg(game.state, you=me, names=names, controls=None)
                assert view["svg"].split("</title>")[0] == str(alone).split("</title>")[0]
            game.move(seat, rng.choice(game.state.legal_actions()), bots={1})
        assert game.ply > 40
    again = game.view(0, names, {1}, live=True, sel=Selection())
    again["svg"] = ""  # a copy: the view kept for this position is not changed
    assert game.view(0, names, {1}, live=True, sel=Selection())["svg"]


def test_a_tables_views_drawn_from_the_last_plys_are_the_views_drawn_afresh() -> None:
    """A table keeps what its views drew at one ply for the next (pieces of boards, lines named): nothing stale shows.

    Whole games, moves made on copies as the writer makes them, a seat's name changing now and
    then (a student away): every seat's view, with and without its choice in progress, is the
    view a table replayed from the moves alone draws.
    """
    names = ["Ann", "Bob", "Cy", "Dee"]
    for seed in ("p", "q"):
        game, rng = TableGame(4, seed), random.Random(seed)
        while not game.state.is_terminal():
            game.run_automatic(bots=set())
            if game.state.is_terminal():
                break
            shown = [f"{n}, a bot plays for now" if rng.random() < 0.1 else n for n in names]
            fresh = TableGame(4, seed)
            for seat, text in game.moves:
                fresh.push(seat, text)
            legal = game.state.legal_actions()
            discard = next((a for a in legal if isinstance(a, Discard) and a.tiles), None)
            god = any(isinstance(a, UseGod) for a in legal) and rng.random() < 0.5
            sel = Selection(god, discard.tiles[:1] if discard else ())
            for me in rng.sample(range(4), 4):
                for chosen in (Selection(), sel):
                    kept = game.view(me, shown, set(), live=True, sel=chosen)
                    assert kept == fresh.view(me, shown, set(), live=True, sel=chosen), (seed, game.ply, me)
            game = game.copy()
            game.move(game.state.to_move, rng.choice(legal), bots=set())
