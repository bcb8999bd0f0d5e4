"""Run the classroom server: in this process (`serve`), or as a child process to start, kill and restart.

`ServerProcess` is what the teacher's notebook, the tests and the load benchmark use: it starts
``python -m ra_classroom serve`` on a free port, waits until it answers, and can stop it, kill
it outright (``kill -9``) and start it again on the same port and database. Given a state file,
it writes there what it started (process, port, secret; readable by its owner only), so that a
notebook whose kernel restarted finds its server still running (`ServerProcess.find`) instead
of a busy port.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

__all__ = ["PortBusy", "ServerProcess", "free_port", "port_free", "serve"]


def serve(
    database: str, teacher_secret: str, host: str = "127.0.0.1", port: int = 8000, log_level: str = "warning"
) -> None:
    """Serve the classroom on `host`:`port` until interrupted.

    Args:
        database: a SQLAlchemy URL or a SQLite file name.
        teacher_secret: what the teacher's API calls must carry.
        host: ``127.0.0.1`` for this machine only, ``0.0.0.0`` for the class's network.
        port: the port.
        log_level: uvicorn's log level.

    The students' address, which the projector shows, is this machine's on its network (or
    ``RA_CLASSROOM_ADDRESS``, behind a proxy).
    """
    import uvicorn

    from .app import create_app
    from .limits import WIRE_LIMIT
    from .links import server_address

    address = os.environ.get("RA_CLASSROOM_ADDRESS") or server_address(host, port)
    uvicorn.run(
        create_app(database, teacher_secret, address),
        host=host,
        port=port,
        ws_max_size=WIRE_LIMIT,
        log_level=log_level,
        access_log=False,
        lifespan="on",
    )


def free_port(host: str = "127.0.0.1") -> int:
    """Return a TCP port that is free now on `host`."""
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def port_free(host: str, port: int) -> bool:
    """Return whether a server could listen on `host`:`port` now (as uvicorn binds: reusing the address)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
        return True


class PortBusy(RuntimeError):
    """Another program listens on the port asked for."""


class ServerProcess:
    """A classroom server in a child process.

    Args:
        database: a SQLAlchemy URL or a SQLite file name.
        secret: the teacher's secret.
        host: the address to listen on.
        port: the port; 0 picks a free one.
        log: a file for the server's output (default: discarded).
        state: a file to write what was started (to `find` it again), if any.
    """

    def __init__(
        self,
        database: str,
        secret: str,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        log: Path | None = None,
        state: Path | None = None,
    ) -> None:
        self.database, self.secret, self.host = database, secret, host
        self.port = port or free_port(host)
        self.log, self.state = log, state
        self.proc: subprocess.Popen[bytes] | None = None
        self.pid: int | None = None

    @classmethod
    def find(cls, state: Path) -> ServerProcess | None:
        """Return the server that `state` says was started, if it still runs and answers; else None."""
        try:
            data = json.loads(state.read_text(encoding="utf-8"))
            found = cls(data["database"], data["secret"], host=data["host"], port=int(data["port"]), state=state)
            found.pid = int(data["pid"])
            os.kill(found.pid, 0)
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return found if found.answers() else None

    def answers(self) -> bool:
        """Return whether the server answers its health check now."""
        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as r:
                return bool(r.status == 200)
        except OSError:
            return False

    @property
    def url(self) -> str:
        """Return the server's address as this machine reaches it."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def start(self, timeout: float = 60) -> ServerProcess:
        """Start the server and wait until it answers; return self.

        Raises:
            PortBusy: another program listens on the port.
        """
        if not port_free(self.host, self.port):
            raise PortBusy(f"port {self.port} is in use")
        env = {**os.environ, "RA_CLASSROOM_SECRET": self.secret}
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115 - the child keeps it
        cmd = [sys.executable, "-m", "ra_classroom", "serve", "--database", self.database, "--host", self.host,
               "--port", str(self.port), "--quiet"]  # fmt: skip
        self.proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        self.pid = self.proc.pid
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the classroom server exited with {self.proc.returncode}; see {self.log}")
            if self.answers():
                self._write_state()
                return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the classroom server did not answer within {timeout} s")

    def _write_state(self) -> None:
        if self.state is None:
            return
        data = {"pid": self.pid, "port": self.port, "host": self.host, "database": self.database, "secret": self.secret}
        fd = os.open(self.state, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out)

    def running(self) -> bool:
        """Return whether the server process is alive."""
        if self.proc is not None:
            return self.proc.poll() is None
        if self.pid is None:
            return False
        try:
            os.kill(self.pid, 0)
        except OSError:
            return False
        return True

    def kill(self) -> None:
        """Kill the server at once (SIGKILL: no cleanup, as a crash)."""
        self._signal(signal.SIGKILL)

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL if it lingers), and forget its state file."""
        self._signal(signal.SIGTERM)
        if self.state is not None:
            self.state.unlink(missing_ok=True)

    def _signal(self, sig: int) -> None:
        if not self.running() or self.pid is None:
            return
        os.killpg(self.pid, sig)
        if self.proc is not None:
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
            return
        deadline = time.monotonic() + 10  # a server this process did not start: wait until it is gone
        while self.running() and time.monotonic() < deadline:
            time.sleep(0.1)
        if self.running() and sig != signal.SIGKILL:
            self.kill()
