"""Step through a game record: first, back, forward, last, or any step, with the decision taken.

Standard library only; the ipywidgets view in `views` only calls it. A malformed record or a
step that is no whole number sets `message` and changes nothing.
"""

from __future__ import annotations

from typing import Any

from ..engine.actions import parse_action
from ..engine.errors import InvalidStateError
from ..engine.setup import new_game
from ..engine.state import State
from ..pictures import svg, words
from ..pictures.narrate import narrate
from ..play import GameRecord
from .inputs import whole_number

__all__ = ["ReplayController"]


class ReplayController:
    """Step through a game record: first, back, forward, last, or any step.

    Args:
        record: a `GameRecord`, its JSON text, or anything with a ``record()`` method
            (a `TableController`).
    """

    def __init__(self, record: GameRecord | str | Any) -> None:
        self.message = ""
        empty = _empty_start()
        self.states: list[State] = [empty]
        self.record = GameRecord(empty.rules, tuple(p.suns_up for p in empty.players))
        self.index = 0
        if not self.load(record):
            self.message = f"Could not read that record: {self.message}"

    @property
    def names(self) -> tuple[str, ...]:
        """Return the players' names as shown: a seat's own name ("P0") is not repeated ("P0 (P0)")."""
        return tuple("" if name == f"P{i}" else name for i, name in enumerate(self.record.names))

    def load(self, record: GameRecord | str | Any) -> bool:
        """Load a record (or its JSON); a malformed one sets `message` and changes nothing."""
        try:
            if isinstance(record, (str, bytes, bytearray)):
                record = GameRecord.from_json(record)
            elif isinstance(record, dict):
                record = GameRecord.from_dict(record)
            elif not isinstance(record, GameRecord) and hasattr(record, "record"):
                record = record.record()
            if not isinstance(record, GameRecord):
                raise InvalidStateError("record", f"expected a GameRecord or its JSON, got {type(record).__name__}")
            states = list(record.states())
        except ValueError as e:
            self.message = str(e)[:300]
            return False
        self.record, self.states, self.index, self.message = record, states, 0, ""
        return True

    @property
    def last(self) -> int:
        """Return the index of the final position (the number of actions)."""
        return len(self.states) - 1

    @property
    def state(self) -> State:
        """Return the position shown."""
        return self.states[self.index]

    def go(self, index: int) -> bool:
        """Show position `index` (clamped to 0..last); anything but a whole number sets `message`."""
        self.message = ""
        try:
            index = whole_number(index, "the step", -(2**63), 2**63)
        except ValueError as e:
            self.message = f"Not changed: {e}."
            return False
        self.index = max(0, min(self.last, index))
        return True

    def first(self) -> None:
        """Show the start."""
        self.go(0)

    def back(self) -> None:
        """Show the position one action earlier."""
        self.go(self.index - 1)

    def forward(self) -> None:
        """Show the position one action later."""
        self.go(self.index + 1)

    def end(self) -> None:
        """Show the final position."""
        self.go(self.last)

    def decision(self) -> str:
        """Return the decision taken at the position shown: who, the options, the choice."""
        s, i = self.state, self.index
        head = f"Step {i} of {self.last}."
        if i == self.last:
            return head + (" The game is over." if s.is_terminal() else " The end of the record.")
        action = self.record.actions[i]
        after = self.states[i + 1]
        if s.is_chance_node():
            tile = parse_action(action).tile  # type: ignore[union-attr]
            total = sum(s.bag)
            odds = f"{s.bag[tile]} of {total} tiles"
            told = narrate(s, action, after, names=self.names)
            return f"{head} Chance: a tile comes out of the bag; it is {words.tile_name(tile)} ({odds}). {told}"
        options = ", ".join(str(a) for a in s.legal_actions())
        told = narrate(s, action, after, names=self.names)
        who = words.player_name(s.to_move, (), self.names)
        return f"{head} {who} decides among: {options}. Chosen: {action}. {told}"

    def board_html(self) -> str:
        """Return the board at the position shown."""
        return svg.html(self.state, names=self.names)

    def text(self) -> str:
        """Return the position and the decision as plain text."""
        lines = words.facts(self.state, names=self.names) + [self.decision()]
        if self.message:
            lines.append(f"Message: {self.message}")
        return "\n".join(lines)


def _empty_start() -> State:
    return new_game(3, suns="table")
