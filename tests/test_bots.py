"""The bots: legal and reproducible over whole games, and sensible on hand-made positions."""

from __future__ import annotations

import dataclasses
import math
import pickle
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ra_core import Action, Bid, CallRa, Discard, Draw, Pass, Phase, State, Tile, UseGod
from ra_core.analysis.chance import draw_or_call
from ra_core.analysis.valuation import lot_value
from ra_core.bots import (
    GreedyBot,
    HeuristicBot,
    PlanBot,
    Weights,
    appraise,
    bid_value,
    explain,
    greedy_bot,
    heuristic_bot,
    quick_lot_value,
    random_bot,
)
from ra_core.bots.montecarlo import MonteCarloBot, action_values, horizon_values, rollout
from ra_core.engine.positions import position as scenario
from ra_core.engine.tiles import counts
from ra_core.play import Policy, play_game

from .positions import S4
from .strategies import seeds

TINY_MC = MonteCarloBot(rollouts=2)


def position(track: list[str], displays: dict[int, dict[str, int]] | None = None, **extra: Any) -> State:
    """Return a 4-player position with `track` on the auction track and the given displays."""
    players: list[dict[str, Any]] = [dict(p) for p in S4]
    for seat, display in (displays or {}).items():
        players[seat]["display"] = display
    return State.from_dict({"players": players, "track": track, "turn_player": 0, **extra})


# -- whole games -----------------------------------------------------------------------------


@given(players=st.integers(2, 5), seed=seeds)
def test_heuristic_and_greedy_play_legal_games(players: int, seed: int) -> None:
    """`play` validates every action, so a finished game means every action was legal."""
    lineup: list[Policy] = [heuristic_bot, greedy_bot, random_bot, heuristic_bot, greedy_bot]
    bots = lineup[:players]
    final = play_game(bots, seed=seed).replay()
    assert final.is_terminal()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_monte_carlo_plays_legal_games(players: int) -> None:
    """A Monte Carlo bot (tiny rollouts) finishes a game against heuristic bots."""
    bots = [TINY_MC] + [heuristic_bot] * (players - 1)
    assert play_game(bots, seed=players).replay().is_terminal()


@pytest.mark.parametrize("bot", [heuristic_bot, greedy_bot, TINY_MC])
def test_same_seed_same_game(bot: Any) -> None:
    """A bot is a function of the state and the rng: the same seed gives the same actions."""
    bots = [bot, heuristic_bot, random_bot]
    assert play_game(bots, seed=12).actions == play_game(bots, seed=12).actions


def test_bots_leave_global_random_alone() -> None:
    """No bot draws from, or seeds, the global `random` module."""
    before = random.getstate()
    play_game([heuristic_bot, greedy_bot, TINY_MC], seed=3)
    assert random.getstate() == before


@pytest.mark.parametrize("bot", [random_bot, heuristic_bot, greedy_bot, TINY_MC, HeuristicBot(margin=2.0)])
def test_bots_pickle(bot: Any) -> None:
    """Bots survive pickling, so a process pool can run them."""
    assert pickle.loads(pickle.dumps(bot)) == bot


def test_heuristic_beats_random() -> None:
    """One heuristic bot wins nearly every game against two random bots."""
    wins = 0
    for seed in range(9):
        seat = seed % 3
        bots = [random_bot] * 3
        bots[seat] = heuristic_bot
        wins += play_game(bots, seed=seed).replay().winner() == seat
    assert wins >= 8


# -- the heuristic valuation -----------------------------------------------------------------


def test_gold_lot_worth_more_than_empty() -> None:
    """A lot with gold is worth more than an empty one (the center sun alone)."""
    assert bid_value(position(["gold"]), 0) > bid_value(position([]), 0)
    assert appraise(position(["gold"]), 0).tiles == 3  # R67


def test_funeral_lot_negative_for_pharaoh_holder() -> None:
    """A funeral costs a pharaoh holder his pharaohs (R50): the lot is worth less than nothing."""
    s = position(["funeral"], {0: {"pharaoh": 3}, 1: {"pharaoh": 2}})
    assert appraise(s, 0).tiles < 0 == appraise(s, 2).tiles  # P0 falls from most to the middle
    assert bid_value(s, 0) < 0
    assert bid_value(s, 0) < bid_value(s, 2)


