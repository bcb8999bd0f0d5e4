"""A Ra table of the classroom: its game, replayed from the moves stored, and what each seat sees.

The game is `ra_core`'s: every move is an action's text, chance included (``reveal gold``), so
the moves alone replay the table anywhere, in any server process. Chance and bots draw from
streams derived from the table's seed and the move's number, so whichever process makes an
automatic move makes the same one.

A seat sees the board drawn by `ra_core` (the same SVG as the notebooks), with its own legal
actions marked as clickable pieces when it decides, and the last moves in words. Ra hides
nothing (R74), so every seat sees the whole position.

>>> game = TableGame(3, "doc")             # seat 0 is a student's, seats 1 and 2 are bots'
>>> game.run_automatic(bots={1, 2})        # P1 starts: the bots play until the student decides
[(1, 'draw'), (-1, 'reveal flood'), (2, 'draw'), (-1, 'reveal astronomy')]
>>> game.play(0, "draw", bots={1, 2})[:2]
[(0, 'draw'), (-1, 'reveal step-pyramid')]
>>> game.view(0, ["Ann", "bot", "bot"], {1, 2}, live=True, sel=Selection())["choices"]
['pass', 'bid 4', 'bid 7', 'bid 10', 'bid 11']
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Collection, Sequence
from typing import Any

from ra_core import (
    IllegalActionError,
    InvalidActionError,
    State,
    Tile,
    UseGod,
    new_game,
    parse_action,
)

from .bridge import (
    Controls,
    facts,
    heuristic_bot,
    portrait_svg,
    sample_chance,
    scores_text,
    since_last_move,
    status_lines,
)

__all__ = ["CHANCE_SEAT", "Selection", "TableGame", "select"]

CHANCE_SEAT = -1  #: the seat recorded for a chance move (a tile drawn from the bag)
_RECENT = 6  # moves told in words beside the board: since the seat last decided


@dataclasses.dataclass(frozen=True)
class Selection:
    """A choice in progress on one seat's board: the god tile chosen, the tiles picked to lose.

    Held by the student's page and sent with each step, so that the server keeps nothing
    about it between messages.
    """

    god: bool = False
    picked: tuple[Tile, ...] = ()


class TableGame:
    """The game at one Ra table: every state, and every move as (seat, action text).

    Args:
        players: 3 to 5.
        seed: the table's seed: it deals the suns, draws the tiles and feeds the bots.
    """

    def __init__(self, players: int, seed: str) -> None:
        self.seed = seed
        self.states: list[State] = [new_game(players, seed=seed)]
        self.moves: list[tuple[int, str]] = []

    @property
    def state(self) -> State:
        """Return the position now."""
        return self.states[-1]

    def copy(self) -> TableGame:
        """Return a copy to make moves on (states are immutable: only the lists are copied)."""
        twin = TableGame.__new__(TableGame)
        twin.seed, twin.states, twin.moves = self.seed, list(self.states), list(self.moves)
        return twin

    @property
    def ply(self) -> int:
        """Return the number of moves made: the board's version."""
        return len(self.moves)

    def push(self, seat: int, text: str) -> None:
        """Make the stored move (seat, text); raise ValueError if it cannot be made."""
        expected = CHANCE_SEAT if self.state.is_chance_node() else self.state.to_move
        if seat != expected:
            raise ValueError(f"move {self.ply} ({text!r}) is by seat {seat}, but seat {expected} decides")
        self.states.append(self.state.apply(text))
        self.moves.append((seat, text))

    def _stream(self, purpose: str) -> random.Random:
        return random.Random(f"ra-classroom-table:{self.seed}:{purpose}:{self.ply}")

    def automatic_move(self, bots: Collection[int]) -> tuple[int, str] | None:
        """Return the next move if nobody needs to click: a tile from the bag, or a bot's decision."""
        s = self.state
        if s.is_terminal():
            return None
        if s.is_chance_node():
            return CHANCE_SEAT, str(sample_chance(s, self._stream("chance")))
        if s.to_move not in bots:
            return None
        try:
            action = heuristic_bot(s, self._stream("bot"))
            s.apply(action)
        except ValueError:  # a bot that fails must not stop the table: it takes the first legal action
            action = s.legal_actions()[0]
        return s.to_move, str(action)

    def run_automatic(self, bots: Collection[int]) -> list[tuple[int, str]]:
        """Make every move that needs no click, until a student decides or the game ends; return them."""
        made = []
        while (move := self.automatic_move(bots)) is not None:
            self.push(*move)
            made.append(move)
        return made

    def play(self, seat: int, text: str, bots: Collection[int]) -> list[tuple[int, str]]:
        """Make `seat`'s move `text`, then the automatic moves after it; return every move made.

        Raises:
            ValueError: it is not `seat`'s turn, or the action is not legal (the message says why
                and lists what is legal); nothing changes.
        """
        s = self.state
        if s.is_terminal():
            raise ValueError("The game is over: no more moves.")
        if s.to_move != seat or s.is_chance_node():
            raise ValueError(f"It is not your turn: P{s.to_move} decides now.")
        try:
            action = parse_action(text)
            after = s.apply(action)
        except InvalidActionError as e:
            raise ValueError(f"That is no action: {e}") from None
        except IllegalActionError as e:
            raise ValueError(f"Not legal now: {e}") from None
        self.states.append(after)
        self.moves.append((seat, str(action)))
        return [(seat, str(action)), *self.run_automatic(bots)]

    def last_by_other(self, seat: int) -> tuple[int, str] | None:
        """Return the last decision (not a draw from the bag) if another seat made it, to mark on the board."""
        for mover, text in reversed(self.moves):
            if mover != CHANCE_SEAT:
                return (mover, text) if mover != seat else None
        return None

    def recent(self, seat: int, names: Sequence[str], count: int = _RECENT) -> list[str]:
        """Return what happened since `seat`'s last decision, in words, newest last (at most `count` lines).

        The same sentences as the notebook's table (`since_last_move`): the seat's last decision,
        then every move after it, a draw and its tile as one.
        """
        actions = [text for _, text in self.moves]
        return since_last_move(self.states, actions, seat, names=names, most=count)

    def view(
        self, seat: int, names: Sequence[str], bots: Collection[int], *, live: bool, sel: Selection
    ) -> dict[str, Any]:
        """Return what `seat`'s page shows: the board with its controls, the status, the last moves, the facts.

        Args:
            seat: the student's seat.
            names: a name per seat.
            bots: the seats that bots play now (none of them takes a click).
            live: whether moves are accepted (the round is open).
            sel: the seat's choice in progress.
        """
        s = self.state
        mine = live and not s.is_terminal() and s.to_move == seat and seat not in bots
        controls = Controls(tuple(s.legal_actions()) if mine else (), sel.god, sel.picked, self.last_by_other(seat))
        if s.is_terminal():
            w = s.winner()
            who = "You win" if w == seat else f"P{w} ({names[w]}) wins" if w is not None else "Nobody wins"
            status = f"Game over. {who} with {max(p.fame for p in s.players)} fame."
        elif not live:
            status = "The teacher has closed the round: the game stops here."
        elif mine:
            status = "Your turn. " + controls.hint()
        else:
            status = f"Waiting for P{s.to_move} ({names[s.to_move]})."
        return {
            "ply": self.ply,
            "svg": str(portrait_svg(s, you=seat, names=names, controls=controls)),  # a phone's board, every width
            "status": status,
            "lines": status_lines(s, table=True),
            "recent": self.recent(seat, names),
            "facts": facts(s, you=seat, names=names),
            "scores": scores_text(s.scores) if s.scores else "",
            "choices": [str(a) for a in controls.actions],
            "yours": mine,
            "over": s.is_terminal(),
            "fame": list(s.fame),
            "sel": {"god": sel.god, "picked": [t.label for t in sel.picked]},
        }


def select(state: State, sel: Selection, ui: str) -> tuple[Selection, str]:
    """Return the choice in progress after the step `ui` (``god``, ``pick art``, ``unpick art``, ``clear``).

    A step that makes no sense now leaves the choice as it was and says why.
    """
    controls = Controls(tuple(state.legal_actions()), sel.god, sel.picked)
    step, _, arg = ui.partition(" ")
    tile = _tile(arg)
    if step == "god" and any(isinstance(a, UseGod) for a in controls.actions):
        return dataclasses.replace(sel, god=not sel.god), ""
    if step == "clear":
        return Selection(sel.god, ()), ""
    if step == "pick" and tile is not None and controls.can_pick(tile):
        return dataclasses.replace(sel, picked=tuple(sorted((*sel.picked, tile)))), ""
    if step == "unpick" and tile is not None and tile in sel.picked:
        rest = list(sel.picked)
        rest.remove(tile)
        return dataclasses.replace(sel, picked=tuple(rest)), ""
    return sel, f"Nothing to do there now. {controls.hint()}".strip()


def _tile(text: str) -> Tile | None:
    try:
        return Tile.from_label(text) if text else None
    except ValueError:
        return None
