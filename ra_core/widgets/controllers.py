"""The table controller: a game against bots, its positions, log, undo, saving and loading.

Standard library only. The controller keeps the game and plays the moves it is given
(`TableController.move`); what a click on the board may play is decided in one place, the one
judge of a click (`ra_core.table.judge`, asked by `ra_core.widgets.board.BoardClicks`), which
checks the board's version, whose turn it is and the move's legality once each; the judged
move comes here as the engine's own action. The ipywidgets view
(`ra_core.widgets.views`) only shows what the two render. Tests drive them directly and read
`text()`.

>>> game = TableController(players=3, you=2, seed=1)
>>> [c.label for c in game.choices()]
['Draw a tile', 'Call Ra']
>>> game.move(game.state.legal_actions()[0])  # draw: the tile comes out, then the bots reply
>>> game.log[1]
'P2 (you) drew a statue; it goes to slot 1.'
"""

from __future__ import annotations

import random
import time
from collections.abc import Collection, Mapping, Sequence
from html import escape
from typing import Any, Literal

from ..bots import random_bot
from ..engine.actions import Action, Draw, Reveal, parse_action
from ..engine.errors import BotError, IllegalActionError
from ..engine.rules import Rules
from ..engine.setup import new_game
from ..engine.state import CHANCE, Phase, State
from ..pictures import svg, words
from ..pictures.controls import Controls
from ..pictures.narrate import narrate
from ..play import (
    RECORD_SCHEMA,
    GameRecord,
    Policy,
    bot_name,
    bot_stream,
    chance_stream,
    decide,
    fresh_seed,
    next_seed,
    sample_chance,
    seed_problem,
)
from .choices import Choice, action_label

__all__ = ["Choice", "TableController", "Reply", "action_label"]


#: How the bots answer a move: ``"now"`` (they move until one of your seats decides or the game
#: ends, before the call returns) or ``"later"`` (they wait for `TableController.step`, which the
#: view calls on the kernel's event loop, so that your move is shown before they think).
Reply = Literal["now", "later"]


