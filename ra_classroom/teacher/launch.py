"""Starting the classroom server from a notebook: a new one, or the one already running, never a busy port.

A teacher runs the control room's first cell again for many reasons: by mistake, after the
kernel restarted, the next day. `launch` then finds the server that is running (in this kernel,
or left running by a kernel that restarted: its state file beside the database says so) and
uses it, so the class goes on; it starts a new one only when none runs, and says in one
sentence what to do when another program holds the port. A rehearsal gets a temporary database
and a free port of its own.
"""

from __future__ import annotations

import atexit
import hashlib
import tempfile
from pathlib import Path

from ..store.tokens import new_secret
from ..web.server import PortBusy, ServerProcess
from .client import ClassroomError

__all__ = ["Launched", "launch"]

#: The servers this kernel started or found, by (host, port, database): run again, a cell finds its own.
_RUNNING: dict[tuple[str, int, str], Launched] = {}


class Launched:
    """A server `launch` started or found.

    Attributes:
        server: the server process.
        rehearsal: whether it is a rehearsal's (a temporary database, deleted by `stop`).
        found: whether the server was running already.
        rooms: the rooms this kernel runs on the server now, shared by every `Launched` of it: a
            room's control room adds its code at start and takes it out at its stop.
    """

    def __init__(
        self,
        server: ServerProcess,
        tmp: tempfile.TemporaryDirectory[str] | None,
        found: bool,
        rooms: set[str] | None = None,
    ) -> None:
        self.server, self._tmp, self.found = server, tmp, found
        self.rehearsal = tmp is not None
        self.rooms: set[str] = set() if rooms is None else rooms

    def again(self) -> Launched:
        """Return this server, as found running by a cell run again (its rooms are the same set)."""
        return Launched(self.server, self._tmp, True, self.rooms)

    def stop(self) -> None:
        """Stop the server (a rehearsal's database goes with it)."""
        self.server.stop()
        if self._tmp is not None:
            self._tmp.cleanup()


def state_file(database: str, host: str, port: int) -> Path:
    """Return where a server on `database` notes what it is: beside a SQLite file, else in the temporary folder."""
    if "://" not in database:
        return Path(database).resolve().with_name(Path(database).name + ".server.json")
    key = hashlib.sha256(f"{database}|{host}|{port}".encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"ra-classroom-{key}.server.json"


def log_beside(database: str) -> Path:
    """Return where the server's log goes: beside a SQLite file, else in the system's temporary folder."""
    if "://" not in database:
        return Path(database).resolve().parent / "ra_classroom_server.log"
    return Path(tempfile.gettempdir()) / "ra_classroom_server.log"


def launch(host: str, port: int, database: str | None, processes: int = 1) -> Launched:
    """Return the server for `database` on `host`:`port`: the one running, or a new one.

    Args:
        host: the address to listen on.
        port: the port (0: a free one).
        database: a SQLite file or a database URL; None for a rehearsal (a temporary database).
        processes: server processes for a new server (see `ra_classroom.web.server.serve`).

    Raises:
        ClassroomError: another program listens on the port (the message says what to do).
    """
    key = (host, port, database or "rehearsal")
    known = _RUNNING.get(key)
    if known is not None and known.server.running():
        return known.again()
    if database is None:
        tmp = tempfile.TemporaryDirectory(prefix="ra-classroom-")
        server = _start(str(Path(tmp.name) / "rehearsal.db"), host, port, None, processes, rehearsal=True)
        return _keep(key, Launched(server, tmp, False))
    state = state_file(database, host, port)
    found = ServerProcess.find(state)
    if found is not None and found.database == database and found.host == host and (found.port == port or not port):
        return _keep(key, Launched(found, None, True))
    return _keep(key, Launched(_start(database, host, port, state, processes), None, False))


def _start(
    database: str, host: str, port: int, state: Path | None, processes: int, rehearsal: bool = False
) -> ServerProcess:
    options = (
        ["--joins-per-minute", "100000"] if rehearsal else []
    )  # a rehearsal's simulated students share one address
    try:
        return ServerProcess(
            database,
            new_secret(),
            host=host,
            port=port,
            log=log_beside(database),
            state=state,
            processes=processes,
            options=options,
        ).start()
    except PortBusy:
        raise ClassroomError(
            f"Port {port} is taken by another program (perhaps a classroom server started elsewhere): stop it,"
            f" or choose another port (make classroom CLASS_PORT={port + 1})."
        ) from None


def _keep(key: tuple[str, int, str], launched: Launched) -> Launched:
    _RUNNING[key] = launched
    atexit.register(launched.stop)
    return launched
