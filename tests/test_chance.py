"""Exact chance and expected value (`ra_core.analysis.chance`): small cases by hand, and every exact value
checked against a seeded Monte Carlo estimate within 4 standard errors."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ra_core import CHANCE, Action, Draw, Phase, Reveal, State, Tile, new_game
from ra_core.analysis import chance as C
from ra_core.analysis.valuation import lot_value, lot_values
from ra_core.engine.tiles import DISASTERS
from ra_core.play import sample_chance

SUNS3 = [{"suns_up": [13, 8, 5, 2]}, {"suns_up": [12, 9, 6, 3]}, {"suns_up": [11, 10, 7, 4]}]
N = 20_000  # Monte Carlo samples per check
Z = 4  # tolerance, in standard errors


def position(bag: dict[str, int], *, ra_count: int = 0, track: Sequence[str] = (), **extra: object) -> State:
    """Return a 3-player epoch-1 position with the given bag, Ra count and auction track."""
    data = {"players": SUNS3, "bag": bag, "ra_count": ra_count, "track": list(track), **extra}
    return State.from_dict(data, strict=False)  # a small bag: a teaching position


def find_state(pred: Callable[[State], bool], *, seed: int = 1, players: int = 3) -> State:
    """Return the first state satisfying `pred` in seeded games where the turn player usually draws.

    Games with seeds `seed`, `seed + 1`, ... are played until one has such a state.
    """
    for game_seed in range(seed, seed + 50):
        rng = random.Random(game_seed)
        s = new_game(players, seed=game_seed)
        while not s.is_terminal():
            if pred(s):
                return s
            if s.to_move == CHANCE:
                action = sample_chance(s, rng)
            else:
                legal = s.legal_actions()
                draw = Draw() in legal and rng.random() < 0.8
                action = Draw() if draw else legal[int(rng.random() * len(legal))]
            s = s.apply(action)
    raise AssertionError("no such state in 50 games")


def midgame(seed: int = 1, players: int = 3) -> State:
    """Return a turn in epoch 2 with about 120 tiles in the bag and some tiles on the track."""
    return find_state(
        lambda s: s.phase is Phase.ACTION and s.epoch == 2 and sum(s.bag) <= 125 and 1 <= C.free_slots(s) <= 5,
        seed=seed,
        players=players,
    )


def last_ra(seed: int = 1, players: int = 4) -> State:
    """Return a turn where the next Ra tile ends the epoch and the track has tiles but is not full."""
    return find_state(
        lambda s: s.phase is Phase.ACTION and C.ra_tiles_left(s) == 1 and 2 <= 8 - C.free_slots(s) <= 7,
        seed=seed,
        players=players,
    )


def mixed_decisions() -> State:
    """Return a turn where, after one more draw, the model's choice depends on the tile drawn."""

    def mixed(s: State) -> bool:
        if s.phase is not Phase.ACTION or C.free_slots(s) < 2 or not s.bag[Tile.RA]:
            return False
        choices = set()
        for i, n in enumerate(s.bag):
            if n and i != Tile.RA:
                track = list(s.track)
                track[track.index(None)] = Tile(i)
                bag = s.bag[:i] + (n - 1,) + s.bag[i + 1 :]
                choices.add(C.draw_or_call(s.replace(track=tuple(track), bag=bag)).best)
        return {"call", "draw"} <= choices

    return find_state(mixed)


@pytest.fixture(scope="module")
def mid() -> State:
    return midgame()


# -- Monte Carlo helpers --------------------------------------------------------------------


def shuffled(bag: Sequence[int], rng: random.Random) -> Iterator[Tile]:
    """Yield the bag's tiles in a random order (Fisher-Yates from the front, ``rng.random()`` only)."""
    tiles = [t for t in Tile for _ in range(bag[t])]
    size = len(tiles)
    for i in range(size):
        j = i + int(rng.random() * (size - i))
        tiles[i], tiles[j] = tiles[j], tiles[i]
        yield tiles[i]


