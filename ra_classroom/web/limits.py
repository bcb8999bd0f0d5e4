"""How much one page, one seat and one address may ask: token buckets, and the largest message read.

A page may send `RATE` messages a second (bursts of `BURST`); a seat token may hold
`MAX_PAGES` pages at once in a process; an address may seat `JOINS_PER_MINUTE` new students at
once, and as many a minute after that (`JoinLimit`, per process): a lecture hall behind one NAT
shares an address, and its 1,000 students get in within a minute. Only a seat made (or a device
asking for one) counts: a refused join, a seat taken back, is given back (`JoinLimit.refund`),
and a join with a rejoin code is not counted at all (it seats nobody new), so one client sending
wrong codes or taken names spends nothing of his classmates' allowance (wrong codes are limited
per name, in the store). What a burst of joins from one address can take is bounded by the
room's size, and the teacher's panel shows joins per address and removes a burst at once (its
joins given back to the allowance).

>>> bucket = RateLimit(rate=2, burst=3)
>>> [bucket.allow(now=0.0) for _ in range(4)]
[True, True, True, False]
>>> bucket.allow(now=0.5)          # half a second refills one message
True
"""

from __future__ import annotations

import ipaddress
import time

__all__ = [
    "BURST",
    "CONNECTIONS_PER_ADDRESS",
    "HEADER_SECONDS",
    "JOINS_PER_MINUTE",
    "JoinLimit",
    "MAX_MESSAGE",
    "MAX_PAGES",
    "RATE",
    "RateLimit",
    "WIRE_LIMIT",
    "network_of",
]

MAX_MESSAGE = 2048  #: characters: a longer message is refused unread (a click or a bid needs under 200)
WIRE_LIMIT = 64 * 1024  #: bytes: a websocket frame larger than this closes the connection (code 1009)
RATE = 8.0  #: messages per second a page may send on average ...
BURST = 16  #: ... and at once: a student clicks a few times a second at most
MAX_PAGES = 4  #: pages open at once on one seat token, in one process: a phone, a laptop, a reload or two
#: New students who may join from one address at once, and each minute: a lecture hall of 1,000 behind one NAT, with
#: room to spare for the joins being refused at that moment (each holds its place until it is refused).
JOINS_PER_MINUTE = 1200
#: Connections open at once from one address (but the named proxy's): a room's 1,000 students behind one NAT, twice.
CONNECTIONS_PER_ADDRESS = 2000
HEADER_SECONDS = 10.0  #: seconds for a request's headers and body to arrive; a slower request is closed


def network_of(address: str) -> str:
    """Return the network an address counts for: one allowance per network, not per address a client can pick.

    Every 127.x.y.z and ``::1`` is this machine (one allowance, not 16 million), an IPv6 address
    counts for its /64 (what one home or phone is given), an IPv4 address for itself.

    >>> network_of("127.0.0.1") == network_of("127.3.4.5") == network_of("::1")
    True
    >>> network_of("2001:db8::1") == network_of("2001:db8::ffff"), network_of("10.0.0.7")
    (True, '10.0.0.7')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return "this machine"
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


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


class JoinLimit:
    """A token bucket of joins per network address: `per_minute` at once, then as many a minute.

    >>> joins = JoinLimit(per_minute=2)
    >>> [joins.allow("10.0.0.7", now=0.0) for _ in range(3)], joins.allow("10.0.0.8", now=0.0)
    ([True, True, False], True)
    >>> joins.allow("10.0.0.7", now=30.0)
    True
    >>> [joins.allow(f"127.0.0.{k}", now=0.0) for k in (1, 2, 3)]   # one machine, one allowance
    [True, True, False]
    """

    def __init__(self, per_minute: int = JOINS_PER_MINUTE) -> None:
        self.rate, self.burst = per_minute / 60, per_minute
        self._buckets: dict[str, RateLimit] = {}

    def allow(self, address: str, now: float | None = None) -> bool:
        """Return whether `address` (its network: `network_of`) may join one more student now (and count it)."""
        now = time.monotonic() if now is None else now
        if len(self._buckets) > 10_000:  # forget the addresses whose buckets are full again
            full = self.burst / self.rate
            self._buckets = {a: b for a, b in self._buckets.items() if b.stamp is not None and now - b.stamp < full}
        bucket = self._buckets.setdefault(network_of(address), RateLimit(self.rate, self.burst))
        return bucket.allow(now)

    def refund(self, address: str) -> None:
        """Give back the join `allow` counted for `address`: it seated nobody new (refused, or a seat taken back).

        >>> joins = JoinLimit(per_minute=1)
        >>> joins.allow("10.0.0.7", now=0.0), joins.refund("10.0.0.7"), joins.allow("10.0.0.7", now=0.0)
        (True, None, True)
        """
        bucket = self._buckets.get(network_of(address))
        if bucket is not None:
            bucket.tokens = min(bucket.burst, bucket.tokens + 1)
