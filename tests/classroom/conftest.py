"""The classroom tests' servers: each test module gets a real server per database (SQLite and PostgreSQL).

Each test opens a room of its own on the module's server, so tests never see each other's
students. The PostgreSQL server is started once per session from Debian's binaries
(`tests/classroom/postgres.py`); without them the PostgreSQL tests fail under CI (``CI`` set,
where `.ci/run` installs them) and are skipped, loudly, elsewhere.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from ra_classroom.teacher.client import TeacherClient
from ra_classroom.web.server import ServerProcess

from .postgres import Postgres, binaries

SECRET = "the-teachers-secret-for-tests"
BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A PostgreSQL server for the whole session."""
    found = binaries()
    if found is None:
        why = "PostgreSQL's binaries are missing (apt-get install -y postgresql): the PostgreSQL tests did not run"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    server = Postgres(found).start()
    yield server
    server.stop()


def database_for(backend: str, request: pytest.FixtureRequest, folder: Path) -> str:
    """Return a fresh database of `backend`: a SQLite file in `folder`, or a new PostgreSQL database."""
    if backend == "sqlite":
        return str(folder / "classroom.db")
    pg: Postgres = request.getfixturevalue("postgres")
    return pg.new_database()


@pytest.fixture(scope="module", params=BACKENDS)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A classroom server on a fresh database, for one test module."""
    folder = tmp_path_factory.mktemp(f"classroom-{request.param}")
    srv = ServerProcess(database_for(request.param, request, folder), SECRET, log=folder / "server.log").start()
    yield srv
    srv.stop()


@pytest.fixture
def teacher(server: ServerProcess) -> TeacherClient:
    """The teacher's API on the module's server."""
    return TeacherClient(server.url, SECRET)


@pytest.fixture
def room(teacher: TeacherClient, request: pytest.FixtureRequest) -> str:
    """A new room on the module's server, seeded by the test's name (so its groups, values and deals repeat)."""
    return teacher.create_room(seed=request.node.name[-64:])
