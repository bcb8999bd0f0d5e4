"""The refusal: what the server answers to anything it will not do, and why, in one sentence."""

from __future__ import annotations

__all__ = ["Refusal"]


class Refusal(ValueError):
    """An action the server refuses; the message says why, for the student or the teacher to read.

    Raised inside a transaction, it rolls the transaction back: a refused action changes nothing.
    """

    @property
    def why(self) -> str:
        """Return the reason, as shown to the student."""
        return str(self)
