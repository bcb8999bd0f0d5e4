"""The status line offers only legal choices, in fuzzed games: its words follow the position, never a habit.

At every decision of seeded games (all seats yours, as in hot seat, so that every kind of decision
comes up), the table's status names each kind of move if and only if it is legal then: no "or
pass" when the Ra caller must bid (R40), no god when none can be used. A god chosen, or tiles
picked to lose, put the step in progress into the status. The click hint (`Controls.hint`), which
the classroom's page shows, obeys the same rule.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from ra_core import Bid, CallRa, Discard, Done, Draw, Pass, UseGod
from ra_core.bots import random_bot
from ra_core.engine.actions import Action
from ra_core.widgets import PlayController
from ra_core.widgets.board import BoardClicks
from tests.strategies import seeds

#: What the status says for each kind of move (a regular expression on the status line).
STATUS_WORDS: dict[type[Action], str] = {
    Draw: r"\bdraw a tile\b",
    CallRa: r"\bcall Ra\b",
    UseGod: r"\buse (a|another) god\b",
    Bid: r"\bbid one of your\b",
    Pass: r"\bpass\b",
    Done: r"\bbe done\b",
    Discard: r"\blose\b",
}
#: What the click hint says for each kind of move.
HINT_WORDS: dict[type[Action], str] = {
    Draw: r"\bthe bag\b",
    CallRa: r"\bthe Ra statue\b",
    UseGod: r"\bgod tile\b|\bauction track\b",
    Bid: r"\bframed suns\b",
    Pass: r"\bPass\b",
    Done: r"\bDone\b",
    Discard: r"\bConfirm\b",
}


def _offers(text: str, words: dict[type[Action], str]) -> set[type[Action]]:
    return {kind for kind, pattern in words.items() if re.search(pattern, text)}


def _check(board: BoardClicks) -> None:
    c = board.controller
    legal = {type(a) for a in c.state.legal_actions()}
    status = board.status()
    assert status.startswith(("Your move: ", "P")) and "move: " in status, status
    if not (board.god or board.picked):
        assert _offers(status, STATUS_WORDS) == legal, (status, legal)
    assert _offers(board.controls().hint(), HINT_WORDS) == legal, (board.controls().hint(), legal)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=st.integers(min_value=2, max_value=5), moves=st.integers(min_value=1, max_value=400))
def test_the_status_offers_only_legal_choices(seed: int, players: int, moves: int) -> None:
    """Every decision of a fuzzed game: the status names exactly the legal kinds of move, and the step in progress."""
    board = BoardClicks(PlayController(players, you=range(players), seed=seed, bots=random_bot))
    c = board.controller
    rng = c.bot_rngs[0]
    for _ in range(moves):
        if c.state.is_terminal():
            break
        board.scored = len(c.state.scores)  # close any scores shown over the board
        _check(board)
        legal = c.state.legal_actions()
        action = legal[int(rng.random() * len(legal))]
        if isinstance(action, UseGod):  # by the board's steps: the god tile, then the slot
            assert board.press(ui="god")
            assert "take a tile from the auction track with your god" in board.status()
        elif isinstance(action, Discard) and action.tiles:
            assert board.press(ui=f"pick {action.tiles[0].label}")
            picked = board.status()
            assert "lose" in picked and ("Confirm" in picked) == (len(action.tiles) == 1), picked
            for tile in action.tiles[1:]:
                assert board.press(ui=f"pick {tile.label}")
            assert "click Confirm" in board.status()
        assert board.press(action=str(action)), c.message


def test_the_ra_caller_who_must_bid_is_not_offered_a_pass() -> None:
    """R40: the caller, after everybody else passed, reads that he must bid, and nothing about passing."""
    for seed in range(200):
        board = BoardClicks(PlayController(3, you=range(3), seed=seed, bots=random_bot))
        c = board.controller
        if not any(isinstance(a, CallRa) for a in c.state.legal_actions()):
            continue
        board.press(action="ra")
        while c.state.auction is not None and any(isinstance(a, Pass) for a in c.state.legal_actions()):
            board.press(action="pass")
        if c.state.auction is None:
            continue
        status = board.status()
        assert "must bid" in status and not re.search(r"\bpass\b", status), status
        return
    raise AssertionError("no seed of 200 let the Ra caller be the last bidder")
