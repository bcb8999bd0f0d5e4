"""Run the classroom server: in this process (`serve`), or as a child process to start, kill and restart.

`ServerProcess` is what the teacher's notebook, the tests and the load benchmark use: it starts
``python -m ra_classroom serve`` on a free port, waits until it answers, and can stop it, kill
it outright (``kill -9``) and start it again on the same port and database. Given a state file,
it writes there what it started (process, port, secret; readable by its owner only), so that a
notebook whose kernel restarted finds its server still running (`ServerProcess.find`) instead
of a busy port.
"""

from __future__ import annotations

import errno
import json
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

__all__ = ["PING_SECONDS", "PortBusy", "ServerProcess", "free_port", "port_free", "serve"]

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
    shared_port: int = 0,
    trusted_proxy: str = "",
    unseated: float | None = None,
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
            minute (with several processes, each allows its share of it).
        shared_port: listen with ``SO_REUSEPORT``, as one of this many processes on one port and
            one database (0: alone). Each then lets one address hold its share of the connections
            one address may hold (`CONNECTIONS_PER_ADDRESS`), so that N processes do not make the
            bound N times as large.
        trusted_proxy: the address (or comma-separated addresses) of the proxy in front of the
            server, whose ``X-Forwarded-For`` names the student's address; from any other
            client, this machine included, the header is ignored. Empty: no proxy.
        unseated: seconds a page may stay silent without a student before it is closed
            (default `ra_classroom.web.sockets.UNSEATED_SECONDS`).

    The students' address, which the projector shows, is this machine's on its network (or
    ``RA_CLASSROOM_ADDRESS``, behind a proxy).

    Raises:
        ValueError: several processes on a system without ``SO_REUSEPORT`` and ``flock`` (Linux has both).
    """
    if processes > 1:
        from ..store.database import Database

        if not hasattr(socket, "SO_REUSEPORT") or sys.platform == "win32":
            raise ValueError("several server processes on one port need SO_REUSEPORT and flock (Linux)")
        Database(database, shared=True).close()  # its tables made once, before the processes start
        command = [
            sys.executable,
            "-m",
            "ra_classroom",
            "serve",
            "--database",
            database,
            "--host",
            host,
            "--port",
            str(port),
            "--ping",
            str(ping),
            "--joins-per-minute",
            str(-(-joins_per_minute // processes)),  # each its share: the system spreads the joins evenly
            "--shared-port",
            str(processes),
            *(["--trusted-proxy", trusted_proxy] if trusted_proxy else []),
            *(["--unseated-seconds", str(unseated)] if unseated is not None else []),
            *(["--quiet"] if log_level == "warning" else []),
        ]
        _supervise(processes, command, {**os.environ, "RA_CLASSROOM_SECRET": teacher_secret})
        return
    import uvicorn

    from .app import create_app
    from .guard import Gate, guarded_protocols, open_files_for, raise_open_files
    from .limits import CONNECTIONS_PER_ADDRESS, WIRE_LIMIT
    from .links import server_address
    from .profiling import profiled
    from .sockets import UNSEATED_SECONDS

    address = os.environ.get("RA_CLASSROOM_ADDRESS") or server_address(host, port)
    before, files = raise_open_files()
    proxies = tuple(p.strip() for p in trusted_proxy.split(",") if p.strip())
    per_address = -(-CONNECTIONS_PER_ADDRESS // max(shared_port, 1))  # the system spreads them evenly
    gate = Gate(open_files_for(files, files), per_address, proxies)
    http, ws = guarded_protocols(gate)
    raised = f" (raised from {before})" if files > before else ""
    print(
        f"open files: {files}{raised}: at most {gate.total} connections, {gate.per_address} from one address"
        f"{f' (its share of {shared_port} processes)' if shared_port > 1 else ''};"
        f" room for {gate.total} students, a page each",
        flush=True,
    )
    with profiled():  # only with RA_CLASSROOM_PROFILE set: every thread of the classroom's
        config = uvicorn.Config(
            create_app(
                database, teacher_secret, address, joins_per_minute, shared_port > 0, unseated or UNSEATED_SECONDS
            ),
            host=host,
            port=port,
            http=http,
            ws=ws,
            ws_max_size=WIRE_LIMIT,
            ws_ping_interval=ping,
            ws_ping_timeout=ping,
            log_level=log_level,
            access_log=False,
            proxy_headers=bool(trusted_proxy),  # uvicorn trusts 127.0.0.1 unless told otherwise
            forwarded_allow_ips=trusted_proxy or "",
            lifespan="on",
        )
        server = uvicorn.Server(config)
        server.run(sockets=[_listening_socket(host, port, shared=shared_port > 0)])


#: The exit status of a server whose port another program holds (errno's EADDRINUSE on Linux): the
#: one who started it may start it again on another port (`ServerProcess.start`).
PORT_IN_USE = 98


def _listening_socket(host: str, port: int, *, shared: bool) -> socket.socket:
    """Return a socket bound to `host`:`port` as uvicorn binds one (reusing the address).

    With `shared`, other processes may bind the port too (the system spreads the connections over
    them). A port another program holds ends this process with `PORT_IN_USE`, and says so.
    """
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if shared:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        print(f"cannot listen on {host}:{port}: {error.strerror}", file=sys.stderr, flush=True)
        if error.errno == errno.EADDRINUSE:
            sys.exit(PORT_IN_USE)
        raise
    sock.set_inheritable(True)
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
                if child.poll() == PORT_IN_USE:  # the port is another program's: starting again would not help
                    stopping.append(PORT_IN_USE)
                    break
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
    if PORT_IN_USE in stopping:
        sys.exit(PORT_IN_USE)


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


class PortTaken(PortBusy):
    """Another program took the port picked for the server before it could listen there."""


class ServerProcess:
    """A classroom server in a child process.

    Args:
        database: a SQLAlchemy URL or a SQLite file name.
        secret: the teacher's secret.
        host: the address to listen on.
        port: the port; 0 picks a free one.
        log: a file for the server's output (default: discarded).
        state: a file to write what was started (to `find` it again), if any.
        processes: server processes on the port; `start` waits for all of them.
        options: more of ``serve``'s command-line options, such as ``["--ping", "5"]``.
        open_files: the open-files limit (soft, hard) to start the server with, if not this process's.
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
        processes: int = 1,
        options: Sequence[str] = (),
        open_files: tuple[int, int] | None = None,
    ) -> None:
        self.database, self.secret, self.host = database, secret, host
        self.open_files = open_files
        self.port = port or free_port(host)
        self.chosen = not port  # the port was picked here: another program may take it before the server does
        self.log, self.state = log, state
        self.processes = processes
        self.options = ["--processes", str(processes), *options] if processes > 1 else list(options)
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
        """Start the server and wait until it answers (every one of its processes); return self.

        Only an answer from the server's own processes counts: a free port picked here may be taken
        by another program (another test's server) before the server binds it, and that program
        would answer in its place. The server then exits, and starts again on another free port.

        Raises:
            PortBusy: another program listens on the port.
        """
        for _ in range(3 if self.chosen else 1):
            if not port_free(self.host, self.port):
                raise PortBusy(f"port {self.port} is in use")
            try:
                return self._start(timeout)
            except PortTaken:
                self.port = free_port(self.host)
        raise PortBusy(f"port {self.port} is in use")

    def _start(self, timeout: float) -> ServerProcess:
        """Start the server on `port` and wait for its processes to answer; raise PortTaken if another took it."""
        env = {**os.environ, "RA_CLASSROOM_SECRET": self.secret}
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115 - the child keeps it
        cmd = [
            sys.executable,
            "-m",
            "ra_classroom",
            "serve",
            "--database",
            self.database,
            "--host",
            self.host,
            "--port",
            str(self.port),
            "--quiet",
            *self.options,
        ]
        self.proc = subprocess.Popen(
            cmd,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=self._limits if self.open_files else None,
        )
        self.pid = self.proc.pid
        deadline = time.monotonic() + timeout
        answered: set[str] = set()  # the processes that answered (the system picks one for each connection)
        others = False  # another server answered on the port
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                if others or self.proc.returncode == PORT_IN_USE:
                    raise PortTaken(f"another program took port {self.port}")
                raise RuntimeError(f"the classroom server exited with {self.proc.returncode}; see {self.log}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as r:
                    if r.status == 200:
                        process = r.headers.get("X-Ra-Classroom-Process", "")
                        if not self._ours(process):
                            others = True
                            time.sleep(0.1)
                            continue
                        answered.add(process)
                        if len(answered) >= self.processes:
                            self._write_state()
                            return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the classroom server did not answer within {timeout} s")

    def _ours(self, process: str) -> bool:
        """Return whether the process id `process` is this server's: itself, or one it runs (``--processes``)."""
        if self.proc is None or not process.isdigit():
            return False
        if int(process) == self.proc.pid:
            return True
        try:
            stat = Path(f"/proc/{process}/stat").read_text()
        except OSError:  # no /proc (macOS): its parent cannot be read, and the answer is taken as the server's
            return self.processes > 1 and not Path("/proc/self").exists()
        return int(stat.rsplit(")", 1)[1].split()[1]) == self.proc.pid  # the field after the state: the parent's id

    def _limits(self) -> None:
        """Set the open-files limit asked for, in the child before it runs the server."""
        if self.open_files is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, self.open_files)

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
