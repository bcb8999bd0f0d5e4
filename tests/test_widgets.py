"""The play controller and the explorers, driven headless through complete games.

Every button kind is clicked, every slider swept; the assertions read the rendered text, as
a player (or a screen reader) would. Wrong clicks must leave a message and change nothing.
"""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections import Counter
from html import escape
from typing import Any
from xml.etree import ElementTree

import pytest

from ra_core import Rules, State, Tile
from ra_core.bots import random_bot
from ra_core.pictures import svg as board_svg
from ra_core.pictures.narrate import since_last_move
from ra_core.pictures.words import signed
from ra_core.play import GameRecord, play_game
from ra_core.table import Answer
from ra_core.widgets import (
    AuctionExplorer,
    DisasterExplorer,
    ReplayController,
    ScoringCalculator,
    TableController,
)
from ra_core.widgets.board import BoardClicks

KINDS = ("draw", "ra", "god", "done", "bid", "pass", "discard")


def _kind(action: str) -> str:
    return action.split()[0]


def _table(players: int, **options: Any) -> BoardClicks:
    """Return a game table (its controller and the judge of its clicks)."""
    return BoardClicks(TableController(players, **options))


def _play_out(board: BoardClicks, rng: random.Random, clicked: Counter[str]) -> None:
    """Play random legal moves until the game ends, checking the text after every move."""
    c = board.controller
    while not c.state.is_terminal():
        if board.scores_due():
            assert board.press(ui="dismiss") == Answer("step", "dismiss")
        choices = c.choices()
        assert choices, c.text()
        gods = [ch for ch in choices if ch.action.startswith("god")]
        pick = choices[int(rng.random() * len(choices))]
        if gods and rng.random() < 0.5:  # gods are rare: use them often, so that "done" comes up too
            pick = gods[0]
        before = c.text()
        assert board.press(action=pick.action, version=c.version) == Answer("played", pick.action), c.message
        clicked[_kind(pick.action)] += 1
        after = c.text()
        assert after != before
        assert c.message == ""
        assert "Log:" in after and "Status:" in after


def test_hot_seat_games_click_every_kind_of_button() -> None:
    """With every seat human, whole games for 2-5 players click draw, ra, god, done, bid, pass, discard."""
    clicked: Counter[str] = Counter()
    rng = random.Random(5)
    for seed in range(12):
        players = 2 + seed % 4
        board = _table(players, you=range(players), seed=seed)
        c = board.controller
        _play_out(board, rng, clicked)
        text = c.text()
        assert "Game over" in text and "Choices: none" in text
        assert text.count("is scored") >= 1 and len(c.state.scores) == 3
        assert GameRecord.from_json(c.save()).replay() == c.state
    # "done" needs two gods in one turn, rare in random play: load a bot game up to such a turn.
    for seed in range(5000):
        record = play_game([random_bot] * 3, seed=seed)
        stop = next((i for i, s in enumerate(record.states()) if s.phase.name == "GODS"), None)
        if stop is not None:
            break
    board = _table(3, you=range(3), seed=0)
    c = board.controller
    assert c.load(GameRecord(record.rules, record.suns, record.actions[:stop], seed))
    assert "Done with gods" in c.text()
    assert board.press(action="done", version=c.version)
    clicked["done"] += 1
    assert set(clicked) == set(KINDS), clicked


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_against_bots_the_log_tells_every_step(players: int) -> None:
    """Against random bots, each click shows your move and the bots' replies in plain words."""
    board = _table(players, you=0, seed=players)
    c = board.controller
    assert c.log[0].startswith(f"New game, seed {players}: you play P0")
    rng = random.Random(players)
    clicked: Counter[str] = Counter()
    _play_out(board, rng, clicked)
    assert any(line.startswith("P0 (you)") for line in c.log)
    assert any(line.startswith("P1 ") for line in c.log)
    assert c.status().startswith("Game over")
    assert c.scores_html().count("<tr>") == 1 + 3 * players


def test_bots_only_reproduces_the_driver() -> None:
    """Watching bots gives exactly the game `play` records with the same seed."""
    c = TableController(4, you=None, seed=9)
    assert c.state.is_terminal()
    assert c.record().actions == play_game([random_bot] * 4, seed=9).actions


def test_wrong_clicks_change_nothing() -> None:
    """Stale clicks, illegal or garbled actions, and clicks out of turn leave a message only."""
    board = _table(3, you=0, seed=4)
    c = board.controller
    version, state, log = c.version, c.state, list(c.log)

    def unchanged() -> None:
        assert (c.version, c.state, c.log) == (version, state, log)

    for action, why in [
        ("bid 99", "Not legal now: bid 99"),
        ("dance", "Not legal now: dance"),
        ("reveal gold", "The bag draws the tiles (the game's seed decides which), not a click."),
    ]:
        answer = board.press(action=action, version=version)
        assert answer.kind == "refused" and answer.text == c.message and not answer
        assert c.message.startswith(why) and "Your choices:" in c.message
        assert f"Message: {c.message}" in c.text()
        unchanged()
    assert not board.press(action=c.choices()[0].action, version=version - 1)
    assert "earlier board" in c.message
    unchanged()
    assert board.press(action=c.choices()[0].action, version=version)
    assert not board.press(action="pass", version=version)  # the same piece clicked twice
    assert "earlier board" in c.message
    # Out of turn: with the bots' reply left for later, it is a bot's move after your click.
    later = _table(3, you=0, seed=4, reply="later")
    later.controller.run_bots()
    assert later.press(action=later.controller.choices()[0].action, reply="later")
    assert later.controller.bots_pending()
    assert not later.press(action="pass")
    assert later.controller.message.startswith("Not your turn: P")


