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
    common_value_worth,
    equilibrium_bid,
    expected_revenue,
    first_price_revenue,
    implied_rho,
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
    assert equilibrium_bid("first", value, n, law, rho=r) > equilibrium_bid("first", value, n, law)
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


@pytest.mark.parametrize("law", [Uniform(0, 100), Power(2, 100)], ids=lambda x: x.describe())
def test_the_worth_given_the_highest_signal_holds_to_the_ends_of_the_range(law: Uniform | Power) -> None:
    """Simulated: V minus the stated worth of the highest signal averages 0 over every part of the signals'
    range (near the bottom, inside, near the top), as a conditional mean must. (Power(2) puts few worths near
    0: its bottom part is left out, and fewer draws keep its slower sums quick.)"""
    rng, n, noise = random.Random(11), 4, 10.0
    draws = 40_000 if isinstance(law, Uniform) else 8_000
    parts: dict[str, list[float]] = {"bottom": [], "inside": [], "top": []}
    for _ in range(draws):
        worth = law.quantile(rng.random())
        top = max(worth + noise * (2 * rng.random() - 1) for _ in range(n))
        part = "bottom" if top < law.low + noise else "top" if top > law.top - noise else "inside"
        parts[part].append(worth - common_value_worth(top, n, noise, law))
    for part, gaps in parts.items():
        if part == "bottom" and isinstance(law, Power):
            continue
        se = statistics.stdev(gaps) / math.sqrt(len(gaps))
        assert len(gaps) > 300 and abs(statistics.fmean(gaps)) < 4 * se
    inside = common_value_worth(50, n, noise, Uniform(0, 100))
    assert inside == pytest.approx(common_value_break_even(50, n, noise))
    assert common_value_worth(5, n, noise, Uniform(0, 100)) == pytest.approx(common_value_break_even(5, n, noise) + 4)


def test_the_common_value_equilibrium_is_a_best_reply_in_both_of_its_regions() -> None:
    """A bidder with signal x who bids b(z), the others bidding b: z = x is best (against a grid of z), below and
    above low + noise; his expected profit is an integral over the worth given his signal (Simpson's rule)."""
    low, high, noise, n = 0.0, 100.0, 10.0, 4

    def profit(x: float, z: float) -> float:
        lo, hi, bid = max(low, x - noise), min(high, x + noise), common_value_bid(z, n, noise, low)

        def gain(
            worth: float,
        ) -> float:  # the profit if the worth is `worth`, times the chance that all rivals' signals are below z
            return (worth - bid) * min(1.0, max(0.0, (z - worth + noise) / (2 * noise))) ** (n - 1)

        cuts = sorted({lo, hi, *(c for c in (z - noise, z + noise) if lo < c < hi)})
        total = 0.0
        for a, b in zip(cuts, cuts[1:], strict=False):  # Simpson's rule on each smooth piece
            h = (b - a) / 40
            total += h / 3 * sum((1 if k in (0, 40) else 4 if k % 2 else 2) * gain(a + k * h) for k in range(41))
        return total / (hi - lo)

    for x in (-5.0, 3.0, 9.0, 12.0, 50.0, 85.0):
        others = [profit(x, x + d / 10) for d in range(-20, 21) if d and x + d / 10 >= low - noise]
        assert profit(x, x) >= max(others) - 1e-6  # no other bid does better (near low - noise, all earn about 0)
    assert common_value_bid(10.0, n, noise, low) == pytest.approx(4.0)  # the two regions meet: low + 2 noise/(n+1)
    with pytest.raises(ValueError, match="at least at low - noise"):
        common_value_bid(-11.0, n, noise, low)


@pytest.mark.parametrize("law", LAWS, ids=lambda x: x.describe())
def test_first_price_revenue_with_risk_aversion_and_the_r_a_slope_implies(law: Uniform | Power) -> None:
    rng, n, draws, r = random.Random(5), 4, 20_000, 0.5
    paid = [
        equilibrium_bid("first", max(law.quantile(rng.random()) for _ in range(n)), n, law, rho=r) for _ in range(draws)
    ]
    se = statistics.stdev(paid) / math.sqrt(draws)
    assert abs(statistics.fmean(paid) - first_price_revenue(n, law, r)) < 4 * se
    assert first_price_revenue(n, law) == pytest.approx(expected_revenue(n, law))
    for rho in (0.3, 1.0, 2.0):  # rho above 1: a risk-loving bidder, who shades more
        assert implied_rho(shading(n, law, rho), n, law) == pytest.approx(rho)
    assert math.isnan(implied_rho(1.0, n, law)) and implied_rho(0.0, n, law) == math.inf


def test_second_price_is_truthful_and_bad_arguments_are_named() -> None:
    assert equilibrium_bid("second", 37.5, 5, Uniform()) == 37.5
    with pytest.raises(ValueError, match="kind must be"):
        equilibrium_bid("dutch", 1, 2, Uniform())
    with pytest.raises(ValueError, match="risk-neutral"):
        equilibrium_bid("allpay", 1, 2, Uniform(), rho=0.5)
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
