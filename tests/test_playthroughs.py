"""Golden playthroughs: seeded games must replay exactly as recorded in tests/golden.

When a change alters them on purpose, regenerate with
``python -m tests.playthrough --players N --seed 1 > tests/golden/Np-seed-1.txt`` and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.playthrough import playthrough

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_golden_playthrough(players: int) -> None:
    """The seed-1 game for each player count is unchanged, action by action and board by board."""
    expected = (GOLDEN / f"{players}p-seed-1.txt").read_text()
    assert playthrough(players, 1) + "\n" == expected
