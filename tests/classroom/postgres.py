"""A real PostgreSQL server for the tests: Debian's binaries, a temporary cluster, a free port.

CI runs as root, and PostgreSQL refuses to run as root: the cluster is then made and run as the
``postgres`` user (``runuser``), in a temporary folder handed to that user. Started and stopped
by the tests themselves (`Postgres.start`, `Postgres.stop`).
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

from ra_classroom.web.server import free_port

__all__ = ["Postgres", "binaries"]


def binaries() -> Path | None:
    """Return the newest ``/usr/lib/postgresql/<version>/bin`` with initdb and pg_ctl, if any."""
    found = [
        p for p in Path("/usr/lib/postgresql").glob("*/bin") if (p / "initdb").exists() and (p / "pg_ctl").exists()
    ]
    return max(found, key=lambda p: float(p.parent.name)) if found else None


class Postgres:
    """A PostgreSQL cluster of our own, in a temporary folder, listening on 127.0.0.1 only."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="ra-classroom-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.as_root = os.geteuid() == 0

    def _run(self, *args: str, timeout: float = 120) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_root else []
        result = subprocess.run([*prefix, *args], capture_output=True, text=True, timeout=timeout, cwd=self.root)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")

    def start(self) -> Postgres:
        """Make the cluster and start the server; return self once it accepts connections."""
        if self.as_root:
            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8")
        options = f"-p {self.port} -k {self.root} -h 127.0.0.1 -c max_connections=200"
        log = str(self.root / "server.log")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", log, "-o", options, "-w", "-t", "60", "start")
        self._wait()
        return self

    def _wait(self, timeout: float = 30) -> None:
        import psycopg

        deadline = time.monotonic() + timeout
        while True:
            try:
                with psycopg.connect(self.dsn("postgres"), connect_timeout=3):
                    return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def dsn(self, database: str) -> str:
        """Return the libpq address of one of the server's databases."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """Create a fresh database; return its URL, as DATABASE_URL would give it."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.dsn("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.dsn(name)

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop", timeout=60)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
