"""The teacher's control room: start the server, show the way in, run rounds, read the results.

A few calls in a notebook run a class::

    from ra_classroom import ControlRoom
    room = ControlRoom.start()                 # the server, its database and a room
    room.invitation()                          # the link and the QR code, for the projector
    room.open_round("first", group_size=4, seconds=90)
    room.monitor()                             # live: who joined, who has bid
    room.close_round()
    room.results()                             # a pandas DataFrame; room.save_csv("class.csv")

`ControlRoom.start` reads its defaults from the environment, which ``make classroom`` sets for a
real class (``RA_CLASSROOM_HOST=0.0.0.0``, ``RA_CLASSROOM_PORT=8000``, ``RA_CLASSROOM_DATABASE``);
without them it starts a *rehearsal*: this machine only, a free port, a temporary database, and
simulated students allowed (`rehearse`).
"""

from __future__ import annotations

import atexit
import html
import os
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..auctions.experiments import KINDS
from ..auctions.laws import Law
from ..store.tokens import new_secret
from ..web.links import qr_svg, room_link, server_address
from ..web.server import ServerProcess
from .client import TeacherClient
from .simulate import Behaviour, SimulatedClass

if TYPE_CHECKING:
    import pandas as pd

    from .monitor import Monitor

__all__ = ["ControlRoom", "Invitation"]


def _log_beside(database: str) -> Path:
    """Return where the server's log goes: beside a SQLite file, else in the system's temporary folder."""
    if "://" not in database:
        return Path(database).resolve().parent / "ra_classroom_server.log"
    return Path(tempfile.gettempdir()) / "ra_classroom_server.log"


def _reopen(teacher: TeacherClient, code: str) -> str | None:
    """Return `code` as stored if the server has that room already, else None."""
    from .client import RefusedError

    try:
        return str(teacher.status(code)["room"])
    except RefusedError as e:
        if e.status == 404:
            return None
        raise


