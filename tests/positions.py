"""Positions shared by the tests.

S4 is the common 4-player start of docs/rules.md §3: face-up suns P0 13-6-2, P1 12-7-3, P2 11-8-4,
P3 10-9-5, center sun 1.
"""

from __future__ import annotations

from ra_core.positions import STARTS

#: The face-up suns of P0..P3 in S4.
S4_SUNS_UP = tuple(list(suns) for suns in STARTS[4])
#: S4 as the ``players`` of `State.from_dict`.
S4 = [{"suns_up": list(suns)} for suns in S4_SUNS_UP]
