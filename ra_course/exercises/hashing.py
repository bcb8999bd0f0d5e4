"""Answers kept without showing them: the canonical text of an answer and its SHA-256.

A check compares the student's answer for an example with a stored hash, so neither the
notebook nor the check's code shows the answer. The hidden tests' answers (the teacher's
``grading/answers.py``) are hashed with the salt `HIDDEN`, so that no hidden answer's hash is ever
that of a visible one, even when the answers are equal.
"""

from __future__ import annotations

import hashlib
import math
from fractions import Fraction
from typing import Any

__all__ = ["HIDDEN", "answer_hash", "canonical", "matches_hash"]

#: the salt of the hidden tests' hashes
HIDDEN = "hidden test: "


def canonical(value: Any, digits: int = 9) -> str:
    """Return the text that `answer_hash` hashes: numbers rounded to `digits` decimals.

    Ints, `Fraction`s and floats that agree to `digits` decimals give the same text, so an
    exact answer may be given as a float. Strings, actions (by their notation) and sequences
    of these are supported.

    >>> canonical(Fraction(1, 6)) == canonical(1 / 6), canonical((1, "bid 9"))
    (True, '(1.000000000,bid 9)')
    """
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | Fraction | float):
        x = float(value)
        if not math.isfinite(x):
            return str(x)
        text = f"{x:.{digits}f}"
        return "0." + "0" * digits if text.strip("-0.") == "" else text  # no "-0.000"
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list | tuple):
        return "(" + ",".join(canonical(v, digits) for v in value) + ")"
    return str(value)  # actions: their notation


def answer_hash(value: Any, digits: int = 9, salt: str = "") -> str:
    """Return the SHA-256 of `salt` and the canonical text of `value` (see `canonical`), as hex."""
    return hashlib.sha256((salt + canonical(value, digits)).encode()).hexdigest()


def matches_hash(value: Any, expected: str, digits: int = 9, salt: str = "") -> bool:
    """Return whether `value` hashes to `expected` (with `salt`)."""
    try:
        return answer_hash(value, digits, salt) == expected
    except (TypeError, ValueError, OverflowError):
        return False
