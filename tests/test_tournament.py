"""Tournaments: reproducible from one seed, the same on any executor, balanced seats, right intervals."""

from __future__ import annotations

import io
import multiprocessing
import pickle
import random
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from ra_core import Action, Bid, IllegalActionError, State, new_game
from ra_core.__main__ import tournament_main as main
from ra_core.analysis.progress import no_progress, progress_bar
from ra_core.analysis.tournament import (
    NamedBot,
    bot_name,
    game_seeds,
    load_bot,
    mean_interval,
    play_to_end,
    tournament,
    versus,
    wilson_interval,
)
from ra_core.bots import greedy_bot, heuristic_bot, random_bot
from ra_core.bots.montecarlo import MonteCarloBot
from ra_core.engine.errors import BotError
from ra_core.play import Policy, play_game

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
    bots: list[Policy] = [heuristic_bot, random_bot, greedy_bot]
    for seed in range(3):
        assert play_to_end(bots, seed) == play_game(bots, seed=seed).replay()


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

BOTS: list[Policy] = [random_bot, heuristic_bot, MonteCarloBot(rollouts=2)]


def test_same_seed_same_table() -> None:
    """One master seed reproduces every game and the table."""
    first = tournament(BOTS, players=3, games=3, seed=9, progress=False)
    second = tournament(BOTS, players=3, games=3, seed=9, progress=False)
    assert first == second and str(first) == str(second)


def test_identical_whatever_the_executor() -> None:
    """No executor, a thread pool and a process pool give the same games, in the same order."""
    kwargs: dict[str, Any] = {"players": 3, "games": 3, "seed": 2, "progress": False, "chunk_size": 1}
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


def test_progress_bar_is_tqdm_and_ends_full() -> None:
    """The bar (tqdm) counts the games and ends at the total."""
    out = io.StringIO()
    update = progress_bar(True, file=out)
    tournament([random_bot], players=2, games=4, seed=0, chunk_size=2, progress=update)
    text = out.getvalue()
    assert "0/4" in text and "4/4" in text and "game/s" in text


def test_no_tqdm_means_no_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """tqdm is optional: without it a tournament runs with no bar."""
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    assert progress_bar(True) is no_progress
    assert len(tournament([random_bot], players=2, games=2, seed=0, progress=True).games) == 2


def test_default_progress_is_silent_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    """Without a terminal on stderr, the default shows nothing."""
    tournament([random_bot], players=2, games=2, seed=0)
    assert capsys.readouterr().err == ""


def test_table_html() -> None:
    """Notebooks get an HTML table with the intervals."""
    html = tournament([random_bot, heuristic_bot], players=2, games=2, seed=0, progress=False)._repr_html_()
    assert html.count("<tr>") == 3 and "Wilson" in html


# -- students' bots: loading them, and a bot that fails ------------------------------------------


def overbidder(state: State, rng: random.Random) -> Action | str:
    """A broken bot: bids a sun nobody has whenever it may bid."""
    legal = state.legal_actions()
    return "bid 16" if any(isinstance(a, Bid) for a in legal) else legal[0]


