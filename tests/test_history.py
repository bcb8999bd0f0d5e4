"""ra_core.play.history: every auction of a game, read back from its actions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from ra_core import State, Tile
from ra_core.bots import heuristic_bot, random_bot
from ra_core.engine.records import Trigger
from ra_core.play import play_game
from ra_core.play.history import auctions

from .positions import S4
from .strategies import ALL_RULES, make_rules, seeds


def test_a_hand_played_auction() -> None:
    """P1 calls Ra on gold and flood: P2 bids 8, P3 passes, P0 bids 13, P1 passes; P0 wins with 13."""
    start = State.from_dict({"players": S4, "track": ["gold", "flood"], "turn_player": 1, "center_sun": 1})
    (result,) = auctions(start, ["ra", "bid 8", "pass", "bid 13", "pass"])
    assert result.step == 1 and result.opening == start.apply("ra")
    assert (result.trigger, result.ra_player, result.order) == (Trigger.CALL_VOLUNTARY, 1, (2, 3, 0, 1))
    assert (result.bids, result.winner, result.sun, result.center_sun) == ((8, None, 13, None), 0, 13, 1)
    assert result.lot == (Tile.GOLD, Tile.FLOOD) and result.epoch == 1


def test_all_pass_and_a_running_auction() -> None:
    """An auction everybody passes has no winner; one still running after the last action is left out."""
    start = State.from_dict({"players": S4, "track": ["nile"], "turn_player": 0})
    drawn_ra = ["draw", "reveal ra", "pass", "pass", "pass", "pass"]
    (passed,) = auctions(start, drawn_ra)
    assert (passed.trigger, passed.bids, passed.winner, passed.sun) == (Trigger.RA_TILE, (None,) * 4, None, None)
    assert auctions(start, [*drawn_ra, "ra", "bid 8"]) == [passed]  # P1 called Ra; P2's auction goes on


@pytest.mark.parametrize(("players", "variant"), ALL_RULES)
@settings(max_examples=3, deadline=None)
@given(seed=seeds)
def test_auctions_agree_with_the_game(players: int, variant: str, seed: int) -> None:
    """Every auction: one bid or pass per bidder, the highest sun wins, the winner swaps it for the center sun."""
    policy = heuristic_bot if seed % 2 else random_bot
    record = play_game([policy] * players, seed=seed, rules=make_rules(players, variant))
    states = list(record.states())
    results = record.auctions()
    opened = [i for i in range(1, len(states)) if states[i].auction is not None and states[i - 1].auction is None]
    assert [r.step for r in results] == opened  # every auction of the game ends (the game does)
    for r in results:
        assert r.opening == states[r.step] and r.opening.auction is not None and r.opening.auction.bids == ()
        closed = states[r.step + len(r.bids)]
        assert closed.auction is None and len(r.bids) == len(r.order)
        suns = [b for b in r.bids if b is not None]
        assert suns == sorted(suns) and len(set(suns)) == len(suns)  # each bid beats the last (R39)
        if r.winner is None:
            assert r.sun is None and closed.center_sun == r.center_sun
        else:
            assert r.sun == max(suns) and r.bids[r.order.index(r.winner)] == r.sun
            assert closed.center_sun == r.sun and r.center_sun in closed.players[r.winner].suns
