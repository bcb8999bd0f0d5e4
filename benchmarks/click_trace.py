"""The path of one click on the game table, traced call by call (`sys.setprofile`).

    .venv/bin/python benchmarks/click_trace.py [--seed 2] [--action draw] [--show]
    .venv/bin/python benchmarks/click_trace.py --classroom [--show]

Sends one click message to the play widget exactly as the front end (`table.js`) does (the
comm message reaches `TableWidget` through ipywidgets' `_handle_custom_msg`), inside a running
event loop as in a kernel, so the bots' reply is left for the loop's next turn and is not
counted. It prints:

* hops to the engine: the `ra_core` functions on the call stack, from the widget's message
  handler down to the engine's `State.apply` of the clicked action, and their chain;
* hops back: the functions the result passes on its way from `State.apply` to the board the
  front end is sent (the widget's ``board`` value): the frames returned from, up to the
  deepest frame the two paths share, plus the frames called from there down to the value's
  assignment;
* calls: every `ra_core` function call during the click (and how many were the engine's,
  `ra_core.engine`);
* the checks: how often the click is read (`read_click`) and its move parsed (`parse_action`),
  judged (`ra_core.table.judge`: the board's version, whose turn it is, the move's legality),
  and how often the board's controls are worked out (`BoardClicks._work_out`, with the scores
  over the board; `ra_core.table.controls`: whose turn it is, which lists the legal actions),
  before the move is played and in all (the rest draw the new board, once), and how often
  the position's facts (the board's text twin, which also titles the picture) and the move's
  sentence (`narrate`: the log's line and "Since your last move") are worked out;
* the modules entered: how many calls went into the engine's notation (`engine/actions.py`) and
  the narration (`pictures/narrate.py`);
* with ``--show``, the calls per function.

With ``--classroom`` it traces one move at a classroom Ra table of three students instead, as
the server makes it (no server: the store's commands on a SQLite file in a temporary folder):
the move's command in its transaction (`ra_classroom.store.commands.move`), then the views of
the three seats' pages that its event asks for, built in one batch (`store.pages.build_views`),
each view turned into the text the page is sent. It prints the calls into `ra_core` and
`ra_classroom` (and in all, the database's included), the files they visit, and each check and
each computation of the move and the boards, with how often it ran: each seat's board
(`Portraits.board`), and of its pieces another player's block (`_other`: drawn once for the
seats that see it alike) and the seat's own panel (`_mine`: one per seat).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

import ra_core

PACKAGE = str(Path(ra_core.__file__).parent)
#: The functions that read, judge and check a click, counted before the move is played and in all.
CHECKS = (
    "table.judge.read_click",
    "engine.actions.parse_action",
    "table.judge.judge",
    "table.judge.controls",
    "engine.state.State.legal_actions",
    "widgets.board.BoardClicks._work_out",
    "pictures.words.facts",
    "pictures.narrate.narrate",
)
ENGINE = str(Path(PACKAGE) / "engine")
ROOT = str(Path(PACKAGE).parent)
#: What one classroom move reads, checks and computes, from the click to the three seats' pages.
CLASSROOM = (
    "ra_core.table.judge.read_click",
    "ra_core.engine.actions.parse_action",
    "ra_classroom.store.table_moves.click",
    "ra_core.table.judge.judge",
    "ra_core.table.judge.controls",
    "ra_core.engine.state.State.legal_actions",
    "ra_core.engine.state.State.apply",
    "ra_classroom.store.table_moves.seat_names",
    "ra_classroom.store.table_moves.seatings",
    "ra_classroom.store.table_moves.TableCache._fresh",
    "ra_classroom.game.table.TableGame.view",
    "ra_core.pictures.words.facts",
    "ra_core.pictures.words.status_lines",
    "ra_core.pictures.narrate.since_last_move",
    "ra_core.pictures.portrait.Portraits.board",
    "ra_core.pictures.portrait._other",
    "ra_core.pictures.portrait._mine",
    "ra_core.pictures.words.scores_text",
)


def _name(frame: FrameType) -> str:
    code = frame.f_code
    module = Path(code.co_filename).relative_to(PACKAGE).with_suffix("").as_posix().replace("/", ".")
    return f"{module}.{code.co_qualname}"


def _ours(frame: FrameType) -> bool:
    return frame.f_code.co_filename.startswith(PACKAGE)


def _chain(frame: FrameType | None) -> list[str]:
    """Return the `ra_core` functions on the stack of `frame`, outermost first."""
    out = []
    while frame is not None:
        if _ours(frame):
            out.append(_name(frame))
        frame = frame.f_back
    return out[::-1]


def trace_click(seed: int, action: str) -> dict[str, Any]:
    """Return the trace of one click on `action` in the seeded 3-player game of notebook 07."""
    from ra_core.widgets import play

    view = play(players=3, you=0, seed=seed)
    table = view.table
    calls: Counter[str] = Counter()
    before: Counter[str] = Counter()  # the calls made before the engine applies the clicked move
    found: dict[str, list[str]] = {}

    def board_set(change: Any) -> None:
        found.setdefault("board", _chain(sys._getframe(1)))

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or not _ours(frame):
            return
        name = _name(frame)
        calls[name] += 1
        if name == "engine.state.State.apply" and "apply" not in found:
            found["apply"] = _chain(frame)
        if "apply" not in found:
            before[name] += 1

    table.observe(board_set, names="board")
    message = {"kind": "click", "version": table.version, "action": action}

    async def click() -> None:
        sys.setprofile(profile)
        try:
            table._handle_custom_msg(message, [])
        finally:
            sys.setprofile(None)

    asyncio.run(click())
    to_engine, to_board = found["apply"], found["board"]
    shared = 0
    while shared < min(len(to_engine), len(to_board)) and to_engine[shared] == to_board[shared]:
        shared += 1
    back = (len(to_engine) - shared) + (len(to_board) - shared)
    engine = sum(n for name, n in calls.items() if name.startswith("engine."))
    return {
        "to_engine": to_engine,
        "to_board": to_board,
        "back": back,
        "calls": calls,
        "total": sum(calls.values()),
        "engine": engine,
        "checks": {
            check: (
                sum(n for name, n in before.items() if name == check),
                sum(n for name, n in calls.items() if name == check),
            )
            for check in CHECKS
        },
        "modules": {
            module: sum(n for name, n in calls.items() if name.startswith(module + "."))
            for module in ("engine.actions", "pictures.narrate")
        },
    }


def _qualified(frame: FrameType) -> str:
    """Return a function's name with its module's, from the repository's root (``ra_core.table.judge.judge``)."""
    code = frame.f_code
    module = Path(code.co_filename).relative_to(ROOT).with_suffix("").as_posix().replace("/", ".")
    return f"{module}.{code.co_qualname}"


