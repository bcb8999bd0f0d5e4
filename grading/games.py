"""Games between bots that decide in sandboxes and bots of the package, played by the judge, many at once.

The judge plays every game itself: the deal, the tiles (the seed's chance stream, which no sandbox
sees), the package's bots; a student's bot only answers, in its sandbox, when its seat must
decide. Asking a sandbox once per decision would cost a round trip each (sheet 4's checks ask about
75,000 times), so the games are played in step: each game goes on until a bot in a sandbox must
decide, and then each sandbox is asked for all of its decisions at once, one request per sandbox;
sandboxes of different bots (a class tournament) think at the same time. Each sandbox follows its
games from the actions the judge tells it (`grading.worker`: ``moves``), and its answers are
actions that the judge applies, so that an illegal one fails there.

The games are those of the engine's one game loop, `ra_core.play.steps`: the same deal, tiles,
the package bots' random streams and time limit per decision, so the same results for the same
package bots. A sandboxed bot gets a fresh generator for each decision (`grading.seeds.decision_rng`,
a secret-keyed hash of the game, the seat and the move), never a stream from which the game's seed
could be worked back; the checks of single positions give it one the same way (`grading.judge.Remote`).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from typing import Any, Protocol

from ra_core.engine.errors import IllegalActionError, InvalidActionError
from ra_core.engine.setup import new_game
from ra_core.engine.state import CHANCE, TERMINAL, State
from ra_core.play import Policy, bot_stream, chance_stream, decide, sample_chance
from ra_course.exercises.checking import NotAttempted, Wrong
from ra_course.exercises.wire import encode

from .seeds import decision_rng

__all__ = ["Asker", "BotFailed", "BotNotWritten", "Game", "play_in_step"]


class BotFailed(Wrong):
    """A sandboxed bot failed in a game: the message says how, `bot` is the one that failed (never found by text)."""

    def __init__(self, message: str, bot: Asker) -> None:
        super().__init__(message)
        self.bot = bot


class BotNotWritten(NotAttempted):
    """A sandboxed bot is still the stub: `bot` is the one (as `BotFailed` names it by where, not by text)."""

    def __init__(self, message: str, bot: Asker) -> None:
        super().__init__(message)
        self.bot = bot


class Asker(Protocol):
    """A bot in a sandbox, as `play_in_step` asks it: its name in messages, and one request for many decisions."""

    label: str

    def send_moves(self, moves: list[dict[str, Any]], seconds: float, fresh: bool) -> int:
        """Send the decisions to make (one per game), without waiting; return the request's number.

        `fresh`: the games asked about before are over.
        """

    def receive_moves(self, number: int, count: int, seconds: float) -> list[Any]:
        """Return the actions decided for the request `number`, in order; raise `Wrong` for a failure."""


class Game:
    """One game in play: its state, its random streams, and what each sandboxed seat has not seen yet."""

    _ids = itertools.count()

    def __init__(self, seed: int, players: Sequence[Policy | Asker], time_limit: float | None) -> None:
        self.seed, self.players, self.time_limit = seed, list(players), time_limit
        self.state = new_game(len(players), seed=seed)
        self.chance = chance_stream(seed)
        self.streams = [bot_stream(seed, seat) for seat in range(len(players))]
        self.unseen: dict[int, list[str] | None] = {s: None for s, p in enumerate(players) if _asks(p)}
        self.id, self.move = f"g{next(self._ids)}", 0

    @property
    def over(self) -> bool:
        """Return whether the game has ended."""
        return self.state.to_move == TERMINAL

    def advance(self) -> int | None:
        """Play on until the game ends (None) or a sandboxed seat must decide (that seat)."""
        while True:
            who = self.state.to_move
            if who == TERMINAL:
                return None
            if who == CHANCE:
                self._apply(sample_chance(self.state, self.chance))
                continue
            player = self.players[who]
            if _asks(player):
                return who
            assert callable(player)
            action, _ = decide(
                player, self.state, self.streams[who], seed=self.seed, move=self.move, time_limit=self.time_limit
            )
            self._apply(action)

    def request(self, seat: int) -> dict[str, Any]:
        """Return what the sandbox of `seat` needs to decide now: the game's start, or the actions since."""
        unseen = self.unseen[seat]
        self.unseen[seat] = []
        rng = encode(decision_rng(self.seed, seat, self.move))  # fresh each decision: no stream to trace the seed by
        if unseen is None:
            return {"game": f"{self.id}-{seat}", "start": encode(self.state), "rng": rng}
        return {"game": f"{self.id}-{seat}", "actions": unseen, "rng": rng}

    def decided(self, seat: int, action: Any) -> None:
        """Apply the sandbox's decision for `seat`; raise `Wrong` if it is not legal."""
        phase = self.state.phase.name
        try:
            self._apply(action)
        except (IllegalActionError, InvalidActionError) as e:
            where = f"in the game with seed {self.seed!r}, move {self.move} (phase {phase})"
            raise Wrong(f"chose an illegal action {where}: {' '.join(str(e).split())[:300]}") from None

    def _apply(self, action: Any) -> None:
        self.state = self.state.apply(action)
        self.move += 1
        for seen in self.unseen.values():
            if seen is not None:
                seen.append(str(action))