def test_the_bots_reply_now_or_later_as_asked() -> None:
    """A move played with ``reply="later"`` leaves the bots to `step`, one move each; "now" runs them all."""
    board = _table(4, you=0, seed=2, reply="later")
    c = board.controller
    c.run_bots()
    while not c.bots_pending():
        assert board.press(action=c.choices()[-1].action, reply="later")
    lines = len(c.log)
    assert c.step() and len(c.log) == lines + 1
    c.run_bots()
    assert not c.bots_pending()
    assert board.press(action=c.choices()[-1].action)  # "now" is the default
    assert not c.bots_pending()


def test_undo_goes_back_to_your_decision_and_replays_the_same() -> None:
    """Undo takes back your move and the bots' replies; the same click gives the same game again."""
    board = _table(3, you=1, seed=8)
    c = board.controller
    assert not c.undo() and "Nothing to undo" in c.message
    start = c.state
    choice = c.choices()[0].action
    board.press(action=choice)
    after = c.state
    assert c.undo()
    assert c.state == start and c.log[-1] == "(undone: back to your decision)"
    board.press(action=choice)
    assert c.state == after
    for _ in range(5):
        board.press(action=c.choices()[-1].action)
    while c.undo():
        pass
    assert c.state == start


def test_new_game_save_and_load() -> None:
    """New game takes the next seed; a saved record loads back; bad files leave a message."""
    board = _table(3, you=0, seed=1)
    c = board.controller
    for _ in range(4):
        board.press(action=c.choices()[0].action)
    saved, state = c.save(), c.state
    c.new_game()
    assert c.seed == 2 and c.log[0].startswith("New game, seed 2")
    assert c.load(saved.encode())
    assert c.state == state and c.log[0].startswith("Loaded a game of")
    assert c.undo()  # decisions in a loaded game can be taken back too
    before = (c.version, c.state)
    cases: list[tuple[Any, str]] = [
        ("{not json", "not valid JSON"),
        ('{"schema": "other"}', "schema"),
        (json.dumps({**json.loads(saved), "actions": ["draw", "reveal gold", "bid 99"]}), "actions[1]"),  # edited tile
        (b"\xff\xfe", "Could not load"),
    ]
    for bad, why in cases:
        assert not c.load(bad)
        assert why in c.message and "Nothing changed" in c.message
        assert (c.version, c.state) == before
    four = TableController(4, you=None, seed=1).save()
    assert not c.load(four) and "for 4 players" in c.message


def test_a_broken_bot_pauses_the_game() -> None:
    """A bot that raises or cheats pauses the game with a message; it never raises into the notebook."""

    def broken(state: State, rng: random.Random) -> Any:
        raise RuntimeError("out of coffee")

    def cheat(state: State, rng: random.Random) -> Any:
        from ra_core import Bid

        return Bid(99)

    for bot, why in ((broken, "out of coffee"), (cheat, "bid 99 is not legal")):
        board = _table(3, you=0, bots=bot, seed=1)
        c = board.controller
        if c.is_your_turn():
            board.press(action=c.choices()[0].action)
        assert c.halted and why in c.message and c.status() == "The game is paused."
        assert c.choices() == [] and not c.step()
        assert not board.press(action="draw") and why in c.message  # the failure stays in view


def test_bots_by_seat_and_bad_seats() -> None:
    """Bots can be given per seat; a seat out of range is refused when the game is set up."""
    calls: Counter[int] = Counter()

    def counting(state: State, rng: random.Random) -> Any:
        calls[state.to_move] += 1
        return random_bot(state, rng)

    c = TableController(3, you=0, bots={2: counting}, seed=3)
    c.run_bots()
    assert c.names == ("you", "random_bot", "counting")
    with pytest.raises(ValueError, match="seats are 0..2"):
        TableController(3, you=3)


# -- the ipywidgets view, headless ---------------------------------------------------------------


def _targets(board: str) -> dict[str, str]:
    """Return the board's clickable pieces: what each stands for (``action:...`` or ``ui:...``) and its label.

    The board must parse as XML, and every piece must be a focusable button with a label.
    """
    root = ElementTree.fromstring(board)
    found = {}
    for node in root.iter():
        for kind in ("action", "ui"):
            value = node.get(f"data-{kind}")
            if value is not None:
                assert node.get("role") == "button" and node.get("tabindex") == "0", board
                assert node.get("aria-label"), board
                found[f"{kind}:{value}"] = node.get("aria-label", "")
    return found


def _send(view: Any, **content: Any) -> None:
    """Send a click message as the front end does (through the widget's comm message handler)."""
    view.table._handle_custom_msg({"kind": "click", **content}, [])


