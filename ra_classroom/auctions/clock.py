"""Clock auctions without a server: the English (ascending) and the Dutch (descending) clock.

**The clock.** The price moves by one step at each tick: ``start + step * tick`` in an English
round, up to the top of the value range, where the clock stops; ``start - step * tick`` in a
Dutch round, down to a floor (0), where the clock stops. Tick 0 shows the start.

**English ("Japanese button").** Every member is in at the start; pressing drops him out, once
and for good. As soon as one member is left, he wins at the price at which the last other member
dropped. If every member still in drops at the same tick, one of them, drawn at random, wins at
that price, and the group is told it was a draw. If two or more are still in when the clock
reaches the top, one of them, drawn at random, wins at the top price.

**Dutch.** The first member to press stops the clock and buys at its price; two or more presses
at the same tick are resolved by a draw, and told. If nobody presses before the clock reaches
the floor (its last tick included), there is no sale.

**Which tick a press counts at.** A press counts at the tick the student's page showed when he
pressed, never at a tick the server has not sent yet (the server knows the last tick it sent,
`sent`, and refuses any later one). A press that arrives after later ticks were sent (a slow
network, a phone asleep for a moment) is still judged by its own tick, even if the server has
already recorded presses at later ticks: a student is not punished for the network between his
phone and the server. Otherwise a student on a slow connection would lose a Dutch item he stopped
first, or be counted as still in at prices he had already refused. The fairness has a bound: a
press more than `Clock.grace` ticks older than the last tick sent is refused with a sentence,
and a group's result is final once no accepted press could change it, that is once the tick
`grace` ticks after its deciding tick has been sent. So the outcome of a group is a function of
the set of presses accepted, never of the order in which they arrived.

**A student who is away** (his page disconnected) in an English round: if none of his pages has
been connected for `Clock.away` ticks in a row, he is dropped out at the tick then sent, as if he
had pressed (`away_press`); a page back before that keeps him in. Why this rule: the server cannot
know what he would have done, and the other choices are worse for a student who did nothing
wrong. Keeping him in for good could make him win, with nobody able to stop him, at a price far
above his value, a loss; dropping him out can only cost him a gain he might have had, and the
few ticks of patience cover a reload or a moment without Wi-Fi. Students are told the rule
beforehand (`rules_text`). A Dutch round needs no rule: a student away simply does not stop the
clock.

>>> clock = Clock("english", start=0, step=5, end=100)
>>> [clock.price(t) for t in (0, 1, 19, 20)], clock.last
([0.0, 5.0, 95.0, 100.0], 20)
>>> presses = [Press(3, 4), Press(2, 9)]
>>> deciding_tick(clock, [1, 2, 3], presses)
9
>>> s = settle_clock(clock, [(1, 80.0), (2, 50.0), (3, 20.0)], presses, random.Random(1))
>>> s.winner, s.price, [o.earnings for o in s.outcomes]
(1, 45.0, [35.0, 0.0, 0.0])
>>> dutch = Clock("dutch", start=100, step=2, end=0)
>>> s = settle_clock(dutch, [(1, 80.0), (2, 50.0)], [Press(2, 30), Press(1, 30)], random.Random(1))
>>> s.tick, s.price, s.tied, s.winner in (1, 2)
(30, 40.0, (1, 2), True)
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Collection, Iterable, Sequence

from .settle import Outcome

__all__ = [
    "CLOCKS",
    "Clock",
    "Press",
    "Refused",
    "Settlement",
    "away_press",
    "deciding_tick",
    "is_final",
    "judge",
    "rules_text",
    "settle_clock",
    "still_in",
]

#: The two clock formats and their names.
CLOCKS: dict[str, str] = {"english": "English clock auction", "dutch": "Dutch clock auction"}
MAX_TICKS = 10_000  # a clock longer than this is a typo (a step of 0.001 on a range of 100)


class Refused(ValueError):
    """A press that does not count; its message is the sentence the student is told."""


@dataclasses.dataclass(frozen=True)
class Press:
    """A student's press: the tick his page showed when he pressed; `away` when the server dropped him."""

    student: int
    tick: int
    away: bool = False