class TableController:
    """A game of Ra in which some seats are yours and the others are bots.

    Args:
        players: 2 to 5.
        you: your seat, several seats (hot seat), or None to watch bots only.
        bots: one policy ``policy(state, rng) -> action`` for every other seat, or a mapping
            or sequence by seat; default `ra_core.bots.random_bot`.
        seed: decides the sun groups, the draws and the bots' choices (see `ra_core.play`): an
            integer of at most 2**63 either way or a text of at most 100 characters, so that
            the game's record loads back; None for a fresh one. Anything else raises ValueError.
        rules: the rules in force; default `Rules.default(players)`.
        reply: how the bots make the moves before your first decision (see `Reply`).

    The whole game lives in the engine: `states` (every position), `actions` (their text,
    chance included) and `log` (one sentence per visible step).
    """

    def __init__(
        self,
        players: int = 3,
        *,
        you: int | Collection[int] | None = 0,
        bots: Policy | Sequence[Policy] | Mapping[int, Policy] | None = None,
        seed: int | str | None = 1,
        rules: Rules | None = None,
        reply: Reply = "now",
    ) -> None:
        self.rules = rules or Rules.default(players)
        n = self.rules.players
        seats = () if you is None else (you,) if isinstance(you, int) else tuple(you)
        bad = [q for q in seats if not (isinstance(q, int) and 0 <= q < n)]
        if bad:
            raise ValueError(f"you: seats are 0..{n - 1}, got {bad}")
        self.you: tuple[int, ...] = tuple(sorted(set(seats)))
        self.policies: dict[int, Policy] = {}
        for q in range(n):
            if q in self.you:
                continue
            if bots is None:
                self.policies[q] = random_bot
            elif callable(bots):
                self.policies[q] = bots
            elif isinstance(bots, Mapping):
                self.policies[q] = bots.get(q, random_bot)
            else:
                self.policies[q] = bots[q] if q < len(bots) and bots[q] is not None else random_bot
        if seed is not None and seed_problem(seed):
            raise ValueError(f"seed: {seed_problem(seed)}")
        self.names = tuple("you" if q in self.you else _short(bot_name(self.policies[q])) for q in range(n))
        self.bot_seconds = 0.0  # time spent inside bot policies (the benchmark leaves it out)
        self.opened = 0  # games begun at this table, new or loaded: the board closes what was open
        self._start(seed)
        self._settle(reply)

    # -- the game ----------------------------------------------------------------------------

    def _start(self, seed: int | str | None, record: GameRecord | None = None) -> None:
        """Set up a new game (or the start of a loaded `record`); `seed` None draws a fresh one.

        The deal and every tile of the game follow `seed` (`seeded`), unless a loaded record's
        tiles follow none (it has no seed, or an old schema): then the rest is drawn from a
        fresh seed's stream and the record is saved without a seed, as it came.
        """
        self.seeded = record is None or (record.seed is not None and record.schema == RECORD_SCHEMA)
        seed = fresh_seed() if seed is None or not self.seeded else seed
        self.opened += 1
        self.seed = seed
        self.chance = chance_stream(seed)  # the tiles: a function of the seed alone, as in `play`
        self.bot_rngs = [bot_stream(seed, seat) for seat in range(self.rules.players)]
        start = new_game(self.rules.players, seed=seed, rules=self.rules) if record is None else record.start()
        self.states: list[State] = [start]
        self.actions: list[str] = []
        self.played: list[Action] = []  # the same moves as actions, each parsed once (the narration reads them)
        self._told: dict[int, str] = {}  # the sentence of each move told so far, by its index
        self._facts: tuple[State, tuple[Any, ...], list[str]] | None = None  # a position's facts, worked out once
        self.log: list[str] = []
        self.message = ""
        self.halted = False  # set when a bot fails: the game waits instead of raising
        self._marks: list[tuple[int, int, Any]] = []  # (actions, log lines, rng state) at your decisions
        self.version = 0
        if record is None:
            self.log.append(f"New game, seed {seed}: {self._intro()}")

    def _intro(self) -> str:
        s = self.state
        you = ", ".join(f"P{q}" for q in self.you) or "nobody (bots only)"
        return f"you play {you}; {self.player_name(s.turn_player)} holds the highest sun and starts."

    def player_name(self, seat: int) -> str:
        """Return the seat's one name at this table, as the board, the log and the scores show it: ``'P1 (normal)'``."""
        return words.player_name(seat, self.you, self._bot_names())

    @property
    def state(self) -> State:
        """Return the current position."""
        return self.states[-1]

    def is_your_turn(self) -> bool:
        """Return whether one of your seats decides now."""
        return self.state.to_move in self.you

    def bots_pending(self) -> bool:
        """Return whether a bot (or chance) is to move and the game is not over or halted."""
        s = self.state
        return not self.halted and not s.is_terminal() and s.to_move not in self.you

    def choices(self) -> list[Choice]:
        """Return your legal actions now, each with its label (none while a bot is to move)."""
        s = self.state
        if not self.is_your_turn():
            return []
        return [Choice(str(a), action_label(a, s)) for a in s.legal_actions()]

    def move(self, action: Action, reply: Reply = "now") -> None:
        """Play `action` in the current position, log it, and let the bots answer as `reply` says.

        The move is not judged here: a click is judged once, by `ra_core.widgets.board.BoardClicks`,
        and the engine's `State.apply` refuses anything illegal with `IllegalActionError`. A draw
        and the tile it brings are one visible step; the tile comes from the seed's chance stream,
        never from a caller, so a `Reveal` raises `IllegalActionError`: the game's tiles follow its
        seed, and its record is checked against it when loaded.
        """
        if isinstance(action, Reveal):
            s = self.state
            why = f"{action} is refused: the bag draws the tiles (the game's seed decides them), not a player"
            raise IllegalActionError(why, action=action, player=s.to_move, phase=s.phase.name, legal=[])
        before = self.state
        self._record(before, action, before.apply(action))
        self._settle(reply)

    def _record(self, before: State, action: Action, after: State) -> None:
        """Keep the step from `before` to `after` and tell it in the log; after a draw, the tile it brings too."""
        k = len(self.actions)
        self.states.append(after)
        self.actions.append(str(action))
        self.played.append(action)
        if isinstance(action, Draw):  # told with the tile it brings, as one sentence (the tile's move's)
            reveal = sample_chance(after, self.chance)
            drawn = after.apply(reveal)
            self.states.append(drawn)
            self.actions.append(str(reveal))
            self.played.append(reveal)
            k, line = k + 1, narrate(after, reveal, drawn, you=self.you, names=self._bot_names())
        else:
            line = narrate(before, action, after, you=self.you, names=self._bot_names())
        self._told[k] = line
        self.log.append(line)
        self.version += 1

    def sentence(self, k: int) -> str:
        """Return the sentence that tells move `k` (``actions[k]``): the log's own, told once for every redraw."""
        if k not in self._told:
            before, after = self.states[k], self.states[k + 1]
            self._told[k] = narrate(before, self.played[k], after, you=self.you, names=self._bot_names())
        return self._told[k]

    def _settle(self, reply: Reply) -> None:
        """Let the bots move now if `reply` says so; remember your decision when it comes, for undo."""
        if reply == "now":
            while self.step():
                pass
        if self.state.to_move in self.you:
            n = len(self.actions)
            if not self._marks or self._marks[-1][0] != n:
                self._marks.append((n, len(self.log), self._dice()))

    def _dice(self) -> tuple[Any, ...]:
        """Return the state of every random stream (chance's and the bots'), for undo."""
        return (self.chance.getstate(), *(r.getstate() for r in self.bot_rngs))

    def _set_dice(self, dice: tuple[Any, ...]) -> None:
        self.chance.setstate(dice[0])
        for r, state in zip(self.bot_rngs, dice[1:], strict=True):
            r.setstate(state)

    def step(self) -> bool:
        """Make one bot (or chance) move; return whether one was made."""
        if not self.bots_pending():
            return False
        s = self.state
        if s.to_move == CHANCE:  # only after loading a record that stops mid-draw
            reveal = sample_chance(s, self.chance)
            self._record(s, reveal, s.apply(reveal))
        else:
            seat = s.to_move
            t0 = time.perf_counter()
            policy, rng, move = self.policies[seat], self.bot_rngs[seat], len(self.actions)
            try:  # a broken bot must not break the notebook: its failure pauses the game
                action, after = decide(policy, s, rng, seed=self.seed, move=move)
            except BotError as e:
                return self._halt(f"The bot of {self.player_name(seat)} failed: {e}")
            finally:
                self.bot_seconds += time.perf_counter() - t0
            self._record(s, action, after)
        self._settle("later")
        return True

    def _halt(self, why: str) -> bool:
        self.halted = True
        self.message = f"{why}. The game is paused: undo, load or start a new game."
        self.version += 1
        return False

    def run_bots(self) -> None:
        """Let the bots move until it is your turn or the game is over."""
        while self.step():
            pass

    def undo(self) -> bool:
        """Go back to your previous decision (taking back the bots' replies too)."""
        self.message = ""
        n = len(self.actions)
        earlier = [i for i, mark in enumerate(self._marks) if mark[0] < n]
        if not earlier:
            self.message = "Nothing to undo: you have not decided anything yet."
            return False
        del self._marks[earlier[-1] + 1 :]
        k, lines, rng_state = self._marks[-1]
        del self.states[k + 1 :], self.actions[k:], self.played[k:], self.log[lines:]
        self._told = {i: line for i, line in self._told.items() if i < k}
        self._set_dice(rng_state)
        self.halted = False
        self.version += 1
        self.log.append("(undone: back to your decision)")
        self._marks[-1] = (k, len(self.log), rng_state)
        return True

    def new_game(self, seed: int | str | None = None, reply: Reply = "now") -> bool:
        """Start a new game with the same seats and bots; the default seed is the next one.

        A seed must be an integer or a text; anything else sets `message` and changes nothing.
        `reply`: how the bots make the moves before your first decision.
        """
        self.message = ""
        if seed is None:
            seed = next_seed(self.seed)
        if seed_problem(seed):
            self.message = f"Not a seed: {seed_problem(seed)}. Nothing changed."
            return False
        version = self.version
        self._start(seed)
        self.version = version + 1
        self._settle(reply)
        return True

    # -- saving and loading ------------------------------------------------------------------

    def record(self) -> GameRecord:
        """Return the game so far as a `GameRecord` (rules, suns, seed, every action).

        The seed is left out when the game's tiles do not follow it (see `_start`).
        """
        start = self.states[0]
        suns = tuple(p.suns_up for p in start.players)
        return GameRecord(self.rules, suns, tuple(self.actions), self.seed if self.seeded else None, self.names)

    def save(self) -> str:
        """Return the game record as JSON text (`load` reads it back)."""
        return self.record().to_json()

    def load(self, text: str | bytes | GameRecord, reply: Reply = "now") -> bool:
        """Load a saved game record (JSON, or a `GameRecord`); all or nothing.

        A malformed or edited record (see `GameRecord.from_dict`) sets `message` and changes nothing.
        `reply`: how the bots go on if the record stops before one of your decisions.
        """
        self.message = ""
        try:
            record = text if isinstance(text, GameRecord) else GameRecord.from_json(text)
            states = list(record.states())
        except ValueError as e:  # InvalidStateError is a ValueError
            self.message = f"Could not load that game: {str(e)[:300]}. Nothing changed."
            return False
        if record.rules.players != self.rules.players:
            self.message = (
                f"That game is for {record.rules.players} players, this table has {self.rules.players}. "
                "Start play() with that many players to load it. Nothing changed."
            )
            return False
        version = self.version
        self.rules = record.rules
        self._start(record.seed, record)
        self.version = version + 1
        self.states = states
        self.actions = list(record.actions)
        self.played = [parse_action(a) for a in record.actions]  # each parsed once, here
        n = len(record.actions)
        self.bot_rngs = [random.Random(f"ra-seat-{i}:{self.seed!r}/{n}") for i in range(self.rules.players)]
        seed = f"seed {self.seed}" if self.seeded else "its tiles follow no seed"
        self.log = [f"Loaded a game of {n} actions ({seed})."]
        # Each of your decisions can be undone to, with the chance stream where it was then: the
        # tiles drawn after an undo are the seed's, as in the game that was saved.
        for i, s in enumerate(states):
            if s.to_move in self.you:
                self._marks.append((i, 1, self._dice()))
            if i < n and self.seeded and s.phase is Phase.REVEAL:
                self.chance.random()  # the record's draw here (checked against this stream on loading)
        self._settle(reply)
        return True

    # -- what the widget shows (pure functions of the engine's state) -----------------------

    def board_html(self) -> str:
        """Return the board: SVG picture and its text twin."""
        return svg.html(self.state, you=self.you, names=self._bot_names())

    def facts(self) -> list[str]:
        """Return the board's text twin: the position's facts, one line each (worked out once per position).

        The board's picture takes its title from them and the table shows them beside it.
        """
        names = self._bot_names()
        seen = (frozenset(self.you), names)
        if self._facts is None or self._facts[0] is not self.state or self._facts[1] != seen:
            self._facts = (self.state, seen, words.facts(self.state, you=self.you, names=names))
        return list(self._facts[2])  # the caller's to change

    def _bot_names(self) -> tuple[str, ...]:
        return tuple("" if q in self.you else name for q, name in enumerate(self.names))

    def status(self) -> str:
        """Return one line: what the game waits for."""
        s = self.state
        if s.is_terminal():
            w = s.winner() or 0
            who = "you win" if w in self.you else f"{self.player_name(w)} wins"
            return f"Game over: {who} with {s.players[w].fame} fame."
        if self.halted:
            return "The game is paused."
        if self.is_your_turn():
            who = f"P{s.to_move}, your" if len(self.you) > 1 else "Your"
            return f"{who} move: {Controls(tuple(s.legal_actions())).prompt()}."
        return f"{self.player_name(s.to_move)} is thinking..." if s.to_move >= 0 else "Drawing..."

    def log_lines(self, last: int = 12) -> list[str]:
        """Return the last `last` lines of the log, oldest first."""
        return self.log[-last:]

    def log_html(self, last: int = 12) -> str:
        """Return the last lines of the log as an HTML list."""
        earlier = len(self.log) - last
        head = f"<p><i>{earlier} earlier lines</i></p>" if earlier > 0 else ""
        items = "".join(f"<li>{escape(line)}</li>" for line in self.log_lines(last))
        return f'<div class="ra-log">{head}<ol start="{max(1, earlier + 1)}">{items}</ol></div>'

    def scores_html(self) -> str:
        """Return the score breakdown per epoch and category, once an epoch is scored."""
        return svg.scores_html(self.state.scores, you=self.you, names=self._bot_names()) if self.state.scores else ""

    def text(self) -> str:
        """Return everything the widget shows, as plain text (for tests and screen readers)."""
        lines = self.facts()
        lines.append(f"Status: {self.status()}")
        if self.message:
            lines.append(f"Message: {self.message}")
        lines.append("Choices: " + (" | ".join(c.label for c in self.choices()) or "none"))
        lines.append("Log:")
        lines += [f"  {line}" for line in self.log_lines()]
        if self.state.scores:
            lines.append(words.scores_text(self.state.scores, self.you, self._bot_names()))
        return "\n".join(lines)


def _short(name: str, most: int = 16) -> str:
    """Return a bot's name as the table shows and saves it: at most `most` characters."""
    return name if len(name) <= most else name[: most - 1] + "\u2026"