def test_appraisal_parts_add_up() -> None:
    """The total is tiles - pharaoh discount + exchange - spend, and tiles is `lot_value`."""
    s = position(["pharaoh", "gold", "nile", "flood"], {1: {"pharaoh": 1}})
    a = appraise(s, 0)
    assert a.tiles == lot_value(s, 0)
    assert a.total == pytest.approx(a.tiles - a.pharaoh_discount + a.exchange - a.spend)
    assert a.sun == 2 and a.center_sun == 1
    full = appraise(s, 0, weights=Weights(later_pharaohs=1.0))
    assert full.pharaoh_discount == 0 and full.total > a.total


def test_spending_a_sun_costs_less_late_in_the_epoch() -> None:
    """With fewer tiles left to come in the epoch, a sun's later use is worth less."""
    early = appraise(position(["gold"]), 0)
    late = appraise(position(["gold"], ra_count=7), 0)
    assert late.tiles_to_come < early.tiles_to_come
    assert late.spend < early.spend


def test_a_dearer_sun_lowers_the_value() -> None:
    """Paying 13 for the center sun 1 is worth less than paying 2 (R46)."""
    s = position(["gold", "gold"])
    assert bid_value(s, 0, sun=13) < bid_value(s, 0, sun=2)


def test_no_sun_no_bid() -> None:
    """A player whose suns cannot beat the high bid cannot win: -inf, said in words."""
    s = position(["gold"], auction={"trigger": "ra_tile", "bids": [12]}, ra_count=1)
    a = appraise(s, 3)  # P3 holds 10, 9, 5 against a bid of 12
    assert a.sun is None and math.isinf(a.total) and a.total < 0
    assert "cannot bid" in str(a)


def test_explain_names_the_parts_and_the_decision() -> None:
    """`explain` shows the numbers behind the decision, and the decision."""
    text = explain(position(["gold", "gold", "pharaoh"]), 0)
    for words in ("tiles", "later pharaohs", "sun exchange", "spending a sun", "decision: ra"):
        assert words in text


# -- heuristic decisions ---------------------------------------------------------------------


def test_heuristic_bids_lowest_winning_sun() -> None:
    """P1 bid 7; P2 (11, 8, 4) bids 8 on two golds, the lowest sun that beats it."""
    s = position(["gold", "gold", "gold"], auction={"trigger": "ra_tile", "bids": [7]}, ra_count=1)
    assert s.to_move == 2
    assert heuristic_bot(s, random.Random(0)) == Bid(8)


def test_heuristic_passes_on_a_funeral() -> None:
    """A pharaoh holder does not pay for a funeral."""
    s = position(["funeral"], {1: {"pharaoh": 3}}, auction={"trigger": "ra_tile", "bids": []}, ra_count=1)
    assert s.to_move == 1
    assert heuristic_bot(s, random.Random(0)) == Pass()


def test_heuristic_draws_on_a_poor_track_and_calls_on_a_rich_one() -> None:
    """One nile is not worth an auction; three golds and a pharaoh are."""
    assert heuristic_bot(position(["nile"]), random.Random(0)) == Draw()
    assert heuristic_bot(position(["gold", "gold", "gold", "pharaoh"]), random.Random(0)) == CallRa()


def test_heuristic_uses_a_god_on_a_first_civilization() -> None:
    """A first civilization lifts the -5 (R66): worth more than the god's 2 points (R63)."""
    s = position(["nile", "art"], {0: {"god": 1}})
    assert heuristic_bot(s, random.Random(0)) == UseGod(2)


def test_heuristic_discards_the_least_harmful_tiles() -> None:
    """Unrest takes 2 of art, writing, religion, astronomy x3: losing 2 astronomy keeps 4 kinds."""
    s = position(
        [],
        {0: {"art": 1, "writing": 1, "religion": 1, "astronomy": 3}},
        phase="discard",
        discard={"player": 0, "owed": [["unrest", 2]], "after": "auction"},
    )
    assert s.phase is Phase.DISCARD
    assert heuristic_bot(s, random.Random(0)) == Discard((Tile.ASTRONOMY, Tile.ASTRONOMY))


