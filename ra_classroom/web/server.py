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

from .limits import JOINS_PER_MINUTE

__all__ = ["PING_SECONDS", "ServerProcess", "free_port", "serve"]

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
    shared_port: bool = False,
) -> None:
    """Serve the classroom on `host`:`port` until interrupted.

    Args:
        database: a SQLAlchemy URL or a SQLite file name.
        teacher_secret: what the teacher's API calls must carry.
        host: ``127.0.0.1`` for this machine only, ``0.0.0.0`` for the class's network.
        port: the port.
        log_level: uvicorn's log level.
        processes: server processes sharing the port, which hear of each other's changes through
            the database (PostgreSQL's NOTIFY, or a SQLite file's event log). This process then
            only watches them (and starts again one that dies); each listens on the port with
            ``SO_REUSEPORT``, so the system spreads the connections evenly over them.
        ping: seconds between the pings that tell a page that is gone (no answer within as
            many seconds) from one that is quiet: a gone page is closed, so its student is absent.
        joins_per_minute: students who may join from one network address at once, and each
            minute (per process).
        shared_port: listen with ``SO_REUSEPORT``: one of several processes on one port and one
            database.

    Raises:
        ValueError: several processes on a system without ``SO_REUSEPORT`` and ``flock`` (Linux has both).
    """
    if processes > 1:
        from ..store.database import Database

        if not hasattr(socket, "SO_REUSEPORT") or sys.platform == "win32":
            raise ValueError("several server processes on one port need SO_REUSEPORT and flock (Linux)")
        Database(database, shared=True).close()  # its tables made once, before the processes start
        command = [sys.executable, "-m", "ra_classroom", "serve", "--database", database, "--host", host,
                   "--port", str(port), "--ping", str(ping), "--joins-per-minute", str(joins_per_minute),
                   "--shared-port", *(["--quiet"] if log_level == "warning" else [])]  # fmt: skip
        _supervise(processes, command, {**os.environ, "RA_CLASSROOM_SECRET": teacher_secret})
        return
    import uvicorn

    from .app import create_app
    from .limits import WIRE_LIMIT
    from .wire import WebsocketProtocol

    config = uvicorn.Config(
        create_app(database, teacher_secret, joins_per_minute, shared_port), host=host, port=port, ws=WebsocketProtocol,
        ws_max_size=WIRE_LIMIT, ws_ping_interval=ping, ws_ping_timeout=ping, log_level=log_level, access_log=False,
        lifespan="on",
    )  # fmt: skip
    server = uvicorn.Server(config)
    server.run(sockets=[_shared_socket(host, port)] if shared_port else None)


def _shared_socket(host: str, port: int) -> socket.socket:
    """Return a socket bound to `host`:`port` that other processes may bind too (the system spreads connections)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    return sock


def _supervise(count: int, command: list[str], env: dict[str, str]) -> None:
    """Run `count` server processes of `command` until this one is told to stop; start again any that dies."""
    children = [subprocess.Popen(command, env=env) for _ in range(count)]
    stopping: list[int] = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda signum, _frame: stopping.append(signum))
    try:
        while not stopping:
            time.sleep(0.5)
            for k, child in enumerate(children):
                if child.poll() is not None and not stopping:
                    print(f"server process {child.pid} exited with {child.returncode}; starting another", flush=True)
                    children[k] = subprocess.Popen(command, env=env)
    finally:
        for child in children:
            child.terminate()
        for child in children:
            try:
                child.wait(timeout=15)
            except subprocess.TimeoutExpired:
                child.kill()


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
        processes: server processes on the port; `start` waits for all of them.
        options: more of ``serve``'s command-line options, such as ``["--ping", "5"]``.
    """

    def __init__(
        self,
        database: str,
        secret: str,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        log: Path | None = None,
        processes: int = 1,
        options: Sequence[str] = (),
    ) -> None:
        self.database, self.secret, self.host = database, secret, host
        self.port = port or free_port(host)
        self.log = log
        self.processes = processes
        self.options = ["--processes", str(processes), *options] if processes > 1 else list(options)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Return the server's address as this machine reaches it."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def start(self, timeout: float = 60) -> ServerProcess:
        """Start the server and wait until it answers (every one of its processes); return self."""
        env = {**os.environ, "RA_CLASSROOM_SECRET": self.secret}
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115 - the child keeps it
        cmd = [sys.executable, "-m", "ra_classroom", "serve", "--database", self.database, "--host", self.host,
               "--port", str(self.port), "--quiet", *self.options]  # fmt: skip
        self.proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        answered: set[str] = set()  # the processes that answered (the system picks one for each connection)
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the classroom server exited with {self.proc.returncode}; see {self.log}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as r:
                    if r.status == 200:
                        answered.add(r.headers.get("X-Ra-Classroom-Process", ""))
                        if len(answered) >= self.processes:
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
