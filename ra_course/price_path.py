"""Ra as a sequence of auctions: the price paid and the lot's value, auction by auction within an epoch.

Notebook 17. Every auction of a game that someone won is one `Sale`: its epoch, its place
among the epoch's auctions (1 for the first held, whether or not anyone bid), the sun the winner
gave up (the price), the center sun he took for the next epoch, and what the lot was worth to
him in fame (`ra_core.analysis.valuation.lot_value`, on the position as the auction opened).
`changes` compares, in every epoch with at least two sales, the last sale with the first: one
difference per epoch, for an interval that treats the game as the unit (`ra_course.clustered`).

The class's own tables come from the classroom's database (`class_tables`): the server keeps
every move of every Ra table there (table ``ra_moves``), and every table's seed and size
(``ra_tables``), from which the game replays exactly. The CSV the control room saves beside the
results (``...-ra.csv``) holds the seats' fame and the number of moves only, not the moves.

>>> from ra_core.bots import heuristic_bot
>>> from ra_core.play import play_game
>>> first = record_sales(play_game([heuristic_bot] * 3, seed=4), game="g4")[0]
>>> first.epoch, first.place, first.sun, first.value >= 0
(1, 1, 4, True)

Standard library only, like the rest of `ra_course`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from ra_core import State, new_game
from ra_core.analysis.valuation import lot_value
from ra_core.play.history import auctions
from ra_core.play.record import GameRecord

__all__ = ["Change", "Sale", "Table", "changes", "class_tables", "record_sales", "sales"]


class Sale(NamedTuple):
    """One auction of a game that someone won.

    Attributes:
        game: the game's label (the clustering unit).
        epoch: 1-3.
        place: the auction's place among the epoch's auctions, from 1 (auctions nobody won count).
        held: how many auctions the epoch held in all.
        winner: the winner's seat.
        student: whether a student (not a bot) held the winner's seat.
        sun: the sun the winner gave up: the price.
        center_sun: the sun he took from the center (his to bid with in the next epoch).
        value: what the lot was worth to him in fame, as the auction opened (`lot_value`).
        bidders: how many players could bid (those with a sun face up).
    """

    game: str
    epoch: int
    place: int
    held: int
    winner: int
    student: bool
    sun: int
    center_sun: int
    value: int
    bidders: int


class Table(NamedTuple):
    """One Ra table of the class: a label, the start, the moves, and which seats students held."""

    label: str
    start: State
    actions: tuple[str, ...]
    students: frozenset[int]


def sales(start: State, actions: Iterable[str], game: str, students: Collection[int] = ()) -> list[Sale]:
    """Return every won auction of the game that `actions` play from `start`, in order."""
    held = auctions(start, actions)
    per_epoch: dict[int, int] = {}
    for a in held:
        per_epoch[a.epoch] = per_epoch.get(a.epoch, 0) + 1
    out, place = [], {e: 0 for e in per_epoch}
    for a in held:
        place[a.epoch] += 1
        if a.winner is None or a.sun is None:
            continue
        out.append(
            Sale(
                game=game,
                epoch=a.epoch,
                place=place[a.epoch],
                held=per_epoch[a.epoch],
                winner=a.winner,
                student=a.winner in students,
                sun=a.sun,
                center_sun=a.center_sun,
                value=lot_value(a.opening, a.winner, a.lot),
                bidders=len(a.order),
            )
        )
    return out


def record_sales(record: GameRecord, game: str, students: Collection[int] = ()) -> list[Sale]:
    """Return `sales` of a game record (a bot game from `ra_core.play.play_game`)."""
    start = new_game(len(record.suns), seed=record.seed, rules=record.rules)
    return sales(start, record.actions, game, students)


class Change(NamedTuple):
    """The last sale of an epoch against its first: one observation per epoch with two sales or more."""

    game: str
    epoch: int
    sun: int  # last minus first
    value: int
    net: int  # (sun - center sun), last minus first


def changes(found: Sequence[Sale]) -> list[Change]:
    """Return, for every epoch of every game with at least two sales, the last sale minus the first.

    >>> s = [Sale("g", 1, 1, 3, 0, False, 12, 1, 9, 3), Sale("g", 1, 3, 3, 1, False, 5, 12, 4, 2)]
    >>> changes(s)
    [Change(game='g', epoch=1, sun=-7, value=-5, net=-18)]
    """
    epochs: dict[tuple[str, int], list[Sale]] = {}
    for s in found:
        epochs.setdefault((s.game, s.epoch), []).append(s)
    out = []
    for (game, epoch), run in epochs.items():
        if len(run) < 2:
            continue
        first, last = min(run, key=lambda s: s.place), max(run, key=lambda s: s.place)
        out.append(
            Change(
                game,
                epoch,
                last.sun - first.sun,
                last.value - first.value,
                (last.sun - last.center_sun) - (first.sun - first.center_sun),
            )
        )
    return out


def class_tables(path: str | Path) -> list[Table]:
    """Return every Ra table stored in the classroom's database at `path` (``class.db``), with its moves.

    Read-only (the database is opened with ``mode=ro``); tables of rounds the teacher cancelled
    or excluded are left out. Chance moves (the tiles drawn) are moves too, so the game replays
    exactly from ``new_game(players, seed=seed)``.

    Raises:
        FileNotFoundError: there is no file at `path`.
    """
    import sqlite3  # here, not at the top: Pyodide (the JupyterLite site) loads it only on demand

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no classroom database at {path}: the control room keeps it as class.db")
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        found = conn.execute(
            "SELECT t.id, t.players, t.seed, r.room, r.number, t.table_no FROM ra_tables t "
            "JOIN rounds r ON r.id = t.round_id WHERE r.status != 'void' AND NOT r.excluded "
            "ORDER BY r.room, r.number, t.table_no"
        ).fetchall()
        out = []
        for table_id, players, seed, room, number, table_no in found:
            actions = tuple(
                a for (a,) in conn.execute("SELECT action FROM ra_moves WHERE table_id = ? ORDER BY ply", (table_id,))
            )
            students = frozenset(
                int(seat)
                for (seat,) in conn.execute(
                    "SELECT seat FROM ra_seats WHERE table_id = ? AND student_id IS NOT NULL", (table_id,)
                )
            )
            label = f"{room} round {number} table {int(table_no) + 1}"
            out.append(Table(label, new_game(int(players), seed=str(seed)), actions, students))
        return out
    finally:
        conn.close()
