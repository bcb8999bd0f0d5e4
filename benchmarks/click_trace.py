"""The path of one click on the game table, traced call by call (`sys.setprofile`).

    .venv/bin/python benchmarks/click_trace.py [--seed 2] [--action draw] [--show] [--repeats]
    .venv/bin/python benchmarks/click_trace.py --classroom [--show] [--repeats]

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
* the checks and computations (the table below), before the move is played and in all: the
  click read (`read_click`) and its move parsed (`parse_action`), judged (`ra_core.table.judge`:
  the board's version, whose turn it is, the move's legality) against the board as drawn, the
  board's controls worked out (`BoardClicks._work_out`, with the scores over the board;
  `ra_core.table.controls`: whose turn it is, which lists the legal actions), the position's
  facts (the board's text twin, which also titles the picture), the move's sentence (`narrate`:
  the log's line and "Since your last move"), and the new board's pieces;
* the modules entered: how many calls went into the engine's notation (`engine/actions.py`) and
  the narration (`pictures/narrate.py`).

With ``--classroom`` it traces one move at a classroom Ra table of three students instead, as
the server makes it (no server: the store's commands on a SQLite file in a temporary folder).
The three seats' pages of the position clicked on are drawn first, untraced, as the server had
sent them; then the move's command in its transaction (`ra_classroom.store.commands.move`), then
the views of the three seats' pages that its event asks for, built in one batch
(`store.pages.build_views`), each view turned into the text the page is sent, are traced. It
prints the calls into `ra_core` and `ra_classroom` (and in all, the database's included) and the
files they visit.

Both print a table of each check and each computation of the click: how often it ran, how often
it should (once per click, per move made, per position drawn, per seat's page, ...) and what
that unit is. A test (tests/test_click_trace.py) asserts the same counts. With ``--repeats`` they
also list every function called more than once with the same arguments (compared by their
``repr``), the repetitions left; with ``--show``, the calls per function.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any, NamedTuple

import ra_core

PACKAGE = str(Path(ra_core.__file__).parent)
ROOT = str(Path(PACKAGE).parent)


class Row(NamedTuple):
    """A check or computation of a click: what it is, the function that makes it, and what it is made once for."""

    what: str
    function: str  # its qualified name as the trace names it
    per: str  # the unit: "click", "move made", "position drawn", "seat's page", ...


#: What one click on the notebook's table reads, checks and computes (function names below `ra_core`).
NOTEBOOK = (
    Row("read the click", "table.judge.read_click", "click"),
    Row("parse its move", "engine.actions.parse_action", "click"),
    Row("judge it (against the board as drawn)", "table.judge.judge", "click"),
    Row("play a move", "engine.state.State.apply", "move made"),
    Row("tell it (the log, since your last move)", "pictures.narrate.narrate", "line told"),
    Row("work out the board: what you may click", "widgets.board.BoardClicks._work_out", "board drawn"),
    Row("  whose turn, which choices (controls)", "table.judge.controls", "board drawn"),
    Row("  the legal actions (if you decide, or a turn)", "engine.state.State.legal_actions", "board drawn, at most"),
    Row("the facts (text twin, the picture's title)", "pictures.words.facts", "board drawn"),
    Row("the auction in words (status lines)", "pictures.words.status_lines", "board drawn"),
    Row("the board's picture", "pictures.svg.svg", "board drawn"),
    Row("the status line", "widgets.controllers.TableController.status", "board drawn"),
    Row("since your last move", "pictures.narrate.since_last_move", "board drawn"),
)
#: What one classroom move reads, checks and computes, from the click to the three seats' pages.
CLASSROOM = (
    Row("read the click", "ra_core.table.judge.read_click", "click"),
    Row("parse its move", "ra_core.engine.actions.parse_action", "click"),
    Row("read the seats, judge, store (one way in)", "ra_classroom.store.table_moves.click", "click"),
    Row("judge it (against the board as drawn)", "ra_core.table.judge.judge", "click"),
    Row("play a move", "ra_core.engine.state.State.apply", "move made"),
    Row("tell a move (once for every seat)", "ra_core.pictures.narrate.narrate", "move made"),
    Row("bring the cached game up to date", "ra_classroom.store.table_moves.TableCache._fresh", "transaction"),
    Row("who sits where", "ra_classroom.store.table_moves.seatings", "batch of pages"),
    Row("the legal actions", "ra_core.engine.state.State.legal_actions", "position drawn"),
    Row("the facts (text twin, the board's title)", "ra_core.pictures.words.facts", "position drawn"),
    Row("the auction in words (status lines)", "ra_core.pictures.words.status_lines", "position drawn"),
    Row("what a seat may click (controls)", "ra_core.table.judge.controls", "seat's page"),
    Row("a seat's view", "ra_classroom.game.table.TableGame.view", "seat's page"),
    Row("since your last move", "ra_core.pictures.narrate.since_last_move", "seat's page"),
    Row("a seat's board", "ra_core.pictures.portrait.Portraits.board", "seat's page"),
    Row("  his own panel (unchanged: the last position's)", "ra_core.pictures.portrait._mine", "seat's page, at most"),
    Row("  another player's block (alike: drawn once)", "ra_core.pictures.portrait._other", "block shown, at most"),
)


def _module(frame: FrameType, root: str) -> str:
    code = frame.f_code
    module = Path(code.co_filename).relative_to(root).with_suffix("").as_posix().replace("/", ".")
    return f"{module}.{code.co_qualname}"


def _name(frame: FrameType) -> str:
    """Return a function's name with its module's, from `ra_core` (``table.judge.judge``)."""
    return _module(frame, PACKAGE)


def _qualified(frame: FrameType) -> str:
    """Return a function's name with its module's, from the repository's root (``ra_core.table.judge.judge``)."""
    return _module(frame, ROOT)


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


