"""What a round kind is: the one interface every kind of round fills in.

A kind is an object (`Kind`); the server, the store, the control room, the projector, the
export and the analysis ask it, through the registry, what they need to know about a round of
that kind. A kind plays one of two ways (`Kind.play`): ``"groups"`` (each student present is put
in a group and dealt a value; each sends messages the kind reads, and the kind settles each
group at the close) or ``"tables"`` (Ra tables, played move by move; see `ra_classroom.game`).

A kind adds settings of its own (`Setting`), read and checked by `RoundSpec`; it reads what a
student sends (`Kind.act`: a bid, or any other action, checked, turned into what is stored) and
settles a group from what was stored (`Kind.settle`).

>>> Setting("step", 1.0, 0.01, 100).read({"step": 2})
2.0
>>> Setting("step", 1.0, 0.01, 100).read({"step": 0})
Traceback (most recent call last):
...
ValueError: step must be between 0.01 and 100, got 0
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..auctions.laws import Law, law_from_dict
from ..auctions.matching import Assignment, form_groups, private_values
from ..auctions.settle import Entry, Outcome

if TYPE_CHECKING:
    from .spec import RoundSpec

__all__ = ["Action", "Chart", "Kind", "Setting", "against_theory"]


@dataclasses.dataclass(frozen=True)
class Setting:
    """A setting a kind adds to a round's settings: its name, default and bounds.

    Attributes:
        name: its key in the settings (and in `RoundSpec.options`).
        default: its value when the teacher gives none.
        low, high: the bounds, both allowed.
        whole: a whole number (else any finite number).
        about: what it is, in a few words (the control room's form shows it).
    """

    name: str
    default: float
    low: float
    high: float
    whole: bool = False
    about: str = ""

    def read(self, data: Mapping[str, Any]) -> float:
        """Return the setting in `data` (its default if absent); raise ValueError naming it if it is wrong."""
        value = data.get(self.name, self.default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise ValueError(f"{self.name} must be a number, got {value!r:.40}")
        if self.whole and value != int(value):
            raise ValueError(f"{self.name} must be a whole number, got {value:g}")
        if not self.low <= value <= self.high:
            raise ValueError(f"{self.name} must be between {self.low:g} and {self.high:g}, got {value:g}")
        return int(value) if self.whole else float(value)


@dataclasses.dataclass(frozen=True)
class Action:
    """What a student's message stores: a number (his bid, or the kind's one figure of it) and any details.

    Attributes:
        amount: the number the results' ``bid`` column shows.
        data: the details of a message that is more than one number (JSON-ready), or None.
    """

    amount: float
    data: dict[str, Any] | None = None


@dataclasses.dataclass(frozen=True)
class Chart:
    """What the projector draws after the close: points, a theory's line, and their words.

    Attributes:
        points: ``[x, y]`` pairs, one per student who acted.
        line: ``[x, y]`` pairs of the theory's line.
        label: the line's name.
        x, y: the axes' names.
        low, top: the axes' range (both axes, unless `ylow` and `ytop` are given).
        ylow, ytop: the vertical axis's range, if not the horizontal one's.
        point: what a point is, in the legend.
        count: the number the legend gives beside `point` (None: the points'; a lottery's chart
            has a point per row, and counts the lists).
    """

    points: list[list[float]]
    line: list[list[float]]
    label: str
    x: str
    y: str
    low: float
    top: float
    ylow: float | None = None
    ytop: float | None = None
    point: str = "a bid"
    count: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the chart as the projector page reads it."""
        return dataclasses.asdict(self)


STEPS = 40  #: points on a theory's line


def against_theory(
    rows: Sequence[Any], law: Law, theory: Callable[[float], float], label: str, y: str, top: float, x: str = "value"
) -> Chart:
    """Return each row's amount against its value (or signal) beside `theory`'s line over the law's range."""
    points = [[r.value, r.amount] for r in rows if r.amount is not None]
    grid = [law.low + (law.top - law.low) * i / STEPS for i in range(STEPS + 1)]
    return Chart(points, [[v, theory(v)] for v in grid], label, x, y, law.low, top)