def position_of_ra(bag: Sequence[int], rng: random.Random, m: int) -> int:
    """Return at which draw (1, 2, ...) the `m`-th Ra tile comes out of a shuffled bag."""
    seen = 0
    for d, t in enumerate(shuffled(bag, rng), 1):
        seen += t is Tile.RA
        if seen == m:
            return d
    raise AssertionError("not enough Ra tiles")


def assert_law_matches(law: Mapping[Any, Fraction], samples: Sequence[object]) -> None:
    """Check every probability of `law` against the samples' frequencies, within Z standard errors.

    Values the law gives probability 0 must never be sampled. Rare values are pooled with
    their neighbours (in the law's order) until each group expects at least 30 samples, so
    that the normal approximation behind "Z standard errors" holds for every group.
    """
    n = len(samples)
    seen = Counter(samples)
    assert set(seen) <= set(law), f"sampled values outside the law: {set(seen) - set(law)}"
    assert sum(law.values()) == 1
    groups: list[list[object]] = [[]]
    expected = 0.0
    for value, p in law.items():
        groups[-1].append(value)
        expected += float(p) * n
        if expected >= 30:
            groups.append([])
            expected = 0.0
    if len(groups) > 1 and (not groups[-1] or expected < 30):
        groups[-2].extend(groups.pop())  # the short tail joins the last full group
    for group in groups:
        prob = float(sum(law[v] for v in group))
        freq = sum(seen[v] for v in group) / n
        se = math.sqrt(prob * (1 - prob) / n)
        assert abs(freq - prob) <= Z * se + 1e-12, (group, freq, prob, se)


def bernoulli(p: Fraction) -> dict[bool, Fraction]:
    """Return the law of an event of probability `p`."""
    return {True: p, False: 1 - p}


def revealed(action: Action) -> Tile:
    """Return the tile of a chance outcome."""
    assert isinstance(action, Reveal)
    return action.tile


def assert_mean_matches(exact: Fraction, samples: Sequence[float]) -> None:
    """Check an exact mean against the samples' mean, within Z standard errors."""
    n = len(samples)
    mean = sum(samples) / n
    var = sum((x - mean) ** 2 for x in samples) / (n - 1)
    se = math.sqrt(var / n)
    assert abs(mean - float(exact)) <= Z * se + 1e-12, (mean, float(exact), se)


# -- the next tile --------------------------------------------------------------------------


def test_next_tile_by_hand() -> None:
    s = position({"ra": 1, "gold": 1, "nile": 1})
    assert C.p_next_ra(s) == Fraction(1, 3)
    assert C.p_next_tile(s, Tile.GOLD) == Fraction(1, 3)
    assert C.p_next_tile(s, Tile.GOD) == 0
    assert C.p_next_disaster(s) == 0
    assert C.next_tile_distribution(s) == {
        Tile.RA: Fraction(1, 3),
        Tile.NILE: Fraction(1, 3),
        Tile.GOLD: Fraction(1, 3),
    }
    s = position({"ra": 3, "funeral": 1, "unrest": 2, "gold": 4})
    assert C.p_next_disaster(s) == Fraction(3, 10)
    assert C.p_next(s, lambda t: t.is_disaster) == C.p_next(s, [Tile.FUNERAL, Tile.UNREST]) == Fraction(3, 10)
    assert C.p_next(s, {Tile.RA, Tile.GOLD}) == Fraction(7, 10)


def test_next_tile_at_the_start_of_the_game() -> None:
    s = new_game(3, seed=1)
    assert C.p_next_ra(s) == Fraction(30, 180)
    assert C.p_next_disaster(s) == Fraction(10, 180)
    assert C.p_next_tile(s, Tile.PHARAOH) == Fraction(25, 180)


