"""A round's settings, as the teacher chooses them and as students are told them.

A round is one of five kinds: three sealed-bid formats with private values (``first``,
``second``, ``allpay``), a first-price round with a common value and private signals
(``common``), or Ra tables (``ra``). `RoundSpec.from_dict` reads the settings sent to the
server and names the field that is wrong.

>>> spec = RoundSpec.from_dict({"kind": "first", "group_size": 3, "seconds": 60})
>>> import textwrap
>>> print(textwrap.fill(spec.rules_text(), 100))
First-price sealed bid, in a group of 3. Each of you has a private value, drawn uniform on [0, 100];
you see only your own. The highest bid wins and pays its bid: you earn your value minus your bid if
you win, 0 if not. Ties are broken by a coin flip. Bids from 0 to 100.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from .laws import Law, Uniform, law_from_dict

__all__ = ["KINDS", "SEALED", "RoundSpec"]

#: Each kind of round and its name.
KINDS: dict[str, str] = {
    "first": "First-price sealed bid",
    "second": "Second-price sealed bid",
    "allpay": "All-pay sealed bid",
    "common": "Common value, first-price sealed bid",
    "ra": "Ra tables",
}
SEALED = ("first", "second", "allpay", "common")  # the kinds in which students submit one bid
_PAYS = {
    "first": "The highest bid wins and pays its bid: you earn your value minus your bid if you win, 0 if not.",
    "second": (
        "The highest bid wins and pays the second-highest bid: you earn your value minus that price if you"
        " win, 0 if not."
    ),
    "allpay": "The highest bid wins your value, and everyone pays his own bid, win or lose.",
    "common": "The highest bid wins the item and pays its bid: the winner earns the item's worth minus his bid.",
}
_FIELDS = {"kind", "group_size", "law", "noise", "seconds", "practice", "absent_after"}


def _field(data: dict[str, Any], key: str, default: float | None, low: float, high: float) -> float | None:
    """Return ``data[key]`` as a number in [low, high] (or None where `default` is None and it is absent)."""
    value = data.get(key, default)
    if value is None and default is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{key} must be a number, got {value!r:.40}")
    if not low <= value <= high:
        raise ValueError(f"{key} must be between {low:g} and {high:g}, got {value:g}")
    return float(value)


@dataclasses.dataclass(frozen=True)
class RoundSpec:
    """The settings of one round.

    Attributes:
        kind: ``first``, ``second``, ``allpay``, ``common`` or ``ra`` (see `KINDS`).
        group_size: bidders per group (2-12), or players per Ra table (3-5); groups are
            formed afresh, at random, every round.
        law: the law of the private values, or of the common value.
        noise: common value only: each signal is the value plus a uniform error in [-noise, noise].
        seconds: the time to bid, after which the round closes itself; None: until the teacher
            closes it (always so for Ra tables).
        practice: a practice round: played and shown, but its earnings do not count.
        absent_after: Ra tables: the seconds a disconnected student's turn waits before a bot
            plays his seat (until he is back).
    """

    kind: str
    group_size: int = 4
    law: Law = Uniform(0, 100)
    noise: float = 0.0
    seconds: float | None = None
    practice: bool = False
    absent_after: float = 60.0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {self.kind!r:.40}")
        low, high = (3, 5) if self.kind == "ra" else (2, 12)
        if isinstance(self.group_size, bool) or not isinstance(self.group_size, int):
            raise ValueError(f"group_size must be a whole number, got {self.group_size!r:.40}")
        if not low <= self.group_size <= high:
            what = "players per Ra table" if self.kind == "ra" else "bidders per group"
            raise ValueError(f"group_size ({what}) must be between {low} and {high}, got {self.group_size}")
        if self.kind == "common":
            if not 0 < self.noise <= (self.law.top - self.law.low) / 2:
                raise ValueError(f"noise must be above 0 and at most half the value range, got {self.noise:g}")
        elif self.noise:
            raise ValueError("noise is for common-value rounds only")
        if self.kind == "ra" and self.seconds is not None:
            raise ValueError("Ra tables have no deadline: the teacher closes the round")

    @property
    def title(self) -> str:
        """Return the round's kind in words."""
        return KINDS[self.kind]

    @property
    def sealed(self) -> bool:
        """Return whether students submit one sealed bid (not a Ra table)."""
        return self.kind in SEALED

    @property
    def max_bid(self) -> float:
        """Return the highest bid accepted: the top of the values (or of the signals)."""
        return round(self.law.top + self.noise, 2)

    def rules_text(self) -> str:
        """Return what students are told about the round."""
        if self.kind == "ra":
            return (
                f"Ra, at tables of {self.group_size}: bots fill the empty seats. Click on the board to play"
                " when it is your turn."
            )
        head = f"{self.title}, in a group of {self.group_size}."
        if self.kind == "common":
            what = (
                f" The item is worth the same to everyone in your group: a value drawn {self.law.describe()}."
                f" Each of you sees a private signal, the worth plus a random error between -{self.noise:g}"
                f" and +{self.noise:g}."
            )
        else:
            what = f" Each of you has a private value, drawn {self.law.describe()}; you see only your own."
        end = f" Ties are broken by a coin flip. Bids from 0 to {self.max_bid:g}."
        practice = " A practice round: its earnings do not count." if self.practice else ""
        return head + what + " " + _PAYS[self.kind] + end + practice

    def to_dict(self) -> dict[str, Any]:
        """Return the settings as JSON-ready data (read back by `from_dict`)."""
        return {
            "kind": self.kind,
            "group_size": self.group_size,
            "law": self.law.to_dict(),
            "noise": self.noise,
            "seconds": self.seconds,
            "practice": self.practice,
            "absent_after": self.absent_after,
        }

    @classmethod
    def from_dict(cls, data: Any) -> RoundSpec:
        """Return the settings in `data`; raise ValueError naming the first field that is wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"a round's settings must be an object, got {type(data).__name__}")
        extra = set(data) - _FIELDS
        if extra:
            raise ValueError(f"unknown settings {sorted(extra)}; known: {sorted(_FIELDS)}")
        kind = data.get("kind")
        if not isinstance(kind, str):
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r:.40}")
        size = data.get("group_size", 4)
        practice = data.get("practice", False)
        if not isinstance(practice, bool):
            raise ValueError(f"practice must be true or false, got {practice!r:.40}")
        law = law_from_dict(data["law"]) if "law" in data else Uniform(0, 100)
        return cls(
            kind=kind,
            group_size=size,
            law=law,
            noise=_field(data, "noise", 0.0, 0, 1e6) or 0.0,
            seconds=_field(data, "seconds", None, 5, 3600),
            practice=practice,
            absent_after=_field(data, "absent_after", 60.0, 1, 3600) or 60.0,
        )
