"""The Ra kind: Ra tables, played move by move (see `ra_classroom.game` and the store's `table_moves`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Kind

if TYPE_CHECKING:
    from .spec import RoundSpec

__all__ = ["RA", "RaTables"]


class RaTables(Kind):
    """Ra at tables of 3 to 5; bots fill empty seats; no deadline (the teacher closes the round)."""

    name = "ra"
    title = "Ra tables"
    play = "tables"
    sizes = (3, 5)
    size_word = "players per Ra table"
    deadline = False
    simple = False

    def rules(self, spec: RoundSpec) -> str:
        """Return what students are told: the table's size, bots, and how to play."""
        return (
            f"Ra, at tables of {spec.group_size}: bots fill the empty seats. Click on the board to play"
            " when it is your turn."
        )


RA = RaTables()
