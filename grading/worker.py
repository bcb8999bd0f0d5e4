"""The sandbox's side of grading: runs a submission's cells, and calls its functions on the judge's inputs.

This runs inside the sandbox (`grading.sandbox`), a copy of this file the only one of ``grading/``
there: it is the only code of the teacher's beside the student's, and it decides nothing. It reads one
request a line (JSON) and writes one reply a line:

* ``start``: make the package functions the sheet forbids tripwires: for good
  (`ra_course.exercises.guards.disable`), before any cell of the student's runs, or (where a tool the
  sheet allows needs one of them) while his functions are called;
* ``cell``: run a code cell as a notebook would (IPython: magics and ``!`` lines too), and reply
  with what it printed and the error it raised, as text;
* ``call``: call the student's function by its name on the inputs given
  (`ra_course.exercises.wire`), within a time limit, and reply with the answer as plain data, or
  with what went wrong (the stub, an exception and its line, an answer of no plain type), the
  numbers each simulation's generator gave out, and the forbidden functions it called;
* ``moves``: the same for a bot's next decision in each of many games this process follows: a
  game's start, then the actions taken since the bot's last decision there (`grading.games`; the
  tiles to come stay with the judge).

Everything the student's code can do here ends at the reply: the judge reads it as data, checks it
against what it worked out itself, and decides the points.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from typing import Any


def main() -> None:
    """Serve the judge's requests until it closes the pipe (the folder of the judge's package first on the path)."""
    sys.path[:0] = sys.argv[1:2]
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    quiet = os.open(os.devnull, os.O_RDWR)
    os.dup2(quiet, 0)  # the student's code reads nothing of the judge's, and writes nothing it reads
    os.dup2(quiet, 1)
    worker = Worker()
    for line in requests:
        request = json.loads(line)
        try:
            reply = worker.handle(request)
        except Exception as e:  # a request this worker cannot serve (an input it cannot decode)
            reply = {"failed": f"{type(e).__name__}: {e}"[:300]}
        reply["id"] = request.get("id")
        try:
            text = json.dumps(reply, separators=(",", ":"))
        except (TypeError, ValueError) as e:  # an answer too large to write (an int of 5000 digits)
            text = json.dumps({"id": request.get("id"), "unreadable": f"{type(e).__name__}"})
        replies.write(text + "\n")
        replies.flush()


class Worker:
    """The student's namespace, and the games his bot follows."""

    def __init__(self) -> None:
        self.seconds = 30.0
        self.forbidden: list[str] = []  # tripwires while the student's functions are called
        self.shell: Any = None
        self.namespace: dict[str, Any] = {"__name__": "__main__"}
        self.games: dict[str, Any] = {}

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """Return the reply to one request."""
        op = request["op"]
        if op == "start":
            return self.start(request["forbidden"], bool(request["lasting"]), float(request["seconds"]))
        if op == "cell":
            return self.cell(request["source"])
        if op == "call":
            from ra_course.exercises.wire import decode

            return self.call(request["name"], [decode(a, inputs=True) for a in request["args"]])
        if op == "moves":
            return self.moves(request)
        raise ValueError(f"no request {op!r}")

    def start(self, forbidden: list[str], lasting: bool, seconds: float) -> dict[str, Any]:
        """Make the forbidden package functions tripwires (for good if `lasting`); make the shell that runs cells."""
        from ra_course.exercises.guards import disable

        if lasting:
            disable(forbidden)
        else:
            self.forbidden = list(forbidden)
        self.seconds = seconds
        try:
            from IPython.core.interactiveshell import InteractiveShell
            from traitlets.config import Config
        except ImportError:  # a plain Python: cells run without magics
            return {"ok": True, "ipython": False}
        config = Config()
        config.HistoryManager.enabled = False
        config.InteractiveShell.colors = "NoColor"
        config.InteractiveShell.xmode = "Plain"
        self.shell = InteractiveShell.instance(config=config, user_ns=self.namespace)
        return {"ok": True, "ipython": True}

    def cell(self, source: str) -> dict[str, Any]:
        """Run one code cell; return its printed text and its error."""
        out = io.StringIO()
        error = None
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            if self.shell is not None:
                result = self.shell.run_cell(source, store_history=False)
                failure = result.error_before_exec or result.error_in_exec
            else:
                failure = _exec(source, self.namespace)
        if failure is not None:
            error = {"ename": type(failure).__name__, "evalue": _text(failure)}
        return {"stdout": out.getvalue()[-20000:], "error": error}

    def call(self, name: str, args: list[Any]) -> dict[str, Any]:
        """Call the student's function `name` on `args`; return the answer or what went wrong."""
        from ra_core.engine.timer import DecisionTimeout, time_limit_for
        from ra_course.exercises.checking import Wrong, plain, where
        from ra_course.exercises.guards import student_code, take_tripped
        from ra_course.exercises.replay import Recorder
        from ra_course.exercises.wire import encode

        function = self.namespace.get(name)
        if function is None or function is Ellipsis:
            return {"missing": True}
        recorders = [a for a in args if type(a) is Recorder]
        take_tripped()
        reply: dict[str, Any]
        try:
            with time_limit_for(self.seconds), contextlib.redirect_stdout(io.StringIO()), student_code(self.forbidden):
                result = function(*args)
        except NotImplementedError:
            reply = {"stub": True}
        except DecisionTimeout:
            reply = {"timeout": self.seconds}
        except BaseException as e:  # the student's code failed (SystemExit too): say where
            reply = {"raised": type(e).__name__, "message": _text(e)[:200], "where": where(e)}
        else:
            if result is None or result is Ellipsis:
                reply = {"value": encode(result)}
            else:
                try:
                    reply = {"value": encode(plain(result))}
                except Wrong:
                    reply = {"unreadable": type(result).__name__[:60]}
        reply["draws"] = [[len(r._drawn), r._other, r._reset] for r in recorders]
        reply["tripped"] = take_tripped()
        return reply

    def moves(self, request: dict[str, Any]) -> dict[str, Any]:
        """Follow each game named to the bot's next decision there, and ask the bot for it."""
        from ra_core.engine.actions import parse_action
        from ra_course.exercises.wire import decode

        if request.get("fresh"):
            self.games.clear()
        seconds, self.seconds = self.seconds, float(request["seconds"])
        replies = []
        try:
            for move in request["moves"]:
                if "start" in move:
                    self.games[move["game"]] = [decode(move["start"], True), decode(move["rng"], True)]
                game = self.games[move["game"]]
                if "rng" in move:  # the judge's generator for this decision
                    game[1] = decode(move["rng"], True)
                for action in move.get("actions", ()):
                    game[0] = game[0].apply(parse_action(action))
                replies.append(self.call(request["name"], game))
        finally:
            self.seconds = seconds
        return {"replies": replies}


def _exec(source: str, namespace: dict[str, Any]) -> BaseException | None:
    """Run `source` as plain Python (no IPython here): magics and ``!`` lines are left out."""
    lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
    try:
        exec(compile("\n".join(lines), "<cell>", "exec"), namespace)  # the student's own cell, in the sandbox
    except BaseException as e:
        import traceback

        traceback.print_exc()
        return e
    return None


def _text(error: BaseException) -> str:
    try:
        return str(error)
    except Exception:  # an exception whose text itself fails
        return ""


if __name__ == "__main__":
    main()
