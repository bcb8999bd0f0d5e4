"""The teacher's control room: start the server, show the way in, run rounds, hold them, read the results.

A few calls in a notebook run a class::

    from ra_classroom import ControlRoom
    room = ControlRoom.start()                 # the server, its database and a room
    room.invitation()                          # the link and the QR code; room.projector() for the class
    room.monitor()                             # the live panel, with every control as a button
    room.open_round("first", group_size=4, seconds=90)
    await room.wait()                          # until the round closes; the panel works meanwhile
    room.results()                             # a pandas DataFrame; room.save_csv()
    room.stop()                                # results saved, students told; the last room's stop stops the server

Every control is one call to the server, the same from a cell and from the panel's buttons, and
returns at once: open, close, pause, resume, extend, cancel, exclude a round; remove, rename,
reseat a student, or hand his Ra seats to a bot and back. Waiting is `wait`, which a cell awaits
(``await room.wait()``): the kernel stays free, so the panel's buttons work while it waits.

`ControlRoom.start` reads its defaults from the environment, which ``make classroom`` sets for a
real class (``RA_CLASSROOM_HOST=0.0.0.0``, ``RA_CLASSROOM_PORT=8000``, ``RA_CLASSROOM_DATABASE``);
without them it starts a *rehearsal*: this machine only, a free port, a temporary database, and
simulated students allowed (`rehearse`).

Several rooms may run on one server (`start` with another ``room``): each room's `stop` ends that
room alone, and the server stops with the last room this kernel runs on it, or when the teacher
says so with `shutdown` (every room ended, then the server stopped).
"""

from __future__ import annotations

import asyncio
import datetime
import html
import os
import time
from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..auctions.laws import Law
from ..kinds.registry import TITLES as KINDS
from ..web.links import qr_svg, room_link, server_address
from .client import ClassroomError, RefusedError, TeacherClient
from .launch import Launched, launch
from .notes import Note, plain_errors
from .payment import draw_payments
from .simulate import Behaviour, SimulatedClass

if TYPE_CHECKING:
    import pandas as pd

    from .monitor import Monitor

__all__ = ["ControlRoom", "Invitation", "WaitStopped", "Waiting"]

#: The control rooms this kernel started, by what was asked: a cell run again gets its own back.
_STARTED: dict[tuple[Any, ...], ControlRoom] = {}


