"""The clock kinds: the English (ascending) and the Dutch (descending) clock auction, with private values.

The rules are `ra_classroom.auctions.clock`'s; the store runs the clock (`ra_classroom.store.clocks`:
each tick stored before it is sent, each press judged against it). What the kind adds are the
teacher's settings and their checks, what students are told and see, and what theory predicts:

* ``start``: the price at tick 0; -1 (the default) means the bottom of the values for English,
  their top for Dutch. An English clock rises to the values' top, where it stops; a Dutch clock
  falls to 0 (or the values' bottom, if above 0), where it stops with no sale.
* ``step``: how much the price moves at each tick; ``tick``: the seconds between two ticks.
* ``grace``: how many ticks late a press may arrive and still count at the tick its page showed;
  ``away``: English, after how many ticks without a page a student is dropped out.

A press is stored as the student's bid: the price at which he pressed, with its tick in the
bid's data, so the results' ``bid`` column is the price at which he dropped out (English) or
stopped the clock (Dutch), and the kind's own columns add the ``tick``, whether the server dropped
him out for being ``away``, and the clock's ``step``.

>>> from .spec import RoundSpec
>>> spec = RoundSpec.from_dict({"kind": "english", "group_size": 3, "step": 2, "tick": 0.5})
>>> ENGLISH.clock(spec).last, ENGLISH.clock(spec).price(10)
(50, 20.0)
>>> RoundSpec.from_dict({"kind": "dutch", "start": 50, "law": {"law": "uniform", "low": 0, "high": 100}})
Traceback (most recent call last):
...
ValueError: a Dutch clock starts at or above the values' top (100), so that every value can buy: got a start of 50
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..auctions.clock import Clock, Press, rules_text, settle_clock
from ..auctions.laws import Law, law_from_dict
from ..auctions.settle import Entry, Outcome
from ..auctions.theory import equilibrium_bid, expected_revenue, shading
from .base import Action, Chart, Kind, Setting, against_theory

if TYPE_CHECKING:
    from .spec import RoundSpec

__all__ = ["DUTCH", "ENGLISH", "ClockKind"]


class ClockKind(Kind):
    """A clock auction with private values; its groups settle by the clock's rules as the clock runs.

    Attributes:
        direction: ``"english"`` (the price rises) or ``"dutch"`` (it falls): `auctions.clock.Clock`'s kind.
        button: the words on the student's one button.
    """

    direction: str = ""
    button: str = ""
    deadline = False  # the clock ends the round (or the teacher closes it)
    simple = True  # one number per student: the price at which he pressed
    export_columns = ("tick", "away", "step")
    settings = (
        Setting("start", -1.0, -1.0, 1e6, about="the price at tick 0 (-1: the values' bottom, English, or top, Dutch)"),
        Setting("step", 1.0, 0.01, 1e5, about="how much the price moves at each tick"),
        Setting("tick", 1.0, 0.2, 60.0, about="seconds between two ticks"),
        Setting("grace", 1, 0, 10, whole=True, about="ticks a press may be late and still count at its own tick"),
        Setting("away", 5, 1, 100, whole=True, about="English: ticks without a page before a student drops out"),
    )

    def clock(self, spec: RoundSpec) -> Clock:
        """Return the round's clock (its settings checked by `auctions.clock.Clock`)."""
        law, start = spec.law, float(spec.options["start"])
        if self.direction == "english":
            begin, end = (law.low if start < 0 else start), law.top
        else:
            begin, end = (law.top if start < 0 else start), max(0.0, law.low)
        return Clock(
            self.direction,
            start=begin,
            step=float(spec.options["step"]),
            end=end,
            grace=int(spec.options["grace"]),
            away=int(spec.options["away"]),
        )

    def check(self, spec: RoundSpec) -> None:
        """Raise ValueError for a clock that cannot run (see `clock`) or that some values could never reach."""
        super().check(spec)
        start, law = float(spec.options["start"]), spec.law
        if self.direction == "english" and start >= 0 and start > law.low:
            raise ValueError(
                f"an English clock starts at or below the values' bottom ({law.low:g}), so that every value is in"
                f" at the start: got a start of {start:g}"
            )
        if self.direction == "dutch" and start >= 0 and start < law.top:
            raise ValueError(
                f"a Dutch clock starts at or above the values' top ({law.top:g}), so that every value can buy:"
                f" got a start of {start:g}"
            )
        self.clock(spec)

    def rules(self, spec: RoundSpec) -> str:
        """Return what students are told: the values' law, then the clock's rules (`auctions.clock.rules_text`)."""
        text = rules_text(self.clock(spec), spec.group_size, float(spec.options["tick"]))
        head, _, rest = text.partition(" Each of you has a private value;")
        return f"{head} Each of you has a private value, drawn {spec.law.describe()};{rest}"

    def max_bid(self, spec: RoundSpec) -> float:
        """Return the highest price the clock shows."""
        clock = self.clock(spec)
        return max(clock.start, clock.end)

    def page(self, spec: RoundSpec, value: float) -> dict[str, Any]:
        """Return what a student's page adds: the button's words (the clock itself comes from the store)."""
        return {"label": "Your value", "value_word": "value", "button": self.button}

    def act(self, spec: RoundSpec, message: Mapping[str, Any]) -> Action:
        """Refuse a sealed bid: on a clock a student presses the button (the ``press`` message)."""
        raise ValueError(f"In a clock round you press {self.button}, at the price your screen shows; no bid is taken.")

    def settle(
        self,
        spec: RoundSpec,
        entries: Sequence[Entry],
        data: Mapping[int, dict[str, Any] | None],
        common_value: float | None,
        rng: random.Random,
    ) -> list[Outcome]:
        """Return every member's outcome by the clock's rules, from each press's tick (in `data`)."""
        presses = [Press(s, int(d["tick"])) for s, d in data.items() if d is not None and "tick" in d]
        result = settle_clock(self.clock(spec), [(e.student, float(e.value)) for e in entries], presses, rng)
        return list(result.outcomes)

    def export(self, spec: RoundSpec, data: dict[str, Any] | None, outcome: dict[str, Any] | None) -> dict[str, Any]:
        """Return his press's tick and whether the server dropped him out as away (None: no press), and the step."""
        pressed = data is not None and "tick" in data
        return {
            "tick": data.get("tick") if pressed and data is not None else None,
            "away": bool(data.get("away", False)) if pressed and data is not None else None,
            "step": float(spec.options["step"]),
        }

    def predicted(self, value: float, n: int, law: Law, spec: Mapping[str, Any]) -> float | None:
        """Return the press price theory predicts: the value (English), the first-price equilibrium bid (Dutch)."""
        return equilibrium_bid("second" if self.direction == "english" else "first", value, n, law)

    def chart(self, spec: RoundSpec, rows: Sequence[Any], n: int) -> Chart | None:
        """Return each press price against its value beside theory's line."""
        law = spec.law
        twin = "second" if self.direction == "english" else "first"
        label = "drop at your value" if twin == "second" else f"risk-neutral equilibrium, n = {n}"
        y = "price at which he dropped out" if twin == "second" else "price at which he stopped the clock"
        return against_theory(rows, law, lambda v: equilibrium_bid(twin, v, n, law), label, y, self.max_bid(spec))

    def summary(self, spec: RoundSpec, rows: Sequence[Any], n: int) -> list[str]:
        """Return how many groups sold, the revenue per group beside theory's, and how often the highest value won."""
        by_group: dict[int, list[Any]] = {}
        for x in rows:
            by_group.setdefault(int(x.group_no), []).append(x)
        sold = [g for g in by_group.values() if any(x.won for x in g)]
        said = [f"{len(sold)} of {len(by_group)} group{'s' if len(by_group) != 1 else ''} sold."]
        if not sold:
            return said
        revenue = sum(sum(float(x.paid or 0) for x in g) for g in by_group.values()) / len(by_group)
        said.append(f"Revenue per group: {revenue:.2f} on average; theory: {expected_revenue(n, spec.law):.2f}.")
        top_won = sum(any(x.won and x.value == max(y.value for y in g) for x in g) for g in by_group.values())
        said.append(f"The highest value won in {top_won} of {len(by_group)}.")
        return said

    def simulate(
        self, page: Mapping[str, Any], behaviour: Any, rng: random.Random, wobble: float, before: int
    ) -> float | dict[str, Any]:
        """Return the price at which a simulated student means to press (``{"press_at": price}``).

        English: his value (the dominant strategy: he drops at the first tick at or above it).
        Dutch: the first-price equilibrium bid of a CRRA bidder with his own rho, times his error
        (he presses at the first tick at or below it).
        """
        value = float(page["value"])
        if self.direction == "english":
            return {"press_at": value}
        law, n = law_from_dict(page["law"]), int(page["group_size"])
        return {"press_at": (law.low + shading(n, law, behaviour.rho) * (value - law.low)) * wobble}


class English(ClockKind):
    """The English clock ("Japanese button"): the price rises; a press drops out; the last one in wins."""

    name = "english"
    title = "English clock auction"
    direction = "english"
    button = "Drop out"


class Dutch(ClockKind):
    """The Dutch clock: the price falls; the first press stops it and buys at its price."""

    name = "dutch"
    title = "Dutch clock auction"
    direction = "dutch"
    button = "Buy now"


ENGLISH, DUTCH = English(), Dutch()
