"""The ASGI application: the students' page, their websocket, and the teacher's API.

One process serves every student (no kernel per student): `create_app` returns a Starlette
app that uvicorn runs (`ra_classroom.web.server`). The page is static (``static/``): plain HTML, a
stylesheet and one small script that shows the views the server sends and sends back clicks.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from .classroom import Classroom
from .limits import JOINS_PER_MINUTE
from .sockets import DEVICE_COOKIE, UNSEATED_SECONDS, device_cookie, student_socket
from .teacher_api import teacher_routes

__all__ = ["create_app"]

STATIC = Path(__file__).parent / "static"
#: The page runs only its own script and talks only to its own server.
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def create_app(
    database: str,
    teacher_secret: str,
    address: str | None = None,
    joins_per_minute: int = JOINS_PER_MINUTE,
    shared: bool = False,
    unseated: float = UNSEATED_SECONDS,
) -> Starlette:
    """Return the classroom's ASGI app on `database` (a SQLAlchemy URL or a SQLite file).

    Args:
        database: where everything is stored.
        teacher_secret: what the teacher's API calls must carry.
        address: the server's address as students type it (the projector shows it); default:
            the address the projector's page was opened at.
        joins_per_minute: students who may join from one network address at once, and each minute.
        shared: other processes of this machine serve the same SQLite file.
        unseated: seconds a page may stay silent without a student before it is closed.
    """
    if len(teacher_secret) < 16:
        raise ValueError("the teacher's secret must have at least 16 characters")
    classroom = Classroom(database, joins_per_minute, shared)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await classroom.start()
        try:
            yield
        finally:
            await classroom.stop()

    async def page(request: Request) -> Response:
        if request.cookies.get(DEVICE_COOKIE):  # checked, and replaced if it is no token, at the websocket
            return FileResponse(STATIC / "index.html", headers=HEADERS)
        return FileResponse(STATIC / "index.html", headers={**HEADERS, "Set-Cookie": device_cookie(None)})

    async def projector_page(request: Request) -> Response:
        return FileResponse(STATIC / "projector.html", headers=HEADERS)

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok", headers={"X-Ra-Classroom-Process": str(os.getpid())})

    async def socket(ws: WebSocket) -> None:
        await student_socket(ws, classroom, address, unseated)

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/r/{code}", page),
            Route("/projector/{code}", projector_page),
            Route("/healthz", health),
            WebSocketRoute("/ws", socket),
            *teacher_routes(classroom, teacher_secret, address),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.classroom = classroom
    return app