def _arguments(frame: FrameType) -> str:
    """Return a call's arguments as their ``repr`` (``self``'s by identity), to find calls made again with the same."""
    code = frame.f_code
    names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    seen = []
    for name in names:
        value = frame.f_locals.get(name)
        seen.append(f"{name}=#{id(value)}" if name == "self" else f"{name}={value!r}")
    return ", ".join(seen)


def trace_click(seed: int, action: str, *, repeats: bool = False) -> dict[str, Any]:
    """Return the trace of one click on `action` in the seeded 3-player game of notebook 07.

    `repeats`: also count the calls by their arguments (slower: every argument's ``repr``).
    """
    from ra_core.widgets import play

    view = play(players=3, you=0, seed=seed)
    table, controller = view.table, view.controller
    calls: Counter[str] = Counter()
    before: Counter[str] = Counter()  # the calls made before the engine applies the clicked move
    same: Counter[tuple[str, str]] = Counter()
    found: dict[str, list[str]] = {}
    boards: list[str] = []

    def board_set(change: Any) -> None:
        found.setdefault("board", _chain(sys._getframe(1)))
        boards.append(change["new"])

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or not _ours(frame):
            return
        name = _name(frame)
        calls[name] += 1
        if repeats:
            same[name, _arguments(frame)] += 1
        if name == "engine.state.State.apply" and "apply" not in found:
            found["apply"] = _chain(frame)
        if "apply" not in found:
            before[name] += 1

    table.observe(board_set, names="board")
    message = {"kind": "click", "version": table.version, "action": action}
    made, told = len(controller.actions), len(controller.log)
    units: dict[str, int] = {}  # what the click's computations are made once for, and how many of each

    async def click() -> None:
        sys.setprofile(profile)
        try:
            table._handle_custom_msg(message, [])
        finally:
            sys.setprofile(None)
            table.unobserve(board_set, names="board")  # the bots' reply, if the loop runs it yet, is not the click's
            units.update({"move made": len(controller.actions) - made, "line told": len(controller.log) - told})

    asyncio.run(click())
    to_engine, to_board = found["apply"], found["board"]
    shared = 0
    while shared < min(len(to_engine), len(to_board)) and to_engine[shared] == to_board[shared]:
        shared += 1
    back = (len(to_engine) - shared) + (len(to_board) - shared)
    engine = sum(n for name, n in calls.items() if name.startswith("engine."))
    units.update({"click": 1, "board drawn": len(boards), "board drawn, at most": len(boards)})
    return {
        "to_engine": to_engine,
        "to_board": to_board,
        "back": back,
        "calls": calls,
        "total": sum(calls.values()),
        "engine": engine,
        "units": units,
        "rows": [(row, before[row.function], calls[row.function], units[row.per]) for row in NOTEBOOK],
        "repeated": _repeated(same),
        "modules": {
            module: sum(n for name, n in calls.items() if name.startswith(module + "."))
            for module in ("engine.actions", "pictures.narrate")
        },
    }


def _repeated(same: Counter[tuple[str, str]]) -> Counter[str]:
    """Return, per function, how many of its calls repeated an earlier call's arguments."""
    out: Counter[str] = Counter()
    for (name, _), n in same.items():
        if n > 1 and "<" not in name:  # comprehensions and inner functions are their caller's business
            out[name] += n - 1
    return out


