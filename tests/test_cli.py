"""The command line: `python -m ra_core` plays a seeded bot game and prints it move by move."""

from __future__ import annotations

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
