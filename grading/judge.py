"""The teacher's judge: each task's points decided in a process that runs no code of the student's.

A submission's code cells run in a sandbox (`grading.sandbox`, `grading.worker`), in the order of
the notebook; at each check cell the judge grades that task there and then, as the notebook would
have: it runs the task's judges (the same `Task.judge` and `Task.hidden` as the student's own
checks, from ``ra_course.exercises``) with a `Remote` in place of the student's function. A
`Remote` sends the inputs the judge chose to the sandbox and takes back the answer as plain data
(`ra_course.exercises.wire`): numbers, strings, tuples, actions. Then:

* expected answers, hidden cases and their hashed answers (``grading/cases.py``,
  ``grading/answers.py``) exist only here, in the judge's process;
* a simulation's generator is seeded by the judge, which learns from the sandbox only how many
  numbers the student's function drew, and draws them itself (`Recorder.replayed`): what the
  student's function did to its own copy in the sandbox cannot change the numbers replayed;
* a bot plays from the sandbox: the judge runs each game (the engine, the opponents, the tiles
  drawn) and asks the sandbox for the student's decisions only, telling it the actions since;
* the verdict of each check cell, and with it its points, is the judge's: nothing the student's
  code prints, displays, returns or writes is read as points (`grading.scoring` writes the
  verdicts as the check cells' outputs, the only outputs nbgrader scores).

A sandbox that dies or hangs (an endless loop, a memory limit) fails the task it was asked for,
and is started again, with the cells that ran before, for the next one.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ra_core.analysis.tournament import TIME_LIMIT
from ra_core.engine.state import State
from ra_course.exercises import checking, sheet
from ra_course.exercises.checking import (
    CALL_SECONDS,
    Delegated,
    Hidden,
    NotAttempted,
    Player,
    Sheet,
    Task,
    Verdict,
    Wrong,
    verdict,
)
from ra_course.exercises.replay import Recorder
from ra_course.exercises.verdicts import (
    budget_spent,
    failed_on_hidden,
    forbidden_call,
    not_defined,
    not_plain,
    raised,
    returns_nothing,
    timed_out,
)
from ra_course.exercises.wire import decode, encode

from .answers import ANSWERS
from .cases import CASES
from .games import Game, play_in_step
from .sandbox import Limits, Sandbox, SandboxError
from .seeds import SeedBook, decision_rng, fresh_cases

__all__ = ["NOTEBOOKS", "Options", "Remote", "Session", "TaskResult", "judge_cells", "sheet_of", "student_sources"]

#: the sheets by the name of their notebook (nbgrader's notebook id)
NOTEBOOKS = {
    "01_auctions_from_first_principles": "auctions",
    "02_ras_auction": "ra_auction",
    "03_expected_value_in_the_bag": "bag",
    "04_write_a_bidder": "bidder",
    "05_reserve_prices_and_the_optimal_auction": "reserve",
    "06_multi_unit_auctions": "multiunit",
}
#: seconds the judge waits for a reply beyond the time the sandbox gives the student's function
MARGIN = 10.0
#: the seconds a whole notebook may take in the sandbox by default (sheet 4, the slowest: about 60 s)
NOTEBOOK_SECONDS = 1200.0
#: numbers the single-position checks of a bot give their games (as a game of `grading.games` has its own)
_CHECKS = itertools.count()
#: the most numbers a simulation may draw in one call (sheet 1's Task 5 draws 120,000)
MAX_DRAWS = 20_000_000


def sheet_of(notebook: str) -> Sheet:
    """Return the exercise sheet of the notebook called `notebook` (its name without ``.ipynb``)."""
    if notebook not in NOTEBOOKS:
        raise KeyError(f"{notebook!r} is not an exercise sheet of this course; the sheets are {', '.join(NOTEBOOKS)}")
    return sheet(NOTEBOOKS[notebook])


@dataclasses.dataclass(frozen=True)
class Options:
    """How the judge runs a submission.

    Attributes:
        cell_seconds: the seconds one cell of the student's may run.
        notebook_seconds: the seconds the whole notebook may take in the sandbox: its cells, the checks'
            calls, and the cells run again after a restart. What is left when it is spent fails.
        unsafe: run the student's code without a sandbox (the teacher asked for it plainly).
        hidden: files and folders the sandbox must never show (the course folder, the gradebook).
        limits: memory, CPU time and the rest of the sandbox's limits.
        seeds: where the hidden tests' seeds drawn when grading are kept (`grading.seeds`).
        submission: whose submission this is (student and assignment), the key of its seeds.
    """

    cell_seconds: float = 300.0
    notebook_seconds: float = NOTEBOOK_SECONDS
    unsafe: bool = False
    hidden: tuple[Path, ...] = ()
    limits: Limits = dataclasses.field(default_factory=Limits)
    seeds: SeedBook = dataclasses.field(default_factory=SeedBook)
    submission: str = "a submission"


class Session:
    """A submission's code in a sandbox: its cells run in order, its functions called on the judge's inputs.

    The sandbox is started on first use with the sheet's forbidden package functions made tripwires, and
    started again (the cells that ran so far run again first) after it died or was killed, and after it
    was given hidden inputs (`exposed`): what the student's code kept of them dies with that process and
    its scratch folder, so that nothing of them reaches a later cell's output or message. Everything
    it does, restarts included, comes out of the notebook's time budget (`Options.notebook_seconds`).
    """

    def __init__(self, forbidden: Iterable[str], options: Options, lasting: bool = True) -> None:
        self.forbidden, self.options, self.lasting = list(forbidden), options, lasting
        self.cells: list[str] = []
        self.box: Sandbox | None = None
        self.exposed = False
        self.deadline = time.monotonic() + options.notebook_seconds

    def _left(self, seconds: float) -> float:
        """Return `seconds`, or less where the notebook's time budget ends sooner; raise `SandboxError` if it has."""
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise SandboxError("budget")
        return min(seconds, left)

    def _sandbox(self, hidden: bool = False) -> Sandbox:
        """Return the running sandbox, or a new one: if none runs, it died, or it had hidden inputs and this is not.

        `hidden`: the request to come holds hidden inputs too.
        """
        if self.box is None or not self.box.alive or (self.exposed and not hidden):
            self.close()
            self.exposed = False
            self.box = Sandbox(
                self.options.limits,
                unsafe=self.options.unsafe,
                hidden=self.options.hidden,
                forbidden=self.forbidden if self.lasting else (),  # a sheet's tools need them: tripwires in calls only
            )
            start = {"op": "start", "forbidden": self.forbidden, "lasting": self.lasting, "seconds": CALL_SECONDS}
            self.box.request(start, self._left(120))
            for source in self.cells:
                self.box.request({"op": "cell", "source": source}, self._left(self.options.cell_seconds))
        return self.box

    def run_cell(self, source: str) -> dict[str, Any]:
        """Run one code cell of the student's; return its printed text and error (a reply of the worker)."""
        try:
            reply = self._sandbox().request({"op": "cell", "source": source}, self._left(self.options.cell_seconds))
        except SandboxError as e:  # this cell is not run again: it would stop every later check too
            return {"stdout": "", "error": {"ename": "CellStopped", "evalue": _stopped(str(e), self.options)}}
        self.cells.append(source)
        return reply

    def request(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send `message` to the sandbox and return its reply; raise `SandboxError` if none comes."""
        return self._sandbox().request(message, self._left(timeout))

    def send(self, message: dict[str, Any], hidden: bool = False) -> int:
        """Send `message` to the sandbox without waiting; return its number for `receive`.

        `hidden`: it holds hidden inputs; the sandbox is then `exposed`, and replaced before a request without.
        """
        number = self._sandbox(hidden).send(message)
        self.exposed = self.exposed or hidden
        return number

    def receive(self, number: int, timeout: float) -> dict[str, Any]:
        """Return the sandbox's reply to the request `number`; raise `SandboxError` if none comes."""
        if self.box is None:
            raise SandboxError("the process ended")
        return self.box.receive(number, self._left(timeout))

    def close(self) -> None:
        """End the sandbox and everything it started."""
        if self.box is not None:
            self.box.close()
            self.box = None


def _stopped(why: str, options: Options) -> str:
    if why == "budget":
        return budget_spent(options.notebook_seconds)
    if why == "timeout":
        return f"the cell ran longer than {options.cell_seconds:g} seconds and was stopped"
    return f"the cell stopped the process that runs it: {why}"


class Remote(Delegated):
    """The student's function `name` in the sandbox of `session`: the judges call it as their `call` does.

    It also plays the student's bot: one game at a time (`policy`), or many in step (`play`). Every
    request must be answered before `deadline` (a `time.monotonic` time: the check cell's time).
    With `hidden` (the hidden tests' inputs), the session is `exposed` from the first request, and
    nothing the student's code says comes back (an exception's text, its line, a type's name).
    """

    def __init__(
        self, session: Session, name: str, deadline: float | None = None, label: str = "", hidden: bool = False
    ) -> None:
        self.session, self.name, self.deadline, self.hidden = session, name, deadline, hidden
        self.label = label or f"`{name}`"  # the bot, in a message about a game

    def answer(self, name: str, args: tuple[Any, ...]) -> Any:
        """Return the student's ``name(*args)`` from the sandbox, as plain data; raise `NotAttempted` or `Wrong`."""
        if len(args) == 2 and type(args[0]) is State and isinstance(args[1], random.Random):
            return self._decision(name, args[0])
        recorders = [a for a in args if type(a) is Recorder]
        message = {"op": "call", "name": self.name, "args": [encode(a) for a in args]}
        number = self._send(name, message)
        return self.result(name, self._receive(name, number, CALL_SECONDS + MARGIN), recorders)

    def _decision(self, name: str, state: State) -> Any:
        """Return the bot's decision in `state` asked as a game asks it: a game's start, a fresh generator."""
        move = {"game": f"check-{next(_CHECKS)}", "start": encode(state), "rng": encode(decision_rng("check", state))}
        number = self._send(
            name, {"op": "moves", "name": self.name, "moves": [move], "seconds": TIME_LIMIT, "fresh": True}
        )
        replies = self._receive(name, number, TIME_LIMIT + MARGIN).get("replies")
        if type(replies) is not list or len(replies) != 1 or type(replies[0]) is not dict:
            raise Wrong(f"the process that runs `{self.name}` did not give its decision")
        return self.result(name, replies[0], [])

    def policy(self, name: str) -> Player:
        """Return the student's bot as the player of one game, deciding in the sandbox."""
        return _RemotePlayer(self, name)

    def play(self, name: str, games: list[tuple[int, list[Any]]], time_limit: float) -> list[Any]:
        """Play each game (seed, players; None: the student's bot) to its end, all in step; return the final states."""
        runs = [Game(seed, [self if p is None else p for p in players], time_limit) for seed, players in games]
        return play_in_step(runs, time_limit, self.deadline)

    def send_moves(self, moves: list[dict[str, Any]], seconds: float, fresh: bool) -> int:
        """Ask the sandbox for the bot's decision in each game of `moves` (see `grading.games`), without waiting."""
        message = {"op": "moves", "name": self.name, "moves": moves, "seconds": seconds, "fresh": fresh}
        return self._send(self.name, message)

    def receive_moves(self, number: int, count: int, seconds: float) -> list[Any]:
        """Return the bot's `count` decisions asked by `send_moves`, as actions; raise `Wrong` for a failure."""
        replies = self._receive(self.name, number, seconds).get("replies")
        if type(replies) is not list or len(replies) != count or not all(type(r) is dict for r in replies):
            raise Wrong(f"the process that runs `{self.name}` did not give its {count} decisions")
        return [self.result(self.label.strip("`"), reply, []) for reply in replies]

    def _send(self, name: str, message: dict[str, Any]) -> int:
        try:
            return self.session.send(message, hidden=self.hidden)
        except SandboxError as e:
            raise self._failure(name, e, 0.0) from None

    def _receive(self, name: str, number: int, timeout: float) -> dict[str, Any]:
        if self.deadline is not None:
            timeout = min(timeout, self.deadline - time.monotonic())
        try:
            return self.session.receive(number, max(timeout, 0.0))
        except SandboxError as e:
            raise self._failure(name, e, timeout) from None

    def _failure(self, name: str, error: SandboxError, timeout: float) -> Wrong:
        """Return what to say when the sandbox gave no reply: the notebook's budget, the cell's time, or its end."""
        if str(error) == "budget" or time.monotonic() >= self.session.deadline:
            return Wrong(budget_spent(self.session.options.notebook_seconds))
        if str(error) == "timeout" and self.deadline is not None and time.monotonic() >= self.deadline:
            return Wrong(f"the check of `{name}` took longer than this cell may run")
        if str(error) == "timeout":
            return Wrong(timed_out(name, timeout - MARGIN))
        return Wrong(f"`{name}` stopped the Python process that runs it: {error}")

    def result(self, name: str, reply: dict[str, Any], recorders: list[Recorder]) -> Any:
        """Return the answer in `reply`, or raise what it says went wrong; note each generator's draws."""
        draws = reply.get("draws", [])
        if type(draws) is not list or len(draws) != len(recorders):
            raise Wrong(f"the process that runs `{name}` gave no count of its draws")
        for rng, drawn in zip(recorders, draws, strict=True):
            if not (type(drawn) is list and len(drawn) == 3 and all(type(x) in (int, bool) for x in drawn)):
                raise Wrong(f"the process that runs `{name}` gave no count of its draws")
            count, other, reset = drawn
            if not 0 <= count <= MAX_DRAWS:
                raise Wrong(f"`{name}` drew more than {MAX_DRAWS:,} numbers from `rng`")
            rng.replayed(int(count), int(other), bool(reset))
        tripped = reply.get("tripped")
        if tripped and type(tripped) is list and type(tripped[0]) is str:
            raise Wrong(forbidden_call(name, tripped[0]))
        return self._value(name, reply)

    def _value(self, name: str, reply: dict[str, Any]) -> Any:
        if reply.get("missing"):
            raise NotAttempted(not_defined(self.name))
        if reply.get("stub"):
            raise NotAttempted()
        if "timeout" in reply:
            seconds = reply["timeout"]
            raise Wrong(timed_out(name, seconds if type(seconds) in (int, float) else CALL_SECONDS))
        if self.hidden and ("raised" in reply or "unreadable" in reply or "value" not in reply):
            raise Wrong(failed_on_hidden(name))
        if "raised" in reply:
            kind, message, where = (str(reply.get(k, ""))[:200] for k in ("raised", "message", "where"))
            raise Wrong(raised(name, kind, message, where))
        if "unreadable" in reply:
            raise Wrong(not_plain(f"`{name}`", str(reply["unreadable"])))
        if "value" not in reply:
            raise Wrong(f"the process that runs `{name}` could not call it: {str(reply.get('failed', ''))[:200]}")
        try:
            value = decode(reply["value"])
        except (ValueError, RecursionError) as e:
            raise Wrong(
                failed_on_hidden(name) if self.hidden else f"`{name}` returned an answer that could not be read: {e}"
            ) from None
        if value is None or value is Ellipsis:
            raise NotAttempted(returns_nothing(name, value))
        return value


class _RemotePlayer(Player):
    """The student's bot in one game: asked for each decision in the sandbox, told the game's actions between."""

    _games = itertools.count()

    def __init__(self, remote: Remote, name: str) -> None:
        super().__init__(self._decide)
        self.remote, self.name, self.__name__ = remote, name, name
        self.game, self.started = f"player-{next(self._games)}", False
        self.pending: list[str] = []

    def _decide(self, state: Any, rng: Any) -> Any:
        move: dict[str, Any] = {"game": self.game, "actions": self.pending}
        if not self.started:
            move = {"game": self.game, "start": encode(state)}
        move["rng"] = encode(decision_rng(self.game, state))  # a fresh generator each decision, as in `grading.games`
        self.started, self.pending = True, []
        number = self.remote.send_moves([move], TIME_LIMIT, fresh=False)
        (action,) = self.remote.receive_moves(number, 1, TIME_LIMIT + MARGIN)
        return action

    def saw(self, action: Any) -> None:
        """Take note of an action of the game, for the sandbox's copy of it."""
        self.pending.append(str(action))


@dataclasses.dataclass(frozen=True)
class TaskResult:
    """The judge's verdict on one task: the visible checks', then the hidden tests' (if the visible passed)."""

    visible: Verdict
    hidden: Verdict | None

    @property
    def passed(self) -> bool:
        """Return whether the task earns its points: every check passed."""
        return self.visible.passed and (self.hidden is None or self.hidden.passed)

    @property
    def last(self) -> Verdict:
        """Return the verdict that decided: the hidden tests' if they ran, else the visible checks'."""
        return self.hidden or self.visible


def judge_task(task: Task, sheet_name: str, session: Session, seconds: float = 300.0) -> TaskResult:
    """Return the judge's verdict on `task`: its visible checks, then its hidden tests, on the sandbox's function.

    Both within `seconds`, the time nbgrader gives the check cell that runs them.
    """
    deadline = time.monotonic() + seconds
    remote = Remote(session, task.answer, deadline=deadline)
    visible = verdict(task, lambda: task.judge(remote))
    if not visible.passed or task.hidden is None:
        return TaskResult(visible, None)
    hidden_judge = task.hidden
    options = session.options
    cases = fresh_cases(sheet_name, task.key, CASES[sheet_name][task.key], options.seeds, options.submission)
    data = Hidden(sheet_name, task.key, cases=cases, answers=ANSWERS.get(sheet_name, {}).get(task.key, ()))
    secret = Remote(session, task.answer, deadline=deadline, hidden=True)
    return TaskResult(visible, verdict(task, lambda: hidden_judge(secret, data)))


def judge_cells(cells: list[dict[str, Any]], notebook: str, options: Options) -> list[list[dict[str, Any]]]:
    """Return the outputs of each cell of a submission (nbformat's cells as dicts), as the judge decides them.

    The code cells of the student's run in the sandbox, in order; each check cell (nbgrader's
    grade cell ``task-N-check``) gets the judge's verdict on task N at that point; the summary
    cell, the points of every task. Markdown cells get none.
    """
    found = sheet_of(notebook)
    session = Session(found.forbidden, options, found.lasting_tripwires)
    results: dict[str, TaskResult] = {}
    out: list[list[dict[str, Any]]] = []
    try:
        for cell in cells:
            meta = cell.get("metadata", {}).get("nbgrader", {})
            if cell.get("cell_type") != "code":
                out.append([])
            elif meta.get("grade"):
                key = str(meta.get("grade_id", "")).removeprefix("task-").removesuffix("-check")
                task = next((t for t in found.tasks if t.key == key), None)
                if task is None:
                    out.append([_error("NotACheck", f"{meta.get('grade_id')!r} is not a check of {found.title}")])
                    continue
                results[key] = judge_task(task, found.name, session, options.cell_seconds)
                out.append(_verdict_outputs(results[key]))
            elif meta.get("grade_id") == "summary":
                out.append([_stream(_summary(found, results))])
            else:
                out.append(_cell_outputs(session.run_cell("".join(cell.get("source", "")))))
    finally:
        session.close()
    return out


def _is_check(cell: dict[str, Any]) -> bool:
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return bool(meta.get("grade")) or meta.get("grade_id") == "summary"


def student_sources(cells: list[dict[str, Any]]) -> list[str]:
    """Return the code of a submission's cells that run in the sandbox: all but the check and summary cells."""
    return ["".join(c.get("source", "")) for c in cells if c.get("cell_type") == "code" and not _is_check(c)]


def _stream(text: str) -> dict[str, Any]:
    return {"output_type": "stream", "name": "stdout", "text": text}


def _error(name: str, message: str) -> dict[str, Any]:
    return {"output_type": "error", "ename": name, "evalue": message, "traceback": message.splitlines()}


def _verdict_outputs(result: TaskResult) -> list[dict[str, Any]]:
    """Return a check cell's outputs: nbgrader gives full points to the first kind, none to the others."""
    if result.passed:
        return [_stream("".join(v.message() + "\n" for v in (result.visible, result.hidden) if v is not None))]
    last = result.last
    if last.status == "not attempted":
        note = checking.NotAttemptedYet(last.message())._repr_mimebundle_()
        return [{"output_type": "execute_result", "execution_count": None, "metadata": {}, "data": note}]
    return [_error("CheckFailed", last.message())]


def _summary(found: Sheet, results: dict[str, TaskResult]) -> str:
    earned = sum(t.points for t in found.tasks if t.key in results and results[t.key].passed)
    lines = [f"{found.title}: {earned} of {found.points} points (the teacher's grading)"]
    for t in found.tasks:
        result = results.get(t.key)
        if result is None:
            mark, text = "·", "not checked"
        elif result.passed:
            mark, text = "✔", "correct"
        elif result.last.status == "not attempted":
            mark, text = "·", checking.NOT_ATTEMPTED
        else:
            mark, text = "✘", "not right yet"
        lines.append(f"  {mark} {t.label} ({t.points} points): {text}")
    return "\n".join(lines) + "\n"


def _cell_outputs(reply: dict[str, Any]) -> list[dict[str, Any]]:
    """Return a student's cell's outputs from the sandbox's reply: plain text only (no HTML of the student's)."""
    out = []
    text = reply.get("stdout")
    if type(text) is str and text:
        out.append(_stream(text))
    error = reply.get("error")
    if type(error) is dict:
        name, value = str(error.get("ename", "Error"))[:80], str(error.get("evalue", ""))[:500]
        out.append(_error(name, f"{name}: {value}"))
    return out