def test_next_tile_agrees_with_the_engines_chance_outcomes(mid: State) -> None:
    outcomes = mid.apply(Draw()).chance_outcomes()
    assert C.next_tile_distribution(mid) == {revealed(a): p for a, p in outcomes}


def test_next_tile_monte_carlo(mid: State) -> None:
    """Sample the next tile with the engine's own sampler and compare every kind, Ra and disasters."""
    rng = random.Random(11)
    at_reveal = mid.apply(Draw())
    tiles = [revealed(sample_chance(at_reveal, rng)) for _ in range(N)]
    assert_law_matches(C.next_tile_distribution(mid), tiles)
    assert_law_matches(bernoulli(C.p_next_ra(mid)), [t is Tile.RA for t in tiles])
    assert_law_matches(bernoulli(C.p_next_disaster(mid)), [t.is_disaster for t in tiles])
    assert_law_matches(bernoulli(C.p_next_tile(mid, Tile.PHARAOH)), [t is Tile.PHARAOH for t in tiles])


def test_empty_bag_is_an_error() -> None:
    s = position({}).replace(bag=(0,) * len(Tile))
    with pytest.raises(ValueError, match="empty"):
        C.p_next_ra(s)
    with pytest.raises(ValueError, match="empty"):
        C.next_tile_distribution(s)


# -- tiles before the next Ra ---------------------------------------------------------------


def test_tiles_before_ra_by_hand() -> None:
    s = position({"ra": 1, "gold": 1, "nile": 1})
    third = Fraction(1, 3)
    assert C.tiles_before_ra(s) == {0: third, 1: third, 2: third}  # the Ra tile is equally likely 1st, 2nd, 3rd
    assert C.tiles_before_ra(s, cap=1) == {0: third, 1: 2 * third}
    assert C.expected_tiles_before_ra(s) == 1
    s = position({"ra": 2, "gold": 1, "nile": 1})
    assert C.tiles_before_ra(s) == {0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)}
    assert C.expected_tiles_before_ra(s) == Fraction(2, 3)


def test_tiles_before_ra_without_ra_in_the_bag() -> None:
    s = position({"gold": 2, "nile": 3})
    assert C.tiles_before_ra(s) == {5: 1}
    assert C.tiles_before_ra(s, cap=3) == {3: 1}
    assert C.expected_tiles_before_ra(s) == 5
    with pytest.raises(ValueError, match="cap"):
        C.tiles_before_ra(s, cap=-1)


def test_tiles_before_ra_monte_carlo(mid: State) -> None:
    rng = random.Random(12)
    samples = [position_of_ra(mid.bag, rng, 1) - 1 for _ in range(N)]
    law = C.tiles_before_ra(mid)
    assert_law_matches(law, samples)
    assert C.expectation(law) == C.expected_tiles_before_ra(mid)
    assert_mean_matches(C.expected_tiles_before_ra(mid), samples)
    cap = C.free_slots(mid)
    assert_law_matches(C.tiles_before_ra(mid, cap=cap), [min(k, cap) for k in samples])


def drawn_until_ra_or_full(state: State, rng: random.Random) -> list[Tile]:
    """Draw with the engine (everybody draws on) until a Ra tile or a full track; return the tiles placed."""
    placed = []
    while None in state.track:
        state = state.apply(Draw())
        reveal = sample_chance(state, rng)
        state = state.apply(reveal)
        if revealed(reveal) is Tile.RA:
            break
        placed.append(revealed(reveal))
    return placed


def test_capped_tiles_before_ra_by_playing_the_engine(mid: State) -> None:
    """Draw with the engine until a Ra tile or a full track; count the tiles that went onto the track."""
    rng = random.Random(13)
    samples = [len(drawn_until_ra_or_full(mid, rng)) for _ in range(4000)]
    assert_law_matches(C.tiles_before_ra(mid, cap=C.free_slots(mid)), samples)