def _number(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{name} must be a number, got {value!r:.40}")
    return float(value)


@dataclasses.dataclass(frozen=True)
class Clock:
    """A clock's settings.

    Attributes:
        kind: ``english`` (the price rises) or ``dutch`` (it falls).
        start: the price at tick 0.
        step: how much the price moves at each tick (more than 0).
        end: where the clock stops: the top price (English, above `start`) or the floor (Dutch,
            below `start`, usually 0).
        grace: how many ticks late a press may arrive and still count at its own tick (0-10).
        away: English: after how many ticks with none of his pages connected a student is dropped
            out (1-100).
    """

    kind: str
    start: float
    step: float
    end: float
    grace: int = 1
    away: int = 5

    def __post_init__(self) -> None:
        if self.kind not in CLOCKS:
            raise ValueError(f"a clock is english or dutch, got {self.kind!r:.40}")
        start, step, end = _number("start", self.start), _number("step", self.step), _number("end", self.end)
        if step <= 0:
            raise ValueError(f"the step must be more than 0, got {step:g}")
        if self.kind == "english" and end <= start:
            raise ValueError(f"an English clock rises: its top ({end:g}) must be above its start ({start:g})")
        if self.kind == "dutch" and end >= start:
            raise ValueError(f"a Dutch clock falls: its floor ({end:g}) must be below its start ({start:g})")
        if math.ceil(abs(end - start) / step - 1e-9) > MAX_TICKS:
            raise ValueError(f"a step of {step:g} makes more than {MAX_TICKS:,} ticks from {start:g} to {end:g}")
        for name, value, low, high in (("grace", self.grace, 0, 10), ("away", self.away, 1, 100)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"{name} must be a whole number of ticks from {low} to {high}, got {value!r:.40}")
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "step", step)
        object.__setattr__(self, "end", end)

    @property
    def last(self) -> int:
        """The tick at which the clock reaches its top or its floor and stops."""
        return math.ceil(abs(self.end - self.start) / self.step - 1e-9)

    def price(self, tick: int) -> float:
        """Return the price the clock shows at `tick` (in cents), held at the end past the last tick."""
        if tick < 0:
            raise ValueError(f"a tick is 0 or more, got {tick}")
        if tick >= self.last:
            return round(self.end, 2)
        sign = 1 if self.kind == "english" else -1
        return round(self.start + sign * self.step * tick, 2)


@dataclasses.dataclass(frozen=True)
class Settlement:
    """A group's result.

    Attributes:
        tick: the deciding tick (None: a Dutch clock that reached its floor unsold).
        price: the price the winner pays (0 with no sale).
        winner: who won (None: no sale).
        tied: the members among whom the winner was drawn (empty: no draw was needed).
        outcomes: each member's outcome, in the order the members were given.
        sentence: what the group is told.
    """

    tick: int | None
    price: float
    winner: int | None
    tied: tuple[int, ...]
    outcomes: tuple[Outcome, ...]
    sentence: str


def _first_presses(presses: Iterable[Press]) -> dict[int, int]:
    """Return each student's earliest press tick (a student presses once; a second press changes nothing)."""
    ticks: dict[int, int] = {}
    for p in presses:
        ticks[p.student] = min(p.tick, ticks.get(p.student, p.tick))
    return ticks


def deciding_tick(clock: Clock, members: Collection[int], presses: Iterable[Press]) -> int | None:
    """Return the tick that decides the group by the presses so far, None if none does yet.

    English: the first tick after whose drops at most one member is still in. Dutch: the first
    tick anyone pressed. More presses can only move it earlier (or make it exist), never later.
    """
    ticks = {s: t for s, t in _first_presses(presses).items() if s in members}
    if clock.kind == "dutch":
        return min(ticks.values(), default=None)
    dropped = 0
    for tick in sorted(set(ticks.values())):
        dropped += sum(1 for t in ticks.values() if t == tick)
        if len(members) - dropped <= 1:
            return tick
    return None


def still_in(clock: Clock, members: Collection[int], presses: Iterable[Press], tick: int) -> int:
    """Return how many members are still in after the drops at ticks up to `tick` (what an English page shows)."""
    ticks = _first_presses(presses)
    return sum(1 for s in members if ticks.get(s, tick + 1) > tick)


def is_final(clock: Clock, members: Collection[int], presses: Iterable[Press], sent: int) -> bool:
    """Return whether no press still acceptable could change the group's result, the last tick sent being `sent`.

    A press at tick t is accepted while ``sent - grace <= t``; so the result decided at tick d is
    final once ``sent > d + grace``, and a clock that ran to its end once ``sent > last + grace``
    (the server goes on counting ticks past the last, showing the end price, until then).
    """
    decided = deciding_tick(clock, members, presses)
    return sent > min(clock.last if decided is None else decided, clock.last) + clock.grace


def judge(clock: Clock, members: Collection[int], presses: Sequence[Press], press: Press, sent: int) -> None:
    """Raise `Refused`, with the sentence for the student, if `press` may not count; return None if it counts.

    Args:
        clock: the round's clock.
        members: the group's students.
        presses: the presses of the group accepted so far.
        press: the new press.
        sent: the last tick the server has sent to the round's pages.
    """
    if press.student not in members:
        raise Refused("you are not in this group's auction")
    if isinstance(press.tick, bool) or not isinstance(press.tick, int) or press.tick < 0:
        raise Refused(f"a press names the tick its page showed, a whole number from 0, not {press.tick!r:.20}")
    if press.tick > clock.last:
        raise Refused(f"the clock stops at tick {clock.last}: it never shows tick {press.tick}")
    if press.tick > sent:
        raise Refused(f"the clock has not shown tick {press.tick} yet: a press counts only at a price you saw")
    if is_final(clock, members, presses, sent):
        raise Refused("your group's auction is over")
    if any(p.student == press.student for p in presses):
        done = "dropped out" if clock.kind == "english" else "stopped the clock"
        raise Refused(f"you have already {done}")
    if sent - press.tick > clock.grace:
        raise Refused(
            f"your press reached the server {sent - press.tick} ticks after its price was shown, more than the"
            f" {clock.grace} allowed: the clock had moved on"
        )
    decided = deciding_tick(clock, members, presses)
    if decided is not None and press.tick > decided:
        raise Refused(f"your group's auction was decided at {clock.price(decided):g}, before your press")