def _check_board(board: BoardClicks, seen: Counter[str]) -> list[str]:
    """Check that the board's pieces stand for exactly the legal actions now; return those actions.

    A god is two clicks (the god tile, then a slot), a disaster's losses one click per tile and
    then Confirm; each legal discard is picked and confirmed, and Clear starts again.
    """
    c = board.controller
    legal = [str(a) for a in c.state.legal_actions()]
    direct = {a for a in legal if not a.startswith(("god ", "discard "))}
    found = _targets(board.svg())
    assert {k[7:] for k in found if k.startswith("action:")} == direct
    gods = {a for a in legal if a.startswith("god ")}
    assert ("ui:god" in found) == bool(gods)
    if gods:
        assert board.press(ui="god", version=c.version)
        armed = {k[7:] for k in _targets(board.svg()) if k.startswith("action:")}
        assert armed == direct | gods
        assert board.press(ui="god") and not board.god  # a second click puts the god back
        seen["god"] += 1
    for a in (a for a in legal if a.startswith("discard ")):
        for label in a.split()[1:]:
            assert f"ui:pick {label}" in _targets(board.svg()), (a, board.picked)
            assert board.press(ui=f"pick {label}", version=c.version)
        confirm = {k[7:] for k in _targets(board.svg()) if k.startswith("action:")}
        assert confirm == {a}, (a, confirm)
        assert board.press(ui="clear") and board.picked == ()
        seen["discard"] += 1
    return legal


def _at(c: TableController, s: State) -> TableController:
    """Put the controller's game at position `s` (a test's shortcut to a rare position)."""
    c.states.append(s)
    c.version += 1
    return c


def test_the_board_offers_exactly_the_legal_actions() -> None:
    """In every position of hot-seat games, and in rare ones built on purpose, the board offers the legal actions."""
    rng = random.Random(3)
    seen: Counter[str] = Counter()
    for seed in range(6):
        players = 2 + seed % 4
        board = BoardClicks(TableController(players, you=range(players), seed=seed))
        c = board.controller
        while not c.state.is_terminal():
            if board.scores_due():  # an epoch was scored: its scores cover the board until closed
                assert _targets(board.svg()) == {"ui:dismiss": "Continue: close the scores"}
                assert not board.press(action=str(c.state.legal_actions()[0])) and "click Continue" in c.message
                assert board.press(ui="dismiss") and not board.scores_due()
                seen["dismiss"] += 1
            legal = _check_board(board, seen)
            gods = [a for a in legal if a.startswith("god ")]
            choice = min(gods) if gods and rng.random() < 0.5 else legal[int(rng.random() * len(legal))]
            seen[_kind(choice)] += 1
            assert board.press(action=choice, version=c.version), c.message
    suns: list[dict[str, Any]] = [{"suns_up": list(up)} for up in ((13, 6, 2), (12, 7, 3), (11, 8, 4), (10, 9, 5))]
    suns[0]["display"] = {"art": 1, "writing": 2, "religion": 1, "temple": 3, "pyramid": 1}
    owed = {"player": 0, "owed": [["unrest", 2], ["earthquake", 2]], "after": "auction"}
    unrest = State.from_dict({"players": suns, "phase": "discard", "turn_player": 0, "discard": owed})
    board = BoardClicks(_at(TableController(4, you=range(4), seed=1), unrest))
    assert len(_check_board(board, seen)) == 4  # the four ways to lose two civilizations (TV-22)
    assert board.press(ui="pick art") and board.press(ui="pick writing") and not board.press(ui="pick religion")
    assert "Religion is not among the tiles" in board.controller.message
    assert board.press(ui="unpick art") and board.picked == (Tile.WRITING,)
    assert board.press(action="discard religion writing")
    assert len(_check_board(board, seen)) == 2  # then the earthquake: two monuments of the four
    suns[0]["display"] = {"god": 2}
    two_gods = State.from_dict({"players": suns, "track": ["gold", "nile", "god"], "turn_player": 0})
    board = BoardClicks(_at(TableController(4, you=range(4), seed=1), two_gods))
    _check_board(board, seen)
    assert board.press(ui="god") and board.press(action="god 1") and board.controller.state.phase.name == "GODS"
    assert "action:done" in _targets(board.svg()) and board.press(action="done")
    assert _at(board.controller, two_gods).status() == "P0, your move: draw a tile, call Ra, or use a god."
    seen["done"] += 1
    assert set(seen) == {*KINDS, "dismiss"}, seen


