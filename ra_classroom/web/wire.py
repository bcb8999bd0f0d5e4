"""The websocket protocol the server speaks: uvicorn's own, with the boards compressed at zlib's fastest level.

Browsers ask for permessage-deflate, and a page is worth compressing: a Ra board is about 35 KB
of JSON (its SVG), and a class of a few hundred gets several boards a second each. uvicorn
compresses at zlib's default level (6): 0.94 ms of CPU per board on this project's machine (a page's
boards one after another, with its 4 KB window), more than drawing one. Level 1 takes 0.56 ms, and
a board still shrinks to a fifth (7.6 KB instead of 6.0 KB at level 6): on a server whose cores
are its limit, the better trade.
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

__all__ = ["COMPRESSION_LEVEL", "WebsocketProtocol"]

COMPRESSION_LEVEL = 1  #: zlib's level for what the server sends (1: fastest)


class WebsocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol (websockets, sans I/O) with the fastest compression of what it sends."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            deflate = ServerPerMessageDeflateFactory(
                server_max_window_bits=12,
                client_max_window_bits=12,
                compress_settings={"memLevel": 5, "level": COMPRESSION_LEVEL},
            )
            self.conn = ServerProtocol(
                extensions=[deflate], max_size=self.config.ws_max_size, logger=logging.getLogger("uvicorn.error")
            )
