"""The teacher's side of the API as Python calls (standard library only): what the control room uses.

>>> client = TeacherClient("http://127.0.0.1:8000", "the-teacher's-secret")
>>> client.url
'http://127.0.0.1:8000'
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

__all__ = ["ClassroomError", "RefusedError", "ServerDown", "TeacherClient"]


class ClassroomError(RuntimeError):
    """Something in the class the teacher can put right; the message says what, in one sentence."""


class RefusedError(ClassroomError):
    """The server refused a teacher's call; the message is its reason."""

    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status = status


class ServerDown(ClassroomError):
    """The classroom server does not answer (stopped, or not started yet)."""


class TeacherClient:
    """Calls the classroom server's teacher API with the teacher's secret.

    Args:
        url: the server's address, e.g. ``http://127.0.0.1:8000``.
        secret: the teacher's secret.
    """

    def __init__(self, url: str, secret: str) -> None:
        self.url = url.rstrip("/")
        self._secret = secret

    @property
    def secret(self) -> str:
        """Return the teacher's secret (for the projector page's link)."""
        return self._secret

    def call(self, method: str, path: str, body: Any = None, *, raw: bool = False) -> Any:
        """Call the API; return the JSON answer (or the text, with `raw`).

        Raises:
            RefusedError: the server refused the call (its reason is the message).
            ServerDown: the server does not answer.
        """
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(
            self.url + path,
            data=data,
            method=method,
            headers={"Authorization": f"Bearer {self._secret}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                text = answer.read().decode("utf-8")
        except urllib.error.HTTPError as e:
            try:
                why = json.loads(e.read().decode("utf-8")).get("error", str(e))
            except ValueError:
                why = str(e)
            raise RefusedError(e.code, why) from None
        except (OSError, urllib.error.URLError):
            raise ServerDown(
                f"The classroom server at {self.url} does not answer: start it again (the control room's first"
                " cell does), then try once more. Nothing stored is lost."
            ) from None
        return text if raw else json.loads(text)

    def create_room(self, code: str | None = None, seed: str | None = None, size: int | None = None) -> str:
        """Create a room (at most `size` students may join; default: the server's largest); return its code."""
        body = {k: v for k, v in {"code": code, "seed": seed, "size": size}.items() if v is not None}
        return str(self.call("POST", "/api/rooms", body)["room"])

    def set_size(self, room: str, size: int) -> dict[str, Any]:
        """Let at most `size` students join `room` (those in already stay); return its size and how many are in."""
        return dict(self.call("POST", f"/api/rooms/{room}/size", {"size": size}))

    def status(self, room: str) -> dict[str, Any]:
        """Return who is in `room`, its latest round and who has bid, and its tables."""
        return dict(self.call("GET", f"/api/rooms/{room}"))

    def open_round(self, room: str, spec: dict[str, Any]) -> dict[str, Any]:
        """Open a round (settings as in `RoundSpec.from_dict`); return its id, groups or tables."""
        return dict(self.call("POST", f"/api/rooms/{room}/rounds", spec))

    def close_round(self, room: str) -> dict[str, Any]:
        """Close the open round and settle it."""
        return dict(self.call("POST", f"/api/rooms/{room}/close", {}))

    def control(self, room: str, what: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """Pause, resume, extend, cancel or end (`what`) in `room`; return the server's summary."""
        return dict(self.call("POST", f"/api/rooms/{room}/{what}", body or {}))

    def exclude(self, room: str, number: int, excluded: bool = True) -> dict[str, Any]:
        """Leave round `number` out of the results (or count it again)."""
        return dict(self.call("POST", f"/api/rooms/{room}/rounds/{number}/exclude", {"excluded": excluded}))

    def student(self, room: str, action: str, name: str | int, to: str | None = None) -> dict[str, Any]:
        """Act on a student (``remove``, ``rename`` with `to`, ``reseat``, ``refuse``, ``bot``, ``back``)."""
        body: dict[str, Any] = {"student": name} if isinstance(name, int) else {"name": name}
        if to is not None:
            body["to"] = to
        return dict(self.call("POST", f"/api/rooms/{room}/students/{action}", body))

    def projector(self, room: str) -> dict[str, Any]:
        """Return what the projector shows now (counts, the clock, the results; no names)."""
        return dict(self.call("GET", f"/api/rooms/{room}/projector"))

    def results(self, room: str) -> dict[str, list[dict[str, Any]]]:
        """Return ``{"bids": rows, "tables": rows}`` (see `ra_classroom.store.export`)."""
        return dict(self.call("GET", f"/api/rooms/{room}/results"))

    def payments(self, room: str) -> list[dict[str, Any]]:
        """Return the round drawn to pay each student at the session's end (empty while it goes on)."""
        return list(self.call("GET", f"/api/rooms/{room}/payments")["payments"])

    def results_csv(self, room: str) -> str:
        """Return the sealed-bid results as CSV text."""
        return str(self.call("GET", f"/api/rooms/{room}/results.csv", raw=True))
