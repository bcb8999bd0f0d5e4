"""A class tournament of the bots handed in with sheet 4, each bot in a sandbox of its own.

    python -m grading.tournament sheet4 --players 3 --games 300          # in the course folder
    python -m grading.tournament submitted/*/sheet4/*.ipynb heuristic random --games 300

Each student's sheet 4 runs in a sandbox of its own (`grading.sandbox`), as autograde runs it,
without its check cells; his ``my_bot`` decides there, and nowhere else: no bot can reach another
bot, the other students' notebooks, or the teacher's machine. The judge plays every game
(`grading.games`): the deal, the tiles, the package's bots given by name (``heuristic``,
``random``, ``greedy``), and the seats, rotated as `ra_core.analysis.tournament.tournament` rotates
them (game g seats bot ``(g + i) % k`` in seat i), with the same seeds; it asks each sandbox only
for its bot's decisions, in all games at once.

Before the tournament each bot plays a few games against random bots; a bot that is not there
(``my_bot`` still the stub), raises, chooses an illegal action, calls a package bot or takes
longer than the time limit is left out, with a line that says why. One that fails in the
tournament itself is left out too, and the tournament played again without it. The table names
each bot after its student (the folder ``submitted/<student>/``), with its win rate and a 95 %
Wilson interval, as ``python -m ra_core tournament`` prints it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ra_core.analysis.tournament import TIME_LIMIT, GameResult, TournamentResult, game_seeds
from ra_core.bots import greedy_bot, heuristic_bot, random_bot
from ra_core.play import Policy
from ra_course.exercises import sheet
from ra_course.exercises.checking import NotAttempted, Wrong

from .audit import notebooks
from .games import BotFailed, BotNotWritten, Game, play_in_step
from .judge import Options, Remote, Session, student_sources

__all__ = ["Entrant", "main", "play_tournament"]

#: the package's bots a tournament may add by name
PACKAGE: dict[str, Policy] = {"random": random_bot, "greedy": greedy_bot, "heuristic": heuristic_bot}
NOTEBOOK = "04_write_a_bidder.ipynb"
#: games against two random bots that each bot plays before the tournament
TRIAL_GAMES = 3


class Entrant:
    """A student's bot: his sheet 4 running in a sandbox, its ``my_bot`` asked for decisions there."""

    def __init__(self, name: str, notebook: Path, options: Options) -> None:
        found = sheet("bidder")
        self.name = name
        self.session = Session(found.forbidden, options, found.lasting_tripwires)
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        for source in student_sources(cells):
            self.session.run_cell(source)
        self.bot = Remote(self.session, "my_bot", label=f"{name}'s my_bot")

    def close(self) -> None:
        """End the bot's sandbox."""
        self.session.close()


def play_tournament(
    entrants: list[Entrant | tuple[str, Policy]], players: int, games: int, seed: int, time_limit: float
) -> TournamentResult:
    """Play `games` games between the bots, seats rotated as `tournament` rotates them; raise `Wrong` if one fails."""
    names = [e.name if isinstance(e, Entrant) else e[0] for e in entrants]
    bots: list[Any] = [e.bot if isinstance(e, Entrant) else e[1] for e in entrants]
    k = len(bots)
    lineups = [tuple((g + i) % k for i in range(players)) for g in range(games)]
    seeds = game_seeds(seed, games)
    runs = [Game(s, [bots[b] for b in lineup], time_limit) for s, lineup in zip(seeds, lineups, strict=True)]
    finals = play_in_step(runs, time_limit)
    results = []
    for s, lineup, final in zip(seeds, lineups, finals, strict=True):
        winner = final.winner()
        assert winner is not None
        results.append(GameResult(s, lineup, final.fame, winner))
    title = f"{games} games, {players} players, seed {seed}: " + " / ".join(names)
    return TournamentResult(tuple(names), players, seed, tuple(results), 0.95, title)


def _failed(entrant: Entrant, players: int, time_limit: float) -> str | None:
    """Return why `entrant`'s bot cannot play, after a few games against random bots; None if it can."""
    trial: list[Entrant | tuple[str, Policy]] = [entrant, *[("random", random_bot)] * (players - 1)]
    try:
        play_tournament(trial, players, TRIAL_GAMES * players, 0, time_limit)
    except NotAttempted as e:
        return f"`my_bot` is not written yet{': ' + str(e) if str(e) else ' (it is still the stub)'}"
    except Wrong as e:
        return str(e)
    return None


def _entrant_name(notebook: Path) -> str:
    """Return the student a submitted notebook is from: its folder ``submitted/<student>/<sheet>/``, or its name."""
    parts = notebook.resolve().parts
    if "submitted" in parts and len(parts) > parts.index("submitted") + 2:
        return parts[parts.index("submitted") + 1]
    return notebook.stem


def main(argv: list[str] | None = None) -> int:
    """Run the class tournament named on the command line and print its table; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m grading.tournament", description=__doc__.split("\n")[0])
    parser.add_argument(
        "names",
        nargs="+",
        help="the assignment (sheet4: every submission in the course folder), notebooks or folders, and package "
        f"bots by name: {', '.join(PACKAGE)}",
    )
    parser.add_argument("--players", type=int, default=3, help="2 to 5 (default 3)")
    parser.add_argument("--games", type=int, default=300, help="games (default 300)")
    parser.add_argument("--seed", type=int, default=0, help="the master seed (default 0)")
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT, help=f"seconds per decision ({TIME_LIMIT})")
    args = parser.parse_args(argv)
    package = [(name, PACKAGE[name]) for name in args.names if name in PACKAGE]
    named = notebooks([n for n in args.names if n not in PACKAGE], Path.cwd())
    sheets = [p for p in named if p.name == NOTEBOOK]
    if not sheets:
        parser.error(f"no {NOTEBOOK} found: in the course folder, name the assignment (sheet4) or the notebooks")
    entrants: list[Entrant] = []
    try:
        for notebook in sheets:
            entrant = Entrant(_entrant_name(notebook), notebook, Options())
            why = _failed(entrant, args.players, args.time_limit)
            if why:
                print(f"left out: {entrant.name}: {why}", file=sys.stderr)
                entrant.close()
            else:
                entrants.append(entrant)
        while True:
            field: list[Entrant | tuple[str, Policy]] = [*entrants, *package]
            if len(field) < 2:
                print("fewer than two bots can play: no tournament", file=sys.stderr)
                return 1
            try:
                result = play_tournament(field, args.players, args.games, args.seed, args.time_limit)
                break
            except (BotFailed, BotNotWritten) as e:  # the entrant whose sandbox failed, whatever the message says
                failing = next((x for x in entrants if x.bot is e.bot), None)
                if failing is None:
                    raise
                print(f"left out: {failing.name}: {e}", file=sys.stderr)
                failing.close()
                entrants.remove(failing)
    finally:
        for entrant in entrants:
            entrant.close()
    print(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