def trace_classroom_move(seed: str = "trace", *, repeats: bool = False) -> dict[str, Any]:
    """Return the trace of one move at a classroom table of three students, and of their three pages' views.

    The pages of the position clicked on are drawn first, untraced (the server sent them when the
    round opened); the move and the pages it asks for are traced. `repeats`: as for `trace_click`.
    """
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
        with db.reading() as conn:
            shown = build_views(conn, cache, students, time.time())  # the pages the students click on
            with cache.game(conn, table) as game:
                seat_of = table_moves.seat_names(conn, table).seat_of
                mover = next(s for s, seat in seat_of.items() if seat == game.state.to_move)
                version, action = game.ply, shown[mover]["table"]["choices"][0]
        calls: Counter[str] = Counter()
        every: Counter[str] = Counter()  # every call, the database's included, by package
        same: Counter[tuple[str, str]] = Counter()

        def profile(frame: FrameType, event: str, arg: Any) -> None:
            if event != "call":
                return
            where = frame.f_code.co_filename
            if where.startswith(ROOT) and "/.venv/" not in where:
                name = _qualified(frame)
                calls[name] += 1
                every[name.split(".")[0]] += 1
                if repeats and name.startswith(("ra_core.", "ra_classroom.")):
                    same[name, _arguments(frame)] += 1
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
    pages = [v["table"] for v in views.values() if v.get("table")]
    units = {
        "click": 1,
        "move made": ply - version,
        "transaction": 2,  # the move's, and the pages' reading one
        "batch of pages": 1,
        "position drawn": len({page["ply"] for page in pages}),
        "seat's page": len(pages),
        "seat's page, at most": len(pages),
        "block shown, at most": sum(len(page["names"]) - 1 for page in pages),
    }
    return {
        "action": action,
        "ply": (version, ply),
        "bytes": sum(map(len, sent)),
        "calls": Counter(ours),
        "total": sum(ours.values()),
        "every": every,
        "files": len({name.rsplit(".", 2)[0] for name in ours}),
        "units": units,
        "rows": [(row, None, calls[row.function], units[row.per]) for row in CLASSROOM],
        "repeated": _repeated(same),
    }


def print_rows(rows: list[tuple[Row, int | None, int, int]], before: bool) -> None:
    """Print the table of checks and computations: calls (before the move is played), how many there should be."""
    head = "before / calls" if before else "calls"
    print(f"  {head:>14}  should  once per              what (function)")
    for row, early, n, want in rows:
        calls = f"{early} / {n}" if before else str(n)
        flag = "" if n <= want and (n == want or row.per.endswith("at most")) else "  <- REPEATED" if n > want else ""
        print(f"  {calls:>14}  {want:>6}  {row.per:21}  {row.what} ({row.function}){flag}")


def print_repeated(repeated: Counter[str]) -> None:
    """Print the functions called more than once with the same arguments, and how many calls repeated one."""
    print("  calls made again with the same arguments (by their repr):" + ("" if repeated else " none"))
    for name, n in repeated.most_common():
        print(f"  {n:5d}  {name}")


def print_classroom(show: bool, repeats: bool = False) -> None:
    """Print the trace of one classroom move."""
    t = trace_classroom_move(repeats=repeats)
    version, ply = t["ply"]
    print(f"one classroom move {t['action']!r} at a table of 3 students (ply {version} -> {ply}), and their 3 pages:")
    print(f"  calls into ra_core and ra_classroom: {t['total']}, in {t['files']} files")
    print("  calls in all: " + ", ".join(f"{k}: {n}" for k, n in t["every"].most_common()))
    print(f"  the 3 pages sent: {t['bytes']:,} characters")
    print("  each check and computation, for the move and the 3 pages:")
    print_rows(t["rows"], before=False)
    if repeats:
        print_repeated(t["repeated"])
    if show:
        for name, n in t["calls"].most_common():
            print(f"  {n:5d}  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=2, help="the game's seed (notebook 07 plays seed 2)")
    parser.add_argument("--action", default="draw", help="the piece clicked, as its action text")
    parser.add_argument("--show", action="store_true", help="print the calls per function")
    parser.add_argument("--repeats", action="store_true", help="list the calls made again with the same arguments")
    parser.add_argument("--classroom", action="store_true", help="trace a classroom move and its pages instead")
    args = parser.parse_args()
    if args.classroom:
        print_classroom(args.show, args.repeats)
        return
    t = trace_click(args.seed, args.action, repeats=args.repeats)
    print(f"one click on {args.action!r} (3 players, seed {args.seed}):")
    print(f"  hops to the engine: {len(t['to_engine'])}: " + " -> ".join(t["to_engine"]))
    print(f"  hops back:          {t['back']}: board sent from " + " -> ".join(t["to_board"]))
    print(f"  ra_core calls:      {t['total']}, of which the engine's: {t['engine']}")
    print("  each check and computation (before the move is played / in all):")
    print_rows(t["rows"], before=True)
    print("  calls into " + ", ".join(f"{module}: {n}" for module, n in t["modules"].items()))
    if args.repeats:
        print_repeated(t["repeated"])
    if args.show:
        for name, n in t["calls"].most_common():
            print(f"  {n:5d}  {name}")


if __name__ == "__main__":
    main()
