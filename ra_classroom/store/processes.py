"""How many pages each server process holds, for processes that share one port (``--processes N``).

The system hands each new connection to one of the processes listening on the port, at random.
When a process dies, its pages reconnect to the ones still alive, and the one started in its
place begins with none: without help the class stays on the survivors. So each process says
every few seconds how many pages it holds (`report`), reads what the others said, and closes
some of its quiet pages when it holds more than its share (`surplus`); they reconnect at once,
and the system spreads them again.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from sqlalchemy import Connection, delete, select
from sqlalchemy.dialects import postgresql, sqlite

from .schema import processes

__all__ = ["ALIVE_SECONDS", "report", "surplus"]

ALIVE_SECONDS = 6.0  #: a process not heard from for this long is taken for dead (it says every 2 s)
SLACK = 0.2  #: a process may hold this much more than the mean before it sheds pages
LEAST = 4  #: and at least this many more: a few pages are never worth a reconnection


def report(conn: Connection, origin: str, pages: int, now: float) -> dict[str, int]:
    """Record that process `origin` holds `pages` pages; return the pages of every process alive, by origin."""
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    row = {"origin": origin, "pages": pages, "seen_at": now}
    conn.execute(insert(processes).values(row).on_conflict_do_update(index_elements=["origin"], set_=row))
    conn.execute(delete(processes).where(processes.c.seen_at < now - 6 * ALIVE_SECONDS))
    alive = select(processes.c.origin, processes.c.pages).where(processes.c.seen_at >= now - ALIVE_SECONDS)
    return {origin: count for origin, count in conn.execute(alive)}


def surplus(origin: str, counts: Mapping[str, int]) -> int:
    """Return how many of its pages process `origin` should close for the pages to spread evenly.

    Its pages above the mean of the processes alive, once it holds more than the mean by `SLACK`
    and by `LEAST` pages. The pages closed reconnect to any process at random, so some come
    back: the counts even out over a few rounds rather than overshoot in one.

    >>> surplus("a", {"a": 100, "b": 0})
    50
    >>> surplus("a", {"a": 55, "b": 45}), surplus("a", {"a": 100}), surplus("b", {"a": 100, "b": 0})
    (0, 0, 0)
    """
    mine = counts.get(origin, 0)
    mean = sum(counts.values()) / len(counts) if counts else 0.0
    if len(counts) < 2 or mine <= mean * (1 + SLACK) or mine - mean < LEAST:
        return 0
    return math.floor(mine - mean)
