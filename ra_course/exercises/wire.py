"""Plain data between the teacher's judge and the sandbox that runs a student's code: what may cross.

The judge (``grading/judge.py``) never runs a student's code. It sends a task's inputs to a
sandboxed process that holds the student's functions, and takes back his answer, both as JSON.
`encode` turns a value into JSON-ready data, `decode` turns such data back:

* answers: None, numbers, strings, `Fraction`s, tuples (lists become tuples, as `checking.plain`
  makes them), dicts with keys of any of these kinds, the engine's tiles and actions;
* inputs, which only the sandbox decodes (``inputs=True``): a position (`State`, as its saved
  form), a simulation's `Recorder` (its seed), a generator's state (`random.Random`) and a
  distribution law (`reserve.Law`, its coefficients).

Decoding builds these from Python's own types and nothing else: any other data is an error, so
nothing with behaviour crosses.

>>> import json
>>> decode(json.loads(json.dumps(encode((1, Fraction(1, 3), {"a": 2.5})))))
(1, Fraction(1, 3), {'a': 2.5})
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from ra_core.engine.actions import Action, parse_action
from ra_core.engine.errors import InvalidActionError
from ra_core.engine.state import State
from ra_core.engine.tiles import Tile

from .replay import Recorder

__all__ = ["decode", "encode"]

_ACTION_KINDS = tuple(Action.__args__) if hasattr(Action, "__args__") else ()


def encode(value: Any) -> Any:
    """Return `value` as JSON-ready data (see the module's text); raise TypeError for anything else."""
    kind = type(value)
    if value is None or kind is bool or kind is int or kind is float or kind is str:
        return value
    if kind is Fraction:
        return {"fraction": [value.numerator, value.denominator]}
    if kind is tuple or kind is list:
        return [encode(v) for v in value]
    if kind is dict:
        return {"dict": [[encode(k), encode(v)] for k, v in value.items()]}
    if value is Ellipsis:
        return {"ellipsis": True}
    if kind is Tile:
        return {"tile": int(value)}
    if kind in _ACTION_KINDS:
        return {"action": str(value)}
    if kind is State:
        return {"state": value.to_dict()}
    if kind is Recorder:
        return {"recorder": value.seeded_with}
    if kind is random.Random:
        version, internal, gauss = value.getstate()
        return {"random": [version, list(internal), gauss]}
    coefficients, density = getattr(value, "coefficients", None), getattr(value, "density", None)
    if type(coefficients) is tuple and type(density) is bool:  # a distribution law of sheet 5
        return {"law": [str(c) for c in coefficients], "density": density}
    raise TypeError(f"{kind.__name__} does not cross to the sandbox or back")


def decode(data: Any, inputs: bool = False) -> Any:
    """Return the value `data` (made by `encode`, read by `json`) stands for; raise ValueError if it is none.

    Positions, recorders, generators and laws only with `inputs` (in the sandbox, from the judge).
    """
    kind = type(data)
    if data is None or kind is bool or kind is int or kind is float or kind is str:
        return data
    if kind is list:
        return tuple(decode(v, inputs) for v in data)
    if kind is not dict or len(data) not in (1, 2):
        raise ValueError(f"not plain data: {str(data)[:60]}")
    (tag, body), *rest = data.items()
    if tag == "fraction" and type(body) is list and len(body) == 2 and all(type(x) is int for x in body):
        return Fraction(body[0], body[1])
    if tag == "dict" and type(body) is list and all(type(p) is list and len(p) == 2 for p in body):
        return {decode(k, inputs): decode(v, inputs) for k, v in body}
    if tag == "ellipsis":
        return Ellipsis
    if tag == "tile" and type(body) is int:
        return Tile(body)
    if tag == "action" and type(body) is str:
        try:
            return parse_action(body)
        except InvalidActionError:
            raise ValueError(f"{body[:40]!r} is not an action of the game") from None
    if inputs:
        return _input(tag, body, rest)
    raise ValueError(f"not plain data: {str(data)[:60]}")


def _input(tag: str, body: Any, rest: list[tuple[str, Any]]) -> Any:
    """Return the input `tag` stands for: a position, a recorder, a generator or a law."""
    if tag == "state":
        return State.from_dict(body, strict=False)
    if tag == "recorder" and type(body) is int:
        return Recorder(body)
    if tag == "random" and type(body) is list and len(body) == 3:
        rng = random.Random()
        rng.setstate((body[0], tuple(body[1]), body[2]))
        return rng
    if tag == "law" and rest and rest[0][0] == "density":
        from .reserve import Law

        return Law(body, density=bool(rest[0][1]))
    raise ValueError(f"not an input: {tag}")
