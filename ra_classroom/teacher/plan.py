"""The class session's plan: its rounds in order, defined once for the control room, notebook 14 and TEACHING.md.

A 50-minute session (week 9): a practice round (first price), eight paid private-value rounds in
a counterbalanced order, then three common-value rounds (first price), groups of 4, values
uniform on [0, 100], 90 seconds a round.

**Why this order.** Students bid differently in their eighth round than in their first (they
learn, they tire). Had all first-price rounds come first, a difference between formats could be
one of experience. In `PAID` each format's rounds sit on average at the same place, the 4.5th of
eight, so a trend that is *linear* in the round weighs alike on every format. That is all it
balances: learning that is fast at first and then flattens weighs on the format whose rounds come
first (`experience` computes it for any curve), the practice round is first price (one more round
of that format before the paid ones), and a format may change how the next one is played
(carry-over). The common-value rounds come last, so they are compared with each other, never with
the private-value rounds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from ..kinds.spec import RoundSpec

__all__ = [
    "CLOCKS",
    "CLOCK_SETTINGS",
    "COMMON_ROUNDS",
    "LOTTERY_MINUTES",
    "MINUTES",
    "PAID",
    "experience",
    "mean_place",
    "open_args",
    "session_plan",
]

PAID = ("first", "second", "allpay", "first", "first", "allpay", "second", "first")  #: the paid private-value rounds
COMMON_ROUNDS = 3  #: common-value rounds (first price, signals +/- 10), after the paid ones
GROUP_SIZE, SECONDS, NOISE = 4, 90.0, 10.0
CLOCKS = ("dutch", "english", "english", "dutch")  #: the clock rounds of a session with clocks (`session_plan`)
#: A clock's pace in class: from the values' end, one unit a second (a round lasts at most 100 s, values on [0, 100]).
CLOCK_SETTINGS: dict[str, Any] = {"step": 1.0, "tick": 1.0}

#: The session's parts and their minutes (they add to 50): what happens, and the control room's call.
MINUTES: tuple[tuple[int, str, str], ...] = (
    (5, "Students open the link or scan the QR code, type the room code and their name.",
     "`room.invitation()`, `room.monitor()`"),
    (5, "Read the rules on the page aloud; one **practice round** (first price), results shown.",
     '`open_round("first", practice=True)`'),
    (16, "Eight paid rounds of private values in the plan's order (the next cell prints it). Before the first "
     'second-price round, ask: "what should you bid?"', "`open_round(kind, seconds=90)`"),
    (6, "**Common value**, three rounds (first price). Do not mention the curse before.",
     '`open_round("common", noise=10)`'),
    (3, "Draw the round that pays and show each student's payment.", "`room.payments()`"),
    (15, "The results on the projector: the plots, then the questions.", "`room.results()`, notebook 14"),
)  # fmt: skip


#: The optional part: Holt and Laury's lotteries, after the auctions (4 of the 15 minutes of results).
LOTTERY_MINUTES = (
    4,
    "Optional: **Holt and Laury's ten lottery choices**, a measure of risk attitude apart from the bids.",
    '`open_round("lottery")`',
)


def session_plan(
    group_size: int = GROUP_SIZE, seconds: float | None = SECONDS, *, lottery: bool = False, clocks: Sequence[str] = ()
) -> list[RoundSpec]:
    """Return the session's rounds in order, as `ControlRoom.open_round` takes them (``**spec`` of each's fields).

    With `lottery`, Holt and Laury's list follows the auctions (`LOTTERY_MINUTES`): a risk attitude
    measured apart from the bids, which notebook 14 sets beside the one the first-price bids imply.
    It comes last, so it changes none of the auctions before it (their rounds, groups and values).

    `clocks`: clock rounds (``"english"``, ``"dutch"``) played after the paid sealed rounds and
    before the common-value ones, each with `CLOCK_SETTINGS` (a clock has no deadline: it ends
    when every group is settled). Notebook 18 sets them beside their sealed twins, so alternate
    them (``CLOCKS``, the order a session with clocks uses): a trend over the rounds then weighs
    alike on both.

    >>> [spec.kind for spec in session_plan(clocks=CLOCKS)][9:]
    ['dutch', 'english', 'english', 'dutch', 'common', 'common', 'common']
    >>> open_args(session_plan(clocks=["dutch"])[9])["settings"]
    {'start': -1.0, 'step': 1.0, 'tick': 1.0, 'grace': 1, 'away': 5}
    """
    return [
        RoundSpec("first", group_size=group_size, seconds=seconds, practice=True),
        *(RoundSpec(kind, group_size=group_size, seconds=seconds) for kind in PAID),
        *(RoundSpec(kind, group_size=group_size, options=CLOCK_SETTINGS) for kind in clocks),
        *(RoundSpec("common", group_size=group_size, seconds=seconds, noise=NOISE) for _ in range(COMMON_ROUNDS)),
        *([RoundSpec("lottery", seconds=seconds)] if lottery else []),
    ]


def open_args(spec: RoundSpec) -> dict[str, Any]:
    """Return the round's settings as `ControlRoom.open_round` takes them: ``room.open_round(**open_args(spec))``.

    The settings the round's kind adds (``spec.options``) go as ``settings``.
    """
    out = {field.name: getattr(spec, field.name) for field in dataclasses.fields(spec) if field.name != "options"}
    return {**out, "settings": dict(spec.options)}


def mean_place(order: Sequence[str] = PAID) -> dict[str, float]:
    """Return, for each kind in `order`, the mean place (1-based) of its rounds.

    >>> mean_place()
    {'first': 4.5, 'second': 4.5, 'allpay': 4.5}
    """
    places: dict[str, list[int]] = {}
    for place, kind in enumerate(order, start=1):
        places.setdefault(kind, []).append(place)
    return {kind: sum(p) / len(p) for kind, p in places.items()}


def experience(curve: Callable[[int], float], order: Sequence[str] = PAID) -> dict[str, float]:
    """Return, for each kind, the mean of ``curve(t)`` over its rounds, t the rounds played before (practice too).

    The paid round at place k comes after k rounds (the practice round and k - 1 paid ones).
    A linear curve gives every kind of `PAID` the same mean; one that flattens does not:

    >>> import math
    >>> {k: round(v, 3) for k, v in experience(lambda t: 1 - math.exp(-t / 2)).items()}
    {'first': 0.789, 'second': 0.801, 'allpay': 0.864}
    """
    seen: dict[str, list[float]] = {}
    for place, kind in enumerate(order, start=1):
        seen.setdefault(kind, []).append(curve(place))
    return {kind: sum(v) / len(v) for kind, v in seen.items()}
