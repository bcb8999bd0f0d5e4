"""The hidden tests of the exercise sheets: their positions and seeds, and the hashed answers.

    python -m grading.keys            # print each hidden test's data
    python -m grading.keys --write    # write it into the hidden test cells of exercises/source
    python -m grading.keys --check    # exit 1 if a source sheet's hidden tests are out of date

The answers come from the reference solutions: the source sheet's code cells are run (without
its check cells) and the task's own collector (the code that gathers a student's answers on a
position) is applied to the reference function, then hashed (`answer_hash`). So a teacher who
changes a solution or a position runs ``--write`` and commits the sheet. To add hidden positions
of your own, edit `HIDDEN` below (another seed, more positions, an endgame of your own) and run
``--write``.
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

from ra_core import State
from ra_course.exercises import auctions, bag, bidder, ra_auction, reserve
from ra_course.exercises.hashing import answer_hash

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "exercises" / "source"
NOTEBOOKS = {
    "auctions": "01_auctions_from_first_principles.ipynb",
    "ra_auction": "02_ras_auction.ipynb",
    "bag": "03_expected_value_in_the_bag.ipynb",
    "bidder": "04_write_a_bidder.ipynb",
    "reserve": "05_reserve_prices_and_the_optimal_auction.ipynb",
}
BEGIN, END = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"


def _endgame(suns: list[tuple[list[int], list[int]]], **changes: Any) -> dict[str, Any]:
    """Return sheet 2's example endgame with other suns and `changes` (a hidden endgame)."""
    pairs = zip(ra_auction.ENDGAME["players"], suns, strict=True)
    players = [{**p, "suns_up": up, "suns_down": down} for p, (up, down) in pairs]
    return {**ra_auction.ENDGAME, "players": players, **changes}


ENDGAMES = [
    _endgame(
        [([1, 11], [4, 8]), ([13], [5, 9, 10]), ([6], [2, 7, 12])],
        center_sun=3,
        turn_player=2,
        track=["fortress", "writing", "temple"],
        bag={"ra": 1, "obelisk": 1},
        auction={"trigger": "ra_tile"},
    ),
    _endgame(
        [([7, 10], [2, 12]), ([4], [1, 3, 11]), ([5, 13], [6, 8])],
        center_sun=9,
        turn_player=2,
        track=["temple", "gold", "drought", "funeral", "fortress"],
        bag={"ra": 1, "gold": 1},
        auction={"trigger": "ra_tile"},
    ),
]

#: what each hidden test holds before its answers are added: sheet -> task -> data
HIDDEN: dict[str, dict[str, Any]] = {
    "auctions": {
        "1": [[4, 7101], [7, 7102]],
        "2": [[3, 0.6, 7201], [6, 0.9, 7202]],
        "3": [[3, 0.6, 0.5, 7301], [5, 0.7, 0.8, 7302]],
        "4": [[4, 0.4, 7, 7401]],
        "5": [[4, 7501]],
    },
    "ra_auction": {
        "1": {"seed": 23, "count": 6},
        "2": {"seed": 29, "count": 4},
        "3": {"seed": 31, "count": 6},
        "4": {"positions": ENDGAMES},
        "5": {"positions": ENDGAMES},
    },
    "bag": {key: {"seed": 19 + int(key), "count": 6} for key in "12345"},
    "bidder": {key: {"seed": 900 + 10 * int(key)} for key in "12345"},
    "reserve": {
        "1": {
            "laws": [["0", "0", "0", "1"], ["0", "1/2", "1/2"], ["0", "0", "3", "-2"]],
            "points": ["1/5", "2/3", "9/10"],
        },
        "2": {"laws": [["0", "0", "0", "1"], ["0", "1/2", "1/2"], ["0", "0", "3", "-2"], ["0", "3", "-3", "1"]]},
        "3": {"cases": [[3, "1/3", 3], [5, "3/5", 2], [2, "3/4", 4], [6, "1/2", 1]]},
        "4": [[4, 0.0, 7401], [2, 0.8, 7402]],
        "5": [[4, 7501]],
    },
}


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


def _keyed(data: dict[str, Any], states: list[State], collect: Any, function: Any) -> dict[str, Any]:
    out = {k: v for k, v in data.items() if k != "count"}
    out["keys"] = [answer_hash(collect(function, s, "a hidden position")) for s in states]
    return out