class Invitation(str):
    """HTML for the projector or the notebook; a notebook shows it rendered."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        return str(self)


class WaitStopped(ClassroomError):
    """The teacher interrupted a cell that waited for the round; the round and the class go on."""


class Waiting:
    """The wait for the open round to close, for a cell to ``await`` (the kernel stays free meanwhile).

    Awaited, it returns the room's status in a few lines once the round is closed (by its clock,
    by everyone having bid, or by the teacher), or once `timeout` seconds have passed.
    """

    def __init__(self, room: ControlRoom, timeout: float | None, every: float = 0.5) -> None:
        self.room, self.timeout, self.every = room, timeout, every

    def __await__(self) -> Generator[Any, None, Note]:
        return self._watch().__await__()

    async def _watch(self) -> Note:
        """Wait; an interrupted wait (the kernel's stop button) says in one sentence that the class goes on."""
        try:
            return await self._run()
        except asyncio.CancelledError:
            raise WaitStopped(
                "You stopped the wait, not the class: the round goes on for the students"
                " (await room.wait() waits again, room.close_round() closes it)."
            ) from None

    async def _run(self) -> Note:
        begin = time.monotonic()
        while True:
            status = await asyncio.to_thread(self.room.status)
            r = status["round"]
            if r is None:
                return Note("No round has been opened yet: open one first (room.open_round).")
            if r["status"] != "open":
                return Note(self.room.status_text(status))
            if self.timeout is not None and time.monotonic() - begin > self.timeout:
                return Note(
                    f"Round {r['number']} is still open after {self.timeout:g} s.\n" + self.room.status_text(status)
                )
            await asyncio.sleep(self.every)

    def blocking(self) -> Note:
        """Wait in a script, where no event loop runs (in a notebook, ``await room.wait()`` instead)."""
        return asyncio.run(self._watch())

    def __repr__(self) -> str:
        return "To wait for the round, await it: type  await room.wait()  (the panel's buttons work meanwhile)."


class ControlRoom:
    """One room of a running classroom server, driven from Python.

    Args:
        teacher: the API client, with the teacher's secret.
        room: the room's code.
        address: the server's address as students type it.
        server: the server this control room started or found, if it did.
        results: the folder where `save_csv` and `stop` save the results.
    """

    def __init__(
        self,
        teacher: TeacherClient,
        room: str,
        address: str,
        *,
        server: Launched | None = None,
        results: str | Path | None = None,
    ) -> None:
        self.teacher, self.room, self.address = teacher, room, address
        self.server = server
        self.rehearsal = server is not None and server.rehearsal
        self._simulated: list[SimulatedClass] = []
        self._panels: list[Monitor] = []
        self.folder = Path(results or os.environ.get("RA_CLASSROOM_RESULTS") or Path.cwd() / "results").resolve()
        plain_errors()

    # -- starting and stopping ----------------------------------------------------------------

    @classmethod
    def start(
        cls,
        *,
        host: str | None = None,
        port: int | None = None,
        database: str | None = None,
        room: str | None = None,
        seed: str | None = None,
        results: str | Path | None = None,
        size: int | None = None,
        processes: int | None = None,
    ) -> ControlRoom:
        """Start a classroom server in a child process (or find the one running), open a room, return its control room.

        Run again (the same cell, or after the kernel restarted), it finds the server that runs
        and the room, and the class goes on.

        Args:
            host: ``0.0.0.0`` to let the class's devices in (default ``$RA_CLASSROOM_HOST``, else
                ``127.0.0.1``: this machine only).
            port: the port (default ``$RA_CLASSROOM_PORT``, else a free one).
            database: a SQLite file or a database URL (default ``$RA_CLASSROOM_DATABASE``, else a
                temporary file: a rehearsal).
            room: the room's code (3-12 letters or digits); if the database has that room already, the
                class goes on in it. Default: a new code.
            seed: the seed of a new room, which decides its groups and values. Default: a fresh one
                for a class, a fixed one in a rehearsal (so that a rehearsal can be repeated).
            results: the folder for the results (default ``$RA_CLASSROOM_RESULTS``, else ``results``
                in this notebook's folder).
            size: the most students who may join the room (a little above the class's size keeps
                its seats for it if someone floods the room with joins); default: the server's largest.
            processes: server processes (one per core: 2 for a class of several hundred on a
                2-core machine; default ``$RA_CLASSROOM_PROCESSES``, else 1).

        Raises:
            ClassroomError: the port is taken by another program (the message says what to do).
        """
        host = host or os.environ.get("RA_CLASSROOM_HOST") or "127.0.0.1"
        port = port if port is not None else int(os.environ.get("RA_CLASSROOM_PORT") or 0)
        database = database or os.environ.get("RA_CLASSROOM_DATABASE") or None
        processes = processes or int(os.environ.get("RA_CLASSROOM_PROCESSES") or 1)
        asked = (host, port, database, room, seed, str(results))
        known = _STARTED.get(asked)
        if known is not None and known.server is not None and known.server.server.running():
            if size is not None:
                known.set_size(size)
            return known
        launched = launch(host, port, database, processes)
        server = launched.server
        teacher = TeacherClient(server.url, server.secret)
        if seed is None and launched.rehearsal:
            seed = "rehearsal"
        code = _reopen(teacher, room) if room else None
        if code is None:
            code = teacher.create_room(room, seed, size)
        else:  # the class goes on: pages that said the session had ended come back
            teacher.control(code, "end", {"ended": False})
            if size is not None:
                teacher.set_size(code, size)
        control = cls(teacher, code, server_address(host, server.port), server=launched, results=results)
        launched.rooms.add(code)
        _STARTED[asked] = control
        return control

    @classmethod
    def connect(
        cls, url: str, secret: str, room: str | None = None, *, results: str | Path | None = None
    ) -> ControlRoom:
        """Return the control room of a server started elsewhere (``python -m ra_classroom serve``).

        Args:
            url: the server's address.
            secret: the teacher's secret it printed.
            room: an existing room's code; default: a new room.
            results: the folder for the results (as in `start`).
        """
        teacher = TeacherClient(url, secret)
        return cls(teacher, room or teacher.create_room(), url, results=results)

    def stop(self) -> Note:
        """End this room's class: save its results, tell its students; stop the server if no other room needs it.

        The students' pages say that the session has ended; this room's simulated students stop.
        The server this control room started or found stops only when no other room this kernel
        runs is on it (a second room's stop leaves the first room's class alone); `shutdown` stops
        it anyway. The database stays (a rehearsal's goes with the server).
        """
        said = self._end()
        server = self.server
        if server is None:
            return Note(" ".join(said))
        server.rooms.discard(self.room)
        _forget(self)
        others = sorted(server.rooms)
        if others:
            said.append(
                f"The server goes on for room{'s' if len(others) > 1 else ''} {', '.join(others)}: their"
                " stop, or room.shutdown(), stops it."
            )
            return Note(" ".join(said))
        time.sleep(1.0)  # the pages' last view leaves before the server stops
        server.stop()
        said.append("The server is stopped.")
        return Note(" ".join(said))

    def shutdown(self) -> Note:
        """End every room this kernel runs on this server (each saved, its students told), then stop the server."""
        if self.server is None:
            raise ClassroomError(
                "This control room did not start the server (ControlRoom.connect): stop it where it was started."
            )
        said = []
        for other in [
            r for r in _STARTED.values() if r is not self and r.server and r.server.server is self.server.server
        ]:
            said.append(f"Room {other.room}: " + other.stop())
        said.append(f"Room {self.room}: " + self.stop())
        return Note(" ".join(said))

    def _end(self) -> list[str]:
        """End this room's session (results saved, students told, simulated students and panels stopped)."""
        said = []
        try:
            self.teacher.control(self.room, "end")  # an open round is closed and settled first; paying rounds drawn
            saved = self.save_csv()
            said.append(f"The results are saved in {_shown(saved)}." if saved else "No round closed: nothing to save.")
            paid = self.teacher.payments(self.room)
            if paid:
                said.append(f"Each student's paying round is drawn ({len(paid)} students): saved beside them.")
            said.append("The students' pages say that the session has ended.")
        except ClassroomError as e:
            said.append(f"Nothing saved: {e}")
        for sim in self._simulated:
            sim.stop()
        self._simulated.clear()
        for panel in self._panels:
            panel.stop()
            panel.say("The session has ended.")
        return said

    # -- the way in -----------------------------------------------------------------------------

    @property
    def link(self) -> str:
        """Return the room's short link (it opens the page with the room code filled in)."""
        return room_link(self.address, self.room)

    def invitation(self) -> Invitation:
        """Return the way in for the projector: the address, the room code and a QR code of the link."""
        link = html.escape(self.link)
        return Invitation(
            '<div style="display:flex;gap:2em;align-items:center;flex-wrap:wrap">'
            f'<div style="background:#fff;padding:8px">{qr_svg(self.link)}</div>'
            f'<div style="font-size:1.6em;line-height:1.6">Open <a href="{link}"><b>{link}</b></a><br>'
            f"or go to <b>{html.escape(self.address)}</b> and type the room code "
            f'<b style="font-size:1.4em;letter-spacing:0.1em">{html.escape(self.room)}</b></div></div>'
        )

    @property
    def projector_link(self) -> str:
        """Return the projector page's address on this machine (with the teacher's secret after ``#``)."""
        return f"{self.teacher.url}/projector/{self.room}#{self.teacher.secret}"

    def projector(self) -> Invitation:
        """Return a link that opens the projector page in a new tab: the way in, the clock, the count, the results."""
        link = html.escape(self.projector_link)
        return Invitation(
            f'<p style="font-size:1.3em"><a href="{link}" target="_blank" rel="noopener"><b>Open the projector'
            " page</b></a> in a new tab and put it on the projector (full screen: F11). It shows the room code and"
            " QR code, then each round's clock and how many have bid, then the results.</p>"
        )

    # -- rounds --------------------------------------------------------------------------------

    def open_round(
        self,
        kind: str,
        group_size: int = 0,
        *,
        law: Law | None = None,
        noise: float = 0.0,
        seconds: float | None = None,
        practice: bool = False,
        absent_after: float = 60.0,
        close_when_done: bool = True,
        settings: dict[str, float] | None = None,
    ) -> dict[str, Any]:
        """Open the next round for the students here; return its id, groups (or tables), who sits out, and a note.

        A class smaller than a group bids as one smaller group; those left over form a smaller
        group; Ra tables take bots in the empty seats. The returned ``note`` says so.

        Args:
            kind: ``first``, ``second``, ``allpay``, ``common``, ``ra``, or any kind registered
                (see `ra_classroom.kinds.registry`).
            group_size: bidders per group (2-12), or players per Ra table (3-5); 0: the kind's
                default (4; 1 for Holt and Laury's lotteries, answered alone).
            law: the values' law (default uniform on [0, 100]).
            noise: common value: signals are the worth plus an error uniform in [-noise, noise].
            seconds: the time to bid; None: until you close it.
            practice: a practice round, whose earnings do not count.
            absent_after: Ra tables: seconds before a bot plays a disconnected student's turns.
            close_when_done: close as soon as everyone has bid (or every Ra game is over).
            settings: the settings the round's kind adds (its `Kind.settings`, by name).
        """
        spec: dict[str, Any] = {
            "kind": kind,
            "group_size": group_size,
            "noise": noise,
            "practice": practice,
            "seconds": seconds,
            "absent_after": absent_after,
            "close_when_done": close_when_done,
            **(settings or {}),
        }
        if law is not None:
            spec["law"] = law.to_dict()
        return self.teacher.open_round(self.room, spec)

    def set_size(self, size: int) -> Note:
        """Let at most `size` students join the room (those in already stay)."""
        info = self.teacher.set_size(self.room, size)
        return Note(f"Room {self.room} takes at most {info['size']} students ({info['students']} are in).")

    def close_round(self) -> Note:
        """Close the open round now and settle it."""
        info = self.teacher.close_round(self.room)
        return Note(f"Round closed (id {info['round']}).")

    def pause(self) -> Note:
        """Pause the open round: no bid or move, the clock stopped (`resume` goes on)."""
        return Note(f"Round {self.teacher.control(self.room, 'pause')['number']} is paused.")

    def resume(self) -> Note:
        """Let the paused round go on, with the time it had left."""
        return Note(f"Round {self.teacher.control(self.room, 'resume')['number']} goes on.")

    def extend(self, seconds: float = 30) -> Note:
        """Give the open round `seconds` more."""
        info = self.teacher.control(self.room, "extend", {"seconds": seconds})
        return Note(f"Round {info['number']} has {info['closes_in']:.0f} s left.")

    def cancel_round(self) -> Note:
        """Cancel the open round: it ends now, nothing is settled, and it counts nowhere."""
        return Note(f"Round {self.teacher.control(self.room, 'cancel')['number']} is cancelled: it counts nowhere.")

    def exclude_round(self, number: int, excluded: bool = True) -> Note:
        """Leave closed round `number` out of the results and the earnings (`excluded` False: count it again)."""
        self.teacher.exclude(self.room, number, excluded)
        return Note(f"Round {number} is {'left out of' if excluded else 'back in'} the results.")

    def wait(self, timeout: float | None = None) -> Waiting:
        """Return the wait for the open round to close, for a cell to await: ``await room.wait()``.

        The kernel stays free while it waits, so the panel's buttons (close, pause, extend, ...)
        act at once. Awaited, it returns the room's status in a few lines.
        """
        return Waiting(self, timeout)

    def status(self) -> dict[str, Any]:
        """Return the room now: students, every round, the latest round and who has bid, the tables."""
        return self.teacher.status(self.room)

    def status_text(self, status: dict[str, Any] | None = None) -> str:
        """Return the room now in a few plain lines: who joined, who is here, the round, who has bid."""
        s = status or self.status()
        people = [p for p in s["students"] if not p.get("removed")]
        lines = [f"Room {s['room']}: {len(people)} students joined, {sum(p['present'] for p in people)} here."]
        r = s["round"]
        if r is None:
            lines.append("No round yet.")
            return "\n".join(lines)
        state = "cancelled" if r["status"] == "void" else "paused" if r.get("paused") else r["status"]
        head = f"Round {r['number']} ({KINDS[r['kind']]}{', practice' if r['practice'] else ''}): {state}"
        if "bid" in r:
            given = len(r["bid"]) + len(r["waiting"])
            head += f"; {len(r['bid'])} of {given} have bid"
            if r["waiting"] and r["status"] == "open":
                head += "; waiting for: " + ", ".join(r["waiting"])
        lines.append(head + ".")
        for t in s["tables"]:
            seats = ", ".join(f"{n} {f}" for n, f in zip(t["seats"], t["fame"], strict=True))
            lines.append(f"Table {t['table']}: {t['moves']} moves{', game over' if t['over'] else ''}; fame: {seats}.")
        return "\n".join(lines)

    def monitor(self, every: float = 1.0) -> Monitor:
        """Return the live panel (an anywidget): who is here, the round, who has bid, and every control as a button."""
        from .monitor import Monitor

        panel = Monitor(self, every)
        self._panels.append(panel)
        return panel

    # -- students -------------------------------------------------------------------------------

    def remove(self, name: str) -> Note:
        """Remove a student: his page closes, his seat opens nothing, bots play his Ra seats; his bids stay."""
        return Note(f"{self.teacher.student(self.room, 'remove', name)['name']} is removed.")

    def rename(self, name: str, to: str) -> Note:
        """Rename a student (his seat and history stay his)."""
        return Note(f"{name} is now {self.teacher.student(self.room, 'rename', name, to)['name']}.")

    def reseat(self, name: str) -> Note:
        """Let in the device that asks for `name`'s seat: it is his from now on (his old device's page closes)."""
        return Note(f"{self.teacher.student(self.room, 'reseat', name)['name']}'s seat is open on the new device.")

    def refuse(self, name: str) -> Note:
        """Refuse the device that asks for `name`'s seat."""
        return Note(
            f"The device asking for {self.teacher.student(self.room, 'refuse', name)['name']}'s seat is refused."
        )

    def bot_plays(self, name: str) -> Note:
        """Hand `name`'s seats at open Ra tables to bots, until `give_back` (each board marks them)."""
        who = self.teacher.student(self.room, "bot", name)["name"]
        return Note(f"A bot plays for {who} until you give the seat back.")

    def give_back(self, name: str) -> Note:
        """Give `name` back the Ra seats handed to bots."""
        return Note(f"{self.teacher.student(self.room, 'back', name)['name']} plays again.")

    # -- results ---------------------------------------------------------------------------------

    def results(self) -> pd.DataFrame:
        """Return the closed rounds played in groups, one row per student and round (columns: `export.bid_columns`).

        Cancelled and excluded rounds are left out; before any round closes the table is empty.
        """
        import pandas as pd

        from ..store.export import bid_columns

        rows = self.teacher.results(self.room)["bids"]
        return pd.DataFrame(rows, columns=bid_columns(rows))

    def payments(self, show_up: float = 0.0, rate: float = 1.0) -> pd.DataFrame:
        """Draw each student's paying round and return what he gets; saved beside the results (``...-payments.csv``).

        Each student is paid his own earnings in one of his paid rounds, drawn at random
        (`payment.draw_payments`, seeded by the room's code: drawn again, the same rounds; the
        server's draw at the session's end, `end_session`, is the same), at `rate` per point, on
        top of `show_up`, from which losses are taken.
        """
        table = draw_payments(self.results(), self.room, show_up=show_up, rate=rate)
        out = self.folder / self.results_name().replace(".csv", "-payments.csv")
        out.parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(out, index=False, lineterminator="\n")
        return table

    def end_session(self) -> pd.DataFrame:
        """End the session; return the round drawn to pay each student (the way the literature pays), saved too.

        The server closes an open round, draws one paid round for each student who played one
        (`auctions.paying.paid_round`, seeded by the room's code: the same rounds as
        `payments`), records it and shows it on his page; the projector says it is drawn, naming
        no one. The results (`save_csv`) and the draw (``...-paid.csv``, columns
        `export.PAID_COLUMNS`) are saved. Opening a round afterwards lets the session go on, and
        the draw is made again at its end. The server keeps running: `stop` ends and stops it.
        """
        import pandas as pd

        from ..store.export import PAID_COLUMNS

        self.teacher.control(self.room, "end")
        self.save_csv()
        return pd.DataFrame(self.teacher.payments(self.room), columns=list(PAID_COLUMNS))

    def paid_rounds(self) -> pd.DataFrame:
        """Return the round drawn to pay each student at the session's end (empty while it goes on)."""
        import pandas as pd

        from ..store.export import PAID_COLUMNS

        return pd.DataFrame(self.teacher.payments(self.room), columns=list(PAID_COLUMNS))

    def tables(self) -> pd.DataFrame:
        """Return every Ra table's seats: who sat there, fame, winner (columns: `export.TABLE_COLUMNS`)."""
        import pandas as pd

        from ..store.export import TABLE_COLUMNS

        return pd.DataFrame(self.teacher.results(self.room)["tables"], columns=list(TABLE_COLUMNS))

    def results_name(self, day: datetime.date | None = None) -> str:
        """Return the results file's name: the room and the date (``RA1-2025-03-14.csv``; a rehearsal's says so)."""
        day = day or datetime.date.today()
        return f"{self.room}-{day.isoformat()}{'-rehearsal' if self.rehearsal else ''}.csv"

    def save_csv(self, path: str | Path | None = None) -> Path | None:
        """Save the results as CSV (for a spreadsheet, or notebook 14); return where, or None if no round closed.

        Default: `folder` (``results`` beside this notebook), named by `results_name`; the Ra
        tables, if any, go beside it (``...-ra.csv``), and so does, once the session has ended,
        the round drawn to pay each student (``...-paid.csv``). Saving again the same day replaces the
        file with the room's results so far.
        """
        rows = self.teacher.results(self.room)
        if not rows["bids"] and not rows["tables"]:
            return None
        out = Path(path) if path is not None else self.folder / self.results_name()
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(self.teacher.results_csv(self.room), encoding="utf-8")
        if rows["tables"]:
            tables = self.teacher.call("GET", f"/api/rooms/{self.room}/tables.csv", raw=True)
            out.with_name(out.stem + "-ra.csv").write_text(tables, encoding="utf-8")
        if self.teacher.payments(self.room):  # the session has ended: each student's paying round, as drawn
            paid = self.teacher.call("GET", f"/api/rooms/{self.room}/payments.csv", raw=True)
            out.with_name(out.stem + "-paid.csv").write_text(paid, encoding="utf-8")
        return out

    # -- a rehearsal -----------------------------------------------------------------------------

    def rehearse(
        self, students: int = 12, *, seed: int | str = 1, behaviour: Behaviour | None = None
    ) -> SimulatedClass:
        """Seat simulated students who bid and play by `behaviour` (a rehearsal only: never in a real class).

        Run again, it returns the students already seated.

        Raises:
            ClassroomError: this control room runs a real class (a database of its own).
        """
        if not self.rehearsal:
            raise ClassroomError("Simulated students join rehearsals only, not a real class's database.")
        if self._simulated:
            return self._simulated[0]
        sim = SimulatedClass(self.teacher.url, self.room, students, seed=seed, behaviour=behaviour).start()
        self._simulated.append(sim)
        return sim


def _forget(room: ControlRoom) -> None:
    """Take a stopped room out of those `start` hands back (started again, it opens afresh)."""
    for key in [k for k, v in _STARTED.items() if v is room]:
        del _STARTED[key]


def _shown(path: Path) -> str:
    """Return `path` as the teacher finds it: from this notebook's folder when it is below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _reopen(teacher: TeacherClient, code: str) -> str | None:
    """Return `code` as stored if the server has that room already, else None."""
    try:
        return str(teacher.status(code)["room"])
    except RefusedError as e:
        if e.status == 404:
            return None
        raise