def test_tiles_in_next_lot_by_hand() -> None:
    """Gold before the one Ra tile half the time; with two golds the count is K itself; Ra never counts."""
    s = position({"ra": 1, "gold": 1, "nile": 1})
    assert C.tiles_in_next_lot(s, Tile.GOLD) == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert C.tiles_in_next_lot(s, [Tile.GOLD, Tile.NILE]) == C.tiles_before_ra(s)
    assert C.tiles_in_next_lot(s, lambda t: True) == C.tiles_before_ra(s)  # a predicate; Ra tiles excluded
    assert C.tiles_in_next_lot(s, Tile.RA) == {0: 1} and C.tiles_in_next_lot(s, Tile.FUNERAL) == {0: 1}
    two = position({"ra": 1, "gold": 2})
    third = Fraction(1, 3)
    assert C.tiles_in_next_lot(two, Tile.GOLD, cap=1) == {0: third, 1: 2 * third}
    # Disasters: ra, funeral, gold, gold. The funeral comes before the Ra tile half the time.
    assert C.tiles_in_next_lot(position({"ra": 1, "funeral": 1, "gold": 2}), DISASTERS) == {
        0: Fraction(1, 2),
        1: Fraction(1, 2),
    }


def test_tiles_in_next_lot_mean_is_the_share_of_the_mean(mid: State) -> None:
    """E[J] = E[K] * W / N: each non-Ra tile drawn is a wanted one with probability W / N."""
    bag = mid.bag
    others = sum(bag) - bag[Tile.RA]
    wanted = sum(bag[t] for t in DISASTERS)
    law = C.tiles_in_next_lot(mid, DISASTERS)
    assert sum(law.values()) == 1
    assert C.expectation(law) == C.expected_tiles_before_ra(mid) * Fraction(wanted, others)


def test_disasters_in_next_lot_by_playing_the_engine(mid: State) -> None:
    """Draw with the engine until a Ra tile or a full track; count the disasters that went onto the track."""
    rng = random.Random(14)
    samples = [sum(t.is_disaster for t in drawn_until_ra_or_full(mid, rng)) for _ in range(4000)]
    assert_law_matches(C.tiles_in_next_lot(mid, DISASTERS, cap=C.free_slots(mid)), samples)


# -- draws until the epoch ends --------------------------------------------------------------


def test_draws_until_epoch_end_by_hand() -> None:
    s = position({"ra": 1, "gold": 1, "nile": 1}, ra_count=7)  # 3 players: the 8th Ra tile ends the epoch
    assert C.ra_tiles_left(s) == 1
    assert C.draws_until_epoch_end(s) == {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}
    assert C.p_next_ends_epoch(s) == Fraction(1, 3)
    s = position({"ra": 2, "gold": 1, "nile": 1}, ra_count=6)
    assert C.ra_tiles_left(s) == 2
    # The second Ra tile is last of 4 in 3 of the 6 orders, third in 2, second in 1.
    assert C.draws_until_epoch_end(s) == {2: Fraction(1, 6), 3: Fraction(1, 3), 4: Fraction(1, 2)}
    assert C.expected_draws_until_epoch_end(s) == Fraction(10, 3)
    assert C.p_next_ends_epoch(s) == 0


def test_draws_until_epoch_end_needs_enough_ra_tiles() -> None:
    with pytest.raises(ValueError, match="needs 2 more Ra tiles but the bag holds 1"):
        C.draws_until_epoch_end(position({"ra": 1, "gold": 1}, ra_count=6))


def test_draws_until_epoch_end_monte_carlo(mid: State) -> None:
    rng = random.Random(14)
    m = C.ra_tiles_left(mid)
    samples = [position_of_ra(mid.bag, rng, m) for _ in range(N)]
    law = C.draws_until_epoch_end(mid)
    assert_law_matches(law, samples)
    assert C.expectation(law) == C.expected_draws_until_epoch_end(mid)
    assert_mean_matches(C.expected_draws_until_epoch_end(mid), samples)


