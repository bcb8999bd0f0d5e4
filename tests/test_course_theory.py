"""The exact theory behind notebooks 15-17 and sheet 6 (`ra_course.affiliated`, `multiunit`, `sequential`,
`price_path`): each formula against an independent computation, each error named."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path

import pytest

from ra_core import new_game
from ra_core.bots import heuristic_bot
from ra_core.play import play_game
from ra_course import affiliated, multiunit, sequential
from ra_course.price_path import changes, class_tables, record_sales, sales


def simpson(f: Callable[[float], float], a: float, b: float, steps: int = 2000) -> float:
    h = (b - a) / steps
    return h / 3 * (f(a) + f(b) + math.fsum((4 if i % 2 else 2) * f(a + i * h) for i in range(1, steps)))


# -- affiliated values ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_second_price_bid_is_the_value_given_a_tie_with_the_highest_rival(n: int) -> None:
    # Given s_1 = s_(2) = s and the others below: V has density prop. to (s + e - V)^(n-2) on [s-e, s+e].
    s, e = 0.3, 1.0
    weight = simpson(lambda v: (s + e - v) ** (n - 2), s - e, s + e)
    mean = simpson(lambda v: v * (s + e - v) ** (n - 2), s - e, s + e) / weight
    assert affiliated.second_price_bid(s, n, e) == pytest.approx(mean, abs=1e-9)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_first_price_best_reply_is_the_estimate_minus_e(n: int) -> None:
    gains = {z / 100: affiliated.first_price_gain(z / 100, n, 1.0) for z in range(-40, 41)}
    assert max(gains, key=gains.__getitem__) == 0.0


def test_the_rents_are_the_order_statistics_means_and_rank_the_formats() -> None:
    for n in range(2, 9):
        english, second, first = (affiliated.rent(kind, n) for kind in affiliated.FORMATS)
        assert (english, second, first) == (Fraction(1, n + 1), Fraction(2 * (n - 1), n * (n + 1)), Fraction(2, n + 1))
        assert english <= second <= first and (english == second) == (n == 2)


def test_prices_follow_the_equilibrium_bids() -> None:
    english, second, first = affiliated.prices([0.5, 2.0, -1.0, 1.0], e=1.0)
    assert (english, second, first) == (0.0, 0.5, 1.0)  # (1 + -1)/2; 1 - 2/4; 2 - 1


def test_the_entry_estimate_breaks_even_when_winning_alone() -> None:
    n, e, r = 4, 1.0, 2.0
    s = affiliated.entry_signal(r, n, e)
    weight = simpson(lambda v: (s + e - v) ** (n - 1), s - e, s + e)
    assert simpson(lambda v: (v - r) * (s + e - v) ** (n - 1), s - e, s + e) / weight == pytest.approx(0, abs=1e-9)


def test_bad_inputs_are_named() -> None:
    with pytest.raises(ValueError, match="no format"):
        affiliated.rent("Dutch", 3)
    with pytest.raises(ValueError, match="at least 2 bidders"):
        affiliated.prices([1.0], e=1.0)
    with pytest.raises(ValueError, match="k-th highest"):
        affiliated.order_mean(4, 3)


# -- multi-unit auctions ----------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "k"), [(3, 1), (4, 2), (5, 2), (6, 4)])
def test_pay_as_bid_raises_the_uniform_price_revenue(n: int, k: int) -> None:
    # n E[b(v) G(v)] over uniform v: revenue equivalence.
    revenue = n * simpson(lambda v: multiunit.pay_as_bid_bid(v, n, k) * multiunit.binomial_tail(n - 1, v, n - k), 0, 1)
    assert revenue == pytest.approx(float(multiunit.uniform_price_revenue(n, k)), abs=1e-9)


@pytest.mark.parametrize(("n", "k"), [(4, 2), (5, 3)])
def test_pay_as_bid_bid_is_the_conditional_mean_of_y_k(n: int, k: int) -> None:
    v = 0.7

    def density(y: float) -> float:
        return math.comb(n - 2, k - 1) * (n - 1) * y ** (n - k - 1) * (1 - y) ** (k - 1)

    mean = simpson(lambda y: y * density(y), 0, v) / simpson(density, 0, v)
    assert multiunit.pay_as_bid_bid(v, n, k) == pytest.approx(mean, abs=1e-9)


def _vickrey_gain(own: Sequence[float], bids: Sequence[float], others: Sequence[Sequence[float]]) -> float:
    everyone = [bids, *others]
    won = multiunit.allocate(everyone, units=2)[0]
    return sum(own[:won]) - multiunit.vickrey_payments(everyone, units=2)[0]


def test_vickrey_payments_make_truthful_bidding_dominant() -> None:
    rng = random.Random(44)
    grid = [i / 10 for i in range(11)]
    for _ in range(40):
        values = [
            sorted((round(rng.random(), 2) for _ in range(2)), reverse=True),
            [round(rng.random(), 2)],
            [round(rng.random(), 2)],
        ]
        others = values[1:]

        truthful = _vickrey_gain(values[0], values[0], others)
        assert all(
            _vickrey_gain(values[0], sorted(b, reverse=True), others) <= truthful + 1e-12
            for b in itertools.product(grid, repeat=2)
        )


def test_vickrey_payments_are_the_displaced_bids() -> None:
    assert multiunit.vickrey_payments([[0.9, 0.8, 0.1], [0.5], [0.3], [0.2]], units=3) == [0.5, 0.3, 0.0, 0.0]
    assert multiunit.vickrey_payments([[0.9, 0.9], [0.4]], units=2) == [0.4, 0.0]
    assert multiunit.allocate([[0.5], [0.5]], units=1) == [1, 0]  # a tie goes to the earlier bidder


def test_demand_reduction_and_the_two_unit_example() -> None:
    for v in (0.2, 0.5, 0.9):
        gains = [multiunit.reduced_gain(v, b / 100 * v) for b in range(101)]
        assert max(range(101), key=gains.__getitem__) == 0
    # The exact revenues by a double integral over (v, s): the midpoint rule, off by O(1/n) at the diagonal.
    n = 300
    cells = [((i + 0.5) / n, (j + 0.5) / n) for i in range(n) for j in range(n)]
    vickrey = sum(s if v > s else v for v, s in cells) / len(cells)
    truthful = sum(2 * s if v > s else v for v, s in cells) / len(cells)
    example = multiunit.two_unit_example()
    assert vickrey == pytest.approx(float(example["Vickrey"]["revenue"]), abs=3e-3)
    assert truthful == pytest.approx(float(example["uniform, truthful"]["revenue"]), abs=3e-3)
    with pytest.raises(ValueError, match="b2 <= v"):
        multiunit.reduced_gain(0.5, 0.6)
    with pytest.raises(ValueError, match="k units"):
        multiunit.uniform_price_revenue(3, 3)


# -- sequential auctions ----------------------------------------------------------------------------


def test_sequential_prices_have_one_mean_and_no_drift() -> None:
    # Exactly: E[price_l] = (n-k)/(n-l) E[v_(l+1)] = (n-k)/(n+1) for every l, on a fine grid of all orderings.
    n, k = 4, 3
    for rnd in range(1, k + 1):
        mean_value = Fraction(n - rnd, n + 1)  # E[v_(rnd+1)] of n uniform values
        assert Fraction(n - k, n - rnd) * mean_value == sequential.expected_price(n, k)
    assert sequential.bid(0.7, n, k, k) == 0.7
    with pytest.raises(ValueError, match="rounds are 1 to"):
        sequential.bid(0.5, n, k, 4)


# -- Ra's price path --------------------------------------------------------------------------------


def test_sales_list_every_won_auction_with_its_value_and_place() -> None:
    record = play_game([heuristic_bot] * 3, seed=4)
    found = record_sales(record, game="g")
    won = [a for a in record.auctions() if a.winner is not None]
    assert [s.sun for s in found] == [a.sun for a in won] and [s.epoch for s in found] == [a.epoch for a in won]
    assert all(1 <= s.place <= s.held for s in found)
    assert {c.epoch for c in changes(found)} <= {1, 2, 3}


def test_class_tables_replay_the_classroom_database(tmp_path: Path) -> None:
    sqlalchemy = pytest.importorskip("sqlalchemy")
    from ra_classroom.store import schema

    path = tmp_path / "class.db"
    engine = sqlalchemy.create_engine(f"sqlite:///{path}")
    schema.metadata.create_all(engine)
    seed = "RA1:1:t0"
    start = new_game(3, seed=seed)
    record = play_game([heuristic_bot] * 3, seed=seed)
    assert new_game(3, seed=record.seed) == start
    moves, state = [], start
    for ply, action in enumerate(record.actions):
        moves.append(
            {
                "table_id": 1,
                "ply": ply,
                "seat": -1 if state.is_chance_node() else state.to_move,
                "action": action,
                "at": 0.0,
            }
        )
        state = state.apply(action)
    with engine.begin() as conn:
        conn.execute(schema.rooms.insert(), [{"code": "RA1", "seed": "x", "created_at": 0.0}])
        conn.execute(
            schema.students.insert(),
            [{"room": "RA1", "name": "Ann", "token_hash": "t", "joined_at": 0.0, "last_seen": 0.0}],
        )
        round_row = {"room": "RA1", "kind": "ra", "spec": "{}", "practice": False, "opened_at": 0.0}
        conn.execute(
            schema.rounds.insert(),
            [{**round_row, "number": 1, "status": "closed"}, {**round_row, "number": 2, "status": "void"}],
        )
        table_row = {"table_no": 0, "players": 3, "to_move": -1, "turn_since": 0.0}
        conn.execute(
            schema.tables.insert(),
            [
                {**table_row, "round_id": 1, "seed": seed, "ply": len(moves)},
                {**table_row, "round_id": 2, "seed": "RA1:2:t0", "ply": 0},
            ],
        )
        conn.execute(
            schema.seats.insert(),
            [
                {"table_id": 1, "seat": 0, "student_id": 1, "bot": False},
                {"table_id": 1, "seat": 1, "student_id": None, "bot": True},
                {"table_id": 1, "seat": 2, "student_id": None, "bot": True},
            ],
        )
        conn.execute(schema.moves.insert(), moves)
    engine.dispose()
    [table] = class_tables(path)  # the void round's table is left out
    assert table.label == "RA1 round 1 table 1" and table.students == frozenset({0})
    assert sales(table.start, table.actions, table.label, table.students) == record_sales(record, table.label, {0})
    with pytest.raises(FileNotFoundError, match="class.db"):
        class_tables(tmp_path / "missing.db")
