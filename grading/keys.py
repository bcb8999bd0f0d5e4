"""The answer keys of the exercise sheets: computed from the source sheets' solutions, stored hashed.

    python -m grading.keys            # print what is stored, and whether it is up to date
    python -m grading.keys --write    # compute and write grading/answers.py and ra_course/exercises/hashes.py
    python -m grading.keys --check    # exit 1 if either is out of date

The answers come from the reference solutions: each source sheet's code cells are run (without
its check cells) and the task's own collector (the code that gathers a student's answers on a
position: `ra_course.exercises.ra_auction.COLLECTORS`, `ra_course.exercises.bag.COLLECTORS`) is
applied to the reference function, then hashed (`answer_hash`). Two files are written:

* ``grading/answers.py``, the hidden tests' answers for the cases of ``grading/cases.py``: it
  stays with the teacher, and a check reads it only after the student's function has returned;
* ``ra_course/exercises/hashes.py``, the hashes of the visible examples' answers, which the
  installed package needs to check them at home (a hash of an example's answer buys nothing but
  that example: every graded cell runs the hidden tests too).

The simulation tasks and the tasks judged by a property or by the rules need no answers.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from ra_core import State, Tile
from ra_core.analysis.valuation import lot_value
from ra_course.exercises import bag, multiunit, ra_auction, reserve
from ra_course.exercises.hashing import HIDDEN, answer_hash

from .cases import CASES

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "exercises" / "source"
NOTEBOOKS = {
    "auctions": "01_auctions_from_first_principles.ipynb",
    "ra_auction": "02_ras_auction.ipynb",
    "bag": "03_expected_value_in_the_bag.ipynb",
    "bidder": "04_write_a_bidder.ipynb",
    "reserve": "05_reserve_prices_and_the_optimal_auction.ipynb",
    "multiunit": "06_multi_unit_auctions.ipynb",
}
ANSWERS_FILE = ROOT / "grading" / "answers.py"
HASHES_FILE = ROOT / "ra_course" / "exercises" / "hashes.py"


def reference(sheet: str) -> dict[str, Any]:
    """Return the namespace of the source sheet's code cells run in order, its check cells left out."""
    nb = json.loads((SOURCE / NOTEBOOKS[sheet]).read_text(encoding="utf-8"))
    namespace: dict[str, Any] = {"__name__": f"reference_{sheet}"}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in nb["cells"]:
            meta = cell["metadata"].get("nbgrader", {})
            if cell["cell_type"] != "code" or meta.get("grade") or meta.get("grade_id") == "summary":
                continue
            exec(compile("".join(cell["source"]), f"<{NOTEBOOKS[sheet]}>", "exec"), namespace)
    return namespace


def _answer(sheet: str, key: str, ref: dict[str, Any]) -> Any:
    module = {"ra_auction": ra_auction, "bag": bag}[sheet]
    return ref[module.SHEET.task(key).answer]


def visible_answers() -> dict[str, dict[str, list[Any]]]:
    """Return the reference answers of the visible checks, by sheet and task, position by position."""
    out: dict[str, dict[str, list[Any]]] = {"ra_auction": {}, "bag": {}, "reserve": {}}
    ref = reference("ra_auction")
    for key, collect in ra_auction.COLLECTORS.items():
        function = _answer("ra_auction", key, ref)
        out["ra_auction"][key] = [collect(function, state, where) for where, state in ra_auction.visible_positions(key)]
    ref = reference("bag")
    for key in ("1", "2", "4"):
        function = _answer("bag", key, ref)
        out["bag"][key] = [bag.COLLECTORS[key](function, s, where) for where, s in bag.visible_positions()]
    revenue = reference("reserve")["revenue_with_reserve"]
    out["reserve"]["3"] = [revenue(n, r, a) for n, r, a in reserve.CASES]
    out["multiunit"] = multiunit_answers(multiunit.POINTS, multiunit.PROFILES)
    return out


def hidden_answers() -> dict[str, dict[str, list[Any]]]:
    """Return the reference answers of the hidden tests (the cases of ``grading/cases.py``)."""
    out: dict[str, dict[str, list[Any]]] = {"ra_auction": {}, "bag": {}, "reserve": {}}
    ref = reference("ra_auction")
    for key, collect in ra_auction.COLLECTORS.items():
        function = _answer("ra_auction", key, ref)
        states = ra_auction.hidden_positions(CASES["ra_auction"][key])
        out["ra_auction"][key] = [collect(function, s, "a hidden position") for s in states]
    ref = reference("bag")
    for key in ("1", "2", "4"):
        cases = CASES["bag"][key]
        states = bag.practice_positions(cases["count"], cases["seed"])
        out["bag"][key] = [bag.COLLECTORS[key](_answer("bag", key, ref), s, "a hidden position") for s in states]
    cases = CASES["bag"]["5"]
    out["bag"]["5"] = [draw_values(s) for s in bag.practice_positions(cases["count"], cases["seed"])[-2:]]
    revenue = reference("reserve")["revenue_with_reserve"]
    out["reserve"]["3"] = [revenue(n, Fraction(r), a) for n, r, a in CASES["reserve"]["3"]]
    out["multiunit"] = multiunit_answers(CASES["multiunit"]["3"], CASES["multiunit"]["4"])
    return out