# -- Monte Carlo ------------------------------------------------------------------------------


def test_monte_carlo_bids_for_a_rich_lot() -> None:
    """Four golds and a pharaoh for the last bidder with nobody bidding: bid, do not pass."""
    s = position(
        ["gold", "gold", "gold", "gold", "pharaoh"],
        auction={"trigger": "ra_tile", "bids": [None, None, None]},
        ra_count=1,
    )
    assert s.to_move == 0 and Pass() in s.legal_actions()
    assert MonteCarloBot(rollouts=20)(s, random.Random(0)) == Bid(2)


def test_monte_carlo_passes_on_a_funeral() -> None:
    """A funeral against three pharaohs, with only the center sun 1 for the dear sun: pass."""
    s = position(
        ["funeral", "drought"],
        {0: {"pharaoh": 3, "nile": 2, "flood": 2}},
        auction={"trigger": "ra_tile", "bids": [None, None, None]},
        ra_count=1,
    )
    assert MonteCarloBot(rollouts=20)(s, random.Random(0)) == Pass()


def test_action_values_use_the_same_seeds_for_every_action() -> None:
    """With common random numbers, the values are reproducible from the rng's seed."""
    s = position(["gold", "nile"])
    first = action_values(s, random.Random(5), rollouts=8)
    assert set(first) == set(s.legal_actions())
    assert action_values(s, random.Random(5), rollouts=8) == first


def test_rollout_from_the_end_is_the_fame_margin() -> None:
    """At the end of the game a rollout scores the fame over the best opponent's."""
    final = play_game([greedy_bot] * 3, seed=4).replay()
    values = horizon_values(final)
    assert values == tuple(float(f) for f in final.fame)
    assert rollout(final, 0, seed=1, policy=greedy_bot) == final.fame[0] - max(final.fame[1:])


def test_horizon_values_count_kept_pharaohs_and_monuments() -> None:
    """After epoch 1 a pharaoh lead still scores in epochs 2 and 3 (R64), and monuments at the end."""
    s = position([], {0: {"pharaoh": 2, "pyramid": 3}}, epoch=2)
    values = horizon_values(s)
    assert values[0] > max(values[1:])


def test_quick_lot_value() -> None:
    """The rollout policy's rough model: gold is 3, a funeral costs a pharaoh holder."""
    empty = counts()
    assert quick_lot_value(empty, [Tile.GOLD], 1) == 3.0
    assert quick_lot_value(counts({Tile.PHARAOH: 2}), [Tile.FUNERAL], 1) < 0
    assert quick_lot_value(empty, [Tile.FLOOD, Tile.NILE, Tile.NILE], 1) > quick_lot_value(empty, [Tile.NILE] * 2, 1)
    assert GreedyBot()(position(["gold", "gold", "gold", "pharaoh"]), random.Random(0)) == CallRa()


@dataclasses.dataclass(frozen=True)
class FixedValueBot(PlanBot):
    """A bot on the shared plan that thinks every lot nets `net` fame and never uses a god."""

    net: float = 0.0
    cost: float = 0.0

    def lot_net(self, state: State, player: int, sun: int) -> float:
        return self.net

    def sun_cost(self, state: State) -> float:
        return self.cost

    def god_use(self, state: State, player: int, legal: tuple[Action, ...]) -> UseGod | None:
        return None

    def discard(self, state: State, player: int, legal: tuple[Action, ...]) -> Action:
        return legal[-1]


def test_the_shared_plan_bids_calls_and_draws_by_the_lot_net_worth() -> None:
    keen, shy = FixedValueBot(net=5.0), FixedValueBot(net=0.5)  # margin 1.0; 1.5 a free slot
    rng = random.Random(0)
    three = position(["gold", "gold", "gold"])  # 5 free slots: calling needs a net of 7.5
    assert keen(three, rng) == Draw() and FixedValueBot(net=7.5)(three, rng) == CallRa()
    assert keen(position([]), rng) == Draw()  # nothing to sell: never call on an empty track
    full = position(["gold", "pharaoh", "nile", "flood", "art", "writing", "fortress", "temple"])
    assert shy(full, rng) == CallRa()  # R19: no draw on a full track
    auction = three.apply(CallRa())
    bidder = auction.to_move
    lowest = min(auction.players[bidder].suns_up)
    assert keen(auction, rng) == Bid(lowest) and shy(auction, rng) == Pass()
    ra_player_alone = auction
    while ra_player_alone.to_move != auction.turn_player:
        ra_player_alone = ra_player_alone.apply(Pass())
    assert Pass() not in ra_player_alone.legal_actions()  # R40: the voluntary caller must bid
    assert shy(ra_player_alone, rng) == Bid(min(ra_player_alone.players[auction.turn_player].suns_up))


