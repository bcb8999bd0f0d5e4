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
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

__all__ = ["COMPRESSION_LEVEL", "WINDOW_BITS", "WebsocketProtocol"]

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