def test_a_whole_game_by_clicking_the_board_only() -> None:
    """Messages as the front end sends them play a whole game; undo, new game, speed, save and load work."""
    from ra_core.widgets import play as play_widget

    view = play_widget(players=3, you=0, seed=6)
    c = view.controller
    rng = random.Random(1)
    kinds: Counter[str] = Counter()
    while not c.state.is_terminal():
        found = sorted(_targets(view.table.board))
        assert found, c.text()
        kind, _, value = found[int(rng.random() * len(found))].partition(":")
        before = (view.table.board, c.version)
        _send(view, version=view.table.version, **{kind: value})
        assert (view.table.board, c.version) != before and view.table.message == "", view.table.message
        kinds[_kind(value)] += 1
        assert view.table.status == view.clicks.status() and view.log.value
        since = since_last_move(c.states, c.actions, c.you, names=c._bot_names())  # beside the board
        assert view.table.recent.count("<li>") >= len(since[-5:]) and all(escape(x) in view.table.recent for x in since)
        assert since[-1] == c.log[-1] and since[0].startswith(("P0 (you)", "(", "P"))
    assert {"draw", "ra", "bid", "pass"} <= set(kinds), kinds
    assert "Game over" in view.table.status and "<table" in view.scores.value
    view.undo_button.click()
    assert not c.state.is_terminal() and _targets(view.table.board)
    view.save_button.click()
    assert view.record_box.value.startswith("{") and "Download ra-game.json" in view.download.value
    saved = view.record_box.value
    view.new_button.click()
    assert c.seed == 7 and "seed 7" in view.log.value
    view.record_box.value = saved
    view.load_button.click()
    assert "Loaded a game" in view.log.value and view.table.message == ""
    view.record_box.value = "{broken"
    view.load_button.click()
    assert "Could not load that game" in view.table.message
    view._uploaded({"new": ({"name": "g.json", "content": memoryview(b"{}x")},)})  # what FileUpload sends
    assert "Could not load that game" in view.table.message
    view.speed.value = True
    assert view.step_by_step
    view.pace.value = 1.4
    assert view.delay == 1.4
    view.speed.value = False
    assert not view.step_by_step and view.text() == c.text()
    bundle = view._repr_mimebundle_()
    assert bundle["text/plain"] == c.text() and "application/vnd.jupyter.widget-view+json" in bundle


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ({"label": "sun 3, face up", "sun": 3}, "sun 3, face up: sun 3 is P1"),  # why it is no choice, then what is
        ({"label": "sun 2, face up", "sun": 2}, "sun 2, face up: a sun is bid only in an auction, and none is running"),
        ({"label": "center sun 1", "sun": 1}, "center sun 1: sun 1 is the center sun: the auction's winner takes it"),
        ({"label": "Sonne 3 (offen)", "sun": 3}, "Sonne 3 (offen): sun 3 is P1"),  # the number, whatever the words
        ({"sun": 2}, "sun 2: a sun is bid only in an auction"),
        ({"label": "sun 3, face up"}, "sun 3, face up: nothing to do there now."),  # a label alone names no sun
        ({"label": "sun 3, face up", "sun": True}, "sun 3, face up: nothing to do there now."),
        ({"label": "sun 3, face up", "sun": "3"}, "sun 3, face up: nothing to do there now."),
        ({"label": "slot 3 empty"}, "slot 3 empty: nothing to do there now. Click the bag"),
        ({"ui": "god"}, "You have no god to use now."),
        ({"ui": "pick art"}, "Art is not among the tiles you may lose now."),
        ({"ui": "unpick gold"}, "Nothing to do there now."),
        (
            {"action": "bid 13"},
            "Not legal now: bid 13 (a sun is bid only in an auction, and none is running: call Ra or draw",
        ),
        ({"action": "draw", "version": 99}, "earlier board"),
        ({"action": ["draw"]}, "Nothing to do there now."),
        ({"action": "draw", "version": "0"}, "earlier board"),
        ({"kind": "other", "action": "draw"}, ""),
    ],
)
def test_stray_stale_and_malformed_clicks_change_nothing(content: dict[str, Any], says: str) -> None:
    """A click that is not a choice now, or a message that is not a click, leaves the game as it was."""
    from ra_core.widgets import play as play_widget

    view = play_widget(players=3, you=0, seed=2)
    c = view.controller
    content = {"version": c.version, **content}
    before = (c.text(), view.table.board, c.version)
    view.table._handle_custom_msg({"kind": "click", **content}, [])
    assert (c.text().replace(f"Message: {c.message}\n", ""), view.table.board, c.version) == before
    assert says in view.table.message if says else view.table.message == ""
    assert "use a god" not in view.table.status  # nobody starts with a god


def test_every_sun_on_the_board_carries_its_number_for_a_stray_click() -> None:
    """Each sun's piece names its number (``data-sun``), which a stray click sends with its label, on both boards."""
    from ra_core.pictures.portrait import portrait_svg
    from ra_core.pictures.svg import svg

    for seed in range(3):
        s = list(play_game([random_bot] * 3, seed=seed).states())[40]
        suns = sorted([s.center_sun, *(x for p in s.players for x in p.suns_up + p.suns_down)])
        for board in (str(svg(s, you=0)), str(portrait_svg(s, you=0))):
            tree = ElementTree.fromstring(board)
            marked = [e for e in tree.iter() if e.get("data-sun") is not None]
            assert sorted(int(e.get("data-sun", "")) for e in marked) == suns
            assert all(f"sun {e.get('data-sun')}" in e.get("aria-label", "") for e in marked)


def test_a_click_on_a_sun_below_the_high_bid_says_why_it_is_no_choice() -> None:
    """In an auction, a click on one of your suns lower than the high bid says so, with the high bid, and what to do."""
    from ra_core.engine.actions import Bid
    from ra_core.table import judge, read_click

    seen = 0
    for seed in range(20):
        for s in play_game([random_bot] * 3, seed=seed).states():
            a, mover = s.auction, s.to_move
            if a is None or mover < 0 or not any(isinstance(x, Bid) for x in s.legal_actions()):
                continue
            for sun in (x for x in s.players[mover].suns_up if x < a.high_bid):
                click = read_click({"label": f"sun {sun}, face up", "sun": sun, "version": 0})
                answer = judge(s, click, version=0, seats={mover})
                assert answer.kind == "refused", answer
                assert answer.text.startswith(
                    f"sun {sun}, face up: sun {sun} is below the high bid of {a.high_bid}: a bid must beat it. Click"
                ), answer.text
                bid = judge(s, read_click({"action": f"bid {sun}", "version": 0}), version=0, seats={mover})
                assert f"(sun {sun} is below the high bid of {a.high_bid}" in bid.text, bid.text
                seen += 1
    assert seen >= 10, seen