class Kind:
    """A kind of round. Subclasses set the attributes and fill in the methods their play needs.

    Attributes:
        name: the kind's key (at most 10 characters: the rounds table's ``kind`` column).
        title: its name in words.
        play: ``"groups"`` or ``"tables"`` (see the module's docstring).
        sizes: the least and the most students per group (or players per table).
        default_size: the group size when the teacher gives none.
        size_word: what `sizes` counts, for errors.
        deadline: whether the round may have a deadline (``seconds``).
        settings: the settings the kind adds, beyond those every round has.
        value_word: what a student's dealt number is called (``"value"``, ``"signal"``).
        simple: a group settles from one number per student, as a sealed bid (the results
            show each bid against its value).
        export_columns: the columns the kind adds to the results' rows (see `export`).
        noisy: the round's ``noise`` setting is the kind's (signals around a common worth).
    """

    name: str = ""
    title: str = ""
    play: str = "groups"
    sizes: tuple[int, int] = (2, 12)
    default_size: int = 4
    size_word: str = "bidders per group"
    deadline: bool = True
    settings: tuple[Setting, ...] = ()
    value_word: str = "value"
    simple: bool = True
    export_columns: tuple[str, ...] = ()
    noisy: bool = False

    def check(self, spec: RoundSpec) -> None:
        """Raise ValueError if `spec` is no round of this kind (beyond its size and its own settings)."""
        if spec.noise and not self.noisy:
            raise ValueError("noise is for common-value rounds only")

    def group(self, students: Sequence[int], size: int, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """Return the round's groups of the students present, and who sits out (see `matching.form_groups`)."""
        return form_groups(students, size, rng)

    def least(self, spec: RoundSpec) -> int:
        """Return the fewest students present with whom a round can open."""
        return 2 if self.play == "groups" else 1

    def rules(self, spec: RoundSpec) -> str:
        """Return what students are told about a round of this kind."""
        raise NotImplementedError

    def max_bid(self, spec: RoundSpec) -> float:
        """Return the highest number a student may send: the top of the values."""
        return round(spec.law.top + spec.noise, 2)

    def deal(
        self, groups: Sequence[Sequence[int]], spec: RoundSpec, rng: random.Random
    ) -> tuple[list[Assignment], dict[int, float]]:
        """Return each student's value, and each group's common value (empty unless the kind has one)."""
        return private_values(groups, spec.law, rng), {}

    def page(self, spec: RoundSpec, value: float) -> dict[str, Any]:
        """Return what the kind adds to a student's page while the round is open (beyond his value and bid)."""
        return {"label": f"Your {self.value_word}", "value_word": self.value_word}

    def act(self, spec: RoundSpec, message: Mapping[str, Any]) -> Action:
        """Return what a student's message stores; raise ValueError saying, in one sentence, what is wrong.

        `message` is the page's message: ``{"t": "bid", "amount": ...}`` for a bid, or
        ``{"t": "act", "data": {...}}`` for an action of the kind's own.
        """
        top = self.max_bid(spec)
        if message.get("t") != "bid":
            raise ValueError(f"In this round you send a bid, a number from 0 to {top:g}.")
        amount = message.get("amount")
        if isinstance(amount, bool) or not isinstance(amount, int | float) or not math.isfinite(amount):
            raise ValueError(f"A bid is a number from 0 to {top:g}.")
        if not 0 <= amount <= top:
            raise ValueError(f"A bid is a number from 0 to {top:g}; {amount:g} is not.")
        if abs(amount * 100 - round(amount * 100)) > 1e-6:
            raise ValueError("Bids are in cents: at most two decimals, like 12.34.")
        return Action(round(float(amount), 2))

    def settle(
        self,
        spec: RoundSpec,
        entries: Sequence[Entry],
        data: Mapping[int, dict[str, Any] | None],
        common_value: float | None,
        rng: random.Random,
    ) -> list[Outcome]:
        """Return every member's outcome, in the order of `entries` (`data`: each student's stored details)."""
        raise NotImplementedError

    def chart(self, spec: RoundSpec, rows: Sequence[Any], n: int) -> Chart | None:
        """Return the projector's chart of a closed round (None: no chart).

        `rows`: one per student dealt a value, as for `summary`, with ``data`` too (his action's
        details as stored, JSON text or None).
        """
        return None

    def summary(self, spec: RoundSpec, rows: Sequence[Any], n: int) -> list[str]:
        """Return a few sentences on a closed round for the projector.

        `rows`: one per student dealt a value, with ``group_no``, ``value``, ``amount``, ``won``,
        ``paid``, ``earnings``.
        """
        return []

    def export(self, spec: RoundSpec, data: dict[str, Any] | None, outcome: dict[str, Any] | None) -> dict[str, Any]:
        """Return the kind's columns (`export_columns`) of one student's row of the results."""
        return {}

    def predicted(self, value: float, n: int, law: Law, spec: Mapping[str, Any]) -> float | None:
        """Return what theory predicts a risk-neutral student with `value` in a group of `n` sends, or None."""
        return None

    def analyse(self, rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """Return the analysis's rows of the kind: its results' rows (one kind's), each with what theory predicted.

        Each row of the results gets ``predicted`` (what theory says a risk-neutral student sends,
        or None) and ``gap`` (his bid minus it).
        """
        out = []
        for row in rows:
            law = _law(row)
            guess = None if law is None else self.predicted(float(row["value"]), int(row["n"]), law, row)
            bid = row.get("bid")
            gap = None if guess is None or bid is None or bid != bid else round(float(bid) - guess, 2)
            out.append({**row, "predicted": None if guess is None else round(guess, 2), "gap": gap})
        return out

    def simulate(
        self, page: Mapping[str, Any], behaviour: Any, rng: random.Random, wobble: float, before: int
    ) -> float | dict[str, Any]:
        """Return what a simulated student sends on his page of an open round: a bid, or an action's data.

        `behaviour` is the class's (`ra_classroom.teacher.simulate.Behaviour`), `wobble` his
        error factor this round, `before` the rounds of this kind he played before.
        """
        return float(page["value"]) * wobble


def _law(row: Mapping[str, Any]) -> Law | None:
    """Return the law of a results' row (its ``law_json``), or None without one."""
    text = row.get("law_json")
    return law_from_dict(json.loads(text)) if isinstance(text, str) and text else None
