"""What the classroom tells the teacher theory predicts, checked against best replies and simulation.

The equilibrium bids are checked as best replies (a grid search over one bidder's bids, the
others bidding the equilibrium); revenue and the winner's curse by seeded simulation, within
4 standard errors (a correct formula fails that with probability 0.006 %).
"""

from __future__ import annotations

import math
import random
import statistics

import pytest

from ra_classroom.auctions.laws import Power, Uniform, law_from_dict
from ra_classroom.auctions.theory import (
    common_value_bid,
    common_value_break_even,
    equilibrium_bid,
    expected_revenue,
    shading,
)

LAWS: list[Uniform | Power] = [Uniform(0, 100), Uniform(20, 60), Power(2, 100), Power(0.5, 10)]


def best_reply(kind: str, value: float, n: int, law: Uniform | Power) -> float:
    """Return the bid (to 1/1000 of the value) that maximises a bidder's expected payoff, the others in equilibrium."""

    def win(b: float) -> float:  # the chance that all n-1 others bid below b: F(beta^-1(b))^(n-1), beta increasing
        lo, hi = law.low, law.top
        if equilibrium_bid(kind, hi, n, law) <= b:
            return 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if equilibrium_bid(kind, mid, n, law) <= b else (lo, mid)
        return float(law.cdf(lo) ** (n - 1))

    def payoff(b: float) -> float:
        return value * win(b) - b if kind == "allpay" else (value - b) * win(b)

    return max((value * i / 1000 for i in range(1001)), key=payoff)  # nobody bids above his value


@pytest.mark.parametrize("law", LAWS, ids=lambda x: x.describe())
@pytest.mark.parametrize("n", [2, 4])
def test_the_first_price_and_all_pay_bids_are_best_replies(law: Uniform | Power, n: int) -> None:
    step = (law.top - law.low) / 200
    for value in (law.low + 0.3 * (law.top - law.low), law.low + 0.8 * (law.top - law.low)):
        for kind in ("first", "allpay"):
            assert best_reply(kind, value, n, law) == pytest.approx(equilibrium_bid(kind, value, n, law), abs=2 * step)


@pytest.mark.parametrize("r", [0.3, 0.7])
def test_risk_averse_bidders_bid_more_and_that_is_their_best_reply(r: float) -> None:
    law, n, value = Uniform(0, 100), 3, 70.0
    grid = [i / 4 for i in range(401)]
    s = shading(n, law, r)

    def utility(b: float) -> float:
        return float(max(0.0, value - b) ** r * min(1.0, b / (s * 100)) ** (n - 1))

    assert max(grid, key=utility) == pytest.approx(s * value, abs=0.5)
    assert equilibrium_bid("first", value, n, law, r=r) > equilibrium_bid("first", value, n, law)
    assert shading(n, law) == pytest.approx((n - 1) / n)


@pytest.mark.parametrize("law", LAWS, ids=lambda x: x.describe())
def test_expected_revenue_is_the_mean_second_highest_value(law: Uniform | Power) -> None:
    rng, n, draws = random.Random(7), 4, 20_000
    second = [sorted(law.quantile(rng.random()) for _ in range(n))[-2] for _ in range(draws)]
    se = statistics.stdev(second) / math.sqrt(draws)
    assert abs(statistics.fmean(second) - expected_revenue(n, law)) < 4 * se
    if isinstance(law, Uniform) and law.low == 0:
        assert expected_revenue(n, law) == pytest.approx((n - 1) / (n + 1) * law.high)


def test_the_winners_signal_overstates_the_common_value_as_stated() -> None:
    rng, n, noise = random.Random(3), 4, 10.0
    gaps: list[float] = []
    while len(gaps) < 20_000:
        worth = 100 * rng.random()
        top = max(worth + noise * (2 * rng.random() - 1) for _ in range(n))
        if 20 <= top <= 80:
            gaps.append(top - worth)
    se = statistics.stdev(gaps) / math.sqrt(len(gaps))
    assert abs(statistics.fmean(gaps) - (50 - common_value_break_even(50, n, noise))) < 4 * se
    assert common_value_bid(50, n, noise, 0) < common_value_break_even(50, n, noise)  # the equilibrium avoids the curse


def test_second_price_is_truthful_and_bad_arguments_are_named() -> None:
    assert equilibrium_bid("second", 37.5, 5, Uniform()) == 37.5
    with pytest.raises(ValueError, match="kind must be"):
        equilibrium_bid("dutch", 1, 2, Uniform())
    with pytest.raises(ValueError, match="risk-neutral"):
        equilibrium_bid("allpay", 1, 2, Uniform(), r=0.5)
    with pytest.raises(ValueError, match="at least 2"):
        expected_revenue(1, Uniform())


def test_laws_draw_in_their_range_and_read_back() -> None:
    rng = random.Random(1)
    for law in LAWS:
        draws = [law.draw(rng) for _ in range(2000)]
        assert law.low <= min(draws) and max(draws) <= law.top
        assert all(round(d, 2) == d for d in draws)
        assert law_from_dict(law.to_dict()) == law
        for u in (0.1, 0.5, 0.9):
            assert law.cdf(law.quantile(u)) == pytest.approx(u)
    assert sum(Power(3, 1).draw(rng) > 0.5 for _ in range(2000)) > 1600  # alpha 3: high values likelier (7/8)
    for bad, says in (
        ({"law": "normal"}, "'uniform' or 'power'"),
        ({"law": "uniform", "high": "100"}, "must be a number"),
        ({"law": "uniform", "high": float("nan")}, "must be a number"),
        ({"law": "uniform", "low": -1}, "0 <= low < high"),
        ({"law": "power", "alpha": 50}, "alpha must be between"),
        ({"law": "power", "low": 3}, "starts at 0"),
        ({"law": "uniform", "step": 0}, "step"),
        ({"law": "uniform", "mean": 3}, "unknown fields"),
        ("uniform", "expected an object"),
    ):
        with pytest.raises(ValueError, match=says):
            law_from_dict(bad)
