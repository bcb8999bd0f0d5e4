"""The websocket protocol the server speaks: uvicorn's own, with the boards compressed fast and against the last one.

Browsers ask for permessage-deflate, and a page is worth compressing: a Ra board is 14-19 KB of
JSON (its SVG), and a class of a few hundred gets several boards a second each. uvicorn
compresses at zlib's default level (6): 0.94 ms of CPU per board on this project's machine (a
page's boards one after another, with a 4 KB window), more than drawing one. Level 1 took 0.56
ms. A page's boards differ little from one to the next, and the compressor keeps its window
from one message to the next: with a window as large as a whole message, the page's previous
board is in reach and most of the new one is sent as references to it. A view with its board
is 20 KB of JSON: with a window of 32 KB (15 bits) it costs 0.062 ms of CPU and 1.9 KB, with
16 KB (14 bits, which reaches only part of the last board) 0.110 ms and 3.7 KB (`python
benchmarks/table_views.py`: whole games' views at a table of four, each page's one after
another, CPU time at load 9). The price is memory: about 144 KB of compressor per page
(memLevel 5) instead of 80 KB, 144 MB for 1,000 pages over the processes.

A view leaves the hub as JSON in UTF-8 bytes (orjson's). Sent as ASGI's text, it would be
decoded to a string and encoded again before framing: 27 µs for a 14 KB board (its SVG holds
a few non-ASCII characters, so the string is two bytes a character), more than encoding the
view. This protocol says in the scope's extensions (`UTF8_TEXT`) that it also takes a text
message as its UTF-8 bytes, ``{"type": "websocket.send", "utf8": b"..."}``, framed as they are.
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.http11 import Request
from websockets.server import ServerProtocol

__all__ = ["COMPRESSION_LEVEL", "UTF8_TEXT", "WINDOW_BITS", "WebsocketProtocol"]

UTF8_TEXT = "ra.websocket.send.utf8"  #: the scope's extension: a text message may come as its UTF-8 bytes

COMPRESSION_LEVEL = 1  #: zlib's level for what the server sends (1: fastest)
WINDOW_BITS = 15  #: the window of what the server sends: 32 KB, more than one board


class WebsocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol (websockets, sans I/O) with the fastest compression of what it sends."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            deflate = ServerPerMessageDeflateFactory(
                server_max_window_bits=WINDOW_BITS,
                client_max_window_bits=12,
                compress_settings={"memLevel": 5, "level": COMPRESSION_LEVEL},
            )
            self.conn = ServerProtocol(
                extensions=[deflate], max_size=self.config.ws_max_size, logger=logging.getLogger("uvicorn.error")
            )

    def handle_connect(self, event: Request) -> None:
        """Accept the handshake as uvicorn does, and say in the scope that text may come as UTF-8 bytes."""
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][UTF8_TEXT] = {}

    async def send(self, message: ASGISendEvent) -> None:
        """Send an ASGI message; a text message given as its UTF-8 bytes (``"utf8"``) is framed as it is."""
        data = message.get("utf8")
        if not isinstance(data, bytes):
            return await super().send(message)
        await self.writable.wait()
        if self.disconnected:
            raise ClientDisconnected()
        if not self.handshake_complete or self.close_sent or self.initial_response is not None:
            return await super().send({"type": "websocket.send", "text": data.decode()})  # as uvicorn would answer it
        try:
            self.conn.send_text(data)
        except InvalidState:
            raise ClientDisconnected() from None
        self.transport.write(b"".join(self.conn.data_to_send()))
