"""How much one page may send: a token bucket per connection, and the largest message read.

>>> bucket = RateLimit(rate=2, burst=3)
>>> [bucket.allow(now=0.0) for _ in range(4)]
[True, True, True, False]
>>> bucket.allow(now=0.5)          # half a second refills one message
True
"""

from __future__ import annotations

import time

__all__ = ["BURST", "MAX_MESSAGE", "RATE", "RateLimit", "WIRE_LIMIT"]

MAX_MESSAGE = 2048  #: characters: a longer message is refused unread (a click or a bid needs under 200)
WIRE_LIMIT = 64 * 1024  #: bytes: a websocket frame larger than this closes the connection (code 1009)
RATE = 8.0  #: messages per second a page may send on average ...
BURST = 16  #: ... and at once: a student clicks a few times a second at most


class RateLimit:
    """A token bucket: `burst` messages at once, refilled at `rate` per second."""

    def __init__(self, rate: float = RATE, burst: int = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.stamp: float | None = None

    def allow(self, now: float | None = None) -> bool:
        """Return whether one more message may be handled now (and count it)."""
        now = time.monotonic() if now is None else now
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