def multiunit_answers(points: Any, profiles: Any) -> dict[str, list[Any]]:
    """Return sheet 6's answers: the pay-as-bid bids of each case's values (Task 3), each case's payments (4)."""
    ref = reference("multiunit")
    bid, pay = ref["pay_as_bid"], ref["vickrey_payments"]
    return {
        "3": [[bid(float(Fraction(v)), n, k, a) for v in values] for n, k, a, values in points],
        "4": [tuple(pay(multiunit.profile(seed, b, u), u, r)) for seed, b, u, r in profiles],
    }


def draw_values(state: State) -> list[tuple[int, int]]:
    """Return, for each kind of tile in the bag, what the turn player gets after drawing it (sheet 3, Task 4).

    Task 4's model is the cautious one: a Ra tile drawn costs him the lot (0); another tile joins it.
    """
    me, lot = state.turn_player, [t for t in state.track if t is not None]
    return [
        (int(t), 0 if t is Tile.RA else lot_value(state, me, [*lot, t]))
        for t, n in zip(Tile, state.bag, strict=True)
        if n
    ]


def hashed(answers: dict[str, dict[str, list[Any]]], per_element: bool) -> dict[str, dict[str, list[Any]]]:
    """Return `answers` hashed: each answer, or (`per_element`, the visible checks of sheet 2's Tasks 1-3) each element.

    The hidden answers (not `per_element`) are hashed with the salt `HIDDEN`, the visible ones without.

    Sheet 3's Task 5 keeps its table of values (what each kind of tile drawn is worth): the
    ingredients of the replay, loaded only after the student's function has returned; so does
    sheet 6's Task 3 its bids, compared to a tolerance. The visible hashes of
    sheet 6 are per element: each bid to `multiunit.DIGITS` decimals, each bidder's payment.
    """
    out: dict[str, dict[str, list[Any]]] = {}
    for sheet, tasks in answers.items():
        out[sheet] = {}
        for key, values in tasks.items():
            if sheet == "bag" and key == "5":
                out[sheet][key] = [[[int(k), v] for k, v in table] for table in values]
            elif sheet == "multiunit" and key == "3" and not per_element:
                out[sheet][key] = [list(row) for row in values]  # compared to a tolerance
            elif sheet == "multiunit" and key == "3":
                out[sheet][key] = [[answer_hash(x, digits=multiunit.DIGITS) for x in row] for row in values]
            elif sheet == "multiunit" and per_element:
                out[sheet][key] = [[answer_hash(x) for x in value] for value in values]
            elif per_element and sheet == "ra_auction" and key in ("1", "2", "3"):
                out[sheet][key] = [[answer_hash(e) for e in value] for value in values]
            elif per_element and sheet == "ra_auction":
                out[sheet][key] = [[answer_hash(value)] for value in values]
            else:
                salt = "" if per_element else HIDDEN
                out[sheet][key] = [answer_hash(value, salt=salt) for value in values]
    return out


def _literal(value: Any, indent: int = 0) -> str:
    """Return `value` (dicts, lists, strings, ints) as Python source in ruff's format, one item a line."""
    pad = " " * (indent + 4)
    if isinstance(value, dict):
        items = "".join(f"{pad}{json.dumps(k)}: {_literal(v, indent + 4)},\n" for k, v in value.items())
        return "{\n" + items + " " * indent + "}" if value else "{}"
    if isinstance(value, list):
        items = "".join(f"{pad}{_literal(v, indent + 4)},\n" for v in value)
        return "[\n" + items + " " * indent + "]" if value else "[]"
    return json.dumps(value)


HEADERS = {
    "answers": '"""The hidden tests\' answers, hashed: written by ``python -m grading.keys --write``; do not edit.\n\n'
    "Sheet -> task -> one entry per case of ``grading/cases.py``: the SHA-256 of the canonical answer\n"
    "(``ra_course.exercises.hashing``); sheet 3's Task 5, the value of each kind of tile drawn.\n"
    '"""\n\nfrom __future__ import annotations\n\nfrom typing import Any\n\n'
    "ANSWERS: dict[str, dict[str, list[Any]]] = ",
    "hashes": '"""The SHA-256 of the answers to the sheets\' visible checks, written by ``grading/keys.py``.\n\n'
    "Sheet -> task -> one entry per visible position or case (sheet 2: a list, one hash per player or\n"
    "bid). Do not edit: the teacher's ``grading/keys.py`` computes them from the source sheets' solutions.\n"
    '"""\n\nfrom typing import Any\n\nHASHES: dict[str, dict[str, list[Any]]] = ',
}


def files() -> dict[Path, str]:
    """Return the text of the two files, as `--write` writes them."""
    return {
        ANSWERS_FILE: HEADERS["answers"] + _literal(hashed(hidden_answers(), per_element=False)) + "\n",
        HASHES_FILE: HEADERS["hashes"] + _literal(hashed(visible_answers(), per_element=True)) + "\n",
    }


def main(argv: list[str] | None = None) -> int:
    """Print, write or check the answer keys; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    stale = []
    for path, text in files().items():
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if args.write and text != current:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
        elif text != current:
            stale.append(path)
    for path in stale:
        print(f"{path.relative_to(ROOT)} is out of date: run python -m grading.keys --write", file=sys.stderr)
    if not args.write and not args.check and not stale:
        print("the answer keys are up to date")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