class Invitation(str):
    """The way in for students, as HTML (big link, room code, QR code); a notebook shows it rendered."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        return str(self)


class ControlRoom:
    """One room of a running classroom server, driven from Python.

    Args:
        teacher: the API client, with the teacher's secret.
        room: the room's code.
        address: the server's address as students type it.
        server: the server process this control room started, if it did.
        rehearsal: whether this is a rehearsal (temporary database; simulated students allowed).
    """

    def __init__(
        self,
        teacher: TeacherClient,
        room: str,
        address: str,
        *,
        server: ServerProcess | None = None,
        rehearsal: bool = False,
    ) -> None:
        self.teacher, self.room, self.address = teacher, room, address
        self.server, self.rehearsal = server, rehearsal
        self._simulated: list[SimulatedClass] = []
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self.folder = Path.cwd()  #: where `save_csv` saves by default (a rehearsal's temporary folder)

    # -- starting -------------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        *,
        host: str | None = None,
        port: int | None = None,
        database: str | None = None,
        room: str | None = None,
        seed: str | None = None,
        size: int | None = None,
        processes: int | None = None,
    ) -> ControlRoom:
        """Start a classroom server in a child process, open a room, and return its control room.

        Args:
            host: ``0.0.0.0`` to let the class's devices in (default ``$RA_CLASSROOM_HOST``, else
                ``127.0.0.1``: this machine only).
            port: the port (default ``$RA_CLASSROOM_PORT``, else a free one).
            database: a SQLite file or a database URL (default ``$RA_CLASSROOM_DATABASE``, else a
                temporary file: a rehearsal).
            room: the room's code (3-12 letters or digits); if the database has that room already (the
                server or the notebook was restarted), the class goes on in it. Default: a new code.
            seed: the seed of a new room, which decides its groups and values. Default: a fresh one
                for a class, a fixed one in a rehearsal (so that a rehearsal can be repeated).
            size: the most students who may join the room (a little above the class's size keeps
                its seats for it if someone floods the room with joins); default: the server's largest.
            processes: server processes (one per core: 2 for a class of several hundred on a
                2-core machine; default ``$RA_CLASSROOM_PROCESSES``, else 1).
        """
        host = host or os.environ.get("RA_CLASSROOM_HOST") or "127.0.0.1"
        port = port if port is not None else int(os.environ.get("RA_CLASSROOM_PORT") or 0)
        database = database or os.environ.get("RA_CLASSROOM_DATABASE") or None
        tmp = None
        if database is None:
            tmp = tempfile.TemporaryDirectory(prefix="ra-classroom-")
            database = str(Path(tmp.name) / "rehearsal.db")
        log = _log_beside(database)
        options = ["--joins-per-minute", "100000"] if tmp is not None else []  # a rehearsal's students share 127.0.0.1
        processes = processes or int(os.environ.get("RA_CLASSROOM_PROCESSES") or 1)
        server = ServerProcess(database, new_secret(), host=host, port=port, log=log, processes=processes,
                               options=options).start()  # fmt: skip
        atexit.register(server.stop)
        teacher = TeacherClient(server.url, server.secret)
        if seed is None and tmp is not None:
            seed = "rehearsal"
        code = _reopen(teacher, room) if room else None
        if code is not None and size is not None:
            teacher.set_size(code, size)
        control = cls(teacher, code or teacher.create_room(room, seed, size), server_address(host, server.port),
                      server=server, rehearsal=tmp is not None)  # fmt: skip
        control._tmp = tmp
        control.folder = Path(tmp.name) if tmp else Path.cwd()
        return control

    @classmethod
    def connect(cls, url: str, secret: str, room: str | None = None) -> ControlRoom:
        """Return the control room of a server started elsewhere (``python -m ra_classroom serve``).

        Args:
            url: the server's address.
            secret: the teacher's secret it printed.
            room: an existing room's code; default: a new room.
        """
        teacher = TeacherClient(url, secret)
        return cls(teacher, room or teacher.create_room(), url)

    def stop(self) -> None:
        """Stop the simulated students and the server this control room started (the database stays)."""
        for sim in self._simulated:
            sim.stop()
        if self.server is not None:
            self.server.stop()
        if self._tmp is not None:
            self._tmp.cleanup()

    # -- the way in -----------------------------------------------------------------------------

    @property
    def link(self) -> str:
        """Return the room's short link (it opens the page with the code filled in)."""
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

    # -- rounds --------------------------------------------------------------------------------

    def open_round(
        self,
        kind: str,
        group_size: int = 4,
        *,
        law: Law | None = None,
        noise: float = 0.0,
        seconds: float | None = None,
        practice: bool = False,
        absent_after: float = 60.0,
    ) -> dict[str, Any]:
        """Open the next round for the students here; return its id, groups (or tables) and who sits out.

        Args:
            kind: ``first``, ``second``, ``allpay``, ``common`` or ``ra`` (see `KINDS`).
            group_size: bidders per group (2-12), or players per Ra table (3-5).
            law: the values' law (default uniform on [0, 100]).
            noise: common value: signals are the worth plus an error uniform in [-noise, noise].
            seconds: the time to bid; None: until you close the round.
            practice: a practice round, whose earnings do not count.
            absent_after: Ra tables: seconds before a bot plays a disconnected student's turns.
        """
        spec: dict[str, Any] = {"kind": kind, "group_size": group_size, "noise": noise, "practice": practice,
                                "seconds": seconds, "absent_after": absent_after}  # fmt: skip
        if law is not None:
            spec["law"] = law.to_dict()
        return self.teacher.open_round(self.room, spec)

    def set_size(self, size: int) -> dict[str, Any]:
        """Let at most `size` students join the room (those in already stay); return its size and how many are in."""
        return self.teacher.set_size(self.room, size)

    def close_round(self) -> dict[str, Any]:
        """Close the open round and settle it."""
        return self.teacher.close_round(self.room)

    def status(self) -> dict[str, Any]:
        """Return the room now: students (present or not), the latest round and who has bid, the tables."""
        return self.teacher.status(self.room)

    def status_text(self, status: dict[str, Any] | None = None) -> str:
        """Return the room now in a few plain lines: who joined, who is here, the round, who has bid."""
        s = status or self.status()
        people = s["students"]
        lines = [f"Room {s['room']}: {len(people)} students joined, {sum(p['present'] for p in people)} here."]
        r = s["round"]
        if r is None:
            lines.append("No round yet.")
            return "\n".join(lines)
        head = f"Round {r['number']} ({KINDS[r['kind']]}{', practice' if r['practice'] else ''}): {r['status']}"
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

    def wait_for_bids(self, timeout: float = 120.0) -> int:
        """Wait until every student with a value in the open round has bid (or `timeout`); return how many bid."""
        deadline = time.monotonic() + timeout
        while True:
            r = self.status()["round"]
            if r is None or "bid" not in r:
                return 0
            if not r["waiting"] or r["status"] != "open" or time.monotonic() > deadline:
                return len(r["bid"])
            time.sleep(0.2)

    def finish_round(self, timeout: float = 300.0) -> str:
        """Wait until everyone with a value has bid or the time is up, close the round if still open; return the status.

        For Ra tables: wait until every table's game is over (or `timeout`), then close.
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            s = self.status()
            r = s["round"]
            if r is None or r["status"] != "open":
                break
            if ("bid" in r and not r["waiting"]) or (r["kind"] == "ra" and all(t["over"] for t in s["tables"])):
                self.close_round()
                break
            time.sleep(0.2)
        else:
            if (self.status()["round"] or {}).get("status") == "open":
                self.close_round()
        return self.status_text()

    def monitor(self, every: float = 1.0) -> Monitor:
        """Return a live panel (ipywidgets): who joined, who has bid, the tables, and a button to close the round."""
        from .monitor import Monitor

        return Monitor(self, every)

    # -- results ---------------------------------------------------------------------------------

    def results(self) -> pd.DataFrame:
        """Return the closed sealed-bid rounds, one row per student and round (columns: `export.BID_COLUMNS`)."""
        import pandas as pd

        from ..store.export import BID_COLUMNS

        return pd.DataFrame(self.teacher.results(self.room)["bids"], columns=list(BID_COLUMNS))

    def tables(self) -> pd.DataFrame:
        """Return every Ra table's seats: who sat there, fame, winner (columns: `export.TABLE_COLUMNS`)."""
        import pandas as pd

        from ..store.export import TABLE_COLUMNS

        return pd.DataFrame(self.teacher.results(self.room)["tables"], columns=list(TABLE_COLUMNS))

    def save_csv(self, path: str | Path | None = None) -> Path:
        """Save the sealed-bid results as CSV (for a spreadsheet, or `pandas.read_csv`); return where.

        Default: ``results-<room>.csv`` in `folder` (this folder, or a rehearsal's temporary one).
        """
        out = Path(path) if path is not None else self.folder / f"results-{self.room}.csv"
        out.write_text(self.teacher.results_csv(self.room), encoding="utf-8")
        return out

    # -- a rehearsal -----------------------------------------------------------------------------

    def rehearse(
        self, students: int = 12, *, seed: int | str = 1, behaviour: Behaviour | None = None
    ) -> SimulatedClass:
        """Seat simulated students who bid and play by `behaviour` (a rehearsal only: never in a real class).

        Raises:
            RuntimeError: this control room runs a real class (a database of its own).
        """
        if not self.rehearsal:
            raise RuntimeError("simulated students join rehearsals only, not a real class's database")
        sim = SimulatedClass(self.teacher.url, self.room, students, seed=seed, behaviour=behaviour).start()
        self._simulated.append(sim)
        return sim
