"""Positions shared by the tests, and checked reads of the records a position may hold.

S4 is the common 4-player start of docs/rules.md §3: face-up suns P0 13-6-2, P1 12-7-3, P2 11-8-4,
P3 10-9-5, center sun 1.
"""

from __future__ import annotations

from ra_core import State
from ra_core.engine.positions import STARTS
from ra_core.engine.records import Auction, PendingDiscard

#: The face-up suns of P0..P3 in S4.
S4_SUNS_UP = tuple(list(suns) for suns in STARTS[4])
#: S4 as the ``players`` of `State.from_dict`.
S4 = [{"suns_up": list(suns)} for suns in S4_SUNS_UP]


def running(s: State) -> Auction:
    """Return the auction running in `s` (the test fails if there is none)."""
    assert s.auction is not None, f"no auction is running in {s!r}"
    return s.auction


def owing(s: State) -> PendingDiscard:
    """Return the discard pending in `s` (the test fails if there is none)."""
    assert s.discard is not None, f"no discard is pending in {s!r}"
    return s.discard