def test_sample_draws_matches_the_exact_laws(mid: State) -> None:
    """The public sampler `sample_draws` is the experiment behind both laws."""
    rng = random.Random(15)
    before = [len(C.sample_draws(mid, rng)) - 1 for _ in range(N)]
    assert_law_matches(C.tiles_before_ra(mid), before)
    m = C.ra_tiles_left(mid)
    epoch = [len(C.sample_draws(mid, rng, ras=m)) for _ in range(N // 4)]
    assert_law_matches(C.draws_until_epoch_end(mid), epoch)


@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3, 4, 5]))
def test_laws_are_exact_and_have_the_closed_form_means(seed: int, players: int) -> None:
    s = midgame(seed % 50, players)
    before = C.tiles_before_ra(s)
    assert sum(before.values()) == 1 and all(p > 0 for p in before.values())
    assert C.expectation(before) == C.expected_tiles_before_ra(s)
    capped = C.tiles_before_ra(s, cap=C.free_slots(s))
    assert sum(capped.values()) == 1 and max(capped) <= C.free_slots(s)
    epoch = C.draws_until_epoch_end(s)
    assert sum(epoch.values()) == 1
    assert min(epoch) == C.ra_tiles_left(s) and max(epoch) == sum(s.bag) - s.bag[Tile.RA] + C.ra_tiles_left(s)
    assert C.expectation(epoch) == C.expected_draws_until_epoch_end(s)
    assert sum(C.next_tile_distribution(s).values()) == 1


# -- the lot after one more draw ---------------------------------------------------------------


def test_lot_value_after_draw_by_hand() -> None:
    s = position({"ra": 1, "gold": 1, "nile": 2}, track=["gold"])
    # Gold is worth 3 to anyone; a nile without a flood is worth nothing (R65, R67).
    assert lot_values(s) == (3, 3, 3)
    assert C.lot_value_after_draw(s, 0) == {3: Fraction(3, 4), 6: Fraction(1, 4)}
    assert C.expected_lot_values_after_draw(s) == (Fraction(15, 4),) * 3
    s = position({"ra": 1, "gold": 1, "nile": 2}, track=["gold"], ra_count=7)  # the Ra tile ends the epoch
    assert C.lot_value_after_draw(s, 0) == {0: Fraction(1, 4), 3: Fraction(1, 2), 6: Fraction(1, 4)}


def test_lot_value_after_draw_needs_a_free_slot() -> None:
    s = position({"ra": 1, "gold": 1}, track=["nile"] * 8)
    with pytest.raises(ValueError, match="full"):
        C.expected_lot_values_after_draw(s)


def engine_lot_value_after_draw(s: State, player: int, rng: random.Random) -> int:
    """Draw with the engine and value the outcome as the model says: 0 if the epoch ended."""
    after = s.apply(Draw())
    after = after.apply(sample_chance(after, rng))
    if after.epoch != s.epoch or after.is_terminal():
        return 0  # the epoch-ending Ra tile: the lot went to the box (R59)
    return lot_value(s, player, [t for t in after.track if t is not None])  # the auction's lot, or the bigger lot


