"""A student's page as the tests drive it: a real websocket to a real server, with a log of what it received."""

from __future__ import annotations

import base64
import json
import os
import socket
import time
from collections.abc import Callable
from typing import Any

from websockets.sync.client import connect

__all__ = ["Message", "Page", "SilentPage", "ply_at_least", "result_of"]

Message = dict[str, Any]


def ply_at_least(ply: int) -> Callable[[Message], bool]:
    """Return a test for a view whose table's board has had at least `ply` moves."""
    return lambda v: v["screen"] == "ra" and v["table"]["ply"] >= ply


def result_of(round_id: int) -> Callable[[Message], bool]:
    """Return a test for a view showing the results of round `round_id`."""
    return lambda v: v["screen"] == "result" and v["round"]["id"] == round_id


def bids_in(count: int) -> Callable[[Message], bool]:
    """Return a test for a view in which `count` of the group have bid."""
    return lambda v: v["round"] is not None and v["round"].get("bids_in") == count


class Page:
    """One student's page: send messages, and wait for the ones that match."""

    def __init__(self, url: str, source: str | None = None, headers: dict[str, str] | None = None) -> None:
        self.url = url.replace("http://", "ws://") + "/ws"
        sock = None
        if source is not None:  # come from another address of this machine (127.0.0.x), as another network
            host, port = url.removeprefix("http://").split(":")
            sock = socket.create_connection((host, int(port)), timeout=10, source_address=(source, 0))
        self._connection = connect(self.url, max_size=2**22, open_timeout=10, sock=sock, additional_headers=headers)
        self.ws = self._connection.__enter__()
        cookie = self.ws.response.headers.get("set-cookie") if self.ws.response is not None else None
        #: the device cookie the server set (None: the page sent one, and keeps it): send it again to be this device
        self.cookie: str | None = cookie.split(";")[0] if cookie else None
        self.log: list[Message] = []  # every message received, in order
        self.raw: list[str] = []  # the same, as sent by the server
        self.token: str | None = None
        self.student: int | None = None
        self._ids = 0

    def send(self, **msg: Any) -> int:
        """Send a message (an ``id`` is added unless given); return its id."""
        if "id" not in msg:
            self._ids += 1
            msg["id"] = self._ids
        self.ws.send(json.dumps(msg))
        return int(msg["id"]) if isinstance(msg["id"], int) else -1

    def send_raw(self, data: str | bytes) -> None:
        """Send `data` as it is (for malformed messages)."""
        self.ws.send(data)

    def recv(self, timeout: float = 10) -> Message:
        """Return the next message."""
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        msg: Message = json.loads(text)
        self.log.append(msg)
        if msg.get("t") == "welcome":
            self.student = msg["student"]
            self.token = msg.get("token", self.token)
        return msg

    def until(self, test: Callable[[Message], bool], timeout: float = 10) -> Message:
        """Return the first message (from now on) that passes `test`; fail after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no matching message within {timeout} s; last: {self.log[-3:]!r:.600}")
            try:
                msg = self.recv(timeout=left)
            except TimeoutError:
                continue
            if test(msg):
                return msg

    def answer(self, ident: int, timeout: float = 10) -> Message:
        """Return the ack or refusal of the message `ident`."""
        return self.until(lambda m: m.get("t") in ("ack", "refused") and m.get("id") == ident, timeout)

    def view(self, test: Callable[[Message], bool] = lambda v: True, timeout: float = 10) -> Message:
        """Return the next view that passes `test`."""
        return self.until(lambda m: m.get("t") == "view" and test(m), timeout)

    def join(self, room: str, name: str) -> Message:
        """Join `room` as `name`; return the first view."""
        ident = self.send(t="join", room=room, name=name)
        welcome = self.until(lambda m: m.get("t") in ("welcome", "refused") and m.get("id") == ident)
        assert welcome["t"] == "welcome", welcome
        return self.view()

    def hello(self, token: str) -> Message:
        """Come back with a seat token; return the first view."""
        self.token = token
        ident = self.send(t="hello", token=token)
        welcome = self.until(lambda m: m.get("t") in ("welcome", "refused") and m.get("id") == ident)
        assert welcome["t"] == "welcome", welcome
        return self.view()

    def close(self) -> None:
        """Close the page's connection."""
        self._connection.__exit__(None, None, None)


def seat(pages: list[Page], room: str) -> None:
    """Join `room` on each page, as "Student 0", "Student 1", ..."""
    for i, p in enumerate(pages):
        p.join(room, f"Student {i}")


class SilentPage:
    """A page that says hello with a seat token and then goes silent: it answers no ping and reads nothing.

    As a phone that left the network without closing its connection: the server sees an open
    connection until its pings go unanswered.
    """

    def __init__(self, url: str, token: str) -> None:
        host, port = url.removeprefix("http://").split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += self.sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 101"), answer[:80]
        payload = json.dumps({"t": "hello", "token": token}).encode()
        mask = os.urandom(4)
        assert len(payload) < 126
        self.sock.sendall(
            bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        )

    def close(self) -> None:
        """Drop the connection."""
        self.sock.close()
