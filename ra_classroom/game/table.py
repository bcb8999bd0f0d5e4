"""A Ra table of the classroom: its game, replayed from the moves stored, and what each seat sees.

The game is `ra_core`'s: every move is stored as an action's text, chance included
(``reveal gold``), so the moves alone replay the table anywhere, in any server process. Chance
and bots draw from streams derived from the table's seed and the move's number, so whichever
process makes an automatic move makes the same one. A student's click is judged by `ra_core`'s
one judge of a click (`TableGame.judge`: the board's version is the table's ply), as the
notebook's table judges its clicks; the judged move is played as the engine's own action.

A seat sees the board drawn by `ra_core` (the same SVG as the notebooks), with its own legal
actions marked as clickable pieces when it decides, and the last moves in words. Ra hides
nothing (R74), so every seat sees the whole position.

>>> game = TableGame(3, "doc")             # seat 0 is a student's, seats 1 and 2 are bots'
>>> game.run_automatic(bots={1, 2})        # P1 starts: the bots play until the student decides
[(1, 'draw'), (-1, 'reveal flood'), (2, 'draw'), (-1, 'reveal astronomy')]
>>> answer = game.judge(0, read_click({"action": "draw", "version": game.ply}), bots={1, 2})
>>> game.move(0, answer.action, bots={1, 2})[:2]
[(0, 'draw'), (-1, 'reveal step-pyramid')]
>>> game.view(0, ["Ann", "bot", "bot"], {1, 2}, live=True, sel=Selection())["choices"]
['pass', 'bid 4', 'bid 7', 'bid 10', 'bid 11']
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Any

from ra_core import Action, State, new_game, parse_action

from .bridge import (
    Answer,
    Click,
    Controls,
    Portraits,
    Selection,
    controls,
    facts,
    heuristic_bot,
    judge,
    named,
    narrate,
    read_click,
    sample_chance,
    scores_rows,
    seat_tokens,
    since_last_move,
    status_lines,
)

__all__ = ["CHANCE_SEAT", "Answer", "Click", "Selection", "TableGame", "read_click"]

CHANCE_SEAT = -1  #: the seat recorded for a chance move (a tile drawn from the bag)
_RECENT = 6  # moves told in words beside the board: since the seat last decided


class _Position:
    """What the pages of one position share, each piece worked out once for them all when first needed.

    The legal actions (the judge's check of a click, the mover's board, the facts' "draw or call
    Ra"), the facts and the status lines (seats named by `seat_tokens`), the fields of a view that
    are the same for every seat, and each seat's controls (what he may click: the same thing for
    the judge of his click and for the board he clicked on).
    """

    def __init__(self, state: State) -> None:
        self.state = state
        self._legal: Sequence[Action] | None = None
        self._told: tuple[list[str], list[str], dict[str, Any]] | None = None
        self.controls: dict[tuple[int, bool, Selection], Controls] = {}  # by seat, whether he may click, his choice
        self.boards: dict[tuple[str, ...], Portraits] = {}  # the seats' boards, for a list of names
        self.shown: dict[tuple[Any, ...], dict[str, Any]] = {}  # the views drawn

    def legal(self) -> Sequence[Action]:
        """Return the position's legal actions, asked of the engine once."""
        if self._legal is None:
            self._legal = self.state.legal_actions()
        return self._legal

    def told(self) -> tuple[list[str], list[str], dict[str, Any]]:
        """Return the facts and the status lines (seats named by tokens) and the view's fields every seat shares."""
        if self._told is None:
            s = self.state
            tokens = seat_tokens(len(s.players))
            lines = status_lines(s, table=True, names=tokens)
            shared = {"lines": named(lines), "over": s.is_terminal(), "fame": list(s.fame)}
            self._told = (facts(s, names=tokens, legal=self.legal()), lines, shared)
        return self._told

    def copy(self) -> _Position:
        """Return a copy that starts from the pieces worked out (its drawings start afresh: a writer draws none)."""
        twin = _Position(self.state)
        twin._legal, twin._told, twin.controls = self._legal, self._told, dict(self.controls)
        return twin


