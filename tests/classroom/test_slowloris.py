"""A server no client can stop: unfinished requests time out, connections are bounded, idle pages close.

One client on this machine (127.0.0.66, loopback only) opens 3,000 connections and sends each
an unfinished request, as a slowloris does. The server was started at a 1,024-file limit, under
which those connections once left no file for anyone: now it raises its limit to the hard one,
takes at most `CONNECTIONS_PER_ADDRESS` of them, and closes every one within `HEADER_SECONDS`.
Meanwhile a student joins, a student seated before still bids, and the teacher's API and
``/healthz`` answer. SQLite only: what is tested is the server's door, not the database.
"""

from __future__ import annotations

import contextlib
import resource
import socket
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from ra_classroom.teacher.client import TeacherClient
from ra_classroom.web.limits import CONNECTIONS_PER_ADDRESS, HEADER_SECONDS
from ra_classroom.web.server import ServerProcess

from .conftest import SECRET
from .pages import Page

ATTACKER = "127.0.0.66"
SOCKETS = 3000  #: more than a 1,024-file server holds, more than one address may open
UNSEATED_SECONDS = 5  #: the module's server closes a page that seats nobody after this long


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server started at a 1,024-file limit (its hard limit above, as on most systems)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard < SOCKETS + 1500:
        pytest.skip(f"the hard open-files limit ({hard}) is too low for a slowloris of {SOCKETS}")
    folder = tmp_path_factory.mktemp("slowloris")
    options = ["--unseated-seconds", str(UNSEATED_SECONDS)]
    srv = ServerProcess(
        str(folder / "c.db"), SECRET, log=folder / "server.log", open_files=(1024, hard), options=options
    )
    yield srv.start()
    srv.stop()


