"""Which round pays each student: one of his paid rounds, drawn at random, the way experimental economists pay.

Each student's round is drawn from a stream of his own (the draw's seed and his id), uniformly
among the paid rounds he played, so adding or removing a student changes nobody else's draw, and
drawing again gives the same rounds. The server draws at the end of a session and records it
(`ra_classroom.store.controls.end_session`); the control room's `payment.draw_payments` draws
the same way from a saved CSV.

>>> paid_round("RA1", 2, [3, 5, 9]) in (3, 5, 9)
True
>>> paid_round("RA1", 2, [9, 3, 5]) == paid_round("RA1", 2, [3, 5, 9])  # the order given does not matter
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

__all__ = ["paid_round"]


def paid_round(seed: str, student: object, rounds: Sequence[int]) -> int:
    """Return the round that pays `student`: one of `rounds` (his paid rounds), drawn from his own stream.

    Raises:
        ValueError: no round to draw from.
    """
    if not rounds:
        raise ValueError("a student with no paid round has no round to be paid for")
    return int(random.Random(f"ra-classroom-payment:{seed}:{student}").choice(sorted(rounds)))