def test_keyboard_reaches_every_choice_and_the_status_names_only_open_choices() -> None:
    """Every piece that takes a click is a focusable button with a label; the status names only real choices."""
    c = TableController(3, you=range(3), seed=4)
    board = BoardClicks(c)
    labels = _targets(board.svg())
    assert labels == {"action:draw": "Draw a tile", "action:ra": "Call Ra"}
    assert c.status() == f"P{c.state.to_move}, your move: draw a tile or call Ra."
    assert "data-action" not in str(board_svg.svg(c.state, you=c.you))  # a picture without controls has none


def test_view_shows_a_message_instead_of_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    """An unexpected failure inside a callback becomes a message in the widget."""
    from ra_core.widgets import play as play_widget

    view = play_widget(players=3, you=0, seed=6)

    def boom(*args: Any) -> None:
        raise KeyError("surprise")

    monkeypatch.setattr(view.controller, "undo", boom)
    view.undo_button.click()
    assert "Something went wrong (KeyError" in view.table.message


# -- explorers --------------------------------------------------------------------------------------


def test_replay_stepper_sweeps_a_whole_game() -> None:
    """Every step of a record can be shown by buttons or slider; each shows its decision."""
    from ra_core.widgets import replay

    record = play_game([random_bot] * 3, seed=2)
    c = ReplayController(record)
    assert c.last == len(record.actions)
    seen = set()
    for i in range(c.last + 1):
        c.go(i)
        text = c.text()
        assert f"Step {i} of {c.last}." in text
        seen.add(text)
    assert len(seen) == c.last + 1
    assert "The game is over" in c.decision()
    view = replay(record.to_json())
    for i in range(view.controller.last + 1):
        view.slider.value = i
        assert f"Step {i} of" in view.decision.value
    view.first_button.click()
    assert view.slider.value == 0 and "Step 0 of" in view.decision.value
    view.forward_button.click()
    view.forward_button.click()
    view.back_button.click()
    assert view.slider.value == 1
    view.last_button.click()
    assert view.slider.value == view.controller.last
    view.forward_button.click()  # past the end: stays
    assert view.slider.value == view.controller.last
    chance = next(i for i, s in enumerate(c.states) if s.is_chance_node())
    c.go(chance)
    assert "Chance: a tile comes out of the bag; it is " in c.decision()
    c.go(0)
    assert "P0 decides among: draw, ra. Chosen: " in c.decision() or "decides among" in c.decision()
    bad = ReplayController("{nope")
    assert "Could not read that record" in bad.message and bad.last == 0
    assert not c.load(42) and "expected a GameRecord" in c.message


def _explore(c: AuctionExplorer, depth: int = 0) -> int:
    """Follow every line of the auction to its end; return how many ends were reached."""
    options = c.options()
    if not options:
        return 1
    ends = 0
    for action, outcome in options:
        assert outcome.startswith(f"P{c.state.to_move} ") and "Next:" in outcome
        assert c.choose(action)
        ends += _explore(c, depth + 1)
        assert c.back()
    return ends


def test_auction_explorer_walks_every_line() -> None:
    """Every bid and pass of the example auction leads somewhere that is described."""
    c = AuctionExplorer()
    text = c.text()
    assert "Lot: gold, Nile and a funeral" in text and "Bidders in order: P1, P2, P0" in text
    assert _explore(c) > 20
    assert not c.back() and "Already at the start" in c.message
    assert not c.choose("bid 1") and "Not a choice here" in c.message
    c.choose(c.options()[-1][0])
    c.reset()
    assert len(c.path) == 1 and "Line explored" not in c.text()
    from ra_core.widgets import auction_explorer

    view = auction_explorer()
    while view.controller.options():
        rows = view.options.children
        rows[-1].children[0].click()  # the highest bid each time
    assert "The auction is over" in view.options.children[0].value
    view.back_button.click()
    assert view.controller.options()
    view.reset_button.click()
    assert len(view.controller.path) == 1 and view.text() == view.controller.text()
    turn = State.from_dict(
        {
            "players": [
                {"suns_up": [13, 6, 2]},
                {"suns_up": [12, 7, 3]},
                {"suns_up": [11, 8, 4]},
                {"suns_up": [10, 9, 5]},
            ],
            "track": ["gold"],
        }
    )
    assert "called Ra to start this auction" in AuctionExplorer(turn).message
    over = play_game([random_bot] * 3, seed=1).replay()
    assert "not an auction" in AuctionExplorer(over).message and AuctionExplorer(over).options() == []


