"""Reading JSON a user hands in, safely: bounded nesting, sizes and numbers, and clear errors.

Saved positions and game records come from files, widgets and students' cells. Before any field
is read, `check_shape` walks the data without recursion and refuses what no saved game holds
(deeper than 12 levels, lists of more than 200 items, numbers beyond 2**63, values JSON does
not have); `load_json` turns text or UTF-8 bytes into data and refuses everything else. Both
raise only `InvalidStateError`, naming where the problem is.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import InvalidStateError

__all__ = ["MAX_DEPTH", "MAX_INT", "MAX_ITEMS", "check_shape", "describe", "load_json"]

MAX_DEPTH = 12  # saved positions nest 4 levels; records 5
MAX_ITEMS = 200  # the longest list in a saved position has 8 entries (a record's actions: see ra_core.play.record)
MAX_INT = 2**63  # seeds are up to 64-bit; every other number of a position is small


def _fail(field: str, problem: str) -> InvalidStateError:
    return InvalidStateError(field, problem)


def describe(value: Any) -> str:
    """Return a short, safe description of a value for a message (no deep repr, no huge numbers)."""
    if isinstance(value, (dict, list)):
        return f"a {type(value).__name__} of {len(value)} item(s)"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_shape(data: Any, field: str = "", *, max_items: int = MAX_ITEMS) -> None:
    """Refuse data nested too deep, too large, or holding values JSON does not have (no recursion).

    `field` names `data` in messages (empty for a whole position: its keys are the field names).
    """
    stack: list[tuple[Any, str, int]] = [(data, field, 1)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise _fail(where or "state", f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(value, dict):
            items = list(value.items())
            if any(not isinstance(k, str) for k, _ in items):
                raise _fail(where or "state", "object keys must be strings")
        elif isinstance(value, list):
            items = [(f"[{i}]", v) for i, v in enumerate(value)]
        elif isinstance(value, (bool, str, float)) or value is None:
            continue  # a float is JSON, but no field of a position is one: the field's reader says so
        elif isinstance(value, int):
            if abs(value) > MAX_INT:
                raise _fail(where or "state", f"a number beyond +-2**63 ({value.bit_length()} bits)")
            continue
        else:
            raise _fail(
                where,
                f"expected JSON data (objects, lists, strings, integers, true/false, null), got {type(value).__name__}",
            )
        if len(items) > max_items:
            raise _fail(where or "state", f"more than {max_items} items")
        for key, v in items:
            stack.append((v, f"{where}{key}" if key.startswith("[") or not where else f"{where}.{key}", depth + 1))


def load_json(text: Any, field: str = "json") -> Any:
    """Return the JSON value in `text` (str or UTF-8 bytes); raise `InvalidStateError` for anything else."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise _fail(field, f"not UTF-8 text: {e.reason} at byte {e.start}") from None
    if not isinstance(text, str):
        raise _fail(field, f"expected JSON text (str or bytes), got {type(text).__name__}")
    if len(text) > 10_000_000:
        raise _fail(field, "more than 10 MB of text")
    try:
        return json.loads(text)
    except RecursionError:
        raise _fail(field, "nested too deep") from None
    except ValueError as e:  # JSONDecodeError, and integers with too many digits
        raise _fail(field, f"not valid JSON: {str(e)[:80]}") from None
