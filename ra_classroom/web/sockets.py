"""A student's websocket: read each message strictly, act on it, answer with an ack or a refusal.

Before anything is read, the page's rate is checked; then the message is parsed
(`ra_classroom.web.protocol`) and handled as its student, the one whose seat token or join opened
the page: a page can act only for its own student, so only in his seat. A refused message
changes nothing and gets ``{"t": "refused", "why": ...}``.

A browser says which page opened a websocket (``Origin``): only the classroom's own page, at the
address the browser asked for (``Host``) or at the classroom's public address, may open one, so
that no other site a student visits can act in his seat. A page that has sent nothing to seat a
student for `UNSEATED_SECONDS` is closed: an idle connection costs the server memory and a file.

Each browser holds a device token, a cookie (`DEVICE_COOKIE`) the server sets when its first
websocket opens: the seat a device joins is marked with it, so that a device whose student the
teacher removed cannot join again under another name. Its User-Agent, in a few words
(`ra_classroom.web.devices`), names it in the teacher's panel.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from typing import Any
from urllib.parse import urlsplit

from starlette.websockets import WebSocket, WebSocketDisconnect

from ra_core import Tile

from ..game.table import Selection
from ..store import roster
from ..store.refusal import Refusal
from ..store.rooms import NO_DEVICE, Asked, Device
from ..store.roster import Pending
from ..store.tokens import new_secret, token_hash
from .classroom import Classroom
from .devices import describe
from .hub import Page
from .limits import MAX_PAGES, RATE, RateLimit, network_of
from .protocol import parse, read_id

__all__ = ["DEVICE_COOKIE", "UNSEATED_SECONDS", "device_cookie", "origin_allowed", "student_socket"]

log = logging.getLogger("ra_classroom")

#: A page that seats nobody and says nothing this long is closed: time to type a room code and a name (a page
#: waiting for the teacher asks every 3 s; a page closed reconnects at once, showing the same form).
UNSEATED_SECONDS = 60.0
DEVICE_COOKIE = "ra_device"  #: the cookie that holds a browser's device token
DEVICE_DAYS = 400  #: how long a browser keeps it (the most browsers allow)
_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")


def device_cookie(token: str | None) -> str:
    """Return the ``Set-Cookie`` value that gives a browser its device token (a new one if `token` is not one).

    ``SameSite=Lax``: a browser sends it when a link from elsewhere (a QR code's scanner, an e-mail)
    opens the page, so that the page does not give that device a new token; ``HttpOnly``: no script
    reads it, and leaving a seat does not change the device.
    """
    if token is None or not _TOKEN.fullmatch(token):
        token = new_secret()
    return f"{DEVICE_COOKIE}={token}; Max-Age={DEVICE_DAYS * 86400}; Path=/; HttpOnly; SameSite=Lax"


def origin_allowed(origin: str | None, host: str | None, public: str | None) -> bool:
    """Return whether a websocket opened by the page at `origin` may be served.

    Browsers always send ``Origin``; a client without one is no browser, and no other site's
    page can stand behind it.

    >>> origin_allowed("http://192.168.1.20:8000", "192.168.1.20:8000", None)
    True
    >>> origin_allowed("https://ra.example.edu", "127.0.0.1:8000", "https://ra.example.edu")
    True
    >>> origin_allowed("https://evil.example", "192.168.1.20:8000", None), origin_allowed("null", "x", None)
    (False, False)
    >>> origin_allowed(None, "192.168.1.20:8000", None)
    True
    """
    if origin is None:
        return True
    try:
        asked = urlsplit(origin).netloc.lower()
        mine = urlsplit(public).netloc.lower() if public else ""
    except ValueError:
        return False
    return bool(asked) and asked in {(host or "").lower(), mine}


async def student_socket(
    ws: WebSocket, classroom: Classroom, public: str | None = None, unseated: float = UNSEATED_SECONDS
) -> None:
    """Serve one student's page until it closes.

    Args:
        ws: the page's websocket, not accepted yet.
        classroom: the classroom.
        public: the classroom's public address (its ``Origin`` is allowed, besides the ``Host`` asked for).
        unseated: seconds a page may stay without a student and silent before it is closed.
    """
    if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), public):
        await ws.close(code=1008)  # before the handshake: the browser is answered 403
        return
    device = ws.cookies.get(DEVICE_COOKIE, "")
    if _TOKEN.fullmatch(device):
        await ws.accept()
    else:
        device = new_secret()
        await ws.accept(headers=[(b"set-cookie", device_cookie(device).encode())])
    page = Page(ws)
    page.address = ws.client.host if ws.client else "unknown"
    page.device = Device(device, describe(ws.headers.get("user-agent")), network_of(page.address))
    limit = RateLimit()
    try:
        while True:
            if page.student is None:
                try:
                    message = await asyncio.wait_for(ws.receive(), unseated)
                except TimeoutError:
                    await ws.close(code=1008, reason="Join a room first: this page waited too long.")
                    break
            else:
                message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            page.heard = time.monotonic()
            text = message.get("text")
            msg: dict[str, Any] | None = None
            try:
                if not limit.allow():
                    raise Refusal(f"Too many messages: at most {RATE:g} a second. That one was ignored.")
                msg = parse(text)
                await _handle(msg, page, classroom)
            except Refusal as refusal:
                await page.send(_refusal(msg, text, refusal.why))
                if msg is not None and msg["t"] in ("move", "ui") and page.student is not None:
                    classroom.hub.refresh([page.student])  # a click on a board that is behind: send the current one
            except Exception:
                log.exception("a message from student %s failed", page.student)
                await page.send(_refusal(msg, text, "Something went wrong here; nothing changed."))
    except WebSocketDisconnect:
        pass
    finally:
        last = classroom.hub.detach(page)
        if last is not None:  # his seat has no page here now: after a grace, it may be asked for
            await classroom.away(last)


def _refusal(msg: dict[str, Any] | None, text: Any, why: str) -> dict[str, Any]:
    """Return the refusal of a message: with its id if it can be read, else saying that it could not be read."""
    ident = msg.get("id") if msg is not None else read_id(text)
    if msg is None and ident is None:
        why = f"A message from this page could not be read, so nothing was done: {why}"
    return {"t": "refused", "id": ident, "why": why}


async def _handle(msg: dict[str, Any], page: Page, classroom: Classroom) -> None:
    """Act on one parsed message from `page`."""
    kind, ident = msg["t"], msg.get("id")
    if kind == "confirm" and page.student is not None:
        yes = await classroom.answer(page.student, msg.get("request"), msg.get("yes"))
        await page.send({"t": "ack", "id": ident, "confirmed": yes})
        return
    if kind in ("join", "hello", "ask"):
        if page.student is not None:
            raise Refusal(f"This page is in room {page.room} already.")
        await _enter(msg, page, classroom)
        return
    if page.student is None:
        raise Refusal("Join a room first: type the room code and your name.")
    if kind == "bid":
        count = await classroom.bid(page.student, msg.get("round"), msg.get("amount"))
        await page.send({"t": "ack", "id": ident, "round": msg.get("round"), "bids_in": count})
    elif kind == "press":
        done = await classroom.press(page.student, msg.get("round"), msg.get("tick"))
        await page.send({"t": "ack", "id": ident, "round": msg.get("round"), **done})
    elif kind == "act":
        count = await classroom.act(page.student, msg.get("round"), msg.get("data"))
        await page.send({"t": "ack", "id": ident, "round": msg.get("round"), "bids_in": count})
    elif kind == "move":
        ply = await classroom.move(page.student, msg.get("table"), msg.get("action"), msg.get("version"))
        await page.send({"t": "ack", "id": ident, "table": msg.get("table"), "ply": ply})
    elif kind == "ui":
        table, ui = msg.get("table"), msg.get("ui")
        if table is None or table != page.table or not isinstance(ui, str) or len(ui) > 40:
            raise Refusal("That step is not on your board.")
        part = await classroom.ui_step(page.student, table, msg.get("version"), ui, _selection(msg.get("sel")))
        await page.send({"t": "table", "id": ident, "table": part})


async def _enter(msg: dict[str, Any], page: Page, classroom: Classroom) -> None:
    """Seat the page's student: a join (new, or back with his rejoin code), a hello (his seat token), or an ask.

    An ask, and a hello from a device the teacher has not let in yet, seat nobody: the page is
    told to wait (``asking``, ``pending``) and tries its hello again a little later. Joins and
    asks from one network address are limited (`JoinLimit`), and so are the pages open on one
    seat (`MAX_PAGES`).
    """
    kind, ident = msg["t"], msg.get("id")
    device = page.device if isinstance(page.device, Device) else NO_DEVICE
    counted = kind == "ask" or (kind == "join" and msg.get("code") in (None, ""))  # a code seats nobody new
    if counted and not classroom.joins.allow(page.address):
        raise Refusal("Many students joined from your network just now: wait a few seconds and join again.")
    if kind in ("join", "ask"):
        try:
            entered = await (
                classroom.ask(msg.get("room"), msg.get("name"), device)
                if kind == "ask"
                else classroom.join(msg.get("room"), msg.get("name"), msg.get("code"), device)
            )
        except Refusal:
            if counted:
                classroom.joins.refund(page.address)  # no seat made: the network's allowance is not spent
            raise
        if isinstance(entered, Asked):
            await page.send(
                {"t": "asking", "id": ident, "token": entered.token, "room": entered.room, "name": entered.name}
                | {"why": entered.why}
            )
            return
        if entered.moved and counted:
            classroom.joins.refund(page.address)
        sid, room, name, token = entered.student, entered.room, entered.name, entered.token
        welcome = {
            "t": "welcome",
            "id": ident,
            "student": sid,
            "room": room,
            "name": name,
            "token": token,
            "code": entered.rejoin,
        }
    else:
        given = msg.get("token")
        _room_for_one_more(classroom, given)  # before any work for it
        try:
            sid, room, name, code = await classroom.hello(given)
        except Pending as waiting:
            await page.send({"t": "pending", "id": ident, "why": waiting.why})
            return
        _room_for_one_more(classroom, given)  # and again: others may have come meanwhile
        token = str(given)  # a student's: hello found him by it
        welcome = {"t": "welcome", "id": ident, "student": sid, "room": room, "name": name}
        if code is not None:
            welcome["code"] = code
    classroom.hub.attach(page, sid, room, token_hash(token))
    await page.send(welcome)
    classroom.hub.refresh([sid])
    if kind == "hello":  # a page back (a reload, a reconnection) is asked again what it missed being asked
        for asked in await classroom.read(lambda conn: roster.waiting_for(conn, sid)):
            classroom.hub.ask_pages(asked, only=page)


def _room_for_one_more(classroom: Classroom, token: Any) -> None:
    """Raise Refusal if the seat of `token` has `MAX_PAGES` pages open here already."""
    if isinstance(token, str) and classroom.hub.pages_of_seat(token_hash(token)) >= MAX_PAGES:
        raise Refusal(f"Your seat is open on {MAX_PAGES} pages already: close one of them, then reload this one.")


def _selection(data: Any) -> Selection:
    """Return the choice in progress a page sent (``{"god": false, "picked": ["art"]}``), or refuse it."""
    if data is None:
        return Selection()
    if not isinstance(data, dict) or set(data) - {"god", "picked"}:
        raise Refusal("A choice in progress is {god, picked}.")
    god, picked = data.get("god", False), data.get("picked", [])
    if not isinstance(god, bool) or not isinstance(picked, list) or len(picked) > 12:
        raise Refusal("A choice in progress is {god, picked}.")
    tiles = []
    for label in picked:
        try:
            tiles.append(Tile.from_label(label) if isinstance(label, str) and len(label) < 20 else None)
        except ValueError:
            tiles.append(None)
    if None in tiles:
        raise Refusal("Only tiles can be picked.")
    return Selection(god, tuple(sorted(t for t in tiles if t is not None)))
