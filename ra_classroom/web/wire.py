"""The websocket protocol the server speaks: uvicorn's own, with the boards compressed fast and against the last one.

Browsers ask for permessage-deflate, and a page is worth compressing: a Ra board is 14-17 KB of
JSON (its SVG), and a class of a few hundred gets several boards a second each. uvicorn
compresses at zlib's default level (6): 0.94 ms of CPU per board on this project's machine (a
page's boards one after another, with a 4 KB window), more than drawing one. Level 1 took 0.56
ms. A page's boards differ little from one to the next, and the compressor keeps its window
from one message to the next: with a window of 16 KB (14 bits) instead of 4 KB, most of the
page's previous board is in reach, and a board of a whole game costs about half the CPU and
half the bytes (0.23 ms and 1.6 KB instead of 0.47 ms and 3.3 KB, measured together on a busy
machine). The price is memory: about 80 KB of compressor per page instead of 32 KB (80 MB for
1,000 pages over the processes); a 32 KB window (15 bits) would save a little more for 144 KB.
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

__all__ = ["COMPRESSION_LEVEL", "WINDOW_BITS", "WebsocketProtocol"]

COMPRESSION_LEVEL = 1  #: zlib's level for what the server sends (1: fastest)
WINDOW_BITS = 14  #: the window of what the server sends: 16 KB, about one board


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
