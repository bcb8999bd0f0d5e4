"""The command line: `python -m ra_core` plays a seeded bot game and prints it move by move."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ra_core.__main__ import main


@pytest.mark.parametrize("players", [2, 5])
def test_cli_prints_a_seeded_game(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    """Each step is printed with its notation and plain words; the same seed prints the same game."""
    assert main(["--players", str(players), "--seed", "4", "--quiet"]) == 0
    first = capsys.readouterr().out
    assert "   1. P" in first and "draws a tile" in first and "\nwinner: P" in first
    main(["--players", str(players), "--seed", "4", "--quiet"])
    assert capsys.readouterr().out == first


def test_cli_shows_boards_and_random_bots(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --quiet the board is shown at the start and after each auction."""
    main(["--players", "3", "--seed", "1", "--bot", "random"])
    out = capsys.readouterr().out
    assert out.count("auction track:") > 3 and "Rules 'classic' for 3 players" in out


def answers(*lines: str) -> Callable[[str], str]:
    """Return an `input` stand-in that gives `lines` in turn, then the end of the input."""
    queue = list(lines)

    def ask(prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    return ask


def test_play_a_seat_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    """--you 0: every decision of seat 0 is asked for; always taking choice 1 plays a whole game."""
    assert main(["--players", "2", "--seed", "3", "--you", "0"], ask=lambda prompt: "1") == 0
    out = capsys.readouterr().out
    assert out.count("Your choices: 1) ") > 10 and "\nwinner: P" in out and "epoch 3/3" in out
    main(["--players", "2", "--seed", "3", "--you", "0"], ask=lambda prompt: "1")
    assert capsys.readouterr().out == out  # the same seed and answers, the same game


def test_play_a_seat_explains_bad_input_and_stops(capsys: pytest.CaptureFixture[str]) -> None:
    """A wrong number, text that is no action or not legal, and blank lines get a message; quit stops."""
    ask = answers("9", "bid 99", "bid 13", "board", "", "draw", "quit")
    assert main(["--players", "3", "--seed", "2", "--you", "1"], ask=ask) == 0
    out = capsys.readouterr().out
    assert "There are 2 choices: type 1 to 2." in out
    assert "cannot parse 'bid 99'" in out and "bid 13 is not legal for player 1 in phase ACTION" in out
    assert "Type the number of a choice" in out and "P1: " in out and "P1 draws a tile" in out
    assert out.rstrip().endswith("Game stopped.") and "winner" not in out
    assert main(["--players", "3", "--seed", "2", "--you", "1"], ask=answers()) == 0  # end of input: stops
    assert capsys.readouterr().out.rstrip().endswith("Game stopped.")


def test_play_a_seat_that_does_not_exist() -> None:
    with pytest.raises(SystemExit) as info:
        main(["--players", "3", "--you", "3"])
    assert info.value.code == 2