def test_scoring_calculator_matches_the_rulebook_examples() -> None:
    """The rulebook's scoring examples come out of the calculator; fame carries with the floor."""
    c = ScoringCalculator(4)
    for tile, n in {"pyramid": 4, "temple": 3, "fortress": 2, "sphinx": 1}.items():
        assert c.set_count(3, 0, tile, n)
    for tile, n in {"astronomy": 3, "agriculture": 2, "writing": 2}.items():
        c.set_count(1, 1, tile, n)
    c.set_count(1, 2, "flood", 1)
    c.set_count(1, 2, "nile", 3)
    for player, pharaohs in enumerate([4, 3, 3, 4]):
        c.set_count(1, player, "pharaoh", pharaohs)
    for player, total in enumerate([17, 25, 21, 17]):
        c.set_sun_total(player, total)
    e1, e3 = c.points(1), c.points(3)
    assert [p["pharaoh"] for p in e1] == [5, -2, -2, 5]
    assert e1[1]["civilization"] == 5 and e1[2]["river"] == 4
    assert e3[0]["monument"] == 19 and [p["sun"] for p in e3] == [-5, 5, 0, -5]
    assert all(p["fame"] >= 0 for e in (1, 2, 3) for p in c.points(e))
    assert "R70 Monuments" in c.html() and "Rulebook:" in c.html()
    assert len(c.text().splitlines()) == 1 + 3 * 4
    for bad in [(4, 0, "gold", 1), (1, 9, "gold", 1), (1, 0, "gold", 6), (1, 0, "ra", 1), (1, 0, "bogus", 1)]:
        assert not c.set_count(*bad) and c.message.startswith("Not changed")
    assert not c.set_sun_total(0, -1) and "Message: Not changed" in c.text()


def test_scoring_view_sweeps_every_box() -> None:
    """Typing in every box of every epoch updates the table; the epoch switch shows that epoch's counts."""
    from ra_core.widgets import scoring_calculator

    view = scoring_calculator(3)
    for epoch in (1, 2, 3):
        view.epoch.value = epoch
        for (_, tile), box in view.inputs.items():
            box.value = 1 if tile is not Tile.GOLD else 2
        table = view.result.value
        assert "<table" in table
    view.epoch.value = 1
    assert all(box.value in (1, 2) for box in view.inputs.values())
    assert view.controller.points(1)[0]["gold"] == 6
    view.suns[0].value = 40
    assert view.controller.points(3)[0]["sun"] == 5
    view.inputs[(0, Tile.GOD)].value = 25  # more than there are: refused, with a message
    assert "Not changed" in view.message.value and view.controller.counts[0][0][Tile.GOD] == 1
    assert view.text() == view.controller.text()


def test_disaster_explorer_each_disaster() -> None:
    """Each disaster shows what must go and, for unrest and earthquake, the choices (R50-R54)."""
    d = DisasterExplorer("drought", {"flood": 1, "nile": 3})
    assert "No choice: a flood and Nile must go." in d.text()
    d = DisasterExplorer("funeral", {"pharaoh": 1})
    assert "No choice: a pharaoh must go." in d.text()
    d.set_count("pharaoh", 0)
    assert "Nothing to lose" in d.text()
    d = DisasterExplorer("unrest")
    assert "The player chooses which 2 to lose (4 ways):" in d.text()
    assert d.set_how_many(2) and "No choice" in d.text()
    d = DisasterExplorer("earthquake", {"pyramid": 2, "temple": 1, "sphinx": 1})
    assert "(4 ways)" in d.text() and "R53" in d.html()
    assert not d.set_disaster("gold") and "not a disaster" in d.message
    assert not d.set_disaster("lava") and "unknown tile" in d.message
    assert not d.set_count("ra", 1) and not d.set_count("gold", 9) and not d.set_how_many(5)
    from ra_core.widgets import disaster_explorer

    view = disaster_explorer()
    for name in ("funeral", "drought", "unrest", "earthquake"):
        view.disaster.value = name
        for n in range(view.how_many.min, view.how_many.max + 1):
            view.how_many.value = n
            boxes = view.counts.children[0].children
            for box in boxes:
                for v in (0, 1, 3):
                    box.value = v
                    assert "<ul>" in view.result.value
        assert view.text() == view.controller.text()


def test_entry_points_take_their_controllers_options() -> None:
    """replay(step=), scoring_calculator(rules=) and disaster_explorer(display=) open where asked."""
    from ra_core.widgets import disaster_explorer, replay, scoring_calculator

    record = play_game([random_bot] * 3, seed=2)
    assert replay(record, step=5).slider.value == 5 and "Step 5 of" in replay(record, step=5).decision.value
    assert replay(record, step=-1).controller.index == len(record.actions)
    assert replay(record, step=10_000).controller.index == len(record.actions)  # clamped, as the slider is
    assert "Could not read that record" in replay("{nope", step=3).controller.message
    two = scoring_calculator(rules=Rules.two_player(no_penalty=True))
    assert two.controller.players == 2 and two.controller.rules.no_penalty
    with pytest.raises(ValueError, match="players=4 but the rules"):
        scoring_calculator(4, rules=Rules.two_player())
    view = disaster_explorer("funeral", display={"pharaoh": 2, "nile": 1})
    assert view.controller.display[Tile.PHARAOH] == 2 and "No choice: 2 pharaohs must go." in view.text()