def lone(track: list[str], suns: tuple[int, ...], ra_count: int = 7) -> State:
    """Return a 3-player position where P0 alone has face-up suns (R21); after 7 Ra tiles the next ends the epoch."""
    down = [sun for sun in (13, 8, 5, 2) if sun not in suns]
    players = [
        {"suns_up": list(suns), "suns_down": down},
        {"suns_up": [], "suns_down": [12, 9, 6, 3]},
        {"suns_up": [], "suns_down": [11, 10, 7, 4]},
    ]
    return scenario(players, track=track, ra_count=ra_count, turn_player=0)


def test_the_lone_player_calls_when_the_next_ra_would_lose_a_worthwhile_lot() -> None:
    """R21, R24: nobody bids against the lone player, and the epoch's last Ra tile sends the lot to the box."""
    rng = random.Random(0)
    rich = lone(["gold", "gold", "gold", "gold", "gold", "art"], (2,))  # his last sun, 20 fame on the track
    assert draw_or_call(rich).best == "call"  # the exact lone-player model agrees (ra_core.analysis.chance)
    assert heuristic_bot(rich, rng) == CallRa()
    banked = lone(["gold", "gold", "gold"], (8, 13))  # two suns: calling banks the golds, more tiles come anyway
    me = banked.to_move
    assert heuristic_bot.lot_net(banked, me, 8) < heuristic_bot.call_per_free_slot * 5  # not by the per-slot rule
    assert heuristic_bot(banked, rng) == CallRa()
    assert greedy_bot(banked, rng) == Draw()  # the rollout policy keeps the per-slot rule (`lone_player_rule`)
    assert dataclasses.replace(greedy_bot, lone_player_rule=True)(banked, rng) == CallRa()
    assert heuristic_bot(lone(["gold", "gold", "gold"], (8, 13), ra_count=6), rng) == Draw()  # a drawn Ra: his auction


def test_the_lone_player_draws_when_drawing_on_is_worth_the_risk() -> None:
    """Two golds with his last sun: the next tile adds more than the 1-in-7 chance of losing them costs."""
    poor = lone(["gold", "gold"], (13,))
    assert draw_or_call(poor).best == "draw"
    assert heuristic_bot(poor, random.Random(0)) == Draw()
    me = poor.to_move
    assert heuristic_bot.keep(poor, me, 13) > 0  # worth something, yet not enough to stop
    assert heuristic_bot(lone(["drought"], (8, 13)), random.Random(0)) == Draw()  # a lot worth less than nothing


def test_the_plan_for_the_lone_player_compares_calling_with_one_more_draw() -> None:
    """Lots that never grow: drawing can only lose them. Call if it keeps more than 0 (with suns to spare: `margin`)."""
    rng = random.Random(0)
    last, spare = lone(["gold"], (13,)), lone(["gold"], (8, 13))
    assert FixedValueBot(net=-1.5, cost=2.0)(last, rng) == CallRa()  # keeps 0.5 > 0, the per-slot rule says draw
    assert FixedValueBot(net=-2.5, cost=2.0)(last, rng) == Draw()  # keeps -0.5: nothing to lose
    assert FixedValueBot(net=-1.5, cost=2.0)(spare, rng) == Draw()  # keeps 0.5, not above the margin 1.0
    assert FixedValueBot(net=-0.5, cost=2.0)(spare, rng) == CallRa()  # keeps 1.5


def test_the_heuristic_and_greedy_bots_are_the_shared_plan() -> None:
    assert isinstance(heuristic_bot, PlanBot) and isinstance(greedy_bot, PlanBot)
    assert (heuristic_bot.name, greedy_bot.name, HeuristicBot(name="copy").name) == ("heuristic", "greedy", "copy")