def away_press(student: int, sent: int) -> Press:
    """Return the press the server makes for a student whose pages have been gone for `Clock.away` ticks."""
    return Press(student, sent, away=True)


def settle_clock(
    clock: Clock,
    entries: Sequence[tuple[int, float]],
    presses: Iterable[Press],
    rng: random.Random,
    stopped: int | None = None,
) -> Settlement:
    """Return the group's result from its accepted presses (call it once `is_final`, or when the round is closed).

    Args:
        clock: the round's clock.
        entries: each member and his value, at least two members.
        presses: the accepted presses (their order does not matter).
        rng: the group's random stream, drawn from only when a draw is needed.
        stopped: the tick at which the teacher closed the round before the group was decided
            (None: the clock ran to its end). English: those still in then are in a draw at its
            price, as at the top; Dutch: no sale.
    """
    members = [s for s, _ in entries]
    if len(members) < 2 or len(set(members)) != len(members):
        raise ValueError("a clock auction needs two or more different members")
    end = clock.last if stopped is None else max(0, min(stopped, clock.last))
    ticks = {s: t for s, t in _first_presses(presses).items() if s in members and t <= end}
    decided = deciding_tick(clock, members, [Press(s, t) for s, t in ticks.items()])
    if clock.kind == "dutch":
        if decided is None:
            where = "reached its floor" if stopped is None else "was stopped by the teacher"
            return _settlement(clock, entries, None, None, (), f"The clock {where}: no sale.")
        tied = tuple(s for s in members if ticks.get(s) == decided)
        what = "stopped the clock"
    else:
        if decided is None:  # two or more still in at the top (or when the teacher stopped the clock)
            decided = end
            tied = tuple(s for s in members if s not in ticks)
            what = "were still in at the top" if end == clock.last else "were still in when the clock was stopped"
        else:
            left = [s for s in members if ticks.get(s, decided + 1) > decided]
            tied = tuple(left) if left else tuple(s for s in members if ticks[s] == decided)
            what = "dropped out last, at the same price"
    winner = tied[int(rng.random() * len(tied))] if len(tied) > 1 else tied[0]
    price = clock.price(decided)
    if len(tied) > 1:
        sentence = f"{len(tied)} bidders {what}; a draw gave the item to one of them, at {price:g}."
    else:
        verb = "stopped the clock and buys" if clock.kind == "dutch" else "is the last one in and wins"
        sentence = f"One bidder {verb} at {price:g}."
    return _settlement(clock, entries, decided, winner, tied if len(tied) > 1 else (), sentence)


def _settlement(
    clock: Clock,
    entries: Sequence[tuple[int, float]],
    tick: int | None,
    winner: int | None,
    tied: tuple[int, ...],
    sentence: str,
) -> Settlement:
    price = clock.price(tick) if tick is not None and winner is not None else 0.0
    outcomes = tuple(
        Outcome(s, s == winner, price, price if s == winner else 0.0, round(v - price, 2) if s == winner else 0.0)
        for s, v in entries
    )
    return Settlement(tick, price, winner, tied, outcomes, sentence)


def rules_text(clock: Clock, group_size: int, seconds_per_tick: float) -> str:
    """Return what students are told about a clock round before it starts."""
    every = f"every {seconds_per_tick:g} s"
    late = (
        f" A press counts at the price your screen showed, if it reaches the server within {clock.grace} tick"
        f"{'s' if clock.grace != 1 else ''}."
    )
    if clock.kind == "english":
        return (
            f"English clock auction, in a group of {group_size}. Each of you has a private value; you see only your"
            f" own. The price starts at {clock.start:g} and rises by {clock.step:g} {every}, up to {clock.end:g}."
            " Everyone is in at the start; press Drop out to leave, once and for good. When one bidder is left, he"
            " wins and pays the price at which the last other bidder dropped out: you earn your value minus that"
            " price if you win, 0 if not. If the last ones drop out at the same price, or several are still in at"
            f" {clock.end:g}, a draw picks the winner among them, at that price, and you are told."
            + late
            + f" If your phone is disconnected for {clock.away} ticks in a row, you are dropped out at the price"
            " then shown; come back sooner and you are still in."
        )
    return (
        f"Dutch clock auction, in a group of {group_size}. Each of you has a private value; you see only your own."
        f" The price starts at {clock.start:g} and falls by {clock.step:g} {every}, down to {clock.end:g}. The"
        " first to press Buy now stops the clock and buys at its price: you earn your value minus that price if"
        " you buy, 0 if not. Presses at the same price are resolved by a draw, and you are told. If nobody"
        f" presses before {clock.end:g}, there is no sale." + late
    )
