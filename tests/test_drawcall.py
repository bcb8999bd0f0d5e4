"""The turn-aware draw-or-call model: exact by hand, equal to the lone-player model when alone, and sampled right."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Mapping, Sequence
from fractions import Fraction

import pytest

from ra_core import State
from ra_core.analysis.chance import draw_or_call
from ra_core.analysis.drawcall import (
    AuctionModel,
    CallRule,
    bidding_order,
    mover_policy,
    sample_payoff,
    taker,
    turn_aware_draw_or_call,
)

THREE = [{"suns_up": [13, 8, 5, 2]}, {"suns_up": [12, 9, 6, 3]}, {"suns_up": [11, 10, 7, 4]}]


def small(
    track: list[str], bag: dict[str, int], *, ra_count: int = 6, players: Sequence[Mapping[str, object]] = THREE
) -> State:
    """A teaching position with a small bag (no real game reaches it, hence not strict)."""
    return State.from_dict({"players": players, "track": track, "ra_count": ra_count, "bag": bag}, strict=False)


def test_by_hand_the_next_player_calls_on_a_good_lot() -> None:
    """Gold on the track, bag {ra 2, gold, nile}: after P0's draw P1 calls on anything worth 3 to him."""
    s = small(["gold"], {"ra": 2, "gold": 1, "nile": 1})
    answer = turn_aware_draw_or_call(s, rule=CallRule(at_least=3))
    assert answer.call == 3  # gold: 3 fame (R67)
    # Ra (1/2): P0 is the Ra player and takes the gold; gold or nile (1/4 each): P1 calls and takes it.
    assert answer.draw == Fraction(3, 2) and answer.best == "call"
    assert answer.seats == (0, 1, 2)


def test_by_hand_when_nobody_calls_the_lot_comes_back() -> None:
    """Rivals who never call draw instead: the lot can come back to the mover bigger."""
    s = small(["gold"], {"ra": 1, "gold": 1}, ra_count=5)
    answer = turn_aware_draw_or_call(s, rule=CallRule(at_least=100))
    # P0 draws: Ra (1/2) -> P0 takes gold (3); gold (1/2) -> P1 draws the Ra tile (the bag's last) and takes it.
    assert answer.draw == Fraction(3, 2)


def test_the_last_ra_tile_loses_the_lot() -> None:
    s = small(["gold"], {"ra": 1, "gold": 1}, ra_count=7)
    answer = turn_aware_draw_or_call(s, rule=CallRule(at_least=100))
    assert answer.draw == 0 and answer.best == "call"


@pytest.mark.parametrize("ra_count", [5, 7])
def test_a_lone_player_gets_the_lone_players_answer(ra_count: int) -> None:
    """With every rival out of suns (R17, R21) the turn-aware model is the lone model with no horizon."""
    alone = [{"suns_up": [13, 8, 5, 2]}, {"suns_down": [12, 9, 6, 3]}, {"suns_down": [11, 10, 7, 4]}]
    s = small(
        ["gold", "pharaoh", "nile", "flood", "god"],
        {"ra": 3, "gold": 2, "nile": 2, "funeral": 1},
        ra_count=ra_count,
        players=alone,
    )
    turn_aware = turn_aware_draw_or_call(s)
    assert turn_aware.seats == (0,)
    assert turn_aware.draw == draw_or_call(s, horizon=3).draw  # three empty slots: horizon 3 is no limit


def test_highest_value_takes_and_ties_go_to_the_later_bidder() -> None:
    assert bidding_order((0, 1, 2), 1) == (2, 0, 1)
    assert taker((5, 7, 7), 1, (2, 0, 1), "highest") == 1  # 2 and 1 tie at 7: 1 bids later
    assert taker((9, 7, 7), 1, (2, 0, 1), "highest") == 0
    assert taker((9, 7, 7), 1, (2, 0, 1), "ra_player") == 1


def test_the_call_rule() -> None:
    rule = CallRule(at_least=1, per_free_slot=1.5)
    assert not rule.calls(100, 0)  # nobody calls on an empty track
    assert rule.calls(-5, 8)  # a full track forces a call (R19)
    assert rule.calls(4, 6) and not rule.calls(3, 6)  # 1 + 1.5 * 2 = 4


def test_errors() -> None:
    s = small(["gold"], {"ra": 2, "gold": 1, "nile": 1})
    with pytest.raises(ValueError, match="auction"):
        turn_aware_draw_or_call(s, auction="english")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="phase"):
        turn_aware_draw_or_call(s.apply("ra"))


@pytest.mark.parametrize("auction", ["ra_player", "highest"])
def test_the_engine_agrees_with_the_exact_value(auction: AuctionModel) -> None:
    """Sampled through the engine, the payoff of drawing (then playing optimally) has the exact mean.

    Tolerance 4.5 standard errors: a false alarm about once in 150,000 runs of this test.
    """
    s = small(
        ["gold", "nile"],
        {"ra": 4, "gold": 2, "nile": 3, "flood": 2, "pharaoh": 3, "funeral": 1, "unrest": 1, "art": 2},
        ra_count=5,
    )
    rule = CallRule(at_least=2, per_free_slot=1.0)
    exact = turn_aware_draw_or_call(s, rule=rule, auction=auction)
    assert exact.draw is not None
    policy = mover_policy(s, rule=rule, auction=auction)
    rng = random.Random(14)
    runs = [float(sample_payoff(s, "draw", rng, rule=rule, auction=auction, policy=policy)) for _ in range(3000)]
    se = statistics.stdev(runs) / math.sqrt(len(runs))
    assert se > 0
    assert abs(statistics.fmean(runs) - float(exact.draw)) <= 4.5 * se
    assert sample_payoff(s, "ra", rng, rule=rule, auction=auction) == exact.call
