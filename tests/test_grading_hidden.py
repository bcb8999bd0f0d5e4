"""The teacher's judge gives nothing back of what it sent a submission's code, and holds it to a time budget.

Attacks, each earning nothing: a student's function keeps the hidden inputs it is called with (in a
global, in a file of the scratch folder) and a cell after the check prints them, or it raises an
exception whose text (or whose type's name) is the hidden input, so that the feedback would show
the teacher's cases; a notebook whose cells each stay under the cell's time takes the judge's
time without end by many such cells (and restarts replay them).
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from grading import cases, judge, sandbox
from grading.games import Game
from grading.judge import Options, Session, judge_task
from grading.seeds import SeedBook, fresh_cases, record_key
from ra_core.bots import random_bot
from ra_core.engine.actions import Draw
from ra_core.engine.setup import new_game
from ra_core.play import bot_stream
from ra_course.exercises.checking import Sheet, Task, call, on_hidden_cases
from ra_course.exercises.wire import decode, encode

SECRET = "teacher-endgame-7713"


def _echo(f: Any, cases: list[tuple[Any, ...]]) -> str:
    for (case,) in cases:
        if call(f, "echo", case) != len(case):
            raise AssertionError("wrong length")
    return "fine."


TASK = Task("1", "Echo", 1, "echo", lambda f: _echo(f, [("visible",)]), ("a", "b"), hidden=on_hidden_cases(_echo))
SHEET = Sheet("demo", "Demo", (TASK,))

KEEPER = f"""\
_kept = []

def echo(text):
    _kept.append(text)
    with open("/tmp/kept.txt", "a") as f:
        f.write(text + "\\n")
    if text == {SECRET!r}:
        raise type(text, (Exception,), {{}})(text)
    return len(text)
"""
LATER = """\
import os
print(_kept, open("/tmp/kept.txt").read() if os.path.exists("/tmp/kept.txt") else "")
raise ValueError(repr(_kept))
"""


def _session(**options: Any) -> Session:
    why = sandbox.problem()
    if why:
        pytest.fail(why) if os.environ.get("CI") else pytest.skip(why)
    return Session((), Options(**options))


def test_hidden_inputs_kept_by_the_students_code_never_reach_a_later_cell_or_the_verdict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(cases.CASES, "demo", {"1": [[SECRET]]})
    session = _session()
    try:
        session.run_cell(KEEPER)
        result = judge_task(TASK, "demo", session, 60)
        assert result.visible.passed and result.hidden is not None and not result.hidden.passed
        said = result.hidden.message()
        assert SECRET not in said and "hidden case" in said, said
        later = session.run_cell(LATER)
        assert SECRET not in repr(later), later  # the process that saw it is gone, with its scratch folder
        assert "visible" not in later["stdout"]  # the cells ran again in a new process: no check has called it there
    finally:
        session.close()


def test_a_notebook_is_held_to_its_time_budget_restarts_included() -> None:
    session = _session(notebook_seconds=3.0, cell_seconds=2.5)
    try:
        first = session.run_cell("import time\ntime.sleep(1.5)")
        assert first["error"] is None
        second = session.run_cell("time.sleep(1.5)")
        third = session.run_cell("print('never')")
    finally:
        session.close()
    assert second["error"] is not None or third["error"] is not None
    assert "used up the 3 seconds" in third["error"]["evalue"]


# -- a judge nothing can predict ----------------------------------------------------------------


def test_hidden_seeds_are_drawn_from_the_os_when_grading_and_kept_for_regrading(tmp_path: Path) -> None:
    """The hidden tournaments' seeds were in grading/cases.py, small enough to try every one below 3,000: now
    each submission's hidden simulations and games take seeds drawn when it is graded, kept in the course's
    record (no sandbox shows the course folder), the same when it is graded again."""
    record = tmp_path / "hidden_seeds.json"
    book = SeedBook(record)
    bidder = fresh_cases("bidder", "5", cases.CASES["bidder"]["5"], book, "alice/sheet4")
    auctions = fresh_cases("auctions", "2", cases.CASES["auctions"]["2"], book, "alice/sheet1")
    assert bidder["seed"] != cases.CASES["bidder"]["5"]["seed"] and bidder["seed"] >= 2**32
    assert [c[:-1] for c in auctions] == [c[:-1] for c in cases.CASES["auctions"]["2"]]
    assert all(c[-1] >= 2**32 for c in auctions)
    again = SeedBook(record)  # a regrading, in a new process
    assert fresh_cases("bidder", "5", cases.CASES["bidder"]["5"], again, "alice/sheet4") == bidder
    assert fresh_cases("bidder", "5", cases.CASES["bidder"]["5"], again, "bob/sheet4") != bidder
    assert fresh_cases("bag", "1", cases.CASES["bag"]["1"], again, "alice/sheet3") == cases.CASES["bag"]["1"]


def test_seeds_kept_beforehand_in_the_record_are_the_ones_grading_plays(tmp_path: Path) -> None:
    """A hidden test's seeds can be fixed before grading, in the course's record (a teacher's wish, a test's need)."""
    record = tmp_path / "hidden_seeds.json"
    SeedBook(record).keep(record_key("solution/sheet4", "bidder", "5"), [950])
    book = SeedBook(record)  # grading, in another process
    assert fresh_cases("bidder", "5", cases.CASES["bidder"]["5"], book, "solution/sheet4") == {"seed": 950}
    assert fresh_cases("bidder", "5", cases.CASES["bidder"]["5"], book, "alice/sheet4")["seed"] >= 2**32
    for bad in ([], [1.5], "950", [True]):
        with pytest.raises(ValueError, match="non-empty list of integers"):
            book.keep("x/sheet4/bidder/5", bad)  # type: ignore[arg-type]


class _Recording:
    """A session that records what the judge would send a sandbox, and answers each decision with Draw()."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.exposed = False
        self.deadline = float("inf")

    def send(self, message: dict[str, Any], hidden: bool = False) -> int:
        self.sent.append(message)
        return len(self.sent)

    def receive(self, number: int, timeout: float) -> dict[str, Any]:
        moves = self.sent[number - 1]["moves"]
        return {"replies": [{"value": encode(Draw()), "draws": [], "tripped": []} for _ in moves]}


