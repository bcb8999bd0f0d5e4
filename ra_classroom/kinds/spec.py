"""A round's settings, as the teacher chooses them and as students are told them.

Every round has a kind (see `registry`), a group size, a law of values, a deadline and a few
flags; a kind may add settings of its own (`base.Setting`), kept in `RoundSpec.options` and
written beside the others in `RoundSpec.to_dict`. `RoundSpec.from_dict` reads the settings
sent to the server and names the field that is wrong; the kind checks what is its own.

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
from collections.abc import Mapping
from typing import Any

from ..auctions.laws import Law, Uniform, law_from_dict
from .base import Kind
from .registry import kind as kind_named
from .registry import titles

__all__ = ["RoundSpec", "titles"]

_FIELDS = {"kind", "group_size", "law", "noise", "seconds", "practice", "absent_after", "close_when_done"}


def _field(data: Mapping[str, Any], key: str, default: float | None, low: float, high: float) -> float | None:
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
        kind: the kind's name (see `registry.kinds`): ``first``, ``second``, ``allpay``,
            ``common``, ``ra``, and any kind registered since.
        group_size: bidders per group (2-12), or players per Ra table (3-5); groups are
            formed afresh, at random, every round. 0: the kind's own default (4; 1 for lotteries).
        law: the law of the private values, or of the common value.
        noise: common value only: each signal is the value plus a uniform error in [-noise, noise].
        seconds: the time to bid, after which the round closes itself; None: until the teacher
            closes it (always so for Ra tables).
        practice: a practice round: played and shown, but its earnings do not count.
        absent_after: Ra tables: the seconds a disconnected student's turn waits before a bot
            plays his seat (until he is back).
        close_when_done: close the round as soon as everyone with a value has acted, or every
            table's game is over (False: only when the time is up or the teacher closes it).
        options: the settings the kind adds (`base.Kind.settings`), each checked, defaults filled in.
    """

    kind: str
    group_size: int = 0
    law: Law = Uniform(0, 100)
    noise: float = 0.0
    seconds: float | None = None
    practice: bool = False
    absent_after: float = 60.0
    close_when_done: bool = True
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        k = kind_named(self.kind)
        low, high = k.sizes
        if self.group_size == 0 and not isinstance(self.group_size, bool):
            object.__setattr__(self, "group_size", k.default_size)
        if isinstance(self.group_size, bool) or not isinstance(self.group_size, int):
            raise ValueError(f"group_size must be a whole number, got {self.group_size!r:.40}")
        if not low <= self.group_size <= high:
            raise ValueError(f"group_size ({k.size_word}) must be between {low} and {high}, got {self.group_size}")
        if not isinstance(self.options, Mapping):
            raise ValueError(f"options must be an object, got {type(self.options).__name__}")
        known = {s.name for s in k.settings}
        extra = set(self.options) - known
        if extra:
            raise ValueError(f"unknown settings {sorted(extra)} for {k.title}; known: {sorted(known) or 'none'}")
        object.__setattr__(self, "options", {s.name: s.read(self.options) for s in k.settings})
        k.check(self)
        if not k.deadline and self.seconds is not None:
            raise ValueError(f"{k.title} have no deadline: the teacher closes the round")

    def __hash__(self) -> int:
        return hash((self.kind, self.group_size, self.law, self.noise, self.seconds, self.practice))

    @property
    def of(self) -> Kind:
        """Return the round's kind (the object: its rules, settlement, theory)."""
        return kind_named(self.kind)

    @property
    def title(self) -> str:
        """Return the round's kind in words."""
        return self.of.title

    @property
    def sealed(self) -> bool:
        """Return whether students play in groups, each dealt a value (not at Ra tables)."""
        return self.of.play == "groups"

    @property
    def max_bid(self) -> float:
        """Return the highest bid accepted: the top of the values (or of the signals)."""
        return self.of.max_bid(self)

    def rules_text(self) -> str:
        """Return what students are told about the round."""
        practice = " A practice round: its earnings do not count." if self.practice and self.sealed else ""
        return self.of.rules(self) + practice

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
            "close_when_done": self.close_when_done,
            **self.options,
        }

    @classmethod
    def from_dict(cls, data: Any) -> RoundSpec:
        """Return the settings in `data`; raise ValueError naming the first field that is wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"a round's settings must be an object, got {type(data).__name__}")
        kind = data.get("kind")
        k = kind_named(kind)
        own = {s.name for s in k.settings}
        extra = set(data) - _FIELDS - own
        if extra:
            raise ValueError(f"unknown settings {sorted(extra)}; known: {sorted(_FIELDS | own)}")
        size = data.get("group_size", k.default_size)
        practice, done = data.get("practice", False), data.get("close_when_done", True)
        for key, flag in (("practice", practice), ("close_when_done", done)):
            if not isinstance(flag, bool):
                raise ValueError(f"{key} must be true or false, got {flag!r:.40}")
        law = law_from_dict(data["law"]) if "law" in data else Uniform(0, 100)
        return cls(
            kind=k.name,
            group_size=size,
            law=law,
            noise=_field(data, "noise", 0.0, 0, 1e6) or 0.0,
            seconds=_field(data, "seconds", None, 5, 3600),
            practice=practice,
            absent_after=_field(data, "absent_after", 60.0, 1, 3600) or 60.0,
            close_when_done=done,
            options={key: data[key] for key in own if key in data},
        )
