"""What the deciding player may click on the game table, and what is selected so far.

`Controls` is the table's state between clicks (a god chosen, tiles picked to lose) over the
legal actions; it words the prompt ("Your move: ...") and where to click, in the same words in
the notebook and the classroom. The pieces that carry the clicks are drawn by
`ra_core.pictures.clickable`.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from ..engine.actions import Action, Bid, CallRa, Discard, Done, Draw, Pass, UseGod
from ..engine.tiles import Tile
from .narrate import join, tiles_words

__all__ = ["Controls"]


class Controls(NamedTuple):
    """What the deciding player may click on the board (the game table), and what is selected.

    Attributes:
        actions: the legal actions of the seat that decides now (one of the table's humans).
        god: whether a god tile is chosen, so that the auction slots take a click (R26).
        picked: the tiles selected so far to lose to a disaster (R53), in tile order.
        last: the seat and text of the move just made by another player (a bot), which the
            board marks: a ring around the sun bid or the slot filled, and words by the name.
    """

    actions: tuple[Action, ...]
    god: bool = False
    picked: tuple[Tile, ...] = ()
    last: tuple[int, str] | None = None  # another player's last move (seat, action text), to highlight

    def just_did(self, seat: int) -> str:
        """Return the action `seat` just made, if it is the move to highlight, else ""."""
        return self.last[1] if self.last is not None and self.last[0] == seat else ""

    def discards(self) -> list[tuple[Tile, ...]]:
        """Return the legal sets of tiles to lose that contain everything picked so far."""
        picked = Counter(self.picked)
        return [a.tiles for a in self.actions if isinstance(a, Discard) and not picked - Counter(a.tiles)]

    def can_pick(self, tile: Tile) -> bool:
        """Return whether one more `tile` can join the picked tiles in a legal loss."""
        return bool(self._replace(picked=tuple(sorted((*self.picked, tile)))).discards())

    def chosen(self) -> Discard | None:
        """Return the discard that the picked tiles make, if it is a legal one."""
        return next((a for a in self.actions if isinstance(a, Discard) and a.tiles == self.picked), None)

    def prompt(self) -> str:
        """Return what the deciding player may do now, naming only the legal choices and the step in progress.

        The status line of the notebook's table says it after "Your move: ": a god chosen waits
        for its slot, tiles picked to lose wait for Confirm, and "or pass" appears only when
        passing is legal (the Ra caller must bid when everybody else has passed, R40).
        """
        kinds = {type(a) for a in self.actions}
        if self.god:
            return "take a tile from the auction track with your god (or click your god tile again to cancel)"
        if Discard in kinds:
            if not self.picked:
                return "choose which tiles to lose"
            chosen = join(tiles_words(self.picked))
            return f"lose {chosen}: click Confirm" if self.chosen() else f"lose {chosen} and more: choose the rest"
        ways = [
            w
            for kind, w in (
                (Draw, "draw a tile"),
                (CallRa, "call Ra"),
                (UseGod, "use a god"),
                (Bid, "bid one of your face-up suns"),
                (Pass, "pass"),
                (Done, "be done"),
            )
            if kind in kinds
        ]
        if UseGod in kinds and Done in kinds:
            ways = ["use another god", "be done"]
        if Bid in kinds and Pass not in kinds:
            return "bid one of your face-up suns (you called Ra and everybody passed: you must bid)"
        if len(ways) > 2:
            return ", ".join(ways[:-1]) + ", or " + ways[-1]
        return " or ".join(ways)

    def hint(self) -> str:
        """Return where to click for each of the legal actions, as one sentence ("" if none).

        The notebook's board and the classroom's page say it in the same words.
        """
        kinds = {type(a) for a in self.actions}
        ways = []
        if Draw in kinds:
            ways.append("the bag to draw a tile")
        if CallRa in kinds:
            ways.append("the Ra statue to call Ra")
        if UseGod in kinds:
            ways.append("a tile on the auction track to take it" if self.god else "your god tile, then a slot")
        if Bid in kinds:
            ways.append("one of your framed suns to bid it")
        if Pass in kinds:
            ways.append("Pass")
        if Done in kinds:
            ways.append("Done to end your turn")
        if Discard in kinds:
            ways.append("Confirm" if self.chosen() else "the tiles you choose to lose, then Confirm")
        if not ways:
            return ""
        return "Click " + (", ".join(ways[:-1]) + ", or " + ways[-1] if len(ways) > 1 else ways[0]) + "."
