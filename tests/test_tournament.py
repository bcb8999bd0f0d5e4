"""Tournaments: reproducible from one seed, the same on any executor, balanced seats, right intervals."""

from __future__ import annotations

import io
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

from ra_core.bots import heuristic_bot, random_bot
from ra_core.montecarlo import MonteCarloBot, greedy_bot
from ra_core.play import play
from ra_core.tournament import (
    TextProgress,
    bot_name,
    game_seeds,
    mean_interval,
    play_to_end,
    tournament,
    versus,
    wilson_interval,
)

# -- confidence intervals ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (50, 100, 0.4038, 0.5962),  # textbook values of the Wilson (1927) score interval
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 4, 0.0456, 0.6994),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_interval_known_values(wins: int, games: int, low: float, high: float) -> None:
    """The Wilson score interval at 95 % matches known values to 4 places."""
    lo, hi = wilson_interval(wins, games)
    assert lo == pytest.approx(low, abs=5e-5)
    assert hi == pytest.approx(high, abs=5e-5)


def test_wilson_interval_other_levels() -> None:
    """A higher confidence gives a wider interval; no games give [0, 1]."""
    lo90, hi90 = wilson_interval(30, 100, 0.90)
    lo99, hi99 = wilson_interval(30, 100, 0.99)
    assert lo99 < lo90 < 0.3 < hi90 < hi99
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_mean_interval_known_values() -> None:
    """mean +- 1.959964 * s / sqrt(n); s of 10, 12, 14, 16 is sqrt(20/3)."""
    mean, low, high = mean_interval([10, 12, 14, 16])
    half = 1.959963984540054 * (20 / 3) ** 0.5 / 2
    assert mean == 13.0
    assert (low, high) == pytest.approx((13 - half, 13 + half))
    assert mean_interval([5.0])[0] == 5.0


# -- seeds, seats and results -----------------------------------------------------------------


def test_game_seeds_come_from_the_master_seed() -> None:
    """The per-game seeds are a function of the master seed alone."""
    assert game_seeds(1, 5) == game_seeds(1, 5)
    assert game_seeds(1, 5) != game_seeds(2, 5)
    assert game_seeds(1, 3) == game_seeds(1, 5)[:3]
    assert all(0 <= s < 2**32 for s in game_seeds("x", 50))


def test_play_to_end_is_play() -> None:
    """The tournament's driver plays exactly the game `play` records."""
    bots = [heuristic_bot, random_bot, greedy_bot]
    for seed in range(3):
        assert play_to_end(bots, seed) == play(bots, seed=seed).replay()


def test_seats_rotate() -> None:
    """In a multi-bot table every bot sits in every seat equally often (games a multiple of k)."""
    result = tournament([random_bot, heuristic_bot, greedy_bot], players=4, games=6, seed=0, progress=False)
    seats = Counter((bot, seat) for g in result.games for seat, bot in enumerate(g.lineup))
    assert set(seats.values()) == {2}
    assert [s.seat_games for s in result.stats()] == [8, 8, 8]
    assert sum(s.wins for s in result.stats()) == 6


def test_versus_puts_one_candidate_in_each_seat() -> None:
    """In `versus` the candidate fills one seat a game, rotating; the field fills the rest."""
    result = versus(heuristic_bot, random_bot, players=3, games=6, seed=4, progress=False)
    assert [g.lineup.index(0) for g in result.games] == [0, 1, 2, 0, 1, 2]
    a, b = result.stats()
    assert (a.seat_games, b.seat_games) == (6, 12)
    assert a.baseline == pytest.approx(1 / 3)
    assert a.wins >= 5  # the heuristic bot crushes random bots
    assert "heuristic vs 2 x random_bot" in str(result)


def test_names() -> None:
    """Names come from ``name``, ``__name__`` or a mapping; repeats are numbered."""
    assert bot_name(random_bot) == "random_bot"
    assert bot_name(heuristic_bot) == "heuristic"
    result = tournament([random_bot, random_bot], players=2, games=2, seed=0, progress=False)
    assert result.names == ("random_bot", "random_bot#2")
    result = tournament({"a": random_bot, "b": greedy_bot}, players=2, games=2, seed=0, progress=False)
    assert result.names == ("a", "b")


# -- reproducibility and executors ------------------------------------------------------------

BOTS = [random_bot, heuristic_bot, MonteCarloBot(rollouts=2)]


def test_same_seed_same_table() -> None:
    """One master seed reproduces every game and the table."""
    first = tournament(BOTS, players=3, games=3, seed=9, progress=False)
    second = tournament(BOTS, players=3, games=3, seed=9, progress=False)
    assert first == second and str(first) == str(second)


def test_identical_whatever_the_executor() -> None:
    """No executor, a thread pool and a process pool give the same games, in the same order."""
    kwargs = {"players": 3, "games": 3, "seed": 2, "progress": False, "chunk_size": 1}
    here = tournament(BOTS, **kwargs)
    with ThreadPoolExecutor(2) as threads:
        assert tournament(BOTS, executor=threads, **kwargs) == here
    with ProcessPoolExecutor(2) as processes:
        assert tournament(BOTS, executor=processes, **kwargs) == here


def test_progress_reports_every_chunk() -> None:
    """A progress callback sees (done, total) after every chunk, ending at total."""
    calls: list[tuple[int, int]] = []
    tournament([random_bot], players=2, games=5, seed=0, chunk_size=2, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(2, 5), (4, 5), (5, 5)]


def test_text_progress_bar() -> None:
    """The text bar redraws in place and ends its line when done."""
    out = io.StringIO()
    bar = TextProgress(out, width=10)
    bar(5, 10)
    bar(10, 10)
    text = out.getvalue()
    assert "[#####-----] 5/10 games" in text
    assert text.endswith("\n") and "[##########] 10/10" in text


def test_default_progress_is_silent_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    """Without a terminal on stderr, the default shows nothing."""
    tournament([random_bot], players=2, games=2, seed=0)
    assert capsys.readouterr().err == ""


def test_table_html() -> None:
    """Notebooks get an HTML table with the intervals."""
    html = tournament([random_bot, heuristic_bot], players=2, games=2, seed=0, progress=False)._repr_html_()
    assert html.count("<tr>") == 3 and "Wilson" in html
