"""Seeds drawn when grading: the hidden tests' simulations and games, from the operating system, kept for regrading.

A hidden test whose answer the judge works out itself (a simulation it replays, a tournament it
plays) needs no stored answer, so its seed need not be known beforehand: the judge draws it from
the operating system (`secrets`) the first time it grades a submission's task, and writes it into
the course's record (``hidden_seeds.json`` in the course folder, which no sandbox shows), so that
grading the same submission again plays the same games. No seed of these lies in the package, in
``grading/cases.py`` or anywhere a student's code can read, and none is small enough to try them
all. The hidden tests with hashed answers (saved positions, ``python -m grading.keys``) keep the
cases of ``grading/cases.py``: exercises/TEACHING.md says which is which.

The record is also the one way to fix a hidden test's seeds beforehand (`SeedBook.keep`): a
teacher who wants a submission graded on given games, or a test of the whole grading that must
not depend on luck (the solutions graded at the seeds of ``grading/cases.py``), writes them there
before grading. It lies in the course folder, which no student's code can read or write.

The bots' own random numbers are drawn the same way, per decision (`decision_rng`): from a
secret-keyed hash of the game, the seat and the move, so that no bot can work back to the game's
seed from the generator it is given, and a check's call cannot be told from a game's.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import random
import secrets
from pathlib import Path
from typing import Any

__all__ = ["FRESH", "SeedBook", "decision_rng", "fresh_cases", "record_key"]

#: per sheet, the tasks whose hidden cases take seeds drawn when grading, and where the seed sits in a case:
#: "last" (each case is a list ending with its seed) or "seed" (one dict with the key "seed")
FRESH: dict[str, dict[str, str]] = {
    "auctions": dict.fromkeys(("1", "2", "3", "4", "5"), "last"),
    "bidder": dict.fromkeys(("1", "2", "3", "4", "5"), "seed"),
    "reserve": dict.fromkeys(("4", "5"), "last"),
}
#: the bits of a drawn seed (the engine takes any int; the games of a tournament derive theirs from it)
BITS = 62
#: the key of the bots' per-decision generators, drawn when the judge starts (it never leaves its process)
_KEY = secrets.token_bytes(32)


def decision_rng(*where: object) -> random.Random:
    """Return a fresh generator for one decision of a bot, seeded by a secret-keyed hash of `where`."""
    digest = hmac.new(_KEY, "/".join(map(str, where)).encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))


class SeedBook:
    """The seeds drawn for hidden tests, by submission and task, in a JSON file (None: kept in memory only)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.seeds: dict[str, list[int]] = {}
        if path is not None and path.exists():
            self.seeds = json.loads(path.read_text(encoding="utf-8"))

    def draw(self, key: str, count: int) -> list[int]:
        """Return the `count` seeds recorded for `key` (a submission's task), drawn from the OS and written if new."""
        found = self.seeds.get(key)
        if type(found) is list and len(found) == count and all(type(s) is int for s in found):
            return found
        return self.keep(key, [secrets.randbits(BITS) for _ in range(count)])

    def keep(self, key: str, seeds: list[int]) -> list[int]:
        """Record `seeds` for `key` (see `record_key`) and write the record; return them.

        Grading finds them as if it had drawn them: to fix a submission's hidden games beforehand.
        """
        if not (isinstance(seeds, list) and seeds and all(type(s) is int for s in seeds)):
            raise ValueError(f"seeds are a non-empty list of integers, got {seeds!r:.80}")
        self.seeds[key] = list(seeds)
        if self.path is not None:
            self.path.write_text(json.dumps(self.seeds, indent=1, sort_keys=True), encoding="utf-8")
        return self.seeds[key]


def record_key(who: str, sheet: str, task: str) -> str:
    """Return the key of the seeds of submission `who` (``student/assignment``) for `sheet`'s `task` in a `SeedBook`."""
    return f"{who}/{sheet}/{task}"


def fresh_cases(sheet: str, task: str, cases: Any, book: SeedBook, who: str) -> Any:
    """Return `cases` with the seeds of a `FRESH` task replaced by seeds of `book` for the submission `who`."""
    where = FRESH.get(sheet, {}).get(task)
    if where is None:
        return cases
    out = copy.deepcopy(cases)
    key = record_key(who, sheet, task)
    if where == "seed":
        (out["seed"],) = book.draw(key, 1)
    else:
        for case, seed in zip(out, book.draw(key, len(out)), strict=True):
            case[-1] = seed
    return out
