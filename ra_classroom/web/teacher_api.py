"""The teacher's HTTP API: every call needs the teacher's secret (``Authorization: Bearer <secret>``).

=================================================  ===============================================
call                                               what it does
=================================================  ===============================================
``POST /api/rooms``                                create a room (``{"code": ..., "seed": ..., "size": ...}``, all
                                                   optional)
``GET  /api/rooms/{code}``                         the students, every round, the latest (who has bid), the tables,
                                                   the size
``POST /api/rooms/{code}/size``                    ``{"size": 40}``: at most 40 students may join (those in stay)
``POST /api/rooms/{code}/rounds``                  open a round: a `RoundSpec` as JSON
``POST /api/rooms/{code}/close``                   close the open round now and settle it
``POST /api/rooms/{code}/pause``, ``/resume``      pause the open round (no bid, no move, the clock stopped), go on
``POST /api/rooms/{code}/extend``                  ``{"seconds": 30}`` more for the open round
``POST /api/rooms/{code}/cancel``                  end the open round with nothing settled: it counts nowhere
``POST /api/rooms/{code}/rounds/{n}/exclude``      ``{"excluded": true}``: leave round n out of the results (false: in)
``POST /api/rooms/{code}/students/{action}``       ``{"name": ...}`` (or ``{"student": id}``): ``remove``, ``rename``
                                                   (with ``"to"``), ``reseat`` (let in the device asking for his
                                                   seat), ``refuse`` (that device), ``bot`` (bots play his Ra
                                                   seats), ``back`` (give them back)
``POST /api/rooms/{code}/end``                     end the session: every page says so (an open round is closed),
                                                   and each student's paying round is drawn; ``{"ended": false}``:
                                                   the session goes on
``GET  /api/rooms/{code}/payments``                the round drawn to pay each student at the end, his earnings there
                                                   (``payments.csv``: the same as CSV)
``GET  /api/rooms/{code}/projector``               what the projector shows: counts, the clock, the results
``GET  /api/rooms/{code}/results``                 ``{"bids": [...], "tables": [...]}``, one row per student and round
``GET  /api/rooms/{code}/results.csv``             the sealed-bid results as CSV (``tables.csv``: the Ra tables)
=================================================  ===============================================

A refused call answers ``{"error": why}`` with status 400 (401 without the secret, 403 with
a wrong one, 404 for an unknown room) and changes nothing. The projector's page itself,
``/projector/{code}``, is served to anyone; it shows nothing without the secret (in the
link's ``#`` part, which the browser never sends).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from ..kinds.spec import RoundSpec
from ..store import controls
from ..store.commands import STUDENT_ACTIONS
from ..store.export import PAID_COLUMNS, TABLE_COLUMNS, bid_columns, bid_rows, csv_text, paid_rows, status, table_rows
from ..store.projector import projector
from ..store.refusal import Refusal
from ..store.rooms import room_exists
from ..store.tokens import normal_code, same_secret
from .classroom import Classroom
from .links import qr_svg, room_link
from .protocol import MAX_ID, strict_json

__all__ = ["teacher_routes"]

MAX_BODY = 10_000  # bytes: a round's settings take a few hundred

Handler = Callable[[Request, Classroom], Awaitable[Response]]


def _error(status_code: int, why: str) -> JSONResponse:
    return JSONResponse({"error": why}, status_code=status_code)


async def _body(request: Request) -> Any:
    """Return the request's JSON body ({} if empty), or raise Refusal."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise Refusal(f"That request is too large ({len(raw)} bytes; at most {MAX_BODY}).")
    if not raw.strip():
        return {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Refusal("The request's body is not UTF-8 text.") from None
    return strict_json(text)


def teacher_routes(classroom: Classroom, secret: str, address: str | None = None) -> list[Route]:
    """Return the API's routes, each checking the teacher's `secret` first.

    Args:
        classroom: the server's classroom.
        secret: the teacher's secret.
        address: the server's address as students type it, for the projector's link and QR code
            (default: the address the projector's page was opened at).
    """

    def guarded(handler: Handler, room: bool = True) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            given = request.headers.get("authorization", "")
            token = given.removeprefix("Bearer ").strip() if given.startswith("Bearer ") else ""
            if not token:
                return _error(401, "The teacher's secret is needed: Authorization: Bearer <secret>.")
            if not same_secret(token, secret):
                return _error(403, "That is not the teacher's secret.")
            try:
                if room:
                    code = normal_code(request.path_params["code"])
                    if not await classroom.read(lambda conn: room_exists(conn, code)):
                        return _error(404, f"There is no room {code}.")
                return await handler(request, classroom)
            except Refusal as refusal:
                return _error(400, refusal.why)
            except ValueError as e:  # a round's settings that do not make a round
                return _error(400, str(e))

        return endpoint

    return [
        Route("/api/rooms", guarded(_create_room, room=False), methods=["POST"]),
        Route("/api/rooms/{code}", guarded(_status), methods=["GET"]),
        Route("/api/rooms/{code}/size", guarded(_size), methods=["POST"]),
        Route("/api/rooms/{code}/rounds", guarded(_open_round), methods=["POST"]),
        Route("/api/rooms/{code}/close", guarded(_close_round), methods=["POST"]),
        Route("/api/rooms/{code}/pause", guarded(_round_control(controls.pause)), methods=["POST"]),
        Route("/api/rooms/{code}/resume", guarded(_round_control(controls.resume)), methods=["POST"]),
        Route("/api/rooms/{code}/cancel", guarded(_round_control(controls.cancel)), methods=["POST"]),
        Route("/api/rooms/{code}/end", guarded(_end), methods=["POST"]),
        Route("/api/rooms/{code}/extend", guarded(_extend), methods=["POST"]),
        Route("/api/rooms/{code}/rounds/{number}/exclude", guarded(_exclude), methods=["POST"]),
        Route("/api/rooms/{code}/students/{action}", guarded(_student), methods=["POST"]),
        Route("/api/rooms/{code}/projector", guarded(_projector(address)), methods=["GET"]),
        Route("/api/rooms/{code}/results", guarded(_results), methods=["GET"]),
        Route("/api/rooms/{code}/results.csv", guarded(_results_csv), methods=["GET"]),
        Route("/api/rooms/{code}/tables.csv", guarded(_tables_csv), methods=["GET"]),
        Route("/api/rooms/{code}/payments", guarded(_payments), methods=["GET"]),
        Route("/api/rooms/{code}/payments.csv", guarded(_payments_csv), methods=["GET"]),
    ]


def _code(request: Request) -> str:
    return normal_code(request.path_params["code"])


async def _create_room(request: Request, classroom: Classroom) -> Response:
    body = await _body(request)
    if not isinstance(body, dict) or set(body) - {"code", "seed", "size"}:
        raise Refusal("A new room takes an optional code, seed and size.")
    code, seed = body.get("code"), body.get("seed")
    if not (code is None or isinstance(code, str)) or not (seed is None or isinstance(seed, str) and len(seed) <= 64):
        raise Refusal("A room's code and seed are short texts.")
    return JSONResponse({"room": await classroom.create_room(code, seed, body.get("size"))})


async def _size(request: Request, classroom: Classroom) -> Response:
    body = await _body(request)
    if not isinstance(body, dict) or set(body) != {"size"}:
        raise Refusal('A room\'s size is {"size": students}.')
    return JSONResponse(await classroom.set_size(_code(request), body["size"]))


async def _status(request: Request, classroom: Classroom) -> Response:
    code = _code(request)
    return JSONResponse(await classroom.read(lambda conn: status(conn, classroom.cache, code, time.time())))


async def _open_round(request: Request, classroom: Classroom) -> Response:
    spec = RoundSpec.from_dict(await _body(request))
    return JSONResponse(await classroom.open_round(_code(request), spec))


async def _close_round(request: Request, classroom: Classroom) -> Response:
    body = await _body(request)
    which = body.get("round") if isinstance(body, dict) else None
    if which is not None and (isinstance(which, bool) or not isinstance(which, int) or not 0 < which <= MAX_ID):
        raise Refusal("round is a round's id.")
    return JSONResponse(await classroom.close_round(_code(request), which))


async def _results(request: Request, classroom: Classroom) -> Response:
    code = _code(request)
    found = await classroom.read(
        lambda conn: {"bids": bid_rows(conn, code), "tables": table_rows(conn, classroom.cache, code)}
    )
    return JSONResponse(found)


async def _results_csv(request: Request, classroom: Classroom) -> Response:
    code = _code(request)
    rows = await classroom.read(lambda conn: bid_rows(conn, code))
    return PlainTextResponse(csv_text(rows, bid_columns(rows)), media_type="text/csv")


async def _payments(request: Request, classroom: Classroom) -> Response:
    code = _code(request)
    return JSONResponse({"payments": await classroom.read(lambda conn: paid_rows(conn, code))})


async def _payments_csv(request: Request, classroom: Classroom) -> Response:
    code = _code(request)
    rows = await classroom.read(lambda conn: paid_rows(conn, code))
    return PlainTextResponse(csv_text(rows, PAID_COLUMNS), media_type="text/csv")


async def _tables_csv(request: Request, classroom: Classroom) -> Response:
    code = _code(request)
    rows = await classroom.read(lambda conn: table_rows(conn, classroom.cache, code))
    return PlainTextResponse(csv_text(rows, TABLE_COLUMNS), media_type="text/csv")


def _round_control(fn: Callable[[Any, str, float], tuple[dict[str, Any], list[dict[str, Any]]]]) -> Handler:
    """Return the handler of a control of the open round that takes no settings (pause, resume, cancel, end)."""

    async def handler(request: Request, classroom: Classroom) -> Response:
        code = _code(request)
        return JSONResponse(await classroom.control(lambda conn, now: fn(conn, code, now)))

    return handler


async def _end(request: Request, classroom: Classroom) -> Response:
    body, code = await _body(request), _code(request)
    ended = body.get("ended", True) if isinstance(body, dict) else None
    return JSONResponse(await classroom.control(lambda conn, now: controls.end_session(conn, code, now, ended)))


async def _extend(request: Request, classroom: Classroom) -> Response:
    body, code = await _body(request), _code(request)
    seconds = body.get("seconds") if isinstance(body, dict) else None
    return JSONResponse(await classroom.control(lambda conn, now: controls.extend(conn, code, seconds, now)))


async def _exclude(request: Request, classroom: Classroom) -> Response:
    body, code, given = await _body(request), _code(request), str(request.path_params["number"])
    if not (given.isascii() and given.isdigit() and len(given) <= 15):  # read here: no int() of a long text
        raise Refusal(f"Room {code} has no round {given[:20]}.")
    number = int(given)
    excluded = body.get("excluded", True) if isinstance(body, dict) else None
    return JSONResponse(await classroom.control(lambda conn, now: controls.exclude(conn, code, number, excluded)))


async def _student(request: Request, classroom: Classroom) -> Response:
    """One of the teacher's actions on a student, named in the body by ``name`` (or ``student``, his id)."""
    body, code, action = await _body(request), _code(request), request.path_params["action"]
    if action not in STUDENT_ACTIONS:
        raise Refusal(f"No such action on a student: {action[:20]!r}; known: {', '.join(STUDENT_ACTIONS)}.")
    if not isinstance(body, dict) or set(body) - {"name", "student", "to"}:
        raise Refusal('Name the student: {"name": "Ana"} (and "to" for a new name).')
    who = body.get("student", body.get("name"))
    return JSONResponse(await classroom.on_student(code, action, who, body.get("to")))


def _projector(address: str | None) -> Handler:
    """Return the handler of what the projector shows, with the room's link and its QR code."""

    async def handler(request: Request, classroom: Classroom) -> Response:
        code = _code(request)
        shown = await classroom.read(lambda conn: projector(conn, classroom.cache, code, time.time()))
        base = address or str(request.base_url).rstrip("/")
        shown["link"] = room_link(base, code)
        shown["qr"] = qr_svg(shown["link"], fit=True)
        return JSONResponse(shown)

    return handler