def _asks(player: Any) -> bool:
    return hasattr(player, "send_moves")


#: the games of a call of `play_in_step` are played in this many lanes, so that the judge plays on in
#: one while the sandboxes think about the other's decisions (two processes, two cores)
LANES = 2

Flight = dict[int, tuple[Asker, list[tuple[Game, int]], int]]


def play_in_step(games: list[Game], time_limit: float, deadline: float | None = None) -> list[State]:
    """Play `games` to their ends, asking each sandboxed bot for its decisions in many of them at once.

    The games are dealt into `LANES` lanes. The judge plays a lane's games on until each sandboxed
    seat must decide and sends each sandbox those decisions in one request; while the sandboxes
    think, it does the same for the next lane, then takes the first lane's answers. Every sandbox
    sees its requests in the same order whatever the timing, so the games are the same every run.

    A bot's failure (an error, an illegal action, no answer in time) raises `Wrong` naming the
    bot, the game's seed and the move; a package bot's, the engine's `BotError`.
    """
    lanes = [games[i::LANES] for i in range(LANES)]
    flights: list[Flight] = [{} for _ in lanes]
    started: set[int] = set()
    for lane, flight in zip(lanes, flights, strict=True):
        _send(lane, flight, started, time_limit)
    while any(flights):
        for lane, flight in zip(lanes, flights, strict=True):
            _receive(flight, sum(len(p) for f in flights for _, p, _ in f.values()), time_limit, deadline)
            _send(lane, flight, started, time_limit)
    return [g.state for g in games]


def _send(lane: list[Game], flight: Flight, started: set[int], time_limit: float) -> None:
    """Play the lane's games on to their next sandboxed decision; send each sandbox its decisions at once."""
    asks: dict[int, tuple[Asker, list[tuple[Game, int]]]] = {}
    for game in lane:
        seat = game.advance()
        if seat is not None:
            asker = game.players[seat]
            asks.setdefault(id(asker), (asker, []))[1].append((game, seat))  # type: ignore[arg-type]
    for key, (asker, pending) in asks.items():
        fresh = key not in started  # its first request of these games: it may forget older ones
        number = asker.send_moves([game.request(seat) for game, seat in pending], time_limit, fresh)
        started.add(key)
        flight[key] = (asker, pending, number)


def _receive(flight: Flight, asked: int, time_limit: float, deadline: float | None) -> None:
    """Take the decisions of the requests in `flight` and apply them (`asked`: decisions the sandboxes owe)."""
    for asker, pending, number in flight.values():
        seconds = time_limit * asked + 10
        if deadline is not None:
            seconds = min(seconds, deadline - time.monotonic())
        try:
            actions = asker.receive_moves(number, len(pending), max(seconds, 0.0))
        except Wrong as e:
            raise BotFailed(f"{e} (in the game with seed {pending[0][0].seed!r})", asker) from None
        except NotAttempted as e:
            raise BotNotWritten(str(e), asker) from None
        for (game, seat), action in zip(pending, actions, strict=True):
            try:
                game.decided(seat, action)
            except Wrong as e:
                raise BotFailed(f"{asker.label} {e}", asker) from None
    flight.clear()