@pytest.mark.parametrize("which", ["midgame", "last_ra"])
def test_lot_values_after_draw_monte_carlo(which: str) -> None:
    s = midgame() if which == "midgame" else last_ra()
    rng = random.Random(16)
    exact = C.expected_lot_values_after_draw(s)
    for player in range(s.num_players):
        samples = [engine_lot_value_after_draw(s, player, rng) for _ in range(N // 4)]
        assert_law_matches(C.lot_value_after_draw(s, player), samples)
        assert_mean_matches(exact[player], samples)


# -- draw or call --------------------------------------------------------------------------


def test_draw_or_call_by_hand() -> None:
    s = position({"ra": 1, "gold": 1}, track=["gold"])
    r = C.draw_or_call(s)
    assert (r.player, r.call, r.draw) == (0, Fraction(3), Fraction(9, 2))
    assert (r.p_ra, r.p_epoch_end) == (Fraction(1, 2), Fraction(0))
    assert r.best == "draw"
    r = C.draw_or_call(position({"ra": 1, "gold": 1}, track=["gold"], ra_count=7))
    assert r.call == r.draw == 3  # drawing: 1/2 * 0 (the epoch ends) + 1/2 * 6 (two golds)
    assert (r.p_epoch_end, r.best) == (Fraction(1, 2), "either")
    assert "model says: either" in str(r)


def test_draw_or_call_looking_two_draws_ahead_by_hand() -> None:
    s = position({"ra": 1, "gold": 2})
    assert C.draw_or_call(s).draw == 2  # 1/3: an auction for nothing; 2/3: one gold, then call
    # After a gold (bag: ra, gold) drawing again is worth 1/2 * 3 + 1/2 * 6 = 9/2 > 3.
    assert C.draw_or_call(s, horizon=2).draw == Fraction(2, 3) * Fraction(9, 2)


def test_draw_or_call_on_a_full_track_and_outside_a_turn() -> None:
    s = position({"ra": 1, "gold": 1}, track=["pharaoh"] * 5 + ["nile"] * 3)
    r = C.draw_or_call(s)
    assert r.draw is None and r.best == "call" and "not allowed" in str(r)
    with pytest.raises(ValueError, match="phase ACTION"):
        C.draw_or_call(s.apply("ra"))
    with pytest.raises(ValueError, match="horizon"):
        C.draw_or_call(s, horizon=0)


def test_draw_or_call_monte_carlo() -> None:
    """Horizon 1: draw with the engine, value the outcome for the mover; the mean is the model's draw value."""
    for s in (midgame(), last_ra()):
        r = C.draw_or_call(s)
        assert r.call == lot_value(s, s.turn_player)
        rng = random.Random(17)
        samples = [engine_lot_value_after_draw(s, s.turn_player, rng) for _ in range(N // 4)]
        assert r.draw is not None
        assert_mean_matches(r.draw, samples)
        assert r.p_ra == C.p_next_ra(s)


@pytest.mark.parametrize("which", ["midgame", "last_ra", "mixed"])
def test_draw_or_call_two_ahead_monte_carlo(which: str) -> None:
    """Horizon 2: play the model's own stopping rule with the engine; its mean value is the exact draw value."""
    s = {"midgame": midgame, "last_ra": last_ra, "mixed": mixed_decisions}[which]()
    mover = s.turn_player
    r = C.draw_or_call(s, horizon=2)
    assert r.draw is not None
    decisions: dict[tuple[Tile | None, ...], str] = {}
    rng = random.Random(18)
    samples = []
    for _ in range(N // 4):
        after = s.apply(Draw())
        after = after.apply(sample_chance(after, rng))
        if after.epoch != s.epoch or after.is_terminal():
            samples.append(0)
            continue
        lot = [t for t in after.track if t is not None]
        if after.phase is Phase.BID or None not in after.track:  # an auction on the lot, or a full track: stop
            samples.append(lot_value(s, mover, lot))
            continue
        here = after.replace(turn_player=mover, to_move=mover)  # the model ignores the other players' turns
        if after.track not in decisions:
            decisions[after.track] = C.draw_or_call(here).best
        if decisions[after.track] == "draw":
            samples.append(engine_lot_value_after_draw(here, mover, rng))
        else:
            samples.append(lot_value(s, mover, lot))
    if which == "mixed":
        assert set(decisions.values()) == {"call", "draw"}  # the second decision depends on the first tile
    assert_mean_matches(r.draw, samples)


@given(seed=st.integers(0, 30))
def test_looking_further_ahead_never_lowers_the_value(seed: int) -> None:
    s = midgame(seed)
    one, two = C.draw_or_call(s), C.draw_or_call(s, horizon=2)
    assert one.draw is not None and two.draw is not None
    assert two.draw >= one.draw and two.call == one.call