@contextlib.contextmanager
def slowloris(url: str, count: int) -> Iterator[list[socket.socket]]:
    """Open `count` connections from `ATTACKER` to `url`, each with a request's first line and no end."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, count + 1000)), hard))
    host, port = url.removeprefix("http://").split(":")
    held: list[socket.socket] = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.setblocking(False)
            s.bind((ATTACKER, 0))
            with contextlib.suppress(BlockingIOError):
                s.connect((host, int(port)))
            held.append(s)
        time.sleep(0.5)
        for s in held:
            with contextlib.suppress(OSError):
                s.send(b"GET / HTTP/1.1\r\nHost: x\r\nX-a: ")  # and never the end of the headers
        yield held
    finally:
        for s in held:
            s.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def closed_by_server(s: socket.socket) -> bool:
    """Return whether the server has closed connection `s` (its end read, or a reset)."""
    try:
        return s.recv(1024) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_a_slowloris_from_one_address_stops_nobody_and_its_connections_time_out(server: ServerProcess) -> None:
    teacher = TeacherClient(server.url, SECRET)
    room = teacher.create_room()
    seated = [Page(server.url) for _ in range(2)]
    for k, page in enumerate(seated):
        page.join(room, f"Before {k}")
    with slowloris(server.url, SOCKETS) as held:
        started = time.monotonic()
        newcomer = Page(server.url)  # from 127.0.0.1, another address
        newcomer.join(room, "Newcomer")
        opened = teacher.open_round(room, {"kind": "first", "group_size": 3})
        ack = seated[0].answer(seated[0].send(t="bid", round=opened["round"], amount=10))
        assert ack["t"] == "ack", ack
        assert teacher.status(room)["students"]
        with urllib.request.urlopen(f"{server.url}/healthz", timeout=5) as r:
            assert r.read() == b"ok"
        # Those over the limit are refused as the server takes them from its queue (seconds on a busy
        # machine), long before the first unfinished request could time out.
        over = SOCKETS - CONNECTIONS_PER_ADDRESS - 50
        refused_at_once = sum(closed_by_server(s) for s in held)
        while refused_at_once < over and time.monotonic() - started < HEADER_SECONDS / 2:
            time.sleep(0.2)
            refused_at_once = sum(closed_by_server(s) for s in held)
        assert refused_at_once >= over, refused_at_once
        while time.monotonic() - started < HEADER_SECONDS + 10 and not all(closed_by_server(s) for s in held):
            time.sleep(0.5)
        still_open = sum(not closed_by_server(s) for s in held)
        assert still_open == 0, f"{still_open} unfinished requests still open after {HEADER_SECONDS + 10:g} s"


def test_the_server_raises_its_open_files_limit_and_says_how_many_students_it_holds(server: ServerProcess) -> None:
    limits = Path(f"/proc/{server.pid}/limits")
    if not limits.exists():
        pytest.skip("no /proc here")
    line = next(x for x in limits.read_text().splitlines() if x.startswith("Max open files"))
    soft, hard = line.split()[3:5]
    assert soft == hard == str(resource.getrlimit(resource.RLIMIT_NOFILE)[1])
    assert server.log is not None
    said = server.log.read_text()
    assert f"open files: {hard} (raised from 1024)" in said and "students, a page each" in said


def test_an_idle_page_that_seats_nobody_is_closed(server: ServerProcess) -> None:
    page = Page(server.url)
    page.send(t="bid", round=1, amount=1)  # a message, but no student: the page's time starts again
    assert "Join a room first" in page.until(lambda m: m.get("t") == "refused")["why"]
    started = time.monotonic()
    with pytest.raises(ConnectionClosed):
        page.recv(timeout=UNSEATED_SECONDS + 10)
    assert UNSEATED_SECONDS - 1 < time.monotonic() - started < UNSEATED_SECONDS + 5
    seated = Page(server.url)
    seated.join(TeacherClient(server.url, SECRET).create_room(), "Seated")
    time.sleep(UNSEATED_SECONDS + 2)  # a seated page stays, silent or not
    assert seated.answer(seated.send(t="bid", round=10**6, amount=1))["t"] == "refused"


def test_a_request_whose_headers_stop_coming_is_closed_on_a_kept_alive_connection_too(server: ServerProcess) -> None:
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=HEADER_SECONDS + 10) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = b""
        while not answer.endswith(b"\r\n\r\nok"):  # the whole answer: its body may come in a second packet
            part = s.recv(4096)
            assert part, answer
            answer += part
        assert b"200 OK" in answer
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # a second request, never finished
        started = time.monotonic()
        assert s.recv(4096) == b""
        assert time.monotonic() - started < HEADER_SECONDS + 5


def test_two_processes_on_one_port_hold_one_address_to_one_bound(tmp_path: Path) -> None:
    """With ``--processes 2`` each process takes its half: one address still holds `CONNECTIONS_PER_ADDRESS` in all."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard < SOCKETS + 1500:
        pytest.skip(f"the hard open-files limit ({hard}) is too low for a slowloris of {SOCKETS}")
    srv = ServerProcess(str(tmp_path / "c.db"), SECRET, log=tmp_path / "server.log", processes=2).start()
    try:
        with slowloris(srv.url, SOCKETS) as held:
            time.sleep(1)
            taken = sum(not closed_by_server(s) for s in held)
            newcomer = Page(srv.url)  # from 127.0.0.1, another address
            newcomer.join(TeacherClient(srv.url, SECRET).create_room(), "Newcomer")
        assert CONNECTIONS_PER_ADDRESS * 0.8 <= taken <= CONNECTIONS_PER_ADDRESS + 2, taken
    finally:
        srv.stop()


def _reply_to(ident: int) -> Callable[[dict[str, Any]], bool]:
    """Return a test for the server's reply to the message `ident` (a welcome, or a refusal)."""
    return lambda m: m.get("id") == ident


def test_two_processes_on_one_port_hold_one_address_to_one_allowance_of_joins(tmp_path: Path) -> None:
    """With ``--processes 2`` and 10 joins a minute, one address seats at most 10 students, not 10 per process."""
    options = ["--joins-per-minute", "10"]
    srv = ServerProcess(str(tmp_path / "c.db"), SECRET, log=tmp_path / "s.log", processes=2, options=options).start()
    try:
        room = TeacherClient(srv.url, SECRET).create_room()
        seated = 0
        for k in range(30):
            page = Page(srv.url)  # a connection of its own: the system hands it to either process
            ident = page.send(t="join", room=room, name=f"Student {k}")
            seated += page.until(_reply_to(ident))["t"] == "welcome"
            page.close()
        assert 5 <= seated <= 10, seated
    finally:
        srv.stop()