def trace_classroom_move(seed: str = "trace") -> dict[str, Any]:
    """Return the trace of one move at a classroom table of three students, and of their three pages' views."""
    import json
    import tempfile
    import time

    from ra_classroom.kinds.spec import RoundSpec
    from ra_classroom.store import commands, table_moves
    from ra_classroom.store.database import Database
    from ra_classroom.store.pages import build_views

    with tempfile.TemporaryDirectory(prefix="ra-click-trace-") as tmp:
        db, cache = Database(str(Path(tmp) / "class.db")), table_moves.TableCache()

        def do(fn: Any) -> Any:
            with db.transaction() as conn:
                result, _ = fn(conn)
                staged = table_moves.staged(conn)
            cache.installed(staged)
            return result

        room = do(lambda conn: commands.create_room(conn, "TRACE", seed, None, time.time()))
        students = [
            do(lambda conn, k=k: commands.join(conn, room, f"P{k}", None, time.time())).student for k in range(3)
        ]
        spec = RoundSpec.from_dict({"kind": "ra", "group_size": 3})
        table = do(lambda conn: commands.open_round(conn, cache, room, spec, time.time()))["tables"][0]
        with db.reading() as conn, cache.game(conn, table) as game:
            seat_of = table_moves.seat_names(conn, table).seat_of
            mover = next(s for s, seat in seat_of.items() if seat == game.state.to_move)
            version, action = game.ply, str(game.state.legal_actions()[0])
        calls: Counter[str] = Counter()
        every: Counter[str] = Counter()  # every call, the database's included, by package

        def profile(frame: FrameType, event: str, arg: Any) -> None:
            if event != "call":
                return
            where = frame.f_code.co_filename
            if where.startswith(ROOT) and "/.venv/" not in where:
                calls[_qualified(frame)] += 1
                every[_qualified(frame).split(".")[0]] += 1
            else:
                every["others (the database, the standard library)"] += 1

        sys.setprofile(profile)
        try:
            ply = do(lambda conn: commands.move(conn, cache, mover, table, action, version, time.time()))
            with db.reading() as conn:
                views = build_views(conn, cache, students, time.time())
            sent = [json.dumps(v) for v in views.values()]
        finally:
            sys.setprofile(None)
        db.close()
    ours = {name: n for name, n in calls.items() if name.startswith(("ra_core.", "ra_classroom."))}
    return {
        "action": action,
        "ply": (version, ply),
        "bytes": sum(map(len, sent)),
        "calls": Counter(ours),
        "total": sum(ours.values()),
        "every": every,
        "files": len({name.rsplit(".", 2)[0] for name in ours}),
        "checks": {check: calls[check] for check in CLASSROOM},
    }


def print_classroom(show: bool) -> None:
    """Print the trace of one classroom move."""
    t = trace_classroom_move()
    version, ply = t["ply"]
    print(f"one classroom move {t['action']!r} at a table of 3 students (ply {version} -> {ply}), and their 3 pages:")
    print(f"  calls into ra_core and ra_classroom: {t['total']}, in {t['files']} files")
    print("  calls in all: " + ", ".join(f"{k}: {n}" for k, n in t["every"].most_common()))
    print(f"  the 3 pages sent: {t['bytes']:,} characters")
    print("  each check and computation (calls, for the move and the 3 pages):")
    for check, n in t["checks"].items():
        print(f"    {check:52} {n}")
    if show:
        for name, n in t["calls"].most_common():
            print(f"  {n:5d}  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=2, help="the game's seed (notebook 07 plays seed 2)")
    parser.add_argument("--action", default="draw", help="the piece clicked, as its action text")
    parser.add_argument("--show", action="store_true", help="print the calls per function")
    parser.add_argument("--classroom", action="store_true", help="trace a classroom move and its pages instead")
    args = parser.parse_args()
    if args.classroom:
        print_classroom(args.show)
        return
    t = trace_click(args.seed, args.action)
    print(f"one click on {args.action!r} (3 players, seed {args.seed}):")
    print(f"  hops to the engine: {len(t['to_engine'])}: " + " -> ".join(t["to_engine"]))
    print(f"  hops back:          {t['back']}: board sent from " + " -> ".join(t["to_board"]))
    print(f"  ra_core calls:      {t['total']}, of which the engine's: {t['engine']}")
    print("  checks (before the move is played / in all):")
    for check, (before, every) in t["checks"].items():
        print(f"    {check:36} {before} / {every}")
    print("  calls into " + ", ".join(f"{module}: {n}" for module, n in t["modules"].items()))
    if args.show:
        for name, n in t["calls"].most_common():
            print(f"  {n:5d}  {name}")


if __name__ == "__main__":
    main()