class TableGame:
    """The game at one Ra table: every state, and every move as (seat, action text) and as the action, parsed once.

    What the seats' pages show of a position is worked out once for them all (`_Position`): the
    legal actions, the facts and the status lines, told with every seat named by a token
    (`named` then gives each seat its own words, "P1 (you)"); each move's sentence once for every
    later redraw; a seat's controls once for his page and the judge of his click; a seat's view
    once per position.

    Args:
        players: 3 to 5.
        seed: the table's seed: it deals the suns, draws the tiles and feeds the bots.
    """

    def __init__(self, players: int, seed: str) -> None:
        self.seed = seed
        self.states: list[State] = [new_game(players, seed=seed)]
        self.moves: list[tuple[int, str]] = []
        self.actions: list[Action] = []  # the moves' actions, each parsed once
        self._told: list[str] = []  # the sentence of each move told so far, seats named by tokens
        self._here = _Position(self.state)  # what the pages of the position now share
        self._before: dict[tuple[str, ...], Portraits] = {}  # the boards of the last position drawn before this one
        self._rows: dict[tuple[Any, ...], list[dict[str, object]]] = {}  # a seat's score rows, per epochs scored
        self._said: dict[tuple[str, int, tuple[str, ...]], str] = {}  # lines told with tokens, named for a seat
        self._said_before: dict[tuple[str, int, tuple[str, ...]], str] = {}  # those of the last position drawn

    @property
    def state(self) -> State:
        """Return the position now."""
        return self.states[-1]

    def copy(self) -> TableGame:
        """Return a copy to make moves on (states are immutable: only the lists are copied)."""
        twin = TableGame.__new__(TableGame)
        twin.seed, twin.states, twin.moves, twin.actions = (
            self.seed,
            list(self.states),
            list(self.moves),
            list(self.actions),
        )
        twin._told, twin._here = list(self._told), self._here.copy()
        twin._before = self._here.boards or self._before  # the copy's boards take what they still show from these
        twin._rows = dict(self._rows)  # its own: the copy may go on with other moves
        twin._said, twin._said_before = {}, self._said or self._said_before
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
        action = parse_action(text)
        self._made(seat, action, self.state.apply(action))

    def _stream(self, purpose: str) -> random.Random:
        return random.Random(f"ra-classroom-table:{self.seed}:{purpose}:{self.ply}")

    def automatic_move(self, bots: Collection[int]) -> tuple[int, Action, State] | None:
        """Return the next move that needs no click (a tile from the bag, a bot's decision), and the state after it."""
        s = self.state
        if s.is_terminal():
            return None
        if s.is_chance_node():
            reveal = sample_chance(s, self._stream("chance"))
            return CHANCE_SEAT, reveal, s.apply(reveal)
        if s.to_move not in bots:
            return None
        try:
            action = heuristic_bot(s, self._stream("bot"))
            return s.to_move, action, s.apply(action)
        except ValueError:  # a bot that fails must not stop the table: it takes the first legal action
            action = s.legal_actions()[0]
            return s.to_move, action, s.apply(action)

    def run_automatic(self, bots: Collection[int]) -> list[tuple[int, str]]:
        """Make every move that needs no click, until a student decides or the game ends; return them."""
        made = []
        while (move := self.automatic_move(bots)) is not None:
            seat, action, after = move
            made.append(self._made(seat, action, after))
        return made

    def judge(
        self,
        seat: int,
        click: Click,
        bots: Collection[int],
        names: Sequence[str] = (),
        selection: Selection | None = None,
        closed: str = "",
    ) -> Answer:
        """Judge `seat`'s click on his board (`ra_core.table.judge`); a seat a bot plays now takes no click.

        The board's version is the table's ply; `closed` says why the table takes no click now
        (the round closed or paused, the seat held by a bot), or is "". Nothing changes: a move
        judged legal is played with `move`, a step's choice in progress is the page's to keep.
        """
        sel = selection or Selection()
        return judge(
            self.state,
            click,
            version=self.ply,
            seats=() if seat in bots else (seat,),
            names=names,
            selection=sel,
            closed=closed,
            board=self._controls(seat, bots, sel, takes=not closed),
        )

    def _controls(self, seat: int, bots: Collection[int], sel: Selection, *, takes: bool) -> Controls:
        """Return what `seat` may click now (`controls`), worked out once per position for his page and his click.

        `takes`: whether the table takes clicks now (the round open and not paused); a seat that
        a bot plays takes none. The other player's last move is marked.
        """
        mine = takes and seat not in bots
        key = (seat, mine, sel)
        found = self._here.controls.get(key)
        if found is None:
            seats, last = (seat,) if mine else (), self.last_by_other(seat)
            found = self._here.controls[key] = controls(self.state, seats, sel, last=last, legal=self._here.legal())
        return found

    def move(self, seat: int, action: Action, bots: Collection[int]) -> list[tuple[int, str]]:
        """Make `seat`'s move `action` (as `judge` handed it on), then the automatic moves after it; return all made.

        Raises:
            IllegalActionError: the action is not legal (a move not judged first); nothing changes.
        """
        after = self.state.apply(action)
        return [self._made(seat, action, after), *self.run_automatic(bots)]

    def _made(self, seat: int, action: Action, after: State) -> tuple[int, str]:
        """Keep the move `action` by `seat` and the state `after` it; return the move as it is stored."""
        text = str(action)
        self.states.append(after)
        self.moves.append((seat, text))
        self.actions.append(action)
        if self._here.boards:  # the next boards take the pieces that did not change from these
            self._before = self._here.boards
        if self._said:  # and the lines told again: a player's holdings, the moves since a seat's last
            self._said_before, self._said = self._said, {}
        self._here = _Position(after)
        return seat, text

    def last_by_other(self, seat: int) -> tuple[int, str] | None:
        """Return the last decision (not a draw from the bag) if another seat made it, to mark on the board."""
        for mover, text in reversed(self.moves):
            if mover != CHANCE_SEAT:
                return (mover, text) if mover != seat else None
        return None

    def recent(self, seat: int, names: Sequence[str], count: int = _RECENT) -> list[str]:
        """Return what happened since `seat`'s last decision, in words, newest last (at most `count` lines).

        The same sentences as the notebook's table (`since_last_move`): the seat's last decision,
        then every move after it, a draw and its tile as one. Each move is told once, for every
        seat and every later redraw, and named for this seat here.
        """
        tokens = seat_tokens(len(self.state.players))

        def tell(k: int) -> str:
            while len(self._told) <= k:
                j = len(self._told)
                self._told.append(narrate(self.states[j], self.actions[j], self.states[j + 1], names=tokens))
            return self._told[k]

        told = since_last_move(self.states, self.actions, seat, names=names, most=count, tell=tell)
        return self._named(told, seat, names)

    def _named(self, lines: Sequence[str], seat: int, names: Sequence[str]) -> list[str]:
        """Return `named(lines, (seat,), names)`: each line named once for a seat, at this ply and the next."""
        shown, said, todo = tuple(names), self._said, []
        for line in lines:
            if "\x00" in line:
                key = (line, seat, shown)
                if key not in said:
                    found = self._said_before.get(key)
                    if found is None:
                        todo.append(line)
                    else:
                        said[key] = found
        if todo:  # the lines new to this seat, named at once
            for line, found in zip(todo, named(todo, (seat,), names), strict=True):
                said[(line, seat, shown)] = found
        return [said[(line, seat, shown)] if "\x00" in line else line for line in lines]

    def _scores(self, seat: int, names: Sequence[str]) -> list[dict[str, object]]:
        """Return `scores_rows` for `seat`, worked out once per seat, names and epochs scored (an epoch's end)."""
        key = (len(self.state.scores), seat, tuple(names))
        rows = self._rows.get(key)
        if rows is None:
            if len(self._rows) > 64:  # older epochs' rows, or names no longer shown
                self._rows.clear()
            rows = self._rows[key] = scores_rows(self.state.scores, you={seat}, names=names)
        return rows

    def view(
        self,
        seat: int,
        names: Sequence[str],
        bots: Collection[int],
        *,
        live: bool,
        sel: Selection,
        paused: bool = False,
    ) -> dict[str, Any]:
        """Return what `seat`'s page shows: the board with its controls, the status, the last moves, the facts.

        Drawn once per position for the same seat, names, bots and choice (a page refreshed, or
        shown in two processes' batches, gets the same view again); the caller may change the
        dictionary returned, not what it holds.

        Args:
            seat: the student's seat.
            names: a name per seat.
            bots: the seats that bots play now (none of them takes a click).
            live: whether moves are accepted (the round is open).
            sel: the seat's choice in progress.
            paused: whether the teacher paused the round: no piece is framed as a choice meanwhile.
        """
        key = (seat, tuple(names), frozenset(bots), live, paused, sel)
        shown = self._here.shown.get(key)
        if shown is None:
            shown = self._here.shown[key] = self._draw(seat, names, bots, live=live, paused=paused, sel=sel)
        return dict(shown)

    def _draw(
        self, seat: int, names: Sequence[str], bots: Collection[int], *, live: bool, paused: bool, sel: Selection
    ) -> dict[str, Any]:
        s, here = self.state, self._here
        board = self._controls(seat, bots, sel, takes=live and not paused)
        mine = bool(board.actions)
        told, lines, shared = here.told()
        if shared["over"]:
            w = s.winner()
            who = "You win" if w == seat else f"P{w} ({names[w]}) wins" if w is not None else "Nobody wins"
            status = f"Game over. {who} with {max(p.fame for p in s.players)} fame."
        elif not live:
            status = "The teacher has closed the round: the game stops here."
        elif paused:
            status = "The teacher has paused the round: wait until it goes on."
        elif mine:
            status = "Your turn. " + board.hint()
        else:
            status = f"Waiting for P{s.to_move} ({names[s.to_move]})."
        seen = self._named(told, seat, names)
        shown = tuple(names)
        boards = here.boards.get(shown)
        if boards is None:  # what the seats' boards share, drawn once for them all, and what the last position's did
            boards = here.boards[shown] = Portraits(s, names, status=lines, before=self._before.get(shown))
        return {
            "ply": self.ply,
            "svg": str(boards.board(you=seat, controls=board, told=seen)),  # a phone's board
            "status": status,
            **shared,  # the status lines (seats by their numbers), whether the game is over, the fame
            "recent": self.recent(seat, names),
            "facts": seen,
            "scores": self._scores(seat, names),  # narrow rows: a phone shows them
            "choices": [str(a) for a in board.actions],
            "yours": mine,
            "sel": {"god": sel.god, "picked": [t.label for t in sel.picked]},
        }
