"""Holt and Laury's (2002) list of ten lottery choices: a measure of risk attitude of its own.

Each row offers a safe lottery A ($2.00 or $1.60) and a risky one B ($3.85 or $0.10), the high
prize coming with probability 1/10 in row 1, 2/10 in row 2, ..., 10/10 in row 10. A student
with constant relative risk aversion ρ, utility u(x) = x^(1-ρ)/(1-ρ) (ln x at ρ = 1), prefers A
while ρ is above the row's indifference point, so he switches from A to B once, and the row of
his switch bounds his ρ: above the indifference point of the last row he chose A in, below that
of the row he switched at. The indifference points are found here by bisection on the
indifference condition (no table typed in; Holt and Laury's Table 3 gives them rounded). They
do not depend on the scale of the prizes (CRRA utility is homogeneous), so the classroom pays
Holt and Laury's dollars times `SCALE` points. A risk-neutral student (ρ = 0) chooses A in rows 1-4 and B from row 5 on.

>>> [round(r, 2) for r in indifference_points()]
[-1.71, -0.95, -0.49, -0.14, 0.15, 0.41, 0.68, 0.97, 1.37]
>>> read_choices("AAAABBBBBB")  # doctest: +ELLIPSIS
Reading(safe=4, switch=5, low=-0.1426..., high=0.1463..., consistent=True)
>>> read_choices("AABABBBBBB").consistent, read_choices("AAAAAAAAAA").why
(False, 'A in row 10, where B pays more for sure')
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..auctions.matching import Assignment
from ..auctions.settle import Entry, Outcome
from .base import Action, Chart, Kind, Setting

if TYPE_CHECKING:
    from ..auctions.laws import Law
    from .spec import RoundSpec

__all__ = [
    "LOTTERY",
    "ROWS",
    "SAFE",
    "RISKY",
    "HoltLaury",
    "Reading",
    "crra_utility",
    "indifference",
    "indifference_points",
    "read_choices",
    "risk_neutral_choices",
]

ROWS = 10  #: the rows of the list
SAFE = (2.00, 1.60)  #: lottery A: the high and the low prize, in Holt and Laury's dollars
RISKY = (3.85, 0.10)  #: lottery B
SCALE = 20.0  #: points per dollar by default: A pays 40 or 32 points, B 77 or 2 (the values' range is 0-100)
_LOW, _HIGH = -10.0, 10.0  # the bracket of the bisection: every indifference point of rows 1-9 lies inside


def crra_utility(x: float, rho: float) -> float:
    """Return x^(1-ρ)/(1-ρ), and ln x at ρ = 1 (constant relative risk aversion ρ; 0 is risk-neutral).

    Written (x^(1-ρ) - 1)/(1-ρ), the same preferences (an affine change) continuous in ρ at 1.

    >>> crra_utility(4.0, 0.0), crra_utility(4.0, 0.5), round(crra_utility(math.e, 1.0), 12)
    (3.0, 2.0, 1.0)
    """
    if abs(1 - rho) < 1e-9:
        return math.log(x)
    return float((x ** (1 - rho) - 1) / (1 - rho))


def _advantage(row: int, rho: float) -> float:
    """Return A's expected utility minus B's in `row` for CRRA ρ (above 0: A is preferred)."""
    p = row / ROWS
    a = p * crra_utility(SAFE[0], rho) + (1 - p) * crra_utility(SAFE[1], rho)
    b = p * crra_utility(RISKY[0], rho) + (1 - p) * crra_utility(RISKY[1], rho)
    return a - b


def indifference(row: int, tolerance: float = 1e-12) -> float:
    """Return the ρ at which a CRRA student is indifferent between A and B in `row` (1-9), by bisection.

    A's advantage grows with ρ (more risk aversion favours the safe lottery): negative at the
    bracket's bottom, positive at its top, one root between.

    Raises:
        ValueError: row 10 (B pays more for sure: no ρ makes A as good), or a row outside 1-10.
    """
    if row == ROWS:
        raise ValueError("in row 10 B pays more for sure: no risk attitude makes A as good")
    if not 1 <= row < ROWS:
        raise ValueError(f"a row is from 1 to {ROWS}, got {row}")
    low, high = _LOW, _HIGH
    if not _advantage(row, low) < 0 < _advantage(row, high):
        raise ValueError(f"row {row}'s indifference point is outside [{_LOW:g}, {_HIGH:g}]")
    while high - low > tolerance:
        mid = (low + high) / 2
        if _advantage(row, mid) < 0:
            low = mid
        else:
            high = mid
    return (low + high) / 2


@functools.lru_cache(maxsize=1)
def indifference_points() -> tuple[float, ...]:
    """Return the indifference ρ of rows 1-9, increasing."""
    return tuple(indifference(row) for row in range(1, ROWS))


def risk_neutral_choices() -> str:
    """Return a risk-neutral student's choices, row by row (A while A's expected money is higher).

    >>> risk_neutral_choices()
    'AAAABBBBBB'
    """
    return "".join("A" if _advantage(row, 0.0) > 0 else "B" for row in range(1, ROWS + 1))


def choices_for(rho: float) -> str:
    """Return the choices of a student with CRRA ρ: A in each row where A's expected utility is higher.

    >>> choices_for(0.5), choices_for(-3)
    ('AAAAAABBBB', 'BBBBBBBBBB')
    """
    return "".join("A" if _advantage(row, rho) > 0 else "B" for row in range(1, ROWS + 1))


@dataclasses.dataclass(frozen=True)
class Reading:
    """What a student's ten choices say of his risk attitude.

    Attributes:
        safe: how many times he chose A.
        switch: the row of his one switch to B (1: B throughout; 11: never, A in row 10 too);
            None when he switched more than once.
        low, high: his interval of CRRA ρ (-inf or inf where unbounded); None when inconsistent.
        consistent: one switch at most, and B in row 10.
        why: what makes the choices inconsistent (empty if they are not).
    """

    safe: int
    switch: int | None
    low: float | None
    high: float | None
    consistent: bool
    why: str = dataclasses.field(default="", repr=False)


def read_choices(choices: str) -> Reading:
    """Return what ten choices (``"A"`` or ``"B"``, row 1 first) say: his switch row and his interval of ρ.

    Consistent choices are A in rows 1..k and B in rows k+1..10 (k from 0 to 9): ρ lies between
    the indifference points of rows k and k + 1 (unbounded below for k = 0, above for k = 9).
    Choices that go back from B to A, or choose A in row 10 (the dominated option), are
    inconsistent: no ρ gives them, and they are reported as such.
    """
    if len(choices) != ROWS or set(choices) - {"A", "B"}:
        raise ValueError(f"the choices are {ROWS} letters A or B, got {choices!r:.40}")
    safe = choices.count("A")
    switches = sum(a != b for a, b in zip(choices, choices[1:], strict=False))
    if choices[-1] == "A":
        return Reading(safe, None, None, None, False, "A in row 10, where B pays more for sure")
    if switches > 1:
        return Reading(safe, None, None, None, False, f"{switches} switches between A and B, not one")
    points = indifference_points()
    low = points[safe - 1] if safe else -math.inf
    high = points[safe] if safe < ROWS - 1 else math.inf
    return Reading(safe, safe + 1, low, high, True)


def _finite(x: float | None) -> float | None:
    """Return `x` rounded for the export, None for an unbounded end (JSON has no infinity)."""
    return None if x is None or math.isinf(x) else round(x, 4)


class HoltLaury(Kind):
    """Holt and Laury's ten lottery choices; one row drawn and played for each student.

    Every student plays alone (a group of one): no one's choices touch another's earnings.
    """

    name = "lottery"
    title = "Holt–Laury lottery choices"
    sizes = (1, 1)
    default_size = 1
    size_word = "students per group: each answers alone"
    settings = (Setting("scale", SCALE, 0.01, 1000, about="points per Holt and Laury dollar"),)
    value_word = "lottery"
    simple = False
    export_columns = (
        "choices",
        "safe",
        "switch_row",
        "consistent",
        "rho_low",
        "rho_high",
        "drawn_row",
        "roll",
        "drawn",
    )

    def prizes(self, spec: RoundSpec) -> tuple[tuple[float, float], tuple[float, float]]:
        """Return A's and B's prizes (high, low) in points."""
        scale = float(spec.options["scale"])
        return (
            (round(SAFE[0] * scale, 2), round(SAFE[1] * scale, 2)),
            (round(RISKY[0] * scale, 2), round(RISKY[1] * scale, 2)),
        )

    def group(self, students: Sequence[int], size: int, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """Return one group per student: everyone plays, alone."""
        return [[s] for s in sorted(students)], []

    def least(self, spec: RoundSpec) -> int:
        """Return 1: one student can answer the list."""
        return 1

    def rules(self, spec: RoundSpec) -> str:
        """Return what students are told: the two lotteries, the ten rows, and the row that pays."""
        (a1, a2), (b1, b2) = self.prizes(spec)
        return (
            f"{self.title}. In each of ten rows, choose lottery A ({a1:g} or {a2:g} points) or lottery B"
            f" ({b1:g} or {b2:g} points). In row k the higher prize comes with chance k in 10. After the close"
            " one row is drawn at random for you and its lottery, the one you chose there, is played: you earn"
            " its prize. Every row may be the one that pays, so choose in each as if it were."
            f" (Holt and Laury's 2002 list: their dollars times {float(spec.options['scale']):g} points.)"
        )

    def max_bid(self, spec: RoundSpec) -> float:
        """Return the most safe choices: 10 (the number the results' ``bid`` column shows)."""
        return float(ROWS)

    def deal(
        self, groups: Sequence[Sequence[int]], spec: RoundSpec, rng: random.Random
    ) -> tuple[list[Assignment], dict[int, float]]:
        """Return each student's 'value': 0, there is none (the lotteries are the same for all)."""
        return [Assignment(s, g, 0.0) for g, members in enumerate(groups) for s in members], {}

    def page(self, spec: RoundSpec, value: float) -> dict[str, Any]:
        """Return the ten rows the student's page shows: each row's chance of the high prize and both lotteries."""
        (a1, a2), (b1, b2) = self.prizes(spec)
        rows = [{"row": k, "chance": k, "a": [a1, a2], "b": [b1, b2]} for k in range(1, ROWS + 1)]
        return {"form": "lottery", "label": "Your choices", "value_word": "lottery", "rows": rows}

    def act(self, spec: RoundSpec, message: Mapping[str, Any]) -> Action:
        """Read the student's ten choices (one message): ``{"choices": ["A", "B", ...]}`` or ``"AABB..."``."""
        data = message.get("data")
        found = data.get("choices") if message.get("t") == "act" and isinstance(data, dict) else None
        if isinstance(found, list) and all(isinstance(c, str) for c in found):
            found = "".join(found)
        if not isinstance(found, str) or len(found) != ROWS or set(found) - {"A", "B"}:
            raise ValueError(f"Choose A or B in each of the {ROWS} rows, then send your choices.")
        return Action(float(found.count("A")), {"choices": found})

    def settle(
        self,
        spec: RoundSpec,
        entries: Sequence[Entry],
        data: Mapping[int, dict[str, Any] | None],
        common_value: float | None,
        rng: random.Random,
    ) -> list[Outcome]:
        """Draw one row for each student and play the lottery he chose there (from the group's stream, recorded).

        ``won`` says the high prize came; a student who sent no choices earns nothing.
        """
        safe, risky = self.prizes(spec)
        out = []
        for e in entries:
            mine = data.get(e.student)
            if mine is None:
                out.append(Outcome(e.student, False, 0.0, 0.0, 0.0))
                continue
            row = 1 + int(rng.random() * ROWS)
            roll = rng.random()
            chose = mine["choices"][row - 1]
            high = roll < row / ROWS
            prizes = safe if chose == "A" else risky
            prize = prizes[0] if high else prizes[1]
            details = {"row": row, "roll": round(roll, 6), "chose": chose, "high": high, "prize": prize}
            out.append(Outcome(e.student, high, 0.0, 0.0, prize, details))
        return out

    def chart(self, spec: RoundSpec, rows: Sequence[Any], n: int) -> Chart | None:
        """Return the class's share choosing B in each row (percent), beside a risk-neutral student's choices."""
        choices = [json.loads(x.data)["choices"] for x in rows if x.data is not None]
        if not choices:
            return None
        shares = [[k, round(100 * sum(c[k - 1] == "B" for c in choices) / len(choices), 1)] for k in range(1, ROWS + 1)]
        neutral = [  # a step: each row's choice held from half a row before it to half a row after
            [min(ROWS, max(1, k + side)), 100.0 if c == "B" else 0.0]
            for k, c in enumerate(risk_neutral_choices(), start=1)
            for side in (-0.5, 0.5)
        ]
        return Chart(
            points=shares,
            line=neutral,
            label="a risk-neutral student",
            x="row: the high prize's chance in tenths",
            y="% choosing B",
            low=0,
            top=ROWS,
            ylow=0,
            ytop=100,
            point="the class's lists",
            count=len(choices),
        )

    def summary(self, spec: RoundSpec, rows: Sequence[Any], n: int) -> list[str]:
        """Return how many answered, how many switched once, and the median switch row beside the risk-neutral 5."""
        sent = [x for x in rows if x.amount is not None]
        said = [f"{len(sent)} of {len(rows)} chose."]
        if not sent:
            return said
        safe = sorted(int(x.amount) for x in sent)
        said.append(
            f"A (the safe lottery) was chosen {sum(safe) / len(safe):.1f} times in 10 on average; a risk-neutral"
            f" student chooses it {risk_neutral_choices().count('A')} times, a risk-averse one more."
        )
        return said

    def export(self, spec: RoundSpec, data: dict[str, Any] | None, outcome: dict[str, Any] | None) -> dict[str, Any]:
        """Return his choices, his switch row, his interval of ρ, the drawn row, its roll and what it paid."""
        if data is None:
            return dict.fromkeys(self.export_columns)
        reading = read_choices(data["choices"])
        return {
            "choices": data["choices"],
            "safe": reading.safe,
            "switch_row": reading.switch,
            "consistent": reading.consistent,
            "rho_low": _finite(reading.low),
            "rho_high": _finite(reading.high),
            "drawn_row": None if outcome is None else outcome["row"],
            "roll": None if outcome is None else outcome["roll"],
            "drawn": None
            if outcome is None
            else f"row {outcome['row']}: {outcome['chose']}, "
            + ("high" if outcome["high"] else "low")
            + f" prize {outcome['prize']:g}",
        }

    def predicted(self, value: float, n: int, law: Law, spec: Mapping[str, Any]) -> float | None:
        """Return a risk-neutral student's number of safe choices: 4."""
        return float(risk_neutral_choices().count("A"))

    def simulate(
        self, page: Mapping[str, Any], behaviour: Any, rng: random.Random, wobble: float, before: int
    ) -> float | dict[str, Any]:
        """Return the choices of a student with his own CRRA ρ (`Behaviour.lottery_rho`)."""
        return {"choices": choices_for(float(behaviour.lottery_rho))}


LOTTERY = HoltLaury()
