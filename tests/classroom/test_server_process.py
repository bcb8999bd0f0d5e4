"""A server started on a port picked for it is told from another program that took the port first.

Tests in parallel workers each pick a free port; between the pick and the server's listening
there, another worker's server may take it, and would answer the first one's `/healthz` in its
place (with another teacher's secret). `ServerProcess.start` counts only its own processes'
answers, and starts again on another free port.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from ra_classroom.teacher.client import TeacherClient
from ra_classroom.web import server as server_module
from ra_classroom.web.server import ServerProcess

from .conftest import SECRET


def test_a_port_taken_before_the_server_listens_is_left_for_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = ServerProcess(str(tmp_path / "a.db"), "another-teachers-secret", log=tmp_path / "a.log").start()
    try:
        second = ServerProcess(str(tmp_path / "b.db"), SECRET, log=tmp_path / "b.log")
        second.port = first.port  # the port picked for it, taken meanwhile by the first
        monkeypatch.setattr(server_module, "port_free", lambda host, port: True)  # as it was when picked
        second.start()
        try:
            assert second.port != first.port
            assert TeacherClient(second.url, SECRET).create_room()  # its own secret: the server is its own
        finally:
            second.stop()
    finally:
        first.stop()


def test_a_port_another_program_holds_ends_the_server_with_port_in_use_and_it_starts_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A program that holds the port without answering (no classroom's `/healthz`): the server says so and moves."""
    with socket.socket() as holder:  # listens, as uvicorn would not share with it (no SO_REUSEADDR of ours)
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        held = holder.getsockname()[1]
        monkeypatch.setattr(server_module, "port_free", lambda host, port: True)  # as it was when picked
        alone = ServerProcess(str(tmp_path / "c.db"), SECRET, log=tmp_path / "c.log", port=held)
        with pytest.raises(RuntimeError):  # a port asked for, not picked: nowhere else to go
            alone.start()
        assert alone.proc is not None and alone.proc.returncode == server_module.PORT_IN_USE
        assert "cannot listen on 127.0.0.1" in (tmp_path / "c.log").read_text()
        picked = ServerProcess(str(tmp_path / "d.db"), SECRET, log=tmp_path / "d.log")
        picked.port = held  # the port picked for it, taken meanwhile
        picked.start()
        try:
            assert picked.port != held
            assert TeacherClient(picked.url, SECRET).create_room()
        finally:
            picked.stop()
