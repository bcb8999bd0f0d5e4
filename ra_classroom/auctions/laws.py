"""The laws a round's private values (or its common value) are drawn from, stated to the class.

Two laws with closed-form theory: `Uniform` on an interval (the classroom's usual $0-$100) and
`Power`, with F(v) = (v / high) ** alpha on [0, high] (alpha > 1 makes high values likelier,
alpha < 1 low ones). Draws use only ``rng.random()`` (stable across Python versions) and are
rounded to `step`, so values read like prices.

>>> import random
>>> law = Uniform(0, 100)
>>> law.draw(random.Random(1))
13.44
>>> law.describe(), Power(2, 100).describe()
('uniform on [0, 100]', 'F(v) = (v/100)^2 on [0, 100]')
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any

__all__ = ["Law", "Power", "Uniform", "law_from_dict"]

_MAX_TOP = 1_000_000.0  # a bound on every law's top, so that bids and earnings stay readable


def _number(data: dict[str, Any], key: str, default: float | None = None) -> float:
    """Return ``data[key]`` as a finite float; raise ValueError naming the key otherwise."""
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"law: {key} must be a number, got {value!r}")
    return float(value)


def _rounded(v: float, step: float) -> float:
    """Return `v` rounded to a multiple of `step`, to two decimals."""
    return round(round(v / step) * step, 2)


@dataclasses.dataclass(frozen=True)
class Uniform:
    """Values uniform on [low, high], rounded to `step`."""

    low: float = 0.0
    high: float = 100.0
    step: float = 0.01

    def __post_init__(self) -> None:
        if not 0 <= self.low < self.high <= _MAX_TOP:
            raise ValueError(f"law: need 0 <= low < high <= {_MAX_TOP:g}, got low={self.low}, high={self.high}")
        if not 0.01 <= self.step <= (self.high - self.low) / 2:
            raise ValueError(f"law: step must be between 0.01 and half the range, got {self.step}")

    @property
    def top(self) -> float:
        """Return the highest value the law gives."""
        return self.high

    def quantile(self, u: float) -> float:
        """Return the value below which a share `u` of draws fall."""
        return self.low + u * (self.high - self.low)

    def cdf(self, v: float) -> float:
        """Return the chance that a draw is at most `v`."""
        return min(1.0, max(0.0, (v - self.low) / (self.high - self.low)))

    def draw(self, rng: random.Random) -> float:
        """Return one value, drawn with ``rng.random()``."""
        return min(self.high, max(self.low, _rounded(self.quantile(rng.random()), self.step)))

    def describe(self) -> str:
        """Return the law in words, as students are told it."""
        return f"uniform on [{self.low:g}, {self.high:g}]"

    def to_dict(self) -> dict[str, Any]:
        """Return the law as JSON-ready data (read back by `law_from_dict`)."""
        return {"law": "uniform", "low": self.low, "high": self.high, "step": self.step}


@dataclasses.dataclass(frozen=True)
class Power:
    """Values on [0, high] with F(v) = (v / high) ** alpha, rounded to `step`."""

    alpha: float = 2.0
    high: float = 100.0
    step: float = 0.01

    def __post_init__(self) -> None:
        if not 0.1 <= self.alpha <= 20:
            raise ValueError(f"law: alpha must be between 0.1 and 20, got {self.alpha}")
        if not 0 < self.high <= _MAX_TOP:
            raise ValueError(f"law: need 0 < high <= {_MAX_TOP:g}, got {self.high}")
        if not 0.01 <= self.step <= self.high / 2:
            raise ValueError(f"law: step must be between 0.01 and half the range, got {self.step}")

    @property
    def low(self) -> float:
        """Return the lowest value the law gives."""
        return 0.0

    @property
    def top(self) -> float:
        """Return the highest value the law gives."""
        return self.high

    def quantile(self, u: float) -> float:
        """Return the value below which a share `u` of draws fall."""
        return float(self.high * u ** (1 / self.alpha))

    def cdf(self, v: float) -> float:
        """Return the chance that a draw is at most `v`."""
        return float(min(1.0, max(0.0, v / self.high)) ** self.alpha)

    def draw(self, rng: random.Random) -> float:
        """Return one value, drawn with ``rng.random()``."""
        return min(self.high, _rounded(self.quantile(rng.random()), self.step))

    def describe(self) -> str:
        """Return the law in words, as students are told it."""
        return f"F(v) = (v/{self.high:g})^{self.alpha:g} on [0, {self.high:g}]"

    def to_dict(self) -> dict[str, Any]:
        """Return the law as JSON-ready data (read back by `law_from_dict`)."""
        return {"law": "power", "alpha": self.alpha, "high": self.high, "step": self.step}


Law = Uniform | Power


def law_from_dict(data: Any) -> Law:
    """Return the law that `data` describes (``{"law": "uniform", "low": 0, "high": 100}``).

    Raises:
        ValueError: the data name no law, or a parameter is missing, not a number or out of range.
    """
    if not isinstance(data, dict):
        raise ValueError(
            f"law: expected an object such as {{'law': 'uniform', 'low': 0, 'high': 100}}, got {data!r:.60}"
        )
    kind = data.get("law")
    extra = set(data) - {"law", "low", "high", "alpha", "step"}
    if extra:
        raise ValueError(f"law: unknown fields {sorted(extra)}")
    if kind == "uniform":
        if "alpha" in data:
            raise ValueError("law: a uniform law has no alpha")
        return Uniform(_number(data, "low", 0.0), _number(data, "high", 100.0), _number(data, "step", 0.01))
    if kind == "power":
        if "low" in data:
            raise ValueError("law: a power law starts at 0 (no low)")
        return Power(_number(data, "alpha", 2.0), _number(data, "high", 100.0), _number(data, "step", 0.01))
    raise ValueError(f"law: 'law' must be 'uniform' or 'power', got {kind!r:.40}")
