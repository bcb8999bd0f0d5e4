"""Bots entered in a tournament from files or modules, shown under names of their own.

A class tournament takes each student's bot from a file (``alice.py:my_bot``): `load_bot` reads
it, and `NamedBot` shows it under the file's name and carries its origin, so that a process
pool's worker loads it again from the file, whatever the pool's start method.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from ..engine.state import State
from ..play import Policy

__all__ = ["NamedBot", "load_bot"]


@dataclasses.dataclass(frozen=True)
class NamedBot:
    """A policy shown under a name of its own in tables, e.g. a student's bot under the file's name.

    A bot loaded by `load_bot` from a file remembers its `spec`: sent to a process-pool worker,
    it is loaded there again from the file, whatever the pool's start method.
    """

    policy: Policy
    name: str
    spec: str = ""

    def __call__(self, state: State, rng: random.Random) -> Any:
        """Return the wrapped policy's action."""
        return self.policy(state, rng)

    def __reduce__(self) -> tuple[Any, ...]:
        if self.spec:
            return (load_bot, (self.spec,))
        return (NamedBot, (self.policy, self.name))


def load_bot(spec: str) -> Policy:
    """Return the policy named by `spec`: ``FILE.py:NAME`` (shown as the file's name) or ``MODULE:NAME``.

    NAME is a function ``policy(state, rng) -> action``, or a class whose instances are such
    policies (made with no arguments). Raises `ValueError` saying what is missing.
    """
    import importlib
    import importlib.util
    import re
    from pathlib import Path

    where, _, attr = spec.rpartition(":")
    if not where or not attr:
        raise ValueError(f"{spec!r}: expected FILE.py:NAME or MODULE:NAME, e.g. alice.py:my_bot")
    try:
        if where.endswith(".py"):
            path = Path(where)
            if not path.is_file():
                raise ValueError(f"no file {where}")
            name = "ra_bot_" + re.sub(r"\W", "_", path.stem)
            found = importlib.util.spec_from_file_location(name, path)
            assert found is not None and found.loader is not None
            module = importlib.util.module_from_spec(found)
            found.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
    except ValueError as e:
        raise ValueError(f"{spec!r}: {e}") from None
    except Exception as e:  # the student's file itself failed
        raise ValueError(f"{spec!r}: importing {where} failed: {type(e).__name__}: {e}") from None
    bot = getattr(module, attr, None)
    if bot is None:
        names = sorted(n for n, v in vars(module).items() if callable(v) and not n.startswith("_"))
        raise ValueError(f"{spec!r}: {where} has no {attr!r}; it has: {', '.join(names) or 'nothing callable'}")
    if isinstance(bot, type):
        bot = bot()
    if not callable(bot):
        raise ValueError(f"{spec!r}: {attr} is not a function or a class")
    policy: Policy = bot
    if where.endswith(".py"):
        return NamedBot(policy, Path(where).stem, f"{Path(where).resolve()}:{attr}")
    return policy