def hidden_data(sheet: str) -> dict[str, Any]:
    """Return the data of each hidden test of `sheet`: task -> what its hidden test cell passes."""
    plan = HIDDEN[sheet]
    if sheet in ("auctions", "bidder"):  # judged from theory and by rules: no answers to store
        return plan
    if sheet == "reserve":  # only Task 3's exact revenues are stored, hashed
        cases = plan["3"]["cases"]
        return {**plan, "3": {"cases": cases, "keys": [answer_hash(x) for x in reserve_revenues(cases)]}}
    ref = reference(sheet)
    out: dict[str, Any] = {}
    for task in (t for t in {"ra_auction": ra_auction.SHEET, "bag": bag.SHEET}[sheet].tasks):
        data = plan[task.key]
        if sheet == "ra_auction":
            states = (
                [State.from_dict(p, strict=False) for p in data["positions"]]
                if "positions" in data
                else ra_auction.epoch3_positions(data["count"], data["seed"])
            )
            collect = ra_auction.COLLECTORS[task.key]
        else:
            states = bag.practice_positions(data["count"], data["seed"])
            collect = bag.COLLECTORS[task.key]
        if collect is None:  # a simulation: judged from the exact law, with a seed of the hidden test
            out[task.key] = {"seed": data["seed"], "positions": len(states)}
            continue
        out[task.key] = _keyed(data, states, collect, ref[task.answer])
    return out


def hidden_line(sheet: str, key: str, answer: str, data: Any) -> str:
    """Return the line of a hidden test cell."""
    return f'grade("{sheet}", "{key}", {answer}, hidden={json.dumps(data)})'


def _cells(sheet: str) -> tuple[Path, dict[str, Any]]:
    path = SOURCE / NOTEBOOKS[sheet]
    return path, json.loads(path.read_text(encoding="utf-8"))


def rewrite(sheet: str, data: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """Return the source notebook of `sheet` with its hidden tests set to `data`, and whether that changed it."""
    _, nb = _cells(sheet)
    tasks = {
        t.key: t
        for t in {"auctions": auctions, "ra_auction": ra_auction, "bag": bag, "bidder": bidder, "reserve": reserve}[
            sheet
        ].SHEET.tasks
    }
    changed = False
    for cell in nb["cells"]:
        gid = cell["metadata"].get("nbgrader", {}).get("grade_id", "")
        if not (gid.startswith("task-") and gid.endswith("-check")):
            continue
        key = gid.split("-")[1]
        source = "".join(cell["source"])
        head = source.split(BEGIN)[0].rstrip("\n")
        text = f"{head}\n{BEGIN}\n{hidden_line(sheet, key, tasks[key].answer, data[key])}\n{END}"
        if text != source:
            changed = True
            parts = text.split("\n")
            cell["source"] = [p + "\n" for p in parts[:-1]] + [parts[-1]]
    return nb, changed


def main(argv: list[str] | None = None) -> int:
    """Print, write or check the hidden tests; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("sheets", nargs="*", default=list(NOTEBOOKS))
    args = parser.parse_args(argv)
    stale = []
    for sheet in args.sheets:
        data = hidden_data(sheet)
        nb, changed = rewrite(sheet, data)
        if args.write and changed:
            path, _ = _cells(sheet)
            path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
            print(f"wrote the hidden tests of {path.relative_to(ROOT)}; execute it and run make student")
        elif args.check and changed:
            stale.append(sheet)
        elif not args.write and not args.check:
            for key, value in data.items():
                print(f"{sheet} task {key}: {json.dumps(value)}")
    for sheet in stale:
        print(
            f"the hidden tests of {NOTEBOOKS[sheet]} are out of date: run python -m grading.keys --write",
            file=sys.stderr,
        )
    return 1 if stale else 0


#: the hashes of the sheets' examples: sheet -> {HASHES key: (task, example position)}
EXAMPLES: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {
    "ra_auction": {
        "lot_values": ("1", ra_auction.LOT_EXAMPLE),
        "winning": ("3", ra_auction.LOT_EXAMPLE),
        "solve": ("4", ra_auction.ENDGAME),
        "best_bid": ("5", ra_auction.ENDGAME),
    },
    "bag": {"odds": ("1", bag.EXAMPLE), "tiles_before_ra": ("2", bag.EXAMPLE), "draw_or_call": ("4", bag.EXAMPLE)},
}


def example_answers(sheet: str) -> dict[str, Any]:
    """Return the reference answers for the examples of `sheet` (what its `HASHES` hash), by `HASHES` key."""
    ref = reference(sheet)
    module = {"ra_auction": ra_auction, "bag": bag}[sheet]
    out = {}
    for name, (key, position) in EXAMPLES[sheet].items():
        task = module.SHEET.task(key)
        out[name] = module.COLLECTORS[key](ref[task.answer], State.from_dict(position, strict=False), "the example")
    return out


def reserve_revenues(cases: list[Any]) -> list[Any]:
    """Return the reference solution's exact revenue for each case (n, r, a) of sheet 5's Task 3."""
    revenue = reference("reserve")["revenue_with_reserve"]
    return [revenue(n, Fraction(r), a) for n, r, a in cases]


if __name__ == "__main__":
    sys.exit(main())
