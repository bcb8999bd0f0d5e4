"""The server's door: connections bounded per address and in all, and requests that must arrive in time.

uvicorn, as it is, lets a client hold a connection open forever by sending a request's headers
slowly or never finishing them (a *slowloris*): measured on this project's server, 1,100 such
connections from one address filled a 1,024-file limit in 0.2 s, and from then on no student
could join and ``/healthz`` failed; none was ever closed. The `Gate` of one server process counts
its connections:

* at most `CONNECTIONS_PER_ADDRESS` from one address (a lecture hall's NAT included: one room
  holds at most 1,000 students), except from the proxy the teacher names, through which every
  student comes;
* at most ``open files - RESERVED_FILES`` in all (`open_files_for`), so that the database, the
  pages' files and the log always have theirs;
* a request whose headers (and body) are not in within `HEADER_SECONDS` is closed, and so is a
  connection kept alive that starts a request it does not finish.

A connection over a bound is closed at once, before a byte of it is read. `guarded_protocols`
returns the HTTP and websocket protocol classes for uvicorn that keep the gate.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from .limits import CONNECTIONS_PER_ADDRESS, HEADER_SECONDS, network_of
from .wire import WebsocketProtocol

__all__ = ["RESERVED_FILES", "Gate", "guarded_protocols", "open_files_for"]

RESERVED_FILES = 128  #: files kept for the database, the pages' files, the log and the listening socket


class Gate:
    """The connections of one server process: how many from each address and in all, and the bounds.

    An IPv6 address counts for its /64 (`network_of`): one client has all of those addresses.
    The addresses of this machine count one by one: they are its own clients (the teacher's
    notebook, a proxy), and a client here could do worse than open connections.

    >>> gate = Gate(total=5, per_address=2, trusted=("127.0.0.1",))
    >>> [gate.enter(k, "10.0.0.7") for k in range(3)], gate.enter(3, "2001:db8::1"), gate.enter(4, "2001:db8::2")
    ([True, True, False], True, True)
    >>> gate.enter(5, "2001:db8::3"), gate.enter(6, "127.0.0.1"), gate.enter(7, "127.0.0.1")  # 7: five open in all
    (False, True, False)
    >>> gate.leave(0); gate.enter(8, "127.0.0.1")
    True
    """

    def __init__(self, total: int, per_address: int = CONNECTIONS_PER_ADDRESS, trusted: tuple[str, ...] = ()) -> None:
        self.total, self.per_address, self.trusted = total, per_address, frozenset(trusted)
        self.open: dict[object, str] = {}
        self.by_address: Counter[str] = Counter()

    def enter(self, connection: object, address: str) -> bool:
        """Count a new connection from `address` and return True, or return False if it is over a bound."""
        if len(self.open) >= self.total:
            return False
        if address not in self.trusted and network_of(address) != "this machine":
            address = network_of(address)
        if address not in self.trusted and self.by_address[address] >= self.per_address:
            return False
        self.open[connection] = address
        self.by_address[address] += 1
        return True

    def leave(self, connection: object) -> None:
        """Forget a connection that closed (once; a second call does nothing)."""
        address = self.open.pop(connection, None)
        if address is not None:
            self.by_address[address] -= 1
            if not self.by_address[address]:
                del self.by_address[address]


def open_files_for(soft: int, hard: int) -> int:
    """Return the connections a process of `soft` open files may hold (all its files but `RESERVED_FILES`).

    >>> open_files_for(20_000, 20_000), open_files_for(256, 256)
    (19872, 128)
    """
    return max(16, soft - RESERVED_FILES)


def raise_open_files() -> tuple[int, int]:
    """Raise this process's open-files limit to its hard limit; return the limit before and after.

    On macOS an unlimited hard limit still stops at ``OPEN_MAX`` (10,240); on a system without
    the ``resource`` module (Windows) the limit is left alone and taken as 512.
    """
    try:
        import resource
    except ImportError:
        return 512, 512
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1_048_576
    for target in (wanted, 10_240):
        if target <= soft:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            break
        except (ValueError, OSError):
            continue
    return soft, resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def _http_base() -> type[Any]:
    """Return uvicorn's fastest HTTP protocol here: httptools' if it is installed, else h11's."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - httptools is a dependency of uvicorn[standard]
        return H11Protocol
    return HttpToolsProtocol


def guarded_protocols(gate: Gate, header_seconds: float = HEADER_SECONDS) -> tuple[type[Any], type[Any]]:
    """Return uvicorn's HTTP and websocket protocol classes, keeping `gate` and the time for a request's headers."""
    base = _http_base()

    class GuardedHttp(base):  # type: ignore[misc, valid-type]
        """uvicorn's HTTP protocol behind the gate, closing a request not in within `header_seconds`."""

        _deadline: asyncio.TimerHandle | None = None
        _admitted = False

        def connection_made(self, transport: asyncio.Transport) -> None:
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if isinstance(peer, tuple) and peer else "unix"
            if not gate.enter(transport, address):
                transport.abort()  # over a bound: closed before it costs more than its file for a moment
                return
            self._admitted = True
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if not self._admitted:
                return  # refused at the gate: uvicorn never set this connection up
            gate.leave(self.transport)
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            if self._deadline is not None:  # answered: the next request, if any, gets its own time
                self._deadline.cancel()
                self._deadline = None
            super().on_response_complete()

        def data_received(self, data: bytes) -> None:
            if self._deadline is None and self._waiting():
                self._arm()  # a kept-alive connection starts a new request: it has its time too
            super().data_received(data)

        def _arm(self) -> None:
            self._deadline = self.loop.call_later(header_seconds, self._too_slow)

        def _waiting(self) -> bool:
            """Return whether a request is being received (headers or body), not answered or upgraded."""
            cycle = self.cycle
            return cycle is None or cycle.response_complete or cycle.more_body

        def _too_slow(self) -> None:
            self._deadline = None
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                return  # closed, or a websocket now (its own protocol)
            if self._waiting():
                self.transport.close()

    class GuardedWebsocket(WebsocketProtocol):
        """The websocket protocol that tells the gate when its connection closes."""

        def connection_lost(self, exc: Exception | None) -> None:
            gate.leave(self.transport)
            super().connection_lost(exc)

    return GuardedHttp, GuardedWebsocket