def test_disaster_explorer_never_takes_more_disasters_than_exist() -> None:
    """4 unrest tiles exist but 2 of each other disaster (R4): switching kind lowers the count to match."""
    from ra_core.widgets import disaster_explorer

    d = DisasterExplorer("unrest")
    assert d.set_how_many(4) and d.set_disaster("funeral") and d.how_many == 2
    assert "2 funerals take 4 tiles" in d.text()
    view = disaster_explorer("unrest")
    assert view.how_many.max == 4
    view.how_many.value = 3
    view.disaster.value = "drought"
    assert (view.how_many.max, view.how_many.value, view.controller.how_many) == (2, 2, 2)


def test_levels_name_the_bots_and_hot_seat_shows_whose_decision_it_is() -> None:
    """play(level=...) picks the bots by difficulty and shows them by level; you=[0, 2] seats two humans."""
    from ra_core.widgets import LEVELS
    from ra_core.widgets import play as play_widget

    assert list(LEVELS) == ["easy", "normal", "hard"]
    view = play_widget(players=3, you=0, seed=2)
    assert view.controller.names == ("you", "normal", "normal") and "P1 (normal)" in view.table.board
    assert play_widget(players=3, level="easy", seed=2).controller.names[1:] == ("easy", "easy")
    with pytest.raises(ValueError, match="level must be one of easy, normal, hard"):
        play_widget(level="expert")
    view = play_widget(players=4, you=[0, 2], seed=3, level="easy")
    c = view.controller
    while not c.state.is_terminal():
        if view.clicks.scores_due():
            _send(view, version=c.version, ui="dismiss")
        seat = c.state.to_move
        assert seat in (0, 2) and view.table.status.startswith(f"P{seat}, your move")
        assert f"P{seat} (you): fame {c.state.players[seat].fame}, " in view.table.board  # its panel is marked
        assert 'decides now"' in view.table.board.split(f"P{seat} (you): fame")[1].split(">")[0]
        version = c.version
        for _ in range(4):  # an action, or the steps to one: a god then a slot, tiles to lose then Confirm
            found = sorted(k for k in _targets(view.table.board) if not k.startswith(("ui:unpick", "ui:clear")))
            kind, _, value = found[0].partition(":")
            _send(view, version=version, **{kind: value})
            if c.version != version:
                break
        assert c.version != version, c.text()


def test_each_epochs_scores_cover_the_board_until_closed() -> None:
    """After each epoch the scores are drawn over the board, with every player's breakdown; then the final screen."""
    from ra_core.widgets import play as play_widget
    from ra_core.widgets.overlay import ranking

    view = play_widget(players=3, you=0, seed=5, level="easy")
    c, board = view.controller, view.clicks
    shown = []
    while not c.state.is_terminal() or board.scores_due():
        if board.scores_due():
            score = c.state.scores[-1]
            svg = view.table.board
            assert set(_targets(svg)) == {"ui:dismiss"} and "ra-overlay" in svg
            over = c.state.is_terminal()
            for i, b in enumerate(score.players):
                name = "P0 (you)" if i == 0 else f"P{i} (easy)"
                if not over:  # the epoch's points by category
                    assert f'aria-label="{name}: gods {signed(b.god)}, ' in svg
                    assert f"net {signed(b.net)}, fame {b.fame_after}" in svg
                    continue
                # the final screen: the whole game by category, and the ranking with every epoch
                whole = [e.players[i] for e in c.state.scores]
                assert f'aria-label="{name}: gods {signed(sum(e.god for e in whole))}, ' in svg
                assert f"net {signed(sum(e.net for e in whole))}, fame {b.fame_after}" in svg
                place = ranking(c.state).index(i) + 1
                epochs = ", ".join(f"epoch {k} {signed(e.net)} \u2192 {e.fame_after}" for k, e in enumerate(whole, 1))
                assert f'aria-label="{("1st", "2nd", "3rd")[place - 1]}: {name}, {epochs}, fame {b.fame_after}"' in svg
            assert view.table.status.startswith("Game over" if over else f"Epoch {score.epoch} is")
            shown.append(score.epoch)
            _send(view, version=c.version, ui="sun 3")  # anything else: a message, no change
            assert "First close the scores" in view.table.message and board.scores_due()
            _send(view, version=c.version, ui="dismiss")
            continue
        found = sorted(k for k in _targets(view.table.board) if k.startswith("action:"))
        _send(view, version=c.version, action=found[-1][7:])
    assert shown == [1, 2, 3] and "Game over" in view.table.status and "ra-overlay" not in view.table.board
    view.undo_button.click()
    assert not board.scores_due() and len(c.state.scores) == 2


def test_the_final_screen_says_how_a_tie_was_broken() -> None:
    """Equal fame at the end: the final screen names the tied players and the rule that decided (R73)."""
    from ra_core.widgets.overlay import scores_overlay, tie_break_words

    final = play_game([random_bot] * 3, seed=1).replay()
    players = tuple(p._replace(fame=40) for p in final.players)
    tied = final.replace(players=players)
    w = tied.winner()
    assert w is not None
    sun = max(tied.players[w].suns)
    words = tie_break_words(tied)
    assert words == f"P0, P1, P2 tie on 40 fame; P{w} wins with the highest sun, {sun} (R73)."
    assert f"Game over: P{w} wins with 40 fame" in scores_overlay(tied) and "tie on 40 fame" in scores_overlay(tied)
    alone = final.replace(players=tuple(p._replace(fame=40 + (i == 1)) for i, p in enumerate(final.players)))
    assert tie_break_words(alone) == "" and "P1 wins with 41 fame" in scores_overlay(alone)