def test_a_bot_gets_no_stream_of_the_games_seed_and_cannot_tell_a_check_from_a_game() -> None:
    """Sheet 4's red team: the seat's stream, sent with a game's first decision, named the game's seed; the checks
    called the bot with random.Random(k). Now every decision, in a game or in a check, comes the same way
    (a game's start and a generator of its own, a secret-keyed hash) and no generator is the seat's stream."""
    session = _Recording()
    remote = judge.Remote(session, "my_bot")  # type: ignore[arg-type]
    state = new_game(3, seed=7)
    assert remote.answer("my_bot", (state, random.Random(0))) == Draw()
    game = Game(7, [remote, random_bot, random_bot], 1.0)
    seat = game.advance()
    assert seat == 0
    first = game.request(0)
    (check,) = session.sent[0]["moves"]
    assert session.sent[0]["op"] == "moves" and set(check) == set(first) == {"game", "start", "rng"}
    seen = [decode(check["rng"], True).random(), decode(first["rng"], True).random()]
    assert random.Random(0).random() not in seen and bot_stream(7, 0).random() not in seen
    game.decided(0, game.state.legal_actions()[0])
    while game.advance() != 0:  # the seat's next decision: a new generator, not the stream's next number
        game.decided(seat, game.state.legal_actions()[0])
    later = game.request(0)
    assert set(later) == {"game", "actions", "rng"} and decode(later["rng"], True).random() not in seen


def test_the_scan_names_a_pasted_copy_of_a_package_function_and_a_module_run_again() -> None:
    """Sheet 3's red team pasted the engine's chance_outcomes (renamed, its variables renamed, no docstring) and
    ran the odds module again with runpy: `python -m grading.audit` said "nothing found". Now it names both."""
    import inspect

    from grading import audit
    from ra_core.engine import turns

    copy = inspect.getsource(turns.chance_outcomes).replace("def chance_outcomes(s", "def odds_of(position")
    copy = copy.replace("(s)", "(position)").replace("s.", "position.")
    found = audit.pasted(copy, audit.package_shapes())
    assert [what for _, what in found] == [
        "defines odds_of, a copy of the package's ra_core.engine.turns.chance_outcomes"
    ]
    own = "def odds_of(state):\n    bag = state.bag\n    total = sum(bag.values())\n"
    own += "    return {t: n / total for t, n in bag.items()}\n"
    assert audit.pasted(own, audit.package_shapes()) == []
    assert any(
        "runpy" in what for _, what in audit.findings("import runpy\nf = runpy.run_module('ra_core.analysis.odds')")
    )


def test_the_scan_names_every_pasted_or_rerun_copy_of_the_red_teams_functions() -> None:
    """Each copy of `tests/cheats.py`'s students `pasted` and `runpy` is named: the copies of `ra_core` and of
    `ra_course` (notebook 16's functions) by their dotted names, a module run again, reloaded, or read from disk."""
    from grading import audit

    from .cheats import CHEATS

    shapes = audit.package_shapes()
    copies = {
        what for cells in CHEATS["pasted"].values() for code in cells.values() for _, what in audit.pasted(code, shapes)
    }
    for name in (
        "ra_core.analysis.valuation.lot_value",
        "ra_core.analysis.odds.next_tile_distribution",
        "ra_core.analysis.odds.tiles_before_ra",
        "ra_core.analysis.chance.draw_or_call",
        "ra_course.multiunit.pay_as_bid_bid",
        "ra_course.multiunit.vickrey_payments",
    ):
        assert any(what.endswith(f"a copy of the package's {name}") for what in copies), name
    for cells in CHEATS["runpy"].values():
        for code in cells.values():
            said = " ".join(what for _, what in audit.findings(code))
            assert any(word in said for word in ("run again", "loaded again", "read from disk", "source text")), code
