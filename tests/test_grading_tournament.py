"""The class tournament of sheet 4's bots (grading/tournament.py): each bot decides in a sandbox of its own.

Five students hand in sheet 4: alice the solution, bob a bot of his own that bids for nothing,
carol the sheet as handed out (``my_bot`` still the stub), dave a bot that asks the package's
heuristic bot, and eve a bot that first tries to read alice's notebook and would play an illegal
action if it could. The tournament leaves out carol and dave, each with the reason, and plays
alice, bob, eve and the heuristic bot: eve's sandbox cannot see alice's file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from grading import sandbox, tournament

ROOT = Path(__file__).resolve().parent.parent
SHEET = "04_write_a_bidder.ipynb"

BOB = """\
def my_bot(state, rng):  # never bids, never calls Ra: legal, and its own
    legal = state.legal_actions()
    for choice in (Pass(), Draw(), Done()):
        if choice in legal:
            return choice
    return legal[0]
"""
DAVE = "def my_bot(state, rng):\n    return heuristic_bot(state, rng)"
EVE = """\
import os

_ALICE = {alice!r}
_SEEN = os.path.exists(_ALICE)

def my_bot(state, rng):
    if _SEEN:
        return Bid(99)  # would be left out: the tournament would say so
    legal = state.legal_actions()
    return legal[-1] if state.phase is Phase.BID else legal[0]
"""


def _hand_in(course: Path, student: str, answer: str | None) -> Path:
    source = ROOT / "exercises" / ("source" if answer is None and student == "alice" else "release") / SHEET
    nb = json.loads(source.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if answer and cell["metadata"].get("nbgrader", {}).get("grade_id") == "task-3-answer":
            cell["source"] = answer
    folder = course / "submitted" / student / "sheet4"
    folder.mkdir(parents=True)
    (folder / SHEET).write_text(json.dumps(nb), encoding="utf-8")
    return folder / SHEET


def test_each_bot_plays_from_its_own_sandbox(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    why = sandbox.problem()
    if why:
        pytest.fail(why) if os.environ.get("CI") else pytest.skip(why)
    alice = _hand_in(tmp_path, "alice", None)
    for student, answer in (("bob", BOB), ("carol", None), ("dave", DAVE), ("eve", EVE.format(alice=str(alice)))):
        _hand_in(tmp_path, student, answer)
    monkeypatch.chdir(tmp_path)  # the course folder, where the teacher runs it
    assert tournament.main(["sheet4", "heuristic", "--games", "12", "--players", "3"]) == 0
    out, err = capsys.readouterr()
    left_out = dict(line.removeprefix("left out: ").split(": ", 1) for line in err.splitlines())
    assert set(left_out) == {"carol", "dave"}, err
    assert "stub" in left_out["carol"] or "not defined" in left_out["carol"]
    assert "heuristic" in left_out["dave"] or "__call__" in left_out["dave"]
    table = out.split("\n", 1)[1]
    assert all(name in table for name in ("alice", "bob", "eve", "heuristic")), out
    assert "12 games, 3 players, seed 0: alice / bob / eve / heuristic" in out


MALLORY = 'def my_bot(state, rng):\n    raise RuntimeError("alice")  # names another student in its text'


def test_a_failing_bot_is_found_by_where_it_failed_never_by_the_text_of_its_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """mallory's bot raises RuntimeError("alice") and al's (a name inside "alice") plays an illegal bid: both
    fail in the tournament itself (the trial games are skipped here); both are left out, alice's honest bot plays."""
    why = sandbox.problem()
    if why:
        pytest.fail(why) if os.environ.get("CI") else pytest.skip(why)
    _hand_in(tmp_path, "alice", None)
    _hand_in(tmp_path, "mallory", MALLORY)
    _hand_in(tmp_path, "al", "def my_bot(state, rng):\n    return Bid(99)")
    monkeypatch.setattr(tournament, "_failed", lambda *args: None)
    monkeypatch.chdir(tmp_path)
    assert tournament.main(["sheet4", "random", "--games", "6", "--players", "2"]) == 0
    out, err = capsys.readouterr()
    left_out = dict(line.removeprefix("left out: ").split(": ", 1) for line in err.splitlines())
    assert set(left_out) == {"mallory", "al"}, err
    assert "RuntimeError" in left_out["mallory"] and "bid 99" in left_out["al"]
    assert "6 games, 2 players, seed 0: alice / random" in out
