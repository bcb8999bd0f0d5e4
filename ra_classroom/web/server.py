"""Run the classroom server: in this process (`serve`), or as a child process to start, kill and restart.

`ServerProcess` is what the teacher's notebook, the tests and the load benchmark use: it starts
``python -m ra_classroom serve`` on a free port, waits until it answers, and can stop it, kill
it outright (``kill -9``) and start it again on the same port and database.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .limits import JOINS_PER_MINUTE

__all__ = ["PING_SECONDS", "ServerProcess", "app_from_environment", "free_port", "serve"]

PING_SECONDS = 20.0  #: seconds between pings to a page, and for its answer


def serve(
    database: str,
    teacher_secret: str,
    host: str = "127.0.0.1",
    port: int = 8000,
    log_level: str = "warning",
    *,
    processes: int = 1,
    ping: float = PING_SECONDS,
    joins_per_minute: int = JOINS_PER_MINUTE,
) -> None:
    """Serve the classroom on `host`:`port` until interrupted.

    Args:
        database: a SQLAlchemy URL or a SQLite file name.
        teacher_secret: what the teacher's API calls must carry.
        host: ``127.0.0.1`` for this machine only, ``0.0.0.0`` for the class's network.
        port: the port.
        log_level: uvicorn's log level.
        processes: server processes sharing the port (PostgreSQL only: they hear of each other's
            changes through it); the system hands each new connection to one of them.
        ping: seconds between the pings that tell a page that is gone (no answer within as
            many seconds) from one that is quiet: a gone page is closed, so its student is absent.
        joins_per_minute: students who may join from one network address at once, and each
            minute (per process).

    Raises:
        ValueError: several processes on SQLite.
    """
    import uvicorn

    from ..store.database import is_postgres
    from .limits import WIRE_LIMIT
    from .wire import WebsocketProtocol

    settings = {"ws": WebsocketProtocol, "ws_max_size": WIRE_LIMIT, "ws_ping_interval": ping, "ws_ping_timeout": ping,
                "log_level": log_level, "access_log": False, "lifespan": "on", "host": host, "port": port}  # fmt: skip
    if processes == 1:
        from .app import create_app

        uvicorn.run(create_app(database, teacher_secret, joins_per_minute), **settings)  # type: ignore[arg-type]
        return
    if not is_postgres(database):
        raise ValueError("several server processes need PostgreSQL: on SQLite none would hear of another's changes")
    os.environ[_DATABASE_VARIABLE] = database
    os.environ[_SECRET_VARIABLE] = teacher_secret
    os.environ[_JOINS_VARIABLE] = str(joins_per_minute)
    uvicorn.run("ra_classroom.web.server:app_from_environment", factory=True, workers=processes,
                **settings)  # type: ignore[arg-type]  # fmt: skip


_DATABASE_VARIABLE = "RA_CLASSROOM_SERVE_DATABASE"  # how `serve` hands its settings to its worker processes
_SECRET_VARIABLE = "RA_CLASSROOM_SERVE_SECRET"
_JOINS_VARIABLE = "RA_CLASSROOM_SERVE_JOINS"


def app_from_environment() -> Any:
    """Return the app of one of `serve`'s worker processes, from the settings `serve` left in the environment."""
    from .app import create_app

    return create_app(os.environ[_DATABASE_VARIABLE], os.environ[_SECRET_VARIABLE], int(os.environ[_JOINS_VARIABLE]))


def free_port(host: str = "127.0.0.1") -> int:
    """Return a TCP port that is free now on `host`."""
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """A classroom server in a child process.

    Args:
        database: a SQLAlchemy URL or a SQLite file name.
        secret: the teacher's secret.
        host: the address to listen on.
        port: the port; 0 picks a free one.
        log: a file for the server's output (default: discarded).
        options: more of ``serve``'s command-line options, such as ``["--processes", "2"]``.
    """

    def __init__(
        self,
        database: str,
        secret: str,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        log: Path | None = None,
        options: Sequence[str] = (),
    ) -> None:
        self.database, self.secret, self.host = database, secret, host
        self.port = port or free_port(host)
        self.log = log
        self.options = list(options)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Return the server's address as this machine reaches it."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def start(self, timeout: float = 60) -> ServerProcess:
        """Start the server and wait until it answers; return self."""
        env = {**os.environ, "RA_CLASSROOM_SECRET": self.secret}
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115 - the child keeps it
        cmd = [sys.executable, "-m", "ra_classroom", "serve", "--database", self.database, "--host", self.host,
               "--port", str(self.port), "--quiet", *self.options]  # fmt: skip
        self.proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the classroom server exited with {self.proc.returncode}; see {self.log}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the classroom server did not answer within {timeout} s")

    def running(self) -> bool:
        """Return whether the server process is alive."""
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """Kill the server at once (SIGKILL: no cleanup, as a crash)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL if it lingers)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