def test_the_final_ranking_follows_the_engines_winner() -> None:
    """The final screen ranks every player: first the engine's winner, then the winner of the rest, and so on."""
    from ra_core.engine.scoring import winner
    from ra_core.widgets.overlay import ranking

    for seed in range(20):
        final = play_game([random_bot] * (2 + seed % 4), seed=seed).replay()
        order = ranking(final)
        assert sorted(order) == list(range(len(final.players))) and order[0] == final.winner()
        fame = [final.players[q].fame for q in order]
        assert fame == sorted(fame, reverse=True)
        for k in range(len(order) - 1):
            rest = [final.players[q] for q in order[k:]]
            assert order[k] == order[k:][winner(rest, final.rules)]


def test_a_view_saves_a_picture_beside_the_widget() -> None:
    """Each view's output holds a picture and its text beside the widget: a saved notebook shows the board.

    A board is saved as an SVG with a PNG of it (shown where the notebook is not trusted), never
    as HTML (which JupyterLab would prefer there, cleaned of its SVG); the other views save HTML.
    """
    from ra_core.widgets import auction_explorer, disaster_explorer, replay, scoring_calculator
    from ra_core.widgets import play as play_widget
    from ra_core.widgets.views import SAVED_NOTE

    game = play_widget(players=3, you=0, seed=2)
    widget = "application/vnd.jupyter.widget-view+json"
    for view, drawn in (
        (game, "Ra board"),
        (replay(play_game([random_bot] * 3, seed=2)), "Step 0 of"),
        (auction_explorer(), "Ra board"),
        (disaster_explorer(), "the tiles this disaster can take"),  # its tiles too, where untrusted
    ):
        bundle = view._repr_mimebundle_()
        assert set(bundle) == {widget, "image/svg+xml", "image/png", "text/plain"}
        saved = bundle["image/svg+xml"]
        words = [t.text or "" for t in ET.fromstring(saved).iter("{http://www.w3.org/2000/svg}text")]
        assert drawn in saved and SAVED_NOTE in " ".join(words[:2]), words[:3]
        assert words[0].startswith(SAVED_NOTE[:30]), f"the note is not at the top: {words[:2]}"
        assert 'class="ra-mark"' not in saved, "a saved picture looks live: its pieces are framed to click"
        assert bundle["text/plain"] == view.text()
    for other, drawn in ((scoring_calculator(), "<table"),):
        bundle = other._repr_mimebundle_()
        assert set(bundle) == {widget, "text/html", "text/plain"}
        assert drawn in bundle["text/html"] and "run the cell to use it" in bundle["text/html"]
    saved = game._repr_mimebundle_()["image/svg+xml"]
    assert 'data-action="draw"' in saved and game.clicks.status() in saved  # the board as it is, under the status


def test_the_scores_fit_inside_their_card() -> None:
    """The overlay's columns fit in the card drawn for them (16 of margin each side)."""
    from ra_core.widgets.overlay import _COLUMNS, CARD

    assert sum(width for _, width in _COLUMNS) <= CARD - 32


def test_a_seats_own_name_is_not_repeated() -> None:
    """Names "P0", "P1" given to a record show as P0 and P1, not "P0 (P0)" or "P0 P0"."""
    from ra_core.pictures.plots import _states_and_names

    record = play_game([random_bot] * 3, seed=2, names=["P0", "P1", "cleo"])
    stepper = ReplayController(record)
    assert "P0 (P0)" not in stepper.text() and "P2 (cleo)" in stepper.text()
    assert _states_and_names(record, None)[1] == ["P0", "P1", "P2 (cleo)"]


def test_the_board_marks_what_a_bot_just_did_and_the_coming_sun_swap() -> None:
    """After a bot's move the board says it by the bot's name and rings the piece; an auction shows the swap."""
    board = _table(3, you=0, seed=2, reply="later")
    c = board.controller
    assert board.press(action="ra", reply="later")  # P0 calls Ra: the bots bid next, one step at a time
    steps = 0
    while c.step():
        steps += 1
        seat, action = board.last_move() or (-1, "")
        assert seat in (1, 2) and action == c.actions[-1]
        svg = board.svg()
        assert svg.count('class="ra-just"') == (1 if action.startswith("bid ") else 0)
        words = {"pass": "just now: passed"}.get(action, f"just now: {action}")
        assert words in svg
        if c.state.auction is not None and c.state.auction.high_bidder >= 0:
            a = c.state.auction
            who = c.player_name(a.high_bidder)
            assert f"{who} would give sun {a.high_bid} and take the center sun {c.state.center_sun}" in svg
    assert steps >= 2 and "ra-just" not in str(board_svg.svg(c.state))  # a picture without controls marks nothing


def test_the_disaster_explorers_counts_follow_the_notebooks_theme() -> None:
    """The counts beside the tiles are drawn in the page's text colour (light on a dark theme), not black."""
    html = DisasterExplorer("unrest", {"art": 2, "writing": 1}).html()
    assert 'fill="currentColor">\u00d72</text>' in html and 'fill="currentColor">\u00d71</text>' in html