def crasher(state: State, rng: random.Random) -> Action:
    """A broken bot: divides by zero at its first auction."""
    if state.auction is not None:
        return state.legal_actions()[1 // 0]
    return state.legal_actions()[0]


def test_a_bot_that_chooses_an_illegal_action_is_named() -> None:
    """The error names the bot, its seat, the game's seed and the move; the engine's error is the cause."""
    with pytest.raises(BotError) as info:
        tournament([overbidder, random_bot], players=3, games=4, seed=1, progress=False)
    err = info.value
    assert err.bot == "overbidder" and err.seed in game_seeds(1, 4) and err.move > 0
    assert str(err).startswith(f"bot 'overbidder' (seat {err.seat}) chose an illegal action in the game with seed")
    assert "bid 16 is not legal" in str(err) and isinstance(err.__cause__, IllegalActionError)
    with ProcessPoolExecutor(1) as processes, pytest.raises(BotError) as remote:  # the same, from a worker
        tournament([overbidder, random_bot], players=3, games=4, seed=1, progress=False, executor=processes)
    assert (remote.value.bot, remote.value.seat, remote.value.seed, remote.value.move, str(remote.value)) == (
        err.bot,
        err.seat,
        err.seed,
        err.move,
        str(err),
    )


def test_a_bot_that_raises_is_named() -> None:
    """A bot's own exception becomes a BotError saying what it raised, where; `play` does the same."""
    with pytest.raises(BotError, match=r"bot 'crasher' \(seat 0\) raised ZeroDivisionError in the game with seed 5"):
        play_game([crasher, random_bot], seed=5)
    with pytest.raises(BotError, match="phase BID") as info:
        play_game([crasher, random_bot], seed=5)
    assert isinstance(info.value.__cause__, ZeroDivisionError)


def test_load_bot_from_a_file_a_module_or_a_class(tmp_path: Path) -> None:
    """FILE.py:NAME is shown under the file's name; MODULE:NAME as itself; a class is instantiated."""
    (tmp_path / "alice.py").write_text("from ra_core.bots import heuristic_bot as my_bot\n")
    alice = load_bot(f"{tmp_path / 'alice.py'}:my_bot")
    assert isinstance(alice, NamedBot) and bot_name(alice) == "alice"
    assert load_bot("ra_core.bots:random_bot") is random_bot
    assert isinstance(load_bot("ra_core.bots.montecarlo:MonteCarloBot"), MonteCarloBot)
    state = new_game(3, seed=1)
    assert alice(state, random.Random(1)) == heuristic_bot(state, random.Random(1))
    copy = pickle.loads(pickle.dumps(alice))  # loaded again from the file, as a pool's worker does
    assert copy == alice and bot_name(copy) == "alice"
    kwargs: dict[str, Any] = {"players": 3, "games": 4, "seed": 3, "progress": False}
    here = tournament([alice, random_bot], **kwargs)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as spawned:  # no fork to rely on
        assert tournament([alice, random_bot], executor=spawned, **kwargs) == here


def test_load_bot_says_what_is_wrong(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("import nonexistent_module\n")
    (tmp_path / "bob.py").write_text("def my_bot(state, rng):\n    return 'pass'\n\nLEVEL = 3\n")
    for spec, message in [
        ("bob.py", "expected FILE.py:NAME or MODULE:NAME"),
        (f"{tmp_path / 'carol.py'}:my_bot", "no file"),
        (f"{tmp_path / 'bob.py'}:bot", "has no 'bot'; it has: my_bot"),
        (f"{tmp_path / 'bob.py'}:LEVEL", "LEVEL is not a function or a class"),
        (f"{tmp_path / 'broken.py'}:my_bot", "importing .* failed: ModuleNotFoundError"),
        ("no_such_module:bot", "importing no_such_module failed"),
    ]:
        with pytest.raises(ValueError, match=message):
            load_bot(spec)


def test_class_tournament_from_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Students' files play the built-in bots; a failing bot stops the run with one clear line."""
    monkeypatch.chdir(tmp_path)
    Path("alice.py").write_text(
        "from ra_core.bots import heuristic_bot\n\ndef my_bot(state, rng):\n    return heuristic_bot(state, rng)\n"
    )
    Path("bob.py").write_text("def my_bot(state, rng):\n    return 'bid 16' if state.auction else 'draw'\n")
    assert main(["alice.py:my_bot", "random", "--players", "3", "--games", "6"]) == 0
    table = capsys.readouterr().out
    assert "alice / random_bot" in table and "\nalice " in table
    assert main(["alice.py:my_bot", "bob.py:my_bot", "--players", "3", "--games", "6"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("python -m ra_core tournament: error: bot 'bob' (seat ") and "Traceback" not in err
    with pytest.raises(SystemExit) as exit_info:
        main(["carol.py:my_bot", "random"])
    assert exit_info.value.code == 2 and "'carol.py:my_bot': no file carol.py" in capsys.readouterr().err
